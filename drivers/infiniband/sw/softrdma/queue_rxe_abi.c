// SPDX-License-Identifier: GPL-2.0-only
/*
 * rxe user ABI rings and slot formats; the rules are in queue_rxe_abi.h.
 *
 * librxe (rdma-core 44) quirks handled here:
 *  - only dma.num_sge carries the SGE count (wr.reserved, the old
 *    wr.num_sge, is ignored);
 *  - ibv_wr_set_inline_data() copies the payload to the slot and sets
 *    dma.length without IBV_SEND_INLINE: a SEND/WRITE with no SGE and a
 *    non-zero dma.length is read as inline data of that length;
 *  - ibv_wr_set_inline_data_list() leaves dma.length 0: such a WQE is
 *    indistinguishable from a zero-length SEND/WRITE and is executed as
 *    one (the payload is lost, as with stock rxe);
 *  - ibv_wr_atomic_write() puts its 8 bytes at data[0] with num_sge 0,
 *    dma.length 8 and no INLINE flag; that is the only ATOMIC WRITE form
 *    accepted (ibv_post_send() builds it without remote address or
 *    payload, so that form cannot work and is refused).
 * The snapshot marks an inline payload by IB_SEND_INLINE in send_flags
 * and num_sge == 0, whichever way librxe built it.
 */
#include <linux/cache.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/lockdep.h>
#include <linux/log2.h>
#include <linux/nospec.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <kunit/visibility.h>
#include <rdma/uverbs_ioctl.h>

#include "cq.h"
#include "device.h"
#include "mmap.h"
#include "qp.h"
#include "qp_state.h"
#include "queue_rxe_abi.h"
#include "roce_hdr.h"
#include "srq.h"
#include "transport.h"
#include "uabi.h"
#include "verbs.h"

static_assert(sizeof(struct rxe_queue_buf) == 384);
static_assert(sizeof(struct rxe_send_wqe) == 208);
static_assert(sizeof(struct rxe_recv_wqe) == 40);
static_assert(sizeof(struct ib_uverbs_wc) == 48);
/* user SGEs are copied as an array into the snapshot */
static_assert(sizeof(struct rxe_sge) == sizeof(struct softrdma_sge));
static_assert(offsetof(struct rxe_sge, length) ==
	      offsetof(struct softrdma_sge, length));
static_assert(offsetof(struct rxe_sge, lkey) ==
	      offsetof(struct softrdma_sge, lkey));
/* an ATOMIC WRITE payload fits in the smallest send slot */
static_assert(sizeof(struct rxe_send_wqe) + sizeof(u64) <= 256);

/* ---------------------------------------------------------------- rings */

static bool softrdma_rxe_ring_posted(const struct softrdma_ring *ring,
				     u32 offset)
{
	return offset < softrdma_ring_count(ring);
}

static void softrdma_rxe_ring_consumed(struct softrdma_ring *ring)
{
	softrdma_rxe_ring_advance_consumer(ring);
}

/*
 * The producer index, read once and masked, becomes the consumer index,
 * released once: at most index_mask entries go whatever the user wrote,
 * and an entry posted after the read is the next one consumed.
 */
static u32 softrdma_rxe_ring_dropped(struct softrdma_ring *ring)
{
	u32 n = softrdma_ring_count(ring);

	ring->cons = (ring->cons + n) & ring->index_mask;
	/* the slots are the producer's again; none of them was read */
	smp_store_release(&ring->hdr->consumer_index, ring->cons);
	return n;
}

static bool softrdma_rxe_ring_is_full(const struct softrdma_ring *ring)
{
	return softrdma_rxe_ring_full(ring);
}

static void softrdma_rxe_ring_produced(struct softrdma_ring *ring)
{
	softrdma_rxe_ring_advance_producer(ring);
}

/* A kernel ring holds the private forms themselves: a copy is the fetch. */
static int softrdma_kernel_fetch_send_wqe(const void *slot,
					  const struct softrdma_wqe_limits *lim,
					  struct softrdma_send_wqe *wqe)
{
	memcpy(wqe, slot, sizeof(*wqe));
	return 0;
}

static int softrdma_kernel_fetch_recv_wqe(const void *slot,
					  const struct softrdma_wqe_limits *lim,
					  struct softrdma_recv_wqe *wqe)
{
	memcpy(wqe, slot, sizeof(*wqe));
	return 0;
}

static const struct softrdma_ring_ops softrdma_rxe_ring_ops = {
	.posted = softrdma_rxe_ring_posted,
	.advance_consumer = softrdma_rxe_ring_consumed,
	.drop_posted = softrdma_rxe_ring_dropped,
	.full = softrdma_rxe_ring_is_full,
	.advance_producer = softrdma_rxe_ring_produced,
	.fetch_send_wqe = softrdma_rxe_fetch_send_wqe,
	.fetch_recv_wqe = softrdma_rxe_fetch_recv_wqe,
	.spare_slots = 1,
};

/* kernel rings: the rxe layout and index protocol, kernel slots */
static const struct softrdma_ring_ops softrdma_kernel_ring_ops = {
	.posted = softrdma_rxe_ring_posted,
	.advance_consumer = softrdma_rxe_ring_consumed,
	.drop_posted = softrdma_rxe_ring_dropped,
	.full = softrdma_rxe_ring_is_full,
	.advance_producer = softrdma_rxe_ring_produced,
	.fetch_send_wqe = softrdma_kernel_fetch_send_wqe,
	.fetch_recv_wqe = softrdma_kernel_fetch_recv_wqe,
	.spare_slots = 1,
};

