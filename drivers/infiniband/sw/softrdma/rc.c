// SPDX-License-Identifier: GPL-2.0-only
/*
 * The RC engines' life: set up, reset, started and stopped by qp.c, and
 * the receive entry that sends a packet to the responder (requests) or
 * to the completer (responses and acknowledgements), IBA vol 1 9.7.
 */
#include <linux/slab.h>
#include <kunit/visibility.h>
#include <trace/events/softrdma.h>

#include "counters.h"
#include "device.h"
#include "mr.h"
#include "qp.h"
#include "psn.h"
#include "rc.h"
#include "roce_hdr.h"
#include "roce_net.h"
#include "roce_opcode.h"
#include "roce_pkt.h"
#include "roce_qp.h"

/* --- the engines' state machines ---------------------------------------- */

static const char * const softrdma_rc_req_state_names[] = {
	[SOFTRDMA_RC_REQ_STOPPED] = "STOPPED",
	[SOFTRDMA_RC_REQ_IDLE] = "IDLE",
	[SOFTRDMA_RC_REQ_RUNNING] = "RUNNING",
	[SOFTRDMA_RC_REQ_PAUSED] = "PAUSED",
	[SOFTRDMA_RC_REQ_RNR_WAIT] = "RNR_WAIT",
	[SOFTRDMA_RC_REQ_FAILED] = "FAILED",
};

static_assert(ARRAY_SIZE(softrdma_rc_req_state_names) ==
	      SOFTRDMA_RC_REQ_NR_STATES);

const char *softrdma_rc_req_state_name(enum softrdma_rc_req_state state)
{
	if (state >= SOFTRDMA_RC_REQ_NR_STATES)
		return "?";
	return softrdma_rc_req_state_names[state];
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_req_state_name);

#define S(x)	BIT(SOFTRDMA_RC_REQ_##x)

/*
 * The states each requester state may move to.  STOPPED is reachable
 * from all (softrdma_rc_stop()); a FAILED requester is not restarted,
 * only stopped when its QP enters ERR.  A pause asked for while an RNR
 * wait runs is no move: the wait ends it (softrdma_rc_retry_timer()).
 */
static const u8 softrdma_rc_req_moves[] = {
	[SOFTRDMA_RC_REQ_STOPPED] = S(IDLE) | S(RUNNING),
	[SOFTRDMA_RC_REQ_IDLE] = S(RUNNING) | S(STOPPED),
	[SOFTRDMA_RC_REQ_RUNNING] = S(PAUSED) | S(RNR_WAIT) | S(FAILED) |
				    S(STOPPED),
	[SOFTRDMA_RC_REQ_PAUSED] = S(RUNNING) | S(RNR_WAIT) | S(FAILED) |
				   S(STOPPED),
	[SOFTRDMA_RC_REQ_RNR_WAIT] = S(RUNNING) | S(FAILED) | S(STOPPED),
	[SOFTRDMA_RC_REQ_FAILED] = S(STOPPED),
};

#undef S

static_assert(ARRAY_SIZE(softrdma_rc_req_moves) == SOFTRDMA_RC_REQ_NR_STATES);

bool softrdma_rc_req_may_move(enum softrdma_rc_req_state from,
			      enum softrdma_rc_req_state to)
{
	if (from >= SOFTRDMA_RC_REQ_NR_STATES ||
	    to >= SOFTRDMA_RC_REQ_NR_STATES)
		return false;
	return softrdma_rc_req_moves[from] & BIT(to);
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_req_may_move);

/**
 * softrdma_rc_req_move() - move the requester to @next
 * @qp: the QP; sq.lock held
 * @next: the new state
 *
 * A move the table does not allow is a bug: it is refused (the
 * requester stays), warned about once and traced.
 */
void softrdma_rc_req_move(struct softrdma_qp *qp,
			  enum softrdma_rc_req_state next)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	enum softrdma_rc_req_state cur = rc->req_state;
	bool ok;

	lockdep_assert_held(&qp->sq.lock);

	if (cur == next)
		return;
	ok = softrdma_rc_req_may_move(cur, next);
	trace_softrdma_engine_move(qp->ibqp.device, softrdma_qpn(qp),
				   "rc_req", softrdma_rc_req_state_name(cur),
				   softrdma_rc_req_state_name(next), !ok);
	if (WARN_ONCE(!ok, "softrdma: rc requester %s -> %s refused\n",
		      softrdma_rc_req_state_name(cur),
		      softrdma_rc_req_state_name(next)))
		return;
	rc->req_state = next;
}

static const char * const softrdma_rc_resp_state_names[] = {
	[SOFTRDMA_RC_RESP_STOPPED] = "STOPPED",
	[SOFTRDMA_RC_RESP_RUNNING] = "RUNNING",
	[SOFTRDMA_RC_RESP_READING] = "READING",
	[SOFTRDMA_RC_RESP_FAILED] = "FAILED",
};

static_assert(ARRAY_SIZE(softrdma_rc_resp_state_names) ==
	      SOFTRDMA_RC_RESP_NR_STATES);

const char *softrdma_rc_resp_state_name(enum softrdma_rc_resp_state state)
{
	if (state >= SOFTRDMA_RC_RESP_NR_STATES)
		return "?";
	return softrdma_rc_resp_state_names[state];
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_resp_state_name);

#define S(x)	BIT(SOFTRDMA_RC_RESP_##x)

/*
 * The states each responder state may move to.  STOPPED is reachable
 * from all; a FAILED responder only stops.  A read answered in full, or
 * given up for a duplicate that asks for it again, ends READING.
 */
static const u8 softrdma_rc_resp_moves[] = {
	[SOFTRDMA_RC_RESP_STOPPED] = S(RUNNING),
	[SOFTRDMA_RC_RESP_RUNNING] = S(READING) | S(FAILED) | S(STOPPED),
	[SOFTRDMA_RC_RESP_READING] = S(RUNNING) | S(FAILED) | S(STOPPED),
	[SOFTRDMA_RC_RESP_FAILED] = S(STOPPED),
};

#undef S

static_assert(ARRAY_SIZE(softrdma_rc_resp_moves) ==
	      SOFTRDMA_RC_RESP_NR_STATES);

bool softrdma_rc_resp_may_move(enum softrdma_rc_resp_state from,
			       enum softrdma_rc_resp_state to)
{
	if (from >= SOFTRDMA_RC_RESP_NR_STATES ||
	    to >= SOFTRDMA_RC_RESP_NR_STATES)
		return false;
	return softrdma_rc_resp_moves[from] & BIT(to);
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_resp_may_move);

/**
 * softrdma_rc_resp_move() - move the responder to @next
 * @qp: the QP; rq.lock held
 * @next: the new state
 *
 * As softrdma_rc_req_move().
 */
