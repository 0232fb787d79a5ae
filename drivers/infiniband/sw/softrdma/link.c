// SPDX-License-Identifier: GPL-2.0-only
/*
 * "rdma link add NAME type sroce|siwarp netdev DEV" lands here, through
 * the RDMA core's netlink handler, which holds a reference on DEV for the
 * duration of the call.  Removal is the core's "rdma link delete", which
 * unregisters the device; dealloc_driver then releases it.
 */
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/if_vlan.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <kunit/visibility.h>
#include <net/bonding.h>
#include <rdma/rdma_netlink.h>

#include "compat.h"
#include "device.h"
#include "link.h"
#include "transport.h"

/* serialises "check that no such device exists" with creating it */
static DEFINE_MUTEX(link_add_lock);

/**
 * softrdma_link_bond_refused() - why a device may not sit on a bond
 * @ndev: a netdev
 * @tp: the transport of the device
 *
 * Transmit goes through the bond, which picks the port, and the bond
 * hands up what its ports receive as its own, so a device on the bond
 * master follows failovers and its MAC and addresses.  Whether the mode
 * suits the transport depends on how it spreads one flow over the ports.
 *
 * Return: the reason, or NULL if @ndev is not a bond master or its mode
 * suits @tp.
 */
const char *softrdma_link_bond_refused(const struct net_device *ndev,
				       const struct softrdma_transport *tp)
{
	const struct bonding *bond;
	int mode;

	if (!netif_is_bond_master(ndev) || !tp->bond_spray_refused)
		return NULL;
	bond = netdev_priv(ndev);
	/* changed under RTNL, only while the bond is down without ports */
	mode = READ_ONCE(bond->params.mode);
	if (mode == BOND_MODE_ROUNDROBIN || mode == BOND_MODE_BROADCAST)
		return tp->bond_spray_refused;
	return NULL;
}

/**
 * softrdma_link_check_netdev() - may a softrdma device sit on this netdev?
 * @ndev: the candidate
 * @tp: the transport of the device
 * @why: on refusal, a human-readable reason
 *
 * Return: 0, or -EINVAL with @why set.
 */
VISIBLE_IF_KUNIT int
softrdma_link_check_netdev(const struct net_device *ndev,
			   const struct softrdma_transport *tp,
			   const char **why)
{
	if (ndev->type != ARPHRD_ETHER) {
		*why = "not an Ethernet device";
		return -EINVAL;
	}
	/*
	 * The bond master takes a slave's received frames and owns the
	 * addresses; a device on the slave would see no traffic and would
	 * not follow a failover.  The same holds for a team port.
	 */
	if (netif_is_lag_port(ndev)) {
		*why = "a bond or team port; add the RDMA device on the master";
		return -EINVAL;
	}
	/* a bridge (or Open vSwitch) takes its ports' frames the same way */
	if (netif_is_any_bridge_port(ndev)) {
		*why = "a bridge port; add the RDMA device on the bridge";
		return -EINVAL;
	}
	/*
	 * A team's mode comes from teamd in user space, may spread one flow
	 * over the ports (round-robin, broadcast) and may change with every
	 * port added; a bond's is known here (softrdma_link_bond_refused()).
	 */
	if (netif_is_team_master(ndev)) {
		*why = "a team device; use a bond (active-backup) instead";
		return -EINVAL;
	}
	if (is_vlan_dev(ndev) && tp->vlan_refused) {
		*why = tp->vlan_refused;
		return -EINVAL;
	}
	*why = softrdma_link_bond_refused(ndev, tp);
	return *why ? -EINVAL : 0;
}

/* Does @ndev carry a device of @tp? */
static bool softrdma_link_carries(struct net_device *ndev,
				  const struct softrdma_transport *tp)
{
	struct softrdma_dev *sdev = softrdma_dev_get(ndev, tp);

	if (!sdev)
		return false;
	softrdma_dev_put(sdev);
	return true;
}

/* what softrdma_link_vlan_upper_dev() and _mac_user() look for */
struct softrdma_link_walk {
	const struct net_device *real_dev;
	const struct softrdma_transport *tp;
};

/* netdev_walk_all_upper_dev_rcu() callback: 1 stops the walk */
static int softrdma_link_vlan_upper_dev(struct net_device *upper,
					struct netdev_nested_priv *priv)
{
	const struct softrdma_link_walk *walk = priv->data;

	return is_vlan_dev(upper) && vlan_dev_real_dev(upper) == walk->real_dev &&
	       softrdma_link_carries(upper, walk->tp);
}

/*
 * A VLAN and its real device must not both carry a device of one type:
 * the RDMA core gives a RoCE device on the real device the GIDs of its
 * VLAN uppers as well, and receive hands a VLAN's frames to the VLAN's
 * own device first, so the real device's QPs on those GIDs would go deaf;
 * an iWARP device's GID is its MAC, which the VLAN shares.
 *
 * Return: true, with @why set, if @ndev's VLAN relatives carry one.
 */
static bool softrdma_link_vlan_taken(struct net_device *ndev,
				     const struct softrdma_transport *tp,
				     const char **why)
{
	struct softrdma_link_walk walk = { .real_dev = ndev, .tp = tp };
	struct netdev_nested_priv priv = { .data = &walk };
	int found;

	if (is_vlan_dev(ndev)) {
		if (!softrdma_link_carries(vlan_dev_real_dev(ndev), tp))
			return false;
		*why = "its real device carries one already, which serves the VLAN's addresses";
		return true;
	}

	rcu_read_lock();
	found = netdev_walk_all_upper_dev_rcu(ndev, softrdma_link_vlan_upper_dev,
					      &priv);
	rcu_read_unlock();
	if (!found)
		return false;
	*why = "a VLAN on it carries one already; delete that one first";
	return true;
}

