/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Memory regions: registration verbs, key lookup for the packet path, the
 * protection checks and the data movement helpers every transport uses.
 */
#ifndef SOFTRDMA_MR_H
#define SOFTRDMA_MR_H

#include <linux/completion.h>
#include <linux/kref.h>
#include <linux/rcupdate.h>
#include <linux/skbuff.h>
#include <linux/types.h>
#include <rdma/ib_verbs.h>

#include "compat.h"

struct ib_umem;
struct softrdma_dev;

enum softrdma_mr_type {
	SOFTRDMA_MR_USER,	/* user memory pinned by ib_umem_get() */
	SOFTRDMA_MR_DMA,	/* all kernel memory, addressed by kernel VA */
	SOFTRDMA_MR_FAST,	/* kernel fast-registration MR (IB_WR_REG_MR) */
};

/*
 * A key is (xarray index << 8) | key byte, and lkey == rkey; an iWARP
 * STag has the same layout.  The key byte is the consumer's to change
 * (ib_update_fast_reg_key()).  Indices start at 1, so no MR ever has key
 * 0, the device's local_dma_lkey.  A new MR's index is a random free one
 * of all 2^24 - 1, and its key byte random (softrdma_mr_add()): no key
 * can be told from earlier ones.
 */
#define SOFTRDMA_MR_KEY_SHIFT	8
#define SOFTRDMA_MR_KEY_BYTE	0xffU
#define SOFTRDMA_MR_INDEX_MAX	(U32_MAX >> SOFTRDMA_MR_KEY_SHIFT)
/*
 * The device's mr_xa numbers memory windows (mw.h) too, so that no key
 * names both an MR and a window: a window's entry is tagged with this
 * (xa_tag_pointer()), an MR's is not.
 */
#define SOFTRDMA_KEY_TAG_MW	1

struct softrdma_mr {
	struct ib_mr ibmr;
	enum softrdma_mr_type type;
	/*
	 * The key lookups match, lkey == rkey.  Not ibmr.lkey: a kernel
	 * consumer changes that one's key byte (ib_update_fast_reg_key())
	 * before it posts the REG_MR that makes the new key valid.
	 */
	u32 key;
	/*
	 * The PD the MR was registered in.  ibmr.pd is only set by the RDMA
	 * core once the verb has returned, after the MR is published.
	 */
	struct ib_pd *pd;
	int access;		/* IB_ACCESS_* granted at registration */
	u64 iova;		/* first byte; 0 for SOFTRDMA_MR_DMA */
	u64 length;		/* bytes; U64_MAX for SOFTRDMA_MR_DMA */

	/* SOFTRDMA_MR_USER: the pinned pages, flat for O(1) lookup */
	struct ib_umem *umem;
	struct page **pages;
	unsigned long npages;
	unsigned int page_offset;	/* offset of iova in pages[0] */

	/*
	 * SOFTRDMA_MR_FAST: map_mr_sg() fills the page list with the kernel
	 * addresses of page-size blocks (virtual DMA); IB_WR_REG_MR makes
	 * what it mapped the MR's memory, with the key and access the WR
	 * names; invalidation (local, or remote by Send with Invalidate)
	 * makes every key of it fail again.  @fast_lock orders the two.
	 */
	spinlock_t fast_lock;
	bool valid;		/* registered, not invalidated */
	u32 num_mw;		/* memory windows bound to it (mw.c) */
	/* dereg began: no window binds to it, no cache answers with it */
	bool dereg;
	u64 *pbl;		/* block addresses, pbl_max of them */
	u32 pbl_max;		/* max_num_sg of alloc_mr */
	u32 pbl_mapped;		/* blocks of the last map_mr_sg() */
	u32 pbl_first_off;	/* its first byte's offset in block 0 */
	unsigned int pbl_shift;	/* log2 of the registration's block size */

	/* one reference for the xarray, one per softrdma_mr_get() */
	struct kref ref;
	/* completed when the last reference is gone */
	struct completion released;
	struct rcu_head rcu;
};

static inline struct softrdma_mr *to_smr(struct ib_mr *ibmr)
{
	return container_of(ibmr, struct softrdma_mr, ibmr);
}

static inline u32 softrdma_mr_key(u32 index, u8 key_byte)
{
	return index << SOFTRDMA_MR_KEY_SHIFT | key_byte;
}

static inline u32 softrdma_mr_key_index(u32 key)
{
	return key >> SOFTRDMA_MR_KEY_SHIFT;
}

static inline u8 softrdma_mr_key_byte(u32 key)
{
	return key & SOFTRDMA_MR_KEY_BYTE;
}

enum softrdma_copy_dir {
	SOFTRDMA_COPY_TO_MR,	/* buffer -> registered memory */
	SOFTRDMA_COPY_FROM_MR,	/* registered memory -> buffer */
};

extern const struct ib_device_ops softrdma_mr_ops;

struct ib_mr *softrdma_get_dma_mr(struct ib_pd *ibpd, int access);
struct ib_mr *softrdma_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type mr_type,
				u32 max_num_sg);
