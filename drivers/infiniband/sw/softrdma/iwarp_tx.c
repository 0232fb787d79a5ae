// SPDX-License-Identifier: GPL-2.0-only
/*
 * The iWARP transmit engine: RDMAP messages (RFC 5040) as DDP segments
 * (RFC 5041) in MPA FPDUs (RFC 5044) on the connection's TCP socket.
 *
 * It sends, in this order of preference: a TERMINATE the receive side
 * asked for, the rest of the message being sent, a Read Response for the
 * oldest inbound READ (IRQ), the next SQ WQE (Send, Send with Solicited
 * Event, Send with Invalidate, RDMA Write, RDMA Read Request).  Messages
 * are cut into FPDUs of at most params.max_ulpdu ULPDU bytes.  Payload of
 * more than SOFTRDMA_IW_COPY_MAX bytes goes to TCP from the pinned pages:
 * a Read Response's and an unsignalled WQE's as references to them
 * (softrdma_tcp_send_page_locked()), not copied; a signalled WQE's
 * copied by TCP into its own buffers as it takes them, the one copy of
 * those bytes (softrdma_iw_zcopy()).  Smaller payload is copied next to
 * the header.
 *
 * It runs in the poster's context on the doorbell (user QPs); in the
 * receive softirq that queued a Read Request, for one FPDU of its
 * response (softrdma_iw_tx_run_locked()); else from its work item: for
 * kernel QPs, after a READ held back a WQE, for the rest of a long Read
 * Response, and when the socket has room again.
 * Sends never block (MSG_DONTWAIT): a full socket parks the engine until
 * sk_write_space.  One context sends at a time (tx.busy); one that finds
 * the engine busy leaves tx.again, and the owner goes round once more,
 * so a posted WQE is never left behind (libsiw's doorbell rule).
 *
 * Completions: a Send or Write completes when its last byte is handed to
 * TCP and the peer has acknowledged every byte of an earlier WQE lent to
 * TCP, a Read when its last response byte is placed (iwarp_rx.c); all in
 * SQ order (IBA 10.8.5), so a Write posted after a Read completes after
 * it.  A completion lets the consumer reuse the buffers of the WQE and of
 * every WQE before it, and TCP sends, and may resend, lent bytes from
 * those pages until they are acknowledged: a buffer changed before then
 * would go out changed, after its CRC was taken.  Once acknowledged, TCP
 * may still hold the pages (a clone on its way to the NIC) but the peer
 * drops those bytes as old, so the stream it receives is what was
 * posted.  Stock siw completes at the hand-over.
 */
#include <linux/bvec.h>
#include <linux/net.h>
#include <linux/skbuff.h>
#include <linux/socket.h>
#include <linux/uio.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <kunit/visibility.h>
#include <net/sock.h>
#include <trace/events/softrdma.h>
#include <net/tcp.h>

#include "compat.h"
#include "counters.h"
#include "device.h"
#include "iwarp_qp.h"
#include "iwarp_tx.h"
#include "mpa.h"
#include "mr.h"
#include "qp.h"
#include "queue.h"
#include "sge.h"

static void softrdma_iw_tx_term_queue(struct softrdma_qp *qp,
				      enum softrdma_iwarp_err err,
				      const void *fpdu, size_t avail);
static void __softrdma_iw_tx_terminate(struct softrdma_qp *qp,
				       enum softrdma_iwarp_err err,
				       const void *fpdu, size_t avail);

/* --- the engine's state machine ------------------------------------------ */

static const char * const softrdma_iw_tx_state_names[] = {
	[SOFTRDMA_IW_TX_DETACHED] = "DETACHED",
	[SOFTRDMA_IW_TX_RUNNING] = "RUNNING",
	[SOFTRDMA_IW_TX_CLOSING] = "CLOSING",
	[SOFTRDMA_IW_TX_DEAD] = "DEAD",
};

static_assert(ARRAY_SIZE(softrdma_iw_tx_state_names) ==
	      SOFTRDMA_IW_TX_NR_STATES);

const char *softrdma_iw_tx_state_name(enum softrdma_iw_tx_state state)
{
	if (state >= SOFTRDMA_IW_TX_NR_STATES)
		return "?";
	return softrdma_iw_tx_state_names[state];
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_iw_tx_state_name);

#define S(x)	BIT(SOFTRDMA_IW_TX_##x)

/*
 * The states each state may move to.  A connection runs once: it ends
 * through CLOSING (what is in flight and a TERMINATE go out) or at once
 * (the socket failed), and only a reset (RESET, or the next attach)
 * forgets it.
 */
static const u8 softrdma_iw_tx_moves[] = {
	[SOFTRDMA_IW_TX_DETACHED] = S(RUNNING),
	[SOFTRDMA_IW_TX_RUNNING] = S(CLOSING) | S(DEAD),
	[SOFTRDMA_IW_TX_CLOSING] = S(DEAD),
	[SOFTRDMA_IW_TX_DEAD] = S(DETACHED),
};

#undef S

static_assert(ARRAY_SIZE(softrdma_iw_tx_moves) == SOFTRDMA_IW_TX_NR_STATES);

bool softrdma_iw_tx_may_move(enum softrdma_iw_tx_state from,
			     enum softrdma_iw_tx_state to)
{
	if (from >= SOFTRDMA_IW_TX_NR_STATES || to >= SOFTRDMA_IW_TX_NR_STATES)
		return false;
	return softrdma_iw_tx_moves[from] & BIT(to);
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_iw_tx_may_move);

/**
 * softrdma_iw_tx_move() - move the transmit engine to @next
 * @qp: an iWARP QP; sq.lock held
 * @next: the new state
 *
 * A move the table does not allow is a bug: it is refused (the engine
 * stays), warned about once and traced.
 */
void softrdma_iw_tx_move(struct softrdma_qp *qp,
			 enum softrdma_iw_tx_state next)
{
	struct softrdma_iw_tx *tx = &softrdma_qp_iw(qp)->tx;
	enum softrdma_iw_tx_state cur = tx->state;
	bool ok;

	lockdep_assert_held(&qp->sq.lock);

	if (cur == next)
		return;
	ok = softrdma_iw_tx_may_move(cur, next);
	trace_softrdma_engine_move(qp->ibqp.device, softrdma_qpn(qp), "iw_tx",
				   softrdma_iw_tx_state_name(cur),
				   softrdma_iw_tx_state_name(next), !ok);
	if (WARN_ONCE(!ok, "softrdma: iw tx %s -> %s refused\n",
		      softrdma_iw_tx_state_name(cur),
		      softrdma_iw_tx_state_name(next)))
		return;
	tx->state = next;
}

/**
 * softrdma_iw_rdq_push() - append a READ to a read queue
 * @q: the ORQ or IRQ
 * @limit: ORD or IRD (clamped to SOFTRDMA_IW_MAX_RD)
 *
 * Return: the new entry, zeroed, or NULL when @limit READs are queued.
 */
