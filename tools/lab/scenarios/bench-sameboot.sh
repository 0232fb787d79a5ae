# SPDX-License-Identifier: GPL-2.0
#
# bench-sameboot: tools/bench/bench's perftest figures for several RDMA
# stacks in ONE pair of guests, the stacks taking turns figure by figure.
# Not a test: it asserts no figure, it only records them.
#   lab run --stack none,none bench-sameboot ROUNDS STACKS [BW RATE LAT [FIGS [ALT_KO]]]
# STACKS: a comma list of sroce, rxe, siwarp, siw, tcp (e.g. siwarp,siw);
# the first is the one the ratios are about.  tcp is iperf3 with no RDMA
# module loaded, for the bandwidth figures only (one stream, -n the bytes
# of the perftest run, -l 64 KiB, in the direction the figure's data
# flows: write_bw and send_bw guest1 -> guest0, read_bw guest0 -> guest1,
# iperf3 -R; the receiver's MiB/s); it takes no turn at msg_rate or the
# latencies, whose tcp cells stay empty.  siwarp-nocrc is siwarp with
# iw_crc=0 (both ends then agree on no CRC, as siw <-> siw does);
# sroce-nocoalesce is sroce with rc_ack_coalesce=0 (one ACK per AckReq,
# as rxe sends them).  SERVER/CLIENT (e.g. siwarp-nocrc/siw) pairs two
# stacks of one family: guest0, the server, runs the first, guest1 the
# second, so that a gap between two stacks can be put on one side.
# BW, RATE, LAT: perftest -n for the 64 KiB bandwidth runs, the 2-byte
# rate run and the latency runs (default 200, 20000, 1000).  Each latency
# run gives three figures: t_avg (write_lat ...), t_typical, the median
# round trip (write_lat_typ ...), which a slow spell of the host moves
# less, and t_min, the fastest round trip (write_lat_min ...), which is
# what the two stacks' own paths cost with the host out of the way.
# FIGS: a comma list of the figures to measure (default all of
# LAB_BENCH_FIGURES, e.g. write_lat,read_lat,send_lat for many rounds of
# the latency runs alone).
# ALT_KO: a second softrdma.ko (an absolute path on the host, whose file
# system the guests see), for an A/B of two builds in one boot: a
# softrdma stack written with -alt (siwarp-alt, siwarp-alt-nocrc,
# sroce-alt, ...) runs on it, the others on the lab's module.
#
# Why: figures from separate boots (tools/bench/bench gives each pairing
# its own guests) swing with the host's load between the runs; here each
# figure is measured for every stack within a minute, in the same guests,
# the stack order rotating every round, and each cell is the median of
# its rounds.  Switching stacks unloads one module and loads the other
# (softrdma, rdma_rxe and siw never run together).
#
# guest0 runs the servers, guest1 the clients.  guest1 writes every value
# to $LAB_OUT/sameboot.tsv (round, stack, figure, value or "fail") and the
# table to $LAB_OUT/sameboot.md; raw client outputs go to $LAB_OUT/raw/.

ROUNDS=${1:-3}
IFS=, read -r -a STACKS <<<"${2:-siwarp,siw}"
BW_ITERS=${3:-200}
RATE_ITERS=${4:-20000}
LAT_ITERS=${5:-1000}
IFS=, read -r -a FIGURES <<<"${6:-$(IFS=,; echo "${LAB_BENCH_FIGURES[*]}")}"
ALT_KO=${7:-}
# which build of softrdma is loaded (or was last): main or alt
SOFTRDMA_KO=main
TMO=120
ATTEMPTS=3
export LAB_BARRIER_TIMEOUT=$((TMO + 120))

lab_bench_cmds "$BW_ITERS" "$RATE_ITERS" "$LAT_ITERS"
for fig in "${FIGURES[@]}"; do
	[ -n "${CMD[$fig]:-}" ] || lab_fail "bench-sameboot: unknown figure $fig"
done
# the table's rows: the figures, then each latency run's median round trip
ROWS=("${FIGURES[@]}")
for fig in "${FIGURES[@]}"; do
	[[ $fig == *_lat ]] && ROWS+=("${fig}_typ" "${fig}_min")
done

ulimit -l unlimited
raw=$LAB_OUT/raw
mkdir -p "$raw"
port=19800
peer=$(lab_peer_addr 0)
modprobe ib_uverbs
modprobe rdma_ucm
modprobe libcrc32c

loaded() { grep -q "^$1 " /proc/modules; }

