/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * RoCEv2 wire format: the InfiniBand transport headers (IBA vol 1 chapter
 * 9.2 - 9.5) as they travel inside UDP/IP (IBA vol 1 annex A17).
 *
 * A RoCEv2 packet is
 *
 *	IPv4 or IPv6 | UDP (dport 4791) | BTH | extension headers | payload |
 *	pad (0 - 3 bytes) | ICRC
 *
 * which extension headers follow the BTH depends only on the BTH opcode
 * (roce_opcode.h).  Every header is a multiple of four bytes long and the
 * BTH starts four-byte aligned in any sane receive buffer, so each struct
 * below only needs four-byte alignment.  Fields that span less than a
 * byte, or share a word with other fields, are reached through the
 * accessors that follow each struct; nothing here is a C bitfield.
 */
#ifndef SOFTRDMA_ROCE_HDR_H
#define SOFTRDMA_ROCE_HDR_H

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <linux/types.h>
#include <asm/byteorder.h>

/* A17.2: the IANA-assigned destination port of RoCEv2 */
#define SOFTRDMA_ROCE_UDP_PORT		4791

/* A17.8 (and 7.8.1): the Invariant CRC closing every packet */
#define ROCE_ICRC_SIZE			4

/* 9.2: the only defined Transport Header Version */
#define SOFTRDMA_BTH_TVER		0

/* 10.9: the default partition key, full membership */
#define SOFTRDMA_DEFAULT_PKEY		0xffff

/* 9.2: PSN, destination QP and source QP are 24-bit quantities */
#define SOFTRDMA_QPN_MASK		GENMASK(23, 0)
#define SOFTRDMA_BTH_PSN_MASK		GENMASK(23, 0)

/* 9.3: 2 bits of pad count; payload plus pad is a multiple of 4 bytes */
#define SOFTRDMA_BTH_PAD_MAX		3

/*
 * Base Transport Header, IBA 9.2.
 *
 *	byte 0	OpCode
 *	byte 1	SE (bit 7) | M (bit 6) | PadCnt (bits 5:4) | TVer (bits 3:0)
 *	2 - 3	P_Key
 *	byte 4	FECN (bit 7) | BECN (bit 6) | Resv6a (bits 5:0)	(A17.9.1)
 *	5 - 7	DestQP
 *	byte 8	AckReq (bit 7) | Resv7 (bits 6:0)
 *	9 - 11	PSN
 *
 * IBA 1.2 called byte 4 Resv8a; RoCEv2 gives its top two bits to ECN
 * feedback.  The ICRC masks the whole byte (A17.8.2), so FECN/BECN may be
 * rewritten on the path without breaking it.
 */
struct softrdma_bth {
	u8 opcode;
	u8 flags;
	__be16 pkey;
	__be32 qpn;		/* FECN, BECN, Resv6a, DestQP */
	__be32 apsn;		/* AckReq, Resv7, PSN */
};

static_assert(sizeof(struct softrdma_bth) == 12);

#define SOFTRDMA_BTH_SE			BIT(7)
#define SOFTRDMA_BTH_MIG		BIT(6)
#define SOFTRDMA_BTH_PAD_SHIFT		4
#define SOFTRDMA_BTH_PAD		GENMASK(5, 4)
#define SOFTRDMA_BTH_TVER_MASK		GENMASK(3, 0)
#define SOFTRDMA_BTH_FECN		BIT(31)
#define SOFTRDMA_BTH_BECN		BIT(30)
#define SOFTRDMA_BTH_RESV6A		GENMASK(29, 24)
#define SOFTRDMA_BTH_ACKREQ		BIT(31)
#define SOFTRDMA_BTH_RESV7		GENMASK(30, 24)

/* the byte of the BTH that the ICRC covers as all ones (A17.8.2) */
#define SOFTRDMA_BTH_ICRC_MASKED_BYTE	offsetof(struct softrdma_bth, qpn)

static inline u8 softrdma_bth_opcode(const struct softrdma_bth *bth)
{
	return bth->opcode;
}

static inline void softrdma_bth_set_opcode(struct softrdma_bth *bth, u8 opcode)
{
	bth->opcode = opcode;
}

/* 9.2: Solicited Event */
static inline bool softrdma_bth_se(const struct softrdma_bth *bth)
{
	return bth->flags & SOFTRDMA_BTH_SE;
}

static inline void softrdma_bth_set_se(struct softrdma_bth *bth, bool se)
{
	if (se)
		bth->flags |= SOFTRDMA_BTH_SE;
	else
		bth->flags &= ~SOFTRDMA_BTH_SE;
}

