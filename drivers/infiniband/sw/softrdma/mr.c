// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory regions.
 *
 * A user MR pins its pages once, at registration, into a flat page array,
 * so that the packet path finds the page of any byte in O(1) and never
 * allocates.  A DMA MR (get_dma_mr, kernel consumers only) covers all
 * kernel memory: softrdma registers with no DMA device, so the RDMA core's
 * virtual DMA ops hand consumers kernel virtual addresses, and those are
 * the addresses a DMA MR is accessed with.  A fast-registration MR
 * (alloc_mr, kernel consumers only) has a page list of such addresses,
 * mapped by map_mr_sg and made valid by an IB_WR_REG_MR work request,
 * until a local or remote invalidation (IBA vol 1 10.6.3.6, 10.7.2.4;
 * RFC 5040 6.2.1 for iWARP's STags).
 *
 * Lifetime: an MR is built completely, then published in the device's
 * xarray under its key index.  Lookups take a reference under RCU.  Dereg
 * unpublishes, drops the xarray's reference, waits until every lookup has
 * let go, unpins and frees after an RCU grace period.
 */
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/net.h>
#include <linux/overflow.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>
#include <linux/xarray.h>
#include <kunit/visibility.h>
#include <rdma/ib_umem.h>

#include "compat.h"
#include "device.h"
#include "mr.h"
#include "param.h"
#include "uabi.h"

/*
 * MRs and memory windows in use leave most indices free: a random one
 * stays hard to guess.
 */
static_assert(SOFTRDMA_MAX_MR + SOFTRDMA_MAX_MW <=
	      (SOFTRDMA_MR_INDEX_MAX + 1) / 32);

/*
 * Access rights a softrdma MR can be registered with.  FLUSH for global
 * visibility where the core carries it; never FLUSH for persistence:
 * registered memory is ordinary RAM (see softrdma.rst, IBA 1.5 FLUSH).
 */
#define SOFTRDMA_MR_ACCESS	(IB_ACCESS_LOCAL_WRITE |		\
				 IB_ACCESS_REMOTE_WRITE |		\
				 IB_ACCESS_REMOTE_READ |		\
				 IB_ACCESS_REMOTE_ATOMIC |		\
				 IB_ACCESS_MW_BIND |			\
				 IB_ACCESS_HUGETLB |			\
				 SOFTRDMA_ACCESS_FLUSH_GLOBAL)

/*
 * Serialises every atomic operation any softrdma responder performs on
 * registered memory, whatever the device: the same page may be registered
 * with several devices, and IBA atomics must be atomic against all of them.
 */
static DEFINE_SPINLOCK(softrdma_mr_atomic_lock);

/**
 * softrdma_mr_check_access_flags() - may an MR be registered with @access?
 * @access: IB_ACCESS_* flags of reg_user_mr or get_dma_mr
 *
 * Optional flags (IB_ACCESS_OPTIONAL: relaxed ordering) are hints a
 * software device ignores.  IB_ACCESS_HUGETLB only describes the backing
 * memory; pinning handles huge pages as PAGE_SIZE pages.  On-demand paging
 * and zero-based MRs are not supported.  Remote write and remote atomic
 * access require local write access (IBA vol 1 10.6, memory registration).
 *
 * Return: 0, -EOPNOTSUPP for an unsupported flag, -EINVAL for remote write
 * or atomic without local write.
 */
