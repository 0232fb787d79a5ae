// SPDX-License-Identifier: GPL-2.0-only
/*
 * Shared receive queues: create, modify, query, destroy, post_srq_recv,
 * and the take the transports' receive paths use (srq.h).
 */
#include <kunit/visibility.h>
#include <linux/slab.h>

#include "device.h"
#include "param.h"
#include "qp.h"
#include "srq.h"
#include "transport.h"
#include "uabi.h"
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

static int softrdma_create_srq(struct ib_srq *ibsrq,
			       struct ib_srq_init_attr *init,
			       struct ib_udata *udata)
{
	struct softrdma_dev *sdev = to_sdev(ibsrq->device);
	struct softrdma_srq *srq = to_ssrq(ibsrq);
	u64 resp[SOFTRDMA_UABI_RESP_MAX / sizeof(u64)] = {};
	const struct softrdma_srq_abi *abi;
	struct ib_ucontext *uctx;
	u32 num;
	int err;

	if (init->srq_type != IB_SRQT_BASIC)
		return -EOPNOTSUPP;
	if (!init->attr.max_wr ||
	    init->attr.max_wr > softrdma_srq_dev_max_wr(sdev) ||
	    init->attr.max_sge > softrdma_srq_dev_max_sge(sdev) ||
	    init->attr.srq_limit > init->attr.max_wr)
		return -EINVAL;

	abi = udata ? sdev->uabi_ops->srq : &softrdma_kernel_srq_abi;
	uctx = softrdma_ring_udata_uctx(udata, abi->resp_len);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);

	srq->sdev = sdev;
	srq->abi = abi;
	spin_lock_init(&srq->lock);
	spin_lock_init(&srq->post_lock);
	refcount_set(&srq->users, 1);
	srq->limit = init->attr.srq_limit;

	err = abi->create_ring(srq, init, uctx, resp);
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
	if (abi->resp_srqn)
		abi->resp_srqn(resp, num);

	if (udata) {
		err = ib_copy_to_udata(udata, resp, abi->resp_len);
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

static int softrdma_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
			       enum ib_srq_attr_mask mask,
			       struct ib_udata *udata)
{
	struct softrdma_srq *srq = to_ssrq(ibsrq);
	unsigned long flags;
	int err;

	err = softrdma_srq_check_modify(attr, mask, READ_ONCE(srq->max_wr),
					softrdma_srq_dev_max_wr(srq->sdev),
					!!srq->abi->resize);
	if (err)
		return err;
	if (mask & IB_SRQ_MAX_WR) {
		err = srq->abi->resize(srq, attr->max_wr, udata);
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
