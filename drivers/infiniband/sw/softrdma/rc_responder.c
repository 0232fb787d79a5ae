// SPDX-License-Identifier: GPL-2.0-only
/*
 * The RC responder (IBA vol 1 9.7.5 onwards): checks each request's PSN
 * and opcode sequence, executes SENDs into receive WQEs, RDMA WRITEs into
 * memory regions, RDMA READs and atomics, and answers with ACKs, NAKs,
 * read responses and atomic ACKs.  Runs in the receive softirq under
 * qp->rq.lock; long read responses continue from a work item.
 */
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/kernel_stat.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <kunit/visibility.h>

#include "counters.h"
#include "device.h"
#include "mr.h"
#include "mw.h"
#include "psn.h"
#include "qp.h"
#include "rc.h"
#include "roce_hdr.h"
#include "roce_net.h"
#include "roce_opcode.h"
#include "roce_pkt.h"
#include "roce_qp.h"
#include "sge.h"

static void *softrdma_rc_hdr(struct sk_buff *skb, u8 opcode,
			     enum softrdma_roce_ext ext)
{
	return skb->data + softrdma_roce_ext_offset(opcode, ext);
}

static struct sk_buff *softrdma_rc_resp_skb(struct softrdma_qp *qp, u8 opcode,
					    u32 psn, u32 payload)
{
	struct softrdma_bth *bth;
	struct sk_buff *skb;

	skb = softrdma_rc_alloc_skb(qp, softrdma_roce_hdr_len(opcode), payload);
	if (!skb)
		return NULL;
	bth = (struct softrdma_bth *)skb->data;
	softrdma_bth_set_opcode(bth, opcode);
	softrdma_bth_set_pkey(bth, SOFTRDMA_DEFAULT_PKEY);
	softrdma_bth_set_qpn(bth, qp->attr.dest_qp_num);
	softrdma_bth_set_psn(bth, psn);
	return skb;
}

static u8 softrdma_rc_syn_ack(void)
{
	return softrdma_aeth_syn_ack(SOFTRDMA_AETH_CREDITS_INVALID);
}

static struct sk_buff *softrdma_rc_ack_skb(struct softrdma_qp *qp,
					   u8 syndrome, u32 psn)
{
	struct sk_buff *skb;

	skb = softrdma_rc_resp_skb(qp, IB_OPCODE_RC_ACKNOWLEDGE, psn, 0);
	if (!skb) {
		softrdma_qp_rc(qp)->ack_pending = true;
		return NULL;
	}
	softrdma_aeth_set(softrdma_rc_hdr(skb, IB_OPCODE_RC_ACKNOWLEDGE,
					  SOFTRDMA_EXT_AETH),
			  syndrome, softrdma_qp_rc(qp)->msn);
	return skb;
}

/* Queue the coalesced ACK that is waiting, if one is (see below) */
static void softrdma_rc_push_ack(struct softrdma_qp *qp)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	struct sk_buff *ack;

	lockdep_assert_held(&qp->rq.lock);

	if (!rc->ack_deferred)
		return;
	rc->ack_deferred = false;
	ack = softrdma_rc_ack_skb(qp, softrdma_rc_syn_ack(), rc->ack_psn);
	if (ack)
		__skb_queue_tail(&rc->resp_txq, ack);
}

/*
 * Queue a response.  Responses leave in PSN order, so a coalesced ACK
 * still waiting goes out first.
 */
static void softrdma_rc_resp_queue(struct softrdma_qp *qp, struct sk_buff *skb)
{
	softrdma_rc_push_ack(qp);
	__skb_queue_tail(&softrdma_qp_rc(qp)->resp_txq, skb);
}

/* IBA 9.7.5.2: ACK (credits "invalid", 9.7.7.2), RNR NAK or NAK */
static void softrdma_rc_send_ack(struct softrdma_qp *qp, u8 syndrome, u32 psn)
{
	struct sk_buff *skb;

	lockdep_assert_held(&qp->rq.lock);

	skb = softrdma_rc_ack_skb(qp, syndrome, psn);
	if (skb)
		softrdma_rc_resp_queue(qp, skb);
}

/*
 * ACK coalescing.  An ACK covers every PSN before it (IBA 9.7.5.1.1), so
 * the ACKs that the requests of one receive batch ask for can be one.
 * The receive softirq takes a whole NAPI batch of packets before it
 * returns.  The first AckReq of a QP in a batch is answered at once, so a
 * lone request (ping-pong, latency) waits for nothing and costs nothing
 * more; a second one in the same batch puts the QP on a per-CPU list, and
 * it and the AckReqs after it wait: a tasklet, which runs right after
 * NET_RX in the same softirq pass, sends one ACK per QP for the newest
 * PSN.  A burst of small WRITEs then costs the link two ACKs, not one per
 * message.  NAKs, read responses and atomic ACKs are not delayed; they
 * push the waiting ACK out first.
 */
static bool rc_ack_coalesce = true;
module_param(rc_ack_coalesce, bool, 0644);
MODULE_PARM_DESC(rc_ack_coalesce,
		 "RoCE RC: at most two ACKs per receive batch instead of one per AckReq (default on)");

struct softrdma_rc_ackq {
	struct list_head qps;		/* by rc.ack_node; BHs off, this CPU */
	struct tasklet_struct tasklet;
};

static DEFINE_PER_CPU(struct softrdma_rc_ackq, softrdma_rc_ackq);

/*
 * Which receive batch runs now: this CPU's count of NET_RX softirq runs
 * (one per net_rx_action pass, however many packets it takes), the CPU
 * in the upper 32 bits.  BHs are off.  Receive paths that are not NET_RX
 * runs (threaded NAPI, the backlog work item) see an unchanged count:
 * their AckReqs after the first are coalesced, which costs them the
 * tasklet, never an ACK.
 */
static u64 softrdma_rc_rx_batch(void)
{
	int cpu = smp_processor_id();

	return (u64)cpu << 32 | kstat_softirqs_cpu(NET_RX_SOFTIRQ, cpu);
}

static void softrdma_rc_defer_ack(struct softrdma_qp *qp, u32 psn)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	struct softrdma_rc_ackq *q;
	u64 batch;

	lockdep_assert_held(&qp->rq.lock);

	if (!READ_ONCE(rc_ack_coalesce)) {
		softrdma_rc_send_ack(qp, softrdma_rc_syn_ack(), psn);
		return;
	}
	if (!rc->ack_listed) {
		batch = softrdma_rc_rx_batch();
		if (rc->ack_batch != batch) {
			/* the batch's first: answered at once */
			rc->ack_batch = batch;
			softrdma_rc_send_ack(qp, softrdma_rc_syn_ack(), psn);
			return;
		}
		/* rq.lock is taken with BHs off: this CPU's list is ours */
		rc->ack_listed = true;
		refcount_inc(&qp->ref);
		q = this_cpu_ptr(&softrdma_rc_ackq);
		list_add_tail(&rc->ack_node, &q->qps);
		tasklet_schedule(&q->tasklet);
	} else if (rc->ack_deferred) {
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_ACKS_COALESCED);
	}
	rc->ack_deferred = true;
	rc->ack_psn = psn;
}

static void softrdma_rc_ackq_run(struct tasklet_struct *t)
{
	struct softrdma_rc_ackq *q = from_tasklet(q, t, tasklet);
	struct softrdma_rc *rc, *next;
	struct softrdma_qp *qp;
	LIST_HEAD(qps);

	list_splice_init(&q->qps, &qps);
	list_for_each_entry_safe(rc, next, &qps, ack_node) {
		qp = softrdma_rc_qp(rc);
		spin_lock(&qp->rq.lock);
		list_del(&rc->ack_node);
		rc->ack_listed = false;
		if (rc->resp_state != SOFTRDMA_RC_RESP_STOPPED)
			softrdma_rc_push_ack(qp);
		spin_unlock(&qp->rq.lock);
		softrdma_rc_resp_flush(qp);
		softrdma_qp_put(qp);
	}
}

void softrdma_rc_ack_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct softrdma_rc_ackq *q = per_cpu_ptr(&softrdma_rc_ackq, cpu);

		INIT_LIST_HEAD(&q->qps);
		tasklet_setup(&q->tasklet, softrdma_rc_ackq_run);
	}
}

/* Every QP is gone, so every list is empty; a tasklet may still run */
void softrdma_rc_ack_exit(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		tasklet_kill(&per_cpu_ptr(&softrdma_rc_ackq, cpu)->tasklet);
}

static void softrdma_rc_schedule(struct softrdma_qp *qp, unsigned int us)
{
	lockdep_assert_held(&qp->rq.lock);

	if (softrdma_qp_rc(qp)->resp_state != SOFTRDMA_RC_RESP_STOPPED)
		queue_delayed_work(system_wq, &softrdma_qp_rc(qp)->resp_work,
				   usecs_to_jiffies(us));
}

