# SPDX-License-Identifier: GPL-2.0
#
# roce-cm: UD queue pairs, the GSI QP (QP1) and rdma_cm over RoCEv2.
#   lab run --stack sroce,sroce roce-cm
#   lab run --stack sroce,rxe roce-cm      (softrdma serves, rxe is client)
#   lab run --stack rxe,sroce roce-cm      (rxe serves, softrdma is client)
# guest0 runs the servers, guest1 the clients:
#  - port: the port's P_Key table and GIDs in sysfs, ibv_devinfo -v, and
#    on sroce the GSI QP the MAD layer created (QP number 1);
#  - ud: ibv_ud_pingpong -c (the receiver checks the data) up to the MTU;
#  - rping: rdma_cm connect, RDMA READ/WRITE/SEND, data checked (-V);
#  - ucmatose, udaddy (rdma_cm UD, SIDR), rdma_server/rdma_client;
#  - perftest over rdma_cm: ib_send_bw -R, ib_write_bw -R;
#  - bad (guest1 sroce only): guest0 sends crafted UD packets to a QP that
#    does not exist, to QP1 with a wrong Q_Key, and a malformed MAD to QP1;
#    each is counted under its reason and the CM still works afterwards.
# Optional args: test names to run (default: all), e.g. "ud rping".

PP_ITERS=200
port=18600

gid=$(lab_gid_index "$LAB_ADDR") || gid=1
gid6=$(lab_gid_index "$LAB_ADDR6") || gid6=
lab_note "stack $LAB_STACK dev $LAB_IBDEV gid index $gid (IPv6: ${gid6:-none})"
want() { [ -z "$LAB_SCENARIO_ARGS" ] || [[ " $LAB_SCENARIO_ARGS " == *" $1 "* ]]; }

# ready PORT: a TCP listener, or an rdma_cm listener (per device cm_id)
ready() {
	ss -ltnH "sport = :$1" 2>/dev/null | grep -q . ||
		rdma resource show cm_id 2>/dev/null | grep -qE "[:.]$1( |\$)"
}

