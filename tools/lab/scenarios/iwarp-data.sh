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
#         1048576 bytes (perftest checks completions and sizes; its result
#         line is kept as a note)
#  lat    ib_write_lat, ib_read_lat, ib_send_lat -R at 2, 4095 and 65536 B
# On siwarp guests the iWARP counters must show traffic, zero-copy FPDUs
# and no receive error, and softrdma must unload afterwards.
# Optional args: part names to run (default: all), e.g. "rping bw".

port=19515
want() {
	local a=${LAB_SCENARIO_ARGS//debug/}
	[ -z "${a// /}" ] || [[ " $a " == *" $1 "* ]]
}
lab_note "stack $LAB_STACK dev $LAB_IBDEV, peer ${LAB_STACKS[$((1 - LAB_ID))]}"
# siw caps a registration at RLIMIT_MEMLOCK, even for root (lab-notes)
ulimit -l unlimited
if [[ " $LAB_SCENARIO_ARGS " == *" debug "* ]] && [ "$LAB_STACK" = siwarp ]; then
	mount -t debugfs none /sys/kernel/debug 2>/dev/null
	echo 'module softrdma +p' >/sys/kernel/debug/dynamic_debug/control
fi
RPING_COUNT=${RPING_COUNT:-500}

# pair NAME TIMEOUT CMD...: CMD runs on guest0 as server and on guest1
# with the server's address appended; both must succeed.
pair() {
	local name=$1 tmo=$2 srv rc
	shift 2
	CUR=$name
	port=$((port + 1))
	case $LAB_ID in
	0)
		TMO=$tmo "$@" -p "$port" >"/tmp/$name.srv" 2>&1 &
		srv=$!
		lab_wait_listen "$port" 30 >/dev/null 2>&1
		lab_barrier "$name"
		lab_check "$name server" wait "$srv"
		rc=$?
		cp "/tmp/$name.srv" "$LAB_OUT/checks/$name.srv.out" 2>/dev/null
		;;
	1)
		lab_barrier "$name"
		TMO=$tmo lab_check "$name client" "$@" -p "$port" \
			"$(lab_peer_addr 0)"
		rc=$?
		;;
	*)
		lab_barrier "$name"
		rc=0
		;;
	esac
	lab_barrier "$name-done" 900
	return $rc
}

run() { timeout "${TMO:-120}" "$@"; }

# perftest, and its result line as a note (the client prints it)
perf() {
	local out rc res hdr
	out=$(run "$@" 2>&1)
	rc=$?
	echo "$out"
	[ $rc -eq 0 ] || return $rc
	hdr=$(grep -m1 '^ *#bytes' <<<"$out")
	res=$(awk '/^ *#bytes/ { getline; print; exit }' <<<"$out" | tr -s ' ')
	[ -n "$res" ] || [ "$LAB_ID" != 1 ] || { echo "FAIL: no result line"; return 1; }
	[ -n "$res" ] || return 0
	[ "$LAB_ID" = 1 ] && lab_note "$CUR: $(head -1 <<<"$hdr" | tr -s ' ')| $res"
	return 0
}

# rping: the client validates (-V) and prints every ping (-v); all of
# them must have run.  pair() appends -p PORT and the server's address.
rping_run() {
	local count=$1 size=$2 p=$4
	shift 4
	if [ "$LAB_ID" = 0 ]; then
		run rping -s -a "$LAB_ADDR" -p "$p" -V -C "$count" -S "$size"
		return
	fi
	local out rc n
	out=$(run rping -c -v -V -C "$count" -S "$size" -p "$p" -a "$1" 2>&1)
	rc=$?
	echo "$out" | tail -n 5
	[ $rc -eq 0 ] || return $rc
	! grep -qi 'mismatch\|verification failed' <<<"$out" ||
		{ echo "FAIL: data errors"; return 1; }
	n=$(grep -c '^ping data: ' <<<"$out")
	[ "$n" = "$count" ] || { echo "FAIL: $n of $count pings"; return 1; }
	lab_note "$CUR: $n validated pings of $size B"
}

if want rping; then
	for size in 64 65535; do
		pair "rping-${RPING_COUNT}x$size" 300 rping_run "$RPING_COUNT" "$size"
	done
fi

iters() {
	case $1 in
	1048576) echo 20 ;;
	65536) echo 100 ;;
	*) echo 200 ;;
	esac
}

if want bw; then
	for t in ib_write_bw ib_read_bw ib_send_bw; do
		for size in 2 4095 65536 1048576; do
			pair "$t-$size-q4" 300 perf "$t" -d "$LAB_IBDEV" -R \
				-q 4 -s "$size" -n "$(iters "$size")" -F
		done
	done
fi

if want lat; then
	for t in ib_write_lat ib_read_lat ib_send_lat; do
		for size in 2 4095 65536; do
			pair "$t-$size" 300 perf "$t" -d "$LAB_IBDEV" -R \
				-s "$size" -n "$(iters "$size")" -F
		done
	done
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
	if want bw; then
		lab_check "payload sent zero-copy (iw_xmit_zcopy_fpdus > 0)" \
			test "$(counter iw_xmit_zcopy_fpdus)" -gt 0
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
