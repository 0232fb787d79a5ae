/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel interfaces that changed between the kernels softrdma builds
 * for (6.1 and 6.12 LTS).  Each shim is named after the interface it
 * bridges and says which release changed it, so that dropping an old
 * kernel is deleting its lines here and nothing else.
 */
#ifndef SOFTRDMA_COMPAT_H
#define SOFTRDMA_COMPAT_H

#include <linux/version.h>

/* 6.12 moved the unaligned access helpers from <asm/> to <linux/> */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/*
 * 6.10: __assign_str() takes the source from the __string() declaration
 * and has lost its second argument.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define softrdma_assign_str(dst, src)	__assign_str(dst)
#else
#define softrdma_assign_str(dst, src)	__assign_str(dst, src)
#endif

/*
 * 6.11: ib_device_ops.create_cq takes the uverbs attribute bundle (NULL
 * for a kernel CQ) instead of the udata inside it.  create_cq takes a
 * struct softrdma_create_cq_ctx and finds its udata through
 * softrdma_create_cq_udata().
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#include <rdma/uverbs_ioctl.h>
#define softrdma_create_cq_ctx	uverbs_attr_bundle
static inline struct ib_udata *
softrdma_create_cq_udata(struct uverbs_attr_bundle *attrs)
{
	return attrs ? &attrs->driver_udata : NULL;
}
#else
#define softrdma_create_cq_ctx	ib_udata
static inline struct ib_udata *softrdma_create_cq_udata(struct ib_udata *udata)
{
	return udata;
}
#endif

/* 6.3 made vm_flags read-only: vm_flags_set() changes it */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0)
#include <linux/mm.h>
static inline void vm_flags_set(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags |= flags;
}
#endif

/*
 * 6.5 removed TCP's sendpage entries: a page goes to TCP without a copy
 * as a bio_vec with MSG_SPLICE_PAGES.  softrdma_tcp_send_page_locked()
 * hands TCP @len bytes at @off in @page by reference, the socket held,
 * with @flags (MSG_MORE and the like); returns what tcp_sendmsg_locked()
 * or tcp_sendpage_locked() returns.  The page must stay unchanged until
 * TCP has sent and freed it, as with sendpage.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#include <linux/bvec.h>
#include <linux/socket.h>
#include <net/tcp.h>
static inline int softrdma_tcp_send_page_locked(struct sock *sk,
						struct page *page, int off,
						size_t len, int flags)
{
	struct msghdr msg = { .msg_flags = flags | MSG_SPLICE_PAGES };
	struct bio_vec bv;

	bvec_set_page(&bv, page, len, off);
	iov_iter_bvec(&msg.msg_iter, ITER_SOURCE, &bv, 1, len);
	return tcp_sendmsg_locked(sk, &msg, len);
}
#else
#include <net/tcp.h>
static inline int softrdma_tcp_send_page_locked(struct sock *sk,
						struct page *page, int off,
						size_t len, int flags)
{
	/* NOTLAST: more of the same FPDU follows (pad and CRC) */
	return tcp_sendpage_locked(sk, page, off, len,
				   flags | MSG_SENDPAGE_NOTLAST);
}
#endif

#endif /* SOFTRDMA_COMPAT_H */
