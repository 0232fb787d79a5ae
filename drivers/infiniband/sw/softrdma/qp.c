// SPDX-License-Identifier: GPL-2.0-only
/*
 * Queue pairs: create, modify, query, destroy, posting, flushing
 * (IBA vol 1 §10.2.4, §10.3, §11.4).  The RC protocol itself is in the
 * engines behind rc.h; this file keeps the object consistent around them.
 */
#include <kunit/visibility.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <trace/events/softrdma.h>

#include "counters.h"
#include "cq.h"
#include "device.h"
#include "mr.h"
#include "mw.h"
#include "param.h"
#include "qp.h"
#include "qp_state.h"
#include "res.h"
#include "srq.h"
#include "transport.h"
#include "uabi.h"
#include "verbs.h"

/*
 * The engines under a QP (qp->eng, transport.h), chosen by the device's
 * transport when the QP is created.
 */
static int softrdma_qp_transport_init(struct softrdma_qp *qp)
{
	return qp->eng->init ? qp->eng->init(qp) : 0;
}

static void softrdma_qp_transport_destroy(struct softrdma_qp *qp)
{
	if (qp->eng->destroy)
		qp->eng->destroy(qp);
}

static void softrdma_qp_transport_reset(struct softrdma_qp *qp)
{
	if (qp->eng->reset)
		qp->eng->reset(qp);
}

static void softrdma_qp_transport_start(struct softrdma_qp *qp)
{
	qp->eng->start(qp);
}

/* Every post rings this, before its packet leaves (not a retpoline). */
static void softrdma_qp_transport_kick(struct softrdma_qp *qp)
{
	softrdma_qp_engine_kick(qp->eng, qp);
}

void softrdma_qp_transport_stop(struct softrdma_qp *qp)
{
	qp->eng->stop(qp);
}

/**
 * softrdma_qp_get() - find a published QP by number, for the data path
 * @sdev: the device
 * @qpn: QP number from a packet
 *
 * Return: the QP with a reference (drop with softrdma_qp_put()), or NULL.
 */
struct softrdma_qp *softrdma_qp_get(struct softrdma_dev *sdev, u32 qpn)
{
	struct softrdma_qp *qp;

	rcu_read_lock();
	qp = xa_load(&sdev->qp_xa, qpn);
	if (qp && !refcount_inc_not_zero(&qp->ref))
		qp = NULL;
	rcu_read_unlock();
	return qp;
}

void softrdma_qp_put(struct softrdma_qp *qp)
{
	if (refcount_dec_and_test(&qp->ref))
		complete(&qp->released);
}

static enum ib_wc_opcode softrdma_wc_opcode(u32 wr_opcode)
{
	switch (wr_opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		return IB_WC_RDMA_WRITE;
	case IB_WR_RDMA_READ:
	case IB_WR_RDMA_READ_WITH_INV:
		return IB_WC_RDMA_READ;
	case IB_WR_ATOMIC_CMP_AND_SWP:
		return IB_WC_COMP_SWAP;
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		return IB_WC_FETCH_ADD;
	case IB_WR_LOCAL_INV:
		return IB_WC_LOCAL_INV;
	case IB_WR_REG_MR:
		return IB_WC_REG_MR;
	case IB_WR_BIND_MW:
		return IB_WC_BIND_MW;
	case SOFTRDMA_WR_ATOMIC_WRITE:
		return SOFTRDMA_WC_ATOMIC_WRITE;
	case SOFTRDMA_WR_FLUSH:
		return SOFTRDMA_WC_FLUSH;
	default:
		return IB_WC_SEND;
	}
}

/*
 * How a memory operation ends, counted: a protection domain mismatch is a
 * local protection error; anything else (a key naming no fast-registration
 * MR, a valid MR registered again, a page size or access it cannot have)
 * a memory management operation error, which Linux calls
 * IB_WC_MW_BIND_ERR.
 */
static enum ib_wc_status softrdma_local_op_end(struct softrdma_qp *qp,
					       int err,
					       enum softrdma_counter done)
{
	if (!err) {
		softrdma_counter_inc(qp->sdev, done);
		return IB_WC_SUCCESS;
	}
	softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_MR_OP_ERR);
	return err == -EACCES ? IB_WC_LOC_PROT_ERR : IB_WC_MW_BIND_ERR;
}

/**
 * softrdma_qp_local_inv() - invalidate a key for a LOCAL_INV or at the
 *	end of an RDMA READ with invalidate
 * @qp: the QP the work request was posted on
 * @key: the key
 *
 * Return: the status to complete the work request with.
 */
enum ib_wc_status softrdma_qp_local_inv(struct softrdma_qp *qp, u32 key)
{
	int err = softrdma_mw_invalidate(qp->sdev, qp, key);

	if (err == -ENOENT)
		err = softrdma_mr_invalidate(qp->sdev, qp->ibqp.pd, key,
					     qp->user);
	/*
	 * Fast-registration MRs are a kernel consumer's: to a user, another
	 * PD's MR is no MR at all, or its LOCAL_INVs would map where the
	 * kernel's MRs are.
	 */
	if (qp->user && err == -EACCES)
		err = -EINVAL;
	return softrdma_local_op_end(qp, err, SOFTRDMA_CNT_MR_LOCAL_INV);
}

/**
 * softrdma_qp_remote_inv() - invalidate the key a Send with Invalidate names
 * @qp: the QP it arrived on
 * @key: the key
 *
 * Return: 0, or -errno (the responder refuses the message).
 */
