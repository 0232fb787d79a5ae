// SPDX-License-Identifier: GPL-2.0-only
/*
 * Completion queues (IBA vol 1 §11.2.8, §11.4.2).
 *
 * Completions are posted from the transport's receive path (softirq), its
 * timers and from process context (flushes), so the CQ lock is taken with
 * interrupts off.  The consumer's completion handler is called after the
 * lock is dropped: it may well poll the CQ.
 */
#include <rdma/uverbs_ioctl.h>

#include "compat.h"
#include "cq.h"
#include "device.h"
#include "param.h"
#include "queue_rxe_abi.h"
#include "queue_siw_abi.h"
#include "res.h"
#include "transport.h"
#include "verbs.h"

/* cq_id for libsiw, which only prints it */
static atomic_t softrdma_siw_cq_ids = ATOMIC_INIT(0);

/* What query_device advertises as max_cqe, for every CQ of the device. */
static int softrdma_cq_check_size(const struct softrdma_dev *sdev, int cqe)
{
	return cqe < 1 || cqe > sdev->tp->lim.max_cqe ? -EINVAL : 0;
}

/*
 * A libsiw CQ: num_cqe = roundup_pow_of_two(cqe) slots, all usable, and
 * that is also ibcq.cqe.
 */
static int softrdma_create_siw_cq(struct softrdma_cq *cq, int cqe,
				  struct ib_udata *udata)
{
	struct siw_uresp_create_cq resp = {};
	struct softrdma_ring *ring;
	struct ib_ucontext *uctx;
	u32 num;
	int err;

	if (udata->outlen < sizeof(resp))
		return -EINVAL;

	uctx = &rdma_udata_to_drv_context(udata, struct softrdma_ucontext,
					  ibuc)->ibuc;
	num = roundup_pow_of_two(cqe);
	ring = softrdma_siw_ring_create(uctx, num, SOFTRDMA_SIW_CQ,
					&resp.cq_key);
	if (IS_ERR(ring))
		return PTR_ERR(ring);
	softrdma_ring_set_locks(ring, &cq->lock, NULL);

	resp.cq_id = atomic_inc_return(&softrdma_siw_cq_ids);
	resp.num_cqe = num;
	err = ib_copy_to_udata(udata, &resp, sizeof(resp));
	if (err) {
		softrdma_ring_destroy(ring);
		return err;
	}
	cq->ring = ring;
	cq->ibcq.cqe = num;
	return 0;
}

static int softrdma_create_cq(struct ib_cq *ibcq,
			      const struct ib_cq_init_attr *attr,
			      struct softrdma_create_cq_ctx *ctx)
{
	struct ib_udata *udata = softrdma_create_cq_udata(ctx);
	struct softrdma_dev *sdev = to_sdev(ibcq->device);
	struct softrdma_cq *cq = to_scq(ibcq);
	struct rxe_create_cq_resp resp = {};
	struct ib_ucontext *uctx = NULL;
	struct softrdma_ring *ring;
	u32 num = attr->cqe;
	u32 elem_size;
	int err;

	if (attr->flags)
		return -EOPNOTSUPP;	/* no completion timestamps */
	if (attr->comp_vector >= ibcq->device->num_comp_vectors)
		return -EINVAL;

	if (softrdma_cq_check_size(sdev, attr->cqe))
		return -EINVAL;
	elem_size = SOFTRDMA_KERNEL_CQ_ELEM_SIZE;
	if (udata && sdev->uabi == SOFTRDMA_UABI_RXE) {
		if (udata->outlen < sizeof(resp))
			return -EINVAL;
		uctx = &rdma_udata_to_drv_context(udata,
						  struct softrdma_ucontext,
						  ibuc)->ibuc;
		elem_size = SOFTRDMA_RXE_CQ_ELEM_SIZE;
	}
	err = softrdma_res_get(&sdev->res, SOFTRDMA_RES_CQ);
	if (err)
		return err;
	spin_lock_init(&cq->lock);
	if (udata && sdev->uabi == SOFTRDMA_UABI_SIW) {
		err = softrdma_create_siw_cq(cq, attr->cqe, udata);
		if (err)
			goto out_put_res;
		return 0;
	}

	ring = softrdma_ring_create(uctx, &num, elem_size,
				    SOFTRDMA_RING_USER_CONSUMES, &resp.mi);
	if (IS_ERR(ring)) {
		err = PTR_ERR(ring);
		goto out_put_res;
	}
	softrdma_ring_set_locks(ring, &cq->lock, uctx ? NULL : &cq->lock);

	if (udata) {
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err)
			goto out_destroy_ring;
	}

	cq->ring = ring;
	ibcq->cqe = num;
	return 0;

out_destroy_ring:
	softrdma_ring_destroy(ring);
out_put_res:
	softrdma_res_put(&sdev->res, SOFTRDMA_RES_CQ);
	return err;
}

static int softrdma_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct softrdma_cq *cq = to_scq(ibcq);

	softrdma_ring_destroy(cq->ring);
	softrdma_res_put(&to_sdev(ibcq->device)->res, SOFTRDMA_RES_CQ);
	return 0;
}

static int softrdma_resize_cq(struct ib_cq *ibcq, int cqe,
			      struct ib_udata *udata)
{
	struct softrdma_cq *cq = to_scq(ibcq);
	struct rxe_resize_cq_resp resp = {};
	struct ib_ucontext *uctx = NULL;
	struct softrdma_ring *spare;
	unsigned long flags;
	u32 num = cqe;
	int err;

