// SPDX-License-Identifier: GPL-2.0-only
/*
 * RoCEv2 over UDP/IP (IBA vol 1 annex A17).
 *
 * Sockets: every network namespace in which at least one sroce device's
 * netdev lives gets a UDP socket on port 4791 for IPv4 and, with IPv6
 * enabled, a v6only one for IPv6.  The first device attaching in the
 * namespace creates them, the last one detaching releases them.  A device
 * detaches when it is freed and, earlier, when its netdev unregisters or
 * leaves the namespace, so the sockets never outlive their namespace.
 *
 * Receive: GRO merges consecutive packets of one message into bursts
 * (roce_gro.c), which the IPv4 socket takes whole.  The sockets'
 * encap_rcv finds the sroce device of the ingress netdev (or of a device
 * below it: a VLAN's, macvlan's or ipvlan's real device; or, for a frame
 * the real device kept, of the upper device owning the destination
 * address), once for a burst, validates each packet, and hands it to the
 * transport (softrdma_roce_rcv_deliver()).  Every drop counts.
 *
 * Transmit: the transport builds BTH, extension headers and payload in an
 * skb from softrdma_roce_alloc_skb(); softrdma_roce_xmit() routes it out of
 * the device's netdev (or the GID's upper device) in that netdev's namespace,
 * adds UDP and IP headers and the ICRC and passes it to the IP layer.  A
 * packet the host itself drops is reported as -EAGAIN so that the sender
 * retries at once instead of waiting for a retransmit timeout.
 */
#include <linux/if_vlan.h>
#include <linux/inetdevice.h>
#include <linux/jhash.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <kunit/visibility.h>
#include <net/addrconf.h>
#include <net/dst.h>
#include <net/ip6_checksum.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/neighbour.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/route.h>
#include <net/udp.h>
#include <net/udp_tunnel.h>
#include <net/xfrm.h>
#include <trace/events/softrdma.h>
#include <rdma/ib_verbs.h>

#include "av.h"
#include "compat.h"
#include "counters.h"
#include "device.h"
#include "icrc.h"
#include "port.h"
#include "roce_dev.h"
#include "roce_gro.h"
#include "roce_hdr.h"
#include "roce_net.h"
#include "roce_opcode.h"
#include "roce_pkt.h"
#include "transport.h"

/* IBA 10.9.3: a P_Key matches the port's 0xffff if its low 15 bits do */
#define SOFTRDMA_PKEY_BASE_MASK		0x7fff

/*
 * The sockets of one network namespace.  Normally freed by the last
 * detach; if the namespace exits first (see softrdma_roce_net_exit_net()),
 * the sockets go with it and this stays, empty, until the last detach.
 */
struct softrdma_roce_socks {
	struct socket *sock4;
	struct socket *sock6;	/* NULL without IPv6 */
	unsigned int users;	/* attached devices */
	struct net *net;	/* NULL once the namespace has exited */
};

/* net_generic() storage */
struct softrdma_roce_pernet {
	struct softrdma_roce_socks *socks;
};

/*
 * protects every namespace's softrdma_roce_pernet, the softrdma_roce_socks
 * and every device's socks pointer (roce_dev.h)
 */
static DEFINE_MUTEX(softrdma_roce_net_lock);

static unsigned int softrdma_roce_net_id __read_mostly;

static int softrdma_roce_encap_rcv(struct sock *sk, struct sk_buff *skb);

static struct socket *softrdma_roce_sock_create(struct net *net, bool ipv6)
{
	struct udp_tunnel_sock_cfg tnl_cfg = {
		/* any non-zero type enables encap_rcv; 1 like other tunnels */
		.encap_type = 1,
		.encap_rcv = softrdma_roce_encap_rcv,
		.gro_receive = softrdma_roce_gro_receive,
		.gro_complete = softrdma_roce_gro_complete,
	};
	struct udp_port_cfg cfg = {
		.local_udp_port = htons(SOFTRDMA_ROCE_UDP_PORT),
	};
	struct socket *sock;
	int err;

	/*
	 * IPv6 receive accepts a zero UDP checksum (use_udp6_rx_checksums
	 * stays 0): RFC 6935/6936 allow it for tunnels, the ICRC covers the
	 * packet end to end, and hardware RoCE peers send it.
	 */
	if (ipv6) {
		cfg.family = AF_INET6;
		cfg.ipv6_v6only = 1;
	} else {
		cfg.family = AF_INET;
	}

	err = udp_sock_create(net, &cfg, &sock);
	if (err)
		return ERR_PTR(err);

	softrdma_setup_udp_tunnel_sock(net, sock, &tnl_cfg);
	/*
	 * Receive bursts (roce_gro.c) reach encap_rcv whole, to be taken
	 * apart there: they are IPv4's
	 */
	if (!ipv6)
		udp_allow_gso(sock->sk);
	return sock;
}

static void softrdma_roce_socks_release(struct softrdma_roce_socks *socks)
{
	lockdep_assert_held(&softrdma_roce_net_lock);

	if (socks->sock6)
		softrdma_udp_tunnel_sock_release(socks->sock6);
	if (socks->sock4)
		softrdma_udp_tunnel_sock_release(socks->sock4);
	socks->sock6 = NULL;
	socks->sock4 = NULL;
}

static struct softrdma_roce_socks *softrdma_roce_socks_create(struct net *net)
{
	struct softrdma_roce_socks *socks;
	struct socket *sock;

	lockdep_assert_held(&softrdma_roce_net_lock);

	socks = kzalloc(sizeof(*socks), GFP_KERNEL);
	if (!socks)
		return ERR_PTR(-ENOMEM);
	socks->net = net;

	sock = softrdma_roce_sock_create(net, false);
	if (IS_ERR(sock))
		goto out_free;
	socks->sock4 = sock;

	if (IS_ENABLED(CONFIG_IPV6) && ipv6_mod_enabled()) {
		sock = softrdma_roce_sock_create(net, true);
		if (IS_ERR(sock))
			goto out_release;
		socks->sock6 = sock;
	}
	return socks;

out_release:
	softrdma_roce_socks_release(socks);
out_free:
	kfree(socks);
	pr_err("softrdma: cannot open UDP port %u%s: %ld\n",
	       SOFTRDMA_ROCE_UDP_PORT,
	       PTR_ERR(sock) == -EADDRINUSE ?
	       " (in use in this network namespace)" : "", PTR_ERR(sock));
	return ERR_CAST(sock);
}

/**
 * softrdma_roce_net_attach() - give a RoCE device its namespace's sockets
 * @sdev: the device, not registered yet
 *
 * Opens UDP port 4791 in the namespace of @sdev's netdev unless another
 * device there has done so already.
 *
 * Context: process; may sleep.
 * Return: 0, or -errno (-EADDRINUSE if something else holds the port).
 */
int softrdma_roce_net_attach(struct softrdma_dev *sdev)
{
	struct net *net = dev_net(sdev->ndev);
	struct softrdma_roce_socks *socks;
	struct softrdma_roce_pernet *pn;
	int err = 0;

	mutex_lock(&softrdma_roce_net_lock);
	if (WARN_ON(to_roce_dev(sdev)->socks)) {
		err = -EBUSY;
		goto out_unlock;
	}

	pn = net_generic(net, softrdma_roce_net_id);
	socks = pn->socks;
	if (!socks) {
		socks = softrdma_roce_socks_create(net);
		if (IS_ERR(socks)) {
			err = PTR_ERR(socks);
			goto out_unlock;
		}
		pn->socks = socks;
	}
	socks->users++;
	to_roce_dev(sdev)->socks = socks;

out_unlock:
	mutex_unlock(&softrdma_roce_net_lock);
	return err;
}

/**
 * softrdma_roce_net_detach() - a RoCE device stops using its sockets
 * @sdev: the device
 *
 * Releases the namespace's sockets with the last device.  Idempotent: the
 * netdev notifier detaches on NETDEV_UNREGISTER (the netdev leaves its
 * namespace or goes away) and dealloc_driver detaches again.
 *
 * Context: process; may sleep; RTNL may be held.
 */
void softrdma_roce_net_detach(struct softrdma_dev *sdev)
{
	struct softrdma_roce_socks *socks;
	struct softrdma_roce_pernet *pn;

	mutex_lock(&softrdma_roce_net_lock);
	socks = to_roce_dev(sdev)->socks;
	if (!socks)
		goto out_unlock;
	to_roce_dev(sdev)->socks = NULL;
	if (--socks->users)
		goto out_unlock;

	if (socks->net) {
		pn = net_generic(socks->net, softrdma_roce_net_id);
		pn->socks = NULL;
	}
	softrdma_roce_socks_release(socks);
	kfree(socks);

out_unlock:
	mutex_unlock(&softrdma_roce_net_lock);
}

