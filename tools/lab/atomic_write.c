// SPDX-License-Identifier: GPL-2.0
/*
 * atomic_write: IBA 1.5 ATOMIC WRITE through librxe's extended post API
 * (ibv_wr_atomic_write), data and completions checked on both sides.
 *
 *   atomic_write -d DEV -g GIDIDX -p PORT [-c]          server: memory
 *   atomic_write -d DEV -g GIDIDX -p PORT [-c] SERVER   client: requests
 *
 * -c: the device is softrdma's; check what it advertises: ATOMIC_WRITE
 * and FLUSH_GLOBAL in device_cap_flags_ex, FLUSH_PERSISTENT not; an MR
 * may be registered for FLUSH to global visibility, not to persistence
 * (EOPNOTSUPP from the core).
 *
 * The server registers 4 KiB filled with 0x5a for remote write and read,
 * and 4 KiB for remote read only.  Over NPAIRS RC QP pairs (a remote
 * access error ends a pair) the client
 *  - ATOMIC WRITEs eight bytes, then in one batch an RDMA WRITE of 64
 *    bytes, an ATOMIC WRITE into the middle of them (it comes later and
 *    must win), one into the last word of the MR, and an RDMA READ of
 *    what was written (it must see both): every completion successful
 *    with its opcode (IBV_WC_ATOMIC_WRITE for the ATOMIC WRITEs);
 *  - ATOMIC WRITEs into the read-only MR, past the end of the MR, and
 *    with a wrong R_Key: each completes with IBV_WC_REM_ACCESS_ERR.
 * The server then checks every byte of both MRs.  One "ok - " line per
 * check; exit status 0 if all held.  rdma-core 44 has no verb to post a
 * FLUSH (ibv_wr_flush came later), so FLUSH is not exercised here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "labverbs.h"

#define LEN		4096
#define NPAIRS		4
#define WRITE_OFF	64	/* the RDMA WRITE's first byte */
#define WRITE_LEN	64
#define AW1_OFF		8	/* the lone ATOMIC WRITE */
#define AW2_OFF		72	/* inside the RDMA WRITE's bytes */
#define AW3_OFF		(LEN - 8)
#define READ_LEN	128

/* the uverbs values, which rdma-core 44's headers do not name */
#define DEV_FLUSH_GLOBAL	(1ULL << 38)
#define DEV_FLUSH_PERSISTENT	(1ULL << 39)
#define DEV_ATOMIC_WRITE	(1ULL << 40)
#define ACCESS_FLUSH_GLOBAL	(1 << 8)
#define ACCESS_FLUSH_PERSISTENT	(1 << 9)

enum { P_GOOD, P_READ_ONLY, P_PAST_END, P_BAD_KEY };

/* What the server tells the client */
struct keys {
	uint64_t rw_addr, ro_addr;
	uint32_t rw_rkey, ro_rkey;
};

