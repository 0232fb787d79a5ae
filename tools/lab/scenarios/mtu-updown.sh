# SPDX-License-Identifier: GPL-2.0
#
# The netdev's MTU changes and the netdev goes down and up while RoCE and
# iWARP traffic runs over it:
#   lab run --stack sroce+siwarp mtu-updown
# guest0 serves, guest1 is the client; both run an sroce and a siwarp
# device on eth0.
#
#  1500     active_mtu 1024 on both devices (ibv_devinfo); a new RoCE QP
#           sends packets of at most 1024 B of payload (the client's
#           port_xmit_bytes / port_xmit_packets over a 64 KiB ib_write_bw)
#  up       ib_write_bw -D over RoCE (by GID) and over iWARP (-R) run while
#           both guests go to MTU 9000: both complete (a QP keeps the path
#           MTU it was given, which still fits)
#  9000     active_mtu 4096 on both devices; a new RoCE QP sends packets of
#           more than 2048 B of payload on average
#  down     the same traffic while both guests go back to 1500: the RoCE
#           QP, whose 4096-byte packets no longer fit, may fail, but only
#           with a completion error; iWARP (TCP) completes; no run hangs
#  1500     active_mtu 1024 again; a new RoCE QP at 1024
#  updown   the same traffic while guest1's eth0 goes down for 3 s and up:
#           the port is DOWN, then ACTIVE again; the runs complete or fail
#           with a completion error, never hang
#  after    a new RoCE QP and a new iWARP connection carry data
# The lab checks the kernel logs (no warning).

RDEV=$LAB_IBDEV
IDEV=$LAB_IWDEV
SRV=$(lab_peer_addr 0)
DUR=15
port=18600

[ -n "$IDEV" ] || lab_fail "mtu-updown: needs --stack sroce+siwarp"
gid=$(lab_gid_index "$LAB_ADDR" "$RDEV") || lab_fail "$RDEV: no GID for $LAB_ADDR"

# port_is DEV MTU STATE: ibv_devinfo shows active_mtu MTU and state STATE
port_is() {
	local out
	out=$(ibv_devinfo -d "$1") || return 1
	grep -E 'state|active_mtu' <<<"$out"
	grep -Eq "active_mtu:[[:space:]]+$2 " <<<"$out" &&
		grep -Eq "[[:space:]]state:[[:space:]]+$3 " <<<"$out"
}

ports_are() { # MTU STATE
	lab_check "$RDEV: active_mtu $1, $2" lab_wait_for 10 port_is "$RDEV" "$1" "$2"
	lab_check "$IDEV: active_mtu $1, $2" lab_wait_for 10 port_is "$IDEV" "$1" "$2"
}

set_mtu() {
	lab_check "eth0 mtu $1" ip link set eth0 mtu "$1"
}

# payload_per_packet MIN MAX: run a fresh ib_write_bw (64 KiB x 100) over
# RoCE and check, on the client, the average bytes per packet it sent
# (port_xmit_bytes / port_xmit_packets) lies in [MIN, MAX]
xmit_bytes() { LAB_IBDEV=$RDEV lab_counter port_xmit_bytes; }
xmit_pkts() { LAB_IBDEV=$RDEV lab_counter port_xmit_packets; }

avg_in() { # MIN MAX B0 P0
	local b p avg
	b=$(($(xmit_bytes) - $3))
	p=$(($(xmit_pkts) - $4))
	[ "$p" -gt 0 ] || { echo "no packets"; return 1; }
	avg=$((b / p))
	echo "$b bytes in $p packets: $avg per packet, want $1..$2"
	[ "$avg" -ge "$1" ] && [ "$avg" -le "$2" ]
}

new_qp_mtu() { # NAME MIN MAX
	local b0 p0
	gid=$(lab_gid_index "$LAB_ADDR" "$RDEV")
	b0=$(xmit_bytes) p0=$(xmit_pkts)
	lab_pair "$1: new RoCE QP, ib_write_bw 100x64KiB" 120 \
		lab_perftest 65536 100 ib_write_bw -d "$RDEV" -x "$gid" -s 65536 -n 100 -F
	[ "$LAB_ID" = 1 ] &&
		lab_check "$1: the new QP's packets carry $2..$3 B on average" \
			avg_in "$2" "$3" "$b0" "$p0"
	lab_barrier "$1-mtu-checked"
}

