// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for qp_state.c: the QP state machine table, attribute checks
 * and timer encodings; and the actions a checked move applies to a QP
 * (softrdma_qp_apply_actions()).
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "qp.h"
#include "qp_state.h"
#include "transport.h"

#define RC_INIT_MASK	(IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT | \
			 IB_QP_ACCESS_FLAGS)
#define RC_RTR_MASK	(IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU | \
			 IB_QP_DEST_QPN | IB_QP_RQ_PSN | \
			 IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER)
#define RC_RTS_MASK	(IB_QP_STATE | IB_QP_SQ_PSN | IB_QP_TIMEOUT | \
			 IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | \
			 IB_QP_MAX_QP_RD_ATOMIC)

struct transition_case {
	const char *name;
	enum ib_qp_type type;
	enum ib_qp_state cur;
	enum ib_qp_state next;
	int mask;
	int err;
	unsigned int actions;
};

static const struct transition_case transition_cases[] = {
	{ "rc_reset_to_init", IB_QPT_RC, IB_QPS_RESET, IB_QPS_INIT,
	  RC_INIT_MASK, 0, 0 },
	{ "rc_reset_to_init_without_port", IB_QPT_RC, IB_QPS_RESET,
	  IB_QPS_INIT, RC_INIT_MASK & ~IB_QP_PORT, -EINVAL, 0 },
	{ "rc_init_to_rtr", IB_QPT_RC, IB_QPS_INIT, IB_QPS_RTR, RC_RTR_MASK,
	  0, SOFTRDMA_QP_ACT_RECV },
	{ "rc_init_to_rtr_without_dest_qpn", IB_QPT_RC, IB_QPS_INIT,
	  IB_QPS_RTR, RC_RTR_MASK & ~IB_QP_DEST_QPN, -EINVAL, 0 },
	{ "rc_init_to_rtr_without_rq_psn", IB_QPT_RC, IB_QPS_INIT, IB_QPS_RTR,
	  RC_RTR_MASK & ~IB_QP_RQ_PSN, -EINVAL, 0 },
	{ "rc_init_to_rtr_with_sq_psn", IB_QPT_RC, IB_QPS_INIT, IB_QPS_RTR,
	  RC_RTR_MASK | IB_QP_SQ_PSN, -EINVAL, 0 },
	{ "rc_rtr_to_rts", IB_QPT_RC, IB_QPS_RTR, IB_QPS_RTS, RC_RTS_MASK, 0,
	  SOFTRDMA_QP_ACT_SEND },
	{ "rc_rtr_to_rts_without_timeout", IB_QPT_RC, IB_QPS_RTR, IB_QPS_RTS,
	  RC_RTS_MASK & ~IB_QP_TIMEOUT, -EINVAL, 0 },
	{ "rc_rts_to_rts_attrs", IB_QPT_RC, IB_QPS_RTS, IB_QPS_RTS,
	  IB_QP_MIN_RNR_TIMER, 0, 0 },
	{ "rc_rts_to_sqd", IB_QPT_RC, IB_QPS_RTS, IB_QPS_SQD, IB_QP_STATE, 0,
	  SOFTRDMA_QP_ACT_DRAIN },
	{ "rc_sqd_to_rts", IB_QPT_RC, IB_QPS_SQD, IB_QPS_RTS, IB_QP_STATE, 0,
	  SOFTRDMA_QP_ACT_RESUME },
	{ "rc_rts_to_err", IB_QPT_RC, IB_QPS_RTS, IB_QPS_ERR, IB_QP_STATE, 0,
	  SOFTRDMA_QP_ACT_FLUSH },
	{ "rc_init_to_err", IB_QPT_RC, IB_QPS_INIT, IB_QPS_ERR, IB_QP_STATE,
	  0, SOFTRDMA_QP_ACT_FLUSH },
	{ "rc_err_to_reset", IB_QPT_RC, IB_QPS_ERR, IB_QPS_RESET, IB_QP_STATE,
	  0, SOFTRDMA_QP_ACT_RESET },
	/* rdma_disconnect() on a QP already in ERR: flush what came since */
	{ "rc_err_to_err_flushes_again", IB_QPT_RC, IB_QPS_ERR, IB_QPS_ERR,
	  IB_QP_STATE, 0, SOFTRDMA_QP_ACT_FLUSH },
	{ "rc_rts_to_reset", IB_QPT_RC, IB_QPS_RTS, IB_QPS_RESET, IB_QP_STATE,
	  0, SOFTRDMA_QP_ACT_RESET },
	{ "rc_reset_to_rts_skips", IB_QPT_RC, IB_QPS_RESET, IB_QPS_RTS,
	  RC_RTS_MASK, -EINVAL, 0 },
	{ "rc_init_to_rts_skips", IB_QPT_RC, IB_QPS_INIT, IB_QPS_RTS,
	  RC_RTS_MASK, -EINVAL, 0 },
	{ "rc_err_to_rts", IB_QPT_RC, IB_QPS_ERR, IB_QPS_RTS, RC_RTS_MASK,
	  -EINVAL, 0 },
	{ "rc_rtr_to_sqe", IB_QPT_RC, IB_QPS_RTR, IB_QPS_SQE, IB_QP_STATE,
	  -EINVAL, 0 },
	{ "ud_reset_to_init", IB_QPT_UD, IB_QPS_RESET, IB_QPS_INIT,
	  IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_QKEY, 0, 0 },
	{ "ud_reset_to_init_without_qkey", IB_QPT_UD, IB_QPS_RESET,
	  IB_QPS_INIT, IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT, -EINVAL,
	  0 },
	{ "ud_init_to_rtr", IB_QPT_UD, IB_QPS_INIT, IB_QPS_RTR, IB_QP_STATE,
	  0, SOFTRDMA_QP_ACT_RECV },
	{ "ud_rtr_to_rts", IB_QPT_UD, IB_QPS_RTR, IB_QPS_RTS,
	  IB_QP_STATE | IB_QP_SQ_PSN, 0, SOFTRDMA_QP_ACT_SEND },
};

