// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for iwarp_qp.c: the iWARP QP's modify_qp transitions and
 * what the data path sets on its connection's TCP socket.
 */
#include <kunit/test.h>
#include <linux/in.h>
#include <linux/net.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include <rdma/ib_verbs.h>

#include "iwarp_qp.h"
#include "qp_state.h"

/*
 * The transmit engine sends from a task (sk_allocation GFP_KERNEL) and
 * from TCP's receive softirq (GFP_ATOMIC, softrdma_iw_tx_run_locked()).
 * Either way the bytes TCP copies must land in the socket's own page
 * fragment: in the softirq, current->task_frag belongs to the task it
 * interrupted, which may be halfway through a copy of its own into it.
 */
static void softrdma_iwarp_qp_sk_own_page_frag(struct kunit *test)
{
	static const gfp_t gfps[] = { GFP_KERNEL, GFP_ATOMIC };
	struct socket *sock;
	struct sock *sk;
	unsigned int i;
	int err;

	err = sock_create_kern(&init_net, PF_INET, SOCK_STREAM, IPPROTO_TCP,
			       &sock);
	KUNIT_ASSERT_EQ(test, err, 0);
	sk = sock->sk;
	lock_sock(sk);
	softrdma_iw_sk_prepare(sk);
	release_sock(sk);
	for (i = 0; i < ARRAY_SIZE(gfps); i++) {
		sk->sk_allocation = gfps[i];
		KUNIT_EXPECT_PTR_EQ_MSG(test, sk_page_frag(sk), &sk->sk_frag,
					"case %u (0: GFP_KERNEL, 1: GFP_ATOMIC)",
					i);
	}
	sock_release(sock);
}

/* iWARP: what the iw_cm, rdma_cm and librdmacm send, and what they never do */
#define IW_INIT_MASK	(IB_QP_STATE | IB_QP_ACCESS_FLAGS)
#define CMA_PORT	IB_QP_PORT	/* rdma_init_qp_attr() adds it */
/* what an IB consumer passes to RESET -> INIT (IBA table 91) */
#define RC_INIT_MASK	(IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT | \
			 IB_QP_ACCESS_FLAGS)
/* ... and to INIT -> RTR */
#define RC_RTR_MASK	(IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU | \
			 IB_QP_DEST_QPN | IB_QP_RQ_PSN | \
			 IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER)

struct iw_case {
	const char *name;
	enum ib_qp_state cur;
	enum ib_qp_state next;
	int mask;
	int err;
	unsigned int actions;
};

