// SPDX-License-Identifier: GPL-2.0-only
/*
 * Verbs entry points shared by both transports.
 *
 * Protection domains and user contexts are complete.  Completion queues,
 * queue pairs and memory regions arrive with the verbs core (issue #3);
 * until then their verbs answer -EOPNOTSUPP, which test suites treat as
 * "not supported" rather than as a failure.
 */
#include <rdma/siw-abi.h>

#include "device.h"
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

static int softrdma_create_cq(struct ib_cq *ibcq,
			      const struct ib_cq_init_attr *attr,
			      struct ib_udata *udata)
{
	return -EOPNOTSUPP;
}

/*
 * The verbs below act on objects that cannot be created yet; the RDMA core
 * insists on them being present.
 */
static int softrdma_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	return 0;
}

static int softrdma_poll_cq(struct ib_cq *ibcq, int num_entries,
			    struct ib_wc *wc)
{
	return -EOPNOTSUPP;
}

static int softrdma_req_notify_cq(struct ib_cq *ibcq,
				  enum ib_cq_notify_flags flags)
{
	return -EOPNOTSUPP;
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

static struct ib_mr *softrdma_get_dma_mr(struct ib_pd *ibpd, int access)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static struct ib_mr *softrdma_reg_user_mr(struct ib_pd *ibpd, u64 start,
					  u64 length, u64 iova, int access,
					  struct ib_udata *udata)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static int softrdma_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	return 0;
}

const struct ib_device_ops softrdma_verbs_ops = {
	.alloc_pd = softrdma_alloc_pd,
	.alloc_ucontext = softrdma_alloc_ucontext,
	.create_cq = softrdma_create_cq,
	.create_qp = softrdma_create_qp,
	.dealloc_pd = softrdma_dealloc_pd,
	.dealloc_ucontext = softrdma_dealloc_ucontext,
	.dereg_mr = softrdma_dereg_mr,
	.destroy_cq = softrdma_destroy_cq,
	.destroy_qp = softrdma_destroy_qp,
	.get_dma_mr = softrdma_get_dma_mr,
	.modify_qp = softrdma_modify_qp,
	.poll_cq = softrdma_poll_cq,
	.post_recv = softrdma_post_recv,
	.post_send = softrdma_post_send,
	.reg_user_mr = softrdma_reg_user_mr,
	.req_notify_cq = softrdma_req_notify_cq,

	INIT_RDMA_OBJ_SIZE(ib_cq, softrdma_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_pd, softrdma_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, softrdma_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, softrdma_ucontext, ibuc),
};
