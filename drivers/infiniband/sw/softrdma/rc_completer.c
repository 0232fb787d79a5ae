// SPDX-License-Identifier: GPL-2.0-only
/*
 * The RC completer (IBA vol 1 9.7.5.1 - 9.7.6): ACKs, NAKs, RDMA READ
 * responses and atomic ACKs retire the SQ's WQEs in order; the local ACK
 * timer and RNR NAKs drive go-back-N retransmission.  Runs in the receive
 * softirq and in the retry timer, under qp->sq.lock, and restarts the
 * requester when the window opens.
 */
#include <kunit/visibility.h>
#include <linux/jiffies.h>
#include <trace/events/softrdma.h>

#include "compat.h"
#include "counters.h"
#include "device.h"
#include "mr.h"
#include "psn.h"
#include "qp.h"
#include "qp_state.h"
#include "rc.h"
#include "roce_hdr.h"
#include "roce_opcode.h"
#include "roce_pkt.h"
#include "roce_qp.h"
#include "sge.h"

/* Retire the oldest WQE in error and end the QP (IBA 10.3.1 Error) */
static void softrdma_rc_comp_fail(struct softrdma_qp *qp,
				  enum ib_wc_status status)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	enum softrdma_qp_err_cause cause;
	struct softrdma_send_wqe *wqe;
	struct softrdma_rc_wqe *st;

	lockdep_assert_held(&qp->sq.lock);

	/* the completion reports the error; without one, the event does */
	cause = qp->sq.fetched ? SOFTRDMA_QP_ERR_WC : SOFTRDMA_QP_ERR_LOCAL;
	if (qp->sq.fetched) {
		wqe = softrdma_rc_wqe_at(qp, 0, &st);
		softrdma_qp_complete_send(qp, wqe, status);
		if (rc->req_idx)
			rc->req_idx--;
	}
	softrdma_rc_req_move(qp, SOFTRDMA_RC_REQ_FAILED);
	__skb_queue_purge(&rc->req_txq);
	rc->retry_armed = false;
	timer_delete(&rc->retry_timer);
	softrdma_qp_fail(qp, cause);
}

/* The PSNs sent so far, from una_psn: what an ACK may cover */
static bool softrdma_rc_psn_outstanding(struct softrdma_rc *rc, u32 psn)
{
	return psn_in_window(psn, rc->una_psn,
			     psn_diff(rc->sent_psn, rc->una_psn));
}

/**
 * softrdma_rc_timer_restart() - forward progress: the ACK timer starts over
 * @qp: the QP; sq.lock held
 *
 * IBA 9.7.6.1.3: the transport timer restarts on every forward step, and
 * stops when nothing is outstanding.  Neither touches retry_timer: a
 * pending one fires at the old deadline and waits out the new one, or
 * finds nothing armed (softrdma_rc_retry_timer()).
 */
VISIBLE_IF_KUNIT void softrdma_rc_timer_restart(struct softrdma_qp *qp)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);

	lockdep_assert_held(&qp->sq.lock);

	if (rc->req_state == SOFTRDMA_RC_REQ_RNR_WAIT)
		return;
	rc->retry_armed = false;
	if (psn_diff(rc->sent_psn, rc->una_psn) > 0)
		softrdma_rc_arm_retry(qp);
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_timer_restart);

static void softrdma_rc_progress(struct softrdma_qp *qp, u32 una)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);

	if (!psn_after(una, rc->una_psn))
		return;
	/* and past the READ responses that arrived after a gap */
	una = softrdma_rc_rd_advance(&rc->rd_ahead, una);
	rc->cwnd = softrdma_rc_cwnd_next(rc->cwnd, SOFTRDMA_RC_CWND_ACKED,
					 psn_diff(una, rc->una_psn));
	rc->una_psn = una;
	rc->retry_left = qp->attr.retry_cnt;
	rc->rnr_left = qp->attr.rnr_retry;
	/* the rewind's first answer, or an older one: a new gap is new */
	rc->rewound = false;
	if (rc->rereading && !psn_before(una, rc->reread_end))
		rc->rereading = false;
	/* an acknowledgment for packets sent before a rewind */
	if (psn_after(una, rc->req_psn))
		softrdma_rc_req_rewind(qp, una);
	softrdma_rc_timer_restart(qp);
}

