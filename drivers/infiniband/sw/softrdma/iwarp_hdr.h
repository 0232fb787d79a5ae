/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * iWARP wire formats: MPA (RFC 5044, RFC 6581), DDP (RFC 5041) and RDMAP
 * (RFC 5040) as they travel on a TCP connection.
 *
 * A connection starts with one MPA request and one MPA reply (struct
 * iwarp_mpa_rr, followed by private data), then carries FPDUs only:
 *
 *	ULPDU length (2) | ULPDU | pad (0 - 3) | CRC32c (4)
 *
 * (RFC 5044 section 4), where the ULPDU is one DDP segment: a DDP header
 * (tagged or untagged, RFC 5041 section 4), whose first ULP byte is the
 * RDMAP control byte (RFC 5040 section 4.1), then the RDMAP header of
 * the message if it has one (Read Request, Terminate), then payload.
 *
 * The DDP header alone is 14 (tagged) or 18 (untagged) bytes and would
 * leave the 64-bit Tagged Offset misaligned; the two-byte ULPDU length in
 * front of it restores natural alignment.  So every FPDU header struct
 * below starts with the MPA length field (struct iwarp_ctrl) and the
 * ULPDU starts at offset 2 of it.  The same trick lays out a TERMINATE:
 * its copied "DDP Segment Length" field sits exactly where the copied
 * header's MPA length would be.
 *
 * MPA markers (RFC 5044 section 4.3) are described here but refused by
 * softrdma: a request with M set is rejected (mpa.h).
 *
 * Fields narrower than a byte, or sharing a word, are reached through the
 * accessors after each struct; nothing here is a C bitfield.
 */
#ifndef SOFTRDMA_IWARP_HDR_H
#define SOFTRDMA_IWARP_HDR_H

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <linux/types.h>
#include <asm/byteorder.h>

/* --- MPA request and reply frames (RFC 5044 section 7.1) ---------------- */

#define IWARP_MPA_KEY_SIZE		16
#define IWARP_MPA_KEY_REQ		"MPA ID Req Frame"
#define IWARP_MPA_KEY_REP		"MPA ID Rep Frame"

/* 7.1: revision 1; RFC 6581 section 5 adds revision 2 */
#define IWARP_MPA_REV1			1
#define IWARP_MPA_REV2			2

/* 7.1: "Private Data Length ... MUST NOT be larger than 512" */
#define IWARP_MPA_PRIV_MAX		512

/*
 * MPA request/reply frame header, RFC 5044 section 7.1:
 *
 *	0 - 15	Key: "MPA ID Req Frame" or "MPA ID Rep Frame"
 *	16	M (bit 7) | C (bit 6) | R (bit 5) | Res (bits 4:0)
 *	17	Rev
 *	18 - 19	PD_Length, private data bytes that follow
 *
 * M: the sender wants markers in the FPDUs it receives.  C: the sender
 * wants CRCs; RFC 5044 7.1: CRCs are used if either side sets C.  R: the
 * responder rejects the connection (reply only).
 *
 * Res: RFC 5044 7.1 says the Res bits are sent as zero and not checked by
 * the receiver.  The bits in use in practice:
 *  - 0x10: a revision 2 frame whose private data starts with the RFC 6581
 *    IRD/ORD block (struct iwarp_mpa_v2).  Set and tested this way by
 *    stock siw, cxgb4 and irdma.
 *  - 0x08: stock siw's experimental "GSO" bit, only with its try_gso
 *    module parameter; softrdma neither sets nor reads it.
 *  - 0x04 and 0x02: softrdma's larger-FPDU extension, below.
 *
 * softrdma larger-FPDU extension.  Between two softrdma ends an FPDU may
 * carry a ULPDU of up to IWARP_MPA_EXT_MAX_ULPDU bytes, not the MULPDU
 * that the TCP EMSS gives (RFC 5044 7.1's rule), which cuts per-FPDU
 * header and CRC work for large transfers.  Discovery:
 *  - an initiator that offers it sets IWARP_MPA_FLAG_EXT_OFFER (0x04) in
 *    its request;
 *  - a responder that accepts it (it is softrdma, it saw the offer, the
 *    extension is enabled) sets IWARP_MPA_FLAG_EXT_ACCEPT (0x02) in its
 *    reply, never the offer bit;
 *  - each end sends large FPDUs only if it saw the other's bit: the
 *    responder the offer, the initiator the accept.
 * Two bits, not one, because stock siw builds its reply from the request
 * it received and so echoes every Res bit of the request back (siw_cm.c,
 * siw_proc_mpareq() and siw_send_mpareqrep()): a single "I am softrdma"
 * bit would come back from siw and fool the initiator.  The accept bit is
 * never in a request, so an echo cannot produce it.  siw does not test
 * either bit (it tests only M, C, R, 0x10 and 0x08), nor does any
 * receiver that follows RFC 5044 7.1, so the offer is harmless to them.
 */
