// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for mw.c: the binding rules of IBA 10.6.7.2, the offset
 * math of (zero-based) windows, and R_Key lookup, invalidation, MR dereg
 * and QP destruction through windows of a device's key space.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "counters.h"
#include "device.h"
#include "mr.h"
#include "mw.h"
#include "qp.h"

#define MR_IOVA		0x10000ULL
#define MR_LEN		0x4000ULL
#define RW		(IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE)

/* ------------------------------------------------------ window ranges */

static const struct mw_range_case {
	const char *name;
	u64 w_addr, w_len;
	bool zb;
	u64 va, len;
	bool ok;
	u64 mr_va;
} mw_range_cases[] = {
	{ "va whole window", 0x1000, 0x100, false, 0x1000, 0x100, true, 0x1000 },
	{ "va last byte", 0x1000, 0x100, false, 0x10ff, 1, true, 0x10ff },
	{ "va one past end", 0x1000, 0x100, false, 0x1001, 0x100, false },
	{ "va one before start", 0x1000, 0x100, false, 0xfff, 1, false },
	{ "va offset as address", 0x1000, 0x100, false, 0x10, 1, false },
	{ "zb offset 0", 0x1000, 0x100, true, 0, 0x100, true, 0x1000 },
	{ "zb offset maps past addr", 0x1000, 0x100, true, 0x80, 8, true,
	  0x1080 },
	{ "zb window address refused", 0x1000, 0x100, true, 0x1000, 1, false },
	{ "zb one past end", 0x1000, 0x100, true, 0xf9, 8, false },
	{ "zb offset wraps", 0x1000, 0x100, true, U64_MAX - 3, 8, false },
	{ "va end wraps", 0x1000, 0x100, false, 0x1080, U64_MAX, false },
	{ "len over window", 0x1000, 0x100, false, 0x1000, 0x101, false },
};

static void mw_range_case_desc(const struct mw_range_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mw_range, mw_range_cases, mw_range_case_desc);

static void softrdma_mw_range_table(struct kunit *test)
{
	const struct mw_range_case *c = test->param_value;
	u64 mr_va = 0;

	KUNIT_EXPECT_EQ(test, softrdma_mw_range(c->w_addr, c->w_len, c->zb,
						c->va, c->len, &mr_va), c->ok);
	if (c->ok)
		KUNIT_EXPECT_EQ(test, mr_va, c->mr_va);
}

/* ------------------------------------------------------ binding rules */

enum { PD_QP, PD_OTHER };

