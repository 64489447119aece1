# SPDX-License-Identifier: GPL-2.0
# Helpers for the in-guest tests: gupstat's numbers, what the kernel has.

# The build of this guest's architecture: an arm64 guest (tools/vmrun
# --arch arm64) runs make arm64's, in build/arm64.
case $(uname -m) in
aarch64) BUILD=build/arm64 ;;
*) BUILD=build ;;
esac
GUPSTAT=${GUPSTAT:-$BUILD/gupstat}
GUPWORK=${GUPWORK:-$BUILD/gupwork}
GUP_TEST=${GUP_TEST:-$BUILD/selftests/gup_test}
. tests/lib/tap.sh

# The numbers come from gupstat -j (NDJSON); the last report counts. A
# traced command shares gupstat's stdout: only the JSON lines are read.
records() {
	grep '^{"type":' "$1"
}

# A histogram is named as serve names its series (docs/live.md, NDJSON):
# its metric, and the labels that tell its series apart, in braces:
# walk_pages, 'grab_refs{foll=pin}', 'gup_returned_pages{kind=noref}',
# 'unpin_pages{function=unpin_user_pages_dirty_lock}', a value quoted or
# not, as docs/bpf.md writes it (kind="pin") or not. A label left out
# matches any value; a SERIES that matches more than one series of the
# report is an error (on stderr, and no number), not the last of them.
# (The deprecated NDJSON `name` goes in 0.5: the helpers do not read it.)
HIST_JQ='def series: ($s | capture("^(?<m>[^{]+)(\\{(?<l>.*)\\})?$")) as $c |
	{ m: $c.m, l: [($c.l // "") | split(",")[] | select(. != "") | split("=") |
		{ key: .[0], value: (.[1:] | join("=") | ltrimstr("\"") | rtrimstr("\"")) }] };
def hists: series as $x |
	[.[] | select(.type == "hist" and .data.metric == $x.m) |
		select(.data.labels as $lab | all($x.l[]; $lab[.key] == .value))] |
	if (map(.data.labels) | unique | length) > 1
	then error("\($s): \(map(.data.labels) | unique | length) series, name the labels that tell them apart")
	else . end;'

# hist FILE SERIES FIELD: a histogram's count, sum or max (or any member
# of its record: function, method).
hist() {
	records "$1" | jq -rs --arg s "$2" --arg f "$3" "$HIST_JQ"'
		hists | last | .data[$f] // empty'
}

# bucket FILE SERIES LOW: the count in the bucket starting at LOW (0 if none).
bucket() {
	records "$1" | jq -rs --arg s "$2" --argjson lo "$3" "$HIST_JQ"'
		hists | last | [.data.buckets[]? | select(.low == $lo) | .count] | add // 0'
}

# counter FILE NAME: one of the "counters" record's fields, a member of
# one by its path (gup_calls.pin, walk_returns.fault), not the
# deprecated names (gup_pin_calls) that go with the histograms' `name`.
counter() {
	records "$1" | jq -rs --arg n "$2" \
		'[.[] | select(.type == "counters")] | last | .data | getpath($n | split(".")) // empty'
}

# buckets FILE SERIES: "low:count" pairs, for messages.
buckets() {
	records "$1" | jq -rs --arg s "$2" "$HIST_JQ"'
		hists | last | [.data.buckets[]? | "\(.low):\(.count)"] | join(" ")'
}

# wait_for PATTERN FILE [SEC]: until FILE shows PATTERN (e.g. attached).
wait_for() {
	local i
	for ((i = 0; i < ${3:-60} * 10; i++)); do
		grep -q "$1" "$2" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# The held workload. gupwork --wait faults its region in, says "ready
# pid N" and waits for SIGUSR1 to walk it: gupstat attaches after the
# workload's exec (whose own GUP calls are then not counted) and before
# its walk. held_run is the whole sequence; its steps are for what goes
# between them (joining a cgroup, ftrace, a stopped tracer, a second
# tracer). HELD_WAIT: seconds each wait allows (60).

# held_start [-c CGROUP] LOG GUPWORK_ARGS...: a waiting gupwork, output
# in LOG, pid in HELD_PID (HELD_GS cleared); 1, killed, if it does not
# get ready. With -c it joins CGROUP (a cgroup2 directory) before exec.
held_start() {
	local cg='' log
	if [ "$1" = -c ]; then
		cg=$2
		shift 2
	fi
	log=$1
	shift
	HELD_GS=''
	if [ -n "$cg" ]; then
		sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" \
			$GUPWORK --wait "$@" >"$log" 2>&1 &
	else
		$GUPWORK --wait "$@" >"$log" 2>&1 &
	fi
	HELD_PID=$!
	wait_for "ready pid" "$log" "${HELD_WAIT:-60}" && return 0
	kill $HELD_PID 2>/dev/null
	return 1
}

# held_attach OUT ERR GUPSTAT_ARGS...: gupstat ARGS in the background,
# stdout in OUT and stderr in ERR (both emptied first), pid in HELD_GS,
# until it says it has attached ("Hit Ctrl-C"); 1 if it does not, it and
# the workload killed. ARGS name the workload (-p $HELD_PID, -c DIR).
held_attach() {
	local out=$1 err=$2
	shift 2
	$GUPSTAT "$@" >"$out" 2>"$err" &
	HELD_GS=$!
	wait_for "Hit Ctrl-C" "$err" "${HELD_WAIT:-60}" && return 0
	kill $HELD_PID $HELD_GS 2>/dev/null
	return 1
}

# held_walk [PID...]: SIGUSR1, the workloads walk (HELD_PID's alone by
# default), then exit: the first failure's status (gupwork's 3: part of
# its region was collapsed into a THP behind its back), gupstat killed.
held_walk() {
	local p r rc=0
	[ $# -gt 0 ] || set -- "$HELD_PID"
	kill -USR1 "$@"
	for p in "$@"; do
		wait "$p"
		r=$?
		[ $rc != 0 ] || rc=$r
	done
	[ $rc = 0 ] || [ -z "$HELD_GS" ] || { kill $HELD_GS; kill -CONT $HELD_GS; wait $HELD_GS; } 2>/dev/null
	return $rc
}

# held_stop: SIGINT to gupstat (HELD_GS), which ends its report and
# exits; its exit status.
held_stop() {
	[ -n "${HELD_GS:-}" ] || return 1
	kill -INT $HELD_GS
	wait $HELD_GS
}

# held_run OUT ERR WLOG "GUPSTAT_ARGS" GUPWORK_ARGS...: the sequence,
# gupstat ARGS -p PID around gupwork ARGS: 0 when all of it worked, else
# the workload's status (3, see held_walk) or 1.
held_run() {
	local out=$1 err=$2 wlog=$3 opts=$4
	shift 4
	: >"$out"
	: >"$err"
	held_start "$wlog" "$@" || return 1
	# shellcheck disable=SC2086
	held_attach "$out" "$err" $opts -p $HELD_PID || return 1
	held_walk || return
	held_stop
}

# pins: acquired minus released, from the kernel's own accounting. The
# counters are per-CPU with lazily folded deltas; stat_refresh folds them
# so that the difference is exact at this moment.
pins() {
	echo 1 >/proc/sys/vm/stat_refresh
	awk '$1 == "nr_foll_pin_acquired" { a = $2 }
	     $1 == "nr_foll_pin_released" { r = $2 }
	     END { print a - r }' /proc/vmstat
}

# What this kernel has, asked of the kernel itself (not its version):
# the suite runs on our kernels and on Debian's, and a test that needs
# what a kernel lacks checks the refusal instead.
have_gup_test() { [ -e /sys/kernel/debug/gup_test ]; }
have_mthp() { [ -d /sys/kernel/mm/transparent_hugepage/hugepages-64kB ]; }
have_shmem_mthp() { [ -e /sys/kernel/mm/transparent_hugepage/hugepages-64kB/shmem_enabled ]; }
have_sym() { awk -v s="$1" '$3 == s { f = 1; exit } END { exit !f }' /proc/kallsyms; }

# The function --lock-exact times the hold from, asked of kallsyms in
# one pass: __pte_offset_map_lock() up to 6.x, pte_offset_map_lock() on
# 7.x (out of line there, the former gone), nothing on 6.1 (a macro),
# where --lock-exact is refused in one line. gupstat decides from BTF.
lock_func() {
	awk '$3 == "__pte_offset_map_lock" { inner = 1 } $3 == "pte_offset_map_lock" { outer = 1 }
	     END { print inner ? "__pte_offset_map_lock" : outer ? "pte_offset_map_lock" : "" }' \
		/proc/kallsyms
}

# What the kernel under test walks, by its name, since that is what each
# kernel is built to be (kernel/build): base looks up one PTE per
# follow_page_pte() call; the batched series walks up to a page table
# (512 PTEs) per call; only batched-traced keeps gup_fill_pages() out of
# line, so only there is the fill probe expected to attach.
case $(uname -r) in
*-gupstat-batched*) WALK_BATCHED=1 ;;
*) WALK_BATCHED=0 ;;
esac
case $(uname -r) in
*-gupstat-batched-traced*) FILL_TRACED=1 ;;
*) FILL_TRACED=0 ;;
esac
# The project's own kernels (kernel/build) promise what the suite needs:
# GUP_TEST, per-size mTHP, every probe by fentry (test_promised.sh
# asserts it). On them a have_* check that fails is a broken kernel, not
# a kernel to adapt to; the refusals are what Debian's kernels get.
case $(uname -r) in
*-gupstat-*) PROJECT_KERNEL=1 ;;
*) PROJECT_KERNEL=0 ;;
esac