#if IS_ENABLED(CONFIG_KUNIT)
void softrdma_rxe_ring_as_user(struct softrdma_ring *ring)
{
	ring->user = true;
	ring->ops = &softrdma_rxe_ring_ops;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_rxe_ring_as_user);
#endif

static bool softrdma_ring_has_rxe_layout(const struct softrdma_ring *ring)
{
	return ring->ops == &softrdma_rxe_ring_ops ||
	       ring->ops == &softrdma_kernel_ring_ops;
}

struct softrdma_ring *softrdma_ring_create(struct ib_ucontext *uctx,
					   u32 *num_elem, u32 elem_size,
					   enum softrdma_ring_kind kind,
					   struct mminfo *mi)
{
	struct softrdma_mmap_entry *mem;
	struct softrdma_ring *ring;
	u32 num_slots, log2_elem;
	u64 offset;
	int err;

	if (*num_elem > SOFTRDMA_RING_MAX_ELEM || !elem_size ||
	    elem_size > SOFTRDMA_RING_MAX_ELEM_SIZE || (uctx && !mi))
		return ERR_PTR(-EINVAL);

	log2_elem = order_base_2(max_t(u32, elem_size, cache_line_size()));
	num_slots = roundup_pow_of_two(*num_elem + 1);

	ring = kzalloc(sizeof(*ring), GFP_KERNEL);
	if (!ring)
		return ERR_PTR(-ENOMEM);

	mem = softrdma_mmap_alloc(uctx, sizeof(struct rxe_queue_buf) +
				  ((size_t)num_slots << log2_elem));
	if (IS_ERR(mem)) {
		err = PTR_ERR(mem);
		goto out_free_ring;
	}

	ring->mem = mem;
	ring->hdr = mem->buf;
	ring->index_mask = num_slots - 1;
	ring->log2_elem_size = log2_elem;
	ring->elem_size = 1U << log2_elem;
	ring->slots = ring->hdr->data;
	ring->ops = uctx ? &softrdma_rxe_ring_ops : &softrdma_kernel_ring_ops;
	ring->user = !!uctx;
	ring->kind = kind;
	/* for librxe; the buffer is zeroed, so both indices start at 0 */
	ring->hdr->log2_elem_size = log2_elem;
	ring->hdr->index_mask = ring->index_mask;

	if (uctx) {
		/* only now, fully initialised, can it be mapped */
		err = softrdma_mmap_publish(uctx, mem, &offset);
		if (err)
			goto out_release_mem;
		mi->offset = offset;
		mi->size = softrdma_mmap_len(mem);
		mi->pad = 0;
	}

	*num_elem = ring->index_mask;
	return ring;

out_release_mem:
	softrdma_mmap_release(mem);
out_free_ring:
	kfree(ring);
	return ERR_PTR(err);
}

int softrdma_ring_resize(struct softrdma_ring *ring,
			 struct softrdma_ring *spare)
{
	u32 prod, cons, count, elem, i;

	softrdma_ring_assert_producer(ring);
	softrdma_ring_assert_consumer(ring);

	if (!softrdma_ring_has_rxe_layout(ring) || spare->ops != ring->ops ||
	    spare->user != ring->user || spare->kind != ring->kind ||
	    spare->log2_elem_size != ring->log2_elem_size)
		return -EINVAL;

	/* the kernel's sides from its private copies, the user's masked */
	if (ring->user && ring->kind == SOFTRDMA_RING_USER_PRODUCES)
		prod = softrdma_ring_load_producer(ring);
	else
		prod = ring->prod;
	if (ring->user && ring->kind == SOFTRDMA_RING_USER_CONSUMES)
		cons = softrdma_ring_load_consumer(ring);
	else
		cons = ring->cons;

	count = (prod - cons) & ring->index_mask;
	if (count > spare->index_mask)
		return -EINVAL;

	elem = softrdma_ring_elem_size(ring);
	for (i = 0; i < count; i++)
		memcpy(softrdma_ring_slot(spare, i),
		       softrdma_ring_slot(ring, cons + i), elem);

	spare->prod = count;
	spare->cons = 0;
	/* the copied slots before the indices that expose them */
	smp_store_release(&spare->hdr->consumer_index, 0);
	/* the copied slots before the indices that expose them */
	smp_store_release(&spare->hdr->producer_index, count);

	swap(ring->mem, spare->mem);
	swap(ring->hdr, spare->hdr);
	swap(ring->slots, spare->slots);
	swap(ring->index_mask, spare->index_mask);
	swap(ring->prod, spare->prod);
	swap(ring->cons, spare->cons);
	return 0;
}

/* ---------------------------------------------------------- slot sizes */

int softrdma_rxe_sq_elem_size(u32 *max_sge, u32 *max_inline)
{
	u32 payload;

	if (*max_sge > SOFTRDMA_MAX_SGE || *max_inline > SOFTRDMA_MAX_INLINE)
		return -EINVAL;

	payload = max_t(u32, *max_sge * sizeof(struct rxe_sge), *max_inline);
	*max_sge = min_t(u32, payload / sizeof(struct rxe_sge),
			 SOFTRDMA_MAX_SGE);
	*max_inline = min_t(u32, payload, SOFTRDMA_MAX_INLINE);
	return sizeof(struct rxe_send_wqe) + payload;
}