/*
 * A namespace exits after its netdevs unregistered, which detached their
 * devices; anything still here belongs to a device whose detach is late.
 */
static void __net_exit softrdma_roce_net_exit_net(struct net *net)
{
	struct softrdma_roce_pernet *pn = net_generic(net, softrdma_roce_net_id);
	struct softrdma_roce_socks *socks;

	mutex_lock(&softrdma_roce_net_lock);
	socks = pn->socks;
	if (socks) {
		softrdma_roce_socks_release(socks);
		socks->net = NULL;
		pn->socks = NULL;
	}
	mutex_unlock(&softrdma_roce_net_lock);
}

static struct pernet_operations softrdma_roce_net_ops = {
	.exit = softrdma_roce_net_exit_net,
	.id = &softrdma_roce_net_id,
	.size = sizeof(struct softrdma_roce_pernet),
};

int softrdma_roce_net_init(void)
{
	return register_pernet_subsys(&softrdma_roce_net_ops);
}

void softrdma_roce_net_exit(void)
{
	unregister_pernet_subsys(&softrdma_roce_net_ops);
	/* no CPU may still be in encap_rcv when the module text goes */
	synchronize_net();
	/* nor in softrdma_roce_path_free_rcu() */
	rcu_barrier();
}

/* Receive */

/**
 * softrdma_roce_rcv_parse() - validate a received RoCEv2 packet
 * @skb: the UDP datagram; skb->data at the UDP header, the network header
 *	set; on success moved to the BTH as roce_pkt.h describes
 * @drop: on failure, the counter naming the reason
 *
 * Checks, in order: that the host can read every byte (not so for page
 * frags of device memory, such as a devmem TCP receive queue's, from
 * 6.12 on: neither the ICRC nor the payload could be read), the UDP
 * length against the datagram, room for a BTH and ICRC, the ICRC (A17.8;
 * before anything else in the packet is trusted), TVer (9.2), the
 * opcode, room for its headers and pad, the P_Key (9.6.1.1 / 10.9.3).
 * Each packet of a receive burst is parsed on its own, its own frags
 * tested.  Payload rules that need QP state (path MTU, opcode sequence)
 * are the transport's.
 *
 * Return: 0 with the skb's softrdma_roce_pkt filled (but for sdev), or
 * -EINVAL with @drop set.
 */
VISIBLE_IF_KUNIT int softrdma_roce_rcv_parse(struct sk_buff *skb,
					     enum softrdma_counter *drop)
{
	struct softrdma_roce_pkt *pkt = softrdma_roce_pkt(skb);
	enum softrdma_icrc_verdict icrc;
	const struct softrdma_bth *bth;
	unsigned int ulen, ib_len;
	unsigned int hdr_len;
	u8 opcode, pad;

	if (!skb_frags_readable(skb)) {
		*drop = SOFTRDMA_CNT_RCV_UNREADABLE;
		return -EINVAL;
	}
	if (!pskb_may_pull(skb, sizeof(struct udphdr))) {
		*drop = SOFTRDMA_CNT_RCV_TRUNCATED;
		return -EINVAL;
	}
	skb_reset_transport_header(skb);
	ulen = ntohs(udp_hdr(skb)->len);
	if (ulen != skb->len || ulen < sizeof(struct udphdr)) {
		*drop = SOFTRDMA_CNT_RCV_BAD_UDP_LEN;
		return -EINVAL;
	}
	ib_len = ulen - sizeof(struct udphdr);
	if (ib_len < sizeof(*bth) + ROCE_ICRC_SIZE) {
		*drop = SOFTRDMA_CNT_RCV_TRUNCATED;
		return -EINVAL;
	}
	if (!pskb_may_pull(skb, sizeof(struct udphdr) + sizeof(*bth))) {
		*drop = SOFTRDMA_CNT_RCV_NOMEM;
		return -EINVAL;
	}
	icrc = softrdma_icrc_check(skb);
	if (icrc == SOFTRDMA_ICRC_BAD) {
		*drop = SOFTRDMA_CNT_RCV_ICRC_ERR;
		return -EINVAL;
	}
	pkt->icrc_rxe_flush = icrc == SOFTRDMA_ICRC_RXE_FLUSH;
	__skb_pull(skb, sizeof(struct udphdr));

	bth = (const struct softrdma_bth *)skb->data;
	if (softrdma_bth_tver(bth) != SOFTRDMA_BTH_TVER) {
		*drop = SOFTRDMA_CNT_RCV_BAD_TVER;
		return -EINVAL;
	}
	opcode = softrdma_bth_opcode(bth);
	if (!softrdma_roce_opcode_valid(opcode)) {
		*drop = SOFTRDMA_CNT_RCV_BAD_OPCODE;
		return -EINVAL;
	}
	hdr_len = softrdma_roce_hdr_len(opcode);
	pad = softrdma_bth_pad(bth);
	if (ib_len < hdr_len + pad + ROCE_ICRC_SIZE) {
		*drop = SOFTRDMA_CNT_RCV_TRUNCATED;
		return -EINVAL;
	}
	if ((softrdma_bth_pkey(bth) & SOFTRDMA_PKEY_BASE_MASK) !=
	    SOFTRDMA_PKEY_BASE_MASK) {
		*drop = SOFTRDMA_CNT_RCV_BAD_PKEY;
		return -EINVAL;
	}
	/* headers linear, payload where it is */
	if (!pskb_may_pull(skb, hdr_len)) {
		*drop = SOFTRDMA_CNT_RCV_NOMEM;
		return -EINVAL;
	}
	bth = (const struct softrdma_bth *)skb->data;

	pkt->psn = softrdma_bth_psn(bth);
	pkt->qpn = softrdma_bth_qpn(bth);
	pkt->hdr_len = hdr_len;
	pkt->payload_len = ib_len - hdr_len - pad - ROCE_ICRC_SIZE;
	pkt->opcode = opcode;
	pkt->pad = pad;
	pkt->network_type = ip_hdr(skb)->version == 4 ? RDMA_NETWORK_IPV4 :
							 RDMA_NETWORK_IPV6;

	if (pskb_trim_rcsum(skb, hdr_len + pkt->payload_len)) {
		*drop = SOFTRDMA_CNT_RCV_NOMEM;
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_roce_rcv_parse);

/*
 * Count one RoCEv2 datagram, validate it and hand it to the transport
 * through @ctx, or count the drop and free it.
 */
static void softrdma_roce_rcv_one(struct softrdma_roce_rcv_ctx *ctx,
				  struct sk_buff *skb)
{
	struct softrdma_dev *sdev = ctx->sdev;
	enum softrdma_counter drop;

	softrdma_counter_inc(sdev, SOFTRDMA_CNT_RCV_PACKETS);
	if (skb->len > sizeof(struct udphdr))
		softrdma_counter_add(sdev, SOFTRDMA_CNT_RCV_BYTES,
				     skb->len - sizeof(struct udphdr));

	if (softrdma_roce_rcv_parse(skb, &drop)) {
		softrdma_counter_inc(sdev, drop);
		trace_softrdma_drop(&sdev->ibdev, softrdma_counter_name(drop));
		ibdev_dbg_ratelimited(&sdev->ibdev, "dropped a packet: %s\n",
				      softrdma_counter_name(drop));
		kfree_skb(skb);
		return;
	}

	if (softrdma_roce_pkt(skb)->icrc_rxe_flush)
		softrdma_counter_inc(sdev, SOFTRDMA_CNT_RCV_ICRC_RXE_FLUSH);
	softrdma_roce_pkt(skb)->sdev = sdev;
	softrdma_roce_rcv_deliver(ctx, skb);
}

/**
 * softrdma_roce_rcv_skb() - receive one RoCEv2 datagram on a device
 * @sdev: the device; the caller's reference is dropped
 * @skb: as for softrdma_roce_rcv_parse()
 *
 * Counts it, validates it and hands it to the transport, or counts the
 * drop and frees it.
 *
 * Context: softirq, or BHs disabled.
 */
VISIBLE_IF_KUNIT void softrdma_roce_rcv_skb(struct softrdma_dev *sdev,
					    struct sk_buff *skb)
{
	struct softrdma_roce_rcv_ctx ctx = { .sdev = sdev };

