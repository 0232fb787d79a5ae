// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for queue_siw_abi.c: the ring geometry libsiw maps, the
 * per-slot VALID protocol (full, empty, wrap, a user clearing or setting
 * flags), SQE/RQE snapshots against tables of named hostile entries, CQE
 * encoding of every ib_wc opcode and status, and the CQ notify word.
 *
 * Rings here have no ucontext (never mapped); every byte the tests write
 * into a slot or the notify word is exactly what a process holding the
 * mapping could write.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "mmap.h"
#include "queue_siw_abi.h"

/* ------------------------------------------------------------- geometry */

struct geom_case {
	const char *name;
	enum softrdma_siw_queue queue;
	u32 num_slots;
	int err;
	u32 slot;		/* bytes per slot */
	size_t len;		/* bytes libsiw maps (before page rounding) */
};

static const struct geom_case geom_cases[] = {
	{ "sq_1", SOFTRDMA_SIW_SQ, 1, 0, 120, 120 },
	{ "sq_2", SOFTRDMA_SIW_SQ, 2, 0, 120, 240 },
	{ "sq_64", SOFTRDMA_SIW_SQ, 64, 0, 120, 7680 },
	{ "sq_16k", SOFTRDMA_SIW_SQ, SZ_16K, 0, 120, 120 * SZ_16K },
	{ "rq_1", SOFTRDMA_SIW_RQ, 1, 0, 112, 112 },
	{ "rq_128", SOFTRDMA_SIW_RQ, 128, 0, 112, 112 * 128 },
	{ "cq_1", SOFTRDMA_SIW_CQ, 1, 0, 32, 40 },
	{ "cq_128", SOFTRDMA_SIW_CQ, 128, 0, 32, 32 * 128 + 8 },
	{ "cq_64k", SOFTRDMA_SIW_CQ, SZ_64K, 0, 32, 32 * SZ_64K + 8 },
	{ "zero", SOFTRDMA_SIW_SQ, 0, -EINVAL },
	{ "not_pow2_3", SOFTRDMA_SIW_SQ, 3, -EINVAL },
	{ "not_pow2_100", SOFTRDMA_SIW_CQ, 100, -EINVAL },
	{ "too_big", SOFTRDMA_SIW_CQ, SZ_128K, -EINVAL },
	{ "all_ones", SOFTRDMA_SIW_RQ, 0xffffffff, -EINVAL },
	{ "bad_queue", 7, 4, -EINVAL },
};

static void geom_case_desc(const struct geom_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(geom, geom_cases, geom_case_desc);

static void softrdma_queue_siw_abi_geometry(struct kunit *test)
{
	const struct geom_case *c = test->param_value;
	struct softrdma_ring *ring;
	u64 key = 0x1234;
	size_t i;
	u8 *buf;

	ring = softrdma_siw_ring_create(NULL, c->num_slots, c->queue, &key);
	if (c->err) {
		KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(ring), c->err);
		return;
	}
	KUNIT_ASSERT_FALSE(test, IS_ERR(ring));

	KUNIT_EXPECT_FALSE(test, softrdma_ring_is_user(ring));
	KUNIT_EXPECT_EQ(test, key, 0x1234ULL);	/* nothing published */
	/* every slot usable */
	KUNIT_EXPECT_EQ(test, softrdma_ring_capacity(ring), c->num_slots);
	KUNIT_EXPECT_EQ(test, softrdma_ring_num_slots(ring), c->num_slots);
	KUNIT_EXPECT_EQ(test, softrdma_ring_elem_size(ring), c->slot);
	KUNIT_EXPECT_EQ(test, softrdma_siw_ring_len(c->queue, c->num_slots),
			c->len);
	KUNIT_EXPECT_EQ(test, ring->mem->size, c->len);
	KUNIT_EXPECT_EQ(test, softrdma_mmap_len(ring->mem),
			(size_t)PAGE_ALIGN(c->len));
	KUNIT_EXPECT_PTR_EQ(test, ring->slots, ring->mem->buf);
	KUNIT_EXPECT_PTR_EQ(test, softrdma_ring_slot(ring, c->num_slots - 1),
			    ring->mem->buf + (c->num_slots - 1) * c->slot);
	/* free-running indices wrap onto slot 0 */
	KUNIT_EXPECT_PTR_EQ(test, softrdma_ring_slot(ring, c->num_slots),
			    ring->mem->buf);
	if (c->queue == SOFTRDMA_SIW_CQ) {
		KUNIT_EXPECT_EQ(test, ring->kind, SOFTRDMA_RING_USER_CONSUMES);
		KUNIT_EXPECT_PTR_EQ(test, (void *)ring->ctrl,
				    ring->mem->buf + c->num_slots * 32);
		KUNIT_EXPECT_FALSE(test, softrdma_ring_full(ring));
	} else {
		KUNIT_EXPECT_EQ(test, ring->kind, SOFTRDMA_RING_USER_PRODUCES);
		KUNIT_EXPECT_NULL(test, ring->ctrl);
		KUNIT_EXPECT_TRUE(test, softrdma_ring_empty(ring));
	}
	/* zeroed: all slots free, CQ unarmed (SIW_NOTIFY_NOT) */
	buf = ring->mem->buf;
	for (i = 0; i < c->len; i++)
		if (buf[i])
			break;
	KUNIT_EXPECT_EQ(test, i, c->len);
	softrdma_ring_destroy(ring);
}

