# SPDX-License-Identifier: GPL-2.0
#
# The RoCEv2 receive path of an sroce device, measured by its counters.
# guest0 (stock rdma_rxe on eth0) crafts RoCEv2 packets with raw IP
# sockets -- good ones, with a correct ICRC over IPv4 and IPv6, and bad
# ones: wrong ICRC, BTH TVer 1, a reserved opcode -- and sends them to
# guest1's UDP port 4791.  guest1 (sroce device sr0, no QPs exist yet)
# must count every packet received, every drop under its reason, and every
# good packet as "no QP": the numbers add up exactly.
#
# The same packets are seen by the tracepoints: one softrdma_roce_rx per
# good packet and one softrdma_drop per drop, under the counter's name.
#
# Then network namespaces: on guest1 an sroce device on a veth inside a
# namespace gets a UDP socket of its own there and receives what the root
# namespace sends through the veth pair; deleting the namespace removes
# the device and its socket.
#
# Runs with --stack rxe,sroce.

SEND=/tmp/roce_send.py
cat >"$SEND" <<'EOF'
# roce_send.py SRC DST KIND COUNT: send COUNT crafted RoCEv2 packets.
# KIND: good | badicrc | badtver | badopcode.  IPv6 if SRC has a colon.
import socket, struct, sys, time, zlib

src, dst, kind, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
v6 = ':' in src

def icrc(pkt):
    # IBA A17.8: CRC-32 over 8 bytes of ones (no LRH), IP, UDP and IB
    # packet, the variant fields read as ones; stored least significant
    # byte first.
    b = bytearray(pkt)
    if v6:
        b[0:4] = b'\x6f\xff\xff\xff'  # traffic class, flow label
        b[7] = 0xff                   # hop limit
        udp = 40
    else:
        b[1] = 0xff                   # TOS
        b[8] = 0xff                   # TTL
        b[10:12] = b'\xff\xff'        # header checksum
        udp = 20
    b[udp + 6:udp + 8] = b'\xff\xff'  # UDP checksum
    b[udp + 8 + 4] = 0xff             # BTH FECN/BECN/Resv6a
    return struct.pack('<I', zlib.crc32(b'\xff' * 8 + bytes(b)) & 0xffffffff)

def packet(i):
    opcode = 0x1f if kind == 'badopcode' else 0x04   # RC SEND ONLY
    tver = 1 if kind == 'badtver' else 0
    payload = bytes((i + j) & 0xff for j in range(29))
    pad = (4 - len(payload) % 4) % 4
    bth = struct.pack('>BBHII', opcode, (pad << 4) | tver, 0xffff,
                      0x100 + i, 0x80000000 | i)
    ib = bth + payload + b'\0' * pad
    ulen = 8 + len(ib) + 4
    udph = struct.pack('>HHHH', 0xc000 + i, 4791, ulen, 0)
    if v6:
        iph = struct.pack('>IHBB', 0x60000000, ulen, 17, 64) + \
            socket.inet_pton(socket.AF_INET6, src) + \
            socket.inet_pton(socket.AF_INET6, dst)
    else:
        iph = struct.pack('>BBHHHBBH4s4s', 0x45, 0, 20 + ulen, 0x100 + i,
                          0x4000, 64, 17, 0, socket.inet_aton(src),
                          socket.inet_aton(dst))
    pkt = iph + udph + ib
    crc = icrc(pkt)
    if kind == 'badicrc':
        crc = bytes([crc[0] ^ 0x5a]) + crc[1:]
    return pkt + crc

fam = socket.AF_INET6 if v6 else socket.AF_INET
s = socket.socket(fam, socket.SOCK_RAW, socket.IPPROTO_RAW)
for i in range(count):
    s.sendto(packet(i), (dst, 0))
    time.sleep(0.005)
print('sent', count, kind, 'packets', src, '->', dst)
EOF

# cnt DEV NAME: one counter of "rdma statistic show link DEV/1"
cnt() {
	rdma statistic show link "$1/1" | tr -s ' \n' '\n' |
		awk -v n="$2" 'f { print; exit } $0 == n { f = 1 }'
}

COUNTERS="port_rcv_packets rcv_icrc_err rcv_no_qp rcv_bad_tver rcv_bad_opcode rcv_bad_udp_len rcv_truncated rcv_bad_pkey rcv_nomem rcv_unreadable"

