// SPDX-License-Identifier: GPL-2.0-only
/*
 * iWARP connection management: the provider side of the kernel's iw_cm
 * for siwarp devices.
 *
 * Each TCP connection (and each listening socket) is an endpoint, struct
 * softrdma_iw_cep, with an explicit state machine (iw_cm_cep.h).  The
 * socket callbacks only queue the endpoint's work item; every protocol
 * step runs there, under the endpoint's mutex, as one step function per
 * state that returns the next state.  The iw_cm's downcalls (connect,
 * accept, reject, listen) take the same mutex.
 *
 * Connections keep their order.  Applications that open several
 * connections back to back pair them with the peer's by that order
 * (perftest -q N with rdma_cm does; stock siw, which connects in the
 * caller, keeps it).  So all endpoints share one ordered workqueue: the
 * steps of different connections run in the order their events came, and
 * a listener reports requests in the order they arrive.  And connects to
 * one peer address take turns (QUEUED): each starts its TCP handshake
 * once the one before has sent its MPA request, because a listener may
 * accept in parallel and then report a request that came with its accept
 * before an earlier one that came after (stock siw does).  A turn costs
 * one round trip.
 *
 * A connection goes: TCP handshake (active side: CONNECTING), MPA request
 * and reply (RFC 5044 7.1, RFC 6581 5) with private data and IRD/ORD, the
 * RTR message of peer-to-peer mode (RFC 6581 4.2) if negotiated, then the
 * socket is handed to the data path with softrdma_iwarp_qp_attach(), which
 * gives it back exactly once through softrdma_iw_cm_conn_closed().
 *
 * Sockets are kernel sockets in the network namespace of the device's
 * netdev.  A namespace going away aborts every endpoint in it before TCP
 * itself goes (pernet exit); rmmod unregisters the devices first, which
 * destroys every cm_id and QP and so every endpoint.
 *
 * Locking, outermost first:
 *   cep->lock			one endpoint's state, socket and cm_id
 *   softrdma_iw_cm_mutex	the list of all endpoints and the listeners'
 *				lists of sockets and pending children
 *   sk->sk_callback_lock	the socket's user data and callbacks
 */
#include <linux/inetdevice.h>
#include <linux/module.h>
#include <linux/net.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/addrconf.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/sock.h>
#include <net/tcp.h>
#include <rdma/iw_cm.h>
#include <rdma/rdma_cm.h>
#include <kunit/visibility.h>

#include "compat.h"
#include "device.h"
#include "iw_cm.h"
#include "iw_cm_cep.h"
#include "iwarp_pdu.h"
#include "iwarp_qp.h"
#include "mpa.h"
#include "param.h"
#include "qp.h"

static unsigned int iw_mpa_timeout_ms = 10000;
module_param(iw_mpa_timeout_ms, uint, 0644);
MODULE_PARM_DESC(iw_mpa_timeout_ms,
		 "iWARP: time for the TCP handshake, MPA exchange and RTR (ms)");

static bool iw_crc = true;
module_param(iw_crc, bool, 0644);
MODULE_PARM_DESC(iw_crc, "iWARP: ask for MPA CRC32c (default: yes)");

/*
 * Off by default, as in stock siw's initiator: a stock siw responder
 * asked for an RTR ignores one that arrives while it is still sending its
 * MPA reply, never reports the connection established, and later hits
 * the iw_cm's BUG on close.  Responders still honour a request for it.
 */
static bool iw_peer_to_peer;
module_param(iw_peer_to_peer, bool, 0644);
MODULE_PARM_DESC(iw_peer_to_peer,
		 "iWARP: initiators ask for RFC 6581 peer-to-peer mode (RTR) (default: no)");

static bool iw_large_fpdu = true;
module_param(iw_large_fpdu, bool, 0644);
MODULE_PARM_DESC(iw_large_fpdu,
		 "iWARP: offer and accept softrdma's larger-FPDU MPA extension");

static unsigned int iw_mpa_rev = IWARP_MPA_REV2;
module_param(iw_mpa_rev, uint, 0644);
MODULE_PARM_DESC(iw_mpa_rev, "iWARP: highest MPA revision to speak (1 or 2)");

/*
 * A peer that vanishes without a FIN or a reset (cable, power, a netdev
 * gone down) would leave an idle connection open forever: TCP keepalive
 * probes it, and TCP_USER_TIMEOUT bounds how long sent data may stay
 * unacknowledged.  Either ends in a socket error, which the data path
 * turns into flushed work requests and a DISCONNECTED event.
 */
static unsigned int iw_keepalive_s = 30;
module_param(iw_keepalive_s, uint, 0644);
MODULE_PARM_DESC(iw_keepalive_s,
		 "iWARP: seconds of silence before a connection is probed; dead after 3 more such periods (0: never)");

/* the RTR message softrdma sends and accepts: a zero-length RDMA Write */
#define SOFTRDMA_IW_RTR		SOFTRDMA_MPA_RTR_WRITE

/* largest MPA frame: header, IRD/ORD block, private data */
#define SOFTRDMA_IW_MPA_MAX \
	(sizeof(struct iwarp_mpa_rr) + IWARP_MPA_PRIV_MAX)

/* the RTR FPDU: a tagged header without payload, then CRC (pad is 0) */
#define SOFTRDMA_IW_RTR_LEN \
	(sizeof(struct iwarp_tagged_hdr) + IWARP_MPA_CRC_SIZE)

struct softrdma_iw_listen;

struct softrdma_iw_cep {
	struct kref ref;
	/* protects everything below but the list links */
	struct mutex lock;
	enum softrdma_iw_cep_state state;

	/* namespace of the socket; the endpoint is aborted before it exits */
	struct net *net;
	struct socket *sock;		/* ours; NULL in RDMA mode */
	struct socket *attached;	/* the data path's, in RDMA mode */
	/* the socket's own callbacks, restored when we let go of it */
	void (*saved_data_ready)(struct sock *sk);
	void (*saved_state_change)(struct sock *sk);

	/*
	 * The connection's cm_id.  While set, the endpoint holds a cm_id
	 * reference (add_ref) and one reference of its own for the
	 * association; both go when the endpoint is CLOSED.
	 */
	struct iw_cm_id *cm_id;
	struct softrdma_qp *qp;		/* with a QP reference, until attach */
	u16 max_rd;			/* the device's IRD/ORD limit */

	/* under softrdma_iw_cm_mutex: */
	struct softrdma_iw_listen *listen;	/* listener or parent */
	struct list_head listen_link;	/* in listen->socks or ->children */
	struct list_head all_link;	/* in softrdma_iw_ceps */
	struct list_head abort_link;	/* softrdma_iw_cm_abort_net()'s */
	/* in softrdma_iw_dialing while QUEUED or CONNECTING */
	struct list_head dial_link;
	struct sockaddr_storage dial_addr;	/* active: the peer */

	struct work_struct work;
	struct delayed_work timeout;
	bool timed_out;			/* the MPA timeout fired */
	bool aborted;			/* namespace or module going */
	bool iwcm_ref;			/* CONNECT_REQUEST gave the iw_cm one */

	/* the MPA frame (or RTR FPDU) being read: bytes wanted, bytes in */
	unsigned int rx_want;
	unsigned int rx_have;
	u8 rx[SOFTRDMA_IW_MPA_MAX];

	/* negotiation */
	struct softrdma_mpa_local mpa_local;
	struct softrdma_mpa_info mpa_req;	/* sent or received request */
	u8 *req_pd;			/* active: our private data */
	struct softrdma_mpa_result mpa_res;

	/* accept waiting for the RTR: done and its result */
	struct completion rtr_done;
	int rtr_err;
	/* conn_closed() or an abort has closed the connection */
	struct completion closed;
};

/*
 * The provider data of a listening cm_id: one listening endpoint per
 * address (several for a wildcard), and the endpoints accepted from them
 * whose MPA request has not been delivered yet.
 */
struct softrdma_iw_listen {
	struct iw_cm_id *cm_id;		/* NULL once destroyed */
	struct list_head socks;
	struct list_head children;
};

/* protects softrdma_iw_ceps, softrdma_iw_dialing and listeners' lists */
static DEFINE_MUTEX(softrdma_iw_cm_mutex);
static LIST_HEAD(softrdma_iw_ceps);
/* active endpoints before their MPA request, in connect order */
static LIST_HEAD(softrdma_iw_dialing);

static struct workqueue_struct *softrdma_iw_wq;

static const char * const softrdma_iw_cep_state_names[] = {
	[SOFTRDMA_IW_CEP_IDLE] = "IDLE",
	[SOFTRDMA_IW_CEP_LISTENING] = "LISTENING",
	[SOFTRDMA_IW_CEP_QUEUED] = "QUEUED",
	[SOFTRDMA_IW_CEP_CONNECTING] = "CONNECTING",
	[SOFTRDMA_IW_CEP_AWAIT_MPA_REP] = "AWAIT_MPA_REP",
	[SOFTRDMA_IW_CEP_AWAIT_MPA_REQ] = "AWAIT_MPA_REQ",
	[SOFTRDMA_IW_CEP_RECVD_MPA_REQ] = "RECVD_MPA_REQ",
	[SOFTRDMA_IW_CEP_AWAIT_RTR] = "AWAIT_RTR",
	[SOFTRDMA_IW_CEP_RDMA_MODE] = "RDMA_MODE",
	[SOFTRDMA_IW_CEP_CLOSING] = "CLOSING",
	[SOFTRDMA_IW_CEP_CLOSED] = "CLOSED",
};

static_assert(ARRAY_SIZE(softrdma_iw_cep_state_names) ==
	      SOFTRDMA_IW_CEP_NR_STATES);

