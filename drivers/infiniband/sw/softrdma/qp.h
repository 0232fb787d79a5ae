/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Queue pairs: the object, its queues and its state.  The verbs core owns
 * the object's life and the state machine (qp.c); the transport's engines
 * (transport.h) own the protocol state beside it (roce_qp.h, iwarp_qp.h).
 *
 * Locking, outermost first:
 *   state_mutex	modify_qp, destroy, flushes; may sleep
 *   sq.lock		the SQ's kernel consumer side and snapshots; the
 *			requester and completer (rc.h)
 *   rq.lock		the RQ's kernel consumer side; the responder
 *   srq->lock		an SRQ's consumer side (srq.h), for QPs with one
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
#include "cq.h"
#include "mr.h"
#include "qp_state.h"
#include "queue.h"
#include "srq.h"
#include "wqe.h"

struct softrdma_cq;
struct softrdma_qp_engine;
struct softrdma_dev;
struct softrdma_ring;
struct softrdma_srq;

struct softrdma_sq {
	/* protects ring's consumer side, wqe[] and fetch; see rc.h */
	spinlock_t lock;
	/* kernel QPs: protects ring's producer side (post_send) */
	spinlock_t post_lock;
	struct softrdma_ring *ring;
	/*
	 * Kernel snapshots of the WQEs between the ring's consumer index
	 * (oldest not yet completed) and @fetch, indexed by slot
	 * (softrdma_ring_num_slots() entries).  A user slot is released
	 * only when its WQE completes, on both ABIs (see "SQ slots" below).
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
	/* the transport's engines under the QP (transport.h) */
	const struct softrdma_qp_engine *eng;

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
	/* BIT(enum softrdma_qp_err_cause)s asked of error_work, atomic */
	unsigned long err_causes;

	/* attributes as set, for query_qp; written under state_mutex */
	struct ib_qp_attr attr;
	struct softrdma_av av;		/* destination, from attr.ah_attr */
	u32 mtu;			/* path MTU in bytes */

	struct softrdma_cq *scq;
	struct softrdma_cq *rcq;
	bool sq_sig_all;
	bool user;

	struct softrdma_sq sq;
	struct softrdma_rq rq;
	/* receive WQEs come from here instead of rq (srq.h); or NULL */
	struct softrdma_srq *srq;

	/* type 2 memory windows bound through the QP (mw.c) */
	atomic_t mw_bound;
};

/*
 * How a QP's rings are made: one table per user ABI (uabi.h) and
 * softrdma_kernel_qp_abi for kernel QPs, each in its ABI's file, which
 * alone knows its slot layouts and its create_qp answer.  The verbs core
 * allocates the SQ snapshots and frees everything.
 */
struct softrdma_qp_abi {
	/* bytes of the create_qp answer (at most SOFTRDMA_UABI_RESP_MAX) */
	size_t resp_len;
	/*
	 * make sq.ring, rq.ring (none with an SRQ) and their limits for
	 * @init->cap, set to what the rings hold; the rings' part of the
	 * answer into @resp.  @uctx: NULL for kernel QPs.
	 */
	int (*create_queues)(struct softrdma_qp *qp,
			     struct ib_qp_init_attr *init,
			     struct ib_ucontext *uctx, void *resp);
	/* the QP's number into @resp (NULL: not part of the answer) */
	void (*resp_qpn)(void *resp, u32 qpn);
};

extern const struct softrdma_qp_abi softrdma_kernel_qp_abi;

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

void softrdma_qp_fail(struct softrdma_qp *qp,
		      enum softrdma_qp_err_cause cause);
void softrdma_qp_error(struct softrdma_qp *qp);

