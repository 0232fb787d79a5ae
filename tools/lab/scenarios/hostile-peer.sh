# SPDX-License-Identifier: GPL-2.0
#
# hostile-peer: a peer on the link attacks a softrdma guest; the guest must
# come through with its kernel intact, its memory back and its devices
# still working.
#   lab run --stack sroce+siwarp hostile-peer [packets=N] [conns=N] [full]
#           [seed=N] [iwarp]
#   lab run --stack rxe+siw hostile-peer iwarp [conns=N] [seed=N]
# guest0 is the victim: an sroce and a siwarp device on eth0.  guest1
# attacks with tools/lab/roce_inject.c and tools/lab/iw_peer.c (built on
# the host by tools/lab/lab into /var/tmp/softrdma-lab):
#  live     guest0 serves live traffic: ibv_rc_pingpong -c over RoCE and a
#           persistent rping server (-P) over iWARP, whose client
#           guest1 runs; the attack runs while they do
#  roce     roce_inject sends N frames (packets=N, default 10^4; full:
#           10^6) to guest0's RoCE port: every BTH opcode, mangled
#           extension headers, truncations, bad lengths, valid ICRCs,
#           spoofed sources aimed at the live QP near the PSNs it reads
#           on the wire (its self-test checks its ICRC against rxe first)
#  iwarp    at the same time iw_peer opens N connections (conns=N, default
#           10^3; full: 10^4) to the rping listener: mangled MPA
#           requests, mangled FPDUs with valid CRC32c after a valid MPA
#           exchange, mangled Read Responses to rping's reads, FIN, RST
#           and half-sent ends; then a valid request is still accepted
# then, with the attack over:
#  bad-response  guest0's RoCE requester QPs, each with one request
#           outstanding, get responses guest1 forges with roce_inject -F
#           (tools/lab/bad_response.c): six that do not fit the request
#           at their PSN raise rcv_bad_response by exactly six (in the
#           program, from sysfs, and in rdma statistic), each completes
#           its request with IBV_WC_BAD_RESP_ERR and is in ERR with no
#           affiliated event; two stale ones and one with a reserved
#           AETH syndrome are dropped and counted under their own names,
#           those QPs stay in RTS; a real QP carries data-checked RDMA
#           WRITEs and READs before and after
# and then, on guest0:
#  fresh    a new ibv_rc_pingpong -c over RoCE and a new rping -V over
#           iWARP between the guests carry data, checked
#  slab     with every QP gone and caches dropped, the kernel's slab
#           memory (/proc/slabinfo: every cache but TCP's TIME_WAIT
#           sockets, which expire on their own) is back within
#           SLAB_TOL_KB (2 MiB; about 0.5 MiB moved in trial runs of
#           10^4 and 10^5 frames) of what it was before the attack,
#           after the same traffic without an attacker, and so are
#           the socket buffers in use (skbuff_head_cache), within
#           SKB_TOL (512: a leak of one received frame in 20 of 10^4)
#  remove   rdma link del of both devices and the unload of softrdma
# (the lab checks guest0's kernel log).  On a KASAN kernel (make
# test-debug) the slab figures are a note: its quarantine holds freed
# objects.  Whether the live flows survived
# is a note, not a check: a spoofed packet may carry the real peer's
# address, which no receiver can tell from the peer's own.
# seed=N repeats the attack's random choices (both tools print theirs).
# iwarp: the iWARP side alone: the live rping -P server, iw_peer's
# connections, the fresh rping and the removal; no RoCE traffic, no
# injector, no forged responses, no slab comparison.  With --stack
# rxe+siw it attacks stock siw the same way, which tells a crash of rping
# itself from one softrdma causes.
# Each death of the rping -P server is noted with its exit status and,
# from its core dump (gdb, installed on the host, in the guest), the stack
# of the thread that crashed; the whole gdb output and the core are kept
# in checks/.  A death is a failed check unless it is rping's own known
# race (workarounds.sh, lab_rping_shared_id).

