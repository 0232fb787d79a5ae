# SPDX-License-Identifier: GPL-2.0
#
# mw: memory windows, types 1 and 2B (IBA 10.6.7), through librxe.
#   lab run --stack sroce,sroce mw
#   lab run --stack sroce,rxe mw      (softrdma's windows, rxe's requests)
#   lab run --stack rxe,sroce mw      (rxe's windows, softrdma's requests)
# guest0 owns the memory and binds the windows, guest1 reaches it:
#  attr   ibv_devinfo -v: max_mw and the MEM_WINDOW, MEM_WINDOW_TYPE_2B
#         capabilities on a softrdma device
#  verbs  tools/lab/mw_verbs.c (built on the host by tools/lab/lab):
#         alloc/dealloc of both types; type 1 bound by ibv_bind_mw, type 2
#         by IBV_WR_BIND_MW (zero based) and ibv_wr_bind_mw; WRITE, READ,
#         FETCH_ADD and CMP_SWP through the window R_Keys, every byte
#         checked on both sides; MR dereg refused while windows are bound;
#         local invalidate and SEND with Invalidate, then accesses
#         failing; out-of-bounds, read-only and other-QP accesses failing
#         with REM_ACCESS_ERR; rule-breaking binds completing with
#         MW_BIND_ERR.
# On a softrdma end the windows' binds are counted (mw_bind), and the
# module unloads at the end (no window or MR left behind).
# Optional args: parts to run (default: all): attr, verbs.

MW_BIN=${MW_VERBS_BIN:-/var/tmp/softrdma-lab/mw_verbs}
port=18800

gid=$(lab_gid_index "$LAB_ADDR") || gid=1
lab_note "stack $LAB_STACK dev $LAB_IBDEV gid index $gid"
want() { [ -z "$LAB_SCENARIO_ARGS" ] || [[ " $LAB_SCENARIO_ARGS " == *" $1 "* ]]; }

if want attr && [ "$LAB_STACK" = sroce ]; then
	attrs() {
		local out mw
		out=$(ibv_devinfo -v -d "$LAB_IBDEV") || return 1
		mw=$(awk '$1 == "max_mw:" { print $2 }' <<<"$out")
		echo "max_mw $mw"
		[ "${mw:-0}" -gt 0 ] || return 1
		grep -qw MEM_WINDOW <<<"$out" &&
			grep -qw MEM_WINDOW_TYPE_2B <<<"$out"
	}
	lab_check "attr: max_mw and the window capabilities advertised" attrs
fi

# stock rxe owning the windows: what mw_verbs.c allows for (MW_OWNER)
[ "${LAB_STACKS[0]}" = rxe ] && export MW_OWNER=rxe

if want verbs && lab_built mw_verbs "$MW_BIN"; then
	lab_pair mw_verbs 120 lab_run "$MW_BIN" -d "$LAB_IBDEV" -g "$gid"
fi

if [ "$LAB_STACK" = sroce ]; then
	rdma statistic show link "$LAB_IBDEV/1" >"$LAB_OUT/counters.txt" 2>&1
	if [ "$LAB_ID" = 0 ] && want verbs; then
		lab_check "windows bound (mw_bind counted)" \
			lab_counter_positive mw_bind
	fi
	lab_barrier unload
	lab_check "rmmod softrdma with $LAB_IBDEV present" rmmod softrdma
else
	lab_barrier unload
fi
exit 0
