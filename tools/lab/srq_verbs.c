// SPDX-License-Identifier: GPL-2.0
/*
 * srq_verbs: shared receive queue verbs through the stock provider (librxe
 * on sroce, libsiw on siwarp), on one device, without a connection:
 *
 *   srq_verbs -d DEV
 *
 * Checks, each printed as "ok - ..." or "not ok - ...":
 *  - the device advertises max_srq, max_srq_wr, max_srq_sge;
 *  - create_srq reports a capacity >= asked; above max_srq_wr it fails;
 *  - receives fill the SRQ's ring exactly to that capacity;
 *  - modify_srq: a limit above the capacity is refused, a limit is armed
 *    and query_srq reads it back (librxe; libsiw has no query_srq);
 *  - IBV_SRQ_MAX_WR grows the librxe ring with the queued receives kept
 *    (the new ring then takes exactly capacity - queued more); libsiw's
 *    ABI cannot carry it: refused (the kernel answers EOPNOTSUPP);
 *  - a QP on the SRQ moved to ERR flushes no receive: the SRQ's WQEs
 *    stay (the ring is still full afterwards);
 *  - destroy_srq while the QP uses it fails with EBUSY, then succeeds;
 *  - a QP with its own RQ, by contrast, flushes receives, even those
 *    posted in ERR, at the next modify_qp (as rdma_disconnect() makes).
 * With -g GID_INDEX (sroce: RoCEv2 to the device's own address), traffic
 * through an SRQ between two RC QPs of the device:
 *  - a limit of 4 armed over 8 posted receives: 3 SENDs raise no event,
 *    2 more raise IBV_EVENT_SRQ_LIMIT_REACHED for that SRQ, once, and
 *    the limit reads 0 (disarmed) afterwards;
 *  - every received message is the one sent, byte for byte.
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

static char buf[4096];

/* post receives until the provider refuses; returns how many it took */
static unsigned int fill(struct ibv_srq *srq, struct ibv_mr *mr,
			 unsigned int max)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)buf,
		.length = 64,
		.lkey = mr->lkey,
	};
	struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 }, *bad;
	unsigned int n;

	for (n = 0; n < max; n++) {
		wr.wr_id = n;
		if (ibv_post_srq_recv(srq, &wr, &bad))
			break;
	}
	return n;
}

/* wait up to 5 s for @n completions; returns how many came */
static int wait_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
	int got = 0, i, r;

	for (i = 0; i < 5000 && got < n; i++) {
		r = ibv_poll_cq(cq, n - got, wc + got);
		if (r < 0)
			return got;
		got += r;
		if (got < n)
			usleep(1000);
	}
	return got;
}

/* an async event within @ms, or -1 */
static int next_event(struct ibv_context *ctx, int ms,
		      struct ibv_async_event *ev)
{
	struct pollfd p = { .fd = ctx->async_fd, .events = POLLIN };

	if (poll(&p, 1, ms) != 1 || ibv_get_async_event(ctx, ev))
		return -1;
	return 0;
}

#define MSG	256