INJECT_BIN=${ROCE_INJECT_BIN:-/var/tmp/softrdma-lab/roce_inject}
PEER_BIN=${IW_PEER_BIN:-/var/tmp/softrdma-lab/iw_peer}
BAD_BIN=${BAD_RESPONSE_BIN:-/var/tmp/softrdma-lab/bad_response}
# the responses bad_response has forged that do not fit their request
BAD_FORGED=6
PACKETS=10000
CONNS=1000
SEED=
IWARP_ONLY=
SLAB_TOL_KB=2048
SKB_TOL=512
for a in $LAB_SCENARIO_ARGS; do
	case $a in
	packets=*) PACKETS=${a#packets=} ;;
	conns=*) CONNS=${a#conns=} ;;
	seed=*) SEED=${a#seed=} ;;
	full) PACKETS=1000000 CONNS=10000 ;;
	iwarp) IWARP_ONLY=1 ;;
	*) lab_fail "unknown argument $a" ;;
	esac
done

RDEV=$LAB_IBDEV
IDEV=$LAB_IWDEV
SRV=$(lab_peer_addr 0)
SRV6=$(lab_peer_addr6 0)
case $LAB_STACK in
sroce+siwarp) ;;
rxe+siw) [ -n "$IWARP_ONLY" ] || lab_fail "stack rxe+siw: hostile-peer takes it with iwarp only" ;;
*) lab_fail "stack $LAB_STACK: hostile-peer needs sroce+siwarp (or rxe+siw with iwarp)" ;;
esac
[ -n "$RDEV" ] && [ -n "$IDEV" ] || lab_fail "stack $LAB_STACK: no RoCE or no iWARP device"
gid=$(lab_gid_index "$LAB_ADDR" "$RDEV") || lab_fail "no IPv4 GID on $RDEV"
PP_PORT=18515 RP_PORT=7174 FRESH_PP_PORT=18516 FRESH_RP_PORT=7175
BAD_PORT=18960
ulimit -l unlimited

# spawn NAME SECS CMD...: CMD in the background (a program for SECS at
# most, or a shell function), output and "rc N" in /tmp/NAME, pid in
# PIDS[NAME]
declare -A PIDS
spawn() {
	local name=$1 secs=$2
	shift 2
	(
		if [ "$(type -t "$1")" = function ]; then
			"$@"
		else
			timeout "$secs" "$@"
		fi >"/tmp/$name" 2>&1
		echo "rc $?" >>"/tmp/$name"
	) &
	PIDS[$name]=$!
}
# stop NAME: end a background command that may still run
stop() {
	local c
	for c in $(pgrep -P "${PIDS[$1]}"); do
		kill "$c" 2>/dev/null
	done
	wait "${PIDS[$1]}" 2>/dev/null
}
# running NAME: the background command still runs
running() { kill -0 "$(pgrep -P "${PIDS[$1]}" | head -1)" 2>/dev/null; }

# pair NAME N: one data-checked ibv_rc_pingpong over RoCE and one rping
# -V over iWARP, both N iterations, guest0 serving
pair() {
	local name=$1 n=$2
	if [ "$LAB_ID" = 0 ]; then
		if [ -z "$IWARP_ONLY" ]; then
			spawn "$name-pp" 120 ibv_rc_pingpong -d "$RDEV" -g "$gid" -c -s 1024 -n "$n" -p "$FRESH_PP_PORT"
			lab_wait_listen "$FRESH_PP_PORT" || lab_fail "no pingpong server"
		fi
		spawn "$name-rp" 120 rping -s -V -C "$n" -S 1024 -a "$SRV" -p "$FRESH_RP_PORT"
		lab_wait_for 30 lab_listening "$FRESH_RP_PORT" || lab_fail "no rping server"
		lab_barrier "$name"
	else
		lab_barrier "$name"
		[ -n "$IWARP_ONLY" ] ||
			spawn "$name-pp" 120 ibv_rc_pingpong -d "$RDEV" -g "$gid" -c -s 1024 -n "$n" -p "$FRESH_PP_PORT" "$SRV"
		spawn "$name-rp" 120 rping -c -V -v -C "$n" -S 1024 -a "$SRV" -p "$FRESH_RP_PORT"
	fi
	[ -n "$IWARP_ONLY" ] || wait "${PIDS[$name-pp]}"
	wait "${PIDS[$name-rp]}"
	cp "/tmp/$name-pp" "/tmp/$name-rp" "$LAB_OUT/checks/" 2>/dev/null
	[ -n "$IWARP_ONLY" ] ||
		lab_check "$name: ibv_rc_pingpong -c over RoCE ($n x 1 KiB)" lab_pingpong_ok "/tmp/$name-pp" "$n"
	lab_check "$name: rping -V over iWARP ($n x 1 KiB)" lab_rping_ok "/tmp/$name-rp" "$n"
	lab_barrier "$name-done"
}

