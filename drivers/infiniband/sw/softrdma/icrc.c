// SPDX-License-Identifier: GPL-2.0-only
/*
 * The RoCEv2 Invariant CRC, IBA vol 1 annex A17.8.  See icrc.h for what it
 * covers and how it is stored.
 */
#include <crypto/hash.h>
#include <kunit/visibility.h>
#include <linux/crc32.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <linux/udp.h>

#include "icrc.h"
#include "roce_hdr.h"
#include "roce_opcode.h"

/*
 * Below this many bytes the CRC goes to crc32_le() even when a crypto
 * "crc32" is at hand: its three indirect calls and the FPU save cost
 * more than the table does over a header, and crc32-pclmul itself
 * falls back to the table below 80 bytes.
 */
#define SOFTRDMA_ICRC_SHASH_MIN	256

#if SOFTRDMA_ICRC_USE_SHASH
/*
 * The crypto API's "crc32" (crc32-pclmul where the CPU has PCLMULQDQ),
 * allocated once at module load and read-only until unload; NULL when
 * the kernel has none, and crc32_le() does the work.  A shash transform
 * holds no per-call state (that lives in the descriptor on the caller's
 * stack), so every CPU and context may use it at once.
 */
static struct crypto_shash *softrdma_icrc_tfm;

/**
 * softrdma_icrc_init() - pick the CRC-32 implementation, once
 *
 * Return: 0; without a crypto "crc32" the ICRC is computed by crc32_le().
 */
int softrdma_icrc_init(void)
{
	struct crypto_shash *tfm = crypto_alloc_shash("crc32", 0, 0);

	/* the fallback is correct, only slower: no error to report */
	if (!IS_ERR(tfm))
		softrdma_icrc_tfm = tfm;
	return 0;
}

void softrdma_icrc_exit(void)
{
	crypto_free_shash(softrdma_icrc_tfm);
	softrdma_icrc_tfm = NULL;
}

/**
 * softrdma_icrc_shash_crc32() - crc32_le() through a crypto "crc32"
 * @tfm: the transform, or NULL for crc32_le()
 * @crc: the CRC register before @p, as crc32_le() takes it
 * @p: the bytes
 * @len: how many
 *
 * The crypto "crc32" keeps the bare register, without crc32_le()'s
 * complements being its business either: its state (what import and
 * export carry) is the register in CPU order and its digest the
 * register little-endian.
 *
 * Return: what crc32_le(@crc, @p, @len) returns.
 */
VISIBLE_IF_KUNIT u32 softrdma_icrc_shash_crc32(struct crypto_shash *tfm,
					       u32 crc, const void *p,
					       size_t len)
{
	__le32 digest;

	if (tfm && len >= SOFTRDMA_ICRC_SHASH_MIN) {
		SHASH_DESC_ON_STACK(desc, tfm);

		desc->tfm = tfm;
		/* crc32 and crc32-pclmul do not fail but on a bad state size */
		if (!crypto_shash_import(desc, &crc) &&
		    !crypto_shash_finup(desc, p, len, (u8 *)&digest))
			return le32_to_cpu(digest);
	}
	return crc32_le(crc, p, len);
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_icrc_shash_crc32);

static u32 softrdma_icrc_crc32(u32 crc, const void *p, size_t len)
{
	return softrdma_icrc_shash_crc32(softrdma_icrc_tfm, crc, p, len);
}
#else
int softrdma_icrc_init(void)
{
	return 0;
}

void softrdma_icrc_exit(void)
{
}

/* crc32_le() is the architecture's fastest CRC-32 here */
static u32 softrdma_icrc_crc32(u32 crc, const void *p, size_t len)
{
	return crc32_le(crc, p, len);
}
#endif

/* A17.8.1: the LRH that RoCE does not have is covered as eight bytes of 1s */
#define SOFTRDMA_ICRC_LRH_BYTES	8

/* the largest IPv4 header: 15 words, options included */
#define SOFTRDMA_ICRC_IP_MAX	60

/*
 * The length of the IP header at @iph, from its version and (IPv4) header
 * length fields, or 0 if it is not an IPv4 or IPv6 header that fits in
 * @avail bytes.  IPv6 extension headers are not supported: the UDP header
 * must follow the fixed header.
 */
static unsigned int softrdma_icrc_ip_len(const u8 *iph, unsigned int avail)
{
	unsigned int len;

	if (avail < 1)
		return 0;
	switch (iph[0] >> 4) {
	case 4:
		len = (iph[0] & 0xf) * 4;
		if (len < sizeof(struct iphdr) || len > avail ||
		    ((const struct iphdr *)iph)->protocol != IPPROTO_UDP)
			return 0;
		return len;
	case 6:
		len = sizeof(struct ipv6hdr);
		if (len > avail ||
		    ((const struct ipv6hdr *)iph)->nexthdr != IPPROTO_UDP)
			return 0;
		return len;
	}
	return 0;
}

/*
 * The CRC register after the masked part: LRH stand-in, IP header, UDP
 * header and BTH (A17.8.2).  @ip_len was validated by the caller.
 */
