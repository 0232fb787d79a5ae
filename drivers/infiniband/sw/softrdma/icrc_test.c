// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for icrc.c: the ICRC of real rxe frames, over flat buffers
 * and over linear and paged skbs; which fields it covers and which it
 * masks (IBA vol 1 annex A17.8).
 */
#include <crypto/hash.h>
#include <kunit/test.h>
#include <linux/crc32.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/ip.h>
#include <linux/mm.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/swab.h>
#include <linux/udp.h>
#include <rdma/ib_pack.h>

#include "icrc.h"
#include "roce_hdr.h"

#define IP4_LEN		((unsigned int)sizeof(struct iphdr))
#define UDP_LEN		((unsigned int)sizeof(struct udphdr))
#define BTH_LEN		((unsigned int)sizeof(struct softrdma_bth))

/*
 * tshark's "Invariant CRC" of each captured frame.  tshark reads the four
 * wire bytes as a big-endian number; the CRC value is the byte-swapped
 * one, the wire being least significant byte first.
 */
struct capture_icrc {
	unsigned int pcap_frame;
	u32 tshark_icrc;
};

static const struct capture_icrc capture_icrcs[] = {
	{ 27, 0xa0e450b6 },
	{ 30, 0x2b6fb7ae },
	{ 89, 0x45ac8eab },
	{ 153, 0x324c6b1b },
	{ 161, 0x0b6582a5 },
	{ 266, 0xb3b333bf },
	{ 267, 0x431e905c },
};

static void capture_icrc_desc(const struct capture_icrc *c, char *desc)
{
	unsigned int i;

	for (i = 0; i < softrdma_roce_test_nframes; i++) {
		if (softrdma_roce_test_frames[i].pcap_frame == c->pcap_frame) {
			snprintf(desc, KUNIT_PARAM_DESC_SIZE, "frame%u_%s",
				 c->pcap_frame,
				 softrdma_roce_test_frames[i].name);
			return;
		}
	}
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "frame%u", c->pcap_frame);
}

KUNIT_ARRAY_PARAM(capture, capture_icrcs, capture_icrc_desc);

