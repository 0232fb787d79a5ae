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
 * the kernel has none but the generic one, and crc32_le() does the work.  A shash transform
 * holds no per-call state (that lives in the descriptor on the caller's
 * stack), so every CPU and context may use it at once.
 */
static struct crypto_shash *softrdma_icrc_tfm;

/* the state a packet's descriptor has room for: crc32 keeps a u32 */
#define SOFTRDMA_ICRC_DESC_CTX	8

/**
 * softrdma_icrc_init() - pick the CRC-32 implementation, once
 *
 * Return: 0; without a crypto "crc32" other than the generic one the ICRC
 * is computed by crc32_le().
 */
int softrdma_icrc_init(void)
{
	struct crypto_shash *tfm = crypto_alloc_shash("crc32", 0, 0);

	/* the fallback is correct, only slower: no error to report */
	if (IS_ERR(tfm))
		return 0;
	/*
	 * The generic one is crc32_le() behind the crypto API; and a
	 * packet's descriptor has room for the register and no more.
	 */
	if (!strcmp(crypto_shash_driver_name(tfm), "crc32-generic") ||
	    crypto_shash_descsize(tfm) > SOFTRDMA_ICRC_DESC_CTX) {
		crypto_free_shash(tfm);
		return 0;
	}
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

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * softrdma_icrc_swap_tfm() - put another transform in, for the tests
 * @tfm: the new one, NULL for crc32_le() alone
 *
 * Return: the one before, to be put back.
 */
struct crypto_shash *softrdma_icrc_swap_tfm(struct crypto_shash *tfm)
{
	return xchg(&softrdma_icrc_tfm, tfm);
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_icrc_swap_tfm);
#endif
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

/* set the fields of the IP header at @iph that A17.8.2 masks to ones */
static void softrdma_icrc_mask_ip(u8 *iph)
{
	if ((iph[0] >> 4) == 4) {
		struct iphdr *ip4 = (struct iphdr *)iph;

		ip4->tos = 0xff;
		ip4->ttl = 0xff;
		ip4->check = CSUM_MANGLED_0;
	} else {
		struct ipv6hdr *ip6 = (struct ipv6hdr *)iph;

		/* version stays; traffic class and flow label go */
		ip6->priority = 0xf;
		memset(ip6->flow_lbl, 0xff, sizeof(ip6->flow_lbl));
		ip6->hop_limit = 0xff;
	}
}

/*
 * Write the masked IP header, UDP header and BTH (A17.8.2) to @dst; @ip_len
 * was validated by the caller.  Return: the bytes written.
 */
static unsigned int softrdma_icrc_mask(u8 *dst, const u8 *iph,
				       unsigned int ip_len,
				       const struct udphdr *udph,
				       const struct softrdma_bth *bth)
{
	struct softrdma_bth *mbth;
	struct udphdr *mudph;

	/* the usual sizes are copied inline */
	if (ip_len == sizeof(struct iphdr))
		memcpy(dst, iph, sizeof(struct iphdr));
	else if (ip_len == sizeof(struct ipv6hdr))
		memcpy(dst, iph, sizeof(struct ipv6hdr));
	else
		memcpy(dst, iph, ip_len);
	softrdma_icrc_mask_ip(dst);

	mudph = (struct udphdr *)(dst + ip_len);
	memcpy(mudph, udph, sizeof(*mudph));
	mudph->check = CSUM_MANGLED_0;

	mbth = (struct softrdma_bth *)(mudph + 1);
	memcpy(mbth, bth, sizeof(*mbth));
	((u8 *)mbth)[SOFTRDMA_BTH_ICRC_MASKED_BYTE] = 0xff;

	return (u8 *)(mbth + 1) - dst;
}

/*
 * The CRC register after the masked part: LRH stand-in, IP header, UDP
 * header and BTH (A17.8.2), through crc32_le(): the plain reckoning of
 * softrdma_icrc_compute_buf(), against which the tests check the skb
 * path's.
 */
static u32 softrdma_icrc_hdrs(const u8 *iph, unsigned int ip_len,
			      const struct udphdr *udph,
			      const struct softrdma_bth *bth)
{
	u8 buf[SOFTRDMA_ICRC_LRH_BYTES + SOFTRDMA_ICRC_IP_MAX +
	       sizeof(struct udphdr) + sizeof(struct softrdma_bth)];
	unsigned int len;

	memset(buf, 0xff, SOFTRDMA_ICRC_LRH_BYTES);
	len = softrdma_icrc_mask(buf + SOFTRDMA_ICRC_LRH_BYTES, iph, ip_len,
				 udph, bth);
	return crc32_le(~0U, buf, SOFTRDMA_ICRC_LRH_BYTES + len);
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
 * The skb path's CRC runs in pieces through one running sum.  With a
 * crypto "crc32", crc32-pclmul folds with PCLMULQDQ only the 16-byte
 * blocks of a piece of 79 bytes or more, from its first 16-byte aligned
 * byte: what lies before that byte and after the last whole block goes
 * through the table of crc32_le(), several instructions a byte.  So the
 * masked headers, which must be copied anyway, go first as one aligned
 * block on the stack that is a multiple of 16 bytes long and at least
 * SOFTRDMA_ICRC_FOLD_MIN, and carry with them the first bytes of the
 * payload, up to the payload's first aligned byte: the rest of a
 * contiguous payload then folds but for its last few bytes.
 *
 * Two properties of the CRC register make the block's length free to
 * choose: a CRC preset to all ones gives what one preset to zero gives
 * over the same bytes with the first four complemented, and zero bytes
 * leave a zero register zero.  The LRH stand-in starts with four bytes of
 * ones, so the block holds them as zeros behind as many zeros as round
 * its length up, and the sum starts from zero.
 */
#define SOFTRDMA_ICRC_ALIGN	16
#define SOFTRDMA_ICRC_FOLD_MIN	80
#define SOFTRDMA_ICRC_BLOCK	128

/* the masked part of the block: LRH stand-in, IP, UDP and BTH headers */
#define SOFTRDMA_ICRC_HDRS_MAX	(SOFTRDMA_ICRC_LRH_BYTES + \
				 SOFTRDMA_ICRC_IP_MAX + \
				 sizeof(struct udphdr) + \
				 sizeof(struct softrdma_bth))
/* the block leaves room for an alignment prefix after the largest */
static_assert(SOFTRDMA_ICRC_HDRS_MAX + SOFTRDMA_ICRC_ALIGN - 1 <=
	      SOFTRDMA_ICRC_BLOCK);
/*
 * The block's leading zeros, complemented ones included, are most behind
 * the smallest headers (IPv4 without options), grown to the fold minimum.
 */
#define SOFTRDMA_ICRC_ZEROS_MAX	(SOFTRDMA_ICRC_FOLD_MIN - \
				 SOFTRDMA_ICRC_LRH_BYTES - \
				 sizeof(struct iphdr) - \
				 sizeof(struct udphdr) - \
				 sizeof(struct softrdma_bth) + \
				 SOFTRDMA_ICRC_LRH_BYTES / 2)
