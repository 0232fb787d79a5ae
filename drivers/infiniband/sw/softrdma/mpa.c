// SPDX-License-Identifier: GPL-2.0-only
/*
 * MPA request/reply frames, their negotiation, and FPDU framing helpers
 * (RFC 5044, RFC 6581).  API in mpa.h; wire layout in iwarp_hdr.h.
 */
#include <linux/bitops.h>
#include <linux/crc32.h>
#include <linux/crc32c.h>
#include <linux/errno.h>
#include <linux/highmem.h>
#include <linux/minmax.h>
#include <linux/skbuff.h>
#include <linux/string.h>

#include "mpa.h"

static unsigned int softrdma_mpa_priv_len(const struct softrdma_mpa_info *info)
{
	return (info->enhanced ? sizeof(struct iwarp_mpa_v2) : 0) +
	       info->pd_len;
}

unsigned int softrdma_mpa_frame_len(const struct softrdma_mpa_info *info)
{
	return sizeof(struct iwarp_mpa_rr) + softrdma_mpa_priv_len(info);
}

static bool softrdma_mpa_info_valid(const struct softrdma_mpa_info *info)
{
	if (info->rev != IWARP_MPA_REV1 && info->rev != IWARP_MPA_REV2)
		return false;
	if (info->enhanced && info->rev != IWARP_MPA_REV2)
		return false;
	/* 7.1: R only in a reply */
	if (info->reject && !info->reply)
		return false;
	if (softrdma_mpa_priv_len(info) > IWARP_MPA_PRIV_MAX)
		return false;
	if (info->pd_len && !info->pd)
		return false;
	if (!info->enhanced &&
	    (info->p2p || info->rtr || info->ird || info->ord))
		return false;
	if (info->ird > IWARP_MPA_V2_IRD_ORD_MAX ||
	    info->ord > IWARP_MPA_V2_IRD_ORD_MAX)
		return false;
	if (info->rtr & ~SOFTRDMA_MPA_RTR_ALL)
		return false;
	if (info->rtr && !info->p2p)
		return false;
	/* RFC 6581 4.2: a reply names one RTR message */
	if (info->reply && hweight8(info->rtr) > 1)
		return false;
	return true;
}

int softrdma_mpa_encode(const struct softrdma_mpa_info *info, void *buf,
			size_t len)
{
	unsigned int frame_len = softrdma_mpa_frame_len(info);
	struct iwarp_mpa_rr *rr = buf;
	u8 *p = buf;

	if (!softrdma_mpa_info_valid(info))
		return -EINVAL;
	if (len < frame_len)
		return -ENOSPC;

	memcpy(rr->key, info->reply ? IWARP_MPA_KEY_REP : IWARP_MPA_KEY_REQ,
	       IWARP_MPA_KEY_SIZE);
	rr->flags = 0;
	iwarp_mpa_rr_set_flag(rr, IWARP_MPA_FLAG_MARKERS, info->markers);
	iwarp_mpa_rr_set_flag(rr, IWARP_MPA_FLAG_CRC, info->crc);
	iwarp_mpa_rr_set_flag(rr, IWARP_MPA_FLAG_REJECT, info->reject);
	iwarp_mpa_rr_set_flag(rr, IWARP_MPA_FLAG_ENHANCED, info->enhanced);
	iwarp_mpa_rr_set_flag(rr, IWARP_MPA_FLAG_EXT_OFFER, info->ext_offer);
	iwarp_mpa_rr_set_flag(rr, IWARP_MPA_FLAG_EXT_ACCEPT, info->ext_accept);
	rr->rev = info->rev;
	rr->pd_len = cpu_to_be16(softrdma_mpa_priv_len(info));
	p += sizeof(*rr);

	if (info->enhanced) {
		struct iwarp_mpa_v2 *v2 = (struct iwarp_mpa_v2 *)p;
		u16 ird = info->ird, ord = info->ord;

		if (info->p2p)
			ird |= IWARP_MPA_V2_P2P;
		if (info->rtr & SOFTRDMA_MPA_RTR_SEND)
			ird |= IWARP_MPA_V2_RTR_SEND;
		if (info->rtr & SOFTRDMA_MPA_RTR_WRITE)
			ord |= IWARP_MPA_V2_RTR_WRITE;
		if (info->rtr & SOFTRDMA_MPA_RTR_READ)
			ord |= IWARP_MPA_V2_RTR_READ;
		v2->ird = cpu_to_be16(ird);
		v2->ord = cpu_to_be16(ord);
		p += sizeof(*v2);
	}
	if (info->pd_len)
		memcpy(p, info->pd, info->pd_len);
	return frame_len;
}

