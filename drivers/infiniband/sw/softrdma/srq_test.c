// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for srq.c: taking receive WQEs from an SRQ ring in either
 * user layout (libsiw's VALID flags, librxe's indices) against tables of
 * hostile entries and indices, the limit arithmetic and its one-shot
 * IB_EVENT_SRQ_LIMIT_REACHED, the rules of modify_srq, and a kernel
 * ULP's post_srq_recv into a kernel SRQ, read back by the receive side.
 *
 * Rings here have no ucontext (never mapped); an rxe-layout ring is
 * marked user so that its slots are read as librxe's struct
 * rxe_recv_wqe.  Every byte written into a slot or the ring header is
 * what a process holding the mapping could write.  A kernel SRQ's ring
 * (struct softrdma_recv_wqe slots) is filled only through the driver's
 * post_srq_recv, as ib_post_srq_recv() calls it.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <rdma/rdma_user_rxe.h>
#include <rdma/siw-abi.h>

#include "queue_rxe_abi.h"
#include "queue_siw_abi.h"
#include "srq.h"

#define MAX_SGE	4	/* the rxe SRQs' max_sge here */

struct srq_fixture {
	struct softrdma_srq srq;
	int events;
	enum ib_event_type last;
};

static void srq_event(struct ib_event *event, void *ctx)
{
	struct srq_fixture *f = ctx;

	f->events++;
	f->last = event->event;
}

/* @siw: libsiw's layout with @n slots; else librxe's holding n - 1 */
static struct srq_fixture *make_srq(struct kunit *test, bool siw, u32 n)
{
	struct srq_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	struct softrdma_ring *ring;
	u32 num = n - 1;
	u64 key;

	KUNIT_ASSERT_NOT_NULL(test, f);
	spin_lock_init(&f->srq.lock);
	spin_lock_init(&f->srq.post_lock);
	refcount_set(&f->srq.users, 1);
	if (siw) {
		ring = softrdma_siw_ring_create(NULL, n, SOFTRDMA_SIW_RQ, &key);
		f->srq.lim.max_sge = SIW_MAX_SGE;
	} else {
		ring = softrdma_ring_create(NULL, &num,
					    softrdma_rxe_rq_elem_size(MAX_SGE),
					    SOFTRDMA_RING_USER_PRODUCES, NULL);
		f->srq.lim.max_sge = MAX_SGE;
	}
	KUNIT_ASSERT_FALSE(test, IS_ERR(ring));
	if (!siw)
		softrdma_rxe_ring_as_user(ring);
	softrdma_ring_set_locks(ring, NULL, &f->srq.lock);
	f->srq.ring = ring;
	f->srq.ibsrq.event_handler = srq_event;
	f->srq.ibsrq.srq_context = f;
	return f;
}

/* libsiw's post: the slot, then the flags with release */
static void siw_post(struct softrdma_ring *ring, u32 put, u64 id, u16 flags,
		     u8 num_sge, u32 len)
{
	struct siw_rqe *rqe = softrdma_ring_slot(ring, put);
	int i;

	rqe->id = id;
	rqe->num_sge = num_sge;
	for (i = 0; i < SIW_MAX_SGE; i++) {
		rqe->sge[i].laddr = 0x1000 * (i + 1);
		rqe->sge[i].length = len;
		rqe->sge[i].lkey = 0x100 + i;
	}
	/* libsiw's seq_cst store: the slot before the flags */
	smp_store_release(&rqe->flags, flags);
}

/* librxe's post: the slot, then the producer index with release */
static void rxe_post(struct softrdma_ring *ring, u32 put, u64 id,
		     u32 num_sge, u32 len, u32 user_prod)
{
	struct rxe_recv_wqe *wqe = softrdma_ring_slot(ring, put);
	int i;

	wqe->wr_id = id;
	wqe->dma.num_sge = num_sge;
	for (i = 0; i < MAX_SGE; i++) {
		wqe->dma.sge[i].addr = 0x1000 * (i + 1);
		wqe->dma.sge[i].length = len;
		wqe->dma.sge[i].lkey = 0x100 + i;
	}
	/* librxe's release: the slot before the index */
	smp_store_release(&ring->hdr->producer_index, user_prod);
}

