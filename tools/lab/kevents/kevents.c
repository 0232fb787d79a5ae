// SPDX-License-Identifier: GPL-2.0
/*
 * kevents: the QP affiliated asynchronous events (IBA vol 1 11.6.3.1, the
 * iWARP verbs' alike) as a kernel consumer sees them, through the
 * event_handler of its QPs.  A lab tool (tools/lab/scenarios/kevents.sh),
 * built for each guest's kernel by tools/lab/build-kevents.sh:
 *
 *   modprobe kevents
 *   echo 192.0.2.1 > /sys/module/kevents/parameters/run
 *
 * A write runs every check on the RDMA device the RDMA CM binds the IPv4
 * address to, both ends of each connection on that device (its own
 * address: loopback), one RC connection per check group:
 *
 * - a SEND (data checked), then an orderly rdma_disconnect() from the
 *   client, answered by the server's: neither QP raises any event, both
 *   end in ERR;
 * - the same with the server's QP on an SRQ: it raises
 *   IB_EVENT_QP_LAST_WQE_REACHED once as it leaves, and nothing else;
 * - errors, each on a fresh connection: a WRITE with an R_Key that
 *   names nothing (the responder raises IB_EVENT_QP_ACCESS_ERR), a SEND
 *   longer than the receive WQE (the receive completes with
 *   IB_WC_LOC_LEN_ERR, which reports it: no event on either transport,
 *   as stock rxe; stock siw raises IB_EVENT_QP_FATAL), a SEND into a
 *   receive WQE whose L_Key names nothing (the responder's local
 *   protection error, which the receive's completion reports: no event
 *   on either transport), a SEND from a buffer whose L_Key names nothing
 *   (the requester's local protection error, which the send's completion
 *   reports: no event on either transport, as stock rxe; stock siw
 *   raises IB_EVENT_QP_FATAL besides); iWARP only, an RDMA READ with
 *   local invalidate of a key that cannot be invalidated (the PD's DMA
 *   MR): the data arrives, the READ completes with IB_WC_MW_BIND_ERR and
 *   neither QP raises an event; the requester of a remote error raises
 *   nothing;
 * - RoCE only, two QPs connected by hand (no CM): the first SEND into a
 *   QP still in RTR raises IB_EVENT_COMM_EST once; RTS -> SQD with
 *   IB_QP_EN_SQD_ASYNC_NOTIFY raises IB_EVENT_SQ_DRAINED.
 *
 * Every check is one line in the kernel log, "kevents: ok - DEV: ..." or
 * "kevents: not ok - DEV: ...", then "kevents: DEV: N checks, M failed";
 * the write fails with EIO when a check failed.
 */
#include <linux/inet.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <net/addrconf.h>
#include <net/net_namespace.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

#define KEV_NEV		32	/* slots for enum ib_event_type; the last: any beyond */
#define KEV_BUF		4096	/* each side's buffer */
#define KEV_MSG		64
#define KEV_WAIT_MS	10000	/* what should happen: at most this long */
#define KEV_QUIET_MS	500	/* what should not happen: watched this long */
#define KEV_BAD_KEY	0x5a5a00 /* flips a key's index: a key that names nothing */
#define KEV_PORT	18960

enum { KEV_WR_SEND = 1, KEV_WR_RECV };

/* events, QP and CM, wake every waiter: there are few */
static DECLARE_WAIT_QUEUE_HEAD(kev_wq);

/* what one QP's event_handler saw */
struct kev_events {
	atomic_t n[KEV_NEV];
};

struct kev_side {
	struct rdma_cm_id *id;
	struct ib_qp *qp;
	struct ib_cq *cq;
	struct kev_events ev;
	unsigned long cm;	/* the RDMA_CM_EVENT_*s seen, one bit each */
};

/* how the server's receive WQE is posted on the next connection */
struct kev_recv {
	u32 len;
	bool bad_lkey;
	bool srq;
};

struct kev_run {
	struct ib_device *dev;
	u32 port;
	bool iwarp;
	struct sockaddr_in sin;
	struct rdma_cm_id *listen;
	struct ib_pd *pd;
	u8 *buf;		/* client's at 0, server's at KEV_BUF */
	u64 dma;
	struct ib_srq *srq;
	struct kev_recv recv;
	struct kev_side cli, srv;
	unsigned int checks, failed;
};

#define KEV_CM_ERRORS	(BIT(RDMA_CM_EVENT_ADDR_ERROR) |		\
			 BIT(RDMA_CM_EVENT_ROUTE_ERROR) |		\
			 BIT(RDMA_CM_EVENT_CONNECT_ERROR) |		\
			 BIT(RDMA_CM_EVENT_UNREACHABLE) |		\
			 BIT(RDMA_CM_EVENT_REJECTED))