/* the IP datagram of a captured frame, copied four-byte aligned */
static u8 *capture_datagram(struct kunit *test, unsigned int pcap_frame,
			    unsigned int *len)
{
	const struct softrdma_roce_test_frame *f = NULL;
	unsigned int i;
	u8 *buf;

	for (i = 0; i < softrdma_roce_test_nframes; i++)
		if (softrdma_roce_test_frames[i].pcap_frame == pcap_frame)
			f = &softrdma_roce_test_frames[i];
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_ASSERT_GT(test, f->len, ETH_HLEN + IP4_LEN + UDP_LEN + BTH_LEN);

	*len = f->len - ETH_HLEN;
	buf = kunit_kmalloc(test, *len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	memcpy(buf, f->data + ETH_HLEN, *len);
	return buf;
}

/*
 * An skb holding an IP datagram the way the receive path sees it: network
 * and transport headers set, the first @head_ib bytes of the IB packet in
 * the linear part, the rest in page fragments of the sizes in @frags (the
 * last one takes what remains), each at an odd offset in its own page.
 * With @frags, at least the last two bytes always go to a page.
 */
static struct sk_buff *datagram_skb(struct kunit *test, const u8 *dgram,
				    unsigned int len, unsigned int head_ib,
				    const unsigned int *frags)
{
	unsigned int ib_off = IP4_LEN + UDP_LEN, head, done, i;
	struct sk_buff *skb;

	if ((dgram[0] >> 4) == 6)
		ib_off = sizeof(struct ipv6hdr) + UDP_LEN;
	head = min(ib_off + min(head_ib, len), len);
	if (frags)
		head = min(head, len - 2);

	skb = alloc_skb(NET_IP_ALIGN + ETH_HLEN + head, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reserve(skb, NET_IP_ALIGN + ETH_HLEN);
	skb_put_data(skb, dgram, head);
	skb_reset_network_header(skb);
	skb_set_transport_header(skb, ib_off - UDP_LEN);

	for (done = head, i = 0; done < len; i++) {
		unsigned int size = len - done;
		unsigned int off = 1 + 2 * i;
		struct page *page;

		if (frags && frags[i] && frags[i] < size)
			size = frags[i];
		KUNIT_ASSERT_LT(test, i, (unsigned int)MAX_SKB_FRAGS);
		page = alloc_page(GFP_KERNEL);
		if (!page) {
			kfree_skb(skb);
			KUNIT_ASSERT_NOT_NULL(test, page);
		}
		memcpy(page_address(page) + off, dgram + done, size);
		skb_add_rx_frag(skb, i, page, off, size, PAGE_SIZE);
		done += size;
	}
	KUNIT_EXPECT_EQ(test, skb->len, len);
	return skb;
}

static void softrdma_icrc_capture_flat(struct kunit *test)
{
	const struct capture_icrc *c = test->param_value;
	unsigned int len;
	u8 *dgram;

	dgram = capture_datagram(test, c->pcap_frame, &len);

	KUNIT_EXPECT_EQ(test, softrdma_icrc_compute_buf(dgram, len),
			swab32(c->tshark_icrc));
	KUNIT_EXPECT_EQ(test, softrdma_icrc_get(dgram + len - ROCE_ICRC_SIZE),
			swab32(c->tshark_icrc));
	KUNIT_EXPECT_TRUE(test, softrdma_icrc_check_buf(dgram, len));

	/* what a transmitter stores reproduces the captured bytes */
	softrdma_icrc_put(dgram + len - ROCE_ICRC_SIZE, 0);
	KUNIT_EXPECT_FALSE(test, softrdma_icrc_check_buf(dgram, len));
	softrdma_icrc_put(dgram + len - ROCE_ICRC_SIZE,
			  softrdma_icrc_compute_buf(dgram, len));
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(dgram + len - ROCE_ICRC_SIZE),
			c->tshark_icrc);
	KUNIT_EXPECT_TRUE(test, softrdma_icrc_check_buf(dgram, len));
}

static void softrdma_icrc_capture_skb_linear(struct kunit *test)
{
	const struct capture_icrc *c = test->param_value;
	unsigned int len, ib_len;
	struct sk_buff *skb;
	u8 *dgram;

	dgram = capture_datagram(test, c->pcap_frame, &len);
	ib_len = len - IP4_LEN - UDP_LEN - ROCE_ICRC_SIZE;

	skb = datagram_skb(test, dgram, len, len, NULL);
	KUNIT_EXPECT_FALSE(test, skb_is_nonlinear(skb));
	KUNIT_EXPECT_EQ(test, softrdma_icrc_compute(skb, ib_len),
			swab32(c->tshark_icrc));
	KUNIT_EXPECT_EQ(test, softrdma_icrc_check(skb), SOFTRDMA_ICRC_OK);

	/* as the UDP tunnel hands it over: data at the BTH */
	__skb_pull(skb, IP4_LEN + UDP_LEN);
	KUNIT_EXPECT_EQ(test, softrdma_icrc_compute(skb, ib_len),
			swab32(c->tshark_icrc));
	KUNIT_EXPECT_EQ(test, softrdma_icrc_check(skb), SOFTRDMA_ICRC_OK);

	/* and the stored ICRC is read from the end of the UDP datagram */
	skb->data[skb->len - 1] ^= 0x01;
	KUNIT_EXPECT_EQ(test, softrdma_icrc_check(skb), SOFTRDMA_ICRC_BAD);
	kfree_skb(skb);
}

/* how a received packet may be cut between the linear part and pages */
struct frag_layout {
	const char *name;
	unsigned int head_ib;		/* IB bytes in the linear part */
	unsigned int frags[4];		/* sizes; 0 or the last: the rest */
};

static const struct frag_layout frag_layouts[] = {
	{ "bth_across_three_frags", 0, { 5, 3, 0 } },
	{ "payload_in_one_frag", BTH_LEN, { 0 } },
	{ "odd_splits", BTH_LEN + 1, { 1, 333, 7, 0 } },
	{ "icrc_split_head_and_page", UINT_MAX, { 0 } },
};

static void softrdma_icrc_capture_skb_frags(struct kunit *test)
{
	const struct capture_icrc *c = test->param_value;
	unsigned int len, ib_len, i;
	u8 *dgram;

	dgram = capture_datagram(test, c->pcap_frame, &len);
	ib_len = len - IP4_LEN - UDP_LEN - ROCE_ICRC_SIZE;

	for (i = 0; i < ARRAY_SIZE(frag_layouts); i++) {
		const struct frag_layout *l = &frag_layouts[i];
		struct sk_buff *skb;
		skb_frag_t *last;

		skb = datagram_skb(test, dgram, len, l->head_ib, l->frags);
		KUNIT_EXPECT_TRUE_MSG(test, skb_is_nonlinear(skb), "%s",
				      l->name);
		KUNIT_EXPECT_EQ_MSG(test, softrdma_icrc_compute(skb, ib_len),
				    swab32(c->tshark_icrc), "%s", l->name);
		KUNIT_EXPECT_EQ_MSG(test, softrdma_icrc_check(skb),
				    SOFTRDMA_ICRC_OK, "%s", l->name);

		__skb_pull(skb, IP4_LEN + UDP_LEN);
		KUNIT_EXPECT_EQ_MSG(test, softrdma_icrc_check(skb),
				    SOFTRDMA_ICRC_OK, "%s, pulled to the BTH",
				    l->name);

		/* a flipped bit in the last page is seen */
		KUNIT_ASSERT_GT(test, skb_shinfo(skb)->nr_frags, 0);
		last = &skb_shinfo(skb)->frags[skb_shinfo(skb)->nr_frags - 1];
		*(u8 *)skb_frag_address(last) ^= 0x80;
		KUNIT_EXPECT_EQ_MSG(test, softrdma_icrc_check(skb),
				    SOFTRDMA_ICRC_BAD, "%s, last page corrupted",
				    l->name);
		kfree_skb(skb);
	}
}

#if SOFTRDMA_HAVE_UNREADABLE_FRAGS
/*
 * The ICRC field across the linear part and a frag the host cannot read
 * (device memory, 6.12: the skb's flag tells; the page here is
 * ordinary): the packet is bad, the field never read through NULL.  The
 * receive path drops such packets before (rcv_unreadable); this is what
 * the check does should one reach it.
 */
static void softrdma_icrc_unreadable_field(struct kunit *test)
{
	static const unsigned int frags[] = { 0 };
	struct sk_buff *skb;
	unsigned int len;
	u8 *dgram;

	dgram = capture_datagram(test, 30, &len);
	skb = datagram_skb(test, dgram, len, UINT_MAX, frags);
	KUNIT_ASSERT_EQ(test, skb_headlen(skb), len - 2);
	KUNIT_EXPECT_EQ(test, softrdma_icrc_check(skb), SOFTRDMA_ICRC_OK);
	skb->unreadable = 1;
	KUNIT_EXPECT_EQ(test, softrdma_icrc_check(skb), SOFTRDMA_ICRC_BAD);
	kfree_skb(skb);
}
#endif

/* byte offsets in an IPv4 RoCE datagram that the ICRC masks (A17.8.2) */
static bool ipv4_masked(unsigned int off)
{
	switch (off) {
	case 1:					/* TOS: DSCP and ECN */
	case 8:					/* TTL */
	case 10:				/* header checksum */
	case 11:
	case IP4_LEN + 6:			/* UDP checksum */
	case IP4_LEN + 7:
	case IP4_LEN + UDP_LEN + 4:		/* FECN, BECN, Resv6a */
		return true;
	}
	return false;
}

/*
 * Every single bit of the datagram: a flip in a covered field must fail
 * the check (CRC-32 catches every single-bit error), one in a masked
 * field must not.
 */
static void softrdma_icrc_capture_bit_flips(struct kunit *test)
{
	const struct capture_icrc *c = test->param_value;
	unsigned int len, off, bit, wrong = 0, first = 0;
	u8 *dgram;

	dgram = capture_datagram(test, c->pcap_frame, &len);

	for (off = 0; off < len; off++) {
		for (bit = 0; bit < 8; bit++) {
			bool ok;

			dgram[off] ^= BIT(bit);
			ok = softrdma_icrc_check_buf(dgram, len);
			dgram[off] ^= BIT(bit);
			if (ok != ipv4_masked(off) && !wrong++)
				first = off * 8 + bit;
		}
	}
	KUNIT_EXPECT_EQ_MSG(test, wrong, 0U,
			    "first wrong verdict at byte %u bit %u",
			    first / 8, first % 8);
	KUNIT_EXPECT_TRUE(test, softrdma_icrc_check_buf(dgram, len));
}

/* the same on a paged skb, for the headers the skb path masks itself */
static void softrdma_icrc_capture_skb_header_flips(struct kunit *test)
{
	static const unsigned int frags[] = { 3, 0 };
	const struct capture_icrc *c = test->param_value;
	unsigned int len, off, bit, wrong = 0, first = 0;
	struct sk_buff *skb;
	u8 *dgram, *head;

	dgram = capture_datagram(test, c->pcap_frame, &len);
	skb = datagram_skb(test, dgram, len, BTH_LEN, frags);
	head = skb_network_header(skb);

	for (off = 0; off < IP4_LEN + UDP_LEN + BTH_LEN; off++) {
		for (bit = 0; bit < 8; bit++) {
			bool ok;

			head[off] ^= BIT(bit);
			ok = softrdma_icrc_check(skb) == SOFTRDMA_ICRC_OK;
			head[off] ^= BIT(bit);
			if (ok != ipv4_masked(off) && !wrong++)
				first = off * 8 + bit;
		}
	}
	KUNIT_EXPECT_EQ_MSG(test, wrong, 0U,
			    "first wrong verdict at byte %u bit %u",
			    first / 8, first % 8);
	KUNIT_EXPECT_EQ(test, softrdma_icrc_check(skb), SOFTRDMA_ICRC_OK);
	kfree_skb(skb);
}

/* named rewrites of frame 153 (RDMA READ request) */
struct field_case {
	const char *name;
	unsigned int off;	/* from the IP header */
	u8 value;
	bool still_valid;
};

static const struct field_case field_cases[] = {
	{ "ipv4_dscp", 1, 0xb8, true },
	{ "ipv4_ecn_ce", 1, 0x03, true },
	{ "ipv4_ttl", 8, 0x01, true },
	{ "ipv4_checksum_hi", 10, 0x12, true },
	{ "ipv4_checksum_lo", 11, 0x34, true },
	{ "udp_checksum_hi", IP4_LEN + 6, 0xbe, true },
	{ "udp_checksum_lo", IP4_LEN + 7, 0xef, true },
	{ "bth_fecn", IP4_LEN + UDP_LEN + 4, 0x80, true },
	{ "bth_becn", IP4_LEN + UDP_LEN + 4, 0x40, true },
	{ "bth_resv6a", IP4_LEN + UDP_LEN + 4, 0x3f, true },
	{ "ipv4_id", 5, 0x00, false },
	{ "ipv4_dont_fragment", 6, 0x00, false },
	{ "ipv4_saddr", 15, 0x03, false },
	{ "udp_sport", IP4_LEN + 1, 0x00, false },
	{ "bth_opcode", IP4_LEN + UDP_LEN + 0, 0x0d, false },
	{ "bth_se", IP4_LEN + UDP_LEN + 1, 0x80, false },
	{ "bth_pkey", IP4_LEN + UDP_LEN + 3, 0xfe, false },
	{ "bth_qpn", IP4_LEN + UDP_LEN + 7, 0x14, false },
	{ "bth_ackreq", IP4_LEN + UDP_LEN + 8, 0x00, false },
	{ "bth_resv7", IP4_LEN + UDP_LEN + 8, 0x81, false },
	{ "bth_psn", IP4_LEN + UDP_LEN + 11, 0x00, false },
	{ "reth_rkey", IP4_LEN + UDP_LEN + BTH_LEN + 11, 0x19, false },
	{ "icrc", IP4_LEN + UDP_LEN + BTH_LEN + 16, 0x00, false },
};

static void field_case_desc(const struct field_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(field, field_cases, field_case_desc);

static void softrdma_icrc_field_rewrites(struct kunit *test)
{
	static const unsigned int frags[] = { 5, 0 };
	const struct field_case *c = test->param_value;
	struct sk_buff *skb;
	unsigned int len;
	u8 *dgram;

	dgram = capture_datagram(test, 153, &len);
	KUNIT_ASSERT_LT(test, c->off, len);
	KUNIT_ASSERT_NE(test, dgram[c->off], c->value);
	dgram[c->off] = c->value;

	KUNIT_EXPECT_EQ(test, softrdma_icrc_check_buf(dgram, len),
			c->still_valid);

	skb = datagram_skb(test, dgram, len, 0, frags);
	KUNIT_EXPECT_EQ(test, softrdma_icrc_check(skb),
			c->still_valid ? SOFTRDMA_ICRC_OK : SOFTRDMA_ICRC_BAD);
	kfree_skb(skb);
}

/*
 * An IPv6 RoCEv2 packet (frame 153's BTH and RETH from 2001:db8::2 with
 * traffic class 0x2e, flow label 0x12345, hop limit 64, UDP checksum
 * 0xabcd), its ICRC computed by an independent A17.8 implementation.
 */
static const u8 ipv6_read_request[] = {
	0x62, 0xe1, 0x23, 0x45, 0x00, 0x28, 0x11, 0x40, 0x20, 0x01, 0x0d, 0xb8,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x01, 0xc1, 0x69, 0x12, 0xb7, 0x00, 0x28, 0xab, 0xcd,
	0x0c, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x13, 0x80, 0x16, 0xd1, 0x0f,
	0x00, 0x00, 0x55, 0x98, 0x72, 0x6b, 0x10, 0x00, 0x00, 0x00, 0x04, 0x18,
	0x00, 0x00, 0x09, 0xc4, 0x85, 0xc7, 0xc4, 0x11,
};

static bool ipv6_masked(unsigned int off)
{
	switch (off) {
	case 1 ... 3:				/* traffic class, flow label */
	case 7:					/* hop limit */
	case 40 + 6:				/* UDP checksum */
	case 40 + 7:
	case 40 + UDP_LEN + 4:			/* FECN, BECN, Resv6a */
		return true;
	}
	return false;
}

static void softrdma_icrc_ipv6(struct kunit *test)
{
	static const unsigned int frags[] = { 0 };
	unsigned int len = sizeof(ipv6_read_request), off, bit, wrong = 0;
	unsigned int first = 0;
	struct sk_buff *skb;
	u8 *dgram;

	dgram = kunit_kmalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, dgram);
	memcpy(dgram, ipv6_read_request, len);

	KUNIT_EXPECT_EQ(test, softrdma_icrc_compute_buf(dgram, len),
			0x11c4c785U);
	KUNIT_EXPECT_TRUE(test, softrdma_icrc_check_buf(dgram, len));

	skb = datagram_skb(test, dgram, len, 2, frags);
	KUNIT_EXPECT_EQ(test, softrdma_icrc_compute(skb, len - 40 - UDP_LEN -
							 ROCE_ICRC_SIZE),
			0x11c4c785U);
	KUNIT_EXPECT_EQ(test, softrdma_icrc_check(skb), SOFTRDMA_ICRC_OK);
	kfree_skb(skb);

	/* the version nibble is covered, the traffic class nibble is not */
	for (off = 0; off < len; off++) {
		for (bit = 0; bit < 8; bit++) {
			bool masked = ipv6_masked(off) || (off == 0 && bit < 4);
			bool ok;

			dgram[off] ^= BIT(bit);
			ok = softrdma_icrc_check_buf(dgram, len);
			dgram[off] ^= BIT(bit);
			if (ok != masked && !wrong++)
				first = off * 8 + bit;
		}
	}
	KUNIT_EXPECT_EQ_MSG(test, wrong, 0U,
			    "first wrong verdict at byte %u bit %u",
			    first / 8, first % 8);
}

/*
 * RC FLUSH requests captured between 6.12 guests (the lab's flush
 * scenario, IPv4 header to ICRC): one from stock rxe, whose ICRC runs on
 * over the BTH, FETH and RETH a second time, and one from sroce, with
 * annex A17.8's.
 */
static const u8 flush_from_rxe[] = {
	0x45, 0x00, 0x00, 0x40, 0xc0, 0x27, 0x40, 0x00, 0x40, 0x11, 0xf6, 0x81,
	0xc0, 0x00, 0x02, 0x02, 0xc0, 0x00, 0x02, 0x01, 0xc0, 0x22, 0x12, 0xb7,
	0x00, 0x2c, 0x00, 0x00, 0x1c, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x02,
	0x80, 0x00, 0x30, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x55, 0xa4,
	0xa0, 0x69, 0x41, 0x00, 0xe8, 0x7a, 0x77, 0xe1, 0x00, 0x00, 0x00, 0x20,
	0x26, 0x33, 0x1c, 0xf0,
};

static const u8 flush_from_sroce[] = {
	0x45, 0x00, 0x00, 0x40, 0xc4, 0xec, 0x40, 0x00, 0x40, 0x11, 0xf1, 0xbc,
	0xc0, 0x00, 0x02, 0x02, 0xc0, 0x00, 0x02, 0x01, 0xce, 0x71, 0x12, 0xb7,
	0x00, 0x2c, 0x00, 0x00, 0x1c, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x11,
	0x80, 0x00, 0x30, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x55, 0x58,
	0xc0, 0x25, 0x61, 0x00, 0x00, 0x00, 0x02, 0x80, 0x00, 0x00, 0x00, 0x20,
	0xfa, 0x51, 0x4d, 0x60,
};

/* @dgram's ICRC field set as stock rxe computes a FLUSH's */
static void store_rxe_flush_icrc(struct kunit *test, u8 *dgram,
				 unsigned int len)
{
	unsigned int ib_len = len - IP4_LEN - UDP_LEN - ROCE_ICRC_SIZE;
	struct sk_buff *skb = datagram_skb(test, dgram, len, len, NULL);
	u32 crc = ~softrdma_icrc_compute(skb, ib_len);

	kfree_skb(skb);
	crc = crc32_le(crc, dgram + IP4_LEN + UDP_LEN, ib_len);
	softrdma_icrc_put(dgram + len - ROCE_ICRC_SIZE, ~crc);
}

/*
 * Stock rxe's FLUSH is taken and told apart, wherever its bytes lie; the
 * same ICRC on any other opcode, or on a changed FLUSH, is not.
 */
static void softrdma_icrc_rxe_flush(struct kunit *test)
{
	static const unsigned int frags[] = { 3, 0 };
	unsigned int len = sizeof(flush_from_rxe);
	struct sk_buff *skb;
	u8 *dgram;

	KUNIT_ASSERT_EQ(test, len, sizeof(flush_from_sroce));
	dgram = kunit_kmalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, dgram);

	memcpy(dgram, flush_from_sroce, len);
	skb = datagram_skb(test, dgram, len, len, NULL);
	KUNIT_EXPECT_EQ(test, softrdma_icrc_check(skb), SOFTRDMA_ICRC_OK);
	kfree_skb(skb);
	KUNIT_EXPECT_TRUE(test, softrdma_icrc_check_buf(dgram, len));

	memcpy(dgram, flush_from_rxe, len);
	KUNIT_EXPECT_FALSE(test, softrdma_icrc_check_buf(dgram, len));
	skb = datagram_skb(test, dgram, len, len, NULL);
	KUNIT_EXPECT_EQ(test, softrdma_icrc_check(skb),
			SOFTRDMA_ICRC_RXE_FLUSH);
	kfree_skb(skb);
	skb = datagram_skb(test, dgram, len, BTH_LEN, frags);
	KUNIT_EXPECT_EQ(test, softrdma_icrc_check(skb),
			SOFTRDMA_ICRC_RXE_FLUSH);
	kfree_skb(skb);
	/* the capture's ICRC is what the test's reckoning gives */
	store_rxe_flush_icrc(test, dgram, len);
	KUNIT_EXPECT_EQ(test, memcmp(dgram, flush_from_rxe, len), 0);

	/* a changed byte of the RETH */
	dgram[IP4_LEN + UDP_LEN + BTH_LEN + 4 + 3] ^= 0x01;
	skb = datagram_skb(test, dgram, len, len, NULL);
	KUNIT_EXPECT_EQ(test, softrdma_icrc_check(skb), SOFTRDMA_ICRC_BAD);
	kfree_skb(skb);

	/* rxe's reckoning on an RDMA WRITE Only is no excuse */
	memcpy(dgram, flush_from_rxe, len);
	dgram[IP4_LEN + UDP_LEN] = IB_OPCODE_RC_RDMA_WRITE_ONLY;
	store_rxe_flush_icrc(test, dgram, len);
	skb = datagram_skb(test, dgram, len, len, NULL);
	KUNIT_EXPECT_EQ(test, softrdma_icrc_check(skb), SOFTRDMA_ICRC_BAD);
	kfree_skb(skb);
}