# flow NAME KIND: a -D $DUR ib_write_bw, RoCE (by GID) or iWARP (-R), on
# ports $port - 1 and $port; guest0 serves, guest1 connects.  Its status
# and output in /tmp/NAME.{rc,out}.
flow() {
	local name=$1 kind=$2 p args
	case $kind in
	roce) p=$((port - 1)); args=(-d "$RDEV" -x "$gid") ;;
	iwarp) p=$port; args=(-d "$IDEV" -R) ;;
	esac
	if [ "$LAB_ID" = 0 ]; then
		lab_timeout $((DUR + 120)) ib_write_bw "${args[@]}" -s 65536 -D "$DUR" -F -p "$p"
	else
		lab_timeout $((DUR + 90)) ib_write_bw "${args[@]}" -s 65536 -D "$DUR" -F -p "$p" "$SRV"
	fi >"/tmp/$name.out" 2>&1
	echo $? >"/tmp/$name.rc"
}

# flows_during NAME ACTION...: both flows, and ACTION 5 s into them; then
# wait for both
flows_during() {
	local name=$1 f i
	shift
	port=$((port + 2))
	gid=$(lab_gid_index "$LAB_ADDR" "$RDEV")
	if [ "$LAB_ID" = 0 ]; then
		flow "$name-roce" roce &
		f=$!
		flow "$name-iwarp" iwarp &
		i=$!
		lab_wait_for 30 lab_listening $((port - 1))
		lab_wait_for 30 lab_listening "$port"
		lab_barrier "$name-listen"
	else
		lab_barrier "$name-listen"
		flow "$name-roce" roce &
		f=$!
		flow "$name-iwarp" iwarp &
		i=$!
	fi
	sleep 5
	"$@"
	wait "$f" "$i"
	lab_barrier "$name-done" 300
}

# ran_or_failed_cleanly NAME: the flow completed (exit 0 and a result row)
# or its client reported a completion error; never a timeout
ran_or_failed_cleanly() {
	local rc
	rc=$(cat "/tmp/$1.rc")
	cat "/tmp/$1.out"
	echo "exit $rc"
	[ "$rc" != 124 ] || { echo "FAIL: still running: a hang"; return 1; }
	if [ "$rc" = 0 ]; then
		grep -Eq '^ *65536 +[0-9]+ ' "/tmp/$1.out" ||
			{ echo "FAIL: no result row"; return 1; }
		return 0
	fi
	# the server learns of its client's end over the side channel
	[ "$LAB_ID" = 0 ] ||
		grep -Eqi 'completion with error|failed status|error' "/tmp/$1.out"
}

completed() {
	local rc
	rc=$(cat "/tmp/$1.rc")
	cat "/tmp/$1.out"
	echo "exit $rc"
	[ "$rc" = 0 ] && { [ "$LAB_ID" = 0 ] || grep -Eq '^ *65536 +[0-9]+ ' "/tmp/$1.out"; }
}

# --- 1500 ----------------------------------------------------------------------
ports_are 1024 PORT_ACTIVE
new_qp_mtu mtu1500 900 1100

# --- 1500 -> 9000 under traffic ------------------------------------------------
flows_during up set_mtu 9000
lab_check "up: RoCE ib_write_bw -D$DUR completed across the MTU change" completed up-roce
lab_check "up: iWARP ib_write_bw -R -D$DUR completed across the MTU change" completed up-iwarp
ports_are 4096 PORT_ACTIVE
new_qp_mtu mtu9000 2048 4200

# --- 9000 -> 1500 under traffic ------------------------------------------------
flows_during down set_mtu 1500
lab_check "down: RoCE ib_write_bw -D$DUR completed or failed with a completion error" \
	ran_or_failed_cleanly down-roce
lab_note "down: RoCE flow exit $(cat /tmp/down-roce.rc)"
lab_check "down: iWARP ib_write_bw -R -D$DUR completed across the MTU change" completed down-iwarp
ports_are 1024 PORT_ACTIVE
new_qp_mtu mtu1500-again 900 1100

# --- down and up under traffic -------------------------------------------------
bounce() {
	[ "$LAB_ID" = 1 ] || return 0
	lab_check "updown: ip link set eth0 down" ip link set eth0 down
	ports_are 1024 PORT_DOWN
	sleep 3
	lab_check "updown: ip link set eth0 up" ip link set eth0 up
	ports_are 1024 PORT_ACTIVE
}
flows_during updown bounce
lab_check "updown: RoCE ib_write_bw -D$DUR completed or failed with a completion error" \
	ran_or_failed_cleanly updown-roce
lab_check "updown: iWARP ib_write_bw -R -D$DUR completed or failed with a completion error" \
	ran_or_failed_cleanly updown-iwarp
lab_note "updown: RoCE exit $(cat /tmp/updown-roce.rc), iWARP exit $(cat /tmp/updown-iwarp.rc)"

# --- after ---------------------------------------------------------------------
new_qp_mtu after 900 1100
lab_pair "after: rping -V over iWARP 20x65535" 120 lab_rping_checked 20 65535