VISIBLE_IF_KUNIT int softrdma_mr_check_access_flags(int access)
{
	access &= ~IB_ACCESS_OPTIONAL;
	if (access & ~SOFTRDMA_MR_ACCESS)
		return -EOPNOTSUPP;
	if (access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC) &&
	    !(access & IB_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	return 0;
}

void softrdma_mr_release(struct kref *ref)
{
	struct softrdma_mr *mr = container_of(ref, struct softrdma_mr, ref);

	complete(&mr->released);
}

/**
 * softrdma_mr_add() - give an MR its key and reserve its xarray slot
 * @sdev: the device
 * @mr: a fully built MR, not yet published
 *
 * The slot stays empty for lookups until softrdma_mr_publish(), so the key
 * can be reported to user space before anyone can use it.  Undo with
 * softrdma_mr_remove().
 *
 * The index is the first free one from a random start, anywhere in the
 * index space, and the key byte random: about 32 random bits, as an
 * RNIC's keys have.  Handing out the lowest free index instead made every
 * key predictable from the one before, and gave a deregistered MR's index
 * to the next registration, of any PD, where a stale key matched it once
 * in 256.  Sparse indices cost the xarray more nodes, less than the
 * pinned page each MR needs at least.
 *
 * Return: 0, or -ENOMEM when the device has SOFTRDMA_MAX_MR MRs already.
 */
VISIBLE_IF_KUNIT int softrdma_mr_add(struct softrdma_dev *sdev,
				     struct softrdma_mr *mr)
{
	u32 index, next;
	int err;

	kref_init(&mr->ref);
	init_completion(&mr->released);

	err = softrdma_res_get(&sdev->res, SOFTRDMA_RES_MR);
	if (err)
		return err;
	next = get_random_u32_inclusive(1, SOFTRDMA_MR_INDEX_MAX);
	err = xa_alloc_cyclic(&sdev->mr_xa, &index, NULL,
			      XA_LIMIT(1, SOFTRDMA_MR_INDEX_MAX), &next,
			      GFP_KERNEL);
	if (err < 0) {
		softrdma_res_put(&sdev->res, SOFTRDMA_RES_MR);
		return err == -EBUSY ? -ENOMEM : err;
	}

	spin_lock_init(&mr->fast_lock);
	mr->key = softrdma_mr_key(index, get_random_u8());
	mr->ibmr.lkey = mr->key;
	mr->ibmr.rkey = mr->key;
	return 0;
}

/**
 * softrdma_mr_publish() - make an MR reserved by softrdma_mr_add() visible
 * @sdev: the device
 * @mr: the MR; nothing in it may change afterwards
 *
 * Return: 0 or -errno from the xarray.
 */
VISIBLE_IF_KUNIT int softrdma_mr_publish(struct softrdma_dev *sdev,
					 struct softrdma_mr *mr)
{
	u32 index = softrdma_mr_key_index(mr->key);

	return xa_err(xa_store(&sdev->mr_xa, index, mr, GFP_KERNEL));
}

/**
 * softrdma_mr_remove() - unpublish an MR and wait for its users
 * @sdev: the device
 * @mr: an MR added by softrdma_mr_add(), published or not
 *
 * On return no lookup holds @mr and none can find it.  RCU readers may
 * still look at it, so it must be freed after a grace period.
 */
VISIBLE_IF_KUNIT void softrdma_mr_remove(struct softrdma_dev *sdev,
					 struct softrdma_mr *mr)
{
	might_sleep();

	xa_erase(&sdev->mr_xa, softrdma_mr_key_index(mr->key));
	softrdma_res_put(&sdev->res, SOFTRDMA_RES_MR);
	kref_put(&mr->ref, softrdma_mr_release);
	wait_for_completion(&mr->released);
}

/* The MR in @key's slot, whatever its key byte and state, referenced */
static __always_inline struct softrdma_mr *
softrdma_mr_get_slot(struct softrdma_dev *sdev, u32 key)
{
	struct softrdma_mr *mr;

	rcu_read_lock();
	mr = xa_load(&sdev->mr_xa, softrdma_mr_key_index(key));
	/* a memory window's key is no MR's (mw.c) */
	if (xa_pointer_tag(mr))
		mr = NULL;
	if (mr && !kref_get_unless_zero(&mr->ref))
		mr = NULL;
	rcu_read_unlock();
	return mr;
}

/* Does @key name @mr, which its slot holds, as softrdma_mr_get() asks? */
static bool softrdma_mr_key_ok(const struct softrdma_mr *mr, u32 key)
{
	if (mr->type == SOFTRDMA_MR_FAST &&
	    /* valid before key: REG_MR stores the key, then releases valid */
	    !smp_load_acquire(&mr->valid))
		return false;
	return READ_ONCE(mr->key) == key;
}

/**
 * softrdma_mr_get() - look an MR up by lkey or rkey
 * @sdev: the device
 * @key: the key from a work request or a packet
 *
 * The whole key must match: an index whose key byte differs belongs to an
 * MR the key does not name (a stale or guessed key).  A fast-registration
 * MR is found only while it is valid.  May be called from any context.
 *
 * Return: the MR with a reference held (drop it with softrdma_mr_put()), or
 * NULL.  A responder answers NULL like a failed check: NAK Remote Access
 * Error on RoCE, TERMINATE Remote Protection / Invalid STag on iWARP.
 */
struct softrdma_mr *softrdma_mr_get(struct softrdma_dev *sdev, u32 key)
{
	struct softrdma_mr *mr = softrdma_mr_get_slot(sdev, key);

	if (!mr)
		return NULL;
	if (!softrdma_mr_key_ok(mr, key)) {
		softrdma_mr_put(mr);
		return NULL;
	}
	return mr;
}

/**
 * softrdma_mr_get_cached() - softrdma_mr_get() through a one-MR cache
 * @sdev: the device
 * @key: the key from a work request or a received packet
 * @cache: the MR the last lookup found, with a reference of the cache's
 *	own, or NULL; a lookup that finds another MR puts it there instead.
 *	Its owner drops it with softrdma_mr_put() soon, when a run of
 *	lookups ends: a deregistration waits for it.  A run must be
 *	bounded and must not wait on a deregistration itself; a cache kept
 *	beyond it would hold deregistrations for as long.
 *
 * Packets of one message built in one pass, or received in one burst,
 * look up the same key: the cached MR answers them without the key
 * space's walk.  It answers only as softrdma_mr_get() would: not once its
 * deregistration began (which unpublishes it next, so a key's slot holds
 * no other MR while the cached one is not deregistering), and for a
 * fast-registration MR only while valid and with the whole key it was
 * registered with, an invalidation seen at the next lookup as without
 * the cache.  It knows nothing of QPs or PDs: the caller checks those on
 * every answer, cached or not, so one cache may serve the lookups of
 * several QPs.
 *
 * Return: as softrdma_mr_get(), a reference of the caller's own.
 */
struct softrdma_mr *softrdma_mr_get_cached(struct softrdma_dev *sdev,
					   u32 key, struct softrdma_mr **cache)
{
	struct softrdma_mr *mr = *cache;

	if (mr && !READ_ONCE(mr->dereg) && softrdma_mr_key_ok(mr, key)) {
		kref_get(&mr->ref);
		return mr;
	}
	mr = softrdma_mr_get(sdev, key);
	if (mr) {
		if (*cache)
			softrdma_mr_put(*cache);
		kref_get(&mr->ref);
		*cache = mr;
	}
	return mr;
}

/* The page of kernel address @addr (virtual DMA), and the offset in it */
static struct page *mr_kernel_page(u64 addr, unsigned int *offset)
{
	const void *va = (const void *)(uintptr_t)addr;

	if ((uintptr_t)addr != addr)
		return NULL;
	*offset = offset_in_page(va);
	if (virt_addr_valid(va))
		return virt_to_page(va);
	if (is_vmalloc_addr(va))
		return vmalloc_to_page(va);
	return NULL;
}

/*
 * The page holding byte @iova of @mr, and the byte's offset in it.  The
 * caller has checked the range; user and fast-registration MRs still
 * refuse to index past their page arrays (a fast-registration MR's
 * registration may change under a reader that found it valid).
 */
static __always_inline struct page *mr_page(const struct softrdma_mr *mr,
					    u64 iova, unsigned int *offset)
{
	unsigned long index;
	unsigned int shift;
	u64 pos;

	switch (mr->type) {
	case SOFTRDMA_MR_DMA:
		return mr_kernel_page(iova, offset);
	case SOFTRDMA_MR_FAST:
		shift = READ_ONCE(mr->pbl_shift);
		pos = iova - READ_ONCE(mr->iova) + READ_ONCE(mr->page_offset);
		index = pos >> shift;
		if (index >= min_t(unsigned long, READ_ONCE(mr->npages),
				   mr->pbl_max))
			return NULL;
		return mr_kernel_page(READ_ONCE(mr->pbl[index]) +
				      (pos & (BIT_ULL(shift) - 1)), offset);
	case SOFTRDMA_MR_USER:
		break;
	}

	pos = iova - mr->iova + mr->page_offset;
	index = pos >> PAGE_SHIFT;
	if (index >= mr->npages)
		return NULL;
	*offset = pos & ~PAGE_MASK;
	return mr->pages[index];
}

/**
 * softrdma_mr_copy() - copy between an MR and a kernel buffer
 * @mr: the MR, checked by the caller
 * @iova: first MR byte
 * @buf: the kernel buffer
 * @len: bytes
 * @dir: which way
 *
 * Does not allocate or sleep.  On error part of the data may have been
 * copied.
 *
 * Return: 0, or -EFAULT if the range is not (or not all) in the MR.
 */
int softrdma_mr_copy(const struct softrdma_mr *mr, u64 iova, void *buf,
		     u32 len, enum softrdma_copy_dir dir)
{
	if (!softrdma_mr_range_ok(mr, iova, len))
		return -EFAULT;

	while (len) {
		unsigned int offset, chunk;
		struct page *page;
		void *va;

		page = mr_page(mr, iova, &offset);
		if (!page)
			return -EFAULT;
		chunk = min_t(u32, len, PAGE_SIZE - offset);

		va = kmap_local_page(page);
		if (dir == SOFTRDMA_COPY_TO_MR)
			memcpy(va + offset, buf, chunk);
		else
			memcpy(buf, va + offset, chunk);
		kunmap_local(va);
		if (dir == SOFTRDMA_COPY_TO_MR)
			flush_dcache_page(page);

		buf += chunk;
		iova += chunk;
		len -= chunk;
	}
	return 0;
}

/**
 * softrdma_mr_copy_from_skb() - place received payload into an MR
 * @mr: the MR, checked by the caller
 * @iova: first MR byte
 * @skb: the packet, linear or not
 * @offset: where the payload starts in @skb
 * @len: bytes
 *
 * Copies straight from the skb's head and fragments into the pinned pages,
 * one destination page at a time.  Does not allocate or sleep.
 *
 * Return: 0, or -EFAULT if the range is not in the MR or not in @skb.
 */
int softrdma_mr_copy_from_skb(const struct softrdma_mr *mr, u64 iova,
			      const struct sk_buff *skb, int offset, u32 len)
{
	if (!softrdma_mr_range_ok(mr, iova, len))
		return -EFAULT;

	while (len) {
		unsigned int page_off, chunk;
		struct page *page;
		void *va;
		int err;

		page = mr_page(mr, iova, &page_off);
		if (!page)
			return -EFAULT;
		chunk = min_t(u32, len, PAGE_SIZE - page_off);

		va = kmap_local_page(page);
		err = skb_copy_bits(skb, offset, va + page_off, chunk);
		kunmap_local(va);
		if (err)
			return -EFAULT;
		flush_dcache_page(page);

		offset += chunk;
		iova += chunk;
		len -= chunk;
	}
	return 0;
}

/**
 * softrdma_mr_skb_add_frags() - append MR memory to an skb without copying
 * @mr: the MR, checked by the caller
 * @iova: first MR byte
 * @len: bytes
 * @skb: the packet being built; not cloned, no frag_list
 *
 * Appends one page fragment per page touched, each holding a page
 * reference that kfree_skb() drops.  The skb's data and frags are only
 * changed on success.
 * Each page is looked up once: a fast-registration MR's page list may be
 * rewritten meanwhile (map_mr_sg), so the page checked is the page
 * attached.  Does not allocate or sleep.
 *
 * Return: 0; -EMSGSIZE when the pages do not fit in MAX_SKB_FRAGS or one
 * of them cannot be referenced by an skb (a slab page behind a DMA MR,
 * see sendpage_ok()): the caller then copies instead; -EFAULT if the range
 * is not in the MR.
 */
int softrdma_mr_skb_add_frags(const struct softrdma_mr *mr, u64 iova, u32 len,
			      struct sk_buff *skb)
{
	struct skb_shared_info *shinfo = skb_shinfo(skb);
	unsigned int first = shinfo->nr_frags, nr = first;
	unsigned int offset, chunk;
	struct page *page;
	int err = 0;
	u32 left;
	u64 pos;

	if (!softrdma_mr_range_ok(mr, iova, len))
		return -EFAULT;

	for (pos = iova, left = len; left; pos += chunk, left -= chunk) {
		page = mr_page(mr, pos, &offset);
		if (!page) {
			err = -EFAULT;
			goto unwind;
		}
		if (nr >= MAX_SKB_FRAGS || !sendpage_ok(page)) {
			err = -EMSGSIZE;
			goto unwind;
		}
		chunk = min_t(u32, left, PAGE_SIZE - offset);
		get_page(page);
		/* beyond nr_frags until all fit: invisible to the skb */
		__skb_fill_page_desc(skb, nr++, page, offset, chunk);
	}
	shinfo->nr_frags = nr;
	skb->len += len;
	skb->data_len += len;
	skb->truesize += len;
	return 0;

unwind:
	while (nr > first)
		put_page(skb_frag_page(&shinfo->frags[--nr]));
	return err;
}

static u64 mr_atomic_locked(u64 *p, bool cmp_swap, u64 compare_add, u64 swap)
{
	u64 orig;

	lockdep_assert_held(&softrdma_mr_atomic_lock);

	orig = READ_ONCE(*p);
	if (!cmp_swap)
		WRITE_ONCE(*p, orig + compare_add);
	else if (orig == compare_add)
		WRITE_ONCE(*p, swap);
	return orig;
}

/*
 * The page holding the 8-byte atomic target @iova of @mr, and its offset
 * there: ERR_PTR(-EINVAL) if @iova, or the memory behind it, is not 8-byte
 * aligned; ERR_PTR(-EFAULT) if it is not in the MR.
 */
static struct page *mr_atomic_page(const struct softrdma_mr *mr, u64 iova,
				   unsigned int *offset)
{
	struct page *page;

	if (!IS_ALIGNED(iova, sizeof(u64)))
		return ERR_PTR(-EINVAL);
	if (!softrdma_mr_range_ok(mr, iova, sizeof(u64)))
		return ERR_PTR(-EFAULT);
	page = mr_page(mr, iova, offset);
	if (!page)
		return ERR_PTR(-EFAULT);
	if (!IS_ALIGNED(*offset, sizeof(u64)))
		return ERR_PTR(-EINVAL);
	return page;
}

/**
 * softrdma_mr_atomic() - perform an IBA atomic on 8 bytes of an MR
 * @mr: the MR, checked by the caller for IB_ACCESS_REMOTE_ATOMIC
 * @iova: the target; must be 8-byte aligned (IBA vol 1 ch. 9, atomics)
 * @cmp_swap: true for Compare & Swap, false for Fetch & Add
 * @compare_add: the value to compare with, or to add
 * @swap: the value stored if the comparison matches
 * @orig: receives the original value
 *
 * Atomic against every other softrdma atomic on the host; not against
 * CPU accesses to the same memory, as IBA allows.
 *
 * Return: 0; -EINVAL if @iova, or the memory behind it, is not 8-byte
 * aligned (RoCE: NAK Invalid Request); -EFAULT if it is not in the MR.
 */
int softrdma_mr_atomic(const struct softrdma_mr *mr, u64 iova, bool cmp_swap,
		       u64 compare_add, u64 swap, u64 *orig)
{
	unsigned int offset;
	unsigned long flags;
	struct page *page;
	void *va;

	page = mr_atomic_page(mr, iova, &offset);
	if (IS_ERR(page))
		return PTR_ERR(page);

	va = kmap_local_page(page);
	spin_lock_irqsave(&softrdma_mr_atomic_lock, flags);
	*orig = mr_atomic_locked(va + offset, cmp_swap, compare_add, swap);
	spin_unlock_irqrestore(&softrdma_mr_atomic_lock, flags);
	kunmap_local(va);
	flush_dcache_page(page);
	return 0;
}

/**
 * softrdma_mr_atomic_write() - an IBA 1.5 ATOMIC WRITE to 8 bytes of an MR
 * @mr: the MR, checked by the caller for IB_ACCESS_REMOTE_WRITE
 * @iova: the target; must be 8-byte aligned
 * @value: the eight bytes, as they came (the requester's memory image)
 *
 * One store, under the lock softrdma_mr_atomic() holds, so that no IBA
 * atomic of any softrdma responder sees half of it (IBA 1.5 9.4.9).
 *
 * Return: 0; -EINVAL if @iova, or the memory behind it, is not 8-byte
 * aligned (NAK Invalid Request); -EFAULT if it is not in the MR.
 */
int softrdma_mr_atomic_write(const struct softrdma_mr *mr, u64 iova, u64 value)
{
	unsigned int offset;
	unsigned long flags;
	struct page *page;
	void *va;

	page = mr_atomic_page(mr, iova, &offset);
	if (IS_ERR(page))
		return PTR_ERR(page);

	va = kmap_local_page(page);
	spin_lock_irqsave(&softrdma_mr_atomic_lock, flags);
	WRITE_ONCE(*(u64 *)(va + offset), value);
	spin_unlock_irqrestore(&softrdma_mr_atomic_lock, flags);
	kunmap_local(va);
	flush_dcache_page(page);
	return 0;
}

/* Flatten the umem's scatterlist into mr->pages. */
static int mr_fill_pages(struct softrdma_mr *mr, struct ib_umem *umem)
{
	unsigned long npages = ib_umem_num_pages(umem);
	struct sg_page_iter iter;
	unsigned long i = 0;

	mr->pages = kvmalloc_array(npages, sizeof(*mr->pages),
				   SOFTRDMA_GFP_USER_SIZED);
	if (!mr->pages)
		return -ENOMEM;

	for_each_sgtable_page(&umem->sgt_append.sgt, &iter, 0) {
		if (i == npages)
			break;
		mr->pages[i++] = sg_page_iter_page(&iter);
	}
	if (i != npages) {
		kvfree(mr->pages);
		mr->pages = NULL;
		return -EFAULT;
	}

	mr->npages = npages;
	mr->page_offset = ib_umem_offset(umem);
	return 0;
}

/**
 * softrdma_mr_install() - key, report and publish a fully built MR
 * @sdev: the device
 * @mr: the MR, everything but its key filled in
 * @udata: reg_user_mr's, for the device's user ABI to answer with the
 *	key; NULL for a kernel MR
 *
 * The key reaches user space before the MR can be found by it.
 *
 * Return: 0, or -errno with the key released again; the caller frees
 * what it built.
 */
static int softrdma_mr_install(struct softrdma_dev *sdev,
			       struct softrdma_mr *mr,
			       struct ib_udata *udata)
{
	int err;

	err = softrdma_mr_add(sdev, mr);
	if (err)
		return err;
	if (udata && sdev->uabi_ops->reg_mr_resp) {
		err = sdev->uabi_ops->reg_mr_resp(udata, mr->key);
		if (err)
			goto out_remove_mr;
	}
	err = softrdma_mr_publish(sdev, mr);
	if (err)
		goto out_remove_mr;
	return 0;

out_remove_mr:
	softrdma_mr_remove(sdev, mr);
	return err;
}

/**
 * softrdma_get_dma_mr() - an MR over all kernel memory, for kernel users
 * @ibpd: the PD
 * @access: IB_ACCESS_* rights
 *
 * Return: the MR, or ERR_PTR(-errno).
 */
struct ib_mr *softrdma_get_dma_mr(struct ib_pd *ibpd, int access)
{
	struct softrdma_dev *sdev = to_sdev(ibpd->device);
	struct softrdma_mr *mr;
	int err;

	err = softrdma_mr_check_access_flags(access);
	if (err)
		return ERR_PTR(err);

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->type = SOFTRDMA_MR_DMA;
	mr->pd = ibpd;
	mr->access = access & ~IB_ACCESS_OPTIONAL;
	mr->length = U64_MAX;

	err = softrdma_mr_install(sdev, mr, NULL);
	if (err)
		goto out_free_mr;
	return &mr->ibmr;

out_free_mr:
	kfree(mr);
	return ERR_PTR(err);
}

/**
 * softrdma_alloc_mr() - a fast-registration MR, for kernel users
 * @ibpd: the PD
 * @mr_type: IB_MR_TYPE_MEM_REG; nothing else is supported
 * @max_num_sg: the most blocks one registration may map
 *
 * The MR starts invalid: no key finds it until an IB_WR_REG_MR.
 *
 * Return: the MR, or ERR_PTR(-errno).
 */
struct ib_mr *softrdma_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type mr_type,
				u32 max_num_sg)
{
	struct softrdma_dev *sdev = to_sdev(ibpd->device);
	struct softrdma_mr *mr;
	int err;

	if (mr_type != IB_MR_TYPE_MEM_REG)
		return ERR_PTR(-EOPNOTSUPP);
	if (!max_num_sg || max_num_sg > SOFTRDMA_MAX_FAST_REG_PAGES)
		return ERR_PTR(-EINVAL);

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->pbl = kcalloc(max_num_sg, sizeof(*mr->pbl), GFP_KERNEL);
	if (!mr->pbl) {
		err = -ENOMEM;
		goto out_free_mr;
	}
	mr->type = SOFTRDMA_MR_FAST;
	mr->pd = ibpd;
	mr->pbl_max = max_num_sg;
	mr->pbl_shift = PAGE_SHIFT;

	err = softrdma_mr_install(sdev, mr, NULL);
	if (err)
		goto out_free_pbl;
	return &mr->ibmr;

out_free_pbl:
	kfree(mr->pbl);
out_free_mr:
	kfree(mr);
	return ERR_PTR(err);
}