# pair NAME TIMEOUT SRVCMD -- CLICMD: SRVCMD on guest0, CLICMD on guest1;
# "%P" in either is the port, "%A" the server's IPv4 address, "%B" its
# IPv6 address.  Both must succeed.
pair() {
	local name=$1 tmo=$2 srv rc a
	local -a scmd=() ccmd=()
	shift 2
	CUR=$name
	port=$((port + 1))
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		a=${1//%P/$port}
		a=${a//%B/$(lab_peer_addr6 0)}
		scmd+=("${a//%A/$(lab_peer_addr 0)}")
		shift
	done
	shift
	for a in "$@"; do
		a=${a//%P/$port}
		a=${a//%B/$(lab_peer_addr6 0)}
		ccmd+=("${a//%A/$(lab_peer_addr 0)}")
	done
	case $LAB_ID in
	0)
		TMO=$tmo "${scmd[@]}" >"/tmp/$name.srv" 2>&1 &
		srv=$!
		lab_wait_for 30 ready "$port"
		lab_barrier "$name"
		lab_check "$name server" wait "$srv"
		rc=$?
		cp "/tmp/$name.srv" "$LAB_OUT/checks/$name.srv.out" 2>/dev/null
		;;
	1)
		lab_barrier "$name"
		TMO=$tmo lab_check "$name client" "${ccmd[@]}"
		rc=$?
		;;
	*)
		lab_barrier "$name"
		rc=0
		;;
	esac
	lab_barrier "$name-done" 600
	return $rc
}

# udpp: ibv_ud_pingpong; the iteration line and no data error
udpp() {
	local out rc
	out=$(lab_run "$@" 2>&1)
	rc=$?
	echo "$out"
	[ $rc -eq 0 ] || return $rc
	! grep -qi 'invalid data\|error' <<<"$out" || { echo "FAIL: data error"; return 1; }
	grep -q "iters in" <<<"$out" || { echo "FAIL: no 'iters in' line"; return 1; }
}

# rp COUNT SIZE ARGS...: rping with -v -V; every ping printed, no mismatch
rp() {
	local count=$1 size=$2 out rc n
	shift 2
	out=$(lab_run rping "$@" -v -V -C "$count" -S "$size" 2>&1)
	rc=$?
	echo "$out" | tail -n 5
	lab_rping_exit_race "$rc" <<<"$out" && rc=0
	[ $rc -eq 0 ] || { echo "$out" | tail -n 20; return $rc; }
	! grep -qi 'mismatch\|error\|fail' <<<"$out" || { echo "FAIL: $(grep -i 'mismatch\|error\|fail' <<<"$out" | head -3)"; return 1; }
	n=$(grep -c 'ping data: ' <<<"$out")
	echo "$n ping data lines, want $count"
	[ "$n" -eq "$count" ]
}

# ok_run ARGS...: exit status 0 and no "error"/"fail" line
ok_run() {
	local out rc
	out=$(lab_run "$@" 2>&1)
	rc=$?
	echo "$out" | tail -n 30
	[ $rc -eq 0 ] || return $rc
	! grep -qi 'error\|fail' <<<"$out"
}

# perf ARGS...: perftest with its result line as a note
perf() {
	local out rc res
	out=$(lab_run "$@" 2>&1)
	rc=$?
	echo "$out"
	[ $rc -eq 0 ] || return $rc
	res=$(awk '/^ *#bytes/ { getline; print; exit }' <<<"$out" | tr -s ' ')
	[ -n "$res" ] || [ "$LAB_ID" != 1 ] || { echo "FAIL: no result line"; return 1; }
	[ -n "$res" ] && [ "$LAB_ID" = 1 ] && lab_note "$CUR: $res"
	return 0
}

# cnt NAME: one counter of this guest's device
cnt() {
	rdma statistic show link "$LAB_IBDEV/1" | tr -s ' \n' '\n' |
		awk -v n="$1" 'f { print; exit } $0 == n { f = 1 }'
}

if want port; then
	sys=/sys/class/infiniband/$LAB_IBDEV/ports/1
	port_sane() {
		cat "$sys/pkeys/0" "$sys/gids/$gid" "$sys/gid_attrs/types/$gid" \
			"$sys/link_layer" "$sys/state" || return 1
		[ "$(cat "$sys/pkeys/0")" = 0xffff ] &&
			[ "$(cat "$sys/gid_attrs/types/$gid")" = "RoCE v2" ] &&
			[ "$(cat "$sys/link_layer")" = Ethernet ] &&
			grep -q ACTIVE "$sys/state" &&
			grep -q "ffff:$(printf '%02x%02x:%02x%02x' ${LAB_ADDR//./ })\$" \
				"$sys/gids/$gid"
	}
	lab_check "port: sysfs pkeys/0, gids/$gid, RoCE v2, ACTIVE" port_sane
	devinfo() {
		local out
		out=$(ibv_devinfo -v -d "$LAB_IBDEV") || return 1
		echo "$out"
		grep -q 'state:.*PORT_ACTIVE' <<<"$out" &&
			grep -q 'link_layer:.*Ethernet' <<<"$out" &&
			grep -q "GID\\[ *$gid\\]:.*RoCE v2" <<<"$out"
	}
	lab_check "port: ibv_devinfo -v" devinfo
	if [ "$LAB_STACK" = sroce ]; then
		gsi() {
			rdma resource show qp link "$LAB_IBDEV/1"
			rdma resource show qp link "$LAB_IBDEV/1" |
				grep -qE 'lqpn 1 .*type GSI'
		}
		lab_check "port: the MAD layer's GSI QP is QP 1" gsi
		cap_mask() {
			cat "$sys/cap_mask"
			# IB_PORT_CM_SUP
			[ $(($(cat "$sys/cap_mask") & 0x10000)) -ne 0 ]
		}
		lab_check "port: cap_mask has CM support" cap_mask
	fi
fi

if want ud; then
	for size in 1 256 1000 1024; do
		pair "ud-pingpong-$size" 120 \
			udpp ibv_ud_pingpong -d "$LAB_IBDEV" -g "$gid" \
				-n "$PP_ITERS" -s "$size" -c -p %P -- \
			udpp ibv_ud_pingpong -d "$LAB_IBDEV" -g "$gid" \
				-n "$PP_ITERS" -s "$size" -c -p %P %A
	done
	# RoCEv2 over IPv6: the GRH area holds the IPv6 header
	if [ -n "$gid6" ]; then
		pair "ud-pingpong-ipv6-1024" 120 \
			udpp ibv_ud_pingpong -d "$LAB_IBDEV" -g "$gid6" \
				-n "$PP_ITERS" -s 1024 -c -p %P -- \
			udpp ibv_ud_pingpong -d "$LAB_IBDEV" -g "$gid6" \
				-n "$PP_ITERS" -s 1024 -c -p %P %A
	else
		lab_check "ud: an IPv6 GID for $LAB_ADDR6" false
	fi
fi

if want rping; then
	for size in 64 16384; do
		pair "rping-$size" 180 \
			rp 100 "$size" -s -a 0.0.0.0 -p %P -- \
			rp 100 "$size" -c -a %A -p %P
	done
	# rdma_cm over IPv6: CM MADs in RoCEv2/IPv6 UD packets to QP1
	pair "rping-ipv6-64" 180 \
		rp 50 64 -s -a :: -p %P -- \
		rp 50 64 -c -a %B -p %P
fi

if want ucmatose; then
	pair ucmatose 180 ok_run ucmatose -p %P -C 20 -S 4096 -- \
		ok_run ucmatose -s %A -p %P -C 20 -S 4096
	pair ucmatose-4conn 180 ok_run ucmatose -p %P -c 4 -C 10 -- \
		ok_run ucmatose -s %A -p %P -c 4 -C 10
fi

# udaddy's -p is the port space; it always uses port 7174
if want udaddy; then
	saved_port=$port
	port=7173
	pair udaddy 180 ok_run udaddy -C 20 -- ok_run udaddy -s %A -C 20
	port=$saved_port
fi

if want rdma_server; then
	pair rdma_server 120 ok_run rdma_server -p %P -- \
		ok_run rdma_client -s %A -p %P
fi

# perftest 4.5 may connect its data QP before the server listens again
# (LAB_PERFTEST_CM_RACE, workarounds.sh): lab_pair runs such a pair again
if want perf; then
	for t in ib_send_bw ib_write_bw; do
		LAB_PAIR_RACE=$LAB_PERFTEST_CM_RACE lab_pair "$t-R" 240 \
			perf "$t" -d "$LAB_IBDEV" -R -s 65536 -n 200 -F
	done
fi

# Crafted UD packets, guest0 -> guest1's sroce device.
SEND=/tmp/ud_send.py
cat >"$SEND" <<'EOF'
# ud_send.py SRC DST KIND COUNT: COUNT RoCEv2 UD SEND Only packets.
# KIND: noqp (to QP 0x4321) | badqkey (to QP1, Q_Key 0x1234) |
#       badmad (to QP1, GSI Q_Key, a 256-byte MAD with base version 0x55)
import socket, struct, sys, time, zlib

src, dst, kind, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])

