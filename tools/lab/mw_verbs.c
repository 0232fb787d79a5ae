// SPDX-License-Identifier: GPL-2.0
/*
 * mw_verbs: memory windows (IBA 10.6.7) through librxe, data checked.
 *
 *   mw_verbs -d DEV -g GIDIDX -p PORT            server: owns the memory
 *   mw_verbs -d DEV -g GIDIDX -p PORT SERVER     client: remote operations
 *
 * Both sides allocate and deallocate windows of types 1 and 2, then
 * connect NPAIRS RC QP pairs (a remote access error ends a pair, so each
 * failure has its own).  The server binds windows over its buffer: type 1
 * by ibv_bind_mw, type 2 by an IBV_WR_BIND_MW send WR (zero based) and by
 * ibv_wr_bind_mw; it cannot deregister the MR while they are bound.  The
 * client WRITEs, READs and runs both atomics through them, every byte
 * checked on both sides.  The server invalidates one type 2 window
 * locally, the client the other by SEND with Invalidate; accesses through
 * them then fail with a remote access error, as do a WRITE out of a
 * window's bounds, a WRITE through a read-only window and a READ of a
 * type 2 window through a QP it is not bound to.  Binds breaking a rule
 * (MR without MW_BIND, outside the MR, zero-based type 1 (which
 * ibv_bind_mw refuses itself, so it is posted as IBV_WR_BIND_MW), remote
 * write on an MR without local write) complete with IBV_WC_MW_BIND_ERR.  One
 * "ok - " line per check; exit status 0 if all held.
 *
 * MW_OWNER=rxe in the environment (both sides): the server is stock
 * rdma_rxe, which departs from IBA in two ways the checks then allow
 * for.  It checks an access through a window against the bounds of the
 * window's MR, not the window's own (rxe_resp.c, check_rkey()), so the
 * WRITE across a window's end lands; it is not checked, and the server
 * checks only the bytes the other refused WRITE would change.  And its
 * user completions carry the kernel's IB_WC_WITH_INVALIDATE bit (1 << 2),
 * which libibverbs reads as IBV_WC_IP_CSUM_OK, for IBV_WC_WITH_INV.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "labverbs.h"

#define NPAIRS		10
#define BUF_LEN		16384
#define WIN		4096		/* each window's length */
#define RW		(IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE)
#define RWA		(RW | IBV_ACCESS_REMOTE_ATOMIC)
#define ATOMIC_OFF	1024		/* the atomic word in window 1 */

/* pairs: 0 good ops then access after local invalidate; 1 remote
 * invalidate; 2 out of bounds; 3 read-only window; 4 other QP; 5 the
 * type 2 window of pair 4's test; 6..9 bind rule violations */
enum { P_GOOD, P_RINV, P_OOB, P_RO, P_OTHER_QP, P_OWNER, P_B_NOBIND,
       P_B_OUTSIDE, P_B_ZB1, P_B_NOLW };

/* What the server tells the client */
struct keys {
	uint64_t addr1;		/* window 1 (type 1, VA based) */
	uint32_t rkey1, rkey2, rkey3, rkey4, rkey5;
	uint64_t addr3, addr4, addr5;
};

static int owner_rxe;	/* MW_OWNER=rxe: the server is stock rdma_rxe */
static struct ibv_cq *cqs[NPAIRS];
static struct ibv_qp *qps[NPAIRS];

static unsigned char pattern(unsigned int i, unsigned int seed)
{
	return (i * seed + 1) & 0xff;
}

/* post one WR on pair @p, its completion */
static struct ibv_wc post1(int p, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;
	struct ibv_wc wc = { .status = -1 };

	wr->send_flags |= IBV_SEND_SIGNALED;
	if (ibv_post_send(qps[p], wr, &bad)) {
		perror("post_send");
		return wc;
	}
	return lv_poll1(cqs[p]);
}

