// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the pure parts of iw_cm.c: the endpoint state machine's
 * transition table, names and step table, the CONNECT_REPLY status a
 * failure is reported with, which connects share a peer (and so take
 * turns), and who may attach a QP named by number.
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/inet.h>
#include <linux/sched.h>
#include <linux/socket.h>
#include <rdma/ib_verbs.h>

#include "iw_cm_cep.h"

#define ST(x)	SOFTRDMA_IW_CEP_##x

struct move_case {
	const char *name;
	enum softrdma_iw_cep_state from;
	enum softrdma_iw_cep_state to;
	bool ok;
};

static const struct move_case move_cases[] = {
	/* the active side */
	{ "idle_to_connecting", ST(IDLE), ST(CONNECTING), true },
	{ "idle_to_queued", ST(IDLE), ST(QUEUED), true },
	{ "queued_to_connecting", ST(QUEUED), ST(CONNECTING), true },
	{ "queued_skips_handshake", ST(QUEUED), ST(AWAIT_MPA_REP), false },
	{ "connecting_not_back_in_line", ST(CONNECTING), ST(QUEUED), false },
	{ "listening_never_queues", ST(LISTENING), ST(QUEUED), false },
	{ "connecting_to_await_rep", ST(CONNECTING), ST(AWAIT_MPA_REP), true },
	{ "await_rep_to_rdma_mode", ST(AWAIT_MPA_REP), ST(RDMA_MODE), true },
	{ "connecting_skips_mpa", ST(CONNECTING), ST(RDMA_MODE), false },
	{ "await_rep_no_rtr_wait", ST(AWAIT_MPA_REP), ST(AWAIT_RTR), false },
	/* the passive side */
	{ "idle_to_listening", ST(IDLE), ST(LISTENING), true },
	{ "idle_to_await_req", ST(IDLE), ST(AWAIT_MPA_REQ), true },
	{ "await_req_to_recvd", ST(AWAIT_MPA_REQ), ST(RECVD_MPA_REQ), true },
	{ "recvd_to_await_rtr", ST(RECVD_MPA_REQ), ST(AWAIT_RTR), true },
	{ "recvd_to_rdma_mode", ST(RECVD_MPA_REQ), ST(RDMA_MODE), true },
	{ "await_rtr_to_rdma_mode", ST(AWAIT_RTR), ST(RDMA_MODE), true },
	{ "await_req_skips_accept", ST(AWAIT_MPA_REQ), ST(RDMA_MODE), false },
	{ "listening_never_connects", ST(LISTENING), ST(AWAIT_MPA_REQ), false },
	{ "listening_stays_listener", ST(LISTENING), ST(RDMA_MODE), false },
	/* the end */
	{ "rdma_mode_to_closing", ST(RDMA_MODE), ST(CLOSING), true },
	{ "closing_to_closed", ST(CLOSING), ST(CLOSED), true },
	{ "closing_not_back", ST(CLOSING), ST(RDMA_MODE), false },
	{ "closed_is_final", ST(CLOSED), ST(IDLE), false },
	{ "closed_not_to_closed", ST(CLOSED), ST(CLOSED), false },
	{ "closed_not_to_listening", ST(CLOSED), ST(LISTENING), false },
	{ "only_rdma_mode_closes", ST(AWAIT_RTR), ST(CLOSING), false },
	{ "no_way_back_to_idle", ST(CONNECTING), ST(IDLE), false },
	/* out of range */
	{ "from_out_of_range", ST(NR_STATES), ST(CLOSED), false },
	{ "to_out_of_range", ST(IDLE), ST(NR_STATES), false },
};

