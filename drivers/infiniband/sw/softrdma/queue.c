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

bool softrdma_ring_posted(struct softrdma_ring *ring, u32 offset)
{
	if (softrdma_ring_is_siw(ring))
		return softrdma_siw_ring_posted(ring, offset);
	return offset < softrdma_ring_count(ring);
}

bool softrdma_ring_empty(struct softrdma_ring *ring)
{
	return !softrdma_ring_posted(ring, 0);
}

/* The slot at the consumer index; only meaningful when posted. */
void *softrdma_ring_consumer_slot(struct softrdma_ring *ring)
{
	softrdma_ring_assert_consumer(ring);

	return softrdma_ring_slot(ring, ring->cons);
}

/*
 * The slot @offset entries after the consumer index; only meaningful if
 * softrdma_ring_posted(@offset).
 */
void *softrdma_ring_consumer_slot_at(struct softrdma_ring *ring, u32 offset)
{
	softrdma_ring_assert_consumer(ring);

	return softrdma_ring_slot(ring, ring->cons + offset);
}

void softrdma_ring_advance_consumer(struct softrdma_ring *ring)
{
	if (softrdma_ring_is_siw(ring))
		softrdma_siw_ring_advance_consumer(ring);
	else
		softrdma_rxe_ring_advance_consumer(ring);
}

bool softrdma_ring_full(struct softrdma_ring *ring)
{
	if (softrdma_ring_is_siw(ring))
		return softrdma_siw_ring_full(ring);
	return softrdma_rxe_ring_full(ring);
}

/* The slot at the producer index; only meaningful when not full. */
void *softrdma_ring_producer_slot(struct softrdma_ring *ring)
{
	softrdma_ring_assert_producer(ring);

	return softrdma_ring_slot(ring, ring->prod);
}

void softrdma_ring_advance_producer(struct softrdma_ring *ring)
{
	if (softrdma_ring_is_siw(ring))
		softrdma_siw_ring_advance_producer(ring);
	else
		softrdma_rxe_ring_advance_producer(ring);
}
