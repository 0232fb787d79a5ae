// SPDX-License-Identifier: GPL-2.0
/*
 * siwarp_verbs: the verbs a stock libsiw (rdma-core 44) application uses on
 * a softrdma iWARP device, without a connection:
 *
 *   siwarp_verbs -d DEV
 *
 * Checks, each printed as "ok - ..." or "not ok - ...":
 *  - the device is iWARP and advertises the siw ABI's limits;
 *  - PD and MR; CQs of several sizes get power-of-two sizes, over-limit
 *    sizes are refused with EINVAL, resize_cq with EOPNOTSUPP;
 *  - an empty CQ polls 0, req_notify_cq works both ways;
 *  - QPs with several caps get power-of-two queues; over-limit caps are
 *    refused with EINVAL, a UD QP with EOPNOTSUPP;
 *  - modify_qp RESET->INIT->RTR as the iw_cm and rdma_cm do it, RTS
 *    refused without a connection, IB-only attributes refused;
 *  - receives fill the RQ to capacity, the next one gets ENOMEM from
 *    libsiw; post_send on a QP that is not connected fails;
 *  - ERR flushes: every posted receive and send comes back through the
 *    shared CQ ring with IBV_WC_WR_FLUSH_ERR, its wr_id, opcode and
 *    qp_num, in order, and the completion channel fires for an armed CQ;
 *    the freed ring slots take new receives;
 *  - receives posted in ERR (into the ring, no system call) are flushed
 *    by the next modify_qp, ERR->SQD (rdma_disconnect()) or ERR->ERR;
 *  - a CQ too small for a flush reports IBV_EVENT_CQ_ERR;
 *  - everything is destroyed.
 * Exit status 0 iff every check held.
 */
#include <errno.h>
#include <infiniband/verbs.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "labverbs.h"

static unsigned int pow2(unsigned int n)
{
	unsigned int p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

static struct ibv_qp *make_qp(struct ibv_pd *pd, struct ibv_cq *scq,
			      struct ibv_cq *rcq, enum ibv_qp_type type,
			      unsigned int swr, unsigned int rwr,
			      unsigned int sge, unsigned int inl,
			      struct ibv_qp_cap *cap)
{
	struct ibv_qp_init_attr attr = {
		.send_cq = scq,
		.recv_cq = rcq,
		.qp_type = type,
		.cap = {
			.max_send_wr = swr,
			.max_recv_wr = rwr,
			.max_send_sge = sge,
			.max_recv_sge = sge,
			.max_inline_data = inl,
		},
	};
	struct ibv_qp *qp;

	errno = 0;
	qp = ibv_create_qp(pd, &attr);
	if (qp && cap)
		*cap = attr.cap;
	return qp;
}

/* Create must fail with @want; destroys a QP that was created anyway. */
static void qp_refused(struct ibv_pd *pd, struct ibv_cq *cq,
		       enum ibv_qp_type type, unsigned int swr,
		       unsigned int rwr, unsigned int sge, unsigned int inl,
		       int want, const char *what)
{
	struct ibv_qp *qp = make_qp(pd, cq, cq, type, swr, rwr, sge, inl,
				    NULL);
	int err = errno;

	lv_check(!qp && err == want, "create_qp %s refused with %s (got %s)",
		 what, strerror(want), qp ? "success" : strerror(err));
	if (qp)
		ibv_destroy_qp(qp);
}

static int modify(struct ibv_qp *qp, enum ibv_qp_state state, int mask)
{
	struct ibv_qp_attr attr = {
		.qp_state = state,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ,
		.port_num = 1,
	};

	return ibv_modify_qp(qp, &attr, mask);
}

static enum ibv_qp_state qp_state(struct ibv_qp *qp)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr attr;

	if (ibv_query_qp(qp, &attr, IBV_QP_STATE, &init))
		return -1;
	return attr.qp_state;
}

/* Poll @n completions within ~5 s into @wc; returns how many came. */
static int poll_n(struct ibv_cq *cq, struct ibv_wc *wc, int n)
{
	int got = 0, tries, r;

	for (tries = 0; tries < 500 && got < n; tries++) {
		r = ibv_poll_cq(cq, n - got, wc + got);
		if (r < 0)
			return r;
		got += r;
		if (got < n)
			usleep(10000);
	}
	return got;
}

static int wait_fd(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) == 1;
}