int softrdma_qp_remote_inv(struct softrdma_qp *qp, u32 key)
{
	int err = softrdma_mw_invalidate(qp->sdev, qp, key);

	if (err == -ENOENT)
		err = softrdma_mr_invalidate(qp->sdev, qp->ibqp.pd, key, true);
	if (!err)
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_MR_REMOTE_INV);
	return err;
}

/**
 * softrdma_qp_exec_local() - execute a REG_MR, LOCAL_INV or BIND_MW
 * @qp: the QP whose SQ reached it; sq.lock held
 * @wqe: the WQE
 *
 * Return: the status to complete it with; on an error the QP must go to
 * ERR, as after any local error (IBA 10.8.3.1).
 */
enum ib_wc_status softrdma_qp_exec_local(struct softrdma_qp *qp,
					 const struct softrdma_send_wqe *wqe)
{
	int err;

	lockdep_assert_held(&qp->sq.lock);

	switch (wqe->opcode) {
	case IB_WR_REG_MR:
		err = softrdma_mr_fast_reg(qp->sdev, qp->ibqp.pd,
					   wqe->wr.reg.mr, wqe->wr.reg.key,
					   wqe->wr.reg.access);
		return softrdma_local_op_end(qp, err,
					     SOFTRDMA_CNT_MR_FAST_REG);
	case IB_WR_LOCAL_INV:
		return softrdma_qp_local_inv(qp, wqe->ex.invalidate_rkey);
	case IB_WR_BIND_MW:
		/* IBA 10.6.7.2: every broken binding rule is a bind error */
		err = softrdma_mw_bind(qp->sdev, qp, &wqe->wr.mw);
		if (!err) {
			softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_MW_BIND);
			return IB_WC_SUCCESS;
		}
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_MR_OP_ERR);
		return IB_WC_MW_BIND_ERR;
	default:
		return IB_WC_LOC_QP_OP_ERR;
	}
}

/**
 * softrdma_qp_complete_send() - retire the oldest outstanding send WQE
 * @qp: the QP; the caller holds qp->sq.lock
 * @wqe: its snapshot
 * @status: how it ended
 *
 * Hands the slot back to the producer (librxe, libsiw or post_send), then
 * posts a completion when the WQE asked for one or failed.  In that
 * order: a consumer on another CPU may post its next WQE the moment it
 * sees the completion, and with a full send queue (ibv_rc_pingpong's is
 * one WQE deep) the slot must be free by then, or its post fails.
 *
 * Return: softrdma_sq_more_posted() once the completion is out: whether
 * a posted WQE awaits softrdma_sq_fetch().  An engine that goes idle when
 * this is true can strand it (libsiw rings no doorbell then, qp.h).
 */
bool softrdma_qp_complete_send(struct softrdma_qp *qp,
			       const struct softrdma_send_wqe *wqe,
			       enum ib_wc_status status)
{
	bool post = status != IB_WC_SUCCESS ||
		    softrdma_wqe_signalled(qp, wqe);
	struct ib_wc wc = {
		.wr_id = wqe->wr_id,
		.status = status,
		.opcode = softrdma_wc_opcode(wqe->opcode),
		.qp = &qp->ibqp,
		.port_num = 1,
	};

	lockdep_assert_held(&qp->sq.lock);

	if (status == IB_WC_SUCCESS)
		wc.byte_len = wqe->length;
	/* @wqe is not read again: the slot may be reused from here on */
	qp->sq.fetched--;
	softrdma_ring_advance_consumer(qp->sq.ring);
	if (post)
		softrdma_cq_post(qp->scq, &wc, false);
	return softrdma_sq_more_posted(qp);
}

/**
 * softrdma_qp_fill_res_sq() - the send queue's progress, for restrack
 * @msg: the netlink message, inside its driver attribute nest
 * @qp: the QP; the caller holds qp->sq.lock
 *
 * Return: 0, or -EMSGSIZE when @msg is full.
 */
int softrdma_qp_fill_res_sq(struct sk_buff *msg, struct softrdma_qp *qp)
{
	lockdep_assert_held(&qp->sq.lock);

	if (!qp->sq.ring)
		return 0;
	if (rdma_nl_put_driver_u32(msg, "sq_fetched", qp->sq.fetched) ||
	    rdma_nl_put_driver_u32(msg, "sq_fetch", qp->sq.fetch) ||
	    rdma_nl_put_driver_u32(msg, "sq_more_posted",
				   softrdma_sq_more_posted(qp)))
		return -EMSGSIZE;
	return 0;
}

/*
 * Fetch for a flush: a WQE that fails validation is still taken, as an
 * empty signalled SEND with the posted wr_id (both ABIs' fetch calls set
 * wr_id first), so that it completes with the flush error like the rest
 * and its slot goes back to the user.
 */
static struct softrdma_send_wqe *softrdma_sq_fetch_flush(struct softrdma_qp *qp)
{
	struct softrdma_sq *sq = &qp->sq;
	struct softrdma_send_wqe *wqe;
	u64 wr_id;

	wqe = softrdma_sq_fetch(qp);
	if (!IS_ERR(wqe))
		return wqe;

	wqe = &sq->wqe[sq->fetch];
	wr_id = wqe->wr_id;
	memset(wqe, 0, sizeof(*wqe));
	wqe->wr_id = wr_id;
	wqe->opcode = IB_WR_SEND;
	wqe->send_flags = IB_SEND_SIGNALED;
	sq->fetch = (sq->fetch + 1) & softrdma_ring_slot_mask(sq->ring);
	sq->fetched++;
	return wqe;
}

