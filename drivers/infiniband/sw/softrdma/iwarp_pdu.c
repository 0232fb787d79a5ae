// SPDX-License-Identifier: GPL-2.0-only
/*
 * DDP (RFC 5041) and RDMAP (RFC 5040) header codec and TERMINATE
 * messages.  API in iwarp_pdu.h; wire layout in iwarp_hdr.h.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "iwarp_pdu.h"

/* a TERMINATE's copy holds the largest header it may copy */
static_assert(sizeof(((struct softrdma_iwarp_term *)0)->copy) >=
	      sizeof(struct iwarp_read_req));

/* header bytes counted in the MPA ULPDU length: all but the length field */
#define SOFTRDMA_IWARP_ULPDU_HDR(type)	(sizeof(type) - IWARP_MPA_LEN_SIZE)

/* RFC 5040 4.2 (opcode table) and 5.1 (queue numbers) */
const struct softrdma_iwarp_op softrdma_iwarp_op_table[IWARP_OP_MAX + 1] = {
	[IWARP_OP_WRITE] = {
		.name = "RDMA_WRITE",
		.tagged = true,
		.payload = true,
		.hdr_len = sizeof(struct iwarp_tagged_hdr),
	},
	[IWARP_OP_READ_REQ] = {
		.name = "RDMA_READ_REQUEST",
		.qn = IWARP_QN_READ_REQ,
		.hdr_len = sizeof(struct iwarp_read_req),
	},
	[IWARP_OP_READ_RESP] = {
		.name = "RDMA_READ_RESPONSE",
		.tagged = true,
		.payload = true,
		.hdr_len = sizeof(struct iwarp_tagged_hdr),
	},
	[IWARP_OP_SEND] = {
		.name = "SEND",
		.payload = true,
		.qn = IWARP_QN_SEND,
		.hdr_len = sizeof(struct iwarp_untagged_hdr),
	},
	[IWARP_OP_SEND_INV] = {
		.name = "SEND_INVALIDATE",
		.payload = true,
		.inval = true,
		.qn = IWARP_QN_SEND,
		.hdr_len = sizeof(struct iwarp_untagged_hdr),
	},
	[IWARP_OP_SEND_SE] = {
		.name = "SEND_SE",
		.payload = true,
		.se = true,
		.qn = IWARP_QN_SEND,
		.hdr_len = sizeof(struct iwarp_untagged_hdr),
	},
	[IWARP_OP_SEND_SE_INV] = {
		.name = "SEND_SE_INVALIDATE",
		.payload = true,
		.se = true,
		.inval = true,
		.qn = IWARP_QN_SEND,
		.hdr_len = sizeof(struct iwarp_untagged_hdr),
	},
	[IWARP_OP_TERMINATE] = {
		.name = "TERMINATE",
		.qn = IWARP_QN_TERMINATE,
		.hdr_len = sizeof(struct iwarp_terminate_hdr),
	},
};

#define SOFTRDMA_IWERR(_err, _layer, _etype, _ecode, _ddp, _rdmap)	\
	[SOFTRDMA_IWERR_##_err] = {					\
		.name = #_err,						\
		.layer = IWARP_TERM_LAYER_##_layer,			\
		.etype = _etype,					\
		.ecode = _ecode,					\
		.copy_ddp = _ddp,					\
		.copy_rdmap = _rdmap,					\
	}