	rcu_read_lock();
	softrdma_roce_rcv_one(&ctx, skb);
	softrdma_roce_rcv_done(&ctx);
	rcu_read_unlock();
	softrdma_dev_put(sdev);
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_roce_rcv_skb);

/**
 * softrdma_roce_rcv_burst() - receive the packets of a burst on a device
 * @sdev: the device, referenced by the caller
 * @skb: a burst softrdma_roce_gro_walkable() takes, skb->data at the
 *	head's UDP header
 *
 * Each packet, the head first and then the members in the order
 * received, is counted, validated (its ICRC over its own headers) and
 * handed to the transport, or counted as dropped, exactly as when it
 * comes alone; the QP lookup is shared while they are for one QP.
 *
 * Context: softirq, or BHs disabled; under rcu_read_lock().
 */
static void softrdma_roce_rcv_burst(struct softrdma_dev *sdev,
				    struct sk_buff *skb)
{
	struct softrdma_roce_rcv_ctx ctx = { .sdev = sdev };
	struct softrdma_roce_gro_split split;
	struct sk_buff *next;

	next = softrdma_roce_gro_split(&split, skb);
	softrdma_roce_rcv_one(&ctx, skb);
	while ((skb = next)) {
		next = skb->next;
		skb_mark_not_on_list(skb);
		softrdma_roce_gro_member(&split, skb);
		softrdma_roce_rcv_one(&ctx, skb);
	}
	softrdma_roce_rcv_done(&ctx);
}

/**
 * softrdma_roce_path_rcv_ok() - did a packet come from a path's peer
 * @path: a connected QP's path
 * @skb: a packet for that QP, its IP header intact (roce_pkt.h)
 *
 * A connected QP talks to one peer: its IP source must be the path's
 * destination and its IP destination the path's source, the QP's GID
 * (IPv4 addresses for IPv4-mapped GIDs, as the path holds them).  Anyone
 * else could otherwise address the QP by number and, at the right PSN,
 * fail it, forge its responses or have it send data to a third party.
 * Packets delivered locally (loopback) carry the same addresses.
 *
 * Return: true if the addresses are the path's, reversed.
 */
bool softrdma_roce_path_rcv_ok(const struct softrdma_roce_path *path,
			       const struct sk_buff *skb)
{
	const struct softrdma_roce_pkt *pkt = (const void *)skb->cb;
	const struct softrdma_roce_tx *tx = &path->tx;

	if (tx->network_type != pkt->network_type)
		return false;
	if (tx->network_type == RDMA_NETWORK_IPV4)
		return ip_hdr(skb)->saddr == tx->daddr.v4.s_addr &&
		       ip_hdr(skb)->daddr == tx->saddr.v4.s_addr;
	return ipv6_addr_equal(&ipv6_hdr(skb)->saddr, &tx->daddr.v6) &&
	       ipv6_addr_equal(&ipv6_hdr(skb)->daddr, &tx->saddr.v6);
}

/*
 * The sroce device serving a netdev's addresses: the one on the netdev,
 * else the one below it in its namespace, down a chain of devices with one
 * lower each (a VLAN's, macvlan's or ipvlan's real device), as the RDMA
 * core gives the RoCE device of a netdev the addresses of its upper
 * devices as GIDs.  A device with several lowers (a bridge, a bond) ends
 * the walk: which of its ports' devices would own its addresses is not
 * defined, and a peer's junk must not cost a walk over every port.  A
 * bond's device sits on the bond itself (link.c refuses its ports), and
 * the bond hands up what its active port receives with the bond as the
 * ingress netdev, so the walk finds it at once, or below a VLAN on it.
 *
 * Context: under rcu_read_lock().
 * Return: a counted reference, or NULL.
 */
static struct softrdma_dev *softrdma_roce_dev_of(struct net_device *ndev)
{
	const struct net *net = dev_net(ndev);
	struct softrdma_dev *sdev;
	struct net_device *lower;
	struct list_head *iter;
	int depth;

	for (depth = 0; depth <= MAX_NEST_DEV; depth++) {
		sdev = softrdma_dev_get(ndev, &softrdma_roce_transport);
		if (sdev)
			return sdev;
		iter = &ndev->adj_list.lower;
		lower = netdev_next_lower_dev_rcu(ndev, &iter);
		if (!lower || netdev_next_lower_dev_rcu(ndev, &iter) ||
		    !net_eq(dev_net(lower), net))
			return NULL;
		ndev = lower;
	}
	return NULL;
}

/*
 * The netdev in @net owning the destination address of the IP header at
 * @nh, or NULL.
 *
 * Context: under rcu_read_lock().
 */
static struct net_device *softrdma_roce_daddr_dev(struct net *net,
						  const void *nh)
{
	const struct iphdr *iph = nh;
	struct net_device *ndev = NULL;

	if (iph->version == 4)
		ndev = __ip_dev_find(net, iph->daddr, false);
#if IS_ENABLED(CONFIG_IPV6)
	else
		ndev = softrdma_ipv6_dev_find(net,
					      &((const struct ipv6hdr *)nh)->daddr);
#endif
	return IS_ERR(ndev) ? NULL : ndev;
}

/*
 * The netdev owning a received packet's destination address, if it sits
 * on top of the ingress netdev.  Linux answers ARP for any of its
 * addresses on any interface by default (arp_ignore 0), so a peer may have
 * learnt the real device's MAC for a macvlan's address; the frame then
 * stays on the real device, which IP accepts (the weak host model), and
 * the macvlan's device must take it.  A frame that came in on an
 * unrelated netdev is not taken.
 *
 * Context: under rcu_read_lock().
 */
static struct net_device *softrdma_roce_upper_of_daddr(struct sk_buff *skb)
{
	struct net_device *ndev;

	ndev = softrdma_roce_daddr_dev(dev_net(skb->dev),
				       skb_network_header(skb));
	if (!ndev || ndev == skb->dev ||
	    !netdev_has_upper_dev_all_rcu(skb->dev, ndev))
		return NULL;
	return ndev;
}

/**
 * softrdma_roce_rcv_for_host() - is a packet in GRO one for sroce here
 * @skb: a received RoCE packet, skb->dev its ingress netdev
 * @nh: its IP header
 *
 * Receive bursts (roce_gro.c) are for the packets encap_rcv would take: a
 * frame to this host (not another's seen in promiscuous mode, not
 * broadcast or multicast), to an address of the ingress netdev's
 * namespace, on a netdev whose sroce device encap_rcv finds (its own or a
 * lower's; or that of the upper netdev owning the address).  Everything
 * else, RoCE that the host routes or bridges or that arrives on a netdev
 * without sroce, goes through GRO untouched.
 *
 * Context: NAPI poll, softirq, under rcu_read_lock().
 * Return: true if encap_rcv would hand the packet to a device.
 */
bool softrdma_roce_rcv_for_host(const struct sk_buff *skb, const void *nh)
{
	struct net_device *ndev = skb->dev, *owner;
	struct softrdma_dev *sdev;

	if (skb->pkt_type != PACKET_HOST)
		return false;
	owner = softrdma_roce_daddr_dev(dev_net(ndev), nh);
	if (!owner)
		return false;
	sdev = softrdma_roce_dev_of(ndev);
	if (!sdev && owner != ndev &&
	    netdev_has_upper_dev_all_rcu(ndev, owner))
		sdev = softrdma_roce_dev_of(owner);
	if (!sdev)
		return false;
	softrdma_dev_put(sdev);
	return true;
}

/*
 * The device that takes a datagram, referenced, or NULL.  The ingress
 * netdev's own device first: with devices on both a real device and a
 * macvlan on it, a frame the real device kept is for the real device's,
 * which has the macvlan's addresses as GIDs.
 *
 * Context: under rcu_read_lock().
 */
static struct softrdma_dev *softrdma_roce_rcv_dev(struct sk_buff *skb)
{
	struct softrdma_dev *sdev;
	struct net_device *upper;