/* -------------------------------------------------------- VALID protocol */

static struct softrdma_ring *make_ring(struct kunit *test,
				       enum softrdma_siw_queue queue, u32 n)
{
	struct softrdma_ring *ring;
	u64 key;

	ring = softrdma_siw_ring_create(NULL, n, queue, &key);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ring));
	return ring;
}

static struct siw_sqe *sqe_at(struct softrdma_ring *ring, u32 i)
{
	return softrdma_ring_slot(ring, i);
}

/* libsiw's post: fill, then flags last */
static void user_post_send(struct softrdma_ring *ring, u32 put, u64 id)
{
	struct siw_sqe *sqe = sqe_at(ring, put);

	memset(sqe, 0, sizeof(*sqe));
	sqe->id = id;
	sqe->opcode = SIW_OP_SEND;
	sqe->num_sge = 1;
	sqe->sge[0].length = 8;
	/* libsiw's seq_cst store: the slot before the flags */
	smp_store_release(&sqe->flags, SIW_WQE_VALID | SIW_WQE_SIGNALLED);
}

static void softrdma_queue_siw_abi_sq_valid_protocol(struct kunit *test)
{
	struct softrdma_ring *ring = make_ring(test, SOFTRDMA_SIW_SQ, 4);
	struct softrdma_send_wqe wqe;
	u32 put = 0, i, round;

	/* empty: nothing VALID */
	KUNIT_EXPECT_FALSE(test, softrdma_ring_posted(ring, 0));

	for (round = 0; round < 3; round++) {
		/* fill all four slots: no slot is kept empty */
		for (i = 0; i < 4; i++)
			user_post_send(ring, put++, 100 * round + i);
		for (i = 0; i < 4; i++)
			KUNIT_EXPECT_TRUE(test, softrdma_ring_posted(ring, i));
		/* offsets past the ring never alias a slot */
		KUNIT_EXPECT_FALSE(test, softrdma_ring_posted(ring, 4));
		KUNIT_EXPECT_FALSE(test, softrdma_ring_posted(ring, U32_MAX));

		/* consume in order, across the wrap */
		for (i = 0; i < 4; i++) {
			void *slot = softrdma_ring_consumer_slot(ring);

			KUNIT_ASSERT_EQ(test,
					softrdma_siw_fetch_send_wqe(slot, &wqe),
					0);
			KUNIT_EXPECT_EQ(test, wqe.wr_id, 100ULL * round + i);
			softrdma_ring_advance_consumer(ring);
			/* the slot is the user's again: flags 0 */
			KUNIT_EXPECT_EQ(test,
					sqe_at(ring, put - 4 + i)->flags, 0);
		}
		KUNIT_EXPECT_TRUE(test, softrdma_ring_empty(ring));
	}
	softrdma_ring_destroy(ring);
}

static void softrdma_queue_siw_abi_sq_user_clears(struct kunit *test)
{
	struct softrdma_ring *ring = make_ring(test, SOFTRDMA_SIW_SQ, 8);

	user_post_send(ring, 0, 1);
	user_post_send(ring, 1, 2);
	user_post_send(ring, 2, 3);
	/* the user withdraws the middle one: the kernel stops there */
	WRITE_ONCE(sqe_at(ring, 1)->flags, 0);
	KUNIT_EXPECT_TRUE(test, softrdma_ring_posted(ring, 0));
	KUNIT_EXPECT_FALSE(test, softrdma_ring_posted(ring, 1));
	/* flags without VALID are not posted, whatever else is set */
	WRITE_ONCE(sqe_at(ring, 1)->flags, 0xfffe);
	KUNIT_EXPECT_FALSE(test, softrdma_ring_posted(ring, 1));
	/* the kernel's position is private: a VALID slot ahead is not read */
	softrdma_ring_advance_consumer(ring);
	KUNIT_EXPECT_FALSE(test, softrdma_ring_posted(ring, 0));
	KUNIT_EXPECT_TRUE(test, softrdma_ring_posted(ring, 1));
	softrdma_ring_destroy(ring);
}

static void softrdma_queue_siw_abi_rq_protocol(struct kunit *test)
{
	struct softrdma_ring *ring = make_ring(test, SOFTRDMA_SIW_RQ, 2);
	struct softrdma_recv_wqe wqe;
	struct siw_rqe *rqe;
	u32 i;

	for (i = 0; i < 5; i++) {
		rqe = softrdma_ring_slot(ring, i);
		KUNIT_ASSERT_EQ(test, rqe->flags, 0);	/* free again */
		rqe->id = i;
		rqe->num_sge = 1;
		rqe->sge[0].length = 64;
		/* libsiw's seq_cst store: the slot before the flags */
		smp_store_release(&rqe->flags, SIW_WQE_VALID);
		KUNIT_ASSERT_FALSE(test, softrdma_ring_empty(ring));
		KUNIT_ASSERT_EQ(test,
				softrdma_siw_fetch_recv_wqe(rqe, &wqe), 0);
		KUNIT_EXPECT_EQ(test, wqe.wr_id, (u64)i);
		KUNIT_EXPECT_EQ(test, wqe.length, 64U);
		softrdma_ring_advance_consumer(ring);
		KUNIT_EXPECT_TRUE(test, softrdma_ring_empty(ring));
	}
	softrdma_ring_destroy(ring);
}

