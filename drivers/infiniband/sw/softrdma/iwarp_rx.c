// SPDX-License-Identifier: GPL-2.0-only
/*
 * The iWARP receive engine.  sk_data_ready reads the TCP stream with
 * tcp_read_sock(); its actor feeds whatever bytes each skb holds to an
 * incremental FPDU parser (MPA length, DDP/RDMAP header, payload, pad,
 * CRC; any split of the stream into skbs), and places payload straight
 * from the skb into the target pages: one copy, no staging buffer.
 *
 *  - tagged (RDMA Write, Read Response; RFC 5041 4.3): the STag names an
 *    MR, checked for PD, bounds and rights (softrdma_mr_check()) when
 *    the segment's header arrives, before any byte lands, and looked up
 *    and checked again for each run of its payload: no MR reference is
 *    held while the stream waits for the peer's next bytes, so a peer
 *    that stops in the middle of a segment cannot hold up dereg_mr;
 *  - untagged queue 0 (the Sends; RFC 5041 4.4): into the receive WQE of
 *    the message, by MSN and MO; none posted is a TERMINATE (DDP, no
 *    buffer), as RFC 5040 5.5 has no RNR;
 *  - queue 1 (Read Request): checked and queued on the IRQ (at most IRD)
 *    for the transmit engine;
 *  - queue 2 (TERMINATE): the peer ends the stream, the QP goes to ERR.
 *
 * All of it runs with bottom halves off (softrdma_iw_rx_read()), so the
 * SQ and RQ locks, which the transmit side takes with spin_lock_bh(),
 * are taken here without.
 *
 * Each segment header carries where its payload goes, so segments of a
 * tagged and an untagged message may interleave, as hardware sends them.
 * Receive WQEs and Reads complete only after the CRC of their last FPDU
 * has been checked.  Every error sends a TERMINATE (iwarp_tx.c), counts,
 * and ends the stream: the parser then discards all that follows.
 */
#include <linux/skbuff.h>
#include <net/sock.h>
#include <net/tcp.h>
#include <kunit/visibility.h>

#include "compat.h"
#include "counters.h"
#include "device.h"
#include "iwarp_qp.h"
#include "iwarp_rx.h"
#include "iwarp_tx.h"
#include "mpa.h"
#include "mr.h"
#include "qp.h"
#include "sge.h"

/**
 * softrdma_iw_rx_reset() - a parser at the start of a stream
 * @rx: the receive state
 * @crc_on: FPDUs carry a CRC to check
 */
void softrdma_iw_rx_reset(struct softrdma_iw_rx *rx, bool crc_on)
{
	int i;

	memset(rx, 0, sizeof(*rx));
	rx->state = SOFTRDMA_IW_RX_HDR;
	rx->hdr_need = sizeof(struct iwarp_ctrl);
	rx->crc_on = crc_on;
	/* RFC 5041 5.1: the first message on each queue has MSN 1 */
	for (i = 0; i < SOFTRDMA_IW_NUM_QN; i++)
		rx->msn[i] = 1;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_iw_rx_reset);

static unsigned int softrdma_iw_rx_bad(struct softrdma_iw_rx *rx,
				       struct softrdma_iw_ev *ev,
				       enum softrdma_iwarp_err err,
				       unsigned int n)
{
	rx->state = SOFTRDMA_IW_RX_DEAD;
	ev->type = SOFTRDMA_IW_EV_ERR;
	ev->err = err;
	return n;
}

/*
 * The first four bytes are in: check what they can show (versions,
 * opcode, an MPA length too short for the header) before reading on, and
 * set how many header bytes the FPDU has.  A TERMINATE is read whole:
 * its header and the copies it carries.
 */
static enum softrdma_iwarp_err softrdma_iw_rx_ctrl(struct softrdma_iw_rx *rx)
{
	const struct iwarp_ctrl *c = (const struct iwarp_ctrl *)rx->hdr;
	enum softrdma_iwarp_err err;
	unsigned int need;

	err = softrdma_iwarp_parse(rx->hdr, rx->hdr_got, &rx->pdu);
	if (err != SOFTRDMA_IWERR_INCOMPLETE && err != SOFTRDMA_IWERR_NONE)
		return err;
	need = rx->pdu.hdr_len;
	if (iwarp_rdmap_opcode(c) == IWARP_OP_TERMINATE)
		need = max(need, IWARP_MPA_LEN_SIZE + iwarp_mpa_len(c));
	if (need > sizeof(rx->hdr))
		return SOFTRDMA_IWERR_TERM_LEN;
	rx->hdr_need = max_t(u32, need, rx->hdr_got);
	return SOFTRDMA_IWERR_NONE;
}

/*
 * A valid header in rx->hdr: set up its payload and trailer, and start
 * the CRC with the header unless rx->crc_whole says it is taken already.
 */
static void softrdma_iw_rx_hdr_setup(struct softrdma_iw_rx *rx,
				     struct softrdma_iw_ev *ev)
{
	if (rx->crc_on && !rx->crc_whole)
		rx->crc = softrdma_mpa_crc_update(softrdma_mpa_crc_init(),
						  rx->hdr, rx->hdr_got);
	rx->data_len = IWARP_MPA_LEN_SIZE + rx->pdu.ulpdu_len - rx->hdr_got;
	rx->data_got = 0;
	rx->trailer_len = softrdma_mpa_pad(rx->pdu.ulpdu_len) +
			  IWARP_MPA_CRC_SIZE;
	rx->trailer_got = 0;
	rx->state = rx->data_len ? SOFTRDMA_IW_RX_DATA :
				   SOFTRDMA_IW_RX_TRAILER;
	ev->type = SOFTRDMA_IW_EV_HDR;
}

