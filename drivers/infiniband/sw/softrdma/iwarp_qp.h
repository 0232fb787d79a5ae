/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The iWARP transport of a queue pair: what qp.c calls on a siwarp
 * device where it calls the RC engines (rc.h) on a sroce device, and
 * what the connection manager (iw_cm.c) calls to hand a connected,
 * MPA-negotiated TCP socket to the data path.
 *
 * The per-QP iWARP state hangs off qp->iw, allocated by
 * softrdma_iwarp_qp_init() and freed by softrdma_iwarp_qp_destroy().
 */
#ifndef SOFTRDMA_IWARP_QP_H
#define SOFTRDMA_IWARP_QP_H

#include <linux/types.h>

struct socket;
struct softrdma_iw_cep;
struct softrdma_qp;
struct softrdma_iwarp_qp;

/*
 * What MPA negotiation (RFC 5044, RFC 6581) settled for one connection,
 * handed from the connection manager to the data path.
 */
struct softrdma_iwarp_params {
	bool crc;		/* FPDUs carry a CRC32c, both directions */
	u32 ird;		/* inbound RDMA READs the peer may have open */
	u32 ord;		/* outbound RDMA READs we may have open */
	u32 max_ulpdu;		/* largest ULPDU we send (MULPDU, or more) */
};

/* qp.c: lifecycle, the same calls and contexts as the RC engines */
int softrdma_iwarp_qp_init(struct softrdma_qp *qp);
void softrdma_iwarp_qp_destroy(struct softrdma_qp *qp);
void softrdma_iwarp_qp_reset(struct softrdma_qp *qp);
void softrdma_iwarp_qp_start(struct softrdma_qp *qp);
void softrdma_iwarp_qp_kick(struct softrdma_qp *qp);
void softrdma_iwarp_qp_stop(struct softrdma_qp *qp);

/*
 * softrdma_iwarp_qp_attach() - start RDMA mode on a connected socket
 * @qp:		an iWARP QP in INIT or RTR, not attached
 * @sock:	connected kernel TCP socket; the MPA exchange (and the
 *		RFC 6581 RTR message, if negotiated) is complete and no
 *		byte of RDMA mode has been read from it yet
 * @params:	the negotiated connection parameters
 * @cep:	the connection manager's endpoint, for
 *		softrdma_iw_cm_conn_closed() (iw_cm.h)
 *
 * Called by iw_cm.c in process context.  On success the QP is in RTS and
 * the data path owns @sock (its callbacks and its release) and holds
 * the reference on @cep that the caller took for it; both are given up
 * exactly once, through softrdma_iw_cm_conn_closed(), when the
 * connection ends for any reason (peer close or reset, protocol error,
 * QP moved to ERR or destroyed).  On error nothing was taken over.
 */
int softrdma_iwarp_qp_attach(struct softrdma_qp *qp, struct socket *sock,
			     const struct softrdma_iwarp_params *params,
			     struct softrdma_iw_cep *cep);

#endif /* SOFTRDMA_IWARP_QP_H */