/* 4 slots; the kernel consumed @consumed, then the flags user space left */
struct rq_drop_case {
	const char *name;
	u32 consumed;
	u16 flags[4];		/* by offset from the kernel's position */
	u32 dropped;
};

#define RV	SIW_WQE_VALID

static const struct rq_drop_case rq_drop_cases[] = {
	{ "none", 0, { 0, 0, 0, 0 }, 0 },
	{ "two", 0, { RV, RV, 0, 0 }, 2 },
	{ "two_across_the_wrap", 3, { RV, RV, 0, 0 }, 2 },
	/* a ring libsiw filled empties whole, and no further */
	{ "full", 0, { RV, RV, RV, RV }, 4 },
	{ "full_after_3", 3, { RV, RV, RV, RV }, 4 },
	/* a hole stops it: what lies beyond it was never posted in order */
	{ "hole", 1, { RV, 0, RV, RV }, 1 },
	{ "flags_without_valid", 0, { 0xfffe, RV, 0, 0 }, 0 },
	{ "valid_among_other_flags", 0, { 0xffff, 0, 0, 0 }, 1 },
};

static void rq_drop_case_desc(const struct rq_drop_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rq_drop, rq_drop_cases, rq_drop_case_desc);

/*
 * RESET drops the posted RQEs unread: the VALID ones from the kernel's
 * position on, up to the first slot that is not, at most the ring; each
 * is given back (flags 0) and keeps its content, and the slot libsiw
 * posts to next is the next one the kernel takes.
 */
static void softrdma_queue_siw_abi_rq_drop_posted(struct kunit *test)
{
	const struct rq_drop_case *c = test->param_value;
	struct softrdma_ring *ring = make_ring(test, SOFTRDMA_SIW_RQ, 4);
	struct softrdma_recv_wqe wqe;
	struct siw_rqe *rqe;
	u32 i;

	for (i = 0; i < c->consumed; i++) {
		rqe = softrdma_ring_slot(ring, i);
		/* libsiw's seq_cst store: the slot before the flags */
		smp_store_release(&rqe->flags, RV);
		softrdma_ring_advance_consumer(ring);
	}
	for (i = 0; i < 4; i++) {
		rqe = softrdma_ring_slot(ring, c->consumed + i);
		rqe->id = 10 + i;
		/* as libsiw (or anyone with the mapping) would */
		smp_store_release(&rqe->flags, c->flags[i]);
	}

	KUNIT_EXPECT_EQ(test, softrdma_ring_drop_posted(ring), c->dropped);
	for (i = 0; i < 4; i++) {
		rqe = softrdma_ring_slot(ring, c->consumed + i);
		KUNIT_EXPECT_EQ(test, rqe->flags,
				i < c->dropped ? 0 : c->flags[i]);
		KUNIT_EXPECT_EQ(test, rqe->id, 10ULL + i);
	}
	if (c->dropped < 4)
		KUNIT_EXPECT_FALSE(test, softrdma_ring_posted(ring, 0));

	/*
	 * libsiw, at consumed + dropped, finds that slot free (no VALID)
	 * and posts the next life's first RQE there
	 */
	rqe = softrdma_ring_slot(ring, c->consumed + c->dropped);
	KUNIT_ASSERT_FALSE(test, rqe->flags & RV);
	rqe->id = 99;
	rqe->num_sge = 0;
	/* libsiw's seq_cst store: the slot before the flags */
	smp_store_release(&rqe->flags, RV);
	KUNIT_ASSERT_TRUE(test, softrdma_ring_posted(ring, 0));
	rqe = softrdma_ring_consumer_slot(ring);
	KUNIT_ASSERT_EQ(test, softrdma_siw_fetch_recv_wqe(rqe, &wqe), 0);
	KUNIT_EXPECT_EQ(test, wqe.wr_id, 99ULL);
	softrdma_ring_destroy(ring);
}

