// SPDX-License-Identifier: GPL-2.0
/*
 * bad_response: forged responses at a RoCE RC requester with requests
 * outstanding (IBA vol 1 9.7.5.1.3 - 9.7.5.1.5), through librxe; the
 * forging is tools/lab/roce_inject.c's -F.
 *
 *   bad_response -d DEV -g GIDX -p PORT                    the victim
 *   bad_response -d DEV -g GIDX -p PORT -x INJECT SERVER   the forger
 *
 * The victim connects a real RC QP to the forger's, and nine more QPs
 * to a QP the forger leaves in INIT, which drops what they send: each
 * of those posts one request (RDMA WRITE, SEND, RDMA READ, FETCH_ADD) that
 * stays outstanding, no ACK timer running (timeout 0).  The forger runs
 * INJECT (a roce_inject command line: "roce_inject -i IF -t VICTIM")
 * with one -F per QP: six responses that do not fit the request at
 * their PSN (a READ response to a WRITE, an atomic ACK to a SEND, a READ
 * Middle as a READ's first packet, a READ Only longer than the READ, a
 * READ First as the last packet of a READ whose PSNs wrap, a READ
 * response to a FETCH_ADD) and three that are none: ACKs before and a
 * READ response after the outstanding PSN (stale), and an ACK whose
 * syndrome is of the reserved type.  The victim checks what
 * Documentation/softrdma.rst says of its counters: rcv_bad_response
 * rises by exactly six, each of those QPs completes its request with
 * IBV_WC_BAD_RESP_ERR and is in ERR, with no affiliated event (the
 * completion reports the error); rcv_stale_response rises by two and
 * rcv_invalid_request by one, those three QPs stay in RTS with their
 * request outstanding; and the real QP carries RDMA WRITEs and READs
 * before and after, data checked.
 *
 * Prints "ok - ..." / "not ok - ..." lines; exit status 0 iff all held.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "labverbs.h"

#define BUF_LEN		(128 * 1024)
#define XFER_LEN	(16 * 1024)	/* from 0, read back to BUF_LEN / 4 */
#define VICTIM_BUF	(BUF_LEN / 2)	/* the victims' 4 KiB each */
#define VICTIM_MTU	IBV_MTU_1024	/* a 4 KiB READ is four PSNs */

/* RC response opcodes (IBA 9.2.1 table 35) */
enum {
	OP_READ_FIRST = 13,
	OP_READ_MIDDLE = 14,
	OP_READ_LAST = 15,
	OP_READ_ONLY = 16,
	OP_ACK = 17,
	OP_ATOMIC_ACK = 18,
};

/* what a forged response at a victim QP is, and what it must do */
enum verdict {
	BAD,		/* rcv_bad_response; BAD_RESP_ERR; ERR */
	STALE,		/* rcv_stale_response; nothing else */
	INVALID,	/* rcv_invalid_request; nothing else */
};

