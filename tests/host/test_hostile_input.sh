#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Hostile input by size, on the host: gupstat report reads a trace of
# any length in bounded memory and never takes zero bytes for holds;
# compare refuses a results file past its caps before building it. Each
# run's memory is its maximum resident set size (/usr/bin/time -v);
# the bounds are docs/trace.md's and docs/validate.md's.
. tests/host/lib.sh

BIG=$PWD/build/tests/test_trace_big
TRACE=$PWD/tests/fuzz/corpus/valid-base.gt
# report: 100 MB whatever the trace's length (docs/trace.md)
REPORT_KB=$((100 * 1024))
# compare, refusing before json-c builds anything: what it takes to start
COMPARE_KB=$((64 * 1024))

if [ ! -x "$G" ] || [ ! -x "$BIG" ] || [ ! -x /usr/bin/time ]; then
	skip "needs $G, $BIG (make all unit-tests) and /usr/bin/time"
	tap_done
fi

# measured NAME MAX_KB RC PATTERN CMD...: exit RC, stderr one line
# matching PATTERN (nothing where PATTERN is empty), at most MAX_KB kB
# resident. Leaves stdout in $tmp/out.
measured() {
	local name=$1 max=$2 want=$3 pattern=$4 rc kb lines
	shift 4
	/usr/bin/time -v -o "$tmp/time" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	kb=$(sed -n 's/^\tMaximum resident set size (kbytes): //p' "$tmp/time")
	secs=$(sed -n 's/^\tElapsed (wall clock) time (h:mm:ss or m:ss): //p' "$tmp/time")
	lines=$(wc -l <"$tmp/err")
	if [ "$rc" = "$want" ] && [ "${kb:-0}" -gt 0 ] && [ "$kb" -le "$max" ] &&
	   { { [ -z "$pattern" ] && [ "$lines" = 0 ]; } ||
	     { [ -n "$pattern" ] && [ "$lines" = 1 ] && grep -Eq -- "$pattern" "$tmp/err"; }; }; then
		ok "$name: rc $rc, ${kb} kB, $secs s${pattern:+, $(cat "$tmp/err")}"
	else
		not_ok "$name: rc $rc (want $want), ${kb:-?} kB (at most $max), $secs s, stderr: $(head -c 300 "$tmp/err")"
	fi
}

# A trace's header alone, then 1 GiB of hole: no record, no trailer.
hs=$(od -An -tu4 -j12 -N4 "$TRACE" | tr -d ' ')
head -c "$hs" "$TRACE" >"$tmp/hole.gt"
truncate -s 1G "$tmp/hole.gt"
measured "report: a header, then a 1 GiB hole" $REPORT_KB 0 \
	"^gupstat report: .*hole.gt: incomplete trace \(no trailer\): 0 holds recovered$" \
	"$G" report -n 1 "$tmp/hole.gt"
grep -q "holds 0 recovered" "$tmp/out" && ok "report: no hold taken from the zeros" ||
	not_ok "report of the hole: $(grep holds "$tmp/out")"
measured "report --strict: the same, refused" $REPORT_KB 1 \
	"incomplete trace \(no trailer: the trace did not end cleanly\)$" \
	"$G" report --strict -n 1 "$tmp/hole.gt"

# A real trace's 8 records (its stacks and trailer cut), then the hole.
head -c $((hs + 8 * 96)) "$TRACE" >"$tmp/tail.gt"
truncate -s 1G "$tmp/tail.gt"
measured "report: 8 holds, then a 1 GiB hole" $REPORT_KB 0 \
	": incomplete trace \(no trailer\): 8 holds recovered$" "$G" report -n 1 "$tmp/tail.gt"
rm -f "$tmp/hole.gt" "$tmp/tail.gt"

# More holds than report keeps values of (3 x 2^20): its percentiles are
# found by reading the file again, in the same memory.
n=3500000
"$BIG" --write "$tmp/big.gt" $n
measured "report: $n holds ($(($(stat -c %s "$tmp/big.gt") >> 20)) MB) with --plot" $REPORT_KB 0 "" \
	"$G" report -n 100 --plot "$tmp/big.svg" "$tmp/big.gt"
# Exact against a sort of every value: test_trace_big. Here: all counted, in order.
line=$(grep '^     hold: count ' "$tmp/out")
read -r c mn p50 p90 p99 mx <<<"$(echo "$line" |
	sed -n 's/.*count \([0-9]*\), min \([0-9]*\), p50 \([0-9]*\), p90 \([0-9]*\), p99 \([0-9]*\), max \([0-9]*\) ns.*/\1 \2 \3 \4 \5 \6/p')"
[ "${c:-0}" = $n ] && [ "$mn" -le "$p50" ] && [ "$p50" -le "$p90" ] && [ "$p90" -le "$p99" ] &&
	[ "$p99" -le "$mx" ] && ok "report: $n holds counted, min <= p50 <= p90 <= p99 <= max" ||
	not_ok "report of $n holds: $line"
rm -f "$tmp/big.gt" "$tmp/big.svg"

# --perfetto reads the trace once more, record by record.
n=200000
"$BIG" --write "$tmp/p.gt" $n
measured "report --perfetto: $n holds" $REPORT_KB 0 "" \
	"$G" report -n 0 --perfetto "$tmp/p.json" "$tmp/p.gt"
expect_eq "report --perfetto: one slice per hold" "$(grep -c '"ph":"X"' "$tmp/p.json")" "$n"
rm -f "$tmp/p.gt" "$tmp/p.json"

# A thread per hold, more than --perfetto names (2^19): named up to
# that, the rest by number, said in one line.
n=530000
"$BIG" --write-threads "$tmp/t.gt" $n
measured "report --perfetto: $n threads" $REPORT_KB 0 \
	"^gupstat report: WARNING: more than 524288 threads in the trace: the Perfetto export names the first 524288" \
	"$G" report -n 0 --perfetto "$tmp/t.json" "$tmp/t.gt"
expect_eq "report --perfetto: 524288 threads named, $n slices" \
	"$(grep -c '"name":"thread_name"' "$tmp/t.json") $(grep -c '"ph":"X"' "$tmp/t.json")" "524288 $n"
rm -f "$tmp/t.gt" "$tmp/t.json"

# compare: 1.7 million empty objects (5 MB), refused before parsing.
{ printf '{"unknown":['; yes '{}' | head -n 1700000 | paste -sd,; printf ']}\n'; } >"$tmp/many.json"
measured "compare: 1.7 million empty objects" $COMPARE_KB 1 \
	"many.json: too large or deep for a results file: more than 8192 objects and arrays, at byte [0-9]+$" \
	"$G" compare "$tmp/many.json" "$tmp/many.json"
# 3.2 million numbers, past a results file's largest (2.5 million).
{ printf '{"unknown":['; yes 1 | head -n 3200000 | paste -sd,; printf ']}\n'; } >"$tmp/nums.json"
measured "compare: 3.2 million numbers" $COMPARE_KB 1 \
	"nums.json: too large or deep for a results file: more than 3145728 elements, at byte [0-9]+$" \
	"$G" compare "$tmp/nums.json" "$tmp/nums.json"
# 100000 arrays deep.
{ head -c 100000 /dev/zero | tr '\0' '['; head -c 100000 /dev/zero | tr '\0' ']'; } >"$tmp/deep.json"
measured "compare: nested 100000 deep" $COMPARE_KB 1 \
	"deep.json: too large or deep for a results file: nested more than 16 deep, at byte 16$" \
	"$G" compare "$tmp/deep.json" "$tmp/deep.json"
rm -f "$tmp"/*.json

tap_done