/* The header is in: validate it and set up payload and trailer */
static unsigned int softrdma_iw_rx_hdr_done(struct softrdma_iw_rx *rx,
					    struct softrdma_iw_ev *ev,
					    unsigned int n)
{
	enum softrdma_iwarp_err err;

	err = softrdma_iwarp_parse(rx->hdr, rx->hdr_got, &rx->pdu);
	if (err == SOFTRDMA_IWERR_INCOMPLETE)
		err = SOFTRDMA_IWERR_SHORT;
	if (err != SOFTRDMA_IWERR_NONE)
		return softrdma_iw_rx_bad(rx, ev, err, n);
	rx->crc_whole = false;
	softrdma_iw_rx_hdr_setup(rx, ev);
	return n;
}

/* The longest header but a TERMINATE's: a Read Request */
#define SOFTRDMA_IW_RX_MAX_HDR	sizeof(struct iwarp_read_req)
static_assert(SOFTRDMA_IW_RX_MAX_HDR <= SOFTRDMA_IW_HDR_ROOM);

/*
 * The common case: a whole, valid header at @off.  One copy and one
 * parse.  When the FPDU up to its CRC field is in the skb's linear data
 * too, its CRC is taken here in one pass; when all of it is, CRC field
 * included, and the CRC is good (or not used), the FPDU is reported
 * whole (EV_FPDU): one parser round for a small message instead of three.
 * A bad CRC goes the long way and is reported at its end, like any.
 * Return: bytes consumed, or 0 for the byte-wise path of
 * softrdma_iw_rx_parse() to take it from the start (a header split
 * across skbs, a TERMINATE, a malformed header, which that path reports).
 */
static unsigned int softrdma_iw_rx_hdr_whole(struct softrdma_iw_rx *rx,
					     const struct sk_buff *skb,
					     unsigned int off,
					     unsigned int len,
					     struct softrdma_iw_ev *ev)
{
	unsigned int m = min_t(unsigned int, len, SOFTRDMA_IW_RX_MAX_HDR);
	bool whole;
	u32 fpdu;

	if (m < sizeof(struct iwarp_ctrl) ||
	    skb_copy_bits(skb, off, rx->hdr, m))
		return 0;
	if (iwarp_rdmap_opcode((const struct iwarp_ctrl *)rx->hdr) ==
	    IWARP_OP_TERMINATE ||
	    softrdma_iwarp_parse(rx->hdr, m, &rx->pdu) != SOFTRDMA_IWERR_NONE)
		return 0;
	rx->hdr_got = rx->pdu.hdr_len;
	rx->hdr_need = rx->hdr_got;
	fpdu = IWARP_MPA_LEN_SIZE + rx->pdu.ulpdu_len +
	       softrdma_mpa_pad(rx->pdu.ulpdu_len);
	whole = fpdu <= len && off + fpdu <= skb_headlen(skb);
	rx->crc_whole = rx->crc_on && whole;
	if (rx->crc_whole)
		rx->crc = softrdma_mpa_crc_update(softrdma_mpa_crc_init(),
						  skb->data + off, fpdu);
	if (whole && fpdu + IWARP_MPA_CRC_SIZE <= len &&
	    off + fpdu + IWARP_MPA_CRC_SIZE <= skb_headlen(skb) &&
	    (!rx->crc_on || softrdma_mpa_crc_final(rx->crc) ==
			    softrdma_mpa_crc_get(skb->data + off + fpdu))) {
		rx->state = SOFTRDMA_IW_RX_ENDED;
		ev->type = SOFTRDMA_IW_EV_FPDU;
		ev->off = off + rx->hdr_got;
		ev->len = rx->pdu.payload_len;
		ev->mo = 0;
		ev->crc_ok = true;
		return fpdu + IWARP_MPA_CRC_SIZE;
	}
	softrdma_iw_rx_hdr_setup(rx, ev);
	return rx->hdr_got;
}

/**
 * softrdma_iw_rx_parse() - take in bytes of the stream
 * @rx: the parser
 * @skb: the bytes' skb
 * @off: first byte in @skb
 * @len: bytes available from @off (at least one)
 * @ev: out: what was found
 *
 * Consumes bytes up to the next event: a complete header (EV_HDR), a run
 * of payload to place (EV_DATA, pointing into @skb), a complete FPDU
 * with its CRC verdict (EV_END), or a malformed header (EV_ERR, after
 * which everything is discarded); or, for an FPDU all in @skb's linear
 * data with a good CRC, all three at once (EV_FPDU, its payload at
 * @off, @len of @skb).  After EV_END or EV_FPDU the FPDU's header stays
 * in rx->hdr until the next call, so that an error found while finishing
 * it sends the same TERMINATE however the FPDU was split.  Never copies
 * payload.  An skb with frags the host cannot read (device memory, 6.12:
 * tcp_read_sock() hands such skbs on as any) ends the stream as a local
 * failure (EV_ERR): its bytes can be neither parsed nor placed.
 *
 * Return: bytes consumed, at least one.
 */
