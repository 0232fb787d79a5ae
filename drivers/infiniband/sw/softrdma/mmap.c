// SPDX-License-Identifier: GPL-2.0-only
/*
 * User mappings of queue buffers through rdma_user_mmap_entry; see mmap.h
 * for the lifetime rules.
 */
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "compat.h"
#include "mmap.h"
#include "res.h"

static struct softrdma_mmap_entry *
to_softrdma_mmap_entry(struct rdma_user_mmap_entry *rdma_entry)
{
	return container_of(rdma_entry, struct softrdma_mmap_entry, rdma);
}

struct softrdma_mmap_entry *softrdma_mmap_alloc(struct ib_ucontext *uctx,
						size_t size)
{
	struct softrdma_mmap_entry *entry;

	if (!size)
		return ERR_PTR(-EINVAL);

	entry = kzalloc(sizeof(*entry), GFP_KERNEL);
	if (!entry)
		return ERR_PTR(-ENOMEM);

	/*
	 * Zeroed, so no stale kernel data can ever reach a user mapping, and
	 * charged to the caller's memory cgroup, since the caller chooses
	 * the size.  vmalloc_user() takes no gfp flags in 6.1, so no buffer
	 * is VM_USERMAP and softrdma_mmap() maps the pages itself.
	 */
	entry->buf = __vmalloc(PAGE_ALIGN(size),
			       SOFTRDMA_GFP_USER_SIZED | __GFP_ZERO);
	if (!entry->buf) {
		kfree(entry);
		return ERR_PTR(-ENOMEM);
	}
	entry->size = size;
	return entry;
}

int softrdma_mmap_publish(struct ib_ucontext *uctx,
			  struct softrdma_mmap_entry *entry, u64 *offset)
{
	int err;

	err = rdma_user_mmap_entry_insert_range(uctx, &entry->rdma,
						softrdma_mmap_len(entry),
						SOFTRDMA_MMAP_MIN_PGOFF,
						U32_MAX);
	if (err)
		return err;

	entry->published = true;
	*offset = rdma_user_mmap_get_offset(&entry->rdma);
	return 0;
}

static void softrdma_mmap_destroy(struct softrdma_mmap_entry *entry)
{
	vfree(entry->buf);
	kfree(entry);
}

void softrdma_mmap_release(struct softrdma_mmap_entry *entry)
{
	if (!entry)
		return;

	if (entry->published)
		rdma_user_mmap_entry_remove(&entry->rdma);
	else
		softrdma_mmap_destroy(entry);
}

/*
 * Map all of @buf's pages into @vma, as remap_vmalloc_range() does for a
 * VM_USERMAP area: vm_insert_page() takes a page reference per PTE.
 */
static int softrdma_mmap_insert(struct vm_area_struct *vma, void *buf)
{
	unsigned long addr;
	int err;

	for (addr = vma->vm_start; addr < vma->vm_end; addr += PAGE_SIZE) {
		err = vm_insert_page(vma, addr, vmalloc_to_page(buf));
		if (err)
			return err;
		buf += PAGE_SIZE;
	}
	vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	return 0;
}

int softrdma_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma)
{
	struct rdma_user_mmap_entry *rdma_entry;
	struct softrdma_mmap_entry *entry;
	int err;

	/*
	 * The core lookup refuses private mappings, offsets that do not start
	 * an entry, entries already released, and any length other than the
	 * entry's whole page-aligned size.
	 */
	rdma_entry = rdma_user_mmap_entry_get(uctx, vma);
	if (!rdma_entry)
		return -EINVAL;
	entry = to_softrdma_mmap_entry(rdma_entry);

	if (vma->vm_end - vma->vm_start != softrdma_mmap_len(entry)) {
		err = -EINVAL;
		goto out_put_entry;
	}

	/* each PTE takes a page reference: the pages outlive ->mmap_free */
	err = softrdma_mmap_insert(vma, entry->buf);

out_put_entry:
	rdma_user_mmap_entry_put(rdma_entry);
	return err;
}

void softrdma_mmap_free(struct rdma_user_mmap_entry *rdma_entry)
{
	softrdma_mmap_destroy(to_softrdma_mmap_entry(rdma_entry));
}

/*
 * The device leaves while a process still holds its uverbs file (rdma
 * link del, the netdev gone, the device's namespace exiting, a move to
 * another namespace): the core has destroyed every object of @uctx
 * already and only asks the driver to cut the process's mappings off.
 * A ring page mapped into a process holds the page reference its PTE
 * took (softrdma_mmap_insert()), so the process keeps pages that no
 * object reads or writes any more, and nothing is left to zap.  Without
 * this op the core would wait for the file's last close instead, and a
 * process could hold the device's removal, and with it its namespace's
 * teardown, for as long as it liked.
 */
static void softrdma_disassociate_ucontext(struct ib_ucontext *uctx)
{
}

const struct ib_device_ops softrdma_mmap_ops = {
	.disassociate_ucontext = softrdma_disassociate_ucontext,
	.mmap = softrdma_mmap,
	.mmap_free = softrdma_mmap_free,
};
