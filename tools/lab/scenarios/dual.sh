# SPDX-License-Identifier: GPL-2.0
#
# dual: an sroce and a siwarp device on the same netdev carry traffic at
# the same time, each to its own kind of peer, without disturbing the other.
#   lab run --stack sroce+siwarp,rxe+siw dual   (peer: stock rdma_rxe and siw)
#   lab run --stack sroce+siwarp,sroce+siwarp dual
# Each guest has a RoCE device (LAB_IBDEV) and an iWARP device (LAB_IWDEV)
# on eth0; the iWARP one was added first, so the RDMA CM (rping, perftest
# -R) connects over iWARP, while the RoCE tools name LAB_IBDEV and its GID.
# guest0 runs the servers, guest1 the clients:
#  traffic  at once: ibv_rc_pingpong -c and ib_write_bw -x GID over RoCE,
#           rping -V and ib_write_bw -R over iWARP, all data checked
#  counters on every softrdma guest: the RoCE counters of the sroce device
#           and the iw_* counters of the siwarp device show the traffic,
#           no error or drop anywhere, and neither device counted any of
#           the other's traffic
#  linkdel  guest0 deletes its sroce device while rping -V runs over
#           iWARP, adds it back, then deletes its siwarp device while
#           ibv_rc_pingpong -c runs over RoCE: the traffic completes
#  rmmod    softrdma unloads on every softrdma guest
# Optional args: part names to run (default: all); bw_n=N: N iterations
# for both ib_write_bw runs.

port=19615
ARGS=
for a in $LAB_SCENARIO_ARGS; do
	case $a in bw_n=*) ;; *) ARGS="$ARGS $a" ;; esac
done
want() { [ -z "$ARGS" ] || [[ " $ARGS " == *" $1 "* ]]; }
is_soft() { [ "$LAB_STACK" = sroce+siwarp ]; }
RDEV=$LAB_IBDEV
IDEV=$LAB_IWDEV
SRV=$(lab_peer_addr 0)
[ -n "$RDEV" ] && [ -n "$IDEV" ] ||
	lab_fail "stack $LAB_STACK: dual needs a RoCE and an iWARP device (sroce+siwarp or rxe+siw)"
gid=$(lab_gid_index "$LAB_ADDR" "$RDEV") || lab_fail "no IPv4 GID on $RDEV"
lab_note "stack $LAB_STACK: RoCE $RDEV (gid $gid), iWARP $IDEV"

