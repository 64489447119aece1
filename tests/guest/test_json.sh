#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# gupstat's JSON against its schemas (docs/schemas/), on real output: one
# readv of 4 kB pages, 256 MB on the batched kernels (a page table a
# hold), 64 MB where a hold is one page (base, Debian's: 16384 holds;
# lib.sh EXPORT_MB), seen at once by the live view's
# NDJSON (-P, --per-cgroup and a counter: every kind of record) and by
# gupstat trace, whose file report -j reads. Every NDJSON line and the
# report validate; their counts match the text's and each other's; the
# NDJSON's new names carry the deprecated names' values; its ts_ns is
# CLOCK_MONOTONIC, the trace's clock, and its time the wall clock's.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/guest/lib.sh

CHECK=tests/lib/check-schema.py
if ! /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
	skip "no python3-jsonschema for /usr/bin/python3 (make deps)"
	tap_done
fi

jdir=$(mktemp -d)
J_MB=$EXPORT_MB
J_PAGES=$((J_MB * 256))
if [ $WALK_BATCHED = 1 ]; then J_CALLS=$((J_PAGES / 512)); else J_CALLS=$J_PAGES; fi
live=$jdir/live.ndjson
T=$jdir/t.gt

j_logs() {
	tail -n 5 "$jdir"/*.err "$jdir/work" 2>/dev/null | diag
}

# The workload waits, faulted in; both tracers attach; then it walks
# (lib.sh's held_* steps, one per tracer); each is stopped, whatever
# happened, and its exit status is a case.
before_up=$(cut -d' ' -f1 /proc/uptime)
before_s=$(date +%s)
HELD_WAIT=120
gs='' gt=''
if held_start "$jdir/work" --folio 4k --size $J_MB readv &&
	held_attach "$live" "$jdir/live.err" -j -P --per-cgroup -e cpu-clock -p $HELD_PID && gs=$HELD_GS &&
	held_attach /dev/null "$jdir/trace.err" trace -o "$T" -p $HELD_PID && gt=$HELD_GS; then
	HELD_GS='' held_walk || not_ok "gupwork failed: $(tail -n 3 "$jdir/work")"
else
	not_ok "live or trace did not attach"
	j_logs
fi
pid=$HELD_PID
HELD_GS=$gt held_stop
expect_eq "trace: exit status" "$?" 0 "$jdir/trace.err"
HELD_GS=$gs held_stop
expect_eq "live -j: exit status" "$?" 0 "$jdir/live.err"
after_up=$(cut -d' ' -f1 /proc/uptime)
after_s=$(date +%s)

# --- the live view's NDJSON: every line a record of the schema

out=$(/usr/bin/python3 $CHECK --ndjson docs/schemas/live.schema.json "$live" 2>&1)
rc=$?
n=$(wc -l <"$live")
[ $rc = 0 ] && [ "$n" -gt 20 ] && ok "live -j: $(tail -n1 <<<"$out")" ||
	{ not_ok "live -j: $n lines, rc $rc"; head -n 5 <<<"$out" | diag; }
expect_eq "live -j: every kind of record" \
	"$(jq -r .type "$live" | sort -u | tr '\n' ' ')" "cgroup counters end hist proc "
expect_eq "live -j: one report, its end last" "$(jq -r .type "$live" | grep -c end):$(tail -n1 "$live" | jq -r .type)" 1:end
expect_eq "live -j: one time and one ts_ns for all its records" \
	"$(jq -r '"\(.time) \(.ts_ns)"' "$live" | sort -u | wc -l)" 1

# The deprecated names carry the values of the new.
live_q() { jq -rs "$1" "$live"; }
expect_eq "live -j: gup_returned_pages{kind=pin} sum, by the new name and the old" \
	"$(live_q '[.[] | select(.data.metric == "gup_returned_pages" and .data.labels.kind == "pin")][0].data.sum'):$(live_q '[.[] | select(.data.name == "gup_GUP_PIN_got")][0].data.sum')" \
	"$J_PAGES:$J_PAGES"
expect_eq "live -j: walk_hold_ns, one hold per walk call" \
	"$(live_q '[.[] | select(.data.metric == "walk_hold_ns")][0].data.count')" \
	"$(hist "$live" walk_pages count)"
expect_eq "live -j: counters by the new names and the old" \
	"$(live_q '[.[] | select(.type == "counters")][0].data |
		"\(.walk_returns.pages == .walk_pages) \(.gup_calls.pin == .gup_pin_calls) \(.pmu_read_misses == .pmu_misses) \(.gup_calls.pin > 0)"')" \
	"true true true true"
expect_eq "live -j: method and note apart" \
	"$(live_q '[.[] | select(.data.metric == "gup_events")][0].data | "\(.method | test(";") | not) \(.note)"')" \
	"true cpu-clock, entry to return, same CPU"
expect_eq "live -j: the workload's row has its pages, under both names of its long-term pins" \
	"$(live_q '[.[] | select(.type == "proc" and .data.pid == '$pid')][0].data |
		"\(.walk_pages >= '$J_PAGES') \(.longterm_pin_pages == .longterm_pages)"')" "true true"

# ts_ns is CLOCK_MONOTONIC (here, without a suspend, /proc/uptime's
# clock to the hundredth); time is the wall clock, RFC 3339 in UTC.
ts=$(head -n1 "$live" | jq -r .ts_ns)
awk -v t="$ts" -v a="$before_up" -v b="$after_up" 'BEGIN { exit !(t / 1e9 >= a - 0.01 && t / 1e9 <= b + 0.01) }' &&
	ok "live -j: ts_ns $ts within /proc/uptime's $before_up..$after_up s" ||
	not_ok "live -j: ts_ns $ts outside /proc/uptime's $before_up..$after_up s"
t=$(head -n1 "$live" | jq -r .time)
s=$(date -u -d "$t" +%s 2>/dev/null)
[[ $t =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z$ ]] &&
	[ -n "$s" ] && [ "$s" -ge "$before_s" ] && [ "$s" -le "$after_s" ] &&
	ok "live -j: time $t between the wall clock's $before_s and $after_s" ||
	not_ok "live -j: time '$t' ($s) not within $before_s..$after_s"

# --- report -j of the trace: valid, and the text's counts

$GUPSTAT report -n 5 "$T" >"$jdir/text" 2>"$jdir/report.err"
$GUPSTAT report -j -n 5 "$T" >"$jdir/report.json" 2>>"$jdir/report.err"
expect_eq "report and report -j: exit status, no message" "$?:$(cat "$jdir/report.err")" "0:"
out=$(/usr/bin/python3 $CHECK docs/schemas/report.schema.json "$jdir/report.json" 2>&1) &&
	ok "report -j: $(tail -n1 <<<"$out")" ||
	{ not_ok "report -j"; head -n 5 <<<"$out" | diag; }
text_holds=$(sed -n 's/^  holds \([0-9]*\), lost.*/\1/p' "$jdir/text")
text_count=$(sed -n 's/^     hold: count \([0-9]*\),.*/\1/p' "$jdir/text")
expect_eq "report -j: holds and their count as the text's" \
	"$(jq -r '"\(.trace.holds) \(.hold.holds) \(.trace.holds_lost)"' "$jdir/report.json")" \
	"$text_holds $text_count 0"
expect_calls "report -j: $J_MB MB, one hold per walk call" "$(jq -r .trace.holds "$jdir/report.json")" $J_CALLS
expect_eq "report -j: every page walked" "$(jq -r .pages.walked_pages "$jdir/report.json")" $J_PAGES
expect_eq "report -j: the cgroups' holds add up; the -n longest, their stacks from follow_page_pte" \
	"$(jq -r '"\(([.cgroups.rows[].holds] | add) == .trace.holds) \(.longest | length) \([.longest[] | select(.stack)][0].stack[0].symbol | startswith("follow_page_pte+"))"' "$jdir/report.json")" \
	"true 5 true"
# The same clock: the report was taken after the trace had ended.
read -r end hold < <(jq -r '"\(.trace.end_ns) \(.longest[0].ts_ns)"' "$jdir/report.json")
[ "$ts" -gt "${end:-0}" ] && [ "${end:-0}" -ge "${hold:-0}" ] && [ "${hold:-0}" -gt 0 ] &&
	ok "live ts_ns $ts after the trace's end $end, after its longest hold $hold: one clock" ||
	not_ok "live ts_ns $ts, trace end $end, longest hold $hold: not one clock"

rm -rf "$jdir"
tap_done
