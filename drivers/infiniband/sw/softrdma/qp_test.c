// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the QP verbs (qp.c): what post_send refuses of a kernel
 * consumer's WR list, what query_qp reports of a drain, and what a move
 * to RESET leaves of the receive queue in each ring layout.
 */
#include <kunit/test.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_user_rxe.h>
#include <rdma/siw-abi.h>

#include "cq.h"
#include "device.h"
#include "iwarp_qp.h"
#include "qp.h"
#include "queue_rxe_abi.h"
#include "queue_siw_abi.h"
#include "roce_qp.h"
#include "srq.h"
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

/* ------------------------------------------- RESET and receive WQEs */

static void reset_rq_engine_noop(struct softrdma_qp *qp)
{
}

/* engines with no state: what a move does to the queues is qp.c's */
static const struct softrdma_qp_engine reset_rq_engine = {
	.start = reset_rq_engine_noop,
	.kick = reset_rq_engine_noop,
	.stop = reset_rq_engine_noop,
};

enum rq_layout {
	RQ_KERNEL,	/* a kernel QP's ring of struct softrdma_recv_wqe */
	RQ_RXE,		/* librxe's ring: it posts at the header's index */
	RQ_SIW,		/* libsiw's ring: it posts at a position of its own */
	SRQ_RXE,	/* no RQ: an SRQ of each user layout */
	SRQ_SIW,
};

#define RESET_RQ_SLOTS	8	/* librxe's hold 7, libsiw's 8 */
#define RESET_NEW_ID	1000	/* the receive posted after the move */

struct reset_rq_case {
	const char *name;
	enum rq_layout layout;
	enum ib_qp_state cur;
	enum ib_qp_state next;
	u32 posted;		/* receives posted before the move */
	u32 completed;		/* completions the move makes */
	bool kept;		/* the next life still takes them */
};

static const struct reset_rq_case reset_rq_cases[] = {
	{ "kernel_rts_to_reset", RQ_KERNEL, IB_QPS_RTS, IB_QPS_RESET, 3, 0 },
	{ "kernel_init_to_reset", RQ_KERNEL, IB_QPS_INIT, IB_QPS_RESET, 2,
	  0 },
	/* posted in ERR and not flushed yet: RESET came first */
	{ "kernel_err_to_reset", RQ_KERNEL, IB_QPS_ERR, IB_QPS_RESET, 3, 0 },
	{ "rxe_rts_to_reset", RQ_RXE, IB_QPS_RTS, IB_QPS_RESET, 3, 0 },
	{ "rxe_full_rtr_to_reset", RQ_RXE, IB_QPS_RTR, IB_QPS_RESET, 7, 0 },
	{ "rxe_err_to_reset", RQ_RXE, IB_QPS_ERR, IB_QPS_RESET, 1, 0 },
	{ "siw_rts_to_reset", RQ_SIW, IB_QPS_RTS, IB_QPS_RESET, 3, 0 },
	{ "siw_full_rts_to_reset", RQ_SIW, IB_QPS_RTS, IB_QPS_RESET, 8, 0 },
	{ "siw_err_to_reset", RQ_SIW, IB_QPS_ERR, IB_QPS_RESET, 2, 0 },
	/* the SRQ's WQEs are every QP's: they stay */
	{ "srq_rxe_rts_to_reset", SRQ_RXE, IB_QPS_RTS, IB_QPS_RESET, 3, 0,
	  true },
	{ "srq_siw_rts_to_reset", SRQ_SIW, IB_QPS_RTS, IB_QPS_RESET, 3, 0,
	  true },
	/* other moves: ERR completes them in error, the rest keeps them */
	{ "kernel_rts_to_err", RQ_KERNEL, IB_QPS_RTS, IB_QPS_ERR, 3, 3 },
	{ "rxe_rts_to_err", RQ_RXE, IB_QPS_RTS, IB_QPS_ERR, 3, 3 },
	{ "siw_rts_to_err", RQ_SIW, IB_QPS_RTS, IB_QPS_ERR, 3, 3 },
	{ "rxe_rts_to_rts", RQ_RXE, IB_QPS_RTS, IB_QPS_RTS, 3, 0, true },
	{ "siw_rts_to_rts", RQ_SIW, IB_QPS_RTS, IB_QPS_RTS, 3, 0, true },
};