void softrdma_rc_resp_move(struct softrdma_qp *qp,
			   enum softrdma_rc_resp_state next)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	enum softrdma_rc_resp_state cur = rc->resp_state;
	bool ok;

	lockdep_assert_held(&qp->rq.lock);

	if (cur == next)
		return;
	ok = softrdma_rc_resp_may_move(cur, next);
	trace_softrdma_engine_move(qp->ibqp.device, softrdma_qpn(qp),
				   "rc_resp", softrdma_rc_resp_state_name(cur),
				   softrdma_rc_resp_state_name(next), !ok);
	if (WARN_ONCE(!ok, "softrdma: rc responder %s -> %s refused\n",
		      softrdma_rc_resp_state_name(cur),
		      softrdma_rc_resp_state_name(next)))
		return;
	rc->resp_state = next;
}

/**
 * softrdma_rc_init() - set up the engines of a new QP
 * @qp: the QP, its SQ ring created
 *
 * Context: process; may sleep.
 * Return: 0 or -ENOMEM.
 */
int softrdma_rc_init(struct softrdma_qp *qp)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);

	rc->wqe = kvcalloc(softrdma_ring_capacity(qp->sq.ring) + 1,
			   sizeof(*rc->wqe), SOFTRDMA_GFP_USER_SIZED);
	if (!rc->wqe)
		return -ENOMEM;
	skb_queue_head_init(&rc->req_txq);
	skb_queue_head_init(&rc->resp_txq);
	skb_queue_head_init(&rc->backlog);
	INIT_DELAYED_WORK(&rc->req_work, softrdma_rc_req_work);
	INIT_DELAYED_WORK(&rc->resp_work, softrdma_rc_resp_work);
	timer_setup(&rc->retry_timer, softrdma_rc_retry_timer, 0);
	/* not published yet: the first state is set, not moved to */
	rc->req_state = SOFTRDMA_RC_REQ_STOPPED;
	rc->resp_state = SOFTRDMA_RC_RESP_STOPPED;
	return 0;
}

/**
 * softrdma_rc_destroy() - free what softrdma_rc_init() allocated
 * @qp: the QP, stopped
 */
void softrdma_rc_destroy(struct softrdma_qp *qp)
{
	kvfree(softrdma_qp_rc(qp)->wqe);
	softrdma_qp_rc(qp)->wqe = NULL;
}

/**
 * softrdma_rc_reset() - forget all protocol state (RESET, IBA 10.3.1)
 * @qp: the QP, stopped; state_mutex held
 */
void softrdma_rc_reset(struct softrdma_qp *qp)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);

	lockdep_assert_held(&qp->state_mutex);

	spin_lock_bh(&qp->sq.lock);
	/* stopped already (softrdma_rc_stop()): nothing to move */
	softrdma_rc_req_move(qp, SOFTRDMA_RC_REQ_STOPPED);
	rc->req_idx = 0;
	rc->req_outstanding_rd = 0;
	rc->rewound = false;
	rc->rereading = false;
	softrdma_rc_rd_forget(&rc->rd_ahead);
	softrdma_rc_rd_replay_start(&rc->rd_replay, 0, 0);
	rc->req_backoff_us = 0;
	rc->sqd = SOFTRDMA_RC_SQD_WAIT;
	__skb_queue_purge(&rc->req_txq);
	spin_unlock_bh(&qp->sq.lock);

	spin_lock_bh(&qp->rq.lock);
	softrdma_rc_resp_move(qp, SOFTRDMA_RC_RESP_STOPPED);
	rc->comm_est = false;
	rc->resp_noted = false;
	rc->seq.nak_sent = false;
	rc->ack_pending = false;
	rc->ack_deferred = false;
	rc->msn = 0;
	rc->seq.msg = SOFTRDMA_RC_MSG_NONE;
	rc->have_rwqe = false;
	rc->resp_held = false;
	rc->res_next = 0;
	memset(rc->res, 0, sizeof(rc->res));
	rc->resp_backoff_us = 0;
	__skb_queue_purge(&rc->resp_txq);
	__skb_queue_purge(&rc->backlog);
	spin_unlock_bh(&qp->rq.lock);
}

/**
 * softrdma_rc_start() - let the engines run in the QP's new state
 * @qp: the QP; state_mutex held, qp->state already RTR or RTS
 *
 * RTR starts the responder at rq_psn; RTS the requester at sq_psn
 * (IBA 10.3.1); a later call (RTS to RTS, SQD to RTS) only resumes,
 * and leaves a requester that failed (its QP on its way to ERR) failed.
 */
void softrdma_rc_start(struct softrdma_qp *qp)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);

	lockdep_assert_held(&qp->state_mutex);

	spin_lock_bh(&qp->rq.lock);
	if (rc->resp_state == SOFTRDMA_RC_RESP_STOPPED &&
	    qp->state >= IB_QPS_RTR) {
		softrdma_rc_resp_move(qp, SOFTRDMA_RC_RESP_RUNNING);
		rc->seq.psn = qp->attr.rq_psn;
	}
	spin_unlock_bh(&qp->rq.lock);

	spin_lock_bh(&qp->sq.lock);
	/* RTS: the next move to SQD drains anew */
	if (qp->state == IB_QPS_RTS)
		rc->sqd = SOFTRDMA_RC_SQD_WAIT;
	if (rc->req_state == SOFTRDMA_RC_REQ_STOPPED)
		softrdma_rc_req_move(qp, SOFTRDMA_RC_REQ_IDLE);
	if (rc->req_state == SOFTRDMA_RC_REQ_IDLE &&
	    qp->state == IB_QPS_RTS) {
		softrdma_rc_req_move(qp, SOFTRDMA_RC_REQ_RUNNING);
		rc->req_psn = qp->attr.sq_psn;
		rc->una_psn = qp->attr.sq_psn;
		rc->sent_psn = qp->attr.sq_psn;
		rc->cwnd = SOFTRDMA_RC_WINDOW;
		rc->retry_left = qp->attr.retry_cnt;
		rc->rnr_left = qp->attr.rnr_retry;
	}
	spin_unlock_bh(&qp->sq.lock);

	softrdma_rc_kick(qp);
}

/**
 * softrdma_rc_kick() - the doorbell: send what was posted
 * @qp: the QP
 *
 * Context: any but hard irq; runs the requester right here.
 */
void softrdma_rc_kick(struct softrdma_qp *qp)
{
	spin_lock_bh(&qp->sq.lock);
	softrdma_rc_req_run(qp);
	spin_unlock_bh(&qp->sq.lock);
	softrdma_rc_req_flush(qp);
}

/**
 * softrdma_rc_sq_drained() - has a drain ended?
 * @qp: the QP; sq.lock held
 *
 * IBA 10.3.1, 11.6.3.1: in SQD the requester starts no new WQE; once
 * every WQE it started has completed, the QP raises IB_EVENT_SQ_DRAINED,
 * once per move to SQD, if the consumer asked for it
 * (IB_QP_EN_SQD_ASYNC_NOTIFY).  Called after every retirement and when
 * SQD is entered; it only marks the event owed: whoever drops sq.lock
 * next raises it (softrdma_rc_sq_drained_take()).
 */
