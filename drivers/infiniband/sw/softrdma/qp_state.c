// SPDX-License-Identifier: GPL-2.0-only
/*
 * The IBA queue pair state machine as data.
 */
#include <linux/bits.h>
#include <linux/kernel.h>

#include "compat.h"
#include "qp_state.h"

static const char * const qp_state_names[] = {
	[IB_QPS_RESET] = "RESET",
	[IB_QPS_INIT] = "INIT",
	[IB_QPS_RTR] = "RTR",
	[IB_QPS_RTS] = "RTS",
	[IB_QPS_SQD] = "SQD",
	[IB_QPS_SQE] = "SQE",
	[IB_QPS_ERR] = "ERR",
};

const char *softrdma_qp_state_name(enum ib_qp_state state)
{
	if ((unsigned int)state >= ARRAY_SIZE(qp_state_names))
		return "?";
	return qp_state_names[state];
}

/**
 * softrdma_qp_current_state() - the state a modify_qp starts from
 * @actual: the state the QP is in
 * @attr: the caller's attributes
 * @mask: the modify_qp attribute mask
 * @cur: set to @actual
 *
 * IB_QP_CUR_STATE lets a caller say which state it believes the QP is in
 * (IBA 11.2.5.2, "current QP state"), but the belief decides nothing: a
 * QP moves from where it is.  A claim that differs from @actual makes the
 * request invalid, so that no caller can take a transition the QP's real
 * state does not allow (RESET straight to RTS without a path MTU, ERR
 * back to RTS without passing through RESET).
 *
 * Return: 0, or -EINVAL when the claimed state is not the real one.
 */
int softrdma_qp_current_state(enum ib_qp_state actual,
			      const struct ib_qp_attr *attr, int mask,
			      enum ib_qp_state *cur)
{
	*cur = actual;
	if ((mask & IB_QP_CUR_STATE) && attr->cur_qp_state != actual)
		return -EINVAL;
	return 0;
}

/**
 * softrdma_qp_transition() - may a QP go from @cur to @next, and what then?
 * @cur: the state the QP is in
 * @next: the state asked for (equal to @cur when IB_QP_STATE is not set)
 * @type: QP type
 * @mask: the modify_qp attribute mask
 * @actions: set to the SOFTRDMA_QP_ACT_* the transition requires
 *
 * The required and allowed attributes per transition are the RDMA core's
 * (ib_modify_qp_is_ok(), IBA table 91 onwards); this adds what each
 * transition means for the QP's engines.  Any state may go to RESET or
 * ERR (IBA 10.3.1).
 *
 * Return: 0, or -EINVAL for a transition or mask the IBA does not allow.
 */
int softrdma_qp_transition(enum ib_qp_state cur, enum ib_qp_state next,
			   enum ib_qp_type type, int mask,
			   unsigned int *actions)
{
	*actions = 0;

	if (!ib_modify_qp_is_ok(cur, next, type, mask))
		return -EINVAL;

	if (!(mask & IB_QP_STATE) || cur == next) {
		/*
		 * Attribute change only (e.g. RTS -> RTS); in ERR it flushes
		 * again what was posted since (softrdma_modify_qp()).
		 */
		if (cur == IB_QPS_ERR)
			*actions = SOFTRDMA_QP_ACT_FLUSH;
		return 0;
	}

	switch (next) {
	case IB_QPS_RESET:
		*actions = SOFTRDMA_QP_ACT_RESET;
		break;
	case IB_QPS_INIT:
		break;
	case IB_QPS_RTR:
		*actions = SOFTRDMA_QP_ACT_RECV;
		break;
	case IB_QPS_RTS:
		*actions = cur == IB_QPS_SQD ? SOFTRDMA_QP_ACT_RESUME :
					       SOFTRDMA_QP_ACT_SEND;
		break;
	case IB_QPS_SQD:
		*actions = SOFTRDMA_QP_ACT_DRAIN;
		break;
	case IB_QPS_SQE:
		/* only the QP itself enters SQE, on a send error (UD/UC) */
		break;
	case IB_QPS_ERR:
		*actions = SOFTRDMA_QP_ACT_FLUSH;
		break;
	}
	return 0;
}

/**
 * softrdma_qp_send_verdict() - may send work be posted in @state?
 * @state: the QP's state, read once by post_send
 * @connected: the transport binds QPs to a connection (iWARP)
 *
 * Before RTS a send is an immediate error (IBA 10.3.1: -EINVAL; an iWARP
 * QP answers -ENOTCONN before its connection, as stock siw).  In ERR it
 * is queued and flushed.  An iWARP QP in SQD, the RDMAC Closing state, is
 * on its way to ERR (softrdma_iwarp_qp_drain()) and starts no new work:
 * what is posted there is flushed too, behind what is still in flight,
 * so that a kernel consumer racing its own disconnect (ib_srpt posts
 * RDMA READs until it has moved the QP to ERR) gets the flush completion
 * it handles rather than a failed post it does not.  An IB QP in SQD or
 * SQE queues work for its requester, which decides what runs.
 *
 * Return: a &enum softrdma_post_verdict, or -EINVAL / -ENOTCONN.
 */
int softrdma_qp_send_verdict(enum ib_qp_state state, bool connected)
{
	if (state == IB_QPS_ERR)
		return SOFTRDMA_POST_FLUSH;
	if (connected) {
		if (state == IB_QPS_RTS)
			return SOFTRDMA_POST_RUN;
		if (state == IB_QPS_SQD)
			return SOFTRDMA_POST_FLUSH;
		return -ENOTCONN;
	}
	if (state < IB_QPS_RTS || state > IB_QPS_ERR)
		return -EINVAL;
	return SOFTRDMA_POST_RUN;
}

