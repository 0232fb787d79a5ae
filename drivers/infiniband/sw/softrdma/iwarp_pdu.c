// SPDX-License-Identifier: GPL-2.0-only
/*
 * DDP (RFC 5041) and RDMAP (RFC 5040) header codec and TERMINATE
 * messages.  API in iwarp_pdu.h.
 *
 * Stubs: every function fails with -EOPNOTSUPP, NULL or
 * SOFTRDMA_IWERR_CATASTROPHIC until the implementation lands; the API is
 * final.
 */
#include <linux/errno.h>

#include "iwarp_pdu.h"

const struct softrdma_iwarp_op *softrdma_iwarp_op(u8 opcode)
{
	return NULL;
}

const struct softrdma_iwarp_err_info *
softrdma_iwarp_err_info(enum softrdma_iwarp_err err)
{
	return NULL;
}

int softrdma_iwarp_build_tagged(struct iwarp_tagged_hdr *hdr, u8 opcode,
				bool last, u32 stag, u64 to,
				unsigned int payload_len)
{
	return -EOPNOTSUPP;
}

int softrdma_iwarp_build_untagged(struct iwarp_untagged_hdr *hdr,
				  u8 opcode, bool last, u32 inval_stag,
				  u32 msn, u32 mo, unsigned int payload_len)
{
	return -EOPNOTSUPP;
}

int softrdma_iwarp_build_read_req(struct iwarp_read_req *hdr, u32 msn,
				  const struct softrdma_iwarp_rreq *rreq)
{
	return -EOPNOTSUPP;
}

unsigned int softrdma_iwarp_hdr_len(const struct iwarp_ctrl *ctrl)
{
	return 0;
}

enum softrdma_iwarp_err softrdma_iwarp_parse(const void *buf, size_t avail,
					     struct softrdma_iwarp_pdu *pdu)
{
	return SOFTRDMA_IWERR_CATASTROPHIC;
}

int softrdma_iwarp_term_from_err(enum softrdma_iwarp_err err,
				 const void *fpdu, size_t avail,
				 struct softrdma_iwarp_term *term)
{
	return -EOPNOTSUPP;
}

int softrdma_iwarp_build_terminate(void *buf, size_t len, u32 msn,
				   const struct softrdma_iwarp_term *term)
{
	return -EOPNOTSUPP;
}

enum softrdma_iwarp_err
softrdma_iwarp_parse_terminate(const void *buf, size_t avail,
			       const struct softrdma_iwarp_pdu *pdu,
			       struct softrdma_iwarp_term *term)
{
	return SOFTRDMA_IWERR_CATASTROPHIC;
}
