// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for queue_rxe_abi.c: ring geometry, index handling under
 * hostile user indices, WQE snapshot and validation, CQE layout.
 *
 * Rings here are kernel rings: a user ring differs only in where its
 * buffer comes from and in which side the kernel calls, and every index
 * the tests write into the header is exactly what a user could write.
 */
#include <kunit/test.h>
#include <linux/cache.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "compat.h"
#include "mmap.h"
#include "queue_rxe_abi.h"

#define SLOT_BYTES	1024	/* holds any send WQE under the test limits */

/* ------------------------------------------------------------- geometry */

struct size_case {
	const char *name;
	u32 requested;
	u32 elem_size;
	int err;
	u32 num_slots;
	u32 slot_size;		/* 0: one cache line */
};

static const struct size_case size_cases[] = {
	{ "zero_one_slot", 0, 48, 0, 1, 0 },
	{ "one", 1, 48, 0, 2, 0 },
	{ "two", 2, 48, 0, 4, 0 },
	{ "three", 3, 48, 0, 4, 0 },
	{ "seven", 7, 48, 0, 8, 0 },
	{ "eight", 8, 48, 0, 16, 0 },
	{ "fifteen", 15, 48, 0, 16, 0 },
	{ "sixteen", 16, 48, 0, 32, 0 },
	{ "1000", 1000, 48, 0, 1024, 0 },
	{ "max", SOFTRDMA_RING_MAX_ELEM, 48, 0, SOFTRDMA_RING_MAX_ELEM + 1, 0 },
	{ "max_plus_one", SOFTRDMA_RING_MAX_ELEM + 1, 48, -EINVAL },
	{ "all_ones", 0xffffffff, 48, -EINVAL },
	{ "elem_1", 4, 1, 0, 8, 0 },
	{ "elem_send_wqe_208", 4, 208, 0, 8, 256 },
	{ "elem_send_wqe_720", 4, 720, 0, 8, 1024 },
	{ "elem_4096", 4, 4096, 0, 8, 4096 },
	{ "elem_4097", 4, 4097, -EINVAL },
	{ "elem_zero", 4, 0, -EINVAL },
	{ "elem_all_ones", 4, 0xffffffff, -EINVAL },
};

static void size_case_desc(const struct size_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(size, size_cases, size_case_desc);

static void softrdma_queue_rxe_abi_sizing(struct kunit *test)
{
	const struct size_case *c = test->param_value;
	u32 slot_size = c->slot_size;
	struct softrdma_ring *ring;
	u32 num = c->requested;

	if (!slot_size)
		slot_size = roundup_pow_of_two(max_t(u32, c->elem_size,
						     cache_line_size()));

	ring = softrdma_ring_create(NULL, &num, c->elem_size,
				    SOFTRDMA_RING_USER_PRODUCES, NULL);
	if (c->err) {
		KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(ring), c->err);
		KUNIT_EXPECT_EQ(test, num, c->requested);
		return;
	}
	KUNIT_ASSERT_FALSE(test, IS_ERR(ring));

	KUNIT_EXPECT_EQ(test, num, c->num_slots - 1);
	KUNIT_EXPECT_EQ(test, softrdma_ring_capacity(ring), c->num_slots - 1);
	KUNIT_EXPECT_EQ(test, softrdma_ring_elem_size(ring), slot_size);
	/* what librxe reads */
	KUNIT_EXPECT_EQ(test, ring->hdr->index_mask, c->num_slots - 1);
	KUNIT_EXPECT_EQ(test, 1U << ring->hdr->log2_elem_size, slot_size);
	KUNIT_EXPECT_EQ(test, ring->hdr->producer_index, 0U);
	KUNIT_EXPECT_EQ(test, ring->hdr->consumer_index, 0U);
	KUNIT_EXPECT_GE(test, ring->mem->size,
			sizeof(struct rxe_queue_buf) +
			(size_t)c->num_slots * slot_size);
	KUNIT_EXPECT_TRUE(test, softrdma_ring_empty(ring));
	KUNIT_EXPECT_EQ(test, softrdma_ring_full(ring), c->num_slots == 1);
	softrdma_ring_destroy(ring);
}

struct sq_size_case {
	const char *name;
	u32 max_sge, max_inline;
	int size;		/* or -EINVAL */
	u32 got_sge, got_inline;
};

static const struct sq_size_case sq_size_cases[] = {
	{ "nothing", 0, 0, 208, 0, 0 },
	{ "one_sge", 1, 0, 224, 1, 16 },
	{ "sges_win", 4, 16, 272, 4, 64 },
	{ "inline_wins", 1, 64, 272, 4, 64 },
	{ "inline_odd", 0, 17, 225, 1, 17 },
	{ "max_both", SOFTRDMA_MAX_SGE, SOFTRDMA_MAX_INLINE, 720,
	  SOFTRDMA_MAX_SGE, SOFTRDMA_MAX_INLINE },
	{ "max_inline", 0, SOFTRDMA_MAX_INLINE, 464, 16, SOFTRDMA_MAX_INLINE },
	{ "sge_over", SOFTRDMA_MAX_SGE + 1, 0, -EINVAL },
	{ "inline_over", 0, SOFTRDMA_MAX_INLINE + 1, -EINVAL },
	{ "sge_all_ones", 0xffffffff, 0, -EINVAL },
};

static void sq_size_case_desc(const struct sq_size_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sq_size, sq_size_cases, sq_size_case_desc);

static void softrdma_queue_rxe_abi_sq_slot_size(struct kunit *test)
{
	const struct sq_size_case *c = test->param_value;
	u32 max_inline = c->max_inline;
	u32 max_sge = c->max_sge;

	KUNIT_EXPECT_EQ(test, softrdma_rxe_sq_elem_size(&max_sge, &max_inline),
			c->size);
	if (c->size < 0)
		return;
	KUNIT_EXPECT_EQ(test, max_sge, c->got_sge);
	KUNIT_EXPECT_EQ(test, max_inline, c->got_inline);
	/* what the limits promise fits the slot */
	KUNIT_EXPECT_LE(test, sizeof(struct rxe_send_wqe) +
			max_sge * sizeof(struct rxe_sge), (size_t)c->size);
	KUNIT_EXPECT_LE(test, sizeof(struct rxe_send_wqe) + max_inline,
			(size_t)c->size);
}

static void softrdma_queue_rxe_abi_rq_slot_size(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, softrdma_rxe_rq_elem_size(0), 40);
	KUNIT_EXPECT_EQ(test, softrdma_rxe_rq_elem_size(1), 56);
	KUNIT_EXPECT_EQ(test, softrdma_rxe_rq_elem_size(SOFTRDMA_MAX_SGE),
			40 + SOFTRDMA_MAX_SGE * 16);
	KUNIT_EXPECT_EQ(test, softrdma_rxe_rq_elem_size(SOFTRDMA_MAX_SGE + 1),
			-EINVAL);
	/* librxe refuses CQ slots under 48 bytes */
	KUNIT_EXPECT_GE(test, SOFTRDMA_RXE_CQ_ELEM_SIZE, (size_t)48);
}

/* -------------------------------------------------------- ring indices */

static struct softrdma_ring *make_ring(struct kunit *test, u32 num)
{
	struct softrdma_ring *ring;

	ring = softrdma_ring_create(NULL, &num, sizeof(u32),
				    SOFTRDMA_RING_USER_PRODUCES, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ring));
	return ring;
}

static void expect_slot_inside(struct kunit *test,
			       const struct softrdma_ring *ring, void *slot)
{
	u8 *data = ring->hdr->data;
	size_t off = (u8 *)slot - data;
	size_t elem = softrdma_ring_elem_size(ring);

	KUNIT_EXPECT_PTR_NE(test, slot, NULL);
	KUNIT_EXPECT_GE(test, (uintptr_t)slot, (uintptr_t)data);
	KUNIT_EXPECT_LT(test, off, (softrdma_ring_capacity(ring) + 1) * elem);
	KUNIT_EXPECT_EQ(test, off % elem, (size_t)0);
}

struct hostile_case {
	const char *name;
	u32 consumed;		/* slots the kernel consumed first */
	u32 user_prod;		/* then the user writes this */
	u32 count;		/* entries the kernel then sees */
};

