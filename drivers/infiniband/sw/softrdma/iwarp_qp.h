/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The iWARP transport of a queue pair: what qp.c calls on a siwarp
 * device where it calls the RC engines (rc.h) on a sroce device, and
 * what the connection manager (iw_cm.c) calls to hand a connected,
 * MPA-negotiated TCP socket to the data path.
 *
 * A QP of a siwarp device is a struct softrdma_iw_qp; its iWARP state
 * (softrdma_qp_iw()) is allocated by softrdma_iwarp_qp_init() and freed
 * by softrdma_iwarp_qp_destroy().
 *
 * Three stages share it: iwarp_qp.c (attach, detach, the socket's
 * callbacks, life cycle), iwarp_tx.c (SQ WQEs, read responses and
 * TERMINATE to FPDUs on the socket) and iwarp_rx.c (FPDUs from the
 * socket to memory, receive WQEs and the inbound read queue).
 *
 * Locking, outermost first (see also qp.h):
 *   qp->state_mutex	attach, stop, reset, destroy
 *   sk_callback_lock	the socket's callbacks against (un)installing them
 *   qp->sq.lock	everything in struct softrdma_iw_tx, the outbound
 *			(ORQ) and inbound (IRQ) read queues, @conn
 *   qp->rq.lock	the RQ ring, taken only around softrdma_rq_take()
 * The receive state (struct softrdma_iw_rx) has no lock of its own: only
 * the receive actor touches it, and TCP runs that under the socket's
 * lock, one at a time; stop uninstalls the callbacks before it resets
 * the state.  No lock of ours is held across a call into the socket.
 */
#ifndef SOFTRDMA_IWARP_QP_H
#define SOFTRDMA_IWARP_QP_H

#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

#include "iwarp_pdu.h"
#include "param.h"
#include "qp.h"
#include "wqe.h"

struct sk_buff;
struct sock;
struct socket;
struct softrdma_iw_cep;
struct softrdma_qp;
struct softrdma_iwarp_qp;

/*
 * What MPA negotiation (RFC 5044, RFC 6581) settled for one connection,
 * handed from the connection manager to the data path.
 */
struct softrdma_iwarp_params {
	bool crc;		/* FPDUs carry a CRC32c, both directions */
	u32 ird;		/* inbound RDMA READs the peer may have open */
	u32 ord;		/* outbound RDMA READs we may have open */
	u32 max_ulpdu;		/* largest ULPDU we send (MULPDU, or more) */
};

/* Reads open at once, either way; params->ird/ord are clamped to it */
#define SOFTRDMA_IW_MAX_RD	SOFTRDMA_MAX_QP_RD_ATOM
/* The MPA length field is 16 bits: no ULPDU is longer (RFC 5044 7.1) */
#define SOFTRDMA_IW_MAX_ULPDU	65535U
/* FPDUs are never made smaller than this, whatever the CM says */
#define SOFTRDMA_IW_MIN_ULPDU	128U
/* Payloads up to this size are copied next to the header */
#define SOFTRDMA_IW_COPY_MAX	256U

/* An RDMA READ on its way: ours (ORQ) or the peer's (IRQ) */
struct softrdma_iw_read {
	u32 sink_stag;
	u64 sink_to;
	u32 len;
	u32 src_stag;
	u64 src_to;
	u32 slot;		/* ORQ: the READ's SQ slot */
	u32 done;		/* ORQ: bytes placed; IRQ: bytes framed */
};

/* A ring of READs, oldest first (iwarp_tx.c: softrdma_iw_rdq_*()) */
struct softrdma_iw_rdq {
	struct softrdma_iw_read e[SOFTRDMA_IW_MAX_RD];
	u32 head;
	u32 count;
};

/* Per SQ slot: where the transmit engine stands with the WQE */
struct softrdma_iw_wqe_st {
	u8 status;		/* enum ib_wc_status to complete with */
	bool done;		/* may complete in its turn */
	bool ack_wait;		/* ... once the peer acknowledged ack_seq */
	u32 ack_seq;		/* TCP sequence past the last lent byte */
};

