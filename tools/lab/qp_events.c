// SPDX-License-Identifier: GPL-2.0
/*
 * qp_events: QP attributes as rdma-core callers set them, and the
 * affiliated asynchronous events (IBA vol 1 11.6.3), through the stock
 * provider (librxe on sroce, libsiw on siwarp).
 *
 *   qp_events -d DEV [-g GIDX]                 attributes, on one device
 *   qp_events -s -a ADDR -p PORT               events, server
 *   qp_events -p PORT SERVER                   events, client
 *
 * Attributes (-d): an RC QP taken RESET -> INIT with what an IB-style
 * caller passes (state, P_Key index, port, access flags), INIT -> RTR
 * (path MTU, destination QPN, receive PSN, responder depth, RNR timer;
 * the address vector with -g, RoCE only), then RTS (send PSN, timeout,
 * retry counts, requester depth; an iWARP QP reaches RTS only through its
 * connection manager, so there the same values go in without the state)
 * and ERR: ibv_query_qp reads every value back right after creation and
 * after each step.  iWARP, in RTR: an address vector, a Q_Key and a path
 * migration state are accepted and ignored and an alternate path is
 * refused, as for stock siw.  A QP on an SRQ that enters ERR raises
 * IBV_EVENT_QP_LAST_WQE_REACHED; the modify to ERR raises nothing else.
 * RoCE: two QPs of the device connected to each other; the first SEND
 * into the one left in RTR raises IBV_EVENT_COMM_EST, and RTS -> SQD with
 * IBV_QP_EN_SQD_ASYNC_NOTIFY raises IBV_EVENT_SQ_DRAINED: at once with
 * nothing outstanding, and, entered under a load of large RDMA WRITEs and
 * READs, once all of them completed successfully (data checked); while a
 * SEND the peer RNR NAKs is outstanding, ibv_query_qp reports
 * sq_draining, and clears it once the SEND completed.  A UD QP moved to
 * SQD raises it too.  RTS -> RESET empties the send queue: SENDs
 * outstanding and not yet begun complete neither then nor in the QP's
 * next life, where exactly the one SEND posted is sent and received, and
 * INIT -> RESET the receive queue: the SEND lands in a receive posted
 * after it.  Both providers: a full RQ moved INIT -> RESET completes
 * none of its receives and takes a new one back in INIT, which is all
 * ERR then flushes.
 *
 * Events (-s / client), over the RDMA CM: a first connection carries one
 * SEND each way (data checked; the server answers once it has checked
 * its QP) and is closed in order with rdma_disconnect(): no
 * QP event on either side, the QPs in ERR.  iWARP: once connected, each
 * side's ibv_query_qp reports the connection (RTS, the caps as granted,
 * the port, the rights of a connected QP, the RDMA Read depths the
 * client asked for, ORD 2 and IRD 3, crossed on the server, and the
 * port's active MTU).  On a second one the client
 * WRITEs with a wrong rkey: the server's QP raises
 * IBV_EVENT_QP_ACCESS_ERR; the client's raises no QP_FATAL.  On a third
 * the client SENDs into the server's one receive, posted with a wrong
 * lkey: that receive completes with IBV_WC_LOC_PROT_ERR, which reports
 * the error, so the server's QP enters ERR without any QP event (IBA
 * 11.6.2, 11.6.3.1); RoCE: the client's SEND completes with
 * IBV_WC_REM_OP_ERR (the responder's NAK, IBA 9.9.3.1.3); iWARP: the
 * server's TERMINATE ends the stream; neither client raises a QP event.
 * On a fourth the client's SEND is longer than the server's one receive:
 * it completes with IBV_WC_LOC_LEN_ERR, which reports the error, and
 * again the server's QP enters ERR without a QP event; RoCE: the SEND
 * completes with IBV_WC_REM_INV_REQ_ERR (an Invalid Request NAK).
 *
 * Prints "ok - ..." / "not ok - ..." lines; exit status 0 iff all held.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rdma/rdma_cma.h>
#include <rdma/rdma_verbs.h>

#include "labcm.h"
#include "labverbs.h"

#define ALL_ATTRS	(IBV_QP_STATE | IBV_QP_CUR_STATE | \
			 IBV_QP_ACCESS_FLAGS | IBV_QP_PKEY_INDEX | \
			 IBV_QP_PORT | IBV_QP_AV | IBV_QP_PATH_MTU | \
			 IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | \
			 IBV_QP_RNR_RETRY | IBV_QP_RQ_PSN | \
			 IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER | \
			 IBV_QP_SQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | \
			 IBV_QP_DEST_QPN | IBV_QP_CAP)

/* the next QP event of @ctx within @ms: its type, or -1 */
static int next_event(struct ibv_context *ctx, int ms, struct ibv_qp **qp)
{
	struct pollfd p = { .fd = ctx->async_fd, .events = POLLIN };
	struct ibv_async_event ev;
	int type;

	fcntl(ctx->async_fd, F_SETFL,
	      fcntl(ctx->async_fd, F_GETFL) | O_NONBLOCK);
	if (poll(&p, 1, ms) <= 0 || ibv_get_async_event(ctx, &ev))
		return -1;
	type = ev.event_type;
	if (qp)
		*qp = ev.element.qp;
	ibv_ack_async_event(&ev);
	return type;
}

/*
 * The check "@what (got EVENT)": the next event of @ctx, within @ms, is
 * @want and names @qp.  No event is waited for if @err (the step that
 * should have raised it failed).
 */
static void expect_event(struct ibv_context *ctx, int ms, int err,
			 enum ibv_event_type want, struct ibv_qp *qp,
			 const char *what)
{
	struct ibv_qp *evqp = NULL;
	int type = err ? -1 : next_event(ctx, ms, &evqp);

	lv_check(type == (int)want && evqp == qp, "%s (got %s)", what,
		 type < 0 ? "none" : ibv_event_type_str(type));
}

/* every event within @ms; a QP event counts, as its name, in @seen */
static int qp_events_within(struct ibv_context *ctx, int ms, char *seen,
			    size_t len)
{
	int n = 0, type;

	seen[0] = 0;
	while ((type = next_event(ctx, ms, NULL)) >= 0) {
		if (type == IBV_EVENT_PORT_ACTIVE || type == IBV_EVENT_PORT_ERR ||
		    type == IBV_EVENT_GID_CHANGE)
			continue;
		n++;
		snprintf(seen + strlen(seen), len - strlen(seen), " %s",
			 ibv_event_type_str(type));
	}
	return n;
}

/* what was set, read back: @want's values under @mask, and the state */
static void expect_attrs(struct ibv_qp *qp, const char *step,
			 enum ibv_qp_state state, const struct ibv_qp_attr *want,
			 int mask, const struct ibv_qp_cap *cap)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr got;
	char bad[256] = "";
	int err;

#define CMP(bit, field)							\
	do {								\
		if ((mask & (bit)) && got.field != want->field)		\
			snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad), \
				 " " #field " %u (set %u)",		\
				 (unsigned int)got.field,		\
				 (unsigned int)want->field);		\
	} while (0)

	memset(&got, 0xa5, sizeof(got));
	err = ibv_query_qp(qp, &got, ALL_ATTRS, &init);
	if (err) {
		lv_check(0, "%s: ibv_query_qp: %s", step, strerror(err));
		return;
	}
	if (got.qp_state != state)
		snprintf(bad, sizeof(bad), " state %u", got.qp_state);
	CMP(IBV_QP_ACCESS_FLAGS, qp_access_flags);
	CMP(IBV_QP_PKEY_INDEX, pkey_index);
	CMP(IBV_QP_PORT, port_num);
	CMP(IBV_QP_PATH_MTU, path_mtu);
	CMP(IBV_QP_DEST_QPN, dest_qp_num);
	CMP(IBV_QP_RQ_PSN, rq_psn);
	CMP(IBV_QP_SQ_PSN, sq_psn);
	CMP(IBV_QP_MAX_DEST_RD_ATOMIC, max_dest_rd_atomic);
	CMP(IBV_QP_MAX_QP_RD_ATOMIC, max_rd_atomic);
	CMP(IBV_QP_MIN_RNR_TIMER, min_rnr_timer);
	CMP(IBV_QP_TIMEOUT, timeout);
	CMP(IBV_QP_RETRY_CNT, retry_cnt);
	CMP(IBV_QP_RNR_RETRY, rnr_retry);
	if ((mask & IBV_QP_AV) &&
	    memcmp(&got.ah_attr.grh.dgid, &want->ah_attr.grh.dgid, 16))
		snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad),
			 " dgid");
	if (got.cap.max_send_wr != cap->max_send_wr ||
	    got.cap.max_recv_wr != cap->max_recv_wr ||
	    got.cap.max_send_sge != cap->max_send_sge ||
	    got.cap.max_recv_sge != cap->max_recv_sge ||
	    init.cap.max_send_wr != cap->max_send_wr)
		snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad),
			 " cap %u/%u/%u/%u (created %u/%u/%u/%u)",
			 got.cap.max_send_wr, got.cap.max_recv_wr,
			 got.cap.max_send_sge, got.cap.max_recv_sge,
			 cap->max_send_wr, cap->max_recv_wr,
			 cap->max_send_sge, cap->max_recv_sge);
	lv_check(!bad[0], "%s: ibv_query_qp returns what was set%s", step,
		 bad);
