// SPDX-License-Identifier: GPL-2.0
/*
 * hostile_user: what an unprivileged local user can try against an RDMA
 * device through the stock provider (librxe on sroce, libsiw on siwarp)
 * and the rings it shares with the kernel.  Over the RDMA CM:
 *
 *   hostile_user -d DEV -s -a ADDR -p PORT             peer (a normal user)
 *   hostile_user -d DEV [-g GIDX4 -G GIDX6 -6 PEER6] [-x SKIP,...]
 *                [-o ONLY,...] -p PORT SERVER              attacker
 *
 * The attacker runs its attempts one after the other, each printed as
 * "ok - ..." (the kernel refused it with an error code, or failed the
 * attacker's own QP, or carried it out correctly) or "not ok - ..."
 * (it accepted a false claim, touched memory it must not, or never
 * answered).  The line is out before the next attempt starts, so a
 * crash shows which attempt it was.  Attempts (names for -x / -o):
 *
 *  curstate  modify_qp with IBV_QP_CUR_STATE claiming a state the QP is
 *            not in: RESET claimed SQD -> RTS (then a 1000 B SEND, what
 *            crashes a kernel that took the claim), INIT claimed RTR ->
 *            RTS, ERR claimed RTS -> RTS (a restart without RESET); each
 *            must fail.  A true claim works (RoCE: RTS claimed RTS -> RTS;
 *            iWARP: INIT claimed INIT -> INIT).
 *  limits    PDs, CQs, QPs, SRQs, AHs (RoCE) and MRs created until the
 *            kernel refuses: the refusal has an errno, and comes before
 *            the advertised maximum is passed or the guest's memory runs
 *            low; all freed, one of each is made again.  An MR beyond
 *            RLIMIT_MEMLOCK, over unmapped memory, wrapping the address
 *            space, or with write access but no local write is refused.
 *  wr        connected QPs: SGEs of 0 and 2^32-1 bytes, a 2^31 B READ and
 *            a 2^32-1 B WRITE from a 4 KiB MR, bogus opcodes, num_sge
 *            past the maximum, an lkey of another PD in a SEND and in a
 *            RECEIVE (the peer SENDs into it: the foreign buffer stays as
 *            it was), an rkey of the peer's other PD in a WRITE and a
 *            READ (the peer checks its buffer when the connection ends).
 *  ring      the rings mmap'd from the device (found in /proc/self/maps
 *            around the QP's and CQ's creation; libibverbs keeps them to
 *            the provider): send WQEs with bogus opcodes, num_sge huge,
 *            lengths not matching their SGEs, huge SGEs, inline data
 *            longer than the slot, kernel-private fields set; a producer
 *            index far past the consumer; the ring header's mask and
 *            element size changed; receive WQEs as bad, filled by the
 *            peer's SENDs; a CQ whose consumer index claims it full; and
 *            a thread flipping random bytes of the SQ while the doorbell
 *            rings.  Each must end in error completions, a QP in ERR, or
 *            correct work; never a hang of the doorbell.
 *  avflip    (RoCE) an RC QP moved RTS -> SQD -> SQD with IBV_QP_AV
 *            switching between the IPv4-mapped and the IPv6 GIDs of both
 *            ends -> RTS, again and again, while it READs the peer's
 *            memory and the peer READs its own: every READ that
 *            completes carries the right bytes.
 *
 * The peer accepts any number of connections: a QP with receives posted
 * in its own PD, a read-only MR with a known pattern, a writable MR, and
 * an MR of a second PD that no QP may touch; on request it SENDs to the
 * attacker or READs the attacker's memory, checking every byte.  The
 * attacker's last connection request tells it to stop; it then prints
 * its own checks.  Exit status 0 iff every check held.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <rdma/rdma_cma.h>
#include <rdma/rdma_user_rxe.h>
#include <rdma/siw-abi.h>

#include "labcm.h"
#include "labverbs.h"

#define MAGIC		0x686f7331u
#define BUF_SIZE	(1u << 20)	/* the peer's READ target, the attacker's */
#define MSG_SIZE	1000
#define RECVS		64

enum hu_mode { MODE_PASSIVE, MODE_SENDER, MODE_READLOAD, MODE_QUIT };

/* attacker -> peer, in the connect request's private data */
struct hu_req {
	uint32_t magic, mode;
	uint64_t addr;		/* MODE_READLOAD: the attacker's memory */
	uint32_t rkey, len;
};

/* peer -> attacker, in the accept's private data */
struct hu_rep {
	uint32_t magic, pad;
	uint64_t ro_addr;	/* pattern, REMOTE_READ */
	uint64_t rw_addr;	/* REMOTE_WRITE | REMOTE_READ */
	uint64_t foreign_addr;	/* another PD's MR, REMOTE_WRITE | READ */
	uint32_t ro_rkey, rw_rkey, foreign_rkey, len;
};

static uint8_t pattern(uint64_t off, unsigned int seed)
{
	return (uint8_t)(off * 7 + (off >> 9) + seed * 61);
}

static void fill(uint8_t *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = pattern(i, seed);
}

/* offset of the first byte of @p not of the pattern, or @n */
static size_t check_fill(const uint8_t *p, size_t n, uint64_t base,
			 unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != pattern(base + i, seed))
			return i;
	return n;
}

static int iwarp;
static const char *devname;
static struct ibv_context *ctx;
static struct ibv_device_attr dattr;

static void *xalloc(size_t n)
{
	void *p = NULL;

	if (posix_memalign(&p, 4096, n))
		lv_die("posix_memalign");
	memset(p, 0, n);
	return p;
}

static struct ibv_context *cm_device(const char *name)
{
	struct ibv_context **list;
	int i, n;

	list = rdma_get_devices(&n);
	for (i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]->device), name))
			return list[i];
	fprintf(stderr, "no RDMA CM device %s\n", name);
	exit(2);
}

/* wait up to @ms for one completion; 1 with it in *@wc, 0 if none */
static int wait_wc(struct ibv_cq *cq, struct ibv_wc *wc, int ms)
{
	int i, n;

	for (i = 0; i < ms; i++) {
		n = ibv_poll_cq(cq, 1, wc);
		if (n)
			return n > 0;
		usleep(1000);
	}
	return 0;
}

/* ---- /proc/self/maps: where the provider mapped the device's rings ---- */

struct map { uintptr_t start, end; };
struct maps { struct map m[64]; int n; };

static void maps_read(struct maps *ms)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");

	ms->n = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && ms->n < 64) {
		unsigned long s, e;

		if (!strstr(line, "/dev/infiniband/uverbs") ||
		    sscanf(line, "%lx-%lx", &s, &e) != 2)
			continue;
		ms->m[ms->n].start = s;
		ms->m[ms->n].end = e;
		ms->n++;
	}
	fclose(f);
}

/* mappings in @after not in @before, largest first, at most @max */
static int maps_new(const struct maps *before, const struct maps *after,
		    struct map *out, int max)
{
	int i, j, n = 0;

