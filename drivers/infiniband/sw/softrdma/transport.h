/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A transport under the verbs core: what a device speaks on the wire.
 * RoCEv2 (roce_dev.c, link type "sroce") and iWARP (iwarp_dev.c, link type
 * "siwarp") each fill one struct softrdma_transport; the verbs core reads
 * a device's limits from it and calls into the transport only through it,
 * so that it needs to know nothing of UDP or TCP.
 */
#ifndef SOFTRDMA_TRANSPORT_H
#define SOFTRDMA_TRANSPORT_H

#include <linux/types.h>
#include <rdma/ib_verbs.h>

#include "device.h"

/* What a device advertises in query_device and enforces (param.h) */
struct softrdma_transport_limits {
	u32 max_qp_wr;
	u32 max_sge;		/* per send and receive WQE */
	u32 max_sge_rd;
	u32 max_inline;		/* inline bytes of a kernel send WQE */
	int max_cqe;
	u32 max_msg_sz;
	int max_ah;		/* 0: no address handles */
	u32 gid_tbl_len;
	enum ib_atomic_cap atomic_cap;
	u64 device_cap_flags;	/* on top of the ones every device has */
};

struct softrdma_transport {
	const char *link_type;		/* rdma link add ... type <link_type> */
	/* binds the user-space provider (librxe, libsiw) to the device */
	enum rdma_driver_id driver_id;
	enum softrdma_uabi uabi;
	u8 node_type;			/* RDMA_NODE_* */
	const char *node_desc;
	/* the transport's verbs, added after the verbs core's */
	const struct ib_device_ops *ops;
	struct softrdma_transport_limits lim;
	u32 core_cap_flags;		/* RDMA_CORE_PORT_* */
	u32 max_mad_size;		/* 0: no MADs */

	/* finish a new device (GUID, names), before it is registered */
	void (*init_dev)(struct softrdma_dev *sdev);
	/* query_port's transport part; @mtu is the netdev's */
	void (*query_port)(const struct softrdma_dev *sdev, unsigned int mtu,
			   struct ib_port_attr *attr);
	/*
	 * bind the device to the network (may be NULL), before it is
	 * registered; detach undoes it and may be called more than once
	 */
	int (*attach)(struct softrdma_dev *sdev);
	void (*detach)(struct softrdma_dev *sdev);
	/* the netdev changed its name (may be NULL) */
	void (*netdev_renamed)(struct softrdma_dev *sdev);
};

extern const struct softrdma_transport softrdma_roce_transport;
extern const struct softrdma_transport softrdma_iwarp_transport;

#endif /* SOFTRDMA_TRANSPORT_H */
