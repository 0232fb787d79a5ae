/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How many objects of each kind a device holds, against the limits
 * query_device advertises (res.c).
 */
#ifndef SOFTRDMA_RES_H
#define SOFTRDMA_RES_H

#include <linux/atomic.h>
#include <linux/gfp.h>
#include <linux/types.h>

/*
 * For kernel memory whose size a user picks (rings, WQE snapshots, MR
 * page arrays): charged to the caller's memory cgroup, and when the
 * cgroup or the machine cannot give it, the create fails with -ENOMEM
 * rather than waking the OOM killer or warning.
 */
#define SOFTRDMA_GFP_USER_SIZED	(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | \
				 __GFP_NOWARN)

/*
 * The kinds counted here.  SRQs and AHs are not: each is numbered in an
 * xarray whose range is its limit (srq.c, ah.c).  MRs are numbered
 * sparsely, at random (mr.c), and counted here.
 */
enum softrdma_res {
	SOFTRDMA_RES_UCONTEXT,
	SOFTRDMA_RES_PD,
	SOFTRDMA_RES_CQ,
	SOFTRDMA_RES_QP,
	SOFTRDMA_RES_MR,
	SOFTRDMA_RES_MW,
	SOFTRDMA_NUM_RES
};

/* One device's counts; zeroed with the device */
struct softrdma_res_count {
	atomic_t n[SOFTRDMA_NUM_RES];
	/*
	 * set once by softrdma_res_close(), never cleared; read without a
	 * lock
	 */
	bool closed;
};

u32 softrdma_res_max(enum softrdma_res res);
int softrdma_res_get(struct softrdma_res_count *rc, enum softrdma_res res);
void softrdma_res_put(struct softrdma_res_count *rc, enum softrdma_res res);
void softrdma_res_close(struct softrdma_res_count *rc);

#if IS_ENABLED(CONFIG_KUNIT)
int softrdma_res_take(atomic_t *count, u32 max);
#endif

#endif /* SOFTRDMA_RES_H */
