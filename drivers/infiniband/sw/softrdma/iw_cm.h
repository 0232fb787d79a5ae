/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The iWARP connection manager provider (the iw_cm callbacks).
 */
#ifndef SOFTRDMA_IW_CM_H
#define SOFTRDMA_IW_CM_H

#include <rdma/ib_verbs.h>

struct socket;
struct softrdma_iw_cep;

extern const struct ib_device_ops softrdma_iw_cm_ops;

/* module load and unload; exit after every device is unregistered */
int softrdma_iw_cm_init(void);
void softrdma_iw_cm_exit(void);

/*
 * softrdma_iw_cm_conn_closed() - the data path gives a connection back
 * @cep:	the endpoint passed to softrdma_iwarp_qp_attach()
 * @sock:	the socket, its callbacks restored; the CM releases it
 * @err:	0 for an orderly close (peer FIN, or the local QP stopped),
 *		-ECONNRESET for a reset or protocol error (a TERMINATE was
 *		sent or received, or the stream was corrupt)
 *
 * Called exactly once per successful attach, in process context, with
 * no QP lock held.  The CM reports IW_CM_EVENT_DISCONNECT and
 * IW_CM_EVENT_CLOSE to the iw_cm, and drops the reference on @cep.
 */
void softrdma_iw_cm_conn_closed(struct softrdma_iw_cep *cep,
				struct socket *sock, int err);

#endif /* SOFTRDMA_IW_CM_H */