int softrdma_mpa_parse_hdr(const struct iwarp_mpa_rr *hdr, bool reply,
			   u16 *pd_len)
{
	const char *key = reply ? IWARP_MPA_KEY_REP : IWARP_MPA_KEY_REQ;
	u16 len = iwarp_mpa_rr_pd_len(hdr);
	u8 rev = iwarp_mpa_rr_rev(hdr);

	if (memcmp(hdr->key, key, IWARP_MPA_KEY_SIZE))
		return -EBADMSG;
	/* RFC 5044 7.1 defines revision 1, RFC 6581 5 revision 2 */
	if (rev != IWARP_MPA_REV1 && rev != IWARP_MPA_REV2)
		return -EPROTO;
	if (len > IWARP_MPA_PRIV_MAX)
		return -EMSGSIZE;
	if (!reply && iwarp_mpa_rr_flag(hdr, IWARP_MPA_FLAG_REJECT))
		return -EBADMSG;
	*pd_len = len;
	/* RFC 5044 7.1: markers are optional to implement; we refuse them */
	if (iwarp_mpa_rr_flag(hdr, IWARP_MPA_FLAG_MARKERS))
		return -EOPNOTSUPP;
	return 0;
}

int softrdma_mpa_parse(const void *buf, size_t len, bool reply,
		       struct softrdma_mpa_info *info)
{
	const struct iwarp_mpa_rr *rr = buf;
	const u8 *p = buf;
	int markers_err;
	u16 pd_len;

	memset(info, 0, sizeof(*info));
	if (len < sizeof(*rr))
		return -EBADMSG;
	markers_err = softrdma_mpa_parse_hdr(rr, reply, &pd_len);
	if (markers_err && markers_err != -EOPNOTSUPP)
		return markers_err;
	if (len != sizeof(*rr) + pd_len)
		return -EBADMSG;

	info->reply = reply;
	info->rev = iwarp_mpa_rr_rev(rr);
	info->markers = iwarp_mpa_rr_flag(rr, IWARP_MPA_FLAG_MARKERS);
	info->crc = iwarp_mpa_rr_flag(rr, IWARP_MPA_FLAG_CRC);
	info->reject = iwarp_mpa_rr_flag(rr, IWARP_MPA_FLAG_REJECT);
	info->ext_offer = iwarp_mpa_rr_flag(rr, IWARP_MPA_FLAG_EXT_OFFER);
	info->ext_accept = iwarp_mpa_rr_flag(rr, IWARP_MPA_FLAG_EXT_ACCEPT);
	/* RFC 6581 5: the block exists in revision 2 frames that flag it */
	info->enhanced = info->rev == IWARP_MPA_REV2 &&
			 iwarp_mpa_rr_flag(rr, IWARP_MPA_FLAG_ENHANCED);
	p += sizeof(*rr);