# no_rdma: no RDMA device and none of the RDMA modules in this guest
no_rdma() {
	local d mod
	for d in sr0 sw0 rxe0 siw0; do
		if [ -e "/sys/class/infiniband/$d" ]; then
			rdma link del "$d"
		fi
	done
	for mod in softrdma rdma_rxe siw; do
		if loaded "$mod"; then
			rmmod "$mod"
		fi
	done
}

# use STACK: make STACK this guest's only RDMA stack; sets DEV and CONN.
# For SERVER/CLIENT, this guest's side of it.  tcp: no RDMA stack at all.
use() {
	local want mod d ko=main type=$1
	if [ "$1" = tcp ]; then
		no_rdma
		DEV=
		CONN=()
		return
	fi
	if [[ $1 == */* ]]; then
		if [ "$LAB_ID" = 0 ]; then
			set -- "${1%%/*}"
		else
			set -- "${1#*/}"
		fi
		type=$1
	fi
	if [[ $1 == sroce-alt* || $1 == siwarp-alt* ]]; then
		[ -f "$ALT_KO" ] || lab_fail "bench-sameboot: $1 needs ALT_KO, a softrdma.ko"
		ko=alt
		set -- "${1/-alt/}"
		type=$1
	fi
	case $1 in
	sroce | sroce-nocoalesce) want=softrdma DEV=sr0 type=sroce ;;
	siwarp | siwarp-nocrc) want=softrdma DEV=sw0 type=siwarp ;;
	rxe) want=rdma_rxe DEV=rxe0 ;;
	siw) want=siw DEV=siw0 ;;
	*) lab_fail "bench-sameboot: unknown stack $1" ;;
	esac
	for d in sr0 sw0 rxe0 siw0; do
		if [ -e "/sys/class/infiniband/$d" ]; then
			rdma link del "$d"
		fi
	done
	for mod in softrdma rdma_rxe siw; do
		if loaded "$mod" && { [ "$mod" != "$want" ] ||
			{ [ "$mod" = softrdma ] && [ "$ko" != "$SOFTRDMA_KO" ]; }; }; then
			rmmod "$mod"
		fi
	done
	if ! loaded "$want" && [ "$ko" = alt ]; then
		# what modprobe would load first, then the other build
		# shellcheck disable=SC2046 # one module name per word
		modprobe -a $(modinfo -F depends softrdma | tr , ' ')
		insmod "$ALT_KO" || lab_fail "insmod $ALT_KO failed"
	fi
	loaded "$want" || modprobe "$want"
	[ "$want" != softrdma ] || SOFTRDMA_KO=$ko
	if [ "$type" = sroce ]; then
		if [ "$1" = sroce-nocoalesce ]; then
			echo 0 >/sys/module/softrdma/parameters/rc_ack_coalesce
		else
			echo 1 >/sys/module/softrdma/parameters/rc_ack_coalesce
		fi
	fi
	if [ "$type" = siwarp ]; then
		if [ "$1" = siwarp-nocrc ]; then
			echo 0 >/sys/module/softrdma/parameters/iw_crc
		else
			echo 1 >/sys/module/softrdma/parameters/iw_crc
		fi
	fi
	rdma link add "$DEV" type "$type" netdev eth0 ||
		lab_fail "rdma link add $DEV type $type failed"
	case $1 in
	sroce | sroce-nocoalesce | rxe)
		# the IPv4-mapped GID of this device (LAB_IBDEV is empty here:
		# the lab booted no stack)
		lab_wait_for 10 lab_gid_index "$LAB_ADDR" "$DEV" >/dev/null ||
			lab_fail "no IPv4-mapped GID for $LAB_ADDR on $DEV"
		CONN=(-x "$(lab_gid_index "$LAB_ADDR" "$DEV")")
		;;
	*) CONN=(-R) ;;
	esac
}

# record ROUND STACK FIGURE LOG: guest1 writes the figure LOG gives (or
# "fail" without a LOG) to sameboot.tsv, and for a latency run also its
# median and fastest round trips (FIGURE_typ, FIGURE_min)
record() {
	local r=$1 s=$2 fig=$3 log=$4 f v figs=("$3")
	[[ $fig == *_lat ]] && figs+=("${fig}_typ" "${fig}_min")
	for f in "${figs[@]}"; do
		v=
		if [ "$s" = tcp ] && [ -n "$log" ]; then
			v=$(lab_iperf3_value "$log")
		elif [ -n "$log" ]; then
			v=$(lab_bench_value "$f" "$log")
		fi
		printf '%s\t%s\t%s\t%s\n' "$r" "$s" "$f" "${v:-fail}" >>"$LAB_OUT/sameboot.tsv"
	done
}

