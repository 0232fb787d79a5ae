// SPDX-License-Identifier: GPL-2.0
/*
 * rc_access: an RDMA WRITE into a read-only MR must fail with a remote
 * access error and leave the target unchanged (IBA vol 1 9.7.5.2.3).
 *
 *   rc_access -d DEV -g GIDIDX -p PORT            server: owns the MR
 *   rc_access -d DEV -g GIDIDX -p PORT SERVER     client: writes into it
 *
 * QP numbers, PSNs, GIDs, the MR's address and rkey are exchanged over
 * TCP.  The server registers 4 KiB with IBV_ACCESS_REMOTE_READ only,
 * filled with 0x5a; the client writes 0xa5 bytes into it and must see
 * IBV_WC_REM_ACCESS_ERR; the server then checks that every byte is 0x5a.
 * Exit status 0 means all of that held.
 */
#include <arpa/inet.h>
#include <infiniband/verbs.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define LEN 4096

struct info {
	uint32_t qpn, psn, rkey;
	uint64_t addr;
	union ibv_gid gid;
};

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static int tcp_connect(const char *host, const char *port)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
	int fd, one = 1, tries;

	if (!host) {
		struct sockaddr_in sin = { .sin_family = AF_INET,
					   .sin_port = htons(atoi(port)) };
		int lfd = socket(AF_INET, SOCK_STREAM, 0);

		setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(lfd, (void *)&sin, sizeof(sin)) || listen(lfd, 1))
			die("listen");
		fd = accept(lfd, NULL, NULL);
		close(lfd);
		return fd;
	}
	if (getaddrinfo(host, port, &hints, &ai))
		die("getaddrinfo");
	for (tries = 0; tries < 50; tries++) {
		fd = socket(ai->ai_family, SOCK_STREAM, 0);
		if (!connect(fd, ai->ai_addr, ai->ai_addrlen))
			return fd;
		close(fd);
		usleep(200000);
	}
	die("connect");
	return -1;
}

static void xchg(int fd, struct info *mine, struct info *peer)
{
	if (write(fd, mine, sizeof(*mine)) != sizeof(*mine) ||
	    read(fd, peer, sizeof(*peer)) != sizeof(*peer))
		die("exchange");
}

int main(int argc, char **argv)
{
	const char *devname = NULL, *port = "18600", *server = NULL;
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	struct ibv_port_attr pattr;
	struct info mine = {}, peer;
	struct ibv_qp_attr attr;
	struct ibv_wc wc;
	struct ibv_mr *mr;
	struct ibv_cq *cq;
	struct ibv_pd *pd;
	struct ibv_qp *qp;
	int gidx = 1, opt, fd, i, n;
	char *buf, ok;

	while ((opt = getopt(argc, argv, "d:g:p:")) != -1) {
		if (opt == 'd')
			devname = optarg;
		else if (opt == 'g')
			gidx = atoi(optarg);
		else
			port = optarg;
	}
	if (optind < argc)
		server = argv[optind];

	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n; i++)
		if (!devname || !strcmp(ibv_get_device_name(list[i]), devname))
			ctx = ibv_open_device(list[i]);
	if (!ctx)
		die("open device");
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	buf = aligned_alloc(4096, LEN);
	memset(buf, server ? 0xa5 : 0x5a, LEN);
	mr = ibv_reg_mr(pd, buf, LEN, server ? IBV_ACCESS_LOCAL_WRITE :
				      IBV_ACCESS_REMOTE_READ);
	if (!pd || !cq || !mr)
		die("pd/cq/mr");
	qp = ibv_create_qp(pd, &(struct ibv_qp_init_attr){
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 } });
	if (!qp)
		die("create qp");
	if (ibv_query_port(ctx, 1, &pattr) ||
	    ibv_query_gid(ctx, 1, gidx, &mine.gid))
		die("query");
	mine.qpn = qp->qp_num;
	mine.psn = 0x123456 + (server ? 0x111 : 0);
	mine.addr = (uintptr_t)buf;
	mine.rkey = mr->rkey;

	fd = tcp_connect(server, port);
	xchg(fd, &mine, &peer);

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_INIT;
	attr.port_num = 1;
	attr.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		die("INIT");
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTR;
	attr.path_mtu = pattr.active_mtu;
	attr.dest_qp_num = peer.qpn;
	attr.rq_psn = peer.psn;
	attr.max_dest_rd_atomic = 1;
	attr.min_rnr_timer = 12;
	attr.ah_attr.is_global = 1;
	attr.ah_attr.grh.dgid = peer.gid;
	attr.ah_attr.grh.sgid_index = gidx;
	attr.ah_attr.grh.hop_limit = 1;
	attr.ah_attr.port_num = 1;
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		die("RTR");
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTS;
	attr.timeout = 14;
	attr.retry_cnt = 7;
	attr.rnr_retry = 7;
	attr.sq_psn = mine.psn;
	attr.max_rd_atomic = 1;
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_TIMEOUT |
			  IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
			  IBV_QP_MAX_QP_RD_ATOMIC))
		die("RTS");
	/* both sides ready before the write */
	xchg(fd, &mine, &peer);

	if (server) {
		struct ibv_sge sge = { .addr = (uintptr_t)buf, .length = LEN,
				       .lkey = mr->lkey };
		struct ibv_send_wr wr = {
			.sg_list = &sge, .num_sge = 1,
			.opcode = IBV_WR_RDMA_WRITE,
			.send_flags = IBV_SEND_SIGNALED,
			.wr.rdma = { .remote_addr = peer.addr,
				     .rkey = peer.rkey },
		}, *bad;

		if (ibv_post_send(qp, &wr, &bad))
			die("post_send");
		for (i = 0; i < 100000000; i++) {
			n = ibv_poll_cq(cq, 1, &wc);
			if (n)
				break;
		}
		printf("client: write completed with %s (%d)\n",
		       n > 0 ? ibv_wc_status_str(wc.status) : "nothing", n);
		ok = n > 0 && wc.status == IBV_WC_REM_ACCESS_ERR;
		if (write(fd, &ok, 1) != 1 || read(fd, &ok, 1) != 1)
			die("result");
		printf("server says target %s\n", ok ? "unchanged" : "CHANGED");
		return n > 0 && wc.status == IBV_WC_REM_ACCESS_ERR && ok ? 0 : 1;
	}

	if (read(fd, &ok, 1) != 1)
		die("result");
	usleep(200000);
	for (i = 0; i < LEN; i++)
		if ((unsigned char)buf[i] != 0x5a)
			break;
	ok = i == LEN;
	printf("server: target %s (first changed byte %d)\n",
	       ok ? "unchanged" : "CHANGED", i);
	if (write(fd, &ok, 1) != 1)
		die("result");
	return ok ? 0 : 1;
}
