// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for roce_net.c: receive validation on crafted packets, the
 * connected QP's address check and the end of a receive run (roce_rx.c),
 * the UDP source port hash, the transmit header push, transmit bursts as
 * GSO segments them, the shapes of a transmitted packet (payload copied
 * or in page frags) and which one a device gets, and av.c's address
 * vectors.
 *
 * The packet vectors are real RoCEv2 traffic from stock rdma_rxe
 * (/work/shared/captures/rxe-rc.pcap), IPv4 header to ICRC.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/ip6_checksum.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <rdma/ib_pack.h>
#include <rdma/ib_verbs.h>

#include "av.h"
#include "compat.h"
#include "counters.h"
#include "device.h"
#include "icrc.h"
#include "mr.h"
#include "qp.h"
#include "roce_hdr.h"
#include "roce_net.h"
#include "roce_pkt.h"
#include "roce_qp.h"

/* frame 30: RC Acknowledge, QP 0x11, PSN 0xf2c6de, AETH 0x1f000001 */
static const u8 rc_ack[] = {
	0x45, 0x00, 0x00, 0x30, 0xcd, 0x8c, 0x40, 0x00,
	0x40, 0x11, 0xe9, 0x2c, 0xc0, 0x00, 0x02, 0x01,
	0xc0, 0x00, 0x02, 0x02, 0xc1, 0x21, 0x12, 0xb7,
	0x00, 0x1c, 0x00, 0x00, 0x11, 0x00, 0xff, 0xff,
	0x00, 0x00, 0x00, 0x11, 0x00, 0xf2, 0xc6, 0xde,
	0x1f, 0x00, 0x00, 0x01, 0x2b, 0x6f, 0xb7, 0xae,
};

/* frame 153: RC RDMA Read Request, QP 0x13, PSN 0x16d10f, AckReq */
static const u8 rc_read_req[] = {
	0x45, 0x00, 0x00, 0x3c, 0x32, 0x22, 0x40, 0x00,
	0x40, 0x11, 0x84, 0x8b, 0xc0, 0x00, 0x02, 0x02,
	0xc0, 0x00, 0x02, 0x01, 0xc1, 0x69, 0x12, 0xb7,
	0x00, 0x28, 0x00, 0x00, 0x0c, 0x00, 0xff, 0xff,
	0x00, 0x00, 0x00, 0x13, 0x80, 0x16, 0xd1, 0x0f,
	0x00, 0x00, 0x55, 0x98, 0x72, 0x6b, 0x10, 0x00,
	0x00, 0x00, 0x04, 0x18, 0x00, 0x00, 0x09, 0xc4,
	0x32, 0x4c, 0x6b, 0x1b,
};

#define IP4_LEN		sizeof(struct iphdr)
#define UDP_OFF		IP4_LEN
#define BTH_OFF		(IP4_LEN + sizeof(struct udphdr))
#define PKT_MAX		256

/*
 * an skb as UDP hands it to encap_rcv: data at the UDP header, which
 * follows @ip_len bytes of IP header
 */
static struct sk_buff *rcv_skb_ip(struct kunit *test, const u8 *pkt,
				  unsigned int len, unsigned int linear,
				  unsigned int ip_len)
{
	struct sk_buff *skb;
	struct page *page;

	skb = alloc_skb(linear + 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reserve(skb, 64);
	skb_put_data(skb, pkt, linear);
	if (linear < len) {
		page = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, page);
		memcpy(page_address(page), pkt + linear, len - linear);
		skb_add_rx_frag(skb, 0, page, 0, len - linear, PAGE_SIZE);
	}
	skb_reset_network_header(skb);
	skb_pull(skb, ip_len);
	skb_reset_transport_header(skb);
	return skb;
}

static struct sk_buff *rcv_skb(struct kunit *test, const u8 *pkt,
			       unsigned int len, unsigned int linear)
{
	return rcv_skb_ip(test, pkt, len, linear, IP4_LEN);
}

/* UDP and IP lengths after changing the packet's length to @len */
static void set_lengths(u8 *buf, unsigned int len)
{
	struct udphdr *uh = (struct udphdr *)(buf + UDP_OFF);
	struct iphdr *iph = (struct iphdr *)buf;

	iph->tot_len = htons(len);
	uh->len = htons(len - IP4_LEN);
}

static void fix_icrc(u8 *buf, unsigned int len)
{
	softrdma_icrc_put(buf + len - ROCE_ICRC_SIZE,
			  softrdma_icrc_compute_buf(buf, len));
}

static struct softrdma_bth *bth_of(u8 *buf)
{
	return (struct softrdma_bth *)(buf + BTH_OFF);
}

/* Test fixture: a device that is never registered. */
struct roce_net_test {
	struct softrdma_dev *sdev;
};

/**
 * softrdma_roce_test_dev() - a device never registered, as the RoCE
 * receive path sees one: counters, an empty QP xarray, one reference
 * @test: the test; the device's memory is its
 *
 * Return: the device; softrdma_roce_test_dev_free() undoes it.
 */
struct softrdma_dev *softrdma_roce_test_dev(struct kunit *test)
{
	struct softrdma_dev *sdev;

