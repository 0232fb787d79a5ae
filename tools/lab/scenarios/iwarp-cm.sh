# SPDX-License-Identifier: GPL-2.0
#
# iwarp-cm: iWARP connection management (iw_cm.c) between two guests, each
# a softrdma siwarp device or the stock siw.
#   lab run --stack siwarp,siwarp iwarp-cm
#   lab run --stack siwarp,siw iwarp-cm
#   lab run --stack siw,siwarp iwarp-cm
# Parts (optional args pick some, default all):
#  refused  each guest in turn connects (rping -c -C 1) to a port nobody
#           listens on: RDMA_CM_EVENT_REJECTED at once, not a hang
#  listen   on siwarp guests: 20 (cycles=N) listen/destroy cycles (rping -s
#           killed), on the address and on the wildcard; the TCP listener
#           follows
#  mpa      a plain-TCP MPA peer (Python, below) against a siwarp listener:
#           markers refused with a reject reply; a peer that never sends
#           its request is dropped after the MPA timeout; the listener
#           survives both; revision 1 and 2 requests get replies of their
#           revision, with CRC when asked
#  rping    rping -V, 500 (pings=N) x 64 B and x 65535 B, each guest as server
#           (about two minutes for 500 pings under TCG), all of it N
#           (rounds=N) times; a stalled run is reported with both ends'
#           state, and a stock siw server's accept race is run again
#  connects 100 (connects=N) short rping connections (-V -C 2), each guest
#           in turn serving them (rping -s -P): all must complete between
#           siwarp guests (with a stock siw end: a note)
#  ucmatose between two siwarp guests
#  hijack   between two siwarp guests (tools/lab/iw_hijack.c): on guest1 a
#           process creates its CM ID and QP (INIT) towards guest0; another
#           process calls rdma_connect() naming that QP's number and no QP
#           of its own: refused, the first QP still in INIT; then the
#           owner connects with its QP and one SEND goes there and back
#  vanish   a transfer whose server goes away (process killed, rdma link
#           del, eth0 down): the client gets an error, not a hang, and a
#           softrdma client's rping then exits (a stock siw client's rping
#           sometimes sits in its teardown: noted, with its threads' kernel
#           stacks; a stock siw client of a server whose eth0 went down
#           while the connection was idle never hears of it, siw having
#           no keepalive: noted too)
#  unload   on siwarp guests: rdma link del and rmmod with a listener and a
#           connection up
# The lab fails any guest whose kernel log has a warning.

# each part has its own ports: parts run on some guests only
PORT=7400
PEER=$((1 - LAB_ID))
PEER_STACK=${LAB_STACKS[$PEER]}
PEER_ADDR=$(lab_peer_addr "$PEER")
MPA_PEER=/tmp/mpa_peer.py

# "pings=N": N pings per rping run (default 500); "rounds=N": the rping
# part N times (default 1); "cycles=N": listen cycles per address (default
# 20); "connects=N": connections per connects run (default 100)
RPING_COUNT=500
RPING_ROUNDS=1
LISTEN_CYCLES=20
CONNECTS=100
PARTS=
for a in $LAB_SCENARIO_ARGS; do
	case $a in
	pings=*) RPING_COUNT=${a#pings=} ;;
	rounds=*) RPING_ROUNDS=${a#rounds=} ;;
	cycles=*) LISTEN_CYCLES=${a#cycles=} ;;
	connects=*) CONNECTS=${a#connects=} ;;
	*) PARTS="$PARTS $a" ;;
	esac
done
want() { [ -z "$PARTS" ] || [[ " $PARTS " == *" $1 "* ]]; }
# each part's time on this guest, for choosing what make test runs
part_t0=$SECONDS
part_time() {
	lab_note "time: $1 took $((SECONDS - part_t0)) s"
	part_t0=$SECONDS
}
is_siwarp() { [ "$LAB_STACK" = siwarp ]; }
lab_note "stack $LAB_STACK dev $LAB_IBDEV, peer $PEER_STACK"
# siw caps a registration at RLIMIT_MEMLOCK, even for root (lab-notes)
ulimit -l unlimited