static const unsigned char v1[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
static const unsigned char v2[8] = { 0xa0, 0xa1, 0xa2, 0xa3,
				     0xa4, 0xa5, 0xa6, 0xa7 };
static const unsigned char v3[8] = { 0xff, 0, 0xff, 0, 0x11, 0x22, 0x33,
				     0x44 };

static struct ibv_cq *cqs[NPAIRS];
static struct ibv_qp *qps[NPAIRS];

/* one ATOMIC WRITE on pair @p; its completion */
static struct ibv_wc awrite(int p, uint32_t rkey, uint64_t raddr,
			    const void *val)
{
	struct ibv_qp_ex *qx = ibv_qp_to_qp_ex(qps[p]);

	ibv_wr_start(qx);
	qx->wr_id = 100 + p;
	qx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_atomic_write(qx, rkey, raddr, val);
	if (ibv_wr_complete(qx)) {
		struct ibv_wc wc = { .status = -1 };

		perror("ibv_wr_complete");
		return wc;
	}
	return lv_poll1(cqs[p]);
}

static void check_caps(struct ibv_context *ctx, struct ibv_pd *pd)
{
	struct ibv_device_attr_ex attr = {};
	uint64_t f;
	struct ibv_mr *mr;
	void *buf;

	if (ibv_query_device_ex(ctx, NULL, &attr))
		lv_die("query_device_ex");
	f = attr.device_cap_flags_ex;
	lv_check((f & DEV_ATOMIC_WRITE) != 0,
		 "caps: ATOMIC_WRITE advertised (flags_ex %#llx)",
		 (unsigned long long)f);
	lv_check((f & DEV_FLUSH_GLOBAL) != 0, "caps: FLUSH_GLOBAL advertised");
	lv_check(!(f & DEV_FLUSH_PERSISTENT),
		 "caps: FLUSH_PERSISTENT not advertised");

	buf = aligned_alloc(4096, LEN);
	if (!buf)
		lv_die("buf");
	mr = ibv_reg_mr(pd, buf, LEN, IBV_ACCESS_LOCAL_WRITE |
			ACCESS_FLUSH_GLOBAL);
	lv_check(mr != NULL, "reg_mr with FLUSH_GLOBAL (%s)",
		 mr ? "ok" : strerror(errno));
	if (mr)
		ibv_dereg_mr(mr);
	errno = 0;
	mr = ibv_reg_mr(pd, buf, LEN, IBV_ACCESS_LOCAL_WRITE |
			ACCESS_FLUSH_PERSISTENT);
	lv_check(!mr && errno == EOPNOTSUPP,
		 "reg_mr with FLUSH_PERSISTENT refused with EOPNOTSUPP (%s)",
		 mr ? "registered" : strerror(errno));
	if (mr)
		ibv_dereg_mr(mr);
	free(buf);
}

static void client(int fd, unsigned char *buf, struct ibv_mr *mr)
{
	struct ibv_qp_ex *qx = ibv_qp_to_qp_ex(qps[P_GOOD]);
	unsigned char *rd = buf + LEN / 2;
	struct ibv_wc wc;
	struct keys k;
	int i, bad;

	if (read(fd, &k, sizeof(k)) != sizeof(k))
		lv_die("keys");

	wc = awrite(P_GOOD, k.rw_rkey, k.rw_addr + AW1_OFF, v1);
	lv_check(wc.status == IBV_WC_SUCCESS &&
		 wc.opcode == IBV_WC_ATOMIC_WRITE,
		 "atomic write completes (%s, opcode %d)",
		 lv_wc_status(wc), wc.opcode);

	/* WRITE, ATOMIC WRITE into it, ATOMIC WRITE at the end, READ */
	memset(buf, 0xc3, WRITE_LEN);
	memset(rd, 0, READ_LEN);
	ibv_wr_start(qx);
	qx->wr_id = 1;
	qx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_rdma_write(qx, k.rw_rkey, k.rw_addr + WRITE_OFF);
	ibv_wr_set_sge(qx, mr->lkey, (uintptr_t)buf, WRITE_LEN);
	qx->wr_id = 2;
	qx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_atomic_write(qx, k.rw_rkey, k.rw_addr + AW2_OFF, v2);
	qx->wr_id = 3;
	qx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_atomic_write(qx, k.rw_rkey, k.rw_addr + AW3_OFF, v3);
	qx->wr_id = 4;
	qx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_rdma_read(qx, k.rw_rkey, k.rw_addr);
	ibv_wr_set_sge(qx, mr->lkey, (uintptr_t)rd, READ_LEN);
	if (ibv_wr_complete(qx))
		lv_die("ibv_wr_complete");
	for (i = 1; i <= 4; i++) {
		static const int want[] = { 0, IBV_WC_RDMA_WRITE,
					    IBV_WC_ATOMIC_WRITE,
					    IBV_WC_ATOMIC_WRITE,
					    IBV_WC_RDMA_READ };

		wc = lv_poll1(cqs[P_GOOD]);
		lv_check(wc.status == IBV_WC_SUCCESS && wc.wr_id == (uint64_t)i &&
			 (int)wc.opcode == want[i],
			 "batch WR %d completes in order (%s, wr_id %llu, opcode %d)",
			 i, lv_wc_status(wc),
			 (unsigned long long)wc.wr_id, wc.opcode);
	}
	/* the READ sees what the WRITE and the ATOMIC WRITEs placed */
	for (bad = -1, i = 0; i < READ_LEN && bad < 0; i++) {
		unsigned char want = 0x5a;

		if (i >= AW1_OFF && i < AW1_OFF + 8)
			want = v1[i - AW1_OFF];
		else if (i >= AW2_OFF && i < AW2_OFF + 8)
			want = v2[i - AW2_OFF];
		else if (i >= WRITE_OFF && i < WRITE_OFF + WRITE_LEN)
			want = 0xc3;
		if (rd[i] != want)
			bad = i;
	}
	lv_check(bad < 0, "read after the atomic writes sees them (first bad byte %d)",
		 bad);

	wc = awrite(P_READ_ONLY, k.ro_rkey, k.ro_addr, v1);
	lv_check(wc.status == IBV_WC_REM_ACCESS_ERR,
		 "atomic write into a read-only MR: remote access error (%s)",
		 lv_wc_status(wc));
	wc = awrite(P_PAST_END, k.rw_rkey, k.rw_addr + LEN, v1);
	lv_check(wc.status == IBV_WC_REM_ACCESS_ERR,
		 "atomic write past the MR's end: remote access error (%s)",
		 lv_wc_status(wc));
	wc = awrite(P_BAD_KEY, k.rw_rkey ^ 1, k.rw_addr, v1);
	lv_check(wc.status == IBV_WC_REM_ACCESS_ERR,
		 "atomic write with a wrong R_Key: remote access error (%s)",
		 lv_wc_status(wc));
	lv_sync(fd, 'd');
	lv_sync(fd, 'c');
}

static void server(int fd, unsigned char *rw, struct ibv_mr *rw_mr,
		   unsigned char *ro, struct ibv_mr *ro_mr)
{
	struct keys k = {
		.rw_addr = (uintptr_t)rw, .ro_addr = (uintptr_t)ro,
		.rw_rkey = rw_mr->rkey, .ro_rkey = ro_mr->rkey,
	};
	int i, bad;

	if (write(fd, &k, sizeof(k)) != sizeof(k))
		lv_die("keys");
	lv_sync(fd, 'd');
	for (bad = -1, i = 0; i < LEN && bad < 0; i++) {
		unsigned char want = 0x5a;

		if (i >= AW1_OFF && i < AW1_OFF + 8)
			want = v1[i - AW1_OFF];
		else if (i >= AW2_OFF && i < AW2_OFF + 8)
			want = v2[i - AW2_OFF];
		else if (i >= AW3_OFF)
			want = v3[i - AW3_OFF];
		else if (i >= WRITE_OFF && i < WRITE_OFF + WRITE_LEN)
			want = 0xc3;
		if (rw[i] != want)
			bad = i;
	}
	lv_check(bad < 0, "server: the atomic writes and the write placed, nothing else (first bad byte %d)",
		 bad);
	for (bad = -1, i = 0; i < LEN && bad < 0; i++)
		if (ro[i] != 0x5a)
			bad = i;
	lv_check(bad < 0, "server: the read-only MR unchanged (first bad byte %d)",
		 bad);
	lv_sync(fd, 'c');
}

int main(int argc, char **argv)
{
	struct ibv_mr *ro_mr;
	struct lv_base b;
	struct lv_args a;
	int fd;

	lv_parse_args(argc, argv, "18900", 'c', &a);
	lv_base_open(&a, LEN, 0x5a, IBV_ACCESS_LOCAL_WRITE |
		     IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ, &b);
	ro_mr = lv_buf_reg(b.pd, LEN, 0x5a, IBV_ACCESS_REMOTE_READ);
	if (a.flag)		/* -c */
		check_caps(b.ctx, b.pd);

	lv_create_pairs(b.pd, NPAIRS, IBV_QP_EX_WITH_ATOMIC_WRITE |
			IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_READ,
			cqs, qps);
	fd = lv_connect_pairs(&a, &b, NPAIRS, qps, 0x2000, 9,
			      IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	if (a.host)
		client(fd, b.buf, b.mr);
	else
		server(fd, b.buf, b.mr, ro_mr->addr, ro_mr);
	return lv_failures ? 1 : 0;
}