struct iwarp_mpa_rr {
	u8 key[IWARP_MPA_KEY_SIZE];
	u8 flags;
	u8 rev;
	__be16 pd_len;
};

static_assert(sizeof(struct iwarp_mpa_rr) == 20);

#define IWARP_MPA_FLAG_MARKERS		BIT(7)
#define IWARP_MPA_FLAG_CRC		BIT(6)
#define IWARP_MPA_FLAG_REJECT		BIT(5)
#define IWARP_MPA_FLAG_ENHANCED		BIT(4)
#define IWARP_MPA_FLAG_SIW_GSO		BIT(3)
#define IWARP_MPA_FLAG_EXT_OFFER	BIT(2)
#define IWARP_MPA_FLAG_EXT_ACCEPT	BIT(1)

/* the largest ULPDU either end may send once the extension is agreed */
#define IWARP_MPA_EXT_MAX_ULPDU		65532

static inline bool iwarp_mpa_rr_flag(const struct iwarp_mpa_rr *rr, u8 flag)
{
	return rr->flags & flag;
}

static inline void iwarp_mpa_rr_set_flag(struct iwarp_mpa_rr *rr, u8 flag,
					 bool on)
{
	if (on)
		rr->flags |= flag;
	else
		rr->flags &= ~flag;
}

static inline u8 iwarp_mpa_rr_rev(const struct iwarp_mpa_rr *rr)
{
	return rr->rev;
}

static inline u16 iwarp_mpa_rr_pd_len(const struct iwarp_mpa_rr *rr)
{
	return be16_to_cpu(rr->pd_len);
}

/*
 * RFC 6581 section 5: with revision 2 (and flag 0x10, above) the private
 * data starts with this block, counted in PD_Length and in the 512-byte
 * limit:
 *
 *	bit 15 of ird	A: peer-to-peer mode, an RTR message follows
 *	bit 14 of ird	B: zero-length FPDU (a zero-length Send) as RTR
 *	bits 13:0	IRD
 *	bit 15 of ord	C: zero-length RDMA Write as RTR
 *	bit 14 of ord	D: zero-length RDMA Read (Read Request) as RTR
 *	bits 13:0	ORD
 *
 * In a request the RTR bits say which RTR messages the initiator can
 * send; in a reply exactly one says which it must send (RFC 6581 4.2).
 */
struct iwarp_mpa_v2 {
	__be16 ird;
	__be16 ord;
};

static_assert(sizeof(struct iwarp_mpa_v2) == 4);

#define IWARP_MPA_V2_P2P		BIT(15)		/* in ird */
#define IWARP_MPA_V2_RTR_SEND		BIT(14)		/* in ird */
#define IWARP_MPA_V2_RTR_WRITE		BIT(15)		/* in ord */
#define IWARP_MPA_V2_RTR_READ		BIT(14)		/* in ord */
#define IWARP_MPA_V2_IRD_ORD_MASK	GENMASK(13, 0)
#define IWARP_MPA_V2_IRD_ORD_MAX	IWARP_MPA_V2_IRD_ORD_MASK

static inline u16 iwarp_mpa_v2_ird(const struct iwarp_mpa_v2 *v2)
{
	return be16_to_cpu(v2->ird) & IWARP_MPA_V2_IRD_ORD_MASK;
}

static inline u16 iwarp_mpa_v2_ord(const struct iwarp_mpa_v2 *v2)
{
	return be16_to_cpu(v2->ord) & IWARP_MPA_V2_IRD_ORD_MASK;
}

static inline bool iwarp_mpa_v2_ird_flag(const struct iwarp_mpa_v2 *v2,
					 u16 flag)
{
	return be16_to_cpu(v2->ird) & flag;
}

static inline bool iwarp_mpa_v2_ord_flag(const struct iwarp_mpa_v2 *v2,
					 u16 flag)
{
	return be16_to_cpu(v2->ord) & flag;
}

/* --- FPDU framing (RFC 5044 sections 4, 7.1) --------------------------- */

#define IWARP_MPA_LEN_SIZE		2	/* ULPDU Length field */
#define IWARP_MPA_CRC_SIZE		4	/* present even with CRC off */
#define IWARP_MPA_MAX_ULPDU		0xffff

