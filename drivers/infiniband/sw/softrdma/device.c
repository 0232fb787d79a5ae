// SPDX-License-Identifier: GPL-2.0-only
/*
 * softrdma devices: creation, attributes, port state and the netdev events
 * that drive them.
 *
 * A device lives from softrdma_dev_add() until the RDMA core calls
 * dealloc_driver after unregistration (rdma link del, netdev unregister or
 * module unload).  It is found again only through the RDMA core
 * (ib_device_get_by_netdev()), which hands out counted references.
 */
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/if_arp.h>
#include <linux/rtnetlink.h>
#include <kunit/visibility.h>
#include <net/addrconf.h>
#include <net/net_namespace.h>
#include <rdma/ib_mad.h>

#include "compat.h"
#include "counters.h"
#include "device.h"
#include "link.h"
#include "param.h"
#include "transport.h"
#include "verbs.h"

/**
 * softrdma_dev_fill_attr() - the device attributes query_device reports
 * @sdev: the device
 * @attr: filled in; the caller zeroes it
 *
 * Limits come from param.h, through the device's transport (transport.h).
 * Capabilities are advertised as the verbs that implement them land,
 * never before.
 */
void softrdma_dev_fill_attr(const struct softrdma_dev *sdev,
			    struct ib_device_attr *attr)
{
	const struct softrdma_transport_limits *lim = &sdev->tp->lim;

	attr->fw_ver = (u64)SOFTRDMA_FW_MAJOR << 32 |
		       SOFTRDMA_FW_MINOR << 16 | SOFTRDMA_FW_SUBMINOR;
	attr->sys_image_guid = sdev->ibdev.node_guid;
	attr->max_mr_size = U64_MAX;
	attr->page_size_cap = PAGE_SIZE;
	attr->vendor_id = SOFTRDMA_VENDOR_ID;
	attr->max_qp = SOFTRDMA_MAX_QP;
	attr->max_qp_wr = lim->max_qp_wr;
	/* fast-registration MRs and invalidation, for kernel consumers */
	attr->device_cap_flags = IB_DEVICE_SYS_IMAGE_GUID |
				 IB_DEVICE_MEM_MGT_EXTENSIONS |
				 lim->device_cap_flags;
	attr->kernel_cap_flags = IBK_ALLOW_USER_UNREG;
	attr->max_send_sge = lim->max_sge;
	attr->max_recv_sge = attr->max_send_sge;
	attr->max_sge_rd = lim->max_sge_rd;
	attr->max_cq = SOFTRDMA_MAX_CQ;
	attr->max_cqe = lim->max_cqe;
	attr->max_mr = SOFTRDMA_MAX_MR;
	attr->max_mw = lim->max_mw;
	attr->max_fast_reg_page_list_len = SOFTRDMA_MAX_FAST_REG_PAGES;
	attr->max_pd = SOFTRDMA_MAX_PD;
	attr->max_qp_rd_atom = SOFTRDMA_MAX_QP_RD_ATOM;
	attr->max_qp_init_rd_atom = SOFTRDMA_MAX_QP_RD_ATOM;
	attr->max_res_rd_atom = SOFTRDMA_MAX_RES_RD_ATOM;
	attr->atomic_cap = lim->atomic_cap;
	attr->max_srq = SOFTRDMA_MAX_SRQ;
	attr->max_srq_wr = attr->max_qp_wr;
	attr->max_srq_sge = attr->max_recv_sge;
	attr->max_ah = lim->max_ah;
	attr->max_pkeys = 1;
	attr->local_ca_ack_delay = SOFTRDMA_LOCAL_CA_ACK_DELAY;
}

static int softrdma_query_device(struct ib_device *ibdev,
				 struct ib_device_attr *attr,
				 struct ib_udata *udata)
{
	/* Neither user ABI defines vendor data for this verb. */
	if (udata && (udata->inlen || udata->outlen))
		return -EINVAL;

	memset(attr, 0, sizeof(*attr));
	softrdma_dev_fill_attr(to_sdev(ibdev), attr);
	return 0;
}