/* The oldest WQE, if it is a READ whose response at una_psn is missing */
static struct softrdma_send_wqe *softrdma_rc_una_read(struct softrdma_qp *qp,
						      struct softrdma_rc_wqe **st)
{
	struct softrdma_send_wqe *wqe;

	lockdep_assert_held(&qp->sq.lock);

	if (!qp->sq.fetched)
		return NULL;
	wqe = softrdma_rc_wqe_at(qp, 0, st);
	if (wqe->opcode != IB_WR_RDMA_READ || (*st)->done || (*st)->failed ||
	    !psn_in_window(softrdma_qp_rc(qp)->una_psn, (*st)->first_psn, (*st)->npsn))
		return NULL;
	return wqe;
}

/*
 * The READ response at una_psn is missing (IBA 9.7.5.1.3): ask for it
 * again, and for what follows it up to the first response that arrived
 * past the gap, so that nothing placed already is sent twice.  One
 * question at a time: a responder answers requests in order, and one
 * still streaming the READ (stock rxe does not look at a new request
 * before the READ in progress is done) answers a second question after
 * the first, each one a replay.  The question counts as answered when
 * una_psn passes it or its last response arrives; what is missing then
 * was lost again and is asked for at once.  False when una_psn is not a
 * READ response.
 */
static bool softrdma_rc_comp_reread(struct softrdma_qp *qp, const char *why)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	struct softrdma_rc_wqe *st;
	u32 n;

	if (!softrdma_rc_una_read(qp, &st))
		return false;
	if (rc->rereading)
		return true;
	n = softrdma_rc_rd_gap(&rc->rd_ahead, rc->una_psn, rc->una_psn,
			       psn_add(st->first_psn, st->npsn));
	softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_RETRANSMITS);
	trace_softrdma_rc_retransmit(qp->ibqp.device, softrdma_qpn(qp),
				     rc->una_psn, why, rc->retry_left);
	rc->cwnd = softrdma_rc_cwnd_next(rc->cwnd, SOFTRDMA_RC_CWND_LOSS, 0);
	/* out of memory: the ACK timer asks again */
	if (softrdma_rc_req_reread(qp, 0, rc->una_psn, n))
		return true;
	rc->rereading = true;
	rc->reread_end = psn_add(rc->una_psn, n);
	softrdma_rc_rd_replay_start(&rc->rd_replay, rc->una_psn, n);
	return true;
}

/*
 * Responses are missing (IBA 9.7.5.1.2: a later response or ACK arrived):
 * a READ's are asked for again (softrdma_rc_comp_reread()); else go back
 * to the oldest one.  Packets already in flight from before will
 * show the same gap again, so it is answered once per go-back-N: until
 * una_psn moves (the responder answered the rewind, and whatever arrives
 * after that answer was sent after it).  If the answer gets lost too, the
 * ACK timer takes over.  Holding for longer, say until everything sent
 * before the rewind is acknowledged, would leave a second loss among a
 * window of 128 PSNs (at 2 % loss, most windows) to the ACK timer.
 */
static void softrdma_rc_comp_gap(struct softrdma_qp *qp)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);

	if (rc->rewound || softrdma_rc_comp_reread(qp, "read gap"))
		return;
	softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_RETRANSMITS);
	trace_softrdma_rc_retransmit(qp->ibqp.device, softrdma_qpn(qp),
				     rc->una_psn, "response gap",
				     rc->retry_left);
	rc->cwnd = softrdma_rc_cwnd_next(rc->cwnd, SOFTRDMA_RC_CWND_LOSS, 0);
	softrdma_rc_req_rewind(qp, rc->una_psn);
	rc->rewound = true;
}

/**
 * softrdma_rc_retire() - complete the WQEs an acknowledgment covers
 * @qp: the QP; sq.lock held
 * @ack_psn: the last PSN acknowledged, inclusive (IBA 9.7.5.1.1: an ACK
 *	covers every earlier PSN)
 *
 * SENDs and WRITEs retire when acknowledged, READs and atomics when their
 * response has arrived, REG_MR and LOCAL_INV once the requester executed
 * them; all in posting order (IBA 10.8.5).  A WQE the requester failed
 * locally retires with its error when its turn comes.
 */