# snapshot DEV: remember all counters as before_<name>
snapshot() {
	local n
	for n in $COUNTERS; do
		eval "before_$n=\$(cnt $1 $n)"
	done
}

# delta_is DEV NAME WANT: the counter moved by exactly WANT since snapshot
delta_is() {
	local before now
	eval "before=\$before_$2"
	now=$(cnt "$1" "$2")
	echo "$1 $2: before $before now $now, want +$3"
	[ -n "$now" ] && [ $((now - before)) -eq "$3" ]
}

udp4791_sockets() { ss -uanH 'sport = :4791' | wc -l; }
sockets_are() { [ "$(udp4791_sockets)" -eq "$1" ]; }

peer=$(lab_peer_addr 1)
peer6=$(lab_peer_addr6 1)

if [ "$LAB_ID" = 0 ]; then
	lab_check "guest0: IPv4 and IPv6 neighbours of guest1 resolved" \
		bash -c "ping -c 1 -W 5 $peer && ping -6 -c 1 -W 5 $peer6"
	lab_barrier ready || exit 1
	lab_check "guest0: send 40 good RoCEv2/IPv4 packets" \
		python3 "$SEND" "$LAB_ADDR" "$peer" good 40
	lab_check "guest0: send 10 RoCEv2/IPv4 packets with a bad ICRC" \
		python3 "$SEND" "$LAB_ADDR" "$peer" badicrc 10
	lab_check "guest0: send 5 RoCEv2/IPv4 packets with BTH TVer 1" \
		python3 "$SEND" "$LAB_ADDR" "$peer" badtver 5
	lab_check "guest0: send 5 RoCEv2/IPv4 packets with a reserved opcode" \
		python3 "$SEND" "$LAB_ADDR" "$peer" badopcode 5
	lab_check "guest0: send 20 good RoCEv2/IPv6 packets (zero UDP checksum)" \
		python3 "$SEND" "$LAB_ADDR6" "$peer6" good 20
	lab_check "guest0: send 5 RoCEv2/IPv6 packets with a bad ICRC" \
		python3 "$SEND" "$LAB_ADDR6" "$peer6" badicrc 5
	lab_barrier sent || exit 1
	lab_barrier finished || exit 1
	exit 0
fi

[ "$LAB_ID" = 1 ] || exit 0

lab_check "guest1: sr0 opened UDP 4791 for IPv4 and IPv6 in the root namespace" \
	bash -c 'ss -uanH "sport = :4791"; [ "$(ss -uanH "sport = :4791" | wc -l)" -eq 2 ]'
lab_check "guest1: rdma statistic lists sr0's counters" bash -c \
	'rdma statistic show link sr0/1; rdma statistic show link sr0/1 | grep -q "port_rcv_packets .* rcv_icrc_err .* rcv_no_qp"'
snapshot sr0
TRACE=/sys/kernel/tracing
trace_on() {
	[ -d $TRACE/events ] || mount -t tracefs tracefs $TRACE || return 1
	echo 0 >$TRACE/tracing_on && echo >$TRACE/trace &&
		echo 1 >$TRACE/events/softrdma/softrdma_roce_rx/enable &&
		echo 1 >$TRACE/events/softrdma/softrdma_drop/enable &&
		echo 1 >$TRACE/tracing_on
}
# trace_count EVENT TEXT N: the trace holds N EVENT lines ending in TEXT
trace_count() {
	local n
	n=$(grep -c -E " $1: sr0 $2\$" $TRACE/trace)
	echo "$1 '$2': $n lines, want $3"
	[ "$n" -eq "$3" ]
}
lab_check "guest1: enable the softrdma_roce_rx and softrdma_drop tracepoints" \
	trace_on
lab_barrier ready || exit 1
lab_barrier sent || exit 1

lab_check "guest1: sr0 port_rcv_packets counts all 85 packets" \
	lab_wait_for 15 delta_is sr0 port_rcv_packets 85
lab_check "guest1: sr0 rcv_icrc_err counts the 15 bad ICRCs (IPv4 and IPv6)" \
	delta_is sr0 rcv_icrc_err 15
lab_check "guest1: sr0 rcv_bad_tver counts the 5 TVer 1 packets" \
	delta_is sr0 rcv_bad_tver 5
lab_check "guest1: sr0 rcv_bad_opcode counts the 5 reserved opcodes" \
	delta_is sr0 rcv_bad_opcode 5