static const struct victim {
	const char *name;
	enum ibv_wr_opcode wr;
	uint32_t len;		/* the request's */
	uint32_t psn;		/* its first PSN */
	int at;			/* the forged response's PSN, from psn */
	int op;
	uint32_t payload;
	int syndrome;
	enum verdict verdict;
} victims[] = {
	{ "READ Only answering an RDMA WRITE", IBV_WR_RDMA_WRITE, 64,
	  0x000100, 0, OP_READ_ONLY, 64, 0x1f, BAD },
	{ "ATOMIC Acknowledge answering a SEND", IBV_WR_SEND, 64,
	  0x200000, 0, OP_ATOMIC_ACK, 0, 0x1f, BAD },
	{ "READ Middle as a 4 KiB READ's first packet", IBV_WR_RDMA_READ,
	  4096, 0x400000, 0, OP_READ_MIDDLE, 1024, 0x1f, BAD },
	{ "READ Only of 128 bytes answering a 64-byte READ", IBV_WR_RDMA_READ,
	  64, 0x600000, 0, OP_READ_ONLY, 128, 0x1f, BAD },
	{ "READ First as the last packet of a READ across the PSN wrap",
	  IBV_WR_RDMA_READ, 4096, 0xfffffe, 3, OP_READ_FIRST, 1024, 0x1f,
	  BAD },
	{ "READ Only answering a FETCH_ADD", IBV_WR_ATOMIC_FETCH_AND_ADD, 8,
	  0x800000, 0, OP_READ_ONLY, 8, 0x1f, BAD },
	{ "ACK before the outstanding PSN", IBV_WR_RDMA_WRITE, 64, 0xa00000,
	  -5, OP_ACK, 0, 0x1f, STALE },
	{ "READ Only past the PSNs sent", IBV_WR_RDMA_WRITE, 64, 0xe00000, 10,
	  OP_READ_ONLY, 64, 0x1f, STALE },
	{ "ACK with a reserved syndrome type", IBV_WR_RDMA_WRITE, 64,
	  0xc00000, 0, OP_ACK, 0, 0x40, INVALID },
};

#define NV	(sizeof(victims) / sizeof(victims[0]))

static int count_of(enum verdict v)
{
	unsigned int i;
	int n = 0;

	for (i = 0; i < NV; i++)
		n += victims[i].verdict == v;
	return n;
}

/* one line over the side channel, or die */
static void send_line(int fd, const char *line)
{
	size_t len = strlen(line);

	if (write(fd, line, len) != (ssize_t)len || write(fd, "\n", 1) != 1)
		lv_die("send_line");
}

static void read_line(int fd, char *buf, size_t max)
{
	size_t n = 0;

	while (n + 1 < max) {
		if (read(fd, buf + n, 1) != 1)
			lv_die("read_line");
		if (buf[n] == '\n')
			break;
		n++;
	}
	buf[n] = 0;
}

/*
 * The QP's state once it is @want, or after @ms: an engine's failure
 * completes the WQE first and moves the QP to ERR from a work item.
 */
static int qp_state_within(struct ibv_qp *qp, int want, int ms)
{
	int state;

	while ((state = lv_qp_state(qp)) != want && ms > 0) {
		usleep(10000);
		ms -= 10;
	}
	return state;
}

/* @n completions of @cq within @ms into @wc; how many came */
static int poll_n(struct ibv_cq *cq, struct ibv_wc *wc, int n, int ms)
{
	int got = 0, k;

	while (got < n && ms > 0) {
		k = ibv_poll_cq(cq, n - got, wc + got);
		if (k < 0)
			return got;
		got += k;
		if (got < n) {
			usleep(10000);
			ms -= 10;
		}
	}
	return got;
}

/*
 * The real transfer: WRITE @len bytes of a pattern of @round into the
 * peer's buffer, READ them back into the second half of ours, compare.
 */
static int real_transfer(struct ibv_qp *qp, struct ibv_cq *cq,
			 struct lv_base *b, const struct lv_info *peer,
			 int round)
{
	unsigned char *src = b->buf, *dst = b->buf + BUF_LEN / 4;
	struct ibv_sge sge = { .addr = (uintptr_t)src, .length = XFER_LEN,
			       .lkey = b->mr->lkey };
	struct ibv_send_wr wr = {
		.wr_id = 1000 + round, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = peer->addr, .rkey = peer->rkey },
	}, *bad;
	struct ibv_wc wc;
	int i;

	for (i = 0; i < XFER_LEN; i++)
		src[i] = (unsigned char)(i * 7 + round * 31);
	memset(dst, 0, XFER_LEN);
	if (ibv_post_send(qp, &wr, &bad) || poll_n(cq, &wc, 1, 10000) != 1 ||
	    wc.status != IBV_WC_SUCCESS)
		return 0;
	sge.addr = (uintptr_t)dst;
	wr.opcode = IBV_WR_RDMA_READ;
	wr.wr_id++;
	if (ibv_post_send(qp, &wr, &bad) || poll_n(cq, &wc, 1, 10000) != 1 ||
	    wc.status != IBV_WC_SUCCESS)
		return 0;
	return !memcmp(src, dst, XFER_LEN);
}

