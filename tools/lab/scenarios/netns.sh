# SPDX-License-Identifier: GPL-2.0
#
# Network namespaces (issue 36 item 2) on one guest: in exclusive mode
# ("rdma system set netns exclusive") two namespaces, joined by veth
# pairs and a bridge, each add an sroce and a siwarp device on their own
# veth end with "rdma link add" run inside the namespace. Each device belongs to
# its namespace: only there does rdma-core list and open it, and only
# there are its UDP 4791 sockets, iWARP listeners and counters. RoCE
# (ibv_rc_pingpong -c) and iWARP (rping -V) carry checked data from one
# namespace to the other. A device moved ("rdma dev set DEV netns NS") out
# of its netdev's namespace is removed, with a kernel log line saying why. Deleting the namespaces while a pingpong runs
# in them, and while a process that moved to init_net holds a device file
# of one of them, tears everything down: the devices go before the RDMA
# core would move them to init_net (so ib_mad logs no "Couldn't create
# ib_mad QP1" for a device half gone), softrdma unloads, the kernel log
# stays clean (host-side check).
#
# Runs with --stack none and --guests 1: the scenario loads softrdma.

[ "$LAB_ID" = 0 ] || exit 0

A=nsa B=nsb
AADDR=10.99.0.1 BADDR=10.99.0.2

in_a() { ip netns exec "$A" "$@"; }
in_b() { ip netns exec "$B" "$@"; }

# gid_index NS DEV ADDR: the IPv4-mapped GID's index, read in NS's sysfs
gid_index() {
	ip netns exec "$1" bash -c "$(declare -f lab_gid_string lab_gid_index); lab_gid_index $3 $2"
}

# lists NS DEV: "rdma dev" run in NS lists DEV
lists() { ip netns exec "$1" rdma dev show | grep -q "^[0-9]*: $2:"; }
# ibv_lists NS DEV: ibv_devices run in NS lists DEV
ibv_lists() { ip netns exec "$1" ibv_devices | grep -qw "$2"; }

# bound NS tcp|udp PORT: a socket listens on (UDP: is bound to) PORT in NS
# (init_net when NS is empty)
bound() {
	if [ -z "$1" ]; then
		_lab_sock_bound "$2" "$3"
	else
		ip netns exec "$1" bash -c "$(declare -f _lab_sock_bound); _lab_sock_bound $2 $3"
	fi
}

# rising NS DEV: DEV's port_rcv_packets grows within 2 s
rcv_packets() {
	ip netns exec "$1" rdma statistic show link "$2/1" |
		sed -n 's/.* port_rcv_packets \([0-9]*\).*/\1/p'
}
rising() {
	local a b
	a=$(rcv_packets "$1" "$2")
	sleep 2
	b=$(rcv_packets "$1" "$2")
	echo "port_rcv_packets $a, then $b"
	[ -n "$a" ] && [ -n "$b" ] && [ "$b" -gt "$a" ]
}

no_softrdma_dev() { ! rdma dev show | grep -qE ': (sra|swa|srb|swb):'; }
module_gone() { ! grep -q '^softrdma ' /proc/modules; }

lab_check "modprobe softrdma ib_uverbs rdma_ucm" modprobe -a softrdma ib_uverbs rdma_ucm
lab_check "rdma system set netns exclusive" rdma system set netns exclusive
# nsa:va <-> vha, nsb:vb <-> vhb, vha and vhb on bridge br0 in init_net;
# vha and vhb go when their namespace exits
lab_check "two namespaces joined by veth pairs and a bridge" bash -c "
	ip netns add $A && ip netns add $B &&
	ip link add br0 type bridge && ip link set br0 up &&
	ip link add va netns $A type veth peer name vha &&
	ip link add vb netns $B type veth peer name vhb &&
	ip link set vha master br0 up && ip link set vhb master br0 up &&
	ip -n $A addr add $AADDR/24 dev va && ip -n $B addr add $BADDR/24 dev vb &&
	ip -n $A link set lo up && ip -n $B link set lo up &&
	ip -n $A link set va up && ip -n $B link set vb up"

