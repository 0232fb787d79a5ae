// SPDX-License-Identifier: GPL-2.0-only
/*
 * siw user ABI rings and slot formats; the rules are in queue_siw_abi.h.
 */
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/log2.h>
#include <linux/nospec.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <rdma/uverbs_ioctl.h>

#include "cq.h"
#include "mmap.h"
#include "param.h"
#include "qp.h"
#include "queue_siw_abi.h"
#include "srq.h"
#include "uabi.h"
#include "verbs.h"

static_assert(sizeof(struct siw_sqe) == 120);
static_assert(sizeof(struct siw_rqe) == 112);
static_assert(sizeof(struct siw_cqe) == 32);
static_assert(sizeof(struct siw_cq_ctrl) == 8);
static_assert(SIW_MAX_SGE == SOFTRDMA_IWARP_MAX_SGE);
static_assert(SIW_MAX_INLINE == SOFTRDMA_IWARP_MAX_INLINE);
static_assert(SIW_MAX_SGE <= SOFTRDMA_MAX_SGE);
static_assert(SIW_MAX_INLINE <= SOFTRDMA_MAX_INLINE);
/* SQ and RQ slots share where the flags sit: one posted-check for both */
static_assert(offsetof(struct siw_sqe, flags) == 8);
static_assert(offsetof(struct siw_rqe, flags) == 8);
/* the inline payload starts at sge[1] and fills the slot */
static_assert(offsetof(struct siw_sqe, sge[1]) + SIW_MAX_INLINE ==
	      sizeof(struct siw_sqe));
/* user SGEs are copied as an array into the snapshot */
static_assert(sizeof(struct siw_sge) == sizeof(struct softrdma_sge));
static_assert(offsetof(struct siw_sge, length) ==
	      offsetof(struct softrdma_sge, length));
static_assert(offsetof(struct siw_sge, lkey) ==
	      offsetof(struct softrdma_sge, lkey));
/* no ring is ever mapped at libsiw's "no mapping" key (mmap.h) */
static_assert(SOFTRDMA_MMAP_MIN_PGOFF ==
	      (SIW_INVAL_UOBJ_KEY >> PAGE_SHIFT) + 1);
/* the notify word follows 32-byte slots: naturally aligned for cmpxchg */
static_assert(sizeof(struct siw_cqe) % sizeof(u32) == 0);

/* ---------------------------------------------------------------- rings */

static const u32 softrdma_siw_elem_size[] = {
	[SOFTRDMA_SIW_SQ] = sizeof(struct siw_sqe),
	[SOFTRDMA_SIW_RQ] = sizeof(struct siw_rqe),
	[SOFTRDMA_SIW_CQ] = sizeof(struct siw_cqe),
};

size_t softrdma_siw_ring_len(enum softrdma_siw_queue queue, u32 num_slots)
{
	size_t len = (size_t)num_slots * softrdma_siw_elem_size[queue];

	if (queue == SOFTRDMA_SIW_CQ)
		len += sizeof(struct siw_cq_ctrl);
	return len;
}

static bool softrdma_siw_ring_is_posted(const struct softrdma_ring *ring,
					u32 offset)
{
	return softrdma_siw_ring_posted(ring, offset);
}

static void softrdma_siw_ring_consumed(struct softrdma_ring *ring)
{
	softrdma_siw_ring_advance_consumer(ring);
}

/*
 * The VALID slots from the consumer position on, up to the first free
 * one and at most one ring's worth: a user that keeps setting VALID
 * behind us cannot keep us here.  libsiw posts in order from a private
 * position of its own, so the next slot it fills is the next one
 * consumed.
 */
static u32 softrdma_siw_ring_dropped(struct softrdma_ring *ring)
{
	u32 n;

	for (n = 0; n <= ring->index_mask; n++) {
		if (!softrdma_siw_ring_posted(ring, 0))
			break;
		softrdma_siw_ring_advance_consumer(ring);
	}
	return n;
}

static bool softrdma_siw_ring_is_full(const struct softrdma_ring *ring)
{
	return softrdma_siw_ring_full(ring);
}

static void softrdma_siw_ring_produced(struct softrdma_ring *ring)
{
	softrdma_siw_ring_advance_producer(ring);
}

/* libsiw's WQEs carry their own limits (SIW_MAX_SGE, SIW_MAX_INLINE) */
static int softrdma_siw_ring_fetch_send(const void *slot,
					const struct softrdma_wqe_limits *lim,
					struct softrdma_send_wqe *wqe)
{
	return softrdma_siw_fetch_send_wqe(slot, wqe);
}