/* 8-slot rings (capacity 7) */
static const struct hostile_case hostile_prod_cases[] = {
	{ "sane_3", 0, 3, 3 },
	{ "full_7", 0, 7, 7 },
	{ "beyond_mask_8", 0, 8, 0 },
	{ "beyond_mask_11", 0, 11, 3 },
	{ "all_ones", 0, 0xffffffff, 7 },
	{ "all_ones_after_5", 5, 0xffffffff, 2 },
	{ "high_bits", 0, 0x12345673, 3 },
	{ "behind_consumer", 5, 2, 5 },
	{ "one_behind_consumer", 5, 4, 7 },
	{ "equal_consumer", 5, 5, 0 },
	{ "equal_consumer_unmasked", 5, 0x80000005, 0 },
};

static void hostile_case_desc(const struct hostile_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(hostile_prod, hostile_prod_cases, hostile_case_desc);

/* Kernel as consumer (SQ/RQ/SRQ): whatever producer_index says. */
static void softrdma_queue_rxe_abi_hostile_producer(struct kunit *test)
{
	const struct hostile_case *c = test->param_value;
	struct softrdma_ring *ring = make_ring(test, 7);
	u32 i, n;

	/* the user posts (release, as librxe does) c->consumed entries */
	smp_store_release(&ring->hdr->producer_index, c->consumed);
	for (i = 0; i < c->consumed; i++)
		softrdma_ring_advance_consumer(ring);
	KUNIT_EXPECT_EQ(test, ring->hdr->consumer_index, c->consumed);

	/* then publishes a hostile index the same way */
	smp_store_release(&ring->hdr->producer_index, c->user_prod);
	n = softrdma_ring_count(ring);
	KUNIT_EXPECT_EQ(test, n, c->count);
	KUNIT_EXPECT_LE(test, n, softrdma_ring_capacity(ring));
	KUNIT_EXPECT_EQ(test, softrdma_ring_empty(ring), !c->count);

	/* looking ahead, however far, stays inside the ring */
	KUNIT_EXPECT_PTR_EQ(test, softrdma_ring_consumer_slot_at(ring, 0),
			    softrdma_ring_consumer_slot(ring));
	expect_slot_inside(test, ring,
			   softrdma_ring_consumer_slot_at(ring, n));
	expect_slot_inside(test, ring,
			   softrdma_ring_consumer_slot_at(ring, 0xffffffff));

	/* draining what it sees never leaves the ring */
	for (i = 0; i < n; i++) {
		expect_slot_inside(test, ring,
				   softrdma_ring_consumer_slot(ring));
		softrdma_ring_advance_consumer(ring);
		KUNIT_EXPECT_LE(test, ring->hdr->consumer_index,
				softrdma_ring_capacity(ring));
	}
	KUNIT_EXPECT_TRUE(test, softrdma_ring_empty(ring));
	softrdma_ring_destroy(ring);
}

/*
 * RESET drops what is posted, unread: whatever producer_index says, the
 * consumer index becomes its masked value, published from the private
 * copy, at most the capacity goes, the slots keep what was in them, and
 * the next entry the user posts is the next one the kernel sees.
 */
static void softrdma_queue_rxe_abi_drop_posted(struct kunit *test)
{
	const struct hostile_case *c = test->param_value;
	struct softrdma_ring *ring = make_ring(test, 7);
	u32 i, n, at;

	for (i = 0; i <= ring->index_mask; i++)
		*(u32 *)softrdma_ring_slot(ring, i) = 100 + i;
	/* the user posts (release, as librxe does) c->consumed entries */
	smp_store_release(&ring->hdr->producer_index, c->consumed);
	for (i = 0; i < c->consumed; i++)
		softrdma_ring_advance_consumer(ring);

	/* then publishes a hostile index the same way */
	smp_store_release(&ring->hdr->producer_index, c->user_prod);
	n = softrdma_ring_drop_posted(ring);
	KUNIT_EXPECT_EQ(test, n, c->count);
	KUNIT_EXPECT_LE(test, n, softrdma_ring_capacity(ring));
	at = (c->consumed + c->count) & ring->index_mask;
	KUNIT_EXPECT_EQ(test, ring->hdr->consumer_index, at);
	KUNIT_EXPECT_TRUE(test, softrdma_ring_empty(ring));
	for (i = 0; i <= ring->index_mask; i++)
		KUNIT_EXPECT_EQ(test, *(u32 *)softrdma_ring_slot(ring, i),
				100 + i);

	/* the user scribbles the consumer index: moot; then posts one */
	WRITE_ONCE(ring->hdr->consumer_index, 0xdeadbeef);
	*(u32 *)softrdma_ring_slot(ring, c->user_prod) = 7777;
	/* librxe's release: the slot before the index */
	smp_store_release(&ring->hdr->producer_index, c->user_prod + 1);
	KUNIT_EXPECT_EQ(test, softrdma_ring_count(ring), 1U);
	KUNIT_EXPECT_EQ(test, *(u32 *)softrdma_ring_consumer_slot(ring), 7777U);
	KUNIT_EXPECT_EQ(test, softrdma_ring_drop_posted(ring), 1U);
	KUNIT_EXPECT_EQ(test, ring->hdr->consumer_index,
			(at + 1) & ring->index_mask);
	/* nothing posted: nothing dropped, the index stays */
	KUNIT_EXPECT_EQ(test, softrdma_ring_drop_posted(ring), 0U);
	KUNIT_EXPECT_EQ(test, ring->hdr->consumer_index,
			(at + 1) & ring->index_mask);
	softrdma_ring_destroy(ring);
}

struct hostile_cons_case {
	const char *name;
	u32 produced;		/* CQEs the kernel wrote first */
	u32 user_cons;		/* then the user writes this */
	bool full;
};

static const struct hostile_cons_case hostile_cons_cases[] = {
	{ "sane_not_full", 3, 0, false },
	{ "sane_full", 7, 0, true },
	{ "beyond_mask_full", 7, 8, true },
	{ "beyond_mask_free", 7, 9, false },
	{ "all_ones", 6, 0xffffffff, true },
	{ "all_ones_empty_ring", 0, 0xffffffff, false },
	{ "ahead_of_producer", 2, 6, false },
	{ "one_ahead_of_producer", 2, 3, true },
	{ "high_bits", 7, 0xabcd0000, true },
};

static void hostile_cons_case_desc(const struct hostile_cons_case *c,
				   char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(hostile_cons, hostile_cons_cases, hostile_cons_case_desc);

/* Kernel as producer (CQ): whatever consumer_index says. */
static void softrdma_queue_rxe_abi_hostile_consumer(struct kunit *test)
{
	const struct hostile_cons_case *c = test->param_value;
	struct softrdma_ring *ring = make_ring(test, 7);
	u32 i;

	for (i = 0; i < c->produced; i++) {
		*(u32 *)softrdma_ring_producer_slot(ring) = i;
		softrdma_ring_advance_producer(ring);
	}
	KUNIT_EXPECT_EQ(test, ring->hdr->producer_index, c->produced);

	WRITE_ONCE(ring->hdr->consumer_index, c->user_cons);
	KUNIT_EXPECT_EQ(test, softrdma_ring_full(ring), c->full);

	/* a producer that ignores "full" still only writes ring slots */
	for (i = 0; i < 100; i++) {
		expect_slot_inside(test, ring,
				   softrdma_ring_producer_slot(ring));
		softrdma_ring_advance_producer(ring);
		KUNIT_EXPECT_LE(test, ring->hdr->producer_index,
				softrdma_ring_capacity(ring));
	}
	softrdma_ring_destroy(ring);
}

/* The kernel's own index is private: rewriting it in the header is moot. */
static void softrdma_queue_rxe_abi_private_index(struct kunit *test)
{
	struct softrdma_ring *ring = make_ring(test, 7);
	void *slot2;
	u32 i;

	for (i = 0; i < 4; i++) {
		*(u32 *)softrdma_ring_producer_slot(ring) = 100 + i;
		softrdma_ring_advance_producer(ring);
	}
	softrdma_ring_advance_consumer(ring);
	softrdma_ring_advance_consumer(ring);
	slot2 = softrdma_ring_consumer_slot(ring);
	KUNIT_EXPECT_EQ(test, *(u32 *)slot2, 102U);

	WRITE_ONCE(ring->hdr->consumer_index, 0xdeadbeef);
	WRITE_ONCE(ring->hdr->log2_elem_size, 31);
	WRITE_ONCE(ring->hdr->index_mask, 0xffffffff);
	KUNIT_EXPECT_PTR_EQ(test, softrdma_ring_consumer_slot(ring), slot2);
	KUNIT_EXPECT_EQ(test, softrdma_ring_count(ring), 2U);
	softrdma_ring_advance_consumer(ring);
	/* published from the private copy, not from what the user wrote */
	KUNIT_EXPECT_EQ(test, ring->hdr->consumer_index, 3U);
	KUNIT_EXPECT_EQ(test, *(u32 *)softrdma_ring_consumer_slot(ring), 103U);
	softrdma_ring_destroy(ring);
}

/* A kernel ring with both sides: FIFO order, empty/full, wrap-around. */
static void softrdma_queue_rxe_abi_fifo_wrap(struct kunit *test)
{
	struct softrdma_ring *ring = make_ring(test, 5);	/* 8 slots */
	u32 next_in = 0, next_out = 0;
	spinlock_t prod_lock;	/* stands in for the QP's post lock */
	spinlock_t cons_lock;	/* stands in for the requester's lock */
	u32 round, i;

	spin_lock_init(&prod_lock);
	spin_lock_init(&cons_lock);
	softrdma_ring_set_locks(ring, &prod_lock, &cons_lock);
	KUNIT_ASSERT_EQ(test, softrdma_ring_capacity(ring), 7U);

	for (round = 0; round < 10; round++) {
		u32 burst = (round * 3) % 8;

		spin_lock(&prod_lock);
		for (i = 0; i < burst && !softrdma_ring_full(ring); i++) {
			*(u32 *)softrdma_ring_producer_slot(ring) = next_in++;
			softrdma_ring_advance_producer(ring);
		}
		spin_unlock(&prod_lock);

		spin_lock(&cons_lock);
		KUNIT_EXPECT_EQ(test, softrdma_ring_count(ring),
				next_in - next_out);
		while (!softrdma_ring_empty(ring) && next_out + 2 < next_in) {
			KUNIT_EXPECT_EQ(test,
					*(u32 *)softrdma_ring_consumer_slot(ring),
					next_out);
			next_out++;
			softrdma_ring_advance_consumer(ring);
		}
		spin_unlock(&cons_lock);
	}

	/* fill to capacity exactly */
	spin_lock(&prod_lock);
	while (!softrdma_ring_full(ring)) {
		*(u32 *)softrdma_ring_producer_slot(ring) = next_in++;
		softrdma_ring_advance_producer(ring);
	}
	spin_unlock(&prod_lock);
	spin_lock(&cons_lock);
	KUNIT_EXPECT_EQ(test, softrdma_ring_count(ring), 7U);
	while (!softrdma_ring_empty(ring)) {
		KUNIT_EXPECT_EQ(test, *(u32 *)softrdma_ring_consumer_slot(ring),
				next_out);
		next_out++;
		softrdma_ring_advance_consumer(ring);
	}
	spin_unlock(&cons_lock);
	KUNIT_EXPECT_EQ(test, next_out, next_in);
	KUNIT_EXPECT_GT(test, next_in, 16U);	/* wrapped at least twice */
	softrdma_ring_destroy(ring);
}

/* A one-slot ring (0 requested) is both empty and full: holds nothing. */
static void softrdma_queue_rxe_abi_zero_capacity(struct kunit *test)
{
	struct softrdma_ring *ring = make_ring(test, 0);

	KUNIT_EXPECT_TRUE(test, softrdma_ring_empty(ring));
	KUNIT_EXPECT_TRUE(test, softrdma_ring_full(ring));
	WRITE_ONCE(ring->hdr->producer_index, 0xffffffff);
	KUNIT_EXPECT_EQ(test, softrdma_ring_count(ring), 0U);
	expect_slot_inside(test, ring, softrdma_ring_consumer_slot(ring));
	softrdma_ring_destroy(ring);
}

static void softrdma_queue_rxe_abi_resize(struct kunit *test)
{
	struct softrdma_ring *ring = make_ring(test, 7);
	struct softrdma_ring *spare;
	u32 num, i;

	/* wrap first: consume 6, then queue 5 at slots 6, 7, 0, 1, 2 */
	for (i = 0; i < 6; i++) {
		softrdma_ring_advance_producer(ring);
		softrdma_ring_advance_consumer(ring);
	}
	for (i = 0; i < 5; i++) {
		*(u32 *)softrdma_ring_producer_slot(ring) = 500 + i;
		softrdma_ring_advance_producer(ring);
	}

	/* too small for 5 queued entries: refused, ring unchanged */
	num = 3;
	spare = softrdma_ring_create(NULL, &num, sizeof(u32),
				     SOFTRDMA_RING_USER_PRODUCES, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(spare));
	KUNIT_EXPECT_EQ(test, softrdma_ring_resize(ring, spare), -EINVAL);
	KUNIT_EXPECT_EQ(test, softrdma_ring_count(ring), 5U);
	KUNIT_EXPECT_EQ(test, *(u32 *)softrdma_ring_consumer_slot(ring), 500U);
	softrdma_ring_destroy(spare);

	/* mismatched slot size: refused */
	num = 31;
	spare = softrdma_ring_create(NULL, &num, 1000,
				     SOFTRDMA_RING_USER_PRODUCES, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(spare));
	KUNIT_EXPECT_EQ(test, softrdma_ring_resize(ring, spare), -EINVAL);
	softrdma_ring_destroy(spare);

	num = 31;
	spare = softrdma_ring_create(NULL, &num, sizeof(u32),
				     SOFTRDMA_RING_USER_PRODUCES, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(spare));
	KUNIT_EXPECT_EQ(test, softrdma_ring_resize(ring, spare), 0);
	softrdma_ring_destroy(spare);

	KUNIT_EXPECT_EQ(test, softrdma_ring_capacity(ring), 31U);
	KUNIT_EXPECT_EQ(test, ring->hdr->index_mask, 31U);
	KUNIT_EXPECT_EQ(test, ring->hdr->producer_index, 5U);
	KUNIT_EXPECT_EQ(test, ring->hdr->consumer_index, 0U);
	KUNIT_EXPECT_EQ(test, softrdma_ring_count(ring), 5U);
	for (i = 0; i < 5; i++) {
		KUNIT_EXPECT_EQ(test, *(u32 *)softrdma_ring_consumer_slot(ring),
				500 + i);
		softrdma_ring_advance_consumer(ring);
	}
	KUNIT_EXPECT_TRUE(test, softrdma_ring_empty(ring));
	/* the producer continues where the copy ended */
	*(u32 *)softrdma_ring_producer_slot(ring) = 42;
	softrdma_ring_advance_producer(ring);
	KUNIT_EXPECT_EQ(test, *(u32 *)softrdma_ring_consumer_slot(ring), 42U);
	softrdma_ring_destroy(ring);
}

static void softrdma_queue_rxe_abi_kernel_buffer(struct kunit *test)
{
	struct softrdma_mmap_entry *mem;

	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(softrdma_mmap_alloc(NULL, 0)),
			-EINVAL);
	mem = softrdma_mmap_alloc(NULL, 3 * PAGE_SIZE + 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mem));
	KUNIT_EXPECT_FALSE(test, mem->published);
	KUNIT_EXPECT_EQ(test, mem->size, 3 * PAGE_SIZE + 1);
	KUNIT_EXPECT_EQ(test, softrdma_mmap_len(mem), 4 * PAGE_SIZE);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(mem->buf, 0, mem->size));
	softrdma_mmap_release(mem);
	softrdma_mmap_release(NULL);
}