void softrdma_rc_sq_drained(struct softrdma_qp *qp)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);

	lockdep_assert_held(&qp->sq.lock);

	if (qp->state != IB_QPS_SQD || rc->sqd != SOFTRDMA_RC_SQD_WAIT ||
	    qp->sq.fetched || !softrdma_rc_req_active(rc->req_state))
		return;
	rc->sqd = SOFTRDMA_RC_SQD_OWED;
}

/**
 * softrdma_rc_sq_drained_take() - take the SQ Drained event owed
 * @qp: the QP; sq.lock held, about to be dropped
 *
 * Return: true if the caller must softrdma_qp_sq_drained_event() once it
 * has dropped sq.lock.
 */
bool softrdma_rc_sq_drained_take(struct softrdma_qp *qp)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);

	lockdep_assert_held(&qp->sq.lock);

	if (rc->sqd != SOFTRDMA_RC_SQD_OWED)
		return false;
	rc->sqd = SOFTRDMA_RC_SQD_DONE;
	return true;
}

/**
 * softrdma_rc_drain() - the QP entered SQD
 * @qp: the QP; state_mutex held, qp->state SQD
 *
 * The requester finishes the WQEs it started (softrdma_rc_req_run() takes
 * no new one in SQD); SQ Drained follows when they are done, at once if
 * none is outstanding.  A drain that ended before this ran (the last
 * WQE retired between the move and here) raised it already.
 */
void softrdma_rc_drain(struct softrdma_qp *qp)
{
	bool raise;

	lockdep_assert_held(&qp->state_mutex);

	spin_lock_bh(&qp->sq.lock);
	softrdma_rc_sq_drained(qp);
	raise = softrdma_rc_sq_drained_take(qp);
	spin_unlock_bh(&qp->sq.lock);
	if (raise)
		softrdma_qp_sq_drained_event(qp);
}

/**
 * softrdma_rc_release_rwqe() - give the flush the receive WQE a message holds
 * @qp: the QP; stopped, rq.lock held
 * @wr_id: set to the WQE's wr_id
 *
 * A message in progress (on UC also one dropped part-way) holds the
 * receive WQE it took from the RQ or the SRQ.  In ERR it completes with
 * a flush error like those still posted (IBA 10.3.1), before them.
 *
 * Return: true if a WQE was held.
 */
bool softrdma_rc_release_rwqe(struct softrdma_qp *qp, u64 *wr_id)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);

	lockdep_assert_held(&qp->rq.lock);
	if (!rc->have_rwqe)
		return false;
	rc->have_rwqe = false;
	*wr_id = rc->rwqe.wr_id;
	return true;
}

/**
 * softrdma_rc_stop() - stop the engines; nothing runs once this returns
 * @qp: the QP; state_mutex held
 *
 * Marks both engines stopped under their locks (so nothing re-arms),
 * then waits for the timer and the work items.  Packets already being
 * handled in the receive path hold a QP reference and find the engines
 * stopped.  The responder first sends the ACKs it owes.
 */
void softrdma_rc_stop(struct softrdma_qp *qp)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);

	lockdep_assert_held(&qp->state_mutex);

	spin_lock_bh(&qp->sq.lock);
	softrdma_rc_req_move(qp, SOFTRDMA_RC_REQ_STOPPED);
	/* a flush sending with the lock dropped: its PSN is of this life */
	rc->req_life++;
	__skb_queue_purge(&rc->req_txq);
	/* nothing re-arms a stopped requester's timer; a start finds it off */
	rc->retry_armed = false;
	spin_unlock_bh(&qp->sq.lock);
	softrdma_rc_resp_settle(qp);
	spin_lock_bh(&qp->rq.lock);
	softrdma_rc_resp_move(qp, SOFTRDMA_RC_RESP_STOPPED);
	__skb_queue_purge(&rc->resp_txq);
	__skb_queue_purge(&rc->backlog);
	spin_unlock_bh(&qp->rq.lock);

	timer_delete_sync(&rc->retry_timer);
	cancel_delayed_work_sync(&rc->req_work);
	cancel_delayed_work_sync(&rc->resp_work);
	/* a work item may have armed the timer before it saw the stop */
	timer_delete_sync(&rc->retry_timer);
}

/**
 * softrdma_rc_alloc_skb() - an skb for a packet to the QP's peer
 * @qp: the QP
 * @hdr_len: as for softrdma_roce_alloc_skb()
 * @payload_len: as for softrdma_roce_alloc_skb()
 *
 * The packet is built for the QP's path as it is now and goes there,
 * whatever path the QP has by the time it leaves.
 *
 * Context: any.
 * Return: the skb, or NULL (counted).
 */
struct sk_buff *softrdma_rc_alloc_skb(struct softrdma_qp *qp,
				      unsigned int hdr_len,
				      unsigned int payload_len)
{
	const struct softrdma_roce_path *path;
	struct sk_buff *skb = NULL;

	rcu_read_lock();
	path = rcu_dereference(to_roce_qp(qp)->path);
	if (path)
		skb = softrdma_roce_alloc_skb(qp->sdev, &path->tx, hdr_len,
					      payload_len);
	else
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_XMIT_NO_ROUTE);
	rcu_read_unlock();
	return skb;
}

/**
 * softrdma_rc_tx_sg() - may the QP's next packet carry payload in page frags
 * @qp: the QP
 *
 * Context: any.
 * Return: softrdma_roce_tx_sg() for the QP's path as it is now; false
 * without a path (the packet is not sent anyway).
 */
bool softrdma_rc_tx_sg(struct softrdma_qp *qp)
{
	const struct softrdma_roce_path *path;
	bool sg;

	rcu_read_lock();
	path = rcu_dereference(to_roce_qp(qp)->path);
	sg = path && softrdma_roce_tx_sg(qp->sdev, &path->tx);
	rcu_read_unlock();
	return sg;
}

/**
 * softrdma_rc_xmit() - send a packet from softrdma_rc_alloc_skb()
 * @qp: the QP
 * @skb: consumed
 *
 * Context: any; BHs may be disabled.  Does not sleep.
 * Return: as softrdma_roce_xmit().
 */
int softrdma_rc_xmit(struct softrdma_qp *qp, struct sk_buff *skb)
{
	struct softrdma_roce_qp *rqp = to_roce_qp(qp);
	int err;

	rcu_read_lock();
	err = softrdma_roce_xmit(qp->sdev, rcu_dereference(rqp->path), skb);
	rcu_read_unlock();
	return err;
}

/**
 * softrdma_rc_burst_take() - the packets at the front of a queue that
 * leave together
 * @qp: the QP
 * @q: its requester's or responder's transmit queue; its lock held
 * @burst: empty; gets the first packet of @q and those after it that
 *	continue the same message: the next PSNs, a FIRST or MIDDLE packet
 *	before each (IBA 9.7.1: an RC message's packets take consecutive
 *	PSNs), as far as softrdma_roce_burst_may_add() lets them in
 *
 * Only RC: a UC packet retires its WQE once handed to the host, one by
 * one.
 *
 * Return: the packets taken, 0 when @q is empty.
 */
unsigned int softrdma_rc_burst_take(struct softrdma_qp *qp,
				    struct sk_buff_head *q,
				    struct sk_buff_head *burst)
{
	const struct softrdma_roce_opcode *op;
	const struct softrdma_bth *bth;
	struct sk_buff *skb, *next;

