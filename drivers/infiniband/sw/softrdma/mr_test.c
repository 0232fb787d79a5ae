// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for mr.c: protection checks, keys and lookup, and the data
 * movement helpers, on MRs built over kernel pages instead of pinned user
 * memory.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/gfp.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <linux/xarray.h>

#include "compat.h"
#include "device.h"
#include "mr.h"
#include "param.h"

#define ALL_ACCESS	(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | \
			 IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_ATOMIC)

/*
 * The user MR every case gets: TEST_NPAGES pages, the first byte at
 * TEST_PAGE_OFFSET of the first page (as for a user buffer at TEST_IOVA),
 * the last one TEST_TAIL bytes before the end of the last page.
 */
#define TEST_NPAGES		3
#define TEST_PAGE_OFFSET	100
#define TEST_TAIL		50
#define TEST_IOVA		(0x7f0000000000ULL + TEST_PAGE_OFFSET)
#define TEST_LENGTH		(TEST_NPAGES * PAGE_SIZE - TEST_PAGE_OFFSET - \
				 TEST_TAIL)

struct mr_test_ctx {
	struct softrdma_dev *sdev;
	struct ib_pd pd;
	struct ib_pd other_pd;
	struct page *pages[TEST_NPAGES];
	struct softrdma_mr mr;
};

static int mr_test_init(struct kunit *test)
{
	struct mr_test_ctx *ctx;
	int i;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->sdev = kunit_kzalloc(test, sizeof(*ctx->sdev), GFP_KERNEL);
	if (!ctx->sdev)
		return -ENOMEM;
	xa_init_flags(&ctx->sdev->mr_xa, XA_FLAGS_ALLOC1);
	test->priv = ctx;

	for (i = 0; i < TEST_NPAGES; i++) {
		ctx->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!ctx->pages[i])
			return -ENOMEM;
	}

	ctx->mr.type = SOFTRDMA_MR_USER;
	ctx->mr.pd = &ctx->pd;
	ctx->mr.access = ALL_ACCESS;
	ctx->mr.iova = TEST_IOVA;
	ctx->mr.length = TEST_LENGTH;
	ctx->mr.pages = ctx->pages;
	ctx->mr.npages = TEST_NPAGES;
	ctx->mr.page_offset = TEST_PAGE_OFFSET;
	return 0;
}

/* Every page reference a test took must be gone, every MR removed. */
static void mr_test_exit(struct kunit *test)
{
	struct mr_test_ctx *ctx = test->priv;
	int i;

	if (!ctx)
		return;
	for (i = 0; i < TEST_NPAGES; i++) {
		if (!ctx->pages[i])
			continue;
		KUNIT_EXPECT_EQ(test, page_count(ctx->pages[i]), 1);
		__free_page(ctx->pages[i]);
	}
	KUNIT_EXPECT_TRUE(test, xa_empty(&ctx->sdev->mr_xa));
	xa_destroy(&ctx->sdev->mr_xa);
}

static void fill_pattern(u8 *buf, size_t len, u8 seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = seed + i * 7 + (i >> 8);
}

/* The byte of the test MR at @off from its iova, read from its page. */
static u8 mr_byte(struct mr_test_ctx *ctx, u64 off)
{
	u64 pos = off + TEST_PAGE_OFFSET;
	u8 *va = page_address(ctx->pages[pos >> PAGE_SHIFT]);

	return va[pos & ~PAGE_MASK];
}

/* ---- softrdma_mr_check ------------------------------------------------ */

/* The checked MR: [0x1000, 0x4000). */
#define CHECK_IOVA	0x1000ULL
#define CHECK_LENGTH	0x3000ULL
#define CHECK_END	(CHECK_IOVA + CHECK_LENGTH)

struct check_case {
	const char *name;
	bool dma;
	bool other_pd;
	int mr_access;
	u64 iova;
	u64 length;
	int access;
	int err;
};

static const struct check_case check_cases[] = {
	/* bounds */
	{ "in_bounds", false, false, ALL_ACCESS, 0x1800, 0x100, 0, 0 },
	{ "whole_mr", false, false, ALL_ACCESS, CHECK_IOVA, CHECK_LENGTH, 0, 0 },
	{ "last_byte", false, false, ALL_ACCESS, CHECK_END - 1, 1, 0, 0 },
	{ "ends_exactly_at_end", false, false, ALL_ACCESS, 0x3000, 0x1000, 0, 0 },
	{ "one_byte_past_end", false, false, ALL_ACCESS, 0x3001, 0x1000, 0,
	  -EFAULT },
	{ "starts_at_end", false, false, ALL_ACCESS, CHECK_END, 1, 0, -EFAULT },
	{ "longer_than_mr", false, false, ALL_ACCESS, CHECK_IOVA,
	  CHECK_LENGTH + 1, 0, -EFAULT },
	{ "iova_below_start", false, false, ALL_ACCESS, CHECK_IOVA - 1, 2, 0,
	  -EFAULT },
	{ "entirely_below_start", false, false, ALL_ACCESS, 0, 1, 0, -EFAULT },
	{ "length_wraps_u64", false, false, ALL_ACCESS, 0x2000, U64_MAX, 0,
	  -EFAULT },
	{ "length_wraps_into_mr", false, false, ALL_ACCESS, 0x2000,
	  U64_MAX - 0xfff, 0, -EFAULT },
	{ "iova_u64_max", false, false, ALL_ACCESS, U64_MAX, 1, 0, -EFAULT },
	/* zero length: no bounds (IBA vol 1 ch. 9) */
	{ "zero_length_at_start", false, false, ALL_ACCESS, CHECK_IOVA, 0, 0, 0 },
	{ "zero_length_at_end", false, false, ALL_ACCESS, CHECK_END, 0, 0, 0 },
	{ "zero_length_after_end", false, false, ALL_ACCESS, 0x9000, 0, 0, 0 },
	{ "zero_length_at_u64_max", false, false, ALL_ACCESS, U64_MAX, 0, 0, 0 },
	{ "zero_length_missing_right", false, false, IB_ACCESS_LOCAL_WRITE,
	  CHECK_END, 0, IB_ACCESS_REMOTE_WRITE, -EACCES },
	/* protection domain */
	{ "wrong_pd", false, true, ALL_ACCESS, CHECK_IOVA, 1, 0, -EINVAL },
	{ "wrong_pd_zero_length", false, true, ALL_ACCESS, CHECK_IOVA, 0, 0,
	  -EINVAL },
	{ "wrong_pd_before_bounds", false, true, ALL_ACCESS, CHECK_END, 1, 0,
	  -EINVAL },
	{ "wrong_pd_before_access", false, true, 0, CHECK_IOVA, 1,
	  IB_ACCESS_REMOTE_READ, -EINVAL },
	/* access rights, each kind granted and missing */
	{ "local_read_always", false, false, 0, CHECK_IOVA, 8, 0, 0 },
	{ "local_write_granted", false, false, IB_ACCESS_LOCAL_WRITE,
	  CHECK_IOVA, 8, IB_ACCESS_LOCAL_WRITE, 0 },
	{ "local_write_missing", false, false, IB_ACCESS_REMOTE_READ,
	  CHECK_IOVA, 8, IB_ACCESS_LOCAL_WRITE, -EACCES },
	{ "remote_write_granted", false, false,
	  IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE, CHECK_IOVA, 8,
	  IB_ACCESS_REMOTE_WRITE, 0 },
	{ "remote_write_missing", false, false,
	  ALL_ACCESS & ~IB_ACCESS_REMOTE_WRITE, CHECK_IOVA, 8,
	  IB_ACCESS_REMOTE_WRITE, -EACCES },
	{ "remote_read_granted", false, false, IB_ACCESS_REMOTE_READ,
	  CHECK_IOVA, 8, IB_ACCESS_REMOTE_READ, 0 },
	{ "remote_read_missing", false, false,
	  ALL_ACCESS & ~IB_ACCESS_REMOTE_READ, CHECK_IOVA, 8,
	  IB_ACCESS_REMOTE_READ, -EACCES },
	{ "remote_atomic_granted", false, false,
	  IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_ATOMIC, CHECK_IOVA, 8,
	  IB_ACCESS_REMOTE_ATOMIC, 0 },
	{ "remote_atomic_missing", false, false,
	  ALL_ACCESS & ~IB_ACCESS_REMOTE_ATOMIC, CHECK_IOVA, 8,
	  IB_ACCESS_REMOTE_ATOMIC, -EACCES },
	{ "two_rights_one_missing", false, false,
	  IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE, CHECK_IOVA, 8,
	  IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ, -EACCES },
	{ "access_before_bounds", false, false, IB_ACCESS_REMOTE_READ,
	  CHECK_END, 8, IB_ACCESS_REMOTE_WRITE, -EACCES },
	/* DMA MR: all kernel memory */
	{ "dma_any_address", true, false, ALL_ACCESS, 0xffff888000000000ULL,
	  PAGE_SIZE, IB_ACCESS_LOCAL_WRITE, 0 },
	{ "dma_wraps_u64", true, false, ALL_ACCESS, U64_MAX, 2, 0, -EFAULT },
	{ "dma_wrong_pd", true, true, ALL_ACCESS, 0xffff888000000000ULL, 8, 0,
	  -EINVAL },
	{ "dma_missing_right", true, false, IB_ACCESS_LOCAL_WRITE,
	  0xffff888000000000ULL, 8, IB_ACCESS_REMOTE_READ, -EACCES },
};

