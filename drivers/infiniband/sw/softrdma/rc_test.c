// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the RC engines' pure logic (rc.c): how a message is
 * cut into packets (IBA 9.4, 9.7.2) and how many PSNs a WQE consumes
 * (IBA 9.7.1).
 */
#include <kunit/test.h>
#include <rdma/ib_pack.h>
#include <rdma/ib_verbs.h>

#include "rc.h"

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
}

static struct kunit_case softrdma_rc_test_cases[] = {
	KUNIT_CASE_PARAM(softrdma_rc_segmentation, rc_seg_gen_params),
	KUNIT_CASE(softrdma_rc_segmentation_covers_message),
	KUNIT_CASE(softrdma_rc_npsn),
	{}
};

static struct kunit_suite softrdma_rc_test_suite = {
	.name = "softrdma_rc",
	.test_cases = softrdma_rc_test_cases,
};

kunit_test_suite(softrdma_rc_test_suite);