/*
 * IBA 11.6.3.1: the responder's affiliated error for the NAK it sent.  An
 * affiliated error reports only what no completion can (IBA 11.6.2).  A
 * Remote Operational Error NAK answers a failure of the responder's own
 * receive WQE, which completes in error and so reports it: none is
 * raised, the QP only enters ERR.  So does an Invalid Request whose
 * receive WQE completed saying what was wrong (@rwqe_says: a SEND longer
 * than the WQE, IB_WC_LOC_LEN_ERR, IBA 9.7.5.2.2).  An Invalid Request
 * that consumed no WQE (an opcode out of sequence, a WRITE's length) has
 * nothing to report it but QP_REQ_ERR.  A Remote Access Error is an
 * access violation (QP_ACCESS_ERR) even when a Send with Invalidate's
 * receive WQE completes with it: IB_WC_LOC_PROT_ERR would not tell the
 * peer's key from the WQE's own.
 */
VISIBLE_IF_KUNIT enum softrdma_qp_err_cause
softrdma_rc_nak_cause(enum softrdma_aeth_nak_code code, bool rwqe_says)
{
	switch (code) {
	case SOFTRDMA_NAK_REM_ACCESS_ERR:
		return SOFTRDMA_QP_ERR_ACCESS;
	case SOFTRDMA_NAK_REM_OP_ERR:
		return SOFTRDMA_QP_ERR_WC;
	default:
		return rwqe_says ? SOFTRDMA_QP_ERR_WC : SOFTRDMA_QP_ERR_REQ;
	}
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_nak_cause);

/*
 * UC (IBA 9.8): a request packet is dropped, and with it the message it
 * belongs to.  Nothing is completed: a receive WQE partly written stays
 * the responder's, for the next message (softrdma_rc_do_send()).  What
 * follows is dropped up to the next First or Only.
 */
static void softrdma_uc_resp_drop(struct softrdma_qp *qp)
{
	softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_UC_DROPPED);
	softrdma_qp_rc(qp)->seq.msg = SOFTRDMA_RC_MSG_DROP;
}

/*
 * A class C error (IBA 9.9.3.1.3): NAK it, then the QP goes to Error and
 * takes nothing more; @rwqe_says: a receive WQE completed in error with
 * it, its status saying what failed (softrdma_rc_nak_cause()).  On UC,
 * where no NAK exists, the same checks drop the message silently and the
 * QP goes on (rxe's class D1).
 */
static void softrdma_rc_resp_nak(struct softrdma_qp *qp, u32 psn,
				 enum softrdma_aeth_nak_code code,
				 bool rwqe_says)
{
	softrdma_counter_inc(qp->sdev, code == SOFTRDMA_NAK_REM_ACCESS_ERR ?
				       SOFTRDMA_CNT_RCV_REMOTE_ACCESS_ERR :
				       SOFTRDMA_CNT_RCV_INVALID_REQUEST);
	if (!softrdma_rc_reliable(qp)) {
		softrdma_uc_resp_drop(qp);
		return;
	}
	softrdma_rc_send_ack(qp, softrdma_aeth_syn_nak(code), psn);
	/* a read being answered ends with it */
	softrdma_rc_resp_move(qp, SOFTRDMA_RC_RESP_FAILED);
	softrdma_qp_fail(qp, softrdma_rc_nak_cause(code, rwqe_says));
}

/* A class C error that completed no receive WQE */
static void softrdma_rc_resp_fatal(struct softrdma_qp *qp, u32 psn,
				   enum softrdma_aeth_nak_code code)
{
	softrdma_rc_resp_nak(qp, psn, code, false);
}

/*
 * Why a request packet is refused as invalid, once per QP life (an RC QP
 * then fails and takes nothing more; a UC QP drops the message and goes
 * on, and a peer could otherwise fill the log): enough to tell the
 * requester's sequence from the responder's.
 */
static void softrdma_rc_resp_note(struct softrdma_qp *qp, struct sk_buff *skb,
				  const char *why)
{
	struct softrdma_roce_pkt *pkt = softrdma_roce_pkt(skb);
	struct softrdma_rc *rc = softrdma_qp_rc(qp);

	/* a UC QP goes on after it: still once per QP, not per packet */
	if (rc->resp_noted)
		return;
	rc->resp_noted = true;
	ibdev_warn_ratelimited(&qp->sdev->ibdev,
			       "QP %u: invalid request (%s): opcode 0x%02x PSN %u payload %u; expected PSN %u msg %d write %u of %u left\n",
			       qp->ibqp.qp_num, why, pkt->opcode, pkt->psn,
			       pkt->payload_len, rc->seq.psn, rc->seq.msg,
			       rc->wr_left, rc->wr_len);
}

/*
 * Find and check the MR an R_Key names, for @access to [*@va, +@len): the
 * MR's own key, or a memory window's (mw.c), through which *@va becomes
 * the MR address it reaches (a zero-based window's offsets).  A key's
 * slot holds an MR or a window: the MR is looked for first, as most keys
 * name one, and a key that names none is tried as a window's.  The MR is
 * looked up through @mr_cache if not NULL (softrdma_mr_get_cached(),
 * which answers only as the lookup would); every check after it is made
 * for each request all the same.
 */
static struct softrdma_mr *softrdma_rc_rkey(struct softrdma_qp *qp, u32 rkey,
					    u64 *va, u32 len, int access,
					    struct softrdma_mr **mr_cache)
{
	struct softrdma_mr *mr;

	/* IBA 9.4.5: a QP grants remote rights of its own (10.2.4.1) */
	if ((qp->attr.qp_access_flags & access) != access)
		return NULL;
	mr = mr_cache ? softrdma_mr_get_cached(qp->sdev, rkey, mr_cache) :
			softrdma_mr_get(qp->sdev, rkey);
	if (!mr)
		return softrdma_mw_rkey(qp->sdev, qp, rkey, *va, len, access,
					&mr, va) ? NULL : mr;
	if (softrdma_mr_check(mr, qp->ibqp.pd, *va, len, access)) {
		softrdma_mr_put(mr);
		return NULL;
	}
	return mr;
}

/*
 * softrdma_rc_rkey() for a request at @psn that a refused key, right or
 * bound ends: NAK Remote Access Error (class C), and NULL
 */
static struct softrdma_mr *softrdma_rc_rkey_nak(struct softrdma_qp *qp,
						u32 psn, u32 rkey, u64 *va,
						u32 len, int access)
{
	struct softrdma_mr *mr = softrdma_rc_rkey(qp, rkey, va, len, access,
						  NULL);

	if (!mr)
		softrdma_rc_resp_fatal(qp, psn, SOFTRDMA_NAK_REM_ACCESS_ERR);
	return mr;
}

/**
 * softrdma_rc_read_mr() - resolve a read's R_Key again, for its responses
 * @qp: the responder's QP
 * @rkey: the read's R_Key
 * @va: in: the first byte still to send, as the READ named it; out: its
 *	address in the MR (they differ through a zero-based window)
 * @len: the bytes still to send, at least 1
 *
 * A READ is checked when it arrives (softrdma_rc_do_read()) and answered
 * later: a long one over several passes, a duplicate from its resource
 * (IBA 9.7.5.1.3), a response the host dropped rebuilt from it.  By then
 * the MR may be deregistered and its key index handed to a new MR, of
 * this PD or another, or a fast-registration MR invalidated and
 * registered again.  So each time the key is resolved, all of the check
 * is made again, as at arrival (IBA 9.4.5): the whole key, a valid MR, the
 * QP's PD, REMOTE_READ granted by the QP and by the MR, the bytes inside
 * the MR.
 *
 * Return: the MR, referenced, or NULL: a remote access error.
 */
VISIBLE_IF_KUNIT struct softrdma_mr *
softrdma_rc_read_mr(struct softrdma_qp *qp, u32 rkey, u64 *va, u32 len)
{
	return softrdma_rc_rkey(qp, rkey, va, len, IB_ACCESS_REMOTE_READ, NULL);
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_read_mr);

/**
 * softrdma_rc_write_mr() - resolve an RDMA WRITE's R_Key for some of its
 *	bytes
 * @qp: the responder's QP
 * @rkey: the WRITE's R_Key
 * @va: in: the first byte, as the WRITE names it; out: its address in the
 *	MR (they differ through a zero-based window)
 * @len: the bytes, at least 1: the whole WRITE when its first packet
 *	arrives, then each packet's payload
 * @mr_cache: NULL, or the MR cache (softrdma_mr_get_cached()) of the
 *	packets received together: the packets of one WRITE name one key
 *
 * Every packet is checked as the first was (IBA 9.4.5): the whole key, a
 * valid MR whose deregistration has not begun, the QP's PD, REMOTE_WRITE
 * granted by the QP and by the MR, the bytes inside the MR.  The cache
 * spares the key table's walk, never a check: an MR invalidated,
 * registered again or deregistered between two packets fails the next one.
 *
 * Return: the MR, referenced, or NULL: a remote access error.
 */
VISIBLE_IF_KUNIT struct softrdma_mr *
softrdma_rc_write_mr(struct softrdma_qp *qp, u32 rkey, u64 *va, u32 len,
		     struct softrdma_mr **mr_cache)
{
	return softrdma_rc_rkey(qp, rkey, va, len, IB_ACCESS_REMOTE_WRITE,
				mr_cache);
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_write_mr);

/*
 * One read response packet: @len bytes of @mr from @va, attached from the
 * pinned pages, or copied when small, unaligned or for devices that would
 * copy the pages anyway (softrdma_rc_tx_sg()).  ERR_PTR(-ENOMEM) when out
 * of memory (try again later), another error when the MR cannot give
 * them.
 */
