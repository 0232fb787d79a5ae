/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Packet Sequence Number arithmetic.  PSNs are 24-bit and wrap (IBA 9.2);
 * IBA 9.7.1 divides the PSN space seen from any point into two halves: the
 * 2^23 PSNs that follow it are "ahead" (new requests, or later responses),
 * the 2^23 that precede it are "behind" (duplicates, or stale).  Every
 * comparison between two PSNs must go through these helpers.
 */
#ifndef SOFTRDMA_PSN_H
#define SOFTRDMA_PSN_H

#include <linux/bitops.h>
#include <linux/bits.h>
#include <linux/types.h>

#define PSN_BITS	24
#define PSN_MASK	GENMASK(PSN_BITS - 1, 0)
#define PSN_HALF	BIT(PSN_BITS - 1)	/* 2^23: how far "ahead" reaches */

/* @psn advanced by @n, modulo 2^24 */
static inline u32 psn_add(u32 psn, u32 n)
{
	return (psn + n) & PSN_MASK;
}

/* @psn moved back by @n, modulo 2^24 */
static inline u32 psn_sub(u32 psn, u32 n)
{
	return (psn - n) & PSN_MASK;
}

/*
 * The signed distance from @b to @a: positive when @a is ahead of @b, in
 * [-2^23, 2^23 - 1].  A PSN exactly 2^23 away counts as behind.
 */
static inline s32 psn_diff(u32 a, u32 b)
{
	return sign_extend32((a - b) & PSN_MASK, PSN_BITS - 1);
}

/* @a comes strictly before @b */
static inline bool psn_before(u32 a, u32 b)
{
	return psn_diff(a, b) < 0;
}

/* @a comes strictly after @b */
static inline bool psn_after(u32 a, u32 b)
{
	return psn_diff(a, b) > 0;
}

/*
 * @psn is one of the @len PSNs starting at @start: start, start + 1, ...
 * start + len - 1, modulo 2^24.  @len of 0 is an empty window.
 */
static inline bool psn_in_window(u32 psn, u32 start, u32 len)
{
	return ((psn - start) & PSN_MASK) < len;
}

#endif /* SOFTRDMA_PSN_H */
