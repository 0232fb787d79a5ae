// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for mpa.c: MPA request/reply frames against byte vectors,
 * private-data limits, malformed frames, the negotiation (responder and
 * initiator, alone and end to end), FPDU framing, CRC32c against RFC 3720
 * vectors and a bit-by-bit reference, and marker arithmetic.
 */
#include <kunit/test.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/skbuff.h>
#include <linux/slab.h>

#include "mpa.h"

static void expect_bytes(struct kunit *test, const void *got,
			 const void *want, size_t len)
{
	const u8 *g = got, *w = want;
	size_t i;

	for (i = 0; i < len; i++)
		KUNIT_EXPECT_EQ_MSG(test, g[i], w[i], "byte %zu", i);
}

/* --- byte-exact frames, both directions --------------------------------- */

struct frame_case {
	const char *name;
	struct softrdma_mpa_info info;
	u8 tail[24];		/* after the key */
	unsigned int len;	/* the whole frame */
};

/* the keys as RFC 5044 7.1 spells them, not as iwarp_hdr.h does */
static const char key_req[] = "MPA ID Req Frame";
static const char key_rep[] = "MPA ID Rep Frame";

static void frame_bytes(const struct frame_case *c, u8 *bytes)
{
	memcpy(bytes, c->info.reply ? key_rep : key_req, 16);
	memcpy(bytes + 16, c->tail, c->len - 16);
}

static const u8 pd_abc[] = { 'a', 'b', 'c' };
static const u8 pd_2[] = { 0xde, 0xad };

static const struct frame_case frame_cases[] = {
	{
		.name = "v1_request_crc",
		.info = { .rev = 1, .crc = true },
		.tail = { 0x40, 0x01, 0x00, 0x00 },
		.len = 20,
	}, {
		.name = "v1_request_plain",
		.info = { .rev = 1 },
		.tail = { 0x00, 0x01, 0x00, 0x00 },
		.len = 20,
	}, {
		.name = "v1_reply_private_data",
		.info = { .reply = true, .rev = 1, .pd = pd_abc, .pd_len = 3 },
		.tail = { 0x00, 0x01, 0x00, 0x03, 'a', 'b', 'c' },
		.len = 23,
	}, {
		.name = "v1_reply_reject_crc",
		.info = { .reply = true, .rev = 1, .crc = true,
			  .reject = true, .pd = pd_abc, .pd_len = 3 },
		.tail = { 0x60, 0x01, 0x00, 0x03, 'a', 'b', 'c' },
		.len = 23,
	}, {
		.name = "v2_request_p2p_write_read_ext",
		.info = { .rev = 2, .crc = true, .enhanced = true,
			  .ext_offer = true, .p2p = true,
			  .rtr = SOFTRDMA_MPA_RTR_WRITE | SOFTRDMA_MPA_RTR_READ,
			  .ird = 16, .ord = 8, .pd = pd_2, .pd_len = 2 },
		.tail = { 0x54, 0x02, 0x00, 0x06, 0x80, 0x10, 0xc0, 0x08,
			  0xde, 0xad },
		.len = 26,
	}, {
		.name = "v2_request_p2p_all_rtr",
		.info = { .rev = 2, .enhanced = true, .p2p = true,
			  .rtr = SOFTRDMA_MPA_RTR_ALL, .ird = 1, .ord = 1 },
		.tail = { 0x10, 0x02, 0x00, 0x04, 0xc0, 0x01, 0xc0, 0x01 },
		.len = 24,
	}, {
		.name = "v2_request_no_p2p_max_ird_ord",
		.info = { .rev = 2, .enhanced = true,
			  .ird = 0x3fff, .ord = 0x3fff },
		.tail = { 0x10, 0x02, 0x00, 0x04, 0x3f, 0xff, 0x3f, 0xff },
		.len = 24,
	}, {
		.name = "v2_reply_send_rtr_ext_accept",
		.info = { .reply = true, .rev = 2, .crc = true,
			  .enhanced = true, .ext_accept = true, .p2p = true,
			  .rtr = SOFTRDMA_MPA_RTR_SEND, .ird = 4, .ord = 2 },
		.tail = { 0x52, 0x02, 0x00, 0x04, 0xc0, 0x04, 0x00, 0x02 },
		.len = 24,
	}, {
		.name = "v2_reply_read_rtr",
		.info = { .reply = true, .rev = 2, .enhanced = true,
			  .p2p = true, .rtr = SOFTRDMA_MPA_RTR_READ,
			  .ird = 0x100, .ord = 0 },
		.tail = { 0x10, 0x02, 0x00, 0x04, 0x81, 0x00, 0x40, 0x00 },
		.len = 24,
	}, {
		.name = "v2_reply_reject_with_block",
		.info = { .reply = true, .rev = 2, .reject = true,
			  .enhanced = true, .pd = pd_abc, .pd_len = 3 },
		.tail = { 0x30, 0x02, 0x00, 0x07, 0x00, 0x00, 0x00, 0x00,
			  'a', 'b', 'c' },
		.len = 27,
	},
};

