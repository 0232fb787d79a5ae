# SPDX-License-Identifier: GPL-2.0
#
# softrdma over upper devices, as containers see them: each guest makes
# eth0.100 (802.1Q, egress-qos-map 0:3), a macvlan and an ipvlan on eth0,
# each with its own subnet (the ipvlan after the macvlan is gone: a lower
# device takes one of them at a time), and runs traffic over each:
#
#   real     sr0/sw0 of the lab on eth0: sr0 lists eth0.100's address as
#            a GID whose netdev is eth0.100; RC pingpong (-c) over that
#            GID leaves tagged (vlan 100, PCP 3: tcpdump in the guest),
#            rping -V over the VLAN address (sw0, the first device, has
#            the rdma_cm); a device on eth0.100 beside sr0/sw0 is refused
#            with the reason in the kernel log
#   vlan     sr0/sw0 deleted; an sroce device on eth0.100 is refused (the
#            RDMA core gives it no IP GIDs); a siwarp device on it alone
#            (rping over the VLAN address), and one on eth0 beside it is
#            refused with the reason
#   macvlan  an sroce device alone on a macvlan (mode bridge) of eth0: its
#            address as a GID, RC pingpong with the peer's frames sent to
#            our eth0's MAC (which Linux answers ARP with for the
#            macvlan's address as well) and then to the macvlan's own,
#            rping over RoCE; then a siwarp device alone (rping); then an
#            sroce device on eth0, which has the macvlan's address as a
#            GID on the macvlan: RC pingpong over that GID, both ways again
#   ipvlan   the same on an ipvlan (mode l2, the parent's MAC) of eth0
#   bondref  bond0 (active-backup) over two dummy slaves: a device on a
#            slave is refused with the reason, one on bond0 is accepted;
#            a device on a team or on a bridge port is refused with the
#            reason, and one on a netdev that joins a bridge goes
#   bond     sroce on a balance-rr bond is refused with the reason, siwarp
#            there accepted (TCP); an sroce device on an active-backup
#            bond goes, with the reason, when the bond, changed to
#            balance-rr, takes a port.  Then bond0 (active-backup, primary
#            eth0) over eth0 and a dummy, with the lab's address: the
#            devices on eth0 go, with the reason, when eth0 joins it; a
#            siwarp device added on bond0 before its ports and its MAC
#            has bond0's MAC as its GID; an sroce device on bond0
#            has bond0's address as a GID; an RC ib_write_bw over it and
#            rping -V over siwarp each go on after guest0's bond0 fails
#            over to the dummy (which drops everything) and back while
#            they run (ib_write_bw: active_slave written; rping: eth0
#            set down and up)
#   container guest0 as a container host: in exclusive netns mode a
#            namespace ctr gets a macvlan (bridge) of eth0, named eth0
#            there as a pod's is, with addresses of its own on the lab
#            subnet, and "rdma link add" run in ctr puts a siwarp and an
#            sroce device on it, which ctr lists and init_net does not
#            (nor ctr init_net's); guest1 is the other host (sw0/sr0 on
#            eth0, added again if a part before removed them): RC
#            pingpong -c over ctr's IPv4 GID (ctr serving) and IPv6 GID
#            (guest1 serving), rping -V both ways; then ctr is deleted
#            under a live RC pingpong: its devices and macvlan go, none
#            moved to init_net, and shared netns mode is set back
#
# Optional args: the parts to run (default: all of the above, in that
# order; "real" must come first, it needs the lab's sr0/sw0).
#
# Runs with --stack sroce+siwarp.

parts=${*:-real vlan macvlan ipvlan bondref bond container}
want() { [[ " $parts " == *" $1 "* ]]; }

a=$((LAB_ID + 1))
port=19000
RPING_COUNT=20

# up_rping ADDR COUNT SIZE -p PORT [PEER], under lab_pair: rping -V over
# ADDR (guest0's address on the upper device), every ping compared
up_rping() {
	local addr=$1
	shift
	if [ "$LAB_ID" = 0 ]; then
		LAB_ADDR=$addr lab_rping_checked "$@"
	else
		lab_rping_checked "$1" "$2" "$3" "$4" "$addr"
	fi
}

# gid_ndev IBDEV ADDR NDEV: IBDEV has ADDR as a GID whose netdev is NDEV
gid_ndev() {
	local idx nd
	idx=$(lab_gid_index "$2" "$1") || { echo "no GID of $2 on $1"; return 1; }
	nd=$(cat "/sys/class/infiniband/$1/ports/1/gid_attrs/ndevs/$idx")
	echo "$1 GID $idx ($2) on $nd"
	[ "$nd" = "$3" ]
}

