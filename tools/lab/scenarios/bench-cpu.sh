# SPDX-License-Identifier: GPL-2.0
#
# bench-cpu: where each guest's CPU time goes in the steady state of a
# 64 KiB bandwidth run.  Not a test: it asserts no figure, it only
# records them.
#   lab run --stack sroce bench-cpu [ROUNDS [SECS]]     (-x GID index)
#   lab run --stack siwarp bench-cpu [ROUNDS [SECS]]    (rdma_cm, -R)
# Round by round, the order rotating, five conditions, each a run of SECS
# seconds (default 20: perftest -D, iperf3 -t), guest0 serving:
#   write        ib_write_bw as perftest runs it: its client polls its CQ
#                without sleeping
#   write-nice   the same with both perftests at nice 19, so that the
#                scheduler gives a runnable kernel thread (ksoftirqd) the
#                vCPU before the polling loop
#   send         ib_send_bw (the server polls too)
#   send-nice    ib_send_bw at nice 19
#   tcp          iperf3, one stream, -l 64K, guest1 sending
# From SECS/5 after the start for SECS/5 seconds each guest reads
# /proc/stat and its ksoftirqd's run time; a window that the run did not
# outlast is left out.  $LAB_OUT/cpu.tsv gets one line per run: round,
# condition, the shares of the window spent in user space (nice
# included), in the kernel for a process (system), in interrupts and
# softirqs (irq + softirq) and idle (iowait included), ksoftirqd's share,
# and (guest1) the run's MB/s: perftest's BW average, iperf3's receiver
# MiB/s.  guest1 prints the medians over the rounds as $LAB_OUT/cpu.md.

ROUNDS=${1:-2}
SECS=${2:-20}
CONDS=(write write-nice send send-nice tcp)
export LAB_BARRIER_TIMEOUT=$((SECS * 3 + 120))
PORT=19990

case $LAB_STACK in
siwarp) CONN=(-R) ;;
*)
	gid=$(lab_gid_index "$LAB_ADDR") ||
		lab_fail "bench-cpu: no IPv4-mapped GID for $LAB_ADDR on $LAB_IBDEV"
	CONN=(-x "$gid")
	;;
esac

# cpu_snap FILE: the whole machine's /proc/stat line and ksoftirqd/0's
# utime + stime (USER_HZ)
cpu_snap() {
	{
		grep '^cpu ' /proc/stat
		awk '{ print "ksoftirqd", $14 + $15 }' "/proc/$(pgrep -x ksoftirqd/0)/stat"
	} >"$1"
}

# cpu_shares ROUND COND MBS: one cpu.tsv line from /tmp/cpu.1 and /tmp/cpu.2
cpu_shares() {
	paste /tmp/cpu.1 /tmp/cpu.2 | awk -v r="$1" -v c="$2" -v bw="$3" '
	$1 == "cpu" {
		# user nice system idle iowait irq softirq steal
		for (i = 2; i <= 9; i++) d[i] = $(i + 11) - $i
		t = 0
		for (i = 2; i <= 9; i++) t += d[i]
	}
	$1 == "ksoftirqd" { k = $4 - $2 }
	END {
		if (!t) exit 1
		printf "%s\t%s\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%s\n", r, c,
			100 * (d[2] + d[3]) / t, 100 * d[4] / t,
			100 * (d[7] + d[8]) / t, 100 * (d[5] + d[6]) / t,
			100 * k / t, bw
	}'
}

# window PID: the two snapshots, /tmp/cpu.1 and /tmp/cpu.2, while PID
# runs; fails if PID ended before the second
window() {
	local w=$((SECS / 5))
	sleep "$w"
	cpu_snap /tmp/cpu.1
	sleep "$w"
	cpu_snap /tmp/cpu.2
	kill -0 "$1" 2>/dev/null
}

# mbs COND LOG: the run's MB/s from the client's output
mbs() {
	if [ "$1" = tcp ]; then
		lab_iperf3_value "$2"
	else
		lab_bench_value write_bw "$2"
	fi
}