int softrdma_rxe_rq_elem_size(u32 max_sge)
{
	if (max_sge > SOFTRDMA_MAX_SGE)
		return -EINVAL;
	return sizeof(struct rxe_recv_wqe) + max_sge * sizeof(struct rxe_sge);
}

/* ----------------------------------------------------------- send WQEs */

enum {
	SOFTRDMA_OP_RC		= BIT(0),	/* allowed on RC QPs */
	SOFTRDMA_OP_UC		= BIT(1),
	SOFTRDMA_OP_UD		= BIT(2),
	SOFTRDMA_OP_SGL		= BIT(3),	/* local SGE list */
	SOFTRDMA_OP_INLINE	= BIT(4),	/* payload may be inline */
	SOFTRDMA_OP_IMM		= BIT(5),	/* carries ex.imm_data */
	SOFTRDMA_OP_INV		= BIT(6),	/* carries ex.invalidate_rkey */
	SOFTRDMA_OP_RDMA	= BIT(7),	/* wr.rdma */
	SOFTRDMA_OP_ATOMIC	= BIT(8),	/* wr.atomic, one 8-byte SGE */
	SOFTRDMA_OP_ATOMIC_WRITE = BIT(9),	/* wr.rdma, 8 bytes at data[0] */
	SOFTRDMA_OP_LOCAL	= BIT(10),	/* no payload, no remote */
	SOFTRDMA_OP_MW		= BIT(11),	/* wr.mw */
	SOFTRDMA_OP_FLUSH	= BIT(12),	/* wr.flush, no payload */
};

/*
 * What each user opcode may be posted on and carries (IBA 1.4 vol 1
 * 9.4 and table 38 for the per-transport operations; IBA 1.5 ATOMIC
 * WRITE is RC only; 10.6.7.2 binds windows on RC and UC QPs).  Anything
 * absent is refused: TSO, RDMA_READ_WITH_INV and the masked atomics are
 * not offered to users.
 */
static const u16 softrdma_rxe_send_ops[] = {
	[IB_WR_RDMA_WRITE] = SOFTRDMA_OP_RC | SOFTRDMA_OP_UC |
		SOFTRDMA_OP_SGL | SOFTRDMA_OP_INLINE | SOFTRDMA_OP_RDMA,
	[IB_WR_RDMA_WRITE_WITH_IMM] = SOFTRDMA_OP_RC | SOFTRDMA_OP_UC |
		SOFTRDMA_OP_SGL | SOFTRDMA_OP_INLINE | SOFTRDMA_OP_RDMA |
		SOFTRDMA_OP_IMM,
	[IB_WR_SEND] = SOFTRDMA_OP_RC | SOFTRDMA_OP_UC | SOFTRDMA_OP_UD |
		SOFTRDMA_OP_SGL | SOFTRDMA_OP_INLINE,
	[IB_WR_SEND_WITH_IMM] = SOFTRDMA_OP_RC | SOFTRDMA_OP_UC |
		SOFTRDMA_OP_UD | SOFTRDMA_OP_SGL | SOFTRDMA_OP_INLINE |
		SOFTRDMA_OP_IMM,
	[IB_WR_RDMA_READ] = SOFTRDMA_OP_RC | SOFTRDMA_OP_SGL |
		SOFTRDMA_OP_RDMA,
	[IB_WR_ATOMIC_CMP_AND_SWP] = SOFTRDMA_OP_RC | SOFTRDMA_OP_ATOMIC,
	[IB_WR_ATOMIC_FETCH_AND_ADD] = SOFTRDMA_OP_RC | SOFTRDMA_OP_ATOMIC,
	[IB_WR_LOCAL_INV] = SOFTRDMA_OP_RC | SOFTRDMA_OP_UC |
		SOFTRDMA_OP_LOCAL | SOFTRDMA_OP_INV,
	[IB_WR_BIND_MW] = SOFTRDMA_OP_RC | SOFTRDMA_OP_UC |
		SOFTRDMA_OP_LOCAL | SOFTRDMA_OP_MW,
	[IB_WR_SEND_WITH_INV] = SOFTRDMA_OP_RC | SOFTRDMA_OP_SGL |
		SOFTRDMA_OP_INLINE | SOFTRDMA_OP_INV,
	/* IBA 1.5: where the core carries them (compat.h) */
	[SOFTRDMA_WR_ATOMIC_WRITE] = SOFTRDMA_HAVE_ATOMIC_WRITE ?
		SOFTRDMA_OP_RC | SOFTRDMA_OP_ATOMIC_WRITE | SOFTRDMA_OP_RDMA : 0,
	[SOFTRDMA_WR_FLUSH] = SOFTRDMA_HAVE_FLUSH ?
		SOFTRDMA_OP_RC | SOFTRDMA_OP_FLUSH : 0,
};

/*
 * The FLUSH member of rxe_send_wr's wr union, as 6.2's uapi lays it out
 * (6.1's has none): read from the snapshot by this layout on every kernel.
 */
struct softrdma_rxe_flush_wr {
	__aligned_u64 remote_addr;
	__u32 length;
	__u32 rkey;
	__u8 type;
	__u8 level;
};

static_assert(sizeof(struct softrdma_rxe_flush_wr) <=
	      sizeof_field(struct rxe_send_wr, wr));
#if SOFTRDMA_HAVE_FLUSH
static_assert(offsetof(struct rxe_send_wr, wr.flush.length) ==
	      offsetof(struct rxe_send_wr, wr) +
	      offsetof(struct softrdma_rxe_flush_wr, length));