unsigned int softrdma_iw_rx_parse(struct softrdma_iw_rx *rx,
				  const struct sk_buff *skb, unsigned int off,
				  unsigned int len, struct softrdma_iw_ev *ev)
{
	enum softrdma_iwarp_err err;
	unsigned int n, m, pad;
	u32 crc;

	ev->type = SOFTRDMA_IW_EV_NONE;
	if (rx->state == SOFTRDMA_IW_RX_ENDED) {
		/* the caller is done with the FPDU that ended */
		rx->state = SOFTRDMA_IW_RX_HDR;
		rx->hdr_got = 0;
		rx->hdr_need = sizeof(struct iwarp_ctrl);
	}
	if (!skb_frags_readable(skb))
		return softrdma_iw_rx_bad(rx, ev, SOFTRDMA_IWERR_CATASTROPHIC,
					  len);
	switch (rx->state) {
	case SOFTRDMA_IW_RX_HDR:
		if (!rx->hdr_got) {
			n = softrdma_iw_rx_hdr_whole(rx, skb, off, len, ev);
			if (n)
				return n;
		}
		/*
		 * First the four bytes that give the header's length, then
		 * the rest of it in the same call when this skb holds it (it
		 * nearly always does): one parser round per header.
		 */
		n = 0;
		do {
			m = min(len - n, rx->hdr_need - rx->hdr_got);
			if (m && skb_copy_bits(skb, off + n,
					       rx->hdr + rx->hdr_got, m))
				return softrdma_iw_rx_bad(rx, ev,
							  SOFTRDMA_IWERR_CATASTROPHIC,
							  len);
			rx->hdr_got += m;
			n += m;
			if (rx->hdr_got < rx->hdr_need)
				return n;
			if (rx->hdr_need != sizeof(struct iwarp_ctrl))
				break;
			err = softrdma_iw_rx_ctrl(rx);
			if (err != SOFTRDMA_IWERR_NONE)
				return softrdma_iw_rx_bad(rx, ev, err, n);
		} while (rx->hdr_got < rx->hdr_need);
		return softrdma_iw_rx_hdr_done(rx, ev, n);

	case SOFTRDMA_IW_RX_DATA:
		n = min(len, rx->data_len - rx->data_got);
		if (rx->crc_on && !rx->crc_whole)
			rx->crc = softrdma_mpa_crc_update_skb(rx->crc, skb, off,
							      n);
		ev->type = SOFTRDMA_IW_EV_DATA;
		ev->off = off;
		ev->len = n;
		ev->mo = rx->data_got;
		rx->data_got += n;
		if (rx->data_got == rx->data_len)
			rx->state = SOFTRDMA_IW_RX_TRAILER;
		return n;

	case SOFTRDMA_IW_RX_TRAILER:
		n = min(len, rx->trailer_len - rx->trailer_got);
		if (skb_copy_bits(skb, off, rx->trailer + rx->trailer_got, n))
			return softrdma_iw_rx_bad(rx, ev,
						  SOFTRDMA_IWERR_CATASTROPHIC,
						  len);
		rx->trailer_got += n;
		if (rx->trailer_got < rx->trailer_len)
			return n;
		pad = rx->trailer_len - IWARP_MPA_CRC_SIZE;
		ev->type = SOFTRDMA_IW_EV_END;
		ev->crc_ok = true;
		if (rx->crc_on) {
			crc = rx->crc;
			if (!rx->crc_whole)
				crc = softrdma_mpa_crc_update(crc, rx->trailer,
							      pad);
			ev->crc_ok = softrdma_mpa_crc_final(crc) ==
				     softrdma_mpa_crc_get(rx->trailer + pad);
		}
		rx->state = SOFTRDMA_IW_RX_ENDED;
		return n;

	default:
		return len;
	}
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_iw_rx_parse);

static void softrdma_iw_rx_drop_sink(struct softrdma_iw_rx *rx)
{
	rx->sink = SOFTRDMA_IW_SINK_NONE;
}

/* Complete the receive WQE the current Send uses */
static void softrdma_iw_rx_complete_rqe(struct softrdma_qp *qp,
					enum ib_wc_status status)
{
	struct softrdma_iw_rx *rx = &softrdma_qp_iw(qp)->rx;
	const struct softrdma_iwarp_pdu *pdu = &rx->pdu;
	const struct softrdma_iwarp_op *op = softrdma_iwarp_op(pdu->opcode);
	struct ib_wc wc = {
		.wr_id = rx->rqe.wr_id,
		.status = status,
		.opcode = IB_WC_RECV,
		.byte_len = rx->rcv_len,
	};

	if (!rx->have_rqe)
		return;
	rx->have_rqe = false;
	if (status == IB_WC_SUCCESS && op && op->inval) {
		/* invalidated by softrdma_iw_rx_end() (RFC 5040 5.4) */
		wc.wc_flags |= IB_WC_WITH_INVALIDATE;
		wc.ex.invalidate_rkey = pdu->inval_stag;
	}
	softrdma_qp_complete_recv(qp, &wc, status == IB_WC_SUCCESS &&
				  op && op->se);
}

