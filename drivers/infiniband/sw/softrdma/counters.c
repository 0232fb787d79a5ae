// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-port counters: per-CPU storage, and the RDMA core's hw_stats hooks
 * through which "rdma statistic" and sysfs hw_counters read them.
 */
#include <linux/percpu.h>
#include <rdma/ib_verbs.h>

#include "counters.h"
#include "device.h"

/*
 * The names users see, by enum softrdma_counter.  A new counter is its
 * enum entry and one line here; KUnit fails on a counter without a name.
 */
static const struct rdma_stat_desc softrdma_counter_descs[] = {
	/* traffic: bytes are UDP payload, BTH to ICRC inclusive */
	[SOFTRDMA_CNT_XMIT_PACKETS] = { .name = "port_xmit_packets" },
	[SOFTRDMA_CNT_XMIT_BYTES] = { .name = "port_xmit_bytes" },
	[SOFTRDMA_CNT_RCV_PACKETS] = { .name = "port_rcv_packets" },
	[SOFTRDMA_CNT_RCV_BYTES] = { .name = "port_rcv_bytes" },
	/* receive drops, by reason */
	[SOFTRDMA_CNT_RCV_BAD_UDP_LEN] = { .name = "rcv_bad_udp_len" },
	[SOFTRDMA_CNT_RCV_TRUNCATED] = { .name = "rcv_truncated" },
	[SOFTRDMA_CNT_RCV_ICRC_ERR] = { .name = "rcv_icrc_err" },
	[SOFTRDMA_CNT_RCV_ICRC_RXE_FLUSH] = { .name = "rcv_icrc_rxe_flush" },
	[SOFTRDMA_CNT_RCV_BAD_TVER] = { .name = "rcv_bad_tver" },
	[SOFTRDMA_CNT_RCV_BAD_OPCODE] = { .name = "rcv_bad_opcode" },
	[SOFTRDMA_CNT_RCV_BAD_PKEY] = { .name = "rcv_bad_pkey" },
	[SOFTRDMA_CNT_RCV_NO_QP] = { .name = "rcv_no_qp" },
	[SOFTRDMA_CNT_RCV_NOMEM] = { .name = "rcv_nomem" },
	[SOFTRDMA_CNT_RCV_UNREADABLE] = { .name = "rcv_unreadable" },
	[SOFTRDMA_CNT_RCV_ADDR_MISMATCH] = { .name = "rcv_addr_mismatch" },
	/* transmit outcomes other than success */
	[SOFTRDMA_CNT_XMIT_DROP] = { .name = "xmit_drop" },
	[SOFTRDMA_CNT_XMIT_NEIGH_PENDING] = { .name = "xmit_neigh_pending" },
	[SOFTRDMA_CNT_XMIT_NO_ROUTE] = { .name = "xmit_no_route" },
	[SOFTRDMA_CNT_XMIT_ERR] = { .name = "xmit_err" },
	[SOFTRDMA_CNT_XMIT_NOMEM] = { .name = "xmit_nomem" },
	[SOFTRDMA_CNT_XMIT_NO_HEADROOM] = { .name = "xmit_no_headroom" },
	/* protocol engines */
	[SOFTRDMA_CNT_RETRANSMITS] = { .name = "retransmits" },
	[SOFTRDMA_CNT_ACK_TIMEOUTS] = { .name = "ack_timeouts" },
	[SOFTRDMA_CNT_RETRY_EXCEEDED] = { .name = "retry_exceeded_err" },
	[SOFTRDMA_CNT_RNR_NAKS_SENT] = { .name = "rnr_naks_sent" },
	[SOFTRDMA_CNT_RNR_NAKS_RCVD] = { .name = "rnr_naks_rcvd" },
	[SOFTRDMA_CNT_RNR_RETRY_EXCEEDED] = { .name = "rnr_retry_exceeded_err" },
	[SOFTRDMA_CNT_SEQ_NAKS_SENT] = { .name = "seq_naks_sent" },
	[SOFTRDMA_CNT_SEQ_NAKS_RCVD] = { .name = "seq_naks_rcvd" },
	[SOFTRDMA_CNT_DUPLICATE_REQUESTS] = { .name = "duplicate_requests" },
	[SOFTRDMA_CNT_OUT_OF_SEQUENCE] = { .name = "out_of_sequence" },
	[SOFTRDMA_CNT_RCV_QP_NOT_READY] = { .name = "rcv_qp_not_ready" },
	[SOFTRDMA_CNT_RCV_INVALID_REQUEST] = { .name = "rcv_invalid_request" },
	[SOFTRDMA_CNT_RCV_REMOTE_ACCESS_ERR] = { .name = "rcv_remote_access_err" },
	[SOFTRDMA_CNT_RCV_STALE_RESPONSE] = { .name = "rcv_stale_response" },
	[SOFTRDMA_CNT_RCV_BAD_RESPONSE] = { .name = "rcv_bad_response" },
	[SOFTRDMA_CNT_RCV_BACKLOG_DROP] = { .name = "rcv_backlog_drop" },
	[SOFTRDMA_CNT_ACKS_COALESCED] = { .name = "acks_coalesced" },
	[SOFTRDMA_CNT_UC_DROPPED] = { .name = "uc_dropped" },
	/* iWARP: traffic, FPDUs and their bytes (MPA length to CRC) */
	[SOFTRDMA_CNT_IW_XMIT_FPDUS] = { .name = "iw_xmit_fpdus" },
	[SOFTRDMA_CNT_IW_XMIT_BYTES] = { .name = "iw_xmit_bytes" },
	[SOFTRDMA_CNT_IW_XMIT_ZCOPY_FPDUS] = { .name = "iw_xmit_zcopy_fpdus" },
	[SOFTRDMA_CNT_IW_XMIT_SOFTIRQ_FPDUS] = { .name = "iw_xmit_softirq_fpdus" },
	[SOFTRDMA_CNT_IW_RCV_FPDUS] = { .name = "iw_rcv_fpdus" },
	[SOFTRDMA_CNT_IW_RCV_BYTES] = { .name = "iw_rcv_bytes" },
	/* iWARP transmit: socket full (resumed on write space), failures */
	[SOFTRDMA_CNT_IW_XMIT_WAIT] = { .name = "iw_xmit_wait" },
	[SOFTRDMA_CNT_IW_XMIT_ACK_WAIT] = { .name = "iw_xmit_ack_wait" },
	[SOFTRDMA_CNT_IW_XMIT_ERR] = { .name = "iw_xmit_err" },
	[SOFTRDMA_CNT_IW_LOCAL_ERR] = { .name = "iw_local_err" },
	/* iWARP receive errors, each ending in a TERMINATE */
	[SOFTRDMA_CNT_IW_RCV_CRC_ERR] = { .name = "iw_rcv_crc_err" },
	[SOFTRDMA_CNT_IW_RCV_BAD_HDR] = { .name = "iw_rcv_bad_hdr" },
	[SOFTRDMA_CNT_IW_RCV_NO_RQE] = { .name = "iw_rcv_no_rqe" },
	[SOFTRDMA_CNT_IW_RCV_UNTAGGED_ERR] = { .name = "iw_rcv_untagged_err" },
	[SOFTRDMA_CNT_IW_RCV_PROT_ERR] = { .name = "iw_rcv_prot_err" },
	[SOFTRDMA_CNT_IW_RCV_IRD_EXCEEDED] = { .name = "iw_rcv_ird_exceeded" },
	[SOFTRDMA_CNT_IW_RCV_UNEXPECTED] = { .name = "iw_rcv_unexpected" },
	[SOFTRDMA_CNT_IW_RCV_LOCAL_ERR] = { .name = "iw_rcv_local_err" },
	/* bytes received after an error or outside RTS, dropped */
	[SOFTRDMA_CNT_IW_RCV_DISCARD_BYTES] = { .name = "iw_rcv_discard_bytes" },
	/* iWARP connection ends */
	[SOFTRDMA_CNT_IW_TERM_SENT] = { .name = "iw_term_sent" },
	[SOFTRDMA_CNT_IW_TERM_UNSENT] = { .name = "iw_term_unsent" },
	[SOFTRDMA_CNT_IW_TERM_RCVD] = { .name = "iw_term_rcvd" },
	[SOFTRDMA_CNT_IW_PEER_CLOSED] = { .name = "iw_peer_closed" },
	[SOFTRDMA_CNT_IW_PEER_RESET] = { .name = "iw_peer_reset" },

	/* UD and GSI receive drops */
	[SOFTRDMA_CNT_RCV_BAD_QKEY] = { .name = "rcv_bad_qkey" },
	[SOFTRDMA_CNT_RCV_NO_RECV_WQE] = { .name = "rcv_no_recv_wqe" },
	[SOFTRDMA_CNT_RCV_UD_TOO_LONG] = { .name = "rcv_ud_too_long" },

	/* memory operations (a failed remote one is a protection error) */
	[SOFTRDMA_CNT_MR_FAST_REG] = { .name = "mr_fast_reg" },
	[SOFTRDMA_CNT_MR_LOCAL_INV] = { .name = "mr_local_inv" },
	[SOFTRDMA_CNT_MR_REMOTE_INV] = { .name = "mr_remote_inv" },
	[SOFTRDMA_CNT_MR_OP_ERR] = { .name = "mr_op_err" },
	[SOFTRDMA_CNT_MW_BIND] = { .name = "mw_bind" },
};

