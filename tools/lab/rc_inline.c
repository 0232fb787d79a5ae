// SPDX-License-Identifier: GPL-2.0
/*
 * rc_inline: SENDs and RDMA WRITEs with IBV_SEND_INLINE arrive intact.
 * perftest cannot check this: it turns inline off for every device it
 * does not know by its PCI ids (rxe and softrdma included).
 *
 *   rc_inline -d DEV -g GIDIDX -p PORT -s SIZE [-n N]          server
 *   rc_inline -d DEV -g GIDIDX -p PORT -s SIZE [-n N] SERVER   client
 *   rc_inline -d DEV -r MAX     succeed iff a QP asking for MAX bytes of
 *                               inline data is refused
 *
 * Both sides create their QP with max_inline_data = SIZE and require the
 * device to grant at least that.  The client posts N inline RDMA WRITEs
 * of SIZE bytes into consecutive slots of the server's buffer, then N
 * inline SENDs of SIZE bytes, every byte a function of (message, offset);
 * right after each post it overwrites its source buffer, which inline
 * data allows.  The server checks every received length and byte and,
 * after the last SEND (which RC orders after the WRITEs), every written
 * byte.  Exit status 0 means all of that held, on both sides.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "labverbs.h"

static unsigned char pattern(int kind, int msg, int off)
{
	return (unsigned char)(kind * 101 + msg * 7 + off * 13 + (off >> 8));
}

static struct ibv_qp *make_qp(struct ibv_pd *pd, struct ibv_cq *cq,
			      int depth, int inl)
{
	struct ibv_qp_cap cap;
	struct ibv_qp *qp = lv_create_rc_qp(pd, cq, depth, inl, &cap);

	if (qp)
		printf("QP with max_inline_data %d: granted %u\n", inl,
		       cap.max_inline_data);
	if (qp && cap.max_inline_data < (unsigned int)inl) {
		printf("FAIL: granted less inline data than asked for\n");
		exit(1);
	}
	return qp;
}

static int wait_wc(struct ibv_cq *cq, struct ibv_wc *wc)
{
	long i;
	int n;

	for (i = 0; i < 2000000000L; i++) {
		n = ibv_poll_cq(cq, 1, wc);
		if (n)
			return n;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *devname = NULL, *port = "18600", *server = NULL;
	int gidx = 1, opt, fd, i, j, size = 64, iters = 50, refuse = 0;
	struct lv_info mine = {}, peer;
	char ok = 0, peer_ok = 0;
	struct ibv_context *ctx;
	enum ibv_mtu mtu;
	struct ibv_wc wc;
	struct ibv_mr *mr;
	struct ibv_cq *cq;
	struct ibv_pd *pd;
	struct ibv_qp *qp;
	unsigned char *buf;
	size_t len;
	int bad = 0;

	while ((opt = getopt(argc, argv, "d:g:p:s:n:r:")) != -1) {
		switch (opt) {
		case 'd': devname = optarg; break;
		case 'g': gidx = atoi(optarg); break;
		case 'p': port = optarg; break;
		case 's': size = atoi(optarg); break;
		case 'n': iters = atoi(optarg); break;
		case 'r': refuse = atoi(optarg); break;
		default: return 2;
		}
	}
	if (optind < argc)
		server = argv[optind];
	if (size < 1 || iters < 1 || iters > 1000)
		return 2;

	ctx = lv_open_device(devname);
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 2 * iters + 8, NULL, NULL, 0);
	if (!pd || !cq)
		lv_die("pd/cq");
	if (refuse) {
		qp = make_qp(pd, cq, 4, refuse);
		printf("max_inline_data %d: %s\n", refuse,
		       qp ? "granted" : "refused");
		return qp ? 1 : 0;
	}

	/* server: N write slots, then N receive slots */
	len = (size_t)2 * iters * size;
	buf = aligned_alloc(4096, (len + 4095) & ~4095UL);
	if (!buf)
		lv_die("buffer");
	memset(buf, 0, len);
	mr = ibv_reg_mr(pd, buf, len, IBV_ACCESS_LOCAL_WRITE |
					   IBV_ACCESS_REMOTE_WRITE);
	if (!mr)
		lv_die("mr");
	qp = make_qp(pd, cq, iters + 4, size);
	if (!qp)
		lv_die("create qp");
	lv_describe(qp, gidx, 0x345678 + (server ? 0x111 : 0), buf, mr,
		    &mine, &mtu);

	fd = lv_tcp_connect(server, port);
	lv_xchg(fd, &mine, &peer);
	lv_rc_connect(qp, gidx, mtu, IBV_ACCESS_REMOTE_WRITE, &mine, &peer);

	if (!server) {
		for (i = 0; i < iters; i++) {
			struct ibv_sge sge = {
				.addr = (uintptr_t)buf + (size_t)(iters + i) * size,
				.length = size, .lkey = mr->lkey };
			struct ibv_recv_wr wr = { .wr_id = i, .sg_list = &sge,
						  .num_sge = 1 }, *bad_wr;

			if (ibv_post_recv(qp, &wr, &bad_wr))
				lv_die("post_recv");
		}
	}
	/* both sides ready (receives posted) before the first packet */
	lv_xchg(fd, &mine, &peer);

	if (server) {
		unsigned char *src = buf;

		for (i = 0; i < 2 * iters; i++) {
			int write = i < iters, m = i % iters;
			struct ibv_sge sge = { .addr = (uintptr_t)src,
					       .length = size };
			struct ibv_send_wr wr = {
				.wr_id = i, .sg_list = &sge, .num_sge = 1,
				.opcode = write ? IBV_WR_RDMA_WRITE : IBV_WR_SEND,
				.send_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE,
				.wr.rdma = { .remote_addr = peer.addr +
						(uint64_t)m * size,
					     .rkey = peer.rkey },
			}, *bad_wr;

			for (j = 0; j < size; j++)
				src[j] = pattern(write, m, j);
			if (ibv_post_send(qp, &wr, &bad_wr))
				lv_die("post_send");
			/* inline: the source is free once the post returned */
			memset(src, 0xee, size);
			if (wait_wc(cq, &wc) != 1 || wc.status != IBV_WC_SUCCESS) {
				printf("FAIL: %s %d: %s\n", write ? "write" : "send",
				       m, ibv_wc_status_str(wc.status));
				bad++;
				break;
			}
		}
		printf("client: %d inline writes and %d inline sends of %d B posted, %s\n",
		       iters, iters, size, bad ? "FAILED" : "all completed");
		ok = !bad;
	} else {
		for (i = 0; i < iters; i++) {
			if (wait_wc(cq, &wc) != 1 || wc.status != IBV_WC_SUCCESS ||
			    wc.opcode != IBV_WC_RECV) {
				printf("FAIL: receive %d: %s\n", i,
				       ibv_wc_status_str(wc.status));
				bad++;
				break;
			}
			if (wc.byte_len != (uint32_t)size || wc.wr_id != (uint64_t)i) {
				printf("FAIL: receive %d: wr_id %llu, %u bytes\n", i,
				       (unsigned long long)wc.wr_id, wc.byte_len);
				bad++;
			}
		}
		for (i = 0; i < 2 * iters && !bad; i++) {
			int write = i < iters, m = i % iters;
			const unsigned char *p = buf + (size_t)i * size;

			for (j = 0; j < size; j++) {
				if (p[j] != pattern(write, m, j)) {
					printf("FAIL: %s %d byte %d: %#x, not %#x\n",
					       write ? "write" : "send", m, j,
					       p[j], pattern(write, m, j));
					bad++;
					break;
				}
			}
		}
		printf("server: %d inline writes and %d inline sends of %d B %s\n",
		       iters, iters, size, bad ? "WRONG" : "checked, every byte right");
		ok = !bad;
	}
	if (write(fd, &ok, 1) != 1 || read(fd, &peer_ok, 1) != 1)
		lv_die("result");
	printf("peer says %s\n", peer_ok ? "ok" : "FAILED");
	return ok && peer_ok ? 0 : 1;
}