	for (i = 0; i < after->n; i++) {
		for (j = 0; j < before->n; j++)
			if (before->m[j].start == after->m[i].start)
				break;
		if (j < before->n || n == max)
			continue;
		out[n++] = after->m[i];
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (out[j].end - out[j].start >
			    out[i].end - out[i].start) {
				struct map t = out[i];

				out[i] = out[j];
				out[j] = t;
			}
	return n;
}

/* ---- the attacker's connections ---- */

struct ring {
	uint8_t *base;
	size_t len;
	uint32_t mask, log2, nslots;	/* rxe: from the header at creation */
	uint32_t prod;			/* our private producer index */
};

struct conn {
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct hu_rep rep;
	struct ring sq, rq, cqr;
	uint32_t max_send_wr;
	int connected;
};

static struct rdma_addrinfo *peer_ai;
static uint8_t *abuf;			/* the attacker's 1 MiB */
static struct ibv_pd *foreign_pd;	/* a PD no QP of ours lives in */
static struct ibv_mr *foreign_mr;
static uint8_t *fbuf;			/* foreign_mr's memory */

static int ring_init(struct ring *r, const struct map *m, size_t elem)
{
	memset(r, 0, sizeof(*r));
	if (!m)
		return -1;
	r->base = (uint8_t *)m->start;
	r->len = m->end - m->start;
	if (iwarp) {
		r->nslots = r->len / elem;
		return 0;
	}
	{
		struct rxe_queue_buf *q = (void *)r->base;

		r->mask = q->index_mask;
		r->log2 = q->log2_elem_size;
		r->prod = q->producer_index;
		if (r->log2 > 16 || !r->mask ||
		    sizeof(*q) + (((size_t)r->mask + 1) << r->log2) > r->len)
			return -1;
		r->nslots = r->mask + 1;
	}
	return 0;
}

static void *rxe_slot(struct ring *r, uint32_t i)
{
	return r->base + sizeof(struct rxe_queue_buf) +
	       ((size_t)(i & r->mask) << r->log2);
}

/*
 * Connect a QP of a fresh PD and CQ to the peer, @mode telling it what
 * to do; the QP's and CQ's rings are located.  0 or -1.
 */
static int conn_open(struct conn *c, uint32_t mode, struct ibv_mr *expose,
		     int signal_all)
{
	struct ibv_qp_init_attr qa = {
		.cap = { .max_send_wr = 64, .max_recv_wr = 4,
			 .max_send_sge = 2, .max_recv_sge = 2 },
		.qp_type = IBV_QPT_RC, .sq_sig_all = signal_all,
	};
	struct maps m0, m1, m2;
	struct map nm[4];

	(void)mode;
	(void)expose;
	memset(c, 0, sizeof(*c));
	if (rdma_create_ep(&c->id, peer_ai, NULL, NULL)) {
		perror("rdma_create_ep");
		return -1;
	}
	if (c->id->verbs != ctx) {
		fprintf(stderr, "the RDMA CM chose another device\n");
		goto out_ep;
	}
	c->pd = ibv_alloc_pd(ctx);
	maps_read(&m0);
	c->cq = c->pd ? ibv_create_cq(ctx, 256, NULL, NULL, 0) : NULL;
	maps_read(&m1);
	if (!c->cq)
		goto out_pd;
	qa.send_cq = qa.recv_cq = c->cq;
	if (rdma_create_qp(c->id, c->pd, &qa)) {
		perror("rdma_create_qp");
		goto out_cq;
	}
	c->qp = c->id->qp;
	c->max_send_wr = qa.cap.max_send_wr;
	maps_read(&m2);
	if (maps_new(&m0, &m1, nm, 1) == 1)
		ring_init(&c->cqr, &nm[0], sizeof(struct siw_cqe));
	if (maps_new(&m1, &m2, nm, 2) == 2) {
		ring_init(&c->sq, &nm[0], sizeof(struct siw_sqe));
		ring_init(&c->rq, &nm[1], sizeof(struct siw_rqe));
	}
	return 0;
out_cq:
	ibv_destroy_cq(c->cq);
out_pd:
	if (c->pd)
		ibv_dealloc_pd(c->pd);
out_ep:
	rdma_destroy_ep(c->id);
	c->id = NULL;
	return -1;
}

static int conn_connect(struct conn *c, uint32_t mode, struct ibv_mr *expose)
{
	struct hu_req req = { .magic = MAGIC, .mode = mode };
	struct rdma_conn_param cp = {
		.private_data = &req, .private_data_len = sizeof(req),
		.responder_resources = 8, .initiator_depth = 8,
		.retry_count = 3, .rnr_retry_count = 3,
	};

	if (expose) {
		req.addr = (uintptr_t)expose->addr;
		req.rkey = expose->rkey;
		req.len = expose->length;
	}
	if (rdma_connect(c->id, &cp)) {
		if (mode != MODE_QUIT)
			perror("rdma_connect");
		return -1;
	}
	c->connected = 1;
	if (c->id->event && c->id->event->param.conn.private_data_len >=
	    sizeof(c->rep))
		memcpy(&c->rep, c->id->event->param.conn.private_data,
		       sizeof(c->rep));
	if (c->rep.magic != MAGIC) {
		fprintf(stderr, "no parameters from the peer\n");
		return -1;
	}
	return 0;
}

static void conn_close(struct conn *c)
{
	if (!c->id)
		return;
	/* a refused connection has no disconnect to wait for */
	if (c->connected)
		rdma_disconnect(c->id);
	rdma_destroy_qp(c->id);
	rdma_destroy_ep(c->id);
	ibv_destroy_cq(c->cq);
	ibv_dealloc_pd(c->pd);
	c->id = NULL;
}

/* open + connect; a failure is a failed check named @what */
static int conn_up(struct conn *c, uint32_t mode, struct ibv_mr *expose,
		   const char *what)
{
	if (conn_open(c, mode, expose, 0) == 0) {
		if (conn_connect(c, mode, expose) == 0)
			return 0;
		conn_close(c);
	}
	lv_check(0, "%s: connect to the peer", what);
	return -1;
}

/* the ring of a connection an attempt writes into */
enum ring_id { RING_NONE, RING_SQ, RING_CQ };

/*
 * conn_up() for the attempt @what, then the first 4 KiB of abuf
 * registered in the connection's PD for the SGEs of its WRs and WQEs.
 * An attempt on ring @r needs it found in /proc/self/maps: else the
 * failed check "@what: @found".  The MR, or NULL after a failed check.
 */
static struct ibv_mr *conn_up_mr(struct conn *c, const char *what,
				 enum ring_id r, const char *found)
{
	struct ibv_mr *mr;

	if (conn_up(c, MODE_PASSIVE, NULL, what))
		return NULL;
	if ((r == RING_SQ && !c->sq.base) || (r == RING_CQ && !c->cqr.base)) {
		lv_check(0, "%s: %s", what, found);
		conn_close(c);
		return NULL;
	}
	mr = ibv_reg_mr(c->pd, abuf, 4096, IBV_ACCESS_LOCAL_WRITE);
	if (!mr)
		lv_die("reg_mr");
	return mr;
}

/* ---- curstate ---- */

static struct ibv_qp *plain_qp(struct ibv_pd *pd, struct ibv_cq *cq)
{
	return lv_create_rc_qp(pd, cq, 16, 0, NULL);
}

static int to_init(struct ibv_qp *qp)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1,
				 .qp_access_flags = IBV_ACCESS_LOCAL_WRITE };

	/* an iWARP QP takes no P_Key or port (libsiw, siw's ABI) */
	if (iwarp)
		return ibv_modify_qp(qp, &a, IBV_QP_STATE);
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			     IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
}

/* modify @qp to @to claiming it is in @cur; 0 or the errno */
static int claim(struct ibv_qp *qp, enum ibv_qp_state cur,
		 enum ibv_qp_state to)
{
	struct ibv_qp_attr a = { .qp_state = to, .cur_qp_state = cur };

	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_CUR_STATE);
}

static void attempt_curstate(void)
{
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	struct ibv_cq *cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	struct ibv_mr *mr;
	struct ibv_qp *qp;
	struct ibv_wc wc;
	int err, s;

	if (!pd || !cq)
		lv_die("curstate: pd/cq");
	mr = ibv_reg_mr(pd, abuf, 4096, IBV_ACCESS_LOCAL_WRITE);

	qp = plain_qp(pd, cq);
	if (!qp || !mr)
		lv_die("curstate: qp/mr");
	err = claim(qp, IBV_QPS_SQD, IBV_QPS_RTS);
	s = lv_qp_state(qp);
	lv_check(err != 0,
		 "curstate: RESET QP claimed SQD -> RTS refused (%s, state now %s)",
		 err ? strerror(err) : "accepted", lv_qp_state_str(s));
	if (!err) {
		struct ibv_sge sge = { .addr = (uintptr_t)abuf,
				       .length = MSG_SIZE, .lkey = mr->lkey };
		struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1,
					  .opcode = IBV_WR_SEND,
					  .send_flags = IBV_SEND_SIGNALED }, *bad;

		printf("# a %d B SEND on the QP the kernel thinks is in %s\n",
		       MSG_SIZE, lv_qp_state_str(s));
		fflush(stdout);
		err = ibv_post_send(qp, &wr, &bad);
		printf("# post_send: %s; completion: %s\n",
		       err ? strerror(err) : "0",
		       wait_wc(cq, &wc, 2000) ?
		       ibv_wc_status_str(wc.status) : "none");
	}
	ibv_destroy_qp(qp);

	qp = plain_qp(pd, cq);
	if (!qp || to_init(qp))
		lv_die("curstate: qp to INIT");
	err = claim(qp, IBV_QPS_RTR, IBV_QPS_RTS);
	lv_check(err != 0,
		 "curstate: INIT QP claimed RTR -> RTS refused (%s, state now %s)",
		 err ? strerror(err) : "accepted",
		 lv_qp_state_str(lv_qp_state(qp)));
	if (iwarp) {
		/* a true claim: libsiw QPs take INIT -> INIT */
		err = claim(qp, IBV_QPS_INIT, IBV_QPS_INIT);
		lv_check(err == 0,
			 "curstate: INIT QP claimed INIT (true) -> INIT accepted (%s)",
			 err ? strerror(err) : "0");
	} else {
		/* IBA allows IBV_QP_CUR_STATE from RTR, RTS, SQD, SQE only */
		struct conn c;

		if (!conn_up(&c, MODE_PASSIVE, NULL, "curstate: true claim")) {
			err = claim(c.qp, IBV_QPS_RTS, IBV_QPS_RTS);
			lv_check(err == 0,
				 "curstate: RTS QP claimed RTS (true) -> RTS accepted (%s)",
				 err ? strerror(err) : "0");
			conn_close(&c);
		}
	}
	{
		struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };

		if (ibv_modify_qp(qp, &a, IBV_QP_STATE))
			lv_die("curstate: to ERR");
	}
	err = claim(qp, IBV_QPS_RTS, IBV_QPS_RTS);
	lv_check(err != 0,
		 "curstate: ERR QP claimed RTS -> RTS refused (%s, state now %s)",
		 err ? strerror(err) : "accepted",
		 lv_qp_state_str(lv_qp_state(qp)));
	err = claim(qp, IBV_QPS_INIT, IBV_QPS_RTR);
	lv_check(err != 0,
		 "curstate: ERR QP claimed INIT -> RTR refused (%s, state now %s)",
		 err ? strerror(err) : "accepted",
		 lv_qp_state_str(lv_qp_state(qp)));
	ibv_destroy_qp(qp);
	ibv_dereg_mr(mr);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
}

/* ---- limits ---- */

