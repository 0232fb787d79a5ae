/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Port attributes derived from the bound network device: path MTU, link
 * state and link speed.  Pure functions of the netdev's numbers, so that
 * the rules are in one place and unit tested.
 */
#ifndef SOFTRDMA_PORT_H
#define SOFTRDMA_PORT_H

#include <linux/types.h>
#include <rdma/ib_verbs.h>

/*
 * The worst-case RoCEv2 overhead inside one Ethernet frame for a packet
 * that carries payload (IBA vol 1 annex A17): IPv6 header, UDP header,
 * BTH, RETH and ImmDt (RDMA WRITE First/Only with Immediate) and the ICRC.
 * Payload at the path MTU must fit in netdev MTU minus this.
 */
#define SOFTRDMA_ROCE_MAX_HDR_BYTES	(40 + 8 + 12 + 16 + 4 + 4)

enum ib_mtu softrdma_roce_path_mtu(unsigned int netdev_mtu);
enum ib_mtu softrdma_iwarp_mtu(unsigned int netdev_mtu);

struct softrdma_link_state {
	enum ib_port_state state;
	enum ib_port_phys_state phys_state;
};

struct softrdma_link_state softrdma_port_link_state(bool running,
						    bool carrier);

struct softrdma_link_speed {
	u16 speed;	/* enum ib_port_speed */
	u8 width;	/* enum ib_port_width */
};

struct softrdma_link_speed softrdma_port_speed(u32 mbps);

#endif /* SOFTRDMA_PORT_H */
