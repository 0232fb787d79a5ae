// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for device.c: a netdev that unregisters (goes, or moves to
 * another network namespace) while "rdma link add" builds a device on it
 * fails the add.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>

#include "device.h"

struct adding_case {
	const char *name;
	bool other;		/* the event is another netdev's */
	unsigned long event;	/* 0: none */
	bool unregistering;	/* the netdev unregisters by the end */
	bool left;		/* softrdma_dev_adding_end() */
};

static const struct adding_case adding_cases[] = {
	{ "stays", false, 0, false, false },
	{ "unregistered_moved", false, NETDEV_UNREGISTER, false, true },
	{ "other_netdev_unregistered", true, NETDEV_UNREGISTER, false, false },
	{ "other_event", false, NETDEV_CHANGE, false, false },
	{ "unregistering_at_the_end", false, 0, true, true },
};

static void adding_case_desc(const struct adding_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(adding, adding_cases, adding_case_desc);

static void softrdma_device_adding_sees_unregister(struct kunit *test)
{
	const struct adding_case *c = test->param_value;
	struct netdev_notifier_info info = {};
	struct net_device *ndev, *other;
	int err;

	ndev = alloc_etherdev(0);
	other = alloc_etherdev(0);
	KUNIT_ASSERT_NOT_NULL(test, ndev);
	KUNIT_ASSERT_NOT_NULL(test, other);
	/* as register_netdevice() leaves them; put back before freeing */
	ndev->reg_state = NETREG_REGISTERED;
	other->reg_state = NETREG_REGISTERED;

	rtnl_lock();
	err = softrdma_dev_adding_begin(ndev);
	if (!err && c->event) {
		info.dev = c->other ? other : ndev;
		softrdma_netdev_event(NULL, c->event, &info);
	}
	if (c->unregistering)
		ndev->reg_state = NETREG_UNREGISTERING;
	rtnl_unlock();
	KUNIT_EXPECT_EQ(test, err, 0);
	if (!err)
		KUNIT_EXPECT_EQ(test, softrdma_dev_adding_end(), c->left);

	ndev->reg_state = NETREG_UNINITIALIZED;
	other->reg_state = NETREG_UNINITIALIZED;
	free_netdev(other);
	free_netdev(ndev);
}

/* a netdev unregistering already when the add begins is refused */
static void softrdma_device_adding_refuses_unregistering(struct kunit *test)
{
	struct net_device *ndev;
	int err;

	ndev = alloc_etherdev(0);
	KUNIT_ASSERT_NOT_NULL(test, ndev);
	ndev->reg_state = NETREG_UNREGISTERING;
	rtnl_lock();
	err = softrdma_dev_adding_begin(ndev);
	rtnl_unlock();
	KUNIT_EXPECT_EQ(test, err, -ENODEV);
	ndev->reg_state = NETREG_UNINITIALIZED;
	free_netdev(ndev);
}

static struct kunit_case softrdma_device_cases[] = {
	KUNIT_CASE_PARAM(softrdma_device_adding_sees_unregister,
			 adding_gen_params),
	KUNIT_CASE(softrdma_device_adding_refuses_unregistering),
	{}
};

static struct kunit_suite softrdma_device_suite = {
	.name = "softrdma_device",
	.test_cases = softrdma_device_cases,
};

kunit_test_suite(softrdma_device_suite);