static enum softrdma_counter softrdma_iw_err_counter(enum softrdma_iwarp_err err)
{
	switch (err) {
	case SOFTRDMA_IWERR_CRC:
		return SOFTRDMA_CNT_IW_RCV_CRC_ERR;
	case SOFTRDMA_IWERR_U_MSN_NOBUF:
		return SOFTRDMA_CNT_IW_RCV_NO_RQE;
	case SOFTRDMA_IWERR_U_MSN_RANGE:
	case SOFTRDMA_IWERR_U_TOO_LONG:
	case SOFTRDMA_IWERR_MO:
		return SOFTRDMA_CNT_IW_RCV_UNTAGGED_ERR;
	case SOFTRDMA_IWERR_T_INV_STAG:
	case SOFTRDMA_IWERR_T_BOUNDS:
	case SOFTRDMA_IWERR_T_STAG_STREAM:
	case SOFTRDMA_IWERR_RREQ_INV_STAG:
	case SOFTRDMA_IWERR_RREQ_BOUNDS:
	case SOFTRDMA_IWERR_RREQ_ACCESS:
	case SOFTRDMA_IWERR_RREQ_STAG_STREAM:
	case SOFTRDMA_IWERR_INV_STAG:
		return SOFTRDMA_CNT_IW_RCV_PROT_ERR;
	case SOFTRDMA_IWERR_IRD:
		return SOFTRDMA_CNT_IW_RCV_IRD_EXCEEDED;
	case SOFTRDMA_IWERR_U_LOCAL:
	case SOFTRDMA_IWERR_CATASTROPHIC:
		return SOFTRDMA_CNT_IW_RCV_LOCAL_ERR;
	default:
		return SOFTRDMA_CNT_IW_RCV_BAD_HDR;
	}
}

/*
 * A protocol error in what the peer sent: the receive WQE in use (if
 * any) completes with @status, the stream ends with a TERMINATE
 * carrying the offending header, and the rest is discarded.
 */
static void softrdma_iw_rx_fail(struct softrdma_qp *qp,
				enum softrdma_iwarp_err err,
				enum ib_wc_status status)
{
	struct softrdma_iw_rx *rx = &softrdma_qp_iw(qp)->rx;

	softrdma_counter_inc(qp->sdev, softrdma_iw_err_counter(err));
	ibdev_dbg_ratelimited(&qp->sdev->ibdev, "QP %u: receive error %d\n",
			      softrdma_qpn(qp), err);
	rx->state = SOFTRDMA_IW_RX_DEAD;
	softrdma_iw_rx_drop_sink(rx);
	softrdma_iw_rx_complete_rqe(qp, status);
	softrdma_iw_tx_terminate(qp, err, rx->hdr, rx->hdr_got);
}

/* A failed softrdma_mr_check() of a tagged segment as its TERMINATE */
static enum softrdma_iwarp_err softrdma_iw_tagged_err(int err)
{
	if (err == -EINVAL)
		return SOFTRDMA_IWERR_T_STAG_STREAM;
	/* RFC 5041 7.2 has no tagged access code; rights are RDMAP's */
	if (err == -EACCES)
		return SOFTRDMA_IWERR_RREQ_ACCESS;
	return SOFTRDMA_IWERR_T_BOUNDS;
}

/*
 * May @len bytes at @to of the MR @stag names be placed now?  The MR is
 * looked up for this check only: the reference is dropped before the
 * receive actor returns.  An STag that no longer names an MR (deregistered
 * or invalidated since the segment began) is an Invalid STag (RFC 5041
 * 7.2), whether or not some of the segment's bytes were placed already.
 */
static enum softrdma_iwarp_err
softrdma_iw_rx_tagged_check(struct softrdma_qp *qp, u32 stag, u64 to, u32 len,
			    int access, struct softrdma_mr **mrp)
{
	struct softrdma_mr *mr;
	int err;

	mr = softrdma_mr_get(qp->sdev, stag);
	if (!mr)
		return SOFTRDMA_IWERR_T_INV_STAG;
	err = softrdma_mr_check(mr, qp->ibqp.pd, to, len, access);
	if (err) {
		softrdma_mr_put(mr);
		return softrdma_iw_tagged_err(err);
	}
	if (mrp)
		*mrp = mr;
	else
		softrdma_mr_put(mr);
	return SOFTRDMA_IWERR_NONE;
}

/* Check the MR a tagged segment names (RFC 5040 5.3, 5.4); place into it */
static enum softrdma_iwarp_err
softrdma_iw_rx_tagged_mr(struct softrdma_qp *qp, u32 stag, u64 to, u32 len,
			 int access)
{
	struct softrdma_iw_rx *rx = &softrdma_qp_iw(qp)->rx;
	enum softrdma_iwarp_err err;

	err = softrdma_iw_rx_tagged_check(qp, stag, to, len, access, NULL);
	if (err != SOFTRDMA_IWERR_NONE)
		return err;
	rx->stag = stag;
	rx->to = to;
	rx->access = access;
	rx->sink = SOFTRDMA_IW_SINK_MR;
	return SOFTRDMA_IWERR_NONE;
}

/*
 * RDMA Write segment: into the MR its STag names (RFC 5040 4.3).
 *
 * Remote rights are the MR's (RFC 5040 5.3), not the QP's: the RDMA CM
 * gives an iWARP QP created before rdma_connect() access flags 0
 * (rdma_init_qp_attr() without an iw_cm id), and stock siw, like every
 * iWARP peer it talks to, never checks them.  The same holds for Reads.
 */
static enum softrdma_iwarp_err softrdma_iw_rx_write(struct softrdma_qp *qp)
{
	const struct softrdma_iwarp_pdu *pdu = &softrdma_qp_iw(qp)->rx.pdu;

	if (!pdu->payload_len)
		return SOFTRDMA_IWERR_NONE;
	return softrdma_iw_rx_tagged_mr(qp, pdu->stag, pdu->to,
					pdu->payload_len,
					IB_ACCESS_REMOTE_WRITE);
}

/*
 * Read Response segment (RFC 5040 4.5): it must answer our oldest READ,
 * in order, inside the sink buffer that READ named.
 */
static enum softrdma_iwarp_err softrdma_iw_rx_rresp(struct softrdma_qp *qp)
{
	struct softrdma_iw_rx *rx = &softrdma_qp_iw(qp)->rx;
	const struct softrdma_iwarp_pdu *pdu = &rx->pdu;
	struct softrdma_iw_read *rd, cur;

