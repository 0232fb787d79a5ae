// SPDX-License-Identifier: GPL-2.0
/*
 * uc_verbs: a UC QP (IBA 9.8) through the verbs, byte by byte.
 *
 *   uc_verbs -d DEV -g GIDIDX -p PORT            server: receives
 *   uc_verbs -d DEV -g GIDIDX -p PORT SERVER     client: sends
 *
 * Both sides: a UC QP goes to RTS with UC's attributes only; RTS with a
 * local ACK timeout (RC's alone) is refused.  Over a 1024-byte path MTU
 * the client sends an 8 KiB RDMA WRITE with immediate into the server's
 * buffer (First, Middles, Last with immediate) and a 5000-byte SEND with
 * immediate; the server checks both receive completions (opcode, length,
 * immediate data) and every byte.  Then the client's RDMA READ and
 * atomic must be refused: the post fails, or the WR completes in error.
 * One "ok - " line per check; exit status 0 if all held.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "labverbs.h"

#define WRITE_LEN	8192
#define SEND_LEN	5000
#define WRITE_IMM	0x11223344u
#define SEND_IMM	0x55667788u

static unsigned char pattern(unsigned int i, unsigned int seed)
{
	return (i * seed + 1) & 0xff;
}

/* up to @n completions within 20 s; returns how many */
static int poll_n(struct ibv_cq *cq, struct ibv_wc *wc, int n)
{
	struct timespec t0, t;
	int got = 0, r;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (got < n) {
		r = ibv_poll_cq(cq, n - got, wc + got);
		if (r < 0)
			break;
		got += r;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 20)
			break;
	}
	return got;
}

static void uc_connect(struct ibv_qp *qp, int gidx, enum ibv_mtu mtu,
		       const struct lv_info *mine, const struct lv_info *peer)
{
	struct ibv_qp_attr attr;

	lv_qp_init(qp, IBV_ACCESS_REMOTE_WRITE);
	lv_rtr_path(&attr, gidx, mtu, peer);
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_AV |
			  IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN))
		lv_die("RTR");
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTS;
	attr.sq_psn = mine->psn;
	attr.timeout = 14;
	lv_check(ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_SQ_PSN |
			       IBV_QP_TIMEOUT) != 0,
		 "UC RTR -> RTS with a local ACK timeout is refused");
	lv_check(ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_SQ_PSN) == 0,
		 "UC RTR -> RTS with the SQ PSN only");
}

static void server(int fd, struct ibv_qp *qp, struct ibv_cq *cq,
		   unsigned char *buf, struct ibv_mr *mr)
{
	unsigned char *rbuf = buf + WRITE_LEN;
	struct ibv_sge sge = { .addr = (uintptr_t)rbuf, .length = WRITE_LEN,
			       .lkey = mr->lkey };
	struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 }, *bad;
	struct ibv_wc wc[2];
	unsigned int i;
	int n;
	char ok;

	for (i = 0; i < 2; i++) {
		wr.wr_id = i;
		if (ibv_post_recv(qp, &wr, &bad))
			lv_die("post_recv");
	}
	if (write(fd, "r", 1) != 1)
		lv_die("ready");
	n = poll_n(cq, wc, 2);
	lv_check(n == 2, "server: two receive completions (%d)", n);
	if (n < 2)
		return;
	lv_check(wc[0].status == IBV_WC_SUCCESS &&
		 wc[0].opcode == IBV_WC_RECV_RDMA_WITH_IMM &&
		 (wc[0].wc_flags & IBV_WC_WITH_IMM) &&
		 ntohl(wc[0].imm_data) == WRITE_IMM &&
		 wc[0].byte_len == WRITE_LEN,
		 "server: WRITE with immediate completes (status %s opcode %d imm %#x len %u)",
		 ibv_wc_status_str(wc[0].status), wc[0].opcode,
		 ntohl(wc[0].imm_data), wc[0].byte_len);
	for (i = 0; i < WRITE_LEN && buf[i] == pattern(i, 7); i++)
		;
	lv_check(i == WRITE_LEN, "server: every written byte (first bad %u)",
		 i);
	lv_check(wc[1].status == IBV_WC_SUCCESS &&
		 wc[1].opcode == IBV_WC_RECV &&
		 (wc[1].wc_flags & IBV_WC_WITH_IMM) &&
		 ntohl(wc[1].imm_data) == SEND_IMM &&
		 wc[1].byte_len == SEND_LEN,
		 "server: SEND with immediate completes (status %s opcode %d imm %#x len %u)",
		 ibv_wc_status_str(wc[1].status), wc[1].opcode,
		 ntohl(wc[1].imm_data), wc[1].byte_len);
	for (i = 0; i < SEND_LEN && rbuf[i] == pattern(i, 13); i++)
		;
	lv_check(i == SEND_LEN, "server: every byte sent (first bad %u)", i);
	/* the client's READ and atomic come now: nothing may arrive */
	if (read(fd, &ok, 1) != 1)
		lv_die("done");
	usleep(200000);
	n = ibv_poll_cq(cq, 2, wc);
	lv_check(n == 0, "server: nothing more completed (%d)", n);
}

