/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * DDP (RFC 5041) and RDMAP (RFC 5040) headers: build them for each RDMA
 * message, parse and validate the first bytes of a received FPDU, map
 * every validation failure to its TERMINATE layer/type/code, and build
 * and parse TERMINATE messages.
 *
 * Pure functions: no sockets, no memory registrations.  Buffers start at
 * the FPDU's MPA length field (see iwarp_hdr.h for why) and are read
 * through the header structs, so they must be 8-byte aligned: copy a
 * header out of an skb (skb_copy_bits()) into a local union of the
 * structs before parsing it.  Pad and CRC are mpa.h's business.
 */
#ifndef SOFTRDMA_IWARP_PDU_H
#define SOFTRDMA_IWARP_PDU_H

#include <linux/types.h>

#include "iwarp_hdr.h"
#include "qp_state.h"

/*
 * Per opcode (RFC 5040 4.2, 5.1): name, buffer model, queue number (for
 * untagged ones), header bytes from the MPA length field to the payload,
 * whether a payload may follow, whether Solicited Event / Invalidate
 * apply.  Indexed by enum iwarp_rdmap_opcode.
 */
struct softrdma_iwarp_op {
	const char *name;
	bool tagged;
	bool payload;
	bool se;
	bool inval;
	u8 qn;
	u8 hdr_len;
};

extern const struct softrdma_iwarp_op softrdma_iwarp_op_table[IWARP_OP_MAX + 1];

/* NULL for an opcode above IWARP_OP_MAX */
static inline const struct softrdma_iwarp_op *softrdma_iwarp_op(u8 opcode)
{
	if (opcode > IWARP_OP_MAX)
		return NULL;
	return &softrdma_iwarp_op_table[opcode];
}

/*
 * Why we end the stream with a TERMINATE: a received FPDU is bad, or (the
 * last two) a local failure.  Each value has one row in the TERMINATE
 * table (softrdma_iwarp_err_info()).
 */
enum softrdma_iwarp_err {
	SOFTRDMA_IWERR_NONE = 0,
	SOFTRDMA_IWERR_INCOMPLETE,	/* not a protocol error: read more */
	SOFTRDMA_IWERR_DDP_VERSION_T,	/* DDP version, tagged */
	SOFTRDMA_IWERR_DDP_VERSION_U,	/* DDP version, untagged */
	SOFTRDMA_IWERR_RDMAP_VERSION,
	SOFTRDMA_IWERR_OPCODE,		/* unknown, or wrong buffer model */
	SOFTRDMA_IWERR_SHORT,		/* ULPDU shorter than its headers */
	SOFTRDMA_IWERR_QN,		/* queue number not the opcode's */
	SOFTRDMA_IWERR_MO,		/* message offset not allowed */
	SOFTRDMA_IWERR_NOT_LAST,	/* single-segment message without L */
	SOFTRDMA_IWERR_TO_WRAP,		/* tagged: TO + length wraps */
	SOFTRDMA_IWERR_RREQ_PAYLOAD,	/* Read Request with payload */
	SOFTRDMA_IWERR_RREQ_TO_WRAP,	/* Read Request: TO + size wraps */
	SOFTRDMA_IWERR_TERM_LEN,	/* TERMINATE length vs its M/D/R */
	/* found by the data path, mapped here so the table is complete */
	SOFTRDMA_IWERR_T_INV_STAG,	/* tagged: no such STag */
	SOFTRDMA_IWERR_T_BOUNDS,	/* tagged: outside the buffer */
	SOFTRDMA_IWERR_T_STAG_STREAM,	/* tagged: STag of another stream */
	SOFTRDMA_IWERR_U_MSN_NOBUF,	/* untagged: no receive posted */
	SOFTRDMA_IWERR_U_MSN_RANGE,	/* untagged: MSN out of range */
	SOFTRDMA_IWERR_U_TOO_LONG,	/* untagged: longer than the buffer */
	SOFTRDMA_IWERR_U_LOCAL,		/* untagged: our receive WQE failed */
	SOFTRDMA_IWERR_RREQ_INV_STAG,	/* Read Request source STag */
	SOFTRDMA_IWERR_RREQ_BOUNDS,
	SOFTRDMA_IWERR_RREQ_ACCESS,
	SOFTRDMA_IWERR_RREQ_STAG_STREAM,
	SOFTRDMA_IWERR_INV_STAG,	/* Send with Invalidate: can't */
	SOFTRDMA_IWERR_IRD,		/* Read Request over our IRD */
	SOFTRDMA_IWERR_CRC,		/* MPA CRC mismatch */
	SOFTRDMA_IWERR_ULPDU_LEN,	/* MPA length over what we accept */
	SOFTRDMA_IWERR_CATASTROPHIC,	/* local failure, stream lost */
	SOFTRDMA_IWERR_SQ_LOCAL,	/* our send WQE failed, nothing sent */
	SOFTRDMA_IWERR_MAX,
};