	if (info->enhanced) {
		const struct iwarp_mpa_v2 *v2 = (const void *)p;

		if (pd_len < sizeof(*v2))
			return -EBADMSG;
		info->ird = iwarp_mpa_v2_ird(v2);
		info->ord = iwarp_mpa_v2_ord(v2);
		info->p2p = iwarp_mpa_v2_ird_flag(v2, IWARP_MPA_V2_P2P);
		if (info->p2p) {
			if (iwarp_mpa_v2_ird_flag(v2, IWARP_MPA_V2_RTR_SEND))
				info->rtr |= SOFTRDMA_MPA_RTR_SEND;
			if (iwarp_mpa_v2_ord_flag(v2, IWARP_MPA_V2_RTR_WRITE))
				info->rtr |= SOFTRDMA_MPA_RTR_WRITE;
			if (iwarp_mpa_v2_ord_flag(v2, IWARP_MPA_V2_RTR_READ))
				info->rtr |= SOFTRDMA_MPA_RTR_READ;
		}
		p += sizeof(*v2);
		pd_len -= sizeof(*v2);
		/* RFC 6581 4.2: a reply names one RTR message */
		if (reply && hweight8(info->rtr) > 1)
			return -EBADMSG;
	}
	info->pd = pd_len ? p : NULL;
	info->pd_len = pd_len;
	return markers_err;
}

void softrdma_mpa_request_init(const struct softrdma_mpa_local *local,
			       struct softrdma_mpa_info *req)
{
	u16 max_ird = min_t(u16, local->max_ird, IWARP_MPA_V2_IRD_ORD_MAX);
	u16 max_ord = min_t(u16, local->max_ord, IWARP_MPA_V2_IRD_ORD_MAX);

	memset(req, 0, sizeof(*req));
	req->rev = local->rev >= IWARP_MPA_REV2 ? IWARP_MPA_REV2 :
						  IWARP_MPA_REV1;
	req->crc = local->crc;
	req->ext_offer = local->ext;
	req->enhanced = req->rev == IWARP_MPA_REV2;
	if (!req->enhanced)
		return;
	req->ird = min(local->ird, max_ird);
	req->ord = min(local->ord, max_ord);
	req->rtr = local->rtr & SOFTRDMA_MPA_RTR_ALL;
	req->p2p = local->p2p && req->rtr;
	if (!req->p2p)
		req->rtr = 0;
}

/*
 * RFC 6581 4.2: the RTR message the initiator will send.  Write first: it
 * needs nothing at the responder; then Read, which takes one of the
 * responder's IRD slots and one of the initiator's ORD slots; Send last,
 * as it consumes a posted receive.
 */
static u8 softrdma_mpa_pick_rtr(u8 common, u16 ird, u16 peer_ord)
{
	if (common & SOFTRDMA_MPA_RTR_WRITE)
		return SOFTRDMA_MPA_RTR_WRITE;
	if ((common & SOFTRDMA_MPA_RTR_READ) && ird && peer_ord)
		return SOFTRDMA_MPA_RTR_READ;
	if (common & SOFTRDMA_MPA_RTR_SEND)
		return SOFTRDMA_MPA_RTR_SEND;
	return 0;
}

int softrdma_mpa_negotiate(const struct softrdma_mpa_local *local,
			   const struct softrdma_mpa_info *req,
			   struct softrdma_mpa_info *rep,
			   struct softrdma_mpa_result *res)
{
	u16 max_ird = min_t(u16, local->max_ird, IWARP_MPA_V2_IRD_ORD_MAX);
	u16 max_ord = min_t(u16, local->max_ord, IWARP_MPA_V2_IRD_ORD_MAX);
	u16 ird, ord;

	memset(rep, 0, sizeof(*rep));
	memset(res, 0, sizeof(*res));
	rep->reply = true;
	rep->rev = min_t(u8, req->rev, local->rev >= IWARP_MPA_REV2 ?
					IWARP_MPA_REV2 : IWARP_MPA_REV1);
	/* RFC 5044 7.1: CRC if either end sets C */
	rep->crc = req->crc || local->crc;
	rep->enhanced = req->enhanced && rep->rev == IWARP_MPA_REV2;

	if (req->markers) {
		rep->reject = true;
		return -EOPNOTSUPP;
	}

