// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for ud.c: the Q_Key rules of sending and receiving, UD
 * opcodes and lengths, and the GRH area written in front of received
 * messages, checked against how the RDMA core reads it back.
 */
#include <kunit/test.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <net/ipv6.h>
#include <rdma/ib_pack.h>
#include <rdma/ib_verbs.h>

#include "qp.h"
#include "roce_qp.h"
#include "ud.h"

struct ud_send_qkey_case {
	const char *name;
	u32 qpn;
	u32 qp_qkey;
	u32 wr_qkey;
	u32 want;
};

static const struct ud_send_qkey_case ud_send_qkey_cases[] = {
	{ "plain_wr_qkey", 0x12, 0x11111111, 0x22222222, 0x22222222 },
	{ "high_bit_takes_qp_qkey", 0x12, 0x11111111, 0x80000000, 0x11111111 },
	{ "high_bit_any_low_bits", 0x12, 0x01234567, 0x80010000, 0x01234567 },
	{ "privileged_qp_qkey", 0x12, 0x80010000, 0x80000001, 0x80010000 },
	{ "zero_wr_qkey", 0x12, 0x11111111, 0, 0 },
	{ "gsi_always_well_known", 1, 0x80010000, 0x11111111, 0x80010000 },
	{ "gsi_attr_ignored", 1, 0, 0, 0x80010000 },
};

static void ud_send_qkey_desc(const struct ud_send_qkey_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ud_send_qkey, ud_send_qkey_cases, ud_send_qkey_desc);

static void softrdma_ud_send_qkey_rule(struct kunit *test)
{
	const struct ud_send_qkey_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, softrdma_ud_send_qkey(c->qpn, c->qp_qkey,
						    c->wr_qkey), c->want);
}

struct ud_qkey_ok_case {
	const char *name;
	u32 qpn;
	u32 qp_qkey;
	u32 pkt_qkey;
	bool want;
};

static const struct ud_qkey_ok_case ud_qkey_ok_cases[] = {
	{ "equal", 0x20, 0x11111111, 0x11111111, true },
	{ "different", 0x20, 0x11111111, 0x11111112, false },
	{ "privileged_equal", 0x20, 0x80010000, 0x80010000, true },
	{ "privileged_not_equal", 0x20, 0x11111111, 0x80010000, false },
	{ "zero_qkey_equal", 0x20, 0, 0, true },
	{ "gsi_well_known", 1, 0x80010000, 0x80010000, true },
	{ "gsi_other_key", 1, 0x80010000, 0x11111111, false },
	{ "gsi_attr_ignored", 1, 0x11111111, 0x11111111, false },
	{ "gsi_attr_ignored_wk", 1, 0, 0x80010000, true },
};

static void ud_qkey_ok_desc(const struct ud_qkey_ok_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ud_qkey_ok, ud_qkey_ok_cases, ud_qkey_ok_desc);

static void softrdma_ud_qkey_accept(struct kunit *test)
{
	const struct ud_qkey_ok_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, softrdma_ud_qkey_ok(c->qpn, c->qp_qkey,
						  c->pkt_qkey), c->want);
}

struct ud_opcode_case {
	const char *name;
	u32 wr_opcode;
	u32 length;
	u32 mtu;
	int err;
	u8 opcode;
};

static const struct ud_opcode_case ud_opcode_cases[] = {
	{ "send_empty", IB_WR_SEND, 0, 1024, 0, IB_OPCODE_UD_SEND_ONLY },
	{ "send_mtu", IB_WR_SEND, 1024, 1024, 0, IB_OPCODE_UD_SEND_ONLY },
	{ "send_over_mtu", IB_WR_SEND, 1025, 1024, -EMSGSIZE, 0 },
	{ "send_4096", IB_WR_SEND, 4096, 4096, 0, IB_OPCODE_UD_SEND_ONLY },
	{ "imm_mtu", IB_WR_SEND_WITH_IMM, 256, 256, 0,
	  IB_OPCODE_UD_SEND_ONLY_WITH_IMMEDIATE },
	{ "imm_over_mtu", IB_WR_SEND_WITH_IMM, 257, 256, -EMSGSIZE, 0 },
	{ "write", IB_WR_RDMA_WRITE, 8, 1024, -EOPNOTSUPP, 0 },
	{ "write_imm", IB_WR_RDMA_WRITE_WITH_IMM, 8, 1024, -EOPNOTSUPP, 0 },
	{ "read", IB_WR_RDMA_READ, 8, 1024, -EOPNOTSUPP, 0 },
	{ "cmp_swap", IB_WR_ATOMIC_CMP_AND_SWP, 8, 1024, -EOPNOTSUPP, 0 },
	{ "send_inv", IB_WR_SEND_WITH_INV, 8, 1024, -EOPNOTSUPP, 0 },
	{ "local_inv", IB_WR_LOCAL_INV, 0, 1024, -EOPNOTSUPP, 0 },
	{ "unknown", 0xff, 0, 1024, -EOPNOTSUPP, 0 },
};

static void ud_opcode_desc(const struct ud_opcode_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ud_opcode, ud_opcode_cases, ud_opcode_desc);

