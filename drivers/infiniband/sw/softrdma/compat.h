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
 * 6.14 made crc32_le() the architecture's fastest CRC-32 (PCLMULQDQ
 * folding on x86).  Before, it is the generic table-driven one
 * everywhere, and the fast one is reached only through the crypto API's
 * "crc32": icrc.c takes that road there.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 14, 0)
#define SOFTRDMA_ICRC_USE_SHASH	1
#else
#define SOFTRDMA_ICRC_USE_SHASH	0
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

/*
 * 6.2: the RDMA core carries IBA 1.5 ATOMIC WRITE and FLUSH: the work
 * request and completion opcodes (IB_WR_ATOMIC_WRITE, IB_WR_FLUSH,
 * IB_WC_*), the device capabilities (IB_DEVICE_ATOMIC_WRITE,
 * IB_DEVICE_FLUSH_GLOBAL, IB_DEVICE_FLUSH_PERSISTENT) and the MR and QP
 * access flags (IB_ACCESS_FLUSH_GLOBAL, IB_ACCESS_FLUSH_PERSISTENT).
 * Without them softrdma neither advertises nor executes either operation.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define SOFTRDMA_HAVE_ATOMIC_WRITE	1
#define SOFTRDMA_HAVE_FLUSH		1
#define SOFTRDMA_ACCESS_FLUSH_GLOBAL	IB_ACCESS_FLUSH_GLOBAL
#define SOFTRDMA_ACCESS_FLUSH_PERSISTENT IB_ACCESS_FLUSH_PERSISTENT
#define SOFTRDMA_DEVICE_ATOMIC_WRITE	IB_DEVICE_ATOMIC_WRITE
#define SOFTRDMA_DEVICE_FLUSH_GLOBAL	IB_DEVICE_FLUSH_GLOBAL
#else
#define SOFTRDMA_HAVE_ATOMIC_WRITE	0
#define SOFTRDMA_HAVE_FLUSH		0
#define SOFTRDMA_ACCESS_FLUSH_GLOBAL	0
#define SOFTRDMA_ACCESS_FLUSH_PERSISTENT 0
#define SOFTRDMA_DEVICE_ATOMIC_WRITE	0
#define SOFTRDMA_DEVICE_FLUSH_GLOBAL	0
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
 * 6.12: a received skb's page frags may be device memory the host cannot
 * read (devmem TCP's net_iov: skb_frag_address() is NULL for them), and
 * skb_frags_readable() tells, from the skb's unreadable flag.  Before,
 * every frag is a page.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define SOFTRDMA_HAVE_UNREADABLE_FRAGS	1
#else
#define SOFTRDMA_HAVE_UNREADABLE_FRAGS	0
#include <linux/skbuff.h>
static inline bool skb_frags_readable(const struct sk_buff *skb)
{
	return true;
}
#endif

/* 6.4 moved skb_gso_segment() from linux/netdevice.h to net/gso.h */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
#include <net/gso.h>
#else
#include <linux/netdevice.h>
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

/* 6.15 renamed __crc32c_le(), the library's CRC32c, to crc32c() */
#include <linux/crc32.h>
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 15, 0)
#define softrdma_crc32c_lib(crc, p, len)	crc32c(crc, p, len)
#else
#define softrdma_crc32c_lib(crc, p, len)	__crc32c_le(crc, p, len)
#endif

/* 6.16 renamed from_timer() to timer_container_of() */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 16, 0)
#define timer_container_of(var, timer, field)	from_timer(var, timer, field)
#endif

/* 6.17: reg_user_mr gained the DMA handle (struct ib_dmah) argument */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
#define SOFTRDMA_REG_USER_MR_DMAH	struct ib_dmah *dmah,
#else
#define SOFTRDMA_REG_USER_MR_DMAH
#endif

/* 6.18 removed nth_page(): a compound page's pages are contiguous */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 18, 0)
#define softrdma_nth_page(page, n)	((page) + (n))
#else
#define softrdma_nth_page(page, n)	nth_page(page, n)
#endif

/*
 * 6.19: kernel_bind() and kernel_connect() take a struct sockaddr_unsized.
 * softrdma_sockaddr() casts a sockaddr of any family for them.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 19, 0)
#define softrdma_sockaddr(addr)	((struct sockaddr_unsized *)(addr))
#else
#define softrdma_sockaddr(addr)	((struct sockaddr *)(addr))
#endif

/*
 * The interfaces below changed in a 7.x release that is not pinned here:
 * the Makefile probes the kernel's headers for them and defines
 * SOFTRDMA_HAVE_<feature>.
 *
 * RESIZE_USER_CQ: ib_device_ops.resize_cq became resize_user_cq, with an
 * unsigned entry count.  SOFTRDMA_RESIZE_CQ_OP names the member and
 * softrdma_resize_cqe_t the count's type.
 */
#ifdef SOFTRDMA_HAVE_RESIZE_USER_CQ
#define SOFTRDMA_RESIZE_CQ_OP	resize_user_cq
#define softrdma_resize_cqe_t	unsigned int
#else
#define SOFTRDMA_RESIZE_CQ_OP	resize_cq
#define softrdma_resize_cqe_t	int
#endif

/* UMEM_GET_VA: ib_umem_get() became ib_umem_get_va() */
#ifdef SOFTRDMA_HAVE_UMEM_GET_VA
#define softrdma_umem_get(dev, addr, size, access) \
	ib_umem_get_va(dev, addr, size, access)
