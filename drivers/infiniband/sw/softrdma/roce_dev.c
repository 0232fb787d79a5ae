// SPDX-License-Identifier: GPL-2.0-only
/*
 * The RoCEv2 transport of a softrdma device (link type "sroce"): what the
 * device advertises, its port and its UDP sockets.  It speaks the rxe
 * user ABI, so librxe drives it.
 */
#include <rdma/ib_mad.h>

#include "compat.h"
#include "counters.h"
#include "device.h"
#include "mw.h"
#include "param.h"
#include "rc.h"
#include "roce_dev.h"
#include "roce_net.h"
#include "roce_qp.h"
#include "transport.h"
#include "uabi.h"

/*
 * The management side of a RoCE port: the CM is supported (the GSI QP),
 * and the IBA 14.2.5.6 PortInfo violation counters are the receive drops
 * of the same name, saturating at 16 bits.
 */
static void softrdma_roce_port_mgmt(const struct softrdma_dev *sdev,
				    struct ib_port_attr *attr)
{
	attr->port_cap_flags = IB_PORT_CM_SUP;
	attr->qkey_viol_cntr =
		min_t(u64, U16_MAX,
		      softrdma_counter_read(sdev, SOFTRDMA_CNT_RCV_BAD_QKEY));
	attr->bad_pkey_cntr =
		min_t(u64, U16_MAX,
		      softrdma_counter_read(sdev, SOFTRDMA_CNT_RCV_BAD_PKEY));
}

static void softrdma_roce_query_port(const struct softrdma_dev *sdev,
				     unsigned int mtu,
				     struct ib_port_attr *attr)
{
	attr->active_mtu = softrdma_roce_path_mtu(mtu);
	attr->ip_gids = true;
	softrdma_roce_port_mgmt(sdev, attr);
}

static void softrdma_roce_init_dev(struct softrdma_dev *sdev)
{
	sdev->ibdev.uverbs_cmd_mask |=
		BIT_ULL(IB_USER_VERBS_CMD_REQ_NOTIFY_CQ);
	/* memory windows: librxe binds them on the send queue */
	ib_set_device_ops(&sdev->ibdev, &softrdma_mw_ops);
}

/*
 * The RDMA core gives a RoCE device the addresses of its netdev's upper
 * devices as GIDs, also those of a macvlan or VLAN moved into another
 * network namespace.  In exclusive mode (rdma system set netns exclusive)
 * a device must not carry them: the processes of the device's namespace
 * could read the other namespace's addresses and send from them.  In
 * shared mode the device serves every namespace and takes them (a pod on
 * a macvlan using the host's device).
 */
static int softrdma_roce_add_gid(const struct ib_gid_attr *attr,
				 void **context)
{
	const struct net_device *ndev;
	bool ok;

	rcu_read_lock();
	ndev = rcu_dereference(attr->ndev);
	ok = ndev && rdma_dev_access_netns(attr->device, dev_net(ndev));
	rcu_read_unlock();
	return ok ? 0 : -EACCES;
}

static int softrdma_roce_del_gid(const struct ib_gid_attr *attr,
				 void **context)
{
	return 0;
}

/* The rxe user ABI: librxe binds on driver id and ABI version 2. */
static const struct ib_device_ops softrdma_roce_ops = {
	.driver_id = RDMA_DRIVER_RXE,
	.uverbs_abi_ver = 2,
	.add_gid = softrdma_roce_add_gid,
	.del_gid = softrdma_roce_del_gid,

	INIT_RDMA_OBJ_SIZE(ib_qp, softrdma_roce_qp, qp.ibqp),
};

/* module load: the per-CPU RC ACK queues, then the per-netns UDP state */
static int softrdma_roce_load(void)
{
	int err;

	softrdma_rc_ack_init();
	err = softrdma_roce_net_init();
	if (err)
		softrdma_rc_ack_exit();
	return err;
}