# rping_server: the persistent rping server over iWARP, started again
# whenever it dies until /tmp/rping.stop exists; each exit as "rping PID
# exited STATUS", a crash's core in $CORES/core.PID.  rping -P of
# rdma-core 44 has a race of its own that a burst of connection requests
# meets (workarounds.sh, lab_rping_shared_id); each death is looked at
# afterwards (rping_deaths).
CORES=/tmp/rping-cores
rping_server() {
	local rc pid
	ulimit -c unlimited
	rm -f /tmp/rping.stop
	while [ ! -e /tmp/rping.stop ]; do
		rping -s -P -V -S 1024 -a "$SRV" -p "$RP_PORT" &
		pid=$!
		wait "$pid"
		rc=$?
		echo "rping $pid exited $rc"
		[ -e /tmp/rping.stop ] || sleep 0.2
	done
}
# cores_on / cores_off: core dumps to $CORES/core.PID and back
cores_on() {
	mkdir -p "$CORES"
	CORE_PATTERN=$(cat /proc/sys/kernel/core_pattern)
	echo "$CORES/core.%p" >/proc/sys/kernel/core_pattern
}
cores_off() { echo "$CORE_PATTERN" >/proc/sys/kernel/core_pattern; }

# gdb_stack FILE: the first backtrace in gdb's output FILE, the crashing
# thread's, as "fn <- fn <- ..." after the signal's name; a frame gdb
# cannot name (rping and librdmacm are stripped: static functions have no
# name) as OBJECT+OFFSET from the mappings printed before it
gdb_stack() {
	local line s e o obj pc fn off sig='' out='' maps=() m
	local re_map='^[[:space:]]*(0x[0-9a-f]+)[[:space:]]+(0x[0-9a-f]+)[[:space:]]+0x[0-9a-f]+[[:space:]]+(0x[0-9a-f]+)[[:space:]]+(/.*)$'
	local re_frame='^#([0-9]+)[[:space:]]+(0x([0-9a-f]+)[[:space:]]+in[[:space:]]+)?([^ ]+)'
	while IFS= read -r line; do
		if [[ $line =~ $re_map ]]; then
			maps+=("${BASH_REMATCH[1]} ${BASH_REMATCH[2]} ${BASH_REMATCH[3]} ${BASH_REMATCH[4]}")
		elif [[ $line =~ ^Program\ terminated\ with\ signal\ ([A-Z]+) ]]; then
			sig=${BASH_REMATCH[1]}
		elif [ "${#maps[@]}" -gt 0 ] && [[ $line =~ $re_frame ]]; then
			# (gdb shows frame 0 once before the mappings)
			[ "${BASH_REMATCH[1]}" = 0 ] && [ -n "$out" ] && break
			fn=${BASH_REMATCH[4]} pc=0x${BASH_REMATCH[3]:-0}
			if [ "$fn" = "??" ]; then
				for m in "${maps[@]}"; do
					read -r s e o obj <<<"$m"
					if ((pc >= s && pc < e)); then
						printf -v off '%x' $((pc - s + o))
						fn="${obj##*/}+0x$off"
						break
					fi
				done
			fi
			out+="${out:+ <- }$fn"
		fi
	done <"$1"
	echo "${sig:-no signal} in ${out:-no stack}"
}

# rping_deaths: each death of the rping -P server so far (before
# /tmp/rping.stop ends the last one), one a line: "PID exit STATUS: SIGNAL
# in STACK" (from its core; gdb's whole output and the first three cores
# kept in checks/), or "PID exit STATUS (no core)"
rping_deaths() {
	local pid rc gdbout kept=0
	while read -r _ pid _ rc; do
		if [ ! -s "$CORES/core.$pid" ]; then
			echo "$pid exit $rc (no core)"
			continue
		fi
		gdbout=$LAB_OUT/checks/rping-$pid.gdb
		timeout 120 gdb -batch -nx -q -ex 'set pagination off' \
			-ex 'info proc mappings' -ex bt -ex 'info registers' \
			-ex 'thread apply all bt' /usr/bin/rping "$CORES/core.$pid" >"$gdbout" 2>&1
		[ $((kept++)) -lt 3 ] && cp "$CORES/core.$pid" "$LAB_OUT/checks/rping-$pid.core"
		echo "$pid exit $rc: $(gdb_stack "$gdbout")"
	done < <(grep -E '^rping [0-9]+ exited [0-9]+$' /tmp/live-rp)
}