static void destroy_srq(struct srq_fixture *f)
{
	softrdma_ring_destroy(f->srq.ring);
}

/* ------------------------------------------------- siw-layout entries */

#define V	SIW_WQE_VALID

struct siw_case {
	const char *name;
	u16 flags;
	u8 num_sge;
	u32 len;
	int err;
};

static const struct siw_case siw_cases[] = {
	{ "one_sge", V, 1, 64, 0 },
	{ "six_sges", V, 6, 10, 0 },
	{ "zero_sges", V, 0, 0, 0 },
	{ "seven_sges", V, 7, 64, -EINVAL },
	{ "255_sges", V, 255, 64, -EINVAL },
	{ "valid_and_signalled", V | SIW_WQE_SIGNALLED, 1, 64, -EINVAL },
	{ "valid_and_inline", V | SIW_WQE_INLINE, 1, 64, -EINVAL },
	{ "all_flags", 0xffff, 1, 64, -EINVAL },
	{ "lengths_overflow", V, 2, 0x80000000, -EINVAL },
	{ "not_posted", 0, 1, 64, -ENOENT },
	{ "flags_without_valid", SIW_WQE_SIGNALLED, 1, 64, -ENOENT },
};

static void siw_case_desc(const struct siw_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(siw, siw_cases, siw_case_desc);

/*
 * One entry as libsiw (or anything with the mapping) left it: taken or
 * refused with its wr_id, and a posted slot is handed back either way.
 */
static void softrdma_srq_siw_entry(struct kunit *test)
{
	const struct siw_case *c = test->param_value;
	struct srq_fixture *f = make_srq(test, true, 4);
	struct softrdma_recv_wqe wqe;
	struct siw_rqe *rqe;

	siw_post(f->srq.ring, 0, 0x77, c->flags, c->num_sge, c->len);
	memset(&wqe, 0xa5, sizeof(wqe));
	KUNIT_EXPECT_EQ(test, softrdma_srq_take(&f->srq, &wqe), c->err);
	rqe = softrdma_ring_slot(f->srq.ring, 0);
	if (c->err == -ENOENT) {
		KUNIT_EXPECT_EQ(test, rqe->flags, c->flags);	/* untouched */
	} else {
		KUNIT_EXPECT_EQ(test, wqe.wr_id, 0x77ULL);
		KUNIT_EXPECT_EQ(test, rqe->flags, 0);		/* handed back */
	}
	if (!c->err) {
		KUNIT_EXPECT_EQ(test, wqe.num_sge, (u32)c->num_sge);
		KUNIT_EXPECT_EQ(test, wqe.length, c->num_sge * c->len);
	}
	/* the next take sees the next slot, which is free */
	KUNIT_EXPECT_EQ(test, softrdma_srq_take(&f->srq, &wqe), -ENOENT);
	KUNIT_EXPECT_EQ(test, f->events, 0);
	destroy_srq(f);
}

/* ------------------------------------------------- rxe-layout entries */

struct rxe_case {
	const char *name;
	u32 user_prod;		/* producer_index as written */
	u32 num_sge;
	u32 len;
	int err;
	u32 left;		/* entries the ring shows after one take */
};

static const struct rxe_case rxe_cases[] = {
	{ "one_sge", 1, 1, 64, 0, 0 },
	{ "max_sge", 1, MAX_SGE, 64, 0, 0 },
	{ "zero_sges", 1, 0, 0, 0, 0 },
	{ "over_max_sge", 1, MAX_SGE + 1, 64, -EINVAL, 0 },
	{ "num_sge_all_ones", 1, 0xffffffff, 64, -EINVAL, 0 },
	{ "lengths_overflow", 1, 2, 0x80000000, -EINVAL, 0 },
	{ "nothing_posted", 0, 1, 64, -ENOENT, 0 },
	/* indices are masked to the 8 slots: 0x80000003 reads as 3 */
	{ "producer_high_bits", 0x80000003, 1, 64, 0, 2 },
	{ "producer_all_ones", 0xffffffff, 1, 64, 0, 6 },
	{ "producer_is_mask", 7, 1, 64, 0, 6 },
};

static void rxe_case_desc(const struct rxe_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rxe, rxe_cases, rxe_case_desc);

static void softrdma_srq_rxe_entry(struct kunit *test)
{
	const struct rxe_case *c = test->param_value;
	struct srq_fixture *f = make_srq(test, false, 8);
	struct softrdma_recv_wqe wqe;
	unsigned long flags;
	u32 left;

	rxe_post(f->srq.ring, 0, 0x55, c->num_sge, c->len, c->user_prod);
	memset(&wqe, 0xa5, sizeof(wqe));
	KUNIT_EXPECT_EQ(test, softrdma_srq_take(&f->srq, &wqe), c->err);
	if (c->err != -ENOENT) {
		KUNIT_EXPECT_EQ(test, wqe.wr_id, 0x55ULL);
		/* consumed, refused or not: the consumer index moved */
		KUNIT_EXPECT_EQ(test, f->srq.ring->hdr->consumer_index, 1U);
	} else {
		KUNIT_EXPECT_EQ(test, f->srq.ring->hdr->consumer_index, 0U);
	}
	if (!c->err) {
		KUNIT_EXPECT_EQ(test, wqe.num_sge, c->num_sge);
		KUNIT_EXPECT_EQ(test, wqe.length, c->num_sge * c->len);
	}
	spin_lock_irqsave(&f->srq.lock, flags);
	left = softrdma_ring_count(f->srq.ring);
	spin_unlock_irqrestore(&f->srq.lock, flags);
	KUNIT_EXPECT_EQ(test, left, c->left);
	KUNIT_EXPECT_LE(test, left, softrdma_ring_capacity(f->srq.ring));
	destroy_srq(f);
}

/* --------------------------------------------------------------- limit */

struct limit_case {
	const char *name;
	bool siw;
	u32 posted;		/* WQEs posted before arming */
	u32 limit;		/* armed srq_limit */
	u32 takes;		/* takes attempted */
	int events;		/* IB_EVENT_SRQ_LIMIT_REACHED raised */
	u32 event_at;		/* take after which it was raised (1-based) */
	u32 limit_after;	/* srq->limit at the end */
};

static const struct limit_case limit_cases[] = {
	{ "rxe_above_limit", false, 8, 4, 4, 0, 0, 4 },
	{ "rxe_falls_below", false, 8, 4, 5, 1, 5, 0 },
	{ "rxe_one_shot", false, 8, 4, 8, 1, 5, 0 },
	{ "rxe_limit_equals_level", false, 8, 8, 1, 1, 1, 0 },
	{ "rxe_armed_below", false, 2, 8, 1, 1, 1, 0 },
	{ "rxe_not_armed", false, 8, 0, 8, 0, 0, 0 },
	{ "rxe_limit_one_last_wqe", false, 3, 1, 3, 1, 3, 0 },
	{ "rxe_empty_take_no_event", false, 0, 1, 2, 0, 0, 1 },
	{ "rxe_full_ring", false, 15, 15, 1, 1, 1, 0 },
	{ "siw_above_limit", true, 8, 4, 4, 0, 0, 4 },
	{ "siw_falls_below", true, 8, 4, 5, 1, 5, 0 },
	{ "siw_one_shot", true, 16, 2, 16, 1, 15, 0 },
	{ "siw_limit_equals_level", true, 8, 8, 1, 1, 1, 0 },
	{ "siw_all_slots", true, 16, 16, 1, 1, 1, 0 },
	{ "siw_not_armed", true, 16, 0, 16, 0, 0, 0 },
	{ "siw_empty_take_no_event", true, 0, 3, 1, 0, 0, 3 },
};

static void limit_case_desc(const struct limit_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(limit, limit_cases, limit_case_desc);

static void softrdma_srq_limit(struct kunit *test)
{
	const struct limit_case *c = test->param_value;
	struct srq_fixture *f = make_srq(test, c->siw, 16);
	struct softrdma_recv_wqe wqe;
	u32 i, event_at = 0;
	int err;

	for (i = 0; i < c->posted; i++) {
		if (c->siw)
			siw_post(f->srq.ring, i, i, V, 1, 8);
		else
			rxe_post(f->srq.ring, i, i, 1, 8, i + 1);
	}
	f->srq.limit = c->limit;

	for (i = 1; i <= c->takes; i++) {
		err = softrdma_srq_take(&f->srq, &wqe);
		KUNIT_EXPECT_EQ(test, err, i <= c->posted ? 0 : -ENOENT);
		if (!err)
			KUNIT_EXPECT_EQ(test, wqe.wr_id, (u64)(i - 1));
		if (f->events && !event_at)
			event_at = i;
	}
	KUNIT_EXPECT_EQ(test, f->events, c->events);
	KUNIT_EXPECT_EQ(test, event_at, c->event_at);
	KUNIT_EXPECT_EQ(test, f->srq.limit, c->limit_after);
	if (c->events)
		KUNIT_EXPECT_EQ(test, f->last, IB_EVENT_SRQ_LIMIT_REACHED);
	destroy_srq(f);
}

/*
 * The level as the limit check sees it, on an rxe ring whose producer
 * index user space set to anything: never more than the ring holds.
 */
struct below_case {
	const char *name;
	u32 user_prod;
	u32 limit;
	bool below;
};

static const struct below_case below_cases[] = {
	{ "zero_limit", 0, 0, false },
	{ "empty_limit_one", 0, 1, true },
	{ "level_equals_limit", 5, 5, false },
	{ "level_one_short", 4, 5, true },
	{ "masked_to_3", 0xfffffff3, 3, false },
	{ "masked_to_3_limit_4", 0xfffffff3, 4, true },
	{ "full_ring_limit_capacity", 15, 15, false },
	{ "limit_beyond_ring", 15, 0xffffffff, true },
};

static void below_case_desc(const struct below_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(below, below_cases, below_case_desc);

static void softrdma_srq_below_limit_hostile(struct kunit *test)
{
	const struct below_case *c = test->param_value;
	struct srq_fixture *f = make_srq(test, false, 16);
	unsigned long flags;
	bool below;

	/* published as librxe would, whatever the value */
	smp_store_release(&f->srq.ring->hdr->producer_index, c->user_prod);
	spin_lock_irqsave(&f->srq.lock, flags);
	below = softrdma_srq_below_limit(f->srq.ring, c->limit);
	spin_unlock_irqrestore(&f->srq.lock, flags);
	KUNIT_EXPECT_EQ(test, below, c->below);
	destroy_srq(f);
}

/* ------------------------------------------------- kernel post_srq_recv */

/* A kernel SRQ as create_srq makes one without udata: @num WQEs */
static struct srq_fixture *make_kernel_srq(struct kunit *test, u32 num)
{
	struct srq_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	struct softrdma_ring *ring;

	KUNIT_ASSERT_NOT_NULL(test, f);
	spin_lock_init(&f->srq.lock);
	spin_lock_init(&f->srq.post_lock);
	refcount_set(&f->srq.users, 1);
	ring = softrdma_ring_create(NULL, &num,
				    sizeof(struct softrdma_recv_wqe),
				    SOFTRDMA_RING_USER_PRODUCES, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ring));
	softrdma_ring_set_locks(ring, &f->srq.post_lock, &f->srq.lock);
	f->srq.ring = ring;
	f->srq.lim.max_sge = MAX_SGE;
	f->srq.max_wr = num;
	f->srq.ibsrq.event_handler = srq_event;
	f->srq.ibsrq.srq_context = f;
	return f;
}

/* what ib_post_srq_recv() calls */
static int kernel_post(struct srq_fixture *f, const struct ib_recv_wr *wr,
		       const struct ib_recv_wr **bad)
{
	return softrdma_srq_ops.post_srq_recv(&f->srq.ibsrq, wr, bad);
}

/* WR @id: @num_sge SGEs in @sge, each a function of (id, index) */
static void kernel_wr(struct ib_recv_wr *wr, struct ib_sge *sge, u64 id,
		      int num_sge)
{
	int i;

	for (i = 0; i < MAX_SGE + 1; i++) {
		sge[i].addr = 0x10000 * id + 0x100 * i;
		sge[i].length = 16 * (id % 8) + i + 1;
		sge[i].lkey = 0x1000 + 0x10 * id + i;
	}
	*wr = (struct ib_recv_wr){
		.wr_id = id,
		.sg_list = sge,
		.num_sge = num_sge,
	};
}

/* the WQE the receive side takes for WR @id posted with @num_sge */
static void expect_taken(struct kunit *test, struct srq_fixture *f, u64 id,
			 int num_sge)
{
	struct softrdma_recv_wqe wqe;
	struct ib_sge sge[MAX_SGE + 1];
	struct ib_recv_wr wr;
	u32 length = 0;
	int i;

	kernel_wr(&wr, sge, id, num_sge);
	memset(&wqe, 0xa5, sizeof(wqe));
	KUNIT_ASSERT_EQ(test, softrdma_srq_take(&f->srq, &wqe), 0);
	KUNIT_EXPECT_EQ(test, wqe.wr_id, id);
	KUNIT_EXPECT_EQ(test, wqe.num_sge, (u32)num_sge);
	for (i = 0; i < num_sge; i++) {
		KUNIT_EXPECT_EQ(test, wqe.sge[i].addr, sge[i].addr);
		KUNIT_EXPECT_EQ(test, wqe.sge[i].length, sge[i].length);
		KUNIT_EXPECT_EQ(test, wqe.sge[i].lkey, sge[i].lkey);
		length += sge[i].length;
	}
	KUNIT_EXPECT_EQ(test, wqe.length, length);
}

static u32 kernel_level(struct srq_fixture *f)
{
	unsigned long flags;
	u32 n;

	spin_lock_irqsave(&f->srq.lock, flags);
	n = softrdma_ring_count(f->srq.ring);
	spin_unlock_irqrestore(&f->srq.lock, flags);
	return n;
}

/*
 * A kernel ULP's ib_post_srq_recv(): a chain posts in order; a WR with
 * too many SGEs, a negative count or overflowing lengths, and a WR that
 * finds the SRQ full, stop the chain there with bad_wr at that WR and
 * the WRs before it posted; the receive side takes exactly what was
 * posted, in order, and the slots it frees take new WRs.
 */
static void softrdma_srq_kernel_post(struct kunit *test)
{
	struct srq_fixture *f = make_kernel_srq(test, 7);
	struct ib_sge sge[5][MAX_SGE + 1];
	const struct ib_recv_wr *bad;
	struct softrdma_recv_wqe wqe;
	struct ib_recv_wr wr[5];
	unsigned long flags;
	u32 cap, i;

	cap = softrdma_ring_capacity(f->srq.ring);
	KUNIT_ASSERT_EQ(test, cap, 7U);
	KUNIT_ASSERT_FALSE(test, softrdma_ring_is_user(f->srq.ring));

	/* a chain of three: 1, MAX_SGE and 0 SGEs */
	kernel_wr(&wr[0], sge[0], 1, 1);
	kernel_wr(&wr[1], sge[1], 2, MAX_SGE);
	kernel_wr(&wr[2], sge[2], 3, 0);
	wr[0].next = &wr[1];
	wr[1].next = &wr[2];
	bad = NULL;
	KUNIT_EXPECT_EQ(test, kernel_post(f, &wr[0], &bad), 0);
	KUNIT_EXPECT_NULL(test, bad);
	KUNIT_EXPECT_EQ(test, kernel_level(f), 3U);

	/* one SGE too many in the middle of a chain: the first one posts */
	kernel_wr(&wr[0], sge[0], 4, 2);
	kernel_wr(&wr[1], sge[1], 90, MAX_SGE + 1);
	kernel_wr(&wr[2], sge[2], 91, 1);
	wr[0].next = &wr[1];
	wr[1].next = &wr[2];
	KUNIT_EXPECT_EQ(test, kernel_post(f, &wr[0], &bad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, (const struct ib_recv_wr *)&wr[1]);
	KUNIT_EXPECT_EQ(test, kernel_level(f), 4U);

	/* a negative count, and lengths whose sum overflows u32 */
	kernel_wr(&wr[0], sge[0], 92, -1);
	bad = NULL;
	KUNIT_EXPECT_EQ(test, kernel_post(f, &wr[0], &bad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, (const struct ib_recv_wr *)&wr[0]);
	kernel_wr(&wr[0], sge[0], 93, 2);
	sge[0][0].length = 0x80000000;
	sge[0][1].length = 0x80000000;
	bad = NULL;
	KUNIT_EXPECT_EQ(test, kernel_post(f, &wr[0], &bad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, (const struct ib_recv_wr *)&wr[0]);
	KUNIT_EXPECT_EQ(test, kernel_level(f), 4U);

	/* a chain of five onto 3 free slots: the fourth WR finds it full */
	for (i = 0; i < 5; i++) {
		kernel_wr(&wr[i], sge[i], 5 + i, 1 + i % MAX_SGE);
		wr[i].next = i < 4 ? &wr[i + 1] : NULL;
	}
	bad = NULL;
	KUNIT_EXPECT_EQ(test, kernel_post(f, &wr[0], &bad), -ENOMEM);
	KUNIT_EXPECT_PTR_EQ(test, bad, (const struct ib_recv_wr *)&wr[3]);
	KUNIT_EXPECT_EQ(test, kernel_level(f), cap);
	spin_lock_irqsave(&f->srq.post_lock, flags);
	KUNIT_EXPECT_TRUE(test, softrdma_ring_full(f->srq.ring));
	spin_unlock_irqrestore(&f->srq.post_lock, flags);

	/* full: the first WR of a chain is the bad one */
	bad = NULL;
	KUNIT_EXPECT_EQ(test, kernel_post(f, &wr[3], &bad), -ENOMEM);
	KUNIT_EXPECT_PTR_EQ(test, bad, (const struct ib_recv_wr *)&wr[3]);

	/* the receive side: exactly the seven posted, in order */
	expect_taken(test, f, 1, 1);
	expect_taken(test, f, 2, MAX_SGE);
	expect_taken(test, f, 3, 0);
	expect_taken(test, f, 4, 2);
	for (i = 0; i < 3; i++)
		expect_taken(test, f, 5 + i, 1 + i % MAX_SGE);
	KUNIT_EXPECT_EQ(test, softrdma_srq_take(&f->srq, &wqe), -ENOENT);
	KUNIT_EXPECT_EQ(test, f->events, 0);

	/* the freed slots take the rest of that chain, across the wrap */
	bad = NULL;
	KUNIT_EXPECT_EQ(test, kernel_post(f, &wr[3], &bad), 0);
	KUNIT_EXPECT_NULL(test, bad);
	expect_taken(test, f, 8, 1 + 3 % MAX_SGE);
	expect_taken(test, f, 9, 1 + 4 % MAX_SGE);
	KUNIT_EXPECT_EQ(test, softrdma_srq_take(&f->srq, &wqe), -ENOENT);
	destroy_srq(f);
}

/* a user SRQ's ring is its process's: the kernel post is refused */
static void softrdma_srq_kernel_post_user_ring(struct kunit *test)
{
	struct srq_fixture *f = make_srq(test, false, 8);
	struct ib_sge sge[MAX_SGE + 1];
	const struct ib_recv_wr *bad = NULL;
	struct ib_recv_wr wr;

	kernel_wr(&wr, sge, 1, 1);
	KUNIT_EXPECT_EQ(test, kernel_post(f, &wr, &bad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, (const struct ib_recv_wr *)&wr);
	KUNIT_EXPECT_EQ(test, f->srq.ring->hdr->producer_index, 0U);
	destroy_srq(f);
}

/* ---------------------------------------------------------- modify_srq */

struct modify_case {
	const char *name;
	int mask;
	u32 max_wr;		/* asked */
	u32 srq_limit;		/* asked */
	u32 cur;		/* capacity now */
	bool can_resize;
	int err;
};

#define MW	IB_SRQ_MAX_WR
#define LIM	IB_SRQ_LIMIT

static const struct modify_case modify_cases[] = {
	{ "nothing", 0, 0, 0, 16, true, 0 },
	{ "arm", LIM, 0, 4, 16, false, 0 },
	{ "arm_at_capacity", LIM, 0, 16, 16, false, 0 },
	{ "arm_above_capacity", LIM, 0, 17, 16, false, -EINVAL },
	{ "disarm", LIM, 0, 0, 16, false, 0 },
	{ "resize", MW, 64, 0, 16, true, 0 },
	{ "resize_siw", MW, 64, 0, 16, false, -EOPNOTSUPP },
	{ "resize_to_zero", MW, 0, 0, 16, true, -EINVAL },
	{ "resize_above_device", MW, 1025, 0, 16, true, -EINVAL },
	{ "resize_to_device", MW, 1024, 0, 16, true, 0 },
	{ "resize_and_arm_new", MW | LIM, 64, 40, 16, true, 0 },
	{ "resize_and_arm_above_new", MW | LIM, 32, 40, 64, true, -EINVAL },
	{ "siw_resize_and_arm", MW | LIM, 64, 4, 16, false, -EOPNOTSUPP },
	{ "unknown_bit", LIM | 0x4, 0, 1, 16, true, -EINVAL },
};

static void modify_case_desc(const struct modify_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(modify, modify_cases, modify_case_desc);

static void softrdma_srq_modify_rules(struct kunit *test)
{
	const struct modify_case *c = test->param_value;
	struct ib_srq_attr attr = {
		.max_wr = c->max_wr,
		.srq_limit = c->srq_limit,
	};

	KUNIT_EXPECT_EQ(test,
			softrdma_srq_check_modify(&attr, c->mask, c->cur, 1024,
						  c->can_resize),
			c->err);
}

static struct kunit_case softrdma_srq_cases[] = {
	KUNIT_CASE_PARAM(softrdma_srq_siw_entry, siw_gen_params),
	KUNIT_CASE_PARAM(softrdma_srq_rxe_entry, rxe_gen_params),
	KUNIT_CASE_PARAM(softrdma_srq_limit, limit_gen_params),
	KUNIT_CASE_PARAM(softrdma_srq_below_limit_hostile, below_gen_params),
	KUNIT_CASE_PARAM(softrdma_srq_modify_rules, modify_gen_params),
	KUNIT_CASE(softrdma_srq_kernel_post),
	KUNIT_CASE(softrdma_srq_kernel_post_user_ring),
	{}
};

static struct kunit_suite softrdma_srq_suite = {
	.name = "softrdma_srq",
	.test_cases = softrdma_srq_cases,
};

kunit_test_suite(softrdma_srq_suite);
