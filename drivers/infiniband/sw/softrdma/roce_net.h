/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The RoCEv2 network layer (IBA vol 1 annex A17): UDP port 4791 sockets
 * per network namespace, receive validation and dispatch, and transmit
 * through the host's routing, neighbour and qdisc layers.
 */
#ifndef SOFTRDMA_ROCE_NET_H
#define SOFTRDMA_ROCE_NET_H

#include <linux/rcupdate.h>
#include <linux/skbuff.h>
#include <linux/types.h>
#include <net/dst_cache.h>
#include <rdma/ib_verbs.h>

#include "av.h"

struct softrdma_dev;

int softrdma_roce_net_init(void);
void softrdma_roce_net_exit(void);

int softrdma_roce_net_attach(struct softrdma_dev *sdev);
void softrdma_roce_net_detach(struct softrdma_dev *sdev);

/* A17.4.3: source ports 0xC000 - 0xFFFF carry flow entropy */
#define SOFTRDMA_ROCE_SPORT_MIN		0xc000
#define SOFTRDMA_ROCE_SPORT_BITS	14

u16 softrdma_roce_src_port(u32 qpn_a, u32 qpn_b);

/*
 * The worst-case RoCEv2 overhead inside one Ethernet frame for a packet
 * that carries payload (IBA vol 1 annex A17): IPv6 header, UDP header,
 * BTH, RETH and ImmDt (RDMA WRITE First/Only with Immediate) and the ICRC.
 * Payload at the path MTU must fit in netdev MTU minus this.
 */
#define SOFTRDMA_ROCE_MAX_HDR_BYTES	(40 + 8 + 12 + 16 + 4 + 4)

enum ib_mtu softrdma_roce_path_mtu(unsigned int netdev_mtu);

/*
 * Where one outgoing packet goes: what of an address vector the IP and
 * UDP headers need, and the UDP source port.  Fixed when the packet's skb
 * is built (softrdma_roce_alloc_skb() keeps a copy in skb->cb, and its
 * headroom fits it) and used as is by softrdma_roce_xmit(), however the
 * sender's address vector changed in between (modify_qp with IB_QP_AV).
 * Filled by softrdma_roce_tx_set() only: padding is zero, so that two
 * compare equal with memcmp() when they name the same flow.
 */
struct softrdma_roce_tx {
	union softrdma_ip saddr;
	union softrdma_ip daddr;
	u32 flow_label;		/* IPv6 only, 20 bits */
	int ifindex;		/* the source GID's netdev, 0: the device's */
	u16 src_port;		/* UDP, from softrdma_roce_src_port() */
	u8 network_type;	/* RDMA_NETWORK_IPV4 or RDMA_NETWORK_IPV6 */
	u8 traffic_class;
	u8 hop_limit;		/* 0: the route's */
};

static_assert(sizeof(struct softrdma_roce_tx) <=
	      sizeof_field(struct sk_buff, cb));

void softrdma_roce_tx_set(struct softrdma_roce_tx *tx,
			  const struct softrdma_av *av, u16 src_port);

/*
 * A connected QP's path: where its packets go and the route cache for
 * exactly that.  Never changed once published (RCU); a new address
 * vector or destination QP publishes a new path and frees the old one
 * after a grace period, so a reader always sees one consistent whole
 * and a cached route is only ever used for the flow it was looked up for.
 */
struct softrdma_roce_path {
	struct softrdma_roce_tx tx;
	struct dst_cache route;	/* the route of @tx, per CPU */
	struct rcu_head rcu;
};

struct softrdma_roce_path *softrdma_roce_path_alloc(void);
void softrdma_roce_path_free(struct softrdma_roce_path *path);
bool softrdma_roce_path_rcv_ok(const struct softrdma_roce_path *path,
			       const struct sk_buff *skb);

bool softrdma_roce_tx_sg(const struct softrdma_dev *sdev,
			 const struct softrdma_roce_tx *tx);