static const struct mw_bind_case {
	const char *name;
	enum ib_mw_type type;
	bool bound;		/* window already bound (to the same MR) */
	int mr_access;
	u32 mr_type;
	int mr_pd, mw_pd;
	bool no_mr;
	u32 key_xor;		/* applied to the bind's mw_rkey */
	int access;
	u64 addr, length;
	int err;
} mw_bind_cases[] = {
	{ "type 1 ok", IB_MW_TYPE_1, false, IB_ACCESS_LOCAL_WRITE |
	  IB_ACCESS_MW_BIND, SOFTRDMA_MR_USER, PD_QP, PD_QP, false, 0, RW,
	  MR_IOVA, MR_LEN, 0 },
	{ "type 1 rebind ok", IB_MW_TYPE_1, true, IB_ACCESS_LOCAL_WRITE |
	  IB_ACCESS_MW_BIND, SOFTRDMA_MR_USER, PD_QP, PD_QP, false, 0, RW,
	  MR_IOVA, 8, 0 },
	{ "type 1 unbind by length 0", IB_MW_TYPE_1, true, 0,
	  SOFTRDMA_MR_USER, PD_QP, PD_QP, true, 0, 0, 0, 0, 0 },
	{ "type 1 zero based", IB_MW_TYPE_1, false, IB_ACCESS_LOCAL_WRITE |
	  IB_ACCESS_MW_BIND, SOFTRDMA_MR_USER, PD_QP, PD_QP, false, 0,
	  IB_ACCESS_REMOTE_READ | IB_ZERO_BASED, MR_IOVA, 8, -EINVAL },
	{ "type 2 zero based ok", IB_MW_TYPE_2, false, IB_ACCESS_LOCAL_WRITE |
	  IB_ACCESS_MW_BIND, SOFTRDMA_MR_USER, PD_QP, PD_QP, false, 0,
	  IB_ACCESS_REMOTE_READ | IB_ZERO_BASED, MR_IOVA + 8, 8, 0 },
	{ "type 2 bound", IB_MW_TYPE_2, true, IB_ACCESS_LOCAL_WRITE |
	  IB_ACCESS_MW_BIND, SOFTRDMA_MR_USER, PD_QP, PD_QP, false, 0, RW,
	  MR_IOVA, 8, -EINVAL },
	{ "type 2 length 0", IB_MW_TYPE_2, false, IB_ACCESS_LOCAL_WRITE |
	  IB_ACCESS_MW_BIND, SOFTRDMA_MR_USER, PD_QP, PD_QP, true, 0, RW,
	  0, 0, -EINVAL },
	{ "no MW_BIND on MR", IB_MW_TYPE_1, false, IB_ACCESS_LOCAL_WRITE |
	  IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE, SOFTRDMA_MR_USER,
	  PD_QP, PD_QP, false, 0, IB_ACCESS_REMOTE_READ, MR_IOVA, 8, -EINVAL },
	{ "remote write needs local write", IB_MW_TYPE_2, false,
	  IB_ACCESS_MW_BIND | IB_ACCESS_REMOTE_WRITE, SOFTRDMA_MR_USER, PD_QP,
	  PD_QP, false, 0, IB_ACCESS_REMOTE_WRITE, MR_IOVA, 8, -EINVAL },
	{ "atomic needs local write", IB_MW_TYPE_1, false, IB_ACCESS_MW_BIND,
	  SOFTRDMA_MR_USER, PD_QP, PD_QP, false, 0, IB_ACCESS_REMOTE_ATOMIC,
	  MR_IOVA, 8, -EINVAL },
	{ "read only of read-only MR ok", IB_MW_TYPE_1, false,
	  IB_ACCESS_MW_BIND, SOFTRDMA_MR_USER, PD_QP, PD_QP, false, 0,
	  IB_ACCESS_REMOTE_READ, MR_IOVA, 8, 0 },
	{ "starts before MR", IB_MW_TYPE_1, false, IB_ACCESS_LOCAL_WRITE |
	  IB_ACCESS_MW_BIND, SOFTRDMA_MR_USER, PD_QP, PD_QP, false, 0, RW,
	  MR_IOVA - 1, 8, -EINVAL },
	{ "ends past MR", IB_MW_TYPE_2, false, IB_ACCESS_LOCAL_WRITE |
	  IB_ACCESS_MW_BIND, SOFTRDMA_MR_USER, PD_QP, PD_QP, false, 0, RW,
	  MR_IOVA + 1, MR_LEN, -EINVAL },
	{ "zero based ends past MR", IB_MW_TYPE_2, false,
	  IB_ACCESS_LOCAL_WRITE | IB_ACCESS_MW_BIND, SOFTRDMA_MR_USER, PD_QP,
	  PD_QP, false, 0, RW | IB_ZERO_BASED, MR_IOVA + 8, MR_LEN, -EINVAL },
	{ "MR of another PD", IB_MW_TYPE_1, false, IB_ACCESS_LOCAL_WRITE |
	  IB_ACCESS_MW_BIND, SOFTRDMA_MR_USER, PD_OTHER, PD_QP, false, 0, RW,
	  MR_IOVA, 8, -EINVAL },
	{ "type 2 window of another PD", IB_MW_TYPE_2, false,
	  IB_ACCESS_LOCAL_WRITE | IB_ACCESS_MW_BIND, SOFTRDMA_MR_USER,
	  PD_OTHER, PD_OTHER, false, 0, RW, MR_IOVA, 8, -EINVAL },
	{ "stale window key", IB_MW_TYPE_1, false, IB_ACCESS_LOCAL_WRITE |
	  IB_ACCESS_MW_BIND, SOFTRDMA_MR_USER, PD_QP, PD_QP, false, 1, RW,
	  MR_IOVA, 8, -EINVAL },
	{ "local right asked", IB_MW_TYPE_1, false, IB_ACCESS_LOCAL_WRITE |
	  IB_ACCESS_MW_BIND, SOFTRDMA_MR_USER, PD_QP, PD_QP, false, 0,
	  IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ, MR_IOVA, 8, -EINVAL },
	{ "kernel DMA MR", IB_MW_TYPE_1, false, IB_ACCESS_LOCAL_WRITE |
	  IB_ACCESS_MW_BIND, SOFTRDMA_MR_DMA, PD_QP, PD_QP, false, 0, RW,
	  MR_IOVA, 8, -EINVAL },
	{ "no MR for a length", IB_MW_TYPE_1, false, 0, SOFTRDMA_MR_USER,
	  PD_QP, PD_QP, true, 0, RW, MR_IOVA, 8, -EINVAL },
};