/*
 * A TERMINATE's error fields for one enum softrdma_iwarp_err, and which
 * parts of the offending FPDU it carries (RFC 5040 4.8):
 * @copy_ddp:	M and D: the DDP Segment Length and the DDP header
 * @copy_rdmap:	R: also the Read Request's RDMAP header, when the
 *		offending message is a Read Request
 */
struct softrdma_iwarp_err_info {
	const char *name;
	u8 layer;
	u8 etype;
	u8 ecode;
	bool copy_ddp;
	bool copy_rdmap;
};

/* NULL for SOFTRDMA_IWERR_NONE, _INCOMPLETE and out-of-range values */
const struct softrdma_iwarp_err_info *
softrdma_iwarp_err_info(enum softrdma_iwarp_err err);

enum softrdma_qp_err_cause softrdma_iwarp_err_cause(enum softrdma_iwarp_err err);

/* --- building headers --------------------------------------------------- */

/*
 * softrdma_iwarp_build_tagged() - RDMA Write or Read Response header
 * @hdr:	where the header goes
 * @opcode:	IWARP_OP_WRITE or IWARP_OP_READ_RESP
 * @last:	last segment of the message
 * @stag, @to:	data sink STag and Tagged Offset of this segment
 * @payload_len: bytes of payload in this segment
 *
 * Sets the MPA length to the ULPDU length.
 * Return: sizeof(*hdr), or -EINVAL (opcode not tagged, ULPDU over 64K).
 */
int softrdma_iwarp_build_tagged(struct iwarp_tagged_hdr *hdr, u8 opcode,
				bool last, u32 stag, u64 to,
				unsigned int payload_len);

/*
 * softrdma_iwarp_build_untagged() - Send (any of the four) header
 * @opcode:	IWARP_OP_SEND, _SEND_INV, _SEND_SE, _SEND_SE_INV
 * @inval_stag:	for the _INV opcodes; must be 0 for the others
 * @msn, @mo:	Message Sequence Number and Message Offset (queue 0)
 *
 * Return: sizeof(*hdr), or -EINVAL.
 */
int softrdma_iwarp_build_untagged(struct iwarp_untagged_hdr *hdr,
				  u8 opcode, bool last, u32 inval_stag,
				  u32 msn, u32 mo, unsigned int payload_len);

/* RDMA Read Request fields (RFC 5040 4.4) */
struct softrdma_iwarp_rreq {
	u32 sink_stag;
	u64 sink_to;
	u32 size;
	u32 src_stag;
	u64 src_to;
};

/*
 * softrdma_iwarp_build_read_req() - RDMA Read Request (queue 1, one
 * segment, no payload)
 * Return: sizeof(*hdr).
 */
int softrdma_iwarp_build_read_req(struct iwarp_read_req *hdr, u32 msn,
				  const struct softrdma_iwarp_rreq *rreq);

/* --- parsing a received FPDU header ------------------------------------- */

/*
 * A received FPDU header, decoded.
 * @opcode, @tagged, @last, @se (Send with SE kinds)
 * @stag, @to:		tagged: data sink STag and Tagged Offset
 * @qn, @msn, @mo:	untagged: queue, MSN, message offset
 * @inval_stag:		Send with Invalidate kinds
 * @rreq:		Read Request fields
 * @ulpdu_len:		the MPA ULPDU length
 * @hdr_len:		bytes from the MPA length field to the payload
 * @payload_len:	payload bytes in this ULPDU
 */
struct softrdma_iwarp_pdu {
	u8 opcode;
	bool tagged;
	bool last;
	bool se;
	u32 stag;
	u64 to;
	u32 qn;
	u32 msn;
	u32 mo;
	u32 inval_stag;
	struct softrdma_iwarp_rreq rreq;
	u16 ulpdu_len;
	u16 hdr_len;
	u16 payload_len;
};

/*
 * softrdma_iwarp_hdr_len() - header bytes an FPDU needs, from its first
 * four bytes (MPA length, DDP and RDMAP control)
 * Return: the header length of the opcode, or 0 if the control bytes are
 * invalid (softrdma_iwarp_parse() then says why).
 */
