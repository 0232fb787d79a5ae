// SPDX-License-Identifier: GPL-2.0-only
/*
 * The RC requester (IBA vol 1 9.5, 9.7): turns the SQ's WQEs into request
 * packets, assigns PSNs, keeps the send window and the limits on
 * outstanding reads and atomics, and rewinds for go-back-N
 * retransmission.  It runs in the poster's context on the doorbell, from
 * the completer when the window opens, and from its work item after a
 * transmit the host dropped.
 */
#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/workqueue.h>

#include "counters.h"
#include "device.h"
#include "mr.h"
#include "psn.h"
#include "qp.h"
#include "qp_state.h"
#include "rc.h"
#include "roce_hdr.h"
#include "roce_net.h"
#include "roce_opcode.h"
#include "roce_qp.h"
#include "sge.h"

/*
 * What the engines send: on RC all of these; on UC (IBA 9.8) what is not
 * RC's alone.  The post verbs refuse the rest already; a WQE that passed
 * them anyway fails here.
 */
static bool softrdma_rc_wr_supported(u32 opcode, bool reliable)
{
	if (!reliable && softrdma_wr_is_rc_only(opcode))
		return false;
	switch (opcode) {
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_IMM:
	case IB_WR_SEND_WITH_INV:
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
	case IB_WR_REG_MR:
	case IB_WR_LOCAL_INV:
	case IB_WR_BIND_MW:
		return true;
	case SOFTRDMA_WR_ATOMIC_WRITE:
		return SOFTRDMA_HAVE_ATOMIC_WRITE;
	case SOFTRDMA_WR_FLUSH:
		return SOFTRDMA_HAVE_FLUSH;
	default:
		return false;
	}
}

/*
 * A floor under every QP's local ACK timeout, for a host much slower than
 * the timeouts its applications ask for (perftest and the pingpongs use
 * 14, 67 ms; a KASAN kernel under emulation takes longer than that to
 * receive a window of 1 KiB packets).  Some RNICs enforce such a floor
 * of their own.  0 (the default): the QP's timeout as it is.
 */
static unsigned int rc_min_ack_timeout_ms;
module_param(rc_min_ack_timeout_ms, uint, 0644);
MODULE_PARM_DESC(rc_min_ack_timeout_ms,
		 "RoCE RC: local ACK timeout at least this long, in ms (default 0: the QP's own)");

/*
 * usecs_to_jiffies() takes an unsigned int: the longest local ACK
 * timeouts (attribute 30 and 31, over an hour) are converted from
 * milliseconds, which fit.
 */
static unsigned long softrdma_rc_us_to_jiffies(u64 us)
{
	if (us <= UINT_MAX)
		return usecs_to_jiffies(us);
	return msecs_to_jiffies(div_u64(us, USEC_PER_MSEC));
}

/*
 * The local ACK timeout in jiffies, 0 for none (IBA 9.7.6.1.3: a timeout
 * of 0 means the timer is off), at least rc_min_ack_timeout_ms.  Worked
 * out again only when the QP's attribute or the floor changed.
 */
static unsigned long softrdma_rc_ack_timeout(struct softrdma_qp *qp)
{
	u32 min_ms = READ_ONCE(rc_min_ack_timeout_ms);
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	u8 timeout = qp->attr.timeout;
	u64 us;

	if (likely(timeout == rc->ack_tmo_attr &&
		   min_ms == rc->ack_tmo_min_ms))
		return rc->ack_tmo;
	us = softrdma_qp_timeout_us(timeout);
	if (us)
		us = max_t(u64, us, (u64)min_ms * USEC_PER_MSEC);
	rc->ack_tmo_attr = timeout;
	rc->ack_tmo_min_ms = min_ms;
	rc->ack_tmo = softrdma_rc_us_to_jiffies(us);
	return rc->ack_tmo;
}