static const struct iw_case iw_cases[] = {
	{ "iwcm_reset_to_init", IB_QPS_RESET, IB_QPS_INIT, IW_INIT_MASK, 0, 0 },
	{ "cma_reset_to_init", IB_QPS_RESET, IB_QPS_INIT,
	  IW_INIT_MASK | CMA_PORT, 0, 0 },
	{ "state_only_reset_to_init", IB_QPS_RESET, IB_QPS_INIT, IB_QP_STATE,
	  0, 0 },
	{ "cma_init_to_init_again", IB_QPS_INIT, IB_QPS_INIT,
	  IW_INIT_MASK | CMA_PORT, 0, 0 },
	{ "cma_init_to_rtr", IB_QPS_INIT, IB_QPS_RTR, IW_INIT_MASK | CMA_PORT,
	  0, SOFTRDMA_QP_ACT_RECV },
	{ "init_to_rtr_with_rd_atomic", IB_QPS_INIT, IB_QPS_RTR,
	  IW_INIT_MASK | IB_QP_MAX_DEST_RD_ATOMIC, 0, SOFTRDMA_QP_ACT_RECV },
	/* rdma_init_qp_attr(RTS) on iWARP: no state, the port only */
	{ "cma_rts_port_only_in_rtr", IB_QPS_RTR, IB_QPS_RTR, CMA_PORT, 0, 0 },
	{ "cma_rts_port_only_in_rts", IB_QPS_RTS, IB_QPS_RTS, CMA_PORT, 0, 0 },
	{ "rts_to_rts_noop", IB_QPS_RTS, IB_QPS_RTS, IB_QP_STATE, 0, 0 },
	{ "rtr_to_rts_needs_the_cm", IB_QPS_RTR, IB_QPS_RTS, IB_QP_STATE,
	  -EINVAL, 0 },
	{ "init_to_rts_needs_the_cm", IB_QPS_INIT, IB_QPS_RTS, IB_QP_STATE,
	  -EINVAL, 0 },
	{ "rts_to_sqd_closing", IB_QPS_RTS, IB_QPS_SQD, IB_QP_STATE, 0,
	  SOFTRDMA_QP_ACT_DRAIN },
	{ "sqd_to_rts_refused", IB_QPS_SQD, IB_QPS_RTS, IB_QP_STATE, -EINVAL,
	  0 },
	/* rdma_disconnect() after the peer closed: flush what came since */
	{ "err_to_sqd_stays_err_flushes", IB_QPS_ERR, IB_QPS_SQD, IB_QP_STATE,
	  0, SOFTRDMA_QP_ACT_FLUSH },
	{ "err_to_err_flushes_again", IB_QPS_ERR, IB_QPS_ERR, IB_QP_STATE, 0,
	  SOFTRDMA_QP_ACT_FLUSH },
	{ "err_attrs_flush_again", IB_QPS_ERR, IB_QPS_ERR,
	  IB_QP_ACCESS_FLAGS, 0, SOFTRDMA_QP_ACT_FLUSH },
	{ "rtr_to_sqd_refused", IB_QPS_RTR, IB_QPS_SQD, IB_QP_STATE, -EINVAL,
	  0 },
	{ "rts_to_err", IB_QPS_RTS, IB_QPS_ERR, IB_QP_STATE, 0,
	  SOFTRDMA_QP_ACT_FLUSH },
	{ "sqd_to_err", IB_QPS_SQD, IB_QPS_ERR, IB_QP_STATE, 0,
	  SOFTRDMA_QP_ACT_FLUSH },
	{ "err_to_reset", IB_QPS_ERR, IB_QPS_RESET, IB_QP_STATE, 0,
	  SOFTRDMA_QP_ACT_RESET },
	{ "reset_to_rtr_skips", IB_QPS_RESET, IB_QPS_RTR, IW_INIT_MASK,
	  -EINVAL, 0 },
	{ "rtr_to_init_back", IB_QPS_RTR, IB_QPS_INIT, IB_QP_STATE, -EINVAL,
	  0 },
	{ "to_sqe_refused", IB_QPS_RTS, IB_QPS_SQE, IB_QP_STATE, -EINVAL, 0 },
	/* what an IB-style caller passes along: kept, as stock siw takes it */
	{ "ib_rc_init_mask_pkey", IB_QPS_RESET, IB_QPS_INIT, RC_INIT_MASK, 0,
	  0 },
	{ "ib_path_mtu", IB_QPS_INIT, IB_QPS_RTR,
	  IW_INIT_MASK | IB_QP_PATH_MTU, 0, SOFTRDMA_QP_ACT_RECV },
	{ "ib_rtr_values", IB_QPS_INIT, IB_QPS_RTR,
	  IB_QP_STATE | IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN |
	  IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER, 0,
	  SOFTRDMA_QP_ACT_RECV },
	{ "ib_psn", IB_QPS_RTS, IB_QPS_RTS, IB_QP_SQ_PSN, 0, 0 },
	{ "ib_timeout", IB_QPS_RTS, IB_QPS_RTS,
	  IB_QP_TIMEOUT | IB_QP_RETRY_CNT | IB_QP_RNR_RETRY, 0, 0 },
	{ "ib_dest_qpn", IB_QPS_INIT, IB_QPS_RTR,
	  IW_INIT_MASK | IB_QP_DEST_QPN, 0, SOFTRDMA_QP_ACT_RECV },
	/* what stock siw takes and ignores (SOFTRDMA_IWARP_QP_IGNORED) */
	{ "ib_rtr_av", IB_QPS_INIT, IB_QPS_RTR, IW_INIT_MASK | IB_QP_AV, 0,
	  SOFTRDMA_QP_ACT_RECV },
	{ "ib_rc_rtr_mask", IB_QPS_INIT, IB_QPS_RTR, RC_RTR_MASK, 0,
	  SOFTRDMA_QP_ACT_RECV },
	{ "ib_qkey", IB_QPS_RESET, IB_QPS_INIT, IW_INIT_MASK | IB_QP_QKEY, 0,
	  0 },
	{ "ib_path_mig_state", IB_QPS_RTS, IB_QPS_RTS, IB_QP_PATH_MIG_STATE,
	  0, 0 },
	{ "ib_sqd_av", IB_QPS_RTS, IB_QPS_RTS, IB_QP_AV | IB_QP_PORT, 0, 0 },
	{ "ib_cap", IB_QPS_RTS, IB_QPS_RTS, IB_QP_CAP, 0, 0 },
	/* the RDMA core refuses it on a port that is not InfiniBand */
	{ "ib_alt_path", IB_QPS_RTS, IB_QPS_RTS, IB_QP_ALT_PATH, -EINVAL,
	  0 },
	{ "ib_alt_path_with_mig", IB_QPS_RTS, IB_QPS_RTS,
	  IB_QP_ALT_PATH | IB_QP_PATH_MIG_STATE, -EINVAL, 0 },
	{ "rate_limit", IB_QPS_RTS, IB_QPS_RTS, IB_QP_RATE_LIMIT, -EINVAL,
	  0 },
	{ "bad_state_value", IB_QPS_INIT, 42, IB_QP_STATE, -EINVAL, 0 },
};