static int softrdma_mr_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct softrdma_mr *mr = to_smr(ibmr);

	if (mr->pbl_mapped == mr->pbl_max)
		return -ENOMEM;
	WRITE_ONCE(mr->pbl[mr->pbl_mapped++], addr);
	return 0;
}

/**
 * softrdma_map_mr_sg() - fill a fast-registration MR's page list
 * @ibmr: the MR
 * @sg: DMA-mapped scatterlist (kernel virtual addresses)
 * @sg_nents: its entries
 * @sg_offset: offset into the first entry, or NULL
 *
 * Sets ibmr->iova, ->length and the page list from @sg at
 * ibmr->page_size blocks; the MR's memory changes only at the next
 * IB_WR_REG_MR.
 *
 * Return: the number of entries mapped (ib_sg_to_pages()).
 */
int softrdma_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg,
		       int sg_nents, unsigned int *sg_offset)
{
	struct softrdma_mr *mr = to_smr(ibmr);
	int n;

	mr->pbl_mapped = 0;
	n = ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset,
			   softrdma_mr_set_page);
	/* kept apart from iova, which ib_map_mr_sg_zbva() then zeroes */
	if (ibmr->page_size)
		mr->pbl_first_off = ibmr->iova & (ibmr->page_size - 1);
	return n;
}

