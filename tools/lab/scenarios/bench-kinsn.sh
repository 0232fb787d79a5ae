# SPDX-License-Identifier: GPL-2.0
#
# bench-kinsn: one perftest latency run for tools/bench/kinsn, which
# boots the guests with the kinsn QEMU plugin counting their kernel
# instructions.  Not a test: it asserts nothing about the counts.
#   lab run --stack siwarp bench-kinsn cm  write 20000
#   lab run --stack rxe    bench-kinsn gid send  20000
# gid: connect over perftest's TCP side channel (-x <IPv4-mapped GID
# index>); cm: with rdma_cm (-R), as iWARP needs.
# guest0 serves, guest1 is the client; each guest saves its kallsyms
# (module symbols included) and the client's perftest output.

CONNECT=${1:-cm}
TEST=${2:-write}
ITERS=${3:-20000}
export LAB_BARRIER_TIMEOUT=$((ITERS / 50 + 120))

case $TEST in
write | read | send) ;;
*) lab_fail "bench-kinsn: TEST is write, read or send, not $TEST" ;;
esac
ulimit -l unlimited
rc=0
lab_bench_lat "$CONNECT" "$TEST" "$ITERS" || rc=$?
cat /proc/kallsyms >"$LAB_OUT/kallsyms"
lab_barrier end
lab_check "ib_${TEST}_lat -n $ITERS ran" test "$rc" -eq 0
