/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The iWARP receive engine: FPDUs from the connection's TCP socket
 * parsed as they arrive and their payload placed straight from the skbs
 * into registered memory (iwarp_rx.c).
 */
#ifndef SOFTRDMA_IWARP_RX_H
#define SOFTRDMA_IWARP_RX_H

#include <linux/types.h>

struct sk_buff;
struct sock;
struct softrdma_iw_ev;
struct softrdma_iw_rx;
struct softrdma_qp;

void softrdma_iw_rx_read(struct softrdma_qp *qp, struct sock *sk);
void softrdma_iw_rx_reset(struct softrdma_iw_rx *rx, bool crc_on);
void softrdma_iw_rx_stop(struct softrdma_qp *qp);

/* the incremental FPDU parser: pure, KUnit-tested */
unsigned int softrdma_iw_rx_parse(struct softrdma_iw_rx *rx,
				  const struct sk_buff *skb, unsigned int off,
				  unsigned int len, struct softrdma_iw_ev *ev);

#if IS_ENABLED(CONFIG_KUNIT)
void softrdma_iw_rx_bytes(struct softrdma_qp *qp, const struct sk_buff *skb,
			  unsigned int off, size_t len);
#endif

#endif /* SOFTRDMA_IWARP_RX_H */