	spin_lock(&qp->sq.lock);
	rd = softrdma_iw_rdq_peek(&softrdma_qp_iw(qp)->tx.orq);
	if (rd)
		cur = *rd;
	spin_unlock(&qp->sq.lock);

	if (!rd) {
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_IW_RCV_UNEXPECTED);
		return SOFTRDMA_IWERR_OPCODE;
	}
	rx->rresp = true;
	if (!pdu->payload_len && !pdu->last)
		return SOFTRDMA_IWERR_NONE;
	if (pdu->payload_len && pdu->stag != cur.sink_stag)
		return SOFTRDMA_IWERR_T_STAG_STREAM;
	if (pdu->payload_len > cur.len - cur.done ||
	    (pdu->payload_len && pdu->to != cur.sink_to + cur.done) ||
	    (pdu->last && cur.done + pdu->payload_len != cur.len))
		return SOFTRDMA_IWERR_T_BOUNDS;
	if (!pdu->payload_len)
		return SOFTRDMA_IWERR_NONE;
	return softrdma_iw_rx_tagged_mr(qp, pdu->stag, pdu->to,
					pdu->payload_len,
					IB_ACCESS_LOCAL_WRITE);
}

/* A Send segment (RFC 5041 5.3): into the receive WQE of its message */
static enum softrdma_iwarp_err softrdma_iw_rx_send(struct softrdma_qp *qp,
						   enum ib_wc_status *status)
{
	struct softrdma_iw_rx *rx = &softrdma_qp_iw(qp)->rx;
	const struct softrdma_iwarp_pdu *pdu = &rx->pdu;
	int err;

	if (pdu->msn != rx->msn[IWARP_QN_SEND])
		return SOFTRDMA_IWERR_U_MSN_RANGE;
	if (!rx->have_rqe) {
		if (pdu->mo)
			return SOFTRDMA_IWERR_MO;
		spin_lock(&qp->rq.lock);
		err = softrdma_rq_take(qp, &rx->rqe);
		spin_unlock(&qp->rq.lock);
		if (err == -ENOENT)
			return SOFTRDMA_IWERR_U_MSN_NOBUF;
		rx->have_rqe = true;
		rx->rcv_len = 0;
		if (err) {
			/* malformed: it completes in error, the QP fails */
			*status = IB_WC_LOC_QP_OP_ERR;
			return SOFTRDMA_IWERR_U_LOCAL;
		}
	} else if (pdu->mo != rx->rcv_len) {
		return SOFTRDMA_IWERR_MO;
	}
	if (pdu->payload_len > rx->rqe.length - rx->rcv_len) {
		*status = IB_WC_LOC_LEN_ERR;
		return SOFTRDMA_IWERR_U_TOO_LONG;
	}
	rx->sink = pdu->payload_len ? SOFTRDMA_IW_SINK_RQE :
				      SOFTRDMA_IW_SINK_NONE;
	return SOFTRDMA_IWERR_NONE;
}

/* Read Request (RFC 5040 4.4): check the source now, answer later */
static enum softrdma_iwarp_err softrdma_iw_rx_read_req(struct softrdma_qp *qp)
{
	struct softrdma_iwarp_qp *iw = softrdma_qp_iw(qp);
	const struct softrdma_iwarp_rreq *rreq = &iw->rx.pdu.rreq;
	struct softrdma_mr *mr;
	bool full;
	int err;

	if (iw->rx.pdu.msn != iw->rx.msn[IWARP_QN_READ_REQ])
		return SOFTRDMA_IWERR_U_MSN_RANGE;
	spin_lock(&qp->sq.lock);
	full = iw->tx.irq.count >= min_t(u32, iw->params.ird,
					 SOFTRDMA_IW_MAX_RD);
	spin_unlock(&qp->sq.lock);
	if (full)
		return SOFTRDMA_IWERR_IRD;
	if (!rreq->size)
		return SOFTRDMA_IWERR_NONE;
	mr = softrdma_mr_get(qp->sdev, rreq->src_stag);
	if (!mr)
		return SOFTRDMA_IWERR_RREQ_INV_STAG;
	err = softrdma_mr_check(mr, qp->ibqp.pd, rreq->src_to, rreq->size,
				IB_ACCESS_REMOTE_READ);
	softrdma_mr_put(mr);
	switch (err) {
	case 0:
		return SOFTRDMA_IWERR_NONE;
	case -EINVAL:
		return SOFTRDMA_IWERR_RREQ_STAG_STREAM;
	case -EACCES:
		return SOFTRDMA_IWERR_RREQ_ACCESS;
	default:
		return SOFTRDMA_IWERR_RREQ_BOUNDS;
	}
}

/* A valid header: find where its payload goes */
static void softrdma_iw_rx_hdr(struct softrdma_qp *qp)
{
	struct softrdma_iw_rx *rx = &softrdma_qp_iw(qp)->rx;
	enum ib_wc_status status = IB_WC_WR_FLUSH_ERR;
	enum softrdma_iwarp_err err = SOFTRDMA_IWERR_NONE;

	rx->sink = SOFTRDMA_IW_SINK_NONE;
	rx->rresp = false;
	switch (rx->pdu.opcode) {
	case IWARP_OP_WRITE:
		err = softrdma_iw_rx_write(qp);
		break;
	case IWARP_OP_READ_RESP:
		err = softrdma_iw_rx_rresp(qp);
		break;
	case IWARP_OP_SEND:
	case IWARP_OP_SEND_INV:
	case IWARP_OP_SEND_SE:
	case IWARP_OP_SEND_SE_INV:
		err = softrdma_iw_rx_send(qp, &status);
		break;
	case IWARP_OP_READ_REQ:
		err = softrdma_iw_rx_read_req(qp);
		break;
	case IWARP_OP_TERMINATE:
		break;		/* read whole; handled at its end */
	default:
		err = SOFTRDMA_IWERR_OPCODE;
		break;
	}
	if (err != SOFTRDMA_IWERR_NONE)
		softrdma_iw_rx_fail(qp, err, status);
}

