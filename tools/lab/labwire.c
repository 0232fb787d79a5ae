// SPDX-License-Identifier: GPL-2.0
/* labwire: see labwire.h */
#include "labwire.h"

static uint64_t rng_state;

void rng_set(uint64_t state)
{
	rng_state = state;
}

uint64_t rnd64(void)
{
	uint64_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	rng_state = x;
	return x;
}

uint32_t rnd(uint32_t n)
{
	return n ? (uint32_t)(rnd64() % n) : 0;
}

void rnd_bytes(uint8_t *p, size_t n)
{
	while (n--)
		*p++ = (uint8_t)rnd64();
}

void crc_table_init(uint32_t table[256], uint32_t poly)
{
	uint32_t c;
	int i, k;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = c & 1 ? poly ^ (c >> 1) : c >> 1;
		table[i] = c;
	}
}

uint32_t crc_table_update(const uint32_t table[256], uint32_t c,
			  const uint8_t *p, size_t n)
{
	while (n--)
		c = table[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c;
}

void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}
