/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The iWARP connection manager provider (the iw_cm callbacks).
 */
#ifndef SOFTRDMA_IW_CM_H
#define SOFTRDMA_IW_CM_H

#include <rdma/ib_verbs.h>

extern const struct ib_device_ops softrdma_iw_cm_ops;

#endif /* SOFTRDMA_IW_CM_H */