struct softrdma_iw_scatter {
	const struct sk_buff *skb;
	unsigned int off;
};

static int softrdma_iw_scatter_one(struct softrdma_mr *mr, u64 addr, u32 len,
				   u32 done, void *ctx)
{
	struct softrdma_iw_scatter *sc = ctx;

	return softrdma_mr_copy_from_skb(mr, addr, sc->skb, sc->off + done,
					 len);
}

/* Tagged payload bytes into the MR, looked up again for them */
static void softrdma_iw_rx_place_tagged(struct softrdma_qp *qp,
					const struct sk_buff *skb,
					const struct softrdma_iw_ev *ev)
{
	struct softrdma_iw_rx *rx = &softrdma_qp_iw(qp)->rx;
	enum softrdma_iwarp_err err;
	struct softrdma_mr *mr;

	err = softrdma_iw_rx_tagged_check(qp, rx->stag, rx->to + ev->mo,
					  ev->len, rx->access, &mr);
	if (err == SOFTRDMA_IWERR_NONE) {
		if (softrdma_mr_copy_from_skb(mr, rx->to + ev->mo, skb,
					      ev->off, ev->len))
			err = SOFTRDMA_IWERR_T_BOUNDS;
		softrdma_mr_put(mr);
	}
	if (err != SOFTRDMA_IWERR_NONE)
		softrdma_iw_rx_fail(qp, err, IB_WC_WR_FLUSH_ERR);
}

/* Payload bytes: from the skb into their place, the one copy */
static void softrdma_iw_rx_data(struct softrdma_qp *qp,
				const struct sk_buff *skb,
				const struct softrdma_iw_ev *ev)
{
	struct softrdma_iw_rx *rx = &softrdma_qp_iw(qp)->rx;
	struct softrdma_iw_scatter sc = { .skb = skb, .off = ev->off };
	int err;

	switch (rx->sink) {
	case SOFTRDMA_IW_SINK_MR:
		softrdma_iw_rx_place_tagged(qp, skb, ev);
		break;
	case SOFTRDMA_IW_SINK_RQE:
		err = softrdma_sge_walk(qp, rx->rqe.sge, rx->rqe.num_sge,
					rx->rcv_len + ev->mo, ev->len,
					IB_ACCESS_LOCAL_WRITE,
					softrdma_iw_scatter_one, &sc);
		/*
		 * A local key of the WQE refused (no MR of the PD, too
		 * small, no local write): a local protection error of the
		 * WQE, which its completion reports.
		 */
		if (err == -EMSGSIZE)
			softrdma_iw_rx_fail(qp, SOFTRDMA_IWERR_U_TOO_LONG,
					    IB_WC_LOC_LEN_ERR);
		else if (err)
			softrdma_iw_rx_fail(qp, SOFTRDMA_IWERR_U_LOCAL,
					    IB_WC_LOC_PROT_ERR);
		break;
	default:
		break;
	}
}

/*
 * RDMA Read with local invalidate: the sink's STag ends with the READ.
 * Return: the status the READ completes with.
 */
static enum ib_wc_status softrdma_iw_read_inv(struct softrdma_qp *qp,
					      u32 slot)
{
	const struct softrdma_send_wqe *wqe = &qp->sq.wqe[slot];

	if (wqe->opcode != IB_WR_RDMA_READ_WITH_INV)
		return IB_WC_SUCCESS;
	return softrdma_qp_local_inv(qp, wqe->ex.invalidate_rkey);
}

/*
 * A Read Response's last byte is in: the READ completes in its turn.  A
 * WQE the READ limit or a fence held back (fetched, not started) may go
 * now: the work item starts it.  WQEs posted behind are retire's to
 * pass on (the doorbell rule); nothing waiting, nothing is scheduled (a
 * READ latency run would otherwise wake the work item for every READ).
 * A local invalidate that fails is a local error of the READ's, as any
 * other of a send WQE: softrdma_iw_tx_wqe_fail() completes it in error
 * and queues the TERMINATE, which the work item sends; the stream ends
 * here as after a receive error, the rest discarded (a Send in progress
 * completes its receive WQE as flushed), so that nothing completes after
 * the READ but in the flush.
 */
static void softrdma_iw_rx_read_done(struct softrdma_qp *qp)
{
	struct softrdma_iw_tx *tx = &softrdma_qp_iw(qp)->tx;
	enum ib_wc_status status = IB_WC_SUCCESS;
	struct softrdma_iw_read *rd;
	bool kick = false;
	u32 slot;

	spin_lock(&qp->sq.lock);
	rd = softrdma_iw_rdq_peek(&tx->orq);
	if (rd) {
		rd->done += softrdma_qp_iw(qp)->rx.pdu.payload_len;
		if (softrdma_qp_iw(qp)->rx.pdu.last) {
			slot = rd->slot;
			softrdma_iw_rdq_pop(&tx->orq);
			status = softrdma_iw_read_inv(qp, slot);
			if (status == IB_WC_SUCCESS) {
				tx->st[slot].status = status;
				tx->st[slot].done = true;
				softrdma_iw_tx_retire(qp);
				kick = tx->msg == SOFTRDMA_IW_TX_WQE;
			} else {
				softrdma_iw_tx_wqe_fail(qp, slot, status);
				kick = true;
			}
		}
	}
	spin_unlock(&qp->sq.lock);
	if (status != IB_WC_SUCCESS) {
		softrdma_qp_iw(qp)->rx.state = SOFTRDMA_IW_RX_DEAD;
		softrdma_iw_rx_complete_rqe(qp, IB_WC_WR_FLUSH_ERR);
	}
	if (kick)
		softrdma_iw_tx_schedule(qp);
}