static void transition_case_desc(const struct transition_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(transition, transition_cases, transition_case_desc);

static void softrdma_qp_state_transition_table(struct kunit *test)
{
	const struct transition_case *c = test->param_value;
	unsigned int actions = ~0U;
	int err;

	err = softrdma_qp_transition(c->cur, c->next, c->type, c->mask,
				     &actions);
	KUNIT_EXPECT_EQ(test, err, c->err);
	KUNIT_EXPECT_EQ(test, actions, c->actions);
}

/*
 * Every state may go to RESET, and every state but RESET to ERR (the
 * RDMA core follows IBA figure 124: a QP in RESET has nothing to fail).
 */
static void softrdma_qp_state_reset_and_err_from_anywhere(struct kunit *test)
{
	unsigned int actions;
	int s;

	for (s = IB_QPS_RESET; s <= IB_QPS_ERR; s++) {
		KUNIT_EXPECT_EQ_MSG(test, s == IB_QPS_RESET ? -EINVAL : 0,
				    softrdma_qp_transition(s, IB_QPS_ERR,
							   IB_QPT_RC,
							   IB_QP_STATE,
							   &actions),
				    "%s -> ERR", softrdma_qp_state_name(s));
		KUNIT_EXPECT_EQ_MSG(test, 0,
				    softrdma_qp_transition(s, IB_QPS_RESET,
							   IB_QPT_RC,
							   IB_QP_STATE,
							   &actions),
				    "%s -> RESET", softrdma_qp_state_name(s));
	}
}

static void softrdma_qp_state_names(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, softrdma_qp_state_name(IB_QPS_RESET), "RESET");
	KUNIT_EXPECT_STREQ(test, softrdma_qp_state_name(IB_QPS_RTS), "RTS");
	KUNIT_EXPECT_STREQ(test, softrdma_qp_state_name(IB_QPS_ERR), "ERR");
	KUNIT_EXPECT_STREQ(test, softrdma_qp_state_name(IB_QPS_ERR + 1), "?");
	KUNIT_EXPECT_STREQ(test, softrdma_qp_state_name(-1), "?");
}