static void softrdma_roce_unload(void)
{
	softrdma_roce_net_exit();
	softrdma_rc_ack_exit();
}

/*
 * RoCE ports are full RoCEv2 ports: the protocol, Ethernet address
 * handles, and the MAD, IB CM and AF_IB capabilities, for which the MAD
 * layer creates the GSI QP (QP1, ud.h) and rdma_cm runs on top.
 */
const struct softrdma_transport softrdma_roce_transport = {
	.link_type = "sroce",
	.driver_id = RDMA_DRIVER_RXE,
	.uabi_ops = &softrdma_rxe_uabi_ops,
	.node_type = RDMA_NODE_IB_CA,
	.node_desc = "softrdma RoCEv2",
	.ops = &softrdma_roce_ops,
	.lim = {
		.max_qp_wr = SOFTRDMA_MAX_QP_WR,
		.max_sge = SOFTRDMA_ROCE_MAX_SGE,
		.max_sge_rd = SOFTRDMA_ROCE_MAX_SGE_RD,
		.max_inline = SOFTRDMA_ROCE_MAX_INLINE,
		.max_cqe = SOFTRDMA_MAX_CQE,
		.max_msg_sz = SOFTRDMA_ROCE_MAX_MSG_SZ,
		.max_ah = SOFTRDMA_MAX_AH,
		.gid_tbl_len = SOFTRDMA_ROCE_GID_TBL_LEN,
		/*
		 * RoCE atomics are atomic against every softrdma responder on
		 * the host (one lock), not against CPU accesses.
		 */
		.atomic_cap = IB_ATOMIC_HCA,
		/*
		 * IBA 1.5 ATOMIC WRITE and FLUSH where the core carries them
		 * (compat.h); FLUSH to global visibility only, never to
		 * persistence (softrdma.rst)
		 */
		.device_cap_flags = IB_DEVICE_RC_RNR_NAK_GEN |
				    IB_DEVICE_MEM_WINDOW |
				    IB_DEVICE_MEM_WINDOW_TYPE_2B |
				    SOFTRDMA_DEVICE_ATOMIC_WRITE |
				    SOFTRDMA_DEVICE_FLUSH_GLOBAL,
		.max_mw = SOFTRDMA_MAX_MW,
	},
	.core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP,
	.max_mad_size = IB_MGMT_MAD_SIZE,
	/*
	 * The RDMA core gives a RoCE device the IP GIDs of its netdev only
	 * when that is not a VLAN (roce_gid_mgmt matches a VLAN's addresses
	 * to the device on its real device), so one on a VLAN would have
	 * the link-local GID alone.
	 */
	.vlan_refused = "a VLAN, which gets no IP GIDs; add sroce on its real device",
	/*
	 * A reliable connection takes a packet out of order as lost (IBA
	 * 9.7.5: a sequence error NAK, and the requester sends again from
	 * there), and UD would hand a duplicate to the application.
	 */
	.bond_spray_refused =
		"a bond in balance-rr or broadcast mode, which reorders or duplicates RoCE packets; "
		"use active-backup, balance-xor, 802.3ad, balance-tlb or balance-alb",
	.dev_size = SOFTRDMA_DEV_SIZE(softrdma_roce_dev, sdev),
	.load = softrdma_roce_load,
	.unload = softrdma_roce_unload,
	.init_dev = softrdma_roce_init_dev,
	.query_port = softrdma_roce_query_port,
	.attach = softrdma_roce_net_attach,
	.detach = softrdma_roce_net_detach,
	.qp_check_init = softrdma_roce_qp_check_init,
	.qp_engine = softrdma_roce_qp_engine,
	.qp_created = softrdma_roce_qp_created,
	.qp_destroy = softrdma_roce_qp_destroy,
	.modify_qp = softrdma_roce_modify_qp,
	.send_wr_ok = softrdma_roce_send_wr_ok,
};