/* The channel has an event for @cq within 2 s; it is taken and acked. */
static int channel_fired(struct ibv_comp_channel *ch, struct ibv_cq *cq)
{
	struct ibv_cq *evcq;
	void *evctx;

	/* ibv_get_cq_event() would block on a channel with nothing to read */
	if (!wait_fd(ch->fd, 2000) || ibv_get_cq_event(ch, &evcq, &evctx))
		return 0;
	ibv_ack_cq_events(evcq, 1);
	return evcq == cq;
}

static void test_device(struct ibv_context *ctx)
{
	struct ibv_device_attr da;
	struct ibv_port_attr pa;

	lv_check(ctx->device->transport_type == IBV_TRANSPORT_IWARP,
		 "transport is iWARP");
	lv_check(ctx->device->node_type == IBV_NODE_RNIC, "node type is RNIC");
	lv_check(!ibv_query_device(ctx, &da), "query_device");
	lv_check(da.max_qp_wr == 16384, "max_qp_wr 16384 (got %d)",
		 da.max_qp_wr);
	lv_check(da.max_cqe == 32768, "max_cqe 32768 (got %d)", da.max_cqe);
	lv_check(da.max_sge == 6, "max_sge 6 (got %d)", da.max_sge);
	lv_check(da.max_sge_rd == 1, "max_sge_rd 1 (got %d)", da.max_sge_rd);
	lv_check(da.atomic_cap == IBV_ATOMIC_NONE, "no atomics");
	/* the SRQs themselves are srq_verbs' */
	lv_check(da.max_srq > 0 && da.max_srq_wr == 16384 &&
		 da.max_srq_sge == 6,
		 "SRQs advertised (max_srq %d max_srq_wr %d max_srq_sge %d)",
		 da.max_srq, da.max_srq_wr, da.max_srq_sge);
	lv_check(!ibv_query_port(ctx, 1, &pa), "query_port");
	lv_check(pa.gid_tbl_len == 1, "one GID (got %d)", pa.gid_tbl_len);
}

static void test_cqs(struct ibv_context *ctx)
{
	static const int sizes[] = { 1, 2, 3, 100, 1000, 4096, 32768 };
	struct ibv_wc wc;
	struct ibv_cq *cq;
	unsigned int i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		cq = ibv_create_cq(ctx, sizes[i], NULL, NULL, 0);
		lv_check(cq != NULL, "create_cq %d", sizes[i]);
		if (!cq)
			continue;
		lv_check(cq->cqe == (int)pow2(sizes[i]),
			 "cq %d has %u entries (got %d)", sizes[i],
			 pow2(sizes[i]), cq->cqe);
		lv_check(ibv_poll_cq(cq, 1, &wc) == 0,
			 "cq %d: empty poll returns 0", sizes[i]);
		lv_check(!ibv_req_notify_cq(cq, 0), "cq %d: req_notify_cq(all)",
			 sizes[i]);
		lv_check(!ibv_req_notify_cq(cq, 1),
			 "cq %d: req_notify_cq(solicited)", sizes[i]);
		lv_check(ibv_resize_cq(cq, 2 * sizes[i]) != 0,
			 "cq %d: resize_cq refused", sizes[i]);
		lv_check(!ibv_destroy_cq(cq), "destroy cq %d", sizes[i]);
	}
	errno = 0;
	cq = ibv_create_cq(ctx, 32769, NULL, NULL, 0);
	lv_check(!cq && errno == EINVAL,
		 "create_cq 32769 refused with EINVAL (%s)",
		 cq ? "created" : strerror(errno));
	if (cq)
		ibv_destroy_cq(cq);
}