if is_siwarp; then
	# short enough for the "silent peer" check, long enough for TCG
	echo 3000 >/sys/module/softrdma/parameters/iw_mpa_timeout_ms
	# connection ends say why in the kernel log (dynamic debug)
	mount -t debugfs none /sys/kernel/debug 2>/dev/null
	echo 'module softrdma +p' >/sys/kernel/debug/dynamic_debug/control 2>/dev/null
fi

# a plain-TCP MPA initiator (RFC 5044 7.1, RFC 6581 5)
cat >"$MPA_PEER" <<'PY'
import socket, struct, sys
KEY_REQ, KEY_REP = b"MPA ID Req Frame", b"MPA ID Rep Frame"
M, C, R, H = 0x80, 0x40, 0x20, 0x10
def recv_exact(s, n):
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c:
            raise EOFError("closed after %d of %d bytes" % (len(b), n))
        b += c
    return b
mode, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
opts = dict(a.split("=", 1) for a in sys.argv[4:])
s = socket.create_connection((host, port), timeout=30)
if mode == "silent":
    # send nothing; the responder must give up on us
    try:
        print("closed" if not s.recv(1) else "data")
    except socket.timeout:
        print("open")
    except ConnectionError:
        print("closed")
    sys.exit(0)
rev = int(opts.get("rev", "2"))
flags = (C if opts.get("crc") == "1" else 0) | (M if opts.get("markers") == "1" else 0)
pd = opts.get("pd", "").encode()
if rev == 2:
    flags |= H
    pd = struct.pack(">HH", 4, 4) + pd
s.sendall(KEY_REQ + struct.pack(">BBH", flags, rev, len(pd)) + pd)
try:
    hdr = recv_exact(s, 20)
except (EOFError, ConnectionError) as e:
    print("noreply %s" % e)
    sys.exit(1)
f, r, n = struct.unpack(">BBH", hdr[16:])
body = recv_exact(s, n)
print("key %s" % ("ok" if hdr[:16] == KEY_REP else "bad"))
print("rev %d" % r)
print("markers %d" % bool(f & M))
print("crc %d" % bool(f & C))
print("reject %d" % bool(f & R))
print("enhanced %d" % bool(f & H))
if f & H and len(body) >= 4:
    ird, ord_ = struct.unpack(">HH", body[:4])
    print("ird %d\nord %d\np2p %d" % (ird & 0x3fff, ord_ & 0x3fff, ird >> 15))
    body = body[4:]
print("pd %s" % body.decode(errors="replace"))
PY

# every rping this guest started, for cleanup between parts
kill_rpings() {
	pkill -x rping 2>/dev/null
	lab_wait_for 20 sh -c '! pgrep -x rping >/dev/null'
}

no_listener() { ! ss -ltnH "sport = :$1" | grep -q .; }

# --- refused ---------------------------------------------------------------
# A TCP reset to the SYN: softrdma reports the iw_cm's -ECONNREFUSED, the
# application's RDMA_CM_EVENT_REJECTED; stock siw connects synchronously and
# fails rdma_connect() itself with ECONNREFUSED.  Two checks: the error
# reaches rping at once, and rping then exits.  A stock siw guest's rping
# prints the error at once but then sits in its teardown until killed (40 s
# here, lab-notes); that is stock siw's, so on a siw guest it is a note
# with the stuck threads' kernel stacks, not a check.
refused_error() {
	lab_wait_for 20 grep -q 'RDMA_CM_EVENT_REJECTED\|rdma_connect: Connection refused' \
		/tmp/refused.log
	local rc=$?
	cat /tmp/refused.log
	! grep -q '^ping data' /tmp/refused.log && [ $rc -eq 0 ]
}

# gone_within SECS PID: PID exits within SECS seconds
gone_within() {
	lab_wait_for "$1" sh -c "! kill -0 $2 2>/dev/null"
}

# note_stuck_rping WHAT SECS PID: a client's rping (PID) is still running
# SECS s after its error: note where each of its threads waits, then end it
# (waiting for its own timeout would tell nothing more)
note_stuck_rping() {
	local task
	for task in "/proc/$3"/task/*; do
		lab_note "$1 on $LAB_STACK: rping still running $2 s after the error;" \
			"task ${task##*/} $(tr '\n' ' ' <"$task/stack" 2>/dev/null)"
	done
	kill "$3" 2>/dev/null
}