const char *
softrdma_iw_cep_state_name(enum softrdma_iw_cep_state state)
{
	if (state >= SOFTRDMA_IW_CEP_NR_STATES)
		return "?";
	return softrdma_iw_cep_state_names[state];
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_iw_cep_state_name);

#define S(x)	BIT(SOFTRDMA_IW_CEP_##x)

/* the states each state may move to; CLOSED is reachable from all */
static const u16 softrdma_iw_cep_moves[] = {
	[SOFTRDMA_IW_CEP_IDLE] = S(LISTENING) | S(QUEUED) | S(CONNECTING) |
				 S(AWAIT_MPA_REQ) | S(CLOSED),
	[SOFTRDMA_IW_CEP_LISTENING] = S(CLOSED),
	[SOFTRDMA_IW_CEP_QUEUED] = S(CONNECTING) | S(CLOSED),
	[SOFTRDMA_IW_CEP_CONNECTING] = S(AWAIT_MPA_REP) | S(CLOSED),
	[SOFTRDMA_IW_CEP_AWAIT_MPA_REP] = S(RDMA_MODE) | S(CLOSED),
	[SOFTRDMA_IW_CEP_AWAIT_MPA_REQ] = S(RECVD_MPA_REQ) | S(CLOSED),
	[SOFTRDMA_IW_CEP_RECVD_MPA_REQ] = S(AWAIT_RTR) | S(RDMA_MODE) |
					  S(CLOSED),
	[SOFTRDMA_IW_CEP_AWAIT_RTR] = S(RDMA_MODE) | S(CLOSED),
	[SOFTRDMA_IW_CEP_RDMA_MODE] = S(CLOSING) | S(CLOSED),
	[SOFTRDMA_IW_CEP_CLOSING] = S(CLOSED),
	[SOFTRDMA_IW_CEP_CLOSED] = 0,
};

#undef S

static_assert(ARRAY_SIZE(softrdma_iw_cep_moves) == SOFTRDMA_IW_CEP_NR_STATES);

bool softrdma_iw_cep_may_move(enum softrdma_iw_cep_state from,
			      enum softrdma_iw_cep_state to)
{
	if (from >= SOFTRDMA_IW_CEP_NR_STATES ||
	    to >= SOFTRDMA_IW_CEP_NR_STATES)
		return false;
	return softrdma_iw_cep_moves[from] & BIT(to);
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_iw_cep_may_move);

/**
 * softrdma_iw_cm_reply_status() - the CONNECT_REPLY status for a failure
 * @err: why the connection did not come up (-errno), or 0
 *
 * The RDMA CM turns the status into the application's event (cma.c,
 * cma_iw_handler()): -ECONNREFUSED and -ECONNRESET into REJECTED,
 * -ETIMEDOUT into UNREACHABLE, anything else into CONNECT_ERROR.  A TCP
 * reset to our SYN, or an MPA reject, is a refusal; no route or no answer
 * is unreachable; a connection that breaks during MPA, or a peer that
 * breaks MPA's rules, is a reset.  Local failures pass through.
 *
 * Return: the status to report.
 */
int softrdma_iw_cm_reply_status(int err)
{
	switch (err) {
	case 0:
		return 0;
	case -ECONNREFUSED:
		return -ECONNREFUSED;
	case -ETIMEDOUT:
	case -EHOSTUNREACH:
	case -ENETUNREACH:
	case -EHOSTDOWN:
	case -ENETDOWN:
		return -ETIMEDOUT;
	case -ECONNRESET:
	case -ECONNABORTED:
	case -EPIPE:
	case -EPROTO:
	case -EBADMSG:
	case -EMSGSIZE:
	case -EOPNOTSUPP:
		return -ECONNRESET;
	default:
		return err;
	}
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_iw_cm_reply_status);

/* --- endpoint lifetime --------------------------------------------------- */

static void softrdma_iw_cep_work(struct work_struct *work);
static void softrdma_iw_cep_timeout(struct work_struct *work);

static struct softrdma_iw_cep *softrdma_iw_cep_alloc(struct net *net,
						     u16 max_rd)
{
	struct softrdma_iw_cep *cep;

	cep = kzalloc(sizeof(*cep), GFP_KERNEL);
	if (!cep)
		return NULL;
	kref_init(&cep->ref);
	mutex_init(&cep->lock);
	cep->state = SOFTRDMA_IW_CEP_IDLE;
	cep->net = net;
	cep->max_rd = max_rd;
	INIT_LIST_HEAD(&cep->listen_link);
	INIT_LIST_HEAD(&cep->dial_link);
	INIT_WORK(&cep->work, softrdma_iw_cep_work);
	INIT_DELAYED_WORK(&cep->timeout, softrdma_iw_cep_timeout);
	init_completion(&cep->rtr_done);
	init_completion(&cep->closed);

	mutex_lock(&softrdma_iw_cm_mutex);
	list_add_tail(&cep->all_link, &softrdma_iw_ceps);
	mutex_unlock(&softrdma_iw_cm_mutex);
	return cep;
}

static void softrdma_iw_cep_release(struct kref *ref)
{
	struct softrdma_iw_cep *cep =
		container_of(ref, struct softrdma_iw_cep, ref);

	mutex_lock(&softrdma_iw_cm_mutex);
	list_del(&cep->all_link);
	WARN_ON_ONCE(!list_empty(&cep->dial_link));
	mutex_unlock(&softrdma_iw_cm_mutex);
	mutex_destroy(&cep->lock);
	kfree(cep->req_pd);
	kfree(cep);
}

static void softrdma_iw_cep_get(struct softrdma_iw_cep *cep)
{
	kref_get(&cep->ref);
}

static void softrdma_iw_cep_put(struct softrdma_iw_cep *cep)
{
	kref_put(&cep->ref, softrdma_iw_cep_release);
}

/* run the state machine from the workqueue; any context */
static void softrdma_iw_cep_kick(struct softrdma_iw_cep *cep)
{
	softrdma_iw_cep_get(cep);
	if (!queue_work(softrdma_iw_wq, &cep->work))
		softrdma_iw_cep_put(cep);
}

static void softrdma_iw_cep_arm_timeout(struct softrdma_iw_cep *cep)
{
	lockdep_assert_held(&cep->lock);

	cep->timed_out = false;
	softrdma_iw_cep_get(cep);
	if (!mod_delayed_work(softrdma_iw_wq, &cep->timeout,
			      msecs_to_jiffies(READ_ONCE(iw_mpa_timeout_ms))))
		return;
	/* it was pending and holds a reference already */
	softrdma_iw_cep_put(cep);
}

static void softrdma_iw_cep_stop_timeout(struct softrdma_iw_cep *cep)
{
	lockdep_assert_held(&cep->lock);

	if (cancel_delayed_work(&cep->timeout))
		softrdma_iw_cep_put(cep);
	cep->timed_out = false;
}

/* --- socket callbacks and I/O ------------------------------------------ */

static void softrdma_iw_sk_event(struct sock *sk)
{
	struct softrdma_iw_cep *cep;

	read_lock_bh(&sk->sk_callback_lock);
	cep = sk->sk_user_data;
	if (cep)
		softrdma_iw_cep_kick(cep);
	read_unlock_bh(&sk->sk_callback_lock);
}

static void softrdma_iw_sk_take(struct softrdma_iw_cep *cep,
				struct socket *sock)
{
	struct sock *sk = sock->sk;

	write_lock_bh(&sk->sk_callback_lock);
	cep->saved_data_ready = sk->sk_data_ready;
	cep->saved_state_change = sk->sk_state_change;
	sk->sk_user_data = cep;
	sk->sk_data_ready = softrdma_iw_sk_event;
	sk->sk_state_change = softrdma_iw_sk_event;
	write_unlock_bh(&sk->sk_callback_lock);
	cep->sock = sock;
}

/* after this no callback of the socket can reach @cep */
static void softrdma_iw_sk_restore(struct softrdma_iw_cep *cep)
{
	struct sock *sk = cep->sock->sk;

	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_user_data = NULL;
	sk->sk_data_ready = cep->saved_data_ready;
	sk->sk_state_change = cep->saved_state_change;
	write_unlock_bh(&sk->sk_callback_lock);
}

static void softrdma_iw_sock_close(struct softrdma_iw_cep *cep)
{
	lockdep_assert_held(&cep->lock);

	if (!cep->sock)
		return;
	softrdma_iw_sk_restore(cep);
	sock_release(cep->sock);
	cep->sock = NULL;
}

static int softrdma_iw_send(struct socket *sock, const void *buf, size_t len)
{
	struct msghdr msg = { .msg_flags = MSG_DONTWAIT | MSG_NOSIGNAL };
	struct kvec vec = { .iov_base = (void *)buf, .iov_len = len };
	int ret;

	/* a fresh connection's send buffer holds any MPA frame whole */
	ret = kernel_sendmsg(sock, &msg, &vec, 1, len);
	if (ret < 0)
		return ret == -EAGAIN ? -ECONNRESET : ret;
	return ret == len ? 0 : -ECONNRESET;
}

/*
 * Read what is there of the cep->rx_want bytes wanted, never more: what
 * follows the MPA frames belongs to the data path.
 * Return: 0 when all are in, -EAGAIN for more to come, else -errno.
 */
static int softrdma_iw_recv(struct softrdma_iw_cep *cep)
{
	struct msghdr msg = { .msg_flags = MSG_DONTWAIT };
	struct kvec vec;
	int ret;

	lockdep_assert_held(&cep->lock);

	while (cep->rx_have < cep->rx_want) {
		vec.iov_base = cep->rx + cep->rx_have;
		vec.iov_len = cep->rx_want - cep->rx_have;
		ret = kernel_recvmsg(cep->sock, &msg, &vec, 1, vec.iov_len,
				     MSG_DONTWAIT);
		if (ret == -EAGAIN)
			return -EAGAIN;
		if (ret < 0)
			return ret;
		if (ret == 0)
			return -ECONNRESET;
		cep->rx_have += ret;
	}
	return 0;
}

