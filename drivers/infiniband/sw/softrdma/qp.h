/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Queue pairs: the object, its queues and its state.  The verbs core owns
 * the object's life and the state machine (qp.c); the RC protocol engines
 * (rc.h) own the protocol state inside it.
 *
 * Locking, outermost first:
 *   state_mutex	modify_qp, destroy, flushes; may sleep
 *   sq.lock		the SQ's kernel consumer side and snapshots; the
 *			requester and completer (rc.h)
 *   rq.lock		the RQ's kernel consumer side; the responder
 *   sq.post_lock,	kernel QPs: the producer side of post_send and
 *   rq.post_lock	post_recv
 *   cq->lock		innermost (cq.c)
 * All spinlocks are taken with bottom halves off: the receive path runs
 * the engines in softirq.
 *
 * Lifetime: the QP is published in sdev->qp_xa only once it is fully
 * built, and looked up from the receive path with softrdma_qp_get(),
 * which takes a reference.  Destroy unpublishes it, stops the engines,
 * drops the creation reference and waits for the others.
 */
#ifndef SOFTRDMA_QP_H
#define SOFTRDMA_QP_H

#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

#include "av.h"
#include "rc.h"
#include "ud.h"
#include "wqe.h"

struct softrdma_cq;
struct softrdma_iwarp_qp;
struct softrdma_dev;
struct softrdma_ring;

struct softrdma_sq {
	/* protects ring's consumer side, wqe[] and fetch; see rc.h */
	spinlock_t lock;
	/* kernel QPs: protects ring's producer side (post_send) */
	spinlock_t post_lock;
	struct softrdma_ring *ring;
	/*
	 * Kernel snapshots of the WQEs between the ring's consumer index
	 * (oldest not yet completed) and @fetch, indexed by slot.  A user
	 * slot is released to librxe only when its WQE completes, as stock
	 * rxe does, so max_send_wr bounds what is outstanding.
	 */
	struct softrdma_send_wqe *wqe;
	u32 fetch;		/* slot of the next WQE to snapshot */
	u32 fetched;		/* snapshots taken and not yet completed */
	struct softrdma_wqe_limits lim;
};

struct softrdma_rq {
	/* protects ring's consumer side; the responder, see rc.h */
	spinlock_t lock;
	/* kernel QPs: protects ring's producer side (post_recv) */
	spinlock_t post_lock;
	struct softrdma_ring *ring;	/* NULL when the QP uses an SRQ */
	struct softrdma_wqe_limits lim;
};

struct softrdma_qp {
	struct ib_qp ibqp;
	struct softrdma_dev *sdev;

	refcount_t ref;			/* creation + receive-path lookups */
	struct completion released;	/* ref reached zero */

	/* serialises modify_qp, query_qp, destroy_qp and flushes */
	struct mutex state_mutex;
	/*
	 * Written under state_mutex and sq.lock and rq.lock together, so
	 * holding any one of them gives a stable value; READ_ONCE elsewhere.
	 */
	enum ib_qp_state state;
	/* moves the QP to ERR, or flushes it there, in process context */
	struct work_struct error_work;

	/* attributes as set, for query_qp; written under state_mutex */
	struct ib_qp_attr attr;
	struct softrdma_av av;		/* destination, from attr.ah_attr */
	u16 src_port;			/* UDP source port, ECMP entropy */
	u32 mtu;			/* path MTU in bytes */

	struct softrdma_cq *scq;
	struct softrdma_cq *rcq;
	bool sq_sig_all;
	bool user;

	struct softrdma_sq sq;
	struct softrdma_rq rq;

	struct softrdma_rc rc;		/* RoCE: protocol engines, rc.h */
	struct softrdma_ud ud;		/* RoCE UD and GSI: ud.h */
	struct softrdma_iwarp_qp *iw;	/* iWARP: iwarp_qp.h */
};

static inline struct softrdma_qp *to_sqp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct softrdma_qp, ibqp);
}

static inline u32 softrdma_qpn(const struct softrdma_qp *qp)
{
	return qp->ibqp.qp_num;
}

struct softrdma_qp *softrdma_qp_get(struct softrdma_dev *sdev, u32 qpn);
void softrdma_qp_put(struct softrdma_qp *qp);

void softrdma_qp_error(struct softrdma_qp *qp);

struct softrdma_send_wqe *softrdma_sq_fetch(struct softrdma_qp *qp);
int softrdma_rq_take(struct softrdma_qp *qp, struct softrdma_recv_wqe *wqe);

void softrdma_qp_complete_send(struct softrdma_qp *qp,
			       const struct softrdma_send_wqe *wqe,
			       enum ib_wc_status status);
void softrdma_qp_complete_recv(struct softrdma_qp *qp, struct ib_wc *wc,
			       bool solicited);

extern const struct ib_device_ops softrdma_qp_ops;

#endif /* SOFTRDMA_QP_H */
