#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Stage 2 of a lab guest: runs as PID 1 on the overlay root (host root
# read-only + tmpfs), with the per-run lab share at /lab.  Sets up the
# guest (mounts, hostname, eth0, modules), brings up this guest's RDMA stack,
# runs the scenario (or an interactive shell for `lab shell`), saves dmesg,
# and powers off.  Never returns: PID 1 must not exit.
#
# Results go to /lab/guest<ID>/ (LAB_OUT): scenario.log, results, notes,
# checks/*.log, stack.log, exit, dmesg.

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8
export TERM=${TERM:-linux}

say() { echo "lab[guest${LAB_ID:-?}]: $*" >/dev/console; }

power_off() {
	sync
	/bin/busybox poweroff -f
	echo o >/proc/sysrq-trigger
	while :; do sleep 1000; done
}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mkdir -p /dev/pts /dev/shm
mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts /dev/pts
# what udev gives a booted system: bash's <(...) reads /dev/fd/N
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
[ -e /dev/stdin ] || ln -s /proc/self/fd/0 /dev/stdin
[ -e /dev/stdout ] || ln -s /proc/self/fd/1 /dev/stdout
[ -e /dev/stderr ] || ln -s /proc/self/fd/2 /dev/stderr
mount -t tmpfs -o mode=1777 tmpfs /dev/shm
mount -t tmpfs -o mode=1777 tmpfs /tmp
mount -t tmpfs -o mode=0755 tmpfs /run
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t configfs configfs /sys/kernel/config 2>/dev/null

