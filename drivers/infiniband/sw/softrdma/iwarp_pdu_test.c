// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for iwarp_pdu.c: the opcode table, DDP/RDMAP headers built
 * and parsed against byte vectors, malformed headers and the TERMINATE
 * each one earns, and TERMINATE build/parse round trips.
 */
#include <kunit/test.h>
#include <linux/kernel.h>

#include "compat.h"
#include "iwarp_pdu.h"

/* DDP control: T, L, version 1; RDMAP control: version 1, opcode */
#define DDP_T	0x81
#define DDP_TL	0xc1
#define DDP_U	0x01
#define DDP_UL	0x41
#define RDMAP(op)	(0x40 | (op))

/*
 * Header fields as a test case states them; raw_encode() lays them out
 * with put_unaligned_be*(), independently of iwarp_hdr.h's structs: a
 * tagged header when T is set, else an untagged one, followed by the Read
 * Request body (opcode 1) or the TERMINATE error word (opcode 7).
 */
struct raw_hdr {
	u16 len;
	u8 ddp;
	u8 rdmap;
	u32 stag;	/* tagged STag, or the untagged invalidate field */
	u64 to;
	u32 qn;
	u32 msn;
	u32 mo;
	u32 info;
	struct softrdma_iwarp_rreq body;
};

static unsigned int raw_encode(const struct raw_hdr *h, u8 *b)
{
	memset(b, 0, 48);
	put_unaligned_be16(h->len, b);
	b[2] = h->ddp;
	b[3] = h->rdmap;
	put_unaligned_be32(h->stag, b + 4);
	if (h->ddp & 0x80) {
		put_unaligned_be64(h->to, b + 8);
		return 16;
	}
	put_unaligned_be32(h->qn, b + 8);
	put_unaligned_be32(h->msn, b + 12);
	put_unaligned_be32(h->mo, b + 16);
	switch (h->rdmap & 0x0f) {
	case 1:
		put_unaligned_be32(h->body.sink_stag, b + 20);
		put_unaligned_be64(h->body.sink_to, b + 24);
		put_unaligned_be32(h->body.size, b + 32);
		put_unaligned_be32(h->body.src_stag, b + 36);
		put_unaligned_be64(h->body.src_to, b + 40);
		return 48;
	case 7:
		put_unaligned_be32(h->info, b + 20);
		return 24;
	default:
		return 20;
	}
}

static void expect_bytes(struct kunit *test, const void *got,
			 const void *want, size_t len)
{
	const u8 *g = got, *w = want;
	size_t i;

	for (i = 0; i < len; i++)
		KUNIT_EXPECT_EQ_MSG(test, g[i], w[i], "byte %zu", i);
}

/* --- the opcode table --------------------------------------------------- */

static void softrdma_iwarp_pdu_op_table(struct kunit *test)
{
	static const struct {
		u8 opcode;
		bool tagged, payload, se, inval;
		u8 qn, hdr_len;
	} want[] = {
		{ IWARP_OP_WRITE, true, true, false, false, 0, 16 },
		{ IWARP_OP_READ_REQ, false, false, false, false, 1, 48 },
		{ IWARP_OP_READ_RESP, true, true, false, false, 0, 16 },
		{ IWARP_OP_SEND, false, true, false, false, 0, 20 },
		{ IWARP_OP_SEND_INV, false, true, false, true, 0, 20 },
		{ IWARP_OP_SEND_SE, false, true, true, false, 0, 20 },
		{ IWARP_OP_SEND_SE_INV, false, true, true, true, 0, 20 },
		{ IWARP_OP_TERMINATE, false, false, false, false, 2, 24 },
	};
	unsigned int i;

	KUNIT_EXPECT_EQ(test, ARRAY_SIZE(want), IWARP_OP_MAX + 1);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		const struct softrdma_iwarp_op *op =
			softrdma_iwarp_op(want[i].opcode);

		KUNIT_ASSERT_NOT_NULL(test, op);
		KUNIT_EXPECT_NOT_NULL(test, op->name);
		KUNIT_EXPECT_EQ_MSG(test, op->tagged, want[i].tagged, "op %u", i);
		KUNIT_EXPECT_EQ_MSG(test, op->payload, want[i].payload,
				    "op %u", i);
		KUNIT_EXPECT_EQ_MSG(test, op->se, want[i].se, "op %u", i);
		KUNIT_EXPECT_EQ_MSG(test, op->inval, want[i].inval, "op %u", i);
		KUNIT_EXPECT_EQ_MSG(test, op->qn, want[i].qn, "op %u", i);
		KUNIT_EXPECT_EQ_MSG(test, op->hdr_len, want[i].hdr_len,
				    "op %u", i);
	}
	for (i = IWARP_OP_MAX + 1; i < 256; i++)
		KUNIT_EXPECT_NULL(test, softrdma_iwarp_op(i));
}

/* --- building ----------------------------------------------------------- */

static void softrdma_iwarp_pdu_build_vectors(struct kunit *test)
{
	static const u8 write[] = {
		0x00, 0x72, 0xc1, 0x40, 0x12, 0x34, 0x56, 0x78,
		0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef };
	static const u8 rresp[] = {
		0x10, 0x0e, 0x81, 0x42, 0xff, 0xff, 0xff, 0xfe,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00 };
	static const u8 send[] = {
		0x00, 0x12, 0x41, 0x43, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
		0x00, 0x00, 0x00, 0x00 };
	static const u8 send_se_inv[] = {
		0x03, 0xfa, 0x01, 0x46, 0xab, 0xcd, 0xef, 0x01,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07,
		0x00, 0x00, 0x20, 0x00 };
	static const u8 rreq[] = {
		0x00, 0x2e, 0x41, 0x41, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x02, 0x03,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x11,
		0x22, 0x22, 0x33, 0x33, 0x44, 0x44, 0x55, 0x55,
		0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x66,
		0x77, 0x77, 0x88, 0x88, 0x99, 0x99, 0x00, 0x00 };
	const struct softrdma_iwarp_rreq rr = {
		.sink_stag = 0x11, .sink_to = 0x2222333344445555ULL,
		.size = 65536, .src_stag = 0x66,
		.src_to = 0x7777888899990000ULL,
	};
	struct iwarp_untagged_hdr u;
	struct iwarp_tagged_hdr t;
	struct iwarp_read_req r;

	memset(&t, 0xa5, sizeof(t));
	KUNIT_EXPECT_EQ(test, softrdma_iwarp_build_tagged(&t, IWARP_OP_WRITE,
							  true, 0x12345678,
							  0x0123456789abcdefULL,
							  100), 16);
	expect_bytes(test, &t, write, sizeof(write));
	memset(&t, 0xa5, sizeof(t));
	KUNIT_EXPECT_EQ(test, softrdma_iwarp_build_tagged(&t,
							  IWARP_OP_READ_RESP,
							  false, 0xfffffffe,
							  0x1000, 4096), 16);
	expect_bytes(test, &t, rresp, sizeof(rresp));

	memset(&u, 0xa5, sizeof(u));
	KUNIT_EXPECT_EQ(test, softrdma_iwarp_build_untagged(&u, IWARP_OP_SEND,
							    true, 0, 1, 0, 0),
			20);
	expect_bytes(test, &u, send, sizeof(send));
	memset(&u, 0xa5, sizeof(u));
	KUNIT_EXPECT_EQ(test, softrdma_iwarp_build_untagged(&u,
							    IWARP_OP_SEND_SE_INV,
							    false, 0xabcdef01,
							    7, 8192, 1000),
			20);
	expect_bytes(test, &u, send_se_inv, sizeof(send_se_inv));

	memset(&r, 0xa5, sizeof(r));
	KUNIT_EXPECT_EQ(test, softrdma_iwarp_build_read_req(&r, 0x10203, &rr),
			48);
	expect_bytes(test, &r, rreq, sizeof(rreq));
}

