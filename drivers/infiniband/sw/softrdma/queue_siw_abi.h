/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * siw user ABI rings: the SQ, RQ and CQ memory libsiw (rdma-core 44)
 * shares with the kernel on iWARP devices, and the conversions between
 * its slot layouts (uapi <rdma/siw-abi.h>) and softrdma's private WQE and
 * completion forms.
 *
 * Geometry: a ring is num_slots (a power of two, every slot usable)
 * slots, no header: SQ slots are struct siw_sqe (120 bytes), RQ slots
 * struct siw_rqe (112), CQ slots struct siw_cqe (32) followed by the
 * 8-byte struct siw_cq_ctrl notify word.  libsiw maps exactly
 * num_slots * slot size (+ 8 for a CQ), rounded up to pages
 * (softrdma_siw_ring_len()); mmap.c never hands out libsiw's
 * SIW_INVAL_UOBJ_KEY.
 *
 * Ownership is per slot, by the VALID bit of its flags:
 *	SQ, RQ	libsiw fills a free slot and sets flags (VALID and the
 *		send flags) last, with a seq_cst store; the kernel reads
 *		the flags with acquire, copies the slot once into private
 *		memory, validates the copy, and gives the slot back by
 *		clearing the flags followed by a full barrier.
 *	CQ	the kernel writes a free slot (flags 0, read with acquire)
 *		and sets VALID with release; libsiw copies it out and
 *		clears the flags.
 * The kernel's own position in each ring is private; nothing but a
 * slot's flags is ever read from user memory before the snapshot, and
 * every address is computed from private, masked indices.  Whatever
 * libsiw (or anything else with the mapping) writes, the worst outcome
 * is a refused WQE (-EINVAL: the caller fails that QP), a CQ that looks
 * full (CQ overflow, IB_EVENT_CQ_ERR) or a missed or spurious completion
 * event; never an access outside the ring.
 *
 * Locking is the ring's (queue.h): one lock per side, lockdep-checked.
 */
#ifndef SOFTRDMA_QUEUE_SIW_ABI_H
#define SOFTRDMA_QUEUE_SIW_ABI_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/types.h>
#include <rdma/ib_verbs.h>
#include <rdma/siw-abi.h>

#include "queue.h"
#include "wqe.h"

/*
 * The ring's flag protocol (queue_siw_abi.c's ring ops), inline for
 * this ABI's files: a slot's owner is its VALID flag.  SQ and RQ slots keep their
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

/* Largest ring; the verbs hold to SOFTRDMA_IWARP_MAX_QP_WR and _CQE. */
#define SOFTRDMA_SIW_RING_MAX_SLOTS	SZ_64K

enum softrdma_siw_queue {
	SOFTRDMA_SIW_SQ,	/* struct siw_sqe slots, user produces */
	SOFTRDMA_SIW_RQ,	/* struct siw_rqe slots, user produces */
	SOFTRDMA_SIW_CQ,	/* struct siw_cqe slots + siw_cq_ctrl */
};

/*
 * softrdma_siw_ring_create() - allocate a siw-layout ring
 * @uctx:	the user context that maps it; NULL only for tests (the
 *		buffer is then never mappable)
 * @num_slots:	a power of two, 1 .. SOFTRDMA_SIW_RING_MAX_SLOTS
 * @queue:	which slot layout
 * @key:	out, with @uctx: the mmap offset for libsiw's *_key field
 *
 * Sleeps.  Returns the ring, ERR_PTR(-EINVAL) for a bad size, or
 * ERR_PTR(-ENOMEM).
 */
struct softrdma_ring *softrdma_siw_ring_create(struct ib_ucontext *uctx,
					       u32 num_slots,
					       enum softrdma_siw_queue queue,
					       u64 *key);

/* Bytes libsiw computes and maps for a ring (before page rounding). */
size_t softrdma_siw_ring_len(enum softrdma_siw_queue queue, u32 num_slots);

/*
 * softrdma_siw_fetch_send_wqe() - snapshot and validate a posted SQ slot
 * @slot:	softrdma_ring_consumer_slot_at() of a posted entry
 * @out:	the snapshot; fully written on success
 *
 * libsiw's rules, checked on the copy: VALID set, no unknown flag,
 * opcode WRITE, READ, SEND or SEND_REMOTE_INV (nothing else is offered
 * to users); INLINE only for SEND and WRITE, payload sge[0].length <= 80
 * bytes at &sge[1] (num_sge ignored); otherwise num_sge <= 6; READ takes
 * exactly one SGE; SEND_REMOTE_INV invalidates the rkey field (libsiw
 * puts wr.rdma.rkey there, not invalidate_rkey).  Flags map to
 * IB_SEND_SIGNALED, IB_SEND_SOLICITED, IB_SEND_FENCE (READ_FENCE; a
 * fenced READ is accepted, as the IB verbs allow) and IB_SEND_INLINE.
 *
 * Returns 0 or -EINVAL (fail the QP).
 */
int softrdma_siw_fetch_send_wqe(const void *slot,
				struct softrdma_send_wqe *out);

/*
 * softrdma_siw_fetch_recv_wqe() - the same for a posted RQ slot: flags
 * exactly VALID, num_sge <= 6 (0 allowed for kernel symmetry; libsiw
 * never posts it).  Returns 0 or -EINVAL (fail the QP).
 */
int softrdma_siw_fetch_recv_wqe(const void *slot,
				struct softrdma_recv_wqe *out);

/* -------------------------------------------------------------- CQEs */