#undef CMP
}

/*
 * Describe RC QPs @a and @b of one device to each other in @ia and @ib:
 * port 1's GID @gidx for both, send PSNs @psn_a and @psn_b.
 */
static void loop_info(struct ibv_qp *a, struct ibv_qp *b, int gidx,
		      uint32_t psn_a, uint32_t psn_b, struct lv_info *ia,
		      struct lv_info *ib)
{
	*ia = (struct lv_info){ .qpn = a->qp_num, .psn = psn_a };
	*ib = (struct lv_info){ .qpn = b->qp_num, .psn = psn_b };
	if (ibv_query_gid(a->context, 1, gidx, &ia->gid))
		lv_die("query_gid");
	ib->gid = ia->gid;
}

/*
 * RoCE, two RC QPs of one device connected to each other (IBA 11.6.3.1):
 * B left in RTR takes A's SEND and raises IBV_EVENT_COMM_EST, once, with
 * the data checked; A moved RTS -> SQD asking for it
 * (IBV_QP_EN_SQD_ASYNC_NOTIFY) raises IBV_EVENT_SQ_DRAINED, its SQ being
 * empty; SQD -> RTS and a second SEND go on as before.
 */
static void loop_events(struct ibv_context *ctx, struct ibv_pd *pd,
			struct ibv_cq *cq, int gidx)
{
	static char sbuf[64], rbuf[64];
	struct ibv_sge ssge = { .addr = (uintptr_t)sbuf, .length = 64 };
	struct ibv_sge rsge = { .addr = (uintptr_t)rbuf, .length = 64 };
	struct ibv_send_wr swr = { .wr_id = 1, .sg_list = &ssge,
				   .num_sge = 1, .opcode = IBV_WR_SEND,
				   .send_flags = IBV_SEND_SIGNALED }, *bs;
	struct ibv_recv_wr rwr = { .wr_id = 2, .sg_list = &rsge,
				   .num_sge = 1 }, *br;
	struct lv_info ia, ib;
	struct ibv_qp *a, *b;
	struct ibv_qp_attr at;
	struct ibv_qp_cap cap;
	struct ibv_mr *smr, *rmr;
	struct ibv_wc wc[2];
	int n = 0, sent = 0, got, i;
	char seen[256];

	smr = ibv_reg_mr(pd, sbuf, sizeof(sbuf), IBV_ACCESS_LOCAL_WRITE);
	rmr = ibv_reg_mr(pd, rbuf, sizeof(rbuf), IBV_ACCESS_LOCAL_WRITE);
	if (!smr || !rmr)
		lv_die("reg_mr");
	ssge.lkey = smr->lkey;
	rsge.lkey = rmr->lkey;
	a = lv_create_rc_qp(pd, cq, 4, 0, &cap);
	b = lv_create_rc_qp(pd, cq, 4, 0, &cap);
	loop_info(a, b, gidx, 0x100, 0x200, &ia, &ib);
	lv_rc_connect(a, gidx, IBV_MTU_1024, IBV_ACCESS_LOCAL_WRITE, &ia, &ib);
	lv_qp_init(b, IBV_ACCESS_LOCAL_WRITE);
	lv_rc_rtr(b, gidx, IBV_MTU_1024, &ia);
	qp_events_within(ctx, 100, seen, sizeof(seen));	/* none expected */

	memset(sbuf, 0x5c, sizeof(sbuf));
	memset(rbuf, 0, sizeof(rbuf));
	if (ibv_post_recv(b, &rwr, &br) || ibv_post_send(a, &swr, &bs))
		lv_die("post");
	/* the SEND is received (and ACKed: a responder in RTR answers) */
	for (i = 0; i < 300 && n < 1; i++) {
		got = ibv_poll_cq(cq, 2, wc);
		if (got < 0)
			break;
		while (got-- > 0) {
			if (wc[got].wr_id == 2 && wc[got].status == IBV_WC_SUCCESS)
				n++;
			if (wc[got].wr_id == 1)
				sent = wc[got].status == IBV_WC_SUCCESS ? 1 : -1;
		}
		if (!n)
			usleep(10000);
	}
	lv_check(n == 1 && rbuf[0] == 0x5c && rbuf[63] == 0x5c,
		 "a SEND into a QP in RTR is received, data checked");
	expect_event(ctx, 2000, 0, IBV_EVENT_COMM_EST, b,
		     "the QP in RTR raises IBV_EVENT_COMM_EST on its first packet");

	/* B to RTS; A's SEND completes */
	lv_rc_rts(b, ib.psn);
	for (i = 0; i < 300 && !sent; i++) {
		got = ibv_poll_cq(cq, 1, wc);
		if (got > 0 && wc[0].wr_id == 1)
			sent = wc[0].status == IBV_WC_SUCCESS ? 1 : -1;
		else
			usleep(10000);
	}
	lv_check(sent == 1, "the SEND completes");

	memset(&at, 0, sizeof(at));
	at.qp_state = IBV_QPS_SQD;
	at.en_sqd_async_notify = 1;
	got = ibv_modify_qp(a, &at, IBV_QP_STATE | IBV_QP_EN_SQD_ASYNC_NOTIFY);
	lv_check(!got, "RTS -> SQD with IBV_QP_EN_SQD_ASYNC_NOTIFY: %s",
		 strerror(got));
	expect_event(ctx, 2000, got, IBV_EVENT_SQ_DRAINED, a,
		     "a QP moved to SQD with nothing outstanding raises IBV_EVENT_SQ_DRAINED");
	lv_check(!qp_events_within(ctx, 300, seen, sizeof(seen)),
		 "and nothing else (no second COMM_EST)%s", seen);

	at.qp_state = IBV_QPS_RTS;
	got = ibv_modify_qp(a, &at, IBV_QP_STATE);
	memset(rbuf, 0, sizeof(rbuf));
	if (!got && (ibv_post_recv(b, &rwr, &br) || ibv_post_send(a, &swr, &bs)))
		lv_die("post");
	for (n = 0, i = 0; !got && i < 300 && n < 2; i++) {
		int k = ibv_poll_cq(cq, 2, wc);

		while (k-- > 0)
			n += wc[k].status == IBV_WC_SUCCESS;
		if (n < 2)
			usleep(10000);
	}
	lv_check(n == 2 && rbuf[0] == 0x5c,
		 "SQD -> RTS: the next SEND is sent and received (%s)",
		 strerror(got));
	ibv_destroy_qp(a);
	ibv_destroy_qp(b);
	ibv_dereg_mr(smr);
	ibv_dereg_mr(rmr);
}

static int modify_state(struct ibv_qp *qp, enum ibv_qp_state state,
			int notify)
{
	struct ibv_qp_attr at = { .qp_state = state,
				  .en_sqd_async_notify = notify };

	return ibv_modify_qp(qp, &at, IBV_QP_STATE |
			     (notify ? IBV_QP_EN_SQD_ASYNC_NOTIFY : 0));
}

/* poll @cq until @want completions or about 20 s: successes, and @bad */
static int sqd_poll(struct ibv_cq *cq, int want, int *bad, char *why,
		    size_t len)
{
	struct ibv_wc wc[16];
	int ok = 0, got, i;

	for (i = 0; i < 2000 && ok + *bad < want; i++) {
		got = ibv_poll_cq(cq, 16, wc);
		if (got < 0)
			break;
		while (got-- > 0) {
			if (wc[got].status == IBV_WC_SUCCESS) {
				ok++;
				continue;
			}
			if (!(*bad)++)
				snprintf(why, len, " (wr_id %llu: %s)",
					 (unsigned long long)wc[got].wr_id,
					 ibv_wc_status_str(wc[got].status));
		}
		if (ok + *bad < want)
			usleep(10000);
	}
	return ok;
}

/*
 * Completions of the WQEs a test posted, @want at most, until none has
 * come for @ms: each must be the next posted (*@next_id: an RC send queue
 * completes in order) and successful; *@bad counts those that are not,
 * @why names the first.
 *
 * Return: how many came.
 */
