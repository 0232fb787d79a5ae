// SPDX-License-Identifier: GPL-2.0-only
/*
 * GRO for RoCEv2: receive bursts.
 *
 * The RoCE UDP sockets' gro_receive merges consecutive IPv4 packets of
 * one message to one QP, while GRO holds them (to the end of the NAPI poll,
 * or longer: see napi_gro_flush() and gro_flush_timeout), into one skb:
 * IP, netfilter, routing and UDP's delivery then see the burst once
 * instead of once per packet.  The skb is of the kind softrdma's
 * transmit bursts are (roce_net.c) and UDP's own fraglist GRO builds: a
 * UDP GSO skb (SKB_GSO_UDP_L4 | SKB_GSO_FRAGLIST) whose head is the first
 * packet and whose frag_list members are the others, each starting at its
 * BTH with its own IP and UDP headers, as received, in front of it.
 *
 * The burst is typed as a UDP tunnel's (SOFTRDMA_ROCE_GRO_GSO_TYPE), and
 * the IPv4 socket takes GSO skbs (udp_allow_gso()), so UDP hands it to
 * encap_rcv whole (udp_unexpected_gso()).  There (roce_net.c) it is taken
 * apart again, one packet after the other, each received, validated (its
 * ICRC included) and counted as without GRO, but with the device lookup
 * once for the burst and the QP's once for a run of its packets.  The
 * walk gives each packet what segmentation (udp_rcv_segment(),
 * skb_segment_list(), inet_gso_segment()) would: the head the lengths
 * of its own packet, which GRO had set to the burst's (its IP total
 * length from its length, its UDP length from gso_size, its header
 * checksum), softrdma_roce_gro_split(); each member the head's link
 * header and netdev, the IPv4 ID after the previous packet's (the
 * head's plus its index), its own IP total length and header checksum,
 * its other bytes as received, softrdma_roce_gro_member().  It does so
 * only for a burst of this shape, whose members segmentation would leave
 * at their own network headers with their own addresses
 * (softrdma_roce_gro_walkable()); encap_rcv segments any other GSO skb as
 * UDP would.  So that either gives back exactly the packets received,
 * which the ICRC checks, a packet joins a burst only
 *  - with a zero UDP checksum, as RoCEv2 over IPv4 has (A17.4.2):
 *    udp_gro_complete() rewrites a non-zero one in the head for the inner
 *    packet a tunnel would carry, and nothing restores it;
 *  - with its UDP length that of its datagram;
 *  - not decrypted by IPsec (GRO does not compare the state a packet was
 *    decrypted under, and UDP checks the policy of a burst's head only);
 *  - its frags readable by the host (not device memory, 6.12): the
 *    receive path tells an unreadable packet by its skb's flag, and
 *    skb_segment_list() gives each member the head's;
 *  - with the IPv4 ID that follows the burst's last one;
 *  - no longer than the burst's first packet (a longer one would escape
 *    the MTU check, which looks at gso_size, of a burst forwarded after
 *    all, by a DNAT rule);
 *  - while the burst stays below the ingress netdev's gro_max_size.
 * What joins is one QP's: the same addresses and UDP ports (checked by
 * the IP and UDP layers' GRO), the same IP header as the first packet's
 * but for its lengths, checksum and ID (TOS, TTL, DF: what IP, routing
 * and netfilter judge the burst by), the same
 * destination QP, PSNs consecutive (IBA 9.7.1), and the same message: a
 * MIDDLE or LAST of the transport, direction and operation of the FIRST
 * or MIDDLE the burst ends with (IBA 9.4).  IP, netfilter and tc see only
 * the first packet's BTH; what hides behind it is the rest of its message.
 *
 * Bursts are for packets sroce here takes (softrdma_roce_rcv_for_host()):
 * RoCE that the host routes or bridges, or that arrives on a netdev
 * without sroce, goes through GRO untouched, as other UDP does.  RoCE
 * over IPv6 goes up packet by packet: bursts are IPv4's.  A burst starts
 * with a packet in the first part of a message (FIRST or MIDDLE, IBA
 * 9.2); a message's LAST packet, any shorter packet and any asking for an
 * ACK join it and end it there, so that what completes a message or calls
 * for an ACK is not held back with the burst; every other packet goes up
 * at once, after the burst held for its QP if any, so that a QP's packets
 * stay in order.
 */
