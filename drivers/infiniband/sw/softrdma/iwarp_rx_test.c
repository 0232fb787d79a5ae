// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the iWARP receive engine's FPDU parser (iwarp_rx.c):
 * a stream of FPDUs of every kind (RFC 5040 4, RFC 5041 4, RFC 5044 4)
 * fed in pieces of every size, linear and paged, must come out as the
 * same headers, the same payload bytes and good CRCs; a corrupted byte,
 * a bad header or a short MPA length must be caught.  And tagged
 * placement: an RDMA Write split anywhere lands whole, and between two
 * pieces of it the engine holds no reference on the target MR, so that
 * deregistering it never waits for the peer.
 */
#include <kunit/test.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/skbuff.h>
#include <linux/xarray.h>

#include "compat.h"
#include "counters.h"
#include "device.h"
#include "iwarp_hdr.h"
#include "iwarp_pdu.h"
#include "iwarp_qp.h"
#include "iwarp_rx.h"
#include "mpa.h"
#include "mr.h"
#include "qp.h"

#define IW_STREAM_MAX	8192
#define IW_MAX_FPDUS	8
#define IW_PAYLOAD_MAX	2048

struct iw_stream {
	u8 buf[IW_STREAM_MAX];
	size_t len;
	unsigned int nfpdu;
	/* what each FPDU carries */
	u8 opcode[IW_MAX_FPDUS];
	u32 plen[IW_MAX_FPDUS];
	const u8 *payload[IW_MAX_FPDUS];
	size_t start[IW_MAX_FPDUS];
};

/* What the parser reported */
struct iw_seen {
	unsigned int nhdr;
	unsigned int nend;
	unsigned int nerr;
	unsigned int nwhole;	/* FPDUs reported whole (EV_FPDU) */
	unsigned int crc_bad;
	enum softrdma_iwarp_err err;
	struct softrdma_iwarp_pdu pdu[IW_MAX_FPDUS];
	bool crc_ok[IW_MAX_FPDUS];
	u8 data[IW_MAX_FPDUS][IW_PAYLOAD_MAX];
	u32 data_len[IW_MAX_FPDUS];
};

static u8 iw_pattern[IW_PAYLOAD_MAX];

/* Append header + payload + pad + CRC (or a zero CRC field) */
static void iw_put(struct kunit *test, struct iw_stream *s, const void *hdr,
		   size_t hdr_len, const u8 *payload, u32 plen, bool crc)
{
	u8 *p = s->buf + s->len;
	u32 ulpdu = hdr_len - IWARP_MPA_LEN_SIZE + plen;
	u32 pad = softrdma_mpa_pad(ulpdu);

	KUNIT_ASSERT_LT(test, s->nfpdu, (unsigned int)IW_MAX_FPDUS);
	KUNIT_ASSERT_LE(test, s->len + softrdma_mpa_fpdu_len(ulpdu),
			(size_t)IW_STREAM_MAX);
	memcpy(p, hdr, hdr_len);
	memcpy(p + hdr_len, payload, plen);
	memset(p + hdr_len + plen, 0, pad);
	softrdma_mpa_crc_put(p + hdr_len + plen + pad,
			     crc ? softrdma_mpa_crc_buf(p, hdr_len + plen + pad) :
				   0);
	s->opcode[s->nfpdu] = iwarp_rdmap_opcode(hdr);
	s->plen[s->nfpdu] = plen;
	s->payload[s->nfpdu] = payload;
	s->start[s->nfpdu] = s->len;
	s->nfpdu++;
	s->len += softrdma_mpa_fpdu_len(ulpdu);
}