static void test_qp_caps(struct ibv_pd *pd, struct ibv_cq *cq)
{
	static const struct {
		unsigned int swr, rwr, sge, inl;
	} caps[] = {
		{ 1, 1, 1, 0 }, { 3, 0, 1, 0 }, { 100, 50, 6, 80 },
		{ 1000, 1, 2, 16 }, { 16384, 16384, 6, 80 },
	};
	struct ibv_qp_cap got;
	struct ibv_qp *qp;
	unsigned int i;

	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		qp = make_qp(pd, cq, cq, IBV_QPT_RC, caps[i].swr, caps[i].rwr,
			     caps[i].sge, caps[i].inl, &got);
		lv_check(qp != NULL,
			 "create_qp send %u recv %u sge %u inline %u (%s)",
			 caps[i].swr, caps[i].rwr, caps[i].sge, caps[i].inl,
			 qp ? "ok" : strerror(errno));
		if (!qp)
			continue;
		lv_check(got.max_send_wr == pow2(caps[i].swr) &&
			 got.max_recv_wr == pow2(caps[i].rwr ? caps[i].rwr : 1),
			 "  queues %u/%u (want %u/%u)", got.max_send_wr,
			 got.max_recv_wr, pow2(caps[i].swr),
			 pow2(caps[i].rwr ? caps[i].rwr : 1));
		lv_check(got.max_send_sge >= caps[i].sge &&
			 got.max_inline_data >= caps[i].inl,
			 "  sge %u inline %u cover the request",
			 got.max_send_sge, got.max_inline_data);
		lv_check(qp_state(qp) == IBV_QPS_RESET, "  starts in RESET");
		lv_check(!ibv_destroy_qp(qp), "  destroy_qp");
	}
	qp_refused(pd, cq, IBV_QPT_RC, 16385, 1, 1, 0, EINVAL, "send 16385");
	qp_refused(pd, cq, IBV_QPT_RC, 1, 16385, 1, 0, EINVAL, "recv 16385");
	qp_refused(pd, cq, IBV_QPT_RC, 0, 1, 1, 0, EINVAL, "without an SQ");
	qp_refused(pd, cq, IBV_QPT_RC, 1, 1, 7, 0, EINVAL, "sge 7");
	qp_refused(pd, cq, IBV_QPT_RC, 1, 1, 1, 81, EINVAL, "inline 81");
	qp_refused(pd, cq, IBV_QPT_UD, 1, 1, 1, 0, EOPNOTSUPP, "UD");
}

static void test_states(struct ibv_pd *pd, struct ibv_cq *cq)
{
	struct ibv_qp_attr attr = { .qp_state = IBV_QPS_INIT, .pkey_index = 0,
				    .port_num = 1 };
	struct ibv_qp *qp;

	struct ibv_send_wr swr = { .wr_id = 1, .opcode = IBV_WR_SEND,
				   .send_flags = IBV_SEND_SIGNALED }, *bad;
	struct ibv_wc wc;
	int rc;

	qp = make_qp(pd, cq, cq, IBV_QPT_RC, 4, 4, 1, 0, NULL);
	lv_check(qp != NULL, "create_qp for state changes");
	if (!qp)
		return;
	rc = ibv_post_send(qp, &swr, &bad);
	lv_check(rc != 0, "post_send in RESET fails (%d)", rc);
	/* what an IB-style caller passes: taken, as stock siw takes it */
	lv_check(ibv_modify_qp(qp, &attr,
			       IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			       IBV_QP_PORT | IBV_QP_ACCESS_FLAGS) == 0,
		 "RESET->INIT with IB's pkey index accepted");
	lv_check(qp_state(qp) == IBV_QPS_INIT, "  now INIT");
	lv_check(!modify(qp, IBV_QPS_RESET, IBV_QP_STATE), "INIT->RESET");
	lv_check(qp_state(qp) == IBV_QPS_RESET, "  now RESET");
	lv_check(!modify(qp, IBV_QPS_INIT, IBV_QP_STATE | IBV_QP_ACCESS_FLAGS),
		 "RESET->INIT with state and access flags (iw_cm)");
	lv_check(qp_state(qp) == IBV_QPS_INIT, "  now INIT");
	lv_check(!modify(qp, IBV_QPS_INIT, IBV_QP_STATE | IBV_QP_ACCESS_FLAGS |
					   IBV_QP_PORT),
		 "INIT->INIT with the port (rdma_cm)");
	lv_check(!modify(qp, IBV_QPS_RTR, IBV_QP_STATE | IBV_QP_ACCESS_FLAGS |
					  IBV_QP_PORT),
		 "INIT->RTR (rdma_cm)");
	lv_check(qp_state(qp) == IBV_QPS_RTR, "  now RTR");
	lv_check(!modify(qp, IBV_QPS_RTS, IBV_QP_PORT),
		 "RTS attributes without a state (rdma_cm on iWARP)");
	lv_check(modify(qp, IBV_QPS_RTS, IBV_QP_STATE) != 0,
		 "RTR->RTS refused without a connection");
	lv_check(qp_state(qp) == IBV_QPS_RTR, "  still RTR");
	lv_check(!modify(qp, IBV_QPS_ERR, IBV_QP_STATE), "RTR->ERR");
	/*
	 * libsiw left the send it was refused in RESET in the ring; the
	 * INIT->RESET above emptied the send queue (IBA 10.3.1), so ERR
	 * has nothing of it to flush
	 */
	lv_check(poll_n(cq, &wc, 1) == 0,
		 "INIT->RESET dropped the send refused in RESET: ERR flushes nothing");
	lv_check(!modify(qp, IBV_QPS_RESET, IBV_QP_STATE), "ERR->RESET");
	lv_check(qp_state(qp) == IBV_QPS_RESET, "  now RESET");
	lv_check(!ibv_destroy_qp(qp), "destroy_qp");
}