# rping_gone WHAT SECS PID RPING: the client (PID; RPING its rping process)
# ends within SECS s of its error: a check on a siwarp client, on stock siw
# only a note when it does not (its teardown may hang: siw flushes nothing
# re-posted after the QP entered ERR); a stuck rping is noted with where
# its threads wait, then ended.  A stock client gets 5 s at most: a note
# does not need the full wait.
rping_gone() {
	local secs=$2
	if is_siwarp; then
		lab_check "$1: rping exits after the error" gone_within "$secs" "$3" &&
			return
	else
		[ "$secs" -le 5 ] || secs=5
		gone_within "$secs" "$3" && return
	fi
	note_stuck_rping "$1" "$secs" "$4"
}

refused_client() {
	local pid t
	t=$SECONDS
	timeout 40 rping -c -a "$PEER_ADDR" -p "$1" -C 1 -S 64 >/tmp/refused.log 2>&1 &
	pid=$!
	lab_check "refused: client on a closed port gets the error at once" \
		refused_error
	rping_gone refused 20 "$pid" "$(pgrep -x -P "$pid" rping)"
	wait "$pid"
	lab_note "refused: rping exit $? after $((SECONDS - t)) s"
}

if want refused; then
	PORT=7401
	for c in 0 1; do
		lab_barrier "refused-$c"
		[ "$LAB_ID" = "$c" ] && refused_client "$PORT"
	done
	lab_barrier refused-done 120
	part_time refused
fi

# --- listen ----------------------------------------------------------------
listen_cycles() {
	local addr=$1 port=$2 i pid
	for ((i = 0; i < LISTEN_CYCLES; i++)); do
		rping -s -a "$addr" -p "$port" >/dev/null 2>&1 &
		pid=$!
		lab_wait_listen "$port" 20 || { echo "cycle $i: no listener"; return 1; }
		kill "$pid"
		wait "$pid"
		lab_wait_for 20 no_listener "$port" ||
			{ echo "cycle $i: listener left behind"; ss -ltn; return 1; }
	done
	echo "$LISTEN_CYCLES cycles"
}

if want listen && is_siwarp; then
	PORT=7402
	lab_check "listen: $LISTEN_CYCLES listen/destroy cycles on $LAB_ADDR" \
		listen_cycles "$LAB_ADDR" "$PORT"
	lab_check "listen: $LISTEN_CYCLES listen/destroy cycles on 0.0.0.0" \
		listen_cycles 0.0.0.0 "$PORT"
	# the wildcard listens on this netdev's addresses, so it shows them
	rping -s -p "$PORT" -a 0.0.0.0 >/dev/null 2>&1 &
	lab_check "listen: a wildcard listens on $LAB_ADDR:$PORT" \
		lab_wait_for 20 sh -c "ss -ltnH | grep -q '$LAB_ADDR:$PORT'"
	kill_rpings
	lab_check "listen: no listener left" lab_wait_for 20 no_listener "$PORT"
	part_time listen
fi

# --- mpa -------------------------------------------------------------------
mpa_expect() {
	local out=$1
	shift
	cat "$out"
	local want
	for want in "$@"; do
		grep -qx "$want" "$out" || { echo "missing: $want"; return 1; }
	done
}

if want mpa && [ "${LAB_STACKS[0]}" = siwarp ]; then
	PORT=7403
	if [ "$LAB_ID" = 0 ]; then
		timeout 120 rping -s -a "$LAB_ADDR" -p "$PORT" -C 1 >/tmp/mpa-srv.log 2>&1 &
		lab_wait_listen "$PORT" 20
	fi
	lab_barrier mpa-listening
	if [ "$LAB_ID" = 1 ]; then
		s=$(lab_peer_addr 0)
		python3 "$MPA_PEER" req "$s" "$PORT" rev=2 markers=1 pd=m >/tmp/mpa-m.out 2>&1
		lab_check "mpa: a request for markers is rejected" \
			mpa_expect /tmp/mpa-m.out "key ok" "reject 1" "markers 0"
		python3 "$MPA_PEER" silent "$s" "$PORT" >/tmp/mpa-s.out 2>&1
		lab_check "mpa: a peer that never sends its request is dropped" \
			mpa_expect /tmp/mpa-s.out closed
		python3 "$MPA_PEER" req "$s" "$PORT" rev=1 crc=1 pd=one >/tmp/mpa-1.out 2>&1
		lab_check "mpa: revision 1 request, revision 1 reply with CRC" \
			mpa_expect /tmp/mpa-1.out "key ok" "rev 1" "crc 1" "enhanced 0"
	fi
	lab_barrier mpa-done
	if [ "$LAB_ID" = 0 ]; then
		kill_rpings
		cp /tmp/mpa-srv.log "$LAB_OUT/checks/mpa-srv.out"
	fi
	part_time mpa
