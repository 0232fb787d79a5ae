// SPDX-License-Identifier: GPL-2.0-only
/*
 * UD send (IBA vol 1 9.8.3, 10.7.2.1): each send WQE becomes one packet
 * to the address handle it names, and completes as soon as the packet is
 * built, with its payload copied (at most a path MTU), so the buffers
 * are the consumer's again at once.  A packet the host then drops is
 * lost, as UD allows, and counted by the network layer.
 */
#include "ah.h"
#include "counters.h"
#include "device.h"
#include "mr.h"
#include "psn.h"
#include "qp.h"
#include "rc.h"
#include "roce_hdr.h"
#include "roce_net.h"
#include "roce_opcode.h"
#include "roce_qp.h"
#include "sge.h"
#include "ud.h"

/**
 * softrdma_ud_kernel_wqe() - the UD part of a kernel send WR
 * @wqe: the WQE being posted
 * @wr: an ib_ud_wr
 *
 * Return: 0, or -EINVAL for an operation UD does not carry or no AH.
 */
int softrdma_ud_kernel_wqe(struct softrdma_send_wqe *wqe,
			   const struct ib_send_wr *wr)
{
	const struct ib_ud_wr *ud = ud_wr(wr);

	if (wr->opcode != IB_WR_SEND && wr->opcode != IB_WR_SEND_WITH_IMM)
		return -EINVAL;
	if (!ud->ah || ud->remote_qpn > IB_QPN_MASK)
		return -EINVAL;
	wqe->wr.ud.remote_qpn = ud->remote_qpn;
	wqe->wr.ud.remote_qkey = ud->remote_qkey;
	wqe->wr.ud.ah_num = container_of(ud->ah, struct softrdma_ah,
					 ibah)->ah_num;
	return 0;
}

static int softrdma_ud_gather_one(struct softrdma_mr *mr, u64 addr, u32 len,
				  u32 done, void *ctx)
{
	return softrdma_mr_copy(mr, addr, skb_put(ctx, len), len,
				SOFTRDMA_COPY_FROM_MR);
}

static enum ib_wc_status softrdma_ud_status(int err)
{
	switch (err) {
	case -EMSGSIZE:
		return IB_WC_LOC_LEN_ERR;
	case -EACCES:
	case -EFAULT:
		return IB_WC_LOC_PROT_ERR;
	default:
		return IB_WC_LOC_QP_OP_ERR;
	}
}

/*
 * The packet of @wqe, addressed by its AH.  Returns the skb, NULL when
 * the host is out of memory (the message is lost, counted), or an ERR_PTR
 * for a local error the WQE completes with.
 */
static struct sk_buff *softrdma_ud_build(struct softrdma_qp *qp,
					 const struct softrdma_send_wqe *wqe)
{
	struct softrdma_dev *sdev = qp->sdev;
	u32 pad = (4 - (wqe->length & 3)) & 3;
	struct softrdma_roce_tx tx;
	struct softrdma_bth *bth;
	struct softrdma_av av;
	struct sk_buff *skb;
	u32 mtu, qkey;
	u8 opcode;
	int err;

	mtu = ib_mtu_enum_to_int(softrdma_roce_path_mtu(READ_ONCE(sdev->ndev->mtu)));
	err = softrdma_ud_send_opcode(wqe->opcode, wqe->length, mtu, &opcode);
	if (err)
		return ERR_PTR(err);
	if (softrdma_ah_lookup_av(sdev, wqe->wr.ud.ah_num, qp->ibqp.pd, &av))
		return ERR_PTR(-EINVAL);
	softrdma_roce_tx_set(&tx, &av,
			     softrdma_roce_src_port(softrdma_qpn(qp),
						    wqe->wr.ud.remote_qpn));

	skb = softrdma_roce_alloc_skb(sdev, &tx, softrdma_roce_hdr_len(opcode),
				      wqe->length + pad);
	if (!skb)
		return NULL;
	if (wqe->send_flags & IB_SEND_INLINE) {
		if (wqe->length > SOFTRDMA_MAX_INLINE)
			err = -EMSGSIZE;
		else
			skb_put_data(skb, wqe->inline_data, wqe->length);
	} else {
		err = softrdma_sge_walk(qp, wqe->sge, wqe->num_sge, 0,
					wqe->length, 0,
					softrdma_ud_gather_one, skb);
	}
	if (err) {
		kfree_skb(skb);
		return ERR_PTR(err);
	}
	skb_put_zero(skb, pad);

	bth = (struct softrdma_bth *)skb->data;
	softrdma_bth_set_opcode(bth, opcode);
	softrdma_bth_set_se(bth, wqe->send_flags & IB_SEND_SOLICITED);
	softrdma_bth_set_pad(bth, pad);
	softrdma_bth_set_pkey(bth, SOFTRDMA_DEFAULT_PKEY);
	softrdma_bth_set_qpn(bth, wqe->wr.ud.remote_qpn);
	softrdma_bth_set_psn(bth, softrdma_qp_ud(qp)->psn);
	softrdma_qp_ud(qp)->psn = psn_add(softrdma_qp_ud(qp)->psn, 1);

	qkey = softrdma_ud_send_qkey(softrdma_qpn(qp), qp->attr.qkey,
				     wqe->wr.ud.remote_qkey);
	softrdma_deth_set((void *)(skb->data +
				   softrdma_roce_ext_offset(opcode,
							    SOFTRDMA_EXT_DETH)),
			  qkey, softrdma_qpn(qp));
	if (opcode == IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE) {
		struct softrdma_immdt *imm;

		imm = (void *)(skb->data +
			       softrdma_roce_ext_offset(opcode,
							SOFTRDMA_EXT_IMMDT));
		imm->imm = wqe->ex.imm_data;
	}
	return skb;
}