static void softrdma_iw_rx_expect(struct softrdma_iw_cep *cep,
				  unsigned int len)
{
	cep->rx_want = len;
	cep->rx_have = 0;
}

/*
 * Read one MPA frame in two steps, header then private data.
 * Return: 0 with the frame parsed into @info, -EAGAIN, or -errno (for
 * -EOPNOTSUPP, markers, @info is filled in).
 */
static int softrdma_iw_recv_mpa(struct softrdma_iw_cep *cep, bool reply,
				struct softrdma_mpa_info *info)
{
	u16 pd_len;
	int err;

	err = softrdma_iw_recv(cep);
	if (err)
		return err;
	if (cep->rx_want == sizeof(struct iwarp_mpa_rr)) {
		err = softrdma_mpa_parse_hdr((void *)cep->rx, reply, &pd_len);
		if (err && err != -EOPNOTSUPP)
			return err;
		if (pd_len) {
			cep->rx_want += pd_len;
			err = softrdma_iw_recv(cep);
			if (err)
				return err;
		}
	}
	return softrdma_mpa_parse(cep->rx, cep->rx_have, reply, info);
}

static int softrdma_iw_send_mpa(struct softrdma_iw_cep *cep,
				const struct softrdma_mpa_info *info)
{
	u8 *buf;
	int len;

	buf = kmalloc(SOFTRDMA_IW_MPA_MAX, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	len = softrdma_mpa_encode(info, buf, SOFTRDMA_IW_MPA_MAX);
	if (len >= 0)
		len = softrdma_iw_send(cep->sock, buf, len);
	kfree(buf);
	return len;
}

/* RFC 6581 4.2: the RTR, a zero-length RDMA Write (STag 0, TO 0) */
static int softrdma_iw_send_rtr(struct softrdma_iw_cep *cep)
{
	u8 fpdu[SOFTRDMA_IW_RTR_LEN] = {};
	unsigned int len;
	int ret;

	ret = softrdma_iwarp_build_tagged((void *)fpdu, IWARP_OP_WRITE, true,
					  0, 0, 0);
	if (ret < 0)
		return ret;
	len = softrdma_mpa_fpdu_len(ret - IWARP_MPA_LEN_SIZE);
	if (WARN_ON_ONCE(len != sizeof(fpdu)))
		return -EINVAL;
	if (cep->mpa_res.crc)
		softrdma_mpa_crc_put(fpdu + len - IWARP_MPA_CRC_SIZE,
				     softrdma_mpa_crc_buf(fpdu, len -
							  IWARP_MPA_CRC_SIZE));
	return softrdma_iw_send(cep->sock, fpdu, len);
}

/* is the FPDU in cep->rx the RTR we negotiated? */
static int softrdma_iw_check_rtr(struct softrdma_iw_cep *cep)
{
	unsigned int len = cep->rx_have - IWARP_MPA_CRC_SIZE;
	struct softrdma_iwarp_pdu pdu;

	if (softrdma_iwarp_parse(cep->rx, cep->rx_have, &pdu) !=
	    SOFTRDMA_IWERR_NONE)
		return -EPROTO;
	if (pdu.opcode != IWARP_OP_WRITE || pdu.payload_len || !pdu.last ||
	    softrdma_mpa_fpdu_len(pdu.ulpdu_len) != cep->rx_have)
		return -EPROTO;
	if (cep->mpa_res.crc &&
	    softrdma_mpa_crc_get(cep->rx + len) !=
	    softrdma_mpa_crc_buf(cep->rx, len))
		return -EPROTO;
	return 0;
}

/* --- events to the iw_cm ------------------------------------------------ */

static void softrdma_iw_addrs(struct socket *sock, struct iw_cm_event *ev)
{
	if (kernel_getsockname(sock, (struct sockaddr *)&ev->local_addr) < 0)
		memset(&ev->local_addr, 0, sizeof(ev->local_addr));
	if (kernel_getpeername(sock, (struct sockaddr *)&ev->remote_addr) < 0)
		memset(&ev->remote_addr, 0, sizeof(ev->remote_addr));
}

static void softrdma_iw_upcall(struct softrdma_iw_cep *cep,
			       enum iw_cm_event_type type, int status,
			       const struct softrdma_mpa_info *info)
{
	struct iw_cm_event ev = {
		.event = type,
		.status = status,
	};

	lockdep_assert_held(&cep->lock);

	if (!cep->cm_id)
		return;
	if (cep->sock)
		softrdma_iw_addrs(cep->sock, &ev);
	else if (cep->attached)
		softrdma_iw_addrs(cep->attached, &ev);
	/* a connect that failed has no peer: report what was asked for */
	if (!ev.local_addr.ss_family)
		ev.local_addr = cep->cm_id->m_local_addr;
	if (!ev.remote_addr.ss_family)
		ev.remote_addr = cep->cm_id->m_remote_addr;
	if (info && info->pd_len) {
		ev.private_data = (void *)info->pd;
		ev.private_data_len = info->pd_len;
	}
	/*
	 * cma.c takes ird as the initiator depth (our ORD) and ord as the
	 * responder resources (our IRD)
	 */
	ev.ird = cep->mpa_res.ord;
	ev.ord = cep->mpa_res.ird;
	cep->cm_id->event_handler(cep->cm_id, &ev);
}

/* --- active side: connects to one peer take turns ----------------------- */

/**
 * softrdma_iw_same_peer() - do two socket addresses name the same peer?
 * @a: an AF_INET or AF_INET6 address
 * @b: another
 *
 * Return: true for the same family, address, port (and IPv6 scope).
 */
bool softrdma_iw_same_peer(const struct sockaddr *a, const struct sockaddr *b)
{
	const struct sockaddr_in6 *a6 = (const struct sockaddr_in6 *)a;
	const struct sockaddr_in6 *b6 = (const struct sockaddr_in6 *)b;
	const struct sockaddr_in *a4 = (const struct sockaddr_in *)a;
	const struct sockaddr_in *b4 = (const struct sockaddr_in *)b;

	if (a->sa_family != b->sa_family)
		return false;
	switch (a->sa_family) {
	case AF_INET:
		return a4->sin_port == b4->sin_port &&
		       a4->sin_addr.s_addr == b4->sin_addr.s_addr;
	case AF_INET6:
		return a6->sin6_port == b6->sin6_port &&
		       ipv6_addr_equal(&a6->sin6_addr, &b6->sin6_addr) &&
		       a6->sin6_scope_id == b6->sin6_scope_id;
	default:
		return false;
	}
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_iw_same_peer);

static bool softrdma_iw_dial_same(const struct softrdma_iw_cep *a,
				  const struct softrdma_iw_cep *b)
{
	return net_eq(a->net, b->net) &&
	       softrdma_iw_same_peer((const struct sockaddr *)&a->dial_addr,
				     (const struct sockaddr *)&b->dial_addr);
}

/*
 * The head of the line to @cep's peer: its first endpoint, which is @cep
 * itself when @cep is on the line and first.  The line is in join order.
 */
static struct softrdma_iw_cep *
softrdma_iw_dial_head(const struct softrdma_iw_cep *cep)
{
	struct softrdma_iw_cep *other;

	lockdep_assert_held(&softrdma_iw_cm_mutex);

	list_for_each_entry(other, &softrdma_iw_dialing, dial_link)
		if (softrdma_iw_dial_same(other, cep))
			return other;
	return NULL;
}

/* join the line to the peer; true when another connect is ahead */
static bool softrdma_iw_dial_join(struct softrdma_iw_cep *cep)
{
	bool ahead;

	lockdep_assert_held(&cep->lock);

	mutex_lock(&softrdma_iw_cm_mutex);
	list_add_tail(&cep->dial_link, &softrdma_iw_dialing);
	ahead = softrdma_iw_dial_head(cep) != cep;
	mutex_unlock(&softrdma_iw_cm_mutex);
	return ahead;
}

/* is a connect that joined before @cep still ahead of it? */
static bool softrdma_iw_dial_waits(struct softrdma_iw_cep *cep)
{
	bool ahead;

	mutex_lock(&softrdma_iw_cm_mutex);
	ahead = softrdma_iw_dial_head(cep) != cep;
	mutex_unlock(&softrdma_iw_cm_mutex);
	return ahead;
}

/* the MPA request is out, or the connect failed: the next one goes */
static void softrdma_iw_dial_leave(struct softrdma_iw_cep *cep)
{
	struct softrdma_iw_cep *next;

	mutex_lock(&softrdma_iw_cm_mutex);
	list_del_init(&cep->dial_link);
	next = softrdma_iw_dial_head(cep);
	if (next)
		softrdma_iw_cep_kick(next);
	mutex_unlock(&softrdma_iw_cm_mutex);
}

static bool softrdma_iw_cep_dialing(enum softrdma_iw_cep_state state)
{
	return state == SOFTRDMA_IW_CEP_QUEUED ||
	       state == SOFTRDMA_IW_CEP_CONNECTING;
}

/* --- the state machine -------------------------------------------------- */

/* leaving for CLOSED: let go of the socket, the QP, the cm_id */
static void softrdma_iw_cep_enter_closed(struct softrdma_iw_cep *cep)
{
	struct iw_cm_id *cm_id = cep->cm_id;

	softrdma_iw_cep_stop_timeout(cep);
	softrdma_iw_sock_close(cep);
	cep->attached = NULL;
	if (cep->qp) {
		softrdma_qp_put(cep->qp);
		cep->qp = NULL;
	}
	if (cep->state == SOFTRDMA_IW_CEP_AWAIT_RTR) {
		if (!cep->rtr_err)
			cep->rtr_err = -ECONNRESET;
		complete(&cep->rtr_done);
	}
	complete_all(&cep->closed);
	if (cm_id) {
		cep->cm_id = NULL;
		cm_id->provider_data = NULL;
		cm_id->rem_ref(cm_id);
		/* the association's reference; the caller holds another */
		kref_put(&cep->ref, softrdma_iw_cep_release);
	}
}

static void softrdma_iw_cep_move(struct softrdma_iw_cep *cep,
				 enum softrdma_iw_cep_state next)
{
	lockdep_assert_held(&cep->lock);

	if (!softrdma_iw_cep_may_move(cep->state, next)) {
		pr_err_ratelimited("softrdma: iw cep %s -> %s refused\n",
				   softrdma_iw_cep_state_name(cep->state),
				   softrdma_iw_cep_state_name(next));
		next = SOFTRDMA_IW_CEP_CLOSED;
	}
	pr_debug("softrdma: iw cep %p %s -> %s\n", cep,
		 softrdma_iw_cep_state_name(cep->state),
		 softrdma_iw_cep_state_name(next));
	if (softrdma_iw_cep_dialing(cep->state) &&
	    !softrdma_iw_cep_dialing(next))
		softrdma_iw_dial_leave(cep);
	if (next == SOFTRDMA_IW_CEP_CLOSED)
		softrdma_iw_cep_enter_closed(cep);
	cep->state = next;
}

/* what ended the wait of the current state, if anything */
static int softrdma_iw_cep_failure(struct softrdma_iw_cep *cep)
{
	if (cep->aborted)
		return -ECONNABORTED;
	if (cep->timed_out)
		return -ETIMEDOUT;
	return 0;
}

/* detect a silent peer: keepalive when idle, a user timeout when not */
static void softrdma_iw_set_liveness(struct sock *sk)
{
	unsigned int secs = min(READ_ONCE(iw_keepalive_s), MAX_TCP_KEEPIDLE);

	if (!secs)
		return;
	sock_set_keepalive(sk);
	tcp_sock_set_keepidle(sk, secs);
	tcp_sock_set_keepintvl(sk, min_t(unsigned int, secs, MAX_TCP_KEEPINTVL));
	tcp_sock_set_keepcnt(sk, 3);
	tcp_sock_set_user_timeout(sk, 4 * secs * MSEC_PER_SEC);
}

/*
 * Hand the socket to the data path: the QP goes to RTS and from now on
 * only softrdma_iw_cm_conn_closed() gives the socket back.
 */
static int softrdma_iw_cep_attach(struct softrdma_iw_cep *cep)
{
	struct softrdma_iwarp_params params = {
		.crc = cep->mpa_res.crc,
		.ird = cep->mpa_res.ird,
		.ord = cep->mpa_res.ord,
	};
	struct socket *sock = cep->sock;
	int err;

	lockdep_assert_held(&cep->lock);

	params.max_ulpdu = softrdma_mpa_max_ulpdu(&cep->mpa_res,
						  tcp_sk(sock->sk)->mss_cache);
	softrdma_iw_cep_stop_timeout(cep);
	softrdma_iw_set_liveness(sock->sk);
	softrdma_iw_sk_restore(cep);
	/* the data path's reference, given back by conn_closed() */
	softrdma_iw_cep_get(cep);
	err = softrdma_iwarp_qp_attach(cep->qp, sock, &params, cep);
	if (err) {
		softrdma_iw_cep_put(cep);
		/* ours again, for CLOSED to release */
		softrdma_iw_sk_take(cep, sock);
		return err;
	}
	cep->sock = NULL;
	cep->attached = sock;
	softrdma_qp_put(cep->qp);
	cep->qp = NULL;
	return 0;
}

static enum softrdma_iw_cep_state
softrdma_iw_step_idle(struct softrdma_iw_cep *cep)
{
	return cep->aborted ? SOFTRDMA_IW_CEP_CLOSED : SOFTRDMA_IW_CEP_IDLE;
}

static void softrdma_iw_accept_child(struct softrdma_iw_cep *lcep,
				     struct socket *sock);

static enum softrdma_iw_cep_state
softrdma_iw_step_listening(struct softrdma_iw_cep *cep)
{
	struct socket *sock;

	if (cep->aborted)
		return SOFTRDMA_IW_CEP_CLOSED;

	while (!kernel_accept(cep->sock, &sock, O_NONBLOCK))
		softrdma_iw_accept_child(cep, sock);
	return SOFTRDMA_IW_CEP_LISTENING;
}

static enum softrdma_iw_cep_state
softrdma_iw_connect_failed(struct softrdma_iw_cep *cep, int err)
{
	softrdma_iw_upcall(cep, IW_CM_EVENT_CONNECT_REPLY,
			   softrdma_iw_cm_reply_status(err), NULL);
	return SOFTRDMA_IW_CEP_CLOSED;
}

/* the length of an AF_INET or AF_INET6 address, for bind and connect */
static int softrdma_iw_addr_len(const struct sockaddr *addr)
{
	return addr->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) :
					     sizeof(struct sockaddr_in);
}

