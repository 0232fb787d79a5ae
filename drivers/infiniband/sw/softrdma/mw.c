// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory windows, types 1 and 2B (IBA vol 1 10.6.7).
 *
 * A window is allocated unbound.  A bind work request (type 1 through
 * ibv_bind_mw, type 2 as IBV_WR_BIND_MW; librxe posts both on the send
 * queue) gives it a range of a user MR of its PD, remote rights and a new
 * key byte; the R_Key then reaches that range, as the window's own
 * addresses or, zero based, as offsets from its start.  A type 1 window
 * is unbound by binding it with length 0; a type 2 window by invalidation
 * (local, or a Send with Invalidate on its QP), or when its QP is
 * destroyed.  While a window is bound, its MR cannot be deregistered
 * (dereg fails with -EINVAL, as rxe does; IBA 10.6.7.2.6).
 *
 * Lifetime: a window's entry is found in the device's mr_xa under RCU,
 * its binding read and changed under its lock; dealloc unbinds it, makes
 * it dead, unpublishes it and lets RCU free it.  A bound window holds a
 * reference on its MR.
 */
#include <linux/rcupdate.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <kunit/visibility.h>

#include "device.h"
#include "mr.h"
#include "mw.h"
#include "qp.h"
#include "res.h"

/* The window a key's index holds, or NULL; caller in an RCU section */
static struct softrdma_mw_entry *softrdma_mw_slot(struct softrdma_dev *sdev,
						  u32 key)
{
	void *entry = xa_load(&sdev->mr_xa, softrdma_mr_key_index(key));

	if (!entry || xa_pointer_tag(entry) != SOFTRDMA_KEY_TAG_MW)
		return NULL;
	return xa_untag_pointer(entry);
}

/*
 * The window @key's index holds, locked, inside an RCU section that
 * softrdma_mw_unlock() ends; NULL, nothing held, when it holds none.
 */
static struct softrdma_mw_entry *softrdma_mw_lock(struct softrdma_dev *sdev,
						  u32 key,
						  unsigned long *flags)
{
	struct softrdma_mw_entry *mw;

	rcu_read_lock();
	mw = softrdma_mw_slot(sdev, key);
	if (!mw) {
		rcu_read_unlock();
		return NULL;
	}
	spin_lock_irqsave(&mw->lock, *flags);
	return mw;
}

static void softrdma_mw_unlock(struct softrdma_mw_entry *mw,
			       unsigned long flags)
{
	spin_unlock_irqrestore(&mw->lock, flags);
	rcu_read_unlock();
}

static int softrdma_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata)
{
	struct softrdma_dev *sdev = to_sdev(ibmw->device);
	struct softrdma_mw_entry *mw;
	u32 index, next;
	int err;

	if (ibmw->type != IB_MW_TYPE_1 && ibmw->type != IB_MW_TYPE_2)
		return -EINVAL;
	err = softrdma_res_get(&sdev->res, SOFTRDMA_RES_MW);
	if (err)
		return err;

	mw = kzalloc(sizeof(*mw), GFP_KERNEL);
	if (!mw) {
		err = -ENOMEM;
		goto out_put_res;
	}
	mw->pd = ibmw->pd;
	mw->type = ibmw->type;
	spin_lock_init(&mw->lock);
	next = get_random_u32_inclusive(1, SOFTRDMA_MR_INDEX_MAX);
	err = xa_alloc_cyclic(&sdev->mr_xa, &index, NULL,
			      XA_LIMIT(1, SOFTRDMA_MR_INDEX_MAX), &next,
			      GFP_KERNEL);
	if (err < 0) {
		err = err == -EBUSY ? -ENOMEM : err;
		goto out_free_entry;
	}
	mw->key = softrdma_mr_key(index, get_random_u8());
	ibmw->rkey = mw->key;
	err = xa_err(xa_store(&sdev->mr_xa, index,
			      xa_tag_pointer(mw, SOFTRDMA_KEY_TAG_MW),
			      GFP_KERNEL));
	if (err)
		goto out_erase;
	to_smw(ibmw)->entry = mw;
	return 0;

out_erase:
	xa_erase(&sdev->mr_xa, index);
out_free_entry:
	kfree(mw);
out_put_res:
	softrdma_res_put(&sdev->res, SOFTRDMA_RES_MW);
	return err;
}

/* Undo a binding; mw->lock held */
static void softrdma_mw_unbind(struct softrdma_mw_entry *mw)
{
	lockdep_assert_held(&mw->lock);

	if (mw->mr) {
		softrdma_mr_window_put(mw->mr);
		mw->mr = NULL;
	}
	/* the QP lives until then: softrdma_mw_qp_gone() */
	if (mw->qp) {
		atomic_dec(&mw->qp->mw_bound);
		mw->qp = NULL;
	}
	mw->addr = 0;
	mw->length = 0;
	mw->access = 0;
}