/* the QP event of @ctx within @ms, or -1 */
static int next_event(struct ibv_context *ctx, int ms)
{
	struct pollfd p = { .fd = ctx->async_fd, .events = POLLIN };
	struct ibv_async_event ev;
	int type;

	fcntl(ctx->async_fd, F_SETFL,
	      fcntl(ctx->async_fd, F_GETFL) | O_NONBLOCK);
	while (poll(&p, 1, ms) > 0 && !ibv_get_async_event(ctx, &ev)) {
		type = ev.event_type;
		ibv_ack_async_event(&ev);
		if (type != IBV_EVENT_PORT_ACTIVE && type != IBV_EVENT_PORT_ERR &&
		    type != IBV_EVENT_GID_CHANGE)
			return type;
	}
	return -1;
}

/* a victim QP: RTS towards @sink, request PSNs from @psn, no ACK timer */
static struct ibv_qp *victim_qp(struct lv_base *b, struct ibv_cq *cq,
				int gidx, const struct lv_info *sink,
				uint32_t psn)
{
	struct ibv_qp *qp = lv_create_rc_qp(b->pd, cq, 4, 0, NULL);
	struct ibv_qp_attr attr;

	if (!qp)
		lv_die("create victim QP");
	lv_qp_init(qp, IBV_ACCESS_LOCAL_WRITE);
	lv_rtr_path(&attr, gidx, VICTIM_MTU, sink);
	attr.max_dest_rd_atomic = 1;
	attr.min_rnr_timer = 12;
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_AV |
			  IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		lv_die("victim RTR");
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTS;
	attr.timeout = 0;	/* IBA 9.7.6.1.3: no ACK timer */
	attr.retry_cnt = 7;
	attr.rnr_retry = 7;
	attr.sq_psn = psn;
	attr.max_rd_atomic = 1;
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_TIMEOUT |
			  IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
			  IBV_QP_MAX_QP_RD_ATOMIC))
		lv_die("victim RTS");
	return qp;
}