struct softrdma_iw_read *softrdma_iw_rdq_push(struct softrdma_iw_rdq *q,
					      u32 limit)
{
	struct softrdma_iw_read *e;

	if (q->count >= min_t(u32, limit, SOFTRDMA_IW_MAX_RD))
		return NULL;
	e = &q->e[(q->head + q->count) % SOFTRDMA_IW_MAX_RD];
	q->count++;
	memset(e, 0, sizeof(*e));
	return e;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_iw_rdq_push);

/* the oldest READ of @q, or NULL */
struct softrdma_iw_read *softrdma_iw_rdq_peek(struct softrdma_iw_rdq *q)
{
	return q->count ? &q->e[q->head] : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_iw_rdq_peek);

void softrdma_iw_rdq_pop(struct softrdma_iw_rdq *q)
{
	if (!q->count)
		return;
	q->head = (q->head + 1) % SOFTRDMA_IW_MAX_RD;
	q->count--;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_iw_rdq_pop);

/*
 * Payload bytes one FPDU may carry when its header (from the MPA length
 * field) is @hdr_len bytes: the ULPDU is the header after the length
 * field, then the payload.
 */
u32 softrdma_iw_max_payload(u32 max_ulpdu, u32 hdr_len)
{
	return max_ulpdu - (hdr_len - IWARP_MPA_LEN_SIZE);
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_iw_max_payload);

/**
 * softrdma_iw_seg_len() - the payload of the next DDP segment
 * @msg_len: bytes of the message
 * @off: bytes already sent (the segment's MO or TO offset)
 * @max_payload: the most one FPDU carries
 * @last: out: the segment ends the message (DDP L bit)
 *
 * A zero-length message is one segment without payload.
 */
u32 softrdma_iw_seg_len(u32 msg_len, u32 off, u32 max_payload, bool *last)
{
	u32 n = min(msg_len - off, max_payload);

	*last = off + n == msg_len;
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_iw_seg_len);

/* Drop what an FPDU holds and forget it */
void softrdma_iw_fpdu_release(struct softrdma_iw_fpdu *f)
{
	if (f->frags)
		consume_skb(f->frags);	/* drops the page references */
	f->frags = NULL;
	f->wqe_pages = false;
	f->frags_copy = false;
	f->lin_len = 0;
	f->trailer_len = 0;
	f->total = 0;
	f->sent = 0;
	f->more = false;
	f->end = SOFTRDMA_IW_END_NONE;
}

/*
 * The pad and CRC after the ULPDU (RFC 5044 4.1, 4.2).  An FPDU all in
 * lin (no page fragments) gets them in lin too: one pass of the CRC and
 * one buffer for TCP; lin has room for them (SOFTRDMA_IW_LIN_SIZE).
 */
static void softrdma_iw_fpdu_seal(struct softrdma_iwarp_qp *iw,
				  struct softrdma_iw_fpdu *f)
{
	u32 frag_len = f->frags ? f->frags->len : 0;
	u32 ulpdu = f->lin_len + frag_len - IWARP_MPA_LEN_SIZE;
	u32 pad = softrdma_mpa_pad(ulpdu);
	u8 *tail = frag_len ? f->trailer : f->lin + f->lin_len;
	u32 crc = 0, st;

	memset(tail, 0, pad);
	if (iw->params.crc) {
		st = softrdma_mpa_crc_init();
		if (frag_len) {
			st = softrdma_mpa_crc_update(st, f->lin, f->lin_len);
			st = softrdma_mpa_crc_update_skb(st, f->frags, 0,
							 frag_len);
			st = softrdma_mpa_crc_update(st, tail, pad);
		} else {
			st = softrdma_mpa_crc_update(st, f->lin,
						     f->lin_len + pad);
		}
		crc = softrdma_mpa_crc_final(st);
	}
	/* RFC 5044 4.1: the CRC field is there, zero, without CRCs */
	softrdma_mpa_crc_put(tail + pad, crc);
	if (frag_len) {
		f->trailer_len = pad + IWARP_MPA_CRC_SIZE;
	} else {
		f->lin_len += pad + IWARP_MPA_CRC_SIZE;
		f->trailer_len = 0;
	}
	f->total = f->lin_len + frag_len + f->trailer_len;
	f->sent = 0;
}

/**
 * softrdma_iw_zcopy() - may a WQE's payload go to TCP by page reference?
 * @signalled: the WQE's completion will be reported
 * @len: payload bytes of the FPDU being built
 *
 * A lent payload holds back the completion of its WQE and of every WQE
 * after it until the peer acknowledged it (softrdma_iw_wqe_acked()).
 * An unsignalled WQE is the bulk of a stream (perftest signals one WQE
 * in many), whose ACKs keep coming, and nobody waits for its own
 * completion; a signalled WQE is often the last before the consumer
 * waits for it (rping WRITEs, then SENDs once the WRITE completed), and
 * a peer with nothing to send may delay its ACK by tens of
 * milliseconds.  So a signalled WQE's payload is copied by TCP as it
 * takes it (softrdma_iw_tx_push()) and completes at the hand-over when
 * nothing lent precedes it; small payloads are copied either way.
 */
bool softrdma_iw_zcopy(bool signalled, u32 len)
{
	return !signalled && len > SOFTRDMA_IW_COPY_MAX;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_iw_zcopy);

/**
 * softrdma_iw_wqe_acked() - has the peer acknowledged what @st waits for?
 * @st: a done WQE's state
 * @snd_una: the socket's oldest unacknowledged sequence number
 *
 * Return: true when @st waits for no acknowledgment, or @snd_una has
 * reached its ack_seq (TCP's before(): sequence numbers wrap).
 */
bool softrdma_iw_wqe_acked(const struct softrdma_iw_wqe_st *st, u32 snd_una)
{
	return !st->ack_wait || !before(snd_una, st->ack_seq);
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_iw_wqe_acked);

struct softrdma_iw_gather {
	struct sk_buff *skb;	/* zero copy: the page holder */
	u8 *buf;		/* copy: where the payload goes */
};

static int softrdma_iw_gather_one(struct softrdma_mr *mr, u64 addr, u32 len,
				  u32 done, void *ctx)
{
	struct softrdma_iw_gather *g = ctx;
	int err;

	if (g->skb) {
		err = softrdma_mr_skb_add_frags(mr, addr, len, g->skb);
		/* not a length error: too many pages, or unpinnable ones */
		return err == -EMSGSIZE ? -EXDEV : err;
	}
	return softrdma_mr_copy(mr, addr, g->buf + done, len,
				SOFTRDMA_COPY_FROM_MR);
}