static void softrdma_qp_flush_recv(struct softrdma_qp *qp, u64 wr_id)
{
	struct ib_wc wc = {
		.wr_id = wr_id,
		.status = IB_WC_WR_FLUSH_ERR,
		.opcode = IB_WC_RECV,
	};

	lockdep_assert_held(&qp->rq.lock);
	softrdma_qp_complete_recv(qp, &wc, false);
}

/*
 * Complete every WQE still queued with a flush error (IBA 10.3.1: in the
 * error state, outstanding and newly posted work completes in error).
 */
static void softrdma_qp_flush(struct softrdma_qp *qp)
{
	struct softrdma_recv_wqe rwqe;
	u32 slot, n;
	u64 wr_id;
	int pass;

	spin_lock_bh(&qp->sq.lock);
	/*
	 * Two passes: a full siw SQ may be refilled by the user as the
	 * first one frees it; anything posted later is flushed by the next
	 * doorbell (post_send in ERR), never in a loop the user can feed.
	 */
	for (pass = 0; pass < 2; pass++) {
		/* fetch what is posted, so that it is flushed in order */
		while (softrdma_sq_fetch_flush(qp))
			;
		while (qp->sq.fetched) {
			slot = (qp->sq.fetch - qp->sq.fetched) &
			       softrdma_ring_slot_mask(qp->sq.ring);
			softrdma_qp_complete_send(qp, &qp->sq.wqe[slot],
						  IB_WC_WR_FLUSH_ERR);
		}
	}
	spin_unlock_bh(&qp->sq.lock);

	spin_lock_bh(&qp->rq.lock);
	/* first the WQE a message in progress took, from the RQ or SRQ */
	if (qp->eng->release_rwqe && qp->eng->release_rwqe(qp, &wr_id))
		softrdma_qp_flush_recv(qp, wr_id);
	/* an SRQ's WQEs belong to no QP: they stay for the others */
	n = qp->rq.ring ? softrdma_ring_num_slots(qp->rq.ring) : 0;
	/* one ring's worth: a user refilling the RQ cannot keep us here */
	for (; n; n--) {
		/* a refused WQE too: the fetch calls set wr_id first */
		if (softrdma_rq_take(qp, &rwqe) == -ENOENT)
			break;
		softrdma_qp_flush_recv(qp, rwqe.wr_id);
	}
	spin_unlock_bh(&qp->rq.lock);
}

/*
 * RESET empties the send queue (IBA 10.3.1): what is posted, fetched by
 * the engines in the QP's last life or not, is dropped without
 * completions, so that no engine state of the last life (PSNs, offsets)
 * applies to the next and no WQE of the last life runs in it.  One pass,
 * as in softrdma_qp_flush(): what a user posts meanwhile is theirs.  The
 * engines are stopped.
 */
static void softrdma_qp_drop_sq(struct softrdma_qp *qp)
{
	lockdep_assert_held(&qp->state_mutex);

	if (!qp->sq.ring)	/* no send queue yet: nothing to drop */
		return;
	spin_lock_bh(&qp->sq.lock);
	while (softrdma_sq_fetch_flush(qp))
		;
	for (; qp->sq.fetched; qp->sq.fetched--)
		softrdma_ring_advance_consumer(qp->sq.ring);
	spin_unlock_bh(&qp->sq.lock);
}

/*
 * RESET empties the receive queue too (IBA 10.3.1): the receive WQEs
 * posted in the QP's last life are dropped without completions and
 * unread, so that the first receive posted after the move is the first
 * one the next life takes.  Both user ABIs keep posting where they were
 * (librxe at the producer index in the ring, libsiw at a position of its
 * own), so the ring is consumed up to what is posted rather than
 * rewound.  A QP on an SRQ has no receive queue of its own: the SRQ's
 * WQEs are the other QPs' too and stay.  The WQE a message in progress
 * held went with the transport's reset.  The engines are stopped.
 */
static void softrdma_qp_drop_rq(struct softrdma_qp *qp)
{
	lockdep_assert_held(&qp->state_mutex);

	if (!qp->rq.ring)
		return;
	spin_lock_bh(&qp->rq.lock);
	softrdma_ring_drop_posted(qp->rq.ring);
	spin_unlock_bh(&qp->rq.lock);
}

void softrdma_qp_set_state(struct softrdma_qp *qp, enum ib_qp_state state)
{
	lockdep_assert_held(&qp->state_mutex);

	trace_softrdma_qp_state(qp->ibqp.device, softrdma_qpn(qp), qp->state,
				state);
	spin_lock_bh(&qp->sq.lock);
	spin_lock(&qp->rq.lock);
	WRITE_ONCE(qp->state, state);
	spin_unlock(&qp->rq.lock);
	spin_unlock_bh(&qp->sq.lock);
}

/**
 * softrdma_qp_sq_drained_event() - raise SQ Drained, if asked for
 * @qp: the QP, in SQD, its engine drained; sq.lock not held (IBA
 *	11.6.3.1 lets the consumer's handler post to the QP)
 *
 * The engine decides when its drain ended, once per move to SQD; this
 * raises the event only if the consumer asked for it with
 * IB_QP_EN_SQD_ASYNC_NOTIFY.
 */