	sdev = softrdma_roce_dev_of(skb->dev);
	if (!sdev) {
		upper = softrdma_roce_upper_of_daddr(skb);
		sdev = upper ? softrdma_roce_dev_of(upper) : NULL;
	}
	return sdev;
}

/* a datagram UDP would drop before encap_rcv, counted as UDP counts it */
static void softrdma_roce_udp_drop(struct sock *sk, struct sk_buff *skb,
				   bool csum)
{
	if (csum)
		__UDP_INC_STATS(sock_net(sk), UDP_MIB_CSUMERRORS, 0);
	__UDP_INC_STATS(sock_net(sk), UDP_MIB_INERRORS, 0);
	atomic_inc(&sk->sk_drops);
	kfree_skb(skb);
}

/*
 * A GSO skb that is no burst of roce_gro.c's shape, or one the walk
 * cannot take apart as segmentation would: segmented as UDP segments
 * what a socket that takes no GSO skbs gets (udp_queue_rcv_skb()), and
 * each datagram checked as UDP checks it before encap_rcv
 * (udp_queue_rcv_one_skb(): IPsec policy, conntrack reference, checksum)
 * and received alone on @sdev.
 */
static void softrdma_roce_rcv_segment(struct sock *sk,
				      struct softrdma_dev *sdev,
				      struct sk_buff *skb)
{
	struct softrdma_roce_rcv_ctx ctx = { .sdev = sdev };
	struct sk_buff *segs, *next;

	__skb_push(skb, -skb_mac_offset(skb));
	segs = udp_rcv_segment(sk, skb, true);
	skb_list_walk_safe(segs, skb, next) {
		skb_mark_not_on_list(skb);
		__skb_pull(skb, skb_transport_offset(skb));
		udp_post_segment_fix_csum(skb);
		if (!xfrm4_policy_check(sk, XFRM_POLICY_IN, skb)) {
			softrdma_roce_udp_drop(sk, skb, false);
			continue;
		}
		nf_reset_ct(skb);
		if (udp_lib_checksum_complete(skb)) {
			softrdma_roce_udp_drop(sk, skb, true);
			continue;
		}
		softrdma_roce_rcv_one(&ctx, skb);
	}
	softrdma_roce_rcv_done(&ctx);
}

/**
 * softrdma_roce_rcv_gso() - receive a GSO skb UDP would have segmented
 * @sk: the IPv4 RoCE socket
 * @sdev: the device that takes its head, referenced by the caller
 * @skb: skb->data at the head's UDP header
 *
 * A receive burst (roce_gro.c) is taken apart, anything else segmented;
 * either way each packet is received as when it comes alone.  Every
 * packet has the head's ingress netdev, and the destination address the
 * IP layer delivered the skb by (segmentation rewrites the members' to
 * the head's when the first differs): the head's device takes them all.
 *
 * Context: softirq; under rcu_read_lock().
 */
VISIBLE_IF_KUNIT void softrdma_roce_rcv_gso(struct sock *sk,
					    struct softrdma_dev *sdev,
					    struct sk_buff *skb)
{
	if (softrdma_roce_gro_walkable(skb))
		softrdma_roce_rcv_burst(sdev, skb);
	else
		softrdma_roce_rcv_segment(sk, sdev, skb);
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_roce_rcv_gso);

/**
 * softrdma_roce_rcv_sock() - receive what a RoCE socket got, on a device
 * @sk: the socket
 * @sdev: the device that takes it, referenced by the caller
 * @skb: a datagram or a GSO skb, skb->data at the (head's) UDP header
 *
 * The IPv4 socket takes GSO skbs (softrdma_roce_sock_create()): what UDP
 * would have segmented (udp_unexpected_gso()), of any GSO type, goes to
 * softrdma_roce_rcv_gso().  Anything else is one datagram.
 *
 * Context: softirq, or BHs disabled; under rcu_read_lock().
 */
VISIBLE_IF_KUNIT void softrdma_roce_rcv_sock(struct sock *sk,
					     struct softrdma_dev *sdev,
					     struct sk_buff *skb)
{
	struct softrdma_roce_rcv_ctx ctx = { .sdev = sdev };

	if (skb_is_gso(skb) && sk->sk_family == AF_INET) {
		softrdma_roce_rcv_gso(sk, sdev, skb);
		return;
	}
	softrdma_roce_rcv_one(&ctx, skb);
	softrdma_roce_rcv_done(&ctx);
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_roce_rcv_sock);

/*
 * udp_tunnel encap_rcv: skb->data at the UDP header, its checksum checked
 * by UDP, under rcu_read_lock().
 * Returns 0: the packet is consumed, whatever became of it.
 */
static int softrdma_roce_encap_rcv(struct sock *sk, struct sk_buff *skb)
{
	struct softrdma_dev *sdev = softrdma_roce_rcv_dev(skb);

	/* no device here to count it against: a netdev without sroce */
	if (!sdev) {
		kfree_skb(skb);
		return 0;
	}
	softrdma_roce_rcv_sock(sk, sdev, skb);
	softrdma_dev_put(sdev);
	return 0;
}

/* Transmit */

/**
 * softrdma_roce_path_mtu() - largest IB MTU a RoCEv2 packet can carry
 * @netdev_mtu: MTU of the Ethernet device, in bytes
 *
 * A full-size payload plus the worst-case headers must fit in one frame:
 * 1500 gives 1024 (as every RoCE device reports on a standard link),
 * 4180 or more gives 4096 (jumbo links).  Anything smaller than what a
 * 256-byte payload needs still reports 256, the IBA minimum: such a link
 * cannot carry full packets, and the transmit path drops and counts them.
 */
enum ib_mtu softrdma_roce_path_mtu(unsigned int netdev_mtu)
{
	return softrdma_port_mtu_within((int)netdev_mtu -
					SOFTRDMA_ROCE_MAX_HDR_BYTES);
}

/**
 * softrdma_roce_src_port() - the UDP source port of a flow
 * @qpn_a: one end's QP number
 * @qpn_b: the other end's (or 0 when unknown, as for UD)
 *
 * A17.4.3: the source port carries flow entropy for ECMP and RSS, from the
 * range 0xC000 - 0xFFFF.  Fixed per QP pair, so that a flow keeps its path
 * and stays in order.
 *
 * Return: the port, in host order.
 */
u16 softrdma_roce_src_port(u32 qpn_a, u32 qpn_b)
{
	u32 hash = jhash_2words(qpn_a, qpn_b, 0);

	/* fold all 32 bits into 14 */
	hash ^= hash >> SOFTRDMA_ROCE_SPORT_BITS;
	hash ^= hash >> (2 * SOFTRDMA_ROCE_SPORT_BITS);
	return SOFTRDMA_ROCE_SPORT_MIN |
	       (hash & GENMASK(SOFTRDMA_ROCE_SPORT_BITS - 1, 0));
}

/**
 * softrdma_roce_tx_set() - where packets to an address vector go
 * @tx: filled in
 * @av: the address vector
 * @src_port: the flow's UDP source port
 */
void softrdma_roce_tx_set(struct softrdma_roce_tx *tx,
			  const struct softrdma_av *av, u16 src_port)
{
	memset(tx, 0, sizeof(*tx));
	tx->saddr = av->saddr;
	tx->daddr = av->daddr;
	tx->flow_label = av->flow_label;
	tx->ifindex = av->ifindex;
	tx->src_port = src_port;
	tx->network_type = av->network_type;
	tx->traffic_class = av->traffic_class;
	tx->hop_limit = av->hop_limit;
}

/**
 * softrdma_roce_path_alloc() - an empty path, for softrdma_roce_tx_set()
 *
 * Context: process; may sleep.
 * Return: the path, or NULL.
 */
struct softrdma_roce_path *softrdma_roce_path_alloc(void)
{
	struct softrdma_roce_path *path;