int softrdma_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg,
		       int sg_nents, unsigned int *sg_offset);
int softrdma_mr_fast_reg(struct softrdma_dev *sdev, const struct ib_pd *pd,
			 const struct softrdma_mr *expect, u32 key,
			 int access);
int softrdma_mr_invalidate(struct softrdma_dev *sdev, const struct ib_pd *pd,
			   u32 key, bool whole_key);
struct ib_mr *softrdma_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
				   u64 iova, int access,
				   SOFTRDMA_REG_USER_MR_DMAH
				   struct ib_udata *udata);
int softrdma_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);
int softrdma_mr_window_get(struct softrdma_mr *mr);
void softrdma_mr_window_put(struct softrdma_mr *mr);

struct softrdma_mr *softrdma_mr_get(struct softrdma_dev *sdev, u32 key);
struct softrdma_mr *softrdma_mr_get_cached(struct softrdma_dev *sdev,
					   u32 key, struct softrdma_mr **cache);
/* the last reference's kref release (softrdma_mr_put()) */
void softrdma_mr_release(struct kref *ref);

/**
 * softrdma_mr_put() - drop a reference taken by softrdma_mr_get()
 * @mr: the MR
 */
static inline void softrdma_mr_put(struct softrdma_mr *mr)
{
	kref_put(&mr->ref, softrdma_mr_release);
}

/* Is [iova, iova + len) inside the MR?  Overflow-safe; len 0 always is. */
static inline bool softrdma_mr_range_ok(const struct softrdma_mr *mr,
					u64 iova, u64 len)
{
	if (!len)
		return true;
	if (mr->type == SOFTRDMA_MR_DMA)
		return len - 1 <= U64_MAX - iova;
	return iova >= mr->iova && len <= mr->length &&
	       iova - mr->iova <= mr->length - len;
}

/**
 * softrdma_mr_check() - may @pd access [@iova, @iova + @length) of @mr?
 * @mr: the MR a key named
 * @pd: the PD of the QP using the key
 * @iova: first byte accessed
 * @length: bytes accessed
 * @access: IB_ACCESS_* rights the access needs, all of them: REMOTE_WRITE
 *	for an RDMA WRITE target, REMOTE_READ for an RDMA READ source,
 *	REMOTE_ATOMIC for an atomic target, LOCAL_WRITE for a receive or
 *	read-response buffer, 0 for a local gather (local read is implied)
 *
 * A zero-length access is not bounds checked: IBA vol 1 ch. 9 lets a
 * zero-length RDMA operation carry any VA and R_Key, so the responder
 * should not even look the key up for one.  PD and rights are still
 * checked here, for callers that hold an MR anyway.
 *
 * Return: 0 if allowed.  Errors, and what they become:
 *
 * * -EINVAL: the MR is in another PD.  RoCE responder: NAK Remote Access
 *   Error; iWARP: TERMINATE Remote Protection, STag not associated with
 *   RDMAP stream (RFC 5040 TERMINATE codes); local SGE: IB_WC_LOC_PROT_ERR.
 * * -EACCES: the MR lacks a right.  RoCE: NAK Remote Access Error; iWARP:
 *   Remote Protection, Access rights violation; local: IB_WC_LOC_PROT_ERR.
 * * -EFAULT: outside the MR.  RoCE: NAK Remote Access Error; iWARP: Remote
 *   Protection, Base or bounds violation; local: IB_WC_LOC_PROT_ERR.
 */
static inline int softrdma_mr_check(const struct softrdma_mr *mr,
				    const struct ib_pd *pd, u64 iova,
				    u64 length, int access)
{
	if (mr->pd != pd)
		return -EINVAL;
	if ((mr->access & access) != access)
		return -EACCES;
	if (!softrdma_mr_range_ok(mr, iova, length))
		return -EFAULT;
	return 0;
}

int softrdma_mr_copy(const struct softrdma_mr *mr, u64 iova, void *buf,
		     u32 len, enum softrdma_copy_dir dir);
int softrdma_mr_copy_from_skb(const struct softrdma_mr *mr, u64 iova,
			      const struct sk_buff *skb, int offset, u32 len);
int softrdma_mr_skb_add_frags(const struct softrdma_mr *mr, u64 iova, u32 len,
			      struct sk_buff *skb);
int softrdma_mr_atomic(const struct softrdma_mr *mr, u64 iova, bool cmp_swap,
		       u64 compare_add, u64 swap, u64 *orig);
int softrdma_mr_atomic_write(const struct softrdma_mr *mr, u64 iova,
			     u64 value);

#if IS_ENABLED(CONFIG_KUNIT)
int softrdma_mr_check_access_flags(int access);
int softrdma_mr_add(struct softrdma_dev *sdev, struct softrdma_mr *mr);
int softrdma_mr_publish(struct softrdma_dev *sdev, struct softrdma_mr *mr);
void softrdma_mr_remove(struct softrdma_dev *sdev, struct softrdma_mr *mr);
#endif

#endif /* SOFTRDMA_MR_H */