/* What finishing an FPDU's transmission means */
enum softrdma_iw_fpdu_end {
	SOFTRDMA_IW_END_NONE,	/* a middle FPDU */
	SOFTRDMA_IW_END_WQE,	/* the last of a Send or Write: complete it */
	SOFTRDMA_IW_END_TERM,	/* a TERMINATE: the stream ends here */
};

/*
 * One FPDU being handed to TCP, in three pieces: @lin (MPA length,
 * DDP/RDMAP header and any copied payload), the payload pages held by
 * @frags, and the trailer (pad and CRC).  TCP takes @frags by reference
 * (a loan until the peer's ACK), or with @frags_copy copies them into
 * its own buffers as it takes them: the only copy of that payload.
 */
struct softrdma_iw_fpdu {
	u8 *lin;		/* SOFTRDMA_IW_LIN_SIZE(max_ulpdu) bytes */
	u32 lin_len;
	struct sk_buff *frags;	/* page fragments with references, or NULL */
	u8 trailer[8];
	u32 trailer_len;
	u32 total;		/* lin_len + frags->len + trailer_len */
	u32 sent;		/* bytes handed to TCP */
	bool more;		/* another FPDU of this message follows */
	enum softrdma_iw_fpdu_end end;
	u32 slot;		/* END_WQE: the SQ slot */
	bool wqe_pages;		/* @frags are a WQE's: a loan to TCP */
	bool frags_copy;	/* TCP copies @frags: no loan */
};

/*
 * Room for the longest header (a TERMINATE) before copied payload; lin
 * also takes the pad and CRC of an FPDU without page fragments (the
 * length field and the pad fit in what the header room spares).
 */
#define SOFTRDMA_IW_HDR_ROOM	128U
#define SOFTRDMA_IW_LIN_SIZE(ulpdu)	(SOFTRDMA_IW_HDR_ROOM + (ulpdu) + \
					 IWARP_MPA_CRC_SIZE)

/* The message the transmit engine is cutting into FPDUs */
enum softrdma_iw_tx_msg {
	SOFTRDMA_IW_TX_IDLE,
	SOFTRDMA_IW_TX_WQE,	/* an SQ WQE: Send*, Write, Read Request */
	SOFTRDMA_IW_TX_RRESP,	/* the IRQ's head: a Read Response */
};

/* Untagged queues RDMAP uses (RFC 5040 5.1, enum iwarp_ddp_qn) */
#define SOFTRDMA_IW_NUM_QN	(IWARP_QN_TERMINATE + 1)

/*
 * The transmit engine's state (qp->sq.lock).  Every move goes through
 * softrdma_iw_tx_move(), which checks it against the table in
 * iwarp_tx.c; staying in a state is not a move.
 */
enum softrdma_iw_tx_state {
	SOFTRDMA_IW_TX_DETACHED,	/* no connection yet, or reset */
	SOFTRDMA_IW_TX_RUNNING,		/* attached and RTS: sends messages */
	SOFTRDMA_IW_TX_CLOSING,		/* the connection ends (an error, a
					 * TERMINATE to send, SQD, stop):
					 * only the FPDU in flight and a
					 * TERMINATE still go out
					 */
	SOFTRDMA_IW_TX_DEAD,		/* the socket failed, the TERMINATE
					 * went out or the QP stopped:
					 * nothing more goes out
					 */
	SOFTRDMA_IW_TX_NR_STATES
};