static int softrdma_query_port(struct ib_device *ibdev, u32 port_num,
			       struct ib_port_attr *attr)
{
	struct softrdma_dev *sdev = to_sdev(ibdev);
	unsigned int mtu = READ_ONCE(sdev->ndev->mtu);
	struct softrdma_link_speed speed;
	struct softrdma_link_state link;

	spin_lock_bh(&sdev->port_lock);
	link = sdev->port_link;
	speed = sdev->port_speed;
	spin_unlock_bh(&sdev->port_lock);

	memset(attr, 0, sizeof(*attr));
	attr->state = link.state;
	attr->phys_state = link.phys_state;
	attr->max_mtu = IB_MTU_4096;
	attr->phys_mtu = mtu;
	attr->pkey_tbl_len = 1;
	attr->max_vl_num = 1;
	attr->active_speed = speed.speed;
	attr->active_width = speed.width;
	attr->gid_tbl_len = sdev->tp->lim.gid_tbl_len;
	attr->max_msg_sz = sdev->tp->lim.max_msg_sz;
	sdev->tp->query_port(sdev, mtu, attr);
	return 0;
}

static int softrdma_get_port_immutable(struct ib_device *ibdev, u32 port_num,
				       struct ib_port_immutable *immutable)
{
	const struct softrdma_transport *tp = to_sdev(ibdev)->tp;

	immutable->pkey_tbl_len = 1;
	immutable->gid_tbl_len = tp->lim.gid_tbl_len;
	immutable->core_cap_flags = tp->core_cap_flags;
	immutable->max_mad_size = tp->max_mad_size;
	return 0;
}

static enum rdma_link_layer softrdma_get_link_layer(struct ib_device *ibdev,
						    u32 port_num)
{
	return IB_LINK_LAYER_ETHERNET;
}

static int softrdma_query_pkey(struct ib_device *ibdev, u32 port_num,
			       u16 index, u16 *pkey)
{
	if (index)
		return -EINVAL;
	*pkey = IB_DEFAULT_PKEY_FULL;
	return 0;
}

static void softrdma_get_dev_fw_str(struct ib_device *ibdev, char *str)
{
	snprintf(str, IB_FW_VERSION_NAME_MAX, "%d.%d.%d", SOFTRDMA_FW_MAJOR,
		 SOFTRDMA_FW_MINOR, SOFTRDMA_FW_SUBMINOR);
}

/*
 * Unbind the device from the network; may be called more than once.  From
 * here until its unregistration the device gives out no new user context
 * nor QP: it is still registered, and after softrdma_enable_driver() in a
 * namespace where its netdev is not.
 */
static void softrdma_dev_detach(struct softrdma_dev *sdev)
{
	softrdma_res_close(&sdev->res);
	if (sdev->tp->detach)
		sdev->tp->detach(sdev);
}

/* Take a device out of the network now and unregister it soon. */
static void softrdma_dev_remove_queued(struct softrdma_dev *sdev)
{
	softrdma_dev_detach(sdev);
	ib_unregister_device_queued(&sdev->ibdev);
}

static void softrdma_dealloc_driver(struct ib_device *ibdev)
{
	struct softrdma_dev *sdev = to_sdev(ibdev);

	WARN_ON(!xa_empty(&sdev->mr_xa));
	WARN_ON(!xa_empty(&sdev->qp_xa));
	WARN_ON(!xa_empty(&sdev->ah_xa));
	WARN_ON(!xa_empty(&sdev->srq_xa));
	xa_destroy(&sdev->mr_xa);
	xa_destroy(&sdev->qp_xa);
	xa_destroy(&sdev->ah_xa);
	xa_destroy(&sdev->srq_xa);
	softrdma_dev_detach(sdev);
	softrdma_counters_free(sdev);
	netdev_put(sdev->ndev, &sdev->ndev_tracker);
}