#include <linux/ip.h>
#include <linux/moduleparam.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <kunit/visibility.h>
#include <net/checksum.h>
#include <net/gro.h>
#include <net/xfrm.h>

#include "compat.h"
#include "psn.h"
#include "roce_gro.h"
#include "roce_hdr.h"
#include "roce_net.h"
#include "roce_opcode.h"

static unsigned int roce_gro_burst = SOFTRDMA_ROCE_GRO_MAX;
module_param(roce_gro_burst, uint, 0644);
MODULE_PARM_DESC(roce_gro_burst,
		 "RoCE: packets of one message merged into one GRO burst on receive, at most (0 or 1: none; default and most 64)");

/* the IP length fields count at most this many bytes */
#define SOFTRDMA_ROCE_GRO_BYTES_MAX	0xffff

/*
 * The most bytes a burst held by GRO on @p's netdev may count from @p's
 * data: the IP length fields' limit, and the netdev's gro_max_size (which
 * GRO keeps a merged skb below)
 */
static unsigned int softrdma_roce_gro_max_len(const struct sk_buff *p)
{
	unsigned int gro_max = softrdma_gro_max_size(p->dev, p);

	return gro_max ? min(gro_max - 1, SOFTRDMA_ROCE_GRO_BYTES_MAX) : 0;
}

/**
 * softrdma_roce_gro_may_start() - may a packet begin a burst
 * @pkt: a packet for a QP without a burst held
 *
 * Return: true for the FIRST and MIDDLE packets of a message that do not
 * ask for an ACK: more of the message follows it.
 */
VISIBLE_IF_KUNIT bool
softrdma_roce_gro_may_start(const struct softrdma_roce_gro_pkt *pkt)
{
	const struct softrdma_roce_opcode *op = softrdma_roce_opcode(pkt->opcode);

	return op && (op->flags & (SOFTRDMA_OPF_FIRST | SOFTRDMA_OPF_MIDDLE)) &&
	       !pkt->ackreq;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_roce_gro_may_start);

/*
 * Whether a packet of @opcode continues the message of a packet of @prev
 * (IBA 9.4): @prev a FIRST or MIDDLE, @opcode a MIDDLE or LAST of the same
 * transport, direction and operation
 */
static bool softrdma_roce_gro_continues(u8 prev, u8 opcode)
{
	const u32 same = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_RESP |
			 SOFTRDMA_OPF_SEND | SOFTRDMA_OPF_WRITE |
			 SOFTRDMA_OPF_READ | SOFTRDMA_OPF_ATOMIC |
			 SOFTRDMA_OPF_ATOMIC_WRITE | SOFTRDMA_OPF_ACK |
			 SOFTRDMA_OPF_FLUSH;
	const struct softrdma_roce_opcode *a = softrdma_roce_opcode(prev);
	const struct softrdma_roce_opcode *b = softrdma_roce_opcode(opcode);

	return a && b && !((prev ^ opcode) & ~SOFTRDMA_OPCODE_OP_MASK) &&
	       (a->flags & (SOFTRDMA_OPF_FIRST | SOFTRDMA_OPF_MIDDLE)) &&
	       (b->flags & (SOFTRDMA_OPF_MIDDLE | SOFTRDMA_OPF_LAST)) &&
	       (a->flags & same) == (b->flags & same);
}

/**
 * softrdma_roce_gro_join() - may a packet join its QP's burst
 * @burst: the burst held for the packet's flow and QP
 * @pkt: the packet, its UDP checksum zero and its length valid
 * @max: packets a burst may hold
 *
 * Return: SOFTRDMA_ROCE_GRO_SPLIT if the packet does not follow the burst
 * (see the rules above); else SOFTRDMA_ROCE_GRO_MERGE_LAST if it ends it,
 * SOFTRDMA_ROCE_GRO_MERGE if not.
 */