static struct sk_buff *softrdma_rc_read_skb(struct softrdma_qp *qp,
					    struct softrdma_mr *mr, u8 opcode,
					    u32 psn, u64 va, u32 len)
{
	u32 pad = (4 - (len & 3)) & 3;
	struct sk_buff *skb = NULL;
	int err;

	if (len > SOFTRDMA_RC_COPY_MAX && !pad && softrdma_rc_tx_sg(qp)) {
		skb = softrdma_rc_resp_skb(qp, opcode, psn, 0);
		if (!skb)
			return ERR_PTR(-ENOMEM);
		if (softrdma_mr_skb_add_frags(mr, va, len, skb)) {
			kfree_skb(skb);
			skb = NULL;
		}
	}
	if (!skb) {
		skb = softrdma_rc_resp_skb(qp, opcode, psn, len + pad);
		if (!skb)
			return ERR_PTR(-ENOMEM);
		err = len ? softrdma_mr_copy(mr, va, skb_put(skb, len), len,
					     SOFTRDMA_COPY_FROM_MR) : 0;
		if (err) {
			kfree_skb(skb);
			return ERR_PTR(err);
		}
		skb_put_zero(skb, pad);
	}
	softrdma_bth_set_pad((struct softrdma_bth *)skb->data, pad);
	return skb;
}

/* Read responses: build up to @budget packets of the active read */
static void softrdma_rc_read_run(struct softrdma_qp *qp, unsigned int budget)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	struct softrdma_mr *mr = NULL;
	struct sk_buff *skb;
	u64 mr_shift = 0;	/* MR address - READ address */
	u32 n, off, len;
	u64 mr_va;
	u8 opcode;

	lockdep_assert_held(&qp->rq.lock);

	n = psn_diff(rc->rd_end, rc->rd_first);
	while (rc->resp_state == SOFTRDMA_RC_RESP_READING && budget--) {
		off = psn_diff(rc->rd_psn, rc->rd_psn0) * qp->mtu;
		len = min(rc->rd_len - off, qp->mtu);
		opcode = softrdma_rc_read_resp_opcode(psn_diff(rc->rd_psn,
							       rc->rd_first), n);

		if (len && !mr) {
			mr_va = rc->rd_va + off;
			mr = softrdma_rc_read_mr(qp, rc->rd_rkey, &mr_va,
						 rc->rd_len - off);
			if (!mr)
				goto out_access_err;
			mr_shift = mr_va - (rc->rd_va + off);
		}
		skb = softrdma_rc_read_skb(qp, mr, opcode, rc->rd_psn,
					   rc->rd_va + off + mr_shift, len);
		if (IS_ERR(skb)) {
			if (PTR_ERR(skb) == -ENOMEM)
				goto out_retry;
			goto out_access_err;
		}
		if (softrdma_roce_ext_offset(opcode, SOFTRDMA_EXT_AETH) > 0)
			softrdma_aeth_set(softrdma_rc_hdr(skb, opcode,
							  SOFTRDMA_EXT_AETH),
					  softrdma_rc_syn_ack(), rc->msn);
		softrdma_rc_resp_queue(qp, skb);
		rc->rd_psn = psn_add(rc->rd_psn, 1);
		if (rc->rd_psn == rc->rd_end)
			softrdma_rc_resp_move(qp, SOFTRDMA_RC_RESP_RUNNING);
	}
	if (mr)
		softrdma_mr_put(mr);
	if (rc->resp_state == SOFTRDMA_RC_RESP_READING ||
	    !skb_queue_empty(&rc->backlog))
		softrdma_rc_schedule(qp, 0);
	return;

out_retry:
	if (mr)
		softrdma_mr_put(mr);
	softrdma_rc_schedule(qp, SOFTRDMA_RC_XMIT_BACKOFF_MIN_US);
	return;

out_access_err:
	/*
	 * The MR no longer gives what the read asked for (deregistered,
	 * invalidated, its key reused): IBA 9.7.5.2.3, NAK Remote Access
	 * Error at the response the requester waits for next.
	 */
	if (mr)
		softrdma_mr_put(mr);
	softrdma_rc_resp_fatal(qp, rc->rd_psn, SOFTRDMA_NAK_REM_ACCESS_ERR);
}

/*
 * Answer the read whose first response is @first, from @psn (the tail a
 * duplicate asks for, 9.7.5.1.3) or from its start (@psn == @first).
 */
static void softrdma_rc_read_start(struct softrdma_qp *qp, u32 first, u32 psn,
				   u64 va, u32 rkey, u32 len)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);

	softrdma_rc_resp_move(qp, SOFTRDMA_RC_RESP_READING);
	rc->rd_first = first;
	rc->rd_psn0 = psn;
	rc->rd_psn = psn;
	rc->rd_end = psn_add(psn, softrdma_rc_wqe_npsn(IB_WR_RDMA_READ, len,
						       qp->mtu));
	rc->rd_va = va;
	rc->rd_rkey = rkey;
	rc->rd_len = len;
	softrdma_rc_read_run(qp, SOFTRDMA_RC_READ_BUDGET);
}

static struct softrdma_rc_res *softrdma_rc_res_new(struct softrdma_qp *qp)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	u32 n = clamp_t(u32, qp->attr.max_dest_rd_atomic, 1,
			SOFTRDMA_MAX_QP_RD_ATOM);
	struct softrdma_rc_res *res;

	res = &rc->res[rc->res_next % n];
	rc->res_next = (rc->res_next + 1) % n;
	return res;
}

static struct softrdma_rc_res *softrdma_rc_res_find(struct softrdma_qp *qp,
						    u32 psn)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(softrdma_qp_rc(qp)->res); i++) {
		struct softrdma_rc_res *res = &softrdma_qp_rc(qp)->res[i];

		if (res->npsn && psn_in_window(psn, res->first_psn, res->npsn))
			return res;
	}
	return NULL;
}

/* An atomic ACK carrying @orig; its AETH is the caller's */
static struct sk_buff *softrdma_rc_atomic_ack_skb(struct softrdma_qp *qp,
						  u32 psn, u64 orig)
{
	const u8 op = IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE;
	struct sk_buff *skb;

	skb = softrdma_rc_resp_skb(qp, op, psn, 0);
	if (skb)
		softrdma_atmack_set_orig(softrdma_rc_hdr(skb, op,
							 SOFTRDMA_EXT_ATMACK),
					 orig);
	return skb;
}

static void softrdma_rc_atomic_ack(struct softrdma_qp *qp, u32 psn, u64 orig)
{
	const u8 op = IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE;
	struct sk_buff *skb;

	skb = softrdma_rc_atomic_ack_skb(qp, psn, orig);
	if (!skb) {
		softrdma_qp_rc(qp)->ack_pending = true;
		return;
	}
	softrdma_aeth_set(softrdma_rc_hdr(skb, op, SOFTRDMA_EXT_AETH),
			  softrdma_rc_syn_ack(), softrdma_qp_rc(qp)->msn);
	softrdma_rc_resp_queue(qp, skb);
}

/*
 * IBA 1.5 9.4.8, 9.4.9: an executed ATOMIC WRITE or FLUSH is answered by
 * an RDMA READ Response Only of no payload, in order with the responses
 * before it
 */
static void softrdma_rc_placed_ack(struct softrdma_qp *qp, u32 psn)
{
	const u8 op = IB_OPCODE_RC_RDMA_READ_RESPONSE_ONLY;
	struct sk_buff *skb;

	skb = softrdma_rc_resp_skb(qp, op, psn, 0);
	if (!skb) {
		softrdma_qp_rc(qp)->ack_pending = true;
		return;
	}
	softrdma_aeth_set(softrdma_rc_hdr(skb, op, SOFTRDMA_EXT_AETH),
			  softrdma_rc_syn_ack(), softrdma_qp_rc(qp)->msn);
	softrdma_rc_resp_queue(qp, skb);
}

/*
 * IBA 9.7.5.1.1 duplicates: replay reads, atomics, ATOMIC WRITEs and
 * FLUSHes from their resource, ACK the rest
 */
