// SPDX-License-Identifier: GPL-2.0-only
/*
 * Address vectors from rdma_ah_attr.  RoCEv2 only (IBA vol 1 annex A17):
 * the source GID must be a RoCEv2 GID, which names the IP version; the
 * GIDs are IP addresses (IPv4 ones IPv4-mapped).
 */
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <kunit/visibility.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>

#include "av.h"

static int softrdma_av_ip(union softrdma_ip *ip, const union ib_gid *gid,
			  enum rdma_network_type type)
{
	union {
		struct sockaddr_in in;
		struct sockaddr_in6 in6;
	} sa;

	rdma_gid2ip((struct sockaddr *)&sa, gid);
	if (type == RDMA_NETWORK_IPV4) {
		if (sa.in.sin_family != AF_INET)
			return -EINVAL;
		ip->v4 = sa.in.sin_addr;
	} else {
		if (sa.in6.sin6_family != AF_INET6)
			return -EINVAL;
		ip->v6 = sa.in6.sin6_addr;
	}
	return 0;
}

/**
 * softrdma_av_fill() - the address vector of an attribute and source GID
 * @av: filled in
 * @attr: a RoCE address handle attribute with a GRH
 * @sgid_attr: its source GID entry
 * @ifindex: the interface index of @sgid_attr's netdev
 *
 * Return: 0, or -EINVAL for anything that is not RoCEv2: an IB or RoCEv1
 * GID, or a destination GID of the other IP version.
 */
VISIBLE_IF_KUNIT int softrdma_av_fill(struct softrdma_av *av,
				      const struct rdma_ah_attr *attr,
				      const struct ib_gid_attr *sgid_attr,
				      int ifindex)
{
	const struct ib_global_route *grh = &attr->grh;
	enum rdma_network_type type;
	int err;

	type = rdma_gid_attr_network_type(sgid_attr);
	if (type != RDMA_NETWORK_IPV4 && type != RDMA_NETWORK_IPV6)
		return -EINVAL;

	memset(av, 0, sizeof(*av));
	av->network_type = type;
	err = softrdma_av_ip(&av->saddr, &sgid_attr->gid, type);
	if (err)
		return err;
	err = softrdma_av_ip(&av->daddr, &grh->dgid, type);
	if (err)
		return err;

	ether_addr_copy(av->dmac, attr->roce.dmac);
	av->traffic_class = grh->traffic_class;
	av->hop_limit = grh->hop_limit;
	av->flow_label = grh->flow_label & IB_GRH_FLOWLABEL_MASK;
	av->ifindex = ifindex;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_av_fill);

/**
 * softrdma_av_from_ah_attr() - resolve an address handle attribute
 * @av: filled in
 * @attr: from create_ah or modify_qp; its GRH holds a referenced sgid_attr
 *
 * Context: any; takes the RCU read lock.
 * Return: 0, -EINVAL for an attribute that is not RoCEv2 (IB link layer,
 * no GRH, RoCEv1 GID), or -ENODEV when the GID's netdev is gone.
 */
int softrdma_av_from_ah_attr(struct softrdma_av *av,
			     const struct rdma_ah_attr *attr)
{
	const struct ib_gid_attr *sgid_attr;
	struct net_device *ndev;
	int ifindex;

	if (attr->type != RDMA_AH_ATTR_TYPE_ROCE ||
	    !(rdma_ah_get_ah_flags(attr) & IB_AH_GRH))
		return -EINVAL;
	sgid_attr = attr->grh.sgid_attr;
	if (!sgid_attr)
		return -EINVAL;

	rcu_read_lock();
	ndev = rdma_read_gid_attr_ndev_rcu(sgid_attr);
	ifindex = IS_ERR(ndev) ? 0 : ndev->ifindex;
	rcu_read_unlock();
	if (!ifindex)
		return -ENODEV;

	return softrdma_av_fill(av, attr, sgid_attr, ifindex);
}
