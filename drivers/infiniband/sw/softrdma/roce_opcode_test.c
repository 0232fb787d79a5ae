// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for roce_opcode.c: the opcode table against IBA vol 1 9.2
 * and 9.3, its internal consistency, and the lengths derived from it.
 */
#include <kunit/test.h>
#include <linux/bitops.h>

#include "roce_opcode.h"

/* every opcode softrdma implements, with its headers as IBA 9.3 lists them */
struct hdr_case {
	u8 opcode;
	const char *name;
	u8 ext;
	unsigned int hdr_len;
};

static const struct hdr_case hdr_cases[] = {
	{ 0x00, "RC_SEND_FIRST", 0, 12 },
	{ 0x01, "RC_SEND_MIDDLE", 0, 12 },
	{ 0x02, "RC_SEND_LAST", 0, 12 },
	{ 0x03, "RC_SEND_LAST_WITH_IMMEDIATE", SOFTRDMA_EXT_IMMDT, 16 },
	{ 0x04, "RC_SEND_ONLY", 0, 12 },
	{ 0x05, "RC_SEND_ONLY_WITH_IMMEDIATE", SOFTRDMA_EXT_IMMDT, 16 },
	{ 0x06, "RC_RDMA_WRITE_FIRST", SOFTRDMA_EXT_RETH, 28 },
	{ 0x07, "RC_RDMA_WRITE_MIDDLE", 0, 12 },
	{ 0x08, "RC_RDMA_WRITE_LAST", 0, 12 },
	{ 0x09, "RC_RDMA_WRITE_LAST_WITH_IMMEDIATE", SOFTRDMA_EXT_IMMDT, 16 },
	{ 0x0a, "RC_RDMA_WRITE_ONLY", SOFTRDMA_EXT_RETH, 28 },
	{ 0x0b, "RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE",
	  SOFTRDMA_EXT_RETH | SOFTRDMA_EXT_IMMDT, 32 },
	{ 0x0c, "RC_RDMA_READ_REQUEST", SOFTRDMA_EXT_RETH, 28 },
	{ 0x0d, "RC_RDMA_READ_RESPONSE_FIRST", SOFTRDMA_EXT_AETH, 16 },
	{ 0x0e, "RC_RDMA_READ_RESPONSE_MIDDLE", 0, 12 },
	{ 0x0f, "RC_RDMA_READ_RESPONSE_LAST", SOFTRDMA_EXT_AETH, 16 },
	{ 0x10, "RC_RDMA_READ_RESPONSE_ONLY", SOFTRDMA_EXT_AETH, 16 },
	{ 0x11, "RC_ACKNOWLEDGE", SOFTRDMA_EXT_AETH, 16 },
	{ 0x12, "RC_ATOMIC_ACKNOWLEDGE",
	  SOFTRDMA_EXT_AETH | SOFTRDMA_EXT_ATMACK, 24 },
	{ 0x13, "RC_COMPARE_SWAP", SOFTRDMA_EXT_ATMETH, 40 },
	{ 0x14, "RC_FETCH_ADD", SOFTRDMA_EXT_ATMETH, 40 },
	{ 0x16, "RC_SEND_LAST_WITH_INVALIDATE", SOFTRDMA_EXT_IETH, 16 },
	{ 0x17, "RC_SEND_ONLY_WITH_INVALIDATE", SOFTRDMA_EXT_IETH, 16 },
	{ 0x1c, "RC_FLUSH", SOFTRDMA_EXT_FETH | SOFTRDMA_EXT_RETH, 32 },
	{ 0x1d, "RC_ATOMIC_WRITE", SOFTRDMA_EXT_RETH, 28 },
	{ 0x20, "UC_SEND_FIRST", 0, 12 },
	{ 0x21, "UC_SEND_MIDDLE", 0, 12 },
	{ 0x22, "UC_SEND_LAST", 0, 12 },
	{ 0x23, "UC_SEND_LAST_WITH_IMMEDIATE", SOFTRDMA_EXT_IMMDT, 16 },
	{ 0x24, "UC_SEND_ONLY", 0, 12 },
	{ 0x25, "UC_SEND_ONLY_WITH_IMMEDIATE", SOFTRDMA_EXT_IMMDT, 16 },
	{ 0x26, "UC_RDMA_WRITE_FIRST", SOFTRDMA_EXT_RETH, 28 },
	{ 0x27, "UC_RDMA_WRITE_MIDDLE", 0, 12 },
	{ 0x28, "UC_RDMA_WRITE_LAST", 0, 12 },
	{ 0x29, "UC_RDMA_WRITE_LAST_WITH_IMMEDIATE", SOFTRDMA_EXT_IMMDT, 16 },
	{ 0x2a, "UC_RDMA_WRITE_ONLY", SOFTRDMA_EXT_RETH, 28 },
	{ 0x2b, "UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE",
	  SOFTRDMA_EXT_RETH | SOFTRDMA_EXT_IMMDT, 32 },
	{ 0x64, "UD_SEND_ONLY", SOFTRDMA_EXT_DETH, 20 },
	{ 0x65, "UD_SEND_ONLY_WITH_IMMEDIATE",
	  SOFTRDMA_EXT_DETH | SOFTRDMA_EXT_IMMDT, 24 },
};

