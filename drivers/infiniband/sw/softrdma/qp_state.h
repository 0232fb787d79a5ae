/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The IBA queue pair state machine (IBA vol 1 §10.3.1, figure 124) as
 * data: which transitions softrdma takes, what each one makes the QP do,
 * which attribute values it accepts, and the timer encodings of §9.7.5
 * and table 45.  No locking, no objects: pure functions the QP code and
 * KUnit share.
 */
#ifndef SOFTRDMA_QP_STATE_H
#define SOFTRDMA_QP_STATE_H

#include <rdma/ib_verbs.h>

/* What a modify_qp transition asks of the QP, beyond storing attributes. */
enum softrdma_qp_action {
	SOFTRDMA_QP_ACT_RESET		= BIT(0),	/* drop all queue state */
	SOFTRDMA_QP_ACT_RECV		= BIT(1),	/* responder may run */
	SOFTRDMA_QP_ACT_SEND		= BIT(2),	/* requester may run */
	SOFTRDMA_QP_ACT_DRAIN		= BIT(3),	/* SQD: stop taking WQEs */
	SOFTRDMA_QP_ACT_RESUME		= BIT(4),	/* SQD -> RTS */
	SOFTRDMA_QP_ACT_FLUSH		= BIT(5),	/* (in) ERR: flush both queues */
};

/* IBA 13.5.1: the GSI QP's number */
#define SOFTRDMA_GSI_QPN		1

/* UD and the GSI QP (UD with MADs) share the datagram rules */
static inline bool softrdma_qp_type_is_ud(enum ib_qp_type type)
{
	return type == IB_QPT_UD || type == IB_QPT_GSI;
}

const char *softrdma_qp_state_name(enum ib_qp_state state);

int softrdma_qp_current_state(enum ib_qp_state actual,
			      const struct ib_qp_attr *attr, int mask,
			      enum ib_qp_state *cur);

int softrdma_qp_transition(enum ib_qp_state cur, enum ib_qp_state next,
			   enum ib_qp_type type, int mask,
			   unsigned int *actions);

struct softrdma_qp_limits {
	enum ib_mtu max_path_mtu;	/* the port's active MTU */
	u8 max_rd_atomic;
	u8 max_dest_rd_atomic;
};

int softrdma_qp_check_attr(const struct ib_qp_attr *attr, int mask,
			   const struct softrdma_qp_limits *limits);

/* What post_send does with send work in the QP's current state */
enum softrdma_post_verdict {
	SOFTRDMA_POST_RUN,	/* queue it and kick the requester */
	SOFTRDMA_POST_FLUSH,	/* queue it; it completes with a flush error */
};

int softrdma_qp_send_verdict(enum ib_qp_state state, bool connected);

/*
 * Why a QP enters ERR by itself (not by modify_qp), which decides the
 * affiliated asynchronous event it raises (softrdma_qp_err_event()).
 * In order of gravity: when several are asked at once the first counts.
 */
enum softrdma_qp_err_cause {
	SOFTRDMA_QP_ERR_NONE,		/* no transition asked */
	SOFTRDMA_QP_ERR_LOCAL,		/* local or transmit failure */
	SOFTRDMA_QP_ERR_REQ,		/* an inbound request is invalid */
	SOFTRDMA_QP_ERR_ACCESS,		/* an inbound request breaks access */
	SOFTRDMA_QP_ERR_WC,		/* a completion in error reports it */
	SOFTRDMA_QP_ERR_CLOSED,		/* the iWARP stream ended in order */
	SOFTRDMA_QP_ERR_FLUSH,		/* work posted in ERR: flush it */
	SOFTRDMA_QP_ERR_MAX,
};

bool softrdma_qp_err_event(enum softrdma_qp_err_cause cause,
			   enum ib_event_type *event);

u64 softrdma_qp_timeout_us(u8 timeout);
u32 softrdma_rnr_timer_us(u8 code);

#endif /* SOFTRDMA_QP_STATE_H */
