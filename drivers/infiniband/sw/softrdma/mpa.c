// SPDX-License-Identifier: GPL-2.0-only
/*
 * MPA request/reply frames, their negotiation, and FPDU framing helpers
 * (RFC 5044, RFC 6581).  API in mpa.h.
 *
 * Stubs: every function fails with -EOPNOTSUPP or returns 0 until the
 * implementation lands; the API is final.
 */
#include <linux/errno.h>

#include "mpa.h"

unsigned int softrdma_mpa_frame_len(const struct softrdma_mpa_info *info)
{
	return 0;
}

int softrdma_mpa_encode(const struct softrdma_mpa_info *info, void *buf,
			size_t len)
{
	return -EOPNOTSUPP;
}

int softrdma_mpa_parse_hdr(const struct iwarp_mpa_rr *hdr, bool reply,
			   u16 *pd_len)
{
	return -EOPNOTSUPP;
}

int softrdma_mpa_parse(const void *buf, size_t len, bool reply,
		       struct softrdma_mpa_info *info)
{
	return -EOPNOTSUPP;
}

void softrdma_mpa_request_init(const struct softrdma_mpa_local *local,
			       struct softrdma_mpa_info *req)
{
}

int softrdma_mpa_negotiate(const struct softrdma_mpa_local *local,
			   const struct softrdma_mpa_info *req,
			   struct softrdma_mpa_info *rep,
			   struct softrdma_mpa_result *res)
{
	return -EOPNOTSUPP;
}

int softrdma_mpa_check_reply(const struct softrdma_mpa_local *local,
			     const struct softrdma_mpa_info *req,
			     const struct softrdma_mpa_info *rep,
			     struct softrdma_mpa_result *res)
{
	return -EOPNOTSUPP;
}

unsigned int softrdma_mpa_mulpdu(unsigned int emss, bool markers)
{
	return 0;
}

unsigned int softrdma_mpa_max_ulpdu(const struct softrdma_mpa_result *res,
				    unsigned int emss)
{
	return 0;
}

u32 softrdma_mpa_crc_update(u32 state, const void *buf, size_t len)
{
	return state;
}

u32 softrdma_mpa_crc_update_frags(u32 state,
				  const struct softrdma_mpa_frag *frags,
				  unsigned int nr_frags)
{
	return state;
}

u32 softrdma_mpa_crc_update_skb(u32 state, const struct sk_buff *skb,
				unsigned int offset, unsigned int len)
{
	return state;
}

u32 softrdma_mpa_crc_buf(const void *fpdu, size_t len)
{
	return 0;
}

u32 softrdma_mpa_crc_frags(const struct softrdma_mpa_frag *frags,
			   unsigned int nr_frags)
{
	return 0;
}

unsigned int softrdma_mpa_markers_in(u32 stream_off, u32 wire_len)
{
	return 0;
}

u32 softrdma_mpa_fpdu_wire_len(u32 stream_off, unsigned int fpdu_len)
{
	return 0;
}