static void mw_bind_case_desc(const struct mw_bind_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mw_bind, mw_bind_cases, mw_bind_case_desc);

static void softrdma_mw_bind_rules(struct kunit *test)
{
	const struct mw_bind_case *c = test->param_value;
	struct softrdma_mr *mr;
	struct softrdma_mw_entry *mw;
	struct ib_pd *pds;
	struct ib_qp *qp;
	struct softrdma_mw_bind b = {
		.access = c->access,
		.addr = c->addr,
		.length = c->length,
	};

	pds = kunit_kcalloc(test, 2, sizeof(*pds), GFP_KERNEL);
	mr = kunit_kzalloc(test, sizeof(*mr), GFP_KERNEL);
	mw = kunit_kzalloc(test, sizeof(*mw), GFP_KERNEL);
	qp = kunit_kzalloc(test, sizeof(*qp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pds);
	KUNIT_ASSERT_NOT_NULL(test, mr);
	KUNIT_ASSERT_NOT_NULL(test, mw);
	KUNIT_ASSERT_NOT_NULL(test, qp);

	qp->pd = &pds[PD_QP];
	mr->type = c->mr_type;
	mr->pd = &pds[c->mr_pd];
	mr->access = c->mr_access;
	mr->iova = MR_IOVA;
	mr->length = c->mr_type == SOFTRDMA_MR_DMA ? U64_MAX : MR_LEN;
	mw->type = c->type;
	mw->pd = &pds[c->mw_pd];
	mw->key = 0x12345678;
	if (c->bound)
		mw->mr = mr;
	b.mw_rkey = mw->key ^ c->key_xor;

	KUNIT_EXPECT_EQ(test, softrdma_mw_bind_check(mw, c->no_mr ? NULL : mr,
						     qp, &b), c->err);
}

/* ------------------------------------------- a device's key space */

struct mw_dev {
	struct softrdma_dev *sdev;
	struct ib_pd pd[2];
	struct softrdma_qp qp[2];	/* both in pd[0] */
	struct softrdma_mr *mr;	/* user MR in pd[0], MR_IOVA + MR_LEN */
	struct softrdma_mw *mw;
};

/* A window allocated as the RDMA core does; mw_dev_dealloc() is the core's */
static struct softrdma_mw *mw_dev_alloc(struct kunit *test, struct mw_dev *d,
					enum ib_mw_type type, struct ib_pd *pd)
{
	struct softrdma_mw *mw = kunit_kzalloc(test, sizeof(*mw), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, mw);
	mw->ibmw.device = &d->sdev->ibdev;
	mw->ibmw.pd = pd;
	mw->ibmw.type = type;
	KUNIT_ASSERT_EQ(test, softrdma_mw_ops.alloc_mw(&mw->ibmw, NULL), 0);
	return mw;
}

static void mw_dev_dealloc(struct kunit *test, struct softrdma_mw *mw)
{
	KUNIT_EXPECT_EQ(test, softrdma_mw_ops.dealloc_mw(&mw->ibmw), 0);
	kunit_kfree(test, mw);
}

static struct mw_dev *mw_dev_new(struct kunit *test, enum ib_mw_type type)
{
	struct mw_dev *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, d);
	d->sdev = kunit_kzalloc(test, sizeof(*d->sdev), GFP_KERNEL);
	d->mr = kzalloc(sizeof(*d->mr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d->sdev);
	KUNIT_ASSERT_NOT_NULL(test, d->mr);
	xa_init_flags(&d->sdev->mr_xa, XA_FLAGS_ALLOC1);
	KUNIT_ASSERT_EQ(test, softrdma_counters_alloc(d->sdev), 0);
	d->pd[0].device = &d->sdev->ibdev;
	d->pd[1].device = &d->sdev->ibdev;
	d->qp[0].sdev = d->sdev;
	d->qp[0].ibqp.pd = &d->pd[0];
	d->qp[1].sdev = d->sdev;
	d->qp[1].ibqp.pd = &d->pd[0];

	d->mr->type = SOFTRDMA_MR_USER;
	d->mr->pd = &d->pd[0];
	d->mr->access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_MW_BIND;
	d->mr->iova = MR_IOVA;
	d->mr->length = MR_LEN;
	KUNIT_ASSERT_EQ(test, softrdma_mr_add(d->sdev, d->mr), 0);
	KUNIT_ASSERT_EQ(test, softrdma_mr_publish(d->sdev, d->mr), 0);

	d->mw = mw_dev_alloc(test, d, type, &d->pd[0]);
	return d;
}

/* dealloc, dereg: the device's key space ends empty, every count zero */
static void mw_dev_free(struct kunit *test, struct mw_dev *d)
{
	mw_dev_dealloc(test, d->mw);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->qp[0].mw_bound), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->qp[1].mw_bound), 0);
	KUNIT_EXPECT_EQ(test, d->mr->num_mw, 0U);
	KUNIT_EXPECT_EQ(test, kref_read(&d->mr->ref), 1U);
	KUNIT_EXPECT_EQ(test, softrdma_dereg_mr(&d->mr->ibmr, NULL), 0);
	KUNIT_EXPECT_TRUE(test, xa_empty(&d->sdev->mr_xa));
	KUNIT_EXPECT_EQ(test, atomic_read(&d->sdev->res.n[SOFTRDMA_RES_MW]), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->sdev->res.n[SOFTRDMA_RES_MR]), 0);
	softrdma_counters_free(d->sdev);
}