/**
 * softrdma_mr_fast_reg() - execute an IB_WR_REG_MR
 * @sdev: the device
 * @pd: the PD of the QP it was posted on
 * @expect: the MR the work request named (compared, not dereferenced)
 * @key: the key it gives the MR (same index, a new key byte)
 * @access: IB_ACCESS_* rights it grants
 *
 * The MR takes the page list, iova and length of its last map_mr_sg.
 *
 * Return: 0; -EINVAL for a key that does not name @expect, an MR that is
 * not a fast-registration one, a page size or access it cannot have;
 * -EACCES for another PD; -EBUSY if the MR is valid (IBA: a fast
 * register needs an invalid MR).
 */
int softrdma_mr_fast_reg(struct softrdma_dev *sdev, const struct ib_pd *pd,
			 const struct softrdma_mr *expect, u32 key,
			 int access)
{
	struct softrdma_mr *mr;
	unsigned long flags;
	unsigned int shift;
	u32 size;
	int err;

	if (softrdma_mr_check_access_flags(access))
		return -EINVAL;
	mr = softrdma_mr_get_slot(sdev, key);
	if (!mr)
		return -EINVAL;

	err = -EINVAL;
	if (mr != expect || mr->type != SOFTRDMA_MR_FAST)
		goto out_put;
	err = -EACCES;
	if (mr->pd != pd)
		goto out_put;
	err = -EINVAL;
	size = mr->ibmr.page_size;
	if (!is_power_of_2(size) || size < PAGE_SIZE)
		goto out_put;
	shift = ilog2(size);
	if (mr->ibmr.length + mr->pbl_first_off >
	    ((u64)mr->pbl_mapped << shift))
		goto out_put;

	spin_lock_irqsave(&mr->fast_lock, flags);
	if (mr->valid) {
		err = -EBUSY;
	} else {
		WRITE_ONCE(mr->iova, mr->ibmr.iova);
		WRITE_ONCE(mr->length, mr->ibmr.length);
		WRITE_ONCE(mr->page_offset, mr->pbl_first_off);
		WRITE_ONCE(mr->npages, mr->pbl_mapped);
		WRITE_ONCE(mr->pbl_shift, shift);
		WRITE_ONCE(mr->access, access & ~IB_ACCESS_OPTIONAL);
		WRITE_ONCE(mr->key, key);
		/* pairs with softrdma_mr_get(): all of the above, then valid */
		smp_store_release(&mr->valid, true);
		err = 0;
	}
	spin_unlock_irqrestore(&mr->fast_lock, flags);
out_put:
	softrdma_mr_put(mr);
	return err;
}