/* Transmit state; all under qp->sq.lock */
struct softrdma_iw_tx {
	enum softrdma_iw_tx_state state;
	/*
	 * Who sends, not what may be sent: one context at a time holds the
	 * engine (@busy) while the state moves under it, and leaves @again
	 * for work that came meanwhile (a doorbell, a completion).
	 */
	bool busy;
	bool again;
	struct softrdma_iw_fpdu fpdu;
	bool fpdu_active;
	enum softrdma_iw_tx_msg msg;
	u32 slot;		/* TX_WQE: its SQ slot */
	u32 msg_off;		/* bytes of the message already framed */
	u32 msn[SOFTRDMA_IW_NUM_QN];	/* next MSN per queue (RFC 5041 5.1) */
	struct softrdma_iw_wqe_st *st;	/* by SQ slot */
	/* WQE payload lent to TCP: sequence past its last byte */
	bool lent;
	u32 lent_seq;
	bool ack_armed;		/* SOCK_NOSPACE set to hear of ACKs */
	/*
	 * A send WQE completed in error: retire completes nothing after it,
	 * the flush does (IBA 10.8.3.1).  Until tx_reset.
	 */
	bool failed;
	struct softrdma_iw_rdq orq;	/* our READs not fully answered */
	struct softrdma_iw_rdq irq;	/* the peer's READs to answer */
	/* a TERMINATE to send, built by the receive side */
	bool term_pending;
	/* the stream's one TERMINATE was queued (RFC 5040 5.2): until reset */
	bool term_queued;
	u8 term[SOFTRDMA_IW_HDR_ROOM];
	u32 term_len;
	wait_queue_head_t idle;	/* busy cleared */
	struct work_struct work;
};

/* Where the receive parser stands in the byte stream */
enum softrdma_iw_rx_state {
	SOFTRDMA_IW_RX_HDR,	/* MPA length and DDP/RDMAP header */
	SOFTRDMA_IW_RX_DATA,	/* the segment's payload */
	SOFTRDMA_IW_RX_TRAILER,	/* pad and CRC */
	SOFTRDMA_IW_RX_DEAD,	/* after an error: discard everything */
	SOFTRDMA_IW_RX_ENDED,	/* an FPDU reported complete (EV_END or
				 * EV_FPDU): its header stays in hdr, for
				 * a TERMINATE, until the next call
				 */
};

/* What the parser found in the bytes it was given */
enum softrdma_iw_ev_type {
	SOFTRDMA_IW_EV_NONE,	/* nothing yet: give it more bytes */
	SOFTRDMA_IW_EV_HDR,	/* rx->pdu holds a valid header */
	SOFTRDMA_IW_EV_DATA,	/* payload bytes at @off, @len of the skb */
	SOFTRDMA_IW_EV_END,	/* the FPDU is complete; @crc_ok */
	SOFTRDMA_IW_EV_ERR,	/* a bad header (@err); the stream is dead */
	SOFTRDMA_IW_EV_FPDU,	/* a whole FPDU, CRC good: HDR, DATA, END */
};

struct softrdma_iw_ev {
	enum softrdma_iw_ev_type type;
	unsigned int off;	/* EV_DATA, EV_FPDU: the payload */
	unsigned int len;	/* EV_DATA, EV_FPDU */
	u32 mo;			/* EV_DATA: offset in the segment's payload */
	bool crc_ok;		/* EV_END (EV_FPDU: always) */
	enum softrdma_iwarp_err err;	/* EV_ERR */
};

/* What one FPDU's payload is placed into */
enum softrdma_iw_rx_sink {
	SOFTRDMA_IW_SINK_NONE,	/* no payload, or discarded */
	SOFTRDMA_IW_SINK_MR,	/* tagged: Write, Read Response */
	SOFTRDMA_IW_SINK_RQE,	/* untagged QN 0: a Send */
};

/* Receive state; owned by the receive actor (see the top of this file) */
struct softrdma_iw_rx {
	/* the parser, softrdma_iw_rx_parse() */
	enum softrdma_iw_rx_state state;
	bool crc_on;		/* check the CRC field */
	u8 hdr[SOFTRDMA_IW_HDR_ROOM];
	u32 hdr_got;
	u32 hdr_need;		/* 4, then the opcode's header length */
	struct softrdma_iwarp_pdu pdu;
	u32 data_len;		/* payload bytes of this FPDU */
	u32 data_got;
	u8 trailer[8];
	u32 trailer_len;	/* pad + CRC */
	u32 trailer_got;
	u32 crc;		/* running CRC32c state */
	bool crc_whole;		/* crc already covers the FPDU to its CRC */

