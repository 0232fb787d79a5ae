// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for res.c: a count never passes its limit, a refused create
 * leaves it alone, a destroy frees a slot, each limit is the one
 * query_device advertises, and a closed device (detached from the
 * network) gives no new user context nor QP.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/string.h>

#include "device.h"
#include "param.h"
#include "res.h"
#include "transport.h"

struct res_take_case {
	const char *name;
	int start;		/* the count before */
	u32 max;
	int ret;		/* softrdma_res_take() */
	int after;		/* the count after */
};

static const struct res_take_case res_take_cases[] = {
	{ "empty", 0, 4, 0, 1 },
	{ "one_left", 3, 4, 0, 4 },
	{ "full", 4, 4, -ENOMEM, 4 },
	{ "limit_zero", 0, 0, -ENOMEM, 0 },
	{ "limit_one", 0, 1, 0, 1 },
	{ "limit_one_full", 1, 1, -ENOMEM, 1 },
	{ "over_limit", 9, 4, -ENOMEM, 9 },
	{ "underflowed", -1, 4, -ENOMEM, -1 },
	{ "u32_max_limit", S32_MAX - 1, U32_MAX, 0, S32_MAX },
	{ "int_max", S32_MAX, U32_MAX, -ENOMEM, S32_MAX },
};

static void res_take_case_desc(const struct res_take_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(res_take, res_take_cases, res_take_case_desc);

static void softrdma_res_take_table(struct kunit *test)
{
	const struct res_take_case *c = test->param_value;
	atomic_t count = ATOMIC_INIT(c->start);

	KUNIT_EXPECT_EQ(test, softrdma_res_take(&count, c->max), c->ret);
	KUNIT_EXPECT_EQ(test, atomic_read(&count), c->after);
}

static const struct {
	const char *name;
	enum softrdma_res res;
	u32 attr;	/* struct ib_device_attr's field */
} res_attr_cases[] = {
	{ "pd", SOFTRDMA_RES_PD, offsetof(struct ib_device_attr, max_pd) },
	{ "cq", SOFTRDMA_RES_CQ, offsetof(struct ib_device_attr, max_cq) },
	{ "qp", SOFTRDMA_RES_QP, offsetof(struct ib_device_attr, max_qp) },
	{ "mr", SOFTRDMA_RES_MR, offsetof(struct ib_device_attr, max_mr) },
	/* even rows are RoCE devices: the only ones with windows */
	{ "mw", SOFTRDMA_RES_MW, offsetof(struct ib_device_attr, max_mw) },
};

/*
 * Fill a device to each limit through softrdma_res_get(): exactly the
 * advertised number succeed, the next fails with -ENOMEM, a put frees
 * one slot, and putting all back leaves the count at zero.
 */
static void softrdma_res_fill_to_advertised(struct kunit *test)
{
	struct softrdma_dev *sdev;
	struct ib_device_attr *attr;
	unsigned int i;
	u32 n, max;
	int err;

	sdev = kunit_kzalloc(test, sizeof(*sdev), GFP_KERNEL);
	attr = kunit_kzalloc(test, sizeof(*attr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sdev);
	KUNIT_ASSERT_NOT_NULL(test, attr);

	for (i = 0; i < ARRAY_SIZE(res_attr_cases); i++) {
		enum softrdma_res res = res_attr_cases[i].res;
		int *field = (void *)attr + res_attr_cases[i].attr;

		kunit_info(test, "%s\n", res_attr_cases[i].name);
		sdev->tp = i & 1 ? &softrdma_iwarp_transport :
				   &softrdma_roce_transport;
		memset(attr, 0, sizeof(*attr));
		softrdma_dev_fill_attr(sdev, attr);
		max = *field;
		KUNIT_ASSERT_GT(test, max, 0U);

		for (n = 0, err = 0; n < max && !err; n++)
			err = softrdma_res_get(&sdev->res, res);
		KUNIT_EXPECT_EQ(test, err, 0);
		KUNIT_EXPECT_EQ(test, softrdma_res_get(&sdev->res, res),
				-ENOMEM);
		KUNIT_EXPECT_EQ(test, (u32)atomic_read(&sdev->res.n[res]), max);
		softrdma_res_put(&sdev->res, res);
		KUNIT_EXPECT_EQ(test, softrdma_res_get(&sdev->res, res), 0);
		for (n = 0; n < max; n++)
			softrdma_res_put(&sdev->res, res);
		KUNIT_EXPECT_EQ(test, atomic_read(&sdev->res.n[res]), 0);
	}
}

struct res_close_case {
	const char *name;
	enum softrdma_res res;
	int ret;		/* softrdma_res_get() once closed */
};

static const struct res_close_case res_close_cases[] = {
	{ "ucontext", SOFTRDMA_RES_UCONTEXT, -ENODEV },
	{ "qp", SOFTRDMA_RES_QP, -ENODEV },
	{ "pd", SOFTRDMA_RES_PD, 0 },
	{ "cq", SOFTRDMA_RES_CQ, 0 },
	{ "mr", SOFTRDMA_RES_MR, 0 },
	{ "mw", SOFTRDMA_RES_MW, 0 },
};

static void res_close_case_desc(const struct res_close_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(res_close, res_close_cases, res_close_case_desc);

/*
 * An object held when the counts close stays counted and is put back as
 * usual; a new one of a kind that reaches the network is refused without
 * being counted, idempotently; the other kinds stay open.
 */
static void softrdma_res_closed_refuses(struct kunit *test)
{
	const struct res_close_case *c = test->param_value;
	struct softrdma_res_count *rc;

	rc = kunit_kzalloc(test, sizeof(*rc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rc);

	KUNIT_ASSERT_EQ(test, softrdma_res_get(rc, c->res), 0);
	softrdma_res_close(rc);
	KUNIT_EXPECT_EQ(test, softrdma_res_get(rc, c->res), c->ret);
	softrdma_res_close(rc);
	KUNIT_EXPECT_EQ(test, softrdma_res_get(rc, c->res), c->ret);
	KUNIT_EXPECT_EQ(test, atomic_read(&rc->n[c->res]), c->ret ? 1 : 3);

	softrdma_res_put(rc, c->res);
	if (!c->ret) {
		softrdma_res_put(rc, c->res);
		softrdma_res_put(rc, c->res);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&rc->n[c->res]), 0);
}

static struct kunit_case softrdma_res_cases[] = {
	KUNIT_CASE_PARAM(softrdma_res_take_table, res_take_gen_params),
	KUNIT_CASE(softrdma_res_fill_to_advertised),
	KUNIT_CASE_PARAM(softrdma_res_closed_refuses, res_close_gen_params),
	{}
};

static struct kunit_suite softrdma_res_suite = {
	.name = "softrdma_res",
	.test_cases = softrdma_res_cases,
};

kunit_test_suite(softrdma_res_suite);
