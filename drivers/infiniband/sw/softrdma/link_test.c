// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for link.c: which netdevs may carry a softrdma device.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/netdevice.h>
#include <net/bonding.h>

#include "link.h"
#include "transport.h"

struct netdev_case {
	const char *name;
	unsigned short type;
	unsigned int flags;
	unsigned int priv_flags;
	int err;
	int roce_err;	/* if an sroce device differs */
	int bond_mode;	/* BOND_MODE_*, for a bond master */
};

static const struct netdev_case netdev_cases[] = {
	{ "ethernet", ARPHRD_ETHER, 0, 0, 0 },
	{ "bridge_is_ethernet", ARPHRD_ETHER, 0, IFF_EBRIDGE, 0 },
	{ "loopback", ARPHRD_LOOPBACK, 0, 0, -EINVAL },
	{ "infiniband", ARPHRD_INFINIBAND, 0, 0, -EINVAL },
	{ "ip_tunnel", ARPHRD_TUNNEL, 0, 0, -EINVAL },
	{ "wireguard_none", ARPHRD_NONE, 0, 0, -EINVAL },
	{ "vlan", ARPHRD_ETHER, 0, IFF_802_1Q_VLAN, 0, -EINVAL },
	{ "macvlan", ARPHRD_ETHER, 0, IFF_MACVLAN, 0 },
	{ "bond_active_backup", ARPHRD_ETHER, IFF_MASTER, IFF_BONDING, 0, 0,
	  BOND_MODE_ACTIVEBACKUP },
	{ "bond_balance_rr", ARPHRD_ETHER, IFF_MASTER, IFF_BONDING, 0, -EINVAL,
	  BOND_MODE_ROUNDROBIN },
	{ "bond_broadcast", ARPHRD_ETHER, IFF_MASTER, IFF_BONDING, 0, -EINVAL,
	  BOND_MODE_BROADCAST },
	{ "bond_balance_xor", ARPHRD_ETHER, IFF_MASTER, IFF_BONDING, 0, 0,
	  BOND_MODE_XOR },
	{ "bond_802_3ad", ARPHRD_ETHER, IFF_MASTER, IFF_BONDING, 0, 0,
	  BOND_MODE_8023AD },
	{ "bond_balance_tlb", ARPHRD_ETHER, IFF_MASTER, IFF_BONDING, 0, 0,
	  BOND_MODE_TLB },
	{ "bond_balance_alb", ARPHRD_ETHER, IFF_MASTER, IFF_BONDING, 0, 0,
	  BOND_MODE_ALB },
	{ "bond_slave", ARPHRD_ETHER, IFF_SLAVE, IFF_BONDING, -EINVAL },
	{ "team_port", ARPHRD_ETHER, 0, IFF_TEAM_PORT, -EINVAL },
	{ "team_master", ARPHRD_ETHER, IFF_MASTER, IFF_TEAM, -EINVAL },
	{ "bridge_port", ARPHRD_ETHER, 0, IFF_BRIDGE_PORT, -EINVAL },
	{ "ovs_port", ARPHRD_ETHER, 0, IFF_OVS_DATAPATH, -EINVAL },
};

static void netdev_case_desc(const struct netdev_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(netdev, netdev_cases, netdev_case_desc);

static void softrdma_link_netdev_qualifies(struct kunit *test)
{
	const struct netdev_case *c = test->param_value;
	struct net_device *ndev;
	const char *why = NULL;
	int err;

	/* a bond master's private part is its struct bonding */
	ndev = alloc_etherdev(sizeof(struct bonding));
	KUNIT_ASSERT_NOT_NULL(test, ndev);
	ndev->type = c->type;
	ndev->flags |= c->flags;
	ndev->priv_flags |= c->priv_flags;
	((struct bonding *)netdev_priv(ndev))->params.mode = c->bond_mode;

	err = softrdma_link_check_netdev(ndev, &softrdma_iwarp_transport, &why);
	KUNIT_EXPECT_EQ(test, err, c->err);
	if (c->err)
		KUNIT_EXPECT_NOT_NULL(test, why);

	why = NULL;
	err = softrdma_link_check_netdev(ndev, &softrdma_roce_transport, &why);
	free_netdev(ndev);
	KUNIT_EXPECT_EQ(test, err, c->err ?: c->roce_err);
	if (c->err || c->roce_err)
		KUNIT_EXPECT_NOT_NULL(test, why);
}

static struct kunit_case softrdma_link_cases[] = {
	KUNIT_CASE_PARAM(softrdma_link_netdev_qualifies, netdev_gen_params),
	{}
};

static struct kunit_suite softrdma_link_suite = {
	.name = "softrdma_link",
	.test_cases = softrdma_link_cases,
};

kunit_test_suite(softrdma_link_suite);
