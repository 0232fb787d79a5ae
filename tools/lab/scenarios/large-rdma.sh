# SPDX-License-Identifier: GPL-2.0
#
# large-rdma: 8 MiB RDMA READs and WRITEs with perftest's default number
# of outstanding READs, so that several large READs queue behind each
# other at the responder, without loss and under 2 % loss.
#   lab run --stack sroce+siwarp,sroce+siwarp large-rdma
#   lab run --stack rxe+siw,sroce+siwarp large-rdma  (stock drivers serve)
#   lab run --stack sroce+siwarp,rxe+siw large-rdma  (stock drivers ask)
#   lab run --stack rxe,sroce large-rdma roce read   (one family, one test)
# guest0 runs the perftest servers, guest1 the clients: the client of
# ib_read_bw is the requester of the READs, the server their responder.
# Each guest's RoCE device (LAB_IBDEV, perftest -x GID) and iWARP device
# (LAB_IWDEV, or LAB_IBDEV on a one-family iWARP stack; perftest -R) is
# used when it has one.
#
# Args (optional, default: all): families "roce" "iwarp", tests "read"
# "write", conditions "plain" "loss" (2 % of the frames each guest sends
# lost, netem), "trace" (softrdma's tracepoints into the guest's /lab),
# "skip=PAIR" leaves out one pair by its name, e.g. roce-loss-ib_read_bw.
#
# A stock rxe requester's READs run with an ACK timeout of 4.096 us *
# 2^11, 8.4 ms (perftest -u, RXE_READ_TIMEOUT), not perftest's 67 ms.
# rxe takes READ responses in PSN order only: past a lost one it drops
# the rest, and asks again when the next READ's responses arrive or its
# ACK timer fires.  It restarts that timer at every response it receives,
# dropped ones too, so the timer fires only once the responses pause, and
# the timeout has to outlast the longest pause of a stream that is still
# coming, not a whole 8 MiB READ.  With 67 ms each loss cost about the
# rest of its READ, and the pair under 2 % loss took 474 s against an
# sroce responder; with 8.4 ms it took 27 s, rxe asking again 112 times.
# Without netem's loss rxe asked again 3 times, while the lab's hub
# dropped frames queued for it: what rxe's counters moved is noted for
# each pair (completer_retry_err: a retry started).
#
# perftest checks no data: this scenario checks what perftest prints on
# both sides (lab_perftest: exit status 0, one row with every iteration;
# a failed completion ends perftest with an error), on every softrdma
# guest that no QP gave up (retry_exceeded_err 0), and under loss that
# netem dropped frames and, on a softrdma RoCE client (the requester of
# both tests), that the loss was repaired (retransmits counted).  The
# counters each part moved are noted.

SIZE=8388608
ITERS=5		# perftest takes no fewer
RXE_READ_TIMEOUT=11	# 4.096 us * 2^11, 8.4 ms (header)
port=19815

ARGS=" $* "
SKIP=" "
for a in "$@"; do
	[[ $a == skip=* ]] && SKIP+="${a#skip=} "
done
# want WORD...: every WORD selected (none of its kind named: all are)
want() {
	local w kind
	for w in "$@"; do
		case $w in
		roce | iwarp) kind="roce iwarp" ;;
		read | write) kind="read write" ;;
		plain | loss) kind="plain loss" ;;
		esac
		[[ $ARGS == *" $w "* ]] && continue
		for k in $kind; do
			[[ $ARGS == *" $k "* ]] && return 1
		done
	done
	return 0
}

case $LAB_STACK in
sroce | rxe) RDEV=$LAB_IBDEV IDEV= ;;
siwarp | siw) RDEV= IDEV=$LAB_IBDEV ;;
*) RDEV=$LAB_IBDEV IDEV=$LAB_IWDEV ;;
esac
gid=
if [ -n "$RDEV" ]; then
	gid=$(lab_gid_index "$LAB_ADDR" "$RDEV") || lab_fail "no IPv4 GID on $RDEV"
fi
lab_note "stack $LAB_STACK: RoCE ${RDEV:-none} (gid ${gid:-none}), iWARP ${IDEV:-none}"

# is_soft DEV: DEV is a softrdma device (its counters are checked)
is_soft() { [[ $1 == sr* || $1 == sw* ]]; }

if [[ $ARGS == *" trace "* ]]; then
	mountpoint -q /sys/kernel/tracing ||
		mount -t tracefs nodev /sys/kernel/tracing
	echo 16384 >/sys/kernel/tracing/buffer_size_kb
	echo 1 >/sys/kernel/tracing/events/softrdma/enable
fi

# pt ITERS CMD...: one side of a perftest pair, SIZE x ITERS
pt() { lab_perftest "$SIZE" "$@"; }

# stock_snap DEV FILE: a stock device's counters (rxe has them, siw
# none: FILE stays empty), noted per pair on the client
stock_snap() {
	: >"$2"
	[ -d "/sys/class/infiniband/$1/ports/1/hw_counters" ] && snap "$1" "$2"
}