/**
 * softrdma_rc_retry_start() - run the ACK timer or an RNR wait until
 * @deadline
 * @qp: the QP; sq.lock held, its requester not stopped
 * @deadline: in jiffies
 *
 * retry_timer is moved only when it would fire after @deadline, or is
 * not pending: a deadline later than the timer's expiry is waited out
 * by the timer itself (softrdma_rc_retry_timer() sets it again).
 */
void softrdma_rc_retry_start(struct softrdma_qp *qp, unsigned long deadline)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);

	lockdep_assert_held(&qp->sq.lock);

	rc->retry_armed = true;
	rc->retry_deadline = deadline;
	/* every mod_timer() of retry_timer is under sq.lock: expires holds */
	if (!timer_pending(&rc->retry_timer) ||
	    time_after(rc->retry_timer.expires, deadline))
		mod_timer(&rc->retry_timer, deadline);
}

/**
 * softrdma_rc_arm_retry() - start the local ACK timer if it is not running
 * @qp: the QP; sq.lock held
 *
 * IBA 9.7.6.1.3: a timeout of 0 means the timer is off.
 */
void softrdma_rc_arm_retry(struct softrdma_qp *qp)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	unsigned long tmo;

	lockdep_assert_held(&qp->sq.lock);

	/*
	 * running: it goes on; an RNR wait has the timer; stopped: nothing
	 * is armed; UC: none
	 */
	if (rc->retry_armed || rc->req_state == SOFTRDMA_RC_REQ_RNR_WAIT ||
	    rc->req_state == SOFTRDMA_RC_REQ_STOPPED ||
	    !softrdma_rc_reliable(qp))
		return;
	tmo = softrdma_rc_ack_timeout(qp);
	if (tmo)
		softrdma_rc_retry_start(qp, jiffies + tmo);
}

/* Reads and atomics among the WQEs before @idx not yet answered */
static u32 softrdma_rc_rd_outstanding(struct softrdma_qp *qp, u32 idx)
{
	struct softrdma_send_wqe *wqe;
	struct softrdma_rc_wqe *st;
	u32 i, n = 0;

	for (i = 0; i < idx; i++) {
		wqe = softrdma_rc_wqe_at(qp, i, &st);
		if (softrdma_wr_is_rd_atomic(wqe->opcode) && !st->done)
			n++;
	}
	return n;
}

struct softrdma_rc_gather {
	struct sk_buff *skb;
	bool frags;
};

static int softrdma_rc_gather_one(struct softrdma_mr *mr, u64 addr, u32 len,
				  u32 done, void *ctx)
{
	struct softrdma_rc_gather *g = ctx;
	int err;

	if (g->frags) {
		err = softrdma_mr_skb_add_frags(mr, addr, len, g->skb);
		return err == -EMSGSIZE ? -EXDEV : err;
	}
	return softrdma_mr_copy(mr, addr, skb_put(g->skb, len), len,
				SOFTRDMA_COPY_FROM_MR);
}

/*
 * The payload of one packet: [@offset, @offset + @len) of the WQE's data,
 * copied for inline data and small or unaligned pieces, else attached as
 * the MR's pinned pages.  UC copies all: its WQE completes once the
 * packet is handed to the host, which may still hold it in a queue, and
 * the consumer may then write the buffer again.  So does a packet whose
 * devices would copy the pages anyway (softrdma_rc_tx_sg()): once, into
 * a head sized for it.  The keys are looked up through @mr_cache
 * (softrdma_mr_get_cached()) if not NULL.  Returns the skb or an
 * ERR_PTR: -EMSGSIZE (a length error), -EACCES (a protection error),
 * -ENOMEM.
 */
static struct sk_buff *softrdma_rc_req_skb(struct softrdma_qp *qp,
					   const struct softrdma_send_wqe *wqe,
					   unsigned int hdr_len, u32 offset,
					   u32 len,
					   struct softrdma_mr **mr_cache)
{
	struct softrdma_rc_gather g = {};
	u32 pad = (4 - (len & 3)) & 3;
	int err = 0;