/*
 * The RDMA core enables a device when it registers it and again after
 * moving it to another network namespace ("rdma dev set DEV netns NS",
 * exclusive mode), and gives the driver no say in that move.  A softrdma
 * device is its netdev's: its GIDs are the netdev's addresses, its UDP and
 * TCP sockets live in the netdev's namespace.  Moved anywhere else, it
 * would carry a namespace's traffic on another namespace's link, and the
 * RDMA CM there could not resolve an address to it anyway.  So a device
 * that finds itself outside its netdev's namespace goes: it leaves the
 * network now and is unregistered once the move has finished, and the log
 * says why.  "rdma link add" in the namespace is the way to a device there.
 *
 * A namespace that exits would move its devices to init_net as well, but
 * softrdma_dev_net_pre_exit() has unregistered those on its netdevs by
 * then; one left over (going already) goes without a word.
 */
static int softrdma_enable_driver(struct ib_device *ibdev)
{
	struct softrdma_dev *sdev = to_sdev(ibdev);
	struct net *net = dev_net(sdev->ndev);

	if (rdma_dev_access_netns(ibdev, net))
		return 0;
	if (check_net(net))
		ibdev_warn(ibdev,
			   "moved out of the network namespace of its netdev %s: removing it (create a device in a namespace with rdma link add there)\n",
			   netdev_name(sdev->ndev));
	softrdma_dev_remove_queued(sdev);
	return 0;
}

static const struct ib_device_ops softrdma_dev_ops = {
	.owner = THIS_MODULE,
	.alloc_hw_port_stats = softrdma_alloc_hw_port_stats,
	.dealloc_driver = softrdma_dealloc_driver,
	.enable_driver = softrdma_enable_driver,
	.get_dev_fw_str = softrdma_get_dev_fw_str,
	.get_hw_stats = softrdma_get_hw_stats,
	.get_link_layer = softrdma_get_link_layer,
	.get_port_immutable = softrdma_get_port_immutable,
	.query_device = softrdma_query_device,
	.query_pkey = softrdma_query_pkey,
	.query_port = softrdma_query_port,
};

/*
 * Read the netdev's link state and speed into the port; with @notify, tell
 * the RDMA core's consumers when the port went up or down.
 */
static void softrdma_port_update(struct softrdma_dev *sdev, bool notify)
{
	struct net_device *ndev = sdev->ndev;
	struct ethtool_link_ksettings ks;
	struct softrdma_link_state link;
	struct softrdma_link_speed speed;
	enum ib_port_state old;
	struct ib_event event;

	ASSERT_RTNL();

	link = softrdma_port_link_state(netif_running(ndev),
					netif_carrier_ok(ndev));
	if (__ethtool_get_link_ksettings(ndev, &ks))
		ks.base.speed = SPEED_UNKNOWN;
	speed = softrdma_port_speed(ks.base.speed);

	spin_lock_bh(&sdev->port_lock);
	old = sdev->port_link.state;
	sdev->port_link = link;
	sdev->port_speed = speed;
	spin_unlock_bh(&sdev->port_lock);

	if (!notify || old == link.state)
		return;

	event.device = &sdev->ibdev;
	event.element.port_num = 1;
	event.event = link.state == IB_PORT_ACTIVE ? IB_EVENT_PORT_ACTIVE :
						     IB_EVENT_PORT_ERR;
	ib_dispatch_event(&event);
}

/*
 * Node GUIDs are the netdev's EUI-64; a transport may change it so that
 * the devices on one netdev never share a GUID.
 */
static void softrdma_set_node_guid(struct softrdma_dev *sdev)
{
	u8 *guid = (u8 *)&sdev->ibdev.node_guid;

	addrconf_addr_eui48(guid, sdev->ndev->dev_addr);
}

