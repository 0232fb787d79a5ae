# SPDX-License-Identifier: GPL-2.0
#
# kevents: the QP affiliated events as a kernel consumer sees them,
# through the event_handler of its QPs (qp-events checks the same from
# user space, with ibv_get_async_event):
#   lab run --guests 1 --stack sroce+siwarp kevents
#   lab run --guests 1 --stack sroce kevents      (or siwarp)
# tools/lab/kevents/kevents.c, built by the lab for the guest's kernel
# (tools/lab/build-kevents.sh), runs its checks on the device the RDMA CM
# binds the guest's address to, both ends of every connection on that
# device (loopback), and writes one line per check to the kernel log,
# which this scenario relays:
# - an orderly rdma_disconnect() (after a SEND, data checked) raises no
#   event on either QP, QP_FATAL included; both QPs end in ERR;
# - the same with the server's QP on an SRQ: it raises
#   IB_EVENT_QP_LAST_WQE_REACHED once, and nothing else;
# - a WRITE with an R_Key that names nothing raises QP_ACCESS_ERR on the
#   responder; a SEND longer than the receive WQE, or into a receive WQE
#   whose L_Key names nothing, no event (the receive's completion reports
#   it); the requester raises nothing; a SEND from a buffer whose L_Key
#   names nothing raises nothing either (the send's completion reports
#   it); iWARP: an RDMA READ with local invalidate of a key that cannot
#   be invalidated completes with IB_WC_MW_BIND_ERR, the data in, and
#   raises nothing; the completions' statuses are checked;
# - iWARP, on the wire: each of those five errors ends its stream with
#   one TERMINATE, received by the other end (iw_term_sent and
#   iw_term_rcvd up by 5, iw_term_unsent unchanged): the requester's own
#   failures too, the SEND's sent instead of it and the READ's as it
#   fails (RFC 5040 7.1), the two send WQEs that fail locally
#   (iw_local_err up by 2);
# - RoCE: a QP in RTR raises IB_EVENT_COMM_EST on its first packet, once;
#   RTS -> SQD with IB_QP_EN_SQD_ASYNC_NOTIFY raises SQ_DRAINED.
# With sroce+siwarp the RDMA CM takes the siwarp device first; then it
# is deleted and the checks run again, over sroce.
# lab-needs: kevents

[ "$LAB_ID" = 0 ] || exit 0

RUN=/sys/module/kevents/parameters/run

# kev_iw_counters DEV: iw_local_err iw_term_sent iw_term_unsent
# iw_term_rcvd of a siwarp device, on one line
kev_iw_counters() {
	(cd "/sys/class/infiniband/$1/ports/1/hw_counters" &&
		echo "$(cat iw_local_err) $(cat iw_term_sent)" \
			"$(cat iw_term_unsent) $(cat iw_term_rcvd)")
}

# kev_iw_wire DEV BEFORE AFTER: what the run did on the wire, from
# kev_iw_counters before and after it
kev_iw_wire() {
	local dev=$1 le ts tu tr
	# shellcheck disable=SC2086 # four numbers, split on purpose
	set -- $2 $3
	le=$(($5 - $1)) ts=$(($6 - $2)) tu=$(($7 - $3)) tr=$(($8 - $4))
	lab_check "kevents: $dev: two send WQEs failed locally (iw_local_err +$le)" \
		test "$le" = 2
	lab_check "kevents: $dev: five TERMINATEs sent, none lost (iw_term_sent +$ts, iw_term_unsent +$tu)" \
		test "$ts" = 5 -a "$tu" = 0
	lab_check "kevents: $dev: each TERMINATE received (iw_term_rcvd +$tr)" \
		test "$tr" = 5
}

# kev_run DEV: kevents' checks on the device the RDMA CM binds LAB_ADDR
# to, which must be DEV; each of its lines a check here
kev_run() {
	local dev=$1 log=/tmp/kevents-$1.log line rc=0 before=
	# an iWARP device (siwarp): its node type is RNIC
	! grep -q RNIC "/sys/class/infiniband/$dev/node_type" ||
		before=$(kev_iw_counters "$dev")
	# shellcheck disable=SC2320 # the echo's status is the write's
	echo "$LAB_ADDR" 2>"/tmp/kevents-$dev.err" >"$RUN" || rc=$?
	echo "write: exit $rc" >>"/tmp/kevents-$dev.err"
	dmesg | sed -n 's/^\[[^]]*\] //; s/^kevents: //p' >"$log"
	cp "$log" "/tmp/kevents-$dev.err" "$LAB_OUT/checks/" 2>/dev/null
	lab_check "kevents: the RDMA CM binds $LAB_ADDR to $dev" \
		grep -q "^# $dev (.*) at $LAB_ADDR\$" "$log"
	while IFS= read -r line; do
		case $line in
		"ok - $dev: "*) lab_check "kevents: ${line#ok - }" true ;;
		"not ok - $dev: "*) lab_check "kevents: ${line#not ok - }" false ;;
		esac
	done <"$log"
	lab_check "kevents: $dev: the run ended with no check failed" \
		grep -q "^$dev: [1-9][0-9]* checks, 0 failed\$" "$log"
	lab_check "kevents: $dev: the run's write succeeded" \
		grep -qx "write: exit 0" "/tmp/kevents-$dev.err"
	[ -z "$before" ] ||
		kev_iw_wire "$dev" "$before" "$(kev_iw_counters "$dev")"
}

lab_check "modprobe kevents" modprobe kevents || exit 1
case $LAB_STACK in
sroce+siwarp)
	kev_run "$LAB_IWDEV"
	lab_check "rdma link del $LAB_IWDEV" rdma link del "$LAB_IWDEV"
	kev_run "$LAB_IBDEV"
	;;
sroce | siwarp)
	kev_run "$LAB_IBDEV"
	;;
*)
	lab_fail "kevents: stack $LAB_STACK: sroce, siwarp or sroce+siwarp"
	;;
esac
lab_check "rmmod kevents" rmmod kevents
