// SPDX-License-Identifier: GPL-2.0-only
/*
 * "rdma link add NAME type sroce|siwarp netdev DEV" lands here, through
 * the RDMA core's netlink handler, which holds a reference on DEV for the
 * duration of the call.  Removal is the core's "rdma link delete", which
 * unregisters the device; dealloc_driver then releases it.
 */
#include <linux/if_arp.h>
#include <linux/if_vlan.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <kunit/visibility.h>
#include <rdma/rdma_netlink.h>

#include "compat.h"
#include "device.h"
#include "link.h"
#include "transport.h"

/* serialises "check that no such device exists" with creating it */
static DEFINE_MUTEX(link_add_lock);

/**
 * softrdma_link_check_netdev() - may a softrdma device sit on this netdev?
 * @ndev: the candidate
 * @why: on refusal, a human-readable reason
 *
 * Return: 0, or -EINVAL with @why set.
 */
VISIBLE_IF_KUNIT int softrdma_link_check_netdev(const struct net_device *ndev,
						const char **why)
{
	if (ndev->type != ARPHRD_ETHER) {
		*why = "not an Ethernet device";
		return -EINVAL;
	}
	/*
	 * RoCE GIDs of VLAN uppers belong to the device on the real netdev,
	 * and iWARP follows the IP routes; a device on the VLAN itself
	 * would only duplicate them.
	 */
	if (is_vlan_dev(ndev)) {
		*why = "a VLAN device; add the RDMA device on the underlying Ethernet device";
		return -EINVAL;
	}
	return 0;
}

static int softrdma_newlink(const char *name, struct net_device *ndev,
			    const struct softrdma_transport *tp)
{
	const char *type = tp->link_type;
	struct softrdma_dev *existing;
	const char *why;
	int err;

	err = softrdma_link_check_netdev(ndev, &why);
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
	if (err)
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