/*
 * Receives posted to a QP in ERR go into the ring only (libsiw makes no
 * system call for them), so the kernel first hears of them at the next
 * modify_qp: SQD is what rdma_disconnect() asks after the peer closed
 * first (rping's teardown then waits for the flush), ERR what an
 * application may ask again.  Either must flush them, stay in ERR, and
 * fire the armed channel.
 */
static void reposted_in_err(struct ibv_qp *qp, struct ibv_cq *cq,
			    struct ibv_comp_channel *ch, struct ibv_mr *mr,
			    enum ibv_qp_state asked, uint64_t id)
{
	enum { NRECV = 4 };
	const char *name = asked == IBV_QPS_SQD ? "SQD" : "ERR";
	struct ibv_sge sge = {
		.addr = (uintptr_t)mr->addr, .length = 64, .lkey = mr->lkey,
	};
	struct ibv_recv_wr rwr = { .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad_rwr;
	struct ibv_wc wc[NRECV + 1];
	int i, n, ok = 1;

	for (i = 0; i < NRECV; i++) {
		rwr.wr_id = id + i;
		ok &= !ibv_post_recv(qp, &rwr, &bad_rwr);
	}
	lv_check(ok, "%d receives posted in ERR, before ERR->%s", NRECV, name);
	lv_check(!ibv_req_notify_cq(cq, 0), "arm the CQ before ERR->%s", name);
	lv_check(!modify(qp, asked, IBV_QP_STATE), "ERR->%s accepted", name);
	n = poll_n(cq, wc, NRECV);
	for (i = 0; i < n; i++)
		ok &= wc[i].wr_id == id + i &&
		      wc[i].status == IBV_WC_WR_FLUSH_ERR &&
		      wc[i].opcode == IBV_WC_RECV;
	lv_check(n == NRECV && ok,
		 "ERR->%s flushed the receives posted in ERR (%d of %d)",
		 name, n, NRECV);
	lv_check(ibv_poll_cq(cq, 1, wc) == 0, "ERR->%s: nothing more", name);
	lv_check(qp_state(qp) == IBV_QPS_ERR, "ERR->%s: the QP stays in ERR",
		 name);
	lv_check(channel_fired(ch, cq), "ERR->%s: the armed channel fired",
		 name);
}

/*
 * The rings end to end: fill the RQ, post a send that cannot go out,
 * then ERR flushes both through the CQ ring and the armed channel fires.
 */
static void test_rings(struct ibv_context *ctx, struct ibv_pd *pd,
		       struct ibv_mr *mr)
{
	enum { NRECV = 8, NCQE = 64 };
	struct ibv_recv_wr rwr = {}, *bad_rwr;
	struct ibv_send_wr swr = {}, *bad_swr;
	struct ibv_comp_channel *ch;
	struct ibv_wc wc[NCQE];
	struct ibv_qp_cap cap;
	struct ibv_cq *cq;
	struct ibv_sge sge[7];
	struct ibv_qp *qp;
	int i, n, rc, ok;

	ch = ibv_create_comp_channel(ctx);
	lv_check(ch != NULL, "create_comp_channel");
	if (!ch)
		return;
	cq = ibv_create_cq(ctx, NCQE, NULL, ch, 0);
	lv_check(cq != NULL, "create_cq with a channel");
	if (!cq)
		return;
	qp = make_qp(pd, cq, cq, IBV_QPT_RC, 4, NRECV, 6, 0, &cap);
	lv_check(qp && cap.max_recv_wr == NRECV, "create_qp with %d receives",
		 NRECV);
	if (!qp)
		return;