static void traffic(struct ibv_context *ctx, struct ibv_pd *pd,
		    int gid_index)
{
	static char tx[5 * MSG], rx[8 * MSG];
	struct ibv_srq_init_attr sia = { .attr = { .max_wr = 16, .max_sge = 1 } };
	struct lv_info ainfo = {}, binfo = {};
	struct ibv_mr *txmr, *rxmr;
	struct ibv_cq *scq, *rcq;
	struct ibv_async_event ev;
	struct ibv_qp *a, *b;
	struct ibv_srq_attr sa;
	struct ibv_srq *srq;
	struct ibv_wc wc[8];
	int i, n, ok, err, events = 0;

	txmr = ibv_reg_mr(pd, tx, sizeof(tx), IBV_ACCESS_LOCAL_WRITE);
	rxmr = ibv_reg_mr(pd, rx, sizeof(rx), IBV_ACCESS_LOCAL_WRITE);
	scq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	rcq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	srq = ibv_create_srq(pd, &sia);
	if (!txmr || !rxmr || !scq || !rcq || !srq ||
	    ibv_query_gid(ctx, 1, gid_index, &ainfo.gid)) {
		lv_check(0, "traffic: MRs, CQs, SRQ and GID %d", gid_index);
		return;
	}
	{
		struct ibv_qp_init_attr qa = {
			.send_cq = scq, .recv_cq = rcq, .qp_type = IBV_QPT_RC,
			.cap = { .max_send_wr = 8, .max_recv_wr = 1,
				 .max_send_sge = 1, .max_recv_sge = 1 },
		};

		a = ibv_create_qp(pd, &qa);
		qa.srq = srq;
		qa.cap.max_recv_wr = 0;
		b = ibv_create_qp(pd, &qa);
	}
	if (!a || !b) {
		lv_check(0, "traffic: two RC QPs on GID %d", gid_index);
		return;
	}
	/* to each other over the device's own GID; dies on failure */
	ainfo.qpn = a->qp_num;
	binfo.qpn = b->qp_num;
	binfo.gid = ainfo.gid;
	lv_rc_connect(a, gid_index, IBV_MTU_1024, IBV_ACCESS_LOCAL_WRITE,
		      &ainfo, &binfo);
	lv_rc_connect(b, gid_index, IBV_MTU_1024, IBV_ACCESS_LOCAL_WRITE,
		      &binfo, &ainfo);

	for (i = 0; i < 8; i++) {
		struct ibv_sge sge = {
			.addr = (uintptr_t)(rx + i * MSG),
			.length = MSG,
			.lkey = rxmr->lkey,
		};
		struct ibv_recv_wr wr = { .wr_id = 100 + i, .sg_list = &sge,
					  .num_sge = 1 }, *bad;

		if (ibv_post_srq_recv(srq, &wr, &bad))
			break;
	}
	lv_check(i == 8, "traffic: 8 receives posted to the SRQ");
	memset(&sa, 0, sizeof(sa));
	sa.srq_limit = 4;
	lv_check(!ibv_modify_srq(srq, &sa, IBV_SRQ_LIMIT),
		 "traffic: limit 4 armed");

	for (i = 0; i < 5 * MSG; i++)
		tx[i] = (char)(i * 7 + i / MSG);
	for (n = 0; n < 5; n++) {
		struct ibv_sge sge = {
			.addr = (uintptr_t)(tx + n * MSG),
			.length = MSG,
			.lkey = txmr->lkey,
		};
		struct ibv_send_wr wr = { .wr_id = n, .sg_list = &sge,
					  .num_sge = 1, .opcode = IBV_WR_SEND,
					  .send_flags = IBV_SEND_SIGNALED },
				   *bad;

		if (ibv_post_send(a, &wr, &bad)) {
			lv_check(0, "traffic: post SEND %d", n);
			return;
		}
		if (wait_cq(scq, 1, wc) != 1 || wc[0].status != IBV_WC_SUCCESS ||
		    wait_cq(rcq, 1, wc) != 1 || wc[0].status != IBV_WC_SUCCESS ||
		    wc[0].byte_len != MSG || wc[0].qp_num != b->qp_num ||
		    wc[0].wr_id != (uint64_t)(100 + n)) {
			lv_check(0, "traffic: SEND %d received through the SRQ",
				 n);
			return;
		}
		ok = !memcmp(rx + n * MSG, tx + n * MSG, MSG);
		lv_check(ok, "traffic: SEND %d: %d bytes, wr_id %llu, data %s",
			 n, MSG, (unsigned long long)wc[0].wr_id,
			 ok ? "matches" : "DIFFERS");
		if (n == 2) {
			err = next_event(ctx, 300, &ev);
			lv_check(err,
				 "traffic: level 5 over limit 4: no event");
			if (!err)
				ibv_ack_async_event(&ev);
		}
	}
	while (!next_event(ctx, events ? 300 : 3000, &ev)) {
		if (ev.event_type == IBV_EVENT_SRQ_LIMIT_REACHED &&
		    ev.element.srq == srq)
			events++;
		else
			printf("# other async event %d\n", ev.event_type);
		ibv_ack_async_event(&ev);
	}
	lv_check(events == 1,
		 "traffic: level 3 under limit 4: %d SRQ_LIMIT_REACHED",
		 events);
	memset(&sa, 0, sizeof(sa));
	lv_check(!ibv_query_srq(srq, &sa) && sa.srq_limit == 0,
		 "traffic: the limit is disarmed (%u)", sa.srq_limit);

	ibv_destroy_qp(a);
	ibv_destroy_qp(b);
	ibv_destroy_srq(srq);
	ibv_destroy_cq(scq);
	ibv_destroy_cq(rcq);
	ibv_dereg_mr(txmr);
	ibv_dereg_mr(rxmr);
}

/*
 * By contrast, a QP with its own RQ flushes its receives, also those
 * posted once it is in ERR: they reach only the ring (neither librxe nor
 * libsiw makes a system call for a receive), so the flush comes with the
 * application's next modify_qp, the one rdma_disconnect() makes: ERR of
 * an IB QP, SQD of an iWARP QP whose peer closed first.
 */
