// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for port.c: the IB MTU of a payload room, link state and
 * speed derivation.
 */
#include <kunit/test.h>
#include <linux/ethtool.h>

#include "port.h"

struct mtu_case {
	const char *name;
	int bytes;
	enum ib_mtu mtu;
};

static const struct mtu_case mtu_cases[] = {
	{ "ipv6_minimum_1280", 1280, IB_MTU_1024 },
	{ "standard_1500", 1500, IB_MTU_1024 },
	{ "one_short_of_2048", 2047, IB_MTU_1024 },
	{ "exactly_2048", 2048, IB_MTU_2048 },
	{ "between_2048_4096", 2131, IB_MTU_2048 },
	{ "one_short_of_4096", 4095, IB_MTU_2048 },
	{ "exactly_4096", 4096, IB_MTU_4096 },
	{ "jumbo_9000", 9000, IB_MTU_4096 },
	{ "max_65535", 65535, IB_MTU_4096 },
	{ "exactly_512", 512, IB_MTU_512 },
	{ "tiny_511", 511, IB_MTU_256 },
	{ "tiny_68", 68, IB_MTU_256 },
	{ "zero", 0, IB_MTU_256 },
	{ "negative", -84, IB_MTU_256 },
};

static void mtu_case_desc(const struct mtu_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mtu, mtu_cases, mtu_case_desc);

static void softrdma_port_mtu_of_room(struct kunit *test)
{
	const struct mtu_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, softrdma_port_mtu_within(c->bytes), c->mtu);
}

static void softrdma_port_link_state_table(struct kunit *test)
{
	struct softrdma_link_state s;

	s = softrdma_port_link_state(true, true);
	KUNIT_EXPECT_EQ(test, s.state, IB_PORT_ACTIVE);
	KUNIT_EXPECT_EQ(test, s.phys_state, IB_PORT_PHYS_STATE_LINK_UP);

	s = softrdma_port_link_state(true, false);
	KUNIT_EXPECT_EQ(test, s.state, IB_PORT_DOWN);
	KUNIT_EXPECT_EQ(test, s.phys_state, IB_PORT_PHYS_STATE_POLLING);

	s = softrdma_port_link_state(false, false);
	KUNIT_EXPECT_EQ(test, s.state, IB_PORT_DOWN);
	KUNIT_EXPECT_EQ(test, s.phys_state, IB_PORT_PHYS_STATE_DISABLED);

	/* carrier without the device being up is still down */
	s = softrdma_port_link_state(false, true);
	KUNIT_EXPECT_EQ(test, s.state, IB_PORT_DOWN);
	KUNIT_EXPECT_EQ(test, s.phys_state, IB_PORT_PHYS_STATE_DISABLED);
}

struct speed_case {
	const char *name;
	u32 mbps;
	u16 speed;
	u8 width;
};

static const struct speed_case speed_cases[] = {
	{ "10M", 10, IB_SPEED_SDR, IB_WIDTH_1X },
	{ "1G", 1000, IB_SPEED_SDR, IB_WIDTH_1X },
	{ "2_5G", 2500, IB_SPEED_SDR, IB_WIDTH_1X },
	{ "5G", 5000, IB_SPEED_DDR, IB_WIDTH_1X },
	{ "10G", 10000, IB_SPEED_FDR10, IB_WIDTH_1X },
	{ "unknown_is_10G", (u32)SPEED_UNKNOWN, IB_SPEED_FDR10, IB_WIDTH_1X },
	{ "zero_is_10G", 0, IB_SPEED_FDR10, IB_WIDTH_1X },
	{ "25G", 25000, IB_SPEED_EDR, IB_WIDTH_1X },
	{ "40G", 40000, IB_SPEED_QDR, IB_WIDTH_4X },
	{ "50G", 50000, IB_SPEED_HDR, IB_WIDTH_1X },
	{ "100G", 100000, IB_SPEED_EDR, IB_WIDTH_4X },
	{ "200G", 200000, IB_SPEED_HDR, IB_WIDTH_4X },
	{ "400G", 400000, IB_SPEED_NDR, IB_WIDTH_4X },
	{ "800G", 800000, IB_SPEED_NDR, IB_WIDTH_4X },
};

static void speed_case_desc(const struct speed_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(speed, speed_cases, speed_case_desc);

static void softrdma_port_speed_from_ethtool(struct kunit *test)
{
	const struct speed_case *c = test->param_value;
	struct softrdma_link_speed s = softrdma_port_speed(c->mbps);

	KUNIT_EXPECT_EQ(test, s.speed, c->speed);
	KUNIT_EXPECT_EQ(test, s.width, c->width);
}

/* The reported IB rate never exceeds the Ethernet rate it stands for. */
static void softrdma_port_speed_never_exceeds_link(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(speed_cases); i++) {
		const struct speed_case *c = &speed_cases[i];
		struct softrdma_link_speed s = softrdma_port_speed(c->mbps);
		int gbps_x10 = 0;

		if (c->mbps == (u32)SPEED_UNKNOWN || c->mbps < 2500)
			continue;
		/* data rates in units of 0.1 Gb/s per lane */
		switch (s.speed) {
		case IB_SPEED_SDR:
			gbps_x10 = 25;
			break;
		case IB_SPEED_DDR:
			gbps_x10 = 50;
			break;
		case IB_SPEED_QDR:
		case IB_SPEED_FDR10:
			gbps_x10 = 100;
			break;
		case IB_SPEED_EDR:
			gbps_x10 = 250;
			break;
		case IB_SPEED_HDR:
			gbps_x10 = 500;
			break;
		case IB_SPEED_NDR:
			gbps_x10 = 1000;
			break;
		}
		KUNIT_EXPECT_LE_MSG(test,
				    gbps_x10 * ib_width_enum_to_int(s.width) * 100,
				    (int)c->mbps, "case %s", c->name);
	}
}

static struct kunit_case softrdma_port_cases[] = {
	KUNIT_CASE_PARAM(softrdma_port_mtu_of_room, mtu_gen_params),
	KUNIT_CASE(softrdma_port_link_state_table),
	KUNIT_CASE_PARAM(softrdma_port_speed_from_ethtool, speed_gen_params),
	KUNIT_CASE(softrdma_port_speed_never_exceeds_link),
	{}
};

static struct kunit_suite softrdma_port_suite = {
	.name = "softrdma_port",
	.test_cases = softrdma_port_cases,
};

kunit_test_suite(softrdma_port_suite);
