#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Check that Documentation/softrdma.rst names exactly what the code offers:
# the counters of counters.c's name table, the module parameters
# (module_param), and the tracepoints of include/trace/events/softrdma.h.
# Each reference table lists its names as "   * - ``name``" rows under its
# section title.  Prints one TAP line per table; exits 1 on a mismatch.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
drv=$top/drivers/infiniband/sw/softrdma
rst=$top/Documentation/softrdma.rst
trace=$top/include/trace/events/softrdma.h
status=0

# the ``name`` rows of one section of the rst (a title underlined with =)
doc_names() {
	awk -v want="$1" '
		/^=+$/ && prev != "" { sec = prev }
		{ prev = $0 }
		sec == want && match($0, /^   \* - ``[a-z0-9_]+``$/) {
			s = $0; sub(/^   \* - ``/, "", s); sub(/``$/, "", s)
			print s
		}' "$rst" | sort
}

# check TITLE WHAT CODE-NAMES: compare the section with the code's list
check() {
	local title=$1 what=$2 code=$3 doc diff

	doc=$(doc_names "$title")
	if [ -z "$code" ]; then
		echo "not ok - $what: found none in the code"
		status=1
		return
	fi
	if diff=$(diff <(echo "$code") <(echo "$doc")); then
		echo "ok - softrdma.rst: $what match the code ($(echo "$code" | wc -l))"
	else
		echo "not ok - softrdma.rst's $what differ from the code (< code only, > doc only):"
		echo "$diff" | grep '^[<>]' | sed 's/^/#   /'
		status=1
	fi
}

check Counters counters "$(sed -n 's/.*\.name = "\([a-z0-9_]*\)".*/\1/p' \
	"$drv/counters.c" | sort)"
check "Module parameters" "module parameters" "$(cat "$drv"/*.c |
	sed -n 's/^module_param(\([a-z0-9_]*\),.*/\1/p' | sort)"
check Tracepoints tracepoints "$(sed -n \
	-e 's/^TRACE_EVENT(\([a-z0-9_]*\),.*/\1/p' \
	-e 's/^DEFINE_EVENT([a-z0-9_]*, \([a-z0-9_]*\),.*/\1/p' \
	"$trace" | sort)"
exit $status