static struct ibv_wc rdma(int p, enum ibv_wr_opcode op, void *local,
			  struct ibv_mr *mr, uint32_t len, uint64_t raddr,
			  uint32_t rkey)
{
	struct ibv_sge sge = { .addr = (uintptr_t)local, .length = len,
			       .lkey = mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1,
				  .opcode = op };

	if (op == IBV_WR_ATOMIC_FETCH_AND_ADD ||
	    op == IBV_WR_ATOMIC_CMP_AND_SWP) {
		wr.wr.atomic.remote_addr = raddr;
		wr.wr.atomic.rkey = rkey;
	} else {
		wr.wr.rdma.remote_addr = raddr;
		wr.wr.rdma.rkey = rkey;
	}
	return post1(p, &wr);
}

static void alloc_dealloc(struct ibv_pd *pd)
{
	enum ibv_mw_type t[] = { IBV_MW_TYPE_1, IBV_MW_TYPE_2 };
	struct ibv_mw *mw;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		mw = ibv_alloc_mw(pd, t[i]);
		lv_check(mw != NULL, "alloc a type %d window (%s)", t[i],
			 mw ? "ok" : strerror(errno));
		if (mw)
			lv_check(ibv_dealloc_mw(mw) == 0,
				 "dealloc the type %d window", t[i]);
	}
}

/* ibv_bind_mw (type 1) on pair @p; the completion */
static struct ibv_wc bind1(int p, struct ibv_mw *mw, struct ibv_mr *mr,
			   void *addr, uint64_t len, unsigned int access)
{
	struct ibv_mw_bind b = {
		.wr_id = 1, .send_flags = IBV_SEND_SIGNALED,
		.bind_info = { .mr = mr, .addr = (uintptr_t)addr,
			       .length = len, .mw_access_flags = access },
	};
	struct ibv_wc wc = { .status = -1 };
	int err = ibv_bind_mw(qps[p], mw, &b);

	if (err) {
		fprintf(stderr, "ibv_bind_mw: %s\n", strerror(err));
		return wc;
	}
	return lv_poll1(cqs[p]);
}

/* IBV_WR_BIND_MW (type 2) on pair @p with the next key; the completion */
static struct ibv_wc bind2(int p, struct ibv_mw *mw, struct ibv_mr *mr,
			   void *addr, uint64_t len, unsigned int access,
			   uint32_t *rkey)
{
	struct ibv_send_wr wr = { .opcode = IBV_WR_BIND_MW };

	*rkey = ibv_inc_rkey(mw->rkey);
	wr.bind_mw.mw = mw;
	wr.bind_mw.rkey = *rkey;
	wr.bind_mw.bind_info = (struct ibv_mw_bind_info){
		.mr = mr, .addr = (uintptr_t)addr, .length = len,
		.mw_access_flags = access,
	};
	return post1(p, &wr);
}

static void server(int fd, struct ibv_pd *pd, unsigned char *buf,
		   struct ibv_mr *mr)
{
	struct ibv_mw *mw1, *mw2, *mw3, *mw4, *mw5, *bad[4];
	unsigned char *w1 = buf + WIN, *w2 = buf + 2 * WIN, *w3 = buf + 3 * WIN;
	struct ibv_mr *mr_nobind, *mr_nolw;
	struct ibv_mw_bind_info bi;
	struct ibv_recv_wr rwr = {}, *rbad;
	struct ibv_send_wr inv = {};
	struct keys k = {};
	struct ibv_qp_ex *qx;
	uint64_t *word;
	struct ibv_wc wc;
	unsigned int i;
	int err;

	mw1 = ibv_alloc_mw(pd, IBV_MW_TYPE_1);
	mw2 = ibv_alloc_mw(pd, IBV_MW_TYPE_2);
	mw3 = ibv_alloc_mw(pd, IBV_MW_TYPE_2);
	mw4 = ibv_alloc_mw(pd, IBV_MW_TYPE_1);
	mw5 = ibv_alloc_mw(pd, IBV_MW_TYPE_2);
	if (!mw1 || !mw2 || !mw3 || !mw4 || !mw5)
		lv_die("alloc_mw");
	memset(buf, 0, BUF_LEN);
	word = (uint64_t *)(w1 + ATOMIC_OFF);
	*word = 100;
	((uint64_t *)w2)[1] = 7;
	for (i = 0; i < WIN; i++)
		w3[i] = pattern(i, 11);

