// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the RC responder (rc_responder.c): the R_Key of an RDMA
 * READ resolved again for its responses (a continued, duplicate or
 * rebuilt read) passes every check its arrival passed, on MRs published
 * in a device's key table as registration publishes them; the rules of
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
	KUNIT_CASE_PARAM(softrdma_rc_responder_nak_event, nak_event_gen_params),
	{}
};

static struct kunit_suite softrdma_rc_responder_suite = {
	.name = "softrdma_rc_responder",
	.test_cases = softrdma_rc_responder_cases,
};

kunit_test_suite(softrdma_rc_responder_suite);
