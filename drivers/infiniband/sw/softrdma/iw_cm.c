// SPDX-License-Identifier: GPL-2.0-only
/*
 * iWARP connection management, called by the kernel's iw_cm.
 *
 * The RDMA core calls these without checking for their presence on an
 * iWARP device, so they must exist.  Connection setup over TCP arrives
 * with the iWARP transport (issue #4); until then every request answers
 * -EOPNOTSUPP and there is never a QP to hand out.
 */
#include <rdma/iw_cm.h>

#include "iw_cm.h"

static int softrdma_iw_connect(struct iw_cm_id *cm_id,
			       struct iw_cm_conn_param *param)
{
	return -EOPNOTSUPP;
}

static int softrdma_iw_accept(struct iw_cm_id *cm_id,
			      struct iw_cm_conn_param *param)
{
	return -EOPNOTSUPP;
}

static int softrdma_iw_reject(struct iw_cm_id *cm_id, const void *pdata,
			      u8 pdata_len)
{
	return -EOPNOTSUPP;
}

static int softrdma_iw_create_listen(struct iw_cm_id *cm_id, int backlog)
{
	return -EOPNOTSUPP;
}

static int softrdma_iw_destroy_listen(struct iw_cm_id *cm_id)
{
	return -EOPNOTSUPP;
}

static void softrdma_iw_add_ref(struct ib_qp *ibqp)
{
}

static void softrdma_iw_rem_ref(struct ib_qp *ibqp)
{
}

static struct ib_qp *softrdma_iw_get_qp(struct ib_device *ibdev, int qpn)
{
	return NULL;
}

void softrdma_iw_cm_conn_closed(struct softrdma_iw_cep *cep,
				struct socket *sock, int err)
{
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