/**
 * softrdma_mr_invalidate() - a local invalidate (LOCAL_INV, RDMA Read with
 *	local invalidate), or a remote one (Send with Invalidate)
 * @sdev: the device
 * @pd: the PD of the QP it came in on
 * @key: the key to invalidate
 * @whole_key: the key byte must match too: the key came from the peer,
 *	or from a user's LOCAL_INV
 *
 * Only fast-registration MRs can be invalidated; invalidating an MR that
 * is already invalid succeeds.  A kernel consumer's local invalidate
 * names the MR by its index, as siw does: the RDMA core's rdma_rw (6.1)
 * builds an RDMA Read with local invalidate with the MR's key from before
 * the key byte it registers with.  Accesses that found the MR valid
 * before may still finish: the consumer orders them (IBA 10.8.3.3 fence).
 *
 * Return: 0; -EINVAL when @key names no such MR; -EACCES for another PD.
 */
int softrdma_mr_invalidate(struct softrdma_dev *sdev, const struct ib_pd *pd,
			   u32 key, bool whole_key)
{
	struct softrdma_mr *mr;
	unsigned long flags;
	int err = 0;

	mr = softrdma_mr_get_slot(sdev, key);
	if (!mr)
		return -EINVAL;
	if (mr->type != SOFTRDMA_MR_FAST ||
	    (whole_key && READ_ONCE(mr->key) != key)) {
		err = -EINVAL;
	} else if (mr->pd != pd) {
		err = -EACCES;
	} else {
		spin_lock_irqsave(&mr->fast_lock, flags);
		WRITE_ONCE(mr->valid, false);
		spin_unlock_irqrestore(&mr->fast_lock, flags);
	}
	softrdma_mr_put(mr);
	return err;
}