static void iw_case_desc(const struct iw_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(iw, iw_cases, iw_case_desc);

static void softrdma_iwarp_qp_transition_table(struct kunit *test)
{
	const struct iw_case *c = test->param_value;
	unsigned int actions = 0xdead;

	KUNIT_EXPECT_EQ(test, softrdma_iwarp_qp_transition(c->cur, c->next,
							   c->mask, &actions),
			c->err);
	KUNIT_EXPECT_EQ(test, actions, c->err ? 0 : c->actions);
}

/*
 * After the connection manager's RTS, query_qp reports the connection's
 * port, rights, Read depths and path MTU, over what was set before (here
 * by a client QP, whose INIT the rdma_cm sets before the iw_cm exists,
 * with no rights, and an IB-style caller's path MTU); the rest stays as
 * set.
 */
static void softrdma_iwarp_qp_conn_attr_reported(struct kunit *test)
{
	static const struct {
		unsigned int netdev_mtu;
		enum ib_mtu path_mtu;
	} mtus[] = {
		{ 1500, IB_MTU_1024 },
		{ 9000, IB_MTU_4096 },
		{ 1280, IB_MTU_1024 },
		{ 1000, IB_MTU_512 },
	};
	const struct softrdma_iwarp_params p = { .ird = 2, .ord = 3 };
	struct ib_qp_attr a;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mtus); i++) {
		memset(&a, 0, sizeof(a));
		a.port_num = 1;
		a.path_mtu = IB_MTU_256;
		a.sq_psn = 0x1234;
		a.timeout = 14;
		a.cap.max_send_wr = 16;
		a.cap.max_inline_data = 80;
		softrdma_iwarp_qp_conn_attr(&a, &p, mtus[i].netdev_mtu);
		KUNIT_EXPECT_EQ(test, a.port_num, 1);
		KUNIT_EXPECT_EQ(test, a.qp_access_flags,
				IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
				IB_ACCESS_REMOTE_READ);
		KUNIT_EXPECT_EQ(test, a.max_rd_atomic, 3);
		KUNIT_EXPECT_EQ(test, a.max_dest_rd_atomic, 2);
		KUNIT_EXPECT_EQ_MSG(test, a.path_mtu, mtus[i].path_mtu,
				    "netdev MTU %u", mtus[i].netdev_mtu);
		KUNIT_EXPECT_EQ(test, a.sq_psn, 0x1234);
		KUNIT_EXPECT_EQ(test, a.timeout, 14);
		KUNIT_EXPECT_EQ(test, a.cap.max_send_wr, 16);
		KUNIT_EXPECT_EQ(test, a.cap.max_inline_data, 80);
	}
}

static struct kunit_case softrdma_iwarp_qp_cases[] = {
	KUNIT_CASE_PARAM(softrdma_iwarp_qp_transition_table, iw_gen_params),
	KUNIT_CASE(softrdma_iwarp_qp_conn_attr_reported),
	KUNIT_CASE(softrdma_iwarp_qp_sk_own_page_frag),
	{}
};

static struct kunit_suite softrdma_iwarp_qp_suite = {
	.name = "softrdma_iwarp_qp",
	.test_cases = softrdma_iwarp_qp_cases,
};

kunit_test_suite(softrdma_iwarp_qp_suite);