static void check_case_desc(const struct check_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(check, check_cases, check_case_desc);

static void softrdma_mr_check_rules(struct kunit *test)
{
	const struct check_case *c = test->param_value;
	struct mr_test_ctx *ctx = test->priv;
	struct softrdma_mr mr = {
		.type = c->dma ? SOFTRDMA_MR_DMA : SOFTRDMA_MR_USER,
		.pd = &ctx->pd,
		.access = c->mr_access,
		.iova = c->dma ? 0 : CHECK_IOVA,
		.length = c->dma ? U64_MAX : CHECK_LENGTH,
	};
	const struct ib_pd *pd = c->other_pd ? &ctx->other_pd : &ctx->pd;

	KUNIT_EXPECT_EQ(test, softrdma_mr_check(&mr, pd, c->iova, c->length,
						c->access), c->err);
}

/* ---- access flags at registration ------------------------------------- */

struct flags_case {
	const char *name;
	int access;
	int err;
};

static const struct flags_case flags_cases[] = {
	{ "local_read_only", 0, 0 },
	{ "local_write", IB_ACCESS_LOCAL_WRITE, 0 },
	{ "remote_read", IB_ACCESS_REMOTE_READ, 0 },
	{ "all_rights", ALL_ACCESS, 0 },
	{ "mw_bind", IB_ACCESS_LOCAL_WRITE | IB_ACCESS_MW_BIND, 0 },
	{ "hugetlb_hint", IB_ACCESS_LOCAL_WRITE | IB_ACCESS_HUGETLB, 0 },
	{ "relaxed_ordering_ignored",
	  IB_ACCESS_LOCAL_WRITE | IB_ACCESS_RELAXED_ORDERING, 0 },
	{ "remote_write_without_local_write", IB_ACCESS_REMOTE_WRITE, -EINVAL },
	{ "remote_atomic_without_local_write", IB_ACCESS_REMOTE_ATOMIC,
	  -EINVAL },
	{ "on_demand", IB_ACCESS_LOCAL_WRITE | IB_ACCESS_ON_DEMAND,
	  -EOPNOTSUPP },
	{ "zero_based", IB_ACCESS_LOCAL_WRITE | IB_ZERO_BASED, -EOPNOTSUPP },
	{ "unknown_bit", IB_ACCESS_LOCAL_WRITE | BIT(10), -EOPNOTSUPP },
	/*
	 * IBA 1.5 FLUSH rights (uverbs values): global visibility where the
	 * core carries FLUSH, persistence never (ordinary RAM)
	 */
	{ "flush_global", IB_ACCESS_LOCAL_WRITE | BIT(8),
	  SOFTRDMA_HAVE_FLUSH ? 0 : -EOPNOTSUPP },
	{ "flush_persistent", IB_ACCESS_LOCAL_WRITE | BIT(9), -EOPNOTSUPP },
	{ "flush_both", IB_ACCESS_LOCAL_WRITE | BIT(8) | BIT(9), -EOPNOTSUPP },
};

static void flags_case_desc(const struct flags_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(flags, flags_cases, flags_case_desc);

static void softrdma_mr_access_flags(struct kunit *test)
{
	const struct flags_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, softrdma_mr_check_access_flags(c->access),
			c->err);
}

/* ---- keys and lookup -------------------------------------------------- */

struct key_case {
	const char *name;
	u32 index;
	u8 key_byte;
	u32 key;
};

static const struct key_case key_cases[] = {
	{ "first_index_byte_0", 1, 0x00, 0x00000100 },
	{ "first_index_byte_ff", 1, 0xff, 0x000001ff },
	{ "middle", 0x012345, 0x67, 0x01234567 },
	{ "max_index", 0xffffff, 0xab, 0xffffffab },
};

static void key_case_desc(const struct key_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(key, key_cases, key_case_desc);

static void softrdma_mr_key_round_trip(struct kunit *test)
{
	const struct key_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, softrdma_mr_key(c->index, c->key_byte), c->key);
	KUNIT_EXPECT_EQ(test, softrdma_mr_key_index(c->key), c->index);
	KUNIT_EXPECT_EQ(test, softrdma_mr_key_byte(c->key), c->key_byte);
}

static void softrdma_mr_lookup(struct kunit *test)
{
	struct mr_test_ctx *ctx = test->priv;
	struct softrdma_dev *sdev = ctx->sdev;
	struct softrdma_mr *a, *b, *got;
	u32 key_a, key_b;
	unsigned int i;

	a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	a->pd = &ctx->pd;
	b->pd = &ctx->pd;

	KUNIT_ASSERT_EQ(test, softrdma_mr_add(sdev, a), 0);
	KUNIT_ASSERT_EQ(test, softrdma_mr_publish(sdev, a), 0);
	KUNIT_ASSERT_EQ(test, softrdma_mr_add(sdev, b), 0);
	key_a = a->ibmr.lkey;
	key_b = b->ibmr.lkey;

	KUNIT_EXPECT_EQ(test, a->ibmr.rkey, key_a);
	KUNIT_EXPECT_NE(test, softrdma_mr_key_index(key_a), 0U);
	KUNIT_EXPECT_NE(test, softrdma_mr_key_index(key_b), 0U);
	KUNIT_EXPECT_NE(test, softrdma_mr_key_index(key_a),
			softrdma_mr_key_index(key_b));

	/* the whole key finds the MR and takes a reference */
	got = softrdma_mr_get(sdev, key_a);
	KUNIT_EXPECT_PTR_EQ(test, got, a);
	KUNIT_EXPECT_EQ(test, kref_read(&a->ref), 2U);
	if (got)
		softrdma_mr_put(got);
	KUNIT_EXPECT_EQ(test, kref_read(&a->ref), 1U);

	/* every other key byte with the same index is refused */
	for (i = 1; i <= SOFTRDMA_MR_KEY_BYTE; i++)
		KUNIT_EXPECT_NULL(test, softrdma_mr_get(sdev, key_a ^ i));
	KUNIT_EXPECT_EQ(test, kref_read(&a->ref), 1U);

	/* the local DMA lkey and unused indices name no MR */
	KUNIT_EXPECT_NULL(test, softrdma_mr_get(sdev, 0));
	KUNIT_EXPECT_NULL(test, softrdma_mr_get(sdev, 0xffff00));

	/* reserved but not yet published: invisible */
	KUNIT_EXPECT_NULL(test, softrdma_mr_get(sdev, key_b));
	KUNIT_ASSERT_EQ(test, softrdma_mr_publish(sdev, b), 0);
	got = softrdma_mr_get(sdev, key_b);
	KUNIT_EXPECT_PTR_EQ(test, got, b);
	if (got)
		softrdma_mr_put(got);

	/* removed: gone, and nothing holds it */
	softrdma_mr_remove(sdev, a);
	KUNIT_EXPECT_NULL(test, softrdma_mr_get(sdev, key_a));
	KUNIT_EXPECT_EQ(test, kref_read(&a->ref), 0U);
	softrdma_mr_remove(sdev, b);
	KUNIT_EXPECT_NULL(test, softrdma_mr_get(sdev, key_b));
}

/*
 * A key says nothing about the next one: consecutive registrations land
 * anywhere in the 24-bit index space, not in a run from the lowest free
 * index, and a slot freed and taken again does not hand its key back, so
 * a stale key finds nothing (what hardware keys give, and what a peer
 * guessing rkeys must not be able to exploit).
 */
#define KEY_TEST_MRS	64

static void softrdma_mr_keys_unpredictable(struct kunit *test)
{
	struct mr_test_ctx *ctx = test->priv;
	unsigned int i, runs = 0, high = 0;
	struct softrdma_mr *mrs;
	u32 idx, prev = 0, stale;

	mrs = kunit_kcalloc(test, KEY_TEST_MRS, sizeof(*mrs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mrs);

	for (i = 0; i < KEY_TEST_MRS; i++) {
		mrs[i].pd = &ctx->pd;
		KUNIT_ASSERT_EQ(test, softrdma_mr_add(ctx->sdev, &mrs[i]), 0);
		KUNIT_ASSERT_EQ(test, softrdma_mr_publish(ctx->sdev, &mrs[i]),
				0);
		idx = softrdma_mr_key_index(mrs[i].key);
		KUNIT_EXPECT_NE(test, idx, 0U);
		if (i && idx == prev + 1)
			runs++;
		if (idx > SOFTRDMA_MAX_MR)
			high++;
		prev = idx;
	}
	/* random indices: a neighbour is a one in 2^24 event */
	KUNIT_EXPECT_LE(test, runs, 1U);
	/* and 63 in 64 of them lie above the lowest SOFTRDMA_MAX_MR */
	KUNIT_EXPECT_GT(test, high, KEY_TEST_MRS / 2U);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->sdev->res.n[SOFTRDMA_RES_MR]),
			KEY_TEST_MRS);

	/* deregistered and registered again: a new slot, the old key dead */
	for (i = 0; i < KEY_TEST_MRS; i++) {
		stale = mrs[i].key;
		softrdma_mr_remove(ctx->sdev, &mrs[i]);
		KUNIT_ASSERT_EQ(test, softrdma_mr_add(ctx->sdev, &mrs[i]), 0);
		KUNIT_ASSERT_EQ(test, softrdma_mr_publish(ctx->sdev, &mrs[i]),
				0);
		KUNIT_EXPECT_NE(test, softrdma_mr_key_index(mrs[i].key),
				softrdma_mr_key_index(stale));
		KUNIT_EXPECT_NULL(test, softrdma_mr_get(ctx->sdev, stale));
	}

	for (i = 0; i < KEY_TEST_MRS; i++)
		softrdma_mr_remove(ctx->sdev, &mrs[i]);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->sdev->res.n[SOFTRDMA_RES_MR]), 0);
}