	if (!(wqe->send_flags & IB_SEND_INLINE) && len > SOFTRDMA_RC_COPY_MAX &&
	    !pad && softrdma_rc_reliable(qp) && softrdma_rc_tx_sg(qp)) {
		g.skb = softrdma_rc_alloc_skb(qp, hdr_len, 0);
		if (!g.skb)
			return ERR_PTR(-ENOMEM);
		g.frags = true;
		err = softrdma_sge_walk_cached(qp, wqe->sge, wqe->num_sge,
					       offset, len, 0,
					       softrdma_rc_gather_one, &g,
					       mr_cache);
		if (!err)
			return g.skb;
		kfree_skb(g.skb);
		if (err != -EXDEV)
			return ERR_PTR(err);
		g.frags = false;
	}

	g.skb = softrdma_rc_alloc_skb(qp, hdr_len, len + pad);
	if (!g.skb)
		return ERR_PTR(-ENOMEM);
	if (wqe->send_flags & IB_SEND_INLINE) {
		if (offset + len > wqe->length ||
		    wqe->length > SOFTRDMA_MAX_INLINE)
			err = -EMSGSIZE;
		else
			skb_put_data(g.skb, wqe->inline_data + offset, len);
	} else {
		err = softrdma_sge_walk_cached(qp, wqe->sge, wqe->num_sge,
					       offset, len, 0,
					       softrdma_rc_gather_one, &g,
					       mr_cache);
	}
	if (err) {
		kfree_skb(g.skb);
		return ERR_PTR(err == -EFAULT ? -EACCES : err);
	}
	if (pad)
		skb_put_zero(g.skb, pad);
	return g.skb;
}

static void *softrdma_rc_ext(struct sk_buff *skb, u8 opcode,
			     enum softrdma_roce_ext ext)
{
	return skb->data + softrdma_roce_ext_offset(opcode, ext);
}

/*
 * Build packet @pkt of @wqe (its PSN first_psn + pkt); for a READ, the
 * request for @n of its responses from @pkt on.  @mr_cache: as for
 * softrdma_rc_req_skb().
 */
static struct sk_buff *softrdma_rc_req_build_n(struct softrdma_qp *qp,
					       const struct softrdma_send_wqe *wqe,
					       const struct softrdma_rc_wqe *st,
					       u32 pkt, u32 n,
					       struct softrdma_mr **mr_cache)
{
	bool reliable = softrdma_rc_reliable(qp);
	const struct softrdma_roce_opcode *op;
	struct softrdma_rc_seg seg;
	struct softrdma_bth *bth;
	struct sk_buff *skb;
	u32 plen = 0;

	if (!softrdma_rc_segment(wqe->opcode, wqe->length, qp->mtu,
				 wqe->opcode == IB_WR_RDMA_READ ? 0 : pkt,
				 wqe->send_flags, &seg))
		return ERR_PTR(-EINVAL);
	seg.opcode = softrdma_rc_req_opcode(seg.opcode, reliable);
	op = softrdma_roce_opcode(seg.opcode);
	if (!op)
		return ERR_PTR(-EINVAL);
	if (op->flags & SOFTRDMA_OPF_PAYLOAD)
		plen = seg.len;

	skb = softrdma_rc_req_skb(qp, wqe, softrdma_roce_hdr_len(seg.opcode),
				  seg.offset, plen, mr_cache);
	if (IS_ERR(skb))
		return skb;

	bth = (struct softrdma_bth *)skb->data;
	softrdma_bth_set_opcode(bth, seg.opcode);
	softrdma_bth_set_pkey(bth, SOFTRDMA_DEFAULT_PKEY);
	softrdma_bth_set_pad(bth, (4 - (plen & 3)) & 3);
	softrdma_bth_set_qpn(bth, qp->attr.dest_qp_num);
	/*
	 * IBA 9.7.2: AckReq where the message asks for it, and also on the
	 * packet that fills the congestion window: the requester sends no
	 * more until an ACK comes, and without AckReq none would.  UC
	 * (9.8) asks for nothing.
	 */
	softrdma_bth_set_ackreq(bth, reliable &&
				(seg.ackreq ||
				 psn_diff(psn_add(st->first_psn, pkt + 1),
					  softrdma_qp_rc(qp)->una_psn) >=
					softrdma_qp_rc(qp)->cwnd));
	softrdma_bth_set_psn(bth, psn_add(st->first_psn, pkt));
	/*
	 * IBA 9.2: SE on the last packet of a solicited message that
	 * consumes a receive WQE: a SEND, a WRITE with immediate
	 */
	if ((wqe->send_flags & IB_SEND_SOLICITED) &&
	    (op->flags & SOFTRDMA_OPF_RECV) &&
	    (op->flags & (SOFTRDMA_OPF_LAST | SOFTRDMA_OPF_ONLY)))
		softrdma_bth_set_se(bth, true);