static void softrdma_iwarp_pdu_build_invalid(struct kunit *test)
{
	struct iwarp_untagged_hdr u;
	struct iwarp_tagged_hdr t;

	KUNIT_EXPECT_EQ(test, softrdma_iwarp_build_tagged(&t, IWARP_OP_SEND,
							  true, 1, 0, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, softrdma_iwarp_build_tagged(&t, 8, true, 1, 0,
							  0), -EINVAL);
	/* the ULPDU length is 16 bits: header 14 + payload */
	KUNIT_EXPECT_EQ(test, softrdma_iwarp_build_tagged(&t, IWARP_OP_WRITE,
							  true, 1, 0,
							  65535 - 14), 16);
	KUNIT_EXPECT_EQ(test, softrdma_iwarp_build_tagged(&t, IWARP_OP_WRITE,
							  true, 1, 0,
							  65535 - 13),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, softrdma_iwarp_build_untagged(&u, IWARP_OP_WRITE,
							    true, 0, 1, 0, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, softrdma_iwarp_build_untagged(&u,
							    IWARP_OP_READ_REQ,
							    true, 0, 1, 0, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, softrdma_iwarp_build_untagged(&u,
							    IWARP_OP_TERMINATE,
							    true, 0, 1, 0, 0),
			-EINVAL);
	/* an STag to invalidate only with the invalidating opcodes */
	KUNIT_EXPECT_EQ(test, softrdma_iwarp_build_untagged(&u, IWARP_OP_SEND,
							    true, 5, 1, 0, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, softrdma_iwarp_build_untagged(&u,
							    IWARP_OP_SEND_SE,
							    true, 5, 1, 0, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, softrdma_iwarp_build_untagged(&u, IWARP_OP_SEND,
							    true, 0, 1, 0,
							    65535 - 18), 20);
	KUNIT_EXPECT_EQ(test, softrdma_iwarp_build_untagged(&u, IWARP_OP_SEND,
							    true, 0, 1, 0,
							    65535 - 17),
			-EINVAL);
}

/* --- parsing ------------------------------------------------------------ */

struct parse_case {
	const char *name;
	struct raw_hdr h;
	unsigned int avail;
	enum softrdma_iwarp_err err;
	u8 opcode;
	bool tagged;
	bool last;
	bool se;
	u32 stag;
	u64 to;
	u32 qn;
	u32 msn;
	u32 mo;
	u32 inval;
	u16 ulpdu_len;
	u16 hdr_len;
	u16 payload_len;
	struct softrdma_iwarp_rreq rreq;
};

static const struct parse_case parse_cases[] = {
	/* well formed */
	{ .name = "write_last",
	  .h = { .len = 14 + 100, .ddp = DDP_TL, .rdmap = RDMAP(0),
		 .stag = 0x12345678, .to = 0x0123456789abcdefULL },
	  .avail = 16, .opcode = IWARP_OP_WRITE, .tagged = true, .last = true,
	  .stag = 0x12345678, .to = 0x0123456789abcdefULL,
	  .ulpdu_len = 114, .hdr_len = 16, .payload_len = 100 },
	{ .name = "write_zero_length_rtr",
	  .h = { .len = 14, .ddp = DDP_TL, .rdmap = RDMAP(0) },
	  .avail = 16, .opcode = IWARP_OP_WRITE, .tagged = true, .last = true,
	  .ulpdu_len = 14, .hdr_len = 16 },
	{ .name = "write_stag_0_is_well_formed",
	  .h = { .len = 15, .ddp = DDP_TL, .rdmap = RDMAP(0), .to = 0x40 },
	  .avail = 17, .opcode = IWARP_OP_WRITE, .tagged = true, .last = true,
	  .to = 0x40, .ulpdu_len = 15, .hdr_len = 16, .payload_len = 1 },
	{ .name = "read_resp_middle",
	  .h = { .len = 14 + 1440, .ddp = DDP_T, .rdmap = RDMAP(2), .stag = 7,
		 .to = 0x10000 },
	  .avail = 16, .opcode = IWARP_OP_READ_RESP, .tagged = true,
	  .stag = 7, .to = 0x10000, .ulpdu_len = 1454, .hdr_len = 16,
	  .payload_len = 1440 },
	{ .name = "write_to_ends_at_2_64",
	  .h = { .len = 14 + 256, .ddp = DDP_TL, .rdmap = RDMAP(0), .stag = 1,
		 .to = 0xffffffffffffff00ULL },
	  .avail = 16, .opcode = IWARP_OP_WRITE, .tagged = true, .last = true,
	  .stag = 1, .to = 0xffffffffffffff00ULL, .ulpdu_len = 270,
	  .hdr_len = 16, .payload_len = 256 },
	{ .name = "send_first",
	  .h = { .len = 18 + 1436, .ddp = DDP_U, .rdmap = RDMAP(3), .msn = 1 },
	  .avail = 20, .opcode = IWARP_OP_SEND, .msn = 1,
	  .ulpdu_len = 1454, .hdr_len = 20, .payload_len = 1436 },
	{ .name = "send_inv_last",
	  .h = { .len = 18 + 4, .ddp = DDP_UL, .rdmap = RDMAP(4),
		 .stag = 0xdeadbeef, .msn = 2, .mo = 1436 },
	  .avail = 24, .opcode = IWARP_OP_SEND_INV, .last = true,
	  .inval = 0xdeadbeef, .msn = 2, .mo = 1436, .ulpdu_len = 22,
	  .hdr_len = 20, .payload_len = 4 },
	{ .name = "send_se",
	  .h = { .len = 18, .ddp = DDP_UL, .rdmap = RDMAP(5),
		 .msn = 0xffffffff },
	  .avail = 20, .opcode = IWARP_OP_SEND_SE, .last = true, .se = true,
	  .msn = 0xffffffff, .ulpdu_len = 18, .hdr_len = 20 },
	{ .name = "send_se_inv",
	  .h = { .len = 18 + 8, .ddp = DDP_UL, .rdmap = RDMAP(6), .stag = 0x100,
		 .msn = 3 },
	  .avail = 20, .opcode = IWARP_OP_SEND_SE_INV, .last = true,
	  .se = true, .inval = 0x100, .msn = 3, .ulpdu_len = 26,
	  .hdr_len = 20, .payload_len = 8 },
	{ .name = "send_reserved_stag_field_ignored",
	  .h = { .len = 18, .ddp = DDP_UL, .rdmap = RDMAP(3), .stag = 0x55,
		 .msn = 1 },
	  .avail = 20, .opcode = IWARP_OP_SEND, .last = true, .msn = 1,
	  .ulpdu_len = 18, .hdr_len = 20 },
	{ .name = "reserved_bits_ignored",
	  .h = { .len = 18, .ddp = DDP_UL | 0x3c, .rdmap = RDMAP(3) | 0x30,
		 .msn = 1 },
	  .avail = 20, .opcode = IWARP_OP_SEND, .last = true, .msn = 1,
	  .ulpdu_len = 18, .hdr_len = 20 },
	{ .name = "read_request",
	  .h = { .len = 46, .ddp = DDP_UL, .rdmap = RDMAP(1), .qn = 1, .msn = 9,
		 .body = { 0x11, 0x2000, 4096, 0x22, 0x3000 } },
	  .avail = 48, .opcode = IWARP_OP_READ_REQ, .last = true, .qn = 1,
	  .msn = 9, .ulpdu_len = 46, .hdr_len = 48,
	  .rreq = { 0x11, 0x2000, 4096, 0x22, 0x3000 } },
	{ .name = "read_request_zero_size_at_top",
	  .h = { .len = 46, .ddp = DDP_UL, .rdmap = RDMAP(1), .qn = 1, .msn = 1,
		 .body = { 1, U64_MAX, 0, 2, U64_MAX } },
	  .avail = 48, .opcode = IWARP_OP_READ_REQ, .last = true, .qn = 1,
	  .msn = 1, .ulpdu_len = 46, .hdr_len = 48,
	  .rreq = { 1, U64_MAX, 0, 2, U64_MAX } },
	{ .name = "terminate_bare",
	  .h = { .len = 22, .ddp = DDP_UL, .rdmap = RDMAP(7), .qn = 2, .msn = 1,
		 .info = 0x20020000 },
	  .avail = 24, .opcode = IWARP_OP_TERMINATE, .last = true, .qn = 2,
	  .msn = 1, .ulpdu_len = 22, .hdr_len = 24 },
	{ .name = "terminate_full_copy",
	  .h = { .len = 22 + 48, .ddp = DDP_UL, .rdmap = RDMAP(7), .qn = 2,
		 .msn = 1, .info = 0x0001e000 },
	  .avail = 24, .opcode = IWARP_OP_TERMINATE, .last = true, .qn = 2,
	  .msn = 1, .ulpdu_len = 70, .hdr_len = 24, .payload_len = 48 },

	/* not enough bytes yet */
	{ .name = "incomplete_control", .h = { .len = 18, .ddp = DDP_UL },
	  .avail = 3, .err = SOFTRDMA_IWERR_INCOMPLETE, .hdr_len = 4 },
	{ .name = "incomplete_tagged",
	  .h = { .len = 14, .ddp = DDP_TL, .rdmap = RDMAP(0), .stag = 1,
		 .to = 2 },
	  .avail = 15, .err = SOFTRDMA_IWERR_INCOMPLETE,
	  .opcode = IWARP_OP_WRITE, .tagged = true, .last = true,
	  .ulpdu_len = 14, .hdr_len = 16 },
	{ .name = "incomplete_read_request",
	  .h = { .len = 46, .ddp = DDP_UL, .rdmap = RDMAP(1), .qn = 1,
		 .msn = 1 },
	  .avail = 20, .err = SOFTRDMA_IWERR_INCOMPLETE,
	  .opcode = IWARP_OP_READ_REQ, .last = true, .ulpdu_len = 46,
	  .hdr_len = 48 },

	/* malformed */
	{ .name = "short_tagged",
	  .h = { .len = 13, .ddp = DDP_TL, .rdmap = RDMAP(0), .stag = 1,
		 .to = 2 },
	  .avail = 16, .err = SOFTRDMA_IWERR_SHORT, .opcode = IWARP_OP_WRITE,
	  .tagged = true, .last = true, .ulpdu_len = 13 },
	{ .name = "short_found_before_waiting",
	  .h = { .len = 45, .ddp = DDP_UL, .rdmap = RDMAP(1), .qn = 1,
		 .msn = 1 },
	  .avail = 4, .err = SOFTRDMA_IWERR_SHORT,
	  .opcode = IWARP_OP_READ_REQ, .last = true, .ulpdu_len = 45 },
	{ .name = "short_zero_ulpdu",
	  .h = { .len = 0, .ddp = DDP_UL, .rdmap = RDMAP(3), .msn = 1 },
	  .avail = 20, .err = SOFTRDMA_IWERR_SHORT, .opcode = IWARP_OP_SEND,
	  .last = true },
	{ .name = "ddp_version_0_tagged",
	  .h = { .len = 14, .ddp = 0xc0, .rdmap = RDMAP(0), .stag = 1,
		 .to = 2 },
	  .avail = 16, .err = SOFTRDMA_IWERR_DDP_VERSION_T,
	  .opcode = IWARP_OP_WRITE, .tagged = true, .last = true,
	  .ulpdu_len = 14 },
	{ .name = "ddp_version_2_untagged",
	  .h = { .len = 18, .ddp = 0x42, .rdmap = RDMAP(3), .msn = 1 },
	  .avail = 20, .err = SOFTRDMA_IWERR_DDP_VERSION_U,
	  .opcode = IWARP_OP_SEND, .last = true, .ulpdu_len = 18 },
	{ .name = "ddp_version_3_untagged",
	  .h = { .len = 18, .ddp = 0x43, .rdmap = RDMAP(3), .msn = 1 },
	  .avail = 20, .err = SOFTRDMA_IWERR_DDP_VERSION_U,
	  .opcode = IWARP_OP_SEND, .last = true, .ulpdu_len = 18 },
	{ .name = "rdmap_version_0",
	  .h = { .len = 18, .ddp = DDP_UL, .rdmap = 0x03, .msn = 1 },
	  .avail = 20, .err = SOFTRDMA_IWERR_RDMAP_VERSION,
	  .opcode = IWARP_OP_SEND, .last = true, .ulpdu_len = 18 },
	{ .name = "rdmap_version_2",
	  .h = { .len = 14, .ddp = DDP_TL, .rdmap = 0x80, .stag = 1, .to = 2 },
	  .avail = 16, .err = SOFTRDMA_IWERR_RDMAP_VERSION,
	  .opcode = IWARP_OP_WRITE, .tagged = true, .last = true,
	  .ulpdu_len = 14 },
	{ .name = "opcode_8",
	  .h = { .len = 18, .ddp = DDP_UL, .rdmap = RDMAP(8), .msn = 1 },
	  .avail = 20, .err = SOFTRDMA_IWERR_OPCODE, .opcode = 8,
	  .last = true, .ulpdu_len = 18 },
	{ .name = "opcode_15_tagged",
	  .h = { .len = 14, .ddp = DDP_TL, .rdmap = RDMAP(15), .stag = 1,
		 .to = 2 },
	  .avail = 16, .err = SOFTRDMA_IWERR_OPCODE, .opcode = 15,
	  .tagged = true, .last = true, .ulpdu_len = 14 },
	{ .name = "write_untagged",
	  .h = { .len = 18, .ddp = DDP_UL, .rdmap = RDMAP(0), .msn = 1 },
	  .avail = 20, .err = SOFTRDMA_IWERR_OPCODE,
	  .opcode = IWARP_OP_WRITE, .last = true, .ulpdu_len = 18 },
	{ .name = "send_tagged",
	  .h = { .len = 14, .ddp = DDP_TL, .rdmap = RDMAP(3), .stag = 1,
		 .to = 2 },
	  .avail = 16, .err = SOFTRDMA_IWERR_OPCODE,
	  .opcode = IWARP_OP_SEND, .tagged = true, .last = true,
	  .ulpdu_len = 14 },
	{ .name = "read_request_tagged",
	  .h = { .len = 14, .ddp = DDP_TL, .rdmap = RDMAP(1), .stag = 1,
		 .to = 2 },
	  .avail = 16, .err = SOFTRDMA_IWERR_OPCODE,
	  .opcode = IWARP_OP_READ_REQ, .tagged = true, .last = true,
	  .ulpdu_len = 14 },
	{ .name = "terminate_tagged",
	  .h = { .len = 14, .ddp = DDP_TL, .rdmap = RDMAP(7), .stag = 1,
		 .to = 2 },
	  .avail = 16, .err = SOFTRDMA_IWERR_OPCODE,
	  .opcode = IWARP_OP_TERMINATE, .tagged = true, .last = true,
	  .ulpdu_len = 14 },
	{ .name = "send_on_queue_1",
	  .h = { .len = 18, .ddp = DDP_UL, .rdmap = RDMAP(3), .qn = 1,
		 .msn = 1 },
	  .avail = 20, .err = SOFTRDMA_IWERR_QN, .opcode = IWARP_OP_SEND,
	  .last = true, .qn = 1, .msn = 1, .ulpdu_len = 18, .hdr_len = 20 },
	{ .name = "send_on_queue_3",
	  .h = { .len = 18, .ddp = DDP_UL, .rdmap = RDMAP(3), .qn = 3,
		 .msn = 1 },
	  .avail = 20, .err = SOFTRDMA_IWERR_QN, .opcode = IWARP_OP_SEND,
	  .last = true, .qn = 3, .msn = 1, .ulpdu_len = 18, .hdr_len = 20 },
	{ .name = "read_request_on_queue_0",
	  .h = { .len = 46, .ddp = DDP_UL, .rdmap = RDMAP(1), .msn = 1,
		 .body = { 1, 2, 3, 4, 5 } },
	  .avail = 48, .err = SOFTRDMA_IWERR_QN,
	  .opcode = IWARP_OP_READ_REQ, .last = true, .msn = 1,
	  .ulpdu_len = 46, .hdr_len = 48 },
	{ .name = "terminate_on_queue_1",
	  .h = { .len = 22, .ddp = DDP_UL, .rdmap = RDMAP(7), .qn = 1,
		 .msn = 1 },
	  .avail = 24, .err = SOFTRDMA_IWERR_QN,
	  .opcode = IWARP_OP_TERMINATE, .last = true, .qn = 1, .msn = 1,
	  .ulpdu_len = 22, .hdr_len = 24 },
	{ .name = "read_request_mo",
	  .h = { .len = 46, .ddp = DDP_UL, .rdmap = RDMAP(1), .qn = 1, .msn = 1,
		 .mo = 4, .body = { 1, 2, 3, 4, 5 } },
	  .avail = 48, .err = SOFTRDMA_IWERR_MO,
	  .opcode = IWARP_OP_READ_REQ, .last = true, .qn = 1, .msn = 1,
	  .mo = 4, .ulpdu_len = 46, .hdr_len = 48,
	  .rreq = { 1, 2, 3, 4, 5 } },
	{ .name = "send_mo_wraps",
	  .h = { .len = 18 + 32, .ddp = DDP_UL, .rdmap = RDMAP(3), .msn = 1,
		 .mo = 0xfffffff0 },
	  .avail = 20, .err = SOFTRDMA_IWERR_MO, .opcode = IWARP_OP_SEND,
	  .last = true, .msn = 1, .mo = 0xfffffff0, .ulpdu_len = 50,
	  .hdr_len = 20, .payload_len = 32 },
	{ .name = "send_mo_ends_at_2_32",
	  .h = { .len = 18 + 16, .ddp = DDP_UL, .rdmap = RDMAP(3), .msn = 1,
		 .mo = 0xfffffff0 },
	  .avail = 20, .opcode = IWARP_OP_SEND, .last = true, .msn = 1,
	  .mo = 0xfffffff0, .ulpdu_len = 34, .hdr_len = 20,
	  .payload_len = 16 },
	{ .name = "read_request_not_last",
	  .h = { .len = 46, .ddp = DDP_U, .rdmap = RDMAP(1), .qn = 1, .msn = 1,
		 .body = { 1, 2, 3, 4, 5 } },
	  .avail = 48, .err = SOFTRDMA_IWERR_NOT_LAST,
	  .opcode = IWARP_OP_READ_REQ, .qn = 1, .msn = 1, .ulpdu_len = 46,
	  .hdr_len = 48, .rreq = { 1, 2, 3, 4, 5 } },
	{ .name = "terminate_not_last",
	  .h = { .len = 22, .ddp = DDP_U, .rdmap = RDMAP(7), .qn = 2,
		 .msn = 1 },
	  .avail = 24, .err = SOFTRDMA_IWERR_NOT_LAST,
	  .opcode = IWARP_OP_TERMINATE, .qn = 2, .msn = 1, .ulpdu_len = 22,
	  .hdr_len = 24 },
	{ .name = "read_request_with_payload",
	  .h = { .len = 50, .ddp = DDP_UL, .rdmap = RDMAP(1), .qn = 1, .msn = 1,
		 .body = { 1, 2, 3, 4, 5 } },
	  .avail = 48, .err = SOFTRDMA_IWERR_RREQ_PAYLOAD,
	  .opcode = IWARP_OP_READ_REQ, .last = true, .qn = 1, .msn = 1,
	  .ulpdu_len = 50, .hdr_len = 48, .payload_len = 4,
	  .rreq = { 1, 2, 3, 4, 5 } },
	{ .name = "write_to_wraps",
	  .h = { .len = 14 + 257, .ddp = DDP_TL, .rdmap = RDMAP(0), .stag = 1,
		 .to = 0xffffffffffffff00ULL },
	  .avail = 16, .err = SOFTRDMA_IWERR_TO_WRAP,
	  .opcode = IWARP_OP_WRITE, .tagged = true, .last = true, .stag = 1,
	  .to = 0xffffffffffffff00ULL, .ulpdu_len = 271, .hdr_len = 16,
	  .payload_len = 257 },
	{ .name = "read_request_sink_wraps",
	  .h = { .len = 46, .ddp = DDP_UL, .rdmap = RDMAP(1), .qn = 1, .msn = 1,
		 .body = { 1, U64_MAX, 2, 3, 0 } },
	  .avail = 48, .err = SOFTRDMA_IWERR_RREQ_TO_WRAP,
	  .opcode = IWARP_OP_READ_REQ, .last = true, .qn = 1, .msn = 1,
	  .ulpdu_len = 46, .hdr_len = 48, .rreq = { 1, U64_MAX, 2, 3, 0 } },
	{ .name = "read_request_source_wraps",
	  .h = { .len = 46, .ddp = DDP_UL, .rdmap = RDMAP(1), .qn = 1, .msn = 1,
		 .body = { 1, 0, 0x1000, 3, 0xfffffffffffff001ULL } },
	  .avail = 48, .err = SOFTRDMA_IWERR_RREQ_TO_WRAP,
	  .opcode = IWARP_OP_READ_REQ, .last = true, .qn = 1, .msn = 1,
	  .ulpdu_len = 46, .hdr_len = 48,
	  .rreq = { 1, 0, 0x1000, 3, 0xfffffffffffff001ULL } },
	{ .name = "terminate_too_long",
	  .h = { .len = 22 + 49, .ddp = DDP_UL, .rdmap = RDMAP(7), .qn = 2,
		 .msn = 1, .info = 0x0001e000 },
	  .avail = 24, .err = SOFTRDMA_IWERR_TERM_LEN,
	  .opcode = IWARP_OP_TERMINATE, .last = true, .qn = 2, .msn = 1,
	  .ulpdu_len = 71, .hdr_len = 24, .payload_len = 49 },
};

static void parse_case_desc(const struct parse_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(parse, parse_cases, parse_case_desc);

static void softrdma_iwarp_pdu_parse_table(struct kunit *test)
{
	const struct parse_case *c = test->param_value;
	struct softrdma_iwarp_pdu pdu;
	u8 bytes[48];

	raw_encode(&c->h, bytes);
	memset(&pdu, 0xa5, sizeof(pdu));
	KUNIT_ASSERT_EQ(test, softrdma_iwarp_parse(bytes, c->avail, &pdu),
			c->err);
	KUNIT_EXPECT_EQ(test, pdu.opcode, c->opcode);
	KUNIT_EXPECT_EQ(test, pdu.tagged, c->tagged);
	KUNIT_EXPECT_EQ(test, pdu.last, c->last);
	KUNIT_EXPECT_EQ(test, pdu.se, c->se);
	KUNIT_EXPECT_EQ(test, pdu.stag, c->stag);
	KUNIT_EXPECT_EQ(test, pdu.to, c->to);
	KUNIT_EXPECT_EQ(test, pdu.qn, c->qn);
	KUNIT_EXPECT_EQ(test, pdu.msn, c->msn);
	KUNIT_EXPECT_EQ(test, pdu.mo, c->mo);
	KUNIT_EXPECT_EQ(test, pdu.inval_stag, c->inval);
	KUNIT_EXPECT_EQ(test, pdu.ulpdu_len, c->ulpdu_len);
	KUNIT_EXPECT_EQ(test, pdu.hdr_len, c->hdr_len);
	KUNIT_EXPECT_EQ(test, pdu.payload_len, c->payload_len);
	KUNIT_EXPECT_EQ(test, pdu.rreq.sink_stag, c->rreq.sink_stag);
	KUNIT_EXPECT_EQ(test, pdu.rreq.sink_to, c->rreq.sink_to);
	KUNIT_EXPECT_EQ(test, pdu.rreq.size, c->rreq.size);
	KUNIT_EXPECT_EQ(test, pdu.rreq.src_stag, c->rreq.src_stag);
	KUNIT_EXPECT_EQ(test, pdu.rreq.src_to, c->rreq.src_to);

	/* hdr_len() agrees with parse() on the control bytes */
	if (c->avail >= 4) {
		unsigned int n = softrdma_iwarp_hdr_len((const void *)bytes);

		if (c->err == SOFTRDMA_IWERR_OPCODE ||
		    c->err == SOFTRDMA_IWERR_DDP_VERSION_T ||
		    c->err == SOFTRDMA_IWERR_DDP_VERSION_U ||
		    c->err == SOFTRDMA_IWERR_RDMAP_VERSION)
			KUNIT_EXPECT_EQ(test, n, 0);
		else
			KUNIT_EXPECT_EQ(test, n,
					softrdma_iwarp_op(c->opcode)->hdr_len);
	}
}

/* what the builders write, the parser reads back */
static void softrdma_iwarp_pdu_build_parse_round_trip(struct kunit *test)
{
	const struct softrdma_iwarp_rreq rr = { 0xaabbccdd, 1ULL << 40, 777,
						0x01020304, 12345 };
	struct softrdma_iwarp_pdu pdu;
	union {
		struct iwarp_tagged_hdr t;
		struct iwarp_untagged_hdr u;
		struct iwarp_read_req r;
	} h;
	u8 op;

	for (op = 0; op <= IWARP_OP_MAX; op++) {
		const struct softrdma_iwarp_op *info = softrdma_iwarp_op(op);
		int n;

		if (info->tagged)
			n = softrdma_iwarp_build_tagged(&h.t, op, op & 1,
							0x5000 + op,
							0x100000000ULL * op,
							64 * op);
		else if (op == IWARP_OP_READ_REQ)
			n = softrdma_iwarp_build_read_req(&h.r, 42, &rr);
		else if (op == IWARP_OP_TERMINATE)
			continue;	/* its own round trip below */
		else
			n = softrdma_iwarp_build_untagged(&h.u, op, true,
							  info->inval ? 99 : 0,
							  op, 8 * op, 10 * op);
		KUNIT_ASSERT_EQ(test, n, (int)info->hdr_len);
		KUNIT_ASSERT_EQ_MSG(test, softrdma_iwarp_parse(&h, n, &pdu),
				    SOFTRDMA_IWERR_NONE, "%s", info->name);
		KUNIT_EXPECT_EQ(test, pdu.opcode, op);
		KUNIT_EXPECT_EQ(test, pdu.hdr_len, info->hdr_len);
		KUNIT_EXPECT_EQ(test, pdu.se, info->se);
		if (info->tagged) {
			KUNIT_EXPECT_EQ(test, pdu.last, (bool)(op & 1));
			KUNIT_EXPECT_EQ(test, pdu.stag, 0x5000 + op);
			KUNIT_EXPECT_EQ(test, pdu.to, 0x100000000ULL * op);
			KUNIT_EXPECT_EQ(test, pdu.payload_len, 64 * op);
		} else if (op == IWARP_OP_READ_REQ) {
			KUNIT_EXPECT_EQ(test, pdu.msn, 42);
			KUNIT_EXPECT_EQ(test, pdu.payload_len, 0);
			KUNIT_EXPECT_EQ(test, pdu.rreq.sink_stag, rr.sink_stag);
			KUNIT_EXPECT_EQ(test, pdu.rreq.sink_to, rr.sink_to);
			KUNIT_EXPECT_EQ(test, pdu.rreq.size, rr.size);
			KUNIT_EXPECT_EQ(test, pdu.rreq.src_stag, rr.src_stag);
			KUNIT_EXPECT_EQ(test, pdu.rreq.src_to, rr.src_to);
		} else {
			KUNIT_EXPECT_EQ(test, pdu.inval_stag,
					info->inval ? 99 : 0);
			KUNIT_EXPECT_EQ(test, pdu.msn, op);
			KUNIT_EXPECT_EQ(test, pdu.mo, 8 * op);
			KUNIT_EXPECT_EQ(test, pdu.payload_len, 10 * op);
		}
	}
}

/* --- TERMINATE codes ---------------------------------------------------- */

struct err_row {
	enum softrdma_iwarp_err err;
	u8 layer, etype, ecode;
	bool copy_ddp, copy_rdmap;
};

/* RFC 5040 4.8 Figs 9-10, RFC 5041 7.2, RFC 5044 8, written out apart */
static const struct err_row err_rows[] = {
	{ SOFTRDMA_IWERR_DDP_VERSION_T, 1, 1, 0x04, false, false },
	{ SOFTRDMA_IWERR_DDP_VERSION_U, 1, 2, 0x06, false, false },
	{ SOFTRDMA_IWERR_RDMAP_VERSION, 0, 2, 0x05, false, false },
	{ SOFTRDMA_IWERR_OPCODE, 0, 2, 0x06, true, false },
	{ SOFTRDMA_IWERR_SHORT, 0, 2, 0xff, false, false },
	{ SOFTRDMA_IWERR_QN, 1, 2, 0x01, true, false },
	{ SOFTRDMA_IWERR_MO, 1, 2, 0x04, true, false },
	{ SOFTRDMA_IWERR_NOT_LAST, 0, 2, 0xff, true, false },
	{ SOFTRDMA_IWERR_TO_WRAP, 1, 1, 0x03, true, false },
	{ SOFTRDMA_IWERR_RREQ_PAYLOAD, 0, 2, 0xff, true, true },
	{ SOFTRDMA_IWERR_RREQ_TO_WRAP, 0, 1, 0x04, true, true },
	{ SOFTRDMA_IWERR_TERM_LEN, 0, 2, 0xff, false, false },
	{ SOFTRDMA_IWERR_T_INV_STAG, 1, 1, 0x00, true, false },
	{ SOFTRDMA_IWERR_T_BOUNDS, 1, 1, 0x01, true, false },
	{ SOFTRDMA_IWERR_T_STAG_STREAM, 1, 1, 0x02, true, false },
	{ SOFTRDMA_IWERR_U_MSN_NOBUF, 1, 2, 0x02, true, false },
	{ SOFTRDMA_IWERR_U_MSN_RANGE, 1, 2, 0x03, true, false },
	{ SOFTRDMA_IWERR_U_TOO_LONG, 1, 2, 0x05, true, false },
	{ SOFTRDMA_IWERR_U_LOCAL, 1, 0, 0x00, true, false },
	{ SOFTRDMA_IWERR_RREQ_INV_STAG, 0, 1, 0x00, true, true },
	{ SOFTRDMA_IWERR_RREQ_BOUNDS, 0, 1, 0x01, true, true },
	{ SOFTRDMA_IWERR_RREQ_ACCESS, 0, 1, 0x02, true, true },
	{ SOFTRDMA_IWERR_RREQ_STAG_STREAM, 0, 1, 0x03, true, true },
	{ SOFTRDMA_IWERR_INV_STAG, 0, 2, 0x09, true, false },
	{ SOFTRDMA_IWERR_IRD, 0, 2, 0x07, true, true },
	{ SOFTRDMA_IWERR_CRC, 2, 0, 0x02, false, false },
	{ SOFTRDMA_IWERR_ULPDU_LEN, 2, 0, 0x05, false, false },
	{ SOFTRDMA_IWERR_CATASTROPHIC, 0, 0, 0x00, false, false },
	{ SOFTRDMA_IWERR_SQ_LOCAL, 0, 0, 0x00, false, false },
};

static void softrdma_iwarp_pdu_err_table(struct kunit *test)
{
	unsigned int i;

	KUNIT_EXPECT_NULL(test, softrdma_iwarp_err_info(SOFTRDMA_IWERR_NONE));
	KUNIT_EXPECT_NULL(test,
			  softrdma_iwarp_err_info(SOFTRDMA_IWERR_INCOMPLETE));
	KUNIT_EXPECT_NULL(test, softrdma_iwarp_err_info(SOFTRDMA_IWERR_MAX));
	/* every error has a row here, so the table is complete */
	KUNIT_EXPECT_EQ(test, ARRAY_SIZE(err_rows),
			SOFTRDMA_IWERR_MAX - SOFTRDMA_IWERR_INCOMPLETE - 1);
	for (i = 0; i < ARRAY_SIZE(err_rows); i++) {
		const struct err_row *w = &err_rows[i];
		const struct softrdma_iwarp_err_info *e;

		e = softrdma_iwarp_err_info(w->err);
		KUNIT_ASSERT_NOT_NULL_MSG(test, e, "err %d", w->err);
		KUNIT_EXPECT_NOT_NULL_MSG(test, e->name, "err %d", w->err);
		KUNIT_EXPECT_EQ_MSG(test, e->layer, w->layer, "%s", e->name);
		KUNIT_EXPECT_EQ_MSG(test, e->etype, w->etype, "%s", e->name);
		KUNIT_EXPECT_EQ_MSG(test, e->ecode, w->ecode, "%s", e->name);
		KUNIT_EXPECT_EQ_MSG(test, e->copy_ddp, w->copy_ddp, "%s",
				    e->name);
		KUNIT_EXPECT_EQ_MSG(test, e->copy_rdmap, w->copy_rdmap, "%s",
				    e->name);
	}
	for (i = SOFTRDMA_IWERR_INCOMPLETE + 1; i < SOFTRDMA_IWERR_MAX; i++)
		KUNIT_EXPECT_NOT_NULL_MSG(test, softrdma_iwarp_err_info(i),
					  "err %u", i);
}

/* Each error we find in the stream, as the QP's affiliated error */
static const struct {
	enum softrdma_iwarp_err err;
	enum softrdma_qp_err_cause cause;
} cause_rows[] = {
	{ SOFTRDMA_IWERR_DDP_VERSION_T, SOFTRDMA_QP_ERR_REQ },
	{ SOFTRDMA_IWERR_DDP_VERSION_U, SOFTRDMA_QP_ERR_REQ },
	{ SOFTRDMA_IWERR_RDMAP_VERSION, SOFTRDMA_QP_ERR_REQ },
	{ SOFTRDMA_IWERR_OPCODE, SOFTRDMA_QP_ERR_REQ },
	{ SOFTRDMA_IWERR_SHORT, SOFTRDMA_QP_ERR_REQ },
	{ SOFTRDMA_IWERR_QN, SOFTRDMA_QP_ERR_REQ },
	{ SOFTRDMA_IWERR_MO, SOFTRDMA_QP_ERR_REQ },
	{ SOFTRDMA_IWERR_NOT_LAST, SOFTRDMA_QP_ERR_REQ },
	{ SOFTRDMA_IWERR_TO_WRAP, SOFTRDMA_QP_ERR_ACCESS },
	{ SOFTRDMA_IWERR_RREQ_PAYLOAD, SOFTRDMA_QP_ERR_REQ },
	{ SOFTRDMA_IWERR_RREQ_TO_WRAP, SOFTRDMA_QP_ERR_ACCESS },
	{ SOFTRDMA_IWERR_TERM_LEN, SOFTRDMA_QP_ERR_REQ },
	{ SOFTRDMA_IWERR_T_INV_STAG, SOFTRDMA_QP_ERR_ACCESS },
	{ SOFTRDMA_IWERR_T_BOUNDS, SOFTRDMA_QP_ERR_ACCESS },
	{ SOFTRDMA_IWERR_T_STAG_STREAM, SOFTRDMA_QP_ERR_ACCESS },
	{ SOFTRDMA_IWERR_U_MSN_NOBUF, SOFTRDMA_QP_ERR_REQ },
	{ SOFTRDMA_IWERR_U_MSN_RANGE, SOFTRDMA_QP_ERR_REQ },
	/* a Send longer than its receive WQE: IB_WC_LOC_LEN_ERR says it */
	{ SOFTRDMA_IWERR_U_TOO_LONG, SOFTRDMA_QP_ERR_WC },
	/* our own receive WQE: its completion reports it, no event */
	{ SOFTRDMA_IWERR_U_LOCAL, SOFTRDMA_QP_ERR_WC },
	{ SOFTRDMA_IWERR_RREQ_INV_STAG, SOFTRDMA_QP_ERR_ACCESS },
	{ SOFTRDMA_IWERR_RREQ_BOUNDS, SOFTRDMA_QP_ERR_ACCESS },
	{ SOFTRDMA_IWERR_RREQ_ACCESS, SOFTRDMA_QP_ERR_ACCESS },
	{ SOFTRDMA_IWERR_RREQ_STAG_STREAM, SOFTRDMA_QP_ERR_ACCESS },
	{ SOFTRDMA_IWERR_INV_STAG, SOFTRDMA_QP_ERR_REQ },
	{ SOFTRDMA_IWERR_IRD, SOFTRDMA_QP_ERR_REQ },
	{ SOFTRDMA_IWERR_CRC, SOFTRDMA_QP_ERR_LOCAL },
	{ SOFTRDMA_IWERR_ULPDU_LEN, SOFTRDMA_QP_ERR_LOCAL },
	{ SOFTRDMA_IWERR_CATASTROPHIC, SOFTRDMA_QP_ERR_LOCAL },
	/* our own send WQE: its completion reports it, no event */
	{ SOFTRDMA_IWERR_SQ_LOCAL, SOFTRDMA_QP_ERR_WC },
	/* no TERMINATE to build: the QP still fails */
	{ SOFTRDMA_IWERR_NONE, SOFTRDMA_QP_ERR_LOCAL },
	{ SOFTRDMA_IWERR_MAX, SOFTRDMA_QP_ERR_LOCAL },
};

static void softrdma_iwarp_pdu_err_cause(struct kunit *test)
{
	unsigned int i;

	/* every error has a row, NONE and MAX besides */
	KUNIT_EXPECT_EQ(test, ARRAY_SIZE(cause_rows),
			SOFTRDMA_IWERR_MAX - SOFTRDMA_IWERR_INCOMPLETE - 1 + 2);
	for (i = 0; i < ARRAY_SIZE(cause_rows); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    softrdma_iwarp_err_cause(cause_rows[i].err),
				    cause_rows[i].cause, "err %d",
				    cause_rows[i].err);
}

/*
 * A Send into a receive WQE that fails on our side (its local key
 * refused, or the WQE malformed) completes that WQE in error: the QP
 * enters ERR without an affiliated event, QP_FATAL least of all.
 */
static void softrdma_iwarp_pdu_rqe_local_no_event(struct kunit *test)
{
	enum ib_event_type event = IB_EVENT_QP_FATAL;
	enum softrdma_qp_err_cause local, cata;

	local = softrdma_iwarp_err_cause(SOFTRDMA_IWERR_U_LOCAL);
	cata = softrdma_iwarp_err_cause(SOFTRDMA_IWERR_CATASTROPHIC);
	KUNIT_EXPECT_FALSE(test, softrdma_qp_err_event(local, &event));
	/* a failure no completion reports still raises QP_FATAL */
	event = IB_EVENT_QP_REQ_ERR;
	KUNIT_EXPECT_TRUE(test, softrdma_qp_err_event(cata, &event));
	KUNIT_EXPECT_EQ(test, event, IB_EVENT_QP_FATAL);
}

/* --- TERMINATE build and parse ------------------------------------------ */

/* offending FPDUs: a Send on queue 1, a Write, a wrapping Read Request */
static const struct raw_hdr bad_send = {
	.len = 18 + 4, .ddp = DDP_UL, .rdmap = RDMAP(3), .qn = 1, .msn = 5 };
static const struct raw_hdr bad_write = {
	.len = 14 + 8, .ddp = DDP_TL, .rdmap = RDMAP(0), .stag = 0x77,
	.to = 0x1000 };
static const struct raw_hdr bad_rreq = {
	.len = 46, .ddp = DDP_UL, .rdmap = RDMAP(1), .qn = 1, .msn = 3,
	.body = { 9, U64_MAX, 8, 7, 6 } };

struct term_case {
	const char *name;
	enum softrdma_iwarp_err err;
	const struct raw_hdr *fpdu;
	unsigned int avail;
	bool m, d, r;
	unsigned int copy_len;
	u8 info[4];		/* the error word on the wire */
};

static const struct term_case term_cases[] = {
	{ "crc_no_copy", SOFTRDMA_IWERR_CRC, NULL, 0,
	  false, false, false, 0, { 0x20, 0x02, 0x00, 0x00 } },
	{ "qn_copies_untagged", SOFTRDMA_IWERR_QN, &bad_send, 24,
	  true, true, false, 20, { 0x12, 0x01, 0xc0, 0x00 } },
	{ "tagged_stag_copies_tagged", SOFTRDMA_IWERR_T_INV_STAG, &bad_write, 16,
	  true, true, false, 16, { 0x11, 0x00, 0xc0, 0x00 } },
	{ "rreq_wrap_copies_rdmap", SOFTRDMA_IWERR_RREQ_TO_WRAP, &bad_rreq, 48,
	  true, true, true, 48, { 0x01, 0x04, 0xe0, 0x00 } },
	{ "rreq_rdmap_missing", SOFTRDMA_IWERR_RREQ_INV_STAG, &bad_rreq, 40,
	  true, true, false, 20, { 0x01, 0x00, 0xc0, 0x00 } },
	{ "rdmap_row_on_a_send", SOFTRDMA_IWERR_RREQ_ACCESS, &bad_send, 24,
	  true, true, false, 20, { 0x01, 0x02, 0xc0, 0x00 } },
	{ "ddp_header_missing", SOFTRDMA_IWERR_MO, &bad_send, 19,
	  false, false, false, 0, { 0x12, 0x04, 0x00, 0x00 } },
	{ "version_error_no_copy", SOFTRDMA_IWERR_DDP_VERSION_U, &bad_send, 24,
	  false, false, false, 0, { 0x12, 0x06, 0x00, 0x00 } },
	{ "catastrophic", SOFTRDMA_IWERR_CATASTROPHIC, &bad_send, 24,
	  false, false, false, 0, { 0x00, 0x00, 0x00, 0x00 } },
	{ "rqe_local_copies_untagged", SOFTRDMA_IWERR_U_LOCAL, &bad_send, 24,
	  true, true, false, 20, { 0x10, 0x00, 0xc0, 0x00 } },
	/* RFC 5040 7.1 case 1, 4.8: Local Catastrophic, no code or headers */
	{ "sq_local_no_message", SOFTRDMA_IWERR_SQ_LOCAL, NULL, 0,
	  false, false, false, 0, { 0x00, 0x00, 0x00, 0x00 } },
	{ "ird_overflow", SOFTRDMA_IWERR_IRD, &bad_rreq, 48,
	  true, true, true, 48, { 0x02, 0x07, 0xe0, 0x00 } },
};

static void term_case_desc(const struct term_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(term, term_cases, term_case_desc);

static void softrdma_iwarp_pdu_terminate_round_trip(struct kunit *test)
{
	const struct term_case *c = test->param_value;
	struct softrdma_iwarp_term term, back;
	struct softrdma_iwarp_pdu pdu;
	u8 buf[80], fpdu[48];
	int n;

	if (c->fpdu)
		raw_encode(c->fpdu, fpdu);
	KUNIT_ASSERT_EQ(test, softrdma_iwarp_term_from_err(c->err,
							   c->fpdu ? fpdu : NULL,
							   c->avail, &term),
			0);
	KUNIT_EXPECT_EQ(test, term.flag_m, c->m);
	KUNIT_EXPECT_EQ(test, term.flag_d, c->d);
	KUNIT_EXPECT_EQ(test, term.flag_r, c->r);
	KUNIT_ASSERT_EQ(test, term.copy_len, c->copy_len);
	if (c->copy_len)
		expect_bytes(test, term.copy, fpdu, c->copy_len);

	memset(buf, 0xa5, sizeof(buf));
	n = softrdma_iwarp_build_terminate(buf, sizeof(buf), 1, &term);
	KUNIT_ASSERT_EQ(test, n, (int)(24 + c->copy_len));
	/* untagged, last, TERMINATE, queue 2, MSN 1, MO 0 */
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(buf), 22 + c->copy_len);
	KUNIT_EXPECT_EQ(test, buf[2], DDP_UL);
	KUNIT_EXPECT_EQ(test, buf[3], RDMAP(IWARP_OP_TERMINATE));
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(buf + 4), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(buf + 8), 2);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(buf + 12), 1);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(buf + 16), 0);
	expect_bytes(test, buf + 20, c->info, 4);
	expect_bytes(test, buf + 24, fpdu, c->copy_len);
	KUNIT_EXPECT_EQ(test, buf[n], 0xa5);

	KUNIT_ASSERT_EQ(test, softrdma_iwarp_parse(buf, n, &pdu),
			SOFTRDMA_IWERR_NONE);
	KUNIT_EXPECT_EQ(test, pdu.opcode, IWARP_OP_TERMINATE);
	KUNIT_EXPECT_EQ(test, pdu.payload_len, c->copy_len);
	KUNIT_ASSERT_EQ(test, softrdma_iwarp_parse_terminate(buf, n, &pdu,
							     &back),
			SOFTRDMA_IWERR_NONE);
	KUNIT_EXPECT_EQ(test, back.layer, term.layer);
	KUNIT_EXPECT_EQ(test, back.etype, term.etype);
	KUNIT_EXPECT_EQ(test, back.ecode, term.ecode);
	KUNIT_EXPECT_EQ(test, back.flag_m, c->m);
	KUNIT_EXPECT_EQ(test, back.flag_d, c->d);
	KUNIT_EXPECT_EQ(test, back.flag_r, c->r);
	KUNIT_ASSERT_EQ(test, back.copy_len, c->copy_len);
	expect_bytes(test, back.copy, term.copy, c->copy_len);
	/* one byte missing from the body */
	KUNIT_EXPECT_EQ(test, softrdma_iwarp_parse_terminate(buf, n - 1, &pdu,
							     &back),
			SOFTRDMA_IWERR_INCOMPLETE);
}

static void softrdma_iwarp_pdu_terminate_invalid(struct kunit *test)
{
	struct softrdma_iwarp_term term;
	struct softrdma_iwarp_pdu pdu;
	u8 buf[80], send[48], write[48];

	raw_encode(&bad_send, send);
	raw_encode(&bad_write, write);
	KUNIT_EXPECT_EQ(test, softrdma_iwarp_term_from_err(SOFTRDMA_IWERR_NONE,
							   NULL, 0, &term),
			-EINVAL);
	KUNIT_EXPECT_EQ(test,
			softrdma_iwarp_term_from_err(SOFTRDMA_IWERR_INCOMPLETE,
						     NULL, 0, &term),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, softrdma_iwarp_term_from_err(SOFTRDMA_IWERR_MAX,
							   NULL, 0, &term),
			-EINVAL);

	KUNIT_ASSERT_EQ(test, softrdma_iwarp_term_from_err(SOFTRDMA_IWERR_QN,
							   send, 24, &term),
			0);
	KUNIT_EXPECT_EQ(test, softrdma_iwarp_build_terminate(buf, 43, 1, &term),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, softrdma_iwarp_build_terminate(buf, 44, 1, &term),
			44);
	term.flag_r = true;	/* R needs a Read Request copy */
	KUNIT_EXPECT_EQ(test, softrdma_iwarp_build_terminate(buf, 80, 1, &term),
			-EINVAL);
	term.flag_r = false;
	term.copy_len = 10;	/* D needs a whole DDP header */
	KUNIT_EXPECT_EQ(test, softrdma_iwarp_build_terminate(buf, 80, 1, &term),
			-EINVAL);
	term.flag_d = false;	/* M alone: the length field only */
	term.copy_len = 2;
	KUNIT_EXPECT_EQ(test, softrdma_iwarp_build_terminate(buf, 80, 1, &term),
			26);
	term.flag_m = false;
	KUNIT_EXPECT_EQ(test, softrdma_iwarp_build_terminate(buf, 80, 1, &term),
			-EINVAL);

	/* parse_terminate only takes a TERMINATE */
	KUNIT_ASSERT_EQ(test, softrdma_iwarp_parse(write, 16, &pdu),
			SOFTRDMA_IWERR_NONE);
	KUNIT_EXPECT_EQ(test, softrdma_iwarp_parse_terminate(write, 16,
							     &pdu, &term),
			SOFTRDMA_IWERR_TERM_LEN);
}

/*
 * Stock siw sets R (with M and D) on every RDMAP protection error, and
 * copies a Send's 18-byte DDP header with it: accepted as received.
 */
static void softrdma_iwarp_pdu_terminate_from_siw(struct kunit *test)
{
	static const struct raw_hdr term_hdr = {
		.len = 22 + 20, .ddp = DDP_UL, .rdmap = RDMAP(7), .qn = 2,
		.msn = 1, .info = 0x0100e000 };
	static const struct raw_hdr send_inv = {
		.len = 18, .ddp = DDP_UL, .rdmap = RDMAP(4), .stag = 0x1234,
		.msn = 6 };
	struct softrdma_iwarp_term term;
	struct softrdma_iwarp_pdu pdu;
	u8 wire[72];

	raw_encode(&term_hdr, wire);
	raw_encode(&send_inv, wire + 24);

	KUNIT_ASSERT_EQ(test, softrdma_iwarp_parse(wire, 44, &pdu),
			SOFTRDMA_IWERR_NONE);
	KUNIT_ASSERT_EQ(test, softrdma_iwarp_parse_terminate(wire, 44,
							     &pdu, &term),
			SOFTRDMA_IWERR_NONE);
	KUNIT_EXPECT_EQ(test, term.layer, IWARP_TERM_LAYER_RDMAP);
	KUNIT_EXPECT_EQ(test, term.etype, IWARP_RDMAP_ETYPE_PROTECTION);
	KUNIT_EXPECT_EQ(test, term.ecode, IWARP_RDMAP_ECODE_INV_STAG);
	KUNIT_EXPECT_TRUE(test, term.flag_m);
	KUNIT_EXPECT_TRUE(test, term.flag_d);
	KUNIT_EXPECT_TRUE(test, term.flag_r);
	KUNIT_ASSERT_EQ(test, term.copy_len, 20);
	expect_bytes(test, term.copy, wire + 24, 20);
}

/* sub-byte accessors: each reads only its own bits */
static void softrdma_iwarp_pdu_accessors(struct kunit *test)
{
	struct iwarp_terminate_hdr t;
	struct iwarp_ctrl c;

	c.mpa_len = cpu_to_be16(0x1234);
	c.ddp = 0xff;
	c.rdmap = 0xff;
	KUNIT_EXPECT_EQ(test, iwarp_mpa_len(&c), 0x1234);
	KUNIT_EXPECT_TRUE(test, iwarp_ddp_tagged(&c));
	KUNIT_EXPECT_TRUE(test, iwarp_ddp_last(&c));
	KUNIT_EXPECT_EQ(test, iwarp_ddp_version(&c), 3);
	KUNIT_EXPECT_EQ(test, iwarp_rdmap_version(&c), 3);
	KUNIT_EXPECT_EQ(test, iwarp_rdmap_opcode(&c), 15);
	iwarp_set_ctrl(&c, false, true, 0x17);	/* opcode masked to 4 bits */
	KUNIT_EXPECT_EQ(test, c.ddp, 0x41);
	KUNIT_EXPECT_EQ(test, c.rdmap, 0x47);

	iwarp_term_set_info(&t, 0x1f, 0x2e, 0xab, 0xffffffff);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(t.info), 0xfeabe000);
	KUNIT_EXPECT_EQ(test, iwarp_term_layer(&t), 0xf);
	KUNIT_EXPECT_EQ(test, iwarp_term_etype(&t), 0xe);
	KUNIT_EXPECT_EQ(test, iwarp_term_ecode(&t), 0xab);
	KUNIT_EXPECT_TRUE(test, iwarp_term_flag(&t, IWARP_TERM_FLAG_M));
	KUNIT_EXPECT_TRUE(test, iwarp_term_flag(&t, IWARP_TERM_FLAG_D));
	KUNIT_EXPECT_TRUE(test, iwarp_term_flag(&t, IWARP_TERM_FLAG_R));
	iwarp_term_set_info(&t, 2, 0, 2, 0);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(t.info), 0x20020000);
	KUNIT_EXPECT_FALSE(test, iwarp_term_flag(&t, IWARP_TERM_FLAG_M));
}

static struct kunit_case softrdma_iwarp_pdu_cases[] = {
	KUNIT_CASE(softrdma_iwarp_pdu_op_table),
	KUNIT_CASE(softrdma_iwarp_pdu_build_vectors),
	KUNIT_CASE(softrdma_iwarp_pdu_build_invalid),
	KUNIT_CASE_PARAM(softrdma_iwarp_pdu_parse_table, parse_gen_params),
	KUNIT_CASE(softrdma_iwarp_pdu_build_parse_round_trip),
	KUNIT_CASE(softrdma_iwarp_pdu_err_table),
	KUNIT_CASE(softrdma_iwarp_pdu_err_cause),
	KUNIT_CASE(softrdma_iwarp_pdu_rqe_local_no_event),
	KUNIT_CASE_PARAM(softrdma_iwarp_pdu_terminate_round_trip,
			 term_gen_params),
	KUNIT_CASE(softrdma_iwarp_pdu_terminate_invalid),
	KUNIT_CASE(softrdma_iwarp_pdu_terminate_from_siw),
	KUNIT_CASE(softrdma_iwarp_pdu_accessors),
	{}
};

static struct kunit_suite softrdma_iwarp_pdu_suite = {
	.name = "softrdma_iwarp_pdu",
	.test_cases = softrdma_iwarp_pdu_cases,
};

kunit_test_suite(softrdma_iwarp_pdu_suite);
