// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the RC responder (rc_responder.c): the R_Key of an RDMA
 * READ resolved again for its responses (a continued, duplicate or
 * rebuilt read) passes every check its arrival passed, on MRs published
 * in a device's key table as registration publishes them; a WRITE's
 * packets, resolving its R_Key through one MR cache, get what a lookup
 * gets, whatever happens between them, and so do a SEND's or READ's
 * packets walking a scatter list through it; the rules of
 * IBA 1.5 ATOMIC WRITE and FLUSH; the affiliated error of each NAK that
 * ends the QP.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#include "compat.h"
#include "device.h"
#include "mr.h"
#include "qp.h"
#include "rc.h"
#include "roce_hdr.h"
#include "roce_qp.h"
#include "sge.h"

#define READ_IOVA	0x10000ULL
#define READ_LENGTH	0x4000ULL
#define QP_ACCESS	(IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE | \
			 IB_ACCESS_REMOTE_ATOMIC)
#define MR_ACCESS	(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ)

struct read_mr_case {
	const char *name;
	enum softrdma_mr_type type;
	bool invalid;		/* a fast-registration MR, invalidated */
	bool other_pd;		/* the MR is another PD's */
	int mr_access;
	int qp_access;
	s64 off;		/* of the first byte, from READ_IOVA */
	u32 len;
	u8 key_xor;		/* the read's R_Key, this far from the MR's */
	bool found;
};

static const struct read_mr_case read_mr_cases[] = {
	{ "whole_mr", SOFTRDMA_MR_USER, false, false, MR_ACCESS, QP_ACCESS,
	  0, READ_LENGTH, 0, true },
	{ "tail_of_mr", SOFTRDMA_MR_USER, false, false, MR_ACCESS, QP_ACCESS,
	  READ_LENGTH - 1, 1, 0, true },
	/* a key index freed and reused by another PD's MR, same key byte */
	{ "other_pd", SOFTRDMA_MR_USER, false, true, MR_ACCESS, QP_ACCESS,
	  0, READ_LENGTH, 0, false },
	{ "other_pd_dma_mr", SOFTRDMA_MR_DMA, false, true, MR_ACCESS,
	  QP_ACCESS, 0, 1, 0, false },
	{ "mr_without_remote_read", SOFTRDMA_MR_USER, false, false,
	  IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE, QP_ACCESS, 0, 1, 0,
	  false },
	{ "qp_without_remote_read", SOFTRDMA_MR_USER, false, false, MR_ACCESS,
	  IB_ACCESS_REMOTE_WRITE, 0, 1, 0, false },
	{ "past_end", SOFTRDMA_MR_USER, false, false, MR_ACCESS, QP_ACCESS,
	  READ_LENGTH - 1, 2, 0, false },
	{ "before_start", SOFTRDMA_MR_USER, false, false, MR_ACCESS,
	  QP_ACCESS, -1, 2, 0, false },
	{ "stale_key_byte", SOFTRDMA_MR_USER, false, false, MR_ACCESS,
	  QP_ACCESS, 0, 1, 0x01, false },
	{ "fast_reg_valid", SOFTRDMA_MR_FAST, false, false, MR_ACCESS,
	  QP_ACCESS, 0, READ_LENGTH, 0, true },
	{ "fast_reg_invalidated", SOFTRDMA_MR_FAST, true, false, MR_ACCESS,
	  QP_ACCESS, 0, 1, 0, false },
};