static int sqd_collect(struct ibv_cq *cq, int want, int ms, uint64_t *next_id,
		       int *bad, char *why, size_t len)
{
	int got = 0, idle = 0, n;
	struct ibv_wc wc;

	while (got < want) {
		n = ibv_poll_cq(cq, 1, &wc);
		if (n < 0)
			break;
		if (!n) {
			if (idle++ >= ms / 10)
				break;
			usleep(10000);
			continue;
		}
		idle = 0;
		got++;
		if ((wc.status != IBV_WC_SUCCESS || wc.wr_id != *next_id) &&
		    !(*bad)++)
			snprintf(why, len, " (wr_id %llu where %llu was due: %s)",
				 (unsigned long long)wc.wr_id,
				 (unsigned long long)*next_id,
				 ibv_wc_status_str(wc.status));
		*next_id = wc.wr_id + 1;
	}
	return got;
}

#define SQD_MSG		(1u << 20)
#define SQD_NMSG	4	/* WRITEs, and as many READs */

/*
 * RoCE, IBA 10.3.1: SQD completes what was begun and begins nothing
 * more.  A posts large RDMA WRITEs and READs to B and is moved RTS -> SQD,
 * asking for the event, while they are under way (B is in SQD too: its
 * responder goes on).  How many A had begun is the host's timing (all of
 * them, or the WRITEs and some of the READs, one at a time at
 * max_rd_atomic 1), so: A raises IBV_EVENT_SQ_DRAINED once and nothing
 * else; what completed by then came in order and successfully; nothing
 * completes in SQD after it; back in RTS, the rest complete in order and
 * successfully, all data checked, and a WRITE and a READ go as before.
 */
static void sqd_outstanding(struct ibv_context *ctx, struct ibv_pd *pd,
			    int gidx)
{
	const int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			   IBV_ACCESS_REMOTE_READ;
	const size_t half = SQD_NMSG * SQD_MSG, len = 2 * half;
	struct ibv_send_wr wr[2 * SQD_NMSG], *bad_wr;
	struct ibv_sge sge[2 * SQD_NMSG];
	int i, ok, bad = 0, done, late, rest, err;
	struct lv_info ia, ib;
	struct ibv_mr *amr, *bmr;
	uint64_t next = 100;
	struct ibv_qp *a, *b;
	char why[128] = "", seen[256];
	unsigned char *abuf, *bbuf;
	struct ibv_cq *cq;
	size_t k;

	abuf = malloc(len);
	bbuf = malloc(len);
	cq = ibv_create_cq(ctx, 64, NULL, NULL, 0);
	if (!abuf || !bbuf || !cq)
		lv_die("sqd: buffers/cq");
	/* A's first half goes to B's, B's second half comes to A's */
	for (k = 0; k < half; k++) {
		abuf[k] = (unsigned char)(k * 7 + 1);
		bbuf[half + k] = (unsigned char)(k * 13 + 5);
	}
	memset(abuf + half, 0, half);
	memset(bbuf, 0, half);
	amr = ibv_reg_mr(pd, abuf, len, access);
	bmr = ibv_reg_mr(pd, bbuf, len, access);
	a = lv_create_rc_qp(pd, cq, 16, 0, NULL);
	b = lv_create_rc_qp(pd, cq, 16, 0, NULL);
	if (!amr || !bmr || !a || !b)
		lv_die("sqd: mr/qp");
	/* A's PSNs through the wrap */
	loop_info(a, b, gidx, 0xfffff0, 0x400, &ia, &ib);
	lv_rc_connect(a, gidx, IBV_MTU_1024, access, &ia, &ib);
	lv_rc_connect(b, gidx, IBV_MTU_1024, access, &ib, &ia);
	err = modify_state(b, IBV_QPS_SQD, 0);
	lv_check(!err, "sqd: the responder's QP RTS -> SQD: %s",
		 strerror(err));

	memset(wr, 0, sizeof(wr));
	for (i = 0; i < 2 * SQD_NMSG; i++) {
		size_t off = (size_t)i * SQD_MSG;

		sge[i].addr = (uintptr_t)abuf + off;
		sge[i].length = SQD_MSG;
		sge[i].lkey = amr->lkey;
		wr[i].wr_id = 100 + i;
		wr[i].sg_list = &sge[i];
		wr[i].num_sge = 1;
		wr[i].opcode = off < half ? IBV_WR_RDMA_WRITE :
					    IBV_WR_RDMA_READ;
		wr[i].send_flags = IBV_SEND_SIGNALED;
		wr[i].wr.rdma.remote_addr = (uintptr_t)bbuf + off;
		wr[i].wr.rdma.rkey = bmr->rkey;
		wr[i].next = i + 1 < 2 * SQD_NMSG ? &wr[i + 1] : NULL;
	}
	if (ibv_post_send(a, wr, &bad_wr))
		lv_die("sqd: post_send");
	err = modify_state(a, IBV_QPS_SQD, 1);
	lv_check(!err, "sqd: RTS -> SQD with IBV_QP_EN_SQD_ASYNC_NOTIFY under load: %s",
		 strerror(err));
	expect_event(ctx, 20000, 0, IBV_EVENT_SQ_DRAINED, a,
		     "sqd: the QP raises IBV_EVENT_SQ_DRAINED once what it had begun is done");
	done = sqd_collect(cq, 2 * SQD_NMSG, 0, &next, &bad, why, sizeof(why));
	lv_check(!qp_events_within(ctx, 500, seen, sizeof(seen)),
		 "sqd: once, and nothing else is raised%s", seen);
	late = sqd_collect(cq, 2 * SQD_NMSG - done, 0, &next, &bad, why,
			   sizeof(why));
	/* how far the work got is the host's timing, not a result */
	printf("# sqd: %d of %d WQEs completed before SQ_DRAINED\n", done,
	       2 * SQD_NMSG);
	lv_check(done > 0 && !bad,
		 "sqd: the %d completions by then are the first WQEs posted, successful%s",
		 done, why);
	lv_check(!late, "sqd: nothing completes in SQD after the event (%d did)",
		 late);
	lv_check(lv_qp_state(a) == IBV_QPS_SQD && lv_qp_state(b) == IBV_QPS_SQD,
		 "sqd: both QPs are still in SQD (%d, %d)", lv_qp_state(a),
		 lv_qp_state(b));

	/* back to RTS: what A had not begun goes on */
	err = modify_state(a, IBV_QPS_RTS, 0) ?: modify_state(b, IBV_QPS_RTS, 0);
	rest = err ? 0 : sqd_collect(cq, 2 * SQD_NMSG - done - late, 20000,
				     &next, &bad, why, sizeof(why));
	lv_check(!err && done + late + rest == 2 * SQD_NMSG && !bad,
		 "sqd: SQD -> RTS, the %d not begun at SQD complete in order, successfully (%d did%s)",
		 2 * SQD_NMSG - done - late, rest, why);
	lv_check(!memcmp(abuf, bbuf, half) &&
		 !memcmp(abuf + half, bbuf + half, half),
		 "sqd: the WRITEs' and READs' data arrived intact");

	/* in RTS again, a WRITE and a READ go as before */
	memset(abuf + half, 0, SQD_MSG);
	memset(bbuf, 0, SQD_MSG);
	wr[0].next = &wr[SQD_NMSG];
	wr[SQD_NMSG].next = NULL;
	bad = 0;
	why[0] = 0;
	if (!err && ibv_post_send(a, wr, &bad_wr))
		lv_die("sqd: post_send in RTS");
	ok = err ? 0 : sqd_poll(cq, 2, &bad, why, sizeof(why));
	lv_check(!err && ok == 2 && !bad && !memcmp(abuf, bbuf, SQD_MSG) &&
		 !memcmp(abuf + half, bbuf + half, SQD_MSG),
		 "sqd: SQD -> RTS, a WRITE and a READ complete with their data (%s%s)",
		 strerror(err), why);

	ibv_destroy_qp(a);
	ibv_destroy_qp(b);
	ibv_dereg_mr(amr);
	ibv_dereg_mr(bmr);
	ibv_destroy_cq(cq);
	free(abuf);
	free(bbuf);
}

/*
 * RoCE, IBA 11.2.5.3: ibv_query_qp's sq_draining.  A's SEND meets B
 * without a receive WQE: B answers RNR NAKs and A, its rnr_retry 7,
 * retries for as long as it takes, so the SEND is outstanding when A
 * enters SQD however slow the host is (the doorbell starts it before
 * ibv_post_send returns).  sq_draining is set then; a receive at B lets
 * the SEND complete, SQ_DRAINED follows, and sq_draining is clear.
 */
