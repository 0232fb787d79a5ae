/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Completion queues.  A user CQ is a ring its provider polls in shared
 * memory: rxe-ABI on RoCE devices (librxe), siw-ABI on iWARP devices
 * (libsiw, which also arms it in shared memory, so @notify is unused).
 * A kernel CQ, on either device type, is an rxe-layout ring holding
 * struct ib_wc, polled through poll_cq.  Whichever, the transport posts
 * completions with softrdma_cq_post().
 */
#ifndef SOFTRDMA_CQ_H
#define SOFTRDMA_CQ_H

#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>

struct softrdma_ring;

struct softrdma_cq {
	struct ib_cq ibcq;
	/* protects ring (both of the kernel's sides), notify, overflowed */
	spinlock_t lock;
	struct softrdma_ring *ring;
	/*
	 * armed event: 0, IB_CQ_SOLICITED or IB_CQ_NEXT_COMP (one-shot);
	 * siw-ABI CQs keep it in the ring's notify word instead
	 */
	u8 notify;
	bool overflowed;
};

static inline struct softrdma_cq *to_scq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct softrdma_cq, ibcq);
}

int softrdma_cq_post(struct softrdma_cq *cq, const struct ib_wc *wc,
		     bool solicited);

extern const struct ib_device_ops softrdma_cq_ops;

#endif /* SOFTRDMA_CQ_H */
