/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The "sroce" and "siwarp" link types of "rdma link add".
 */
#ifndef SOFTRDMA_LINK_H
#define SOFTRDMA_LINK_H

struct net_device;
struct softrdma_transport;

const char *softrdma_link_bond_refused(const struct net_device *ndev,
				       const struct softrdma_transport *tp);
void softrdma_link_register(void);
void softrdma_link_unregister(void);

#if IS_ENABLED(CONFIG_KUNIT)
int softrdma_link_check_netdev(const struct net_device *ndev,
			       const struct softrdma_transport *tp,
			       const char **why);
#endif

#endif /* SOFTRDMA_LINK_H */