# siwarp first: the RDMA CM binds an address to the first device with it
lab_check "rdma link add in $A: swa (siwarp) and sra (sroce) on va" bash -c "
	ip netns exec $A rdma link add swa type siwarp netdev va &&
	ip netns exec $A rdma link add sra type sroce netdev va"
lab_check "rdma link add in $B: swb (siwarp) and srb (sroce) on vb" bash -c "
	ip netns exec $B rdma link add swb type siwarp netdev vb &&
	ip netns exec $B rdma link add srb type sroce netdev vb"

# --- isolation ---------------------------------------------------------------
lab_check "rdma dev in $A lists sra and swa" bash -c "$(declare -f lists); lists $A sra && lists $A swa"
lab_check "rdma dev in $B lists srb and swb" bash -c "$(declare -f lists); lists $B srb && lists $B swb"
lab_expect_fail "rdma dev in $A lists a device of $B" bash -c \
	"$(declare -f lists); lists $A srb || lists $A swb"
lab_check "rdma dev in init_net lists no namespace's device" no_softrdma_dev
lab_check "ibv_devices in $A lists sra, not srb" bash -c \
	"$(declare -f ibv_lists); ibv_lists $A sra && ! ibv_lists $A srb"
lab_expect_fail "ibv_devinfo -d srb in $A" in_a ibv_devinfo -d srb
lab_expect_fail "rdma statistic of srb in $A" in_a rdma statistic show link srb/1
lab_check "rdma statistic of srb in $B" in_b rdma statistic show link srb/1
lab_check "UDP 4791 bound in $A" bound "$A" udp 4791
lab_check "UDP 4791 bound in $B" bound "$B" udp 4791
lab_expect_fail "UDP 4791 bound in init_net" bound "" udp 4791

lab_check "GID of $AADDR on sra (in $A)" lab_wait_for 10 gid_index "$A" sra "$AADDR"
lab_check "GID of $BADDR on srb (in $B)" lab_wait_for 10 gid_index "$B" srb "$BADDR"
ga=$(gid_index "$A" sra "$AADDR")
gb=$(gid_index "$B" srb "$BADDR")

# --- RoCE across namespaces --------------------------------------------------
rc_pair() { # NAME ITERS SIZE
	local srv rc
	lab_timeout 60 ip netns exec "$B" ibv_rc_pingpong -d srb -g "$gb" -c -n "$2" -s "$3" \
		>"$LAB_OUT/$1.srv" 2>&1 &
	srv=$!
	lab_wait_for 10 bound "$B" tcp 18515
	TMO=60 lab_pingpong ip netns exec "$A" ibv_rc_pingpong -d sra -g "$ga" -c -n "$2" -s "$3" "$BADDR"
	rc=$?
	wait "$srv" || rc=1
	cat "$LAB_OUT/$1.srv"
	grep -q "iters in" "$LAB_OUT/$1.srv" || rc=1
	return $rc
}
lab_check "sroce: ibv_rc_pingpong -c sra ($A) to srb ($B), 4096 B" rc_pair rc4k 200 4096
lab_check "counters: srb in $B counted the received packets" bash -c \
	"ip netns exec $B rdma statistic show link srb/1 | grep -qE 'port_rcv_packets [1-9]'"

# --- iWARP across namespaces -------------------------------------------------
rping_pair() { # PORT COUNT SIZE
	local srv rc out
	lab_timeout 60 ip netns exec "$B" rping -s -a "$BADDR" -p "$1" -V -C "$2" -S "$3" \
		>"$LAB_OUT/rping.srv" 2>&1 &
	srv=$!
	lab_wait_for 10 bound "$B" tcp "$1"
	out=$(lab_timeout 60 ip netns exec "$A" rping -c -v -V -a "$BADDR" -p "$1" -C "$2" -S "$3" 2>&1)
	rc=$?
	echo "$out" | tail -n 5
	wait "$srv" || rc=1
	[ "$(grep -c '^ping data: ' <<<"$out")" = "$2" ] || { echo "FAIL: pings"; rc=1; }
	return $rc
}
lab_check "siwarp: rping -V swa ($A) to swb ($B), 20 pings" rping_pair 7174 20 1024