/* A Read Request checked and CRC-clean: to the IRQ, for the transmitter */
static void softrdma_iw_rx_read_req_done(struct softrdma_qp *qp)
{
	struct softrdma_iwarp_qp *iw = softrdma_qp_iw(qp);
	const struct softrdma_iwarp_rreq *rreq = &iw->rx.pdu.rreq;
	struct softrdma_iw_read *rd;

	spin_lock(&qp->sq.lock);
	rd = softrdma_iw_rdq_push(&iw->tx.irq, iw->params.ird);
	if (rd) {
		rd->sink_stag = rreq->sink_stag;
		rd->sink_to = rreq->sink_to;
		rd->len = rreq->size;
		rd->src_stag = rreq->src_stag;
		rd->src_to = rreq->src_to;
	}
	spin_unlock(&qp->sq.lock);
	if (!rd) {
		softrdma_iw_rx_fail(qp, SOFTRDMA_IWERR_IRD, IB_WC_WR_FLUSH_ERR);
		return;
	}
	iw->rx.msn[IWARP_QN_READ_REQ]++;
	iw->rx.tx_kick = true;
}

/* The peer's TERMINATE (RFC 5040 5.2): the stream is over */
static void softrdma_iw_rx_terminate(struct softrdma_qp *qp)
{
	struct softrdma_iw_rx *rx = &softrdma_qp_iw(qp)->rx;
	struct softrdma_iwarp_term term;

	softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_IW_TERM_RCVD);
	if (softrdma_iwarp_parse_terminate(rx->hdr, rx->hdr_got, &rx->pdu,
					   &term) == SOFTRDMA_IWERR_NONE)
		ibdev_dbg_ratelimited(&qp->sdev->ibdev,
				      "QP %u: TERMINATE layer %u type %u code 0x%02x\n",
				      softrdma_qpn(qp), term.layer, term.etype,
				      term.ecode);
	rx->state = SOFTRDMA_IW_RX_DEAD;
	softrdma_iw_rx_complete_rqe(qp, IB_WC_WR_FLUSH_ERR);
	spin_lock(&qp->sq.lock);
	/* the peer's error, not ours: the stream ends, the CM reports it */
	softrdma_iwarp_qp_fatal(qp, -ECONNRESET, SOFTRDMA_QP_ERR_CLOSED);
	spin_unlock(&qp->sq.lock);
}

/*
 * Send with Invalidate, its last FPDU in (RFC 5040 5.4): the STag it names
 * ends.  Only a fast-registration MR of the QP's PD can be invalidated.
 */
static int softrdma_iw_rx_send_inv(struct softrdma_qp *qp)
{
	const struct softrdma_iwarp_pdu *pdu = &softrdma_qp_iw(qp)->rx.pdu;

	if (pdu->opcode != IWARP_OP_SEND_INV &&
	    pdu->opcode != IWARP_OP_SEND_SE_INV)
		return 0;
	return softrdma_qp_remote_inv(qp, pdu->inval_stag);
}

/* An FPDU is complete and its CRC good: finish what it ends */
static void softrdma_iw_rx_end(struct softrdma_qp *qp)
{
	struct softrdma_iw_rx *rx = &softrdma_qp_iw(qp)->rx;
	const struct softrdma_iwarp_pdu *pdu = &rx->pdu;

	softrdma_iw_rx_drop_sink(rx);
	ibdev_dbg_ratelimited(&qp->sdev->ibdev,
			      "QP %u: rx opcode %u msn %u len %u last %d\n",
			      softrdma_qpn(qp), pdu->opcode, pdu->msn,
			      pdu->payload_len, pdu->last);
	switch (pdu->opcode) {
	case IWARP_OP_READ_RESP:
		softrdma_iw_rx_read_done(qp);
		break;
	case IWARP_OP_SEND:
	case IWARP_OP_SEND_INV:
	case IWARP_OP_SEND_SE:
	case IWARP_OP_SEND_SE_INV:
		rx->rcv_len += pdu->payload_len;
		if (pdu->last) {
			if (softrdma_iw_rx_send_inv(qp)) {
				softrdma_iw_rx_fail(qp, SOFTRDMA_IWERR_INV_STAG,
						    IB_WC_LOC_PROT_ERR);
				break;
			}
			softrdma_iw_rx_complete_rqe(qp, IB_WC_SUCCESS);
			rx->msn[IWARP_QN_SEND]++;
		}
		break;
	case IWARP_OP_READ_REQ:
		softrdma_iw_rx_read_req_done(qp);
		break;
	case IWARP_OP_TERMINATE:
		softrdma_iw_rx_terminate(qp);
		break;
	default:
		break;
	}
}

