// SPDX-License-Identifier: GPL-2.0-only
/*
 * The iWARP transport of a queue pair: its state (struct
 * softrdma_iwarp_qp behind softrdma_qp_iw(qp)), the connection's life from
 * softrdma_iwarp_qp_attach() to softrdma_iw_cm_conn_closed(), and the
 * TCP socket's callbacks, which feed the receive engine (iwarp_rx.c) and
 * resume the transmit engine (iwarp_tx.c).
 *
 * The socket belongs to the data path from attach until stop: its
 * sk_data_ready, sk_write_space and sk_state_change are ours, installed
 * and restored under sk_callback_lock, which each callback holds (read)
 * while it runs, so that once stop has restored them none of ours is
 * running or can start.  Callbacks never sleep: what needs process
 * context (sending, the QP's move to ERR) goes to work items.
 *
 * How a connection ends: the peer's FIN or RST, a TERMINATE either way,
 * a socket error, or a local error all come to softrdma_iwarp_qp_fatal(),
 * which records why and asks qp.c to move the QP to ERR.  qp.c then
 * stops the transport (as it does for modify_qp to ERR and destroy):
 * stop restores the callbacks, lets a pending TERMINATE go out, and
 * hands the socket back to the CM from a work item, exactly once.
 */
#include <linux/slab.h>
#include <linux/tcp.h>
#include <kunit/visibility.h>
#include <net/sock.h>
#include <net/tcp.h>
#include <rdma/restrack.h>
#include <uapi/rdma/rdma_netlink.h>

#include "counters.h"
#include "device.h"
#include "iw_cm.h"
#include "iwarp_qp.h"
#include "iwarp_rx.h"
#include "iwarp_tx.h"
#include "param.h"
#include "port.h"
#include "qp.h"
#include "qp_state.h"
#include "queue.h"
#include "transport.h"

/**
 * softrdma_iwarp_qp_fatal() - the connection must end; the QP goes to ERR
 * @qp: an iWARP QP; sq.lock held
 * @err: 0 for an orderly end, -ECONNRESET for a reset or protocol error
 * @cause: why, for the affiliated event (SOFTRDMA_QP_ERR_CLOSED: none)
 *
 * Only the first call counts.  Context: any.
 */
void softrdma_iwarp_qp_fatal(struct softrdma_qp *qp, int err,
			     enum softrdma_qp_err_cause cause)
{
	struct softrdma_iwarp_qp *iw = softrdma_qp_iw(qp);

	lockdep_assert_held(&qp->sq.lock);

	if (iw->tx.state == SOFTRDMA_IW_TX_RUNNING)
		softrdma_iw_tx_move(qp, SOFTRDMA_IW_TX_CLOSING);
	if (iw->closing)
		return;
	iw->closing = true;
	iw->close_err = err;
	ibdev_dbg(&qp->sdev->ibdev, "QP %u: connection ends (%d, cause %d)\n",
		  softrdma_qpn(qp), err, cause);
	softrdma_qp_fail(qp, cause);
}

/* sk_data_ready: bytes arrived, read them now (softirq, socket locked) */
static void softrdma_iw_sk_data_ready(struct sock *sk)
{
	struct softrdma_iwarp_qp *iw;

	read_lock_bh(&sk->sk_callback_lock);
	iw = sk->sk_user_data;
	if (iw)
		softrdma_iw_rx_read(iw->qp, sk);
	read_unlock_bh(&sk->sk_callback_lock);
}

/*
 * sk_write_space: TCP freed send buffer, or took an ACK while a
 * completion waits for one (softrdma_iw_tx_retire() set SOCK_NOSPACE
 * for that, and sets it again if it must wait on): resume a parked
 * transmitter, complete what the ACK released.
 */
static void softrdma_iw_sk_write_space(struct sock *sk)
{
	struct softrdma_iwarp_qp *iw;
	struct softrdma_qp *qp;

	read_lock_bh(&sk->sk_callback_lock);
	iw = sk->sk_user_data;
	if (!iw)
		goto out_unlock;
	qp = iw->qp;
	if (sk_stream_is_writeable(sk)) {
		if (sk->sk_socket)
			clear_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
		softrdma_iw_tx_schedule(qp);
	}
	if (READ_ONCE(iw->tx.ack_armed)) {
		spin_lock_bh(&qp->sq.lock);
		softrdma_iw_tx_retire(qp);
		spin_unlock_bh(&qp->sq.lock);
	}
out_unlock:
	read_unlock_bh(&sk->sk_callback_lock);
}