VISIBLE_IF_KUNIT enum softrdma_roce_gro_join
softrdma_roce_gro_join(const struct softrdma_roce_gro_burst *burst,
		       const struct softrdma_roce_gro_pkt *pkt,
		       unsigned int max)
{
	if (burst->count >= max || pkt->len > burst->head_len ||
	    burst->len + pkt->len > burst->max_len ||
	    pkt->psn != psn_add(burst->last_psn, 1) ||
	    !softrdma_roce_gro_continues(burst->last_opcode, pkt->opcode))
		return SOFTRDMA_ROCE_GRO_SPLIT;
	if (pkt->ip_id != (u16)(burst->head_ip_id + burst->count))
		return SOFTRDMA_ROCE_GRO_SPLIT;

	if (burst->count + 1 >= max || pkt->len < burst->head_len ||
	    !softrdma_roce_gro_may_start(pkt))
		return SOFTRDMA_ROCE_GRO_MERGE_LAST;
	return SOFTRDMA_ROCE_GRO_MERGE;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_roce_gro_join);

/**
 * softrdma_roce_gro_chain() - append a packet to a burst
 * @p: the burst's head, as GRO holds it
 * @skb: the packet, its GRO offset at the BTH
 *
 * The packet becomes the last frag_list member of @p, starting at its
 * BTH; its headers stay in front of it for segmentation to find, its
 * network header at its IP header.
 *
 * Return: 0, or -ENOMEM (the packet untouched) when its headers cannot
 * be made linear.
 */
VISIBLE_IF_KUNIT int softrdma_roce_gro_chain(struct sk_buff *p,
					     struct sk_buff *skb)
{
	struct sk_buff *last = NAPI_GRO_CB(p)->last;

	if (!pskb_may_pull(skb, skb_gro_offset(skb)))
		return -ENOMEM;
	/*
	 * Segmentation finds a member's IP header at its network header,
	 * which 6.12's GRO leaves at offset 0, before an in-band VLAN tag
	 * if there is one (compat.h)
	 */
	skb_set_network_header(skb, softrdma_gro_network_offset(skb));
	__skb_pull(skb, skb_gro_offset(skb));

	if (last == p)
		skb_shinfo(p)->frag_list = skb;
	else
		last->next = skb;
	NAPI_GRO_CB(p)->last = skb;
	NAPI_GRO_CB(p)->count++;

	p->len += skb->len;
	p->data_len += skb->len;
	p->truesize += skb->truesize;
	skb_shinfo(p)->flags |= skb_shinfo(skb)->flags & SKBFL_SHARED_FRAG;
	/* a received packet has no owner; were there one, the head has it */
	skb->destructor = NULL;
	skb->sk = NULL;

	NAPI_GRO_CB(skb)->same_flow = 1;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_roce_gro_chain);

/*
 * The BTH of a held burst's packet: at @off in the head, where every
 * packet of the flow has it (GRO merges only headers of equal lengths),
 * at the start of a member
 */
static const struct softrdma_bth *
softrdma_roce_gro_bth(struct sk_buff *p, struct sk_buff *pkt,
		      unsigned int off, struct softrdma_bth *buf)
{
	return skb_header_pointer(pkt, pkt == p ? off : 0, sizeof(*buf), buf);
}

/*
 * Whether a packet's IP header differs from its burst's first in a field
 * that IP, routing and netfilter judge: they see the burst once, with the
 * first packet's header.  The IP layer's GRO does not merge such packets:
 * 6.1's marks the held burst (NAPI_GRO_CB(p)->flush), 6.12's leaves the
 * comparison to the transport's gro_receive (gro_receive_network_flush(),
 * which in a UDP tunnel's gro_receive would take the inner offsets).
 * Version, header length, protocol and addresses are equal already.
 */
