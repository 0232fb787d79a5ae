// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for roce_gro.c: which packets start a receive burst, which
 * join one and which end it, gro_receive on a list of held bursts, and
 * that a burst built as GRO builds it and segmented as UDP segments it
 * gives back every packet byte for byte, and that the RoCE socket's
 * encap_rcv, taking a burst apart itself, gives back the same packets and
 * receives and counts each as when it comes alone, as it does a GSO skb
 * of any other shape, which it segments.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/gro.h>
#include <net/ip.h>
#include <net/sock.h>
#include <rdma/ib_pack.h>

#include "av.h"
#include "compat.h"
#include "counters.h"
#include "device.h"
#include "icrc.h"
#include "qp.h"
#include "roce_gro.h"
#include "roce_hdr.h"
#include "roce_net.h"
#include "roce_pkt.h"
#include "roce_qp.h"

struct gro_start_case {
	const char *name;
	u8 opcode;
	bool ackreq;
	bool start;
};

static const struct gro_start_case gro_start_cases[] = {
	{ "write_first", IB_OPCODE_RC_RDMA_WRITE_FIRST, false, true },
	{ "write_middle", IB_OPCODE_RC_RDMA_WRITE_MIDDLE, false, true },
	{ "write_middle_ackreq", IB_OPCODE_RC_RDMA_WRITE_MIDDLE, true, false },
	{ "write_last", IB_OPCODE_RC_RDMA_WRITE_LAST, false, false },
	{ "write_only", IB_OPCODE_RC_RDMA_WRITE_ONLY, false, false },
	{ "send_first", IB_OPCODE_RC_SEND_FIRST, false, true },
	{ "send_last", IB_OPCODE_RC_SEND_LAST, false, false },
	{ "read_response_first", IB_OPCODE_RC_RDMA_READ_RESPONSE_FIRST, false,
	  true },
	{ "read_response_middle", IB_OPCODE_RC_RDMA_READ_RESPONSE_MIDDLE,
	  false, true },
	{ "read_response_last", IB_OPCODE_RC_RDMA_READ_RESPONSE_LAST, false,
	  false },
	{ "read_request", IB_OPCODE_RC_RDMA_READ_REQUEST, false, false },
	{ "ack", IB_OPCODE_RC_ACKNOWLEDGE, false, false },
	{ "uc_send_middle", IB_OPCODE_UC_SEND_MIDDLE, false, true },
	{ "ud_send_only", IB_OPCODE_UD_SEND_ONLY, false, false },
	{ "undefined_opcode", 0x1f, false, false },
};

