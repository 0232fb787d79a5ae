/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The RC protocol engines of a queue pair (IBA vol 1 ch. 9): the
 * requester sends the SQ's WQEs as packets, the completer retires them on
 * ACKs, responses and timeouts, the responder executes what the peer
 * sends.  qp.c drives them through the calls below.
 *
 * UC queue pairs (IBA 9.8) run the same engines without reliability
 * (softrdma_rc_reliable()): SENDs and RDMA WRITEs only, in UC opcodes,
 * no AckReq, ACK, NAK, retry timer or duplicate; the requester retires a
 * WQE once its packets are handed to the host, and the responder drops a
 * message it cannot take whole and waits for the next First or Only
 * (softrdma_uc_resp_step()).
 *
 * Where they run: the responder and the completer in the receive path
 * itself (UDP encap_rcv softirq), the requester in the poster's context
 * on the doorbell and from the completer when the window opens.  Only a
 * transmit the host dropped (softrdma_roce_xmit() -EAGAIN), a long read
 * response and a retransmission wait are deferred, to a work item or the
 * retry timer.
 *
 * Transmit: the engines build packets under their lock and queue them on
 * their txq; whoever finds the queue's owner flag clear drains it with
 * the lock dropped (softrdma_rc_req_flush(), softrdma_rc_resp_flush()).
 * So packets of one engine leave in order, and a packet delivered to a
 * local device (loopback) may re-enter any engine without deadlock.
 */
#ifndef SOFTRDMA_RC_H
#define SOFTRDMA_RC_H

#include <linux/bitmap.h>
#include <linux/list.h>
#include <linux/skbuff.h>
#include <linux/timer.h>
#include <linux/workqueue.h>

#include <rdma/ib_verbs.h>

#include "param.h"
#include "psn.h"
#include "qp_state.h"
#include "roce_hdr.h"
#include "wqe.h"

struct softrdma_qp;

/* Packets sent and not acknowledged, at most (bounds go-back-N) */
#define SOFTRDMA_RC_WINDOW		128
/*
 * The requester's congestion window (packets), between this and
 * SOFTRDMA_RC_WINDOW: see softrdma_rc_cwnd_next().
 */
#define SOFTRDMA_RC_CWND_MIN		4
/* AckReq at least every this many packets of one message (IBA 9.7.2) */
#define SOFTRDMA_RC_ACKREQ_PERIOD	32
/*
 * Read response packets built per pass before deferring the rest to the
 * work item.  64: a 64 KiB READ at a 1024-byte path MTU is answered from
 * the receive softirq in one pass; at 32 its second half waited for a
 * kworker, a context switch per READ on a 1-vCPU guest.
 */
#define SOFTRDMA_RC_READ_BUDGET		64
/* Requests held back while a read response is being sent */
#define SOFTRDMA_RC_BACKLOG		256
/* Payloads up to this size are copied, larger ones sent as page frags */
#define SOFTRDMA_RC_COPY_MAX		256
/*
 * The most PSNs one message may take: with the fewer than
 * SOFTRDMA_RC_WINDOW outstanding before it, less than half the PSN space
 * (softrdma_rc_msg_fits())
 */
#define SOFTRDMA_RC_MAX_MSG_PSNS	(PSN_HALF - SOFTRDMA_RC_WINDOW)
/*
 * RDMA READ response PSNs past a gap the completer remembers having
 * placed, from the oldest one missing (a power of two): an 8 MiB READ at
 * a 1024-byte path MTU.  See struct softrdma_rc_rd_ahead.
 */
#define SOFTRDMA_RC_RD_TRACK		8192
/* Back-off after a host transmit drop: first and largest delay */
#define SOFTRDMA_RC_XMIT_BACKOFF_MIN_US	20
#define SOFTRDMA_RC_XMIT_BACKOFF_MAX_US	20000

