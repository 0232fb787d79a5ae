// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the RC engines' pure logic (rc.c): how a message is
 * cut into packets (IBA 9.4, 9.7.2), how many PSNs a WQE consumes
 * (IBA 9.7.1), where a request's PSN stands for the responder
 * (9.7.5.1.1), what an ACK or NAK asks of the completer (9.7.5.2) and
 * which RDMA READ responses restart its ACK timer (9.7.5.1.3, 9.7.6.1.3),
 * and the requester's and responder's state machines: their names and
 * their tables of legal moves.
 */
#include <kunit/test.h>
#include <rdma/ib_pack.h>
#include <rdma/ib_verbs.h>

#include "psn.h"
#include "qp.h"
#include "queue_rxe_abi.h"
#include "rc.h"
#include "roce_qp.h"
#include "roce_hdr.h"
#include "roce_opcode.h"

struct rc_seg_case {
	const char *name;
	u32 wr_opcode;
	u32 length;
	u32 mtu;
	u32 pkt;
	bool valid;
	u8 opcode;
	u32 offset;
	u32 len;
	bool reth;
	bool ackreq;
};

static const struct rc_seg_case rc_seg_cases[] = {
	{ "send_zero_length", IB_WR_SEND, 0, 1024, 0, true,
	  IB_OPCODE_RC_SEND_ONLY, 0, 0, false, true },
	{ "send_one_byte", IB_WR_SEND, 1, 1024, 0, true,
	  IB_OPCODE_RC_SEND_ONLY, 0, 1, false, true },
	{ "send_exactly_mtu", IB_WR_SEND, 1024, 1024, 0, true,
	  IB_OPCODE_RC_SEND_ONLY, 0, 1024, false, true },
	{ "send_mtu_plus_one_first", IB_WR_SEND, 1025, 1024, 0, true,
	  IB_OPCODE_RC_SEND_FIRST, 0, 1024, false, false },
	{ "send_mtu_plus_one_last", IB_WR_SEND, 1025, 1024, 1, true,
	  IB_OPCODE_RC_SEND_LAST, 1024, 1, false, true },
	{ "send_past_end", IB_WR_SEND, 1025, 1024, 2, false },
	{ "send_middle", IB_WR_SEND, 4096, 1024, 1, true,
	  IB_OPCODE_RC_SEND_MIDDLE, 1024, 1024, false, false },
	{ "send_periodic_ackreq", IB_WR_SEND, 64 * 1024, 1024,
	  SOFTRDMA_RC_ACKREQ_PERIOD - 1, true, IB_OPCODE_RC_SEND_MIDDLE,
	  (SOFTRDMA_RC_ACKREQ_PERIOD - 1) * 1024, 1024, false, true },
	{ "send_imm_only", IB_WR_SEND_WITH_IMM, 8, 4096, 0, true,
	  IB_OPCODE_RC_SEND_ONLY_WITH_IMMEDIATE, 0, 8, false, true },
	{ "send_imm_last", IB_WR_SEND_WITH_IMM, 5000, 4096, 1, true,
	  IB_OPCODE_RC_SEND_LAST_WITH_IMMEDIATE, 4096, 904, false, true },
	{ "send_inv_only", IB_WR_SEND_WITH_INV, 8, 4096, 0, true,
	  IB_OPCODE_RC_SEND_ONLY_WITH_INVALIDATE, 0, 8, false, true },
	{ "write_only", IB_WR_RDMA_WRITE, 2, 1024, 0, true,
	  IB_OPCODE_RC_RDMA_WRITE_ONLY, 0, 2, true, true },
	{ "write_first_has_reth", IB_WR_RDMA_WRITE, 65537, 4096, 0, true,
	  IB_OPCODE_RC_RDMA_WRITE_FIRST, 0, 4096, true, false },
	{ "write_middle_no_reth", IB_WR_RDMA_WRITE, 65537, 4096, 5, true,
	  IB_OPCODE_RC_RDMA_WRITE_MIDDLE, 5 * 4096, 4096, false, false },
	{ "write_last", IB_WR_RDMA_WRITE, 65537, 4096, 16, true,
	  IB_OPCODE_RC_RDMA_WRITE_LAST, 16 * 4096, 1, false, true },
	{ "write_imm_only", IB_WR_RDMA_WRITE_WITH_IMM, 0, 1024, 0, true,
	  IB_OPCODE_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, 0, 0, true, true },
	{ "write_imm_last", IB_WR_RDMA_WRITE_WITH_IMM, 2048, 1024, 1, true,
	  IB_OPCODE_RC_RDMA_WRITE_LAST_WITH_IMMEDIATE, 1024, 1024, false,
	  true },
	{ "read_one_request", IB_WR_RDMA_READ, 1 << 20, 1024, 0, true,
	  IB_OPCODE_RC_RDMA_READ_REQUEST, 0, 0, true, true },
	{ "read_no_second_packet", IB_WR_RDMA_READ, 1 << 20, 1024, 1, false },
	{ "cmp_swap", IB_WR_ATOMIC_CMP_AND_SWP, 8, 1024, 0, true,
	  IB_OPCODE_RC_COMPARE_SWAP, 0, 0, false, true },
	{ "fetch_add", IB_WR_ATOMIC_FETCH_AND_ADD, 8, 1024, 0, true,
	  IB_OPCODE_RC_FETCH_ADD, 0, 0, false, true },
	{ "local_inv_not_a_packet", IB_WR_LOCAL_INV, 0, 1024, 0, false },
	/* IBA 1.5 9.4.9: one packet, a RETH and exactly 8 bytes */
	{ "atomic_write", SOFTRDMA_WR_ATOMIC_WRITE, 8, 256, 0, true,
	  SOFTRDMA_OPCODE_RC_ATOMIC_WRITE, 0, 8, true, true },
	{ "atomic_write_no_second_packet", SOFTRDMA_WR_ATOMIC_WRITE, 8, 256, 1,
	  false },
	{ "atomic_write_16_bytes", SOFTRDMA_WR_ATOMIC_WRITE, 16, 256, 0,
	  false },
	{ "atomic_write_empty", SOFTRDMA_WR_ATOMIC_WRITE, 0, 256, 0, false },
	/* IBA 1.5 9.4.8: one packet without payload, whatever it covers */
	{ "flush", SOFTRDMA_WR_FLUSH, 0, 256, 0, true,
	  SOFTRDMA_OPCODE_RC_FLUSH, 0, 0, true, true },
	{ "flush_no_second_packet", SOFTRDMA_WR_FLUSH, 0, 256, 1, false },
};

static void rc_seg_case_desc(const struct rc_seg_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rc_seg, rc_seg_cases, rc_seg_case_desc);

static void softrdma_rc_segmentation(struct kunit *test)
{
	const struct rc_seg_case *c = test->param_value;
	struct softrdma_rc_seg seg;
	bool valid;

	valid = softrdma_rc_segment(c->wr_opcode, c->length, c->mtu, c->pkt, 0,
				    &seg);
	KUNIT_ASSERT_EQ(test, valid, c->valid);
	if (!valid)
		return;
	KUNIT_EXPECT_EQ(test, seg.opcode, c->opcode);
	KUNIT_EXPECT_EQ(test, seg.has_reth, c->reth);
	KUNIT_EXPECT_EQ(test, seg.ackreq, c->ackreq);
	if (c->opcode != IB_OPCODE_RC_RDMA_READ_REQUEST &&
	    c->opcode != IB_OPCODE_RC_COMPARE_SWAP &&
	    c->opcode != IB_OPCODE_RC_FETCH_ADD) {
		KUNIT_EXPECT_EQ(test, seg.offset, c->offset);
		KUNIT_EXPECT_EQ(test, seg.len, c->len);
	}
}

/* Every byte of a message is in exactly one packet, in order */
static void softrdma_rc_segmentation_covers_message(struct kunit *test)
{
	static const u32 lengths[] = { 0, 1, 255, 256, 1023, 1024, 1025,
				       4095, 4096, 65537, 1 << 20 };
	static const u32 mtus[] = { 256, 1024, 4096 };
	struct softrdma_rc_seg seg;
	u32 i, j, pkt, next;

	for (i = 0; i < ARRAY_SIZE(lengths); i++) {
		for (j = 0; j < ARRAY_SIZE(mtus); j++) {
			next = 0;
			for (pkt = 0; softrdma_rc_segment(IB_WR_RDMA_WRITE,
							  lengths[i], mtus[j],
							  pkt, 0, &seg);
			     pkt++) {
				KUNIT_EXPECT_EQ(test, seg.offset, next);
				KUNIT_EXPECT_LE(test, seg.len, mtus[j]);
				next += seg.len;
			}
			KUNIT_EXPECT_EQ(test, next, lengths[i]);
			KUNIT_EXPECT_EQ(test, pkt,
					softrdma_rc_wqe_npsn(IB_WR_RDMA_WRITE,
							     lengths[i],
							     mtus[j]));
		}
	}
}

static void softrdma_rc_npsn(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, softrdma_rc_wqe_npsn(IB_WR_SEND, 0, 1024), 1U);
	KUNIT_EXPECT_EQ(test, softrdma_rc_wqe_npsn(IB_WR_SEND, 1024, 1024),
			1U);
	KUNIT_EXPECT_EQ(test, softrdma_rc_wqe_npsn(IB_WR_SEND, 1025, 1024),
			2U);
	/* a READ consumes one PSN per response packet (IBA 9.7.1) */
	KUNIT_EXPECT_EQ(test, softrdma_rc_wqe_npsn(IB_WR_RDMA_READ, 1 << 20,
						   4096), 256U);
	KUNIT_EXPECT_EQ(test, softrdma_rc_wqe_npsn(IB_WR_RDMA_READ, 0, 4096),
			1U);
	KUNIT_EXPECT_EQ(test,
			softrdma_rc_wqe_npsn(IB_WR_ATOMIC_FETCH_AND_ADD, 8,
					     256), 1U);
	/* IBA 1.5: one request, one response, whatever the length says */
	KUNIT_EXPECT_EQ(test,
			softrdma_rc_wqe_npsn(SOFTRDMA_WR_ATOMIC_WRITE, 4096,
					     256), 1U);
	KUNIT_EXPECT_EQ(test, softrdma_rc_wqe_npsn(SOFTRDMA_WR_FLUSH, 1 << 20,
						   256), 1U);
}

/*
 * Messages an RC connection carries, and the PSN span they may give the
 * requester (IBA 9.7.1): a READ takes all its PSNs at once, on top of
 * fewer than SOFTRDMA_RC_WINDOW outstanding; every PSN comparison over
 * that span must still read "ahead".  2^31 bytes at a 256-byte MTU are
 * 2^23 PSNs: one past the half.
 */
struct rc_msg_case {
	const char *name;
	u32 wr_opcode;
	u32 length;
	u32 mtu;
	bool fits;
};

#define MSG_2G		0x80000000U
#define MSG_2G_MAX_256	(MSG_2G - SOFTRDMA_RC_WINDOW * 256)

static const struct rc_msg_case rc_msg_cases[] = {
	{ "read_2g_mtu256", IB_WR_RDMA_READ, MSG_2G, 256, false },
	{ "read_2g_minus_one_mtu256", IB_WR_RDMA_READ, MSG_2G - 1, 256,
	  false },
	{ "read_largest_mtu256", IB_WR_RDMA_READ, MSG_2G_MAX_256, 256, true },
	{ "read_largest_plus_one_mtu256", IB_WR_RDMA_READ, MSG_2G_MAX_256 + 1,
	  256, false },
	{ "read_2g_mtu512", IB_WR_RDMA_READ, MSG_2G, 512, true },
	{ "read_2g_mtu4096", IB_WR_RDMA_READ, MSG_2G, 4096, true },
	{ "read_past_2g_mtu4096", IB_WR_RDMA_READ, MSG_2G + 1, 4096, false },
	{ "read_zero_length", IB_WR_RDMA_READ, 0, 256, true },
	{ "write_2g_mtu256", IB_WR_RDMA_WRITE, MSG_2G, 256, false },
	{ "write_2g_mtu1024", IB_WR_RDMA_WRITE, MSG_2G, 1024, true },
	{ "send_2g_mtu256", IB_WR_SEND, MSG_2G, 256, false },
	{ "send_largest_mtu256", IB_WR_SEND, MSG_2G_MAX_256, 256, true },
	{ "atomic_mtu256", IB_WR_ATOMIC_FETCH_AND_ADD, 8, 256, true },
};

static void rc_msg_case_desc(const struct rc_msg_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rc_msg, rc_msg_cases, rc_msg_case_desc);