static void gro_start_case_desc(const struct gro_start_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(gro_start, gro_start_cases, gro_start_case_desc);

static void softrdma_roce_gro_starts(struct kunit *test)
{
	const struct gro_start_case *c = test->param_value;
	const struct softrdma_roce_gro_pkt pkt = {
		.len = 12 + 1024,
		.opcode = c->opcode,
		.ackreq = c->ackreq,
	};

	KUNIT_EXPECT_EQ(test, softrdma_roce_gro_may_start(&pkt), c->start);
}

#define MID	IB_OPCODE_RC_RDMA_WRITE_MIDDLE
#define LEN	(12 + 1024 + 4)
/* what the IP length fields count, at most */
#define IPMAX	0xffff

struct gro_join_case {
	const char *name;
	struct softrdma_roce_gro_burst burst;
	struct softrdma_roce_gro_pkt pkt;
	unsigned int max;
	enum softrdma_roce_gro_join join;
};

static const struct gro_join_case gro_join_cases[] = {
	{ "next_middle",
	  { 1, LEN, 28 + LEN, 0x100, MID, 7, IPMAX }, { LEN, 0x101, 8, MID },
	  64, SOFTRDMA_ROCE_GRO_MERGE },
	{ "third_middle",
	  { 2, LEN, 28 + 2 * LEN, 0x101, MID, 7, IPMAX }, { LEN, 0x102, 9, MID },
	  64, SOFTRDMA_ROCE_GRO_MERGE },
	{ "psn_wraps",
	  { 1, LEN, 28 + LEN, 0xffffff, MID, 7, IPMAX }, { LEN, 0, 8, MID },
	  64, SOFTRDMA_ROCE_GRO_MERGE },
	{ "psn_gap",
	  { 1, LEN, 28 + LEN, 0x100, MID, 7, IPMAX }, { LEN, 0x102, 8, MID },
	  64, SOFTRDMA_ROCE_GRO_SPLIT },
	{ "psn_repeated",
	  { 2, LEN, 28 + 2 * LEN, 0x101, MID, 7, IPMAX }, { LEN, 0x101, 9, MID },
	  64, SOFTRDMA_ROCE_GRO_SPLIT },
	{ "psn_behind",
	  { 2, LEN, 28 + 2 * LEN, 0x101, MID, 7, IPMAX }, { LEN, 0x100, 9, MID },
	  64, SOFTRDMA_ROCE_GRO_SPLIT },
	{ "ip_id_gap",
	  { 1, LEN, 28 + LEN, 0x100, MID, 7, IPMAX }, { LEN, 0x101, 9, MID },
	  64, SOFTRDMA_ROCE_GRO_SPLIT },
	{ "ip_id_same",
	  { 1, LEN, 28 + LEN, 0x100, MID, 7, IPMAX }, { LEN, 0x101, 7, MID },
	  64, SOFTRDMA_ROCE_GRO_SPLIT },
	{ "ip_id_wraps",
	  { 2, LEN, 28 + 2 * LEN, 0x101, MID, 0xffff, IPMAX }, { LEN, 0x102, 1, MID },
	  64, SOFTRDMA_ROCE_GRO_MERGE },
	{ "longer_than_head",
	  { 1, LEN, 28 + LEN, 0x100, MID, 7, IPMAX }, { LEN + 16, 0x101, 8, MID },
	  64, SOFTRDMA_ROCE_GRO_SPLIT },
	{ "shorter_ends",
	  { 1, LEN, 28 + LEN, 0x100, MID, 7, IPMAX }, { LEN - 4, 0x101, 8, MID },
	  64, SOFTRDMA_ROCE_GRO_MERGE_LAST },
	{ "last_ends",
	  { 1, LEN, 28 + LEN, 0x100, MID, 7, IPMAX },
	  { LEN, 0x101, 8, IB_OPCODE_RC_RDMA_WRITE_LAST },
	  64, SOFTRDMA_ROCE_GRO_MERGE_LAST },
	{ "ackreq_ends",
	  { 1, LEN, 28 + LEN, 0x100, MID, 7, IPMAX }, { LEN, 0x101, 8, MID, true },
	  64, SOFTRDMA_ROCE_GRO_MERGE_LAST },
	{ "read_response_last_ends",
	  { 1, LEN, 28 + LEN, 0x100, IB_OPCODE_RC_RDMA_READ_RESPONSE_MIDDLE, 7, IPMAX },
	  { 12 + 4 + 512 + 4, 0x101, 8, IB_OPCODE_RC_RDMA_READ_RESPONSE_LAST },
	  64, SOFTRDMA_ROCE_GRO_MERGE_LAST },
	{ "max_reached_ends",
	  { 3, LEN, 28 + 3 * LEN, 0x102, MID, 7, IPMAX }, { LEN, 0x103, 10, MID },
	  4, SOFTRDMA_ROCE_GRO_MERGE_LAST },
	{ "full",
	  { 4, LEN, 28 + 4 * LEN, 0x103, MID, 7, IPMAX }, { LEN, 0x104, 11, MID },
	  4, SOFTRDMA_ROCE_GRO_SPLIT },
	{ "ip_length_fits",
	  { 62, LEN, 0xffff - LEN, 0x13d, MID, 7, IPMAX }, { LEN, 0x13e, 69, MID },
	  64, SOFTRDMA_ROCE_GRO_MERGE },
	{ "gro_max_size_fits",
	  { 3, LEN, 28 + 3 * LEN, 0x102, MID, 7, 28 + 4 * LEN },
	  { LEN, 0x103, 10, MID },
	  64, SOFTRDMA_ROCE_GRO_MERGE },
	{ "gro_max_size_reached",
	  { 3, LEN, 28 + 3 * LEN, 0x102, MID, 7, 28 + 4 * LEN - 1 },
	  { LEN, 0x103, 10, MID },
	  64, SOFTRDMA_ROCE_GRO_SPLIT },
	{ "ip_length_overflows",
	  { 62, LEN, 0xffff - LEN + 1, 0x13d, MID, 7, IPMAX },
	  { LEN, 0x13e, 69, MID },
	  64, SOFTRDMA_ROCE_GRO_SPLIT },
	{ "send_middle_after_first",
	  { 1, LEN, 28 + LEN, 0x100, IB_OPCODE_RC_SEND_FIRST, 7, IPMAX },
	  { LEN, 0x101, 8, IB_OPCODE_RC_SEND_MIDDLE },
	  64, SOFTRDMA_ROCE_GRO_MERGE },
	{ "send_last_inv_ends",
	  { 1, LEN, 28 + LEN, 0x100, IB_OPCODE_RC_SEND_MIDDLE, 7, IPMAX },
	  { LEN, 0x101, 8, IB_OPCODE_RC_SEND_LAST_WITH_INVALIDATE },
	  64, SOFTRDMA_ROCE_GRO_MERGE_LAST },
	{ "send_last_imm_ends",
	  { 1, LEN, 28 + LEN, 0x100, IB_OPCODE_RC_SEND_FIRST, 7, IPMAX },
	  { LEN, 0x101, 8, IB_OPCODE_RC_SEND_LAST_WITH_IMMEDIATE },
	  64, SOFTRDMA_ROCE_GRO_MERGE_LAST },
	{ "write_middle_after_first",
	  { 1, LEN, 28 + LEN, 0x100, IB_OPCODE_RC_RDMA_WRITE_FIRST, 7, IPMAX },
	  { LEN, 0x101, 8, MID },
	  64, SOFTRDMA_ROCE_GRO_MERGE },
	{ "write_last_imm_ends",
	  { 1, LEN, 28 + LEN, 0x100, MID, 7, IPMAX },
	  { LEN, 0x101, 8, IB_OPCODE_RC_RDMA_WRITE_LAST_WITH_IMMEDIATE },
	  64, SOFTRDMA_ROCE_GRO_MERGE_LAST },
	{ "read_response_middle_after_first",
	  { 1, LEN, 28 + LEN, 0x100, IB_OPCODE_RC_RDMA_READ_RESPONSE_FIRST, 7, IPMAX },
	  { LEN, 0x101, 8, IB_OPCODE_RC_RDMA_READ_RESPONSE_MIDDLE },
	  64, SOFTRDMA_ROCE_GRO_MERGE },
	{ "uc_write_middle_after_first",
	  { 1, LEN, 28 + LEN, 0x100, IB_OPCODE_UC_RDMA_WRITE_FIRST, 7, IPMAX },
	  { LEN, 0x101, 8, IB_OPCODE_UC_RDMA_WRITE_MIDDLE },
	  64, SOFTRDMA_ROCE_GRO_MERGE },
	{ "uc_send_last_imm_ends",
	  { 1, LEN, 28 + LEN, 0x100, IB_OPCODE_UC_SEND_MIDDLE, 7, IPMAX },
	  { LEN, 0x101, 8, IB_OPCODE_UC_SEND_LAST_WITH_IMMEDIATE },
	  64, SOFTRDMA_ROCE_GRO_MERGE_LAST },
	{ "other_operation",
	  { 1, LEN, 28 + LEN, 0x100, MID, 7, IPMAX },
	  { LEN, 0x101, 8, IB_OPCODE_RC_SEND_MIDDLE },
	  64, SOFTRDMA_ROCE_GRO_SPLIT },
	{ "other_transport",
	  { 1, LEN, 28 + LEN, 0x100, MID, 7, IPMAX },
	  { LEN, 0x101, 8, IB_OPCODE_UC_RDMA_WRITE_MIDDLE },
	  64, SOFTRDMA_ROCE_GRO_SPLIT },
	{ "other_direction",
	  { 1, LEN, 28 + LEN, 0x100, MID, 7, IPMAX },
	  { LEN, 0x101, 8, IB_OPCODE_RC_RDMA_READ_RESPONSE_MIDDLE },
	  64, SOFTRDMA_ROCE_GRO_SPLIT },
	{ "first_after_middle",
	  { 1, LEN, 28 + LEN, 0x100, MID, 7, IPMAX },
	  { LEN, 0x101, 8, IB_OPCODE_RC_RDMA_WRITE_FIRST },
	  64, SOFTRDMA_ROCE_GRO_SPLIT },
	{ "only_after_middle",
	  { 1, LEN, 28 + LEN, 0x100, MID, 7, IPMAX },
	  { LEN, 0x101, 8, IB_OPCODE_RC_RDMA_WRITE_ONLY },
	  64, SOFTRDMA_ROCE_GRO_SPLIT },
	{ "ack_after_middle",
	  { 1, LEN, 28 + LEN, 0x100, MID, 7, IPMAX },
	  { LEN, 0x101, 8, IB_OPCODE_RC_ACKNOWLEDGE },
	  64, SOFTRDMA_ROCE_GRO_SPLIT },
	{ "ud_after_middle",
	  { 1, LEN, 28 + LEN, 0x100, MID, 7, IPMAX },
	  { LEN, 0x101, 8, IB_OPCODE_UD_SEND_ONLY },
	  64, SOFTRDMA_ROCE_GRO_SPLIT },
	{ "undefined_opcode",
	  { 1, LEN, 28 + LEN, 0x100, MID, 7, IPMAX },
	  { LEN, 0x101, 8, 0x1f },
	  64, SOFTRDMA_ROCE_GRO_SPLIT },
	{ "after_last",
	  { 1, LEN, 28 + LEN, 0x100, IB_OPCODE_RC_RDMA_WRITE_LAST, 7, IPMAX },
	  { LEN, 0x101, 8, MID },
	  64, SOFTRDMA_ROCE_GRO_SPLIT },
	{ "after_undefined",
	  { 1, LEN, 28 + LEN, 0x100, 0x1f, 7, IPMAX },
	  { LEN, 0x101, 8, MID },
	  64, SOFTRDMA_ROCE_GRO_SPLIT },
};

static void gro_join_case_desc(const struct gro_join_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(gro_join, gro_join_cases, gro_join_case_desc);

static void softrdma_roce_gro_joins(struct kunit *test)
{
	const struct gro_join_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, softrdma_roce_gro_join(&c->burst, &c->pkt, c->max),
			c->join);
}

/*
 * A burst end to end: packets as a NIC hands them to GRO (IPv4 header to
 * ICRC, zero UDP checksum, consecutive IDs), chained as
 * softrdma_roce_gro_receive() chains them, completed as the IP and UDP
 * layers and softrdma_roce_gro_complete() complete them, then segmented
 * as udp_rcv_segment() segments them: every segment must be the packet
 * received, byte for byte, its ICRC good.
 */

#define GRO_NH		(sizeof(struct iphdr) + sizeof(struct udphdr))
#define GRO_HEADROOM	128

struct gro_burst_case {
	const char *name;
	unsigned int n;
	unsigned int len[4];	/* IB bytes, BTH to pad */
	u16 id0;
	bool vlan;		/* an 802.1Q tag in front of each member */
};

static const struct gro_burst_case gro_burst_cases[] = {
	{ "write_first_middle", 2, { 12 + 16 + 1024, 12 + 1024 }, 100 },
	{ "write_middles_last", 3, { 12 + 1024, 12 + 1024, 12 + 100 }, 7 },
	{ "read_responses", 4, { 12 + 4 + 1024, 12 + 1024, 12 + 1024,
				 12 + 4 + 512 }, 0xfffe },
	{ "vlan_write_first_middle", 2, { 12 + 16 + 1024, 12 + 1024 }, 100,
	  true },
	{ "vlan_read_responses", 4, { 12 + 4 + 1024, 12 + 1024, 12 + 1024,
				      12 + 4 + 512 }, 0xfffe, true },
};

static void gro_burst_case_desc(const struct gro_burst_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(gro_burst, gro_burst_cases, gro_burst_case_desc);

/* a packet's BTH fields */
struct gro_bth {
	u8 opcode;
	bool ackreq;
	u32 qpn;
	u32 psn;
};

/*
 * Where the IP layer's gro_receive leaves a packet's IP header, at @nh_off
 * from skb->data: 6.12 records it in the GRO cb and leaves the network
 * header at GRO offset 0, 6.1 sets the network header (compat.h)
 */
static void gro_rx_set_nh(struct sk_buff *skb, unsigned int nh_off)
{
#ifdef SOFTRDMA_HAVE_GRO_NETWORK_OFFSETS
	skb_reset_network_header(skb);
	NAPI_GRO_CB(skb)->network_offsets[0] = nh_off;
	/* the inner offset a UDP tunnel's gro_receive must not take */
	NAPI_GRO_CB(skb)->network_offsets[1] = 2 * nh_off + 8;
	NAPI_GRO_CB(skb)->encap_mark = 1;
#else
	skb_set_network_header(skb, nh_off);
#endif
}

/*
 * A received packet as it comes from a NIC that leaves 802.1Q tags in the
 * frame (virtio-net, any with rxvlan off): vlan_gro_receive() has passed
 * the 4-byte tag in front of the IP header
 */
static void gro_rx_tag(struct sk_buff *skb)
{
	struct vlan_hdr *vh = skb_push(skb, sizeof(*vh));

	vh->h_vlan_TCI = htons(100);
	vh->h_vlan_encapsulated_proto = htons(ETH_P_IP);
	skb->protocol = htons(ETH_P_8021Q);
	NAPI_GRO_CB(skb)->data_offset += sizeof(*vh);
	gro_rx_set_nh(skb, sizeof(*vh));
}

/*
 * A packet as received, IPv4 header to ICRC, @ib_len IB bytes (BTH to
 * pad, a pattern after the BTH that @seed varies), its bytes also left
 * in @wire unless NULL; its GRO state as the RoCE socket's gro_receive
 * finds it
 */
static struct sk_buff *gro_rx_pkt(struct kunit *test, const struct gro_bth *b,
				  unsigned int ib_len, unsigned int seed,
				  u16 id, u8 *wire)
{
	unsigned int len = GRO_NH + ib_len + ROCE_ICRC_SIZE, k;
	struct softrdma_bth *bth;
	struct ethhdr *eth;
	struct sk_buff *skb;
	struct udphdr *uh;
	struct iphdr *iph;
	u32 icrc;
	u8 *ib;

	skb = alloc_skb(GRO_HEADROOM + len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reserve(skb, GRO_HEADROOM);
	/* its Ethernet header, where eth_type_trans() leaves it */
	skb_set_mac_header(skb, -ETH_HLEN);
	eth = eth_hdr(skb);
	eth_broadcast_addr(eth->h_dest);
	eth->h_dest[0] = 0x02;
	eth_zero_addr(eth->h_source);
	eth->h_source[5] = seed;
	eth->h_proto = htons(ETH_P_IP);
	skb_reset_network_header(skb);
	skb->protocol = htons(ETH_P_IP);
	iph = skb_put_zero(skb, sizeof(*iph));
	iph->version = 4;
	iph->ihl = 5;
	iph->tot_len = htons(len);
	iph->id = htons(id);
	iph->frag_off = htons(IP_DF);
	iph->ttl = 64;
	iph->protocol = IPPROTO_UDP;
	iph->saddr = htonl(0xc0000201);
	iph->daddr = htonl(0xc0000202);
	ip_send_check(iph);
	skb_set_transport_header(skb, sizeof(*iph));
	uh = skb_put_zero(skb, sizeof(*uh));
	uh->source = htons(0xc123);
	uh->dest = htons(4791);
	uh->len = htons(len - sizeof(*iph));

	ib = skb_put(skb, ib_len);
	for (k = 0; k < ib_len; k++)
		ib[k] = (u8)(k * 7 + seed * 13);
	bth = (struct softrdma_bth *)ib;
	memset(bth, 0, sizeof(*bth));
	softrdma_bth_set_opcode(bth, b->opcode);
	softrdma_bth_set_tver(bth, SOFTRDMA_BTH_TVER);
	softrdma_bth_set_pkey(bth, 0xffff);
	softrdma_bth_set_qpn(bth, b->qpn);
	softrdma_bth_set_ackreq(bth, b->ackreq);
	softrdma_bth_set_psn(bth, b->psn);
	icrc = softrdma_icrc_compute(skb, ib_len);
	softrdma_icrc_put(skb_put(skb, ROCE_ICRC_SIZE), icrc);
	KUNIT_ASSERT_TRUE(test, softrdma_icrc_check_buf(skb->data, len));
	if (wire)
		memcpy(wire, skb->data, len);

	/* what GRO has done by the time the RoCE socket's gro_receive runs */
	skb->dev = test->priv;
	skb->pkt_type = PACKET_HOST;
	memset(skb->cb, 0, sizeof(skb->cb));
	NAPI_GRO_CB(skb)->data_offset = GRO_NH;
	NAPI_GRO_CB(skb)->count = 1;
	gro_rx_set_nh(skb, 0);
	return skb;
}

static void softrdma_roce_gro_burst_segments(struct kunit *test)
{
	const struct gro_burst_case *c = test->param_value;
	struct gro_bth bth = { .opcode = MID, .qpn = 0x11 };
	struct sk_buff *head, *skb, *segs, *next;
	unsigned int i, total = 0, len;
	u8 *wire[4];

	for (i = 0; i < c->n; i++) {
		bth.psn = 0x100 + i;
		len = GRO_NH + c->len[i] + ROCE_ICRC_SIZE;
		wire[i] = kunit_kzalloc(test, len, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, wire[i]);
		skb = gro_rx_pkt(test, &bth, c->len[i], i, (u16)(c->id0 + i),
				 wire[i]);
		total += skb->len;
		if (!i) {
			/* dev_gro_receive() holding the first packet */
			head = skb;
			NAPI_GRO_CB(head)->last = head;
			skb_shinfo(head)->gso_size = skb_gro_len(head);
			continue;
		}
		/* the head as skb_vlan_untag() leaves it, members tagged */
		if (c->vlan)
			gro_rx_tag(skb);
		KUNIT_ASSERT_EQ(test, softrdma_roce_gro_chain(head, skb), 0);
		KUNIT_EXPECT_PTR_EQ(test, NAPI_GRO_CB(head)->last, skb);
		KUNIT_EXPECT_EQ(test, skb->len, c->len[i] + ROCE_ICRC_SIZE);
	}
	KUNIT_EXPECT_EQ(test, NAPI_GRO_CB(head)->count, c->n);
	KUNIT_EXPECT_EQ(test, head->len, total - (c->n - 1) * GRO_NH);

	/* inet_gro_complete(), udp_gro_complete() and the socket's */
	ip_hdr(head)->tot_len = htons(head->len);
	ip_send_check(ip_hdr(head));
	udp_hdr(head)->len = htons(head->len - sizeof(struct iphdr));
	KUNIT_EXPECT_EQ(test, softrdma_roce_gro_complete(NULL, head, GRO_NH),
			0);
	KUNIT_EXPECT_EQ(test, skb_shinfo(head)->gso_segs, c->n);

	/* udp_rcv_segment(): the socket takes no GSO skbs */
	segs = __skb_gso_segment(head, NETIF_F_SG, false);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(segs));
	consume_skb(head);

	i = 0;
	skb_list_walk_safe(segs, skb, next) {
		skb_mark_not_on_list(skb);
		if (i >= c->n) {
			KUNIT_FAIL(test, "more segments than packets");
			kfree_skb(skb);
			continue;
		}
		len = GRO_NH + c->len[i] + ROCE_ICRC_SIZE;
		KUNIT_EXPECT_EQ(test, skb->len - skb_network_offset(skb), len);
		if (skb->len - skb_network_offset(skb) == len) {
			u8 *got = kunit_kzalloc(test, len, GFP_KERNEL);

			KUNIT_ASSERT_NOT_NULL(test, got);
			KUNIT_ASSERT_EQ(test,
					skb_copy_bits(skb, skb_network_offset(skb),
						      got, len), 0);
			KUNIT_EXPECT_EQ_MSG(test, memcmp(got, wire[i], len), 0,
					    "segment %u differs", i);
			KUNIT_EXPECT_TRUE_MSG(test,
					      softrdma_icrc_check_buf(got, len),
					      "segment %u: bad ICRC", i);
		}
		kfree_skb(skb);
		i++;
	}
	KUNIT_EXPECT_EQ(test, i, c->n);
}

/* a packet of a burst as it arrives */
struct gro_pkt_spec {
	unsigned int ib_len;	/* BTH to pad */
	u32 qpn;
	u16 id_skew;		/* off the consecutive IPv4 ID, ICRC and all */
	bool bad_icrc;		/* a payload byte changed on the way */
	unsigned int cut;	/* bytes lost off its end */
};

/*
 * A burst of @n packets of @spec, their PSNs consecutive, as UDP hands
 * it to the RoCE socket's encap_rcv: built as GRO builds it, its IP and
 * UDP lengths those of the whole burst, skb->data at the head's UDP
 * header.  @wire, unless NULL, gets each packet's bytes as sent.
 */
static struct sk_buff *gro_burst_make(struct kunit *test,
				      const struct gro_pkt_spec *spec,
				      unsigned int n, u16 id0, bool vlan,
				      u8 **wire)
{
	struct gro_bth bth = { .opcode = MID };
	struct sk_buff *head = NULL, *skb;
	unsigned int i;

	for (i = 0; i < n; i++) {
		bth.qpn = spec[i].qpn;
		bth.psn = 0x100 + i;
		skb = gro_rx_pkt(test, &bth, spec[i].ib_len, i,
				 (u16)(id0 + i + spec[i].id_skew),
				 wire ? wire[i] : NULL);
		if (spec[i].bad_icrc)
			skb->data[GRO_NH + sizeof(struct softrdma_bth)] ^= 0x10;
		if (spec[i].cut)
			skb_trim(skb, skb->len - spec[i].cut);
		if (!i) {
			head = skb;
			NAPI_GRO_CB(head)->last = head;
			skb_shinfo(head)->gso_size = skb_gro_len(head);
			continue;
		}
		if (vlan)
			gro_rx_tag(skb);
		KUNIT_ASSERT_EQ(test, softrdma_roce_gro_chain(head, skb), 0);
	}

	/* inet_gro_complete(), udp_gro_complete() and the socket's */
	ip_hdr(head)->tot_len = htons(head->len);
	ip_send_check(ip_hdr(head));
	udp_hdr(head)->len = htons(head->len - sizeof(struct iphdr));
	skb_shinfo(head)->gso_type = SKB_GSO_UDP_TUNNEL;
	head->encapsulation = 1;
	KUNIT_EXPECT_EQ(test, softrdma_roce_gro_complete(NULL, head, GRO_NH),
			0);
	/* ip_rcv() and udp_rcv(): skb->data at the UDP header */
	__skb_pull(head, sizeof(struct iphdr));
	return head;
}

/* @skb's bytes from its network header, as a packet @len long */
static void gro_expect_packet(struct kunit *test, struct sk_buff *skb,
			      const u8 *wire, unsigned int len, unsigned int i)
{
	u8 *got;

	KUNIT_EXPECT_EQ_MSG(test, skb->len - skb_network_offset(skb), len,
			    "packet %u", i);
	if (skb->len - skb_network_offset(skb) != len)
		return;
	got = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, got);
	KUNIT_ASSERT_EQ(test, skb_copy_bits(skb, skb_network_offset(skb), got,
					    len), 0);
	KUNIT_EXPECT_EQ_MSG(test, memcmp(got, wire, len), 0,
			    "packet %u differs", i);
	KUNIT_EXPECT_TRUE_MSG(test, softrdma_icrc_check_buf(got, len),
			      "packet %u: bad ICRC", i);
}

/*
 * A burst taken apart as encap_rcv takes it: the head with the lengths of
 * its own packet (the ICRC covers them, GRO rewrote them), each member
 * with its own; every packet the one sent, byte for byte, behind the
 * head's link header, as segmentation gives them back
 */
static void softrdma_roce_gro_burst_walk(struct kunit *test)
{
	const struct gro_burst_case *c = test->param_value;
	struct gro_pkt_spec spec[4] = {};
	struct softrdma_roce_gro_split split;
	struct sk_buff *head, *skb, *next;
	unsigned int i, len;
	u8 *wire[4];

	for (i = 0; i < c->n; i++) {
		spec[i].ib_len = c->len[i];
		spec[i].qpn = 0x11;
		wire[i] = kunit_kzalloc(test, GRO_NH + c->len[i] +
					ROCE_ICRC_SIZE, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, wire[i]);
	}
	head = gro_burst_make(test, spec, c->n, c->id0, c->vlan, wire);
	KUNIT_ASSERT_TRUE(test, softrdma_roce_gro_walkable(head));

	next = softrdma_roce_gro_split(&split, head);
	KUNIT_EXPECT_FALSE(test, skb_is_gso(head));
	KUNIT_EXPECT_FALSE(test, skb_has_frag_list(head));
	gro_expect_packet(test, head, wire[0],
			  GRO_NH + c->len[0] + ROCE_ICRC_SIZE, 0);
	KUNIT_EXPECT_EQ(test, memcmp(split.link, skb_mac_header(head), ETH_HLEN),
			0);
	kfree_skb(head);

	for (i = 1; (skb = next); i++) {
		next = skb->next;
		skb_mark_not_on_list(skb);
		if (i >= c->n) {
			KUNIT_FAIL(test, "more members than packets");
			kfree_skb(skb);
			continue;
		}
		softrdma_roce_gro_member(&split, skb);
		KUNIT_EXPECT_EQ(test, skb_transport_offset(skb), 0);
		len = GRO_NH + c->len[i] + ROCE_ICRC_SIZE;
		gro_expect_packet(test, skb, wire[i], len, i);
		/* the head's link header and netdev, as segmentation copies */
		KUNIT_EXPECT_EQ(test, skb_network_offset(skb) -
				skb_mac_offset(skb), ETH_HLEN);
		KUNIT_EXPECT_EQ(test, memcmp(skb_mac_header(skb), split.link,
					     ETH_HLEN), 0);
		KUNIT_EXPECT_PTR_EQ(test, skb->dev, split.dev);
		kfree_skb(skb);
	}
	KUNIT_EXPECT_EQ(test, i, c->n);
}

/*
 * Which GSO skbs encap_rcv takes apart itself: a GRO burst as
 * softrdma_roce_gro_complete() leaves it; nothing else (those it
 * segments as UDP would).  The change may hand back an extra skb to free.
 */
struct gro_walkable_case {
	const char *name;
	struct sk_buff *(*change)(struct sk_buff *head);
	bool walkable;
};

static struct sk_buff *wk_none(struct sk_buff *head)
{
	return NULL;
}

/* softrdma's transmit burst, UDP's own fraglist GRO: no tunnel mark */
static struct sk_buff *wk_no_tunnel(struct sk_buff *head)
{
	skb_shinfo(head)->gso_type &= ~SKB_GSO_UDP_TUNNEL;
	return NULL;
}

/* a UDP_SEGMENT sender's GSO skb: not a frag list */
static struct sk_buff *wk_udp_l4(struct sk_buff *head)
{
	skb_shinfo(head)->gso_type = SKB_GSO_UDP_L4;
	return NULL;
}

/* segmentation would take the tunnel's way */
static struct sk_buff *wk_encapsulation(struct sk_buff *head)
{
	head->encapsulation = 1;
	return NULL;
}

static struct sk_buff *wk_dodgy(struct sk_buff *head)
{
	skb_shinfo(head)->gso_type |= SKB_GSO_DODGY;
	return NULL;
}

/* the head no longer gso_size long: __udp_gso_segment() linearizes */
static struct sk_buff *wk_geometry(struct sk_buff *head)
{
	skb_shinfo(head)->gso_size -= 4;
	return NULL;
}

static struct sk_buff *wk_head_cloned(struct sk_buff *head)
{
	return skb_clone(head, GFP_KERNEL);
}

static struct sk_buff *wk_head_ip_options(struct sk_buff *head)
{
	*(u8 *)ip_hdr(head) = 0x46;
	return NULL;
}

static struct sk_buff *wk_member_shared(struct sk_buff *head)
{
	return skb_get(skb_shinfo(head)->frag_list->next);
}

/* a clone of a member, which shares its data but not the skb */
static struct sk_buff *wk_member_cloned(struct sk_buff *head)
{
	return skb_clone(skb_shinfo(head)->frag_list, GFP_KERNEL);
}

static struct sk_buff *wk_head_mac_unset(struct sk_buff *head)
{
	skb_unset_mac_header(head);
	return NULL;
}

/* an in-band 802.1Q tag left in the head's link header: 18 bytes */
static struct sk_buff *wk_head_mac_tagged(struct sk_buff *head)
{
	skb_set_mac_header(head, skb_mac_offset(head) - VLAN_HLEN);
	return NULL;
}

/*
 * the second member copied to an skb with less than a link header's room
 * before its IP header; the old one is handed back
 */
static struct sk_buff *wk_member_headroom(struct sk_buff *head)
{
	struct sk_buff *m = skb_shinfo(head)->frag_list->next, *n;
	unsigned int hdrs = -skb_network_offset(m);

	n = alloc_skb(ETH_HLEN - 1 + hdrs + m->len, GFP_KERNEL);
	if (!n)
		return NULL;
	skb_reserve(n, ETH_HLEN - 1 + hdrs);
	skb_put_data(n, m->data, m->len);
	skb_set_network_header(n, -(int)hdrs);
	skb_set_transport_header(n, -(int)sizeof(struct udphdr));
	memcpy(skb_network_header(n), skb_network_header(m), hdrs);
	n->next = m->next;
	skb_shinfo(head)->frag_list->next = n;
	head->truesize += n->truesize - m->truesize;
	skb_mark_not_on_list(m);
	return m;
}

/* a third packet's destination rewritten (a NAT rule), or its port */
static struct sk_buff *wk_member_daddr(struct sk_buff *head)
{
	ip_hdr(skb_shinfo(head)->frag_list->next)->daddr ^= htonl(1);
	return NULL;
}

static struct sk_buff *wk_member_sport(struct sk_buff *head)
{
	udp_hdr(skb_shinfo(head)->frag_list)->source ^= htons(1);
	return NULL;
}

static struct sk_buff *wk_member_ip_options(struct sk_buff *head)
{
	*(u8 *)ip_hdr(skb_shinfo(head)->frag_list) = 0x46;
	return NULL;
}

/* a member that does not start right behind its UDP header */
static struct sk_buff *wk_member_layout(struct sk_buff *head)
{
	struct sk_buff *m = skb_shinfo(head)->frag_list;

	__skb_pull(m, 4);
	head->len -= 4;
	head->data_len -= 4;
	return NULL;
}

static const struct gro_walkable_case gro_walkable_cases[] = {
	{ "gro_burst", wk_none, true },
	{ "fraglist_without_tunnel_mark", wk_no_tunnel, false },
	{ "udp_segment_sender", wk_udp_l4, false },
	{ "encapsulation", wk_encapsulation, false },
	{ "dodgy", wk_dodgy, false },
	{ "head_not_gso_size", wk_geometry, false },
	{ "head_cloned", wk_head_cloned, false },
	{ "head_ip_options", wk_head_ip_options, false },
	{ "member_shared", wk_member_shared, false },
	{ "member_cloned", wk_member_cloned, false },
	{ "head_mac_header_unset", wk_head_mac_unset, false },
	{ "head_mac_header_18_bytes", wk_head_mac_tagged, false },
	{ "member_headroom_short", wk_member_headroom, false },
	{ "member_other_destination", wk_member_daddr, false },
	{ "member_other_source_port", wk_member_sport, false },
	{ "member_ip_options", wk_member_ip_options, false },
	{ "member_past_its_headers", wk_member_layout, false },
};

static void gro_walkable_case_desc(const struct gro_walkable_case *c,
				   char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(gro_walkable, gro_walkable_cases, gro_walkable_case_desc);

static void softrdma_roce_gro_walkable_shapes(struct kunit *test)
{
	const struct gro_walkable_case *c = test->param_value;
	const struct gro_pkt_spec spec[3] = {
		{ 12 + 1024, 0x11 }, { 12 + 1024, 0x11 }, { 12 + 100, 0x11 },
	};
	struct sk_buff *head, *extra;

	head = gro_burst_make(test, spec, ARRAY_SIZE(spec), 7, false, NULL);
	extra = c->change(head);
	KUNIT_EXPECT_EQ(test, softrdma_roce_gro_walkable(head), c->walkable);
	kfree_skb(extra);
	kfree_skb(head);
}

/*
 * Through encap_rcv's GSO path on a device: each packet of a burst
 * counted where it would be counted alone, whether the burst is taken
 * apart (a GRO burst) or segmented (the same burst with its head cloned,
 * as a packet socket clones it, which encap_rcv cannot take apart), with
 * its members' 802.1Q tags in the frame or not.  QP 0x11 exists, with a
 * path from the packets' source to their destination and its engines
 * stopped (a packet that reaches them counts as rcv_qp_not_ready); QP
 * 0x12 does not.
 */
#define QP_A	0x11
#define QP_B	0x12
#define FULL	(12 + 1024)
#define NOT_READY	SOFTRDMA_CNT_RCV_QP_NOT_READY
#define NO_QP		SOFTRDMA_CNT_RCV_NO_QP
#define MISMATCH	SOFTRDMA_CNT_RCV_ADDR_MISMATCH
/* a host on the link other than the packets' source (192.0.2.1) */
#define OTHER_HOST	9

struct gro_rcv_case {
	const char *name;
	unsigned int n;
	struct gro_pkt_spec pkt[4];
	enum softrdma_counter counter[4];
};

static const struct gro_rcv_case gro_rcv_cases[] = {
	{ "one_qp", 3, { { FULL, QP_A }, { FULL, QP_A }, { 12 + 100, QP_A } },
	  { NOT_READY, NOT_READY, NOT_READY } },
	{ "member_of_another_qp", 4,
	  { { FULL, QP_A }, { FULL, QP_B }, { FULL, QP_A }, { FULL, QP_A } },
	  { NOT_READY, NO_QP, NOT_READY, NOT_READY } },
	{ "head_of_another_qp", 3,
	  { { FULL, QP_B }, { FULL, QP_A }, { FULL, QP_A } },
	  { NO_QP, NOT_READY, NOT_READY } },
	{ "member_cut_short", 3,
	  { { FULL, QP_A }, { FULL, QP_A, 0, false, 8 }, { FULL, QP_A } },
	  { NOT_READY, SOFTRDMA_CNT_RCV_BAD_UDP_LEN, NOT_READY } },
	{ "member_bad_icrc", 3,
	  { { FULL, QP_A }, { FULL, QP_A }, { FULL, QP_A, 0, true } },
	  { NOT_READY, NOT_READY, SOFTRDMA_CNT_RCV_ICRC_ERR } },
	{ "member_ip_id_not_next", 3,
	  { { FULL, QP_A }, { FULL, QP_A, 5 }, { FULL, QP_A } },
	  { NOT_READY, SOFTRDMA_CNT_RCV_ICRC_ERR, NOT_READY } },
	{ "head_bad_icrc", 2, { { FULL, QP_A, 0, true }, { FULL, QP_A } },
	  { SOFTRDMA_CNT_RCV_ICRC_ERR, NOT_READY } },
	{ "head_cut_short", 2, { { FULL, QP_A, 0, false, 8 }, { FULL, QP_A } },
	  { SOFTRDMA_CNT_RCV_ICRC_ERR, NOT_READY } },
};

static void gro_rcv_case_desc(const struct gro_rcv_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(gro_rcv, gro_rcv_cases, gro_rcv_case_desc);

/* how encap_rcv gets each case's burst */
struct gro_rcv_shape {
	const char *name;
	bool vlan;	/* members with an in-band 802.1Q tag */
	bool tapped;	/* the head cloned, as a packet socket clones it */
};

static const struct gro_rcv_shape gro_rcv_shapes[] = {
	{ "walked", false, false },
	{ "segmented", false, true },
	{ "vlan_walked", true, false },
	{ "vlan_segmented", true, true },
};

/* a counter snapshot of @sdev */
static void gro_counters(const struct softrdma_dev *sdev, u64 *val)
{
	unsigned int i;

	for (i = 0; i < SOFTRDMA_NUM_COUNTERS; i++)
		val[i] = softrdma_counter_read(sdev, i);
}

static void gro_expect_counters(struct kunit *test,
				const struct softrdma_dev *sdev,
				const u64 *want, const char *what)
{
	unsigned int i;

	for (i = 0; i < SOFTRDMA_NUM_COUNTERS; i++)
		KUNIT_EXPECT_EQ_MSG(test, softrdma_counter_read(sdev, i),
				    want[i], "%s: counter %s", what,
				    softrdma_counter_name(i));
}

static void softrdma_roce_gro_rcv_counts(struct kunit *test)
{
	const struct gro_rcv_case *c = test->param_value;
	struct softrdma_dev *sdev = softrdma_roce_test_dev(test);
	u64 want[SOFTRDMA_NUM_COUNTERS];
	const struct gro_rcv_shape *sh;
	struct sk_buff *head, *tap;
	struct softrdma_qp *qp;
	struct socket *sock;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, PF_INET, SOCK_DGRAM,
					       IPPROTO_UDP, &sock), 0);
	qp = softrdma_roce_test_rc_qp(test, sdev, QP_A, RDMA_NETWORK_IPV4);

	for (sh = gro_rcv_shapes; sh < gro_rcv_shapes +
	     ARRAY_SIZE(gro_rcv_shapes); sh++) {
		gro_counters(sdev, want);
		want[SOFTRDMA_CNT_RCV_PACKETS] += c->n;
		for (i = 0; i < c->n; i++) {
			want[SOFTRDMA_CNT_RCV_BYTES] += c->pkt[i].ib_len +
				ROCE_ICRC_SIZE - c->pkt[i].cut;
			want[c->counter[i]]++;
		}

		head = gro_burst_make(test, c->pkt, c->n, 7, sh->vlan, NULL);
		tap = NULL;
		if (sh->tapped) {
			tap = skb_clone(head, GFP_KERNEL);
			KUNIT_ASSERT_NOT_NULL(test, tap);
		}
		KUNIT_EXPECT_EQ_MSG(test, softrdma_roce_gro_walkable(head),
				    !sh->tapped, "%s", sh->name);

		local_bh_disable();
		rcu_read_lock();
		softrdma_roce_rcv_gso(sock->sk, sdev, head);
		rcu_read_unlock();
		local_bh_enable();
		kfree_skb(tap);

		gro_expect_counters(test, sdev, want, sh->name);
	}

	/* every reference taken on the way was given back */
	KUNIT_EXPECT_EQ(test, refcount_read(&qp->ref), 1);
	KUNIT_EXPECT_EQ(test, refcount_read(&sdev->ibdev.refcount), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&sock->sk->sk_drops), 0);
	softrdma_roce_test_rc_qp_remove(qp);
	sock_release(sock);
	softrdma_roce_test_dev_free(sdev);
}

