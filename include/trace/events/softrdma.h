/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * softrdma tracepoints: packets in and out, drops, retransmissions and
 * QP state changes.  Quiet unless enabled:
 *	echo 1 > /sys/kernel/tracing/events/softrdma/enable
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM softrdma

#if !defined(_TRACE_SOFTRDMA_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SOFTRDMA_H

#include <linux/tracepoint.h>
#include <rdma/ib_verbs.h>

#include "compat.h"

#define softrdma_show_qp_state(state)				\
	__print_symbolic(state,					\
			 { IB_QPS_RESET, "RESET" },		\
			 { IB_QPS_INIT, "INIT" },		\
			 { IB_QPS_RTR, "RTR" },			\
			 { IB_QPS_RTS, "RTS" },			\
			 { IB_QPS_SQD, "SQD" },			\
			 { IB_QPS_SQE, "SQE" },			\
			 { IB_QPS_ERR, "ERR" })

/* One RoCEv2 packet: BTH fields and the bytes after the BTH */
DECLARE_EVENT_CLASS(softrdma_roce_pkt_class,
		    TP_PROTO(const struct ib_device *ibdev, u32 qpn, u8 opcode,
			     u32 psn, u32 len),
		    TP_ARGS(ibdev, qpn, opcode, psn, len),
		    TP_STRUCT__entry(__string(dev, dev_name(&ibdev->dev))
				     __field(u32, qpn)
				     __field(u32, psn)
				     __field(u32, len)
				     __field(u8, opcode)),
		    TP_fast_assign(softrdma_assign_str(dev, dev_name(&ibdev->dev));
				   __entry->qpn = qpn;
				   __entry->psn = psn;
				   __entry->len = len;
				   __entry->opcode = opcode;),
		    TP_printk("%s qpn=%#x opcode=%#x psn=%#x len=%u",
			      __get_str(dev), __entry->qpn, __entry->opcode,
			      __entry->psn, __entry->len));

/* A validated packet for a local QP (qpn: the destination, this QP) */
DEFINE_EVENT(softrdma_roce_pkt_class, softrdma_roce_rx,
	     TP_PROTO(const struct ib_device *ibdev, u32 qpn, u8 opcode,
		      u32 psn, u32 len),
	     TP_ARGS(ibdev, qpn, opcode, psn, len));

/* A packet about to be routed and sent (qpn: the peer's QP) */
DEFINE_EVENT(softrdma_roce_pkt_class, softrdma_roce_tx,
	     TP_PROTO(const struct ib_device *ibdev, u32 qpn, u8 opcode,
		      u32 psn, u32 len),
	     TP_ARGS(ibdev, qpn, opcode, psn, len));

/* A packet dropped; @reason is the counter it was counted in */
TRACE_EVENT(softrdma_drop,
	    TP_PROTO(const struct ib_device *ibdev, const char *reason),
	    TP_ARGS(ibdev, reason),
	    TP_STRUCT__entry(__string(dev, dev_name(&ibdev->dev))
			     __string(reason, reason)),
	    TP_fast_assign(softrdma_assign_str(dev, dev_name(&ibdev->dev));
			   softrdma_assign_str(reason, reason);),
	    TP_printk("%s %s", __get_str(dev), __get_str(reason)));

/* The requester goes back to @psn: why, and how many retries remain */
TRACE_EVENT(softrdma_rc_retransmit,
	    TP_PROTO(const struct ib_device *ibdev, u32 qpn, u32 psn,
		     const char *why, u8 retry_left),
	    TP_ARGS(ibdev, qpn, psn, why, retry_left),
	    TP_STRUCT__entry(__string(dev, dev_name(&ibdev->dev))
			     __string(why, why)
			     __field(u32, qpn)
			     __field(u32, psn)
			     __field(u8, retry_left)),
	    TP_fast_assign(softrdma_assign_str(dev, dev_name(&ibdev->dev));
			   softrdma_assign_str(why, why);
			   __entry->qpn = qpn;
			   __entry->psn = psn;
			   __entry->retry_left = retry_left;),
	    TP_printk("%s qpn=%#x from psn=%#x (%s) retries left=%u",
		      __get_str(dev), __entry->qpn, __entry->psn,
		      __get_str(why), __entry->retry_left));

/* A QP changed state, by a verb or by an error */
TRACE_EVENT(softrdma_qp_state,
	    TP_PROTO(const struct ib_device *ibdev, u32 qpn, int from, int to),
	    TP_ARGS(ibdev, qpn, from, to),
	    TP_STRUCT__entry(__string(dev, dev_name(&ibdev->dev))
			     __field(u32, qpn)
			     __field(int, from)
			     __field(int, to)),
	    TP_fast_assign(softrdma_assign_str(dev, dev_name(&ibdev->dev));
			   __entry->qpn = qpn;
			   __entry->from = from;
			   __entry->to = to;),
	    TP_printk("%s qpn=%#x %s -> %s", __get_str(dev), __entry->qpn,
		      softrdma_show_qp_state(__entry->from),
		      softrdma_show_qp_state(__entry->to)));

/*
 * A protocol engine of a QP (the RC requester or responder, the iWARP
 * transmit engine) changed state; @refused: its transition table does not
 * allow the move, and the engine stayed where it was
 */
TRACE_EVENT(softrdma_engine_move,
	    TP_PROTO(const struct ib_device *ibdev, u32 qpn, const char *engine,
		     const char *from, const char *to, bool refused),
	    TP_ARGS(ibdev, qpn, engine, from, to, refused),
	    TP_STRUCT__entry(__string(dev, dev_name(&ibdev->dev))
			     __string(engine, engine)
			     __string(from, from)
			     __string(to, to)
			     __field(u32, qpn)
			     __field(bool, refused)),
	    TP_fast_assign(softrdma_assign_str(dev, dev_name(&ibdev->dev));
			   softrdma_assign_str(engine, engine);
			   softrdma_assign_str(from, from);
			   softrdma_assign_str(to, to);
			   __entry->qpn = qpn;
			   __entry->refused = refused;),
	    TP_printk("%s qpn=%#x %s %s -> %s%s", __get_str(dev),
		      __entry->qpn, __get_str(engine), __get_str(from),
		      __get_str(to), __entry->refused ? " refused" : ""));

#endif /* _TRACE_SOFTRDMA_H */

#include <trace/define_trace.h>