static void sqd_draining(struct ibv_context *ctx, struct ibv_pd *pd,
			 int gidx)
{
	struct lv_info ia, ib;
	struct ibv_recv_wr rwr, *bad_rwr;
	struct ibv_send_wr swr, *bad_swr;
	struct ibv_sge ssge, rsge;
	struct ibv_qp_init_attr init;
	struct ibv_qp *a, *b;
	char why[128] = "", seen[256];
	int err, ok, bad = 0;
	unsigned char buf[128];
	struct ibv_qp_attr qa;
	struct ibv_cq *cq;
	struct ibv_mr *mr;

	cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	mr = cq ? ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE) :
		  NULL;
	a = mr ? lv_create_rc_qp(pd, cq, 4, 0, NULL) : NULL;
	b = a ? lv_create_rc_qp(pd, cq, 4, 0, NULL) : NULL;
	if (!b)
		lv_die("draining: cq/mr/qp");
	loop_info(a, b, gidx, 0x100, 0x200, &ia, &ib);
	lv_rc_connect(a, gidx, IBV_MTU_1024, IBV_ACCESS_LOCAL_WRITE, &ia, &ib);
	lv_rc_connect(b, gidx, IBV_MTU_1024, IBV_ACCESS_LOCAL_WRITE, &ib, &ia);

	memset(buf, 0x3c, 64);
	memset(buf + 64, 0, 64);
	ssge = (struct ibv_sge){ (uintptr_t)buf, 64, mr->lkey };
	memset(&swr, 0, sizeof(swr));
	swr.wr_id = 1;
	swr.sg_list = &ssge;
	swr.num_sge = 1;
	swr.opcode = IBV_WR_SEND;
	swr.send_flags = IBV_SEND_SIGNALED;
	if (ibv_post_send(a, &swr, &bad_swr))
		lv_die("draining: post_send");
	err = modify_state(a, IBV_QPS_SQD, 1);
	memset(&qa, 0, sizeof(qa));
	err = err ?: ibv_query_qp(a, &qa, IBV_QP_STATE, &init);
	lv_check(!err && qa.qp_state == IBV_QPS_SQD && qa.sq_draining,
		 "draining: in SQD with a SEND outstanding (RNR NAKed), ibv_query_qp reports sq_draining (%s, state %d, sq_draining %d)",
		 strerror(err), qa.qp_state, qa.sq_draining);
	lv_check(!qp_events_within(ctx, 300, seen, sizeof(seen)),
		 "draining: no SQ_DRAINED while it is outstanding%s", seen);

	rsge = (struct ibv_sge){ (uintptr_t)buf + 64, 64, mr->lkey };
	memset(&rwr, 0, sizeof(rwr));
	rwr.wr_id = 2;
	rwr.sg_list = &rsge;
	rwr.num_sge = 1;
	if (ibv_post_recv(b, &rwr, &bad_rwr))
		lv_die("draining: post_recv");
	ok = sqd_poll(cq, 2, &bad, why, sizeof(why));
	lv_check(ok == 2 && !bad && !memcmp(buf, buf + 64, 64),
		 "draining: a receive at the peer lets the SEND complete, data intact (%d ok%s)",
		 ok, why);
	expect_event(ctx, 5000, 0, IBV_EVENT_SQ_DRAINED, a,
		     "draining: then the QP raises IBV_EVENT_SQ_DRAINED");
	memset(&qa, 0, sizeof(qa));
	err = ibv_query_qp(a, &qa, IBV_QP_STATE, &init);
	lv_check(!err && qa.qp_state == IBV_QPS_SQD && !qa.sq_draining,
		 "draining: drained, ibv_query_qp clears sq_draining (%s, state %d, sq_draining %d)",
		 strerror(err), qa.qp_state, qa.sq_draining);

	ibv_destroy_qp(a);
	ibv_destroy_qp(b);
	ibv_dereg_mr(mr);
	ibv_destroy_cq(cq);
}

/*
 * The completions of @cq: the first within @first_ms, each next within
 * @idle_ms of the one before; the first @max of them in @wc.
 *
 * Return: how many came.
 */
static int reset_collect(struct ibv_cq *cq, int first_ms, int idle_ms,
			 struct ibv_wc *wc, int max)
{
	int got = 0, waited = 0, n;
	struct ibv_wc one;

	for (;;) {
		n = ibv_poll_cq(cq, 1, got < max ? &wc[got] : &one);
		if (n < 0)
			break;
		if (n) {
			got++;
			waited = 0;
			continue;
		}
		if (waited >= (got ? idle_ms : first_ms))
			break;
		usleep(10000);
		waited += 10;
	}
	return got;
}

#define RST_MSG		(32 * 1024)	/* 32 packets at a 1024-byte path MTU */
#define RST_NMSG	6
#define RST_MARK	64
#define RST_MARK_ID	77
#define RST_NRECV	4
#define RST_NOLD	2	/* B's receives of the last life */
#define RST_OLD_ID	40

/*
 * RoCE, IBA 10.3.1: RESET empties the send queue.  A, in RTS towards B
 * left in INIT (which drops what reaches it), its ACK timer off (timeout
 * 0, IBA 9.7.6.1.3), posts RST_NMSG signaled 32 KiB SENDs: more PSNs than
 * the requester's first window (SOFTRDMA_RC_WINDOW, 128), so the first
 * ones go out unanswered and stay outstanding and the rest are not begun
 * (the device's port_xmit_packets counts what left).  A moved
 * RTS -> RESET completes none of them.  Then A and B are connected
 * afresh, A's send PSN a few packets into its old first SEND's (where a
 * WQE of the last life would be taken up again mid-message, its PSNs and
 * offsets stale), B with RST_NRECV receives of 32 KiB posted, and A posts
 * one 64-byte SEND: B receives exactly that message, data checked, A
 * completes exactly that WQE, and nothing of the last life comes on
 * either CQ.  A driver that kept the WQEs A had fetched would send or
 * complete them in the next life; one that kept those not begun would
 * send them ahead of the new SEND, into B's first receives.  The receive
 * queue too: B, given RST_NOLD receives in INIT in the last life, is
 * moved INIT -> RESET (none of them completes) and back to INIT before
 * its next life's receives are posted, so the SEND must land in the
 * first of those, and nothing in the buffers of the old ones (a driver
 * that kept them would put it there, librxe posting behind them).
 * (Stock rxe, 6.1 rxe_qp_reset(), zeroes its send ring's slots but keeps
 * the ring's indices: no model for this.)
 */