# slab_kb: the kernel's slab memory in KiB, every cache but TCP's
# TIME_WAIT sockets (/proc/slabinfo: num_objs x objsize)
slab_kb() {
	awk 'NR > 2 && $1 !~ /^tw_sock_/ { t += $3 * $4 } END { printf "%d\n", t / 1024 }' /proc/slabinfo
}
# slab_settle: every QP of this guest gone, freed memory given back
slab_settle() {
	lab_wait_for 60 sh -c '[ -z "$(rdma res show qp 2>/dev/null | grep -v " lqpn [01] ")" ]' ||
		{ echo "QPs left:"; rdma res show qp; }
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 2
	echo 3 >/proc/sys/vm/drop_caches
}
# slab_top FILE0 FILE1: the caches that grew most, a note
slab_snap() { awk 'NR > 2 { print $1, $3 * $4 }' /proc/slabinfo | sort >"$1"; }
slab_grew() {
	join "$1" "$2" | awk '{ d = ($3 - $2) / 1024; if (d > 32) printf "%s +%d KiB\n", $1, d }' |
		sort -t+ -k2 -rn | head -8 | tr '\n' ' '
}
# skbs: socket buffers in use (skbuff_head_cache's active objects); their
# data mostly lies in pages, not in slab, so a leak of received frames
# shows here first
skbs() { awk '$1 == "skbuff_head_cache" { print $2 }' /proc/slabinfo; }
slab_back() {
	local now skb rc=0
	now=$(slab_kb)
	skb=$(skbs)
	echo "slab before $SLAB_BEFORE KiB, after $now KiB (tolerance $SLAB_TOL_KB KiB)"
	echo "skbs before $SKB_BEFORE, after $skb (tolerance $SKB_TOL)"
	slab_snap /tmp/slab.after
	echo "grew: $(slab_grew /tmp/slab.before /tmp/slab.after)"
	[ $((now - SLAB_BEFORE)) -le "$SLAB_TOL_KB" ] || rc=1
	[ $((skb - SKB_BEFORE)) -le "$SKB_TOL" ] || rc=1
	return $rc
}

# --- warm-up: the same traffic without an attacker, then the baseline -------
if [ -z "$IWARP_ONLY" ]; then
	pair warmup 200
	if [ "$LAB_ID" = 0 ]; then
		slab_settle
		SLAB_BEFORE=$(slab_kb)
		SKB_BEFORE=$(skbs)
		slab_snap /tmp/slab.before
		lab_note "slab before the attack: $SLAB_BEFORE KiB"
	fi
fi

# --- live traffic and the attack -------------------------------------------
if [ "$LAB_ID" = 0 ]; then
	cores_on
	if [ -z "$IWARP_ONLY" ]; then
		rdma statistic show link "$RDEV/1" >/tmp/cnt.before 2>&1
		spawn live-pp 3600 ibv_rc_pingpong -d "$RDEV" -g "$gid" -c -s 1024 -n 100000000 -p "$PP_PORT"
		lab_wait_listen "$PP_PORT" || lab_fail "no pingpong server"
	fi
	spawn live-rp 3600 rping_server
	lab_wait_for 30 lab_listening "$RP_PORT" || lab_fail "no rping server"
	lab_barrier live
	lab_barrier attacked 3600
	: >/tmp/rping.stop
	rping_deaths >/tmp/rping.deaths
	n=$(wc -l </tmp/rping.deaths)
	if [ "$n" != 0 ]; then
		lab_note "the rping -P server died $n time(s) during the attack and was started again: $(tr '\n' ';' </tmp/rping.deaths) $(dmesg | grep -m3 -E 'rping\[[0-9]+\]: segfault|traps: rping\[' | tr '\n' ' ')"
		while read -r death; do
			lab_check "the rping -P server's death ${death%%:*} is rping's own race" \
				lab_rping_shared_id /tmp/live-rp "${death#*: }"
		done </tmp/rping.deaths
	fi
	if [ -z "$IWARP_ONLY" ]; then
		running live-pp && lab_note "the live RoCE pingpong still ran after the attack" ||
			lab_note "the live RoCE pingpong ended during the attack: $(tail -n 3 /tmp/live-pp | tr '\n' ' ')"
	fi
	lab_barrier live-stopped
	[ -n "$IWARP_ONLY" ] || stop live-pp
	stop live-rp
	cores_off
	cp /tmp/live-pp /tmp/live-rp "$LAB_OUT/checks/" 2>/dev/null
	if [ -z "$IWARP_ONLY" ]; then
		rdma statistic show link "$RDEV/1" >/tmp/cnt.after 2>&1
		lab_note "RoCE counters after the attack: $(tr -s ' ' </tmp/cnt.after | grep -o '[a-z_]* [1-9][0-9]*' | tr '\n' ' ')"
	fi
	lab_note "iWARP counters after the attack: $(rdma statistic show link "$IDEV/1" 2>&1 | tr -s ' ' | grep -o '[a-z_]* [1-9][0-9]*' | tr '\n' ' ')"
