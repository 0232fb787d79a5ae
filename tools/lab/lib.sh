# SPDX-License-Identifier: GPL-2.0
#
# Guest-side helpers for lab scenarios.  Sourced (in every guest) before the
# scenario script.  Environment provided by the lab:
#   LAB_ID LAB_N LAB_STACK LAB_IBDEV LAB_ADDR LAB_ADDR6 LAB_OUT
#   LAB_IWDEV (the iWARP device of a two-device stack such as sroce+siwarp)
#   LAB_SCENARIO_ARGS KVER
#   LAB_TIMEOUT_SCALE (a factor for the waits below on a slower kernel)
# Checks are recorded in $LAB_OUT/results ("ok<TAB>name" / "not ok<TAB>name")
# with each check's output in $LAB_OUT/checks/<name>.log; the host turns
# them into TAP lines.

# The emulated guests pay 50 to 100 ms for each program they start, so the
# helpers that poll (barriers, listeners, verdicts) use shell builtins only.

# lab_nap SECS: sleep without starting a program: a read that times out on
# a FIFO this shell holds open at both ends, so nothing ever arrives
lab_nap() {
	if [ -n "${_LAB_NAP_FD:-}" ]; then
		read -rt "$1" -u "$_LAB_NAP_FD" _
	else
		sleep "$1"
	fi
	return 0
}
if [ -z "${_LAB_NAP_FD:-}" ] && mkfifo -m 600 "/tmp/.lab-nap.$$" 2>/dev/null; then
	exec {_LAB_NAP_FD}<>"/tmp/.lab-nap.$$"
	rm -f "/tmp/.lab-nap.$$"
fi

# lab_peer_addr I / lab_peer_addr6 I: addresses of guest I.
lab_peer_addr() { echo "192.0.2.$(($1 + 1))"; }
lab_peer_addr6() { printf '2001:db8::%x\n' $(($1 + 1)); }

# lab_note TEXT...: a note shown by the host next to the results.
lab_note() {
	echo "# $*"
	echo "$*" >>"$LAB_OUT/notes"
}

# _lab_safe_name VAR TEXT: TEXT with every character a file name should
# not have turned into "_", in VAR (no subshell: see lab_nap)
_lab_safe_name() {
	printf -v "$1" '%s' "${2//[^A-Za-z0-9._-]/_}"
}

_lab_logname() {
	local base n=1 f
	_lab_safe_name base "$1"
	base=${base:0:80}
	f=$base
	while [ -e "$LAB_OUT/checks/$f.log" ]; do
		n=$((n + 1))
		f=$base.$n
	done
	echo "$LAB_OUT/checks/$f.log"
}

