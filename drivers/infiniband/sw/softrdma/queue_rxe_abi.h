/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rxe user ABI rings: the SQ, RQ, SRQ and CQ memory librxe (rdma-core 44)
 * shares with the kernel, and the conversions between its slot layouts
 * and softrdma's private WQE/CQE forms.
 *
 * A ring is one buffer (mmap.h): struct rxe_queue_buf, then num_slots
 * slots of 2^log2_elem_size bytes.  Indices in the header are masked
 * slot numbers; the ring is empty when producer == consumer and full
 * when consumer == producer + 1 (mod num_slots), so it holds
 * num_slots - 1 entries.
 *
 * Trust: the header is user-writable.  The kernel keeps its own index
 * privately and only ever writes it to the header (smp_store_release,
 * after the slot is finished); it reads the user's index with
 * smp_load_acquire and masks it with its private mask before use.  The
 * header's log2_elem_size and index_mask are written once and never
 * read back.  Whatever user space writes, every slot address is inside
 * the ring.  A user slot is copied into kernel memory once and validated
 * there (softrdma_rxe_fetch_*_wqe); nothing reads it again.
 *
 * Sides: for user rings the kernel plays one side only, SQ/RQ/SRQ
 * (SOFTRDMA_RING_USER_PRODUCES: the kernel uses the consumer calls) and
 * CQ (SOFTRDMA_RING_USER_CONSUMES: the kernel uses the producer calls).
 * A kernel-only ring (created with no ucontext) has the kernel on both
 * sides and the same calls for each; it stores kernel structures, not
 * the rxe layouts:
 *	SQ:	struct softrdma_send_wqe, filled by post_send from ib_send_wr
 *	RQ/SRQ:	struct softrdma_recv_wqe, filled by post_recv
 *	CQ:	struct ib_wc, read back by poll_cq
 * softrdma_ring_is_user() says which form a slot has.
 *
 * Locking: a ring has no lock of its own.  All producer calls of a ring
 * must be serialised by one lock of the owning QP/SRQ/CQ, all consumer
 * calls by one lock (the same or another); declare them with
 * softrdma_ring_set_locks() and lockdep checks it.  Producer and
 * consumer sides may run concurrently, the acquire/release pairs order
 * them.  softrdma_ring_resize() needs both sides stopped.
 */
#ifndef SOFTRDMA_QUEUE_RXE_ABI_H
#define SOFTRDMA_QUEUE_RXE_ABI_H

#include <linux/spinlock.h>
#include <linux/types.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_user_rxe.h>

#include "param.h"
#include "queue.h"
#include "wqe.h"

struct softrdma_mmap_entry;

/*
 * The ring's index protocol (queue_rxe_abi.c's ring ops), inline for
 * this ABI's files.
 *
 * The user's (or the other kernel side's) index is read with
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

/* Largest request any ring accepts; callers enforce their own caps too. */
#define SOFTRDMA_RING_MAX_ELEM		(SZ_64K - 1)
/* Largest slot: the biggest send WQE rounds up to 1 KiB. */
#define SOFTRDMA_RING_MAX_ELEM_SIZE	SZ_4K

/*
 * What libibverbs (rdma-core 44 enum ibv_wc_opcode / ibv_wc_flags) reads
 * in a user CQE where 6.1's uapi has no name, or where the kernel's
 * enum ib_wc_flags numbers the bit differently.
 */
#define SOFTRDMA_UVERBS_WC_FLUSH	8
#define SOFTRDMA_UVERBS_WC_ATOMIC_WRITE	9
#define SOFTRDMA_UVERBS_WC_GRH		BIT(0)
#define SOFTRDMA_UVERBS_WC_WITH_IMM	BIT(1)
#define SOFTRDMA_UVERBS_WC_IP_CSUM_OK	BIT(2)
#define SOFTRDMA_UVERBS_WC_WITH_INV	BIT(3)

