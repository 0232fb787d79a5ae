// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the iWARP transmit engine's pure pieces (iwarp_tx.c):
 * how a message is cut into DDP segments at the negotiated ULPDU size
 * (RFC 5041 5.2, RFC 5044 7.1), the accounting of the read queues
 * (ORD and IRD, RFC 5040 5.3), which payload goes to TCP by page
 * reference, the page fragments TCP is handed, and the engine's state
 * machine: its names, its table of legal moves and the helper that makes
 * them; what a send WQE's own failure is to the QP, and that retire
 * completes nothing after a WQE that failed.
 */
#include <kunit/test.h>

#include "cq.h"
#include "iwarp_hdr.h"
#include "iwarp_qp.h"
#include "iwarp_tx.h"
#include "mpa.h"
#include "qp.h"
#include "queue_rxe_abi.h"

struct iw_seg_case {
	const char *name;
	u32 msg_len;
	u32 max_ulpdu;
	u32 hdr_len;
	u32 nseg;		/* segments expected */
	u32 last_len;		/* payload of the last one */
};

static const struct iw_seg_case iw_seg_cases[] = {
	/* a zero-length message is one segment without payload */
	{ "zero_length", 0, 1448, sizeof(struct iwarp_untagged_hdr), 1, 0 },
	{ "one_byte", 1, 1448, sizeof(struct iwarp_untagged_hdr), 1, 1 },
	/* exactly one full FPDU: untagged ULPDU header is 18 bytes */
	{ "exactly_full_untagged", 1430, 1448,
	  sizeof(struct iwarp_untagged_hdr), 1, 1430 },
	{ "full_plus_one_untagged", 1431, 1448,
	  sizeof(struct iwarp_untagged_hdr), 2, 1 },
	/* tagged ULPDU header is 14 bytes */
	{ "exactly_full_tagged", 1434, 1448, sizeof(struct iwarp_tagged_hdr),
	  1, 1434 },
	{ "odd_4095_tagged", 4095, 1448, sizeof(struct iwarp_tagged_hdr), 3,
	  4095 - 2 * 1434 },
	{ "64k_tagged", 65536, 1448, sizeof(struct iwarp_tagged_hdr), 46,
	  65536 - 45 * 1434 },
	{ "1m_untagged", 1 << 20, 1448, sizeof(struct iwarp_untagged_hdr),
	  734, (1 << 20) - 733 * 1430 },
	/* the softrdma extension: 64 KiB ULPDUs */
	{ "1m_extension_tagged", 1 << 20, IWARP_MPA_EXT_MAX_ULPDU,
	  sizeof(struct iwarp_tagged_hdr), 17,
	  (1 << 20) - 16 * (IWARP_MPA_EXT_MAX_ULPDU - 14) },
	/* the smallest ULPDU the engine accepts */
	{ "min_ulpdu", 1000, SOFTRDMA_IW_MIN_ULPDU,
	  sizeof(struct iwarp_untagged_hdr), 10, 1000 - 9 * 110 },
};