void softrdma_qp_sq_drained_event(struct softrdma_qp *qp)
{
	struct ib_event event = {
		.device = qp->ibqp.device,
		.element.qp = &qp->ibqp,
		.event = IB_EVENT_SQ_DRAINED,
	};

	lockdep_assert_not_held(&qp->sq.lock);

	if (READ_ONCE(qp->attr.en_sqd_async_notify) && qp->ibqp.event_handler)
		qp->ibqp.event_handler(&event, qp->ibqp.qp_context);
}

static void softrdma_qp_enter_error(struct softrdma_qp *qp)
{
	lockdep_assert_held(&qp->state_mutex);

	softrdma_qp_set_state(qp, IB_QPS_ERR);
	softrdma_qp_transport_stop(qp);
	softrdma_qp_flush(qp);
	/*
	 * The Last WQE Reached affiliated event (IBA vol 1 §11.6.3): a QP
	 * on an SRQ that entered ERR takes no more WQEs from it, so the
	 * consumer may destroy it.
	 */
	if (qp->srq && qp->ibqp.event_handler) {
		struct ib_event event = {
			.device = qp->ibqp.device,
			.element.qp = &qp->ibqp,
			.event = IB_EVENT_QP_LAST_WQE_REACHED,
		};

		qp->ibqp.event_handler(&event, qp->ibqp.qp_context);
	}
}

/*
 * modify_qp's flush: enter ERR, or, on a QP already there, flush again.
 * Both user ABIs post receives (and libsiw sends behind an unrung
 * doorbell) into the rings without a system call, so a receive re-posted
 * just after the flush that entered ERR would never complete; the
 * application's next modify_qp (rdma_disconnect() asks ERR of an IB QP,
 * SQD of an iWARP one) is where the kernel sees it.  rping's teardown
 * waits for that flush completion.
 */
static void softrdma_qp_flush_or_enter_error(struct softrdma_qp *qp)
{
	lockdep_assert_held(&qp->state_mutex);

	if (qp->state == IB_QPS_ERR)
		softrdma_qp_flush(qp);
	else
		softrdma_qp_enter_error(qp);
}

/**
 * softrdma_qp_apply_actions() - the end of every transport's modify_qp
 * @qp: the QP; the caller holds qp->state_mutex, has stopped the
 *	transport for SOFTRDMA_QP_ACT_RESET and stored the attributes
 * @next: the state asked for
 * @actions: the SOFTRDMA_QP_ACT_* of the checked transition (qp_state.h)
 *
 * FLUSH flushes, or enters ERR, and nothing more; otherwise the QP moves
 * to @next, RESET drops the transport's queue state, the posted send and
 * receive WQEs and the error causes not yet acted on, RECV, SEND or
 * RESUME (re)starts its engines and DRAIN asks the engine's drain hook
 * (RoCE RC and UC; iWARP drains in its own modify path).
 */
void softrdma_qp_apply_actions(struct softrdma_qp *qp, enum ib_qp_state next,
			       unsigned int actions)
{
	lockdep_assert_held(&qp->state_mutex);

	if (actions & SOFTRDMA_QP_ACT_FLUSH) {
		softrdma_qp_flush_or_enter_error(qp);
		return;
	}
	if (next != qp->state)
		softrdma_qp_set_state(qp, next);
	if (actions & SOFTRDMA_QP_ACT_RESET) {
		/*
		 * A failure of the QP's last life that its error work has
		 * not taken yet ends with that life: it must not fail the
		 * next one (IBA 10.3.1: RESET forgets everything).
		 */
		xchg(&qp->err_causes, 0);
		softrdma_qp_transport_reset(qp);
		softrdma_qp_drop_sq(qp);
		softrdma_qp_drop_rq(qp);
	}
	if (actions & (SOFTRDMA_QP_ACT_RECV | SOFTRDMA_QP_ACT_SEND |
		       SOFTRDMA_QP_ACT_RESUME))
		softrdma_qp_transport_start(qp);
	if ((actions & SOFTRDMA_QP_ACT_DRAIN) && qp->eng->drain)
		qp->eng->drain(qp);
}

static void softrdma_qp_error_work(struct work_struct *work)
{
	struct softrdma_qp *qp = container_of(work, struct softrdma_qp,
					      error_work);
	struct ib_event event = {
		.device = qp->ibqp.device,
		.element.qp = &qp->ibqp,
	};
	enum softrdma_qp_err_cause cause = SOFTRDMA_QP_ERR_NONE;
	unsigned long causes;

	mutex_lock(&qp->state_mutex);
	/*
	 * The gravest cause asked since the last run: the lowest bit.  Taken
	 * under state_mutex, so a move to RESET (which clears them) either
	 * comes before, or finds them taken and the QP in ERR.
	 */
	causes = xchg(&qp->err_causes, 0);
	if (causes)
		cause = __ffs(causes);
	if (qp->state == IB_QPS_ERR) {
		/* work posted in ERR completes in error */
		softrdma_qp_flush(qp);
	} else if (qp->state != IB_QPS_RESET && cause != SOFTRDMA_QP_ERR_NONE) {
		/* an error, or a flush asked of an iWARP QP closing in SQD */
		softrdma_qp_enter_error(qp);
		if (softrdma_qp_err_event(cause, &event.event) &&
		    qp->ibqp.event_handler)
			qp->ibqp.event_handler(&event, qp->ibqp.qp_context);
	}
	mutex_unlock(&qp->state_mutex);
	softrdma_qp_put(qp);
}