/* Where the requester stands in one send WQE; by SQ slot. */
struct softrdma_rc_wqe {
	u32 first_psn;		/* PSN of its first packet */
	u32 npsn;		/* PSNs it consumes (IBA 9.7.1) */
	u32 status;		/* enum ib_wc_status to retire it with */
	bool failed;		/* a local error: retire with @status */
	bool done;		/* read/atomic: response fully received */
};

/* What a responder resource answered */
enum softrdma_rc_res_kind {
	SOFTRDMA_RC_RES_READ,		/* RDMA READ: its responses */
	SOFTRDMA_RC_RES_ATOMIC,		/* CmpSwap, FetchAdd: an atomic ACK */
	/*
	 * ATOMIC WRITE or FLUSH (IBA 1.5): an RDMA READ Response Only of no
	 * payload.  A duplicate is answered again and not executed again
	 * (IBA 1.5 9.4.8, 9.4.9): a second ATOMIC WRITE could undo a write
	 * that came after the first.
	 */
	SOFTRDMA_RC_RES_PLACED,
};

/*
 * A responder resource for one RDMA READ, ATOMIC, ATOMIC WRITE or FLUSH
 * (IBA 9.7.5.1.4)
 */
struct softrdma_rc_res {
	u32 first_psn;
	u32 npsn;		/* 0: unused */
	enum softrdma_rc_res_kind kind;
	u64 va;			/* read: first byte of the request */
	u32 rkey;
	u32 len;
	u64 orig;		/* atomic: the value returned, for replays */
};

/* The responder's place inside a multi-packet message (IBA 9.7.4) */
enum softrdma_rc_resp_msg {
	SOFTRDMA_RC_MSG_NONE,	/* expecting a First or Only packet */
	SOFTRDMA_RC_MSG_SEND,	/* inside a SEND: Middle or Last */
	SOFTRDMA_RC_MSG_WRITE,	/* inside an RDMA WRITE: Middle or Last */
	SOFTRDMA_RC_MSG_DROP,	/* UC: a message was dropped; the next
				 * First or Only, at any PSN, begins anew
				 */
};

/*
 * Where the responder stands in the request stream: the next PSN and
 * whether it is inside a message.  Only a packet at the expected PSN that
 * was executed moves it (softrdma_rc_resp_done()); duplicates, NAKed or
 * dropped packets and RNR NAKs leave it, so a requester that goes back
 * (IBA 9.7.5.2.1, 9.7.6.1.3) may resume at any packet of a message, First,
 * Middle or Last, and continue it.
 */
struct softrdma_rc_resp_seq {
	u32 psn;		/* next PSN expected */
	bool nak_sent;		/* PSN sequence error NAKed, once */
	enum softrdma_rc_resp_msg msg;
};

/*
 * RDMA READ responses that arrived past a gap (IBA 9.7.5.1.3): their
 * data is placed at once, and each PSN is noted here, modulo
 * SOFTRDMA_RC_RD_TRACK, so that una_psn skips it once the gap is filled,
 * the gap alone is asked for again, and a replay of it counts as a
 * duplicate.  Only PSNs less than SOFTRDMA_RC_RD_TRACK past una_psn are
 * noted; the bit of una_psn itself is always clear.
 */
struct softrdma_rc_rd_ahead {
	u32 count;		/* PSNs noted */
	DECLARE_BITMAP(seen, SOFTRDMA_RC_RD_TRACK);
};

/*
 * The answer to the RDMA READ request sent again last (IBA 9.7.5.1.3),
 * as it arrives: it covers the PSNs from @next, the first of them not
 * dropped as a repeat yet, up to @end; empty when @next == @end.  A request taken for
 * lost may only have been late (queued behind its own READ's responses
 * in a link buffer longer than the ACK timeout): its original responses
 * then arrive first, and the answer repeats what the requester holds.
 * See softrdma_rc_rd_replay_step().
 */
struct softrdma_rc_rd_replay {
	u32 next;
	u32 end;
};