/* Send, Write, Send SE+Inv (empty), Read Request, Read Response, TERMINATE */
static void iw_build_stream(struct kunit *test, struct iw_stream *s, bool crc)
{
	struct softrdma_iwarp_rreq rreq = {
		.sink_stag = 0x11223344, .sink_to = 0x1000, .size = 4095,
		.src_stag = 0x55667788, .src_to = 0x7fff0000,
	};
	struct softrdma_iwarp_term term;
	struct iwarp_untagged_hdr uh;
	struct iwarp_tagged_hdr th;
	struct iwarp_read_req rr;
	u8 tbuf[128];
	int len;

	KUNIT_ASSERT_GT(test, softrdma_iwarp_build_untagged(&uh, IWARP_OP_SEND,
							    true, 0, 1, 0, 5),
			0);
	iw_put(test, s, &uh, sizeof(uh), iw_pattern, 5, crc);

	KUNIT_ASSERT_GT(test, softrdma_iwarp_build_tagged(&th, IWARP_OP_WRITE,
							  true, 0x1234, 0x1000,
							  1001), 0);
	iw_put(test, s, &th, sizeof(th), iw_pattern + 7, 1001, crc);

	KUNIT_ASSERT_GT(test,
			softrdma_iwarp_build_untagged(&uh, IWARP_OP_SEND_SE_INV,
						      true, 0xabcd, 2, 0, 0), 0);
	iw_put(test, s, &uh, sizeof(uh), iw_pattern, 0, crc);

	KUNIT_ASSERT_GT(test, softrdma_iwarp_build_read_req(&rr, 1, &rreq), 0);
	iw_put(test, s, &rr, sizeof(rr), iw_pattern, 0, crc);

	KUNIT_ASSERT_GT(test,
			softrdma_iwarp_build_tagged(&th, IWARP_OP_READ_RESP,
						    false, 0x11223344, 0x1000,
						    3), 0);
	iw_put(test, s, &th, sizeof(th), iw_pattern + 100, 3, crc);

	KUNIT_ASSERT_EQ(test, softrdma_iwarp_term_from_err(SOFTRDMA_IWERR_CRC,
							   s->buf, 20, &term),
			0);
	len = softrdma_iwarp_build_terminate(tbuf, sizeof(tbuf), 1, &term);
	KUNIT_ASSERT_GT(test, len, (int)sizeof(struct iwarp_terminate_hdr) - 1);
	iw_put(test, s, tbuf, len, iw_pattern, 0, crc);
}

/*
 * However it came in, an FPDU that ended leaves its header in rx->hdr
 * for a TERMINATE raised while it is finished (an invalid STag to
 * invalidate, a full IRQ), and the parser in ENDED until the next call.
 */
static void iw_expect_hdr_kept(struct kunit *test,
			       const struct softrdma_iw_rx *rx,
			       const struct softrdma_iwarp_pdu *pdu)
{
	KUNIT_EXPECT_EQ(test, rx->state, SOFTRDMA_IW_RX_ENDED);
	KUNIT_EXPECT_GE(test, rx->hdr_got, pdu->hdr_len);
	KUNIT_EXPECT_EQ(test,
			iwarp_rdmap_opcode((const struct iwarp_ctrl *)rx->hdr),
			pdu->opcode);
	KUNIT_EXPECT_EQ(test,
			iwarp_mpa_len((const struct iwarp_ctrl *)rx->hdr),
			pdu->ulpdu_len);
}