# long enough for the four flows to overlap under TCG: the writes a few
# seconds each (a longer stock rxe write stream has met a bug of rxe's
# here, Documentation/status.md), the pingpong and rping some 15-20 s,
# which a rerun of the iWARP write (ibw_pair) starts within
PP_N=2500 PP_S=4096		# ibv_rc_pingpong
BW_N=200 BW_S=65536		# both ib_write_bw ("bw_n=N" changes N)
RP_N=1500 RP_S=1024		# rping
LD_RP_N=3000 LD_PP_N=3000	# the flows that see a device go
for a in $LAB_SCENARIO_ARGS; do
	case $a in bw_n=*) BW_N=${a#bw_n=} ;; esac
done

# counter DEV NAME: a softrdma device's counter
counter() { cat "/sys/class/infiniband/$1/ports/1/hw_counters/$2"; }
# snap DEV FILE: every counter of DEV, "name value" per line
snap() { (cd "/sys/class/infiniband/$1/ports/1/hw_counters" && grep -H . -- *) |
	sed 's/:/ /' >"$2"; }
# delta FILE0 FILE1 NAME: how much NAME grew between two snaps ("missing"
# if a snap lacks it, which no check takes for a number)
delta() {
	local a b
	a=$(awk -v n="$3" '$1 == n { print $2 }' "$1")
	b=$(awk -v n="$3" '$1 == n { print $2 }' "$2")
	if [ -z "$a" ] || [ -z "$b" ]; then
		echo missing
		return
	fi
	echo $((b - a))
}

# --- checks of each tool's output ---------------------------------------------
# bw_ok FILE: perftest exited 0 with one result row of BW_S bytes x BW_N
# (lab_perftest_table: a zero rate is perftest's clock in TCG, a note)
bw_ok() {
	cat "$1"
	grep -qx 'rc 0' "$1" || return 1
	lab_perftest_table "$BW_S" "$BW_N" bw <"$1"
}
# start NAME CMD...: CMD in the background (300 s at most), output and
# "rc N" to /tmp/NAME, its start and end times to /tmp/NAME.t; its pid in
# PIDS[NAME].
declare -A PIDS
start() {
	local name=$1
	shift
	(
		date +%s.%N >"/tmp/$name.t"
		timeout 300 "$@" >"/tmp/$name" 2>&1
		echo "rc $?" >>"/tmp/$name"
		date +%s.%N >>"/tmp/$name.t"
	) &
	PIDS[$name]=$!
}
# overlap NAME...: there was a moment when all NAMEs ran (the latest start
# came before the earliest end).  When the iWARP write flow had to run
# again (/tmp/iwarp-write-bw.runs, ibw_flow), that run may start after
# the short RoCE write ended; then each flow must have run beside a flow
# of the other family (roce-* or iwarp-*) instead.  A flow that failed
# ("rc N" in /tmp/NAME) carried no traffic to overlap: the check fails.
overlap() {
	local n times rerun=0
	for n in "$@"; do
		grep -qx 'rc 0' "/tmp/$n" || { echo "$n did not complete"; return 1; }
	done
	[ "$(cat /tmp/iwarp-write-bw.runs 2>/dev/null)" -gt 1 ] 2>/dev/null && rerun=1
	times=$(for n in "$@"; do echo "$n $(tr '\n' ' ' <"/tmp/$n.t")"; done)
	echo "$times"
	echo "$times" | awk -v rerun=$rerun '
		function fam(x) { return substr(x, 1, index(x, "-")) }
		{ n[NR] = $1; s[NR] = $2; e[NR] = $3 }
		END {
			for (i = 1; i <= NR; i++) {
				if (s[i] > ls) ls = s[i]
				if (i == 1 || e[i] < le) le = e[i]
			}
			if (le > ls) {
				printf "all four ran together for %.1f s\n", le - ls
				exit 0
			}
			printf "all four did not run together (%.1f s)\n", le - ls
			if (!rerun)
				exit 1
			print "the iWARP write flow ran again; each flow beside the other family:"
			for (i = 1; i <= NR; i++) {
				best = 0
				for (j = 1; j <= NR; j++) {
					if (fam(n[i]) == fam(n[j]))
						continue
					o = (e[i] < e[j] ? e[i] : e[j]) - (s[i] > s[j] ? s[i] : s[j])
					if (o > best)
						best = o
				}
				printf "%s: %.1f s\n", n[i], best
				if (best <= 0)
					bad = 1
			}
			exit bad
		}'
}
# finish NAME CHECK [ARGS...]: wait for NAME, keep its output, judge it
# with CHECK /tmp/NAME ARGS
finish() {
	wait "${PIDS[$1]}"
	cp "/tmp/$1" "$LAB_OUT/checks/$1.out" 2>/dev/null
	lab_check "$1" "$2" "/tmp/$1" "${@:3}"
}

# the RoCE flows; on guest0 without the server address, on guest1 with it
pp_cmd() { echo ibv_rc_pingpong -d "$RDEV" -g "$gid" -c -s "$PP_S" -n "$PP_N" -p "$1"; }
rbw_cmd() { echo ib_write_bw -d "$RDEV" -x "$gid" -s "$BW_S" -n "$BW_N" -F -p "$1"; }

# ibw_flow CMD...: one run of the iWARP ib_write_bw -R flow, as lab_pair
# runs it on either guest (it appends -p PORT, and the server's address on
# guest1): its output and "rc N" in /tmp/iwarp-write-bw, the run's start
# and end in /tmp/iwarp-write-bw.t and the runs so far in
# /tmp/iwarp-write-bw.runs, judged by bw_ok.  perftest 4.5
# may connect its data QP before its server listens again
# (LAB_PERFTEST_CM_RACE, workarounds.sh); lab_pair then runs the pair again, and
# the times become the new run's.
ibw_flow() {
	echo $(($(cat /tmp/iwarp-write-bw.runs 2>/dev/null || echo 0) + 1)) \
		>/tmp/iwarp-write-bw.runs
	date +%s.%N >/tmp/iwarp-write-bw.t
	timeout "$TMO" "$@" >/tmp/iwarp-write-bw 2>&1
	echo "rc $?" >>/tmp/iwarp-write-bw
	date +%s.%N >>/tmp/iwarp-write-bw.t
	bw_ok /tmp/iwarp-write-bw
}
# ibw_pair: the iWARP flow on port + 4, in the background (LAB_PAIR_PID)
ibw_pair() {
	port=$((port + 3))
	LAB_PAIR_RACE=$LAB_PERFTEST_CM_RACE lab_pair_bg iwarp-write-bw 300 \
		ibw_flow ib_write_bw -d "$IDEV" -R -s "$BW_S" -n "$BW_N" -F
}

if is_soft; then
	snap "$RDEV" /tmp/r0
	snap "$IDEV" /tmp/i0
elif [ -d "/sys/class/infiniband/$RDEV/ports/1/hw_counters" ]; then
	# stock rxe's counters (its retries, sequence NAKs), for diagnosis only
	snap "$RDEV" /tmp/r0
fi

# --- traffic: RoCE and iWARP at once ----------------------------------------------
if want traffic; then
	P_PP=$((port + 1)) P_RBW=$((port + 2)) P_RP=$((port + 3))
	if [ "$LAB_ID" = 0 ]; then
		# shellcheck disable=SC2046 # the commands are word lists
		{
			start roce-pingpong-srv $(pp_cmd $P_PP)
			start roce-write-bw-srv $(rbw_cmd $P_RBW)
			start iwarp-rping-srv rping -s -a "$LAB_ADDR" -p $P_RP -V -C $RP_N -S $RP_S
		}
		ibw_pair
		for p in $P_PP $P_RBW $P_RP; do
			lab_wait_listen "$p" 20 >/dev/null 2>&1
		done
		lab_barrier traffic
		finish roce-pingpong-srv lab_pingpong_ok "$PP_N"
		finish roce-write-bw-srv bw_ok
		finish iwarp-rping-srv lab_rping_ok "$RP_N"
		wait "$LAB_PAIR_PID"
	else
		lab_barrier traffic
		# shellcheck disable=SC2046
		{
			start roce-pingpong-cli $(pp_cmd $P_PP) "$SRV"
			start roce-write-bw-cli $(rbw_cmd $P_RBW) "$SRV"
			start iwarp-rping-cli rping -c -v -V -C $RP_N -S $RP_S -p $P_RP -a "$SRV"
		}
		ibw_pair
		finish roce-pingpong-cli lab_pingpong_ok "$PP_N"
		finish roce-write-bw-cli bw_ok
		finish iwarp-rping-cli lab_rping_ok "$RP_N"
		wait "$LAB_PAIR_PID"
		lab_check "RoCE and iWARP flows ran at the same time" overlap \
			roce-pingpong-cli roce-write-bw-cli iwarp-rping-cli iwarp-write-bw
	fi
	lab_barrier traffic-done 400
fi

if ! is_soft && want traffic && [ -f /tmp/r0 ]; then
	snap "$RDEV" /tmp/r1
	cp /tmp/r0 "$LAB_OUT/counters-$RDEV-before.txt"
	cp /tmp/r1 "$LAB_OUT/counters-$RDEV-after.txt"
	# (no /dev/fd in the guests: no process substitution)
	sort /tmp/r0 >/tmp/r0.sorted
	sort /tmp/r1 >/tmp/r1.sorted
	lab_note "$RDEV counters that moved: $(join /tmp/r0.sorted /tmp/r1.sorted |
		awk '$3 != $2 { printf "%s +%d ", $1, $3 - $2 }')"
