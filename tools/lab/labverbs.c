// SPDX-License-Identifier: GPL-2.0
/* labverbs: see labverbs.h */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <rdma/ib_user_verbs.h>

#include "labverbs.h"

int lv_failures;

void lv_check(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s - ", ok ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!ok)
		lv_failures++;
}

void lv_die(const char *what)
{
	perror(what);
	exit(2);
}

struct ibv_device *lv_find_device(struct ibv_device **list, const char *name)
{
	int i;

	for (i = 0; list && list[i]; i++)
		if (!name || !strcmp(ibv_get_device_name(list[i]), name))
			return list[i];
	return NULL;
}

struct ibv_context *lv_open_device(const char *name)
{
	struct ibv_context *ctx = NULL;
	struct ibv_device *dev;

	dev = lv_find_device(ibv_get_device_list(NULL), name);
	if (dev)
		ctx = ibv_open_device(dev);
	if (!ctx)
		lv_die("open device");
	return ctx;
}

void lv_parse_args(int argc, char **argv, const char *port, char flag,
		   struct lv_args *a)
{
	char opts[] = { 'd', ':', 'g', ':', 'p', ':', flag, 0 };
	int opt;

	*a = (struct lv_args){ .gidx = 1, .port = port };
	while ((opt = getopt(argc, argv, opts)) != -1) {
		if (opt == 'd')
			a->dev = optarg;
		else if (opt == 'g')
			a->gidx = atoi(optarg);
		else if (opt == 'p')
			a->port = optarg;
		else if (flag && opt == flag)
			a->flag = 1;
		else
			lv_die("usage: [-d DEV] [-g GIDIDX] [-p PORT] [SERVER]");
	}
	if (optind < argc)
		a->host = argv[optind];
}

void lv_base_open(const struct lv_args *a, size_t len, int fill, int access,
		  struct lv_base *b)
{
	b->ctx = lv_open_device(a->dev);
	b->pd = ibv_alloc_pd(b->ctx);
	if (!b->pd)
		lv_die("pd");
	b->mr = lv_buf_reg(b->pd, len, fill, access);
	b->buf = b->mr->addr;
}

struct ibv_mr *lv_buf_reg(struct ibv_pd *pd, size_t len, int fill,
			  int access)
{
	struct ibv_mr *mr;
	void *buf;

	buf = aligned_alloc(4096, len);
	if (!buf)
		lv_die("buf");
	memset(buf, fill, len);
	mr = ibv_reg_mr(pd, buf, len, access);
	if (!mr)
		lv_die("reg_mr");
	return mr;
}

struct ibv_cq *lv_create_cq(struct ibv_context *ctx)
{
	struct ibv_cq *cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);

	if (!cq)
		lv_die("create_cq");
	return cq;
}

struct ibv_wc lv_poll1(struct ibv_cq *cq)
{
	struct ibv_wc wc = { .status = -1 };
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		if (ibv_poll_cq(cq, 1, &wc) != 0)
			break;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 20) {
			wc.status = -1;
			break;
		}
	}
	return wc;
}

const char *lv_wc_status(struct ibv_wc wc)
{
	return (int)wc.status == -1 ? "none" : ibv_wc_status_str(wc.status);
}

void lv_sync(int fd, char c)
{
	char got;

	if (write(fd, &c, 1) != 1 || read(fd, &got, 1) != 1 || got != c)
		lv_die("sync");
}

struct ibv_qp *lv_create_rc_qp(struct ibv_pd *pd, struct ibv_cq *cq,
			       unsigned int depth, unsigned int inl,
			       struct ibv_qp_cap *cap)
{
	struct ibv_qp_init_attr init = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = depth, .max_recv_wr = depth,
			 .max_send_sge = 1, .max_recv_sge = 1,
			 .max_inline_data = inl },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &init);

	if (qp && cap)
		*cap = init.cap;
	return qp;
}

