# SPDX-License-Identifier: GPL-2.0
#
# qp-events: QP attributes as rdma-core callers set them, and the
# affiliated asynchronous events, through the stock providers:
#   lab run --stack sroce,sroce qp-events
#   lab run --stack siwarp,siwarp qp-events
# tools/lab/qp_events.c (built by lab into /var/tmp/softrdma-lab):
# - each guest alone: an RC QP taken RESET -> INIT -> RTR (-> RTS on
#   RoCE) -> ERR with the attributes an IB-style caller passes,
#   ibv_query_qp reading back every value after each step; a QP on an
#   SRQ entering ERR raises IBV_EVENT_QP_LAST_WQE_REACHED; RoCE: the
#   first SEND into a QP in RTR raises IBV_EVENT_COMM_EST, and SQD raises
#   IBV_EVENT_SQ_DRAINED once, also entered under a load of large RDMA
#   WRITEs and READs (all completing, data checked), and on a UD QP;
#   ibv_query_qp's sq_draining set while an RNR-NAKed SEND is outstanding
#   in SQD, clear once it completed; RTS -> RESET with SENDs outstanding
#   and not begun completes none of them, now or in the next life, where
#   only the SEND posted then is sent and received, into a receive posted
#   after the receiver's own INIT -> RESET; both: a full RQ moved
#   INIT -> RESET completes none of its receives, takes a new one back in
#   INIT, and ERR flushes that one alone; iWARP: an address
#   vector, a Q_Key and a path migration state accepted and ignored, an
#   alternate path refused, as by stock siw;
# - guest0 serves, guest1 connects over the RDMA CM: an orderly
#   rdma_disconnect() raises no QP event on either side (the QPs end in
#   ERR); iWARP: once connected, each side's ibv_query_qp reports the
#   connection (RTS, caps as granted, port, rights, the RDMA Read depths
#   the client asked for, crossed on the server, the port's MTU); a WRITE with a wrong rkey raises IBV_EVENT_QP_ACCESS_ERR on the
#   server's QP and nothing on the client's; a SEND into a receive posted
#   with a wrong lkey completes that receive with IBV_WC_LOC_PROT_ERR and
#   raises no QP event on either side (RoCE: the SEND completes with
#   IBV_WC_REM_OP_ERR; iWARP: the server's TERMINATE ends the stream);
#   a SEND longer than the one receive posted completes that receive
#   with IBV_WC_LOC_LEN_ERR and raises no QP event on either side (RoCE:
#   the SEND completes with IBV_WC_REM_INV_REQ_ERR).
# Every "ok - " line of the program is a lab check.

BIN=${QP_EVENTS_BIN:-/var/tmp/softrdma-lab/qp_events}
port=18950
ulimit -l unlimited

# run_checked NAME CMD...: the program's lines as checks, and its exit
run_checked() {
	local name=$1 line
	shift
	lab_run "$@" >"/tmp/$name.out" 2>&1
	echo "exit $?" >>"/tmp/$name.out"
	cp "/tmp/$name.out" "$LAB_OUT/checks/$name.out" 2>/dev/null
	while IFS= read -r line; do
		case $line in
		"ok - "*) lab_check "$name: ${line#ok - }" true ;;
		"not ok - "*) lab_check "$name: ${line#not ok - }" false ;;
		esac
	done <"/tmp/$name.out"
	lab_check "$name: exited 0" grep -qx "exit 0" "/tmp/$name.out"
}

garg=()
[ "$LAB_STACK" = sroce ] && garg=(-g "$(lab_gid_index "$LAB_ADDR")")
run_checked "qp_events-attrs-$LAB_ID" "$BIN" -d "$LAB_IBDEV" "${garg[@]}"

if [ "$LAB_ID" = 0 ]; then
	TMO=60 run_checked qp_events-server "$BIN" -s -a "$LAB_ADDR" -p "$port" &
	lab_wait_for 20 lab_listening "$port"
	lab_barrier qp-events-listening
	wait
else
	lab_barrier qp-events-listening
	TMO=60 run_checked qp_events-client "$BIN" -p "$port" "$(lab_peer_addr 0)"
fi
lab_barrier qp-events-end 120