static int softrdma_dealloc_mw(struct ib_mw *ibmw)
{
	struct softrdma_mw_entry *mw = to_smw(ibmw)->entry;
	struct softrdma_dev *sdev = to_sdev(ibmw->device);
	unsigned long flags;
	u32 index;

	/*
	 * Unbound while softrdma_mw_qp_gone() can still find it, so that the
	 * QP it is bound through is alive; dead before it is unpublished, so
	 * that a lookup which found it finds nothing to use or bind.
	 */
	spin_lock_irqsave(&mw->lock, flags);
	softrdma_mw_unbind(mw);
	index = softrdma_mr_key_index(mw->key);
	mw->key = SOFTRDMA_MW_KEY_DEAD;
	spin_unlock_irqrestore(&mw->lock, flags);
	xa_erase(&sdev->mr_xa, index);
	/* lookups use an entry only inside their RCU section */
	kfree_rcu(mw, rcu);
	softrdma_res_put(&sdev->res, SOFTRDMA_RES_MW);
	return 0;
}

/**
 * softrdma_mw_range() - the MR address of [@va, @va + @len) of a window
 * @w_addr: the window's first byte in the MR
 * @w_len: its length
 * @zero_based: @va is an offset from the window's start (IB_ZERO_BASED)
 * @va: the address the peer sent
 * @len: bytes accessed, at least 1
 * @mr_va: out: the MR address of @va
 *
 * Return: true if the whole access lies inside the window.  Overflow-safe.
 */
VISIBLE_IF_KUNIT bool softrdma_mw_range(u64 w_addr, u64 w_len,
					bool zero_based, u64 va, u64 len,
					u64 *mr_va)
{
	u64 off;

	if (zero_based) {
		off = va;
	} else {
		if (va < w_addr)
			return false;
		off = va - w_addr;
	}
	if (len > w_len || off > w_len - len)
		return false;
	*mr_va = w_addr + off;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_mw_range);

/**
 * softrdma_mw_bind_check() - the IBA rules a bind must keep
 * @mw: the window, its lock held (or private to a test)
 * @mr: the MR the lkey named, NULL for a length 0 bind
 * @qp: the QP the bind was posted on
 * @b: the bind
 *
 * Return: 0, or -EINVAL: the bind completes with IB_WC_MW_BIND_ERR.
 */