unsigned int softrdma_iwarp_hdr_len(const struct iwarp_ctrl *ctrl);

/*
 * softrdma_iwarp_parse() - decode and validate an FPDU header
 * @buf:	the FPDU from its MPA length field
 * @avail:	bytes at @buf (at least the header; the payload need not be)
 * @pdu:	out
 *
 * Checks, in order: DDP version (RFC 5041 7.2), RDMAP version and opcode
 * (RFC 5040 7.2), buffer model against opcode, header within the ULPDU,
 * queue number, single-segment messages (Read Request, Terminate: L set,
 * MO 0), Read Request without payload, tagged TO + length and Read
 * Request TO + size without 64-bit wrap, TERMINATE length against its
 * M/D/R bits.  Reserved bits are ignored (RFC 5041 4.2).  STags are not
 * checked: any 32-bit value, 0 included, is well formed; whether it names
 * a memory region is the data path's lookup (softrdma never hands out
 * STag 0, so a lookup of 0 fails as SOFTRDMA_IWERR_*_INV_STAG).
 *
 * Return: SOFTRDMA_IWERR_NONE; _INCOMPLETE if @avail is short of the
 * header (@pdu->hdr_len then says how many bytes are needed, or 4 if not
 * even the control bytes are there); another value for a bad header,
 * with as much of @pdu filled in as was decoded.
 */
enum softrdma_iwarp_err softrdma_iwarp_parse(const void *buf, size_t avail,
					     struct softrdma_iwarp_pdu *pdu);

/* --- TERMINATE (RFC 5040 4.8) ------------------------------------------ */

/*
 * A TERMINATE's contents.
 * @layer, @etype, @ecode:	the error
 * @flag_m, @flag_d, @flag_r:	the header control bits
 * @copy:	DDP Segment Length, DDP header and RDMAP header, as on the
 *		wire (the DDP Segment Length first, big endian)
 * @copy_len:	bytes of @copy used
 */
struct softrdma_iwarp_term {
	u8 layer;
	u8 etype;
	u8 ecode;
	bool flag_m;
	bool flag_d;
	bool flag_r;
	u8 copy[IWARP_TERM_COPY_MAX];
	u8 copy_len;
};

/*
 * softrdma_iwarp_term_from_err() - the TERMINATE for an error
 * @err:	why (not _NONE or _INCOMPLETE)
 * @fpdu:	the offending FPDU from its MPA length field, or NULL
 * @avail:	bytes at @fpdu
 * @term:	out
 *
 * Copies the DDP header (and a Read Request's RDMAP header) when the
 * table row says so and @fpdu holds it whole; clears M/D/R otherwise.
 * The DDP Segment Length is the offending ULPDU's length (RFC 5041 2.3:
 * a DDP segment is its header and payload).
 * Return: 0, or -EINVAL for an @err without a row.
 */
int softrdma_iwarp_term_from_err(enum softrdma_iwarp_err err,
				 const void *fpdu, size_t avail,
				 struct softrdma_iwarp_term *term);

/*
 * softrdma_iwarp_build_terminate() - write a TERMINATE FPDU header
 * @buf, @len:	room from the MPA length field on
 * @msn:	the MSN of queue 2 (RFC 5041 5.1: the first is 1)
 * @term:	contents
 *
 * Writes the untagged header (queue 2, L set, MO 0), the error word and
 * @term->copy.  The MPA length field gets the ULPDU length.
 * Return: bytes written (2 + ULPDU length; pad and CRC follow), or
 * -ENOSPC, or -EINVAL if @term's flags and copy length disagree.
 */
int softrdma_iwarp_build_terminate(void *buf, size_t len, u32 msn,
				   const struct softrdma_iwarp_term *term);

/*
 * softrdma_iwarp_parse_terminate() - decode a TERMINATE's body
 * @buf:	the FPDU from its MPA length field
 * @avail:	bytes at @buf, the whole ULPDU
 * @pdu:	its header, parsed by softrdma_iwarp_parse() as a TERMINATE
 * @term:	out
 *
 * Return: SOFTRDMA_IWERR_NONE, _INCOMPLETE, or _TERM_LEN.
 */
enum softrdma_iwarp_err
softrdma_iwarp_parse_terminate(const void *buf, size_t avail,
			       const struct softrdma_iwarp_pdu *pdu,
			       struct softrdma_iwarp_term *term);

#endif /* SOFTRDMA_IWARP_PDU_H */