/* malformed layouts are refused, not read past */
static void softrdma_icrc_check_malformed(struct kunit *test)
{
	unsigned int len, min = IP4_LEN + UDP_LEN + BTH_LEN + ROCE_ICRC_SIZE;
	struct sk_buff *skb;
	u8 *dgram;

	dgram = capture_datagram(test, 30, &len);
	KUNIT_EXPECT_TRUE(test, softrdma_icrc_check_buf(dgram, len));
	KUNIT_EXPECT_FALSE(test, softrdma_icrc_check_buf(dgram, len - 1));
	KUNIT_EXPECT_FALSE(test, softrdma_icrc_check_buf(dgram, min - 1));
	KUNIT_EXPECT_FALSE(test, softrdma_icrc_check_buf(dgram, 0));

	/* UDP length past the end of the skb */
	skb = datagram_skb(test, dgram, len, len, NULL);
	skb_trim(skb, len - 1);
	KUNIT_EXPECT_EQ(test, softrdma_icrc_check(skb), SOFTRDMA_ICRC_BAD);
	kfree_skb(skb);

	/* UDP length too short for a BTH and an ICRC */
	put_unaligned_be16(UDP_LEN + BTH_LEN + ROCE_ICRC_SIZE - 1,
			   dgram + IP4_LEN + 4);
	skb = datagram_skb(test, dgram, len, len, NULL);
	KUNIT_EXPECT_EQ(test, softrdma_icrc_check(skb), SOFTRDMA_ICRC_BAD);
	kfree_skb(skb);
	KUNIT_EXPECT_FALSE(test, softrdma_icrc_check_buf(dgram, len));

	/* not IP at all */
	dgram = capture_datagram(test, 30, &len);
	dgram[0] = 0x55;
	skb = datagram_skb(test, dgram, len, len, NULL);
	KUNIT_EXPECT_EQ(test, softrdma_icrc_check(skb), SOFTRDMA_ICRC_BAD);
	kfree_skb(skb);
	KUNIT_EXPECT_FALSE(test, softrdma_icrc_check_buf(dgram, len));

	/* not UDP */
	dgram = capture_datagram(test, 30, &len);
	dgram[9] = IPPROTO_TCP;
	KUNIT_EXPECT_FALSE(test, softrdma_icrc_check_buf(dgram, len));
}