# takes_turn STACK FIGURE: whether STACK measures FIGURE (tcp: only the
# bandwidths)
takes_turn() {
	[ "$1" != tcp ] || [[ $2 == *_bw ]]
}

# one STACK FIGURE ROUND: one measurement, a few attempts (perftest 4.5's
# -R start-up race, workarounds.sh); guest1 records it
one() {
	local s=$1 fig=$2 r=$3 try log v status srv
	# shellcheck disable=SC2206 # a command line
	local cmd=(${CMD[$fig]}) srv_cmd cli_cmd
	if [ "$s" = tcp ]; then
		# as many bytes as the perftest run moves, in its direction
		srv_cmd=(iperf3 -s -1)
		cli_cmd=(iperf3 -n $((BW_ITERS * 65536)) -l 65536 -J)
		[ "$fig" = read_bw ] && cli_cmd+=(-R)
	else
		srv_cmd=("${cmd[@]}" -d "$DEV" -F "${CONN[@]}")
		cli_cmd=("${cmd[@]}" -d "$DEV" -F "${CONN[@]}")
	fi
	for try in $(seq "$ATTEMPTS"); do
		port=$((port + 1))
		lab_barrier "go-$r-$fig-$s-$try" || return 1
		if [ "$LAB_ID" = 0 ]; then
			timeout $((TMO + 30)) "${srv_cmd[@]}" \
				-p "$port" >/tmp/srv.out 2>&1 &
			srv=$!
			lab_wait_for 30 lab_listening "$port"
			lab_barrier "listen-$r-$fig-$s-$try"
			lab_barrier "done-$r-$fig-$s-$try" $((TMO + 60))
			kill "$srv" 2>/dev/null
			wait "$srv" 2>/dev/null
			status=$(cat "/lab/guest1/sameboot.status" 2>/dev/null)
		else
			lab_barrier "listen-$r-$fig-$s-$try"
			log=$raw/$r.$fig.${s//\//-}.$try.log
			if [ "$s" = tcp ]; then
				timeout "$TMO" "${cli_cmd[@]}" -p "$port" \
					-c "$peer" >"$log" 2>&1
				v=$(lab_iperf3_value "$log")
			else
				timeout "$TMO" "${cli_cmd[@]}" -p "$port" \
					"$peer" >"$log" 2>&1
				v=$(lab_bench_value "$fig" "$log")
			fi
			status=${v:+ok}
			echo "${status:-again}" >/lab/guest1/sameboot.status
			lab_barrier "done-$r-$fig-$s-$try" $((TMO + 60))
		fi
		if [ "$status" = ok ]; then
			[ "$LAB_ID" = 1 ] && record "$r" "$s" "$fig" "$log"
			return 0
		fi
		lab_note "bench-sameboot: round $r $fig on $s: attempt $try gave no figure"
	done
	[ "$LAB_ID" = 1 ] && record "$r" "$s" "$fig" ""
	return 0
}

# table: medians and ratios, markdown
table() {
	awk -F '\t' -v stacks="${STACKS[*]}" -v figures="${ROWS[*]}" '
	function median(k,   n, i, j, t, a) {
		n = split(vals[k], a, " ")
		if (n == 0) return ""
		for (i = 1; i <= n; i++)
			for (j = i + 1; j <= n; j++)
				if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	$4 != "fail" {
		vals[$2 "." $3] = vals[$2 "." $3] " " $4
		rv[$2 "." $3 "." $1] = $4
		if ($1 > nr) nr = $1
	}
	END {
		ns = split(stacks, st, " ")
		nf = split(figures, figs, " ")
		name["write_bw"] = "ib_write_bw 64 KiB, MB/s"
		name["read_bw"] = "ib_read_bw 64 KiB, MB/s"
		name["send_bw"] = "ib_send_bw 64 KiB, MB/s"
		name["msg_rate"] = "ib_write_bw 2 B msg rate, k msg/s"
		name["write_lat"] = "ib_write_lat 2 B avg, us (lower is better)"
		name["read_lat"] = "ib_read_lat 2 B avg, us (lower is better)"
		name["send_lat"] = "ib_send_lat 2 B avg, us (lower is better)"
		name["write_lat_typ"] = "ib_write_lat 2 B typical, us (lower is better)"
		name["read_lat_typ"] = "ib_read_lat 2 B typical, us (lower is better)"
		name["send_lat_typ"] = "ib_send_lat 2 B typical, us (lower is better)"
		name["write_lat_min"] = "ib_write_lat 2 B fastest, us (lower is better)"
		name["read_lat_min"] = "ib_read_lat 2 B fastest, us (lower is better)"
		name["send_lat_min"] = "ib_send_lat 2 B fastest, us (lower is better)"
		line = "| figure |"; sep = "| --- |"
		for (i = 1; i <= ns; i++) { line = line " " st[i] " |"; sep = sep " ---: |" }
		for (i = 2; i <= ns; i++) { line = line " " st[1] " vs " st[i] " |"; sep = sep " ---: |" }
		print line; print sep
		for (f = 1; f <= nf; f++) {
			fig = figs[f]; line = "| " name[fig] " |"
			for (i = 1; i <= ns; i++) {
				m[i] = median(st[i] "." fig)
				if (m[i] != "" && fig == "msg_rate") m[i] *= 1000
				line = line " " (m[i] == "" ? "-" : sprintf("%.2f", m[i])) " |"
			}
			for (i = 2; i <= ns; i++) {
				if (m[1] == "" || m[i] == "" || m[1] == 0 || m[i] == 0) r = "-"
				else if (fig ~ /_lat(_typ|_min)?$/) r = sprintf("%.2f", m[i] / m[1])
				else r = sprintf("%.2f", m[1] / m[i])
				line = line " " r " |"
			}
			print line
		}
		# The same ratios round by round: the stacks of one round ran
		# minutes apart, so each pair saw the same host load
		if (ns < 2) exit
		print ""
		line = "| figure |"; sep = "| --- |"
		for (i = 2; i <= ns; i++) {
			line = line " " st[1] " vs " st[i] ", median of rounds | rounds " st[1] " ahead |"
			sep = sep " ---: | ---: |"
		}
		print line; print sep
		for (f = 1; f <= nf; f++) {
			fig = figs[f]; line = "| " name[fig] " |"
			for (i = 2; i <= ns; i++) {
				k = "paired." i "." fig; vals[k] = ""; n = 0; ahead = 0
				for (r = 1; r <= nr; r++) {
					a = rv[st[1] "." fig "." r]; b = rv[st[i] "." fig "." r]
					if (a == "" || b == "" || a == 0 || b == 0) continue
					q = fig ~ /_lat(_typ|_min)?$/ ? b / a : a / b
					vals[k] = vals[k] " " q; n++
					if (q >= 1) ahead++
				}
				line = line " " (n ? sprintf("%.2f", median(k)) " | " \
				       ahead " of " n : "- | -") " |"
			}
			print line
		}
	}' "$LAB_OUT/sameboot.tsv"
}

lab_note "bench-sameboot: $ROUNDS rounds of ${STACKS[*]}; -n $BW_ITERS (64 KiB), $RATE_ITERS (2 B rate), $LAT_ITERS (latency)"
[ -z "$ALT_KO" ] ||
	lab_note "bench-sameboot: -alt stacks on $ALT_KO (sha256 $(sha256sum "$ALT_KO" | cut -c1-12)), the others on $(modinfo -n softrdma) ($(sha256sum "$(modinfo -n softrdma)" | cut -c1-12))"
cur=
for r in $(seq "$ROUNDS"); do
	for fig in "${FIGURES[@]}"; do
		# rotate the order: round 1 a b c, round 2 b c a, ...
		n=${#STACKS[@]}
		for ((i = 0; i < n; i++)); do
			s=${STACKS[$(((i + r - 1) % n))]}
			takes_turn "$s" "$fig" || continue
			if [ "$s" != "$cur" ]; then
				use "$s"
				cur=$s
			fi
			one "$s" "$fig" "$r" || lab_fail "bench-sameboot: the guests lost step"
		done
	done
done

if [ "$LAB_ID" = 1 ]; then
	{
		table
		if [[ " ${STACKS[*]} " == *" tcp "* ]]; then
			echo
			echo "tcp: iperf3, one stream, -n $((BW_ITERS * 64)) KiB, -l 64 KiB, in the"
			echo "direction of the figure's data (read_bw: -R), the receiver's MiB/s;"
			echo "no counterpart of the message rate or the latencies (-)."
		fi
		echo
		echo "Values per round (round, stack, figure, value):"
		sort -k3,3 -k2,2 -k1,1n "$LAB_OUT/sameboot.tsv" | tr '\t' ' '
	} >"$LAB_OUT/sameboot.md"
	cat "$LAB_OUT/sameboot.md"
fi
lab_check "bench-sameboot recorded its figures" test -s /lab/guest1/sameboot.tsv
