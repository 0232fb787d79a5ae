// SPDX-License-Identifier: GPL-2.0-only
/*
 * Verbs entry points shared by both transports.
 *
 * Protection domains and user contexts live here; each other object has
 * its own file and ops table (cq.c, mmap.c, mr.c), gathered onto a device
 * by softrdma_set_verbs_ops().  Queue pairs arrive with the RC engines
 * (issue #3); until then their verbs answer -EOPNOTSUPP, which test
 * suites treat as "not supported" rather than as a failure.
 */
#include <rdma/siw-abi.h>

#include "cq.h"
#include "device.h"
#include "mmap.h"
#include "mr.h"
#include "verbs.h"

static int softrdma_alloc_ucontext(struct ib_ucontext *ibuc,
				   struct ib_udata *udata)
{
	struct softrdma_dev *sdev = to_sdev(ibuc->device);
	struct siw_uresp_alloc_ctx siw_resp = {};

	if (sdev->transport == SOFTRDMA_ROCE)
		return 0;	/* the rxe ABI exchanges nothing here */

	/* The siw ABI answers with a device id libsiw stores but never uses. */
	if (udata->outlen < sizeof(siw_resp))
		return -EINVAL;
	return ib_copy_to_udata(udata, &siw_resp, sizeof(siw_resp));
}

static void softrdma_dealloc_ucontext(struct ib_ucontext *ibuc)
{
}

static int softrdma_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	return 0;
}

static int softrdma_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	return 0;
}

static int softrdma_create_qp(struct ib_qp *ibqp,
			      struct ib_qp_init_attr *init_attr,
			      struct ib_udata *udata)
{
	return -EOPNOTSUPP;
}

static int softrdma_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			      int attr_mask, struct ib_udata *udata)
{
	return -EOPNOTSUPP;
}

static int softrdma_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	return 0;
}

static int softrdma_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
			      const struct ib_send_wr **bad_wr)
{
	*bad_wr = wr;
	return -EOPNOTSUPP;
}

static int softrdma_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
			      const struct ib_recv_wr **bad_wr)
{
	*bad_wr = wr;
	return -EOPNOTSUPP;
}

static const struct ib_device_ops softrdma_verbs_ops = {
	.alloc_pd = softrdma_alloc_pd,
	.alloc_ucontext = softrdma_alloc_ucontext,
	.create_qp = softrdma_create_qp,
	.dealloc_pd = softrdma_dealloc_pd,
	.dealloc_ucontext = softrdma_dealloc_ucontext,
	.destroy_qp = softrdma_destroy_qp,
	.modify_qp = softrdma_modify_qp,
	.post_recv = softrdma_post_recv,
	.post_send = softrdma_post_send,

	INIT_RDMA_OBJ_SIZE(ib_pd, softrdma_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, softrdma_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, softrdma_ucontext, ibuc),
};

/* Every verb of both device types; the transports add their own on top. */
void softrdma_set_verbs_ops(struct ib_device *ibdev)
{
	ib_set_device_ops(ibdev, &softrdma_verbs_ops);
	ib_set_device_ops(ibdev, &softrdma_cq_ops);
	ib_set_device_ops(ibdev, &softrdma_mmap_ops);
	ib_set_device_ops(ibdev, &softrdma_mr_ops);
}