static void read_mr_case_desc(const struct read_mr_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(read_mr, read_mr_cases, read_mr_case_desc);

static void softrdma_rc_responder_read_rkey_recheck(struct kunit *test)
{
	const struct read_mr_case *c = test->param_value;
	struct softrdma_mr *mr, *got;
	struct softrdma_dev *sdev;
	struct ib_pd *pds;
	struct softrdma_roce_qp *rqp;
	struct softrdma_qp *qp;
	u64 va;

	sdev = kunit_kzalloc(test, sizeof(*sdev), GFP_KERNEL);
	pds = kunit_kcalloc(test, 2, sizeof(*pds), GFP_KERNEL);
	rqp = kunit_kzalloc(test, sizeof(*rqp), GFP_KERNEL);
	mr = kunit_kzalloc(test, sizeof(*mr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sdev);
	KUNIT_ASSERT_NOT_NULL(test, pds);
	KUNIT_ASSERT_NOT_NULL(test, rqp);
	KUNIT_ASSERT_NOT_NULL(test, mr);
	xa_init_flags(&sdev->mr_xa, XA_FLAGS_ALLOC1);

	qp = &rqp->qp;
	qp->sdev = sdev;
	qp->ibqp.pd = &pds[0];
	qp->attr.qp_access_flags = c->qp_access;

	mr->type = c->type;
	mr->pd = c->other_pd ? &pds[1] : &pds[0];
	mr->access = c->mr_access;
	mr->iova = c->type == SOFTRDMA_MR_DMA ? 0 : READ_IOVA;
	mr->length = c->type == SOFTRDMA_MR_DMA ? U64_MAX : READ_LENGTH;
	mr->valid = c->type == SOFTRDMA_MR_FAST && !c->invalid;
	KUNIT_ASSERT_EQ(test, softrdma_mr_add(sdev, mr), 0);
	KUNIT_ASSERT_EQ(test, softrdma_mr_publish(sdev, mr), 0);

	va = READ_IOVA + c->off;
	got = softrdma_rc_read_mr(qp, mr->key ^ c->key_xor, &va, c->len);
	if (c->found) {
		KUNIT_EXPECT_PTR_EQ(test, got, mr);
		KUNIT_EXPECT_EQ(test, kref_read(&mr->ref), 2U);
	} else {
		KUNIT_EXPECT_NULL(test, got);
	}
	if (got)
		softrdma_mr_put(got);
	/* every reference taken was given back */
	KUNIT_EXPECT_EQ(test, kref_read(&mr->ref), 1U);

	softrdma_mr_remove(sdev, mr);
	KUNIT_EXPECT_TRUE(test, xa_empty(&sdev->mr_xa));
	xa_destroy(&sdev->mr_xa);
}

/*
 * The packets of an RDMA WRITE received together resolve its R_Key
 * through one MR cache (softrdma_rc_write_mr()).  Whatever happens to the
 * MR, the QP or the key between two packets, the second one gets from the
 * cache exactly what a lookup without it gets: the same MR, or a remote
 * access error.
 */
#define WRITE_IOVA	0x20000ULL
#define WRITE_PAGES	4
#define WRITE_LENGTH	(WRITE_PAGES * PAGE_SIZE)
#define WRITE_ACCESS	(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE)

enum write_mr_change {
	WRITE_MR_SAME,		/* nothing happens between the packets */
	WRITE_MR_DEREG,		/* its deregistration began (dereg_mr) */
	WRITE_MR_INVALIDATED,	/* invalidated (LOCAL_INV, SEND_WITH_INV) */
	WRITE_MR_REREG,		/* invalidated, registered with a new key */
	WRITE_MR_REREG_RO,	/* ... and without REMOTE_WRITE */
	WRITE_MR_REREG_SHORT,	/* ... and one page shorter */
	WRITE_MR_REREG_REMOTE,	/* ... and with REMOTE_READ alone */
	WRITE_MR_QP_RIGHTS,	/* the QP no longer grants REMOTE_WRITE */
};

/* which key the second packet names */
enum write_mr_key {
	WRITE_KEY_SAME,		/* the first packet's */
	WRITE_KEY_NEW,		/* the MR's key after the change */
	WRITE_KEY_BYTE,		/* the first's, another key byte */
	WRITE_KEY_OTHER_MR,	/* another MR's, of the same PD */
};

struct write_mr_case {
	const char *name;
	enum softrdma_mr_type type;
	enum write_mr_change change;
	enum write_mr_key key;
	bool other_pd_qp;	/* the second packet is another PD's QP's */
	u64 off;		/* its first byte, from WRITE_IOVA */
	u32 len;
	bool found;
};

static const struct write_mr_case write_mr_cases[] = {
	{ "next_packet", SOFTRDMA_MR_USER, WRITE_MR_SAME, WRITE_KEY_SAME,
	  false, 1024, 1024, true },
	{ "last_byte", SOFTRDMA_MR_USER, WRITE_MR_SAME, WRITE_KEY_SAME,
	  false, WRITE_LENGTH - 1, 1, true },
	{ "past_end", SOFTRDMA_MR_USER, WRITE_MR_SAME, WRITE_KEY_SAME,
	  false, WRITE_LENGTH - 1, 2, false },
	{ "stale_key_byte", SOFTRDMA_MR_USER, WRITE_MR_SAME, WRITE_KEY_BYTE,
	  false, 0, 1, false },
	{ "other_mr", SOFTRDMA_MR_USER, WRITE_MR_SAME, WRITE_KEY_OTHER_MR,
	  false, 0, 1024, true },
	{ "other_pd_qp", SOFTRDMA_MR_USER, WRITE_MR_SAME, WRITE_KEY_SAME,
	  true, 0, 1024, false },
	{ "qp_rights_dropped", SOFTRDMA_MR_USER, WRITE_MR_QP_RIGHTS,
	  WRITE_KEY_SAME, false, 0, 1024, false },
	{ "dereg_began", SOFTRDMA_MR_USER, WRITE_MR_DEREG, WRITE_KEY_SAME,
	  false, 1024, 1024, false },
	{ "dma_mr_next_packet", SOFTRDMA_MR_DMA, WRITE_MR_SAME,
	  WRITE_KEY_SAME, false, 1024, 1024, true },
	{ "dma_mr_dereg_began", SOFTRDMA_MR_DMA, WRITE_MR_DEREG,
	  WRITE_KEY_SAME, false, 1024, 1024, false },
	{ "fast_reg_next_packet", SOFTRDMA_MR_FAST, WRITE_MR_SAME,
	  WRITE_KEY_SAME, false, 1024, 1024, true },
	{ "fast_reg_invalidated", SOFTRDMA_MR_FAST, WRITE_MR_INVALIDATED,
	  WRITE_KEY_SAME, false, 1024, 1024, false },
	{ "fast_reg_rereg_old_key", SOFTRDMA_MR_FAST, WRITE_MR_REREG,
	  WRITE_KEY_SAME, false, 1024, 1024, false },
	{ "fast_reg_rereg_new_key", SOFTRDMA_MR_FAST, WRITE_MR_REREG,
	  WRITE_KEY_NEW, false, 1024, 1024, true },
	{ "fast_reg_rereg_read_only", SOFTRDMA_MR_FAST, WRITE_MR_REREG_RO,
	  WRITE_KEY_NEW, false, 1024, 1024, false },
	{ "fast_reg_rereg_shorter", SOFTRDMA_MR_FAST, WRITE_MR_REREG_SHORT,
	  WRITE_KEY_NEW, false, WRITE_LENGTH - PAGE_SIZE, 1, false },
	{ "fast_reg_dereg_began", SOFTRDMA_MR_FAST, WRITE_MR_DEREG,
	  WRITE_KEY_SAME, false, 1024, 1024, false },
};

static void write_mr_case_desc(const struct write_mr_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(write_mr, write_mr_cases, write_mr_case_desc);

/* The key a fast-registration MR's next registration gives it */
static u32 write_mr_next_key(u32 key)
{
	return softrdma_mr_key(softrdma_mr_key_index(key),
			       softrdma_mr_key_byte(key) + 1);
}

/* A fast-registration MR over @length bytes, registered with @key */
static void write_mr_fast_reg(struct kunit *test, struct softrdma_dev *sdev,
			      struct softrdma_mr *mr, u32 key, int access,
			      u64 length)
{
	mr->ibmr.iova = WRITE_IOVA;
	mr->ibmr.length = length;
	KUNIT_ASSERT_EQ(test, softrdma_mr_fast_reg(sdev, mr->pd, mr, key,
						   access), 0);
}

static struct softrdma_mr *write_mr_new(struct kunit *test,
					struct softrdma_dev *sdev,
					struct ib_pd *pd,
					enum softrdma_mr_type type)
{
	struct softrdma_mr *mr;

	mr = kunit_kzalloc(test, sizeof(*mr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mr);
	mr->type = type;
	mr->pd = pd;
	mr->access = WRITE_ACCESS;
	mr->iova = type == SOFTRDMA_MR_DMA ? 0 : WRITE_IOVA;
	mr->length = type == SOFTRDMA_MR_DMA ? U64_MAX : WRITE_LENGTH;
	if (type == SOFTRDMA_MR_FAST) {
		mr->pbl = kunit_kcalloc(test, WRITE_PAGES, sizeof(*mr->pbl),
					GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, mr->pbl);
		mr->pbl_max = WRITE_PAGES;
		mr->pbl_mapped = WRITE_PAGES;
		mr->ibmr.page_size = PAGE_SIZE;
	}
	KUNIT_ASSERT_EQ(test, softrdma_mr_add(sdev, mr), 0);
	KUNIT_ASSERT_EQ(test, softrdma_mr_publish(sdev, mr), 0);
	if (type == SOFTRDMA_MR_FAST)
		write_mr_fast_reg(test, sdev, mr,
				  write_mr_next_key(mr->key), WRITE_ACCESS,
				  WRITE_LENGTH);
	return mr;
}

/* What happens to @mr or @qp between the two packets */
static void write_mr_change(struct kunit *test, struct softrdma_dev *sdev,
			    struct softrdma_qp *qp, struct softrdma_mr *mr,
			    enum write_mr_change change)
{
	u32 key = mr->key;

	switch (change) {
	case WRITE_MR_SAME:
		return;
	case WRITE_MR_DEREG:
		/* softrdma_dereg_mr() up to its wait for the MR's users */
		WRITE_ONCE(mr->dereg, true);
		xa_erase(&sdev->mr_xa, softrdma_mr_key_index(key));
		return;
	case WRITE_MR_QP_RIGHTS:
		qp->attr.qp_access_flags = IB_ACCESS_REMOTE_READ;
		return;
	case WRITE_MR_INVALIDATED:
	case WRITE_MR_REREG:
	case WRITE_MR_REREG_RO:
	case WRITE_MR_REREG_SHORT:
	case WRITE_MR_REREG_REMOTE:
		break;
	}
	KUNIT_ASSERT_EQ(test, softrdma_mr_invalidate(sdev, mr->pd, key, true),
			0);
	if (change == WRITE_MR_INVALIDATED)
		return;
	write_mr_fast_reg(test, sdev, mr, write_mr_next_key(key),
			  change == WRITE_MR_REREG_RO ?
			  IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ :
			  change == WRITE_MR_REREG_REMOTE ?
			  IB_ACCESS_REMOTE_READ : WRITE_ACCESS,
			  change == WRITE_MR_REREG_SHORT ?
			  WRITE_LENGTH - PAGE_SIZE : WRITE_LENGTH);
}

static void softrdma_rc_responder_write_rkey_cached(struct kunit *test)
{
	const struct write_mr_case *c = test->param_value;
	struct softrdma_mr *mr, *other, *want, *got, *cache = NULL;
	struct softrdma_roce_qp *rqps;
	struct softrdma_qp *qp, *qp2;
	struct softrdma_dev *sdev;
	struct ib_pd *pds;
	u64 va, va_cached;
	u32 key;

	sdev = kunit_kzalloc(test, sizeof(*sdev), GFP_KERNEL);
	pds = kunit_kcalloc(test, 2, sizeof(*pds), GFP_KERNEL);
	rqps = kunit_kcalloc(test, 2, sizeof(*rqps), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sdev);
	KUNIT_ASSERT_NOT_NULL(test, pds);
	KUNIT_ASSERT_NOT_NULL(test, rqps);
	xa_init_flags(&sdev->mr_xa, XA_FLAGS_ALLOC1);
	qp = &rqps[0].qp;
	qp->sdev = sdev;
	qp->ibqp.pd = &pds[0];
	qp->attr.qp_access_flags = QP_ACCESS;
	qp2 = &rqps[1].qp;
	qp2->sdev = sdev;
	qp2->ibqp.pd = &pds[1];
	qp2->attr.qp_access_flags = QP_ACCESS;

	mr = write_mr_new(test, sdev, &pds[0], c->type);
	other = write_mr_new(test, sdev, &pds[0], SOFTRDMA_MR_USER);

	/* the first packet's lookup fills the cache */
	key = mr->key;
	va = WRITE_IOVA;
	got = softrdma_rc_write_mr(qp, key, &va, 1024, &cache);
	KUNIT_ASSERT_PTR_EQ(test, got, mr);
	KUNIT_EXPECT_PTR_EQ(test, cache, mr);
	softrdma_mr_put(got);

	write_mr_change(test, sdev, qp, mr, c->change);
	switch (c->key) {
	case WRITE_KEY_SAME:
		break;
	case WRITE_KEY_NEW:
		key = READ_ONCE(mr->key);
		break;
	case WRITE_KEY_BYTE:
		key ^= 1;
		break;
	case WRITE_KEY_OTHER_MR:
		key = other->key;
		break;
	}
	if (c->other_pd_qp)
		qp = qp2;
	want = !c->found ? NULL : c->key == WRITE_KEY_OTHER_MR ? other : mr;

	/* the second packet: the lookup's answer, then the cache's */
	va = WRITE_IOVA + c->off;
	got = softrdma_rc_write_mr(qp, key, &va, c->len, NULL);
	KUNIT_EXPECT_PTR_EQ(test, got, want);
	if (got)
		softrdma_mr_put(got);
	va_cached = WRITE_IOVA + c->off;
	got = softrdma_rc_write_mr(qp, key, &va_cached, c->len, &cache);
	KUNIT_EXPECT_PTR_EQ(test, got, want);
	KUNIT_EXPECT_EQ(test, va_cached, va);
	if (got) {
		KUNIT_EXPECT_PTR_EQ(test, cache, got);
		softrdma_mr_put(got);
	}

	/* the run ends: every reference taken was given back */
	if (cache)
		softrdma_mr_put(cache);
	KUNIT_EXPECT_EQ(test, kref_read(&mr->ref), 1U);
	KUNIT_EXPECT_EQ(test, kref_read(&other->ref), 1U);
	softrdma_mr_remove(sdev, other);
	softrdma_mr_remove(sdev, mr);
	KUNIT_EXPECT_TRUE(test, xa_empty(&sdev->mr_xa));
	xa_destroy(&sdev->mr_xa);
}

/*
 * A SEND's packets received together, and a READ's responses, place
 * their payload through the receive or send WQE's scatter list, its
 * L_Keys looked up through the same MR cache (softrdma_sge_walk_cached()).
 * The list here: 1024 bytes of one MR, then 1024 of another.  The second
 * packet's walk visits, with the cache, exactly the pieces it visits
 * without it, or fails the same way.
 */
#define SGE_PIECE	1024U

struct sge_case {
	const char *name;
	enum softrdma_mr_type type;	/* of the first SGE's MR */
	enum write_mr_change change;
	enum write_mr_key key;		/* the first SGE's key after it */
	bool other_pd_qp;
	u32 off;			/* message bytes of the second packet */
	u32 len;
	int err;
};

static const struct sge_case sge_cases[] = {
	{ "next_packet", SOFTRDMA_MR_USER, WRITE_MR_SAME, WRITE_KEY_SAME,
	  false, 0, SGE_PIECE, 0 },
	{ "into_second_sge", SOFTRDMA_MR_USER, WRITE_MR_SAME, WRITE_KEY_SAME,
	  false, SGE_PIECE / 2, SGE_PIECE, 0 },
	{ "past_list", SOFTRDMA_MR_USER, WRITE_MR_SAME, WRITE_KEY_SAME,
	  false, SGE_PIECE, SGE_PIECE + 1, -EMSGSIZE },
	{ "stale_key_byte", SOFTRDMA_MR_USER, WRITE_MR_SAME, WRITE_KEY_BYTE,
	  false, 0, SGE_PIECE, -EACCES },
	{ "other_mr", SOFTRDMA_MR_USER, WRITE_MR_SAME, WRITE_KEY_OTHER_MR,
	  false, 0, SGE_PIECE, 0 },
	{ "other_pd_qp", SOFTRDMA_MR_USER, WRITE_MR_SAME, WRITE_KEY_SAME,
	  true, 0, SGE_PIECE, -EACCES },
	{ "dereg_began", SOFTRDMA_MR_USER, WRITE_MR_DEREG, WRITE_KEY_SAME,
	  false, 0, SGE_PIECE, -EACCES },
	{ "dma_mr_dereg_began", SOFTRDMA_MR_DMA, WRITE_MR_DEREG,
	  WRITE_KEY_SAME, false, 0, SGE_PIECE, -EACCES },
	{ "fast_reg_next_packet", SOFTRDMA_MR_FAST, WRITE_MR_SAME,
	  WRITE_KEY_SAME, false, 0, SGE_PIECE, 0 },
	{ "fast_reg_invalidated", SOFTRDMA_MR_FAST, WRITE_MR_INVALIDATED,
	  WRITE_KEY_SAME, false, 0, SGE_PIECE, -EACCES },
	{ "fast_reg_rereg_old_key", SOFTRDMA_MR_FAST, WRITE_MR_REREG,
	  WRITE_KEY_SAME, false, 0, SGE_PIECE, -EACCES },
	{ "fast_reg_rereg_new_key", SOFTRDMA_MR_FAST, WRITE_MR_REREG,
	  WRITE_KEY_NEW, false, 0, SGE_PIECE, 0 },
	{ "fast_reg_rereg_no_local_write", SOFTRDMA_MR_FAST,
	  WRITE_MR_REREG_REMOTE, WRITE_KEY_NEW, false, 0, SGE_PIECE,
	  -EACCES },
	{ "fast_reg_dereg_began", SOFTRDMA_MR_FAST, WRITE_MR_DEREG,
	  WRITE_KEY_SAME, false, 0, SGE_PIECE, -EACCES },
};

static void sge_case_desc(const struct sge_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sge, sge_cases, sge_case_desc);

/* The pieces a walk visited */
struct sge_visits {
	unsigned int n;
	struct {
		struct softrdma_mr *mr;
		u64 addr;
		u32 len;
		u32 done;
	} piece[4];
};

static int sge_visit(struct softrdma_mr *mr, u64 addr, u32 len, u32 done,
		     void *ctx)
{
	struct sge_visits *v = ctx;

	if (v->n == ARRAY_SIZE(v->piece))
		return -E2BIG;
	v->piece[v->n].mr = mr;
	v->piece[v->n].addr = addr;
	v->piece[v->n].len = len;
	v->piece[v->n].done = done;
	v->n++;
	return 0;
}

static void softrdma_rc_responder_sge_cached(struct kunit *test)
{
	const struct sge_case *c = test->param_value;
	struct softrdma_mr *mr, *other, *cache = NULL;
	struct sge_visits plain = {}, cached = {};
	struct softrdma_roce_qp *rqps;
	struct softrdma_sge sge[2];
	struct softrdma_qp *qp;
	struct softrdma_dev *sdev;
	struct ib_pd *pds;
	unsigned int i;
	int err;

	sdev = kunit_kzalloc(test, sizeof(*sdev), GFP_KERNEL);
	pds = kunit_kcalloc(test, 2, sizeof(*pds), GFP_KERNEL);
	rqps = kunit_kcalloc(test, 2, sizeof(*rqps), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sdev);
	KUNIT_ASSERT_NOT_NULL(test, pds);
	KUNIT_ASSERT_NOT_NULL(test, rqps);
	xa_init_flags(&sdev->mr_xa, XA_FLAGS_ALLOC1);
	for (i = 0; i < 2; i++) {
		rqps[i].qp.sdev = sdev;
		rqps[i].qp.ibqp.pd = &pds[i];
	}
	qp = &rqps[0].qp;

	mr = write_mr_new(test, sdev, &pds[0], c->type);
	other = write_mr_new(test, sdev, &pds[0], SOFTRDMA_MR_USER);
	sge[0] = (struct softrdma_sge){ .addr = WRITE_IOVA, .length = SGE_PIECE,
					.lkey = mr->key };
	sge[1] = (struct softrdma_sge){ .addr = WRITE_IOVA + SGE_PIECE,
					.length = SGE_PIECE,
					.lkey = other->key };

	/* the first packet's walk fills the cache with the first SGE's MR */
	KUNIT_ASSERT_EQ(test, softrdma_sge_walk_cached(qp, sge, 1, 0,
						       SGE_PIECE,
						       IB_ACCESS_LOCAL_WRITE,
						       sge_visit, &plain,
						       &cache), 0);
	KUNIT_EXPECT_PTR_EQ(test, cache, mr);
	plain.n = 0;

	write_mr_change(test, sdev, qp, mr, c->change);
	switch (c->key) {
	case WRITE_KEY_SAME:
		break;
	case WRITE_KEY_NEW:
		sge[0].lkey = READ_ONCE(mr->key);
		break;
	case WRITE_KEY_BYTE:
		sge[0].lkey ^= 1;
		break;
	case WRITE_KEY_OTHER_MR:
		sge[0].lkey = other->key;
		break;
	}
	if (c->other_pd_qp)
		qp = &rqps[1].qp;

	err = softrdma_sge_walk(qp, sge, 2, c->off, c->len,
				IB_ACCESS_LOCAL_WRITE, sge_visit, &plain);
	KUNIT_EXPECT_EQ(test, err, c->err);
	err = softrdma_sge_walk_cached(qp, sge, 2, c->off, c->len,
				       IB_ACCESS_LOCAL_WRITE, sge_visit,
				       &cached, &cache);
	KUNIT_EXPECT_EQ(test, err, c->err);
	KUNIT_EXPECT_EQ(test, cached.n, plain.n);
	for (i = 0; i < min(cached.n, plain.n); i++) {
		KUNIT_EXPECT_PTR_EQ(test, cached.piece[i].mr,
				    plain.piece[i].mr);
		KUNIT_EXPECT_EQ(test, cached.piece[i].addr,
				plain.piece[i].addr);
		KUNIT_EXPECT_EQ(test, cached.piece[i].len, plain.piece[i].len);
		KUNIT_EXPECT_EQ(test, cached.piece[i].done,
				plain.piece[i].done);
	}

	if (cache)
		softrdma_mr_put(cache);
	KUNIT_EXPECT_EQ(test, kref_read(&mr->ref), 1U);
	KUNIT_EXPECT_EQ(test, kref_read(&other->ref), 1U);
	softrdma_mr_remove(sdev, other);
	softrdma_mr_remove(sdev, mr);
	KUNIT_EXPECT_TRUE(test, xa_empty(&sdev->mr_xa));
	xa_destroy(&sdev->mr_xa);
}

/* IBA 1.5 9.4.9: what an ATOMIC WRITE's RETH and payload must be */
struct atomic_write_case {
	const char *name;
	u64 va;
	u32 len;		/* RETH DMA length */
	u32 payload;
	bool ok;
};

static const struct atomic_write_case atomic_write_cases[] = {
	{ "aligned_8", 0x1000, 8, 8, true },
	{ "aligned_high", 0xfffffffffffffff8ULL, 8, 8, true },
	{ "misaligned_by_4", 0x1004, 8, 8, false },
	{ "misaligned_by_1", 0x1001, 8, 8, false },
	{ "reth_length_4", 0x1000, 4, 8, false },
	{ "reth_length_16", 0x1000, 16, 8, false },
	{ "reth_length_0", 0x1000, 0, 8, false },
	{ "payload_4", 0x1000, 8, 4, false },
	{ "payload_16", 0x1000, 8, 16, false },
};

static void atomic_write_case_desc(const struct atomic_write_case *c,
				   char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(atomic_write, atomic_write_cases, atomic_write_case_desc);

static void softrdma_rc_responder_atomic_write_rule(struct kunit *test)
{
	const struct atomic_write_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, softrdma_rc_atomic_write_rule(c->va, c->len,
							    c->payload),
			c->ok);
}

/*
 * IBA 1.5 9.3.6, 9.4.8: a FLUSH's FETH, and whether an MR with @mr_access
 * then grants it.  Persistence is granted by no softrdma MR; on a kernel
 * whose core has no FLUSH, every FLUSH is an invalid request.
 */
enum flush_verdict { FL_INVALID, FL_DENIED, FL_GRANTED };

#define FL(v)		(SOFTRDMA_HAVE_FLUSH ? (v) : FL_INVALID)
#define MR_FLUSH	(IB_ACCESS_LOCAL_WRITE | SOFTRDMA_ACCESS_FLUSH_GLOBAL)

struct flush_case {
	const char *name;
	u8 plt;
	u8 sel;
	int mr_access;
	enum flush_verdict verdict;
};

static const struct flush_case flush_cases[] = {
	{ "global_range", SOFTRDMA_FETH_PLT_GLOBAL, SOFTRDMA_FETH_SEL_RANGE,
	  MR_FLUSH, FL(FL_GRANTED) },
	{ "global_whole_mr", SOFTRDMA_FETH_PLT_GLOBAL, SOFTRDMA_FETH_SEL_MR,
	  MR_FLUSH, FL(FL_GRANTED) },
	{ "global_mr_without_flush", SOFTRDMA_FETH_PLT_GLOBAL,
	  SOFTRDMA_FETH_SEL_RANGE,
	  IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
	  IB_ACCESS_REMOTE_READ, FL(FL_DENIED) },
	{ "persistent", SOFTRDMA_FETH_PLT_PERSISTENT, SOFTRDMA_FETH_SEL_RANGE,
	  MR_FLUSH, FL(FL_DENIED) },
	{ "global_and_persistent",
	  SOFTRDMA_FETH_PLT_GLOBAL | SOFTRDMA_FETH_PLT_PERSISTENT,
	  SOFTRDMA_FETH_SEL_MR, MR_FLUSH, FL(FL_DENIED) },
	{ "no_placement_type", 0, SOFTRDMA_FETH_SEL_RANGE, MR_FLUSH,
	  FL_INVALID },
	{ "reserved_placement_type", 0x4, SOFTRDMA_FETH_SEL_RANGE, MR_FLUSH,
	  FL_INVALID },
	{ "reserved_selectivity_2", SOFTRDMA_FETH_PLT_GLOBAL, 2, MR_FLUSH,
	  FL_INVALID },
	{ "reserved_selectivity_3", SOFTRDMA_FETH_PLT_GLOBAL, 3, MR_FLUSH,
	  FL_INVALID },
};

static void flush_case_desc(const struct flush_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(flush, flush_cases, flush_case_desc);

static void softrdma_rc_responder_flush_rights(struct kunit *test)
{
	const struct flush_case *c = test->param_value;
	struct softrdma_mr *mr;
	struct ib_pd *pd;
	int access = -1;
	bool valid;

	mr = kunit_kzalloc(test, sizeof(*mr), GFP_KERNEL);
	pd = kunit_kzalloc(test, sizeof(*pd), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mr);
	KUNIT_ASSERT_NOT_NULL(test, pd);
	mr->type = SOFTRDMA_MR_USER;
	mr->pd = pd;
	/* what registration keeps of the rights asked for */
	mr->access = c->mr_access;
	if (softrdma_mr_check_access_flags(c->mr_access))
		mr->access = 0;
	mr->iova = READ_IOVA;
	mr->length = READ_LENGTH;

	valid = softrdma_rc_flush_access(c->plt, c->sel, &access);
	KUNIT_ASSERT_EQ(test, valid, c->verdict != FL_INVALID);
	if (!valid)
		return;
	KUNIT_EXPECT_NE(test, access, 0);
	KUNIT_EXPECT_EQ(test, softrdma_mr_check(mr, pd, READ_IOVA, 64, access),
			c->verdict == FL_GRANTED ? 0 : -EACCES);
}

struct nak_event_case {
	const char *name;
	enum softrdma_aeth_nak_code code;
	bool rwqe_says;		/* a receive WQE completed saying what failed */
	bool raise;
	enum ib_event_type event;
};

/*
 * IBA 11.6.3.1: the affiliated error a responder's QP raises with the NAK
 * that ends it; an affiliated error reports only what no completion can
 * (IBA 11.6.2).  A Remote Operational Error answers a failure of its own
 * receive WQE (malformed, or its local key refused), which completes in
 * error and so reports it: no event, QP_FATAL least of all.  A SEND
 * longer than the receive WQE is an Invalid Request whose WQE completes
 * with IB_WC_LOC_LEN_ERR: no event either.  An Invalid Request with no
 * WQE to complete raises QP_REQ_ERR; a refused Send with Invalidate stays
 * an access violation, its IB_WC_LOC_PROT_ERR being ambiguous.
 */
static const struct nak_event_case nak_event_cases[] = {
	{ "invalid_request", SOFTRDMA_NAK_INVALID_REQ, false, true,
	  IB_EVENT_QP_REQ_ERR },
	{ "send_longer_than_rwqe", SOFTRDMA_NAK_INVALID_REQ, true, false, 0 },
	{ "remote_access", SOFTRDMA_NAK_REM_ACCESS_ERR, false, true,
	  IB_EVENT_QP_ACCESS_ERR },
	{ "send_inv_refused", SOFTRDMA_NAK_REM_ACCESS_ERR, true, true,
	  IB_EVENT_QP_ACCESS_ERR },
	{ "remote_operational", SOFTRDMA_NAK_REM_OP_ERR, true, false, 0 },
};

static void nak_event_case_desc(const struct nak_event_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(nak_event, nak_event_cases, nak_event_case_desc);

static void softrdma_rc_responder_nak_event(struct kunit *test)
{
	const struct nak_event_case *c = test->param_value;
	enum ib_event_type event = IB_EVENT_DEVICE_FATAL;
	bool raise;

	raise = softrdma_qp_err_event(softrdma_rc_nak_cause(c->code,
							    c->rwqe_says),
				      &event);
	KUNIT_EXPECT_EQ(test, raise, c->raise);
	if (c->raise)
		KUNIT_EXPECT_EQ(test, event, c->event);
	else
		KUNIT_EXPECT_EQ(test, event, IB_EVENT_DEVICE_FATAL);
}

static struct kunit_case softrdma_rc_responder_cases[] = {
	KUNIT_CASE_PARAM(softrdma_rc_responder_atomic_write_rule,
			 atomic_write_gen_params),
	KUNIT_CASE_PARAM(softrdma_rc_responder_flush_rights,
			 flush_gen_params),
	KUNIT_CASE_PARAM(softrdma_rc_responder_read_rkey_recheck,
			 read_mr_gen_params),
	KUNIT_CASE_PARAM(softrdma_rc_responder_write_rkey_cached,
			 write_mr_gen_params),
	KUNIT_CASE_PARAM(softrdma_rc_responder_sge_cached, sge_gen_params),
	KUNIT_CASE_PARAM(softrdma_rc_responder_nak_event, nak_event_gen_params),
	{}
};

static struct kunit_suite softrdma_rc_responder_suite = {
	.name = "softrdma_rc_responder",
	.test_cases = softrdma_rc_responder_cases,
};

kunit_test_suite(softrdma_rc_responder_suite);