static_assert(offsetof(struct rxe_send_wr, wr.flush.level) ==
	      offsetof(struct rxe_send_wr, wr) +
	      offsetof(struct softrdma_rxe_flush_wr, level));
#endif

/*
 * A FLUSH as ibv_wr_flush() posts it: placement type and selectivity as
 * the FETH carries them (IBA 1.5 9.3.6), and neither SGE nor payload.
 * librxe puts the length of the range where it puts every message's,
 * in dma.length (stock rxe sends dma.resid as the RETH's DMA length),
 * and leaves wr.flush.length zero.  The peer decides what it grants:
 * persistence too may be asked for.
 */
static int softrdma_rxe_fetch_flush(const struct rxe_send_wqe *wqe,
				    struct softrdma_send_wqe *out)
{
	struct softrdma_rxe_flush_wr f;

	memcpy(&f, &wqe->wr.wr, sizeof(f));
	if (wqe->dma.num_sge || (wqe->wr.send_flags & IB_SEND_INLINE) ||
	    !f.type || (f.type & ~(SOFTRDMA_FETH_PLT_GLOBAL |
				   SOFTRDMA_FETH_PLT_PERSISTENT)) ||
	    (f.level != SOFTRDMA_FETH_SEL_RANGE &&
	     f.level != SOFTRDMA_FETH_SEL_MR))
		return -EINVAL;
	out->wr.flush.remote_addr = f.remote_addr;
	out->wr.flush.rkey = f.rkey;
	out->wr.flush.length = wqe->dma.length;
	out->wr.flush.type = f.type;
	out->wr.flush.level = f.level;
	return 0;
}

#define SOFTRDMA_RXE_SEND_FLAGS	(IB_SEND_FENCE | IB_SEND_SIGNALED | \
				 IB_SEND_SOLICITED | IB_SEND_INLINE | \
				 IB_SEND_IP_CSUM)

#define SOFTRDMA_ATOMIC_LEN	sizeof(u64)

static u16 softrdma_rxe_send_op(u32 opcode, const struct softrdma_wqe_limits *lim)
{
	u16 qp_type_bit;
	u16 op;

	if (lim->rc && lim->ud)
		return 0;
	if (lim->rc)
		qp_type_bit = SOFTRDMA_OP_RC;
	else if (lim->ud)
		qp_type_bit = SOFTRDMA_OP_UD;
	else
		qp_type_bit = SOFTRDMA_OP_UC;

	if (opcode >= ARRAY_SIZE(softrdma_rxe_send_ops))
		return 0;
	op = softrdma_rxe_send_ops[array_index_nospec(opcode,
				    ARRAY_SIZE(softrdma_rxe_send_ops))];
	return op & qp_type_bit ? op : 0;
}

/* softrdma_fetch_sges() reads rxe_sge arrays as struct softrdma_sge */
static_assert(sizeof(struct rxe_sge) == sizeof(struct softrdma_sge));
static_assert(offsetof(struct rxe_sge, length) ==
	      offsetof(struct softrdma_sge, length));
static_assert(offsetof(struct rxe_sge, lkey) ==
	      offsetof(struct softrdma_sge, lkey));

/* ATOMIC WRITE as ibv_wr_atomic_write() builds it: 8 bytes at data[0]. */
static int softrdma_rxe_fetch_atomic_write(const struct rxe_send_wqe *uwqe,
					   const struct rxe_send_wqe *wqe,
					   struct softrdma_send_wqe *out)
{
	if (wqe->dma.num_sge || wqe->dma.length != SOFTRDMA_ATOMIC_LEN ||
	    !IS_ALIGNED(wqe->wr.wr.rdma.remote_addr, SOFTRDMA_ATOMIC_LEN))
		return -EINVAL;

	memcpy(out->inline_data, uwqe->dma.inline_data, SOFTRDMA_ATOMIC_LEN);
	out->send_flags |= IB_SEND_INLINE;
	out->length = SOFTRDMA_ATOMIC_LEN;
	return 0;
}

static int softrdma_rxe_fetch_payload(const struct rxe_send_wqe *uwqe,
				      const struct rxe_send_wqe *wqe, u16 op,
				      const struct softrdma_wqe_limits *lim,
				      struct softrdma_send_wqe *out)
{
	u32 max_inline = min_t(u32, lim->max_inline, SOFTRDMA_MAX_INLINE);
	u32 max_sge = min_t(u32, lim->max_sge, SOFTRDMA_MAX_SGE);
	u32 num_sge = wqe->dma.num_sge;
	bool inline_payload;
	int err;

	if (op & SOFTRDMA_OP_ATOMIC_WRITE)
		return softrdma_rxe_fetch_atomic_write(uwqe, wqe, out);

	/* librxe's ibv_wr_set_inline_data() does not set IBV_SEND_INLINE */
	inline_payload = (wqe->wr.send_flags & IB_SEND_INLINE) ||
			 ((op & SOFTRDMA_OP_INLINE) && !num_sge &&
			  wqe->dma.length);
	if (inline_payload) {
		if (!(op & SOFTRDMA_OP_INLINE) || wqe->dma.length > max_inline)
			return -EINVAL;
		/* dma.num_sge counts the SGEs the data came from: ignored */
		memcpy(out->inline_data, uwqe->dma.inline_data,
		       wqe->dma.length);
		out->send_flags |= IB_SEND_INLINE;
		out->length = wqe->dma.length;
		return 0;
	}