void softrdma_rc_retire(struct softrdma_qp *qp, u32 ack_psn)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	struct softrdma_send_wqe *wqe;
	struct softrdma_rc_wqe *st;
	u32 last;

	lockdep_assert_held(&qp->sq.lock);

	while (qp->sq.fetched) {
		wqe = softrdma_rc_wqe_at(qp, 0, &st);
		if (st->failed) {
			softrdma_rc_comp_fail(qp, st->status);
			return;
		}
		last = psn_add(st->first_psn, st->npsn - 1);
		if (softrdma_wr_is_rd_atomic(wqe->opcode)) {
			/* its last responses arrived before a gap was filled */
			if (!st->done && wqe->opcode == IB_WR_RDMA_READ &&
			    psn_after(rc->una_psn, last))
				st->done = true;
			if (!st->done) {
				/*
				 * IBA 9.7.5.1.2: an ACK beyond a read whose
				 * responses are missing means they were lost.
				 */
				if (!psn_before(ack_psn, last))
					softrdma_rc_comp_gap(qp);
				return;
			}
		} else if (softrdma_wr_is_local(wqe->opcode)) {
			if (!st->done)
				break;
		} else if (psn_before(ack_psn, last)) {
			break;
		}
		softrdma_qp_complete_send(qp, wqe, IB_WC_SUCCESS);
		if (rc->req_idx)
			rc->req_idx--;
		softrdma_rc_progress(qp, psn_add(last, 1));
	}
	if (softrdma_rc_psn_outstanding(rc, ack_psn))
		softrdma_rc_progress(qp, psn_add(ack_psn, 1));
	softrdma_rc_sq_drained(qp);
}

/*
 * A go-back-N from @psn, the retry counted (IBA 9.7.6.1.3); late answers
 * to what was sent before are no new gap
 */
static void softrdma_rc_comp_go_back(struct softrdma_qp *qp, u32 psn,
				     const char *why)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);

	rc->retry_left--;
	softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_RETRANSMITS);
	trace_softrdma_rc_retransmit(qp->ibqp.device, softrdma_qpn(qp), psn,
				     why, rc->retry_left);
	softrdma_rc_req_rewind(qp, psn);
	rc->rewound = true;
}

static void softrdma_rc_comp_retry_exceeded(struct softrdma_qp *qp)
{
	softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_RETRY_EXCEEDED);
	softrdma_rc_comp_fail(qp, IB_WC_RETRY_EXC_ERR);
}