	if (wqe->opcode == IB_WR_RDMA_READ) {
		u32 off = pkt * qp->mtu;
		u32 len = wqe->length - off;

		if (n < st->npsn - pkt)
			len = min_t(u32, len, n * qp->mtu);
		softrdma_reth_set(softrdma_rc_ext(skb, seg.opcode,
						  SOFTRDMA_EXT_RETH),
				  wqe->wr.rdma.remote_addr + off,
				  wqe->wr.rdma.rkey, len);
	} else if (wqe->opcode == SOFTRDMA_WR_FLUSH) {
		/* IBA 1.5 9.4.8: the range, or any address of the MR */
		softrdma_feth_set(softrdma_rc_ext(skb, seg.opcode,
						  SOFTRDMA_EXT_FETH),
				  wqe->wr.flush.type, wqe->wr.flush.level);
		softrdma_reth_set(softrdma_rc_ext(skb, seg.opcode,
						  SOFTRDMA_EXT_RETH),
				  wqe->wr.flush.remote_addr, wqe->wr.flush.rkey,
				  wqe->wr.flush.length);
	} else if (seg.has_reth) {
		softrdma_reth_set(softrdma_rc_ext(skb, seg.opcode,
						  SOFTRDMA_EXT_RETH),
				  wqe->wr.rdma.remote_addr, wqe->wr.rdma.rkey,
				  wqe->length);
	}
	if (seg.opcode == IB_OPCODE_RC_COMPARE_SWAP ||
	    seg.opcode == IB_OPCODE_RC_FETCH_ADD) {
		bool cs = seg.opcode == IB_OPCODE_RC_COMPARE_SWAP;

		softrdma_atmeth_set(softrdma_rc_ext(skb, seg.opcode,
						    SOFTRDMA_EXT_ATMETH),
				    wqe->wr.atomic.remote_addr,
				    wqe->wr.atomic.rkey,
				    cs ? wqe->wr.atomic.swap :
					 wqe->wr.atomic.compare_add,
				    cs ? wqe->wr.atomic.compare_add : 0);
	}
	if (softrdma_roce_ext_offset(seg.opcode, SOFTRDMA_EXT_IMMDT) > 0) {
		struct softrdma_immdt *imm;

		imm = softrdma_rc_ext(skb, seg.opcode, SOFTRDMA_EXT_IMMDT);
		imm->imm = wqe->ex.imm_data;
	}
	if (softrdma_roce_ext_offset(seg.opcode, SOFTRDMA_EXT_IETH) > 0)
		softrdma_ieth_set_rkey(softrdma_rc_ext(skb, seg.opcode,
						       SOFTRDMA_EXT_IETH),
				       wqe->ex.invalidate_rkey);
	return skb;
}

/*
 * Build packet @pkt of @wqe (its PSN first_psn + pkt).  For a READ
 * resumed in its middle, the request asks only for what is still
 * missing: the responses from @pkt up to the first one that arrived
 * past a gap, or to the end (IBA 9.7.5.1.3 lets the requester re-read
 * any part of the original).
 */
