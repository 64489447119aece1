#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# gupstat trace and report against workloads of known size. Each
# follow_page_pte() call is one hold: on an unpatched kernel one page per call, so 64 MB of 4 kB pages walked once is 16384 holds of 1 page;
# the batched walk covers a page table per call, 32 holds of 512 pages
# (a few more, shorter, where it gave the lock up early: lib.sh calls_ok).
# The holds are read back through report --perfetto (one "X" event each).
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/guest/lib.sh
LOCK_FUNC=$(lock_func)

tdir=$(mktemp -d)
T=$tdir/t.gt
tjson=$tdir/t.json
terr=$tdir/err
twlog=$tdir/work
treport=$tdir/report
T_MB=64
T_PAGES=$((T_MB * 256))
if [ $WALK_BATCHED = 1 ]; then T_CALLS=$((T_PAGES / 512)) T_BATCH=512
else T_CALLS=$T_PAGES T_BATCH=1; fi

t_logs() {
	diag "$terr" "$twlog"
	head -c 1500 "$treport" 2>/dev/null | diag
}

# trace_held "TRACE_OPTS" GUPWORK_ARGS...: fault the region in, attach
# gupstat trace -p to the waiting workload, let it walk, stop tracing.
# With T_STOP=1 the tracer is stopped (SIGSTOP) while the workload walks,
# so nothing drains the ring buffer: what fits is what the buffer holds.
trace_held() {
	local opts=$1
	shift
	rm -f "$T"
	: >"$terr"
	held_start "$twlog" "$@" || return 1
	T_PID=$HELD_PID
	# shellcheck disable=SC2086
	held_attach /dev/null "$terr" trace -o "$T" $opts -p $HELD_PID || return 1
	[ "${T_STOP:-0}" = 1 ] && kill -STOP $HELD_GS
	held_walk || return 1
	[ "${T_STOP:-0}" = 1 ] && kill -CONT $HELD_GS
	held_stop
}

# trace_case NAME "OPTS" GUPWORK_ARGS...: 0 when the trace and its report worked.
trace_case() {
	local name=$1
	shift
	if trace_held "$@" && $GUPSTAT report -n 3 --perfetto "$tjson" "$T" >"$treport" 2>>"$terr"; then
		return 0
	fi
	not_ok "$name: trace or report failed"
	t_logs
	return 1
}

# holds JQ: a jq expression over the array of hold events.
holds() {
	jq -r "[.traceEvents[] | select(.ph == \"X\")] | $1" "$tjson"
}

# The trailer's counts, as report prints them.
lost() { sed -n 's/^  holds [0-9]*, lost \([0-9]*\),.*/\1/p' "$treport"; }
below_min() { sed -n 's/.*, \([0-9]*\) shorter than --min-ns.*/\1/p' "$treport"; }