	/* placement of the current FPDU */
	enum softrdma_iw_rx_sink sink;
	u32 stag;		/* SINK_MR: the MR, looked up per run */
	int access;		/* SINK_MR: the IB_ACCESS_* placing needs */
	u64 to;			/* SINK_MR: where the payload starts */
	bool rresp;		/* a Read Response (else a Write) */
	/* the untagged Send being received (QN 0) */
	bool have_rqe;
	struct softrdma_recv_wqe rqe;
	u32 rcv_len;
	u32 msn[SOFTRDMA_IW_NUM_QN];	/* next MSN expected per queue */
	bool tx_kick;		/* Read Requests queued by this read */
};

struct softrdma_iwarp_qp {
	struct softrdma_qp *qp;

	/* the connection; set by attach, cleared by stop, under sq.lock */
	struct socket *sock;
	struct softrdma_iw_cep *cep;
	struct softrdma_iwarp_params params;
	int close_err;		/* for softrdma_iw_cm_conn_closed() */
	bool closing;		/* the connection is ending: QP to ERR */
	/* what the socket had before attach */
	void *saved_user_data;
	void (*saved_data_ready)(struct sock *sk);
	void (*saved_write_space)(struct sock *sk);
	void (*saved_state_change)(struct sock *sk);

	struct softrdma_iw_tx tx;
	struct softrdma_iw_rx rx;
	size_t lin_size;	/* bytes at tx.fpdu.lin */

	/* hands the socket back to the CM, without any QP lock held */
	struct work_struct close_work;
	struct socket *closed_sock;
	struct softrdma_iw_cep *closed_cep;
	int closed_err;
};

/*
 * A QP of an iWARP device: the verbs core's QP and its iWARP state, which
 * is sized by the QP's SQ (the RDMA core allocates this size, iwarp_dev.c)
 */
struct softrdma_iw_qp {
	struct softrdma_qp qp;		/* first: ibqp at offset 0 */
	/* from softrdma_iwarp_qp_init() to _destroy(); NULL otherwise */
	struct softrdma_iwarp_qp *iw;
};

static inline struct softrdma_iw_qp *to_iw_qp(struct softrdma_qp *qp)
{
	return container_of(qp, struct softrdma_iw_qp, qp);
}

/* the iWARP state of a QP of an iWARP device, or NULL (see above) */
static inline struct softrdma_iwarp_qp *
softrdma_qp_iw(const struct softrdma_qp *qp)
{
	return container_of(qp, const struct softrdma_iw_qp, qp)->iw;
}

/* qp.c: lifecycle, the same calls and contexts as the RC engines */
int softrdma_iwarp_qp_init(struct softrdma_qp *qp);
void softrdma_iwarp_qp_destroy(struct softrdma_qp *qp);
void softrdma_iwarp_qp_reset(struct softrdma_qp *qp);
void softrdma_iwarp_qp_start(struct softrdma_qp *qp);
void softrdma_iwarp_qp_kick(struct softrdma_qp *qp);
int softrdma_iwarp_fill_res_qp_entry(struct sk_buff *msg, struct ib_qp *ibqp);
void softrdma_iwarp_qp_stop(struct softrdma_qp *qp);
void softrdma_iwarp_qp_drain(struct softrdma_qp *qp);

/* the iWARP transport's QP hooks (transport.h) */
int softrdma_iwarp_qp_check_init(const struct ib_qp_init_attr *init,
				 bool user);
const struct softrdma_qp_engine *
softrdma_iwarp_qp_engine(enum ib_qp_type type);
int softrdma_iwarp_modify_qp(struct softrdma_qp *qp, struct ib_qp_attr *attr,
			     int mask);