static void reset_outstanding(struct ibv_context *ctx, struct ibv_pd *pd,
			      int gidx)
{
	const size_t alen = RST_NMSG * RST_MSG + RST_MARK,
		     blen = (RST_NRECV + RST_NOLD) * RST_MSG;
	unsigned char *bold;	/* the last life's receive buffers */
	struct ibv_send_wr wr[RST_NMSG], *bad_wr;
	struct ibv_recv_wr rwr[RST_NRECV], *bad_rwr;
	struct ibv_sge sge[RST_NMSG + 1], rsge[RST_NRECV];
	struct ibv_wc wca[8], wcb[8];
	struct lv_info ia, ib;
	struct ibv_cq *cqa, *cqb;
	struct ibv_mr *amr, *bmr;
	unsigned char *abuf, *bbuf;
	struct ibv_qp_attr at;
	struct ibv_qp *a, *b;
	long before, now, sent = -1;
	int i, err, n, na, nb;
	size_t k;

	abuf = malloc(alen);
	bbuf = calloc(1, blen);
	cqa = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	cqb = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	if (!abuf || !bbuf || !cqa || !cqb)
		lv_die("reset: buffers/cq");
	for (k = 0; k < alen; k++)
		abuf[k] = (unsigned char)(k * 11 + 3);
	/* the next life's SEND: bytes none of the last life's begin with */
	for (k = 0; k < RST_MARK; k++)
		abuf[RST_NMSG * RST_MSG + k] = (unsigned char)(0xa5 ^ (k * 3));
	amr = ibv_reg_mr(pd, abuf, alen, IBV_ACCESS_LOCAL_WRITE);
	bmr = ibv_reg_mr(pd, bbuf, blen, IBV_ACCESS_LOCAL_WRITE);
	a = lv_create_rc_qp(pd, cqa, RST_NMSG + 2, 0, NULL);
	b = lv_create_rc_qp(pd, cqb, RST_NMSG + 2, 0, NULL);
	if (!amr || !bmr || !a || !b)
		lv_die("reset: mr/qp");
	bold = bbuf + RST_NRECV * RST_MSG;

	/* the last life: A in RTS, its ACK timer off; B stays in INIT */
	loop_info(a, b, gidx, 0x1000, 0x2000, &ia, &ib);
	lv_qp_init(a, IBV_ACCESS_LOCAL_WRITE);
	lv_rc_rtr(a, gidx, IBV_MTU_1024, &ib);
	memset(&at, 0, sizeof(at));
	at.qp_state = IBV_QPS_RTS;
	at.sq_psn = ia.psn;
	at.timeout = 0;
	at.retry_cnt = 7;
	at.rnr_retry = 7;
	at.max_rd_atomic = 1;
	if (ibv_modify_qp(a, &at, IBV_QP_STATE | IBV_QP_TIMEOUT |
			  IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
			  IBV_QP_MAX_QP_RD_ATOMIC))
		lv_die("reset: RTS");
	lv_qp_init(b, IBV_ACCESS_LOCAL_WRITE);

	memset(wr, 0, sizeof(wr));
	for (i = 0; i < RST_NMSG; i++) {
		sge[i] = (struct ibv_sge){ (uintptr_t)abuf + i * RST_MSG,
					   RST_MSG, amr->lkey };
		wr[i].wr_id = 10 + i;
		wr[i].sg_list = &sge[i];
		wr[i].num_sge = 1;
		wr[i].opcode = IBV_WR_SEND;
		wr[i].send_flags = IBV_SEND_SIGNALED;
		wr[i].next = i + 1 < RST_NMSG ? &wr[i + 1] : NULL;
	}
	before = lv_hw_counter(ibv_get_device_name(ctx->device), "port_xmit_packets");
	if (ibv_post_send(a, wr, &bad_wr))
		lv_die("reset: post_send");
	/* A has sent what its window allows once the count stays put */
	for (i = 0, now = before; i < 30; i++) {
		usleep(100000);
		sent = now;
		now = lv_hw_counter(ibv_get_device_name(ctx->device), "port_xmit_packets");
		if (now == sent && now > before)
			break;
	}
	sent = before < 0 || now < 0 ? -1 : now - before;
	lv_check(sent > 0 && sent < RST_NMSG * RST_MSG / 1024,
		 "reset: A's first SENDs went out, the rest not begun (%ld packets of %d)",
		 sent, RST_NMSG * RST_MSG / 1024);

	err = modify_state(a, IBV_QPS_RESET, 0);
	lv_check(!err && lv_qp_state(a) == IBV_QPS_RESET,
		 "reset: RTS -> RESET with SENDs outstanding and not begun: %s",
		 strerror(err));
	n = reset_collect(cqa, 500, 500, wca, 8);
	lv_check(!n, "reset: none of them completes (%d did, the first wr_id %llu: %s)",
		 n, n ? (unsigned long long)wca[0].wr_id : 0ULL,
		 n ? ibv_wc_status_str(wca[0].status) : "-");

	/* B's last life: receives posted in INIT, then INIT -> RESET */
	memset(rwr, 0, sizeof(rwr));
	for (i = 0; i < RST_NOLD; i++) {
		rsge[i] = (struct ibv_sge){ (uintptr_t)bold + i * RST_MSG,
					    RST_MSG, bmr->lkey };
		rwr[i].wr_id = RST_OLD_ID + i;
		rwr[i].sg_list = &rsge[i];
		rwr[i].num_sge = 1;
		rwr[i].next = i + 1 < RST_NOLD ? &rwr[i + 1] : NULL;
	}
	if (ibv_post_recv(b, rwr, &bad_rwr))
		lv_die("reset: post_recv in the last life");
	err = modify_state(b, IBV_QPS_RESET, 0);
	lv_check(!err && lv_qp_state(b) == IBV_QPS_RESET,
		 "reset: B INIT -> RESET with %d receives posted: %s",
		 RST_NOLD, strerror(err));
	n = reset_collect(cqb, 500, 500, wcb, 8);
	lv_check(!n, "reset: none of B's receives completes (%d did, the first wr_id %llu: %s)",
		 n, n ? (unsigned long long)wcb[0].wr_id : 0ULL,
		 n ? ibv_wc_status_str(wcb[0].status) : "-");
	lv_qp_init(b, IBV_ACCESS_LOCAL_WRITE);

	/* the next life, with B's receives posted first */
	memset(rwr, 0, sizeof(rwr));
	for (i = 0; i < RST_NRECV; i++) {
		rsge[i] = (struct ibv_sge){ (uintptr_t)bbuf + i * RST_MSG,
					    RST_MSG, bmr->lkey };
		rwr[i].wr_id = 50 + i;
		rwr[i].sg_list = &rsge[i];
		rwr[i].num_sge = 1;
		rwr[i].next = i + 1 < RST_NRECV ? &rwr[i + 1] : NULL;
	}
	if (ibv_post_recv(b, rwr, &bad_rwr))
		lv_die("reset: post_recv");
	loop_info(a, b, gidx, 0x1000 + 8, 0x2100, &ia, &ib);
	lv_rc_rtr(b, gidx, IBV_MTU_1024, &ia);
	lv_rc_rts(b, ib.psn);
	lv_rc_connect(a, gidx, IBV_MTU_1024, IBV_ACCESS_LOCAL_WRITE, &ia, &ib);

	sge[RST_NMSG] = (struct ibv_sge){ (uintptr_t)abuf + RST_NMSG * RST_MSG,
					  RST_MARK, amr->lkey };
	wr[0].wr_id = RST_MARK_ID;
	wr[0].sg_list = &sge[RST_NMSG];
	wr[0].next = NULL;
	if (ibv_post_send(a, wr, &bad_wr))
		lv_die("reset: post_send in the next life");
	na = reset_collect(cqa, 10000, 1000, wca, 8);
	nb = reset_collect(cqb, 1000, 1000, wcb, 8);
	lv_check(na == 1 && wca[0].wr_id == RST_MARK_ID &&
		 wca[0].status == IBV_WC_SUCCESS,
		 "reset: in the next life A completes its one SEND and nothing else (%d completions, the first wr_id %llu: %s)",
		 na, na ? (unsigned long long)wca[0].wr_id : 0ULL,
		 na ? ibv_wc_status_str(wca[0].status) : "-");
	lv_check(nb == 1 && wcb[0].wr_id == 50 &&
		 wcb[0].status == IBV_WC_SUCCESS &&
		 wcb[0].byte_len == RST_MARK &&
		 !memcmp(bbuf, abuf + RST_NMSG * RST_MSG, RST_MARK),
		 "reset: B receives exactly that SEND, data checked (%d receives, the first wr_id %llu, %u bytes: %s)",
		 nb, nb ? (unsigned long long)wcb[0].wr_id : 0ULL,
		 nb ? wcb[0].byte_len : 0,
		 nb ? ibv_wc_status_str(wcb[0].status) : "-");
	for (k = 0; k < RST_NOLD * RST_MSG && !bold[k]; k++)
		;
	lv_check(k == RST_NOLD * RST_MSG,
		 "reset: nothing landed in B's receives of the last life (a byte at offset %zu)",
		 k);

	ibv_destroy_qp(a);
	ibv_destroy_qp(b);
	ibv_dereg_mr(amr);
	ibv_dereg_mr(bmr);
	ibv_destroy_cq(cqa);
	ibv_destroy_cq(cqb);
	free(abuf);
	free(bbuf);
}

#define RRQ_DEPTH	4	/* asked for: librxe grants 7, libsiw 4 */
#define RRQ_OLD_ID	100
#define RRQ_NEW_ID	200

/*
 * Both providers, IBA 10.3.1: RESET empties the receive queue.  A QP in
 * INIT with its RQ full (every receive it was granted, the provider
 * refusing one more) moves to RESET: none of them completes, then or
 * later.  Back in INIT, a receive is taken at once: librxe and libsiw
 * post where they left off, and the slots there must be free.  ERR then
 * flushes exactly that one: nothing of the last life is left to flush.
 */
