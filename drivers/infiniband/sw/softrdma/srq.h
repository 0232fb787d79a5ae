/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared receive queues (IBA vol 1 §10.2.9, §11.2.3): one receive ring
 * that any number of QPs of the device take their receive WQEs from.
 *
 * The ring is the user's, in the layout of the device's ABI: librxe's
 * (rxe_create_srq_resp, struct rxe_recv_wqe slots) on sroce devices,
 * libsiw's (siw_uresp_create_srq, struct siw_rqe slots with VALID flags)
 * on siwarp devices; a kernel SRQ is an rxe-layout ring of struct
 * softrdma_recv_wqe filled by post_srq_recv.  A user slot is snapshotted
 * and validated exactly as an RQ slot is (softrdma_recv_ring_take()).
 *
 * Limit (IBA 11.2.3.3 / 11.6.3.3): modify_srq with IB_SRQ_LIMIT arms a
 * one-shot event; when a take leaves fewer than srq_limit WQEs posted the
 * SRQ disarms and raises IB_EVENT_SRQ_LIMIT_REACHED.  srq_limit 0 disarms.
 * IB_SRQ_MAX_WR resizes a librxe or kernel SRQ (librxe passes the address
 * of a struct mminfo for the new mapping in rxe_modify_srq_cmd); the siw
 * ABI cannot carry a resize: -EOPNOTSUPP.
 *
 * Locking: srq->lock protects the ring's consumer side and the limit; the
 * engines take it inside their QP's rq.lock (qp.h), with interrupts off.
 * srq->post_lock is the producer side of a kernel SRQ.
 *
 * Lifetime: the RDMA core allocates and frees the object.  Each QP that
 * uses the SRQ holds a count in @users from create_qp until its queues
 * are gone (after the receive path has let go of the QP), and
 * destroy_srq refuses with -EBUSY while any does, so no QP can reach a
 * freed SRQ.
 */
#ifndef SOFTRDMA_SRQ_H
#define SOFTRDMA_SRQ_H

#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>

#include "queue.h"
#include "wqe.h"

struct softrdma_dev;
struct softrdma_ring;

struct softrdma_srq;

/*
 * How an SRQ's ring is made and resized: one table per user ABI (uabi.h)
 * and softrdma_kernel_srq_abi for kernel SRQs, each in its ABI's file.
 */
struct softrdma_srq_abi {
	/* bytes of the create_srq answer (at most SOFTRDMA_UABI_RESP_MAX) */
	size_t resp_len;
	/*
	 * make ring and lim for @init->attr, set to what the ring holds;
	 * the ring's part of the answer into @resp.  @uctx: NULL for
	 * kernel SRQs.
	 */
	int (*create_ring)(struct softrdma_srq *srq,
			   struct ib_srq_init_attr *init,
			   struct ib_ucontext *uctx, void *resp);
	/* the SRQ's number into @resp (NULL: not part of the answer) */
	void (*resp_srqn)(void *resp, u32 srq_num);
	/* IB_SRQ_MAX_WR to a checked @max_wr; NULL: the ABI cannot */
	int (*resize)(struct softrdma_srq *srq, u32 max_wr,
		      struct ib_udata *udata);
};

extern const struct softrdma_srq_abi softrdma_kernel_srq_abi;

struct softrdma_srq {
	struct ib_srq ibsrq;
	struct softrdma_dev *sdev;
	const struct softrdma_srq_abi *abi;
	/* protects ring's consumer side, limit and max_wr */
	spinlock_t lock;
	/* kernel SRQs: protects ring's producer side (post_srq_recv) */
	spinlock_t post_lock;
	struct softrdma_ring *ring;
	struct softrdma_wqe_limits lim;
	u32 max_wr;		/* capacity, as reported */
	u32 limit;		/* armed srq_limit; 0: not armed */
	u32 srq_num;		/* in sdev->srq_xa */
	refcount_t users;	/* 1 + the QPs that use it */
};

static inline struct softrdma_srq *to_ssrq(struct ib_srq *ibsrq)
{
	return container_of(ibsrq, struct softrdma_srq, ibsrq);
}

/*
 * softrdma_recv_ring_take() - snapshot and consume the next posted
 * receive WQE of an RQ or SRQ ring
 * @ring: the ring; the caller holds its consumer lock
 * @lim: the queue's limits (max_sge)
 * @wqe: filled in; on -EINVAL it holds at least the posted wr_id
 *
 * The slot goes back to the producer at once, also for a refused WQE.
 *
 * Return: 0, -ENOENT when nothing is posted, -EINVAL for a WQE that
 * fails validation (the caller fails its QP).
 */
static inline int softrdma_recv_ring_take(struct softrdma_ring *ring,
					  const struct softrdma_wqe_limits *lim,
					  struct softrdma_recv_wqe *wqe)
{
	int err;

	softrdma_ring_assert_consumer(ring);

	if (softrdma_ring_empty(ring))
		return -ENOENT;
	err = softrdma_ring_fetch_recv_wqe(ring, lim, wqe);
	softrdma_ring_advance_consumer(ring);
	return err;
}

/*
 * softrdma_srq_take() - softrdma_recv_ring_take() on the SRQ, under its
 * lock, and the limit event when the take left the level below an
 * armed limit.  Any context but hard irq.
 */
int softrdma_srq_take(struct softrdma_srq *srq, struct softrdma_recv_wqe *wqe);

void softrdma_srq_attach(struct softrdma_srq *srq);
void softrdma_srq_detach(struct softrdma_srq *srq);

#if IS_ENABLED(CONFIG_KUNIT)
bool softrdma_srq_below_limit(struct softrdma_ring *ring, u32 limit);
int softrdma_srq_check_modify(const struct ib_srq_attr *attr, int mask,
			      u32 max_wr, u32 dev_max_wr, bool can_resize);
#endif

extern const struct ib_device_ops softrdma_srq_ops;

#endif /* SOFTRDMA_SRQ_H */