static __printf(3, 4) bool kev_check(struct kev_run *run, bool ok,
				     const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_info("kevents: %s - %s: %pV\n", ok ? "ok" : "not ok",
		dev_name(&run->dev->dev), &vaf);
	va_end(args);
	run->checks++;
	if (!ok)
		run->failed++;
	return ok;
}

static void kev_qp_event(struct ib_event *event, void *context)
{
	struct kev_events *ev = context;

	atomic_inc(&ev->n[min_t(unsigned int, event->event, KEV_NEV - 1)]);
	wake_up(&kev_wq);
}

static int kev_count(struct kev_events *ev, enum ib_event_type type)
{
	return atomic_read(&ev->n[type]);
}

static int kev_total(struct kev_events *ev)
{
	int i, n = 0;

	for (i = 0; i < KEV_NEV; i++)
		n += atomic_read(&ev->n[i]);
	return n;
}

/* the events @ev saw, as " NAME xN" words (or " none") into @buf */
static const char *kev_seen(struct kev_events *ev, char *buf, size_t len)
{
	size_t n = 0;
	int i, c;

	buf[0] = 0;
	for (i = 0; i < KEV_NEV; i++) {
		c = atomic_read(&ev->n[i]);
		if (c)
			n += scnprintf(buf + n, len - n, " %s x%d",
				       ib_event_msg((enum ib_event_type)i), c);
	}
	if (!n)
		scnprintf(buf, len, " none");
	return buf;
}

static const char *kev_ename(int type)
{
	return type < 0 ? "none" : ib_event_msg((enum ib_event_type)type);
}

static const char *kev_wname(int status)
{
	return status < 0 ? "nothing" : ib_wc_status_msg(status);
}

static bool kev_wait_event(struct kev_events *ev, enum ib_event_type type)
{
	return wait_event_timeout(kev_wq, kev_count(ev, type),
				  msecs_to_jiffies(KEV_WAIT_MS)) > 0;
}

/* @type on @s's CM id, unless a CM error came first */
static bool kev_wait_cm(struct kev_side *s, enum rdma_cm_event_type type)
{
	wait_event_timeout(kev_wq, test_bit(type, &s->cm) ||
			   (READ_ONCE(s->cm) & KEV_CM_ERRORS),
			   msecs_to_jiffies(KEV_WAIT_MS));
	return test_bit(type, &s->cm);
}

/* the status of completion @wr_id on @cq within KEV_WAIT_MS, or -1 */
static int kev_poll(struct ib_cq *cq, u64 wr_id)
{
	unsigned long end = jiffies + msecs_to_jiffies(KEV_WAIT_MS);
	struct ib_wc wc;

	do {
		while (ib_poll_cq(cq, 1, &wc) > 0)
			if (wc.wr_id == wr_id)
				return wc.status;
		usleep_range(1000, 2000);
	} while (time_before(jiffies, end));
	return -1;
}

static int kev_qp_state(struct ib_qp *qp)
{
	struct ib_qp_init_attr init;
	struct ib_qp_attr attr;

	if (ib_query_qp(qp, &attr, IB_QP_STATE, &init))
		return -1;
	return attr.qp_state;
}

static struct ib_qp_init_attr kev_qp_init(struct kev_side *s,
					  struct ib_srq *srq)
{
	struct ib_qp_init_attr init = {
		.event_handler = kev_qp_event,
		.qp_context = &s->ev,
		.send_cq = s->cq,
		.recv_cq = s->cq,
		.srq = srq,
		.cap = { .max_send_wr = 4, .max_recv_wr = srq ? 0 : 4,
			 .max_send_sge = 1, .max_recv_sge = srq ? 0 : 1 },
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.qp_type = IB_QPT_RC,
	};

	return init;
}

static int kev_cm_qp(struct kev_run *run, struct kev_side *s,
		     struct rdma_cm_id *id, struct ib_srq *srq)
{
	struct ib_qp_init_attr init = kev_qp_init(s, srq);
	int err;

	err = rdma_create_qp(id, run->pd, &init);
	if (!err)
		s->qp = id->qp;
	return err;
}