fi

# --- rping -----------------------------------------------------------------
# One rping -V run, guest SRV serving, through lab_pair (lab_rping_checked:
# the client compares and counts every ping).  Each attempt has its own
# timeout, a minute and half a second per ping (under TCG 100 pings take
# seconds), so that a stall is reported while both ends still stand: the
# client's rping threads' kernel stacks and QPs (softrdma's with their
# engines' state), the server's sockets on the port, its rping threads'
# kernel stacks and QPs ($LAB_OUT/checks/*.srv.asked.state).  A stock siw
# server that lost its accept race (workarounds.sh, _lab_peer_race) is
# noted and the attempt runs again on a new port.
rping_part() {
	local srv=$1 size=$2 count=$3 name
	name=rping-guest$srv-serves-${count}x$size
	[ "$RPING_ROUNDS" = 1 ] || name=$name-round$round
	LAB_PAIR_SERVER=$srv lab_pair "$name" $((60 + count / 2)) \
		lab_rping_checked "$count" "$size"
}

if want rping; then
	# lab_pair's ports: up to LAB_PAIR_TRIES for each run
	port=7470
	for ((round = 1; round <= RPING_ROUNDS; round++)); do
		for srv in 0 1; do
			rping_part "$srv" 64 "$RPING_COUNT"
			rping_part "$srv" 65535 "$RPING_COUNT"
		done
	done
	part_time rping
fi

# --- connects --------------------------------------------------------------
# Many short connections, each guest in turn serving them (rping -s -P, a
# thread per connection).  A client sends its first message the moment it
# is connected, while the server's QP is being handed the socket (a
# first FPDU must not be lost there), and tears down right after its
# second ping (a receive re-posted after the flush must still complete).
# Between siwarp guests every client must finish its 2 validated pings;
# with a stock siw end the count is a note: stock siw loses a few such
# clients even against itself.
connects_client() {
	local i ok=0
	for ((i = 0; i < CONNECTS; i++)); do
		if timeout 20 rping -c -v -a "$PEER_ADDR" -p "$PORT" -V -C 2 -S 64 \
			>/tmp/connects.log 2>&1 &&
			[ "$(grep -c "^ping data" /tmp/connects.log)" -eq 2 ]; then
			ok=$((ok + 1))
		else
			echo "connection $i failed:"
			cat /tmp/connects.log
		fi
	done
	echo "$ok of $CONNECTS connections completed their pings"
	[ "$ok" = "$CONNECTS" ]
}

connects_part() {
	local srv=$1 name
	PORT=$((PORT + 1))
	name="connects: $CONNECTS rping -V -C 2 clients to guest$srv"
	if [ "$LAB_ID" = "$srv" ]; then
		timeout 900 rping -s -P -a "$LAB_ADDR" -p "$PORT" -V -S 64 \
			>"/tmp/connects-srv-$PORT.log" 2>&1 &
		local pid=$!
		lab_wait_listen "$PORT" 20
		lab_barrier "connects-$PORT"
		lab_barrier "connects-$PORT-done" 900
		lab_check "connects: guest$srv's persistent server still running" \
			kill -0 "$pid"
		kill_rpings
	else
		lab_barrier "connects-$PORT"
		if is_siwarp && [ "$PEER_STACK" = siwarp ]; then
			lab_check "$name" connects_client
		else
			connects_client >"$LAB_OUT/connects-$PORT.log" 2>&1
			lab_note "$name: $(tail -1 "$LAB_OUT/connects-$PORT.log")"
		fi
		lab_barrier "connects-$PORT-done" 900
	fi
}

