# SPDX-License-Identifier: GPL-2.0
# lab-needs: nfs-utils
#
# NFS over RDMA (RFC 8166/8267), the other kernel consumer CI systems
# test on RDMA: guest0's nfsd exports a tmpfs over NFSv4.2 on the RDMA
# transport only (port 20049, no TCP listener), guest1 mounts it with
# proto=rdma, writes files of odd and large sizes, reads them and the
# server's own file back with direct I/O, and does metadata work; the
# server checks the bytes that landed.  Small RPCs travel inline in
# SENDs; a large WRITE's payload is pulled by the server with RDMA READ
# (read chunks), a large READ's pushed with RDMA WRITE (write chunks).
# The client (xprtrdma) registers its buffers with fast-registration
# MRs; the server (svcrdma's rdma_rw) uses MRs of its own on iWARP.
#
# Any two RDMA stacks: --stack SERVER,CLIENT, e.g. sroce,sroce;
# siwarp,siw.  The tools: exportfs and rpc.mountd from Debian's
# nfs-kernel-server, unpacked by tools/lab/nfs-utils.sh (LAB_NFS_SBIN);
# the client mounts with the kernel's text options, no mount.nfs.
# Args: sizes=B1,B2,... (file sizes in bytes, default below), jobs=N
# (files written and read at once, default 4), remove=client or
# remove=server: after the data checks, that side's RDMA device is
# deleted (rdma link del) under a writer's load and its driver
# unloaded; the writer must end with an error (the mount is soft), the
# client unmount and no kernel log warn.  The sequence is the storage
# scenarios' own (tools/lab/storage.sh).

# shellcheck source=/dev/null
. /lab/storage.sh
storage_args nfsrdma server client 1,4095,4096,65535,1048583,8388621
ST_LOAD_MB=16
ST_CLIENT_LOST=240

PORT=20049
EXPORT=/export
MNT=/mnt/nfs
NFSD=/proc/fs/nfsd
SERVER_ADDR=$(lab_peer_addr 0)
SUMS=/lab/nfsrdma

# --- server ---------------------------------------------------------------

server_up() {
	local sbin=$LAB_NFS_SBIN
	[ -x "$sbin/exportfs" ] && [ -x "$sbin/rpc.mountd" ] ||
		{ echo "no NFS server tools in '$sbin'"; return 1; }
	modprobe nfsd || return 1
	modprobe rpcrdma || return 1
	mountpoint -q $NFSD || mount -t nfsd nfsd $NFSD || return 1
	# NFSv4 only: no rpcbind, lockd or statd; a short grace period
	echo "-2 -3 +4 +4.1 +4.2" >$NFSD/versions || return 1
	echo 10 >$NFSD/nfsv4leasetime || return 1
	echo 10 >$NFSD/nfsv4gracetime || return 1
	mkdir -p $EXPORT /var/lib/nfs/v4recovery || return 1
	mount -t tmpfs -o size=256m tmpfs $EXPORT || return 1
	# the guest's /etc and /var are its own (a tmpfs overlay)
	echo "$EXPORT *(rw,sync,fsid=0,no_root_squash,insecure,no_subtree_check)" \
		>/etc/exports || return 1
	: >/var/lib/nfs/etab
	: >/var/lib/nfs/rmtab
	"$sbin/exportfs" -r || return 1
	"$sbin/exportfs" -v
	"$sbin/rpc.mountd" -N 2 -N 3 || return 1
	# the RDMA listener first: with a listener nfsd opens no TCP one
	echo "rdma $PORT" >$NFSD/portlist || return 1
	echo 4 >$NFSD/threads || return 1
	echo "listeners:"
	cat $NFSD/portlist
	grep -qx "rdma $PORT" $NFSD/portlist || return 1
	! grep -q '^tcp' $NFSD/portlist || { echo "a TCP listener too"; return 1; }
	# an iWARP listener is a TCP one; RoCE's is the RDMA CM's own
	case $LAB_STACK in
	siwarp | siw | *+*) lab_wait_listen "$PORT" 20 ;;
	esac
}

server_down() {
	echo 0 >$NFSD/threads || return 1
	"$LAB_NFS_SBIN/exportfs" -ua || return 1
	pkill -x rpc.mountd
	umount $EXPORT || return 1
	umount $NFSD || return 1
	modprobe -r nfsd || return 1
	modprobe -r rpcrdma
}

# server_file: a file made on the server for the client to read
server_file() {
	head -c 3145733 /dev/urandom >$EXPORT/from-server || return 1
	sha256sum <$EXPORT/from-server | cut -d' ' -f1 >$SUMS/from-server
}

# server_sums: what the client wrote, as the server's tmpfs holds it
server_sums() {
	local f name want got rc=0 n=0
	while read -r want name; do
		f=$EXPORT/data/$name
		got=$(sha256sum <"$f" | cut -d' ' -f1)
		if [ "$got" != "$want" ]; then
			echo "$name: $got on the server, the client wrote $want"
			rc=1
		fi
		n=$((n + 1))
	done <$SUMS/client
	echo "$n files checked"
	[ "$n" -gt 0 ] && [ $rc = 0 ]
}

st_server_up() {
	mkdir -p $SUMS
	lab_check "nfsrdma: server on $LAB_STACK exports a tmpfs over NFSv4 on RDMA, $LAB_ADDR:$PORT" \
		server_up
	lab_check "nfsrdma: server makes a 3 MiB + 5 B file" server_file
}