struct remove_work {
	struct softrdma_dev *sdev;
	struct softrdma_mr *mr;
	struct completion done;
};

static int remove_thread(void *data)
{
	struct remove_work *w = data;

	softrdma_mr_remove(w->sdev, w->mr);
	complete(&w->done);
	return 0;
}

/* Removal unpublishes at once, then waits for the packet path to let go. */
static void softrdma_mr_remove_waits_for_users(struct kunit *test)
{
	struct mr_test_ctx *ctx = test->priv;
	struct task_struct *task;
	struct softrdma_mr *got;
	struct remove_work *w;
	int tries;
	u32 key;

	w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	w->mr = kunit_kzalloc(test, sizeof(*w->mr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w->mr);
	w->sdev = ctx->sdev;
	w->mr->pd = &ctx->pd;
	init_completion(&w->done);

	KUNIT_ASSERT_EQ(test, softrdma_mr_add(ctx->sdev, w->mr), 0);
	KUNIT_ASSERT_EQ(test, softrdma_mr_publish(ctx->sdev, w->mr), 0);
	key = w->mr->ibmr.lkey;
	got = softrdma_mr_get(ctx->sdev, key);
	KUNIT_ASSERT_PTR_EQ(test, got, w->mr);

	task = kthread_run(remove_thread, w, "softrdma_mr_rm");
	if (IS_ERR(task)) {
		softrdma_mr_put(got);
		softrdma_mr_remove(ctx->sdev, w->mr);
		KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	}

	/* unreachable for new lookups... */
	for (tries = 0; tries < 1000; tries++) {
		struct softrdma_mr *again = softrdma_mr_get(ctx->sdev, key);

		if (!again)
			break;
		softrdma_mr_put(again);
		usleep_range(1000, 2000);
	}
	KUNIT_EXPECT_LT(test, tries, 1000);

	/* ...but not gone while a lookup holds it */
	KUNIT_EXPECT_EQ(test, wait_for_completion_timeout(&w->done,
							  msecs_to_jiffies(100)),
			0UL);
	KUNIT_EXPECT_EQ(test, kref_read(&w->mr->ref), 1U);

	softrdma_mr_put(got);
	wait_for_completion(&w->done);
	KUNIT_EXPECT_EQ(test, kref_read(&w->mr->ref), 0U);
}

/* ---- copy to and from a kernel buffer --------------------------------- */

struct copy_case {
	const char *name;
	s64 off;		/* from the MR's iova */
	u32 len;
	int err;
};

static const struct copy_case copy_cases[] = {
	{ "inside_first_page", 0, 64, 0 },
	{ "crosses_first_page_boundary", PAGE_SIZE - TEST_PAGE_OFFSET - 10, 20,
	  0 },
	{ "ends_at_page_boundary", 0, PAGE_SIZE - TEST_PAGE_OFFSET, 0 },
	{ "whole_middle_page", PAGE_SIZE - TEST_PAGE_OFFSET, PAGE_SIZE, 0 },
	{ "spans_all_pages", 0, TEST_LENGTH, 0 },
	{ "last_byte", TEST_LENGTH - 1, 1, 0 },
	{ "zero_length", 17, 0, 0 },
	{ "one_byte_past_end", TEST_LENGTH - 10, 11, -EFAULT },
	{ "below_start", -1, 2, -EFAULT },
};

static void copy_case_desc(const struct copy_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(copy, copy_cases, copy_case_desc);

static void softrdma_mr_copy_crosses_pages(struct kunit *test)
{
	const struct copy_case *c = test->param_value;
	struct mr_test_ctx *ctx = test->priv;
	u64 iova = TEST_IOVA + c->off;
	u8 *src, *dst;
	u64 i;
	int i_page;

	src = kunit_kzalloc(test, c->len + 1, GFP_KERNEL);
	dst = kunit_kzalloc(test, c->len + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, src);
	KUNIT_ASSERT_NOT_NULL(test, dst);
	fill_pattern(src, c->len, 0x5a);

	KUNIT_EXPECT_EQ(test, softrdma_mr_copy(&ctx->mr, iova, src, c->len,
					       SOFTRDMA_COPY_TO_MR), c->err);
	KUNIT_EXPECT_EQ(test, softrdma_mr_copy(&ctx->mr, iova, dst, c->len,
					       SOFTRDMA_COPY_FROM_MR), c->err);
	if (c->err) {
		/* refused before touching anything */
		for (i_page = 0; i_page < TEST_NPAGES; i_page++) {
			u8 *va = page_address(ctx->pages[i_page]);

			KUNIT_EXPECT_NULL(test, memchr_inv(va, 0, PAGE_SIZE));
		}
		return;
	}

	/* each byte landed where the page array says, and nothing else */
	for (i = 0; i < c->len; i++)
		if (mr_byte(ctx, c->off + i) != src[i])
			break;
	KUNIT_EXPECT_EQ(test, i, (u64)c->len);
	if (c->off > 0)
		KUNIT_EXPECT_EQ(test, mr_byte(ctx, c->off - 1), 0);
	if (c->off + c->len < TEST_LENGTH)
		KUNIT_EXPECT_EQ(test, mr_byte(ctx, c->off + c->len), 0);

	KUNIT_EXPECT_EQ(test, memcmp(dst, src, c->len), 0);
}

/* A DMA MR over vmalloc and kmalloc memory, addressed by kernel VA. */
static void softrdma_mr_copy_dma_kernel_va(struct kunit *test)
{
	struct mr_test_ctx *ctx = test->priv;
	struct softrdma_mr mr = {
		.type = SOFTRDMA_MR_DMA,
		.pd = &ctx->pd,
		.access = ALL_ACCESS,
		.length = U64_MAX,
	};
	u8 src[64], dst[64];
	u8 *vbuf, *kbuf;
	u64 iova;

	fill_pattern(src, sizeof(src), 0x11);

	vbuf = vzalloc(2 * PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, vbuf);
	iova = (uintptr_t)vbuf + PAGE_SIZE - 20;
	KUNIT_EXPECT_EQ(test, softrdma_mr_copy(&mr, iova, src, sizeof(src),
					       SOFTRDMA_COPY_TO_MR), 0);
	KUNIT_EXPECT_EQ(test, memcmp(vbuf + PAGE_SIZE - 20, src, sizeof(src)),
			0);
	KUNIT_EXPECT_EQ(test, softrdma_mr_copy(&mr, iova, dst, sizeof(dst),
					       SOFTRDMA_COPY_FROM_MR), 0);
	KUNIT_EXPECT_EQ(test, memcmp(dst, src, sizeof(src)), 0);
	vfree(vbuf);

	kbuf = kunit_kzalloc(test, sizeof(src), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, kbuf);
	KUNIT_EXPECT_EQ(test, softrdma_mr_copy(&mr, (uintptr_t)kbuf, src,
					       sizeof(src),
					       SOFTRDMA_COPY_TO_MR), 0);
	KUNIT_EXPECT_EQ(test, memcmp(kbuf, src, sizeof(src)), 0);

	/* a user-space address is no kernel memory */
	KUNIT_EXPECT_EQ(test, softrdma_mr_copy(&mr, 0x10000, dst, sizeof(dst),
					       SOFTRDMA_COPY_FROM_MR), -EFAULT);
}

/* ---- receive path: straight from a nonlinear skb ---------------------- */

#define SKB_LINEAR	100
#define SKB_FRAG_LEN	3000
#define SKB_FRAG_OFF	7
#define SKB_NFRAGS	2
#define SKB_TOTAL	(SKB_LINEAR + SKB_NFRAGS * SKB_FRAG_LEN)

/* An skb with SKB_LINEAR bytes in its head and the rest in page frags. */
static struct sk_buff *nonlinear_skb(struct kunit *test, const u8 *data)
{
	struct sk_buff *skb;
	int f;

	skb = alloc_skb(SKB_LINEAR, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_put_data(skb, data, SKB_LINEAR);
	for (f = 0; f < SKB_NFRAGS; f++) {
		struct page *page = alloc_page(GFP_KERNEL);

		if (!page) {
			kfree_skb(skb);
			KUNIT_ASSERT_NOT_NULL(test, page);
		}
		memcpy(page_address(page) + SKB_FRAG_OFF,
		       data + SKB_LINEAR + f * SKB_FRAG_LEN, SKB_FRAG_LEN);
		skb_fill_page_desc(skb, f, page, SKB_FRAG_OFF, SKB_FRAG_LEN);
		skb->len += SKB_FRAG_LEN;
		skb->data_len += SKB_FRAG_LEN;
		skb->truesize += PAGE_SIZE;
	}
	return skb;
}

static void softrdma_mr_copy_from_nonlinear_skb(struct kunit *test)
{
	struct mr_test_ctx *ctx = test->priv;
	const int skb_off = 10;
	const u32 len = SKB_TOTAL - skb_off - 5;
	/* the destination crosses both page boundaries of the MR */
	const u64 off = PAGE_SIZE - TEST_PAGE_OFFSET - 33;
	struct sk_buff *skb;
	u8 *data, *dst;

	data = kunit_kmalloc(test, SKB_TOTAL, GFP_KERNEL);
	dst = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, data);
	KUNIT_ASSERT_NOT_NULL(test, dst);
	fill_pattern(data, SKB_TOTAL, 0x3c);

	skb = nonlinear_skb(test, data);
	KUNIT_EXPECT_EQ(test, skb_headlen(skb), SKB_LINEAR);
	KUNIT_EXPECT_EQ(test, skb_shinfo(skb)->nr_frags, SKB_NFRAGS);

	KUNIT_EXPECT_EQ(test, softrdma_mr_copy_from_skb(&ctx->mr,
							TEST_IOVA + off, skb,
							skb_off, len), 0);
	KUNIT_EXPECT_EQ(test, softrdma_mr_copy(&ctx->mr, TEST_IOVA + off, dst,
					       len, SOFTRDMA_COPY_FROM_MR), 0);
	KUNIT_EXPECT_EQ(test, memcmp(dst, data + skb_off, len), 0);
	KUNIT_EXPECT_EQ(test, mr_byte(ctx, off - 1), 0);
	KUNIT_EXPECT_EQ(test, mr_byte(ctx, off + len), 0);

	/* past the end of the skb, or of the MR */
	KUNIT_EXPECT_EQ(test, softrdma_mr_copy_from_skb(&ctx->mr, TEST_IOVA,
							skb, SKB_TOTAL - 4, 8),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, softrdma_mr_copy_from_skb(&ctx->mr,
							TEST_IOVA + TEST_LENGTH - 4,
							skb, 0, 8),
			-EFAULT);
	kfree_skb(skb);
}

/* ---- transmit path: MR pages as skb fragments ------------------------- */

static void softrdma_mr_skb_frags_balance(struct kunit *test)
{
	struct mr_test_ctx *ctx = test->priv;
	/* 10 bytes of page 0, all of page 1, 10 bytes of page 2 */
	const u64 off = PAGE_SIZE - TEST_PAGE_OFFSET - 10;
	const u32 len = PAGE_SIZE + 20;
	struct sk_buff *skb;
	u8 *src, *out;
	int i;

	src = kunit_kmalloc(test, len, GFP_KERNEL);
	out = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, src);
	KUNIT_ASSERT_NOT_NULL(test, out);
	fill_pattern(src, len, 0x77);
	KUNIT_ASSERT_EQ(test, softrdma_mr_copy(&ctx->mr, TEST_IOVA + off, src,
					       len, SOFTRDMA_COPY_TO_MR), 0);

	skb = alloc_skb(0, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_EQ(test, softrdma_mr_skb_add_frags(&ctx->mr,
							TEST_IOVA + off, len,
							skb), 0);
	KUNIT_EXPECT_EQ(test, skb_shinfo(skb)->nr_frags, 3);
	KUNIT_EXPECT_EQ(test, skb->len, len);
	KUNIT_EXPECT_EQ(test, skb->data_len, len);
	KUNIT_EXPECT_EQ(test, skb_frag_size(&skb_shinfo(skb)->frags[0]), 10U);
	KUNIT_EXPECT_EQ(test, skb_frag_off(&skb_shinfo(skb)->frags[0]),
			PAGE_SIZE - 10);
	KUNIT_EXPECT_EQ(test, skb_frag_size(&skb_shinfo(skb)->frags[1]),
			PAGE_SIZE);
	for (i = 0; i < TEST_NPAGES; i++) {
		KUNIT_EXPECT_PTR_EQ(test, skb_frag_page(&skb_shinfo(skb)->frags[i]),
				    ctx->pages[i]);
		KUNIT_EXPECT_EQ(test, page_count(ctx->pages[i]), 2);
	}

	KUNIT_EXPECT_EQ(test, skb_copy_bits(skb, 0, out, len), 0);
	KUNIT_EXPECT_EQ(test, memcmp(out, src, len), 0);

	kfree_skb(skb);
	for (i = 0; i < TEST_NPAGES; i++)
		KUNIT_EXPECT_EQ(test, page_count(ctx->pages[i]), 1);
}

static void softrdma_mr_skb_frags_full(struct kunit *test)
{
	struct mr_test_ctx *ctx = test->priv;
	struct sk_buff *skb;
	unsigned int i;

	skb = alloc_skb(0, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);

	/* one frag per call, until the skb is one short of full */
	for (i = 0; i < MAX_SKB_FRAGS - 1; i++)
		KUNIT_EXPECT_EQ(test, softrdma_mr_skb_add_frags(&ctx->mr,
								TEST_IOVA + 8 * i,
								8, skb), 0);
	KUNIT_EXPECT_EQ(test, skb_shinfo(skb)->nr_frags, MAX_SKB_FRAGS - 1);
	KUNIT_EXPECT_EQ(test, page_count(ctx->pages[0]), MAX_SKB_FRAGS);

	/* two pages do not fit in the last slot: nothing is added */
	KUNIT_EXPECT_EQ(test, softrdma_mr_skb_add_frags(&ctx->mr,
							TEST_IOVA + PAGE_SIZE -
							TEST_PAGE_OFFSET - 4,
							8, skb), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, skb_shinfo(skb)->nr_frags, MAX_SKB_FRAGS - 1);
	KUNIT_EXPECT_EQ(test, skb->len, 8 * (MAX_SKB_FRAGS - 1));
	KUNIT_EXPECT_EQ(test, page_count(ctx->pages[0]), MAX_SKB_FRAGS);
	KUNIT_EXPECT_EQ(test, page_count(ctx->pages[1]), 1);

	/* one page does; then the skb is full */
	KUNIT_EXPECT_EQ(test, softrdma_mr_skb_add_frags(&ctx->mr, TEST_IOVA,
							8, skb), 0);
	KUNIT_EXPECT_EQ(test, softrdma_mr_skb_add_frags(&ctx->mr, TEST_IOVA,
							8, skb), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, skb_shinfo(skb)->nr_frags, MAX_SKB_FRAGS);

	/* out of the MR is not a fallback case */
	KUNIT_EXPECT_EQ(test, softrdma_mr_skb_add_frags(&ctx->mr,
							TEST_IOVA + TEST_LENGTH,
							1, skb), -EFAULT);

	kfree_skb(skb);
	KUNIT_EXPECT_EQ(test, page_count(ctx->pages[0]), 1);
}

static void softrdma_mr_skb_frags_dma(struct kunit *test)
{
	struct mr_test_ctx *ctx = test->priv;
	struct softrdma_mr mr = {
		.type = SOFTRDMA_MR_DMA,
		.pd = &ctx->pd,
		.access = ALL_ACCESS,
		.length = U64_MAX,
	};
	u64 iova = (uintptr_t)page_address(ctx->pages[1]) + 100;
	struct sk_buff *skb;
	void *kbuf;

	skb = alloc_skb(0, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);

	/* a page: referenced */
	KUNIT_EXPECT_EQ(test, softrdma_mr_skb_add_frags(&mr, iova, 200, skb), 0);
	KUNIT_EXPECT_EQ(test, skb_shinfo(skb)->nr_frags, 1);
	KUNIT_EXPECT_EQ(test, page_count(ctx->pages[1]), 2);

	/* slab memory: the caller must copy */
	kbuf = kunit_kzalloc(test, 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, kbuf);
	KUNIT_EXPECT_EQ(test, softrdma_mr_skb_add_frags(&mr, (uintptr_t)kbuf,
							64, skb), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, skb_shinfo(skb)->nr_frags, 1);
	KUNIT_EXPECT_EQ(test, skb->len, 200U);

	kfree_skb(skb);
	KUNIT_EXPECT_EQ(test, page_count(ctx->pages[1]), 1);
}

/* ---- atomics ---------------------------------------------------------- */

struct atomic_case {
	const char *name;
	u64 off;		/* from TEST_IOVA, which is 4 mod 8 */
	bool cmp_swap;
	u64 initial;
	u64 compare_add;
	u64 swap;
	int err;
	u64 orig;
	u64 final;
};

static const struct atomic_case atomic_cases[] = {
	{ "fetch_add", 4, false, 5, 3, 0, 0, 5, 8 },
	{ "fetch_add_zero", 4, false, 9, 0, 0, 0, 9, 9 },
	{ "fetch_add_wraps", 4, false, U64_MAX, 2, 0, 0, U64_MAX, 1 },
	{ "fetch_add_ignores_swap", 12, false, 1, 1, 77, 0, 1, 2 },
	{ "cmp_swap_match", 4, true, 42, 42, 7, 0, 42, 7 },
	{ "cmp_swap_mismatch", 4, true, 42, 41, 7, 0, 42, 42 },
	{ "cmp_swap_all_ones", 20, true, U64_MAX, U64_MAX, 0, 0, U64_MAX, 0 },
	{ "last_word_of_page", PAGE_SIZE - TEST_PAGE_OFFSET - 8, false, 10, 1,
	  0, 0, 10, 11 },
	{ "first_word_of_page", PAGE_SIZE - TEST_PAGE_OFFSET, true, 3, 3, 4, 0,
	  3, 4 },
	{ "last_word_of_mr", ((TEST_LENGTH - 12) & ~7ULL) + 4, false, 1, 1, 0,
	  0, 1, 2 },
	{ "misaligned_by_4", 0, false, 0, 1, 0, -EINVAL, 0, 0 },
	{ "misaligned_by_1", 5, true, 0, 0, 1, -EINVAL, 0, 0 },
	{ "past_end_of_mr", ((TEST_LENGTH + 4) & ~7ULL) - 4, false, 0, 1, 0,
	  -EFAULT, 0, 0 },
};

static void atomic_case_desc(const struct atomic_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(atomic, atomic_cases, atomic_case_desc);

static void softrdma_mr_atomic_ops(struct kunit *test)
{
	const struct atomic_case *c = test->param_value;
	bool in_mr = c->off + sizeof(u64) <= TEST_LENGTH;
	struct mr_test_ctx *ctx = test->priv;
	u64 orig = 0xdead, val = c->initial;
	u64 iova = TEST_IOVA + c->off;

	if (in_mr)
		KUNIT_ASSERT_EQ(test, softrdma_mr_copy(&ctx->mr, iova, &val,
						       sizeof(val),
						       SOFTRDMA_COPY_TO_MR), 0);

	KUNIT_EXPECT_EQ(test, softrdma_mr_atomic(&ctx->mr, iova, c->cmp_swap,
						 c->compare_add, c->swap,
						 &orig), c->err);
	KUNIT_EXPECT_EQ(test, orig, c->err ? 0xdeadULL : c->orig);
	if (!in_mr)
		return;
	KUNIT_ASSERT_EQ(test, softrdma_mr_copy(&ctx->mr, iova, &val,
					       sizeof(val),
					       SOFTRDMA_COPY_FROM_MR), 0);
	KUNIT_EXPECT_EQ(test, val, c->err ? c->initial : c->final);
}

/* IBA 1.5 ATOMIC WRITE: eight bytes stored as they came, or nothing */
struct atomic_write_case {
	const char *name;
	u64 off;		/* from TEST_IOVA, which is 4 mod 8 */
	int err;
};

static const struct atomic_write_case atomic_write_cases[] = {
	{ "aligned", 4, 0 },
	{ "last_word_of_page", PAGE_SIZE - TEST_PAGE_OFFSET - 8, 0 },
	{ "first_word_of_page", PAGE_SIZE - TEST_PAGE_OFFSET, 0 },
	{ "last_word_of_mr", ((TEST_LENGTH - 12) & ~7ULL) + 4, 0 },
	{ "misaligned_by_4", 0, -EINVAL },
	{ "misaligned_by_1", 5, -EINVAL },
	{ "past_end_of_mr", ((TEST_LENGTH + 4) & ~7ULL) - 4, -EFAULT },
};

static void atomic_write_case_desc(const struct atomic_write_case *c,
				   char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(atomic_write, atomic_write_cases, atomic_write_case_desc);

static void softrdma_mr_atomic_write_store(struct kunit *test)
{
	static const u8 image[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	const struct atomic_write_case *c = test->param_value;
	bool in_mr = c->off + sizeof(u64) <= TEST_LENGTH;
	struct mr_test_ctx *ctx = test->priv;
	u64 iova = TEST_IOVA + c->off;
	u64 val = 0x1111111111111111ULL;
	u64 value;

	memcpy(&value, image, sizeof(value));
	if (in_mr)
		KUNIT_ASSERT_EQ(test, softrdma_mr_copy(&ctx->mr, iova, &val,
						       sizeof(val),
						       SOFTRDMA_COPY_TO_MR), 0);

	KUNIT_EXPECT_EQ(test, softrdma_mr_atomic_write(&ctx->mr, iova, value),
			c->err);
	if (!in_mr)
		return;
	KUNIT_ASSERT_EQ(test, softrdma_mr_copy(&ctx->mr, iova, &val,
					       sizeof(val),
					       SOFTRDMA_COPY_FROM_MR), 0);
	/* the requester's memory image, byte for byte */
	if (c->err)
		KUNIT_EXPECT_EQ(test, val, 0x1111111111111111ULL);
	else
		KUNIT_EXPECT_EQ(test, memcmp(&val, image, sizeof(image)), 0);
}

/* An aligned iova over memory that is not 8-byte aligned is refused too. */
static void softrdma_mr_atomic_memory_misaligned(struct kunit *test)
{
	struct mr_test_ctx *ctx = test->priv;
	struct softrdma_mr mr = ctx->mr;
	u64 orig = 0;

	mr.iova = TEST_IOVA + 4;	/* 0 mod 8, at page offset 100 */
	KUNIT_EXPECT_EQ(test, softrdma_mr_atomic(&mr, mr.iova, false, 1, 0,
						 &orig), -EINVAL);
	KUNIT_EXPECT_EQ(test, mr_byte(ctx, 0), 0);
}

#define ATOMIC_THREADS	4
#define ATOMIC_ROUNDS	5000

struct atomic_work {
	const struct softrdma_mr *mr;
	u64 iova;
	int errors;
	struct completion done;
};

static int atomic_thread(void *data)
{
	struct atomic_work *w = data;
	u64 orig;
	int i;

	for (i = 0; i < ATOMIC_ROUNDS; i++) {
		if (softrdma_mr_atomic(w->mr, w->iova, false, 1, 0, &orig))
			w->errors++;
		if ((i & 63) == 63)
			cond_resched();
	}
	complete(&w->done);
	return 0;
}

/* Fetch & Add from several threads at once loses no update. */
static void softrdma_mr_atomic_concurrent(struct kunit *test)
{
	struct mr_test_ctx *ctx = test->priv;
	const u64 iova = TEST_IOVA + 4;
	struct atomic_work *w;
	u64 val = 0;
	int i;

	w = kunit_kcalloc(test, ATOMIC_THREADS, sizeof(*w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_EQ(test, softrdma_mr_copy(&ctx->mr, iova, &val,
					       sizeof(val),
					       SOFTRDMA_COPY_TO_MR), 0);

	for (i = 0; i < ATOMIC_THREADS; i++) {
		struct task_struct *task;

		w[i].mr = &ctx->mr;
		w[i].iova = iova;
		init_completion(&w[i].done);
		task = kthread_run(atomic_thread, &w[i], "softrdma_mr_at%d", i);
		if (IS_ERR(task))
			complete(&w[i].done);
		KUNIT_EXPECT_FALSE(test, IS_ERR(task));
	}
	for (i = 0; i < ATOMIC_THREADS; i++) {
		wait_for_completion(&w[i].done);
		KUNIT_EXPECT_EQ(test, w[i].errors, 0);
	}

	KUNIT_ASSERT_EQ(test, softrdma_mr_copy(&ctx->mr, iova, &val,
					       sizeof(val),
					       SOFTRDMA_COPY_FROM_MR), 0);
	KUNIT_EXPECT_EQ(test, val, (u64)ATOMIC_THREADS * ATOMIC_ROUNDS);
}

/* ---- fast-registration MRs -------------------------------------------- */

/*
 * A fast-registration MR over the test pages as a kernel consumer maps
 * them: a scatterlist of the pages' kernel addresses (virtual DMA), the
 * first entry starting TEST_PAGE_OFFSET into its page.
 */
struct fast_ctx {
	struct softrdma_mr *mr;
	struct scatterlist sg[TEST_NPAGES];
	u64 iova;
	u32 length;
};

static void fast_setup(struct kunit *test, struct fast_ctx *f, u32 pbl_max)
{
	struct mr_test_ctx *ctx = test->priv;
	int i;

	f->mr = kunit_kzalloc(test, sizeof(*f->mr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->mr);
	f->mr->pbl = kunit_kcalloc(test, pbl_max, sizeof(u64), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->mr->pbl);
	f->mr->type = SOFTRDMA_MR_FAST;
	f->mr->pd = &ctx->pd;
	f->mr->pbl_max = pbl_max;
	f->mr->pbl_shift = PAGE_SHIFT;
	KUNIT_ASSERT_EQ(test, softrdma_mr_add(ctx->sdev, f->mr), 0);
	KUNIT_ASSERT_EQ(test, softrdma_mr_publish(ctx->sdev, f->mr), 0);

	sg_init_table(f->sg, TEST_NPAGES);
	for (i = 0; i < TEST_NPAGES; i++) {
		u32 off = i ? 0 : TEST_PAGE_OFFSET;

		sg_set_page(&f->sg[i], ctx->pages[i], PAGE_SIZE - off, off);
		sg_dma_address(&f->sg[i]) = (uintptr_t)sg_virt(&f->sg[i]);
		sg_dma_len(&f->sg[i]) = f->sg[i].length;
	}
	f->iova = (uintptr_t)page_address(ctx->pages[0]) + TEST_PAGE_OFFSET;
	f->length = TEST_NPAGES * PAGE_SIZE - TEST_PAGE_OFFSET;
	f->mr->ibmr.page_size = PAGE_SIZE;
}

static u32 fast_key(const struct fast_ctx *f, u8 key_byte)
{
	return softrdma_mr_key(softrdma_mr_key_index(f->mr->key), key_byte);
}

/*
 * Map, register with a new key byte, move data, invalidate (remotely with
 * the whole key, locally by index), register again: what nvme-rdma and
 * rdma_rw do with every I/O.
 */
static void softrdma_mr_fast_reg_cycle(struct kunit *test)
{
	struct mr_test_ctx *ctx = test->priv;
	u8 old_byte, data[64], back[64];
	struct fast_ctx f = {};
	struct softrdma_mr *got;
	u32 key, old_key;
	u64 at;

	fast_setup(test, &f, TEST_NPAGES);
	old_key = f.mr->key;
	old_byte = softrdma_mr_key_byte(old_key);
	key = fast_key(&f, old_byte + 1);

	/* allocated: invalid, no key finds it */
	KUNIT_EXPECT_NULL(test, softrdma_mr_get(ctx->sdev, old_key));

	KUNIT_ASSERT_EQ(test, softrdma_map_mr_sg(&f.mr->ibmr, f.sg,
						 TEST_NPAGES, NULL),
			TEST_NPAGES);
	KUNIT_EXPECT_EQ(test, f.mr->ibmr.iova, f.iova);
	KUNIT_EXPECT_EQ(test, f.mr->ibmr.length, (u64)f.length);
	KUNIT_EXPECT_EQ(test, f.mr->pbl_mapped, (u32)TEST_NPAGES);
	KUNIT_EXPECT_EQ(test, f.mr->pbl_first_off, (u32)TEST_PAGE_OFFSET);

	/* refused: another MR's pointer, another PD, bad access, bad key */
	KUNIT_EXPECT_EQ(test, softrdma_mr_fast_reg(ctx->sdev, &ctx->pd,
						   &ctx->mr, key,
						   IB_ACCESS_LOCAL_WRITE),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, softrdma_mr_fast_reg(ctx->sdev, &ctx->other_pd,
						   f.mr, key,
						   IB_ACCESS_LOCAL_WRITE),
			-EACCES);
	KUNIT_EXPECT_EQ(test, softrdma_mr_fast_reg(ctx->sdev, &ctx->pd, f.mr,
						   key, IB_ACCESS_REMOTE_WRITE),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, softrdma_mr_fast_reg(ctx->sdev, &ctx->pd, f.mr,
						   key + (1 << SOFTRDMA_MR_KEY_SHIFT),
						   IB_ACCESS_LOCAL_WRITE),
			-EINVAL);
	KUNIT_EXPECT_NULL(test, softrdma_mr_get(ctx->sdev, key));

	/* registered with the new key; the old one is dead */
	KUNIT_ASSERT_EQ(test, softrdma_mr_fast_reg(ctx->sdev, &ctx->pd, f.mr,
						   key, IB_ACCESS_LOCAL_WRITE |
						   IB_ACCESS_REMOTE_WRITE), 0);
	KUNIT_EXPECT_NULL(test, softrdma_mr_get(ctx->sdev, old_key));
	got = softrdma_mr_get(ctx->sdev, key);
	KUNIT_ASSERT_PTR_EQ(test, got, f.mr);
	KUNIT_EXPECT_EQ(test, softrdma_mr_check(got, &ctx->pd, f.iova,
						f.length,
						IB_ACCESS_REMOTE_WRITE), 0);
	KUNIT_EXPECT_EQ(test, softrdma_mr_check(got, &ctx->pd, f.iova - 1, 2,
						IB_ACCESS_REMOTE_WRITE),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, softrdma_mr_check(got, &ctx->pd, f.iova, 8,
						IB_ACCESS_REMOTE_READ),
			-EACCES);

	/* data across the first page boundary lands in the mapped pages */
	fill_pattern(data, sizeof(data), 0x33);
	at = f.iova + PAGE_SIZE - TEST_PAGE_OFFSET - 20;
	KUNIT_EXPECT_EQ(test, softrdma_mr_copy(got, at, data, sizeof(data),
					       SOFTRDMA_COPY_TO_MR), 0);
	KUNIT_EXPECT_EQ(test, mr_byte(ctx, at - f.iova), data[0]);
	KUNIT_EXPECT_EQ(test, mr_byte(ctx, at - f.iova + 20), data[20]);
	KUNIT_EXPECT_EQ(test, mr_byte(ctx, at - f.iova + 63), data[63]);
	KUNIT_EXPECT_EQ(test, softrdma_mr_copy(got, at, back, sizeof(back),
					       SOFTRDMA_COPY_FROM_MR), 0);
	KUNIT_EXPECT_EQ(test, memcmp(back, data, sizeof(data)), 0);
	softrdma_mr_put(got);

	/* a valid MR cannot be registered again */
	KUNIT_EXPECT_EQ(test, softrdma_mr_fast_reg(ctx->sdev, &ctx->pd, f.mr,
						   fast_key(&f, old_byte + 2),
						   IB_ACCESS_LOCAL_WRITE),
			-EBUSY);

	/* remote invalidation: the whole key, and the QP's PD */
	KUNIT_EXPECT_EQ(test, softrdma_mr_invalidate(ctx->sdev, &ctx->pd,
						     old_key, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, softrdma_mr_invalidate(ctx->sdev, &ctx->other_pd,
						     key, true), -EACCES);
	got = softrdma_mr_get(ctx->sdev, key);
	KUNIT_EXPECT_PTR_EQ(test, got, f.mr);
	if (got)
		softrdma_mr_put(got);
	KUNIT_EXPECT_EQ(test, softrdma_mr_invalidate(ctx->sdev, &ctx->pd,
						     key, true), 0);
	KUNIT_EXPECT_NULL(test, softrdma_mr_get(ctx->sdev, key));
	/* a local one names the MR by index (rdma_rw's stale key byte) */
	KUNIT_EXPECT_EQ(test, softrdma_mr_invalidate(ctx->sdev, &ctx->pd,
						     old_key, false), 0);
	/* not an MR that can be invalidated: the user MR's slot is not one */
	KUNIT_EXPECT_EQ(test, softrdma_mr_invalidate(ctx->sdev, &ctx->pd,
						     0xffff00, false), -EINVAL);

	/* registered again, after the invalidation */
	key = fast_key(&f, old_byte + 3);
	KUNIT_EXPECT_EQ(test, softrdma_mr_fast_reg(ctx->sdev, &ctx->pd, f.mr,
						   key, IB_ACCESS_LOCAL_WRITE),
			0);
	got = softrdma_mr_get(ctx->sdev, key);
	KUNIT_EXPECT_PTR_EQ(test, got, f.mr);
	if (got) {
		KUNIT_EXPECT_EQ(test, softrdma_mr_check(got, &ctx->pd, f.iova,
							8, IB_ACCESS_REMOTE_WRITE),
				-EACCES);
		softrdma_mr_put(got);
	}
	softrdma_mr_remove(ctx->sdev, f.mr);
}

/*
 * softrdma_mr_get_cached() answers as softrdma_mr_get() does: from its
 * cache while the key names the cached MR, through the key space when the
 * key names another MR, a fast-registration MR invalidated or registered
 * again with another key byte, or an MR whose deregistration began; every
 * reference balanced.
 */
static void softrdma_mr_lookup_cached(struct kunit *test)
{
	struct mr_test_ctx *ctx = test->priv;
	struct softrdma_dev *sdev = ctx->sdev;
	struct softrdma_mr *a, *cache = NULL, *got;
	struct fast_ctx f = {};
	u32 key_a, key, index;

	a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	a->pd = &ctx->pd;
	KUNIT_ASSERT_EQ(test, softrdma_mr_add(sdev, a), 0);
	KUNIT_ASSERT_EQ(test, softrdma_mr_publish(sdev, a), 0);
	key_a = a->key;

	/* found, and kept: one reference the caller's, one the cache's */
	got = softrdma_mr_get_cached(sdev, key_a, &cache);
	KUNIT_EXPECT_PTR_EQ(test, got, a);
	KUNIT_EXPECT_PTR_EQ(test, cache, a);
	KUNIT_EXPECT_EQ(test, kref_read(&a->ref), 3U);
	if (got)
		softrdma_mr_put(got);
	/* from the cache: a slot emptied behind it does not matter */
	index = softrdma_mr_key_index(key_a);
	xa_erase(&sdev->mr_xa, index);
	got = softrdma_mr_get_cached(sdev, key_a, &cache);
	KUNIT_EXPECT_PTR_EQ(test, got, a);
	if (got)
		softrdma_mr_put(got);
	/* but not once the deregistration began */
	WRITE_ONCE(a->dereg, true);
	KUNIT_EXPECT_NULL(test, softrdma_mr_get_cached(sdev, key_a, &cache));
	KUNIT_EXPECT_PTR_EQ(test, cache, a);
	WRITE_ONCE(a->dereg, false);
	KUNIT_ASSERT_EQ(test, xa_err(xa_store(&sdev->mr_xa, index, a,
					      GFP_KERNEL)), 0);
	/* another key byte of the same index names nothing */
	KUNIT_EXPECT_NULL(test, softrdma_mr_get_cached(sdev, key_a ^ 1,
						       &cache));
	KUNIT_EXPECT_EQ(test, kref_read(&a->ref), 2U);

	/* another MR: looked up, and the cache moves to it */
	fast_setup(test, &f, TEST_NPAGES);
	KUNIT_ASSERT_EQ(test, softrdma_map_mr_sg(&f.mr->ibmr, f.sg,
						 TEST_NPAGES, NULL),
			TEST_NPAGES);
	key = fast_key(&f, softrdma_mr_key_byte(f.mr->key) + 1);
	KUNIT_EXPECT_NULL(test, softrdma_mr_get_cached(sdev, key, &cache));
	KUNIT_ASSERT_EQ(test, softrdma_mr_fast_reg(sdev, &ctx->pd, f.mr, key,
						   IB_ACCESS_LOCAL_WRITE), 0);
	got = softrdma_mr_get_cached(sdev, key, &cache);
	KUNIT_EXPECT_PTR_EQ(test, got, f.mr);
	KUNIT_EXPECT_PTR_EQ(test, cache, f.mr);
	KUNIT_EXPECT_EQ(test, kref_read(&a->ref), 1U);
	if (got)
		softrdma_mr_put(got);

	/* invalidated: the cache does not answer, as the key space would not */
	KUNIT_EXPECT_EQ(test, softrdma_mr_invalidate(sdev, &ctx->pd, key,
						     true), 0);
	KUNIT_EXPECT_NULL(test, softrdma_mr_get_cached(sdev, key, &cache));
	/* registered again with a new key byte: only the new key finds it */
	KUNIT_ASSERT_EQ(test, softrdma_mr_fast_reg(sdev, &ctx->pd, f.mr,
						   fast_key(&f,
							    softrdma_mr_key_byte(key) + 1),
						   IB_ACCESS_LOCAL_WRITE), 0);
	KUNIT_EXPECT_NULL(test, softrdma_mr_get_cached(sdev, key, &cache));
	key = f.mr->key;
	got = softrdma_mr_get_cached(sdev, key, &cache);
	KUNIT_EXPECT_PTR_EQ(test, got, f.mr);
	if (got)
		softrdma_mr_put(got);
	KUNIT_EXPECT_EQ(test, kref_read(&f.mr->ref), 2U);

	if (cache)
		softrdma_mr_put(cache);
	softrdma_mr_remove(sdev, f.mr);
	softrdma_mr_remove(sdev, a);
}

/*
 * A consumer's scatterlist longer than the page list maps only what fits;
 * a registration never reaches past what was mapped, and a page size
 * below PAGE_SIZE is refused.
 */
static void softrdma_mr_fast_reg_limits(struct kunit *test)
{
	struct mr_test_ctx *ctx = test->priv;
	struct fast_ctx f = {};
	struct softrdma_mr *got;
	u32 key;

	fast_setup(test, &f, TEST_NPAGES - 1);
	key = fast_key(&f, softrdma_mr_key_byte(f.mr->key) + 1);

	KUNIT_EXPECT_EQ(test, softrdma_map_mr_sg(&f.mr->ibmr, f.sg,
						 TEST_NPAGES, NULL),
			TEST_NPAGES - 1);
	KUNIT_EXPECT_EQ(test, f.mr->pbl_mapped, (u32)TEST_NPAGES - 1);

	f.mr->ibmr.page_size = PAGE_SIZE / 2;
	KUNIT_EXPECT_EQ(test, softrdma_mr_fast_reg(ctx->sdev, &ctx->pd, f.mr,
						   key, IB_ACCESS_LOCAL_WRITE),
			-EINVAL);
	f.mr->ibmr.page_size = PAGE_SIZE;
	/* a length the mapped blocks do not cover */
	f.mr->ibmr.length += PAGE_SIZE;
	KUNIT_EXPECT_EQ(test, softrdma_mr_fast_reg(ctx->sdev, &ctx->pd, f.mr,
						   key, IB_ACCESS_LOCAL_WRITE),
			-EINVAL);
	f.mr->ibmr.length -= PAGE_SIZE;

	KUNIT_ASSERT_EQ(test, softrdma_mr_fast_reg(ctx->sdev, &ctx->pd, f.mr,
						   key, IB_ACCESS_LOCAL_WRITE),
			0);
	got = softrdma_mr_get(ctx->sdev, key);
	KUNIT_ASSERT_PTR_EQ(test, got, f.mr);
	KUNIT_EXPECT_EQ(test, softrdma_mr_check(got, &ctx->pd, f.iova,
						f.mr->ibmr.length, 0), 0);
	KUNIT_EXPECT_EQ(test, softrdma_mr_check(got, &ctx->pd, f.iova,
						f.mr->ibmr.length + 1, 0),
			-EFAULT);
	softrdma_mr_put(got);
	softrdma_mr_remove(ctx->sdev, f.mr);
}

static struct kunit_case softrdma_mr_cases[] = {
	KUNIT_CASE_PARAM(softrdma_mr_check_rules, check_gen_params),
	KUNIT_CASE_PARAM(softrdma_mr_access_flags, flags_gen_params),
	KUNIT_CASE_PARAM(softrdma_mr_key_round_trip, key_gen_params),
	KUNIT_CASE(softrdma_mr_lookup),
	KUNIT_CASE(softrdma_mr_keys_unpredictable),
	KUNIT_CASE(softrdma_mr_remove_waits_for_users),
	KUNIT_CASE_PARAM(softrdma_mr_copy_crosses_pages, copy_gen_params),
	KUNIT_CASE(softrdma_mr_copy_dma_kernel_va),
	KUNIT_CASE(softrdma_mr_copy_from_nonlinear_skb),
	KUNIT_CASE(softrdma_mr_skb_frags_balance),
	KUNIT_CASE(softrdma_mr_skb_frags_full),
	KUNIT_CASE(softrdma_mr_skb_frags_dma),
	KUNIT_CASE_PARAM(softrdma_mr_atomic_ops, atomic_gen_params),
	KUNIT_CASE(softrdma_mr_atomic_memory_misaligned),
	KUNIT_CASE_PARAM(softrdma_mr_atomic_write_store,
			 atomic_write_gen_params),
	KUNIT_CASE(softrdma_mr_atomic_concurrent),
	KUNIT_CASE(softrdma_mr_fast_reg_cycle),
	KUNIT_CASE(softrdma_mr_fast_reg_limits),
	KUNIT_CASE(softrdma_mr_lookup_cached),
	{}
};

static struct kunit_suite softrdma_mr_suite = {
	.name = "softrdma_mr",
	.init = mr_test_init,
	.exit = mr_test_exit,
	.test_cases = softrdma_mr_cases,
};

kunit_test_suite(softrdma_mr_suite);