static struct softrdma_dev *
softrdma_dev_alloc(struct net_device *ndev,
		   const struct softrdma_transport *tp)
{
	struct softrdma_dev *sdev;
	struct ib_device *ibdev;

	ibdev = softrdma_ib_alloc_device(tp->dev_size, dev_net(ndev));
	if (!ibdev)
		return NULL;
	sdev = to_sdev(ibdev);
	if (softrdma_counters_alloc(sdev)) {
		ib_dealloc_device(ibdev);
		return NULL;
	}

	sdev->tp = tp;
	sdev->uabi_ops = tp->uabi_ops;
	sdev->ndev = ndev;
	netdev_hold(ndev, &sdev->ndev_tracker, GFP_KERNEL);
	xa_init_flags(&sdev->mr_xa, XA_FLAGS_ALLOC1);
	xa_init_flags(&sdev->qp_xa, XA_FLAGS_ALLOC1);
	xa_init_flags(&sdev->ah_xa, XA_FLAGS_ALLOC1);
	xa_init_flags(&sdev->srq_xa, XA_FLAGS_ALLOC1);
	spin_lock_init(&sdev->port_lock);
	sdev->port_link = softrdma_port_link_state(false, false);

	softrdma_set_node_guid(sdev);
	ibdev->phys_port_cnt = 1;
	ibdev->num_comp_vectors = num_possible_cpus();
	ibdev->local_dma_lkey = 0;
	ibdev->uverbs_cmd_mask |= BIT_ULL(IB_USER_VERBS_CMD_POST_SEND);

	ib_set_device_ops(ibdev, &softrdma_dev_ops);
	softrdma_set_verbs_ops(ibdev);
	ibdev->node_type = tp->node_type;
	strscpy(ibdev->node_desc, tp->node_desc, sizeof(ibdev->node_desc));
	ib_set_device_ops(ibdev, tp->ops);
	tp->init_dev(sdev);
	return sdev;
}

/*
 * A device that never registered: ib_dealloc_device() calls
 * softrdma_dealloc_driver(), which releases what softrdma_dev_alloc()
 * took (the counters, the netdev reference) and detaches again.
 */
static void softrdma_dev_free(struct softrdma_dev *sdev)
{
	ib_dealloc_device(&sdev->ibdev);
}

/*
 * The RDMA core puts every new device in init_net. In exclusive netns mode
 * (rdma system set netns exclusive) a device must instead live in its
 * netdev's namespace, or the processes there can neither open it (uverbs)
 * nor bind an RDMA CM ID to it, while those of init_net could. The device
 * is not registered yet, so nobody sees its namespace change; when the
 * namespace exits, softrdma_dev_net_pre_exit() unregisters the device
 * before the core's own exit would move it back to init_net. In shared
 * mode every namespace sees the device anyway, and it stays in init_net
 * as the core intends.
 */
static void softrdma_dev_set_netns(struct softrdma_dev *sdev)
{
	struct net *net = dev_net(sdev->ndev);

	/* still in init_net: access from @net means shared mode */
	if (net_eq(net, &init_net) || rdma_dev_access_netns(&sdev->ibdev, net))
		return;
	write_pnet(&sdev->ibdev.coredev.rdma_net, net);
}

/*
 * The netdev softrdma_dev_add() is putting a device on, from before the
 * device binds to the netdev's namespace until it is registered and the
 * netdev notifier finds it; and whether the netdev unregistered (went,
 * or moved to another namespace) meanwhile.  Protected by RTNL.
 */
static struct net_device *softrdma_adding_ndev;
static bool softrdma_adding_left;

/* Return: 0, or -ENODEV if @ndev is unregistering already. */
VISIBLE_IF_KUNIT int softrdma_dev_adding_begin(struct net_device *ndev)
{
	ASSERT_RTNL();

	if (ndev->reg_state != NETREG_REGISTERED)
		return -ENODEV;
	WARN_ON(softrdma_adding_ndev);
	softrdma_adding_ndev = ndev;
	softrdma_adding_left = false;
	return 0;
}

/* Return: true if the netdev unregistered since _begin(). */
VISIBLE_IF_KUNIT bool softrdma_dev_adding_end(void)
{
	bool left;

	rtnl_lock();
	left = softrdma_adding_left ||
	       softrdma_adding_ndev->reg_state != NETREG_REGISTERED;
	softrdma_adding_ndev = NULL;
	rtnl_unlock();
	return left;
}

/**
 * softrdma_dev_add() - create and register a device on a netdev
 * @name: RDMA device name chosen by the user
 * @ndev: the Ethernet device; the caller holds a reference for the call
 * @tp: which transport, and so which user ABI, the device speaks
 *
 * The caller has checked that the netdev qualifies and carries no device
 * of this transport yet, and serialises calls.
 *
 * Return: 0 or -errno; -ENODEV when the netdev unregistered meanwhile,
 * going away or moving to another namespace (its sockets and GIDs would
 * be the old namespace's).
 */