# run_family FAM DEV COND: ib_read_bw and ib_write_bw at SIZE on DEV,
# perftest's default outstanding READs (the device's maximum)
run_family() {
	local fam=$1 dev=$2 cond=$3 t op addr start pre
	for op in read write; do
		want "$op" || continue
		t=ib_${op}_bw
		[[ $SKIP == *" $fam-$cond-$t "* ]] && continue
		if [ "$fam" = roce ]; then
			addr=(-x "$gid")
		else
			addr=(-R)
		fi
		# a stock rxe requester's READs: its ACK timeout (-u)
		# shortened to RXE_READ_TIMEOUT (header)
		if [ "$LAB_ID" = 1 ] && [ "$fam" = roce ] && [ "$op" = read ] &&
			! is_soft "$dev"; then
			addr+=(-u "$RXE_READ_TIMEOUT")
		fi
		pre=$LAB_OUT/$fam-$cond-$t-stock-before.txt
		[ "$LAB_ID" = 1 ] && ! is_soft "$dev" && stock_snap "$dev" "$pre"
		start=$SECONDS
		lab_pair "$fam-$cond-$t" 600 pt "$ITERS" "$t" -d "$dev" \
			"${addr[@]}" -s "$SIZE" -n "$ITERS" -F
		[ "$LAB_ID" = 1 ] || continue
		lab_note "$fam-$cond-$t: $((SECONDS - start)) s"
		if ! is_soft "$dev" && [ -s "$pre" ]; then
			stock_snap "$dev" "${pre%before.txt}after.txt"
			lab_note "$fam-$cond-$t $dev: $(awk 'NR == FNR { v[$1] = $2; next }
				$2 != v[$1] { printf "%s %d ", $1, $2 - v[$1] }' \
				"$pre" "${pre%before.txt}after.txt")"
		fi
	done
}

# snap DEV FILE: every counter of a softrdma device, "name value"
snap() {
	(cd "/sys/class/infiniband/$1/ports/1/hw_counters" && grep -H . -- *) |
		sed 's/:/ /' >"$2"
}

# counters_check FAM DEV COND: what a softrdma device counted in this
# part (since the snap FAM-COND-before.txt): no QP gave up, and under
# loss a RoCE client repaired it
counters_check() {
	local fam=$1 dev=$2 cond=$3 a b d
	is_soft "$dev" || return 0
	a=$LAB_OUT/$fam-$cond-before.txt
	b=$LAB_OUT/$fam-$cond-after.txt
	d=$LAB_OUT/$fam-$cond-delta.txt
	snap "$dev" "$b"
	awk 'NR == FNR { v[$1] = $2; next } { print $1, $2 - v[$1] }' "$a" "$b" >"$d"
	lab_note "$fam $cond $dev: $(grep -E '^(retransmits|ack_timeouts|seq_naks_[a-z]*|rnr_naks_[a-z]*|duplicate_requests|rcv_stale_response|rcv_[a-z_]*drop|retry_exceeded_err|iw_[a-z_]*) ' "$d" |
		grep -v ' 0$' | tr '\n' ' ')"
	lab_check "$fam $cond: $dev retry_exceeded_err 0" \
		awk '$1 == "retry_exceeded_err" { print; f = 1; exit $2 != 0 }
		     END { if (!f) exit 1 }' "$d"
	if [ "$cond" = loss ] && [ "$fam" = roce ] && [ "$LAB_ID" = 1 ]; then
		lab_check "$fam $cond: $dev went back for what was lost" \
			awk '$1 == "retransmits" { print; f = 1; exit $2 <= 0 }
			     END { if (!f) exit 1 }' "$d"
	fi
}

for cond in plain loss; do
	want "$cond" || continue
	if [ "$cond" = loss ]; then
		modprobe sch_netem 2>/dev/null
		lab_check "netem loss 2%" tc qdisc add dev eth0 root netem loss 2%
	fi
	for fam in roce iwarp; do
		want "$fam" || continue
		dev=$RDEV
		[ "$fam" = iwarp ] && dev=$IDEV
		[ -n "$dev" ] || continue
		is_soft "$dev" && snap "$dev" "$LAB_OUT/$fam-$cond-before.txt"
		run_family "$fam" "$dev" "$cond"
		counters_check "$fam" "$dev" "$cond"
	done
	if [ "$cond" = loss ]; then
		tc -s qdisc show dev eth0 >"$LAB_OUT/netem.txt" 2>&1
		lab_check "netem dropped frames" \
			awk '/dropped/ { sub(/,/, "", $7); print; exit !($7 > 0) }' \
			"$LAB_OUT/netem.txt"
		tc qdisc del dev eth0 root
	fi
done

if [[ $ARGS == *" trace "* ]]; then
	cat /sys/kernel/tracing/trace >"$LAB_OUT/trace.txt" 2>/dev/null
fi
lab_barrier end
exit 0