/*
 * softrdma_ring_create() - allocate and initialise a ring.
 * @uctx:	the user context that maps it, or NULL for a kernel ring
 * @num_elem:	in: entries wanted (0 allowed); out: capacity
 *		(roundup_pow_of_two(wanted + 1) - 1)
 * @elem_size:	bytes per entry; slots are
 *		roundup_pow_of_two(max(elem_size, cache line))
 * @kind:	which side user space plays (ignored for kernel rings)
 * @mi:		out for user rings: mmap offset and length for librxe;
 *		may be NULL for kernel rings
 *
 * Sleeps.  Returns the ring, ERR_PTR(-EINVAL) for a request over
 * SOFTRDMA_RING_MAX_ELEM or a bad @elem_size, or ERR_PTR(-ENOMEM).
 */
struct softrdma_ring *softrdma_ring_create(struct ib_ucontext *uctx,
					   u32 *num_elem, u32 elem_size,
					   enum softrdma_ring_kind kind,
					   struct mminfo *mi);

/*
 * softrdma_ring_resize() - move @ring's queued entries, in order, into
 * @spare (a fresh ring from softrdma_ring_create() with the same
 * ucontext, kind and elem_size) and exchange their buffers.
 *
 * Resizing a CQ (resize_cq) or SRQ (modify_srq IB_SRQ_MAX_WR):
 *	spare = softrdma_ring_create(..., &mi);		may sleep
 *	copy mi to user space; on failure destroy spare
 *	take the locks of both sides
 *	err = softrdma_ring_resize(ring, spare);
 *	drop them
 *	softrdma_ring_destroy(spare);	old buffer, or the unused new one
 * librxe then munmaps the old mapping and maps @mi.  Returns 0, or
 * -EINVAL if the queued entries do not fit or the rings do not match
 * (then @ring is unchanged).
 */
int softrdma_ring_resize(struct softrdma_ring *ring,
			 struct softrdma_ring *spare);

/*
 * Slot sizes for user rings.  softrdma_rxe_sq_elem_size() turns the
 * wanted max_sge/max_inline into what the slot really holds (both grow to
 * fill max(max_sge * 16, max_inline)), as librxe expects to read back in
 * cap; returns the WQE size or -EINVAL above SOFTRDMA_MAX_SGE or
 * SOFTRDMA_MAX_INLINE.  Pass the grown values as the WQE limits.
 */
int softrdma_rxe_sq_elem_size(u32 *max_sge, u32 *max_inline);
int softrdma_rxe_rq_elem_size(u32 max_sge);
#define SOFTRDMA_RXE_CQ_ELEM_SIZE	sizeof(struct ib_uverbs_wc)
#define SOFTRDMA_KERNEL_CQ_ELEM_SIZE	sizeof(struct ib_wc)

/*
 * softrdma_rxe_fetch_send_wqe() - snapshot and validate a user SQ slot.
 * @slot:	from softrdma_ring_consumer_slot() of a ring whose slots were
 *		sized by softrdma_rxe_sq_elem_size() for at least @lim
 * @lim:	the QP's limits (grown max_sge/max_inline, QP type)
 * @out:	the snapshot; fully written on success
 *
 * The slot is copied once; only the copy is examined.  Returns 0 or
 * -EINVAL for a WQE the QP must not execute (fail the QP).
 */
int softrdma_rxe_fetch_send_wqe(const void *slot,
				const struct softrdma_wqe_limits *lim,
				struct softrdma_send_wqe *out);

/* The same for a user RQ/SRQ slot (only @lim->max_sge matters). */
int softrdma_rxe_fetch_recv_wqe(const void *slot,
				const struct softrdma_wqe_limits *lim,
				struct softrdma_recv_wqe *out);

/*
 * softrdma_rxe_write_cqe() - write @wc into a user CQ slot as struct
 * ib_uverbs_wc (what librxe's poll_cq copies into struct ibv_wc).  Every
 * byte of the 48 is written.  @wc->qp gives qp_num (0 if NULL).
 */
void softrdma_rxe_write_cqe(void *slot, const struct ib_wc *wc);

#if IS_ENABLED(CONFIG_KUNIT)
/* Read a kernel ring's slots as librxe's: tests post into it by hand. */
void softrdma_rxe_ring_as_user(struct softrdma_ring *ring);
#endif

#endif /* SOFTRDMA_QUEUE_RXE_ABI_H */
