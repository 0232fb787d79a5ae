# SPDX-License-Identifier: GPL-2.0
#
# SCSI RDMA Protocol, the block consumer CI systems run against RDMA
# besides NVMe-oF: guest0 exports a LIO RAM disk with ib_srpt, set up
# through configfs (no targetcli), listening on the RDMA CM (srpt's
# rdma_cm_port; RoCE and iWARP have no IB CM service IDs to resolve),
# guest1 logs in with ib_srp (add_target with dest=IP:PORT) and writes
# and reads the SCSI disk back with direct I/O, data checked.  srpt
# receives from a shared receive queue and moves data with rdma_rw;
# ib_srp registers each I/O with fast-registration MRs and invalidates
# them itself or has the target do it (Send with Invalidate).
#
# Any two RDMA stacks: --stack TARGET,INITIATOR, e.g. sroce,sroce.
# Args: sizes=B1,B2,... (I/O sizes in bytes, multiples of 512; default
# below), jobs=N (parallel writers and readers, default 4),
# remove=initiator or remove=target: after the data checks, that side's
# device is deleted (rdma link del) under a writer's load and its
# driver unloaded; the writer must end and no kernel log warn.  The
# sequence is the storage scenarios' own (tools/lab/storage.sh), after
# a first barrier at which the initiator has named its port.

# shellcheck source=/dev/null
. /lab/storage.sh
storage_args srp target initiator 512,4096,69632,1048576
ST_DONE=host-done

PORT=5555
DISK_MB=64
TGT=/sys/kernel/config/target
TARGET_ADDR=$(lab_peer_addr 0)
SHARE=/lab/srp

# gid0: GID 0 of this guest's port, 32 hex digits
gid0() {
	tr -d : <"/sys/class/infiniband/$LAB_IBDEV/ports/1/gids/0"
}

# srpt_port: srpt's name for this guest's port by its GID ("0x" and the
# 32 digits); sessions under it are named by the initiator port ID,
# which ib_srp builds from initiator_ext (0) and its GID 0's interface ID.
# (Under the port's GUID name srpt 6.1 names an RDMA CM session by
# the source address of the target's own connection, its own IP.)
srpt_port() {
	local g
	g=$(gid0) || return 1
	echo "0x$g"
}

target_up() {
	local port tpg init
	port=$(srpt_port) || return 1
	init=$(cat $SHARE/i_port_id) || return 1
	modprobe ib_srpt || return 1
	mountpoint -q /sys/kernel/config ||
		mount -t configfs none /sys/kernel/config || return 1
	mkdir -p $TGT/core/rd_mcp_0/rd0 || return 1
	echo "rd_pages=$((DISK_MB * 256))" >$TGT/core/rd_mcp_0/rd0/control || return 1
	echo 1 >$TGT/core/rd_mcp_0/rd0/enable || return 1
	mkdir -p $TGT/srpt || return 1
	echo $PORT >$TGT/srpt/discovery_auth/rdma_cm_port || return 1
	tpg=$TGT/srpt/$port/tpgt_1
	mkdir -p "$tpg/lun/lun_0" || return 1
	ln -s $TGT/core/rd_mcp_0/rd0 "$tpg/lun/lun_0/rd0" || return 1
	mkdir -p "$tpg/acls/$init/lun_0" || return 1
	ln -s "$tpg/lun/lun_0" "$tpg/acls/$init/lun_0/lun0" || return 1
	echo 1 >"$tpg/enable" || return 1
	# the initiator names the target by srpt's service GUID, the node
	# GUID of the first RDMA device srpt saw
	tr -d : <"/sys/class/infiniband/$LAB_IBDEV/node_guid" >$SHARE/guid || return 1
	echo "port $port, initiator $init, service GUID $(cat $SHARE/guid)," \
		"RDMA CM port $(cat $TGT/srpt/discovery_auth/rdma_cm_port)"
	case $LAB_STACK in
	siwarp | siw) lab_wait_listen "$PORT" 20 ;;
	esac
}

target_down() {
	local port tpg init
	# the device may be gone (remove=target); the port's directory stays
	port=$(basename "$(dirname "$(ls -d $TGT/srpt/0x*/tpgt_1)")")
	init=$(cat $SHARE/i_port_id)
	tpg=$TGT/srpt/$port/tpgt_1
	echo 0 >"$tpg/enable"
	rm -f "$tpg/acls/$init/lun_0/lun0"
	rmdir "$tpg/acls/$init/lun_0" "$tpg/acls/$init"
	rm -f "$tpg/lun/lun_0/rd0"
	rmdir "$tpg/lun/lun_0" "$tpg" "$TGT/srpt/$port"
	rmdir $TGT/core/rd_mcp_0/rd0 $TGT/core/rd_mcp_0
	rmdir $TGT/srpt
	modprobe -r ib_srpt
}