static int mw_dev_bind(struct mw_dev *d, struct softrdma_qp *qp, u8 key,
		       int access, u64 addr, u64 length)
{
	struct softrdma_mw_bind b = {
		.mw_rkey = d->mw->entry->key,
		.mr_lkey = d->mr->key,
		.rkey = key,
		.access = access,
		.addr = addr,
		.length = length,
	};

	return softrdma_mw_bind(d->sdev, qp, &b);
}

static const struct mw_rkey_case {
	const char *name;
	enum ib_mw_type type;
	int mw_access;
	u64 w_addr, w_len;
	int qp;			/* the responder's QP */
	u32 key_xor;
	int access;
	u64 va, len;
	int err;
	u64 mr_va;
} mw_rkey_cases[] = {
	{ "type 1 read", IB_MW_TYPE_1, RW, MR_IOVA + 0x100, 0x100, 1, 0,
	  IB_ACCESS_REMOTE_READ, MR_IOVA + 0x100, 0x100, 0, MR_IOVA + 0x100 },
	{ "type 1 any QP of the PD", IB_MW_TYPE_1, RW, MR_IOVA, 0x100, 1, 0,
	  IB_ACCESS_REMOTE_WRITE, MR_IOVA + 8, 8, 0, MR_IOVA + 8 },
	{ "type 2 through its QP", IB_MW_TYPE_2, RW, MR_IOVA, 0x100, 0, 0,
	  IB_ACCESS_REMOTE_WRITE, MR_IOVA + 8, 8, 0, MR_IOVA + 8 },
	{ "type 2 other QP", IB_MW_TYPE_2, RW, MR_IOVA, 0x100, 1, 0,
	  IB_ACCESS_REMOTE_WRITE, MR_IOVA + 8, 8, -EACCES },
	{ "zero based offset", IB_MW_TYPE_2,
	  IB_ACCESS_REMOTE_READ | IB_ZERO_BASED, MR_IOVA + 0x200, 0x100, 0, 0,
	  IB_ACCESS_REMOTE_READ, 0x10, 8, 0, MR_IOVA + 0x210 },
	{ "zero based address refused", IB_MW_TYPE_2,
	  IB_ACCESS_REMOTE_READ | IB_ZERO_BASED, MR_IOVA + 0x200, 0x100, 0, 0,
	  IB_ACCESS_REMOTE_READ, MR_IOVA + 0x200, 8, -EACCES },
	{ "past window in MR", IB_MW_TYPE_1, RW, MR_IOVA, 0x100, 0, 0,
	  IB_ACCESS_REMOTE_READ, MR_IOVA + 0xf9, 8, -EACCES },
	{ "right not granted", IB_MW_TYPE_1, IB_ACCESS_REMOTE_READ, MR_IOVA,
	  0x100, 0, 0, IB_ACCESS_REMOTE_WRITE, MR_IOVA, 8, -EACCES },
	{ "atomic not granted", IB_MW_TYPE_2, RW, MR_IOVA, 0x100, 0, 0,
	  IB_ACCESS_REMOTE_ATOMIC, MR_IOVA, 8, -EACCES },
	{ "stale key byte", IB_MW_TYPE_1, RW, MR_IOVA, 0x100, 0, 0x01,
	  IB_ACCESS_REMOTE_READ, MR_IOVA, 8, -EACCES },
};

