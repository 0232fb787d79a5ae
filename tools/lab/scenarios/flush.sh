# SPDX-License-Identifier: GPL-2.0
#
# flush: IBA 1.5 FLUSH to global visibility between librxe devices, on
# kernels whose RDMA core carries it (6.12):
#   lab run --kernel 6.12 --stack sroce,sroce flush
#   lab run --kernel 6.12 --stack sroce,rxe flush  (rxe's requests)
#   lab run --kernel 6.12 --stack rxe,sroce flush  (rxe's memory)
# guest0 owns the memory, guest1 posts: tools/lab/flush_verbs.c (built on
# the host by tools/lab/lab) writes each FLUSH into the QP's send ring as
# librxe 47's ibv_wr_flush() lays it out (rdma-core 44 has no verb for
# it, and no kernel work request carries one), and checks the
# completions (IBV_WC_FLUSH for a range and for a whole MR; a remote
# access error for an MR without FLUSH access, a range past the MR's end
# and a wrong R_Key) and, on the server, every byte of both MRs.  Each
# end's device counters go into the notes.
#
# Stock rxe computes a FLUSH's ICRC over its headers twice (its opcode
# table gives RC FLUSH no payload offset).  softrdma takes such a FLUSH
# (counted in rcv_icrc_rxe_flush), so rxe's requests pass (sroce,rxe);
# stock rxe drops softrdma's FLUSHes, whose ICRC is annex A17.8's, as
# corrupt (rxe,sroce).  There (flush_verbs -l) a FLUSH must not complete
# successfully, and softrdma's end must show why: its requests given up
# in retry_exceeded_err.

FV_BIN=${FLUSH_VERBS_BIN:-/var/tmp/softrdma-lab/flush_verbs}
port=18950

gid=$(lab_gid_index "$LAB_ADDR") || gid=1
lab_note "stack $LAB_STACK dev $LAB_IBDEV gid index $gid"

lost=()
[ "${LAB_STACKS[0]}" = rxe ] && [ "${LAB_STACKS[1]}" = sroce ] && lost=(-l)
if lab_built flush_verbs "$FV_BIN"; then
	lab_pair flush_verbs 90 lab_run "$FV_BIN" -d "$LAB_IBDEV" -g "$gid" \
		"${lost[@]}"
fi
if [ ${#lost[@]} -gt 0 ] && [ "$LAB_STACK" = sroce ]; then
	lab_check "FLUSHes to stock rxe unanswered until the retries ran out" \
		lab_counter_positive retry_exceeded_err
fi
if [ "${LAB_STACKS[0]}" = sroce ] && [ "${LAB_STACKS[1]}" = rxe ] &&
	[ "$LAB_ID" = 0 ]; then
	lab_check "stock rxe's FLUSHes taken with their ICRC" \
		lab_counter_positive rcv_icrc_rxe_flush
	lab_check "no packet of stock rxe's dropped for its ICRC" \
		lab_counter_zero rcv_icrc_err
fi
lab_note "$LAB_STACK counters: $(rdma statistic show link "$LAB_IBDEV/1" |
	tr -s ' \n' ' ')"

lab_barrier unload
if [ "$LAB_STACK" = sroce ]; then
	lab_check "rmmod softrdma with $LAB_IBDEV present" rmmod softrdma
fi
exit 0