static void softrdma_queue_siw_abi_cq_protocol(struct kunit *test)
{
	struct softrdma_ring *ring = make_ring(test, SOFTRDMA_SIW_CQ, 4);
	struct ib_wc wc = { .opcode = IB_WC_RECV, .byte_len = 9 };
	struct siw_cqe *cqe;
	u32 i, n = 0;

	/* all four slots take a CQE, the fifth finds the ring full */
	for (i = 0; i < 4; i++) {
		KUNIT_ASSERT_FALSE(test, softrdma_ring_full(ring));
		wc.wr_id = n++;
		softrdma_siw_write_cqe(softrdma_ring_producer_slot(ring), &wc);
		cqe = softrdma_ring_producer_slot(ring);
		KUNIT_EXPECT_EQ(test, cqe->flags, 0);	/* not yet visible */
		softrdma_ring_advance_producer(ring);
		KUNIT_EXPECT_EQ(test, cqe->flags, SIW_WQE_VALID);
	}
	KUNIT_EXPECT_TRUE(test, softrdma_ring_full(ring));

	/* libsiw polls one: exactly that slot frees, then the ring wraps */
	cqe = softrdma_ring_slot(ring, 0);
	KUNIT_EXPECT_EQ(test, cqe->id, 0ULL);
	WRITE_ONCE(cqe->flags, 0);
	KUNIT_EXPECT_FALSE(test, softrdma_ring_full(ring));
	wc.wr_id = n++;
	softrdma_siw_write_cqe(softrdma_ring_producer_slot(ring), &wc);
	softrdma_ring_advance_producer(ring);
	KUNIT_EXPECT_EQ(test, cqe->id, 4ULL);
	KUNIT_EXPECT_TRUE(test, softrdma_ring_full(ring));

	/* a user setting flags on a free slot makes the CQ look full */
	for (i = 1; i < 4; i++)
		WRITE_ONCE(((struct siw_cqe *)softrdma_ring_slot(ring, i))->flags,
			   0);
	KUNIT_EXPECT_FALSE(test, softrdma_ring_full(ring));
	WRITE_ONCE(((struct siw_cqe *)softrdma_ring_slot(ring, 1))->flags,
		   0x80);
	KUNIT_EXPECT_TRUE(test, softrdma_ring_full(ring));
	softrdma_ring_destroy(ring);
}

/* ------------------------------------------------------------ SQE table */

struct sqe_case {
	const char *name;
	u16 flags;
	u8 opcode;
	u8 num_sge;
	u32 len0;		/* sge[0].length */
	int err;
	/* on success */
	u32 ib_opcode;
	u32 send_flags;
	u32 num_sge_out;
	u32 length;
};

#define V	SIW_WQE_VALID
#define INL	SIW_WQE_INLINE
#define SIG	SIW_WQE_SIGNALLED
#define SOL	SIW_WQE_SOLICITED
#define FEN	SIW_WQE_READ_FENCE

static const struct sqe_case sqe_cases[] = {
	/* what libsiw posts */
	{ "send", V | SIG, SIW_OP_SEND, 1, 100, 0, IB_WR_SEND,
	  IB_SEND_SIGNALED, 1, 100 },
	{ "send_six_sges", V, SIW_OP_SEND, 6, 10, 0, IB_WR_SEND, 0, 6, 60 },
	{ "send_zero_sges", V, SIW_OP_SEND, 0, 0, 0, IB_WR_SEND, 0, 0, 0 },
	{ "send_solicited", V | SOL, SIW_OP_SEND, 1, 1, 0, IB_WR_SEND,
	  IB_SEND_SOLICITED, 1, 1 },
	{ "write", V, SIW_OP_WRITE, 2, 5, 0, IB_WR_RDMA_WRITE, 0, 2, 10 },
	{ "write_fenced", V | FEN, SIW_OP_WRITE, 1, 5, 0, IB_WR_RDMA_WRITE,
	  IB_SEND_FENCE, 1, 5 },
	{ "read", V | SIG, SIW_OP_READ, 1, 4096, 0, IB_WR_RDMA_READ,
	  IB_SEND_SIGNALED, 1, 4096 },
	{ "read_fenced_accepted", V | FEN, SIW_OP_READ, 1, 8, 0,
	  IB_WR_RDMA_READ, IB_SEND_FENCE, 1, 8 },
	{ "send_inv", V, SIW_OP_SEND_REMOTE_INV, 1, 3, 0, IB_WR_SEND_WITH_INV,
	  0, 1, 3 },
	{ "send_inline_80", V | INL, SIW_OP_SEND, 3, 80, 0, IB_WR_SEND,
	  IB_SEND_INLINE, 0, 80 },
	{ "send_inline_0", V | INL, SIW_OP_SEND, 0, 0, 0, IB_WR_SEND,
	  IB_SEND_INLINE, 0, 0 },
	{ "write_inline_num_sge_ignored", V | INL, SIW_OP_WRITE, 200, 16, 0,
	  IB_WR_RDMA_WRITE, IB_SEND_INLINE, 0, 16 },
	/* hostile or unsupported */
	{ "not_valid", SIG, SIW_OP_SEND, 1, 1, -EINVAL },
	{ "flags_zero", 0, SIW_OP_SEND, 1, 1, -EINVAL },
	{ "flag_rem_inval", V | SIW_WQE_REM_INVAL, SIW_OP_SEND, 1, 1,
	  -EINVAL },
	{ "flag_completed", V | SIW_WQE_COMPLETED, SIW_OP_SEND, 1, 1,
	  -EINVAL },
	{ "flags_all_ones", 0xffff, SIW_OP_SEND, 1, 1, -EINVAL },
	{ "send_seven_sges", V, SIW_OP_SEND, 7, 1, -EINVAL },
	{ "send_255_sges", V, SIW_OP_SEND, 255, 1, -EINVAL },
	{ "inline_81", V | INL, SIW_OP_SEND, 1, 81, -EINVAL },
	{ "inline_huge", V | INL, SIW_OP_WRITE, 1, 0xffffffff, -EINVAL },
	{ "inline_read", V | INL, SIW_OP_READ, 1, 8, -EINVAL },
	{ "inline_send_inv", V | INL, SIW_OP_SEND_REMOTE_INV, 1, 8, -EINVAL },
	{ "read_zero_sges", V, SIW_OP_READ, 0, 0, -EINVAL },
	{ "read_two_sges", V, SIW_OP_READ, 2, 8, -EINVAL },
	{ "op_read_local_inv", V, SIW_OP_READ_LOCAL_INV, 1, 8, -EINVAL },
	{ "op_send_with_imm", V, SIW_OP_SEND_WITH_IMM, 1, 8, -EINVAL },
	{ "op_fetch_add", V, SIW_OP_FETCH_AND_ADD, 1, 8, -EINVAL },
	{ "op_comp_swap", V, SIW_OP_COMP_AND_SWAP, 1, 8, -EINVAL },
	{ "op_receive", V, SIW_OP_RECEIVE, 1, 8, -EINVAL },
	{ "op_read_response", V, SIW_OP_READ_RESPONSE, 1, 8, -EINVAL },
	{ "op_inval_stag", V, SIW_OP_INVAL_STAG, 0, 0, -EINVAL },
	{ "op_reg_mr", V, SIW_OP_REG_MR, 0, 0, -EINVAL },
	{ "op_12", V, SIW_NUM_OPCODES, 1, 8, -EINVAL },
	{ "op_255", V, 255, 1, 8, -EINVAL },
	{ "length_overflow", V, SIW_OP_SEND, 2, 0x80000001, -EINVAL },
};