# the initiator's SCSI disk from ib_srp
host_disk() {
	local h d
	for h in /sys/class/scsi_host/host*; do
		[ "$(cat "$h/proc_name" 2>/dev/null)" = ib_srp ] || continue
		for d in "$h"/device/target*/*/block/*; do
			[ -b "/dev/${d##*/}" ] && { echo "/dev/${d##*/}"; return 0; }
		done
	done
	return 1
}

host_login() {
	local guid dev
	guid=$(cat $SHARE/guid) || return 1
	modprobe ib_srp || return 1
	# the SCSI disk driver (no udev in the guests to load it)
	modprobe sd_mod || return 1
	echo "id_ext=$guid,ioc_guid=$guid,dest=$TARGET_ADDR:$PORT" \
		>"/sys/class/infiniband_srp/srp-$LAB_IBDEV-1/add_target" || return 1
	if ! lab_wait_for 30 host_disk >/dev/null; then
		# a disk attached in the log but not found here: say what is
		echo "no block device of an ib_srp SCSI host after 30 s; what there is:"
		grep -H . /sys/class/scsi_host/host*/proc_name
		ls -l /sys/class/scsi_host/host*/device/target*/*/block/ /dev/sd* 2>&1
		dmesg | grep -E 'ib_srp|scsi|sd ' | tail -n 12
		return 1
	fi
	dev=$(host_disk)
	echo "logged in: $dev, $(cat /sys/block/"${dev#/dev/}"/size) sectors," \
		"max I/O $(cat /sys/block/"${dev#/dev/}"/queue/max_hw_sectors_kb) KiB"
}

host_logout() {
	local p
	for p in /sys/class/srp_remote_ports/port-*; do
		[ -e "$p/delete" ] && echo 1 >"$p/delete"
	done
	lab_wait_for 20 no_disk
}

no_disk() { ! host_disk >/dev/null; }

st_rw_check() {
	local dev
	dev=$(host_disk) || return 1
	lab_disk_check "$dev" "$1" "$JOBS"
}

# --- the skeleton's hooks (storage.sh) ---------------------------------------

st_server_up() {
	lab_check "srp: target on $LAB_STACK exports a ${DISK_MB} MiB RAM disk at $LAB_ADDR:$PORT (ib_srpt)" \
		target_up
}

st_server_data() {
	lab_barrier data-done 900
	if is_softrdma; then
		lab_check "srp: no memory operation failed on the target (mr_op_err 0)" \
			lab_counter_zero mr_op_err
		lab_counters_note target
	fi
	if [ "$LAB_STACK" = siwarp ]; then
		# a buffer ib_srp recycled on its send completion once went
		# out changed, after its CRC (iwarp_tx.c, softrdma_iw_zcopy)
		lab_check "srp: every FPDU the target received had a good CRC (iw_rcv_crc_err 0)" \
			lab_counter_zero iw_rcv_crc_err
	fi
}

st_server_down() {
	lab_check "srp: target removed" target_down
}

st_client_up() {
	lab_check "srp: initiator on $LAB_STACK logs in to the $PEER_STACK target (ib_srp)" \
		host_login
}

st_client_ready() { host_disk >/dev/null; }

st_size_check() {
	echo "srp: $JOBS parallel direct writes and reads of $1 B, data checked"
}

st_client_data() {
	if is_softrdma; then
		lab_check "srp: the initiator fast-registered its I/O buffers (mr_fast_reg > 0)" \
			lab_counter_positive mr_fast_reg
		lab_check "srp: no memory operation failed on the initiator (mr_op_err 0)" \
			lab_counter_zero mr_op_err
		lab_counters_note initiator
	fi
	lab_barrier data-done 900
}

st_load() { host_disk; }

st_client_removed() {
	lab_check "srp: the disk went with the device" lab_wait_for 30 no_disk
}

st_server_removed() {
	lab_check "srp: logged out" host_logout
}

st_client_down() {
	lab_check "srp: logged out" host_logout
}

mkdir -p $SHARE
if [ "$LAB_ID" = 1 ]; then
	g=$(gid0) && echo "0x0000000000000000${g:16}" >$SHARE/i_port_id
fi
lab_barrier ids || exit 1
storage_run
