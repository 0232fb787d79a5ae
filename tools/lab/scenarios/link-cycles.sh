# SPDX-License-Identifier: GPL-2.0
#
# 20 cycles of modprobe / rdma link add / rdma link del / rmmod, with
# devices present at rmmod on some cycles and a user context opened on
# others.  Afterwards the RDMA core holds no reference to softrdma or from
# it (module reference counts back where they started); the host checks
# that the kernel logged no warning.
#
# Runs with --stack none.

[ "$LAB_ID" = 0 ] || exit 0

refcnt() { cat "/sys/module/$1/refcnt" 2>/dev/null || echo absent; }

modprobe ib_uverbs
modprobe rdma_ucm
ib_core_before=$(refcnt ib_core)
ib_uverbs_before=$(refcnt ib_uverbs)

cycle() {
	local i=$1

	modprobe softrdma || return 1
	rdma link add sr0 type sroce netdev eth0 || return 1
	rdma link add sw0 type siwarp netdev eth0 || return 1
	if [ $((i % 3)) -eq 0 ]; then
		# open both devices through the stock providers, then close
		ibv_devinfo -d sr0 >/dev/null || return 1
		ibv_devinfo -d sw0 >/dev/null || return 1
	fi
	if [ $((i % 2)) -eq 0 ]; then
		rdma link del sr0 || return 1
		rdma link del sw0 || return 1
		[ -z "$(ls /sys/class/infiniband)" ] || return 1
	fi
	[ "$(refcnt softrdma)" = 0 ] || { echo "softrdma refcnt $(refcnt softrdma)"; return 1; }
	rmmod softrdma || return 1
	[ "$(refcnt softrdma)" = absent ] || return 1
	[ -z "$(ls /sys/class/infiniband)" ] || { ls /sys/class/infiniband; return 1; }
}

for i in $(seq 1 20); do
	lab_check "cycle $i: load, add sroce+siwarp, $([ $((i % 2)) -eq 0 ] && echo "del, ")rmmod" cycle "$i" ||
		break
done

lab_check "ib_core reference count unchanged ($ib_core_before)" \
	bash -c "[ \"\$(cat /sys/module/ib_core/refcnt)\" = '$ib_core_before' ]"
lab_check "ib_uverbs reference count unchanged ($ib_uverbs_before)" \
	bash -c "[ \"\$(cat /sys/module/ib_uverbs/refcnt)\" = '$ib_uverbs_before' ]"