/*
 * The one table from a validation failure to its TERMINATE: RFC 5040 4.8
 * Figure 9 (RDMAP), RFC 5041 7.2 (DDP), RFC 5044 8 (MPA).  RFC 5040 7.1
 * and 4.8: the DDP header (and a Read Request's RDMAP header) of the
 * offending segment is copied when it was decoded; not after a version
 * error, whose layout is unknown, nor for an RDMAP Local Catastrophic or
 * an LLP error, which carry none (Figure 10).  Where the RFCs have no
 * specific code (a ULPDU too short for its headers, a Read Request with
 * payload, a single-segment message without L) the RDMAP "unspecified"
 * remote operation error is used.  A Send whose receive WQE fails on our
 * side (the WQE malformed, or its buffer refused: a local key that names
 * no MR of the QP's PD, or one too small or without local write) is
 * nothing the peer did wrong: a DDP Local Catastrophic error (RFC 5041
 * 7.2, IANA's RDDP registry 0x1/0x0/0x00), with the offending segment's
 * DDP header, as stock siw sends it.  A send WQE of ours that fails here
 * (a local key that names no MR of the PD, one too small or without the
 * right, an operation iWARP lacks, a local operation that fails, an RDMA
 * Read's local invalidate as its Read Response ends it) is an error found
 * while creating a message, or not directly associated with an incoming
 * one (RFC 5040 7.1, first case): a TERMINATE goes instead, an RDMAP
 * Local Catastrophic error (RFC 5040 4.8, IANA's 0x0/0x0/ALL: the type
 * has no error code, any value is accepted, 0 is sent) whose DDP and
 * RDMA header fields 7.1 sets to zero: M, D and R clear, none carried.
 */