/* IBA 9.7.5.1.1 - 9.7.5.2: a bare ACK, RNR NAK or NAK */
static void softrdma_rc_comp_ack(struct softrdma_qp *qp, u32 psn,
				 const struct softrdma_aeth *aeth)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	u8 syndrome = softrdma_aeth_syndrome(aeth);
	struct softrdma_rc_ack_ctx ctx;
	enum ib_wc_status status;
	u64 us;

	switch (softrdma_aeth_syn_type(syndrome)) {
	case SOFTRDMA_AETH_ACK:
		/* credits (9.7.7.2) are not used: "invalid" is fine too */
		softrdma_rc_retire(qp, psn);
		return;
	case SOFTRDMA_AETH_RNR_NAK:
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_RNR_NAKS_RCVD);
		break;
	case SOFTRDMA_AETH_NAK:
		if ((syndrome & SOFTRDMA_AETH_VALUE) == SOFTRDMA_NAK_PSN_SEQ_ERR)
			softrdma_counter_inc(qp->sdev,
					     SOFTRDMA_CNT_SEQ_NAKS_RCVD);
		break;
	default:
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_RCV_INVALID_REQUEST);
		return;
	}

	/* a NAK acknowledges every PSN before its own */
	softrdma_rc_retire(qp, psn_sub(psn, 1));
	if (!softrdma_rc_req_active(rc->req_state) ||
	    !softrdma_rc_psn_outstanding(rc, psn))
		return;

	ctx = (struct softrdma_rc_ack_ctx){
		.rnr_retry = qp->attr.rnr_retry,
		.rnr_left = rc->rnr_left,
		.retry_left = rc->retry_left,
		.holding = rc->rewound,
	};
	switch (softrdma_rc_ack_decide(syndrome, &ctx, &status)) {
	case SOFTRDMA_RC_ACK_RNR_WAIT:
		if (rc->rnr_left)
			rc->rnr_left--;
		trace_softrdma_rc_retransmit(qp->ibqp.device, softrdma_qpn(qp),
					     psn, "rnr nak", rc->rnr_left);
		/*
		 * Everything before @psn arrived, but a read before it may
		 * still miss responses: the retire above then went back to
		 * that read, and skipping ahead to @psn would never ask for
		 * them again.
		 */
		if (!psn_before(rc->req_psn, psn))
			softrdma_rc_req_rewind(qp, psn);
		softrdma_rc_req_move(qp, SOFTRDMA_RC_REQ_RNR_WAIT);
		us = softrdma_rnr_timer_us(syndrome & SOFTRDMA_AETH_VALUE);
		softrdma_rc_retry_start(qp, jiffies + usecs_to_jiffies(us));
		return;
	case SOFTRDMA_RC_ACK_RNR_EXCEEDED:
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_RNR_RETRY_EXCEEDED);
		softrdma_rc_comp_fail(qp, status);
		return;
	case SOFTRDMA_RC_ACK_GO_BACK:
		/* IBA 9.7.5.2.1; the repeats of one gap are held */
		rc->cwnd = softrdma_rc_cwnd_next(rc->cwnd,
						 SOFTRDMA_RC_CWND_LOSS, 0);
		softrdma_rc_comp_go_back(qp, psn, "sequence nak");
		return;
	case SOFTRDMA_RC_ACK_RETRY_EXCEEDED:
		softrdma_rc_comp_retry_exceeded(qp);
		return;
	case SOFTRDMA_RC_ACK_FATAL:
		/* IBA 9.7.5.2.2 - 9.7.5.2.5: fatal for the QP */
		softrdma_rc_comp_fail(qp, status);
		return;
	case SOFTRDMA_RC_ACK_HOLD:
	case SOFTRDMA_RC_ACK_RETIRE:
	case SOFTRDMA_RC_ACK_INVALID:
		return;
	}
}

struct softrdma_rc_place {
	const struct sk_buff *skb;
	int offset;
	const void *buf;
};

static int softrdma_rc_place_skb(struct softrdma_mr *mr, u64 addr, u32 len,
				 u32 done, void *ctx)
{
	struct softrdma_rc_place *p = ctx;

	return softrdma_mr_copy_from_skb(mr, addr, p->skb, p->offset + done,
					 len);
}

static int softrdma_rc_place_buf(struct softrdma_mr *mr, u64 addr, u32 len,
				 u32 done, void *ctx)
{
	struct softrdma_rc_place *p = ctx;

	return softrdma_mr_copy(mr, addr, (void *)p->buf + done, len,
				SOFTRDMA_COPY_TO_MR);
}

/*
 * The oldest WQE must be the atomic answered at @psn, and @psn the next
 * response it needs; earlier SENDs and WRITEs are acknowledged by it
 * implicitly (IBA 9.7.5.1.2).
 */
static struct softrdma_send_wqe *
softrdma_rc_comp_expect(struct softrdma_qp *qp, u32 psn,
			struct softrdma_rc_wqe **st)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	struct softrdma_send_wqe *wqe;

	softrdma_rc_retire(qp, psn_sub(psn, 1));
	if (!softrdma_rc_req_active(rc->req_state) || !qp->sq.fetched)
		return NULL;
	wqe = softrdma_rc_wqe_at(qp, 0, st);
	if (!softrdma_wr_is_rd_atomic(wqe->opcode) || (*st)->done ||
	    !psn_in_window(psn, (*st)->first_psn, (*st)->npsn))
		return NULL;
	if (psn != rc->una_psn) {
		/* a gap: responses were lost; ask again, once */
		if (psn_after(psn, rc->una_psn))
			softrdma_rc_comp_gap(qp);
		return NULL;
	}
	return wqe;
}

/*
 * The outstanding WQE whose PSNs include @psn, and its place among them
 * (0: the oldest); NULL if no request consumed @psn.
 */
