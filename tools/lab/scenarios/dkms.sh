# SPDX-License-Identifier: GPL-2.0
#
# dkms: the Debian package as a user meets it.  In every guest,
#   apt install ./softrdma-dkms_<version>_all.deb
# lets DKMS build softrdma.ko for the running kernel from the packaged
# source; "rdma link add" then autoloads that module, and data-checked
# traffic runs between the guests over both link types (ibv_rc_pingpong
# -c on sroce, rping -V on siwarp).  Then the devices go, the module is
# unloaded, and "apt remove" must leave no softrdma module behind, no
# package state (nothing for "apt purge"), and let the stock rdma_rxe load
# again.
#
#   lab run --kernel 6.1 --cpus 2 --stack none,sroce+siwarp --timeout 3600 \
#       dkms PATH/softrdma-dkms_V_all.deb
#
# The .deb is read from the host's root, which every guest sees; tools/deb.sh
# builds it (make deb).  A guest with --stack none installs the package:
# the lab's own softrdma.ko is taken out of it first, so that the module
# under test is DKMS's.  A guest with --stack sroce+siwarp is a peer on
# the lab's build of the same tree and installs nothing: under TCG a
# module build takes tens of minutes of a guest's CPU, and a second one
# on the same kernel would test nothing new.  --stack none (both guests
# install) works too.  --cpus 2 lets DKMS build with make -j2.