static void mw_rkey_case_desc(const struct mw_rkey_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mw_rkey, mw_rkey_cases, mw_rkey_case_desc);

/*
 * Bind a window, then resolve its R_Key as the responder does: the MR
 * behind it, referenced, and the MR address of the access; or nothing.
 */
static void softrdma_mw_rkey_lookup(struct kunit *test)
{
	const struct mw_rkey_case *c = test->param_value;
	struct mw_dev *d = mw_dev_new(test, c->type);
	struct softrdma_mr *mr = NULL;
	u64 mr_va = 0;
	int err;

	KUNIT_ASSERT_EQ(test, mw_dev_bind(d, &d->qp[0], 0x5a, c->mw_access,
					  c->w_addr, c->w_len), 0);
	KUNIT_EXPECT_EQ(test, d->mw->entry->key & 0xff, 0x5aU);
	KUNIT_EXPECT_EQ(test, d->mr->num_mw, 1U);

	err = softrdma_mw_rkey(d->sdev, &d->qp[c->qp],
			       d->mw->entry->key ^ c->key_xor,
			       c->va, c->len, c->access, &mr, &mr_va);
	KUNIT_EXPECT_EQ(test, err, c->err);
	if (!err) {
		KUNIT_EXPECT_PTR_EQ(test, mr, d->mr);
		KUNIT_EXPECT_EQ(test, mr_va, c->mr_va);
		softrdma_mr_put(mr);
	}
	/* a window's key is never an MR's, nor an MR's a window's */
	KUNIT_EXPECT_NULL(test, softrdma_mr_get(d->sdev, d->mw->entry->key));
	KUNIT_EXPECT_EQ(test, softrdma_mw_rkey(d->sdev, &d->qp[0],
					       d->mr->key,
					       MR_IOVA, 8,
					       IB_ACCESS_REMOTE_READ, &mr,
					       &mr_va), -ENOENT);
	mw_dev_free(test, d);
}

/*
 * A bound MR refuses dereg; invalidation of a type 2 window (only through
 * its QP, by its whole key) or destroying its QP unbinds it, and its key
 * then reaches nothing.
 */