static void frame_case_desc(const struct frame_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(frame, frame_cases, frame_case_desc);

static void softrdma_mpa_frame_encode(struct kunit *test)
{
	const struct frame_case *c = test->param_value;
	u8 buf[64];

	u8 want[64];

	frame_bytes(c, want);
	memset(buf, 0xa5, sizeof(buf));
	KUNIT_EXPECT_EQ(test, softrdma_mpa_frame_len(&c->info), c->len);
	KUNIT_ASSERT_EQ(test, softrdma_mpa_encode(&c->info, buf, sizeof(buf)),
			(int)c->len);
	expect_bytes(test, buf, want, c->len);
	KUNIT_EXPECT_EQ(test, buf[c->len], 0xa5);
	/* one byte short of room */
	KUNIT_EXPECT_EQ(test, softrdma_mpa_encode(&c->info, buf, c->len - 1),
			-ENOSPC);
}

static void softrdma_mpa_frame_parse(struct kunit *test)
{
	const struct frame_case *c = test->param_value;
	const struct softrdma_mpa_info *w = &c->info;
	struct softrdma_mpa_info got;
	u16 pd_len = 0xffff;
	u8 bytes[64];

	frame_bytes(c, bytes);
	KUNIT_ASSERT_EQ(test, softrdma_mpa_parse_hdr((const void *)bytes,
						     w->reply, &pd_len), 0);
	KUNIT_EXPECT_EQ(test, pd_len, c->len - 20);

	KUNIT_ASSERT_EQ(test, softrdma_mpa_parse(bytes, c->len, w->reply,
						 &got), 0);
	KUNIT_EXPECT_EQ(test, got.reply, w->reply);
	KUNIT_EXPECT_EQ(test, got.rev, w->rev);
	KUNIT_EXPECT_EQ(test, got.markers, w->markers);
	KUNIT_EXPECT_EQ(test, got.crc, w->crc);
	KUNIT_EXPECT_EQ(test, got.reject, w->reject);
	KUNIT_EXPECT_EQ(test, got.enhanced, w->enhanced);
	KUNIT_EXPECT_EQ(test, got.ext_offer, w->ext_offer);
	KUNIT_EXPECT_EQ(test, got.ext_accept, w->ext_accept);
	KUNIT_EXPECT_EQ(test, got.p2p, w->p2p);
	KUNIT_EXPECT_EQ(test, got.rtr, w->rtr);
	KUNIT_EXPECT_EQ(test, got.ird, w->ird);
	KUNIT_EXPECT_EQ(test, got.ord, w->ord);
	KUNIT_ASSERT_EQ(test, got.pd_len, w->pd_len);
	if (w->pd_len) {
		KUNIT_ASSERT_PTR_EQ(test, got.pd,
				    &bytes[c->len - w->pd_len]);
		expect_bytes(test, got.pd, w->pd, w->pd_len);
	} else {
		KUNIT_EXPECT_NULL(test, got.pd);
	}
	/* the other direction's key is wrong for this frame */
	KUNIT_EXPECT_EQ(test, softrdma_mpa_parse(bytes, c->len, !w->reply,
						 &got), -EBADMSG);
}

/* --- private data limits ------------------------------------------------ */

struct pd_case {
	const char *name;
	bool enhanced;
	unsigned int pd_len;	/* the ULP's private data */
	int want;		/* encode: frame length or -errno */
};

static const struct pd_case pd_cases[] = {
	{ "v1_0", false, 0, 20 },
	{ "v1_1", false, 1, 21 },
	{ "v1_508", false, 508, 528 },
	{ "v1_512", false, 512, 532 },
	{ "v1_513", false, 513, -EINVAL },
	{ "v2_0", true, 0, 24 },
	{ "v2_1", true, 1, 25 },
	{ "v2_508", true, 508, 532 },
	{ "v2_509", true, 509, -EINVAL },
	{ "v2_512", true, 512, -EINVAL },
};

static void pd_case_desc(const struct pd_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(pd, pd_cases, pd_case_desc);

static void softrdma_mpa_private_data_limit(struct kunit *test)
{
	const struct pd_case *c = test->param_value;
	struct softrdma_mpa_info info = {
		.rev = c->enhanced ? 2 : 1,
		.enhanced = c->enhanced,
		.pd_len = c->pd_len,
	};
	struct softrdma_mpa_info got;
	unsigned int i;
	u8 *pd, *buf;
	int len;

	pd = kunit_kzalloc(test, 520, GFP_KERNEL);
	buf = kunit_kzalloc(test, 600, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pd);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < 520; i++)
		pd[i] = i * 7;
	info.pd = pd;

	len = softrdma_mpa_encode(&info, buf, 600);
	KUNIT_ASSERT_EQ(test, len, c->want);
	if (len < 0) {
		/* the same frame arriving from a peer is refused on parse */
		struct iwarp_mpa_rr *rr = (void *)buf;
		unsigned int total = c->pd_len + (c->enhanced ? 4 : 0);

		memcpy(rr->key, IWARP_MPA_KEY_REQ, IWARP_MPA_KEY_SIZE);
		rr->flags = c->enhanced ? IWARP_MPA_FLAG_ENHANCED : 0;
		rr->rev = info.rev;
		rr->pd_len = cpu_to_be16(total);
		KUNIT_EXPECT_EQ(test, softrdma_mpa_parse(buf, 20 + total,
							 false, &got),
				-EMSGSIZE);
		return;
	}
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(buf + 18),
			c->pd_len + (c->enhanced ? 4 : 0));
	KUNIT_ASSERT_EQ(test, softrdma_mpa_parse(buf, len, false, &got), 0);
	KUNIT_ASSERT_EQ(test, got.pd_len, c->pd_len);
	if (c->pd_len)
		expect_bytes(test, got.pd, pd, c->pd_len);
}

/* --- malformed and unusual frames --------------------------------------- */

struct bad_case {
	const char *name;
	bool reply;		/* parse as a reply */
	bool wrong_key;		/* the other direction's key */
	bool key_lowercase;	/* "mpa id ..." */
	u8 flags;
	u8 rev;
	u16 pd_len;		/* the PD_Length field */
	int total;		/* bytes handed to parse; 0: 20 + pd_len */
	u8 v2[4];		/* first private-data bytes */
	int want;
	bool markers;
	bool reject;
	bool enhanced;
	u8 rtr;
};

static const struct bad_case bad_cases[] = {
	{ .name = "header_truncated_19", .rev = 1, .total = 19,
	  .want = -EBADMSG },
	{ .name = "one_byte", .rev = 1, .total = 1, .want = -EBADMSG },
	{ .name = "private_data_truncated", .rev = 1, .pd_len = 4,
	  .total = 23, .want = -EBADMSG },
	{ .name = "trailing_byte", .rev = 1, .pd_len = 4, .total = 25,
	  .want = -EBADMSG },
	{ .name = "reply_key_in_request", .rev = 1, .wrong_key = true,
	  .want = -EBADMSG },
	{ .name = "request_key_in_reply", .reply = true, .rev = 1,
	  .wrong_key = true, .want = -EBADMSG },
	{ .name = "key_lowercase", .rev = 1, .key_lowercase = true,
	  .want = -EBADMSG },
	{ .name = "rev_0", .rev = 0, .want = -EPROTO },
	{ .name = "rev_3", .rev = 3, .want = -EPROTO },
	{ .name = "rev_255", .rev = 255, .want = -EPROTO },
	{ .name = "pd_len_513", .rev = 1, .pd_len = 513, .want = -EMSGSIZE },
	{ .name = "pd_len_65535", .rev = 1, .pd_len = 0xffff,
	  .total = 20, .want = -EMSGSIZE },
	{ .name = "reject_in_request", .rev = 1,
	  .flags = IWARP_MPA_FLAG_REJECT, .want = -EBADMSG },
	{ .name = "markers_in_request", .rev = 1,
	  .flags = IWARP_MPA_FLAG_MARKERS | IWARP_MPA_FLAG_CRC, .pd_len = 2,
	  .want = -EOPNOTSUPP, .markers = true },
	{ .name = "markers_in_reply", .reply = true, .rev = 2,
	  .flags = IWARP_MPA_FLAG_MARKERS | IWARP_MPA_FLAG_ENHANCED,
	  .pd_len = 4, .want = -EOPNOTSUPP, .markers = true,
	  .enhanced = true },
	{ .name = "v2_block_truncated", .rev = 2,
	  .flags = IWARP_MPA_FLAG_ENHANCED, .pd_len = 3, .want = -EBADMSG },
	{ .name = "v2_reply_two_rtr", .reply = true, .rev = 2,
	  .flags = IWARP_MPA_FLAG_ENHANCED, .pd_len = 4,
	  .v2 = { 0x80, 0x01, 0xc0, 0x01 }, .want = -EBADMSG },
	{ .name = "v2_request_rtr_bits_without_p2p", .rev = 2,
	  .flags = IWARP_MPA_FLAG_ENHANCED, .pd_len = 4,
	  .v2 = { 0x40, 0x01, 0xc0, 0x01 }, .want = 0, .enhanced = true },
	{ .name = "reply_reject_parses", .reply = true, .rev = 1,
	  .flags = IWARP_MPA_FLAG_REJECT, .pd_len = 1, .want = 0,
	  .reject = true },
	{ .name = "v1_with_enhanced_flag_is_plain", .rev = 1,
	  .flags = IWARP_MPA_FLAG_ENHANCED, .pd_len = 4,
	  .v2 = { 0x80, 0x01, 0x80, 0x01 }, .want = 0 },
	{ .name = "v2_without_enhanced_flag_is_plain", .rev = 2,
	  .pd_len = 4, .v2 = { 0x80, 0x01, 0x80, 0x01 }, .want = 0 },
	{ .name = "reserved_bit0_ignored", .rev = 1, .flags = BIT(0),
	  .want = 0 },
	{ .name = "siw_gso_bit_ignored", .rev = 1,
	  .flags = IWARP_MPA_FLAG_SIW_GSO, .want = 0 },
	{ .name = "v2_request_p2p_no_rtr", .rev = 2,
	  .flags = IWARP_MPA_FLAG_ENHANCED, .pd_len = 4,
	  .v2 = { 0x80, 0x01, 0x00, 0x01 }, .want = 0, .enhanced = true },
};

