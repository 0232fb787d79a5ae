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

#include <linux/indirect_call_wrapper.h>
#include <linux/types.h>
#include <rdma/ib_verbs.h>

#include "device.h"

struct softrdma_qp;
struct softrdma_send_wqe;

/*
 * The engines under a QP: on sroce devices the RoCEv2 RC engines (rc.h)
 * for RC QPs and the UD engine (ud.h) for UD and GSI QPs; the iWARP data
 * path (iwarp_qp.h) on siwarp devices.  Same calls, same contexts.
 */
struct softrdma_qp_engine {
	/* allocate and set up, before the QP is published (may be NULL) */
	int (*init)(struct softrdma_qp *qp);
	/* free what init allocated; the QP is stopped (may be NULL) */
	void (*destroy)(struct softrdma_qp *qp);
	/* forget all protocol state on RESET; stopped (may be NULL) */
	void (*reset)(struct softrdma_qp *qp);
	/* run in the QP's new state (RTR, RTS, SQD to RTS) */
	void (*start)(struct softrdma_qp *qp);
	/* the doorbell: send what was posted */
	void (*kick)(struct softrdma_qp *qp);
	/* nothing runs once this returns */
	void (*stop)(struct softrdma_qp *qp);
	/*
	 * RTS -> SQD: start no new send WQE; raise IB_EVENT_SQ_DRAINED once
	 * those under way are done (may be NULL)
	 */
	void (*drain)(struct softrdma_qp *qp);
	/*
	 * the flush takes the receive WQE a message in progress holds:
	 * stopped, rq.lock held; false if none (may be NULL)
	 */
	bool (*release_rwqe)(struct softrdma_qp *qp, u64 *wr_id);
	/* fill a kernel send WQE's own fields from @wr (may be NULL) */
	int (*kernel_wqe)(struct softrdma_send_wqe *wqe,
			  const struct ib_send_wr *wr);
};

/*
 * The doorbells, called by name (softrdma_qp_engine_kick()), so that the
 * call every post makes is not a retpoline.
 */
INDIRECT_CALLABLE_DECLARE(void softrdma_iwarp_qp_kick(struct softrdma_qp *qp));
INDIRECT_CALLABLE_DECLARE(void softrdma_rc_kick(struct softrdma_qp *qp));
INDIRECT_CALLABLE_DECLARE(void softrdma_ud_kick(struct softrdma_qp *qp));

/* @eng->kick(@qp), compared and called directly, not through a retpoline */
static inline void softrdma_qp_engine_kick(const struct softrdma_qp_engine *eng,
					   struct softrdma_qp *qp)
{
	INDIRECT_CALL_3(eng->kick, softrdma_iwarp_qp_kick, softrdma_rc_kick,
			softrdma_ud_kick, qp);
}

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
	u32 max_mw;		/* 0: no memory windows */
};

struct softrdma_transport {
	const char *link_type;		/* rdma link add ... type <link_type> */
	/* binds the user-space provider (librxe, libsiw) to the device */
	enum rdma_driver_id driver_id;
	const struct softrdma_uabi_ops *uabi_ops;	/* uabi.h */
	u8 node_type;			/* RDMA_NODE_* */
	const char *node_desc;
	/* the transport's verbs, added after the verbs core's */
	const struct ib_device_ops *ops;
	struct softrdma_transport_limits lim;
	u32 core_cap_flags;		/* RDMA_CORE_PORT_* */
	u32 max_mad_size;		/* 0: no MADs */
	/* why a device may not sit on a VLAN netdev (NULL: it may) */
	const char *vlan_refused;
	/*
	 * why a device may not sit on a bond that hands one flow's frames
	 * to several ports in turn (balance-rr) or to all of them
	 * (broadcast): out of order or twice (NULL: it may)
	 */
	const char *bond_spray_refused;
	/*
	 * the device's GID is its netdev's MAC: no two devices of the
	 * transport may sit on netdevs sharing one (link.c)
	 */
	bool gid_is_mac;
	/*
	 * bytes of a device: struct softrdma_dev first, then the
	 * transport's own state (SOFTRDMA_DEV_SIZE())
	 */
	size_t dev_size;

	/*
	 * the transport's global state at module load (may be NULL), in
	 * softrdma_transports[] order; unload undoes it, in reverse
	 */
	int (*load)(void);
	void (*unload)(void);

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
	/* the netdev changed its MAC address (may be NULL); RTNL held */
	void (*netdev_addr_changed)(struct softrdma_dev *sdev);

	/*
	 * QPs.  qp_check_init: the transport's part of create_qp's checks
	 * (QP types, capacities), after the verbs core's.
	 */
	int (*qp_check_init)(const struct ib_qp_init_attr *init, bool user);
	/* the engines of a new QP of @type */
	const struct softrdma_qp_engine *(*qp_engine)(enum ib_qp_type type);
	/* the QP has its number, before it is published (may be NULL) */
	void (*qp_created)(struct softrdma_qp *qp);
	/* free the transport's QP state, last in destroy (may be NULL) */
	void (*qp_destroy)(struct softrdma_qp *qp);
	/* modify_qp, standard attributes only (qp_state.h's rules) */
	int (*modify_qp)(struct softrdma_qp *qp, struct ib_qp_attr *attr,
			 int mask);
	/* can the transport carry this kernel send WR? */
	bool (*send_wr_ok)(const struct ib_send_wr *wr);
	/*
	 * QPs are bound to a connection that the CM brings up: post_send
	 * before it is -ENOTCONN (softrdma_qp_send_verdict())
	 */
	bool connected;
};

/*
 * dev_size of a transport whose device is struct @type, with @member
 * (its struct softrdma_dev, or softrdma_dev's own ib_device) at offset 0
 */
#define SOFTRDMA_DEV_SIZE(type, member)				\
	(sizeof(struct type) + BUILD_BUG_ON_ZERO(offsetof(struct type, member)))

extern const struct softrdma_transport softrdma_roce_transport;
extern const struct softrdma_transport softrdma_iwarp_transport;

/* every transport a device may speak (transport.c) */
#define SOFTRDMA_NR_TRANSPORTS	2
extern const struct softrdma_transport *const
softrdma_transports[SOFTRDMA_NR_TRANSPORTS];

/* load of every transport, unwound on failure; transport.c */
int softrdma_transports_init(void);
void softrdma_transports_exit(void);

#endif /* SOFTRDMA_TRANSPORT_H */
