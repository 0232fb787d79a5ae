// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for psn.h: 24-bit PSN arithmetic across the wrap at 2^24.
 */
#include <kunit/test.h>

#include "psn.h"

struct psn_diff_case {
	const char *name;
	u32 a;
	u32 b;
	s32 diff;		/* psn_diff(a, b) */
};

static const struct psn_diff_case psn_diff_cases[] = {
	{ "equal", 0x123456, 0x123456, 0 },
	{ "equal_at_zero", 0, 0, 0 },
	{ "one_ahead", 0x000101, 0x000100, 1 },
	{ "one_behind", 0x000100, 0x000101, -1 },
	{ "ahead_across_wrap", 0x000001, 0xffffff, 2 },
	{ "behind_across_wrap", 0xffffff, 0x000001, -2 },
	{ "zero_after_max", 0x000000, 0xffffff, 1 },
	{ "max_before_zero", 0xffffff, 0x000000, -1 },
	{ "last_ahead", 0x7fffff, 0x000000, 0x7fffff },
	{ "half_is_behind", 0x800000, 0x000000, -0x800000 },
	{ "half_is_behind_reversed", 0x000000, 0x800000, -0x800000 },
	{ "first_behind", 0x800001, 0x000000, -0x7fffff },
	{ "last_ahead_across_wrap", 0x7ffffe, 0xffffff, 0x7fffff },
	{ "upper_bits_ignored", 0xff000005, 0x00000003, 2 },
	{ "upper_bits_ignored_b", 0x00000003, 0xab000005, -2 },
};

static void psn_diff_case_desc(const struct psn_diff_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(psn_diff, psn_diff_cases, psn_diff_case_desc);

static void softrdma_psn_diff_and_order(struct kunit *test)
{
	const struct psn_diff_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, psn_diff(c->a, c->b), c->diff);
	KUNIT_EXPECT_EQ(test, psn_before(c->a, c->b), c->diff < 0);
	KUNIT_EXPECT_EQ(test, psn_after(c->a, c->b), c->diff > 0);
	/* the distance, applied, leads back to a */
	KUNIT_EXPECT_EQ(test, psn_add(c->b, c->diff), c->a & PSN_MASK);
}

struct psn_add_case {
	const char *name;
	u32 psn;
	u32 n;
	u32 sum;
};

static const struct psn_add_case psn_add_cases[] = {
	{ "plain", 0x000010, 5, 0x000015 },
	{ "to_max", 0xfffffe, 1, 0xffffff },
	{ "wrap_to_zero", 0xffffff, 1, 0x000000 },
	{ "wrap_past_zero", 0xfffffd, 5, 0x000002 },
	{ "whole_space", 0x123456, 0x1000000, 0x123456 },
	{ "minus_one", 0x000000, (u32)-1, 0xffffff },
	{ "zero", 0xabcdef, 0, 0xabcdef },
};

static void psn_add_case_desc(const struct psn_add_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(psn_add, psn_add_cases, psn_add_case_desc);

static void softrdma_psn_add_sub(struct kunit *test)
{
	const struct psn_add_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, psn_add(c->psn, c->n), c->sum);
	KUNIT_EXPECT_EQ(test, psn_sub(c->sum, c->n), c->psn);
}

struct psn_window_case {
	const char *name;
	u32 psn;
	u32 start;
	u32 len;
	bool in;
};

static const struct psn_window_case psn_window_cases[] = {
	{ "start_edge", 0x000100, 0x000100, 16, true },
	{ "last_edge", 0x00010f, 0x000100, 16, true },
	{ "one_past_end", 0x000110, 0x000100, 16, false },
	{ "one_before_start", 0x0000ff, 0x000100, 16, false },
	{ "empty_window", 0x000100, 0x000100, 0, false },
	{ "single", 0x000100, 0x000100, 1, true },
	{ "wrap_start", 0xfffffe, 0xfffffe, 4, true },
	{ "wrap_max", 0xffffff, 0xfffffe, 4, true },
	{ "wrap_zero", 0x000000, 0xfffffe, 4, true },
	{ "wrap_last", 0x000001, 0xfffffe, 4, true },
	{ "wrap_one_past", 0x000002, 0xfffffe, 4, false },
	{ "wrap_one_before", 0xfffffd, 0xfffffe, 4, false },
	{ "whole_space", 0x7a7a7a, 0x123456, 0x1000000, true },
	{ "half_space_last", 0x7fffff, 0x000000, 0x800000, true },
	{ "half_space_past", 0x800000, 0x000000, 0x800000, false },
};

static void psn_window_case_desc(const struct psn_window_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(psn_window, psn_window_cases, psn_window_case_desc);

static void softrdma_psn_window_edges(struct kunit *test)
{
	const struct psn_window_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, psn_in_window(c->psn, c->start, c->len), c->in);
}

/*
 * before/after are antisymmetric and exclusive over a sweep of the space,
 * except at exactly 2^23 apart, where each PSN is behind the other.
 */
static void softrdma_psn_order_antisymmetric(struct kunit *test)
{
	static const u32 base[] = { 0, 1, 0x7fffff, 0x800000, 0xfffffe,
				    0xffffff };
	u32 i, step;

	for (i = 0; i < ARRAY_SIZE(base); i++) {
		for (step = 0; step <= PSN_MASK; step += 0x1fff) {
			u32 a = base[i], b = psn_add(base[i], step);

			KUNIT_ASSERT_EQ_MSG(test, psn_before(a, b),
					    psn_after(b, a),
					    "a %06x b %06x", a, b);
			KUNIT_ASSERT_FALSE_MSG(test,
					       psn_before(a, b) &&
					       psn_after(a, b),
					       "a %06x b %06x", a, b);
			KUNIT_ASSERT_EQ_MSG(test, psn_before(a, b) ||
					    psn_after(a, b), a != b,
					    "a %06x b %06x", a, b);
		}
	}
	KUNIT_EXPECT_TRUE(test, psn_before(0x000000, PSN_HALF));
	KUNIT_EXPECT_TRUE(test, psn_before(PSN_HALF, 0x000000));
	KUNIT_EXPECT_TRUE(test, psn_before(0xffffff, 0x7fffff));
	KUNIT_EXPECT_TRUE(test, psn_before(0x7fffff, 0xffffff));
}

static struct kunit_case softrdma_psn_cases[] = {
	KUNIT_CASE_PARAM(softrdma_psn_diff_and_order, psn_diff_gen_params),
	KUNIT_CASE_PARAM(softrdma_psn_add_sub, psn_add_gen_params),
	KUNIT_CASE_PARAM(softrdma_psn_window_edges, psn_window_gen_params),
	KUNIT_CASE(softrdma_psn_order_antisymmetric),
	{}
};

static struct kunit_suite softrdma_psn_suite = {
	.name = "softrdma_psn",
	.test_cases = softrdma_psn_cases,
};

kunit_test_suite(softrdma_psn_suite);