	path = kzalloc(sizeof(*path), GFP_KERNEL);
	if (!path)
		return NULL;
	if (dst_cache_init(&path->route, GFP_KERNEL)) {
		kfree(path);
		return NULL;
	}
	return path;
}

static void softrdma_roce_path_free_rcu(struct rcu_head *head)
{
	struct softrdma_roce_path *path =
		container_of(head, struct softrdma_roce_path, rcu);

	dst_cache_destroy(&path->route);
	kfree(path);
}

/**
 * softrdma_roce_path_free() - free a path once no reader can see it
 * @path: unpublished, or NULL
 *
 * Context: any.
 */
void softrdma_roce_path_free(struct softrdma_roce_path *path)
{
	if (path)
		call_rcu(&path->rcu, softrdma_roce_path_free_rcu);
}

static unsigned int softrdma_roce_ip_hdr_len(const struct softrdma_roce_tx *tx)
{
	return tx->network_type == RDMA_NETWORK_IPV4 ? sizeof(struct iphdr) :
						       sizeof(struct ipv6hdr);
}

static struct softrdma_roce_tx *softrdma_roce_tx_cb(struct sk_buff *skb)
{
	return (struct softrdma_roce_tx *)skb->cb;
}

/**
 * softrdma_roce_tx_sg() - may a packet carry its payload in page frags
 * @sdev: the sending device
 * @tx: where the packet goes
 *
 * A device without scatter-gather (NETIF_F_SG) has every skb with page
 * frags copied into a new linear buffer before it sends it
 * (validate_xmit_skb(); skb_segment_list() for each packet of a burst).
 * A packet for such a device is better built linear from the start: its
 * payload copied once, into a head sized for it, with the ICRC in the
 * tailroom.  The packet leaves through the GID's netdev (@tx->ifindex: an
 * upper device such as a VLAN, macvlan or ipvlan) and then the device's
 * own netdev below it: both must take frags.  A device deeper in a stack
 * of uppers or below a bond, or features changed after the packet was
 * built, cost no more than the host's copy: any device sends either
 * shape.  A packet routed back to this host (loopback) takes either.
 *
 * Context: any.
 * Return: true if page frags reach the devices as they are.
 */
bool softrdma_roce_tx_sg(const struct softrdma_dev *sdev,
			 const struct softrdma_roce_tx *tx)
{
	const struct net_device *ndev = sdev->ndev, *upper;
	bool sg;

	if (!(READ_ONCE(ndev->features) & NETIF_F_SG))
		return false;
	if (!tx->ifindex || tx->ifindex == ndev->ifindex)
		return true;
	rcu_read_lock();
	upper = dev_get_by_index_rcu(dev_net(ndev), tx->ifindex);
	sg = upper && (READ_ONCE(upper->features) & NETIF_F_SG);
	rcu_read_unlock();
	return sg;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_roce_tx_sg);

/*
 * An skb with a head of @size bytes, carved from the per-CPU page
 * fragment cache as a received packet's (__netdev_alloc_skb()) rather
 * than kmalloc()ed: no rounding up to the next power of two, and the
 * memory is zeroed when the cache takes new pages (init_on_alloc), not
 * at every packet as a kmalloc()ed head is (a jumbo packet built linear
 * would have its 8 KiB slab object cleared per packet), and not at all
 * when the cache reuses pages all of whose packets have been freed.  The
 * cache serves up to PAGE_FRAG_CACHE_MAX_SIZE when it holds a compound
 * page; when it cannot (memory short of such pages), or for a larger
 * head, the head is kmalloc()ed.
 */
static struct sk_buff *softrdma_roce_skb_head(unsigned int size)
{
	unsigned int fragsz = SKB_DATA_ALIGN(size) +
			      SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
	struct sk_buff *skb;
	void *data;

	if (fragsz > PAGE_FRAG_CACHE_MAX_SIZE)
		return alloc_skb(size, GFP_ATOMIC);
	data = netdev_alloc_frag(fragsz);
	if (!data)
		return fragsz > PAGE_SIZE ? alloc_skb(size, GFP_ATOMIC) : NULL;
	skb = build_skb(data, fragsz);
	if (!skb)
		skb_free_frag(data);
	return skb;
}

/**
 * softrdma_roce_alloc_skb() - an skb for one outgoing RoCEv2 packet
 * @sdev: the sending device
 * @tx: where it goes; the skb keeps a copy, which softrdma_roce_xmit()
 *	uses
 * @ib_hdr_len: bytes of BTH and extension headers
 * @payload_len: bytes of payload and pad the caller will copy into the
 *	linear area; 0 if it attaches the payload as page frags instead (at
 *	most MAX_SKB_FRAGS - 1 of them: the ICRC may need one more), which
 *	only pays when softrdma_roce_tx_sg() says so
 *
 * Headroom for the link, IP and UDP headers and tailroom for the ICRC are
 * reserved.  On return skb->data points at @ib_hdr_len zeroed bytes for
 * the caller's headers (skb->len == @ib_hdr_len); the caller then appends
 * payload and pad and passes the skb to softrdma_roce_xmit().
 *
 * Context: any.
 * Return: the skb, or NULL (counted as xmit_nomem).
 */
struct sk_buff *softrdma_roce_alloc_skb(struct softrdma_dev *sdev,
					const struct softrdma_roce_tx *tx,
					unsigned int ib_hdr_len,
					unsigned int payload_len)
{
	struct net_device *ndev = sdev->ndev;
	unsigned int headroom;
	struct sk_buff *skb;

	headroom = LL_RESERVED_SPACE(ndev);
	if (tx->ifindex && tx->ifindex != ndev->ifindex)
		headroom += VLAN_HLEN;
	/*
	 * A packet of a burst keeps its own headers, and segmentation copies
	 * the link and tunnel headers of wherever the burst leaves in front
	 * of them (skb_segment_list(), unchecked): room for any, as a
	 * received skb has
	 */
	headroom = max_t(unsigned int, headroom, MAX_HEADER) +
		   softrdma_roce_ip_hdr_len(tx) + sizeof(struct udphdr);

	skb = softrdma_roce_skb_head(headroom + ib_hdr_len + payload_len +
				     ROCE_ICRC_SIZE);
	if (!skb) {
		softrdma_counter_inc(sdev, SOFTRDMA_CNT_XMIT_NOMEM);
		return NULL;
	}
	skb_reserve(skb, headroom);
	skb_put_zero(skb, ib_hdr_len);
	memcpy(softrdma_roce_tx_cb(skb), tx, sizeof(*tx));
	return skb;
}

/*
 * Append room for the ICRC: in the linear tail, or as one more page frag
 * when the payload is in frags.  Returns where the ICRC goes.
 */
VISIBLE_IF_KUNIT void *softrdma_roce_icrc_append(struct sk_buff *skb)
{
	struct page *page;
	void *p;

	if (!skb_is_nonlinear(skb)) {
		if (skb_tailroom(skb) < ROCE_ICRC_SIZE &&
		    pskb_expand_head(skb, 0, ROCE_ICRC_SIZE, GFP_ATOMIC))
			return NULL;
		return skb_put(skb, ROCE_ICRC_SIZE);
	}

	if (skb_shinfo(skb)->nr_frags >= MAX_SKB_FRAGS ||
	    skb_has_frag_list(skb))
		return NULL;
	p = netdev_alloc_frag(ROCE_ICRC_SIZE);
	if (!p)
		return NULL;
	page = virt_to_head_page(p);
	skb_add_rx_frag(skb, skb_shinfo(skb)->nr_frags, page,
			p - page_address(page), ROCE_ICRC_SIZE,
			SKB_DATA_ALIGN(ROCE_ICRC_SIZE));
	return p;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_roce_icrc_append);

static void softrdma_roce_push_udp(struct sk_buff *skb, u16 src_port)
{
	struct udphdr *uh;

	__skb_push(skb, sizeof(*uh));
	skb_reset_transport_header(skb);
	uh = udp_hdr(skb);
	uh->source = htons(src_port);
	uh->dest = htons(SOFTRDMA_ROCE_UDP_PORT);
	uh->len = htons(skb->len);
	uh->check = 0;
}

/* Routing: the GID's netdev is the only way out, in its netdev's netns. */
static struct dst_entry *softrdma_roce_route4(struct net *net,
					      const struct softrdma_roce_tx *tx,
					      int oif)
{
	struct flowi4 fl4 = {
		.flowi4_oif = oif,
		SOFTRDMA_FLOWI4_TCLASS(tx->traffic_class),
		.flowi4_proto = IPPROTO_UDP,
		.saddr = tx->saddr.v4.s_addr,
		.daddr = tx->daddr.v4.s_addr,
		.fl4_sport = htons(tx->src_port),
		.fl4_dport = htons(SOFTRDMA_ROCE_UDP_PORT),
	};
	struct rtable *rt;

	rt = ip_route_output_key(net, &fl4);
	return IS_ERR(rt) ? ERR_CAST(rt) : &rt->dst;
}

static struct dst_entry *softrdma_roce_route6(struct net *net,
					      const struct softrdma_roce_tx *tx,
					      int oif)
{
#if IS_ENABLED(CONFIG_IPV6)
	struct flowi6 fl6 = {
		.flowi6_oif = oif,
		.flowi6_proto = IPPROTO_UDP,
		.flowlabel = ip6_make_flowinfo(tx->traffic_class,
					       htonl(tx->flow_label)),
		.saddr = tx->saddr.v6,
		.daddr = tx->daddr.v6,
		.fl6_sport = htons(tx->src_port),
		.fl6_dport = htons(SOFTRDMA_ROCE_UDP_PORT),
	};
	struct dst_entry *dst;

	dst = softrdma_ip6_dst_lookup_flow(net, &fl6);
	if (IS_ERR(dst))
		return dst;
	if (dst->error) {
		dst_release(dst);
		return ERR_PTR(-EHOSTUNREACH);
	}
	return dst;
#else
	return ERR_PTR(-EAFNOSUPPORT);
#endif
}

/*
 * The route of @tx, from @cache when it holds a valid one.  A flow's
 * lookup keys (addresses, interface, traffic class, flow label, ports)
 * stay the same from packet to packet, so a full FIB lookup, a cost on
 * the path of every packet, is needed only after
 * the routing tables changed: the dst_cache then finds its entry stale
 * (IPv4 route generation, IPv6 fib serial number) and it is looked up
 * again.  @cache belongs to @tx alone (struct softrdma_roce_path): a
 * route of one IP version is never taken for the other's.
 */
static struct dst_entry *softrdma_roce_route(struct net *net,
					     const struct softrdma_roce_tx *tx,
					     int oif, struct dst_cache *cache)
{
	struct dst_entry *dst = NULL;
	struct in6_addr saddr6;
	__be32 saddr4;

	/* the cache is per CPU */
	local_bh_disable();
	if (cache && tx->network_type == RDMA_NETWORK_IPV4) {
		struct rtable *rt = dst_cache_get_ip4(cache, &saddr4);

		dst = rt ? &rt->dst : NULL;
	} else if (IS_ENABLED(CONFIG_IPV6) && cache) {
		dst = dst_cache_get_ip6(cache, &saddr6);
	}
	if (dst)
		goto out;

	if (tx->network_type == RDMA_NETWORK_IPV4)
		dst = softrdma_roce_route4(net, tx, oif);
	else
		dst = softrdma_roce_route6(net, tx, oif);
	if (!cache || IS_ERR(dst))
		goto out;
	if (tx->network_type == RDMA_NETWORK_IPV4)
		dst_cache_set_ip4(cache, dst, tx->saddr.v4.s_addr);
	else if (IS_ENABLED(CONFIG_IPV6))
		dst_cache_set_ip6(cache, dst, &tx->saddr.v6);
out:
	local_bh_enable();
	return dst;
}

/* the IPv4 header; the UDP checksum is zero, as A17.4.2 allows */
static void softrdma_roce_push_ip4(struct net *net, struct sk_buff *skb,
				   const struct softrdma_roce_tx *tx,
				   struct dst_entry *dst, unsigned int segs)
{
	struct iphdr *iph;