/* WQEs one caller sends before it hands the rest to the kick work */
#define SOFTRDMA_UD_SEND_BUDGET	64

/* send from the kick work, which holds a QP reference until it has run */
static void softrdma_ud_defer(struct softrdma_qp *qp)
{
	refcount_inc(&qp->ref);
	if (!queue_work(system_wq, &softrdma_qp_ud(qp)->kick_work))
		softrdma_qp_put(qp);
}

/*
 * Send what was posted.  One caller at a time sends, so that one QP's
 * packets leave in order; another caller's WQEs, posted before it takes
 * the lock, are picked up by the one sending.  The lock is dropped around
 * each transmit, which may deliver to a local device and re-enter any
 * QP's receive path.
 */
static void softrdma_ud_send(struct softrdma_qp *qp)
{
	struct softrdma_send_wqe *wqe;
	unsigned int budget = SOFTRDMA_UD_SEND_BUDGET;
	bool more = false, sq_drained = false;
	enum ib_wc_status status;
	struct sk_buff *skb;

	spin_lock_bh(&qp->sq.lock);
	if (softrdma_qp_ud(qp)->sending)
		goto out_unlock;
	softrdma_qp_ud(qp)->sending = true;
	while (softrdma_qp_ud(qp)->running && qp->state == IB_QPS_RTS) {
		/* a user who keeps posting must not hold the CPU here */
		if (!budget--) {
			more = true;
			break;
		}
		wqe = softrdma_sq_fetch(qp);
		if (!wqe)
			break;
		if (IS_ERR(wqe)) {
			/* a WQE user space made up: the QP fails */
			softrdma_qp_ud(qp)->running = false;
			softrdma_qp_error(qp);
			break;
		}
		skb = softrdma_ud_build(qp, wqe);
		status = IS_ERR(skb) ? softrdma_ud_status(PTR_ERR(skb)) :
				       IB_WC_SUCCESS;
		softrdma_qp_complete_send(qp, wqe, status);
		if (IS_ERR_OR_NULL(skb))
			continue;

		spin_unlock_bh(&qp->sq.lock);
		softrdma_roce_xmit(qp->sdev, NULL, skb);
		spin_lock_bh(&qp->sq.lock);
	}
	softrdma_qp_ud(qp)->sending = false;
	/* SQD came while a packet was handed over: that was the last */
	if (softrdma_qp_ud(qp)->sq_drained_owed) {
		softrdma_qp_ud(qp)->sq_drained_owed = false;
		sq_drained = qp->state == IB_QPS_SQD;
	}
out_unlock:
	spin_unlock_bh(&qp->sq.lock);
	if (sq_drained)
		softrdma_qp_sq_drained_event(qp);
	if (more)
		softrdma_ud_defer(qp);
}

/**
 * softrdma_ud_kick() - the doorbell of a UD QP: send what was posted
 * @qp: the QP
 *
 * The MAD layer posts to the GSI QP with IRQs off (ib_send_mad() holds
 * an irqsave lock), where neither the BH-disabling locks nor the IP
 * output path may run: then the sends go to a work item, which holds a
 * QP reference until it has run.
 *
 * Context: any.
 */
void softrdma_ud_kick(struct softrdma_qp *qp)
{
	if (irqs_disabled()) {
		softrdma_ud_defer(qp);
		return;
	}
	softrdma_ud_send(qp);
}
