# SPDX-License-Identifier: GPL-2.0
#
# roce-rc: RC traffic through the RC engines, checked end to end.
#   lab run --stack sroce,sroce roce-rc
#   lab run --stack sroce,rxe roce-rc      (softrdma serves, rxe is client)
#   lab run --stack rxe,sroce roce-rc      (rxe serves, softrdma is client)
# guest0 runs the servers, guest1 the clients:
#  - ibv_rc_pingpong -c (both sides check the data) at several sizes, and
#    on softrdma the softrdma_qp_state tracepoint sees its QPs' states;
#  - perftest write/read/send bandwidth and latency, atomics;
#  - ACKs: ping-pong WRITEs answered with no deferred work (no TASKLET
#    softirq on a softrdma end), a burst of WRITEs coalesced;
#  - loss: netem loss both ways, and deterministic READ response loss at
#    the client (read-gaps) recovered from response gaps, no ACK timeout;
#  - an RDMA WRITE into a read-only MR fails with a remote access error
#    and leaves the target unchanged (tools/lab/rc_access.c, built on the
#    host by tools/lab/lab into /var/tmp/softrdma-lab/rc_access).
# Optional args: test names to run (default: all), e.g. "pp bw".

ACCESS_BIN=${RC_ACCESS_BIN:-/var/tmp/softrdma-lab/rc_access}
PP_ITERS=200
PERF_ITERS=200
port=18515

gid=$(lab_gid_index "$LAB_ADDR") || gid=1
lab_note "stack $LAB_STACK dev $LAB_IBDEV gid index $gid"
want() { [ -z "$LAB_SCENARIO_ARGS" ] || [[ " $LAB_SCENARIO_ARGS " == *" $1 "* ]]; }



# perftest, and its result line as a note
perf() {
	local out rc
	out=$(lab_run "$@" 2>&1)
	rc=$?
	echo "$out"
	[ $rc -eq 0 ] || return $rc
	local res
	local hdr
	hdr=$(grep -m1 '^ *#bytes' <<<"$out")
	res=$(awk '/^ *#bytes/ { getline; print; exit }' <<<"$out" | tr -s ' ')
	# servers of the latency tests print no result: the client checks
	[ -n "$res" ] || [ "$LAB_ID" != 1 ] || { echo "FAIL: no result line"; return 1; }
	[ -n "$res" ] || return 0
	[ "$LAB_ID" = 1 ] && lab_note "$CUR: $(head -1 <<<"$hdr" | tr -s ' ')| $res"
	return 0
}

TRACE=/sys/kernel/tracing
qp_trace_on() {
	[ -d $TRACE/events ] || mount -t tracefs tracefs $TRACE || return 1
	echo >$TRACE/trace &&
		echo 1 >$TRACE/events/softrdma/softrdma_qp_state/enable &&
		echo 1 >$TRACE/tracing_on
}
qp_trace_has() {
	grep -E "softrdma_qp_state: $LAB_IBDEV qpn=0x[0-9a-f]+ $1\$" \
		$TRACE/trace | tail -n 1 | grep .
}

if want pp; then
	[ "$LAB_STACK" = sroce ] &&
		lab_check "trace: enable softrdma_qp_state" qp_trace_on
	for size in 1 4095 4096 65537 1048576; do
		iters=$PP_ITERS
		[ "$size" -ge 65536 ] && iters=50
		[ "$size" -ge 1048576 ] && iters=10
		lab_pair "pingpong-$size" 120 lab_pingpong ibv_rc_pingpong -d "$LAB_IBDEV" \
			-g "$gid" -n "$iters" -s "$size" -c
	done
	if [ "$LAB_STACK" = sroce ]; then
		for t in "RESET -> INIT" "INIT -> RTR" "RTR -> RTS" "RTS -> ERR"; do
			lab_check "trace: softrdma_qp_state saw $t" qp_trace_has "$t"
		done
		echo 0 >$TRACE/events/softrdma/softrdma_qp_state/enable
	fi
fi

if want bw; then
	for t in ib_write_bw ib_read_bw ib_send_bw; do
		for size in 2 65536; do
			lab_pair "$t-$size" 180 perf "$t" -d "$LAB_IBDEV" -x "$gid" \
				-s "$size" -n "$PERF_ITERS" -F
		done
	done
fi

