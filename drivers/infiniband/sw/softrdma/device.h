/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A softrdma device: one ib_device bound to one Ethernet netdev, speaking
 * one transport.  A netdev may carry one device of each transport.
 */
#ifndef SOFTRDMA_DEVICE_H
#define SOFTRDMA_DEVICE_H

#include <linux/atomic.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#include "port.h"
#include "res.h"

struct softrdma_transport;

struct softrdma_dev {
	struct ib_device ibdev;
	/* what the device speaks on the wire (transport.h) */
	const struct softrdma_transport *tp;
	/* the user ABI it speaks, fixed by the transport (uabi.h) */
	const struct softrdma_uabi_ops *uabi_ops;

	/* held from creation until dealloc_driver */
	struct net_device *ndev;
	netdevice_tracker ndev_tracker;

	/* memory regions by key index (key >> 8); RCU lookups */
	struct xarray mr_xa;
	/* queue pairs by QP number; RCU lookups */
	struct xarray qp_xa;
	u32 qp_next;		/* next QP number to try, for xa_alloc_cyclic */
	/* shared receive queues by srq_num (srq.h); numbering only */
	struct xarray srq_xa;
	/* address handle entries by ah_num; RCU lookups (ah.h) */
	struct xarray ah_xa;

	/* protects port_link and port_speed */
	spinlock_t port_lock;
	struct softrdma_link_state port_link;
	struct softrdma_link_speed port_speed;

	/* objects held, against the advertised limits (res.h) */
	struct softrdma_res_count res;

	/* per-port counters (counters.h), from creation until freed */
	struct softrdma_counters __percpu *counters;
};

static inline struct softrdma_dev *to_sdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct softrdma_dev, ibdev);
}

int softrdma_dev_add(const char *name, struct net_device *ndev,
		     const struct softrdma_transport *tp);
struct softrdma_dev *softrdma_dev_get(struct net_device *ndev,
				      const struct softrdma_transport *tp);
void softrdma_dev_put(struct softrdma_dev *sdev);
void softrdma_dev_remove_all(void);

int softrdma_netdev_notifier_register(void);
void softrdma_netdev_notifier_unregister(void);

/* devices go with their netdevs' namespace, before the core moves them */
int softrdma_dev_netns_register(void);
void softrdma_dev_netns_unregister(void);

void softrdma_dev_fill_attr(const struct softrdma_dev *sdev,
			    struct ib_device_attr *attr);

#if IS_ENABLED(CONFIG_KUNIT)
int softrdma_dev_adding_begin(struct net_device *ndev);
bool softrdma_dev_adding_end(void);
int softrdma_netdev_event(struct notifier_block *nb, unsigned long event,
			  void *ptr);
#endif

#endif /* SOFTRDMA_DEVICE_H */