	for (i = 0; i < 7; i++) {
		sge[i].addr = (uintptr_t)mr->addr + 64 * i;
		sge[i].length = 64;
		sge[i].lkey = mr->lkey;
	}
	rwr.sg_list = sge;
	rwr.num_sge = 1;
	ok = 1;
	for (i = 0; i < NRECV; i++) {
		rwr.wr_id = 1000 + i;
		rwr.num_sge = 1 + i % 6;
		ok &= !ibv_post_recv(qp, &rwr, &bad_rwr);
	}
	lv_check(ok, "post_recv fills the RQ (%d receives, 1..6 SGEs)", NRECV);
	rwr.wr_id = 9999;
	rwr.num_sge = 1;
	/* libsiw returns negative errnos from its ring posts */
	rc = ibv_post_recv(qp, &rwr, &bad_rwr);
	lv_check(abs(rc) == ENOMEM && bad_rwr == &rwr,
		 "post_recv on a full RQ: ENOMEM from libsiw (%d)", rc);
	rwr.num_sge = 7;
	rc = ibv_post_recv(qp, &rwr, &bad_rwr);
	lv_check(rc != 0, "post_recv with 7 SGEs refused (%d)", rc);

	lv_check(!modify(qp, IBV_QPS_INIT, IBV_QP_STATE | IBV_QP_ACCESS_FLAGS),
		 "RESET->INIT");
	swr.wr_id = 2000;
	swr.opcode = IBV_WR_SEND;
	swr.sg_list = sge;
	swr.num_sge = 1;
	swr.send_flags = IBV_SEND_SIGNALED;
	rc = ibv_post_send(qp, &swr, &bad_swr);
	lv_check(rc != 0, "post_send in INIT (not connected) fails (%d)", rc);
	/*
	 * The refused SQE stays VALID in the ring (as with stock siw), so
	 * libsiw rings no doorbell for the next one: it "succeeds" and
	 * waits in the ring; both are flushed below.
	 */
	swr.wr_id = 2001;
	rc = ibv_post_send(qp, &swr, &bad_swr);
	printf("# second post_send in INIT, no doorbell: %d\n", rc);

	lv_check(!ibv_req_notify_cq(cq, 0), "arm the CQ");
	lv_check(!modify(qp, IBV_QPS_ERR, IBV_QP_STATE), "INIT->ERR");
	/* what sits in the rings: 8 receives, the 2 sends libsiw queued */
	n = poll_n(cq, wc, NRECV + 2);
	lv_check(n == NRECV + 2, "ERR flushed %d completions (got %d)",
		 NRECV + 2, n);
	ok = n == NRECV + 2;
	for (i = 0; i < n && i < NRECV + 2; i++) {
		int want_recv = 0, j;
		uint64_t want_id;

		/* the flush does the SQ first, then the RQ, each in order */
		if (i < 2) {
			want_id = 2000 + i;
		} else {
			want_id = 1000 + i - 2;
			want_recv = 1;
		}
		j = wc[i].wr_id == want_id &&
		    wc[i].status == IBV_WC_WR_FLUSH_ERR &&
		    wc[i].qp_num == qp->qp_num &&
		    wc[i].opcode == (want_recv ? IBV_WC_RECV : IBV_WC_SEND);
		if (!j)
			printf("# wc %d: wr_id %llu status %d opcode %d qp %u\n",
			       i, (unsigned long long)wc[i].wr_id,
			       wc[i].status, wc[i].opcode, wc[i].qp_num);
		ok &= j;
	}
	lv_check(ok, "flushed completions: wr_id, FLUSH_ERR, opcode, qp_num, order");
	lv_check(ibv_poll_cq(cq, 1, wc) == 0, "the CQ is empty again");
	lv_check(channel_fired(ch, cq), "the armed CQ's channel fired for it");

	ok = 1;
	rwr.num_sge = 1;
	for (i = 0; i < NRECV; i++) {
		rwr.wr_id = 3000 + i;
		ok &= !ibv_post_recv(qp, &rwr, &bad_rwr);
	}
	lv_check(ok, "the flush gave every RQ slot back: %d more receives",
		 NRECV);
	/* solicited-only arm: error completions fire it too */
	lv_check(!ibv_req_notify_cq(cq, 1), "arm the CQ solicited-only");
	swr.wr_id = 2002;
	rc = ibv_post_send(qp, &swr, &bad_swr);
	lv_check(rc == 0, "post_send in ERR is accepted and flushed (%d)", rc);
	n = poll_n(cq, wc, 1 + NRECV);
	lv_check(n >= 1 && wc[0].wr_id == swr.wr_id &&
		 wc[0].status == IBV_WC_WR_FLUSH_ERR,
		 "the send posted in ERR completes with FLUSH_ERR (%d)", n);
	lv_check(channel_fired(ch, cq),
		 "a solicited-only arm fires on an error");

