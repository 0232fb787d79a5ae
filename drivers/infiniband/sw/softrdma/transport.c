// SPDX-License-Identifier: GPL-2.0-only
/*
 * The transports a device may speak, and their global state at module
 * load and unload.
 */
#include <linux/kernel.h>

#include "transport.h"

const struct softrdma_transport *const softrdma_transports[SOFTRDMA_NR_TRANSPORTS] = {
	&softrdma_roce_transport,
	&softrdma_iwarp_transport,
};

int softrdma_transports_init(void)
{
	const struct softrdma_transport *tp;
	int err;
	int i;

	for (i = 0; i < ARRAY_SIZE(softrdma_transports); i++) {
		tp = softrdma_transports[i];
		err = tp->load ? tp->load() : 0;
		if (err)
			goto out_exit;
	}
	return 0;

out_exit:
	while (i--) {
		tp = softrdma_transports[i];
		if (tp->unload)
			tp->unload();
	}
	return err;
}

void softrdma_transports_exit(void)
{
	const struct softrdma_transport *tp;
	int i;

	for (i = ARRAY_SIZE(softrdma_transports) - 1; i >= 0; i--) {
		tp = softrdma_transports[i];
		if (tp->unload)
			tp->unload();
	}
}
