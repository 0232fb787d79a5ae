# SPDX-License-Identifier: GPL-2.0
#
# roce-perftest: the perftest matrix of RoCEv2 RC, every operation against
# every peer pairing.
#   lab run --stack sroce,sroce roce-perftest quick|full [TESTS...]
#   lab run --stack sroce,rxe roce-perftest ...   (softrdma serves, rxe is client)
#   lab run --stack rxe,sroce roce-perftest ...   (rxe serves, softrdma is client)
# guest0 runs the perftest servers, guest1 the clients.
#
# quick: ib_{write,read,send}_{bw,lat} at 1 and 1048576 B over the IPv4
#        GID and at 65537 B over the IPv6 GID (2001:db8::/64), so every
#        operation sees a one-packet, a multi-packet odd and a 1 MiB size
#        and both GID types;
#        ib_write_bw -b (bidirectional); ib_write_bw -q 8; inline SENDs
#        and RDMA WRITEs of 1, 64 and 256 B (softrdma's maximum inline
#        size), data checked, and one byte more refused on an sroce device
#        (tools/lab/rc_inline.c, built on the host by tools/lab/lab into
#        /var/tmp/softrdma-lab/rc_inline).
# full:  the six tests with -a (every power of two from 2 B to 8 MiB) and
#        ib_write_bw -a -b; ib_write_bw -a -q 8 only when named (all-multi).
# The quick and full cuts do not overlap: make test-full runs both.
# TESTS (optional) selects groups: ops bidir multi inline ipv6 (quick),
# all all-bidir all-multi (full); or single tests: ib_read_bw (quick),
# ib_read_bw-a (full), ...
#
# perftest checks no data; this scenario checks what perftest prints, on
# both sides (lab_perftest in lib.sh): exit status 0, the result table has
# exactly one row per expected size, every row has the requested iteration
# count (a zero rate is perftest's clock in TCG: a note).  No figure is
# compared against a threshold.  The passive servers of ib_write_bw and
# ib_read_bw print one row, the client's last size; the ib_read_lat
# server prints no table: there the client's table is the check.
# Iteration counts are small (and shrink with the size in the quick cut)
# so that a pairing's -a matrix fits in a few minutes on the emulated
# guests.

MAX_INLINE=256		# SOFTRDMA_ROCE_MAX_INLINE, drivers/.../param.h
INLINE_BIN=${RC_INLINE_BIN:-/var/tmp/softrdma-lab/rc_inline}
ALL_SIZES=$LAB_PERFTEST_ALL_SIZES	# what -a runs (lib.sh)
port=18600

cut=${1:-quick}
shift
case $cut in
quick | full) ;;
*) lab_fail "roce-perftest: unknown cut '$cut' (quick or full)" ;;
esac
groups=" $* "
# want GROUP [TEST]: selected by its group's name or the test's name
want() {
	[ -z "${groups// /}" ] || [[ $groups == *" $1 "* ]] ||
		{ [ -n "${2:-}" ] && [[ $groups == *" $2 "* ]]; }
}

gid4=$(lab_gid_index "$LAB_ADDR") || lab_fail "no GID for $LAB_ADDR on $LAB_IBDEV"
gid6=$(lab_gid_index "$LAB_ADDR6") || lab_fail "no GID for $LAB_ADDR6 on $LAB_IBDEV"
lab_note "stack $LAB_STACK dev $LAB_IBDEV cut $cut gid index IPv4 $gid4 IPv6 $gid6"

# pt SIZES ITERS CMD...: lab_perftest (lib.sh: exit status, this side's
# result table), and the client's last row as a note
pt() {
	lab_perftest "$@" || return
	[ "$LAB_ID" = 1 ] && lab_note "$CUR: $(awk '/^ *#bytes/ { t = 1; next }
		t && /^ *-+ *$/ { exit } t { print }' <<<"$LAB_PERFTEST_OUT" |
		tr -s ' \t' ' ' | tail -n 1)"
	return 0
}

# iterations for one size: enough to be a test, few enough at 1 MiB
iters_for() {
	if [ "$1" -ge 1048576 ]; then echo 10
	elif [ "$1" -ge 65536 ]; then echo 50
	else echo 100
	fi
}

OPS="ib_write_bw ib_read_bw ib_send_bw ib_write_lat ib_read_lat ib_send_lat"