/**
 * softrdma_qp_check_attr() - are the attribute values in @mask acceptable?
 * @attr: the attributes
 * @mask: which of them are being set
 * @limits: this QP's port and device limits
 *
 * Return: 0, or -EINVAL naming nothing: the values IBA allows are small
 * and the caller's log says which verb failed.
 */
int softrdma_qp_check_attr(const struct ib_qp_attr *attr, int mask,
			   const struct softrdma_qp_limits *limits)
{
	if ((mask & IB_QP_PORT) && attr->port_num != 1)
		return -EINVAL;
	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index != 0)
		return -EINVAL;
	if ((mask & IB_QP_PATH_MTU) &&
	    (attr->path_mtu < IB_MTU_256 || attr->path_mtu > limits->max_path_mtu))
		return -EINVAL;
	/* 5-bit timeout, 3-bit retry counts, 5-bit RNR timer (IBA 9.7.5) */
	if ((mask & IB_QP_TIMEOUT) && attr->timeout > 31)
		return -EINVAL;
	if ((mask & IB_QP_RETRY_CNT) && attr->retry_cnt > 7)
		return -EINVAL;
	if ((mask & IB_QP_RNR_RETRY) && attr->rnr_retry > 7)
		return -EINVAL;
	if ((mask & IB_QP_MIN_RNR_TIMER) && attr->min_rnr_timer > 31)
		return -EINVAL;
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) &&
	    attr->max_rd_atomic > limits->max_rd_atomic)
		return -EINVAL;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic > limits->max_dest_rd_atomic)
		return -EINVAL;
	if ((mask & IB_QP_DEST_QPN) && attr->dest_qp_num > 0xffffff)
		return -EINVAL;
	if ((mask & IB_QP_ACCESS_FLAGS) &&
	    (attr->qp_access_flags & ~(IB_ACCESS_REMOTE_WRITE |
				       IB_ACCESS_REMOTE_READ |
				       IB_ACCESS_REMOTE_ATOMIC |
				       IB_ACCESS_LOCAL_WRITE |
				       SOFTRDMA_ACCESS_FLUSH_GLOBAL |
				       SOFTRDMA_ACCESS_FLUSH_PERSISTENT)))
		return -EINVAL;
	if ((mask & (IB_QP_ALT_PATH | IB_QP_PATH_MIG_STATE)))
		return -EOPNOTSUPP;	/* no automatic path migration */
	return 0;
}

/**
 * softrdma_qp_err_event() - the affiliated event a QP's own move to ERR
 * raises
 * @cause: why the QP enters ERR
 * @event: set to the event when there is one
 *
 * IBA vol 1 §11.6.3.1 defines the affiliated errors and the iWARP verbs
 * (RDMAC verbs §8.3.3) map onto the same three: a local catastrophic
 * error (QP_FATAL), an invalid inbound request (QP_REQ_ERR) and an
 * inbound access violation (QP_ACCESS_ERR).  A requester's error that
 * a completion in error reports (a NAK, retries exhausted: IBA 10.8.3.1)
 * raises none, as stock rxe.  The end of an iWARP stream in order (FIN,
 * the peer's TERMINATE or reset, rdma_disconnect()) is no QP error: the
 * connection manager reports it, and the QP only moves to ERR and
 * flushes.  Neither is a flush of work posted in ERR.
 *
 * Return: true and @event set when @cause raises an event.
 */
bool softrdma_qp_err_event(enum softrdma_qp_err_cause cause,
			   enum ib_event_type *event)
{
	static const struct {
		bool raise;
		enum ib_event_type event;
	} map[SOFTRDMA_QP_ERR_MAX] = {
		[SOFTRDMA_QP_ERR_LOCAL] = { true, IB_EVENT_QP_FATAL },
		[SOFTRDMA_QP_ERR_REQ] = { true, IB_EVENT_QP_REQ_ERR },
		[SOFTRDMA_QP_ERR_ACCESS] = { true, IB_EVENT_QP_ACCESS_ERR },
	};

	if (cause >= SOFTRDMA_QP_ERR_MAX || !map[cause].raise)
		return false;
	*event = map[cause].event;
	return true;
}

/**
 * softrdma_qp_timeout_us() - the local ACK timeout for an encoded value
 * @timeout: the QP attribute, 0..31
 *
 * IBA 9.7.6.1.3: 4.096 us * 2^timeout; 0 means wait forever, reported as 0.
 */
u64 softrdma_qp_timeout_us(u8 timeout)
{
	if (!timeout)
		return 0;
	/* 4096 ns * 2^t, in us, without losing the fraction at small t */
	return (4096ULL << min_t(u8, timeout, 31)) / 1000;
}

/**
 * softrdma_rnr_timer_us() - the RNR NAK timer for an encoded value
 * @code: min_rnr_timer or the AETH RNR timer field, 0..31
 *
 * IBA table 45: code 0 is 655.36 ms, codes 1..31 run from 0.01 ms to
 * 491.52 ms.
 */
u32 softrdma_rnr_timer_us(u8 code)
{
	static const u32 us[32] = {
		655360, 10, 20, 30, 40, 60, 80, 120,
		160, 240, 320, 480, 640, 960, 1280, 1920,
		2560, 3840, 5120, 7680, 10240, 15360, 20480, 30720,
		40960, 61440, 81920, 122880, 163840, 245760, 327680, 491520,
	};

	return us[code & 31];
}