static void bad_case_desc(const struct bad_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bad, bad_cases, bad_case_desc);

static void softrdma_mpa_parse_malformed(struct kunit *test)
{
	const struct bad_case *c = test->param_value;
	bool rep_key = c->reply != c->wrong_key;
	struct iwarp_mpa_rr *rr;
	struct softrdma_mpa_info got;
	unsigned int total, i;
	u8 *buf;

	total = c->total ? c->total : 20 + c->pd_len;
	buf = kunit_kzalloc(test, 20 + 600, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	rr = (void *)buf;
	memcpy(rr->key, rep_key ? IWARP_MPA_KEY_REP : IWARP_MPA_KEY_REQ,
	       IWARP_MPA_KEY_SIZE);
	if (c->key_lowercase)
		memcpy(rr->key, "mpa id req frame", IWARP_MPA_KEY_SIZE);
	rr->flags = c->flags;
	rr->rev = c->rev;
	rr->pd_len = cpu_to_be16(c->pd_len);
	for (i = 0; i < 600; i++)
		buf[20 + i] = i < 4 ? c->v2[i] : 0xa0 + i;

	KUNIT_ASSERT_EQ(test, softrdma_mpa_parse(buf, total, c->reply, &got),
			c->want);
	if (c->want && c->want != -EOPNOTSUPP)
		return;
	KUNIT_EXPECT_EQ(test, got.markers, c->markers);
	KUNIT_EXPECT_EQ(test, got.reject, c->reject);
	KUNIT_EXPECT_EQ(test, got.enhanced, c->enhanced);
	KUNIT_EXPECT_EQ(test, got.rtr, c->rtr);
	KUNIT_EXPECT_EQ(test, got.pd_len + (got.enhanced ? 4 : 0), c->pd_len);
}

/* encode refuses what it must never put on the wire */
static void softrdma_mpa_encode_invalid(struct kunit *test)
{
	static const struct softrdma_mpa_info bad[] = {
		{ .rev = 0 },
		{ .rev = 3 },
		{ .rev = 1, .enhanced = true },
		{ .rev = 1, .reject = true },
		{ .rev = 1, .p2p = true },
		{ .rev = 1, .ird = 1 },
		{ .rev = 2, .enhanced = true, .ird = 0x4000 },
		{ .rev = 2, .enhanced = true, .ord = 0x4000 },
		{ .rev = 2, .enhanced = true, .rtr = SOFTRDMA_MPA_RTR_WRITE },
		{ .rev = 2, .enhanced = true, .p2p = true, .rtr = BIT(3) },
		{ .reply = true, .rev = 2, .enhanced = true, .p2p = true,
		  .rtr = SOFTRDMA_MPA_RTR_WRITE | SOFTRDMA_MPA_RTR_SEND },
		{ .rev = 1, .pd_len = 1 },	/* no pd pointer */
	};
	unsigned int i;
	u8 buf[64];
	int rv;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		rv = softrdma_mpa_encode(&bad[i], buf, sizeof(buf));
		KUNIT_EXPECT_EQ_MSG(test, rv, -EINVAL, "entry %u", i);
	}
}

/* --- negotiation -------------------------------------------------------- */

static const struct softrdma_mpa_local local_default = {
	.rev = 2, .crc = true, .p2p = true, .rtr = SOFTRDMA_MPA_RTR_ALL,
	.ird = 4, .ord = 4, .max_ird = 8, .max_ord = 8, .ext = true,
};

struct neg_case {
	const char *name;
	struct softrdma_mpa_local local;	/* the responder */
	struct softrdma_mpa_info req;
	int want;
	u8 rev;
	bool crc;
	bool enhanced;
	bool p2p;
	u8 rtr;
	u16 ird;
	u16 ord;
	bool ext;
};

#define LOCAL(...) { .rev = 2, .crc = true, .p2p = true, \
		     .rtr = SOFTRDMA_MPA_RTR_ALL, .ird = 4, .ord = 4, \
		     .max_ird = 8, .max_ord = 8, .ext = true, __VA_ARGS__ }
#define REQ2(...) { .rev = 2, .enhanced = true, __VA_ARGS__ }