else
	lab_barrier live
	[ -n "$IWARP_ONLY" ] ||
		spawn live-pp 3600 ibv_rc_pingpong -d "$RDEV" -g "$gid" -c -s 1024 -n 100000000 -p "$PP_PORT" "$SRV"
	spawn live-rp 3600 rping -c -V -C 100000000 -S 1024 -a "$SRV" -p "$RP_PORT"
	# the live QP's frames on the wire before the injector reads them
	sleep 2
	if [ -x "$INJECT_BIN" ] && [ -x "$PEER_BIN" ]; then
		start=$SECONDS
		if [ -z "$IWARP_ONLY" ]; then
			lab_check "roce_inject: ICRC self-test against rdma_rxe's packets" "$INJECT_BIN" --selftest
			start=$SECONDS
			spawn inject 3600 "$INJECT_BIN" -i eth0 -t "$SRV" -T "$SRV6" -n "$PACKETS" -l 3 ${SEED:+-s "$SEED"}
		fi
		# iw_peer's connections take their local ports from a range of
		# their own: the TIME_WAIT sockets its closes leave hold their
		# ports for a minute, and rdma_cm picks the fresh rping's port
		# from the usual range without looking at TCP's sockets (the
		# connect then fails with EADDRINUSE, with stock siw alike)
		range=$(sysctl -n net.ipv4.ip_local_port_range)
		sysctl -qw net.ipv4.ip_local_port_range="20000 31999"
		spawn iwpeer 3600 "$PEER_BIN" -a "$SRV" -p "$RP_PORT" -n "$CONNS" -j 4 -f ${SEED:+-s "$SEED"}
		[ -n "$IWARP_ONLY" ] || wait "${PIDS[inject]}"
		wait "${PIDS[iwpeer]}"
		sysctl -qw net.ipv4.ip_local_port_range="$range"
		lab_note "attack took $((SECONDS - start)) s"
		cp /tmp/iwpeer "$LAB_OUT/checks/"
		if [ -z "$IWARP_ONLY" ]; then
			cp /tmp/inject "$LAB_OUT/checks/"
			lab_check "roce_inject: $PACKETS frames sent to guest0 ($(grep -m1 '^seed' /tmp/inject))" \
				sh -c 'cat /tmp/inject; grep -qx "rc 0" /tmp/inject'
		fi
		lab_check "iw_peer: $CONNS connections to guest0's iWARP listener, which then still accepts ($(grep -m1 '^seed' /tmp/iwpeer))" \
			sh -c 'cat /tmp/iwpeer; grep -qx "rc 0" /tmp/iwpeer'
		[ -n "$IWARP_ONLY" ] || lab_note "roce_inject: $(grep -E '^(victim|sent|live)' /tmp/inject | tr '\n' ' ')"
		lab_note "iw_peer: $(grep -E 'connections:' /tmp/iwpeer)"
	else
		lab_check "roce_inject and iw_peer built on the host" false
	fi
	lab_barrier attacked 3600
	if [ -z "$IWARP_ONLY" ]; then
		running live-pp && lab_note "the live RoCE pingpong client still ran after the attack" ||
			lab_note "the live RoCE pingpong client ended during the attack: $(tail -n 3 /tmp/live-pp | tr '\n' ' ')"
	fi
	running live-rp && lab_note "the live rping client still ran after the attack" ||
		lab_note "the live rping client ended during the attack: $(tail -n 3 /tmp/live-rp | tr '\n' ' ')"
	[ -n "$IWARP_ONLY" ] || stop live-pp
	stop live-rp
	cp /tmp/live-pp /tmp/live-rp "$LAB_OUT/checks/" 2>/dev/null
	# while guest0 reads the cores of its rping server's deaths
	lab_barrier live-stopped 1200