void lv_describe(struct ibv_qp *qp, int gidx, uint32_t psn, void *buf,
		 struct ibv_mr *mr, struct lv_info *mine, enum ibv_mtu *mtu)
{
	struct ibv_port_attr pattr;

	if (ibv_query_port(qp->context, 1, &pattr) ||
	    ibv_query_gid(qp->context, 1, gidx, &mine->gid))
		lv_die("query");
	*mtu = pattr.active_mtu;
	mine->qpn = qp->qp_num;
	mine->psn = psn;
	mine->addr = (uintptr_t)buf;
	mine->rkey = mr->rkey;
}

int lv_tcp_connect(const char *host, const char *port)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
	int fd, one = 1, tries;

	if (!host) {
		struct sockaddr_in sin = { .sin_family = AF_INET,
					   .sin_port = htons(atoi(port)) };
		int lfd = socket(AF_INET, SOCK_STREAM, 0);

		setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(lfd, (void *)&sin, sizeof(sin)) || listen(lfd, 1))
			lv_die("listen");
		fd = accept(lfd, NULL, NULL);
		close(lfd);
		return fd;
	}
	if (getaddrinfo(host, port, &hints, &ai))
		lv_die("getaddrinfo");
	for (tries = 0; tries < 50; tries++) {
		fd = socket(ai->ai_family, SOCK_STREAM, 0);
		if (!connect(fd, ai->ai_addr, ai->ai_addrlen))
			return fd;
		close(fd);
		usleep(200000);
	}
	lv_die("connect");
}

void lv_xchg(int fd, const struct lv_info *mine, struct lv_info *peer)
{
	if (write(fd, mine, sizeof(*mine)) != sizeof(*mine) ||
	    read(fd, peer, sizeof(*peer)) != sizeof(*peer))
		lv_die("exchange");
}

int lv_meet(const struct lv_args *a, int n, const struct lv_info *mine,
	    struct lv_info *peer)
{
	int fd = lv_tcp_connect(a->host, a->port);
	int i;

	for (i = 0; i < n; i++)
		lv_xchg(fd, &mine[i], &peer[i]);
	return fd;
}

int lv_qp_state(struct ibv_qp *qp)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr attr;

	if (ibv_query_qp(qp, &attr, IBV_QP_STATE, &init))
		return -1;
	return attr.qp_state;
}

const char *lv_qp_state_str(int s)
{
	static const char *const names[] = {
		[IBV_QPS_RESET] = "RESET", [IBV_QPS_INIT] = "INIT",
		[IBV_QPS_RTR] = "RTR", [IBV_QPS_RTS] = "RTS",
		[IBV_QPS_SQD] = "SQD", [IBV_QPS_SQE] = "SQE",
		[IBV_QPS_ERR] = "ERR",
	};

	return s >= 0 && s < (int)(sizeof(names) / sizeof(names[0])) &&
	       names[s] ? names[s] : "?";
}

int lv_doorbell(struct ibv_qp *qp)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_post_send cmd;
	} c = {};
	struct ib_uverbs_post_send_resp resp;

	c.hdr.command = IB_USER_VERBS_CMD_POST_SEND;
	c.hdr.in_words = sizeof(c) / 4;
	c.hdr.out_words = sizeof(resp) / 4;
	c.cmd.response = (uintptr_t)&resp;
	c.cmd.qp_handle = qp->handle;
	c.cmd.wqe_size = sizeof(struct ibv_send_wr);
	if (write(qp->context->cmd_fd, &c, sizeof(c)) != sizeof(c))
		return errno;
	return 0;
}

void lv_qp_init(struct ibv_qp *qp, int access)
{
	struct ibv_qp_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_INIT;
	attr.port_num = 1;
	attr.qp_access_flags = access;
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		lv_die("INIT");
}