static void reposted_in_err(struct ibv_pd *pd, struct ibv_cq *cq,
			    struct ibv_mr *mr, int iwarp)
{
	struct ibv_qp_init_attr qia = {
		.send_cq = cq,
		.recv_cq = cq,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 4, .max_send_sge = 1,
			 .max_recv_wr = 4, .max_recv_sge = 1 },
	};
	struct ibv_qp_attr qa = { .qp_state = IBV_QPS_INIT, .port_num = 1 };
	struct ibv_sge sge = {
		.addr = (uintptr_t)buf, .length = 64, .lkey = mr->lkey,
	};
	struct ibv_recv_wr rwr = { .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;
	struct ibv_wc wc[4];
	struct ibv_qp *qp;
	int i, n, ok, err;

	qp = ibv_create_qp(pd, &qia);
	lv_check(!!qp, "create an RC QP with its own RQ");
	if (!qp)
		return;
	err = ibv_modify_qp(qp, &qa, IBV_QP_STATE | IBV_QP_ACCESS_FLAGS |
			    (iwarp ? 0 : IBV_QP_PKEY_INDEX | IBV_QP_PORT));
	qa.qp_state = IBV_QPS_ERR;
	err = err ?: ibv_modify_qp(qp, &qa, IBV_QP_STATE);
	lv_check(!err, "own RQ: QP to INIT, then ERR (%d)", err);
	ok = 1;
	for (i = 0; i < 4; i++) {
		rwr.wr_id = 700 + i;
		ok &= !ibv_post_recv(qp, &rwr, &bad);
	}
	lv_check(ok, "own RQ: 4 receives posted in ERR");
	qa.qp_state = iwarp ? IBV_QPS_SQD : IBV_QPS_ERR;
	err = ibv_modify_qp(qp, &qa, IBV_QP_STATE);
	lv_check(!err, "own RQ: ERR->%s as rdma_disconnect() asks (%d)",
		 iwarp ? "SQD" : "ERR", err);
	n = wait_cq(cq, 4, wc);
	for (i = 0; i < n; i++)
		ok &= wc[i].wr_id == 700 + (uint64_t)i &&
		      wc[i].status == IBV_WC_WR_FLUSH_ERR;
	lv_check(n == 4 && ok,
		 "own RQ: the receives posted in ERR are flushed (%d of 4)", n);
	lv_check(!ibv_destroy_qp(qp), "own RQ: destroy the QP");
}

