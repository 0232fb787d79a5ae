// SPDX-License-Identifier: GPL-2.0-only
/*
 * Shared receive queues: create, modify, query, destroy, post_srq_recv,
 * and the take the transports' receive paths use (srq.h).
 */
#include <kunit/visibility.h>
#include <linux/slab.h>
#include <rdma/uverbs_ioctl.h>

#include "device.h"
#include "param.h"
#include "qp.h"
#include "queue_rxe_abi.h"
#include "queue_siw_abi.h"
#include "srq.h"
#include "transport.h"
#include "verbs.h"

/*
 * Fewer than @limit WQEs posted?  Asks only whether the entry at
 * @limit - 1 is posted: on the rxe layout that is the masked index
 * distance, on the siw layout that slot's VALID flag (libsiw fills slots
 * in order, so a gap means fewer).  0 is never below.
 */
VISIBLE_IF_KUNIT bool softrdma_srq_below_limit(struct softrdma_ring *ring,
					       u32 limit)
{
	return limit && !softrdma_ring_posted(ring, limit - 1);
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_srq_below_limit);

static void softrdma_srq_limit_event(struct softrdma_srq *srq)
{
	struct ib_event event = {
		.device = srq->ibsrq.device,
		.element.srq = &srq->ibsrq,
		.event = IB_EVENT_SRQ_LIMIT_REACHED,
	};

	if (srq->ibsrq.event_handler)
		srq->ibsrq.event_handler(&event, srq->ibsrq.srq_context);
}

int softrdma_srq_take(struct softrdma_srq *srq, struct softrdma_recv_wqe *wqe)
{
	unsigned long flags;
	bool fire = false;
	int err;

	spin_lock_irqsave(&srq->lock, flags);
	err = softrdma_recv_ring_take(srq->ring, &srq->lim, wqe);
	if (err != -ENOENT && softrdma_srq_below_limit(srq->ring, srq->limit)) {
		srq->limit = 0;		/* one-shot (IBA 11.6.3.3) */
		fire = true;
	}
	spin_unlock_irqrestore(&srq->lock, flags);

	if (fire)
		softrdma_srq_limit_event(srq);
	return err;
}

void softrdma_srq_attach(struct softrdma_srq *srq)
{
	refcount_inc(&srq->users);
}

void softrdma_srq_detach(struct softrdma_srq *srq)
{
	refcount_dec(&srq->users);
}

static u32 softrdma_srq_dev_max_wr(const struct softrdma_dev *sdev)
{
	return sdev->tp->lim.max_qp_wr;
}

static u32 softrdma_srq_dev_max_sge(const struct softrdma_dev *sdev)
{
	return sdev->tp->lim.max_sge;
}

/* libsiw's ring: power-of-two slots, all usable, six SGEs each */
static int softrdma_srq_create_siw(struct softrdma_srq *srq,
				   struct ib_srq_init_attr *init,
				   struct ib_ucontext *uctx,
				   struct siw_uresp_create_srq *resp)
{
	u32 num = roundup_pow_of_two(init->attr.max_wr);
	u64 key;

	srq->ring = softrdma_siw_ring_create(uctx, num, SOFTRDMA_SIW_RQ, &key);
	if (IS_ERR(srq->ring))
		return PTR_ERR(srq->ring);
	softrdma_ring_set_locks(srq->ring, NULL, &srq->lock);
	srq->lim = (struct softrdma_wqe_limits){
		.max_sge = SOFTRDMA_IWARP_MAX_SGE,
	};
	init->attr.max_wr = num;
	init->attr.max_sge = SOFTRDMA_IWARP_MAX_SGE;
	resp->num_rqe = num;
	resp->srq_key = key;
	return 0;
}

/* librxe's ring and kernel SRQs: rxe layout, one slot left empty */
static int softrdma_srq_create_rxe(struct softrdma_srq *srq,
				   struct ib_srq_init_attr *init,
				   struct ib_ucontext *uctx,
				   struct rxe_create_srq_resp *resp)
{
	u32 max_sge = max(init->attr.max_sge, 1U);
	u32 num = init->attr.max_wr;
	int size;

	size = uctx ? softrdma_rxe_rq_elem_size(max_sge) :
		      sizeof(struct softrdma_recv_wqe);
	if (size < 0)
		return size;
	srq->ring = softrdma_ring_create(uctx, &num, size,
					 SOFTRDMA_RING_USER_PRODUCES,
					 uctx ? &resp->mi : NULL);
	if (IS_ERR(srq->ring))
		return PTR_ERR(srq->ring);
	softrdma_ring_set_locks(srq->ring, uctx ? NULL : &srq->post_lock,
				&srq->lock);
	srq->lim = (struct softrdma_wqe_limits){ .max_sge = max_sge };
	init->attr.max_wr = num;
	init->attr.max_sge = max_sge;
	return 0;
}

