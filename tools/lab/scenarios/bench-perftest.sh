# SPDX-License-Identifier: GPL-2.0
#
# bench-perftest: the perftest matrix of tools/bench/bench, for one stack
# pairing.  Not a test: it asserts no figure, it only records them.
#   lab run --stack rxe bench-perftest gid BW_ITERS LAT_ITERS RATE_ITERS TMO
#   lab run --stack siw bench-perftest cm  BW_ITERS LAT_ITERS RATE_ITERS TMO
#   ... TMO FIGURES      only these figures (comma-separated), e.g. the size
#                        sweep's write_bw_65536 (lab_sweep_figures)
# gid: connect over perftest's TCP side channel, -x <IPv4-mapped GID index>;
# cm: connect with rdma_cm (-R), as iWARP needs.
# TMO: timeout of one client run, in seconds.
#
# guest0 runs each perftest server, guest1 the client.  Per figure and
# attempt, guest1 writes /lab/guest1/status/<figure>.<attempt>:
#   ok VALUE | retry REASON | fail REASON
# and guest0 reads it after the figure's end barrier, so both agree on
# whether to try again.  guest1 appends the final "figure<TAB>value or
# fail<TAB>reason (or the failed attempt's)<TAB>log" lines to
# $LAB_OUT/bench.tsv.  The remaining figures are skipped after ABANDON_AFTER
# hung client runs in a row (a stack that hangs) or when a figure has
# failed and no client run has connected yet (a stack that cannot connect).  Raw outputs go to
# $LAB_OUT/raw/.  $LAB_OUT/progress is touched at every step (the host's
# watchdog reads it).

CONNECT=${1:-gid}
BW_ITERS=${2:-500}
LAT_ITERS=${3:-200}
RATE_ITERS=${4:-20000}
TMO=${5:-45}
IFS=, read -r -a FIGURES <<<"${6:-$(IFS=,; echo "${LAB_BENCH_FIGURES[*]}")}"
CONNECT_TMO=20		# seconds for a client to connect
ATTEMPTS=3		# runs of a figure before it counts as failed
ABANDON_AFTER=3		# hung client runs in a row before the rest is skipped
export LAB_BARRIER_TIMEOUT=$((TMO + 90))

lab_bench_cmds "$BW_ITERS" "$RATE_ITERS" "$LAT_ITERS" "${FIGURES[@]}"

raw=$LAB_OUT/raw
status_dir=/lab/guest1/status
mkdir -p "$raw" "$status_dir"
progress() { touch "$LAB_OUT/progress"; }
progress

common=(-d "$LAB_IBDEV" -F)
if [ "$CONNECT" = cm ]; then
	common+=(-R)
else
	gid=$(lab_gid_index "$LAB_ADDR") || lab_fail "no IPv4-mapped GID for $LAB_ADDR on $LAB_IBDEV"
	common+=(-x "$gid")
fi
lab_note "bench: $LAB_STACK $LAB_IBDEV ${common[*]}"
{
	echo "stack $LAB_STACK dev $LAB_IBDEV args ${common[*]}"
	ib_write_bw --version 2>&1 | head -n 1
	ibv_devinfo -d "$LAB_IBDEV" 2>&1
} >"$raw/setup.guest$LAB_ID.txt"

# A connect error: the server was not ready yet; trying again is safe.
CONNECT_ERR="Couldn't connect|Failed to connect|Connection refused|Unable to open file descriptor|Failed to create QP|Unable to perform rdma_client|Unable to init the socket|rdma_connect|RDMA_CM_EVENT_(REJECTED|UNREACHABLE|ADDR_ERROR|ROUTE_ERROR|CONNECT_ERROR)"