	skb = __skb_dequeue(q);
	if (!skb)
		return 0;
	__skb_queue_tail(burst, skb);
	if (!softrdma_rc_reliable(qp))
		return 1;

	while ((next = skb_peek(q))) {
		bth = (const struct softrdma_bth *)skb->data;
		op = softrdma_roce_opcode(softrdma_bth_opcode(bth));
		if (!op || !(op->flags & (SOFTRDMA_OPF_FIRST |
					  SOFTRDMA_OPF_MIDDLE)) ||
		    softrdma_bth_psn((const struct softrdma_bth *)next->data) !=
			psn_add(softrdma_bth_psn(bth), 1) ||
		    !softrdma_roce_burst_may_add(burst, next))
			break;
		__skb_unlink(next, q);
		__skb_queue_tail(burst, next);
		skb = next;
	}
	return skb_queue_len(burst);
}

/**
 * softrdma_rc_xmit_burst() - send packets from softrdma_rc_burst_take()
 * @qp: the QP
 * @burst: emptied
 *
 * Context: any; BHs may be disabled.  Does not sleep.
 * Return: as softrdma_roce_xmit_burst().
 */
int softrdma_rc_xmit_burst(struct softrdma_qp *qp, struct sk_buff_head *burst)
{
	struct softrdma_roce_qp *rqp = to_roce_qp(qp);
	int err;

	rcu_read_lock();
	err = softrdma_roce_xmit_burst(qp->sdev, rcu_dereference(rqp->path),
				       burst);
	rcu_read_unlock();
	return err;
}

/**
 * softrdma_rc_reliable() - does the QP run RC (IBA 9.7) or UC (9.8)?
 * @qp: a QP of the RoCE transport, connected
 *
 * Return: true for RC; false for UC, which has no acknowledgments.
 */
bool softrdma_rc_reliable(const struct softrdma_qp *qp)
{
	return qp->ibqp.qp_type == IB_QPT_RC;
}

/**
 * softrdma_rc_rcv() - a packet for this QP
 * @qp: the QP, referenced by the caller
 * @skb: as roce_pkt.h describes; consumed
 * @mr_cache: the MR cache (softrdma_mr_get_cached()) of the packets
 *	received with @skb, which the caller drops when their delivery ends:
 *	a WRITE's R_Key, a SEND's receive WQE's and a READ response's send
 *	WQE's L_Keys are looked up through it, and checked for each packet
 *
 * Context: softirq, or BHs disabled.
 */
void softrdma_rc_rcv(struct softrdma_qp *qp, struct sk_buff *skb,
		     struct softrdma_mr **mr_cache)
{
	const struct softrdma_roce_opcode *op;

	u8 opcode = softrdma_roce_pkt(skb)->opcode;

	/* IBA 9.6.1.2: the opcode's transport is the QP's */
	op = softrdma_roce_opcode(opcode);
	if (!op || (softrdma_rc_reliable(qp) ?
		    !softrdma_roce_opcode_is_rc(opcode) :
		    !softrdma_roce_opcode_is_uc(opcode))) {
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_RCV_BAD_OPCODE);
		kfree_skb(skb);
		return;
	}
	if (op->flags & SOFTRDMA_OPF_REQ)
		softrdma_rc_resp_rcv(qp, skb, mr_cache);
	else
		softrdma_rc_comp_rcv(qp, skb, mr_cache);
}

/**
 * softrdma_rc_wqe_npsn() - PSNs a send WQE consumes (IBA 9.7.1)
 * @opcode: its IB_WR_* opcode
 * @length: its payload bytes
 * @mtu: path MTU in bytes
 *
 * One per packet of a SEND or WRITE, one per read response packet for an
 * RDMA READ, one for an atomic, an ATOMIC WRITE or a FLUSH (a single
 * request and a single response, IBA 1.5 9.4.8-9).  A zero-length message
 * still takes one.
 */
u32 softrdma_rc_wqe_npsn(u32 opcode, u32 length, u32 mtu)
{
	switch (opcode) {
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
	case SOFTRDMA_WR_ATOMIC_WRITE:
	case SOFTRDMA_WR_FLUSH:
		return 1;
	default:
		return length ? DIV_ROUND_UP(length, mtu) : 1;
	}
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_wqe_npsn);

/**
 * softrdma_rc_msg_fits() - may a message go over an RC connection?
 * @opcode: its IB_WR_* opcode
 * @length: its payload bytes
 * @mtu: path MTU in bytes
 *
 * IBA 9.4 allows 2^31 bytes.  But PSNs are compared by halves of their
 * space (IBA 9.7.1, psn.h): whatever a requester has outstanding must
 * span fewer than 2^23 PSNs, or "ahead" reads as "behind".  An RDMA READ
 * takes all of its PSNs at once, and at the smallest path MTU, 256
 * bytes, 2^31 bytes are 2^23 of them.  So a message may take at most
 * SOFTRDMA_RC_MAX_MSG_PSNS: the requester starts one only while it has
 * fewer than SOFTRDMA_RC_WINDOW PSNs outstanding, and both together stay
 * within half the space.  The responder holds an incoming READ to the
 * same rule, for its own window.  Only messages longer than
 * 2^31 - 32 KiB at a 256-byte MTU are refused.
 *
 * Return: true if it may.
 */
bool softrdma_rc_msg_fits(u32 opcode, u32 length, u32 mtu)
{
	return length <= SOFTRDMA_ROCE_MAX_MSG_SZ &&
	       softrdma_rc_wqe_npsn(opcode, length, mtu) <=
			SOFTRDMA_RC_MAX_MSG_PSNS;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_msg_fits);

/**
 * softrdma_rc_segment() - the @pkt-th request packet of a message
 * @wr_opcode: IB_WR_* opcode of the WQE
 * @length: message bytes
 * @mtu: path MTU in bytes
 * @pkt: packet index in the message
 * @send_flags: IB_SEND_* (only for the solicited bit's callers)
 * @seg: filled: opcode (IBA 9.4 First/Middle/Last/Only), payload slice,
 *	whether a RETH follows, whether AckReq is set
 *
 * A READ, an atomic, an ATOMIC WRITE (its eight bytes of payload) or a
 * FLUSH (none) is a single request packet.
 *
 * Return: false when @pkt is past the message, or the opcode unknown.
 */
