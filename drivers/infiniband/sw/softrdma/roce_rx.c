// SPDX-License-Identifier: GPL-2.0-only
/*
 * RoCEv2 receive dispatch: a validated packet (roce_pkt.h) goes to its
 * destination QP's RC engines (rc.h, for RC and UC QPs) or, for a UD or GSI QP (QP1 is
 * looked up by its number like any other), to the UD receiver (ud.h).
 * A packet for no QP is counted as rcv_no_qp and dropped; one whose
 * opcode class does not match the QP's type as rcv_bad_opcode (IBA
 * 9.6.1.2, C9-40: the transport must match the QP's); one for a connected
 * QP that does not come from its peer's address to its own as
 * rcv_addr_mismatch (softrdma_roce_path_rcv_ok()).
 */
#include <linux/skbuff.h>
#include <trace/events/softrdma.h>

#include "counters.h"
#include "device.h"
#include "qp.h"
#include "rc.h"
#include "roce_net.h"
#include "roce_opcode.h"
#include "roce_pkt.h"
#include "roce_qp.h"
#include "ud.h"

/* a packet for a connected QP: from its peer, to its own address? */
static bool softrdma_roce_rcv_from_peer(struct softrdma_qp *qp,
					const struct sk_buff *skb)
{
	const struct softrdma_roce_path *path;
	bool ok;

	rcu_read_lock();
	path = rcu_dereference(to_roce_qp(qp)->path);
	/* no path yet: no peer, and the engines do not run */
	ok = path && softrdma_roce_path_rcv_ok(path, skb);
	rcu_read_unlock();
	return ok;
}

static void softrdma_roce_rcv_drop(struct softrdma_dev *sdev,
				   struct sk_buff *skb,
				   enum softrdma_counter why)
{
	softrdma_counter_inc(sdev, why);
	trace_softrdma_drop(&sdev->ibdev, softrdma_counter_name(why));
	kfree_skb(skb);
}

/**
 * softrdma_roce_rcv_pkt() - deliver a validated packet to its QP
 * @skb: as roce_pkt.h describes; consumed, with the device reference
 *
 * Context: softirq, or BHs disabled.
 */
void softrdma_roce_rcv_pkt(struct sk_buff *skb)
{
	struct softrdma_roce_pkt *pkt = softrdma_roce_pkt(skb);
	struct softrdma_dev *sdev = pkt->sdev;
	struct softrdma_qp *qp;

	trace_softrdma_roce_rx(&sdev->ibdev, pkt->qpn, pkt->opcode, pkt->psn,
			       pkt->payload_len);
	qp = softrdma_qp_get(sdev, pkt->qpn);
	if (!qp) {
		softrdma_counter_inc(sdev, SOFTRDMA_CNT_RCV_NO_QP);
		trace_softrdma_drop(&sdev->ibdev,
				    softrdma_counter_name(SOFTRDMA_CNT_RCV_NO_QP));
		ibdev_dbg_ratelimited(&sdev->ibdev, "no QP %#x for opcode %u\n",
				      pkt->qpn, pkt->opcode);
		kfree_skb(skb);
		softrdma_dev_put(sdev);
		return;
	}
	if ((qp->ibqp.qp_type == IB_QPT_RC &&
	     softrdma_roce_opcode_is_rc(pkt->opcode)) ||
	    (qp->ibqp.qp_type == IB_QPT_UC &&
	     softrdma_roce_opcode_is_uc(pkt->opcode))) {
		if (softrdma_roce_rcv_from_peer(qp, skb)) {
			softrdma_rc_rcv(qp, skb);
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
	softrdma_qp_put(qp);
	softrdma_dev_put(sdev);
}