int softrdma_dev_add(const char *name, struct net_device *ndev,
		     const struct softrdma_transport *tp)
{
	struct softrdma_dev *sdev;
	bool gone;
	int err;

	sdev = softrdma_dev_alloc(ndev, tp);
	if (!sdev)
		return -ENOMEM;

	err = ib_device_set_netdev(&sdev->ibdev, ndev, 1);
	if (err)
		goto out_free;

	rtnl_lock();
	err = softrdma_dev_adding_begin(ndev);
	if (!err)
		softrdma_port_update(sdev, false);
	rtnl_unlock();
	if (err)
		goto out_free;

	if (tp->attach) {
		err = tp->attach(sdev);
		if (err)
			goto out_end;
	}

	softrdma_dev_set_netns(sdev);
	err = ib_register_device(&sdev->ibdev, name, NULL);
	if (err)
		goto out_detach;
	/* From here on the device may be unregistered and freed at any time. */

	/*
	 * A netdev that unregistered before the device was registered (it
	 * is going, or moved to another namespace) sent its
	 * NETDEV_UNREGISTER too early for the notifier to find the device;
	 * take the device down here instead.
	 */
	gone = softrdma_dev_adding_end();
	if (gone) {
		sdev = softrdma_dev_get(ndev, tp);
		if (sdev) {
			softrdma_dev_remove_queued(sdev);
			softrdma_dev_put(sdev);
		}
		return -ENODEV;
	}
	return 0;

out_detach:
	softrdma_dev_detach(sdev);
out_end:
	softrdma_dev_adding_end();
out_free:
	softrdma_dev_free(sdev);
	return err;
}

/**
 * softrdma_dev_get() - find the device of a transport on a netdev
 * @ndev: the netdev
 * @tp: which of the netdev's devices
 *
 * Return: a counted reference (drop with softrdma_dev_put()), or NULL.
 */
struct softrdma_dev *softrdma_dev_get(struct net_device *ndev,
				      const struct softrdma_transport *tp)
{
	struct ib_device *ibdev;

	ibdev = ib_device_get_by_netdev(ndev, tp->driver_id);
	return ibdev ? to_sdev(ibdev) : NULL;
}

void softrdma_dev_put(struct softrdma_dev *sdev)
{
	ib_device_put(&sdev->ibdev);
}

/* Unregister every softrdma device; waits until they are gone. */
void softrdma_dev_remove_all(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(softrdma_transports); i++)
		ib_unregister_driver(softrdma_transports[i]->driver_id);
}

/*
 * A netdev carrying a device became a bond, team or bridge port: the
 * master now takes its frames and holds the addresses, so the device
 * would go deaf, as link.c says when it refuses a port.
 */
static void softrdma_dev_became_port(struct softrdma_dev *sdev,
				     const struct netdev_notifier_changeupper_info *info)
{
	const struct net_device *upper = info->upper_dev;

	if (!info->linking ||
	    !(netif_is_lag_master(upper) || netif_is_bridge_master(upper) ||
	      netif_is_ovs_master(upper)))
		return;
	ibdev_warn(&sdev->ibdev,
		   "%s is now a port of %s: removing the device (add it on %s)\n",
		   netdev_name(sdev->ndev), netdev_name(info->upper_dev),
		   netdev_name(info->upper_dev));
	softrdma_dev_remove_queued(sdev);
}

/*
 * A bond carrying a device of @tp took a port in a mode the device
 * cannot work in: the mode changed after the device was added, which the
 * bond allows only while it has no ports.
 */
static void softrdma_bond_took_port(const struct netdev_notifier_changeupper_info *info,
				    const struct softrdma_transport *tp)
{
	struct softrdma_dev *sdev;
	const char *why;

	if (!info->linking)
		return;
	why = softrdma_link_bond_refused(info->upper_dev, tp);
	if (!why)
		return;
	sdev = softrdma_dev_get(info->upper_dev, tp);
	if (!sdev)
		return;
	ibdev_warn(&sdev->ibdev, "%s took a port as %s: removing the device\n",
		   netdev_name(info->upper_dev), why);
	softrdma_dev_remove_queued(sdev);
	softrdma_dev_put(sdev);
}

