# SPDX-License-Identifier: GPL-2.0
#
# iwarp-data: the iWARP data path (iwarp_qp.c, iwarp_tx.c, iwarp_rx.c)
# carrying real traffic, checked end to end.
#   lab run --stack siwarp,siwarp iwarp-data
#   lab run --stack siwarp,siw iwarp-data     (softrdma serves, siw is client)
#   lab run --stack siw,siwarp iwarp-data     (siw serves, softrdma is client)
# guest0 runs the servers, guest1 the clients:
#  rping  rping -V (the client reads back and compares every byte),
#         500 x 64 B and 500 x 65535 B
#  bw     ib_write_bw, ib_read_bw, ib_send_bw -R -q 4 at 2, 4095, 65536 and
#         1048576 bytes
#  lat    ib_write_lat, ib_read_lat, ib_send_lat -R at 2, 4095 and 65536 B
#  reuse  200 rounds of a 64 KiB RDMA WRITE, unsignalled, and a SEND,
#         whose completion makes the client overwrite the WRITE's buffer
#         at once; 3 % of the client's frames are lost (netem), so TCP
#         resends; the server checks every round's bytes
#         (tools/lab/iw_reuse.c)
#  full   the six tests with -a (every power of two from 2 B to 8 MiB) and
#         -R, the bw tests with -q 4 (make test-full; not in the default
#         set)
# perftest checks completions and sizes, no data; every perftest run here
# must exit 0 and print a result table with exactly one row per size, the
# iteration count asked for (of all QPs), on both sides (the passive
# servers print one row or none; a zero rate is perftest's clock in TCG, a
# note: lab_perftest in lib.sh); the client's rows are kept as notes.
# On siwarp guests the iWARP counters must show traffic, zero-copy FPDUs
# (after a bandwidth part) and no receive error, and softrdma must unload
# afterwards.
# Optional args: part names to run (default: rping bw lat reuse), e.g. "rping bw";
# "tests=ib_read_bw,ib_write_lat" runs only those perftest tests; "runs=N"
# runs each selected perftest N times (to chase intermittent failures);
# "cmtrace" keeps each side's `rdma res show cm_id` (sampled every second
# while perftest runs) as $LAB_OUT/PORT.NAME.GUEST.cm: QP numbers against
# TCP ports show how the two sides paired their connections.

port=19515
want() {
	local a=" $LAB_SCENARIO_ARGS " w
	a=${a// debug / }
	a=${a// cmtrace / }
	for w in $a; do
		[[ $w == *=* ]] && a=${a// $w / }
	done
	if [ -z "${a// /}" ]; then
		[ "$1" != full ]
	else
		[[ " $a " == *" $1 "* ]]
	fi
}
lab_note "stack $LAB_STACK dev $LAB_IBDEV, peer ${LAB_STACKS[$((1 - LAB_ID))]}"
# siw caps a registration at RLIMIT_MEMLOCK, even for root (lab-notes)
ulimit -l unlimited
# "debug": softrdma's debug lines on the console, counters every 3 s in
# $LAB_OUT/counters-live.txt; "pings=N": N pings per rping run
RPING_COUNT=500 TESTS= RUNS=1
for a in $LAB_SCENARIO_ARGS; do
	case $a in
	pings=*) RPING_COUNT=${a#pings=} ;;
	tests=*)
		TESTS=" ${a#tests=} "
		TESTS=${TESTS//,/ }
		;;
	runs=*) RUNS=${a#runs=} ;;
	esac
done
LAB_PAIR_RACE=$LAB_PERFTEST_CM_RACE
# test NAME: is this perftest test selected?
test_wanted() { [ -z "$TESTS" ] || [[ $TESTS == *" $1 "* ]]; }
if [[ " $LAB_SCENARIO_ARGS " == *" debug "* ]] && [ "$LAB_STACK" = siwarp ]; then
	mount -t debugfs none /sys/kernel/debug 2>/dev/null
	echo 'module softrdma +p' >/sys/kernel/debug/dynamic_debug/control
	echo 8 >/proc/sys/kernel/printk
	(while sleep 3; do
		date +%T
		grep -H . "/sys/class/infiniband/$LAB_IBDEV/ports/1/hw_counters/"iw_* |
			grep -v ':0$' | sed 's,.*/,,'
	done) >"$LAB_OUT/counters-live.txt" 2>&1 &
fi


# perf SIZE ITERS CMD...: perftest at one size, its exit status and this
# side's result table checked by lab_perftest (lib.sh); the client's
# header and row as a note
perf() {
	local hdr res smp rc
	if [[ " $LAB_SCENARIO_ARGS " == *" cmtrace "* ]]; then
		(while sleep 1; do
			rdma res show cm_id >"/tmp/cm.$$" 2>&1
			grep -q qpn "/tmp/cm.$$" &&
				cp "/tmp/cm.$$" "$LAB_OUT/$port.$CUR.$LAB_ID.cm"
		done) &
		smp=$!
	fi
	lab_perftest "$@"
	rc=$?
	[ -z "$smp" ] || kill "$smp"
	[ $rc = 0 ] || return $rc
	[ "$LAB_ID" = 1 ] || return 0
	hdr=$(grep -m1 '^ *#bytes' <<<"$LAB_PERFTEST_OUT" | tr -s ' ')
	res=$(awk '/^ *#bytes/ { getline; print; exit }' <<<"$LAB_PERFTEST_OUT" |
		tr -s ' ')
	lab_note "$CUR: $hdr| $res"
}

# rping, every ping validated (lab_rping_checked), and a note of it
rping_run() {
	lab_rping_checked "$@" || return
	[ "$LAB_ID" = 0 ] || lab_note "$CUR: $1 validated pings of $2 B"
}

if want rping; then
	for size in 64 65535; do
		lab_pair "rping-${RPING_COUNT}x$size" 300 rping_run "$RPING_COUNT" "$size"
	done
fi

iters() {
	case $1 in
	1048576) echo 10 ;;
	65536) echo 50 ;;
	*) echo 100 ;;
	esac
}