/*
 * RFC 5044 section 4.3, 7.1: a marker sits at every 512th byte of the TCP
 * stream in FPDU mode and holds the distance back to the start of the
 * FPDU it falls into.  Refused by softrdma; here for tests and for the
 * arithmetic in mpa.h.
 */
#define IWARP_MPA_MARKER_SPACING	512
#define IWARP_MPA_MARKER_SIZE		4

struct iwarp_mpa_marker {
	__be16 rsvd;
	__be16 fpduptr;
};

static_assert(sizeof(struct iwarp_mpa_marker) == 4);

/* --- DDP and RDMAP control (RFC 5041 4.2-4.4, RFC 5040 4.1) ------------- */

/* RFC 5041 4.2, RFC 5040 4.1: the only versions defined */
#define IWARP_DDP_VERSION		1
#define IWARP_RDMAP_VERSION		1

/*
 * The first four bytes of every FPDU:
 *
 *	0 - 1	MPA ULPDU Length (RFC 5044 4.1)
 *	2	DDP control: T (bit 7) | L (bit 6) | Rsvd (5:2) | DV (1:0)
 *	3	RsvdULP, used by RDMAP as its control byte:
 *		RV (bits 7:6) | Rsvd (5:4) | Opcode (3:0)
 *
 * RFC 5041 4.2: T tagged buffer model, L last segment of a message.
 * Reserved bits are sent as zero and ignored on receive.
 */
struct iwarp_ctrl {
	__be16 mpa_len;
	u8 ddp;
	u8 rdmap;
};

static_assert(sizeof(struct iwarp_ctrl) == 4);

#define IWARP_DDP_TAGGED		BIT(7)
#define IWARP_DDP_LAST			BIT(6)
#define IWARP_DDP_RSVD			GENMASK(5, 2)
#define IWARP_DDP_DV			GENMASK(1, 0)
#define IWARP_RDMAP_RV_SHIFT		6
#define IWARP_RDMAP_RV			GENMASK(7, 6)
#define IWARP_RDMAP_RSVD		GENMASK(5, 4)
#define IWARP_RDMAP_OPCODE		GENMASK(3, 0)

/* RFC 5040 4.2 (table): the RDMA message opcodes */
enum iwarp_rdmap_opcode {
	IWARP_OP_WRITE			= 0,
	IWARP_OP_READ_REQ		= 1,
	IWARP_OP_READ_RESP		= 2,
	IWARP_OP_SEND			= 3,
	IWARP_OP_SEND_INV		= 4,
	IWARP_OP_SEND_SE		= 5,
	IWARP_OP_SEND_SE_INV		= 6,
	IWARP_OP_TERMINATE		= 7,
	IWARP_OP_MAX			= IWARP_OP_TERMINATE,
};

/* RFC 5040 5.1: the untagged queues RDMAP uses */
enum iwarp_ddp_qn {
	IWARP_QN_SEND			= 0,
	IWARP_QN_READ_REQ		= 1,
	IWARP_QN_TERMINATE		= 2,
};

static inline u16 iwarp_mpa_len(const struct iwarp_ctrl *c)
{
	return be16_to_cpu(c->mpa_len);
}

static inline void iwarp_set_mpa_len(struct iwarp_ctrl *c, u16 len)
{
	c->mpa_len = cpu_to_be16(len);
}

static inline bool iwarp_ddp_tagged(const struct iwarp_ctrl *c)
{
	return c->ddp & IWARP_DDP_TAGGED;
}

static inline bool iwarp_ddp_last(const struct iwarp_ctrl *c)
{
	return c->ddp & IWARP_DDP_LAST;
}

static inline u8 iwarp_ddp_version(const struct iwarp_ctrl *c)
{
	return c->ddp & IWARP_DDP_DV;
}

static inline u8 iwarp_rdmap_version(const struct iwarp_ctrl *c)
{
	return (c->rdmap & IWARP_RDMAP_RV) >> IWARP_RDMAP_RV_SHIFT;
}

static inline u8 iwarp_rdmap_opcode(const struct iwarp_ctrl *c)
{
	return c->rdmap & IWARP_RDMAP_OPCODE;
}

/* both control bytes at once; reserved bits zero (RFC 5041 4.2) */
static inline void iwarp_set_ctrl(struct iwarp_ctrl *c, bool tagged,
				  bool last, u8 opcode)
{
	c->ddp = (tagged ? IWARP_DDP_TAGGED : 0) |
		 (last ? IWARP_DDP_LAST : 0) |
		 (IWARP_DDP_VERSION & IWARP_DDP_DV);
	c->rdmap = (IWARP_RDMAP_VERSION << IWARP_RDMAP_RV_SHIFT) |
		   (opcode & IWARP_RDMAP_OPCODE);
}