static struct sk_buff *softrdma_rc_req_build(struct softrdma_qp *qp,
					     const struct softrdma_send_wqe *wqe,
					     const struct softrdma_rc_wqe *st,
					     u32 pkt,
					     struct softrdma_mr **mr_cache)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	u32 psn = psn_add(st->first_psn, pkt);
	u32 n = st->npsn - pkt;

	if (wqe->opcode == IB_WR_RDMA_READ)
		n = softrdma_rc_rd_gap(&rc->rd_ahead, psn, rc->una_psn,
				       psn_add(st->first_psn, st->npsn));
	return softrdma_rc_req_build_n(qp, wqe, st, pkt, n, mr_cache);
}

/* A WQE the requester cannot send: retire it in turn with @status */
static void softrdma_rc_req_fail(struct softrdma_qp *qp,
				 struct softrdma_rc_wqe *st,
				 enum ib_wc_status status)
{
	st->failed = true;
	st->status = status;
	softrdma_rc_retire(qp, psn_sub(softrdma_qp_rc(qp)->una_psn, 1));
}

static enum ib_wc_status softrdma_rc_local_status(long err)
{
	switch (err) {
	case -EMSGSIZE:
		return IB_WC_LOC_LEN_ERR;
	case -EACCES:
		return IB_WC_LOC_PROT_ERR;
	default:
		return IB_WC_LOC_QP_OP_ERR;
	}
}

/* Snapshot the next WQE and give it its PSNs; false when none is ready */
static bool softrdma_rc_req_fetch(struct softrdma_qp *qp)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	struct softrdma_send_wqe *wqe;
	struct softrdma_rc_wqe *st;

	wqe = softrdma_sq_fetch(qp);
	if (!wqe)
		return false;
	if (IS_ERR(wqe)) {
		softrdma_rc_req_move(qp, SOFTRDMA_RC_REQ_FAILED);
		softrdma_qp_error(qp);
		return false;
	}
	softrdma_rc_wqe_at(qp, qp->sq.fetched - 1, &st);
	*st = (struct softrdma_rc_wqe){
		.first_psn = rc->req_psn,
		.npsn = softrdma_wr_is_local(wqe->opcode) ? 0 :
			softrdma_rc_wqe_npsn(wqe->opcode, wqe->length, qp->mtu),
	};
	if (!softrdma_rc_wr_supported(wqe->opcode, softrdma_rc_reliable(qp))) {
		st->npsn = 0;
		softrdma_rc_req_fail(qp, st, IB_WC_LOC_QP_OP_ERR);
	} else if (!softrdma_rc_msg_fits(wqe->opcode, wqe->length, qp->mtu) ||
		   (wqe->opcode != IB_WR_RDMA_READ &&
		    !softrdma_wr_is_rd_atomic(wqe->opcode) &&
		    !(wqe->send_flags & IB_SEND_INLINE) && !wqe->num_sge &&
		    wqe->length)) {
		st->npsn = 0;
		softrdma_rc_req_fail(qp, st, IB_WC_LOC_LEN_ERR);
	}
	return true;
}

/*
 * A REG_MR or LOCAL_INV in its turn: executed once (a go-back-N passes
 * over it), retired as soon as everything before it is.  False when it
 * failed: it retires with its error and the QP ends.
 */
static bool softrdma_rc_req_local(struct softrdma_qp *qp,
				  const struct softrdma_send_wqe *wqe,
				  struct softrdma_rc_wqe *st)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	enum ib_wc_status status;

	if (!st->done) {
		status = softrdma_qp_exec_local(qp, wqe);
		if (status != IB_WC_SUCCESS) {
			softrdma_rc_req_fail(qp, st, status);
			return false;
		}
		st->done = true;
	}
	rc->req_idx++;
	softrdma_rc_retire(qp, psn_sub(rc->una_psn, 1));
	return true;
}

/**
 * softrdma_rc_req_run() - send what the window, the read/atomic limit and
 * fences allow
 * @qp: the QP; sq.lock held
 *
 * Packets are built here and queued; softrdma_rc_req_flush() sends them
 * once the lock is dropped.  The pass looks its keys up through one MR
 * cache (softrdma_mr_get_cached()), dropped when it ends.
 */