struct attr_case {
	const char *name;
	int mask;
	struct ib_qp_attr attr;
	int err;
};

static const struct attr_case attr_cases[] = {
	{ "port_1", IB_QP_PORT, { .port_num = 1 }, 0 },
	{ "port_2", IB_QP_PORT, { .port_num = 2 }, -EINVAL },
	{ "pkey_index_1", IB_QP_PKEY_INDEX, { .pkey_index = 1 }, -EINVAL },
	{ "mtu_1024", IB_QP_PATH_MTU, { .path_mtu = IB_MTU_1024 }, 0 },
	{ "mtu_above_port", IB_QP_PATH_MTU, { .path_mtu = IB_MTU_4096 },
	  -EINVAL },
	{ "mtu_zero", IB_QP_PATH_MTU, { .path_mtu = 0 }, -EINVAL },
	{ "timeout_31", IB_QP_TIMEOUT, { .timeout = 31 }, 0 },
	{ "timeout_32", IB_QP_TIMEOUT, { .timeout = 32 }, -EINVAL },
	{ "retry_7", IB_QP_RETRY_CNT, { .retry_cnt = 7 }, 0 },
	{ "retry_8", IB_QP_RETRY_CNT, { .retry_cnt = 8 }, -EINVAL },
	{ "rnr_retry_8", IB_QP_RNR_RETRY, { .rnr_retry = 8 }, -EINVAL },
	{ "rnr_timer_32", IB_QP_MIN_RNR_TIMER, { .min_rnr_timer = 32 },
	  -EINVAL },
	{ "rd_atomic_at_limit", IB_QP_MAX_QP_RD_ATOMIC,
	  { .max_rd_atomic = 16 }, 0 },
	{ "rd_atomic_over_limit", IB_QP_MAX_QP_RD_ATOMIC,
	  { .max_rd_atomic = 17 }, -EINVAL },
	{ "dest_rd_atomic_over_limit", IB_QP_MAX_DEST_RD_ATOMIC,
	  { .max_dest_rd_atomic = 17 }, -EINVAL },
	{ "dest_qpn_24_bits", IB_QP_DEST_QPN, { .dest_qp_num = 0xffffff }, 0 },
	{ "dest_qpn_25_bits", IB_QP_DEST_QPN, { .dest_qp_num = 0x1000000 },
	  -EINVAL },
	{ "access_all_remote", IB_QP_ACCESS_FLAGS,
	  { .qp_access_flags = IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ |
			       IB_ACCESS_REMOTE_ATOMIC },
	  0 },
	/*
	 * what the IB CM gives a QP on a device with any FLUSH (6.2+): both
	 * flush rights; no MR holds persistence, so no FLUSH gets it
	 */
	{ "access_cm_flush", IB_QP_ACCESS_FLAGS,
	  { .qp_access_flags = IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ |
			       IB_ACCESS_REMOTE_ATOMIC |
			       SOFTRDMA_ACCESS_FLUSH_GLOBAL |
			       SOFTRDMA_ACCESS_FLUSH_PERSISTENT },
	  0 },
	{ "access_mw_bind", IB_QP_ACCESS_FLAGS,
	  { .qp_access_flags = IB_ACCESS_MW_BIND }, -EINVAL },
	{ "alt_path", IB_QP_ALT_PATH, {}, -EOPNOTSUPP },
	{ "unset_fields_unchecked", 0, { .port_num = 9, .timeout = 99 }, 0 },
};

