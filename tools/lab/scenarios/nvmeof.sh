# SPDX-License-Identifier: GPL-2.0
#
# NVMe over Fabrics, the kernel consumer users run on RDMA most: guest0
# exports a RAM disk with nvmet-rdma, guest1 connects to it with
# nvme-rdma and writes and reads it back through the fabric, data
# checked.  nvme-rdma registers every I/O's pages with a fast-registration
# MR (IB_WR_REG_MR) and asks the target to invalidate its key with the
# response (Send with Invalidate), posting a LOCAL_INV itself when the
# target did not; on iWARP the target's rdma_rw reads the host's data
# into MRs of its own with RDMA READ with local invalidate.  So a
# softrdma host must count fast registrations and remote invalidations,
# a softrdma iWARP target fast registrations and local invalidations,
# and neither a failed memory operation.
#
# Any two RDMA stacks: --stack TARGET,HOST, e.g. sroce,sroce; siwarp,siw.
# Args: sizes=B1,B2,... (I/O sizes in bytes, multiples of 512; default
# below), jobs=N (parallel writers and readers, default 4), remove=host
# or remove=target: after the data checks, that side's softrdma device
# is deleted (rdma link del) under a writer's load and the module
# unloaded; the writer must end, the controller go, and no kernel log
# warn (the host tries to reconnect once when the target goes).  The
# sequence is the storage scenarios' own (tools/lab/storage.sh).

# shellcheck source=/dev/null
. /lab/storage.sh
storage_args nvmeof target host 512,3584,4096,8192,69632,131072,1048576,4194304
ST_DONE=host-done
# a reconnect to a RoCE target without a device lasts until the RDMA CM
# gives up on its unanswered requests (about 105 s here); an iWARP one
# meets a TCP reset at once
ST_SERVER_LOST=60
case $LAB_STACK in sroce | rxe) ST_SERVER_LOST=240 ;; esac

NQN=lab-nvmeof
PORT=4420
NVMET=/sys/kernel/config/nvmet
DISK_MB=64
TARGET_ADDR=$(lab_peer_addr 0)

target_up() {
	modprobe brd rd_nr=1 rd_size=$((DISK_MB * 1024)) max_part=0 || return 1
	modprobe nvmet-rdma || return 1
	mountpoint -q /sys/kernel/config ||
		mount -t configfs none /sys/kernel/config || return 1
	mkdir -p "$NVMET/subsystems/$NQN" || return 1
	echo 1 >"$NVMET/subsystems/$NQN/attr_allow_any_host"
	mkdir -p "$NVMET/subsystems/$NQN/namespaces/1" || return 1
	echo /dev/ram0 >"$NVMET/subsystems/$NQN/namespaces/1/device_path"
	echo 1 >"$NVMET/subsystems/$NQN/namespaces/1/enable" || return 1
	mkdir -p "$NVMET/ports/1" || return 1
	echo rdma >"$NVMET/ports/1/addr_trtype"
	echo ipv4 >"$NVMET/ports/1/addr_adrfam"
	echo "$LAB_ADDR" >"$NVMET/ports/1/addr_traddr"
	echo "$PORT" >"$NVMET/ports/1/addr_trsvcid"
	ln -s "$NVMET/subsystems/$NQN" "$NVMET/ports/1/subsystems/$NQN" || return 1
	# an iWARP listener is a TCP one; RoCE's is the RDMA CM's own
	case $LAB_STACK in
	siwarp | siw) lab_wait_listen "$PORT" 20 ;;
	esac
}

target_down() {
	rm -f "$NVMET/ports/1/subsystems/$NQN"
	rmdir "$NVMET/ports/1"
	echo 0 >"$NVMET/subsystems/$NQN/namespaces/1/enable"
	rmdir "$NVMET/subsystems/$NQN/namespaces/1" "$NVMET/subsystems/$NQN"
	modprobe -r nvmet-rdma nvmet
}