static void softrdma_ud_send_opcode_rule(struct kunit *test)
{
	const struct ud_opcode_case *c = test->param_value;
	u8 opcode = 0xaa;
	int err;

	err = softrdma_ud_send_opcode(c->wr_opcode, c->length, c->mtu, &opcode);
	KUNIT_EXPECT_EQ(test, err, c->err);
	if (!c->err)
		KUNIT_EXPECT_EQ(test, opcode, c->opcode);
}

/* An skb holding @hdr as its network header, then a few bytes */
static struct sk_buff *ud_test_skb(struct kunit *test, const void *hdr,
				   unsigned int len)
{
	struct sk_buff *skb = alloc_skb(len + 64, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reset_network_header(skb);
	skb_put_data(skb, hdr, len);
	skb_put_zero(skb, 20);
	return skb;
}

/* an IPv4 RoCEv2 header of stock rxe traffic: 192.0.2.1 -> 192.0.2.2 */
static const u8 ud_ip4[20] = {
	0x45, 0x00, 0x00, 0x30, 0xcd, 0x8c, 0x40, 0x00,
	0x40, 0x11, 0xe9, 0x2c, 0xc0, 0x00, 0x02, 0x01,
	0xc0, 0x00, 0x02, 0x02,
};

static void softrdma_ud_grh_ipv4(struct kunit *test)
{
	static const u8 zero[20];
	union ib_gid sgid, dgid, want;
	u8 grh[SOFTRDMA_UD_GRH_LEN];
	struct sk_buff *skb;

	skb = ud_test_skb(test, ud_ip4, sizeof(ud_ip4));
	memset(grh, 0xa5, sizeof(grh));
	KUNIT_ASSERT_EQ(test, softrdma_ud_grh(skb, grh), 0);
	kfree_skb(skb);

	/* A17.4.5.1: 20 zero bytes, then the IPv4 header */
	KUNIT_EXPECT_EQ(test, memcmp(grh, zero, sizeof(zero)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(grh + 20, ud_ip4, sizeof(ud_ip4)), 0);

	/* and the RDMA core finds both addresses where it looks */
	KUNIT_ASSERT_EQ(test,
			ib_get_gids_from_rdma_hdr((union rdma_network_hdr *)grh,
						  RDMA_NETWORK_IPV4, &sgid,
						  &dgid), 0);
	ipv6_addr_set_v4mapped(htonl(0xc0000201), (struct in6_addr *)&want);
	KUNIT_EXPECT_EQ(test, memcmp(&sgid, &want, sizeof(want)), 0);
	ipv6_addr_set_v4mapped(htonl(0xc0000202), (struct in6_addr *)&want);
	KUNIT_EXPECT_EQ(test, memcmp(&dgid, &want, sizeof(want)), 0);
}

static void softrdma_ud_grh_ipv6(struct kunit *test)
{
	union ib_gid sgid, dgid;
	u8 grh[SOFTRDMA_UD_GRH_LEN];
	struct ipv6hdr ip6 = {
		.version = 6,
		.payload_len = htons(44),
		.nexthdr = IPPROTO_UDP,
		.hop_limit = 64,
	};
	struct sk_buff *skb;

	ip6.flow_lbl[0] = 0x0a;
	ip6.flow_lbl[1] = 0xbc;
	ip6.flow_lbl[2] = 0xde;
	ip6.saddr.s6_addr32[0] = htonl(0x20010db8);
	ip6.saddr.s6_addr32[3] = htonl(1);
	ip6.daddr.s6_addr32[0] = htonl(0x20010db8);
	ip6.daddr.s6_addr32[3] = htonl(2);

	skb = ud_test_skb(test, &ip6, sizeof(ip6));
	KUNIT_ASSERT_EQ(test, softrdma_ud_grh(skb, grh), 0);
	kfree_skb(skb);

	/* the IPv6 header is the GRH, byte for byte */
	KUNIT_EXPECT_EQ(test, memcmp(grh, &ip6, sizeof(ip6)), 0);
	KUNIT_ASSERT_EQ(test,
			ib_get_gids_from_rdma_hdr((union rdma_network_hdr *)grh,
						  RDMA_NETWORK_IPV6, &sgid,
						  &dgid), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&sgid, &ip6.saddr, sizeof(sgid)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&dgid, &ip6.daddr, sizeof(dgid)), 0);
}

static void softrdma_ud_grh_bad_version(struct kunit *test)
{
	u8 hdr[40] = { 0x55 };	/* version 5 */
	u8 grh[SOFTRDMA_UD_GRH_LEN];
	struct sk_buff *skb;

	skb = ud_test_skb(test, hdr, sizeof(hdr));
	KUNIT_EXPECT_EQ(test, softrdma_ud_grh(skb, grh), -EINVAL);
	kfree_skb(skb);
}

static void softrdma_ud_qp_type(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, softrdma_qp_type_is_ud(IB_QPT_UD));
	KUNIT_EXPECT_TRUE(test, softrdma_qp_type_is_ud(IB_QPT_GSI));
	KUNIT_EXPECT_FALSE(test, softrdma_qp_type_is_ud(IB_QPT_RC));
	KUNIT_EXPECT_FALSE(test, softrdma_qp_type_is_ud(IB_QPT_UC));
	KUNIT_EXPECT_FALSE(test, softrdma_qp_type_is_ud(IB_QPT_SMI));
}

