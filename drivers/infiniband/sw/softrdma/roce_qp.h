/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * RoCEv2 queue pairs: what the RoCE transport (roce_dev.c) does to a QP
 * beyond the verbs core: the QP types and capacities it takes, the
 * engines it runs and modify_qp with its path (address vector, UDP
 * source port) as the data path reads it.
 */
#ifndef SOFTRDMA_ROCE_QP_H
#define SOFTRDMA_ROCE_QP_H

#include <rdma/ib_verbs.h>

struct softrdma_qp;

int softrdma_roce_qp_check_init(const struct ib_qp_init_attr *init,
				bool user);
const struct softrdma_qp_engine *
softrdma_roce_qp_engine(enum ib_qp_type type);
void softrdma_roce_qp_created(struct softrdma_qp *qp);
void softrdma_roce_qp_destroy(struct softrdma_qp *qp);
int softrdma_roce_modify_qp(struct softrdma_qp *qp, struct ib_qp_attr *attr,
			    int mask);
bool softrdma_roce_send_wr_ok(const struct ib_send_wr *wr);

#endif /* SOFTRDMA_ROCE_QP_H */
