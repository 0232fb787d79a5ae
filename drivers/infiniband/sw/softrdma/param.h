/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Limits softrdma advertises and enforces.  One place, so that what
 * query_device reports and what the verbs check can never disagree.
 */
#ifndef SOFTRDMA_PARAM_H
#define SOFTRDMA_PARAM_H

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/sizes.h>

#define SOFTRDMA_VENDOR_ID		0xffffff	/* no IEEE OUI */
#define SOFTRDMA_FW_MAJOR		0
#define SOFTRDMA_FW_MINOR		1
#define SOFTRDMA_FW_SUBMINOR		0

#define SOFTRDMA_MAX_UCONTEXT		512
#define SOFTRDMA_MAX_PD			SZ_64K
#define SOFTRDMA_MAX_QP			SZ_64K
#define SOFTRDMA_MAX_QP_WR		(SZ_16K - 1)
#define SOFTRDMA_MAX_SRQ		SZ_64K
#define SOFTRDMA_MAX_CQ			SZ_64K
#define SOFTRDMA_MAX_CQE		(SZ_64K - 1)
#define SOFTRDMA_MAX_MR			SZ_256K
#define SOFTRDMA_MAX_MW			SZ_64K	/* RoCE devices only */
/* blocks one fast registration maps (max_fast_reg_page_list_len) */
#define SOFTRDMA_MAX_FAST_REG_PAGES	512
#define SOFTRDMA_MAX_AH			SZ_64K
#define SOFTRDMA_MAX_QP_RD_ATOM		128
#define SOFTRDMA_MAX_RES_RD_ATOM	(SOFTRDMA_MAX_QP * SOFTRDMA_MAX_QP_RD_ATOM)
#define SOFTRDMA_LOCAL_CA_ACK_DELAY	15	/* 4.096 us * 2^15 = 134 ms */

/* RoCE devices: what the rxe user ABI can carry */
#define SOFTRDMA_ROCE_MAX_SGE		32
#define SOFTRDMA_ROCE_MAX_SGE_RD	32
#define SOFTRDMA_ROCE_MAX_INLINE	256
#define SOFTRDMA_ROCE_GID_TBL_LEN	128
#define SOFTRDMA_ROCE_MAX_MSG_SZ	BIT(31)	/* IBA 9.4: 2^31 */

/* iWARP devices: what the siw user ABI can carry (siw-abi.h) */
#define SOFTRDMA_IWARP_MAX_SGE		6
#define SOFTRDMA_IWARP_MAX_SGE_RD	1
#define SOFTRDMA_IWARP_MAX_INLINE	80
#define SOFTRDMA_IWARP_MAX_MSG_SZ	(~0U)

/* a WQE snapshot (wqe.h) holds the most any device takes: RoCE's */
#define SOFTRDMA_MAX_SGE		SOFTRDMA_ROCE_MAX_SGE
#define SOFTRDMA_MAX_INLINE		SOFTRDMA_ROCE_MAX_INLINE
static_assert(SOFTRDMA_IWARP_MAX_SGE <= SOFTRDMA_MAX_SGE);
static_assert(SOFTRDMA_IWARP_MAX_INLINE <= SOFTRDMA_MAX_INLINE);
/*
 * siw rings have power-of-two sizes, every slot usable; kernel CQs of
 * iWARP devices (rxe-layout rings, SOFTRDMA_MAX_CQE) take as many
 */
#define SOFTRDMA_IWARP_MAX_QP_WR	SZ_16K
#define SOFTRDMA_IWARP_MAX_CQE		SZ_32K

#endif /* SOFTRDMA_PARAM_H */