name="trace readv 4k"
if trace_case "$name" "" --folio 4k --size $T_MB readv; then
	t_n=$(holds length)
	expect_calls "$name: one record per hold" "$t_n" $T_CALLS "$treport"
	expect_full "$name: holds of $T_BATCH pages" \
		"$(holds "map(select(.args.pages == $T_BATCH)) | length")" "$t_n" $T_CALLS
	expect_eq "$name: none over $T_BATCH pages" "$(holds "map(select(.args.pages > $T_BATCH)) | length")" 0
	expect_eq "$name: pages walked" "$(holds 'map(.args.pages) | add')" $T_PAGES
	expect_eq "$name: every page stored" "$(holds 'map(select(.args.stored != .args.pages)) | length')" 0
	expect_eq "$name: all pinned (FOLL_PIN)" \
		"$(holds 'map(select(.args.flags | test("FOLL_PIN") | not)) | length')" 0
	expect_eq "$name: all the workload's" "$(holds "map(select(.pid != $T_PID)) | length")" 0
	# Records take the task's name from their GUP call's entry.
	expect_eq "$name: the workload's thread named by its records" \
		"$(jq -r "[.traceEvents[] | select(.ph == \"M\" and .name == \"thread_name\" and .tid == $T_PID)][0].args.name" "$tjson")" \
		gupwork
	t_p50=$(holds 'map(.dur) | sort | .[length / 2 | floor] * 1000 | floor')
	expect_eq "$name: file mode" "$(stat -c %a "$T")" 600
	grep -q "holds written to $T, 0 lost" "$terr" && ok "$name: 0 lost, said on stderr" ||
		not_ok "$name: stderr: $(cat "$terr")"
	expect_eq "$name: trailer lost" "$(lost)" 0 "$treport"
	if [ $FILL_TRACED = 1 ]; then
		expect_eq "$name: batched-traced: the fill ran inside every hold" \
			"$(holds 'map(select(.args.fill and .args.fills > 0 and .args.fill_ns > 0)) | length')" "$t_n"
	else
		expect_eq "$name: no fill probe: no fill inside any hold" "$(holds 'map(select(.args.fill)) | length')" 0
		grep -q "fill: gup_fill_pages() not traced (not in this kernel (absent or inlined)" "$treport" &&
			ok "$name: the report says gup_fill_pages() is not there to trace" ||
			not_ok "$name: fill line: $(grep fill: "$treport")"
	fi
	# Symbolised, without the tracer's own frames, and no address.
	awk '/^ #1 /{s=1; next} s && /^ #2 /{exit} s' "$treport" >"$tdir/stack"
	head -n 2 "$tdir/stack" | tail -n 1 | grep -Eq '^ +follow_page_pte\+0x' &&
		grep -q '__get_user_pages+0x' "$tdir/stack" && grep -q 'process_vm_rw' "$tdir/stack" &&
		! grep -q '\[bpf\]' "$tdir/stack" &&
		ok "$name: stack follow_page_pte <- __get_user_pages <- process_vm_rw, no [bpf] frame" ||
		{ not_ok "$name: stack"; diag "$tdir/stack"; }
	! LC_ALL=C grep -qaP '\xff\xff\xff\xff' "$T" && ! grep -q ffffffff "$treport" &&
		ok "$name: no kernel address in the file or the report" ||
		not_ok "$name: kernel addresses written without --kernel-addrs"
fi

name="trace populate-read 4k, -k, --kernel-addrs"
if trace_case "$name" "-k --kernel-addrs" --folio 4k --size $T_MB populate-read; then
	expect_calls "$name: one record per hold" "$(holds length)" $T_CALLS "$treport"
	expect_eq "$name: nothing stored (no pages array)" "$(holds 'map(.args.stored) | add')" 0
	expect_eq "$name: no fill without a pages array" "$(holds 'map(select(.args.fill)) | length')" 0
	grep -q "kprobe+kretprobe" "$treport" && ok "$name: the kprobe method named" ||
		not_ok "$name: method: $(grep hold: "$treport")"
	LC_ALL=C grep -qaP '\xff\xff\xff\xff' "$T" && grep -Eq '^ +ffffffff[0-9a-f]{8} ' "$treport" &&
		ok "$name: kernel addresses written and shown when asked" ||
		not_ok "$name: no kernel addresses with --kernel-addrs"
fi

# --lock-exact: holds start at the acquire; the file and report say so.
name="trace --lock-exact"
if [ -z "$LOCK_FUNC" ]; then
	fails_with "$name without a PTE-lock function" 1 \
		"^gupstat trace: --lock-exact: cannot trace __pte_offset_map_lock" \
		$GUPSTAT trace --lock-exact -o "$tdir/lock.gt" -d 1
elif trace_case "$name" "--lock-exact" --folio 4k --size $T_MB readv; then
	expect_calls "$name: one record per hold" "$(holds length)" $T_CALLS "$treport"
	grep -q "hold: .*exact: from $LOCK_FUNC() return" "$treport" &&
		ok "$name: the exact method named" || not_ok "$name: $(grep hold: "$treport")"
fi

# Stacks only for long holds: none here, and none counted as failed.
name="trace --stack-min-ns 10^12"
if trace_case "$name" "--stack-min-ns 1000000000000" --folio 4k --size $T_MB readv; then
	expect_calls "$name: every hold kept" "$(holds length)" $T_CALLS "$treport"
	grep -q "^         \[no stack\]" "$treport" && grep -q "stacks not taken 0" "$treport" &&
		ok "$name: no stack taken, none failed" || { not_ok "$name: stacks"; t_logs; }
fi

# --min-ns filters in the kernel: what is left out is counted, and the
# two add up to every hold.
name="trace --min-ns"
if trace_case "$name" "--min-ns 1000000000000" --folio 4k --size $T_MB readv; then
	expect_eq "$name 10^12: no hold kept" "$(holds length)" 0 "$treport"
	expect_calls "$name 10^12: all counted as shorter" "$(below_min)" $T_CALLS "$treport"
fi
min=${t_p50:-1000}
if trace_case "$name" "--min-ns $min" --folio 4k --size $T_MB readv; then
	expect_calls "$name $min: kept and left out add up" "$(($(holds length) + $(below_min)))" $T_CALLS "$treport"
	expect_eq "$name $min: every kept hold lasts as long" \
		"$(holds "map(select(.dur * 1000 < $min - 0.5)) | length")" 0
fi

# The default buffer holds a 256 MB pin of 4 kB pages whole: with the
# tracer stopped while the workload walks, nothing is lost. A 4 kB buffer
# loses most of it, and says how many: kept + lost = every hold.
name="trace 256 MB, reader stopped"
big=$((256 * 256 / T_BATCH))
if T_STOP=1 trace_case "$name" "" --folio 4k --size 256 readv; then
	expect_calls "$name, default buffer: every hold" "$(holds length)" $big "$treport"
	expect_eq "$name, default buffer: lost" "$(lost)" 0 "$treport"
fi
if T_STOP=1 trace_case "$name" "-b 4K" --folio 4k --size 256 readv; then
	l=$(lost)
	[ "${l:-0}" -gt 0 ] && grep -q "WARNING: $l holds lost" "$terr" &&
		grep -q "WARNING: $l holds were lost" "$treport" &&
		ok "$name, -b 4K: $l lost, on stderr and in the report" ||
		{ not_ok "$name, -b 4K: lost '$l'"; t_logs; }
	expect_calls "$name, -b 4K: kept + lost" "$(($(holds length) + ${l:-0}))" $big "$treport"
fi

# The issue's workload: gup_test -L over 256 MB of 4 kB pages in one call,
# the tracer running as usual. Its FOLL_LONGTERM holds cover every page.
name="trace -- gup_test -L -m 256 -n 65536"
if ! have_gup_test; then
	skip "$name: no gup_test in $(uname -r) (required on ours: test_promised.sh); the readv cases above stand for it"
elif rm -f "$T" && $GUPSTAT trace -o "$T" -- $GUPWORK --folio 4k --size 256 exec -- \
	$GUP_TEST -L -m 256 -n 65536 >"$twlog" 2>"$terr" &&
	$GUPSTAT report -n 1 --perfetto "$tjson" "$T" >"$treport" 2>>"$terr"; then
	expect_eq "$name: lost" "$(lost)" 0 "$treport"
	expect_eq "$name: FOLL_LONGTERM pages" \
		"$(holds 'map(select(.args.flags | test("FOLL_LONGTERM")) | .args.pages) | add')" 65536
	[ $WALK_BATCHED = 1 ] ||
		expect_eq "$name: base: FOLL_LONGTERM holds" \
			"$(holds 'map(select(.args.flags | test("FOLL_LONGTERM"))) | length')" 65536
else
	not_ok "$name: failed"
	t_logs
fi

# Two cgroups, a workload of known size in each (the second half the
# first's), each moved into its cgroup before it execs, so that all its
# walks run there. The tracer starts once both are waiting, after their
# execs (whose argument pages are walked too).
cg_root=/sys/fs/cgroup
grep -q "^[^ ]* $cg_root cgroup2 " /proc/mounts || mount -t cgroup2 none $cg_root
cg_a=$cg_root/gupstat-trace-a
cg_b=$cg_root/gupstat-trace-b
mkdir -p $cg_a $cg_b

# cg_traced "TRACE_OPTS": both workloads walk while gupstat trace runs.
cg_traced() {
	local pa
	rm -f "$T"
	: >"$terr"
	held_start -c $cg_a "$twlog.a" --folio 4k --size $T_MB readv || return 1
	pa=$HELD_PID
	held_start -c $cg_b "$twlog.b" --folio 4k --size $((T_MB / 2)) readv || { kill $pa; return 1; }
	# shellcheck disable=SC2086
	held_attach /dev/null "$terr" trace -o "$T" $1 || { kill $pa; return 1; }
	held_walk $pa $HELD_PID || return 1
	held_stop && $GUPSTAT report -n 3 --perfetto "$tjson" "$T" >"$treport" 2>>"$terr"
}

# holds_in PATH: the holds the report attributes to cgroup PATH.
holds_in() { holds "map(select(.args.cgroup == \"$1\")) | length"; }
pages_in() { holds "map(select(.args.cgroup == \"$1\") | .args.pages) | add // 0"; }
# The text report's row for PATH: "HOLDS PAGES".
row_of() { sed -n "s|^ *\([0-9]*\) holds *\([0-9]*\) pages .* ns  $1\$|\1 \2|p" "$treport"; }

# cg_lost_counted NAME LOST: holds were lost (two walkers at once on a
# preemptible kernel: one preempted inside the walk's exit program, the
# other's exits skipped on that CPU; docs/trace.md). Each is said, and
# what was written plus what was lost is the whole of both workloads.
cg_lost_counted() {
	local name=$1 l=$2 got pages
	grep -q "WARNING: $l holds lost: the kernel skipped" "$terr" &&
		ok "$name: the tracer says why $l holds are missing" ||
		not_ok "$name: $l lost, not explained: $(grep WARNING "$terr")"
	grep -q "WARNING: $l holds were lost" "$treport" && ok "$name: so does the report" ||
		not_ok "$name: the report does not warn of $l lost holds"
	got=$(($(holds_in /gupstat-trace-a) + $(holds_in /gupstat-trace-b)))
	expect_calls "$name: a's and b's holds, with the $l lost" $((got + l)) $((T_CALLS * 3 / 2))
	pages=$(($(pages_in /gupstat-trace-a) + $(pages_in /gupstat-trace-b)))
	[ $pages -lt $((T_PAGES * 3 / 2)) ] && [ $((pages + l * T_BATCH)) -ge $((T_PAGES * 3 / 2)) ] &&
		ok "$name: $pages pages, short by at most $l holds of $T_BATCH" ||
		not_ok "$name: $pages pages, $l lost holds of $T_BATCH, want $((T_PAGES * 3 / 2))"
}

name="trace, a workload in each of two cgroups"
if cg_traced ""; then
	cg_l=$(lost)
	if [ "${cg_l:-0}" = 0 ]; then
		expect_calls "$name: a's holds" "$(holds_in /gupstat-trace-a)" $T_CALLS "$treport"
		expect_eq "$name: a's pages" "$(pages_in /gupstat-trace-a)" $T_PAGES
		expect_calls "$name: b's holds" "$(holds_in /gupstat-trace-b)" $((T_CALLS / 2)) "$treport"
		expect_eq "$name: b's pages" "$(pages_in /gupstat-trace-b)" $((T_PAGES / 2))
	else
		cg_lost_counted "$name" "$cg_l"
	fi
	expect_eq "$name: the text's row for a, as the holds" "$(row_of /gupstat-trace-a)" \
		"$(holds_in /gupstat-trace-a) $(pages_in /gupstat-trace-a)" "$treport"
	expect_eq "$name: the text's row for b, as the holds" "$(row_of /gupstat-trace-b)" \
		"$(holds_in /gupstat-trace-b) $(pages_in /gupstat-trace-b)" "$treport"
	expect_eq "$name: every hold's cgroup named (no id:N, no ?)" \
		"$(holds 'map(select(.args.cgroup | startswith("/") | not)) | length')" 0
else
	not_ok "$name: the workloads or the trace failed"
	t_logs
fi

name="trace -c a"
if cg_traced "-c $cg_a"; then
	# Filtered, the kernel's skipped exits may be b's: "up to" them lost
	# (or, none skipped, a's skipped entries, exactly: at most as many).
	cg_l=$(sed -n 's/.*WARNING: \(up to \)\{0,1\}\([0-9]*\) holds lost: the kernel skipped.*/\2/p' "$terr")
	if [ -z "$cg_l" ]; then
		expect_calls "$name: a's holds" "$(holds_in /gupstat-trace-a)" $T_CALLS "$treport"
		expect_eq "$name: a's pages" "$(pages_in /gupstat-trace-a)" $T_PAGES
	else
		cg_h=$(holds_in /gupstat-trace-a)
		[ "$cg_h" -le $((T_CALLS + (T_BATCH > 1) * T_CALLS / 2)) ] &&
			[ $((cg_h + cg_l)) -ge $T_CALLS ] &&
			ok "$name: a's $cg_h holds, short by at most $cg_l" ||
			not_ok "$name: a's $cg_h holds, up to $cg_l lost, want $T_CALLS"
		cg_p=$(pages_in /gupstat-trace-a)
		[ "$cg_p" -le $T_PAGES ] && [ $((cg_p + cg_l * T_BATCH)) -ge $T_PAGES ] &&
			ok "$name: $cg_p pages, short by at most $cg_l holds of $T_BATCH" ||
			not_ok "$name: $cg_p pages, up to $cg_l lost holds of $T_BATCH, want $T_PAGES"
	fi
	expect_eq "$name: no hold of another cgroup" \
		"$(holds 'map(select(.args.cgroup != "/gupstat-trace-a")) | length')" 0 "$treport"
	grep -q "(cgroup $cg_a and below)" "$treport" && ok "$name: the report says what was traced" ||
		not_ok "$name: $(head -1 "$treport")"
else
	not_ok "$name: the workloads or the trace failed"
	t_logs
fi
rmdir $cg_a $cg_b

# Bad input: one line, and 2 for usage, 1 for what cannot be done
# (tap.sh fails_with; its PATTERN is grep -E).
fails_with "trace: unknown option" 2 "unknown option '--frobnicate'" $GUPSTAT trace --frobnicate -o "$T"
fails_with "trace: no -o" 2 "no output file" $GUPSTAT trace -d 1
fails_with "trace: bad -b" 2 "not a size" $GUPSTAT trace -o "$T" -b lots
fails_with "trace: bad --min-ns" 2 "not a number" $GUPSTAT trace -o "$T" --min-ns -5
# -c: as the live view, one line and 1, nothing attached, no file.
# ($T stays: the existing-file case below needs it.)
fails_with "trace -c: a missing cgroup" 1 "^gupstat trace: -c $cg_root/no-such-group: No such file or directory\$" \
	$GUPSTAT trace -o "$tdir/c.gt" -c $cg_root/no-such-group -d 1
fails_with "trace -c: a file" 1 "^gupstat trace: -c $cg_root/cgroup.procs: not a cgroup v2 directory\$" \
	$GUPSTAT trace -o "$tdir/c.gt" -c $cg_root/cgroup.procs -d 1
fails_with "trace -c: a directory outside cgroup2" 1 "^gupstat trace: -c /tmp: not a cgroup v2 directory\$" \
	$GUPSTAT trace -o "$tdir/c.gt" -c /tmp -d 1
[ ! -e "$tdir/c.gt" ] && ok "trace -c refused: no file" || not_ok "trace -c refused: $tdir/c.gt written"
fails_with "trace: no such directory" 1 "No such file or directory" \
	$GUPSTAT trace -o /nonexistent/t.gt -d 1
fails_with "trace: read-only file system" 1 "Read-only file system" $GUPSTAT trace -o /usr/t.gt -d 1
ln -sf "$tdir/elsewhere" "$tdir/link"
fails_with "trace: never through a symlink" 1 "a symbolic link" $GUPSTAT trace -o "$tdir/link" -d 1
[ ! -e "$tdir/elsewhere" ] && ok "trace: the symlink's target was not created" ||
	not_ok "trace: wrote through a symlink"

# A trace is written in place from its start: an existing file is refused.
fails_with "trace: an existing file is refused" 1 "t.gt: it exists" $GUPSTAT trace -o "$T" -d 1
[ -s "$T" ] && ok "trace: the existing file is left as it was" || not_ok "trace: $T was touched"

# A real trace, cut or corrupted: report says what is wrong, in one line;
# cut after its header, it reads what is there and says so.
rm -f "$T"
$GUPSTAT trace -o "$T" -- $GUPWORK --folio 4k --size 16 readv >/dev/null 2>&1
hs=$(od -An -tu4 -j12 -N4 "$T" | tr -d ' ')
head -c 30 "$T" >"$tdir/cut.gt"
fails_with "report: a file cut in its header" 1 "cut.gt: truncated" $GUPSTAT report "$tdir/cut.gt"
head -c $((hs + 3 * 96 + 40)) "$T" >"$tdir/cut.gt"
fails_with "report: a file cut after 3 records and a half" 0 \
	"cut.gt: incomplete trace \(no trailer\): 3 holds recovered" $GUPSTAT report -n 0 "$tdir/cut.gt"
fails_with "report --strict: the same file refused" 1 "cut.gt: incomplete trace" \
	$GUPSTAT report --strict "$tdir/cut.gt"
{ printf 'GUPTRACX'; tail -c +9 "$T"; } >"$tdir/magic.gt"
fails_with "report: corrupt magic" 1 "magic.gt: not a gupstat trace file" $GUPSTAT report "$tdir/magic.gt"
fails_with "report: no such file" 1 "No such file" $GUPSTAT report "$tdir/none.gt"
fails_with "report: unknown option" 2 "unknown option" $GUPSTAT report --frobnicate "$T"

# A disk that fills up. Full from the start: the trace fails saying so
# and leaves nothing. With one page left (tmpfs counts pages): the
# header and the records that fit go in, then it fails saying so, and
# what it wrote is read (the batched walk needs 256 MB to fill a page).
mkdir "$tdir/full"
if mount -t tmpfs -o size=16k gupstat-full "$tdir/full"; then
	cat /dev/zero >"$tdir/full/filler" 2>/dev/null
	$GUPSTAT trace -o "$tdir/full/t.gt" -- $GUPWORK --folio 4k --size 16 readv >/dev/null 2>"$terr"
	rc=$?
	expect_eq "trace, disk full: exit 1, nothing left" \
		"$rc $(ls -A "$tdir/full" | tr '\n' ' ')" "1 filler "
	grep -q "gupstat trace: cannot write .*t.gt: No space left on device" "$terr" &&
		ok "trace, disk full: $(tail -1 "$terr")" ||
		not_ok "trace, disk full: $(head -c 300 "$terr")"
	rm "$tdir/full/filler"
	head -c 12288 /dev/zero >"$tdir/full/filler"
	$GUPSTAT trace -o "$tdir/full/t.gt" -- $GUPWORK --folio 4k \
		--size "$([ "$WALK_BATCHED" = 1 ] && echo 256 || echo 16)" readv >/dev/null 2>"$terr"
	rc=$?
	grep -q "No space left on device" "$terr" && [ $rc = 1 ] &&
		ok "trace, disk full mid-trace: exit 1, $(grep -c . "$terr") lines: $(tr '\n' ' ' <"$terr")" ||
		not_ok "trace, disk full mid-trace: rc $rc, $(head -c 300 "$terr")"
	fails_with "report: the trace the disk cut short" 0 \
		"t.gt: incomplete trace \(no trailer\): [1-9][0-9]* holds recovered" \
		$GUPSTAT report -n 0 "$tdir/full/t.gt"
	umount "$tdir/full"
else
	skip "trace, disk full: cannot mount a tmpfs"
fi

# SIGKILL: nothing ends the file, yet every hold written is read back.
# The workload done, the kill waits until the file holds the workload's
# holds (report recovers at least T_CALLS, and no more on the next look:
# the batched walk's early releases add holds), not for a guessed pause
# in its growth. On base its walk is exactly 16384 holds of 1 page.
killed_trace() {
	rm -f "$T"
	: >"$terr"
	held_start "$twlog" --folio 4k --size $T_MB readv || return 1
	held_attach /dev/null "$terr" trace -o "$T" -p $HELD_PID || return 1
	held_walk || return 1
	local n last=-1 i
	for ((i = 0; i < 300; i++)); do
		n=$($GUPSTAT report -n 0 "$T" 2>&1 >/dev/null |
			sed -n 's/.*incomplete trace (no trailer): \([0-9]*\) holds recovered$/\1/p')
		[ "${n:-0}" -ge $T_CALLS ] && [ "$n" = "$last" ] && break
		last=${n:-0}
		sleep 0.2
	done
	kill -KILL $HELD_GS
	wait $HELD_GS 2>/dev/null
	return 0
}
name="trace killed with SIGKILL after a 64 MB readv"
if killed_trace; then
	$GUPSTAT report -n 1 --perfetto "$tjson" "$T" >"$treport" 2>"$terr"
	expect_eq "$name: report exits 0" "$?" 0 "$terr"
	n=$(sed -n 's/.*incomplete trace (no trailer): \([0-9]*\) holds recovered$/\1/p' "$terr")
	expect_calls "$name: every hold recovered" "${n:-0}" $T_CALLS "$terr"
	expect_eq "$name: the pages of every hold" "$(holds 'map(.args.pages) | add')" $T_PAGES
	grep -q "recovered: the trace did not end cleanly" "$treport" &&
		ok "$name: the report says what is not known" || not_ok "$name: report: $(head -3 "$treport")"
else
	not_ok "$name: the workload or the trace failed"
	t_logs
fi

# Killed before any hold (it traces this shell, which pins nothing): the
# header alone, read as a trace of none.
rm -f "$T"
$GUPSTAT trace -o "$T" -p $$ -d 60 2>"$terr" &
gs=$!
if wait_for "Hit Ctrl-C" "$terr" 60; then
	kill -KILL $gs
	wait $gs 2>/dev/null
	fails_with "trace killed before any hold: report" 0 \
		"incomplete trace \(no trailer\): 0 holds recovered" $GUPSTAT report -n 0 "$T"
else
	not_ok "trace -d 60 did not start"
	kill $gs
fi
rm -rf "$tdir"
tap_done