static int softrdma_siw_ring_fetch_recv(const void *slot,
					const struct softrdma_wqe_limits *lim,
					struct softrdma_recv_wqe *wqe)
{
	return softrdma_siw_fetch_recv_wqe(slot, wqe);
}

static const struct softrdma_ring_ops softrdma_siw_ring_ops = {
	.posted = softrdma_siw_ring_is_posted,
	.advance_consumer = softrdma_siw_ring_consumed,
	.drop_posted = softrdma_siw_ring_dropped,
	.full = softrdma_siw_ring_is_full,
	.advance_producer = softrdma_siw_ring_produced,
	.fetch_send_wqe = softrdma_siw_ring_fetch_send,
	.fetch_recv_wqe = softrdma_siw_ring_fetch_recv,
	.spare_slots = 0,
};

struct softrdma_ring *softrdma_siw_ring_create(struct ib_ucontext *uctx,
					       u32 num_slots,
					       enum softrdma_siw_queue queue,
					       u64 *key)
{
	struct softrdma_mmap_entry *mem;
	struct softrdma_ring *ring;
	int err;

	if (!num_slots || !is_power_of_2(num_slots) ||
	    num_slots > SOFTRDMA_SIW_RING_MAX_SLOTS ||
	    (u32)queue >= ARRAY_SIZE(softrdma_siw_elem_size))
		return ERR_PTR(-EINVAL);

	ring = kzalloc(sizeof(*ring), GFP_KERNEL);
	if (!ring)
		return ERR_PTR(-ENOMEM);

	/* zeroed: every slot starts free, the CQ starts unarmed */
	mem = softrdma_mmap_alloc(uctx, softrdma_siw_ring_len(queue,
							      num_slots));
	if (IS_ERR(mem)) {
		err = PTR_ERR(mem);
		goto out_free_ring;
	}

	ring->mem = mem;
	ring->ops = &softrdma_siw_ring_ops;
	ring->slots = mem->buf;
	ring->index_mask = num_slots - 1;
	ring->elem_size = softrdma_siw_elem_size[queue];
	ring->user = !!uctx;
	if (queue == SOFTRDMA_SIW_CQ) {
		ring->kind = SOFTRDMA_RING_USER_CONSUMES;
		ring->ctrl = mem->buf + (size_t)num_slots * ring->elem_size;
	} else {
		ring->kind = SOFTRDMA_RING_USER_PRODUCES;
	}

	if (uctx) {
		err = softrdma_mmap_publish(uctx, mem, key);
		if (err)
			goto out_release_mem;
	}
	return ring;

out_release_mem:
	softrdma_mmap_release(mem);
out_free_ring:
	kfree(ring);
	return ERR_PTR(err);
}

/* ----------------------------------------------------------- send WQEs */

enum {
	SOFTRDMA_SIW_OP_INLINE	= BIT(0),	/* payload may be inline */
	SOFTRDMA_SIW_OP_RDMA	= BIT(1),	/* raddr/rkey name the target */
	SOFTRDMA_SIW_OP_INV	= BIT(2),	/* rkey is the STag to invalidate */
	SOFTRDMA_SIW_OP_ONE_SGE	= BIT(3),	/* exactly one SGE */
};

struct softrdma_siw_send_op {
	bool valid;
	u32 ib_opcode;		/* enum ib_wr_opcode */
	u8 rules;		/* SOFTRDMA_SIW_OP_* */
};

/*
 * What libsiw posts (its ibv_post_send opcode map) and RFC 5040 carries:
 * RDMA Write, RDMA Read Request, Send, Send with Invalidate.  The other
 * siw opcodes are for stock siw's kernel users or unsupported: refused.
 */
static const struct softrdma_siw_send_op softrdma_siw_send_ops[SIW_NUM_OPCODES] = {
	[SIW_OP_WRITE] = { true, IB_WR_RDMA_WRITE,
			   SOFTRDMA_SIW_OP_INLINE | SOFTRDMA_SIW_OP_RDMA },
	[SIW_OP_READ] = { true, IB_WR_RDMA_READ,
			  SOFTRDMA_SIW_OP_RDMA | SOFTRDMA_SIW_OP_ONE_SGE },
	[SIW_OP_SEND] = { true, IB_WR_SEND, SOFTRDMA_SIW_OP_INLINE },
	[SIW_OP_SEND_REMOTE_INV] = { true, IB_WR_SEND_WITH_INV,
				     SOFTRDMA_SIW_OP_INV },
};