/*
 * Bytes [@off, @off + @len) of @wqe's payload into @f after its header:
 * references to the pages when large (lent to TCP, or for TCP to copy:
 * softrdma_iw_zcopy()), else a copy.
 * Return: 0, -EMSGSIZE (a length error), -EACCES (a protection error).
 */
static int softrdma_iw_gather_wqe(struct softrdma_qp *qp,
				  struct softrdma_iw_fpdu *f,
				  const struct softrdma_send_wqe *wqe,
				  u32 off, u32 len)
{
	struct softrdma_iw_gather g = { .buf = f->lin + f->lin_len };
	int err;

	if (!len)
		return 0;
	if (wqe->send_flags & IB_SEND_INLINE) {
		if (wqe->length > sizeof(wqe->inline_data) ||
		    off + len > wqe->length)
			return -EMSGSIZE;
		memcpy(g.buf, wqe->inline_data + off, len);
		f->lin_len += len;
		return 0;
	}
	if (len > SOFTRDMA_IW_COPY_MAX) {
		g.skb = alloc_skb(0, GFP_ATOMIC);
		if (g.skb) {
			err = softrdma_sge_walk(qp, wqe->sge, wqe->num_sge,
						off, len, 0,
						softrdma_iw_gather_one, &g);
			if (!err) {
				f->frags = g.skb;
				f->wqe_pages = softrdma_iw_zcopy(softrdma_wqe_signalled(qp, wqe),
								 len);
				f->frags_copy = !f->wqe_pages;
				return 0;
			}
			consume_skb(g.skb);
			g.skb = NULL;
			if (err != -EXDEV)
				return err == -EFAULT ? -EACCES : err;
		}
	}
	err = softrdma_sge_walk(qp, wqe->sge, wqe->num_sge, off, len, 0,
				softrdma_iw_gather_one, &g);
	if (err)
		return err == -EFAULT ? -EACCES : err;
	f->lin_len += len;
	return 0;
}

/* The same from the MR an inbound READ names (checked at its arrival) */
static int softrdma_iw_gather_mr(struct softrdma_qp *qp,
				 struct softrdma_iw_fpdu *f, u32 stag, u64 to,
				 u32 len)
{
	struct softrdma_mr *mr;
	struct sk_buff *skb;
	int err;

	if (!len)
		return 0;
	mr = softrdma_mr_get(qp->sdev, stag);
	if (!mr)
		return -EACCES;
	err = softrdma_mr_check(mr, qp->ibqp.pd, to, len,
				IB_ACCESS_REMOTE_READ);
	if (err)
		goto out_put;
	if (len > SOFTRDMA_IW_COPY_MAX) {
		skb = alloc_skb(0, GFP_ATOMIC);
		if (skb && !softrdma_mr_skb_add_frags(mr, to, len, skb)) {
			f->frags = skb;
			goto out_put;
		}
		if (skb)
			consume_skb(skb);
	}
	err = softrdma_mr_copy(mr, to, f->lin + f->lin_len, len,
			       SOFTRDMA_COPY_FROM_MR);
	if (!err)
		f->lin_len += len;
out_put:
	softrdma_mr_put(mr);
	return err ? -EACCES : 0;
}

static u8 softrdma_iw_send_opcode(const struct softrdma_send_wqe *wqe)
{
	bool se = wqe->send_flags & IB_SEND_SOLICITED;

	if (wqe->opcode == IB_WR_SEND_WITH_INV)
		return se ? IWARP_OP_SEND_SE_INV : IWARP_OP_SEND_INV;
	return se ? IWARP_OP_SEND_SE : IWARP_OP_SEND;
}

/**
 * softrdma_iw_tx_fail_cause() - what a send WQE that failed here is to
 * the QP
 * @completed: the WQE completed in error as it failed
 *
 * IBA 11.6.3.1, which the iWARP verbs follow: an affiliated error
 * reports only what no completion can.  A WQE that completed with its
 * error reports it (as on RoCE, and stock rxe), so the QP only enters
 * ERR; stock siw raises QP_FATAL besides.  One that could not complete
 * yet, behind WQEs whose payload TCP holds unacknowledged, completes in
 * the flush with IB_WC_WR_FLUSH_ERR, which does not say what failed:
 * QP_FATAL does.
 *
 * Return: the &enum softrdma_qp_err_cause for softrdma_qp_fail().
 */
enum softrdma_qp_err_cause softrdma_iw_tx_fail_cause(bool completed)
{
	if (!completed)
		return SOFTRDMA_QP_ERR_LOCAL;
	return softrdma_iwarp_err_cause(SOFTRDMA_IWERR_SQ_LOCAL);
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_iw_tx_fail_cause);

/**
 * softrdma_iw_tx_wqe_fail() - a send WQE of ours failed here: end the QP
 * @qp: the QP; sq.lock held
 * @slot: the WQE's SQ slot
 * @status: what it completes with
 *
 * The WQE completes with @status, now if it is the oldest, and ends the
 * QP (IBA 10.8.3.1) and the stream.  RFC 5040 7.1, first case: an error
 * found while creating a message, "or other reasons not directly
 * associated with an incoming Message" (an RDMA Read's local invalidate
 * failing as its Read Response ends it), sends a TERMINATE instead:
 * RDMAP Local Catastrophic (SOFTRDMA_IWERR_SQ_LOCAL, RFC 5040 4.8: no
 * error code, no headers).  It is queued as the next FPDU; the connection
 * then closes as for any TERMINATE.  Context: the transmit engine, or the
 * receive path.
 */
void softrdma_iw_tx_wqe_fail(struct softrdma_qp *qp, u32 slot,
			     enum ib_wc_status status)
{
	struct softrdma_iw_tx *tx = &softrdma_qp_iw(qp)->tx;

	lockdep_assert_held(&qp->sq.lock);

	softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_IW_LOCAL_ERR);
	ibdev_dbg(&qp->sdev->ibdev, "QP %u: WQE opcode %u fails (%d)\n",
		  softrdma_qpn(qp), qp->sq.wqe[slot].opcode, status);
	tx->st[slot].status = status;
	tx->st[slot].done = true;
	/* retire clears done as it completes the WQE */
	softrdma_iw_tx_retire(qp);
	softrdma_iw_tx_term_queue(qp, SOFTRDMA_IWERR_SQ_LOCAL, NULL, 0);
	softrdma_iwarp_qp_fatal(qp, -ECONNRESET,
				softrdma_iw_tx_fail_cause(!tx->st[slot].done));
}

/* The WQE being built cannot be sent: nothing more of it goes */
static void softrdma_iw_tx_fail(struct softrdma_qp *qp, u32 slot,
				enum ib_wc_status status)
{
	softrdma_qp_iw(qp)->tx.msg = SOFTRDMA_IW_TX_IDLE;
	softrdma_iw_tx_wqe_fail(qp, slot, status);
}