/* netdev_walk_all_upper_dev_rcu() callback: 1 stops the walk */
static int softrdma_link_mac_user(struct net_device *upper,
				  struct netdev_nested_priv *priv)
{
	const struct softrdma_link_walk *walk = priv->data;

	return upper != walk->real_dev &&
	       ether_addr_equal(upper->dev_addr, walk->real_dev->dev_addr) &&
	       softrdma_link_carries(upper, walk->tp);
}

/*
 * A transport whose GID is the MAC (iWARP) cannot tell two devices on
 * netdevs sharing one apart: the RDMA CM takes the first device with the
 * GID of an address's netdev, which may be the other one, in another
 * namespace even.  An ipvlan has its lower device's MAC, a VLAN by
 * default too.  The relatives are the devices above the lowest one
 * reached through devices with one lower each (the one a bond, bridge or
 * team ends the descent at).
 *
 * Context: RTNL need not be held; a MAC changed afterwards is not seen.
 * Return: true, with @why set, if a relative of @ndev with its MAC
 * carries a device of @tp.
 */
static bool softrdma_link_mac_taken(struct net_device *ndev,
				    const struct softrdma_transport *tp,
				    const char **why)
{
	struct softrdma_link_walk walk = { .real_dev = ndev, .tp = tp };
	struct netdev_nested_priv priv = { .data = &walk };
	struct net_device *root = ndev, *lower;
	struct list_head *iter;
	int depth, found;

	if (!tp->gid_is_mac)
		return false;

	rcu_read_lock();
	for (depth = 0; depth < MAX_NEST_DEV; depth++) {
		iter = &root->adj_list.lower;
		lower = netdev_next_lower_dev_rcu(root, &iter);
		if (!lower || netdev_next_lower_dev_rcu(root, &iter))
			break;
		root = lower;
	}
	found = softrdma_link_mac_user(root, &priv) ||
		netdev_walk_all_upper_dev_rcu(root, softrdma_link_mac_user,
					      &priv);
	rcu_read_unlock();
	if (!found)
		return false;
	*why = "a netdev with its MAC carries one already (an iWARP GID is the MAC)";
	return true;
}

static int softrdma_newlink(const char *name, struct net_device *ndev,
			    const struct softrdma_transport *tp)
{
	const char *type = tp->link_type;
	struct softrdma_dev *existing;
	const char *why;
	int err;

	err = softrdma_link_check_netdev(ndev, tp, &why);
	if (err) {
		pr_err("softrdma: cannot add %s device %s on %s: %s\n",
		       type, name, netdev_name(ndev), why);
		return err;
	}

	mutex_lock(&link_add_lock);

	if (softrdma_ib_name_taken(name)) {
		pr_err("softrdma: cannot add %s device %s: the name is taken\n",
		       type, name);
		err = -EEXIST;
		goto out_unlock;
	}

	if (softrdma_link_vlan_taken(ndev, tp, &why) ||
	    softrdma_link_mac_taken(ndev, tp, &why)) {
		pr_err("softrdma: cannot add %s device %s on %s: %s\n",
		       type, name, netdev_name(ndev), why);
		err = -EEXIST;
		goto out_unlock;
	}

	existing = softrdma_dev_get(ndev, tp);
	if (existing) {
		pr_err("softrdma: cannot add %s device %s: %s already carries %s device %s\n",
		       type, name, netdev_name(ndev), type,
		       dev_name(&existing->ibdev.dev));
		softrdma_dev_put(existing);
		err = -EEXIST;
		goto out_unlock;
	}

	err = softrdma_dev_add(name, ndev, tp);
	if (err == -ENODEV)
		pr_err("softrdma: cannot add %s device %s on %s: the netdev was unregistered or moved to another network namespace meanwhile\n",
		       type, name, netdev_name(ndev));
	else if (err)
		pr_err("softrdma: cannot add %s device %s on %s: error %d\n",
		       type, name, netdev_name(ndev), err);

out_unlock:
	mutex_unlock(&link_add_lock);
	return err;
}

static int softrdma_roce_newlink(const char *name, struct net_device *ndev)
{
	return softrdma_newlink(name, ndev, &softrdma_roce_transport);
}

static int softrdma_iwarp_newlink(const char *name, struct net_device *ndev)
{
	return softrdma_newlink(name, ndev, &softrdma_iwarp_transport);
}

static struct rdma_link_ops softrdma_roce_link_ops = {
	.type = "sroce",
	.newlink = softrdma_roce_newlink,
};

static struct rdma_link_ops softrdma_iwarp_link_ops = {
	.type = "siwarp",
	.newlink = softrdma_iwarp_newlink,
};

void softrdma_link_register(void)
{
	rdma_link_register(&softrdma_roce_link_ops);
	rdma_link_register(&softrdma_iwarp_link_ops);
}

/* Returns once no newlink call is running any more. */
void softrdma_link_unregister(void)
{
	rdma_link_unregister(&softrdma_iwarp_link_ops);
	rdma_link_unregister(&softrdma_roce_link_ops);
}

MODULE_ALIAS_RDMA_LINK("sroce");
MODULE_ALIAS_RDMA_LINK("siwarp");
