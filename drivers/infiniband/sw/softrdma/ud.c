// SPDX-License-Identifier: GPL-2.0-only
/*
 * UD queue pairs: the engine's life (started and stopped by qp.c) and the
 * pure rules the send and receive stages share: Q_Keys, opcodes and
 * lengths, the GRH area.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <kunit/visibility.h>
#include <rdma/ib_pack.h>

#include "qp.h"
#include "roce_qp.h"
#include "ud.h"
#include "wqe.h"

static void softrdma_ud_kick_work(struct work_struct *work)
{
	struct softrdma_qp *qp = &container_of(work, struct softrdma_roce_qp,
					       ud.kick_work)->qp;

	softrdma_ud_kick(qp);
	softrdma_qp_put(qp);
}

/**
 * softrdma_ud_init() - set up the UD engine of a new UD or GSI QP
 * @qp: the QP, not yet published
 *
 * Return: 0; nothing is allocated.
 */
int softrdma_ud_init(struct softrdma_qp *qp)
{
	INIT_WORK(&softrdma_qp_ud(qp)->kick_work, softrdma_ud_kick_work);
	return 0;
}

/**
 * softrdma_ud_start() - let the SQ send in the QP's new state
 * @qp: the QP; state_mutex held, qp->state already set
 *
 * Receiving needs nothing: the receive path reads qp->state.  RTS
 * starts sending at sq_psn (IBA 10.3.1).
 */
void softrdma_ud_start(struct softrdma_qp *qp)
{
	lockdep_assert_held(&qp->state_mutex);

	spin_lock_bh(&qp->sq.lock);
	softrdma_qp_ud(qp)->sq_drained_owed = false;
	if (!softrdma_qp_ud(qp)->running && qp->state == IB_QPS_RTS) {
		softrdma_qp_ud(qp)->running = true;
		softrdma_qp_ud(qp)->psn = qp->attr.sq_psn;
	}
	spin_unlock_bh(&qp->sq.lock);
	softrdma_ud_kick(qp);
}

/**
 * softrdma_ud_stop() - stop sending (RESET, ERR, destroy)
 * @qp: the QP; state_mutex held
 */
void softrdma_ud_stop(struct softrdma_qp *qp)
{
	lockdep_assert_held(&qp->state_mutex);

	spin_lock_bh(&qp->sq.lock);
	softrdma_qp_ud(qp)->running = false;
	spin_unlock_bh(&qp->sq.lock);
}

/**
 * softrdma_ud_drain() - the QP entered SQD
 * @qp: the QP; state_mutex held, qp->state SQD
 *
 * IBA 10.3.1, 11.6.3.1: the SQ of a UD QP has drained once the sends it
 * started have left.  A send completes when its packet is handed to the
 * host, and the sender takes no WQE outside RTS: the SQ is drained now,
 * or, if a sender is handing over its last packet with the lock
 * dropped, once it has; that sender raises the event.
 */
void softrdma_ud_drain(struct softrdma_qp *qp)
{
	struct softrdma_ud *ud = softrdma_qp_ud(qp);
	bool drained;

	lockdep_assert_held(&qp->state_mutex);

	spin_lock_bh(&qp->sq.lock);
	/* a UD QP that failed is on its way to ERR: it drains nothing */
	drained = ud->running && !ud->sending;
	ud->sq_drained_owed = ud->running && ud->sending;
	spin_unlock_bh(&qp->sq.lock);
	if (drained)
		softrdma_qp_sq_drained_event(qp);
}

/**
 * softrdma_ud_send_qkey() - the Q_Key a UD send puts in its DETH
 * @qpn: the sending QP
 * @qp_qkey: its Q_Key attribute
 * @wr_qkey: the work request's
 *
 * IBA 10.2.5: a work request Q_Key with the high-order bit set asks for
 * the QP's own Q_Key instead, so that only a QP a privileged consumer
 * configured can send with a privileged (controlled) Q_Key.  The GSI QP
 * always sends with the GSI Q_Key (13.5.1).
 *
 * Return: the Q_Key.
 */
u32 softrdma_ud_send_qkey(u32 qpn, u32 qp_qkey, u32 wr_qkey)
{
	if (qpn == SOFTRDMA_GSI_QPN)
		return SOFTRDMA_GSI_QKEY;
	if (wr_qkey & SOFTRDMA_QKEY_PRIVILEGED)
		return qp_qkey;
	return wr_qkey;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_ud_send_qkey);

/**
 * softrdma_ud_qkey_ok() - may a UD packet with @pkt_qkey enter this QP?
 * @qpn: the receiving QP
 * @qp_qkey: its Q_Key attribute
 * @pkt_qkey: the DETH's
 *
 * IBA 10.2.5, 9.6.1.4 (C9-47): the Q_Key must equal the QP's; QP1 takes
 * only the GSI Q_Key, whatever its attribute says.
 */
bool softrdma_ud_qkey_ok(u32 qpn, u32 qp_qkey, u32 pkt_qkey)
{
	if (qpn == SOFTRDMA_GSI_QPN)
		return pkt_qkey == SOFTRDMA_GSI_QKEY;
	return pkt_qkey == qp_qkey;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_ud_qkey_ok);

/**
 * softrdma_ud_send_opcode() - the packet opcode of a UD send WQE
 * @wr_opcode: enum ib_wr_opcode of the WQE
 * @length: its payload bytes
 * @mtu: the port's path MTU in bytes
 * @opcode: set to the BTH opcode
 *
 * IBA 9.8.3 and 10.7.2.1: UD carries SEND and SEND with immediate only,
 * in one packet of at most the path MTU.
 *
 * Return: 0, -EOPNOTSUPP for another operation (a local QP operation
 * error), -EMSGSIZE for a message above the MTU (a local length error).
 */
int softrdma_ud_send_opcode(u32 wr_opcode, u32 length, u32 mtu, u8 *opcode)
{
	switch (wr_opcode) {
	case IB_WR_SEND:
		*opcode = IB_OPCODE_UD_SEND_ONLY;
		break;
	case IB_WR_SEND_WITH_IMM:
		*opcode = IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE;
		break;
	default:
		return -EOPNOTSUPP;
	}
	return length > mtu ? -EMSGSIZE : 0;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_ud_send_opcode);

/**
 * softrdma_ud_grh() - the GRH area of a received RoCEv2 packet
 * @skb: the packet, its network header set (roce_pkt.h)
 * @grh: SOFTRDMA_UD_GRH_LEN bytes, filled in
 *
 * A17.4.5.1: for IPv6 the IPv6 header itself (its layout is the GRH's);
 * for IPv4 twenty zero bytes and the twenty-byte IPv4 header, without
 * options.
 *
 * Return: 0, or -EINVAL when the network header is neither.
 */
int softrdma_ud_grh(const struct sk_buff *skb, u8 *grh)
{
	const struct iphdr *ip4 = ip_hdr(skb);

	memset(grh, 0, SOFTRDMA_UD_GRH_LEN);
	if (ip4->version == 4) {
		memcpy(grh + SOFTRDMA_UD_GRH_LEN - sizeof(*ip4), ip4,
		       sizeof(*ip4));
		return 0;
	}
	if (ip4->version == 6) {
		memcpy(grh, ipv6_hdr(skb), sizeof(struct ipv6hdr));
		return 0;
	}
	return -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_ud_grh);