LAB_ID=
for arg in $(</proc/cmdline); do
	case $arg in
	lab.id=*) LAB_ID=${arg#lab.id=} ;;
	esac
done
if [ -z "$LAB_ID" ] || [ ! -r /lab/config.env ]; then
	say "FATAL: no lab.id on the command line or no /lab/config.env"
	power_off
fi

# config.env defines LAB_N, LAB_KVERS (array), LAB_MODE, LAB_TIMEOUT_SCALE,
# LAB_MODOPTS, LAB_BATCH, and (lab run) the part: LAB_STACKS (array),
# LAB_SCENARIO_NAME, LAB_ARGS (array), LAB_SCENARIO_ARGS, LAB_NFS_SBIN;
# lab batch writes the part into /lab/row.env instead, one part after
# another (LAB_ROW, LAB_ROW_LAST too).
# shellcheck source=/dev/null
. /lab/config.env
# shellcheck source=/dev/null
[ -r /lab/row.env ] && . /lab/row.env
# each guest its own kernel (lab --kernel)
KVER=$(uname -r)
export LAB_ID LAB_N KVER LAB_SCENARIO_NAME LAB_SCENARIO_ARGS LAB_TIMEOUT_SCALE
export LAB_NFS_SBIN
# shellcheck disable=SC2153 # from config.env
export LAB_STACK=${LAB_STACKS[$LAB_ID]}
export LAB_OUT=/lab/guest$LAB_ID
mkdir -p "$LAB_OUT/checks"
: >"$LAB_OUT/results"

export LAB_ADDR=192.0.2.$((LAB_ID + 1))
LAB_ADDR6=2001:db8::$(printf %x $((LAB_ID + 1)))
export LAB_ADDR6

stack_fail() {
	say "FATAL: stack $LAB_STACK: $*"
	echo "stack $LAB_STACK failed: $*" >>"$LAB_OUT/stack.log"
	echo "stack" >"$LAB_OUT/exit"
	dmesg >"$LAB_OUT/dmesg" 2>&1
	power_off
}

# run CMD...: run a setup command, logging it; fail the stack if it fails.
run() {
	echo "+ $*" >>"$LAB_OUT/stack.log"
	"$@" >>"$LAB_OUT/stack.log" 2>&1 || stack_fail "'$*' failed (see stack.log)"
}

say "booted, stack $LAB_STACK, $(cut -d' ' -f1 /proc/uptime)s"

# --- identity and network ---------------------------------------------------
hostname "guest$LAB_ID"
{
	for ((i = 0; i < LAB_N; i++)); do
		echo "192.0.2.$((i + 1)) guest$i"
	done
} >>/etc/hosts
run ip link set lo up
run modprobe virtio_net
for _ in $(seq 50); do
	[ -e /sys/class/net/eth0 ] && break
	sleep 0.1
done
run ip link set eth0 up
run ip addr add "$LAB_ADDR/24" dev eth0
run ip -6 addr add "$LAB_ADDR6/64" dev eth0 nodad

# --- modules: softrdma and stock siw as "updates" ---------------------------
# A host where "make install" ran has a modprobe.d rule that keeps rdma_rxe
# and siw away; the lab decides per guest which stack runs, and tests
# softrdma's own guard, so the rule stays out of the guests.
rm -f /etc/modprobe.d/softrdma.conf
# LAB_MODOPTS: softrdma's module parameters for this run, every load
if [ -n "${LAB_MODOPTS:-}" ]; then
	mkdir -p /etc/modprobe.d
	echo "options softrdma $LAB_MODOPTS" >/etc/modprobe.d/softrdma-lab.conf
fi
upd=/lib/modules/$KVER/updates
mkdir -p "$upd"
for ko in "/lab/modules/$KVER"/*.ko; do
	[ -e "$ko" ] && cp "$ko" "$upd/"
done
# The lab ran depmod on the host (a guest needs ~30 s for it under TCG);
# fall back to depmod here only if that index is missing.
if [ -e "/lab/modules/$KVER/index/modules.dep.bin" ]; then
	run cp "/lab/modules/$KVER/index"/modules.* "/lib/modules/$KVER/"
else
	run depmod -a "$KVER"
fi

# --- RDMA stack ---------------------------------------------------------------
# stack_up: this guest's stack ($LAB_STACK) as the part wants it; at boot,
# and in lab batch again for each later part once teardown (below) has
# taken the last one down
stack_up() {
	ulimit -l unlimited
	export LAB_IBDEV='' LAB_IWDEV=''
	case $LAB_STACK in
	none) ;;
	sroce)
		run modprobe softrdma
		run rdma link add sr0 type sroce netdev eth0
		LAB_IBDEV=sr0 ;;
	siwarp)
		run modprobe softrdma
		run rdma link add sw0 type siwarp netdev eth0
		LAB_IBDEV=sw0 ;;
	rxe)
		run modprobe rdma_rxe
		run rdma link add rxe0 type rxe netdev eth0
		LAB_IBDEV=rxe0 ;;
	siw)
		run modprobe libcrc32c
		run modprobe siw
		run rdma link add siw0 type siw netdev eth0
		LAB_IBDEV=siw0 ;;
	# both kinds on eth0; the iWARP device first, so that the RDMA CM (which
	# takes the first device that has the address) connects over iWARP, and
	# RoCE traffic is asked for by device name and GID (LAB_IWDEV: the iWARP one)
	sroce+siwarp)
		run modprobe softrdma
		run rdma link add sw0 type siwarp netdev eth0
		run rdma link add sr0 type sroce netdev eth0
		LAB_IBDEV=sr0 LAB_IWDEV=sw0 ;;
	rxe+siw)
		run modprobe libcrc32c
		run modprobe siw
		run modprobe rdma_rxe
		run rdma link add siw0 type siw netdev eth0
		run rdma link add rxe0 type rxe netdev eth0
		LAB_IBDEV=rxe0 LAB_IWDEV=siw0 ;;
	*)
		stack_fail "unknown stack" ;;
	esac
	if [ "$LAB_STACK" != none ]; then
		run modprobe ib_uverbs
		run modprobe rdma_ucm
		[ -e "/sys/class/infiniband/$LAB_IBDEV" ] ||
			stack_fail "/sys/class/infiniband/$LAB_IBDEV does not exist"
		[ -z "$LAB_IWDEV" ] || [ -e "/sys/class/infiniband/$LAB_IWDEV" ] ||
			stack_fail "/sys/class/infiniband/$LAB_IWDEV does not exist"
		run rdma link show
		roce_gids_wait
	fi
	say "stack $LAB_STACK up (ibdev '${LAB_IBDEV}'), $(cut -d' ' -f1 /proc/uptime)s"
}

# roce_gids_wait: the RDMA core fills a RoCE device's GID table from the
# netdev's addresses in a work item; wait (up to 20 s) until the GIDs of
# eth0's IPv4 and IPv6 addresses show, so that a scenario looking them up
# right away finds them.  One that does not come fails the stack, with the
# GID table and eth0's addresses in stack.log.
roce_gids_wait() {
	local dev f g t missing want=()
	# shellcheck source=/dev/null
	want=("$(. /lab/lib.sh && lab_gid_string "$LAB_ADDR")"
		"$(. /lab/lib.sh && lab_gid_string "$LAB_ADDR6")")
	for dev in sr0 rxe0; do
		[ -d "/sys/class/infiniband/$dev" ] || continue
		for ((t = 0; t < 200; t++)); do
			missing=" ${want[*]} "
			for f in "/sys/class/infiniband/$dev/ports/1/gids/"*; do
				read -r g <"$f" 2>/dev/null || continue
				missing=${missing/ $g / }
			done
			[ -z "${missing// /}" ] && break
			if [ -n "${NAP_FD:-}" ]; then
				read -rt 0.1 -u "$NAP_FD" _
			else
				sleep 0.1
			fi
		done
		[ -z "${missing// /}" ] && continue
		{
			echo "$dev: GIDs missing after 20 s:$missing; the table:"
			for f in "/sys/class/infiniband/$dev/ports/1/gids/"*; do
				read -r g <"$f" 2>/dev/null &&
					[ "$g" != 0000:0000:0000:0000:0000:0000:0000:0000 ] &&
					echo "  ${f##*/} $g"
			done
			ip addr show dev eth0
			grep -H . /proc/sys/net/ipv6/conf/eth0/disable_ipv6
		} >>"$LAB_OUT/stack.log" 2>&1
		stack_fail "$dev: no GID for$missing (stack.log: GID table, eth0)"
	done
}

