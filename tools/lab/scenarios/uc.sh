# SPDX-License-Identifier: GPL-2.0
#
# uc: Unreliable Connected QPs (IBA 9.8), data checked end to end.
#   lab run --stack sroce,sroce uc
#   lab run --stack sroce,rxe uc      (softrdma serves, rxe is client)
#   lab run --stack rxe,sroce uc      (rxe serves, softrdma is client)
# guest0 runs the servers, guest1 the clients:
#  - ibv_uc_pingpong -c (both sides check every byte) at a 1024-byte path
#    MTU: Only packets, and SENDs of 4 and 64 packets (First, Middles,
#    Last);
#  - perftest SEND and RDMA WRITE bandwidth over UC up to 1 MiB, 1024
#    packets a message (paced, see below);
#  - tools/lab/uc_verbs.c (built on the host by tools/lab/lab): RDMA
#    WRITE and SEND with immediate over several packets, their receive
#    completions and every byte; RTS with an RC-only attribute, RDMA READ
#    and atomics refused on UC.
# Nothing is lost on the segment, so on a softrdma end no UC packet may
# have been dropped (uc_dropped, out_of_sequence stay 0), and the QPs of
# each run end with it (the module unloads).
# Optional args: test names to run (default: all): pp, bw, verbs.

UC_BIN=${UC_VERBS_BIN:-/var/tmp/softrdma-lab/uc_verbs}
port=18515

gid=$(lab_gid_index "$LAB_ADDR") || gid=1
lab_note "stack $LAB_STACK dev $LAB_IBDEV gid index $gid"
want() { [ -z "$LAB_SCENARIO_ARGS" ] || [[ " $LAB_SCENARIO_ARGS " == *" $1 "* ]]; }

if want pp; then
	for size in 1 4096 65536; do
		iters=200
		[ "$size" -ge 65536 ] && iters=50
		lab_pair "uc-pingpong-$size" 120 lab_pingpong ibv_uc_pingpong \
			-d "$LAB_IBDEV" -g "$gid" -m 1024 -n "$iters" -s "$size" -c
	done
fi

# UC has no flow control: a packet a slow receiver (stock rxe under TCG)
# cannot take in time is lost on the emulated link, with its message, and
# an ib_send_bw server then waits for that message until it times out.
# So the 1 MiB messages are paced by perftest's software rate limiter.
if want bw; then
	for t in ib_send_bw ib_write_bw; do
		for size in 4096 1048576; do
			args=(-n 100)
			[ "$size" -ge 1048576 ] &&
				args=(-n 10 --rate_limit_type=SW --rate_limit=2
					--rate_units=M --burst_size=1)
			lab_pair "uc-$t-$size" 120 lab_run "$t" -c UC \
				-d "$LAB_IBDEV" -x "$gid" -m 1024 -s "$size" \
				"${args[@]}" -F
		done
	done
fi

if want verbs && lab_built uc_verbs "$UC_BIN"; then
	lab_pair uc_verbs 60 lab_run "$UC_BIN" -d "$LAB_IBDEV" -g "$gid"
fi

if [ "$LAB_STACK" = sroce ]; then
	rdma statistic show link "$LAB_IBDEV/1" >"$LAB_OUT/counters.txt" 2>&1
	lab_check "no UC packet dropped" lab_counter_zero uc_dropped
	lab_check "no PSN gap seen" lab_counter_zero out_of_sequence
	lab_barrier unload
	lab_check "rmmod softrdma with $LAB_IBDEV present" rmmod softrdma
else
	lab_barrier unload
fi
exit 0