/*
 * encap_rcv's dispatch (softrdma_roce_rcv_sock()): a datagram is
 * received alone; a GSO skb of any type goes to the GSO path, which
 * walks a GRO burst and has UDP segment anything else.  A GSO type
 * without UDP_L4 and FRAGLIST (a tunnel's over an inner TCP, which UDP
 * hands to a tunnel socket whole), which segmentation refuses here, is
 * counted as UDP counts it (sk_drops, one per packet), never parsed as
 * one datagram.
 */
struct gro_sock_case {
	const char *name;
	unsigned int n;			/* packets; 1: a datagram, not GSO */
	unsigned int gso_type;		/* 0: as GRO completes a burst */
	unsigned int received;		/* packets the device counts */
	int sk_drops;
};

static const struct gro_sock_case gro_sock_cases[] = {
	{ "datagram", 1, 0, 1, 0 },
	{ "gro_burst", 3, 0, 3, 0 },
	{ "tcp_in_udp_tunnel", 3, SKB_GSO_TCPV4 | SKB_GSO_UDP_TUNNEL, 0, 3 },
	{ "udp_tunnel_mark_only", 3, SKB_GSO_UDP_TUNNEL, 0, 3 },
};

static void gro_sock_case_desc(const struct gro_sock_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(gro_sock, gro_sock_cases, gro_sock_case_desc);

static void softrdma_roce_gro_rcv_dispatch(struct kunit *test)
{
	const struct gro_sock_case *c = test->param_value;
	const struct gro_pkt_spec spec[3] = {
		{ FULL, QP_A }, { FULL, QP_A }, { 12 + 100, QP_A },
	};
	struct gro_bth bth = { .opcode = MID, .qpn = QP_A, .psn = 0x100 };
	struct softrdma_dev *sdev = softrdma_roce_test_dev(test);
	u64 want[SOFTRDMA_NUM_COUNTERS];
	struct softrdma_qp *qp;
	struct socket *sock;
	struct sk_buff *skb;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, PF_INET, SOCK_DGRAM,
					       IPPROTO_UDP, &sock), 0);
	qp = softrdma_roce_test_rc_qp(test, sdev, QP_A, RDMA_NETWORK_IPV4);

	KUNIT_ASSERT_LE(test, c->n, ARRAY_SIZE(spec));
	gro_counters(sdev, want);
	want[SOFTRDMA_CNT_RCV_PACKETS] += c->received;
	want[NOT_READY] += c->received;
	for (i = 0; i < c->received; i++)
		want[SOFTRDMA_CNT_RCV_BYTES] += spec[i].ib_len + ROCE_ICRC_SIZE;

	if (c->n == 1) {
		/* as ip_rcv() and udp_rcv() leave a datagram */
		skb = gro_rx_pkt(test, &bth, spec[0].ib_len, 0, 7, NULL);
		__skb_pull(skb, sizeof(struct iphdr));
		skb_reset_transport_header(skb);
	} else {
		skb = gro_burst_make(test, spec, c->n, 7, false, NULL);
		if (c->gso_type)
			skb_shinfo(skb)->gso_type = c->gso_type;
	}

	local_bh_disable();
	rcu_read_lock();
	softrdma_roce_rcv_sock(sock->sk, sdev, skb);
	rcu_read_unlock();
	local_bh_enable();

	gro_expect_counters(test, sdev, want, c->name);
	KUNIT_EXPECT_EQ(test, atomic_read(&sock->sk->sk_drops), c->sk_drops);
	KUNIT_EXPECT_EQ(test, refcount_read(&qp->ref), 1);
	KUNIT_EXPECT_EQ(test, refcount_read(&sdev->ibdev.refcount), 1);
	softrdma_roce_test_rc_qp_remove(qp);
	sock_release(sock);
	softrdma_roce_test_dev_free(sdev);
}