fi

# --- counters -----------------------------------------------------------------------
# The RoCE drop counters and the iWARP error counters: none may move.
ROCE_DROPS="rcv_bad_udp_len rcv_truncated rcv_icrc_err rcv_bad_tver rcv_bad_opcode
	rcv_bad_pkey rcv_no_qp rcv_nomem rcv_unreadable rcv_addr_mismatch
	rcv_qp_not_ready
	rcv_invalid_request
	rcv_remote_access_err rcv_backlog_drop rcv_bad_qkey rcv_no_recv_wqe
	rcv_ud_too_long xmit_drop xmit_no_route xmit_err xmit_nomem
	xmit_no_headroom
	retry_exceeded_err rnr_retry_exceeded_err"
IW_ERRS="iw_xmit_err iw_local_err iw_rcv_crc_err iw_rcv_bad_hdr iw_rcv_no_rqe
	iw_rcv_untagged_err iw_rcv_prot_err iw_rcv_ird_exceeded iw_rcv_unexpected
	iw_rcv_local_err iw_term_sent iw_term_unsent iw_term_rcvd"

# moved FILE0 FILE1 NAMES...: print the NAMES that moved; fail if any did
moved() {
	local f0=$1 f1=$2 n d bad=0
	shift 2
	for n in "$@"; do
		d=$(delta "$f0" "$f1" "$n")
		[ "$d" = 0 ] || { echo "$n +$d"; bad=1; }
	done
	return $bad
}
# at_least FILE0 FILE1 NAME MIN: NAME grew by MIN or more
at_least() {
	local d
	d=$(delta "$1" "$2" "$3")
	echo "$3 +$d (want >= $4)"
	[ "$d" -ge "$4" ]
}

