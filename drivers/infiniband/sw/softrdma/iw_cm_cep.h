/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The iWARP connection endpoint (cep): one TCP connection, or one
 * listening socket, and the state machine that takes it from the TCP
 * handshake through the MPA exchange (RFC 5044, RFC 6581) to RDMA mode
 * and back down.  iw_cm.c drives it; this header is what its KUnit suite
 * reaches.
 */
#ifndef SOFTRDMA_IW_CM_CEP_H
#define SOFTRDMA_IW_CM_CEP_H

#include <linux/types.h>

/*
 * The states of an endpoint.  Each has one step function in iw_cm.c that
 * looks at what happened (socket readable or closed, timeout, abort) and
 * returns the next state.
 */
enum softrdma_iw_cep_state {
	SOFTRDMA_IW_CEP_IDLE,		/* allocated, no socket yet */
	SOFTRDMA_IW_CEP_LISTENING,	/* listening socket: accept children */
	SOFTRDMA_IW_CEP_QUEUED,		/* active: an earlier connect to the
					 * same peer is in its handshake
					 */
	SOFTRDMA_IW_CEP_CONNECTING,	/* active: TCP handshake in flight */
	SOFTRDMA_IW_CEP_AWAIT_MPA_REP,	/* active: MPA request sent */
	SOFTRDMA_IW_CEP_AWAIT_MPA_REQ,	/* passive: accepted, no request yet */
	SOFTRDMA_IW_CEP_RECVD_MPA_REQ,	/* passive: CONNECT_REQUEST delivered,
					 * waiting for accept or reject
					 */
	SOFTRDMA_IW_CEP_AWAIT_RTR,	/* passive: reply sent, waiting for the
					 * initiator's RTR (RFC 6581 section 5)
					 */
	SOFTRDMA_IW_CEP_RDMA_MODE,	/* the data path owns the socket */
	SOFTRDMA_IW_CEP_CLOSING,	/* we asked the data path to close */
	SOFTRDMA_IW_CEP_CLOSED,		/* no socket; final */
	SOFTRDMA_IW_CEP_NR_STATES
};

const char *softrdma_iw_cep_state_name(enum softrdma_iw_cep_state state);
bool softrdma_iw_cep_may_move(enum softrdma_iw_cep_state from,
			      enum softrdma_iw_cep_state to);
bool softrdma_iw_cep_has_step(enum softrdma_iw_cep_state state);

int softrdma_iw_cm_reply_status(int err);

struct ib_qp;
struct sockaddr;
struct task_struct;
bool softrdma_iw_same_peer(const struct sockaddr *a, const struct sockaddr *b);
bool softrdma_iw_qp_caller_owns(const struct ib_qp *carried,
				const struct ib_qp *qp,
				struct task_struct *owner,
				struct task_struct *caller);

#endif /* SOFTRDMA_IW_CM_CEP_H */
