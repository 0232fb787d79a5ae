// SPDX-License-Identifier: GPL-2.0-only
/*
 * The iWARP transport of a queue pair.  Until the MPA/DDP/RDMAP data
 * path exists (issue #4), an iWARP QP cannot be created.
 */
#include <linux/errno.h>

#include "iwarp_qp.h"

int softrdma_iwarp_qp_init(struct softrdma_qp *qp)
{
	return 0;
}

void softrdma_iwarp_qp_destroy(struct softrdma_qp *qp)
{
}

void softrdma_iwarp_qp_reset(struct softrdma_qp *qp)
{
}

void softrdma_iwarp_qp_start(struct softrdma_qp *qp)
{
}

void softrdma_iwarp_qp_kick(struct softrdma_qp *qp)
{
}

void softrdma_iwarp_qp_stop(struct softrdma_qp *qp)
{
}

int softrdma_iwarp_qp_attach(struct softrdma_qp *qp, struct socket *sock,
			     const struct softrdma_iwarp_params *params,
			     struct softrdma_iw_cep *cep)
{
	return -EOPNOTSUPP;
}