if [ "$cut" = quick ]; then
	# "ops" runs every size, "ipv6" the IPv6 one alone
	for t in $OPS; do
		for s in 1 65537 1048576; do
			if [ "$s" = 65537 ]; then
				want ops "$t" || want ipv6 "$t" || continue
				name=$t-ipv6-$s gid=$gid6
			else
				want ops "$t" || continue
				name=$t-$s gid=$gid4
			fi
			n=$(iters_for "$s")
			lab_pair "$name" 180 pt "$s" "$n" "$t" -d "$LAB_IBDEV" \
				-x "$gid" -s "$s" -n "$n" -F
		done
	done
	# the GID perftest used is the IPv6 one, both sides
	if { want ops ib_write_bw || want ipv6 ib_write_bw; } &&
		[ "$LAB_ID" -le 1 ]; then
		lab_check "ipv6 GID used" grep -q \
			"GID: 32:01:13:184:00:00:00:00:00:00:00:00:00:00:00:0$((LAB_ID + 1))" \
			"$LAB_OUT/checks/ib_write_bw-ipv6-65537$([ "$LAB_ID" = 0 ] &&
				echo .srv.out || echo _client.log)"
	fi
	if want bidir; then
		lab_pair ib_write_bw-b-1048576 180 pt 1048576 10 ib_write_bw \
			-d "$LAB_IBDEV" -x "$gid4" -b -s 1048576 -n 10 -F
	fi
	if want multi; then
		# the table counts the iterations of all eight QPs
		lab_pair ib_write_bw-q8-65537 180 pt 65537 400 ib_write_bw \
			-d "$LAB_IBDEV" -x "$gid4" -q 8 -s 65537 -n 50 -F
	fi
	if want inline; then
		# perftest turns -I off on devices it does not know by PCI id
		# (rxe and softrdma alike), so rc_inline does this part
		if lab_built rc_inline "$INLINE_BIN"; then
			for s in 1 64 $MAX_INLINE; do
				lab_pair "rc_inline-$s" 120 timeout 100 "$INLINE_BIN" \
					-d "$LAB_IBDEV" -g "$gid4" -s "$s" -n 50
			done
			# one byte more than the advertised maximum is refused
			if [ "$LAB_STACK" = sroce ]; then
				lab_check "inline $((MAX_INLINE + 1)) B refused by $LAB_IBDEV" \
					"$INLINE_BIN" -d "$LAB_IBDEV" -r $((MAX_INLINE + 1))
			fi
		fi
	fi
fi

# -a: 23 sizes from 2 B to 8 MiB with one iteration count; the counts keep
# each test within about a minute on the emulated guests.
if [ "$cut" = full ]; then
	for t in $OPS; do
		want all "$t-a" || continue
		n=20
		[[ $t == *_lat ]] && n=10
		lab_pair "$t-a" 600 pt "$ALL_SIZES" "$n" "$t" -d "$LAB_IBDEV" \
			-x "$gid4" -a -n "$n" -F
	done
	if want all-bidir; then
		lab_pair ib_write_bw-a-b 600 pt "$ALL_SIZES" 10 ib_write_bw \
			-d "$LAB_IBDEV" -x "$gid4" -a -b -n 10 -F
	fi
	# only when named: in this lab even stock rxe <-> rxe stalls here
	# (both guests' virtio-net TX queues stop; NETDEV WATCHDOG)
	if [[ $groups == *" all-multi "* ]]; then
		lab_pair ib_write_bw-a-q8 600 pt "$ALL_SIZES" 40 ib_write_bw \
			-d "$LAB_IBDEV" -x "$gid4" -a -q 8 -n 5 -F
	fi
fi

if [ "$LAB_STACK" = sroce ]; then
	rdma statistic show link "$LAB_IBDEV/1" >"$LAB_OUT/counters.txt" 2>&1
	lab_note "counters: $(tr -s ' \n' ' ' <"$LAB_OUT/counters.txt" |
		grep -o 'retransmits [0-9]*\|ack_timeouts [0-9]*\|seq_naks_[a-z]* [0-9]*\|rnr_naks_[a-z]* [0-9]*\|duplicate_requests [0-9]*\|xmit_drop [0-9]*\|rcv_[a-z_]* [1-9][0-9]*' | tr '\n' ' ')"
	# every QP went with its process: nothing pins the module
	lab_barrier unload
	lab_check "rmmod softrdma with $LAB_IBDEV present" rmmod softrdma
else
	lab_barrier unload
fi
exit 0