static void softrdma_rc_resp_duplicate(struct softrdma_qp *qp,
				       struct sk_buff *skb,
				       const struct softrdma_roce_opcode *op)
{
	struct softrdma_roce_pkt *pkt = softrdma_roce_pkt(skb);
	const struct softrdma_reth *reth;
	struct softrdma_rc_res *res;
	u64 va;
	u32 len;

	softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_DUPLICATE_REQUESTS);
	res = softrdma_rc_res_find(qp, pkt->psn);
	if (op->flags & SOFTRDMA_OPF_READ) {
		if (!res || res->kind != SOFTRDMA_RC_RES_READ)
			return;
		/*
		 * the requester may ask for any part from one of its PSNs
		 * on, the tail or a gap (9.7.5.1.3)
		 */
		reth = softrdma_rc_hdr(skb, pkt->opcode, SOFTRDMA_EXT_RETH);
		va = softrdma_reth_va(reth);
		len = softrdma_reth_len(reth);
		if (va < res->va || va - res->va > res->len ||
		    len > res->len - (va - res->va) ||
		    (va - res->va) !=
			    (u64)psn_diff(pkt->psn, res->first_psn) * qp->mtu)
			return;
		softrdma_rc_read_start(qp, res->first_psn, pkt->psn, va,
				       res->rkey, len);
		return;
	}
	if (op->flags & SOFTRDMA_OPF_ATOMIC) {
		if (res && res->kind == SOFTRDMA_RC_RES_ATOMIC &&
		    res->first_psn == pkt->psn)
			softrdma_rc_atomic_ack(qp, pkt->psn, res->orig);
		return;
	}
	if (op->flags & (SOFTRDMA_OPF_ATOMIC_WRITE | SOFTRDMA_OPF_FLUSH)) {
		if (res && res->kind == SOFTRDMA_RC_RES_PLACED &&
		    res->first_psn == pkt->psn)
			softrdma_rc_placed_ack(qp, pkt->psn);
		return;
	}
	if (softrdma_bth_ackreq((struct softrdma_bth *)skb->data))
		softrdma_rc_send_ack(qp, softrdma_rc_syn_ack(),
				     psn_sub(softrdma_qp_rc(qp)->seq.psn, 1));
}

struct softrdma_rc_scatter {
	const struct sk_buff *skb;
	int offset;
};

static int softrdma_rc_scatter_one(struct softrdma_mr *mr, u64 addr, u32 len,
				   u32 done, void *ctx)
{
	struct softrdma_rc_scatter *sc = ctx;

	return softrdma_mr_copy_from_skb(mr, addr, sc->skb, sc->offset + done,
					 len);
}

/*
 * A local error of the responder's own (its receive WQE, IBA 9.9.3.1.3),
 * the WQE completed in error already: RC NAKs it as a Remote Operational
 * Error; on both, the responder takes no further packet and the QP goes
 * to ERR, without an affiliated error (the completion reports it).
 */
static void softrdma_rc_resp_local_fail(struct softrdma_qp *qp, u32 psn)
{
	if (softrdma_rc_reliable(qp)) {
		softrdma_rc_resp_fatal(qp, psn, SOFTRDMA_NAK_REM_OP_ERR);
		return;
	}
	softrdma_rc_resp_move(qp, SOFTRDMA_RC_RESP_FAILED);
	softrdma_qp_fail(qp, SOFTRDMA_QP_ERR_WC);
}

static void softrdma_rc_complete_rwqe(struct softrdma_qp *qp,
				      struct sk_buff *skb,
				      const struct softrdma_roce_opcode *op,
				      enum ib_wc_status status)
{
	struct softrdma_roce_pkt *pkt = softrdma_roce_pkt(skb);
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	struct ib_wc wc = {
		.wr_id = rc->rwqe.wr_id,
		.status = status,
		.opcode = IB_WC_RECV,
		.byte_len = rc->rcv_len,
		.src_qp = qp->attr.dest_qp_num,
	};
	int off;

	if (op->flags & SOFTRDMA_OPF_WRITE) {
		wc.opcode = IB_WC_RECV_RDMA_WITH_IMM;
		wc.byte_len = rc->wr_len;
	}
	if (status == IB_WC_SUCCESS) {
		off = softrdma_roce_ext_offset(pkt->opcode, SOFTRDMA_EXT_IMMDT);
		if (off > 0) {
			wc.wc_flags |= IB_WC_WITH_IMM;
			wc.ex.imm_data = ((struct softrdma_immdt *)
					  (skb->data + off))->imm;
		}
		off = softrdma_roce_ext_offset(pkt->opcode, SOFTRDMA_EXT_IETH);
		if (off > 0) {
			/* invalidated by softrdma_rc_send_inv() */
			wc.wc_flags |= IB_WC_WITH_INVALIDATE;
			wc.ex.invalidate_rkey =
				softrdma_ieth_rkey((struct softrdma_ieth *)
						   (skb->data + off));
		}
	}
	rc->have_rwqe = false;
	softrdma_qp_complete_recv(qp, &wc,
				  softrdma_bth_se((struct softrdma_bth *)skb->data));
}

/* Take the receive WQE a SEND or WRITE with immediate consumes */
static bool softrdma_rc_take_rwqe(struct softrdma_qp *qp, struct sk_buff *skb,
				  const struct softrdma_roce_opcode *op)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	u32 psn = softrdma_roce_pkt(skb)->psn;
	int err;

	if (rc->have_rwqe)
		return true;
	err = softrdma_rq_take(qp, &rc->rwqe);
	if (!err) {
		rc->have_rwqe = true;
		rc->rcv_len = 0;
		return true;
	}
	if (err == -ENOENT && !softrdma_rc_reliable(qp)) {
		/* UC: the message is lost, nobody asks again */
		softrdma_uc_resp_drop(qp);
		return false;
	}
	if (err == -ENOENT) {
		/* IBA 9.7.5.2.8: no receive WQE, try again later */
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_RNR_NAKS_SENT);
		softrdma_rc_send_ack(qp,
				     softrdma_aeth_syn_rnr_nak(qp->attr.min_rnr_timer),
				     psn);
		return false;
	}
	/*
	 * A malformed WQE (too many SGEs, lengths past 4 GiB): taken from
	 * the ring with its wr_id (softrdma_recv_ring_take()), it completes
	 * with a local QP operation error (IBA 10.8.3.1, class A), and the
	 * responder takes nothing after it: the QP fails, on UC too.
	 */
	rc->rcv_len = 0;
	softrdma_rc_complete_rwqe(qp, skb, op, IB_WC_LOC_QP_OP_ERR);
	softrdma_rc_resp_local_fail(qp, psn);
	return false;
}

/*
 * Send with Invalidate: the R_Key in the IETH ends with the message.  Only
 * a fast-registration MR of the QP's PD can be invalidated remotely; any
 * other key is refused like an R_Key violation.
 */
static int softrdma_rc_send_inv(struct softrdma_qp *qp, struct sk_buff *skb)
{
	struct softrdma_roce_pkt *pkt = softrdma_roce_pkt(skb);
	int off = softrdma_roce_ext_offset(pkt->opcode, SOFTRDMA_EXT_IETH);

	if (off <= 0)
		return 0;
	return softrdma_qp_remote_inv(qp, softrdma_ieth_rkey((struct softrdma_ieth *)
							     (skb->data + off)));
}

/* SEND First/Middle/Last/Only: into the receive WQE (IBA 9.7.5.1.1) */
static bool softrdma_rc_do_send(struct softrdma_qp *qp, struct sk_buff *skb,
				const struct softrdma_roce_opcode *op,
				struct softrdma_mr **mr_cache)
{
	struct softrdma_roce_pkt *pkt = softrdma_roce_pkt(skb);
	struct softrdma_rc_scatter sc = { .skb = skb, .offset = pkt->hdr_len };
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	int err;

	if (!softrdma_rc_take_rwqe(qp, skb, op))
		return false;
	/* a UC message dropped part-way left its WQE: it starts over */
	if (op->flags & (SOFTRDMA_OPF_FIRST | SOFTRDMA_OPF_ONLY))
		rc->rcv_len = 0;
	err = softrdma_sge_walk_cached(qp, rc->rwqe.sge, rc->rwqe.num_sge,
				       rc->rcv_len, pkt->payload_len,
				       IB_ACCESS_LOCAL_WRITE,
				       softrdma_rc_scatter_one, &sc, mr_cache);
	if (err == -EMSGSIZE) {
		/* IBA 9.7.5.2.2; a UC message dropped completes nothing */
		if (softrdma_rc_reliable(qp))
			softrdma_rc_complete_rwqe(qp, skb, op,
						  IB_WC_LOC_LEN_ERR);
		softrdma_rc_resp_nak(qp, pkt->psn, SOFTRDMA_NAK_INVALID_REQ,
				     true);
		return false;
	}
	if (err) {
		/*
		 * IBA 9.9.3.1.3: the receive WQE's own buffer is refused
		 * (local protection).  No message could land in it, so on UC
		 * too it completes in error and the QP fails: kept for the
		 * next message, it would silently drop every one.
		 */
		softrdma_rc_complete_rwqe(qp, skb, op, IB_WC_LOC_PROT_ERR);
		softrdma_rc_resp_local_fail(qp, pkt->psn);
		return false;
	}
	rc->rcv_len += pkt->payload_len;
	if (op->flags & (SOFTRDMA_OPF_LAST | SOFTRDMA_OPF_ONLY)) {
		if (softrdma_rc_send_inv(qp, skb)) {
			softrdma_rc_complete_rwqe(qp, skb, op,
						  IB_WC_LOC_PROT_ERR);
			softrdma_rc_resp_nak(qp, pkt->psn,
					     SOFTRDMA_NAK_REM_ACCESS_ERR, true);
			return false;
		}
		rc->msn = psn_add(rc->msn, 1);
		softrdma_rc_complete_rwqe(qp, skb, op, IB_WC_SUCCESS);
	}
	return true;
}

