# SPDX-License-Identifier: GPL-2.0
#
# bench-stages: one perftest latency run with a few kernel tracepoints on
# in both guests, for tools/bench/stages, which splits each round trip
# into what each guest does between a packet in and the next packet out
# and what it waits for.  Not a test: it asserts nothing about the times.
#   lab run --stack siwarp bench-stages cm  read 3000
#   lab run --stack rxe    bench-stages gid send 3000
# gid: connect over perftest's TCP side channel (-x <IPv4-mapped GID
# index>); cm: with rdma_cm (-R), as iWARP needs.
# guest0 serves, guest1 is the client; each guest saves its trace.

CONNECT=${1:-cm}
TEST=${2:-write}
ITERS=${3:-3000}
export LAB_BARRIER_TIMEOUT=$((ITERS / 20 + 120))
EVENTS="net/net_dev_start_xmit net/netif_receive_skb irq/irq_handler_entry
irq/softirq_entry irq/softirq_exit sched/sched_switch sched/sched_wakeup
workqueue/workqueue_execute_start workqueue/workqueue_execute_end
raw_syscalls/sys_enter raw_syscalls/sys_exit"

case $TEST in
write | read | send) ;;
*) lab_fail "bench-stages: TEST is write, read or send, not $TEST" ;;
esac
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T ||
	lab_fail "bench-stages: no tracefs"
echo 0 >$T/tracing_on
echo 16384 >$T/buffer_size_kb
echo >$T/trace
for e in $EVENTS; do
	echo 1 >"$T/events/$e/enable" || lab_fail "bench-stages: no event $e"
done
tracing_start() { echo 1 >$T/tracing_on; }

ulimit -l unlimited
rc=0
lab_bench_run "$CONNECT" "${TEST}_lat" 2 "$ITERS" tracing_start || rc=$?
echo 0 >$T/tracing_on
cat $T/trace >"$LAB_OUT/trace.txt"
cat $T/per_cpu/cpu*/stats >"$LAB_OUT/trace-stats.txt"
lab_barrier end
lab_check "ib_${TEST}_lat -n $ITERS ran" test "$rc" -eq 0
lab_check "the trace lost no event" \
	bash -c "! grep -Eq '^(overrun|dropped events): [1-9]' $LAB_OUT/trace-stats.txt"