static bool softrdma_roce_gro_ip_differs(const struct iphdr *iph,
					 const struct iphdr *iph2)
{
	return iph->tos != iph2->tos || iph->ttl != iph2->ttl ||
	       iph->frag_off != iph2->frag_off;
}

/*
 * Whether a held skb that the layers below took out of a packet's flow is
 * a burst of the packet's QP all the same: the same IP addresses, UDP
 * ports and destination QP.  They do that for differences that leave it
 * the QP's: a UDP checksum zero in one and not in the other, another
 * source MAC or VLAN priority.  @iph and @uh are the packet's IP and UDP
 * headers.
 */
static bool softrdma_roce_gro_same_qp(struct sk_buff *p,
				      const struct iphdr *iph,
				      const struct udphdr *uh, u32 qpn)
{
	const int nh_off = softrdma_gro_network_offset(p);
	const int th_off = skb_transport_offset(p);
	const struct softrdma_bth *bth2;
	struct softrdma_bth bth_buf;
	const struct iphdr *iph2;
	const struct udphdr *uh2;
	struct udphdr uh_buf;
	struct iphdr nh2_buf;

	if (nh_off < 0 || th_off <= nh_off)
		return false;
	iph2 = skb_header_pointer(p, nh_off, sizeof(nh2_buf), &nh2_buf);
	if (!iph2 || iph2->version != 4 || iph2->protocol != IPPROTO_UDP ||
	    iph2->saddr != iph->saddr || iph2->daddr != iph->daddr)
		return false;
	uh2 = skb_header_pointer(p, th_off, sizeof(uh_buf), &uh_buf);
	if (!uh2 || uh2->source != uh->source || uh2->dest != uh->dest)
		return false;
	bth2 = skb_header_pointer(p, th_off + sizeof(*uh2), sizeof(bth_buf),
				  &bth_buf);
	return bth2 && softrdma_bth_qpn(bth2) == qpn;
}

/*
 * The first held skb of a packet's flow, for a packet whose QP cannot be
 * read: whichever QP's burst it is, it goes up before the packet
 */
static struct sk_buff *softrdma_roce_gro_flow_burst(struct list_head *head)
{
	struct sk_buff *p;

	list_for_each_entry(p, head, list)
		if (NAPI_GRO_CB(p)->same_flow)
			return p;
	return NULL;
}

/**
 * softrdma_roce_gro_rcv() - a packet for the RoCE sockets in GRO
 * @head: the bursts GRO holds
 * @skb: the packet, its GRO offset past the UDP header
 * @max: packets a burst may hold (roce_gro_burst)
 * @for_host: whether sroce here takes a packet (softrdma_roce_rcv_for_host())
 *
 * A packet of a QP whose burst is held either joins it or goes up after
 * it, whatever else becomes of the packet, so that a QP's packets stay in
 * order.  A burst starts only with a packet @for_host takes: the others of
 * its flow have the same addresses and ingress netdev.
 *
 * Context: NAPI poll, softirq.
 * Return: the burst for GRO to deliver now, or NULL.
 */