static const struct neg_case neg_cases[] = {
	{ .name = "crc_both", .local = LOCAL(),
	  .req = { .rev = 1, .crc = true }, .rev = 1, .crc = true,
	  .ird = 4, .ord = 4 },
	{ .name = "crc_only_us", .local = LOCAL(),
	  .req = { .rev = 1 }, .rev = 1, .crc = true, .ird = 4, .ord = 4 },
	{ .name = "crc_only_peer", .local = LOCAL(.crc = false),
	  .req = { .rev = 1, .crc = true }, .rev = 1, .crc = true,
	  .ird = 4, .ord = 4 },
	{ .name = "crc_neither", .local = LOCAL(.crc = false),
	  .req = { .rev = 1 }, .rev = 1, .ird = 4, .ord = 4 },
	{ .name = "markers_refused", .local = LOCAL(),
	  .req = { .rev = 1, .markers = true }, .want = -EOPNOTSUPP,
	  .rev = 1, .crc = true },
	{ .name = "v2_request_v1_responder", .local = LOCAL(.rev = 1),
	  .req = REQ2(.ird = 2, .ord = 2), .rev = 1, .crc = true,
	  .ird = 4, .ord = 4 },
	{ .name = "ird_raised_to_peer_ord", .local = LOCAL(),
	  .req = REQ2(.ird = 8, .ord = 6), .rev = 2, .crc = true,
	  .enhanced = true, .ird = 6, .ord = 4 },
	{ .name = "ird_clamped_to_device", .local = LOCAL(),
	  .req = REQ2(.ird = 2, .ord = 16), .rev = 2, .crc = true,
	  .enhanced = true, .ird = 8, .ord = 2 },
	{ .name = "ord_clamped_to_peer_ird_0", .local = LOCAL(),
	  .req = REQ2(.ird = 0, .ord = 0), .rev = 2, .crc = true,
	  .enhanced = true, .ird = 4, .ord = 0 },
	{ .name = "device_limits_over_14_bits",
	  .local = LOCAL(.ird = 0xffff, .ord = 0xffff, .max_ird = 0xffff,
			 .max_ord = 0xffff),
	  .req = REQ2(.ird = 0x3fff, .ord = 0x3fff), .rev = 2, .crc = true,
	  .enhanced = true, .ird = 0x3fff, .ord = 0x3fff },
	{ .name = "rtr_prefers_write", .local = LOCAL(),
	  .req = REQ2(.ird = 1, .ord = 1, .p2p = true,
		      .rtr = SOFTRDMA_MPA_RTR_ALL),
	  .rev = 2, .crc = true, .enhanced = true, .p2p = true,
	  .rtr = SOFTRDMA_MPA_RTR_WRITE, .ird = 4, .ord = 1 },
	{ .name = "rtr_read_when_no_write", .local = LOCAL(),
	  .req = REQ2(.ird = 1, .ord = 1, .p2p = true,
		      .rtr = SOFTRDMA_MPA_RTR_READ | SOFTRDMA_MPA_RTR_SEND),
	  .rev = 2, .crc = true, .enhanced = true, .p2p = true,
	  .rtr = SOFTRDMA_MPA_RTR_READ, .ird = 4, .ord = 1 },
	{ .name = "rtr_send_when_read_impossible",
	  .local = LOCAL(.ird = 0, .max_ird = 0),
	  .req = REQ2(.ird = 1, .ord = 1, .p2p = true,
		      .rtr = SOFTRDMA_MPA_RTR_READ | SOFTRDMA_MPA_RTR_SEND),
	  .rev = 2, .crc = true, .enhanced = true, .p2p = true,
	  .rtr = SOFTRDMA_MPA_RTR_SEND, .ird = 0, .ord = 1 },
	{ .name = "rtr_read_needs_peer_ord", .local = LOCAL(),
	  .req = REQ2(.ird = 1, .ord = 0, .p2p = true,
		      .rtr = SOFTRDMA_MPA_RTR_READ),
	  .want = -EOPNOTSUPP, .rev = 2, .crc = true, .enhanced = true,
	  .p2p = true },
	{ .name = "rtr_no_common", .local = LOCAL(.rtr = SOFTRDMA_MPA_RTR_WRITE),
	  .req = REQ2(.ird = 1, .ord = 1, .p2p = true,
		      .rtr = SOFTRDMA_MPA_RTR_SEND),
	  .want = -EOPNOTSUPP, .rev = 2, .crc = true, .enhanced = true,
	  .p2p = true },
	{ .name = "rtr_none_offered", .local = LOCAL(),
	  .req = REQ2(.ird = 1, .ord = 1, .p2p = true),
	  .want = -EOPNOTSUPP, .rev = 2, .crc = true, .enhanced = true,
	  .p2p = true },
	{ .name = "p2p_declined_locally", .local = LOCAL(.p2p = false),
	  .req = REQ2(.ird = 1, .ord = 1, .p2p = true,
		      .rtr = SOFTRDMA_MPA_RTR_WRITE),
	  .rev = 2, .crc = true, .enhanced = true, .ird = 4, .ord = 1 },
	{ .name = "ext_offered_and_enabled", .local = LOCAL(),
	  .req = { .rev = 1, .ext_offer = true }, .rev = 1, .crc = true,
	  .ird = 4, .ord = 4, .ext = true },
	{ .name = "ext_offered_disabled", .local = LOCAL(.ext = false),
	  .req = { .rev = 1, .ext_offer = true }, .rev = 1, .crc = true,
	  .ird = 4, .ord = 4 },
	{ .name = "ext_not_offered", .local = LOCAL(),
	  .req = { .rev = 1 }, .rev = 1, .crc = true, .ird = 4, .ord = 4 },
	{ .name = "ext_accept_bit_in_request_ignored", .local = LOCAL(),
	  .req = { .rev = 1, .ext_accept = true }, .rev = 1, .crc = true,
	  .ird = 4, .ord = 4 },
};

