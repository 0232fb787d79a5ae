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
 *    and query_srq reads it back;
 *  - IBV_SRQ_MAX_WR grows the librxe ring with the queued receives kept
 *    (the new ring then takes exactly capacity - queued more); libsiw's
 *    ABI cannot carry it: refused (the kernel answers EOPNOTSUPP);
 *  - a QP on the SRQ moved to ERR flushes no receive: the SRQ's WQEs
 *    stay (the ring is still full afterwards);
 *  - destroy_srq while the QP uses it fails with EBUSY, then succeeds.
 * Exit status 0 iff every check held.
 */
#include <errno.h>
#include <infiniband/verbs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;

static void check(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s - ", ok ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!ok)
		failures++;
}

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
	int i, opt, iwarp, err;

	while ((opt = getopt(argc, argv, "d:")) != -1)
		if (opt == 'd')
			name = optarg;
	list = ibv_get_device_list(NULL);
	for (i = 0; list && list[i]; i++)
		if (name && !strcmp(ibv_get_device_name(list[i]), name))
			dev = list[i];
	if (!dev) {
		printf("not ok - device %s found\n", name ? name : "(none)");
		return 1;
	}
	ctx = ibv_open_device(dev);
	if (!ctx || ibv_query_device(ctx, &da)) {
		printf("not ok - open and query %s\n", name);
		return 1;
	}
	iwarp = dev->transport_type == IBV_TRANSPORT_IWARP;
	check(da.max_srq > 0 && da.max_srq_wr > 0 && da.max_srq_sge > 0,
	      "attrs: max_srq %d max_srq_wr %d max_srq_sge %d", da.max_srq,
	      da.max_srq_wr, da.max_srq_sge);

	pd = ibv_alloc_pd(ctx);
	mr = pd ? ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE) :
		  NULL;
	cq = ibv_create_cq(ctx, 64, NULL, NULL, 0);
	if (!pd || !mr || !cq) {
		printf("not ok - PD, MR and CQ\n");
		return 1;
	}

	sia.attr.max_wr = da.max_srq_wr + 1;
	sia.attr.max_sge = 1;
	big = ibv_create_srq(pd, &sia);
	check(!big, "create_srq max_wr %u (above max_srq_wr) refused",
	      sia.attr.max_wr);
	if (big)
		ibv_destroy_srq(big);

	memset(&sia, 0, sizeof(sia));
	sia.attr.max_wr = 16;
	sia.attr.max_sge = 2;
	srq = ibv_create_srq(pd, &sia);
	check(srq && sia.attr.max_wr >= 16 && sia.attr.max_sge >= 2,
	      "create_srq 16 x 2 SGEs: capacity %u, %u SGEs", sia.attr.max_wr,
	      sia.attr.max_sge);
	if (!srq)
		return 1;
	cap = sia.attr.max_wr;
	err = ibv_query_srq(srq, &sa);
	check(!err && sa.max_wr == cap && sa.srq_limit == 0,
	      "query_srq: max_wr %u srq_limit %u", sa.max_wr, sa.srq_limit);

	n = fill(srq, mr, cap + 8);
	check(n == cap, "receives fill the SRQ to its capacity: %u of %u", n,
	      cap);

	memset(&sa, 0, sizeof(sa));
	sa.srq_limit = cap + 1;
	err = ibv_modify_srq(srq, &sa, IBV_SRQ_LIMIT);
	check(err, "limit %u above the capacity refused (%d)", cap + 1, err);
	sa.srq_limit = 4;
	err = ibv_modify_srq(srq, &sa, IBV_SRQ_LIMIT);
	memset(&sa, 0, sizeof(sa));
	check(!err && !ibv_query_srq(srq, &sa) && sa.srq_limit == 4,
	      "limit 4 armed, query_srq reads %u", sa.srq_limit);

	memset(&sa, 0, sizeof(sa));
	sa.max_wr = 4 * cap;
	err = ibv_modify_srq(srq, &sa, IBV_SRQ_MAX_WR);
	if (iwarp) {
		check(err != 0, "siw ABI: resize refused (%d)", err);
	} else {
		memset(&sa, 0, sizeof(sa));
		check(!err && !ibv_query_srq(srq, &sa) && sa.max_wr >= 4 * cap,
		      "resize to %u: capacity %u (%d)", 4 * cap, sa.max_wr, err);
		more = fill(srq, mr, sa.max_wr + 8);
		check(more == sa.max_wr - cap,
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
	check(!!qp, "create an RC QP on the SRQ");
	if (!qp)
		return 1;

	memset(&qa, 0, sizeof(qa));
	qa.qp_state = IBV_QPS_ERR;
	err = ibv_modify_qp(qp, &qa, IBV_QP_STATE);
	check(!err, "QP to ERR (%d)", err);
	usleep(200000);
	n = ibv_poll_cq(cq, 4, wc);
	check(n == 0, "no receive flushed from the SRQ: %d completions", n);
	n = fill(srq, mr, 1);
	check(n == 0, "the SRQ is still full after the QP's flush");

	errno = 0;
	err = ibv_destroy_srq(srq);
	check(err == EBUSY, "destroy_srq while a QP uses it: EBUSY (%d)", err);
	check(!ibv_destroy_qp(qp), "destroy the QP");
	check(!ibv_destroy_srq(srq), "destroy the SRQ");

	ibv_destroy_cq(cq);
	ibv_dereg_mr(mr);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	ibv_free_device_list(list);
	return failures ? 1 : 0;
}