/*
 * Every payload length against softrdma_icrc_compute_buf(): a synthetic
 * RoCEv2 datagram (IPv4, IPv4 with options, IPv6) with 0 to
 * SWEEP_PAYLOAD_MAX bytes after the BTH, laid out in an skb in each of
 * the shapes below at each of the 16 alignments, through
 * softrdma_icrc_compute() and softrdma_icrc_check().
 */
#define SWEEP_PAYLOAD_MAX	320

enum sweep_ip {
	SWEEP_IPV4,
	SWEEP_IPV4_OPTIONS,
	SWEEP_IPV6,
};

/*
 * How the datagram lies in the skb: the network header @align bytes past
 * a 16-byte boundary; the first @head_ib bytes of the IB packet in the
 * linear part (UINT_MAX: all of it, up to @list_at); the rest in page
 * fragments of @frag bytes (0: one fragment), each @align bytes past a
 * 16-byte boundary of its page, and from IB byte @list_at on (if not 0)
 * in a frag list of linear skbs of @frag bytes.
 */
struct sweep_shape {
	const char *name;
	unsigned int head_ib;
	unsigned int frag;
	unsigned int list_at;
};

static const struct sweep_shape sweep_shapes[] = {
	{ "linear", UINT_MAX, 0, 0 },
	{ "bth_linear_payload_paged", BTH_LEN, 0, 0 },
	{ "nothing_linear", 0, 0, 0 },
	{ "head_split_in_payload", BTH_LEN + 37, 0, 0 },
	{ "payload_in_small_frags", BTH_LEN + 3, 29, 0 },
	{ "payload_in_large_frags", BTH_LEN, 100, 0 },
	{ "frag_list", BTH_LEN + 5, 0, BTH_LEN + 70 },
	{ "frag_list_of_many", UINT_MAX, 13, BTH_LEN },
};