static int softrdma_create_srq(struct ib_srq *ibsrq,
			       struct ib_srq_init_attr *init,
			       struct ib_udata *udata)
{
	struct softrdma_dev *sdev = to_sdev(ibsrq->device);
	struct softrdma_srq *srq = to_ssrq(ibsrq);
	struct ib_ucontext *uctx = NULL;
	union {
		struct rxe_create_srq_resp rxe;
		struct siw_uresp_create_srq siw;
	} resp = {};
	size_t resp_len;
	bool siw_abi;
	u32 num;
	int err;

	if (init->srq_type != IB_SRQT_BASIC)
		return -EOPNOTSUPP;
	if (!init->attr.max_wr ||
	    init->attr.max_wr > softrdma_srq_dev_max_wr(sdev) ||
	    init->attr.max_sge > softrdma_srq_dev_max_sge(sdev) ||
	    init->attr.srq_limit > init->attr.max_wr)
		return -EINVAL;

	siw_abi = udata && sdev->uabi == SOFTRDMA_UABI_SIW;
	resp_len = siw_abi ? sizeof(resp.siw) : sizeof(resp.rxe);
	if (udata) {
		if (udata->outlen < resp_len)
			return -EINVAL;
		uctx = &rdma_udata_to_drv_context(udata,
						  struct softrdma_ucontext,
						  ibuc)->ibuc;
	}

	srq->sdev = sdev;
	spin_lock_init(&srq->lock);
	spin_lock_init(&srq->post_lock);
	refcount_set(&srq->users, 1);
	srq->limit = init->attr.srq_limit;

	if (siw_abi)
		err = softrdma_srq_create_siw(srq, init, uctx, &resp.siw);
	else
		err = softrdma_srq_create_rxe(srq, init, uctx, &resp.rxe);
	if (err)
		return err;
	srq->max_wr = init->attr.max_wr;

	err = xa_alloc(&sdev->srq_xa, &num, srq,
		       XA_LIMIT(1, SOFTRDMA_MAX_SRQ), GFP_KERNEL);
	if (err) {
		err = err == -EBUSY ? -ENOMEM : err;
		goto out_destroy_ring;
	}
	srq->srq_num = num;
	if (!siw_abi)
		resp.rxe.srq_num = num;

	if (udata) {
		err = ib_copy_to_udata(udata, &resp, resp_len);
		if (err)
			goto out_erase;
	}
	return 0;

out_erase:
	xa_erase(&sdev->srq_xa, num);
out_destroy_ring:
	softrdma_ring_destroy(srq->ring);
	return err;
}

/**
 * softrdma_srq_check_modify() - the rules of modify_srq
 * @attr: what is asked
 * @mask: IB_SRQ_MAX_WR and/or IB_SRQ_LIMIT
 * @max_wr: the SRQ's capacity now
 * @dev_max_wr: the device's max_srq_wr
 * @can_resize: the ABI can carry a new mapping (librxe, kernel)
 *
 * A limit is checked against the capacity it will apply to (the new one
 * if both are asked); whether the queued WQEs fit a smaller ring is the
 * resize's own check.
 *
 * Return: 0, -EOPNOTSUPP for a resize the ABI cannot carry, -EINVAL.
 */
VISIBLE_IF_KUNIT int softrdma_srq_check_modify(const struct ib_srq_attr *attr,
					       int mask, u32 max_wr,
					       u32 dev_max_wr, bool can_resize)
{
	if (mask & ~(IB_SRQ_MAX_WR | IB_SRQ_LIMIT))
		return -EINVAL;
	if (mask & IB_SRQ_MAX_WR) {
		if (!can_resize)
			return -EOPNOTSUPP;
		if (!attr->max_wr || attr->max_wr > dev_max_wr)
			return -EINVAL;
		max_wr = attr->max_wr;
	}
	if ((mask & IB_SRQ_LIMIT) && attr->srq_limit > max_wr)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_srq_check_modify);

/*
 * IB_SRQ_MAX_WR on an rxe-layout SRQ: a new ring takes the queued WQEs
 * in order.  librxe holds its SRQ lock across the verb and then maps the
 * struct mminfo written to its mmap_info_addr.
 */