/* sk_state_change: the peer's FIN or RST, or a local failure */
static void softrdma_iw_sk_state_change(struct sock *sk)
{
	struct softrdma_iwarp_qp *iw;
	struct softrdma_qp *qp;
	bool reset;

	read_lock_bh(&sk->sk_callback_lock);
	iw = sk->sk_user_data;
	if (!iw || sk->sk_state == TCP_ESTABLISHED)
		goto out_unlock;
	qp = iw->qp;
	reset = sk->sk_err || sk->sk_state == TCP_CLOSE;
	softrdma_counter_inc(qp->sdev, reset ? SOFTRDMA_CNT_IW_PEER_RESET :
					       SOFTRDMA_CNT_IW_PEER_CLOSED);
	spin_lock_bh(&qp->sq.lock);
	/* what the segment that ended it acknowledged completes first */
	softrdma_iw_tx_retire(qp);
	/* the CM reports the end of the stream: no QP event */
	softrdma_iwarp_qp_fatal(qp, reset ? -ECONNRESET : 0,
				SOFTRDMA_QP_ERR_CLOSED);
	spin_unlock_bh(&qp->sq.lock);
out_unlock:
	read_unlock_bh(&sk->sk_callback_lock);
}

/**
 * softrdma_iw_sk_prepare() - fit a connection's socket for the data path
 * @sk: the socket, held by the caller (lock_sock())
 *
 * The transmit engine also writes to the socket from TCP's receive
 * softirq (softrdma_iw_tx_run_locked()), on top of whatever task that
 * softirq interrupted.  TCP copies the bytes it is given by address (an
 * FPDU's header, copied payload, pad and CRC) into sk_page_frag(): the
 * current task's page fragment while sk_use_task_frag is set.  6.12
 * looks at that flag alone; Debian's 6.1 also wants a blocking
 * sk_allocation, which the softirq path clears, so only 6.12 took the
 * task's fragment there.  A task interrupted in the middle of its own
 * copy into that fragment (a Send or Write on another QP's socket, or
 * any other socket) then has part of what it copied overwritten, or the
 * fragment's page taken away from under it: a corrupt FPDU, which the
 * peer reports as a CRC error, or corrupt data on an unrelated
 * connection.  The socket's own fragment is only used with the socket
 * held, as the softirq path holds it.
 */
VISIBLE_IF_KUNIT void softrdma_iw_sk_prepare(struct sock *sk)
{
	sock_owned_by_me(sk);
	sk->sk_use_task_frag = false;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_iw_sk_prepare);

static void softrdma_iw_sk_install(struct softrdma_iwarp_qp *iw,
				   struct sock *sk)
{
	write_lock_bh(&sk->sk_callback_lock);
	iw->saved_user_data = sk->sk_user_data;
	iw->saved_data_ready = sk->sk_data_ready;
	iw->saved_write_space = sk->sk_write_space;
	iw->saved_state_change = sk->sk_state_change;
	sk->sk_user_data = iw;
	sk->sk_data_ready = softrdma_iw_sk_data_ready;
	sk->sk_write_space = softrdma_iw_sk_write_space;
	sk->sk_state_change = softrdma_iw_sk_state_change;
	write_unlock_bh(&sk->sk_callback_lock);
}

/* After this returns no callback of ours runs on @sk, nor will */
static void softrdma_iw_sk_restore(struct softrdma_iwarp_qp *iw,
				   struct sock *sk)
{
	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_user_data = iw->saved_user_data;
	sk->sk_data_ready = iw->saved_data_ready;
	sk->sk_write_space = iw->saved_write_space;
	sk->sk_state_change = iw->saved_state_change;
	write_unlock_bh(&sk->sk_callback_lock);
}

/* Hands the socket back to the CM, outside every QP lock */
static void softrdma_iw_close_work(struct work_struct *work)
{
	struct softrdma_iwarp_qp *iw = container_of(work,
						    struct softrdma_iwarp_qp,
						    close_work);

	softrdma_iw_cm_conn_closed(iw->closed_cep, iw->closed_sock,
				   iw->closed_err);
}

/**
 * softrdma_iwarp_qp_init() - the iWARP state of a new QP
 * @qp: the QP, its queues created
 *
 * Context: process.  Return: 0 or -ENOMEM.
 */
