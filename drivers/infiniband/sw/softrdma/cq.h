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

struct softrdma_cq;
struct softrdma_ring;

/*
 * The ring layout a CQ speaks, chosen at create_cq: kernel CQs and
 * librxe's (queue_rxe_abi.c) or libsiw's (queue_siw_abi.c) user CQs.
 * create, write_cqe, arm and notify are required.
 */
struct softrdma_cq_abi {
	/* make cq->ring for @cqe entries, answer @udata, set ibcq.cqe */
	int (*create)(struct softrdma_cq *cq, int cqe, struct ib_udata *udata);
	/* copy @wc into the producer @slot, in the ring's format */
	void (*write_cqe)(void *slot, const struct ib_wc *wc);
	/* req_notify_cq, under cq->lock: 1 for missed events, else 0 */
	int (*arm)(struct softrdma_cq *cq, enum ib_cq_notify_flags flags);
	/* a completion was added, under cq->lock: call the handler? */
	bool (*notify)(struct softrdma_cq *cq, bool solicited);
	/* poll_cq (NULL: user space polls the ring itself) */
	int (*poll)(struct softrdma_cq *cq, int num_entries, struct ib_wc *wc);
	/* resize_cq to a checked @cqe (NULL: the ABI cannot) */
	int (*resize)(struct softrdma_cq *cq, int cqe, struct ib_udata *udata);
};

extern const struct softrdma_cq_abi softrdma_kernel_cq_abi;

struct softrdma_cq {
	struct ib_cq ibcq;
	const struct softrdma_cq_abi *abi;
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

/* the one-shot arm in @notify, for the ABIs that keep it there */
void softrdma_cq_arm_notify(struct softrdma_cq *cq,
			    enum ib_cq_notify_flags flags);
bool softrdma_cq_notify_fires(struct softrdma_cq *cq, bool solicited);

extern const struct ib_device_ops softrdma_cq_ops;

#endif /* SOFTRDMA_CQ_H */