static const struct softrdma_iwarp_err_info
softrdma_iwarp_errs[SOFTRDMA_IWERR_MAX] = {
	SOFTRDMA_IWERR(DDP_VERSION_T, DDP, IWARP_DDP_ETYPE_TAGGED,
		       IWARP_DDP_T_ECODE_VERSION, false, false),
	SOFTRDMA_IWERR(DDP_VERSION_U, DDP, IWARP_DDP_ETYPE_UNTAGGED,
		       IWARP_DDP_U_ECODE_VERSION, false, false),
	SOFTRDMA_IWERR(RDMAP_VERSION, RDMAP, IWARP_RDMAP_ETYPE_OPERATION,
		       IWARP_RDMAP_ECODE_VERSION, false, false),
	SOFTRDMA_IWERR(OPCODE, RDMAP, IWARP_RDMAP_ETYPE_OPERATION,
		       IWARP_RDMAP_ECODE_OPCODE, true, false),
	SOFTRDMA_IWERR(SHORT, RDMAP, IWARP_RDMAP_ETYPE_OPERATION,
		       IWARP_RDMAP_ECODE_UNSPECIFIED, false, false),
	SOFTRDMA_IWERR(QN, DDP, IWARP_DDP_ETYPE_UNTAGGED,
		       IWARP_DDP_U_ECODE_INV_QN, true, false),
	SOFTRDMA_IWERR(MO, DDP, IWARP_DDP_ETYPE_UNTAGGED,
		       IWARP_DDP_U_ECODE_INV_MO, true, false),
	SOFTRDMA_IWERR(NOT_LAST, RDMAP, IWARP_RDMAP_ETYPE_OPERATION,
		       IWARP_RDMAP_ECODE_UNSPECIFIED, true, false),
	SOFTRDMA_IWERR(TO_WRAP, DDP, IWARP_DDP_ETYPE_TAGGED,
		       IWARP_DDP_T_ECODE_TO_WRAP, true, false),
	SOFTRDMA_IWERR(RREQ_PAYLOAD, RDMAP, IWARP_RDMAP_ETYPE_OPERATION,
		       IWARP_RDMAP_ECODE_UNSPECIFIED, true, true),
	SOFTRDMA_IWERR(RREQ_TO_WRAP, RDMAP, IWARP_RDMAP_ETYPE_PROTECTION,
		       IWARP_RDMAP_ECODE_TO_WRAP, true, true),
	SOFTRDMA_IWERR(TERM_LEN, RDMAP, IWARP_RDMAP_ETYPE_OPERATION,
		       IWARP_RDMAP_ECODE_UNSPECIFIED, false, false),
	SOFTRDMA_IWERR(T_INV_STAG, DDP, IWARP_DDP_ETYPE_TAGGED,
		       IWARP_DDP_T_ECODE_INV_STAG, true, false),
	SOFTRDMA_IWERR(T_BOUNDS, DDP, IWARP_DDP_ETYPE_TAGGED,
		       IWARP_DDP_T_ECODE_BOUNDS, true, false),
	SOFTRDMA_IWERR(T_STAG_STREAM, DDP, IWARP_DDP_ETYPE_TAGGED,
		       IWARP_DDP_T_ECODE_STAG_STREAM, true, false),
	SOFTRDMA_IWERR(U_MSN_NOBUF, DDP, IWARP_DDP_ETYPE_UNTAGGED,
		       IWARP_DDP_U_ECODE_MSN_NOBUF, true, false),
	SOFTRDMA_IWERR(U_MSN_RANGE, DDP, IWARP_DDP_ETYPE_UNTAGGED,
		       IWARP_DDP_U_ECODE_MSN_RANGE, true, false),
	SOFTRDMA_IWERR(U_TOO_LONG, DDP, IWARP_DDP_ETYPE_UNTAGGED,
		       IWARP_DDP_U_ECODE_TOO_LONG, true, false),
	SOFTRDMA_IWERR(U_LOCAL, DDP, IWARP_DDP_ETYPE_CATASTROPHIC, 0x00,
		       true, false),
	SOFTRDMA_IWERR(RREQ_INV_STAG, RDMAP, IWARP_RDMAP_ETYPE_PROTECTION,
		       IWARP_RDMAP_ECODE_INV_STAG, true, true),
	SOFTRDMA_IWERR(RREQ_BOUNDS, RDMAP, IWARP_RDMAP_ETYPE_PROTECTION,
		       IWARP_RDMAP_ECODE_BOUNDS, true, true),
	SOFTRDMA_IWERR(RREQ_ACCESS, RDMAP, IWARP_RDMAP_ETYPE_PROTECTION,
		       IWARP_RDMAP_ECODE_ACCESS, true, true),
	SOFTRDMA_IWERR(RREQ_STAG_STREAM, RDMAP, IWARP_RDMAP_ETYPE_PROTECTION,
		       IWARP_RDMAP_ECODE_STAG_STREAM, true, true),
	SOFTRDMA_IWERR(INV_STAG, RDMAP, IWARP_RDMAP_ETYPE_OPERATION,
		       IWARP_RDMAP_ECODE_CANT_INV, true, false),
	SOFTRDMA_IWERR(IRD, RDMAP, IWARP_RDMAP_ETYPE_OPERATION,
		       IWARP_RDMAP_ECODE_CATA_STREAM, true, true),
	SOFTRDMA_IWERR(CRC, LLP, IWARP_LLP_ETYPE_MPA,
		       IWARP_LLP_ECODE_CRC, false, false),
	SOFTRDMA_IWERR(ULPDU_LEN, LLP, IWARP_LLP_ETYPE_MPA,
		       IWARP_LLP_ECODE_CATASTROPHIC, false, false),
	SOFTRDMA_IWERR(CATASTROPHIC, RDMAP, IWARP_RDMAP_ETYPE_CATASTROPHIC,
		       0, false, false),
	SOFTRDMA_IWERR(SQ_LOCAL, RDMAP, IWARP_RDMAP_ETYPE_CATASTROPHIC,
		       0, false, false),
};

const struct softrdma_iwarp_err_info *
softrdma_iwarp_err_info(enum softrdma_iwarp_err err)
{
	if (err <= SOFTRDMA_IWERR_INCOMPLETE || err >= SOFTRDMA_IWERR_MAX)
		return NULL;
	return &softrdma_iwarp_errs[err];
}

/**
 * softrdma_iwarp_err_cause() - what an error we found in the stream is
 * to the QP
 * @err: the validation failure we answer with a TERMINATE
 *
 * The iWARP verbs' affiliated errors (RDMAC verbs §8.3.3), as stock siw
 * raises them: a protection error (a tagged buffer's STag, bounds or
 * stream, a Read Request's source) is an access violation; any other
 * inbound RDMAP or DDP error is an invalid request; an MPA (LLP) error or
 * a catastrophic one is a local failure.  An affiliated error reports
 * only what no completion can (IBA 11.6.3.1, which the iWARP verbs
 * follow), so none is raised where a WQE completes in error saying what
 * failed (IBA 11.6.2) and the QP only enters ERR: a failure of our own
 * receive WQE (stock siw raises an access error), a Send longer than its
 * receive WQE, IB_WC_LOC_LEN_ERR (stock siw raises QP_FATAL), and a send
 * WQE of ours that cannot be sent (stock siw raises QP_FATAL).
 *
 * Return: the &enum softrdma_qp_err_cause for softrdma_qp_fail().
 */