# The MB of the one large trace test_perfetto.sh and test_json.sh each
# take: 256 on the batched kernels, the size the exports are judged at
# (128 holds of a page table each); a quarter where a hold is one page
# (base, Debian's kernels): 65536 holds with their stacks made
# base-debug's suite take over 25 min under TCG (test_json.sh 618 s, a
# kernel build beside it at first), past its part's bound in make check. test_folded.sh's pin,
# the flame graph's (FOLD_MB), stays 256 MB on all of ours, base's 65536
# holds too: one trace.
if [ $WALK_BATCHED = 1 ]; then EXPORT_MB=256; else EXPORT_MB=64; fi
case $(uname -r) in
*-gupstat-*) FOLD_MB=256 ;;
*) FOLD_MB=$EXPORT_MB ;;
esac

# calls_ok GOT WANT: is GOT the right number of walk calls for a walk of
# WANT calls without early exits? On base, exactly WANT. On the batched
# series the walk gives the PTE lock up early when need_resched() or
# spin_needbreak() says so, at most every 32 PTEs, and each such exit
# adds one call; in an otherwise idle guest that is a few per 64 MB, so
# up to half again is accepted. A lost or doubled call count still fails.
calls_ok() {
	[ "$WALK_BATCHED" = 1 ] || { [ "$1" = "$2" ]; return; }
	[ "$1" -ge "$2" ] && [ "$1" -le $(($2 + $2 / 2)) ]
}

# expect_calls NAME GOT WANT [LOG]
expect_calls() {
	if calls_ok "$2" "$3"; then
		ok "$1 ($2, for $3 without early exits)"
	else
		not_ok "$1: got $2, want $3$([ "$WALK_BATCHED" = 1 ] && echo " to $(($3 + $3 / 2))")"
		[ -n "${4:-}" ] && tail -c 2000 "$4" | diag
	fi
}

# expect_full NAME FULL GOT WANT: of GOT calls that made WANT table walks,
# FULL covered a whole table. An early exit splits one table's walk in
# two, so at least WANT - (GOT - WANT) calls are whole; on base every
# call is (one PTE) and FULL = GOT.
expect_full() {
	local min=$((2 * $4 - $3))
	[ "$WALK_BATCHED" = 1 ] || min=$3
	[ "$2" -ge "$min" ] && ok "$1 ($2 of $3, at least $min)" ||
		not_ok "$1: $2 of $3 calls covered a whole table, want at least $min"
}