static enum ib_wc_status softrdma_iw_local_status(int err)
{
	return err == -EMSGSIZE ? IB_WC_LOC_LEN_ERR : IB_WC_LOC_PROT_ERR;
}

/* An RDMA Read Request: one FPDU, then the READ waits in the ORQ */
static int softrdma_iw_build_read_req(struct softrdma_qp *qp,
				      const struct softrdma_send_wqe *wqe)
{
	struct softrdma_iwarp_qp *iw = softrdma_qp_iw(qp);
	struct softrdma_iw_tx *tx = &iw->tx;
	struct softrdma_iw_fpdu *f = &tx->fpdu;
	struct softrdma_iwarp_rreq rreq = {
		.size = wqe->length,
		.src_stag = wqe->wr.rdma.rkey,
		.src_to = wqe->wr.rdma.remote_addr,
	};
	struct softrdma_iw_read *rd;
	struct softrdma_mr *mr;
	int len;

	/* the sink is one local SGE (SOFTRDMA_IWARP_MAX_SGE_RD) */
	if (wqe->num_sge > SOFTRDMA_IWARP_MAX_SGE_RD ||
	    (wqe->length && (!wqe->num_sge || wqe->sge[0].length < wqe->length)))
		return -EMSGSIZE;
	if (wqe->length) {
		rreq.sink_stag = wqe->sge[0].lkey;
		rreq.sink_to = wqe->sge[0].addr;
		mr = softrdma_mr_get(qp->sdev, rreq.sink_stag);
		if (!mr)
			return -EACCES;
		len = softrdma_mr_check(mr, qp->ibqp.pd, rreq.sink_to,
					wqe->length, IB_ACCESS_LOCAL_WRITE);
		softrdma_mr_put(mr);
		if (len)
			return -EACCES;
	}
	len = softrdma_iwarp_build_read_req((struct iwarp_read_req *)f->lin,
					    tx->msn[IWARP_QN_READ_REQ], &rreq);
	if (len < 0)
		return -EMSGSIZE;
	rd = softrdma_iw_rdq_push(&tx->orq, iw->params.ord);
	if (!rd)
		return -EMSGSIZE;	/* the caller checked ORD */
	tx->msn[IWARP_QN_READ_REQ]++;
	rd->sink_stag = rreq.sink_stag;
	rd->sink_to = rreq.sink_to;
	rd->len = rreq.size;
	rd->src_stag = rreq.src_stag;
	rd->src_to = rreq.src_to;
	rd->slot = tx->slot;
	f->lin_len = len;
	softrdma_iw_fpdu_seal(iw, f);
	tx->msg = SOFTRDMA_IW_TX_IDLE;
	return 0;
}

/* The next FPDU of the SQ WQE being sent */
static int softrdma_iw_build_wqe(struct softrdma_qp *qp)
{
	struct softrdma_iwarp_qp *iw = softrdma_qp_iw(qp);
	struct softrdma_iw_tx *tx = &iw->tx;
	struct softrdma_send_wqe *wqe = &qp->sq.wqe[tx->slot];
	struct softrdma_iw_fpdu *f = &tx->fpdu;
	u32 hdr_len, n;
	bool last;
	int err;

	switch (wqe->opcode) {
	case IB_WR_RDMA_READ:
	case IB_WR_RDMA_READ_WITH_INV:
		return softrdma_iw_build_read_req(qp, wqe);
	case IB_WR_RDMA_WRITE:
		hdr_len = sizeof(struct iwarp_tagged_hdr);
		n = softrdma_iw_seg_len(wqe->length, tx->msg_off,
					softrdma_iw_max_payload(iw->params.max_ulpdu,
								hdr_len),
					&last);
		err = softrdma_iwarp_build_tagged((struct iwarp_tagged_hdr *)f->lin,
						  IWARP_OP_WRITE, last,
						  wqe->wr.rdma.rkey,
						  wqe->wr.rdma.remote_addr +
						  tx->msg_off, n);
		break;
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_INV:
		hdr_len = sizeof(struct iwarp_untagged_hdr);
		n = softrdma_iw_seg_len(wqe->length, tx->msg_off,
					softrdma_iw_max_payload(iw->params.max_ulpdu,
								hdr_len),
					&last);
		err = softrdma_iwarp_build_untagged((struct iwarp_untagged_hdr *)f->lin,
						    softrdma_iw_send_opcode(wqe),
						    last,
						    wqe->opcode == IB_WR_SEND_WITH_INV ?
						    wqe->ex.invalidate_rkey : 0,
						    tx->msn[IWARP_QN_SEND],
						    tx->msg_off, n);
		break;
	default:
		return -EOPNOTSUPP;
	}
	if (err < 0)
		return -EMSGSIZE;
	f->lin_len = hdr_len;
	err = softrdma_iw_gather_wqe(qp, f, wqe, tx->msg_off, n);
	if (err) {
		softrdma_iw_fpdu_release(f);
		return err;
	}
	softrdma_iw_fpdu_seal(iw, f);
	tx->msg_off += n;
	f->more = !last;
	if (last) {
		f->end = SOFTRDMA_IW_END_WQE;
		f->slot = tx->slot;
		tx->msg = SOFTRDMA_IW_TX_IDLE;
		if (wqe->opcode != IB_WR_RDMA_WRITE)
			tx->msn[IWARP_QN_SEND]++;
	}
	return 0;
}

/* The next FPDU of the Read Response for the IRQ's head (RFC 5040 4.5) */
static int softrdma_iw_build_rresp(struct softrdma_qp *qp)
{
	struct softrdma_iwarp_qp *iw = softrdma_qp_iw(qp);
	struct softrdma_iw_tx *tx = &iw->tx;
	struct softrdma_iw_fpdu *f = &tx->fpdu;
	struct softrdma_iw_read *rd = softrdma_iw_rdq_peek(&tx->irq);
	u32 hdr_len = sizeof(struct iwarp_tagged_hdr), n;
	bool last;
	int err;

	if (!rd)
		return -EINVAL;
	n = softrdma_iw_seg_len(rd->len, rd->done,
				softrdma_iw_max_payload(iw->params.max_ulpdu,
							hdr_len), &last);
	err = softrdma_iwarp_build_tagged((struct iwarp_tagged_hdr *)f->lin,
					  IWARP_OP_READ_RESP, last,
					  rd->sink_stag, rd->sink_to + rd->done,
					  n);
	if (err < 0)
		return -EINVAL;
	f->lin_len = hdr_len;
	err = softrdma_iw_gather_mr(qp, f, rd->src_stag, rd->src_to + rd->done,
				    n);
	if (err) {
		softrdma_iw_fpdu_release(f);
		return err;
	}
	softrdma_iw_fpdu_seal(iw, f);
	rd->done += n;
	f->more = !last;
	if (last) {
		/* the peer counts it open until it has the last byte */
		softrdma_iw_rdq_pop(&tx->irq);
		tx->msg = SOFTRDMA_IW_TX_IDLE;
	}
	return 0;
}