void lv_rtr_path(struct ibv_qp_attr *attr, int gidx, enum ibv_mtu mtu,
		 const struct lv_info *peer)
{
	memset(attr, 0, sizeof(*attr));
	attr->qp_state = IBV_QPS_RTR;
	attr->path_mtu = mtu;
	attr->dest_qp_num = peer->qpn;
	attr->rq_psn = peer->psn;
	attr->ah_attr.is_global = 1;
	attr->ah_attr.grh.dgid = peer->gid;
	attr->ah_attr.grh.sgid_index = gidx;
	attr->ah_attr.grh.hop_limit = 1;
	attr->ah_attr.port_num = 1;
}

void lv_rc_rtr(struct ibv_qp *qp, int gidx, enum ibv_mtu mtu,
	       const struct lv_info *peer)
{
	struct ibv_qp_attr attr;

	lv_rtr_path(&attr, gidx, mtu, peer);
	attr.max_dest_rd_atomic = 1;
	attr.min_rnr_timer = 12;
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		lv_die("RTR");
}

void lv_rc_rts(struct ibv_qp *qp, uint32_t psn)
{
	struct ibv_qp_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTS;
	attr.timeout = 14;
	attr.retry_cnt = 7;
	attr.rnr_retry = 7;
	attr.sq_psn = psn;
	attr.max_rd_atomic = 1;
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_TIMEOUT |
			  IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
			  IBV_QP_MAX_QP_RD_ATOMIC))
		lv_die("RTS");
}

void lv_rc_connect(struct ibv_qp *qp, int gidx, enum ibv_mtu mtu, int access,
		   const struct lv_info *mine, const struct lv_info *peer)
{
	lv_qp_init(qp, access);
	lv_rc_rtr(qp, gidx, mtu, peer);
	lv_rc_rts(qp, mine->psn);
}

void lv_create_pairs(struct ibv_pd *pd, int n, uint64_t send_ops,
		     struct ibv_cq **cq, struct ibv_qp **qp)
{
	int i;

	for (i = 0; i < n; i++) {
		struct ibv_qp_init_attr_ex init = {
			.qp_type = IBV_QPT_RC,
			.cap = { .max_send_wr = 8, .max_recv_wr = 8,
				 .max_send_sge = 1, .max_recv_sge = 1 },
			.comp_mask = IBV_QP_INIT_ATTR_PD |
				     IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
			.pd = pd,
			.send_ops_flags = send_ops,
		};

		cq[i] = lv_create_cq(pd->context);
		if (!send_ops) {
			qp[i] = lv_create_rc_qp(pd, cq[i], 8, 0, NULL);
			if (!qp[i])
				lv_die("create_qp");
			continue;
		}
		init.send_cq = cq[i];
		init.recv_cq = cq[i];
		qp[i] = ibv_create_qp_ex(pd->context, &init);
		if (!qp[i])
			lv_die("create_qp_ex");
	}
}

int lv_connect_pairs(const struct lv_args *a, const struct lv_base *b, int n,
		     struct ibv_qp **qp, uint32_t psn, uint32_t skew,
		     int access)
{
	struct lv_info *mine = calloc(n, sizeof(*mine));
	struct lv_info *peer = calloc(n, sizeof(*peer));
	enum ibv_mtu mtu;
	int fd, i;

	if (!mine || !peer)
		lv_die("calloc");
	if (a->host)
		skew = 0;
	for (i = 0; i < n; i++)
		lv_describe(qp[i], a->gidx, psn * (i + 1) + skew, b->buf,
			    b->mr, &mine[i], &mtu);
	fd = lv_meet(a, n, mine, peer);
	for (i = 0; i < n; i++)
		lv_rc_connect(qp[i], a->gidx, mtu, access, &mine[i], &peer[i]);
	lv_xchg(fd, &mine[0], &peer[0]);
	free(mine);
	free(peer);
	return fd;
}

long lv_hw_counter(const char *dev, const char *name)
{
	char path[256];
	long v;
	FILE *f;

	snprintf(path, sizeof(path),
		 "/sys/class/infiniband/%s/ports/1/hw_counters/%s", dev, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}