# --- between the parts of a lab batch ------------------------------------------
# lab batch runs several parts in one boot.  Before the first, the state a
# part may change is recorded; after each part but the last, teardown
# takes the guest back there, as a fresh boot would leave it: every
# process the part left is killed, its mounts, network namespaces and
# links are gone, eth0's addresses, MTU and qdiscs and the net sysctls
# are as at boot, every module loaded since boot (the stack's too) is
# unloaded, /tmp is empty; stack_up then brings up the next part's stack.
# What it cannot undo (a module that will not unload, a mount that stays)
# it says in $LAB_OUT/reset, and the lab runs the remaining parts in a
# fresh boot.  The kernel log is saved as the part's and cleared, so that
# the next part's log (and its greps of dmesg) hold its own lines only.
# A part's own files elsewhere in the overlay root (/etc) stay.
# (A program costs a TCG guest 50 to 100 ms to start: teardown reads
# /proc with shell builtins and starts few.)
declare -A BASE_SYSCTL=() BASE_MODULES=() BASE_MOUNTS=() BASE_LINKS=()
BASE_ETH0=
BASE_QDISC=

# eth0_state: its addresses (the link-local one as "ll"; another with the
# flags that keep it from use), MTU and state
eth0_state() {
	local line w out= ll
	while read -r line; do
		ll=
		for w in $line; do
			case $w in
			fe80:*/*) out+="ll " ll=1 ;;
			*.*.*.*/* | *:*/*) out+="$w " ;;
			tentative | dadfailed | deprecated)
				[ -n "$ll" ] || out+="$w " ;;
			esac
		done
	done < <(ip -o addr show dev eth0)
	line=$(ip -o link show dev eth0)
	[[ $line =~ mtu\ [0-9]+ ]] && out+="${BASH_REMATCH[0]} "
	[[ $line =~ state\ [A-Z]+ ]] && out+="${BASH_REMATCH[0]}"
	echo "$out"
}

# links_now: the names of the network links, one a line
links_now() {
	ip -o link show | while IFS=': ' read -r _ name _; do
		echo "${name%%@*}"
	done
}

record_modules() {
	local m
	while read -r m _; do BASE_MODULES[$m]=1; done </proc/modules
}

record_base() {
	local f v m
	while read -r _ m _; do BASE_MOUNTS[$m]=1; done </proc/mounts
	while read -r m; do BASE_LINKS[$m]=1; done < <(links_now)
	BASE_ETH0=$(eth0_state)
	BASE_QDISC=$(tc qdisc show dev eth0)
	for f in /proc/sys/net/core/* /proc/sys/net/ipv4/* \
		/proc/sys/net/ipv6/conf/{all,default,eth0}/*; do
		if [ -f "$f" ] && [ -w "$f" ] && IFS= read -r v <"$f" 2>/dev/null; then
			BASE_SYSCTL[$f]=$v
		fi
	done
}

# others_alive: a process other than PID 1 and this shell (PID in $1)
others_alive() {
	local p
	for p in /proc/[0-9]*; do
		[ "${p#/proc/}" = 1 ] || [ "${p#/proc/}" = "$BASHPID" ] && continue
		[ -e "$p/exe" ] && return 0
	done
	return 1
}

# teardown: back to record_base's state; fails (with the reason on
# stdout) if something stays
teardown() {
	local p n m f v left prev mounts=() gone
	for p in /proc/[0-9]*; do
		[ "${p#/proc/}" = 1 ] || [ "${p#/proc/}" = "$BASHPID" ] && continue
		[ -e "$p/exe" ] && kill -KILL "${p#/proc/}" 2>/dev/null
	done
	for ((n = 0; n < 100; n++)); do
		others_alive || break
		read -rt 0.1 -u "$NAP_FD" _
	done
	if others_alive; then
		echo "processes left: $(ps -e -o pid=,stat=,comm= | awk '$2 !~ /Z/ && $3 !~ /^\[/' | head -n 5 | tr '\n' ' ')"
		return 1
	fi
	# the tracing state is the kernel's, not the mount's: back to its
	# boot state while a part's tracefs mount still shows it
	f=/sys/kernel/tracing
	if [ -w $f/tracing_on ]; then
		echo 0 >$f/events/enable
		echo nop >$f/current_tracer
		echo >$f/trace
		echo 1 >$f/tracing_on
	fi
	while read -r _ m _; do
		[ -n "${BASE_MOUNTS[$m]:-}" ] || mounts=("$m" "${mounts[@]}")
	done </proc/mounts
	for m in "${mounts[@]}"; do
		timeout 30 umount "$m" || { echo "umount $m failed"; return 1; }
	done
	for f in /run/netns/*; do
		[ -e "$f" ] && ip netns del "${f##*/}" 2>/dev/null
	done
	while read -r m; do
		[ -n "${BASE_LINKS[$m]:-}" ] || ip link del "$m" 2>/dev/null
	done < <(links_now)
	for f in "${!BASE_SYSCTL[@]}"; do
		IFS= read -r v <"$f" 2>/dev/null || continue
		[ "$v" = "${BASE_SYSCTL[$f]}" ] || echo "${BASE_SYSCTL[$f]}" >"$f"
	done
	if [ "$(tc qdisc show dev eth0)" != "$BASE_QDISC" ]; then
		tc qdisc del dev eth0 root 2>/dev/null
		tc qdisc del dev eth0 ingress 2>/dev/null
	fi
	v=$(eth0_state)
	echo "eth0 at teardown: '$v' (boot: '$BASE_ETH0')" >>"$LAB_OUT/teardown.log"
	if [ "$v" != "$BASE_ETH0" ]; then
		left=$({
			ip link set eth0 down
			ip addr flush dev eth0
			ip link set eth0 mtu 1500
			ip link set eth0 up
			ip addr add "$LAB_ADDR/24" dev eth0
			ip -6 addr add "$LAB_ADDR6/64" dev eth0 nodad
		} 2>&1)
		if [ "$(eth0_state)" != "$BASE_ETH0" ]; then
			echo "eth0 not restored: was '$v', is '$(eth0_state)', boot '$BASE_ETH0' ($left)"
			return 1
		fi
		echo "eth0 restored: '$(eth0_state)'" >>"$LAB_OUT/teardown.log"
	fi
	for f in /sys/class/infiniband/*; do
		[ -e "$f" ] || continue
		timeout 60 rdma link del "${f##*/}" ||
			{ echo "rdma link del ${f##*/} failed"; return 1; }
	done
	# unload what the part (and its stack) loaded: each round those no
	# module uses
	prev=x
	while :; do
		left=
		gone=()
		while read -r m _ _ v _; do
			[ -n "${BASE_MODULES[$m]:-}" ] && continue
			left+="$m "
			[ "$v" = - ] && gone+=("$m")
		done </proc/modules
		[ -n "$left" ] || break
		[ "$left" != "$prev" ] || { echo "modules that do not unload: $left"; return 1; }
		prev=$left
		[ ${#gone[@]} -eq 0 ] || timeout 60 rmmod "${gone[@]}" 2>/dev/null
	done
	rm -rf /tmp/* /tmp/.[!.]* /dev/shm/* 2>/dev/null
	return 0
}

record_modules
stack_up
if [ "${LAB_BATCH:-0}" = 1 ]; then
	record_base
	# a nap without a fork (lib.sh's lab_nap), for teardown and the
	# wait for the next part
	mkfifo -m 600 /run/.lab-nap
	exec {NAP_FD}<>/run/.lab-nap
	rm -f /run/.lab-nap
fi

# --- scenario -----------------------------------------------------------------
if [ "$LAB_MODE" = shell ]; then
	if [ "$LAB_ID" = 0 ]; then
		cat >/root/.bashrc <<'RC'
# shellcheck source=/dev/null
. /lab/lib.sh
# shellcheck source=/dev/null
. /lab/workarounds.sh
PS1='\h:\w\$ '
echo "lab shell: guest$LAB_ID, stack $LAB_STACK, ibdev '$LAB_IBDEV', $LAB_ADDR $LAB_ADDR6"
echo "           peers: guest0..guest$((LAB_N - 1)); /lab is shared; exit (or Ctrl-D) powers off all guests"
RC
		cd /root || true
		setsid -w -c bash -i </dev/ttyS0 >/dev/ttyS0 2>&1
		touch /lab/shell-done
	else
		while [ ! -e /lab/shell-done ]; do sleep 2; done
	fi
	power_off
fi

while :; do
	say "running scenario $LAB_SCENARIO_NAME"
	(
		cd /tmp || exit 1
		ulimit -l unlimited
		# shellcheck source=/dev/null
		. /lab/lib.sh
		# shellcheck source=/dev/null
		. /lab/workarounds.sh
		# shellcheck source=/dev/null
		. /lab/scenario.sh "${LAB_ARGS[@]}"
	) </dev/null >"$LAB_OUT/scenario.log" 2>&1
	rc=$?
	echo "$rc" >"$LAB_OUT/exit"
	say "scenario exited $rc, $(cut -d' ' -f1 /proc/uptime)s"
	if [ "${LAB_BATCH:-0}" = 0 ] || [ "${LAB_ROW_LAST:-1}" = 1 ]; then
		break
	fi
	# lab batch: back to the state of the boot, then wait for the
	# host's word: the next part's number in /lab/go
	if why=$(teardown 2>&1); then
		echo ok >"$LAB_OUT/reset"
		say "torn down for the next part, $(cut -d' ' -f1 /proc/uptime)s"
	else
		echo "$why" >"$LAB_OUT/reset"
		say "teardown failed: $why"
	fi
	# the kernel log, the part's own, then cleared for the next
	dmesg >"$LAB_OUT/dmesg" 2>&1
	dmesg -C
	: >"$LAB_OUT/done"
	next=$((LAB_ROW + 1))
	go=
	until [ "$go" = "$next" ]; do
		read -rt 0.1 -u "$NAP_FD" _
		read -r go </lab/go
	done 2>/dev/null
	# shellcheck source=/dev/null
	. /lab/row.env
	export LAB_SCENARIO_NAME LAB_SCENARIO_ARGS LAB_NFS_SBIN
	LAB_STACK=${LAB_STACKS[$LAB_ID]}
	mkdir -p "$LAB_OUT/checks"
	: >"$LAB_OUT/results"
	stack_up
done
dmesg >"$LAB_OUT/dmesg" 2>&1
: >"$LAB_OUT/done"
power_off