	reposted_in_err(qp, cq, ch, mr, IBV_QPS_SQD, 4000);
	reposted_in_err(qp, cq, ch, mr, IBV_QPS_ERR, 5000);

	lv_check(!ibv_destroy_qp(qp), "destroy_qp");
	lv_check(!ibv_destroy_cq(cq), "destroy_cq");
	lv_check(!ibv_destroy_comp_channel(ch), "destroy_comp_channel");
}

/* A flush into a CQ with too few slots overflows it: IBV_EVENT_CQ_ERR. */
static void test_overflow(struct ibv_context *ctx, struct ibv_pd *pd,
			  struct ibv_mr *mr)
{
	struct ibv_recv_wr rwr = {}, *bad;
	struct ibv_async_event ev;
	struct ibv_sge sge = { .addr = (uintptr_t)mr->addr, .length = 8,
			       .lkey = mr->lkey };
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	int i, got = 0;

	cq = ibv_create_cq(ctx, 2, NULL, NULL, 0);
	qp = cq ? make_qp(pd, cq, cq, IBV_QPT_RC, 1, 8, 1, 0, NULL) : NULL;
	lv_check(cq && qp, "a 2-entry CQ under an 8-receive QP");
	if (!qp)
		return;
	rwr.sg_list = &sge;
	rwr.num_sge = 1;
	for (i = 0; i < 8; i++)
		ibv_post_recv(qp, &rwr, &bad);
	lv_check(!modify(qp, IBV_QPS_INIT,
			 IBV_QP_STATE | IBV_QP_ACCESS_FLAGS) &&
		 !modify(qp, IBV_QPS_ERR, IBV_QP_STATE), "INIT->ERR flushes 8");
	while (wait_fd(ctx->async_fd, 3000) && !ibv_get_async_event(ctx, &ev)) {
		if (ev.event_type == IBV_EVENT_CQ_ERR && ev.element.cq == cq)
			got = 1;
		ibv_ack_async_event(&ev);
		if (got)
			break;
	}
	lv_check(got, "IBV_EVENT_CQ_ERR on overflow");
	lv_check(!ibv_destroy_qp(qp), "destroy_qp");
	lv_check(!ibv_destroy_cq(cq), "destroy_cq");
}

int main(int argc, char **argv)
{
	struct ibv_device **list, *dev = NULL;
	struct ibv_context *ctx;
	const char *name = NULL;
	struct ibv_mr *mr;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	void *buf;
	int opt;

	while ((opt = getopt(argc, argv, "d:")) != -1) {
		if (opt != 'd') {
			fprintf(stderr, "usage: %s -d DEV\n", argv[0]);
			return 2;
		}
		name = optarg;
	}
	list = ibv_get_device_list(NULL);
	if (name)
		dev = lv_find_device(list, name);
	if (!dev) {
		fprintf(stderr, "no device %s\n", name ? name : "(none given)");
		return 2;
	}
	ctx = ibv_open_device(dev);
	lv_check(ctx != NULL, "open %s (libsiw binds)", name);
	if (!ctx)
		return 1;

	test_device(ctx);
	pd = ibv_alloc_pd(ctx);
	lv_check(pd != NULL, "alloc_pd");
	buf = calloc(1, 4096);
	mr = pd ? ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE |
			     IBV_ACCESS_REMOTE_WRITE |
			     IBV_ACCESS_REMOTE_READ) : NULL;
	lv_check(mr != NULL, "reg_mr 4 KiB (%s)", mr ? "ok" : strerror(errno));
	if (!pd || !mr)
		return 1;

	test_cqs(ctx);
	cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	lv_check(cq != NULL, "create_cq for QPs");
	if (!cq)
		return 1;
	test_qp_caps(pd, cq);
	test_states(pd, cq);
	test_rings(ctx, pd, mr);
	test_overflow(ctx, pd, mr);

	lv_check(!ibv_destroy_cq(cq), "destroy_cq");
	lv_check(!ibv_dereg_mr(mr), "dereg_mr");
	lv_check(!ibv_dealloc_pd(pd), "dealloc_pd");
	lv_check(!ibv_close_device(ctx), "close_device");
	ibv_free_device_list(list);
	free(buf);
	printf("siwarp_verbs: %d failed\n", lv_failures);
	return lv_failures ? 1 : 0;
}