/* Fetch the next SQ WQE; false when there is none (or it is bad) */
static bool softrdma_iw_tx_fetch(struct softrdma_qp *qp)
{
	struct softrdma_iw_tx *tx = &softrdma_qp_iw(qp)->tx;
	struct softrdma_send_wqe *wqe;

	wqe = softrdma_sq_fetch(qp);
	if (!wqe)
		return false;
	if (IS_ERR(wqe)) {
		/*
		 * A WQE that must not run: the QP fails (qp.c flushes it,
		 * with no word of why: QP_FATAL) and, as for any WQE that
		 * cannot be sent, a TERMINATE goes instead (RFC 5040 7.1).
		 */
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_IW_LOCAL_ERR);
		__softrdma_iw_tx_terminate(qp, SOFTRDMA_IWERR_CATASTROPHIC,
					   NULL, 0);
		return false;
	}
	tx->slot = wqe - qp->sq.wqe;
	tx->st[tx->slot].done = false;
	tx->st[tx->slot].ack_wait = false;
	tx->st[tx->slot].status = IB_WC_SUCCESS;
	tx->msg = SOFTRDMA_IW_TX_WQE;
	tx->msg_off = 0;
	return true;
}

/* May the WQE about to start go now?  ORD (RFC 5040 5.3) and fences */
static bool softrdma_iw_tx_may_start(struct softrdma_qp *qp)
{
	struct softrdma_iwarp_qp *iw = softrdma_qp_iw(qp);
	struct softrdma_iw_tx *tx = &iw->tx;
	const struct softrdma_send_wqe *wqe = &qp->sq.wqe[tx->slot];

	if ((wqe->send_flags & IB_SEND_FENCE) && tx->orq.count)
		return false;
	if ((wqe->opcode == IB_WR_RDMA_READ ||
	     wqe->opcode == IB_WR_RDMA_READ_WITH_INV) &&
	    tx->orq.count >= min_t(u32, iw->params.ord, SOFTRDMA_IW_MAX_RD))
		return false;
	return true;
}

/*
 * A REG_MR or LOCAL_INV in its turn: no FPDU; it completes after what
 * was posted before it.  False when it failed (the QP ends).
 */
static bool softrdma_iw_tx_local(struct softrdma_qp *qp)
{
	struct softrdma_iw_tx *tx = &softrdma_qp_iw(qp)->tx;
	enum ib_wc_status status;

	status = softrdma_qp_exec_local(qp, &qp->sq.wqe[tx->slot]);
	if (status != IB_WC_SUCCESS) {
		softrdma_iw_tx_fail(qp, tx->slot, status);
		return false;
	}
	tx->st[tx->slot].status = IB_WC_SUCCESS;
	tx->st[tx->slot].done = true;
	tx->msg = SOFTRDMA_IW_TX_IDLE;
	softrdma_iw_tx_retire(qp);
	return true;
}

/*
 * Build the next FPDU into tx.fpdu.  Returns false when there is nothing
 * to send now; a READ limit or fence holds the SQ back until a Read
 * Response completes (which runs the engine again).
 */
static bool softrdma_iw_tx_next(struct softrdma_qp *qp)
{
	struct softrdma_iwarp_qp *iw = softrdma_qp_iw(qp);
	struct softrdma_iw_tx *tx = &iw->tx;
	struct softrdma_iw_fpdu *f = &tx->fpdu;
	int err;

	lockdep_assert_held(&qp->sq.lock);

	if (tx->term_pending) {
		/* RFC 5040 5.2: the TERMINATE is the last message sent */
		tx->term_pending = false;
		memcpy(f->lin, tx->term, tx->term_len);
		f->lin_len = tx->term_len;
		softrdma_iw_fpdu_seal(iw, f);
		f->end = SOFTRDMA_IW_END_TERM;
		return true;
	}
	if (tx->state != SOFTRDMA_IW_TX_RUNNING)
		return false;

	for (;;) {
		if (tx->msg == SOFTRDMA_IW_TX_IDLE) {
			if (tx->irq.count)
				tx->msg = SOFTRDMA_IW_TX_RRESP;
			else if (!softrdma_iw_tx_fetch(qp))
				goto out_term;
		}
		if (tx->msg == SOFTRDMA_IW_TX_RRESP) {
			err = softrdma_iw_build_rresp(qp);
			if (!err)
				return true;
			/* the source MR went away after the request came */
			tx->msg = SOFTRDMA_IW_TX_IDLE;
			__softrdma_iw_tx_terminate(qp, SOFTRDMA_IWERR_CATASTROPHIC,
						   NULL, 0);
			goto out_term;
		}
		if (tx->msg_off == 0 && !softrdma_iw_tx_may_start(qp))
			return false;
		if (softrdma_wr_is_local(qp->sq.wqe[tx->slot].opcode)) {
			if (!softrdma_iw_tx_local(qp))
				goto out_term;
			continue;
		}
		err = softrdma_iw_build_wqe(qp);
		if (!err)
			return true;
		if (err == -EOPNOTSUPP)
			softrdma_iw_tx_fail(qp, tx->slot, IB_WC_LOC_QP_OP_ERR);
		else
			softrdma_iw_tx_fail(qp, tx->slot,
					    softrdma_iw_local_status(err));
		goto out_term;
	}

out_term:
	/* a failure queued its TERMINATE: it is the next FPDU */
	return tx->term_pending && softrdma_iw_tx_next(qp);
}

/*
 * Might softrdma_iw_tx_next() build an FPDU?  False only where it would
 * refuse at once, so that the engine's last look at an empty SQ, once per
 * pass, costs no call into it.
 */
static bool softrdma_iw_tx_has_work(struct softrdma_qp *qp)
{
	const struct softrdma_iw_tx *tx = &softrdma_qp_iw(qp)->tx;

	lockdep_assert_held(&qp->sq.lock);

	if (tx->term_pending)
		return true;
	if (tx->state != SOFTRDMA_IW_TX_RUNNING)
		return false;
	return tx->msg != SOFTRDMA_IW_TX_IDLE || tx->irq.count ||
	       softrdma_sq_more_posted(qp);
}

/**
 * softrdma_iw_frags_bvec() - page fragments from a position on, as bio_vecs
 * @frags: an skb of page fragments only (an FPDU's payload)
 * @pos: the first byte wanted, from the first fragment's
 * @bv: out: up to @max bio_vecs
 * @max: room in @bv
 * @len: out: the bytes @bv holds
 *
 * Return: the bio_vecs filled; 0 when @pos is at or past the end.
 */