static u32 softrdma_icrc_hdrs(const u8 *iph, unsigned int ip_len,
			      const struct udphdr *udph,
			      const struct softrdma_bth *bth)
{
	u8 buf[SOFTRDMA_ICRC_LRH_BYTES + SOFTRDMA_ICRC_IP_MAX +
	       sizeof(struct udphdr) + sizeof(struct softrdma_bth)];
	struct softrdma_bth *mbth;
	struct udphdr *mudph;
	u8 *mip;

	memset(buf, 0xff, SOFTRDMA_ICRC_LRH_BYTES);

	mip = buf + SOFTRDMA_ICRC_LRH_BYTES;
	memcpy(mip, iph, ip_len);
	if ((iph[0] >> 4) == 4) {
		struct iphdr *ip4 = (struct iphdr *)mip;

		ip4->tos = 0xff;
		ip4->ttl = 0xff;
		ip4->check = CSUM_MANGLED_0;
	} else {
		struct ipv6hdr *ip6 = (struct ipv6hdr *)mip;

		/* version stays; traffic class and flow label go */
		ip6->priority = 0xf;
		memset(ip6->flow_lbl, 0xff, sizeof(ip6->flow_lbl));
		ip6->hop_limit = 0xff;
	}

	mudph = (struct udphdr *)(mip + ip_len);
	memcpy(mudph, udph, sizeof(*mudph));
	mudph->check = CSUM_MANGLED_0;

	mbth = (struct softrdma_bth *)(mudph + 1);
	memcpy(mbth, bth, sizeof(*mbth));
	((u8 *)mbth)[SOFTRDMA_BTH_ICRC_MASKED_BYTE] = 0xff;

	return crc32_le(~0U, buf, (u8 *)(mbth + 1) - buf);
}

/**
 * softrdma_icrc_compute_buf() - ICRC of a RoCEv2 packet in one buffer
 * @pkt: the IPv4 or IPv6 header, followed by UDP header and IB packet
 * @len: bytes from @pkt to the end of the ICRC field, the IP datagram
 *
 * The caller guarantees the layout; softrdma_icrc_check_buf() is the one
 * to use on untrusted bytes.
 *
 * Return: the ICRC the packet should carry, in CPU order.
 */
u32 softrdma_icrc_compute_buf(const void *pkt, unsigned int len)
{
	unsigned int ip_len = softrdma_icrc_ip_len(pkt, len);
	const struct softrdma_bth *bth;
	const struct udphdr *udph;
	unsigned int hdrs;
	u32 crc;

	hdrs = ip_len + sizeof(*udph) + sizeof(*bth);
	if (WARN_ON_ONCE(!ip_len || len < hdrs + ROCE_ICRC_SIZE))
		return 0;

	udph = pkt + ip_len;
	bth = (const struct softrdma_bth *)(udph + 1);
	crc = softrdma_icrc_hdrs(pkt, ip_len, udph, bth);
	crc = softrdma_icrc_crc32(crc, pkt + hdrs, len - hdrs - ROCE_ICRC_SIZE);
	return ~crc;
}

/**
 * softrdma_icrc_check_buf() - does a RoCEv2 packet in one buffer carry a
 * good ICRC
 * @pkt: the IPv4 or IPv6 header, followed by UDP header and IB packet
 * @len: bytes from @pkt to the end of the ICRC field
 *
 * Return: true if the layout is sound (UDP length agrees with @len) and
 * the stored ICRC matches.
 */
bool softrdma_icrc_check_buf(const void *pkt, unsigned int len)
{
	unsigned int ip_len = softrdma_icrc_ip_len(pkt, len);
	const struct udphdr *udph = pkt + ip_len;

	if (!ip_len ||
	    len < ip_len + sizeof(*udph) + sizeof(struct softrdma_bth) +
		  ROCE_ICRC_SIZE ||
	    ntohs(udph->len) != len - ip_len)
		return false;

	return softrdma_icrc_compute_buf(pkt, len) ==
	       softrdma_icrc_get(pkt + len - ROCE_ICRC_SIZE);
}

/*
 * crc32_le() over @len bytes at @off in @skb, wherever they lie (linear
 * part, page fragments, frag list), without a copy.
 */
static u32 softrdma_icrc_skb_crc(const struct sk_buff *skb, unsigned int off,
				 unsigned int len, u32 crc)
{
	struct skb_seq_state st;
	unsigned int done = 0;
	const u8 *data;
	unsigned int n;

	/* the walk only reads: the skb is not changed */
	skb_prepare_seq_read((struct sk_buff *)skb, off, off + len, &st);
	while (done < len && (n = skb_seq_read(done, &data, &st))) {
		/* a block may run past off + len: the ICRC field follows */
		n = min(n, len - done);
		crc = softrdma_icrc_crc32(crc, data, n);
		done += n;
	}
	/* unmaps the last page when the walk stopped inside it */
	skb_abort_seq_read(&st);
	return crc;
}

/*
 * Where the IB packet starts, relative to skb->data, for an skb whose
 * network and transport headers are set; negative if it starts before
 * skb->data.
 */
static int softrdma_icrc_ib_offset(const struct sk_buff *skb)
{
	return skb_transport_offset(skb) + (int)sizeof(struct udphdr);
}