/*
 * The requester's state (IBA vol 1 9.7.6; qp->sq.lock).  Every move goes
 * through softrdma_rc_req_move(), which checks it against the table in
 * rc.c; staying in a state is not a move.  The completer moves it too.
 */
enum softrdma_rc_req_state {
	SOFTRDMA_RC_REQ_STOPPED,	/* created, stopped (RESET, ERR,
					 * destroy) or reset: nothing runs,
					 * nothing may be armed
					 */
	SOFTRDMA_RC_REQ_IDLE,		/* started in RTR: waits for RTS */
	SOFTRDMA_RC_REQ_RUNNING,	/* sends what the window allows */
	SOFTRDMA_RC_REQ_PAUSED,		/* waits out a host transmit drop or
					 * an allocation failure (req_work)
					 */
	SOFTRDMA_RC_REQ_RNR_WAIT,	/* waits out an RNR NAK (IBA
					 * 9.7.5.2.8) on the retry timer
					 */
	SOFTRDMA_RC_REQ_FAILED,		/* a fatal error: the QP is on its
					 * way to ERR, nothing more is sent
					 */
	SOFTRDMA_RC_REQ_NR_STATES
};

/*
 * The responder's state (IBA vol 1 9.7.5; qp->rq.lock), moved by
 * softrdma_rc_resp_move() against its table in rc.c.
 */
enum softrdma_rc_resp_state {
	SOFTRDMA_RC_RESP_STOPPED,	/* created, stopped or reset */
	SOFTRDMA_RC_RESP_RUNNING,	/* RTR or later: executes requests */
	SOFTRDMA_RC_RESP_READING,	/* sends an RDMA READ's responses
					 * (rd_*); requests wait in backlog
					 */
	SOFTRDMA_RC_RESP_FAILED,	/* a class C error (IBA 9.9.3.1.3)
					 * was NAKed: requests are dropped
					 */
	SOFTRDMA_RC_RESP_NR_STATES
};

/*
 * SQ Drained (IBA 11.6.3.1), once per move to SQD (qp->sq.lock).  The
 * event is decided under the lock and raised once it is dropped, so that
 * a consumer's handler may post or modify the QP.
 */
enum softrdma_rc_sqd {
	SOFTRDMA_RC_SQD_WAIT,		/* not in SQD, or WQEs still out */
	SOFTRDMA_RC_SQD_OWED,		/* drained: raise once unlocked */
	SOFTRDMA_RC_SQD_DONE,		/* raised (if asked for) */
};

struct softrdma_rc {
	/* requester and completer: under qp->sq.lock */
	enum softrdma_rc_req_state req_state;
	/*
	 * The owner of req_txq, which sends it with the lock dropped: not an
	 * engine state, a flush that began RUNNING goes on in any other.
	 */
	bool req_draining;
	/*
	 * The requester's life: bumped by every stop (ERR, RESET, destroy).
	 * A flush that sent a packet with the lock dropped acts on its PSN
	 * only if the life it dequeued it in still runs: a PSN of the QP
	 * before an ERR -> RESET -> RTS cycle means nothing to the next.
	 */
	u32 req_life;
	/* SQ Drained of the current or last move to SQD */
	enum softrdma_rc_sqd sqd;
	u32 req_psn;		/* next PSN to send */
	u32 una_psn;		/* oldest PSN not acknowledged */
	u32 sent_psn;		/* after the highest PSN ever sent */
	u32 req_idx;		/* WQE being sent, from the oldest */
	u32 req_outstanding_rd;	/* reads and atomics sent, not retired */
	u32 cwnd;		/* PSNs it may have in flight now */
	u8 retry_left;		/* IBA 9.7.6.1.3 */
	u8 rnr_left;		/* IBA 9.7.5.2.8; unused when infinite */
	/*
	 * A go-back-N under way: until una_psn moves, what arrives past it
	 * was sent before the rewind and shows the same gap again.
	 */
	bool rewound;
	/*
	 * READ responses placed past a gap, and the gap asked for again:
	 * until una_psn reaches reread_end or the last response asked for
	 * arrives, asking once more would only repeat the question.
	 */
	struct softrdma_rc_rd_ahead rd_ahead;
	bool rereading;
	u32 reread_end;
	struct softrdma_rc_rd_replay rd_replay;
	unsigned int req_backoff_us;
	unsigned long progress;	/* jiffies of the last ACK progress */
	struct softrdma_rc_wqe *wqe;	/* by SQ slot, like qp->sq.wqe */
	struct sk_buff_head req_txq;