	if (op & SOFTRDMA_OP_LOCAL)
		return 0;	/* LOCAL_INV: any SGEs are meaningless */

	if (num_sge > max_sge)
		return -EINVAL;

	if (op & SOFTRDMA_OP_ATOMIC) {
		/* IBA 9.4.5: 8-byte aligned remote, 8-byte local result */
		if (num_sge != 1 ||
		    !IS_ALIGNED(wqe->wr.wr.atomic.remote_addr,
				SOFTRDMA_ATOMIC_LEN))
			return -EINVAL;
		err = softrdma_fetch_sges(uwqe->dma.sge, 1, out->sge,
					  &out->length);
		if (err || out->length < SOFTRDMA_ATOMIC_LEN)
			return -EINVAL;
		out->num_sge = 1;
		out->length = SOFTRDMA_ATOMIC_LEN;
		return 0;
	}

	/* SEND, WRITE, READ: any SGE count, zero-length messages included */
	err = softrdma_fetch_sges(uwqe->dma.sge, num_sge, out->sge,
				  &out->length);
	if (err || out->length > SOFTRDMA_ROCE_MAX_MSG_SZ)
		return -EINVAL;
	out->num_sge = num_sge;
	return 0;
}

int softrdma_rxe_fetch_send_wqe(const void *slot,
				const struct softrdma_wqe_limits *lim,
				struct softrdma_send_wqe *out)
{
	const struct rxe_send_wqe *uwqe = slot;
	struct rxe_send_wqe wqe;
	u16 op;

	/* one copy of the fixed part; the slot is not read again below */
	memcpy(&wqe, uwqe, sizeof(wqe));
	barrier();

	/* wr_id first: a flush completes even a refused WQE by it */
	memset(out, 0, sizeof(*out));
	out->wr_id = wqe.wr.wr_id;

	op = softrdma_rxe_send_op(wqe.wr.opcode, lim);
	if (!op || (wqe.wr.send_flags & ~SOFTRDMA_RXE_SEND_FLAGS))
		return -EINVAL;

	out->opcode = wqe.wr.opcode;
	out->send_flags = wqe.wr.send_flags;

	if (op & SOFTRDMA_OP_IMM)
		out->ex.imm_data = wqe.wr.ex.imm_data;
	else if (op & SOFTRDMA_OP_INV)
		out->ex.invalidate_rkey = wqe.wr.ex.invalidate_rkey;

	if (lim->ud) {
		/* ah_num 0 asks for the in-WQE AV of pre-5.15 kernels */
		if (!wqe.wr.wr.ud.ah_num || wqe.wr.wr.ud.remote_qpn > IB_QPN_MASK)
			return -EINVAL;
		out->wr.ud.remote_qpn = wqe.wr.wr.ud.remote_qpn;
		out->wr.ud.remote_qkey = wqe.wr.wr.ud.remote_qkey;
		out->wr.ud.ah_num = wqe.wr.wr.ud.ah_num;
	} else if (op & SOFTRDMA_OP_RDMA) {
		out->wr.rdma.remote_addr = wqe.wr.wr.rdma.remote_addr;
		out->wr.rdma.rkey = wqe.wr.wr.rdma.rkey;
	} else if (op & SOFTRDMA_OP_FLUSH) {
		return softrdma_rxe_fetch_flush(&wqe, out);
	} else if (op & SOFTRDMA_OP_MW) {
		/* ibv_post_send() refuses a bind with SGEs or payload too */
		if (wqe.dma.num_sge || wqe.dma.length ||
		    (wqe.wr.send_flags & IB_SEND_INLINE))
			return -EINVAL;
		out->wr.mw.addr = wqe.wr.wr.mw.addr;
		out->wr.mw.length = wqe.wr.wr.mw.length;
		out->wr.mw.mr_lkey = wqe.wr.wr.mw.mr_lkey;
		out->wr.mw.mw_rkey = wqe.wr.wr.mw.mw_rkey;
		out->wr.mw.rkey = wqe.wr.wr.mw.rkey;
		out->wr.mw.access = wqe.wr.wr.mw.access;
		return 0;
	} else if (op & SOFTRDMA_OP_ATOMIC) {
		out->wr.atomic.remote_addr = wqe.wr.wr.atomic.remote_addr;
		out->wr.atomic.compare_add = wqe.wr.wr.atomic.compare_add;
		out->wr.atomic.swap = wqe.wr.wr.atomic.swap;
		out->wr.atomic.rkey = wqe.wr.wr.atomic.rkey;
	}

	return softrdma_rxe_fetch_payload(uwqe, &wqe, op, lim, out);
}

/* -------------------------------------------------------- receive WQEs */

int softrdma_rxe_fetch_recv_wqe(const void *slot,
				const struct softrdma_wqe_limits *lim,
				struct softrdma_recv_wqe *out)
{
	u32 max_sge = min_t(u32, lim->max_sge, SOFTRDMA_MAX_SGE);
	const struct rxe_recv_wqe *uwqe = slot;
	struct rxe_recv_wqe wqe;

	memcpy(&wqe, uwqe, sizeof(wqe));
	barrier();

	/* wr_id first: a flush completes even a refused WQE by it */
	memset(out, 0, sizeof(*out));
	out->wr_id = wqe.wr_id;

	if (wqe.dma.num_sge > max_sge)
		return -EINVAL;

	out->num_sge = wqe.dma.num_sge;
	return softrdma_fetch_sges(uwqe->dma.sge, out->num_sge, out->sge,
				   &out->length);
}

