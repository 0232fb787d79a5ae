/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The user ABI of a device, as the verbs core uses it: one table per ABI
 * (librxe's rings, queue_rxe_abi.c; libsiw's, queue_siw_abi.c), which the
 * device's transport names and the device keeps from its creation.
 */
#ifndef SOFTRDMA_UABI_H
#define SOFTRDMA_UABI_H

struct softrdma_cq_abi;

struct softrdma_uabi_ops {
	const struct softrdma_cq_abi *cq;	/* user CQs */
};

extern const struct softrdma_uabi_ops softrdma_rxe_uabi_ops;
extern const struct softrdma_uabi_ops softrdma_siw_uabi_ops;

#endif /* SOFTRDMA_UABI_H */
