# SPDX-License-Identifier: GPL-2.0
#
# srq: shared receive queues.
#   lab run --stack siwarp,siwarp srq      (libsiw's SRQ ring)
#   lab run --stack sroce,sroce srq        (librxe's SRQ ring)
#   lab run --stack sroce,rxe srq          (softrdma serves, stock rxe client)
# guest0 runs the servers, guest1 the clients.  Parts (args select them;
# default all that apply to the stacks):
#  attr      ibv_devinfo -v: max_srq, max_srq_wr, max_srq_sge advertised
#  pingpong  ibv_srq_pingpong -c (16 QPs on one SRQ, every received page
#            checked) at several sizes; IB transport only (it connects QPs
#            by hand, which iWARP cannot)
#  bw        ib_send_bw -R --use-srq at a few sizes
#  lat       ib_send_lat -R --use-srq at a few sizes
#  verbs     tools/lab/srq_verbs.c (built with labverbs.c by tools/lab/lab
#            into /var/tmp/softrdma-lab/srq_verbs) on each softrdma guest,
#            alone: capacity, limit arming and its bounds, resize (librxe) or its refusal (libsiw),
#            no SRQ WQE flushed by a QP's ERR, EBUSY destroy; on sroce also
#            SENDs between two QPs of the device through an SRQ, data
#            checked, and IB_EVENT_SRQ_LIMIT_REACHED once the level falls
#            below an armed limit

port=18900
gid=$(lab_gid_index "$LAB_ADDR" 2>/dev/null) || gid=
lab_note "stack $LAB_STACK dev $LAB_IBDEV, peer ${LAB_STACKS[$((1 - LAB_ID))]}"
want() { [ -z "$LAB_SCENARIO_ARGS" ] || [[ " $LAB_SCENARIO_ARGS " == *" $1 "* ]]; }
# siw caps a registration at RLIMIT_MEMLOCK, even for root (lab-notes)
ulimit -l unlimited
iwarp=0
[[ $LAB_STACK == siwarp || $LAB_STACK == siw ]] && iwarp=1
LAB_PAIR_RACE=$LAB_PERFTEST_CM_RACE

# perftest at one size: lab_perftest's exit and result-table checks (a
# 2 B send_bw rounds its MB/s to 0.00 on slow stacks: the message rate
# counts), and no SRQ or verbs failure printed
perf() {
	local size=$1 iters=$2 res
	shift 2
	lab_perftest "$size" "$iters" "$@" -s "$size" -n "$iters" || return
	! grep -qi 'srq.*fail\|couldn' <<<"$LAB_PERFTEST_OUT" || return 1
	[ "$LAB_ID" = 1 ] || return 0
	res=$(awk '/^ *#bytes/ { getline; print; exit }' <<<"$LAB_PERFTEST_OUT" | tr -s ' ')
	lab_note "$CUR: $res"
	! grep -q 'Failed to disconnect' <<<"$LAB_PERFTEST_OUT" ||
		lab_note "$CUR: perftest exited 0 but its rdma_disconnect failed"
}

# ibv_srq_pingpong: both sides print their iteration line, no data error
srqpp() {
	local out rc
	out=$(lab_run "$@" 2>&1)
	rc=$?
	echo "$out"
	[ $rc -eq 0 ] || return $rc
	! grep -qi 'invalid data\|fail\|couldn' <<<"$out" ||
		{ echo "FAIL: data or verbs error"; return 1; }
	grep -q "iters in" <<<"$out" || { echo "FAIL: no 'iters in' line"; return 1; }
}

if want attr && [[ $LAB_STACK == sroce || $LAB_STACK == siwarp ]]; then
	attrs() {
		local out s w g
		out=$(ibv_devinfo -v -d "$LAB_IBDEV") || return 1
		s=$(awk '$1 == "max_srq:" { print $2 }' <<<"$out")
		w=$(awk '$1 == "max_srq_wr:" { print $2 }' <<<"$out")
		g=$(awk '$1 == "max_srq_sge:" { print $2 }' <<<"$out")
		echo "max_srq $s max_srq_wr $w max_srq_sge $g"
		[ "${s:-0}" -gt 0 ] && [ "${w:-0}" -gt 0 ] && [ "${g:-0}" -gt 0 ]
	}
	lab_check "attr: max_srq, max_srq_wr, max_srq_sge advertised" attrs
fi

if want pingpong && [ $iwarp = 0 ]; then
	for size in 1 4096 65536; do
		lab_pair "srq-pingpong-$size" 180 srqpp ibv_srq_pingpong \
			-d "$LAB_IBDEV" -g "$gid" -s "$size" -n 50 -c
	done
fi

if want bw; then
	for size in 2 4095 65536; do
		lab_pair "ib_send_bw-srq-$size" 120 perf "$size" 100 \
			ib_send_bw -d "$LAB_IBDEV" -R --use-srq -F
	done
fi

if want lat; then
	for size in 2 4095; do
		lab_pair "ib_send_lat-srq-$size" 120 perf "$size" 100 \
			ib_send_lat -d "$LAB_IBDEV" -R --use-srq -F
	done
fi

SRQ_VERBS_BIN=${SRQ_VERBS_BIN:-/var/tmp/softrdma-lab/srq_verbs}
if want verbs && [[ $LAB_STACK == sroce || $LAB_STACK == siwarp ]]; then
	if lab_built srq_verbs "$SRQ_VERBS_BIN"; then
		# sroce: also traffic between two QPs of the device, over its
		# own RoCEv2 GID, with the limit event
		garg=()
		[ "$LAB_STACK" = sroce ] && garg=(-g "$gid")
		lab_run "$SRQ_VERBS_BIN" -d "$LAB_IBDEV" "${garg[@]}" >/tmp/srq_verbs.out 2>&1
		echo "exit $?" >>/tmp/srq_verbs.out
		cp /tmp/srq_verbs.out "$LAB_OUT/checks/srq_verbs.out" 2>/dev/null
		while IFS= read -r line; do
			case $line in
			"ok - "*) lab_check "srq_verbs: ${line#ok - }" true ;;
			"not ok - "*) lab_check "srq_verbs: ${line#not ok - }" false ;;
			esac
		done </tmp/srq_verbs.out
		lab_check "srq_verbs: exited 0" grep -qx "exit 0" /tmp/srq_verbs.out
	fi
fi
lab_barrier srq-end 600
