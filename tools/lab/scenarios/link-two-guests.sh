# SPDX-License-Identifier: GPL-2.0
#
# Two guests, each with an sroce (sr0, brought up by the lab) and a siwarp
# device on eth0: the network keeps working under them, each sees its own
# addresses as GIDs, and an InfiniBand-style application on the siwarp
# device fails cleanly instead of hanging.
#
# Runs with --stack sroce.

peer=$((1 - LAB_ID))
peer_addr=$(lab_peer_addr "$peer")
peer_addr6=$(lab_peer_addr6 "$peer")

lab_check "guest$LAB_ID: rdma link add sw0 type siwarp netdev eth0" \
	rdma link add sw0 type siwarp netdev eth0
lab_barrier devices-up || exit 1

lab_check "guest$LAB_ID: IPv4 ping to the peer with both devices present" \
	ping -c 3 -W 5 "$peer_addr"
lab_check "guest$LAB_ID: IPv6 ping to the peer with both devices present" \
	ping -6 -c 3 -W 5 "$peer_addr6"
lab_check "guest$LAB_ID: sr0 has the IPv4-mapped GID of $LAB_ADDR" \
	lab_gid_index "$LAB_ADDR" sr0
lab_check "guest$LAB_ID: sr0 has the IPv6 GID of $LAB_ADDR6" \
	lab_gid_index "$LAB_ADDR6" sr0

# ibv_rc_pingpong connects its QPs the InfiniBand way (P_Key, path,
# PSNs); an iWARP QP takes none of that (only the iw_cm connects it), so
# libsiw must get a clean error back at the first such modify, not a hang
# (traffic itself is the business of roce-rc and iwarp-data).
lab_check "guest$LAB_ID: ibv_rc_pingpong on sw0 fails cleanly (IB-style QP setup refused)" \
	bash -c 'out=$(timeout 30 ibv_rc_pingpong -d sw0 2>&1); rc=$?; echo "$out"; [ $rc -ne 0 ] && [ $rc -ne 124 ] && echo "$out" | grep -q "Failed to modify QP"'
lab_barrier finished || exit 1