	wc = bind1(P_GOOD, mw1, mr, w1, WIN, RWA);
	lv_check(wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_BIND_MW,
		 "server: type 1 bind by ibv_bind_mw completes (%s, opcode %d)",
		 lv_wc_status(wc), wc.opcode);
	k.addr1 = (uintptr_t)w1;
	k.rkey1 = mw1->rkey;

	wc = bind2(P_GOOD, mw2, mr, w2, WIN, RWA | IBV_ACCESS_ZERO_BASED,
		   &k.rkey2);
	lv_check(wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_BIND_MW,
		 "server: zero-based type 2 bind by IBV_WR_BIND_MW completes (%s)",
		 lv_wc_status(wc));

	qx = ibv_qp_to_qp_ex(qps[P_RINV]);
	k.rkey3 = ibv_inc_rkey(mw3->rkey);
	bi = (struct ibv_mw_bind_info){ .mr = mr, .addr = (uintptr_t)w3,
					.length = WIN,
					.mw_access_flags = RW };
	ibv_wr_start(qx);
	qx->wr_id = 3;
	qx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_bind_mw(qx, mw3, k.rkey3, &bi);
	err = ibv_wr_complete(qx);
	wc = err ? (struct ibv_wc){ .status = -1 } : lv_poll1(cqs[P_RINV]);
	lv_check(wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_BIND_MW,
		 "server: type 2 bind by ibv_wr_bind_mw completes (%s)",
		 lv_wc_status(wc));
	k.addr3 = (uintptr_t)w3;

	wc = bind1(P_GOOD, mw4, mr, w1, WIN, IBV_ACCESS_REMOTE_READ);
	lv_check(wc.status == IBV_WC_SUCCESS,
		 "server: read-only type 1 bind completes (%s)",
		 lv_wc_status(wc));
	k.rkey4 = mw4->rkey;
	k.addr4 = (uintptr_t)w1;
	wc = bind2(P_OWNER, mw5, mr, w3, WIN, RW, &k.rkey5);
	lv_check(wc.status == IBV_WC_SUCCESS,
		 "server: type 2 bind on another QP completes (%s)",
		 lv_wc_status(wc));
	k.addr5 = (uintptr_t)w3;

	err = ibv_dereg_mr(mr);
	lv_check(err == EINVAL,
		 "server: dereg of an MR with bound windows fails with EINVAL (%d)",
		 err);

	if (write(fd, &k, sizeof(k)) != sizeof(k))
		lv_die("keys");
	/* A: the client's good operations are done */
	lv_sync(fd, 'A');
	for (i = 0; i < 256 && w1[16 + i] == pattern(i, 3); i++)
		;
	lv_check(i == 256, "server: WRITE through type 1 window landed (first bad %u)",
		 i);
	lv_check(*word == 105, "server: FETCH_ADD through the window (%llu)",
		 (unsigned long long)*word);
	for (i = 0; i < 128 && w2[64 + i] == pattern(i, 5); i++)
		;
	lv_check(i == 128,
		 "server: WRITE at zero-based offset 64 landed at window start + 64 (first bad %u)",
		 i);
	lv_check(((uint64_t *)w2)[1] == 0x99,
		 "server: CMP_SWP at zero-based offset 8 (%#llx)",
		 (unsigned long long)((uint64_t *)w2)[1]);
	lv_check(w2[63] == 0 && w2[192] == 0 && w2[0] == 0,
		 "server: nothing around the zero-based write changed");