/* start the TCP handshake; 0 once it is under way */
static int softrdma_iw_dial(struct softrdma_iw_cep *cep)
{
	struct sockaddr *addr = (struct sockaddr *)&cep->dial_addr;
	int err;

	err = kernel_connect(cep->sock, softrdma_sockaddr(addr),
			     softrdma_iw_addr_len(addr),
			     O_NONBLOCK);
	return err == -EINPROGRESS ? 0 : err;
}

static enum softrdma_iw_cep_state
softrdma_iw_step_queued(struct softrdma_iw_cep *cep)
{
	int err;

	err = softrdma_iw_cep_failure(cep);
	if (err)
		return softrdma_iw_connect_failed(cep, err);
	if (softrdma_iw_dial_waits(cep))
		return SOFTRDMA_IW_CEP_QUEUED;
	err = softrdma_iw_dial(cep);
	if (err)
		return softrdma_iw_connect_failed(cep, err);
	return SOFTRDMA_IW_CEP_CONNECTING;
}

static enum softrdma_iw_cep_state
softrdma_iw_step_connecting(struct softrdma_iw_cep *cep)
{
	struct sock *sk = cep->sock->sk;
	int err;

	err = softrdma_iw_cep_failure(cep);
	if (err)
		return softrdma_iw_connect_failed(cep, err);

	switch (READ_ONCE(sk->sk_state)) {
	case TCP_ESTABLISHED:
		break;
	case TCP_SYN_SENT:
	case TCP_SYN_RECV:
		return SOFTRDMA_IW_CEP_CONNECTING;
	default:
		err = sock_error(sk);
		return softrdma_iw_connect_failed(cep, err ? err : -ECONNRESET);
	}

	/* RFC 5044 7.1: the initiator speaks first */
	err = softrdma_iw_send_mpa(cep, &cep->mpa_req);
	if (err)
		return softrdma_iw_connect_failed(cep, err);
	softrdma_iw_rx_expect(cep, sizeof(struct iwarp_mpa_rr));
	return SOFTRDMA_IW_CEP_AWAIT_MPA_REP;
}

static enum softrdma_iw_cep_state
softrdma_iw_step_await_mpa_rep(struct softrdma_iw_cep *cep)
{
	struct softrdma_mpa_info rep;
	int err;

	err = softrdma_iw_cep_failure(cep);
	if (err)
		return softrdma_iw_connect_failed(cep, err);

	err = softrdma_iw_recv_mpa(cep, true, &rep);
	if (err == -EAGAIN)
		return SOFTRDMA_IW_CEP_AWAIT_MPA_REP;
	if (err)
		return softrdma_iw_connect_failed(cep, err);

	err = softrdma_mpa_check_reply(&cep->mpa_local, &cep->mpa_req, &rep,
				       &cep->mpa_res);
	if (err == -ECONNREFUSED) {
		/* the peer's private data says why */
		softrdma_iw_upcall(cep, IW_CM_EVENT_CONNECT_REPLY,
				   -ECONNREFUSED, &rep);
		return SOFTRDMA_IW_CEP_CLOSED;
	}
	if (err)
		return softrdma_iw_connect_failed(cep, err);

	if (cep->mpa_res.rtr) {
		err = softrdma_iw_send_rtr(cep);
		if (err)
			return softrdma_iw_connect_failed(cep, err);
	}
	err = softrdma_iw_cep_attach(cep);
	if (err)
		return softrdma_iw_connect_failed(cep, err);
	softrdma_iw_upcall(cep, IW_CM_EVENT_CONNECT_REPLY, 0, &rep);
	return SOFTRDMA_IW_CEP_RDMA_MODE;
}

/* reject a request we cannot take (markers, no RTR in common) ourselves */
static void softrdma_iw_refuse(struct softrdma_iw_cep *cep,
			       const struct softrdma_mpa_info *req)
{
	struct softrdma_mpa_info rep = {
		.reply = true,
		.reject = true,
		.rev = min_t(u8, req->rev, cep->mpa_local.rev),
		.crc = req->crc,
	};

	softrdma_iw_send_mpa(cep, &rep);
}