def icrc(pkt):
    # IBA A17.8: CRC-32 over 8 bytes of ones, IP, UDP and IB packet with
    # the variant fields as ones; least significant byte first.
    b = bytearray(pkt)
    b[1] = 0xff; b[8] = 0xff; b[10:12] = b'\xff\xff'
    b[26:28] = b'\xff\xff'
    b[28 + 4] = 0xff
    return struct.pack('<I', zlib.crc32(b'\xff' * 8 + bytes(b)) & 0xffffffff)

def packet(i):
    qpn, qkey = {'noqp': (0x4321, 0x11111111), 'badqkey': (1, 0x1234),
                 'badmad': (1, 0x80010000)}[kind]
    payload = bytes([0x55, 0x04, 0x01, 0x01]) + bytes((i + j) & 0xff
                                                      for j in range(252))
    bth = struct.pack('>BBHII', 0x64, 0, 0xffff, qpn, i)
    deth = struct.pack('>II', qkey, 0x77)
    ib = bth + deth + payload
    ulen = 8 + len(ib) + 4
    udph = struct.pack('>HHHH', 0xc000 + i, 4791, ulen, 0)
    iph = struct.pack('>BBHHHBBH4s4s', 0x45, 0, 20 + ulen, 0x200 + i,
                      0x4000, 64, 17, 0, socket.inet_aton(src),
                      socket.inet_aton(dst))
    pkt = iph + udph + ib
    return pkt + icrc(pkt)