if want lat; then
	for t in ib_write_lat ib_read_lat ib_send_lat; do
		lab_pair "$t-2" 180 perf "$t" -d "$LAB_IBDEV" -x "$gid" -s 2 \
			-n "$PERF_ITERS" -F
	done
fi

if want atomic; then
	for a in FETCH_AND_ADD CMP_AND_SWAP; do
		lab_pair "ib_atomic_bw-$a" 180 perf ib_atomic_bw -d "$LAB_IBDEV" \
			-x "$gid" -A "$a" -n "$PERF_ITERS" -F
	done
fi

if want access && lab_built rc_access "$ACCESS_BIN"; then
	lab_pair rc_access 60 lab_run "$ACCESS_BIN" -d "$LAB_IBDEV" -g "$gid"
fi

# Retransmission: 2 % of the frames each guest sends are lost (netem);
# go-back-N, duplicate handling and read re-execution must still deliver
# every byte correctly.  ibv_rc_pingpong destroys its QP the moment its
# own part is done, so a lost *final* ACK leaves the peer retransmitting
# to a QP that is gone (the program's race, whatever the transport: stock
# rxe then retransmits until killed; softrdma's client ends with "retry
# counter exceeded" after the server left).  So
# for the pingpong only the server's frames are lost, and not its ACKs
# (opcode 0x11, classified past netem): its data is lost and resent, the
# client's ACKs and NAKs drive that.  The bandwidth runs, whose servers
# outlive the last ACK, lose 2 % of every frame both ways, ACKs included.
# netem sees an sroce transmit burst as one skb (the device segments it
# later) and loses it whole: the pingpong's 50 messages of 65 packets
# leave as only about 150 skbs, so the server's netem loses 10 % of them,
# for losses every run.
loss_no_acks() {
	tc qdisc add dev eth0 root handle 1: prio bands 2 \
		priomap 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 &&
		tc qdisc add dev eth0 parent 1:2 handle 20: netem loss 10% &&
		tc filter add dev eth0 parent 1: protocol ip prio 1 u32 \
			match ip protocol 17 0xff match ip dport 4791 0xffff \
			match u8 0x11 0xff at 28 flowid 1:1
}
# tc on eth0 (ingress or egress) drops every other READ response Middle
# whose PSN ends in 0x05, the same for 0x15 and for 0x25.  With 64-packet
# reads each of these sits at one place in every read it falls in; at
# least two of the three are Middles, so most windows lose two.
read_gap_filter() {
	local dir=$1 b
	tc qdisc add dev eth0 clsact || return 1
	for b in 0x05 0x15 0x25; do
		tc filter add dev eth0 "$dir" protocol ip prio 1 u32 \
			match ip protocol 17 0xff match ip dport 4791 0xffff \
			match u8 0x0e 0xff at 28 match u8 "$b" 0xff at 39 \
			action pass random determ drop 2 || return 1
	done
}
# tc on eth0's egress drops every other RoCE packet of opcode $1 (on an
# sroce sender: every other skb whose first packet it is, with the rest
# of its burst)
op_drop_filter() {
	tc qdisc add dev eth0 clsact &&
		tc filter add dev eth0 egress protocol ip prio 1 u32 \
			match ip protocol 17 0xff match ip dport 4791 0xffff \
			match u8 "$1" 0xff at 28 \
			action pass random determ drop 2
}
# a softrdma port counter (rdma statistic)
rc_counter() {
	rdma statistic show link "$LAB_IBDEV/1" |
		awk -v n="$1" '{ for (i = 1; i < NF; i++) if ($i == n) print $(i + 1) }'
}
if want loss; then
	modprobe sch_netem 2>/dev/null
	if [ "$LAB_ID" = 0 ]; then
		lab_check "netem loss 10%, RoCE ACKs exempt" loss_no_acks
	fi
	lab_pair loss-pingpong-65537 240 lab_pingpong ibv_rc_pingpong -d "$LAB_IBDEV" \
		-g "$gid" -n 50 -s 65537 -c
	if [ "$LAB_ID" = 0 ]; then
		tc -s class show dev eth0 >"$LAB_OUT/loss-classes.txt"
		tc -s qdisc show dev eth0 >>"$LAB_OUT/loss-classes.txt"
		lab_check "the server's ACKs went past netem" \
			awk '/^class prio 1:1 / { c = 1; next }
			     c && /Sent/ { exit !($4 > 0) }' \
			"$LAB_OUT/loss-classes.txt"
		lab_check "netem dropped some of the rest" \
			awk '/^qdisc netem 20:/ { c = 1; next }
			     c && /Sent/ { sub(/,/, "", $7); exit !($7 > 0) }' \
			"$LAB_OUT/loss-classes.txt"
		tc qdisc del dev eth0 root
	fi
	lab_check "netem loss 2%" tc qdisc add dev eth0 root netem loss 2%
	for t in ib_write_bw ib_read_bw ib_send_bw; do
		lab_pair "loss-$t-65536" 240 perf "$t" -d "$LAB_IBDEV" -x "$gid" \
			-s 65536 -n 100 -F
	done
	tc qdisc del dev eth0 root 2>/dev/null

	# Two losses in one window, again and again: the client's ingress
	# loses READ responses (read_gap_filter; a resent response is a
	# Middle again and gets through every other time).  The requester
	# must find every loss from the response gap alone, also the second
	# one while the first one's go-back-N is under way: no ACK timeout
	# (2 s here, -u 19, so a slow guest cannot fake one).  tc's ingress
	# sees what GRO hands up: on an sroce client a burst of responses
	# (roce_gro_burst) with its first packet's headers in front, so the
	# client takes its responses one by one here, as they left the link.
	gro_param=/sys/module/softrdma/parameters/roce_gro_burst
	if [ "$LAB_ID" = 1 ]; then
		if [ -w "$gro_param" ]; then
			gro_burst=$(cat "$gro_param")
			echo 0 >"$gro_param"
		fi
		lab_check "tc: lose READ response Middles at PSN *05, *15, *25" \
			read_gap_filter ingress
		if [ "$LAB_STACK" = sroce ]; then
			timeouts0=$(rc_counter ack_timeouts)
			retrans0=$(rc_counter retransmits)
		fi
	fi
	lab_pair read-gaps-65536 240 perf ib_read_bw -d "$LAB_IBDEV" \
		-x "$gid" -s 65536 -n 50 -u 19 -F
	if [ "$LAB_ID" = 1 ]; then
		tc -s filter show dev eth0 ingress >"$LAB_OUT/read-gaps-filter.txt"
		tc qdisc del dev eth0 clsact
		if [ -n "${gro_burst:-}" ]; then
			echo "$gro_burst" >"$gro_param"
		fi
		lab_check "tc lost READ responses" \
			grep -q 'dropped [1-9]' "$LAB_OUT/read-gaps-filter.txt"
	fi
	if [ "$LAB_ID" = 1 ] && [ "$LAB_STACK" = sroce ]; then
		lab_note "read-gaps: ack_timeouts $timeouts0 -> $(rc_counter ack_timeouts), retransmits $retrans0 -> $(rc_counter retransmits)"
		lab_check "read-gaps: went back at the gaps (retransmits grew)" \
			test "$(rc_counter retransmits)" -ge $((retrans0 + 2))
		lab_check "read-gaps: no ACK timeout" \
			test "$(rc_counter ack_timeouts)" -eq "$timeouts0"
	fi

	# Drops on an sroce server's own egress are host drops
	# (NET_XMIT_DROP): its responder must send each dropped response
	# again, in order, so that the requester never sees a gap.  tc's
	# egress sees a burst of responses (roce_xmit_burst) as one skb with
	# its first packet's headers in front, so the filter drops every
	# other READ response First, and with it the burst it leads.
	if [ "${LAB_STACKS[0]}" = sroce ]; then
		if [ "$LAB_ID" = 0 ]; then
			lab_check "tc: drop every other own READ response First and its burst" \
				op_drop_filter 0x0d
			drops0=$(rc_counter xmit_drop)
		elif [ "$LAB_STACK" = sroce ]; then
			timeouts0=$(rc_counter ack_timeouts)
			retrans0=$(rc_counter retransmits)
		fi
		lab_pair read-host-drops-65536 240 perf ib_read_bw \
			-d "$LAB_IBDEV" -x "$gid" -s 65536 -n 50 -u 19 -F
		if [ "$LAB_ID" = 0 ]; then
			tc qdisc del dev eth0 clsact
			lab_note "read-host-drops: xmit_drop $drops0 -> $(rc_counter xmit_drop)"
			lab_check "read-host-drops: the host dropped responses" \
				test "$(rc_counter xmit_drop)" -gt "$drops0"
		elif [ "$LAB_STACK" = sroce ]; then
			lab_note "read-host-drops: ack_timeouts $timeouts0 -> $(rc_counter ack_timeouts), retransmits $retrans0 -> $(rc_counter retransmits)"
			lab_check "read-host-drops: no gap seen (no retransmit)" \
				test "$(rc_counter retransmits)" -eq "$retrans0"
			lab_check "read-host-drops: no ACK timeout" \
				test "$(rc_counter ack_timeouts)" -eq "$timeouts0"
		fi

		# and every other ACK (0x11) or atomic ACK (0x12) it sends
		for t in "0x11 ib_write_bw -s 65536" \
			"0x12 ib_atomic_bw -A FETCH_AND_ADD" \
			"0x12 ib_atomic_bw -A CMP_AND_SWAP"; do
			read -r op prog args <<<"$t"
			name="host-drops-$op-$prog${args:+-${args##* }}"
			if [ "$LAB_ID" = 0 ]; then
				lab_check "tc: drop every other own $op" \
					op_drop_filter "$op"
				drops0=$(rc_counter xmit_drop)
			elif [ "$LAB_STACK" = sroce ]; then
				timeouts0=$(rc_counter ack_timeouts)
			fi
			# shellcheck disable=SC2086 # $args: options
			lab_pair "$name" 240 perf "$prog" $args -d "$LAB_IBDEV" \
				-x "$gid" -n 100 -u 19 -F
			if [ "$LAB_ID" = 0 ]; then
				tc qdisc del dev eth0 clsact
				lab_check "$name: the host dropped some" \
					test "$(rc_counter xmit_drop)" -gt "$drops0"
			elif [ "$LAB_STACK" = sroce ]; then
				lab_check "$name: no ACK timeout" \
					test "$(rc_counter ack_timeouts)" -eq "$timeouts0"
			fi
		done
	fi