if want connects; then
	PORT=7450
	connects_part 0
	connects_part 1
	part_time connects
fi

# --- ucmatose --------------------------------------------------------------
# ucmatose: 10 SENDs of 100 B each way, and an orderly disconnect
ucmatose_srv() {
	cat /tmp/ucmatose-srv.log
	grep -qx 'rc 0' /tmp/ucmatose-srv.log &&
		grep -q '^data transfers complete' /tmp/ucmatose-srv.log
}

ucmatose_cli() {
	timeout 120 ucmatose -s "$PEER_ADDR" -p "$1" >/tmp/ucmatose-cli.log 2>&1
	local rc=$?
	cat /tmp/ucmatose-cli.log
	[ $rc -eq 0 ] && grep -q '^data transfers complete' /tmp/ucmatose-cli.log
}

if want ucmatose && [ "${LAB_STACKS[0]}" = siwarp ] && [ "${LAB_STACKS[1]}" = siwarp ]; then
	PORT=7420
	if [ "$LAB_ID" = 0 ]; then
		timeout 120 ucmatose -b "$LAB_ADDR" -p "$PORT" >/tmp/ucmatose-srv.log 2>&1 &
		pid=$!
		lab_wait_listen "$PORT" 20
		lab_barrier ucmatose
		wait "$pid"
		echo "rc $?" >>/tmp/ucmatose-srv.log
		lab_check "ucmatose: server" ucmatose_srv
	else
		lab_barrier ucmatose
		lab_check "ucmatose: client" ucmatose_cli "$PORT"
	fi
	lab_barrier ucmatose-done 200
	part_time ucmatose
fi

# --- hijack ----------------------------------------------------------------
# lab_pair appends -p PORT and, on the client, the server's address; each
# "ok - / not ok - " line of the client becomes one check
HIJACK_BIN=${IW_HIJACK_BIN:-/var/tmp/softrdma-lab/iw_hijack}
hijack_run() {
	if [ "$LAB_ID" = 0 ]; then
		lab_run "$HIJACK_BIN" -s -a "$LAB_ADDR" "$@"
	else
		lab_run "$HIJACK_BIN" "$@" >/tmp/hijack.out 2>&1
		local rc=$?
		cat /tmp/hijack.out
		return $rc
	fi
}

if want hijack && [ "${LAB_STACKS[0]}" = siwarp ] && [ "${LAB_STACKS[1]}" = siwarp ]; then
	port=7460
	if lab_built iw_hijack "$HIJACK_BIN"; then
		lab_pair hijack 120 hijack_run
		if [ "$LAB_ID" = 1 ]; then
			while IFS= read -r line; do
				case $line in
				"ok - "*) lab_check "hijack: ${line#ok - }" true ;;
				"not ok - "*) lab_check "hijack: ${line#not ok - }" false ;;
				esac
			done </tmp/hijack.out
		fi
	fi
	lab_barrier hijack-done 200
	part_time hijack
fi

# --- vanish ----------------------------------------------------------------
# guest0 serves an endless rping; once the client has done 20 pings,
# guest0 takes the server away in one of three ways.  rping exits 0 even
# when its connection breaks, so the checks are that the client did its
# pings before, says why it stopped, and (on softrdma) then exits.
vanish_client() {
	timeout 150 stdbuf -oL rping -c -v -V -a "$PEER_ADDR" -p "$1" -S 1024 >"/tmp/vanish-$1.log" 2>&1
	echo "exit $?" >>"/tmp/vanish-$1.log"
}

pings_at_least() { [ "$(grep -c '^ping data' "$2")" -ge "$1" ]; }
# 20 good pings before the server went, none of them mismatched
vanish_data_ok() { pings_at_least 20 "$1" && ! grep -q mismatch "$1"; }