# A bounded perftest run here takes seconds (the slowest, 40 x 1 MiB
# READs on four QPs, some 10 s; the debug kernel's LAB_TIMEOUT_SCALE
# stretches the limit with it).  The limit is what stock siw's accept race
# costs when it strikes: the client waits for it, then the pair runs
# again (lab_pair).
PERF_TMO=120

if want bw; then
	for t in ib_write_bw ib_read_bw ib_send_bw; do
		test_wanted "$t" || continue
		for size in 2 4095 65536 1048576; do
			for ((r = 1; r <= RUNS; r++)); do
				# the table counts the iterations of all 4 QPs
				lab_pair "$t-$size-q4" "$PERF_TMO" perf "$size" \
					"$((4 * $(iters "$size")))" "$t" -d "$LAB_IBDEV" \
					-R -q 4 -s "$size" -n "$(iters "$size")" -F
			done
		done
	done
fi

if want lat; then
	for t in ib_write_lat ib_read_lat ib_send_lat; do
		test_wanted "$t" || continue
		for size in 2 4095 65536; do
			for ((r = 1; r <= RUNS; r++)); do
				lab_pair "$t-$size" "$PERF_TMO" perf "$size" \
					"$(iters "$size")" \
					"$t" -d "$LAB_IBDEV" -R -s "$size" \
					-n "$(iters "$size")" -F
			done
		done
	done
fi

# perf_all ITERS CMD...: perftest -a, its exit status and this side's
# result table (one row per size, lab_perftest in lib.sh); the client's
# 64 KiB and 8 MiB rows as a note
perf_all() {
	lab_perftest "$LAB_PERFTEST_ALL_SIZES" "$@" || return
	[ "$LAB_ID" = 1 ] || return 0
	lab_note "$CUR: $(awk '/^ *#bytes/ { t = 1; next }
		t && /^ *(65536|8388608) / { printf "%s| ", $0 }' \
		<<<"$LAB_PERFTEST_OUT" | tr -s ' \t' ' ')"
}

# -a: 23 sizes, one iteration count each; 8 MiB dominates the time (the
# bw tests move 4 QPs x ITERS x ~16 MiB).
if want full; then
	for t in ib_write_bw ib_read_bw ib_send_bw ib_write_lat ib_read_lat \
		ib_send_lat; do
		test_wanted "$t" || continue
		if [[ $t == *_bw ]]; then
			lab_pair "$t-a-q4" 900 perf_all 20 "$t" -d "$LAB_IBDEV" -R \
				-a -q 4 -n 5 -F
		else
			lab_pair "$t-a" 900 perf_all 10 "$t" -d "$LAB_IBDEV" -R \
				-a -n 10 -F
		fi
	done
