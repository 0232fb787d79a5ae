# SPDX-License-Identifier: GPL-2.0
#
# One host, two QPs on one device: both ends of every connection in one
# guest, through the netdev's own address, as CI suites do that connect
# a host to itself (blktests' NVMe-oF and SRP tests).  RoCE packets to a
# local address take softrdma's local delivery (roce_net.c); iWARP runs
# over kernel TCP loopback.
#
#   lab run --guests 1 --stack sroce+siwarp onehost
#   lab run --guests 1 --stack sroce onehost      (or siwarp)
#
# On an sroce device (sr0):
#   ibv_rc_pingpong -c and ibv_ud_pingpong -c (both ends compare every
#   byte), ib_write_bw, ib_read_bw and ib_send_bw by GID (a TCP side
#   channel, no RDMA CM);
# on the device the RDMA CM picks for the address (siwarp's when there is
# one, which iWARP needs for every connection; sroce's otherwise):
#   rping -V (every ping read back and compared), ib_write_bw,
#   ib_read_bw and ib_send_bw -R, and NVMe-oF: nvmet-rdma exports a RAM
#   disk at the guest's address, nvme-rdma in the same guest connects to
#   it, parallel direct writes and reads, data compared (lab_disk_check).
# With sroce+siwarp the siwarp device is deleted after its turn, and the
# RDMA CM part runs again, now over sroce.
# Last, "rdma link add" on lo is refused for both link types, with the
# reason in the kernel log, and creates no device.

[ "$LAB_ID" = 0 ] || exit 0

ADDR=$LAB_ADDR
PP_N=500
BW_N=200
DISK_MB=32
port=18515

# local_pair NAME TIMEOUT CMD...: CMD -p PORT as the server, in the
# background, and once it listens CMD -p PORT ADDR as the client, both in
# this guest: checks "NAME client" and "NAME server".  The lib.sh helpers
# CMD may be (lab_perftest, lab_rping_checked) tell server from client by
# LAB_ID: 0 for the server, 1 for the client.
local_pair() {
	local name=$1 tmo=$2 srv
	shift 2
	port=$((port + 1))
	CUR=$name
	TMO=$((tmo + 30)) LAB_ID=0 "$@" -p "$port" >"/tmp/$name.srv" 2>&1 &
	srv=$!
	lab_wait_for 30 lab_listening "$port"
	TMO=$tmo lab_check "$name client" as_client "$@" -p "$port" "$ADDR"
	lab_check "$name server" server_done "$srv" "/tmp/$name.srv"
}

as_client() { LAB_ID=1 "$@"; }

# server_done PID OUT: the server PID exited 0; its output OUT
server_done() {
	local rc=0
	wait "$1" || rc=$?
	cat "$2"
	return $rc
}

perf() { lab_perftest 65536 "$BW_N" "$@"; }

# a perftest run over the RDMA CM (-R) on device DEV
cm_perf() {
	local dev=$1 t
	for t in ib_write_bw ib_read_bw ib_send_bw; do
		local_pair "$dev: $t -R ${BW_N}x64KiB" 120 \
			perf "$t" -d "$dev" -R -s 65536 -n "$BW_N" -F
	done
}

# --- RoCE without the RDMA CM -------------------------------------------------

roce_direct() {
	local dev=$1 gid t
	gid=$(lab_gid_index "$ADDR" "$dev") || lab_fail "$dev: no GID for $ADDR"
	local_pair "$dev: ibv_rc_pingpong -c ${PP_N}x4KiB" 120 \
		lab_pingpong ibv_rc_pingpong -d "$dev" -g "$gid" -c -s 4096 -n "$PP_N"
	local_pair "$dev: ibv_ud_pingpong -c ${PP_N}x1KiB" 120 \
		lab_pingpong ibv_ud_pingpong -d "$dev" -g "$gid" -c -s 1024 -n "$PP_N"
	for t in ib_write_bw ib_read_bw ib_send_bw; do
		local_pair "$dev: $t -x ${BW_N}x64KiB" 120 \
			perf "$t" -d "$dev" -x "$gid" -s 65536 -n "$BW_N" -F
	done
	lab_check "$dev: local packets were received (port_rcv_packets > 0)" \
		dev_counter_positive "$dev" port_rcv_packets
}

dev_counter_positive() {
	local v
	v=$(LAB_IBDEV=$1 lab_counter "$2")
	echo "$1 $2 $v"
	[ -n "$v" ] && [ "$v" -gt 0 ]
}

# --- over the RDMA CM ---------------------------------------------------------

nvme_io() {
	local dev s
	dev=$(lab_nvme_disk) || return 1
	for s in 4096 131072 1048576; do
		echo "$s B:"
		lab_disk_check "$dev" "$s" 2 || return 1
	done
}

# cm_part DEV KIND: rping, perftest -R and NVMe-oF over DEV, which the
# RDMA CM binds ADDR to; KIND tcp for an iWARP device
cm_part() {
	local dev=$1 kind=$2
	local_pair "$dev: rping -V 20x65535" 120 lab_rping_checked 20 65535
	cm_perf "$dev"
	lab_check "$dev: nvmet-rdma exports a ${DISK_MB} MiB RAM disk at $ADDR" \
		lab_nvmet_up "$ADDR" "$DISK_MB" "$kind" || return
	if lab_check "$dev: nvme-rdma connects to it in the same guest" \
		lab_nvme_connect "$ADDR"; then
		lab_check "$dev: nvme direct writes and reads, data compared" nvme_io
		lab_check "$dev: the NVMe-oF host fast-registered MRs (mr_fast_reg > 0)" \
			dev_counter_positive "$dev" mr_fast_reg
		lab_check "$dev: nvme disconnects" lab_nvme_disconnect
	fi
	lab_check "$dev: NVMe-oF target removed" lab_nvmet_down
}

# --- lo -------------------------------------------------------------------

klog_has() { dmesg | grep -F -- "$1"; }

lo_refused() {
	local type=$1
	lab_expect_fail "rdma link add lo_$type type $type netdev lo is refused" \
		rdma link add "lo_$type" type "$type" netdev lo
	lab_check "lo_$type: the kernel log says why" \
		klog_has "cannot add $type device lo_$type on lo: not an Ethernet device"
	lab_expect_fail "lo_$type: no such device" rdma dev show "lo_$type"
}

case $LAB_STACK in
sroce)
	roce_direct "$LAB_IBDEV"
	cm_part "$LAB_IBDEV" cm
	;;
siwarp)
	cm_part "$LAB_IBDEV" tcp
	;;
sroce+siwarp)
	roce_direct "$LAB_IBDEV"
	cm_part "$LAB_IWDEV" tcp
	lab_check "rdma link del $LAB_IWDEV" rdma link del "$LAB_IWDEV"
	cm_part "$LAB_IBDEV" cm
	;;
*)
	lab_fail "onehost: stack $LAB_STACK: sroce, siwarp or sroce+siwarp"
	;;
esac
lo_refused sroce
lo_refused siwarp