static void sqe_case_desc(const struct sqe_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sqe, sqe_cases, sqe_case_desc);

static void softrdma_queue_siw_abi_sqe_validation(struct kunit *test)
{
	const struct sqe_case *c = test->param_value;
	struct softrdma_send_wqe *out;
	struct siw_sqe *sqe;
	u8 *payload;
	int i;

	sqe = kunit_kzalloc(test, sizeof(*sqe), GFP_KERNEL);
	out = kunit_kzalloc(test, sizeof(*out), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sqe);
	KUNIT_ASSERT_NOT_NULL(test, out);

	sqe->id = 0xfeedULL << 32 | 7;
	sqe->flags = c->flags;
	sqe->opcode = c->opcode;
	sqe->num_sge = c->num_sge;
	sqe->rkey = 0xabcd1234;
	sqe->raddr = 0x1000200030004000ULL;
	if (c->flags & INL) {
		sqe->sge[0].length = c->len0;
		payload = (u8 *)&sqe->sge[1];
		for (i = 0; i < SIW_MAX_INLINE; i++)
			payload[i] = i + 1;
	} else {
		for (i = 0; i < SIW_MAX_SGE; i++) {
			sqe->sge[i].laddr = 0x10000 * (i + 1);
			sqe->sge[i].length = c->len0;
			sqe->sge[i].lkey = 0x100 + i;
		}
	}
	memset(out, 0x5a, sizeof(*out));

	KUNIT_EXPECT_EQ(test, softrdma_siw_fetch_send_wqe(sqe, out), c->err);
	/* even a refused WQE leaves its wr_id for the flush */
	KUNIT_EXPECT_EQ(test, out->wr_id, sqe->id);
	if (c->err)
		return;

	KUNIT_EXPECT_EQ(test, out->opcode, c->ib_opcode);
	KUNIT_EXPECT_EQ(test, out->send_flags, c->send_flags);
	KUNIT_EXPECT_EQ(test, out->num_sge, c->num_sge_out);
	KUNIT_EXPECT_EQ(test, out->length, c->length);
	switch (c->ib_opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_READ:
		KUNIT_EXPECT_EQ(test, out->wr.rdma.remote_addr, sqe->raddr);
		KUNIT_EXPECT_EQ(test, out->wr.rdma.rkey, sqe->rkey);
		KUNIT_EXPECT_EQ(test, out->ex.invalidate_rkey, 0U);
		break;
	case IB_WR_SEND_WITH_INV:
		/* libsiw's quirk: the STag to invalidate is in rkey */
		KUNIT_EXPECT_EQ(test, out->ex.invalidate_rkey, sqe->rkey);
		KUNIT_EXPECT_EQ(test, out->wr.rdma.rkey, 0U);
		break;
	default:
		KUNIT_EXPECT_EQ(test, out->wr.rdma.remote_addr, 0ULL);
		KUNIT_EXPECT_EQ(test, out->ex.invalidate_rkey, 0U);
		break;
	}
	if (c->send_flags & IB_SEND_INLINE) {
		KUNIT_EXPECT_EQ(test, memcmp(out->inline_data, &sqe->sge[1],
					     c->length), 0);
	} else {
		for (i = 0; i < c->num_sge_out; i++) {
			KUNIT_EXPECT_EQ(test, out->sge[i].addr,
					sqe->sge[i].laddr);
			KUNIT_EXPECT_EQ(test, out->sge[i].length,
					sqe->sge[i].length);
			KUNIT_EXPECT_EQ(test, out->sge[i].lkey,
					sqe->sge[i].lkey);
		}
	}
}