# refused NAME TYPE NDEV REASON: rdma link add fails and the kernel log
# says why
refused() {
	local out before
	before=$(dmesg | wc -l)
	if out=$(rdma link add "$1" type "$2" netdev "$3" 2>&1); then
		echo "rdma link add $1 on $3 succeeded"
		rdma link del "$1"
		return 1
	fi
	echo "$out"
	dmesg | tail -n +$((before + 1)) | tee /dev/stderr | grep -F "cannot add $2 device $1 on $3: $4"
}

# tagged IF: the RoCE frames captured on eth0 (started by tag_capture)
# carry vlan 100 and PCP 3
tag_capture() {
	rm -f /tmp/tag.out
	timeout 60 tcpdump -i eth0 -e -nn -c 4 -l 'vlan 100 and udp port 4791' \
		>/tmp/tag.out 2>/dev/null &
	TAG_PID=$!
	lab_nap 1
}
tagged() {
	wait "$TAG_PID"
	cat /tmp/tag.out
	[ "$(grep -c 'vlan 100, p 3,' /tmp/tag.out)" = 4 ]
}

# the RC pingpong over IBDEV's GID of ADDR, its frames captured if TAG
rc_over() {
	local dev=$1 addr=$2 name=$3 tag=$4 gid
	gid=$(lab_gid_index "$addr" "$dev") || {
		lab_fail "guest$LAB_ID: $dev has no GID of $addr"
	}
	[ -n "$tag" ] && tag_capture
	lab_pair "$name-pingpong" 120 lab_pingpong ibv_rc_pingpong -d "$dev" \
		-g "$gid" -n 200 -s 4096 -c
	[ -n "$tag" ] && lab_check "guest$LAB_ID: $name RoCE frames tagged vlan 100 PCP 3" tagged
}

up_addr() { echo "10.$1.0.$a"; }
peer0() { echo "10.$1.0.1"; }

# upper_ping SUBNET: the peer answers on the upper device
upper_ping() {
	lab_barrier "made-$1" || exit 1
	lab_check "guest$LAB_ID: ping over 10.$1.0.0/24" \
		ping -c 2 -W 10 "10.$1.0.$((2 - LAB_ID))"
}

ip link add link eth0 name eth0.100 type vlan id 100 egress-qos-map 0:3
ip addr add "$(up_addr 100)/24" dev eth0.100
ip link set eth0.100 up
upper_ping 100

if want real; then
	lab_check "guest$LAB_ID: sr0 (eth0) has eth0.100's address as a GID on eth0.100" \
		gid_ndev sr0 "$(up_addr 100)" eth0.100
	lab_check "guest$LAB_ID: sroce on VLAN eth0.100 refused (no IP GIDs)" \
		refused srv sroce eth0.100 "a VLAN, which gets no IP GIDs"
	lab_check "guest$LAB_ID: siwarp on eth0.100 refused beside sw0 on eth0" \
		refused swv siwarp eth0.100 "its real device carries one already"
	rc_over sr0 "$(up_addr 100)" real-vlan tag
	lab_pair real-vlan-rping 120 up_rping "$(peer0 100)" "$RPING_COUNT" 4096
	lab_check "guest$LAB_ID: rdma link del sr0 sw0" \
		bash -c 'rdma link del sr0 && rdma link del sw0'
fi

# peer_mac NDEV SUBNET MAC: our frames to the peer's address on NDEV go
# to MAC (a permanent neighbour entry: one of the answers ARP may give,
# made certain)
peer_mac() {
	ip neigh replace "10.$2.0.$((2 - LAB_ID))" lladdr "$3" dev "$1" \
		nud permanent && ip neigh show dev "$1"
}

# the MAC of the peer's eth0, from its lab address
peer_eth0_mac() {
	local peer
	peer=$(lab_peer_addr $((1 - LAB_ID)))
	ping -c 1 -W 10 "$peer" >/dev/null &&
		ip neigh show "$peer" dev eth0 |
		awk '{ for (i = 1; i < NF; i++) if ($i == "lladdr") print $(i + 1) }'
}