	__skb_push(skb, sizeof(*iph));
	skb_reset_network_header(skb);
	iph = ip_hdr(skb);
	iph->version = 4;
	iph->ihl = sizeof(*iph) >> 2;
	iph->tos = tx->traffic_class;
	iph->tot_len = htons(skb->len);
	iph->frag_off = htons(IP_DF);
	iph->ttl = tx->hop_limit ?: ip4_dst_hoplimit(dst);
	iph->protocol = IPPROTO_UDP;
	iph->check = 0;
	iph->saddr = tx->saddr.v4.s_addr;
	iph->daddr = tx->daddr.v4.s_addr;
	/*
	 * The ICRC covers the ID: choose it now, not in ip_local_out(), for
	 * this packet and the @segs - 1 that follow it in a burst (0: the
	 * burst's head chose this packet's ID, softrdma_roce_burst_finish())
	 */
	if (segs)
		__ip_select_ident(net, iph, segs);

	skb->protocol = htons(ETH_P_IP);
	memset(IPCB(skb), 0, sizeof(*IPCB(skb)));
}

static void softrdma_roce_push_ip6(struct sk_buff *skb,
				   const struct softrdma_roce_tx *tx,
				   struct dst_entry *dst)
{
#if IS_ENABLED(CONFIG_IPV6)
	struct ipv6hdr *ip6h;

	__skb_push(skb, sizeof(*ip6h));
	skb_reset_network_header(skb);
	ip6h = ipv6_hdr(skb);
	ip6_flow_hdr(ip6h, tx->traffic_class, htonl(tx->flow_label));
	ip6h->payload_len = htons(skb->len - sizeof(*ip6h));
	ip6h->nexthdr = IPPROTO_UDP;
	ip6h->hop_limit = tx->hop_limit ?: ip6_dst_hoplimit(dst);
	ip6h->saddr = tx->saddr.v6;
	ip6h->daddr = tx->daddr.v6;