static long mem_available_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/* the memory cgroup we run in: its memory.current in kB, or -1 */
static long cg_current_kb(void)
{
	char line[256], path[512];
	long long b = -1;
	FILE *f = fopen("/proc/self/cgroup", "r");

	path[0] = 0;
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = 0;
			snprintf(path, sizeof(path),
				 "/sys/fs/cgroup%s/memory.current", line + 3);
		}
	if (f)
		fclose(f);
	f = path[0] ? fopen(path, "r") : NULL;
	if (f) {
		if (fscanf(f, "%lld", &b) != 1)
			b = -1;
		fclose(f);
	}
	return b < 0 ? -1 : (long)(b / 1024);
}

/* stop before the guest's own memory runs out */
#define LOW_MEM_KB	(384 * 1024)

enum obj { O_PD, O_CQ, O_QP, O_SRQ, O_AH, O_MR };
static const char *const obj_name[] = {
	"PDs", "CQs of max_cqe", "QPs of max_qp_wr", "SRQs of max_srq_wr",
	"AHs", "MRs of a page",
};

static struct ibv_pd *lim_pd;
static struct ibv_cq *lim_cq;
static struct ibv_ah_attr lim_ah;

/* rings as large as the device allows: kernel memory for each */
static int big(enum obj o)
{
	return o == O_CQ || o == O_QP || o == O_SRQ;
}

static void *obj_make(enum obj o)
{
	switch (o) {
	case O_PD:
		return ibv_alloc_pd(ctx);
	case O_CQ:
		return ibv_create_cq(ctx, dattr.max_cqe, NULL, NULL, 0);
	case O_QP: {
		struct ibv_qp_init_attr qa = {
			.send_cq = lim_cq, .recv_cq = lim_cq,
			.qp_type = IBV_QPT_RC,
			.cap = { .max_send_wr = dattr.max_qp_wr,
				 .max_recv_wr = dattr.max_qp_wr,
				 .max_send_sge = 1, .max_recv_sge = 1 },
		};

		return ibv_create_qp(lim_pd, &qa);
	}
	case O_SRQ: {
		struct ibv_srq_init_attr sa = {
			.attr = { .max_wr = dattr.max_srq_wr, .max_sge = 1 } };

		return ibv_create_srq(lim_pd, &sa);
	}
	case O_AH:
		return ibv_create_ah(lim_pd, &lim_ah);
	case O_MR:
		/* one page each: RLIMIT_MEMLOCK counts every registration */
		return ibv_reg_mr(lim_pd, abuf, 4096, IBV_ACCESS_LOCAL_WRITE);
	}
	return NULL;
}

static int obj_free(enum obj o, void *p)
{
	switch (o) {
	case O_PD:
		return ibv_dealloc_pd(p);
	case O_CQ:
		return ibv_destroy_cq(p);
	case O_QP:
		return ibv_destroy_qp(p);
	case O_SRQ:
		return ibv_destroy_srq(p);
	case O_AH:
		return ibv_destroy_ah(p);
	case O_MR:
		return ibv_dereg_mr(p);
	}
	return -1;
}

/*
 * Create @o until refused: the refusal must come with an errno, before
 * the advertised @max is passed and before the guest's memory runs low.
 * Objects with large rings also show whose memory they take: what the
 * guest loses must be charged (at least half of it) to our memory
 * cgroup, which bounds a user.
 */
static void limit_one(enum obj o, long max)
{
	long cap = max + 1, n, low = 0, avail0, cg0, avail1, cg1;
	void **v = calloc(cap, sizeof(*v));
	int err = 0, freed_bad = 0;
	time_t t0 = time(NULL);
	void *again;

	if (!v)
		lv_die("calloc");
	avail0 = mem_available_kb();
	cg0 = cg_current_kb();
	for (n = 0; n < cap; n++) {
		if ((big(o) || n % 256 == 0) &&
		    mem_available_kb() < LOW_MEM_KB) {
			low = mem_available_kb();
			break;
		}
		errno = 0;
		v[n] = obj_make(o);
		if (!v[n]) {
			err = errno;
			break;
		}
	}
	avail1 = mem_available_kb();
	cg1 = cg_current_kb();
	printf("# limits: %ld %s in %lds: guest memory available %ld -> %ld MiB, our cgroup %ld -> %ld MiB\n",
	       n, obj_name[o], (long)(time(NULL) - t0), avail0 / 1024,
	       avail1 / 1024, cg0 / 1024, cg1 / 1024);
	if (low)
		lv_check(0,
			 "limits: %s: %ld made, the guest down to %ld MiB available and still no refusal (advertised max %ld)",
			 obj_name[o], n, low / 1024, max);
	else if (n == cap)
		lv_check(0,
			 "limits: %s: %ld made, past the advertised max %ld, no refusal",
			 obj_name[o], n, max);
	else
		lv_check(err != 0,
			 "limits: %s: refused after %ld with %s (advertised max %ld)",
			 obj_name[o], n, err ? strerror(err) : "no errno", max);
	if (big(o) && cg0 >= 0 && avail0 - avail1 >= 64 * 1024)
		lv_check(cg1 - cg0 >= (avail0 - avail1) / 2,
			 "limits: %s: the kernel memory they take is charged to the creator's memory cgroup (guest -%ld MiB, cgroup +%ld MiB)",
			 obj_name[o], (avail0 - avail1) / 1024,
			 (cg1 - cg0) / 1024);
	while (n-- > 0)
		if (obj_free(o, v[n]))
			freed_bad++;
	free(v);
	again = obj_make(o);
	lv_check(!freed_bad && again,
		 "limits: %s: all freed (%d failures), a new one made after",
		 obj_name[o], freed_bad);
	if (again)
		obj_free(o, again);
}

/* an MR that must be refused; the check passes on an errno */
static void mr_refused(const char *what, void *addr, size_t len, int access)
{
	struct ibv_mr *mr;

	errno = 0;
	mr = ibv_reg_mr(lim_pd, addr, len, access);
	lv_check(!mr && errno, "limits: MR %s refused (%s)", what,
		 mr ? "registered" : strerror(errno));
	if (mr)
		ibv_dereg_mr(mr);
}

