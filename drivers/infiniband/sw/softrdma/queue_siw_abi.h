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

#include <linux/types.h>
#include <rdma/ib_verbs.h>
#include <rdma/siw-abi.h>

#include "queue.h"
#include "wqe.h"

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

/*
 * softrdma_siw_write_cqe() - write @wc into a free CQ slot, all fields but
 * flags (softrdma_ring_advance_producer() sets VALID).  Only siw opcodes
 * 0..8 and statuses 0..9 are ever written: libsiw indexes its tables
 * with them unchecked.
 */
void softrdma_siw_write_cqe(void *slot, const struct ib_wc *wc);
u8 softrdma_siw_wc_opcode(enum ib_wc_opcode opcode);
u16 softrdma_siw_wc_status(enum ib_wc_status status);

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
bool softrdma_siw_cq_notify(struct softrdma_ring *ring, bool solicited);

/* Kernel req_notify_cq on a SIW CQ: store the arm libsiw would store. */
void softrdma_siw_cq_arm(struct softrdma_ring *ring, bool solicited_only);

#endif /* SOFTRDMA_QUEUE_SIW_ABI_H */
