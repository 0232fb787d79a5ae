/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * MPA (RFC 5044, RFC 6581): the request/reply exchange that starts an
 * iWARP connection, its negotiation, and the FPDU framing helpers (pad,
 * lengths, MULPDU, CRC32c, marker arithmetic).
 *
 * Everything here is pure: no sockets, no allocation, no locks.  The
 * connection manager (iw_cm.c) reads and writes the frames; the data path
 * frames FPDUs.  Wire layout and the softrdma larger-FPDU extension are
 * described in iwarp_hdr.h.  Frame buffers are read through struct
 * iwarp_mpa_rr and must be 2-byte aligned; the CRC functions take any
 * alignment.
 */
#ifndef SOFTRDMA_MPA_H
#define SOFTRDMA_MPA_H

#include <linux/crc32.h>
#include <linux/crc32c.h>
#include <linux/skbuff.h>
#include <linux/types.h>

#include "compat.h"
#include "iwarp_hdr.h"

/* RTR messages of RFC 6581 peer-to-peer mode, as a mask or one value */
#define SOFTRDMA_MPA_RTR_WRITE		BIT(0)	/* zero-length RDMA Write */
#define SOFTRDMA_MPA_RTR_READ		BIT(1)	/* zero-length RDMA Read */
#define SOFTRDMA_MPA_RTR_SEND		BIT(2)	/* zero-length Send */
#define SOFTRDMA_MPA_RTR_ALL		GENMASK(2, 0)

/*
 * One MPA request or reply, decoded.  Encoding takes the same struct.
 * @reply:	key "MPA ID Rep Frame" (else "... Req ...")
 * @rev:	1 or 2
 * @markers, @crc, @reject: the M, C and R flags
 * @enhanced:	revision 2 with the RFC 6581 IRD/ORD block (flag 0x10)
 * @ext_offer, @ext_accept: softrdma larger-FPDU extension bits
 * @ird, @ord:	RFC 6581 IRD and ORD (14 bits), if @enhanced
 * @p2p:	RFC 6581 peer-to-peer mode, if @enhanced
 * @rtr:	SOFTRDMA_MPA_RTR_* mask: offered (request) or chosen (reply)
 * @pd:		the ULP's private data (after the IRD/ORD block)
 * @pd_len:	its length; with @enhanced the frame's PD_Length is 4 more
 */
struct softrdma_mpa_info {
	bool reply;
	u8 rev;
	bool markers;
	bool crc;
	bool reject;
	bool enhanced;
	bool ext_offer;
	bool ext_accept;
	bool p2p;
	u8 rtr;
	u16 ird;
	u16 ord;
	const u8 *pd;
	u16 pd_len;
};

/* bytes of the whole frame (header, IRD/ORD block, private data) */
unsigned int softrdma_mpa_frame_len(const struct softrdma_mpa_info *info);

/*
 * softrdma_mpa_encode() - write a request or reply frame
 * Return: bytes written, -EINVAL for a bad @info (revision, IRD/ORD over
 * 14 bits, a request with R, private data over the limit), -ENOSPC if
 * @len is too small.
 */
int softrdma_mpa_encode(const struct softrdma_mpa_info *info, void *buf,
			size_t len);

/*
 * softrdma_mpa_parse_hdr() - check the fixed 20 bytes of a frame
 * @hdr:	the first sizeof(struct iwarp_mpa_rr) bytes received
 * @reply:	a reply is expected (else a request)
 * @pd_len:	out: PD_Length, the bytes still to read
 *
 * Lets the connection manager read a frame in two steps.  The errors are
 * those of softrdma_mpa_parse() that the header alone can show.
 */
int softrdma_mpa_parse_hdr(const struct iwarp_mpa_rr *hdr, bool reply,
			   u16 *pd_len);

/*
 * softrdma_mpa_parse() - decode a whole request or reply frame
 * @buf, @len:	the frame, header and private data
 * @reply:	a reply is expected (else a request)
 * @info:	out; @info->pd points into @buf
 *
 * Return: 0, or
 *  -EBADMSG	wrong key, frame shorter than 20 + PD_Length bytes or
 *		longer, R set in a request, revision 2 with the IRD/ORD flag
 *		but fewer than 4 bytes of private data, a reply choosing
 *		more than one RTR message
 *  -EPROTO	revision not 1 or 2
 *  -EMSGSIZE	PD_Length over 512
 *  -EOPNOTSUPP	M set: markers wanted, which softrdma refuses; @info is
 *		filled in anyway so that the CM can send a reject reply
 * (RFC 5044 7.1, RFC 6581 5).  A reply with R set parses as 0 with
 * @info->reject: the peer refused, its private data says why.
 */
