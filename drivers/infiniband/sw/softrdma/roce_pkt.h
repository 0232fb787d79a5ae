/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A received RoCEv2 packet as the transport stages pass it along: the skb
 * and what parsing its headers established.  Lives in skb->cb.
 *
 * When softrdma_roce_net hands a packet to softrdma_roce_rcv_deliver():
 *  - skb->data points at the BTH; the BTH and the extension headers its
 *    opcode calls for (hdr_len bytes) are in the linear area;
 *  - the payload follows at skb->data + hdr_len, linear or in page frags
 *    (it is never copied), and is exactly payload_len bytes: pad and ICRC
 *    have been trimmed off, so skb->len == hdr_len + payload_len;
 *  - skb_network_header() is the IPv4 or IPv6 header and
 *    skb_transport_header() the UDP header, both still intact;
 *  - sdev is the device, which the caller holds a reference on for as
 *    long as the call;
 *  - skb->dev is the ingress netdev.
 * Nothing else of the skb is to be read: a member of a receive burst
 * (roce_gro.c) keeps what GRO left it, not what segmentation would have
 * copied from the burst's head (no dst, its own VLAN tag state, mark,
 * timestamps).
 */
#ifndef SOFTRDMA_ROCE_PKT_H
#define SOFTRDMA_ROCE_PKT_H

#include <linux/skbuff.h>
#include <linux/types.h>

struct softrdma_dev;

struct softrdma_roce_pkt {
	struct softrdma_dev *sdev;
	u32 psn;		/* BTH PSN, 24 bits */
	u32 qpn;		/* BTH destination QP, 24 bits */
	u32 payload_len;	/* bytes after the headers, pad and ICRC excluded */
	u16 hdr_len;		/* BTH and extension headers */
	u8 opcode;		/* BTH opcode */
	u8 pad;			/* BTH pad count, as received */
	u8 network_type;	/* RDMA_NETWORK_IPV4 or RDMA_NETWORK_IPV6 */
	bool icrc_rxe_flush;	/* a FLUSH with stock rxe's ICRC (icrc.h) */
};

static_assert(sizeof(struct softrdma_roce_pkt) <=
	      sizeof_field(struct sk_buff, cb));

static inline struct softrdma_roce_pkt *softrdma_roce_pkt(struct sk_buff *skb)
{
	return (struct softrdma_roce_pkt *)skb->cb;
}

#endif /* SOFTRDMA_ROCE_PKT_H */