	if (rep->enhanced) {
		/*
		 * RFC 6581 4.1: our IRD should cover the peer's ORD, and our
		 * ORD must not exceed the peer's IRD.  If the device cannot
		 * reach the peer's ORD we answer less; the initiator lowers
		 * its ORD (softrdma_mpa_check_reply()) or gives up.
		 */
		ird = min(max(local->ird, req->ord), max_ird);
		ord = min3(local->ord, req->ird, max_ord);
	} else {
		ird = min(local->ird, max_ird);
		ord = min(local->ord, max_ord);
	}

	if (rep->enhanced) {
		rep->ird = ird;
		rep->ord = ord;
		if (req->p2p && local->p2p) {
			u8 rtr = softrdma_mpa_pick_rtr(req->rtr & local->rtr,
						       ird, req->ord);

			rep->p2p = true;
			if (!rtr) {
				rep->reject = true;
				return -EOPNOTSUPP;
			}
			rep->rtr = rtr;
		}
	}

	rep->ext_accept = local->ext && req->ext_offer;

	res->crc = rep->crc;
	res->ird = ird;
	res->ord = ord;
	res->rtr = rep->rtr;
	res->ext = rep->ext_accept;
	return 0;
}

int softrdma_mpa_check_reply(const struct softrdma_mpa_local *local,
			     const struct softrdma_mpa_info *req,
			     const struct softrdma_mpa_info *rep,
			     struct softrdma_mpa_result *res)
{
	memset(res, 0, sizeof(*res));
	if (rep->reject)
		return -ECONNREFUSED;
	if (rep->rev > req->rev || rep->markers)
		return -EPROTO;
	/* RFC 5044 7.1: the responder must honour a C it received */
	if (req->crc && !rep->crc)
		return -EPROTO;
	res->crc = rep->crc;

	/* a revision 2 answer to a revision 2 request carries the block */
	if (rep->enhanced != (req->enhanced && rep->rev == IWARP_MPA_REV2))
		return -EPROTO;

	res->ird = req->ird;
	res->ord = req->ord;
	if (!req->enhanced) {
		u16 max_ird = min_t(u16, local->max_ird,
				    IWARP_MPA_V2_IRD_ORD_MAX);
		u16 max_ord = min_t(u16, local->max_ord,
				    IWARP_MPA_V2_IRD_ORD_MAX);

		res->ird = min(local->ird, max_ird);
		res->ord = min(local->ord, max_ord);
	}
	if (rep->enhanced) {
		/* RFC 6581 4.1: the peer reads no more than we accept */
		if (rep->ord > req->ird)
			return -EPROTO;
		res->ord = min(req->ord, rep->ird);

		if (rep->p2p) {
			if (!req->p2p || hweight8(rep->rtr) != 1 ||
			    (rep->rtr & ~req->rtr))
				return -EPROTO;
			if (rep->rtr == SOFTRDMA_MPA_RTR_READ && !res->ord)
				return -EPROTO;
			res->rtr = rep->rtr;
		}
	}

	res->ext = req->ext_offer && rep->ext_accept;
	return 0;
}

unsigned int softrdma_mpa_mulpdu(unsigned int emss, bool markers)
{
	unsigned int overhead = IWARP_MPA_LEN_SIZE + IWARP_MPA_CRC_SIZE +
				emss % 4;

	if (markers)
		overhead += IWARP_MPA_MARKER_SIZE *
			    DIV_ROUND_UP(emss, IWARP_MPA_MARKER_SPACING);
	if (emss <= overhead)
		return 0;
	return min_t(unsigned int, emss - overhead, IWARP_MPA_MAX_ULPDU);
}

unsigned int softrdma_mpa_max_ulpdu(const struct softrdma_mpa_result *res,
				    unsigned int emss)
{
	if (res->ext)
		return IWARP_MPA_EXT_MAX_ULPDU;
	return softrdma_mpa_mulpdu(emss, false);
}

/* A buffer longer than one call of softrdma_mpa_crc32c() takes */
u32 softrdma_mpa_crc_update_long(u32 state, const void *buf, size_t len)
{
	const u8 *p = buf;

	while (len) {
		unsigned int n = min_t(size_t, len, UINT_MAX);

		state = softrdma_mpa_crc32c(state, p, n);
		p += n;
		len -= n;
	}
	return state;
}

