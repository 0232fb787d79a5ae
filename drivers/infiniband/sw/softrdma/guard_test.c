// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for guard.c: which modules softrdma refuses to live beside.
 */
#include <kunit/test.h>

#include "guard.h"

struct rival_case {
	const char *module;
	bool rival;
};

static const struct rival_case rival_cases[] = {
	{ "rdma_rxe", true },
	{ "siw", true },
	{ "softrdma", false },
	{ "ib_core", false },
	{ "rdma_rxe2", false },
	{ "rdma_rx", false },
	{ "siw_", false },
	{ "si", false },
	{ "SIW", false },
	{ "", false },
};

static void rival_case_desc(const struct rival_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", c->module);
}

KUNIT_ARRAY_PARAM(rival, rival_cases, rival_case_desc);

static void softrdma_guard_rival_names(struct kunit *test)
{
	const struct rival_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, softrdma_guard_is_rival(c->module), c->rival);
}

static struct kunit_case softrdma_guard_cases[] = {
	KUNIT_CASE_PARAM(softrdma_guard_rival_names, rival_gen_params),
	{}
};

static struct kunit_suite softrdma_guard_suite = {
	.name = "softrdma_guard",
	.test_cases = softrdma_guard_cases,
};

kunit_test_suite(softrdma_guard_suite);
