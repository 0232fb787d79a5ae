// SPDX-License-Identifier: GPL-2.0-only
/*
 * Verbs entry points shared by both transports.
 *
 * Protection domains and user contexts live here; each other object has
 * its own file and ops table (cq.c, mmap.c, mr.c, qp.c), gathered onto a
 * device by softrdma_set_verbs_ops().
 */
#include "ah.h"
#include "cq.h"
#include "device.h"
#include "mmap.h"
#include "mr.h"
#include "qp.h"
#include "res.h"
#include "srq.h"
#include "uabi.h"
#include "verbs.h"

static int softrdma_alloc_ucontext(struct ib_ucontext *ibuc,
				   struct ib_udata *udata)
{
	struct softrdma_dev *sdev = to_sdev(ibuc->device);
	const struct softrdma_uabi_ops *uabi = sdev->uabi_ops;
	int err;

	if (uabi->ucontext_check) {
		err = uabi->ucontext_check(udata);
		if (err)
			return err;
	}
	err = softrdma_res_get(&sdev->res, SOFTRDMA_RES_UCONTEXT);
	if (err || !uabi->ucontext_resp)
		return err;

	err = uabi->ucontext_resp(udata);
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
