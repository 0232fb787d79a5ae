// SPDX-License-Identifier: GPL-2.0-only
/*
 * softrdma: RDMA over any Ethernet device, in software.
 *
 * Two link types share one verbs engine: "sroce" (RoCEv2) and "siwarp"
 * (iWARP).  Start-up order matters: the rival-module guard first (nothing
 * may be registered while rdma_rxe or siw is around), then each
 * transport's global state (transport.h: load), then the netdev
 * notifier (so that every device ever created sees its netdev's events),
 * then the link types that create devices.  Shutdown undoes it in reverse,
 * unregistering every device before the notifier goes.
 */
#include <linux/module.h>

#include "device.h"
#include "guard.h"
#include "icrc.h"
#include "link.h"
#include "transport.h"

static int __init softrdma_init(void)
{
	int err;

	err = softrdma_guard_init();
	if (err)
		return err;

	err = softrdma_icrc_init();
	if (err)
		goto out_guard;

	err = softrdma_transports_init();
	if (err)
		goto out_icrc;

	err = softrdma_netdev_notifier_register();
	if (err)
		goto out_transports;

	err = softrdma_dev_netns_register();
	if (err)
		goto out_notifier;

	softrdma_link_register();
	return 0;

out_notifier:
	softrdma_netdev_notifier_unregister();
out_transports:
	softrdma_transports_exit();
out_icrc:
	softrdma_icrc_exit();
out_guard:
	softrdma_guard_exit();
	return err;
}

static void __exit softrdma_exit(void)
{
	softrdma_link_unregister();
	softrdma_dev_remove_all();
	softrdma_dev_netns_unregister();
	softrdma_netdev_notifier_unregister();
	softrdma_transports_exit();
	softrdma_icrc_exit();
	softrdma_guard_exit();
}

module_init(softrdma_init);
module_exit(softrdma_exit);

MODULE_DESCRIPTION("softrdma: software RoCEv2 and iWARP over Ethernet");
MODULE_LICENSE("GPL");