	/* local invalidate of window 2; a receive for the SEND with Invalidate */
	inv.opcode = IBV_WR_LOCAL_INV;
	inv.invalidate_rkey = k.rkey2;
	wc = post1(P_GOOD, &inv);
	lv_check(wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_LOCAL_INV,
		 "server: LOCAL_INV of the type 2 window completes (%s)",
		 lv_wc_status(wc));
	if (ibv_post_recv(qps[P_RINV], &rwr, &rbad))
		lv_die("post_recv");
	lv_sync(fd, 'B');
	wc = lv_poll1(cqs[P_RINV]);
	lv_check(wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RECV &&
		 (wc.wc_flags & (owner_rxe ? IBV_WC_IP_CSUM_OK :
					     IBV_WC_WITH_INV)) &&
		 wc.invalidated_rkey == k.rkey3,
		 "server: SEND with Invalidate of window 3 received (%s, flags %#x, rkey %#x)",
		 lv_wc_status(wc), wc.wc_flags, wc.invalidated_rkey);
	/* C: the client's failing accesses are done */
	lv_sync(fd, 'C');
	for (i = 0; i < 8 && (owner_rxe || w1[WIN - 4 + i] == 0) &&
		    w1[i] == 0; i++)
		;
	lv_check(i == 8, "server: the refused WRITE%s changed nothing (%u)",
		 owner_rxe ? "" : "s", i);

	/* binds breaking a rule */
	mr_nobind = ibv_reg_mr(pd, buf, BUF_LEN, IBV_ACCESS_LOCAL_WRITE |
			       RW);
	mr_nolw = ibv_reg_mr(pd, buf, BUF_LEN, IBV_ACCESS_MW_BIND |
			     IBV_ACCESS_REMOTE_READ);
	for (i = 0; i < 4; i++)
		bad[i] = ibv_alloc_mw(pd, i == 3 ? IBV_MW_TYPE_2 :
				      IBV_MW_TYPE_1);
	if (!mr_nobind || !mr_nolw || !bad[0] || !bad[1] || !bad[2] ||
	    !bad[3])
		lv_die("bad binds' objects");
	wc = bind1(P_B_NOBIND, bad[0], mr_nobind, buf, WIN, RW);
	lv_check(wc.status == IBV_WC_MW_BIND_ERR,
		 "server: bind to an MR without MW_BIND: MW_BIND_ERR (%s)",
		 lv_wc_status(wc));
	wc = bind1(P_B_OUTSIDE, bad[1], mr, buf + BUF_LEN - 8, 16, RW);
	lv_check(wc.status == IBV_WC_MW_BIND_ERR,
		 "server: window past the MR's end: MW_BIND_ERR (%s)",
		 lv_wc_status(wc));
	/* librxe refuses it in ibv_bind_mw; the WR reaches the kernel */
	{
		struct ibv_mw_bind b = {
			.send_flags = IBV_SEND_SIGNALED,
			.bind_info = { .mr = mr, .addr = (uintptr_t)buf,
				       .length = WIN,
				       .mw_access_flags = RW |
						IBV_ACCESS_ZERO_BASED },
		};

		err = ibv_bind_mw(qps[P_B_ZB1], bad[2], &b);
		lv_check(err != 0,
			 "server: ibv_bind_mw of a zero-based type 1 window refused (%s)",
			 strerror(err));
	}
	wc = bind2(P_B_ZB1, bad[2], mr, buf, WIN,
		   RW | IBV_ACCESS_ZERO_BASED, &k.rkey1);
	lv_check(wc.status == IBV_WC_MW_BIND_ERR,
		 "server: zero-based type 1 window by IBV_WR_BIND_MW: MW_BIND_ERR (%s)",
		 lv_wc_status(wc));
	wc = bind2(P_B_NOLW, bad[3], mr_nolw, buf, WIN,
		   IBV_ACCESS_REMOTE_WRITE, &k.rkey1);
	lv_check(wc.status == IBV_WC_MW_BIND_ERR,
		 "server: remote write window on an MR without local write: MW_BIND_ERR (%s)",
		 lv_wc_status(wc));