VISIBLE_IF_KUNIT struct sk_buff *
softrdma_roce_gro_rcv(struct list_head *head, struct sk_buff *skb,
		      unsigned int max,
		      bool (*for_host)(const struct sk_buff *skb,
				       const void *nh))
{
	const unsigned int nh_off = softrdma_gro_network_offset(skb);
	const unsigned int off = skb_gro_offset(skb);
	struct softrdma_roce_gro_burst burst = {};
	const struct softrdma_bth *bth, *bth2;
	const struct iphdr *iph, *iph2;
	struct softrdma_roce_gro_pkt pkt;
	struct softrdma_bth buf;
	const struct udphdr *uh;
	struct iphdr nh2_buf;
	struct sk_buff *p;
	const void *hdr;
	bool may_join;
	u32 qpn;

	/* bursts are IPv4's: an IPv6 packet goes up alone */
	if (NAPI_GRO_CB(skb)->is_ipv6) {
		NAPI_GRO_CB(skb)->flush = 1;
		return NULL;
	}
	/*
	 * From the IP header (20 bytes here: inet_gro_receive() takes no
	 * other) to the BTH, every packet of a flow at the same offsets,
	 * the held bursts' too
	 */
	hdr = skb_gro_header(skb, off + sizeof(*bth), nh_off);
	if (!hdr) {
		/* too short for a BTH, or no memory: it goes up alone */
		NAPI_GRO_CB(skb)->flush = 1;
		return softrdma_roce_gro_flow_burst(head);
	}
	iph = hdr;
	uh = hdr + (off - nh_off - sizeof(*uh));
	bth = hdr + (off - nh_off);

	pkt.len = skb_gro_len(skb);
	pkt.psn = softrdma_bth_psn(bth);
	pkt.ip_id = ntohs(iph->id);
	pkt.opcode = softrdma_bth_opcode(bth);
	pkt.ackreq = softrdma_bth_ackreq(bth);
	qpn = softrdma_bth_qpn(bth);
	/*
	 * IP's GRO does not compare the IPsec state packets were decrypted
	 * under, and UDP checks the policy on the burst's head only: what
	 * was decrypted goes up alone, checked by itself.  So does a packet
	 * in frags the host cannot read, which segmentation would mark as
	 * readable as the head.
	 */
	may_join = max >= 2 && !NAPI_GRO_CB(skb)->flush && !uh->check &&
		   ntohs(uh->len) == sizeof(*uh) + pkt.len &&
		   !secpath_exists(skb) && skb_frags_readable(skb);

	list_for_each_entry(p, head, list) {
		if (!NAPI_GRO_CB(p)->same_flow)
			continue;
		bth2 = softrdma_roce_gro_bth(p, p, off, &buf);
		if (!bth2 || softrdma_bth_qpn(bth2) != qpn) {
			NAPI_GRO_CB(p)->same_flow = 0;
			continue;
		}
		goto found;
	}
	list_for_each_entry(p, head, list) {
		if (softrdma_roce_gro_same_qp(p, iph, uh, qpn)) {
			/* the QP's burst first, then this packet alone */
			NAPI_GRO_CB(skb)->flush = 1;
			return p;
		}
	}
	/* no burst held for this QP: hold this packet, or let it go */
	if (!may_join || !softrdma_roce_gro_may_start(&pkt) ||
	    !for_host(skb, hdr))
		NAPI_GRO_CB(skb)->flush = 1;
	return NULL;

found:
	if (!may_join)
		goto out_split;
	bth2 = softrdma_roce_gro_bth(p, NAPI_GRO_CB(p)->last, off, &buf);
	if (!bth2)
		goto out_split;
	burst.count = NAPI_GRO_CB(p)->count;
	burst.head_len = skb_shinfo(p)->gso_size;
	burst.len = p->len;
	burst.max_len = softrdma_roce_gro_max_len(p);
	burst.last_psn = softrdma_bth_psn(bth2);
	burst.last_opcode = softrdma_bth_opcode(bth2);
	iph2 = skb_header_pointer(p, nh_off, sizeof(nh2_buf), &nh2_buf);
	if (!iph2 || NAPI_GRO_CB(p)->flush ||
	    softrdma_roce_gro_ip_differs(iph, iph2))
		goto out_split;
	burst.head_ip_id = ntohs(iph2->id);

	switch (softrdma_roce_gro_join(&burst, &pkt, max)) {
	case SOFTRDMA_ROCE_GRO_MERGE:
		if (softrdma_roce_gro_chain(p, skb))
			goto out_split;
		return NULL;
	case SOFTRDMA_ROCE_GRO_MERGE_LAST:
		if (softrdma_roce_gro_chain(p, skb))
			goto out_split;
		return p;
	case SOFTRDMA_ROCE_GRO_SPLIT:
		break;
	}

out_split:
	/* the burst goes up first; this packet may start the next one */
	if (!may_join || !softrdma_roce_gro_may_start(&pkt))
		NAPI_GRO_CB(skb)->flush = 1;
	return p;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_roce_gro_rcv);