# _lab_record ok|not-ok NAME LOG
_lab_record() {
	local res=$1 name=${2//$'\t'/ } log=$3
	name=${name//$'\n'/ }
	if [ "$res" = ok ]; then
		printf 'ok\t%s\t%s\n' "$name" "${log##*/}" >>"$LAB_OUT/results"
		echo "ok - $name"
	else
		printf 'not ok\t%s\t%s\n' "$name" "${log##*/}" >>"$LAB_OUT/results"
		echo "not ok - $name"
		sed 's/^/#   /' "$log" | tail -n 20
	fi
}

# _lab_run_logged LOG SUFFIX CMD...: run CMD with its output in LOG, framed
# by "+ CMD SUFFIX" and "exit status N".  Returns CMD's status.
_lab_run_logged() {
	local log=$1 suffix=$2 rc
	shift 2
	{
		echo "+ $*$suffix"
		"$@"
	} >"$log" 2>&1 </dev/null
	rc=$?
	echo "exit status $rc" >>"$log"
	return $rc
}

# _lab_run_check EXPECT NAME CMD...: run CMD with its output in
# $LAB_OUT/checks/NAME.log and record ok iff its status is what EXPECT
# (succeed or fail) asks for.  Returns CMD's status.
_lab_run_check() {
	local _lab_expect=$1 name=$2 log rc _lab_res=not-ok suffix=
	shift 2
	log=$(_lab_logname "$name")
	[ "$_lab_expect" = fail ] && suffix=" (expected to fail)"
	_lab_run_logged "$log" "$suffix" "$@"
	rc=$?
	if [ "$_lab_expect" = fail ]; then
		[ $rc -ne 0 ] && _lab_res=ok
	else
		[ $rc -eq 0 ] && _lab_res=ok
	fi
	_lab_record "$_lab_res" "$name" "$log"
	return $rc
}

# lab_check NAME CMD...: run CMD, record ok iff it succeeds.  Output goes to
# $LAB_OUT/checks/NAME.log.  Returns CMD's status.
lab_check() {
	_lab_run_check succeed "$@"
}

# lab_expect_fail NAME CMD...: record ok iff CMD fails.  Returns 0 iff it
# failed as expected.
lab_expect_fail() {
	! _lab_run_check fail "$@"
}

# lab_built NAME BIN: is BIN, the test program NAME that tools/lab/lab
# builds on the host, there to run?  If not, records the failed check
# "NAME built on the host (BIN)".  Returns 0 iff BIN is executable.
lab_built() {
	[ -x "$2" ] && return 0
	lab_check "$1 built on the host ($2)" false
	return 1
}

# lab_fail MSG: record a failed check "MSG" and end the scenario (exit 1).
lab_fail() {
	local log
	log=$(_lab_logname "fail")
	echo "lab_fail: $*" >"$log"
	_lab_record not-ok "$*" "$log"
	exit 1
}

# lab_barrier NAME [TIMEOUT]: wait until all LAB_N guests reach barrier NAME
# (default timeout $LAB_BARRIER_TIMEOUT or 120 s).  A name may be reused;
# each use is a new barrier.  On a timeout records "not ok barrier NAME"
# and returns 1.  If another guest's scenario has already ended, nothing
# this guest does with it can pass (its clients would each wait out their
# own timeouts): records the failed barrier and ends the scenario.
lab_barrier() {
	local name=$1 timeout=${2:-${LAB_BARRIER_TIMEOUT:-120}}
	timeout=$((timeout * ${LAB_TIMEOUT_SCALE:-1}))
	local safe gen=0 genf dir start i log
	local -a arrived
	_lab_safe_name safe "$name"
	genf=/tmp/.lab-barrier-$safe
	[ -r "$genf" ] && read -r gen <"$genf"
	gen=$((gen + 1))
	echo "$gen" >"$genf"
	dir=/lab/barriers/$safe.$gen
	mkdir -p "$dir"
	: >"$dir/$LAB_ID"
	start=$SECONDS
	while :; do
		# this guest's own entry is there: the glob never comes back empty
		arrived=("$dir"/*)
		[ "${#arrived[@]}" -ge "$LAB_N" ] && return 0
		for ((i = 0; i < LAB_N; i++)); do
			if [ "$i" != "$LAB_ID" ] && [ -e "/lab/guest$i/exit" ] &&
				[ ! -e "$dir/$i" ]; then
				log=$(_lab_logname "barrier $name")
				echo "guest$i ended its scenario before reaching barrier $name" >"$log"
				_lab_record not-ok "barrier $name" "$log"
				exit 1
			fi
		done
		if [ $((SECONDS - start)) -ge "$timeout" ]; then
			log=$(_lab_logname "barrier $name")
			{
				echo "barrier $name timed out after ${timeout}s; arrived:"
				ls "$dir"
			} >"$log"
			_lab_record not-ok "barrier $name" "$log"
			return 1
		fi
		lab_nap 0.05
	done
}

# lab_retry TRIES DELAY CMD...: run CMD until it succeeds, at most TRIES times.
lab_retry() {
	local tries=$1 delay=$2 i
	shift 2
	for ((i = 1; i <= tries; i++)); do
		"$@" && return 0
		[ $i -lt "$tries" ] && sleep "$delay"
	done
	return 1
}

# lab_wait_for TIMEOUT CMD...: run CMD every 0.1 s until it succeeds, for
# at most TIMEOUT seconds.
lab_wait_for() {
	local deadline=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -lt $deadline ] || return 1
		lab_nap 0.1
	done
}

# _lab_sock_bound tcp|udp PORT: a local TCP socket listens on PORT (an
# unconnected UDP socket is bound to it), from /proc/net without a fork
_lab_sock_bound() {
	local proto=$1 hex want=0A f laddr st _
	printf -v hex '%04X' "$2"
	[ "$proto" = udp ] && want=07
	for f in "/proc/net/$proto" "/proc/net/${proto}6"; do
		[ -r "$f" ] || continue
		while read -r _ laddr _ st _; do
			[ "${laddr##*:}" = "$hex" ] && [ "$st" = "$want" ] && return 0
		done <"$f"
	done
	return 1
}

# lab_wait_listen PORT [TIMEOUT] [tcp|udp]: wait until a local socket listens
# on PORT (default timeout 30 s).
lab_wait_listen() {
	lab_wait_for $((${2:-30} * ${LAB_TIMEOUT_SCALE:-1})) \
		_lab_sock_bound "${3:-tcp}" "$1"
}

# lab_gid_string ADDR: the GID of ADDR as sysfs prints it: an IPv4 address
# as its IPv4-mapped IPv6 GID, an IPv6 address in full (no program is
# started: this runs in stack_up and teardown too)
lab_gid_string() {
	local a=$1 g out= i n
	local -a h=() t=()
	if [[ $a =~ ^([0-9]+)\.([0-9]+)\.([0-9]+)\.([0-9]+)$ ]]; then
		printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x\n' \
			"${BASH_REMATCH[@]:1:4}"
		return 0
	fi
	[[ $a =~ ^[0-9a-fA-F:]+$ ]] || return 1
	if [[ $a == *::* ]]; then
		[ -n "${a%%::*}" ] && IFS=: read -ra h <<<"${a%%::*}"
		[ -n "${a#*::}" ] && IFS=: read -ra t <<<"${a#*::}"
		n=$((8 - ${#h[@]} - ${#t[@]}))
		[ "$n" -ge 1 ] || return 1
	else
		IFS=: read -ra h <<<"$a"
		[ "${#h[@]}" -eq 8 ] || return 1
		n=0
	fi
	for g in "${h[@]}"; do printf -v g %04x "0x$g"; out+=$g:; done
	for ((i = 0; i < n; i++)); do out+=0000:; done
	for g in "${t[@]}"; do printf -v g %04x "0x$g"; out+=$g:; done
	echo "${out%:}"
}

# lab_gid_index ADDR [IBDEV [PORT]]: print the GID table index whose GID is
# ADDR (an IPv4 address is matched as its IPv4-mapped IPv6 GID).
lab_gid_index() {
	local addr=$1 dev=${2:-$LAB_IBDEV} port=${3:-1} want f gid
	want=$(lab_gid_string "$addr") || return 1
	for f in "/sys/class/infiniband/$dev/ports/$port/gids/"*; do
		read -r gid <"$f" 2>/dev/null || continue
		if [ "$gid" = "$want" ]; then
			echo "${f##*/}"
			return 0
		fi
	done
	return 1
}

# lab_grep_absent PATTERN FILE: succeed iff PATTERN does not occur in FILE.
lab_grep_absent() {
	! grep -q -e "$1" "$2"
}

# lab_listening PORT: something listens on PORT: a TCP socket (a TCP side
# channel, or an iWARP listener, which is a kernel TCP socket) or an rdma_cm
# listener on an IB-transport device.
lab_listening() {
	_lab_sock_bound tcp "$1" ||
		rdma resource show cm_id 2>/dev/null | grep -qE "[:.]$1( |\$)"
}

# --- kernel consumers under load ---------------------------------------------
#
# For the scenarios that run a kernel ULP (nvmeof, nfsrdma): the device's
# counters, parallel jobs, and a device deleted under a writer's load.

# lab_counter NAME: one counter of this guest's device (rdma statistic)
lab_counter() {
	rdma statistic show link "$LAB_IBDEV/1" 2>/dev/null |
		awk -v n="$1" '{ for (i = 1; i < NF; i++) if ($i == n) print $(i + 1) }'
}

# lab_counter_positive NAME / lab_counter_zero NAME: for lab_check; print
# the counter
lab_counter_positive() {
	local v
	v=$(lab_counter "$1")
	echo "$1 $v"
	[ -n "$v" ] && [ "$v" -gt 0 ]
}

lab_counter_zero() {
	local v
	v=$(lab_counter "$1")
	echo "$1 $v"
	[ "$v" = 0 ]
}

# lab_counters_note WHO: the memory operation and error counters, a note
lab_counters_note() {
	lab_note "$1 counters: $(rdma statistic show link "$LAB_IBDEV/1" |
		grep -o 'mr_[a-z_]* [0-9]*\|retransmits [0-9]*\|rcv_[a-z_]*err [1-9][0-9]*\|iw_[a-z_]*err [1-9][0-9]*' |
		tr '\n' ' ')"
}

# lab_each N CMD...: CMD 0 .. CMD N-1 at once; fails if one did
lab_each() {
	local n=$1 j pids=() rc=0
	shift
	for ((j = 0; j < n; j++)); do
		"$@" "$j" &
		pids+=($!)
	done
	for j in "${pids[@]}"; do
		wait "$j" || rc=1
	done
	return $rc
}

# _lab_disk_job write|read DEV SIZE COUNT J: job J's share of DEV
_lab_disk_job() {
	if [ "$1" = write ]; then
		dd if="/tmp/pat.$5" of="$2" bs="$3" count="$4" \
			seek=$(($5 * $4)) oflag=direct conv=notrunc status=none
	else
		dd if="$2" of="/tmp/back.$5" bs="$3" count="$4" \
			skip=$(($5 * $4)) iflag=direct status=none
	fi
}

# lab_disk_check DEV SIZE N: N writers put random data at their own
# offsets of block device DEV with direct I/O of SIZE bytes, then N
# readers read it back; compared
lab_disk_check() {
	local dev=$1 size=$2 n=$3 count j rc=0 span
	# each job's area: whole I/Os, at least four and about 1 MiB
	count=$(((1048576 + size - 1) / size))
	[ "$count" -ge 4 ] || count=4
	span=$((count * size))
	for ((j = 0; j < n; j++)); do
		head -c "$span" /dev/urandom >/tmp/pat.$j || return 1
	done
	lab_each "$n" _lab_disk_job write "$dev" "$size" "$count" ||
		{ echo "a writer failed"; return 1; }
	lab_each "$n" _lab_disk_job read "$dev" "$size" "$count" ||
		{ echo "a reader failed"; return 1; }
	for ((j = 0; j < n; j++)); do
		cmp /tmp/pat.$j /tmp/back.$j || rc=1
	done
	rm -f /tmp/pat.* /tmp/back.*
	[ $rc = 0 ] && echo "$n x $span bytes in $count I/Os of $size each, written and read back"
	return $rc
}

# lab_start_writer DEST MB: a writer with direct I/O in the background
# (its pid in WRITER), MB MiB after MB MiB to DEST (a block device or a
# file) until a write fails; its last error in /tmp/writer.err.  A block
# device is never created: once its disk is gone, dd's next open would
# otherwise leave an empty regular file of the device's name in /dev,
# and the next disk of that name in the same boot would get no node.
lab_start_writer() {
	local nocreat=()
	[ -b "$1" ] && nocreat=(conv=nocreat)
	while dd if=/dev/zero of="$1" bs=1M count="$2" oflag=direct \
		"${nocreat[@]}" status=none 2>/tmp/writer.err; do
		:
	done &
	WRITER=$!
}

# lab_ended PID SECS ERRFILE: PID (a writer whose I/O is to fail) ended
# within SECS; prints ERRFILE, its last error, or its kernel stack
lab_ended() {
	local deadline=$((SECONDS + $2))
	while kill -0 "$1" 2>/dev/null; do
		if [ $SECONDS -ge "$deadline" ]; then
			echo "the writer still runs after $2 s; its stack:"
			cat "/proc/$1/stack"
			return 1
		fi
		sleep 0.5
	done
	echo "the writer ended: $(cat "$3")"
}

# lab_remove_device PREFIX SIDE: delete this guest's RDMA device (under a
# writer's load) and unload its driver, two checks named PREFIX: ...
lab_remove_device() {
	local mod=softrdma
	case $LAB_STACK in
	rxe) mod=rdma_rxe ;;
	siw) mod=siw ;;
	esac
	lab_check "$1: rdma link del $LAB_IBDEV on the $2 under a writer's load" \
		timeout 60 rdma link del "$LAB_IBDEV"
	lab_check "$1: $mod unloads on the $2" timeout 60 modprobe -r "$mod"
}