/* the server's receive WQE, as run->recv says, into its buffer */
static int kev_post_recv(struct kev_run *run, struct ib_qp *qp)
{
	struct ib_sge sge = {
		.addr = run->dma + KEV_BUF,
		.length = run->recv.len,
		.lkey = run->pd->local_dma_lkey ^
			(run->recv.bad_lkey ? KEV_BAD_KEY : 0),
	};
	struct ib_recv_wr wr = {
		.wr_id = KEV_WR_RECV,
		.sg_list = &sge,
		.num_sge = 1,
	};

	if (run->recv.srq)
		return ib_post_srq_recv(run->srq, &wr, NULL);
	return ib_post_recv(qp, &wr, NULL);
}

/* @op of @len bytes from the client's buffer; a WRITE goes with @rkey */
static int kev_post_send(struct kev_run *run, struct ib_qp *qp,
			 enum ib_wr_opcode op, u32 len, bool bad_lkey, u32 rkey)
{
	struct ib_sge sge = {
		.addr = run->dma,
		.length = len,
		.lkey = run->pd->local_dma_lkey ^ (bad_lkey ? KEV_BAD_KEY : 0),
	};
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_id = KEV_WR_SEND,
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = op,
			.send_flags = IB_SEND_SIGNALED,
		},
		.remote_addr = run->dma + KEV_BUF,
		.rkey = rkey,
	};

	return ib_post_send(qp, &wr.wr, NULL);
}

static const struct rdma_conn_param kev_conn_param = {
	.responder_resources = 1,
	.initiator_depth = 1,
	.retry_count = 7,
	.rnr_retry_count = 7,
};

/* CONNECT_REQUEST: the server's QP, its receive WQE, the accept */
static int kev_accept(struct kev_run *run, struct rdma_cm_id *id)
{
	struct rdma_conn_param param = kev_conn_param;
	int err;

	if (run->srv.id)
		return -EBUSY;	/* one connection at a time */
	err = kev_cm_qp(run, &run->srv, id, run->recv.srq ? run->srq : NULL);
	if (err)
		return err;
	err = kev_post_recv(run, id->qp);
	if (!err)
		err = rdma_accept(id, &param);
	if (err) {
		rdma_destroy_qp(id);
		run->srv.qp = NULL;
		return err;	/* the CM destroys @id */
	}
	run->srv.id = id;
	return 0;
}

/* every id's handler: the listener's, the client's, the server's */
static int kev_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *event)
{
	struct kev_run *run = id->context;
	struct kev_side *s = id == run->cli.id ? &run->cli : &run->srv;
	int err = 0;

	if (event->event == RDMA_CM_EVENT_CONNECT_REQUEST)
		err = kev_accept(run, id);
	if (!err && event->event < BITS_PER_LONG)
		set_bit(event->event, &s->cm);
	wake_up(&kev_wq);
	return err;
}

/* both ends' CM ids and QPs gone; the CQs and the SRQ too */
static void kev_close(struct kev_run *run)
{
	struct kev_side *sides[] = { &run->cli, &run->srv };
	int i;

	for (i = 0; i < ARRAY_SIZE(sides); i++)
		if (sides[i]->id)
			rdma_destroy_id(sides[i]->id);
	for (i = 0; i < ARRAY_SIZE(sides); i++) {
		if (sides[i]->qp)
			ib_destroy_qp(sides[i]->qp);
		if (!IS_ERR_OR_NULL(sides[i]->cq))
			ib_free_cq(sides[i]->cq);
		memset(sides[i], 0, sizeof(*sides[i]));
	}
	if (run->srq)
		ib_destroy_srq(run->srq);
	run->srq = NULL;
}

/*
 * A client QP connected to a server QP over the RDMA CM, both on
 * run->dev; the server's receive WQE posted as @recv says.
 */