	sdev = kunit_kzalloc(test, sizeof(*sdev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sdev);
	KUNIT_ASSERT_EQ(test, softrdma_counters_alloc(sdev), 0);
	xa_init_flags(&sdev->qp_xa, XA_FLAGS_ALLOC1);
	refcount_set(&sdev->ibdev.refcount, 1);
	init_completion(&sdev->ibdev.unreg_completion);
	return sdev;
}

void softrdma_roce_test_dev_free(struct softrdma_dev *sdev)
{
	xa_destroy(&sdev->qp_xa);
	softrdma_counters_free(sdev);
}

static int roce_net_test_init(struct kunit *test)
{
	struct roce_net_test *t;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	t->sdev = softrdma_roce_test_dev(test);
	test->priv = t;
	return 0;
}

static void roce_net_test_exit(struct kunit *test)
{
	struct roce_net_test *t = test->priv;

	/* every packet gave back the device reference it was handed */
	KUNIT_EXPECT_EQ(test, refcount_read(&t->sdev->ibdev.refcount), 1);
	softrdma_roce_test_dev_free(t->sdev);
}

static void softrdma_roce_net_rcv_ack(struct kunit *test)
{
	struct softrdma_roce_pkt *pkt;
	enum softrdma_counter drop;
	struct sk_buff *skb;

	skb = rcv_skb(test, rc_ack, sizeof(rc_ack), sizeof(rc_ack));
	KUNIT_ASSERT_EQ(test, softrdma_roce_rcv_parse(skb, &drop), 0);

	pkt = softrdma_roce_pkt(skb);
	KUNIT_EXPECT_EQ(test, pkt->opcode, IB_OPCODE_RC_ACKNOWLEDGE);
	KUNIT_EXPECT_EQ(test, pkt->qpn, 0x11);
	KUNIT_EXPECT_EQ(test, pkt->psn, 0xf2c6de);
	KUNIT_EXPECT_EQ(test, pkt->hdr_len, 16);
	KUNIT_EXPECT_EQ(test, pkt->payload_len, 0);
	KUNIT_EXPECT_EQ(test, pkt->pad, 0);
	KUNIT_EXPECT_EQ(test, pkt->network_type, RDMA_NETWORK_IPV4);
	/* data at the BTH; ICRC trimmed; IP and UDP headers intact */
	KUNIT_EXPECT_EQ(test, skb->len, 16);
	KUNIT_EXPECT_EQ(test, skb->data[0], IB_OPCODE_RC_ACKNOWLEDGE);
	KUNIT_EXPECT_EQ(test, ip_hdr(skb)->saddr, htonl(0xc0000201));
	KUNIT_EXPECT_EQ(test, ntohs(udp_hdr(skb)->dest), SOFTRDMA_ROCE_UDP_PORT);
	kfree_skb(skb);
}

/*
 * The MR cache the packets received together share holds a reference for
 * them (softrdma_mr_get_cached()); the end of their delivery gives it
 * back, so that no deregistration waits for more than the packets' run.
 */
static void softrdma_roce_net_rcv_done_drops_mr(struct kunit *test)
{
	struct roce_net_test *t = test->priv;
	struct softrdma_roce_rcv_ctx ctx = { .sdev = t->sdev };
	struct softrdma_mr *mr;

	mr = kunit_kzalloc(test, sizeof(*mr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mr);
	kref_init(&mr->ref);
	init_completion(&mr->released);

	kref_get(&mr->ref);
	ctx.mr_cache = mr;
	softrdma_roce_rcv_done(&ctx);
	KUNIT_EXPECT_EQ(test, kref_read(&mr->ref), 1U);
	KUNIT_EXPECT_NULL(test, ctx.mr_cache);
	KUNIT_EXPECT_NULL(test, ctx.qp);
	/* ended twice, or with nothing cached: nothing to give back */
	softrdma_roce_rcv_done(&ctx);
	KUNIT_EXPECT_EQ(test, kref_read(&mr->ref), 1U);
	KUNIT_EXPECT_FALSE(test, completion_done(&mr->released));
}

static void softrdma_roce_net_rcv_read_request(struct kunit *test)
{
	const struct softrdma_reth *reth;
	struct softrdma_roce_pkt *pkt;
	enum softrdma_counter drop;
	struct sk_buff *skb;

	skb = rcv_skb(test, rc_read_req, sizeof(rc_read_req),
		      sizeof(rc_read_req));
	KUNIT_ASSERT_EQ(test, softrdma_roce_rcv_parse(skb, &drop), 0);

	pkt = softrdma_roce_pkt(skb);
	KUNIT_EXPECT_EQ(test, pkt->opcode, IB_OPCODE_RC_RDMA_READ_REQUEST);
	KUNIT_EXPECT_EQ(test, pkt->qpn, 0x13);
	KUNIT_EXPECT_EQ(test, pkt->psn, 0x16d10f);
	KUNIT_EXPECT_EQ(test, pkt->hdr_len, 28);
	KUNIT_EXPECT_EQ(test, pkt->payload_len, 0);
	KUNIT_EXPECT_EQ(test, skb->len, 28);
	reth = (const struct softrdma_reth *)(skb->data +
					      sizeof(struct softrdma_bth));
	KUNIT_EXPECT_EQ(test, softrdma_reth_va(reth), 0x00005598726b1000ULL);
	KUNIT_EXPECT_EQ(test, softrdma_reth_rkey(reth), 0x418);
	KUNIT_EXPECT_EQ(test, softrdma_reth_len(reth), 2500);
	kfree_skb(skb);
}

/*
 * An RC SEND ONLY with 509 bytes of payload and 3 of pad in a page frag:
 * the headers are pulled into the linear area, the payload stays in the
 * frag (too big for skb_condense() to copy it into the tailroom).
 */
static void softrdma_roce_net_rcv_payload_in_frag(struct kunit *test)
{
	unsigned int len = BTH_OFF + 12 + 512 + ROCE_ICRC_SIZE;
	struct softrdma_roce_pkt *pkt;
	enum softrdma_counter drop;
	struct sk_buff *skb;
	u8 *buf;
	int i;

	buf = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	memcpy(buf, rc_ack, BTH_OFF + 12);
	softrdma_bth_set_opcode(bth_of(buf), IB_OPCODE_RC_SEND_ONLY);
	softrdma_bth_set_pad(bth_of(buf), 3);
	for (i = 0; i < 509; i++)
		buf[BTH_OFF + 12 + i] = i;
	set_lengths(buf, len);
	fix_icrc(buf, len);

	/* even the BTH starts in the linear area and ends in the frag */
	skb = rcv_skb(test, buf, len, BTH_OFF + 4);
	KUNIT_ASSERT_EQ(test, softrdma_roce_rcv_parse(skb, &drop), 0);

	pkt = softrdma_roce_pkt(skb);
	KUNIT_EXPECT_EQ(test, pkt->opcode, IB_OPCODE_RC_SEND_ONLY);
	KUNIT_EXPECT_EQ(test, pkt->hdr_len, 12);
	KUNIT_EXPECT_EQ(test, pkt->pad, 3);
	KUNIT_EXPECT_EQ(test, pkt->payload_len, 509);
	KUNIT_EXPECT_EQ(test, skb->len, 12 + 509);
	KUNIT_EXPECT_EQ(test, skb_headlen(skb), 12);
	KUNIT_ASSERT_EQ(test, skb_shinfo(skb)->nr_frags, 1);
	KUNIT_EXPECT_EQ(test, skb_frag_size(&skb_shinfo(skb)->frags[0]), 509);
	KUNIT_EXPECT_EQ(test, *(u8 *)skb_frag_address(&skb_shinfo(skb)->frags[0]),
			0);
	kfree_skb(skb);
}

struct rcv_case {
	const char *name;
	const u8 *pkt;
	unsigned int len;
	/* changes the copy of @pkt, may shorten it; returns the length */
	unsigned int (*mangle)(u8 *buf, unsigned int len);
	bool fix_icrc;
	enum softrdma_counter counter;
	/* bytes in the linear part, the rest in a page frag; 0: all */
	unsigned int linear;
	/* the frag device memory the host cannot read (6.12) */
	bool unreadable;
};

static unsigned int keep(u8 *buf, unsigned int len)
{
	return len;
}

static unsigned int udp_len_long(u8 *buf, unsigned int len)
{
	struct udphdr *uh = (struct udphdr *)(buf + UDP_OFF);

	be16_add_cpu(&uh->len, 4);
	return len;
}

static unsigned int udp_len_short(u8 *buf, unsigned int len)
{
	struct udphdr *uh = (struct udphdr *)(buf + UDP_OFF);

	be16_add_cpu(&uh->len, -4);
	return len;
}

/* a UDP datagram holding a BTH but no room for the ICRC */
static unsigned int bth_only(u8 *buf, unsigned int len)
{
	len = BTH_OFF + sizeof(struct softrdma_bth);
	set_lengths(buf, len);
	return len;
}

/* an ACK's length, but a read request's opcode (BTH + RETH) */
static unsigned int short_headers(u8 *buf, unsigned int len)
{
	softrdma_bth_set_opcode(bth_of(buf), IB_OPCODE_RC_RDMA_READ_REQUEST);
	return len;
}

/* pad count larger than what follows the headers */
static unsigned int short_pad(u8 *buf, unsigned int len)
{
	softrdma_bth_set_pad(bth_of(buf), 3);
	return len;
}

static unsigned int tver_1(u8 *buf, unsigned int len)
{
	softrdma_bth_set_tver(bth_of(buf), 1);
	return len;
}

static unsigned int opcode_reserved(u8 *buf, unsigned int len)
{
	softrdma_bth_set_opcode(bth_of(buf), IB_OPCODE_RC + 0x1f);
	return len;
}

static unsigned int pkey_other(u8 *buf, unsigned int len)
{
	softrdma_bth_set_pkey(bth_of(buf), 0x8001);
	return len;
}

static unsigned int pkey_limited(u8 *buf, unsigned int len)
{
	softrdma_bth_set_pkey(bth_of(buf), 0x7fff);
	return len;
}

static unsigned int icrc_flip(u8 *buf, unsigned int len)
{
	buf[len - 1] ^= 0x01;
	return len;
}

static unsigned int payload_flip(u8 *buf, unsigned int len)
{
	buf[BTH_OFF + 13] ^= 0x80;	/* RETH VA */
	return len;
}

/* the ICRC masks BTH byte 4 (FECN, BECN): set on the path, still good */
static unsigned int becn_set(u8 *buf, unsigned int len)
{
	softrdma_bth_set_becn(bth_of(buf), true);
	softrdma_bth_set_fecn(bth_of(buf), true);
	return len;
}

static const struct rcv_case rcv_cases[] = {
	{ "valid_ack_no_qp", rc_ack, sizeof(rc_ack), keep, false,
	  SOFTRDMA_CNT_RCV_NO_QP },
	{ "valid_read_request_no_qp", rc_read_req, sizeof(rc_read_req), keep,
	  false, SOFTRDMA_CNT_RCV_NO_QP },
	{ "limited_pkey_accepted", rc_ack, sizeof(rc_ack), pkey_limited, true,
	  SOFTRDMA_CNT_RCV_NO_QP },
	{ "ecn_bits_masked_by_icrc", rc_ack, sizeof(rc_ack), becn_set, false,
	  SOFTRDMA_CNT_RCV_NO_QP },
	{ "udp_len_beyond_datagram", rc_ack, sizeof(rc_ack), udp_len_long,
	  false, SOFTRDMA_CNT_RCV_BAD_UDP_LEN },
	{ "udp_len_short_of_datagram", rc_ack, sizeof(rc_ack), udp_len_short,
	  false, SOFTRDMA_CNT_RCV_BAD_UDP_LEN },
	{ "no_room_for_icrc", rc_ack, sizeof(rc_ack), bth_only, false,
	  SOFTRDMA_CNT_RCV_TRUNCATED },
	{ "headers_truncated", rc_ack, sizeof(rc_ack), short_headers, true,
	  SOFTRDMA_CNT_RCV_TRUNCATED },
	{ "pad_beyond_packet", rc_ack, sizeof(rc_ack), short_pad, true,
	  SOFTRDMA_CNT_RCV_TRUNCATED },
	{ "bad_icrc", rc_ack, sizeof(rc_ack), icrc_flip, false,
	  SOFTRDMA_CNT_RCV_ICRC_ERR },
	{ "corrupt_header_bad_icrc", rc_read_req, sizeof(rc_read_req),
	  payload_flip, false, SOFTRDMA_CNT_RCV_ICRC_ERR },
	{ "tver_1", rc_ack, sizeof(rc_ack), tver_1, true,
	  SOFTRDMA_CNT_RCV_BAD_TVER },
	{ "opcode_reserved", rc_ack, sizeof(rc_ack), opcode_reserved, true,
	  SOFTRDMA_CNT_RCV_BAD_OPCODE },
	{ "pkey_other_partition", rc_ack, sizeof(rc_ack), pkey_other, true,
	  SOFTRDMA_CNT_RCV_BAD_PKEY },
	{ "payload_in_frag_no_qp", rc_read_req, sizeof(rc_read_req), keep,
	  false, SOFTRDMA_CNT_RCV_NO_QP, BTH_OFF + 16 },
#if SOFTRDMA_HAVE_UNREADABLE_FRAGS
	/*
	 * the skb's flag says so (the page itself is ordinary): dropped
	 * before the ICRC, whether the frag holds payload or the ICRC
	 */
	{ "payload_in_unreadable_frag", rc_read_req, sizeof(rc_read_req),
	  keep, false, SOFTRDMA_CNT_RCV_UNREADABLE, BTH_OFF + 16, true },
	{ "icrc_in_unreadable_frag", rc_read_req, sizeof(rc_read_req), keep,
	  false, SOFTRDMA_CNT_RCV_UNREADABLE, sizeof(rc_read_req) - 2, true },
#endif
};

static void rcv_case_desc(const struct rcv_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rcv, rcv_cases, rcv_case_desc);

/*
 * Through the whole receive path of a device: exactly the packet counter
 * and the expected drop counter move, the skb is consumed and the device
 * reference returned (checked at exit).
 */
static void softrdma_roce_net_rcv_counts(struct kunit *test)
{
	const struct rcv_case *c = test->param_value;
	struct roce_net_test *t = test->priv;
	u64 before[SOFTRDMA_NUM_COUNTERS];
	struct sk_buff *skb;
	unsigned int len;
	u8 buf[PKT_MAX];
	int i;

	KUNIT_ASSERT_LE(test, c->len, sizeof(buf));
	memcpy(buf, c->pkt, c->len);
	len = c->mangle(buf, c->len);
	if (c->fix_icrc)
		fix_icrc(buf, len);

	for (i = 0; i < SOFTRDMA_NUM_COUNTERS; i++)
		before[i] = softrdma_counter_read(t->sdev, i);

	skb = rcv_skb(test, buf, len, c->linear ?: len);
#if SOFTRDMA_HAVE_UNREADABLE_FRAGS
	skb->unreadable = c->unreadable;
#endif
	refcount_inc(&t->sdev->ibdev.refcount);	/* the lookup's reference */
	local_bh_disable();
	softrdma_roce_rcv_skb(t->sdev, skb);
	local_bh_enable();

	for (i = 0; i < SOFTRDMA_NUM_COUNTERS; i++) {
		u64 want = before[i];

		if (i == c->counter || i == SOFTRDMA_CNT_RCV_PACKETS)
			want++;
		else if (i == SOFTRDMA_CNT_RCV_BYTES)
			want += len - BTH_OFF;
		KUNIT_EXPECT_EQ_MSG(test, softrdma_counter_read(t->sdev, i),
				    want, "counter %s",
				    softrdma_counter_name(i));
	}
}

/* Connected QPs take packets from their peer only (roce_rx.c) */

#define ADDR_PEER	1
#define ADDR_LOCAL	2
#define ADDR_OTHER	9	/* a third host on the link */

static void addr4(union softrdma_ip *ip, u8 host)
{
	ip->v4.s_addr = htonl(0xc0000200 | host);	/* 192.0.2.host */
}

static void addr6(union softrdma_ip *ip, u8 host)
{
	memset(&ip->v6, 0, sizeof(ip->v6));
	ip->v6.s6_addr[0] = 0x20;			/* 2001:db8::host */
	ip->v6.s6_addr[1] = 0x01;
	ip->v6.s6_addr[2] = 0x0d;
	ip->v6.s6_addr[3] = 0xb8;
	ip->v6.s6_addr[15] = host;
}

struct addr_case {
	const char *name;
	const u8 *pkt;		/* an IPv4 capture; its IP addresses replaced */
	unsigned int len;
	bool ipv6;		/* sent over IPv6 instead */
	u8 src, dst;		/* ADDR_*: the packet's IP addresses */
	/* the QP's path: none, or its IP version (to LOCAL from PEER) */
	enum rdma_network_type path;
	enum softrdma_counter counter;
};

/*
 * The QP's engines are stopped: a packet let through counts as
 * rcv_qp_not_ready there and changes nothing else.
 */
static const struct addr_case addr_cases[] = {
	{ "ack_from_peer", rc_ack, sizeof(rc_ack), false, ADDR_PEER,
	  ADDR_LOCAL, RDMA_NETWORK_IPV4, SOFTRDMA_CNT_RCV_QP_NOT_READY },
	{ "read_request_from_peer", rc_read_req, sizeof(rc_read_req), false,
	  ADDR_PEER, ADDR_LOCAL, RDMA_NETWORK_IPV4,
	  SOFTRDMA_CNT_RCV_QP_NOT_READY },
	{ "ack_from_third_host", rc_ack, sizeof(rc_ack), false, ADDR_OTHER,
	  ADDR_LOCAL, RDMA_NETWORK_IPV4, SOFTRDMA_CNT_RCV_ADDR_MISMATCH },
	{ "read_request_from_third_host", rc_read_req, sizeof(rc_read_req),
	  false, ADDR_OTHER, ADDR_LOCAL, RDMA_NETWORK_IPV4,
	  SOFTRDMA_CNT_RCV_ADDR_MISMATCH },
	{ "read_request_to_other_address", rc_read_req, sizeof(rc_read_req),
	  false, ADDR_PEER, ADDR_OTHER, RDMA_NETWORK_IPV4,
	  SOFTRDMA_CNT_RCV_ADDR_MISMATCH },
	{ "addresses_reversed", rc_ack, sizeof(rc_ack), false, ADDR_LOCAL,
	  ADDR_PEER, RDMA_NETWORK_IPV4, SOFTRDMA_CNT_RCV_ADDR_MISMATCH },
	{ "ipv4_packet_ipv6_path", rc_ack, sizeof(rc_ack), false, ADDR_PEER,
	  ADDR_LOCAL, RDMA_NETWORK_IPV6, SOFTRDMA_CNT_RCV_ADDR_MISMATCH },
	{ "ipv6_ack_from_peer", rc_ack, sizeof(rc_ack), true, ADDR_PEER,
	  ADDR_LOCAL, RDMA_NETWORK_IPV6, SOFTRDMA_CNT_RCV_QP_NOT_READY },
	{ "ipv6_ack_from_third_host", rc_ack, sizeof(rc_ack), true,
	  ADDR_OTHER, ADDR_LOCAL, RDMA_NETWORK_IPV6,
	  SOFTRDMA_CNT_RCV_ADDR_MISMATCH },
	{ "ipv6_read_request_to_other_address", rc_read_req,
	  sizeof(rc_read_req), true, ADDR_PEER, ADDR_OTHER, RDMA_NETWORK_IPV6,
	  SOFTRDMA_CNT_RCV_ADDR_MISMATCH },
	{ "ipv6_packet_ipv4_path", rc_ack, sizeof(rc_ack), true, ADDR_PEER,
	  ADDR_LOCAL, RDMA_NETWORK_IPV4, SOFTRDMA_CNT_RCV_ADDR_MISMATCH },
	{ "qp_without_path", rc_ack, sizeof(rc_ack), false, ADDR_PEER,
	  ADDR_LOCAL, RDMA_NETWORK_IB, SOFTRDMA_CNT_RCV_ADDR_MISMATCH },
};

static void addr_case_desc(const struct addr_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(addr, addr_cases, addr_case_desc);

/* @c's packet, as an IP datagram in @buf; returns its IP header length */
static unsigned int addr_case_packet(const struct addr_case *c, u8 *buf,
				     unsigned int *len)
{
	unsigned int udp_len = c->len - IP4_LEN;
	struct ipv6hdr *ip6h = (struct ipv6hdr *)buf;
	struct iphdr *iph = (struct iphdr *)buf;
	union softrdma_ip src, dst;

	if (!c->ipv6) {
		memcpy(buf, c->pkt, c->len);
		addr4(&src, c->src);
		addr4(&dst, c->dst);
		iph->saddr = src.v4.s_addr;
		iph->daddr = dst.v4.s_addr;
		*len = c->len;
		fix_icrc(buf, *len);
		return IP4_LEN;
	}
	memset(ip6h, 0, sizeof(*ip6h));
	ip6h->version = 6;
	ip6h->payload_len = htons(udp_len);
	ip6h->nexthdr = IPPROTO_UDP;
	ip6h->hop_limit = 64;
	addr6(&src, c->src);
	addr6(&dst, c->dst);
	ip6h->saddr = src.v6;
	ip6h->daddr = dst.v6;
	memcpy(buf + sizeof(*ip6h), c->pkt + IP4_LEN, udp_len);
	*len = sizeof(*ip6h) + udp_len;
	fix_icrc(buf, *len);
	return sizeof(*ip6h);
}

/**
 * softrdma_roce_test_path() - a path from this host's address to a peer's
 * @test: the test
 * @type: RDMA_NETWORK_IPV4 or _IPV6
 * @peer: the peer's host number (ADDR_*, the last byte of its address)
 *
 * Return: the path, unpublished; free with softrdma_roce_path_free().
 */
struct softrdma_roce_path *softrdma_roce_test_path(struct kunit *test,
						   enum rdma_network_type type,
						   u8 peer)
{
	struct softrdma_roce_path *path;
	struct softrdma_av av = {};

	av.network_type = type;
	av.hop_limit = 64;
	if (type == RDMA_NETWORK_IPV4) {
		addr4(&av.saddr, ADDR_LOCAL);
		addr4(&av.daddr, peer);
	} else {
		addr6(&av.saddr, ADDR_LOCAL);
		addr6(&av.daddr, peer);
	}
	path = softrdma_roce_path_alloc();
	KUNIT_ASSERT_NOT_NULL(test, path);
	softrdma_roce_tx_set(&path->tx, &av, SOFTRDMA_ROCE_SPORT_MIN);
	return path;
}

/**
 * softrdma_roce_test_rc_qp() - an RC QP as the receive path finds one
 * @test: the test; the QP's memory is its
 * @sdev: from softrdma_roce_test_dev()
 * @qpn: published in @sdev's QP xarray under this number
 * @path_type: its path's IP version, to this host's address
 *	(192.0.2.2, 2001:db8::2) from its peer's (.1, ::1); RDMA_NETWORK_IB
 *	for none
 *
 * The QP is in RTS with its engines stopped: a packet that reaches them
 * counts as rcv_qp_not_ready and changes nothing else.
 *
 * Return: the QP, its one reference the test's;
 * softrdma_roce_test_rc_qp_remove() undoes it.
 */
struct softrdma_qp *softrdma_roce_test_rc_qp(struct kunit *test,
					     struct softrdma_dev *sdev, u32 qpn,
					     enum rdma_network_type path_type)
{
	struct softrdma_roce_qp *rqp;
	struct softrdma_qp *qp;

	rqp = kunit_kzalloc(test, sizeof(*rqp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rqp);
	qp = &rqp->qp;
	qp->sdev = sdev;
	qp->ibqp.qp_type = IB_QPT_RC;
	qp->ibqp.qp_num = qpn;
	refcount_set(&qp->ref, 1);
	init_completion(&qp->released);
	spin_lock_init(&qp->sq.lock);
	spin_lock_init(&qp->rq.lock);
	skb_queue_head_init(&rqp->rc.req_txq);
	skb_queue_head_init(&rqp->rc.resp_txq);
	skb_queue_head_init(&rqp->rc.backlog);
	rqp->rc.req_state = SOFTRDMA_RC_REQ_STOPPED;
	rqp->rc.resp_state = SOFTRDMA_RC_RESP_STOPPED;
	qp->state = IB_QPS_RTS;

	if (path_type != RDMA_NETWORK_IB)
		RCU_INIT_POINTER(rqp->path,
				 softrdma_roce_test_path(test, path_type,
							 ADDR_PEER));
	KUNIT_ASSERT_EQ(test, xa_err(xa_store(&sdev->qp_xa, qpn, qp,
					      GFP_KERNEL)), 0);
	return qp;
}

/**
 * softrdma_roce_test_rc_qp_remove() - unpublish a test QP, free its path
 * @qp: from softrdma_roce_test_rc_qp(); it may be unpublished already
 *
 * Waits for the path's RCU callback, which must run before the test's
 * memory goes.
 */
void softrdma_roce_test_rc_qp_remove(struct softrdma_qp *qp)
{
	xa_erase(&qp->sdev->qp_xa, softrdma_qpn(qp));
	softrdma_roce_path_free(rcu_replace_pointer(to_roce_qp(qp)->path, NULL,
						    true));
	rcu_barrier();
}

/*
 * Through the whole receive path: a packet for a connected QP from
 * anyone but its peer, or to any address but its own, is counted as
 * rcv_addr_mismatch and goes no further; one from its peer reaches the
 * engines.
 */
static void softrdma_roce_net_rcv_addr(struct kunit *test)
{
	const struct addr_case *c = test->param_value;
	struct roce_net_test *t = test->priv;
	u64 before[SOFTRDMA_NUM_COUNTERS];
	unsigned int len, ip_len;
	struct softrdma_qp *qp;
	struct sk_buff *skb;
	u8 buf[PKT_MAX];
	int i;

	KUNIT_ASSERT_LE(test, c->len + sizeof(struct ipv6hdr), sizeof(buf));
	ip_len = addr_case_packet(c, buf, &len);
	qp = softrdma_roce_test_rc_qp(test, t->sdev,
				      softrdma_bth_qpn(bth_of((u8 *)c->pkt)),
				      c->path);

	for (i = 0; i < SOFTRDMA_NUM_COUNTERS; i++)
		before[i] = softrdma_counter_read(t->sdev, i);

	skb = rcv_skb_ip(test, buf, len, len, ip_len);
	refcount_inc(&t->sdev->ibdev.refcount);	/* the lookup's reference */
	local_bh_disable();
	softrdma_roce_rcv_skb(t->sdev, skb);
	local_bh_enable();

	for (i = 0; i < SOFTRDMA_NUM_COUNTERS; i++) {
		u64 want = before[i];

		if (i == c->counter || i == SOFTRDMA_CNT_RCV_PACKETS)
			want++;
		else if (i == SOFTRDMA_CNT_RCV_BYTES)
			want += len - ip_len - sizeof(struct udphdr);
		KUNIT_EXPECT_EQ_MSG(test, softrdma_counter_read(t->sdev, i),
				    want, "counter %s",
				    softrdma_counter_name(i));
	}

	KUNIT_EXPECT_EQ(test, refcount_read(&qp->ref), 1);
	softrdma_roce_test_rc_qp_remove(qp);
}

static void softrdma_roce_net_counter_names(struct kunit *test)
{
	int i, j;

	for (i = 0; i < SOFTRDMA_NUM_COUNTERS; i++) {
		const char *name = softrdma_counter_name(i);

		KUNIT_ASSERT_NOT_NULL_MSG(test, name, "counter %d unnamed", i);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_STRNEQ(test, name,
					    softrdma_counter_name(j));
	}
	KUNIT_EXPECT_NULL(test, softrdma_counter_name(SOFTRDMA_NUM_COUNTERS));
}

/* A17.4.3 range; fixed per QP pair; spread over the 14 bits of entropy */
static void softrdma_roce_net_src_port(struct kunit *test)
{
	unsigned long *seen;
	unsigned int distinct;
	u32 a;

	seen = kunit_kzalloc(test, BITS_TO_LONGS(BIT(14)) * sizeof(long),
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, seen);

	for (a = 0; a < 4096; a++) {
		u16 port = softrdma_roce_src_port(a + 17, 0x1000 - a);

		KUNIT_ASSERT_GE(test, port, SOFTRDMA_ROCE_SPORT_MIN);
		KUNIT_EXPECT_EQ(test, port,
				softrdma_roce_src_port(a + 17, 0x1000 - a));
		__set_bit(port - SOFTRDMA_ROCE_SPORT_MIN, seen);
	}
	/* 4096 balls in 16384 bins: ~3600 distinct expected if uniform */
	distinct = bitmap_weight(seen, BIT(14));
	KUNIT_EXPECT_GT(test, distinct, 3300);

	/* consecutive QP numbers (one client's QPs) land apart */
	bitmap_zero(seen, BIT(14));
	for (a = 0; a < 64; a++)
		__set_bit(softrdma_roce_src_port(0x11 + a, 0x11) -
			  SOFTRDMA_ROCE_SPORT_MIN, seen);
	KUNIT_EXPECT_GE(test, bitmap_weight(seen, BIT(14)), 60);
	KUNIT_EXPECT_NE(test, softrdma_roce_src_port(0x11, 0x12),
			softrdma_roce_src_port(0x12, 0x11));
}

/*
 * Transmit: the UDP and IP headers go only where there is room for them.
 * (Without the check, the short cases write in front of the skb's head:
 * KASAN reports it, and skb->data ends up before skb->head.)
 */

struct push_case {
	const char *name;
	enum rdma_network_type type;
	unsigned int headroom;
	int ret;
};

static const struct push_case push_cases[] = {
	{ "ipv4_exact_room", RDMA_NETWORK_IPV4, 28, 0 },
	{ "ipv6_exact_room", RDMA_NETWORK_IPV6, 48, 0 },
	{ "ipv4_one_byte_short", RDMA_NETWORK_IPV4, 27, -ENOBUFS },
	{ "ipv6_one_byte_short", RDMA_NETWORK_IPV6, 47, -ENOBUFS },
	/* built for IPv4 behind a 16-byte link header, then sent as IPv6 */
	{ "ipv6_in_ipv4_headroom", RDMA_NETWORK_IPV6, 16 + 28, -ENOBUFS },
	{ "no_headroom", RDMA_NETWORK_IPV4, 0, -ENOBUFS },
};

static void push_case_desc(const struct push_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(push, push_cases, push_case_desc);

static void softrdma_roce_net_push_hdrs(struct kunit *test)
{
	const unsigned int ib_len = sizeof(rc_ack) - BTH_OFF;
	const struct push_case *c = test->param_value;
	struct softrdma_av av = { .hop_limit = 64 };
	struct softrdma_roce_tx tx;
	struct sk_buff *skb;
	u8 *data;
	int ret;

	av.network_type = c->type;
	if (c->type == RDMA_NETWORK_IPV4) {
		addr4(&av.saddr, ADDR_LOCAL);
		addr4(&av.daddr, ADDR_PEER);
	} else {
		addr6(&av.saddr, ADDR_LOCAL);
		addr6(&av.daddr, ADDR_PEER);
	}
	softrdma_roce_tx_set(&tx, &av, 0xc123);

	skb = alloc_skb(c->headroom + ib_len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reserve(skb, c->headroom);
	skb_put_data(skb, rc_ack + BTH_OFF, ib_len);
	data = skb->data;

	ret = softrdma_roce_push_hdrs(&init_net, skb, &tx, NULL, 1);
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	KUNIT_EXPECT_TRUE(test, skb->data >= skb->head);
	if (ret) {
		KUNIT_EXPECT_PTR_EQ(test, skb->data, data);
		KUNIT_EXPECT_EQ(test, skb->len, ib_len);
	} else if (c->type == RDMA_NETWORK_IPV4) {
		KUNIT_EXPECT_EQ(test, skb->len, IP4_LEN + 8 + ib_len);
		KUNIT_EXPECT_EQ(test, skb_network_header(skb)[0] >> 4, 4);
		KUNIT_EXPECT_EQ(test, ip_hdr(skb)->saddr, av.saddr.v4.s_addr);
		KUNIT_EXPECT_EQ(test, ip_hdr(skb)->daddr, av.daddr.v4.s_addr);
		KUNIT_EXPECT_EQ(test, ntohs(ip_hdr(skb)->tot_len), skb->len);
	} else {
		KUNIT_EXPECT_EQ(test, skb->len,
				sizeof(struct ipv6hdr) + 8 + ib_len);
		KUNIT_EXPECT_EQ(test, skb_network_header(skb)[0] >> 4, 6);
		KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&ipv6_hdr(skb)->saddr,
							&av.saddr.v6));
		KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&ipv6_hdr(skb)->daddr,
							&av.daddr.v6));
	}
	if (!ret) {
		KUNIT_EXPECT_EQ(test, ntohs(udp_hdr(skb)->source), 0xc123);
		KUNIT_EXPECT_EQ(test, ntohs(udp_hdr(skb)->dest),
				SOFTRDMA_ROCE_UDP_PORT);
		KUNIT_EXPECT_EQ(test, ntohs(udp_hdr(skb)->len), 8 + ib_len);
	}
	kfree_skb(skb);
}

/*
 * Bursts: the GSO skb softrdma_roce_burst_finish() builds, segmented by
 * the kernel's own GSO (as validate_xmit_skb() does for a device without
 * fraglist offload), must give back each packet exactly as the one-packet
 * path builds it, with the IPv4 ID segmentation gives that segment: the
 * ICRC of each covers its own ID, total (IPv6: payload) and UDP length.
 * An IPv6 packet's UDP checksum is compared as it leaves a device without
 * checksum offload.
 */

struct burst_case {
	const char *name;
	unsigned int n;
	unsigned int len[4];	/* IB bytes (BTH to pad) of each packet */
	bool frags;		/* payload in a page frag, as from an MR */
	bool ipv6;
	bool no_sg;		/* segmented for a device without NETIF_F_SG */
};

static const struct burst_case burst_cases[] = {
	/*
	 * WRITE FIRST (RETH), then MIDDLE: a shorter packet ends a burst;
	 * MIDDLEs and the LAST, path MTU 1024
	 */
	{ "write_first_middle", 2, { 12 + 16 + 1024, 12 + 1024 } },
	{ "write_middles_last", 3, { 12 + 1024, 12 + 1024, 12 + 100 } },
	{ "write_two_middles", 2, { 12 + 1024, 12 + 1024 } },
	/* READ response FIRST (AETH) and MIDDLE; MIDDLEs, LAST (AETH) */
	{ "read_first_middle", 2, { 12 + 4 + 1024, 12 + 1024 } },
	{ "read_middles_last", 3, { 12 + 1024, 12 + 1024, 12 + 4 + 512 } },
	{ "payload_in_frags", 3, { 12 + 1024, 12 + 1024, 12 + 1024 }, true },
	{ "ipv6_write_first_middle", 2, { 12 + 16 + 1024, 12 + 1024 }, false,
	  true },
	{ "ipv6_write_middles_last", 3, { 12 + 1024, 12 + 1024, 12 + 100 },
	  false, true },
	{ "ipv6_read_middles_last", 3, { 12 + 1024, 12 + 1024, 12 + 4 + 512 },
	  false, true },
	{ "ipv6_payload_in_frags", 3, { 12 + 1024, 12 + 1024, 12 + 1024 },
	  true, true },
	/* path MTU 4096: READ response MIDDLE, then LAST (AETH) */
	{ "ipv6_mtu_4096", 2, { 12 + 4096, 12 + 4 + 1236 }, false, true },
	/*
	 * A device without scatter-gather: packets built linear leave as
	 * they are, packets with frags are copied into one buffer each
	 */
	{ "linear_no_sg", 3, { 12 + 1024, 12 + 1024, 12 + 100 }, false, false,
	  true },
	{ "ipv6_linear_no_sg", 3, { 12 + 1024, 12 + 1024, 12 + 4 + 512 },
	  false, true, true },
	{ "payload_in_frags_no_sg", 3, { 12 + 1024, 12 + 1024, 12 + 1024 },
	  true, false, true },
	{ "ipv6_mtu_4096_no_sg", 2, { 12 + 4096, 12 + 4 + 1236 }, false, true,
	  true },
};

static void burst_case_desc(const struct burst_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(burst, burst_cases, burst_case_desc);

#define BURST_BTH	12

static unsigned int burst_ip_len(const struct softrdma_roce_tx *tx)
{
	return tx->network_type == RDMA_NETWORK_IPV4 ? IP4_LEN :
						       sizeof(struct ipv6hdr);
}

/* as softrdma_roce_alloc_skb() reserves on an Ethernet device */
static unsigned int burst_headroom(const struct softrdma_roce_tx *tx)
{
	return MAX_HEADER + burst_ip_len(tx) + sizeof(struct udphdr);
}

static void burst_tx(struct softrdma_roce_tx *tx, bool ipv6)
{
	struct softrdma_av av = {
		.network_type = RDMA_NETWORK_IPV4,
		.hop_limit = 64,
		.traffic_class = 0x02,
	};

	if (ipv6) {
		av.network_type = RDMA_NETWORK_IPV6;
		av.flow_label = 0x5a5a5;
		addr6(&av.saddr, ADDR_LOCAL);
		addr6(&av.daddr, ADDR_PEER);
	} else {
		addr4(&av.saddr, ADDR_LOCAL);
		addr4(&av.daddr, ADDR_PEER);
	}
	softrdma_roce_tx_set(tx, &av, 0xc321);
}

/* packet @i's IB bytes: a BTH with its PSN, then a pattern */
static void burst_fill(u8 *p, unsigned int len, unsigned int i)
{
	unsigned int k;

	for (k = 0; k < len; k++)
		p[k] = (u8)(k * 7 + i * 13);
	p[0] = IB_OPCODE_RC_RDMA_WRITE_MIDDLE;
	put_unaligned_be32(0x100 + i, p + 8);
}

/*
 * A test device's netdev: an Ethernet device, registered when a test
 * needs its ifindex to be found; @sg: with NETIF_F_SG
 */
static netdev_tx_t test_ndev_xmit(struct sk_buff *skb, struct net_device *dev)
{
	kfree_skb(skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops test_ndev_ops = {
	.ndo_start_xmit = test_ndev_xmit,
};

static struct net_device *test_ndev(struct kunit *test, bool reg, bool sg)
{
	struct net_device *ndev;
	int err;

	ndev = alloc_etherdev(0);
	KUNIT_ASSERT_NOT_NULL(test, ndev);
	ndev->netdev_ops = &test_ndev_ops;
	err = reg ? register_netdev(ndev) : 0;
	if (err)
		free_netdev(ndev);
	KUNIT_ASSERT_EQ(test, err, 0);
	if (sg)
		ndev->features |= NETIF_F_SG;
	else
		ndev->features &= ~NETIF_F_SG;
	return ndev;
}

static void test_ndev_free(struct net_device *ndev)
{
	if (ndev->reg_state == NETREG_REGISTERED)
		unregister_netdev(ndev);
	free_netdev(ndev);
}

/*
 * a packet from softrdma_roce_alloc_skb() on @sdev as the requester
 * leaves it: @ib's BTH and payload, the payload in a page frag or copied
 */
static struct sk_buff *burst_pkt(struct kunit *test, struct softrdma_dev *sdev,
				 const struct softrdma_roce_tx *tx,
				 const u8 *ib, unsigned int len, bool frags)
{
	struct sk_buff *skb;
	struct page *page;

	skb = softrdma_roce_alloc_skb(sdev, tx, BURST_BTH,
				      frags ? 0 : len - BURST_BTH);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_GE(test, skb_headroom(skb), burst_headroom(tx));
	memcpy(skb->data, ib, BURST_BTH);
	if (!frags) {
		skb_put_data(skb, ib + BURST_BTH, len - BURST_BTH);
		return skb;
	}
	page = alloc_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, page);
	memcpy(page_address(page) + 100, ib + BURST_BTH, len - BURST_BTH);
	skb_add_rx_frag(skb, 0, page, 100, len - BURST_BTH, PAGE_SIZE);
	return skb;
}

/*
 * The UDP checksum of an IPv6 packet from softrdma_roce_xmit(): left to
 * the device (udp6_set_csum()), and filled in as validate_xmit_skb() does
 * when the device does not checksum
 */
static void burst_udp6_csum(struct kunit *test, struct sk_buff *skb)
{
	udp6_set_csum(false, skb, &ipv6_hdr(skb)->saddr, &ipv6_hdr(skb)->daddr,
		      skb->len - skb_transport_offset(skb));
	KUNIT_ASSERT_EQ(test, (int)skb->ip_summed, CHECKSUM_PARTIAL);
	KUNIT_ASSERT_EQ(test, skb_checksum_help(skb), 0);
}

/* a received IPv6 datagram's UDP checksum adds up (RFC 8200 8.1) */
static bool burst_udp6_csum_ok(const u8 *wire, unsigned int len)
{
	const struct ipv6hdr *ip6h = (const void *)wire;
	unsigned int ulen = len - sizeof(*ip6h);

	return !csum_ipv6_magic(&ip6h->saddr, &ip6h->daddr, ulen, IPPROTO_UDP,
				csum_partial(wire + sizeof(*ip6h), ulen, 0));
}

static void softrdma_roce_net_burst_segments(struct kunit *test)
{
	const struct burst_case *c = test->param_value;
	struct sk_buff *head, *segs, *seg, *next, *one;
	enum softrdma_counter drop = SOFTRDMA_CNT_XMIT_ERR;
	struct roce_net_test *t = test->priv;
	struct softrdma_dev *sdev = t->sdev;
	struct softrdma_roce_tx tx;
	struct sk_buff_head burst;
	unsigned int i = 0, len;
	u8 *ib[4], *wire;
	u16 id0 = 0;
	void *icrc;

	sdev->ndev = test_ndev(test, false, !c->no_sg);
	burst_tx(&tx, c->ipv6);
	__skb_queue_head_init(&burst);
	for (i = 0; i < c->n; i++) {
		ib[i] = kunit_kmalloc(test, c->len[i], GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, ib[i]);
		burst_fill(ib[i], c->len[i], i);
		one = burst_pkt(test, sdev, &tx, ib[i], c->len[i], c->frags);
		if (i)
			KUNIT_EXPECT_TRUE(test,
					  softrdma_roce_burst_may_add(&burst, one));
		__skb_queue_tail(&burst, one);
	}

	head = softrdma_roce_burst_finish(&init_net, &burst, &tx, NULL, &drop);
	KUNIT_ASSERT_NOT_NULL(test, head);
	KUNIT_EXPECT_TRUE(test, skb_queue_empty(&burst));
	KUNIT_EXPECT_EQ(test, skb_shinfo(head)->gso_segs, c->n);
	KUNIT_EXPECT_EQ(test, skb_shinfo(head)->gso_size,
			c->len[0] + ROCE_ICRC_SIZE);
	KUNIT_EXPECT_EQ(test, skb_network_header_len(head), burst_ip_len(&tx));
	KUNIT_EXPECT_EQ(test, ntohs(udp_hdr(head)->len),
			head->len - skb_transport_offset(head));

	/* what __ip_local_out()/__ip6_local_out() do, then the device's GSO */
	if (c->ipv6) {
		head->protocol = htons(ETH_P_IPV6);
		ipv6_hdr(head)->payload_len =
			htons(head->len - sizeof(struct ipv6hdr));
	} else {
		id0 = ntohs(ip_hdr(head)->id);
		head->protocol = htons(ETH_P_IP);
		ip_hdr(head)->tot_len = htons(head->len);
		ip_send_check(ip_hdr(head));
	}
	segs = skb_gso_segment(head, sdev->ndev->features & NETIF_F_SG);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(segs));
	consume_skb(head);

	i = 0;
	skb_list_walk_safe(segs, seg, next) {
		skb_mark_not_on_list(seg);
		if (i >= c->n) {
			KUNIT_FAIL(test, "more segments than packets");
			kfree_skb(seg);
			continue;
		}
		len = seg->len - skb_network_offset(seg);
		wire = kunit_kzalloc(test, len, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, wire);
		KUNIT_ASSERT_EQ(test, skb_copy_bits(seg, skb_network_offset(seg),
						    wire, len), 0);
		/* nothing is left for a device to fill in */
		KUNIT_EXPECT_NE(test, (int)seg->ip_summed, CHECKSUM_PARTIAL);
		/* nor to copy: a device without scatter-gather gets one buffer */
		if (c->no_sg || !c->frags)
			KUNIT_EXPECT_FALSE_MSG(test, skb_is_nonlinear(seg),
					       "segment %u not linear", i);
		kfree_skb(seg);
		KUNIT_EXPECT_TRUE_MSG(test, softrdma_icrc_check_buf(wire, len),
				      "segment %u: bad ICRC", i);
		if (c->ipv6)
			KUNIT_EXPECT_TRUE_MSG(test, burst_udp6_csum_ok(wire, len),
					      "segment %u: bad UDP checksum",
					      i);

		/* the same packet from the one-packet path, given that ID */
		one = burst_pkt(test, sdev, &tx, ib[i], c->len[i], false);
		icrc = skb_put(one, ROCE_ICRC_SIZE);
		KUNIT_ASSERT_EQ(test, softrdma_roce_push_hdrs(&init_net, one,
							      &tx, NULL, 1), 0);
		if (!c->ipv6)
			ip_hdr(one)->id = htons((u16)(id0 + i));
		softrdma_icrc_put(icrc, softrdma_icrc_compute(one, c->len[i]));
		if (c->ipv6)
			burst_udp6_csum(test, one);
		else
			ip_send_check(ip_hdr(one));
		KUNIT_EXPECT_EQ(test, len, one->len);
		if (len == one->len)
			KUNIT_EXPECT_EQ_MSG(test, memcmp(wire, one->data, len), 0,
					    "segment %u differs", i);
		kfree_skb(one);
		i++;
	}
	KUNIT_EXPECT_EQ(test, i, c->n);
	test_ndev_free(sdev->ndev);
	sdev->ndev = NULL;
}

/* Which packets may follow a burst's head, and which may not */
struct burst_add_case {
	const char *name;
	unsigned int head_len;
	unsigned int len;
	unsigned int queued;		/* packets in the burst already */
	bool other_port;		/* another flow */
	bool ipv6;
	bool ok;
	unsigned int tail_len;		/* the last queued, if not head_len */
};

static const struct burst_add_case burst_add_cases[] = {
	{ "same_size", 1036, 1036, 1, false, false, true },
	{ "shorter", 1052, 1036, 1, false, false, true },
	{ "longer_than_head", 1036, 1040, 1, false, false, false },
	{ "other_flow", 1036, 1036, 1, true, false, false },
	{ "ipv6", 1036, 1036, 1, false, true, true },
	{ "ipv6_shorter", 1052, 1036, 1, false, true, true },
	{ "ipv6_other_flow", 1036, 1036, 1, true, true, false },
	{ "thirty_second", 1036, 1036, 31, false, false, true },
	{ "past_roce_xmit_burst", 1036, 1036, 32, false, false, false },
	/* 16 packets of 4 KiB: one more would not fit one IPv4 length */
	{ "past_ip_length", 4108, 4108, 15, false, false, false },
	{ "within_ip_length", 4108, 4108, 14, false, false, true },
	{ "ipv6_past_ip_length", 4108, 4108, 15, false, true, false },
	{ "ipv6_within_ip_length", 4108, 4108, 14, false, true, true },
	/*
	 * 20 packets of 3276 bytes, 65520: an IPv6 payload length counts
	 * them and the UDP header, an IPv4 total length does not hold its
	 * own header too
	 */
	{ "ipv6_ip_length_past_ipv4s", 3272, 3272, 19, false, true, true },
	{ "ip_length_past_ipv4s", 3272, 3272, 19, false, false, false },
	/* only the last may be shorter than the head */
	{ "after_a_shorter_one", 1052, 1036, 2, false, false, false, 1036 },
	{ "shorter_after_a_shorter_one", 1052, 500, 2, false, false, false,
	  1036 },
};

static void burst_add_case_desc(const struct burst_add_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(burst_add, burst_add_cases, burst_add_case_desc);

static void softrdma_roce_net_burst_may_add(struct kunit *test)
{
	const struct burst_add_case *c = test->param_value;
	struct softrdma_roce_tx tx, tx2;
	struct sk_buff_head burst;
	unsigned int i, len;
	struct sk_buff *skb;

	burst_tx(&tx, c->ipv6);
	tx2 = tx;
	if (c->other_port)
		tx2.src_port++;

	__skb_queue_head_init(&burst);
	for (i = 0; i < c->queued; i++) {
		len = i && i == c->queued - 1 && c->tail_len ? c->tail_len :
							      c->head_len;
		skb = alloc_skb(len, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, skb);
		skb_put_zero(skb, len);
		memcpy(skb->cb, &tx, sizeof(tx));
		__skb_queue_tail(&burst, skb);
	}
	skb = alloc_skb(c->len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_put_zero(skb, c->len);
	memcpy(skb->cb, &tx2, sizeof(tx2));

	KUNIT_EXPECT_EQ(test, softrdma_roce_burst_may_add(&burst, skb), c->ok);
	kfree_skb(skb);
	__skb_queue_purge(&burst);
}

/*
 * Segmentation copies the link and tunnel headers of the device a burst
 * leaves by in front of each packet's own headers, unchecked: a packet
 * with less room than MAX_HEADER there is not sent in a burst
 */
static void softrdma_roce_net_burst_headroom(struct kunit *test)
{
	const unsigned int len = BURST_BTH + 1024;
	enum softrdma_counter drop;
	struct softrdma_roce_tx tx;
	struct sk_buff_head burst;
	unsigned int i, room;
	struct sk_buff *skb;
	int ipv6;
	u8 *ib;

	ib = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ib);
	for (ipv6 = 0; ipv6 <= 1; ipv6++) {
		burst_tx(&tx, ipv6);
		/* the room a packet had before: the link header's alone */
		room = 16 + burst_ip_len(&tx) + sizeof(struct udphdr);
		__skb_queue_head_init(&burst);
		for (i = 0; i < 2; i++) {
			burst_fill(ib, len, i);
			skb = alloc_skb(room + len + ROCE_ICRC_SIZE, GFP_KERNEL);
			KUNIT_ASSERT_NOT_NULL(test, skb);
			skb_reserve(skb, room);
			memcpy(skb->cb, &tx, sizeof(tx));
			skb_put_data(skb, ib, len);
			__skb_queue_tail(&burst, skb);
		}
		drop = SOFTRDMA_CNT_XMIT_ERR;
		KUNIT_EXPECT_NULL(test,
				  softrdma_roce_burst_finish(&init_net, &burst,
							     &tx, NULL, &drop));
		KUNIT_EXPECT_EQ(test, drop, SOFTRDMA_CNT_XMIT_NO_HEADROOM);
		KUNIT_EXPECT_TRUE(test, skb_queue_empty(&burst));
	}
}

/*
 * Payload in page frags, or copied: frags only where every device on the
 * way takes them as they are, the device's netdev and, for a GID of an
 * upper device, that one too
 */
enum tx_sg_upper {
	TX_SG_NONE,		/* the GID is the device's netdev's */
	TX_SG_OWN,		/* ifindex given: the device's netdev */
	TX_SG_UPPER,		/* another netdev */
	TX_SG_GONE,		/* an ifindex no netdev has (any longer) */
};

struct tx_sg_case {
	const char *name;
	bool sg;		/* the device's netdev */
	enum tx_sg_upper upper;
	bool upper_sg;
	bool frags;
};

static const struct tx_sg_case tx_sg_cases[] = {
	{ "sg", true, TX_SG_NONE, false, true },
	{ "no_sg", false, TX_SG_NONE, false, false },
	{ "own_ifindex_sg", true, TX_SG_OWN, false, true },
	{ "own_ifindex_no_sg", false, TX_SG_OWN, false, false },
	{ "upper_sg", true, TX_SG_UPPER, true, true },
	{ "upper_no_sg", true, TX_SG_UPPER, false, false },
	{ "upper_sg_lower_no_sg", false, TX_SG_UPPER, true, false },
	{ "upper_gone", true, TX_SG_GONE, false, false },
};

static void tx_sg_case_desc(const struct tx_sg_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(tx_sg, tx_sg_cases, tx_sg_case_desc);

static void softrdma_roce_net_tx_sg(struct kunit *test)
{
	const struct tx_sg_case *c = test->param_value;
	struct roce_net_test *t = test->priv;
	struct net_device *upper = NULL;
	struct softrdma_roce_tx tx;

	t->sdev->ndev = test_ndev(test, true, c->sg);
	burst_tx(&tx, false);
	switch (c->upper) {
	case TX_SG_NONE:
		break;
	case TX_SG_OWN:
		tx.ifindex = t->sdev->ndev->ifindex;
		break;
	case TX_SG_UPPER:
		upper = test_ndev(test, true, c->upper_sg);
		tx.ifindex = upper->ifindex;
		break;
	case TX_SG_GONE:
		upper = test_ndev(test, true, true);
		tx.ifindex = upper->ifindex;
		test_ndev_free(upper);
		upper = NULL;
		break;
	}
	KUNIT_EXPECT_EQ(test, softrdma_roce_tx_sg(t->sdev, &tx), c->frags);
	if (upper)
		test_ndev_free(upper);
	test_ndev_free(t->sdev->ndev);
	t->sdev->ndev = NULL;
}

/*
 * The two shapes of a packet from softrdma_roce_alloc_skb(): linear, its
 * head sized for headers, payload and ICRC, which goes in the tailroom;
 * payload in page frags, the ICRC in one more.  Heads come from the page
 * fragment cache, a jumbo packet's linear head (larger than a page)
 * included.
 */
struct shape_case {
	const char *name;
	unsigned int hdr_len;
	unsigned int payload;	/* bytes */
	bool frags;		/* attached as a page frag, not copied */
	bool ipv6;
	bool head_frag;		/* the head is a page fragment */
};

static const struct shape_case shape_cases[] = {
	{ "ack", 12 + 4, 0, false, false, true },
	{ "linear_1024", 12, 1024, false, false, true },
	{ "ipv6_linear_1024", 12 + 16, 1024, false, true, true },
	{ "frags_1024", 12, 1024, true, false, true },
	{ "ipv6_frags_4096", 12 + 4, 4096, true, true, true },
	{ "linear_4096", 12, 4096, false, false, true },
	{ "ipv6_linear_4096", 12 + 16, 4096, false, true, true },
};

static void shape_case_desc(const struct shape_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(shape, shape_cases, shape_case_desc);

static void softrdma_roce_net_alloc_skb_shape(struct kunit *test)
{
	const struct shape_case *c = test->param_value;
	struct roce_net_test *t = test->priv;
	struct softrdma_dev *sdev = t->sdev;
	struct softrdma_roce_tx tx;
	unsigned int nr_frags;
	struct sk_buff *skb;
	unsigned char *head;
	struct page *page;
	skb_frag_t *frag;
	u8 *icrc;

	sdev->ndev = test_ndev(test, false, c->frags);
	burst_tx(&tx, c->ipv6);
	skb = softrdma_roce_alloc_skb(sdev, &tx, c->hdr_len,
				      c->frags ? 0 : c->payload);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_EQ(test, (bool)skb->head_frag, c->head_frag);
	KUNIT_EXPECT_EQ(test, skb->len, c->hdr_len);
	KUNIT_EXPECT_FALSE(test, memchr_inv(skb->data, 0, c->hdr_len));
	KUNIT_EXPECT_EQ(test, memcmp(skb->cb, &tx, sizeof(tx)), 0);
	KUNIT_EXPECT_GE(test, skb_headroom(skb), burst_headroom(&tx));
	KUNIT_EXPECT_GE(test, skb_tailroom(skb),
			(c->frags ? 0 : c->payload) + ROCE_ICRC_SIZE);

	if (c->frags) {
		page = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, page);
		skb_add_rx_frag(skb, 0, page, 0, c->payload, PAGE_SIZE);
	} else {
		memset(skb_put(skb, c->payload), 0x5a, c->payload);
	}
	head = skb->head;
	nr_frags = skb_shinfo(skb)->nr_frags;

	icrc = softrdma_roce_icrc_append(skb);
	KUNIT_ASSERT_NOT_NULL(test, icrc);
	KUNIT_EXPECT_EQ(test, skb->len,
			c->hdr_len + c->payload + ROCE_ICRC_SIZE);
	/* the head stays where it is: nothing reallocated, nothing copied */
	KUNIT_EXPECT_PTR_EQ(test, skb->head, head);
	if (c->frags) {
		KUNIT_ASSERT_EQ(test, skb_shinfo(skb)->nr_frags, nr_frags + 1);
		frag = &skb_shinfo(skb)->frags[nr_frags];
		KUNIT_EXPECT_EQ(test, skb_frag_size(frag), ROCE_ICRC_SIZE);
		KUNIT_EXPECT_PTR_EQ(test, icrc, (u8 *)skb_frag_address(frag));
	} else {
		KUNIT_EXPECT_FALSE(test, skb_is_nonlinear(skb));
		KUNIT_EXPECT_PTR_EQ(test, icrc,
				    skb_tail_pointer(skb) - ROCE_ICRC_SIZE);
	}
	kfree_skb(skb);
	test_ndev_free(sdev->ndev);
	sdev->ndev = NULL;
}

static void make_gid4(union ib_gid *gid, __be32 addr)
{
	ipv6_addr_set_v4mapped(addr, (struct in6_addr *)gid->raw);
}

static void softrdma_roce_net_av_from_attr(struct kunit *test)
{
	struct ib_gid_attr sgid = { .gid_type = IB_GID_TYPE_ROCE_UDP_ENCAP };
	struct rdma_ah_attr attr = { .type = RDMA_AH_ATTR_TYPE_ROCE };
	static const u8 dmac[ETH_ALEN] = { 0x52, 0x54, 0, 0x12, 0x34, 2 };
	struct in6_addr s6 = { .s6_addr = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 } };
	struct in6_addr d6 = { .s6_addr = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 } };
	struct softrdma_av av;

	make_gid4(&sgid.gid, htonl(0xc0000201));
	make_gid4(&attr.grh.dgid, htonl(0xc0000202));
	attr.ah_flags = IB_AH_GRH;
	attr.grh.sgid_attr = &sgid;
	attr.grh.traffic_class = 0x68;	/* DSCP 26 (AF31) */
	attr.grh.hop_limit = 64;
	attr.grh.flow_label = 0xfff12345;
	memcpy(attr.roce.dmac, dmac, ETH_ALEN);

	KUNIT_ASSERT_EQ(test, softrdma_av_fill(&av, &attr, &sgid, 7), 0);
	KUNIT_EXPECT_EQ(test, av.network_type, RDMA_NETWORK_IPV4);
	KUNIT_EXPECT_EQ(test, av.saddr.v4.s_addr, htonl(0xc0000201));
	KUNIT_EXPECT_EQ(test, av.daddr.v4.s_addr, htonl(0xc0000202));
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(av.dmac, dmac));
	KUNIT_EXPECT_EQ(test, av.traffic_class, 0x68);
	KUNIT_EXPECT_EQ(test, av.hop_limit, 64);
	KUNIT_EXPECT_EQ(test, av.flow_label, 0x12345);
	KUNIT_EXPECT_EQ(test, av.ifindex, 7);

	/* an IPv4 source GID with an IPv6 destination is not one network */
	memcpy(attr.grh.dgid.raw, &d6, sizeof(d6));
	KUNIT_EXPECT_EQ(test, softrdma_av_fill(&av, &attr, &sgid, 7), -EINVAL);

	memcpy(sgid.gid.raw, &s6, sizeof(s6));
	KUNIT_ASSERT_EQ(test, softrdma_av_fill(&av, &attr, &sgid, 7), 0);
	KUNIT_EXPECT_EQ(test, av.network_type, RDMA_NETWORK_IPV6);
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&av.saddr.v6, &s6));
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&av.daddr.v6, &d6));

	/* RoCEv1 and IB GIDs are refused */
	sgid.gid_type = IB_GID_TYPE_ROCE;
	KUNIT_EXPECT_EQ(test, softrdma_av_fill(&av, &attr, &sgid, 7), -EINVAL);
	sgid.gid_type = IB_GID_TYPE_IB;
	KUNIT_EXPECT_EQ(test, softrdma_av_fill(&av, &attr, &sgid, 7), -EINVAL);

	/* so are IB link-layer attributes and attributes without a GRH */
	attr.type = RDMA_AH_ATTR_TYPE_IB;
	KUNIT_EXPECT_EQ(test, softrdma_av_from_ah_attr(&av, &attr), -EINVAL);
	attr.type = RDMA_AH_ATTR_TYPE_ROCE;
	attr.ah_flags = 0;
	KUNIT_EXPECT_EQ(test, softrdma_av_from_ah_attr(&av, &attr), -EINVAL);
}

