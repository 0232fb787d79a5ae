/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Walking a work request's scatter/gather list: every transport's data
 * path (RC requester, responder and completer, UD, iWARP transmit and
 * receive) reads and writes local memory through softrdma_sge_walk(),
 * which looks up and checks each SGE's memory region.
 */
#ifndef SOFTRDMA_SGE_H
#define SOFTRDMA_SGE_H

#include <linux/minmax.h>
#include <linux/types.h>

#include "mr.h"
#include "qp.h"
#include "wqe.h"

/* one checked piece of a scatter/gather list; see softrdma_sge_walk() */
typedef int (*softrdma_sge_fn)(struct softrdma_mr *mr, u64 addr, u32 len,
			       u32 done, void *ctx);

/**
 * softrdma_sge_walk_cached() - softrdma_sge_walk() through an MR cache
 * @qp: as for softrdma_sge_walk()
 * @sge: the list
 * @num_sge: its entries
 * @offset: first message byte
 * @len: bytes
 * @access: rights each piece needs
 * @fn: called for each piece
 * @ctx: passed to @fn
 * @cache: NULL, or the MR cache of softrdma_mr_get_cached() that the
 *	keys are looked up through
 *
 * Return: as softrdma_sge_walk().
 */
static __always_inline int
softrdma_sge_walk_cached(struct softrdma_qp *qp,
			 const struct softrdma_sge *sge, u32 num_sge,
			 u32 offset, u32 len, int access, softrdma_sge_fn fn,
			 void *ctx, struct softrdma_mr **cache)
{
	struct softrdma_mr *mr;
	u32 i, done = 0;
	int err;

	for (i = 0; i < num_sge && done < len; i++) {
		u32 chunk;

		if (offset >= sge[i].length) {
			offset -= sge[i].length;
			continue;
		}
		chunk = min(sge[i].length - offset, len - done);
		mr = cache ? softrdma_mr_get_cached(qp->sdev, sge[i].lkey,
						    cache) :
			     softrdma_mr_get(qp->sdev, sge[i].lkey);
		if (!mr)
			return -EACCES;
		if (softrdma_mr_check(mr, qp->ibqp.pd, sge[i].addr + offset,
				      chunk, access)) {
			softrdma_mr_put(mr);
			return -EACCES;
		}
		err = fn(mr, sge[i].addr + offset, chunk, done, ctx);
		softrdma_mr_put(mr);
		if (err)
			return err;
		done += chunk;
		offset = 0;
	}
	return done == len ? 0 : -EMSGSIZE;
}

/**
 * softrdma_sge_walk() - visit [@offset, @offset + @len) of an SGE list
 * @qp: the QP whose PD the keys must belong to
 * @sge: the list
 * @num_sge: its entries
 * @offset: first message byte
 * @len: bytes
 * @access: rights each piece needs (0 to read, IB_ACCESS_LOCAL_WRITE)
 * @fn: called for each piece with its MR, looked up and checked
 * @ctx: passed to @fn
 *
 * Return: 0; -EMSGSIZE when the list is shorter than the range (a length
 * error); -EACCES when a key is unknown or a check fails (a protection
 * error); or what @fn returned (it must not use those two).  Inline, so
 * that @fn, a constant at every call, is inlined too: an indirect call
 * per piece is a retpoline.
 */
static __always_inline int
softrdma_sge_walk(struct softrdma_qp *qp, const struct softrdma_sge *sge,
		  u32 num_sge, u32 offset, u32 len, int access,
		  softrdma_sge_fn fn, void *ctx)
{
	return softrdma_sge_walk_cached(qp, sge, num_sge, offset, len, access,
					fn, ctx, NULL);
}

#endif /* SOFTRDMA_SGE_H */
