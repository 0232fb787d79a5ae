// SPDX-License-Identifier: GPL-2.0-only
/*
 * The RoCEv2 opcode table (IBA vol 1 9.2 and 9.3: which extension headers
 * each opcode carries) and the lengths derived from it.
 */
#include <linux/bitops.h>
#include <linux/errno.h>

#include "roce_hdr.h"
#include "roce_opcode.h"

static const struct softrdma_roce_opcode softrdma_roce_opcodes[256] = {
	/* Reliable Connection */
	[IB_OPCODE_RC_SEND_FIRST] = {
		.name = "RC_SEND_FIRST",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_FIRST |
			 SOFTRDMA_OPF_SEND | SOFTRDMA_OPF_PAYLOAD |
			 SOFTRDMA_OPF_ACKED | SOFTRDMA_OPF_RECV,
		.ext = 0,
	},
	[IB_OPCODE_RC_SEND_MIDDLE] = {
		.name = "RC_SEND_MIDDLE",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_MIDDLE |
			 SOFTRDMA_OPF_SEND | SOFTRDMA_OPF_PAYLOAD |
			 SOFTRDMA_OPF_ACKED | SOFTRDMA_OPF_RECV,
		.ext = 0,
	},
	[IB_OPCODE_RC_SEND_LAST] = {
		.name = "RC_SEND_LAST",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_LAST |
			 SOFTRDMA_OPF_SEND | SOFTRDMA_OPF_PAYLOAD |
			 SOFTRDMA_OPF_ACKED | SOFTRDMA_OPF_RECV,
		.ext = 0,
	},
	[IB_OPCODE_RC_SEND_LAST_WITH_IMMEDIATE] = {
		.name = "RC_SEND_LAST_WITH_IMMEDIATE",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_LAST |
			 SOFTRDMA_OPF_SEND | SOFTRDMA_OPF_PAYLOAD |
			 SOFTRDMA_OPF_ACKED | SOFTRDMA_OPF_RECV,
		.ext = SOFTRDMA_EXT_IMMDT,
	},
	[IB_OPCODE_RC_SEND_ONLY] = {
		.name = "RC_SEND_ONLY",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_ONLY |
			 SOFTRDMA_OPF_SEND | SOFTRDMA_OPF_PAYLOAD |
			 SOFTRDMA_OPF_ACKED | SOFTRDMA_OPF_RECV,
		.ext = 0,
	},
	[IB_OPCODE_RC_SEND_ONLY_WITH_IMMEDIATE] = {
		.name = "RC_SEND_ONLY_WITH_IMMEDIATE",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_ONLY |
			 SOFTRDMA_OPF_SEND | SOFTRDMA_OPF_PAYLOAD |
			 SOFTRDMA_OPF_ACKED | SOFTRDMA_OPF_RECV,
		.ext = SOFTRDMA_EXT_IMMDT,
	},
	[IB_OPCODE_RC_RDMA_WRITE_FIRST] = {
		.name = "RC_RDMA_WRITE_FIRST",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_FIRST |
			 SOFTRDMA_OPF_WRITE | SOFTRDMA_OPF_PAYLOAD |
			 SOFTRDMA_OPF_ACKED,
		.ext = SOFTRDMA_EXT_RETH,
	},
	[IB_OPCODE_RC_RDMA_WRITE_MIDDLE] = {
		.name = "RC_RDMA_WRITE_MIDDLE",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_MIDDLE |
			 SOFTRDMA_OPF_WRITE | SOFTRDMA_OPF_PAYLOAD |
			 SOFTRDMA_OPF_ACKED,
		.ext = 0,
	},
	[IB_OPCODE_RC_RDMA_WRITE_LAST] = {
		.name = "RC_RDMA_WRITE_LAST",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_LAST |
			 SOFTRDMA_OPF_WRITE | SOFTRDMA_OPF_PAYLOAD |
			 SOFTRDMA_OPF_ACKED,
		.ext = 0,
	},
	[IB_OPCODE_RC_RDMA_WRITE_LAST_WITH_IMMEDIATE] = {
		.name = "RC_RDMA_WRITE_LAST_WITH_IMMEDIATE",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_LAST |
			 SOFTRDMA_OPF_WRITE | SOFTRDMA_OPF_PAYLOAD |
			 SOFTRDMA_OPF_ACKED | SOFTRDMA_OPF_RECV,
		.ext = SOFTRDMA_EXT_IMMDT,
	},
	[IB_OPCODE_RC_RDMA_WRITE_ONLY] = {
		.name = "RC_RDMA_WRITE_ONLY",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_ONLY |
			 SOFTRDMA_OPF_WRITE | SOFTRDMA_OPF_PAYLOAD |
			 SOFTRDMA_OPF_ACKED,
		.ext = SOFTRDMA_EXT_RETH,
	},
	[IB_OPCODE_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE] = {
		.name = "RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_ONLY |
			 SOFTRDMA_OPF_WRITE | SOFTRDMA_OPF_PAYLOAD |
			 SOFTRDMA_OPF_ACKED | SOFTRDMA_OPF_RECV,
		.ext = SOFTRDMA_EXT_RETH | SOFTRDMA_EXT_IMMDT,
	},
	[IB_OPCODE_RC_RDMA_READ_REQUEST] = {
		.name = "RC_RDMA_READ_REQUEST",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_ONLY |
			 SOFTRDMA_OPF_READ | SOFTRDMA_OPF_ACKED,
		.ext = SOFTRDMA_EXT_RETH,
	},
	[IB_OPCODE_RC_RDMA_READ_RESPONSE_FIRST] = {
		.name = "RC_RDMA_READ_RESPONSE_FIRST",
		.flags = SOFTRDMA_OPF_RESP | SOFTRDMA_OPF_FIRST |
			 SOFTRDMA_OPF_READ | SOFTRDMA_OPF_PAYLOAD,
		.ext = SOFTRDMA_EXT_AETH,
	},
	[IB_OPCODE_RC_RDMA_READ_RESPONSE_MIDDLE] = {
		.name = "RC_RDMA_READ_RESPONSE_MIDDLE",
		.flags = SOFTRDMA_OPF_RESP | SOFTRDMA_OPF_MIDDLE |
			 SOFTRDMA_OPF_READ | SOFTRDMA_OPF_PAYLOAD,
		.ext = 0,
	},
	[IB_OPCODE_RC_RDMA_READ_RESPONSE_LAST] = {
		.name = "RC_RDMA_READ_RESPONSE_LAST",
		.flags = SOFTRDMA_OPF_RESP | SOFTRDMA_OPF_LAST |
			 SOFTRDMA_OPF_READ | SOFTRDMA_OPF_PAYLOAD,
		.ext = SOFTRDMA_EXT_AETH,
	},
	[IB_OPCODE_RC_RDMA_READ_RESPONSE_ONLY] = {
		.name = "RC_RDMA_READ_RESPONSE_ONLY",
		.flags = SOFTRDMA_OPF_RESP | SOFTRDMA_OPF_ONLY |
			 SOFTRDMA_OPF_READ | SOFTRDMA_OPF_PAYLOAD,
		.ext = SOFTRDMA_EXT_AETH,
	},
	[IB_OPCODE_RC_ACKNOWLEDGE] = {
		.name = "RC_ACKNOWLEDGE",
		.flags = SOFTRDMA_OPF_RESP | SOFTRDMA_OPF_ACK,
		.ext = SOFTRDMA_EXT_AETH,
	},
	[IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE] = {
		.name = "RC_ATOMIC_ACKNOWLEDGE",
		.flags = SOFTRDMA_OPF_RESP | SOFTRDMA_OPF_ONLY |
			 SOFTRDMA_OPF_ATOMIC,
		.ext = SOFTRDMA_EXT_AETH | SOFTRDMA_EXT_ATMACK,
	},
	[IB_OPCODE_RC_COMPARE_SWAP] = {
		.name = "RC_COMPARE_SWAP",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_ONLY |
			 SOFTRDMA_OPF_ATOMIC | SOFTRDMA_OPF_ACKED,
		.ext = SOFTRDMA_EXT_ATMETH,
	},
	[IB_OPCODE_RC_FETCH_ADD] = {
		.name = "RC_FETCH_ADD",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_ONLY |
			 SOFTRDMA_OPF_ATOMIC | SOFTRDMA_OPF_ACKED,
		.ext = SOFTRDMA_EXT_ATMETH,
	},
	[IB_OPCODE_RC_SEND_LAST_WITH_INVALIDATE] = {
		.name = "RC_SEND_LAST_WITH_INVALIDATE",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_LAST |
			 SOFTRDMA_OPF_SEND | SOFTRDMA_OPF_PAYLOAD |
			 SOFTRDMA_OPF_ACKED | SOFTRDMA_OPF_RECV,
		.ext = SOFTRDMA_EXT_IETH,
	},
	[IB_OPCODE_RC_SEND_ONLY_WITH_INVALIDATE] = {
		.name = "RC_SEND_ONLY_WITH_INVALIDATE",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_ONLY |
			 SOFTRDMA_OPF_SEND | SOFTRDMA_OPF_PAYLOAD |
			 SOFTRDMA_OPF_ACKED | SOFTRDMA_OPF_RECV,
		.ext = SOFTRDMA_EXT_IETH,
	},
	/* IBA 1.5: makes earlier writes visible or persistent; no payload */
	[SOFTRDMA_OPCODE_RC_FLUSH] = {
		.name = "RC_FLUSH",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_ONLY |
			 SOFTRDMA_OPF_FLUSH | SOFTRDMA_OPF_ACKED |
			 SOFTRDMA_OPF_IBA15,
		.ext = SOFTRDMA_EXT_FETH | SOFTRDMA_EXT_RETH,
	},
	/* IBA 1.5: eight bytes written as one, after all earlier requests */
	[SOFTRDMA_OPCODE_RC_ATOMIC_WRITE] = {
		.name = "RC_ATOMIC_WRITE",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_ONLY |
			 SOFTRDMA_OPF_ATOMIC_WRITE | SOFTRDMA_OPF_PAYLOAD |
			 SOFTRDMA_OPF_ACKED | SOFTRDMA_OPF_IBA15,
		.ext = SOFTRDMA_EXT_RETH,
	},
	/* Unreliable Connection */
	[IB_OPCODE_UC_SEND_FIRST] = {
		.name = "UC_SEND_FIRST",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_FIRST |
			 SOFTRDMA_OPF_SEND | SOFTRDMA_OPF_PAYLOAD |
			 SOFTRDMA_OPF_RECV,
		.ext = 0,
	},
	[IB_OPCODE_UC_SEND_MIDDLE] = {
		.name = "UC_SEND_MIDDLE",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_MIDDLE |
			 SOFTRDMA_OPF_SEND | SOFTRDMA_OPF_PAYLOAD |
			 SOFTRDMA_OPF_RECV,
		.ext = 0,
	},
	[IB_OPCODE_UC_SEND_LAST] = {
		.name = "UC_SEND_LAST",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_LAST |
			 SOFTRDMA_OPF_SEND | SOFTRDMA_OPF_PAYLOAD |
			 SOFTRDMA_OPF_RECV,
		.ext = 0,
	},
	[IB_OPCODE_UC_SEND_LAST_WITH_IMMEDIATE] = {
		.name = "UC_SEND_LAST_WITH_IMMEDIATE",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_LAST |
			 SOFTRDMA_OPF_SEND | SOFTRDMA_OPF_PAYLOAD |
			 SOFTRDMA_OPF_RECV,
		.ext = SOFTRDMA_EXT_IMMDT,
	},
	[IB_OPCODE_UC_SEND_ONLY] = {
		.name = "UC_SEND_ONLY",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_ONLY |
			 SOFTRDMA_OPF_SEND | SOFTRDMA_OPF_PAYLOAD |
			 SOFTRDMA_OPF_RECV,
		.ext = 0,
	},
	[IB_OPCODE_UC_SEND_ONLY_WITH_IMMEDIATE] = {
		.name = "UC_SEND_ONLY_WITH_IMMEDIATE",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_ONLY |
			 SOFTRDMA_OPF_SEND | SOFTRDMA_OPF_PAYLOAD |
			 SOFTRDMA_OPF_RECV,
		.ext = SOFTRDMA_EXT_IMMDT,
	},
	[IB_OPCODE_UC_RDMA_WRITE_FIRST] = {
		.name = "UC_RDMA_WRITE_FIRST",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_FIRST |
			 SOFTRDMA_OPF_WRITE | SOFTRDMA_OPF_PAYLOAD,
		.ext = SOFTRDMA_EXT_RETH,
	},
	[IB_OPCODE_UC_RDMA_WRITE_MIDDLE] = {
		.name = "UC_RDMA_WRITE_MIDDLE",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_MIDDLE |
			 SOFTRDMA_OPF_WRITE | SOFTRDMA_OPF_PAYLOAD,
		.ext = 0,
	},
	[IB_OPCODE_UC_RDMA_WRITE_LAST] = {
		.name = "UC_RDMA_WRITE_LAST",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_LAST |
			 SOFTRDMA_OPF_WRITE | SOFTRDMA_OPF_PAYLOAD,
		.ext = 0,
	},
	[IB_OPCODE_UC_RDMA_WRITE_LAST_WITH_IMMEDIATE] = {
		.name = "UC_RDMA_WRITE_LAST_WITH_IMMEDIATE",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_LAST |
			 SOFTRDMA_OPF_WRITE | SOFTRDMA_OPF_PAYLOAD |
			 SOFTRDMA_OPF_RECV,
		.ext = SOFTRDMA_EXT_IMMDT,
	},
	[IB_OPCODE_UC_RDMA_WRITE_ONLY] = {
		.name = "UC_RDMA_WRITE_ONLY",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_ONLY |
			 SOFTRDMA_OPF_WRITE | SOFTRDMA_OPF_PAYLOAD,
		.ext = SOFTRDMA_EXT_RETH,
	},
	[IB_OPCODE_UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE] = {
		.name = "UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_ONLY |
			 SOFTRDMA_OPF_WRITE | SOFTRDMA_OPF_PAYLOAD |
			 SOFTRDMA_OPF_RECV,
		.ext = SOFTRDMA_EXT_RETH | SOFTRDMA_EXT_IMMDT,
	},
	/* Unreliable Datagram */
	[IB_OPCODE_UD_SEND_ONLY] = {
		.name = "UD_SEND_ONLY",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_ONLY |
			 SOFTRDMA_OPF_SEND | SOFTRDMA_OPF_PAYLOAD |
			 SOFTRDMA_OPF_RECV,
		.ext = SOFTRDMA_EXT_DETH,
	},
	[IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE] = {
		.name = "UD_SEND_ONLY_WITH_IMMEDIATE",
		.flags = SOFTRDMA_OPF_REQ | SOFTRDMA_OPF_ONLY |
			 SOFTRDMA_OPF_SEND | SOFTRDMA_OPF_PAYLOAD |
			 SOFTRDMA_OPF_RECV,
		.ext = SOFTRDMA_EXT_DETH | SOFTRDMA_EXT_IMMDT,
	},
};