struct path_mtu_case {
	const char *name;
	unsigned int netdev_mtu;
	enum ib_mtu mtu;
};

static const struct path_mtu_case path_mtu_cases[] = {
	{ "ipv6_minimum_1280", 1280, IB_MTU_1024 },
	{ "standard_1500", 1500, IB_MTU_1024 },
	{ "below_2048_payload", 2131, IB_MTU_1024 },
	{ "exactly_2048_payload", 2048 + SOFTRDMA_ROCE_MAX_HDR_BYTES,
	  IB_MTU_2048 },
	{ "one_short_of_4096", 4096 + SOFTRDMA_ROCE_MAX_HDR_BYTES - 1,
	  IB_MTU_2048 },
	{ "exactly_4096_payload", 4096 + SOFTRDMA_ROCE_MAX_HDR_BYTES,
	  IB_MTU_4096 },
	{ "jumbo_9000", 9000, IB_MTU_4096 },
	{ "max_65535", 65535, IB_MTU_4096 },
	{ "tiny_576", 576, IB_MTU_256 },
	{ "tiny_68", 68, IB_MTU_256 },
	{ "zero", 0, IB_MTU_256 },
};

static void path_mtu_case_desc(const struct path_mtu_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(path_mtu, path_mtu_cases, path_mtu_case_desc);

static void softrdma_roce_net_path_mtu(struct kunit *test)
{
	const struct path_mtu_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, softrdma_roce_path_mtu(c->netdev_mtu), c->mtu);
}

