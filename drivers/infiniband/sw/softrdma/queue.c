// SPDX-License-Identifier: GPL-2.0-only
/*
 * Rings: the calls every layout shares, and the dispatch to the layout's
 * own index or flag protocol (queue_rxe_abi.c, queue_siw_abi.c).
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <rdma/uverbs_ioctl.h>

#include "mmap.h"
#include "queue.h"
#include "queue_rxe_abi.h"
#include "queue_siw_abi.h"
#include "verbs.h"
#include "wqe.h"

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
	if (softrdma_ring_is_siw(ring))
		return softrdma_siw_ring_posted(ring, offset);
	return offset < softrdma_ring_count(ring);
}

void softrdma_ring_advance_consumer(struct softrdma_ring *ring)
{
	if (softrdma_ring_is_siw(ring))
		softrdma_siw_ring_advance_consumer(ring);
	else
		softrdma_rxe_ring_advance_consumer(ring);
}

bool softrdma_ring_full(const struct softrdma_ring *ring)
{
	if (softrdma_ring_is_siw(ring))
		return softrdma_siw_ring_full(ring);
	return softrdma_rxe_ring_full(ring);
}

void softrdma_ring_advance_producer(struct softrdma_ring *ring)
{
	if (softrdma_ring_is_siw(ring))
		softrdma_siw_ring_advance_producer(ring);
	else
		softrdma_rxe_ring_advance_producer(ring);
}

int softrdma_ring_fetch_send_wqe(const struct softrdma_ring *ring, u32 offset,
				 const struct softrdma_wqe_limits *lim,
				 struct softrdma_send_wqe *wqe)
{
	const void *slot = softrdma_ring_consumer_slot_at(ring, offset);

	if (softrdma_ring_is_siw(ring))
		return softrdma_siw_fetch_send_wqe(slot, wqe);
	if (softrdma_ring_is_user(ring))
		return softrdma_rxe_fetch_send_wqe(slot, lim, wqe);
	memcpy(wqe, slot, sizeof(*wqe));
	return 0;
}

int softrdma_ring_fetch_recv_wqe(const struct softrdma_ring *ring,
				 const struct softrdma_wqe_limits *lim,
				 struct softrdma_recv_wqe *wqe)
{
	const void *slot = softrdma_ring_consumer_slot(ring);

	if (softrdma_ring_is_siw(ring))
		return softrdma_siw_fetch_recv_wqe(slot, wqe);
	if (softrdma_ring_is_user(ring))
		return softrdma_rxe_fetch_recv_wqe(slot, lim, wqe);
	memcpy(wqe, slot, sizeof(*wqe));
	return 0;
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