/**
 * softrdma_roce_opcode() - what the table knows about a BTH opcode
 * @opcode: the BTH OpCode field
 *
 * Return: the table entry, or NULL for an opcode softrdma does not
 * implement: reserved values, RD, CNP, manufacturer specific.
 */
const struct softrdma_roce_opcode *softrdma_roce_opcode(u8 opcode)
{
	const struct softrdma_roce_opcode *op = &softrdma_roce_opcodes[opcode];

	return op->name ? op : NULL;
}

bool softrdma_roce_opcode_valid(u8 opcode)
{
	return softrdma_roce_opcode(opcode);
}

static const u8 softrdma_roce_ext_size[] = {
	[ilog2(SOFTRDMA_EXT_DETH)] = sizeof(struct softrdma_deth),
	[ilog2(SOFTRDMA_EXT_FETH)] = sizeof(struct softrdma_feth),
	[ilog2(SOFTRDMA_EXT_RETH)] = sizeof(struct softrdma_reth),
	[ilog2(SOFTRDMA_EXT_ATMETH)] = sizeof(struct softrdma_atmeth),
	[ilog2(SOFTRDMA_EXT_AETH)] = sizeof(struct softrdma_aeth),
	[ilog2(SOFTRDMA_EXT_ATMACK)] = sizeof(struct softrdma_atmack),
	[ilog2(SOFTRDMA_EXT_IMMDT)] = sizeof(struct softrdma_immdt),
	[ilog2(SOFTRDMA_EXT_IETH)] = sizeof(struct softrdma_ieth),
};

static_assert(ARRAY_SIZE(softrdma_roce_ext_size) == hweight8(SOFTRDMA_EXT_ALL));

/**
 * softrdma_roce_ext_len() - the bytes a set of extension headers takes
 * @ext: a mask of enum softrdma_roce_ext
 */
unsigned int softrdma_roce_ext_len(u8 ext)
{
	unsigned long bits = ext & SOFTRDMA_EXT_ALL;
	unsigned int len = 0;
	unsigned int bit;

	for_each_set_bit(bit, &bits, ARRAY_SIZE(softrdma_roce_ext_size))
		len += softrdma_roce_ext_size[bit];
	return len;
}

/**
 * softrdma_roce_hdr_len() - BTH plus extension headers of an opcode
 * @opcode: the BTH OpCode field
 *
 * Return: where the payload starts, counted from the BTH; 0 for an opcode
 * that softrdma_roce_opcode() does not know.
 */
unsigned int softrdma_roce_hdr_len(u8 opcode)
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
int softrdma_roce_ext_offset(u8 opcode, enum softrdma_roce_ext ext)
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
bool softrdma_roce_payload_valid(u8 opcode, u32 len, u32 pmtu)
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
