/* SPDX-License-Identifier: GPL-2.0 */
/*
 * labwire: what the lab's hostile peers (roce_inject, iw_peer) share:
 * the seeded generator every one of their choices comes from, reflected
 * CRC32 tables for their wire checksums (RoCEv2's ICRC, MPA's CRC32c),
 * and big-endian header fields.  Built into those two programs
 * (tools/lab/lab compiles it with them).
 */
#ifndef LABWIRE_H
#define LABWIRE_H

#include <stddef.h>
#include <stdint.h>

/* Start the generator from @state, which must not be 0. */
void rng_set(uint64_t state);

/* The generator's next 64 bits (xorshift64). */
uint64_t rnd64(void);

/* A number below @n (0 if @n is 0). */
uint32_t rnd(uint32_t n);

/* @n random bytes at @p. */
void rnd_bytes(uint8_t *p, size_t n);

/* The table of the reflected CRC32 of polynomial @poly (bit-reversed). */
void crc_table_init(uint32_t table[256], uint32_t poly);

/* CRC @c carried on over @n bytes at @p, with @table; no inversions. */
uint32_t crc_table_update(const uint32_t table[256], uint32_t c,
			  const uint8_t *p, size_t n);

void put_be16(uint8_t *p, uint16_t v);
void put_be32(uint8_t *p, uint32_t v);
uint32_t get_be32(const uint8_t *p);

#endif /* LABWIRE_H */