/* the length of the IP header sweep_datagram() writes for @ip */
static unsigned int sweep_ip_len(enum sweep_ip ip)
{
	return ip == SWEEP_IPV6 ? sizeof(struct ipv6hdr) :
	       ip == SWEEP_IPV4_OPTIONS ? IP4_LEN + 12 : IP4_LEN;
}

/* room for the largest datagram sweep_datagram() writes */
static u8 *sweep_buf(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, 128 + SWEEP_PAYLOAD_MAX, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	return buf;
}

/* the datagram of @ip with @payload bytes, its ICRC the reference's */
static unsigned int sweep_datagram(u8 *buf, enum sweep_ip ip,
				   unsigned int payload)
{
	unsigned int ip_len, len, i;
	struct udphdr *udph;
	u8 *bth;

	switch (ip) {
	case SWEEP_IPV6: {
		struct ipv6hdr *ip6 = (struct ipv6hdr *)buf;

		ip_len = sizeof(*ip6);
		memset(ip6, 0, ip_len);
		ip6->version = 6;
		ip6->priority = 0x3;
		ip6->flow_lbl[0] = 0xa5;
		ip6->flow_lbl[2] = 0x17;
		ip6->nexthdr = IPPROTO_UDP;
		ip6->hop_limit = 64;
		for (i = 0; i < 32; i++)
			buf[8 + i] = 0x20 + i * 7;
		len = ip_len + UDP_LEN + BTH_LEN + payload + ROCE_ICRC_SIZE;
		ip6->payload_len = htons(len - ip_len);
		break;
	}
	default: {
		struct iphdr *ip4 = (struct iphdr *)buf;

		ip_len = ip == SWEEP_IPV4_OPTIONS ? IP4_LEN + 12 : IP4_LEN;
		memset(ip4, 0, ip_len);
		ip4->version = 4;
		ip4->ihl = ip_len / 4;
		ip4->tos = 0x02;
		ip4->id = htons(0x1234 + payload);
		ip4->frag_off = htons(IP_DF);
		ip4->ttl = 64;
		ip4->protocol = IPPROTO_UDP;
		ip4->saddr = htonl(0xc0000201);
		ip4->daddr = htonl(0xc0000202);
		/* options: NOPs and an end of list */
		if (ip_len > IP4_LEN)
			memset(ip4 + 1, IPOPT_NOOP, ip_len - IP4_LEN - 1);
		len = ip_len + UDP_LEN + BTH_LEN + payload + ROCE_ICRC_SIZE;
		ip4->tot_len = htons(len);
		ip4->check = ip_fast_csum(ip4, ip4->ihl);
		break;
	}
	}

	udph = (struct udphdr *)(buf + ip_len);
	udph->source = htons(0xc000 + payload);
	udph->dest = htons(SOFTRDMA_ROCE_UDP_PORT);
	udph->len = htons(len - ip_len);
	udph->check = htons(0xbeef);

	bth = (u8 *)(udph + 1);
	bth[0] = IB_OPCODE_RC_RDMA_WRITE_MIDDLE;
	bth[1] = 0;
	put_unaligned_be16(0xffff, bth + 2);
	put_unaligned_be32(0xc0000011, bth + 4);	/* FECN, BECN, QPN */
	put_unaligned_be32(0x80000000 | payload, bth + 8);
	for (i = 0; i < payload; i++)
		bth[BTH_LEN + i] = i * 37 + (i >> 3) + payload;

	softrdma_icrc_put(buf + len - ROCE_ICRC_SIZE,
			  softrdma_icrc_compute_buf(buf, len));
	return len;
}