# rc_via IBDEV SUBNET NDEV NAME [KIND:MAC]...: the RC pingpong over
# IBDEV's GID of our address on NDEV; with KIND:MAC pairs, once per pair,
# our frames to the peer's address going to MAC (checks NAME-KIND-...)
rc_via() {
	local dev=$1 s=$2 nd=$3 name=$4 pin
	shift 4
	[ $# -gt 0 ] || set -- ""
	for pin; do
		if [ -n "$pin" ]; then
			lab_check "guest$LAB_ID: $name: frames to the peer's 10.$s.0.0/24 address go to its ${pin%%:*} (${pin#*:})" \
				peer_mac "$nd" "$s" "${pin#*:}"
			rc_over "$dev" "$(up_addr "$s")" "$name-${pin%%:*}"
		else
			rc_over "$dev" "$(up_addr "$s")" "$name"
		fi
	done
}

# over_upper SUBNET NDEV NAME [KIND:MAC]...: an sroce device alone on NDEV
# (GID, RC pingpong as rc_via, rping over RoCE; refused on a VLAN), then a
# siwarp device alone (rping)
over_upper() {
	local s=$1 nd=$2 name=$3
	shift 3
	if [ "$nd" = eth0.100 ]; then
		lab_check "guest$LAB_ID: sroce on VLAN eth0.100 refused (no IP GIDs)" \
			refused ru0 sroce eth0.100 "a VLAN, which gets no IP GIDs"
	else
		lab_check "guest$LAB_ID: rdma link add ru0 type sroce netdev $nd" \
			rdma link add ru0 type sroce netdev "$nd"
		lab_check "guest$LAB_ID: ru0 has $nd's address as a GID on $nd" \
			gid_ndev ru0 "$(up_addr "$s")" "$nd"
		lab_barrier "$name-sroce-up" || exit 1
		rc_via ru0 "$s" "$nd" "$name" "$@"
		lab_pair "$name-sroce-rping" 120 up_rping "$(peer0 "$s")" "$RPING_COUNT" 4096
		lab_check "guest$LAB_ID: rdma link del ru0" rdma link del ru0
	fi
	lab_check "guest$LAB_ID: rdma link add wu0 type siwarp netdev $nd" \
		rdma link add wu0 type siwarp netdev "$nd"
	if [ "$nd" = eth0.100 ]; then
		lab_check "guest$LAB_ID: siwarp on eth0 refused beside wu0 on eth0.100" \
			refused wr0 siwarp eth0 "a VLAN on it carries one already"
	fi
	if [ "$nd" = ipv0 ]; then
		lab_check "guest$LAB_ID: siwarp on eth0 refused beside wu0 on ipv0 (one MAC)" \
			refused wr0 siwarp eth0 "a netdev with its MAC"
	fi
	lab_barrier "$name-siwarp-up" || exit 1
	lab_pair "$name-siwarp-rping" 120 up_rping "$(peer0 "$s")" "$RPING_COUNT" 4096
	lab_check "guest$LAB_ID: rdma link del wu0" rdma link del wu0
}

want vlan && over_upper 100 eth0.100 vlan
# a macvlan's MAC: locally administered, one per guest
mv_mac() { printf '02:00:00:00:65:%02x\n' "$1"; }

if want macvlan; then
	ip link add mv0 link eth0 address "$(mv_mac "$a")" type macvlan mode bridge
	ip addr add "$(up_addr 101)/24" dev mv0
	ip link set mv0 up
	upper_ping 101
	# The peer's eth0 answers ARP for its macvlan's address with its own
	# MAC, ahead of the macvlan: frames sent there stay on eth0.  Each
	# way is pinned in turn, the macvlan's own MAC last.
	peer_eth0=$(peer_eth0_mac)
	[ -n "$peer_eth0" ] || lab_fail "guest$LAB_ID: no MAC for the peer's eth0"
	pins=("lower:$peer_eth0" "macvlan:$(mv_mac $((2 - LAB_ID)))")
	over_upper 101 mv0 macvlan "${pins[@]}"
	# a device on eth0 holds mv0's address as a GID on mv0 (the RDMA
	# core gives it its uppers' addresses): frames for it arriving on
	# the peer's mv0 or eth0 go to the peer's device on eth0
	lab_check "guest$LAB_ID: rdma link add rl0 type sroce netdev eth0" \
		rdma link add rl0 type sroce netdev eth0
	lab_check "guest$LAB_ID: rl0 (eth0) has mv0's address as a GID on mv0" \
		gid_ndev rl0 "$(up_addr 101)" mv0
	lab_barrier macvlan-real-up || exit 1
	rc_via rl0 101 mv0 macvlan-real "${pins[@]}"
	lab_check "guest$LAB_ID: rdma link del rl0" rdma link del rl0
	ip link del mv0
fi
if want ipvlan; then
	# one rx_handler per lower device: not beside a macvlan
	ip link add ipv0 link eth0 type ipvlan mode l2
	ip addr add "$(up_addr 102)/24" dev ipv0
	ip link set ipv0 up
	upper_ping 102
	over_upper 102 ipv0 ipvlan
	ip link del ipv0
fi

# gone_saying DEV TEXT: DEV goes away (its unregistration is queued) and
# the kernel log says TEXT
gone_saying() {
	lab_wait_for 10 eval "! rdma dev show $1 >/dev/null 2>&1" ||
		{ echo "$1 still there"; rdma dev show; return 1; }
	dmesg | grep -F "$2"
}

if want bondref; then
	ip link add bond0 type bond mode active-backup miimon 100
	ip link add d0 type dummy
	ip link add d1 type dummy
	ip link set d0 master bond0
	ip link set d1 master bond0
	ip link set bond0 up
	lab_check "guest$LAB_ID: sroce on bond slave d0 refused" \
		refused rb0 sroce d0 "a bond or team port"
	lab_check "guest$LAB_ID: siwarp on bond slave d1 refused" \
		refused wb0 siwarp d1 "a bond or team port"
	lab_check "guest$LAB_ID: rdma link add rb1 type sroce netdev bond0" \
		rdma link add rb1 type sroce netdev bond0
	lab_check "guest$LAB_ID: rdma link del rb1" rdma link del rb1
	ip link del bond0
	ip link del d0
	ip link del d1

	# a bridge takes its ports' frames: a port is refused, and a device
	# on a netdev that becomes one goes, saying where to add it
	ip link add br9 type bridge
	ip link add d5 type dummy
	ip link add d6 type dummy
	ip link set d5 master br9
	lab_check "guest$LAB_ID: sroce on bridge port d5 refused" \
		refused rp0 sroce d5 "a bridge port"
	lab_check "guest$LAB_ID: siwarp on bridge port d5 refused" \
		refused wp0 siwarp d5 "a bridge port"
	if lab_check "guest$LAB_ID: rdma link add rp1 type sroce netdev d6" \
		rdma link add rp1 type sroce netdev d6; then
		ip link set d6 master br9
		lab_check "guest$LAB_ID: rp1 goes when d6 joins br9, saying why" \
			gone_saying rp1 "d6 is now a port of br9"
	fi
	ip link del br9
	ip link del d5
	ip link del d6

	# a team's mode is teamd's business: refused for both types
	if lab_check "guest$LAB_ID: ip link add team0 type team" \
		ip link add team0 type team; then
		lab_check "guest$LAB_ID: sroce on team0 refused" \
			refused rt0 sroce team0 "a team device"
		lab_check "guest$LAB_ID: siwarp on team0 refused" \
			refused wt0 siwarp team0 "a team device"
		ip link del team0
	fi
fi

# mac_gid IBDEV NDEV: IBDEV's GID 0 is NDEV's MAC (iWARP), as the RDMA
# core's GID cache has it
mac_gid() {
	local mac gid want
	read -r mac <"/sys/class/net/$2/address"
	read -r gid <"/sys/class/infiniband/$1/ports/1/gids/0"
	mac=${mac//:/}
	want="${mac:0:4}:${mac:4:4}:${mac:8:4}:0000:0000:0000:0000:0000"
	echo "$1 GID 0 $gid, $2 MAC $want"
	[ "$gid" = "$want" ]
}

# bond0's packet counters, without starting a program
bond_rx() {
	local n
	read -r n </sys/class/net/bond0/statistics/rx_packets
	echo "$n"
}
bond_busy() { [ "$(bond_rx)" -ge "$1" ]; }
bond_active() {
	local a
	read -r a </sys/class/net/bond0/bonding/active_slave
	[ "$a" = "$1" ]
}

# bond_failover HOW: once frames arrive on bond0, make the dummy its
# active port (HOW active_slave: written to sysfs; carrier: eth0 set
# down), wait a second (everything is lost meanwhile) and go back to
# eth0; then frames must arrive again
bond_failover() {
	local n ok=1
	n=$(bond_rx)
	lab_wait_for 60 bond_busy $((n + 300)) ||
		{ echo "FAIL: no traffic on bond0"; return 1; }
	echo "$(bond_rx) frames in: failing over ($1)"
	case $1 in
	active_slave) echo bd0 >/sys/class/net/bond0/bonding/active_slave ;;
	carrier) ip link set eth0 down ;;
	esac
	lab_wait_for 5 bond_active bd0 || {
		echo "FAIL: bd0 not active: $(cat /sys/class/net/bond0/bonding/active_slave)"
		ok=
	}
	lab_nap 1
	case $1 in
	active_slave) echo eth0 >/sys/class/net/bond0/bonding/active_slave ;;
	carrier) ip link set eth0 up ;;
	esac
	lab_wait_for 10 bond_active eth0 || { echo "FAIL: eth0 not active again"; return 1; }
	[ -n "$ok" ] || return 1
	n=$(bond_rx)
	echo "back on eth0 at $n frames in"
	lab_wait_for 60 bond_busy $((n + 100)) ||
		{ echo "FAIL: no traffic after the failover"; return 1; }
	echo "traffic again: $(bond_rx) frames in"
}