static int kev_connect(struct kev_run *run, const struct kev_recv *recv)
{
	struct rdma_conn_param param = kev_conn_param;
	struct ib_srq_init_attr sattr = {
		.attr = { .max_wr = 4, .max_sge = 1 },
	};
	struct rdma_cm_id *id;
	int err;

	run->recv = *recv;
	memset(run->buf, 0, 2 * KEV_BUF);
	run->cli.cq = ib_alloc_cq(run->dev, NULL, 16, 0, IB_POLL_DIRECT);
	if (IS_ERR(run->cli.cq))
		return PTR_ERR(run->cli.cq);
	run->srv.cq = ib_alloc_cq(run->dev, NULL, 16, 0, IB_POLL_DIRECT);
	if (IS_ERR(run->srv.cq))
		return PTR_ERR(run->srv.cq);
	if (recv->srq) {
		run->srq = ib_create_srq(run->pd, &sattr);
		if (IS_ERR(run->srq)) {
			err = PTR_ERR(run->srq);
			run->srq = NULL;
			return err;
		}
	}
	id = rdma_create_id(&init_net, kev_cm_handler, run, RDMA_PS_TCP,
			    IB_QPT_RC);
	if (IS_ERR(id))
		return PTR_ERR(id);
	run->cli.id = id;
	err = rdma_resolve_addr(id, NULL, (struct sockaddr *)&run->sin,
				KEV_WAIT_MS);
	if (!err && !kev_wait_cm(&run->cli, RDMA_CM_EVENT_ADDR_RESOLVED))
		err = -ETIMEDOUT;
	if (!err)
		err = rdma_resolve_route(id, KEV_WAIT_MS);
	if (!err && !kev_wait_cm(&run->cli, RDMA_CM_EVENT_ROUTE_RESOLVED))
		err = -ETIMEDOUT;
	if (!err)
		err = kev_cm_qp(run, &run->cli, id, NULL);
	if (!err)
		err = rdma_connect(id, &param);
	if (!err && !kev_wait_cm(&run->cli, RDMA_CM_EVENT_ESTABLISHED))
		err = -ECONNREFUSED;
	if (!err && !kev_wait_cm(&run->srv, RDMA_CM_EVENT_ESTABLISHED))
		err = -ETIMEDOUT;
	return err;
}

/* the client ends the connection, the server answers: both see its end */
static bool kev_disconnect(struct kev_run *run)
{
	bool ok;

	ok = !rdma_disconnect(run->cli.id);
	ok &= kev_wait_cm(&run->srv, RDMA_CM_EVENT_DISCONNECTED);
	/* iWARP: the stream may be over already; either way the QP is done */
	rdma_disconnect(run->srv.id);
	ok &= kev_wait_cm(&run->cli, RDMA_CM_EVENT_DISCONNECTED);
	return ok;
}

/* A SEND of KEV_MSG bytes, client to server: received intact? */
static bool kev_send_one(struct kev_run *run, int *status)
{
	int err;

	memset(run->buf, 0x5c, KEV_MSG);
	err = kev_post_send(run, run->cli.qp, IB_WR_SEND, KEV_MSG, false, 0);
	*status = err ? -1 : kev_poll(run->srv.cq, KEV_WR_RECV);
	kev_poll(run->cli.cq, KEV_WR_SEND);
	ib_dma_sync_single_for_cpu(run->dev, run->dma + KEV_BUF, KEV_MSG,
				   DMA_BIDIRECTIONAL);
	return *status == IB_WC_SUCCESS && !memcmp(run->buf, run->buf + KEV_BUF,
						   KEV_MSG);
}

/*
 * An orderly end (IBA 11.6.3.1 defines no event for it; the iWARP verbs
 * report the stream's end through the CM): no event on either QP, or
 * with the server's QP on an SRQ, Last WQE Reached once and nothing else.
 */
static void kev_orderly(struct kev_run *run, bool srq)
{
	const struct kev_recv recv = { .len = KEV_MSG, .srq = srq };
	const char *tag = srq ? "SRQ: " : "";
	char cs[128], ss[128];
	int err, st;

	err = kev_connect(run, &recv);
	if (!kev_check(run, !err, "%sthe RDMA CM connects a QP to another of this device (%d)",
		       tag, err))
		goto out;
	kev_check(run, kev_send_one(run, &st), "%sa SEND %sarrives intact (%s)",
		  tag, srq ? "through the SRQ " : "", kev_wname(st));
	kev_check(run, kev_disconnect(run),
		  "%sorderly rdma_disconnect(): both ends see RDMA_CM_EVENT_DISCONNECTED",
		  tag);
	if (srq)
		kev_wait_event(&run->srv.ev, IB_EVENT_QP_LAST_WQE_REACHED);
	msleep(KEV_QUIET_MS);
	kev_check(run, !kev_total(&run->cli.ev),
		  "%sorderly disconnect: the client's QP raises no event (seen:%s)",
		  tag, kev_seen(&run->cli.ev, cs, sizeof(cs)));
	if (srq) {
		kev_check(run,
			  kev_count(&run->srv.ev, IB_EVENT_QP_LAST_WQE_REACHED) == 1,
			  "SRQ: the server's QP on an SRQ raises IB_EVENT_QP_LAST_WQE_REACHED once as it leaves (seen:%s)",
			  kev_seen(&run->srv.ev, ss, sizeof(ss)));
		kev_check(run, kev_total(&run->srv.ev) == 1,
			  "SRQ: orderly disconnect: the server's QP raises nothing else, no QP_FATAL (seen:%s)",
			  ss);
	} else {
		kev_check(run, !kev_total(&run->srv.ev),
			  "orderly disconnect: the server's QP raises no event, no QP_FATAL (seen:%s)",
			  kev_seen(&run->srv.ev, ss, sizeof(ss)));
	}
	kev_check(run, kev_qp_state(run->cli.qp) == IB_QPS_ERR &&
		  kev_qp_state(run->srv.qp) == IB_QPS_ERR,
		  "%sboth QPs end in ERR (client %d, server %d)", tag,
		  kev_qp_state(run->cli.qp), kev_qp_state(run->srv.qp));
out:
	kev_close(run);
}