enum softrdma_qp_err_cause softrdma_iwarp_err_cause(enum softrdma_iwarp_err err)
{
	const struct softrdma_iwarp_err_info *info = softrdma_iwarp_err_info(err);

	if (err == SOFTRDMA_IWERR_U_LOCAL || err == SOFTRDMA_IWERR_U_TOO_LONG ||
	    err == SOFTRDMA_IWERR_SQ_LOCAL)
		return SOFTRDMA_QP_ERR_WC;
	if (!info || info->layer == IWARP_TERM_LAYER_LLP)
		return SOFTRDMA_QP_ERR_LOCAL;
	if (info->layer == IWARP_TERM_LAYER_RDMAP) {
		if (info->etype == IWARP_RDMAP_ETYPE_CATASTROPHIC)
			return SOFTRDMA_QP_ERR_LOCAL;
		if (info->etype == IWARP_RDMAP_ETYPE_PROTECTION)
			return SOFTRDMA_QP_ERR_ACCESS;
		return SOFTRDMA_QP_ERR_REQ;
	}
	if (info->etype == IWARP_DDP_ETYPE_TAGGED &&
	    info->ecode != IWARP_DDP_T_ECODE_VERSION)
		return SOFTRDMA_QP_ERR_ACCESS;
	return SOFTRDMA_QP_ERR_REQ;
}

int softrdma_iwarp_build_tagged(struct iwarp_tagged_hdr *hdr, u8 opcode,
				bool last, u32 stag, u64 to,
				unsigned int payload_len)
{
	const struct softrdma_iwarp_op *op = softrdma_iwarp_op(opcode);
	unsigned int ulpdu = SOFTRDMA_IWARP_ULPDU_HDR(*hdr) + payload_len;

	if (!op || !op->tagged || ulpdu > IWARP_MPA_MAX_ULPDU)
		return -EINVAL;
	iwarp_set_ctrl(&hdr->ctrl, true, last, opcode);
	iwarp_set_mpa_len(&hdr->ctrl, ulpdu);
	hdr->stag = cpu_to_be32(stag);
	hdr->to = cpu_to_be64(to);
	return sizeof(*hdr);
}

static void softrdma_iwarp_fill_untagged(struct iwarp_untagged_hdr *hdr,
					 u8 opcode, bool last, u16 ulpdu,
					 u32 inval_stag, u32 qn, u32 msn,
					 u32 mo)
{
	iwarp_set_ctrl(&hdr->ctrl, false, last, opcode);
	iwarp_set_mpa_len(&hdr->ctrl, ulpdu);
	hdr->inval_stag = cpu_to_be32(inval_stag);
	hdr->qn = cpu_to_be32(qn);
	hdr->msn = cpu_to_be32(msn);
	hdr->mo = cpu_to_be32(mo);
}

int softrdma_iwarp_build_untagged(struct iwarp_untagged_hdr *hdr,
				  u8 opcode, bool last, u32 inval_stag,
				  u32 msn, u32 mo, unsigned int payload_len)
{
	const struct softrdma_iwarp_op *op = softrdma_iwarp_op(opcode);
	unsigned int ulpdu = SOFTRDMA_IWARP_ULPDU_HDR(*hdr) + payload_len;

	if (!op || op->tagged || op->qn != IWARP_QN_SEND ||
	    ulpdu > IWARP_MPA_MAX_ULPDU)
		return -EINVAL;
	/* RFC 5040 4.1: the field is reserved, zero, without Invalidate */
	if (!op->inval && inval_stag)
		return -EINVAL;
	softrdma_iwarp_fill_untagged(hdr, opcode, last, ulpdu, inval_stag,
				     IWARP_QN_SEND, msn, mo);
	return sizeof(*hdr);
}