#define SOFTRDMA_SIW_SEND_FLAGS	(SIW_WQE_VALID | SIW_WQE_INLINE | \
				 SIW_WQE_SIGNALLED | SIW_WQE_SOLICITED | \
				 SIW_WQE_READ_FENCE)

/* softrdma_fetch_sges() reads siw_sge arrays as struct softrdma_sge */
static_assert(sizeof(struct siw_sge) == sizeof(struct softrdma_sge));
static_assert(offsetof(struct siw_sge, length) ==
	      offsetof(struct softrdma_sge, length));
static_assert(offsetof(struct siw_sge, lkey) ==
	      offsetof(struct softrdma_sge, lkey));

int softrdma_siw_fetch_send_wqe(const void *slot,
				struct softrdma_send_wqe *out)
{
	const struct softrdma_siw_send_op *op;
	struct siw_sqe sqe;
	u32 len;

	/* one copy of the whole slot; the slot is not read again */
	memcpy(&sqe, slot, sizeof(sqe));
	barrier();

	/*
	 * wr_id first: a flush completes even a refused WQE by it.  Only
	 * the fixed part is cleared: of the SGE/inline area, what num_sge
	 * or length says is written below and nothing else is ever read.
	 */
	memset(out, 0, offsetof(struct softrdma_send_wqe, sge));
	out->wr_id = sqe.id;

	if (!(sqe.flags & SIW_WQE_VALID) ||
	    (sqe.flags & ~SOFTRDMA_SIW_SEND_FLAGS) ||
	    sqe.opcode >= ARRAY_SIZE(softrdma_siw_send_ops))
		return -EINVAL;
	op = &softrdma_siw_send_ops[array_index_nospec(sqe.opcode,
				    ARRAY_SIZE(softrdma_siw_send_ops))];
	if (!op->valid)
		return -EINVAL;

	out->opcode = op->ib_opcode;
	if (sqe.flags & SIW_WQE_SIGNALLED)
		out->send_flags |= IB_SEND_SIGNALED;
	if (sqe.flags & SIW_WQE_SOLICITED)
		out->send_flags |= IB_SEND_SOLICITED;
	if (sqe.flags & SIW_WQE_READ_FENCE)
		out->send_flags |= IB_SEND_FENCE;
	if (op->rules & SOFTRDMA_SIW_OP_RDMA) {
		out->wr.rdma.remote_addr = sqe.raddr;
		out->wr.rdma.rkey = sqe.rkey;
	}
	if (op->rules & SOFTRDMA_SIW_OP_INV)
		out->ex.invalidate_rkey = sqe.rkey;	/* libsiw's quirk */

	if (sqe.flags & SIW_WQE_INLINE) {
		len = sqe.sge[0].length;
		if (!(op->rules & SOFTRDMA_SIW_OP_INLINE) ||
		    len > SIW_MAX_INLINE)
			return -EINVAL;
		/* num_sge counts libsiw's source SGEs: ignored */
		memcpy(out->inline_data, &sqe.sge[1], len);
		out->send_flags |= IB_SEND_INLINE;
		out->length = len;
		return 0;
	}

	if (sqe.num_sge > SIW_MAX_SGE)
		return -EINVAL;
	if ((op->rules & SOFTRDMA_SIW_OP_ONE_SGE) && sqe.num_sge != 1)
		return -EINVAL;
	out->num_sge = sqe.num_sge;
	return softrdma_fetch_sges(sqe.sge, sqe.num_sge, out->sge,
				   &out->length);
}

/* -------------------------------------------------------- receive WQEs */

int softrdma_siw_fetch_recv_wqe(const void *slot,
				struct softrdma_recv_wqe *out)
{
	struct siw_rqe rqe;

	memcpy(&rqe, slot, sizeof(rqe));
	barrier();

	/* as for send WQEs: the SGEs past num_sge are never read */
	memset(out, 0, offsetof(struct softrdma_recv_wqe, sge));
	out->wr_id = rqe.id;

	/* libsiw stores exactly VALID; the opcode byte is ignored */
	if (rqe.flags != SIW_WQE_VALID || rqe.num_sge > SIW_MAX_SGE)
		return -EINVAL;

	out->num_sge = rqe.num_sge;
	return softrdma_fetch_sges(rqe.sge, rqe.num_sge, out->sge,
				   &out->length);
}

void softrdma_siw_cq_arm(struct softrdma_ring *ring, bool solicited_only)
{
	WRITE_ONCE(ring->ctrl->flags,
		   solicited_only ? SIW_NOTIFY_SOLICITED :
				    SIW_NOTIFY_SOLICITED |
				    SIW_NOTIFY_NEXT_COMPLETION);
}