if is_soft && want traffic; then
	snap "$RDEV" /tmp/r1
	snap "$IDEV" /tmp/i1
	cp /tmp/r0 "$LAB_OUT/counters-$RDEV-before.txt"
	cp /tmp/r1 "$LAB_OUT/counters-$RDEV-after.txt"
	cp /tmp/i0 "$LAB_OUT/counters-$IDEV-before.txt"
	cp /tmp/i1 "$LAB_OUT/counters-$IDEV-after.txt"
	# what each device must at least have moved: guest1's ib_write_bw
	# writes BW_N x BW_S bytes to guest0; ibv_rc_pingpong moves PP_N
	# messages of PP_S bytes each way
	if [ "$LAB_ID" = 0 ]; then
		rcv=$((BW_N * BW_S + PP_N * PP_S)) xmit=$((PP_N * PP_S))
	else
		rcv=$((PP_N * PP_S)) xmit=$((BW_N * BW_S + PP_N * PP_S))
	fi
	lab_check "$RDEV received the RoCE payload (port_rcv_bytes)" \
		at_least /tmp/r0 /tmp/r1 port_rcv_bytes $rcv
	lab_check "$RDEV sent the RoCE payload (port_xmit_bytes)" \
		at_least /tmp/r0 /tmp/r1 port_xmit_bytes $xmit
	if [ "$LAB_ID" = 0 ]; then
		lab_check "$IDEV received the iWARP payload (iw_rcv_bytes)" \
			at_least /tmp/i0 /tmp/i1 iw_rcv_bytes $((BW_N * BW_S))
	else
		lab_check "$IDEV sent the iWARP payload (iw_xmit_bytes)" \
			at_least /tmp/i0 /tmp/i1 iw_xmit_bytes $((BW_N * BW_S))
	fi
	lab_check "$IDEV FPDUs both ways" eval \
		'at_least /tmp/i0 /tmp/i1 iw_rcv_fpdus 1 && at_least /tmp/i0 /tmp/i1 iw_xmit_fpdus 1'
	# shellcheck disable=SC2086 # word lists
	{
		lab_check "$RDEV: no RoCE drop or error" moved /tmp/r0 /tmp/r1 $ROCE_DROPS
		lab_check "$IDEV: no iWARP error" moved /tmp/i0 /tmp/i1 $IW_ERRS
		# each device saw only its own kind of traffic
		lab_check "$RDEV counted no iWARP" moved /tmp/r0 /tmp/r1 \
			iw_xmit_fpdus iw_rcv_fpdus iw_xmit_bytes iw_rcv_bytes $IW_ERRS
		lab_check "$IDEV counted no RoCE" moved /tmp/i0 /tmp/i1 \
			port_rcv_packets port_xmit_packets port_rcv_bytes \
			port_xmit_bytes $ROCE_DROPS
	}