void softrdma_rc_req_run(struct softrdma_qp *qp)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	u32 max_rd = max_t(u32, qp->attr.max_rd_atomic, 1);
	struct softrdma_mr *mr_cache = NULL;
	struct softrdma_send_wqe *wqe;
	struct softrdma_rc_wqe *st;
	struct sk_buff *skb;
	u32 pkt;

	lockdep_assert_held(&qp->sq.lock);

	if (rc->req_state != SOFTRDMA_RC_REQ_RUNNING ||
	    (qp->state != IB_QPS_RTS && qp->state != IB_QPS_SQD))
		return;

	/* IBA 9.7.6: a bounded number of PSNs in flight */
	while (psn_diff(rc->req_psn, rc->una_psn) < rc->cwnd) {
		/* IBA 10.3.1: SQD finishes what was started, starts nothing */
		if (rc->req_idx == qp->sq.fetched &&
		    (qp->state == IB_QPS_SQD || !softrdma_rc_req_fetch(qp)))
			break;
		if (rc->req_state != SOFTRDMA_RC_REQ_RUNNING)
			break;
		wqe = softrdma_rc_wqe_at(qp, rc->req_idx, &st);
		if (st->failed)
			break;
		pkt = psn_diff(rc->req_psn, st->first_psn);
		if (pkt == 0 || softrdma_wr_is_rd_atomic(wqe->opcode)) {
			/* IBA 10.8.3.3 fence; 9.5.8 initiator depth */
			bool rd = softrdma_wr_is_rd_atomic(wqe->opcode);
			bool fence = wqe->send_flags & IB_SEND_FENCE;

			if ((rd || fence) &&
			    softrdma_rc_rd_outstanding(qp, rc->req_idx) >=
				    (fence ? 1 : max_rd))
				break;
		}
		if (softrdma_wr_is_local(wqe->opcode)) {
			if (!softrdma_rc_req_local(qp, wqe, st))
				break;
			continue;
		}

		skb = softrdma_rc_req_build(qp, wqe, st, pkt, &mr_cache);
		if (IS_ERR(skb)) {
			if (PTR_ERR(skb) == -ENOMEM) {
				/* retried from the work item, after a pause */
				softrdma_rc_req_move(qp, SOFTRDMA_RC_REQ_PAUSED);
				queue_delayed_work(system_wq, &rc->req_work,
						   usecs_to_jiffies(1000));
				break;
			}
			softrdma_rc_req_fail(qp, st,
					     softrdma_rc_local_status(PTR_ERR(skb)));
			break;
		}
		__skb_queue_tail(&rc->req_txq, skb);

		if (softrdma_wr_is_rd_atomic(wqe->opcode) ||
		    pkt + 1 == st->npsn) {
			rc->req_psn = psn_add(st->first_psn, st->npsn);
			rc->req_idx++;
		} else {
			rc->req_psn = psn_add(rc->req_psn, 1);
		}
		if (psn_after(rc->req_psn, rc->sent_psn))
			rc->sent_psn = rc->req_psn;
		softrdma_rc_arm_retry(qp);
	}
	if (mr_cache)
		softrdma_mr_put(mr_cache);
}

/**
 * softrdma_rc_req_rewind() - go back to @psn and send from there again
 * @qp: the QP; sq.lock held
 * @psn: an outstanding PSN (IBA 9.7.5.1.4 go-back-N), or the new
 *	una_psn when an acknowledgment overtook a rewind
 *
 * Packets built and not yet sent are dropped: they follow @psn, or were
 * acknowledged already.
 */