static void softrdma_mw_invalidate_and_qp_gone(struct kunit *test)
{
	struct mw_dev *d = mw_dev_new(test, IB_MW_TYPE_2);
	struct softrdma_mr *mr;
	u64 mr_va;
	u32 key;

	KUNIT_ASSERT_EQ(test, mw_dev_bind(d, &d->qp[0], 1, RW, MR_IOVA, 8), 0);
	key = d->mw->entry->key;
	KUNIT_EXPECT_EQ(test, softrdma_dereg_mr(&d->mr->ibmr, NULL), -EINVAL);
	/* a bound type 2 window binds again only once invalidated */
	KUNIT_EXPECT_EQ(test, mw_dev_bind(d, &d->qp[0], 2, RW, MR_IOVA, 8),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, softrdma_mw_invalidate(d->sdev, &d->qp[1], key),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, softrdma_mw_invalidate(d->sdev, &d->qp[0],
						     key ^ 0x80), -EINVAL);
	KUNIT_EXPECT_EQ(test, softrdma_mw_invalidate(d->sdev, &d->qp[0],
						     d->mr->key), -ENOENT);
	KUNIT_EXPECT_EQ(test, softrdma_mw_invalidate(d->sdev, &d->qp[0], key),
			0);
	KUNIT_EXPECT_EQ(test, d->mr->num_mw, 0U);
	KUNIT_EXPECT_EQ(test, softrdma_mw_rkey(d->sdev, &d->qp[0], key, MR_IOVA,
					       8, IB_ACCESS_REMOTE_READ, &mr,
					       &mr_va), -EACCES);
	/* twice is an error: it is no longer bound */
	KUNIT_EXPECT_EQ(test, softrdma_mw_invalidate(d->sdev, &d->qp[0], key),
			-EINVAL);

	/* bound again, through qp[1]; qp[0] going changes nothing */
	KUNIT_ASSERT_EQ(test, mw_dev_bind(d, &d->qp[1], 3, RW, MR_IOVA, 8), 0);
	softrdma_mw_qp_gone(d->sdev, &d->qp[0]);
	KUNIT_EXPECT_EQ(test, d->mr->num_mw, 1U);
	softrdma_mw_qp_gone(d->sdev, &d->qp[1]);
	KUNIT_EXPECT_EQ(test, d->mr->num_mw, 0U);
	KUNIT_EXPECT_EQ(test, softrdma_mw_rkey(d->sdev, &d->qp[1],
					       d->mw->entry->key, MR_IOVA, 8,
					       IB_ACCESS_REMOTE_READ, &mr,
					       &mr_va), -EACCES);
	mw_dev_free(test, d);
}

static const struct mw_inv_case {
	const char *name;
	enum ib_mw_type type;	/* of the window the key names; 0: none */
	int pd;
	u32 key_xor;
} mw_inv_cases[] = {
	{ "other PD's type 2 window", IB_MW_TYPE_2, PD_OTHER, 0 },
	{ "other PD's window, stale key byte", IB_MW_TYPE_2, PD_OTHER, 0x80 },
	{ "other PD's type 1 window", IB_MW_TYPE_1, PD_OTHER, 0 },
	{ "own unbound type 2 window", IB_MW_TYPE_2, PD_QP, 0 },
	{ "own window, stale key byte", IB_MW_TYPE_2, PD_QP, 0x80 },
	{ "own type 1 window", IB_MW_TYPE_1, PD_QP, 0 },
	{ "index of no window", 0 },
};

static void mw_inv_case_desc(const struct mw_inv_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mw_inv, mw_inv_cases, mw_inv_case_desc);

/*
 * A LOCAL_INV that fails completes with one status, whatever the key's
 * index holds: a scan of keys tells no index with another PD's window
 * from an empty one.
 */
static void softrdma_mw_local_inv_status(struct kunit *test)
{
	const struct mw_inv_case *c = test->param_value;
	struct mw_dev *d = mw_dev_new(test, IB_MW_TYPE_2);
	struct softrdma_mw *mw = NULL;
	u32 index, key;

	if (c->type) {
		mw = mw_dev_alloc(test, d, c->type, &d->pd[c->pd]);
		key = mw->entry->key ^ c->key_xor;
	} else {
		for (index = 1; xa_load(&d->sdev->mr_xa, index); index++)
			;
		key = softrdma_mr_key(index, 0x5a);
	}
	KUNIT_EXPECT_EQ(test, softrdma_qp_local_inv(&d->qp[0], key),
			IB_WC_MW_BIND_ERR);
	if (mw)
		mw_dev_dealloc(test, mw);
	mw_dev_free(test, d);
}

/*
 * Fast-registration MRs are a kernel consumer's.  A user's LOCAL_INV of
 * one, in another PD, fails as a LOCAL_INV of an empty index does, with
 * the whole key or a stale key byte, and leaves it valid: a scan of keys
 * does not map the kernel's MRs.  A kernel QP's is told the PD is wrong.
 */