bool softrdma_rc_segment(u32 wr_opcode, u32 length, u32 mtu, u32 pkt,
			 u32 send_flags, struct softrdma_rc_seg *seg)
{
	u32 npkts = length ? DIV_ROUND_UP(length, mtu) : 1;
	bool first = pkt == 0, last = pkt == npkts - 1;
	static const u8 send_op[4] = {
		IB_OPCODE_RC_SEND_MIDDLE, IB_OPCODE_RC_SEND_FIRST,
		IB_OPCODE_RC_SEND_LAST, IB_OPCODE_RC_SEND_ONLY,
	};
	static const u8 write_op[4] = {
		IB_OPCODE_RC_RDMA_WRITE_MIDDLE, IB_OPCODE_RC_RDMA_WRITE_FIRST,
		IB_OPCODE_RC_RDMA_WRITE_LAST, IB_OPCODE_RC_RDMA_WRITE_ONLY,
	};
	unsigned int pos = (first ? 1 : 0) | (last ? 2 : 0);

	memset(seg, 0, sizeof(*seg));
	switch (wr_opcode) {
	case IB_WR_RDMA_READ:
		if (pkt)
			return false;
		seg->opcode = IB_OPCODE_RC_RDMA_READ_REQUEST;
		seg->has_reth = true;
		seg->ackreq = true;
		return true;
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		if (pkt)
			return false;
		seg->opcode = wr_opcode == IB_WR_ATOMIC_CMP_AND_SWP ?
			      IB_OPCODE_RC_COMPARE_SWAP :
			      IB_OPCODE_RC_FETCH_ADD;
		seg->ackreq = true;
		return true;
	case SOFTRDMA_WR_ATOMIC_WRITE:
		if (pkt || length != sizeof(u64))
			return false;
		seg->opcode = SOFTRDMA_OPCODE_RC_ATOMIC_WRITE;
		seg->has_reth = true;
		seg->ackreq = true;
		seg->len = length;
		return true;
	case SOFTRDMA_WR_FLUSH:
		if (pkt)
			return false;
		seg->opcode = SOFTRDMA_OPCODE_RC_FLUSH;
		seg->has_reth = true;
		seg->ackreq = true;
		return true;
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_IMM:
	case IB_WR_SEND_WITH_INV:
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		break;
	default:
		return false;
	}
	if (pkt >= npkts)
		return false;

	seg->offset = pkt * mtu;
	seg->len = last ? length - seg->offset : mtu;
	/* IBA 9.7.2: AckReq on the last packet, and now and then before */
	seg->ackreq = last || (pkt % SOFTRDMA_RC_ACKREQ_PERIOD) ==
			      SOFTRDMA_RC_ACKREQ_PERIOD - 1;
	if (wr_opcode == IB_WR_RDMA_WRITE ||
	    wr_opcode == IB_WR_RDMA_WRITE_WITH_IMM) {
		seg->opcode = write_op[pos];
		seg->has_reth = first;
		if (last && wr_opcode == IB_WR_RDMA_WRITE_WITH_IMM)
			seg->opcode = first ?
				IB_OPCODE_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE :
				IB_OPCODE_RC_RDMA_WRITE_LAST_WITH_IMMEDIATE;
		return true;
	}
	seg->opcode = send_op[pos];
	if (last && wr_opcode == IB_WR_SEND_WITH_IMM)
		seg->opcode = first ? IB_OPCODE_RC_SEND_ONLY_WITH_IMMEDIATE :
				      IB_OPCODE_RC_SEND_LAST_WITH_IMMEDIATE;
	if (last && wr_opcode == IB_WR_SEND_WITH_INV)
		seg->opcode = first ? IB_OPCODE_RC_SEND_ONLY_WITH_INVALIDATE :
				      IB_OPCODE_RC_SEND_LAST_WITH_INVALIDATE;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_segment);

/**
 * softrdma_rc_req_opcode() - a request opcode in the QP's transport
 * @rc_opcode: an RC SEND or RDMA WRITE opcode, from softrdma_rc_segment()
 * @reliable: RC; else UC
 *
 * IBA 9.2: UC's SEND and RDMA WRITE opcodes are RC's five low bits under
 * the UC transport's three.  READ, atomics and SEND with Invalidate have
 * no UC opcode; the requester is never given them on a UC QP.
 */
u8 softrdma_rc_req_opcode(u8 rc_opcode, bool reliable)
{
	if (reliable)
		return rc_opcode;
	return IB_OPCODE_UC | (rc_opcode & SOFTRDMA_OPCODE_OP_MASK);
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_req_opcode);

/**
 * softrdma_rc_cwnd_next() - the requester's window after an event
 * @cwnd: the window now, in PSNs
 * @ev: what happened
 * @acked: for SOFTRDMA_RC_CWND_ACKED, how many PSNs the ACK retired
 *
 * IBA leaves flow control between end nodes to credits (9.7.7.2), which
 * no responder here grants, so nothing but the window keeps a requester
 * from filling the path.  Several busy QPs on one slow link can queue
 * more than an ACK timeout's worth of packets in front of each other; a
 * go-back-N of the whole window then only queues more, until the retry
 * count runs out although nothing was lost.  So the window shrinks the
 * way TCP's does: to the minimum after a timeout, by half after a loss,
 * and grows back by what each ACK retires (doubling per round trip) up
 * to SOFTRDMA_RC_WINDOW.
 */
u32 softrdma_rc_cwnd_next(u32 cwnd, enum softrdma_rc_cwnd_event ev,
			  u32 acked)
{
	switch (ev) {
	case SOFTRDMA_RC_CWND_ACKED:
		cwnd += min_t(u32, acked, SOFTRDMA_RC_WINDOW);
		break;
	case SOFTRDMA_RC_CWND_LOSS:
		cwnd /= 2;
		break;
	case SOFTRDMA_RC_CWND_TIMEOUT:
		cwnd = SOFTRDMA_RC_CWND_MIN;
		break;
	}
	return clamp_t(u32, cwnd, SOFTRDMA_RC_CWND_MIN, SOFTRDMA_RC_WINDOW);
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_cwnd_next);

/**
 * softrdma_rc_psn_classify() - place a request's PSN (IBA 9.7.5.1.1)
 * @psn: the packet's PSN
 * @expected: the responder's next expected PSN
 * @nak_sent: a sequence error NAK went out since the last in-order packet
 *
 * Within half the PSN space before @expected a packet is a duplicate;
 * anything else ahead of it means packets were lost.  Only the first
 * packet past a gap is NAKed: the requester answers one NAK with one
 * go-back-N, and NAKing the rest of the gap would restart it each time.
 */
enum softrdma_rc_psn_class softrdma_rc_psn_classify(u32 psn, u32 expected,
						    bool nak_sent)
{
	s32 d = psn_diff(psn, expected);

	if (!d)
		return SOFTRDMA_RC_PSN_EXPECTED;
	if (d < 0)
		return SOFTRDMA_RC_PSN_DUPLICATE;
	return nak_sent ? SOFTRDMA_RC_PSN_GAP_DROP : SOFTRDMA_RC_PSN_GAP_NAK;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_psn_classify);

/* IBA 9.7.4: may @op come next, inside @msg or between messages? */
static bool softrdma_rc_opcode_in_sequence(enum softrdma_rc_resp_msg msg,
					   const struct softrdma_roce_opcode *op)
{
	const u32 cont = SOFTRDMA_OPF_MIDDLE | SOFTRDMA_OPF_LAST;

	switch (msg) {
	case SOFTRDMA_RC_MSG_SEND:
		return (op->flags & SOFTRDMA_OPF_SEND) && (op->flags & cont);
	case SOFTRDMA_RC_MSG_WRITE:
		return (op->flags & SOFTRDMA_OPF_WRITE) && (op->flags & cont);
	case SOFTRDMA_RC_MSG_NONE:
	case SOFTRDMA_RC_MSG_DROP:
	default:
		return !(op->flags & cont);
	}
}