static void softrdma_rc_msg_psn_span(struct kunit *test)
{
	static const u32 bases[] = { 0, 0x7fff00, 0xffff80, PSN_MASK };
	const struct rc_msg_case *c = test->param_value;
	u32 npsn, span, una, end, i;
	bool fits;

	fits = softrdma_rc_msg_fits(c->wr_opcode, c->length, c->mtu);
	KUNIT_EXPECT_EQ(test, fits, c->fits);
	if (!fits)
		return;
	npsn = softrdma_rc_wqe_npsn(c->wr_opcode, c->length, c->mtu);
	KUNIT_EXPECT_LE(test, npsn, (u32)SOFTRDMA_RC_MAX_MSG_PSNS);
	/* the most the requester can have outstanding with it */
	span = SOFTRDMA_RC_WINDOW - 1 + npsn;
	for (i = 0; i < ARRAY_SIZE(bases); i++) {
		una = bases[i];
		end = psn_add(una, span);
		KUNIT_EXPECT_GT(test, psn_diff(end, una), 0);
		KUNIT_EXPECT_TRUE(test, psn_after(end, una));
		KUNIT_EXPECT_TRUE(test, psn_before(una, end));
		/* the responder: the read's first PSN is behind its end */
		KUNIT_EXPECT_EQ(test,
				softrdma_rc_psn_classify(una, psn_add(una, npsn),
							 false),
				SOFTRDMA_RC_PSN_DUPLICATE);
		/* and its last response is the Last (or Only) one */
		KUNIT_EXPECT_NE(test,
				softrdma_rc_read_resp_opcode(npsn - 1,
							     psn_diff(psn_add(una, npsn),
								      una)),
				(u8)IB_OPCODE_RC_RDMA_READ_RESPONSE_MIDDLE);
	}
}

struct rc_psn_case {
	const char *name;
	u32 psn;
	u32 expected;
	bool nak_sent;
	enum softrdma_rc_psn_class class;
};

static const struct rc_psn_case rc_psn_cases[] = {
	{ "expected", 100, 100, false, SOFTRDMA_RC_PSN_EXPECTED },
	{ "expected_after_nak", 100, 100, true, SOFTRDMA_RC_PSN_EXPECTED },
	{ "duplicate_previous", 99, 100, false, SOFTRDMA_RC_PSN_DUPLICATE },
	{ "duplicate_while_nak_sent", 99, 100, true,
	  SOFTRDMA_RC_PSN_DUPLICATE },
	{ "gap_first_naks", 101, 100, false, SOFTRDMA_RC_PSN_GAP_NAK },
	{ "gap_rest_dropped", 102, 100, true, SOFTRDMA_RC_PSN_GAP_DROP },
	{ "expected_at_wrap", 0, 0, false, SOFTRDMA_RC_PSN_EXPECTED },
	{ "duplicate_across_wrap", 0xffffff, 0, false,
	  SOFTRDMA_RC_PSN_DUPLICATE },
	{ "gap_across_wrap", 1, 0xffffff, false, SOFTRDMA_RC_PSN_GAP_NAK },
	/* half the PSN space: 2^23 behind is the oldest duplicate */
	{ "duplicate_oldest", 0x800000, 0, false, SOFTRDMA_RC_PSN_DUPLICATE },
	{ "gap_farthest", 0x7fffff, 0, false, SOFTRDMA_RC_PSN_GAP_NAK },
};

static void rc_psn_case_desc(const struct rc_psn_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rc_psn, rc_psn_cases, rc_psn_case_desc);

static void softrdma_rc_psn_classification(struct kunit *test)
{
	const struct rc_psn_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, softrdma_rc_psn_classify(c->psn, c->expected,
						       c->nak_sent),
			c->class);
}

/*
 * The responder over a stream of request packets (IBA 9.7.5.1.1, 9.7.4):
 * each packet's PSN is an offset from the case's start PSN; a packet the
 * responder executes moves it on unless the case says it was refused with
 * an RNR NAK (no receive WQE), as rc_responder.c does.
 */
#define RC_RQ(op)		IB_OPCODE_RC_##op
#define RC_EXEC			SOFTRDMA_RC_RESP_EXECUTE
#define RC_DUP			SOFTRDMA_RC_RESP_DUPLICATE
#define RC_SEQNAK		SOFTRDMA_RC_RESP_SEQ_NAK
#define RC_DROP			SOFTRDMA_RC_RESP_SEQ_DROP
#define RC_INVAL		SOFTRDMA_RC_RESP_INVALID

struct rc_resp_pkt {
	bool set;		/* the list ends at the first one unset */
	u32 off;		/* PSN - start */
	u8 opcode;
	enum softrdma_rc_resp_verdict verdict;
	u32 npsn;		/* PSNs it consumes if executed; 0: 1 */
	bool rnr;		/* executed, but refused with an RNR NAK */
};

#define RC_RESP_MAX_PKTS	12

struct rc_resp_case {
	const char *name;
	u32 start;
	struct rc_resp_pkt pkt[RC_RESP_MAX_PKTS];
	u32 end_off;		/* the next PSN expected at the end */
	enum softrdma_rc_resp_msg end_msg;
};

static const struct rc_resp_case rc_resp_cases[] = {
	/* 9.7.5.2.1: the requester resumes at the NAKed Middle */
	{ "write_resume_middle_after_seq_nak", 100, {
		{ true, 0, RC_RQ(RDMA_WRITE_FIRST), RC_EXEC },
		{ true, 1, RC_RQ(RDMA_WRITE_MIDDLE), RC_EXEC },
		{ true, 3, RC_RQ(RDMA_WRITE_LAST), RC_SEQNAK },
		{ true, 2, RC_RQ(RDMA_WRITE_MIDDLE), RC_EXEC },
		{ true, 3, RC_RQ(RDMA_WRITE_LAST), RC_EXEC },
	  }, 4, SOFTRDMA_RC_MSG_NONE },
	{ "write_gap_naked_once_then_dropped", 100, {
		{ true, 0, RC_RQ(RDMA_WRITE_FIRST), RC_EXEC },
		{ true, 1, RC_RQ(RDMA_WRITE_MIDDLE), RC_EXEC },
		{ true, 3, RC_RQ(RDMA_WRITE_MIDDLE), RC_SEQNAK },
		{ true, 4, RC_RQ(RDMA_WRITE_LAST), RC_DROP },
		{ true, 5, RC_RQ(RDMA_WRITE_ONLY), RC_DROP },
		{ true, 2, RC_RQ(RDMA_WRITE_MIDDLE), RC_EXEC },
		{ true, 3, RC_RQ(RDMA_WRITE_MIDDLE), RC_EXEC },
		{ true, 4, RC_RQ(RDMA_WRITE_LAST), RC_EXEC },
		{ true, 5, RC_RQ(RDMA_WRITE_ONLY), RC_EXEC },
	  }, 6, SOFTRDMA_RC_MSG_NONE },
	/* the Last was lost; the next message's First shows the gap */
	{ "write_resume_at_last", 7, {
		{ true, 0, RC_RQ(RDMA_WRITE_FIRST), RC_EXEC },
		{ true, 1, RC_RQ(RDMA_WRITE_MIDDLE), RC_EXEC },
		{ true, 3, RC_RQ(RDMA_WRITE_FIRST), RC_SEQNAK },
		{ true, 2, RC_RQ(RDMA_WRITE_LAST), RC_EXEC },
		{ true, 3, RC_RQ(RDMA_WRITE_FIRST), RC_EXEC },
	  }, 4, SOFTRDMA_RC_MSG_WRITE },
	/* 9.7.6.1.3: after a timeout from the message's First */
	{ "write_timeout_resends_from_first", 100, {
		{ true, 0, RC_RQ(RDMA_WRITE_FIRST), RC_EXEC },
		{ true, 1, RC_RQ(RDMA_WRITE_MIDDLE), RC_EXEC },
		{ true, 2, RC_RQ(RDMA_WRITE_MIDDLE), RC_EXEC },
		{ true, 0, RC_RQ(RDMA_WRITE_FIRST), RC_DUP },
		{ true, 1, RC_RQ(RDMA_WRITE_MIDDLE), RC_DUP },
		{ true, 2, RC_RQ(RDMA_WRITE_MIDDLE), RC_DUP },
		{ true, 3, RC_RQ(RDMA_WRITE_LAST), RC_EXEC },
	  }, 4, SOFTRDMA_RC_MSG_NONE },
	/* ... and from the middle of it, where its ACKs stopped */
	{ "write_timeout_resends_from_middle", 100, {
		{ true, 0, RC_RQ(RDMA_WRITE_FIRST), RC_EXEC },
		{ true, 1, RC_RQ(RDMA_WRITE_MIDDLE), RC_EXEC },
		{ true, 2, RC_RQ(RDMA_WRITE_MIDDLE), RC_EXEC },
		{ true, 1, RC_RQ(RDMA_WRITE_MIDDLE), RC_DUP },
		{ true, 2, RC_RQ(RDMA_WRITE_MIDDLE), RC_DUP },
		{ true, 3, RC_RQ(RDMA_WRITE_MIDDLE), RC_EXEC },
		{ true, 4, RC_RQ(RDMA_WRITE_LAST), RC_EXEC },
	  }, 5, SOFTRDMA_RC_MSG_NONE },
	{ "duplicate_first_during_message", 100, {
		{ true, 0, RC_RQ(RDMA_WRITE_FIRST), RC_EXEC },
		{ true, 1, RC_RQ(RDMA_WRITE_MIDDLE), RC_EXEC },
		{ true, 0, RC_RQ(RDMA_WRITE_FIRST), RC_DUP },
		{ true, 2, RC_RQ(RDMA_WRITE_LAST), RC_EXEC },
	  }, 3, SOFTRDMA_RC_MSG_NONE },
	{ "duplicate_only_of_earlier_message", 100, {
		{ true, 0, RC_RQ(RDMA_WRITE_ONLY), RC_EXEC },
		{ true, 1, RC_RQ(SEND_FIRST), RC_EXEC },
		{ true, 0, RC_RQ(RDMA_WRITE_ONLY), RC_DUP },
		{ true, 0, RC_RQ(SEND_ONLY), RC_DUP },
		{ true, 2, RC_RQ(SEND_LAST), RC_EXEC },
	  }, 3, SOFTRDMA_RC_MSG_NONE },
	/* a duplicate while a gap is NAKed neither clears nor repeats it */
	{ "duplicate_inside_naked_gap", 100, {
		{ true, 0, RC_RQ(RDMA_WRITE_FIRST), RC_EXEC },
		{ true, 1, RC_RQ(RDMA_WRITE_MIDDLE), RC_EXEC },
		{ true, 3, RC_RQ(RDMA_WRITE_LAST), RC_SEQNAK },
		{ true, 1, RC_RQ(RDMA_WRITE_MIDDLE), RC_DUP },
		{ true, 3, RC_RQ(RDMA_WRITE_LAST), RC_DROP },
		{ true, 2, RC_RQ(RDMA_WRITE_MIDDLE), RC_EXEC },
		{ true, 4, RC_RQ(RDMA_WRITE_ONLY), RC_SEQNAK },
		{ true, 3, RC_RQ(RDMA_WRITE_LAST), RC_EXEC },
	  }, 4, SOFTRDMA_RC_MSG_NONE },
	{ "send_resume_middle_after_seq_nak", 100, {
		{ true, 0, RC_RQ(SEND_FIRST), RC_EXEC },
		{ true, 1, RC_RQ(SEND_MIDDLE), RC_EXEC },
		{ true, 3, RC_RQ(SEND_LAST_WITH_IMMEDIATE), RC_SEQNAK },
		{ true, 2, RC_RQ(SEND_MIDDLE), RC_EXEC },
		{ true, 3, RC_RQ(SEND_LAST_WITH_IMMEDIATE), RC_EXEC },
	  }, 4, SOFTRDMA_RC_MSG_NONE },
	/* 9.7.5.2.8: the RNR NAKed packet comes again, nothing moved */
	{ "send_first_rnr_then_again", 100, {
		{ true, 0, RC_RQ(SEND_FIRST), RC_EXEC, 0, true },
		{ true, 0, RC_RQ(SEND_FIRST), RC_EXEC },
		{ true, 1, RC_RQ(SEND_LAST), RC_EXEC },
	  }, 2, SOFTRDMA_RC_MSG_NONE },
	{ "write_imm_last_rnr_then_again", 100, {
		{ true, 0, RC_RQ(RDMA_WRITE_FIRST), RC_EXEC },
		{ true, 1, RC_RQ(RDMA_WRITE_LAST_WITH_IMMEDIATE), RC_EXEC, 0, true },
		{ true, 2, RC_RQ(RDMA_WRITE_ONLY), RC_SEQNAK },
		{ true, 1, RC_RQ(RDMA_WRITE_LAST_WITH_IMMEDIATE), RC_EXEC },
		{ true, 2, RC_RQ(RDMA_WRITE_ONLY), RC_EXEC },
	  }, 3, SOFTRDMA_RC_MSG_NONE },
	{ "resume_middle_across_psn_wrap", 0xfffffe, {
		{ true, 0, RC_RQ(RDMA_WRITE_FIRST), RC_EXEC },
		{ true, 1, RC_RQ(RDMA_WRITE_MIDDLE), RC_EXEC },
		{ true, 3, RC_RQ(RDMA_WRITE_LAST), RC_SEQNAK },
		{ true, 0, RC_RQ(RDMA_WRITE_FIRST), RC_DUP },
		{ true, 2, RC_RQ(RDMA_WRITE_MIDDLE), RC_EXEC },
		{ true, 3, RC_RQ(RDMA_WRITE_LAST), RC_EXEC },
	  }, 4, SOFTRDMA_RC_MSG_NONE },
	/* a read consumes its response PSNs; its duplicate is replayed */
	{ "read_duplicate_inside_write", 100, {
		{ true, 0, RC_RQ(RDMA_READ_REQUEST), RC_EXEC, 4 },
		{ true, 4, RC_RQ(RDMA_WRITE_FIRST), RC_EXEC },
		{ true, 0, RC_RQ(RDMA_READ_REQUEST), RC_DUP },
		{ true, 2, RC_RQ(RDMA_READ_REQUEST), RC_DUP },
		{ true, 5, RC_RQ(RDMA_WRITE_LAST), RC_EXEC },
		{ true, 6, RC_RQ(FETCH_ADD), RC_EXEC },
		{ true, 6, RC_RQ(FETCH_ADD), RC_DUP },
	  }, 7, SOFTRDMA_RC_MSG_NONE },
	/* what stays invalid (9.7.4, class C): in order, out of sequence */
	{ "first_inside_write_is_invalid", 100, {
		{ true, 0, RC_RQ(RDMA_WRITE_FIRST), RC_EXEC },
		{ true, 1, RC_RQ(RDMA_WRITE_FIRST), RC_INVAL },
	  }, 1, SOFTRDMA_RC_MSG_WRITE },
	{ "middle_without_first_is_invalid", 100, {
		{ true, 0, RC_RQ(RDMA_WRITE_MIDDLE), RC_INVAL },
		{ true, 0, RC_RQ(SEND_LAST), RC_INVAL },
	  }, 0, SOFTRDMA_RC_MSG_NONE },
	{ "send_middle_inside_write_is_invalid", 100, {
		{ true, 0, RC_RQ(RDMA_WRITE_FIRST), RC_EXEC },
		{ true, 1, RC_RQ(SEND_MIDDLE), RC_INVAL },
		{ true, 1, RC_RQ(RDMA_READ_REQUEST), RC_INVAL },
	  }, 1, SOFTRDMA_RC_MSG_WRITE },
	{ "response_opcode_is_invalid", 100, {
		{ true, 0, RC_RQ(RDMA_READ_RESPONSE_ONLY), RC_INVAL },
		{ true, 0, RC_RQ(ACKNOWLEDGE), RC_INVAL },
	  }, 0, SOFTRDMA_RC_MSG_NONE },
};