/* The snapshot is a copy: later writes to the slot change nothing. */
static void softrdma_queue_siw_abi_sqe_snapshot(struct kunit *test)
{
	struct softrdma_send_wqe *out;
	struct siw_sqe *sqe;

	sqe = kunit_kzalloc(test, sizeof(*sqe), GFP_KERNEL);
	out = kunit_kzalloc(test, sizeof(*out), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sqe);
	KUNIT_ASSERT_NOT_NULL(test, out);

	sqe->flags = V;
	sqe->opcode = SIW_OP_WRITE;
	sqe->num_sge = 1;
	sqe->sge[0].length = 64;
	KUNIT_ASSERT_EQ(test, softrdma_siw_fetch_send_wqe(sqe, out), 0);
	sqe->num_sge = 200;
	sqe->sge[0].length = 0xffffffff;
	sqe->opcode = 99;
	KUNIT_EXPECT_EQ(test, out->num_sge, 1U);
	KUNIT_EXPECT_EQ(test, out->length, 64U);
	KUNIT_EXPECT_EQ(test, out->opcode, (u32)IB_WR_RDMA_WRITE);
}

/* ------------------------------------------------------------ RQE table */

struct rqe_case {
	const char *name;
	u16 flags;
	u8 num_sge;
	u8 opcode;
	int err;
};

static const struct rqe_case rqe_cases[] = {
	{ "one_sge", V, 1, 0, 0 },
	{ "six_sges", V, 6, 0, 0 },
	{ "zero_sges", V, 0, 0, 0 },
	{ "opcode_ignored", V, 1, 0xff, 0 },
	{ "seven_sges", V, 7, 0, -EINVAL },
	{ "255_sges", V, 255, 0, -EINVAL },
	{ "not_valid", 0, 1, 0, -EINVAL },
	{ "valid_plus_signalled", V | SIG, 1, 0, -EINVAL },
	{ "valid_plus_inline", V | INL, 1, 0, -EINVAL },
	{ "all_ones", 0xffff, 1, 0, -EINVAL },
};

static void rqe_case_desc(const struct rqe_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rqe, rqe_cases, rqe_case_desc);

static void softrdma_queue_siw_abi_rqe_validation(struct kunit *test)
{
	const struct rqe_case *c = test->param_value;
	struct softrdma_recv_wqe *out;
	struct siw_rqe *rqe;
	int i;

	rqe = kunit_kzalloc(test, sizeof(*rqe), GFP_KERNEL);
	out = kunit_kzalloc(test, sizeof(*out), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rqe);
	KUNIT_ASSERT_NOT_NULL(test, out);

	rqe->id = 77;
	rqe->flags = c->flags;
	rqe->num_sge = c->num_sge;
	rqe->opcode = c->opcode;
	for (i = 0; i < SIW_MAX_SGE; i++) {
		rqe->sge[i].laddr = 0x1000 * (i + 1);
		rqe->sge[i].length = 100 + i;
		rqe->sge[i].lkey = 0x200 + i;
	}

	KUNIT_EXPECT_EQ(test, softrdma_siw_fetch_recv_wqe(rqe, out), c->err);
	KUNIT_EXPECT_EQ(test, out->wr_id, 77ULL);
	if (c->err)
		return;
	KUNIT_EXPECT_EQ(test, out->num_sge, (u32)c->num_sge);
	KUNIT_EXPECT_EQ(test, out->length,
			(u32)(100 * c->num_sge +
			      c->num_sge * (c->num_sge - 1) / 2));
	for (i = 0; i < c->num_sge; i++) {
		KUNIT_EXPECT_EQ(test, out->sge[i].addr, rqe->sge[i].laddr);
		KUNIT_EXPECT_EQ(test, out->sge[i].lkey, rqe->sge[i].lkey);
	}
}

/* ------------------------------------------------------------------ CQEs */

struct wc_case {
	const char *name;
	u32 opcode;		/* enum ib_wc_opcode */
	u8 siw_opcode;
};

static const struct wc_case wc_opcode_cases[] = {
	{ "send", IB_WC_SEND, SIW_OP_SEND },
	{ "rdma_write", IB_WC_RDMA_WRITE, SIW_OP_WRITE },
	{ "rdma_read", IB_WC_RDMA_READ, SIW_OP_READ },
	{ "comp_swap", IB_WC_COMP_SWAP, SIW_OP_COMP_AND_SWAP },
	{ "fetch_add", IB_WC_FETCH_ADD, SIW_OP_FETCH_AND_ADD },
	{ "bind_mw", IB_WC_BIND_MW, SIW_OP_SEND },
	{ "local_inv", IB_WC_LOCAL_INV, SIW_OP_SEND },
	{ "lso", IB_WC_LSO, SIW_OP_SEND },
	{ "atomic_write", 0x20, SIW_OP_SEND },
	{ "reg_mr", IB_WC_REG_MR, SIW_OP_SEND },
	{ "masked_comp_swap", IB_WC_MASKED_COMP_SWAP, SIW_OP_SEND },
	{ "masked_fetch_add", IB_WC_MASKED_FETCH_ADD, SIW_OP_SEND },
	{ "recv", IB_WC_RECV, SIW_OP_RECEIVE },
	{ "recv_rdma_with_imm", IB_WC_RECV_RDMA_WITH_IMM, SIW_OP_RECEIVE },
	{ "garbage", 0x7fffffff, SIW_OP_SEND },
};