/*
 * Tagged buffer DDP header, RFC 5041 4.3 (RDMA Write, Read Response):
 * STag and Tagged Offset of the data sink buffer.
 */
struct iwarp_tagged_hdr {
	struct iwarp_ctrl ctrl;
	__be32 stag;
	__be64 to;
};

static_assert(sizeof(struct iwarp_tagged_hdr) == 16);

/*
 * Untagged buffer DDP header, RFC 5041 4.4 (Sends, Read Request,
 * Terminate): the second to fifth RsvdULP bytes carry the STag to
 * invalidate for Send with Invalidate (RFC 5040 4.1), else zero; then
 * Queue Number, Message Sequence Number, Message Offset.
 */
struct iwarp_untagged_hdr {
	struct iwarp_ctrl ctrl;
	__be32 inval_stag;
	__be32 qn;
	__be32 msn;
	__be32 mo;
};

static_assert(sizeof(struct iwarp_untagged_hdr) == 20);

/*
 * RDMA Read Request, RFC 5040 4.4: untagged DDP header on queue 1, then
 * the Data Sink STag and Tagged Offset (the requester's buffer), the RDMA
 * Read Message Size, the Data Source STag and Tagged Offset.
 */
struct iwarp_read_req {
	struct iwarp_untagged_hdr hdr;
	__be32 sink_stag;
	__be64 sink_to;
	__be32 size;
	__be32 src_stag;
	__be64 src_to;
};

static_assert(sizeof(struct iwarp_read_req) == 48);
static_assert(offsetof(struct iwarp_read_req, sink_to) == 24);

/* the RDMAP part of a Read Request, as a TERMINATE copies it (4.8) */
#define IWARP_READ_REQ_RDMAP_SIZE \
	(sizeof(struct iwarp_read_req) - sizeof(struct iwarp_untagged_hdr))
static_assert(IWARP_READ_REQ_RDMAP_SIZE == 28);

/*
 * TERMINATE, RFC 5040 4.8: untagged DDP header on queue 2, then
 *
 *	bits 31:28	Layer
 *	bits 27:24	Error Type
 *	bits 23:16	Error Code
 *	bit 15		M: DDP Segment Length valid
 *	bit 14		D: the terminated DDP header follows
 *	bit 13		R: the terminated RDMAP header follows
 *	bits 12:0	reserved
 *
 * and, when M/D/R say so, the DDP Segment Length (2 bytes), the DDP
 * header of the offending segment (14 or 18 bytes) and the RDMAP header
 * of an offending Read Request (28 bytes).  The length and the DDP header
 * together have the layout of the FPDU header structs above.
 */
struct iwarp_terminate_hdr {
	struct iwarp_untagged_hdr hdr;
	__be32 info;
};

static_assert(sizeof(struct iwarp_terminate_hdr) == 24);

#define IWARP_TERM_LAYER		GENMASK(31, 28)
#define IWARP_TERM_ETYPE		GENMASK(27, 24)
#define IWARP_TERM_ECODE		GENMASK(23, 16)
#define IWARP_TERM_FLAG_M		BIT(15)
#define IWARP_TERM_FLAG_D		BIT(14)
#define IWARP_TERM_FLAG_R		BIT(13)
#define IWARP_TERM_RSVD			GENMASK(12, 0)

/*
 * The most a TERMINATE carries after its header: the DDP Segment Length
 * (2), an untagged DDP header (18) and a Read Request's RDMAP header (28),
 * which is the layout of struct iwarp_read_req.
 */
#define IWARP_TERM_COPY_MAX		sizeof(struct iwarp_read_req)
static_assert(IWARP_TERM_COPY_MAX == 48);

static inline u8 iwarp_term_layer(const struct iwarp_terminate_hdr *t)
{
	return (be32_to_cpu(t->info) & IWARP_TERM_LAYER) >> 28;
}

static inline u8 iwarp_term_etype(const struct iwarp_terminate_hdr *t)
{
	return (be32_to_cpu(t->info) & IWARP_TERM_ETYPE) >> 24;
}

static inline u8 iwarp_term_ecode(const struct iwarp_terminate_hdr *t)
{
	return (be32_to_cpu(t->info) & IWARP_TERM_ECODE) >> 16;
}

static inline bool iwarp_term_flag(const struct iwarp_terminate_hdr *t,
				   u32 flag)
{
	return be32_to_cpu(t->info) & flag;
}