s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
for i in range(count):
    s.sendto(packet(i), (dst, 0))
    time.sleep(0.005)
print('sent', count, kind, 'packets', src, '->', dst)
EOF

if want bad; then
	peer=$(lab_peer_addr 1)
	if [ "$LAB_ID" = 0 ]; then
		lab_barrier bad-ready
		lab_check "bad: send 10 UD packets to QP 0x4321" \
			python3 "$SEND" "$LAB_ADDR" "$peer" noqp 10
		lab_check "bad: send 10 UD packets to QP1 with a wrong Q_Key" \
			python3 "$SEND" "$LAB_ADDR" "$peer" badqkey 10
		lab_check "bad: send 10 malformed MADs to QP1" \
			python3 "$SEND" "$LAB_ADDR" "$peer" badmad 10
		lab_barrier bad-sent
	elif [ "$LAB_ID" = 1 ]; then
		if [ "$LAB_STACK" = sroce ]; then
			b_noqp=$(cnt rcv_no_qp) b_qkey=$(cnt rcv_bad_qkey)
			b_rcv=$(cnt port_rcv_packets) b_nowqe=$(cnt rcv_no_recv_wqe)
			b_op=$(cnt rcv_bad_opcode) b_nr=$(cnt rcv_qp_not_ready)
			b_long=$(cnt rcv_ud_too_long)
		fi
		lab_barrier bad-ready
		lab_barrier bad-sent
		if [ "$LAB_STACK" = sroce ]; then
			delta() {
				local now
				now=$(cnt "$1")
				echo "$1: before $2 now $now, want +$3"
				[ -n "$now" ] && [ $((now - $2)) -eq "$3" ]
			}
			lab_check "bad: port_rcv_packets counts all 30" \
				lab_wait_for 15 delta port_rcv_packets "$b_rcv" 30
			lab_check "bad: rcv_no_qp counts the 10 to QP 0x4321" \
				delta rcv_no_qp "$b_noqp" 10
			lab_check "bad: rcv_bad_qkey counts the 10 wrong Q_Keys" \
				delta rcv_bad_qkey "$b_qkey" 10
			mads_delivered() {
				delta rcv_no_recv_wqe "$b_nowqe" 0 &&
					delta rcv_bad_opcode "$b_op" 0 &&
					delta rcv_qp_not_ready "$b_nr" 0 &&
					delta rcv_ud_too_long "$b_long" 0
			}
			lab_check "bad: the 10 malformed MADs reached QP1's receive WQEs (no UD drop counted)" \
				mads_delivered
		fi
	else
		lab_barrier bad-ready
		lab_barrier bad-sent
	fi
	# the CM still works after all that
	pair rping-after-bad 180 rp 20 64 -s -a 0.0.0.0 -p %P -- \
		rp 20 64 -c -a %A -p %P
fi

if [ "$LAB_STACK" = sroce ]; then
	rdma statistic show link "$LAB_IBDEV/1" >"$LAB_OUT/counters.txt" 2>&1
	lab_note "counters: $(tr -s ' \n' ' ' <"$LAB_OUT/counters.txt" |
		grep -o 'xmit_drop [0-9]*\|rcv_[a-z_]* [1-9][0-9]*' | tr '\n' ' ')"
	# rdma_cm's connections, IPv4 and IPv6: every RC packet came from
	# the QP's peer to its own address
	lab_check "no RC packet refused as not from its peer (rcv_addr_mismatch 0)" \
		awk '{ for (i = 1; i < NF; i++)
			if ($i == "rcv_addr_mismatch") { seen = 1; v = $(i + 1) } }
		     END { exit !(seen && v == 0) }' "$LAB_OUT/counters.txt"
	lab_barrier unload
	lab_check "rmmod softrdma with $LAB_IBDEV present (the GSI QP goes)" \
		rmmod softrdma
	lab_check "$LAB_IBDEV gone" test ! -e "/sys/class/infiniband/$LAB_IBDEV"
else
	lab_barrier unload
fi
exit 0
