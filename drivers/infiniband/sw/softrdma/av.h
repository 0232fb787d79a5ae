/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Address vector: where a RoCEv2 packet goes and how its IP header looks,
 * resolved once from an address handle or a connected QP's rdma_ah_attr
 * so that transmit needs no GID table lookup.
 */
#ifndef SOFTRDMA_AV_H
#define SOFTRDMA_AV_H

#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/types.h>
#include <rdma/ib_verbs.h>

union softrdma_ip {
	struct in_addr v4;
	struct in6_addr v6;
};

struct softrdma_av {
	enum rdma_network_type network_type;	/* RDMA_NETWORK_IPV4 or _IPV6 */
	union softrdma_ip saddr;
	union softrdma_ip daddr;
	u8 dmac[ETH_ALEN];
	u8 traffic_class;	/* IPv4 TOS or IPv6 traffic class: DSCP, ECN */
	u8 hop_limit;		/* IPv4 TTL or IPv6 hop limit; 0: the route's */
	u32 flow_label;		/* IPv6 only, 20 bits */
	/*
	 * The netdev of the source GID: the device's own netdev or one of
	 * its VLAN uppers.  Kept by index, not by reference, so that an AV
	 * pins nothing; transmit routes out of this interface and fails
	 * cleanly once it is gone.
	 */
	int ifindex;
};

int softrdma_av_from_ah_attr(struct softrdma_av *av,
			     const struct rdma_ah_attr *attr);

#if IS_ENABLED(CONFIG_KUNIT)
int softrdma_av_fill(struct softrdma_av *av, const struct rdma_ah_attr *attr,
		     const struct ib_gid_attr *sgid_attr, int ifindex);
#endif

#endif /* SOFTRDMA_AV_H */