enum kev_fault {
	KEV_WRITE_BAD_RKEY,
	KEV_SEND_TOO_LONG,
	KEV_RECV_BAD_LKEY,
	KEV_SEND_BAD_LKEY,
	KEV_READ_INV_BAD,
};

/* one error, provoked on a fresh connection; [0] RoCE, [1] iWARP */
struct kev_fault_case {
	const char *what;
	enum kev_fault fault;
	bool iwarp_only;
	bool server;		/* whose QP raises the event */
	int event[2];		/* IB_EVENT_*, -1: neither QP raises one */
	int send_wc[2];		/* the client's completion, -1: unchecked */
	int recv_wc;		/* the server's receive, -1: unchecked */
};

static const struct kev_fault_case kev_faults[] = {
	{ "a WRITE with an R_Key that names nothing", KEV_WRITE_BAD_RKEY,
	  false, true, { IB_EVENT_QP_ACCESS_ERR, IB_EVENT_QP_ACCESS_ERR },
	  /* an iWARP WRITE completes when sent */
	  { IB_WC_REM_ACCESS_ERR, -1 }, -1 },
	/* the receive's completion reports it (as rxe; siw: QP_FATAL) */
	{ "a SEND longer than the receive WQE", KEV_SEND_TOO_LONG, false, true,
	  { -1, -1 }, { IB_WC_REM_INV_REQ_ERR, -1 }, IB_WC_LOC_LEN_ERR },
	/* the receive's completion reports it (IBA 11.6.2, 11.6.3.1) */
	{ "a SEND into a receive WQE whose L_Key names nothing",
	  KEV_RECV_BAD_LKEY, false, true, { -1, -1 },
	  { IB_WC_REM_OP_ERR, -1 }, IB_WC_LOC_PROT_ERR },
	/* the send's completion reports it: no event (as rxe; siw: QP_FATAL) */
	{ "a SEND from a buffer whose L_Key names nothing", KEV_SEND_BAD_LKEY,
	  false, false, { -1, -1 },
	  { IB_WC_LOC_PROT_ERR, IB_WC_LOC_PROT_ERR }, -1 },
	/* a local error of the READ's, which its completion reports */
	{ "an RDMA READ with local invalidate of a key that cannot be invalidated",
	  KEV_READ_INV_BAD, true, false, { -1, -1 },
	  { -1, IB_WC_MW_BIND_ERR }, -1 },
};

/*
 * An RDMA READ of KEV_MSG bytes from the server's buffer into the
 * client's, invalidating @inv as it ends
 */
static int kev_post_read_inv(struct kev_run *run, u32 inv)
{
	struct ib_sge sge = {
		.addr = run->dma,
		.length = KEV_MSG,
		.lkey = run->pd->local_dma_lkey,
	};
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_id = KEV_WR_SEND,
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = IB_WR_RDMA_READ_WITH_INV,
			.send_flags = IB_SEND_SIGNALED,
			.ex.invalidate_rkey = inv,
		},
		.remote_addr = run->dma + KEV_BUF,
		.rkey = run->pd->unsafe_global_rkey,
	};

	memset(run->buf + KEV_BUF, 0xa7, KEV_MSG);
	ib_dma_sync_single_for_device(run->dev, run->dma + KEV_BUF, KEV_MSG,
				      DMA_BIDIRECTIONAL);
	return ib_post_send(run->cli.qp, &wr.wr, NULL);
}

