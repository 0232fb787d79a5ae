/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unreliable Datagram queue pairs and the GSI QP (QP1) on RoCEv2 devices
 * (IBA vol 1 9.8.3, 10.2.5, 13.5; annex A17).
 *
 * A UD message is one packet: BTH, DETH (Q_Key and source QP), an ImmDt
 * for SEND with immediate, and at most a path MTU of payload.  Nothing is
 * acknowledged or retried: a send completes once its packet is built and
 * handed to the host (or failed locally), and a packet that finds no
 * receive WQE, a wrong Q_Key or a QP not ready is dropped and counted.
 *
 * Send (ud_send.c) runs in the poster's context on the doorbell, under
 * qp->sq.lock, transmitting with the lock dropped; receive (ud_recv.c)
 * runs in the receive softirq under qp->rq.lock.  The receiver writes
 * the 40-byte GRH area in front of every message (IBA 11.4.1.2 and
 * A17.4.5.1): the IPv6 header, or for IPv4 twenty zero bytes and then
 * the IPv4 header, which is where the RDMA core (ib_init_ah_attr_from_wc)
 * looks for it.
 */
#ifndef SOFTRDMA_UD_H
#define SOFTRDMA_UD_H

#include <linux/skbuff.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>

#include "qp_state.h"

struct softrdma_qp;
struct softrdma_send_wqe;

/* IBA 13.5.1: the GSI QP's well-known Q_Key (its number: qp_state.h) */
#define SOFTRDMA_GSI_QKEY		IB_QP1_QKEY
/* IBA 10.2.5: a Q_Key with this bit set is privileged */
#define SOFTRDMA_QKEY_PRIVILEGED	BIT(31)
/* IBA 11.4.1.2: the GRH area at the head of every UD receive buffer */
#define SOFTRDMA_UD_GRH_LEN		40

/* The UD engine's state in a QP */
struct softrdma_ud {
	/* under qp->sq.lock */
	bool running;		/* RTS: the SQ may send */
	bool sending;		/* one caller sends at a time, in order */
	/* SQD entered while @sending: the sender raises SQ Drained */
	bool sq_drained_owed;
	u32 psn;		/* next PSN (9.8.3: the responder ignores it) */
	/* sends for a doorbell rung with IRQs off; holds a QP reference */
	struct work_struct kick_work;
};

int softrdma_ud_init(struct softrdma_qp *qp);
void softrdma_ud_start(struct softrdma_qp *qp);
void softrdma_ud_stop(struct softrdma_qp *qp);
void softrdma_ud_drain(struct softrdma_qp *qp);
void softrdma_ud_kick(struct softrdma_qp *qp);
void softrdma_ud_rcv(struct softrdma_qp *qp, struct sk_buff *skb);

int softrdma_ud_kernel_wqe(struct softrdma_send_wqe *wqe,
			   const struct ib_send_wr *wr);

/* pure rules, KUnit-tested in ud_test.c */
u32 softrdma_ud_send_qkey(u32 qpn, u32 qp_qkey, u32 wr_qkey);
bool softrdma_ud_qkey_ok(u32 qpn, u32 qp_qkey, u32 pkt_qkey);
int softrdma_ud_send_opcode(u32 wr_opcode, u32 length, u32 mtu, u8 *opcode);
int softrdma_ud_grh(const struct sk_buff *skb, u8 *grh);

#if IS_ENABLED(CONFIG_KUNIT)
bool softrdma_ud_recv_ready(const struct softrdma_qp *qp);
#endif

#endif /* SOFTRDMA_UD_H */