/* RDMA WRITE First/Middle/Last/Only (IBA 9.7.5.1.2, 9.4.5 R_Key checks) */
static bool softrdma_rc_do_write(struct softrdma_qp *qp, struct sk_buff *skb,
				 const struct softrdma_roce_opcode *op,
				 struct softrdma_mr **mr_cache)
{
	struct softrdma_roce_pkt *pkt = softrdma_roce_pkt(skb);
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	bool imm = softrdma_roce_ext_offset(pkt->opcode,
					    SOFTRDMA_EXT_IMMDT) > 0;
	const struct softrdma_reth *reth;
	struct softrdma_mr *mr;
	u64 va;
	int err;

	if (op->flags & (SOFTRDMA_OPF_FIRST | SOFTRDMA_OPF_ONLY)) {
		reth = softrdma_rc_hdr(skb, pkt->opcode, SOFTRDMA_EXT_RETH);
		rc->wr_va = softrdma_reth_va(reth);
		rc->wr_rkey = softrdma_reth_rkey(reth);
		rc->wr_len = softrdma_reth_len(reth);
		rc->wr_left = rc->wr_len;
		if (rc->wr_len > SOFTRDMA_ROCE_MAX_MSG_SZ) {
			softrdma_rc_resp_fatal(qp, pkt->psn,
					       SOFTRDMA_NAK_INVALID_REQ);
			return false;
		}
		/* the whole target is checked once, before any byte lands */
		if (rc->wr_len) {
			va = rc->wr_va;
			mr = softrdma_rc_write_mr(qp, rc->wr_rkey, &va,
						  rc->wr_len, mr_cache);
			if (!mr) {
				softrdma_rc_resp_fatal(qp, pkt->psn,
						       SOFTRDMA_NAK_REM_ACCESS_ERR);
				return false;
			}
			softrdma_mr_put(mr);
		}
	}
	/* IBA 9.7.5.1.2: the payload must add up to the RETH length */
	if (!softrdma_rc_write_fits(op->flags, pkt->payload_len,
				    rc->wr_left)) {
		softrdma_rc_resp_note(qp, skb, "write length");
		softrdma_rc_resp_fatal(qp, pkt->psn, SOFTRDMA_NAK_INVALID_REQ);
		return false;
	}
	/* IBA 9.7.5.1.2: RDMA WRITE with immediate consumes a receive WQE */
	if (imm && !softrdma_rc_take_rwqe(qp, skb, op))
		return false;
	if (pkt->payload_len) {
		va = rc->wr_va;
		mr = softrdma_rc_write_mr(qp, rc->wr_rkey, &va,
					  pkt->payload_len, mr_cache);
		err = mr ? softrdma_mr_copy_from_skb(mr, va, skb,
						     pkt->hdr_len,
						     pkt->payload_len) : -EACCES;
		if (mr)
			softrdma_mr_put(mr);
		if (err) {
			softrdma_rc_resp_fatal(qp, pkt->psn,
					       SOFTRDMA_NAK_REM_ACCESS_ERR);
			return false;
		}
	}
	rc->wr_va += pkt->payload_len;
	rc->wr_left -= pkt->payload_len;
	if (op->flags & (SOFTRDMA_OPF_LAST | SOFTRDMA_OPF_ONLY)) {
		rc->msn = psn_add(rc->msn, 1);
		if (imm)
			softrdma_rc_complete_rwqe(qp, skb, op, IB_WC_SUCCESS);
	}
	return true;
}

/* RDMA READ request (IBA 9.7.5.1.3): checked now, answered in order */
static bool softrdma_rc_do_read(struct softrdma_qp *qp, struct sk_buff *skb)
{
	struct softrdma_roce_pkt *pkt = softrdma_roce_pkt(skb);
	const struct softrdma_reth *reth;
	struct softrdma_rc_res *res;
	struct softrdma_mr *mr;
	u64 va, mr_va;
	u32 rkey, len;

	reth = softrdma_rc_hdr(skb, pkt->opcode, SOFTRDMA_EXT_RETH);
	va = softrdma_reth_va(reth);
	rkey = softrdma_reth_rkey(reth);
	len = softrdma_reth_len(reth);
	/* IBA 9.4; and no span that would break the PSN window, 9.7.1 */
	if (!softrdma_rc_msg_fits(IB_WR_RDMA_READ, len, qp->mtu)) {
		softrdma_rc_resp_fatal(qp, pkt->psn, SOFTRDMA_NAK_INVALID_REQ);
		return false;
	}
	if (len) {
		mr_va = va;
		mr = softrdma_rc_rkey_nak(qp, pkt->psn, rkey, &mr_va, len,
					  IB_ACCESS_REMOTE_READ);
		if (!mr)
			return false;
		softrdma_mr_put(mr);
	}
	res = softrdma_rc_res_new(qp);
	*res = (struct softrdma_rc_res){
		.first_psn = pkt->psn,
		.npsn = softrdma_rc_wqe_npsn(IB_WR_RDMA_READ, len, qp->mtu),
		.va = va,
		.rkey = rkey,
		.len = len,
	};
	softrdma_qp_rc(qp)->msn = psn_add(softrdma_qp_rc(qp)->msn, 1);
	softrdma_rc_resp_done(&softrdma_qp_rc(qp)->seq, pkt->psn, pkt->opcode, res->npsn);
	softrdma_rc_read_start(qp, pkt->psn, pkt->psn, va, rkey, len);
	return true;
}

/* CmpSwap and FetchAdd (IBA 9.7.5.1.5) */
static bool softrdma_rc_do_atomic(struct softrdma_qp *qp, struct sk_buff *skb)
{
	struct softrdma_roce_pkt *pkt = softrdma_roce_pkt(skb);
	const struct softrdma_atmeth *ath;
	struct softrdma_rc_res *res;
	struct softrdma_mr *mr;
	u64 va, orig = 0;
	int err;

	ath = softrdma_rc_hdr(skb, pkt->opcode, SOFTRDMA_EXT_ATMETH);
	va = softrdma_atmeth_va(ath);
	if (!IS_ALIGNED(va, sizeof(u64))) {
		softrdma_rc_resp_fatal(qp, pkt->psn, SOFTRDMA_NAK_INVALID_REQ);
		return false;
	}
	mr = softrdma_rc_rkey_nak(qp, pkt->psn, softrdma_atmeth_rkey(ath), &va,
				  sizeof(u64), IB_ACCESS_REMOTE_ATOMIC);
	if (!mr)
		return false;
	if (pkt->opcode == IB_OPCODE_RC_COMPARE_SWAP)
		err = softrdma_mr_atomic(mr, va, true,
					 softrdma_atmeth_compare(ath),
					 softrdma_atmeth_swap_add(ath), &orig);
	else
		err = softrdma_mr_atomic(mr, va, false,
					 softrdma_atmeth_swap_add(ath), 0,
					 &orig);
	softrdma_mr_put(mr);
	if (err) {
		softrdma_rc_resp_fatal(qp, pkt->psn, err == -EINVAL ?
				       SOFTRDMA_NAK_INVALID_REQ :
				       SOFTRDMA_NAK_REM_ACCESS_ERR);
		return false;
	}
	res = softrdma_rc_res_new(qp);
	*res = (struct softrdma_rc_res){
		.first_psn = pkt->psn,
		.npsn = 1,
		.kind = SOFTRDMA_RC_RES_ATOMIC,
		.orig = orig,
	};
	softrdma_qp_rc(qp)->msn = psn_add(softrdma_qp_rc(qp)->msn, 1);
	softrdma_rc_resp_done(&softrdma_qp_rc(qp)->seq, pkt->psn, pkt->opcode, 1);
	softrdma_rc_atomic_ack(qp, pkt->psn, orig);
	return true;
}

/* An ATOMIC WRITE or FLUSH executed: its resource, count and answer */
static void softrdma_rc_placed_done(struct softrdma_qp *qp, u32 psn, u8 opcode)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	struct softrdma_rc_res *res;

	res = softrdma_rc_res_new(qp);
	*res = (struct softrdma_rc_res){
		.first_psn = psn,
		.npsn = 1,
		.kind = SOFTRDMA_RC_RES_PLACED,
	};
	rc->msn = psn_add(rc->msn, 1);
	softrdma_rc_resp_done(&rc->seq, psn, opcode, 1);
	softrdma_rc_placed_ack(qp, psn);
}

/**
 * softrdma_rc_atomic_write_rule() - may an ATOMIC WRITE's RETH be executed?
 * @va: the RETH's virtual address
 * @len: the RETH's DMA length
 * @payload_len: the packet's payload bytes
 *
 * IBA 1.5 9.4.9: eight bytes, at an 8-byte aligned address, and the RETH
 * names exactly those the packet carries.
 *
 * Return: true if it may; else the request is invalid (NAK Invalid
 * Request).
 */
VISIBLE_IF_KUNIT bool softrdma_rc_atomic_write_rule(u64 va, u32 len,
						    u32 payload_len)
{
	return len == sizeof(u64) && payload_len == sizeof(u64) &&
	       IS_ALIGNED(va, sizeof(u64));
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_atomic_write_rule);

/*
 * ATOMIC WRITE (IBA 1.5 9.4.9): eight bytes stored as one into memory the
 * requester may write (REMOTE_WRITE on the QP and on the MR or window, as
 * for an RDMA WRITE; the core defines no right of its own for it)
 */
