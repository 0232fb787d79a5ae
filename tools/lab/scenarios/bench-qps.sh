# SPDX-License-Identifier: GPL-2.0
#
# bench-qps: does a bandwidth test on several QPs spread its work over a
# guest's vCPUs?  Not a test: it asserts no figure, it only records them.
#   lab run --cpus 2 --stack sroce bench-qps [ROUNDS [ITERS [TEST [QPS]]]]
# In guests of two vCPUs (--cpus 2), round by round, the order rotating,
# perftest's ib_TEST (default write_bw, 64 KiB messages, -x GID index)
# under four conditions, each moving ITERS (default 400) messages in all:
#   1cpu-q1      one QP, the second vCPU offline in both guests
#   2cpu-q1      one QP, both vCPUs online
#   2cpu-qN      QPS QPs (default 4; perftest -q, ITERS/QPS messages each)
#   2cpu-qN-rps  the same with RPS spreading eth0's receive over both
#                vCPUs (rps_cpus 3): the lab's virtio-net has one queue,
#                so without RPS one vCPU takes every packet's softirq
# Around each run each guest reads /proc/stat, /proc/softirqs and
# /proc/interrupts; $LAB_OUT/cpu.tsv gets, per run and online vCPU, its
# busy and softirq ticks (USER_HZ) of the run's total, its NET_RX and
# NET_TX softirqs and its virtio-net interrupts.  The window holds
# perftest's set-up too (its connection exchange, a second or more under
# TCG): the busy shares are of the whole window, and a larger ITERS makes
# the transfer more of it.  guest1 writes the bandwidth
# of each run to $LAB_OUT/qps.tsv (round, condition, MB/s) and both
# tables, medians over the rounds, to $LAB_OUT/qps.md.

ROUNDS=${1:-3}
ITERS=${2:-400}
TEST=${3:-write_bw}
QPS=${4:-4}
CONDS=(1cpu-q1 2cpu-q1 "2cpu-q$QPS" "2cpu-q$QPS-rps")
export LAB_BARRIER_TIMEOUT=300

[ -e /sys/devices/system/cpu/cpu1/online ] ||
	lab_fail "bench-qps: needs a second vCPU that can go offline (lab run --cpus 2)"
snaps=$LAB_OUT/qps-snaps
mkdir -p "$snaps"

# cpus ONLINE: vCPU 1 online (1) or offline (0)
cpus() {
	[ "$(cat /sys/devices/system/cpu/cpu1/online)" = "$1" ] ||
		echo "$1" >/sys/devices/system/cpu/cpu1/online ||
		lab_fail "bench-qps: cpu1 online=$1 failed"
}

# rps MASK: eth0's receive packet steering over the vCPUs of MASK
rps() {
	echo "$1" >/sys/class/net/eth0/queues/rx-0/rps_cpus ||
		lab_fail "bench-qps: rps_cpus $1 failed"
}

# qps_mark begin|end: the counters of this guest's vCPUs
qps_mark() {
	{
		grep '^cpu[0-9]' /proc/stat
		grep -E '^ *(CPU|NET_RX|NET_TX):' /proc/softirqs
		# virtio-net's vectors (virtioN-input.0, virtioN-output.0)
		grep -E 'CPU|-(input|output)\.' /proc/interrupts
	} >"$snaps/$MARK.$1"
}

# cpu_delta NAME: cpu.tsv lines of the run NAME (ROUND COND): per vCPU
# online at the end, busy ticks, softirq ticks, all ticks, NET_RX,
# NET_TX, virtio interrupts
cpu_delta() {
	awk -v name="$1" '
	function take(f, s,   i, c) {
		if ($1 ~ /^cpu[0-9]/) {
			c = substr($1, 4)
			# user nice system idle iowait irq softirq steal
			busy[s, c] = $2 + $3 + $4 + $7 + $8 + $9
			soft[s, c] = $8
			all[s, c] = busy[s, c] + $5 + $6
			online[s, c] = 1
		} else if ($1 == "CPU0") {
			ncol = NF
		} else if ($1 == "NET_RX:" || $1 == "NET_TX:") {
			for (i = 2; i <= NF; i++) v[s, $1, i - 2] = $i
		} else if ($0 ~ /-(input|output)\./) {
			for (i = 2; i <= ncol + 1; i++) irq[s, i - 2] += $i
		}
	}
	FNR == 1 { s++ }
	{ take(FILENAME, s) }
	END {
		for (c = 0; c < 8; c++) {
			if (!online[2, c]) continue
			printf "%s\tcpu%d\t%d\t%d\t%d\t%d\t%d\t%d\n", name, c,
				busy[2, c] - busy[1, c], soft[2, c] - soft[1, c],
				all[2, c] - all[1, c],
				v[2, "NET_RX:", c] - v[1, "NET_RX:", c],
				v[2, "NET_TX:", c] - v[1, "NET_TX:", c],
				irq[2, c] - irq[1, c]
		}
	}' "$snaps/$MARK.begin" "$snaps/$MARK.end"
}

