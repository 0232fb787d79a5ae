// SPDX-License-Identifier: GPL-2.0-only
/*
 * Rings: the calls every layout shares, and the calls into the ring's
 * layout through the ops its creator chose (queue.h).
 */
#include <linux/slab.h>
#include <rdma/uverbs_ioctl.h>

#include "mmap.h"
#include "queue.h"
#include "verbs.h"

void softrdma_ring_destroy(struct softrdma_ring *ring)
{
	if (!ring)
		return;
	softrdma_mmap_release(ring->mem);
	kfree(ring);
}

void softrdma_ring_set_locks(struct softrdma_ring *ring,
			     spinlock_t *producer_lock,
			     spinlock_t *consumer_lock)
{
	ring->producer_lock = producer_lock;
	ring->consumer_lock = consumer_lock;
}

bool softrdma_ring_posted(const struct softrdma_ring *ring, u32 offset)
{
	return ring->ops->posted(ring, offset);
}

void softrdma_ring_advance_consumer(struct softrdma_ring *ring)
{
	ring->ops->advance_consumer(ring);
}

u32 softrdma_ring_drop_posted(struct softrdma_ring *ring)
{
	return ring->ops->drop_posted(ring);
}

bool softrdma_ring_full(const struct softrdma_ring *ring)
{
	return ring->ops->full(ring);
}

void softrdma_ring_advance_producer(struct softrdma_ring *ring)
{
	ring->ops->advance_producer(ring);
}

int softrdma_ring_fetch_send_wqe(const struct softrdma_ring *ring, u32 offset,
				 const struct softrdma_wqe_limits *lim,
				 struct softrdma_send_wqe *wqe)
{
	return ring->ops->fetch_send_wqe(softrdma_ring_consumer_slot_at(ring,
									offset),
					 lim, wqe);
}

int softrdma_ring_fetch_recv_wqe(const struct softrdma_ring *ring,
				 const struct softrdma_wqe_limits *lim,
				 struct softrdma_recv_wqe *wqe)
{
	return ring->ops->fetch_recv_wqe(softrdma_ring_consumer_slot(ring),
					 lim, wqe);
}

struct ib_ucontext *softrdma_ring_udata_uctx(struct ib_udata *udata,
					     size_t resp_len)
{
	if (!udata)
		return NULL;
	if (udata->outlen < resp_len)
		return ERR_PTR(-EINVAL);
	return &rdma_udata_to_drv_context(udata, struct softrdma_ucontext,
					  ibuc)->ibuc;
}

int softrdma_ring_answer(struct ib_udata *udata, void *resp,
			 size_t resp_len, struct softrdma_ring *ring)
{
	int err;

	if (!udata)
		return 0;
	err = ib_copy_to_udata(udata, resp, resp_len);
	if (err)
		softrdma_ring_destroy(ring);
	return err;
}