static void move_case_desc(const struct move_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(move, move_cases, move_case_desc);

static void softrdma_iw_cm_move_table(struct kunit *test)
{
	const struct move_case *c = test->param_value;

	KUNIT_EXPECT_EQ_MSG(test, softrdma_iw_cep_may_move(c->from, c->to),
			    c->ok, "%s -> %s",
			    softrdma_iw_cep_state_name(c->from),
			    softrdma_iw_cep_state_name(c->to));
}

/* Every state but CLOSED can end (abort, timeout, reset); CLOSED cannot. */
static void softrdma_iw_cm_closed_from_anywhere(struct kunit *test)
{
	enum softrdma_iw_cep_state s;

	for (s = 0; s < SOFTRDMA_IW_CEP_NR_STATES; s++)
		KUNIT_EXPECT_EQ_MSG(test,
				    softrdma_iw_cep_may_move(s, ST(CLOSED)),
				    s != ST(CLOSED), "from %s",
				    softrdma_iw_cep_state_name(s));
}

/*
 * No state moves to itself through the table: a step returning its own
 * state means "wait", never a transition.
 */
static void softrdma_iw_cm_no_self_moves(struct kunit *test)
{
	enum softrdma_iw_cep_state s;

	for (s = 0; s < SOFTRDMA_IW_CEP_NR_STATES; s++)
		KUNIT_EXPECT_FALSE_MSG(test, softrdma_iw_cep_may_move(s, s),
				       "%s", softrdma_iw_cep_state_name(s));
}

/* Every state is reachable from IDLE through the table. */
static void softrdma_iw_cm_all_reachable(struct kunit *test)
{
	unsigned long seen = BIT(ST(IDLE)), prev = 0;
	enum softrdma_iw_cep_state s, t;

	while (seen != prev) {
		prev = seen;
		for (s = 0; s < SOFTRDMA_IW_CEP_NR_STATES; s++) {
			if (!(prev & BIT(s)))
				continue;
			for (t = 0; t < SOFTRDMA_IW_CEP_NR_STATES; t++)
				if (softrdma_iw_cep_may_move(s, t))
					seen |= BIT(t);
		}
	}
	KUNIT_EXPECT_EQ(test, seen, GENMASK(SOFTRDMA_IW_CEP_NR_STATES - 1, 0));
}

static void softrdma_iw_cm_names_and_steps(struct kunit *test)
{
	enum softrdma_iw_cep_state s, t;

	for (s = 0; s < SOFTRDMA_IW_CEP_NR_STATES; s++) {
		const char *name = softrdma_iw_cep_state_name(s);

		KUNIT_ASSERT_NOT_NULL(test, name);
		KUNIT_EXPECT_STRNEQ(test, name, "?");
		KUNIT_EXPECT_TRUE_MSG(test, softrdma_iw_cep_has_step(s), "%s",
				      name);
		for (t = 0; t < s; t++)
			KUNIT_EXPECT_STRNEQ(test, name,
					    softrdma_iw_cep_state_name(t));
	}
	KUNIT_EXPECT_STREQ(test, "CLOSED", softrdma_iw_cep_state_name(ST(CLOSED)));
	KUNIT_EXPECT_STREQ(test, "?",
			   softrdma_iw_cep_state_name(ST(NR_STATES)));
	KUNIT_EXPECT_FALSE(test, softrdma_iw_cep_has_step(ST(NR_STATES)));
}

struct status_case {
	const char *name;
	int err;
	int status;
};

static const struct status_case status_cases[] = {
	{ "success", 0, 0 },
	/* REJECTED in the application */
	{ "tcp_reset_to_syn", -ECONNREFUSED, -ECONNREFUSED },
	{ "reset_during_mpa", -ECONNRESET, -ECONNRESET },
	{ "aborted", -ECONNABORTED, -ECONNRESET },
	{ "broken_pipe", -EPIPE, -ECONNRESET },
	{ "bad_reply", -EPROTO, -ECONNRESET },
	{ "malformed_reply", -EBADMSG, -ECONNRESET },
	{ "oversized_reply", -EMSGSIZE, -ECONNRESET },
	{ "markers_wanted", -EOPNOTSUPP, -ECONNRESET },
	/* UNREACHABLE */
	{ "mpa_timeout", -ETIMEDOUT, -ETIMEDOUT },
	{ "no_route_to_host", -EHOSTUNREACH, -ETIMEDOUT },
	{ "network_unreachable", -ENETUNREACH, -ETIMEDOUT },
	{ "host_down", -EHOSTDOWN, -ETIMEDOUT },
	{ "network_down", -ENETDOWN, -ETIMEDOUT },
	/* local failures pass through as CONNECT_ERROR */
	{ "no_memory", -ENOMEM, -ENOMEM },
	{ "address_in_use", -EADDRINUSE, -EADDRINUSE },
	{ "bad_qp", -EINVAL, -EINVAL },
};

static void status_case_desc(const struct status_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(status, status_cases, status_case_desc);

static void softrdma_iw_cm_reply_status_map(struct kunit *test)
{
	const struct status_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, softrdma_iw_cm_reply_status(c->err), c->status);
}

/* sockaddr_storage from an IPv4 or IPv6 literal, port, scope */
static void peer_addr(struct sockaddr_storage *ss, int family,
		      const char *addr, u16 port, u32 scope)
{
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	ss->ss_family = family;
	if (family == AF_INET) {
		s4->sin_port = htons(port);
		s4->sin_addr.s_addr = in_aton(addr);
	} else if (family == AF_INET6) {
		s6->sin6_port = htons(port);
		in6_pton(addr, -1, s6->sin6_addr.s6_addr, -1, NULL);
		s6->sin6_scope_id = scope;
	}
}

struct peer_case {
	const char *name;
	int fa;
	const char *a;
	u16 pa;
	u32 sa;
	int fb;
	const char *b;
	u16 pb;
	u32 sb;
	bool same;
};

static const struct peer_case peer_cases[] = {
	{ "v4_same", AF_INET, "192.0.2.1", 19515, 0,
	  AF_INET, "192.0.2.1", 19515, 0, true },
	{ "v4_other_port", AF_INET, "192.0.2.1", 19515, 0,
	  AF_INET, "192.0.2.1", 19516, 0, false },
	{ "v4_other_host", AF_INET, "192.0.2.1", 19515, 0,
	  AF_INET, "192.0.2.2", 19515, 0, false },
	{ "v6_same", AF_INET6, "fd00::1", 7174, 0,
	  AF_INET6, "fd00::1", 7174, 0, true },
	{ "v6_other_host", AF_INET6, "fd00::1", 7174, 0,
	  AF_INET6, "fd00::2", 7174, 0, false },
	{ "v6_link_local_other_scope", AF_INET6, "fe80::1", 7174, 2,
	  AF_INET6, "fe80::1", 7174, 3, false },
	{ "v6_mapped_is_not_v4", AF_INET6, "::ffff:192.0.2.1", 19515, 0,
	  AF_INET, "192.0.2.1", 19515, 0, false },
	{ "unknown_family", AF_UNIX, "", 0, 0, AF_UNIX, "", 0, 0, false },
};

static void peer_case_desc(const struct peer_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(peer, peer_cases, peer_case_desc);

/* connects to the same peer take turns; the answer is symmetric */
static void softrdma_iw_cm_same_peer(struct kunit *test)
{
	const struct peer_case *c = test->param_value;
	struct sockaddr_storage a, b;

	peer_addr(&a, c->fa, c->a, c->pa, c->sa);
	peer_addr(&b, c->fb, c->b, c->pb, c->sb);
	KUNIT_EXPECT_EQ(test, softrdma_iw_same_peer((struct sockaddr *)&a,
						    (struct sockaddr *)&b),
			c->same);
	KUNIT_EXPECT_EQ(test, softrdma_iw_same_peer((struct sockaddr *)&b,
						    (struct sockaddr *)&a),
			c->same);
}

/*
 * Who may attach a QP named by number: a kernel consumer only the QP its
 * CM ID carries, a user only a QP its own process created.
 */
enum owner_kind { NO_OWNER, CALLER, OTHER_TASK };

struct owns_case {
	const char *name;
	bool carries;		/* the CM ID carries a QP */
	bool carries_this;	/* ... and it is the one named */
	enum owner_kind owner;
	bool ok;
};

static const struct owns_case owns_cases[] = {
	{ "kernel_carried_qp", true, true, NO_OWNER, true },
	{ "kernel_names_another_qp", true, false, NO_OWNER, false },
	{ "kernel_names_a_user_qp", true, false, CALLER, false },
	{ "user_own_qp", false, false, CALLER, true },
	{ "user_other_process_qp", false, false, OTHER_TASK, false },
	{ "user_names_a_kernel_qp", false, false, NO_OWNER, false },
};

static void owns_case_desc(const struct owns_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(owns, owns_cases, owns_case_desc);

static void softrdma_iw_cm_qp_caller_owns(struct kunit *test)
{
	const struct owns_case *c = test->param_value;
	struct ib_qp named = {}, other = {};
	struct task_struct *owner = NULL;
	const struct ib_qp *carried = NULL;

	if (c->carries)
		carried = c->carries_this ? &named : &other;
	if (c->owner == CALLER)
		owner = current;
	else if (c->owner == OTHER_TASK)
		owner = &init_task;
	KUNIT_EXPECT_EQ(test, softrdma_iw_qp_caller_owns(carried, &named,
							 owner, current),
			c->ok);
}

static struct kunit_case softrdma_iw_cm_cases[] = {
	KUNIT_CASE_PARAM(softrdma_iw_cm_move_table, move_gen_params),
	KUNIT_CASE(softrdma_iw_cm_closed_from_anywhere),
	KUNIT_CASE(softrdma_iw_cm_no_self_moves),
	KUNIT_CASE(softrdma_iw_cm_all_reachable),
	KUNIT_CASE(softrdma_iw_cm_names_and_steps),
	KUNIT_CASE_PARAM(softrdma_iw_cm_reply_status_map, status_gen_params),
	KUNIT_CASE_PARAM(softrdma_iw_cm_same_peer, peer_gen_params),
	KUNIT_CASE_PARAM(softrdma_iw_cm_qp_caller_owns, owns_gen_params),
	{}
};

static struct kunit_suite softrdma_iw_cm_suite = {
	.name = "softrdma_iw_cm",
	.test_cases = softrdma_iw_cm_cases,
};

kunit_test_suite(softrdma_iw_cm_suite);