static void reset_receives(struct ibv_pd *pd)
{
	static char buf[64];
	struct ibv_sge sge = { .addr = (uintptr_t)buf, .length = sizeof(buf) };
	struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 }, *bad;
	struct ibv_qp_cap cap;
	unsigned int posted;
	struct ibv_wc wc;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	struct ibv_qp *qp;
	int err, n;

	cq = ibv_create_cq(pd->context, 2 * RRQ_DEPTH + 2, NULL, NULL, 0);
	mr = ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE);
	qp = cq && mr ? lv_create_rc_qp(pd, cq, RRQ_DEPTH, 0, &cap) : NULL;
	if (!qp || cap.max_recv_wr > 2 * RRQ_DEPTH)
		lv_die("reset-rq: cq/mr/qp");
	sge.lkey = mr->lkey;
	lv_qp_init(qp, IBV_ACCESS_LOCAL_WRITE);

	for (posted = 0; posted < cap.max_recv_wr; posted++) {
		wr.wr_id = RRQ_OLD_ID + posted;
		if (ibv_post_recv(qp, &wr, &bad))
			break;
	}
	wr.wr_id = RRQ_OLD_ID + posted;
	lv_check(posted == cap.max_recv_wr && ibv_post_recv(qp, &wr, &bad),
		 "reset-rq: in INIT the RQ takes its %u receives and no more (%u)",
		 cap.max_recv_wr, posted);
	err = modify_state(qp, IBV_QPS_RESET, 0);
	lv_check(!err && lv_qp_state(qp) == IBV_QPS_RESET,
		 "reset-rq: INIT -> RESET with the RQ full: %s", strerror(err));
	n = reset_collect(cq, 500, 500, &wc, 1);
	lv_check(!n, "reset-rq: none of them completes (%d did, the first wr_id %llu: %s)",
		 n, n ? (unsigned long long)wc.wr_id : 0ULL,
		 n ? ibv_wc_status_str(wc.status) : "-");

	lv_qp_init(qp, IBV_ACCESS_LOCAL_WRITE);
	wr.wr_id = RRQ_NEW_ID;
	err = ibv_post_recv(qp, &wr, &bad);
	lv_check(!err, "reset-rq: back in INIT the RQ takes a receive at once: %s",
		 strerror(abs(err)));
	err = modify_state(qp, IBV_QPS_ERR, 0);
	n = reset_collect(cq, 2000, 500, &wc, 1);
	lv_check(!err && n == 1 && wc.wr_id == RRQ_NEW_ID &&
		 wc.status == IBV_WC_WR_FLUSH_ERR &&
		 wc.opcode == IBV_WC_RECV,
		 "reset-rq: ERR flushes that receive and nothing of the last life (%d completions, the first wr_id %llu: %s)",
		 n, n ? (unsigned long long)wc.wr_id : 0ULL,
		 n ? ibv_wc_status_str(wc.status) : "-");

	ibv_destroy_qp(qp);
	ibv_dereg_mr(mr);
	ibv_destroy_cq(cq);
}

/*
 * A UD QP, IBA 10.3.1: its SQ has drained when its sends have left; moved
 * RTS -> SQD asking for it, it raises IBV_EVENT_SQ_DRAINED, once.
 */
static void ud_sqd(struct ibv_pd *pd, struct ibv_cq *cq)
{
	struct ibv_qp_init_attr init = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_UD,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp_attr at = { .qp_state = IBV_QPS_INIT, .port_num = 1,
				  .qkey = 0x11111111 };
	struct ibv_qp *qp;
	char seen[256];
	int err;

	qp = ibv_create_qp(pd, &init);
	if (!qp)
		lv_die("ud: create_qp");
	err = ibv_modify_qp(qp, &at, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			    IBV_QP_PORT | IBV_QP_QKEY);
	at.qp_state = IBV_QPS_RTR;
	err = err ?: ibv_modify_qp(qp, &at, IBV_QP_STATE);
	at.qp_state = IBV_QPS_RTS;
	at.sq_psn = 0x77;
	err = err ?: ibv_modify_qp(qp, &at, IBV_QP_STATE | IBV_QP_SQ_PSN);
	err = err ?: modify_state(qp, IBV_QPS_SQD, 1);
	lv_check(!err, "ud: RESET -> RTS -> SQD with IBV_QP_EN_SQD_ASYNC_NOTIFY: %s",
		 strerror(err));
	expect_event(qp->context, 2000, err, IBV_EVENT_SQ_DRAINED, qp,
		     "ud: a UD QP moved to SQD raises IBV_EVENT_SQ_DRAINED");
	lv_check(!qp_events_within(qp->context, 300, seen, sizeof(seen)),
		 "ud: once, and nothing else%s", seen);
	err = modify_state(qp, IBV_QPS_RTS, 0);
	lv_check(!err && lv_qp_state(qp) == IBV_QPS_RTS,
		 "ud: SQD -> RTS: %s", strerror(err));
	ibv_destroy_qp(qp);
}