deb=${1:-}
[ "$LAB_N" = 2 ] || lab_fail "dkms runs with 2 guests"
# shellcheck disable=SC2034 # the first port lab_pair takes
port=18515
dkmsdir=/lib/modules/$KVER/updates/dkms
case $LAB_STACK in
none) installs=1 ;;
sroce+siwarp) installs=0 ;;
*) lab_fail "dkms: --stack none (installs the package) or sroce+siwarp (a peer), not $LAB_STACK" ;;
esac
if [ $installs = 1 ]; then
	[ -n "$deb" ] && [ -f "$deb" ] ||
		lab_fail "no package: lab run ... dkms PATH/softrdma-dkms_VERSION_all.deb (got '$deb')"
	ver=${deb##*/softrdma-dkms_}
	ver=${ver%_all.deb}

	# DKMS builds for the running kernel and for the newest one in /boot
	# (/usr/lib/dkms/common.postinst); the host's /boot has 6.1 and 6.12.
	# The guest is made a machine with its own kernel only, so that it
	# builds once: the other kernel is the other run's.
	for cfg in /boot/config-*; do
		[ "$cfg" = "/boot/config-$KVER" ] || rm -f "$cfg"
	done

	# the lab installed its own build as updates/softrdma.ko: out of the way
	rm -f "/lib/modules/$KVER/updates/softrdma.ko"
fi


if [ $installs = 1 ]; then
	lab_check "before: no softrdma module for $KVER (modinfo fails)" \
		bash -c '! modinfo softrdma'

	t0=$SECONDS
	lab_check "apt install ./${deb##*/}" bash -c \
		'cd "$(dirname "$1")" && DEBIAN_FRONTEND=noninteractive apt install -y ./"$(basename "$1")"' \
		_ "$deb"
	rc=$?
	lab_note "apt install (DKMS build for $KVER) took $((SECONDS - t0)) s"
	# nothing below means anything without the package
	if [ $rc -ne 0 ]; then
		cp /var/lib/dkms/softrdma/*/build/make.log "$LAB_OUT/dkms-make.log" 2>/dev/null
		exit 1
	fi

	# fixed strings: a Debian kernel release has a "+" (6.12.N+deb12-amd64)
	lab_check "dkms status: softrdma/$ver installed for $KVER" bash -c \
		'out=$(dkms status softrdma); echo "$out"
		 grep -F "softrdma/$1, $2, " <<<"$out" | grep -q ": installed$"' \
		_ "$ver" "$KVER"
	lab_check "modinfo: the module is DKMS's, in updates/dkms, built for $KVER" bash -c \
		'p=$(modinfo -n softrdma) && echo "$p" && [ "${p%.ko*}" = "$1/softrdma" ] &&
		 v=$(modinfo -F vermagic softrdma) && echo "$v" && [ "${v%% *}" = "$2" ]' \
		_ "$dkmsdir" "$KVER"
	lab_check "the package's modprobe.d rule refuses rdma_rxe" bash -c \
		'out=$(modprobe rdma_rxe 2>&1); rc=$?; echo "$out"
		 [ $rc -ne 0 ] && grep -q "rdma_rxe is disabled" <<<"$out"'
	lab_check "the package's modprobe.d rule refuses siw" bash -c \
		'out=$(modprobe siw 2>&1); rc=$?; echo "$out"
		 [ $rc -ne 0 ] && grep -q "siw is disabled" <<<"$out"'

	# the iWARP device first: the RDMA CM takes the first device that has the
	# address, and rping is to run over iWARP (README.md, the two-device stacks)
	lab_check "softrdma is not loaded before rdma link add" \
		bash -c '! grep -q "^softrdma " /proc/modules'
	lab_check "rdma link add sw0 type siwarp netdev eth0" \
		rdma link add sw0 type siwarp netdev eth0
	lab_check "rdma link add autoloaded softrdma" grep -q '^softrdma ' /proc/modules
	lab_check "rdma link add sr0 type sroce netdev eth0" \
		rdma link add sr0 type sroce netdev eth0
	lab_check "modprobe ib_uverbs rdma_ucm" modprobe -a ib_uverbs rdma_ucm
fi
lab_check "sr0 has the RoCEv2 GID of $LAB_ADDR" \
	lab_wait_for 10 lab_gid_index "$LAB_ADDR" sr0
gid=$(lab_gid_index "$LAB_ADDR" sr0) || gid=1
# the other guest may still be building: under TCG DKMS takes 35-40
# minutes for either kernel, within the part's hour
lab_barrier devices-up 3000 || exit 1

for size in 4096 65537; do
	lab_pair "sroce pingpong-$size" 120 lab_pingpong ibv_rc_pingpong -d sr0 -g "$gid" \
		-n 50 -s "$size" -c
done

lab_pair "siwarp rping-20x65535" 120 lab_rping_checked 20 65535

lab_barrier traffic-done 300 || exit 1
if [ $installs = 1 ]; then
	lab_check "rdma link del sr0 and sw0" bash -c 'rdma link del sr0 && rdma link del sw0'
	lab_check "rmmod softrdma" rmmod softrdma

	t0=$SECONDS
	lab_check "apt remove softrdma-dkms" bash -c \
		'DEBIAN_FRONTEND=noninteractive apt remove -y softrdma-dkms'
	lab_note "apt remove took $((SECONDS - t0)) s"
	lab_check "after remove: modinfo softrdma fails" bash -c '! modinfo softrdma'
	lab_check "after remove: no softrdma module in $dkmsdir" bash -c \
		'ls -la "$1" 2>&1; ! compgen -G "$1/softrdma.ko*"' _ "$dkmsdir"
	lab_check "after remove: no softrdma module anywhere under /lib/modules/$KVER" bash -c \
		'! find "/lib/modules/$1" -name "softrdma.ko*" | grep .' _ "$KVER"
	lab_check "after remove: dkms knows no softrdma" bash -c \
		'! dkms status softrdma | grep .'
	lab_check "after remove: the modprobe.d rule is gone" bash -c \
		'! grep -rls "rdma_rxe is disabled" /etc/modprobe.d /lib/modprobe.d /run/modprobe.d'
	lab_check "after remove: modprobe rdma_rxe loads the stock driver" modprobe rdma_rxe
	lab_check "after remove: rdma link add rxe0 type rxe netdev eth0" \
		rdma link add rxe0 type rxe netdev eth0
	lab_check "after remove: rdma link del rxe0, rmmod rdma_rxe" bash -c \
		'rdma link del rxe0 && rmmod rdma_rxe'

	# the package has no conffiles: "apt remove" leaves dpkg nothing to purge
	lab_check "after remove: dpkg keeps no state of softrdma-dkms, /usr/src has no softrdma" bash -c \
		'dpkg -s softrdma-dkms 2>&1 | grep "^Status:"
		 ! dpkg -s softrdma-dkms 2>/dev/null | grep -q "^Status: .*\(installed\|config-files\)" &&
		 ! compgen -G "/usr/src/softrdma-*"'
fi
lab_barrier finished 900 || exit 1
