/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Port attributes derived from the bound network device: the IB MTU of a
 * payload room, link state and link speed.  Pure functions of the netdev's numbers, so that
 * the rules are in one place and unit tested.
 */
#ifndef SOFTRDMA_PORT_H
#define SOFTRDMA_PORT_H

#include <linux/types.h>
#include <rdma/ib_verbs.h>

/* each transport's path MTU is this of the room its headers leave */
enum ib_mtu softrdma_port_mtu_within(int bytes);

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