static void rc_resp_case_desc(const struct rc_resp_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rc_resp, rc_resp_cases, rc_resp_case_desc);

/* a case's packets through @step; what it executes moves the stream on */
static void rc_resp_run(struct kunit *test,
			enum softrdma_rc_resp_verdict
			(*step)(struct softrdma_rc_resp_seq *seq, u32 psn,
				u8 opcode))
{
	const struct rc_resp_case *c = test->param_value;
	struct softrdma_rc_resp_seq seq = {
		.psn = c->start,
		.msg = SOFTRDMA_RC_MSG_NONE,
	};
	enum softrdma_rc_resp_verdict v;
	unsigned int i;

	for (i = 0; i < RC_RESP_MAX_PKTS && c->pkt[i].set; i++) {
		const struct rc_resp_pkt *p = &c->pkt[i];
		u32 psn = psn_add(c->start, p->off);

		v = step(&seq, psn, p->opcode);
		KUNIT_EXPECT_EQ_MSG(test, v, p->verdict,
				    "packet %u (PSN +%u opcode 0x%02x)",
				    i, p->off, p->opcode);
		if ((v == SOFTRDMA_RC_RESP_EXECUTE ||
		     v == SOFTRDMA_RC_RESP_RESYNC) && !p->rnr)
			softrdma_rc_resp_done(&seq, psn, p->opcode,
					      p->npsn ?: 1);
	}
	KUNIT_EXPECT_EQ(test, seq.psn, psn_add(c->start, c->end_off));
	KUNIT_EXPECT_EQ(test, seq.msg, c->end_msg);
}

static void softrdma_rc_resp_stream(struct kunit *test)
{
	rc_resp_run(test, softrdma_rc_resp_step);
}

/*
 * UC (IBA 9.8): no duplicates, no NAKs.  A gap or a broken sequence drops
 * the message in progress and everything up to the next First or Only,
 * which begins anew at its own PSN (RESYNC).
 */
#define UC_RQ(op)		IB_OPCODE_UC_##op
#define UC_RESYNC		SOFTRDMA_RC_RESP_RESYNC

static const struct rc_resp_case uc_resp_cases[] = {
	{ "send_first_middle_last_in_order", 100, {
		{ true, 0, UC_RQ(SEND_FIRST), RC_EXEC },
		{ true, 1, UC_RQ(SEND_MIDDLE), RC_EXEC },
		{ true, 2, UC_RQ(SEND_LAST_WITH_IMMEDIATE), RC_EXEC },
	  }, 3, SOFTRDMA_RC_MSG_NONE },
	{ "write_first_middle_last_in_order", 100, {
		{ true, 0, UC_RQ(RDMA_WRITE_FIRST), RC_EXEC },
		{ true, 1, UC_RQ(RDMA_WRITE_MIDDLE), RC_EXEC },
		{ true, 2, UC_RQ(RDMA_WRITE_LAST_WITH_IMMEDIATE), RC_EXEC },
		{ true, 3, UC_RQ(RDMA_WRITE_ONLY), RC_EXEC },
	  }, 4, SOFTRDMA_RC_MSG_NONE },
	{ "only_packets_in_order", 7, {
		{ true, 0, UC_RQ(SEND_ONLY), RC_EXEC },
		{ true, 1, UC_RQ(SEND_ONLY_WITH_IMMEDIATE), RC_EXEC },
		{ true, 2, UC_RQ(RDMA_WRITE_ONLY_WITH_IMMEDIATE), RC_EXEC },
	  }, 3, SOFTRDMA_RC_MSG_NONE },
	/* a Middle lost: the rest of the message goes, the next First is in */
	{ "gap_mid_message_drops_to_next_first", 100, {
		{ true, 0, UC_RQ(SEND_FIRST), RC_EXEC },
		{ true, 1, UC_RQ(SEND_MIDDLE), RC_EXEC },
		{ true, 3, UC_RQ(SEND_MIDDLE), RC_DROP },
		{ true, 4, UC_RQ(SEND_LAST), RC_DROP },
		{ true, 5, UC_RQ(SEND_FIRST), UC_RESYNC },
		{ true, 6, UC_RQ(SEND_LAST), RC_EXEC },
	  }, 7, SOFTRDMA_RC_MSG_NONE },
	{ "gap_mid_message_drops_to_next_only", 100, {
		{ true, 0, UC_RQ(RDMA_WRITE_FIRST), RC_EXEC },
		{ true, 2, UC_RQ(RDMA_WRITE_LAST), RC_DROP },
		{ true, 3, UC_RQ(RDMA_WRITE_ONLY), UC_RESYNC },
		{ true, 4, UC_RQ(SEND_ONLY), RC_EXEC },
	  }, 5, SOFTRDMA_RC_MSG_NONE },
	/* the Last lost: the next message's First ends the one in progress */
	{ "last_lost_next_first_resyncs", 100, {
		{ true, 0, UC_RQ(SEND_FIRST), RC_EXEC },
		{ true, 1, UC_RQ(SEND_MIDDLE), RC_EXEC },
		{ true, 3, UC_RQ(SEND_FIRST), UC_RESYNC },
		{ true, 4, UC_RQ(SEND_MIDDLE), RC_EXEC },
	  }, 5, SOFTRDMA_RC_MSG_SEND },
	{ "middle_without_first_dropped", 100, {
		{ true, 0, UC_RQ(SEND_MIDDLE), RC_DROP },
		{ true, 1, UC_RQ(SEND_LAST), RC_DROP },
		{ true, 2, UC_RQ(RDMA_WRITE_LAST_WITH_IMMEDIATE), RC_DROP },
	  }, 0, SOFTRDMA_RC_MSG_DROP },
	/* once dropping, even the expected PSN does not continue the message */
	{ "late_middle_after_drop_stays_dropped", 100, {
		{ true, 0, UC_RQ(SEND_FIRST), RC_EXEC },
		{ true, 2, UC_RQ(SEND_MIDDLE), RC_DROP },
		{ true, 1, UC_RQ(SEND_MIDDLE), RC_DROP },
		{ true, 3, UC_RQ(SEND_LAST), RC_DROP },
		{ true, 4, UC_RQ(SEND_ONLY), UC_RESYNC },
	  }, 5, SOFTRDMA_RC_MSG_NONE },
	/* in order, out of sequence: a First before the Last begins anew */
	{ "first_inside_message_resyncs", 100, {
		{ true, 0, UC_RQ(RDMA_WRITE_FIRST), RC_EXEC },
		{ true, 1, UC_RQ(SEND_FIRST), UC_RESYNC },
		{ true, 2, UC_RQ(SEND_LAST), RC_EXEC },
	  }, 3, SOFTRDMA_RC_MSG_NONE },
	{ "send_middle_inside_write_dropped", 100, {
		{ true, 0, UC_RQ(RDMA_WRITE_FIRST), RC_EXEC },
		{ true, 1, UC_RQ(SEND_MIDDLE), RC_DROP },
		{ true, 2, UC_RQ(RDMA_WRITE_LAST), RC_DROP },
	  }, 1, SOFTRDMA_RC_MSG_DROP },
	/* no duplicates on UC: an old PSN's Only is a new message */
	{ "old_psn_only_is_new_message", 100, {
		{ true, 0, UC_RQ(SEND_ONLY), RC_EXEC },
		{ true, 0, UC_RQ(SEND_ONLY), UC_RESYNC },
		{ true, 1, UC_RQ(SEND_ONLY), RC_EXEC },
	  }, 2, SOFTRDMA_RC_MSG_NONE },
	{ "gap_across_psn_wrap", 0xfffffe, {
		{ true, 0, UC_RQ(SEND_FIRST), RC_EXEC },
		{ true, 1, UC_RQ(SEND_MIDDLE), RC_EXEC },
		{ true, 3, UC_RQ(SEND_LAST), RC_DROP },
		{ true, 4, UC_RQ(RDMA_WRITE_FIRST), UC_RESYNC },
		{ true, 5, UC_RQ(RDMA_WRITE_LAST), RC_EXEC },
	  }, 6, SOFTRDMA_RC_MSG_NONE },
	/* no READ or atomic on UC (0x2c: reserved), no RC opcode either */
	{ "read_atomic_and_rc_opcodes_invalid", 100, {
		{ true, 0, IB_OPCODE_UC + 0x0c, RC_INVAL },
		{ true, 0, IB_OPCODE_UC + 0x13, RC_INVAL },
		{ true, 0, RC_RQ(SEND_ONLY), RC_INVAL },
		{ true, 0, RC_RQ(RDMA_READ_REQUEST), RC_INVAL },
		{ true, 0, UC_RQ(SEND_ONLY), RC_EXEC },
	  }, 1, SOFTRDMA_RC_MSG_NONE },
};

KUNIT_ARRAY_PARAM(uc_resp, uc_resp_cases, rc_resp_case_desc);

static void softrdma_uc_resp_stream(struct kunit *test)
{
	rc_resp_run(test, softrdma_uc_resp_step);
}

/*
 * The requester's opcodes: RC's as segmented; UC's the same operation
 * and place in the message, in the UC transport, without the flags of
 * an acknowledged request.
 */
static void softrdma_uc_req_opcodes(struct kunit *test)
{
	static const u32 wrs[] = {
		IB_WR_SEND, IB_WR_SEND_WITH_IMM, IB_WR_RDMA_WRITE,
		IB_WR_RDMA_WRITE_WITH_IMM,
	};
	const struct softrdma_roce_opcode *rc, *uc;
	struct softrdma_rc_seg seg;
	unsigned int i, pkt;
	u8 opcode;

	for (i = 0; i < ARRAY_SIZE(wrs); i++) {
		for (pkt = 0; pkt < 3; pkt++) {
			KUNIT_ASSERT_TRUE(test, softrdma_rc_segment(wrs[i], 3000,
								    1024, pkt,
								    0, &seg));
			KUNIT_EXPECT_EQ(test,
					softrdma_rc_req_opcode(seg.opcode, true),
					seg.opcode);
			opcode = softrdma_rc_req_opcode(seg.opcode, false);
			rc = softrdma_roce_opcode(seg.opcode);
			uc = softrdma_roce_opcode(opcode);
			KUNIT_ASSERT_NOT_NULL(test, uc);
			KUNIT_EXPECT_TRUE(test,
					  softrdma_roce_opcode_is_uc(opcode));
			KUNIT_EXPECT_EQ(test, uc->flags,
					rc->flags & ~SOFTRDMA_OPF_ACKED);
			KUNIT_EXPECT_EQ(test, uc->ext, rc->ext);
		}
	}
}