/* ------------------------------------------------------------ send WQEs */

#define LIM_SGE		4
#define LIM_INLINE	64

enum qp_kind { RC, UC, UD, BOTH };

struct send_case {
	const char *name;
	enum qp_kind qp;
	u32 opcode;
	u32 send_flags;
	u32 num_sge;
	u32 dma_length;
	u32 sge_len[LIM_SGE];
	u64 remote_addr;
	u32 ah_num;
	u32 remote_qpn;
	int err;
	u32 length;		/* snapshot length when accepted */
	u32 out_num_sge;
};

#define T_SEND	IB_WR_SEND
#define T_WRITE	IB_WR_RDMA_WRITE
#define T_READ	IB_WR_RDMA_READ
#define T_CMP	IB_WR_ATOMIC_CMP_AND_SWP
#define T_FADD	IB_WR_ATOMIC_FETCH_AND_ADD
#define T_AWRITE	SOFTRDMA_WR_ATOMIC_WRITE
#define T_INL	IB_SEND_INLINE
/* a well-formed ATOMIC WRITE: taken where the core carries it */
#define AW_OK	(SOFTRDMA_HAVE_ATOMIC_WRITE ? 0 : -EINVAL)
#define AW_LEN	(SOFTRDMA_HAVE_ATOMIC_WRITE ? 8 : 0)