	/* responder: under qp->rq.lock */
	enum softrdma_rc_resp_state resp_state;
	/* resp_txq's owner, as req_draining; in any engine state */
	bool resp_draining;
	bool ack_pending;	/* an ACK the host dropped */
	/* an ACK coalesced until the receive batch ends (rc_responder.c) */
	bool ack_deferred;
	bool ack_listed;	/* on a CPU's list, holding a QP reference */
	/* IB_EVENT_COMM_EST raised: the first request arrived in RTR */
	bool comm_est;
	/* an invalid request was logged (once per QP life) */
	bool resp_noted;
	u32 ack_psn;
	u64 ack_batch;		/* receive batch of the last ACK sent at once */
	struct list_head ack_node;
	struct softrdma_rc_resp_seq seq;
	u32 msn;		/* IBA 9.7.3.1: messages completed */
	/* SEND in progress: its receive WQE and how much it holds */
	struct softrdma_recv_wqe rwqe;
	bool have_rwqe;
	u32 rcv_len;
	/* RDMA WRITE in progress: where the next byte goes */
	u64 wr_va;
	u32 wr_rkey;
	u32 wr_left;
	u32 wr_len;
	/* read and atomic resources, a ring of max_dest_rd_atomic */
	struct softrdma_rc_res res[SOFTRDMA_MAX_QP_RD_ATOM];
	u32 res_next;
	/* the read response being sent, in READING (IBA 9.7.5.1.3) */
	u32 rd_first;		/* PSN of the read's first response */
	u32 rd_psn0;		/* PSN of the first packet sent now */
	u32 rd_psn;		/* next to build */
	u32 rd_end;		/* after its last */
	u64 rd_va;		/* first byte, at rd_psn0 */
	u32 rd_rkey;
	u32 rd_len;		/* bytes from rd_va */
	/*
	 * The host dropped a response: resp_txq waits out a back-off.  A
	 * property of the queue, not of the engine: it holds the answers of
	 * a RUNNING, READING or FAILED responder alike.
	 */
	bool resp_held;
	unsigned int resp_backoff_us;
	struct sk_buff_head resp_txq;
	struct sk_buff_head backlog;	/* requests waiting for @rd */

	/* the requester's deferred work: retries after host drops */
	struct delayed_work req_work;
	/* the responder's: budgeted read responses, drops, backlog */
	struct delayed_work resp_work;
	/*
	 * The local ACK timer (IBA 9.7.6.1.3) or the RNR wait (9.7.5.2.8),
	 * under qp->sq.lock: running while retry_armed, until
	 * retry_deadline (jiffies).  retry_timer is kept pending at or
	 * before the deadline; a deadline moved later only writes the
	 * field, and the timer, when it fires early, is set again for the
	 * rest (softrdma_rc_retry_timer()).  So the ACKs and responses
	 * that restart the ACK timer cost no timer operation each.
	 */
	struct timer_list retry_timer;
	bool retry_armed;
	unsigned long retry_deadline;
	/*
	 * The local ACK timeout in jiffies, 0 for none, as last worked out
	 * from the QP's timeout attribute and rc_min_ack_timeout_ms
	 * (softrdma_rc_ack_timeout(); all zero is consistent)
	 */
	unsigned long ack_tmo;
	u32 ack_tmo_min_ms;
	u8 ack_tmo_attr;
};