/* 9.2, 17.2.8: MigReq */
static inline bool softrdma_bth_mig(const struct softrdma_bth *bth)
{
	return bth->flags & SOFTRDMA_BTH_MIG;
}

static inline void softrdma_bth_set_mig(struct softrdma_bth *bth, bool mig)
{
	if (mig)
		bth->flags |= SOFTRDMA_BTH_MIG;
	else
		bth->flags &= ~SOFTRDMA_BTH_MIG;
}

/* 9.2: Pad Count, bytes after the payload up to a 4-byte boundary */
static inline u8 softrdma_bth_pad(const struct softrdma_bth *bth)
{
	return (bth->flags & SOFTRDMA_BTH_PAD) >> SOFTRDMA_BTH_PAD_SHIFT;
}

static inline void softrdma_bth_set_pad(struct softrdma_bth *bth, u8 pad)
{
	bth->flags = (bth->flags & ~SOFTRDMA_BTH_PAD) |
		     ((pad << SOFTRDMA_BTH_PAD_SHIFT) & SOFTRDMA_BTH_PAD);
}

/* 9.2: Transport Header Version; 9.6: any but 0 is dropped */
static inline u8 softrdma_bth_tver(const struct softrdma_bth *bth)
{
	return bth->flags & SOFTRDMA_BTH_TVER_MASK;
}

static inline void softrdma_bth_set_tver(struct softrdma_bth *bth, u8 tver)
{
	bth->flags = (bth->flags & ~SOFTRDMA_BTH_TVER_MASK) |
		     (tver & SOFTRDMA_BTH_TVER_MASK);
}

/* 9.2: Partition Key */
static inline u16 softrdma_bth_pkey(const struct softrdma_bth *bth)
{
	return be16_to_cpu(bth->pkey);
}

static inline void softrdma_bth_set_pkey(struct softrdma_bth *bth, u16 pkey)
{
	bth->pkey = cpu_to_be16(pkey);
}

/* A17.9.1: Forward Explicit Congestion Notification */
static inline bool softrdma_bth_fecn(const struct softrdma_bth *bth)
{
	return be32_to_cpu(bth->qpn) & SOFTRDMA_BTH_FECN;
}

static inline void softrdma_bth_set_fecn(struct softrdma_bth *bth, bool fecn)
{
	if (fecn)
		bth->qpn |= cpu_to_be32(SOFTRDMA_BTH_FECN);
	else
		bth->qpn &= ~cpu_to_be32(SOFTRDMA_BTH_FECN);
}

/* A17.9.1: Backward Explicit Congestion Notification */
static inline bool softrdma_bth_becn(const struct softrdma_bth *bth)
{
	return be32_to_cpu(bth->qpn) & SOFTRDMA_BTH_BECN;
}

static inline void softrdma_bth_set_becn(struct softrdma_bth *bth, bool becn)
{
	if (becn)
		bth->qpn |= cpu_to_be32(SOFTRDMA_BTH_BECN);
	else
		bth->qpn &= ~cpu_to_be32(SOFTRDMA_BTH_BECN);
}

/* the six reserved bits left of byte 4: sent as zero, ignored */
static inline u8 softrdma_bth_resv6a(const struct softrdma_bth *bth)
{
	return (be32_to_cpu(bth->qpn) & SOFTRDMA_BTH_RESV6A) >> 24;
}

/* 9.2: Destination QP */
static inline u32 softrdma_bth_qpn(const struct softrdma_bth *bth)
{
	return be32_to_cpu(bth->qpn) & SOFTRDMA_QPN_MASK;
}

static inline void softrdma_bth_set_qpn(struct softrdma_bth *bth, u32 qpn)
{
	u32 word = be32_to_cpu(bth->qpn) & ~SOFTRDMA_QPN_MASK;

	bth->qpn = cpu_to_be32(word | (qpn & SOFTRDMA_QPN_MASK));
}

/* 9.2: Acknowledge Request */
static inline bool softrdma_bth_ackreq(const struct softrdma_bth *bth)
{
	return be32_to_cpu(bth->apsn) & SOFTRDMA_BTH_ACKREQ;
}

static inline void softrdma_bth_set_ackreq(struct softrdma_bth *bth,
					   bool ackreq)
{
	if (ackreq)
		bth->apsn |= cpu_to_be32(SOFTRDMA_BTH_ACKREQ);
	else
		bth->apsn &= ~cpu_to_be32(SOFTRDMA_BTH_ACKREQ);
}