/**
 * softrdma_qp_fail() - move the QP to ERR from any context
 * @qp: the QP
 * @cause: why, which decides the affiliated event (qp_state.c)
 *
 * For the engines: a protocol error or the end of the connection ends
 * the QP; for the post verbs (SOFTRDMA_QP_ERR_FLUSH): work posted in ERR
 * is flushed.  The transition and the flush, which may sleep, run from a
 * work item.
 */
void softrdma_qp_fail(struct softrdma_qp *qp, enum softrdma_qp_err_cause cause)
{
	set_bit(cause, &qp->err_causes);
	refcount_inc(&qp->ref);
	if (!queue_work(system_wq, &qp->error_work))
		softrdma_qp_put(qp);
}

/* A local error that leaves the QP unusable (IBA 11.6.3.1: QP_FATAL) */
void softrdma_qp_error(struct softrdma_qp *qp)
{
	softrdma_qp_fail(qp, SOFTRDMA_QP_ERR_LOCAL);
}

/*
 * What every device checks of a new QP; the transport checks the rest
 * (its capacities, its QP types: UC is RoCE's only).
 */
static int softrdma_qp_check_init(struct softrdma_dev *sdev,
				  const struct ib_qp_init_attr *init, bool user)
{
	if (init->qp_type != IB_QPT_RC && init->qp_type != IB_QPT_UC &&
	    !softrdma_qp_type_is_ud(init->qp_type))
		return -EOPNOTSUPP;
	if (init->create_flags)
		return -EOPNOTSUPP;
	/* the RDMA core checks the SRQ's device; GSI keeps its own RQ */
	if (init->srq && init->qp_type == IB_QPT_GSI)
		return -EINVAL;
	return sdev->tp->qp_check_init(init, user);
}

static void softrdma_qp_destroy_queues(struct softrdma_qp *qp)
{
	if (qp->srq)
		softrdma_srq_detach(qp->srq);
	softrdma_ring_destroy(qp->rq.ring);
	kvfree(qp->sq.wqe);
	softrdma_ring_destroy(qp->sq.ring);
}

/*
 * The GSI QP is QP1 (IBA 13.5.1), one per port.  Returns 0 with @qpn set,
 * -EBUSY when the port has one, -ENOENT for any other QP type.
 */
static int softrdma_qp_reserve_gsi(struct softrdma_dev *sdev,
				   const struct ib_qp_init_attr *init, u32 *qpn)
{
	if (init->qp_type != IB_QPT_GSI)
		return -ENOENT;
	*qpn = SOFTRDMA_GSI_QPN;
	return xa_insert(&sdev->qp_xa, SOFTRDMA_GSI_QPN, NULL, GFP_KERNEL);
}

static int softrdma_create_qp(struct ib_qp *ibqp,
			      struct ib_qp_init_attr *init,
			      struct ib_udata *udata)
{
	struct softrdma_dev *sdev = to_sdev(ibqp->device);
	struct softrdma_qp *qp = to_sqp(ibqp);
	u64 resp[SOFTRDMA_UABI_RESP_MAX / sizeof(u64)] = {};
	const struct softrdma_qp_abi *abi;
	struct ib_ucontext *uctx;
	u32 qpn;
	int err;

	err = softrdma_qp_check_init(sdev, init, !!udata);
	if (err)
		return err;
	abi = udata ? sdev->uabi_ops->qp : &softrdma_kernel_qp_abi;
	uctx = softrdma_ring_udata_uctx(udata, abi->resp_len);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	err = softrdma_res_get(&sdev->res, SOFTRDMA_RES_QP);
	if (err)
		return err;

	qp->sdev = sdev;
	qp->eng = sdev->tp->qp_engine(init->qp_type);
	qp->user = !!udata;
	qp->scq = to_scq(init->send_cq);
	qp->rcq = to_scq(init->recv_cq);
	qp->sq_sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
	qp->state = IB_QPS_RESET;
	refcount_set(&qp->ref, 1);
	init_completion(&qp->released);
	mutex_init(&qp->state_mutex);
	spin_lock_init(&qp->sq.lock);
	spin_lock_init(&qp->sq.post_lock);
	spin_lock_init(&qp->rq.lock);
	spin_lock_init(&qp->rq.post_lock);
	INIT_WORK(&qp->error_work, softrdma_qp_error_work);

	err = abi->create_queues(qp, init, uctx, resp);
	if (err)
		goto out_put_res;
	qp->sq.wqe = kvcalloc(softrdma_ring_num_slots(qp->sq.ring),
			      sizeof(*qp->sq.wqe), SOFTRDMA_GFP_USER_SIZED);
	if (!qp->sq.wqe) {
		err = -ENOMEM;
		goto out_destroy_queues;
	}
	if (init->srq) {
		/* held until softrdma_qp_destroy_queues() */
		qp->srq = to_ssrq(init->srq);
		softrdma_srq_attach(qp->srq);
	}

	/* reserve a number now, publish the QP once it is complete */
	err = softrdma_qp_reserve_gsi(sdev, init, &qpn);
	if (err == -ENOENT)
		err = xa_alloc_cyclic(&sdev->qp_xa, &qpn, NULL,
				      XA_LIMIT(2, 0xffffff), &sdev->qp_next,
				      GFP_KERNEL);
	if (err < 0)
		goto out_destroy_queues;
	ibqp->qp_num = qpn;
	if (sdev->tp->qp_created)
		sdev->tp->qp_created(qp);
	qp->attr.cap = init->cap;
	if (abi->resp_qpn)
		abi->resp_qpn(resp, qpn);
	err = softrdma_qp_transport_init(qp);
	if (err)
		goto out_erase;