int softrdma_iwarp_build_read_req(struct iwarp_read_req *hdr, u32 msn,
				  const struct softrdma_iwarp_rreq *rreq)
{
	/* RFC 5040 4.4: one segment on queue 1, no payload */
	softrdma_iwarp_fill_untagged(&hdr->hdr, IWARP_OP_READ_REQ, true,
				     SOFTRDMA_IWARP_ULPDU_HDR(*hdr), 0,
				     IWARP_QN_READ_REQ, msn, 0);
	hdr->sink_stag = cpu_to_be32(rreq->sink_stag);
	hdr->sink_to = cpu_to_be64(rreq->sink_to);
	hdr->size = cpu_to_be32(rreq->size);
	hdr->src_stag = cpu_to_be32(rreq->src_stag);
	hdr->src_to = cpu_to_be64(rreq->src_to);
	return sizeof(*hdr);
}

unsigned int softrdma_iwarp_hdr_len(const struct iwarp_ctrl *ctrl)
{
	const struct softrdma_iwarp_op *op;

	if (iwarp_ddp_version(ctrl) != IWARP_DDP_VERSION ||
	    iwarp_rdmap_version(ctrl) != IWARP_RDMAP_VERSION)
		return 0;
	op = softrdma_iwarp_op(iwarp_rdmap_opcode(ctrl));
	if (!op || op->tagged != iwarp_ddp_tagged(ctrl))
		return 0;
	return op->hdr_len;
}

/* bytes [start, start + len) wrap past 2^64 */
static bool softrdma_iwarp_wraps64(u64 start, u64 len)
{
	return len && start + (len - 1) < start;
}

static enum softrdma_iwarp_err
softrdma_iwarp_parse_untagged(const void *buf, const struct softrdma_iwarp_op *op,
			      struct softrdma_iwarp_pdu *pdu)
{
	const struct iwarp_untagged_hdr *hdr = buf;

	if (op->inval)
		pdu->inval_stag = be32_to_cpu(hdr->inval_stag);
	pdu->qn = be32_to_cpu(hdr->qn);
	pdu->msn = be32_to_cpu(hdr->msn);
	pdu->mo = be32_to_cpu(hdr->mo);

	/* RFC 5040 5.1: each untagged message kind has its own queue */
	if (pdu->qn != op->qn)
		return SOFTRDMA_IWERR_QN;
	/* the message may not reach past a 32-bit message offset */
	if (pdu->payload_len && pdu->mo + (pdu->payload_len - 1) < pdu->mo)
		return SOFTRDMA_IWERR_MO;

	switch (pdu->opcode) {
	case IWARP_OP_READ_REQ: {
		const struct iwarp_read_req *rr = buf;

		pdu->rreq.sink_stag = be32_to_cpu(rr->sink_stag);
		pdu->rreq.sink_to = be64_to_cpu(rr->sink_to);
		pdu->rreq.size = be32_to_cpu(rr->size);
		pdu->rreq.src_stag = be32_to_cpu(rr->src_stag);
		pdu->rreq.src_to = be64_to_cpu(rr->src_to);
		fallthrough;
	}
	case IWARP_OP_TERMINATE:
		/* RFC 5040 4.4, 4.8: a single DDP segment */
		if (pdu->mo)
			return SOFTRDMA_IWERR_MO;
		if (!pdu->last)
			return SOFTRDMA_IWERR_NOT_LAST;
		break;
	default:
		break;
	}