# --- NVMe over Fabrics -------------------------------------------------------
#
# The target (nvmet-rdma, a RAM disk) and the host (nvme-rdma) of the
# NVMe-oF scenarios (nvmeof.sh: on two guests; onehost.sh: in one).

LAB_NVME_NQN=lab-nvmeof
LAB_NVME_PORT=4420
LAB_NVMET=/sys/kernel/config/nvmet

# lab_nvmet_up ADDR MB [tcp]: export a MB MiB RAM disk with nvmet-rdma at
# ADDR:LAB_NVME_PORT; with "tcp" (an iWARP device, whose listener is a
# kernel TCP socket; RoCE's is the RDMA CM's own) wait for the listener.
lab_nvmet_up() {
	local d=$LAB_NVMET nqn=$LAB_NVME_NQN
	modprobe brd rd_nr=1 rd_size=$(($2 * 1024)) max_part=0 || return 1
	modprobe nvmet-rdma || return 1
	mountpoint -q /sys/kernel/config ||
		mount -t configfs none /sys/kernel/config || return 1
	mkdir -p "$d/subsystems/$nqn" || return 1
	echo 1 >"$d/subsystems/$nqn/attr_allow_any_host"
	mkdir -p "$d/subsystems/$nqn/namespaces/1" || return 1
	echo /dev/ram0 >"$d/subsystems/$nqn/namespaces/1/device_path"
	echo 1 >"$d/subsystems/$nqn/namespaces/1/enable" || return 1
	mkdir -p "$d/ports/1" || return 1
	echo rdma >"$d/ports/1/addr_trtype"
	echo ipv4 >"$d/ports/1/addr_adrfam"
	echo "$1" >"$d/ports/1/addr_traddr"
	echo "$LAB_NVME_PORT" >"$d/ports/1/addr_trsvcid"
	ln -s "$d/subsystems/$nqn" "$d/ports/1/subsystems/$nqn" || return 1
	[ "${3:-}" != tcp ] || lab_wait_listen "$LAB_NVME_PORT" 20
}