# table: medians over the rounds, markdown
table() {
	awk -F '\t' -v conds="${CONDS[*]}" '
	function median(s,   n, i, j, t, a) {
		n = split(s, a, " ")
		if (n == 0) return ""
		for (i = 1; i <= n; i++)
			for (j = i + 1; j <= n; j++)
				if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	FILENAME ~ /qps.tsv$/ { if ($3 != "fail") bw[$2] = bw[$2] " " $3; next }
	{
		g = FILENAME; sub(/.*guest/, "", g); sub(/\/.*/, "", g)
		k = $2 "." g "." $3
		busy[k] = busy[k] " " ($6 ? 100 * $4 / $6 : 0)
		soft[k] = soft[k] " " ($6 ? 100 * $5 / $6 : 0)
		rx[k] = rx[k] " " $7
		irq[k] = irq[k] " " $9
		seen[k] = 1
	}
	END {
		n = split(conds, c, " ")
		print "| condition | MB/s, median | vs 1cpu-q1 |"
		print "| --- | ---: | ---: |"
		base = median(bw["1cpu-q1"])
		for (i = 1; i <= n; i++) {
			m = median(bw[c[i]])
			printf "| %s | %s | %s |\n", c[i], m == "" ? "-" : sprintf("%.2f", m),
				(m == "" || base == "" || base == 0) ? "-" : sprintf("%.2f", m / base)
		}
		print ""
		print "| condition | guest | vCPU | busy % | softirq % | NET_RX | virtio-net IRQs |"
		print "| --- | ---: | --- | ---: | ---: | ---: | ---: |"
		for (i = 1; i <= n; i++)
			for (g = 0; g < 2; g++)
				for (p = 0; p < 8; p++) {
					k = c[i] "." g ".cpu" p
					if (!seen[k]) continue
					printf "| %s | %d | cpu%d | %.0f | %.0f | %.0f | %.0f |\n",
						c[i], g, p, median(busy[k]), median(soft[k]),
						median(rx[k]), median(irq[k])
				}
	}' "$LAB_OUT/qps.tsv" /lab/guest0/cpu.tsv /lab/guest1/cpu.tsv
}

lab_note "bench-qps: $ROUNDS rounds of ib_$TEST, $ITERS messages of 64 KiB per run, ${CONDS[*]}"
ulimit -l unlimited
export LAB_BENCH_MARK=qps_mark
n=${#CONDS[@]}
for r in $(seq "$ROUNDS"); do
	for ((i = 0; i < n; i++)); do
		cond=${CONDS[$(((i + r - 1) % n))]}
		MARK=$r.$cond
		case $cond in
		1cpu-q1) cpus 0; rps 0; q=1 ;;
		2cpu-q1) cpus 1; rps 0; q=1 ;;
		*-rps) cpus 1; rps 3; q=$QPS ;;
		*) cpus 1; rps 0; q=$QPS ;;
		esac
		touch "$LAB_OUT/progress"
		LAB_BENCH_QPS=$q lab_bench_run gid "$TEST" 65536 $((ITERS / q))
		rc=$?
		cpu_delta "$r	$cond" >>"$LAB_OUT/cpu.tsv"
		if [ "$LAB_ID" = 1 ]; then
			v=
			[ "$rc" != 0 ] || v=$(lab_bench_value "$TEST" "$LAB_OUT/perftest.out")
			cp "$LAB_OUT/perftest.out" "$snaps/$MARK.perftest"
			printf '%s\t%s\t%s\n' "$r" "$cond" "${v:-fail}" >>"$LAB_OUT/qps.tsv"
			lab_note "bench-qps: round $r $cond: ${v:-fail} MB/s"
		fi
	done
done
cpus 1
rps 0
lab_barrier qps-done
if [ "$LAB_ID" = 1 ]; then
	table >"$LAB_OUT/qps.md"
	cat "$LAB_OUT/qps.md"
fi
lab_check "bench-qps recorded its figures" test -s /lab/guest1/qps.tsv
