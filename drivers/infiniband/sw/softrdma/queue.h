/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Rings: the queues (SQ, RQ, SRQ, CQ) the kernel shares with a producer
 * or consumer on the other side, whatever the layout.  Two layouts, one
 * API; each layout's slot formats are in its own file, its index or flag
 * protocol inline below:
 *
 *	SOFTRDMA_RING_ABI_RXE	librxe's struct rxe_queue_buf header with
 *				producer/consumer indices, one slot always
 *				empty (queue_rxe_abi.h).  Kernel rings
 *				(no ucontext) use this layout too, holding
 *				kernel structures.
 *	SOFTRDMA_RING_ABI_SIW	libsiw's header-less array of slots, each
 *				owned by whoever its VALID flag says, every
 *				slot usable; a CQ ends in the notify word
 *				(queue_siw_abi.h).
 *
 * The kernel plays one side of a user ring (the consumer of SQ/RQ/SRQ, the
 * producer of a CQ) and both sides of a kernel ring.  Calls of one side
 * are serialised by one lock of the owner (softrdma_ring_set_locks(),
 * checked by lockdep); the two sides may run concurrently.
 *
 * Whatever user space writes into a user ring, every slot address the
 * kernel computes stays inside it: indices are private and masked, and a
 * slot is copied and validated before use (the ABI files' fetch calls).
 */
#ifndef SOFTRDMA_QUEUE_H
#define SOFTRDMA_QUEUE_H

#include <linux/lockdep.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <rdma/rdma_user_rxe.h>
#include <rdma/siw-abi.h>

struct softrdma_mmap_entry;

enum softrdma_ring_abi {
	SOFTRDMA_RING_ABI_RXE,		/* librxe layout, and kernel rings */
	SOFTRDMA_RING_ABI_SIW,		/* libsiw layout, user rings only */
};

enum softrdma_ring_kind {
	SOFTRDMA_RING_USER_PRODUCES,	/* SQ, RQ, SRQ */
	SOFTRDMA_RING_USER_CONSUMES,	/* CQ */
};

struct softrdma_ring {
	struct softrdma_mmap_entry *mem;
	enum softrdma_ring_abi abi;
	void *slots;			/* slot 0, inside mem->buf */
	struct rxe_queue_buf *hdr;	/* RXE: == mem->buf; SIW: NULL */
	struct siw_cq_ctrl *ctrl;	/* SIW CQ: the notify word; or NULL */
	/* private copies, never read back from user memory */
	u32 index_mask;			/* num_slots - 1 */
	u32 elem_size;			/* bytes per slot */
	u32 log2_elem_size;		/* RXE: elem_size == 1 << this */
	u32 prod;			/* producer side's own index */
	u32 cons;			/* consumer side's own index */
	bool user;			/* mapped by a ucontext */
	enum softrdma_ring_kind kind;
	spinlock_t *producer_lock;	/* for lockdep, may be NULL */
	spinlock_t *consumer_lock;	/* for lockdep, may be NULL */
};

/*
 * softrdma_ring_destroy() - release the ring.  A user mapping stays valid
 * until munmap; the kernel never touches the memory again.  May sleep:
 * no spinlocks held.  Safe with NULL.
 */
void softrdma_ring_destroy(struct softrdma_ring *ring);

/*
 * Declare the locks serialising each side, for lockdep_assert_held() in
 * every call of that side; NULL leaves a side unchecked.
 */
void softrdma_ring_set_locks(struct softrdma_ring *ring,
			     spinlock_t *producer_lock /* or NULL */,
			     spinlock_t *consumer_lock /* or NULL */);

static inline bool softrdma_ring_is_user(const struct softrdma_ring *ring)
{
	return ring->user;
}

static inline bool softrdma_ring_is_siw(const struct softrdma_ring *ring)
{
	return ring->abi == SOFTRDMA_RING_ABI_SIW;
}

static inline u32 softrdma_ring_num_slots(const struct softrdma_ring *ring)
{
	return ring->index_mask + 1;
}

/*
 * Mask for the slot numbers of this ring: arrays the owner keeps per slot
 * (e.g. the SQ's snapshots) have softrdma_ring_num_slots() entries.
 */
static inline u32 softrdma_ring_slot_mask(const struct softrdma_ring *ring)
{
	return ring->index_mask;
}

/* Entries the ring holds at once: RXE leaves one slot empty, SIW not. */
static inline u32 softrdma_ring_capacity(const struct softrdma_ring *ring)
{
	return softrdma_ring_is_siw(ring) ? ring->index_mask + 1 :
					    ring->index_mask;
}

static inline u32 softrdma_ring_elem_size(const struct softrdma_ring *ring)
{
	return ring->elem_size;
}

/* The slot of free-running index @index (masked here). */
static inline void *softrdma_ring_slot(const struct softrdma_ring *ring,
				       u32 index)
{
	return ring->slots + (size_t)(index & ring->index_mask) *
			     ring->elem_size;
}

static inline void softrdma_ring_assert_producer(const struct softrdma_ring *ring)
{
	if (ring->producer_lock)
		lockdep_assert_held(ring->producer_lock);
}

static inline void softrdma_ring_assert_consumer(const struct softrdma_ring *ring)
{
	if (ring->consumer_lock)
		lockdep_assert_held(ring->consumer_lock);
}

/*
 * The layouts' index and flag protocols.  Every WQE and every completion
 * goes through them, so they are inline here; each layout's slot formats
 * and conversions are in its own file.
 *
 * RXE: the user's (or the other kernel side's) index is read with
 * acquire, then masked.  The acquire pairs with the other side's release
 * after it finished the slots, so they are read (consumer) or
 * overwritten (producer) only after.
 */
static inline u32 softrdma_ring_load_producer(const struct softrdma_ring *ring)
{
	/* pairs with the producer's release in advance_producer */
	return smp_load_acquire(&ring->hdr->producer_index) & ring->index_mask;
}

static inline u32 softrdma_ring_load_consumer(const struct softrdma_ring *ring)
{
	/* pairs with the consumer's release in advance_consumer */
	return smp_load_acquire(&ring->hdr->consumer_index) & ring->index_mask;
}

/* Posted entries of an RXE ring. */
static inline u32 softrdma_ring_count(const struct softrdma_ring *ring)
{
	softrdma_ring_assert_consumer(ring);

	return (softrdma_ring_load_producer(ring) - ring->cons) &
	       ring->index_mask;
}

/* Release the consumed slot to the producer; the slot is done with. */
static inline void
softrdma_rxe_ring_advance_consumer(struct softrdma_ring *ring)
{
	softrdma_ring_assert_consumer(ring);

	ring->cons = (ring->cons + 1) & ring->index_mask;
	/* all reads of the slot before the producer may reuse it */
	smp_store_release(&ring->hdr->consumer_index, ring->cons);
}

static inline bool softrdma_rxe_ring_full(const struct softrdma_ring *ring)
{
	softrdma_ring_assert_producer(ring);

	return ((ring->prod + 1) & ring->index_mask) ==
	       softrdma_ring_load_consumer(ring);
}

/* Publish the filled slot: everything written to it is visible first. */
static inline void
softrdma_rxe_ring_advance_producer(struct softrdma_ring *ring)
{
	softrdma_ring_assert_producer(ring);

	ring->prod = (ring->prod + 1) & ring->index_mask;
	/* all writes to the slot before the consumer may see it */
	smp_store_release(&ring->hdr->producer_index, ring->prod);
}

/*
 * SIW: a slot's owner is its VALID flag.  SQ and RQ slots keep their
 * flags at the same place (static_asserts in queue_siw_abi.c).
 */
static inline u16 *softrdma_siw_wqe_flags(const struct softrdma_ring *ring,
					  u32 index)
{
	struct siw_sqe *sqe = softrdma_ring_slot(ring, index);

	return &sqe->flags;
}

static inline bool softrdma_siw_ring_posted(const struct softrdma_ring *ring,
					    u32 offset)
{
	u16 flags;

	softrdma_ring_assert_consumer(ring);

	if (offset > ring->index_mask)
		return false;
	/* pairs with libsiw's seq_cst store of flags after the slot */
	flags = smp_load_acquire(softrdma_siw_wqe_flags(ring,
							ring->cons + offset));
	return flags & SIW_WQE_VALID;
}

static inline void
softrdma_siw_ring_advance_consumer(struct softrdma_ring *ring)
{
	softrdma_ring_assert_consumer(ring);

	/*
	 * All reads of the slot happened (the snapshot) before libsiw may
	 * reuse it; the full barrier orders this store before any later
	 * check of the next slot (libsiw's doorbell rule, below).
	 */
	smp_store_mb(*softrdma_siw_wqe_flags(ring, ring->cons), 0);
	ring->cons = (ring->cons + 1) & ring->index_mask;
}

static inline bool softrdma_siw_ring_full(const struct softrdma_ring *ring)
{
	struct siw_cqe *cqe;

	softrdma_ring_assert_producer(ring);

	cqe = softrdma_ring_slot(ring, ring->prod);
	/* pairs with libsiw clearing flags after it copied the CQE out */
	return smp_load_acquire(&cqe->flags) != 0;
}

static inline void
softrdma_siw_ring_advance_producer(struct softrdma_ring *ring)
{
	struct siw_cqe *cqe;

	softrdma_ring_assert_producer(ring);

	cqe = softrdma_ring_slot(ring, ring->prod);
	/* everything written to the CQE before libsiw may see it */
	smp_store_release(&cqe->flags, SIW_WQE_VALID);
	ring->prod = (ring->prod + 1) & ring->index_mask;
}

/*
 * Consumer side (kernel consumes SQ/RQ/SRQ; either side of kernel rings).
 *
 * softrdma_ring_posted(): is the entry @offset places after the consumer
 * index posted (RXE: below the producer index; SIW: VALID)?  An entry the
 * producer has made visible this way is readable: the check has acquire
 * semantics.  softrdma_ring_advance_consumer() hands the slot at the
 * consumer index back to the producer (RXE: consumer index release;
 * SIW: flags cleared, followed by a full barrier, so that a check of a
 * later slot afterwards cannot miss a producer that saw the slot still
 * busy; this is what libsiw's doorbell suppression relies on).
 */
static inline bool softrdma_ring_posted(const struct softrdma_ring *ring,
					u32 offset)
{
	if (softrdma_ring_is_siw(ring))
		return softrdma_siw_ring_posted(ring, offset);
	return offset < softrdma_ring_count(ring);
}

static inline bool softrdma_ring_empty(const struct softrdma_ring *ring)
{
	return !softrdma_ring_posted(ring, 0);
}

/* The slot at the consumer index; only meaningful when posted. */
static inline void *
softrdma_ring_consumer_slot(const struct softrdma_ring *ring)
{
	softrdma_ring_assert_consumer(ring);

	return softrdma_ring_slot(ring, ring->cons);
}

/*
 * The slot @offset entries after the consumer index; only meaningful if
 * softrdma_ring_posted(@offset).
 */
static inline void *
softrdma_ring_consumer_slot_at(const struct softrdma_ring *ring, u32 offset)
{
	softrdma_ring_assert_consumer(ring);

	return softrdma_ring_slot(ring, ring->cons + offset);
}

static inline void softrdma_ring_advance_consumer(struct softrdma_ring *ring)
{
	if (softrdma_ring_is_siw(ring))
		softrdma_siw_ring_advance_consumer(ring);
	else
		softrdma_rxe_ring_advance_consumer(ring);
}

/*
 * Producer side (kernel produces CQEs; either side of kernel rings).
 * softrdma_ring_full() reads the consumer's release with acquire;
 * softrdma_ring_advance_producer() publishes the filled slot with release
 * (RXE: producer index; SIW: the slot's VALID flag).
 */
static inline bool softrdma_ring_full(const struct softrdma_ring *ring)
{
	if (softrdma_ring_is_siw(ring))
		return softrdma_siw_ring_full(ring);
	return softrdma_rxe_ring_full(ring);
}

/* The slot at the producer index; only meaningful when not full. */
static inline void *
softrdma_ring_producer_slot(const struct softrdma_ring *ring)
{
	softrdma_ring_assert_producer(ring);

	return softrdma_ring_slot(ring, ring->prod);
}

static inline void softrdma_ring_advance_producer(struct softrdma_ring *ring)
{
	if (softrdma_ring_is_siw(ring))
		softrdma_siw_ring_advance_producer(ring);
	else
		softrdma_rxe_ring_advance_producer(ring);
}

#endif /* SOFTRDMA_QUEUE_H */