static void attrs(const char *dev, int gidx)
{
	struct ibv_context *ctx = lv_open_device(dev);
	struct ibv_qp_attr a = { 0 };
	struct ibv_qp_init_attr ia;
	struct ibv_port_attr port;
	struct ibv_qp *qp, *sqp;
	struct ibv_srq_init_attr sia = { .attr = { .max_wr = 16,
						   .max_sge = 1 } };
	struct ibv_qp_cap cap;
	struct ibv_srq *srq;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	int iwarp, mask, err, set = 0;
	char seen[256];

	iwarp = ctx->device->transport_type == IBV_TRANSPORT_IWARP;
	pd = ibv_alloc_pd(ctx);
	cq = pd ? ibv_create_cq(ctx, 64, NULL, NULL, 0) : NULL;
	if (!cq || ibv_query_port(ctx, 1, &port))
		lv_die("pd/cq/port");
	qp = lv_create_rc_qp(pd, cq, 16, 0, &cap);
	expect_attrs(qp, "created", IBV_QPS_RESET, &a, 0, &cap);

	/* RESET -> INIT as ibv_rc_pingpong and rdma-core's examples do */
	a.qp_state = IBV_QPS_INIT;
	a.pkey_index = 0;
	a.port_num = 1;
	a.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			    IBV_ACCESS_REMOTE_READ;
	mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
	       IBV_QP_ACCESS_FLAGS;
	err = ibv_modify_qp(qp, &a, mask);
	lv_check(!err, "RESET -> INIT with state, P_Key index, port, access flags: %s",
		 strerror(err));
	set |= mask;
	expect_attrs(qp, "INIT", IBV_QPS_INIT, &a, err ? 0 : set, &cap);

	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = port.active_mtu < IBV_MTU_1024 ? port.active_mtu :
						      IBV_MTU_1024;
	a.dest_qp_num = qp->qp_num;
	a.rq_psn = 0x123456;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	mask = IBV_QP_STATE | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
	       IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	if (!iwarp) {
		if (gidx < 0 || ibv_query_gid(ctx, 1, gidx, &a.ah_attr.grh.dgid))
			lv_die("a RoCE device needs -g GIDX");
		a.ah_attr.is_global = 1;
		a.ah_attr.grh.sgid_index = gidx;
		a.ah_attr.grh.hop_limit = 64;
		a.ah_attr.port_num = 1;
		mask |= IBV_QP_AV;
	}
	err = ibv_modify_qp(qp, &a, mask);
	lv_check(!err, "INIT -> RTR with path MTU, dest QPN, RQ PSN, responder depth, RNR timer%s: %s",
		 iwarp ? "" : ", AV", strerror(err));
	set |= mask;
	expect_attrs(qp, "RTR", IBV_QPS_RTR, &a, err ? 0 : set, &cap);

	if (iwarp) {
		/* stock siw takes these IB-only attributes and ignores them */
		struct ibv_qp_attr x;

		memset(&x, 0, sizeof(x));
		x.qkey = 0x11111111;
		x.path_mig_state = IBV_MIG_MIGRATED;
		x.ah_attr.port_num = 1;
		err = ibv_modify_qp(qp, &x, IBV_QP_AV | IBV_QP_QKEY |
				    IBV_QP_PATH_MIG_STATE);
		lv_check(!err, "RTR: an address vector, a Q_Key and a path migration state are accepted and ignored, as by stock siw: %s",
			 strerror(err));
		expect_attrs(qp, "RTR, IB-only attributes", IBV_QPS_RTR, &a,
			     set, &cap);
		x.alt_port_num = 1;
		x.alt_ah_attr.port_num = 1;
		err = ibv_modify_qp(qp, &x, IBV_QP_ALT_PATH);
		lv_check(err == EINVAL, "RTR: an alternate path is refused (EINVAL), as for stock siw: %s",
			 strerror(err));
	}

	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0x654321;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 6;
	a.max_rd_atomic = 1;
	mask = IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
	       IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC;
	/* iWARP: RTS only through the CM (stock siw alike); values only */
	err = ibv_modify_qp(qp, &a, iwarp ? mask : mask | IBV_QP_STATE);
	lv_check(!err, "%s with send PSN, timeout, retry counts, requester depth: %s",
		 iwarp ? "RTR (attributes only)" : "RTR -> RTS", strerror(err));
	set |= mask;
	expect_attrs(qp, iwarp ? "RTR, attributes" : "RTS",
		     iwarp ? IBV_QPS_RTR : IBV_QPS_RTS, &a, err ? 0 : set, &cap);

	a.qp_state = IBV_QPS_ERR;
	err = ibv_modify_qp(qp, &a, IBV_QP_STATE);
	lv_check(!err, "-> ERR: %s", strerror(err));
	expect_attrs(qp, "ERR", IBV_QPS_ERR, &a, set & ~IBV_QP_STATE, &cap);
	lv_check(!qp_events_within(ctx, 300, seen, sizeof(seen)),
		 "a QP without an SRQ moved to ERR raises no event%s", seen);
	ibv_destroy_qp(qp);

	/* IBA 11.6.3.1: Last WQE Reached, for the QP on an SRQ */
	srq = ibv_create_srq(pd, &sia);
	if (!srq)
		lv_die("ibv_create_srq");
	memset(&ia, 0, sizeof(ia));
	ia.send_cq = cq;
	ia.recv_cq = cq;
	ia.srq = srq;
	ia.qp_type = IBV_QPT_RC;
	ia.cap.max_send_wr = 4;
	ia.cap.max_send_sge = 1;
	sqp = ibv_create_qp(pd, &ia);
	if (!sqp)
		lv_die("ibv_create_qp on an SRQ");
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.port_num = 1;
	err = ibv_modify_qp(sqp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			    IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
	a.qp_state = IBV_QPS_ERR;
	err = err ?: ibv_modify_qp(sqp, &a, IBV_QP_STATE);
	expect_event(ctx, 2000, err, IBV_EVENT_QP_LAST_WQE_REACHED, sqp,
		     "a QP on an SRQ entering ERR raises IBV_EVENT_QP_LAST_WQE_REACHED");
	lv_check(!qp_events_within(ctx, 300, seen, sizeof(seen)),
		 "and nothing else%s", seen);
	ibv_destroy_qp(sqp);
	ibv_destroy_srq(srq);
	reset_receives(pd);
	if (!iwarp) {
		loop_events(ctx, pd, cq, gidx);
		sqd_outstanding(ctx, pd, gidx);
		sqd_draining(ctx, pd, gidx);
		reset_outstanding(ctx, pd, gidx);
		ud_sqd(pd, cq);
	}
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
}

/* --- events over the RDMA CM ------------------------------------------- */

struct peer_buf {
	uint64_t addr;
	uint32_t rkey;
	char text[52];
};

static struct peer_buf msg;
static char target[4096];

static struct rdma_cm_id *listen_id;

/* the caps the QP of the last cm_setup() was created with */
static struct ibv_qp_cap granted;

static struct rdma_cm_id *cm_setup(const char *addr, const char *port,
				   int server)
{
	struct ibv_qp_init_attr attr = {
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
		.sq_sig_all = 1,
	};
	struct rdma_cm_id *id;

	if (!server) {
		id = lv_cm_client(addr, port, &attr);
	} else {
		if (!listen_id)
			listen_id = lv_cm_listen(addr, port, 1);
		id = lv_cm_request(listen_id, &attr);
	}
	/* both calls leave the caps granted in attr */
	granted = attr.cap;
	return id;
}

/*
 * iWARP: once the CM brought the QP to RTS, ibv_query_qp reports the
 * connection: RTS, the caps as granted at creation, the device's port,
 * the rights RDMAP gives a connected QP (local write, remote write and
 * read, as stock siw reports them), the RDMA Read depths negotiated
 * (@ord ours, @ird the peer's) and the port's active MTU.
 */
static void expect_connected(struct rdma_cm_id *id, const char *who, int ord,
			     int ird)
{
	const int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			   IBV_ACCESS_REMOTE_READ;
	struct ibv_qp_init_attr init;
	struct ibv_port_attr pa;
	struct ibv_qp_attr a;
	char bad[512] = "";
	int err;

#define BAD(...)							\
	snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad), __VA_ARGS__)

	memset(&a, 0xa5, sizeof(a));
	memset(&init, 0xa5, sizeof(init));
	err = ibv_query_qp(id->qp, &a, ALL_ATTRS, &init);
	if (!err)
		err = ibv_query_port(id->verbs, id->port_num, &pa);
	if (err) {
		lv_check(0, "%s: after the CM's RTS: ibv_query_qp/port: %s",
			 who, strerror(err));
		return;
	}
	if (a.qp_state != IBV_QPS_RTS)
		BAD(" state %d", a.qp_state);
	if (a.cap.max_send_wr != granted.max_send_wr ||
	    a.cap.max_recv_wr != granted.max_recv_wr ||
	    a.cap.max_send_sge != granted.max_send_sge ||
	    a.cap.max_recv_sge != granted.max_recv_sge ||
	    a.cap.max_inline_data != granted.max_inline_data ||
	    memcmp(&init.cap, &a.cap, sizeof(a.cap)))
		BAD(" cap %u/%u/%u/%u/%u, init %u/%u/%u/%u/%u (granted %u/%u/%u/%u/%u)",
		    a.cap.max_send_wr, a.cap.max_recv_wr, a.cap.max_send_sge,
		    a.cap.max_recv_sge, a.cap.max_inline_data,
		    init.cap.max_send_wr, init.cap.max_recv_wr,
		    init.cap.max_send_sge, init.cap.max_recv_sge,
		    init.cap.max_inline_data, granted.max_send_wr,
		    granted.max_recv_wr, granted.max_send_sge,
		    granted.max_recv_sge, granted.max_inline_data);
	if (init.qp_type != IBV_QPT_RC || init.sq_sig_all != 1 ||
	    init.send_cq != id->qp->send_cq || init.recv_cq != id->qp->recv_cq)
		BAD(" init qp_type %d sq_sig_all %d", init.qp_type,
		    init.sq_sig_all);
	if (a.port_num != id->port_num)
		BAD(" port %u (the CM's %u)", a.port_num, id->port_num);
	if (a.qp_access_flags != access)
		BAD(" access %#x (want %#x)", a.qp_access_flags, access);
	if (a.max_rd_atomic != ord || a.max_dest_rd_atomic != ird)
		BAD(" max_rd_atomic %u max_dest_rd_atomic %u (want %d, %d)",
		    a.max_rd_atomic, a.max_dest_rd_atomic, ord, ird);
	if (a.path_mtu != pa.active_mtu)
		BAD(" path_mtu %d (port %d)", a.path_mtu, pa.active_mtu);
	lv_check(!bad[0],
		 "%s: after the CM's RTS, ibv_query_qp reports the connection (RTS, caps as granted, port, rights, ORD %d, IRD %d, path MTU)%s",
		 who, ord, ird, bad);
#undef BAD
}

/*
 * The end of the connection seen by the CM within @ms.  Ids made by
 * rdma_create_ep() are synchronous: rdma_disconnect() itself waits for
 * this event, so only the side that did not call it waits here.
 */
static int wait_disconnected(struct rdma_cm_id *id, int ms)
{
	struct pollfd p = { .fd = id->channel->fd, .events = POLLIN };
	struct rdma_cm_event *ev;
	int type;

	if (poll(&p, 1, ms) <= 0 || rdma_get_cm_event(id->channel, &ev))
		return 0;
	type = ev->event;
	rdma_ack_cm_event(ev);
	return type == RDMA_CM_EVENT_DISCONNECTED;
}

/*
 * A SEND the receiver's own WQE cannot take, its completion saying why:
 * posted with a wrong lkey (an MR's, changed), or too short for it.
 */
