/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Memory windows (IBA vol 1 10.6.7): alloc/dealloc verbs, binding by a
 * send queue work request, invalidation, and the R_Key lookup the
 * responder makes through a window.
 */
#ifndef SOFTRDMA_MW_H
#define SOFTRDMA_MW_H

#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <rdma/ib_verbs.h>

struct softrdma_dev;
struct softrdma_mr;
struct softrdma_qp;

/* Rights a window may grant: remote ones only (IBA 10.6.7.2.1) */
#define SOFTRDMA_MW_ACCESS	(IB_ACCESS_REMOTE_WRITE |		\
				 IB_ACCESS_REMOTE_READ |		\
				 IB_ACCESS_REMOTE_ATOMIC |		\
				 IB_ZERO_BASED)

/*
 * The key of a deallocated window: no R_Key matches it, as index 0 is never
 * a window's, so a lookup that found the window just before finds nothing.
 */
#define SOFTRDMA_MW_KEY_DEAD	0

/*
 * A window shares the key space of MRs: its entry holds an index of the
 * device's mr_xa, tagged SOFTRDMA_KEY_TAG_MW (mr.h), so that no R_Key can
 * name both.  The entry is the window's state apart from the ib_mw, which
 * the RDMA core frees as soon as dealloc_mw returns: lookups find it under
 * RCU and use it only inside that section; dealloc makes it dead and
 * unpublishes it, and it is freed after a grace period (kfree_rcu), which
 * nothing waits for.
 */
struct softrdma_mw_entry {
	const struct ib_pd *pd;	/* the window's, compared only */
	enum ib_mw_type type;
	/* protects everything below but @rcu: the binding */
	spinlock_t lock;
	/* the R_Key valid now, its byte changes per bind; or KEY_DEAD */
	u32 key;
	struct softrdma_mr *mr;	/* bound to, referenced; NULL: not bound */
	/* type 2: the QP it was bound through, counted in its mw_bound */
	struct softrdma_qp *qp;
	u64 addr;		/* first byte, in the MR's iova space */
	u64 length;
	int access;		/* SOFTRDMA_MW_ACCESS bits */
	struct rcu_head rcu;
};

/*
 * ibmw.rkey is the key at allocation only: the RDMA core reads it for the
 * answer to alloc_mw and nowhere else, and a consumer learns the key of a
 * bind from the bind itself.
 */
struct softrdma_mw {
	struct ib_mw ibmw;
	struct softrdma_mw_entry *entry;	/* in the device's mr_xa */
};

static inline struct softrdma_mw *to_smw(struct ib_mw *ibmw)
{
	return container_of(ibmw, struct softrdma_mw, ibmw);
}

/* A bind work request, as a private copy of what the consumer posted */
struct softrdma_mw_bind {
	u32 mw_rkey;		/* the window's R_Key now */
	u32 mr_lkey;		/* the MR to bind to; ignored for length 0 */
	u32 rkey;		/* its low byte is the new key byte */
	int access;
	u64 addr;
	u64 length;		/* 0: unbind (type 1 only) */
};

extern const struct ib_device_ops softrdma_mw_ops;

int softrdma_mw_bind(struct softrdma_dev *sdev, struct softrdma_qp *qp,
		     const struct softrdma_mw_bind *b);
int softrdma_mw_invalidate(struct softrdma_dev *sdev, struct softrdma_qp *qp,
			   u32 rkey);
int softrdma_mw_rkey(struct softrdma_dev *sdev, const struct softrdma_qp *qp,
		     u32 rkey, u64 va, u64 len, int access,
		     struct softrdma_mr **mr, u64 *mr_va);
void softrdma_mw_qp_gone(struct softrdma_dev *sdev, struct softrdma_qp *qp);

#if IS_ENABLED(CONFIG_KUNIT)
bool softrdma_mw_range(u64 w_addr, u64 w_len, bool zero_based, u64 va,
		       u64 len, u64 *mr_va);
int softrdma_mw_bind_check(const struct softrdma_mw_entry *mw,
			   const struct softrdma_mr *mr, const struct ib_qp *qp,
			   const struct softrdma_mw_bind *b);
#endif

#endif /* SOFTRDMA_MW_H */