int softrdma_iwarp_qp_init(struct softrdma_qp *qp)
{
	struct softrdma_iwarp_qp *iw;

	iw = kvzalloc(sizeof(*iw), SOFTRDMA_GFP_USER_SIZED);
	if (!iw)
		return -ENOMEM;
	iw->tx.st = kvcalloc(softrdma_ring_num_slots(qp->sq.ring),
			     sizeof(*iw->tx.st), SOFTRDMA_GFP_USER_SIZED);
	if (!iw->tx.st) {
		kvfree(iw);
		return -ENOMEM;
	}
	iw->qp = qp;
	init_waitqueue_head(&iw->tx.idle);
	INIT_WORK(&iw->tx.work, softrdma_iw_tx_work);
	INIT_WORK(&iw->close_work, softrdma_iw_close_work);
	softrdma_iw_rx_reset(&iw->rx, false);
	to_iw_qp(qp)->iw = iw;
	return 0;
}

/**
 * softrdma_iwarp_qp_destroy() - free the iWARP state
 * @qp: the QP, stopped, no reference left but the caller's
 *
 * Waits for the hand-back of the socket to the CM, if one is pending.
 */
void softrdma_iwarp_qp_destroy(struct softrdma_qp *qp)
{
	struct softrdma_iwarp_qp *iw = softrdma_qp_iw(qp);

	if (!iw)
		return;
	cancel_work_sync(&iw->tx.work);
	flush_work(&iw->close_work);
	/*
	 * A resource dump may be reading the state (on 6.12 the core calls
	 * destroy_qp before it waits for the dumps): it looks under sq.lock.
	 */
	spin_lock_bh(&qp->sq.lock);
	to_iw_qp(qp)->iw = NULL;
	spin_unlock_bh(&qp->sq.lock);
	softrdma_iw_fpdu_release(&iw->tx.fpdu);
	kvfree(iw->tx.fpdu.lin);
	kvfree(iw->tx.st);
	kvfree(iw);
}

/**
 * softrdma_iwarp_qp_reset() - forget all protocol state (RESET)
 * @qp: the QP, stopped; state_mutex held
 */
void softrdma_iwarp_qp_reset(struct softrdma_qp *qp)
{
	struct softrdma_iwarp_qp *iw = softrdma_qp_iw(qp);

	lockdep_assert_held(&qp->state_mutex);

	if (!iw)
		return;
	softrdma_iw_tx_reset(qp);
	softrdma_iw_rx_reset(&iw->rx, false);
}

/**
 * softrdma_iwarp_qp_start() - the QP's new state lets data flow
 * @qp: the QP; state_mutex held
 *
 * Nothing flows before attach; an attached QP back in RTS (SQD to RTS)
 * sends again.
 */
void softrdma_iwarp_qp_start(struct softrdma_qp *qp)
{
	struct softrdma_iwarp_qp *iw = softrdma_qp_iw(qp);
	bool kick = false;

	lockdep_assert_held(&qp->state_mutex);

	if (!iw)
		return;
	spin_lock_bh(&qp->sq.lock);
	if (iw->sock && !iw->closing && qp->state == IB_QPS_RTS) {
		softrdma_iw_tx_move(qp, SOFTRDMA_IW_TX_RUNNING);
		kick = true;
	}
	spin_unlock_bh(&qp->sq.lock);
	if (kick)
		softrdma_iw_tx_schedule(qp);
}

/**
 * softrdma_iwarp_qp_kick() - the doorbell: send what was posted
 * @qp: the QP
 *
 * A user QP's doorbell is a write() system call: send right here.  Kernel
 * consumers may post from any context, so their sends go to the work
 * item.
 */
void softrdma_iwarp_qp_kick(struct softrdma_qp *qp)
{
	if (!softrdma_qp_iw(qp))
		return;
	if (qp->user && in_task())
		softrdma_iw_tx_run(qp);
	else
		softrdma_iw_tx_schedule(qp);
}

/**
 * softrdma_iwarp_qp_stop() - end the connection; nothing runs afterwards
 * @qp: the QP; state_mutex held
 *
 * Restores the socket's callbacks, waits for a sender, lets a TERMINATE
 * the receive side asked for go out, drops what the engines hold and
 * hands the socket back to the CM (softrdma_iw_cm_conn_closed(), from a
 * work item: the CM is called without QP locks).  Outstanding WQEs stay
 * for qp.c to flush.  Idempotent.
 */