static struct softrdma_send_wqe *
softrdma_rc_comp_find(struct softrdma_qp *qp, u32 psn,
		      struct softrdma_rc_wqe **st, u32 *idx)
{
	struct softrdma_send_wqe *wqe;
	u32 i;

	lockdep_assert_held(&qp->sq.lock);

	for (i = 0; i < qp->sq.fetched; i++) {
		wqe = softrdma_rc_wqe_at(qp, i, st);
		if (!(*st)->npsn)
			continue;
		if (psn_before(psn, (*st)->first_psn))
			break;
		if (psn_in_window(psn, (*st)->first_psn, (*st)->npsn)) {
			*idx = i;
			return wqe;
		}
	}
	return NULL;
}

/* An RDMA READ not complete yet: its responses are still placed */
static bool softrdma_rc_read_open(const struct softrdma_send_wqe *wqe,
				  const struct softrdma_rc_wqe *st)
{
	return wqe && wqe->opcode == IB_WR_RDMA_READ && !st->done;
}

/*
 * IBA 9.7.5.1.3: one RDMA READ response packet, of the WQE @wqe (its
 * state @st, its place @idx) whose PSNs include it, if any.  In order, it
 * moves una_psn; past a gap, its data is placed all the same and noted
 * (softrdma_rc_rd_classify()), and the gap is asked for again.  Either
 * is forward progress and restarts the ACK timer; a duplicate or a stale
 * response is dropped and restarts nothing.
 */
static bool softrdma_rc_comp_read(struct softrdma_qp *qp, struct sk_buff *skb,
				  struct softrdma_send_wqe *wqe,
				  struct softrdma_rc_wqe *st, u32 idx,
				  struct softrdma_mr **mr_cache)
{
	struct softrdma_roce_pkt *pkt = softrdma_roce_pkt(skb);
	struct softrdma_rc_place place = { .skb = skb, .offset = pkt->hdr_len };
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	enum softrdma_rc_rd_class class;
	u32 offset, last;
	bool used = false;
	bool oldest;
	int err;

	/*
	 * IBA 9.7.5.1.2: it acknowledges the requests before its READ.  A
	 * READ that is the oldest WQE, open and not failed, has none before
	 * it: softrdma_rc_retire() would find it first and stop there.  That
	 * is every response of a stream but the first, so it is not called.
	 */
	oldest = !idx && softrdma_rc_read_open(wqe, st) && !st->failed;
	if (!oldest) {
		softrdma_rc_retire(qp, psn_sub(pkt->psn, 1));
		if (!softrdma_rc_req_active(rc->req_state))
			return false;
		wqe = softrdma_rc_comp_find(qp, pkt->psn, &st, &idx);
		if (!softrdma_rc_read_open(wqe, st))
			return false;
	}
	last = psn_add(st->first_psn, st->npsn - 1);
	class = softrdma_rc_rd_classify(&rc->rd_ahead, pkt->psn, rc->una_psn,
					psn_add(last, 1));
	/* the last response asked for again: the question is answered */
	if (rc->rereading && pkt->psn == psn_sub(rc->reread_end, 1))
		rc->rereading = false;
	if (class == SOFTRDMA_RC_RD_DUPLICATE || class == SOFTRDMA_RC_RD_STALE)
		goto out_gap;

