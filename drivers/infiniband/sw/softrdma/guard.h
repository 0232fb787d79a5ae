/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Keeps softrdma and the stock soft-RDMA drivers apart.
 */
#ifndef SOFTRDMA_GUARD_H
#define SOFTRDMA_GUARD_H

#include <linux/types.h>

int softrdma_guard_init(void);
void softrdma_guard_exit(void);

#if IS_ENABLED(CONFIG_KUNIT)
bool softrdma_guard_is_rival(const char *module_name);
#endif

#endif /* SOFTRDMA_GUARD_H */