/*
 * The packets of a run to one QP share its lookup and its reference, and
 * each is checked against the path the QP has when it is delivered
 * (roce_rx.c): what becomes of a packet when the QP changes between two
 * of a run.  Destroy takes the QP out of the xarray first and then waits
 * for references: the rest of the run reaches the QP, whose engines
 * destroy stops (here stopped throughout: rcv_qp_not_ready); a packet of
 * a later run finds no QP.
 */
enum gro_run_event {
	GRO_RUN_NONE,
	GRO_RUN_QP_ERASED,	/* destroy_qp unpublished it */
	GRO_RUN_PATH_OTHER,	/* modify_qp published a path to another peer */
	GRO_RUN_PATH_NONE,	/* its path withdrawn (reset) */
};

struct gro_run_step {
	u32 qpn;
	enum gro_run_event before;
	enum softrdma_counter counter;
};

struct gro_run_case {
	const char *name;
	unsigned int n;
	struct gro_run_step step[4];
};

static const struct gro_run_case gro_run_cases[] = {
	{ "qp_erased", 4, {
	  { QP_A, GRO_RUN_NONE, NOT_READY },
	  { QP_A, GRO_RUN_QP_ERASED, NOT_READY },
	  /* another QP's packet ends the run */
	  { QP_B, GRO_RUN_NONE, NO_QP },
	  { QP_A, GRO_RUN_NONE, NO_QP } } },
	{ "path_to_other_peer", 3, {
	  { QP_A, GRO_RUN_NONE, NOT_READY },
	  { QP_A, GRO_RUN_PATH_OTHER, MISMATCH },
	  { QP_A, GRO_RUN_NONE, MISMATCH } } },
	{ "path_withdrawn", 2, {
	  { QP_A, GRO_RUN_NONE, NOT_READY },
	  { QP_A, GRO_RUN_PATH_NONE, MISMATCH } } },
};