static const struct send_case send_cases[] = {
	/* accepted */
	{ "rc_send_no_sge", RC, T_SEND, 0, 0, 0, {}, 0, 0, 0, 0, 0, 0 },
	{ "rc_bind_mw", RC, IB_WR_BIND_MW, 0, 0, 0, {}, 0, 0, 0, 0, 0, 0 },
	{ "uc_bind_mw", UC, IB_WR_BIND_MW, 0, 0, 0, {}, 0, 0, 0, 0, 0, 0 },
	{ "rc_send_two_sges", RC, T_SEND, IB_SEND_SIGNALED, 2, 999, { 100, 28 },
	  0, 0, 0, 0, 128, 2 },
	{ "rc_send_max_sge", RC, T_SEND, 0, LIM_SGE, 0, { 1, 2, 3, 4 },
	  0, 0, 0, 0, 10, LIM_SGE },
	{ "rc_send_2g", RC, T_SEND, 0, 2, 0, { 0x40000000, 0x40000000 },
	  0, 0, 0, 0, 0x80000000, 2 },
	{ "rc_send_imm", RC, IB_WR_SEND_WITH_IMM, 0, 1, 0, { 8 },
	  0, 0, 0, 0, 8, 1 },
	{ "rc_send_inv", RC, IB_WR_SEND_WITH_INV, 0, 1, 0, { 8 },
	  0, 0, 0, 0, 8, 1 },
	{ "rc_write", RC, T_WRITE, 0, 1, 0, { 4096 }, 0x1001, 0, 0, 0, 4096, 1 },
	{ "rc_write_imm", RC, IB_WR_RDMA_WRITE_WITH_IMM, 0, 0, 0, {},
	  0, 0, 0, 0, 0, 0 },
	{ "rc_read", RC, T_READ, IB_SEND_FENCE, 3, 0, { 1, 1, 1 }, 0x3,
	  0, 0, 0, 3, 3 },
	{ "rc_read_zero_length", RC, T_READ, 0, 0, 0, {}, 0, 0, 0, 0, 0, 0 },
	{ "rc_cmp_swap", RC, T_CMP, 0, 1, 8, { 8 }, 0x1000, 0, 0, 0, 8, 1 },
	{ "rc_fetch_add_long_sge", RC, T_FADD, 0, 1, 0, { 64 }, 0x1008,
	  0, 0, 0, 8, 1 },
	{ "rc_local_inv", RC, IB_WR_LOCAL_INV, 0, 0, 0, {}, 0, 0, 0, 0, 0, 0 },
	{ "rc_local_inv_stray_sges", RC, IB_WR_LOCAL_INV, 0, 0xffffffff, 0,
	  {}, 0, 0, 0, 0, 0, 0 },
	{ "rc_inline_send", RC, T_SEND, T_INL, 2, 64, {}, 0, 0, 0, 0, 64, 0 },
	{ "rc_inline_write_no_flag_quirk", RC, T_WRITE, 0, 0, 5, {}, 0,
	  0, 0, 0, 5, 0 },
	{ "rc_inline_list_quirk_zero_len", RC, T_SEND, 0, 0, 0, {}, 0,
	  0, 0, 0, 0, 0 },
	{ "rc_atomic_write", RC, T_AWRITE, 0, 0, 8, {}, 0x2000, 0, 0, AW_OK,
	  AW_LEN, 0 },
	{ "rc_atomic_write_inline_flag", RC, T_AWRITE, T_INL, 0, 8, {}, 0x2000,
	  0, 0, AW_OK, AW_LEN, 0 },
	{ "uc_atomic_write", UC, T_AWRITE, 0, 0, 8, {}, 0x2000, 0, 0,
	  -EINVAL },
	{ "rc_all_send_flags", RC, T_SEND, 0x1f, 0, 1, {}, 0, 0, 0, 0, 1, 0 },
	{ "uc_write", UC, T_WRITE, 0, 1, 0, { 7 }, 0, 0, 0, 0, 7, 1 },
	{ "ud_send", UD, T_SEND, 0, 1, 0, { 256 }, 0, 3, 0xffffff, 0, 256, 1 },
	{ "ud_send_imm_inline", UD, IB_WR_SEND_WITH_IMM, T_INL, 0, 16, {}, 0,
	  1, 5, 0, 16, 0 },
	/* refused: opcodes */
	{ "rc_opcode_0xff", RC, 0xff, 0, 0, 0, {}, 0, 0, 0, -EINVAL },
	{ "rc_opcode_all_ones", RC, 0xffffffff, 0, 0, 0, {}, 0, 0, 0,
	  -EINVAL },
	{ "rc_opcode_12_masked_cmp", RC, 12, 0, 1, 0, { 8 }, 0, 0, 0,
	  -EINVAL },
	{ "rc_opcode_13_masked_fadd", RC, 13, 0, 1, 0, { 8 }, 0, 0, 0,
	  -EINVAL },
	{ "rc_opcode_14_flush", RC, 14, 0, 0, 0, {}, 0, 0, 0, -EINVAL },
	{ "rc_opcode_16", RC, 16, 0, 0, 0, {}, 0, 0, 0, -EINVAL },
	{ "rc_tso", RC, IB_WR_LSO, 0, 0, 0, {}, 0, 0, 0, -EINVAL },
	{ "rc_read_with_inv", RC, IB_WR_RDMA_READ_WITH_INV, 0, 0, 0, {},
	  0, 0, 0, -EINVAL },
	{ "rc_reg_mr", RC, IB_WR_REG_MR, 0, 0, 0, {}, 0, 0, 0, -EINVAL },
	{ "ud_write", UD, T_WRITE, 0, 1, 0, { 8 }, 0, 1, 1, -EINVAL },
	{ "ud_write_imm", UD, IB_WR_RDMA_WRITE_WITH_IMM, 0, 0, 0, {}, 0, 1,
	  1, -EINVAL },
	{ "ud_read", UD, T_READ, 0, 1, 0, { 8 }, 0, 1, 1, -EINVAL },
	{ "ud_cmp_swap", UD, T_CMP, 0, 1, 0, { 8 }, 0, 1, 1, -EINVAL },
	{ "ud_send_inv", UD, IB_WR_SEND_WITH_INV, 0, 0, 0, {}, 0, 1, 1,
	  -EINVAL },
	{ "ud_local_inv", UD, IB_WR_LOCAL_INV, 0, 0, 0, {}, 0, 1, 1, -EINVAL },
	{ "ud_bind_mw", UD, IB_WR_BIND_MW, 0, 0, 0, {}, 0, 1, 1, -EINVAL },
	{ "rc_bind_mw_sge", RC, IB_WR_BIND_MW, 0, 1, 0, { 8 }, 0, 0, 0,
	  -EINVAL },
	{ "ud_atomic_write", UD, T_AWRITE, 0, 0, 8, {}, 0, 1, 1, -EINVAL },
	{ "uc_read", UC, T_READ, 0, 1, 0, { 8 }, 0, 0, 0, -EINVAL },
	{ "uc_fetch_add", UC, T_FADD, 0, 1, 0, { 8 }, 0, 0, 0, -EINVAL },
	{ "rc_and_ud_limits", BOTH, T_SEND, 0, 0, 0, {}, 0, 1, 1, -EINVAL },
	/* refused: SGE counts and lengths */
	{ "num_sge_all_ones", RC, T_SEND, 0, 0xffffffff, 0, { 1 }, 0, 0, 0,
	  -EINVAL },
	{ "num_sge_max_plus_one", RC, T_SEND, 0, LIM_SGE + 1, 0,
	  { 1, 1, 1, 1 }, 0, 0, 0, -EINVAL },
	{ "num_sge_0x80000001", RC, T_WRITE, 0, 0x80000001, 0, { 1 }, 0, 0, 0,
	  -EINVAL },
	{ "sge_sum_wraps_u32", RC, T_SEND, 0, 2, 0, { 0xffffffff, 1 }, 0, 0, 0,
	  -EINVAL },
	{ "sge_sum_wraps_to_small", RC, T_WRITE, 0, 3, 16,
	  { 0x80000000, 0x80000000, 16 }, 0, 0, 0, -EINVAL },
	{ "sge_sum_over_2g", RC, T_SEND, 0, 2, 0, { 0x80000000, 1 }, 0, 0, 0,
	  -EINVAL },
	{ "recv_side_max_sge_read", RC, T_READ, 0, LIM_SGE + 1, 0, {}, 0, 0, 0,
	  -EINVAL },
	/* refused: inline */
	{ "inline_over_max", RC, T_SEND, T_INL, 0, LIM_INLINE + 1, {}, 0, 0, 0,
	  -EINVAL },
	{ "inline_all_ones", RC, T_WRITE, T_INL, 0, 0xffffffff, {}, 0, 0, 0,
	  -EINVAL },
	{ "inline_quirk_over_max", RC, T_SEND, 0, 0, LIM_INLINE + 1, {}, 0, 0,
	  0, -EINVAL },
	{ "inline_read", RC, T_READ, T_INL, 0, 8, {}, 0, 0, 0, -EINVAL },
	{ "inline_cmp_swap", RC, T_CMP, T_INL, 1, 8, { 8 }, 0, 0, 0, -EINVAL },
	{ "inline_local_inv", RC, IB_WR_LOCAL_INV, T_INL, 0, 0, {}, 0, 0, 0,
	  -EINVAL },
	/* refused: atomics */
	{ "atomic_misaligned", RC, T_CMP, 0, 1, 0, { 8 }, 0x1004, 0, 0,
	  -EINVAL },
	{ "atomic_misaligned_by_1", RC, T_FADD, 0, 1, 0, { 8 }, 0x1001, 0, 0,
	  -EINVAL },
	{ "atomic_two_sges", RC, T_CMP, 0, 2, 0, { 8, 8 }, 0x1000, 0, 0,
	  -EINVAL },
	{ "atomic_no_sge", RC, T_FADD, 0, 0, 8, {}, 0x1000, 0, 0, -EINVAL },
	{ "atomic_short_sge", RC, T_CMP, 0, 1, 0, { 4 }, 0x1000, 0, 0,
	  -EINVAL },
	{ "atomic_write_with_sge", RC, T_AWRITE, 0, 1, 8, { 8 }, 0x1000, 0, 0,
	  -EINVAL },
	{ "atomic_write_post_send_form", RC, T_AWRITE, 0, 0, 0, {}, 0, 0, 0,
	  -EINVAL },
	{ "atomic_write_long", RC, T_AWRITE, 0, 0, 16, {}, 0x1000, 0, 0,
	  -EINVAL },
	{ "atomic_write_misaligned", RC, T_AWRITE, 0, 0, 8, {}, 0x1002, 0, 0,
	  -EINVAL },
	/* refused: flags and UD addressing */
	{ "unknown_send_flag", RC, T_SEND, BIT(5), 0, 0, {}, 0, 0, 0, -EINVAL },
	{ "send_flags_all_ones", RC, T_SEND, 0xffffffff, 0, 0, {}, 0, 0, 0,
	  -EINVAL },
	{ "ud_ah_num_zero_av_fallback", UD, T_SEND, 0, 0, 0, {}, 0, 0, 1,
	  -EINVAL },
	{ "ud_qpn_over_24_bits", UD, T_SEND, 0, 0, 0, {}, 0, 1, 0x1000000,
	  -EINVAL },
};