# A wildcard iWARP listener in B listens in B only: none appears in A, and
# A can listen on the same port meanwhile.
wild() {
	local srv rc=0
	# ip netns exec execs rping: $! is rping's pid, for the kill below
	ip netns exec "$B" rping -s -a 0.0.0.0 -p 7175 -C 1 >"$LAB_OUT/wild.srv" 2>&1 &
	srv=$!
	lab_wait_for 10 bound "$B" tcp 7175 || { echo "no listener in $B"; rc=1; }
	if bound "$A" tcp 7175; then
		echo "a TCP listener on 7175 in $A"
		rc=1
	fi
	kill "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null
	return $rc
}
lab_check "iWARP wildcard listen in $B makes no listener in $A" wild

# rdma_cm in A cannot bind an address of B
lab_expect_fail "rdma_cm in $A binds $BADDR (an address of $B)" \
	lab_timeout 10 ip netns exec "$A" rping -s -a "$BADDR" -p 7176 -C 1

# --- a device moved out of its netdev's namespace ---------------------------
# In exclusive mode the RDMA core moves a device on "rdma dev set DEV netns
# NS" and asks the driver nothing (6.1 and 6.12 have no way for it to
# refuse). A softrdma device is its netdev's: GIDs, UDP and TCP sockets are
# the netdev's namespace's, so one moved away would carry NS's traffic on
# another namespace's link. softrdma removes such a device and logs why;
# "rdma link add" in NS is the way to a device there. A move into the
# namespace it is in already keeps it (srb, used again below).
# gone DEV: DEV is listed in neither namespace nor init_net
gone() { ! lists "$A" "$1" && ! lists "$B" "$1" && ! rdma dev show | grep -q ": $1:"; }
# logged DEV NETDEV: the kernel log says why DEV went
logged() {
	dmesg | grep "$1: moved out of the network namespace of its netdev $2" ||
		{ echo "no log line for $1"; return 1; }
}
lab_check "rdma dev set sra netns $B (from $A, sra's netdev va is in $A)" \
	in_a rdma dev set sra netns "$B"
lab_check "sra is removed, listed in no namespace" lab_wait_for 10 gone sra
lab_check "the kernel log says why sra went" logged sra va
# init_net named for rdma for the one command, lab-init
lab_check "rdma dev set swa netns init_net (from $A)" bash -c "
	ip netns attach lab-init 1 || exit 1
	ip netns exec $A rdma dev set swa netns lab-init; rc=\$?
	ip netns del lab-init; exit \$rc"
lab_check "swa is removed, listed in no namespace" lab_wait_for 10 gone swa
lab_check "the kernel log says why swa went" logged swa va
lab_check "rdma dev set srb netns $B (its own namespace)" in_b rdma dev set srb netns "$B"
sleep 1
lab_check "srb stays, in $B only" bash -c \
	"$(declare -f lists); lists $B srb && ! lists $A srb && ! rdma dev show | grep -q ': srb:'"
# the name and the netdev are free once the unregistration has finished
readd() {
	lab_wait_for 10 in_a rdma link add swa type siwarp netdev va &&
		lab_wait_for 10 in_a rdma link add sra type sroce netdev va
}
lab_check "rdma link add in $A again: swa and sra on va" readd
lab_check "GID of $AADDR on the new sra (in $A)" lab_wait_for 10 gid_index "$A" sra "$AADDR"
ga=$(gid_index "$A" sra "$AADDR")