VISIBLE_IF_KUNIT int softrdma_mw_bind_check(const struct softrdma_mw_entry *mw,
					    const struct softrdma_mr *mr,
					    const struct ib_qp *qp,
					    const struct softrdma_mw_bind *b)
{
	bool type2 = mw->type == IB_MW_TYPE_2;

	if (b->access & ~SOFTRDMA_MW_ACCESS)
		return -EINVAL;
	/* the whole key: a stale one names an earlier binding */
	if (b->mw_rkey != mw->key)
		return -EINVAL;
	/* 10.6.7.2.1: QP, window and MR share one PD */
	if (mw->pd != qp->pd)
		return -EINVAL;
	if (type2) {
		/* o10-37.2.30: a bound type 2 window is invalidated first */
		if (mw->mr)
			return -EINVAL;
		/* o10-37.2.40: a type 2 window is never bound empty */
		if (!b->length)
			return -EINVAL;
	} else if (b->access & IB_ZERO_BASED) {
		/* o10-36.2.2: type 1 windows are not zero based */
		return -EINVAL;
	}
	if (!b->length)
		return 0;
	if (!mr || mr->pd != qp->pd || mr->type != SOFTRDMA_MR_USER)
		return -EINVAL;
	/* C10-73: the MR allows binding */
	if (!(mr->access & IB_ACCESS_MW_BIND))
		return -EINVAL;
	/* C10-74: remote write or atomic need a locally writable MR */
	if ((b->access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)) &&
	    !(mr->access & IB_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	/* C10-75: inside the MR */
	if (!softrdma_mr_range_ok(mr, b->addr, b->length))
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(softrdma_mw_bind_check);

/**
 * softrdma_mw_bind() - execute a bind work request
 * @sdev: the device
 * @qp: the QP it was posted on
 * @b: a private copy of the request
 *
 * Return: 0, or -EINVAL for any broken rule (IB_WC_MW_BIND_ERR).
 */
int softrdma_mw_bind(struct softrdma_dev *sdev, struct softrdma_qp *qp,
		     const struct softrdma_mw_bind *b)
{
	struct softrdma_mr *mr = NULL;
	struct softrdma_mw_entry *mw;
	unsigned long flags;
	int err = -EINVAL;

	if (b->length) {
		mr = softrdma_mr_get(sdev, b->mr_lkey);
		if (!mr)
			return -EINVAL;
	}

	mw = softrdma_mw_lock(sdev, b->mw_rkey, &flags);
	if (!mw)
		goto out_put_mr;
	err = softrdma_mw_bind_check(mw, mr, &qp->ibqp, b);
	/* the MR takes no new window once its dereg began */
	if (!err && mr)
		err = softrdma_mr_window_get(mr);
	if (!err) {
		softrdma_mw_unbind(mw);
		mw->key = softrdma_mr_key(softrdma_mr_key_index(mw->key),
					  softrdma_mr_key_byte(b->rkey));
		if (mr) {
			mw->mr = mr;
			mr = NULL;	/* the window's reference now */
			mw->addr = b->addr;
			mw->length = b->length;
			mw->access = b->access;
			if (mw->type == IB_MW_TYPE_2) {
				mw->qp = qp;
				atomic_inc(&qp->mw_bound);
			}
		}
	}
	softrdma_mw_unlock(mw, flags);
out_put_mr:
	if (mr)
		softrdma_mr_put(mr);
	return err;
}

/**
 * softrdma_mw_invalidate() - invalidate a type 2 window (LOCAL_INV, or
 *	Send with Invalidate)
 * @sdev: the device
 * @qp: the QP the request came on
 * @rkey: the key
 *
 * Only a bound type 2 window, by its whole key, through the QP it is bound
 * to (o10-37.2.26: type 1 windows cannot be invalidated).  Every refusal
 * is the same, as a bind's: a LOCAL_INV's status tells no index holding
 * another PD's window from an empty one.
 *
 * Return: -ENOENT when @rkey names no window (an MR's key, or nothing);
 * 0; -EINVAL for a window that cannot be invalidated so.
 */
int softrdma_mw_invalidate(struct softrdma_dev *sdev, struct softrdma_qp *qp,
			   u32 rkey)
{
	struct softrdma_mw_entry *mw;
	unsigned long flags;
	int err;

	mw = softrdma_mw_lock(sdev, rkey, &flags);
	if (!mw)
		return -ENOENT;
	if (mw->key != rkey || mw->pd != qp->ibqp.pd ||
	    mw->type != IB_MW_TYPE_2 || !mw->mr || mw->qp != qp) {
		err = -EINVAL;
	} else {
		softrdma_mw_unbind(mw);
		err = 0;
	}
	softrdma_mw_unlock(mw, flags);
	return err;
}

/**
 * softrdma_mw_rkey() - resolve an R_Key that may name a window
 * @sdev: the device
 * @qp: the responder's QP
 * @rkey: the key from the packet
 * @va: the address from the packet
 * @len: bytes accessed, at least 1
 * @access: the one IB_ACCESS_REMOTE_* right the access needs
 * @mr: out: the MR behind the window, referenced
 * @mr_va: out: the MR address of @va
 *
 * The window must be bound with the whole key, in the QP's PD, through
 * this QP if type 2, with the right, and cover the whole access (IBA
 * 10.6.7.3, 9.4.5).  The MR's own remote rights do not matter.
 *
 * Return: -ENOENT when @rkey names no window; 0; -EACCES otherwise (the
 * responder's Remote Access Error).
 */
int softrdma_mw_rkey(struct softrdma_dev *sdev, const struct softrdma_qp *qp,
		     u32 rkey, u64 va, u64 len, int access,
		     struct softrdma_mr **mr, u64 *mr_va)
{
	struct softrdma_mw_entry *mw;
	unsigned long flags;
	int err = -EACCES;

	mw = softrdma_mw_lock(sdev, rkey, &flags);
	if (!mw)
		return -ENOENT;
	if (mw->mr && mw->key == rkey && mw->pd == qp->ibqp.pd &&
	    (mw->type != IB_MW_TYPE_2 || mw->qp == qp) &&
	    (mw->access & access) == access &&
	    softrdma_mw_range(mw->addr, mw->length,
			      mw->access & IB_ZERO_BASED, va, len, mr_va) &&
	    softrdma_mr_range_ok(mw->mr, *mr_va, len)) {
		*mr = mw->mr;
		kref_get(&mw->mr->ref);
		err = 0;
	}
	softrdma_mw_unlock(mw, flags);
	return err;
}

/**
 * softrdma_mw_qp_gone() - unbind the type 2 windows bound through a QP
 * @sdev: the device
 * @qp: a QP being destroyed, that executes nothing any more
 *
 * IBA 10.6.7.2.5: destroying a QP invalidates its type 2 windows.  Only
 * a QP that has some is looked for in the key space: nothing binds through
 * @qp any more, and each window counts itself out of @qp->mw_bound under
 * its lock when it lets @qp go.
 */
void softrdma_mw_qp_gone(struct softrdma_dev *sdev, struct softrdma_qp *qp)
{
	struct softrdma_mw_entry *mw;
	unsigned long index;
	unsigned long flags;
	void *entry;

	if (!atomic_read(&qp->mw_bound))
		return;
	rcu_read_lock();
	xa_for_each(&sdev->mr_xa, index, entry) {
		if (xa_pointer_tag(entry) != SOFTRDMA_KEY_TAG_MW)
			continue;
		mw = xa_untag_pointer(entry);
		spin_lock_irqsave(&mw->lock, flags);
		if (mw->qp == qp)
			softrdma_mw_unbind(mw);
		spin_unlock_irqrestore(&mw->lock, flags);
	}
	rcu_read_unlock();
}

const struct ib_device_ops softrdma_mw_ops = {
	.alloc_mw = softrdma_alloc_mw,
	.dealloc_mw = softrdma_dealloc_mw,

	INIT_RDMA_OBJ_SIZE(ib_mw, softrdma_mw, ibmw),
};