# the namespace's block device (with native multipath, the subsystem's
# head disk nvmeXnY; the per-controller nvmeXcYnZ paths cannot be opened)
host_disk() {
	local s d
	for s in /sys/class/nvme-subsystem/nvme-subsys* /sys/class/nvme/nvme*; do
		[ "$(cat "$s/subsysnqn" 2>/dev/null)" = "$NQN" ] || continue
		for d in "$s"/nvme*n1; do
			d=${d##*/}
			if [[ $d =~ ^nvme[0-9]+n1$ ]] && [ -b "/dev/$d" ]; then
				echo "/dev/$d"
				return 0
			fi
		done
	done
	return 1
}

host_connect() {
	local dev opts=
	modprobe nvme-rdma || return 1
	# a target that goes away is given up after one reconnect attempt,
	# not after 10 minutes of them
	[ "$REMOVE" = target ] && opts=,ctrl_loss_tmo=2,reconnect_delay=2
	echo "transport=rdma,traddr=$TARGET_ADDR,trsvcid=$PORT,nqn=$NQN$opts" \
		>/dev/nvme-fabrics || return 1
	lab_wait_for 30 host_disk >/dev/null || return 1
	dev=$(host_disk)
	echo "connected: $dev, $(cat /sys/block/"${dev#/dev/}"/size) sectors," \
		"max I/O $(cat /sys/block/"${dev#/dev/}"/queue/max_hw_sectors_kb) KiB"
}

host_disconnect() {
	local c
	for c in /sys/class/nvme/nvme*; do
		[ "$(cat "$c/subsysnqn" 2>/dev/null)" = "$NQN" ] || continue
		echo 1 >"$c/delete_controller" || return 1
	done
	lab_wait_for 20 no_ctrl
}

no_ctrl() {
	! grep -qsx "$NQN" /sys/class/nvme/*/subsysnqn
}

# st_rw_check SIZE: JOBS writers and readers of SIZE bytes, data checked
st_rw_check() {
	local dev
	dev=$(host_disk) || return 1
	lab_disk_check "$dev" "$1" "$JOBS"
}

# --- the skeleton's hooks (storage.sh) ---------------------------------------

st_server_up() {
	lab_check "nvmeof: target on $LAB_STACK exports a ${DISK_MB} MiB RAM disk at $LAB_ADDR:$PORT" \
		target_up
}

st_server_data() {
	lab_barrier data-done 900
	if is_softrdma && [ "$LAB_STACK" = siwarp ]; then
		# rdma_rw reads the host's data into MRs of the target's own
		lab_check "nvmeof: the siwarp target fast-registered MRs (mr_fast_reg > 0)" \
			lab_counter_positive mr_fast_reg
		lab_check "nvmeof: the siwarp target's READs invalidated them (mr_local_inv > 0)" \
			lab_counter_positive mr_local_inv
	fi
	if is_softrdma; then
		lab_check "nvmeof: no memory operation failed on the target (mr_op_err 0)" \
			lab_counter_zero mr_op_err
		lab_counters_note target
	fi
}

st_server_down() {
	lab_check "nvmeof: target removed" target_down
	# an orderly disconnect is no QP error: nvmet_rdma logs every
	# affiliated QP event it does not handle (IBA 11.6.3)
	[ -n "$REMOVE" ] ||
		lab_check "nvmeof: the host's disconnect raised no QP event on the target" \
			no_qp_event
}

no_qp_event() { ! dmesg | grep 'received IB QP event'; }

st_client_up() {
	lab_check "nvmeof: host on $LAB_STACK connects to the $PEER_STACK target (nvme-rdma)" \
		host_connect
}

st_client_ready() { host_disk >/dev/null; }

st_size_check() {
	echo "nvmeof: $JOBS parallel direct writes and reads of $1 B, data checked"
}

st_client_data() {
	if is_softrdma; then
		lab_check "nvmeof: the host fast-registered its I/O buffers (mr_fast_reg > 0)" \
			lab_counter_positive mr_fast_reg
		lab_check "nvmeof: the target invalidated them with its responses (mr_remote_inv > 0)" \
			lab_counter_positive mr_remote_inv
		lab_check "nvmeof: no memory operation failed on the host (mr_op_err 0)" \
			lab_counter_zero mr_op_err
		lab_counters_note host
	fi
	lab_barrier data-done 900
}

st_load() { host_disk; }

st_client_removed() {
	lab_check "nvmeof: the controller went with the device" lab_wait_for 30 no_ctrl
}

st_server_removed() {
	lab_check "nvmeof: the controller was given up (ctrl_loss_tmo)" lab_wait_for 120 no_ctrl
}

st_client_down() {
	lab_check "nvmeof: host disconnects" host_disconnect
}

st_client_end() {
	lab_check "nvmeof: nvme-rdma unloads" modprobe -r nvme-rdma
}

storage_run