void softrdma_iwarp_qp_stop(struct softrdma_qp *qp)
{
	struct softrdma_iwarp_qp *iw = softrdma_qp_iw(qp);
	struct socket *sock;

	lockdep_assert_held(&qp->state_mutex);

	if (!iw)
		return;
	spin_lock_bh(&qp->sq.lock);
	if (iw->tx.state == SOFTRDMA_IW_TX_RUNNING)
		softrdma_iw_tx_move(qp, SOFTRDMA_IW_TX_CLOSING);
	sock = iw->sock;
	spin_unlock_bh(&qp->sq.lock);
	if (!sock)
		return;

	softrdma_iw_sk_restore(iw, sock->sk);
	cancel_work_sync(&iw->tx.work);
	wait_event(iw->tx.idle, softrdma_iw_tx_idle(qp));
	/* only a TERMINATE (after the FPDU in flight) still goes out */
	softrdma_iw_tx_run(qp);
	softrdma_iw_rx_stop(qp);

	spin_lock_bh(&qp->sq.lock);
	/* completions the last ACKs released; the rest will be flushed */
	softrdma_iw_tx_retire(qp);
	if (iw->tx.term_pending)
		softrdma_counter_inc(qp->sdev, SOFTRDMA_CNT_IW_TERM_UNSENT);
	iw->tx.term_pending = false;
	softrdma_iw_fpdu_release(&iw->tx.fpdu);
	iw->tx.fpdu_active = false;
	softrdma_iw_tx_move(qp, SOFTRDMA_IW_TX_DEAD);
	iw->closed_sock = sock;
	iw->closed_cep = iw->cep;
	iw->closed_err = iw->close_err;
	iw->sock = NULL;
	iw->cep = NULL;
	iw->closing = true;
	spin_unlock_bh(&qp->sq.lock);

	queue_work(system_wq, &iw->close_work);
}

/**
 * softrdma_iwarp_qp_drain() - the QP entered SQD: close the connection
 * @qp: the QP; state_mutex held
 *
 * RTS -> SQD is the RDMAC verbs' Closing state, where the iw_cm and
 * rdma_disconnect() put a QP for a graceful close: as stock siw does, the
 * connection is closed in order and the QP then enters ERR, which
 * flushes what is still posted (consumers such as rping wait for those
 * flushed completions).
 */
void softrdma_iwarp_qp_drain(struct softrdma_qp *qp)
{
	lockdep_assert_held(&qp->state_mutex);

	if (!softrdma_qp_iw(qp))
		return;
	spin_lock_bh(&qp->sq.lock);
	if (softrdma_qp_iw(qp)->sock)
		softrdma_iwarp_qp_fatal(qp, 0, SOFTRDMA_QP_ERR_CLOSED);
	spin_unlock_bh(&qp->sq.lock);
}

/* The FPDU buffer for @max_ulpdu, kept across connections if it fits */
static int softrdma_iw_alloc_lin(struct softrdma_iwarp_qp *iw, u32 max_ulpdu)
{
	size_t size = SOFTRDMA_IW_LIN_SIZE(max_ulpdu);
	u8 *lin;

	if (iw->tx.fpdu.lin && iw->lin_size >= size)
		return 0;
	lin = kvmalloc(size, GFP_KERNEL);
	if (!lin)
		return -ENOMEM;
	kvfree(iw->tx.fpdu.lin);
	iw->tx.fpdu.lin = lin;
	iw->lin_size = size;
	return 0;
}

/**
 * softrdma_iwarp_qp_conn_attr() - what query_qp reports of a connected QP
 * @a: the QP's attributes (qp->attr); its state_mutex held
 * @p: what the connection negotiated (after softrdma_iwarp_qp_attach()'s
 *	clamps)
 * @netdev_mtu: the MTU of the device's netdev
 *
 * Once the connection manager brought the QP to RTS, query_qp reports
 * what holds on the connection, whatever was set before: the device's
 * one port; the rights RDMAP gives every connected QP (a peer's RDMA
 * Write and Read are limited by the STag they name, RFC 5040 5.3 and
 * 5.4, not by the QP), as stock siw reports them; the RDMA Read depths
 * negotiated (RFC 6581 5: max_rd_atomic is our ORD, the Reads we may have
 * open, max_dest_rd_atomic our IRD, those the peer may); and the path
 * MTU the port reports, the largest IB MTU that fits in a frame.
 */
