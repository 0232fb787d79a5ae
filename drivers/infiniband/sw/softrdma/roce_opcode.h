/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The RoCEv2 opcode table: for each 8-bit BTH opcode (IBA 9.2, table of
 * OpCode values), what follows the BTH, whether payload may, and what kind
 * of packet it is.  Requester, responder and completer decide from this
 * table rather than from opcode ranges.
 */
#ifndef SOFTRDMA_ROCE_OPCODE_H
#define SOFTRDMA_ROCE_OPCODE_H

#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/types.h>
#include <rdma/ib_pack.h>

#include "roce_hdr.h"

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

/*
 * The table, indexed by opcode; an entry without a name is an opcode
 * softrdma does not implement.  Read through the functions below, which
 * every packet calls several times: they are inline.
 */
extern const struct softrdma_roce_opcode softrdma_roce_opcodes[256];

/**
 * softrdma_roce_opcode() - what the table knows about a BTH opcode
 * @opcode: the BTH OpCode field
 *
 * Return: the table entry, or NULL for an opcode softrdma does not
 * implement: reserved values, RD, CNP, manufacturer specific.
 */
static inline const struct softrdma_roce_opcode *softrdma_roce_opcode(u8 opcode)
{
	const struct softrdma_roce_opcode *op = &softrdma_roce_opcodes[opcode];

	return op->name ? op : NULL;
}

static inline bool softrdma_roce_opcode_valid(u8 opcode)
{
	return softrdma_roce_opcode(opcode);
}

/* every extension header has its size below */
static_assert(SOFTRDMA_EXT_ALL == (SOFTRDMA_EXT_DETH | SOFTRDMA_EXT_FETH |
				   SOFTRDMA_EXT_RETH | SOFTRDMA_EXT_ATMETH |
				   SOFTRDMA_EXT_AETH | SOFTRDMA_EXT_ATMACK |
				   SOFTRDMA_EXT_IMMDT | SOFTRDMA_EXT_IETH));

/**
 * softrdma_roce_ext_len() - the bytes a set of extension headers takes
 * @ext: a mask of enum softrdma_roce_ext
 */
static inline unsigned int softrdma_roce_ext_len(u8 ext)
{
	return (ext & SOFTRDMA_EXT_DETH ? sizeof(struct softrdma_deth) : 0) +
	       (ext & SOFTRDMA_EXT_FETH ? sizeof(struct softrdma_feth) : 0) +
	       (ext & SOFTRDMA_EXT_RETH ? sizeof(struct softrdma_reth) : 0) +
	       (ext & SOFTRDMA_EXT_ATMETH ?
		sizeof(struct softrdma_atmeth) : 0) +
	       (ext & SOFTRDMA_EXT_AETH ? sizeof(struct softrdma_aeth) : 0) +
	       (ext & SOFTRDMA_EXT_ATMACK ?
		sizeof(struct softrdma_atmack) : 0) +
	       (ext & SOFTRDMA_EXT_IMMDT ? sizeof(struct softrdma_immdt) : 0) +
	       (ext & SOFTRDMA_EXT_IETH ? sizeof(struct softrdma_ieth) : 0);
}

/**
 * softrdma_roce_hdr_len() - BTH plus extension headers of an opcode
 * @opcode: the BTH OpCode field
 *
 * Return: where the payload starts, counted from the BTH; 0 for an opcode
 * that softrdma_roce_opcode() does not know.
 */
static inline unsigned int softrdma_roce_hdr_len(u8 opcode)
{
	const struct softrdma_roce_opcode *op = softrdma_roce_opcode(opcode);

	if (!op)
		return 0;
	return sizeof(struct softrdma_bth) + softrdma_roce_ext_len(op->ext);
}

/**
 * softrdma_roce_ext_offset() - where one extension header starts
 * @opcode: the BTH OpCode field
 * @ext: the header wanted, a single enum softrdma_roce_ext bit
 *
 * Return: its offset from the start of the BTH, or -EINVAL if the opcode
 * is unknown or does not carry that header.
 */
static inline int softrdma_roce_ext_offset(u8 opcode,
					   enum softrdma_roce_ext ext)
{
	const struct softrdma_roce_opcode *op = softrdma_roce_opcode(opcode);

	if (!op || hweight32(ext) != 1 || !(op->ext & ext))
		return -EINVAL;
	return sizeof(struct softrdma_bth) + softrdma_roce_ext_len(op->ext &
								  (ext - 1));
}

/**
 * softrdma_roce_payload_valid() - is a payload length legal for an opcode
 * @opcode: the BTH OpCode field
 * @len: payload bytes, without the pad
 * @pmtu: the path MTU in bytes
 *
 * IBA 9.4 segmentation: First and Middle packets carry exactly one path
 * MTU, a Last packet 1 to PMTU bytes, an Only packet 0 to PMTU bytes;
 * packets without payload carry none.  ATOMIC WRITE carries exactly eight
 * bytes (IBA 1.5).
 */
static inline bool softrdma_roce_payload_valid(u8 opcode, u32 len, u32 pmtu)
{
	const struct softrdma_roce_opcode *op = softrdma_roce_opcode(opcode);

	if (!op)
		return false;
	if (!(op->flags & SOFTRDMA_OPF_PAYLOAD))
		return len == 0;
	if (op->flags & SOFTRDMA_OPF_ATOMIC_WRITE)
		return len == sizeof(u64);
	if (op->flags & (SOFTRDMA_OPF_FIRST | SOFTRDMA_OPF_MIDDLE))
		return len == pmtu;
	if (op->flags & SOFTRDMA_OPF_LAST)
		return len >= 1 && len <= pmtu;
	return len <= pmtu;
}

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