void softrdma_rc_req_rewind(struct softrdma_qp *qp, u32 psn)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	struct softrdma_send_wqe *wqe;
	struct softrdma_rc_wqe *st;
	u32 i;

	lockdep_assert_held(&qp->sq.lock);

	__skb_queue_purge(&rc->req_txq);
	for (i = 0; i < qp->sq.fetched; i++) {
		wqe = softrdma_rc_wqe_at(qp, i, &st);
		/* a memory operation is not repeated: go back past it */
		if (!st->npsn && softrdma_wr_is_local(wqe->opcode) &&
		    st->done && !st->failed)
			continue;
		if (!st->npsn || psn_before(psn, st->first_psn))
			break;
		if (!psn_in_window(psn, st->first_psn, st->npsn))
			continue;
		if (softrdma_wr_is_rd_atomic(wqe->opcode) &&
		    wqe->opcode != IB_WR_RDMA_READ)
			psn = st->first_psn;
		break;
	}
	rc->req_idx = i;
	rc->req_psn = psn;
}

/**
 * softrdma_rc_req_reread() - ask again for responses of an RDMA READ
 * @qp: the QP; sq.lock held
 * @idx: the READ's place among the outstanding WQEs
 * @psn: the first of its responses to ask for, at or after una_psn
 * @n: how many
 *
 * IBA 9.7.5.1.3: the repeated request names the PSN, address and length
 * of the part missing.  Only this request is sent: the requester goes
 * on where it stood, since what it sent after the READ reached the
 * responder, whose responses came past the gap.
 *
 * Return: 0, or -ENOMEM (the ACK timer asks again).
 */
int softrdma_rc_req_reread(struct softrdma_qp *qp, u32 idx, u32 psn, u32 n)
{
	struct softrdma_send_wqe *wqe;
	struct softrdma_rc_wqe *st;
	struct sk_buff *skb;

	lockdep_assert_held(&qp->sq.lock);

	wqe = softrdma_rc_wqe_at(qp, idx, &st);
	skb = softrdma_rc_req_build_n(qp, wqe, st,
				      psn_diff(psn, st->first_psn), n, NULL);
	if (IS_ERR(skb))
		return PTR_ERR(skb);
	__skb_queue_tail(&softrdma_qp_rc(qp)->req_txq, skb);
	softrdma_rc_arm_retry(qp);
	return 0;
}

static void softrdma_rc_req_backoff(struct softrdma_qp *qp, u32 psn)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);

	lockdep_assert_held(&qp->sq.lock);

	if (psn_in_window(psn, rc->una_psn,
			  psn_diff(rc->sent_psn, rc->una_psn)))
		softrdma_rc_req_rewind(qp, psn);
	else
		__skb_queue_purge(&rc->req_txq);
	rc->req_backoff_us = clamp(rc->req_backoff_us * 2,
				   SOFTRDMA_RC_XMIT_BACKOFF_MIN_US,
				   SOFTRDMA_RC_XMIT_BACKOFF_MAX_US);
	/* waiting already (an RNR wait, a failure): that goes on */
	if (rc->req_state == SOFTRDMA_RC_REQ_RUNNING)
		softrdma_rc_req_move(qp, SOFTRDMA_RC_REQ_PAUSED);
	queue_delayed_work(system_wq, &rc->req_work,
			   usecs_to_jiffies(rc->req_backoff_us));
}

/*
 * UC (IBA 9.8): nothing acknowledges a packet.  The packets up to @psn
 * are handed to the host: the WQEs they end retire as RC's would on an
 * ACK, and the window moves on with them.
 */
static void softrdma_uc_req_sent(struct softrdma_qp *qp, u32 psn)
{
	lockdep_assert_held(&qp->sq.lock);

	if (!softrdma_rc_req_active(softrdma_qp_rc(qp)->req_state))
		return;
	softrdma_rc_retire(qp, psn);
	softrdma_rc_req_run(qp);
}

/*
 * UC packets one flush sends before it hands the rest to the requester's
 * work item.  A UC requester refills its queue as fast as the flush
 * drains it (each packet sent retires WQEs and builds more), so without
 * a bound a user who keeps posting would hold the CPU in one doorbell.
 * RC needs none: its window stops the requester until ACKs come.
 */
#define SOFTRDMA_UC_FLUSH_BUDGET	64

