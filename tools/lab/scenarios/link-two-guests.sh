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

# ibv_rc_pingpong connects its QPs the InfiniBand way.  The siwarp
# device takes RESET->INIT and INIT->RTR with IB attributes as stock siw
# does (RTR's address vector is taken and ignored), but only the iw_cm
# moves an iWARP QP to RTS, by connecting it: the server, which moves its
# QP first, gets a clean error at RTS, and the client sees the connection
# end; neither hangs (traffic itself is the business of roce-rc and
# iwarp-data).
if [ "$LAB_ID" = 0 ]; then
	timeout 60 ibv_rc_pingpong -d sw0 -p 18515 >/tmp/rc-pingpong.out 2>&1 &
	pp=$!
	lab_wait_listen 18515
	lab_barrier pingpong-listening || exit 1
	rc=0
	wait "$pp" || rc=$?
	lab_check "guest0: ibv_rc_pingpong server on sw0 fails cleanly at RTS (only the iw_cm connects)" \
		bash -c 'cat /tmp/rc-pingpong.out; [ "$1" -ne 0 ] && [ "$1" -ne 124 ] && grep -q "Failed to modify QP to RTS" /tmp/rc-pingpong.out' _ "$rc"
else
	lab_barrier pingpong-listening || exit 1
	lab_check "guest1: ibv_rc_pingpong client on sw0 fails cleanly (no iWARP connection)" \
		bash -c 'out=$(timeout 60 ibv_rc_pingpong -d sw0 -p 18515 "$1" 2>&1); rc=$?; echo "$out"; [ $rc -ne 0 ] && [ $rc -ne 124 ]' _ "$peer_addr"
fi
lab_barrier finished || exit 1
