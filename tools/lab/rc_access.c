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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "labverbs.h"

#define LEN 4096

int main(int argc, char **argv)
{
	const char *devname = NULL, *port = "18600", *server = NULL;
	struct lv_info mine = {}, peer;
	struct ibv_context *ctx;
	enum ibv_mtu mtu;
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

	ctx = lv_open_device(devname);
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	buf = aligned_alloc(4096, LEN);
	memset(buf, server ? 0xa5 : 0x5a, LEN);
	mr = ibv_reg_mr(pd, buf, LEN, server ? IBV_ACCESS_LOCAL_WRITE :
				      IBV_ACCESS_REMOTE_READ);
	if (!pd || !cq || !mr)
		lv_die("pd/cq/mr");
	qp = lv_create_rc_qp(pd, cq, 4, 0, NULL);
	if (!qp)
		lv_die("create qp");
	lv_describe(qp, gidx, 0x123456 + (server ? 0x111 : 0), buf, mr,
		    &mine, &mtu);

	fd = lv_tcp_connect(server, port);
	lv_xchg(fd, &mine, &peer);
	lv_rc_connect(qp, gidx, mtu,
		      IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ,
		      &mine, &peer);
	/* both sides ready before the write */
	lv_xchg(fd, &mine, &peer);

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
			lv_die("post_send");
		for (i = 0; i < 100000000; i++) {
			n = ibv_poll_cq(cq, 1, &wc);
			if (n)
				break;
		}
		printf("client: write completed with %s (%d)\n",
		       n > 0 ? ibv_wc_status_str(wc.status) : "nothing", n);
		ok = n > 0 && wc.status == IBV_WC_REM_ACCESS_ERR;
		if (write(fd, &ok, 1) != 1 || read(fd, &ok, 1) != 1)
			lv_die("result");
		printf("server says target %s\n", ok ? "unchanged" : "CHANGED");
		return n > 0 && wc.status == IBV_WC_REM_ACCESS_ERR && ok ? 0 : 1;
	}

	if (read(fd, &ok, 1) != 1)
		lv_die("result");
	usleep(200000);
	for (i = 0; i < LEN; i++)
		if ((unsigned char)buf[i] != 0x5a)
			break;
	ok = i == LEN;
	printf("server: target %s (first changed byte %d)\n",
	       ok ? "unchanged" : "CHANGED", i);
	if (write(fd, &ok, 1) != 1)
		lv_die("result");
	return ok ? 0 : 1;
}
