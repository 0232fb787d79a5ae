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
#include "queue.h"
#include "res.h"
#include "transport.h"
#include "uabi.h"

/* What query_device advertises as max_cqe, for every CQ of the device. */
/* a negative count from an int caller arrives huge and is refused */
static int softrdma_cq_check_size(const struct softrdma_dev *sdev,
				  unsigned int cqe)
{
	return !cqe || cqe > sdev->tp->lim.max_cqe ? -EINVAL : 0;
}

static int softrdma_create_cq(struct ib_cq *ibcq,
			      const struct ib_cq_init_attr *attr,
			      struct softrdma_create_cq_ctx *ctx)
{
	struct ib_udata *udata = softrdma_create_cq_udata(ctx);
	struct softrdma_dev *sdev = to_sdev(ibcq->device);
	struct softrdma_cq *cq = to_scq(ibcq);
	int err;

	if (attr->flags)
		return -EOPNOTSUPP;	/* no completion timestamps */
	if (attr->comp_vector >= ibcq->device->num_comp_vectors)
		return -EINVAL;

	if (softrdma_cq_check_size(sdev, attr->cqe))
		return -EINVAL;
	err = softrdma_res_get(&sdev->res, SOFTRDMA_RES_CQ);
	if (err)
		return err;
	spin_lock_init(&cq->lock);
	cq->abi = udata ? sdev->uabi_ops->cq : &softrdma_kernel_cq_abi;
	err = cq->abi->create(cq, attr->cqe, udata);
	if (err)
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

static int softrdma_resize_cq(struct ib_cq *ibcq, softrdma_resize_cqe_t cqe,
			      struct ib_udata *udata)
{
	struct softrdma_cq *cq = to_scq(ibcq);

	/* libsiw never asks (it fails resize_cq itself); the ABI cannot */
	if (!cq->abi->resize)
		return -EOPNOTSUPP;
	if (softrdma_cq_check_size(to_sdev(ibcq->device), cqe))
		return -EINVAL;
	return cq->abi->resize(cq, cqe, udata);
}

/* Kernel CQs only: librxe and libsiw poll user CQs in shared memory. */
static int softrdma_poll_cq(struct ib_cq *ibcq, int num_entries,
			    struct ib_wc *wc)
{
	struct softrdma_cq *cq = to_scq(ibcq);

	if (!cq->abi->poll)
		return -EINVAL;
	return cq->abi->poll(cq, num_entries, wc);
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
	int missed;

	spin_lock_irqsave(&cq->lock, irqflags);
	missed = cq->abi->arm(cq, flags);
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return missed;
}

/**
 * softrdma_cq_arm_notify() - arm the CQ's one-shot event word
 * @cq: the CQ; the caller holds cq->lock
 * @flags: req_notify_cq's
 *
 * A solicited-only arm does not weaken an armed next-completion one.
 */
void softrdma_cq_arm_notify(struct softrdma_cq *cq,
			    enum ib_cq_notify_flags flags)
{
	lockdep_assert_held(&cq->lock);

	if ((flags & IB_CQ_SOLICITED_MASK) == IB_CQ_NEXT_COMP ||
	    cq->notify != IB_CQ_NEXT_COMP)
		cq->notify = flags & IB_CQ_SOLICITED_MASK;
}

/**
 * softrdma_cq_notify_fires() - does a new completion consume the arm?
 * @cq: the CQ; the caller holds cq->lock
 * @solicited: the completion is solicited (or in error)
 *
 * Return: true, with the arm cleared, if the handler must be called.
 */
bool softrdma_cq_notify_fires(struct softrdma_cq *cq, bool solicited)
{
	lockdep_assert_held(&cq->lock);

	if (cq->notify == IB_CQ_NEXT_COMP ||
	    (cq->notify == IB_CQ_SOLICITED && solicited)) {
		cq->notify = 0;
		return true;
	}
	return false;
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
	cq->abi->write_cqe(slot, wc);
	softrdma_ring_advance_producer(cq->ring);

	/* IBA 11.4.2.2: a solicited-only arm also fires on an error */
	solicited |= wc->status != IB_WC_SUCCESS;
	fire = cq->abi->notify(cq, solicited);
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
	.SOFTRDMA_RESIZE_CQ_OP = softrdma_resize_cq,

	INIT_RDMA_OBJ_SIZE(ib_cq, softrdma_cq, ibcq),
};