struct rc_write_fits_case {
	const char *name;
	u8 opcode;
	u32 payload;
	u32 left;
	bool fits;
};

static const struct rc_write_fits_case rc_write_fits_cases[] = {
	{ "only_exact", RC_RQ(RDMA_WRITE_ONLY), 100, 100, true },
	{ "only_zero_length", RC_RQ(RDMA_WRITE_ONLY), 0, 0, true },
	{ "only_short", RC_RQ(RDMA_WRITE_ONLY), 99, 100, false },
	{ "only_long", RC_RQ(RDMA_WRITE_ONLY), 101, 100, false },
	{ "first_leaves_some", RC_RQ(RDMA_WRITE_FIRST), 1024, 1025, true },
	{ "first_takes_all", RC_RQ(RDMA_WRITE_FIRST), 1024, 1024, false },
	{ "middle_leaves_some", RC_RQ(RDMA_WRITE_MIDDLE), 1024, 4096, true },
	/* a Middle where the Last should be: a requester off by one PSN */
	{ "middle_takes_all", RC_RQ(RDMA_WRITE_MIDDLE), 1024, 1024, false },
	{ "middle_past_end", RC_RQ(RDMA_WRITE_MIDDLE), 1024, 0, false },
	{ "last_exact", RC_RQ(RDMA_WRITE_LAST), 1024, 1024, true },
	{ "last_past_end", RC_RQ(RDMA_WRITE_LAST), 1024, 0, false },
	{ "last_short", RC_RQ(RDMA_WRITE_LAST), 1, 1025, false },
	{ "last_imm_exact", RC_RQ(RDMA_WRITE_LAST_WITH_IMMEDIATE), 7, 7,
	  true },
	{ "only_imm_zero", RC_RQ(RDMA_WRITE_ONLY_WITH_IMMEDIATE), 0, 0, true },
};

static void rc_write_fits_case_desc(const struct rc_write_fits_case *c,
				    char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rc_write_fits, rc_write_fits_cases,
		  rc_write_fits_case_desc);

static void softrdma_rc_write_length(struct kunit *test)
{
	const struct rc_write_fits_case *c = test->param_value;
	const struct softrdma_roce_opcode *op = softrdma_roce_opcode(c->opcode);

	KUNIT_ASSERT_NOT_NULL(test, op);
	KUNIT_EXPECT_EQ(test, softrdma_rc_write_fits(op->flags, c->payload,
						     c->left), c->fits);
}

struct rc_read_opcode_case {
	const char *name;
	u32 idx;
	u32 npsn;
	u8 opcode;
};

#define RC_RD(op)	IB_OPCODE_RC_RDMA_READ_RESPONSE_##op

static const struct rc_read_opcode_case rc_read_opcode_cases[] = {
	{ "one_packet", 0, 1, RC_RD(ONLY) },
	{ "zero_length_read", 0, 0, RC_RD(ONLY) },
	{ "first_of_two", 0, 2, RC_RD(FIRST) },
	{ "last_of_two", 1, 2, RC_RD(LAST) },
	{ "first_of_64", 0, 64, RC_RD(FIRST) },
	{ "middle_of_64", 1, 64, RC_RD(MIDDLE) },
	{ "last_middle_of_64", 62, 64, RC_RD(MIDDLE) },
	{ "last_of_64", 63, 64, RC_RD(LAST) },
	/* a tail asked for again keeps its place in the whole read */
	{ "tail_from_middle", 5, 64, RC_RD(MIDDLE) },
	{ "tail_of_last_only", 63, 64, RC_RD(LAST) },
};

static void rc_read_opcode_case_desc(const struct rc_read_opcode_case *c,
				     char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rc_read_opcode, rc_read_opcode_cases,
		  rc_read_opcode_case_desc);

static void softrdma_rc_read_response_opcode(struct kunit *test)
{
	const struct rc_read_opcode_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, softrdma_rc_read_resp_opcode(c->idx, c->npsn),
			c->opcode);
}

/* syndromes as constants; softrdma_rc_ack_syndromes checks them */
#define RC_SYN(type, value)	((type) << SOFTRDMA_AETH_TYPE_SHIFT | (value))
#define RC_ACK(credits)		RC_SYN(SOFTRDMA_AETH_ACK, credits)
#define RC_RNR(timer)		RC_SYN(SOFTRDMA_AETH_RNR_NAK, timer)
#define RC_NAK(code)		RC_SYN(SOFTRDMA_AETH_NAK, code)
#define RC_RESERVED(value)	RC_SYN(SOFTRDMA_AETH_RESERVED, value)

struct rc_ack_case {
	const char *name;
	u8 syndrome;
	struct softrdma_rc_ack_ctx ctx;
	enum softrdma_rc_ack_action action;
	enum ib_wc_status status;	/* when the action fails the WQE */
};

static const struct rc_ack_case rc_ack_cases[] = {
	{ "ack", RC_ACK(0), { 7, 7, 7, false }, SOFTRDMA_RC_ACK_RETIRE },
	{ "ack_invalid_credits", RC_ACK(SOFTRDMA_AETH_CREDITS_INVALID),
	  { 0, 0, 0, true }, SOFTRDMA_RC_ACK_RETIRE },
	{ "rnr_retries_left", RC_RNR(14), { 3, 1, 7, false },
	  SOFTRDMA_RC_ACK_RNR_WAIT },
	{ "rnr_exhausted", RC_RNR(14), { 3, 0, 7, false },
	  SOFTRDMA_RC_ACK_RNR_EXCEEDED, IB_WC_RNR_RETRY_EXC_ERR },
	{ "rnr_no_retries_at_all", RC_RNR(0), { 0, 0, 7, false },
	  SOFTRDMA_RC_ACK_RNR_EXCEEDED, IB_WC_RNR_RETRY_EXC_ERR },
	{ "rnr_infinite", RC_RNR(1), { 7, 0, 0, false },
	  SOFTRDMA_RC_ACK_RNR_WAIT },
	{ "seq_go_back", RC_NAK(SOFTRDMA_NAK_PSN_SEQ_ERR), { 7, 7, 1, false },
	  SOFTRDMA_RC_ACK_GO_BACK },
	{ "seq_repeat_held", RC_NAK(SOFTRDMA_NAK_PSN_SEQ_ERR),
	  { 7, 7, 0, true }, SOFTRDMA_RC_ACK_HOLD },
	{ "seq_no_retry_left", RC_NAK(SOFTRDMA_NAK_PSN_SEQ_ERR),
	  { 7, 7, 0, false }, SOFTRDMA_RC_ACK_RETRY_EXCEEDED,
	  IB_WC_RETRY_EXC_ERR },
	{ "nak_invalid_request", RC_NAK(SOFTRDMA_NAK_INVALID_REQ),
	  { 7, 7, 7, false }, SOFTRDMA_RC_ACK_FATAL, IB_WC_REM_INV_REQ_ERR },
	{ "nak_remote_access", RC_NAK(SOFTRDMA_NAK_REM_ACCESS_ERR),
	  { 7, 7, 7, true }, SOFTRDMA_RC_ACK_FATAL, IB_WC_REM_ACCESS_ERR },
	{ "nak_remote_operational", RC_NAK(SOFTRDMA_NAK_REM_OP_ERR),
	  { 7, 7, 7, false }, SOFTRDMA_RC_ACK_FATAL, IB_WC_REM_OP_ERR },
	{ "nak_invalid_rd_request", RC_NAK(SOFTRDMA_NAK_INVALID_RD_REQ),
	  { 7, 7, 7, false }, SOFTRDMA_RC_ACK_FATAL,
	  IB_WC_REM_INV_RD_REQ_ERR },
	{ "nak_reserved_code", RC_NAK(5), { 7, 7, 7, false },
	  SOFTRDMA_RC_ACK_FATAL, IB_WC_REM_OP_ERR },
	{ "nak_reserved_code_31", RC_NAK(31), { 7, 7, 7, false },
	  SOFTRDMA_RC_ACK_FATAL, IB_WC_REM_OP_ERR },
	{ "reserved_type", RC_RESERVED(0), { 7, 7, 7, false },
	  SOFTRDMA_RC_ACK_INVALID },
	{ "reserved_type_with_value", RC_RESERVED(3), { 7, 7, 7, false },
	  SOFTRDMA_RC_ACK_INVALID },
};

static void rc_ack_case_desc(const struct rc_ack_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rc_ack, rc_ack_cases, rc_ack_case_desc);

static void softrdma_rc_ack_decision(struct kunit *test)
{
	const struct rc_ack_case *c = test->param_value;
	enum ib_wc_status status = IB_WC_SUCCESS;
	enum softrdma_rc_ack_action action;

	action = softrdma_rc_ack_decide(c->syndrome, &c->ctx, &status);
	KUNIT_EXPECT_EQ(test, action, c->action);
	KUNIT_EXPECT_EQ(test, status, c->status);
}

/* The test's syndrome constants are what the header's builders make */
static void softrdma_rc_ack_syndromes(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, RC_ACK(5), softrdma_aeth_syn_ack(5));
	KUNIT_EXPECT_EQ(test, RC_RNR(14), softrdma_aeth_syn_rnr_nak(14));
	KUNIT_EXPECT_EQ(test, RC_NAK(SOFTRDMA_NAK_REM_ACCESS_ERR),
			softrdma_aeth_syn_nak(SOFTRDMA_NAK_REM_ACCESS_ERR));
	KUNIT_EXPECT_EQ(test, softrdma_aeth_syn_type(RC_RESERVED(3)),
			SOFTRDMA_AETH_RESERVED);
}

struct rc_cwnd_case {
	const char *name;
	u32 cwnd;
	enum softrdma_rc_cwnd_event ev;
	u32 acked;
	u32 next;
};

static const struct rc_cwnd_case rc_cwnd_cases[] = {
	{ "ack_grows_by_acked", 4, SOFTRDMA_RC_CWND_ACKED, 3, 7 },
	{ "ack_capped_at_window", SOFTRDMA_RC_WINDOW - 1,
	  SOFTRDMA_RC_CWND_ACKED, 32, SOFTRDMA_RC_WINDOW },
	{ "ack_huge_count_capped", 4, SOFTRDMA_RC_CWND_ACKED, U32_MAX,
	  SOFTRDMA_RC_WINDOW },
	{ "ack_of_nothing", 10, SOFTRDMA_RC_CWND_ACKED, 0, 10 },
	{ "loss_halves", 64, SOFTRDMA_RC_CWND_LOSS, 0, 32 },
	{ "loss_floor", 5, SOFTRDMA_RC_CWND_LOSS, 0, SOFTRDMA_RC_CWND_MIN },
	{ "timeout_to_minimum", SOFTRDMA_RC_WINDOW, SOFTRDMA_RC_CWND_TIMEOUT,
	  0, SOFTRDMA_RC_CWND_MIN },
	{ "zero_is_raised", 0, SOFTRDMA_RC_CWND_ACKED, 0,
	  SOFTRDMA_RC_CWND_MIN },
};

static void rc_cwnd_case_desc(const struct rc_cwnd_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rc_cwnd, rc_cwnd_cases, rc_cwnd_case_desc);

static void softrdma_rc_cwnd(struct kunit *test)
{
	const struct rc_cwnd_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, softrdma_rc_cwnd_next(c->cwnd, c->ev, c->acked),
			c->next);
}

/*
 * The transport timer rule for RDMA READ responses (IBA 9.7.6.1.3): a
 * response that brings new data of an outstanding READ, in order or past
 * a gap, restarts the ACK timer; a duplicate of one placed before, or a
 * stale one, restarts nothing.  Each case is a stream of responses to
 * one READ as a requester sees it; PSNs are relative to the READ's first.
 */
#define RC_RD_NEXT	SOFTRDMA_RC_RD_NEXT
#define RC_RD_AHEAD	SOFTRDMA_RC_RD_AHEAD
#define RC_RD_DUP	SOFTRDMA_RC_RD_DUPLICATE
#define RC_RD_STALE	SOFTRDMA_RC_RD_STALE

struct rc_rd_step {
	u32 pkt;			/* the response's PSN */
	enum softrdma_rc_rd_class class;
	bool restart;			/* the ACK timer restarts */
	u32 una;			/* una_psn after it */
};

struct rc_rd_case {
	const char *name;
	u32 first;			/* the READ's first PSN */
	u32 npsn;			/* its responses */
	unsigned int nsteps;
	struct rc_rd_step steps[10];
};