static void attr_case_desc(const struct attr_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(attr, attr_cases, attr_case_desc);

static void softrdma_qp_state_attr_limits(struct kunit *test)
{
	static const struct softrdma_qp_limits limits = {
		.max_path_mtu = IB_MTU_2048,
		.max_rd_atomic = 16,
		.max_dest_rd_atomic = 16,
	};
	const struct attr_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, softrdma_qp_check_attr(&c->attr, c->mask, &limits),
			c->err);
}

static void softrdma_qp_state_timer_encodings(struct kunit *test)
{
	/* IBA 9.7.6.1.3: 4.096 us * 2^timeout */
	KUNIT_EXPECT_EQ(test, softrdma_qp_timeout_us(0), 0ULL);
	KUNIT_EXPECT_EQ(test, softrdma_qp_timeout_us(1), 8ULL);
	KUNIT_EXPECT_EQ(test, softrdma_qp_timeout_us(14), 67108ULL);
	KUNIT_EXPECT_EQ(test, softrdma_qp_timeout_us(31), 8796093022ULL);
	/* IBA table 45 */
	KUNIT_EXPECT_EQ(test, softrdma_rnr_timer_us(0), 655360U);
	KUNIT_EXPECT_EQ(test, softrdma_rnr_timer_us(1), 10U);
	KUNIT_EXPECT_EQ(test, softrdma_rnr_timer_us(12), 640U);
	KUNIT_EXPECT_EQ(test, softrdma_rnr_timer_us(31), 491520U);
	/* the field is 5 bits wide */
	KUNIT_EXPECT_EQ(test, softrdma_rnr_timer_us(33), 10U);
}

/* RNR timer codes 1..31 grow strictly. */
static void softrdma_qp_state_rnr_timer_monotonic(struct kunit *test)
{
	u8 code;

	for (code = 2; code < 32; code++)
		KUNIT_EXPECT_GT_MSG(test, softrdma_rnr_timer_us(code),
				    softrdma_rnr_timer_us(code - 1),
				    "code %u", code);
}

struct cur_state_case {
	const char *name;
	enum ib_qp_state actual;
	int mask;
	enum ib_qp_state claimed;
	int err;
};

static const struct cur_state_case cur_state_cases[] = {
	{ "no_claim", IB_QPS_RTS, IB_QP_STATE, IB_QPS_RESET, 0 },
	{ "true_claim", IB_QPS_RTS, IB_QP_STATE | IB_QP_CUR_STATE, IB_QPS_RTS,
	  0 },
	{ "true_claim_sqe", IB_QPS_SQE, IB_QP_STATE | IB_QP_CUR_STATE,
	  IB_QPS_SQE, 0 },
	/* RESET claimed as SQD: SQD -> RTS needs no path MTU */
	{ "reset_claims_sqd", IB_QPS_RESET, IB_QP_STATE | IB_QP_CUR_STATE,
	  IB_QPS_SQD, -EINVAL },
	/* ERR claimed as RTS: back to RTS without RESET */
	{ "err_claims_rts", IB_QPS_ERR, IB_QP_STATE | IB_QP_CUR_STATE,
	  IB_QPS_RTS, -EINVAL },
	{ "init_claims_rtr", IB_QPS_INIT, IB_QP_CUR_STATE, IB_QPS_RTR,
	  -EINVAL },
	{ "rts_claims_sqe", IB_QPS_RTS, IB_QP_STATE | IB_QP_CUR_STATE,
	  IB_QPS_SQE, -EINVAL },
	{ "claim_out_of_range", IB_QPS_RTS, IB_QP_CUR_STATE, 42, -EINVAL },
};

static void cur_state_case_desc(const struct cur_state_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cur_state, cur_state_cases, cur_state_case_desc);

static void softrdma_qp_state_claimed_current_state(struct kunit *test)
{
	const struct cur_state_case *c = test->param_value;
	struct ib_qp_attr attr = { .cur_qp_state = c->claimed };
	enum ib_qp_state cur = 42;

	KUNIT_EXPECT_EQ(test, softrdma_qp_current_state(c->actual, &attr,
							c->mask, &cur),
			c->err);
	/* whatever was claimed, the QP moves from where it is */
	KUNIT_EXPECT_EQ(test, cur, c->actual);
}