lab_check "guest1: sr0 rcv_no_qp counts the 60 good packets" \
	delta_is sr0 rcv_no_qp 60
no_other_drops() {
	delta_is sr0 rcv_bad_udp_len 0 && delta_is sr0 rcv_truncated 0 &&
		delta_is sr0 rcv_bad_pkey 0 && delta_is sr0 rcv_nomem 0 &&
		delta_is sr0 rcv_unreadable 0
}
lab_check "guest1: no other drop reason moved" no_other_drops
lab_check "guest1: trace: softrdma_roce_rx for each of the 60 good packets" \
	trace_count softrdma_roce_rx "qpn=0x1[0-9a-f]{2} opcode=0x4 psn=0x[0-9a-f]+ len=29" 60
lab_check "guest1: trace: softrdma_drop rcv_no_qp for the same 60" \
	trace_count softrdma_drop rcv_no_qp 60
lab_check "guest1: trace: softrdma_drop rcv_icrc_err 15 times" \
	trace_count softrdma_drop rcv_icrc_err 15
lab_check "guest1: trace: softrdma_drop rcv_bad_tver 5 times" \
	trace_count softrdma_drop rcv_bad_tver 5
lab_check "guest1: trace: softrdma_drop rcv_bad_opcode 5 times" \
	trace_count softrdma_drop rcv_bad_opcode 5
echo 0 >$TRACE/tracing_on
lab_barrier finished || exit 1

# Network namespaces: an sroce device on a veth in ns1.
ip netns add ns1
ip link add veth0 type veth peer name veth1
ip link set veth1 netns ns1
ip addr add 10.9.0.1/24 dev veth0
ip link set veth0 up
ip -n ns1 link set lo up
ip -n ns1 addr add 10.9.0.2/24 dev veth1
ip -n ns1 link set veth1 up

lab_check "guest1: ns1 has no UDP 4791 socket before a device" \
	bash -c '[ "$(ip netns exec ns1 ss -uanH "sport = :4791" | wc -l)" -eq 0 ]'
lab_check "guest1: rdma link add srn type sroce netdev veth1 (inside ns1)" \
	ip netns exec ns1 rdma link add srn type sroce netdev veth1
lab_check "guest1: ns1 got its own UDP 4791 sockets" bash -c \
	'ip netns exec ns1 ss -uanH "sport = :4791"; [ "$(ip netns exec ns1 ss -uanH "sport = :4791" | wc -l)" -eq 2 ]'
lab_check "guest1: the root namespace still has exactly its own two" sockets_are 2
lab_check "guest1: ping through the veth pair into ns1" ping -c 1 -W 5 10.9.0.2

snapshot srn
sr0_before=$(cnt sr0 port_rcv_packets)
sr0_unchanged() { [ "$(cnt sr0 port_rcv_packets)" = "$sr0_before" ]; }
lab_check "guest1: send 7 good packets from the root namespace to srn" \
	python3 "$SEND" 10.9.0.1 10.9.0.2 good 7
lab_check "guest1: send 3 bad-ICRC packets to srn" \
	python3 "$SEND" 10.9.0.1 10.9.0.2 badicrc 3
lab_check "guest1: srn port_rcv_packets counts all 10" \
	lab_wait_for 10 delta_is srn port_rcv_packets 10
lab_check "guest1: srn rcv_no_qp counts the 7 good ones" delta_is srn rcv_no_qp 7
lab_check "guest1: srn rcv_icrc_err counts the 3 bad ones" delta_is srn rcv_icrc_err 3
lab_check "guest1: sr0 did not see them" sr0_unchanged

lab_check "guest1: ip netns del ns1 removes srn" bash -c \
	'ip netns del ns1; for i in $(seq 50); do rdma link show | grep -q "^link srn/" || exit 0; sleep 0.2; done; rdma link show; exit 1'
lab_check "guest1: rdma link del sr0 closes the root namespace's sockets" \
	bash -c 'rdma link del sr0 && [ "$(ss -uanH "sport = :4791" | wc -l)" -eq 0 ]'
lab_check "guest1: rdma link add sr0 again opens them again" \
	bash -c 'rdma link add sr0 type sroce netdev eth0 && [ "$(ss -uanH "sport = :4791" | wc -l)" -eq 2 ]'
lab_check "guest1: rmmod softrdma with sr0 present" rmmod softrdma
lab_check "guest1: no UDP 4791 socket is left after rmmod" sockets_are 0