	skb->protocol = htons(ETH_P_IPV6);
	memset(IP6CB(skb), 0, sizeof(*IP6CB(skb)));
#endif
}

/**
 * softrdma_roce_push_hdrs() - put the UDP and IP headers in front
 * @net: the namespace the packet leaves in
 * @skb: BTH to ICRC at skb->data
 * @tx: where it goes; not in @skb->cb, which becomes the IP layer's
 * @dst: its route; only read when @tx leaves the hop limit to it
 * @segs: IPv4: IDs to choose, for this packet and those after it in a
 *	burst; 0 leaves the ID to the caller
 *
 * Return: 0, or -ENOBUFS, the skb untouched, when its headroom cannot
 * take the headers of @tx's IP version.
 */
VISIBLE_IF_KUNIT int softrdma_roce_push_hdrs(struct net *net,
					     struct sk_buff *skb,
					     const struct softrdma_roce_tx *tx,
					     struct dst_entry *dst,
					     unsigned int segs)
{
	if (skb_headroom(skb) <
	    softrdma_roce_ip_hdr_len(tx) + sizeof(struct udphdr))
		return -ENOBUFS;

	softrdma_roce_push_udp(skb, tx->src_port);
	if (tx->network_type == RDMA_NETWORK_IPV4)
		softrdma_roce_push_ip4(net, skb, tx, dst, segs);
	else
		softrdma_roce_push_ip6(skb, tx, dst);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_roce_push_hdrs);

/*
 * IPv6 gets a real UDP checksum (RFC 8200 section 8.1): a zero one is
 * only allowed for tunnels under RFC 6935/6936's conditions and dropped by
 * default by Linux and middleboxes.  The ICRC masks the field, so it may
 * be filled in later: CHECKSUM_PARTIAL lets the NIC or the stack do it.
 */
static void softrdma_roce_udp6_csum(struct sk_buff *skb)
{
#if IS_ENABLED(CONFIG_IPV6)
	const struct ipv6hdr *ip6h = ipv6_hdr(skb);

	udp6_set_csum(false, skb, &ip6h->saddr, &ip6h->daddr,
		      skb->len - skb_transport_offset(skb));
#endif
}

/*
 * The UDP checksum of an IPv6 packet of a burst, complete, as GRO leaves
 * the packets of a fraglist skb: segmentation carries each packet's
 * checksum over as it is (__udp_gso_segment_list()) and no device is
 * asked to fill it in.  The sum is the one the device or
 * skb_checksum_help() puts into a lone packet from
 * softrdma_roce_udp6_csum().
 */
static void softrdma_roce_udp6_csum_final(struct sk_buff *skb)
{
#if IS_ENABLED(CONFIG_IPV6)
	unsigned int off = skb_transport_offset(skb), len = skb->len - off;
	const struct ipv6hdr *ip6h = ipv6_hdr(skb);
	struct udphdr *uh = udp_hdr(skb);

	uh->check = 0;
	uh->check = udp_v6_check(len, &ip6h->saddr, &ip6h->daddr,
				 skb_checksum(skb, off, len, 0));
	if (!uh->check)
		uh->check = CSUM_MANGLED_0;
	skb->ip_summed = CHECKSUM_NONE;
#endif
}

/*
 * A destination on this host (the route goes through loopback): hand the
 * finished packet to the receive path of the sroce device owning the
 * destination address, as if it had come in on that device's netdev.
 */
static int softrdma_roce_deliver_local(struct net *net, struct sk_buff *skb)
{
	struct net_device *ndev = NULL;
	struct softrdma_dev *target;

	rcu_read_lock();
	if (skb->protocol == htons(ETH_P_IP))
		ndev = __ip_dev_find(net, ip_hdr(skb)->daddr, false);
#if IS_ENABLED(CONFIG_IPV6)
	else
		ndev = softrdma_ipv6_dev_find(net, &ipv6_hdr(skb)->daddr);
#endif
	target = ndev ? softrdma_roce_dev_of(ndev) : NULL;
	rcu_read_unlock();
	if (!target)
		return -EHOSTUNREACH;

	skb_dst_drop(skb);
	skb_orphan(skb);
	skb->dev = target->ndev;
	skb->pkt_type = PACKET_HOST;
	__skb_pull(skb, skb_transport_offset(skb));

	local_bh_disable();
	softrdma_roce_rcv_skb(target, skb);
	local_bh_enable();
	return 0;
}

/*
 * A neighbour that is not resolved would queue the packet, or drop it
 * silently if resolution already failed: start resolution and let the
 * caller retry instead.
 */
static bool softrdma_roce_neigh_ready(struct sk_buff *skb)
{
	const void *daddr = skb->protocol == htons(ETH_P_IP) ?
			    (const void *)&ip_hdr(skb)->daddr :
			    (const void *)&ipv6_hdr(skb)->daddr;
	struct neighbour *neigh;
	bool ready;

	neigh = dst_neigh_lookup(skb_dst(skb), daddr);
	if (!neigh)
		return true;	/* let the output path try */
	ready = READ_ONCE(neigh->nud_state) & NUD_VALID;
	if (!ready)
		neigh_event_send(neigh, NULL);
	neigh_release(neigh);
	return ready;
}

static int softrdma_roce_xmit_drop(struct softrdma_dev *sdev,
				   struct sk_buff *skb, unsigned int segs,
				   enum softrdma_counter why, int err)
{
	softrdma_counter_add(sdev, why, segs);
	trace_softrdma_drop(&sdev->ibdev, softrdma_counter_name(why));
	kfree_skb(skb);
	return err;
}

/*
 * Hand a finished packet, or a burst of @segs of them as one GSO skb, to
 * the IP layer, and count what left: @bytes of IB packets, ICRCs included.
 */
static int softrdma_roce_output(struct softrdma_dev *sdev, struct net *net,
				struct sk_buff *skb, unsigned int segs,
				unsigned int bytes)
{
	int err;

	if (!softrdma_roce_neigh_ready(skb))
		return softrdma_roce_xmit_drop(sdev, skb, segs,
					       SOFTRDMA_CNT_XMIT_NEIGH_PENDING,
					       -EAGAIN);

	if (skb->protocol == htons(ETH_P_IP))
		err = ip_local_out(net, NULL, skb);
	else if (IS_ENABLED(CONFIG_IPV6))
		err = ip6_local_out(net, NULL, skb);
	else
		err = -EAFNOSUPPORT;	/* not reached: no IPv6 route */
	err = net_xmit_eval(err);
	if (err == NET_XMIT_DROP || err == -ENOBUFS) {
		softrdma_counter_add(sdev, SOFTRDMA_CNT_XMIT_DROP, segs);
		trace_softrdma_drop(&sdev->ibdev,
				    softrdma_counter_name(SOFTRDMA_CNT_XMIT_DROP));
		return -EAGAIN;
	}
	if (err) {
		softrdma_counter_add(sdev, SOFTRDMA_CNT_XMIT_ERR, segs);
		ibdev_dbg_ratelimited(&sdev->ibdev, "transmit error %d\n", err);
		return err < 0 ? err : -EIO;
	}

	softrdma_counter_add(sdev, SOFTRDMA_CNT_XMIT_PACKETS, segs);
	softrdma_counter_add(sdev, SOFTRDMA_CNT_XMIT_BYTES, bytes);
	return 0;
}

static void softrdma_roce_trace_tx(struct softrdma_dev *sdev,
				   const struct sk_buff *skb)
{
	const struct softrdma_bth *bth = (const void *)skb->data;

	trace_softrdma_roce_tx(&sdev->ibdev, softrdma_bth_qpn(bth),
			       softrdma_bth_opcode(bth), softrdma_bth_psn(bth),
			       skb->len - sizeof(*bth));
}

/**
 * softrdma_roce_xmit() - send one RoCEv2 packet
 * @sdev: the sending device
 * @path: the sender's path now, for its route cache, or NULL; under
 *	rcu_read_lock().  The cache serves only a packet built for this
 *	very path: one built before the path changed is routed on its own
 * @skb: from softrdma_roce_alloc_skb(), holding BTH, extension headers,
 *	payload and pad; always consumed.  It goes where it was built for:
 *	the addresses and source port given to softrdma_roce_alloc_skb(),
 *	out of their ifindex (or @sdev's netdev) and no other interface
 *
 * Appends the ICRC, computed after the IP and UDP headers are final (it
 * covers their invariant fields, IPv4's ID included), then hands the
 * packet to ip_local_out()/ip6_local_out() so that netfilter, qdiscs and
 * neighbour resolution apply as to any host traffic.
 *
 * Context: any; BHs may be disabled.  Does not sleep.
 * Return: 0 when the packet was queued for transmission (or delivered to
 * a local device); -EAGAIN when the host dropped it (qdisc full, out of
 * buffers, neighbour not resolved yet) and a prompt retry may succeed;
 * -EHOSTUNREACH, -ENETUNREACH and other -errno for errors a retry will
 * not fix soon (no route, packet too big, device down).
 */
int softrdma_roce_xmit(struct softrdma_dev *sdev,
		       struct softrdma_roce_path *path, struct sk_buff *skb)
{
	struct net *net = dev_net(sdev->ndev);
	struct dst_cache *route = NULL;
	unsigned int ib_len = skb->len;
	struct softrdma_roce_tx tx;
	struct dst_entry *dst;
	void *icrc;
	int err;

	/* a private copy: skb->cb is the IP layer's once the headers are on */
	memcpy(&tx, softrdma_roce_tx_cb(skb), sizeof(tx));
	if (path && !memcmp(&path->tx, &tx, sizeof(tx)))
		route = &path->route;

	softrdma_roce_trace_tx(sdev, skb);
	icrc = softrdma_roce_icrc_append(skb);
	if (!icrc)
		return softrdma_roce_xmit_drop(sdev, skb, 1,
					       SOFTRDMA_CNT_XMIT_NOMEM,
					       -ENOMEM);

	dst = softrdma_roce_route(net, &tx, tx.ifindex ?: sdev->ndev->ifindex,
				  route);
	if (IS_ERR(dst)) {
		ibdev_dbg_ratelimited(&sdev->ibdev, "no route: %ld\n",
				      PTR_ERR(dst));
		return softrdma_roce_xmit_drop(sdev, skb, 1,
					       SOFTRDMA_CNT_XMIT_NO_ROUTE,
					       -EHOSTUNREACH);
	}

	skb_scrub_packet(skb, false);
	skb_dst_set(skb, dst);
	if (softrdma_roce_push_hdrs(net, skb, &tx, dst, 1))
		return softrdma_roce_xmit_drop(sdev, skb, 1,
					       SOFTRDMA_CNT_XMIT_NO_HEADROOM,
					       -ENOBUFS);
	softrdma_icrc_put(icrc, softrdma_icrc_compute(skb, ib_len));
	if (tx.network_type == RDMA_NETWORK_IPV6)
		softrdma_roce_udp6_csum(skb);

	if (dst->dev->flags & IFF_LOOPBACK) {
		err = softrdma_roce_deliver_local(net, skb);
		if (err)
			return softrdma_roce_xmit_drop(sdev, skb, 1,
						       SOFTRDMA_CNT_XMIT_NO_ROUTE,
						       err);
		softrdma_counter_inc(sdev, SOFTRDMA_CNT_XMIT_PACKETS);
		softrdma_counter_add(sdev, SOFTRDMA_CNT_XMIT_BYTES,
				     ib_len + ROCE_ICRC_SIZE);
		return 0;
	}