static enum softrdma_iw_cep_state
softrdma_iw_step_await_mpa_req(struct softrdma_iw_cep *cep)
{
	struct softrdma_mpa_info *req = &cep->mpa_req;
	struct iw_cm_event ev = {
		.event = IW_CM_EVENT_CONNECT_REQUEST,
		.provider_data = cep,
	};
	struct softrdma_iw_listen *listen;
	int err;

	if (softrdma_iw_cep_failure(cep))
		goto out_unlink;

	err = softrdma_iw_recv_mpa(cep, false, req);
	if (err == -EAGAIN)
		return SOFTRDMA_IW_CEP_AWAIT_MPA_REQ;
	if (err == -EOPNOTSUPP) {
		/* RFC 5044 7.1: markers wanted; softrdma sends none */
		softrdma_iw_refuse(cep, req);
		goto out_unlink;
	}
	if (err)
		goto out_unlink;

	/*
	 * What the initiator can offer this side: its IRD bounds our ORD,
	 * its ORD our IRD (cma.c maps ird to initiator_depth and ord to
	 * responder_resources).  Revision 1 carries neither: the device's.
	 */
	if (req->enhanced) {
		cep->mpa_res.ird = min_t(u16, req->ird, cep->max_rd);
		cep->mpa_res.ord = min_t(u16, req->ord, cep->max_rd);
	} else {
		cep->mpa_res.ird = cep->max_rd;
		cep->mpa_res.ord = cep->max_rd;
	}
	softrdma_iw_cep_stop_timeout(cep);
	softrdma_iw_addrs(cep->sock, &ev);
	ev.private_data = (void *)req->pd;
	ev.private_data_len = req->pd_len;
	ev.ird = cep->mpa_res.ird;
	ev.ord = cep->mpa_res.ord;

	mutex_lock(&softrdma_iw_cm_mutex);
	listen = cep->listen;
	if (!listen || !listen->cm_id) {
		mutex_unlock(&softrdma_iw_cm_mutex);
		goto out_unlink;
	}
	/* the listener's reference becomes the iw_cm's */
	list_del_init(&cep->listen_link);
	cep->listen = NULL;
	cep->iwcm_ref = true;
	err = listen->cm_id->event_handler(listen->cm_id, &ev);
	mutex_unlock(&softrdma_iw_cm_mutex);
	if (err) {
		cep->iwcm_ref = false;
		softrdma_iw_refuse(cep, req);
		kref_put(&cep->ref, softrdma_iw_cep_release);
		return SOFTRDMA_IW_CEP_CLOSED;
	}
	return SOFTRDMA_IW_CEP_RECVD_MPA_REQ;

out_unlink:
	mutex_lock(&softrdma_iw_cm_mutex);
	listen = cep->listen;
	if (listen) {
		list_del_init(&cep->listen_link);
		cep->listen = NULL;
	}
	mutex_unlock(&softrdma_iw_cm_mutex);
	/* the listener's reference; the work item holds another */
	if (listen)
		kref_put(&cep->ref, softrdma_iw_cep_release);
	return SOFTRDMA_IW_CEP_CLOSED;
}

static enum softrdma_iw_cep_state
softrdma_iw_step_recvd_mpa_req(struct softrdma_iw_cep *cep)
{
	struct sock *sk = cep->sock->sk;

	/*
	 * The ULP has the request; nothing is read until it answers.  A
	 * peer that gives up meanwhile (FIN or reset) ends the endpoint,
	 * and the answer then finds it CLOSED.
	 */
	if (cep->aborted || sk->sk_err ||
	    (READ_ONCE(sk->sk_shutdown) & RCV_SHUTDOWN) ||
	    READ_ONCE(sk->sk_state) != TCP_ESTABLISHED)
		return SOFTRDMA_IW_CEP_CLOSED;
	return SOFTRDMA_IW_CEP_RECVD_MPA_REQ;
}

static enum softrdma_iw_cep_state
softrdma_iw_step_await_rtr(struct softrdma_iw_cep *cep)
{
	struct iwarp_ctrl *ctrl = (void *)cep->rx;
	int err;

	err = softrdma_iw_cep_failure(cep);
	if (err)
		goto out_fail;

	/* two bytes of ULPDU length first, then exactly that FPDU */
	err = softrdma_iw_recv(cep);
	if (!err && cep->rx_want == IWARP_MPA_LEN_SIZE) {
		if (softrdma_mpa_fpdu_len(iwarp_mpa_len(ctrl)) !=
		    SOFTRDMA_IW_RTR_LEN) {
			err = -EPROTO;
			goto out_fail;
		}
		cep->rx_want = SOFTRDMA_IW_RTR_LEN;
		err = softrdma_iw_recv(cep);
	}
	if (err == -EAGAIN)
		return SOFTRDMA_IW_CEP_AWAIT_RTR;
	if (!err)
		err = softrdma_iw_check_rtr(cep);
	if (!err)
		err = softrdma_iw_cep_attach(cep);
	if (err)
		goto out_fail;

	cep->rtr_err = 0;
	complete(&cep->rtr_done);
	softrdma_iw_upcall(cep, IW_CM_EVENT_ESTABLISHED, 0, NULL);
	return SOFTRDMA_IW_CEP_RDMA_MODE;

out_fail:
	/* accept() returns the error; no event may follow a failed accept */
	cep->rtr_err = err;
	return SOFTRDMA_IW_CEP_CLOSED;
}

static enum softrdma_iw_cep_state
softrdma_iw_step_rdma_mode(struct softrdma_iw_cep *cep)
{
	if (!cep->aborted)
		return SOFTRDMA_IW_CEP_RDMA_MODE;
	/*
	 * The namespace is going: reset the connection; the data path sees
	 * it and gives the socket back through conn_closed().
	 */
	tcp_abort(cep->attached->sk, ECONNABORTED);
	return SOFTRDMA_IW_CEP_CLOSING;
}

static enum softrdma_iw_cep_state
softrdma_iw_step_closing(struct softrdma_iw_cep *cep)
{
	return SOFTRDMA_IW_CEP_CLOSING;
}

static enum softrdma_iw_cep_state
softrdma_iw_step_closed(struct softrdma_iw_cep *cep)
{
	return SOFTRDMA_IW_CEP_CLOSED;
}

static enum softrdma_iw_cep_state
(* const softrdma_iw_cep_steps[])(struct softrdma_iw_cep *cep) = {
	[SOFTRDMA_IW_CEP_IDLE] = softrdma_iw_step_idle,
	[SOFTRDMA_IW_CEP_LISTENING] = softrdma_iw_step_listening,
	[SOFTRDMA_IW_CEP_QUEUED] = softrdma_iw_step_queued,
	[SOFTRDMA_IW_CEP_CONNECTING] = softrdma_iw_step_connecting,
	[SOFTRDMA_IW_CEP_AWAIT_MPA_REP] = softrdma_iw_step_await_mpa_rep,
	[SOFTRDMA_IW_CEP_AWAIT_MPA_REQ] = softrdma_iw_step_await_mpa_req,
	[SOFTRDMA_IW_CEP_RECVD_MPA_REQ] = softrdma_iw_step_recvd_mpa_req,
	[SOFTRDMA_IW_CEP_AWAIT_RTR] = softrdma_iw_step_await_rtr,
	[SOFTRDMA_IW_CEP_RDMA_MODE] = softrdma_iw_step_rdma_mode,
	[SOFTRDMA_IW_CEP_CLOSING] = softrdma_iw_step_closing,
	[SOFTRDMA_IW_CEP_CLOSED] = softrdma_iw_step_closed,
};

static_assert(ARRAY_SIZE(softrdma_iw_cep_steps) == SOFTRDMA_IW_CEP_NR_STATES);

bool softrdma_iw_cep_has_step(enum softrdma_iw_cep_state state)
{
	return state < SOFTRDMA_IW_CEP_NR_STATES &&
	       softrdma_iw_cep_steps[state];
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_iw_cep_has_step);

/* step until the state stops changing */
static void softrdma_iw_cep_run(struct softrdma_iw_cep *cep)
{
	enum softrdma_iw_cep_state next;

	lockdep_assert_held(&cep->lock);

	for (;;) {
		next = softrdma_iw_cep_steps[cep->state](cep);
		if (next == cep->state)
			return;
		softrdma_iw_cep_move(cep, next);
	}
}

static void softrdma_iw_cep_work(struct work_struct *work)
{
	struct softrdma_iw_cep *cep =
		container_of(work, struct softrdma_iw_cep, work);

	mutex_lock(&cep->lock);
	softrdma_iw_cep_run(cep);
	mutex_unlock(&cep->lock);
	softrdma_iw_cep_put(cep);
}

static void softrdma_iw_cep_timeout(struct work_struct *work)
{
	struct softrdma_iw_cep *cep =
		container_of(to_delayed_work(work), struct softrdma_iw_cep,
			     timeout);

	mutex_lock(&cep->lock);
	cep->timed_out = true;
	softrdma_iw_cep_run(cep);
	mutex_unlock(&cep->lock);
	softrdma_iw_cep_put(cep);
}

/* end an endpoint now, from a process context that holds a reference */
static void softrdma_iw_cep_abort(struct softrdma_iw_cep *cep)
{
	mutex_lock(&cep->lock);
	cep->aborted = true;
	softrdma_iw_cep_run(cep);
	mutex_unlock(&cep->lock);
}

/* --- passive side: listening and accepting ----------------------------- */

static void softrdma_iw_accept_child(struct softrdma_iw_cep *lcep,
				     struct socket *sock)
{
	struct softrdma_iw_cep *cep;

	lockdep_assert_held(&lcep->lock);

	cep = softrdma_iw_cep_alloc(lcep->net, lcep->max_rd);
	if (!cep) {
		sock_release(sock);
		return;
	}
	cep->mpa_local = lcep->mpa_local;