/* A full RoCE packet at the reported MTU must fit the netdev MTU. */
static void softrdma_roce_net_path_mtu_packet_fits(struct kunit *test)
{
	unsigned int mtu;

	for (mtu = 1280; mtu <= 9216; mtu++) {
		int payload = ib_mtu_enum_to_int(softrdma_roce_path_mtu(mtu));

		KUNIT_ASSERT_LE_MSG(test,
				    payload + SOFTRDMA_ROCE_MAX_HDR_BYTES,
				    (int)mtu, "netdev mtu %u", mtu);
	}
}

static struct kunit_case softrdma_roce_net_cases[] = {
	KUNIT_CASE(softrdma_roce_net_rcv_ack),
	KUNIT_CASE(softrdma_roce_net_rcv_read_request),
	KUNIT_CASE(softrdma_roce_net_rcv_done_drops_mr),
	KUNIT_CASE(softrdma_roce_net_rcv_payload_in_frag),
	KUNIT_CASE_PARAM(softrdma_roce_net_rcv_counts, rcv_gen_params),
	KUNIT_CASE_PARAM(softrdma_roce_net_rcv_addr, addr_gen_params),
	KUNIT_CASE(softrdma_roce_net_counter_names),
	KUNIT_CASE(softrdma_roce_net_src_port),
	KUNIT_CASE_PARAM(softrdma_roce_net_push_hdrs, push_gen_params),
	KUNIT_CASE_PARAM(softrdma_roce_net_burst_segments, burst_gen_params),
	KUNIT_CASE_PARAM(softrdma_roce_net_burst_may_add, burst_add_gen_params),
	KUNIT_CASE(softrdma_roce_net_burst_headroom),
	KUNIT_CASE_PARAM(softrdma_roce_net_tx_sg, tx_sg_gen_params),
	KUNIT_CASE_PARAM(softrdma_roce_net_alloc_skb_shape, shape_gen_params),
	KUNIT_CASE(softrdma_roce_net_av_from_attr),
	KUNIT_CASE_PARAM(softrdma_roce_net_path_mtu, path_mtu_gen_params),
	KUNIT_CASE(softrdma_roce_net_path_mtu_packet_fits),
	{}
};

static struct kunit_suite softrdma_roce_net_suite = {
	.name = "softrdma_roce_net",
	.init = roce_net_test_init,
	.exit = roce_net_test_exit,
	.test_cases = softrdma_roce_net_cases,
};

kunit_test_suite(softrdma_roce_net_suite);