# the error reaches the client: DISCONNECT or a failed completion, after
# 20 good pings and with no data mismatch
vanish_error() {
	local log=$1 rc
	lab_wait_for 120 grep -q 'DISCONNECT EVENT\|completion failed\|error' "$log"
	rc=$?
	cat "$log"
	if [ $rc -ne 0 ]; then
		# no error came: where rping waits, and which TCP timer (ss -o:
		# on = retransmit, persist, keepalive) the connection still has
		lab_task_stacks "$(pgrep -x rping | head -1)"
		lab_rdma_state
		timeout 5 ss -tanoi 2>&1
	fi
	vanish_data_ok "$log" && [ $rc -eq 0 ]
}

restrack_qp() {
	local out
	out=$(rdma -dd res show qp 2>&1)
	echo "$out"
	# the guest's only QP is rping's; iproute2 may wrap the driver part
	grep -q 'state RTS' <<<"$out" && grep -q 'comm rping' <<<"$out" &&
		grep -q 'tx_running 1' <<<"$out" && grep -q 'sq_fetched [0-9]' <<<"$out" &&
		grep -q 'sk_wmem_queued [0-9]' <<<"$out"
}

vanish_part() {
	local how=$1 pid t
	PORT=$((PORT + 1))
	if [ "$LAB_ID" = 0 ]; then
		rping -s -V -S 1024 -a "$LAB_ADDR" -p "$PORT" >/dev/null 2>&1 &
		pid=$!
		lab_wait_listen "$PORT" 20
		lab_barrier "vanish-$PORT"
		lab_barrier "vanish-$PORT-running" 120
		# a live softrdma QP shows its engines' state to restrack
		[ "$how" = kill ] && is_siwarp &&
			lab_check "restrack: rdma -dd res show qp has rping's QP in RTS with its engines' state" \
				restrack_qp
		case $how in
		kill) kill -9 "$pid" ;;
		linkdel) lab_check "vanish: rdma link del $LAB_IBDEV under traffic" \
			timeout 60 rdma link del "$LAB_IBDEV" ;;
		linkdown) ip link set eth0 down ;;
		esac
		lab_barrier "vanish-$PORT-done" 400
		case $how in
		linkdown) ip link set eth0 up ;;
		linkdel)
			case $LAB_STACK in
			siwarp) rdma link add "$LAB_IBDEV" type siwarp netdev eth0 ;;
			siw) rdma link add "$LAB_IBDEV" type siw netdev eth0 ;;
			esac ;;
		esac
		kill_rpings
	else
		lab_barrier "vanish-$PORT"
		vanish_client "$PORT" &
		pid=$!
		lab_check "vanish ($how): 20 pings before" \
			lab_wait_for 60 pings_at_least 20 "/tmp/vanish-$PORT.log"
		lab_barrier "vanish-$PORT-running" 120
		t=$SECONDS
		if [ "$how" = linkdown ] && ! is_siwarp; then
			# Only the client's own TCP can notice a server whose link
			# went down, and stock siw sets no keepalive: a connection
			# idle at that moment (rping waiting for the server) never
			# learns.
			# softrdma clients probe (iw_keepalive_s), checked in the
			# siwarp-siwarp pairing; a stock siw client is noted.
			if vanish_error "/tmp/vanish-$PORT.log" \
				>"$LAB_OUT/vanish-$how.log" 2>&1; then
				lab_note "vanish ($how): the client had the error $((SECONDS - t)) s after the server went"
			else
				lab_note "vanish ($how) on stock siw: no error in 120 s (siw sets no TCP keepalive); its socket then: $(timeout 5 ss -tano "( dport = :$PORT )" | tail -n +2 | tr -s ' ')"
			fi
			lab_check "vanish ($how): 20 pings, no data mismatch" \
				vanish_data_ok "/tmp/vanish-$PORT.log"
		else
			lab_check "vanish ($how): the client gets an error, not a hang" \
				vanish_error "/tmp/vanish-$PORT.log"
			lab_note "vanish ($how): the client had the error $((SECONDS - t)) s after the server went"
		fi
		rping_gone "vanish ($how)" 30 "$pid" "$(pgrep -x rping | head -1)"
		wait "$pid"
		lab_note "vanish ($how): $(tail -1 "/tmp/vanish-$PORT.log"), $((SECONDS - t)) s after the server went"
		lab_barrier "vanish-$PORT-done" 400
	fi
}