static_assert(SOFTRDMA_ICRC_ALIGN - 1 + SOFTRDMA_ICRC_LRH_BYTES / 2 <=
	      SOFTRDMA_ICRC_ZEROS_MAX);

/* a running CRC-32 from a zero register */
struct softrdma_icrc_sum {
#if SOFTRDMA_ICRC_USE_SHASH
	/* a shash_desc and the state softrdma_icrc_init() made room for */
	u8 desc[sizeof(struct shash_desc) + SOFTRDMA_ICRC_DESC_CTX]
		CRYPTO_MINALIGN_ATTR;
	struct crypto_shash *tfm;	/* NULL: crc32_le() */
	int err;			/* what the crypto calls returned */
#endif
	u32 crc;
};

#if SOFTRDMA_ICRC_USE_SHASH
static void softrdma_icrc_sum_begin(struct softrdma_icrc_sum *sum)
{
	struct shash_desc *desc = (struct shash_desc *)sum->desc;

	sum->crc = 0;
	sum->err = 0;
	sum->tfm = READ_ONCE(softrdma_icrc_tfm);
	if (sum->tfm) {
		/* an unkeyed "crc32" starts from a zero register */
		desc->tfm = sum->tfm;
		sum->err = crypto_shash_init(desc);
	}
}

/* the sum folds with PCLMULQDQ, where it can, through crypto "crc32" */
static bool softrdma_icrc_sum_folds(const struct softrdma_icrc_sum *sum)
{
	return sum->tfm;
}