static void victim_side(const struct lv_args *a)
{
	static const char *const names[] = {
		"rcv_bad_response", "rcv_stale_response", "rcv_invalid_request",
	};
	const int want[] = { count_of(BAD), count_of(STALE),
			     count_of(INVALID) };
	struct ibv_qp *real, *vq[NV];
	struct lv_info mine[2], peer[2];
	struct ibv_cq *cq, *vcq;
	struct ibv_wc wc[NV];
	long before[3], after[3];
	int fd, got, i, k, state, event;
	char line[2048], rc[64];
	struct lv_base b;
	enum ibv_mtu mtu;

	lv_base_open(a, BUF_LEN, 0, IBV_ACCESS_LOCAL_WRITE |
		     IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
		     IBV_ACCESS_REMOTE_ATOMIC, &b);
	cq = lv_create_cq(b.ctx);
	vcq = lv_create_cq(b.ctx);
	real = lv_create_rc_qp(b.pd, cq, 4, 0, NULL);
	if (!real)
		lv_die("create QP");
	lv_describe(real, a->gidx, 0x10, b.buf, b.mr, &mine[0], &mtu);
	mine[1] = mine[0];	/* the forger's sink stands for nothing here */
	fd = lv_meet(a, 2, mine, peer);
	lv_rc_connect(real, a->gidx, mtu, IBV_ACCESS_LOCAL_WRITE |
		      IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ,
		      &mine[0], &peer[0]);

	lv_check(real_transfer(real, cq, &b, &peer[0], 1),
		 "before: a 16 KiB RDMA WRITE and READ back on a real QP, data checked");

	/* the victims' requests go out and are dropped by the sink */
	for (i = 0; i < (int)NV; i++) {
		const struct victim *v = &victims[i];
		struct ibv_sge sge = { .addr = (uintptr_t)b.buf + VICTIM_BUF +
					       4096 * i,
				       .length = v->len, .lkey = b.mr->lkey };
		struct ibv_send_wr wr = {
			.wr_id = i, .sg_list = &sge, .num_sge = 1,
			.opcode = v->wr, .send_flags = IBV_SEND_SIGNALED,
		}, *bad;

		vq[i] = victim_qp(&b, vcq, a->gidx, &peer[1], v->psn);
		if (v->wr == IBV_WR_ATOMIC_FETCH_AND_ADD) {
			wr.wr.atomic.remote_addr = peer[0].addr;
			wr.wr.atomic.rkey = peer[0].rkey;
			wr.wr.atomic.compare_add = 1;
		} else {
			wr.wr.rdma.remote_addr = peer[0].addr;
			wr.wr.rdma.rkey = peer[0].rkey;
		}
		if (ibv_post_send(vq[i], &wr, &bad))
			lv_die("post victim request");
	}
	/* time for the requests to leave: nothing must complete */
	got = poll_n(vcq, wc, 1, 1000);
	lv_check(!got, "%zu victim QPs with one request each outstanding (nothing completed before the injection: %d)",
		 NV, got);

	for (k = 0; k < 3; k++)
		before[k] = lv_hw_counter(a->dev ? a->dev : "", names[k]);
	line[0] = 0;
	for (i = 0; i < (int)NV; i++) {
		const struct victim *v = &victims[i];

		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 " -F %#x:%#x:%d:%u:%#x", vq[i]->qp_num,
			 (v->psn + v->at) & 0xffffff, v->op, v->payload,
			 v->syndrome);
	}
	send_line(fd, line);
	read_line(fd, rc, sizeof(rc));
	lv_check(!strcmp(rc, "0"),
		 "the forger sent %zu responses (roce_inject exit %s)", NV, rc);

	/* the bad ones complete in error; give the others time to */
	got = poll_n(vcq, wc, count_of(BAD), 10000);
	got += poll_n(vcq, wc + got, NV - got, 1000);
	for (i = 0; i < (int)NV; i++) {
		const struct victim *v = &victims[i];
		int n = 0, status = -1;

		for (k = 0; k < got; k++) {
			if (wc[k].wr_id != (uint64_t)i ||
			    wc[k].qp_num != vq[i]->qp_num)
				continue;
			n++;
			status = wc[k].status;
		}
		state = v->verdict == BAD ?
			qp_state_within(vq[i], IBV_QPS_ERR, 2000) :
			lv_qp_state(vq[i]);
		if (v->verdict == BAD)
			lv_check(n == 1 && status == IBV_WC_BAD_RESP_ERR &&
				 state == IBV_QPS_ERR,
				 "%s: the request completes with IBV_WC_BAD_RESP_ERR and the QP is in ERR (%d completion(s), %s, state %d)",
				 v->name, n,
				 n ? ibv_wc_status_str(status) : "none",
				 state);
		else
			lv_check(!n && state == IBV_QPS_RTS,
				 "%s: dropped; the request stays outstanding and the QP in RTS (%d completion(s), state %d)",
				 v->name, n, state);
	}
	lv_check(got == count_of(BAD),
		 "%d completions in all, one for each bad response (%d)",
		 count_of(BAD), got);
	event = next_event(b.ctx, 500);
	lv_check(event < 0,
		 "no affiliated event: the completions report the errors (got %s)",
		 event < 0 ? "none" : ibv_event_type_str(event));
	for (k = 0; k < 3; k++) {
		after[k] = lv_hw_counter(a->dev ? a->dev : "", names[k]);
		lv_check(before[k] >= 0 && after[k] - before[k] == want[k],
			 "%s rose by exactly %d (%ld -> %ld)", names[k],
			 want[k], before[k], after[k]);
	}

	lv_check(real_transfer(real, cq, &b, &peer[0], 2) &&
		 lv_qp_state(real) == IBV_QPS_RTS,
		 "after: the real QP still in RTS, a 16 KiB RDMA WRITE and READ back, data checked");

	for (i = 0; i < (int)NV; i++)
		if (ibv_destroy_qp(vq[i]))
			lv_die("destroy victim QP");
	send_line(fd, "done");
	read_line(fd, rc, sizeof(rc));
	close(fd);
	if (ibv_destroy_qp(real) || ibv_destroy_cq(vcq) || ibv_destroy_cq(cq) ||
	    ibv_dereg_mr(b.mr) || ibv_dealloc_pd(b.pd))
		lv_die("teardown");
	ibv_close_device(b.ctx);
}

