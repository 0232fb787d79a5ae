# SPDX-License-Identifier: GPL-2.0
#
# The skeleton's device life cycle on one guest: autoload through
# "rdma link add", one sroce and one siwarp device on the same netdev, what
# stock rdma-core sees of them, GIDs, port state following the netdev, MTU
# following the netdev, refusals of bad input, removal by "rdma link del",
# by netdev unregister and by rmmod.
#
# Runs with --stack none: the scenario loads softrdma itself.

[ "$LAB_ID" = 0 ] || exit 0

port_state() { cat "/sys/class/infiniband/$1/ports/1/state"; }

module_loaded() { grep -q '^softrdma ' /proc/modules; }
link_listed() { rdma link show | grep -q "^link $1/1 .* netdev $2\b"; }
no_link() { ! rdma link show | grep -q "^link $1/"; }
state_is() { port_state "$1" | grep -q "$2"; }

gid_present() { # DEV GID TYPE
	local f
	for f in "/sys/class/infiniband/$1/ports/1/gids/"*; do
		if [ "$(cat "$f" 2>/dev/null)" = "$2" ] &&
			grep -q "$3" "/sys/class/infiniband/$1/ports/1/gid_attrs/types/${f##*/}"; then
			return 0
		fi
	done
	return 1
}

devinfo_clean() { # DEV TRANSPORT
	local err=/tmp/devinfo.$1.err out=/tmp/devinfo.$1.out
	IBV_SHOW_WARNINGS=1 ibv_devinfo -v -d "$1" >"$out" 2>"$err" || return 1
	cat "$out" "$err"
	[ ! -s "$err" ] || { echo "stderr not empty"; return 1; }
	grep -q "transport:.*$2" "$out" || { echo "transport is not $2"; return 1; }
	grep -q "link_layer:.*Ethernet" "$out" || return 1
	grep -q "state:.*PORT_ACTIVE" "$out" || return 1
	grep -q "max_mtu:.*4096" "$out" || return 1
	grep -q "fw_ver:.*0\.1\.0" "$out" || return 1
}

active_mtu_is() { ibv_devinfo -d "$1" | grep -q "active_mtu:[[:space:]]*$2 "; }

links_snapshot() { rdma link show | sort; }
unchanged_since() { [ "$(links_snapshot)" = "$1" ]; }

lab_check "softrdma is not loaded before rdma link add" bash -c '! grep -q "^softrdma " /proc/modules'
lab_check "rdma link add sr0 type sroce netdev eth0" rdma link add sr0 type sroce netdev eth0
lab_check "the sroce link type autoloaded softrdma" module_loaded
lab_check "rdma link add sw0 type siwarp netdev eth0 (same netdev)" \
	rdma link add sw0 type siwarp netdev eth0
lab_check "rdma link show lists sr0 on eth0" link_listed sr0 eth0
lab_check "rdma link show lists sw0 on eth0" link_listed sw0 eth0
lab_check "ibv_devices lists sr0 and sw0" bash -c \
	'ibv_devices | grep -qw sr0 && ibv_devices | grep -qw sw0'
lab_check "sr0: ibv_devinfo -v binds librxe without warnings, RoCE attributes" \
	devinfo_clean sr0 InfiniBand
lab_check "sw0: ibv_devinfo -v binds libsiw without warnings, iWARP attributes" \
	devinfo_clean sw0 iWARP
lab_check "sr0 and sw0 have distinct node GUIDs" bash -c \
	'[ "$(cat /sys/class/infiniband/sr0/node_guid)" != "$(cat /sys/class/infiniband/sw0/node_guid)" ]'

mapped=0000:0000:0000:0000:0000:ffff:c000:0201
v6=2001:0db8:0000:0000:0000:0000:0000:0001
lab_check "sr0 GID table holds the IPv4-mapped GID (RoCE v2)" \
	lab_wait_for 10 gid_present sr0 "$mapped" "RoCE v2"
lab_check "sr0 GID table holds the IPv6 GID (RoCE v2)" \
	lab_wait_for 10 gid_present sr0 "$v6" "RoCE v2"
lab_check "sr0 GID table holds the link-local GID" bash -c \
	'grep -q "^fe80:" /sys/class/infiniband/sr0/ports/1/gids/*'

# Port state follows the netdev, and consumers get port events.
sysctl -qw net.ipv6.conf.eth0.keep_addr_on_down=1
ibv_asyncwatch -d sr0 >/tmp/asyncwatch.log 2>&1 &
watcher=$!
sleep 1
lab_check "ip link set eth0 down: sr0 port DOWN" bash -c \
	'ip link set eth0 down && sleep 0.5 && grep -q DOWN /sys/class/infiniband/sr0/ports/1/state'
lab_check "ip link set eth0 down: sw0 port DOWN" state_is sw0 DOWN
lab_check "ip link set eth0 up: sr0 port ACTIVE again" bash -c \
	'ip link set eth0 up && for i in $(seq 50); do grep -q ACTIVE /sys/class/infiniband/sr0/ports/1/state && exit 0; sleep 0.2; done; exit 1'