# bond_traffic HOW CMD...: CMD; on guest0 bond_failover HOW meanwhile,
# which must succeed too
bond_traffic() {
	local how=$1 fo rc frc log=$LAB_OUT/checks/bond-failover-$1.log
	shift
	[ "$LAB_ID" = 0 ] || { "$@"; return; }
	bond_failover "$how" >"$log" 2>&1 &
	fo=$!
	"$@"
	rc=$?
	wait "$fo"
	frc=$?
	cat "$log"
	[ "$rc" = 0 ] && [ "$frc" = 0 ]
}

if want bond; then
	ip link add bond1 type bond mode balance-rr
	lab_check "guest$LAB_ID: sroce on a balance-rr bond refused" \
		refused rr0 sroce bond1 "a bond in balance-rr or broadcast mode"
	lab_check "guest$LAB_ID: rdma link add wr1 type siwarp netdev bond1 (balance-rr)" \
		rdma link add wr1 type siwarp netdev bond1
	rdma link del wr1
	ip link set bond1 type bond mode active-backup
	lab_check "guest$LAB_ID: rdma link add rr1 type sroce netdev bond1 (active-backup)" \
		rdma link add rr1 type sroce netdev bond1
	ip link set bond1 type bond mode balance-rr
	ip link add bd1 type dummy
	ip link set bd1 master bond1
	lab_check "guest$LAB_ID: rr1 removed when bond1, now balance-rr, takes a port" \
		gone_saying rr1 "bond1 took a port as a bond in balance-rr"
	ip link del bond1
	ip link del bd1

	# the lab's devices on eth0 go, the test's own come; eth0 joins
	# bond0 without uppers of its own
	ip link del eth0.100
	for l in $(rdma link show | awk '$NF == "eth0" { sub("/.*", "", $2); print $2 }'); do
		rdma link del "$l"
	done
	lab_check "guest$LAB_ID: rdma link add re0 type sroce netdev eth0" \
		rdma link add re0 type sroce netdev eth0
	lab_check "guest$LAB_ID: rdma link add we0 type siwarp netdev eth0" \
		rdma link add we0 type siwarp netdev eth0
	ip link add bond0 type bond mode active-backup miimon 100
	ip link add bd0 type dummy
	lab_check "guest$LAB_ID: rdma link add wb0 type siwarp netdev bond0 (no ports yet)" \
		rdma link add wb0 type siwarp netdev bond0
	# a MAC of its own, for its ports too
	ip link set bond0 address "$(printf '02:00:00:00:b0:%02x' "$a")"
	addr=$(lab_peer_addr "$LAB_ID")
	ip addr flush dev eth0
	ip link set eth0 down
	ip link set eth0 master bond0
	ip link set bd0 master bond0
	ip link set bond0 type bond primary eth0
	ip link set bond0 up
	ip addr add "$addr/24" dev bond0
	ip addr add "$(lab_peer_addr6 "$LAB_ID")/64" dev bond0 nodad
	lab_check "guest$LAB_ID: re0 (eth0) removed when eth0 joins bond0" \
		gone_saying re0 "eth0 is now a port of bond0: removing the device"
	lab_check "guest$LAB_ID: we0 (eth0) removed when eth0 joins bond0" \
		gone_saying we0 "eth0 is now a port of bond0: removing the device"
	lab_check "guest$LAB_ID: bond0's active port is eth0" \
		lab_wait_for 10 bond_active eth0
	lab_barrier bond-made || exit 1
	lab_check "guest$LAB_ID: ping over bond0" \
		lab_retry 5 1 ping -c 2 -W 5 "$(lab_peer_addr $((1 - LAB_ID)))"
	lab_check "guest$LAB_ID: wb0's GID is bond0's MAC, set after wb0 was added" \
		mac_gid wb0 bond0
	lab_check "guest$LAB_ID: rdma link add rb0 type sroce netdev bond0" \
		rdma link add rb0 type sroce netdev bond0
	lab_check "guest$LAB_ID: rb0 has bond0's address as a GID on bond0" \
		lab_wait_for 10 gid_ndev rb0 "$addr" bond0
	gid=$(lab_gid_index "$addr" rb0)
	lab_barrier bond-roce-up || exit 1
	# a retransmit timeout of 4 us * 2^18, about 1 s, 7 times: the
	# connection outlives a failover of a second or two
	lab_pair bond-failover-ib_write_bw 180 bond_traffic active_slave \
		lab_perftest 65536 2000 ib_write_bw -d rb0 -x "$gid" -s 65536 \
		-n 2000 -u 18
	lab_check "guest$LAB_ID: rdma link del rb0" rdma link del rb0
	lab_barrier bond-siwarp-up || exit 1
	lab_pair bond-failover-rping 180 bond_traffic carrier \
		lab_rping_checked 2000 4096
	lab_check "guest$LAB_ID: rdma link del wb0" rdma link del wb0
	ip link del bond0
	ip link del bd0
	ip link set eth0 up
	ip addr add "$addr/24" dev eth0
	ip addr add "$(lab_peer_addr6 "$LAB_ID")/64" dev eth0 nodad
