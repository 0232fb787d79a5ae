/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The iWARP transmit engine: SQ WQEs, Read Responses and TERMINATEs cut
 * into FPDUs and handed to the connection's TCP socket (iwarp_tx.c).
 */
#ifndef SOFTRDMA_IWARP_TX_H
#define SOFTRDMA_IWARP_TX_H

#include <linux/types.h>

#include "iwarp_pdu.h"

struct bio_vec;
struct sk_buff;
struct softrdma_iw_fpdu;
struct softrdma_iw_rdq;
struct softrdma_iw_wqe_st;
struct softrdma_iw_read;
struct softrdma_qp;
struct work_struct;

void softrdma_iw_tx_run(struct softrdma_qp *qp);
void softrdma_iw_tx_run_locked(struct softrdma_qp *qp);
int softrdma_iw_tx_init(void);
void softrdma_iw_tx_exit(void);
void softrdma_iw_tx_schedule(struct softrdma_qp *qp);
void softrdma_iw_tx_work(struct work_struct *work);
bool softrdma_iw_tx_idle(struct softrdma_qp *qp);
void softrdma_iw_tx_retire(struct softrdma_qp *qp);
void softrdma_iw_tx_reset(struct softrdma_qp *qp);
void softrdma_iw_tx_terminate(struct softrdma_qp *qp,
			      enum softrdma_iwarp_err err,
			      const void *fpdu, size_t avail);
void softrdma_iw_tx_wqe_fail(struct softrdma_qp *qp, u32 slot,
			     enum ib_wc_status status);
void softrdma_iw_fpdu_release(struct softrdma_iw_fpdu *f);

/* read queues (ORQ, IRQ): pure, KUnit-tested */
struct softrdma_iw_read *softrdma_iw_rdq_push(struct softrdma_iw_rdq *q,
					      u32 limit);
struct softrdma_iw_read *softrdma_iw_rdq_peek(struct softrdma_iw_rdq *q);
void softrdma_iw_rdq_pop(struct softrdma_iw_rdq *q);

/* segmentation: pure, KUnit-tested */
u32 softrdma_iw_seg_len(u32 msg_len, u32 off, u32 max_payload, bool *last);
u32 softrdma_iw_max_payload(u32 max_ulpdu, u32 hdr_len);
bool softrdma_iw_zcopy(bool signalled, u32 len);
bool softrdma_iw_wqe_acked(const struct softrdma_iw_wqe_st *st, u32 snd_una);
unsigned int softrdma_iw_frags_bvec(const struct sk_buff *frags, u32 pos,
				    struct bio_vec *bv, unsigned int max,
				    size_t *len);

/* a send WQE's own failure, as the QP's: pure, KUnit-tested */
enum softrdma_qp_err_cause softrdma_iw_tx_fail_cause(bool completed);

#endif /* SOFTRDMA_IWARP_TX_H */