fi

# Ping-pong WRITEs: each is alone in its receive batch, and softrdma
# answers a lone request's AckReq from the receive path itself, with no
# tasklet behind it (TASKLET softirqs are counted on both guests; the
# check is the sroce ends')
if want pp || want loss; then
	tasklets() { awk '$1 == "TASKLET:" { for (i = 2; i <= NF; i++) n += $i } END { print n + 0 }' /proc/softirqs; }
	t0=$(tasklets)
	lab_pair lone-writes 120 perf ib_write_lat -d "$LAB_IBDEV" -x "$gid" \
		-s 2 -n 500 -F
	t1=$(tasklets)
	if [ "$LAB_STACK" = sroce ]; then
		lab_check "500 ping-pong WRITEs: no deferred ACK (TASKLET softirqs +$((t1 - t0)))" \
			test $((t1 - t0)) -lt 50
	fi
fi

# A burst of 2-byte WRITEs, each asking for an ACK (every requester sets
# AckReq on a message's last packet), for the coalescing check below
if want pp || want loss; then
	lab_pair coalesce-burst 120 perf ib_write_bw -d "$LAB_IBDEV" -x "$gid" \
		-s 2 -n 2000 -F
fi

if [ "$LAB_STACK" = sroce ]; then
	rdma statistic show link "$LAB_IBDEV/1" >"$LAB_OUT/counters.txt" 2>&1
	lab_note "counters: $(tr -s ' \n' ' ' <"$LAB_OUT/counters.txt" |
		grep -o 'retransmits [0-9]*\|ack_timeouts [0-9]*\|seq_naks_[a-z]* [0-9]*\|rnr_naks_[a-z]* [0-9]*\|duplicate_requests [0-9]*\|acks_coalesced [0-9]*\|xmit_drop [0-9]*\|rcv_[a-z_]* [1-9][0-9]*' | tr '\n' ' ')"
	# The burst above: the first AckReq of a receive batch is answered
	# at once, the ones after it share one ACK at the batch's end.
	if [ "$LAB_ID" = 0 ] && { want pp || want loss; }; then
		lab_check "the responder coalesced ACKs (acks_coalesced > 0)" \
			awk '{ for (i = 1; i < NF; i++)
				if ($i == "acks_coalesced") { seen = 1; v = $(i + 1) } }
			     END { exit !(seen && v > 0) }' "$LAB_OUT/counters.txt"
	fi
	# every QP is gone with its process: nothing pins the module
	lab_barrier unload
	lab_check "rmmod softrdma with $LAB_IBDEV present" rmmod softrdma
	lab_check "$LAB_IBDEV gone" test ! -e "/sys/class/infiniband/$LAB_IBDEV"
else
	lab_barrier unload
fi
exit 0
