# SPDX-License-Identifier: GPL-2.0
# gupstat's walk probe against workloads of known size (sourced by suite).
# On base 6.12 follow_page_pte() looks up one PTE per call, so a region of
# N 4 kB pages walked once is exactly N calls of one page each.

log=$(mktemp)
wlog=$(mktemp)
MB=64
PAGES=$((MB * 256))

# held_run "GUPSTAT_OPTS" GUPWORK_ARGS...: fault the region in first,
# attach gupstat -p to the waiting workload, then let it walk. Exec's own
# GUP calls (the new stack's argument pages) happen before the attach, so
# what is counted is the walk alone. Returns non-zero if a step failed.
held_run() {
	local opts=$1 pid gs rc
	shift
	$GUPWORK --wait "$@" >"$wlog" 2>&1 &
	pid=$!
	wait_for "ready pid" "$wlog" 60 || { kill $pid 2>/dev/null; cat "$wlog" >"$log"; return 1; }
	# shellcheck disable=SC2086
	$GUPSTAT $opts -p $pid >"$log" 2>&1 &
	gs=$!
	wait_for "Hit Ctrl-C" "$log" 60 || { kill $pid $gs 2>/dev/null; return 1; }
	kill -USR1 $pid
	wait $pid || { kill $gs 2>/dev/null; cat "$wlog" >>"$log"; return 1; }
	kill -INT $gs
	wait $gs
	rc=$?
	cat "$wlog" >>"$log"
	return $rc
}

# walk_case NAME "GUPSTAT_OPTS" WANT_CALLS GUPWORK_ARGS...
walk_case() {
	local name=$1 opts=$2 want=$3
	shift 3
	if ! held_run "$opts" "$@"; then
		not_ok "$name: gupstat or the workload failed"
		sed 's/^/#   /' "$log"
		return
	fi
	expect_eq "$name: follow_page_pte calls" "$(field calls "$log")" "$want" "$log"
	expect_eq "$name: pages looked up" "$(field pages "$log")" "$want" "$log"
	[ "$want" = 0 ] && return
	expect_eq "$name: every call found one page" "$(bucket 1 "$log")" "$want" "$log"
}

walk_case "readv 4k fexit" "" $PAGES --folio 4k --size $MB readv
walk_case "readv 4k kretprobe (-k)" "-k" $PAGES --folio 4k --size $MB readv
walk_case "populate-read 4k fexit" "" $PAGES --folio 4k --size $MB populate-read
walk_case "populate-write 4k fexit" "" $PAGES --folio 4k --size $MB populate-write
walk_case "readv 64k mTHP fexit" "" $PAGES --folio 64k --size $MB readv
# A 2 MB THP is mapped by a PMD: the walk never reaches follow_page_pte().
walk_case "readv 2M THP fexit" "" 0 --folio 2m --size $MB readv
grep -q 'via kretprobe' "$log" && not_ok "fexit run reported kretprobe" ||
	ok "the output names the method (fexit)"

# gupstat -- COMMAND counts the command from its exec on, which includes
# exec's own argument-page lookups; the same command line over twice the
# memory must differ by exactly the extra pages.
command_calls() {
	$GUPSTAT -- $GUPWORK --folio 4k --size "$1" exec -- \
		$GUP_TEST -L -m "$1" -n $(($1 * 256)) -r 1 >"$log" 2>&1 &&
		field calls "$log"
}
c64=$(command_calls 64)
c128=$(command_calls 128)
expect_eq "gupstat -- gup_test -L: 128 MB minus 64 MB run" "$((c128 - c64))" $PAGES "$log"
expect_eq "gupstat -- COMMAND: exits with the command's status" \
	"$($GUPSTAT -- false >/dev/null 2>&1; echo $?)" 1

# Negative control: counting another process must see none of the walk,
# so the equalities above cannot pass by counting the whole system.
sleep 600 &
other=$!
$GUPSTAT -p $other >"$log" 2>&1 &
gs=$!
wait_for "Hit Ctrl-C" "$log" 60 || not_ok "-p: gupstat did not attach within 60 s"
$GUPWORK --folio 4k --size $MB readv >/dev/null
kill -INT $gs
wait $gs
rc=$?
kill $other
expect_eq "-p other process: Ctrl-C exits 0" "$rc" 0 "$log"
expect_eq "-p other process: workload not counted" "$(field calls "$log")" 0 "$log"
rm -f "$log" "$wlog"