/* -------------------------------------------------------------- CQEs */

static u32 softrdma_rxe_wc_opcode(enum ib_wc_opcode opcode)
{
	switch ((u32)opcode) {
	case IB_WC_SEND:
	case IB_WC_RDMA_WRITE:
	case IB_WC_RDMA_READ:
	case IB_WC_COMP_SWAP:
	case IB_WC_FETCH_ADD:
	case IB_WC_BIND_MW:
	case IB_WC_LOCAL_INV:
	case IB_WC_LSO:
	case IB_WC_RECV:
	case IB_WC_RECV_RDMA_WITH_IMM:
		return opcode;	/* same values as enum ib_uverbs_wc_opcode */
	case SOFTRDMA_WC_ATOMIC_WRITE:
		return SOFTRDMA_UVERBS_WC_ATOMIC_WRITE;
	case SOFTRDMA_WC_FLUSH:
		return SOFTRDMA_UVERBS_WC_FLUSH;
	default:
		/* REG_MR and the masked atomics are never posted by users */
		WARN_ON_ONCE(1);
		return opcode;
	}
}

/* enum ib_wc_flags to libibverbs' ibv_wc_flags, which order them apart */
static u32 softrdma_rxe_wc_flags(int flags)
{
	u32 uflags = 0;

	if (flags & IB_WC_GRH)
		uflags |= SOFTRDMA_UVERBS_WC_GRH;
	if (flags & IB_WC_WITH_IMM)
		uflags |= SOFTRDMA_UVERBS_WC_WITH_IMM;
	if (flags & IB_WC_IP_CSUM_OK)
		uflags |= SOFTRDMA_UVERBS_WC_IP_CSUM_OK;
	if (flags & IB_WC_WITH_INVALIDATE)
		uflags |= SOFTRDMA_UVERBS_WC_WITH_INV;
	return uflags;
}

void softrdma_rxe_write_cqe(void *slot, const struct ib_wc *wc)
{
	struct ib_uverbs_wc uwc = {
		.wr_id = wc->wr_id,
		.status = wc->status,
		.opcode = softrdma_rxe_wc_opcode(wc->opcode),
		.vendor_err = wc->vendor_err,
		.byte_len = wc->byte_len,
		.ex.imm_data = wc->ex.imm_data,
		.qp_num = wc->qp ? wc->qp->qp_num : 0,
		.src_qp = wc->src_qp,
		.wc_flags = softrdma_rxe_wc_flags(wc->wc_flags),
		.pkey_index = wc->pkey_index,
		.slid = wc->slid,
		.sl = wc->sl,
		.dlid_path_bits = wc->dlid_path_bits,
		.port_num = wc->port_num,
	};

	/* one copy: no kernel byte, padding included, is left undefined */
	memcpy(slot, &uwc, sizeof(uwc));
}

/* ------------------------------------------------------------------ CQs */

/*
 * Kernel CQs and librxe's: rxe-layout rings, one slot left empty; kernel
 * CQs hold struct ib_wc, polled through poll_cq, librxe's the uverbs
 * completion it polls itself.
 */
static int softrdma_rxe_cq_create(struct softrdma_cq *cq, int cqe,
				  struct ib_udata *udata)
{
	u32 elem_size = SOFTRDMA_KERNEL_CQ_ELEM_SIZE;
	struct rxe_create_cq_resp resp = {};
	struct softrdma_ring *ring;
	struct ib_ucontext *uctx;
	u32 num = cqe;
	int err;

	uctx = softrdma_ring_udata_uctx(udata, sizeof(resp));
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	if (uctx)
		elem_size = SOFTRDMA_RXE_CQ_ELEM_SIZE;
	ring = softrdma_ring_create(uctx, &num, elem_size,
				    SOFTRDMA_RING_USER_CONSUMES, &resp.mi);
	if (IS_ERR(ring))
		return PTR_ERR(ring);
	softrdma_ring_set_locks(ring, &cq->lock, uctx ? NULL : &cq->lock);

	err = softrdma_ring_answer(udata, &resp, sizeof(resp), ring);
	if (err)
		return err;

	cq->ring = ring;
	cq->ibcq.cqe = num;
	return 0;
}

/* kernel and librxe CQs: a new ring, the entries moved over */
static int softrdma_rxe_cq_resize(struct softrdma_cq *cq, int cqe,
				  struct ib_udata *udata)
{
	struct rxe_resize_cq_resp resp = {};
	struct softrdma_ring *spare;
	struct ib_ucontext *uctx;
	unsigned long flags;
	u32 num = cqe;
	int err;

	uctx = softrdma_ring_udata_uctx(udata, sizeof(resp));
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	spare = softrdma_ring_create(uctx, &num,
				     softrdma_ring_elem_size(cq->ring),
				     SOFTRDMA_RING_USER_CONSUMES, &resp.mi);
	if (IS_ERR(spare))
		return PTR_ERR(spare);
	softrdma_ring_set_locks(spare, &cq->lock, uctx ? NULL : &cq->lock);

	err = softrdma_ring_answer(udata, &resp, sizeof(resp), spare);
	if (err)
		return err;

	spin_lock_irqsave(&cq->lock, flags);
	err = softrdma_ring_resize(cq->ring, spare);
	if (!err)
		cq->ibcq.cqe = num;
	spin_unlock_irqrestore(&cq->lock, flags);

	/* the old buffer after a resize, the unused new one otherwise */
	softrdma_ring_destroy(spare);
	return err;
}