static inline void iwarp_term_set_info(struct iwarp_terminate_hdr *t,
				       u8 layer, u8 etype, u8 ecode,
				       u32 flags)
{
	t->info = cpu_to_be32(((u32)(layer & 0xf) << 28) |
			      ((u32)(etype & 0xf) << 24) |
			      ((u32)ecode << 16) |
			      (flags & (IWARP_TERM_FLAG_M | IWARP_TERM_FLAG_D |
					IWARP_TERM_FLAG_R)));
}

/* --- TERMINATE error codes (RFC 5040 4.8, RFC 5041 7.2, RFC 5044 8) --- */

enum iwarp_term_layer {
	IWARP_TERM_LAYER_RDMAP		= 0x0,
	IWARP_TERM_LAYER_DDP		= 0x1,
	IWARP_TERM_LAYER_LLP		= 0x2,	/* MPA */
};

/* RFC 5040 4.8, Figure 9: RDMAP error types */
enum iwarp_rdmap_etype {
	IWARP_RDMAP_ETYPE_CATASTROPHIC	= 0x0,
	IWARP_RDMAP_ETYPE_PROTECTION	= 0x1,	/* remote protection */
	IWARP_RDMAP_ETYPE_OPERATION	= 0x2,	/* remote operation */
};

/*
 * RFC 5040 4.8, Figure 9: RDMAP error codes (0x09 under both remote
 * types; a Local Catastrophic error has none: any value is accepted)
 */
enum iwarp_rdmap_ecode {
	IWARP_RDMAP_ECODE_INV_STAG	= 0x00,
	IWARP_RDMAP_ECODE_BOUNDS	= 0x01,
	IWARP_RDMAP_ECODE_ACCESS	= 0x02,
	IWARP_RDMAP_ECODE_STAG_STREAM	= 0x03,	/* not of this stream */
	IWARP_RDMAP_ECODE_TO_WRAP	= 0x04,
	IWARP_RDMAP_ECODE_VERSION	= 0x05,
	IWARP_RDMAP_ECODE_OPCODE	= 0x06,	/* unexpected opcode */
	IWARP_RDMAP_ECODE_CATA_STREAM	= 0x07,
	IWARP_RDMAP_ECODE_CATA_GLOBAL	= 0x08,
	IWARP_RDMAP_ECODE_CANT_INV	= 0x09,	/* STag cannot be invalidated */
	IWARP_RDMAP_ECODE_UNSPECIFIED	= 0xff,
};

/* RFC 5041 7.2: DDP error types */
enum iwarp_ddp_etype {
	IWARP_DDP_ETYPE_CATASTROPHIC	= 0x0,
	IWARP_DDP_ETYPE_TAGGED		= 0x1,
	IWARP_DDP_ETYPE_UNTAGGED	= 0x2,
};

/* RFC 5041 7.2: DDP error codes, tagged buffer errors */
enum iwarp_ddp_tagged_ecode {
	IWARP_DDP_T_ECODE_INV_STAG	= 0x00,
	IWARP_DDP_T_ECODE_BOUNDS	= 0x01,
	IWARP_DDP_T_ECODE_STAG_STREAM	= 0x02,
	IWARP_DDP_T_ECODE_TO_WRAP	= 0x03,
	IWARP_DDP_T_ECODE_VERSION	= 0x04,
};

/* RFC 5041 7.2: DDP error codes, untagged buffer errors */
enum iwarp_ddp_untagged_ecode {
	IWARP_DDP_U_ECODE_INV_QN	= 0x01,
	IWARP_DDP_U_ECODE_MSN_NOBUF	= 0x02,	/* no buffer for the MSN */
	IWARP_DDP_U_ECODE_MSN_RANGE	= 0x03,
	IWARP_DDP_U_ECODE_INV_MO	= 0x04,
	IWARP_DDP_U_ECODE_TOO_LONG	= 0x05,	/* longer than the buffer */
	IWARP_DDP_U_ECODE_VERSION	= 0x06,
};

/* RFC 5044 8 and RFC 6581 6: LLP (MPA) errors, error type 0 */
enum iwarp_llp_ecode {
	IWARP_LLP_ECODE_STREAM_LOST	= 0x01,
	IWARP_LLP_ECODE_CRC		= 0x02,
	IWARP_LLP_ECODE_MARKER		= 0x03,	/* marker/length mismatch */
	IWARP_LLP_ECODE_INV_RR		= 0x04,	/* bad request/reply frame */
	IWARP_LLP_ECODE_CATASTROPHIC	= 0x05,
	IWARP_LLP_ECODE_IRD		= 0x06,	/* insufficient IRD */
	IWARP_LLP_ECODE_NO_RTR		= 0x07,	/* no matching RTR */
};

#define IWARP_LLP_ETYPE_MPA		0x0

#endif /* SOFTRDMA_IWARP_HDR_H */