# client_once FIGURE LOG PORT: one client run; prints "ok V", "retry R"
# or "fail R".  A client that has not connected (perftest prints the
# peer's "remote address" once it has) after CONNECT_TMO seconds is stopped:
# rdma_cm connects over siw sometimes stall.
client_once() {
	local fig=$1 log=$2 port=$3 rc v tries start pid
	local -a cmd
	read -r -a cmd <<<"${CMD[$fig]}"
	for ((tries = 1; tries <= 3; tries++)); do
		start=$SECONDS
		echo "+ timeout $TMO ${cmd[*]} ${common[*]} -p $port $(lab_peer_addr 0)   (try $tries, $(date +%T))" >>"$log"
		# line-buffered, so a stopped run leaves its output
		timeout "$TMO" stdbuf -oL "${cmd[@]}" "${common[@]}" -p "$port" \
			"$(lab_peer_addr 0)" >>"$log" 2>&1 &
		pid=$!
		while kill -0 "$pid" 2>/dev/null && ! grep -q 'remote address' "$log" &&
			[ $((SECONDS - start)) -lt "$CONNECT_TMO" ]; do
			sleep 0.5
		done
		if kill -0 "$pid" 2>/dev/null && ! grep -q 'remote address' "$log"; then
			kill "$pid"
			wait "$pid"
			echo "exit status $? (stopped: not connected after ${CONNECT_TMO}s)" >>"$log"
			echo "retry hang: not connected after ${CONNECT_TMO}s"
			return
		fi
		wait "$pid"
		rc=$?
		echo "exit status $rc after $((SECONDS - start))s" >>"$log"
		if [ "$rc" = 0 ]; then
			v=$(lab_bench_value "$fig" "$log")
			if [ -n "$v" ]; then
				echo "ok $v"
			elif grep -q 'Correlation coefficient' "$log"; then
				# its clock check failed under TCG: inf, no figure
				echo "retry perftest could not time the run (clock check: r^2 < 0.9)"
			else
				echo "fail exit 0 but no result line in the output"
			fi
			return
		fi
		[ "$rc" = 124 ] && { echo "retry hang: timeout after ${TMO}s"; return; }
		# a quick connect error: the server is still waiting, try again
		if [ $((SECONDS - start)) -lt 10 ] &&
			tail -n 30 "$log" | grep -Eq "$CONNECT_ERR"; then
			sleep 2
			continue
		fi
		echo "retry exit status $rc: $(grep -Ev '^(\+|exit status|-+$| *$)' "$log" | tail -n 1 | cut -c1-100)"
		return
	done
	echo "retry connect failed 3 times: $(grep -Ev '^(\+|exit status|-+$| *$)' "$log" | tail -n 1 | cut -c1-80)"
}