/* a WR UC does not carry: refused at the post, or completed in error */
static void refused(struct ibv_qp *qp, struct ibv_cq *cq,
		    struct ibv_send_wr *wr, const char *what)
{
	struct ibv_send_wr *bad;
	struct ibv_wc wc;
	int err, n = 0;

	err = ibv_post_send(qp, wr, &bad);
	if (!err)
		n = poll_n(cq, &wc, 1);
	lv_check(err || (n == 1 && wc.status != IBV_WC_SUCCESS),
		 "client: %s on UC refused (post %d, completion %s)", what,
		 err, n ? ibv_wc_status_str(wc.status) : "none");
}

static void client(int fd, struct ibv_qp *qp, struct ibv_cq *cq,
		   unsigned char *buf, struct ibv_mr *mr,
		   const struct lv_info *peer)
{
	struct ibv_sge sge = { .addr = (uintptr_t)buf, .length = WRITE_LEN,
			       .lkey = mr->lkey };
	struct ibv_send_wr wr = {
		.sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE_WITH_IMM,
		.send_flags = IBV_SEND_SIGNALED,
		.imm_data = htonl(WRITE_IMM),
		.wr.rdma = { .remote_addr = peer->addr, .rkey = peer->rkey },
	}, send, *bad;
	struct ibv_sge ssge = sge;
	struct ibv_wc wc[2];
	unsigned int i;
	char c;
	int n;

	for (i = 0; i < WRITE_LEN; i++)
		buf[i] = pattern(i, 7);
	for (i = 0; i < SEND_LEN; i++)
		buf[WRITE_LEN + i] = pattern(i, 13);
	ssge.addr = (uintptr_t)(buf + WRITE_LEN);
	ssge.length = SEND_LEN;
	send = (struct ibv_send_wr){
		.sg_list = &ssge, .num_sge = 1,
		.opcode = IBV_WR_SEND_WITH_IMM,
		.send_flags = IBV_SEND_SIGNALED,
		.imm_data = htonl(SEND_IMM),
	};
	wr.next = &send;
	/* the server's receives are posted */
	if (read(fd, &c, 1) != 1)
		lv_die("ready");
	if (ibv_post_send(qp, &wr, &bad))
		lv_die("post_send");
	n = poll_n(cq, wc, 2);
	lv_check(n == 2 && wc[0].status == IBV_WC_SUCCESS &&
		 wc[1].status == IBV_WC_SUCCESS,
		 "client: WRITE and SEND with immediate complete (%d)", n);

	sge.length = 8;
	wr = (struct ibv_send_wr){
		.sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_RDMA_READ,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = peer->addr, .rkey = peer->rkey },
	};
	refused(qp, cq, &wr, "RDMA READ");
	wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
	wr.wr.atomic.remote_addr = peer->addr;
	wr.wr.atomic.rkey = peer->rkey;
	wr.wr.atomic.compare_add = 1;
	refused(qp, cq, &wr, "FETCH_AND_ADD");
	if (write(fd, "d", 1) != 1)
		lv_die("done");
}

int main(int argc, char **argv)
{
	struct ibv_qp_init_attr init = {};
	struct lv_info mine = {}, peer;
	enum ibv_mtu mtu;
	struct lv_base b;
	struct lv_args a;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	int fd;

	lv_parse_args(argc, argv, "18700", 'c', &a);
	lv_base_open(&a, 2 * WRITE_LEN, 0,
		     IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE, &b);
	cq = lv_create_cq(b.ctx);
	init.send_cq = cq;
	init.recv_cq = cq;
	init.qp_type = IBV_QPT_UC;
	init.cap.max_send_wr = 4;
	init.cap.max_recv_wr = 4;
	init.cap.max_send_sge = 1;
	init.cap.max_recv_sge = 1;
	qp = ibv_create_qp(b.pd, &init);
	lv_check(qp != NULL, "create a UC QP");
	if (!qp)
		return 1;
	lv_describe(qp, a.gidx, 0x654321 + (a.host ? 0 : 0x111), b.buf, b.mr,
		    &mine, &mtu);
	mtu = IBV_MTU_1024;

	fd = lv_meet(&a, 1, &mine, &peer);
	uc_connect(qp, a.gidx, mtu, &mine, &peer);
	lv_xchg(fd, &mine, &peer);
	if (a.host)
		client(fd, qp, cq, b.buf, b.mr, &peer);
	else
		server(fd, qp, cq, b.buf, b.mr);
	return lv_failures ? 1 : 0;
}