unsigned int softrdma_iw_frags_bvec(const struct sk_buff *frags, u32 pos,
				    struct bio_vec *bv, unsigned int max,
				    size_t *len)
{
	const struct skb_shared_info *shinfo = skb_shinfo(frags);
	unsigned int i, nr = 0;
	u32 size;

	*len = 0;
	for (i = 0; i < shinfo->nr_frags && nr < max; i++) {
		size = skb_frag_size(&shinfo->frags[i]);
		if (pos >= size) {
			pos -= size;
			continue;
		}
		bv[nr].bv_page = skb_frag_page(&shinfo->frags[i]);
		bv[nr].bv_offset = skb_frag_off(&shinfo->frags[i]) + pos;
		bv[nr].bv_len = size - pos;
		*len += size - pos;
		pos = 0;
		nr++;
	}
	return nr;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_iw_frags_bvec);

/* bio_vecs per call when TCP copies page fragments: a 64 KiB FPDU in two */
#define SOFTRDMA_IW_COPY_BVECS	16

/*
 * @f's page fragments from @pos on, to TCP: lent, one call per fragment,
 * or for TCP to copy (frags_copy), as one iterator over them without
 * MSG_SPLICE_PAGES, so that TCP copies them once into its own buffers.
 */
static int softrdma_iw_push_frags(struct sock *sk,
				  const struct softrdma_iw_fpdu *f, u32 pos,
				  int flags)
{
	struct bio_vec bv[SOFTRDMA_IW_COPY_BVECS];
	struct msghdr msg = { .msg_flags = flags };
	unsigned int nr;
	size_t len;

	if (!f->frags_copy) {
		if (!softrdma_iw_frags_bvec(f->frags, pos, bv, 1, &len))
			return -EFAULT;
		return softrdma_tcp_send_page_locked(sk, bv[0].bv_page,
						     bv[0].bv_offset, len,
						     flags);
	}
	nr = softrdma_iw_frags_bvec(f->frags, pos, bv, ARRAY_SIZE(bv), &len);
	if (!nr)
		return -EFAULT;
	iov_iter_bvec(&msg.msg_iter, ITER_SOURCE, bv, nr, len);
	return tcp_sendmsg_locked(sk, &msg, len);
}

/*
 * Hand the rest of @f to TCP.  The caller holds the socket: owns it
 * (lock_sock(), softrdma_iw_tx_run()) or has it spin-locked and not
 * owned in TCP's receive softirq (softrdma_iw_tx_run_locked()).  The
 * socket is TCP by construction (iw_cm.c creates and accepts only TCP
 * sockets), so TCP's _locked entries are called directly, as kTLS does,
 * and the socket is taken once per FPDU, not per piece.  kernel_sendmsg()
 * would add the LSM hooks, which pass a kernel TCP socket anyway, and the
 * protocol's indirect calls to every FPDU, for nothing.
 *
 * Return: 0 when all of it is, -EAGAIN when the socket is full, another
 * -errno when the connection failed.
 */
static int softrdma_iw_tx_push(struct sock *sk, struct softrdma_iw_fpdu *f)
{
	const int base = MSG_DONTWAIT | MSG_NOSIGNAL;
	u32 frag_len = f->frags ? f->frags->len : 0;

	lockdep_assert(lockdep_sock_is_held(sk));

	/* without page fragments, pad and CRC are in lin (fpdu_seal) */
	while (f->sent < f->total) {
		struct msghdr msg = { .msg_flags = base };
		struct kvec iov;
		int n;

		if (f->sent < f->lin_len) {
			iov.iov_base = f->lin + f->sent;
			iov.iov_len = f->lin_len - f->sent;
			if (frag_len || f->more)
				msg.msg_flags |= MSG_MORE;
			iov_iter_kvec(&msg.msg_iter, ITER_SOURCE, &iov, 1,
				      iov.iov_len);
			n = tcp_sendmsg_locked(sk, &msg, iov.iov_len);
		} else if (f->sent < f->lin_len + frag_len) {
			n = softrdma_iw_push_frags(sk, f, f->sent - f->lin_len,
						   base | MSG_MORE);
		} else {
			u32 done = f->sent - f->lin_len - frag_len;

			iov.iov_base = f->trailer + done;
			iov.iov_len = f->trailer_len - done;
			if (f->more)
				msg.msg_flags |= MSG_MORE;
			iov_iter_kvec(&msg.msg_iter, ITER_SOURCE, &iov, 1,
				      iov.iov_len);
			n = tcp_sendmsg_locked(sk, &msg, iov.iov_len);
		}
		if (n < 0)
			return n;
		if (!n)
			return -EAGAIN;
		f->sent += n;
	}
	return 0;
}

/*
 * May the done WQE @st complete, as far as acknowledgments go?  When it
 * must wait, SOCK_NOSPACE is set first, so that TCP calls
 * sk_write_space on the next ACK (tcp_check_space()), and snd_una read
 * after it: an ACK in between is seen either way.  Without a socket (the
 * connection ended) it waits for the flush.
 */
static bool softrdma_iw_tx_acked(struct softrdma_qp *qp,
				 const struct softrdma_iw_wqe_st *st)
{
	struct softrdma_iw_tx *tx = &softrdma_qp_iw(qp)->tx;
	struct socket *sock = softrdma_qp_iw(qp)->sock;

	lockdep_assert_held(&qp->sq.lock);

	if (!st->ack_wait)
		return true;
	if (!sock)
		return false;
	if (softrdma_iw_wqe_acked(st, READ_ONCE(tcp_sk(sock->sk)->snd_una)))
		return true;
	set_bit(SOCK_NOSPACE, &sock->flags);
	smp_mb__after_atomic();	/* pairs with tcp_check_space() */
	if (softrdma_iw_wqe_acked(st, READ_ONCE(tcp_sk(sock->sk)->snd_una)))
		return true;
	if (!tx->ack_armed)
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_IW_XMIT_ACK_WAIT);
	return false;
}

/**
 * softrdma_iw_tx_retire() - complete the SQ WQEs that are done, in order
 * @qp: the QP; sq.lock held
 *
 * When a completion finds another WQE posted and not fetched, the engine
 * must go on by itself (libsiw rings no doorbell then, qp.h): tx.again
 * makes a running engine go round once more, else it is scheduled.
 *
 * A WQE that completes in error (softrdma_iw_tx_wqe_fail()) is the last
 * this retires until tx_reset: the WQEs after it may have been sent and
 * be done, but after an error completion the rest of the queue completes
 * flushed (IBA 10.8.3.1), which the flush does (tx.failed).  Every caller
 * comes through here: the engine, tx_sent() on another CPU, an ACK
 * (sk_write_space), the end of a Read Response, and the stop.
 */
