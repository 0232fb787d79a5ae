# SPDX-License-Identifier: GPL-2.0
#
# iwarp-ucmatose-burst: ucmatose when the server's MPA reply and its first
# FPDUs reach the client together (Documentation/design.md, "ucmatose and
# stock siw").  guest0 serves, guest1 connects; a netem slot queue on
# guest0's eth0 releases its frames in bursts.
#   lab run --stack siw,siwarp iwarp-ucmatose-burst   (softrdma client)
#   lab run --stack siw,siw iwarp-ucmatose-burst      (stock: records the
#       outcome as notes: CONNECT_ERROR -22 in this lab (a race: not
#       every burst loses it), and what siw's reply read returned,
#       -71 being -EPROTO)
# Variants: "plain" (no netem), "burst", and on a siwarp client
# "burst-nop2p" (iw_peer_to_peer=0: no RTR, so the stock server sends
# right after its reply).  A softrdma client must pass every one.

PEER_ADDR=$(lab_peer_addr 0)
T=/sys/kernel/tracing
lab_note "stack $LAB_STACK dev $LAB_IBDEV, peer ${LAB_STACKS[$((1 - LAB_ID))]}"
modprobe sch_netem || lab_fail "no sch_netem"
if [ "$LAB_ID" = 1 ] && [ "$LAB_STACK" = siw ]; then
	# what siw's read of the MPA reply returns
	mount -t tracefs none $T 2>/dev/null
	echo "r:mparr siw:siw_recv_mpa_rr ret=\$retval:s32" >>$T/kprobe_events &&
		echo 1 >$T/events/kprobes/mparr/enable
fi

ucm_ok() {
	cat "$1"
	grep -qx 'rc 0' "$1" && grep -q '^data transfers complete' "$1"
}

variant() {
	local name=$1 port=$2 netem=$3 p2p=$4 pid
	if [ "$LAB_ID" = 0 ]; then
		tc qdisc del dev eth0 root 2>/dev/null
		[ "$netem" = burst ] && tc qdisc add dev eth0 root netem slot 400ms 400ms
		timeout 60 ucmatose -b "$LAB_ADDR" -p "$port" >"/tmp/$name.srv" 2>&1 &
		pid=$!
		lab_wait_listen "$port" 20
		lab_barrier "$name"
		wait $pid
		echo "rc $?" >>"/tmp/$name.srv"
		tc qdisc del dev eth0 root 2>/dev/null
	else
		[ "$LAB_STACK" = siwarp ] &&
			echo "$p2p" >/sys/module/softrdma/parameters/iw_peer_to_peer
		lab_barrier "$name"
		echo "== $name" >>$T/trace_marker 2>/dev/null
		timeout 60 ucmatose -s "$PEER_ADDR" -p "$port" >"/tmp/$name.cli" 2>&1
		echo "rc $?" >>"/tmp/$name.cli"
		cp "/tmp/$name.cli" "$LAB_OUT/"
		if [ "$LAB_STACK" = siwarp ]; then
			lab_check "ucmatose client, $name" ucm_ok "/tmp/$name.cli"
		else
			lab_note "$name: $(grep -E 'event|return status' "/tmp/$name.cli" | tr '\n' ' ')"
		fi
	fi
	lab_barrier "$name-done" 120
}

variant plain 7501 none 1
variant burst 7502 burst 1
variant burst-again 7503 burst 1
[ "${LAB_STACKS[1]}" = siwarp ] && variant burst-nop2p 7504 burst 0

if [ "$LAB_ID" = 1 ] && [ "$LAB_STACK" = siw ]; then
	grep -v '^#' $T/trace >"$LAB_OUT/trace.txt" 2>/dev/null
	lab_note "siw_recv_mpa_rr: $(grep -o '== [a-z-]*\|ret=-*[0-9]*' "$LAB_OUT/trace.txt" | tr '\n' ' ')"
fi
exit 0
