/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The verbs every softrdma device offers, whatever its transport.
 */
#ifndef SOFTRDMA_VERBS_H
#define SOFTRDMA_VERBS_H

#include <rdma/ib_verbs.h>

struct softrdma_ucontext {
	struct ib_ucontext ibuc;
};

struct softrdma_pd {
	struct ib_pd ibpd;
};

/* Until the verbs core lands (issue #3) these objects carry nothing. */
struct softrdma_cq {
	struct ib_cq ibcq;
};

struct softrdma_qp {
	struct ib_qp ibqp;
};

extern const struct ib_device_ops softrdma_verbs_ops;

#endif /* SOFTRDMA_VERBS_H */