/*
 * SQ slots and the transmit engines (RC requester, iWARP transmit side).
 *
 * softrdma_sq_fetch() snapshots the next posted WQE; the slot stays the
 * kernel's until softrdma_qp_complete_send() retires the oldest fetched
 * WQE, on both user ABIs.  Stock siw frees a slot at fetch; softrdma
 * does not, so that (a) at most num_sqe WQEs are ever outstanding, the
 * bound max_send_wr promises and that a CQ sized for it relies on,
 * (b) the snapshots stay indexed by slot (sq.wqe, rc.wqe) whatever the
 * ABI, and (c) one engine interface serves both transports.  libsiw only
 * sees its SQ full (-ENOMEM) for as long as WQEs are outstanding.
 *
 * The doorbell rule (libsiw): libsiw rings the doorbell only if the slot
 * before its first new WQE is free; while that slot is VALID (posted and
 * not fetched, or fetched and not completed) it relies on the kernel to
 * find the new WQE by itself.  So an engine must never go idle while
 * softrdma_sq_more_posted() is true:
 *  - after each softrdma_qp_complete_send(), whose return value is
 *    softrdma_sq_more_posted() taken after the slot was freed (the slot
 *    store and this check are ordered by a full barrier against libsiw's
 *    VALID store and its check of the previous slot: one of the two sides
 *    sees the other), schedule the transmit side if it returned true;
 *  - the transmit side stops fetching only when softrdma_sq_fetch()
 *    returns NULL, or on a limit (ORD, window) whose release is itself a
 *    completion or an event that re-runs it.
 * For the iWARP transport this guarantee lives in its transmit engine
 * (iwarp_qp.c); the RC engines keep the same rule.
 */
int softrdma_qp_fill_res_sq(struct sk_buff *msg, struct softrdma_qp *qp);
int softrdma_copy_sgl(struct softrdma_sge *sge, u32 *length,
		      const struct ib_sge *sg_list, int num_sge);
int softrdma_post_recv_wrs(struct softrdma_ring *ring,
			   const struct softrdma_wqe_limits *lim,
			   spinlock_t *post_lock, const struct ib_recv_wr *wr,
			   const struct ib_recv_wr **bad_wr);

/*
 * REG_MR, LOCAL_INV and BIND_MW: no packet, executed when the SQ reaches them
 * (after every WQE before them has been sent) and completed in turn.
 */
/* Will @wqe's success be reported in the CQ? */
static inline bool softrdma_wqe_signalled(const struct softrdma_qp *qp,
					  const struct softrdma_send_wqe *wqe)
{
	return qp->sq_sig_all || (wqe->send_flags & IB_SEND_SIGNALED);
}

/*
 * IBA 9.8 (operations per service): READ, atomics and invalidation by the
 * peer need a reliable connection; UC and UD QPs carry none of them.
 */
static inline bool softrdma_wr_is_rc_only(u32 opcode)
{
	switch (opcode) {
	case IB_WR_RDMA_READ:
	case IB_WR_RDMA_READ_WITH_INV:
	case IB_WR_SEND_WITH_INV:
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
	case IB_WR_MASKED_ATOMIC_CMP_AND_SWP:
	case IB_WR_MASKED_ATOMIC_FETCH_AND_ADD:
	case SOFTRDMA_WR_FLUSH:
	case SOFTRDMA_WR_ATOMIC_WRITE:
		return true;
	default:
		return false;
	}
}

/*
 * The RC requests a responder keeps a resource for and answers with a
 * response of their own rather than an ACK: RDMA READ and the atomics
 * (IBA 9.7.5.1.3-5), and IBA 1.5's ATOMIC WRITE and FLUSH, which are
 * answered by an RDMA READ Response Only of no payload.  They count
 * against the initiator depth (max_rd_atomic).
 */
static inline bool softrdma_wr_is_rd_atomic(u32 opcode)
{
	switch (opcode) {
	case IB_WR_RDMA_READ:
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
	case SOFTRDMA_WR_FLUSH:
	case SOFTRDMA_WR_ATOMIC_WRITE:
		return true;
	default:
		return false;
	}
}

static inline bool softrdma_wr_is_local(u32 opcode)
{
	return opcode == IB_WR_REG_MR || opcode == IB_WR_LOCAL_INV ||
	       opcode == IB_WR_BIND_MW;
}

enum ib_wc_status softrdma_qp_exec_local(struct softrdma_qp *qp,
					 const struct softrdma_send_wqe *wqe);
enum ib_wc_status softrdma_qp_local_inv(struct softrdma_qp *qp, u32 key);
int softrdma_qp_remote_inv(struct softrdma_qp *qp, u32 key);
bool softrdma_qp_complete_send(struct softrdma_qp *qp,
			       const struct softrdma_send_wqe *wqe,
			       enum ib_wc_status status);
void softrdma_qp_sq_drained_event(struct softrdma_qp *qp);

