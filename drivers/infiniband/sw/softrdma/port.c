// SPDX-License-Identifier: GPL-2.0-only
/*
 * Port attributes derived from the bound network device.
 */
#include <linux/ethtool.h>
#include <linux/kernel.h>

#include "port.h"

/**
 * softrdma_port_mtu_within() - largest IB MTU whose payload fits in @bytes
 * @bytes: room for the payload of one packet (may be zero or negative)
 *
 * Below 512 bytes of room it is 256, the IBA minimum.
 */
enum ib_mtu softrdma_port_mtu_within(int bytes)
{
	static const enum ib_mtu mtus[] = {
		IB_MTU_4096, IB_MTU_2048, IB_MTU_1024, IB_MTU_512,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mtus); i++)
		if (bytes >= ib_mtu_enum_to_int(mtus[i]))
			return mtus[i];
	return IB_MTU_256;
}

/**
 * softrdma_port_link_state() - IB port state for a netdev's state
 * @running: the netdev is administratively up (netif_running())
 * @carrier: the netdev has carrier (netif_carrier_ok())
 */
struct softrdma_link_state softrdma_port_link_state(bool running, bool carrier)
{
	if (running && carrier)
		return (struct softrdma_link_state){
			.state = IB_PORT_ACTIVE,
			.phys_state = IB_PORT_PHYS_STATE_LINK_UP,
		};
	if (running)
		return (struct softrdma_link_state){
			.state = IB_PORT_DOWN,
			.phys_state = IB_PORT_PHYS_STATE_POLLING,
		};
	return (struct softrdma_link_state){
		.state = IB_PORT_DOWN,
		.phys_state = IB_PORT_PHYS_STATE_DISABLED,
	};
}

/**
 * softrdma_port_speed() - IB speed and width closest to an Ethernet speed
 * @mbps: link speed in Mb/s as ethtool reports it, or SPEED_UNKNOWN
 *
 * Picks the IB rate (speed x width) that does not exceed the Ethernet
 * speed.  Virtual NICs often report no speed at all; they are reported as
 * 10 Gb/s, the usual speed of a virtual link.
 */
struct softrdma_link_speed softrdma_port_speed(u32 mbps)
{
	static const struct {
		u32 mbps;
		struct softrdma_link_speed ib;
	} rates[] = {
		{ 400000, { IB_SPEED_NDR, IB_WIDTH_4X } },
		{ 200000, { IB_SPEED_HDR, IB_WIDTH_4X } },
		{ 100000, { IB_SPEED_EDR, IB_WIDTH_4X } },
		{  50000, { IB_SPEED_HDR, IB_WIDTH_1X } },
		{  40000, { IB_SPEED_QDR, IB_WIDTH_4X } },
		{  25000, { IB_SPEED_EDR, IB_WIDTH_1X } },
		{  20000, { IB_SPEED_DDR, IB_WIDTH_4X } },
		{  10000, { IB_SPEED_FDR10, IB_WIDTH_1X } },
		{   5000, { IB_SPEED_DDR, IB_WIDTH_1X } },
	};
	unsigned int i;

	if (mbps == (u32)SPEED_UNKNOWN || mbps == 0)
		mbps = 10000;

	for (i = 0; i < ARRAY_SIZE(rates); i++)
		if (mbps >= rates[i].mbps)
			return rates[i].ib;
	return (struct softrdma_link_speed){ IB_SPEED_SDR, IB_WIDTH_1X };
}