if want vanish; then
	PORT=7430
	# with eth0 down, the client's TCP gives up after tcp_retries2
	# retransmissions (default 15, many minutes); keep it short here
	sysctl -qw net.ipv4.tcp_retries2=5
	# softrdma probes an idle connection; 5 s here: dead after 20 s
	is_siwarp && echo 5 >/sys/module/softrdma/parameters/iw_keepalive_s
	vanish_part kill
	vanish_part linkdel
	vanish_part linkdown
	part_time vanish
fi

# --- unload ----------------------------------------------------------------
NVMET=/sys/kernel/config/nvmet
nvmet_listen() {
	modprobe nvmet-rdma || return 1
	mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
	mkdir -p "$NVMET/subsystems/lab" "$NVMET/ports/1" || return 1
	echo 1 >"$NVMET/subsystems/lab/attr_allow_any_host"
	echo rdma >"$NVMET/ports/1/addr_trtype"
	echo ipv4 >"$NVMET/ports/1/addr_adrfam"
	echo "$LAB_ADDR" >"$NVMET/ports/1/addr_traddr"
	echo 4420 >"$NVMET/ports/1/addr_trsvcid"
	ln -s "$NVMET/subsystems/lab" "$NVMET/ports/1/subsystems/lab" || return 1
	lab_wait_listen 4420 20
}

nvmet_clear() {
	rm -f "$NVMET/ports/1/subsystems/lab"
	rmdir "$NVMET/ports/1" "$NVMET/subsystems/lab" 2>/dev/null
}

if want unload && is_siwarp; then
	PORT=7440
	# a listener, and a connection from the peer to a second listener
	rping -s -a "$LAB_ADDR" -p "$PORT" >/dev/null 2>&1 &
	rping -s -a "$LAB_ADDR" -p $((PORT + 1)) >/dev/null 2>&1 &
	lab_wait_listen $((PORT + 1)) 20
	lab_barrier unload-listening
	if [ "$PEER_STACK" != none ]; then
		timeout 100 rping -c -a "$PEER_ADDR" -p $((PORT + 1)) -S 64 >/dev/null 2>&1 &
	fi
	lab_barrier unload-connected
	sleep 3
	lab_check "unload: rdma link del with listeners and connections up" \
		timeout 60 rdma link del "$LAB_IBDEV"
	lab_check "unload: no TCP listener left" lab_wait_for 20 no_listener "$PORT"
	kill_rpings
	lab_check "unload: rdma link add again" \
		rdma link add "$LAB_IBDEV" type siwarp netdev eth0
	# a user-space listener holds a device context: rmmod removes the
	# device anyway, the core destroying the process's objects and
	# cutting it off (disassociate), so no process can hold the module;
	# nvmet-rdma, a kernel ULP, then listens through the RDMA CM
	rping -s -a "$LAB_ADDR" -p "$PORT" >/dev/null 2>&1 &
	lab_wait_listen "$PORT" 20
	lab_check "unload: rmmod while a process has the device open" \
		timeout 60 modprobe -r softrdma
	lab_check "unload: the process's listener went with the device" \
		lab_wait_for 20 no_listener "$PORT"
	kill_rpings
	lab_check "unload: modprobe and rdma link add again" \
		sh -c "modprobe softrdma && rdma link add $LAB_IBDEV type siwarp netdev eth0"
	lab_check "unload: nvmet-rdma listens on $LAB_ADDR:4420" nvmet_listen
	lab_check "unload: rmmod with nvmet-rdma's listener up" \
		timeout 60 modprobe -r softrdma
	lab_check "unload: no TCP listener left after rmmod" \
		lab_wait_for 20 no_listener 4420
	nvmet_clear
	lab_barrier unload-done 200
	part_time unload
elif want unload; then
	PORT=7440
	lab_barrier unload-listening
	if [ "$PEER_STACK" = siwarp ]; then
		timeout 100 rping -c -a "$PEER_ADDR" -p $((PORT + 1)) -S 64 >/tmp/unload-client.log 2>&1 &
	fi
	lab_barrier unload-connected
	lab_barrier unload-done 200
	part_time unload
	kill_rpings
fi

lab_barrier end 600