static void reset_rq_case_desc(const struct reset_rq_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(reset_rq, reset_rq_cases, reset_rq_case_desc);

struct reset_rq_fixture {
	struct softrdma_qp qp;
	struct softrdma_cq cq;
	struct softrdma_srq srq;
	enum rq_layout layout;
	struct softrdma_ring *ring;	/* the RQ's or the SRQ's */
	u32 siw_put;			/* libsiw's private position */
};

/* A receive as the ring's producer posts it: kernel, librxe or libsiw */
static void reset_rq_post(struct kunit *test, struct reset_rq_fixture *f,
			  u64 id)
{
	struct softrdma_ring *ring = f->ring;
	struct softrdma_recv_wqe *kwqe;
	struct rxe_recv_wqe *rwqe;
	struct siw_rqe *rqe;
	u32 put, cons;
	u16 flags;

	switch (f->layout) {
	case RQ_KERNEL:
		spin_lock_bh(&f->qp.rq.post_lock);
		KUNIT_ASSERT_FALSE(test, softrdma_ring_full(ring));
		kwqe = softrdma_ring_producer_slot(ring);
		memset(kwqe, 0, sizeof(*kwqe));
		kwqe->wr_id = id;
		softrdma_ring_advance_producer(ring);
		spin_unlock_bh(&f->qp.rq.post_lock);
		break;
	case RQ_RXE:
	case SRQ_RXE:
		/* librxe: full when the consumer index is one ahead */
		put = READ_ONCE(ring->hdr->producer_index);
		/* pairs with the kernel's release of the consumer index */
		cons = smp_load_acquire(&ring->hdr->consumer_index);
		KUNIT_ASSERT_NE(test, (put + 1) % RESET_RQ_SLOTS, cons);
		rwqe = softrdma_ring_slot(ring, put);
		memset(rwqe, 0, sizeof(*rwqe));
		rwqe->wr_id = id;
		/* librxe's release: the slot before the index */
		smp_store_release(&ring->hdr->producer_index,
				  (put + 1) % RESET_RQ_SLOTS);
		break;
	case RQ_SIW:
	case SRQ_SIW:
		/* libsiw: the slot at its position must be free */
		rqe = softrdma_ring_slot(ring, f->siw_put);
		/* pairs with the kernel's clearing of the flags */
		flags = smp_load_acquire(&rqe->flags);
		KUNIT_ASSERT_EQ(test, flags, 0);
		memset(rqe, 0, sizeof(*rqe));
		rqe->id = id;
		/* libsiw's seq_cst store: the slot before the flags */
		smp_store_release(&rqe->flags, SIW_WQE_VALID);
		f->siw_put++;
		break;
	}
}

static struct reset_rq_fixture *reset_rq_make(struct kunit *test,
					      enum rq_layout layout)
{
	struct reset_rq_fixture *f;
	struct softrdma_ring *ring;
	struct softrdma_qp *qp;
	u32 num = RESET_RQ_SLOTS - 1, nsq = 3;
	u64 key;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	f->layout = layout;
	qp = &f->qp;
	mutex_init(&qp->state_mutex);
	spin_lock_init(&qp->sq.lock);
	spin_lock_init(&qp->sq.post_lock);
	spin_lock_init(&qp->rq.lock);
	spin_lock_init(&qp->rq.post_lock);
	qp->eng = &reset_rq_engine;
	qp->ibqp.qp_type = IB_QPT_RC;

	/* an empty kernel SQ: the flush of the ERR cases walks it */
	qp->sq.ring = softrdma_ring_create(NULL, &nsq,
					   sizeof(struct softrdma_send_wqe),
					   SOFTRDMA_RING_USER_PRODUCES, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(qp->sq.ring));
	softrdma_ring_set_locks(qp->sq.ring, &qp->sq.post_lock, &qp->sq.lock);
	qp->sq.lim.rc = true;

	spin_lock_init(&f->cq.lock);
	f->cq.abi = &softrdma_kernel_cq_abi;
	KUNIT_ASSERT_EQ(test, f->cq.abi->create(&f->cq, 2 * RESET_RQ_SLOTS,
						NULL), 0);
	qp->scq = &f->cq;
	qp->rcq = &f->cq;

	switch (layout) {
	case RQ_KERNEL:
		ring = softrdma_ring_create(NULL, &num,
					    sizeof(struct softrdma_recv_wqe),
					    SOFTRDMA_RING_USER_PRODUCES, NULL);
		break;
	case RQ_RXE:
	case SRQ_RXE:
		ring = softrdma_ring_create(NULL, &num,
					    softrdma_rxe_rq_elem_size(1),
					    SOFTRDMA_RING_USER_PRODUCES, NULL);
		if (!IS_ERR(ring))
			softrdma_rxe_ring_as_user(ring);
		break;
	default:
		ring = softrdma_siw_ring_create(NULL, RESET_RQ_SLOTS,
						SOFTRDMA_SIW_RQ, &key);
		break;
	}
	KUNIT_ASSERT_FALSE(test, IS_ERR(ring));
	f->ring = ring;

	if (layout == SRQ_RXE || layout == SRQ_SIW) {
		spin_lock_init(&f->srq.lock);
		spin_lock_init(&f->srq.post_lock);
		refcount_set(&f->srq.users, 2);
		f->srq.ring = ring;
		f->srq.lim.max_sge = 1;
		softrdma_ring_set_locks(ring, NULL, &f->srq.lock);
		qp->srq = &f->srq;
	} else {
		qp->rq.ring = ring;
		qp->rq.lim = (struct softrdma_wqe_limits){
			.max_sge = 1,
			.rc = true,
		};
		softrdma_ring_set_locks(ring, layout == RQ_KERNEL ?
					&qp->rq.post_lock : NULL,
					&qp->rq.lock);
	}
	return f;
}

static void reset_rq_destroy(struct reset_rq_fixture *f)
{
	softrdma_ring_destroy(f->ring);
	softrdma_ring_destroy(f->qp.sq.ring);
	softrdma_ring_destroy(f->cq.ring);
	mutex_destroy(&f->qp.state_mutex);
}

/* The receive WQE the QP's next message would take, or -ENOENT. */
static int reset_rq_take(struct softrdma_qp *qp, u64 *wr_id)
{
	struct softrdma_recv_wqe wqe;
	int err;

	spin_lock_bh(&qp->rq.lock);
	err = softrdma_rq_take(qp, &wqe);
	spin_unlock_bh(&qp->rq.lock);
	if (!err)
		*wr_id = wqe.wr_id;
	return err;
}

/*
 * IBA 10.3.1: a move to RESET empties the QP's receive queue, with no
 * completion, in every ring layout, and the first receive posted after
 * it, where the ring's producer posts next, is the first the next life
 * takes.  A full ring empties whole.  A QP on an SRQ leaves the SRQ as
 * it was; ERR flushes them with completions (the CQ does show them),
 * and a move that is neither keeps them.
 */
static void softrdma_qp_reset_empties_rq(struct kunit *test)
{
	const struct reset_rq_case *c = test->param_value;
	struct reset_rq_fixture *f = reset_rq_make(test, c->layout);
	struct softrdma_qp *qp = &f->qp;
	struct ib_wc wc[RESET_RQ_SLOTS + 1];
	unsigned int actions;
	u64 wr_id;
	int n, i;

	qp->state = c->cur;
	for (i = 0; i < c->posted; i++)
		reset_rq_post(test, f, i);
	KUNIT_ASSERT_EQ(test, softrdma_qp_transition(c->cur, c->next,
						     IB_QPT_RC, IB_QP_STATE,
						     &actions), 0);
	mutex_lock(&qp->state_mutex);
	softrdma_qp_apply_actions(qp, c->next, actions);
	mutex_unlock(&qp->state_mutex);
	KUNIT_EXPECT_EQ(test, qp->state, c->next);

	n = f->cq.abi->poll(&f->cq, ARRAY_SIZE(wc), wc);
	KUNIT_EXPECT_EQ(test, n, c->completed);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, wc[i].wr_id, (u64)i);
		KUNIT_EXPECT_EQ(test, wc[i].status, IB_WC_WR_FLUSH_ERR);
	}

	/* the next life: a receive posted now, then what it takes */
	reset_rq_post(test, f, RESET_NEW_ID);
	if (c->kept) {
		for (i = 0; i < c->posted; i++) {
			KUNIT_ASSERT_EQ(test, reset_rq_take(qp, &wr_id), 0);
			KUNIT_EXPECT_EQ(test, wr_id, (u64)i);
		}
	}
	KUNIT_ASSERT_EQ(test, reset_rq_take(qp, &wr_id), 0);
	KUNIT_EXPECT_EQ(test, wr_id, (u64)RESET_NEW_ID);
	KUNIT_EXPECT_EQ(test, reset_rq_take(qp, &wr_id), -ENOENT);
	KUNIT_EXPECT_EQ(test, f->cq.abi->poll(&f->cq, ARRAY_SIZE(wc), wc), 0);
	reset_rq_destroy(f);
}

static struct kunit_case softrdma_qp_test_cases[] = {
	KUNIT_CASE_PARAM(softrdma_qp_post_send_bind_mw,
			 post_bind_gen_params),
	KUNIT_CASE_PARAM(softrdma_qp_query_sq_draining,
			 sq_draining_gen_params),
	KUNIT_CASE_PARAM(softrdma_qp_reset_empties_rq, reset_rq_gen_params),
	{}
};

static struct kunit_suite softrdma_qp_test_suite = {
	.name = "softrdma_qp",
	.test_cases = softrdma_qp_test_cases,
};

kunit_test_suite(softrdma_qp_test_suite);