/**
 * softrdma_rc_resp_step() - judge a request packet (IBA 9.7.5.1.1, 9.7.4)
 * @seq: the responder's place in the request stream
 * @psn: the packet's PSN
 * @opcode: its BTH OpCode, a request opcode of the RC transport
 *
 * The PSN is judged first: a duplicate is answered whatever its opcode
 * (the requester went back, 9.7.5.2.1, and may repeat a First or Only of
 * the message in progress, or of an earlier one), and a packet past a
 * gap is NAKed or dropped without looking at its opcode (9.7.5.1.1: the
 * PSN check comes before the opcode sequence check).  Only an in-order
 * packet is held against the message in progress: a Middle or Last of
 * it, or a First or Only between messages.  @seq is changed only to note
 * a sequence NAK, or that an in-order packet ends a NAKed gap.
 */
enum softrdma_rc_resp_verdict
softrdma_rc_resp_step(struct softrdma_rc_resp_seq *seq, u32 psn, u8 opcode)
{
	const struct softrdma_roce_opcode *op = softrdma_roce_opcode(opcode);

	switch (softrdma_rc_psn_classify(psn, seq->psn, seq->nak_sent)) {
	case SOFTRDMA_RC_PSN_EXPECTED:
		break;
	case SOFTRDMA_RC_PSN_DUPLICATE:
		return SOFTRDMA_RC_RESP_DUPLICATE;
	case SOFTRDMA_RC_PSN_GAP_NAK:
		seq->nak_sent = true;
		return SOFTRDMA_RC_RESP_SEQ_NAK;
	case SOFTRDMA_RC_PSN_GAP_DROP:
		return SOFTRDMA_RC_RESP_SEQ_DROP;
	}
	seq->nak_sent = false;
	if (!op || !(op->flags & SOFTRDMA_OPF_REQ) ||
	    !softrdma_rc_opcode_in_sequence(seq->msg, op))
		return SOFTRDMA_RC_RESP_INVALID;
	return SOFTRDMA_RC_RESP_EXECUTE;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_resp_step);

/**
 * softrdma_uc_resp_step() - judge a UC request packet (IBA 9.8)
 * @seq: the responder's place in the request stream
 * @psn: the packet's PSN
 * @opcode: its BTH OpCode
 *
 * UC has no duplicates and no NAKs: a packet at the expected PSN that
 * continues the message in progress, or a First or Only between
 * messages, is executed.  Anything else is a lost packet or a broken
 * sequence: the message in progress is dropped (its receive WQE
 * is kept for the next message).  A First or Only then begins a new
 * message at its own PSN (SOFTRDMA_RC_RESP_RESYNC); a Middle or Last is
 * dropped, and so is every packet after it until a First or Only comes
 * (@seq->msg is SOFTRDMA_RC_MSG_DROP).  Not a request opcode of UC:
 * SOFTRDMA_RC_RESP_INVALID, dropped too.
 */
enum softrdma_rc_resp_verdict
softrdma_uc_resp_step(struct softrdma_rc_resp_seq *seq, u32 psn, u8 opcode)
{
	const struct softrdma_roce_opcode *op = softrdma_roce_opcode(opcode);

	if (!op || !(op->flags & SOFTRDMA_OPF_REQ) ||
	    !softrdma_roce_opcode_is_uc(opcode))
		return SOFTRDMA_RC_RESP_INVALID;
	if (psn == seq->psn && softrdma_rc_opcode_in_sequence(seq->msg, op))
		return SOFTRDMA_RC_RESP_EXECUTE;
	if (op->flags & (SOFTRDMA_OPF_FIRST | SOFTRDMA_OPF_ONLY)) {
		seq->psn = psn;
		seq->msg = SOFTRDMA_RC_MSG_NONE;
		return SOFTRDMA_RC_RESP_RESYNC;
	}
	seq->msg = SOFTRDMA_RC_MSG_DROP;
	return SOFTRDMA_RC_RESP_SEQ_DROP;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_uc_resp_step);

/**
 * softrdma_rc_resp_done() - an executed request moves the responder on
 * @seq: the responder's place in the request stream
 * @psn: the request's PSN (the expected one)
 * @opcode: its BTH OpCode
 * @npsn: the PSNs it consumes: 1, or a read's response packets (9.7.1)
 *
 * Not called for a request refused with an RNR NAK: the requester sends
 * that very packet again (9.7.5.2.8).
 */
void softrdma_rc_resp_done(struct softrdma_rc_resp_seq *seq, u32 psn,
			   u8 opcode, u32 npsn)
{
	const struct softrdma_roce_opcode *op = softrdma_roce_opcode(opcode);

	seq->psn = psn_add(psn, npsn);
	if (!op || (op->flags & (SOFTRDMA_OPF_LAST | SOFTRDMA_OPF_ONLY)))
		seq->msg = SOFTRDMA_RC_MSG_NONE;
	else if (op->flags & SOFTRDMA_OPF_SEND)
		seq->msg = SOFTRDMA_RC_MSG_SEND;
	else if (op->flags & SOFTRDMA_OPF_WRITE)
		seq->msg = SOFTRDMA_RC_MSG_WRITE;
	else
		seq->msg = SOFTRDMA_RC_MSG_NONE;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_resp_done);

/**
 * softrdma_rc_write_fits() - may an RDMA WRITE packet's payload land?
 * @op_flags: the packet's opcode flags (softrdma_roce_opcode()->flags)
 * @payload: its payload bytes
 * @left: bytes of the RETH's DMA length not written yet
 *
 * IBA 9.7.5.1.2: a message's payloads add up to its RETH length.  A Last
 * or Only packet takes exactly what is left; a First or Middle packet
 * must leave some, since the Last that follows it carries at least one
 * byte (9.4).  A requester that has lost count of its own message (its
 * PSNs no longer match its data, as a stock rxe requester's can after
 * two retries in a row) is refused here as early as the lengths show it.
 */
bool softrdma_rc_write_fits(u32 op_flags, u32 payload, u32 left)
{
	if (op_flags & (SOFTRDMA_OPF_LAST | SOFTRDMA_OPF_ONLY))
		return payload == left;
	return payload < left;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_write_fits);

/**
 * softrdma_rc_read_resp_opcode() - the opcode of one RDMA READ response
 * @idx: the packet's place in the response, from the read's first PSN
 * @npsn: the response's packets, at least 1
 *
 * The place counts from the read's first PSN also when a duplicate asked
 * for its tail only: the answer repeats the packets lost (IBA 9.7.5.1.3,
 * a retried read gets duplicate response packets), so a tail starts with a
 * Middle or the Last.  A requester keeping the opcode sequence, rxe's,
 * takes a First past the read's first PSN for a protocol error.
 */
