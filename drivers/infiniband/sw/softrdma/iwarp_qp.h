/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The iWARP transport of a queue pair: what qp.c calls on a siwarp
 * device where it calls the RC engines (rc.h) on a sroce device, and
 * what the connection manager (iw_cm.c) calls to hand a connected,
 * MPA-negotiated TCP socket to the data path.
 *
 * The per-QP iWARP state hangs off qp->iw, allocated by
 * softrdma_iwarp_qp_init() and freed by softrdma_iwarp_qp_destroy().
 */
#ifndef SOFTRDMA_IWARP_QP_H
#define SOFTRDMA_IWARP_QP_H

#include <linux/types.h>

struct softrdma_qp;
struct softrdma_iwarp_qp;

/* qp.c: lifecycle, the same calls and contexts as the RC engines */
int softrdma_iwarp_qp_init(struct softrdma_qp *qp);
void softrdma_iwarp_qp_destroy(struct softrdma_qp *qp);
void softrdma_iwarp_qp_reset(struct softrdma_qp *qp);
void softrdma_iwarp_qp_start(struct softrdma_qp *qp);
void softrdma_iwarp_qp_kick(struct softrdma_qp *qp);
void softrdma_iwarp_qp_stop(struct softrdma_qp *qp);

#endif /* SOFTRDMA_IWARP_QP_H */