/* @len bytes from @offset into the (possibly compound) page @page */
static u32 softrdma_mpa_crc_page(u32 state, struct page *page,
				 unsigned int offset, unsigned int len)
{
	unsigned long idx = offset / PAGE_SIZE;

	offset %= PAGE_SIZE;
	while (len) {
		unsigned int n = min_t(unsigned int, len, PAGE_SIZE - offset);
		void *va = kmap_local_page(softrdma_nth_page(page, idx));

		state = softrdma_mpa_crc32c(state, va + offset, n);
		kunmap_local(va);
		len -= n;
		offset = 0;
		idx++;
	}
	return state;
}

u32 softrdma_mpa_crc_update_frags(u32 state,
				  const struct softrdma_mpa_frag *frags,
				  unsigned int nr_frags)
{
	unsigned int i;

	for (i = 0; i < nr_frags; i++)
		state = softrdma_mpa_crc_page(state, frags[i].page,
					      frags[i].offset, frags[i].len);
	return state;
}

u32 softrdma_mpa_crc_update_skb(u32 state, const struct sk_buff *skb,
				unsigned int offset, unsigned int len)
{
	unsigned int start = skb_headlen(skb), end;
	const struct sk_buff *frag_iter;
	unsigned int i, n;

	if (offset < start) {
		n = min(len, start - offset);
		state = softrdma_mpa_crc32c(state, skb->data + offset, n);
		offset += n;
		len -= n;
	}
	for (i = 0; len && i < skb_shinfo(skb)->nr_frags; i++) {
		const skb_frag_t *frag = &skb_shinfo(skb)->frags[i];

		end = start + skb_frag_size(frag);
		if (offset < end) {
			n = min(len, end - offset);
			state = softrdma_mpa_crc_page(state,
						      skb_frag_page(frag),
						      skb_frag_off(frag) +
						      offset - start, n);
			offset += n;
			len -= n;
		}
		start = end;
	}
	skb_walk_frags(skb, frag_iter) {
		if (!len)
			break;
		end = start + frag_iter->len;
		if (offset < end) {
			n = min(len, end - offset);
			state = softrdma_mpa_crc_update_skb(state, frag_iter,
							    offset - start, n);
			offset += n;
			len -= n;
		}
		start = end;
	}
	return state;
}

u32 softrdma_mpa_crc_buf(const void *fpdu, size_t len)
{
	u32 state = softrdma_mpa_crc_init();

	return softrdma_mpa_crc_final(softrdma_mpa_crc_update(state, fpdu,
							       len));
}

u32 softrdma_mpa_crc_frags(const struct softrdma_mpa_frag *frags,
			   unsigned int nr_frags)
{
	u32 state = softrdma_mpa_crc_init();

	state = softrdma_mpa_crc_update_frags(state, frags, nr_frags);
	return softrdma_mpa_crc_final(state);
}

unsigned int softrdma_mpa_markers_in(u32 stream_off, u32 wire_len)
{
	u64 first, last;

	if (!wire_len)
		return 0;
	first = DIV_ROUND_UP_ULL((u64)stream_off, IWARP_MPA_MARKER_SPACING);
	last = div_u64((u64)stream_off + wire_len - 1,
		       IWARP_MPA_MARKER_SPACING);
	return last >= first ? last - first + 1 : 0;
}

u32 softrdma_mpa_fpdu_wire_len(u32 stream_off, unsigned int fpdu_len)
{
	u64 pos = stream_off, left = fpdu_len, wire = 0;

	while (left) {
		u64 marker = round_up(pos, IWARP_MPA_MARKER_SPACING);
		u64 before = marker - pos;

		if (before >= left) {
			wire += left;
			break;
		}
		wire += before + IWARP_MPA_MARKER_SIZE;
		left -= before;
		pos = marker + IWARP_MPA_MARKER_SIZE;
	}
	return wire;
}