VISIBLE_IF_KUNIT void
softrdma_iwarp_qp_conn_attr(struct ib_qp_attr *a,
			    const struct softrdma_iwarp_params *p,
			    unsigned int netdev_mtu)
{
	a->port_num = 1;
	a->qp_access_flags = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
			     IB_ACCESS_REMOTE_READ;
	a->max_rd_atomic = p->ord;
	a->max_dest_rd_atomic = p->ird;
	a->path_mtu = softrdma_port_mtu_within(netdev_mtu);
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_iwarp_qp_conn_attr);

int softrdma_iwarp_qp_attach(struct softrdma_qp *qp, struct socket *sock,
			     const struct softrdma_iwarp_params *params,
			     struct softrdma_iw_cep *cep)
{
	struct softrdma_iwarp_qp *iw = softrdma_qp_iw(qp);
	struct sock *sk = sock->sk;
	struct softrdma_iwarp_params p = *params;
	int err;

	if (!iw)
		return -EOPNOTSUPP;
	/* RFC 5044 7.1: nothing above the 16-bit length, nothing silly */
	p.max_ulpdu = clamp(p.max_ulpdu, SOFTRDMA_IW_MIN_ULPDU,
			    SOFTRDMA_IW_MAX_ULPDU);
	/*
	 * MPA revision 1 exchanges no IRD/ORD (RFC 6581 adds them): allow
	 * one READ each way rather than none, so a READ never waits forever.
	 */
	p.ird = clamp_t(u32, p.ird, 1, SOFTRDMA_IW_MAX_RD);
	p.ord = clamp_t(u32, p.ord, 1, SOFTRDMA_IW_MAX_RD);

	mutex_lock(&qp->state_mutex);
	if (qp->state != IB_QPS_INIT && qp->state != IB_QPS_RTR) {
		err = -EINVAL;
		goto out_unlock;
	}
	if (iw->sock || work_pending(&iw->close_work)) {
		err = -EBUSY;
		goto out_unlock;
	}
	err = softrdma_iw_alloc_lin(iw, p.max_ulpdu);
	if (err)
		goto out_unlock;

	softrdma_iw_tx_reset(qp);
	softrdma_iw_rx_reset(&iw->rx, p.crc);
	spin_lock_bh(&qp->sq.lock);
	iw->params = p;
	iw->sock = sock;
	iw->cep = cep;
	iw->closing = false;
	iw->close_err = 0;
	softrdma_iw_tx_move(qp, SOFTRDMA_IW_TX_RUNNING);
	spin_unlock_bh(&qp->sq.lock);

	tcp_sock_set_nodelay(sk);
	/*
	 * Owning the socket holds TCP's receive processing back (segments
	 * wait in its backlog until release_sock()), so no callback of ours
	 * sees the QP before it is in RTS: the peer may send its first FPDU
	 * the moment it has our MPA reply, and a header read in INIT or RTR
	 * would be taken for a dead connection and discarded.
	 */
	lock_sock(sk);
	softrdma_iw_sk_prepare(sk);
	softrdma_iw_sk_install(iw, sk);
	/* cannot fail: the state was checked under the same mutex */
	softrdma_iwarp_qp_connected(qp);
	softrdma_iwarp_qp_conn_attr(&qp->attr, &p,
				    READ_ONCE(qp->sdev->ndev->mtu));
	/*
	 * Bytes that came before our callbacks did: read them now, with
	 * bottom halves off as sk_data_ready reads.  A peer that closed
	 * meanwhile is caught the same way.
	 */
	local_bh_disable();
	softrdma_iw_rx_read(qp, sk);
	local_bh_enable();
	release_sock(sk);
	if (READ_ONCE(sk->sk_state) != TCP_ESTABLISHED)
		softrdma_iw_sk_state_change(sk);
	mutex_unlock(&qp->state_mutex);

	softrdma_iw_tx_schedule(qp);
	return 0;

out_unlock:
	mutex_unlock(&qp->state_mutex);
	return err;
}