	if (pdu->opcode == IWARP_OP_READ_REQ) {
		if (pdu->payload_len)
			return SOFTRDMA_IWERR_RREQ_PAYLOAD;
		if (softrdma_iwarp_wraps64(pdu->rreq.sink_to, pdu->rreq.size) ||
		    softrdma_iwarp_wraps64(pdu->rreq.src_to, pdu->rreq.size))
			return SOFTRDMA_IWERR_RREQ_TO_WRAP;
	}
	/*
	 * RFC 5040 4.8: what follows a TERMINATE header is at most the
	 * segment length, a DDP header and a Read Request's RDMAP header.
	 * Which of them the M/D/R bits announce is not checked: stock siw
	 * sets R for Sends too.
	 */
	if (pdu->opcode == IWARP_OP_TERMINATE &&
	    pdu->payload_len > IWARP_TERM_COPY_MAX)
		return SOFTRDMA_IWERR_TERM_LEN;
	return SOFTRDMA_IWERR_NONE;
}

enum softrdma_iwarp_err softrdma_iwarp_parse(const void *buf, size_t avail,
					     struct softrdma_iwarp_pdu *pdu)
{
	const struct iwarp_ctrl *ctrl = buf;
	const struct softrdma_iwarp_op *op;

	memset(pdu, 0, sizeof(*pdu));
	if (avail < sizeof(*ctrl)) {
		pdu->hdr_len = sizeof(*ctrl);
		return SOFTRDMA_IWERR_INCOMPLETE;
	}
	pdu->ulpdu_len = iwarp_mpa_len(ctrl);
	pdu->tagged = iwarp_ddp_tagged(ctrl);
	pdu->last = iwarp_ddp_last(ctrl);
	pdu->opcode = iwarp_rdmap_opcode(ctrl);

	/* RFC 5041 7.2 names the error by the buffer model of the segment */
	if (iwarp_ddp_version(ctrl) != IWARP_DDP_VERSION)
		return pdu->tagged ? SOFTRDMA_IWERR_DDP_VERSION_T :
				     SOFTRDMA_IWERR_DDP_VERSION_U;
	if (iwarp_rdmap_version(ctrl) != IWARP_RDMAP_VERSION)
		return SOFTRDMA_IWERR_RDMAP_VERSION;
	op = softrdma_iwarp_op(pdu->opcode);
	if (!op || op->tagged != pdu->tagged)
		return SOFTRDMA_IWERR_OPCODE;
	pdu->se = op->se;

	/* before waiting for header bytes that may belong to the next FPDU */
	if (pdu->ulpdu_len + IWARP_MPA_LEN_SIZE < op->hdr_len)
		return SOFTRDMA_IWERR_SHORT;
	pdu->hdr_len = op->hdr_len;
	if (avail < op->hdr_len)
		return SOFTRDMA_IWERR_INCOMPLETE;
	pdu->payload_len = pdu->ulpdu_len + IWARP_MPA_LEN_SIZE - op->hdr_len;

	if (pdu->tagged) {
		const struct iwarp_tagged_hdr *hdr = buf;

		pdu->stag = be32_to_cpu(hdr->stag);
		pdu->to = be64_to_cpu(hdr->to);
		/* RFC 5041 7.2: Tagged Offset wrap */
		if (softrdma_iwarp_wraps64(pdu->to, pdu->payload_len))
			return SOFTRDMA_IWERR_TO_WRAP;
		return SOFTRDMA_IWERR_NONE;
	}
	return softrdma_iwarp_parse_untagged(buf, op, pdu);
}

int softrdma_iwarp_term_from_err(enum softrdma_iwarp_err err,
				 const void *fpdu, size_t avail,
				 struct softrdma_iwarp_term *term)
{
	const struct softrdma_iwarp_err_info *info;
	const struct iwarp_ctrl *ctrl = fpdu;
	unsigned int ddp_len;

	info = softrdma_iwarp_err_info(err);
	if (!info)
		return -EINVAL;
	memset(term, 0, sizeof(*term));
	term->layer = info->layer;
	term->etype = info->etype;
	term->ecode = info->ecode;
	if (!info->copy_ddp || !fpdu || avail < sizeof(*ctrl))
		return 0;