	/* its place and length were checked (softrdma_rc_comp_fits()) */
	offset = psn_diff(pkt->psn, st->first_psn) * qp->mtu;
	err = softrdma_sge_walk_cached(qp, wqe->sge, wqe->num_sge, offset,
				       pkt->payload_len, IB_ACCESS_LOCAL_WRITE,
				       softrdma_rc_place_skb, &place, mr_cache);
	if (err) {
		softrdma_rc_comp_fail(qp, err == -EMSGSIZE ? IB_WC_LOC_LEN_ERR :
							    IB_WC_LOC_PROT_ERR);
		return true;
	}
	used = true;
	if (class == SOFTRDMA_RC_RD_NEXT) {
		/* una_psn moves on: the ACK timer restarts there */
		softrdma_rc_progress(qp, psn_add(pkt->psn, 1));
		/*
		 * The READ is complete, its last responses perhaps first.
		 * Until una_psn passes its last PSN, the READ is still open
		 * and, if it was the oldest, still is: nothing to retire.
		 */
		if (!oldest || psn_after(rc->una_psn, last))
			softrdma_rc_retire(qp, psn_sub(rc->una_psn, 1));
	} else {
		softrdma_rc_rd_note(&rc->rd_ahead, pkt->psn, rc->una_psn);
		if (softrdma_rc_rd_restarts_timer(class))
			softrdma_rc_timer_restart(qp);
	}
out_gap:
	/* responses past una_psn show a gap: ask for it */
	if ((class == SOFTRDMA_RC_RD_AHEAD || rc->rd_ahead.count) &&
	    softrdma_rc_req_active(rc->req_state))
		softrdma_rc_comp_gap(qp);
	return used;
}

/* IBA 9.7.5.1.5: the ATOMIC ACK carries the original remote value */
static bool softrdma_rc_comp_atomic(struct softrdma_qp *qp,
				    struct sk_buff *skb)
{
	struct softrdma_roce_pkt *pkt = softrdma_roce_pkt(skb);
	const struct softrdma_atmack *ack;
	struct softrdma_rc_place place;
	struct softrdma_send_wqe *wqe;
	struct softrdma_rc_wqe *st;
	u64 orig;
	int err;

	wqe = softrdma_rc_comp_expect(qp, pkt->psn, &st);
	if (!wqe || (wqe->opcode != IB_WR_ATOMIC_CMP_AND_SWP &&
		     wqe->opcode != IB_WR_ATOMIC_FETCH_AND_ADD))
		return false;
	ack = (const void *)skb->data +
	      softrdma_roce_ext_offset(pkt->opcode, SOFTRDMA_EXT_ATMACK);
	orig = softrdma_atmack_orig(ack);
	place.buf = &orig;
	err = softrdma_sge_walk(qp, wqe->sge, wqe->num_sge, 0, sizeof(orig),
				IB_ACCESS_LOCAL_WRITE,
				softrdma_rc_place_buf, &place);
	if (err) {
		softrdma_rc_comp_fail(qp, err == -EMSGSIZE ? IB_WC_LOC_LEN_ERR :
							    IB_WC_LOC_PROT_ERR);
		return true;
	}
	st->done = true;
	softrdma_rc_retire(qp, pkt->psn);
	return true;
}

static bool softrdma_rc_wr_is_iba15(u32 opcode)
{
	return opcode == SOFTRDMA_WR_ATOMIC_WRITE || opcode == SOFTRDMA_WR_FLUSH;
}

/*
 * IBA 1.5 9.4.8, 9.4.9: an ATOMIC WRITE or a FLUSH is answered, once
 * executed, by an RDMA READ Response Only with no payload; anything else
 * at its PSN was refused as a bad response (softrdma_rc_comp_fits()).
 */
static bool softrdma_rc_comp_iba15(struct softrdma_qp *qp, struct sk_buff *skb)
{
	struct softrdma_roce_pkt *pkt = softrdma_roce_pkt(skb);
	struct softrdma_send_wqe *wqe;
	struct softrdma_rc_wqe *st;

	wqe = softrdma_rc_comp_expect(qp, pkt->psn, &st);
	if (!wqe || !softrdma_rc_wr_is_iba15(wqe->opcode))
		return false;
	st->done = true;
	softrdma_rc_retire(qp, pkt->psn);
	return true;
}

/*
 * Does a READ response or atomic ACK fit @wqe, the request whose PSNs
 * include its @psn (softrdma_rc_resp_fits())?  One for a request already
 * answered in full is a duplicate, left to the paths that drop those; a
 * PSN no request consumed (never sent, @wqe NULL) is stale.
 */
static bool softrdma_rc_comp_wqe_fits(struct softrdma_qp *qp,
				      const struct softrdma_send_wqe *wqe,
				      const struct softrdma_rc_wqe *st,
				      u32 psn, u32 op_flags, u32 payload)
{
	if (!wqe || st->done || st->failed)
		return true;
	return softrdma_rc_resp_fits(wqe->opcode, op_flags,
				     psn_diff(psn, st->first_psn), st->npsn,
				     payload, wqe->length, qp->mtu);
}

