/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * GRO for RoCEv2: the gro_receive and gro_complete of the RoCE UDP
 * sockets (roce_net.c), which merge consecutive packets of one message
 * into one skb on receive, and the walk that takes such a burst apart
 * again in encap_rcv (roce_gro.c).
 */
#ifndef SOFTRDMA_ROCE_GRO_H
#define SOFTRDMA_ROCE_GRO_H

#include <linux/if_ether.h>
#include <linux/list.h>
#include <linux/skbuff.h>
#include <linux/types.h>
#include <net/sock.h>

struct sk_buff *softrdma_roce_gro_receive(struct sock *sk,
					  struct list_head *head,
					  struct sk_buff *skb);
int softrdma_roce_gro_complete(struct sock *sk, struct sk_buff *skb,
			       int nhoff);

/*
 * A burst as softrdma_roce_gro_complete() leaves it: a UDP tunnel's GSO
 * skb as udp_gro_complete() marks one (the RoCE socket takes it whole,
 * udp_unexpected_gso()), of fraglist packets
 */
#define SOFTRDMA_ROCE_GRO_GSO_TYPE \
	(SKB_GSO_UDP_TUNNEL | SKB_GSO_UDP_L4 | SKB_GSO_FRAGLIST)

/* the first byte of an IPv4 header of 20 bytes: version 4, IHL 5 */
#define SOFTRDMA_ROCE_GRO_IPV4_VIHL	0x45

/* What each member of a burst taken apart takes from its head */
struct softrdma_roce_gro_split {
	struct net_device *dev;	/* the ingress netdev */
	__be16 protocol;
	u16 id;			/* the head's IPv4 ID */
	u16 index;		/* the last member's place; the head's is 0 */
	u8 link[ETH_HLEN];	/* the head's link header */
};

bool softrdma_roce_gro_walkable(const struct sk_buff *skb);
struct sk_buff *softrdma_roce_gro_split(struct softrdma_roce_gro_split *split,
					struct sk_buff *skb);
void softrdma_roce_gro_member(struct softrdma_roce_gro_split *split,
			      struct sk_buff *skb);

/* The most packets one GRO burst holds: UDP GRO's own limit */
#define SOFTRDMA_ROCE_GRO_MAX	64

/* What decides whether a packet joins a burst GRO holds */
struct softrdma_roce_gro_burst {
	unsigned int count;	/* packets in it */
	unsigned int head_len;	/* the first packet's IB bytes (gso_size) */
	unsigned int len;	/* IP header to the end: the IP length field */
	u32 last_psn;		/* of its last packet */
	u8 last_opcode;		/* of its last packet */
	u16 head_ip_id;		/* the first packet's IPv4 ID */
	unsigned int max_len;	/* the most len may become */
};

struct softrdma_roce_gro_pkt {
	unsigned int len;	/* IB bytes: BTH to ICRC */
	u32 psn;
	u16 ip_id;		/* IPv4 ID */
	u8 opcode;
	bool ackreq;
};

enum softrdma_roce_gro_join {
	SOFTRDMA_ROCE_GRO_SPLIT,	/* deliver the burst; not this one */
	SOFTRDMA_ROCE_GRO_MERGE,	/* append it, keep the burst open */
	SOFTRDMA_ROCE_GRO_MERGE_LAST,	/* append it, deliver the burst */
};

#if IS_ENABLED(CONFIG_KUNIT)
bool softrdma_roce_gro_may_start(const struct softrdma_roce_gro_pkt *pkt);
enum softrdma_roce_gro_join
softrdma_roce_gro_join(const struct softrdma_roce_gro_burst *burst,
		       const struct softrdma_roce_gro_pkt *pkt,
		       unsigned int max);
int softrdma_roce_gro_chain(struct sk_buff *p, struct sk_buff *skb);
struct sk_buff *
softrdma_roce_gro_rcv(struct list_head *head, struct sk_buff *skb,
		      unsigned int max,
		      bool (*for_host)(const struct sk_buff *skb,
				       const void *nh));
#endif

#endif /* SOFTRDMA_ROCE_GRO_H */