static void bad_recv(int server, const char *addr, const char *port,
		     int too_short)
{
	const char *why = too_short ? "shorter than the SEND" :
				      "with a wrong lkey";
	enum ibv_wc_status rwc = too_short ? IBV_WC_LOC_LEN_ERR :
					     IBV_WC_LOC_PROT_ERR;
	enum ibv_wc_status swc = too_short ? IBV_WC_REM_INV_REQ_ERR :
					     IBV_WC_REM_OP_ERR;
	struct rdma_cm_id *id;
	struct ibv_wc wc;
	struct ibv_mr *mr;
	char seen[256];
	int n, iwarp;

	id = cm_setup(addr, port, server);
	iwarp = id->verbs->device->transport_type == IBV_TRANSPORT_IWARP;
	mr = rdma_reg_msgs(id, &msg, sizeof(msg));
	if (!mr)
		lv_die("register");
	if (server) {
		struct ibv_sge sge = {
			.addr = (uintptr_t)&msg,
			.length = too_short ? sizeof(msg) / 2 : sizeof(msg),
			.lkey = too_short ? mr->lkey : mr->lkey ^ 0x5a5a00,
		};
		struct ibv_recv_wr wr = {
			.wr_id = 0x3333, .sg_list = &sge, .num_sge = 1,
		}, *bad;

		if (ibv_post_recv(id->qp, &wr, &bad) || rdma_accept(id, NULL))
			lv_die("post_recv/accept");
		n = rdma_get_recv_comp(id, &wc);
		lv_check(n == 1 && wc.wr_id == 0x3333 && wc.status == rwc,
			 "server: a SEND into a receive %s completes it with %s (got %s)",
			 why, ibv_wc_status_str(rwc),
			 n == 1 ? ibv_wc_status_str(wc.status) : "nothing");
		lv_check(!qp_events_within(id->verbs, 2000, seen, sizeof(seen)),
			 "server: the receive %s raises no QP event (its completion reports it; events:%s)",
			 why, seen);
		lv_check(lv_qp_state(id->qp) == IBV_QPS_ERR,
			 "server: the QP is in ERR after the receive %s", why);
	} else {
		if (rdma_connect(id, NULL))
			lv_die("rdma_connect");
		snprintf(msg.text, sizeof(msg.text), "qp_events: bad receive");
		if (rdma_post_send(id, NULL, &msg, sizeof(msg), mr, 0))
			lv_die("rdma_post_send");
		n = rdma_get_send_comp(id, &wc);
		/* iWARP: the SEND may have completed before the TERMINATE */
		if (!iwarp)
			lv_check(n == 1 && wc.status == swc,
				 "client: the SEND into a receive %s completes with %s (got %s)",
				 why, ibv_wc_status_str(swc),
				 n == 1 ? ibv_wc_status_str(wc.status) : "nothing");
		else
			lv_check(wait_disconnected(id, 5000),
				 "client: the server's TERMINATE ends the connection (SEND into a receive %s: %s)",
				 why, n == 1 ? ibv_wc_status_str(wc.status) : "nothing");
		lv_check(!qp_events_within(id->verbs, 1000, seen, sizeof(seen)),
			 "client: no QP event after the server's receive %s (events:%s)",
			 why, seen);
	}
	rdma_dereg_mr(mr);
	rdma_destroy_ep(id);
}

/* the RDMA Read depths the client asks for: different, to tell them apart */
#define CLIENT_ORD	2
#define CLIENT_IRD	3

static void events(int server, const char *addr, const char *port)
{
	struct rdma_conn_param cp = {
		.initiator_depth = CLIENT_ORD,
		.responder_resources = CLIENT_IRD,
		.retry_count = 7,
		.rnr_retry_count = 7,
	};
	struct rdma_cm_id *id;
	struct ibv_mr *mr, *tmr;
	struct ibv_wc wc;
	char seen[256];
	int ok, type, iwarp;

	/* 1: a SEND, then an orderly close */
	id = cm_setup(addr, port, server);
	iwarp = id->verbs->device->transport_type == IBV_TRANSPORT_IWARP;
	mr = rdma_reg_msgs(id, &msg, sizeof(msg));
	tmr = ibv_reg_mr(id->pd, target, sizeof(target),
			 IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (!mr || !tmr)
		lv_die("register");
	if (server) {
		if (rdma_post_recv(id, NULL, &msg, sizeof(msg), mr) ||
		    rdma_accept(id, NULL))
			lv_die("rdma_accept");
		/* the client's IRD is our ORD, its ORD our IRD */
		if (iwarp)
			expect_connected(id, "server", CLIENT_IRD, CLIENT_ORD);
		ok = rdma_get_recv_comp(id, &wc) == 1 &&
		     wc.status == IBV_WC_SUCCESS &&
		     !strcmp(msg.text, "qp_events: one SEND");
		lv_check(ok, "server: the client's SEND arrived intact");
		/* checked: the client may close (it waits for this) */
		ok = !rdma_post_send(id, NULL, &msg, sizeof(msg), mr, 0) &&
		     rdma_get_send_comp(id, &wc) == 1 &&
		     wc.status == IBV_WC_SUCCESS;
		lv_check(ok, "server: its answer SEND completed");
		lv_check(wait_disconnected(id, 10000),
			 "server: the client's rdma_disconnect() arrives as DISCONNECTED");
		/* RoCE: the QP enters ERR by the application's disconnect */
		if (id->verbs->device->transport_type != IBV_TRANSPORT_IWARP)
			rdma_disconnect(id);
	} else {
		if (rdma_post_recv(id, NULL, target, sizeof(msg), tmr) ||
		    rdma_connect(id, &cp))
			lv_die("rdma_connect");
		if (iwarp)
			expect_connected(id, "client", CLIENT_ORD, CLIENT_IRD);
		snprintf(msg.text, sizeof(msg.text), "qp_events: one SEND");
		if (rdma_post_send(id, NULL, &msg, sizeof(msg), mr, 0))
			lv_die("rdma_post_send");
		ok = rdma_get_send_comp(id, &wc) == 1 &&
		     wc.status == IBV_WC_SUCCESS;
		lv_check(ok, "client: SEND completed");
		/* the server is done with its QP once it answers */
		ok = rdma_get_recv_comp(id, &wc) == 1 &&
		     wc.status == IBV_WC_SUCCESS &&
		     !strcmp(target + offsetof(struct peer_buf, text),
			     "qp_events: one SEND");
		lv_check(ok, "client: the server's answer arrived intact");
		/* a synchronous id: returns once DISCONNECTED is in */
		lv_check(!rdma_disconnect(id), "client: rdma_disconnect()");
	}
	lv_check(!qp_events_within(id->verbs, 1000, seen, sizeof(seen)),
		 "%s: an orderly disconnect raises no QP event%s",
		 server ? "server" : "client", seen);
	lv_check(lv_qp_state(id->qp) == IBV_QPS_ERR, "%s: the QP is in ERR",
		 server ? "server" : "client");
	rdma_dereg_mr(mr);
	ibv_dereg_mr(tmr);
	rdma_destroy_ep(id);

	/* 2: a WRITE with a wrong rkey */
	id = cm_setup(addr, port, server);
	mr = rdma_reg_msgs(id, &msg, sizeof(msg));
	tmr = ibv_reg_mr(id->pd, target, sizeof(target),
			 IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (!mr || !tmr)
		lv_die("register");
	if (server) {
		msg.addr = (uintptr_t)target;
		msg.rkey = tmr->rkey;
		if (rdma_accept(id, NULL) ||
		    rdma_post_send(id, NULL, &msg, sizeof(msg), mr, 0) ||
		    rdma_get_send_comp(id, &wc) != 1)
			lv_die("accept/send");
		type = next_event(id->verbs, 10000, NULL);
		lv_check(type == IBV_EVENT_QP_ACCESS_ERR,
			 "server: a WRITE with a wrong rkey raises IBV_EVENT_QP_ACCESS_ERR (got %s)",
			 type < 0 ? "none" : ibv_event_type_str(type));
		/* destroying the id ends the connection (RoCE: a DREQ) */
	} else {
		if (rdma_post_recv(id, NULL, &msg, sizeof(msg), mr) ||
		    rdma_connect(id, NULL) ||
		    rdma_get_recv_comp(id, &wc) != 1)
			lv_die("connect/recv");
		if (rdma_post_write(id, NULL, target, 64, tmr, 0, msg.addr,
				    msg.rkey ^ 0x5a5a00))
			lv_die("rdma_post_write");
		rdma_get_send_comp(id, &wc);
		/* iWARP: the server's TERMINATE ends the stream */
		wait_disconnected(id, 5000);
		/* RoCE: its completion reports it; iWARP: the TERMINATE */
		lv_check(!qp_events_within(id->verbs, 1000, seen, sizeof(seen)),
			 "client: the requester raises no QP event (its completion: %s; events:%s)",
			 ibv_wc_status_str(wc.status), seen);
	}
	rdma_dereg_mr(mr);
	ibv_dereg_mr(tmr);
	rdma_destroy_ep(id);

	bad_recv(server, addr, port, 0);
	bad_recv(server, addr, port, 1);
}

int main(int argc, char **argv)
{
	struct lv_cm_args a = { .port = "18950" };
	const char *dev = NULL;
	int opt, role = -1, gidx = -1;

	while ((opt = lv_cm_getopt(argc, argv, "d:g:", &a)) != -1) {
		switch (opt) {
		case 'd':
			dev = optarg;
			break;
		case 'g':
			gidx = atoi(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (!dev) {
		role = lv_cm_role(argc, argv, &a);
		if (role < 0)
			goto usage;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (dev)
		attrs(dev, gidx);
	else
		events(role, a.addr, a.port);
	printf("qp_events: %d failed\n", lv_failures);
	return lv_failures ? 1 : 0;
usage:
	fprintf(stderr, "usage: see qp_events.c\n");
	return 2;
}
