/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The RoCEv2 Invariant CRC (IBA vol 1 annex A17.8).
 *
 * The ICRC is the Ethernet CRC-32 (reflected polynomial 0xedb88320, preset
 * and final complement) over: eight bytes of ones in place of the absent
 * LRH, the IPv4 or IPv6 header, the UDP header and the IB packet from the
 * BTH to the end of the pad, with every field that may change on the way
 * (A17.8.2) read as all ones: IPv4 TOS, TTL and header checksum; IPv6
 * traffic class, flow label and hop limit; the UDP checksum; BTH byte 4
 * (FECN, BECN and Resv6a, IBA 1.2's Resv8a).
 *
 * Byte order: like the Ethernet FCS, the CRC value goes on the wire least
 * significant byte first.  The functions below return the value in CPU
 * order; softrdma_icrc_put()/softrdma_icrc_get() convert to and from the
 * four wire bytes.  Checked against stock rxe traffic (rxe-rc.pcap).
 */
#ifndef SOFTRDMA_ICRC_H
#define SOFTRDMA_ICRC_H

#include <linux/skbuff.h>
#include <linux/types.h>

#include "compat.h"
#include "roce_hdr.h"

int softrdma_icrc_init(void);
void softrdma_icrc_exit(void);
#if SOFTRDMA_ICRC_USE_SHASH && IS_ENABLED(CONFIG_KUNIT)
struct crypto_shash;
u32 softrdma_icrc_shash_crc32(struct crypto_shash *tfm, u32 crc,
			      const void *p, size_t len);
struct crypto_shash *softrdma_icrc_swap_tfm(struct crypto_shash *tfm);
#endif
#if IS_ENABLED(CONFIG_KUNIT)
bool softrdma_icrc_in_place_ok(const struct sk_buff *skb, int ib_off,
			       unsigned int ib_len);
#endif
u32 softrdma_icrc_compute_buf(const void *pkt, unsigned int len);
bool softrdma_icrc_check_buf(const void *pkt, unsigned int len);
u32 softrdma_icrc_compute(struct sk_buff *skb, unsigned int ib_len);

/* what softrdma_icrc_check() found */
enum softrdma_icrc_verdict {
	SOFTRDMA_ICRC_BAD,
	SOFTRDMA_ICRC_OK,
	SOFTRDMA_ICRC_RXE_FLUSH,	/* a FLUSH with stock rxe's ICRC */
};

enum softrdma_icrc_verdict softrdma_icrc_check(struct sk_buff *skb);

/* store @icrc into the ICRC field at @p */
static inline void softrdma_icrc_put(void *p, u32 icrc)
{
	put_unaligned_le32(icrc, p);
}

/* the ICRC stored in the field at @p */
static inline u32 softrdma_icrc_get(const void *p)
{
	return get_unaligned_le32(p);
}

#endif /* SOFTRDMA_ICRC_H */