	mutex_lock(&softrdma_iw_cm_mutex);
	if (!lcep->listen) {
		mutex_unlock(&softrdma_iw_cm_mutex);
		sock_release(sock);
		softrdma_iw_cep_put(cep);
		return;
	}
	/* the creation reference is the listener's, until CONNECT_REQUEST */
	cep->listen = lcep->listen;
	list_add_tail(&cep->listen_link, &lcep->listen->children);
	/* ours, while destroy_listen may already abort the child */
	softrdma_iw_cep_get(cep);
	mutex_unlock(&softrdma_iw_cm_mutex);

	/* the only place two endpoint locks nest: listener, then child */
	mutex_lock_nested(&cep->lock, SINGLE_DEPTH_NESTING);
	if (cep->state != SOFTRDMA_IW_CEP_IDLE) {
		mutex_unlock(&cep->lock);
		sock_release(sock);
		softrdma_iw_cep_put(cep);
		return;
	}
	/*
	 * As on the active side: no Nagle.  A message must leave when it is
	 * posted; Nagle held a small FPDU back behind an unacknowledged one
	 * (a target's response behind its RDMA WRITE data) until the peer's
	 * ACK came.
	 */
	tcp_sock_set_nodelay(sock->sk);
	softrdma_iw_sk_take(cep, sock);
	/* the child inherited our callbacks; its own are the listener's */
	cep->saved_data_ready = lcep->saved_data_ready;
	cep->saved_state_change = lcep->saved_state_change;
	softrdma_iw_rx_expect(cep, sizeof(struct iwarp_mpa_rr));
	softrdma_iw_cep_move(cep, SOFTRDMA_IW_CEP_AWAIT_MPA_REQ);
	softrdma_iw_cep_arm_timeout(cep);
	mutex_unlock(&cep->lock);
	/* the request may be in already */
	softrdma_iw_cep_kick(cep);
	softrdma_iw_cep_put(cep);
}

static int softrdma_iw_listen_one(struct softrdma_iw_listen *listen,
				  struct net *net, const struct sockaddr *addr,
				  int backlog, u16 max_rd)
{
	struct softrdma_iw_cep *cep;
	struct socket *sock;
	int err;

	err = sock_create_kern(net, addr->sa_family, SOCK_STREAM, IPPROTO_TCP,
			       &sock);
	if (err)
		return err;
	sock_set_reuseaddr(sock->sk);
	if (addr->sa_family == AF_INET6)
		ip6_sock_set_v6only(sock->sk);
	err = kernel_bind(sock, softrdma_sockaddr(addr),
			  softrdma_iw_addr_len(addr));
	if (err)
		goto out_release;

	cep = softrdma_iw_cep_alloc(net, max_rd);
	if (!cep) {
		err = -ENOMEM;
		goto out_release;
	}
	cep->mpa_local = (struct softrdma_mpa_local) {
		.rev = clamp_t(u8, READ_ONCE(iw_mpa_rev), IWARP_MPA_REV1,
			       IWARP_MPA_REV2),
		.crc = READ_ONCE(iw_crc),
		.p2p = true,
		.rtr = SOFTRDMA_IW_RTR,
		.max_ird = max_rd,
		.max_ord = max_rd,
		.ext = READ_ONCE(iw_large_fpdu),
	};

	mutex_lock(&cep->lock);
	softrdma_iw_sk_take(cep, sock);
	err = kernel_listen(sock, backlog);
	if (err) {
		softrdma_iw_cep_move(cep, SOFTRDMA_IW_CEP_CLOSED);
		mutex_unlock(&cep->lock);
		softrdma_iw_cep_put(cep);
		return err;
	}
	softrdma_iw_cep_move(cep, SOFTRDMA_IW_CEP_LISTENING);
	mutex_unlock(&cep->lock);

	mutex_lock(&softrdma_iw_cm_mutex);
	cep->listen = listen;
	list_add_tail(&cep->listen_link, &listen->socks);
	mutex_unlock(&softrdma_iw_cm_mutex);
	/* connections may have queued before ->listen was set */
	softrdma_iw_cep_kick(cep);
	return 0;

out_release:
	sock_release(sock);
	return err;
}

/* the netdev's addresses, for a wildcard listen */
struct softrdma_iw_addrs {
	unsigned int n;
	struct sockaddr_storage a[16];
};

static void softrdma_iw_add_addr(struct softrdma_iw_addrs *addrs,
				 const void *addr, size_t len)
{
	if (addrs->n < ARRAY_SIZE(addrs->a))
		memcpy(&addrs->a[addrs->n++], addr, len);
}

static void softrdma_iw_netdev_addrs(struct net_device *ndev, int family,
				     __be16 port, struct softrdma_iw_addrs *addrs)
{
	struct in_device *in_dev;
	struct in_ifaddr *ifa;

	if (family == AF_INET) {
		struct sockaddr_in sin = {
			.sin_family = AF_INET, .sin_port = port,
		};

		rcu_read_lock();
		in_dev = __in_dev_get_rcu(ndev);
		if (in_dev) {
			in_dev_for_each_ifa_rcu(ifa, in_dev) {
				sin.sin_addr.s_addr = ifa->ifa_local;
				softrdma_iw_add_addr(addrs, &sin, sizeof(sin));
			}
		}
		rcu_read_unlock();
	}
#if IS_ENABLED(CONFIG_IPV6)
	if (family == AF_INET6) {
		struct sockaddr_in6 sin6 = {
			.sin6_family = AF_INET6, .sin6_port = port,
		};
		struct inet6_ifaddr *ifp;
		struct inet6_dev *idev;

		idev = in6_dev_get(ndev);
		if (!idev)
			return;
		read_lock_bh(&idev->lock);
		list_for_each_entry(ifp, &idev->addr_list, if_list) {
			sin6.sin6_addr = ifp->addr;
			sin6.sin6_scope_id =
				ipv6_addr_type(&ifp->addr) &
				IPV6_ADDR_LINKLOCAL ? ndev->ifindex : 0;
			softrdma_iw_add_addr(addrs, &sin6, sizeof(sin6));
		}
		read_unlock_bh(&idev->lock);
		in6_dev_put(idev);
	}
#endif
}

static bool softrdma_iw_any_addr(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return ((const struct sockaddr_in *)sa)->sin_addr.s_addr ==
		       htonl(INADDR_ANY);
	if (sa->sa_family == AF_INET6)
		return ipv6_addr_any(&((const struct sockaddr_in6 *)sa)->sin6_addr);
	return false;
}

static void softrdma_iw_listen_destroy(struct softrdma_iw_listen *listen);

/*
 * The network namespace of the RDMA CM ID that listens. The iWARP CM keeps
 * none; every iw_cm_id that reaches create_listen comes from the RDMA CM
 * (cma_iw_listen), whose context is its private ID, which begins with the
 * struct rdma_cm_id (struct rdma_id_private in cma_priv.h).
 */
static const struct net *softrdma_iw_listener_net(const struct iw_cm_id *cm_id)
{
	const struct rdma_cm_id *id = cm_id->context;

	return id->route.addr.dev_addr.net;
}

static int softrdma_iw_create_listen(struct iw_cm_id *cm_id, int backlog)
{
	struct sockaddr *laddr = (struct sockaddr *)&cm_id->m_local_addr;
	struct softrdma_dev *sdev = to_sdev(cm_id->device);
	struct net *net = dev_net(sdev->ndev);
	struct softrdma_iw_listen *listen;
	struct softrdma_iw_addrs *addrs;
	unsigned int i, ok = 0;
	__be16 port;
	int err = 0;

	if (laddr->sa_family != AF_INET && laddr->sa_family != AF_INET6)
		return -EAFNOSUPPORT;

	listen = kzalloc(sizeof(*listen), GFP_KERNEL);
	addrs = kzalloc(sizeof(*addrs), GFP_KERNEL);
	if (!listen || !addrs) {
		err = -ENOMEM;
		goto out_free;
	}
	listen->cm_id = cm_id;
	INIT_LIST_HEAD(&listen->socks);
	INIT_LIST_HEAD(&listen->children);

	if (!softrdma_iw_any_addr(laddr)) {
		memcpy(&addrs->a[0], laddr, sizeof(addrs->a[0]));
		addrs->n = 1;
	} else if (!rdma_dev_access_netns(&sdev->ibdev,
					  softrdma_iw_listener_net(cm_id))) {
		/*
		 * The RDMA CM offers a wildcard listener to every device, also
		 * to those of other namespaces in exclusive mode: listening
		 * there would take the port from the device's own namespace
		 * and hand its connections to a foreign one. Listen on nothing.
		 */
		addrs->n = 0;
	} else {
		/*
		 * A wildcard listens on each address of this netdev, not on
		 * the wildcard: another siwarp device of the namespace may
		 * listen on the same port for its own addresses.
		 */
		port = laddr->sa_family == AF_INET ?
		       ((struct sockaddr_in *)laddr)->sin_port :
		       ((struct sockaddr_in6 *)laddr)->sin6_port;
		softrdma_iw_netdev_addrs(sdev->ndev, laddr->sa_family, port,
					 addrs);
		if (laddr->sa_family == AF_INET6 && !cm_id->afonly)
			softrdma_iw_netdev_addrs(sdev->ndev, AF_INET, port,
						 addrs);
	}

	for (i = 0; i < addrs->n; i++) {
		err = softrdma_iw_listen_one(listen, net,
					     (struct sockaddr *)&addrs->a[i],
					     backlog, SOFTRDMA_MAX_QP_RD_ATOM);
		if (err && !softrdma_iw_any_addr(laddr))
			break;
		if (!err)
			ok++;
	}
	/* a wildcard on a netdev without addresses listens on nothing */
	if (softrdma_iw_any_addr(laddr) && (ok || !addrs->n))
		err = 0;
	if (err) {
		softrdma_iw_listen_destroy(listen);
		listen = NULL;
		goto out_free;
	}
	cm_id->provider_data = listen;
	kfree(addrs);
	return 0;

out_free:
	kfree(addrs);
	kfree(listen);
	return err;
}

