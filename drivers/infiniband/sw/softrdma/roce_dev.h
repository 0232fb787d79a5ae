/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A device of the RoCE transport (roce_dev.c): the verbs core's device and
 * what RoCE keeps beside it.
 */
#ifndef SOFTRDMA_ROCE_DEV_H
#define SOFTRDMA_ROCE_DEV_H

#include "device.h"

struct softrdma_roce_socks;

/* the RDMA core allocates this size (softrdma_roce_transport.dev_size) */
struct softrdma_roce_dev {
	struct softrdma_dev sdev;	/* first: ibdev at offset 0 */
	/* the namespace's UDP sockets (roce_net.c); softrdma_roce_net_lock */
	struct softrdma_roce_socks *socks;
};

static inline struct softrdma_roce_dev *to_roce_dev(struct softrdma_dev *sdev)
{
	return container_of(sdev, struct softrdma_roce_dev, sdev);
}

#endif /* SOFTRDMA_ROCE_DEV_H */
