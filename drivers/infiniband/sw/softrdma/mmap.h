/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Queue memory that user space maps: one vmalloc'ed buffer per queue,
 * published through the RDMA core's rdma_user_mmap_entry table of the
 * ucontext.  Used by both user ABIs (rxe-style and siw-style rings);
 * kernel consumers get the same buffer object without a table entry.
 *
 * Lifetime: the driver holds one reference from softrdma_mmap_alloc()
 * to softrdma_mmap_release(); softrdma_mmap() holds one while it maps.
 * When both are gone the core calls ->mmap_free, which frees the buffer.
 * Pages already mapped into a process stay valid until that process
 * unmaps them: each PTE holds a page reference (vm_insert_page()), so
 * the user may destroy a queue first and munmap it later (librxe's
 * order) and the kernel never touches the buffer after release.
 */
#ifndef SOFTRDMA_MMAP_H
#define SOFTRDMA_MMAP_H

#include <linux/types.h>
#include <rdma/ib_verbs.h>

/*
 * Lowest page offset handed out.  libsiw reads the mmap key
 * SIW_INVAL_UOBJ_KEY (0x90000) as "no mapping" and fails the create, so
 * no buffer of either device type may ever sit there: start above it
 * (queue_siw_abi.c asserts the value).  librxe takes any offset.
 */
#define SOFTRDMA_MMAP_MIN_PGOFF	((0x90000 >> PAGE_SHIFT) + 1)

struct softrdma_mmap_entry {
	struct rdma_user_mmap_entry rdma;
	void *buf;		/* vmalloc'ed, page aligned, zeroed, charged */
	size_t size;		/* bytes the owner asked for */
	bool published;		/* in the ucontext's mmap table */
};

/*
 * softrdma_mmap_alloc() - allocate a zeroed queue buffer of @size bytes.
 * @uctx: the user context that will map it, or NULL for a kernel-only
 *	  buffer (never mappable).
 *
 * The buffer is not mappable until softrdma_mmap_publish(), so the owner
 * can initialise it first.  Sleeps.  Returns the entry or ERR_PTR().
 */
struct softrdma_mmap_entry *softrdma_mmap_alloc(struct ib_ucontext *uctx,
						size_t size);

/*
 * softrdma_mmap_publish() - make a buffer mappable by its ucontext.
 * @offset: out, the mmap() offset for user space (page aligned, never
 *	    siw's SIW_INVAL_UOBJ_KEY)
 *
 * The user maps exactly softrdma_mmap_len() bytes at @offset, MAP_SHARED.
 * Sleeps.  Returns 0 or -errno (then the entry is still owned by the
 * caller, unpublished).
 */
int softrdma_mmap_publish(struct ib_ucontext *uctx,
			  struct softrdma_mmap_entry *entry, u64 *offset);

/* Length user space must pass to mmap(): the buffer size, page aligned. */
static inline size_t softrdma_mmap_len(const struct softrdma_mmap_entry *entry)
{
	return PAGE_ALIGN(entry->size);
}

/*
 * softrdma_mmap_release() - drop the driver's reference.  A published
 * buffer leaves the mmap table (no new mappings) and is freed by
 * ->mmap_free once no mmap() call holds it; an unpublished one is freed
 * now.  Safe with NULL.  May sleep (vfree): call it without spinlocks.
 */
void softrdma_mmap_release(struct softrdma_mmap_entry *entry);

/* ib_device_ops.mmap and .mmap_free of both device types. */
int softrdma_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma);
void softrdma_mmap_free(struct rdma_user_mmap_entry *rdma_entry);

/* .mmap and .mmap_free, for ib_set_device_ops() on every device. */
extern const struct ib_device_ops softrdma_mmap_ops;

#endif /* SOFTRDMA_MMAP_H */