/* no event reaches the cm_id once this returns */
static void softrdma_iw_listen_destroy(struct softrdma_iw_listen *listen)
{
	struct softrdma_iw_cep *cep, *next;
	LIST_HEAD(ceps);

	mutex_lock(&softrdma_iw_cm_mutex);
	listen->cm_id = NULL;
	list_splice_init(&listen->socks, &ceps);
	list_splice_tail_init(&listen->children, &ceps);
	list_for_each_entry(cep, &ceps, listen_link)
		cep->listen = NULL;
	mutex_unlock(&softrdma_iw_cm_mutex);

	/* each holds the reference the list held */
	list_for_each_entry_safe(cep, next, &ceps, listen_link) {
		list_del_init(&cep->listen_link);
		softrdma_iw_cep_abort(cep);
		softrdma_iw_cep_put(cep);
	}
	kfree(listen);
}

static int softrdma_iw_destroy_listen(struct iw_cm_id *cm_id)
{
	struct softrdma_iw_listen *listen = cm_id->provider_data;

	if (!listen)
		return 0;
	cm_id->provider_data = NULL;
	softrdma_iw_listen_destroy(listen);
	return 0;
}

/* --- downcalls on a connection ------------------------------------------ */

/**
 * softrdma_iw_qp_caller_owns() - may this caller attach this QP?
 * @carried: the QP the caller's RDMA CM ID carries (kernel consumers), or NULL
 * @qp: the QP the caller named by number
 * @owner: the task that created @qp if it is a user QP, else NULL
 * @caller: the calling task
 *
 * The RDMA CM hands the driver whatever QP number a caller of rdma_connect()
 * or rdma_accept() names, unchecked, and /dev/infiniband/rdma_cm is open to
 * every local user: without this check one user could attach another's QP
 * to a connection of their own, then read its posted buffers and send as it.
 * A kernel consumer's QP is the one its CM ID carries; a user QP belongs to
 * the process that created it, which is the process librdmacm calls from.
 *
 * Return: true if @caller may attach @qp.
 */
bool softrdma_iw_qp_caller_owns(const struct ib_qp *carried,
				const struct ib_qp *qp,
				struct task_struct *owner,
				struct task_struct *caller)
{
	if (carried)
		return carried == qp;
	return owner && same_thread_group(owner, caller);
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_iw_qp_caller_owns);

/*
 * The QP a connect or accept names, with a reference, if it is an iWARP QP
 * of this caller.  Every iw_cm_id comes from the RDMA CM, whose context
 * begins with the struct rdma_cm_id (softrdma_iw_listener_net()).
 */
static struct softrdma_qp *softrdma_iw_qp(struct iw_cm_id *cm_id, u32 qpn)
{
	const struct rdma_cm_id *id = cm_id->context;
	struct task_struct *owner;
	struct softrdma_qp *qp;

	qp = softrdma_qp_get(to_sdev(cm_id->device), qpn);
	if (!qp)
		return NULL;
	owner = qp->user ? qp->ibqp.res.task : NULL;
	if (!softrdma_qp_iw(qp) ||
	    !softrdma_iw_qp_caller_owns(id->qp, &qp->ibqp, owner, current)) {
		softrdma_qp_put(qp);
		return NULL;
	}
	return qp;
}

static int softrdma_iw_check_param(const struct iw_cm_conn_param *param,
				   bool enhanced)
{
	unsigned int room = IWARP_MPA_PRIV_MAX;

	if (enhanced)
		room -= sizeof(struct iwarp_mpa_v2);
	if (param->private_data_len > room)
		return -EINVAL;
	if (param->ird > SOFTRDMA_MAX_QP_RD_ATOM ||
	    param->ord > SOFTRDMA_MAX_QP_RD_ATOM)
		return -EINVAL;
	return 0;
}

static int softrdma_iw_connect(struct iw_cm_id *cm_id,
			       struct iw_cm_conn_param *param)
{
	struct sockaddr *raddr = (struct sockaddr *)&cm_id->m_remote_addr;
	struct sockaddr *laddr = (struct sockaddr *)&cm_id->m_local_addr;
	struct softrdma_dev *sdev = to_sdev(cm_id->device);
	struct softrdma_iw_cep *cep;
	struct softrdma_qp *qp;
	struct socket *sock;
	int addrlen, err;

	if (raddr->sa_family != laddr->sa_family ||
	    (raddr->sa_family != AF_INET && raddr->sa_family != AF_INET6))
		return -EAFNOSUPPORT;
	addrlen = softrdma_iw_addr_len(raddr);
	err = softrdma_iw_check_param(param, READ_ONCE(iw_mpa_rev) >= 2);
	if (err)
		return err;
	qp = softrdma_iw_qp(cm_id, param->qpn);
	if (!qp)
		return -EINVAL;

	err = sock_create_kern(dev_net(sdev->ndev), raddr->sa_family,
			       SOCK_STREAM, IPPROTO_TCP, &sock);
	if (err)
		goto out_put_qp;
	sock_set_reuseaddr(sock->sk);
	tcp_sock_set_nodelay(sock->sk);
	err = kernel_bind(sock, softrdma_sockaddr(laddr), addrlen);
	if (err)
		goto out_release;

	cep = softrdma_iw_cep_alloc(dev_net(sdev->ndev),
				    SOFTRDMA_MAX_QP_RD_ATOM);
	if (!cep) {
		err = -ENOMEM;
		goto out_release;
	}
	cep->mpa_local = (struct softrdma_mpa_local) {
		.rev = clamp_t(u8, READ_ONCE(iw_mpa_rev), IWARP_MPA_REV1,
			       IWARP_MPA_REV2),
		.crc = READ_ONCE(iw_crc),
		.p2p = READ_ONCE(iw_peer_to_peer),
		.rtr = SOFTRDMA_IW_RTR,
		.ird = param->ird,
		.ord = param->ord,
		.max_ird = SOFTRDMA_MAX_QP_RD_ATOM,
		.max_ord = SOFTRDMA_MAX_QP_RD_ATOM,
		.ext = READ_ONCE(iw_large_fpdu),
	};
	softrdma_mpa_request_init(&cep->mpa_local, &cep->mpa_req);
	if (param->private_data_len)
		cep->req_pd = kmemdup(param->private_data,
				      param->private_data_len, GFP_KERNEL);
	cep->mpa_req.pd = cep->req_pd;
	cep->mpa_req.pd_len = param->private_data_len;
	if (param->private_data_len && !cep->req_pd) {
		softrdma_iw_cep_put(cep);
		err = -ENOMEM;
		goto out_release;
	}

	memcpy(&cep->dial_addr, raddr, addrlen);

	mutex_lock(&cep->lock);
	/* the creation reference is the cm_id's, until CLOSED */
	cep->cm_id = cm_id;
	cm_id->add_ref(cm_id);
	cm_id->provider_data = cep;
	cep->qp = qp;
	softrdma_iw_sk_take(cep, sock);
	softrdma_iw_cep_arm_timeout(cep);
	if (softrdma_iw_dial_join(cep)) {
		/* the work item dials when the connect ahead is through */
		softrdma_iw_cep_move(cep, SOFTRDMA_IW_CEP_QUEUED);
		mutex_unlock(&cep->lock);
		return 0;
	}
	softrdma_iw_cep_move(cep, SOFTRDMA_IW_CEP_CONNECTING);
	err = softrdma_iw_dial(cep);
	if (err) {
		/* the iw_cm expects no event after a failed connect */
		cep->cm_id = NULL;
		cm_id->provider_data = NULL;
		cm_id->rem_ref(cm_id);
		softrdma_iw_cep_move(cep, SOFTRDMA_IW_CEP_CLOSED);
		mutex_unlock(&cep->lock);
		softrdma_iw_cep_put(cep);
		return err;
	}
	mutex_unlock(&cep->lock);
	softrdma_iw_cep_kick(cep);
	return 0;

out_release:
	sock_release(sock);
out_put_qp:
	softrdma_qp_put(qp);
	return err;
}

/* RFC 5044 7.1: answer a request with R set; the caller then closes */
static void softrdma_iw_send_reject(struct softrdma_iw_cep *cep,
				    const void *pdata, u8 pdata_len)
{
	struct softrdma_mpa_info rep = {
		.reply = true,
		.reject = true,
		.rev = min(cep->mpa_req.rev, cep->mpa_local.rev),
		.crc = cep->mpa_req.crc,
		.enhanced = cep->mpa_req.enhanced &&
			    cep->mpa_local.rev >= IWARP_MPA_REV2,
		.ird = cep->mpa_res.ird,
		.ord = cep->mpa_res.ord,
		.pd = pdata,
		.pd_len = pdata_len,
	};

	lockdep_assert_held(&cep->lock);

	if (pdata_len > IWARP_MPA_PRIV_MAX -
	    (rep.enhanced ? sizeof(struct iwarp_mpa_v2) : 0))
		rep.pd_len = 0;
	softrdma_iw_send_mpa(cep, &rep);
}

static int softrdma_iw_accept(struct iw_cm_id *cm_id,
			      struct iw_cm_conn_param *param)
{
	struct softrdma_iw_cep *cep = cm_id->provider_data;
	struct softrdma_mpa_info rep;
	struct softrdma_qp *qp;
	int err;

	if (!cep)
		return -EINVAL;

