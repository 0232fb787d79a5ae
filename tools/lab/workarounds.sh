# SPDX-License-Identifier: GPL-2.0
#
# Workarounds for bugs of the stock software the lab runs beside softrdma
# (stock siw, perftest, rping), sourced in every guest after lib.sh.  None
# is softrdma's: each recognizes exactly one known failure of another
# program, so that the lab notes it and runs the attempt again (or takes
# the exit as clean) instead of failing softrdma's check.  Each names its
# bug; when the bug is gone from the software the lab runs, its
# workaround goes.
#
#   stock siw (Linux 6.1, drivers/infiniband/sw/siw): siw_accept() sends
#     the MPA reply before siw_qp_socket_assoc() hands the socket's
#     receive upcall to the QP; FPDUs arriving in between stay unread in
#     the socket until more bytes come (Documentation/design.md).
#     _lab_siw_unread, _lab_peer_race, _lab_ask_peer_race; used by
#     lab_pair and lab_timeout.
#   perftest 4.5 (Debian 12), -R: the client connects its rdma_cm data
#     QPs as soon as the handshake is done, before the server's
#     rdma_listen(); newer perftest retries that connect itself.
#     LAB_PERFTEST_CM_RACE, for lab_pair's LAB_PAIR_RACE.
#   rping (rdma-core 44): main destroys the CM event channel while the
#     CM thread may still read it, fixed upstream by rdma-core pull
#     request 1622.  lab_rping_exit_race.
#   rping (rdma-core 44) -P: its CM thread puts each connection
#     request's CM id into the listener's control block and wakes the
#     main thread, which copies that block for a new server thread; a
#     second request before the copy gives the second id to two server
#     threads and the first to none.  One of the two then finds the id
#     with the other's QP (rdma_create_qp: Invalid argument), or both
#     use it and one calls rdma_accept on it after the other has
#     destroyed it, or one disconnects it after the other has destroyed
#     its QP.  Fixed upstream by rdma-core pull request 1568 (rdma-core
#     57).  lab_rping_shared_id.

# _lab_siw_unread PORT: "LOCAL PEER RECV-Q" of each TCP connection on local
# port PORT whose receive queue holds bytes (more than one: a FIN counts
# one, and no FPDU is that short).
_lab_siw_unread() {
	ss -tanH | awk -v p=":$1" '
		$1 != "LISTEN" && $2 > 1 && substr($4, length($4) - length(p) + 1) == p {
			print $4, $5, $2
		}' | sort
}

# _lab_peer_race PORT (on the server's guest, after its client failed):
# print the known race of a stock driver here that explains the failure,
# or "none".
#
# Stock siw of 6.1 (siw_accept) sends its MPA reply before it hands the
# socket's receive upcall to the QP, and its connection manager's upcall
# ignores data meanwhile: FPDUs that arrive in that window stay in the
# socket unread until more bytes arrive.  A client that sends first and
# then waits for an answer (perftest's -R handshake does) waits forever.
# Rare (a TCG guest paused by its host in the window), and not softrdma's
# to mend; the signature: the server is siw and a connection on the pair's
# port holds the same unread bytes two seconds apart (a live siw QP reads
# its socket empty on every arrival).
_lab_peer_race() {
	local q1 q2
	case "+$LAB_STACK+" in
	*+siw+*) ;;
	*)
		echo none
		return
		;;
	esac
	q1=$(_lab_siw_unread "$1")
	if [ -n "$q1" ]; then
		sleep 2
		q2=$(_lab_siw_unread "$1")
		if [ "$q1" = "$q2" ]; then
			echo "stock siw left received bytes unread (local peer bytes: $(echo $q1)), the race of its accept"
			return
		fi
	fi
	echo none
}

# _lab_ask_peer_race VERDICT: ask the server's guest (see _lab_peer_race),
# unless asked already; print its answer and succeed if a known race
# explains the failure.
_lab_ask_peer_race() {
	local answer
	[ -e "$1.ask" ] || : >"$1.ask"
	lab_wait_for 30 test -e "$1.peer" || return 1
	answer=$(cat "$1.peer")
	[ -n "$answer" ] && [ "$answer" != none ] || return 1
	echo "$answer"
}

# perftest 4.5 (Debian 12) connects its rdma_cm data QPs (-R) as soon as
# its handshake is done, without waiting for the server's rdma_listen.  The
# connect can then meet no listener: on iWARP the TCP SYN is refused (stock
# siw <-> siw as well), on RoCE the IB CM rejects the REQ with reason 8
# (invalid service ID).  Newer perftest retries that connect itself.  What
# the client prints then, for LAB_PAIR_RACE:
LAB_PERFTEST_CM_RACE='RDMA_CM_EVENT_REJECTED; error: (-111|8)\.|ERRNO: Connection refused'