static const struct rc_rd_case rc_rd_cases[] = {
	{ "in_order_each_restarts", 100, 4, 4, {
		{ 0, RC_RD_NEXT, true, 1 }, { 1, RC_RD_NEXT, true, 2 },
		{ 2, RC_RD_NEXT, true, 3 }, { 3, RC_RD_NEXT, true, 4 } } },
	{ "past_a_gap_new_data_restarts", 100, 8, 4, {
		{ 0, RC_RD_NEXT, true, 1 }, { 2, RC_RD_AHEAD, true, 1 },
		{ 3, RC_RD_AHEAD, true, 1 }, { 7, RC_RD_AHEAD, true, 1 } } },
	{ "duplicate_past_a_gap_does_not", 100, 8, 5, {
		{ 0, RC_RD_NEXT, true, 1 }, { 2, RC_RD_AHEAD, true, 1 },
		{ 2, RC_RD_DUP, false, 1 }, { 3, RC_RD_AHEAD, true, 1 },
		{ 2, RC_RD_DUP, false, 1 } } },
	{ "gap_filled_skips_what_came_first", 100, 8, 6, {
		{ 0, RC_RD_NEXT, true, 1 }, { 2, RC_RD_AHEAD, true, 1 },
		{ 3, RC_RD_AHEAD, true, 1 }, { 5, RC_RD_AHEAD, true, 1 },
		{ 1, RC_RD_NEXT, true, 4 }, { 4, RC_RD_NEXT, true, 6 } } },
	{ "replay_of_acknowledged_is_stale", 100, 8, 7, {
		{ 0, RC_RD_NEXT, true, 1 }, { 1, RC_RD_NEXT, true, 2 },
		{ 3, RC_RD_AHEAD, true, 2 }, { 2, RC_RD_NEXT, true, 4 },
		{ 0, RC_RD_STALE, false, 4 }, { 2, RC_RD_STALE, false, 4 },
		{ 3, RC_RD_STALE, false, 4 } } },
	{ "past_the_read_is_stale", 100, 4, 3, {
		{ 4, RC_RD_STALE, false, 0 }, { 9, RC_RD_STALE, false, 0 },
		{ 0, RC_RD_NEXT, true, 1 } } },
	{ "psn_wrap", PSN_MASK - 2, 8, 8, {
		{ 0, RC_RD_NEXT, true, 1 }, { 3, RC_RD_AHEAD, true, 1 },
		{ 4, RC_RD_AHEAD, true, 1 }, { 4, RC_RD_DUP, false, 1 },
		{ 1, RC_RD_NEXT, true, 2 }, { 2, RC_RD_NEXT, true, 5 },
		{ 0, RC_RD_STALE, false, 5 }, { 5, RC_RD_NEXT, true, 6 } } },
	{ "last_first_then_the_rest", 100, 4, 5, {
		{ 3, RC_RD_AHEAD, true, 0 }, { 3, RC_RD_DUP, false, 0 },
		{ 0, RC_RD_NEXT, true, 1 }, { 1, RC_RD_NEXT, true, 2 },
		{ 2, RC_RD_NEXT, true, 4 } } },
	/* past the PSNs it notes, a requester cannot tell a duplicate */
	{ "tracked_then_untracked", 0, SOFTRDMA_RC_RD_TRACK + 8, 5, {
		{ SOFTRDMA_RC_RD_TRACK - 1, RC_RD_AHEAD, true, 0 },
		{ SOFTRDMA_RC_RD_TRACK - 1, RC_RD_DUP, false, 0 },
		{ SOFTRDMA_RC_RD_TRACK, RC_RD_AHEAD, true, 0 },
		{ SOFTRDMA_RC_RD_TRACK, RC_RD_AHEAD, true, 0 },
		{ 0, RC_RD_NEXT, true, 1 } } },
};

static void rc_rd_case_desc(const struct rc_rd_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rc_rd, rc_rd_cases, rc_rd_case_desc);

static void softrdma_rc_read_response_timer(struct kunit *test)
{
	const struct rc_rd_case *c = test->param_value;
	u32 una = c->first, end = psn_add(c->first, c->npsn), psn;
	struct softrdma_rc_rd_ahead *ahead;
	enum softrdma_rc_rd_class class;
	unsigned int i;

	ahead = kunit_kzalloc(test, sizeof(*ahead), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ahead);
	for (i = 0; i < c->nsteps; i++) {
		const struct rc_rd_step *step = &c->steps[i];

		psn = psn_add(c->first, step->pkt);
		class = softrdma_rc_rd_classify(ahead, psn, una, end);
		KUNIT_EXPECT_EQ_MSG(test, class, step->class, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, softrdma_rc_rd_restarts_timer(class),
				    step->restart, "step %u", i);
		if (class == SOFTRDMA_RC_RD_NEXT)
			una = softrdma_rc_rd_advance(ahead, psn_add(psn, 1));
		else if (class == SOFTRDMA_RC_RD_AHEAD)
			softrdma_rc_rd_note(ahead, psn, una);
		KUNIT_EXPECT_EQ_MSG(test, una, psn_add(c->first, step->una),
				    "step %u", i);
	}
	/* what una_psn passed is forgotten: nothing is left noted behind */
	if (una == end)
		KUNIT_EXPECT_EQ(test, ahead->count, 0);
}

/*
 * IBA 9.7.6.1.3 after a READ was asked for again: the answer, arriving in
 * PSN order, restarts the ACK timer even where it repeats responses the
 * requester holds (its original responses were late, not lost); an older
 * answer, a response out of order, one past what was asked or a third
 * copy restart nothing.  Each step is a response, or (ask) the
 * requester asking again from una_psn for @n PSNs.  PSNs are relative to
 * the READ's first.
 */
struct rc_replay_step {
	bool ask;
	u32 pkt;			/* the response's PSN, or ask's count */
	enum softrdma_rc_rd_class class;
	bool restart;			/* the ACK timer restarts */
};

struct rc_replay_case {
	const char *name;
	u32 first;			/* the READ's first PSN */
	u32 npsn;			/* its responses */
	unsigned int nsteps;
	struct rc_replay_step steps[16];
};

#define RC_ASK(n)	{ true, n, 0, false }

static const struct rc_replay_case rc_replay_cases[] = {
	/* the storm: a late tail taken for lost, then its answer */
	{ "late_original_then_its_answer", 100, 8, 12, {
		{ false, 0, RC_RD_NEXT, true }, RC_ASK(7),
		{ false, 1, RC_RD_NEXT, true }, { false, 2, RC_RD_NEXT, true },
		{ false, 3, RC_RD_NEXT, true }, { false, 1, RC_RD_STALE, true },
		{ false, 2, RC_RD_STALE, true }, { false, 3, RC_RD_STALE, true },
		{ false, 4, RC_RD_NEXT, true }, { false, 5, RC_RD_NEXT, true },
		{ false, 2, RC_RD_STALE, false },
		{ false, 6, RC_RD_NEXT, true } } },
	{ "each_psn_restarts_once", 100, 8, 7, {
		{ false, 0, RC_RD_NEXT, true }, { false, 1, RC_RD_NEXT, true },
		RC_ASK(6), { false, 1, RC_RD_STALE, false },
		{ false, 2, RC_RD_NEXT, true }, { false, 2, RC_RD_STALE, true },
		{ false, 2, RC_RD_STALE, false } } },
	{ "out_of_order_restarts_nothing", 100, 8, 8, {
		{ false, 0, RC_RD_NEXT, true }, RC_ASK(7),
		{ false, 1, RC_RD_NEXT, true }, { false, 2, RC_RD_NEXT, true },
		{ false, 2, RC_RD_STALE, true }, { false, 1, RC_RD_STALE, false },
		{ false, 1, RC_RD_STALE, false },
		{ false, 3, RC_RD_NEXT, true } } },
	{ "older_answer_restarts_nothing", 100, 8, 9, {
		RC_ASK(8), { false, 0, RC_RD_NEXT, true },
		{ false, 1, RC_RD_NEXT, true }, RC_ASK(6),
		{ false, 0, RC_RD_STALE, false },
		{ false, 1, RC_RD_STALE, false },
		{ false, 2, RC_RD_NEXT, true }, { false, 2, RC_RD_STALE, true },
		{ false, 3, RC_RD_NEXT, true } } },
	{ "nothing_asked_nothing_restarts", 100, 4, 4, {
		{ false, 0, RC_RD_NEXT, true }, { false, 1, RC_RD_NEXT, true },
		{ false, 0, RC_RD_STALE, false },
		{ false, 1, RC_RD_STALE, false } } },
	/* the answer goes on after the READ is complete: the next waits */
	{ "answer_drains_after_the_read", 100, 4, 9, {
		{ false, 0, RC_RD_NEXT, true }, RC_ASK(3),
		{ false, 1, RC_RD_NEXT, true }, { false, 2, RC_RD_NEXT, true },
		{ false, 3, RC_RD_NEXT, true }, { false, 1, RC_RD_STALE, true },
		{ false, 2, RC_RD_STALE, true }, { false, 3, RC_RD_STALE, true },
		{ false, 3, RC_RD_STALE, false } } },
	{ "not_past_what_was_asked", 100, 8, 8, {
		{ false, 0, RC_RD_NEXT, true }, RC_ASK(2),
		{ false, 1, RC_RD_NEXT, true }, { false, 2, RC_RD_NEXT, true },
		{ false, 3, RC_RD_NEXT, true }, { false, 1, RC_RD_STALE, true },
		{ false, 2, RC_RD_STALE, true },
		{ false, 3, RC_RD_STALE, false } } },
	/* asked for half the PSN space or more: an older response is none */
	{ "ask_half_the_psn_space", 100, 8, 7, {
		{ false, 0, RC_RD_NEXT, true }, RC_ASK(PSN_HALF),
		{ false, 1, RC_RD_NEXT, true },
		{ false, 0, RC_RD_STALE, false },
		{ false, 1, RC_RD_STALE, true },
		{ false, 1, RC_RD_STALE, false },
		{ false, 2, RC_RD_NEXT, true } } },
	{ "ask_the_whole_psn_space", 100, 8, 7, {
		{ false, 0, RC_RD_NEXT, true }, RC_ASK(PSN_MASK),
		{ false, 1, RC_RD_NEXT, true },
		{ false, 0, RC_RD_STALE, false },
		{ false, 1, RC_RD_STALE, true },
		{ false, 1, RC_RD_STALE, false },
		{ false, 2, RC_RD_NEXT, true } } },
	{ "psn_wrap", PSN_MASK - 1, 6, 7, {
		{ false, 0, RC_RD_NEXT, true }, RC_ASK(5),
		{ false, 1, RC_RD_NEXT, true }, { false, 2, RC_RD_NEXT, true },
		{ false, 1, RC_RD_STALE, true }, { false, 2, RC_RD_STALE, true },
		{ false, 3, RC_RD_NEXT, true } } },
};

static void rc_replay_case_desc(const struct rc_replay_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rc_replay, rc_replay_cases, rc_replay_case_desc);

/* As the completer decides: new data of the READ, or its answer arriving */
static void softrdma_rc_read_replay_timer(struct kunit *test)
{
	const struct rc_replay_case *c = test->param_value;
	u32 una = c->first, end = psn_add(c->first, c->npsn), psn;
	struct softrdma_rc_rd_replay replay = {};
	struct softrdma_rc_rd_ahead *ahead;
	enum softrdma_rc_rd_class class;
	bool restart, step_on;
	unsigned int i;

	ahead = kunit_kzalloc(test, sizeof(*ahead), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ahead);
	for (i = 0; i < c->nsteps; i++) {
		const struct rc_replay_step *step = &c->steps[i];

		if (step->ask) {
			softrdma_rc_rd_replay_start(&replay, una, step->pkt);
			continue;
		}
		psn = psn_add(c->first, step->pkt);
		class = softrdma_rc_rd_classify(ahead, psn, una, end);
		KUNIT_EXPECT_EQ_MSG(test, class, step->class, "step %u", i);
		/* only a response it drops is looked at */
		step_on = !softrdma_rc_rd_restarts_timer(class) &&
			  softrdma_rc_rd_replay_step(&replay, psn);
		restart = softrdma_rc_rd_restarts_timer(class) || step_on;
		KUNIT_EXPECT_EQ_MSG(test, restart, step->restart, "step %u", i);
		if (class == SOFTRDMA_RC_RD_NEXT)
			una = softrdma_rc_rd_advance(ahead, psn_add(psn, 1));
		else if (class == SOFTRDMA_RC_RD_AHEAD)
			softrdma_rc_rd_note(ahead, psn, una);
	}
}

/* What a requester asks for again: the gap alone, or the rest */
struct rc_rd_gap_case {
	const char *name;
	u32 una;
	u32 end;
	u32 noted[4];
	unsigned int nnoted;
	u32 psn;
	u32 gap;
};