/* A valid header: where its payload goes; false when nothing is placed */
static bool softrdma_iw_rx_start(struct softrdma_qp *qp)
{
	struct softrdma_iw_rx *rx = &softrdma_qp_iw(qp)->rx;
	enum ib_qp_state state = READ_ONCE(qp->state);

	if (state != IB_QPS_RTS && state != IB_QPS_SQD) {
		/* the QP is in ERR: nothing more is placed */
		rx->state = SOFTRDMA_IW_RX_DEAD;
		return false;
	}
	softrdma_iw_rx_hdr(qp);
	return rx->state != SOFTRDMA_IW_RX_DEAD;
}

/* An FPDU's last byte is in: count it, finish it if its CRC is good */
static void softrdma_iw_rx_finish(struct softrdma_qp *qp, bool crc_ok)
{
	struct softrdma_iw_rx *rx = &softrdma_qp_iw(qp)->rx;

	softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_IW_RCV_FPDUS);
	softrdma_counter_add(qp->sdev, SOFTRDMA_CNT_IW_RCV_BYTES,
			     softrdma_mpa_fpdu_len(rx->pdu.ulpdu_len));
	if (!crc_ok)
		softrdma_iw_rx_fail(qp, SOFTRDMA_IWERR_CRC, IB_WC_WR_FLUSH_ERR);
	else
		softrdma_iw_rx_end(qp);
}

static void softrdma_iw_rx_event(struct softrdma_qp *qp,
				 const struct sk_buff *skb,
				 const struct softrdma_iw_ev *ev)
{
	struct softrdma_iw_rx *rx = &softrdma_qp_iw(qp)->rx;

	switch (ev->type) {
	case SOFTRDMA_IW_EV_ERR:
		softrdma_iw_rx_fail(qp, ev->err, IB_WC_WR_FLUSH_ERR);
		break;
	case SOFTRDMA_IW_EV_HDR:
		softrdma_iw_rx_start(qp);
		break;
	case SOFTRDMA_IW_EV_DATA:
		softrdma_iw_rx_data(qp, skb, ev);
		break;
	case SOFTRDMA_IW_EV_END:
		softrdma_iw_rx_finish(qp, ev->crc_ok);
		break;
	case SOFTRDMA_IW_EV_FPDU:
		if (!softrdma_iw_rx_start(qp))
			break;
		if (ev->len) {
			softrdma_iw_rx_data(qp, skb, ev);
			if (rx->state == SOFTRDMA_IW_RX_DEAD)
				break;
		}
		softrdma_iw_rx_finish(qp, true);
		break;
	default:
		break;
	}
}

/**
 * softrdma_iw_rx_bytes() - parse and place @len bytes of the stream
 * @qp: the attached QP
 * @skb: the bytes' skb
 * @off: first byte in @skb
 * @len: bytes from @off
 *
 * Nothing taken here (an MR, a receive WQE's SGE MRs) is held when this
 * returns but the receive WQE of a Send in progress.
 */
VISIBLE_IF_KUNIT void softrdma_iw_rx_bytes(struct softrdma_qp *qp,
					   const struct sk_buff *skb,
					   unsigned int off, size_t len)
{
	struct softrdma_iw_rx *rx = &softrdma_qp_iw(qp)->rx;
	struct softrdma_iw_ev ev;
	size_t done = 0;

	while (done < len) {
		if (rx->state == SOFTRDMA_IW_RX_DEAD) {
			softrdma_counter_add(qp->sdev,
					     SOFTRDMA_CNT_IW_RCV_DISCARD_BYTES,
					     len - done);
			break;
		}
		done += softrdma_iw_rx_parse(rx, skb, off + done, len - done,
					     &ev);
		softrdma_iw_rx_event(qp, skb, &ev);
	}
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_iw_rx_bytes);

/* tcp_read_sock() actor: everything offered is consumed */
static int softrdma_iw_rx_actor(read_descriptor_t *desc, struct sk_buff *skb,
				unsigned int off, size_t len)
{
	softrdma_iw_rx_bytes(desc->arg.data, skb, off, len);
	return len;
}

/**
 * softrdma_iw_rx_read() - process what the socket has received
 * @qp: the attached QP
 * @sk: its socket, locked by TCP (sk_data_ready) or by the caller
 *
 * Context: bottom halves disabled.
 */
void softrdma_iw_rx_read(struct softrdma_qp *qp, struct sock *sk)
{
	read_descriptor_t desc = { .arg.data = qp, .count = 1 };
	struct softrdma_iw_rx *rx = &softrdma_qp_iw(qp)->rx;

	lockdep_assert_in_softirq();

	tcp_read_sock(sk, &desc, softrdma_iw_rx_actor);
	if (!rx->tx_kick)
		return;
	rx->tx_kick = false;
	/*
	 * Read Requests came in.  From TCP's receive softirq the socket is
	 * ours to write (softrdma_iw_tx_run_locked()); from a process that
	 * owns it (its backlog, or attach) the work item answers them.
	 */
	if (in_serving_softirq())
		softrdma_iw_tx_run_locked(qp);
	else
		softrdma_iw_tx_schedule(qp);
}

/**
 * softrdma_iw_rx_stop() - drop what the receive side holds
 * @qp: the QP, its socket callbacks gone
 *
 * A receive WQE a Send was being placed into completes flushed.
 */
void softrdma_iw_rx_stop(struct softrdma_qp *qp)
{
	struct softrdma_iw_rx *rx = &softrdma_qp_iw(qp)->rx;

	softrdma_iw_rx_drop_sink(rx);
	softrdma_iw_rx_complete_rqe(qp, IB_WC_WR_FLUSH_ERR);
	rx->state = SOFTRDMA_IW_RX_DEAD;
}