fi

# --- linkdel: one device goes while the other carries traffic ------------------
# guest0's LINKDEL_DEV goes once the flow (its server: PIDS[SRVNAME]) has
# moved WATCH on the surviving device; the flow must still be running
# then (else the check fails: it proves nothing) and must complete.
del_under() {
	local dev=$1 srvname=$2 watchdev=$3 watch=$4 base
	base=$(counter "$watchdev" "$watch")
	lab_wait_for 120 eval '[ "$(counter "$watchdev" "$watch")" -ge $((base + 40)) ]' ||
		echo "# $watchdev $watch did not move by 40"
	lab_check "rdma link del $dev while $watchdev carries traffic" eval \
		'kill -0 "${PIDS[$srvname]}" && rdma link del "$dev" &&
		 test ! -e "/sys/class/infiniband/$dev" && kill -0 "${PIDS[$srvname]}"'
}

if want linkdel; then
	P_RP=$((port + 11)) P_PP=$((port + 12))
	# the iWARP flow keeps going while guest0's RoCE device goes
	if [ "$LAB_ID" = 0 ]; then
		start linkdel-rping-srv rping -s -a "$LAB_ADDR" -p $P_RP -V -C $LD_RP_N -S 256
		lab_wait_listen $P_RP 20 >/dev/null 2>&1
		lab_barrier linkdel-rping
		is_soft && del_under "$RDEV" linkdel-rping-srv "$IDEV" iw_rcv_fpdus
		finish linkdel-rping-srv lab_rping_ok "$LD_RP_N"
	else
		lab_barrier linkdel-rping
		start linkdel-rping-cli rping -c -v -V -C $LD_RP_N -S 256 -p $P_RP -a "$SRV"
		finish linkdel-rping-cli lab_rping_ok "$LD_RP_N"
	fi
	lab_barrier linkdel-rping-done 400
	if [ "$LAB_ID" = 0 ] && is_soft; then
		lab_check "rdma link add $RDEV again" \
			rdma link add "$RDEV" type sroce netdev eth0
		gid=$(lab_gid_index "$LAB_ADDR" "$RDEV") || gid=1
	fi
	# and the RoCE flow while guest0's iWARP device goes
	if [ "$LAB_ID" = 0 ]; then
		# shellcheck disable=SC2046
		start linkdel-pingpong-srv $(PP_N=$LD_PP_N pp_cmd $P_PP)
		lab_wait_listen $P_PP 20 >/dev/null 2>&1
		lab_barrier linkdel-pp
		is_soft && del_under "$IDEV" linkdel-pingpong-srv "$RDEV" port_rcv_packets
		finish linkdel-pingpong-srv lab_pingpong_ok "$LD_PP_N"
	else
		lab_barrier linkdel-pp
		# shellcheck disable=SC2046
		start linkdel-pingpong-cli $(PP_N=$LD_PP_N pp_cmd $P_PP) "$SRV"
		finish linkdel-pingpong-cli lab_pingpong_ok "$LD_PP_N"
	fi
	lab_barrier linkdel-pp-done 400
fi

# --- rmmod --------------------------------------------------------------------------
dmesg >"$LAB_OUT/dmesg.txt" 2>&1
lab_barrier unload 400
if is_soft; then
	lab_check "rmmod softrdma with its devices present" rmmod softrdma
	lab_check "$RDEV and $IDEV gone" eval \
		'test ! -e "/sys/class/infiniband/$RDEV" && test ! -e "/sys/class/infiniband/$IDEV"'
fi
lab_barrier done
exit 0