static bool softrdma_rc_do_atomic_write(struct softrdma_qp *qp,
					struct sk_buff *skb)
{
	struct softrdma_roce_pkt *pkt = softrdma_roce_pkt(skb);
	const struct softrdma_reth *reth;
	struct softrdma_mr *mr;
	u64 va, value;
	int err;

	reth = softrdma_rc_hdr(skb, pkt->opcode, SOFTRDMA_EXT_RETH);
	va = softrdma_reth_va(reth);
	if (!softrdma_rc_atomic_write_rule(va, softrdma_reth_len(reth),
					   pkt->payload_len)) {
		softrdma_rc_resp_note(qp, skb, "atomic write");
		softrdma_rc_resp_fatal(qp, pkt->psn, SOFTRDMA_NAK_INVALID_REQ);
		return false;
	}
	mr = softrdma_rc_rkey_nak(qp, pkt->psn, softrdma_reth_rkey(reth), &va,
				  sizeof(u64), IB_ACCESS_REMOTE_WRITE);
	if (!mr)
		return false;
	err = skb_copy_bits(skb, pkt->hdr_len, &value, sizeof(value));
	if (!err)
		err = softrdma_mr_atomic_write(mr, va, value);
	softrdma_mr_put(mr);
	if (err) {
		softrdma_rc_resp_fatal(qp, pkt->psn, err == -EINVAL ?
				       SOFTRDMA_NAK_INVALID_REQ :
				       SOFTRDMA_NAK_REM_ACCESS_ERR);
		return false;
	}
	softrdma_rc_placed_done(qp, pkt->psn, pkt->opcode);
	return true;
}

/**
 * softrdma_rc_flush_access() - the rights a FLUSH's FETH asks for
 * @plt: the placement type
 * @sel: the selectivity level
 * @access: set to the IB_ACCESS_FLUSH_* rights the QP and the MR must
 *	grant, all of them
 *
 * IBA 1.5 9.3.6, 9.4.8: at least one placement type, none reserved; the
 * range, or the whole memory region.  Persistence is a right no softrdma
 * MR is given (the device does not offer it, softrdma.rst; a QP takes it,
 * as the IB CM grants both flush rights), so a FLUSH asking for it fails
 * the R_Key check: NAK Remote Access Error.
 *
 * Return: false if the FETH is invalid (NAK Invalid Request).
 */
VISIBLE_IF_KUNIT bool softrdma_rc_flush_access(u8 plt, u8 sel, int *access)
{
	*access = 0;
	if (!plt || (plt & ~(SOFTRDMA_FETH_PLT_GLOBAL |
			     SOFTRDMA_FETH_PLT_PERSISTENT)))
		return false;
	if (sel != SOFTRDMA_FETH_SEL_RANGE && sel != SOFTRDMA_FETH_SEL_MR)
		return false;
	/* a core without the rights has no FLUSH either (compat.h) */
	if (!SOFTRDMA_HAVE_FLUSH)
		return false;
	if (plt & SOFTRDMA_FETH_PLT_GLOBAL)
		*access |= SOFTRDMA_ACCESS_FLUSH_GLOBAL;
	if (plt & SOFTRDMA_FETH_PLT_PERSISTENT)
		*access |= SOFTRDMA_ACCESS_FLUSH_PERSISTENT;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rc_flush_access);

/*
 * FLUSH (IBA 1.5 9.4.8).  Global visibility: every request of this QP
 * before the FLUSH was executed before it, in PSN order under rq.lock,
 * by stores straight into the registered pages; softrdma keeps no copy
 * of its own.  The answer leaves only once rq.lock is released (its
 * release orders those stores before it), so the requester learns of the
 * FLUSH after the data is visible to every CPU and device of the host.
 */
static bool softrdma_rc_do_flush(struct softrdma_qp *qp, struct sk_buff *skb)
{
	struct softrdma_roce_pkt *pkt = softrdma_roce_pkt(skb);
	const struct softrdma_feth *feth;
	const struct softrdma_reth *reth;
	struct softrdma_mr *mr;
	int access;
	u32 len;
	u8 sel;
	u64 va;

	feth = softrdma_rc_hdr(skb, pkt->opcode, SOFTRDMA_EXT_FETH);
	reth = softrdma_rc_hdr(skb, pkt->opcode, SOFTRDMA_EXT_RETH);
	sel = softrdma_feth_sel(feth);
	if (!softrdma_rc_flush_access(softrdma_feth_plt(feth), sel, &access)) {
		softrdma_rc_resp_note(qp, skb, "flush type");
		softrdma_rc_resp_fatal(qp, pkt->psn, SOFTRDMA_NAK_INVALID_REQ);
		return false;
	}
	va = softrdma_reth_va(reth);
	/* the whole region: the key alone matters (IBA 1.5 9.4.8) */
	len = sel == SOFTRDMA_FETH_SEL_MR ? 0 : softrdma_reth_len(reth);
	mr = softrdma_rc_rkey_nak(qp, pkt->psn, softrdma_reth_rkey(reth), &va,
				  len, access);
	if (!mr)
		return false;
	softrdma_mr_put(mr);
	softrdma_rc_placed_done(qp, pkt->psn, pkt->opcode);
	return true;
}

/* Does this kernel's RDMA core carry the IBA 1.5 request? (compat.h) */
static bool softrdma_rc_iba15_carried(const struct softrdma_roce_opcode *op)
{
	if (op->flags & SOFTRDMA_OPF_ATOMIC_WRITE)
		return SOFTRDMA_HAVE_ATOMIC_WRITE;
	if (op->flags & SOFTRDMA_OPF_FLUSH)
		return SOFTRDMA_HAVE_FLUSH;
	return true;
}

/*
 * A UC request packet's place (softrdma_uc_resp_step()): true if it is
 * to be executed, false if it was dropped (counted).  A PSN gap shows
 * once per lost run, as for RC: on the packet that finds it.
 */
static bool softrdma_uc_resp_judge(struct softrdma_qp *qp, struct sk_buff *skb)
{
	struct softrdma_roce_pkt *pkt = softrdma_roce_pkt(skb);
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	enum softrdma_rc_resp_msg was = rc->seq.msg;

	switch (softrdma_uc_resp_step(&rc->seq, pkt->psn, pkt->opcode)) {
	case SOFTRDMA_RC_RESP_EXECUTE:
		return true;
	case SOFTRDMA_RC_RESP_RESYNC:
		if (was != SOFTRDMA_RC_MSG_DROP)
			softrdma_counter_inc(qp->sdev,
					     SOFTRDMA_CNT_OUT_OF_SEQUENCE);
		return true;
	case SOFTRDMA_RC_RESP_SEQ_DROP:
		if (was != SOFTRDMA_RC_MSG_DROP)
			softrdma_counter_inc(qp->sdev,
					     SOFTRDMA_CNT_OUT_OF_SEQUENCE);
		softrdma_uc_resp_drop(qp);
		return false;
	default:
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_RCV_INVALID_REQUEST);
		softrdma_uc_resp_drop(qp);
		return false;
	}
}

/*
 * One request packet, in order; rq.lock held; consumes @skb.  @mr_cache:
 * NULL, or the cache of the packets received with it (softrdma_rc_rcv()).
 */
static void softrdma_rc_resp_handle(struct softrdma_qp *qp,
				    struct sk_buff *skb,
				    struct softrdma_mr **mr_cache)
{
	struct softrdma_roce_pkt *pkt = softrdma_roce_pkt(skb);
	const struct softrdma_roce_opcode *op = softrdma_roce_opcode(pkt->opcode);
	bool reliable = softrdma_rc_reliable(qp);
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	bool ok;

	lockdep_assert_held(&qp->rq.lock);

	if (rc->resp_state == SOFTRDMA_RC_RESP_FAILED) {
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_RCV_QP_NOT_READY);
		goto out_free;
	}
	if (!reliable) {
		if (!softrdma_uc_resp_judge(qp, skb))
			goto out_free;
		goto execute;
	}
	switch (softrdma_rc_resp_step(&rc->seq, pkt->psn, pkt->opcode)) {
	case SOFTRDMA_RC_RESP_EXECUTE:
	case SOFTRDMA_RC_RESP_RESYNC:
		break;
	case SOFTRDMA_RC_RESP_DUPLICATE:
		softrdma_rc_resp_duplicate(qp, skb, op);
		goto out_free;
	case SOFTRDMA_RC_RESP_SEQ_NAK:
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_OUT_OF_SEQUENCE);
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_SEQ_NAKS_SENT);
		softrdma_rc_send_ack(qp,
				     softrdma_aeth_syn_nak(SOFTRDMA_NAK_PSN_SEQ_ERR),
				     rc->seq.psn);
		goto out_free;
	case SOFTRDMA_RC_RESP_SEQ_DROP:
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_OUT_OF_SEQUENCE);
		goto out_free;
	case SOFTRDMA_RC_RESP_INVALID:
		softrdma_rc_resp_note(qp, skb, "opcode sequence");
		softrdma_rc_resp_fatal(qp, pkt->psn, SOFTRDMA_NAK_INVALID_REQ);
		goto out_free;
	}