/**
 * softrdma_reg_user_mr() - pin and register user memory
 * @ibpd: the PD
 * @start: user virtual address of the first byte
 * @length: bytes
 * @iova: the address the MR is accessed with (ibv_reg_mr_iova)
 * @access: IB_ACCESS_* rights
 * @udata: as the device's user ABI has it (uabi.h): nothing for librxe;
 *	libsiw sends a request and takes the key back
 *
 * libsiw's stag_key is ignored: the key byte is always random, and libsiw
 * takes the key from the core's response anyway.
 *
 * Return: the MR, or ERR_PTR(-errno).
 */
struct ib_mr *softrdma_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
				   u64 iova, int access,
				   SOFTRDMA_REG_USER_MR_DMAH
				   struct ib_udata *udata)
{
	struct softrdma_dev *sdev = to_sdev(ibpd->device);
	struct softrdma_mr *mr;
	struct ib_umem *umem;
	u64 end;
	int err;

	err = softrdma_mr_check_access_flags(access);
	if (err)
		return ERR_PTR(err);
	if (!length || check_add_overflow(start, length, &end) ||
	    check_add_overflow(iova, length, &end))
		return ERR_PTR(-EINVAL);
	if (udata && sdev->uabi_ops->reg_mr_check) {
		err = sdev->uabi_ops->reg_mr_check(udata);
		if (err)
			return ERR_PTR(err);
	}

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);

	umem = softrdma_umem_get(ibpd->device, start, length, access);
	if (IS_ERR(umem)) {
		err = PTR_ERR(umem);
		goto out_free_mr;
	}
	err = mr_fill_pages(mr, umem);
	if (err)
		goto out_release_umem;

	mr->type = SOFTRDMA_MR_USER;
	mr->pd = ibpd;
	mr->access = access & ~IB_ACCESS_OPTIONAL;
	mr->iova = iova;
	mr->length = length;
	mr->umem = umem;
	mr->ibmr.iova = iova;
	mr->ibmr.length = length;
	mr->ibmr.page_size = PAGE_SIZE;

	err = softrdma_mr_install(sdev, mr, udata);
	if (err)
		goto out_free_pages;
	return &mr->ibmr;

