// SPDX-License-Identifier: GPL-2.0-only
/*
 * RoCEv2 queue pairs (roce_qp.h): the transport's part of create_qp,
 * modify_qp and destroy_qp, around the verbs core's (qp.c).
 */
#include <linux/capability.h>

#include "param.h"
#include "qp.h"
#include "qp_state.h"
#include "rc.h"
#include "roce_net.h"
#include "roce_qp.h"
#include "transport.h"
#include "ud.h"

static const struct softrdma_qp_engine softrdma_roce_qp_rc = {
	.init = softrdma_rc_init,
	.destroy = softrdma_rc_destroy,
	.reset = softrdma_rc_reset,
	.start = softrdma_rc_start,
	.kick = softrdma_rc_kick,
	.stop = softrdma_rc_stop,
	.drain = softrdma_rc_drain,
	.release_rwqe = softrdma_rc_release_rwqe,
};

/* UD keeps no per-WQE or per-connection state to allocate or reset */
static const struct softrdma_qp_engine softrdma_roce_qp_ud = {
	.init = softrdma_ud_init,
	.start = softrdma_ud_start,
	.kick = softrdma_ud_kick,
	.stop = softrdma_ud_stop,
	.drain = softrdma_ud_drain,
	.kernel_wqe = softrdma_ud_kernel_wqe,
};

/* the RDMA core checked the type against what create_qp takes */
const struct softrdma_qp_engine *softrdma_roce_qp_engine(enum ib_qp_type type)
{
	if (softrdma_qp_type_is_ud(type))
		return &softrdma_roce_qp_ud;
	return &softrdma_roce_qp_rc;
}

/*
 * UD and GSI QPs: RoCE only; the GSI QP is the kernel MAD layer's, on
 * port 1 (IBA 13.5.1).
 */
static int softrdma_roce_qp_check_ud_init(const struct ib_qp_init_attr *init,
					  bool user)
{
	if (init->qp_type == IB_QPT_GSI && (user || init->port_num != 1))
		return -EINVAL;
	return 0;
}

int softrdma_roce_qp_check_init(const struct ib_qp_init_attr *init,
				bool user)
{
	const struct ib_qp_cap *cap = &init->cap;

	if (cap->max_send_wr > SOFTRDMA_MAX_QP_WR ||
	    cap->max_recv_wr > SOFTRDMA_MAX_QP_WR ||
	    cap->max_send_sge > SOFTRDMA_ROCE_MAX_SGE ||
	    cap->max_recv_sge > SOFTRDMA_ROCE_MAX_SGE ||
	    cap->max_inline_data > SOFTRDMA_ROCE_MAX_INLINE)
		return -EINVAL;
	if (!init->send_cq || !init->recv_cq)
		return -EINVAL;
	if (softrdma_qp_type_is_ud(init->qp_type))
		return softrdma_roce_qp_check_ud_init(init, user);
	return 0;
}

/* the UDP source port before the QP has a destination */
void softrdma_roce_qp_created(struct softrdma_qp *qp)
{
	to_roce_qp(qp)->src_port = softrdma_roce_src_port(softrdma_qpn(qp), 0);
}

void softrdma_roce_qp_destroy(struct softrdma_qp *qp)
{
	struct softrdma_roce_qp *rqp = to_roce_qp(qp);

	softrdma_roce_path_free(rcu_dereference_protected(rqp->path, true));
}

/*
 * IBA 10.2.5: a Q_Key with the high-order bit set is privileged; a user
 * QP may hold one only if its owner may send raw packets anyway.
 */
static int softrdma_roce_qp_check_qkey(struct softrdma_qp *qp, u32 qkey)
{
	if (qp->user && (qkey & SOFTRDMA_QKEY_PRIVILEGED) &&
	    !capable(CAP_NET_RAW))
		return -EPERM;
	return 0;
}

/*
 * Publish @path as the data path's view of qp->av and the QP's src_port
 * (roce_qp.h).
 * Returns the path it replaces, to be freed with softrdma_roce_path_free().
 */
static struct softrdma_roce_path *
softrdma_roce_qp_publish_path(struct softrdma_qp *qp,
			      struct softrdma_roce_path *path)
{
	struct softrdma_roce_qp *rqp = to_roce_qp(qp);

	lockdep_assert_held(&qp->state_mutex);

	softrdma_roce_tx_set(&path->tx, &qp->av, rqp->src_port);
	return rcu_replace_pointer(rqp->path, path,
				   lockdep_is_held(&qp->state_mutex));
}

/* modify_qp of a RoCE QP (IBA vol 1 §10.3, §11.2.1.2) */
int softrdma_roce_modify_qp(struct softrdma_qp *qp, struct ib_qp_attr *attr,
			    int mask)
{
	struct softrdma_roce_path *path = NULL;
	struct ib_qp *ibqp = &qp->ibqp;
	struct softrdma_qp_limits limits;
	enum ib_qp_state cur, next;
	struct softrdma_av av;
	unsigned int actions;
	struct ib_port_attr port;
	int err;

	err = ib_query_port(ibqp->device, 1, &port);
	if (err)
		return err;
	limits = (struct softrdma_qp_limits){
		.max_path_mtu = port.active_mtu,
		.max_rd_atomic = SOFTRDMA_MAX_QP_RD_ATOM,
		.max_dest_rd_atomic = SOFTRDMA_MAX_QP_RD_ATOM,
	};

	mutex_lock(&qp->state_mutex);
	err = softrdma_qp_current_state(qp->state, attr, mask, &cur);
	next = (mask & IB_QP_STATE) ? attr->qp_state : cur;
	if (!err)
		err = softrdma_qp_transition(cur, next, ibqp->qp_type, mask,
					     &actions);
	if (!err)
		err = softrdma_qp_check_attr(attr, mask, &limits);
	if (!err && (mask & IB_QP_AV))
		err = softrdma_av_from_ah_attr(&av, &attr->ah_attr);
	if (!err && (mask & IB_QP_QKEY))
		err = softrdma_roce_qp_check_qkey(qp, attr->qkey);
	if (!err && (mask & (IB_QP_AV | IB_QP_DEST_QPN))) {
		path = softrdma_roce_path_alloc();
		if (!path)
			err = -ENOMEM;
	}
	if (err)
		goto out_unlock;

	if (actions & SOFTRDMA_QP_ACT_RESET)
		softrdma_qp_transport_stop(qp);

	softrdma_qp_store_attr(qp, attr, mask);
	if (mask & IB_QP_DEST_QPN)
		to_roce_qp(qp)->src_port =
			softrdma_roce_src_port(softrdma_qpn(qp),
					       attr->dest_qp_num);
	if (mask & IB_QP_AV)
		qp->av = av;
	/* from here @path is the one replaced, freed below */
	if (path)
		path = softrdma_roce_qp_publish_path(qp, path);

	softrdma_qp_apply_actions(qp, next, actions);

out_unlock:
	mutex_unlock(&qp->state_mutex);
	softrdma_roce_path_free(path);
	return err;
}

/* the RDMA core posts READ with invalidate on iWARP only */
bool softrdma_roce_send_wr_ok(const struct ib_send_wr *wr)
{
	return wr->opcode != IB_WR_RDMA_READ_WITH_INV;
}