u8 softrdma_rc_read_resp_opcode(u32 idx, u32 npsn)
{
	if (npsn <= 1)
		return IB_OPCODE_RC_RDMA_READ_RESPONSE_ONLY;
	if (idx == 0)
		return IB_OPCODE_RC_RDMA_READ_RESPONSE_FIRST;
	if (idx >= npsn - 1)
		return IB_OPCODE_RC_RDMA_READ_RESPONSE_LAST;
	return IB_OPCODE_RC_RDMA_READ_RESPONSE_MIDDLE;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_read_resp_opcode);

/**
 * softrdma_rc_resp_fits() - does a response fit the request at its PSN?
 * @wr_opcode: the send WQE whose PSNs include the response's
 * @op_flags: the response's opcode flags (softrdma_roce_opcode()->flags)
 * @idx: the response's place from the WQE's first PSN
 * @npsn: the WQE's PSNs (softrdma_rc_wqe_npsn())
 * @payload: the response's payload bytes
 * @length: the WQE's length
 * @mtu: path MTU in bytes
 *
 * IBA 9.7.5.1.3 - 9.7.5.1.5: an RDMA READ is answered by READ responses,
 * CmpSwap and FetchAdd by an ATOMIC Acknowledge without payload; IBA 1.5
 * 9.4.8, 9.4.9: ATOMIC WRITE and FLUSH by a READ Response Only without
 * payload.  The packets of a READ carry full path MTUs but for its last,
 * which ends the read's length exactly (9.7.5.1.3).  A tail asked for
 * again is answered in either of two ways: the packets keep their place
 * in the whole read (softrdma_rc_read_resp_opcode()), or the responder
 * takes the question for a new read and answers First to Last, or Only,
 * from its own first PSN (stock rxe).  Either way a First is never the
 * read's last packet, a Middle never its first or last, a Last never its
 * first; an Only may answer any one packet.
 *
 * Return: false for a bad response, one the requester must not take.
 */
bool softrdma_rc_resp_fits(u32 wr_opcode, u32 op_flags, u32 idx, u32 npsn,
			   u32 payload, u32 length, u32 mtu)
{
	u64 offset = (u64)idx * mtu;
	bool last = idx + 1 == npsn;

	if (idx >= npsn)
		return false;
	if (op_flags & SOFTRDMA_OPF_ATOMIC)
		return (wr_opcode == IB_WR_ATOMIC_CMP_AND_SWP ||
			wr_opcode == IB_WR_ATOMIC_FETCH_AND_ADD) && !payload;
	if (!(op_flags & SOFTRDMA_OPF_READ))
		return false;
	if (wr_opcode == SOFTRDMA_WR_ATOMIC_WRITE ||
	    wr_opcode == SOFTRDMA_WR_FLUSH)
		return (op_flags & SOFTRDMA_OPF_ONLY) && !payload;
	if (wr_opcode != IB_WR_RDMA_READ)
		return false;
	if ((op_flags & (SOFTRDMA_OPF_FIRST | SOFTRDMA_OPF_MIDDLE)) && last)
		return false;
	if ((op_flags & (SOFTRDMA_OPF_MIDDLE | SOFTRDMA_OPF_LAST)) && !idx)
		return false;
	if (offset + payload > length)
		return false;
	return last ? offset + payload == length : payload == mtu;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_resp_fits);

/* IBA 9.7.5.2.8, 9.7.6.1.3: a retry count of 7 means "retry forever" */
#define SOFTRDMA_RC_RETRY_INFINITE	7

/**
 * softrdma_rc_ack_decide() - what an ACK or NAK asks of the completer
 * @syndrome: the AETH syndrome (IBA 9.7.5.1.1 table 44)
 * @ctx: the completer's retry state, after retiring what precedes a NAK
 * @status: for SOFTRDMA_RC_ACK_FATAL and the _EXCEEDED actions, the
 *	completion status of the WQE that failed
 *
 * RNR NAKs (9.7.5.2.8) and sequence NAKs (9.7.5.2.1) use up their retry
 * counts; the other NAK codes (9.7.5.2.2 - 9.7.5.2.5, and the reserved
 * codes, as a remote operational error) end the QP.
 */
enum softrdma_rc_ack_action
softrdma_rc_ack_decide(u8 syndrome, const struct softrdma_rc_ack_ctx *ctx,
		       enum ib_wc_status *status)
{
	u8 value = syndrome & SOFTRDMA_AETH_VALUE;

	switch (softrdma_aeth_syn_type(syndrome)) {
	case SOFTRDMA_AETH_ACK:
		return SOFTRDMA_RC_ACK_RETIRE;
	case SOFTRDMA_AETH_RNR_NAK:
		if (ctx->rnr_retry != SOFTRDMA_RC_RETRY_INFINITE &&
		    !ctx->rnr_left) {
			*status = IB_WC_RNR_RETRY_EXC_ERR;
			return SOFTRDMA_RC_ACK_RNR_EXCEEDED;
		}
		return SOFTRDMA_RC_ACK_RNR_WAIT;
	case SOFTRDMA_AETH_NAK:
		break;
	default:
		return SOFTRDMA_RC_ACK_INVALID;
	}

	switch (value) {
	case SOFTRDMA_NAK_PSN_SEQ_ERR:
		if (ctx->holding)
			return SOFTRDMA_RC_ACK_HOLD;
		if (!ctx->retry_left) {
			*status = IB_WC_RETRY_EXC_ERR;
			return SOFTRDMA_RC_ACK_RETRY_EXCEEDED;
		}
		return SOFTRDMA_RC_ACK_GO_BACK;
	case SOFTRDMA_NAK_INVALID_REQ:
		*status = IB_WC_REM_INV_REQ_ERR;
		break;
	case SOFTRDMA_NAK_REM_ACCESS_ERR:
		*status = IB_WC_REM_ACCESS_ERR;
		break;
	case SOFTRDMA_NAK_INVALID_RD_REQ:
		*status = IB_WC_REM_INV_RD_REQ_ERR;
		break;
	default:
		*status = IB_WC_REM_OP_ERR;
		break;
	}
	return SOFTRDMA_RC_ACK_FATAL;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_ack_decide);

/**
 * softrdma_rc_rd_classify() - place an RDMA READ response of the oldest
 * outstanding READ
 * @ahead: what arrived past a gap before
 * @psn: the response's PSN, one of the READ's
 * @una: the oldest PSN not acknowledged, one of the READ's too
 * @end: the PSN after the READ's last response
 *
 * IBA 9.7.5.1.3: responses come in PSN order, but one may be lost, and a
 * responder that is still streaming the READ when the requester asks
 * again (stock rxe answers one READ to its end before it looks at the
 * next request) keeps sending what follows the gap.  That data is new
 * and its place in the buffer is known from the PSN: it is placed, not
 * thrown away to be asked for again.  A response placed before is a
 * duplicate; one at or behind what was acknowledged, or past the READ,
 * is stale.  Past SOFTRDMA_RC_RD_TRACK from @una nothing is noted, so
 * such a response is always new.
 */