/* for the transports' modify_qp (transport.h); under qp->state_mutex */
void softrdma_qp_set_state(struct softrdma_qp *qp, enum ib_qp_state state);
void softrdma_qp_store_attr(struct softrdma_qp *qp,
			    const struct ib_qp_attr *attr, int mask);
void softrdma_qp_apply_actions(struct softrdma_qp *qp, enum ib_qp_state next,
			       unsigned int actions);
void softrdma_qp_transport_stop(struct softrdma_qp *qp);

extern const struct ib_device_ops softrdma_qp_ops;

/* Snapshot the posted WQE at the fetch position into sq->wqe[fetch]. */
static inline int softrdma_sq_snapshot(struct softrdma_qp *qp,
				       struct softrdma_send_wqe *wqe)
{
	struct softrdma_sq *sq = &qp->sq;

	lockdep_assert_held(&sq->lock);

	return softrdma_ring_fetch_send_wqe(sq->ring, sq->fetched, &sq->lim,
					    wqe);
}

/**
 * softrdma_sq_more_posted() - is a posted send WQE waiting to be fetched?
 * @qp: the QP; the caller holds qp->sq.lock
 *
 * With acquire semantics: a true answer makes the WQE readable.
 */
static inline bool softrdma_sq_more_posted(struct softrdma_qp *qp)
{
	lockdep_assert_held(&qp->sq.lock);

	return softrdma_ring_posted(qp->sq.ring, qp->sq.fetched);
}

/**
 * softrdma_sq_fetch() - snapshot the next posted send WQE
 * @qp: the QP; the caller holds qp->sq.lock
 *
 * The WQE's ring slot stays the kernel's until softrdma_qp_complete_send()
 * retires it, on both user ABIs ("SQ slots" above says why).
 *
 * Return: the snapshot, NULL when nothing more is posted, or an ERR_PTR
 * of -EINVAL for a WQE that must not run (the caller fails the QP).
 */
static inline struct softrdma_send_wqe *
softrdma_sq_fetch(struct softrdma_qp *qp)
{
	struct softrdma_sq *sq = &qp->sq;
	struct softrdma_send_wqe *wqe;
	int err;

	lockdep_assert_held(&sq->lock);

	if (!softrdma_sq_more_posted(qp))
		return NULL;
	wqe = &sq->wqe[sq->fetch];
	err = softrdma_sq_snapshot(qp, wqe);
	if (err)
		return ERR_PTR(err);
	sq->fetch = (sq->fetch + 1) & softrdma_ring_slot_mask(sq->ring);
	sq->fetched++;
	return wqe;
}

/**
 * softrdma_rq_take() - take the next posted receive WQE
 * @qp: the QP; the caller holds qp->rq.lock
 * @wqe: filled in
 *
 * From the QP's SRQ if it has one, else from its RQ; every transport's
 * receive path (RC responder, UD receive, iWARP Send) takes its WQEs
 * here.  The slot goes back to the producer at once: the snapshot is all
 * the receive path needs.
 *
 * Return: 0, -ENOENT when nothing is posted, -EINVAL for a bad WQE.
 */
static inline int softrdma_rq_take(struct softrdma_qp *qp,
				   struct softrdma_recv_wqe *wqe)
{
	struct softrdma_rq *rq = &qp->rq;

	lockdep_assert_held(&rq->lock);

	if (qp->srq)
		return softrdma_srq_take(qp->srq, wqe);
	if (!rq->ring)
		return -ENOENT;
	return softrdma_recv_ring_take(rq->ring, &rq->lim, wqe);
}

/**
 * softrdma_qp_complete_recv() - post a receive completion
 * @qp: the QP
 * @wc: the completion; qp and port are filled in here
 * @solicited: the message carried the solicited event bit
 */
static inline void softrdma_qp_complete_recv(struct softrdma_qp *qp,
					     struct ib_wc *wc, bool solicited)
{
	wc->qp = &qp->ibqp;
	wc->port_num = 1;
	softrdma_cq_post(qp->rcq, wc, solicited);
}

#if IS_ENABLED(CONFIG_KUNIT)
int softrdma_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		       const struct ib_send_wr **bad_wr);
int softrdma_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		      struct ib_qp_init_attr *init);
#endif

#endif /* SOFTRDMA_QP_H */