struct verdict_case {
	const char *name;
	enum ib_qp_state state;
	bool connected;
	int verdict;
};

static const struct verdict_case verdict_cases[] = {
	{ "ib_reset", IB_QPS_RESET, false, -EINVAL },
	{ "ib_init", IB_QPS_INIT, false, -EINVAL },
	{ "ib_rtr", IB_QPS_RTR, false, -EINVAL },
	{ "ib_rts", IB_QPS_RTS, false, SOFTRDMA_POST_RUN },
	{ "ib_sqd_queues", IB_QPS_SQD, false, SOFTRDMA_POST_RUN },
	{ "ib_sqe_queues", IB_QPS_SQE, false, SOFTRDMA_POST_RUN },
	{ "ib_err_flushes", IB_QPS_ERR, false, SOFTRDMA_POST_FLUSH },
	{ "iw_reset", IB_QPS_RESET, true, -ENOTCONN },
	{ "iw_init", IB_QPS_INIT, true, -ENOTCONN },
	{ "iw_rtr", IB_QPS_RTR, true, -ENOTCONN },
	{ "iw_rts", IB_QPS_RTS, true, SOFTRDMA_POST_RUN },
	/* Closing: ib_srpt posts until it has moved the QP to ERR itself */
	{ "iw_closing_flushes", IB_QPS_SQD, true, SOFTRDMA_POST_FLUSH },
	{ "iw_sqe", IB_QPS_SQE, true, -ENOTCONN },
	{ "iw_err_flushes", IB_QPS_ERR, true, SOFTRDMA_POST_FLUSH },
};

static void verdict_case_desc(const struct verdict_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(verdict, verdict_cases, verdict_case_desc);

static void softrdma_qp_state_send_verdict(struct kunit *test)
{
	const struct verdict_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, softrdma_qp_send_verdict(c->state, c->connected),
			c->verdict);
}

/* Why a QP fails -> the affiliated event (IBA vol 1 11.6.3.1) */
struct err_event_case {
	const char *name;
	enum softrdma_qp_err_cause cause;
	bool raise;
	enum ib_event_type event;
};

static const struct err_event_case err_event_cases[] = {
	{ "local_error_is_fatal", SOFTRDMA_QP_ERR_LOCAL, true,
	  IB_EVENT_QP_FATAL },
	{ "invalid_request", SOFTRDMA_QP_ERR_REQ, true, IB_EVENT_QP_REQ_ERR },
	{ "access_violation", SOFTRDMA_QP_ERR_ACCESS, true,
	  IB_EVENT_QP_ACCESS_ERR },
	{ "completion_reports_it", SOFTRDMA_QP_ERR_WC, false, 0 },
	{ "orderly_close_no_event", SOFTRDMA_QP_ERR_CLOSED, false, 0 },
	{ "flush_no_event", SOFTRDMA_QP_ERR_FLUSH, false, 0 },
	{ "none_no_event", SOFTRDMA_QP_ERR_NONE, false, 0 },
	{ "out_of_range_no_event", SOFTRDMA_QP_ERR_MAX, false, 0 },
};