/* the seven reserved bits after AckReq: sent as zero, ignored */
static inline u8 softrdma_bth_resv7(const struct softrdma_bth *bth)
{
	return (be32_to_cpu(bth->apsn) & SOFTRDMA_BTH_RESV7) >> 24;
}

/* 9.2: Packet Sequence Number; arithmetic on it is in psn.h */
static inline u32 softrdma_bth_psn(const struct softrdma_bth *bth)
{
	return be32_to_cpu(bth->apsn) & SOFTRDMA_BTH_PSN_MASK;
}

static inline void softrdma_bth_set_psn(struct softrdma_bth *bth, u32 psn)
{
	u32 word = be32_to_cpu(bth->apsn) & ~SOFTRDMA_BTH_PSN_MASK;

	bth->apsn = cpu_to_be32(word | (psn & SOFTRDMA_BTH_PSN_MASK));
}

/*
 * The 64-bit fields of RETH, AtomicETH and AtomicAckETH.
 *
 * In a packet these headers start 12 or 16 bytes after the BTH, so their
 * 64-bit fields are only ever four-byte aligned, and in AtomicETH the Swap
 * and Compare fields sit at offsets 12 and 20 of the header itself: no
 * naturally aligned struct of __be64 can describe it without padding.  The
 * three structs are therefore __packed (exact layout, no padding) and
 * __aligned(4) (what a packet actually guarantees): the compiler emits
 * loads that are correct at four-byte alignment on every architecture,
 * and full-width loads where the hardware allows them.
 */

/* RDMA Extended Transport Header, IBA 9.3 */
struct softrdma_reth {
	__be64 va;		/* Virtual Address */
	__be32 rkey;		/* R_Key */
	__be32 len;		/* DMA Length */
} __packed __aligned(4);

static_assert(sizeof(struct softrdma_reth) == 16);

static inline u64 softrdma_reth_va(const struct softrdma_reth *reth)
{
	return be64_to_cpu(reth->va);
}

static inline u32 softrdma_reth_rkey(const struct softrdma_reth *reth)
{
	return be32_to_cpu(reth->rkey);
}

static inline u32 softrdma_reth_len(const struct softrdma_reth *reth)
{
	return be32_to_cpu(reth->len);
}

static inline void softrdma_reth_set(struct softrdma_reth *reth, u64 va,
				     u32 rkey, u32 len)
{
	reth->va = cpu_to_be64(va);
	reth->rkey = cpu_to_be32(rkey);
	reth->len = cpu_to_be32(len);
}

/* Atomic Extended Transport Header, IBA 9.3 */
struct softrdma_atmeth {
	__be64 va;		/* Virtual Address */
	__be32 rkey;		/* R_Key */
	__be64 swap_add;	/* Swap (CmpSwap) or Add (FetchAdd) Data */
	__be64 compare;		/* Compare Data */
} __packed __aligned(4);

static_assert(sizeof(struct softrdma_atmeth) == 28);

static inline u64 softrdma_atmeth_va(const struct softrdma_atmeth *atmeth)
{
	return be64_to_cpu(atmeth->va);
}

static inline u32 softrdma_atmeth_rkey(const struct softrdma_atmeth *atmeth)
{
	return be32_to_cpu(atmeth->rkey);
}

static inline u64
softrdma_atmeth_swap_add(const struct softrdma_atmeth *atmeth)
{
	return be64_to_cpu(atmeth->swap_add);
}

static inline u64
softrdma_atmeth_compare(const struct softrdma_atmeth *atmeth)
{
	return be64_to_cpu(atmeth->compare);
}

static inline void softrdma_atmeth_set(struct softrdma_atmeth *atmeth,
				       u64 va, u32 rkey, u64 swap_add,
				       u64 compare)
{
	atmeth->va = cpu_to_be64(va);
	atmeth->rkey = cpu_to_be32(rkey);
	atmeth->swap_add = cpu_to_be64(swap_add);
	atmeth->compare = cpu_to_be64(compare);
}

/*
 * ACK Extended Transport Header, IBA 9.3: an 8-bit Syndrome and a 24-bit
 * Message Sequence Number.  The syndrome, as 9.7.5.2 encodes it:
 *
 *	bit 7		reserved, 0
 *	bits 6:5	00 ACK, 01 RNR NAK, 10 reserved, 11 NAK
 *	bits 4:0	ACK: credit count (9.7.7.2);
 *			RNR NAK: RNR timer (9.7.5.2.8); NAK: NAK code
 */