static int softrdma_srq_resize(struct softrdma_srq *srq, u32 max_wr,
			       struct ib_udata *udata)
{
	struct rxe_modify_srq_cmd cmd = {};
	struct ib_ucontext *uctx = NULL;
	struct softrdma_ring *spare;
	struct mminfo mi = {};
	unsigned long flags;
	u32 num = max_wr;
	int err;

	if (udata) {
		if (udata->inlen < sizeof(cmd))
			return -EINVAL;
		err = ib_copy_from_udata(&cmd, udata, sizeof(cmd));
		if (err)
			return err;
		uctx = &rdma_udata_to_drv_context(udata,
						  struct softrdma_ucontext,
						  ibuc)->ibuc;
	}

	spare = softrdma_ring_create(uctx, &num,
				     softrdma_ring_elem_size(srq->ring),
				     SOFTRDMA_RING_USER_PRODUCES,
				     uctx ? &mi : NULL);
	if (IS_ERR(spare))
		return PTR_ERR(spare);
	softrdma_ring_set_locks(spare, uctx ? NULL : &srq->post_lock,
				&srq->lock);

	if (udata && copy_to_user(u64_to_user_ptr(cmd.mmap_info_addr), &mi,
				  sizeof(mi))) {
		err = -EFAULT;
		goto out_destroy_spare;
	}

	spin_lock_irqsave(&srq->post_lock, flags);
	spin_lock(&srq->lock);
	err = softrdma_ring_resize(srq->ring, spare);
	if (!err)
		srq->max_wr = num;
	spin_unlock(&srq->lock);
	spin_unlock_irqrestore(&srq->post_lock, flags);

out_destroy_spare:
	/* the old buffer after a resize, the unused new one otherwise */
	softrdma_ring_destroy(spare);
	return err;
}

static int softrdma_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
			       enum ib_srq_attr_mask mask,
			       struct ib_udata *udata)
{
	struct softrdma_srq *srq = to_ssrq(ibsrq);
	unsigned long flags;
	int err;

	err = softrdma_srq_check_modify(attr, mask, READ_ONCE(srq->max_wr),
					softrdma_srq_dev_max_wr(srq->sdev),
					!softrdma_ring_is_siw(srq->ring));
	if (err)
		return err;
	if (mask & IB_SRQ_MAX_WR) {
		err = softrdma_srq_resize(srq, attr->max_wr, udata);
		if (err)
			return err;
	}
	if (mask & IB_SRQ_LIMIT) {
		spin_lock_irqsave(&srq->lock, flags);
		srq->limit = attr->srq_limit;
		spin_unlock_irqrestore(&srq->lock, flags);
	}
	return 0;
}

static int softrdma_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct softrdma_srq *srq = to_ssrq(ibsrq);
	unsigned long flags;

	spin_lock_irqsave(&srq->lock, flags);
	attr->max_wr = srq->max_wr;
	attr->max_sge = srq->lim.max_sge;
	attr->srq_limit = srq->limit;
	spin_unlock_irqrestore(&srq->lock, flags);
	return 0;
}

/* The RDMA core destroys QPs first; a kernel consumer must too. */
static int softrdma_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	struct softrdma_srq *srq = to_ssrq(ibsrq);

	if (refcount_read(&srq->users) != 1)
		return -EBUSY;
	xa_erase(&srq->sdev->srq_xa, srq->srq_num);
	softrdma_ring_destroy(srq->ring);
	return 0;
}

/* Kernel SRQs only: librxe and libsiw post into the ring themselves. */
static int softrdma_post_srq_recv(struct ib_srq *ibsrq,
				  const struct ib_recv_wr *wr,
				  const struct ib_recv_wr **bad_wr)
{
	struct softrdma_srq *srq = to_ssrq(ibsrq);

	if (softrdma_ring_is_user(srq->ring)) {
		*bad_wr = wr;
		return -EINVAL;
	}
	return softrdma_post_recv_wrs(srq->ring, &srq->lim, &srq->post_lock,
				      wr, bad_wr);
}

const struct ib_device_ops softrdma_srq_ops = {
	.create_srq = softrdma_create_srq,
	.destroy_srq = softrdma_destroy_srq,
	.modify_srq = softrdma_modify_srq,
	.post_srq_recv = softrdma_post_srq_recv,
	.query_srq = softrdma_query_srq,

	INIT_RDMA_OBJ_SIZE(ib_srq, softrdma_srq, ibsrq),
};