static void softrdma_icrc_sum_add(struct softrdma_icrc_sum *sum,
				  const void *p, unsigned int len)
{
	if (sum->tfm)
		sum->err |= crypto_shash_update((struct shash_desc *)sum->desc,
						p, len);
	else
		sum->crc = crc32_le(sum->crc, p, len);
}

/*
 * The last @len bytes at @p go in with the finish.  Return: the register;
 * false in @ok if a crypto call failed.
 */
static u32 softrdma_icrc_sum_end(struct softrdma_icrc_sum *sum,
				 const void *p, unsigned int len, bool *ok)
{
	__le32 digest;

	*ok = true;
	if (!sum->tfm)
		return crc32_le(sum->crc, p, len);
	/* crc32 and crc32-pclmul do not fail but on a bad state size */
	sum->err |= crypto_shash_finup((struct shash_desc *)sum->desc, p, len,
				       (u8 *)&digest);
	*ok = !sum->err;
	return le32_to_cpu(digest);
}
#else
static void softrdma_icrc_sum_begin(struct softrdma_icrc_sum *sum)
{
	sum->crc = 0;
}

/* crc32_le() is the fastest CRC-32 here: nothing to arrange for it */
static bool softrdma_icrc_sum_folds(const struct softrdma_icrc_sum *sum)
{
	return false;
}

static void softrdma_icrc_sum_add(struct softrdma_icrc_sum *sum,
				  const void *p, unsigned int len)
{
	sum->crc = crc32_le(sum->crc, p, len);
}

static u32 softrdma_icrc_sum_end(struct softrdma_icrc_sum *sum,
				 const void *p, unsigned int len, bool *ok)
{
	*ok = true;
	return crc32_le(sum->crc, p, len);
}
#endif

/*
 * The next contiguous bytes of an skb without a frag list, from @*pos up
 * to @end, found from the fragment @*frag that starts at skb offset
 * @*frag_off; the walk only moves forward.  Return: their length, 0 at
 * @end.
 */
static unsigned int softrdma_icrc_piece(const struct sk_buff *skb,
					unsigned int pos, unsigned int end,
					unsigned int *frag,
					unsigned int *frag_off,
					const u8 **p)
{
	const struct skb_shared_info *shinfo = skb_shinfo(skb);
	unsigned int head = skb_headlen(skb);

	if (pos >= end)
		return 0;
	if (pos < head) {
		*p = skb->data + pos;
		return min(head, end) - pos;
	}
	while (*frag < shinfo->nr_frags) {
		const skb_frag_t *f = &shinfo->frags[*frag];
		unsigned int size = skb_frag_size(f);

		if (pos < *frag_off + size) {
			*p = skb_frag_address(f) + (pos - *frag_off);
			return min(*frag_off + size, end) - pos;
		}
		*frag_off += size;
		(*frag)++;
	}
	return 0;
}

