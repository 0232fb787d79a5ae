/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The user ABI of a device, as the verbs core uses it: one table per ABI
 * (librxe's rings, queue_rxe_abi.c; libsiw's, queue_siw_abi.c), which the
 * device's transport names and the device keeps from its creation.
 */
#ifndef SOFTRDMA_UABI_H
#define SOFTRDMA_UABI_H

#include <linux/types.h>

struct ib_udata;
struct softrdma_cq_abi;
struct softrdma_qp_abi;
struct softrdma_srq_abi;

/* room for any ABI's create_qp/create_srq answer (asserted by each) */
#define SOFTRDMA_UABI_RESP_MAX	32

/*
 * Besides its rings, an ABI answers some verbs in udata.  A *_check
 * refuses a buffer too short for the ABI before the verb counts or builds
 * anything; a *_resp writes the answer.  NULL: the ABI exchanges nothing
 * there.
 */
struct softrdma_uabi_ops {
	const struct softrdma_cq_abi *cq;	/* user CQs */
	const struct softrdma_qp_abi *qp;	/* user QPs' rings (qp.h) */
	const struct softrdma_srq_abi *srq;	/* user SRQs' rings (srq.h) */
	/* alloc_ucontext */
	int (*ucontext_check)(const struct ib_udata *udata);
	int (*ucontext_resp)(struct ib_udata *udata);
	/* reg_user_mr: the new MR's @key, before the MR is published */
	int (*reg_mr_check)(const struct ib_udata *udata);
	int (*reg_mr_resp)(struct ib_udata *udata, u32 key);
	/* create_user_ah: the new AH's @ah_num */
	int (*create_ah_resp)(struct ib_udata *udata, u32 ah_num);
};

extern const struct softrdma_uabi_ops softrdma_rxe_uabi_ops;
extern const struct softrdma_uabi_ops softrdma_siw_uabi_ops;

#endif /* SOFTRDMA_UABI_H */