static void attempt_limits(int gidx)
{
	struct rlimit rl;
	uint8_t *big;
	size_t big_len;

	lim_pd = ibv_alloc_pd(ctx);
	lim_cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	if (!lim_pd || !lim_cq)
		lv_die("limits: pd/cq");
	limit_one(O_PD, dattr.max_pd);
	limit_one(O_CQ, dattr.max_cq);
	limit_one(O_QP, dattr.max_qp);
	limit_one(O_SRQ, dattr.max_srq);
	if (!iwarp && gidx >= 0) {
		lim_ah.is_global = 1;
		lim_ah.port_num = 1;
		lim_ah.grh.sgid_index = gidx;
		lim_ah.grh.hop_limit = 1;
		if (ibv_query_gid(ctx, 1, gidx, &lim_ah.grh.dgid))
			lv_die("query_gid");
		limit_one(O_AH, dattr.max_ah);
	}
	limit_one(O_MR, dattr.max_mr);

	getrlimit(RLIMIT_MEMLOCK, &rl);
	big_len = rl.rlim_cur == RLIM_INFINITY ? 0 : rl.rlim_cur + (1 << 20);
	if (big_len) {
		big = mmap(NULL, big_len, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (big == MAP_FAILED)
			lv_die("mmap");
		mr_refused("1 MiB beyond RLIMIT_MEMLOCK", big, big_len,
			   IBV_ACCESS_LOCAL_WRITE);
		munmap(big, big_len);
	} else {
		lv_check(0, "limits: RLIMIT_MEMLOCK is limited");
	}
	big = mmap(NULL, 1 << 20, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	munmap(big, 1 << 20);
	mr_refused("over unmapped memory", big, 1 << 20,
		   IBV_ACCESS_LOCAL_WRITE);
	mr_refused("wrapping the address space",
		   (void *)(uintptr_t)0xfffffffffffff000ull, 0x2000,
		   IBV_ACCESS_LOCAL_WRITE);
	mr_refused("of 2^40 bytes", abuf, 1ull << 40, IBV_ACCESS_LOCAL_WRITE);
	mr_refused("with REMOTE_WRITE but no LOCAL_WRITE", abuf, 4096,
		   IBV_ACCESS_REMOTE_WRITE);
	ibv_destroy_cq(lim_cq);
	ibv_dealloc_pd(lim_pd);
}

/* ---- wr: work requests through the provider ---- */

/*
 * post @wr on a fresh connection, wait for its completion: 1 if it was
 * refused at post (errno in *@err) or completed with an error or left
 * the QP in ERR; 0 if it completed successfully; -1 on no answer.
 * *@status is the completion's status (or -1).
 */
struct outcome { int post_err, status, state; unsigned int bytes; };

static void outcome_str(const struct outcome *o, char *s, size_t n)
{
	if (o->post_err)
		/* libsiw returns -errno */
		snprintf(s, n, "post: %s", strerror(abs(o->post_err)));
	else if (o->status < 0)
		snprintf(s, n, "no completion, QP %s",
			 lv_qp_state_str(o->state));
	else
		snprintf(s, n, "%s, QP %s",
			 ibv_wc_status_str(o->status),
			 lv_qp_state_str(o->state));
}

static int failed(const struct outcome *o)
{
	return o->post_err || (o->status > 0) || o->state == IBV_QPS_ERR;
}

static void run_wr(struct conn *c, struct ibv_send_wr *wr, struct outcome *o)
{
	struct ibv_send_wr *bad;
	struct ibv_wc wc;

	memset(o, 0, sizeof(*o));
	o->status = -1;
	wr->send_flags |= IBV_SEND_SIGNALED;
	o->post_err = ibv_post_send(c->qp, wr, &bad);
	if (!o->post_err && wait_wc(c->cq, &wc, 5000)) {
		o->status = wc.status;
		o->bytes = wc.byte_len;
	}
	o->state = lv_qp_state(c->qp);
}

/* one WR on its own connection; must end in an error (@must_fail) */
static void wr_case(const char *what, int must_fail, int opcode,
		    uint32_t nsge, uint32_t len0, uint32_t len1, int lkey_foreign,
		    uint64_t raddr_off, int rkey_sel)
{
	struct ibv_sge sge[40];
	struct ibv_send_wr wr = { .opcode = opcode, .sg_list = sge,
				  .num_sge = nsge };
	struct ibv_mr *mr;
	struct outcome o;
	struct conn c;
	char s[96];
	uint32_t i;

	mr = conn_up_mr(&c, what, RING_NONE, NULL);
	if (!mr)
		return;
	for (i = 0; i < nsge && i < 40; i++) {
		sge[i].addr = (uintptr_t)abuf;
		sge[i].length = i ? len1 : len0;
		sge[i].lkey = lkey_foreign ? foreign_mr->lkey : mr->lkey;
	}
	if (lkey_foreign)
		sge[0].addr = (uintptr_t)fbuf;
	if (rkey_sel == 1) {
		wr.wr.rdma.remote_addr = c.rep.rw_addr + raddr_off;
		wr.wr.rdma.rkey = c.rep.rw_rkey;
	} else if (rkey_sel == 2) {
		wr.wr.rdma.remote_addr = c.rep.foreign_addr + raddr_off;
		wr.wr.rdma.rkey = c.rep.foreign_rkey;
	} else if (rkey_sel == 3) {
		wr.wr.rdma.remote_addr = c.rep.ro_addr + raddr_off;
		wr.wr.rdma.rkey = c.rep.ro_rkey;
	}
	run_wr(&c, &wr, &o);
	/*
	 * An iWARP WRITE completes once sent (RFC 5040): the responder's
	 * refusal is a TERMINATE that ends the connection, which ERR shows
	 */
	if (iwarp && must_fail && opcode == IBV_WR_RDMA_WRITE &&
	    o.status == IBV_WC_SUCCESS) {
		for (i = 0; i < 50 && o.state != IBV_QPS_ERR; i++) {
			usleep(100000);
			o.state = lv_qp_state(c.qp);
		}
	}
	outcome_str(&o, s, sizeof(s));
	lv_check((must_fail ? failed(&o) : (failed(&o) || o.status == 0)),
		 "wr: %s: %s", what, s);
	conn_close(&c);
	ibv_dereg_mr(mr);
}

/* a RECEIVE into another PD's MR, filled by the peer's SENDs */
static void wr_foreign_recv(void)
{
	struct ibv_sge sge = { .addr = (uintptr_t)fbuf, .length = 4096,
			       .lkey = foreign_mr->lkey };
	struct ibv_recv_wr rwr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1 },
			   *bad;
	struct ibv_wc wc;
	struct conn c;
	int err, got;
	size_t at;

	if (conn_open(&c, MODE_SENDER, NULL, 0))
		goto fail;
	err = ibv_post_recv(c.qp, &rwr, &bad);
	if (conn_connect(&c, MODE_SENDER, NULL)) {
		conn_close(&c);
		goto fail;
	}
	got = err ? 0 : wait_wc(c.cq, &wc, 5000);
	at = check_fill(fbuf, 4096, 0, 99);
	lv_check((err || (got && wc.status != IBV_WC_SUCCESS)) && at == 4096,
		 "wr: RECEIVE into an MR of another PD: %s; its memory %s",
		 err ? strerror(err) : got ? ibv_wc_status_str(wc.status) :
		 "no completion",
		 at == 4096 ? "unchanged" : "WRITTEN");
	fill(fbuf, 4096, 99);
	conn_close(&c);
	return;
fail:
	lv_check(0, "wr: RECEIVE into an MR of another PD: connect");
}

static void attempt_wr(void)
{
	uint32_t msge = iwarp ? SIW_MAX_SGE : 32;

	wr_case("SEND, one SGE of 0 bytes", 0, IBV_WR_SEND, 1, 0, 0, 0, 0, 0);
	wr_case("SEND of no SGE", 0, IBV_WR_SEND, 0, 0, 0, 0, 0, 0);
	wr_case("SEND, one SGE of 2^32-1 bytes in a 4 KiB MR", 1, IBV_WR_SEND,
		1, 0xffffffffu, 0, 0, 0, 0);
	wr_case("SEND, two SGEs of 2^31-1 and 2^31 bytes", 1, IBV_WR_SEND, 2,
		0x7fffffffu, 0x80000000u, 0, 0, 0);
	wr_case("WRITE of 2^32-1 bytes from a 4 KiB MR", 1,
		IBV_WR_RDMA_WRITE, 1, 0xffffffffu, 0, 0, 0, 1);
	wr_case("READ of 2^31 bytes into a 4 KiB MR", 1, IBV_WR_RDMA_READ, 1,
		0x80000000u, 0, 0, 0, 3);
	wr_case("READ of 4 KiB past the end of the peer's MR", 1,
		IBV_WR_RDMA_READ, 1, 4096, 0, 0, BUF_SIZE - 2048, 3);
	wr_case("WRITE of 0 bytes with the peer's rkey, far address", 0,
		IBV_WR_RDMA_WRITE, 1, 0, 0, 0, 1ull << 40, 1);
	wr_case("SEND with an lkey of another PD", 1, IBV_WR_SEND, 1, 64, 0,
		1, 0, 0);
	wr_case("WRITE with an rkey of the peer's other PD", 1,
		IBV_WR_RDMA_WRITE, 1, 64, 0, 0, 0, 2);
	wr_case("READ with an rkey of the peer's other PD", 1,
		IBV_WR_RDMA_READ, 1, 64, 0, 0, 0, 2);
	wr_case("WRITE into the peer's read-only MR", 1, IBV_WR_RDMA_WRITE, 1,
		64, 0, 0, 0, 3);
	wr_case("opcode 0x55", 1, 0x55, 1, 64, 0, 0, 0, 0);
	wr_case("opcode 0xff", 1, 0xff, 1, 64, 0, 0, 0, 0);
	wr_case("SEND with num_sge past the device maximum", 1, IBV_WR_SEND,
		msge + 1, 8, 8, 0, 0, 0);
	wr_foreign_recv();
}

/* ---- ring: the mmap'd rings written directly ---- */

enum sq_bad {
	SQB_OPCODE, SQB_NUMSGE, SQB_NUMSGE_SLOT, SQB_LEN_MISMATCH,
	SQB_SGE_HUGE, SQB_INLINE_HUGE, SQB_PRIVATE, SQB_FOREIGN_LKEY,
	SQB_SIW_OPS, SQB_NR,
};

static const char *const sqb_name[] = {
	"opcode 0xff", "num_sge 2^32-1 (siw: 255)",
	"num_sge past the slot", "length 2^31 over an 8 B SGE",
	"SGE of 2^32-1 bytes", "inline data longer than the slot",
	"kernel-private fields set (state, status, cur_sge, resid)",
	"lkey of another PD", "kernel-only opcodes (siw)",
};

/* does the case need a failure, or is correct work fine too */
static int sqb_must_fail(int b)
{
	/*
	 * kernel-private fields are the kernel's to ignore; a length the
	 * SGEs contradict may be refused or recomputed from the SGEs
	 */
	return b != SQB_PRIVATE && b != SQB_LEN_MISMATCH;
}

/* a valid SEND of @len bytes of abuf into slot @i (rxe) */
static void rxe_wqe_send(struct rxe_send_wqe *w, uint32_t lkey, uint32_t len,
			 uint64_t id)
{
	memset(w, 0, sizeof(*w) + sizeof(struct rxe_sge));
	w->wr.wr_id = id;
	w->wr.opcode = IBV_WR_SEND;
	w->wr.send_flags = IBV_SEND_SIGNALED;
	w->dma.length = len;
	w->dma.resid = len;
	w->dma.num_sge = 1;
	w->dma.sge[0].addr = (uintptr_t)abuf;
	w->dma.sge[0].length = len;
	w->dma.sge[0].lkey = lkey;
}

static void siw_sqe_send(struct siw_sqe *s, uint32_t lkey, uint32_t len,
			 uint64_t id)
{
	memset(s, 0, sizeof(*s));
	s->id = id;
	s->num_sge = 1;
	s->opcode = SIW_OP_SEND;
	s->sge[0].laddr = (uintptr_t)abuf;
	s->sge[0].length = len;
	s->sge[0].lkey = lkey;
	__atomic_store_n(&s->flags, SIW_WQE_VALID | SIW_WQE_SIGNALLED,
			 __ATOMIC_RELEASE);
}

/* publish one more WQE of @r (rxe: the producer index) */
static void rxe_publish(struct ring *r)
{
	struct rxe_queue_buf *q = (void *)r->base;

	r->prod = (r->prod + 1) & r->mask;
	__atomic_store_n(&q->producer_index, r->prod, __ATOMIC_RELEASE);
}

/* wait for a completion or the QP's ERR; fill @o */
static void ring_outcome(struct conn *c, int post_err, struct outcome *o)
{
	struct ibv_wc wc;

	memset(o, 0, sizeof(*o));
	o->post_err = post_err;
	o->status = -1;
	if (wait_wc(c->cq, &wc, 3000))
		o->status = wc.status;
	o->state = lv_qp_state(c->qp);
}

static void ring_sq_case(int b)
{
	struct ibv_mr *mr;
	struct outcome o;
	struct conn c;
	char what[96], s[96];
	int err;

	snprintf(what, sizeof(what), "ring: SQ WQE, %s", sqb_name[b]);
	/* our MR for the SGEs lives in the QP's PD */
	mr = conn_up_mr(&c, what, RING_SQ,
			"SQ ring found in /proc/self/maps");
	if (!mr)
		return;
	if (!iwarp) {
		struct rxe_send_wqe *w = rxe_slot(&c.sq, c.sq.prod);
		size_t slot = (size_t)1 << c.sq.log2;

		rxe_wqe_send(w, mr->lkey, 8, 7);
		switch (b) {
		case SQB_OPCODE:
			w->wr.opcode = 0xff;
			break;
		case SQB_NUMSGE:
			w->dma.num_sge = 0xffffffffu;
			break;
		case SQB_NUMSGE_SLOT:
			w->dma.num_sge = (slot - sizeof(*w)) /
					 sizeof(struct rxe_sge) + 1;
			break;
		case SQB_LEN_MISMATCH:
			w->dma.length = 0x80000000u;
			w->dma.resid = 0x80000000u;
			break;
		case SQB_SGE_HUGE:
			w->dma.sge[0].length = 0xffffffffu;
			w->dma.length = w->dma.resid = 0xffffffffu;
			break;
		case SQB_INLINE_HUGE:
			w->wr.send_flags |= IBV_SEND_INLINE;
			w->dma.length = w->dma.resid = 0xffff;
			break;
		case SQB_PRIVATE:
			w->state = 0xdeadbeef;
			w->status = 0x55;
			w->dma.cur_sge = 0x7ffffff0;
			w->dma.sge_offset = 0xfffffff0;
			w->dma.resid = 0x40000000;
			w->mask = 0xffffffff;
			w->first_psn = 0xabcdef;
			w->has_rd_atomic = 7;
			break;
		case SQB_FOREIGN_LKEY:
			w->dma.sge[0].lkey = foreign_mr->lkey;
			w->dma.sge[0].addr = (uintptr_t)fbuf;
			break;
		}
		rxe_publish(&c.sq);
	} else {
		struct siw_sqe *q = (void *)c.sq.base;

		siw_sqe_send(&q[0], mr->lkey, 8, 7);
		switch (b) {
		case SQB_OPCODE:
			q[0].opcode = 0xff;
			break;
		case SQB_NUMSGE:
			q[0].num_sge = 255;
			break;
		case SQB_NUMSGE_SLOT:
			q[0].num_sge = SIW_MAX_SGE + 1;
			break;
		case SQB_LEN_MISMATCH:
			q[0].num_sge = 0;
			q[0].sge[0].length = 0x80000000u;
			break;
		case SQB_SGE_HUGE:
			q[0].sge[0].length = 0xffffffffu;
			break;
		case SQB_INLINE_HUGE:
			q[0].sge[0].length = 0xffff;
			q[0].flags |= SIW_WQE_INLINE;
			break;
		case SQB_PRIVATE:
			q[0].flags |= SIW_WQE_COMPLETED | SIW_WQE_REM_INVAL;
			q[0].rkey = 0xffffffff;
			break;
		case SQB_FOREIGN_LKEY:
			q[0].sge[0].lkey = foreign_mr->lkey;
			q[0].sge[0].laddr = (uintptr_t)fbuf;
			break;
		case SQB_SIW_OPS:
			q[0].opcode = SIW_OP_READ_RESPONSE;
			q[1] = q[0];
			q[1].opcode = SIW_OP_REG_MR;
			q[1].base_mr = (uintptr_t)foreign_mr;
			q[2] = q[0];
			q[2].opcode = SIW_OP_INVAL_STAG;
			q[2].rkey = foreign_mr->rkey;
			q[3] = q[0];
			q[3].opcode = SIW_OP_RECEIVE;
			break;
		}
	}
	err = lv_doorbell(c.qp);
	ring_outcome(&c, err, &o);
	outcome_str(&o, s, sizeof(s));
	lv_check(sqb_must_fail(b) ? failed(&o) : (failed(&o) || o.status == 0),
		 "%s: %s", what, s);
	conn_close(&c);
	ibv_dereg_mr(mr);
}

/* the producer index far ahead, then the header's mask and size changed */
static void ring_sq_header(int which)
{
	static const char *const name[] = {
		"producer index 2^31 past the consumer",
		"header index_mask 2^32-1 and log2_elem_size 31",
	};
	struct rxe_queue_buf *q;
	struct ibv_mr *mr;
	struct outcome o;
	struct conn c;
	char what[96], s[96];
	int err, i;

	snprintf(what, sizeof(what), "ring: SQ %s", name[which]);
	mr = conn_up_mr(&c, what, RING_SQ, "SQ ring found");
	if (!mr)
		return;
	q = (void *)c.sq.base;
	/* every slot a valid 8 B SEND: whatever the kernel takes is sane */
	for (i = 0; i < (int)c.sq.nslots; i++)
		rxe_wqe_send(rxe_slot(&c.sq, i), mr->lkey, 8, 100 + i);
	if (which == 0) {
		__atomic_store_n(&q->producer_index, 0x80000000u + 3,
				 __ATOMIC_RELEASE);
	} else {
		q->index_mask = 0xffffffffu;
		q->log2_elem_size = 31;
		rxe_publish(&c.sq);
	}
	err = lv_doorbell(c.qp);
	ring_outcome(&c, err, &o);
	/* drain what else completes */
	{
		struct ibv_wc wc;
		int n = 0;

		while (wait_wc(c.cq, &wc, 500) && n < 4096)
			n++;
	}
	o.state = lv_qp_state(c.qp);
	outcome_str(&o, s, sizeof(s));
	lv_check(1, "%s: %s", what, s);
	conn_close(&c);
	ibv_dereg_mr(mr);
}

/* receive WQEs scribbled, then the peer SENDs into them */
static void ring_rq_case(int b)
{
	static const char *const name[] = {
		"num_sge 2^32-1 (siw: 255)", "SGE of 2^32-1 bytes in a 4 KiB MR",
		"lkey of another PD", "length 2^31 over a 64 B SGE",
	};
	struct ibv_mr *mr;
	struct ibv_wc wc;
	struct conn c;
	char what[96];
	int got;
	size_t at;

	snprintf(what, sizeof(what), "ring: RQ WQE, %s", name[b]);
	if (conn_open(&c, MODE_SENDER, NULL, 0)) {
		lv_check(0, "%s: QP", what);
		return;
	}
	if (!c.rq.base) {
		lv_check(0, "%s: RQ ring found in /proc/self/maps", what);
		conn_close(&c);
		return;
	}
	mr = ibv_reg_mr(c.pd, abuf, 4096, IBV_ACCESS_LOCAL_WRITE);
	if (!mr)
		lv_die("reg_mr");
	if (!iwarp) {
		struct rxe_recv_wqe *w = rxe_slot(&c.rq, c.rq.prod);

		memset(w, 0, sizeof(*w) + sizeof(struct rxe_sge));
		w->wr_id = 5;
		w->dma.num_sge = 1;
		w->dma.length = w->dma.resid = 4096;
		w->dma.sge[0].addr = (uintptr_t)abuf;
		w->dma.sge[0].length = 4096;
		w->dma.sge[0].lkey = mr->lkey;
		if (b == 0)
			w->dma.num_sge = 0xffffffffu;
		else if (b == 1)
			w->dma.sge[0].length = w->dma.length = 0xffffffffu;
		else if (b == 2) {
			w->dma.sge[0].lkey = foreign_mr->lkey;
			w->dma.sge[0].addr = (uintptr_t)fbuf;
		} else {
			w->dma.sge[0].length = 64;
			w->dma.length = w->dma.resid = 0x80000000u;
		}
		rxe_publish(&c.rq);
	} else {
		struct siw_rqe *r = (void *)c.rq.base;

		memset(r, 0, sizeof(*r));
		r->id = 5;
		r->num_sge = 1;
		r->sge[0].laddr = (uintptr_t)abuf;
		r->sge[0].length = 4096;
		r->sge[0].lkey = mr->lkey;
		if (b == 0)
			r->num_sge = 255;
		else if (b == 1)
			r->sge[0].length = 0xffffffffu;
		else if (b == 2) {
			r->sge[0].lkey = foreign_mr->lkey;
			r->sge[0].laddr = (uintptr_t)fbuf;
		} else {
			r->sge[0].length = 64;
			r->num_sge = 0;
		}
		__atomic_store_n(&r->flags, SIW_WQE_VALID, __ATOMIC_RELEASE);
	}
	if (conn_connect(&c, MODE_SENDER, NULL)) {
		/* refusing the connection is an answer too */
		lv_check(1, "%s: connection refused", what);
		conn_close(&c);
		ibv_dereg_mr(mr);
		return;
	}
	got = wait_wc(c.cq, &wc, 5000);
	at = check_fill(fbuf, 4096, 0, 99);
	/*
	 * b == 1 (a huge SGE in a small MR) may deliver a 1000 B SEND into
	 * the MR's first 4 KiB correctly; the others must fail.  On RoCE the
	 * refused WQE itself completes in error with its wr_id (IBA
	 * 10.8.3.1), also the malformed one the ring snapshot refuses.
	 */
	lv_check(at == 4096 && (b == 1 ? 1 :
				!iwarp ? got && wc.wr_id == 5 &&
					 wc.status != IBV_WC_SUCCESS :
				!got || wc.status != IBV_WC_SUCCESS ||
				lv_qp_state(c.qp) == IBV_QPS_ERR),
		 "%s: %s (wr_id %llu), QP %s, another PD's memory %s", what,
		 got ? ibv_wc_status_str(wc.status) : "no completion",
		 got ? (unsigned long long)wc.wr_id : 0ULL,
		 lv_qp_state_str(lv_qp_state(c.qp)),
		 at == 4096 ? "unchanged" : "WRITTEN");
	fill(fbuf, 4096, 99);
	conn_close(&c);
	ibv_dereg_mr(mr);
}

/* the CQ claimed full by its consumer index (rxe) or all slots valid (siw) */
static void ring_cq_full(void)
{
	const char *what = "ring: CQ claimed full by user space, then SENDs";
	struct ibv_mr *mr;
	struct outcome o;
	struct conn c;
	char s[96];
	int i, err = 0;

	mr = conn_up_mr(&c, what, RING_CQ, "CQ ring found");
	if (!mr)
		return;
	if (!iwarp) {
		struct rxe_queue_buf *q = (void *)c.cqr.base;

		__atomic_store_n(&q->consumer_index,
				 (q->producer_index + 1) & c.cqr.mask,
				 __ATOMIC_RELEASE);
		for (i = 0; i < 8; i++) {
			rxe_wqe_send(rxe_slot(&c.sq, c.sq.prod), mr->lkey, 8, i);
			rxe_publish(&c.sq);
		}
	} else {
		struct siw_cqe *cq = (void *)c.cqr.base;
		struct siw_sqe *q = (void *)c.sq.base;

		for (i = 0; i < (int)c.cqr.nslots; i++)
			cq[i].flags = SIW_WQE_VALID;
		for (i = 0; i < 8; i++)
			siw_sqe_send(&q[i], mr->lkey, 8, i);
	}
	err = lv_doorbell(c.qp);
	sleep(1);
	memset(&o, 0, sizeof(o));
	o.post_err = err;
	o.status = -1;
	o.state = lv_qp_state(c.qp);
	outcome_str(&o, s, sizeof(s));
	lv_check(1, "%s: %s", what, s);
	/* the CQ's ring is garbage to libibverbs now: never poll it */
	conn_close(&c);
	ibv_dereg_mr(mr);
}

struct scribbler {
	struct ring *r;
	volatile int stop;
	unsigned int seed;
};

static void *scribble(void *arg)
{
	struct scribbler *s = arg;
	uint8_t *b = s->r->base;
	size_t len = s->r->len;

	while (!s->stop) {
		size_t off = rand_r(&s->seed) % len;

		b[off] = (uint8_t)rand_r(&s->seed);
		if ((rand_r(&s->seed) & 7) == 0 && len >= 8)
			((uint32_t *)b)[rand_r(&s->seed) % (len / 4)] =
				rand_r(&s->seed) | (uint32_t)rand_r(&s->seed) << 16;
	}
	return NULL;
}

/* a thread writes random bytes over the SQ while WQEs are posted */
static void ring_race(void)
{
	const char *what = "ring: random bytes over the SQ while 2000 doorbells ring";
	struct scribbler sc = { .seed = 12345 };
	struct ibv_mr *mr;
	struct ibv_wc wc[16];
	pthread_t t;
	struct conn c;
	int i, errs = 0, st;
	unsigned int cqes = 0;

	mr = conn_up_mr(&c, what, RING_SQ, "SQ ring found");
	if (!mr)
		return;
	sc.r = &c.sq;
	if (pthread_create(&t, NULL, scribble, &sc))
		lv_die("pthread_create");
	for (i = 0; i < 2000; i++) {
		int n;

		if (!iwarp) {
			rxe_wqe_send(rxe_slot(&c.sq, c.sq.prod), mr->lkey,
				     64, i);
			rxe_publish(&c.sq);
		} else {
			struct siw_sqe *q = (void *)c.sq.base;

			siw_sqe_send(&q[i % c.sq.nslots], mr->lkey, 64, i);
		}
		if (lv_doorbell(c.qp))
			errs++;
		/* the CQ ring is intact: only the SQ's is scribbled */
		while ((n = ibv_poll_cq(c.cq, 16, wc)) > 0)
			cqes += n;
	}
	sc.stop = 1;
	pthread_join(t, NULL);
	st = lv_qp_state(c.qp);
	lv_check(1, "%s: %d doorbells refused, %u completions, QP %s", what,
		 errs, cqes, lv_qp_state_str(st));
	conn_close(&c);
	ibv_dereg_mr(mr);
}

static void attempt_ring(void)
{
	int b;

	for (b = 0; b < SQB_NR; b++)
		if (b != SQB_SIW_OPS || iwarp)
			ring_sq_case(b);
	if (!iwarp) {
		ring_sq_header(0);
		ring_sq_header(1);
	}
	for (b = 0; b < 4; b++)
		ring_rq_case(b);
	ring_cq_full();
	ring_race();
}

/* ---- avflip ---- */

static union ibv_gid gid_of(const char *addr)
{
	union ibv_gid g;

	memset(&g, 0, sizeof(g));
	if (strchr(addr, ':')) {
		inet_pton(AF_INET6, addr, g.raw);
	} else {
		g.raw[10] = g.raw[11] = 0xff;
		inet_pton(AF_INET, addr, g.raw + 12);
	}
	return g;
}

struct rstat {
	unsigned int posted, reads, bad, rerr, post_err;
	int first_status;
};

static void read_done(struct rstat *st, const struct ibv_wc *wc,
		      const uint8_t *rbuf)
{
	if (wc->status != IBV_WC_SUCCESS) {
		if (st->first_status < 0)
			st->first_status = wc->status;
		st->rerr++;
		return;
	}
	st->reads++;
	if (check_fill(rbuf + wc->wr_id * 65536, 65536,
		       (wc->wr_id % 8) * 65536, 3) != 65536)
		st->bad++;
}

/*
 * @how 0: RTS -> SQD -> RTS; 1: the same with SQD -> SQD + IBV_QP_AV to
 * the IPv4 GIDs it has; 2: the AV flipped between the IPv4-mapped and
 * the IPv6 GIDs of both ends every round.  READs of the peer's memory in
 * flight all along, the peer READing ours.
 */
static void avflip_run(int how, const char *peer4, const char *peer6, int g4,
		       int g6, int rounds)
{
	static const char *const hname[] = {
		"RTS -> SQD -> RTS",
		"RTS -> SQD -> SQD+AV (IPv4, unchanged) -> RTS",
		"RTS -> SQD -> SQD+AV (IPv4 <-> IPv6) -> RTS",
	};
	union ibv_gid dg[2] = { gid_of(peer4), gid_of(peer6) };
	int sg[2] = { g4, g6 };
	struct rstat st = { .first_status = -1 };
	struct ibv_mr *mr, *lmr;
	struct ibv_wc wc[16];
	struct conn c;
	int r, n, i, mod_err = 0, first_err = 0, waited;
	uint8_t *rbuf = xalloc(16 * 65536);

	fill(abuf, BUF_SIZE, 17);
	if (conn_open(&c, MODE_READLOAD, NULL, 0))
		goto fail;
	/* our memory for the peer's READs */
	mr = ibv_reg_mr(c.pd, abuf, BUF_SIZE,
			IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
	lmr = ibv_reg_mr(c.pd, rbuf, 16 * 65536, IBV_ACCESS_LOCAL_WRITE);
	if (!mr || !lmr || conn_connect(&c, MODE_READLOAD, mr)) {
		conn_close(&c);
		goto fail;
	}
	for (r = 0; r < rounds; r++) {
		struct ibv_qp_attr a;
		int k = how == 2 ? !(r & 1) : 0;

		/* keep up to 8 READs of 64 KiB in flight */
		while (st.posted - st.reads - st.rerr < 8) {
			unsigned int slot = st.posted % 16;
			struct ibv_sge sge = {
				.addr = (uintptr_t)rbuf + slot * 65536,
				.length = 65536, .lkey = lmr->lkey };
			struct ibv_send_wr wr = {
				.wr_id = slot, .sg_list = &sge, .num_sge = 1,
				.opcode = IBV_WR_RDMA_READ,
				.send_flags = IBV_SEND_SIGNALED }, *bw;

			wr.wr.rdma.remote_addr = c.rep.ro_addr +
						 (slot % 8) * 65536;
			wr.wr.rdma.rkey = c.rep.ro_rkey;
			if (ibv_post_send(c.qp, &wr, &bw)) {
				st.post_err++;
				break;
			}
			st.posted++;
		}
		memset(&a, 0, sizeof(a));
		a.qp_state = IBV_QPS_SQD;
		if (ibv_modify_qp(c.qp, &a, IBV_QP_STATE))
			goto moderr;
		if (how) {
			memset(&a, 0, sizeof(a));
			a.qp_state = IBV_QPS_SQD;
			a.ah_attr.is_global = 1;
			a.ah_attr.port_num = 1;
			a.ah_attr.grh.dgid = dg[k];
			a.ah_attr.grh.sgid_index = sg[k];
			a.ah_attr.grh.hop_limit = 64;
			if (ibv_modify_qp(c.qp, &a, IBV_QP_STATE | IBV_QP_AV))
				goto moderr;
		}
		memset(&a, 0, sizeof(a));
		a.qp_state = IBV_QPS_RTS;
		if (ibv_modify_qp(c.qp, &a, IBV_QP_STATE))
			goto moderr;
		goto polled;
moderr:
		if (!mod_err++)
			first_err = errno;
polled:
		usleep(20000);
		while ((n = ibv_poll_cq(c.cq, 16, wc)) > 0)
			for (i = 0; i < n; i++)
				read_done(&st, &wc[i], rbuf);
		if (lv_qp_state(c.qp) == IBV_QPS_ERR)
			break;
	}
	/* what is still in flight: up to 10 s of no progress */
	waited = 0;
	while (st.posted > st.reads + st.rerr && waited < 10) {
		if (wait_wc(c.cq, wc, 1000))
			read_done(&st, &wc[0], rbuf);
		else
			waited++;
	}
	lv_check(!st.bad && st.posted == st.reads + st.rerr,
		 "avflip: %d rounds %s (%d refused, first %s): %u READs of 64 KiB posted (%u posts refused), %u right, %u wrong, %u failed (%s), %u never completed, QP %s",
		 r, hname[how], mod_err, first_err ? strerror(first_err) : "-",
		 st.posted, st.post_err, st.reads, st.bad, st.rerr,
		 st.first_status < 0 ? "-" : ibv_wc_status_str(st.first_status),
		 st.posted - st.reads - st.rerr,
		 lv_qp_state_str(lv_qp_state(c.qp)));
	conn_close(&c);
	ibv_dereg_mr(lmr);
	ibv_dereg_mr(mr);
	free(rbuf);
	return;
fail:
	lv_check(0, "avflip: %s: connect to the peer", hname[how]);
	free(rbuf);
}

static void attempt_avflip(const char *peer4, const char *peer6, int g4,
			   int g6, int rounds)
{
	int how;

	if (g4 < 0 || g6 < 0 || !peer6) {
		lv_check(0, "avflip: needs -g, -G and -6");
		return;
	}
	for (how = 0; how < 3; how++)
		avflip_run(how, peer4, peer6, g4, g6, rounds);
}

/* ---- the peer ---- */

struct pconn {
	struct rdma_cm_id *id;
	struct ibv_cq *cq;
	struct hu_req req;
	pthread_t reader;
	int has_reader;
	volatile int stop;
	struct ibv_mr *rmr;	/* for READ load */
	uint8_t *rbuf;
	unsigned int reads, bad, failed;
};

static struct ibv_pd *p_pd;
static struct ibv_mr *p_ro, *p_rw, *p_foreign, *p_recv, *p_msg;
static uint8_t *p_robuf, *p_rwbuf, *p_fbuf, *p_recvbuf, *p_msgbuf;
static unsigned int p_total_reads, p_total_bad, p_conns, p_foreign_bad;

static void *p_readload(void *arg)
{
	struct pconn *pc = arg;
	struct ibv_wc wc[16];
	unsigned int posted = 0, done = 0;
	int n, i;

	while (!pc->stop) {
		while (posted - done < 4) {
			unsigned int slot = posted % 8;
			struct ibv_sge sge = {
				.addr = (uintptr_t)pc->rbuf + slot * 65536,
				.length = 65536, .lkey = pc->rmr->lkey };
			struct ibv_send_wr wr = {
				.wr_id = slot, .sg_list = &sge, .num_sge = 1,
				.opcode = IBV_WR_RDMA_READ,
				.send_flags = IBV_SEND_SIGNALED }, *bw;

			wr.wr.rdma.remote_addr = pc->req.addr +
				(uint64_t)(slot * 65536) % pc->req.len;
			wr.wr.rdma.rkey = pc->req.rkey;
			if (pc->req.len < 65536 * 8 ||
			    ibv_post_send(pc->id->qp, &wr, &bw))
				goto out;
			posted++;
		}
		n = ibv_poll_cq(pc->cq, 16, wc);
		if (n < 0)
			break;
		for (i = 0; i < n; i++) {
			if (wc[i].opcode != IBV_WC_RDMA_READ &&
			    wc[i].status == IBV_WC_SUCCESS)
				continue;
			if (wc[i].status == IBV_WC_WR_FLUSH_ERR &&
			    wc[i].opcode != IBV_WC_RDMA_READ)
				continue;
			done++;
			if (wc[i].status != IBV_WC_SUCCESS) {
				pc->failed++;
				goto out;
			}
			pc->reads++;
			if (check_fill(pc->rbuf + wc[i].wr_id * 65536, 65536,
				       wc[i].wr_id * 65536, 17) != 65536)
				pc->bad++;
		}
		if (!n)
			usleep(1000);
	}
out:
	return NULL;
}

static void p_accept(struct rdma_cm_id *id, const struct hu_req *req)
{
	struct ibv_qp_init_attr qa = {
		.cap = { .max_send_wr = 32, .max_recv_wr = RECVS,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
	};
	struct hu_rep rep = {
		.magic = MAGIC,
		.ro_addr = (uintptr_t)p_robuf, .ro_rkey = p_ro->rkey,
		.rw_addr = (uintptr_t)p_rwbuf, .rw_rkey = p_rw->rkey,
		.foreign_addr = (uintptr_t)p_fbuf,
		.foreign_rkey = p_foreign->rkey,
		.len = BUF_SIZE,
	};
	struct rdma_conn_param cp = {
		.private_data = &rep, .private_data_len = sizeof(rep),
		.responder_resources = 8, .initiator_depth = 8,
		.retry_count = 3, .rnr_retry_count = 3,
	};
	struct pconn *pc = calloc(1, sizeof(*pc));
	int i;

	if (!pc)
		lv_die("calloc");
	pc->id = id;
	pc->req = *req;
	id->context = pc;
	pc->cq = ibv_create_cq(id->verbs, 256, NULL, NULL, 0);
	qa.send_cq = qa.recv_cq = pc->cq;
	if (!pc->cq || rdma_create_qp(id, p_pd, &qa)) {
		perror("peer: QP");
		goto reject;
	}
	for (i = 0; i < RECVS; i++) {
		struct ibv_sge sge = {
			.addr = (uintptr_t)p_recvbuf + i * 4096,
			.length = 4096, .lkey = p_recv->lkey };
		struct ibv_recv_wr wr = { .wr_id = i, .sg_list = &sge,
					  .num_sge = 1 }, *bad;

		if (ibv_post_recv(id->qp, &wr, &bad))
			break;
	}
	if (req->mode == MODE_READLOAD) {
		pc->rbuf = xalloc(8 * 65536);
		pc->rmr = ibv_reg_mr(p_pd, pc->rbuf, 8 * 65536,
				     IBV_ACCESS_LOCAL_WRITE);
		if (!pc->rmr)
			goto reject;
	}
	if (rdma_accept(id, &cp)) {
		perror("peer: rdma_accept");
		goto reject;
	}
	p_conns++;
	return;
reject:
	rdma_reject(id, NULL, 0);
	if (id->qp)
		rdma_destroy_qp(id);
	id->context = NULL;
	if (pc->rmr)
		ibv_dereg_mr(pc->rmr);
	if (pc->cq)
		ibv_destroy_cq(pc->cq);
	free(pc->rbuf);
	free(pc);
}

static void p_established(struct pconn *pc)
{
	int i;

	if (pc->req.mode == MODE_SENDER) {
		/* the attacker's receives are there before it connects */
		for (i = 0; i < 4; i++) {
			struct ibv_sge sge = { .addr = (uintptr_t)p_msgbuf,
					       .length = MSG_SIZE,
					       .lkey = p_msg->lkey };
			struct ibv_send_wr wr = { .sg_list = &sge,
						  .num_sge = 1,
						  .opcode = IBV_WR_SEND }, *bad;

			if (ibv_post_send(pc->id->qp, &wr, &bad))
				break;
		}
	} else if (pc->req.mode == MODE_READLOAD) {
		if (!pthread_create(&pc->reader, NULL, p_readload, pc))
			pc->has_reader = 1;
	}
}

/* the end of a connection: its QP gone, our other PD's memory checked */
static void p_close(struct rdma_cm_id *id)
{
	struct pconn *pc = id->context;
	size_t at;

	if (!pc)
		return;
	pc->stop = 1;
	if (pc->has_reader)
		pthread_join(pc->reader, NULL);
	p_total_reads += pc->reads;
	p_total_bad += pc->bad;
	if (pc->has_reader)
		printf("# peer: READ load: %u READs right, %u wrong, %u failed\n",
		       pc->reads, pc->bad, pc->failed);
	rdma_destroy_qp(id);
	ibv_destroy_cq(pc->cq);
	if (pc->rmr)
		ibv_dereg_mr(pc->rmr);
	free(pc->rbuf);
	free(pc);
	id->context = NULL;
	at = check_fill(p_fbuf, BUF_SIZE, 0, 42);
	if (at != BUF_SIZE) {
		p_foreign_bad++;
		printf("# peer: the other PD's MR changed at byte %zu\n", at);
		fill(p_fbuf, BUF_SIZE, 42);
	}
	at = check_fill(p_robuf, BUF_SIZE, 0, 3);
	if (at != BUF_SIZE) {
		p_foreign_bad++;
		printf("# peer: the read-only MR changed at byte %zu\n", at);
		fill(p_robuf, BUF_SIZE, 3);
	}
}

static int run_peer(const char *addr, const char *port)
{
	struct rdma_event_channel *ch = rdma_create_event_channel();
	struct rdma_addrinfo *res;
	struct rdma_cm_id *lid;
	struct rdma_cm_event *ev;
	struct ibv_pd *other;
	int quit = 0;

	if (!ch)
		lv_die("peer: rdma_create_event_channel");
	res = lv_cm_resolve(addr, port, 1);
	if (rdma_create_id(ch, &lid, NULL, RDMA_PS_TCP) ||
	    rdma_bind_addr(lid, res->ai_src_addr) || rdma_listen(lid, 16))
		lv_die("peer: listen");
	ctx = lid->verbs;
	if (!ctx)
		ctx = cm_device(devname);
	p_pd = ibv_alloc_pd(ctx);
	other = ibv_alloc_pd(ctx);
	p_robuf = xalloc(BUF_SIZE);
	p_rwbuf = xalloc(BUF_SIZE);
	p_fbuf = xalloc(BUF_SIZE);
	p_recvbuf = xalloc(RECVS * 4096);
	p_msgbuf = xalloc(4096);
	fill(p_robuf, BUF_SIZE, 3);
	fill(p_fbuf, BUF_SIZE, 42);
	memset(p_msgbuf, 0x5a, 4096);
	if (!p_pd || !other)
		lv_die("peer: PDs");
	p_ro = ibv_reg_mr(p_pd, p_robuf, BUF_SIZE, IBV_ACCESS_REMOTE_READ);
	p_rw = ibv_reg_mr(p_pd, p_rwbuf, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE |
			  IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	p_foreign = ibv_reg_mr(other, p_fbuf, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE |
			       IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	p_recv = ibv_reg_mr(p_pd, p_recvbuf, RECVS * 4096,
			    IBV_ACCESS_LOCAL_WRITE);
	p_msg = ibv_reg_mr(p_pd, p_msgbuf, 4096, IBV_ACCESS_LOCAL_WRITE);
	if (!p_ro || !p_rw || !p_foreign || !p_recv || !p_msg)
		lv_die("peer: MRs");
	printf("# peer: listening on %s port %s\n", addr, port);
	fflush(stdout);

	while (!quit && !rdma_get_cm_event(ch, &ev)) {
		struct rdma_cm_id *id = ev->id;
		struct hu_req req = { 0 };

		switch (ev->event) {
		case RDMA_CM_EVENT_CONNECT_REQUEST:
			if (ev->param.conn.private_data_len >= sizeof(req))
				memcpy(&req, ev->param.conn.private_data,
				       sizeof(req));
			if (req.magic != MAGIC || req.mode == MODE_QUIT) {
				quit = req.mode == MODE_QUIT;
				rdma_reject(id, NULL, 0);
				rdma_ack_cm_event(ev);
				rdma_destroy_id(id);
				continue;
			}
			p_accept(id, &req);
			if (!id->context) {
				rdma_ack_cm_event(ev);
				rdma_destroy_id(id);
				continue;
			}
			break;
		case RDMA_CM_EVENT_ESTABLISHED:
			if (id->context)
				p_established(id->context);
			break;
		case RDMA_CM_EVENT_DISCONNECTED:
		case RDMA_CM_EVENT_CONNECT_ERROR:
		case RDMA_CM_EVENT_UNREACHABLE:
		case RDMA_CM_EVENT_REJECTED:
			rdma_disconnect(id);
			p_close(id);
			rdma_ack_cm_event(ev);
			rdma_destroy_id(id);
			continue;
		default:
			break;
		}
		rdma_ack_cm_event(ev);
	}
	lv_check(p_conns > 0, "peer: served %u connections", p_conns);
	lv_check(!p_foreign_bad,
		 "peer: its read-only MR and its other PD's MR unchanged after every connection");
	if (p_total_reads || p_total_bad)
		lv_check(!p_total_bad,
			 "peer: its READs of the attacker's memory under AV flips: %u right, %u wrong",
			 p_total_reads, p_total_bad);
	rdma_destroy_id(lid);
	rdma_freeaddrinfo(res);
	printf("peer: %d failed\n", lv_failures);
	return lv_failures != 0;
}

/* ---- main ---- */

static int wanted(const char *only, const char *skip, const char *name)
{
	char pat[64];

	snprintf(pat, sizeof(pat), ",%s,", name);
	if (only) {
		char o[256];

		snprintf(o, sizeof(o), ",%s,", only);
		if (!strstr(o, pat))
			return 0;
	}
	if (skip) {
		char s[256];

		snprintf(s, sizeof(s), ",%s,", skip);
		if (strstr(s, pat)) {
			printf("# %s: skipped (-x)\n", name);
			return 0;
		}
	}
	return 1;
}

static time_t took(const char *what, time_t t0)
{
	time_t t = time(NULL);

	printf("# %s: %lds\n", what, (long)(t - t0));
	return t;
}

/* tell the peer to stop: at the end, and on an early exit */
static void quit_peer(void)
{
	static int done;
	struct conn c;

	if (done++ || !peer_ai)
		return;
	if (conn_open(&c, MODE_QUIT, NULL, 0))
		return;
	conn_connect(&c, MODE_QUIT, NULL);	/* rejected */
	conn_close(&c);
}

int main(int argc, char **argv)
{
	const char *only = NULL, *skip = NULL, *peer6 = NULL;
	int c, g4 = -1, g6 = -1, rounds = 40;
	struct lv_cm_args a = { .port = "18990" };
	struct rlimit rl;
	time_t t0;

	while ((c = lv_cm_getopt(argc, argv, "d:g:G:6:x:o:r:", &a)) != -1) {
		switch (c) {
		case 'd':
			devname = optarg;
			break;
		case 'g':
			g4 = atoi(optarg);
			break;
		case 'G':
			g6 = atoi(optarg);
			break;
		case '6':
			peer6 = optarg;
			break;
		case 'x':
			skip = optarg;
			break;
		case 'o':
			only = optarg;
			break;
		case 'r':
			rounds = atoi(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (lv_cm_role(argc, argv, &a) < 0 || !devname)
		goto usage;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("# %s as uid %d, RLIMIT_MEMLOCK %s\n",
	       a.server ? "peer" : "attacker",
	       (int)getuid(),
	       getrlimit(RLIMIT_MEMLOCK, &rl) || rl.rlim_cur == RLIM_INFINITY ?
	       "unlimited" : "limited");
	if (a.server) {
		iwarp = !strncmp(devname, "sw", 2);
		return run_peer(a.addr, a.port);
	}

	ctx = cm_device(devname);
	if (ibv_query_device(ctx, &dattr))
		lv_die("query_device");
	iwarp = ctx->device->transport_type == IBV_TRANSPORT_IWARP;
	peer_ai = lv_cm_resolve(a.addr, a.port, 0);
	atexit(quit_peer);
	abuf = xalloc(BUF_SIZE);
	fbuf = xalloc(4096);
	fill(fbuf, 4096, 99);
	foreign_pd = ibv_alloc_pd(ctx);
	foreign_mr = foreign_pd ? ibv_reg_mr(foreign_pd, fbuf, 4096,
					     IBV_ACCESS_LOCAL_WRITE |
					     IBV_ACCESS_REMOTE_WRITE) : NULL;
	if (!foreign_mr)
		lv_die("foreign MR");
	printf("# device %s (%s): max_pd %d max_cq %d max_qp %d max_srq %d max_ah %d max_mr %d\n",
	       devname, iwarp ? "iWARP" : "RoCE", dattr.max_pd, dattr.max_cq,
	       dattr.max_qp, dattr.max_srq, dattr.max_ah, dattr.max_mr);

	t0 = time(NULL);
	if (wanted(only, skip, "curstate"))
		attempt_curstate();
	t0 = took("curstate", t0);
	if (wanted(only, skip, "wr"))
		attempt_wr();
	t0 = took("wr", t0);
	if (wanted(only, skip, "ring"))
		attempt_ring();
	t0 = took("ring", t0);
	if (!iwarp && wanted(only, skip, "avflip"))
		attempt_avflip(a.addr, peer6, g4, g6, rounds);
	t0 = took("avflip", t0);
	if (wanted(only, skip, "limits"))
		attempt_limits(g4);
	took("limits", t0);

	quit_peer();
	ibv_dereg_mr(foreign_mr);
	ibv_dealloc_pd(foreign_pd);
	printf("hostile_user: %d failed\n", lv_failures);
	return lv_failures != 0;
usage:
	fprintf(stderr,
		"usage: hostile_user -d DEV -s -a ADDR [-p PORT]\n"
		"       hostile_user -d DEV [-g GIDX4 -G GIDX6 -6 PEER6] [-x SKIP,..] [-o ONLY,..] [-r ROUNDS] [-p PORT] SERVER\n");
	return 2;
}