out_free_pages:
	kvfree(mr->pages);
out_release_umem:
	ib_umem_release(umem);
out_free_mr:
	kfree(mr);
	return ERR_PTR(err);
}

/**
 * softrdma_mr_window_get() - count a memory window bound to @mr
 * @mr: the MR, referenced by the caller; the window keeps that reference
 *
 * Return: 0, or -EINVAL once the MR's dereg began.
 */
int softrdma_mr_window_get(struct softrdma_mr *mr)
{
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&mr->fast_lock, flags);
	if (mr->dereg)
		err = -EINVAL;
	else
		mr->num_mw++;
	spin_unlock_irqrestore(&mr->fast_lock, flags);
	return err;
}

/**
 * softrdma_mr_window_put() - a window bound to @mr is unbound
 * @mr: the MR; the window's reference is dropped
 */
void softrdma_mr_window_put(struct softrdma_mr *mr)
{
	unsigned long flags;

	spin_lock_irqsave(&mr->fast_lock, flags);
	mr->num_mw--;
	spin_unlock_irqrestore(&mr->fast_lock, flags);
	softrdma_mr_put(mr);
}

/**
 * softrdma_dereg_mr() - unpublish, wait for the packet path, unpin, free
 * @ibmr: the MR
 * @udata: unused by both user ABIs
 *
 * An MR that memory windows are bound to stays registered (IBA 10.6.7.2.6;
 * rxe answers the same): the consumer unbinds or deallocates them first.
 *
 * Return: 0, or -EINVAL while a window is bound to the MR.
 */
int softrdma_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct softrdma_mr *mr = to_smr(ibmr);
	unsigned long flags;
	bool bound;

	spin_lock_irqsave(&mr->fast_lock, flags);
	bound = mr->num_mw;
	if (!bound)
		WRITE_ONCE(mr->dereg, true);
	spin_unlock_irqrestore(&mr->fast_lock, flags);
	if (bound)
		return -EINVAL;

	softrdma_mr_remove(to_sdev(mr->pd->device), mr);
	ib_umem_release(mr->umem);
	kvfree(mr->pages);
	kfree(mr->pbl);
	kfree_rcu(mr, rcu);
	return 0;
}

const struct ib_device_ops softrdma_mr_ops = {
	.alloc_mr = softrdma_alloc_mr,
	.dereg_mr = softrdma_dereg_mr,
	.get_dma_mr = softrdma_get_dma_mr,
	.map_mr_sg = softrdma_map_mr_sg,
	.reg_user_mr = softrdma_reg_user_mr,
};