static void iw_record(struct kunit *test, struct iw_seen *seen,
		      const struct softrdma_iw_rx *rx, const struct sk_buff *skb,
		      const struct softrdma_iw_ev *ev)
{
	unsigned int i = seen->nend;

	switch (ev->type) {
	case SOFTRDMA_IW_EV_HDR:
		KUNIT_ASSERT_LT(test, i, (unsigned int)IW_MAX_FPDUS);
		KUNIT_EXPECT_EQ(test, seen->nhdr, seen->nend);
		seen->pdu[i] = rx->pdu;
		seen->nhdr++;
		break;
	case SOFTRDMA_IW_EV_DATA:
		KUNIT_ASSERT_LE(test, ev->mo + ev->len, (u32)IW_PAYLOAD_MAX);
		/* in order, no gap, no overlap */
		KUNIT_EXPECT_EQ(test, ev->mo, seen->data_len[i]);
		KUNIT_ASSERT_EQ(test, skb_copy_bits(skb, ev->off,
						    seen->data[i] + ev->mo,
						    ev->len), 0);
		seen->data_len[i] += ev->len;
		break;
	case SOFTRDMA_IW_EV_END:
		KUNIT_ASSERT_LT(test, i, (unsigned int)IW_MAX_FPDUS);
		iw_expect_hdr_kept(test, rx, &seen->pdu[i]);
		seen->crc_ok[i] = ev->crc_ok;
		seen->crc_bad += !ev->crc_ok;
		seen->nend++;
		break;
	case SOFTRDMA_IW_EV_ERR:
		seen->nerr++;
		seen->err = ev->err;
		break;
	case SOFTRDMA_IW_EV_FPDU:
		/* a header, all its payload from offset 0, a good CRC */
		KUNIT_ASSERT_LT(test, i, (unsigned int)IW_MAX_FPDUS);
		KUNIT_EXPECT_EQ(test, seen->nhdr, seen->nend);
		KUNIT_EXPECT_TRUE(test, ev->crc_ok);
		KUNIT_EXPECT_EQ(test, ev->len, rx->pdu.payload_len);
		KUNIT_ASSERT_LE(test, ev->len, (u32)IW_PAYLOAD_MAX);
		KUNIT_ASSERT_EQ(test, skb_copy_bits(skb, ev->off, seen->data[i],
						    ev->len), 0);
		seen->pdu[i] = rx->pdu;
		iw_expect_hdr_kept(test, rx, &seen->pdu[i]);
		seen->data_len[i] = ev->len;
		seen->crc_ok[i] = true;
		seen->nhdr++;
		seen->nend++;
		seen->nwhole++;
		break;
	default:
		break;
	}
}