static void softrdma_mw_local_inv_fast_mr(struct kunit *test)
{
	struct mw_dev *d = mw_dev_new(test, IB_MW_TYPE_2);
	struct softrdma_mr *fast = kzalloc(sizeof(*fast), GFP_KERNEL);
	u32 key;

	KUNIT_ASSERT_NOT_NULL(test, fast);
	fast->type = SOFTRDMA_MR_FAST;
	fast->pd = &d->pd[1];
	KUNIT_ASSERT_EQ(test, softrdma_mr_add(d->sdev, fast), 0);
	KUNIT_ASSERT_EQ(test, softrdma_mr_publish(d->sdev, fast), 0);
	WRITE_ONCE(fast->valid, true);	/* as after the ULP's REG_MR */
	key = fast->key;

	d->qp[0].user = true;
	KUNIT_EXPECT_EQ(test, softrdma_qp_local_inv(&d->qp[0], key),
			IB_WC_MW_BIND_ERR);
	KUNIT_EXPECT_EQ(test, softrdma_qp_local_inv(&d->qp[0], key ^ 0x80),
			IB_WC_MW_BIND_ERR);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(fast->valid));

	d->qp[0].user = false;
	KUNIT_EXPECT_EQ(test, softrdma_qp_local_inv(&d->qp[0], key ^ 0x80),
			IB_WC_LOC_PROT_ERR);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(fast->valid));

	KUNIT_EXPECT_EQ(test, softrdma_dereg_mr(&fast->ibmr, NULL), 0);
	mw_dev_free(test, d);
}

/*
 * A QP counts the type 2 windows bound through it until each lets it go:
 * by invalidation, dealloc (mw_dev_free()) or the QP's destruction.  A
 * refused bind counts nothing, and a QP with nothing counted is not looked
 * for in the key space.
 */
static void softrdma_mw_qp_count(struct kunit *test)
{
	struct mw_dev *d = mw_dev_new(test, IB_MW_TYPE_2);
	atomic_t *bound0 = &d->qp[0].mw_bound;
	atomic_t *bound1 = &d->qp[1].mw_bound;

	KUNIT_ASSERT_EQ(test, mw_dev_bind(d, &d->qp[0], 1, RW, MR_IOVA, 8), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(bound0), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(bound1), 0);
	KUNIT_EXPECT_EQ(test, mw_dev_bind(d, &d->qp[1], 2, RW, MR_IOVA, 8),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(bound1), 0);
	KUNIT_EXPECT_EQ(test, softrdma_mw_invalidate(d->sdev, &d->qp[0],
						     d->mw->entry->key), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(bound0), 0);

	KUNIT_ASSERT_EQ(test, mw_dev_bind(d, &d->qp[1], 3, RW, MR_IOVA, 8), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(bound1), 1);
	/* with its count hidden, qp[1]'s window is not looked for */
	atomic_set(bound1, 0);
	softrdma_mw_qp_gone(d->sdev, &d->qp[1]);
	KUNIT_EXPECT_EQ(test, d->mr->num_mw, 1U);
	atomic_set(bound1, 1);
	softrdma_mw_qp_gone(d->sdev, &d->qp[1]);
	KUNIT_EXPECT_EQ(test, d->mr->num_mw, 0U);
	KUNIT_EXPECT_EQ(test, atomic_read(bound1), 0);

	KUNIT_ASSERT_EQ(test, mw_dev_bind(d, &d->qp[0], 4, RW, MR_IOVA, 8), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(bound0), 1);
	mw_dev_free(test, d);
}

#define MW_MANY		1024

/*
 * dealloc waits for no grace period: here it runs inside an RCU read-side
 * section, as a lookup that found the windows does, where waiting for one
 * would never return.  Every window lets its MR and QP go, and the entry
 * the lookup found stays readable, dead to a bind with its old key.
 */
