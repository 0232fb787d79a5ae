# SPDX-License-Identifier: GPL-2.0
#
# The skeleton of the storage scenarios (nvmeof.sh, nfsrdma.sh, srp.sh),
# which source it: guest0 serves storage over a kernel RDMA consumer (the
# NVMe target, the NFS server, the SRP target), guest1 uses it (the host,
# the client, the initiator):
#
#   guest0 (SERVER)                 guest1 (CLIENT)
#   st_server_up
#   --------------------- barrier SERVER-up ---------------------
#                                   st_client_up; if st_client_ready:
#                                   for each of SIZES, the check
#                                   "$(st_size_check SIZE)": st_rw_check
#                                   SIZE (JOBS parallel writers and
#                                   readers, data checked); st_client_more
#   st_server_data                  st_client_data
#     (each side's data and counter checks once the client's I/O is
#     done; they meet at barriers of their own)
#   then, with remove=SERVER or remove=CLIENT, that side's device is
#   deleted (rdma link del) under a writer's load from the client
#   (st_load names where it writes, ST_LOAD_MB MiB at a time) and its
#   driver unloaded: the writer must end within ST_CLIENT_LOST or
#   ST_SERVER_LOST seconds, then st_client_removed or st_server_removed
#   checks what else went; without remove=, st_client_down
#                                   st_client_end
#   --------------------- barrier ST_DONE -----------------------
#   st_server_down
#   --------------------- barrier finished ----------------------
#
# A scenario calls storage_args, sets its constants, defines the hooks it
# needs (the st_* functions below are the defaults) and calls
# storage_run.

# storage_args NAME SERVER CLIENT SIZES: the check names' prefix, the two
# roles' names (what remove= takes) and the default sizes; parses the
# scenario's arguments sizes=B1,B2,... jobs=N remove=SERVER|CLIENT into
# SIZES, JOBS (default 4) and REMOVE, and sets PEER_STACK
storage_args() {
	local arg
	ST_NAME=$1
	ST_SERVER=$2
	ST_CLIENT=$3
	SIZES=$4
	JOBS=4
	REMOVE=
	for arg in $LAB_SCENARIO_ARGS; do
		case $arg in
		sizes=*) SIZES=${arg#sizes=} ;;
		jobs=*) JOBS=${arg#jobs=} ;;
		remove="$ST_SERVER" | remove="$ST_CLIENT") REMOVE=${arg#remove=} ;;
		*) lab_fail "$ST_NAME: unknown argument $arg"; exit 1 ;;
		esac
	done
	PEER_STACK=${LAB_STACKS[$((1 - LAB_ID))]}
	ST_DONE=$ST_CLIENT-done
	ST_LOAD_MB=48
	ST_CLIENT_LOST=90
	ST_SERVER_LOST=240
}

is_softrdma() { [ "$LAB_STACK" = sroce ] || [ "$LAB_STACK" = siwarp ]; }

# the hooks a scenario may leave out
st_client_more() { :; }
st_client_removed() { :; }
st_server_removed() { :; }
st_client_down() { :; }
st_client_end() { :; }

# storage_server_remove: remove=SERVER on guest0, at the client's writer
storage_server_remove() {
	[ "$REMOVE" = "$ST_SERVER" ] || return 0
	lab_barrier writing
	sleep 2
	lab_remove_device "$ST_NAME" "$ST_SERVER"
	lab_barrier "$ST_SERVER-removed"
}

# storage_client_remove: the client's side of remove=
storage_client_remove() {
	case $REMOVE in
	"$ST_CLIENT")
		lab_start_writer "$(st_load)" "$ST_LOAD_MB"
		sleep 2
		lab_remove_device "$ST_NAME" "$ST_CLIENT"
		lab_check "$ST_NAME: the writer ended when the $ST_CLIENT's device went" \
			lab_ended "$WRITER" "$ST_CLIENT_LOST" /tmp/writer.err
		st_client_removed
		;;
	"$ST_SERVER")
		lab_start_writer "$(st_load)" "$ST_LOAD_MB"
		lab_barrier writing
		lab_barrier "$ST_SERVER-removed" 200
		lab_check "$ST_NAME: the writer ended when the $ST_SERVER's device went" \
			lab_ended "$WRITER" "$ST_SERVER_LOST" /tmp/writer.err
		st_server_removed
		;;
	*)
		st_client_down
		;;
	esac
}

storage_run() {
	local s sizes
	if [ "$LAB_ID" = 0 ]; then
		st_server_up
		lab_barrier "$ST_SERVER-up" || exit 1
		st_server_data
		storage_server_remove
		lab_barrier "$ST_DONE" 900
		st_server_down
		lab_barrier finished || exit 1
		exit 0
	fi

	lab_barrier "$ST_SERVER-up" || exit 1
	st_client_up
	if st_client_ready; then
		IFS=, read -r -a sizes <<<"$SIZES"
		for s in "${sizes[@]}"; do
			lab_check "$(st_size_check "$s")" st_rw_check "$s"
		done
		st_client_more
	fi
	st_client_data
	storage_client_remove
	st_client_end
	lab_barrier "$ST_DONE" 900
	lab_barrier finished || exit 1
	exit 0
}