struct softrdma_aeth {
	__be32 smsn;		/* Syndrome, MSN */
};

static_assert(sizeof(struct softrdma_aeth) == 4);

#define SOFTRDMA_AETH_MSN_MASK		GENMASK(23, 0)
#define SOFTRDMA_AETH_SYN_SHIFT		24
#define SOFTRDMA_AETH_TYPE		GENMASK(6, 5)
#define SOFTRDMA_AETH_TYPE_SHIFT	5
#define SOFTRDMA_AETH_VALUE		GENMASK(4, 0)

enum softrdma_aeth_type {
	SOFTRDMA_AETH_ACK		= 0,
	SOFTRDMA_AETH_RNR_NAK		= 1,
	SOFTRDMA_AETH_RESERVED		= 2,
	SOFTRDMA_AETH_NAK		= 3,
};

/* 9.7.5.2: the NAK codes; 5 - 31 are reserved */
enum softrdma_aeth_nak_code {
	SOFTRDMA_NAK_PSN_SEQ_ERR	= 0,
	SOFTRDMA_NAK_INVALID_REQ	= 1,
	SOFTRDMA_NAK_REM_ACCESS_ERR	= 2,
	SOFTRDMA_NAK_REM_OP_ERR		= 3,
	SOFTRDMA_NAK_INVALID_RD_REQ	= 4,
};

/*
 * 9.7.7.2: credit counts 0 - 30 encode 0 - 32768 credits; 31
 * means "invalid", the responder gives no end-to-end credits (an SRQ, or
 * no flow control), and the requester may send anyway.
 */
#define SOFTRDMA_AETH_CREDITS_INVALID	31

/* RNR NAK timer codes: 0 = 655.36 ms, 1 = 0.01 ms ... 31 = 491.52 ms */
#define SOFTRDMA_AETH_RNR_TIMER_MAX	31

static inline u8 softrdma_aeth_syndrome(const struct softrdma_aeth *aeth)
{
	return be32_to_cpu(aeth->smsn) >> SOFTRDMA_AETH_SYN_SHIFT;
}

static inline u32 softrdma_aeth_msn(const struct softrdma_aeth *aeth)
{
	return be32_to_cpu(aeth->smsn) & SOFTRDMA_AETH_MSN_MASK;
}

static inline void softrdma_aeth_set(struct softrdma_aeth *aeth, u8 syndrome,
				     u32 msn)
{
	aeth->smsn = cpu_to_be32((u32)syndrome << SOFTRDMA_AETH_SYN_SHIFT |
				 (msn & SOFTRDMA_AETH_MSN_MASK));
}

static inline enum softrdma_aeth_type softrdma_aeth_syn_type(u8 syndrome)
{
	return (syndrome & SOFTRDMA_AETH_TYPE) >> SOFTRDMA_AETH_TYPE_SHIFT;
}

static inline enum softrdma_aeth_type
softrdma_aeth_type(const struct softrdma_aeth *aeth)
{
	return softrdma_aeth_syn_type(softrdma_aeth_syndrome(aeth));
}

/* the low five bits: credit count, RNR timer or NAK code, by type */
static inline u8 softrdma_aeth_value(const struct softrdma_aeth *aeth)
{
	return softrdma_aeth_syndrome(aeth) & SOFTRDMA_AETH_VALUE;
}

static inline u8 softrdma_aeth_syn_ack(u8 credits)
{
	return SOFTRDMA_AETH_ACK << SOFTRDMA_AETH_TYPE_SHIFT |
	       (credits & SOFTRDMA_AETH_VALUE);
}

static inline u8 softrdma_aeth_syn_rnr_nak(u8 timer)
{
	return SOFTRDMA_AETH_RNR_NAK << SOFTRDMA_AETH_TYPE_SHIFT |
	       (timer & SOFTRDMA_AETH_VALUE);
}

static inline u8 softrdma_aeth_syn_nak(enum softrdma_aeth_nak_code code)
{
	return SOFTRDMA_AETH_NAK << SOFTRDMA_AETH_TYPE_SHIFT |
	       (code & SOFTRDMA_AETH_VALUE);
}

/*
 * FLUSH Extended Transport Header (IBA 1.5, 9.3.6 and 9.4.8): which
 * placement the FLUSH asks for and how much of the memory it covers.
 * Its low byte holds the selectivity level (bits 5:4) and the placement
 * type (bits 3:0); the rest is reserved, sent as zero and ignored.
 */
struct softrdma_feth {
	__be32 bits;
};