static void softrdma_mw_dealloc_many(struct kunit *test)
{
	struct mw_dev *d = mw_dev_new(test, IB_MW_TYPE_2);
	struct softrdma_mw_bind b = {
		.mr_lkey = d->mr->key,
		.access = RW,
		.addr = MR_IOVA,
		.length = 8,
	};
	struct softrdma_mw_entry *found;
	struct softrdma_mw **mws;
	struct softrdma_mr *mr;
	int dealloc_err = 0;
	int bind_err, i;
	u64 mr_va;
	u32 key;

	mws = kunit_kcalloc(test, MW_MANY, sizeof(*mws), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mws);
	for (i = 0; i < MW_MANY; i++) {
		mws[i] = mw_dev_alloc(test, d, i % 2 ? IB_MW_TYPE_2 :
					IB_MW_TYPE_1, &d->pd[0]);
		b.mw_rkey = mws[i]->entry->key;
		b.rkey = i;
		KUNIT_ASSERT_EQ(test, softrdma_mw_bind(d->sdev, &d->qp[0], &b),
				0);
	}
	KUNIT_EXPECT_EQ(test, d->mr->num_mw, MW_MANY);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->qp[0].mw_bound), MW_MANY / 2);
	key = mws[1]->entry->key;

	rcu_read_lock();
	found = xa_untag_pointer(xa_load(&d->sdev->mr_xa,
					 softrdma_mr_key_index(key)));
	for (i = 0; i < MW_MANY; i++)
		dealloc_err |= softrdma_mw_ops.dealloc_mw(&mws[i]->ibmw);
	b.mw_rkey = key;
	bind_err = softrdma_mw_bind_check(found, d->mr, &d->qp[0].ibqp, &b);
	rcu_read_unlock();

	KUNIT_EXPECT_EQ(test, dealloc_err, 0);
	KUNIT_EXPECT_EQ(test, bind_err, -EINVAL);
	KUNIT_EXPECT_EQ(test, d->mr->num_mw, 0U);
	KUNIT_EXPECT_EQ(test, kref_read(&d->mr->ref), 1U);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->qp[0].mw_bound), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->sdev->res.n[SOFTRDMA_RES_MW]), 1);
	KUNIT_EXPECT_EQ(test, softrdma_mw_rkey(d->sdev, &d->qp[0], key, MR_IOVA,
					       8, IB_ACCESS_REMOTE_READ, &mr,
					       &mr_va), -ENOENT);
	for (i = 0; i < MW_MANY; i++)
		kunit_kfree(test, mws[i]);
	mw_dev_free(test, d);
}

/* Type 1: never invalidated; length 0 unbinds; dealloc unbinds too. */
static void softrdma_mw_type1_unbind(struct kunit *test)
{
	struct mw_dev *d = mw_dev_new(test, IB_MW_TYPE_1);
	u32 key;

	KUNIT_ASSERT_EQ(test, mw_dev_bind(d, &d->qp[0], 1, RW, MR_IOVA, 8), 0);
	/* only type 2 windows are bound through a QP */
	KUNIT_EXPECT_EQ(test, atomic_read(&d->qp[0].mw_bound), 0);
	key = d->mw->entry->key;
	KUNIT_EXPECT_EQ(test, softrdma_mw_invalidate(d->sdev, &d->qp[0], key),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mw_dev_bind(d, &d->qp[1], 2, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, d->mr->num_mw, 0U);
	KUNIT_EXPECT_NE(test, d->mw->entry->key, key);
	/* bound when deallocated: the MR is let go */
	KUNIT_ASSERT_EQ(test, mw_dev_bind(d, &d->qp[0], 3, RW, MR_IOVA, 8), 0);
	KUNIT_EXPECT_EQ(test, d->mr->num_mw, 1U);
	mw_dev_free(test, d);
}

static struct kunit_case softrdma_mw_cases[] = {
	KUNIT_CASE_PARAM(softrdma_mw_range_table, mw_range_gen_params),
	KUNIT_CASE_PARAM(softrdma_mw_bind_rules, mw_bind_gen_params),
	KUNIT_CASE_PARAM(softrdma_mw_rkey_lookup, mw_rkey_gen_params),
	KUNIT_CASE(softrdma_mw_invalidate_and_qp_gone),
	KUNIT_CASE_PARAM(softrdma_mw_local_inv_status, mw_inv_gen_params),
	KUNIT_CASE(softrdma_mw_local_inv_fast_mr),
	KUNIT_CASE(softrdma_mw_qp_count),
	KUNIT_CASE(softrdma_mw_type1_unbind),
	KUNIT_CASE(softrdma_mw_dealloc_many),
	{}
};

static struct kunit_suite softrdma_mw_suite = {
	.name = "softrdma_mw",
	.test_cases = softrdma_mw_cases,
};

kunit_test_suite(softrdma_mw_suite);