/* ------------------------------------------------------------------ CQs */

/* cq_id for libsiw, which only prints it */
static atomic_t softrdma_siw_cq_ids = ATOMIC_INIT(0);

/*
 * A libsiw CQ: num_cqe = roundup_pow_of_two(cqe) slots, all usable, and
 * that is also ibcq.cqe.
 */
static int softrdma_siw_cq_create(struct softrdma_cq *cq, int cqe,
				  struct ib_udata *udata)
{
	struct siw_uresp_create_cq resp = {};
	struct softrdma_ring *ring;
	struct ib_ucontext *uctx;
	u32 num;
	int err;

	uctx = softrdma_ring_udata_uctx(udata, sizeof(resp));
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	num = roundup_pow_of_two(cqe);
	ring = softrdma_siw_ring_create(uctx, num, SOFTRDMA_SIW_CQ,
					&resp.cq_key);
	if (IS_ERR(ring))
		return PTR_ERR(ring);
	softrdma_ring_set_locks(ring, &cq->lock, NULL);

	resp.cq_id = atomic_inc_return(&softrdma_siw_cq_ids);
	resp.num_cqe = num;
	err = softrdma_ring_answer(udata, &resp, sizeof(resp), ring);
	if (err)
		return err;
	cq->ring = ring;
	cq->ibcq.cqe = num;
	return 0;
}

/* libsiw arms its CQ in the shared notify word, and so does the kernel */
static int softrdma_siw_cq_arm_verb(struct softrdma_cq *cq,
				    enum ib_cq_notify_flags flags)
{
	softrdma_siw_cq_arm(cq->ring, (flags & IB_CQ_SOLICITED_MASK) ==
				      IB_CQ_SOLICITED);
	return 0;
}

static bool softrdma_siw_cq_fires(struct softrdma_cq *cq, bool solicited)
{
	return softrdma_siw_cq_notify(cq->ring, solicited);
}

static const struct softrdma_cq_abi softrdma_siw_cq_abi = {
	.create = softrdma_siw_cq_create,
	.write_cqe = softrdma_siw_write_cqe,
	.arm = softrdma_siw_cq_arm_verb,
	.notify = softrdma_siw_cq_fires,
};

/* ---------------------------------------------------------- responses */

/* The siw ABI answers with a device id libsiw stores but never uses. */
static int softrdma_siw_ucontext_check(const struct ib_udata *udata)
{
	return udata->outlen < sizeof(struct siw_uresp_alloc_ctx) ? -EINVAL : 0;
}

static int softrdma_siw_ucontext_resp(struct ib_udata *udata)
{
	struct siw_uresp_alloc_ctx resp = {};

	return ib_copy_to_udata(udata, &resp, sizeof(resp));
}

/* ----------------------------------------------------------- QPs, SRQs */

/*
 * libsiw's rings: every slot usable, so the rounded sizes are the
 * capacities; an RQ even when none was asked for (libsiw maps it
 * whenever there is no SRQ, and a zero-length mapping fails).  The caps
 * reported are what the snapshot accepts: any SGE count up to the ABI's
 * six (libsiw checks no other bound) and 80 inline bytes.
 */
static int softrdma_siw_qp_create_queues(struct softrdma_qp *qp,
					 struct ib_qp_init_attr *init,
					 struct ib_ucontext *uctx, void *answer)
{
	struct siw_uresp_create_qp *resp = answer;
	struct ib_qp_cap *cap = &init->cap;
	u32 nsend = roundup_pow_of_two(cap->max_send_wr);
	u32 nrecv = roundup_pow_of_two(max(cap->max_recv_wr, 1U));
	u64 key;
	int err;

	qp->sq.ring = softrdma_siw_ring_create(uctx, nsend, SOFTRDMA_SIW_SQ,
					       &key);
	if (IS_ERR(qp->sq.ring))
		return PTR_ERR(qp->sq.ring);
	resp->sq_key = key;
	softrdma_ring_set_locks(qp->sq.ring, NULL, &qp->sq.lock);

	if (init->srq) {
		/*
		 * libsiw maps no RQ then, but refuses the QP if rq_key is
		 * SIW_INVAL_UOBJ_KEY: leave it 0
		 */
		nrecv = 0;
	} else {
		qp->rq.ring = softrdma_siw_ring_create(uctx, nrecv,
						       SOFTRDMA_SIW_RQ, &key);
		if (IS_ERR(qp->rq.ring)) {
			err = PTR_ERR(qp->rq.ring);
			qp->rq.ring = NULL;
			goto out_destroy_sq;
		}
		resp->rq_key = key;
		softrdma_ring_set_locks(qp->rq.ring, NULL, &qp->rq.lock);
	}