/* an skb of bytes from @src, of @size linear, at @align past 16 bytes */
static struct sk_buff *sweep_linear(struct kunit *test, const u8 *src,
				    unsigned int size, unsigned int align)
{
	struct sk_buff *skb;

	skb = alloc_skb(size + 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reserve(skb, 32 + ((align - (unsigned long)skb->data) & 15));
	skb_put_data(skb, src, size);
	return skb;
}

/*
 * @dgram of @len bytes in @shape at @align: NULL, and nothing checked,
 * if the shape does not fit this length (too short to reach the pages or
 * the frag list, too long for the fragments an skb holds)
 */
static struct sk_buff *sweep_skb(struct kunit *test, const u8 *dgram,
				 unsigned int len, unsigned int ip_len,
				 const struct sweep_shape *shape,
				 unsigned int align)
{
	unsigned int ib_off = ip_len + UDP_LEN, head, done, i, end = len;
	struct sk_buff *skb, **tail;

	head = min(len, ib_off + min(shape->head_ib, len));
	if (shape->list_at) {
		if (ib_off + shape->list_at >= len)
			return NULL;
		end = ib_off + shape->list_at;
		head = min(head, end);
	} else if (shape->head_ib != UINT_MAX && head == len) {
		return NULL;
	}

	if (shape->frag &&
	    DIV_ROUND_UP(end - head, shape->frag) > MAX_SKB_FRAGS)
		return NULL;

	skb = sweep_linear(test, dgram, head, align);
	skb_reset_network_header(skb);
	skb_set_transport_header(skb, ip_len);

	for (done = head, i = 0; done < end; i++) {
		unsigned int size = end - done;
		struct page *page;
		unsigned int off;

		if (shape->frag && shape->frag < size)
			size = shape->frag;
		KUNIT_ASSERT_LT(test, i, (unsigned int)MAX_SKB_FRAGS);
		/* pages at 16-byte boundaries plus @align */
		off = 16 * (i % 8) + align;
		page = alloc_page(GFP_KERNEL);
		if (!page) {
			kfree_skb(skb);
			KUNIT_ASSERT_NOT_NULL(test, page);
		}
		memcpy(page_address(page) + off, dgram + done, size);
		skb_add_rx_frag(skb, i, page, off, size, PAGE_SIZE);
		done += size;
	}

	tail = &skb_shinfo(skb)->frag_list;
	while (done < len) {
		unsigned int size = len - done;
		struct sk_buff *part;

		if (shape->frag && shape->frag < size)
			size = shape->frag;
		part = sweep_linear(test, dgram + done, size,
				    (align + done) & 15);
		*tail = part;
		tail = &part->next;
		skb->len += size;
		skb->data_len += size;
		skb->truesize += part->truesize;
		done += size;
	}
	KUNIT_EXPECT_EQ(test, skb->len, len);
	return skb;
}

struct sweep_case {
	const char *name;
	enum sweep_ip ip;
	bool crc32_le;		/* without the crypto "crc32" */
};

static const struct sweep_case sweep_cases[] = {
	{ "ipv4", SWEEP_IPV4, false },
	{ "ipv4_options", SWEEP_IPV4_OPTIONS, false },
	{ "ipv6", SWEEP_IPV6, false },
#if SOFTRDMA_ICRC_USE_SHASH
	{ "ipv4_crc32_le", SWEEP_IPV4, true },
	{ "ipv6_crc32_le", SWEEP_IPV6, true },
#endif
};

static void sweep_case_desc(const struct sweep_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sweep, sweep_cases, sweep_case_desc);

static void softrdma_icrc_sweep(struct kunit *test)
{
	const struct sweep_case *c = test->param_value;
	unsigned int payload, s, align, len, ip_len, wrong = 0, runs = 0;
#if SOFTRDMA_ICRC_USE_SHASH
	struct crypto_shash *tfm = NULL;
#endif
	u8 *dgram;

	dgram = sweep_buf(test);
	ip_len = sweep_ip_len(c->ip);
#if SOFTRDMA_ICRC_USE_SHASH
	if (c->crc32_le)
		tfm = softrdma_icrc_swap_tfm(NULL);
#endif

	for (payload = 0; payload <= SWEEP_PAYLOAD_MAX; payload++) {
		unsigned int ib_len = BTH_LEN + payload;
		u32 want;

		len = sweep_datagram(dgram, c->ip, payload);
		KUNIT_ASSERT_TRUE(test, softrdma_icrc_check_buf(dgram, len));
		want = softrdma_icrc_get(dgram + len - ROCE_ICRC_SIZE);

		for (s = 0; s < ARRAY_SIZE(sweep_shapes); s++) {
			for (align = 0; align < 16; align++) {
				const struct sweep_shape *shape =
					&sweep_shapes[s];
				struct sk_buff *skb;
				u32 got;
				int v;

				skb = sweep_skb(test, dgram, len, ip_len,
						shape, align);
				if (!skb)
					continue;
				runs++;
				got = softrdma_icrc_compute(skb, ib_len);
				v = softrdma_icrc_check(skb);
				if ((got != want || v != SOFTRDMA_ICRC_OK) &&
				    !wrong++)
					kunit_err(test,
						  "payload %u, %s at %u: %08x, want %08x, check %d\n",
						  payload, shape->name, align,
						  got, want, v);
				kfree_skb(skb);
			}
		}
	}
#if SOFTRDMA_ICRC_USE_SHASH
	if (c->crc32_le)
		softrdma_icrc_swap_tfm(tfm);
#endif
	KUNIT_EXPECT_EQ(test, wrong, 0U);
	/* the shapes that need payload are left out for short ones only */
	KUNIT_EXPECT_GT(test, runs, (SWEEP_PAYLOAD_MAX + 1) * 16 *
				    (unsigned int)ARRAY_SIZE(sweep_shapes) * 9 / 10);
}

/*
 * softrdma_icrc_compute() and softrdma_icrc_check() reckon a linear packet
 * where it lies, the LRH stand-in written in front of the IP header for
 * the while, when the linear part reaches back to the 16-byte boundary
 * before the stand-in and nobody else holds the skb or its head; else
 * they walk it as any other.  Every headroom from 0 to 39 bytes, the skb
 * alone, cloned or shared, for every payload length: the choice is that,
 * the ICRC is the reference's and found good, and every byte of the
 * skb's head, headroom included, is as it was.
 */
static void softrdma_icrc_in_place(struct kunit *test)
{
	const struct sweep_case *c = test->param_value;
	unsigned int payload, hr, len, ip_len, wrong = 0, in_place = 0;
	unsigned int walked = 0;
#if SOFTRDMA_ICRC_USE_SHASH
	struct crypto_shash *tfm = NULL;
#endif
	u8 *dgram;

	dgram = sweep_buf(test);
	ip_len = sweep_ip_len(c->ip);
#if SOFTRDMA_ICRC_USE_SHASH
	if (c->crc32_le)
		tfm = softrdma_icrc_swap_tfm(NULL);
#endif

	for (payload = 0; payload <= SWEEP_PAYLOAD_MAX; payload++) {
		unsigned int ib_len = BTH_LEN + payload;
		u32 want;

		len = sweep_datagram(dgram, c->ip, payload);
		want = softrdma_icrc_get(dgram + len - ROCE_ICRC_SIZE);

		for (hr = 0; hr < 40; hr++) {
			struct sk_buff *skb, *clone = NULL;
			bool fits, ok, shared = hr % 3 == 2;
			u32 got;
			int v;

			skb = alloc_skb(hr + len, GFP_KERNEL);
			KUNIT_ASSERT_NOT_NULL(test, skb);
			skb_reserve(skb, hr);
			skb_put_data(skb, dgram, len);
			skb_reset_network_header(skb);
			skb_set_transport_header(skb, ip_len);
			memset(skb->head, 0x5a, hr);
			if (hr % 3 == 1) {
				clone = skb_clone(skb, GFP_KERNEL);
				if (!clone) {
					kfree_skb(skb);
					KUNIT_ASSERT_NOT_NULL(test, clone);
				}
			}
			if (shared)
				skb_get(skb);
			fits = !clone && !shared &&
			       PTR_ALIGN_DOWN(skb->data - 8, 16) >= skb->head;

			ok = softrdma_icrc_in_place_ok(skb, ip_len + UDP_LEN,
						       ib_len) == fits;
			got = softrdma_icrc_compute(skb, ib_len);
			v = softrdma_icrc_check(skb);
			if ((!ok || got != want || v != SOFTRDMA_ICRC_OK ||
			     memchr_inv(skb->head, 0x5a, hr) ||
			     memcmp(skb->data, dgram, len)) && !wrong++)
				kunit_err(test,
					  "payload %u, headroom %u%s%s: in place %d, %08x, want %08x, check %d\n",
					  payload, hr, clone ? ", cloned" : "",
					  shared ? ", shared" : "", fits, got,
					  want, v);
			if (fits)
				in_place++;
			else
				walked++;
			if (shared)
				kfree_skb(skb);
			kfree_skb(clone);
			kfree_skb(skb);
		}
	}
#if SOFTRDMA_ICRC_USE_SHASH
	if (c->crc32_le)
		softrdma_icrc_swap_tfm(tfm);
#endif
	KUNIT_EXPECT_EQ(test, wrong, 0U);
	KUNIT_EXPECT_GT(test, in_place, (SWEEP_PAYLOAD_MAX + 1) * 5U);
	KUNIT_EXPECT_GT(test, walked, (SWEEP_PAYLOAD_MAX + 1) * 20U);
}

/*
 * A wrong byte anywhere in the IB packet is caught, in every shape: each
 * byte of a 300-byte payload flipped in turn, at two alignments.
 */
static void softrdma_icrc_sweep_corrupt(struct kunit *test)
{
	unsigned int s, align, off, len, missed = 0, runs = 0;
	u8 *dgram;

	dgram = sweep_buf(test);
	len = sweep_datagram(dgram, SWEEP_IPV4, 300);

	for (s = 0; s < ARRAY_SIZE(sweep_shapes); s++) {
		for (align = 0; align < 16; align += 7) {
			for (off = IP4_LEN + UDP_LEN; off < len; off++) {
				struct sk_buff *skb;

				if (off == IP4_LEN + UDP_LEN + 4)
					continue;	/* masked BTH byte */
				dgram[off] ^= 0x10;
				skb = sweep_skb(test, dgram, len, IP4_LEN,
						&sweep_shapes[s], align);
				dgram[off] ^= 0x10;
				KUNIT_ASSERT_NOT_NULL(test, skb);
				runs++;
				if (softrdma_icrc_check(skb) !=
				    SOFTRDMA_ICRC_BAD && !missed++)
					kunit_err(test, "%s at %u: byte %u\n",
						  sweep_shapes[s].name, align,
						  off);
				kfree_skb(skb);
			}
		}
	}
	KUNIT_EXPECT_EQ(test, missed, 0U);
	KUNIT_EXPECT_EQ(test, runs, (unsigned int)ARRAY_SIZE(sweep_shapes) *
				    3 * (len - IP4_LEN - UDP_LEN - 1));
}

/*
 * The captured frames (a READ request, WRITE and READ response packets,
 * ACKs) in every shape at every alignment
 */
static void softrdma_icrc_capture_shapes(struct kunit *test)
{
	const struct capture_icrc *c = test->param_value;
	unsigned int len, s, align, wrong = 0, runs = 0;
	u8 *dgram;

	dgram = capture_datagram(test, c->pcap_frame, &len);
	for (s = 0; s < ARRAY_SIZE(sweep_shapes); s++) {
		for (align = 0; align < 16; align++) {
			struct sk_buff *skb;

			skb = sweep_skb(test, dgram, len, IP4_LEN,
					&sweep_shapes[s], align);
			if (!skb)
				continue;
			runs++;
			if ((softrdma_icrc_compute(skb, len - IP4_LEN -
						   UDP_LEN - ROCE_ICRC_SIZE) !=
			     swab32(c->tshark_icrc) ||
			     softrdma_icrc_check(skb) != SOFTRDMA_ICRC_OK) &&
			    !wrong++)
				kunit_err(test, "%s at %u\n",
					  sweep_shapes[s].name, align);
			kfree_skb(skb);
		}
	}
	KUNIT_EXPECT_EQ(test, wrong, 0U);
	/* linear, three paged shapes and the frag list of many fit any */
	KUNIT_EXPECT_GE(test, runs, 5 * 16U);
}

#if SOFTRDMA_ICRC_USE_SHASH
/* the reflected Ethernet CRC-32 register, one bit at a time */
static u32 bitwise_crc32(u32 crc, const u8 *p, size_t len)
{
	unsigned int bit;

	while (len--) {
		crc ^= *p++;
		for (bit = 0; bit < 8; bit++)
			crc = (crc >> 1) ^ (crc & 1 ? 0xedb88320 : 0);
	}
	return crc;
}

struct shash_case {
	const char *name;
	unsigned int off;	/* misalignment of the buffer */
	unsigned int len;
	u32 seed;
};

/* around the crypto threshold, misaligned, one packet's payload, a page */
static const struct shash_case shash_cases[] = {
	{ "empty", 0, 0, ~0U },
	{ "header", 3, 60, ~0U },
	{ "below_threshold", 0, 255, 0x12345678 },
	{ "at_threshold", 1, 256, ~0U },
	{ "above_threshold_odd", 7, 257, 0 },
	{ "mtu_payload", 0, 1024, 0xdeadbeef },
	{ "mtu_payload_misaligned", 13, 1024, ~0U },
	{ "page_and_tail", 5, 4096 + 9, 0x80000001 },
};

static void shash_case_desc(const struct shash_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(shash, shash_cases, shash_case_desc);

static void shash_expect(struct kunit *test, struct crypto_shash *tfm)
{
	const struct shash_case *c = test->param_value;
	unsigned int i;
	u8 *buf;

	buf = kunit_kmalloc(test, c->off + c->len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < c->off + c->len; i++)
		buf[i] = i * 131 + (i >> 8);
	KUNIT_EXPECT_EQ(test,
			softrdma_icrc_shash_crc32(tfm, c->seed, buf + c->off,
						  c->len),
			bitwise_crc32(c->seed, buf + c->off, c->len));
}

/* without a crypto "crc32" the table-driven crc32_le() does the work */
static void softrdma_icrc_shash_fallback(struct kunit *test)
{
	shash_expect(test, NULL);
}

/*
 * through the crypto API: the register goes in by import and comes out
 * of the little-endian digest, with no complement on either side
 */
static void softrdma_icrc_shash_crypto(struct kunit *test)
{
	struct crypto_shash *tfm = crypto_alloc_shash("crc32", 0, 0);

	if (IS_ERR(tfm))
		kunit_skip(test, "no crypto crc32 in this kernel");
	kunit_info(test, "crc32 is %s\n", crypto_shash_driver_name(tfm));
	shash_expect(test, tfm);
	crypto_free_shash(tfm);
}
#endif

static struct kunit_case softrdma_icrc_cases[] = {
	KUNIT_CASE_PARAM(softrdma_icrc_capture_flat, capture_gen_params),
	KUNIT_CASE_PARAM(softrdma_icrc_capture_skb_linear, capture_gen_params),
	KUNIT_CASE_PARAM(softrdma_icrc_capture_skb_frags, capture_gen_params),
	KUNIT_CASE_PARAM(softrdma_icrc_capture_bit_flips, capture_gen_params),
	KUNIT_CASE_PARAM(softrdma_icrc_capture_skb_header_flips,
			 capture_gen_params),
	KUNIT_CASE_PARAM(softrdma_icrc_field_rewrites, field_gen_params),
	KUNIT_CASE(softrdma_icrc_ipv6),
	KUNIT_CASE(softrdma_icrc_check_malformed),
#if SOFTRDMA_HAVE_UNREADABLE_FRAGS
	KUNIT_CASE(softrdma_icrc_unreadable_field),
#endif
	KUNIT_CASE(softrdma_icrc_rxe_flush),
	KUNIT_CASE_PARAM(softrdma_icrc_sweep, sweep_gen_params),
	KUNIT_CASE_PARAM(softrdma_icrc_in_place, sweep_gen_params),
	KUNIT_CASE(softrdma_icrc_sweep_corrupt),
	KUNIT_CASE_PARAM(softrdma_icrc_capture_shapes, capture_gen_params),
#if SOFTRDMA_ICRC_USE_SHASH
	KUNIT_CASE_PARAM(softrdma_icrc_shash_fallback, shash_gen_params),
	KUNIT_CASE_PARAM(softrdma_icrc_shash_crypto, shash_gen_params),
#endif
	{}
};

static struct kunit_suite softrdma_icrc_suite = {
	.name = "softrdma_icrc",
	.test_cases = softrdma_icrc_cases,
};

kunit_test_suite(softrdma_icrc_suite);