/**
 * softrdma_roce_gro_receive() - udp_tunnel gro_receive of the RoCE sockets
 * @sk: the socket the packet is for
 * @head: the bursts GRO holds
 * @skb: the packet, its GRO offset past the UDP header
 *
 * Context: NAPI poll, softirq.
 * Return: the burst for GRO to deliver now, or NULL.
 */
struct sk_buff *softrdma_roce_gro_receive(struct sock *sk,
					  struct list_head *head,
					  struct sk_buff *skb)
{
	return softrdma_roce_gro_rcv(head, skb,
				     min_t(unsigned int,
					   READ_ONCE(roce_gro_burst),
					   SOFTRDMA_ROCE_GRO_MAX),
				     softrdma_roce_rcv_for_host);
}

/**
 * softrdma_roce_gro_complete() - udp_tunnel gro_complete of the RoCE sockets
 * @sk: the socket
 * @skb: a burst of two or more packets from softrdma_roce_gro_receive()
 * @nhoff: offset of the head's BTH
 *
 * udp_gro_complete() took the burst for a tunnel's with an inner packet
 * behind the UDP header; it is a fraglist burst of whole packets.  The
 * IP and UDP layers have set its length fields to the burst's length.
 *
 * Context: NAPI poll, softirq.
 * Return: 0.
 */
int softrdma_roce_gro_complete(struct sock *sk, struct sk_buff *skb,
			       int nhoff)
{
	skb->encapsulation = 0;
	skb_shinfo(skb)->gso_type = SOFTRDMA_ROCE_GRO_GSO_TYPE;
	skb_shinfo(skb)->gso_segs = NAPI_GRO_CB(skb)->count;
	return 0;
}

/**
 * softrdma_roce_gro_walkable() - may encap_rcv take a GSO skb apart itself
 * @skb: a GSO skb as UDP hands it to encap_rcv, skb->data at its UDP
 *	header
 *
 * What udp_rcv_segment() would make of @skb, the walk makes of it too
 * (softrdma_roce_gro_split(), softrdma_roce_gro_member()) when @skb is a
 * burst of the shape softrdma_roce_gro_complete() leaves: the head a
 * packet with a 14-byte link header, an IPv4 header of 20 bytes and the
 * UDP header, its own datagram gso_size bytes of IB packet, so that
 * __udp_gso_segment() takes the fraglist way; every member a packet on
 * its own, unshared, starting at its BTH, with the IPv4 header of 20
 * bytes and the UDP header right in front of it, room for a link header
 * before them, and the head's addresses and UDP ports (which
 * segmentation would otherwise rewrite, and which the head's checks by
 * IPsec policy, netfilter and UDP have judged).  A head shared with a
 * clone is not taken either: segmentation copies it first.
 *
 * Return: true if the walk gives back each packet as segmentation would.
 */
bool softrdma_roce_gro_walkable(const struct sk_buff *skb)
{
	const struct skb_shared_info *shinfo = skb_shinfo(skb);
	const struct iphdr *iph = ip_hdr(skb), *iph2;
	const struct udphdr *uh = udp_hdr(skb), *uh2;
	const struct sk_buff *m;

	if (shinfo->gso_type != SOFTRDMA_ROCE_GRO_GSO_TYPE ||
	    skb->encapsulation || skb_cloned(skb) || !shinfo->frag_list ||
	    !skb_mac_header_was_set(skb) ||
	    skb_mac_header_len(skb) != ETH_HLEN ||
	    skb_transport_offset(skb) ||
	    skb_network_header_len(skb) != sizeof(*iph) ||
	    *(const u8 *)iph != SOFTRDMA_ROCE_GRO_IPV4_VIHL ||
	    skb_pagelen(skb) != sizeof(*uh) + shinfo->gso_size ||
	    skb->len <= sizeof(*uh) + shinfo->gso_size)
		return false;

	skb_walk_frags(skb, m) {
		if (skb_shared(m) || skb_cloned(m) ||
		    skb_transport_header(m) + sizeof(*uh) != m->data ||
		    skb_network_header(m) + sizeof(*iph) !=
			skb_transport_header(m) ||
		    skb_network_header(m) - m->head < ETH_HLEN)
			return false;
		iph2 = ip_hdr(m);
		uh2 = udp_hdr(m);
		if (*(const u8 *)iph2 != SOFTRDMA_ROCE_GRO_IPV4_VIHL ||
		    iph2->saddr != iph->saddr || iph2->daddr != iph->daddr ||
		    uh2->source != uh->source || uh2->dest != uh->dest)
			return false;
	}
	return true;
}

