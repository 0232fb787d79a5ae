// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-device object counts.  Every local user may create objects
 * (/dev/infiniband/uverbs* is world-writable), so each kind is held to
 * the maximum query_device advertises for it (IBA vol 1 11.2.1.2,
 * Query HCA): a create past it fails with -ENOMEM, as when a hardware
 * device runs out of contexts, and a destroy gives the slot back.  The
 * memory behind the objects is charged to the creator's memory cgroup
 * where it is allocated (__GFP_ACCOUNT); these counts bound what the
 * kernel keeps per device whatever the cgroups allow.
 */
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <kunit/visibility.h>

#include "param.h"
#include "res.h"

static const u32 softrdma_res_limit[SOFTRDMA_NUM_RES] = {
	[SOFTRDMA_RES_UCONTEXT] = SOFTRDMA_MAX_UCONTEXT,
	[SOFTRDMA_RES_PD] = SOFTRDMA_MAX_PD,
	[SOFTRDMA_RES_CQ] = SOFTRDMA_MAX_CQ,
	[SOFTRDMA_RES_QP] = SOFTRDMA_MAX_QP,
	[SOFTRDMA_RES_MR] = SOFTRDMA_MAX_MR,
	[SOFTRDMA_RES_MW] = SOFTRDMA_MAX_MW,
};

/**
 * softrdma_res_max() - the most objects of a kind a device may hold
 * @res: the kind
 *
 * Return: the limit, which query_device reports for it too.
 */
u32 softrdma_res_max(enum softrdma_res res)
{
	return softrdma_res_limit[res];
}

/**
 * softrdma_res_take() - count one more object unless @max are counted
 * @count: the count
 * @max: its limit
 *
 * Never raises @count past @max, nor past INT_MAX, however many callers
 * race.
 *
 * Return: 0, or -ENOMEM when @max objects are counted already.
 */
VISIBLE_IF_KUNIT int softrdma_res_take(atomic_t *count, u32 max)
{
	int limit = min_t(u32, max, INT_MAX);
	int n = atomic_read(count);

	do {
		if (n < 0 || n >= limit)
			return -ENOMEM;
	} while (!atomic_try_cmpxchg(count, &n, n + 1));
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_res_take);

/**
 * softrdma_res_get() - count an object being created
 * @rc: the device's counts
 * @res: its kind
 *
 * Return: 0; -ENOMEM when the device holds its maximum already; -ENODEV
 * for a user context or a QP once the counts are closed.
 */
int softrdma_res_get(struct softrdma_res_count *rc, enum softrdma_res res)
{
	if ((res == SOFTRDMA_RES_UCONTEXT || res == SOFTRDMA_RES_QP) &&
	    READ_ONCE(rc->closed))
		return -ENODEV;
	return softrdma_res_take(&rc->n[res], softrdma_res_limit[res]);
}

/**
 * softrdma_res_close() - no new user contexts nor QPs on a device
 * @rc: the device's counts
 *
 * For a device that has left the network and waits for its queued
 * unregistration: without a user context no process reaches it, and
 * without a QP no kernel consumer sends through it.  Objects that exist
 * stay until unregistration destroys them; a create that read the counts
 * open just before may still finish, and is destroyed with them.  Other
 * kinds carry no traffic and stay open, so that what a consumer builds
 * before its QP unwinds as usual.
 */
void softrdma_res_close(struct softrdma_res_count *rc)
{
	WRITE_ONCE(rc->closed, true);
}

/**
 * softrdma_res_put() - uncount an object destroyed, or not created after
 *	softrdma_res_get()
 * @rc: the device's counts
 * @res: its kind
 */
void softrdma_res_put(struct softrdma_res_count *rc, enum softrdma_res res)
{
	WARN_ON_ONCE(atomic_dec_return(&rc->n[res]) < 0);
}
