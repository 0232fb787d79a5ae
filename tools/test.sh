#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# softrdma's test suite: the build, checkpatch, KUnit and every lab
# scenario.  Each part prints TAP-style "ok - ..." / "not ok - ..." lines;
# this script counts them and ends with one line
#   softrdma: N passed, N failed
# Exit status 0 iff nothing failed.  A part that dies without reporting
# counts as a failure, never as a pass.
#
#   tools/test.sh           the representative cut (make test)
#   tools/test.sh --full    everything (make test-full)
#   tools/test.sh --only PATTERN   only the parts whose name matches
#   tools/test.sh --debug-kernel   make test's lab parts where softrdma runs
#                                  alone, on a KASAN and lockdep kernel
#                                  (make test-debug)
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

full=0
debug=0
only=
while [ $# -gt 0 ]; do
	case $1 in
	--full) full=1 ;;
	--debug-kernel) debug=1 ;;
	--only) only=$2; shift ;;
	*) echo "usage: $0 [--full] [--debug-kernel] [--only PATTERN]" >&2; exit 2 ;;
	esac
	shift
done

logdir=/var/tmp/softrdma-test/$(date +%Y%m%d-%H%M%S)
mkdir -p "$logdir"
passed=0
failed=0
failures=()

# part NAME CMD...: run one part, count its ok / not ok lines.
part() {
	local name=$1 log="$logdir/$1.log" rc ok bad start=$SECONDS
	shift
	if [ -n "$only" ] && [[ $name != *$only* ]]; then
		return 0
	fi
	# the debug kernel runs about ten times slower: only the parts
	# whose guests run softrdma alone (or nothing), not the pairings
	# with stock rdma_rxe or siw
	if [ "$debug" -eq 1 ] &&
		[[ $name =~ rxe|-siw$|-siw-|selfcheck|stock|rx-counters ]]; then
		echo "### $name: not run on the debug kernel (a stock-driver pairing)"
		return 0
	fi
	echo "### $name"
	"$@" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	ok=$(grep -c '^ok - ' "$log")
	bad=$(grep -c '^not ok - ' "$log")
	if [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; then
		echo "not ok - $name: exited $rc without reporting a failure"
		bad=1
	fi
	if [ "$rc" -eq 0 ] && [ "$ok" -eq 0 ] && [ "$bad" -eq 0 ]; then
		echo "not ok - $name: reported no result"
		bad=1
	fi
	passed=$((passed + ok))
	failed=$((failed + bad))
	[ "$bad" -eq 0 ] || failures+=("$name")
	echo "### $name: $ok passed, $bad failed ($((SECONDS - start)) s, log $log)"
}

build_check() {
	local out
	make -s clean >/dev/null 2>&1
	out=$(make -s modules 2>&1)
	echo "$out"
	if [ ! -f drivers/infiniband/sw/softrdma/softrdma.ko ]; then
		echo "not ok - build: softrdma.ko builds against $(tools/kdir.sh)"
		return 1
	fi
	echo "ok - build: softrdma.ko builds against $(tools/kdir.sh)"
	if echo "$out" | grep -qiE 'warning:|error:'; then
		echo "not ok - build: no compiler warnings with W=1"
	else
		echo "ok - build: no compiler warnings with W=1"
	fi
}

# build_kernel_check SERIES: the same source built for another kernel, in
# a copy of the tree (tools/build-kernel.sh), warning-free with W=1
build_kernel_check() {
	local series=$1 out ko
	if ! ko=$(tools/build-kernel.sh "$series" 2>"$logdir/build-$series.log"); then
		grep -E 'error|warning' "$logdir/build-$series.log" | head -n 40
		echo "not ok - build: softrdma.ko builds against Debian's $series headers"
		return 1
	fi
	echo "ok - build: softrdma.ko builds against Debian's $series headers"
	out=$(grep -iE 'warning:|error:' "$logdir/build-$series.log")
	if [ -n "$out" ]; then
		echo "$out"
		echo "not ok - build: no compiler warnings with W=1 against $series"
	else
		echo "ok - build: no compiler warnings with W=1 against $series"
	fi
	if [ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = \
		"$(basename "$(tools/kdir.sh "$series")" | sed 's/^linux-headers-//')" ]; then
		echo "ok - build: the $series module's vermagic names its kernel"
	else
		echo "not ok - build: the $series module's vermagic names its kernel"
	fi
}

# make install, staged under a scratch root: the module, its link-type
# aliases in the depmod index, and the modprobe.d rule.
install_check() {
	local root kver
	root=$(mktemp -d /tmp/softrdma-install.XXXXXX)
	if ! make -s install INSTALL_MOD_PATH="$root" DESTDIR="$root"; then
		echo "not ok - install: make install succeeds"
		rm -rf "$root"
		return 1
	fi
	echo "ok - install: make install succeeds"
	kver=$(ls "$root/lib/modules")
	if [ -f "$root/lib/modules/$kver/extra/softrdma.ko" ]; then
		echo "ok - install: softrdma.ko lands in /lib/modules/$kver/extra"
	else
		echo "not ok - install: softrdma.ko lands in /lib/modules/<kver>/extra"
	fi
	if grep -q '^alias rdma-link-sroce softrdma$' "$root/lib/modules/$kver/modules.alias" &&
		grep -q '^alias rdma-link-siwarp softrdma$' "$root/lib/modules/$kver/modules.alias"; then
		echo "ok - install: depmod knows the sroce and siwarp link aliases"
	else
		echo "not ok - install: depmod knows the sroce and siwarp link aliases"
	fi
	if grep -q '^install rdma_rxe ' "$root/etc/modprobe.d/softrdma.conf" &&
		grep -q '^install siw ' "$root/etc/modprobe.d/softrdma.conf"; then
		echo "ok - install: modprobe.d rule keeps rdma_rxe and siw away"
	else
		echo "not ok - install: modprobe.d rule keeps rdma_rxe and siw away"
	fi
	rm -rf "$root"
}

checkpatch_check() {
	if tools/checkpatch.sh; then
		echo "ok - checkpatch --strict: driver sources clean"
	else
		echo "not ok - checkpatch --strict: driver sources clean"
	fi
}

# The debug kernel (tools/lab/debug-kernel.sh): built and installed
# before the parts run, since each part runs in a subshell.
dkrel=
dkmod=${DK_ROOT:-/var/tmp/softrdma-debug-kernel}/softrdma.ko
debug_kernel_check() {
	local cfg=/lib/modules/$dkrel/build/.config o
	cat "$logdir/debug-kernel.build.log"
	if [ -z "$dkrel" ] || [ ! -f "/boot/vmlinuz-$dkrel" ]; then
		echo "not ok - debug kernel: built and installed"
		return 1
	fi
	echo "ok - debug kernel: $dkrel built and installed"
	for o in KASAN PROVE_LOCKING DEBUG_ATOMIC_SLEEP DEBUG_LIST DEBUG_OBJECTS; do
		if grep -q "^CONFIG_$o=y" "$cfg"; then
			echo "ok - debug kernel: CONFIG_$o=y"
		else
			echo "not ok - debug kernel: CONFIG_$o=y"
		fi
	done
	if [ "$(modinfo -F vermagic "$dkmod" | cut -d' ' -f1)" = "$dkrel" ]; then
		echo "ok - debug kernel: softrdma.ko built for it"
	else
		echo "not ok - debug kernel: softrdma.ko built for it"
	fi
}

if [ "$debug" -eq 1 ]; then
	# guests on a KASAN and lockdep kernel run about ten times slower
	# (pci=noacpi: the instrumented ACPI interpreter times out on the
	# PCI interrupt routing methods, 30 s each), too slow for the 67 ms
	# ACK timeout perftest and the pingpongs ask for: they get 1 s
	lab() {
		LAB_KVER=$dkrel LAB_TIMEOUT_SCALE=4 LAB_APPEND=pci=noacpi \
			LAB_MODOPTS=rc_min_ack_timeout_ms=1000 \
			tools/lab/lab run --module "$dkmod" "$@"
	}
	dkrel=$(tools/lab/debug-kernel.sh 2>"$logdir/debug-kernel.build.log")
	part debug-kernel debug_kernel_check
	if [ -z "$dkrel" ]; then
		echo "softrdma: $passed passed, $failed failed"
		exit 1
	fi
else
	lab() { tools/lab/lab run "$@"; }

	part build build_check
	part build-6.12 build_kernel_check 6.12
	part install install_check
	part checkpatch checkpatch_check
	part kunit kunit/run
fi

# The lab proves itself first: stock drivers against stock drivers.
part lab-selfcheck-rxe lab --stack rxe selfcheck-rxe
part lab-selfcheck-siw lab --stack siw selfcheck-siw

part lab-link-basic lab --guests 1 --stack none link-basic
part lab-link-cycles lab --guests 1 --stack none --timeout 600 link-cycles
part lab-guard lab --guests 1 --stack none guard
part lab-link-two-guests lab --stack sroce link-two-guests
part lab-siwarp-verbs lab --guests 1 --stack siwarp siwarp-verbs
part lab-res-limits-sroce lab --guests 1 --stack sroce --timeout 600 res-limits
part lab-res-limits-siwarp lab --guests 1 --stack siwarp --timeout 600 res-limits
part lab-roce-rx-counters lab --stack rxe,sroce roce-rx-counters

# A hostile peer (tools/lab/roce_inject.c, tools/lab/iw_peer.c) attacks a
# guest with an sroce and a siwarp device under live traffic: 10^4 RoCEv2
# frames and 10^3 iWARP connections (test-full: 10^6 and 10^4); then
# fresh traffic, slab memory, link del and rmmod are checked.
part lab-hostile-peer lab --stack sroce+siwarp --timeout 900 hostile-peer
if [ "$full" -eq 1 ]; then
	part lab-hostile-peer-full lab --stack sroce+siwarp --timeout 7200 hostile-peer full
fi

# RoCEv2 RC traffic, data checked: softrdma with itself, and with stock
# rdma_rxe as server and as client.
part lab-roce-rc-sroce-sroce lab --stack sroce,sroce --timeout 900 roce-rc pp atomic access loss
part lab-roce-rc-sroce-rxe lab --stack sroce,rxe --timeout 900 roce-rc pp atomic access loss
part lab-roce-rc-rxe-sroce lab --stack rxe,sroce --timeout 900 roce-rc pp atomic access loss
# iWARP connection management (iw_cm.c) and traffic through the data path,
# data checked: softrdma with itself and with stock siw.  make test runs
# a representative cut (iwarp-cm: 100-ping rpings, 8 listen cycles, 25
# short connections each way; the listen cycles, a siwarp guest's own
# business, between two siwarp guests only); test-full adds the rest:
# every part in every pairing at full counts, perftest latency and -a.
# The siwarp server + siw client pairing runs 500-ping rpings.  With a stock siw
# server, rping and the vanishing peer wait in test-full
# (Documentation/status.md: one 65 535 B rping failure not understood,
# and a BUG in the siw guest's iw_cm during vanish).
part lab-iwarp-cm-siwarp-siwarp lab --stack siwarp,siwarp --timeout 600 iwarp-cm pings=100 cycles=8 connects=25
part lab-iwarp-cm-siwarp-siw lab --stack siwarp,siw --timeout 600 iwarp-cm pings=100 refused mpa rping vanish
part lab-iwarp-cm-siw-siwarp lab --stack siw,siwarp --timeout 600 iwarp-cm refused mpa
part lab-iwarp-data-siwarp-siwarp lab --stack siwarp,siwarp --timeout 900 iwarp-data pings=100 rping bw reuse
part lab-iwarp-data-siwarp-siw lab --stack siwarp,siw --timeout 900 iwarp-data rping bw
part lab-iwarp-data-siw-siwarp lab --stack siw,siwarp --timeout 900 iwarp-data bw reuse
# an sroce and a siwarp device on one netdev carrying traffic at once, to
# a guest running stock rdma_rxe and siw side by side (scenarios/dual.sh)
part lab-dual-softrdma-stock lab --stack sroce+siwarp,rxe+siw --timeout 600 dual
# and to another softrdma guest, whose counters are checked too
part lab-dual-softrdma-softrdma lab --stack sroce+siwarp,sroce+siwarp --timeout 600 dual
# The RoCE and iWARP data paths again with two vCPUs per guest (every
# other part has one): the receive softirq and the application run at the
# same time, as on users' machines, so a completion can be seen, and its
# QP destroyed, while the receive path is still at work on it.
part lab-roce-rc-smp-sroce-sroce lab --cpus 2 --stack sroce,sroce --timeout 900 roce-rc pp atomic
part lab-iwarp-data-smp-siwarp-siwarp lab --cpus 2 --stack siwarp,siwarp --timeout 900 iwarp-data pings=100 rping

# The perftest matrix (tools/lab/scenarios/roce-perftest.sh), same three
# pairings: every operation at a few sizes, -b, -q 8, inline, IPv6.
part lab-roce-perftest-sroce-sroce lab --stack sroce,sroce --timeout 600 roce-perftest quick
part lab-roce-perftest-sroce-rxe lab --stack sroce,rxe --timeout 600 roce-perftest quick
part lab-roce-perftest-rxe-sroce lab --stack rxe,sroce --timeout 600 roce-perftest quick
# 8 MiB RDMA READs and WRITEs, perftest's default number of outstanding
# READs, without loss and under 2 % loss (tools/lab/scenarios/large-rdma.sh):
# RoCE and iWARP at once on the two-device stacks, softrdma with itself,
# and with stock rdma_rxe and siw as responders (make test) and as
# requesters (test-full: a stock rxe requester's READs under loss alone
# take about 8 minutes, rxe's own recovery, scenario header).
part lab-large-rdma-softrdma-softrdma lab --stack sroce+siwarp,sroce+siwarp --timeout 900 large-rdma
part lab-large-rdma-stock-softrdma lab --stack rxe+siw,sroce+siwarp --timeout 900 large-rdma
if [ "$full" -eq 1 ]; then
	part lab-large-rdma-softrdma-stock lab --stack sroce+siwarp,rxe+siw --timeout 1500 large-rdma
fi

# UD, the GSI QP and rdma_cm (rping, ucmatose, udaddy, perftest -R), data
# checked: softrdma with itself, and with stock rdma_rxe both ways.
part lab-roce-cm-sroce-sroce lab --stack sroce,sroce --timeout 900 roce-cm
part lab-roce-cm-sroce-rxe lab --stack sroce,rxe --timeout 900 roce-cm
part lab-roce-cm-rxe-sroce lab --stack rxe,sroce --timeout 900 roce-cm

# Shared receive queues: the SRQ verbs through libsiw and librxe, and
# traffic through an SRQ (perftest --use-srq; ibv_srq_pingpong -c on sroce).
part lab-srq-siwarp-siwarp lab --stack siwarp,siwarp --timeout 600 srq attr verbs bw
part lab-srq-sroce-sroce lab --stack sroce,sroce --timeout 600 srq attr verbs pingpong

# An unprivileged user's attacks (tools/lab/hostile_user.c as nobody,
# RLIMIT_MEMLOCK 4 MiB, in a 256 MiB memory cgroup): false current
# states, objects past the limits, hostile work requests and foreign-PD
# keys, the mmap'd rings written behind the provider, and on RoCE an AV
# flipped under READ load; each attempt one check, the kernel log clean,
# then checked traffic between the guests.
part lab-hostile-user-sroce lab --stack sroce,sroce --timeout 600 hostile-user
part lab-hostile-user-siwarp lab --stack siwarp,siwarp --timeout 600 hostile-user

# NVMe over Fabrics (nvmet-rdma exporting a RAM disk, nvme-rdma writing
# and reading it back, data checked): the kernel consumer behind
# fast-registration MRs, local and remote invalidation.  softrdma with
# itself at every size, then its device deleted under a writer's load
# and the module unloaded (the host's on RoCE, the target's on iWARP;
# test-full adds the other two), and with the stock driver of its family
# as target and as host at three sizes (make test-full: every size).
part lab-nvmeof-sroce-sroce lab --stack sroce,sroce --timeout 600 nvmeof remove=host
part lab-nvmeof-siwarp-siwarp lab --stack siwarp,siwarp --timeout 600 nvmeof remove=target
if [ "$full" -eq 1 ]; then
	part lab-nvmeof-full-sroce-sroce lab --stack sroce,sroce --timeout 900 nvmeof remove=target
	part lab-nvmeof-full-siwarp-siwarp lab --stack siwarp,siwarp --timeout 600 nvmeof remove=host
fi
nvme_sizes=sizes=3584,69632,1048576
[ "$full" -eq 1 ] && nvme_sizes=
for p in sroce,rxe rxe,sroce siwarp,siw siw,siwarp; do
	part "lab-nvmeof-${p/,/-}" lab --stack "$p" --timeout 600 nvmeof ${nvme_sizes:+"$nvme_sizes"}
done

# NFS over RDMA (nfsd exporting a tmpfs over NFSv4.2 on the RDMA port
# alone, the kernel client mounting it with proto=rdma): files of odd and
# large sizes written by four writers at once, read back with direct I/O
# and checked on the server too, a server file read, metadata work.
# softrdma with itself at four sizes to 1 MiB + 7 B (test-full: up to
# 8 MiB + 13 B), then a device deleted under a writer's load and its
# module unloaded (the client's on RoCE, the server's on iWARP;
# test-full adds the other two); with the stock
# driver of its family at three sizes: a softrdma server and an rxe
# client, a siw server and a softrdma client (test-full: the other two
# pairings too, every size).
nfs_sizes=sizes=1,4095,65535,1048583
[ "$full" -eq 1 ] && nfs_sizes=
part lab-nfsrdma-sroce-sroce lab --stack sroce,sroce --timeout 600 nfsrdma remove=client ${nfs_sizes:+"$nfs_sizes"}
part lab-nfsrdma-siwarp-siwarp lab --stack siwarp,siwarp --timeout 600 nfsrdma remove=server ${nfs_sizes:+"$nfs_sizes"}
if [ "$full" -eq 1 ]; then
	part lab-nfsrdma-full-sroce-sroce lab --stack sroce,sroce --timeout 600 nfsrdma remove=server
	part lab-nfsrdma-full-siwarp-siwarp lab --stack siwarp,siwarp --timeout 600 nfsrdma remove=client
	for p in sroce,rxe rxe,sroce siwarp,siw siw,siwarp; do
		part "lab-nfsrdma-${p/,/-}" lab --stack "$p" --timeout 600 nfsrdma
	done
else
	for p in sroce,rxe siw,siwarp; do
		part "lab-nfsrdma-${p/,/-}" lab --stack "$p" --timeout 600 nfsrdma sizes=1,65535,1048583
	done
fi

# SRP (ib_srpt exporting a LIO RAM disk on the RDMA CM, ib_srp logging in
# with dest=IP:PORT): four parallel direct writers and readers, data
# checked.  softrdma with itself at four sizes, then a device deleted
# under a writer's load and its module unloaded (the initiator's on
# RoCE, the target's on iWARP; test-full adds the other two); with the
# stock driver of its family at two sizes: an rxe target and a softrdma
# initiator, a softrdma target and a siw initiator (the pairings the NFS
# parts leave out; test-full: sroce,rxe too, every size).  A stock siw
# target refuses every login here, a siw initiator's too (status.md):
# not run.
part lab-srp-sroce-sroce lab --stack sroce,sroce --timeout 600 srp remove=initiator
part lab-srp-siwarp-siwarp lab --stack siwarp,siwarp --timeout 600 srp remove=target
if [ "$full" -eq 1 ]; then
	part lab-srp-full-sroce-sroce lab --stack sroce,sroce --timeout 600 srp remove=target
	part lab-srp-full-siwarp-siwarp lab --stack siwarp,siwarp --timeout 600 srp remove=initiator
	for p in sroce,rxe rxe,sroce siwarp,siw; do
		part "lab-srp-${p/,/-}" lab --stack "$p" --timeout 600 srp
	done
else
	for p in rxe,sroce siwarp,siw; do
		part "lab-srp-${p/,/-}" lab --stack "$p" --timeout 600 srp sizes=4096,1048576
	done
fi
if [ "$full" -eq 1 ]; then
	# every srq part (latency, bandwidth on sroce, against stock rxe)
	part lab-srq-full-siwarp-siwarp lab --stack siwarp,siwarp --timeout 900 srq
	part lab-srq-full-sroce-sroce lab --stack sroce,sroce --timeout 900 srq
	part lab-srq-full-sroce-rxe lab --stack sroce,rxe --timeout 900 srq
	# roce-rc's own perftest runs (make test has roce-perftest quick)
	part lab-roce-rc-full-sroce-sroce lab --stack sroce,sroce --timeout 900 roce-rc bw lat
	# perftest -a (2 B to 8 MiB) for all six tests, -a -b and -a -q 8
	part lab-roce-perftest-full-sroce-sroce lab --stack sroce,sroce --timeout 900 roce-perftest full
	part lab-roce-perftest-full-sroce-rxe lab --stack sroce,rxe --timeout 900 roce-perftest full
	part lab-roce-perftest-full-rxe-sroce lab --stack rxe,sroce --timeout 900 roce-perftest full
	# every iWARP part, every pairing
	part lab-iwarp-cm-full-siwarp-siwarp lab --stack siwarp,siwarp --timeout 2400 iwarp-cm
	part lab-iwarp-cm-full-siwarp-siw lab --stack siwarp,siw --timeout 2400 iwarp-cm
	part lab-iwarp-cm-full-siw-siwarp lab --stack siw,siwarp --timeout 2400 iwarp-cm
	part lab-iwarp-data-full-siwarp-siwarp lab --stack siwarp,siwarp --timeout 1800 iwarp-data rping bw lat full
	part lab-iwarp-data-full-siwarp-siw lab --stack siwarp,siw --timeout 1800 iwarp-data rping bw lat full
	part lab-iwarp-data-full-siw-siwarp lab --stack siw,siwarp --timeout 1800 iwarp-data rping bw lat full
	# a siwarp client of a stock siw ucmatose server whose MPA reply and
	# first SENDs arrive in one burst (what stock siw<->siw fails)
	part lab-iwarp-ucmatose-burst-siw-siwarp lab --stack siw,siwarp --timeout 300 iwarp-ucmatose-burst
fi

# Debian's 6.12 LTS (bookworm-backports): a cut that runs every
# transport and kernel consumer once on it, against 6.12's own stock
# rdma_rxe and siw (built from linux-source-6.12), and mixed pairs of a
# 6.1 guest and a 6.12 guest, sroce<->sroce and siwarp<->siwarp.  The
# 6.12 module is tools/build-kernel.sh's (the build-6.12 part).
# test-full adds UD, rdma_cm and SRQ on 6.12, KUnit on 6.12's source,
# and dual on a mixed pair, whose RoCE flows end in "retry exceeded"
# when 6.12 is on either side (Documentation/status.md).
if [ "$debug" -eq 0 ]; then
	part lab-k612-roce-rc-sroce-rxe lab --kernel 6.12 --stack sroce,rxe --timeout 900 roce-rc pp atomic
	part lab-k612-iwarp-data-siwarp-siw lab --kernel 6.12 --stack siwarp,siw --timeout 900 iwarp-data pings=100 rping
	part lab-k612-nvmeof-sroce-sroce lab --kernel 6.12 --stack sroce,sroce --timeout 600 nvmeof remove=host sizes=3584,1048576
	part lab-k612-roce-rc-mixed lab --kernel 6.1,6.12 --stack sroce,sroce --timeout 900 roce-rc pp
	part lab-k612-iwarp-data-mixed lab --kernel 6.1,6.12 --stack siwarp,siwarp --timeout 900 iwarp-data pings=100 rping
	if [ "$full" -eq 1 ]; then
		part lab-k612-roce-cm-sroce-sroce lab --kernel 6.12 --stack sroce,sroce --timeout 900 roce-cm
		part lab-k612-srq-sroce-sroce lab --kernel 6.12 --stack sroce,sroce --timeout 600 srq attr verbs pingpong
		part kunit-6.12 kunit/run --kernel 6.12
		# the DKMS package (make deb) installed with apt, built by DKMS,
		# used and removed in a guest of each kernel, a peer on the tree's
		# build (scenarios/dkms.sh); DKMS's build in a TCG guest takes
		# tens of minutes, too long for make test
		lab_dkms() { lab --kernel "$1" --cpus 2 --stack none,sroce+siwarp --timeout 3600 dkms "$(tools/deb.sh "$logdir")"; }
		part lab-dkms-6.1 lab_dkms 6.1
		part lab-dkms-6.12 lab_dkms 6.12
		part lab-k612-dual-mixed lab --kernel 6.1,6.12 --stack sroce+siwarp,sroce+siwarp --timeout 600 dual
		# compile only, against Debian's newest kernel source
		part mainline tools/mainline-check.sh
	fi
fi

echo
# the lab's own restarts of a QEMU transmit queue that stopped (tools/lab/
# qmp-virtio): not a verdict on softrdma, but said, with where
restarts=$(grep -l '^# virtio-watch: ' "$logdir"/*.log 2>/dev/null | xargs -r -n1 basename | sed 's/\.log$//' | paste -sd ' ' -)
[ -z "$restarts" ] || echo "lab: QEMU stopped taking a guest's transmit buffers and was restarted in: $restarts"
[ ${#failures[@]} -eq 0 ] || echo "failed parts: ${failures[*]} (logs in $logdir)"
echo "softrdma: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
