// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for what the iWARP data path sets on its connection's TCP
 * socket (iwarp_qp.c).
 */
#include <kunit/test.h>
#include <linux/in.h>
#include <linux/net.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include <rdma/ib_verbs.h>

#include "iwarp_qp.h"

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

static struct kunit_case softrdma_iwarp_qp_cases[] = {
	KUNIT_CASE(softrdma_iwarp_qp_sk_own_page_frag),
	{}
};

static struct kunit_suite softrdma_iwarp_qp_suite = {
	.name = "softrdma_iwarp_qp",
	.test_cases = softrdma_iwarp_qp_cases,
};

kunit_test_suite(softrdma_iwarp_qp_suite);