# lab_rping_exit_race RC < OUTPUT: rping (rdma-core 44) that exited with
# RC after printing OUTPUT met its own exit race, fixed upstream in 2025
# (rdma-core pull request 1622): once its run has ended, main destroys
# the CM event channel while the CM thread may be about to read it again,
# and that thread then exits the process with 255 ("rdma_get_cm_event:
# Bad file descriptor").  Succeeds only for exactly that: status 255,
# that line last, and before it nothing but a run's normal lines (the
# pings, the disconnect, and the server's "wait for RDMA_READ_ADV state
# 10", which is how its loop ends on a disconnect); then it is noted, and
# the caller takes the exit as 0.  A client's caller still counts its
# pings.
lab_rping_exit_race() {
	[ "$1" = 255 ] || return 1
	awk '
		/^(server )?ping data: / { next }
		/^(server|client) DISCONNECT EVENT\.\.\.$/ { next }
		/^wait for RDMA_READ_ADV state 10$/ { next }
		/^rdma_get_cm_event: Bad file descriptor$/ { seen = NR; next }
		{ other = 1 }
		END { exit !(seen && seen == NR && !other) }' || return 1
	lab_note "${CUR:+$CUR: }rping's own exit race on guest$LAB_ID (exit $1 after a complete run)"
}

# lab_rping_shared_id OUTPUT STACK: a death of rping -P (rdma-core 44)
# whose output (all its runs) is OUTPUT and whose crashing thread's stack,
# as hostile-peer's gdb_stack prints it ("SIGNAL in fn <- fn <- ..."), is
# STACK came from its race of the shared CM id: OUTPUT shows the race
# (an id given to a second thread: that thread's rdma_create_qp finds the
# other's QP on it, or its rdma_accept finds the id accepted already) and
# the thread died in librdmacm either setting up a QP for or accepting on
# a CM id (rdma_init_qp_attr's first read of the id: the freed id's
# memory), or moving the id's QP to ERR in rdma_disconnect after the
# other thread destroyed that QP (ibv_modify_qp calls through the freed
# QP's context: the fault is at a heap address, "??"), or posting a work
# request in rping_test_server after its accept on a QP that the other
# thread destroyed.  That last one happens when both threads' rdma_create_qp
# ran at once: each passed librdmacm's "no QP on this id yet" test, each
# then read back the id's one QP, the second rdma_accept was refused and
# its thread destroyed the QP on the way out while the first posted to
# it.  libsiw's post_send then reads a send queue ring that is no longer
# mapped.  A crash in libsiw is taken as this only when it is a call
# from one of rping_test_server's four ibv_post_send()s, called from the
# server thread, in Debian 12's rping (rdmacm-utils 44.0-2): return
# addresses RPING_POST_SEND and RPING_TEST_SERVER; another rping build
# fails the check.
# Prints what it found; succeeds only for exactly that.
RPING_POST_SEND='rping\+0x(3b0f|3b7b|3c0c|3c4f)'
RPING_TEST_SERVER='rping\+0x4aa6'
lab_rping_shared_id() {
	local shared refused
	shared=$(grep -Ec '^rdma_(create_qp|accept): Invalid argument$' "$1")
	refused=$(grep -Ec '^rdma_accept: Invalid argument$' "$1")
	echo "CM ids rping gave a second server thread: $shared ($refused refused accepts)"
	echo "stack: $2"
	[ "$shared" -gt 0 ] || return 1
	[[ $2 =~ ^SIGSEGV\ in\ rdma_init_qp_attr\ \<-\ (librdmacm[^ ]*\ \<-\ )*(rdma_accept|rdma_create_qp_ex|rdma_create_qp)\ \<- ]] ||
		[[ $2 =~ ^SIGSEGV\ in\ [^\ ]+\ \<-\ ibv_modify_qp\ \<-\ (librdmacm[^ ]*\ \<-\ )*rdma_disconnect\ \<- ]] ||
		{ [ "$refused" -gt 0 ] &&
			[[ $2 =~ ^SIGSEGV\ in\ libsiw-rdmav34\.so\+0x[0-9a-f]+\ \<-\ $RPING_POST_SEND\ \<-\ $RPING_TEST_SERVER\ \<-\ start_thread\ \<- ]]; } ||
		return 1
	lab_note "${CUR:+$CUR: }rping -P's own race on guest$LAB_ID: a CM id given to two server threads, used after one destroyed it"
}