void softrdma_iw_tx_retire(struct softrdma_qp *qp)
{
	struct softrdma_iw_tx *tx = &softrdma_qp_iw(qp)->tx;
	struct softrdma_iw_wqe_st *st;
	bool more = false, waiting = false;
	u32 slot;

	lockdep_assert_held(&qp->sq.lock);

	while (qp->sq.fetched && !tx->failed) {
		slot = (qp->sq.fetch - qp->sq.fetched) &
		       softrdma_ring_slot_mask(qp->sq.ring);
		st = &tx->st[slot];
		if (!st->done)
			break;
		if (!softrdma_iw_tx_acked(qp, st)) {
			waiting = true;
			break;
		}
		st->done = false;
		more = softrdma_qp_complete_send(qp, &qp->sq.wqe[slot],
						 st->status);
		if (st->status != IB_WC_SUCCESS) {
			tx->failed = true;
			break;
		}
	}
	/* sk_write_space calls back on ACKs while this is set */
	tx->ack_armed = waiting;
	if (!more || tx->state != SOFTRDMA_IW_TX_RUNNING)
		return;
	if (tx->busy)
		tx->again = true;
	else
		softrdma_iw_tx_schedule(qp);
}

/* An FPDU is all with TCP: account for it, complete what it ends */
static void softrdma_iw_tx_sent(struct softrdma_qp *qp, struct socket *sock)
{
	struct softrdma_iw_tx *tx = &softrdma_qp_iw(qp)->tx;
	struct softrdma_iw_fpdu *f = &tx->fpdu;

	softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_IW_XMIT_FPDUS);
	softrdma_counter_add(qp->sdev, SOFTRDMA_CNT_IW_XMIT_BYTES, f->total);
	if (f->frags && !f->frags_copy)
		softrdma_counter_inc(qp->sdev,
				     SOFTRDMA_CNT_IW_XMIT_ZCOPY_FPDUS);
	if (f->wqe_pages) {
		/* only this engine writes to the socket: write_seq ends it */
		tx->lent = true;
		tx->lent_seq = READ_ONCE(tcp_sk(sock->sk)->write_seq);
	}
	ibdev_dbg_ratelimited(&qp->sdev->ibdev,
			      "QP %u: tx FPDU opcode %u %u bytes end %d\n",
			      softrdma_qpn(qp),
			      iwarp_rdmap_opcode((struct iwarp_ctrl *)f->lin),
			      f->total, f->end);
	switch (f->end) {
	case SOFTRDMA_IW_END_WQE:
		tx->st[f->slot].status = IB_WC_SUCCESS;
		tx->st[f->slot].ack_wait = tx->lent;
		tx->st[f->slot].ack_seq = tx->lent_seq;
		tx->st[f->slot].done = true;
		break;
	case SOFTRDMA_IW_END_TERM:
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_IW_TERM_SENT);
		/* RFC 5040 5.2: the last message on the stream */
		softrdma_iw_tx_move(qp, SOFTRDMA_IW_TX_DEAD);
		break;
	default:
		break;
	}
	softrdma_iw_fpdu_release(f);
	tx->fpdu_active = false;
	softrdma_iw_tx_retire(qp);
}

/*
 * A turn at the engine: send what can be sent now, or, when another
 * context has the engine, leave it tx.again.  @locked: the caller holds
 * the socket in TCP's receive softirq (softrdma_iw_tx_run_locked()):
 * one FPDU at most, with atomic allocations, and what remains goes to
 * the work item.
 */
static void softrdma_iw_tx_turn(struct softrdma_qp *qp, bool locked)
{
	struct softrdma_iwarp_qp *iw = softrdma_qp_iw(qp);
	struct softrdma_iw_tx *tx = &iw->tx;
	unsigned int budget = locked ? 1 : UINT_MAX;
	struct socket *sock;
	gfp_t gfp;
	int err;

	spin_lock_bh(&qp->sq.lock);
	if (tx->busy) {
		tx->again = true;
		goto out_unlock;
	}
	tx->busy = true;
	for (;;) {
		if (!budget) {
			if (tx->again || tx->fpdu_active ||
			    softrdma_iw_tx_has_work(qp))
				softrdma_iw_tx_schedule(qp);
			break;
		}
		tx->again = false;
		if (tx->state == SOFTRDMA_IW_TX_DEAD || !iw->sock)
			break;
		if (!tx->fpdu_active) {
			if (!softrdma_iw_tx_has_work(qp) ||
			    !softrdma_iw_tx_next(qp)) {
				if (tx->again)
					continue;
				break;
			}
			tx->fpdu_active = true;
		}
		budget--;
		sock = iw->sock;
		spin_unlock_bh(&qp->sq.lock);
		if (locked) {
			/*
			 * TCP allocates skbs with sk_allocation, which may
			 * sleep; the socket is ours alone until we return.
			 * The bytes TCP copies go to the socket's own page
			 * fragment, not the interrupted task's: attach
			 * turned sk_use_task_frag off, which is what
			 * sk_page_frag() looks at on 6.12
			 * (softrdma_iw_sk_prepare()).
			 */
			gfp = sock->sk->sk_allocation;
			sock->sk->sk_allocation = GFP_ATOMIC;
			err = softrdma_iw_tx_push(sock->sk, &tx->fpdu);
			sock->sk->sk_allocation = gfp;
			if (!err)
				softrdma_counter_inc(qp->sdev,
						     SOFTRDMA_CNT_IW_XMIT_SOFTIRQ_FPDUS);
		} else {
			lock_sock(sock->sk);
			err = softrdma_iw_tx_push(sock->sk, &tx->fpdu);
			release_sock(sock->sk);
		}
		spin_lock_bh(&qp->sq.lock);
		if (err == -EAGAIN) {
			/* sk_write_space runs the engine again */
			softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_IW_XMIT_WAIT);
			if (tx->again)
				softrdma_iw_tx_schedule(qp);
			break;
		}
		if (err) {
			softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_IW_XMIT_ERR);
			ibdev_dbg(&qp->sdev->ibdev, "QP %u: send failed (%d)\n",
				  softrdma_qpn(qp), err);
			softrdma_iw_tx_move(qp, SOFTRDMA_IW_TX_DEAD);
			/* a stream the peer ended is no local error */
			softrdma_iwarp_qp_fatal(qp, -ECONNRESET,
						err == -EPIPE ||
						err == -ECONNRESET ?
						SOFTRDMA_QP_ERR_CLOSED :
						SOFTRDMA_QP_ERR_LOCAL);
			break;
		}
		softrdma_iw_tx_sent(qp, sock);
	}
	tx->busy = false;
	/*
	 * Only a stopping QP waits (iwarp_qp.c); it queues itself before
	 * it reads busy under sq.lock, so under the lock an empty queue
	 * means nobody can miss this.
	 */
	if (wq_has_sleeper(&tx->idle))
		wake_up_all(&tx->idle);
out_unlock:
	spin_unlock_bh(&qp->sq.lock);
}

/**
 * softrdma_iw_tx_run() - send what can be sent now
 * @qp: an iWARP QP
 *
 * Context: process (it calls into the socket); no QP lock held.
 */