execute:
	/* IBA 9.4 segmentation: invalid request */
	if (!softrdma_roce_payload_valid(pkt->opcode, pkt->payload_len,
					 qp->mtu)) {
		softrdma_rc_resp_note(qp, skb, "payload length");
		softrdma_rc_resp_fatal(qp, pkt->psn, SOFTRDMA_NAK_INVALID_REQ);
		goto out_free;
	}
	/* IBA 1.5 requests on a kernel whose core does not carry them */
	if (!softrdma_rc_iba15_carried(op)) {
		softrdma_rc_resp_note(qp, skb, "IBA 1.5 opcode");
		softrdma_rc_resp_fatal(qp, pkt->psn, SOFTRDMA_NAK_INVALID_REQ);
		goto out_free;
	}

	/*
	 * a READ, atomic, ATOMIC WRITE or FLUSH counts in the MSN: the
	 * waiting ACK goes first
	 */
	if (op->flags & (SOFTRDMA_OPF_READ | SOFTRDMA_OPF_ATOMIC |
			 SOFTRDMA_OPF_ATOMIC_WRITE | SOFTRDMA_OPF_FLUSH))
		softrdma_rc_push_ack(qp);
	if (op->flags & SOFTRDMA_OPF_SEND)
		ok = softrdma_rc_do_send(qp, skb, op, mr_cache);
	else if (op->flags & SOFTRDMA_OPF_WRITE)
		ok = softrdma_rc_do_write(qp, skb, op, mr_cache);
	else if (op->flags & SOFTRDMA_OPF_READ)
		ok = softrdma_rc_do_read(qp, skb);
	else if (op->flags & SOFTRDMA_OPF_ATOMIC)
		ok = softrdma_rc_do_atomic(qp, skb);
	else if (op->flags & SOFTRDMA_OPF_ATOMIC_WRITE)
		ok = softrdma_rc_do_atomic_write(qp, skb);
	else if (op->flags & SOFTRDMA_OPF_FLUSH)
		ok = softrdma_rc_do_flush(qp, skb);
	else
		ok = false;
	if (!ok)
		goto out_free;

	if (op->flags & (SOFTRDMA_OPF_SEND | SOFTRDMA_OPF_WRITE)) {
		softrdma_rc_resp_done(&rc->seq, pkt->psn, pkt->opcode, 1);
		if (!reliable)
			goto out_free;
		/*
		 * IBA 9.7.2: ACK what asks for it, coalesced per batch.  An
		 * ACK already waiting covers the newer packet too, so that
		 * its PSN and its MSN (messages done so far) agree.
		 */
		if (softrdma_bth_ackreq((struct softrdma_bth *)skb->data))
			softrdma_rc_defer_ack(qp, pkt->psn);
		else if (rc->ack_deferred)
			rc->ack_psn = pkt->psn;
	}
out_free:
	kfree_skb(skb);
}

/*
 * A duplicate RDMA READ request (IBA 9.7.5.1.1) that arrives while a read
 * response is being sent; rq.lock held.  If it asks for PSNs this stream
 * has yet to build, the stream answers it: drop it.  If it asks for PSNs
 * already sent, the requester is missing them, and everything sent after
 * them is of no use to it (it takes responses in PSN order only): stop
 * the stream, drop the requests queued behind it (go-back-N sends them
 * again after this one) and answer it now.  Queued behind the stream and
 * the backlog instead, the answer could come later than the requester's
 * ACK timeout times its retry count, each timeout queueing another
 * replay.  But a request for a gap alone (it ends before its READ does)
 * comes from a requester that keeps what arrives past the gap: the stream
 * goes on, and the request waits its turn.  Returns true if it consumed
 * @skb.
 */
static bool softrdma_rc_resp_dup_read(struct softrdma_qp *qp,
				      struct sk_buff *skb)
{
	struct softrdma_roce_pkt *pkt = softrdma_roce_pkt(skb);
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	const struct softrdma_reth *reth;
	struct softrdma_rc_res *res;
	struct sk_buff *queued;
	u64 va;

	lockdep_assert_held(&qp->rq.lock);

	if (rc->resp_state != SOFTRDMA_RC_RESP_READING ||
	    pkt->opcode != IB_OPCODE_RC_RDMA_READ_REQUEST ||
	    !psn_before(pkt->psn, rc->seq.psn))
		return false;
	if (psn_in_window(pkt->psn, rc->rd_psn,
			  psn_diff(rc->rd_end, rc->rd_psn))) {
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_DUPLICATE_REQUESTS);
		kfree_skb(skb);
		return true;
	}
	/* a read after this one: it waits its turn */
	if (!psn_before(pkt->psn, rc->rd_psn))
		return false;
	res = softrdma_rc_res_find(qp, pkt->psn);
	reth = softrdma_rc_hdr(skb, pkt->opcode, SOFTRDMA_EXT_RETH);
	va = softrdma_reth_va(reth);
	if (res && res->kind == SOFTRDMA_RC_RES_READ && va >= res->va && va - res->va < res->len &&
	    softrdma_reth_len(reth) < res->len - (va - res->va))
		return false;
	softrdma_rc_resp_move(qp, SOFTRDMA_RC_RESP_RUNNING);
	while ((queued = __skb_dequeue(&rc->backlog))) {
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_RCV_BACKLOG_DROP);
		kfree_skb(queued);
	}
	softrdma_rc_resp_handle(qp, skb, NULL);
	return true;
}

/**
 * softrdma_rc_resp_rcv() - a request packet for this QP's responder
 * @qp: the QP, referenced by the caller
 * @skb: as roce_pkt.h describes; consumed
 * @mr_cache: as for softrdma_rc_rcv(); a request queued behind a read is
 *	executed later without it
 *
 * Context: softirq, or BHs disabled.
 */
void softrdma_rc_resp_rcv(struct softrdma_qp *qp, struct sk_buff *skb,
			  struct softrdma_mr **mr_cache)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	bool comm_est = false, flush;
	enum ib_qp_state state;

	spin_lock_bh(&qp->rq.lock);
	state = qp->state;
	if (rc->resp_state == SOFTRDMA_RC_RESP_STOPPED ||
	    (state != IB_QPS_RTR && state != IB_QPS_RTS &&
	     state != IB_QPS_SQD)) {
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_RCV_QP_NOT_READY);
		kfree_skb(skb);
		goto out_unlock;
	}
	/*
	 * IBA 11.6.3.1 Communication Established: the first request from
	 * the peer reached the QP while it is still in RTR (the CM's RTU
	 * may be late or lost; the consumer may move on to RTS).
	 */
	if (state == IB_QPS_RTR && !rc->comm_est) {
		rc->comm_est = true;
		comm_est = true;
	}
	if (softrdma_rc_resp_dup_read(qp, skb))
		goto out_unlock;
	/* responses leave in request order: wait for the read in progress */
	if (rc->resp_state == SOFTRDMA_RC_RESP_READING ||
	    !skb_queue_empty(&rc->backlog)) {
		if (skb_queue_len(&rc->backlog) >= SOFTRDMA_RC_BACKLOG) {
			softrdma_counter_inc(qp->sdev,
					     SOFTRDMA_CNT_RCV_BACKLOG_DROP);
			kfree_skb(skb);
		} else {
			__skb_queue_tail(&rc->backlog, skb);
		}
		goto out_unlock;
	}
	softrdma_rc_resp_handle(qp, skb, mr_cache);
out_unlock:
	/*
	 * A request that asked for no ACK (or one deferred to the end of
	 * the batch) queued nothing: the flush would find nothing to send.
	 * Whoever queues after the unlock flushes.
	 */
	flush = !skb_queue_empty(&rc->resp_txq);
	spin_unlock_bh(&qp->rq.lock);
	if (comm_est && qp->ibqp.event_handler) {
		struct ib_event event = {
			.device = qp->ibqp.device,
			.element.qp = &qp->ibqp,
			.event = IB_EVENT_COMM_EST,
		};

		qp->ibqp.event_handler(&event, qp->ibqp.qp_context);
	}
	if (flush)
		softrdma_rc_resp_flush(qp);
}

/*
 * The response the host dropped, built again: the same opcode, PSN and
 * AETH (@smsn), and for a read response or an atomic ACK the same payload
 * from the resource that answered it.  NULL if it cannot be.
 */