/* the network header is IPv4 or IPv6 and ends at the transport header */
static bool softrdma_icrc_skb_ip_ok(const struct sk_buff *skb)
{
	unsigned int ip_len = skb_network_header_len(skb);

	return ip_len &&
	       ip_len == softrdma_icrc_ip_len(skb_network_header(skb), ip_len);
}

/*
 * The CRC register over the IB packet of @ib_len bytes at @ib_off, its
 * masked headers included, before the final inversion; the layout was
 * checked by the caller.
 */
static u32 softrdma_icrc_skb_state(const struct sk_buff *skb, int ib_off,
				   unsigned int ib_len)
{
	const struct softrdma_bth *bth;
	struct softrdma_bth bth_buf;
	u32 crc;

	bth = skb_header_pointer(skb, ib_off, sizeof(*bth), &bth_buf);
	crc = softrdma_icrc_hdrs(skb_network_header(skb),
				 skb_network_header_len(skb), udp_hdr(skb), bth);
	return softrdma_icrc_skb_crc(skb, ib_off + sizeof(*bth),
				     ib_len - sizeof(*bth), crc);
}

/**
 * softrdma_icrc_compute() - ICRC of a RoCEv2 packet in an skb
 * @skb: the packet; its network header is the IPv4 or IPv6 header and its
 *	transport header the UDP header, both in the linear part; skb->data
 *	is at or before the BTH.  The IB packet may lie in page fragments or
 *	a frag list.
 * @ib_len: bytes from the BTH to the end of the pad, ICRC excluded
 *
 * Walks the skb in place: no copy of the payload, no allocation.  The
 * caller guarantees the layout (the transmit path, which built it);
 * softrdma_icrc_check() is the one to use on received packets.
 *
 * Return: the ICRC the packet should carry, in CPU order.
 */
u32 softrdma_icrc_compute(const struct sk_buff *skb, unsigned int ib_len)
{
	int ib_off = softrdma_icrc_ib_offset(skb);

	if (WARN_ON_ONCE(!softrdma_icrc_skb_ip_ok(skb) || ib_off < 0 ||
			 ib_len < sizeof(struct softrdma_bth) ||
			 ib_off + ib_len > skb->len))
		return 0;
	return ~softrdma_icrc_skb_state(skb, ib_off, ib_len);
}

/**
 * softrdma_icrc_check() - does a received RoCEv2 skb carry a good ICRC
 * @skb: as for softrdma_icrc_compute(); the IB packet's length is taken
 *	from the UDP header
 *
 * Stock rxe (6.2 on) gives RC FLUSH no payload offset in its opcode
 * table, so the ICRC of its FLUSH requests runs on over the BTH, FETH and
 * RETH a second time, as if they were payload.  A FLUSH request carrying
 * that ICRC instead of annex A17.8's is taken, and told apart: one
 * opcode, found only when the A17.8 check fails.
 *
 * Return: SOFTRDMA_ICRC_OK if the headers are where the skb says, the UDP
 * length fits the skb and the stored ICRC matches; SOFTRDMA_ICRC_RXE_FLUSH
 * for a FLUSH request with stock rxe's ICRC; else SOFTRDMA_ICRC_BAD.
 */
enum softrdma_icrc_verdict softrdma_icrc_check(const struct sk_buff *skb)
{
	int ib_off = softrdma_icrc_ib_offset(skb);
	const struct softrdma_bth *bth;
	struct softrdma_bth bth_buf;
	const struct udphdr *udph;
	unsigned int ib_len;
	__le32 stored_buf;
	const void *stored;
	u32 crc, want;

	if (!softrdma_icrc_skb_ip_ok(skb) || ib_off < 0 ||
	    ib_off > skb_headlen(skb))
		return SOFTRDMA_ICRC_BAD;

	udph = udp_hdr(skb);
	if (ntohs(udph->len) < sizeof(*udph) + sizeof(struct softrdma_bth) +
			       ROCE_ICRC_SIZE)
		return SOFTRDMA_ICRC_BAD;
	ib_len = ntohs(udph->len) - sizeof(*udph) - ROCE_ICRC_SIZE;
	if (ib_off + ib_len + ROCE_ICRC_SIZE > skb->len)
		return SOFTRDMA_ICRC_BAD;

	stored = skb_header_pointer(skb, ib_off + ib_len, ROCE_ICRC_SIZE,
				    &stored_buf);
	want = softrdma_icrc_get(stored);
	crc = softrdma_icrc_skb_state(skb, ib_off, ib_len);
	if (~crc == want)
		return SOFTRDMA_ICRC_OK;

	bth = skb_header_pointer(skb, ib_off, sizeof(*bth), &bth_buf);
	if (softrdma_bth_opcode(bth) != SOFTRDMA_OPCODE_RC_FLUSH)
		return SOFTRDMA_ICRC_BAD;
	crc = softrdma_icrc_skb_crc(skb, ib_off, ib_len, crc);
	return ~crc == want ? SOFTRDMA_ICRC_RXE_FLUSH : SOFTRDMA_ICRC_BAD;
}