static const struct rc_rd_gap_case rc_rd_gap_cases[] = {
	{ "nothing_noted_the_rest", 10, 20, {}, 0, 10, 10 },
	{ "up_to_the_first_noted", 10, 20, { 13, 14, 17 }, 3, 10, 3 },
	{ "between_two_noted", 10, 20, { 13, 14, 17 }, 3, 15, 2 },
	{ "after_the_last_noted", 10, 20, { 13, 14, 17 }, 3, 18, 2 },
	{ "one_missing", 10, 20, { 11 }, 1, 10, 1 },
	{ "wrap", PSN_MASK - 1, 6, { 2 }, 1, PSN_MASK - 1, 4 },
	{ "at_the_end", 10, 20, {}, 0, 20, 0 },
	{ "behind_una_the_rest", 10, 20, { 13 }, 1, 8, 12 },
};

static void rc_rd_gap_case_desc(const struct rc_rd_gap_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rc_rd_gap, rc_rd_gap_cases, rc_rd_gap_case_desc);

static void softrdma_rc_read_gap(struct kunit *test)
{
	const struct rc_rd_gap_case *c = test->param_value;
	struct softrdma_rc_rd_ahead *ahead;
	unsigned int i;

	ahead = kunit_kzalloc(test, sizeof(*ahead), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ahead);
	for (i = 0; i < c->nnoted; i++)
		softrdma_rc_rd_note(ahead, c->noted[i], c->una);
	KUNIT_EXPECT_EQ(test, ahead->count, c->nnoted);
	KUNIT_EXPECT_EQ(test, softrdma_rc_rd_gap(ahead, c->psn, c->una, c->end),
			c->gap);
	softrdma_rc_rd_forget(ahead);
	KUNIT_EXPECT_EQ(test, ahead->count, 0);
	KUNIT_EXPECT_TRUE(test, bitmap_empty(ahead->seen, SOFTRDMA_RC_RD_TRACK));
}

#define REQ(x)	SOFTRDMA_RC_REQ_##x
#define RESP(x)	SOFTRDMA_RC_RESP_##x

struct rc_move_case {
	const char *name;
	unsigned int from;
	unsigned int to;
	bool ok;
};

static const struct rc_move_case rc_req_move_cases[] = {
	/* started: RTR waits for RTS, RTS sends (IBA 10.3.1) */
	{ "stopped_to_idle", REQ(STOPPED), REQ(IDLE), true },
	{ "stopped_to_running", REQ(STOPPED), REQ(RUNNING), true },
	{ "idle_to_running", REQ(IDLE), REQ(RUNNING), true },
	{ "idle_never_pauses", REQ(IDLE), REQ(PAUSED), false },
	{ "idle_never_rnr_waits", REQ(IDLE), REQ(RNR_WAIT), false },
	{ "idle_never_fails", REQ(IDLE), REQ(FAILED), false },
	{ "stopped_not_paused", REQ(STOPPED), REQ(PAUSED), false },
	{ "stopped_not_failed", REQ(STOPPED), REQ(FAILED), false },
	/* waiting and back */
	{ "running_to_paused", REQ(RUNNING), REQ(PAUSED), true },
	{ "paused_to_running", REQ(PAUSED), REQ(RUNNING), true },
	{ "running_to_rnr_wait", REQ(RUNNING), REQ(RNR_WAIT), true },
	{ "paused_to_rnr_wait", REQ(PAUSED), REQ(RNR_WAIT), true },
	{ "rnr_wait_to_running", REQ(RNR_WAIT), REQ(RUNNING), true },
	{ "rnr_wait_not_paused", REQ(RNR_WAIT), REQ(PAUSED), false },
	{ "running_not_idle", REQ(RUNNING), REQ(IDLE), false },
	/* failing: only from a requester that had a connection */
	{ "running_to_failed", REQ(RUNNING), REQ(FAILED), true },
	{ "paused_to_failed", REQ(PAUSED), REQ(FAILED), true },
	{ "rnr_wait_to_failed", REQ(RNR_WAIT), REQ(FAILED), true },
	{ "failed_not_restarted", REQ(FAILED), REQ(RUNNING), false },
	{ "failed_not_idle", REQ(FAILED), REQ(IDLE), false },
	{ "failed_not_paused", REQ(FAILED), REQ(PAUSED), false },
	/* teardown */
	{ "running_to_stopped", REQ(RUNNING), REQ(STOPPED), true },
	{ "paused_to_stopped", REQ(PAUSED), REQ(STOPPED), true },
	{ "rnr_wait_to_stopped", REQ(RNR_WAIT), REQ(STOPPED), true },
	{ "failed_to_stopped", REQ(FAILED), REQ(STOPPED), true },
	{ "idle_to_stopped", REQ(IDLE), REQ(STOPPED), true },
	/* out of range */
	{ "from_out_of_range", REQ(NR_STATES), REQ(STOPPED), false },
	{ "to_out_of_range", REQ(RUNNING), REQ(NR_STATES), false },
};

static const struct rc_move_case rc_resp_move_cases[] = {
	{ "stopped_to_running", RESP(STOPPED), RESP(RUNNING), true },
	{ "stopped_not_reading", RESP(STOPPED), RESP(READING), false },
	{ "stopped_not_failed", RESP(STOPPED), RESP(FAILED), false },
	/* an RDMA READ answered (IBA 9.7.5.1.3) */
	{ "running_to_reading", RESP(RUNNING), RESP(READING), true },
	{ "reading_to_running", RESP(READING), RESP(RUNNING), true },
	/* a class C error (IBA 9.9.3.1.3) */
	{ "running_to_failed", RESP(RUNNING), RESP(FAILED), true },
	{ "reading_to_failed", RESP(READING), RESP(FAILED), true },
	{ "failed_not_running", RESP(FAILED), RESP(RUNNING), false },
	{ "failed_not_reading", RESP(FAILED), RESP(READING), false },
	/* teardown */
	{ "running_to_stopped", RESP(RUNNING), RESP(STOPPED), true },
	{ "reading_to_stopped", RESP(READING), RESP(STOPPED), true },
	{ "failed_to_stopped", RESP(FAILED), RESP(STOPPED), true },
	/* out of range */
	{ "from_out_of_range", RESP(NR_STATES), RESP(STOPPED), false },
	{ "to_out_of_range", RESP(RUNNING), RESP(NR_STATES), false },
};

static void rc_move_case_desc(const struct rc_move_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rc_req_move, rc_req_move_cases, rc_move_case_desc);
KUNIT_ARRAY_PARAM(rc_resp_move, rc_resp_move_cases, rc_move_case_desc);

static void softrdma_rc_req_move_table(struct kunit *test)
{
	const struct rc_move_case *c = test->param_value;

	KUNIT_EXPECT_EQ_MSG(test, softrdma_rc_req_may_move(c->from, c->to),
			    c->ok, "%s -> %s",
			    softrdma_rc_req_state_name(c->from),
			    softrdma_rc_req_state_name(c->to));
}

static void softrdma_rc_resp_move_table(struct kunit *test)
{
	const struct rc_move_case *c = test->param_value;

	KUNIT_EXPECT_EQ_MSG(test, softrdma_rc_resp_may_move(c->from, c->to),
			    c->ok, "%s -> %s",
			    softrdma_rc_resp_state_name(c->from),
			    softrdma_rc_resp_state_name(c->to));
}

/*
 * What the table says of every state: each but STOPPED stops, none moves
 * to itself (staying is not a move), each is reachable from STOPPED, and
 * each has its own name.
 */
static void rc_machine_check(struct kunit *test, unsigned int n,
			     bool (*may)(unsigned int, unsigned int),
			     const char *(*name)(unsigned int))
{
	unsigned long seen = BIT(0), prev = 0;
	unsigned int s, t;

	for (s = 0; s < n; s++) {
		KUNIT_EXPECT_EQ_MSG(test, may(s, 0), s != 0, "%s to %s",
				    name(s), name(0));
		KUNIT_EXPECT_FALSE_MSG(test, may(s, s), "%s", name(s));
		KUNIT_EXPECT_STRNEQ(test, name(s), "?");
		for (t = 0; t < s; t++)
			KUNIT_EXPECT_STRNEQ(test, name(s), name(t));
	}
	KUNIT_EXPECT_STREQ(test, name(n), "?");
	while (seen != prev) {
		prev = seen;
		for (s = 0; s < n; s++)
			for (t = 0; t < n; t++)
				if ((prev & BIT(s)) && may(s, t))
					seen |= BIT(t);
	}
	KUNIT_EXPECT_EQ(test, seen, GENMASK(n - 1, 0));
}

static bool rc_req_may(unsigned int from, unsigned int to)
{
	return softrdma_rc_req_may_move(from, to);
}

static const char *rc_req_name(unsigned int state)
{
	return softrdma_rc_req_state_name(state);
}

static bool rc_resp_may(unsigned int from, unsigned int to)
{
	return softrdma_rc_resp_may_move(from, to);
}

static const char *rc_resp_name(unsigned int state)
{
	return softrdma_rc_resp_state_name(state);
}

static void softrdma_rc_req_machine(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, REQ(STOPPED), 0);
	rc_machine_check(test, REQ(NR_STATES), rc_req_may, rc_req_name);
	KUNIT_EXPECT_STREQ(test, rc_req_name(REQ(RNR_WAIT)), "RNR_WAIT");
}

static void softrdma_rc_resp_machine(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, RESP(STOPPED), 0);
	rc_machine_check(test, RESP(NR_STATES), rc_resp_may, rc_resp_name);
	KUNIT_EXPECT_STREQ(test, rc_resp_name(RESP(READING)), "READING");
}

/* Responses are taken and the ACK timer runs in these states only */
static void softrdma_rc_req_active_states(struct kunit *test)
{
	static const bool active[] = {
		[REQ(STOPPED)] = false,
		[REQ(IDLE)] = false,
		[REQ(RUNNING)] = true,
		[REQ(PAUSED)] = true,
		[REQ(RNR_WAIT)] = true,
		[REQ(FAILED)] = false,
	};
	unsigned int s;

	static_assert(ARRAY_SIZE(active) == REQ(NR_STATES));
	for (s = 0; s < REQ(NR_STATES); s++)
		KUNIT_EXPECT_EQ_MSG(test, softrdma_rc_req_active(s), active[s],
				    "%s", rc_req_name(s));
}

/*
 * The move helpers on a QP, through a life of each engine: every legal
 * move is made, staying is no move.  (A refused move warns, which fails a
 * case here: the tables above test those.)
 */
