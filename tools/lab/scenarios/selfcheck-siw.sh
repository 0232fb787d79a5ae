# SPDX-License-Identifier: GPL-2.0
#
# selfcheck-siw: proves the lab with the stock siw driver (built by the lab).
#   lab run --stack siw selfcheck-siw
# guest0 runs an rping server, guest1 the client; -V makes rping compare the
# data it reads back with what it sent, -v on the client prints each ping so
# the scenario can count that all of them ran.

PORT=7174
COUNT=10
SIZE=64

case $LAB_ID in
0)
	timeout 90 rping -s -a "$LAB_ADDR" -p "$PORT" -V -C "$COUNT" >/tmp/rping-server.log 2>&1 &
	srv=$!
	lab_check "rping server listening" lab_wait_listen "$PORT" 30
	lab_barrier listening
	lab_check "rping server exited 0" wait "$srv"
	cp /tmp/rping-server.log "$LAB_OUT/rping-server.log"
	lab_check "rping server reported no errors" \
		lab_grep_absent 'mismatch\|error\|fail' "$LAB_OUT/rping-server.log"
	;;
1)
	lab_barrier listening
	client() {
		timeout 60 rping -c -a "$(lab_peer_addr 0)" -p "$PORT" -v -V \
			-C "$COUNT" -S "$SIZE" >/tmp/rping-client.log 2>&1
		local rc=$?
		cat /tmp/rping-client.log
		[ $rc -eq 0 ] || return $rc
		! grep -q 'mismatch\|verification failed' /tmp/rping-client.log
	}
	lab_check "rping client -V -C $COUNT -S $SIZE" lab_retry 3 2 client
	n=$(grep -c '^ping data: ' /tmp/rping-client.log)
	lab_check "rping client did $COUNT validated pings (saw $n)" test "$n" = "$COUNT"
	;;
*)
	lab_barrier listening
	;;
esac
lab_barrier "done"