static void send_case_desc(const struct send_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(send, send_cases, send_case_desc);

static struct softrdma_wqe_limits test_limits(enum qp_kind qp)
{
	struct softrdma_wqe_limits lim = {
		.max_sge = LIM_SGE,
		.max_inline = LIM_INLINE,
		.rc = qp == RC || qp == BOTH,
		.ud = qp == UD || qp == BOTH,
	};

	return lim;
}

static void build_send_slot(struct rxe_send_wqe *w, const struct send_case *c)
{
	u32 i;

	w->wr.wr_id = 0x1122334455667788ULL;
	w->wr.reserved = 0xdeadbeef;	/* the old wr.num_sge: ignored */
	w->wr.opcode = c->opcode;
	w->wr.send_flags = c->send_flags;
	w->wr.ex.imm_data = cpu_to_be32(0xa1b2c3d4);
	if (c->qp == UD || c->qp == BOTH) {
		w->wr.wr.ud.remote_qpn = c->remote_qpn;
		w->wr.wr.ud.remote_qkey = 0x80010000;
		w->wr.wr.ud.ah_num = c->ah_num;
	} else if (c->opcode == T_CMP || c->opcode == T_FADD) {
		w->wr.wr.atomic.remote_addr = c->remote_addr;
		w->wr.wr.atomic.compare_add = 0x0102030405060708ULL;
		w->wr.wr.atomic.swap = 0x1112131415161718ULL;
		w->wr.wr.atomic.rkey = 0xcafe;
	} else {
		w->wr.wr.rdma.remote_addr = c->remote_addr;
		w->wr.wr.rdma.rkey = 0xbeef;
	}
	w->dma.length = c->dma_length;
	w->dma.resid = c->dma_length;
	w->dma.num_sge = c->num_sge;
	for (i = 0; i < LIM_SGE; i++) {
		w->dma.sge[i].addr = 0x10000 * (i + 1);
		w->dma.sge[i].length = c->sge_len[i];
		w->dma.sge[i].lkey = 0x100 + i;
	}
}

static void softrdma_queue_rxe_abi_send_wqe_validation(struct kunit *test)
{
	const struct send_case *c = test->param_value;
	struct softrdma_wqe_limits lim = test_limits(c->qp);
	struct softrdma_send_wqe *out;
	struct rxe_send_wqe *w;
	u32 i;

	w = kunit_kzalloc(test, SLOT_BYTES, GFP_KERNEL);
	out = kunit_kzalloc(test, sizeof(*out), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_NOT_NULL(test, out);
	build_send_slot(w, c);

	KUNIT_ASSERT_EQ(test, softrdma_rxe_fetch_send_wqe(w, &lim, out),
			c->err);
	if (c->err)
		return;

	KUNIT_EXPECT_EQ(test, out->wr_id, 0x1122334455667788ULL);
	KUNIT_EXPECT_EQ(test, out->opcode, c->opcode);
	KUNIT_EXPECT_EQ(test, out->length, c->length);
	KUNIT_EXPECT_EQ(test, out->num_sge, c->out_num_sge);
	/* inline iff no SGEs and a payload, flagged either way */
	if (!c->out_num_sge && c->length)
		KUNIT_EXPECT_TRUE(test, out->send_flags & IB_SEND_INLINE);
	KUNIT_EXPECT_EQ(test, out->send_flags & ~IB_SEND_INLINE,
			c->send_flags & ~IB_SEND_INLINE);
	for (i = 0; i < out->num_sge; i++) {
		KUNIT_EXPECT_EQ(test, out->sge[i].addr, 0x10000ULL * (i + 1));
		KUNIT_EXPECT_EQ(test, out->sge[i].lkey, 0x100 + i);
	}
	if (out->send_flags & IB_SEND_INLINE)
		return;
	for (i = out->num_sge; i < SOFTRDMA_MAX_SGE; i++)
		KUNIT_EXPECT_EQ(test, out->sge[i].lkey, 0U);
}

/* Exact snapshot contents for each layout the union can take. */
static void softrdma_queue_rxe_abi_send_wqe_snapshot(struct kunit *test)
{
	struct softrdma_wqe_limits lim = test_limits(RC);
	struct softrdma_send_wqe *out;
	struct rxe_send_wqe *w;

	w = kunit_kzalloc(test, SLOT_BYTES, GFP_KERNEL);
	out = kunit_kzalloc(test, sizeof(*out), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_NOT_NULL(test, out);

	/* RDMA WRITE with immediate */
	w->wr.wr_id = 7;
	w->wr.opcode = IB_WR_RDMA_WRITE_WITH_IMM;
	w->wr.send_flags = IB_SEND_SIGNALED | IB_SEND_SOLICITED;
	w->wr.ex.imm_data = cpu_to_be32(0x01020304);
	w->wr.wr.rdma.remote_addr = 0xffff800012345678ULL;
	w->wr.wr.rdma.rkey = 0x4321;
	w->dma.num_sge = 2;
	w->dma.sge[0] = (struct rxe_sge){ .addr = 0xa000, .length = 10,
					  .lkey = 0x11 };
	w->dma.sge[1] = (struct rxe_sge){ .addr = 0xb000, .length = 20,
					  .lkey = 0x22 };
	KUNIT_ASSERT_EQ(test, softrdma_rxe_fetch_send_wqe(w, &lim, out), 0);
	KUNIT_EXPECT_EQ(test, out->wr_id, 7ULL);
	KUNIT_EXPECT_EQ(test, out->opcode, (u32)IB_WR_RDMA_WRITE_WITH_IMM);
	KUNIT_EXPECT_EQ(test, out->send_flags,
			(u32)(IB_SEND_SIGNALED | IB_SEND_SOLICITED));
	KUNIT_EXPECT_EQ(test, be32_to_cpu(out->ex.imm_data), 0x01020304U);
	KUNIT_EXPECT_EQ(test, out->wr.rdma.remote_addr, 0xffff800012345678ULL);
	KUNIT_EXPECT_EQ(test, out->wr.rdma.rkey, 0x4321U);
	KUNIT_EXPECT_EQ(test, out->length, 30U);
	KUNIT_EXPECT_EQ(test, out->num_sge, 2U);
	KUNIT_EXPECT_EQ(test, out->sge[0].addr, 0xa000ULL);
	KUNIT_EXPECT_EQ(test, out->sge[0].length, 10U);
	KUNIT_EXPECT_EQ(test, out->sge[0].lkey, 0x11U);
	KUNIT_EXPECT_EQ(test, out->sge[1].addr, 0xb000ULL);
	KUNIT_EXPECT_EQ(test, out->sge[1].length, 20U);
	KUNIT_EXPECT_EQ(test, out->sge[1].lkey, 0x22U);

	/* compare and swap */
	memset(w, 0, SLOT_BYTES);
	w->wr.wr_id = 8;
	w->wr.opcode = IB_WR_ATOMIC_CMP_AND_SWP;
	w->wr.ex.imm_data = cpu_to_be32(0xffffffff);	/* not carried */
	w->wr.wr.atomic.remote_addr = 0x7000;
	w->wr.wr.atomic.compare_add = 1;
	w->wr.wr.atomic.swap = 2;
	w->wr.wr.atomic.rkey = 0x99;
	w->dma.num_sge = 1;
	w->dma.sge[0] = (struct rxe_sge){ .addr = 0xc000, .length = 8,
					  .lkey = 0x33 };
	KUNIT_ASSERT_EQ(test, softrdma_rxe_fetch_send_wqe(w, &lim, out), 0);
	KUNIT_EXPECT_EQ(test, out->ex.invalidate_rkey, 0U);
	KUNIT_EXPECT_EQ(test, out->wr.atomic.remote_addr, 0x7000ULL);
	KUNIT_EXPECT_EQ(test, out->wr.atomic.compare_add, 1ULL);
	KUNIT_EXPECT_EQ(test, out->wr.atomic.swap, 2ULL);
	KUNIT_EXPECT_EQ(test, out->wr.atomic.rkey, 0x99U);
	KUNIT_EXPECT_EQ(test, out->length, 8U);
	KUNIT_EXPECT_EQ(test, out->num_sge, 1U);
	KUNIT_EXPECT_EQ(test, out->sge[0].lkey, 0x33U);

	/* LOCAL_INV and SEND_WITH_INV carry the rkey in wr.ex */
	memset(w, 0, SLOT_BYTES);
	w->wr.opcode = IB_WR_LOCAL_INV;
	w->wr.ex.invalidate_rkey = 0x5566;
	KUNIT_ASSERT_EQ(test, softrdma_rxe_fetch_send_wqe(w, &lim, out), 0);
	KUNIT_EXPECT_EQ(test, out->ex.invalidate_rkey, 0x5566U);
	KUNIT_EXPECT_EQ(test, out->length, 0U);
	KUNIT_EXPECT_EQ(test, out->num_sge, 0U);
	w->wr.opcode = IB_WR_SEND_WITH_INV;
	KUNIT_ASSERT_EQ(test, softrdma_rxe_fetch_send_wqe(w, &lim, out), 0);
	KUNIT_EXPECT_EQ(test, out->ex.invalidate_rkey, 0x5566U);

	/* inline by ibv_wr_set_inline_data(): no INLINE flag */
	memset(w, 0, SLOT_BYTES);
	w->wr.opcode = IB_WR_SEND;
	w->dma.length = 5;
	memcpy(w->dma.inline_data, "hello", 5);
	KUNIT_ASSERT_EQ(test, softrdma_rxe_fetch_send_wqe(w, &lim, out), 0);
	KUNIT_EXPECT_EQ(test, out->length, 5U);
	KUNIT_EXPECT_EQ(test, out->num_sge, 0U);
	KUNIT_EXPECT_TRUE(test, out->send_flags & IB_SEND_INLINE);
	KUNIT_EXPECT_EQ(test, memcmp(out->inline_data, "hello", 5), 0);
	KUNIT_EXPECT_EQ(test, out->inline_data[5], 0);

	/* ATOMIC WRITE by ibv_wr_atomic_write(), where the core has it */
	memset(w, 0, SLOT_BYTES);
	w->wr.opcode = SOFTRDMA_WR_ATOMIC_WRITE;
	w->wr.wr.rdma.remote_addr = 0x8008;
	w->wr.wr.rdma.rkey = 0x77;
	w->dma.length = 8;
	w->dma.resid = 8;
	memcpy(w->dma.inline_data, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
	KUNIT_ASSERT_EQ(test, softrdma_rxe_fetch_send_wqe(w, &lim, out), AW_OK);
	if (!SOFTRDMA_HAVE_ATOMIC_WRITE)
		goto ud_send;
	KUNIT_EXPECT_EQ(test, out->wr.rdma.remote_addr, 0x8008ULL);
	KUNIT_EXPECT_EQ(test, out->wr.rdma.rkey, 0x77U);
	KUNIT_EXPECT_EQ(test, out->length, 8U);
	KUNIT_EXPECT_EQ(test, out->num_sge, 0U);
	KUNIT_EXPECT_EQ(test, memcmp(out->inline_data,
				     "\x01\x02\x03\x04\x05\x06\x07\x08", 8), 0);

ud_send:
	/* UD send */
	lim = test_limits(UD);
	memset(w, 0, SLOT_BYTES);
	w->wr.opcode = IB_WR_SEND;
	w->wr.wr.ud.remote_qpn = 0x123456;
	w->wr.wr.ud.remote_qkey = 0x11111111;
	w->wr.wr.ud.ah_num = 42;
	w->wr.wr.ud.pkey_index = 3;
	w->dma.num_sge = 1;
	w->dma.sge[0] = (struct rxe_sge){ .addr = 1, .length = 2, .lkey = 3 };
	KUNIT_ASSERT_EQ(test, softrdma_rxe_fetch_send_wqe(w, &lim, out), 0);
	KUNIT_EXPECT_EQ(test, out->wr.ud.remote_qpn, 0x123456U);
	KUNIT_EXPECT_EQ(test, out->wr.ud.remote_qkey, 0x11111111U);
	KUNIT_EXPECT_EQ(test, out->wr.ud.ah_num, 42U);
	KUNIT_EXPECT_EQ(test, out->length, 2U);
}

/* The snapshot is a copy: rewriting the slot after the fetch changes nothing. */
static void softrdma_queue_rxe_abi_send_wqe_toctou(struct kunit *test)
{
	struct softrdma_wqe_limits lim = test_limits(RC);
	struct softrdma_send_wqe *out, *saved;
	struct rxe_send_wqe *w;
	int pass;

	w = kunit_kzalloc(test, SLOT_BYTES, GFP_KERNEL);
	out = kunit_kzalloc(test, sizeof(*out), GFP_KERNEL);
	saved = kunit_kzalloc(test, sizeof(*saved), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_ASSERT_NOT_NULL(test, saved);

	for (pass = 0; pass < 2; pass++) {
		memset(w, 0, SLOT_BYTES);
		w->wr.wr_id = 1;
		w->wr.opcode = IB_WR_RDMA_WRITE;
		w->wr.wr.rdma.remote_addr = 0x1000;
		w->wr.wr.rdma.rkey = 5;
		if (pass == 0) {
			w->dma.num_sge = 2;
			w->dma.sge[0].length = 16;
			w->dma.sge[1].length = 32;
		} else {
			w->wr.send_flags = IB_SEND_INLINE;
			w->dma.length = 32;
			memset(w->dma.inline_data, 0x5a, 32);
		}
		KUNIT_ASSERT_EQ(test,
				softrdma_rxe_fetch_send_wqe(w, &lim, out), 0);
		memcpy(saved, out, sizeof(*out));

		/* the user rewrites everything, slot and all SGEs */
		memset(w, 0xff, SLOT_BYTES);
		KUNIT_EXPECT_EQ(test, memcmp(saved, out, sizeof(*out)), 0);
		KUNIT_EXPECT_EQ(test, out->wr.rdma.rkey, 5U);
		KUNIT_EXPECT_EQ(test, out->length, 48U - pass * 16);
	}
}

/*
 * IBA 1.5 FLUSH as librxe lays it in the slot (rxe_send_wr.wr.flush, and
 * the range's length in dma.length and dma.resid, wr.flush.length zero):
 * taken on RC where the core carries it, with a placement type and a
 * selectivity level the FETH can carry, and neither SGE nor inline data.
 */
struct flush_wqe_case {
	const char *name;
	enum qp_kind qp;
	u32 send_flags;
	u32 num_sge;
	u8 type;
	u8 level;
	int err;
};

#define FLUSH_OK	(SOFTRDMA_HAVE_FLUSH ? 0 : -EINVAL)

static const struct flush_wqe_case flush_wqe_cases[] = {
	{ "global_range", RC, IB_SEND_SIGNALED, 0, 1, 0, FLUSH_OK },
	{ "global_whole_mr", RC, 0, 0, 1, 1, FLUSH_OK },
	/* the peer decides whether it grants persistence */
	{ "persistent", RC, 0, 0, 2, 0, FLUSH_OK },
	{ "both_types", RC, 0, 0, 3, 1, FLUSH_OK },
	{ "no_type", RC, 0, 0, 0, 0, -EINVAL },
	{ "reserved_type", RC, 0, 0, 4, 0, -EINVAL },
	{ "reserved_level", RC, 0, 0, 1, 2, -EINVAL },
	{ "with_sge", RC, 0, 1, 1, 0, -EINVAL },
	{ "inline_flag", RC, IB_SEND_INLINE, 0, 1, 0, -EINVAL },
	{ "uc", UC, 0, 0, 1, 0, -EINVAL },
	{ "ud", UD, 0, 0, 1, 0, -EINVAL },
};

static void flush_wqe_case_desc(const struct flush_wqe_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(flush_wqe, flush_wqe_cases, flush_wqe_case_desc);

static void softrdma_queue_rxe_abi_flush_wqe(struct kunit *test)
{
	const struct flush_wqe_case *c = test->param_value;
	struct softrdma_wqe_limits lim = test_limits(c->qp);
	struct softrdma_send_wqe *out;
	struct rxe_send_wqe *w;
	u8 *u;

	w = kunit_kzalloc(test, SLOT_BYTES, GFP_KERNEL);
	out = kunit_kzalloc(test, sizeof(*out), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_NOT_NULL(test, out);
	w->wr.wr_id = 0x42;
	w->wr.opcode = SOFTRDMA_WR_FLUSH;
	w->wr.send_flags = c->send_flags;
	w->dma.num_sge = c->num_sge;
	w->dma.sge[0].length = 8;
	w->dma.length = 0x10000;
	w->dma.resid = 0x10000;
	w->iova = 0x123456789abcdef8ULL;
	/* the wr.flush layout of 6.2's uapi, byte by byte */
	u = (u8 *)&w->wr.wr;
	put_unaligned_le64(0x123456789abcdef8ULL, u);	/* remote_addr */
	put_unaligned_le32(0, u + 8);			/* length: unused */
	put_unaligned_le32(0x4321, u + 12);		/* rkey */
	u[16] = c->type;
	u[17] = c->level;

	KUNIT_ASSERT_EQ(test, softrdma_rxe_fetch_send_wqe(w, &lim, out),
			c->err);
	KUNIT_EXPECT_EQ(test, out->wr_id, 0x42ULL);
	if (c->err)
		return;
	KUNIT_EXPECT_EQ(test, out->opcode, (u32)SOFTRDMA_WR_FLUSH);
	KUNIT_EXPECT_EQ(test, out->wr.flush.remote_addr,
			0x123456789abcdef8ULL);
	KUNIT_EXPECT_EQ(test, out->wr.flush.length, 0x10000U);
	KUNIT_EXPECT_EQ(test, out->wr.flush.rkey, 0x4321U);
	KUNIT_EXPECT_EQ(test, out->wr.flush.type, c->type);
	KUNIT_EXPECT_EQ(test, out->wr.flush.level, c->level);
	/* no payload travels with a FLUSH */
	KUNIT_EXPECT_EQ(test, out->length, 0U);
	KUNIT_EXPECT_EQ(test, out->num_sge, 0U);
}

/* ------------------------------------------------------------ recv WQEs */

struct recv_case {
	const char *name;
	u32 num_sge;
	u32 sge_len[LIM_SGE];
	int err;
	u32 length;
};

static const struct recv_case recv_cases[] = {
	{ "no_sge", 0, {}, 0, 0 },
	{ "one", 1, { 4096 }, 0, 4096 },
	{ "max", LIM_SGE, { 1, 2, 3, 4 }, 0, 10 },
	{ "near_u32_max", 2, { 0xfffffffe, 1 }, 0, 0xffffffff },
	{ "max_plus_one", LIM_SGE + 1, { 1, 1, 1, 1 }, -EINVAL },
	{ "all_ones", 0xffffffff, {}, -EINVAL },
	{ "high_bit", 0x80000000, {}, -EINVAL },
	{ "sum_wraps", 2, { 0xffffffff, 1 }, -EINVAL },
	{ "sum_wraps_far", 4, { 0x80000000, 0x80000000, 0x80000000, 1 },
	  -EINVAL },
};

static void recv_case_desc(const struct recv_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(recv, recv_cases, recv_case_desc);

static void softrdma_queue_rxe_abi_recv_wqe_validation(struct kunit *test)
{
	const struct recv_case *c = test->param_value;
	struct softrdma_wqe_limits lim = test_limits(RC);
	struct softrdma_recv_wqe *out, *saved;
	struct rxe_recv_wqe *w;
	u32 i;

	w = kunit_kzalloc(test, SLOT_BYTES, GFP_KERNEL);
	out = kunit_kzalloc(test, sizeof(*out), GFP_KERNEL);
	saved = kunit_kzalloc(test, sizeof(*saved), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_ASSERT_NOT_NULL(test, saved);

	w->wr_id = 0xabcdef;
	w->reserved = 3;	/* the old num_sge: ignored */
	w->dma.length = 1;	/* untrusted: recomputed */
	w->dma.num_sge = c->num_sge;
	for (i = 0; i < LIM_SGE; i++) {
		w->dma.sge[i].addr = 0x1000 * (i + 1);
		w->dma.sge[i].length = c->sge_len[i];
		w->dma.sge[i].lkey = 0x40 + i;
	}

	KUNIT_ASSERT_EQ(test, softrdma_rxe_fetch_recv_wqe(w, &lim, out),
			c->err);
	if (c->err)
		return;
	KUNIT_EXPECT_EQ(test, out->wr_id, 0xabcdefULL);
	KUNIT_EXPECT_EQ(test, out->num_sge, c->num_sge);
	KUNIT_EXPECT_EQ(test, out->length, c->length);
	for (i = 0; i < c->num_sge; i++) {
		KUNIT_EXPECT_EQ(test, out->sge[i].addr, 0x1000ULL * (i + 1));
		KUNIT_EXPECT_EQ(test, out->sge[i].length, c->sge_len[i]);
		KUNIT_EXPECT_EQ(test, out->sge[i].lkey, 0x40 + i);
	}
	for (i = c->num_sge; i < SOFTRDMA_MAX_SGE; i++)
		KUNIT_EXPECT_EQ(test, out->sge[i].length, 0U);

	/* TOCTOU: the slot changes after the fetch, the snapshot does not */
	memcpy(saved, out, sizeof(*out));
	memset(w, 0xff, SLOT_BYTES);
	KUNIT_EXPECT_EQ(test, memcmp(saved, out, sizeof(*out)), 0);
}

/* ----------------------------------------------------------------- CQEs */

/* abi-brief 2.6: librxe memcpy()s these 48 bytes into struct ibv_wc */
static void softrdma_queue_rxe_abi_cqe_layout(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sizeof(struct ib_uverbs_wc), (size_t)48);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_uverbs_wc, wr_id), (size_t)0);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_uverbs_wc, status), (size_t)8);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_uverbs_wc, opcode), (size_t)12);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_uverbs_wc, vendor_err),
			(size_t)16);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_uverbs_wc, byte_len),
			(size_t)20);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_uverbs_wc, ex), (size_t)24);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_uverbs_wc, qp_num), (size_t)28);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_uverbs_wc, src_qp), (size_t)32);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_uverbs_wc, wc_flags),
			(size_t)36);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_uverbs_wc, pkey_index),
			(size_t)40);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_uverbs_wc, slid), (size_t)42);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_uverbs_wc, sl), (size_t)44);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_uverbs_wc, dlid_path_bits),
			(size_t)45);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_uverbs_wc, port_num),
			(size_t)46);
	KUNIT_EXPECT_EQ(test, offsetof(struct ib_uverbs_wc, reserved),
			(size_t)47);
}