#if IS_ENABLED(CONFIG_KUNIT)
/* softrdma_rc_comp_wqe_fits() for the request at an outstanding @psn */
bool softrdma_rc_comp_fits(struct softrdma_qp *qp, u32 psn, u32 op_flags,
			   u32 payload)
{
	struct softrdma_send_wqe *wqe;
	struct softrdma_rc_wqe *st;
	u32 idx;

	wqe = softrdma_rc_comp_find(qp, psn, &st, &idx);
	return softrdma_rc_comp_wqe_fits(qp, wqe, st, psn, op_flags, payload);
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_comp_fits);
#endif

/*
 * A READ response dropped as a duplicate or stale may be the answer to
 * the READ asked for again last, repeating what arrived late: arriving in
 * order, it restarts the ACK timer (softrdma_rc_rd_replay_step()).  The
 * late original responses come first and are progress themselves, so
 * only dropped responses move the answer on.
 */
static void softrdma_rc_comp_replay(struct softrdma_qp *qp,
				    struct sk_buff *skb,
				    const struct softrdma_roce_opcode *op)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);

	if ((op->flags & SOFTRDMA_OPF_READ) &&
	    softrdma_rc_req_active(rc->req_state) &&
	    softrdma_rc_rd_replay_step(&rc->rd_replay,
				       softrdma_roce_pkt(skb)->psn))
		softrdma_rc_timer_restart(qp);
}

/**
 * softrdma_rc_comp_rcv() - a response packet for this QP's requester
 * @qp: the QP, referenced by the caller
 * @skb: as roce_pkt.h describes; consumed
 * @mr_cache: as for softrdma_rc_rcv(): a read response's local keys are
 *	looked up through it
 *
 * Context: softirq, or BHs disabled.
 */
void softrdma_rc_comp_rcv(struct softrdma_qp *qp, struct sk_buff *skb,
			  struct softrdma_mr **mr_cache)
{
	struct softrdma_roce_pkt *pkt = softrdma_roce_pkt(skb);
	const struct softrdma_roce_opcode *op = softrdma_roce_opcode(pkt->opcode);
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	const struct softrdma_aeth *aeth = NULL;
	struct softrdma_send_wqe *wqe = NULL;
	struct softrdma_rc_wqe *st = NULL;
	bool used = true, flush;
	u32 idx = 0;
	int off;

	spin_lock_bh(&qp->sq.lock);
	/*
	 * IBA 10.3.1: SQD completes the messages the requester started, so
	 * their ACKs and responses are taken as in RTS.
	 */
	if (!softrdma_rc_req_active(rc->req_state) ||
	    (qp->state != IB_QPS_RTS && qp->state != IB_QPS_SQD)) {
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_RCV_QP_NOT_READY);
		goto out_unlock;
	}
	off = softrdma_roce_ext_offset(pkt->opcode, SOFTRDMA_EXT_AETH);
	if (off > 0)
		aeth = (const void *)skb->data + off;

	/* stale: at or before what was already acknowledged, or never sent */
	if (!softrdma_rc_psn_outstanding(rc, pkt->psn)) {
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_RCV_STALE_RESPONSE);
		softrdma_rc_comp_replay(qp, skb, op);
		goto out_unlock;
	}

	/*
	 * A response that does not fit its request is never placed nor
	 * taken as an acknowledgment: the oldest WQE completes with a bad
	 * response error and the QP fails (IB_WC_BAD_RESP_ERR).
	 */
	if (op->flags & (SOFTRDMA_OPF_READ | SOFTRDMA_OPF_ATOMIC)) {
		wqe = softrdma_rc_comp_find(qp, pkt->psn, &st, &idx);
		if (!softrdma_rc_comp_wqe_fits(qp, wqe, st, pkt->psn, op->flags,
					       pkt->payload_len)) {
			softrdma_counter_inc(qp->sdev,
					     SOFTRDMA_CNT_RCV_BAD_RESPONSE);
			softrdma_rc_comp_fail(qp, IB_WC_BAD_RESP_ERR);
			goto out_unlock;
		}
	}

	if ((op->flags & SOFTRDMA_OPF_READ) && wqe &&
	    softrdma_rc_wr_is_iba15(wqe->opcode))
		used = softrdma_rc_comp_iba15(qp, skb);
	else if (op->flags & SOFTRDMA_OPF_READ)
		used = softrdma_rc_comp_read(qp, skb, wqe, st, idx, mr_cache);
	else if (op->flags & SOFTRDMA_OPF_ATOMIC)
		used = softrdma_rc_comp_atomic(qp, skb);
	else if (aeth)
		softrdma_rc_comp_ack(qp, pkt->psn, aeth);
	else
		used = false;
	if (!used) {
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_RCV_STALE_RESPONSE);
		softrdma_rc_comp_replay(qp, skb, op);
	}

	/* the window may have opened */
	softrdma_rc_req_run(qp);