static void kev_fault(struct kev_run *run, const struct kev_fault_case *c)
{
	struct kev_recv recv = { .len = KEV_MSG };
	int event = c->event[run->iwarp], send_wc = c->send_wc[run->iwarp];
	struct kev_side *raiser = c->server ? &run->srv : &run->cli;
	struct kev_side *other = c->server ? &run->cli : &run->srv;
	int err, sst = -1, rst = -1;
	char cs[128], ss[128];

	if (c->fault == KEV_SEND_TOO_LONG)
		recv.len = KEV_MSG / 2;
	recv.bad_lkey = c->fault == KEV_RECV_BAD_LKEY;
	err = kev_connect(run, &recv);
	if (!kev_check(run, !err, "%s: the RDMA CM connects (%d)", c->what, err))
		goto out;
	if (c->fault == KEV_WRITE_BAD_RKEY)
		err = kev_post_send(run, run->cli.qp, IB_WR_RDMA_WRITE, KEV_MSG,
				    false, run->pd->local_dma_lkey ^ KEV_BAD_KEY);
	else if (c->fault == KEV_READ_INV_BAD)
		/* the PD's DMA MR: not a fast-registration MR */
		err = kev_post_read_inv(run, run->pd->local_dma_lkey);
	else
		err = kev_post_send(run, run->cli.qp, IB_WR_SEND, KEV_MSG,
				    c->fault == KEV_SEND_BAD_LKEY, 0);
	if (!kev_check(run, !err, "%s: posted (%d)", c->what, err))
		goto out;
	if (event >= 0)
		kev_wait_event(&raiser->ev, event);
	if (send_wc >= 0)
		sst = kev_poll(run->cli.cq, KEV_WR_SEND);
	if (c->recv_wc >= 0)
		rst = kev_poll(run->srv.cq, KEV_WR_RECV);
	msleep(KEV_QUIET_MS);
	kev_seen(&run->cli.ev, cs, sizeof(cs));
	kev_seen(&run->srv.ev, ss, sizeof(ss));
	if (event >= 0)
		kev_check(run, kev_count(&raiser->ev, event) == 1 &&
			  kev_total(&raiser->ev) == 1,
			  "%s: the %s's QP raises %s, once, and nothing else (seen:%s)",
			  c->what, c->server ? "server" : "client",
			  kev_ename(event), c->server ? ss : cs);
	kev_check(run, !kev_total(&other->ev) &&
		  (event >= 0 || !kev_total(&raiser->ev)),
		  "%s: %s (client:%s; server:%s)", c->what,
		  event < 0 ? "neither QP raises an event" :
		  c->server ? "the requester raises no event" :
			      "the server raises no event",
		  cs, ss);
	if (send_wc >= 0)
		kev_check(run, sst == send_wc,
			  "%s: the requester's work request completes with %s (%s)",
			  c->what, kev_wname(send_wc), kev_wname(sst));
	if (c->recv_wc >= 0)
		kev_check(run, rst == c->recv_wc,
			  "%s: the receive WQE completes with %s (%s)", c->what,
			  kev_wname(c->recv_wc), kev_wname(rst));
	if (c->fault == KEV_READ_INV_BAD) {
		ib_dma_sync_single_for_cpu(run->dev, run->dma, KEV_MSG,
					   DMA_BIDIRECTIONAL);
		kev_check(run, !memcmp(run->buf, run->buf + KEV_BUF, KEV_MSG),
			  "%s: the data arrives before the invalidate fails",
			  c->what);
	}
out:
	kev_close(run);
}

/* --- RoCE: two QPs connected by hand ----------------------------------- */

static int kev_roce_init(struct ib_qp *qp, u32 port)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.port_num = port,
		.qp_access_flags = IB_ACCESS_LOCAL_WRITE,
	};

	return ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			    IB_QP_PORT | IB_QP_ACCESS_FLAGS);
}

/* INIT -> RTR towards @dest_qpn of this device, through @gid_index */
static int kev_roce_rtr(struct kev_run *run, struct ib_qp *qp, u32 dest_qpn,
			u32 rq_psn, union ib_gid *gid, u32 gid_index)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_RTR,
		.path_mtu = IB_MTU_1024,
		.dest_qp_num = dest_qpn,
		.rq_psn = rq_psn,
		.max_dest_rd_atomic = 1,
		.min_rnr_timer = 12,
	};

	attr.ah_attr.type = rdma_ah_find_type(run->dev, run->port);
	rdma_ah_set_port_num(&attr.ah_attr, run->port);
	rdma_ah_set_grh(&attr.ah_attr, gid, 0, gid_index, 64, 0);
	return ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_AV |
			    IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			    IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
}

static int kev_roce_rts(struct ib_qp *qp, u32 sq_psn)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_RTS,
		.sq_psn = sq_psn,
		.timeout = 14,
		.retry_cnt = 7,
		.rnr_retry = 7,
		.max_rd_atomic = 1,
	};

	return ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_SQ_PSN |
			    IB_QP_TIMEOUT | IB_QP_RETRY_CNT |
			    IB_QP_RNR_RETRY | IB_QP_MAX_QP_RD_ATOMIC);
}

