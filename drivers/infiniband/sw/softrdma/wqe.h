/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Work requests as the verbs core keeps them: kernel-private snapshots,
 * whatever user ABI or kernel API posted them.  A user's WQE is copied out
 * of the shared ring and validated into one of these before anything acts
 * on it; nothing downstream ever reads the user-mapped slot again.
 */
#ifndef SOFTRDMA_WQE_H
#define SOFTRDMA_WQE_H

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include <linux/types.h>

#include <rdma/ib_verbs.h>

#include "compat.h"
#include "mw.h"
#include "param.h"

/*
 * IBA 1.5 ATOMIC WRITE and FLUSH, RC only.  These are the RDMA core's
 * IB_WR_* values from 6.2 on (compat.h), and the uverbs ABI's, which
 * librxe writes to the send ring (rdma-core 44 posts ATOMIC WRITE only);
 * 6.1's uapi names neither.
 */
#define SOFTRDMA_WR_FLUSH		14
#define SOFTRDMA_WR_ATOMIC_WRITE	15

/*
 * Their ib_wc opcodes: the core's where it has them; on 6.1, whose enum
 * ib_wc_opcode has none, values of softrdma's own that no completion
 * carries (the operations are refused there).  Written to user CQs as
 * IB_UVERBS_WC_FLUSH (8) and IB_UVERBS_WC_ATOMIC_WRITE (9).
 */
#if SOFTRDMA_HAVE_ATOMIC_WRITE
#define SOFTRDMA_WC_ATOMIC_WRITE	IB_WC_ATOMIC_WRITE
#define SOFTRDMA_WC_FLUSH		IB_WC_FLUSH
static_assert(IB_WR_ATOMIC_WRITE == SOFTRDMA_WR_ATOMIC_WRITE);
static_assert(IB_WR_FLUSH == SOFTRDMA_WR_FLUSH);
#else
#define SOFTRDMA_WC_ATOMIC_WRITE	0x20
#define SOFTRDMA_WC_FLUSH		0x21
#endif

struct softrdma_mr;

struct softrdma_sge {
	u64 addr;
	u32 length;
	u32 lkey;
};

struct softrdma_send_wqe {
	u64 wr_id;
	u32 opcode;		/* enum ib_wr_opcode, or SOFTRDMA_WR_* */
	u32 send_flags;		/* enum ib_send_flags */
	union {
		__be32 imm_data;
		u32 invalidate_rkey;
	} ex;
	union {
		struct {
			u64 remote_addr;
			u32 rkey;
		} rdma;
		struct {
			u64 remote_addr;
			u64 compare_add;
			u64 swap;
			u32 rkey;
		} atomic;
		struct {		/* SOFTRDMA_WR_FLUSH (IBA 1.5 9.4.8) */
			u64 remote_addr;
			u32 rkey;
			u32 length;	/* of the range (selectivity RANGE) */
			u8 type;	/* placement: SOFTRDMA_FETH_PLT_* */
			u8 level;	/* selectivity: SOFTRDMA_FETH_SEL_* */
		} flush;
		struct {
			u32 remote_qpn;
			u32 remote_qkey;
			u32 ah_num;
		} ud;
		struct {		/* IB_WR_REG_MR, kernel QPs only */
			const struct softrdma_mr *mr;	/* compared only */
			u32 key;
			int access;
		} reg;
		struct softrdma_mw_bind mw;	/* IB_WR_BIND_MW, user QPs */
	} wr;
	u32 length;		/* payload bytes: sum of SGEs, or inline */
	u32 num_sge;		/* 0 when the payload is inline */
	union {
		struct softrdma_sge sge[SOFTRDMA_MAX_SGE];
		u8 inline_data[SOFTRDMA_MAX_INLINE];
	};
};

struct softrdma_recv_wqe {
	u64 wr_id;
	u32 length;		/* sum of SGEs */
	u32 num_sge;
	struct softrdma_sge sge[SOFTRDMA_MAX_SGE];
};

/* What a queue was created with: the bounds a posted WQE must keep. */
struct softrdma_wqe_limits {
	u32 max_sge;
	u32 max_inline;
	bool rc;		/* RC QP: RDMA and atomics allowed */
	bool ud;		/* UD QP: sends only, with an address handle */
};

/*
 * softrdma_fetch_sges() - copy and sum @num_sge SGEs (already bounded)
 * @src:	an ABI's SGE array, laid out as struct softrdma_sge (each ABI
 *		file asserts that of its own), in user slot memory or in a
 *		snapshot of it
 *
 * Only the copy is read after it.  Returns 0, or -EINVAL when the
 * lengths overflow u32.
 */
static __always_inline int softrdma_fetch_sges(const void *src, u32 num_sge,
					       struct softrdma_sge *sge,
					       u32 *length)
{
	u32 total = 0;
	u32 i;

	memcpy(sge, src, num_sge * sizeof(*sge));
	barrier();	/* from here on only the copy is read */

	for (i = 0; i < num_sge; i++)
		if (check_add_overflow(total, sge[i].length, &total))
			return -EINVAL;
	*length = total;
	return 0;
}

#endif /* SOFTRDMA_WQE_H */