static void err_event_case_desc(const struct err_event_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(err_event, err_event_cases, err_event_case_desc);

static void softrdma_qp_state_err_event(struct kunit *test)
{
	const struct err_event_case *c = test->param_value;
	enum ib_event_type event = IB_EVENT_DEVICE_FATAL;

	KUNIT_EXPECT_EQ(test, softrdma_qp_err_event(c->cause, &event),
			c->raise);
	/* untouched when there is no event */
	KUNIT_EXPECT_EQ(test, event,
			c->raise ? c->event : IB_EVENT_DEVICE_FATAL);
}

/* ------------------------------------------------ actions on a QP */

static void actions_engine_start(struct softrdma_qp *qp)
{
}

static void actions_engine_stop(struct softrdma_qp *qp)
{
}

static const struct softrdma_qp_engine actions_engine = {
	.start = actions_engine_start,
	.kick = actions_engine_start,
	.stop = actions_engine_stop,
};

struct causes_case {
	const char *name;
	enum ib_qp_state cur;
	enum ib_qp_state next;
	int mask;
	bool cleared;
};

static const struct causes_case causes_cases[] = {
	{ "err_to_reset", IB_QPS_ERR, IB_QPS_RESET, IB_QP_STATE, true },
	{ "rts_to_reset", IB_QPS_RTS, IB_QPS_RESET, IB_QP_STATE, true },
	{ "init_to_reset", IB_QPS_INIT, IB_QPS_RESET, IB_QP_STATE, true },
	{ "init_to_rtr", IB_QPS_INIT, IB_QPS_RTR, RC_RTR_MASK, false },
	{ "rtr_to_rts", IB_QPS_RTR, IB_QPS_RTS, RC_RTS_MASK, false },
	{ "rts_to_rts_attrs", IB_QPS_RTS, IB_QPS_RTS, IB_QP_MIN_RNR_TIMER,
	  false },
};

static void causes_case_desc(const struct causes_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(causes, causes_cases, causes_case_desc);

/*
 * A failure an engine reported (softrdma_qp_fail()) that the error work
 * has not taken yet belongs to the QP's life before a move to RESET: the
 * move forgets it, so that the work, running after the QP was brought
 * back up, cannot fail the new life.  Other moves keep it.
 */
static void softrdma_qp_state_reset_forgets_err_causes(struct kunit *test)
{
	const struct causes_case *c = test->param_value;
	const unsigned long causes = BIT(SOFTRDMA_QP_ERR_ACCESS) |
				     BIT(SOFTRDMA_QP_ERR_LOCAL);
	unsigned int actions;
	struct softrdma_qp *qp;

	qp = kunit_kzalloc(test, sizeof(*qp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	mutex_init(&qp->state_mutex);
	spin_lock_init(&qp->sq.lock);
	spin_lock_init(&qp->rq.lock);
	qp->eng = &actions_engine;
	qp->state = c->cur;
	qp->err_causes = causes;

	KUNIT_ASSERT_EQ(test, softrdma_qp_transition(c->cur, c->next, IB_QPT_RC,
						     c->mask, &actions), 0);
	mutex_lock(&qp->state_mutex);
	softrdma_qp_apply_actions(qp, c->next, actions);
	mutex_unlock(&qp->state_mutex);
	KUNIT_EXPECT_EQ(test, qp->state, c->next);
	KUNIT_EXPECT_EQ(test, qp->err_causes, c->cleared ? 0UL : causes);
}

static struct kunit_case softrdma_qp_state_cases[] = {
	KUNIT_CASE_PARAM(softrdma_qp_state_transition_table,
			 transition_gen_params),
	KUNIT_CASE(softrdma_qp_state_reset_and_err_from_anywhere),
	KUNIT_CASE(softrdma_qp_state_names),
	KUNIT_CASE_PARAM(softrdma_qp_state_attr_limits, attr_gen_params),
	KUNIT_CASE(softrdma_qp_state_timer_encodings),
	KUNIT_CASE(softrdma_qp_state_rnr_timer_monotonic),
	KUNIT_CASE_PARAM(softrdma_qp_state_claimed_current_state,
			 cur_state_gen_params),
	KUNIT_CASE_PARAM(softrdma_qp_state_send_verdict, verdict_gen_params),
	KUNIT_CASE_PARAM(softrdma_qp_state_err_event, err_event_gen_params),
	KUNIT_CASE_PARAM(softrdma_qp_state_reset_forgets_err_causes,
			 causes_gen_params),
	{}
};

static struct kunit_suite softrdma_qp_state_suite = {
	.name = "softrdma_qp_state",
	.test_cases = softrdma_qp_state_cases,
};

kunit_test_suite(softrdma_qp_state_suite);
