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

#include "qp.h"
#include "rc.h"
#include "ud.h"

struct softrdma_roce_path;

/*
 * A QP of a RoCE device: the verbs core's QP, its path and the state of
 * the engine its type runs (the RDMA core allocates this size, roce_dev.c).
 */
struct softrdma_roce_qp {
	struct softrdma_qp qp;		/* first: ibqp at offset 0 */
	u16 src_port;			/* UDP source port, ECMP entropy */
	/*
	 * qp.av and @src_port as the data path reads them, under RCU;
	 * replaced whole under qp.state_mutex when either changes, so that
	 * transmit and the receive address check see one consistent AV.
	 * NULL until the first is set.
	 */
	struct softrdma_roce_path __rcu *path;
	struct softrdma_rc rc;		/* RC: protocol engines, rc.h */
	struct softrdma_ud ud;		/* UD and GSI: ud.h */
};

static inline struct softrdma_roce_qp *to_roce_qp(struct softrdma_qp *qp)
{
	return container_of(qp, struct softrdma_roce_qp, qp);
}

/* the RC engines' state of a RoCE QP */
static inline struct softrdma_rc *softrdma_qp_rc(struct softrdma_qp *qp)
{
	return &to_roce_qp(qp)->rc;
}

static inline struct softrdma_qp *softrdma_rc_qp(struct softrdma_rc *rc)
{
	return &container_of(rc, struct softrdma_roce_qp, rc)->qp;
}

/* the UD engine's state of a RoCE QP */
static inline struct softrdma_ud *softrdma_qp_ud(struct softrdma_qp *qp)
{
	return &to_roce_qp(qp)->ud;
}

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
