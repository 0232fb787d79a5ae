// SPDX-License-Identifier: GPL-2.0
/*
 * flush_verbs: IBA 1.5 FLUSH (9.4.8) from user space, completions checked
 * on the requester and the flushed data on the responder.
 *
 *   flush_verbs -d DEV -g GIDIDX -p PORT [-l]          server: memory
 *   flush_verbs -d DEV -g GIDIDX -p PORT [-l] SERVER   client: requests
 *
 * -l: the server is stock rxe and the client softrdma, and the FLUSH
 * packets are lost (stock rxe, 6.2 to 7.3 at least: its opcode table
 * gives RC FLUSH no payload offset, so its ICRC covers the BTH, FETH and
 * RETH once more as if they were payload, and it drops softrdma's FLUSHes,
 * whose ICRC is annex A17.8's, as corrupt; softrdma takes stock rxe's).
 * The client then checks that a FLUSH does not complete successfully
 * (softrdma's retries run out) and the server the bytes of the WRITEs.
 * The scenario checks that the retries ran out.
 *
 * rdma-core 44 has no verb to post a FLUSH (ibv_wr_flush came in 47),
 * and the kernel's verbs have no work request that carries one (no
 * ib_send_wr member holds a FLUSH's placement type, selectivity and
 * length).  Both librxe devices, sroce and stock rxe, take their send
 * work requests from a ring shared with user space (rdma_user_rxe.h), so
 * this program writes the FLUSH into that ring exactly as librxe 47's
 * ibv_wr_flush() does, and rings the doorbell as librxe does (a
 * POST_SEND command without work requests).  The ring is the mapping of
 * the uverbs device whose newest send slot holds the RDMA WRITE just
 * posted through ibv_post_send() with a tag as its wr_id.
 *
 * The server registers 4 KiB filled with 0x5a for remote write and FLUSH
 * to global visibility, and 4 KiB for remote write only.  Over NPAIRS RC
 * QP pairs (a remote access error ends a pair) the client RDMA WRITEs
 * eight bytes on each pair, then
 *  - FLUSHes the range it wrote, and the whole MR (selectivity MR): both
 *    complete successfully as IBV_WC_FLUSH;
 *  - FLUSHes the MR registered without FLUSH access, a range past the
 *    end of the flushable MR, and with a wrong R_Key: each completes
 *    with IBV_WC_REM_ACCESS_ERR.
 * The server then checks every byte of both MRs.  One "ok - " line per
 * check; exit status 0 if all held.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdma/rdma_user_rxe.h>

#include "labverbs.h"

#define LEN		4096
#define NPAIRS		4
#define WRITE_OFF	256	/* pair p writes eight bytes at WRITE_OFF + 8p */
#define TAG		0x666c757368000000ULL	/* wr_id of the finding WRITE */

/* the uverbs values, which rdma-core 44's headers do not name */
#define ACCESS_FLUSH_GLOBAL	(1 << 8)
#define WR_FLUSH		14
#define WC_FLUSH		8
#define FLUSH_GLOBAL		1	/* FETH placement type */
#define FLUSH_RANGE		0	/* FETH selectivity level */
#define FLUSH_MR		1

enum { P_GOOD, P_NO_FLUSH, P_PAST_END, P_BAD_KEY };

/* What the server tells the client */
struct keys {
	uint64_t fl_addr, rw_addr;
	uint32_t fl_rkey, rw_rkey;
};

static struct ibv_cq *cqs[NPAIRS];
static struct ibv_qp *qps[NPAIRS];
static struct rxe_queue_buf *sqs[NPAIRS];

static struct rxe_send_wqe *slot(struct rxe_queue_buf *q, uint32_t i)
{
	return (struct rxe_send_wqe *)(q->data +
				       ((size_t)(i & q->index_mask) <<
					q->log2_elem_size));
}

/*
 * The send ring of the QP whose newest WQE is an RDMA WRITE tagged
 * @wr_id: one of the uverbs mappings in /proc/self/maps, or NULL.
 */
static struct rxe_queue_buf *find_sq(uint64_t wr_id)
{
	struct rxe_queue_buf *q, *found = NULL;
	unsigned long lo, hi;
	char line[512], r;
	FILE *f;