struct sk_buff *softrdma_roce_alloc_skb(struct softrdma_dev *sdev,
					const struct softrdma_roce_tx *tx,
					unsigned int ib_hdr_len,
					unsigned int payload_len);
int softrdma_roce_xmit(struct softrdma_dev *sdev,
		       struct softrdma_roce_path *path, struct sk_buff *skb);
bool softrdma_roce_burst_may_add(const struct sk_buff_head *burst,
				 const struct sk_buff *skb);
int softrdma_roce_xmit_burst(struct softrdma_dev *sdev,
			     struct softrdma_roce_path *path,
			     struct sk_buff_head *burst);

/*
 * The transport's receive entry (roce_rx.c): gets every packet that
 * passed softrdma_roce_net's checks, with skb->cb holding a filled
 * struct softrdma_roce_pkt (roce_pkt.h says where skb->data points), and
 * consumes it.  The packets received together (one datagram, or the
 * packets of a receive burst, roce_gro.c) share a context: their device,
 * referenced by the caller throughout, and the QP of the last packet
 * delivered, looked up again only for a packet of another QP (its path is
 * read for each packet), and a one-MR cache for their key lookups
 * (softrdma_mr_get_cached()), kept across a change of QP: each lookup
 * through it is checked against the QP of its own packet.
 * softrdma_roce_rcv_done() ends the context
 * and drops both: a context lasts as long as its packets' delivery, with
 * BHs off, and nothing in it waits on a deregistration.
 */
struct softrdma_mr;
struct softrdma_qp;

struct softrdma_roce_rcv_ctx {
	struct softrdma_dev *sdev;
	struct softrdma_qp *qp;		/* referenced, or NULL */
	/* the MR cache of the packets' key lookups (softrdma_rc_rcv()) */
	struct softrdma_mr *mr_cache;
};

void softrdma_roce_rcv_deliver(struct softrdma_roce_rcv_ctx *ctx,
			       struct sk_buff *skb);
void softrdma_roce_rcv_done(struct softrdma_roce_rcv_ctx *ctx);

/* receive bursts (roce_gro.c) are for the packets this says sroce takes */
bool softrdma_roce_rcv_for_host(const struct sk_buff *skb, const void *nh);

#if IS_ENABLED(CONFIG_KUNIT)
#include "counters.h"

struct kunit;
struct sock;

int softrdma_roce_rcv_parse(struct sk_buff *skb, enum softrdma_counter *drop);
void softrdma_roce_rcv_skb(struct softrdma_dev *sdev, struct sk_buff *skb);
void softrdma_roce_rcv_gso(struct sock *sk, struct softrdma_dev *sdev,
			   struct sk_buff *skb);
void softrdma_roce_rcv_sock(struct sock *sk, struct softrdma_dev *sdev,
			    struct sk_buff *skb);
void *softrdma_roce_icrc_append(struct sk_buff *skb);
int softrdma_roce_push_hdrs(struct net *net, struct sk_buff *skb,
			    const struct softrdma_roce_tx *tx,
			    struct dst_entry *dst, unsigned int segs);
struct sk_buff *softrdma_roce_burst_finish(struct net *net,
					   struct sk_buff_head *burst,
					   const struct softrdma_roce_tx *tx,
					   struct dst_entry *dst,
					   enum softrdma_counter *drop);

/* roce_net_test.c's fixtures, which roce_gro_test.c shares */
struct softrdma_dev *softrdma_roce_test_dev(struct kunit *test);
void softrdma_roce_test_dev_free(struct softrdma_dev *sdev);
struct softrdma_roce_path *softrdma_roce_test_path(struct kunit *test,
						   enum rdma_network_type type,
						   u8 peer);
struct softrdma_qp *softrdma_roce_test_rc_qp(struct kunit *test,
					     struct softrdma_dev *sdev, u32 qpn,
					     enum rdma_network_type path_type);
void softrdma_roce_test_rc_qp_remove(struct softrdma_qp *qp);
#endif

#endif /* SOFTRDMA_ROCE_NET_H */
