// SPDX-License-Identifier: GPL-2.0-only
/*
 * Address handles.
 */
#include <linux/slab.h>
#include <linux/xarray.h>

#include "ah.h"
#include "device.h"
#include "param.h"
#include "transport.h"
#include "uabi.h"

static int softrdma_create_ah(struct ib_ah *ibah,
			      struct rdma_ah_init_attr *init,
			      struct ib_udata *udata)
{
	struct softrdma_ah *ah = container_of(ibah, struct softrdma_ah, ibah);
	struct softrdma_dev *sdev = to_sdev(ibah->device);
	gfp_t gfp = (init->flags & RDMA_CREATE_AH_SLEEPABLE) ? GFP_KERNEL :
							       GFP_ATOMIC;
	struct softrdma_ah_entry *entry;
	int err;

	if (!sdev->tp->lim.max_ah)
		return -EOPNOTSUPP;	/* iWARP has no address handles */

	entry = kzalloc(sizeof(*entry), gfp);
	if (!entry)
		return -ENOMEM;
	err = softrdma_av_from_ah_attr(&entry->av, init->ah_attr);
	if (err)
		goto out_free;
	entry->pd = ibah->pd;

	/*
	 * max_ah are numbered; one more is refused as by a full device.
	 * The number is reserved first and the entry published only once
	 * the user has it: a UD send naming the number meanwhile finds
	 * nothing, and a failed answer frees an entry no reader has seen.
	 */
	err = xa_alloc(&sdev->ah_xa, &ah->ah_num, NULL,
		       XA_LIMIT(1, SOFTRDMA_MAX_AH), gfp);
	if (err) {
		err = err == -EBUSY ? -ENOMEM : err;
		goto out_free;
	}
	ah->entry = entry;

	if (udata && sdev->uabi_ops->create_ah_resp) {
		err = sdev->uabi_ops->create_ah_resp(udata, ah->ah_num);
		if (err)
			goto out_erase;
	}
	/* the reserved slot needs no memory: this cannot fail */
	xa_store(&sdev->ah_xa, ah->ah_num, entry, gfp);
	return 0;

out_erase:
	xa_erase(&sdev->ah_xa, ah->ah_num);
out_free:
	kfree(entry);
	return err;
}

static int softrdma_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	struct softrdma_ah *ah = container_of(ibah, struct softrdma_ah, ibah);
	struct softrdma_dev *sdev = to_sdev(ibah->device);

	xa_erase(&sdev->ah_xa, ah->ah_num);
	kfree_rcu(ah->entry, rcu);
	return 0;
}

/**
 * softrdma_ah_lookup_av() - the address vector of an AH, by number
 * @sdev: the device
 * @ah_num: from a UD send WQE (user memory: any value)
 * @pd: the sending QP's PD; an AH of another PD is refused
 * @av: filled in
 *
 * Return: 0, or -EINVAL for an unknown number or a foreign PD.
 */
int softrdma_ah_lookup_av(struct softrdma_dev *sdev, u32 ah_num,
			  const struct ib_pd *pd, struct softrdma_av *av)
{
	struct softrdma_ah_entry *entry;
	int err = -EINVAL;

	rcu_read_lock();
	entry = xa_load(&sdev->ah_xa, ah_num);
	if (entry && entry->pd == pd) {
		*av = entry->av;
		err = 0;
	}
	rcu_read_unlock();
	return err;
}

const struct ib_device_ops softrdma_ah_ops = {
	.create_ah = softrdma_create_ah,
	.create_user_ah = softrdma_create_ah,
	.destroy_ah = softrdma_destroy_ah,

	INIT_RDMA_OBJ_SIZE(ib_ah, softrdma_ah, ibah),
};
