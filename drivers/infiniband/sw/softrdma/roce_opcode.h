/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The RoCEv2 opcode table: for each 8-bit BTH opcode (IBA 9.2, table of
 * OpCode values), what follows the BTH, whether payload may, and what kind
 * of packet it is.  Requester, responder and completer decide from this
 * table rather than from opcode ranges.
 */
#ifndef SOFTRDMA_ROCE_OPCODE_H
#define SOFTRDMA_ROCE_OPCODE_H

#include <linux/bits.h>
#include <linux/types.h>
#include <rdma/ib_pack.h>

/*
 * IBA 1.5 (2021) adds RDMA FLUSH (0x1c) and ATOMIC WRITE (0x1d) to RC;
 * 6.1's <rdma/ib_pack.h> does not name them.  Both are in the table on
 * every kernel; the responder executes them only where the RDMA core
 * carries them (compat.h SOFTRDMA_HAVE_*).
 */
#define SOFTRDMA_OPCODE_RC_FLUSH	(IB_OPCODE_RC + 0x1c)
#define SOFTRDMA_OPCODE_RC_ATOMIC_WRITE	(IB_OPCODE_RC + 0x1d)

/*
 * Extension headers after the BTH.  The bit order is the order on the wire
 * (IBA 9.3): a packet carries its headers from the lowest set bit up.
 */
enum softrdma_roce_ext {
	SOFTRDMA_EXT_DETH	= BIT(0),
	SOFTRDMA_EXT_FETH	= BIT(1),	/* before the RETH (IBA 1.5) */
	SOFTRDMA_EXT_RETH	= BIT(2),
	SOFTRDMA_EXT_ATMETH	= BIT(3),
	SOFTRDMA_EXT_AETH	= BIT(4),
	SOFTRDMA_EXT_ATMACK	= BIT(5),
	SOFTRDMA_EXT_IMMDT	= BIT(6),
	SOFTRDMA_EXT_IETH	= BIT(7),
};

#define SOFTRDMA_EXT_ALL	GENMASK(7, 0)

enum softrdma_roce_opf {
	/* direction: exactly one of these */
	SOFTRDMA_OPF_REQ	= BIT(0),	/* requester to responder */
	SOFTRDMA_OPF_RESP	= BIT(1),	/* responder to requester */

	/* place in its message: one of these, except for a bare ACK */
	SOFTRDMA_OPF_FIRST	= BIT(2),
	SOFTRDMA_OPF_MIDDLE	= BIT(3),
	SOFTRDMA_OPF_LAST	= BIT(4),
	SOFTRDMA_OPF_ONLY	= BIT(5),

	/* operation: exactly one of these */
	SOFTRDMA_OPF_SEND	= BIT(6),
	SOFTRDMA_OPF_WRITE	= BIT(7),
	SOFTRDMA_OPF_READ	= BIT(8),	/* request and responses */
	SOFTRDMA_OPF_ATOMIC	= BIT(9),	/* CmpSwap, FetchAdd, their ACK */
	SOFTRDMA_OPF_ATOMIC_WRITE = BIT(10),
	SOFTRDMA_OPF_ACK	= BIT(11),	/* bare ACK/NAK */
	SOFTRDMA_OPF_FLUSH	= BIT(16),

	/* the packet carries data after its headers */
	SOFTRDMA_OPF_PAYLOAD	= BIT(12),
	/*
	 * the responder answers it: ACK/NAK, read response or atomic ACK;
	 * an ATOMIC WRITE or FLUSH with an RDMA READ Response Only of no
	 * payload (IBA 1.5 9.4.8, 9.4.9)
	 */
	SOFTRDMA_OPF_ACKED	= BIT(13),
	/* the message consumes a receive WQE at the responder */
	SOFTRDMA_OPF_RECV	= BIT(14),
	/* defined by IBA 1.5, not 1.4 */
	SOFTRDMA_OPF_IBA15	= BIT(15),
};

struct softrdma_roce_opcode {
	const char *name;	/* "RC_SEND_FIRST": logs and tracepoints */
	u32 flags;		/* enum softrdma_roce_opf */
	u8 ext;			/* enum softrdma_roce_ext */
};

const struct softrdma_roce_opcode *softrdma_roce_opcode(u8 opcode);
bool softrdma_roce_opcode_valid(u8 opcode);
unsigned int softrdma_roce_ext_len(u8 ext);
unsigned int softrdma_roce_hdr_len(u8 opcode);
int softrdma_roce_ext_offset(u8 opcode, enum softrdma_roce_ext ext);
bool softrdma_roce_payload_valid(u8 opcode, u32 len, u32 pmtu);

/* IBA 9.2: the low five bits of the opcode name the operation */
#define SOFTRDMA_OPCODE_OP_MASK		0x1f

/* IBA 9.2: the top three bits of the opcode name the transport */
static inline bool softrdma_roce_opcode_is_rc(u8 opcode)
{
	return (opcode & 0xe0) == IB_OPCODE_RC;
}

static inline bool softrdma_roce_opcode_is_uc(u8 opcode)
{
	return (opcode & 0xe0) == IB_OPCODE_UC;
}

static inline bool softrdma_roce_opcode_is_ud(u8 opcode)
{
	return (opcode & 0xe0) == IB_OPCODE_UD;
}

#endif /* SOFTRDMA_ROCE_OPCODE_H */