static struct sk_buff *softrdma_rc_resp_rebuild(struct softrdma_qp *qp,
						u8 opcode, u32 psn,
						__be32 smsn)
{
	const struct softrdma_roce_opcode *op = softrdma_roce_opcode(opcode);
	struct softrdma_rc_res *res = NULL;
	struct softrdma_mr *mr = NULL;
	struct sk_buff *skb;
	struct softrdma_aeth *aeth;
	u32 off, len;
	u64 mr_va;

	if (!op)
		return NULL;
	if (op->flags & (SOFTRDMA_OPF_READ | SOFTRDMA_OPF_ATOMIC)) {
		res = softrdma_rc_res_find(qp, psn);
		if (!res)
			return NULL;
		/* an atomic ACK from an atomic's resource, the rest not */
		if (op->flags & SOFTRDMA_OPF_ATOMIC ?
		    res->kind != SOFTRDMA_RC_RES_ATOMIC :
		    res->kind == SOFTRDMA_RC_RES_ATOMIC)
			return NULL;
	}
	if (res && res->kind == SOFTRDMA_RC_RES_PLACED) {
		skb = softrdma_rc_resp_skb(qp, opcode, psn, 0);
		if (!skb)
			return NULL;
	} else if (op->flags & SOFTRDMA_OPF_READ) {
		off = psn_diff(psn, res->first_psn) * qp->mtu;
		len = min(res->len - off, qp->mtu);
		mr_va = res->va + off;
		if (len) {
			mr = softrdma_rc_read_mr(qp, res->rkey, &mr_va, len);
			if (!mr) {
				/* as softrdma_rc_read_run() would now */
				softrdma_rc_resp_fatal(qp, psn,
						       SOFTRDMA_NAK_REM_ACCESS_ERR);
				return NULL;
			}
		}
		skb = softrdma_rc_read_skb(qp, mr, opcode, psn, mr_va, len);
		if (mr)
			softrdma_mr_put(mr);
		if (IS_ERR(skb))
			return NULL;
	} else {
		skb = res ? softrdma_rc_atomic_ack_skb(qp, psn, res->orig) :
			    softrdma_rc_resp_skb(qp, opcode, psn, 0);
		if (!skb)
			return NULL;
	}
	if (softrdma_roce_ext_offset(opcode, SOFTRDMA_EXT_AETH) > 0) {
		aeth = softrdma_rc_hdr(skb, opcode, SOFTRDMA_EXT_AETH);
		aeth->smsn = smsn;
	}
	return skb;
}

/*
 * A response the host dropped (qdisc full, no memory) goes first again,
 * built anew, and the queue behind it stays: it may hold answers to
 * requests kept nowhere else (a read taken from the backlog).  An ACK
 * that cannot be rebuilt is replaced by a fresh one; a lost read response
 * the requester asks for again.
 */
static void softrdma_rc_resp_requeue(struct softrdma_qp *qp, u8 opcode,
				     u32 psn, __be32 smsn)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	struct sk_buff *skb;

	lockdep_assert_held(&qp->rq.lock);

	skb = softrdma_rc_resp_rebuild(qp, opcode, psn, smsn);
	if (skb)
		__skb_queue_head(&rc->resp_txq, skb);
	else if (opcode == IB_OPCODE_RC_ACKNOWLEDGE)
		rc->ack_pending = true;
}

/* After a drop, all of the queue waits out a back-off */
static void softrdma_rc_resp_backoff(struct softrdma_qp *qp)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);

	lockdep_assert_held(&qp->rq.lock);

	rc->resp_held = true;
	rc->resp_backoff_us = clamp(rc->resp_backoff_us * 2,
				    SOFTRDMA_RC_XMIT_BACKOFF_MIN_US,
				    SOFTRDMA_RC_XMIT_BACKOFF_MAX_US);
	softrdma_rc_schedule(qp, rc->resp_backoff_us);
}

/* What softrdma_rc_resp_requeue() needs to build a response again */
struct softrdma_rc_resp_key {
	__be32 smsn;
	u32 psn;
	u8 opcode;
};

static void softrdma_rc_resp_key(const struct sk_buff *skb,
				 struct softrdma_rc_resp_key *key)
{
	const struct softrdma_bth *bth = (const struct softrdma_bth *)skb->data;
	int off;

	key->opcode = softrdma_bth_opcode(bth);
	key->psn = softrdma_bth_psn(bth);
	off = softrdma_roce_ext_offset(key->opcode, SOFTRDMA_EXT_AETH);
	key->smsn = off > 0 ?
		    ((const struct softrdma_aeth *)(skb->data + off))->smsn : 0;
}

/**
 * softrdma_rc_resp_flush() - send the queued responses, in order
 * @qp: the QP; rq.lock not held
 *
 * Consecutive read responses of one READ leave as one burst
 * (softrdma_rc_burst_take()).  Not while a back-off runs:
 * softrdma_rc_resp_work() sends them then.
 */
void softrdma_rc_resp_flush(struct softrdma_qp *qp)
{
	const u8 middle = IB_OPCODE_RC_RDMA_READ_RESPONSE_MIDDLE;
	struct softrdma_rc_resp_key first, last;
	struct softrdma_rc *rc = softrdma_qp_rc(qp);
	struct sk_buff_head burst;
	unsigned int n;
	int err;

	__skb_queue_head_init(&burst);
	spin_lock_bh(&qp->rq.lock);
	if (rc->resp_draining || rc->resp_held)
		goto out_unlock;
	rc->resp_draining = true;
	while ((n = softrdma_rc_burst_take(qp, &rc->resp_txq, &burst))) {
		softrdma_rc_resp_key(skb_peek(&burst), &first);
		softrdma_rc_resp_key(skb_peek_tail(&burst), &last);
		spin_unlock_bh(&qp->rq.lock);
		err = softrdma_rc_xmit_burst(qp, &burst);
		spin_lock_bh(&qp->rq.lock);
		if (!err) {
			rc->resp_backoff_us = 0;
			continue;
		}
		if (err == -EAGAIN &&
		    rc->resp_state != SOFTRDMA_RC_RESP_STOPPED) {
			/*
			 * Built again last to first, each put at the
			 * queue's head: a burst is FIRST or MIDDLE, MIDDLEs,
			 * then MIDDLE or LAST of one READ, whose PSNs follow
			 * the first one's.  A rebuild that fails the
			 * responder (the MR went meanwhile) ends it: one NAK.
			 */
			softrdma_rc_resp_requeue(qp, last.opcode, last.psn,
						 last.smsn);
			while (--n > 1 &&
			       rc->resp_state != SOFTRDMA_RC_RESP_FAILED)
				softrdma_rc_resp_requeue(qp, middle,
							 psn_add(first.psn,
								 n - 1), 0);
			if (n == 1 &&
			    rc->resp_state != SOFTRDMA_RC_RESP_FAILED)
				softrdma_rc_resp_requeue(qp, first.opcode,
							 first.psn, first.smsn);
			softrdma_rc_resp_backoff(qp);
			break;
		}
	}
	rc->resp_draining = false;
out_unlock:
	spin_unlock_bh(&qp->rq.lock);
}

/**
 * softrdma_rc_resp_settle() - send what the responder owes, before it stops
 * @qp: the QP; state_mutex held, rq.lock not held
 *
 * A consumer may destroy its QP (or move it to Error) the moment the last
 * completion shows, on another CPU or while the receive softirq runs in
 * ksoftirqd: before the ACK for that message has left, whether it waits
 * for the end of the receive batch or is queued behind the lock.  Dropped
 * with the QP, it would leave the peer retransmitting data that did
 * arrive, to a QP that no longer answers, until its retries run out.  So
 * the waiting ACK is queued, and the queue (ACKs, a NAK) is sent; a read
 * response not yet generated is not.
 */
void softrdma_rc_resp_settle(struct softrdma_qp *qp)
{
	struct softrdma_rc *rc = softrdma_qp_rc(qp);

	lockdep_assert_held(&qp->state_mutex);

	/* stopped (its queue purged) or never started: nothing to send */
	spin_lock_bh(&qp->rq.lock);
	if (rc->resp_state != SOFTRDMA_RC_RESP_STOPPED)
		softrdma_rc_push_ack(qp);
	/* no back-off now: this is the last chance to send */
	rc->resp_held = false;
	spin_unlock_bh(&qp->rq.lock);
	softrdma_rc_resp_flush(qp);
}

/**
 * softrdma_rc_resp_work() - the responder's deferred part
 * @work: rc.resp_work
 *
 * Re-sends what the host dropped, continues a long read response within
 * its budget, then takes the requests that waited behind it.
 */
void softrdma_rc_resp_work(struct work_struct *work)
{
	struct softrdma_rc *rc = container_of(to_delayed_work(work),
					      struct softrdma_rc, resp_work);
	struct softrdma_qp *qp = softrdma_rc_qp(rc);
	struct sk_buff *skb;
	unsigned int n = 0;

	spin_lock_bh(&qp->rq.lock);
	if (rc->resp_state == SOFTRDMA_RC_RESP_STOPPED)
		goto out_unlock;
	rc->resp_held = false;
	if (rc->ack_pending) {
		rc->ack_pending = false;
		if (rc->seq.nak_sent)
			softrdma_rc_send_ack(qp,
					     softrdma_aeth_syn_nak(SOFTRDMA_NAK_PSN_SEQ_ERR),
					     rc->seq.psn);
		else
			softrdma_rc_send_ack(qp, softrdma_rc_syn_ack(),
					     psn_sub(rc->seq.psn, 1));
	}
	if (rc->resp_state == SOFTRDMA_RC_RESP_READING)
		softrdma_rc_read_run(qp, SOFTRDMA_RC_READ_BUDGET);
	while (rc->resp_state != SOFTRDMA_RC_RESP_READING &&
	       n++ < SOFTRDMA_RC_READ_BUDGET &&
	       (skb = __skb_dequeue(&rc->backlog)))
		softrdma_rc_resp_handle(qp, skb, NULL);
	if (rc->resp_state != SOFTRDMA_RC_RESP_READING &&
	    !skb_queue_empty(&rc->backlog))
		softrdma_rc_schedule(qp, 0);
out_unlock:
	spin_unlock_bh(&qp->rq.lock);
	softrdma_rc_resp_flush(qp);
}