/* the engines' state; sq.lock held */
static int softrdma_iw_res_put_tx(struct sk_buff *msg,
				  const struct softrdma_iw_tx *tx)
{
	return rdma_nl_put_driver_string(msg, "tx_state",
					 softrdma_iw_tx_state_name(tx->state)) ||
	       rdma_nl_put_driver_u32(msg, "tx_running",
				      tx->state == SOFTRDMA_IW_TX_RUNNING) ||
	       rdma_nl_put_driver_u32(msg, "tx_busy", tx->busy) ||
	       rdma_nl_put_driver_u32(msg, "tx_dead",
				      tx->state == SOFTRDMA_IW_TX_DEAD) ||
	       rdma_nl_put_driver_u32(msg, "tx_fpdu_active", tx->fpdu_active) ||
	       rdma_nl_put_driver_u32(msg, "tx_msg", tx->msg) ||
	       rdma_nl_put_driver_u32(msg, "tx_fpdu_sent", tx->fpdu.sent) ||
	       rdma_nl_put_driver_u32(msg, "tx_fpdu_total", tx->fpdu.total) ||
	       rdma_nl_put_driver_u32(msg, "tx_orq", tx->orq.count) ||
	       rdma_nl_put_driver_u32(msg, "tx_irq", tx->irq.count) ||
	       rdma_nl_put_driver_u32(msg, "tx_term_pending", tx->term_pending);
}

/* what TCP holds for the connection; racy reads, for diagnosis only */
static int softrdma_iw_res_put_sock(struct sk_buff *msg, struct socket *sock)
{
	struct sock *sk = sock->sk;

	return rdma_nl_put_driver_u32(msg, "sk_state",
				      READ_ONCE(sk->sk_state)) ||
	       rdma_nl_put_driver_u32(msg, "sk_wmem_queued",
				      READ_ONCE(sk->sk_wmem_queued)) ||
	       rdma_nl_put_driver_u32(msg, "sk_sndbuf",
				      READ_ONCE(sk->sk_sndbuf)) ||
	       rdma_nl_put_driver_u32(msg, "sk_nospace",
				      test_bit(SOCK_NOSPACE, &sock->flags)) ||
	       rdma_nl_put_driver_u32(msg, "sk_writeable",
				      sk_stream_is_writeable(sk));
}

/**
 * softrdma_iwarp_fill_res_qp_entry() - restrack's driver attributes
 * @msg: the netlink message
 * @ibqp: an iWARP QP
 *
 * Where the send queue and the engines stand (rdma -dd res show qp), so
 * that a stalled connection can be read from a live system.
 *
 * Return: 0, or -EMSGSIZE when @msg is full.
 */
int softrdma_iwarp_fill_res_qp_entry(struct sk_buff *msg, struct ib_qp *ibqp)
{
	struct softrdma_qp *qp = to_sqp(ibqp);
	struct softrdma_iwarp_qp *iw;
	struct nlattr *nest;
	int err = 0;

	nest = nla_nest_start_noflag(msg, RDMA_NLDEV_ATTR_DRIVER);
	if (!nest)
		return -EMSGSIZE;

	/*
	 * The QP may be being destroyed (on 6.12 the core destroys it before
	 * waiting for this dump): its iWARP state goes under sq.lock before
	 * it is freed, and its rings after that.  The socket stays until
	 * stop, which takes state_mutex and sq.lock.
	 */
	spin_lock_bh(&qp->sq.lock);
	iw = softrdma_qp_iw(qp);
	if (iw &&
	    (softrdma_qp_fill_res_sq(msg, qp) ||
	     softrdma_iw_res_put_tx(msg, &iw->tx) ||
	     (iw->sock && softrdma_iw_res_put_sock(msg, iw->sock)) ||
	     rdma_nl_put_driver_u32(msg, "rx_state", READ_ONCE(iw->rx.state))))
		err = -EMSGSIZE;
	spin_unlock_bh(&qp->sq.lock);

	if (err) {
		nla_nest_cancel(msg, nest);
		return err;
	}
	nla_nest_end(msg, nest);
	return 0;
}

static const struct softrdma_qp_engine softrdma_iwarp_qp_engine_ops = {
	.init = softrdma_iwarp_qp_init,
	.destroy = softrdma_iwarp_qp_destroy,
	.reset = softrdma_iwarp_qp_reset,
	.start = softrdma_iwarp_qp_start,
	.kick = softrdma_iwarp_qp_kick,
	.stop = softrdma_iwarp_qp_stop,
};

/* one engine: softrdma_iwarp_qp_check_init() takes RC QPs only */
const struct softrdma_qp_engine *
softrdma_iwarp_qp_engine(enum ib_qp_type type)
{
	return &softrdma_iwarp_qp_engine_ops;
}

/*
 * iWARP QPs (RFC 5040 is reliable connected only): the siw ABI's bounds,
 * and, as stock siw, no QP without a send queue.
 */