static void softrdma_rc_move_helpers(struct kunit *test)
{
	static const unsigned int req_walk[][2] = {
		/* asked for, found after */
		{ REQ(STOPPED), REQ(STOPPED) },
		{ REQ(IDLE), REQ(IDLE) },
		{ REQ(RUNNING), REQ(RUNNING) },
		{ REQ(RUNNING), REQ(RUNNING) },
		{ REQ(PAUSED), REQ(PAUSED) },
		{ REQ(RNR_WAIT), REQ(RNR_WAIT) },
		{ REQ(RUNNING), REQ(RUNNING) },
		{ REQ(FAILED), REQ(FAILED) },
		{ REQ(STOPPED), REQ(STOPPED) },
	};
	static const unsigned int resp_walk[][2] = {
		{ RESP(RUNNING), RESP(RUNNING) },
		{ RESP(READING), RESP(READING) },
		{ RESP(RUNNING), RESP(RUNNING) },
		{ RESP(READING), RESP(READING) },
		{ RESP(FAILED), RESP(FAILED) },
		{ RESP(STOPPED), RESP(STOPPED) },
	};
	struct softrdma_roce_qp *rqp;
	struct softrdma_qp *qp;
	unsigned int i;

	rqp = kunit_kzalloc(test, sizeof(*rqp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rqp);
	qp = &rqp->qp;
	spin_lock_init(&qp->sq.lock);
	spin_lock_init(&qp->rq.lock);
	KUNIT_EXPECT_EQ(test, rqp->rc.req_state, REQ(STOPPED));
	KUNIT_EXPECT_EQ(test, rqp->rc.resp_state, RESP(STOPPED));

	spin_lock_bh(&qp->sq.lock);
	for (i = 0; i < ARRAY_SIZE(req_walk); i++) {
		softrdma_rc_req_move(qp, req_walk[i][0]);
		KUNIT_EXPECT_EQ_MSG(test, rqp->rc.req_state, req_walk[i][1],
				    "step %u: to %s", i,
				    rc_req_name(req_walk[i][0]));
	}
	spin_unlock_bh(&qp->sq.lock);

	spin_lock_bh(&qp->rq.lock);
	for (i = 0; i < ARRAY_SIZE(resp_walk); i++) {
		softrdma_rc_resp_move(qp, resp_walk[i][0]);
		KUNIT_EXPECT_EQ_MSG(test, rqp->rc.resp_state, resp_walk[i][1],
				    "step %u: to %s", i,
				    rc_resp_name(resp_walk[i][0]));
	}
	spin_unlock_bh(&qp->rq.lock);
}

/*
 * The receive WQE a message in progress holds (RC mid-message, UC after
 * a message dropped part-way) goes to ERR's flush exactly once, by its
 * wr_id, before the ring's WQEs (qp_engine.release_rwqe); with none held
 * the flush has nothing of the engine's to complete.
 */
static void softrdma_rc_release_rwqe_once(struct kunit *test)
{
	struct softrdma_roce_qp *rqp;
	struct softrdma_qp *qp;
	u64 wr_id = 0;
	bool held;

	rqp = kunit_kzalloc(test, sizeof(*rqp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rqp);
	qp = &rqp->qp;
	spin_lock_init(&qp->rq.lock);

	spin_lock_bh(&qp->rq.lock);
	held = softrdma_rc_release_rwqe(qp, &wr_id);
	spin_unlock_bh(&qp->rq.lock);
	KUNIT_EXPECT_FALSE(test, held);
	KUNIT_EXPECT_EQ(test, wr_id, 0ULL);

	/* a SEND First took WQE 0x5eed and holds it, 100 bytes in */
	rqp->rc.rwqe.wr_id = 0x5eed;
	rqp->rc.have_rwqe = true;
	rqp->rc.rcv_len = 100;
	spin_lock_bh(&qp->rq.lock);
	held = softrdma_rc_release_rwqe(qp, &wr_id);
	spin_unlock_bh(&qp->rq.lock);
	KUNIT_EXPECT_TRUE(test, held);
	KUNIT_EXPECT_EQ(test, wr_id, 0x5eedULL);
	KUNIT_EXPECT_FALSE(test, rqp->rc.have_rwqe);

	/* released: a second flush must not complete it again */
	wr_id = 0;
	spin_lock_bh(&qp->rq.lock);
	held = softrdma_rc_release_rwqe(qp, &wr_id);
	spin_unlock_bh(&qp->rq.lock);
	KUNIT_EXPECT_FALSE(test, held);
	KUNIT_EXPECT_EQ(test, wr_id, 0ULL);
}

struct sq_drained_case {
	const char *name;
	enum ib_qp_state state;
	bool notify;		/* IB_QP_EN_SQD_ASYNC_NOTIFY set */
	u32 fetched;		/* WQEs started and not yet completed */
	/* the last of them retired between the move to SQD and the drain */
	bool retired_first;
	int at_drain;		/* SQ_DRAINED events when SQD is entered */
	int at_last;		/* ... and after the last completion */
};

static const struct sq_drained_case sq_drained_cases[] = {
	{ "sqd_empty", IB_QPS_SQD, true, 0, false, 1, 1 },
	{ "sqd_outstanding_then_done", IB_QPS_SQD, true, 2, false, 0, 1 },
	{ "sqd_done_before_the_drain", IB_QPS_SQD, true, 1, true, 1, 1 },
	{ "sqd_not_asked", IB_QPS_SQD, false, 0, false, 0, 0 },
	{ "rts_empty", IB_QPS_RTS, true, 0, false, 0, 0 },
};

static void sq_drained_case_desc(const struct sq_drained_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sq_drained, sq_drained_cases, sq_drained_case_desc);

struct sq_drained_seen {
	struct softrdma_qp *qp;
	int events;		/* SQ_DRAINED; any other event: -100 */
	int locked;		/* raised with sq.lock held */
};

static void sq_drained_handler(struct ib_event *event, void *ctx)
{
	struct sq_drained_seen *seen = ctx;

	/* a consumer may post from here: the SQ must not be locked */
	if (spin_trylock_bh(&seen->qp->sq.lock))
		spin_unlock_bh(&seen->qp->sq.lock);
	else
		seen->locked++;
	if (event->event == IB_EVENT_SQ_DRAINED)
		seen->events++;
	else
		seen->events = -100;
}

/* The completer retires the last WQE: what every such sq.lock section does */
static void sq_drained_retire(struct softrdma_qp *qp)
{
	bool raise;

	spin_lock_bh(&qp->sq.lock);
	qp->sq.fetched = 0;
	softrdma_rc_sq_drained(qp);
	raise = softrdma_rc_sq_drained_take(qp);
	spin_unlock_bh(&qp->sq.lock);
	if (raise)
		softrdma_qp_sq_drained_event(qp);
}

/*
 * IBA 10.3.1, 11.6.3.1: SQ Drained follows a move to SQD once no WQE the
 * requester started is outstanding, once per drain, only if asked for,
 * and with sq.lock dropped.
 */
static void softrdma_rc_sq_drained_event(struct kunit *test)
{
	const struct sq_drained_case *c = test->param_value;
	struct sq_drained_seen seen = {};
	struct softrdma_roce_qp *rqp;
	struct softrdma_qp *qp;

	rqp = kunit_kzalloc(test, sizeof(*rqp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rqp);
	qp = &rqp->qp;
	seen.qp = qp;
	mutex_init(&qp->state_mutex);
	spin_lock_init(&qp->sq.lock);
	spin_lock_init(&qp->rq.lock);
	qp->ibqp.event_handler = sq_drained_handler;
	qp->ibqp.qp_context = &seen;
	qp->attr.en_sqd_async_notify = c->notify;
	qp->state = c->state;
	qp->sq.fetched = c->fetched;
	rqp->rc.req_state = SOFTRDMA_RC_REQ_RUNNING;

	if (c->retired_first)
		sq_drained_retire(qp);
	mutex_lock(&qp->state_mutex);
	softrdma_rc_drain(qp);
	mutex_unlock(&qp->state_mutex);
	KUNIT_EXPECT_EQ(test, seen.events, c->at_drain);

	/* the completer retires what was outstanding, then more ACKs come */
	sq_drained_retire(qp);
	sq_drained_retire(qp);
	KUNIT_EXPECT_EQ(test, seen.events, c->at_last);
	KUNIT_EXPECT_EQ(test, seen.locked, 0);
}

/* IBA 9.7.5.1.3 - 9.7.5.1.5, IBA 1.5 9.4.8-9: a response and its request */
struct rc_fits_case {
	const char *name;
	u32 wr_opcode;
	u8 opcode;		/* the response's */
	u32 idx;
	u32 npsn;
	u32 payload;
	u32 length;		/* the request's */
	bool fits;
};

#define FITS_MTU	1024

static const struct rc_fits_case rc_fits_cases[] = {
	{ "read_only", IB_WR_RDMA_READ, RC_RD(ONLY), 0, 1, 100, 100, true },
	{ "read_zero_length", IB_WR_RDMA_READ, RC_RD(ONLY), 0, 1, 0, 0,
	  true },
	{ "read_first", IB_WR_RDMA_READ, RC_RD(FIRST), 0, 3, 1024, 3000,
	  true },
	{ "read_middle", IB_WR_RDMA_READ, RC_RD(MIDDLE), 1, 3, 1024, 3000,
	  true },
	{ "read_last", IB_WR_RDMA_READ, RC_RD(LAST), 2, 3, 952, 3000, true },
	{ "read_last_full_mtu", IB_WR_RDMA_READ, RC_RD(LAST), 2, 3, 1024,
	  3072, true },
	/* a tail asked for again, answered as a read of its own */
	{ "reread_first_in_middle", IB_WR_RDMA_READ, RC_RD(FIRST), 1, 3,
	  1024, 3000, true },
	{ "reread_last_before_end", IB_WR_RDMA_READ, RC_RD(LAST), 1, 3, 1024,
	  3000, true },
	{ "reread_only_at_end", IB_WR_RDMA_READ, RC_RD(ONLY), 2, 3, 952, 3000,
	  true },
	{ "reread_only_at_start", IB_WR_RDMA_READ, RC_RD(ONLY), 0, 3, 1024,
	  3000, true },
	/* out of the read's packet order */
	{ "middle_at_first", IB_WR_RDMA_READ, RC_RD(MIDDLE), 0, 3, 1024, 3000,
	  false },
	{ "middle_at_last", IB_WR_RDMA_READ, RC_RD(MIDDLE), 2, 3, 952, 3000,
	  false },
	{ "last_at_first", IB_WR_RDMA_READ, RC_RD(LAST), 0, 3, 1024, 3000,
	  false },
	{ "first_at_last", IB_WR_RDMA_READ, RC_RD(FIRST), 2, 3, 952, 3000,
	  false },
	{ "first_of_one", IB_WR_RDMA_READ, RC_RD(FIRST), 0, 1, 100, 100,
	  false },
	{ "past_the_read", IB_WR_RDMA_READ, RC_RD(MIDDLE), 3, 3, 1024, 3000,
	  false },
	/* the wrong length */
	{ "middle_short", IB_WR_RDMA_READ, RC_RD(MIDDLE), 1, 3, 1000, 3000,
	  false },
	{ "last_short", IB_WR_RDMA_READ, RC_RD(LAST), 2, 3, 900, 3000,
	  false },
	{ "last_long", IB_WR_RDMA_READ, RC_RD(LAST), 2, 3, 1024, 3000,
	  false },
	{ "only_long", IB_WR_RDMA_READ, RC_RD(ONLY), 0, 1, 101, 100, false },
	{ "zero_length_with_payload", IB_WR_RDMA_READ, RC_RD(ONLY), 0, 1, 4,
	  0, false },
	/* atomics */
	{ "atomic_ack_cmp_swp", IB_WR_ATOMIC_CMP_AND_SWP,
	  IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE, 0, 1, 0, 8, true },
	{ "atomic_ack_fetch_add", IB_WR_ATOMIC_FETCH_AND_ADD,
	  IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE, 0, 1, 0, 8, true },
	{ "atomic_ack_with_payload", IB_WR_ATOMIC_FETCH_AND_ADD,
	  IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE, 0, 1, 8, 8, false },
	{ "atomic_ack_for_read", IB_WR_RDMA_READ,
	  IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE, 0, 1, 0, 8, false },
	{ "read_response_for_atomic", IB_WR_ATOMIC_CMP_AND_SWP, RC_RD(ONLY),
	  0, 1, 8, 8, false },
	/* requests answered by an ACK only */
	{ "read_response_for_send", IB_WR_SEND, RC_RD(ONLY), 0, 1, 100, 100,
	  false },
	{ "atomic_ack_for_write", IB_WR_RDMA_WRITE,
	  IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE, 0, 1, 0, 8, false },
	/* IBA 1.5: an empty READ Response Only and nothing else */
	{ "atomic_write_answered", SOFTRDMA_WR_ATOMIC_WRITE, RC_RD(ONLY), 0,
	  1, 0, 8, true },
	{ "atomic_write_with_payload", SOFTRDMA_WR_ATOMIC_WRITE, RC_RD(ONLY),
	  0, 1, 8, 8, false },
	{ "atomic_write_read_last", SOFTRDMA_WR_ATOMIC_WRITE, RC_RD(LAST), 0,
	  1, 0, 8, false },
	{ "flush_answered", SOFTRDMA_WR_FLUSH, RC_RD(ONLY), 0, 1, 0, 0,
	  true },
	{ "flush_read_first", SOFTRDMA_WR_FLUSH, RC_RD(FIRST), 0, 1, 0, 0,
	  false },
	{ "flush_atomic_ack", SOFTRDMA_WR_FLUSH,
	  IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE, 0, 1, 0, 0, false },
};

static void rc_fits_case_desc(const struct rc_fits_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rc_fits, rc_fits_cases, rc_fits_case_desc);

static void softrdma_rc_response_fits(struct kunit *test)
{
	const struct rc_fits_case *c = test->param_value;
	u32 flags = softrdma_roce_opcode(c->opcode)->flags;

	KUNIT_EXPECT_EQ(test, softrdma_rc_resp_fits(c->wr_opcode, flags,
						    c->idx, c->npsn,
						    c->payload, c->length,
						    FITS_MTU),
			c->fits);
}

/*
 * The completer finds the request a response's PSN belongs to among those
 * outstanding, across the PSN wrap, and leaves duplicates of finished
 * ones and PSNs of no request to the paths that drop those.
 */
#define SQ_SLOTS	8
#define SQ_PSN0		0xfffffeU	/* the second WQE wraps */

static const struct {
	u32 opcode;
	u32 length;
	bool done;
} rc_sq_layout[] = {
	{ IB_WR_SEND, 2000 },			/* PSNs 0xfffffe, 0xffffff */
	{ IB_WR_RDMA_READ, 3000 },		/* 0, 1, 2 */
	{ IB_WR_LOCAL_INV, 0 },			/* none */
	{ IB_WR_ATOMIC_CMP_AND_SWP, 8 },	/* 3 */
	{ IB_WR_RDMA_READ, 100, true },		/* 4, answered */
	{ SOFTRDMA_WR_FLUSH, 0 },		/* 5 */
};

struct rc_comp_fits_case {
	const char *name;
	u32 psn;
	u8 opcode;
	u32 payload;
	bool fits;
};

static const struct rc_comp_fits_case rc_comp_fits_cases[] = {
	{ "read_first", 0, RC_RD(FIRST), 1024, true },
	{ "read_middle", 1, RC_RD(MIDDLE), 1024, true },
	{ "read_last", 2, RC_RD(LAST), 952, true },
	{ "read_last_at_first", 0, RC_RD(LAST), 1024, false },
	{ "read_middle_short", 1, RC_RD(MIDDLE), 512, false },
	{ "read_response_at_send", 0xfffffe, RC_RD(ONLY), 1024, false },
	{ "read_response_at_send_wrapped", 0xffffff, RC_RD(LAST), 976,
	  false },
	{ "atomic_ack", 3, IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE, 0, true },
	{ "read_response_at_atomic", 3, RC_RD(ONLY), 8, false },
	{ "atomic_ack_at_read", 1, IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE, 0,
	  false },
	{ "duplicate_of_answered_read", 4, RC_RD(LAST), 1, true },
	{ "flush_answered", 5, RC_RD(ONLY), 0, true },
	{ "flush_with_payload", 5, RC_RD(ONLY), 4, false },
	{ "atomic_ack_at_flush", 5, IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE, 0,
	  false },
	{ "psn_of_no_request", 6, RC_RD(ONLY), 0, true },
};

static void rc_comp_fits_case_desc(const struct rc_comp_fits_case *c,
				   char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rc_comp_fits, rc_comp_fits_cases, rc_comp_fits_case_desc);

static void softrdma_rc_completer_fits(struct kunit *test)
{
	const struct rc_comp_fits_case *c = test->param_value;
	struct softrdma_roce_qp *rqp;
	struct softrdma_ring *ring;
	struct softrdma_qp *qp;
	u32 i, slot, psn = SQ_PSN0;
	bool fits;

	rqp = kunit_kzalloc(test, sizeof(*rqp), GFP_KERNEL);
	ring = kunit_kzalloc(test, sizeof(*ring), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rqp);
	KUNIT_ASSERT_NOT_NULL(test, ring);
	qp = &rqp->qp;
	softrdma_rxe_ring_as_user(ring);
	ring->index_mask = SQ_SLOTS - 1;
	qp->sq.ring = ring;
	qp->sq.wqe = kunit_kcalloc(test, SQ_SLOTS, sizeof(*qp->sq.wqe),
				   GFP_KERNEL);
	rqp->rc.wqe = kunit_kcalloc(test, SQ_SLOTS, sizeof(*rqp->rc.wqe),
				    GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, qp->sq.wqe);
	KUNIT_ASSERT_NOT_NULL(test, rqp->rc.wqe);
	spin_lock_init(&qp->sq.lock);
	qp->mtu = FITS_MTU;

	/* the ring's oldest WQE sits in slot 5: the layout wraps it too */
	for (i = 0; i < ARRAY_SIZE(rc_sq_layout); i++) {
		slot = (5 + i) % SQ_SLOTS;
		qp->sq.wqe[slot].opcode = rc_sq_layout[i].opcode;
		qp->sq.wqe[slot].length = rc_sq_layout[i].length;
		rqp->rc.wqe[slot].first_psn = psn;
		rqp->rc.wqe[slot].done = rc_sq_layout[i].done;
		if (softrdma_wr_is_local(rc_sq_layout[i].opcode))
			continue;
		rqp->rc.wqe[slot].npsn =
			softrdma_rc_wqe_npsn(rc_sq_layout[i].opcode,
					     rc_sq_layout[i].length, FITS_MTU);
		psn = psn_add(psn, rqp->rc.wqe[slot].npsn);
	}
	qp->sq.fetched = ARRAY_SIZE(rc_sq_layout);
	qp->sq.fetch = (5 + qp->sq.fetched) % SQ_SLOTS;

	spin_lock_bh(&qp->sq.lock);
	fits = softrdma_rc_comp_fits(qp, c->psn,
				     softrdma_roce_opcode(c->opcode)->flags,
				     c->payload);
	spin_unlock_bh(&qp->sq.lock);
	KUNIT_EXPECT_EQ(test, fits, c->fits);
}

/*
 * The local ACK timer (IBA 9.7.6.1.3) as retry_timer runs it: a send
 * starts it only if it is not running; progress moves its deadline,
 * without touching the kernel timer unless the deadline moves earlier
 * than the timer's expiry; the timer firing before the deadline is set
 * again for the rest and counts no timeout; once nothing is outstanding
 * it stops, and the timer that fires then does nothing.  The timeouts
 * are seconds long: nothing fires while a case runs.
 */
enum rc_timer_step {
	RC_TIMER_SEND,		/* a packet sent: softrdma_rc_arm_retry() */
	RC_TIMER_PROGRESS,	/* an ACK or response moved una_psn on */
	RC_TIMER_DRAINED,	/* ... and acknowledged everything */
	RC_TIMER_RNR,		/* progress during an RNR wait */
};

struct rc_timer_case {
	const char *name;
	u8 started;		/* timeout attribute when it was started */
	enum rc_timer_step step;
	u8 then;		/* the attribute at that step */
	bool fires;		/* retry_timer then fires (early) */
	/* found after */
	bool armed;		/* the ACK timer (or RNR wait) runs */
	bool pending;		/* retry_timer is pending */
	bool moved;		/* ... at the new deadline, not the first one */
};

static const struct rc_timer_case rc_timer_cases[] = {
	/* 20: 4.29 s, 22: 17.2 s */
	{ "send_keeps_deadline", 20, RC_TIMER_SEND, 22, false,
	  true, true, false },
	{ "later_deadline_no_rearm", 20, RC_TIMER_PROGRESS, 22, false,
	  true, true, false },
	{ "same_timeout_no_rearm", 20, RC_TIMER_PROGRESS, 20, false,
	  true, true, false },
	{ "earlier_deadline_rearms", 22, RC_TIMER_PROGRESS, 20, false,
	  true, true, true },
	{ "early_expiry_waits_the_rest", 20, RC_TIMER_PROGRESS, 22, true,
	  true, true, true },
	{ "drained_stops_without_timer_op", 20, RC_TIMER_DRAINED, 20,
	  false, false, true, false },
	{ "drained_expiry_does_nothing", 20, RC_TIMER_DRAINED, 20, true,
	  false, false, false },
	{ "rnr_wait_keeps_deadline", 22, RC_TIMER_RNR, 20, false,
	  true, true, false },
};

static void rc_timer_case_desc(const struct rc_timer_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rc_timer, rc_timer_cases, rc_timer_case_desc);

static void softrdma_rc_ack_timer(struct kunit *test)
{
	const struct rc_timer_case *c = test->param_value;
	unsigned long first, deadline;
	struct softrdma_roce_qp *rqp;
	struct softrdma_rc *rc;
	struct softrdma_qp *qp;

	rqp = kunit_kzalloc(test, sizeof(*rqp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rqp);
	qp = &rqp->qp;
	rc = &rqp->rc;
	qp->ibqp.qp_type = IB_QPT_RC;
	spin_lock_init(&qp->sq.lock);
	skb_queue_head_init(&rc->req_txq);
	timer_setup(&rc->retry_timer, softrdma_rc_retry_timer, 0);
	rc->req_state = REQ(RUNNING);
	rc->una_psn = 100;
	rc->sent_psn = 103;
	rc->retry_left = 7;

	spin_lock_bh(&qp->sq.lock);
	qp->attr.timeout = c->started;
	softrdma_rc_arm_retry(qp);
	first = rc->retry_timer.expires;
	KUNIT_EXPECT_TRUE(test, rc->retry_armed);
	KUNIT_EXPECT_TRUE(test, timer_pending(&rc->retry_timer));
	KUNIT_EXPECT_EQ(test, rc->retry_deadline, first);

	qp->attr.timeout = c->then;
	switch (c->step) {
	case RC_TIMER_SEND:
		rc->sent_psn = 104;
		softrdma_rc_arm_retry(qp);
		KUNIT_EXPECT_EQ(test, rc->retry_deadline, first);
		break;
	case RC_TIMER_DRAINED:
		rc->una_psn = rc->sent_psn;
		softrdma_rc_timer_restart(qp);
		break;
	case RC_TIMER_RNR:
		rc->req_state = REQ(RNR_WAIT);
		fallthrough;
	case RC_TIMER_PROGRESS:
		rc->una_psn = 101;
		softrdma_rc_timer_restart(qp);
		break;
	}
	deadline = rc->retry_deadline;
	spin_unlock_bh(&qp->sq.lock);

	if (c->fires) {
		/* as the timer base does: detached, then the handler runs */
		timer_delete(&rc->retry_timer);
		softrdma_rc_retry_timer(&rc->retry_timer);
		/* early: no timeout, no retry used, nothing else moved */
		KUNIT_EXPECT_EQ(test, rc->retry_left, 7);
		KUNIT_EXPECT_EQ(test, rc->req_state, REQ(RUNNING));
		KUNIT_EXPECT_EQ(test, rc->cwnd, 0U);
		KUNIT_EXPECT_EQ(test, rc->retry_deadline, deadline);
	}

	KUNIT_EXPECT_EQ(test, rc->retry_armed, c->armed);
	KUNIT_EXPECT_EQ(test, timer_pending(&rc->retry_timer), c->pending);
	if (c->pending && c->moved) {
		KUNIT_EXPECT_EQ(test, rc->retry_timer.expires, deadline);
		KUNIT_EXPECT_NE(test, rc->retry_timer.expires, first);
	} else if (c->pending) {
		KUNIT_EXPECT_EQ(test, rc->retry_timer.expires, first);
	}
	/* the timer never fires after the deadline it waits for */
	if (c->armed && c->pending)
		KUNIT_EXPECT_FALSE(test, time_after(rc->retry_timer.expires,
						    rc->retry_deadline));

	spin_lock_bh(&qp->sq.lock);
	rc->req_state = REQ(STOPPED);
	spin_unlock_bh(&qp->sq.lock);
	timer_delete_sync(&rc->retry_timer);
}

static struct kunit_case softrdma_rc_test_cases[] = {
	KUNIT_CASE_PARAM(softrdma_rc_segmentation, rc_seg_gen_params),
	KUNIT_CASE(softrdma_rc_segmentation_covers_message),
	KUNIT_CASE(softrdma_rc_npsn),
	KUNIT_CASE_PARAM(softrdma_rc_msg_psn_span, rc_msg_gen_params),
	KUNIT_CASE_PARAM(softrdma_rc_psn_classification, rc_psn_gen_params),
	KUNIT_CASE_PARAM(softrdma_rc_resp_stream, rc_resp_gen_params),
	KUNIT_CASE_PARAM(softrdma_uc_resp_stream, uc_resp_gen_params),
	KUNIT_CASE(softrdma_uc_req_opcodes),
	KUNIT_CASE_PARAM(softrdma_rc_write_length, rc_write_fits_gen_params),
	KUNIT_CASE_PARAM(softrdma_rc_read_response_opcode,
			 rc_read_opcode_gen_params),
	KUNIT_CASE_PARAM(softrdma_rc_response_fits, rc_fits_gen_params),
	KUNIT_CASE_PARAM(softrdma_rc_completer_fits, rc_comp_fits_gen_params),
	KUNIT_CASE(softrdma_rc_ack_syndromes),
	KUNIT_CASE_PARAM(softrdma_rc_ack_decision, rc_ack_gen_params),
	KUNIT_CASE_PARAM(softrdma_rc_cwnd, rc_cwnd_gen_params),
	KUNIT_CASE_PARAM(softrdma_rc_read_response_timer, rc_rd_gen_params),
	KUNIT_CASE_PARAM(softrdma_rc_read_gap, rc_rd_gap_gen_params),
	KUNIT_CASE_PARAM(softrdma_rc_read_replay_timer, rc_replay_gen_params),
	KUNIT_CASE_PARAM(softrdma_rc_req_move_table, rc_req_move_gen_params),
	KUNIT_CASE_PARAM(softrdma_rc_resp_move_table, rc_resp_move_gen_params),
	KUNIT_CASE(softrdma_rc_req_machine),
	KUNIT_CASE(softrdma_rc_resp_machine),
	KUNIT_CASE(softrdma_rc_req_active_states),
	KUNIT_CASE(softrdma_rc_move_helpers),
	KUNIT_CASE(softrdma_rc_release_rwqe_once),
	KUNIT_CASE_PARAM(softrdma_rc_sq_drained_event, sq_drained_gen_params),
	KUNIT_CASE_PARAM(softrdma_rc_ack_timer, rc_timer_gen_params),
	{}
};

static struct kunit_suite softrdma_rc_test_suite = {
	.name = "softrdma_rc",
	.test_cases = softrdma_rc_test_cases,
};

kunit_test_suite(softrdma_rc_test_suite);