	if (udata) {
		err = ib_copy_to_udata(udata, resp, abi->resp_len);
		if (err)
			goto out_transport_destroy;
	}
	xa_store(&sdev->qp_xa, qpn, qp, GFP_KERNEL);
	return 0;

out_transport_destroy:
	softrdma_qp_transport_destroy(qp);
out_erase:
	xa_erase(&sdev->qp_xa, qpn);
out_destroy_queues:
	softrdma_qp_destroy_queues(qp);
out_put_res:
	softrdma_res_put(&sdev->res, SOFTRDMA_RES_QP);
	return err;
}

static int softrdma_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct softrdma_qp *qp = to_sqp(ibqp);
	unsigned long gp;

	/*
	 * softrdma_qp_get() finds the QP under RCU and may still be about to
	 * try its reference after the last one is gone; the core frees the
	 * QP when this returns, so a grace period must pass first.  It is
	 * started here and has mostly run by the end of the teardown.
	 */
	xa_erase(&qp->sdev->qp_xa, softrdma_qpn(qp));
	gp = start_poll_synchronize_rcu();

	mutex_lock(&qp->state_mutex);
	softrdma_qp_set_state(qp, IB_QPS_ERR);
	softrdma_qp_transport_stop(qp);
	mutex_unlock(&qp->state_mutex);
	/* a queued error work holds a reference it can no longer drop */
	if (cancel_work_sync(&qp->error_work))
		softrdma_qp_put(qp);

	softrdma_qp_put(qp);
	wait_for_completion(&qp->released);
	/* IBA 10.6.7.2.5: its type 2 windows go with it */
	softrdma_mw_qp_gone(qp->sdev, qp);

	softrdma_qp_transport_destroy(qp);
	softrdma_qp_destroy_queues(qp);
	if (qp->sdev->tp->qp_destroy)
		qp->sdev->tp->qp_destroy(qp);
	/* the source GID reference rdma_replace_ah_attr() took */
	rdma_destroy_ah_attr(&qp->attr.ah_attr);
	/*
	 * state_mutex is not destroyed: 6.12's core stops resource dumps
	 * only after this returns, and a dump's query_qp still takes it.
	 * The core frees the QP.
	 */
	softrdma_res_put(&qp->sdev->res, SOFTRDMA_RES_QP);
	cond_synchronize_rcu(gp);
	return 0;
}

void softrdma_qp_store_attr(struct softrdma_qp *qp,
			    const struct ib_qp_attr *attr, int mask)
{
	struct ib_qp_attr *a = &qp->attr;

	if (mask & IB_QP_ACCESS_FLAGS)
		a->qp_access_flags = attr->qp_access_flags;
	if (mask & IB_QP_PKEY_INDEX)
		a->pkey_index = attr->pkey_index;
	if (mask & IB_QP_PORT)
		a->port_num = attr->port_num;
	if (mask & IB_QP_QKEY)
		a->qkey = attr->qkey;
	if (mask & IB_QP_PATH_MTU) {
		a->path_mtu = attr->path_mtu;
		qp->mtu = ib_mtu_enum_to_int(attr->path_mtu);
	}
	if (mask & IB_QP_DEST_QPN)
		a->dest_qp_num = attr->dest_qp_num;
	if (mask & IB_QP_RQ_PSN)
		a->rq_psn = attr->rq_psn & 0xffffff;
	if (mask & IB_QP_SQ_PSN)
		a->sq_psn = attr->sq_psn & 0xffffff;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		a->max_dest_rd_atomic = attr->max_dest_rd_atomic;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		a->max_rd_atomic = attr->max_rd_atomic;
	if (mask & IB_QP_MIN_RNR_TIMER)
		a->min_rnr_timer = attr->min_rnr_timer;
	if (mask & IB_QP_TIMEOUT)
		a->timeout = attr->timeout;
	if (mask & IB_QP_RETRY_CNT)
		a->retry_cnt = attr->retry_cnt;
	if (mask & IB_QP_RNR_RETRY)
		a->rnr_retry = attr->rnr_retry;
	if (mask & IB_QP_AV)
		rdma_replace_ah_attr(&a->ah_attr, &attr->ah_attr);
	if (mask & IB_QP_EN_SQD_ASYNC_NOTIFY)
		a->en_sqd_async_notify = attr->en_sqd_async_notify;
}

/*
 * modify_qp (IBA vol 1 §11.2.1.2): the transport applies it (transport.h),
 * on the rules of qp_state.c.
 */