	return softrdma_roce_output(sdev, net, skb, 1, ib_len + ROCE_ICRC_SIZE);
}

/*
 * Bursts.  Consecutive packets of one message to one peer leave as one
 * skb: IP, netfilter, the qdisc and the driver's queue see it once.  It
 * is a UDP GSO skb of the kind GRO builds for forwarding
 * (SKB_GSO_UDP_L4 | SKB_GSO_FRAGLIST): the first packet is the head, each
 * further one a frag_list member with its own UDP and IP headers in
 * front of it already.  Segmentation (skb_segment_list(), in software:
 * no NIC offers fraglist GSO) gives every segment back its own headers
 * and only copies the link header; inet_gso_segment() then rewrites each
 * segment's IPv4 ID (the head's plus the segment's index), total length
 * and header checksum, ipv6_gso_segment() each IPv6 payload length, and
 * neither touches a UDP checksum.  So every packet is built with exactly
 * those values before its ICRC is computed, an IPv6 one with its UDP
 * checksum complete after it, and what leaves is, byte for byte, what
 * softrdma_roce_xmit() would have sent packet by packet.
 */
static unsigned int roce_xmit_burst = 32;
module_param(roce_xmit_burst, uint, 0644);
MODULE_PARM_DESC(roce_xmit_burst,
		 "RoCE: packets of one message sent as one GSO burst, at most (0 or 1: one by one; default 32, at most 64)");

#define SOFTRDMA_ROCE_BURST_MAX	64

/*
 * The most UDP bytes, header included, that one datagram's IP length
 * field counts: IPv4's total length includes its own header, IPv6's
 * payload length does not (a longer one would need a jumbogram)
 */
static unsigned int softrdma_roce_udp_max(const struct softrdma_roce_tx *tx)
{
	return tx->network_type == RDMA_NETWORK_IPV4 ?
	       IP_MAX_MTU - sizeof(struct iphdr) : IPV6_MAXPLEN;
}

/**
 * softrdma_roce_burst_may_add() - may a packet join a burst
 * @burst: packets from softrdma_roce_alloc_skb(), not empty
 * @skb: the packet that would follow them on the wire
 *
 * Only packets to the head's destination, every one as long as the head
 * but the last, which may be shorter (segmentation checks the head's size
 * against the route's MTU; a burst whose packets were pulled into one
 * buffer is cut every head's length, which then gives the same packets),
 * and no more than roce_xmit_burst of them nor more than one IPv4 or
 * IPv6 datagram holds (the burst's IP header carries their total length).
 * Whether @skb follows in the same message is the caller's to know.
 *
 * Return: true if @skb may be sent in @burst.
 */
bool softrdma_roce_burst_may_add(const struct sk_buff_head *burst,
				 const struct sk_buff *skb)
{
	const struct sk_buff *head = skb_peek(burst);
	const struct softrdma_roce_tx *tx = (const void *)head->cb;
	unsigned int segs = skb_queue_len(burst) + 1;

	return segs <= min_t(unsigned int, READ_ONCE(roce_xmit_burst),
			     SOFTRDMA_ROCE_BURST_MAX) &&
	       skb_peek_tail(burst)->len == head->len &&
	       skb->len <= head->len &&
	       segs * (head->len + ROCE_ICRC_SIZE) + sizeof(struct udphdr) <=
			softrdma_roce_udp_max(tx) &&
	       !memcmp(tx, skb->cb, sizeof(*tx));
}

/**
 * softrdma_roce_burst_finish() - a burst's packets as one GSO skb
 * @net: the namespace it leaves in
 * @burst: at least two packets from softrdma_roce_alloc_skb() that
 *	softrdma_roce_burst_may_add() let in, in wire order; emptied
 * @tx: where they go
 * @dst: their route, as softrdma_roce_push_hdrs() takes it
 * @drop: on failure, the counter naming the reason
 *
 * Gives each packet its UDP and IP headers and its ICRC, the IPv4 IDs
 * consecutive from the one chosen for the head, an IPv6 packet its UDP
 * checksum, and chains them behind the head.
 *
 * Return: the head, or NULL when every packet was freed.
 */
VISIBLE_IF_KUNIT struct sk_buff *
softrdma_roce_burst_finish(struct net *net, struct sk_buff_head *burst,
			   const struct softrdma_roce_tx *tx,
			   struct dst_entry *dst, enum softrdma_counter *drop)
{
	const unsigned int hdr_len = softrdma_roce_ip_hdr_len(tx) +
				     sizeof(struct udphdr);
	const bool ipv4 = tx->network_type == RDMA_NETWORK_IPV4;
	unsigned int segs = skb_queue_len(burst), i = 0;
	struct sk_buff *head, *skb, **tail;
	unsigned int ib_len;
	void *icrc;
	u16 id = 0;

	skb_queue_walk(burst, skb) {
		ib_len = skb->len;
		icrc = softrdma_roce_icrc_append(skb);
		if (!icrc) {
			*drop = SOFTRDMA_CNT_XMIT_NOMEM;
			goto out_purge;
		}
		skb_scrub_packet(skb, false);
		if (softrdma_roce_push_hdrs(net, skb, tx, dst, i ? 0 : segs) ||
		    skb_headroom(skb) < MAX_HEADER) {
			*drop = SOFTRDMA_CNT_XMIT_NO_HEADROOM;
			goto out_purge;
		}
		if (ipv4) {
			/* what inet_gso_segment() will write into segment i */
			if (!i)
				id = ntohs(ip_hdr(skb)->id);
			else
				ip_hdr(skb)->id = htons((u16)(id + i));
		}
		softrdma_icrc_put(icrc, softrdma_icrc_compute(skb, ib_len));
		if (!ipv4)
			softrdma_roce_udp6_csum_final(skb);
		i++;
	}

	head = __skb_dequeue(burst);
	skb_shinfo(head)->gso_size = head->len - hdr_len;
	skb_shinfo(head)->gso_type = SKB_GSO_UDP_L4 | SKB_GSO_FRAGLIST;
	skb_shinfo(head)->gso_segs = segs;
	/*
	 * Segmenting on the transmit path wants the checksum either to be
	 * done or to be the device's: IPv4's UDP checksum is zero (A17.4.2),
	 * IPv6's is complete in every packet
	 */
	head->ip_summed = CHECKSUM_UNNECESSARY;
	tail = &skb_shinfo(head)->frag_list;
	while ((skb = __skb_dequeue(burst))) {
		/* a member starts at its payload; the headers are in front */
		__skb_pull(skb, hdr_len);
		head->len += skb->len;
		head->data_len += skb->len;
		head->truesize += skb->truesize;
		*tail = skb;
		tail = &skb->next;
	}
	/*
	 * The whole burst's UDP length, as GRO leaves a fraglist skb: what a
	 * receiver of the burst unsegmented (through a veth) checks against
	 * the datagram; segmentation writes the head's own length back
	 */
	udp_hdr(head)->len = htons(head->len - skb_transport_offset(head));
	return head;

out_purge:
	__skb_queue_purge(burst);
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_roce_burst_finish);

/**
 * softrdma_roce_xmit_burst() - send consecutive packets of one message
 * @sdev: the sending device
 * @path: as for softrdma_roce_xmit()
 * @burst: packets from softrdma_roce_alloc_skb(), one or more, each but
 *	the first let in by softrdma_roce_burst_may_add(); emptied
 *
 * Context: as softrdma_roce_xmit().
 * Return: as softrdma_roce_xmit(), for all of them: on an error none,
 * or not all, left.
 */
int softrdma_roce_xmit_burst(struct softrdma_dev *sdev,
			     struct softrdma_roce_path *path,
			     struct sk_buff_head *burst)
{
	unsigned int segs = skb_queue_len(burst), bytes = 0;
	struct net *net = dev_net(sdev->ndev);
	struct dst_cache *route = NULL;
	enum softrdma_counter drop;
	struct softrdma_roce_tx tx;
	struct dst_entry *dst;
	struct sk_buff *skb;
	int err = 0, ret;

	if (segs <= 1)
		return segs ? softrdma_roce_xmit(sdev, path,
						 __skb_dequeue(burst)) : 0;

	memcpy(&tx, skb_peek(burst)->cb, sizeof(tx));
	if (path && !memcmp(&path->tx, &tx, sizeof(tx)))
		route = &path->route;
	dst = softrdma_roce_route(net, &tx, tx.ifindex ?: sdev->ndev->ifindex,
				  route);
	if (IS_ERR(dst) || (dst->dev->flags & IFF_LOOPBACK)) {
		/* local delivery, or the error, packet by packet */
		if (!IS_ERR(dst))
			dst_release(dst);
		while ((skb = __skb_dequeue(burst))) {
			ret = softrdma_roce_xmit(sdev, path, skb);
			err = err ?: ret;
		}
		return err;
	}

	skb_queue_walk(burst, skb) {
		softrdma_roce_trace_tx(sdev, skb);
		bytes += skb->len + ROCE_ICRC_SIZE;
	}
	skb = softrdma_roce_burst_finish(net, burst, &tx, dst, &drop);
	if (!skb) {
		dst_release(dst);
		softrdma_counter_add(sdev, drop, segs);
		trace_softrdma_drop(&sdev->ibdev, softrdma_counter_name(drop));
		return drop == SOFTRDMA_CNT_XMIT_NOMEM ? -ENOMEM : -ENOBUFS;
	}
	skb_dst_set(skb, dst);
	return softrdma_roce_output(sdev, net, skb, segs, bytes);
}