out_unlock:
	flush = softrdma_rc_req_flush_due(qp);
	spin_unlock_bh(&qp->sq.lock);
	kfree_skb(skb);
	if (flush)
		softrdma_rc_req_flush(qp);
}

/*
 * retry_timer fired: has the ACK timer or the RNR wait run out?  If it
 * was restarted since the timer was set, the timer is set again for the
 * rest of it; if it was stopped (nothing outstanding), nothing is due.
 */
static bool softrdma_rc_retry_expired(struct softrdma_qp *qp)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);

	lockdep_assert_held(&qp->sq.lock);

	if (!rc->retry_armed)
		return false;
	if (time_before(jiffies, rc->retry_deadline)) {
		softrdma_rc_retry_start(qp, rc->retry_deadline);
		return false;
	}
	rc->retry_armed = false;
	return true;
}

/**
 * softrdma_rc_retry_timer() - local ACK timeout or end of an RNR wait
 * @t: rc.retry_timer
 *
 * IBA 9.7.6.1.3: retransmit from the oldest unacknowledged PSN, at most
 * retry_cnt times in a row; IBA 9.7.5.2.8: after an RNR NAK, resend the
 * NAKed request once its timer ran out.  The timer may fire before the
 * deadline, which progress moved on since it was set
 * (softrdma_rc_timer_restart()): it is set again for the rest.
 */
void softrdma_rc_retry_timer(struct timer_list *t)
{
	struct softrdma_rc *rc = timer_container_of(rc, t, retry_timer);
	struct softrdma_qp *qp = softrdma_rc_qp(rc);
	struct softrdma_rc_wqe *st;

	spin_lock_bh(&qp->sq.lock);
	/* the requester stopped or failed, or the wait is not over */
	if (!softrdma_rc_req_active(rc->req_state) ||
	    !softrdma_rc_retry_expired(qp)) {
		spin_unlock_bh(&qp->sq.lock);
		return;
	}
	if (rc->req_state == SOFTRDMA_RC_REQ_RNR_WAIT) {
		softrdma_rc_req_move(qp, SOFTRDMA_RC_REQ_RUNNING);
	} else if (psn_diff(rc->sent_psn, rc->una_psn) > 0) {
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_ACK_TIMEOUTS);
		rc->cwnd = softrdma_rc_cwnd_next(rc->cwnd,
						 SOFTRDMA_RC_CWND_TIMEOUT, 0);
		if (!rc->retry_left) {
			softrdma_rc_comp_retry_exceeded(qp);
		} else if (softrdma_rc_una_read(qp, &st)) {
			/* the question or its whole answer was lost */
			rc->retry_left--;
			rc->rereading = false;
			softrdma_rc_comp_reread(qp, "ack timeout");
		} else {
			softrdma_rc_comp_go_back(qp, rc->una_psn,
						 "ack timeout");
		}
	}
	softrdma_rc_req_run(qp);
	/*
	 * Whatever is outstanding stays under the ACK timer, also when the
	 * window lets nothing out now: at the end of an RNR wait, nothing
	 * else would restart it.
	 */
	if (softrdma_rc_req_active(rc->req_state) &&
	    psn_diff(rc->sent_psn, rc->una_psn) > 0)
		softrdma_rc_arm_retry(qp);
	spin_unlock_bh(&qp->sq.lock);
	softrdma_rc_req_flush(qp);
}
