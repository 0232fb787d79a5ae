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

void softrdma_set_verbs_ops(struct ib_device *ibdev);

#endif /* SOFTRDMA_VERBS_H */
