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
	struct lv_info mine = {}, peer;
	enum ibv_mtu mtu;
	struct lv_base b;
	struct lv_args a;
	struct ibv_wc wc;
	struct ibv_mr *mr;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	int fd, i, n;
	char *buf, ok;

	lv_parse_args(argc, argv, "18600", 'c', &a);
	/* the client (given the server's address) writes into the server's MR */
	lv_base_open(&a, LEN, a.host ? 0xa5 : 0x5a,
		     a.host ? IBV_ACCESS_LOCAL_WRITE : IBV_ACCESS_REMOTE_READ,
		     &b);
	buf = (char *)b.buf;
	mr = b.mr;
	cq = lv_create_cq(b.ctx);
	qp = lv_create_rc_qp(b.pd, cq, 4, 0, NULL);
	if (!qp)
		lv_die("create qp");
	lv_describe(qp, a.gidx, 0x123456 + (a.host ? 0x111 : 0), buf, mr,
		    &mine, &mtu);

	fd = lv_meet(&a, 1, &mine, &peer);
	lv_rc_connect(qp, a.gidx, mtu,
		      IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ,
		      &mine, &peer);
	/* both sides ready before the write */
	lv_xchg(fd, &mine, &peer);

	if (a.host) {
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