static void softrdma_dev_netdev_event(struct softrdma_dev *sdev,
				      unsigned long event, void *ptr)
{
	switch (event) {
	case NETDEV_UNREGISTER:
		/* the netdev leaves its namespace: so do the device's sockets */
		softrdma_dev_remove_queued(sdev);
		break;
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		softrdma_port_update(sdev, true);
		break;
	case NETDEV_CHANGENAME:
		if (sdev->tp->netdev_renamed)
			sdev->tp->netdev_renamed(sdev);
		break;
	case NETDEV_CHANGEADDR:
		if (sdev->tp->netdev_addr_changed)
			sdev->tp->netdev_addr_changed(sdev);
		break;
	case NETDEV_CHANGEUPPER:
		softrdma_dev_became_port(sdev, ptr);
		break;
	default:
		/* MTU changes are read by query_port when asked. */
		break;
	}
}

VISIBLE_IF_KUNIT int softrdma_netdev_event(struct notifier_block *nb,
					   unsigned long event, void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct softrdma_dev *sdev;
	unsigned int i;

	if (event == NETDEV_UNREGISTER && ndev == softrdma_adding_ndev)
		softrdma_adding_left = true;

	for (i = 0; i < ARRAY_SIZE(softrdma_transports); i++) {
		if (event == NETDEV_CHANGEUPPER)
			softrdma_bond_took_port(ptr, softrdma_transports[i]);
		sdev = softrdma_dev_get(ndev, softrdma_transports[i]);
		if (!sdev)
			continue;
		softrdma_dev_netdev_event(sdev, event, ptr);
		softrdma_dev_put(sdev);
	}
	return NOTIFY_DONE;
}

static struct notifier_block softrdma_netdev_nb = {
	.notifier_call = softrdma_netdev_event,
};

int softrdma_netdev_notifier_register(void)
{
	return register_netdevice_notifier(&softrdma_netdev_nb);
}

void softrdma_netdev_notifier_unregister(void)
{
	unregister_netdevice_notifier(&softrdma_netdev_nb);
}

/* A device on a netdev of @net, with a reference; NULL once none is left. */
static struct softrdma_dev *softrdma_dev_get_in_net(struct net *net)
{
	struct softrdma_dev *sdev = NULL;
	struct net_device *ndev;
	unsigned int i;

	rcu_read_lock();
	for_each_netdev_rcu(net, ndev) {
		for (i = 0; i < ARRAY_SIZE(softrdma_transports) && !sdev; i++)
			sdev = softrdma_dev_get(ndev, softrdma_transports[i]);
		if (sdev)
			break;
	}
	rcu_read_unlock();
	return sdev;
}

/*
 * A network namespace that exits takes the devices on its netdevs with
 * it, here, before the RDMA core's own exit (rdma_dev_exit_net()) runs:
 * the pre_exit methods of all pernet operations run before any exit
 * method (cleanup_net()), while the namespace's netdevs are still there.
 * Left to the core, a device of the namespace (exclusive mode) would be
 * moved to init_net and enabled there, clients and all, only to be
 * removed by softrdma_enable_driver() under them: ib_mad, adding QP1 to a
 * device already detached, logged "Couldn't create ib_mad QP1".  A
 * device that is being unregistered already (its netdev's
 * NETDEV_UNREGISTER, a move) is not found any more, or is waited for.
 */
static void __net_exit softrdma_dev_net_pre_exit(struct net *net)
{
	struct softrdma_dev *sdev;

	while ((sdev = softrdma_dev_get_in_net(net)))
		ib_unregister_device_and_put(&sdev->ibdev);
}

static struct pernet_operations softrdma_dev_net_ops = {
	.pre_exit = softrdma_dev_net_pre_exit,
};

int softrdma_dev_netns_register(void)
{
	return register_pernet_subsys(&softrdma_dev_net_ops);
}

/*
 * After softrdma_dev_remove_all() only: unregistering runs the pre_exit
 * for every namespace, init_net included.
 */
void softrdma_dev_netns_unregister(void)
{
	unregister_pernet_subsys(&softrdma_dev_net_ops);
}