bool softrdma_rc_reliable(const struct softrdma_qp *qp);
int softrdma_rc_init(struct softrdma_qp *qp);
void softrdma_rc_destroy(struct softrdma_qp *qp);
void softrdma_rc_reset(struct softrdma_qp *qp);
void softrdma_rc_start(struct softrdma_qp *qp);
void softrdma_rc_kick(struct softrdma_qp *qp);
void softrdma_rc_stop(struct softrdma_qp *qp);
void softrdma_rc_drain(struct softrdma_qp *qp);
bool softrdma_rc_release_rwqe(struct softrdma_qp *qp, u64 *wr_id);
void softrdma_rc_sq_drained(struct softrdma_qp *qp);
bool softrdma_rc_sq_drained_take(struct softrdma_qp *qp);
struct softrdma_mr;
void softrdma_rc_rcv(struct softrdma_qp *qp, struct sk_buff *skb,
		     struct softrdma_mr **mr_cache);

/* The engines' state machines (rc.c); KUnit-tested in rc_test.c */
const char *softrdma_rc_req_state_name(enum softrdma_rc_req_state state);
bool softrdma_rc_req_may_move(enum softrdma_rc_req_state from,
			      enum softrdma_rc_req_state to);
void softrdma_rc_req_move(struct softrdma_qp *qp,
			  enum softrdma_rc_req_state next);
const char *softrdma_rc_resp_state_name(enum softrdma_rc_resp_state state);
bool softrdma_rc_resp_may_move(enum softrdma_rc_resp_state from,
			       enum softrdma_rc_resp_state to);
void softrdma_rc_resp_move(struct softrdma_qp *qp,
			   enum softrdma_rc_resp_state next);

/**
 * softrdma_rc_req_active() - does the requester hold a connection's state?
 * @state: its state
 *
 * Started in RTS and not stopped or failed, whether it sends now or
 * waits: responses are taken and the ACK timer runs.
 */
static inline bool softrdma_rc_req_active(enum softrdma_rc_req_state state)
{
	return state == SOFTRDMA_RC_REQ_RUNNING ||
	       state == SOFTRDMA_RC_REQ_PAUSED ||
	       state == SOFTRDMA_RC_REQ_RNR_WAIT;
}

/* Between the engines (rc_requester.c, rc_responder.c, rc_completer.c) */
struct sk_buff *softrdma_rc_alloc_skb(struct softrdma_qp *qp,
				      unsigned int hdr_len,
				      unsigned int payload_len);
bool softrdma_rc_tx_sg(struct softrdma_qp *qp);
int softrdma_rc_xmit(struct softrdma_qp *qp, struct sk_buff *skb);
unsigned int softrdma_rc_burst_take(struct softrdma_qp *qp,
				    struct sk_buff_head *q,
				    struct sk_buff_head *burst);
int softrdma_rc_xmit_burst(struct softrdma_qp *qp, struct sk_buff_head *burst);
void softrdma_rc_req_run(struct softrdma_qp *qp);
void softrdma_rc_req_flush(struct softrdma_qp *qp);
bool softrdma_rc_req_flush_due(struct softrdma_qp *qp);
void softrdma_rc_req_rewind(struct softrdma_qp *qp, u32 psn);
int softrdma_rc_req_reread(struct softrdma_qp *qp, u32 idx, u32 psn, u32 n);
void softrdma_rc_req_work(struct work_struct *work);
u32 softrdma_rc_wqe_npsn(u32 opcode, u32 length, u32 mtu);
bool softrdma_rc_msg_fits(u32 opcode, u32 length, u32 mtu);
struct softrdma_send_wqe *softrdma_rc_wqe_at(struct softrdma_qp *qp, u32 idx,
					     struct softrdma_rc_wqe **st);
void softrdma_rc_arm_retry(struct softrdma_qp *qp);
void softrdma_rc_retry_start(struct softrdma_qp *qp, unsigned long deadline);
void softrdma_rc_retire(struct softrdma_qp *qp, u32 ack_psn);