int main(int argc, char **argv)
{
	struct ibv_device **list, *dev = NULL;
	struct ibv_srq_init_attr sia = {};
	struct ibv_device_attr da;
	struct ibv_srq_attr sa;
	struct ibv_context *ctx;
	struct ibv_qp_attr qa;
	struct ibv_srq *srq, *big;
	struct ibv_wc wc[4];
	struct ibv_qp *qp;
	struct ibv_cq *cq;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	unsigned int cap, n, more;
	const char *name = NULL;
	int opt, iwarp, err, gid_index = -1;

	while ((opt = getopt(argc, argv, "d:g:")) != -1) {
		if (opt == 'd')
			name = optarg;
		else if (opt == 'g')
			gid_index = atoi(optarg);
	}
	list = ibv_get_device_list(NULL);
	if (name)
		dev = lv_find_device(list, name);
	if (!dev) {
		lv_check(0, "device %s found", name ? name : "(none)");
		return 1;
	}
	ctx = ibv_open_device(dev);
	if (!ctx || ibv_query_device(ctx, &da)) {
		lv_check(0, "open and query %s", name);
		return 1;
	}
	iwarp = dev->transport_type == IBV_TRANSPORT_IWARP;
	lv_check(da.max_srq > 0 && da.max_srq_wr > 0 && da.max_srq_sge > 0,
		 "attrs: max_srq %d max_srq_wr %d max_srq_sge %d", da.max_srq,
		 da.max_srq_wr, da.max_srq_sge);

	pd = ibv_alloc_pd(ctx);
	mr = pd ? ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE) :
		  NULL;
	cq = ibv_create_cq(ctx, 64, NULL, NULL, 0);
	if (!pd || !mr || !cq) {
		lv_check(0, "PD, MR and CQ");
		return 1;
	}

	sia.attr.max_wr = da.max_srq_wr + 1;
	sia.attr.max_sge = 1;
	big = ibv_create_srq(pd, &sia);
	lv_check(!big, "create_srq max_wr %u (above max_srq_wr) refused",
		 sia.attr.max_wr);
	if (big)
		ibv_destroy_srq(big);

	memset(&sia, 0, sizeof(sia));
	sia.attr.max_wr = 16;
	sia.attr.max_sge = 2;
	srq = ibv_create_srq(pd, &sia);
	lv_check(srq && sia.attr.max_wr >= 16 && sia.attr.max_sge >= 2,
		 "create_srq 16 x 2 SGEs: capacity %u, %u SGEs",
		 sia.attr.max_wr, sia.attr.max_sge);
	if (!srq)
		return 1;
	cap = sia.attr.max_wr;
	memset(&sa, 0, sizeof(sa));
	err = ibv_query_srq(srq, &sa);
	if (iwarp)	/* libsiw has no query_srq: libibverbs answers */
		lv_check(err == EOPNOTSUPP, "query_srq: libsiw has none (%d)",
			 err);
	else
		lv_check(!err && sa.max_wr == cap && sa.srq_limit == 0,
			 "query_srq: max_wr %u srq_limit %u", sa.max_wr,
			 sa.srq_limit);

	n = fill(srq, mr, cap + 8);
	lv_check(n == cap, "receives fill the SRQ to its capacity: %u of %u", n,
		 cap);

	memset(&sa, 0, sizeof(sa));
	sa.srq_limit = cap + 1;
	err = ibv_modify_srq(srq, &sa, IBV_SRQ_LIMIT);
	lv_check(err, "limit %u above the capacity refused (%d)", cap + 1, err);
	sa.srq_limit = 4;
	err = ibv_modify_srq(srq, &sa, IBV_SRQ_LIMIT);
	memset(&sa, 0, sizeof(sa));
	if (iwarp) {
		lv_check(!err, "limit 4 armed (%d)", err);
	} else {
		err = err ?: ibv_query_srq(srq, &sa);
		lv_check(!err && sa.srq_limit == 4,
			 "limit 4 armed, query_srq reads %u", sa.srq_limit);
	}

	memset(&sa, 0, sizeof(sa));
	sa.max_wr = 4 * cap;
	err = ibv_modify_srq(srq, &sa, IBV_SRQ_MAX_WR);
	if (iwarp) {
		lv_check(err != 0, "siw ABI: resize refused (%d)", err);
	} else {
		memset(&sa, 0, sizeof(sa));
		err = err ?: ibv_query_srq(srq, &sa);
		lv_check(!err && sa.max_wr >= 4 * cap,
			 "resize to %u: capacity %u (%d)", 4 * cap, sa.max_wr,
			 err);
		more = fill(srq, mr, sa.max_wr + 8);
		lv_check(more == sa.max_wr - cap,
			 "the %u queued receives survive the resize: %u more fit",
			 cap, more);
		cap = sa.max_wr;
	}

	{
		struct ibv_qp_init_attr qia = {
			.send_cq = cq,
			.recv_cq = cq,
			.srq = srq,
			.qp_type = IBV_QPT_RC,
			.cap = { .max_send_wr = 4, .max_send_sge = 1 },
		};

		qp = ibv_create_qp(pd, &qia);
	}
	lv_check(!!qp, "create an RC QP on the SRQ");
	if (!qp)
		return 1;

	/* INIT as the iw_cm or the IB CM would, then ERR */
	memset(&qa, 0, sizeof(qa));
	qa.qp_state = IBV_QPS_INIT;
	qa.port_num = 1;
	err = ibv_modify_qp(qp, &qa, IBV_QP_STATE | IBV_QP_ACCESS_FLAGS |
			    (iwarp ? 0 : IBV_QP_PKEY_INDEX | IBV_QP_PORT));
	qa.qp_state = IBV_QPS_ERR;
	err = err ?: ibv_modify_qp(qp, &qa, IBV_QP_STATE);
	lv_check(!err, "QP to INIT, then ERR (%d)", err);
	usleep(200000);
	n = ibv_poll_cq(cq, 4, wc);
	lv_check(n == 0, "no receive flushed from the SRQ: %d completions", n);
	n = fill(srq, mr, 1);
	lv_check(n == 0, "the SRQ is still full after the QP's flush");

	errno = 0;
	err = ibv_destroy_srq(srq);
	lv_check(err == EBUSY, "destroy_srq while a QP uses it: EBUSY (%d)",
		 err);
	lv_check(!ibv_destroy_qp(qp), "destroy the QP");
	lv_check(!ibv_destroy_srq(srq), "destroy the SRQ");

	reposted_in_err(pd, cq, mr, iwarp);

	if (gid_index >= 0)
		traffic(ctx, pd, gid_index);

	ibv_destroy_cq(cq);
	ibv_dereg_mr(mr);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	ibv_free_device_list(list);
	return lv_failures ? 1 : 0;
}