	qp->sq.lim = (struct softrdma_wqe_limits){
		.max_sge = SOFTRDMA_IWARP_MAX_SGE,
		.max_inline = SOFTRDMA_IWARP_MAX_INLINE,
		.rc = true,
	};
	qp->rq.lim = (struct softrdma_wqe_limits){
		.max_sge = SOFTRDMA_IWARP_MAX_SGE,
		.rc = true,
	};
	cap->max_send_wr = nsend;
	cap->max_recv_wr = nrecv;
	cap->max_send_sge = SOFTRDMA_IWARP_MAX_SGE;
	cap->max_recv_sge = init->srq ? 0 : SOFTRDMA_IWARP_MAX_SGE;
	cap->max_inline_data = SOFTRDMA_IWARP_MAX_INLINE;
	resp->num_sqe = nsend;
	resp->num_rqe = nrecv;
	return 0;

out_destroy_sq:
	softrdma_ring_destroy(qp->sq.ring);
	return err;
}

static void softrdma_siw_qp_resp_qpn(void *answer, u32 qpn)
{
	struct siw_uresp_create_qp *resp = answer;

	resp->qp_id = qpn;	/* what libsiw reports as wc.qp_num */
}

static_assert(sizeof(struct siw_uresp_create_qp) <= SOFTRDMA_UABI_RESP_MAX);

static const struct softrdma_qp_abi softrdma_siw_qp_abi = {
	.resp_len = sizeof(struct siw_uresp_create_qp),
	.create_queues = softrdma_siw_qp_create_queues,
	.resp_qpn = softrdma_siw_qp_resp_qpn,
};

/* libsiw's ring: power-of-two slots, all usable, six SGEs each */
static int softrdma_siw_srq_create_ring(struct softrdma_srq *srq,
					struct ib_srq_init_attr *init,
					struct ib_ucontext *uctx, void *answer)
{
	struct siw_uresp_create_srq *resp = answer;
	u32 num = roundup_pow_of_two(init->attr.max_wr);
	u64 key;

	srq->ring = softrdma_siw_ring_create(uctx, num, SOFTRDMA_SIW_RQ, &key);
	if (IS_ERR(srq->ring))
		return PTR_ERR(srq->ring);
	softrdma_ring_set_locks(srq->ring, NULL, &srq->lock);
	srq->lim = (struct softrdma_wqe_limits){
		.max_sge = SOFTRDMA_IWARP_MAX_SGE,
	};
	init->attr.max_wr = num;
	init->attr.max_sge = SOFTRDMA_IWARP_MAX_SGE;
	resp->num_rqe = num;
	resp->srq_key = key;
	return 0;
}

static_assert(sizeof(struct siw_uresp_create_srq) <= SOFTRDMA_UABI_RESP_MAX);

/* the siw ABI cannot carry a resize: no .resize */
static const struct softrdma_srq_abi softrdma_siw_srq_abi = {
	.resp_len = sizeof(struct siw_uresp_create_srq),
	.create_ring = softrdma_siw_srq_create_ring,
};

/* ---------------------------------------------------------- responses */

/* libsiw sends a key byte (ignored: ours is random) and takes the STag */
static int softrdma_siw_reg_mr_check(const struct ib_udata *udata)
{
	if (udata->inlen < sizeof(struct siw_ureq_reg_mr) ||
	    udata->outlen < sizeof(struct siw_uresp_reg_mr))
		return -EINVAL;
	return 0;
}

static int softrdma_siw_reg_mr_resp(struct ib_udata *udata, u32 key)
{
	struct siw_uresp_reg_mr resp = { .stag = key };

	return ib_copy_to_udata(udata, &resp, sizeof(resp));
}

/* iWARP devices have no address handles: no create_ah answer */
const struct softrdma_uabi_ops softrdma_siw_uabi_ops = {
	.cq = &softrdma_siw_cq_abi,
	.qp = &softrdma_siw_qp_abi,
	.srq = &softrdma_siw_srq_abi,
	.ucontext_check = softrdma_siw_ucontext_check,
	.ucontext_resp = softrdma_siw_ucontext_resp,
	.reg_mr_check = softrdma_siw_reg_mr_check,
	.reg_mr_resp = softrdma_siw_reg_mr_resp,
};