int softrdma_mpa_parse(const void *buf, size_t len, bool reply,
		       struct softrdma_mpa_info *info);

/*
 * Our side of the negotiation.
 * @rev:		highest revision we speak (1 or 2)
 * @crc:		we want CRC32c (softrdma's default: yes)
 * @p2p:		initiator: ask for peer-to-peer mode; responder:
 *			accept it when asked
 * @rtr:		SOFTRDMA_MPA_RTR_* we can send (initiator) or
 *			receive (responder)
 * @ird, @ord:		what the ULP asked for (iw_cm_conn_param)
 * @max_ird, @max_ord:	the device's limits
 * @ext:		the softrdma larger-FPDU extension is enabled
 */
struct softrdma_mpa_local {
	u8 rev;
	bool crc;
	bool p2p;
	u8 rtr;
	u16 ird;
	u16 ord;
	u16 max_ird;
	u16 max_ord;
	bool ext;
};

/*
 * What both sides settled on.
 * @crc:	FPDUs carry a CRC32c (else the CRC field is zero)
 * @ird, @ord:	our IRD and ORD for the connection
 * @rtr:	0 (no RTR message), or the one SOFTRDMA_MPA_RTR_* the
 *		initiator sends and the responder waits for
 * @ext:	both ends agreed on the larger-FPDU extension
 */
struct softrdma_mpa_result {
	bool crc;
	u16 ird;
	u16 ord;
	u8 rtr;
	bool ext;
};

/*
 * softrdma_mpa_request_init() - the request an initiator sends
 * Private data is left empty (@req->pd, @req->pd_len: the caller's).
 */
void softrdma_mpa_request_init(const struct softrdma_mpa_local *local,
			       struct softrdma_mpa_info *req);

/*
 * softrdma_mpa_negotiate() - the responder's answer to a parsed request
 * @local:	our settings
 * @req:	the request, as softrdma_mpa_parse() returned it (0)
 * @rep:	out: the reply to send (private data empty, for the caller)
 * @res:	out: the connection parameters if the reply is accepted
 *
 * Rules: revision min(ours, theirs); CRC if either side wants it (RFC 5044
 * 7.1); IRD at least the peer's ORD if the device allows, ORD at most the
 * peer's IRD (RFC 6581 4.1); RTR: the first of Write, Read, Send that
 * both support, Read only if the IRD allows one (RFC 6581 4.2);
 * extension if the request offers it and @local->ext.
 *
 * Return: 0, or -EOPNOTSUPP if peer-to-peer mode was asked and no RTR
 * message suits both (LLP code 0x07): @rep is then a reject reply.
 */
int softrdma_mpa_negotiate(const struct softrdma_mpa_local *local,
			   const struct softrdma_mpa_info *req,
			   struct softrdma_mpa_info *rep,
			   struct softrdma_mpa_result *res);

/*
 * softrdma_mpa_check_reply() - the initiator's verdict on a parsed reply
 * @local:	our settings (those that built @req)
 * @req:	the request we sent
 * @rep:	the reply, as softrdma_mpa_parse() returned it (0)
 * @res:	out: the connection parameters
 *
 * Return: 0; -ECONNREFUSED if the reply rejects; -EPROTO if the reply
 * breaks the rules: CRC dropped when we asked for it, revision above
 * ours, IRD/ORD block missing or unasked-for, peer-to-peer or an RTR we
 * did not offer, or the peer's ORD above our IRD (LLP code 0x06).
 * Our ORD is lowered to the peer's IRD.
 */
int softrdma_mpa_check_reply(const struct softrdma_mpa_local *local,
			     const struct softrdma_mpa_info *req,
			     const struct softrdma_mpa_info *rep,
			     struct softrdma_mpa_result *res);

/* --- FPDU framing (RFC 5044 4.1, 4.2, 7.1) ----------------------------- */

/* pad bytes after a ULPDU of @ulpdu_len: the FPDU is a multiple of 4 */
static inline unsigned int softrdma_mpa_pad(unsigned int ulpdu_len)
{
	return (4 - ((IWARP_MPA_LEN_SIZE + ulpdu_len) & 3)) & 3;
}

/* the whole FPDU, length field to CRC, without markers */
static inline unsigned int softrdma_mpa_fpdu_len(unsigned int ulpdu_len)
{
	return IWARP_MPA_LEN_SIZE + ulpdu_len + softrdma_mpa_pad(ulpdu_len) +
	       IWARP_MPA_CRC_SIZE;
}