/* What a user-space reader on this CPU sees at @p (native endian). */
static u32 at32(const u8 *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static u16 at16(const u8 *p)
{
	u16 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static u64 at64(const u8 *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void softrdma_queue_rxe_abi_cqe_bytes(struct kunit *test)
{
	struct ib_wc wc = {};
	struct ib_qp *qp;
	u8 *slot;

	qp = kunit_kzalloc(test, sizeof(*qp), GFP_KERNEL);
	slot = kunit_kzalloc(test, 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	KUNIT_ASSERT_NOT_NULL(test, slot);
	memset(slot, 0xa5, 64);

	qp->qp_num = 0x00abcdef;
	wc.wr_id = 0x0807060504030201ULL;
	wc.status = IB_WC_REM_ACCESS_ERR;
	wc.opcode = IB_WC_RECV_RDMA_WITH_IMM;
	wc.vendor_err = 0x11223344;
	wc.byte_len = 0x55667788;
	wc.qp = qp;
	wc.ex.imm_data = cpu_to_be32(0x99aabbcc);
	wc.src_qp = 0x00123456;
	wc.slid = 0xbeef;
	wc.wc_flags = IB_WC_WITH_IMM | IB_WC_GRH;
	wc.pkey_index = 0x1234;
	wc.sl = 5;
	wc.dlid_path_bits = 6;
	wc.port_num = 1;

	softrdma_rxe_write_cqe(slot, &wc);

	KUNIT_EXPECT_EQ(test, at64(slot), 0x0807060504030201ULL);
	KUNIT_EXPECT_EQ(test, at32(slot + 8), 10U);  /* REM_ACCESS_ERR */
	KUNIT_EXPECT_EQ(test, at32(slot + 12), 129U);
	KUNIT_EXPECT_EQ(test, at32(slot + 16), 0x11223344U);
	KUNIT_EXPECT_EQ(test, at32(slot + 20), 0x55667788U);
	/* imm_data is big endian: wire byte order in memory */
	KUNIT_EXPECT_EQ(test, slot[24], 0x99);
	KUNIT_EXPECT_EQ(test, slot[27], 0xcc);
	KUNIT_EXPECT_EQ(test, at32(slot + 28), 0x00abcdefU);
	KUNIT_EXPECT_EQ(test, at32(slot + 32), 0x00123456U);
	KUNIT_EXPECT_EQ(test, at32(slot + 36), 3U);
	KUNIT_EXPECT_EQ(test, at16(slot + 40), 0x1234U);
	KUNIT_EXPECT_EQ(test, at16(slot + 42), 0xbeefU);
	KUNIT_EXPECT_EQ(test, slot[44], 5);
	KUNIT_EXPECT_EQ(test, slot[45], 6);
	KUNIT_EXPECT_EQ(test, slot[46], 1);
	KUNIT_EXPECT_EQ(test, slot[47], 0);	/* reserved: written, zero */
	KUNIT_EXPECT_EQ(test, slot[48], 0xa5);	/* nothing past the CQE */
	KUNIT_EXPECT_EQ(test, slot[63], 0xa5);

	/* no QP (e.g. a flushed CQ): qp_num 0 */
	wc.qp = NULL;
	softrdma_rxe_write_cqe(slot, &wc);
	KUNIT_EXPECT_EQ(test, at32(slot + 28), 0U);
}

struct wc_xlate_case {
	const char *name;
	u32 opcode;
	int flags;
	u32 uopcode;
	u32 uflags;
};

static const struct wc_xlate_case wc_xlate_cases[] = {
	{ "send", IB_WC_SEND, 0, 0, 0 },
	{ "rdma_write", IB_WC_RDMA_WRITE, 0, 1, 0 },
	{ "rdma_read", IB_WC_RDMA_READ, 0, 2, 0 },
	{ "comp_swap", IB_WC_COMP_SWAP, 0, 3, 0 },
	{ "fetch_add", IB_WC_FETCH_ADD, 0, 4, 0 },
	{ "bind_mw", IB_WC_BIND_MW, 0, 5, 0 },
	{ "local_inv", IB_WC_LOCAL_INV, 0, 6, 0 },
	{ "atomic_write", SOFTRDMA_WC_ATOMIC_WRITE, 0, 9, 0 },
	{ "flush", SOFTRDMA_WC_FLUSH, 0, 8, 0 },
	{ "recv", IB_WC_RECV, 0, 128, 0 },
	{ "recv_imm", IB_WC_RECV, IB_WC_WITH_IMM, 128, 2 },
	{ "recv_grh", IB_WC_RECV, IB_WC_GRH, 128, 1 },
	{ "recv_inv_is_8", IB_WC_RECV, IB_WC_WITH_INVALIDATE, 128, 8 },
	{ "recv_csum_is_4", IB_WC_RECV, IB_WC_IP_CSUM_OK, 128, 4 },
	{ "recv_kernel_only_flags_dropped", IB_WC_RECV,
	  IB_WC_WITH_SMAC | IB_WC_WITH_VLAN | IB_WC_WITH_NETWORK_HDR_TYPE,
	  128, 0 },
	{ "recv_rdma_with_imm", IB_WC_RECV_RDMA_WITH_IMM, IB_WC_WITH_IMM,
	  129, 2 },
};

static void wc_xlate_case_desc(const struct wc_xlate_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(wc_xlate, wc_xlate_cases, wc_xlate_case_desc);

static void softrdma_queue_rxe_abi_cqe_translation(struct kunit *test)
{
	const struct wc_xlate_case *c = test->param_value;
	struct ib_uverbs_wc uwc;
	struct ib_wc wc = {};

	wc.opcode = c->opcode;
	wc.wc_flags = c->flags;
	wc.ex.invalidate_rkey = 0x1357;
	softrdma_rxe_write_cqe(&uwc, &wc);
	KUNIT_EXPECT_EQ(test, uwc.opcode, c->uopcode);
	KUNIT_EXPECT_EQ(test, uwc.wc_flags, c->uflags);
	KUNIT_EXPECT_EQ(test, uwc.ex.invalidate_rkey, 0x1357U);
	KUNIT_EXPECT_EQ(test, uwc.status, (u32)IB_WC_SUCCESS);
}

static struct kunit_case softrdma_queue_rxe_abi_cases[] = {
	KUNIT_CASE_PARAM(softrdma_queue_rxe_abi_sizing, size_gen_params),
	KUNIT_CASE_PARAM(softrdma_queue_rxe_abi_sq_slot_size,
			 sq_size_gen_params),
	KUNIT_CASE(softrdma_queue_rxe_abi_rq_slot_size),
	KUNIT_CASE_PARAM(softrdma_queue_rxe_abi_hostile_producer,
			 hostile_prod_gen_params),
	KUNIT_CASE_PARAM(softrdma_queue_rxe_abi_hostile_consumer,
			 hostile_cons_gen_params),
	KUNIT_CASE_PARAM(softrdma_queue_rxe_abi_drop_posted,
			 hostile_prod_gen_params),
	KUNIT_CASE(softrdma_queue_rxe_abi_private_index),
	KUNIT_CASE(softrdma_queue_rxe_abi_fifo_wrap),
	KUNIT_CASE(softrdma_queue_rxe_abi_zero_capacity),
	KUNIT_CASE(softrdma_queue_rxe_abi_resize),
	KUNIT_CASE(softrdma_queue_rxe_abi_kernel_buffer),
	KUNIT_CASE_PARAM(softrdma_queue_rxe_abi_send_wqe_validation,
			 send_gen_params),
	KUNIT_CASE(softrdma_queue_rxe_abi_send_wqe_snapshot),
	KUNIT_CASE_PARAM(softrdma_queue_rxe_abi_flush_wqe,
			 flush_wqe_gen_params),
	KUNIT_CASE(softrdma_queue_rxe_abi_send_wqe_toctou),
	KUNIT_CASE_PARAM(softrdma_queue_rxe_abi_recv_wqe_validation,
			 recv_gen_params),
	KUNIT_CASE(softrdma_queue_rxe_abi_cqe_layout),
	KUNIT_CASE(softrdma_queue_rxe_abi_cqe_bytes),
	KUNIT_CASE_PARAM(softrdma_queue_rxe_abi_cqe_translation,
			 wc_xlate_gen_params),
	{}
};

static struct kunit_suite softrdma_queue_rxe_abi_suite = {
	.name = "softrdma_queue_rxe_abi",
	.test_cases = softrdma_queue_rxe_abi_cases,
};

kunit_test_suite(softrdma_queue_rxe_abi_suite);