static void gro_run_case_desc(const struct gro_run_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(gro_run, gro_run_cases, gro_run_case_desc);

/* @qp's path replaced by @path (NULL: none), the old one freed after RCU */
static void gro_run_set_path(struct softrdma_qp *qp,
			     struct softrdma_roce_path *path)
{
	softrdma_roce_path_free(rcu_replace_pointer(to_roce_qp(qp)->path,
						    path, true));
}

static void softrdma_roce_gro_rcv_run(struct kunit *test)
{
	const struct gro_run_case *c = test->param_value;
	struct softrdma_dev *sdev = softrdma_roce_test_dev(test);
	struct softrdma_roce_rcv_ctx ctx = { .sdev = sdev };
	struct softrdma_roce_path *other;
	u64 want[SOFTRDMA_NUM_COUNTERS];
	struct gro_bth bth = { .opcode = MID };
	struct sk_buff *skbs[4];
	enum softrdma_counter drop;
	struct softrdma_qp *qp;
	unsigned int i;

	qp = softrdma_roce_test_rc_qp(test, sdev, QP_A, RDMA_NETWORK_IPV4);
	other = softrdma_roce_test_path(test, RDMA_NETWORK_IPV4, OTHER_HOST);
	/* the packets as softrdma_roce_rcv_one() hands them on */
	KUNIT_ASSERT_LE(test, c->n, ARRAY_SIZE(skbs));
	for (i = 0; i < c->n; i++) {
		bth.qpn = c->step[i].qpn;
		bth.psn = 0x100 + i;
		skbs[i] = gro_rx_pkt(test, &bth, FULL, i, 7 + i, NULL);
		__skb_pull(skbs[i], sizeof(struct iphdr));
		KUNIT_ASSERT_EQ(test, softrdma_roce_rcv_parse(skbs[i], &drop),
				0);
		softrdma_roce_pkt(skbs[i])->sdev = sdev;
	}
	gro_counters(sdev, want);

	/* one run, as softrdma_roce_rcv_burst() walks one */
	local_bh_disable();
	rcu_read_lock();
	for (i = 0; i < c->n; i++) {
		switch (c->step[i].before) {
		case GRO_RUN_QP_ERASED:
			xa_erase(&sdev->qp_xa, QP_A);
			WRITE_ONCE(qp->state, IB_QPS_ERR);
			break;
		case GRO_RUN_PATH_OTHER:
			gro_run_set_path(qp, other);
			other = NULL;
			break;
		case GRO_RUN_PATH_NONE:
			gro_run_set_path(qp, NULL);
			break;
		case GRO_RUN_NONE:
			break;
		}
		softrdma_roce_rcv_deliver(&ctx, skbs[i]);
		want[c->step[i].counter]++;
	}
	softrdma_roce_rcv_done(&ctx);
	rcu_read_unlock();
	local_bh_enable();

	gro_expect_counters(test, sdev, want, c->name);
	KUNIT_EXPECT_EQ(test, refcount_read(&qp->ref), 1);
	softrdma_roce_path_free(other);
	softrdma_roce_test_rc_qp_remove(qp);
	softrdma_roce_test_dev_free(sdev);
}

/* softrdma_roce_rcv_for_host() as for packets sroce takes here, or not */
static bool gro_taken(const struct sk_buff *skb, const void *nh)
{
	return true;
}

static bool gro_not_taken(const struct sk_buff *skb, const void *nh)
{
	return false;
}

/*
 * softrdma_roce_gro_rcv() on a GRO list as dev_gro_receive() keeps it:
 * each step a packet arrives; what it returns (the burst to deliver, if
 * any), whether the packet was chained, and whether it must go up alone
 */
struct gro_step {
	struct gro_bth bth;
	u16 id;
	unsigned int ib_len;
	int deliver;		/* the step whose packet heads the burst, or -1 */
	bool merged;
	bool flush;
};

static const struct gro_step gro_steps[] = {
	/* 0: starts a burst */
	{ { MID, false, 0x11, 0x100 }, 10, 1036, -1, false, false },
	/* 1: joins it */
	{ { MID, false, 0x11, 0x101 }, 11, 1036, -1, true, false },
	/* 2: another QP on the same flow: a burst of its own */
	{ { MID, false, 0x12, 0x500 }, 12, 1036, -1, false, false },
	/* 3: QP 0x11, but its IPv4 ID is not the next: the burst goes up */
	{ { MID, false, 0x11, 0x102 }, 99, 1036, 0, false, false },
	/* 4: QP 0x11, a PSN gap: 3's burst goes up, this starts the next */
	{ { MID, false, 0x11, 0x104 }, 100, 1036, 3, false, false },
	/* 5: QP 0x12's LAST joins its burst and ends it */
	{ { IB_OPCODE_RC_RDMA_WRITE_LAST, false, 0x12, 0x501 }, 13, 200, 2,
	  true, false },
	/* 6: QP 0x11's AckReq packet joins and ends 4's burst */
	{ { MID, true, 0x11, 0x105 }, 101, 1036, 4, true, false },
	/* 7: an ACK, no burst held: straight up */
	{ { IB_OPCODE_RC_ACKNOWLEDGE, false, 0x11, 0x105 }, 102, 12 + 4, -1,
	  false, true },
	/* 8: a WRITE ONLY: nothing follows it, straight up */
	{ { IB_OPCODE_RC_RDMA_WRITE_ONLY, false, 0x11, 0x106 }, 103, 500, -1,
	  false, true },
	/* 9, 10: a burst, then a packet longer than its first */
	{ { MID, false, 0x11, 0x107 }, 104, 500, -1, false, false },
	{ { MID, false, 0x11, 0x108 }, 105, 1036, 9, false, false },
};

static void softrdma_roce_gro_receive_steps(struct kunit *test)
{
	struct sk_buff *skbs[ARRAY_SIZE(gro_steps)], *p, *pp;
	unsigned int i, k;
	LIST_HEAD(held);

	for (i = 0; i < ARRAY_SIZE(gro_steps); i++) {
		const struct gro_step *s = &gro_steps[i];

		skbs[i] = gro_rx_pkt(test, &s->bth, s->ib_len, i, s->id, NULL);
		/* gro_list_prepare(): one flow as far as IP and UDP go */
		list_for_each_entry(p, &held, list)
			NAPI_GRO_CB(p)->same_flow = 1;

		pp = softrdma_roce_gro_rcv(&held, skbs[i], 64, gro_taken);
		KUNIT_EXPECT_PTR_EQ_MSG(test, pp,
					s->deliver < 0 ? NULL : skbs[s->deliver],
					"step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, (bool)NAPI_GRO_CB(skbs[i])->same_flow,
				    s->merged, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, (bool)NAPI_GRO_CB(skbs[i])->flush,
				    s->flush, "step %u", i);

		/* dev_gro_receive(): deliver, hold */
		if (pp) {
			KUNIT_EXPECT_EQ(test, (unsigned int)NAPI_GRO_CB(pp)->count,
					skb_shinfo(pp)->frag_list ? 2U : 1U);
			skb_list_del_init(pp);
			kfree_skb(pp);
		}
		if (s->merged || s->flush) {
			if (!s->merged)
				kfree_skb(skbs[i]);
			continue;
		}
		NAPI_GRO_CB(skbs[i])->last = skbs[i];
		skb_shinfo(skbs[i])->gso_size = skb_gro_len(skbs[i]);
		list_add_tail(&skbs[i]->list, &held);
	}

	k = 0;
	list_for_each_entry_safe(p, pp, &held, list) {
		KUNIT_EXPECT_PTR_EQ(test, p, skbs[ARRAY_SIZE(gro_steps) - 1]);
		skb_list_del_init(p);
		kfree_skb(p);
		k++;
	}
	KUNIT_EXPECT_EQ(test, k, 1);
}

/*
 * A packet of a held burst's QP, next in PSN and IPv4 ID, but its IP
 * header other than the burst's first in what IP and netfilter judge, or
 * the burst marked by the IP layer's GRO: the burst goes up, the packet
 * starts the next one
 */
struct gro_ip_case {
	const char *name;
	u8 tos;
	u8 ttl;
	__be16 frag_off;
	bool ip_flush;		/* NAPI_GRO_CB(p)->flush, as 6.1 sets it */
	bool merged;
};

static const struct gro_ip_case gro_ip_cases[] = {
	{ "same", 0, 64, cpu_to_be16(IP_DF), false, true },
	{ "tos", 0x20, 64, cpu_to_be16(IP_DF), false, false },
	{ "ecn_ce", 0x03, 64, cpu_to_be16(IP_DF), false, false },
	{ "ttl", 0, 1, cpu_to_be16(IP_DF), false, false },
	{ "df", 0, 64, 0, false, false },
	{ "ip_layer_flush", 0, 64, cpu_to_be16(IP_DF), true, false },
};

static void gro_ip_case_desc(const struct gro_ip_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(gro_ip, gro_ip_cases, gro_ip_case_desc);

static void softrdma_roce_gro_ip_header(struct kunit *test)
{
	const struct gro_ip_case *c = test->param_value;
	struct gro_bth bth = { .opcode = MID, .qpn = 0x11, .psn = 0x100 };
	struct sk_buff *p, *skb, *pp;
	struct iphdr *iph;
	LIST_HEAD(held);
	bool merged;

	p = gro_rx_pkt(test, &bth, 1036, 0, 10, NULL);
	NAPI_GRO_CB(p)->last = p;
	skb_shinfo(p)->gso_size = skb_gro_len(p);
	list_add_tail(&p->list, &held);

	bth.psn++;
	skb = gro_rx_pkt(test, &bth, 1036, 1, 11, NULL);
	iph = (struct iphdr *)skb->data;
	iph->tos = c->tos;
	iph->ttl = c->ttl;
	iph->frag_off = c->frag_off;
	ip_send_check(iph);
	NAPI_GRO_CB(p)->same_flow = 1;
	NAPI_GRO_CB(p)->flush = c->ip_flush;

	pp = softrdma_roce_gro_rcv(&held, skb, 64, gro_taken);
	merged = NAPI_GRO_CB(skb)->same_flow;
	KUNIT_EXPECT_EQ(test, merged, c->merged);
	KUNIT_EXPECT_PTR_EQ(test, pp, c->merged ? NULL : p);
	KUNIT_EXPECT_FALSE(test, (bool)NAPI_GRO_CB(skb)->flush);
	KUNIT_EXPECT_EQ(test, (unsigned int)NAPI_GRO_CB(p)->count,
			c->merged ? 2U : 1U);

	/* a merged packet goes with the burst */
	skb_list_del_init(p);
	kfree_skb(p);
	if (!merged)
		kfree_skb(skb);
}

/*
 * A packet of the QP of a held burst that cannot join it: the burst goes
 * up first, whichever way the packet goes
 */
struct gro_order_case {
	const char *name;
	unsigned int max;	/* roce_gro_burst */
	unsigned int len;	/* the packet's bytes from the IP header */
	bool csum;		/* the packet's UDP checksum non-zero */
	bool same_flow;		/* what the layers below left of the burst */
	u32 held_qpn;
	bool deliver;
	bool unreadable;	/* its frags device memory (6.12) */
};

static const struct gro_order_case gro_order_cases[] = {
	/* roce_gro_burst lowered to 1 while the burst is held */
	{ "bursts_turned_off", 1, GRO_NH + 1036, false, true, 0x11, true },
	/* no BTH to find the QP by: the flow's burst goes first */
	{ "too_short_for_bth", 64, GRO_NH + 8, false, true, 0x11, true },
	/* UDP took the burst out of the flow: checksums zero and not */
	{ "checksum", 64, GRO_NH + 1036, true, false, 0x11, true },
	/* another source MAC or VLAN priority (gro_list_prepare()) */
	{ "out_of_flow", 64, GRO_NH + 1036, false, false, 0x11, true },
	/* out of the flow and another QP's: it stays */
	{ "other_qp", 64, GRO_NH + 1036, true, false, 0x12, false },
#if SOFTRDMA_HAVE_UNREADABLE_FRAGS
	/*
	 * whole, so that it would join: but the host cannot read all of it,
	 * and it goes up alone, to be dropped by its own flag, which
	 * segmentation would overwrite with the burst's
	 */
	{ "unreadable", 64, GRO_NH + 1036 + ROCE_ICRC_SIZE, false, true, 0x11,
	  true, true },
#endif
};

static void gro_order_case_desc(const struct gro_order_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(gro_order, gro_order_cases, gro_order_case_desc);

static void softrdma_roce_gro_order(struct kunit *test)
{
	const struct gro_order_case *c = test->param_value;
	struct gro_bth bth = { .opcode = MID, .qpn = c->held_qpn, .psn = 0x100 };
	struct sk_buff *p, *skb, *pp;
	LIST_HEAD(held);

	p = gro_rx_pkt(test, &bth, 1036, 0, 10, NULL);
	NAPI_GRO_CB(p)->last = p;
	skb_shinfo(p)->gso_size = skb_gro_len(p);
	list_add_tail(&p->list, &held);

	bth.qpn = 0x11;
	bth.psn++;
	skb = gro_rx_pkt(test, &bth, 1036, 1, 11, NULL);
	skb_trim(skb, c->len);
	if (c->csum)
		udp_hdr(skb)->check = htons(0x1234);
#if SOFTRDMA_HAVE_UNREADABLE_FRAGS
	skb->unreadable = c->unreadable;
#endif
	NAPI_GRO_CB(p)->same_flow = c->same_flow;

	pp = softrdma_roce_gro_rcv(&held, skb, c->max, gro_taken);
	KUNIT_EXPECT_PTR_EQ(test, pp, c->deliver ? p : NULL);
	KUNIT_EXPECT_FALSE(test, (bool)NAPI_GRO_CB(skb)->same_flow);
	KUNIT_EXPECT_TRUE(test, (bool)NAPI_GRO_CB(skb)->flush);
	KUNIT_EXPECT_EQ(test, (unsigned int)NAPI_GRO_CB(p)->count, 1U);

	skb_list_del_init(p);
	kfree_skb(p);
	kfree_skb(skb);
}

/*
 * A packet that sroce here would not take (routed, bridged, on a netdev
 * without sroce) starts no burst; one of a burst that one it takes
 * started joins it
 */
static void softrdma_roce_gro_not_for_host(struct kunit *test)
{
	struct gro_bth bth = { .opcode = MID, .qpn = 0x11, .psn = 0x100 };
	struct sk_buff *p, *skb, *pp;
	LIST_HEAD(held);

	skb = gro_rx_pkt(test, &bth, 1036, 0, 10, NULL);
	pp = softrdma_roce_gro_rcv(&held, skb, 64, gro_not_taken);
	KUNIT_EXPECT_NULL(test, pp);
	KUNIT_EXPECT_TRUE(test, (bool)NAPI_GRO_CB(skb)->flush);
	kfree_skb(skb);

	p = gro_rx_pkt(test, &bth, 1036, 0, 10, NULL);
	pp = softrdma_roce_gro_rcv(&held, p, 64, gro_taken);
	KUNIT_EXPECT_NULL(test, pp);
	KUNIT_ASSERT_FALSE(test, (bool)NAPI_GRO_CB(p)->flush);
	NAPI_GRO_CB(p)->last = p;
	skb_shinfo(p)->gso_size = skb_gro_len(p);
	list_add_tail(&p->list, &held);

	bth.psn++;
	skb = gro_rx_pkt(test, &bth, 1036, 1, 11, NULL);
	NAPI_GRO_CB(p)->same_flow = 1;
	pp = softrdma_roce_gro_rcv(&held, skb, 64, gro_not_taken);
	KUNIT_EXPECT_NULL(test, pp);
	KUNIT_EXPECT_TRUE(test, (bool)NAPI_GRO_CB(skb)->same_flow);
	KUNIT_EXPECT_EQ(test, (unsigned int)NAPI_GRO_CB(p)->count, 2U);

	skb_list_del_init(p);
	kfree_skb(p);
}

/*
 * softrdma_roce_rcv_for_host(): a frame for another host, a broadcast, and
 * one to an address that is not this host's, on a netdev without sroce
 */
static void softrdma_roce_gro_for_host(struct kunit *test)
{
	static const u8 pkt_types[] = {
		PACKET_OTHERHOST, PACKET_BROADCAST, PACKET_MULTICAST,
		PACKET_HOST,
	};
	struct gro_bth bth = { .opcode = MID, .qpn = 0x11, .psn = 0x100 };
	struct sk_buff *skb;
	unsigned int i;

	skb = gro_rx_pkt(test, &bth, 1036, 0, 10, NULL);
	for (i = 0; i < ARRAY_SIZE(pkt_types); i++) {
		skb->pkt_type = pkt_types[i];
		rcu_read_lock();
		KUNIT_EXPECT_FALSE_MSG(test,
				       softrdma_roce_rcv_for_host(skb, skb->data),
				       "pkt_type %u", pkt_types[i]);
		rcu_read_unlock();
	}
	kfree_skb(skb);
}

/*
 * The ingress netdev's gro_max_size bounds a burst, as GRO bounds a merged
 * skb: a packet that would take the burst to it goes up after it
 */
static void softrdma_roce_gro_max_size(struct kunit *test)
{
	struct gro_bth bth = { .opcode = MID, .qpn = 0x11, .psn = 0x100 };
	struct net_device *ndev = test->priv;
	struct sk_buff *p, *skb, *pp;
	LIST_HEAD(held);

	/*
	 * what the first two packets would make, one IP and UDP header and
	 * two BTH to ICRC: GRO keeps a merged skb below the limit
	 */
	WRITE_ONCE(ndev->gro_max_size, GRO_NH + 2 * (1036 + 4));
#ifdef SOFTRDMA_HAVE_GRO_IPV4_MAX_SIZE
	WRITE_ONCE(ndev->gro_ipv4_max_size, GRO_NH + 2 * (1036 + 4));
#endif
	p = gro_rx_pkt(test, &bth, 1036, 0, 10, NULL);
	NAPI_GRO_CB(p)->last = p;
	skb_shinfo(p)->gso_size = skb_gro_len(p);
	list_add_tail(&p->list, &held);

	bth.psn++;
	skb = gro_rx_pkt(test, &bth, 1036, 1, 11, NULL);
	NAPI_GRO_CB(p)->same_flow = 1;
	pp = softrdma_roce_gro_rcv(&held, skb, 64, gro_taken);
	KUNIT_EXPECT_PTR_EQ(test, pp, p);
	KUNIT_EXPECT_FALSE(test, (bool)NAPI_GRO_CB(skb)->same_flow);
	KUNIT_EXPECT_EQ(test, (unsigned int)NAPI_GRO_CB(p)->count, 1U);

	skb_list_del_init(p);
	kfree_skb(p);
	kfree_skb(skb);
}

/*
 * A packet of a held burst's QP, next in PSN and IPv4 ID: it joins only
 * if it continues the burst's message, which is all that tc and
 * netfilter, judging the burst by its first packet's BTH, do not see
 */
struct gro_op_case {
	const char *name;
	u8 held;		/* the burst's opcode */
	u8 opcode;		/* the packet's */
	bool merged;
};

static const struct gro_op_case gro_op_cases[] = {
	{ "write_middle_after_first", IB_OPCODE_RC_RDMA_WRITE_FIRST, MID,
	  true },
	{ "send_last_after_middle", IB_OPCODE_RC_SEND_MIDDLE,
	  IB_OPCODE_RC_SEND_LAST, true },
	{ "read_response_last_after_first",
	  IB_OPCODE_RC_RDMA_READ_RESPONSE_FIRST,
	  IB_OPCODE_RC_RDMA_READ_RESPONSE_LAST, true },
	{ "send_middle_after_write", MID, IB_OPCODE_RC_SEND_MIDDLE, false },
	{ "uc_write_middle_after_rc", MID, IB_OPCODE_UC_RDMA_WRITE_MIDDLE,
	  false },
	{ "ud_send_only", MID, IB_OPCODE_UD_SEND_ONLY, false },
	{ "undefined_opcode", MID, 0x1f, false },
};

static void gro_op_case_desc(const struct gro_op_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(gro_op, gro_op_cases, gro_op_case_desc);

static void softrdma_roce_gro_operation(struct kunit *test)
{
	const struct gro_op_case *c = test->param_value;
	struct gro_bth bth = { .opcode = c->held, .qpn = 0x11, .psn = 0x100 };
	struct sk_buff *p, *skb, *pp;
	LIST_HEAD(held);
	bool merged;

	p = gro_rx_pkt(test, &bth, 1036, 0, 10, NULL);
	NAPI_GRO_CB(p)->last = p;
	skb_shinfo(p)->gso_size = skb_gro_len(p);
	list_add_tail(&p->list, &held);

	bth.opcode = c->opcode;
	bth.psn++;
	skb = gro_rx_pkt(test, &bth, 1036, 1, 11, NULL);
	NAPI_GRO_CB(p)->same_flow = 1;

	pp = softrdma_roce_gro_rcv(&held, skb, 64, gro_taken);
	merged = NAPI_GRO_CB(skb)->same_flow;
	KUNIT_EXPECT_EQ(test, merged, c->merged);
	KUNIT_EXPECT_EQ(test, (unsigned int)NAPI_GRO_CB(p)->count,
			c->merged ? 2U : 1U);
	/* a packet that does not join goes up after the burst */
	if (!c->merged)
		KUNIT_EXPECT_PTR_EQ(test, pp, p);

	skb_list_del_init(p);
	kfree_skb(p);
	if (!merged)
		kfree_skb(skb);
}

/*
 * RoCE over IPv6, a zero UDP checksum as hardware peers send it: a packet
 * that would start a burst over IPv4 goes up alone, bursts are IPv4's
 */
static void softrdma_roce_gro_ipv6(struct kunit *test)
{
	struct gro_bth b = { .opcode = MID, .qpn = 0x11, .psn = 0x100 };
	const unsigned int ib_len = 1036 + ROCE_ICRC_SIZE;
	struct softrdma_bth *bth;
	struct ipv6hdr *ip6;
	struct sk_buff *skb;
	struct udphdr *uh;
	LIST_HEAD(held);

	skb = alloc_skb(GRO_HEADROOM + sizeof(*ip6) + sizeof(*uh) + ib_len,
			GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reserve(skb, GRO_HEADROOM);
	skb_reset_mac_header(skb);
	skb->protocol = htons(ETH_P_IPV6);
	ip6 = skb_put_zero(skb, sizeof(*ip6));
	ip6->version = 6;
	ip6->payload_len = htons(sizeof(*uh) + ib_len);
	ip6->nexthdr = IPPROTO_UDP;
	ip6->hop_limit = 64;
	ip6->saddr.s6_addr[0] = 0xfd;
	ip6->saddr.s6_addr[15] = 1;
	ip6->daddr.s6_addr[0] = 0xfd;
	ip6->daddr.s6_addr[15] = 2;
	skb_set_transport_header(skb, sizeof(*ip6));
	uh = skb_put_zero(skb, sizeof(*uh));
	uh->source = htons(0xc123);
	uh->dest = htons(4791);
	uh->len = htons(sizeof(*uh) + ib_len);
	bth = skb_put_zero(skb, ib_len);
	softrdma_bth_set_opcode(bth, b.opcode);
	softrdma_bth_set_tver(bth, SOFTRDMA_BTH_TVER);
	softrdma_bth_set_pkey(bth, 0xffff);
	softrdma_bth_set_qpn(bth, b.qpn);
	softrdma_bth_set_psn(bth, b.psn);

	/* what GRO has done by the time the RoCE socket's gro_receive runs */
	skb->dev = test->priv;
	skb->pkt_type = PACKET_HOST;
	memset(skb->cb, 0, sizeof(skb->cb));
	NAPI_GRO_CB(skb)->data_offset = sizeof(*ip6) + sizeof(*uh);
	NAPI_GRO_CB(skb)->count = 1;
	NAPI_GRO_CB(skb)->is_ipv6 = 1;
	gro_rx_set_nh(skb, 0);

	KUNIT_EXPECT_NULL(test, softrdma_roce_gro_rcv(&held, skb, 64, gro_taken));
	KUNIT_EXPECT_TRUE(test, (bool)NAPI_GRO_CB(skb)->flush);
	kfree_skb(skb);
}

/* the ingress netdev, with GRO's default limits (alloc_netdev_mqs()) */
static int softrdma_roce_gro_test_init(struct kunit *test)
{
	struct net_device *ndev = alloc_etherdev(0);

	if (!ndev)
		return -ENOMEM;
	test->priv = ndev;
	return 0;
}

static void softrdma_roce_gro_test_exit(struct kunit *test)
{
	free_netdev(test->priv);
}

static struct kunit_case softrdma_roce_gro_cases[] = {
	KUNIT_CASE_PARAM(softrdma_roce_gro_starts, gro_start_gen_params),
	KUNIT_CASE_PARAM(softrdma_roce_gro_joins, gro_join_gen_params),
	KUNIT_CASE(softrdma_roce_gro_receive_steps),
	KUNIT_CASE_PARAM(softrdma_roce_gro_ip_header, gro_ip_gen_params),
	KUNIT_CASE_PARAM(softrdma_roce_gro_order, gro_order_gen_params),
	KUNIT_CASE(softrdma_roce_gro_not_for_host),
	KUNIT_CASE(softrdma_roce_gro_for_host),
	KUNIT_CASE(softrdma_roce_gro_max_size),
	KUNIT_CASE_PARAM(softrdma_roce_gro_operation, gro_op_gen_params),
	KUNIT_CASE(softrdma_roce_gro_ipv6),
	KUNIT_CASE_PARAM(softrdma_roce_gro_burst_segments,
			 gro_burst_gen_params),
	KUNIT_CASE_PARAM(softrdma_roce_gro_burst_walk, gro_burst_gen_params),
	KUNIT_CASE_PARAM(softrdma_roce_gro_walkable_shapes,
			 gro_walkable_gen_params),
	KUNIT_CASE_PARAM(softrdma_roce_gro_rcv_counts, gro_rcv_gen_params),
	KUNIT_CASE_PARAM(softrdma_roce_gro_rcv_dispatch, gro_sock_gen_params),
	KUNIT_CASE_PARAM(softrdma_roce_gro_rcv_run, gro_run_gen_params),
	{}
};

static struct kunit_suite softrdma_roce_gro_suite = {
	.name = "softrdma_roce_gro",
	.init = softrdma_roce_gro_test_init,
	.exit = softrdma_roce_gro_test_exit,
	.test_cases = softrdma_roce_gro_cases,
};

kunit_test_suite(softrdma_roce_gro_suite);
