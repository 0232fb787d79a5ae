/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Per-port counters of a softrdma device, shown by "rdma statistic show
 * link DEV/1" (and /sys/class/infiniband/DEV/ports/1/hw_counters/).
 *
 * Every drop path in the transports increments one of these; protocol
 * events (retransmits, NAKs) have theirs too.  Adding a counter is one
 * line here and its name in counters.c's table.
 */
#ifndef SOFTRDMA_COUNTERS_H
#define SOFTRDMA_COUNTERS_H

#include <linux/percpu.h>
#include <linux/types.h>
#include <rdma/ib_verbs.h>

#include "device.h"

enum softrdma_counter {
	/* traffic: bytes are UDP payload, BTH to ICRC inclusive */
	SOFTRDMA_CNT_XMIT_PACKETS,
	SOFTRDMA_CNT_XMIT_BYTES,
	SOFTRDMA_CNT_RCV_PACKETS,
	SOFTRDMA_CNT_RCV_BYTES,
	/* receive drops, by reason */
	SOFTRDMA_CNT_RCV_BAD_UDP_LEN,
	SOFTRDMA_CNT_RCV_TRUNCATED,
	SOFTRDMA_CNT_RCV_ICRC_ERR,
	/* taken: a FLUSH request with stock rxe's ICRC (icrc.h) */
	SOFTRDMA_CNT_RCV_ICRC_RXE_FLUSH,
	SOFTRDMA_CNT_RCV_BAD_TVER,
	SOFTRDMA_CNT_RCV_BAD_OPCODE,
	SOFTRDMA_CNT_RCV_BAD_PKEY,
	SOFTRDMA_CNT_RCV_NO_QP,
	SOFTRDMA_CNT_RCV_NOMEM,
	/* page frags the host cannot read (device memory) */
	SOFTRDMA_CNT_RCV_UNREADABLE,
	/* connected QP: IP source not its peer, or destination not its own */
	SOFTRDMA_CNT_RCV_ADDR_MISMATCH,
	/* transmit outcomes other than success */
	SOFTRDMA_CNT_XMIT_DROP,
	SOFTRDMA_CNT_XMIT_NEIGH_PENDING,
	SOFTRDMA_CNT_XMIT_NO_ROUTE,
	SOFTRDMA_CNT_XMIT_ERR,
	SOFTRDMA_CNT_XMIT_NOMEM,
	SOFTRDMA_CNT_XMIT_NO_HEADROOM,	/* no room for UDP and IP headers */
	/* protocol engines */
	SOFTRDMA_CNT_RETRANSMITS,
	SOFTRDMA_CNT_ACK_TIMEOUTS,
	SOFTRDMA_CNT_RETRY_EXCEEDED,
	SOFTRDMA_CNT_RNR_NAKS_SENT,
	SOFTRDMA_CNT_RNR_NAKS_RCVD,
	SOFTRDMA_CNT_RNR_RETRY_EXCEEDED,
	SOFTRDMA_CNT_SEQ_NAKS_SENT,
	SOFTRDMA_CNT_SEQ_NAKS_RCVD,
	SOFTRDMA_CNT_DUPLICATE_REQUESTS,
	SOFTRDMA_CNT_OUT_OF_SEQUENCE,
	SOFTRDMA_CNT_RCV_QP_NOT_READY,
	SOFTRDMA_CNT_RCV_INVALID_REQUEST,
	SOFTRDMA_CNT_RCV_REMOTE_ACCESS_ERR,
	SOFTRDMA_CNT_RCV_STALE_RESPONSE,
	/* a response that does not fit the request at its PSN */
	SOFTRDMA_CNT_RCV_BAD_RESPONSE,
	SOFTRDMA_CNT_RCV_BACKLOG_DROP,
	SOFTRDMA_CNT_ACKS_COALESCED,	/* AckReqs a later ACK answered */
	SOFTRDMA_CNT_UC_DROPPED,	/* UC request packets dropped */
	/* iWARP: traffic, FPDUs and their bytes (MPA length to CRC) */
	SOFTRDMA_CNT_IW_XMIT_FPDUS,
	SOFTRDMA_CNT_IW_XMIT_BYTES,
	SOFTRDMA_CNT_IW_XMIT_ZCOPY_FPDUS,
	SOFTRDMA_CNT_IW_XMIT_SOFTIRQ_FPDUS,	/* Read Responses from rx */
	SOFTRDMA_CNT_IW_RCV_FPDUS,
	SOFTRDMA_CNT_IW_RCV_BYTES,
	/* iWARP transmit: socket full (resumed on write space), failures */
	SOFTRDMA_CNT_IW_XMIT_WAIT,
	SOFTRDMA_CNT_IW_XMIT_ACK_WAIT,	/* completions held for TCP's ACK */
	SOFTRDMA_CNT_IW_XMIT_ERR,
	SOFTRDMA_CNT_IW_LOCAL_ERR,
	/* iWARP receive errors, each ending in a TERMINATE */
	SOFTRDMA_CNT_IW_RCV_CRC_ERR,
	SOFTRDMA_CNT_IW_RCV_BAD_HDR,
	SOFTRDMA_CNT_IW_RCV_NO_RQE,
	SOFTRDMA_CNT_IW_RCV_UNTAGGED_ERR,
	SOFTRDMA_CNT_IW_RCV_PROT_ERR,
	SOFTRDMA_CNT_IW_RCV_IRD_EXCEEDED,
	SOFTRDMA_CNT_IW_RCV_UNEXPECTED,
	SOFTRDMA_CNT_IW_RCV_LOCAL_ERR,
	/* bytes received after an error or outside RTS, dropped */
	SOFTRDMA_CNT_IW_RCV_DISCARD_BYTES,
	/* iWARP connection ends */
	SOFTRDMA_CNT_IW_TERM_SENT,
	SOFTRDMA_CNT_IW_TERM_UNSENT,
	SOFTRDMA_CNT_IW_TERM_RCVD,
	SOFTRDMA_CNT_IW_PEER_CLOSED,
	SOFTRDMA_CNT_IW_PEER_RESET,

