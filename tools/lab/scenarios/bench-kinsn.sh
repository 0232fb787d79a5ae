# SPDX-License-Identifier: GPL-2.0
#
# bench-kinsn: one measured run for tools/bench/kinsn, which boots the
# guests with the kinsn QEMU plugin counting their kernel instructions.
# Not a test: it asserts nothing about the counts.
#   lab run --stack siwarp bench-kinsn cm  write 20000
#   lab run --stack rxe    bench-kinsn gid send  20000
#   lab run --stack sroce  bench-kinsn gid write_bw 500 65536
#   lab run --stack none   bench-kinsn tcp tcp 500 65536
#   lab run --stack sroce  bench-kinsn gid write_bw 500 65536 mtu=9000 qps=4
# write, read, send: a 2-byte perftest latency test of ITERS round trips.
# write_bw, read_bw, send_bw: a perftest bandwidth test of ITERS messages
# of SIZE bytes.  tcp: iperf3 -n ITERS * SIZE bytes, guest1 to guest0
# (the direction of ib_write_bw's and ib_send_bw's data).
# gid: connect over perftest's TCP side channel (-x <IPv4-mapped GID
# index>); cm: with rdma_cm (-R), as iWARP needs.
# guest0 serves, guest1 is the client; each guest saves its kallsyms
# (module symbols included) and its perftest or iperf3 output as
# perftest.out.
# ITERS may be a list, N1,N2,...: one run after the other in this boot,
# the output of run N as perftest-N.out, and around each run the kinsn
# plugin's snapshots N-begin and N-end of the guest's counts (the
# request file $LAB_OUT/kinsn-snap, see tools/bench/kinsn/kinsn.c).
# Options after SIZE: mtu=MTU sets eth0's MTU in both guests before the
# runs; qps=N runs the bandwidth tests on N QPs at once (perftest -q N,
# each QP moving ITERS messages), tcp on N iperf3 streams moving
# N * ITERS * SIZE bytes in all.

CONNECT=${1:-cm}
TEST=${2:-write}
ITERS_LIST=${3:-20000}
SIZE=${4:-65536}
MTU= QPS=1
for opt in "${@:5}"; do
	case $opt in
	mtu=*) MTU=${opt#mtu=} ;;
	qps=*) QPS=${opt#qps=} ;;
	*) lab_fail "bench-kinsn: unknown option $opt" ;;
	esac
done

# kinsn_mark begin|end: the plugin's snapshot ITERS-begin or ITERS-end of
# this guest's counts, taken while the guest sleeps (the plugin looks
# for the request every 10 ms)
kinsn_mark() {
	local snap=$LAB_OUT/kinsn-snap
	echo "$ITERS-$1" >"$snap.tmp"
	mv "$snap.tmp" "$snap"
	sleep 0.3
	[ ! -e "$snap" ] ||
		lab_fail "kinsn: the plugin did not take snapshot $ITERS-$1"
}

# bench_kinsn_tcp: ITERS * SIZE bytes over one TCP stream, guest1 to
# guest0
bench_kinsn_tcp() {
	local srv rc
	lab_barrier start
	if [ "$LAB_ID" = 0 ]; then
		_lab_bench_mark begin
		iperf3 -s -1 -p 5201 >"$LAB_OUT/perftest.out" 2>&1 &
		srv=$!
		lab_wait_listen 5201 30 || lab_fail "no iperf3 server"
		lab_barrier listen
		wait "$srv"
		rc=$?
	else
		lab_barrier listen
		_lab_bench_mark begin
		iperf3 -c "$(lab_peer_addr 0)" -p 5201 -l "$SIZE" -P "$QPS" \
			-n $((ITERS * SIZE * QPS)) >"$LAB_OUT/perftest.out" 2>&1
		rc=$?
	fi
	_lab_bench_mark end
	return "$rc"
}

# bench_kinsn_port_active: port 1 of the RDMA device is ACTIVE again
bench_kinsn_port_active() {
	ibv_devinfo -d "$LAB_IBDEV" 2>/dev/null | grep -q 'state:[[:space:]]*PORT_ACTIVE'
}

ulimit -l unlimited
if [ -n "$MTU" ]; then
	ip link set eth0 mtu "$MTU" || lab_fail "bench-kinsn: eth0 mtu $MTU"
	# the RDMA device follows the link's MTU before either guest starts
	[ -z "${LAB_IBDEV:-}" ] || lab_wait_for 30 bench_kinsn_port_active ||
		lab_fail "bench-kinsn: $LAB_IBDEV not active at MTU $MTU"
	lab_barrier mtu
fi
[ "$QPS" -eq 1 ] || export LAB_BENCH_QPS=$QPS
case $ITERS_LIST in
*,*) export LAB_BENCH_MARK=kinsn_mark ;;
esac
for ITERS in ${ITERS_LIST//,/ }; do
	# at least 1 MiB/s for the bandwidth tests, 50 round trips a second
	# for the latency tests
	case $TEST in
	*_bw | tcp) export LAB_BARRIER_TIMEOUT=$((ITERS * SIZE / 1048576 + 120)) ;;
	*) export LAB_BARRIER_TIMEOUT=$((ITERS / 50 + 120)) ;;
	esac
	rc=0
	case $TEST in
	write | read | send) lab_bench_run "$CONNECT" "${TEST}_lat" 2 "$ITERS" || rc=$? ;;
	write_bw | read_bw | send_bw)
		lab_bench_run "$CONNECT" "$TEST" "$SIZE" "$ITERS" || rc=$?
		;;
	tcp) bench_kinsn_tcp || rc=$? ;;
	*) lab_fail "bench-kinsn: TEST is write, read, send, write_bw, read_bw, send_bw or tcp, not $TEST" ;;
	esac
	[ "$ITERS_LIST" = "$ITERS" ] ||
		cp "$LAB_OUT/perftest.out" "$LAB_OUT/perftest-$ITERS.out"
	lab_barrier "done-$ITERS"
	lab_check "$TEST -n $ITERS ran" test "$rc" -eq 0
done
cat /proc/kallsyms >"$LAB_OUT/kallsyms"
lab_barrier end
