// SPDX-License-Identifier: GPL-2.0-only
/*
 * Verbs entry points shared by both transports.
 *
 * Protection domains and user contexts live here; each other object has
 * its own file and ops table (cq.c, mmap.c, mr.c, qp.c), gathered onto a
 * device by softrdma_set_verbs_ops().
 */
#include <rdma/siw-abi.h>

#include "ah.h"
#include "cq.h"
#include "device.h"
#include "mmap.h"
#include "mr.h"
#include "qp.h"
#include "res.h"
#include "srq.h"
#include "verbs.h"

static int softrdma_alloc_ucontext(struct ib_ucontext *ibuc,
				   struct ib_udata *udata)
{
	struct softrdma_dev *sdev = to_sdev(ibuc->device);
	struct siw_uresp_alloc_ctx siw_resp = {};
	int err;

	/* The siw ABI answers with a device id libsiw stores but never uses. */
	if (sdev->uabi == SOFTRDMA_UABI_SIW &&
	    udata->outlen < sizeof(siw_resp))
		return -EINVAL;
	err = softrdma_res_get(&sdev->res, SOFTRDMA_RES_UCONTEXT);
	if (err)
		return err;
	if (sdev->uabi == SOFTRDMA_UABI_RXE)
		return 0;	/* the rxe ABI exchanges nothing here */

	err = ib_copy_to_udata(udata, &siw_resp, sizeof(siw_resp));
	if (err)
		softrdma_res_put(&sdev->res, SOFTRDMA_RES_UCONTEXT);
	return err;
}

static void softrdma_dealloc_ucontext(struct ib_ucontext *ibuc)
{
	softrdma_res_put(&to_sdev(ibuc->device)->res, SOFTRDMA_RES_UCONTEXT);
}

static int softrdma_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	return softrdma_res_get(&to_sdev(ibpd->device)->res, SOFTRDMA_RES_PD);
}

static int softrdma_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	softrdma_res_put(&to_sdev(ibpd->device)->res, SOFTRDMA_RES_PD);
	return 0;
}

static const struct ib_device_ops softrdma_verbs_ops = {
	.alloc_pd = softrdma_alloc_pd,
	.alloc_ucontext = softrdma_alloc_ucontext,
	.dealloc_pd = softrdma_dealloc_pd,
	.dealloc_ucontext = softrdma_dealloc_ucontext,

	INIT_RDMA_OBJ_SIZE(ib_pd, softrdma_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, softrdma_ucontext, ibuc),
};

/* Every verb of both device types; the transports add their own on top. */
void softrdma_set_verbs_ops(struct ib_device *ibdev)
{
	ib_set_device_ops(ibdev, &softrdma_verbs_ops);
	ib_set_device_ops(ibdev, &softrdma_ah_ops);
	ib_set_device_ops(ibdev, &softrdma_cq_ops);
	ib_set_device_ops(ibdev, &softrdma_mmap_ops);
	ib_set_device_ops(ibdev, &softrdma_mr_ops);
	ib_set_device_ops(ibdev, &softrdma_qp_ops);
	ib_set_device_ops(ibdev, &softrdma_srq_ops);
}
