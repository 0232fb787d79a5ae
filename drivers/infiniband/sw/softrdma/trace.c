// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one place softrdma's tracepoints (include/trace/events/softrdma.h)
 * are instantiated.
 */
#define CREATE_TRACE_POINTS
#include <trace/events/softrdma.h>