lab_check "ip link set eth0 up: sw0 port ACTIVE again" lab_wait_for 10 state_is sw0 ACTIVE
sleep 1
kill "$watcher" 2>/dev/null
wait "$watcher" 2>/dev/null
lab_check "sr0 consumers saw PORT_ERR then PORT_ACTIVE" bash -c \
	'cat /tmp/asyncwatch.log; grep -q PORT_ERR /tmp/asyncwatch.log && grep -q PORT_ACTIVE /tmp/asyncwatch.log'

# MTU follows the netdev.
lab_check "eth0 mtu 1500: sr0 active_mtu 1024" active_mtu_is sr0 1024
lab_check "eth0 mtu 9000: sr0 active_mtu 4096" bash -c \
	'ip link set eth0 mtu 9000 && ibv_devinfo -d sr0 | grep -q "active_mtu:[[:space:]]*4096 "'
lab_check "eth0 mtu 9000: sw0 active_mtu 4096" active_mtu_is sw0 4096
lab_check "eth0 mtu 2200: sr0 active_mtu 2048" bash -c \
	'ip link set eth0 mtu 2200 && ibv_devinfo -d sr0 | grep -q "active_mtu:[[:space:]]*2048 "'
ip link set eth0 mtu 1500
lab_check "eth0 mtu back to 1500: sr0 active_mtu 1024" active_mtu_is sr0 1024

# Bad input: a clear error and no change.
modprobe dummy
ip link add d0 type dummy
ip link set d0 up
before=$(links_snapshot)
lab_expect_fail "rdma link add on an unknown netdev fails" \
	rdma link add x0 type sroce netdev nosuch0
lab_expect_fail "rdma link add sroce on lo (not Ethernet) fails" \
	rdma link add x0 type sroce netdev lo
lab_expect_fail "rdma link add siwarp on lo (not Ethernet) fails" \
	rdma link add x0 type siwarp netdev lo
lab_check "the kernel log says why lo was refused" bash -c \
	'dmesg | grep -q "softrdma: cannot add sroce device x0 on lo: not an Ethernet device"'
lab_expect_fail "rdma link add with a name in use (sr0 on d0) fails" \
	rdma link add sr0 type sroce netdev d0
lab_expect_fail "rdma link add siwarp with a name in use (sr0) fails" \
	rdma link add sr0 type siwarp netdev d0
lab_check "a second sroce device on eth0 fails with EEXIST" bash -c \
	'! rdma link add sr1 type sroce netdev eth0 2>/tmp/err; cat /tmp/err; grep -q "File exists" /tmp/err'
lab_check "a second siwarp device on eth0 fails with EEXIST" bash -c \
	'! rdma link add sw1 type siwarp netdev eth0 2>/tmp/err; cat /tmp/err; grep -q "File exists" /tmp/err'
lab_check "refused requests left the links unchanged" unchanged_since "$before"

# Removal.
lab_check "rdma link del sr0" rdma link del sr0
lab_check "sr0 is gone, sw0 stays" bash -c \
	'! rdma link show | grep -q "^link sr0/" && rdma link show | grep -q "^link sw0/" && [ ! -e /sys/class/infiniband/sr0 ]'
lab_check "rdma link del sw0" rdma link del sw0
lab_check "sw0 is gone" no_link sw0
# A device that fails after it was allocated (here: another process holds
# UDP port 4791) is freed whole, its netdev reference dropped once.
udp_holder() {
	python3 -c 'import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("0.0.0.0", 4791))
open("/tmp/holder.up", "w").close()
time.sleep(60)' &
	holder=$!
	lab_wait_for 10 test -e /tmp/holder.up
}
rm -f /tmp/holder.up
if lab_check "a process holds UDP port 4791" udp_holder; then
	lab_check "rdma link add sroce fails while port 4791 is taken" bash -c \
		'! rdma link add sr8 type sroce netdev d0 2>/tmp/err; cat /tmp/err; dmesg | tail -3'
	kill "$holder"
	wait "$holder" 2>/dev/null
	lab_check "no sr8 is left behind" no_link sr8
	lab_check "with the port free again, sroce on d0 comes and goes" bash -c \
		'rdma link add sr8 type sroce netdev d0 && rdma link del sr8'
fi
lab_check "sroce and siwarp on a dummy netdev" bash -c \
	'rdma link add sr9 type sroce netdev d0 && rdma link add sw9 type siwarp netdev d0'
lab_check "ip link del d0 removes both devices" bash -c \
	'ip link del d0; for i in $(seq 50); do rdma link show | grep -q "^link s[rw]9/" || exit 0; sleep 0.2; done; rdma link show; exit 1'
lab_check "re-add sr0 and sw0 on eth0" bash -c \
	'rdma link add sr0 type sroce netdev eth0 && rdma link add sw0 type siwarp netdev eth0'
lab_check "rmmod softrdma with devices present" rmmod softrdma
lab_check "no softrdma device is left after rmmod" bash -c \
	'[ -z "$(ls /sys/class/infiniband 2>/dev/null)" ] && ! rdma link show | grep -q .'