/**
 * softrdma_rc_req_flush_due() - would softrdma_rc_req_flush() find work?
 * @qp: the QP; sq.lock held
 *
 * Packets queued to send, or an SQ Drained event owed.  A caller that
 * finds neither before it drops sq.lock may leave the flush out: whoever
 * queues after the unlock flushes.
 */
bool softrdma_rc_req_flush_due(struct softrdma_qp *qp)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);

	lockdep_assert_held(&qp->sq.lock);

	return !skb_queue_empty(&rc->req_txq) ||
	       rc->sqd == SOFTRDMA_RC_SQD_OWED;
}

/**
 * softrdma_rc_req_flush() - send the queued request packets
 * @qp: the QP; sq.lock not held
 *
 * One caller at a time drains the queue, in order, with the lock dropped
 * around each transmit (on UC, at most SOFTRDMA_UC_FLUSH_BUDGET packets
 * before the requester's work item takes over).  On RC, consecutive
 * packets of one message leave as one burst (softrdma_rc_burst_take()).
 * A packet or burst the host dropped is not left to the ACK timeout: the
 * requester rewinds to its first packet and retries after a back-off.
 */
void softrdma_rc_req_flush(struct softrdma_qp *qp)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	struct sk_buff_head burst;
	unsigned int sent = 0;
	bool sq_drained;
	u32 psn, life;
	int err;

	__skb_queue_head_init(&burst);
	spin_lock_bh(&qp->sq.lock);
	if (rc->req_draining)
		goto out_unlock;
	rc->req_draining = true;
	while (softrdma_rc_burst_take(qp, &rc->req_txq, &burst)) {
		/* a burst lost is lost from its first packet on */
		psn = softrdma_bth_psn((struct softrdma_bth *)
				       skb_peek(&burst)->data);
		life = rc->req_life;
		spin_unlock_bh(&qp->sq.lock);
		err = softrdma_rc_xmit_burst(qp, &burst);
		spin_lock_bh(&qp->sq.lock);
		/*
		 * Stopped meanwhile (and perhaps reset and started again,
		 * with new WQEs at the same PSNs): @psn is of a life that
		 * ended, its WQEs were flushed, it retires or rewinds nothing.
		 */
		if (life != rc->req_life)
			continue;
		if (err == -EAGAIN &&
		    rc->req_state != SOFTRDMA_RC_REQ_STOPPED) {
			softrdma_rc_req_backoff(qp, psn);
			break;
		}
		if (!err)
			rc->req_backoff_us = 0;
		/*
		 * Else lost for good: RC's ACK timer retransmits it; a UC
		 * message is lost as on the link.
		 */
		if (softrdma_rc_reliable(qp))
			continue;
		softrdma_uc_req_sent(qp, psn);
		if (++sent == SOFTRDMA_UC_FLUSH_BUDGET &&
		    !skb_queue_empty(&rc->req_txq)) {
			/* stop() cancels it; a pending back-off keeps its delay */
			queue_delayed_work(system_wq, &rc->req_work, 0);
			break;
		}
	}
	rc->req_draining = false;
out_unlock:
	/* every sq.lock section that may retire a WQE ends in a flush */
	sq_drained = softrdma_rc_sq_drained_take(qp);
	spin_unlock_bh(&qp->sq.lock);
	if (sq_drained)
		softrdma_qp_sq_drained_event(qp);
}

/**
 * softrdma_rc_req_work() - resume the requester after a pause
 * @work: rc.req_work
 */
void softrdma_rc_req_work(struct work_struct *work)
{
	struct softrdma_rc *rc = container_of(to_delayed_work(work),
					      struct softrdma_rc, req_work);
	struct softrdma_qp *qp = softrdma_rc_qp(rc);

	spin_lock_bh(&qp->sq.lock);
	/* an RNR wait that began meanwhile is the timer's to end */
	if (rc->req_state == SOFTRDMA_RC_REQ_PAUSED)
		softrdma_rc_req_move(qp, SOFTRDMA_RC_REQ_RUNNING);
	softrdma_rc_req_run(qp);
	spin_unlock_bh(&qp->sq.lock);
	softrdma_rc_req_flush(qp);
}