fi

# --- forged responses at a requester with requests outstanding -------------
# checks_of NAME FILE: each "ok - " / "not ok - " line of FILE a check, and
# the program's exit ("rc N", spawn's last line)
checks_of() {
	local line
	while IFS= read -r line; do
		case $line in
		"ok - "*) lab_check "$1: ${line#ok - }" true ;;
		"not ok - "*) lab_check "$1: ${line#not ok - }" false ;;
		esac
	done <"$2"
	lab_check "$1: ran to its end and exited 0" sh -c "tail -n 3 '$2'; grep -qx 'rc 0' '$2'"
}
# bad_rose BEFORE: rdma statistic's rcv_bad_response is BEFORE + BAD_FORGED
bad_rose() {
	local now
	now=$(lab_counter rcv_bad_response)
	echo "rcv_bad_response $1 -> $now"
	[ -n "$1" ] && [ -n "$now" ] && [ $((now - $1)) -eq "$BAD_FORGED" ]
}
if [ -z "$IWARP_ONLY" ] && lab_built bad_response "$BAD_BIN"; then
	if [ "$LAB_ID" = 0 ]; then
		BAD_BEFORE=$(lab_counter rcv_bad_response)
		spawn badresp 240 "$BAD_BIN" -d "$RDEV" -g "$gid" -p "$BAD_PORT"
		lab_wait_listen "$BAD_PORT" || lab_note "bad_response: nothing listens on $BAD_PORT"
		lab_barrier bad-response
	else
		lab_barrier bad-response
		spawn badresp 240 "$BAD_BIN" -d "$RDEV" -g "$gid" -p "$BAD_PORT" \
			-x "$INJECT_BIN -i eth0 -t $SRV" "$SRV"
	fi
	wait "${PIDS[badresp]}"
	cp /tmp/badresp "$LAB_OUT/checks/bad_response-$LAB_ID.out" 2>/dev/null
	checks_of "bad_response (guest$LAB_ID)" /tmp/badresp
	[ "$LAB_ID" = 0 ] &&
		lab_check "rdma statistic: rcv_bad_response rose by exactly the $BAD_FORGED bad responses forged" \
			bad_rose "$BAD_BEFORE"
fi
lab_barrier bad-response-done

# --- afterwards ---------------------------------------------------------------
pair fresh 200
if [ "$LAB_ID" = 0 ] && [ -n "$IWARP_ONLY" ]; then
	lab_check "rdma link del $IDEV ($LAB_STACK) after the attack" timeout 60 rdma link del "$IDEV"
	lab_check "rdma link del $RDEV ($LAB_STACK) after the attack" timeout 60 rdma link del "$RDEV"
	if [ "$LAB_STACK" = sroce+siwarp ]; then
		lab_check "softrdma unloads after the attack" timeout 60 modprobe -r softrdma
	fi
elif [ "$LAB_ID" = 0 ]; then
	slab_settle
	# (from the kernel's symbols: lab batch clears the kernel log
	# between parts, the boot's lines with it)
	if grep -qw kasan_report /proc/kallsyms; then
		# KASAN's quarantine keeps freed objects allocated for a
		# while, beyond what drop_caches reaches (make test-debug)
		lab_note "slab not compared on a KASAN kernel: $(slab_back | head -2 | tr '\n' ' ')"
	else
		lab_check "slab memory back within $SLAB_TOL_KB KiB and skbs within $SKB_TOL of their levels before the attack" slab_back
	fi
	lab_check "rdma link del $RDEV (sroce) after the attack" timeout 60 rdma link del "$RDEV"
	lab_check "rdma link del $IDEV (siwarp) after the attack" timeout 60 rdma link del "$IDEV"
	lab_check "softrdma unloads after the attack" timeout 60 modprobe -r softrdma
fi
lab_barrier end