st_server_data() {
	lab_barrier client-wrote 900
	lab_check "nfsrdma: the files the client wrote are on the server, byte for byte" \
		server_sums
	lab_barrier server-checked
	if is_softrdma; then
		if [ "$LAB_STACK" = siwarp ]; then
			# rdma_rw reads a WRITE's payload into MRs of its own
			lab_check "nfsrdma: the siwarp server fast-registered MRs (mr_fast_reg > 0)" \
				lab_counter_positive mr_fast_reg
			lab_check "nfsrdma: the siwarp server's READs invalidated them (mr_local_inv > 0)" \
				lab_counter_positive mr_local_inv
		fi
		lab_check "nfsrdma: no memory operation failed on the server (mr_op_err 0)" \
			lab_counter_zero mr_op_err
		lab_counters_note server
	fi
}

st_server_down() {
	lab_check "nfsrdma: server stops" server_down
}

# --- client ---------------------------------------------------------------

client_mount() {
	local opts=
	modprobe rpcrdma || return 1
	modprobe nfsv4 || return 1
	mkdir -p $MNT || return 1
	# with a device to delete, soft: I/O to a peer that went fails
	# after two 5 s tries instead of waiting for it forever
	[ -n "$REMOVE" ] && opts=,soft,timeo=50,retrans=1
	mount -t nfs4 -o "vers=4.2,proto=rdma,port=$PORT,addr=$SERVER_ADDR$opts" \
		"$SERVER_ADDR:/" $MNT || return 1
	grep " $MNT " /proc/mounts
	grep " $MNT nfs4 .*proto=rdma" /proc/mounts >/dev/null
}

# write_job J: file J of this size from its source, then read back
# with direct I/O (the page cache would answer a buffered read)
write_job() {
	cp "/tmp/src.$1" "$MNT/data/f$size.$1" || return 1
	sync "$MNT/data/f$size.$1" || return 1
	dd if="$MNT/data/f$size.$1" of="/tmp/back.$1" bs=1M iflag=direct \
		status=none
}

# st_rw_check SIZE: JOBS files of SIZE random bytes written at once, read
# back, compared; their sums go to the server
st_rw_check() {
	local size=$1 j rc=0
	mkdir -p $MNT/data || return 1
	for ((j = 0; j < JOBS; j++)); do
		head -c "$size" /dev/urandom >/tmp/src.$j || return 1
	done
	lab_each "$JOBS" write_job || { echo "a writer failed"; return 1; }
	for ((j = 0; j < JOBS; j++)); do
		cmp /tmp/src.$j /tmp/back.$j || rc=1
		echo "$(sha256sum </tmp/src.$j | cut -d' ' -f1) f$size.$j" >>$SUMS/client
	done
	rm -f /tmp/src.* /tmp/back.*
	[ $rc = 0 ] && echo "$JOBS files of $size B written, read back with direct I/O, equal"
	return $rc
}

# read_server_file: the server's own file, by direct I/O
read_server_file() {
	local got
	got=$(dd if=$MNT/from-server bs=1M iflag=direct status=none |
		sha256sum | cut -d' ' -f1)
	echo "client read $got, server made $(cat $SUMS/from-server)"
	[ "$got" = "$(cat $SUMS/from-server)" ]
}

# metadata: many small RPCs (each inline in a SEND)
metadata() {
	local d=$MNT/meta i n
	mkdir -p $d || return 1
	for ((i = 0; i < 60; i++)); do
		echo "$i" >$d/s.$i || return 1
	done
	for ((i = 0; i < 60; i += 2)); do
		mv $d/s.$i $d/t.$i || return 1
	done
	n=$(find $d -name 't.*' | wc -l)
	echo "60 files made, 30 renamed; $n found renamed"
	[ "$n" = 30 ] || return 1
	[ "$(cat $d/t.42)" = 42 ] || return 1
	rm -r $d
	[ ! -e $d ]
}

# client_unmount: forced when the transport is gone (its last RPCs
# time out, soft)
client_unmount() {
	if [ -n "$REMOVE" ]; then
		timeout 180 umount -f $MNT || return 1
	else
		timeout 180 umount $MNT || return 1
	fi
	! grep " $MNT " /proc/mounts
}

st_client_up() {
	lab_check "nfsrdma: client on $LAB_STACK mounts the $PEER_STACK server's export with proto=rdma" \
		client_mount
}

st_client_ready() { grep -q " $MNT " /proc/mounts; }

st_size_check() {
	echo "nfsrdma: $JOBS files of $1 B at once, written and read back, data checked"
}

st_client_more() {
	lab_check "nfsrdma: the server's 3 MiB + 5 B file read with direct I/O, data checked" \
		read_server_file
	lab_check "nfsrdma: 60 small files made, renamed, listed and removed" metadata
}

st_client_data() {
	lab_barrier client-wrote 900
	lab_barrier server-checked 900
	if is_softrdma; then
		lab_check "nfsrdma: the client fast-registered its buffers (mr_fast_reg > 0)" \
			lab_counter_positive mr_fast_reg
		lab_check "nfsrdma: the server invalidated them with its replies (mr_remote_inv > 0)" \
			lab_counter_positive mr_remote_inv
		lab_check "nfsrdma: no memory operation failed on the client (mr_op_err 0)" \
			lab_counter_zero mr_op_err
		lab_counters_note client
	fi
}

st_load() { echo $MNT/load; }

st_client_end() {
	# /proc/mounts, not mountpoint(1): a stat of a dead mount waits
	grep -q " $MNT " /proc/mounts &&
		lab_check "nfsrdma: client unmounts" client_unmount
}

storage_run