void softrdma_iw_tx_run(struct softrdma_qp *qp)
{
	softrdma_iw_tx_turn(qp, false);
}

/**
 * softrdma_iw_tx_run_locked() - send from TCP's receive softirq
 * @qp: an iWARP QP
 *
 * For the receive side that just queued a Read Request: its Read
 * Response leaves from the softirq that read the request, as TCP's own
 * ACKs do, instead of waking the work item and switching to it (two
 * context switches per READ).  TCP calls sk_data_ready there with the
 * socket spin-locked and not owned by a process, so the socket may be
 * written with the _locked calls (net/xfrm/espintcp.c sends so too),
 * without waiting: one FPDU, then the work item takes over.
 *
 * Context: softirq, in sk_data_ready; no QP lock held.
 */
void softrdma_iw_tx_run_locked(struct softrdma_qp *qp)
{
	lockdep_assert_in_softirq();

	softrdma_iw_tx_turn(qp, true);
}

/*
 * The engine's work items: high priority, on the CPU that queued them
 * (the receive softirq that left the rest of a Read Response, the socket
 * that got room), and with a rescuer, since a kernel ULP (NVMe-oF, NFS/RDMA) may
 * be writing pages back through the QP when memory runs short.
 */
static struct workqueue_struct *softrdma_iw_tx_wq;

int softrdma_iw_tx_init(void)
{
	softrdma_iw_tx_wq = alloc_workqueue("siwarp_tx",
					    WQ_HIGHPRI | WQ_MEM_RECLAIM, 0);
	return softrdma_iw_tx_wq ? 0 : -ENOMEM;
}

/* After every QP is gone (each cancels its work item as it stops) */
void softrdma_iw_tx_exit(void)
{
	destroy_workqueue(softrdma_iw_tx_wq);
}

/**
 * softrdma_iw_tx_schedule() - run the engine from its work item
 * @qp: an iWARP QP
 *
 * Context: any.
 */
void softrdma_iw_tx_schedule(struct softrdma_qp *qp)
{
	queue_work(softrdma_iw_tx_wq, &softrdma_qp_iw(qp)->tx.work);
}

void softrdma_iw_tx_work(struct work_struct *work)
{
	struct softrdma_iw_tx *tx = container_of(work, struct softrdma_iw_tx,
						 work);
	struct softrdma_iwarp_qp *iw = container_of(tx, struct softrdma_iwarp_qp,
						    tx);

	softrdma_iw_tx_run(iw->qp);
}

/* No context is sending (for stop) */
bool softrdma_iw_tx_idle(struct softrdma_qp *qp)
{
	bool idle;

	spin_lock_bh(&qp->sq.lock);
	idle = !softrdma_qp_iw(qp)->tx.busy;
	spin_unlock_bh(&qp->sq.lock);
	return idle;
}

/* The TERMINATE for @err, the next FPDU to go; sq.lock held */
static void softrdma_iw_tx_term_queue(struct softrdma_qp *qp,
				      enum softrdma_iwarp_err err,
				      const void *fpdu, size_t avail)
{
	struct softrdma_iw_tx *tx = &softrdma_qp_iw(qp)->tx;
	struct softrdma_iwarp_term term;
	int len = -EINVAL;

	lockdep_assert_held(&qp->sq.lock);

	/*
	 * One TERMINATE, for the stream's first error, before the stream
	 * ends (RFC 5040 5.2): once one is queued, even one already being
	 * pushed (term_pending cleared), a later error owes none.
	 */
	if (tx->term_queued || tx->state == SOFTRDMA_IW_TX_DEAD)
		return;
	tx->term_queued = true;
	if (!softrdma_iwarp_term_from_err(err, fpdu, avail, &term))
		len = softrdma_iwarp_build_terminate(tx->term, sizeof(tx->term),
						     tx->msn[IWARP_QN_TERMINATE],
						     &term);
	if (len > 0) {
		tx->term_len = len;
		tx->term_pending = true;
		tx->msn[IWARP_QN_TERMINATE]++;
	} else {
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_IW_TERM_UNSENT);
	}
}

/* softrdma_iw_tx_terminate() with sq.lock held, without the schedule */
static void __softrdma_iw_tx_terminate(struct softrdma_qp *qp,
				       enum softrdma_iwarp_err err,
				       const void *fpdu, size_t avail)
{
	softrdma_iw_tx_term_queue(qp, err, fpdu, avail);
	softrdma_iwarp_qp_fatal(qp, -ECONNRESET, softrdma_iwarp_err_cause(err));
}

/**
 * softrdma_iw_tx_terminate() - end the stream with a TERMINATE
 * @qp: the QP
 * @err: why (iwarp_pdu.h maps it to layer, type and code)
 * @fpdu: the offending FPDU from its MPA length field, or NULL
 * @avail: bytes of it at @fpdu
 *
 * Queues the TERMINATE behind the FPDU being sent (RFC 5040 5.2: it is
 * the last message on the stream), moves the QP to ERR and closes the
 * connection as reset.  Only the first error of a stream is reported.
 * Context: any; sq.lock not held.
 */
void softrdma_iw_tx_terminate(struct softrdma_qp *qp,
			      enum softrdma_iwarp_err err,
			      const void *fpdu, size_t avail)
{
	spin_lock_bh(&qp->sq.lock);
	__softrdma_iw_tx_terminate(qp, err, fpdu, avail);
	spin_unlock_bh(&qp->sq.lock);
	softrdma_iw_tx_schedule(qp);
}

/**
 * softrdma_iw_tx_reset() - forget all transmit state (RESET, or attach)
 * @qp: the QP, stopped
 */
void softrdma_iw_tx_reset(struct softrdma_qp *qp)
{
	struct softrdma_iw_tx *tx = &softrdma_qp_iw(qp)->tx;
	int i;

	spin_lock_bh(&qp->sq.lock);
	softrdma_iw_fpdu_release(&tx->fpdu);
	tx->fpdu_active = false;
	softrdma_iw_tx_move(qp, SOFTRDMA_IW_TX_DETACHED);
	tx->again = false;
	tx->term_pending = false;
	tx->term_queued = false;
	tx->failed = false;
	tx->msg = SOFTRDMA_IW_TX_IDLE;
	tx->msg_off = 0;
	/* RFC 5041 5.1: the first message on each queue has MSN 1 */
	for (i = 0; i < SOFTRDMA_IW_NUM_QN; i++)
		tx->msn[i] = 1;
	memset(&tx->orq, 0, sizeof(tx->orq));
	memset(&tx->irq, 0, sizeof(tx->irq));
	memset(tx->st, 0, softrdma_ring_num_slots(qp->sq.ring) *
			  sizeof(*tx->st));
	tx->lent = false;
	tx->lent_seq = 0;
	tx->ack_armed = false;
	spin_unlock_bh(&qp->sq.lock);
}