	for (i = 0; i < 4; i++)
		ibv_dealloc_mw(bad[i]);
	lv_check(!ibv_dealloc_mw(mw1) && !ibv_dealloc_mw(mw2) &&
		 !ibv_dealloc_mw(mw3) && !ibv_dealloc_mw(mw4) &&
		 !ibv_dealloc_mw(mw5), "server: dealloc the bound windows");
	lv_check(ibv_dereg_mr(mr) == 0 && ibv_dereg_mr(mr_nobind) == 0 &&
		 ibv_dereg_mr(mr_nolw) == 0,
		 "server: dereg the MRs once their windows are gone");
	lv_sync(fd, 'D');
}

static void client(int fd, unsigned char *buf, struct ibv_mr *mr)
{
	struct ibv_send_wr sinv = { .opcode = IBV_WR_SEND_WITH_INV };
	uint64_t *res = (uint64_t *)(buf + 8192);
	struct keys k;
	struct ibv_wc wc;
	unsigned int i;

	if (read(fd, &k, sizeof(k)) != sizeof(k))
		lv_die("keys");
	for (i = 0; i < 256; i++)
		buf[i] = pattern(i, 3);
	wc = rdma(P_GOOD, IBV_WR_RDMA_WRITE, buf, mr, 256, k.addr1 + 16,
		  k.rkey1);
	lv_check(wc.status == IBV_WC_SUCCESS,
		 "client: WRITE through type 1 window (%s)", lv_wc_status(wc));
	memset(buf + 4096, 0, 256);
	wc = rdma(P_GOOD, IBV_WR_RDMA_READ, buf + 4096, mr, 256, k.addr1 + 16,
		  k.rkey1);
	lv_check(wc.status == IBV_WC_SUCCESS &&
		 !memcmp(buf, buf + 4096, 256),
		 "client: READ back through type 1 window, same bytes (%s)",
		 lv_wc_status(wc));
	*res = 0;
	{
		struct ibv_sge sge = { .addr = (uintptr_t)res, .length = 8,
				       .lkey = mr->lkey };
		struct ibv_send_wr wr = {
			.sg_list = &sge, .num_sge = 1,
			.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD,
			.wr.atomic = { .remote_addr = k.addr1 + ATOMIC_OFF,
				       .rkey = k.rkey1, .compare_add = 5 },
		};

		wc = post1(P_GOOD, &wr);
		lv_check(wc.status == IBV_WC_SUCCESS && *res == 100,
			 "client: FETCH_ADD through type 1 window returns 100 (%s, %llu)",
			 lv_wc_status(wc), (unsigned long long)*res);
		wr.opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
		wr.wr.atomic.remote_addr = 8;
		wr.wr.atomic.rkey = k.rkey2;
		wr.wr.atomic.compare_add = 7;
		wr.wr.atomic.swap = 0x99;
		*res = 0;
		wc = post1(P_GOOD, &wr);
		lv_check(wc.status == IBV_WC_SUCCESS && *res == 7,
			 "client: CMP_SWP at zero-based offset 8 returns 7 (%s, %llu)",
			 lv_wc_status(wc), (unsigned long long)*res);
	}
	for (i = 0; i < 128; i++)
		buf[i] = pattern(i, 5);
	wc = rdma(P_GOOD, IBV_WR_RDMA_WRITE, buf, mr, 128, 64, k.rkey2);
	lv_check(wc.status == IBV_WC_SUCCESS,
		 "client: WRITE at zero-based offset 64 (%s)",
		 lv_wc_status(wc));
	memset(buf + 4096, 0, WIN);
	wc = rdma(P_RINV, IBV_WR_RDMA_READ, buf + 4096, mr, WIN, k.addr3,
		  k.rkey3);
	for (i = 0; i < WIN && buf[4096 + i] == pattern(i, 11); i++)
		;
	lv_check(wc.status == IBV_WC_SUCCESS && i == WIN,
		 "client: READ of the whole ibv_wr_bind_mw window (%s, first bad %u)",
		 lv_wc_status(wc), i);
	memset(buf + 4096, 0, 64);
	wc = rdma(P_OWNER, IBV_WR_RDMA_READ, buf + 4096, mr, 64, k.addr5,
		  k.rkey5);
	lv_check(wc.status == IBV_WC_SUCCESS && buf[4096 + 63] == pattern(63, 11),
		 "client: READ of a type 2 window through its QP (%s)",
		 lv_wc_status(wc));
	lv_sync(fd, 'A');

	/* window 2 is invalidated; invalidate window 3 by SEND */
	lv_sync(fd, 'B');
	sinv.invalidate_rkey = k.rkey3;
	wc = post1(P_RINV, &sinv);
	lv_check(wc.status == IBV_WC_SUCCESS,
		 "client: SEND with Invalidate of window 3 (%s)",
		 lv_wc_status(wc));

	wc = rdma(P_RINV, IBV_WR_RDMA_READ, buf + 4096, mr, 8, k.addr3,
		  k.rkey3);
	lv_check(wc.status == IBV_WC_REM_ACCESS_ERR,
		 "client: READ through the remotely invalidated window: REM_ACCESS_ERR (%s)",
		 lv_wc_status(wc));
	wc = rdma(P_GOOD, IBV_WR_RDMA_READ, buf + 4096, mr, 8, 0, k.rkey2);
	lv_check(wc.status == IBV_WC_REM_ACCESS_ERR,
		 "client: READ through the locally invalidated window: REM_ACCESS_ERR (%s)",
		 lv_wc_status(wc));
	wc = rdma(P_OOB, IBV_WR_RDMA_WRITE, buf, mr, 8, k.addr1 + WIN - 4,
		  k.rkey1);
	if (owner_rxe)
		printf("# client: WRITE across a window's end not checked: stock rxe checks its MR's bounds (%s)\n",
		       lv_wc_status(wc));
	else
		lv_check(wc.status == IBV_WC_REM_ACCESS_ERR,
			 "client: WRITE across a window's end: REM_ACCESS_ERR (%s)",
			 lv_wc_status(wc));
	wc = rdma(P_RO, IBV_WR_RDMA_WRITE, buf, mr, 8, k.addr4, k.rkey4);
	lv_check(wc.status == IBV_WC_REM_ACCESS_ERR,
		 "client: WRITE through a read-only window: REM_ACCESS_ERR (%s)",
		 lv_wc_status(wc));
	wc = rdma(P_OTHER_QP, IBV_WR_RDMA_READ, buf + 4096, mr, 8, k.addr5,
		  k.rkey5);
	lv_check(wc.status == IBV_WC_REM_ACCESS_ERR,
		 "client: READ of a type 2 window through another QP: REM_ACCESS_ERR (%s)",
		 lv_wc_status(wc));
	lv_sync(fd, 'C');
	lv_sync(fd, 'D');
}

int main(int argc, char **argv)
{
	struct lv_base b;
	struct lv_args a;
	int fd;

	owner_rxe = getenv("MW_OWNER") && !strcmp(getenv("MW_OWNER"), "rxe");
	lv_parse_args(argc, argv, "18800", 'c', &a);
	lv_base_open(&a, BUF_LEN, 0,
		     IBV_ACCESS_LOCAL_WRITE | RWA | IBV_ACCESS_MW_BIND, &b);
	alloc_dealloc(b.pd);

	lv_create_pairs(b.pd, NPAIRS, IBV_QP_EX_WITH_BIND_MW |
			IBV_QP_EX_WITH_LOCAL_INV | IBV_QP_EX_WITH_SEND |
			IBV_QP_EX_WITH_RDMA_READ, cqs, qps);
	fd = lv_connect_pairs(&a, &b, NPAIRS, qps, 0x1000, 7, RWA);
	if (a.host)
		client(fd, b.buf, b.mr);
	else
		server(fd, b.pd, b.buf, b.mr);
	return lv_failures ? 1 : 0;
}
