// SPDX-License-Identifier: GPL-2.0-only
/*
 * UD receive (IBA vol 1 9.8.3, 10.2.5, 11.4.1.2): check a UD packet
 * against its QP (opcode, state, Q_Key, length), take a receive WQE, write
 * the GRH area and the payload into it and complete it with what the
 * consumer needs to answer: source QP, network header type, P_Key index.
 * Anything that does not fit is dropped and counted; nothing is answered.
 */
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <kunit/visibility.h>

#include "counters.h"
#include "device.h"
#include "mr.h"
#include "qp.h"
#include "rc.h"
#include "roce_hdr.h"
#include "roce_opcode.h"
#include "roce_net.h"
#include "roce_pkt.h"
#include "sge.h"
#include "ud.h"

struct softrdma_ud_scatter {
	const u8 *grh;
	const struct sk_buff *skb;
	int payload;		/* offset of the payload in skb */
};

/* One piece of the message: GRH area first, then the payload */
static int softrdma_ud_scatter_one(struct softrdma_mr *mr, u64 addr, u32 len,
				   u32 done, void *ctx)
{
	struct softrdma_ud_scatter *sc = ctx;
	int err;

	if (done < SOFTRDMA_UD_GRH_LEN) {
		u32 n = min_t(u32, len, SOFTRDMA_UD_GRH_LEN - done);

		err = softrdma_mr_copy(mr, addr, (void *)(sc->grh + done), n,
				       SOFTRDMA_COPY_TO_MR);
		if (err)
			return err;
		addr += n;
		len -= n;
		done += n;
	}
	if (!len)
		return 0;
	return softrdma_mr_copy_from_skb(mr, addr, sc->skb,
					 sc->payload + done -
					 SOFTRDMA_UD_GRH_LEN, len);
}

static void softrdma_ud_drop(struct softrdma_qp *qp, struct sk_buff *skb,
			     enum softrdma_counter why)
{
	softrdma_counter_inc(qp->sdev, why);
	ibdev_dbg_ratelimited(&qp->sdev->ibdev, "UD QP %#x: dropped: %s\n",
			      softrdma_qpn(qp), softrdma_counter_name(why));
	kfree_skb(skb);
}

/* The completion's fields for a UD message (IBA 11.4.2.1, ib_wc) */
static void softrdma_ud_wc(struct ib_wc *wc, const struct sk_buff *skb,
			   const struct softrdma_roce_pkt *pkt, u32 src_qp)
{
	wc->opcode = IB_WC_RECV;
	wc->src_qp = src_qp;
	wc->pkey_index = 0;
	wc->sl = 0;
	wc->wc_flags = IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE;
	wc->network_hdr_type = pkt->network_type;
	if (pkt->opcode == IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE) {
		const struct softrdma_immdt *imm;

		imm = (const void *)(skb->data +
				     softrdma_roce_ext_offset(pkt->opcode,
							      SOFTRDMA_EXT_IMMDT));
		wc->ex.imm_data = imm->imm;
		wc->wc_flags |= IB_WC_WITH_IMM;
	}
	if (skb->dev && is_vlan_dev(skb->dev)) {
		wc->vlan_id = vlan_dev_vlan_id(skb->dev);
		wc->wc_flags |= IB_WC_WITH_VLAN;
	}
	if (skb_mac_header_was_set(skb) &&
	    skb_mac_header(skb) + ETH_HLEN <= skb_network_header(skb)) {
		ether_addr_copy(wc->smac, eth_hdr(skb)->h_source);
		wc->wc_flags |= IB_WC_WITH_SMAC;
	}
}

/**
 * softrdma_ud_recv_ready() - may a receive WQE take a message now?
 * @qp: a UD or GSI QP; rq.lock held
 *
 * IBA 10.3.1: RTR and the states after it receive; ERR does not, nor do
 * RESET and INIT.  The state is read under rq.lock, which every write of
 * it holds (softrdma_qp_set_state()), and in the same critical section as
 * the take of the WQE: the move to RESET (which then drops the posted
 * receives under the same lock) or to ERR (which then flushes them)
 * comes either wholly before this check, and the packet is dropped, or
 * wholly after the WQE was taken and completed, in the life it was
 * posted in.
 */
