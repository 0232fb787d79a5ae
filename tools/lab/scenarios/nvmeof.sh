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

DISK_MB=64
TARGET_ADDR=$(lab_peer_addr 0)

target_up() {
	case $LAB_STACK in
	siwarp | siw) lab_nvmet_up "$LAB_ADDR" "$DISK_MB" tcp ;;
	*) lab_nvmet_up "$LAB_ADDR" "$DISK_MB" ;;
	esac
}

host_connect() {
	# a target that goes away is given up after one reconnect attempt,
	# not after 10 minutes of them
	if [ "$REMOVE" = target ]; then
		lab_nvme_connect "$TARGET_ADDR" ,ctrl_loss_tmo=2,reconnect_delay=2
	else
		lab_nvme_connect "$TARGET_ADDR"
	fi
}

# st_rw_check SIZE: JOBS writers and readers of SIZE bytes, data checked
st_rw_check() {
	local dev
	dev=$(lab_nvme_disk) || return 1
	lab_disk_check "$dev" "$1" "$JOBS"
}

# --- the skeleton's hooks (storage.sh) ---------------------------------------

st_server_up() {
	lab_check "nvmeof: target on $LAB_STACK exports a ${DISK_MB} MiB RAM disk at $LAB_ADDR:$LAB_NVME_PORT" \
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
	lab_check "nvmeof: target removed" lab_nvmet_down
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

st_client_ready() { lab_nvme_disk >/dev/null; }

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

st_load() { lab_nvme_disk; }

st_client_removed() {
	lab_check "nvmeof: the controller went with the device" lab_wait_for 30 lab_nvme_no_ctrl
}

st_server_removed() {
	lab_check "nvmeof: the controller was given up (ctrl_loss_tmo)" lab_wait_for 120 lab_nvme_no_ctrl
}

st_client_down() {
	lab_check "nvmeof: host disconnects" lab_nvme_disconnect
}

st_client_end() {
	lab_check "nvmeof: nvme-rdma unloads" modprobe -r nvme-rdma
}

storage_run
