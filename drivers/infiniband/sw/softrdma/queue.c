// SPDX-License-Identifier: GPL-2.0-only
/*
 * Rings: the calls every layout shares, and the dispatch to the layout's
 * own index or flag protocol (queue_rxe_abi.c, queue_siw_abi.c).
 */
#include <linux/slab.h>

#include "mmap.h"
#include "queue.h"
#include "queue_rxe_abi.h"
#include "queue_siw_abi.h"

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
