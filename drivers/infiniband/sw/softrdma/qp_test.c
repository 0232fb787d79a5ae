// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the QP verbs (qp.c): what post_send refuses of a kernel
 * consumer's WR list, and what query_qp reports of a drain.
 */
#include <kunit/test.h>
#include <rdma/ib_verbs.h>

#include "device.h"
#include "iwarp_qp.h"
#include "qp.h"
#include "queue_rxe_abi.h"
#include "roce_qp.h"
#include "transport.h"

#define POST_SQ_DEPTH	8

struct post_seen {
	int kicks;
};

static struct post_seen *post_seen_of(struct softrdma_qp *qp)
{
	return qp->ibqp.qp_context;
}

static void post_test_kick(struct softrdma_qp *qp)
{
	post_seen_of(qp)->kicks++;
}

static const struct softrdma_qp_engine post_test_engine = {
	.kick = post_test_kick,
};

static const struct softrdma_transport post_roce_tp = {
	.send_wr_ok = softrdma_roce_send_wr_ok,
};

static const struct softrdma_transport post_iwarp_tp = {
	.send_wr_ok = softrdma_iwarp_send_wr_ok,
	.connected = true,
};

/* A kernel WR list of up to three */
struct post_bind_case {
	const char *name;
	const struct softrdma_transport *tp;
	enum ib_qp_type type;
	int nwr;
	enum ib_wr_opcode ops[3];
	int err;
	int bad;		/* index of the WR bad_wr names; -1: none */
	u32 posted;		/* WQEs in the ring afterwards */
};

static const struct post_bind_case post_bind_cases[] = {
	{ "roce_rc_send", &post_roce_tp, IB_QPT_RC, 1, { IB_WR_SEND }, 0, -1,
	  1 },
	{ "roce_rc_bind_mw", &post_roce_tp, IB_QPT_RC, 1, { IB_WR_BIND_MW },
	  -EOPNOTSUPP, 0, 0 },
	{ "roce_uc_bind_mw", &post_roce_tp, IB_QPT_UC, 1, { IB_WR_BIND_MW },
	  -EOPNOTSUPP, 0, 0 },
	{ "roce_ud_bind_mw", &post_roce_tp, IB_QPT_UD, 1, { IB_WR_BIND_MW },
	  -EOPNOTSUPP, 0, 0 },
	/* the WRs before it are posted, none after it */
	{ "roce_send_bind_send", &post_roce_tp, IB_QPT_RC, 3,
	  { IB_WR_SEND, IB_WR_BIND_MW, IB_WR_SEND }, -EOPNOTSUPP, 1, 1 },
	{ "iwarp_bind_mw", &post_iwarp_tp, IB_QPT_RC, 1, { IB_WR_BIND_MW },
	  -EOPNOTSUPP, 0, 0 },
	{ "iwarp_write_bind", &post_iwarp_tp, IB_QPT_RC, 2,
	  { IB_WR_RDMA_WRITE, IB_WR_BIND_MW }, -EOPNOTSUPP, 1, 1 },
};