static void neg_case_desc(const struct neg_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(neg, neg_cases, neg_case_desc);

/* What a negotiation left both ends agreeing on. */
static void expect_result(struct kunit *test,
			  const struct softrdma_mpa_result *res, bool crc,
			  u8 rtr, u16 ird, u16 ord, bool ext)
{
	KUNIT_EXPECT_EQ(test, res->crc, crc);
	KUNIT_EXPECT_EQ(test, res->rtr, rtr);
	KUNIT_EXPECT_EQ(test, res->ird, ird);
	KUNIT_EXPECT_EQ(test, res->ord, ord);
	KUNIT_EXPECT_EQ(test, res->ext, ext);
}

/* @info encoded into @wire and parsed back into @got, as the peer sees it */
static void wire_trip(struct kunit *test, const struct softrdma_mpa_info *info,
		      u8 *wire, size_t size, struct softrdma_mpa_info *got)
{
	int len = softrdma_mpa_encode(info, wire, size);

	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_ASSERT_EQ(test, softrdma_mpa_parse(wire, len, info->reply, got),
			0);
}

static void softrdma_mpa_negotiate_responder(struct kunit *test)
{
	const struct neg_case *c = test->param_value;
	struct softrdma_mpa_result res;
	struct softrdma_mpa_info rep;
	u8 buf[64];

	KUNIT_ASSERT_EQ(test, softrdma_mpa_negotiate(&c->local, &c->req, &rep,
						     &res), c->want);
	KUNIT_EXPECT_TRUE(test, rep.reply);
	KUNIT_EXPECT_EQ(test, rep.rev, c->rev);
	KUNIT_EXPECT_EQ(test, rep.crc, c->crc);
	KUNIT_EXPECT_EQ(test, rep.enhanced, c->enhanced);
	KUNIT_EXPECT_EQ(test, rep.p2p, c->p2p);
	KUNIT_EXPECT_EQ(test, rep.rtr, c->rtr);
	KUNIT_EXPECT_FALSE(test, rep.markers);
	KUNIT_EXPECT_FALSE(test, rep.ext_offer);
	KUNIT_EXPECT_EQ(test, rep.reject, c->want != 0);
	/* whatever it decided, the reply can go on the wire */
	KUNIT_EXPECT_GT(test, softrdma_mpa_encode(&rep, buf, sizeof(buf)), 0);
	if (c->want)
		return;
	KUNIT_EXPECT_EQ(test, rep.ext_accept, c->ext);
	expect_result(test, &res, c->crc, c->rtr, c->ird, c->ord, c->ext);
	if (c->enhanced) {
		KUNIT_EXPECT_EQ(test, rep.ird, c->ird);
		KUNIT_EXPECT_EQ(test, rep.ord, c->ord);
	}
}

struct check_case {
	const char *name;
	struct softrdma_mpa_local local;	/* the initiator */
	struct softrdma_mpa_info rep;
	int want;
	bool crc;
	u8 rtr;
	u16 ird;
	u16 ord;
	bool ext;
};

#define REP1(...) { .reply = true, .rev = 1, __VA_ARGS__ }
#define REP2(...) { .reply = true, .rev = 2, .enhanced = true, __VA_ARGS__ }

static const struct check_case check_cases[] = {
	{ .name = "rejected", .local = LOCAL(),
	  .rep = REP2(.reject = true, .crc = true), .want = -ECONNREFUSED },
	{ .name = "crc_dropped", .local = LOCAL(),
	  .rep = REP2(.ird = 4, .ord = 4), .want = -EPROTO },
	{ .name = "crc_added_by_peer", .local = LOCAL(.crc = false),
	  .rep = REP2(.crc = true, .ird = 4, .ord = 4), .crc = true,
	  .ird = 4, .ord = 4 },
	{ .name = "rev2_reply_to_rev1", .local = LOCAL(.rev = 1),
	  .rep = REP2(.crc = true), .want = -EPROTO },
	{ .name = "rev2_reply_without_block", .local = LOCAL(),
	  .rep = { .reply = true, .rev = 2, .crc = true }, .want = -EPROTO },
	{ .name = "rev1_reply_to_rev2", .local = LOCAL(),
	  .rep = REP1(.crc = true), .crc = true, .ird = 4, .ord = 4 },
	{ .name = "v1_both", .local = LOCAL(.rev = 1, .ird = 9, .ord = 1),
	  .rep = REP1(.crc = true), .crc = true, .ird = 8, .ord = 1 },
	{ .name = "peer_ord_over_our_ird", .local = LOCAL(),
	  .rep = REP2(.crc = true, .ird = 4, .ord = 5), .want = -EPROTO },
	{ .name = "our_ord_lowered_to_peer_ird", .local = LOCAL(),
	  .rep = REP2(.crc = true, .ird = 1, .ord = 4), .crc = true,
	  .ird = 4, .ord = 1 },
	{ .name = "rtr_write", .local = LOCAL(),
	  .rep = REP2(.crc = true, .ird = 4, .ord = 4, .p2p = true,
		      .rtr = SOFTRDMA_MPA_RTR_WRITE),
	  .crc = true, .rtr = SOFTRDMA_MPA_RTR_WRITE, .ird = 4, .ord = 4 },
	{ .name = "rtr_not_offered", .local = LOCAL(.rtr = SOFTRDMA_MPA_RTR_WRITE),
	  .rep = REP2(.crc = true, .ird = 4, .ord = 4, .p2p = true,
		      .rtr = SOFTRDMA_MPA_RTR_SEND), .want = -EPROTO },
	{ .name = "rtr_two_chosen", .local = LOCAL(),
	  .rep = REP2(.crc = true, .ird = 4, .ord = 4, .p2p = true,
		      .rtr = SOFTRDMA_MPA_RTR_WRITE | SOFTRDMA_MPA_RTR_READ),
	  .want = -EPROTO },
	{ .name = "rtr_missing", .local = LOCAL(),
	  .rep = REP2(.crc = true, .ird = 4, .ord = 4, .p2p = true),
	  .want = -EPROTO },
	{ .name = "rtr_read_without_ord", .local = LOCAL(),
	  .rep = REP2(.crc = true, .ird = 0, .ord = 4, .p2p = true,
		      .rtr = SOFTRDMA_MPA_RTR_READ), .want = -EPROTO },
	{ .name = "p2p_not_asked", .local = LOCAL(.p2p = false),
	  .rep = REP2(.crc = true, .ird = 4, .ord = 4, .p2p = true,
		      .rtr = SOFTRDMA_MPA_RTR_WRITE), .want = -EPROTO },
	{ .name = "p2p_declined_by_peer", .local = LOCAL(),
	  .rep = REP2(.crc = true, .ird = 4, .ord = 4), .crc = true,
	  .ird = 4, .ord = 4 },
	{ .name = "ext_accepted", .local = LOCAL(),
	  .rep = REP2(.crc = true, .ird = 4, .ord = 4, .ext_accept = true),
	  .crc = true, .ird = 4, .ord = 4, .ext = true },
	{ .name = "ext_offer_echoed_is_not_accept", .local = LOCAL(),
	  .rep = REP2(.crc = true, .ird = 4, .ord = 4, .ext_offer = true),
	  .crc = true, .ird = 4, .ord = 4 },
	{ .name = "ext_accept_without_offer", .local = LOCAL(.ext = false),
	  .rep = REP2(.crc = true, .ird = 4, .ord = 4, .ext_accept = true),
	  .crc = true, .ird = 4, .ord = 4 },
};

static void check_case_desc(const struct check_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(check, check_cases, check_case_desc);

static void softrdma_mpa_check_reply_cases(struct kunit *test)
{
	const struct check_case *c = test->param_value;
	struct softrdma_mpa_result res;
	struct softrdma_mpa_info req;

	softrdma_mpa_request_init(&c->local, &req);
	KUNIT_ASSERT_EQ(test, softrdma_mpa_check_reply(&c->local, &req,
						       &c->rep, &res), c->want);
	if (c->want)
		return;
	expect_result(test, &res, c->crc, c->rtr, c->ird, c->ord, c->ext);
}

static void softrdma_mpa_request_init_cases(struct kunit *test)
{
	struct softrdma_mpa_local l = local_default;
	struct softrdma_mpa_info req;

	softrdma_mpa_request_init(&l, &req);
	KUNIT_EXPECT_FALSE(test, req.reply);
	KUNIT_EXPECT_EQ(test, req.rev, 2);
	KUNIT_EXPECT_TRUE(test, req.crc);
	KUNIT_EXPECT_TRUE(test, req.enhanced);
	KUNIT_EXPECT_TRUE(test, req.p2p);
	KUNIT_EXPECT_EQ(test, req.rtr, SOFTRDMA_MPA_RTR_ALL);
	KUNIT_EXPECT_TRUE(test, req.ext_offer);
	KUNIT_EXPECT_FALSE(test, req.ext_accept);
	KUNIT_EXPECT_EQ(test, req.ird, 4);
	KUNIT_EXPECT_EQ(test, req.ord, 4);

	l.ird = 100;
	l.rtr = 0;
	softrdma_mpa_request_init(&l, &req);
	KUNIT_EXPECT_EQ(test, req.ird, 8);
	KUNIT_EXPECT_FALSE(test, req.p2p);
	KUNIT_EXPECT_EQ(test, req.rtr, 0);

	l.rev = 1;
	l.rtr = SOFTRDMA_MPA_RTR_ALL;
	softrdma_mpa_request_init(&l, &req);
	KUNIT_EXPECT_EQ(test, req.rev, 1);
	KUNIT_EXPECT_FALSE(test, req.enhanced);
	KUNIT_EXPECT_FALSE(test, req.p2p);
	KUNIT_EXPECT_EQ(test, req.ird, 0);
}

/*
 * Both ends through the wire: request built, encoded, parsed, answered,
 * the answer encoded, parsed, checked.  Over a matrix of settings the two
 * ends must agree on CRC, RTR and extension, and neither may be able to
 * have more Reads outstanding than the other accepts.
 */
static void softrdma_mpa_negotiate_end_to_end(struct kunit *test)
{
	static const u16 irds[] = { 0, 1, 4, 16 };
	static const u8 rtrs[] = { 0, SOFTRDMA_MPA_RTR_WRITE,
				   SOFTRDMA_MPA_RTR_READ,
				   SOFTRDMA_MPA_RTR_SEND,
				   SOFTRDMA_MPA_RTR_ALL };
	unsigned int combos = 0, agreed = 0;
	unsigned int bits;

	for (bits = 0; bits < 256; bits++) {
		struct softrdma_mpa_local a = local_default, b = local_default;
		struct softrdma_mpa_result ra, rb;
		struct softrdma_mpa_info req, rep, preq, prep;
		u8 wreq[64], wrep[64];
		int rv;

		a.crc = bits & 1;
		b.crc = bits & 2;
		a.ext = bits & 4;
		b.ext = bits & 8;
		a.rev = (bits & 16) ? 2 : 1;
		b.rev = (bits & 32) ? 2 : 1;
		a.ird = irds[(bits >> 6) & 3];
		b.ord = irds[(bits >> 6) & 3];
		a.rtr = rtrs[bits % ARRAY_SIZE(rtrs)];
		b.rtr = rtrs[(bits / 3) % ARRAY_SIZE(rtrs)];
		a.p2p = !!a.rtr;
		combos++;

		softrdma_mpa_request_init(&a, &req);
		wire_trip(test, &req, wreq, sizeof(wreq), &preq);
		rv = softrdma_mpa_negotiate(&b, &preq, &rep, &rb);
		wire_trip(test, &rep, wrep, sizeof(wrep), &prep);
		if (rv) {
			KUNIT_EXPECT_EQ(test, rv, -EOPNOTSUPP);
			KUNIT_EXPECT_EQ(test, softrdma_mpa_check_reply(&a, &req,
								       &prep,
								       &ra),
					-ECONNREFUSED);
			continue;
		}
		KUNIT_ASSERT_EQ_MSG(test, softrdma_mpa_check_reply(&a, &req,
								   &prep,
								   &ra),
				    0, "combo %u", bits);
		agreed++;
		KUNIT_EXPECT_EQ(test, ra.crc, rb.crc);
		KUNIT_EXPECT_EQ(test, ra.crc, a.crc || b.crc);
		KUNIT_EXPECT_EQ(test, ra.ext, rb.ext);
		KUNIT_EXPECT_EQ(test, ra.ext, a.ext && b.ext);
		KUNIT_EXPECT_EQ(test, ra.rtr, rb.rtr);
		/* IRD/ORD are negotiated only with the RFC 6581 block */
		if (a.rev == 2 && b.rev == 2) {
			KUNIT_EXPECT_LE(test, ra.ord, rb.ird);
			KUNIT_EXPECT_LE(test, rb.ord, ra.ird);
		}
	}
	KUNIT_EXPECT_EQ(test, combos, 256);
	/* some combinations are rejected (no common RTR), most are not */
	KUNIT_EXPECT_GT(test, agreed, 128);
	KUNIT_EXPECT_LT(test, agreed, 256);
}

/*
 * Stock siw answers with the bits of the request it received (iwarp_hdr.h):
 * a reply made from our request's bytes, only the key changed, must not
 * switch the extension on.
 */
static void softrdma_mpa_ext_survives_siw_echo(struct kunit *test)
{
	struct softrdma_mpa_info req, rep;
	struct softrdma_mpa_result res;
	u8 wire[64];
	int len;

	softrdma_mpa_request_init(&local_default, &req);
	len = softrdma_mpa_encode(&req, wire, sizeof(wire));
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_EXPECT_TRUE(test, wire[16] & IWARP_MPA_FLAG_EXT_OFFER);
	KUNIT_EXPECT_FALSE(test, wire[16] & IWARP_MPA_FLAG_EXT_ACCEPT);

	/* siw: same bits, reply key, one RTR chosen in the block */
	memcpy(wire, IWARP_MPA_KEY_REP, IWARP_MPA_KEY_SIZE);
	wire[20] = 0x80;	/* ird: peer-to-peer, IRD 4 */
	wire[22] = 0x80;	/* ord: write RTR, ORD 4 */
	KUNIT_ASSERT_EQ(test, softrdma_mpa_parse(wire, len, true, &rep), 0);
	KUNIT_EXPECT_TRUE(test, rep.ext_offer);
	KUNIT_ASSERT_EQ(test, softrdma_mpa_check_reply(&local_default, &req,
						       &rep, &res), 0);
	KUNIT_EXPECT_FALSE(test, res.ext);
	KUNIT_EXPECT_EQ(test, softrdma_mpa_max_ulpdu(&res, 1460), 1454);

	/* a softrdma responder sets the accept bit */
	wire[16] |= IWARP_MPA_FLAG_EXT_ACCEPT;
	KUNIT_ASSERT_EQ(test, softrdma_mpa_parse(wire, len, true, &rep), 0);
	KUNIT_ASSERT_EQ(test, softrdma_mpa_check_reply(&local_default, &req,
						       &rep, &res), 0);
	KUNIT_EXPECT_TRUE(test, res.ext);
	KUNIT_EXPECT_EQ(test, softrdma_mpa_max_ulpdu(&res, 1460),
			IWARP_MPA_EXT_MAX_ULPDU);
}

/* --- FPDU framing ------------------------------------------------------- */

static void softrdma_mpa_pad_and_fpdu_len(struct kunit *test)
{
	static const struct { unsigned int ulpdu, pad, fpdu; } v[] = {
		{ 0, 2, 8 }, { 1, 1, 8 }, { 2, 0, 8 }, { 3, 3, 12 },
		{ 14, 0, 20 }, { 18, 0, 24 }, { 19, 3, 28 }, { 46, 0, 52 },
		{ 1454, 0, 1460 }, { 65532, 2, 65540 }, { 65535, 3, 65544 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		KUNIT_EXPECT_EQ_MSG(test, softrdma_mpa_pad(v[i].ulpdu), v[i].pad,
				    "ulpdu %u", v[i].ulpdu);
		KUNIT_EXPECT_EQ_MSG(test, softrdma_mpa_fpdu_len(v[i].ulpdu),
				    v[i].fpdu, "ulpdu %u", v[i].ulpdu);
	}
}

static void softrdma_mpa_mulpdu_vectors(struct kunit *test)
{
	static const struct { unsigned int emss, plain, markers; } v[] = {
		{ 1460, 1454, 1442 }, { 1448, 1442, 1430 },
		{ 1461, 1454, 1442 }, { 1463, 1454, 1442 },
		{ 8960, 8954, 8882 }, { 9000, 8994, 8922 },
		{ 536, 530, 522 }, { 6, 0, 0 }, { 11, 2, 0 }, { 0, 0, 0 },
		{ 70000, 65535, 65535 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		KUNIT_EXPECT_EQ_MSG(test, softrdma_mpa_mulpdu(v[i].emss, false),
				    v[i].plain, "emss %u", v[i].emss);
		KUNIT_EXPECT_EQ_MSG(test, softrdma_mpa_mulpdu(v[i].emss, true),
				    v[i].markers, "emss %u", v[i].emss);
	}
}

/* the MULPDU's FPDU fits the segment, one byte more does not */
static void softrdma_mpa_mulpdu_fits(struct kunit *test)
{
	unsigned int emss;

	for (emss = 12; emss <= 9100; emss++) {
		unsigned int m = softrdma_mpa_mulpdu(emss, false);
		unsigned int mm = softrdma_mpa_mulpdu(emss, true);

		KUNIT_ASSERT_LE_MSG(test, softrdma_mpa_fpdu_len(m), emss,
				    "emss %u", emss);
		KUNIT_ASSERT_GT_MSG(test, softrdma_mpa_fpdu_len(m + 1), emss,
				    "emss %u", emss);
		/* with markers: wherever the segment starts */
		KUNIT_ASSERT_LE_MSG(test,
				    softrdma_mpa_fpdu_wire_len(emss * 7 % 512,
							       softrdma_mpa_fpdu_len(mm)),
				    emss, "emss %u", emss);
	}
}

/* --- CRC32c ------------------------------------------------------------- */

/* bit by bit, reflected Castagnoli polynomial: independent of lib/ */
static u32 ref_crc32c(const u8 *p, size_t len)
{
	u32 crc = ~0U;
	int k;

	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0x82f63b78 & -(crc & 1));
	}
	return ~crc;
}

/*
 * Short pieces take the CRC library's table, long ones the crypto API
 * (mpa.c): lengths and split points on both sides of the switch, chained
 * across it, against the bitwise reference.
 */
static const struct {
	unsigned int len;
	unsigned int split;	/* first update's length */
} crc_split_cases[] = {
	{ 1, 0 }, { 2, 1 }, { 3, 3 }, { 20, 14 }, { 63, 63 }, { 64, 0 },
	{ 64, 63 }, { 65, 1 }, { 127, 64 }, { 128, 100 }, { 1000, 17 },
	{ 4096, 4033 },
};

static void softrdma_mpa_crc_short_and_long(struct kunit *test)
{
	unsigned int i, j, len, split;
	u32 state, seed = 0x2545f491;
	u8 *buf;

	buf = kunit_kmalloc(test, 4096, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (j = 0; j < 4096; j++) {
		/* xorshift: bytes without a pattern a CRC could hide */
		seed ^= seed << 13;
		seed ^= seed >> 17;
		seed ^= seed << 5;
		buf[j] = seed;
	}
	for (i = 0; i < ARRAY_SIZE(crc_split_cases); i++) {
		len = crc_split_cases[i].len;
		split = crc_split_cases[i].split;
		state = softrdma_mpa_crc_update(softrdma_mpa_crc_init(), buf,
						split);
		state = softrdma_mpa_crc_update(state, buf + split,
						len - split);
		KUNIT_EXPECT_EQ_MSG(test, softrdma_mpa_crc_final(state),
				    ref_crc32c(buf, len), "len %u split %u",
				    len, split);
	}
}

static void softrdma_mpa_crc_rfc3720_vectors(struct kunit *test)
{
	u8 buf[32], wire[4];
	unsigned int i;

	/* RFC 3720 B.4 */
	memset(buf, 0, sizeof(buf));
	KUNIT_EXPECT_EQ(test, softrdma_mpa_crc_buf(buf, 32), 0x8a9136aa);
	memset(buf, 0xff, sizeof(buf));
	KUNIT_EXPECT_EQ(test, softrdma_mpa_crc_buf(buf, 32), 0x62a8ab43);
	for (i = 0; i < 32; i++)
		buf[i] = i;
	KUNIT_EXPECT_EQ(test, softrdma_mpa_crc_buf(buf, 32), 0x46dd794e);
	for (i = 0; i < 32; i++)
		buf[i] = 31 - i;
	KUNIT_EXPECT_EQ(test, softrdma_mpa_crc_buf(buf, 32), 0x113fdb5c);
	/* the CRC catalogue's check value */
	KUNIT_EXPECT_EQ(test, softrdma_mpa_crc_buf("123456789", 9), 0xe3069283);
	KUNIT_EXPECT_EQ(test, ref_crc32c((const u8 *)"123456789", 9),
			0xe3069283);
	KUNIT_EXPECT_EQ(test, softrdma_mpa_crc_buf(buf, 0), 0);

	/* on the wire least significant byte first */
	softrdma_mpa_crc_put(wire, 0x8a9136aa);
	KUNIT_EXPECT_EQ(test, wire[0], 0xaa);
	KUNIT_EXPECT_EQ(test, wire[1], 0x36);
	KUNIT_EXPECT_EQ(test, wire[2], 0x91);
	KUNIT_EXPECT_EQ(test, wire[3], 0x8a);
	KUNIT_EXPECT_EQ(test, softrdma_mpa_crc_get(wire), 0x8a9136aa);
}

/* build an FPDU of @ulpdu bytes at @buf: length, data, zero pad */
static unsigned int make_fpdu(u8 *buf, unsigned int ulpdu, u8 seed)
{
	unsigned int i, n = IWARP_MPA_LEN_SIZE + ulpdu;

	put_unaligned_be16(ulpdu, buf);
	for (i = 0; i < ulpdu; i++)
		buf[2 + i] = seed + i * 13;
	for (i = 0; i < softrdma_mpa_pad(ulpdu); i++)
		buf[n + i] = 0;
	return n + softrdma_mpa_pad(ulpdu);
}

/*
 * The same FPDU (pad 0 - 3) as one buffer, as page fragments split at
 * awkward places, and as an skb with linear part, page frags and a frag
 * list: one CRC, the reference's.
 */
static void softrdma_mpa_crc_fpdu_layouts(struct kunit *test)
{
	static const unsigned int ulpdus[] = { 18, 17, 16, 19, 46, 1454,
					       5000 };
	struct page *pages[3];
	unsigned int i, j;
	u8 *lin;

	lin = kunit_kzalloc(test, 3 * PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, lin);
	for (j = 0; j < ARRAY_SIZE(pages); j++) {
		pages[j] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, pages[j]);
	}

	for (i = 0; i < ARRAY_SIZE(ulpdus); i++) {
		unsigned int len = make_fpdu(lin, ulpdus[i], i);
		unsigned int cut1 = min(len, 3U), cut2 = min(len, len / 2 + 1);
		struct softrdma_mpa_frag frags[3];
		struct sk_buff *skb, *tail;
		u32 want = ref_crc32c(lin, len);
		u32 state;

		KUNIT_EXPECT_EQ(test, len % 4, 0);	/* pad aligns it */
		KUNIT_EXPECT_EQ(test, softrdma_mpa_crc_buf(lin, len), want);

		/* fragments: [0,cut1) [cut1,cut2) [cut2,len) at odd offsets */
		memcpy(page_address(pages[0]) + PAGE_SIZE - cut1, lin, cut1);
		memcpy(page_address(pages[1]) + 5, lin + cut1, cut2 - cut1);
		memcpy(page_address(pages[2]) + 1, lin + cut2, len - cut2);
		frags[0] = (struct softrdma_mpa_frag){ pages[0],
						       PAGE_SIZE - cut1, cut1 };
		frags[1] = (struct softrdma_mpa_frag){ pages[1], 5,
						       cut2 - cut1 };
		frags[2] = (struct softrdma_mpa_frag){ pages[2], 1,
						       len - cut2 };
		KUNIT_EXPECT_EQ_MSG(test, softrdma_mpa_crc_frags(frags, 3),
				    want, "ulpdu %u", ulpdus[i]);
		/* incremental: buffer head, fragments tail */
		state = softrdma_mpa_crc_update(softrdma_mpa_crc_init(), lin,
						cut1);
		state = softrdma_mpa_crc_update_frags(state, &frags[1], 2);
		KUNIT_EXPECT_EQ(test, softrdma_mpa_crc_final(state), want);

		/* skb: 7 junk bytes, then [0,cut1) linear, frags, frag list */
		skb = alloc_skb(64, GFP_KERNEL);
		tail = alloc_skb(len + 16, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, skb);
		KUNIT_ASSERT_NOT_NULL(test, tail);
		skb_put_data(skb, "junkjun", 7);
		skb_put_data(skb, lin, cut1);
		get_page(pages[1]);
		skb_add_rx_frag(skb, 0, pages[1], 5, cut2 - cut1, PAGE_SIZE);
		skb_put_data(tail, lin + cut2, len - cut2);
		skb_put_data(tail, "junk", 4);
		skb_shinfo(skb)->frag_list = tail;
		skb->len += tail->len;
		skb->data_len += tail->len;
		state = softrdma_mpa_crc_update_skb(softrdma_mpa_crc_init(),
						    skb, 7, len);
		KUNIT_EXPECT_EQ_MSG(test, softrdma_mpa_crc_final(state), want,
				    "ulpdu %u", ulpdus[i]);
		kfree_skb(skb);
	}
	for (j = 0; j < ARRAY_SIZE(pages); j++)
		__free_page(pages[j]);
}

/* a fragment crossing into the next page of a compound page */
static void softrdma_mpa_crc_compound_page(struct kunit *test)
{
	struct softrdma_mpa_frag frag;
	struct page *page;
	u8 *va;
	u32 i;

	page = alloc_pages(GFP_KERNEL | __GFP_COMP, 1);
	KUNIT_ASSERT_NOT_NULL(test, page);
	va = page_address(page);
	for (i = 0; i < 2 * PAGE_SIZE; i++)
		va[i] = i * 31 + 7;
	frag = (struct softrdma_mpa_frag){ page, PAGE_SIZE - 100, 300 };
	KUNIT_EXPECT_EQ(test, softrdma_mpa_crc_frags(&frag, 1),
			ref_crc32c(va + PAGE_SIZE - 100, 300));
	frag = (struct softrdma_mpa_frag){ page, PAGE_SIZE + 10, 50 };
	KUNIT_EXPECT_EQ(test, softrdma_mpa_crc_frags(&frag, 1),
			ref_crc32c(va + PAGE_SIZE + 10, 50));
	__free_pages(page, 1);
}

/* --- markers ------------------------------------------------------------ */

static void softrdma_mpa_marker_arithmetic(struct kunit *test)
{
	static const struct { u32 off, len; unsigned int n; } in[] = {
		{ 0, 0, 0 }, { 0, 1, 1 }, { 0, 512, 1 }, { 0, 513, 2 },
		{ 1, 511, 0 }, { 1, 512, 1 }, { 4, 508, 0 }, { 511, 2, 1 },
		{ 512, 1024, 2 }, { 100, 1472, 3 },
	};
	static const struct { u32 off, fpdu, wire; } wl[] = {
		{ 0, 8, 12 },		/* a marker comes first */
		{ 4, 508, 508 },	/* fills the gap exactly */
		{ 4, 509, 513 },	/* one byte after the next marker */
		{ 100, 1460, 1472 },	/* markers at 512, 1024, 1536 */
		{ 516, 508, 508 },
		{ 0, 1024, 1036 },
	};
	unsigned int i;
	u32 off;

	KUNIT_EXPECT_EQ(test, softrdma_mpa_marker_next(0), 0);
	KUNIT_EXPECT_EQ(test, softrdma_mpa_marker_next(1), 512);
	KUNIT_EXPECT_EQ(test, softrdma_mpa_marker_next(512), 512);
	KUNIT_EXPECT_EQ(test, softrdma_mpa_marker_next(513), 1024);
	for (i = 0; i < ARRAY_SIZE(in); i++)
		KUNIT_EXPECT_EQ_MSG(test, softrdma_mpa_markers_in(in[i].off,
								  in[i].len),
				    in[i].n, "entry %u", i);
	for (i = 0; i < ARRAY_SIZE(wl); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    softrdma_mpa_fpdu_wire_len(wl[i].off,
							       wl[i].fpdu),
				    wl[i].wire, "entry %u", i);

	/* growth is exactly 4 bytes per marker the FPDU spans */
	for (off = 0; off < 2048; off += 4) {
		unsigned int fpdu = softrdma_mpa_fpdu_len(1454);
		u32 wire = softrdma_mpa_fpdu_wire_len(off, fpdu);

		KUNIT_EXPECT_EQ_MSG(test, wire, fpdu + 4 *
				    softrdma_mpa_markers_in(off, wire),
				    "off %u", off);
	}
}

static struct kunit_case softrdma_mpa_cases[] = {
	KUNIT_CASE_PARAM(softrdma_mpa_frame_encode, frame_gen_params),
	KUNIT_CASE_PARAM(softrdma_mpa_frame_parse, frame_gen_params),
	KUNIT_CASE_PARAM(softrdma_mpa_private_data_limit, pd_gen_params),
	KUNIT_CASE_PARAM(softrdma_mpa_parse_malformed, bad_gen_params),
	KUNIT_CASE(softrdma_mpa_encode_invalid),
	KUNIT_CASE_PARAM(softrdma_mpa_negotiate_responder, neg_gen_params),
	KUNIT_CASE_PARAM(softrdma_mpa_check_reply_cases, check_gen_params),
	KUNIT_CASE(softrdma_mpa_request_init_cases),
	KUNIT_CASE(softrdma_mpa_negotiate_end_to_end),
	KUNIT_CASE(softrdma_mpa_ext_survives_siw_echo),
	KUNIT_CASE(softrdma_mpa_pad_and_fpdu_len),
	KUNIT_CASE(softrdma_mpa_mulpdu_vectors),
	KUNIT_CASE(softrdma_mpa_mulpdu_fits),
	KUNIT_CASE(softrdma_mpa_crc_rfc3720_vectors),
	KUNIT_CASE(softrdma_mpa_crc_short_and_long),
	KUNIT_CASE(softrdma_mpa_crc_fpdu_layouts),
	KUNIT_CASE(softrdma_mpa_crc_compound_page),
	KUNIT_CASE(softrdma_mpa_marker_arithmetic),
	{}
};

static struct kunit_suite softrdma_mpa_suite = {
	.name = "softrdma_mpa",
	.test_cases = softrdma_mpa_cases,
};

kunit_test_suite(softrdma_mpa_suite);
