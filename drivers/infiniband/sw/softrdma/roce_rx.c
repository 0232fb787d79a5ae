// SPDX-License-Identifier: GPL-2.0-only
/*
 * RoCEv2 receive dispatch: a validated packet (roce_pkt.h) goes to its
 * destination QP's RC engines (rc.h, for RC and UC QPs) or, for a UD or GSI QP (QP1 is
 * looked up by its number like any other), to the UD receiver (ud.h).
 * A packet for no QP is counted as rcv_no_qp and dropped; one whose
 * opcode class does not match the QP's type as rcv_bad_opcode (IBA
 * 9.6.1.2, C9-40: the transport must match the QP's); one for a connected
 * QP that does not come from its peer's address to its own as
 * rcv_addr_mismatch (softrdma_roce_path_rcv_ok()).  The packets of a
 * receive burst share one QP lookup while they are for the same QP
 * (struct softrdma_roce_rcv_ctx); each is checked against the path the
 * QP has when it is delivered.  Their key lookups share a one-MR cache,
 * which answers each as a lookup would and is dropped with the context.
 */
#include <linux/skbuff.h>
#include <trace/events/softrdma.h>

#include "counters.h"
#include "device.h"
#include "mr.h"
#include "qp.h"
#include "rc.h"
#include "roce_net.h"
#include "roce_opcode.h"
#include "roce_pkt.h"
#include "roce_qp.h"
#include "ud.h"

static void softrdma_roce_rcv_drop(struct softrdma_dev *sdev,
				   struct sk_buff *skb,
				   enum softrdma_counter why)
{
	softrdma_counter_inc(sdev, why);
	trace_softrdma_drop(&sdev->ibdev, softrdma_counter_name(why));
	kfree_skb(skb);
}

/*
 * The QP of a packet, from @ctx when the previous packet's was the same:
 * one lookup and one reference for a run of packets to one QP
 */
static struct softrdma_qp *softrdma_roce_rcv_qp(struct softrdma_roce_rcv_ctx *ctx,
						u32 qpn)
{
	struct softrdma_qp *qp = ctx->qp;

	if (qp && softrdma_qpn(qp) == qpn)
		return qp;
	if (qp)
		softrdma_qp_put(qp);
	qp = softrdma_qp_get(ctx->sdev, qpn);
	ctx->qp = qp;
	return qp;
}

/**
 * softrdma_roce_rcv_deliver() - deliver a validated packet to its QP
 * @ctx: what the packets received with it share; ctx->sdev is the
 *	packet's device
 * @skb: as roce_pkt.h describes; consumed
 *
 * Context: softirq, or BHs disabled; under rcu_read_lock(), held across
 * the packets that share @ctx.
 */
void softrdma_roce_rcv_deliver(struct softrdma_roce_rcv_ctx *ctx,
			       struct sk_buff *skb)
{
	struct softrdma_roce_pkt *pkt = softrdma_roce_pkt(skb);
	const struct softrdma_roce_path *path;
	struct softrdma_dev *sdev = ctx->sdev;
	struct softrdma_qp *qp;

	trace_softrdma_roce_rx(&sdev->ibdev, pkt->qpn, pkt->opcode, pkt->psn,
			       pkt->payload_len);
	qp = softrdma_roce_rcv_qp(ctx, pkt->qpn);
	if (!qp) {
		ibdev_dbg_ratelimited(&sdev->ibdev, "no QP %#x for opcode %u\n",
				      pkt->qpn, pkt->opcode);
		softrdma_roce_rcv_drop(sdev, skb, SOFTRDMA_CNT_RCV_NO_QP);
		return;
	}
	if ((qp->ibqp.qp_type == IB_QPT_RC &&
	     softrdma_roce_opcode_is_rc(pkt->opcode)) ||
	    (qp->ibqp.qp_type == IB_QPT_UC &&
	     softrdma_roce_opcode_is_uc(pkt->opcode))) {
		/*
		 * a connected QP takes packets from its peer only; no path
		 * yet: no peer, and the engines do not run.  Read for each
		 * packet: a modify may publish another one mid-burst.
		 */
		path = rcu_dereference(to_roce_qp(qp)->path);
		if (path && softrdma_roce_path_rcv_ok(path, skb)) {
			softrdma_rc_rcv(qp, skb, &ctx->mr_cache);
		} else {
			ibdev_dbg_ratelimited(&sdev->ibdev,
					      "QP %#x: packet not from its peer\n",
					      pkt->qpn);
			softrdma_roce_rcv_drop(sdev, skb,
					       SOFTRDMA_CNT_RCV_ADDR_MISMATCH);
		}
	} else if (softrdma_qp_type_is_ud(qp->ibqp.qp_type) &&
		   softrdma_roce_opcode_is_ud(pkt->opcode)) {
		softrdma_ud_rcv(qp, skb);
	} else {
		softrdma_roce_rcv_drop(sdev, skb, SOFTRDMA_CNT_RCV_BAD_OPCODE);
	}
}

/**
 * softrdma_roce_rcv_done() - the last packet sharing @ctx was delivered
 * @ctx: gives back the QP and MR references it holds
 */
void softrdma_roce_rcv_done(struct softrdma_roce_rcv_ctx *ctx)
{
	if (ctx->mr_cache)
		softrdma_mr_put(ctx->mr_cache);
	ctx->mr_cache = NULL;
	if (ctx->qp)
		softrdma_qp_put(ctx->qp);
	ctx->qp = NULL;
}
