# SPDX-License-Identifier: GPL-2.0
#
# bench-iperf: the TCP reference of tools/bench/bench.  Not a test: it
# asserts no figure, it only records them.
#   lab run --stack none bench-iperf [SECONDS [TMO]]
# guest0 runs an iperf3 server, guest1 the client, once in each direction
# (tcp_fwd: guest1 -> guest0, the direction of ib_write_bw/ib_send_bw
# data; tcp_rev: guest0 -> guest1, iperf3 -R, the direction of ib_read_bw
# data).  guest1 appends "figure<TAB>MB/s or fail<TAB>reason<TAB>log" lines
# to $LAB_OUT/bench.tsv; MB/s are MiB/s (2^20 bytes), like perftest's.

SECS=${1:-5}
TMO=${2:-60}
PORT=5201
export LAB_BARRIER_TIMEOUT=$((2 * TMO + 60))

raw=$LAB_OUT/raw
mkdir -p "$raw"
touch "$LAB_OUT/progress"

# iperf_mbs JSON: receiver's throughput in MiB/s.
iperf_mbs() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
if "error" in d:
    sys.exit(1)
print("%.2f" % (d["end"]["sum_received"]["bits_per_second"] / 8 / 1048576))
' "$1"
}

case $LAB_ID in
0)
	timeout $((2 * TMO + 30)) iperf3 -s -p "$PORT" >"$raw/iperf3.server.log" 2>&1 &
	srv=$!
	lab_wait_listen "$PORT" 30
	lab_barrier listening || exit 1
	lab_barrier "done"
	kill "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null || true
	;;
1)
	lab_barrier listening || exit 1
	for fig in tcp_fwd tcp_rev; do
		touch "$LAB_OUT/progress"
		args=(-c "$(lab_peer_addr 0)" -p "$PORT" -t "$SECS" -J)
		[ "$fig" = tcp_rev ] && args+=(-R)
		log=$raw/$fig.client.log
		iperf_once() { rm -f "$log.json"; timeout "$TMO" iperf3 "${args[@]}" --logfile "$log.json"; }
		lab_retry 3 2 iperf_once 2>"$log"
		rc=$?
		if [ $rc -eq 0 ] && v=$(iperf_mbs "$log.json") && [ -n "$v" ]; then
			printf '%s\t%s\t\t%s\n' "$fig" "$v" "$fig.client.log.json"
		else
			printf '%s\tfail\tiperf3 exit status %s\t%s\n' "$fig" "$rc" "$fig.client.log.json"
		fi >>"$LAB_OUT/bench.tsv"
		tail -n 1 "$LAB_OUT/bench.tsv"
	done
	echo finished >>"$LAB_OUT/bench.done"
	lab_barrier "done"
	;;
*)
	lab_barrier listening || exit 1
	lab_barrier "done"
	;;
esac