/*
 * IBA 11.6.3.1: A (RTS) sends to B left in RTR: B raises Communication
 * Established on that first packet, once; A, moved RTS -> SQD asking for
 * it, raises SQ Drained, its send queue being empty.  The client side is
 * A, the server side B; no CM.
 */
static void kev_roce_loop(struct kev_run *run)
{
	const struct ib_gid_attr *gattr;
	struct ib_qp_attr sqd = {
		.qp_state = IB_QPS_SQD,
		.en_sqd_async_notify = 1,
	};
	struct ib_qp *a = NULL, *b = NULL;
	struct ib_qp_init_attr init;
	char as[128], bs[128];
	union ib_gid gid;
	int err, st;
	u32 gidx;

	ipv6_addr_set_v4mapped(run->sin.sin_addr.s_addr,
			       (struct in6_addr *)gid.raw);
	gattr = rdma_find_gid(run->dev, &gid, IB_GID_TYPE_ROCE_UDP_ENCAP, NULL);
	if (!kev_check(run, !IS_ERR(gattr), "the RoCEv2 GID of %pI4 is in the table",
		       &run->sin.sin_addr))
		return;
	gidx = gattr->index;
	rdma_put_gid_attr(gattr);

	run->recv = (struct kev_recv){ .len = KEV_MSG };
	memset(run->buf, 0, 2 * KEV_BUF);
	run->cli.cq = ib_alloc_cq(run->dev, NULL, 16, 0, IB_POLL_DIRECT);
	run->srv.cq = ib_alloc_cq(run->dev, NULL, 16, 0, IB_POLL_DIRECT);
	err = IS_ERR(run->cli.cq) ? PTR_ERR(run->cli.cq) :
	      IS_ERR(run->srv.cq) ? PTR_ERR(run->srv.cq) : 0;
	if (!err) {
		init = kev_qp_init(&run->cli, NULL);
		a = ib_create_qp(run->pd, &init);
		run->cli.qp = IS_ERR(a) ? NULL : a;
		init = kev_qp_init(&run->srv, NULL);
		b = ib_create_qp(run->pd, &init);
		run->srv.qp = IS_ERR(b) ? NULL : b;
		err = IS_ERR(a) ? PTR_ERR(a) : IS_ERR(b) ? PTR_ERR(b) : 0;
	}
	if (!err)
		err = kev_roce_init(a, run->port) ?:
		      kev_roce_init(b, run->port) ?:
		      kev_roce_rtr(run, a, b->qp_num, 0x200, &gid, gidx) ?:
		      kev_roce_rts(a, 0x100) ?:
		      kev_roce_rtr(run, b, a->qp_num, 0x100, &gid, gidx) ?:
		      kev_post_recv(run, b);
	if (!kev_check(run, !err, "RC QP A in RTS, B in RTR, connected by hand (%d)",
		       err))
		goto out;
	msleep(KEV_QUIET_MS / 5);
	kev_check(run, !kev_total(&run->srv.ev),
		  "B in RTR raises nothing before a packet arrives (seen:%s)",
		  kev_seen(&run->srv.ev, bs, sizeof(bs)));

	memset(run->buf, 0x5c, KEV_MSG);
	err = kev_post_send(run, a, IB_WR_SEND, KEV_MSG, false, 0);
	st = err ? -1 : kev_poll(run->srv.cq, KEV_WR_RECV);
	ib_dma_sync_single_for_cpu(run->dev, run->dma + KEV_BUF, KEV_MSG,
				   DMA_BIDIRECTIONAL);
	kev_check(run, st == IB_WC_SUCCESS &&
		  !memcmp(run->buf, run->buf + KEV_BUF, KEV_MSG),
		  "A's SEND into B in RTR is received intact (%s)",
		  kev_wname(st));
	kev_wait_event(&run->srv.ev, IB_EVENT_COMM_EST);
	err = kev_roce_rts(b, 0x200);
	st = kev_poll(run->cli.cq, KEV_WR_SEND);
	kev_check(run, !err && st == IB_WC_SUCCESS,
		  "B to RTS (%d); A's SEND completes (%s)", err, kev_wname(st));
	msleep(KEV_QUIET_MS);
	kev_check(run, kev_count(&run->srv.ev, IB_EVENT_COMM_EST) == 1 &&
		  kev_total(&run->srv.ev) == 1,
		  "B raises IB_EVENT_COMM_EST on its first packet in RTR, once, and nothing else (seen:%s)",
		  kev_seen(&run->srv.ev, bs, sizeof(bs)));
	kev_check(run, !kev_total(&run->cli.ev), "A raises no event (seen:%s)",
		  kev_seen(&run->cli.ev, as, sizeof(as)));

	err = ib_modify_qp(a, &sqd, IB_QP_STATE | IB_QP_EN_SQD_ASYNC_NOTIFY);
	if (!err)
		kev_wait_event(&run->cli.ev, IB_EVENT_SQ_DRAINED);
	msleep(KEV_QUIET_MS);
	kev_check(run, !err && kev_count(&run->cli.ev, IB_EVENT_SQ_DRAINED) == 1 &&
		  kev_total(&run->cli.ev) == 1,
		  "A moved RTS -> SQD with IB_QP_EN_SQD_ASYNC_NOTIFY raises IB_EVENT_SQ_DRAINED, once, and nothing else (%d; seen:%s)",
		  err, kev_seen(&run->cli.ev, as, sizeof(as)));
out:
	kev_close(run);
}