int softrdma_iwarp_qp_check_init(const struct ib_qp_init_attr *init,
				 bool user)
{
	const struct ib_qp_cap *cap = &init->cap;

	if (!cap->max_send_wr || cap->max_send_wr > SOFTRDMA_IWARP_MAX_QP_WR ||
	    cap->max_recv_wr > SOFTRDMA_IWARP_MAX_QP_WR ||
	    cap->max_send_sge > SOFTRDMA_IWARP_MAX_SGE ||
	    cap->max_recv_sge > SOFTRDMA_IWARP_MAX_SGE ||
	    cap->max_inline_data > SOFTRDMA_IWARP_MAX_INLINE)
		return -EINVAL;
	if (init->sq_sig_type != IB_SIGNAL_ALL_WR &&
	    init->sq_sig_type != IB_SIGNAL_REQ_WR)
		return -EINVAL;
	if (!init->send_cq || !init->recv_cq)
		return -EINVAL;
	/* no UD or GSI QP: those are RoCE's */
	if (init->qp_type != IB_QPT_RC)
		return -EOPNOTSUPP;
	return 0;
}

/**
 * softrdma_iwarp_qp_transition() - softrdma_qp_transition() for an iWARP QP
 * @cur: the state the QP is in
 * @next: the state asked for (equal to @cur when IB_QP_STATE is not set)
 * @mask: the modify_qp attribute mask
 * @actions: set to the SOFTRDMA_QP_ACT_* the transition requires
 *
 * iWARP QPs follow the RDMAC verbs' states (Idle, RTS, Closing, Terminate,
 * Error) as stock siw maps them onto the IB ones, and are driven by the
 * connection managers, not by IBA table 91's attribute rules:
 *  - RESET -> INIT, INIT -> INIT and INIT -> RTR carry IB_QP_STATE with
 *    IB_QP_ACCESS_FLAGS and IB_QP_PORT at most (iw_cm_init_qp_attr(), and
 *    rdma_init_qp_attr() adds the port), RTR -> RTR the same;
 *  - RTS is entered only by the connection manager handing the QP a
 *    connected socket (softrdma_iwarp_qp_attach()); asking modify_qp for
 *    RTS is accepted only as a no-op on a QP already in RTS, as stock siw
 *    refuses RTS without a socket (-EINVAL);
 *  - RTS -> SQD is the RDMAC Closing state (iw_cm and librdmacm's
 *    rdma_disconnect() on a graceful close); ERR -> SQD succeeds and
 *    stays in ERR, as in stock siw (a peer that closed first has already
 *    moved the QP to ERR when the application disconnects), but flushes
 *    again, as every modify of a QP in ERR does;
 *  - any state -> RESET or ERR (IBA 10.3.1, RDMAC: Error).
 * IB-only attributes (SOFTRDMA_IWARP_QP_ATTRS lists the others) make the
 * request invalid.
 *
 * Return: 0, or -EINVAL.
 */
int softrdma_iwarp_qp_transition(enum ib_qp_state cur, enum ib_qp_state next,
				 int mask, unsigned int *actions)
{
	*actions = 0;

	if ((mask & ~SOFTRDMA_IWARP_QP_ATTRS) || cur > IB_QPS_ERR ||
	    next > IB_QPS_ERR)
		return -EINVAL;

	/*
	 * Attributes only, in any state (stock siw takes them anywhere); in
	 * ERR they flush again what was posted since, as for IB QPs.
	 */
	if (!(mask & IB_QP_STATE) || cur == next) {
		if (cur == IB_QPS_ERR)
			*actions = SOFTRDMA_QP_ACT_FLUSH;
		return 0;
	}

	switch (next) {
	case IB_QPS_RESET:
		*actions = SOFTRDMA_QP_ACT_RESET;
		return 0;
	case IB_QPS_ERR:
		*actions = SOFTRDMA_QP_ACT_FLUSH;
		return 0;
	case IB_QPS_INIT:
		return cur == IB_QPS_RESET ? 0 : -EINVAL;
	case IB_QPS_RTR:
		if (cur != IB_QPS_INIT)
			return -EINVAL;
		*actions = SOFTRDMA_QP_ACT_RECV;
		return 0;
	case IB_QPS_SQD:
		if (cur == IB_QPS_ERR) {
			*actions = SOFTRDMA_QP_ACT_FLUSH;
			return 0;
		}
		if (cur != IB_QPS_RTS)
			return -EINVAL;
		*actions = SOFTRDMA_QP_ACT_DRAIN;
		return 0;
	default:
		/* RTS only through the connection manager; SQE is IB UD/UC */
		return -EINVAL;
	}
}