static void softrdma_kernel_write_cqe(void *slot, const struct ib_wc *wc)
{
	memcpy(slot, wc, sizeof(*wc));
}

static int softrdma_kernel_cq_poll(struct softrdma_cq *cq, int num_entries,
				   struct ib_wc *wc)
{
	unsigned long flags;
	int n = 0;

	spin_lock_irqsave(&cq->lock, flags);
	while (n < num_entries && !softrdma_ring_empty(cq->ring)) {
		memcpy(&wc[n++], softrdma_ring_consumer_slot(cq->ring),
		       sizeof(*wc));
		softrdma_ring_advance_consumer(cq->ring);
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}

/*
 * Arm the CQ (IBA 11.4.2.2): the next completion, or the next solicited
 * or error completion, calls the completion handler once.  Only a kernel
 * CQ can tell of completions already there.
 */
static int softrdma_kernel_cq_arm(struct softrdma_cq *cq,
				  enum ib_cq_notify_flags flags)
{
	softrdma_cq_arm_notify(cq, flags);
	return (flags & IB_CQ_REPORT_MISSED_EVENTS) &&
	       !softrdma_ring_empty(cq->ring);
}

static int softrdma_rxe_cq_arm(struct softrdma_cq *cq,
			       enum ib_cq_notify_flags flags)
{
	softrdma_cq_arm_notify(cq, flags);
	return 0;
}

const struct softrdma_cq_abi softrdma_kernel_cq_abi = {
	.create = softrdma_rxe_cq_create,
	.write_cqe = softrdma_kernel_write_cqe,
	.arm = softrdma_kernel_cq_arm,
	.notify = softrdma_cq_notify_fires,
	.poll = softrdma_kernel_cq_poll,
	.resize = softrdma_rxe_cq_resize,
};

static const struct softrdma_cq_abi softrdma_rxe_cq_abi = {
	.create = softrdma_rxe_cq_create,
	.write_cqe = softrdma_rxe_write_cqe,
	.arm = softrdma_rxe_cq_arm,
	.notify = softrdma_cq_notify_fires,
	.resize = softrdma_rxe_cq_resize,
};

/* ----------------------------------------------------------- QPs, SRQs */

/*
 * Kernel QPs of both transports and librxe's QPs: rxe-layout rings
 * (queue_rxe_abi.h), one slot of each left empty.
 */
static int softrdma_rxe_qp_create_queues(struct softrdma_qp *qp,
					 struct ib_qp_init_attr *init,
					 struct ib_ucontext *uctx, void *answer)
{
	struct rxe_create_qp_resp *resp = answer;
	struct ib_qp_cap *cap = &init->cap;
	u32 max_sge = max(cap->max_send_sge, 1U);
	u32 max_inline = cap->max_inline_data;
	u32 nsend = cap->max_send_wr, nrecv = cap->max_recv_wr;
	int size;

	if (uctx) {
		size = softrdma_rxe_sq_elem_size(&max_sge, &max_inline);
		if (size < 0)
			return size;
	} else {
		size = sizeof(struct softrdma_send_wqe);
		max_inline = qp->sdev->tp->lim.max_inline;
	}
	qp->sq.ring = softrdma_ring_create(uctx, &nsend, size,
					   SOFTRDMA_RING_USER_PRODUCES,
					   &resp->sq_mi);
	if (IS_ERR(qp->sq.ring))
		return PTR_ERR(qp->sq.ring);
	softrdma_ring_set_locks(qp->sq.ring, uctx ? NULL : &qp->sq.post_lock,
				&qp->sq.lock);
	qp->sq.lim = (struct softrdma_wqe_limits){
		.max_sge = max_sge,
		.max_inline = max_inline,
		.rc = init->qp_type == IB_QPT_RC,
		.ud = softrdma_qp_type_is_ud(init->qp_type),
	};

	if (init->srq) {
		/* librxe maps no RQ then; rq_mi stays zero */
		cap->max_recv_wr = 0;
		cap->max_recv_sge = 0;
		goto out_caps;
	}

	/* librxe maps an RQ whenever there is no SRQ, even an empty one */
	cap->max_recv_sge = max(cap->max_recv_sge, 1U);
	size = uctx ? softrdma_rxe_rq_elem_size(cap->max_recv_sge) :
		      sizeof(struct softrdma_recv_wqe);
	if (size < 0)
		goto out_destroy_sq;
	qp->rq.ring = softrdma_ring_create(uctx, &nrecv, size,
					   SOFTRDMA_RING_USER_PRODUCES,
					   &resp->rq_mi);
	if (IS_ERR(qp->rq.ring)) {
		qp->rq.ring = NULL;
		goto out_destroy_sq;
	}
	softrdma_ring_set_locks(qp->rq.ring, uctx ? NULL : &qp->rq.post_lock,
				&qp->rq.lock);
	qp->rq.lim = (struct softrdma_wqe_limits){
		.max_sge = cap->max_recv_sge,
		.rc = init->qp_type == IB_QPT_RC,
		.ud = softrdma_qp_type_is_ud(init->qp_type),
	};