	/* libsiw never asks (it fails resize_cq itself); the ABI cannot */
	if (softrdma_ring_is_siw(cq->ring))
		return -EOPNOTSUPP;
	if (softrdma_cq_check_size(to_sdev(ibcq->device), cqe))
		return -EINVAL;
	if (udata) {
		if (udata->outlen < sizeof(resp))
			return -EINVAL;
		uctx = &rdma_udata_to_drv_context(udata,
						  struct softrdma_ucontext,
						  ibuc)->ibuc;
	}

	spare = softrdma_ring_create(uctx, &num,
				     softrdma_ring_elem_size(cq->ring),
				     SOFTRDMA_RING_USER_CONSUMES, &resp.mi);
	if (IS_ERR(spare))
		return PTR_ERR(spare);
	softrdma_ring_set_locks(spare, &cq->lock, uctx ? NULL : &cq->lock);

	if (udata) {
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err)
			goto out_destroy_spare;
	}

	spin_lock_irqsave(&cq->lock, flags);
	err = softrdma_ring_resize(cq->ring, spare);
	if (!err)
		ibcq->cqe = num;
	spin_unlock_irqrestore(&cq->lock, flags);

out_destroy_spare:
	/* the old buffer after a resize, the unused new one otherwise */
	softrdma_ring_destroy(spare);
	return err;
}

/* Kernel CQs only: librxe and libsiw poll user CQs in shared memory. */
static int softrdma_poll_cq(struct ib_cq *ibcq, int num_entries,
			    struct ib_wc *wc)
{
	struct softrdma_cq *cq = to_scq(ibcq);
	unsigned long flags;
	int n = 0;

	if (softrdma_ring_is_user(cq->ring))
		return -EINVAL;

	spin_lock_irqsave(&cq->lock, flags);
	while (n < num_entries && !softrdma_ring_empty(cq->ring)) {
		memcpy(&wc[n++], softrdma_ring_consumer_slot(cq->ring),
		       sizeof(*wc));
		softrdma_ring_advance_consumer(cq->ring);
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}

/*
 * Arm the CQ (IBA 11.4.2.2): the next completion, or the next solicited
 * or error completion, calls the completion handler once.
 */
static int softrdma_req_notify_cq(struct ib_cq *ibcq,
				  enum ib_cq_notify_flags flags)
{
	struct softrdma_cq *cq = to_scq(ibcq);
	unsigned long irqflags;
	int missed = 0;

	spin_lock_irqsave(&cq->lock, irqflags);
	if (softrdma_ring_is_siw(cq->ring)) {
		/* the arm lives in the shared notify word, as libsiw's */
		softrdma_siw_cq_arm(cq->ring, (flags & IB_CQ_SOLICITED_MASK) ==
					      IB_CQ_SOLICITED);
		spin_unlock_irqrestore(&cq->lock, irqflags);
		return 0;
	}
	if ((flags & IB_CQ_SOLICITED_MASK) == IB_CQ_NEXT_COMP ||
	    cq->notify != IB_CQ_NEXT_COMP)
		cq->notify = flags & IB_CQ_SOLICITED_MASK;
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) &&
	    !softrdma_ring_is_user(cq->ring) &&
	    !softrdma_ring_empty(cq->ring))
		missed = 1;
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return missed;
}

/**
 * softrdma_cq_post() - add a completion
 * @cq: the CQ
 * @wc: the completion; @wc->qp names the QP
 * @solicited: the completion is for a solicited event (or in error)
 *
 * On overflow the completion is lost and the consumer gets
 * IB_EVENT_CQ_ERR, once (IBA 11.4.2.1): the CQ is unusable from then on.
 *
 * Return: 0, or -ENOSPC when the CQ was full.
 */
int softrdma_cq_post(struct softrdma_cq *cq, const struct ib_wc *wc,
		     bool solicited)
{
	bool fire = false, overflow = false;
	unsigned long flags;
	void *slot;

	spin_lock_irqsave(&cq->lock, flags);
	if (cq->overflowed || softrdma_ring_full(cq->ring)) {
		overflow = !cq->overflowed;
		cq->overflowed = true;
		spin_unlock_irqrestore(&cq->lock, flags);
		if (overflow && cq->ibcq.event_handler) {
			struct ib_event event = {
				.device = cq->ibcq.device,
				.event = IB_EVENT_CQ_ERR,
				.element.cq = &cq->ibcq,
			};

			cq->ibcq.event_handler(&event, cq->ibcq.cq_context);
		}
		return -ENOSPC;
	}

	slot = softrdma_ring_producer_slot(cq->ring);
	if (softrdma_ring_is_siw(cq->ring))
		softrdma_siw_write_cqe(slot, wc);
	else if (softrdma_ring_is_user(cq->ring))
		softrdma_rxe_write_cqe(slot, wc);
	else
		memcpy(slot, wc, sizeof(*wc));
	softrdma_ring_advance_producer(cq->ring);

	/* IBA 11.4.2.2: a solicited-only arm also fires on an error */
	solicited |= wc->status != IB_WC_SUCCESS;
	if (softrdma_ring_is_siw(cq->ring)) {
		fire = softrdma_siw_cq_notify(cq->ring, solicited);
	} else if (cq->notify == IB_CQ_NEXT_COMP ||
		   (cq->notify == IB_CQ_SOLICITED && solicited)) {
		cq->notify = 0;
		fire = true;
	}
	spin_unlock_irqrestore(&cq->lock, flags);

	if (fire && cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
	return 0;
}

const struct ib_device_ops softrdma_cq_ops = {
	.create_cq = softrdma_create_cq,
	.destroy_cq = softrdma_destroy_cq,
	.poll_cq = softrdma_poll_cq,
	.req_notify_cq = softrdma_req_notify_cq,
	.resize_cq = softrdma_resize_cq,

	INIT_RDMA_OBJ_SIZE(ib_cq, softrdma_cq, ibcq),
};