	f = fopen("/proc/self/maps", "r");
	if (!f)
		return NULL;
	while (!found && fgets(line, sizeof(line), f)) {
		struct rxe_send_wqe *w;
		size_t n;

		if (!strstr(line, "/dev/infiniband/uverbs") ||
		    sscanf(line, "%lx-%lx %c", &lo, &hi, &r) != 3 ||
		    r != 'r' || hi - lo < sizeof(*q))
			continue;
		q = (struct rxe_queue_buf *)lo;
		if (q->log2_elem_size > 16 ||
		    (1UL << q->log2_elem_size) < sizeof(*w) ||
		    (q->index_mask & (q->index_mask + 1)))
			continue;
		n = (size_t)q->index_mask + 1;
		if (sizeof(*q) + (n << q->log2_elem_size) > hi - lo)
			continue;
		w = slot(q, __atomic_load_n(&q->producer_index,
					    __ATOMIC_ACQUIRE) - 1);
		if (w->wr.wr_id == wr_id && w->wr.opcode == IBV_WR_RDMA_WRITE)
			found = q;
	}
	fclose(f);
	return found;
}

/* one FLUSH on pair @p, laid out as librxe 47's ibv_wr_flush(); its completion */
static struct ibv_wc flush(int p, uint32_t rkey, uint64_t raddr,
			   uint32_t len, uint8_t level)
{
	struct ibv_wc wc = { .status = -1 };
	struct rxe_queue_buf *q = sqs[p];
	struct rxe_send_wqe *w;
	uint32_t prod, cons;

	prod = __atomic_load_n(&q->producer_index, __ATOMIC_RELAXED);
	cons = __atomic_load_n(&q->consumer_index, __ATOMIC_ACQUIRE);
	if (((prod + 1 - cons) & q->index_mask) == 0) {
		fprintf(stderr, "pair %d: send queue full\n", p);
		return wc;
	}
	w = slot(q, prod);
	memset(w, 0, sizeof(*w));
	w->wr.wr_id = 200 + p;
	w->wr.opcode = WR_FLUSH;
	w->wr.send_flags = IBV_SEND_SIGNALED;
	w->wr.wr.flush.remote_addr = raddr;
	w->wr.wr.flush.rkey = rkey;
	w->wr.wr.flush.type = FLUSH_GLOBAL;
	w->wr.wr.flush.level = level;
	w->dma.length = len;
	w->dma.resid = len;
	w->iova = raddr;
	__atomic_store_n(&q->producer_index, (prod + 1) & q->index_mask,
			 __ATOMIC_RELEASE);
	errno = lv_doorbell(qps[p]);
	if (errno) {
		perror("doorbell");
		return wc;
	}
	return lv_poll1(cqs[p]);
}

/* eight bytes of 0x10 + @p, RDMA WRITE on pair @p, tagged to find its ring */
static void write_and_find(int p, const struct keys *k, unsigned char *buf,
			   struct ibv_mr *mr)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)buf + 8 * p, .length = 8, .lkey = mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = TAG + p, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = k->fl_addr + WRITE_OFF + 8 * p,
			     .rkey = k->fl_rkey },
	}, *bad;
	struct ibv_wc wc;

	memset(buf + 8 * p, 0x10 + p, 8);
	if (ibv_post_send(qps[p], &wr, &bad))
		lv_die("post_send");
	wc = lv_poll1(cqs[p]);
	lv_check(wc.status == IBV_WC_SUCCESS && wc.wr_id == TAG + p,
		 "pair %d: rdma write completes (%s)", p, lv_wc_status(wc));
	sqs[p] = find_sq(TAG + p);
	lv_check(!!sqs[p], "pair %d: its send ring found", p);
	if (!sqs[p])
		exit(1);
}