static void forger_side(const struct lv_args *a, const char *inject)
{
	struct lv_info mine[2], peer[2];
	struct ibv_qp *real, *sink;
	char line[2048], *cmd;
	struct ibv_cq *cq;
	struct lv_base b;
	enum ibv_mtu mtu;
	int fd, rc;

	lv_base_open(a, BUF_LEN, 0, IBV_ACCESS_LOCAL_WRITE |
		     IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
		     IBV_ACCESS_REMOTE_ATOMIC, &b);
	cq = lv_create_cq(b.ctx);
	real = lv_create_rc_qp(b.pd, cq, 4, 0, NULL);
	sink = lv_create_rc_qp(b.pd, cq, 4, 0, NULL);
	if (!real || !sink)
		lv_die("create QP");
	lv_describe(real, a->gidx, 0x20, b.buf, b.mr, &mine[0], &mtu);
	/* INIT: takes nothing (rcv_qp_not_ready), answers nothing */
	lv_qp_init(sink, IBV_ACCESS_REMOTE_WRITE);
	mine[1] = mine[0];
	mine[1].qpn = sink->qp_num;
	fd = lv_meet(a, 2, mine, peer);
	lv_rc_connect(real, a->gidx, mtu, IBV_ACCESS_LOCAL_WRITE |
		      IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ,
		      &mine[0], &peer[0]);

	read_line(fd, line, sizeof(line));
	if (asprintf(&cmd, "%s%s", inject, line) < 0)
		lv_die("asprintf");
	printf("+ %s\n", cmd);
	fflush(stdout);
	rc = system(cmd);
	rc = WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
	lv_check(!rc, "roce_inject forged the victim's responses (exit %d)",
		 rc);
	snprintf(line, sizeof(line), "%d", rc);
	send_line(fd, line);
	read_line(fd, line, sizeof(line));
	send_line(fd, "bye");
	close(fd);
	free(cmd);
	if (ibv_destroy_qp(sink) || ibv_destroy_qp(real) ||
	    ibv_destroy_cq(cq) || ibv_dereg_mr(b.mr) || ibv_dealloc_pd(b.pd))
		lv_die("teardown");
	ibv_close_device(b.ctx);
}

int main(int argc, char **argv)
{
	const char *inject = NULL;
	struct lv_args a;
	int i;

	/* -x INJECT is ours; the rest is labverbs' command line */
	for (i = 1; i + 1 < argc; i++) {
		if (strcmp(argv[i], "-x"))
			continue;
		inject = argv[i + 1];
		memmove(&argv[i], &argv[i + 2], (argc - i - 1) * sizeof(*argv));
		argc -= 2;
		break;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	lv_parse_args(argc, argv, "18960", 0, &a);
	if (!a.host == !!inject) {
		fprintf(stderr, "usage: see bad_response.c\n");
		return 2;
	}
	if (a.host)
		forger_side(&a, inject);
	else
		victim_side(&a);
	printf("bad_response: %d failed\n", lv_failures);
	return lv_failures ? 1 : 0;
}