static int softrdma_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			      int mask, struct ib_udata *udata)
{
	struct softrdma_qp *qp = to_sqp(ibqp);

	if (mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	return qp->sdev->tp->modify_qp(qp, attr, mask);
}

/*
 * IBA 11.2.5.3 (Query QP, SQ Draining): in SQD, are send WQEs the QP
 * started before the move still outstanding?  No engine starts a new one
 * in SQD, so the count only falls; at zero SQ Drained is raised.
 */
static bool softrdma_qp_sq_draining(struct softrdma_qp *qp)
{
	bool draining;

	lockdep_assert_held(&qp->state_mutex);

	if (qp->state != IB_QPS_SQD)
		return false;
	spin_lock_bh(&qp->sq.lock);
	draining = qp->sq.fetched != 0;
	spin_unlock_bh(&qp->sq.lock);
	return draining;
}

VISIBLE_IF_KUNIT int softrdma_query_qp(struct ib_qp *ibqp,
				       struct ib_qp_attr *attr, int mask,
				       struct ib_qp_init_attr *init)
{
	struct softrdma_qp *qp = to_sqp(ibqp);

	mutex_lock(&qp->state_mutex);
	*attr = qp->attr;
	attr->ah_attr.grh.sgid_attr = NULL;	/* the core fills it */
	rdma_ah_set_grh(&attr->ah_attr, &qp->attr.ah_attr.grh.dgid,
			qp->attr.ah_attr.grh.flow_label,
			qp->attr.ah_attr.grh.sgid_index,
			qp->attr.ah_attr.grh.hop_limit,
			qp->attr.ah_attr.grh.traffic_class);
	if (softrdma_qp_type_is_ud(ibqp->qp_type))	/* UD: no path */
		memset(&attr->ah_attr, 0, sizeof(attr->ah_attr));
	attr->qp_state = qp->state;
	attr->cur_qp_state = qp->state;
	attr->sq_draining = softrdma_qp_sq_draining(qp);

	memset(init, 0, sizeof(*init));
	init->qp_type = ibqp->qp_type;
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->srq = ibqp->srq;
	init->cap = qp->attr.cap;
	init->sq_sig_type = qp->sq_sig_all ? IB_SIGNAL_ALL_WR :
					     IB_SIGNAL_REQ_WR;
	mutex_unlock(&qp->state_mutex);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_query_qp);

/*
 * Copy a kernel WR's scatter list into a WQE, adding up its length.
 * Returns -EINVAL if the total overflows 32 bits.
 */
int softrdma_copy_sgl(struct softrdma_sge *sge, u32 *length,
		      const struct ib_sge *sg_list, int num_sge)
{
	int i;

	for (i = 0; i < num_sge; i++) {
		sge[i].addr = sg_list[i].addr;
		sge[i].length = sg_list[i].length;
		sge[i].lkey = sg_list[i].lkey;
		if (check_add_overflow(*length, sg_list[i].length, length))
			return -EINVAL;
	}
	return 0;
}

/**
 * softrdma_post_recv_wrs() - a kernel receive WR chain into a kernel ring
 * @ring: a kernel RQ's or SRQ's ring (struct softrdma_recv_wqe slots)
 * @lim: the queue's limits (max_sge)
 * @post_lock: the ring's producer lock, taken here
 * @wr: the chain, posted in order
 * @bad_wr: the first WR not posted, on error
 *
 * Return: 0, -EINVAL for a WR with a bad scatter list (it and the rest
 * are not posted), or -ENOMEM when the ring is full.
 */
int softrdma_post_recv_wrs(struct softrdma_ring *ring,
			   const struct softrdma_wqe_limits *lim,
			   spinlock_t *post_lock, const struct ib_recv_wr *wr,
			   const struct ib_recv_wr **bad_wr)
{
	struct softrdma_recv_wqe *wqe;
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(post_lock, flags);
	for (; wr; wr = wr->next) {
		if (wr->num_sge < 0 || wr->num_sge > lim->max_sge) {
			err = -EINVAL;
			break;
		}
		if (softrdma_ring_full(ring)) {
			err = -ENOMEM;
			break;
		}
		wqe = softrdma_ring_producer_slot(ring);
		wqe->wr_id = wr->wr_id;
		wqe->num_sge = wr->num_sge;
		wqe->length = 0;
		if (softrdma_copy_sgl(wqe->sge, &wqe->length, wr->sg_list,
				      wr->num_sge)) {
			err = -EINVAL;
			break;
		}
		softrdma_ring_advance_producer(ring);
	}
	spin_unlock_irqrestore(post_lock, flags);

	if (err)
		*bad_wr = wr;
	return err;
}

/* One kernel send WR into the SQ ring; the post lock is held. */
static int softrdma_post_one_send(struct softrdma_qp *qp,
				  const struct ib_send_wr *wr)
{
	struct softrdma_sq *sq = &qp->sq;
	struct softrdma_send_wqe *wqe;
	int i;

	/*
	 * A window is bound by users only (IBV_WR_BIND_MW): the RDMA core
	 * has no kernel work request that carries the window, its MR and
	 * the range, so an ib_send_wr of this opcode has nothing to bind.
	 */
	if (wr->opcode == IB_WR_BIND_MW)
		return -EOPNOTSUPP;
	if (wr->num_sge < 0 || wr->num_sge > sq->lim.max_sge)
		return -EINVAL;
	if (!qp->sdev->tp->send_wr_ok(wr))
		return -EINVAL;
	if (!sq->lim.rc && softrdma_wr_is_rc_only(wr->opcode))
		return -EINVAL;
	if (softrdma_ring_full(sq->ring))
		return -ENOMEM;

	wqe = softrdma_ring_producer_slot(sq->ring);
	memset(wqe, 0, offsetof(struct softrdma_send_wqe, sge));
	wqe->wr_id = wr->wr_id;
	wqe->opcode = wr->opcode;
	wqe->send_flags = wr->send_flags;

	switch ((u32)wr->opcode) {
	case IB_WR_SEND_WITH_IMM:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		wqe->ex.imm_data = wr->ex.imm_data;
		break;
	case IB_WR_SEND_WITH_INV:
	case IB_WR_LOCAL_INV:
	case IB_WR_RDMA_READ_WITH_INV:
		wqe->ex.invalidate_rkey = wr->ex.invalidate_rkey;
		break;
	case IB_WR_SEND:
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_READ:
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		break;
	case IB_WR_REG_MR:
		if (sq->lim.ud || wr->num_sge)
			return -EINVAL;
		wqe->wr.reg.mr = to_smr(reg_wr(wr)->mr);
		wqe->wr.reg.key = reg_wr(wr)->key;
		wqe->wr.reg.access = reg_wr(wr)->access;
		break;
	case SOFTRDMA_WR_ATOMIC_WRITE:
		/* an ib_rdma_wr; its eight bytes by SGE or inline */
		if (!SOFTRDMA_HAVE_ATOMIC_WRITE)
			return -EINVAL;
		break;
	default:
		/*
		 * IB_WR_FLUSH too: no ib_send_wr carries its placement type,
		 * selectivity and length
		 */
		return -EINVAL;
	}

	switch ((u32)wr->opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
	case IB_WR_RDMA_READ_WITH_INV:
	case SOFTRDMA_WR_ATOMIC_WRITE:
		wqe->wr.rdma.remote_addr = rdma_wr(wr)->remote_addr;
		wqe->wr.rdma.rkey = rdma_wr(wr)->rkey;
		break;
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		wqe->wr.atomic.remote_addr = atomic_wr(wr)->remote_addr;
		wqe->wr.atomic.compare_add = atomic_wr(wr)->compare_add;
		wqe->wr.atomic.swap = atomic_wr(wr)->swap;
		wqe->wr.atomic.rkey = atomic_wr(wr)->rkey;
		if (wr->num_sge != 1 || wr->sg_list[0].length < 8 ||
		    (wqe->wr.atomic.remote_addr & 7))
			return -EINVAL;
		break;
	default:
		break;
	}
	if (qp->eng->kernel_wqe && qp->eng->kernel_wqe(wqe, wr))
		return -EINVAL;

	if (wr->send_flags & IB_SEND_INLINE) {
		for (i = 0; i < wr->num_sge; i++) {
			u32 len = wr->sg_list[i].length;

			if (len > sq->lim.max_inline - wqe->length)
				return -EINVAL;
			/* virtual DMA: the address is a kernel address */
			memcpy(wqe->inline_data + wqe->length,
			       (void *)(uintptr_t)wr->sg_list[i].addr, len);
			wqe->length += len;
		}
	} else {
		if (softrdma_copy_sgl(wqe->sge, &wqe->length, wr->sg_list,
				      wr->num_sge))
			return -EINVAL;
		wqe->num_sge = wr->num_sge;
	}
	/* IBA 1.5 9.4.9: eight bytes to an aligned address */
	if (wr->opcode == SOFTRDMA_WR_ATOMIC_WRITE &&
	    (wqe->length != sizeof(u64) ||
	     !IS_ALIGNED(wqe->wr.rdma.remote_addr, sizeof(u64))))
		return -EINVAL;

	softrdma_ring_advance_producer(sq->ring);
	return 0;
}

/*
 * post_send: a kernel WR list, or (NULL) librxe's or libsiw's doorbell
 * saying that its SQ ring has new WQEs.  Whether the state takes send
 * work at all is softrdma_qp_send_verdict()'s; work it takes for the
 * flush is flushed from a work item (softrdma_qp_error()).
 */
VISIBLE_IF_KUNIT int softrdma_post_send(struct ib_qp *ibqp,
					const struct ib_send_wr *wr,
					const struct ib_send_wr **bad_wr)
{
	struct softrdma_qp *qp = to_sqp(ibqp);
	int verdict = softrdma_qp_send_verdict(READ_ONCE(qp->state),
					       qp->sdev->tp->connected);
	unsigned long flags;
	int err = 0;

	if (verdict < 0) {
		*bad_wr = wr;
		return verdict;
	}

	if (qp->user) {
		if (wr) {
			*bad_wr = wr;
			return -EINVAL;
		}
	} else {
		spin_lock_irqsave(&qp->sq.post_lock, flags);
		for (; wr; wr = wr->next) {
			err = softrdma_post_one_send(qp, wr);
			if (err) {
				*bad_wr = wr;
				break;
			}
		}
		spin_unlock_irqrestore(&qp->sq.post_lock, flags);
	}

	if (verdict == SOFTRDMA_POST_FLUSH)
		softrdma_qp_fail(qp, SOFTRDMA_QP_ERR_FLUSH);
	else
		softrdma_qp_transport_kick(qp);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_post_send);

static int softrdma_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
			      const struct ib_recv_wr **bad_wr)
{
	struct softrdma_qp *qp = to_sqp(ibqp);
	struct softrdma_rq *rq = &qp->rq;
	int err;

	if (qp->user || !rq->ring || READ_ONCE(qp->state) == IB_QPS_RESET) {
		*bad_wr = wr;
		return -EINVAL;
	}

	err = softrdma_post_recv_wrs(rq->ring, &rq->lim, &rq->post_lock, wr,
				     bad_wr);
	if (READ_ONCE(qp->state) == IB_QPS_ERR)
		softrdma_qp_fail(qp, SOFTRDMA_QP_ERR_FLUSH);
	return err;
}

const struct ib_device_ops softrdma_qp_ops = {
	.create_qp = softrdma_create_qp,
	.destroy_qp = softrdma_destroy_qp,
	.modify_qp = softrdma_modify_qp,
	.post_recv = softrdma_post_recv,
	.post_send = softrdma_post_send,
	.query_qp = softrdma_query_qp,

};