static void wc_case_desc(const struct wc_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(wc_opcode, wc_opcode_cases, wc_case_desc);

static void softrdma_queue_siw_abi_cqe_opcode(struct kunit *test)
{
	const struct wc_case *c = test->param_value;
	struct ib_wc wc = { .opcode = c->opcode, .byte_len = 5 };
	struct siw_cqe cqe;

	memset(&cqe, 0xff, sizeof(cqe));
	cqe.flags = 0;
	softrdma_siw_write_cqe(&cqe, &wc);
	KUNIT_EXPECT_EQ(test, cqe.opcode, c->siw_opcode);
	/* libsiw's table has 12 entries, only 0..8 are meaningful */
	KUNIT_EXPECT_LE(test, cqe.opcode, SIW_OP_RECEIVE);
}

/* Every ib_wc_status, and beyond: what libsiw's status table reads. */
static void softrdma_queue_siw_abi_cqe_status(struct kunit *test)
{
	static const struct {
		enum ib_wc_status ib;
		u16 siw;
	} named[] = {
		{ IB_WC_SUCCESS, SIW_WC_SUCCESS },
		{ IB_WC_LOC_LEN_ERR, SIW_WC_LOC_LEN_ERR },
		{ IB_WC_LOC_QP_OP_ERR, SIW_WC_LOC_QP_OP_ERR },
		{ IB_WC_LOC_PROT_ERR, SIW_WC_LOC_PROT_ERR },
		{ IB_WC_WR_FLUSH_ERR, SIW_WC_WR_FLUSH_ERR },
		{ IB_WC_BAD_RESP_ERR, SIW_WC_BAD_RESP_ERR },
		{ IB_WC_LOC_ACCESS_ERR, SIW_WC_LOC_ACCESS_ERR },
		{ IB_WC_REM_ACCESS_ERR, SIW_WC_REM_ACCESS_ERR },
		{ IB_WC_REM_INV_REQ_ERR, SIW_WC_REM_INV_REQ_ERR },
		{ IB_WC_GENERAL_ERR, SIW_WC_GENERAL_ERR },
		{ IB_WC_RETRY_EXC_ERR, SIW_WC_GENERAL_ERR },
		{ IB_WC_REM_OP_ERR, SIW_WC_GENERAL_ERR },
		{ IB_WC_MW_BIND_ERR, SIW_WC_GENERAL_ERR },
		{ IB_WC_RESP_TIMEOUT_ERR, SIW_WC_GENERAL_ERR },
	};
	struct ib_wc wc = { .opcode = IB_WC_SEND, .byte_len = 77 };
	struct siw_cqe cqe;
	u32 s;
	int i;

	for (i = 0; i < ARRAY_SIZE(named); i++)
		KUNIT_EXPECT_EQ(test, softrdma_siw_wc_status(named[i].ib),
				named[i].siw);

	for (s = 0; s <= IB_WC_GENERAL_ERR + 3; s++) {
		wc.status = s;
		memset(&cqe, 0, sizeof(cqe));
		softrdma_siw_write_cqe(&cqe, &wc);
		KUNIT_EXPECT_LT(test, cqe.status, (u16)SIW_NUM_WC_STATUS);
		/* bytes only for a success */
		KUNIT_EXPECT_EQ(test, cqe.bytes, s == IB_WC_SUCCESS ? 77U : 0U);
	}
}

static void softrdma_queue_siw_abi_cqe_fields(struct kunit *test)
{
	struct ib_qp qp = { .qp_num = 0xabcdef };
	struct ib_wc wc = {
		.wr_id = 0x1122334455667788ULL,
		.status = IB_WC_SUCCESS,
		.opcode = IB_WC_RECV,
		.byte_len = 4096,
		.ex.imm_data = cpu_to_be32(0x99),
		.qp = &qp,
	};
	struct siw_cqe cqe;

	memset(&cqe, 0xa5, sizeof(cqe));
	cqe.flags = 0;
	softrdma_siw_write_cqe(&cqe, &wc);
	KUNIT_EXPECT_EQ(test, cqe.id, wc.wr_id);
	KUNIT_EXPECT_EQ(test, cqe.flags, 0);	/* left for advance_producer */
	KUNIT_EXPECT_EQ(test, cqe.opcode, SIW_OP_RECEIVE);
	KUNIT_EXPECT_EQ(test, cqe.status, SIW_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, cqe.bytes, 4096U);
	KUNIT_EXPECT_EQ(test, cqe.imm_data, 0ULL);
	KUNIT_EXPECT_EQ(test, cqe.qp_id, 0xabcdefULL);

	wc.qp = NULL;
	softrdma_siw_write_cqe(&cqe, &wc);
	KUNIT_EXPECT_EQ(test, cqe.qp_id, 0ULL);
}

/* ------------------------------------------------------------ notify word */

struct notify_case {
	const char *name;
	u32 arm;		/* what the user stored */
	bool solicited;		/* solicited or error completion */
	bool fires;
	u32 after;		/* the word afterwards */
};

#define NS	SIW_NOTIFY_SOLICITED
#define NN	SIW_NOTIFY_NEXT_COMPLETION

static const struct notify_case notify_cases[] = {
	{ "unarmed", SIW_NOTIFY_NOT, false, false, SIW_NOTIFY_NOT },
	{ "unarmed_solicited", SIW_NOTIFY_NOT, true, false, SIW_NOTIFY_NOT },
	{ "next_any", NS | NN, false, true, SIW_NOTIFY_NOT },
	{ "next_solicited", NS | NN, true, true, SIW_NOTIFY_NOT },
	{ "next_only_bit", NN, false, true, SIW_NOTIFY_NOT },
	{ "solicited_only_plain", NS, false, false, NS },
	{ "solicited_only_solicited", NS, true, true, SIW_NOTIFY_NOT },
	{ "missed_events_bit_alone", SIW_NOTIFY_MISSED_EVENTS, true, false,
	  SIW_NOTIFY_MISSED_EVENTS },
	{ "garbage_high_bits", 0xfffffff8, true, false, 0xfffffff8 },
	{ "all_ones", 0xffffffff, false, true, SIW_NOTIFY_NOT },
};

static void notify_case_desc(const struct notify_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(notify, notify_cases, notify_case_desc);

static void softrdma_queue_siw_abi_notify(struct kunit *test)
{
	const struct notify_case *c = test->param_value;
	struct softrdma_ring *ring = make_ring(test, SOFTRDMA_SIW_CQ, 8);

	WRITE_ONCE(ring->ctrl->flags, c->arm);
	KUNIT_EXPECT_EQ(test, softrdma_siw_cq_notify(ring, c->solicited),
			c->fires);
	KUNIT_EXPECT_EQ(test, READ_ONCE(ring->ctrl->flags), c->after);
	/* one-shot: a second completion does not fire a consumed arm */
	if (c->fires)
		KUNIT_EXPECT_FALSE(test, softrdma_siw_cq_notify(ring, true));
	softrdma_ring_destroy(ring);
}

static void softrdma_queue_siw_abi_kernel_arm(struct kunit *test)
{
	struct softrdma_ring *ring = make_ring(test, SOFTRDMA_SIW_CQ, 2);

	softrdma_siw_cq_arm(ring, true);
	KUNIT_EXPECT_EQ(test, ring->ctrl->flags, (u32)NS);
	KUNIT_EXPECT_FALSE(test, softrdma_siw_cq_notify(ring, false));
	KUNIT_EXPECT_TRUE(test, softrdma_siw_cq_notify(ring, true));
	softrdma_siw_cq_arm(ring, false);
	KUNIT_EXPECT_EQ(test, ring->ctrl->flags, (u32)(NS | NN));
	KUNIT_EXPECT_TRUE(test, softrdma_siw_cq_notify(ring, false));
	KUNIT_EXPECT_EQ(test, ring->ctrl->flags, (u32)SIW_NOTIFY_NOT);
	softrdma_ring_destroy(ring);
}

static struct kunit_case softrdma_queue_siw_abi_cases[] = {
	KUNIT_CASE_PARAM(softrdma_queue_siw_abi_geometry, geom_gen_params),
	KUNIT_CASE(softrdma_queue_siw_abi_sq_valid_protocol),
	KUNIT_CASE(softrdma_queue_siw_abi_sq_user_clears),
	KUNIT_CASE(softrdma_queue_siw_abi_rq_protocol),
	KUNIT_CASE_PARAM(softrdma_queue_siw_abi_rq_drop_posted,
			 rq_drop_gen_params),
	KUNIT_CASE(softrdma_queue_siw_abi_cq_protocol),
	KUNIT_CASE_PARAM(softrdma_queue_siw_abi_sqe_validation,
			 sqe_gen_params),
	KUNIT_CASE(softrdma_queue_siw_abi_sqe_snapshot),
	KUNIT_CASE_PARAM(softrdma_queue_siw_abi_rqe_validation,
			 rqe_gen_params),
	KUNIT_CASE_PARAM(softrdma_queue_siw_abi_cqe_opcode,
			 wc_opcode_gen_params),
	KUNIT_CASE(softrdma_queue_siw_abi_cqe_status),
	KUNIT_CASE(softrdma_queue_siw_abi_cqe_fields),
	KUNIT_CASE_PARAM(softrdma_queue_siw_abi_notify, notify_gen_params),
	KUNIT_CASE(softrdma_queue_siw_abi_kernel_arm),
	{}
};

static struct kunit_suite softrdma_queue_siw_abi_suite = {
	.name = "softrdma_queue_siw_abi",
	.test_cases = softrdma_queue_siw_abi_cases,
};

kunit_test_suite(softrdma_queue_siw_abi_suite);