idx=0
hangs=0
measured=0
for fig in "${FIGURES[@]}"; do
	idx=$((idx + 1))
	result=
	earlier=
	for ((a = 1; a <= ATTEMPTS && hangs < ABANDON_AFTER; a++)); do
		port=$((18500 + idx * 10 + a))
		used=$a
		progress
		case $LAB_ID in
		0)
			read -r -a cmd <<<"${CMD[$fig]}"
			slog=$raw/$fig.server.$a.log
			echo "+ timeout $((TMO + 30)) ${cmd[*]} ${common[*]} -p $port" >"$slog"
			timeout $((TMO + 30)) stdbuf -oL "${cmd[@]}" "${common[@]}" -p "$port" >>"$slog" 2>&1 &
			srv=$!
			# ready when it says so: with -R, perftest prints "Waiting for
			# client rdma_cm QP to connect" once it listens (rdma_cm
			# listeners are not always visible in ss); a client that
			# comes too early is retried
			ready='Waiting for client'
			[ "$CONNECT" = cm ] && ready='rdma_cm QP to connect'
			for ((t = 0; t < 60; t++)); do
				grep -q "$ready" "$slog" && break
				kill -0 "$srv" 2>/dev/null || break
				sleep 0.5
			done
			[ "$CONNECT" = cm ] || lab_wait_listen "$port" 30
			lab_barrier "$fig.$a.start" || exit 1
			progress
			lab_barrier "$fig.$a.end" || { kill "$srv" 2>/dev/null; exit 1; }
			# the server outlives a failed client: stop it
			if kill -0 "$srv" 2>/dev/null; then
				sleep 2
				kill "$srv" 2>/dev/null
			fi
			wait "$srv"
			echo "exit status $?" >>"$slog"
			result=$(cat "$status_dir/$fig.$a" 2>/dev/null || echo "fail no status from guest1")
			;;
		1)
			lab_barrier "$fig.$a.start" || exit 1
			progress
			result=$(client_once "$fig" "$raw/$fig.client.$a.log" "$port")
			echo "$result" >"$status_dir/$fig.$a"
			lab_barrier "$fig.$a.end" || exit 1
			;;
		*)
			lab_barrier "$fig.$a.start" || exit 1
			lab_barrier "$fig.$a.end" || exit 1
			result=$(cat "$status_dir/$fig.$a" 2>/dev/null || echo "fail no status")
			;;
		esac
		case $result in
		"retry hang"*) hangs=$((hangs + 1)) ;;
		ok*) hangs=0 ;;
		esac
		[[ $result == retry* ]] || break
		earlier="${earlier:+$earlier; }attempt $a: ${result#* }"
	done
	value=${result#* }
	case $result in
	ok*) measured=$((measured + 1))
	     line=$(printf '%s\t%s\t%s\t%s' "$fig" "$value" "$earlier" "$fig.client.$used.log") ;;
	*) line=$(printf '%s\tfail\t%s\t%s' "$fig" "$value" "$fig.client.$used.log") ;;
	esac
	[ "$LAB_ID" = 1 ] && echo "$line" >>"$LAB_OUT/bench.tsv"
	echo "bench: $line"
	# a latency run's median round trip (t_typical), from the same output
	if [ "$LAB_ID" = 1 ] && [[ $fig == *_lat ]]; then
		why=$value
		v=
		if [[ $result == ok* ]]; then
			why="no t_typical in the output"
			v=$(lab_bench_value "${fig}_typ" "$raw/$fig.client.$used.log")
		fi
		if [ -n "$v" ]; then
			line=$(printf '%s\t%s\t%s\t%s' "${fig}_typ" "$v" "$earlier" "$fig.client.$used.log")
		else
			line=$(printf '%s\tfail\t%s\t%s' "${fig}_typ" "$why" "$fig.client.$used.log")
		fi
		echo "$line" >>"$LAB_OUT/bench.tsv"
	fi
	skip=
	[ "$hangs" -ge "$ABANDON_AFTER" ] && skip="skipped after $hangs hung client runs in a row"
	# no client run has connected yet (guest1's logs, read by every guest)
	if [ "$measured" = 0 ] && [[ $result != ok* ]] &&
		! grep -qs 'remote address' /lab/guest1/raw/*.client.*.log; then
		skip="skipped: no client could connect ($value)"
	fi
	if [ -n "$skip" ] && [ "$idx" -lt ${#FIGURES[@]} ]; then
		if [ "$LAB_ID" = 1 ]; then
			for rest in "${FIGURES[@]:idx}"; do
				printf '%s\tfail\t%s\t\n' "$rest" "$skip" >>"$LAB_OUT/bench.tsv"
				if [[ $rest == *_lat ]]; then
					printf '%s\tfail\t%s\t\n' "${rest}_typ" "$skip" >>"$LAB_OUT/bench.tsv"
				fi
			done
		fi
		lab_note "bench: $skip"
		break
	fi
done
# the stack's own counters (retransmissions, drops) explain odd figures
[ -n "${LAB_IBDEV:-}" ] &&
	rdma statistic show link "$LAB_IBDEV/1" >"$raw/counters.guest$LAB_ID.txt" 2>&1
progress
[ "$LAB_ID" = 1 ] && echo finished >>"$LAB_OUT/bench.done"
lab_barrier "done"