void softrdma_rc_ack_init(void);
void softrdma_rc_ack_exit(void);
void softrdma_rc_resp_rcv(struct softrdma_qp *qp, struct sk_buff *skb,
			  struct softrdma_mr **mr_cache);
void softrdma_rc_resp_flush(struct softrdma_qp *qp);
void softrdma_rc_resp_settle(struct softrdma_qp *qp);
void softrdma_rc_resp_work(struct work_struct *work);
#if IS_ENABLED(CONFIG_KUNIT)
bool softrdma_rc_comp_fits(struct softrdma_qp *qp, u32 psn, u32 op_flags,
			   u32 payload);
struct softrdma_mr *softrdma_rc_read_mr(struct softrdma_qp *qp, u32 rkey,
					u64 *va, u32 len);
struct softrdma_mr *softrdma_rc_write_mr(struct softrdma_qp *qp, u32 rkey,
					 u64 *va, u32 len,
					 struct softrdma_mr **mr_cache);
bool softrdma_rc_atomic_write_rule(u64 va, u32 len, u32 payload_len);
bool softrdma_rc_flush_access(u8 plt, u8 sel, int *access);
enum softrdma_qp_err_cause
softrdma_rc_nak_cause(enum softrdma_aeth_nak_code code, bool rwqe_says);
void softrdma_rc_timer_restart(struct softrdma_qp *qp);
#endif

void softrdma_rc_comp_rcv(struct softrdma_qp *qp, struct sk_buff *skb,
			  struct softrdma_mr **mr_cache);
void softrdma_rc_retry_timer(struct timer_list *t);

/* pure helpers, KUnit-tested in rc_test.c */
struct softrdma_rc_seg {
	u8 opcode;
	bool ackreq;
	bool has_reth;
	u32 offset;		/* payload offset in the message */
	u32 len;		/* payload bytes */
};

bool softrdma_rc_segment(u32 wr_opcode, u32 length, u32 mtu, u32 pkt,
			 u32 send_flags, struct softrdma_rc_seg *seg);

/* What the requester's congestion window reacts to */
enum softrdma_rc_cwnd_event {
	SOFTRDMA_RC_CWND_ACKED,		/* the oldest PSNs were acknowledged */
	SOFTRDMA_RC_CWND_LOSS,		/* a sequence NAK or a response gap */
	SOFTRDMA_RC_CWND_TIMEOUT,	/* the local ACK timer expired */
};

u32 softrdma_rc_cwnd_next(u32 cwnd, enum softrdma_rc_cwnd_event ev,
			  u32 acked);

/* What the responder does with a request's PSN (IBA 9.7.5.1.1) */
enum softrdma_rc_psn_class {
	SOFTRDMA_RC_PSN_EXPECTED,	/* the next one: execute it */
	SOFTRDMA_RC_PSN_DUPLICATE,	/* seen before: answer it again */
	SOFTRDMA_RC_PSN_GAP_NAK,	/* the first past a gap: NAK it */
	SOFTRDMA_RC_PSN_GAP_DROP,	/* past a gap already NAKed: drop */
};

enum softrdma_rc_psn_class softrdma_rc_psn_classify(u32 psn, u32 expected,
						    bool nak_sent);

/* What the responder does with a request packet (IBA 9.7.5.1.1, 9.7.4) */
enum softrdma_rc_resp_verdict {
	SOFTRDMA_RC_RESP_EXECUTE,	/* in order, a legal opcode: do it */
	SOFTRDMA_RC_RESP_DUPLICATE,	/* seen before: answer it again */
	SOFTRDMA_RC_RESP_SEQ_NAK,	/* the first past a gap: NAK it */
	SOFTRDMA_RC_RESP_SEQ_DROP,	/* past a gap already NAKed: drop */
	SOFTRDMA_RC_RESP_INVALID,	/* in order, an illegal opcode */
	SOFTRDMA_RC_RESP_RESYNC,	/* UC: a First or Only out of sequence:
					 * the message in progress is dropped,
					 * this one begins at its PSN
					 */
};