# lab_nvmet_down: undo lab_nvmet_up (the RAM disk stays)
lab_nvmet_down() {
	local d=$LAB_NVMET nqn=$LAB_NVME_NQN
	rm -f "$d/ports/1/subsystems/$nqn"
	rmdir "$d/ports/1"
	echo 0 >"$d/subsystems/$nqn/namespaces/1/enable"
	rmdir "$d/subsystems/$nqn/namespaces/1" "$d/subsystems/$nqn"
	modprobe -r nvmet-rdma nvmet
}

# lab_nvme_disk: the namespace's block device (with native multipath, the
# subsystem's head disk nvmeXnY; the per-controller nvmeXcYnZ paths cannot
# be opened)
lab_nvme_disk() {
	local s d
	for s in /sys/class/nvme-subsystem/nvme-subsys* /sys/class/nvme/nvme*; do
		[ "$(cat "$s/subsysnqn" 2>/dev/null)" = "$LAB_NVME_NQN" ] || continue
		for d in "$s"/nvme*n1; do
			d=${d##*/}
			if [[ $d =~ ^nvme[0-9]+n1$ ]] && [ -b "/dev/$d" ]; then
				echo "/dev/$d"
				return 0
			fi
		done
	done
	return 1
}

# lab_nvme_connect ADDR [OPTS]: connect nvme-rdma to the target at
# ADDR:LAB_NVME_PORT (OPTS: more ",key=value" connect options) and wait
# for its disk
lab_nvme_connect() {
	local dev
	modprobe nvme-rdma || return 1
	echo "transport=rdma,traddr=$1,trsvcid=$LAB_NVME_PORT,nqn=$LAB_NVME_NQN${2:-}" \
		>/dev/nvme-fabrics || return 1
	lab_wait_for 30 lab_nvme_disk >/dev/null || return 1
	dev=$(lab_nvme_disk)
	echo "connected: $dev, $(cat /sys/block/"${dev#/dev/}"/size) sectors," \
		"max I/O $(cat /sys/block/"${dev#/dev/}"/queue/max_hw_sectors_kb) KiB"
}

# lab_nvme_no_ctrl: no controller of LAB_NVME_NQN is left
lab_nvme_no_ctrl() {
	! grep -qsx "$LAB_NVME_NQN" /sys/class/nvme/*/subsysnqn
}

# lab_nvme_disconnect: delete the controllers, wait until they are gone
lab_nvme_disconnect() {
	local c
	for c in /sys/class/nvme/nvme*; do
		[ "$(cat "$c/subsysnqn" 2>/dev/null)" = "$LAB_NVME_NQN" ] || continue
		echo 1 >"$c/delete_controller" || return 1
	done
	lab_wait_for 20 lab_nvme_no_ctrl
}

# --- perftest results -------------------------------------------------------
#
# perftest checks no data; what the scenarios check is what it prints: its
# exit status and the result table (the rows after the "#bytes" header, up
# to the dashed line), one row per size: "#bytes #iterations" and then, for
# the bandwidth tests (*_bw), BW peak, BW average and message rate; for the
# latency tests (*_lat), t_min, t_max, t_typical and t_avg.

# the sizes perftest -a runs: every power of two from 2 B to 8 MiB
LAB_PERFTEST_ALL_SIZES=$(for ((i = 1; i <= 23; i++)); do printf '%d ' $((1 << i)); done)

# lab_perftest_table SIZES ITERS KIND < OUTPUT: check perftest's result
# table in OUTPUT: exactly one row for each of SIZES (a space-separated
# list of byte counts), each with ITERS in #iterations (what perftest
# counts: -n times -q for the bandwidth tests; perftest prints a row only
# once all its iterations completed).  Prints a FAIL line for a missing,
# unexpected or repeated row or a wrong iteration count, and the count of
# rows; fails on any FAIL.  A zero figure (KIND bw: BW average and message
# rate; KIND lat: t_min or t_avg) is a note, not a failure: perftest's
# clock in the TCG guests sometimes yields zeros ("Correlation
# coefficient r^2 < 0.9", on any stack, clients and servers alike) for
# runs whose data all arrived.
lab_perftest_table() {
	awk -v sizes="$1" -v iters="$2" -v kind="$3" '
	BEGIN { n = split(sizes, want, " "); for (i = 1; i <= n; i++) need[want[i]] = 1 }
	/^ *#bytes/ { intab = 1; next }
	intab && /^ *-+ *$/ { intab = 0; next }
	intab && /^ *[0-9]+ +[0-9]+ / {
		rows++
		s = $1
		if (!(s in need)) { printf "FAIL: unexpected row for %s B\n", s; bad = 1; next }
		if (s in seen) { printf "FAIL: second row for %s B\n", s; bad = 1; next }
		seen[s] = 1
		if ($2 != iters) { printf "FAIL: %s B: %s iterations, not %s\n", s, $2, iters; bad = 1 }
		if (kind == "bw" && !($4 + 0 > 0 || $5 + 0 > 0))
			printf "note: %s B: zero bandwidth and message rate (perftest clock)\n", s
		if (kind == "lat" && !($3 + 0 > 0 && $6 + 0 > 0))
			printf "note: %s B: zero t_min or t_avg (perftest clock)\n", s
	}
	END {
		for (i = 1; i <= n; i++)
			if (!(want[i] in seen)) { printf "FAIL: no row for %s B\n", want[i]; bad = 1 }
		printf "result table: %d rows, %d expected\n", rows, n
		exit bad
	}'
}

# lab_perftest SIZES ITERS CMD...: run the perftest command CMD (CMD is
# the test's name, ib_write_bw etc.; under lab_timeout ${TMO:-120}, as
# lab_pair sets it) and print its output; succeed iff it exited 0 and this
# guest's result table passes lab_perftest_table SIZES ITERS, with KIND lat
# for *_lat and bw otherwise.  For lab_pair: guest0 is the server, and the
# passive servers print less: ib_read_lat's no table at all (there only its
# connection, "remote address", is checked), ib_write_bw's and ib_read_bw's
# (without -b) one row, the client's last size.  The output stays in
# LAB_PERFTEST_OUT for the caller's notes.
lab_perftest() {
	local sizes=$1 iters=$2 rc kind=bw all
	shift 2
	[[ $1 == *_lat ]] && kind=lat
	LAB_PERFTEST_OUT=$(lab_timeout "${TMO:-120}" "$@" 2>&1)
	rc=$?
	echo "$LAB_PERFTEST_OUT"
	[ "$rc" -eq 0 ] || return "$rc"
	if [ "$LAB_ID" = 0 ]; then
		case $1 in
		ib_read_lat)
			grep -q 'remote address' <<<"$LAB_PERFTEST_OUT" ||
				{ echo "FAIL: no connection"; return 1; }
			return 0
			;;
		ib_write_bw | ib_read_bw)
			if [[ " $* " != *" -b "* ]]; then
				read -ra all <<<"$sizes"
				sizes=${all[-1]}
			fi
			;;
		esac
	fi
	lab_perftest_table "$sizes" "$iters" "$kind" <<<"$LAB_PERFTEST_OUT"
}

# The benchmark's perftest figures (tools/bench/bench: bench-perftest.sh,
# bench-sameboot.sh), in table order.
LAB_BENCH_FIGURES=(write_bw read_bw send_bw msg_rate write_lat read_lat send_lat)

# The size sweep of `bench --sweep`: figures OP_bw_SIZE (OP write, read or
# send; SIZE in bytes) move about LAB_SWEEP_BYTES per run, in
# LAB_SWEEP_MIN_ITERS to LAB_SWEEP_MAX_ITERS messages.
LAB_SWEEP_BYTES=$((8 << 20))
LAB_SWEEP_MIN_ITERS=8
LAB_SWEEP_MAX_ITERS=2000

# lab_bench_cmd FIGURE BW RATE LAT: FIGURE's perftest command line, with -n
# BW for the 64 KiB bandwidth runs, RATE for the 2-byte rate run and LAT
# for the 2-byte latency runs; a sweep figure's -n follows from its size.
lab_bench_cmd() {
	local size n
	case $1 in
	write_bw_* | read_bw_* | send_bw_*)
		size=${1##*_}
		[[ $size =~ ^[1-9][0-9]*$ ]] || return 1
		n=$((LAB_SWEEP_BYTES / size))
		[ "$n" -lt "$LAB_SWEEP_MIN_ITERS" ] && n=$LAB_SWEEP_MIN_ITERS
		[ "$n" -gt "$LAB_SWEEP_MAX_ITERS" ] && n=$LAB_SWEEP_MAX_ITERS
		echo "ib_${1%%_bw_*}_bw -s $size -n $n"
		;;
	write_bw | read_bw | send_bw) echo "ib_$1 -s 65536 -n $2" ;;
	msg_rate) echo "ib_write_bw -s 2 -n $3" ;;
	write_lat | read_lat | send_lat) echo "ib_$1 -s 2 -n $4" ;;
	*) return 1 ;;
	esac
}

# lab_bench_cmds BW RATE LAT [FIGURE...]: fill the associative array CMD,
# figure -> lab_bench_cmd's command line, for the FIGUREs (default
# LAB_BENCH_FIGURES).
lab_bench_cmds() {
	local fig bw=$1 rate=$2 lat=$3
	local -a figs=("${@:4}")
	[ ${#figs[@]} -gt 0 ] || figs=("${LAB_BENCH_FIGURES[@]}")
	declare -gA CMD=()
	for fig in "${figs[@]}"; do
		CMD[$fig]=$(lab_bench_cmd "$fig" "$bw" "$rate" "$lat") ||
			lab_fail "unknown benchmark figure $fig"
	done
}

# lab_bench_value FIGURE LOG: the figure's value from a perftest client
# log.  Bandwidth tests: BW average[MB/sec] (column 4) or, for msg_rate,
# MsgRate[Mpps] (column 5) of the line after the header; latency tests:
# t_avg[usec] (column 6), for FIGURE *_lat_typ t_typical[usec]
# (column 5), the median of the run's round trips, for *_lat_min
# t_min[usec] (column 3), its fastest one.
lab_bench_value() {
	local col=4 hdr='BW average'
	case $1 in
	msg_rate) col=5 ;;
	*_lat) col=6 hdr='t_avg' ;;
	*_lat_typ) col=5 hdr='t_avg' ;;
	*_lat_min) col=3 hdr='t_avg' ;;
	esac
	awk -v col="$col" -v hdr="$hdr" '
		index($0, hdr) { found = 1; next }
		found && $1 ~ /^[0-9]+$/ && $col ~ /^[0-9.]+$/ { print $col; exit }
	' "$2"
}

# lab_iperf3_value LOG: the receiver's MiB/s of an iperf3 -J client log,
# nothing if the log holds none
lab_iperf3_value() {
	python3 -c '
import json, sys
try:
    d = json.load(open(sys.argv[1]))
    print("%.2f" % (d["end"]["sum_received"]["bits_per_second"] / 8 / 1048576))
except (OSError, ValueError, KeyError):
    pass
' "$1"
}

# lab_bench_run CONNECT TEST SIZE ITERS [CMD...]: one perftest run,
# ib_TEST (write_lat, send_bw, ...) with ITERS messages of SIZE bytes,
# for the instrumented benchmarks (bench-kinsn, bench-stages), guest0
# serving and guest1 the client, each guest's output in
# $LAB_OUT/perftest.out.  CONNECT cm connects with rdma_cm (-R), as iWARP
# needs; gid over perftest's TCP side channel with the IPv4-mapped GID.
# CMD, if given, runs in each guest once the server listens, just before
# the measured part.  With LAB_BENCH_MARK set, each guest calls that
# function with "begin" just before its perftest starts and with "end"
# just after it ends (bench-kinsn's snapshots).  Returns perftest's exit
# status.  LAB_BENCH_QPS=N (bandwidth tests) runs N QPs (perftest -q N).
lab_bench_run() {
	local connect=$1 test=$2 size=$3 iters=$4 gid srv rc
	local args=(-d "$LAB_IBDEV" -F -s "$size" -n "$iters" -p 19999)
	shift 4
	[ -z "${LAB_BENCH_QPS:-}" ] || args+=(-q "$LAB_BENCH_QPS")
	if [ "$connect" = cm ]; then
		args+=(-R)
	else
		gid=$(lab_gid_index "$LAB_ADDR") ||
			lab_fail "no IPv4-mapped GID for $LAB_ADDR on $LAB_IBDEV"
		args+=(-x "$gid")
	fi
	lab_barrier start
	if [ "$LAB_ID" = 0 ]; then
		_lab_bench_mark begin
		"ib_$test" "${args[@]}" >"$LAB_OUT/perftest.out" 2>&1 &
		srv=$!
		lab_wait_for 30 lab_listening 19999 ||
			lab_fail "no perftest server"
		lab_barrier listen
		[ $# -eq 0 ] || "$@"
		wait "$srv"
		rc=$?
		_lab_bench_mark end
	else
		lab_barrier listen
		[ $# -eq 0 ] || "$@"
		_lab_bench_mark begin
		"ib_$test" "${args[@]}" "$(lab_peer_addr 0)" \
			>"$LAB_OUT/perftest.out" 2>&1
		rc=$?
		_lab_bench_mark end
	fi
	return "$rc"
}

_lab_bench_mark() {
	[ -z "${LAB_BENCH_MARK:-}" ] || "$LAB_BENCH_MARK" "$1"
}

# lab_rdma_state: this guest's QPs (softrdma's with their engines' state),
# rdma_cm connections and TCP sockets in every state but LISTEN (an iWARP
# stream's unread bytes sit in Recv-Q, its unacknowledged ones in Send-Q),
# and the TCP counters that are not zero (TcpExtTCPRcvQDrop: a receiver
# that stopped reading; TcpExtTCPBacklogDrop: a socket held locked), the
# device's counters and eth0's (qdisc, link, virtio-net queues), for a
# stall report.  A QP being destroyed holds the restrack dump back,
# hence the limits.
lab_rdma_state() {
	timeout 5 rdma -dd res show qp 2>&1
	timeout 5 rdma res show cm_id 2>&1
	timeout 5 ss -tnio state connected 2>&1
	nstat -as 2>&1 | awk '/^Tcp/ { printf "%s %s ", $1, $2 } END { print "" }'
	# the device's counters and the link below it: a transmit path
	# that stopped (qdisc backlog, queue timeouts) shows here
	timeout 5 rdma statistic show 2>&1
	tc -s qdisc show dev eth0 2>&1
	ip -s link show dev eth0 2>&1
	grep -H . /sys/class/net/eth0/queues/tx-*/tx_timeout 2>&1
	# virtio-net's own queue counters (kicks, drops)
	ethtool -S eth0 2>&1 | awk 'NR > 1 && $2 != 0 { printf "%s %s ", $1, $2 }
		END { print "" }'
	lab_qemu_queues
}

# lab_qemu_queues: where each guest's virtio-net queues stand in its QEMU
# (the host's lab answers: qmp-virtio), 20 s at most
lab_qemu_queues() {
	local req
	mkdir -p /lab/qmp
	req=/lab/qmp/$LAB_ID.$$.$RANDOM
	: >"$req.req"
	if lab_wait_for 20 test -e "$req.txt"; then
		cat "$req.txt"
	else
		echo "lab: no answer from the host about the QEMU queues"
	fi
}

# lab_task_stacks PID: the kernel stack each thread of PID waits in
lab_task_stacks() {
	local task
	for task in /proc/"$1"/task/*; do
		echo "lab: task ${task##*/} ($(cat "$task/comm" 2>/dev/null)) waits in:"
		cat "$task/stack" 2>/dev/null
	done
}

# lab_timeout SECS CMD...: timeout(1) for RDMA programs: when CMD is still
# running after SECS, print the kernel stack of each of CMD's threads and
# the QPs' state (rdma -dd res show qp: softrdma's QPs add where their
# engines stand), then end CMD (TERM, KILL 5 s later) and return
# 124.  A stall then says where it stood.
lab_timeout() {
	local secs=$(($1 * ${LAB_TIMEOUT_SCALE:-1})) pid wd rc mark kids
	shift
	mark=$(mktemp)
	# line-buffered, so that what it printed survives its kill
	stdbuf -oL "$@" &
	pid=$!
	(
		# a sleep ended by the clean-up below is not a timeout
		sleep "$secs" || exit 0
		kill -0 "$pid" 2>/dev/null || exit 0
		echo "lab: still running after ${secs}s"
		lab_task_stacks "$pid"
		echo "lab: the QPs and connections then:"
		lab_rdma_state
		# a lab_pair client: the server's guest looks at its end
		# before this kill closes the connection (_lab_peer_race)
		if [ -n "${LAB_PAIR_ASK:-}" ]; then
			_lab_ask_peer_race "$LAB_PAIR_ASK" >/dev/null
			echo "lab: the server's guest finds: $(cat "$LAB_PAIR_ASK.peer" 2>/dev/null)"
		fi
		kill -TERM "$pid" 2>/dev/null
		sleep 5
		kill -KILL "$pid" 2>/dev/null
	) >"$mark" 2>&1 &
	wd=$!
	wait "$pid"
	rc=$?
	# the watchdog before its sleep, so it cannot go on once the sleep
	# is gone
	kids=$(pgrep -P "$wd")
	kill "$wd" 2>/dev/null
	[ -z "$kids" ] || kill $kids 2>/dev/null
	wait "$wd" 2>/dev/null
	if [ -s "$mark" ]; then
		cat "$mark"
		rc=124
	fi
	rm -f "$mark"
	return $rc
}

# _lab_kill_tree PID: SIGTERM PID and every process below it (a background
# shell function's children do not die with it).
_lab_kill_tree() {
	local c
	for c in $(pgrep -P "$1"); do
		_lab_kill_tree "$c"
	done
	kill "$1" 2>/dev/null
}

# _lab_tree_stacks PID: PID and every process below it, with
# lab_task_stacks for those that are not the lab's shells or sleeps
_lab_tree_stacks() {
	local c exe
	exe=$(readlink "/proc/$1/exe")
	echo "lab: process $1 ($(tr '\0' ' ' 2>/dev/null <"/proc/$1/cmdline"))"
	case ${exe##*/} in
	bash | sleep) ;;
	*) lab_task_stacks "$1" ;;
	esac
	for c in $(pgrep -P "$1"); do
		_lab_tree_stacks "$c"
	done
}

# _lab_pair_server_end PORT SRV: the server's end of a pair on PORT whose
# client failed or stalled, as it stands: its sockets on PORT (an iWARP
# stream's unread bytes in Recv-Q, unacknowledged ones in Send-Q) and the
# kernel stacks of the server's processes (SRV and below)
_lab_pair_server_end() {
	echo "lab: the server's sockets on port $1:"
	timeout 5 ss -tanoi "( sport = :$1 or dport = :$1 )" 2>&1
	echo "lab: the server's processes:"
	[ -z "$2" ] || _lab_tree_stacks "$2"
}

# _lab_pair_verdict FILE TIMEOUT [SRV]: print the client's verdict on an
# attempt ("done" or "retry"), waiting for it TIMEOUT + 60 s at most.
# Meanwhile the server's guest answers the client's question FILE.ask (see
# _lab_peer_race) and adds its end to $CUR.srv.asked.state
# (_lab_pair_server_end, SRV being the server's pid, and lab_rdma_state).
_lab_pair_verdict() {
	local f=$1 end=$((SECONDS + $2 + 60))
	while [ ! -s "$f" ] && [ $SECONDS -lt "$end" ]; do
		if lab_pair_serves && [ -e "$f.ask" ] && [ ! -e "$f.peer" ]; then
			# the client stalled or failed: this end as it
			# stands, before the answer lets the client end
			# its side (the client waits 30 s for it)
			_lab_peer_race "${f##*/}" >"$f.peer.tmp"
			_lab_pair_server_end "${f##*/}" "${3:-}" \
				>>"$LAB_OUT/checks/$CUR.srv.asked.state" 2>&1
			mv "$f.peer.tmp" "$f.peer"
			{
				echo "lab: the server's QPs and connections:"
				lab_rdma_state
			} >>"$LAB_OUT/checks/$CUR.srv.asked.state" 2>&1
		fi
		lab_nap 0.05
	done
	cat "$f" 2>/dev/null
}

# lab_run CMD...: CMD under lab_timeout, for the pair's timeout (TMO, set
# by lab_pair) or 120 s.
lab_run() { lab_timeout "${TMO:-120}" "$@"; }

# lab_pingpong CMD...: an ibv_*_pingpong -c (both sides check every byte)
# under lab_run, which must also report its iterations and no data errors.
lab_pingpong() {
	local out rc
	out=$(lab_run "$@" 2>&1)
	rc=$?
	echo "$out"
	[ $rc -eq 0 ] || return $rc
	! grep -q 'invalid data' <<<"$out" || { echo "FAIL: invalid data"; return 1; }
	grep -q "iters in" <<<"$out" || { echo "FAIL: no 'iters in' line"; return 1; }
}

# lab_rping_checked COUNT SIZE, under lab_pair (which appends -p PORT, and
# the server's address on the client): rping -V, where the client reads
# back and compares every ping and prints it (-v; live in
# $LAB_OUT/$CUR.live); all COUNT must have run.  A failed client prints
# all it said but its pings.
lab_rping_checked() {
	local count=$1 size=$2 p=$4 out rc
	shift 4
	if lab_pair_serves; then
		out=$(lab_run rping -s -a "$LAB_ADDR" -p "$p" -V -C "$count" -S "$size" 2>&1)
		rc=$?
		echo "$out"
		lab_rping_exit_race "$rc" <<<"$out" && rc=0
		return $rc
	fi
	out=$(set -o pipefail
		lab_run rping -c -v -V -C "$count" -S "$size" -p "$p" -a "$1" 2>&1 |
			tee "$LAB_OUT/$CUR.live")
	rc=$?
	lab_rping_exit_race "$rc" <<<"$out" && rc=0
	if [ $rc -ne 0 ]; then
		# all but the pings (a stall's report from lab_timeout
		# among it), which a rerun's .live replaces
		echo "rping failed after $(grep -c '^ping data: ' <<<"$out") pings:"
		grep -v '^ping data: ' <<<"$out"
		return $rc
	fi
	echo "$out" | tail -n 5
	lab_rping_pings "$count" <<<"$out"
}

# lab_rping_pings COUNT < OUTPUT: an rping -v -V client's output shows no
# data error and all COUNT pings.
lab_rping_pings() {
	local out n
	out=$(cat)
	! grep -qi 'mismatch\|verification failed' <<<"$out" ||
		{ echo "FAIL: data errors"; return 1; }
	n=$(grep -c '^ping data: ' <<<"$out")
	[ "$n" = "$1" ] || { echo "FAIL: $n of $1 pings"; return 1; }
}

# lab_pingpong_ok FILE N: FILE holds the output of an ibv_*_pingpong -c
# run in the background and then a line "rc STATUS": it exited 0 after N
# iterations, its data compared.
lab_pingpong_ok() {
	cat "$1"
	grep -qx 'rc 0' "$1" || return 1
	! grep -q 'invalid data' "$1" || { echo "FAIL: invalid data"; return 1; }
	grep -q "^$2 iters in" "$1" || { echo "FAIL: no '$2 iters in' line"; return 1; }
}

# lab_rping_ok FILE COUNT: FILE holds the output of an rping -V run in the
# background and then a line "rc STATUS": it exited 0 (or met its own exit
# race, lab_rping_exit_race) and, on a client (any guest but guest0, the
# server as in lab_pair), printed COUNT pings compared (lab_rping_pings).
lab_rping_ok() {
	local rc
	tail -n 5 "$1"
	rc=$(sed -n 's/^rc //p' "$1")
	grep -v '^rc ' "$1" | lab_rping_exit_race "$rc" && rc=0
	[ "$rc" = 0 ] || return 1
	[ "$LAB_ID" = 0 ] && return 0
	lab_rping_pings "$2" <"$1"
}

# lab_pair_serves: this guest is the server of the lab_pair running
lab_pair_serves() { [ "$LAB_ID" = "${LAB_PAIR_SERVER:-0}" ]; }

# lab_pair NAME TIMEOUT CMD...: CMD runs on guest0 as the server with
# "-p PORT" appended and on guest1 as the client with "-p PORT ADDR" (ADDR
# is guest0's); with LAB_PAIR_SERVER=1, guest1 serves and guest0 is the
# client.  TIMEOUT is set as TMO for the scenario's own timeout
# wrapper (a shell function CMD calls; the server's is 30 s longer, so a
# stall is reported by the client, lab_timeout, while the server still
# holds its end), and both must succeed: checks
# "NAME server" and "NAME client".  Each call takes the next port after $port.  The client starts
# once the server listens (lab_listening, 30 s at most).
#
# LAB_PAIR_RACE, when set, is an extended regex for one known start-up race
# of the client program (see iwarp-data.sh): if the client fails and its
# output matches, the attempt is noted, the server is stopped and the pair
# runs again on a new port, LAB_PAIR_TRIES times in all at most.  So does
# a failed client whose server guest finds a known race of its stock
# driver (_lab_peer_race).  Any other failure, or a race on the last try,
# fails the checks.  Three tries: on a loaded host the race can strike
# several pairs of one run, and one pair twice.
LAB_PAIR_TRIES=3
lab_pair() {
	local name=$1 tmo=$2 try srv rc log verdict retry race
	local TMO=$tmo peer role=other
	shift 2
	CUR=$name
	peer=$(lab_peer_addr "${LAB_PAIR_SERVER:-0}")
	if lab_pair_serves; then
		role=server
	elif [ "$LAB_ID" = $((${LAB_PAIR_SERVER:-0} == 0 ? 1 : 0)) ]; then
		role=client
	fi
	mkdir -p /lab/pairs
	for ((try = 1; try <= LAB_PAIR_TRIES; try++)); do
		port=$((port + 1))
		verdict=/lab/pairs/$port
		retry=
		rc=0
		case $role in
		server)
			# the client's watchdog goes first: a stalled
			# pair's QPs are shown before the server's end
			# changes them
			TMO=$((tmo + 30)) "$@" -p "$port" >"/tmp/$name.srv" 2>&1 &
			srv=$!
			lab_wait_for 30 lab_listening "$port"
			lab_barrier "$name"
			verdict=$(_lab_pair_verdict "$verdict" "$tmo" "$srv")
			if [ "$verdict" = retry ]; then
				retry=1
				_lab_kill_tree "$srv"
				wait "$srv" 2>/dev/null
			else
				# a server still running when its client is
				# done is kept as it stands, to pair with the
				# client's report (not for a rerun: the state
				# takes seconds to gather on a loaded guest,
				# which the rerun would wait for)
				if kill -0 "$srv" 2>/dev/null; then
					{
						echo "the server's QPs after its client ended:"
						lab_rdma_state
					} >"$LAB_OUT/checks/$name.srv.state"
				fi
				lab_check "$name server" wait "$srv"
				rc=$?
				cp "/tmp/$name.srv" "$LAB_OUT/checks/$name.srv.out" 2>/dev/null
				# a failed server's sockets and TCP counters
				[ $rc = 0 ] || [ -e "$LAB_OUT/checks/$name.srv.state" ] ||
					lab_rdma_state >"$LAB_OUT/checks/$name.srv.state" 2>&1
			fi
			;;
		client)
			lab_barrier "$name"
			log=$(_lab_logname "$name client")
			LAB_PAIR_ASK=$verdict _lab_run_logged "$log" "" "$@" -p "$port" "$peer"
			rc=$?
			if [ $rc -ne 0 ] && [ $try -lt $LAB_PAIR_TRIES ] && [ -n "${LAB_PAIR_RACE:-}" ] &&
				grep -qE "$LAB_PAIR_RACE" "$log"; then
				retry=1
				mv "$log" "$log.race"
				lab_note "$name: the client connected before the server listened ($(grep -m1 -oE "$LAB_PAIR_RACE" "$log.race")); run again"
				echo retry >"$verdict"
			elif [ $rc -ne 0 ] && [ $try -lt $LAB_PAIR_TRIES ] &&
				race=$(_lab_ask_peer_race "$verdict"); then
				retry=1
				mv "$log" "$log.race"
				lab_note "$name: $race; run again"
				echo retry >"$verdict"
			else
				echo done >"$verdict"
				if [ $rc -eq 0 ]; then
					_lab_record ok "$name client" "$log"
				else
					_lab_record not-ok "$name client" "$log"
				fi
			fi
			;;
		*)
			lab_barrier "$name"
			[ "$(_lab_pair_verdict "$verdict" "$tmo")" = retry ] && retry=1
			;;
		esac
		lab_barrier "$name-done" $((tmo + 60))
		[ -n "$retry" ] || return $rc
	done
}

# lab_pair_bg NAME TIMEOUT CMD...: lab_pair in the background, for a pair
# that must run beside other traffic (dual.sh); LAB_PAIR_PID is its pid, to
# wait for.  Its checks are recorded as lab_pair's are.  It may take the
# LAB_PAIR_TRIES ports after $port, so the caller's next pair starts
# after them.
lab_pair_bg() {
	lab_pair "$@" &
	LAB_PAIR_PID=$!
	port=$((port + LAB_PAIR_TRIES))
}