	/*
	 * The DDP Segment Length is the offending ULPDU's length, which is
	 * the MPA length field in front of the copied header: copy both.
	 */
	ddp_len = iwarp_ddp_tagged(ctrl) ? sizeof(struct iwarp_tagged_hdr) :
					   sizeof(struct iwarp_untagged_hdr);
	if (avail < ddp_len)
		return 0;
	if (info->copy_rdmap && !iwarp_ddp_tagged(ctrl) &&
	    iwarp_rdmap_opcode(ctrl) == IWARP_OP_READ_REQ &&
	    avail >= sizeof(struct iwarp_read_req)) {
		ddp_len = sizeof(struct iwarp_read_req);
		term->flag_r = true;
	}
	memcpy(term->copy, fpdu, ddp_len);
	term->copy_len = ddp_len;
	term->flag_m = true;
	term->flag_d = true;
	return 0;
}

/* the copy a TERMINATE carries for its M/D/R bits (RFC 5040 4.8) */
static bool softrdma_iwarp_term_copy_ok(const struct softrdma_iwarp_term *term)
{
	const struct iwarp_ctrl *ctrl = (const void *)term->copy;
	unsigned int want;

	if (term->copy_len > IWARP_TERM_COPY_MAX)
		return false;
	if (!term->flag_d)
		return !term->flag_r &&
		       term->copy_len == (term->flag_m ? IWARP_MPA_LEN_SIZE : 0);
	if (term->copy_len < sizeof(*ctrl))
		return false;
	if (iwarp_ddp_tagged(ctrl))
		want = term->flag_r ? 0 : sizeof(struct iwarp_tagged_hdr);
	else if (term->flag_r)
		want = sizeof(struct iwarp_read_req);
	else
		want = sizeof(struct iwarp_untagged_hdr);
	return want && term->copy_len == want;
}

int softrdma_iwarp_build_terminate(void *buf, size_t len, u32 msn,
				   const struct softrdma_iwarp_term *term)
{
	struct iwarp_terminate_hdr *t = buf;
	unsigned int total = sizeof(*t) + term->copy_len;
	u32 flags = 0;

	if (!softrdma_iwarp_term_copy_ok(term))
		return -EINVAL;
	if (len < total)
		return -ENOSPC;

	softrdma_iwarp_fill_untagged(&t->hdr, IWARP_OP_TERMINATE, true,
				     total - IWARP_MPA_LEN_SIZE, 0,
				     IWARP_QN_TERMINATE, msn, 0);
	if (term->flag_m)
		flags |= IWARP_TERM_FLAG_M;
	if (term->flag_d)
		flags |= IWARP_TERM_FLAG_D;
	if (term->flag_r)
		flags |= IWARP_TERM_FLAG_R;
	iwarp_term_set_info(t, term->layer, term->etype, term->ecode, flags);
	memcpy(t + 1, term->copy, term->copy_len);
	return total;
}

enum softrdma_iwarp_err
softrdma_iwarp_parse_terminate(const void *buf, size_t avail,
			       const struct softrdma_iwarp_pdu *pdu,
			       struct softrdma_iwarp_term *term)
{
	const struct iwarp_terminate_hdr *t = buf;

	memset(term, 0, sizeof(*term));
	if (pdu->opcode != IWARP_OP_TERMINATE ||
	    pdu->hdr_len != sizeof(*t) ||
	    pdu->payload_len > IWARP_TERM_COPY_MAX)
		return SOFTRDMA_IWERR_TERM_LEN;
	if (avail < (size_t)pdu->hdr_len + pdu->payload_len)
		return SOFTRDMA_IWERR_INCOMPLETE;

	term->layer = iwarp_term_layer(t);
	term->etype = iwarp_term_etype(t);
	term->ecode = iwarp_term_ecode(t);
	term->flag_m = iwarp_term_flag(t, IWARP_TERM_FLAG_M);
	term->flag_d = iwarp_term_flag(t, IWARP_TERM_FLAG_D);
	term->flag_r = iwarp_term_flag(t, IWARP_TERM_FLAG_R);
	memcpy(term->copy, t + 1, pdu->payload_len);
	term->copy_len = pdu->payload_len;
	return SOFTRDMA_IWERR_NONE;
}