enum softrdma_rc_resp_verdict
softrdma_rc_resp_step(struct softrdma_rc_resp_seq *seq, u32 psn, u8 opcode);
void softrdma_rc_resp_done(struct softrdma_rc_resp_seq *seq, u32 psn,
			   u8 opcode, u32 npsn);
enum softrdma_rc_resp_verdict
softrdma_uc_resp_step(struct softrdma_rc_resp_seq *seq, u32 psn, u8 opcode);
u8 softrdma_rc_req_opcode(u8 rc_opcode, bool reliable);

bool softrdma_rc_write_fits(u32 op_flags, u32 payload, u32 left);
u8 softrdma_rc_read_resp_opcode(u32 idx, u32 npsn);
bool softrdma_rc_resp_fits(u32 wr_opcode, u32 op_flags, u32 idx, u32 npsn,
			   u32 payload, u32 length, u32 mtu);

/* What the completer does with an ACK or NAK (IBA 9.7.5.1.1 - 9.7.5.2) */
enum softrdma_rc_ack_action {
	SOFTRDMA_RC_ACK_RETIRE,		/* ACK: retire what it covers */
	SOFTRDMA_RC_ACK_RNR_WAIT,	/* RNR NAK: wait the timer, resend */
	SOFTRDMA_RC_ACK_RNR_EXCEEDED,	/* RNR NAK, no RNR retry left */
	SOFTRDMA_RC_ACK_GO_BACK,	/* sequence NAK: go back to its PSN */
	SOFTRDMA_RC_ACK_HOLD,		/* sequence NAK of a gap answered */
	SOFTRDMA_RC_ACK_RETRY_EXCEEDED,	/* sequence NAK, no retry left */
	SOFTRDMA_RC_ACK_FATAL,		/* any other NAK: the QP fails */
	SOFTRDMA_RC_ACK_INVALID,	/* reserved syndrome: ignore it */
};

/* The completer's retry state an acknowledgment is judged against */
struct softrdma_rc_ack_ctx {
	u8 rnr_retry;		/* the QP's attribute; 7 = infinite */
	u8 rnr_left;
	u8 retry_left;
	bool holding;		/* a go-back-N is already under way */
};

enum softrdma_rc_ack_action
softrdma_rc_ack_decide(u8 syndrome, const struct softrdma_rc_ack_ctx *ctx,
		       enum ib_wc_status *status);

/* Where an RDMA READ response stands (IBA 9.7.5.1.3, 9.7.6.1.3) */
enum softrdma_rc_rd_class {
	SOFTRDMA_RC_RD_NEXT,		/* at una_psn: the read advances */
	SOFTRDMA_RC_RD_AHEAD,		/* past a gap, new data: place it */
	SOFTRDMA_RC_RD_DUPLICATE,	/* past a gap, placed before: drop */
	SOFTRDMA_RC_RD_STALE,		/* before una_psn or past the read */
};

enum softrdma_rc_rd_class
softrdma_rc_rd_classify(const struct softrdma_rc_rd_ahead *ahead, u32 psn,
			u32 una, u32 end);
bool softrdma_rc_rd_restarts_timer(enum softrdma_rc_rd_class class);
void softrdma_rc_rd_note(struct softrdma_rc_rd_ahead *ahead, u32 psn, u32 una);
u32 softrdma_rc_rd_advance(struct softrdma_rc_rd_ahead *ahead, u32 una);
u32 softrdma_rc_rd_gap(const struct softrdma_rc_rd_ahead *ahead, u32 psn,
		       u32 una, u32 end);
void softrdma_rc_rd_forget(struct softrdma_rc_rd_ahead *ahead);
void softrdma_rc_rd_replay_start(struct softrdma_rc_rd_replay *replay,
				 u32 psn, u32 n);
bool softrdma_rc_rd_replay_step(struct softrdma_rc_rd_replay *replay,
				u32 psn);

#endif /* SOFTRDMA_RC_H */