# one ROUND COND
one() {
	local r=$1 c=$2 pid ok bw='' cmd
	case $c in
	write*) cmd=(ib_write_bw -d "$LAB_IBDEV" -F -s 65536 -D "$SECS" "${CONN[@]}") ;;
	send*) cmd=(ib_send_bw -d "$LAB_IBDEV" -F -s 65536 -D "$SECS" "${CONN[@]}") ;;
	tcp) cmd=(iperf3 -J) ;;
	esac
	[[ $c == *-nice ]] && cmd=(nice -n 19 "${cmd[@]}")
	PORT=$((PORT + 1))
	lab_barrier "go-$r-$c"
	if [ "$LAB_ID" = 0 ]; then
		if [ "$c" = tcp ]; then
			iperf3 -s -1 -p "$PORT" >/tmp/run.out 2>&1 &
		else
			"${cmd[@]}" -p "$PORT" >/tmp/run.out 2>&1 &
		fi
		pid=$!
		lab_wait_for 30 lab_listening "$PORT"
		lab_barrier "listen-$r-$c"
	else
		lab_barrier "listen-$r-$c"
		if [ "$c" = tcp ]; then
			iperf3 -c "$(lab_peer_addr 0)" -p "$PORT" -t "$SECS" -l 65536 -J >/tmp/run.out 2>&1 &
		else
			"${cmd[@]}" -p "$PORT" "$(lab_peer_addr 0)" >/tmp/run.out 2>&1 &
		fi
		pid=$!
	fi
	window "$pid"
	ok=$?
	timeout $((SECS * 2 + 30)) tail --pid="$pid" -f /dev/null
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	cp /tmp/run.out "$LAB_OUT/runs/$r.$c.out"
	[ "$LAB_ID" = 1 ] && bw=$(mbs "$c" /tmp/run.out)
	if [ "$ok" = 0 ]; then
		cpu_shares "$r" "$c" "${bw:--}" >>"$LAB_OUT/cpu.tsv"
	else
		lab_note "bench-cpu: round $r $c: the run ended inside the window, left out"
	fi
	lab_barrier "done-$r-$c"
}

table() {
	awk -F '\t' -v conds="${CONDS[*]}" '
	function median(s,   n, i, j, t, a) {
		n = split(s, a, " ")
		if (n == 0) return "-"
		for (i = 1; i <= n; i++)
			for (j = i + 1; j <= n; j++)
				if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	function fmt(m, f) { return m == "-" ? m : sprintf(f, m) }
	{
		g = FILENAME; sub(/.*guest/, "", g); sub(/\/.*/, "", g)
		k = $2 "." g
		for (i = 3; i <= 7; i++) v[k, i] = v[k, i] " " $i
		if ($8 != "-" && $8 != "") bw[$2] = bw[$2] " " $8
	}
	END {
		n = split(conds, c, " ")
		print "| condition | MB/s | guest | user % | system % | irq+softirq % | idle % | ksoftirqd % |"
		print "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
		for (i = 1; i <= n; i++)
			for (g = 0; g < 2; g++) {
				k = c[i] "." g
				printf "| %s | %s | %d (%s) |", c[i],
					fmt(median(bw[c[i]]), "%.1f"), g,
					g ? "client" : "server"
				for (f = 3; f <= 7; f++)
					printf " %s |", fmt(median(v[k, f]), "%.0f")
				printf "\n"
			}
	}' /lab/guest0/cpu.tsv /lab/guest1/cpu.tsv
}

lab_note "bench-cpu: $ROUNDS rounds of ${CONDS[*]}, $SECS s each on $LAB_STACK"
ulimit -l unlimited
mkdir -p "$LAB_OUT/runs"
: >"$LAB_OUT/cpu.tsv"
n=${#CONDS[@]}
for r in $(seq "$ROUNDS"); do
	for ((i = 0; i < n; i++)); do
		one "$r" "${CONDS[$(((i + r - 1) % n))]}"
	done
done
lab_barrier cpu-done
if [ "$LAB_ID" = 1 ]; then
	table >"$LAB_OUT/cpu.md"
	cat "$LAB_OUT/cpu.md"
fi
lab_check "bench-cpu recorded its figures" test -s "$LAB_OUT/cpu.tsv"