static void iw_seg_case_desc(const struct iw_seg_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(iw_seg, iw_seg_cases, iw_seg_case_desc);

/* Segments cover the message exactly, in order, each within the limit */
static void softrdma_iwarp_tx_segments(struct kunit *test)
{
	const struct iw_seg_case *c = test->param_value;
	u32 max = softrdma_iw_max_payload(c->max_ulpdu, c->hdr_len);
	u32 off = 0, nseg = 0, n = 0;
	bool last = false;

	KUNIT_EXPECT_EQ(test, max + c->hdr_len - IWARP_MPA_LEN_SIZE,
			c->max_ulpdu);
	while (!last) {
		n = softrdma_iw_seg_len(c->msg_len, off, max, &last);
		KUNIT_ASSERT_LE(test, n, max);
		/* every FPDU fits the MPA length field */
		KUNIT_EXPECT_LE(test, n + c->hdr_len - IWARP_MPA_LEN_SIZE,
				(u32)IWARP_MPA_MAX_ULPDU);
		/* only the last may be short */
		if (!last)
			KUNIT_EXPECT_EQ(test, n, max);
		off += n;
		nseg++;
		KUNIT_ASSERT_LE(test, nseg, c->msg_len + 1);
	}
	KUNIT_EXPECT_EQ(test, off, c->msg_len);
	KUNIT_EXPECT_EQ(test, nseg, c->nseg);
	KUNIT_EXPECT_EQ(test, n, c->last_len);
}

/* With the MULPDU of an EMSS, every FPDU fits one TCP segment */
static void softrdma_iwarp_tx_fpdu_fits_emss(struct kunit *test)
{
	static const unsigned int emss[] = { 536, 1448, 1460, 8948 };
	unsigned int i, mulpdu, max;
	bool last;
	u32 n;

	for (i = 0; i < ARRAY_SIZE(emss); i++) {
		mulpdu = softrdma_mpa_mulpdu(emss[i], false);
		KUNIT_ASSERT_GT(test, mulpdu, 0U);
		max = softrdma_iw_max_payload(mulpdu,
					      sizeof(struct iwarp_tagged_hdr));
		n = softrdma_iw_seg_len(1 << 20, 0, max, &last);
		KUNIT_EXPECT_LE(test,
				softrdma_mpa_fpdu_len(n + sizeof(struct iwarp_tagged_hdr) -
						      IWARP_MPA_LEN_SIZE),
				emss[i]);
	}
}

/* A read queue holds at most its limit, in order, across wrap-around */
static void softrdma_iwarp_tx_rdq_order(struct kunit *test)
{
	struct softrdma_iw_rdq *q;
	struct softrdma_iw_read *rd;
	u32 next = 0, expect = 0, round, i;

	q = kunit_kzalloc(test, sizeof(*q), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, q);
	KUNIT_EXPECT_NULL(test, softrdma_iw_rdq_peek(q));

	/* 3 open at most (an ORD of 3), many times round the ring */
	for (round = 0; round < 3 * SOFTRDMA_IW_MAX_RD; round++) {
		while ((rd = softrdma_iw_rdq_push(q, 3))) {
			KUNIT_EXPECT_EQ(test, rd->len, 0U);	/* zeroed */
			rd->len = next++;
		}
		KUNIT_EXPECT_EQ(test, q->count, 3U);
		for (i = 0; i < 1 + round % 3; i++) {
			rd = softrdma_iw_rdq_peek(q);
			KUNIT_ASSERT_NOT_NULL(test, rd);
			KUNIT_EXPECT_EQ(test, rd->len, expect++);
			softrdma_iw_rdq_pop(q);
		}
	}
	while ((rd = softrdma_iw_rdq_peek(q))) {
		KUNIT_EXPECT_EQ(test, rd->len, expect++);
		softrdma_iw_rdq_pop(q);
	}
	KUNIT_EXPECT_EQ(test, expect, next);
	KUNIT_EXPECT_EQ(test, q->count, 0U);
	/* popping an empty queue changes nothing */
	softrdma_iw_rdq_pop(q);
	KUNIT_EXPECT_EQ(test, q->count, 0U);
}

/* Limits above the ring, and zero, are honoured */
static void softrdma_iwarp_tx_rdq_limits(struct kunit *test)
{
	struct softrdma_iw_rdq *q;
	u32 n = 0;

	q = kunit_kzalloc(test, sizeof(*q), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, q);
	KUNIT_EXPECT_NULL(test, softrdma_iw_rdq_push(q, 0));
	while (softrdma_iw_rdq_push(q, U32_MAX))
		n++;
	KUNIT_EXPECT_EQ(test, n, (u32)SOFTRDMA_IW_MAX_RD);
	/* a lower limit than what is queued admits nothing more */
	KUNIT_EXPECT_NULL(test, softrdma_iw_rdq_push(q, 1));
	softrdma_iw_rdq_pop(q);
	KUNIT_EXPECT_NOT_NULL(test, softrdma_iw_rdq_push(q, U32_MAX));
}

struct iw_zcopy_case {
	const char *name;
	bool signalled;
	u32 len;
	bool zcopy;
};

static const struct iw_zcopy_case iw_zcopy_cases[] = {
	/* a small payload is copied either way: cheaper than references */
	{ "unsignalled_small", false, 64, false },
	{ "unsignalled_at_copy_max", false, SOFTRDMA_IW_COPY_MAX, false },
	{ "unsignalled_over_copy_max", false, SOFTRDMA_IW_COPY_MAX + 1, true },
	{ "unsignalled_full_fpdu", false, 1430, true },
	/*
	 * a signalled WQE's payload is copied (by TCP, from the pages, when
	 * large): its completion is not held for an ACK
	 */
	{ "signalled_small", true, 64, false },
	{ "signalled_over_copy_max", true, SOFTRDMA_IW_COPY_MAX + 1, false },
	{ "signalled_full_fpdu", true, 1430, false },
	{ "signalled_64k", true, 65536, false },
};

static void iw_zcopy_case_desc(const struct iw_zcopy_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(iw_zcopy, iw_zcopy_cases, iw_zcopy_case_desc);

/* Only payload nobody waits for goes to TCP by page reference */
static void softrdma_iwarp_tx_zcopy(struct kunit *test)
{
	const struct iw_zcopy_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, softrdma_iw_zcopy(c->signalled, c->len),
			c->zcopy);
}

struct iw_acked_case {
	const char *name;
	bool ack_wait;
	u32 ack_seq;
	u32 snd_una;
	bool acked;
};

static const struct iw_acked_case iw_acked_cases[] = {
	/* nothing lent before it: completes at the hand-over */
	{ "no_wait", false, 5000, 1000, true },
	{ "una_before", true, 5000, 4999, false },
	{ "una_at", true, 5000, 5000, true },
	{ "una_past", true, 5000, 9000, true },
	/* sequence numbers wrap (RFC 793 3.3) */
	{ "wrap_una_before", true, 0x10, 0xfffffff0, false },
	{ "wrap_una_past", true, 0xfffffff0, 0x10, true },
	{ "wrap_una_at", true, 0, 0, true },
	{ "half_space_behind", true, 0x80000001, 1, false },
};

static void iw_acked_case_desc(const struct iw_acked_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(iw_acked, iw_acked_cases, iw_acked_case_desc);

/* A done WQE waits until TCP's snd_una passes what it lent */
static void softrdma_iwarp_tx_acked(struct kunit *test)
{
	const struct iw_acked_case *c = test->param_value;
	struct softrdma_iw_wqe_st st = {
		.done = true,
		.ack_wait = c->ack_wait,
		.ack_seq = c->ack_seq,
	};

	KUNIT_EXPECT_EQ(test, softrdma_iw_wqe_acked(&st, c->snd_una),
			c->acked);
}

/*
 * A send WQE that fails here (a local key refused, a length, an
 * operation iWARP lacks) and completes with its error raises no
 * affiliated event (IBA 11.6.3.1), QP_FATAL least of all; one that could
 * only be flushed, behind WQEs TCP has not acknowledged, raises QP_FATAL.
 */
static void softrdma_iwarp_tx_fail_event(struct kunit *test)
{
	enum ib_event_type event = IB_EVENT_DEVICE_FATAL;

	KUNIT_EXPECT_EQ(test, softrdma_iw_tx_fail_cause(true),
			SOFTRDMA_QP_ERR_WC);
	KUNIT_EXPECT_FALSE(test,
			   softrdma_qp_err_event(softrdma_iw_tx_fail_cause(true),
						 &event));
	KUNIT_EXPECT_EQ(test, event, IB_EVENT_DEVICE_FATAL);

	KUNIT_EXPECT_EQ(test, softrdma_iw_tx_fail_cause(false),
			SOFTRDMA_QP_ERR_LOCAL);
	KUNIT_EXPECT_TRUE(test,
			  softrdma_qp_err_event(softrdma_iw_tx_fail_cause(false),
						&event));
	KUNIT_EXPECT_EQ(test, event, IB_EVENT_QP_FATAL);
}

/*
 * An FPDU's payload pages from any byte on, as TCP gets them: lent one
 * fragment a call, or copied from up to a batch of them a call.
 */
static void softrdma_iwarp_tx_frags_bvec(struct kunit *test)
{
	static const struct { u32 off, len; } shape[] = {
		{ 100, PAGE_SIZE - 100 }, { 0, PAGE_SIZE }, { 0, 500 },
	};
	const u32 total = 2 * PAGE_SIZE - 100 + 500;
	struct page *page[ARRAY_SIZE(shape)];
	struct bio_vec bv[4];
	struct sk_buff *skb;
	unsigned int i, nr;
	size_t len;

	skb = alloc_skb(0, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	for (i = 0; i < ARRAY_SIZE(shape); i++) {
		page[i] = alloc_page(GFP_KERNEL);
		if (!page[i])
			break;
		/* the skb owns the page: kfree_skb() frees it */
		skb_fill_page_desc(skb, i, page[i], shape[i].off,
				   shape[i].len);
		skb->len += shape[i].len;
		skb->data_len += shape[i].len;
	}
	if (i < ARRAY_SIZE(shape)) {
		kfree_skb(skb);
		KUNIT_FAIL(test, "no page");
		return;
	}

	/* all of it */
	nr = softrdma_iw_frags_bvec(skb, 0, bv, ARRAY_SIZE(bv), &len);
	KUNIT_EXPECT_EQ(test, nr, 3U);
	KUNIT_EXPECT_EQ(test, len, (size_t)total);
	KUNIT_EXPECT_PTR_EQ(test, bv[0].bv_page, page[0]);
	KUNIT_EXPECT_EQ(test, bv[0].bv_offset, 100U);
	KUNIT_EXPECT_EQ(test, bv[0].bv_len, (u32)(PAGE_SIZE - 100));
	KUNIT_EXPECT_PTR_EQ(test, bv[2].bv_page, page[2]);
	KUNIT_EXPECT_EQ(test, bv[2].bv_len, 500U);

	/* one fragment a call: the rest of the one @pos is in */
	nr = softrdma_iw_frags_bvec(skb, 0, bv, 1, &len);
	KUNIT_EXPECT_EQ(test, nr, 1U);
	KUNIT_EXPECT_EQ(test, len, (size_t)(PAGE_SIZE - 100));

	/* a batch smaller than the fragments left */
	nr = softrdma_iw_frags_bvec(skb, 0, bv, 2, &len);
	KUNIT_EXPECT_EQ(test, nr, 2U);
	KUNIT_EXPECT_EQ(test, len, (size_t)(2 * PAGE_SIZE - 100));

	/* exactly at a fragment's start */
	nr = softrdma_iw_frags_bvec(skb, PAGE_SIZE - 100, bv, ARRAY_SIZE(bv),
				    &len);
	KUNIT_EXPECT_EQ(test, nr, 2U);
	KUNIT_EXPECT_EQ(test, len, (size_t)(PAGE_SIZE + 500));
	KUNIT_EXPECT_PTR_EQ(test, bv[0].bv_page, page[1]);
	KUNIT_EXPECT_EQ(test, bv[0].bv_offset, 0U);

	/* inside one: the page offset moves with it */
	nr = softrdma_iw_frags_bvec(skb, PAGE_SIZE - 96, bv, ARRAY_SIZE(bv),
				    &len);
	KUNIT_EXPECT_EQ(test, nr, 2U);
	KUNIT_EXPECT_EQ(test, len, (size_t)(PAGE_SIZE - 4 + 500));
	KUNIT_EXPECT_EQ(test, bv[0].bv_offset, 4U);
	KUNIT_EXPECT_EQ(test, bv[0].bv_len, (u32)(PAGE_SIZE - 4));

	/* the last byte, then nothing */
	nr = softrdma_iw_frags_bvec(skb, total - 1, bv, ARRAY_SIZE(bv), &len);
	KUNIT_EXPECT_EQ(test, nr, 1U);
	KUNIT_EXPECT_EQ(test, len, (size_t)1);
	KUNIT_EXPECT_PTR_EQ(test, bv[0].bv_page, page[2]);
	KUNIT_EXPECT_EQ(test, bv[0].bv_offset, 499U);
	nr = softrdma_iw_frags_bvec(skb, total, bv, ARRAY_SIZE(bv), &len);
	KUNIT_EXPECT_EQ(test, nr, 0U);
	KUNIT_EXPECT_EQ(test, len, (size_t)0);

	kfree_skb(skb);
}

#define TXS(x)	SOFTRDMA_IW_TX_##x

struct iw_tx_move_case {
	const char *name;
	enum softrdma_iw_tx_state from;
	enum softrdma_iw_tx_state to;
	bool ok;
};

static const struct iw_tx_move_case iw_tx_move_cases[] = {
	/* attach; SQD to RTS finds it running (a self move, no move) */
	{ "detached_to_running", TXS(DETACHED), TXS(RUNNING), true },
	{ "detached_not_closing", TXS(DETACHED), TXS(CLOSING), false },
	{ "detached_not_dead", TXS(DETACHED), TXS(DEAD), false },
	/* the connection ends */
	{ "running_to_closing", TXS(RUNNING), TXS(CLOSING), true },
	{ "running_to_dead", TXS(RUNNING), TXS(DEAD), true },
	{ "closing_to_dead", TXS(CLOSING), TXS(DEAD), true },
	{ "closing_not_running_again", TXS(CLOSING), TXS(RUNNING), false },
	{ "dead_not_running_again", TXS(DEAD), TXS(RUNNING), false },
	{ "dead_not_closing", TXS(DEAD), TXS(CLOSING), false },
	/* only a reset forgets a connection, once it is over */
	{ "dead_to_detached", TXS(DEAD), TXS(DETACHED), true },
	{ "running_not_reset", TXS(RUNNING), TXS(DETACHED), false },
	{ "closing_not_reset", TXS(CLOSING), TXS(DETACHED), false },
	/* no self moves through the table */
	{ "running_not_to_itself", TXS(RUNNING), TXS(RUNNING), false },
	{ "dead_not_to_itself", TXS(DEAD), TXS(DEAD), false },
	/* out of range */
	{ "from_out_of_range", TXS(NR_STATES), TXS(DEAD), false },
	{ "to_out_of_range", TXS(RUNNING), TXS(NR_STATES), false },
};

static void iw_tx_move_case_desc(const struct iw_tx_move_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(iw_tx_move, iw_tx_move_cases, iw_tx_move_case_desc);

static void softrdma_iwarp_tx_move_table(struct kunit *test)
{
	const struct iw_tx_move_case *c = test->param_value;

	KUNIT_EXPECT_EQ_MSG(test, softrdma_iw_tx_may_move(c->from, c->to),
			    c->ok, "%s -> %s",
			    softrdma_iw_tx_state_name(c->from),
			    softrdma_iw_tx_state_name(c->to));
}

/* Names: one each, distinct; every state reachable from DETACHED */
static void softrdma_iwarp_tx_machine(struct kunit *test)
{
	unsigned long seen = BIT(TXS(DETACHED)), prev = 0;
	enum softrdma_iw_tx_state s, t;

	KUNIT_EXPECT_EQ(test, TXS(DETACHED), 0);
	for (s = 0; s < TXS(NR_STATES); s++) {
		KUNIT_EXPECT_STRNEQ(test, softrdma_iw_tx_state_name(s), "?");
		for (t = 0; t < s; t++)
			KUNIT_EXPECT_STRNEQ(test, softrdma_iw_tx_state_name(s),
					    softrdma_iw_tx_state_name(t));
	}
	KUNIT_EXPECT_STREQ(test, softrdma_iw_tx_state_name(TXS(NR_STATES)),
			   "?");
	while (seen != prev) {
		prev = seen;
		for (s = 0; s < TXS(NR_STATES); s++)
			for (t = 0; t < TXS(NR_STATES); t++)
				if ((prev & BIT(s)) &&
				    softrdma_iw_tx_may_move(s, t))
					seen |= BIT(t);
	}
	KUNIT_EXPECT_EQ(test, seen, GENMASK(TXS(NR_STATES) - 1, 0));
}

/*
 * A bare iWARP QP as the engine sees it: the verbs core's QP inside its
 * iWARP container, the engine's state beside it, sq.lock ready
 */
static struct softrdma_iwarp_qp *iw_test_qp(struct kunit *test)
{
	struct softrdma_iwarp_qp *iw;
	struct softrdma_iw_qp *iwqp;

	iwqp = kunit_kzalloc(test, sizeof(*iwqp), GFP_KERNEL);
	iw = kunit_kzalloc(test, sizeof(*iw), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, iwqp);
	KUNIT_ASSERT_NOT_NULL(test, iw);
	iwqp->iw = iw;
	iw->qp = &iwqp->qp;
	spin_lock_init(&iw->qp->sq.lock);
	return iw;
}

/*
 * The move helper through two connections' lives: every legal move is
 * made, staying is no move.  (A refused move warns, which fails a case:
 * the table above tests those.)
 */
static void softrdma_iwarp_tx_move_helper(struct kunit *test)
{
	static const enum softrdma_iw_tx_state walk[] = {
		TXS(DETACHED), TXS(RUNNING), TXS(RUNNING), TXS(CLOSING),
		TXS(DEAD), TXS(DEAD), TXS(DETACHED), TXS(RUNNING), TXS(DEAD),
		TXS(DETACHED),
	};
	struct softrdma_iwarp_qp *iw = iw_test_qp(test);
	struct softrdma_qp *qp = iw->qp;
	unsigned int i;

	KUNIT_EXPECT_EQ(test, iw->tx.state, TXS(DETACHED));

	spin_lock_bh(&qp->sq.lock);
	for (i = 0; i < ARRAY_SIZE(walk); i++) {
		softrdma_iw_tx_move(qp, walk[i]);
		KUNIT_EXPECT_EQ_MSG(test, iw->tx.state, walk[i], "step %u", i);
	}
	spin_unlock_bh(&qp->sq.lock);
}

/*
 * Retire after a send WQE failed here (softrdma_iw_tx_wqe_fail()):
 * the SQ's fetched WQEs, oldest first, as @before says ('S' done, 'F'
 * done in error, '.' not done yet), are retired; then the '.' ones
 * finish (their last FPDU with TCP, or their ACK: tx_sent() or
 * sk_write_space) and retire runs again.  Nothing after an 'F'
 * completes there, success or not: the flush completes the rest
 * (IBA 10.8.3.1).  Before the failure, in order, as always.
 */
struct iw_retire_case {
	const char *name;
	const char *before;
	u32 first;	/* completions of the first retire */
	u32 second;	/* ... of the second */
};

static const struct iw_retire_case iw_retire_cases[] = {
	{ "all done, no failure", "SSSS", 4, 0 },
	{ "none done, then all", "....", 0, 4 },
	{ "oldest failed, younger done", "FSSS", 1, 0 },
	{ "failed between done", "SFSS", 2, 0 },
	{ "failed behind an open WQE", ".FSS", 0, 2 },
	{ "younger done later", "SF..", 2, 0 },
	{ "younger in both", "F.S.", 1, 0 },
	{ "youngest failed", "SSF", 3, 0 },
};

static void iw_retire_case_desc(const struct iw_retire_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(iw_retire, iw_retire_cases, iw_retire_case_desc);

#define IW_RETIRE_SLOTS	8

static u32 iw_retire_poll(struct kunit *test, struct softrdma_cq *cq,
			  const struct iw_retire_case *c, u32 from)
{
	struct ib_wc wc[IW_RETIRE_SLOTS];
	int n, i;

	n = cq->abi->poll(cq, ARRAY_SIZE(wc), wc);
	KUNIT_ASSERT_GE(test, n, 0);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, wc[i].wr_id, (u64)(from + i));
		KUNIT_EXPECT_EQ(test, wc[i].status,
				c->before[from + i] == 'F' ? IB_WC_MW_BIND_ERR :
							     IB_WC_SUCCESS);
	}
	return n;
}

static void softrdma_iwarp_tx_retire_failed(struct kunit *test)
{
	const struct iw_retire_case *c = test->param_value;
	u32 n = strlen(c->before), num = IW_RETIRE_SLOTS - 1, i, got;
	struct softrdma_iwarp_qp *iw = iw_test_qp(test);
	struct softrdma_qp *qp = iw->qp;
	struct softrdma_send_wqe *wqe;
	struct softrdma_cq cq = {};

	qp->ibqp.qp_type = IB_QPT_RC;
	spin_lock_init(&qp->sq.post_lock);
	qp->sq.ring = softrdma_ring_create(NULL, &num,
					   sizeof(struct softrdma_send_wqe),
					   SOFTRDMA_RING_USER_PRODUCES, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(qp->sq.ring));
	softrdma_ring_set_locks(qp->sq.ring, &qp->sq.post_lock, &qp->sq.lock);
	KUNIT_ASSERT_LE(test, n, softrdma_ring_num_slots(qp->sq.ring) - 1);
	qp->sq.wqe = kunit_kcalloc(test, softrdma_ring_num_slots(qp->sq.ring),
				   sizeof(*qp->sq.wqe), GFP_KERNEL);
	iw->tx.st = kunit_kcalloc(test, softrdma_ring_num_slots(qp->sq.ring),
				  sizeof(*iw->tx.st), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, qp->sq.wqe);
	KUNIT_ASSERT_NOT_NULL(test, iw->tx.st);
	spin_lock_init(&cq.lock);
	cq.abi = &softrdma_kernel_cq_abi;
	KUNIT_ASSERT_EQ(test, cq.abi->create(&cq, IW_RETIRE_SLOTS, NULL), 0);
	qp->scq = &cq;
	/* the stream is ending: retire schedules no engine */
	iw->tx.state = TXS(CLOSING);

	/* @n signalled SENDs posted and fetched, in slots 0.. */
	spin_lock_bh(&qp->sq.post_lock);
	for (i = 0; i < n; i++) {
		wqe = softrdma_ring_producer_slot(qp->sq.ring);
		*wqe = (struct softrdma_send_wqe){
			.wr_id = i,
			.opcode = IB_WR_SEND,
			.send_flags = IB_SEND_SIGNALED,
		};
		qp->sq.wqe[i] = *wqe;
		softrdma_ring_advance_producer(qp->sq.ring);
	}
	spin_unlock_bh(&qp->sq.post_lock);

	spin_lock_bh(&qp->sq.lock);
	qp->sq.fetch = n;
	qp->sq.fetched = n;
	for (i = 0; i < n; i++) {
		iw->tx.st[i].done = c->before[i] != '.';
		iw->tx.st[i].status = c->before[i] == 'F' ? IB_WC_MW_BIND_ERR :
							     IB_WC_SUCCESS;
	}
	softrdma_iw_tx_retire(qp);
	spin_unlock_bh(&qp->sq.lock);
	got = iw_retire_poll(test, &cq, c, 0);
	KUNIT_EXPECT_EQ(test, got, c->first);

	spin_lock_bh(&qp->sq.lock);
	for (i = 0; i < n; i++) {
		if (c->before[i] == '.')
			iw->tx.st[i].done = true;
	}
	softrdma_iw_tx_retire(qp);
	spin_unlock_bh(&qp->sq.lock);
	KUNIT_EXPECT_EQ(test, iw_retire_poll(test, &cq, c, got), c->second);

	/* the rest is the flush's: still fetched, in order */
	KUNIT_EXPECT_EQ(test, qp->sq.fetched, n - c->first - c->second);
	KUNIT_EXPECT_EQ(test, iw->tx.failed, !!strchr(c->before, 'F'));

	softrdma_ring_destroy(cq.ring);
	softrdma_ring_destroy(qp->sq.ring);
}

static struct kunit_case softrdma_iwarp_tx_cases[] = {
	KUNIT_CASE_PARAM(softrdma_iwarp_tx_segments, iw_seg_gen_params),
	KUNIT_CASE_PARAM(softrdma_iwarp_tx_zcopy, iw_zcopy_gen_params),
	KUNIT_CASE_PARAM(softrdma_iwarp_tx_acked, iw_acked_gen_params),
	KUNIT_CASE(softrdma_iwarp_tx_fail_event),
	KUNIT_CASE(softrdma_iwarp_tx_frags_bvec),
	KUNIT_CASE(softrdma_iwarp_tx_fpdu_fits_emss),
	KUNIT_CASE(softrdma_iwarp_tx_rdq_order),
	KUNIT_CASE(softrdma_iwarp_tx_rdq_limits),
	KUNIT_CASE_PARAM(softrdma_iwarp_tx_move_table, iw_tx_move_gen_params),
	KUNIT_CASE(softrdma_iwarp_tx_machine),
	KUNIT_CASE(softrdma_iwarp_tx_move_helper),
	KUNIT_CASE_PARAM(softrdma_iwarp_tx_retire_failed, iw_retire_gen_params),
	{}
};

static struct kunit_suite softrdma_iwarp_tx_suite = {
	.name = "softrdma_iwarp_tx",
	.test_cases = softrdma_iwarp_tx_cases,
};

kunit_test_suite(softrdma_iwarp_tx_suite);