/* --- a run ---------------------------------------------------------------- */

/* the listener on @run->sin, which also names the device */
static int kev_listen(struct kev_run *run)
{
	struct rdma_cm_id *id;
	int err;

	id = rdma_create_id(&init_net, kev_cm_handler, run, RDMA_PS_TCP,
			    IB_QPT_RC);
	if (IS_ERR(id))
		return PTR_ERR(id);
	err = rdma_bind_addr(id, (struct sockaddr *)&run->sin);
	if (!err && !id->device)
		err = -ENODEV;	/* an address no RDMA device has */
	if (!err)
		err = rdma_listen(id, 4);
	if (err) {
		rdma_destroy_id(id);
		return err;
	}
	run->listen = id;
	run->dev = id->device;
	run->port = id->port_num;
	run->iwarp = rdma_protocol_iwarp(run->dev, run->port);
	return 0;
}

static int kev_run(__be32 addr)
{
	struct kev_run *run;
	unsigned int i;
	int err;

	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!run)
		return -ENOMEM;
	run->sin.sin_family = AF_INET;
	run->sin.sin_addr.s_addr = addr;
	run->sin.sin_port = htons(KEV_PORT);
	err = kev_listen(run);
	if (err) {
		pr_info("kevents: not ok - %pI4: no RDMA CM listener (%d)\n",
			&addr, err);
		goto out_free;
	}
	run->buf = kzalloc(2 * KEV_BUF, GFP_KERNEL);
	/* its DMA MR's rkey, for the READ (its lkey names it too) */
	run->pd = ib_alloc_pd(run->dev, IB_PD_UNSAFE_GLOBAL_RKEY);
	if (!run->buf || IS_ERR(run->pd)) {
		err = -ENOMEM;
		goto out_free_pd;
	}
	run->dma = ib_dma_map_single(run->dev, run->buf, 2 * KEV_BUF,
				     DMA_BIDIRECTIONAL);
	if (ib_dma_mapping_error(run->dev, run->dma)) {
		err = -ENOMEM;
		goto out_free_pd;
	}
	pr_info("kevents: # %s (%s) at %pI4\n", dev_name(&run->dev->dev),
		run->iwarp ? "iWARP" : "RoCE", &addr);

	kev_orderly(run, false);
	kev_orderly(run, true);
	for (i = 0; i < ARRAY_SIZE(kev_faults); i++)
		if (run->iwarp || !kev_faults[i].iwarp_only)
			kev_fault(run, &kev_faults[i]);
	if (!run->iwarp)
		kev_roce_loop(run);

	pr_info("kevents: %s: %u checks, %u failed\n", dev_name(&run->dev->dev),
		run->checks, run->failed);
	err = run->failed ? -EIO : 0;
	ib_dma_unmap_single(run->dev, run->dma, 2 * KEV_BUF, DMA_BIDIRECTIONAL);
out_free_pd:
	if (!IS_ERR_OR_NULL(run->pd))
		ib_dealloc_pd(run->pd);
	kfree(run->buf);
	rdma_destroy_id(run->listen);
out_free:
	kfree(run);
	return err;
}

/* "echo ADDR > /sys/module/kevents/parameters/run": every check, on ADDR */
static int kev_run_set(const char *val, const struct kernel_param *kp)
{
	__be32 addr;

	if (!in4_pton(val, strcspn(val, "\n"), (u8 *)&addr, -1, NULL))
		return -EINVAL;
	return kev_run(addr);
}

static const struct kernel_param_ops kev_run_ops = {
	.set = kev_run_set,
};

module_param_cb(run, &kev_run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "an IPv4 address of an RDMA device: run the checks there");

MODULE_DESCRIPTION("softrdma lab: QP affiliated events seen by a kernel consumer");
MODULE_LICENSE("GPL");