fi

# --- container ---------------------------------------------------------------
# A pod's view: guest0's namespace ctr holds a macvlan of eth0, named eth0
# there, with the addresses a third host of the lab subnet would have;
# its RDMA devices are added inside it and talk to guest1's on eth0.
CTR_ADDR=$(lab_peer_addr 100)
CTR_ADDR6=$(lab_peer_addr6 100)

in_ctr() { ip netns exec ctr "$@"; }

# lab_devs: sw0 (first, for the rdma_cm) and sr0 on eth0, as the stack
# has them
lab_devs() {
	[ -e /sys/class/infiniband/sw0 ] || rdma link add sw0 type siwarp netdev eth0 || return 1
	[ -e /sys/class/infiniband/sr0 ] || rdma link add sr0 type sroce netdev eth0 || return 1
	rdma link show
}

# ctr_make: ctr, its eth0 a macvlan (bridge) of ours, lo and eth0 up
ctr_make() {
	ip netns add ctr &&
		ip link add ctrmv link eth0 address "$(printf '02:00:00:00:c7:%02x' "$a")" \
			type macvlan mode bridge &&
		ip link set ctrmv netns ctr &&
		ip -n ctr link set ctrmv name eth0 &&
		ip -n ctr addr add "$CTR_ADDR/24" dev eth0 &&
		ip -n ctr addr add "$CTR_ADDR6/64" dev eth0 nodad &&
		ip -n ctr link set lo up &&
		ip -n ctr link set eth0 up &&
		ip -n ctr -d link show eth0
}

