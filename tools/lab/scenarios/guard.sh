# SPDX-License-Identifier: GPL-2.0
#
# softrdma and the stock rdma_rxe / siw never run together, whichever
# comes first.  Runs with --stack none; the lab has installed the stock
# siw.ko beside softrdma.ko, and no modprobe.d rule is in the way: this
# tests softrdma's own guard.

[ "$LAB_ID" = 0 ] || exit 0

loaded() { grep -q "^$1 " /proc/modules; }

for rival in rdma_rxe siw; do
	[ "$rival" = siw ] && modprobe libcrc32c

	lab_check "$rival loads alone" modprobe "$rival"
	lab_expect_fail "softrdma refuses to load beside $rival" modprobe softrdma
	lab_check "softrdma said why it refused ($rival)" bash -c \
		"dmesg | grep -q 'softrdma: refusing to load: $rival is loaded'"
	lab_check "$rival is unaffected" loaded "$rival"
	lab_check "rmmod $rival" rmmod "$rival"

	lab_check "softrdma loads once $rival is gone" modprobe softrdma
	lab_expect_fail "$rival refuses to load beside softrdma" modprobe "$rival"
	lab_check "softrdma said why $rival may not load" bash -c \
		"dmesg | grep -q 'softrdma: refusing to let $rival load'"
	lab_check "$rival is not loaded" bash -c "! grep -q '^$rival ' /proc/modules"
	lab_check "softrdma still works: rdma link add sr0" \
		rdma link add sr0 type sroce netdev eth0
	lab_check "rmmod softrdma (device present)" rmmod softrdma
done

lab_check "the stock link type rxe cannot autoload rdma_rxe beside softrdma" bash -c \
	'modprobe softrdma && ! rdma link add rxe0 type rxe netdev eth0 && ! grep -q "^rdma_rxe " /proc/modules'
rmmod softrdma