static_assert(ARRAY_SIZE(softrdma_counter_descs) == SOFTRDMA_NUM_COUNTERS);

int softrdma_counters_alloc(struct softrdma_dev *sdev)
{
	sdev->counters = alloc_percpu(struct softrdma_counters);
	return sdev->counters ? 0 : -ENOMEM;
}

void softrdma_counters_free(struct softrdma_dev *sdev)
{
	free_percpu(sdev->counters);
	sdev->counters = NULL;
}

/*
 * The sum over all CPUs.  On 32-bit machines a concurrent increment may
 * tear one CPU's 64-bit value; counters are statistics, not state.
 */
u64 softrdma_counter_read(const struct softrdma_dev *sdev,
			  enum softrdma_counter cnt)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(sdev->counters, cpu)->val[cnt]);
	return sum;
}

const char *softrdma_counter_name(enum softrdma_counter cnt)
{
	if (cnt >= SOFTRDMA_NUM_COUNTERS)
		return NULL;
	return softrdma_counter_descs[cnt].name;
}

/* ib_device_ops.alloc_hw_port_stats: the core frees what this returns. */
struct rdma_hw_stats *softrdma_alloc_hw_port_stats(struct ib_device *ibdev,
						   u32 port_num)
{
	return rdma_alloc_hw_stats_struct(softrdma_counter_descs,
					  SOFTRDMA_NUM_COUNTERS,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

/*
 * ib_device_ops.get_hw_stats: refresh all values (the core holds
 * stats->lock) and return how many there are.
 */
int softrdma_get_hw_stats(struct ib_device *ibdev, struct rdma_hw_stats *stats,
			  u32 port_num, int index)
{
	struct softrdma_dev *sdev = to_sdev(ibdev);
	int i;

	if (port_num != 1)
		return -EINVAL;

	for (i = 0; i < SOFTRDMA_NUM_COUNTERS; i++)
		stats->value[i] = softrdma_counter_read(sdev, i);
	return SOFTRDMA_NUM_COUNTERS;
}
