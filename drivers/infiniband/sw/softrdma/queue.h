/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Rings: the queues (SQ, RQ, SRQ, CQ) the kernel shares with a producer
 * or consumer on the other side, whatever the layout.  Every layout has
 * one table of ring operations (struct softrdma_ring_ops), chosen when the
 * ring is created by the file that owns the layout; queue.c calls through
 * it and knows no layout:
 *
 *	rxe user rings	librxe's struct rxe_queue_buf header with
 *			producer/consumer indices, one slot always empty
 *			(queue_rxe_abi.c).
 *	kernel rings	(no ucontext) the same layout and index protocol,
 *			holding kernel structures (queue_rxe_abi.c).
 *	siw user rings	libsiw's header-less array of slots, each owned by
 *			whoever its VALID flag says, every slot usable; a
 *			CQ ends in the notify word (queue_siw_abi.c).
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

struct rxe_queue_buf;
struct siw_cq_ctrl;
struct softrdma_mmap_entry;

struct softrdma_ring;
struct softrdma_recv_wqe;
struct softrdma_send_wqe;
struct softrdma_wqe_limits;

/*
 * A layout's index or flag protocol and slot formats, as the calls of the
 * same names below (queue.c) describe them.  The fetches get the slot the
 * caller chose and copy it once; every member is set.
 */
struct softrdma_ring_ops {
	bool (*posted)(const struct softrdma_ring *ring, u32 offset);
	void (*advance_consumer)(struct softrdma_ring *ring);
	u32 (*drop_posted)(struct softrdma_ring *ring);
	bool (*full)(const struct softrdma_ring *ring);
	void (*advance_producer)(struct softrdma_ring *ring);
	int (*fetch_send_wqe)(const void *slot,
			      const struct softrdma_wqe_limits *lim,
			      struct softrdma_send_wqe *wqe);
	int (*fetch_recv_wqe)(const void *slot,
			      const struct softrdma_wqe_limits *lim,
			      struct softrdma_recv_wqe *wqe);
	/* slots a full ring leaves empty (a full ring's signature) */
	u32 spare_slots;
};

enum softrdma_ring_kind {
	SOFTRDMA_RING_USER_PRODUCES,	/* SQ, RQ, SRQ */
	SOFTRDMA_RING_USER_CONSUMES,	/* CQ */
};

struct softrdma_ring {
	struct softrdma_mmap_entry *mem;
	const struct softrdma_ring_ops *ops;	/* the layout's, from creation */
	void *slots;			/* slot 0, inside mem->buf */
	struct rxe_queue_buf *hdr;	/* rxe layout: == mem->buf; or NULL */
	struct siw_cq_ctrl *ctrl;	/* siw CQ: the notify word; or NULL */
	/* private copies, never read back from user memory */
	u32 index_mask;			/* num_slots - 1 */
	u32 elem_size;			/* bytes per slot */
	u32 log2_elem_size;		/* rxe layout: elem_size == 1 << this */
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

/* Entries the ring holds at once: rxe leaves one slot empty, siw not. */
static inline u32 softrdma_ring_capacity(const struct softrdma_ring *ring)
{
	return ring->index_mask + 1 - ring->ops->spare_slots;
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
 * Consumer side (kernel consumes SQ/RQ/SRQ; either side of kernel rings).
 *
 * softrdma_ring_posted(): is the entry @offset places after the consumer
 * index posted (rxe: below the producer index; siw: VALID)?  An entry the
 * producer has made visible this way is readable: the check has acquire
 * semantics.  softrdma_ring_advance_consumer() hands the slot at the
 * consumer index back to the producer (rxe: consumer index release;
 * siw: flags cleared, followed by a full barrier, so that a check of a
 * later slot afterwards cannot miss a producer that saw the slot still
 * busy; this is what libsiw's doorbell suppression relies on).
 */
bool softrdma_ring_posted(const struct softrdma_ring *ring, u32 offset);

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

void softrdma_ring_advance_consumer(struct softrdma_ring *ring);

/*
 * softrdma_ring_drop_posted() - consume every posted entry, reading none
 * @ring: the ring; the caller holds its consumer lock
 *
 * The entries posted from the consumer index on are handed back to the
 * producer unread, as if each had been taken, so that the next entry
 * the producer posts is the next one the consumer sees (rxe: the
 * producer index, read once and masked, becomes the consumer index,
 * released once; siw: the VALID slots from the consumer index on are
 * cleared in order up to the first free one, at most one ring's worth,
 * however user space keeps setting flags meanwhile).  The slots' contents
 * are never read.
 *
 * Return: how many entries were dropped, at most softrdma_ring_num_slots().
 */
u32 softrdma_ring_drop_posted(struct softrdma_ring *ring);

/*
 * Snapshot and validate a posted WQE into @wqe, in the ring's layout
 * (the ABI's fetch for user rings, a copy of the kernel form for kernel
 * rings): the send WQE @offset entries after the consumer index, which
 * must be posted, or the receive WQE at the consumer index.  The slot is
 * read once; the ring is not advanced.  Returns 0, or -EINVAL for a WQE
 * the QP must not execute (@wqe holds at least its wr_id).
 */
int softrdma_ring_fetch_send_wqe(const struct softrdma_ring *ring, u32 offset,
				 const struct softrdma_wqe_limits *lim,
				 struct softrdma_send_wqe *wqe);
int softrdma_ring_fetch_recv_wqe(const struct softrdma_ring *ring,
				 const struct softrdma_wqe_limits *lim,
				 struct softrdma_recv_wqe *wqe);

/*
 * Producer side (kernel produces CQEs; either side of kernel rings).
 * softrdma_ring_full() reads the consumer's release with acquire;
 * softrdma_ring_advance_producer() publishes the filled slot with release
 * (rxe: producer index; siw: the slot's VALID flag).
 */
bool softrdma_ring_full(const struct softrdma_ring *ring);

/* The slot at the producer index; only meaningful when not full. */
static inline void *
softrdma_ring_producer_slot(const struct softrdma_ring *ring)
{
	softrdma_ring_assert_producer(ring);

	return softrdma_ring_slot(ring, ring->prod);
}

void softrdma_ring_advance_producer(struct softrdma_ring *ring);

struct ib_ucontext;
struct ib_udata;

/*
 * Ring set-up in a verb with @udata (NULL: a kernel verb).
 * softrdma_ring_udata_uctx() checks that @udata has room for the verb's
 * answer of @resp_len bytes and returns the user context the ring is
 * mapped into: NULL for a kernel verb, ERR_PTR(-EINVAL) for a short
 * buffer.  softrdma_ring_answer() copies the answer out; if that fails
 * it destroys @ring (the new ring, or the spare of a resize), which the
 * caller must then forget.
 */
struct ib_ucontext *softrdma_ring_udata_uctx(struct ib_udata *udata,
					     size_t resp_len);
int softrdma_ring_answer(struct ib_udata *udata, void *resp,
			 size_t resp_len, struct softrdma_ring *ring);

#endif /* SOFTRDMA_QUEUE_H */