#else
#define softrdma_umem_get(dev, addr, size, access) \
	ib_umem_get(dev, addr, size, access)
#endif

/*
 * DEVICE_GET_BY_NAME: ib_device_get_by_name() is no longer exported;
 * without it a taken name shows as ib_register_device()'s error.
 */
#ifdef SOFTRDMA_HAVE_DEVICE_GET_BY_NAME
#include <rdma/ib_verbs.h>
static inline bool softrdma_ib_name_taken(const char *name)
{
	struct ib_device *named = ib_device_get_by_name(name,
							 RDMA_DRIVER_UNKNOWN);

	if (!named)
		return false;
	ib_device_put(named);
	return true;
}
#else
static inline bool softrdma_ib_name_taken(const char *name)
{
	return false;
}
#endif

/*
 * IPV6_STUBS: IPv6 became built-in only and the ipv6_stub indirection
 * went away; its functions are called directly.
 */
#ifdef SOFTRDMA_HAVE_IPV6_STUBS
#include <net/ipv6_stubs.h>
#define softrdma_ip6_dst_lookup_flow(net, fl6) \
	ipv6_stub->ipv6_dst_lookup_flow(net, NULL, fl6, NULL)
#define softrdma_ipv6_dev_find(net, addr) \
	ipv6_stub->ipv6_dev_find(net, addr, NULL)
#else
#include <net/addrconf.h>
#include <net/ipv6.h>
#define softrdma_ip6_dst_lookup_flow(net, fl6) \
	ip6_dst_lookup_flow(net, NULL, fl6, NULL)
#define softrdma_ipv6_dev_find(net, addr)	ipv6_dev_find(net, addr, NULL)
#endif

/*
 * FLOWI4_DSCP: the IPv4 flow key carries the DSCP (flowi4_dscp) instead
 * of the TOS byte.  SOFTRDMA_FLOWI4_TCLASS() initialises it from an IBA
 * traffic class (the IP TOS byte).
 */
#ifdef SOFTRDMA_HAVE_FLOWI4_DSCP
#include <net/inet_dscp.h>
#define SOFTRDMA_FLOWI4_TCLASS(tc)	.flowi4_dscp = inet_dsfield_to_dscp(tc)
#else
#define SOFTRDMA_FLOWI4_TCLASS(tc)	.flowi4_tos = RT_TOS(tc)
#endif

/*
 * UDP_TUNNEL_SK: setup_udp_tunnel_sock() and udp_tunnel_sock_release()
 * take the struct sock instead of the struct socket.
 */
#ifdef SOFTRDMA_HAVE_UDP_TUNNEL_SK
#define softrdma_setup_udp_tunnel_sock(net, sock, cfg) \
	setup_udp_tunnel_sock(net, (sock)->sk, cfg)
#define softrdma_udp_tunnel_sock_release(sock) \
	udp_tunnel_sock_release((sock)->sk)
#else
#define softrdma_setup_udp_tunnel_sock(net, sock, cfg) \
	setup_udp_tunnel_sock(net, sock, cfg)
#define softrdma_udp_tunnel_sock_release(sock)	udp_tunnel_sock_release(sock)
#endif

/*
 * ALLOC_DEVICE_NET: _ib_alloc_device() takes the network namespace the
 * device starts in (used by the core in exclusive mode).
 */
#ifdef SOFTRDMA_HAVE_ALLOC_DEVICE_NET
#define softrdma_ib_alloc_device(size, net)	_ib_alloc_device(size, net)
#else
#define softrdma_ib_alloc_device(size, net)	_ib_alloc_device(size)
#endif

/*
 * GRO_NETWORK_OFFSETS: the IP layer's gro_receive records where a
 * packet's IP header is in napi_gro_cb's network_offsets[] and no longer
 * sets the network header there (6.12; 6.1 sets it and has no such
 * field): dev_gro_receive() leaves it at GRO offset 0, which is an
 * in-band VLAN tag when there is one.  The index is the encap_mark, which
 * udp_gro_receive() has set before a UDP tunnel socket's gro_receive
 * runs, so skb_gro_receive_network_offset() would give the inner offset
 * there: the outer IP header's is index 0.  softrdma_gro_network_offset()
 * is the offset of a packet's (outer) IP header from skb->data in GRO.
 */
#ifdef SOFTRDMA_HAVE_GRO_NETWORK_OFFSETS
#define softrdma_gro_network_offset(skb) \
	(NAPI_GRO_CB(skb)->network_offsets[0])
#else
#define softrdma_gro_network_offset(skb)	skb_network_offset(skb)
#endif

/*
 * GRO_IPV4_MAX_SIZE: a netdev's GRO size limit is per IP version
 * (gro_ipv4_max_size beside gro_max_size, 6.3), read with
 * netif_get_gro_max_size().  Before, IPv4 and IPv6 share gro_max_size.
 */
#ifdef SOFTRDMA_HAVE_GRO_IPV4_MAX_SIZE
#define softrdma_gro_max_size(dev, skb)	netif_get_gro_max_size(dev, skb)
#else
#define softrdma_gro_max_size(dev, skb)	READ_ONCE((dev)->gro_max_size)
#endif

#endif /* SOFTRDMA_COMPAT_H */