	/* ours, for the whole call: CLOSED may drop every other one */
	softrdma_iw_cep_get(cep);
	mutex_lock(&cep->lock);
	if (!cep->iwcm_ref) {
		mutex_unlock(&cep->lock);
		softrdma_iw_cep_put(cep);
		return -EINVAL;
	}
	/* from here the iw_cm's reference is ours to drop or to keep */
	cep->iwcm_ref = false;

	if (cep->state != SOFTRDMA_IW_CEP_RECVD_MPA_REQ) {
		err = -ECONNRESET;
		goto out_close;
	}
	err = softrdma_iw_check_param(param, cep->mpa_req.enhanced);
	if (err)
		goto out_reject;
	qp = softrdma_iw_qp(cm_id, param->qpn);
	if (!qp) {
		err = -EINVAL;
		goto out_reject;
	}
	cep->qp = qp;

	cep->mpa_local.ird = param->ird;
	cep->mpa_local.ord = param->ord;
	err = softrdma_mpa_negotiate(&cep->mpa_local, &cep->mpa_req, &rep,
				     &cep->mpa_res);
	if (err) {
		/* RFC 6581 4.2: no RTR message in common, say so */
		if (err == -EOPNOTSUPP)
			softrdma_iw_send_mpa(cep, &rep);
		else
			softrdma_iw_send_reject(cep, NULL, 0);
		goto out_close;
	}
	rep.pd = param->private_data;
	rep.pd_len = param->private_data_len;
	err = softrdma_iw_send_mpa(cep, &rep);
	if (err)
		goto out_close;

	/* the iw_cm's reference becomes the association's */
	cep->cm_id = cm_id;
	cm_id->add_ref(cm_id);

	if (cep->mpa_res.rtr) {
		/* RFC 6581 4.2: RDMA mode starts with the initiator's RTR */
		softrdma_iw_rx_expect(cep, IWARP_MPA_LEN_SIZE);
		softrdma_iw_cep_move(cep, SOFTRDMA_IW_CEP_AWAIT_RTR);
		softrdma_iw_cep_arm_timeout(cep);
		mutex_unlock(&cep->lock);
		softrdma_iw_cep_kick(cep);
		wait_for_completion(&cep->rtr_done);
		err = cep->rtr_err;
		softrdma_iw_cep_put(cep);
		return err;
	}

	err = softrdma_iw_cep_attach(cep);
	if (err) {
		softrdma_iw_cep_move(cep, SOFTRDMA_IW_CEP_CLOSED);
	} else {
		softrdma_iw_cep_move(cep, SOFTRDMA_IW_CEP_RDMA_MODE);
		softrdma_iw_upcall(cep, IW_CM_EVENT_ESTABLISHED, 0, NULL);
	}
	mutex_unlock(&cep->lock);
	softrdma_iw_cep_put(cep);
	return err;

out_reject:
	/*
	 * The initiator learns of a failed accept as a rejection, not as a
	 * connection that drops while it waits for the reply (which stock
	 * siw reports as CONNECT_ERROR -EINVAL).
	 */
	softrdma_iw_send_reject(cep, NULL, 0);
out_close:
	/* an error on accept precludes provider events (iwcm.c) */
	if (cep->state != SOFTRDMA_IW_CEP_CLOSED)
		softrdma_iw_cep_move(cep, SOFTRDMA_IW_CEP_CLOSED);
	mutex_unlock(&cep->lock);
	cm_id->provider_data = NULL;
	/* the iw_cm's, then ours */
	softrdma_iw_cep_put(cep);
	softrdma_iw_cep_put(cep);
	return err;
}

static int softrdma_iw_reject(struct iw_cm_id *cm_id, const void *pdata,
			      u8 pdata_len)
{
	struct softrdma_iw_cep *cep = cm_id->provider_data;

	if (!cep)
		return -EINVAL;

	mutex_lock(&cep->lock);
	if (!cep->iwcm_ref) {
		mutex_unlock(&cep->lock);
		return -EINVAL;
	}
	cep->iwcm_ref = false;
	if (cep->state == SOFTRDMA_IW_CEP_RECVD_MPA_REQ) {
		softrdma_iw_send_reject(cep, pdata, pdata_len);
		softrdma_iw_cep_move(cep, SOFTRDMA_IW_CEP_CLOSED);
	}
	mutex_unlock(&cep->lock);
	cm_id->provider_data = NULL;
	softrdma_iw_cep_put(cep);
	return 0;
}

/**
 * softrdma_iw_cm_conn_closed() - the data path gives a connection back
 * @cep: the endpoint passed to softrdma_iwarp_qp_attach()
 * @sock: its socket
 * @err: 0 for an orderly close, -ECONNRESET for a reset or error
 *
 * See iw_cm.h.  Reports DISCONNECT and CLOSE (RDMA_CM_EVENT_DISCONNECTED
 * to the application), releases the socket and the references.
 */
void softrdma_iw_cm_conn_closed(struct softrdma_iw_cep *cep,
				struct socket *sock, int err)
{
	mutex_lock(&cep->lock);
	if (cep->state == SOFTRDMA_IW_CEP_RDMA_MODE ||
	    cep->state == SOFTRDMA_IW_CEP_CLOSING) {
		softrdma_iw_upcall(cep, IW_CM_EVENT_DISCONNECT, err, NULL);
		softrdma_iw_upcall(cep, IW_CM_EVENT_CLOSE, err, NULL);
		softrdma_iw_cep_move(cep, SOFTRDMA_IW_CEP_CLOSED);
	}
	mutex_unlock(&cep->lock);
	sock_release(sock);
	softrdma_iw_cep_put(cep);
}

/* --- QP references for the iw_cm --------------------------------------- */

/*
 * The iw_cm calls iw_get_qp() and then, under the same lock, iw_add_ref()
 * on what it returned, once per connect or accept.  The reference the lookup
 * takes is the iw_cm's, so that a QP its owner destroys in between is never
 * freed under it; iw_add_ref() takes no second one, and iw_rem_ref() drops
 * it.
 */
static void softrdma_iw_add_ref(struct ib_qp *ibqp)
{
}

static void softrdma_iw_rem_ref(struct ib_qp *ibqp)
{
	softrdma_qp_put(to_sqp(ibqp));
}

static struct ib_qp *softrdma_iw_get_qp(struct ib_device *ibdev, int qpn)
{
	struct softrdma_qp *qp;

	/* the reference is the iw_cm's (softrdma_iw_add_ref()) */
	qp = softrdma_qp_get(to_sdev(ibdev), qpn);
	return qp ? &qp->ibqp : NULL;
}

const struct ib_device_ops softrdma_iw_cm_ops = {
	.iw_accept = softrdma_iw_accept,
	.iw_add_ref = softrdma_iw_add_ref,
	.iw_connect = softrdma_iw_connect,
	.iw_create_listen = softrdma_iw_create_listen,
	.iw_destroy_listen = softrdma_iw_destroy_listen,
	.iw_get_qp = softrdma_iw_get_qp,
	.iw_reject = softrdma_iw_reject,
	.iw_rem_ref = softrdma_iw_rem_ref,
};

/* --- namespaces and module --------------------------------------------- */

/* abort every endpoint of @net (every one if NULL) and wait for them */
static void softrdma_iw_cm_abort_net(struct net *net)
{
	struct softrdma_iw_cep *cep, *next;
	LIST_HEAD(ceps);

	mutex_lock(&softrdma_iw_cm_mutex);
	list_for_each_entry(cep, &softrdma_iw_ceps, all_link) {
		if (net && cep->net != net)
			continue;
		if (!kref_get_unless_zero(&cep->ref))
			continue;
		list_add_tail(&cep->abort_link, &ceps);
	}
	mutex_unlock(&softrdma_iw_cm_mutex);

	list_for_each_entry_safe(cep, next, &ceps, abort_link) {
		list_del(&cep->abort_link);
		softrdma_iw_cep_abort(cep);
		if (!wait_for_completion_timeout(&cep->closed, 10 * HZ))
			pr_err("softrdma: iWARP connection not closed by its data path\n");
		softrdma_iw_cep_put(cep);
	}
}

static void __net_exit softrdma_iw_cm_net_exit(struct net *net)
{
	softrdma_iw_cm_abort_net(net);
}

static struct pernet_operations softrdma_iw_cm_net_ops = {
	.exit = softrdma_iw_cm_net_exit,
};

int softrdma_iw_cm_init(void)
{
	int err;

	softrdma_iw_wq = alloc_ordered_workqueue("softrdma_iw_cm", 0);
	if (!softrdma_iw_wq)
		return -ENOMEM;
	/*
	 * Registered after TCP's, so a namespace's endpoints are aborted
	 * before its TCP state goes.
	 */
	err = register_pernet_subsys(&softrdma_iw_cm_net_ops);
	if (err)
		destroy_workqueue(softrdma_iw_wq);
	return err;
}

/*
 * After every device is gone: every cm_id and QP was destroyed with them,
 * so every endpoint is CLOSED.  What is left is an endpoint whose
 * CONNECT_REQUEST the iw_cm dropped while its listener went away; free it.
 */
void softrdma_iw_cm_exit(void)
{
	struct softrdma_iw_cep *cep, *next;

	unregister_pernet_subsys(&softrdma_iw_cm_net_ops);
	softrdma_iw_cm_abort_net(NULL);
	destroy_workqueue(softrdma_iw_wq);

	mutex_lock(&softrdma_iw_cm_mutex);
	list_for_each_entry_safe(cep, next, &softrdma_iw_ceps, all_link) {
		list_del(&cep->all_link);
		mutex_destroy(&cep->lock);
		kfree(cep->req_pd);
		kfree(cep);
	}
	mutex_unlock(&softrdma_iw_cm_mutex);
}