# no_ctr_gids: init_net's sr0 has neither of ctr's addresses as a GID
no_ctr_gids() {
	! lab_gid_index "$CTR_ADDR" sr0 >/dev/null &&
		! lab_gid_index "$CTR_ADDR6" sr0 >/dev/null
}

# ctr_gid ADDR: rc0's GID index of ADDR, its netdev ctr's eth0 (ctr's sysfs)
ctr_gid() {
	in_ctr bash -c "$(declare -f lab_gid_string lab_gid_index)
		i=\$(lab_gid_index $1 rc0) || exit 1
		nd=\$(cat /sys/class/infiniband/rc0/ports/1/gid_attrs/ndevs/\$i)
		[ \"\$nd\" = eth0 ] || { echo \"GID \$i of $1 on \$nd\" >&2; exit 1; }
		echo \$i"
}

# lists WHERE DEV...: "rdma link" and ibv_devices run in WHERE (ctr, or
# init_net) list each DEV
lists() {
	local where=$1 run=() d links ibv
	shift
	[ "$where" = ctr ] && run=(ip netns exec ctr)
	links=$("${run[@]}" rdma link show) && ibv=$("${run[@]}" ibv_devices) || return 1
	echo "$links"
	echo "$ibv"
	for d; do
		grep -q "^link $d/1 " <<<"$links" || { echo "rdma link: no $d"; return 1; }
		grep -qw "$d" <<<"$ibv" || { echo "ibv_devices: no $d"; return 1; }
	done
}
# lists_none WHERE DEV...: neither lists any DEV
lists_none() {
	local where=$1 run=() d links ibv
	shift
	[ "$where" = ctr ] && run=(ip netns exec ctr)
	links=$("${run[@]}" rdma link show) && ibv=$("${run[@]}" ibv_devices) || return 1
	echo "$links"
	echo "$ibv"
	for d; do
		! grep -qw "$d" <<<"$links"$'\n'"$ibv" || { echo "$d listed in $where"; return 1; }
	done
}

# here_listening PORT: a TCP socket (an iWARP listener too) listens on
# PORT on this side: guest0's in ctr, seen through ctr's keeper process
here_listening() {
	local dir=/proc/net f hex laddr st _
	[ "$LAB_ID" = 0 ] && dir=/proc/$KEEPER/net
	printf -v hex '%04X' "$1"
	for f in "$dir/tcp" "$dir/tcp6"; do
		while read -r _ laddr _ st _; do
			[ "${laddr##*:}" = "$hex" ] && [ "$st" = 0A ] && return 0
		done <"$f"
	done
	return 1
}

# ctr_pair NAME SRV FN ARGS...: "FN ARGS server PORT" on guest SRV and,
# once it listens, "FN ARGS client PORT" on the other guest; checks
# "NAME server" and "NAME client"
ctr_pair() {
	local name=$1 srv=$2 pid out=/tmp/$1.srv
	shift 2
	# shellcheck disable=SC2034 # read by lab_rping_exit_race
	CUR=$name
	port=$((port + 1))
	if [ "$LAB_ID" = "$srv" ]; then
		"$@" server "$port" >"$out" 2>&1 &
		pid=$!
		lab_wait_for 30 here_listening "$port"
		lab_barrier "$name" || exit 1
		lab_check "$name server" ctr_waited "$pid" "$out"
	else
		lab_barrier "$name" || exit 1
		lab_check "$name client" "$@" client "$port"
	fi
	lab_barrier "$name-done" 180 || exit 1
}
ctr_waited() {
	local rc
	wait "$1"
	rc=$?
	cat "$2"
	return $rc
}

# ctr_pp 4|6 ROLE PORT: ibv_rc_pingpong -c, 200 x 4096 B, over this
# side's IPv4 or IPv6 GID (guest0: rc0's, in ctr; guest1: sr0's); the
# TCP exchange goes over IPv4
ctr_pp() {
	local gid=$G4 dev=sr0 peer=$CTR_ADDR run=()
	[ "$1" = 6 ] && gid=$G6
	if [ "$LAB_ID" = 0 ]; then
		dev=rc0 run=(ip netns exec ctr) peer=$(lab_peer_addr 1)
	fi
	[ "$2" = client ] || peer=
	TMO=60 lab_pingpong "${run[@]}" ibv_rc_pingpong -d "$dev" -g "$gid" \
		-c -n 200 -s 4096 -p "$3" ${peer:+"$peer"}
}

# ctr_rping ROLE PORT: rping -V, 20 pings of 4096 B, between ctr (rw0)
# and guest1 (sw0); the client prints and counts them
ctr_rping() {
	local me=$LAB_ADDR peer=$CTR_ADDR run=() out rc
	if [ "$LAB_ID" = 0 ]; then
		me=$CTR_ADDR peer=$(lab_peer_addr 1) run=(ip netns exec ctr)
	fi
	if [ "$1" = server ]; then
		out=$(TMO=90 lab_run "${run[@]}" rping -s -a "$me" -p "$2" -V -C 20 -S 4096 2>&1)
		rc=$?
		echo "$out"
		lab_rping_exit_race "$rc" <<<"$out" && rc=0
		return $rc
	fi
	out=$(TMO=60 lab_run "${run[@]}" rping -c -v -V -C 20 -S 4096 -p "$2" -a "$peer" 2>&1)
	rc=$?
	echo "$out" | tail -n 5
	lab_rping_exit_race "$rc" <<<"$out" && rc=0
	[ $rc -eq 0 ] || return $rc
	lab_rping_pings 20 <<<"$out"
}

# live_qp: rc0 has an RC QP and receives
rc0_rcv() {
	in_ctr rdma statistic show link rc0/1 |
		sed -n 's/.* port_rcv_packets \([0-9]*\).*/\1/p'
}
live_qp() {
	local x y
	in_ctr rdma resource show qp | grep 'link rc0/1.*RC' || return 1
	x=$(rc0_rcv)
	lab_nap 1
	y=$(rc0_rcv)
	echo "port_rcv_packets $x, then $y"
	[ -n "$x" ] && [ -n "$y" ] && [ "$y" -gt "$x" ]
}

no_ns_left() {
	ip netns list
	[ -z "$(ip netns list)" ] && lists init_net sr0 sw0
}

# ctr_gone: rc0 and rw0 are listed nowhere (shared mode: init_net lists
# every device) and no macvlan is left
ctr_gone() {
	! rdma dev show | grep -E '^[0-9]+: (rc0|rw0):' &&
		[ ! -e /sys/class/infiniband/rc0 ] && [ ! -e /sys/class/infiniband/rw0 ] &&
		[ -z "$(ip link show type macvlan)" ]
}

if want container; then
	lab_check "guest$LAB_ID: sw0 and sr0 on eth0" lab_devs
	if [ "$LAB_ID" = 0 ]; then
		lab_check "guest0: rdma system set netns exclusive" \
			rdma system set netns exclusive
		lab_check "guest0: namespace ctr, its eth0 a macvlan (bridge) of eth0, $CTR_ADDR, $CTR_ADDR6" \
			ctr_make
		# a process in ctr, whose /proc/PID/net shows ctr's sockets
		ip netns exec ctr sleep 600 &
		KEEPER=$!
		# siwarp first: the RDMA CM binds an address to the first
		# device with it
		lab_check "guest0: rdma link add in ctr: rw0 (siwarp) and rc0 (sroce) on its eth0" \
			bash -c 'ip netns exec ctr rdma link add rw0 type siwarp netdev eth0 &&
				ip netns exec ctr rdma link add rc0 type sroce netdev eth0'
		lab_check "guest0: rdma link and ibv_devices in ctr list rc0 and rw0" \
			lists ctr rc0 rw0
		lab_check "guest0: ctr lists neither sr0 nor sw0 (init_net's)" \
			lists_none ctr sr0 sw0
		lab_check "guest0: rdma link and ibv_devices in init_net list sr0 and sw0" \
			lists init_net sr0 sw0
		lab_check "guest0: init_net lists neither rc0 nor rw0 (ctr's)" \
			lists_none init_net rc0 rw0
		lab_check "guest0: rc0 has $CTR_ADDR and $CTR_ADDR6 as GIDs on ctr's eth0" \
			lab_wait_for 10 eval 'ctr_gid "$CTR_ADDR" && ctr_gid "$CTR_ADDR6"'
		G4=$(ctr_gid "$CTR_ADDR")
		G6=$(ctr_gid "$CTR_ADDR6")
		# exclusive mode: init_net's sr0 does not carry ctr's addresses,
		# though ctr's eth0 is an upper of its netdev
		lab_check "guest0: sr0 (init_net) has none of ctr's addresses as GIDs" \
			no_ctr_gids
	fi
	lab_barrier container-up || exit 1
	if [ "$LAB_ID" = 1 ]; then
		lab_check "guest1: sr0 has GIDs of $LAB_ADDR and $LAB_ADDR6" \
			lab_wait_for 10 eval 'lab_gid_index "$LAB_ADDR" sr0 && lab_gid_index "$LAB_ADDR6" sr0'
		G4=$(lab_gid_index "$LAB_ADDR" sr0)
		G6=$(lab_gid_index "$LAB_ADDR6" sr0)
		lab_check "guest1: ping $CTR_ADDR and $CTR_ADDR6 (guest0's ctr)" bash -c \
			"ping -c 2 -W 10 $CTR_ADDR && ping -6 -c 2 -W 10 $CTR_ADDR6"
	fi
	ctr_pair container-v4-pingpong 0 ctr_pp 4
	ctr_pair container-v6-pingpong 1 ctr_pp 6
	ctr_pair container-rping 0 ctr_rping
	ctr_pair container-rping-back 1 ctr_rping

	# ctr deleted under an RC pingpong with guest1: its QP is live
	# until the pingpong, the last process in ctr, is killed
	port=$((port + 1))
	if [ "$LAB_ID" = 0 ]; then
		# ip netns exec execs the program: $! is the pingpong's pid
		ip netns exec ctr ibv_rc_pingpong -d rc0 -g "$G4" -n 100000000 \
			-p "$port" >"$LAB_OUT/container-live.srv" 2>&1 &
		live=$!
		lab_wait_for 30 here_listening "$port"
		lab_barrier container-live || exit 1
		lab_check "guest0: rc0 (in ctr) has a live RC QP, receiving" \
			lab_wait_for 20 live_qp
		lab_check "guest0: ip netns del ctr under traffic" ip netns del ctr
		lab_check "guest0: the pingpong in ctr still runs" kill -0 "$live"
		kill -KILL "$live" "$KEEPER" 2>/dev/null
		wait "$live" "$KEEPER" 2>/dev/null
		# only once no namespace is left
		lab_check "guest0: ctr exited: rdma system set netns shared" \
			lab_wait_for 60 rdma system set netns shared
		lab_check "guest0: rc0, rw0 and ctr's macvlan gone, not moved to init_net" \
			lab_wait_for 30 ctr_gone
		lab_check "guest0: no namespace left, sr0 and sw0 still there" no_ns_left
		lab_barrier container-gone || exit 1
	else
		lab_barrier container-live || exit 1
		ibv_rc_pingpong -d sr0 -g "$G4" -n 100000000 -p "$port" "$CTR_ADDR" \
			>"$LAB_OUT/container-live.cli" 2>&1 &
		live=$!
		lab_barrier container-gone || exit 1
		kill -KILL "$live" 2>/dev/null
		wait "$live" 2>/dev/null
		lab_note "guest1's pingpong with ctr, ctr deleted: $(tail -n 2 "$LAB_OUT/container-live.cli" | tr '\n' ' ')"
	fi
fi
lab_barrier finished || exit 1