static void hdr_case_desc(const struct hdr_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(hdr, hdr_cases, hdr_case_desc);

static void softrdma_roce_opcode_headers(struct kunit *test)
{
	const struct hdr_case *c = test->param_value;
	const struct softrdma_roce_opcode *op = softrdma_roce_opcode(c->opcode);

	KUNIT_ASSERT_NOT_NULL(test, op);
	KUNIT_EXPECT_TRUE(test, softrdma_roce_opcode_valid(c->opcode));
	KUNIT_EXPECT_STREQ(test, op->name, c->name);
	KUNIT_EXPECT_EQ(test, op->ext, c->ext);
	KUNIT_EXPECT_EQ(test, softrdma_roce_hdr_len(c->opcode), c->hdr_len);
}

/* exactly the opcodes above are defined; everything else is NULL */
static void softrdma_roce_opcode_undefined_null(struct kunit *test)
{
	unsigned int opcode, i;

	for (opcode = 0; opcode < 256; opcode++) {
		bool listed = false;

		for (i = 0; i < ARRAY_SIZE(hdr_cases); i++)
			listed |= hdr_cases[i].opcode == opcode;

		if (listed)
			continue;
		KUNIT_EXPECT_NULL_MSG(test, softrdma_roce_opcode(opcode),
				      "opcode 0x%02x", opcode);
		KUNIT_EXPECT_FALSE_MSG(test, softrdma_roce_opcode_valid(opcode),
				       "opcode 0x%02x", opcode);
		KUNIT_EXPECT_EQ_MSG(test, softrdma_roce_hdr_len(opcode), 0U,
				    "opcode 0x%02x", opcode);
		KUNIT_EXPECT_EQ_MSG(test,
				    softrdma_roce_ext_offset(opcode,
							     SOFTRDMA_EXT_AETH),
				    -EINVAL, "opcode 0x%02x", opcode);
		KUNIT_EXPECT_FALSE_MSG(test,
				       softrdma_roce_payload_valid(opcode, 0,
								   1024),
				       "opcode 0x%02x", opcode);
	}
	/* the ones most easily mistaken for defined */
	KUNIT_EXPECT_NULL(test, softrdma_roce_opcode(0x15));	/* reserved */
	KUNIT_EXPECT_NULL(test, softrdma_roce_opcode(0x3c));	/* UC FLUSH */
	KUNIT_EXPECT_NULL(test, softrdma_roce_opcode(0x3d));	/* UC ATOMIC WRITE */
	KUNIT_EXPECT_NULL(test, softrdma_roce_opcode(0x2c));	/* UC read */
	KUNIT_EXPECT_NULL(test, softrdma_roce_opcode(0x40));	/* RD */
	KUNIT_EXPECT_NULL(test, softrdma_roce_opcode(0x60));	/* UD first */
	KUNIT_EXPECT_NULL(test, softrdma_roce_opcode(0x80));	/* CNP */
	KUNIT_EXPECT_NULL(test, softrdma_roce_opcode(0xe0));	/* vendor */
	KUNIT_EXPECT_NULL(test, softrdma_roce_opcode(0xff));
}

static unsigned int count_bits(u32 flags, u32 mask)
{
	return hweight32(flags & mask);
}

/* The rules the table must keep, for every defined opcode. */
static void softrdma_roce_opcode_flags_coherent(struct kunit *test)
{
	const u32 dir = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_RESP;
	const u32 place = SOFTRDMA_OPF_FIRST | SOFTRDMA_OPF_MIDDLE |
			  SOFTRDMA_OPF_LAST | SOFTRDMA_OPF_ONLY;
	const u32 kind = SOFTRDMA_OPF_SEND | SOFTRDMA_OPF_WRITE |
			 SOFTRDMA_OPF_READ | SOFTRDMA_OPF_ATOMIC |
			 SOFTRDMA_OPF_ATOMIC_WRITE | SOFTRDMA_OPF_FLUSH |
			 SOFTRDMA_OPF_ACK;
	unsigned int opcode, defined = 0;

	for (opcode = 0; opcode < 256; opcode++) {
		const struct softrdma_roce_opcode *op;
		u32 f;

		op = softrdma_roce_opcode(opcode);
		if (!op)
			continue;
		defined++;
		f = op->flags;

		KUNIT_EXPECT_GT_MSG(test, strlen(op->name), 0UL, "0x%02x",
				    opcode);
		KUNIT_EXPECT_EQ_MSG(test, count_bits(f, dir), 1U, "%s",
				    op->name);
		KUNIT_EXPECT_EQ_MSG(test, count_bits(f, kind), 1U, "%s",
				    op->name);
		KUNIT_EXPECT_EQ_MSG(test, count_bits(f, place),
				    f & SOFTRDMA_OPF_ACK ? 0U : 1U, "%s",
				    op->name);
		KUNIT_EXPECT_EQ_MSG(test, op->ext & ~SOFTRDMA_EXT_ALL, 0,
				    "%s", op->name);

		/* the transport is in the name and in the top three bits */
		if (softrdma_roce_opcode_is_rc(opcode))
			KUNIT_EXPECT_EQ_MSG(test, strncmp(op->name, "RC_", 3),
					    0, "%s", op->name);
		else if (softrdma_roce_opcode_is_uc(opcode))
			KUNIT_EXPECT_EQ_MSG(test, strncmp(op->name, "UC_", 3),
					    0, "%s", op->name);
		else if (softrdma_roce_opcode_is_ud(opcode))
			KUNIT_EXPECT_EQ_MSG(test, strncmp(op->name, "UD_", 3),
					    0, "%s", op->name);
		else
			KUNIT_FAIL(test, "%s: not RC, UC or UD", op->name);

		/* 9.7: only RC requests are answered, and all of them */
		KUNIT_EXPECT_EQ_MSG(test, !!(f & SOFTRDMA_OPF_ACKED),
				    softrdma_roce_opcode_is_rc(opcode) &&
				    (f & SOFTRDMA_OPF_REQ), "%s", op->name);
		/* responses exist on RC only */
		if (f & SOFTRDMA_OPF_RESP)
			KUNIT_EXPECT_TRUE_MSG(test,
					      softrdma_roce_opcode_is_rc(opcode),
					      "%s", op->name);
		/* UD messages are single packets with a DETH (IBA 9.8) */
		KUNIT_EXPECT_EQ_MSG(test, !!(op->ext & SOFTRDMA_EXT_DETH),
				    softrdma_roce_opcode_is_ud(opcode), "%s",
				    op->name);
		if (softrdma_roce_opcode_is_ud(opcode))
			KUNIT_EXPECT_TRUE_MSG(test, f & SOFTRDMA_OPF_ONLY,
					      "%s", op->name);

		/* request headers travel one way, response headers the other */
		if (f & SOFTRDMA_OPF_REQ)
			KUNIT_EXPECT_EQ_MSG(test, op->ext &
					    (SOFTRDMA_EXT_AETH |
					     SOFTRDMA_EXT_ATMACK), 0,
					    "%s", op->name);
		else
			KUNIT_EXPECT_EQ_MSG(test, op->ext &
					    ~(SOFTRDMA_EXT_AETH |
					      SOFTRDMA_EXT_ATMACK), 0,
					    "%s", op->name);

		/* RETH opens a write or read; middles carry nothing extra */
		if (op->ext & SOFTRDMA_EXT_RETH)
			KUNIT_EXPECT_TRUE_MSG(test, f & (SOFTRDMA_OPF_FIRST |
							 SOFTRDMA_OPF_ONLY),
					      "%s", op->name);
		if (f & SOFTRDMA_OPF_MIDDLE)
			KUNIT_EXPECT_EQ_MSG(test, op->ext, 0, "%s", op->name);
		/* immediate data and invalidation close a message */
		if (op->ext & (SOFTRDMA_EXT_IMMDT | SOFTRDMA_EXT_IETH))
			KUNIT_EXPECT_TRUE_MSG(test, f & (SOFTRDMA_OPF_LAST |
							 SOFTRDMA_OPF_ONLY),
					      "%s", op->name);
		/* IETH only on sends, never together with ImmDt */
		if (op->ext & SOFTRDMA_EXT_IETH) {
			KUNIT_EXPECT_TRUE_MSG(test, f & SOFTRDMA_OPF_SEND,
					      "%s", op->name);
			KUNIT_EXPECT_FALSE_MSG(test,
					       op->ext & SOFTRDMA_EXT_IMMDT,
					       "%s", op->name);
		}
		/* a write consumes a receive WQE only with immediate data */
		if (f & SOFTRDMA_OPF_WRITE)
			KUNIT_EXPECT_EQ_MSG(test, !!(f & SOFTRDMA_OPF_RECV),
					    !!(op->ext & SOFTRDMA_EXT_IMMDT),
					    "%s", op->name);
		if (f & SOFTRDMA_OPF_SEND)
			KUNIT_EXPECT_TRUE_MSG(test, f & SOFTRDMA_OPF_RECV,
					      "%s", op->name);
		if (!(f & (SOFTRDMA_OPF_SEND | SOFTRDMA_OPF_WRITE)))
			KUNIT_EXPECT_FALSE_MSG(test, f & SOFTRDMA_OPF_RECV,
					       "%s", op->name);

		/*
		 * no payload on read requests, atomics, FLUSH (IBA 1.5
		 * oA19-2) and acknowledgements
		 */
		KUNIT_EXPECT_EQ_MSG(test, !!(f & SOFTRDMA_OPF_PAYLOAD),
				    !(op->ext & (SOFTRDMA_EXT_ATMETH |
						 SOFTRDMA_EXT_ATMACK)) &&
				    !(f & (SOFTRDMA_OPF_ACK |
					   SOFTRDMA_OPF_FLUSH)) &&
				    opcode != IB_OPCODE_RC_RDMA_READ_REQUEST,
				    "%s", op->name);

		KUNIT_EXPECT_EQ_MSG(test, !!(f & SOFTRDMA_OPF_IBA15),
				    opcode == SOFTRDMA_OPCODE_RC_ATOMIC_WRITE ||
				    opcode == SOFTRDMA_OPCODE_RC_FLUSH,
				    "%s", op->name);
		/* the FETH is FLUSH's alone, and comes with a RETH */
		KUNIT_EXPECT_EQ_MSG(test, !!(op->ext & SOFTRDMA_EXT_FETH),
				    opcode == SOFTRDMA_OPCODE_RC_FLUSH, "%s",
				    op->name);
	}
	KUNIT_EXPECT_EQ(test, defined, ARRAY_SIZE(hdr_cases));
}

/* UC is RC's send and write half, header for header, without answers */
static void softrdma_roce_opcode_uc_mirrors_rc(struct kunit *test)
{
	unsigned int i;

	for (i = IB_OPCODE_SEND_FIRST;
	     i <= IB_OPCODE_RDMA_WRITE_ONLY_WITH_IMMEDIATE; i++) {
		const struct softrdma_roce_opcode *rc, *uc;

		rc = softrdma_roce_opcode(IB_OPCODE_RC + i);
		uc = softrdma_roce_opcode(IB_OPCODE_UC + i);
		KUNIT_ASSERT_NOT_NULL(test, rc);
		KUNIT_ASSERT_NOT_NULL(test, uc);
		KUNIT_EXPECT_EQ_MSG(test, uc->ext, rc->ext, "%s", uc->name);
		KUNIT_EXPECT_EQ_MSG(test, uc->flags,
				    rc->flags & ~SOFTRDMA_OPF_ACKED, "%s",
				    uc->name);
		KUNIT_EXPECT_STREQ(test, uc->name + 3, rc->name + 3);
	}
}

/* what requester, responder and completer rely on, opcode by opcode */
struct flags_case {
	const char *name;
	u8 opcode;
	u32 flags;
};

static const struct flags_case flags_cases[] = {
	{ "rc_send_first", IB_OPCODE_RC_SEND_FIRST,
	  SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_FIRST | SOFTRDMA_OPF_SEND |
	  SOFTRDMA_OPF_PAYLOAD | SOFTRDMA_OPF_ACKED | SOFTRDMA_OPF_RECV },
	{ "rc_send_only_inv", IB_OPCODE_RC_SEND_ONLY_WITH_INVALIDATE,
	  SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_ONLY | SOFTRDMA_OPF_SEND |
	  SOFTRDMA_OPF_PAYLOAD | SOFTRDMA_OPF_ACKED | SOFTRDMA_OPF_RECV },
	{ "rc_write_middle", IB_OPCODE_RC_RDMA_WRITE_MIDDLE,
	  SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_MIDDLE | SOFTRDMA_OPF_WRITE |
	  SOFTRDMA_OPF_PAYLOAD | SOFTRDMA_OPF_ACKED },
	{ "rc_write_last_imm", IB_OPCODE_RC_RDMA_WRITE_LAST_WITH_IMMEDIATE,
	  SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_LAST | SOFTRDMA_OPF_WRITE |
	  SOFTRDMA_OPF_PAYLOAD | SOFTRDMA_OPF_ACKED | SOFTRDMA_OPF_RECV },
	{ "rc_read_request", IB_OPCODE_RC_RDMA_READ_REQUEST,
	  SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_ONLY | SOFTRDMA_OPF_READ |
	  SOFTRDMA_OPF_ACKED },
	{ "rc_read_response_first", IB_OPCODE_RC_RDMA_READ_RESPONSE_FIRST,
	  SOFTRDMA_OPF_RESP | SOFTRDMA_OPF_FIRST | SOFTRDMA_OPF_READ |
	  SOFTRDMA_OPF_PAYLOAD },
	{ "rc_read_response_only", IB_OPCODE_RC_RDMA_READ_RESPONSE_ONLY,
	  SOFTRDMA_OPF_RESP | SOFTRDMA_OPF_ONLY | SOFTRDMA_OPF_READ |
	  SOFTRDMA_OPF_PAYLOAD },
	{ "rc_ack", IB_OPCODE_RC_ACKNOWLEDGE,
	  SOFTRDMA_OPF_RESP | SOFTRDMA_OPF_ACK },
	{ "rc_atomic_ack", IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE,
	  SOFTRDMA_OPF_RESP | SOFTRDMA_OPF_ONLY | SOFTRDMA_OPF_ATOMIC },
	{ "rc_compare_swap", IB_OPCODE_RC_COMPARE_SWAP,
	  SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_ONLY | SOFTRDMA_OPF_ATOMIC |
	  SOFTRDMA_OPF_ACKED },
	{ "rc_atomic_write", SOFTRDMA_OPCODE_RC_ATOMIC_WRITE,
	  SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_ONLY | SOFTRDMA_OPF_ATOMIC_WRITE |
	  SOFTRDMA_OPF_PAYLOAD | SOFTRDMA_OPF_ACKED | SOFTRDMA_OPF_IBA15 },
	{ "rc_flush", SOFTRDMA_OPCODE_RC_FLUSH,
	  SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_ONLY | SOFTRDMA_OPF_FLUSH |
	  SOFTRDMA_OPF_ACKED | SOFTRDMA_OPF_IBA15 },
	{ "uc_write_first", IB_OPCODE_UC_RDMA_WRITE_FIRST,
	  SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_FIRST | SOFTRDMA_OPF_WRITE |
	  SOFTRDMA_OPF_PAYLOAD },
	{ "ud_send_only_imm", IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE,
	  SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_ONLY | SOFTRDMA_OPF_SEND |
	  SOFTRDMA_OPF_PAYLOAD | SOFTRDMA_OPF_RECV },
};

static void flags_case_desc(const struct flags_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(flags, flags_cases, flags_case_desc);

static void softrdma_roce_opcode_flags(struct kunit *test)
{
	const struct flags_case *c = test->param_value;
	const struct softrdma_roce_opcode *op = softrdma_roce_opcode(c->opcode);

	KUNIT_ASSERT_NOT_NULL(test, op);
	KUNIT_EXPECT_EQ(test, op->flags, c->flags);
}

struct offset_case {
	const char *name;
	u8 opcode;
	enum softrdma_roce_ext ext;
	int offset;
};

static const struct offset_case offset_cases[] = {
	{ "write_only_imm_reth", IB_OPCODE_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE,
	  SOFTRDMA_EXT_RETH, 12 },
	{ "write_only_imm_immdt", IB_OPCODE_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE,
	  SOFTRDMA_EXT_IMMDT, 28 },
	{ "send_last_imm_immdt", IB_OPCODE_RC_SEND_LAST_WITH_IMMEDIATE,
	  SOFTRDMA_EXT_IMMDT, 12 },
	{ "atomic_ack_aeth", IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE,
	  SOFTRDMA_EXT_AETH, 12 },
	{ "atomic_ack_atmack", IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE,
	  SOFTRDMA_EXT_ATMACK, 16 },
	{ "fetch_add_atmeth", IB_OPCODE_RC_FETCH_ADD, SOFTRDMA_EXT_ATMETH, 12 },
	/* IBA 1.5 9.3.6: BTH, FETH, RETH */
	{ "flush_feth", SOFTRDMA_OPCODE_RC_FLUSH, SOFTRDMA_EXT_FETH, 12 },
	{ "flush_reth", SOFTRDMA_OPCODE_RC_FLUSH, SOFTRDMA_EXT_RETH, 16 },
	{ "atomic_write_reth", SOFTRDMA_OPCODE_RC_ATOMIC_WRITE,
	  SOFTRDMA_EXT_RETH, 12 },
	{ "absent_feth_in_write", IB_OPCODE_RC_RDMA_WRITE_ONLY,
	  SOFTRDMA_EXT_FETH, -EINVAL },
	{ "ud_imm_deth", IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE,
	  SOFTRDMA_EXT_DETH, 12 },
	{ "ud_imm_immdt", IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE,
	  SOFTRDMA_EXT_IMMDT, 20 },
	{ "send_only_inv_ieth", IB_OPCODE_RC_SEND_ONLY_WITH_INVALIDATE,
	  SOFTRDMA_EXT_IETH, 12 },
	{ "absent_reth_in_ack", IB_OPCODE_RC_ACKNOWLEDGE, SOFTRDMA_EXT_RETH,
	  -EINVAL },
	{ "absent_immdt_in_send_only", IB_OPCODE_RC_SEND_ONLY,
	  SOFTRDMA_EXT_IMMDT, -EINVAL },
	{ "two_headers_at_once", IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE,
	  SOFTRDMA_EXT_AETH | SOFTRDMA_EXT_ATMACK, -EINVAL },
	{ "no_header", IB_OPCODE_RC_ACKNOWLEDGE, 0, -EINVAL },
	{ "undefined_opcode", 0x15, SOFTRDMA_EXT_AETH, -EINVAL },
};

static void offset_case_desc(const struct offset_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(offset, offset_cases, offset_case_desc);

static void softrdma_roce_opcode_ext_offset(struct kunit *test)
{
	const struct offset_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, softrdma_roce_ext_offset(c->opcode, c->ext),
			c->offset);
}

static void softrdma_roce_opcode_ext_sizes(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, softrdma_roce_ext_len(0), 0U);
	KUNIT_EXPECT_EQ(test, softrdma_roce_ext_len(SOFTRDMA_EXT_DETH), 8U);
	KUNIT_EXPECT_EQ(test, softrdma_roce_ext_len(SOFTRDMA_EXT_FETH), 4U);
	KUNIT_EXPECT_EQ(test, softrdma_roce_ext_len(SOFTRDMA_EXT_RETH), 16U);
	KUNIT_EXPECT_EQ(test, softrdma_roce_ext_len(SOFTRDMA_EXT_ATMETH), 28U);
	KUNIT_EXPECT_EQ(test, softrdma_roce_ext_len(SOFTRDMA_EXT_AETH), 4U);
	KUNIT_EXPECT_EQ(test, softrdma_roce_ext_len(SOFTRDMA_EXT_ATMACK), 8U);
	KUNIT_EXPECT_EQ(test, softrdma_roce_ext_len(SOFTRDMA_EXT_IMMDT), 4U);
	KUNIT_EXPECT_EQ(test, softrdma_roce_ext_len(SOFTRDMA_EXT_IETH), 4U);
	KUNIT_EXPECT_EQ(test, softrdma_roce_ext_len(SOFTRDMA_EXT_ALL), 76U);
}

struct payload_case {
	const char *name;
	u8 opcode;
	u32 len;
	bool ok;
};

#define PMTU	1024

static const struct payload_case payload_cases[] = {
	{ "first_full", IB_OPCODE_RC_SEND_FIRST, PMTU, true },
	{ "first_short", IB_OPCODE_RC_SEND_FIRST, PMTU - 1, false },
	{ "first_long", IB_OPCODE_RC_SEND_FIRST, PMTU + 1, false },
	{ "middle_full", IB_OPCODE_UC_RDMA_WRITE_MIDDLE, PMTU, true },
	{ "middle_short", IB_OPCODE_UC_RDMA_WRITE_MIDDLE, 4, false },
	{ "last_one_byte", IB_OPCODE_RC_SEND_LAST, 1, true },
	{ "last_empty", IB_OPCODE_RC_SEND_LAST, 0, false },
	{ "last_full", IB_OPCODE_RC_RDMA_READ_RESPONSE_LAST, PMTU, true },
	{ "last_long", IB_OPCODE_RC_RDMA_READ_RESPONSE_LAST, PMTU + 1, false },
	{ "only_empty", IB_OPCODE_RC_SEND_ONLY, 0, true },
	{ "only_full", IB_OPCODE_UD_SEND_ONLY, PMTU, true },
	{ "only_long", IB_OPCODE_UD_SEND_ONLY, PMTU + 1, false },
	{ "read_response_only_empty", IB_OPCODE_RC_RDMA_READ_RESPONSE_ONLY, 0,
	  true },
	{ "read_request_none", IB_OPCODE_RC_RDMA_READ_REQUEST, 0, true },
	{ "read_request_some", IB_OPCODE_RC_RDMA_READ_REQUEST, 4, false },
	{ "ack_some", IB_OPCODE_RC_ACKNOWLEDGE, 4, false },
	{ "fetch_add_some", IB_OPCODE_RC_FETCH_ADD, 8, false },
	{ "atomic_write_8", SOFTRDMA_OPCODE_RC_ATOMIC_WRITE, 8, true },
	{ "atomic_write_4", SOFTRDMA_OPCODE_RC_ATOMIC_WRITE, 4, false },
	{ "atomic_write_16", SOFTRDMA_OPCODE_RC_ATOMIC_WRITE, 16, false },
	{ "flush_none", SOFTRDMA_OPCODE_RC_FLUSH, 0, true },
	{ "flush_some", SOFTRDMA_OPCODE_RC_FLUSH, 8, false },
};

static void payload_case_desc(const struct payload_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(payload, payload_cases, payload_case_desc);

static void softrdma_roce_opcode_payload_rules(struct kunit *test)
{
	const struct payload_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, softrdma_roce_payload_valid(c->opcode, c->len,
							  PMTU), c->ok);
}

static struct kunit_case softrdma_roce_opcode_cases[] = {
	KUNIT_CASE_PARAM(softrdma_roce_opcode_headers, hdr_gen_params),
	KUNIT_CASE(softrdma_roce_opcode_undefined_null),
	KUNIT_CASE(softrdma_roce_opcode_flags_coherent),
	KUNIT_CASE(softrdma_roce_opcode_uc_mirrors_rc),
	KUNIT_CASE_PARAM(softrdma_roce_opcode_flags, flags_gen_params),
	KUNIT_CASE_PARAM(softrdma_roce_opcode_ext_offset, offset_gen_params),
	KUNIT_CASE(softrdma_roce_opcode_ext_sizes),
	KUNIT_CASE_PARAM(softrdma_roce_opcode_payload_rules,
			 payload_gen_params),
	{}
};

static struct kunit_suite softrdma_roce_opcode_suite = {
	.name = "softrdma_roce_opcode",
	.test_cases = softrdma_roce_opcode_cases,
};

kunit_test_suite(softrdma_roce_opcode_suite);