VISIBLE_IF_KUNIT bool softrdma_ud_recv_ready(const struct softrdma_qp *qp)
{
	lockdep_assert_held(&qp->rq.lock);

	return qp->state >= IB_QPS_RTR && qp->state != IB_QPS_ERR;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_ud_recv_ready);

/**
 * softrdma_ud_rcv() - a packet for a UD or GSI QP
 * @qp: the QP, referenced by the caller
 * @skb: as roce_pkt.h describes; consumed
 *
 * Context: softirq, or BHs disabled.
 */
void softrdma_ud_rcv(struct softrdma_qp *qp, struct sk_buff *skb)
{
	const struct softrdma_roce_pkt *pkt = softrdma_roce_pkt(skb);
	struct softrdma_ud_scatter sc = { .skb = skb };
	const struct softrdma_deth *deth;
	enum softrdma_counter why;
	struct softrdma_recv_wqe wqe;
	u8 grh[SOFTRDMA_UD_GRH_LEN];
	struct ib_wc wc = {};
	u32 mtu, len;
	int err = 0;

	/* IBA 9.8.3: a UD QP takes UD SEND Only, with or without ImmDt */
	if (pkt->opcode != IB_OPCODE_UD_SEND_ONLY &&
	    pkt->opcode != IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE)
		return softrdma_ud_drop(qp, skb, SOFTRDMA_CNT_RCV_BAD_OPCODE);
	deth = (const void *)(skb->data +
			      softrdma_roce_ext_offset(pkt->opcode,
						       SOFTRDMA_EXT_DETH));
	sc.grh = grh;
	sc.payload = pkt->hdr_len;
	len = SOFTRDMA_UD_GRH_LEN + pkt->payload_len;

	/* the state, then the WQE it allows, in one critical section */
	spin_lock(&qp->rq.lock);
	why = SOFTRDMA_CNT_RCV_QP_NOT_READY;
	if (!softrdma_ud_recv_ready(qp))
		goto out_drop_unlock;
	why = SOFTRDMA_CNT_RCV_BAD_QKEY;
	if (!softrdma_ud_qkey_ok(softrdma_qpn(qp), READ_ONCE(qp->attr.qkey),
				 softrdma_deth_qkey(deth)))
		goto out_drop_unlock;
	/* IBA 9.8.3: one packet of at most the path MTU, else malformed */
	why = SOFTRDMA_CNT_RCV_UD_TOO_LONG;
	mtu = ib_mtu_enum_to_int(softrdma_roce_path_mtu(READ_ONCE(qp->sdev->ndev->mtu)));
	if (pkt->payload_len > mtu)
		goto out_drop_unlock;
	why = SOFTRDMA_CNT_RCV_TRUNCATED;
	if (softrdma_ud_grh(skb, grh))
		goto out_drop_unlock;
	why = SOFTRDMA_CNT_RCV_NO_RECV_WQE;
	err = softrdma_rq_take(qp, &wqe);
	if (err)
		goto out_drop_unlock;

	wc.wr_id = wqe.wr_id;
	if (len > wqe.length) {
		/* IBA 10.7.2.1: a message too long for the WQE */
		wc.status = IB_WC_LOC_LEN_ERR;
	} else {
		err = softrdma_sge_walk(qp, wqe.sge, wqe.num_sge, 0, len,
					IB_ACCESS_LOCAL_WRITE,
					softrdma_ud_scatter_one, &sc);
		if (!err)
			wc.status = IB_WC_SUCCESS;
		else if (err == -EMSGSIZE)
			wc.status = IB_WC_LOC_LEN_ERR;
		else
			wc.status = IB_WC_LOC_PROT_ERR;
	}
	if (wc.status == IB_WC_SUCCESS) {
		wc.byte_len = len;
		softrdma_ud_wc(&wc, skb, pkt, softrdma_deth_sqp(deth));
	} else {
		wc.opcode = IB_WC_RECV;
	}
	softrdma_qp_complete_recv(qp, &wc,
				  softrdma_bth_se((const void *)skb->data));
	spin_unlock(&qp->rq.lock);
	consume_skb(skb);
	return;

out_drop_unlock:
	spin_unlock(&qp->rq.lock);
	if (err == -EINVAL)	/* a WQE user space made up */
		softrdma_qp_error(qp);
	softrdma_ud_drop(qp, skb, why);
}