static void client(int fd, unsigned char *buf, struct ibv_mr *mr, int lost)
{
	struct ibv_wc wc;
	struct keys k;
	int p;

	if (read(fd, &k, sizeof(k)) != sizeof(k))
		lv_die("keys");
	for (p = 0; p < NPAIRS; p++)
		write_and_find(p, &k, buf, mr);

	if (lost) {
		wc = flush(P_GOOD, k.fl_rkey, k.fl_addr + WRITE_OFF,
			   8 * NPAIRS, FLUSH_RANGE);
		lv_check(wc.status != IBV_WC_SUCCESS,
			 "flush lost between stock rxe and softrdma (%s)",
			 lv_wc_status(wc));
		lv_sync(fd, 'd');
		lv_sync(fd, 'c');
		return;
	}

	wc = flush(P_GOOD, k.fl_rkey, k.fl_addr + WRITE_OFF, 8 * NPAIRS,
		   FLUSH_RANGE);
	lv_check(wc.status == IBV_WC_SUCCESS && (int)wc.opcode == WC_FLUSH &&
		 wc.wr_id == 200 + P_GOOD,
		 "flush of the written range completes (%s, opcode %d)",
		 lv_wc_status(wc), wc.opcode);
	wc = flush(P_GOOD, k.fl_rkey, k.fl_addr, 0, FLUSH_MR);
	lv_check(wc.status == IBV_WC_SUCCESS && (int)wc.opcode == WC_FLUSH,
		 "flush of the whole MR completes (%s, opcode %d)",
		 lv_wc_status(wc), wc.opcode);

	wc = flush(P_NO_FLUSH, k.rw_rkey, k.rw_addr, 64, FLUSH_RANGE);
	lv_check(wc.status == IBV_WC_REM_ACCESS_ERR,
		 "flush of an MR without FLUSH access: remote access error (%s)",
		 lv_wc_status(wc));
	wc = flush(P_PAST_END, k.fl_rkey, k.fl_addr + LEN - 32, 64,
		   FLUSH_RANGE);
	lv_check(wc.status == IBV_WC_REM_ACCESS_ERR,
		 "flush past the MR's end: remote access error (%s)",
		 lv_wc_status(wc));
	wc = flush(P_BAD_KEY, k.fl_rkey ^ 1, k.fl_addr, 64, FLUSH_RANGE);
	lv_check(wc.status == IBV_WC_REM_ACCESS_ERR,
		 "flush with a wrong R_Key: remote access error (%s)",
		 lv_wc_status(wc));
	lv_sync(fd, 'd');
	lv_sync(fd, 'c');
}

static void server(int fd, unsigned char *fl, struct ibv_mr *fl_mr,
		   unsigned char *rw, struct ibv_mr *rw_mr)
{
	struct keys k = {
		.fl_addr = (uintptr_t)fl, .rw_addr = (uintptr_t)rw,
		.fl_rkey = fl_mr->rkey, .rw_rkey = rw_mr->rkey,
	};
	int i, bad;

	if (write(fd, &k, sizeof(k)) != sizeof(k))
		lv_die("keys");
	lv_sync(fd, 'd');
	for (bad = -1, i = 0; i < LEN && bad < 0; i++) {
		unsigned char want = 0x5a;

		if (i >= WRITE_OFF && i < WRITE_OFF + 8 * NPAIRS)
			want = 0x10 + (i - WRITE_OFF) / 8;
		if (fl[i] != want)
			bad = i;
	}
	lv_check(bad < 0, "server: the writes placed, nothing else (first bad byte %d)",
		 bad);
	for (bad = -1, i = 0; i < LEN && bad < 0; i++)
		if (rw[i] != 0x5a)
			bad = i;
	lv_check(bad < 0, "server: the MR without FLUSH access unchanged (first bad byte %d)",
		 bad);
	lv_sync(fd, 'c');
}

int main(int argc, char **argv)
{
	const int remote = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
	struct ibv_mr *rw_mr;
	struct lv_base b;
	struct lv_args a;
	int fd;

	lv_parse_args(argc, argv, "18950", 'l', &a);
	lv_base_open(&a, LEN, 0x5a, IBV_ACCESS_LOCAL_WRITE | remote |
		     ACCESS_FLUSH_GLOBAL, &b);
	rw_mr = lv_buf_reg(b.pd, LEN, 0x5a, IBV_ACCESS_LOCAL_WRITE | remote);

	lv_create_pairs(b.pd, NPAIRS, 0, cqs, qps);
	fd = lv_connect_pairs(&a, &b, NPAIRS, qps, 0x3000, 9,
			      remote | ACCESS_FLUSH_GLOBAL);
	if (a.host)
		client(fd, b.buf, b.mr, a.flag);	/* -l */
	else
		server(fd, b.buf, b.mr, rw_mr->addr, rw_mr);
	return lv_failures ? 1 : 0;
}