	/* UD and GSI receive drops (ud_recv.c) */
	SOFTRDMA_CNT_RCV_BAD_QKEY,
	SOFTRDMA_CNT_RCV_NO_RECV_WQE,
	SOFTRDMA_CNT_RCV_UD_TOO_LONG,

	/* fast-registration MRs (kernel consumers), memory windows (users) */
	SOFTRDMA_CNT_MR_FAST_REG,	/* REG_MR executed */
	SOFTRDMA_CNT_MR_LOCAL_INV,	/* LOCAL_INV, READ with invalidate */
	SOFTRDMA_CNT_MR_REMOTE_INV,	/* Send with Invalidate received */
	SOFTRDMA_CNT_MR_OP_ERR,		/* a local one failed */
	SOFTRDMA_CNT_MW_BIND,		/* memory window bound */
	SOFTRDMA_NUM_COUNTERS
};

struct softrdma_counters {
	u64 val[SOFTRDMA_NUM_COUNTERS];
};

/*
 * Counting is per CPU: packets of one port are counted on whichever CPU
 * handles them, without a shared cache line.  this_cpu_add() is safe in
 * any context, so callers need not disable preemption or BHs.
 */
static inline void softrdma_counter_add(struct softrdma_dev *sdev,
					enum softrdma_counter cnt, u64 n)
{
	this_cpu_add(sdev->counters->val[cnt], n);
}

static inline void softrdma_counter_inc(struct softrdma_dev *sdev,
					enum softrdma_counter cnt)
{
	softrdma_counter_add(sdev, cnt, 1);
}

int softrdma_counters_alloc(struct softrdma_dev *sdev);
void softrdma_counters_free(struct softrdma_dev *sdev);
u64 softrdma_counter_read(const struct softrdma_dev *sdev,
			  enum softrdma_counter cnt);
const char *softrdma_counter_name(enum softrdma_counter cnt);

struct rdma_hw_stats *softrdma_alloc_hw_port_stats(struct ib_device *ibdev,
						   u32 port_num);
int softrdma_get_hw_stats(struct ib_device *ibdev, struct rdma_hw_stats *stats,
			  u32 port_num, int index);

#endif /* SOFTRDMA_COUNTERS_H */
