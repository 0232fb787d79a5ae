/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Address handles (IBA vol 1 §11.2.2): the destination of UD sends.
 *
 * librxe learns an AH's number (ah_num) at create time and puts it into
 * each UD send WQE; the kernel maps the number back with
 * softrdma_ah_lookup_av().  The address vector lives in an entry owned by
 * the device's xarray and freed after an RCU grace period, because the
 * core frees the ib_ah itself as soon as destroy_ah returns.
 */
#ifndef SOFTRDMA_AH_H
#define SOFTRDMA_AH_H

#include <linux/rcupdate.h>
#include <rdma/ib_verbs.h>

#include "av.h"

struct softrdma_dev;

struct softrdma_ah_entry {
	struct softrdma_av av;
	const struct ib_pd *pd;
	struct rcu_head rcu;
};

struct softrdma_ah {
	struct ib_ah ibah;
	struct softrdma_ah_entry *entry;
	u32 ah_num;		/* index in sdev->ah_xa, never 0 */
};

int softrdma_ah_lookup_av(struct softrdma_dev *sdev, u32 ah_num,
			  const struct ib_pd *pd, struct softrdma_av *av);

extern const struct ib_device_ops softrdma_ah_ops;

#endif /* SOFTRDMA_AH_H */