struct ud_drain_case {
	const char *name;
	bool running;		/* the SQ sends (RTS) */
	bool sending;		/* a sender hands over a packet, unlocked */
	bool notify;		/* IB_QP_EN_SQD_ASYNC_NOTIFY set */
	int events;		/* SQ_DRAINED raised by the move to SQD */
	bool owed;		/* ... or left to the sender */
};

static const struct ud_drain_case ud_drain_cases[] = {
	{ "idle", true, false, true, 1, false },
	{ "sending", true, true, true, 0, true },
	{ "not_asked", true, false, false, 0, false },
	{ "failed", false, false, true, 0, false },
};

static void ud_drain_desc(const struct ud_drain_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ud_drain, ud_drain_cases, ud_drain_desc);

static void ud_drain_handler(struct ib_event *event, void *ctx)
{
	int *events = ctx;

	*events += event->event == IB_EVENT_SQ_DRAINED ? 1 : 100;
}

/*
 * IBA 10.3.1, 11.6.3.1: a UD QP moved to SQD raises SQ Drained once the
 * sends it started have left: at once, or from the sender still handing
 * over its packet.
 */
static void softrdma_ud_drain_event(struct kunit *test)
{
	const struct ud_drain_case *c = test->param_value;
	struct softrdma_roce_qp *rqp;
	struct softrdma_qp *qp;
	int events = 0;

	rqp = kunit_kzalloc(test, sizeof(*rqp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rqp);
	qp = &rqp->qp;
	mutex_init(&qp->state_mutex);
	spin_lock_init(&qp->sq.lock);
	qp->ibqp.event_handler = ud_drain_handler;
	qp->ibqp.qp_context = &events;
	qp->attr.en_sqd_async_notify = c->notify;
	qp->state = IB_QPS_SQD;
	rqp->ud.running = c->running;
	rqp->ud.sending = c->sending;

	mutex_lock(&qp->state_mutex);
	softrdma_ud_drain(qp);
	mutex_unlock(&qp->state_mutex);
	KUNIT_EXPECT_EQ(test, events, c->events);
	KUNIT_EXPECT_EQ(test, rqp->ud.sq_drained_owed, c->owed);
}

struct ud_recv_ready_case {
	const char *name;
	enum ib_qp_state state;
	bool want;
};

/* IBA 10.3.1: which states let a UD packet take a receive WQE */
static const struct ud_recv_ready_case ud_recv_ready_cases[] = {
	{ "reset", IB_QPS_RESET, false },
	{ "init", IB_QPS_INIT, false },
	{ "rtr", IB_QPS_RTR, true },
	{ "rts", IB_QPS_RTS, true },
	{ "sqd", IB_QPS_SQD, true },
	{ "sqe", IB_QPS_SQE, true },
	{ "err", IB_QPS_ERR, false },
};

static void ud_recv_ready_desc(const struct ud_recv_ready_case *c,
			       char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ud_recv_ready, ud_recv_ready_cases, ud_recv_ready_desc);

/*
 * The receive path's state check, read under rq.lock as every write of
 * the state holds it (lockdep checks the lock is taken).
 */
static void softrdma_ud_recv_state(struct kunit *test)
{
	const struct ud_recv_ready_case *c = test->param_value;
	struct softrdma_qp *qp;
	bool ready;

	qp = kunit_kzalloc(test, sizeof(*qp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	spin_lock_init(&qp->rq.lock);
	qp->state = c->state;

	spin_lock_bh(&qp->rq.lock);
	ready = softrdma_ud_recv_ready(qp);
	spin_unlock_bh(&qp->rq.lock);
	KUNIT_EXPECT_EQ(test, ready, c->want);
}

static struct kunit_case softrdma_ud_cases[] = {
	KUNIT_CASE_PARAM(softrdma_ud_send_qkey_rule, ud_send_qkey_gen_params),
	KUNIT_CASE_PARAM(softrdma_ud_qkey_accept, ud_qkey_ok_gen_params),
	KUNIT_CASE_PARAM(softrdma_ud_send_opcode_rule, ud_opcode_gen_params),
	KUNIT_CASE(softrdma_ud_grh_ipv4),
	KUNIT_CASE(softrdma_ud_grh_ipv6),
	KUNIT_CASE(softrdma_ud_grh_bad_version),
	KUNIT_CASE(softrdma_ud_qp_type),
	KUNIT_CASE_PARAM(softrdma_ud_drain_event, ud_drain_gen_params),
	KUNIT_CASE_PARAM(softrdma_ud_recv_state, ud_recv_ready_gen_params),
	{}
};

static struct kunit_suite softrdma_ud_suite = {
	.name = "softrdma_ud",
	.test_cases = softrdma_ud_cases,
};

kunit_test_suite(softrdma_ud_suite);