/*
 * modify_qp attributes an iWARP QP takes: the state, what the iw_cm and
 * rdma_cm set (access flags, port) and the RDMA Read depths (ORD/IRD);
 * and, as stock siw takes them, the IB values an IB-style caller passes
 * along (P_Key index, path MTU, PSNs, timers, retry counts, destination
 * QPN), kept for query_qp and otherwise unused: iWARP leaves reliability
 * to TCP.  Stock siw takes every other standard attribute and ignores
 * it; so do these QPs with an address vector, a Q_Key, a path migration
 * state and capacities (SOFTRDMA_IWARP_QP_IGNORED: not stored, query_qp
 * does not report them; an iWARP QP's path is its connection).  An
 * alternate path is refused: the RDMA core refuses it on any port that
 * is not InfiniBand before a driver sees it.
 */
#define SOFTRDMA_IWARP_QP_ATTRS	(IB_QP_STATE | IB_QP_CUR_STATE | \
				 IB_QP_ACCESS_FLAGS | IB_QP_PORT | \
				 IB_QP_MAX_QP_RD_ATOMIC | \
				 IB_QP_MAX_DEST_RD_ATOMIC | \
				 IB_QP_EN_SQD_ASYNC_NOTIFY | \
				 SOFTRDMA_IWARP_QP_IB_ATTRS | \
				 SOFTRDMA_IWARP_QP_IGNORED)
#define SOFTRDMA_IWARP_QP_IGNORED (IB_QP_AV | IB_QP_QKEY | \
				   IB_QP_PATH_MIG_STATE | IB_QP_CAP)
#define SOFTRDMA_IWARP_QP_IB_ATTRS (IB_QP_PKEY_INDEX | IB_QP_PATH_MTU | \
				    IB_QP_DEST_QPN | IB_QP_RQ_PSN | \
				    IB_QP_SQ_PSN | IB_QP_TIMEOUT | \
				    IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | \
				    IB_QP_MIN_RNR_TIMER)

int softrdma_iwarp_qp_transition(enum ib_qp_state cur, enum ib_qp_state next,
				 int mask, unsigned int *actions);
bool softrdma_iwarp_send_wr_ok(const struct ib_send_wr *wr);
int softrdma_iwarp_qp_connected(struct softrdma_qp *qp);

/*
 * softrdma_iwarp_qp_attach() - start RDMA mode on a connected socket
 * @qp:		an iWARP QP in INIT or RTR, not attached
 * @sock:	connected kernel TCP socket; the MPA exchange (and the
 *		RFC 6581 RTR message, if negotiated) is complete and no
 *		byte of RDMA mode has been read from it yet
 * @params:	the negotiated connection parameters
 * @cep:	the connection manager's endpoint, for
 *		softrdma_iw_cm_conn_closed() (iw_cm.h)
 *
 * Called by iw_cm.c in process context.  On success the QP is in RTS and
 * the data path owns @sock (its callbacks and its release) and holds
 * the reference on @cep that the caller took for it; both are given up
 * exactly once, through softrdma_iw_cm_conn_closed(), when the
 * connection ends for any reason (peer close or reset, protocol error,
 * QP moved to ERR or destroyed).  On error nothing was taken over.
 */
int softrdma_iwarp_qp_attach(struct softrdma_qp *qp, struct socket *sock,
			     const struct softrdma_iwarp_params *params,
			     struct softrdma_iw_cep *cep);

#if IS_ENABLED(CONFIG_KUNIT)
void softrdma_iw_sk_prepare(struct sock *sk);
void softrdma_iwarp_qp_conn_attr(struct ib_qp_attr *a,
				 const struct softrdma_iwarp_params *p,
				 unsigned int netdev_mtu);
#endif

/* Between the stages (iwarp_tx.c, iwarp_rx.c) */
void softrdma_iwarp_qp_fatal(struct softrdma_qp *qp, int err,
			     enum softrdma_qp_err_cause cause);

/* The transmit engine's state machine (iwarp_tx.c; KUnit-tested) */
const char *softrdma_iw_tx_state_name(enum softrdma_iw_tx_state state);
bool softrdma_iw_tx_may_move(enum softrdma_iw_tx_state from,
			     enum softrdma_iw_tx_state to);
void softrdma_iw_tx_move(struct softrdma_qp *qp,
			 enum softrdma_iw_tx_state next);

#endif /* SOFTRDMA_IWARP_QP_H */