	cap->max_recv_wr = nrecv;
out_caps:
	cap->max_send_wr = nsend;
	cap->max_send_sge = max_sge;
	cap->max_inline_data = max_inline;
	return 0;

out_destroy_sq:
	softrdma_ring_destroy(qp->sq.ring);
	return -ENOMEM;
}

static_assert(sizeof(struct rxe_create_qp_resp) <= SOFTRDMA_UABI_RESP_MAX);

/* librxe's QPs: the rings' mappings are the whole answer */
static const struct softrdma_qp_abi softrdma_rxe_qp_abi = {
	.resp_len = sizeof(struct rxe_create_qp_resp),
	.create_queues = softrdma_rxe_qp_create_queues,
};

const struct softrdma_qp_abi softrdma_kernel_qp_abi = {
	.create_queues = softrdma_rxe_qp_create_queues,
};

/* librxe's ring and kernel SRQs: rxe layout, one slot left empty */
static int softrdma_rxe_srq_create_ring(struct softrdma_srq *srq,
					struct ib_srq_init_attr *init,
					struct ib_ucontext *uctx, void *answer)
{
	struct rxe_create_srq_resp *resp = answer;
	u32 max_sge = max(init->attr.max_sge, 1U);
	u32 num = init->attr.max_wr;
	int size;

	size = uctx ? softrdma_rxe_rq_elem_size(max_sge) :
		      sizeof(struct softrdma_recv_wqe);
	if (size < 0)
		return size;
	srq->ring = softrdma_ring_create(uctx, &num, size,
					 SOFTRDMA_RING_USER_PRODUCES,
					 uctx ? &resp->mi : NULL);
	if (IS_ERR(srq->ring))
		return PTR_ERR(srq->ring);
	softrdma_ring_set_locks(srq->ring, uctx ? NULL : &srq->post_lock,
				&srq->lock);
	srq->lim = (struct softrdma_wqe_limits){ .max_sge = max_sge };
	init->attr.max_wr = num;
	init->attr.max_sge = max_sge;
	return 0;
}

static void softrdma_rxe_srq_resp_srqn(void *answer, u32 srq_num)
{
	struct rxe_create_srq_resp *resp = answer;

	resp->srq_num = srq_num;
}

/*
 * IB_SRQ_MAX_WR on an rxe-layout SRQ: a new ring takes the queued WQEs
 * in order.  librxe holds its SRQ lock across the verb and then maps the
 * struct mminfo written to its mmap_info_addr.
 */
static int softrdma_rxe_srq_resize(struct softrdma_srq *srq, u32 max_wr,
				   struct ib_udata *udata)
{
	struct rxe_modify_srq_cmd cmd = {};
	struct ib_ucontext *uctx = NULL;
	struct softrdma_ring *spare;
	struct mminfo mi = {};
	unsigned long flags;
	u32 num = max_wr;
	int err;

	if (udata) {
		if (udata->inlen < sizeof(cmd))
			return -EINVAL;
		err = ib_copy_from_udata(&cmd, udata, sizeof(cmd));
		if (err)
			return err;
		uctx = &rdma_udata_to_drv_context(udata,
						  struct softrdma_ucontext,
						  ibuc)->ibuc;
	}

	spare = softrdma_ring_create(uctx, &num,
				     softrdma_ring_elem_size(srq->ring),
				     SOFTRDMA_RING_USER_PRODUCES,
				     uctx ? &mi : NULL);
	if (IS_ERR(spare))
		return PTR_ERR(spare);
	softrdma_ring_set_locks(spare, uctx ? NULL : &srq->post_lock,
				&srq->lock);

	if (udata && copy_to_user(u64_to_user_ptr(cmd.mmap_info_addr), &mi,
				  sizeof(mi))) {
		err = -EFAULT;
		goto out_destroy_spare;
	}

	spin_lock_irqsave(&srq->post_lock, flags);
	spin_lock(&srq->lock);
	err = softrdma_ring_resize(srq->ring, spare);
	if (!err)
		srq->max_wr = num;
	spin_unlock(&srq->lock);
	spin_unlock_irqrestore(&srq->post_lock, flags);

out_destroy_spare:
	/* the old buffer after a resize, the unused new one otherwise */
	softrdma_ring_destroy(spare);
	return err;
}

static_assert(sizeof(struct rxe_create_srq_resp) <= SOFTRDMA_UABI_RESP_MAX);

static const struct softrdma_srq_abi softrdma_rxe_srq_abi = {
	.resp_len = sizeof(struct rxe_create_srq_resp),
	.create_ring = softrdma_rxe_srq_create_ring,
	.resp_srqn = softrdma_rxe_srq_resp_srqn,
	.resize = softrdma_rxe_srq_resize,
};

const struct softrdma_srq_abi softrdma_kernel_srq_abi = {
	.create_ring = softrdma_rxe_srq_create_ring,
	.resize = softrdma_rxe_srq_resize,
};

/* ---------------------------------------------------------- responses */

/*
 * librxe reads ah_num only if the response has room for it, and computes
 * an address vector itself when it is 0; ours never is.
 */
static int softrdma_rxe_create_ah_resp(struct ib_udata *udata, u32 ah_num)
{
	struct rxe_create_ah_resp resp = {};

	if (udata->outlen < sizeof(resp))
		return 0;
	resp.ah_num = ah_num;
	return ib_copy_to_udata(udata, &resp, sizeof(resp));
}

/* librxe exchanges nothing at alloc_ucontext and reg_user_mr */
const struct softrdma_uabi_ops softrdma_rxe_uabi_ops = {
	.cq = &softrdma_rxe_cq_abi,
	.qp = &softrdma_rxe_qp_abi,
	.srq = &softrdma_rxe_srq_abi,
	.create_ah_resp = softrdma_rxe_create_ah_resp,
};