# --- a device file carried out of its namespace -----------------------------
# swb's uverbs file, opened in $B by a process that then moves to
# init_net and keeps it: $B's exit must not wait for that file's close
# (the core cuts the file off; without that, one process could hold the
# host's namespace teardown for as long as it liked)
uvb=$(in_b bash -c 'grep -lx swb /sys/class/infiniband_verbs/uverbs*/ibdev' | head -n 1)
uvb=${uvb%/ibdev}
uvb=/dev/infiniband/${uvb##*/}
ip netns exec "$B" bash -c "exec 7<>$uvb && exec nsenter --net=/proc/1/ns/net sleep 600" &
outside=$!
holds_uvb() {
	[ "$(readlink /proc/self/ns/net)" = "$(readlink "/proc/$outside/ns/net")" ] &&
		ls -l "/proc/$outside/fd/" | grep -q "$uvb"
}
lab_check "a process in init_net holds swb's uverbs file ($uvb)" lab_wait_for 10 holds_uvb

# --- namespace deletion with live QPs ----------------------------------------
# $! is the program's pid (ip netns exec execs it): the kill below must
# reach the processes that hold the namespaces
ip netns exec "$B" ibv_rc_pingpong -d srb -g "$gb" -n 100000000 >"$LAB_OUT/live.srv" 2>&1 &
lsrv=$!
lab_wait_for 10 bound "$B" tcp 18515
ip netns exec "$A" ibv_rc_pingpong -d sra -g "$ga" -n 100000000 "$BADDR" >"$LAB_OUT/live.cli" 2>&1 &
lcli=$!
# a process holding swa (a QP, waiting for its peer) and the namespace
ip netns exec "$A" ibv_rc_pingpong -d swa -p 18600 >"$LAB_OUT/holder" 2>&1 &
holder=$!
# ib_mad's complaints before the namespaces' exits: only theirs count
mad_complaints() { dmesg | grep "Couldn't create ib_mad"; }
mad_before=$(mad_complaints | wc -l)
lab_check "live pingpong QPs in both namespaces" lab_wait_for 10 bash -c \
	"ip netns exec $A rdma resource show qp | grep -q 'link sra/1.*RC' &&
	 ip netns exec $B rdma resource show qp | grep -q 'link srb/1.*RC'"
lab_check "srb receives the live pingpong's packets" rising "$B" srb
# one name per "ip netns del": iproute2 ignores any name after the first
lab_check "ip netns del $A, ip netns del $B, under traffic" bash -c \
	"ip netns del $A && ip netns del $B"
lab_check "no namespace name left" bash -c '[ -z "$(ip netns list)" ]'
sleep 1
lab_check "pingpong and holder still running after ip netns del" \
	kill -0 "$lcli" "$lsrv" "$holder"
kill -KILL "$lcli" "$lsrv" "$holder" 2>/dev/null
wait "$lcli" "$lsrv" "$holder" 2>/dev/null
lab_check "both namespaces exited (vha and vhb gone)" lab_wait_for 30 bash -c \
	'! ip link show vha 2>/dev/null && ! ip link show vhb 2>/dev/null'
# an exiting namespace's devices go with it, before the RDMA core's own
# exit would move them to init_net (softrdma's pernet pre_exit)
lab_check "the namespaces' devices are gone, not moved to init_net" \
	lab_wait_for 30 no_softrdma_dev
# the core's exit ran before the veths went: had it found a device there
# to move, ib_mad would have failed to create QP1 on it, which is going
mad_quiet() {
	mad_complaints | tail -n "+$((mad_before + 1))"
	[ "$(mad_complaints | wc -l)" -eq "$mad_before" ]
}
lab_check "no \"Couldn't create ib_mad\" in the kernel log from the namespaces' exits" \
	mad_quiet
lab_check "the process holding swb's file outside $B is still there" kill -0 "$outside"
kill -KILL "$outside" 2>/dev/null
wait "$outside" 2>/dev/null
lab_check "no rdma link left" bash -c '[ -z "$(rdma link show)" ]'
lab_check "rmmod softrdma" lab_wait_for 30 rmmod softrdma
lab_check "softrdma unloaded" module_gone