/* the plain reckoning, for a crypto API that failed: headers, then bytes */
static u32 softrdma_icrc_skb_plain(const struct sk_buff *skb, int ib_off,
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

/*
 * The CRC register over the IB packet of @ib_len bytes at @ib_off, its
 * masked headers included, before the final inversion; the layout was
 * checked by the caller.
 */
static u32 softrdma_icrc_skb_state(const struct sk_buff *skb, int ib_off,
				   unsigned int ib_len)
{
	/* room behind the block for the 16 bytes the head is copied as */
	u8 block[SOFTRDMA_ICRC_BLOCK + SOFTRDMA_ICRC_ALIGN]
		__aligned(SOFTRDMA_ICRC_ALIGN) __uninitialized;
	unsigned int pos = ib_off + sizeof(struct softrdma_bth), pre = 0;
	unsigned int frag = 0, frag_off = skb_headlen(skb), n = 0;
	unsigned int ip_len = skb_network_header_len(skb);
	unsigned int end = ib_off + ib_len, s = 0;
	const struct softrdma_bth *bth;
	struct softrdma_bth bth_buf;
	struct softrdma_icrc_sum sum;
	unsigned int hdrs, len;
	const u8 *p = block;
	bool folds, ok;
	u32 crc;

	softrdma_icrc_sum_begin(&sum);
	/* a frag list or a highmem page is walked by skb_seq_read() */
	folds = softrdma_icrc_sum_folds(&sum) && !skb_has_frag_list(skb) &&
		!IS_ENABLED(CONFIG_HIGHMEM);
	bth = skb_header_pointer(skb, ib_off, sizeof(*bth), &bth_buf);
	hdrs = SOFTRDMA_ICRC_LRH_BYTES + ip_len + sizeof(struct udphdr) +
	       sizeof(*bth);

	/*
	 * The block takes the head of a payload's first piece up to its
	 * first aligned byte, or all of a payload that fits.  A first piece
	 * that is neither (some payload in the linear part, the rest in
	 * pages) goes in as it is.
	 */
	if (folds) {
		n = softrdma_icrc_piece(skb, pos, end, &frag, &frag_off, &p);
		if (n > SOFTRDMA_ICRC_BLOCK - hdrs)
			pre = -(unsigned long)p & (SOFTRDMA_ICRC_ALIGN - 1);
		else if (pos + n == end)
			pre = n;
	}

	/*
	 * With folding, the block is zeros, the LRH stand-in's second half
	 * of ones, the masked headers and the payload's first bytes, and a
	 * multiple of 16 bytes long; without, it starts at the ones.
	 */
	len = hdrs + pre;
	if (folds) {
		s = max(round_up(len, SOFTRDMA_ICRC_ALIGN),
			SOFTRDMA_ICRC_FOLD_MIN) - len;
		memset(block, 0, SOFTRDMA_ICRC_ZEROS_MAX);
	}
	memset(block + s + SOFTRDMA_ICRC_LRH_BYTES / 2, 0xff,
	       SOFTRDMA_ICRC_LRH_BYTES / 2);
	softrdma_icrc_mask(block + s + SOFTRDMA_ICRC_LRH_BYTES,
			   skb_network_header(skb), ip_len, udp_hdr(skb), bth);
	if (pre == n) {
		/* the whole payload, or none */
		memcpy(block + s + hdrs, p, pre);
		n = 0;
	} else if (pre || n > SOFTRDMA_ICRC_BLOCK - hdrs) {
		/* a piece longer than the room, so no shorter than 16 */
		memcpy(block + s + hdrs, p, SOFTRDMA_ICRC_ALIGN);
		pos += pre;
		p += pre;
		n -= pre;
	}

	if (!folds) {
		struct skb_seq_state st;
		unsigned int done = 0;

		softrdma_icrc_sum_add(&sum, block + SOFTRDMA_ICRC_LRH_BYTES / 2,
				      len - SOFTRDMA_ICRC_LRH_BYTES / 2);
		/* the walk only reads: the skb is not changed */
		skb_prepare_seq_read((struct sk_buff *)skb, pos, end, &st);
		while (done < end - pos &&
		       (n = skb_seq_read(done, &p, &st))) {
			/* a block may run past end: the ICRC field follows */
			n = min(n, end - pos - done);
			softrdma_icrc_sum_add(&sum, p, n);
			done += n;
		}
		/* unmaps the last page when the walk stopped inside it */
		skb_abort_seq_read(&st);
		crc = softrdma_icrc_sum_end(&sum, block, 0, &ok);
	} else {
		softrdma_icrc_sum_add(&sum, block, s + len);
		/* the rest of the first piece, then the others */
		while (n && pos + n < end) {
			softrdma_icrc_sum_add(&sum, p, n);
			pos += n;
			n = softrdma_icrc_piece(skb, pos, end, &frag, &frag_off,
						&p);
		}
		crc = softrdma_icrc_sum_end(&sum, p, n, &ok);
	}
	if (unlikely(!ok))
		return softrdma_icrc_skb_plain(skb, ib_off, ib_len);
	return crc;
}

/* the bytes of an IP header that hold every field A17.8.2 masks */
#define SOFTRDMA_ICRC_IP_MASKED	12
static_assert(offsetofend(struct iphdr, check) <= SOFTRDMA_ICRC_IP_MASKED);
static_assert(offsetofend(struct ipv6hdr, hop_limit) <=
	      SOFTRDMA_ICRC_IP_MASKED);

/*
 * What the reckoning in place overwrites in front of the IP header, the
 * LRH stand-in and up to 15 bytes to the 16-byte boundary before it, is
 * saved and put back as one block of this many bytes from that boundary
 * on; it reaches no further than the BTH's end.
 */
#define SOFTRDMA_ICRC_FRONT	32
static_assert(SOFTRDMA_ICRC_ALIGN - 1 + SOFTRDMA_ICRC_LRH_BYTES <=
	      SOFTRDMA_ICRC_FRONT);
static_assert(SOFTRDMA_ICRC_FRONT - SOFTRDMA_ICRC_LRH_BYTES <=
	      sizeof(struct iphdr) + sizeof(struct udphdr) +
	      sizeof(struct softrdma_bth));

/* where the reckoning in place starts: the boundary before the LRH's */
static u8 *softrdma_icrc_front(const struct sk_buff *skb)
{
	return PTR_ALIGN_DOWN(skb_network_header(skb) - SOFTRDMA_ICRC_LRH_BYTES,
			      SOFTRDMA_ICRC_ALIGN);
}

/**
 * softrdma_icrc_in_place_ok() - may a packet be reckoned where it lies
 * @skb: the packet, its headers as softrdma_icrc_compute() takes them
 * @ib_off: where its BTH is, from skb->data
 * @ib_len: bytes from the BTH to the end of the pad
 *
 * It may when it lies in the linear part from its IP header to the end of
 * its pad, the linear part reaches back to the 16-byte boundary before
 * the LRH stand-in's place in front of the IP header, and nobody else can
 * see the bytes for the while: the skb is neither shared nor a clone or
 * cloned.
 */
VISIBLE_IF_KUNIT bool softrdma_icrc_in_place_ok(const struct sk_buff *skb,
						int ib_off,
						unsigned int ib_len)
{
	return !skb_shared(skb) && !skb_cloned(skb) &&
	       softrdma_icrc_front(skb) >= skb->head &&
	       ib_off + ib_len <= skb_headlen(skb);
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_icrc_in_place_ok);

/*
 * A packet that softrdma_icrc_in_place_ok() allows is reckoned where it
 * lies, in one piece: one fold, with no copy of headers or payload.  The
 * fields A17.8.2 masks are set to ones; the LRH stand-in goes in front of
 * the IP header (over the link header of a received packet, into the
 * headroom of one being sent), in its zero-register form (see above the
 * block), behind zeros from the 16-byte boundary before it, where
 * crc32-pclmul folds from.  Every byte is put back after.
 *
 * Return: false, nothing changed, if @skb may not be reckoned in place or
 * the crypto API failed; else true and the CRC register in @crc.
 */
static bool softrdma_icrc_linear_state(struct sk_buff *skb, int ib_off,
				       unsigned int ib_len, u32 *crc)
{
	u8 *iph = skb_network_header(skb), *start, *bthb;
	u8 ip_saved[SOFTRDMA_ICRC_IP_MASKED];
	u8 front[SOFTRDMA_ICRC_FRONT];
	struct softrdma_icrc_sum sum;
	struct udphdr *udph;
	__sum16 udp_check;
	u8 bth_byte;
	bool ok;

	if (!softrdma_icrc_in_place_ok(skb, ib_off, ib_len))
		return false;

	start = softrdma_icrc_front(skb);
	udph = udp_hdr(skb);
	bthb = (u8 *)(udph + 1) + SOFTRDMA_BTH_ICRC_MASKED_BYTE;
	memcpy(front, start, sizeof(front));
	memcpy(ip_saved, iph, sizeof(ip_saved));
	udp_check = udph->check;
	bth_byte = *bthb;

	memset(start, 0, iph - SOFTRDMA_ICRC_LRH_BYTES / 2 - start);
	memset(iph - SOFTRDMA_ICRC_LRH_BYTES / 2, 0xff,
	       SOFTRDMA_ICRC_LRH_BYTES / 2);
	softrdma_icrc_mask_ip(iph);
	udph->check = CSUM_MANGLED_0;
	*bthb = 0xff;

	softrdma_icrc_sum_begin(&sum);
	*crc = softrdma_icrc_sum_end(&sum, start,
				     skb->data + ib_off + ib_len - start, &ok);

	/* the front block holds the IP header's first bytes as they were */
	memcpy(iph, ip_saved, sizeof(ip_saved));
	memcpy(start, front, sizeof(front));
	udph->check = udp_check;
	*bthb = bth_byte;
	return ok;
}

/**
 * softrdma_icrc_compute() - ICRC of a RoCEv2 packet in an skb
 * @skb: the packet; its network header is the IPv4 or IPv6 header and its
 *	transport header the UDP header, both in the linear part; skb->data
 *	is at or before the BTH.  The IB packet may lie in page fragments or
 *	a frag list.
 * @ib_len: bytes from the BTH to the end of the pad, ICRC excluded
 *
 * Walks the skb in place: no copy of the payload, no allocation.  A
 * packet that softrdma_icrc_in_place_ok() allows is reckoned as it lies,
 * its masked fields set to ones and the LRH stand-in written in front of
 * the IP header for the while, every byte put back after.  The caller
 * guarantees the layout (the transmit path, which built it);
 * softrdma_icrc_check() is the one to use on received packets.
 *
 * Return: the ICRC the packet should carry, in CPU order.
 */
u32 softrdma_icrc_compute(struct sk_buff *skb, unsigned int ib_len)
{
	int ib_off = softrdma_icrc_ib_offset(skb);
	u32 crc;

	if (WARN_ON_ONCE(!softrdma_icrc_skb_ip_ok(skb) || ib_off < 0 ||
			 ib_len < sizeof(struct softrdma_bth) ||
			 ib_off + ib_len > skb->len))
		return 0;
	if (softrdma_icrc_linear_state(skb, ib_off, ib_len, &crc))
		return ~crc;
	return ~softrdma_icrc_skb_state(skb, ib_off, ib_len);
}

/*
 * The ICRC field at @off: where it lies in the linear part or, as in a
 * received packet whose payload the NIC put in pages, wholly inside the
 * last page fragment; else copied to @buf.  NULL where the host cannot
 * read it (a frag of device memory, 6.12).
 */
static const void *softrdma_icrc_field(const struct sk_buff *skb,
				       unsigned int off, void *buf)
{
	const struct skb_shared_info *shinfo = skb_shinfo(skb);
	const skb_frag_t *last;
	unsigned int last_off;

	if (off + ROCE_ICRC_SIZE <= skb_headlen(skb))
		return skb->data + off;
	if (!IS_ENABLED(CONFIG_HIGHMEM) && shinfo->nr_frags &&
	    !skb_has_frag_list(skb)) {
		/* without a frag list the last fragment ends the skb */
		last = &shinfo->frags[shinfo->nr_frags - 1];
		last_off = skb->len - skb_frag_size(last);
		if (off >= last_off && off + ROCE_ICRC_SIZE <= skb->len) {
			const u8 *va = skb_frag_address(last);

			return va ? va + (off - last_off) : NULL;
		}
	}
	return skb_header_pointer(skb, off, ROCE_ICRC_SIZE, buf);
}

/**
 * softrdma_icrc_check() - does a received RoCEv2 skb carry a good ICRC
 * @skb: as for softrdma_icrc_compute(); the IB packet's length is taken
 *	from the UDP header.  Reckoned in place as there when
 *	softrdma_icrc_in_place_ok() allows: as received by a NIC that
 *	builds the packet linear, nothing else holding it.  Its frags must
 *	be readable (skb_frags_readable(): the receive path drops others
 *	first); an ICRC field the host cannot read makes the packet bad.
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
enum softrdma_icrc_verdict softrdma_icrc_check(struct sk_buff *skb)
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

	stored = softrdma_icrc_field(skb, ib_off + ib_len, &stored_buf);
	if (!stored)
		return SOFTRDMA_ICRC_BAD;
	want = softrdma_icrc_get(stored);
	if (!softrdma_icrc_linear_state(skb, ib_off, ib_len, &crc))
		crc = softrdma_icrc_skb_state(skb, ib_off, ib_len);
	if (~crc == want)
		return SOFTRDMA_ICRC_OK;

	bth = skb_header_pointer(skb, ib_off, sizeof(*bth), &bth_buf);
	if (!bth || softrdma_bth_opcode(bth) != SOFTRDMA_OPCODE_RC_FLUSH)
		return SOFTRDMA_ICRC_BAD;
	crc = softrdma_icrc_skb_crc(skb, ib_off, ib_len, crc);
	return ~crc == want ? SOFTRDMA_ICRC_RXE_FLUSH : SOFTRDMA_ICRC_BAD;
}