/* An skb holding @len bytes of @data, in its head or in page frags */
static struct sk_buff *iw_skb(struct kunit *test, const u8 *data, size_t len,
			      bool paged)
{
	struct sk_buff *skb;
	size_t off = 0;

	if (!paged) {
		skb = alloc_skb(len, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, skb);
		skb_put_data(skb, data, len);
		return skb;
	}
	/* two bytes of head, the rest in frags of at most 700 bytes */
	skb = alloc_skb(2, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	off = min_t(size_t, len, 2);
	skb_put_data(skb, data, off);
	while (off < len) {
		size_t n = min_t(size_t, len - off, 700);
		struct page *page = alloc_page(GFP_KERNEL);
		int i = skb_shinfo(skb)->nr_frags;

		KUNIT_ASSERT_NOT_NULL(test, page);
		KUNIT_ASSERT_LT(test, i, MAX_SKB_FRAGS);
		memcpy(page_address(page) + 100, data + off, n);
		skb_fill_page_desc(skb, i, page, 100, n);
		skb->len += n;
		skb->data_len += n;
		skb->truesize += PAGE_SIZE;
		off += n;
	}
	return skb;
}

/* Feed @s to a parser in pieces of @chunk bytes */
static void iw_feed(struct kunit *test, struct softrdma_iw_rx *rx,
		    struct iw_seen *seen, const u8 *buf, size_t len,
		    size_t chunk, bool paged)
{
	struct softrdma_iw_ev ev;
	size_t pos, off, n;
	struct sk_buff *skb;

	for (pos = 0; pos < len; pos += n) {
		n = min(chunk, len - pos);
		skb = iw_skb(test, buf + pos, n, paged);
		for (off = 0; off < n;) {
			unsigned int used = softrdma_iw_rx_parse(rx, skb, off,
								 n - off, &ev);

			KUNIT_ASSERT_GT(test, used, 0U);
			KUNIT_ASSERT_LE(test, (size_t)used, n - off);
			iw_record(test, seen, rx, skb, &ev);
			off += used;
		}
		kfree_skb(skb);
	}
}

struct iw_chunk_case {
	const char *name;
	size_t chunk;
	bool paged;
};

static const struct iw_chunk_case iw_chunk_cases[] = {
	{ "byte_by_byte", 1, false },
	{ "pairs", 2, false },
	{ "threes", 3, false },
	{ "fives", 5, false },
	{ "sevens", 7, false },
	{ "thirteens", 13, false },
	{ "64", 64, false },
	{ "1000", 1000, false },
	{ "1500", 1500, false },
	{ "whole", IW_STREAM_MAX, false },
	{ "paged_1500", 1500, true },
	{ "paged_whole", IW_STREAM_MAX, true },
	{ "paged_sevens", 7, true },
};

static void iw_chunk_case_desc(const struct iw_chunk_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(iw_chunk, iw_chunk_cases, iw_chunk_case_desc);

static int softrdma_iwarp_rx_init(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < IW_PAYLOAD_MAX; i++)
		iw_pattern[i] = i * 7 + (i >> 8);
	return 0;
}

static void iw_alloc(struct kunit *test, struct iw_stream **s,
		     struct iw_seen **seen, struct softrdma_iw_rx **rx)
{
	*s = kunit_kzalloc(test, sizeof(**s), GFP_KERNEL);
	*seen = kunit_kzalloc(test, sizeof(**seen), GFP_KERNEL);
	*rx = kunit_kzalloc(test, sizeof(**rx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, *s);
	KUNIT_ASSERT_NOT_NULL(test, *seen);
	KUNIT_ASSERT_NOT_NULL(test, *rx);
}

/* Every split of the stream gives the same FPDUs, payload and CRCs */
static void softrdma_iwarp_rx_any_split(struct kunit *test)
{
	const struct iw_chunk_case *c = test->param_value;
	struct softrdma_iw_rx *rx;
	struct iw_stream *s;
	struct iw_seen *seen;
	unsigned int i;

	iw_alloc(test, &s, &seen, &rx);
	iw_build_stream(test, s, true);
	softrdma_iw_rx_reset(rx, true);
	iw_feed(test, rx, seen, s->buf, s->len, c->chunk, c->paged);

	KUNIT_EXPECT_EQ(test, seen->nerr, 0U);
	KUNIT_EXPECT_EQ(test, seen->crc_bad, 0U);
	KUNIT_ASSERT_EQ(test, seen->nend, s->nfpdu);
	KUNIT_EXPECT_EQ(test, seen->nhdr, s->nfpdu);
	for (i = 0; i < s->nfpdu; i++) {
		KUNIT_EXPECT_EQ(test, seen->pdu[i].opcode, s->opcode[i]);
		KUNIT_EXPECT_TRUE(test, seen->crc_ok[i]);
		if (s->opcode[i] == IWARP_OP_TERMINATE)
			continue;	/* read whole, as header */
		KUNIT_EXPECT_EQ(test, seen->data_len[i], s->plen[i]);
		KUNIT_EXPECT_EQ(test, seen->pdu[i].payload_len, s->plen[i]);
		KUNIT_EXPECT_EQ(test, memcmp(seen->data[i], s->payload[i],
					     s->plen[i]), 0);
	}
	/* the decoded headers: what each builder was given */
	KUNIT_EXPECT_EQ(test, seen->pdu[0].msn, 1U);
	KUNIT_EXPECT_TRUE(test, seen->pdu[0].last);
	KUNIT_EXPECT_EQ(test, seen->pdu[1].stag, 0x1234U);
	KUNIT_EXPECT_EQ(test, seen->pdu[1].to, 0x1000ULL);
	KUNIT_EXPECT_EQ(test, seen->pdu[2].inval_stag, 0xabcdU);
	KUNIT_EXPECT_EQ(test, seen->pdu[2].msn, 2U);
	KUNIT_EXPECT_EQ(test, seen->pdu[3].rreq.size, 4095U);
	KUNIT_EXPECT_EQ(test, seen->pdu[3].rreq.src_stag, 0x55667788U);
	KUNIT_EXPECT_EQ(test, seen->pdu[3].rreq.src_to, 0x7fff0000ULL);
	KUNIT_EXPECT_FALSE(test, seen->pdu[4].last);
	KUNIT_EXPECT_EQ(test, rx->state, SOFTRDMA_IW_RX_ENDED);
	/*
	 * Whole FPDUs come out as one event only from linear data holding
	 * all of one; a TERMINATE never does (read as a header).
	 */
	if (c->paged || c->chunk < 24)
		KUNIT_EXPECT_EQ(test, seen->nwhole, 0U);
	else
		KUNIT_EXPECT_GT(test, seen->nwhole, 0U);
	if (c->chunk == IW_STREAM_MAX && !c->paged)
		KUNIT_EXPECT_EQ(test, seen->nwhole, s->nfpdu - 1);
}

/*
 * One flipped bit anywhere in an FPDU, its pad too, fails its CRC, and
 * only its own: with the FPDU split across skbs (its CRC taken piece by
 * piece) and with the stream in one linear skb (each FPDU's CRC in one
 * pass).
 */
static void softrdma_iwarp_rx_crc_error(struct kunit *test)
{
	static const size_t where[] = { 0, 3, 17, 500, 1016, 1018 };
	static const size_t chunks[] = { 97, IW_STREAM_MAX };
	struct softrdma_iw_rx *rx;
	struct iw_stream *s;
	struct iw_seen *seen;
	unsigned int i, j, k;
	size_t at;

	iw_alloc(test, &s, &seen, &rx);
	iw_build_stream(test, s, true);
	for (j = 0; j < ARRAY_SIZE(chunks) * ARRAY_SIZE(where); j++) {
		k = j % ARRAY_SIZE(where);
		/* bytes of the Write FPDU (the second) */
		at = s->start[1] + where[k];
		/* the length field itself would derail the stream */
		if (where[k] < IWARP_MPA_LEN_SIZE)
			at += IWARP_MPA_LEN_SIZE;
		s->buf[at] ^= 0x10;
		memset(seen, 0, sizeof(*seen));
		softrdma_iw_rx_reset(rx, true);
		iw_feed(test, rx, seen, s->buf, s->len,
			chunks[j / ARRAY_SIZE(where)], false);
		s->buf[at] ^= 0x10;

		KUNIT_EXPECT_EQ(test, seen->crc_bad, 1U);
		KUNIT_ASSERT_EQ(test, seen->nend, s->nfpdu);
		for (i = 0; i < s->nfpdu; i++)
			KUNIT_EXPECT_EQ(test, seen->crc_ok[i], i != 1);
	}
}

/* Without CRCs the field is not checked */
static void softrdma_iwarp_rx_crc_off(struct kunit *test)
{
	struct softrdma_iw_rx *rx;
	struct iw_stream *s;
	struct iw_seen *seen;

	iw_alloc(test, &s, &seen, &rx);
	iw_build_stream(test, s, false);
	softrdma_iw_rx_reset(rx, false);
	iw_feed(test, rx, seen, s->buf, s->len, 333, false);
	KUNIT_EXPECT_EQ(test, seen->nerr, 0U);
	KUNIT_EXPECT_EQ(test, seen->crc_bad, 0U);
	KUNIT_EXPECT_EQ(test, seen->nend, s->nfpdu);
}

/* A bad DDP version ends the stream: one error, then silence */
static void softrdma_iwarp_rx_bad_version(struct kunit *test)
{
	struct softrdma_iw_rx *rx;
	struct iw_stream *s;
	struct iw_seen *seen;
	struct iwarp_ctrl *c;

	iw_alloc(test, &s, &seen, &rx);
	iw_build_stream(test, s, true);
	c = (struct iwarp_ctrl *)(s->buf + s->start[1]);
	c->ddp = (c->ddp & ~IWARP_DDP_DV) | 2;
	softrdma_iw_rx_reset(rx, true);
	iw_feed(test, rx, seen, s->buf, s->len, 11, false);
	KUNIT_EXPECT_EQ(test, seen->nerr, 1U);
	KUNIT_EXPECT_EQ(test, seen->err, SOFTRDMA_IWERR_DDP_VERSION_T);
	/* the first FPDU was fine; nothing after the bad header */
	KUNIT_EXPECT_EQ(test, seen->nend, 1U);
	KUNIT_EXPECT_EQ(test, rx->state, SOFTRDMA_IW_RX_DEAD);
}

/* An MPA length shorter than the opcode's header is caught */
static void softrdma_iwarp_rx_short_len(struct kunit *test)
{
	struct softrdma_iw_rx *rx;
	struct iw_stream *s;
	struct iw_seen *seen;
	struct iwarp_ctrl *c;

	iw_alloc(test, &s, &seen, &rx);
	iw_build_stream(test, s, true);
	/* the Read Request (fourth) claims a 10-byte ULPDU */
	c = (struct iwarp_ctrl *)(s->buf + s->start[3]);
	iwarp_set_mpa_len(c, 10);
	softrdma_iw_rx_reset(rx, true);
	iw_feed(test, rx, seen, s->buf, s->len, 1, false);
	KUNIT_EXPECT_EQ(test, seen->nerr, 1U);
	KUNIT_EXPECT_EQ(test, seen->err, SOFTRDMA_IWERR_SHORT);
	KUNIT_EXPECT_EQ(test, seen->nend, 3U);
}

#if SOFTRDMA_HAVE_UNREADABLE_FRAGS
/*
 * An skb whose frags the host cannot read (device memory, 6.12; the
 * skb's flag tells, the pages here are ordinary) comes at a point of the
 * stream: the stream ends there as a local failure, the skb consumed
 * whole, nothing of it parsed.  Before 6.12 every frag is readable.
 */
struct iw_unreadable_case {
	const char *name;
	unsigned int fpdu;	/* the FPDU of the stream it comes in */
	size_t off;		/* from that FPDU's start */
};

static const struct iw_unreadable_case iw_unreadable_cases[] = {
	/* what the parser copies (skb_copy_bits() refuses the skb) */
	{ "at_fpdu_start", 1, 0 },
	{ "in_header", 1, 6 },
	{ "in_crc", 1, 1020 },
	/* what it would take its CRC over and have placed */
	{ "in_payload", 1, 100 },
};

static void iw_unreadable_case_desc(const struct iw_unreadable_case *c,
				    char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(iw_unreadable, iw_unreadable_cases, iw_unreadable_case_desc);

static void softrdma_iwarp_rx_unreadable(struct kunit *test)
{
	const struct iw_unreadable_case *c = test->param_value;
	struct softrdma_iw_ev ev = {};
	struct softrdma_iw_rx *rx;
	struct iw_seen *seen;
	struct iw_stream *s;
	struct sk_buff *skb;
	unsigned int used;
	size_t at;

	iw_alloc(test, &s, &seen, &rx);
	iw_build_stream(test, s, true);
	at = s->start[c->fpdu] + c->off;
	KUNIT_ASSERT_LT(test, at, s->len);
	softrdma_iw_rx_reset(rx, true);
	iw_feed(test, rx, seen, s->buf, at, 97, false);
	KUNIT_ASSERT_EQ(test, seen->nerr, 0U);

	skb = iw_skb(test, s->buf + at, s->len - at, true);
	skb->unreadable = 1;
	used = softrdma_iw_rx_parse(rx, skb, 0, skb->len, &ev);
	KUNIT_EXPECT_EQ(test, used, skb->len);
	KUNIT_EXPECT_EQ(test, ev.type, SOFTRDMA_IW_EV_ERR);
	KUNIT_EXPECT_EQ(test, ev.err, SOFTRDMA_IWERR_CATASTROPHIC);
	KUNIT_EXPECT_EQ(test, rx->state, SOFTRDMA_IW_RX_DEAD);
	kfree_skb(skb);
}
#endif

/* An RDMA Write target: a user-type MR over kernel pages */
#define IW_MR_PAGES	2
#define IW_MR_IOVA	0x7f0000001000ULL
#define IW_WRITE_LEN	(PAGE_SIZE + 500)
static_assert(IW_MR_PAGES * PAGE_SIZE >= IW_WRITE_LEN);
static_assert(IW_STREAM_MAX - 64 >= IW_WRITE_LEN);

struct iw_place {
	struct softrdma_dev *sdev;
	struct ib_pd pd;
	struct page *pages[IW_MR_PAGES];
	struct softrdma_mr *mr;
	struct softrdma_qp *qp;
	u8 *payload;
	struct iw_stream *s;
};

static void iw_place_exit(struct kunit *test)
{
	struct iw_place *p = test->priv;
	int i;

	if (!p)
		return;
	/*
	 * No softrdma_mr_remove() here: a case that failed may have left a
	 * reference behind, and the wait would never end.
	 */
	xa_destroy(&p->sdev->mr_xa);
	softrdma_counters_free(p->sdev);
	for (i = 0; i < IW_MR_PAGES; i++)
		if (p->pages[i])
			__free_page(p->pages[i]);
	/* the next parameter of a case starts without a fixture */
	test->priv = NULL;
}

/* A QP in RTS with an MR in its PD, the stream one Write into all of it */
static struct iw_place *iw_place_setup(struct kunit *test)
{
	struct iwarp_tagged_hdr th;
	struct softrdma_iw_qp *iwqp;
	struct iw_place *p;
	u32 i;

	p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	p->sdev = kunit_kzalloc(test, sizeof(*p->sdev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p->sdev);
	xa_init_flags(&p->sdev->mr_xa, XA_FLAGS_ALLOC1);
	test->priv = p;
	KUNIT_ASSERT_EQ(test, softrdma_counters_alloc(p->sdev), 0);
	for (i = 0; i < IW_MR_PAGES; i++) {
		p->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		KUNIT_ASSERT_NOT_NULL(test, p->pages[i]);
	}

	p->mr = kunit_kzalloc(test, sizeof(*p->mr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p->mr);
	p->mr->type = SOFTRDMA_MR_USER;
	p->mr->pd = &p->pd;
	p->mr->access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE;
	p->mr->iova = IW_MR_IOVA;
	p->mr->length = IW_MR_PAGES * PAGE_SIZE;
	p->mr->pages = p->pages;
	p->mr->npages = IW_MR_PAGES;
	KUNIT_ASSERT_EQ(test, softrdma_mr_add(p->sdev, p->mr), 0);
	KUNIT_ASSERT_EQ(test, softrdma_mr_publish(p->sdev, p->mr), 0);

	iwqp = kunit_kzalloc(test, sizeof(*iwqp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, iwqp);
	iwqp->iw = kunit_kzalloc(test, sizeof(*iwqp->iw), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, iwqp->iw);
	p->qp = &iwqp->qp;
	p->qp->sdev = p->sdev;
	p->qp->ibqp.pd = &p->pd;
	p->qp->state = IB_QPS_RTS;
	iwqp->iw->qp = p->qp;
	softrdma_iw_rx_reset(&iwqp->iw->rx, true);

	p->payload = kunit_kmalloc(test, IW_WRITE_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p->payload);
	for (i = 0; i < IW_WRITE_LEN; i++)
		p->payload[i] = i * 13 + (i >> 8);
	p->s = kunit_kzalloc(test, sizeof(*p->s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p->s);
	KUNIT_ASSERT_GT(test, softrdma_iwarp_build_tagged(&th, IWARP_OP_WRITE,
							  true, p->mr->key,
							  IW_MR_IOVA,
							  IW_WRITE_LEN), 0);
	iw_put(test, p->s, &th, sizeof(th), p->payload, IW_WRITE_LEN, true);
	return p;
}

/* Feed bytes [@from, @to) of the stream to the engine, @chunk at a time */
static void iw_place_feed(struct kunit *test, struct iw_place *p, size_t from,
			  size_t to, size_t chunk, bool paged)
{
	struct sk_buff *skb;
	size_t pos, n;

	for (pos = from; pos < to; pos += n) {
		n = min(chunk, to - pos);
		skb = iw_skb(test, p->s->buf + pos, n, paged);
		softrdma_iw_rx_bytes(p->qp, skb, 0, n);
		kfree_skb(skb);
		/* the MR's one reference is its xarray slot's */
		KUNIT_ASSERT_EQ(test, kref_read(&p->mr->ref), 1U);
		KUNIT_ASSERT_NE(test, softrdma_qp_iw(p->qp)->rx.state,
				SOFTRDMA_IW_RX_DEAD);
	}
}

static void iw_expect_placed(struct kunit *test, const struct iw_place *p,
			     size_t len)
{
	size_t off, n;

	for (off = 0; off < len; off += n) {
		n = min_t(size_t, len - off, PAGE_SIZE - off % PAGE_SIZE);
		KUNIT_EXPECT_EQ(test,
				memcmp(page_address(p->pages[off / PAGE_SIZE]) +
				       off % PAGE_SIZE, p->payload + off, n),
				0);
	}
}

/*
 * An RDMA Write fed in pieces of every size: after each piece the MR is
 * referenced by its xarray slot only, and all of the payload lands.
 */
static void softrdma_iwarp_rx_write_holds_no_mr(struct kunit *test)
{
	const struct iw_chunk_case *c = test->param_value;
	struct iw_place *p = iw_place_setup(test);

	iw_place_feed(test, p, 0, p->s->len, c->chunk, c->paged);
	KUNIT_EXPECT_EQ(test, softrdma_qp_iw(p->qp)->rx.state,
			SOFTRDMA_IW_RX_ENDED);
	iw_expect_placed(test, p, IW_WRITE_LEN);
	softrdma_mr_remove(p->sdev, p->mr);
	KUNIT_EXPECT_EQ(test, kref_read(&p->mr->ref), 0U);
}

/*
 * A peer sends a Write's header and part of its payload, then nothing:
 * deregistering the target returns (it would wait for ever if the engine
 * held the MR until the segment's end), and the bytes that came are in.
 */
static void softrdma_iwarp_rx_write_stalled_dereg(struct kunit *test)
{
	struct iw_place *p = iw_place_setup(test);
	size_t part = sizeof(struct iwarp_tagged_hdr) + 700;

	iw_place_feed(test, p, 0, part, 1500, false);
	KUNIT_EXPECT_EQ(test, softrdma_qp_iw(p->qp)->rx.state,
			SOFTRDMA_IW_RX_DATA);
	iw_expect_placed(test, p, part - sizeof(struct iwarp_tagged_hdr));
	softrdma_mr_remove(p->sdev, p->mr);
	KUNIT_EXPECT_EQ(test, kref_read(&p->mr->ref), 0U);
	KUNIT_EXPECT_NULL(test, softrdma_mr_get(p->sdev, p->mr->key));
}

static struct kunit_case softrdma_iwarp_rx_cases[] = {
	KUNIT_CASE_PARAM(softrdma_iwarp_rx_any_split, iw_chunk_gen_params),
	KUNIT_CASE(softrdma_iwarp_rx_crc_error),
	KUNIT_CASE(softrdma_iwarp_rx_crc_off),
	KUNIT_CASE(softrdma_iwarp_rx_bad_version),
	KUNIT_CASE(softrdma_iwarp_rx_short_len),
#if SOFTRDMA_HAVE_UNREADABLE_FRAGS
	KUNIT_CASE_PARAM(softrdma_iwarp_rx_unreadable, iw_unreadable_gen_params),
#endif
	KUNIT_CASE_PARAM(softrdma_iwarp_rx_write_holds_no_mr,
			 iw_chunk_gen_params),
	KUNIT_CASE(softrdma_iwarp_rx_write_stalled_dereg),
	{}
};

static struct kunit_suite softrdma_iwarp_rx_suite = {
	.name = "softrdma_iwarp_rx",
	.init = softrdma_iwarp_rx_init,
	.exit = iw_place_exit,
	.test_cases = softrdma_iwarp_rx_cases,
};

kunit_test_suite(softrdma_iwarp_rx_suite);
