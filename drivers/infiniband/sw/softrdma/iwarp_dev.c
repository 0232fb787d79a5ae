// SPDX-License-Identifier: GPL-2.0-only
/*
 * The iWARP transport of a softrdma device (link type "siwarp"): what the
 * device advertises, its port and its connection manager.  It speaks the
 * siw user ABI, so libsiw drives it.
 */
#include <linux/etherdevice.h>
#include <rdma/iw_cm.h>

#include "device.h"
#include "iw_cm.h"
#include "iwarp_qp.h"
#include "iwarp_tx.h"
#include "param.h"
#include "port.h"
#include "qp.h"
#include "transport.h"
#include "uabi.h"

static void softrdma_iwarp_query_port(const struct softrdma_dev *sdev,
				      unsigned int mtu,
				      struct ib_port_attr *attr)
{
	/*
	 * iWARP rides on a TCP byte stream, so the IB MTU is only advisory:
	 * the largest IB MTU that fits in one frame, as consumers expect.
	 */
	attr->active_mtu = softrdma_port_mtu_within(mtu);
	attr->port_cap_flags = IB_PORT_CM_SUP;
}

/* iWARP has no GID table of its own: its one GID is the MAC address. */
static int softrdma_iwarp_query_gid(struct ib_device *ibdev, u32 port_num,
				    int index, union ib_gid *gid)
{
	struct softrdma_dev *sdev = to_sdev(ibdev);

	if (index)
		return -EINVAL;
	memset(gid, 0, sizeof(*gid));
	memcpy(gid->raw, sdev->ndev->dev_addr, ETH_ALEN);
	return 0;
}

/*
 * The RDMA core caches the GID and finds a device by it (the RDMA CM, by
 * the MAC of an address's netdev): a bond takes its first port's MAC, or
 * the active port's on failover with fail_over_mac.  A GID change event
 * has the core read it again.
 */
static void softrdma_iwarp_netdev_addr_changed(struct softrdma_dev *sdev)
{
	struct ib_event event = {
		.device = &sdev->ibdev,
		.element.port_num = 1,
		.event = IB_EVENT_GID_CHANGE,
	};

	ib_dispatch_event(&event);
}

static void softrdma_iwarp_netdev_renamed(struct softrdma_dev *sdev)
{
	strscpy(sdev->ibdev.iw_ifname, sdev->ndev->name,
		sizeof(sdev->ibdev.iw_ifname));
}

/*
 * Node GUIDs are the netdev's EUI-64.  The iWARP device on the same netdev
 * flips the EUI-64's 0xfffe filler to 0xfffd so that the two devices never
 * share a GUID.
 */
static void softrdma_iwarp_init_dev(struct softrdma_dev *sdev)
{
	struct ib_device *ibdev = &sdev->ibdev;
	u8 *guid = (u8 *)&ibdev->node_guid;

	guid[4] = 0xfd;
	softrdma_iwarp_netdev_renamed(sdev);
	ibdev->iw_driver_flags = IW_F_NO_PORT_MAP;
	ib_set_device_ops(ibdev, &softrdma_iw_cm_ops);
}

/* The siw user ABI: libsiw binds on driver id and ABI version 1. */
static const struct ib_device_ops softrdma_iwarp_ops = {
	.driver_id = RDMA_DRIVER_SIW,
	.uverbs_abi_ver = 1,
	.query_gid = softrdma_iwarp_query_gid,
	.fill_res_qp_entry = softrdma_iwarp_fill_res_qp_entry,

	INIT_RDMA_OBJ_SIZE(ib_qp, softrdma_iw_qp, qp.ibqp),
};

/* module load: the transmit side, then the connection manager */
static int softrdma_iwarp_load(void)
{
	int err;

	err = softrdma_iw_tx_init();
	if (err)
		return err;
	err = softrdma_iw_cm_init();
	if (err)
		softrdma_iw_tx_exit();
	return err;
}

static void softrdma_iwarp_unload(void)
{
	softrdma_iw_cm_exit();
	softrdma_iw_tx_exit();
}

/* the device advertises what the siw user ABI can carry */
const struct softrdma_transport softrdma_iwarp_transport = {
	.link_type = "siwarp",
	.driver_id = RDMA_DRIVER_SIW,
	.uabi_ops = &softrdma_siw_uabi_ops,
	.node_type = RDMA_NODE_RNIC,
	.node_desc = "softrdma iWARP",
	.ops = &softrdma_iwarp_ops,
	.lim = {
		.max_qp_wr = SOFTRDMA_IWARP_MAX_QP_WR,
		.max_sge = SOFTRDMA_IWARP_MAX_SGE,
		.max_sge_rd = SOFTRDMA_IWARP_MAX_SGE_RD,
		.max_inline = SOFTRDMA_IWARP_MAX_INLINE,
		.max_cqe = SOFTRDMA_IWARP_MAX_CQE,
		.max_msg_sz = SOFTRDMA_IWARP_MAX_MSG_SZ,
		.gid_tbl_len = 1,
		.atomic_cap = IB_ATOMIC_NONE,
	},
	/*
	 * .vlan_refused stays NULL: an iWARP device's GID is its MAC and the
	 * TCP stack routes its connections, so it works on a VLAN.
	 */
	/* TCP puts a bond's reordered or duplicated segments right */
	.gid_is_mac = true,
	.core_cap_flags = RDMA_CORE_PORT_IWARP,
	.dev_size = SOFTRDMA_DEV_SIZE(softrdma_dev, ibdev),
	.load = softrdma_iwarp_load,
	.unload = softrdma_iwarp_unload,
	.init_dev = softrdma_iwarp_init_dev,
	.query_port = softrdma_iwarp_query_port,
	.netdev_renamed = softrdma_iwarp_netdev_renamed,
	.netdev_addr_changed = softrdma_iwarp_netdev_addr_changed,
	.qp_check_init = softrdma_iwarp_qp_check_init,
	.qp_engine = softrdma_iwarp_qp_engine,
	.modify_qp = softrdma_iwarp_modify_qp,
	.send_wr_ok = softrdma_iwarp_send_wr_ok,
	.connected = true,
};