static_assert(sizeof(struct softrdma_feth) == 4);

/* placement type: a mask; at least one set (IBA 1.5 oA19-5) */
#define SOFTRDMA_FETH_PLT_GLOBAL	0x1	/* global visibility */
#define SOFTRDMA_FETH_PLT_PERSISTENT	0x2	/* persistence */
#define SOFTRDMA_FETH_PLT_MASK		0xf
/* selectivity level: the RETH's range, or the whole memory region */
#define SOFTRDMA_FETH_SEL_RANGE		0
#define SOFTRDMA_FETH_SEL_MR		1
#define SOFTRDMA_FETH_SEL_MASK		0x30
#define SOFTRDMA_FETH_SEL_SHIFT		4

static inline u8 softrdma_feth_plt(const struct softrdma_feth *feth)
{
	return be32_to_cpu(feth->bits) & SOFTRDMA_FETH_PLT_MASK;
}

static inline u8 softrdma_feth_sel(const struct softrdma_feth *feth)
{
	return (be32_to_cpu(feth->bits) & SOFTRDMA_FETH_SEL_MASK) >>
	       SOFTRDMA_FETH_SEL_SHIFT;
}

static inline void softrdma_feth_set(struct softrdma_feth *feth, u8 plt,
				     u8 sel)
{
	feth->bits = cpu_to_be32((plt & SOFTRDMA_FETH_PLT_MASK) |
				 ((u32)sel << SOFTRDMA_FETH_SEL_SHIFT &
				  SOFTRDMA_FETH_SEL_MASK));
}

/* Atomic ACK Extended Transport Header, IBA 9.3 */
struct softrdma_atmack {
	__be64 orig;		/* Original Remote Data */
} __packed __aligned(4);

static_assert(sizeof(struct softrdma_atmack) == 8);

static inline u64 softrdma_atmack_orig(const struct softrdma_atmack *atmack)
{
	return be64_to_cpu(atmack->orig);
}

static inline void softrdma_atmack_set_orig(struct softrdma_atmack *atmack,
					    u64 orig)
{
	atmack->orig = cpu_to_be64(orig);
}

/* Datagram Extended Transport Header, IBA 9.3 */
struct softrdma_deth {
	__be32 qkey;		/* Queue Key */
	__be32 sqp;		/* Reserved (8), Source QP (24) */
};

static_assert(sizeof(struct softrdma_deth) == 8);

static inline u32 softrdma_deth_qkey(const struct softrdma_deth *deth)
{
	return be32_to_cpu(deth->qkey);
}

static inline u32 softrdma_deth_sqp(const struct softrdma_deth *deth)
{
	return be32_to_cpu(deth->sqp) & SOFTRDMA_QPN_MASK;
}

static inline void softrdma_deth_set(struct softrdma_deth *deth, u32 qkey,
				     u32 sqp)
{
	deth->qkey = cpu_to_be32(qkey);
	deth->sqp = cpu_to_be32(sqp & SOFTRDMA_QPN_MASK);
}

/*
 * Immediate Data Extended Transport Header, IBA 9.3: four opaque bytes handed to
 * the receiver's completion as they are (ib_wc.ex.imm_data is __be32 too).
 */
struct softrdma_immdt {
	__be32 imm;
};

static_assert(sizeof(struct softrdma_immdt) == 4);

/* Invalidate Extended Transport Header, IBA 9.3: the R_Key to invalidate */
struct softrdma_ieth {
	__be32 rkey;
};

static_assert(sizeof(struct softrdma_ieth) == 4);

static inline u32 softrdma_ieth_rkey(const struct softrdma_ieth *ieth)
{
	return be32_to_cpu(ieth->rkey);
}

static inline void softrdma_ieth_set_rkey(struct softrdma_ieth *ieth, u32 rkey)
{
	ieth->rkey = cpu_to_be32(rkey);
}

#if IS_ENABLED(CONFIG_SOFTRDMA_KUNIT_TEST)
/*
 * Whole Ethernet frames of stock rxe traffic, defined in roce_hdr_test.c
 * and shared with the other KUnit suites that need real packets.
 */
struct softrdma_roce_test_frame {
	const char *name;
	unsigned int pcap_frame;	/* frame number in rxe-rc.pcap */
	const u8 *data;
	unsigned int len;
};

extern const struct softrdma_roce_test_frame softrdma_roce_test_frames[];
extern const unsigned int softrdma_roce_test_nframes;
#endif

#endif /* SOFTRDMA_ROCE_HDR_H */