/*
 * iWARP modify_qp (softrdma_iwarp_qp_transition() has
 * the transitions): the state, the
 * access flags, the port, the RDMA Read depths and the IB values kept
 * for query_qp; the IB attributes stock siw ignores are ignored
 * (SOFTRDMA_IWARP_QP_IGNORED).  The QP reaches RTS through
 * softrdma_iwarp_qp_connected().
 */
int softrdma_iwarp_modify_qp(struct softrdma_qp *qp, struct ib_qp_attr *attr,
			     int mask)
{
	static const struct softrdma_qp_limits limits = {
		.max_path_mtu = IB_MTU_4096,
		.max_rd_atomic = SOFTRDMA_MAX_QP_RD_ATOM,
		.max_dest_rd_atomic = SOFTRDMA_MAX_QP_RD_ATOM,
	};
	enum ib_qp_state cur, next;
	unsigned int actions;
	int err;

	mutex_lock(&qp->state_mutex);
	err = softrdma_qp_current_state(qp->state, attr, mask, &cur);
	if (err)
		goto out_unlock;
	next = (mask & IB_QP_STATE) ? attr->qp_state : cur;
	err = softrdma_iwarp_qp_transition(cur, next, mask, &actions);
	if (err)
		goto out_unlock;
	mask &= ~SOFTRDMA_IWARP_QP_IGNORED;
	err = softrdma_qp_check_attr(attr, mask, &limits);
	if (err)
		goto out_unlock;
	/* iWARP has no atomics to allow (RFC 7306 is not implemented) */
	if ((mask & IB_QP_ACCESS_FLAGS) &&
	    (attr->qp_access_flags & IB_ACCESS_REMOTE_ATOMIC)) {
		err = -EINVAL;
		goto out_unlock;
	}

	if (actions & SOFTRDMA_QP_ACT_RESET)
		softrdma_qp_transport_stop(qp);
	softrdma_qp_store_attr(qp, attr, mask);
	softrdma_qp_apply_actions(qp, next, actions);
	/* rdma_disconnect() asks for SQD: the data path closes the stream */
	if (actions & SOFTRDMA_QP_ACT_DRAIN)
		softrdma_iwarp_qp_drain(qp);

out_unlock:
	mutex_unlock(&qp->state_mutex);
	return err;
}

/**
 * softrdma_iwarp_qp_connected() - the connection manager made an iWARP
 * QP operational
 * @qp: an iWARP QP in INIT or RTR; the caller holds qp->state_mutex
 *
 * For softrdma_iwarp_qp_attach(), once the data path owns the socket: the
 * QP enters RTS.  libsiw may already have posted (post_send before RTS
 * fails with -ENOTCONN but leaves the WQE VALID in the ring, and its next
 * post then rings no doorbell): the caller must run its transmit side
 * over the SQ after this, as if a doorbell had rung.
 *
 * Return: 0, or -EINVAL if the QP is in any other state.
 */
int softrdma_iwarp_qp_connected(struct softrdma_qp *qp)
{
	lockdep_assert_held(&qp->state_mutex);

	if (qp->state != IB_QPS_INIT && qp->state != IB_QPS_RTR)
		return -EINVAL;
	softrdma_qp_set_state(qp, IB_QPS_RTS);
	return 0;
}

/*
 * What RFC 5040 carries for a kernel WR on an iWARP QP: Send (with
 * Invalidate), RDMA Write, RDMA Read with one local SGE (max_sge_rd),
 * also with a local invalidate of that SGE's MR when it ends (the RDMA
 * core's rdma_rw uses it on iWARP), and the memory operations.
 * Immediate data and atomics are IB-only.
 */
bool softrdma_iwarp_send_wr_ok(const struct ib_send_wr *wr)
{
	switch (wr->opcode) {
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_INV:
	case IB_WR_RDMA_WRITE:
	case IB_WR_LOCAL_INV:
	case IB_WR_REG_MR:
		return true;
	case IB_WR_RDMA_READ:
	case IB_WR_RDMA_READ_WITH_INV:
		return wr->num_sge == SOFTRDMA_IWARP_MAX_SGE_RD;
	default:
		return false;
	}
}
