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
#include <arpa/inet.h>
#include <infiniband/verbs.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

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

static unsigned char pattern(int kind, int msg, int off)
{
	return (unsigned char)(kind * 101 + msg * 7 + off * 13 + (off >> 8));
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

static struct ibv_context *open_dev(const char *devname)
{
	struct ibv_context *ctx = NULL;
	struct ibv_device **list;
	int i, n;

	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n && !ctx; i++)
		if (!devname || !strcmp(ibv_get_device_name(list[i]), devname))
			ctx = ibv_open_device(list[i]);
	if (!ctx)
		die("open device");
	return ctx;
}

static struct ibv_qp *make_qp(struct ibv_pd *pd, struct ibv_cq *cq,
			      int depth, int inl)
{
	struct ibv_qp_init_attr init = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = depth, .max_recv_wr = depth,
			 .max_send_sge = 1, .max_recv_sge = 1,
			 .max_inline_data = inl },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &init);

	if (qp)
		printf("QP with max_inline_data %d: granted %u\n", inl,
		       init.cap.max_inline_data);
	if (qp && init.cap.max_inline_data < (unsigned int)inl) {
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
	struct ibv_port_attr pattr;
	struct info mine = {}, peer;
	struct ibv_context *ctx;
	struct ibv_qp_attr attr;
	char ok = 0, peer_ok = 0;
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

	ctx = open_dev(devname);
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 2 * iters + 8, NULL, NULL, 0);
	if (!pd || !cq)
		die("pd/cq");
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
		die("buffer");
	memset(buf, 0, len);
	mr = ibv_reg_mr(pd, buf, len, IBV_ACCESS_LOCAL_WRITE |
					   IBV_ACCESS_REMOTE_WRITE);
	if (!mr)
		die("mr");
	qp = make_qp(pd, cq, iters + 4, size);
	if (!qp)
		die("create qp");
	if (ibv_query_port(ctx, 1, &pattr) ||
	    ibv_query_gid(ctx, 1, gidx, &mine.gid))
		die("query");
	mine.qpn = qp->qp_num;
	mine.psn = 0x345678 + (server ? 0x111 : 0);
	mine.addr = (uintptr_t)buf;
	mine.rkey = mr->rkey;

	fd = tcp_connect(server, port);
	xchg(fd, &mine, &peer);

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_INIT;
	attr.port_num = 1;
	attr.qp_access_flags = IBV_ACCESS_REMOTE_WRITE;
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

	if (!server) {
		for (i = 0; i < iters; i++) {
			struct ibv_sge sge = {
				.addr = (uintptr_t)buf + (size_t)(iters + i) * size,
				.length = size, .lkey = mr->lkey };
			struct ibv_recv_wr wr = { .wr_id = i, .sg_list = &sge,
						  .num_sge = 1 }, *bad_wr;

			if (ibv_post_recv(qp, &wr, &bad_wr))
				die("post_recv");
		}
	}
	/* both sides ready (receives posted) before the first packet */
	xchg(fd, &mine, &peer);

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
				die("post_send");
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
		die("result");
	printf("peer says %s\n", peer_ok ? "ok" : "FAILED");
	return ok && peer_ok ? 0 : 1;
}