enum softrdma_rc_rd_class
softrdma_rc_rd_classify(const struct softrdma_rc_rd_ahead *ahead, u32 psn,
			u32 una, u32 end)
{
	s32 left = psn_diff(end, una);

	if (left <= 0 || !psn_in_window(psn, una, left))
		return SOFTRDMA_RC_RD_STALE;
	if (psn == una)
		return SOFTRDMA_RC_RD_NEXT;
	if (psn_diff(psn, una) < SOFTRDMA_RC_RD_TRACK && ahead->count &&
	    test_bit(psn & (SOFTRDMA_RC_RD_TRACK - 1), ahead->seen))
		return SOFTRDMA_RC_RD_DUPLICATE;
	return SOFTRDMA_RC_RD_AHEAD;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_rd_classify);

/**
 * softrdma_rc_rd_restarts_timer() - does a READ response restart the
 * local ACK timer?
 * @class: the response's place, from softrdma_rc_rd_classify()
 *
 * IBA 9.7.6.1.3: the timer measures the time without forward progress.
 * New data of the oldest READ is progress, in order or past a gap: a
 * READ whose responses keep coming never times out, however long the
 * responder takes for all of it.  A duplicate or a stale response is
 * none: it may be what the responder still sends of an earlier attempt.
 */
bool softrdma_rc_rd_restarts_timer(enum softrdma_rc_rd_class class)
{
	return class == SOFTRDMA_RC_RD_NEXT || class == SOFTRDMA_RC_RD_AHEAD;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_rd_restarts_timer);

/**
 * softrdma_rc_rd_note() - a response past the gap at @una was placed
 * @ahead: what arrived past the gap
 * @psn: the response's PSN, after @una
 * @una: the oldest PSN not acknowledged
 */
void softrdma_rc_rd_note(struct softrdma_rc_rd_ahead *ahead, u32 psn, u32 una)
{
	if (psn_diff(psn, una) <= 0 || psn_diff(psn, una) >= SOFTRDMA_RC_RD_TRACK)
		return;
	if (!__test_and_set_bit(psn & (SOFTRDMA_RC_RD_TRACK - 1), ahead->seen))
		ahead->count++;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_rd_note);

/**
 * softrdma_rc_rd_advance() - the next PSN missing
 * @ahead: what arrived past the gap; what is passed is forgotten
 * @una: the PSN after the response just placed in order
 *
 * Return: @una moved over every PSN placed before, in a row.
 */
u32 softrdma_rc_rd_advance(struct softrdma_rc_rd_ahead *ahead, u32 una)
{
	while (ahead->count &&
	       __test_and_clear_bit(una & (SOFTRDMA_RC_RD_TRACK - 1),
				    ahead->seen)) {
		ahead->count--;
		una = psn_add(una, 1);
	}
	return una;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_rd_advance);

/**
 * softrdma_rc_rd_gap() - how many READ responses from @psn are missing
 * @ahead: what arrived past the gap
 * @psn: a missing response, at or after @una
 * @una: the oldest PSN not acknowledged
 * @end: the PSN after the last response of @psn's READ
 *
 * Return: the PSNs from @psn to the first one placed after it, or to
 * @end; what the requester asks for again (IBA 9.7.5.1.3: a repeated
 * READ may ask for any part of the original).
 */
u32 softrdma_rc_rd_gap(const struct softrdma_rc_rd_ahead *ahead, u32 psn,
		       u32 una, u32 end)
{
	s32 n = psn_diff(end, psn), d = psn_diff(psn, una), lim, i;

	if (n <= 0)
		return 0;
	if (d < 0)
		return n;
	/* only PSNs less than SOFTRDMA_RC_RD_TRACK past @una are noted */
	lim = min_t(s32, n, SOFTRDMA_RC_RD_TRACK - d);
	for (i = 1; ahead->count && i < lim; i++)
		if (test_bit(psn_add(psn, i) & (SOFTRDMA_RC_RD_TRACK - 1),
			     ahead->seen))
			return i;
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_rd_gap);

/**
 * softrdma_rc_rd_forget() - forget what arrived past a gap
 * @ahead: emptied
 */
void softrdma_rc_rd_forget(struct softrdma_rc_rd_ahead *ahead)
{
	if (!ahead->count)
		return;
	bitmap_zero(ahead->seen, SOFTRDMA_RC_RD_TRACK);
	ahead->count = 0;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_rd_forget);

/**
 * softrdma_rc_rd_replay_start() - a READ request was sent again
 * @replay: the answer awaited, replaced
 * @psn: the first response it asks for
 * @n: how many; 0 leaves nothing awaited
 *
 * A requester asks for fewer than 2^23 PSNs (softrdma_rc_msg_fits());
 * more could not be told from a wrapped window by softrdma_rc_rd_replay_step()
 * and would take every PSN for the answer: the window stops short of
 * half the PSN space (IBA 9.7.1).
 */
void softrdma_rc_rd_replay_start(struct softrdma_rc_rd_replay *replay,
				 u32 psn, u32 n)
{
	replay->next = psn;
	replay->end = psn_add(psn, min_t(u32, n, PSN_HALF - 1));
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_rd_replay_start);

/**
 * softrdma_rc_rd_replay_step() - is a READ response the completer drops
 * the next part of the answer to the request sent again last?
 * @replay: that answer; moves past @psn if so
 * @psn: the response's PSN, a duplicate or stale one
 *
 * IBA 9.7.6.1.3: the ACK timer detects a request or a response that was
 * lost.  A responder answers requests in order (9.7.5.1.3), so the answer
 * arriving in PSN order shows the request arrived and is being answered,
 * and what the requester waits for comes behind it.  If the request was
 * sent again only because the original responses were late, those arrive
 * first (and are progress), and the answer repeats them: dropped, no
 * progress of the READ, but if they restarted nothing, a link buffer
 * holding more than one timeout's worth of them would fire the timer
 * again and again, each time asking for yet another replay to queue
 * behind this one, until the retry count ran out.  Each PSN asked for
 * restarts the timer at most once; a response out of order, of an older
 * answer or past what was asked restarts nothing.
 *
 * Return: true if @psn is the next part of the answer.
 */
bool softrdma_rc_rd_replay_step(struct softrdma_rc_rd_replay *replay,
				u32 psn)
{
	if (!psn_in_window(psn, replay->next,
			   psn_diff(replay->end, replay->next)))
		return false;
	replay->next = psn_add(psn, 1);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_rd_replay_step);

/**
 * softrdma_rc_wqe_at() - the @idx-th outstanding send WQE, oldest first
 * @qp: the QP; sq.lock held
 * @idx: below qp->sq.fetched
 * @st: its requester state
 */
struct softrdma_send_wqe *softrdma_rc_wqe_at(struct softrdma_qp *qp, u32 idx,
					     struct softrdma_rc_wqe **st)
{
	u32 slot = (qp->sq.fetch - qp->sq.fetched + idx) &
		   softrdma_ring_slot_mask(qp->sq.ring);

	lockdep_assert_held(&qp->sq.lock);

	*st = &softrdma_qp_rc(qp)->wqe[slot];
	return &qp->sq.wqe[slot];
}
