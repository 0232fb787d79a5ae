/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The RoCEv2 network layer (IBA vol 1 annex A17): UDP port 4791 sockets
 * per network namespace, receive validation and dispatch, and transmit
 * through the host's routing, neighbour and qdisc layers.
 */
#ifndef SOFTRDMA_ROCE_NET_H
#define SOFTRDMA_ROCE_NET_H

#include <linux/skbuff.h>
#include <linux/types.h>
#include <net/dst_cache.h>

struct softrdma_av;
struct softrdma_dev;

int softrdma_roce_net_init(void);
void softrdma_roce_net_exit(void);

int softrdma_roce_net_attach(struct softrdma_dev *sdev);
void softrdma_roce_net_detach(struct softrdma_dev *sdev);

/* A17.4.3: source ports 0xC000 - 0xFFFF carry flow entropy */
#define SOFTRDMA_ROCE_SPORT_MIN		0xc000
#define SOFTRDMA_ROCE_SPORT_BITS	14

u16 softrdma_roce_src_port(u32 qpn_a, u32 qpn_b);

struct sk_buff *softrdma_roce_alloc_skb(struct softrdma_dev *sdev,
					const struct softrdma_av *av,
					unsigned int ib_hdr_len,
					unsigned int payload_len);
int softrdma_roce_xmit(struct softrdma_dev *sdev, const struct softrdma_av *av,
		       u16 src_port, struct dst_cache *route,
		       struct sk_buff *skb);

/*
 * The transport's receive entry (roce_rx.c): gets every packet that
 * passed softrdma_roce_net's checks, with skb->cb holding a filled
 * struct softrdma_roce_pkt (roce_pkt.h says where skb->data points).
 * Consumes the skb and the device reference in the pkt.
 */
void softrdma_roce_rcv_pkt(struct sk_buff *skb);

#if IS_ENABLED(CONFIG_KUNIT)
#include "counters.h"

int softrdma_roce_rcv_parse(struct sk_buff *skb, enum softrdma_counter *drop);
void softrdma_roce_rcv_skb(struct softrdma_dev *sdev, struct sk_buff *skb);
#endif

#endif /* SOFTRDMA_ROCE_NET_H */