static void post_bind_case_desc(const struct post_bind_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(post_bind, post_bind_cases, post_bind_case_desc);

/*
 * The RDMA core has no kernel WR for a window bind: an ib_send_wr with
 * IB_WR_BIND_MW is refused with bad_wr naming it, and no slot is used.
 */
static void softrdma_qp_post_send_bind_mw(struct kunit *test)
{
	const struct post_bind_case *c = test->param_value;
	const struct ib_send_wr *bad_wr = NULL;
	struct ib_rdma_wr *wrs;
	struct post_seen seen = {};
	struct softrdma_roce_qp *rqp;
	struct softrdma_dev *sdev;
	struct softrdma_qp *qp;
	u32 num = POST_SQ_DEPTH;
	int i, n, err;

	sdev = kunit_kzalloc(test, sizeof(*sdev), GFP_KERNEL);
	rqp = kunit_kzalloc(test, sizeof(*rqp), GFP_KERNEL);
	wrs = kunit_kcalloc(test, ARRAY_SIZE(c->ops), sizeof(*wrs),
			    GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sdev);
	KUNIT_ASSERT_NOT_NULL(test, rqp);
	KUNIT_ASSERT_NOT_NULL(test, wrs);
	sdev->tp = c->tp;
	qp = &rqp->qp;
	qp->sdev = sdev;
	qp->eng = &post_test_engine;
	qp->ibqp.qp_type = c->type;
	qp->ibqp.qp_context = &seen;
	qp->state = IB_QPS_RTS;
	spin_lock_init(&qp->sq.lock);
	spin_lock_init(&qp->sq.post_lock);
	qp->sq.ring = softrdma_ring_create(NULL, &num,
					   sizeof(struct softrdma_send_wqe),
					   SOFTRDMA_RING_USER_PRODUCES, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(qp->sq.ring));
	softrdma_ring_set_locks(qp->sq.ring, &qp->sq.post_lock, &qp->sq.lock);
	qp->sq.lim = (struct softrdma_wqe_limits){
		.max_sge = 1,
		.rc = c->type == IB_QPT_RC,
		.ud = c->type == IB_QPT_UD,
	};

	for (n = 0; n < c->nwr; n++) {
		wrs[n].wr.wr_id = n;
		wrs[n].wr.opcode = c->ops[n];
		wrs[n].wr.send_flags = IB_SEND_SIGNALED;
		if (n)
			wrs[n - 1].wr.next = &wrs[n].wr;
	}

	err = softrdma_post_send(&qp->ibqp, &wrs[0].wr, &bad_wr);
	KUNIT_EXPECT_EQ(test, err, c->err);
	if (c->bad < 0)
		KUNIT_EXPECT_NULL(test, bad_wr);
	else
		KUNIT_EXPECT_PTR_EQ(test, bad_wr, &wrs[c->bad].wr);
	KUNIT_EXPECT_EQ(test, qp->sq.ring->prod, c->posted);
	/* what was posted before the refusal is sent */
	KUNIT_EXPECT_EQ(test, seen.kicks, 1);
	for (i = 0; i < c->posted; i++) {
		const struct softrdma_send_wqe *wqe =
			softrdma_ring_slot(qp->sq.ring, i);

		KUNIT_EXPECT_NE(test, wqe->opcode, (u32)IB_WR_BIND_MW);
	}

	softrdma_ring_destroy(qp->sq.ring);
}

/* IBA 11.2.5.3: SQ Draining, in SQD until the WQEs started are done */
struct sq_draining_case {
	const char *name;
	enum ib_qp_state state;
	u32 fetched;		/* send WQEs started, not completed */
	bool draining;
};

static const struct sq_draining_case sq_draining_cases[] = {
	{ "sqd_outstanding", IB_QPS_SQD, 2, true },
	{ "sqd_last_one", IB_QPS_SQD, 1, true },
	{ "sqd_drained", IB_QPS_SQD, 0, false },
	{ "rts_outstanding", IB_QPS_RTS, 2, false },
	{ "err_outstanding", IB_QPS_ERR, 1, false },
	{ "init", IB_QPS_INIT, 0, false },
};

static void sq_draining_case_desc(const struct sq_draining_case *c,
				  char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sq_draining, sq_draining_cases, sq_draining_case_desc);

static void softrdma_qp_query_sq_draining(struct kunit *test)
{
	const struct sq_draining_case *c = test->param_value;
	struct ib_qp_init_attr init;
	struct softrdma_roce_qp *rqp;
	struct ib_qp_attr attr;
	struct softrdma_qp *qp;

	rqp = kunit_kzalloc(test, sizeof(*rqp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rqp);
	qp = &rqp->qp;
	mutex_init(&qp->state_mutex);
	spin_lock_init(&qp->sq.lock);
	qp->ibqp.qp_type = IB_QPT_RC;
	qp->state = c->state;
	qp->sq.fetched = c->fetched;

	memset(&attr, 0xff, sizeof(attr));
	KUNIT_ASSERT_EQ(test, softrdma_query_qp(&qp->ibqp, &attr, 0, &init), 0);
	KUNIT_EXPECT_EQ(test, attr.qp_state, c->state);
	KUNIT_EXPECT_EQ(test, attr.sq_draining, c->draining);
	mutex_destroy(&qp->state_mutex);
}

static struct kunit_case softrdma_qp_test_cases[] = {
	KUNIT_CASE_PARAM(softrdma_qp_post_send_bind_mw,
			 post_bind_gen_params),
	KUNIT_CASE_PARAM(softrdma_qp_query_sq_draining,
			 sq_draining_gen_params),
	{}
};

static struct kunit_suite softrdma_qp_test_suite = {
	.name = "softrdma_qp",
	.test_cases = softrdma_qp_test_cases,
};

kunit_test_suite(softrdma_qp_test_suite);