/*
 * ib_wc opcode to the siw opcode libsiw maps back (its table: WRITE ->
 * RDMA_WRITE, READ -> RDMA_READ, SEND -> SEND, RECEIVE -> RECV, the two
 * atomics).  A completion users cannot cause (LOCAL_INV, REG_MR, ...)
 * reads as a SEND rather than as anything out of libsiw's table.
 */
static inline u8 softrdma_siw_wc_opcode(enum ib_wc_opcode opcode)
{
	switch (opcode) {
	case IB_WC_RDMA_WRITE:
		return SIW_OP_WRITE;
	case IB_WC_RDMA_READ:
		return SIW_OP_READ;
	case IB_WC_COMP_SWAP:
		return SIW_OP_COMP_AND_SWAP;
	case IB_WC_FETCH_ADD:
		return SIW_OP_FETCH_AND_ADD;
	case IB_WC_RECV:
	case IB_WC_RECV_RDMA_WITH_IMM:
		return SIW_OP_RECEIVE;
	default:
		return SIW_OP_SEND;
	}
}

/* ib_wc status to siw_wc_status; what siw has no code for is GENERAL_ERR */
static inline u16 softrdma_siw_wc_status(enum ib_wc_status status)
{
	switch (status) {
	case IB_WC_SUCCESS:
		return SIW_WC_SUCCESS;
	case IB_WC_LOC_LEN_ERR:
		return SIW_WC_LOC_LEN_ERR;
	case IB_WC_LOC_PROT_ERR:
		return SIW_WC_LOC_PROT_ERR;
	case IB_WC_LOC_QP_OP_ERR:
		return SIW_WC_LOC_QP_OP_ERR;
	case IB_WC_WR_FLUSH_ERR:
		return SIW_WC_WR_FLUSH_ERR;
	case IB_WC_BAD_RESP_ERR:
		return SIW_WC_BAD_RESP_ERR;
	case IB_WC_LOC_ACCESS_ERR:
		return SIW_WC_LOC_ACCESS_ERR;
	case IB_WC_REM_ACCESS_ERR:
		return SIW_WC_REM_ACCESS_ERR;
	case IB_WC_REM_INV_REQ_ERR:
		return SIW_WC_REM_INV_REQ_ERR;
	default:
		return SIW_WC_GENERAL_ERR;
	}
}

/*
 * softrdma_siw_write_cqe() - write @wc into a free CQ slot, all fields but
 * flags (softrdma_ring_advance_producer() sets VALID).  Only siw opcodes
 * 0..8 and statuses 0..9 are ever written: libsiw indexes its tables
 * with them unchecked.
 */
static inline void softrdma_siw_write_cqe(void *slot, const struct ib_wc *wc)
{
	struct siw_cqe *cqe = slot;

	/* flags stay 0 (free) until advance_producer publishes the slot */
	cqe->id = wc->wr_id;
	cqe->opcode = softrdma_siw_wc_opcode(wc->opcode);
	cqe->status = softrdma_siw_wc_status(wc->status);
	cqe->bytes = wc->status == IB_WC_SUCCESS ? wc->byte_len : 0;
	cqe->imm_data = 0;	/* no immediate data in iWARP */
	cqe->qp_id = wc->qp ? wc->qp->qp_num : 0;
}

/* ------------------------------------------------------- notification */

/* cmpxchg attempts before giving up on a word user space keeps changing */
#define SOFTRDMA_SIW_NOTIFY_TRIES	4

static inline bool softrdma_siw_notify_fires(u32 arm, bool solicited)
{
	return (arm & SIW_NOTIFY_NEXT_COMPLETION) ||
	       ((arm & SIW_NOTIFY_SOLICITED) && solicited);
}

/*
 * softrdma_siw_cq_notify() - consume the CQ's arm for a new completion
 * @ring:	a SIW CQ ring; the caller holds its producer lock
 * @solicited:	the completion is solicited (a receive of a message with
 *		the solicited event bit) or in error
 *
 * libsiw arms by storing SIW_NOTIFY_SOLICITED or SOLICITED |
 * NEXT_COMPLETION in the notify word, from user space, at any time.  An
 * arm fires when it is NEXT_COMPLETION, or SOLICITED and @solicited (IB
 * verbs semantics: a solicited receive does fire a solicited-only arm,
 * unlike stock siw, which passes only the send flags).  Firing clears the
 * word with a compare-and-exchange, so a re-arm racing with it is either
 * consumed by this completion or left for the next one, never lost.
 *
 * Returns true if the completion handler must be called.
 */
static inline bool softrdma_siw_cq_notify(struct softrdma_ring *ring,
					  bool solicited)
{
	u32 *word = &ring->ctrl->flags;
	u32 arm = READ_ONCE(*word);
	int i;

	softrdma_ring_assert_producer(ring);

	for (i = 0; i < SOFTRDMA_SIW_NOTIFY_TRIES; i++) {
		if (!softrdma_siw_notify_fires(arm, solicited))
			return false;
		/* consume exactly the arm that fires; a re-arm stays */
		if (try_cmpxchg(word, &arm, SIW_NOTIFY_NOT))
			return true;
	}
	/* only a process hammering its own notify word gets here */
	return false;
}

/* Kernel req_notify_cq on a SIW CQ: store the arm libsiw would store. */
void softrdma_siw_cq_arm(struct softrdma_ring *ring, bool solicited_only);

#endif /* SOFTRDMA_QUEUE_SIW_ABI_H */