fi

# reuse: lab_pair appends -p PORT and, on the client, the server's address
REUSE_BIN=${IW_REUSE_BIN:-/var/tmp/softrdma-lab/iw_reuse}
reuse_run() {
	if [ "$LAB_ID" = 0 ]; then
		lab_run "$REUSE_BIN" -s -a "$LAB_ADDR" -n 200 -S 65536 "$@"
	else
		lab_run "$REUSE_BIN" -n 200 -S 65536 "$@"
	fi
}

if want reuse; then
	modprobe sch_netem 2>/dev/null
	[ "$LAB_ID" = 1 ] && lab_check "netem: 3 % of the client's frames lost" \
		tc qdisc add dev eth0 root netem loss 3%
	lab_pair reuse-200x65536 300 reuse_run
	if [ "$LAB_ID" = 1 ]; then
		tc -s qdisc show dev eth0 >"$LAB_OUT/reuse-netem.txt" 2>&1
		lab_note "reuse: $(grep -o 'dropped [0-9]*' "$LAB_OUT/reuse-netem.txt" | head -1) frames"
		lab_check "netem removed" tc qdisc del dev eth0 root
	fi
fi

# counter NAME: its value on this device (what rdma statistic shows)
counter() {
	cat "/sys/class/infiniband/$LAB_IBDEV/ports/1/hw_counters/$1"
}

dmesg >"$LAB_OUT/dmesg.txt" 2>&1
if [ "$LAB_STACK" = siwarp ]; then
	rdma statistic show link "$LAB_IBDEV/1" >"$LAB_OUT/counters.txt" 2>&1
	lab_note "counters: $(cd "/sys/class/infiniband/$LAB_IBDEV/ports/1/hw_counters" &&
		grep -H . iw_* | sed 's/:/ /' | tr '\n' ' ')"
	lab_check "iWARP FPDUs sent and received" \
		test "$(counter iw_xmit_fpdus)" -gt 0 -a "$(counter iw_rcv_fpdus)" -gt 0
	# a reader's client sends only requests: judge zero-copy where this
	# guest sent payload (more than the 1 MiB of requests and control)
	# that may go by reference: perftest's bandwidth streams (mostly
	# unsignalled WQEs), rping's Read Responses and the reuse part's
	# unsignalled WRITEs (from the clients, guest1); rping's server
	# sends signalled WRITEs, whose payload TCP copies (iwarp_tx.c,
	# softrdma_iw_zcopy)
	if [ "$(counter iw_xmit_bytes)" -gt 1048576 ] &&
		{ want bw || want full ||
			{ [ "$LAB_ID" = 1 ] && { want rping || want reuse; }; }; }; then
		lab_check "payload sent zero-copy (iw_xmit_zcopy_fpdus > 0)" \
			test "$(counter iw_xmit_zcopy_fpdus)" -gt 0
	fi
	# a READ's responder: perftest's servers (guest0), rping's client
	# (guest1, whose buffer the server reads); the first FPDU of a
	# Read Response leaves from the softirq that read its request
	# (iwarp_tx.c, softrdma_iw_tx_run_locked)
	if { [ "$LAB_ID" = 0 ] && { want bw || want lat || want full; } &&
		{ test_wanted ib_read_bw || test_wanted ib_read_lat; }; } ||
		{ [ "$LAB_ID" = 1 ] && want rping; }; then
		lab_check "Read Responses sent from the receive softirq (iw_xmit_softirq_fpdus > 0)" \
			test "$(counter iw_xmit_softirq_fpdus)" -gt 0
	fi
	for c in iw_rcv_crc_err iw_rcv_bad_hdr iw_rcv_no_rqe iw_rcv_untagged_err \
		iw_rcv_prot_err iw_rcv_ird_exceeded iw_rcv_unexpected \
		iw_rcv_local_err iw_term_rcvd iw_term_sent iw_xmit_err; do
		lab_check "no $c" test "$(counter "$c")" = 0
	done
	# every QP is gone with its process: nothing pins the module
	lab_barrier unload
	lab_check "rmmod softrdma with $LAB_IBDEV present" rmmod softrdma
	lab_check "$LAB_IBDEV gone" test ! -e "/sys/class/infiniband/$LAB_IBDEV"
else
	lab_barrier unload
fi
lab_barrier done
exit 0
