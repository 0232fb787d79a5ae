# SPDX-License-Identifier: GPL-2.0
#
# selfcheck-rxe: proves the lab with the stock rxe driver (not softrdma).
#   lab run --stack rxe selfcheck-rxe
# guest0 runs ibv_rc_pingpong servers, guest1 the clients; -c makes both
# sides validate the received buffer contents.

PORT=18515
SIZES=("" 4096)          # "" = the default size
ITERS=1000

# GID index 1 must be the IPv4-mapped GID of our own address.
gid=$(lab_gid_index "$LAB_ADDR") || gid=
lab_check "gid index of $LAB_ADDR is 1" test "$gid" = 1 ||
	lab_note "GID table: $(grep -v '0000:0000:0000:0000:0000:0000:0000:0000' /sys/class/infiniband/"$LAB_IBDEV"/ports/1/gids/* 2>/dev/null | tr '\n' ' ')"
[ -n "$gid" ] || gid=1

# pingpong [SERVER] SIZE...: run ibv_rc_pingpong, fail on a bad exit status,
# on "invalid data" (what -c reports), or if it did not complete its iterations.
pingpong() {
	local out rc
	out=$(timeout 90 ibv_rc_pingpong -d "$LAB_IBDEV" -g "$gid" -p "$PORT" \
		-n "$ITERS" -e -c "$@" 2>&1)
	rc=$?
	echo "$out"
	[ $rc -eq 0 ] || return $rc
	if grep -q 'invalid data' <<<"$out"; then
		echo "FAIL: data validation failed"
		return 1
	fi
	grep -q "$ITERS iters in" <<<"$out" || { echo "FAIL: no '$ITERS iters in' line"; return 1; }
}

n=0
for size in "${SIZES[@]}"; do
	n=$((n + 1))
	label="size ${size:-default}"
	sopt=()
	[ -n "$size" ] && sopt=(-s "$size")
	case $LAB_ID in
	0)
		pingpong "${sopt[@]}" >"/tmp/server$n.log" 2>&1 &
		srv=$!
		lab_check "rc_pingpong server listening ($label)" lab_wait_listen "$PORT" 30
		lab_barrier "server$n"
		lab_check "rc_pingpong server ($label)" wait "$srv"
		cat "/tmp/server$n.log" >>"$LAB_OUT/checks/server$n.out"
		;;
	1)
		lab_barrier "server$n"
		lab_check "rc_pingpong client ($label)" \
			lab_retry 3 2 pingpong "${sopt[@]}" "$(lab_peer_addr 0)"
		;;
	*)
		lab_barrier "server$n"
		;;
	esac
	lab_barrier "done$n"
done