/*
 * RFC 5044 7.1: the largest ULPDU whose FPDU fits in one TCP segment of
 * @emss bytes, with or without markers; 0 if none fits.
 */
unsigned int softrdma_mpa_mulpdu(unsigned int emss, bool markers);

/*
 * The largest ULPDU to send: IWARP_MPA_EXT_MAX_ULPDU with the extension,
 * else the MULPDU of @emss without markers.
 */
unsigned int softrdma_mpa_max_ulpdu(const struct softrdma_mpa_result *res,
				    unsigned int emss);

/*
 * CRC32c (RFC 5044 4.2 and 7.1, the iSCSI CRC of RFC 3385) over an FPDU
 * from its length field to the end of its pad.  The value is the
 * conventional one (RFC 3720 B.4: 32 zero bytes give 0x8a9136aa) and goes
 * on the wire least significant byte first, as stock siw and hardware
 * send it: use softrdma_mpa_crc_put()/_get().
 *
 * Incremental use: state = softrdma_mpa_crc_init(); state =
 * softrdma_mpa_crc_update*(state, ...) for each piece in order;
 * value = softrdma_mpa_crc_final(state).
 */
struct softrdma_mpa_frag {
	struct page *page;
	unsigned int offset;	/* may exceed PAGE_SIZE within a compound page */
	unsigned int len;
};

static inline u32 softrdma_mpa_crc_init(void)
{
	return ~0U;
}

static inline u32 softrdma_mpa_crc_final(u32 state)
{
	return ~state;
}

/*
 * crc32c() reaches the fastest CRC32c the kernel has through the crypto
 * API: a descriptor and an indirect call per use, which on the few bytes
 * of a header, a pad or a 2-byte payload (several per FPDU) cost more
 * than the sum itself.  Below this length the CRC library's table-driven
 * CRC32c (softrdma_crc32c_lib()), the same function with the same state, is called
 * directly (inline: the small case is most calls).
 */
#define SOFTRDMA_MPA_CRC_SMALL	64

static inline u32 softrdma_mpa_crc32c(u32 state, const void *p,
				      unsigned int n)
{
	if (n < SOFTRDMA_MPA_CRC_SMALL)
		return n ? softrdma_crc32c_lib(state, p, n) : state;
	return crc32c(state, p, n);
}

u32 softrdma_mpa_crc_update_long(u32 state, const void *buf, size_t len);

static inline u32 softrdma_mpa_crc_update(u32 state, const void *buf,
					  size_t len)
{
	if (len <= UINT_MAX)
		return softrdma_mpa_crc32c(state, buf, len);
	return softrdma_mpa_crc_update_long(state, buf, len);
}

u32 softrdma_mpa_crc_update_frags(u32 state,
				  const struct softrdma_mpa_frag *frags,
				  unsigned int nr_frags);
/* @len bytes of @skb from @offset (linear part, frags, frag list) */
u32 softrdma_mpa_crc_update_skb(u32 state, const struct sk_buff *skb,
				unsigned int offset, unsigned int len);

u32 softrdma_mpa_crc_buf(const void *fpdu, size_t len);
u32 softrdma_mpa_crc_frags(const struct softrdma_mpa_frag *frags,
			   unsigned int nr_frags);

static inline void softrdma_mpa_crc_put(void *p, u32 crc)
{
	put_unaligned_le32(crc, p);
}

static inline u32 softrdma_mpa_crc_get(const void *p)
{
	return get_unaligned_le32(p);
}

/*
 * Marker arithmetic (RFC 5044 4.3), for tests and for explaining why a
 * stream with markers cannot be read here.  Offsets count bytes of the
 * TCP stream from the first byte of FPDU mode, markers included; a marker
 * occupies [k * 512, k * 512 + 4).
 */

/* offset of the first marker at or after @stream_off */
static inline u32 softrdma_mpa_marker_next(u32 stream_off)
{
	return round_up(stream_off, IWARP_MPA_MARKER_SPACING);
}

/* markers inside the @wire_len stream bytes starting at @stream_off */
unsigned int softrdma_mpa_markers_in(u32 stream_off, u32 wire_len);

/*
 * bytes an FPDU of @fpdu_len (softrdma_mpa_fpdu_len()) takes on a stream
 * with markers when it starts at @stream_off
 */
u32 softrdma_mpa_fpdu_wire_len(u32 stream_off, unsigned int fpdu_len);

#endif /* SOFTRDMA_MPA_H */