/* ip_send_check() of a 20-byte header, inline */
static void softrdma_roce_gro_ip_check(struct iphdr *iph)
{
	iph->check = 0;
	iph->check = ip_fast_csum(iph, sizeof(*iph) / 4);
}

/**
 * softrdma_roce_gro_split() - take the head of a burst off its members
 * @split: filled in, for softrdma_roce_gro_member()
 * @skb: a burst softrdma_roce_gro_walkable() takes; becomes its first
 *	packet alone
 *
 * The head gets back what GRO changed and segmentation restores (IP
 * total length, UDP length, IP header checksum): the lengths of its own
 * packet, as it was sent, which its ICRC covers.
 *
 * Return: the members, linked by skb->next, in the order received.
 */
struct sk_buff *softrdma_roce_gro_split(struct softrdma_roce_gro_split *split,
					struct sk_buff *skb)
{
	struct skb_shared_info *shinfo = skb_shinfo(skb);
	struct sk_buff *members = shinfo->frag_list, *m;
	unsigned int len = 0, truesize = 0;
	struct iphdr *iph = ip_hdr(skb);

	skb_walk_frags(skb, m) {
		len += m->len;
		truesize += m->truesize;
	}
	shinfo->frag_list = NULL;
	skb->len -= len;
	skb->data_len -= len;
	skb->truesize -= truesize;
	udp_hdr(skb)->len = htons(sizeof(struct udphdr) + shinfo->gso_size);
	skb_gso_reset(skb);
	iph->tot_len = htons(skb->len - skb_network_offset(skb));
	softrdma_roce_gro_ip_check(iph);

	split->dev = skb->dev;
	split->protocol = skb->protocol;
	split->id = ntohs(iph->id);
	split->index = 0;
	memcpy(split->link, skb_mac_header(skb), ETH_HLEN);
	return members;
}

/**
 * softrdma_roce_gro_member() - a member of a split burst as a packet alone
 * @split: from softrdma_roce_gro_split() on its burst
 * @skb: the next member, off the list; skb->data moves from its BTH to
 *	its UDP header
 *
 * What segmentation gives each member (skb_segment_list(),
 * inet_gso_segment()) and the receive path reads: the head's link header
 * and ingress netdev, the IPv4 ID that follows the previous packet's, the
 * IP total length of its own packet and the header checksum.  Its
 * addresses, ports and the rest of its bytes stay as received.
 */
void softrdma_roce_gro_member(struct softrdma_roce_gro_split *split,
			      struct sk_buff *skb)
{
	struct iphdr *iph = ip_hdr(skb);

	__skb_push(skb, sizeof(struct udphdr));
	skb->dev = split->dev;
	skb->protocol = split->protocol;
	skb_set_mac_header(skb, skb_network_offset(skb) - ETH_HLEN);
	memcpy(skb_mac_header(skb), split->link, ETH_HLEN);
	skb->mac_len = ETH_HLEN;

	iph->id = htons((u16)(split->id + ++split->index));
	iph->tot_len = htons(skb->len - skb_network_offset(skb));
	softrdma_roce_gro_ip_check(iph);
}
