#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# gupstat's JSON against its schemas (docs/schemas/), on this host:
# report -j on every trace of the fuzz corpus that reads, compare -j on
# the validate results the guests wrote (tests/data/validate/) and the
# corpus holds, and the live view's NDJSON as the unit test renders it
# (the real one is checked in the guest, tests/guest/test_json.sh). Each
# schema is shown to refuse a document with a member removed, renamed
# or of the wrong type; the JSON says what the text says; bad input
# with -j is one line and no JSON.
# Also run on the sanitized build: tests/asan/run.
. tests/host/lib.sh

CHECK=tests/lib/check-schema.py
S=docs/schemas
if ! /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
	skip "no python3-jsonschema for /usr/bin/python3 (make deps)"
	tap_done
fi

# valid NAME SCHEMA FILE [--ndjson]: every document of FILE validates.
valid() {
	local out rc
	out=$(/usr/bin/python3 $CHECK ${4:-} "$2" "$3" 2>&1)
	rc=$?
	[ $rc = 0 ] && ok "$1: $(tail -n1 <<<"$out")" ||
		{ not_ok "$1: rc $rc"; head -n 5 <<<"$out" | diag; }
}

# refused NAME SCHEMA FILE JQ PATTERN: FILE edited by JQ fails, saying PATTERN.
refused() {
	local out rc
	jq "$4" "$3" >"$tmp/edited" || { not_ok "$1: jq failed"; return; }
	out=$(/usr/bin/python3 $CHECK "$2" "$tmp/edited" 2>&1)
	rc=$?
	[ $rc = 1 ] && grep -qF -- "$5" <<<"$out" && ok "$1: $(head -n1 <<<"$out")" ||
		not_ok "$1: rc $rc, said: $(head -c 300 <<<"$out")"
}

for s in $S/*.schema.json; do
	/usr/bin/python3 $CHECK "$s" /dev/null >/dev/null 2>"$tmp/err"
	expect_eq "$s is a schema jsonschema checks (draft 2020-12)" "$?:$(cat "$tmp/err")" 1:
done

# --- report -j: every trace of the corpus that reads

for f in tests/fuzz/corpus/valid-* tests/fuzz/corpus/incomplete-*; do
	name=$(basename "$f")
	"$G" report -j -n 3 "$f" >"$tmp/$name.json" 2>/dev/null
	valid "report -j $name" $S/report.schema.json "$tmp/$name.json"
done
R=$tmp/valid-base.gt.json
refused "report -j without trace.holds" $S/report.schema.json "$R" 'del(.trace.holds)' \
	"'holds' is a required property (at /trace)"
refused "report -j with hold.p99_ns renamed" $S/report.schema.json "$R" \
	'.hold.p99 = .hold.p99_ns | del(.hold.p99_ns)' "'p99' was unexpected"
refused "report -j with a count as a string" $S/report.schema.json "$R" '.pages.walked_pages |= tostring' \
	"is not of type 'integer' (at /pages/walked_pages)"
refused "report -j with a stack frame's symbol removed" $S/report.schema.json "$R" \
	'del(.longest[0].stack[0].symbol)' "(at /longest/0/stack"

# What the text says, the JSON says: each figure of the text, rendered
# from the JSON, is in the text.
for f in tests/fuzz/corpus/valid-base.gt tests/fuzz/corpus/valid-batched-addrs.gt; do
	name=$(basename "$f")
	"$G" report -n 3 "$f" >"$tmp/text"
	jq -r '
	def cg: if . == null then "?" elif .path then .path else "id:\(.id)" end;
	"  holds \(.trace.holds), lost \(.trace.holds_lost), stacks not taken \(.trace.stacks_not_taken)",
	(.hold | "     hold: count \(.holds), min \(.min_ns), p50 \(.p50_ns), p90 \(.p90_ns), p99 \(.p99_ns), max \(.max_ns) ns"),
	(.pages | "     total \(.walked_pages) pages walked, \(.stored_pages) stored, max \(.max_pages) per hold"),
	(.hold_log2[] | "\(.low_ns) -> \(.high_ns) : \(.holds) "),
	(.cgroups.rows[] | "\(.holds) holds \(.pages) pages \(.hold_ns) ns  \(.path // "id:\(.id)")"),
	(.longest[] | " #\(.rank) \(.hold_ns) ns at ", ", cpu \(.cpu), pid \(.pid) tid \(.tid) (\(.comm)), cgroup \(.cgroup | cg)",
		"      addr \(.addr), \(.pages) pages, \(.stored_pages) stored\(if .stored_known then "" else " (unknown)" end), fill \(.fill_ns) ns in \(.fill_calls) calls, \(.result), \(.gup_flags)",
		if .stack then (.stack[] | "         \(if .addr then (.addr[2:] | "0" * (16 - length) + .) + " " else "" end)\(.symbol)")
		else "         [no stack]" end)
	' "$tmp/$name.json" >"$tmp/figures" || not_ok "report -j $name: jq could not render the figures"
	# Spaces squeezed: the text pads its columns.
	missing=$(while IFS= read -r l; do
		grep -qF -- "$(tr -s ' ' <<<"$l")" <(tr -s ' ' <"$tmp/text") || echo "'$l'"
	done <"$tmp/figures")
	expect_eq "report -j $name: $(wc -l <"$tmp/figures") figures, each in the text" "$missing" ""
done

fails_with "report -j of a bad trace: one line" 1 "^gupstat report: .*bad-magic.gt: " \
	"$G" report -j tests/fuzz/corpus/bad-magic.gt
expect_eq "report -j of a bad trace: no JSON on stdout" \
	"$("$G" report -j tests/fuzz/corpus/bad-magic.gt 2>/dev/null | wc -c)" 0
"$G" report -j --perfetto "$tmp/p.json" tests/fuzz/corpus/valid-base.gt >"$tmp/both.json"
expect_eq "report -j --perfetto: JSON on stdout, the timeline written" \
	"$?:$(jq -r .trace.holds "$tmp/both.json"):$(jq -r .metadata.holds "$tmp/p.json")" 0:8:8
expect_eq "report -j: the clock the text names, and the folded lines' total" \
	"$(jq -r '"\(.trace.clock):\(.hold_total_ns)"' "$tmp/both.json")" \
	"$("$G" report tests/fuzz/corpus/valid-base.gt | sed -n 's/^ *clock: \([A-Z_]*\) .*/\1/p'):$("$G" report --folded - tests/fuzz/corpus/valid-base.gt | awk '{ s += $NF } END { print s }')"

# --- compare -j: the guests' validate results, and the corpus's

V=tests/data/validate/unpin-6.12
W=tests/data/validate/unpin-sim-6.12
pairs=()
for r in r1 r2 r3; do
	pairs+=("$V/$r-base.json $V/$r-batched.json" "$V/$r-base.json $V/$r-batched-9.json"
		"$V/$r-batched-9.json $V/$r-batched.json")
done
pairs+=("$W/r1-base.json $W/r1-batched.json" "$W/plain-base.json $W/r1-batched.json")
for f in tests/fuzz/corpus-results/valid-*; do
	pairs+=("tests/fuzz/corpus-results/valid-base.json $f")
done
results >"$tmp/a.json"
results 6.12.1 >"$tmp/b.json"
pairs+=("$tmp/a.json $tmp/b.json")
for p in "${pairs[@]}"; do
	read -r a b <<<"$p"
	"$G" compare -j "$a" "$b" >"$tmp/c.json" 2>"$tmp/err"
	[ $? = 0 ] && [ ! -s "$tmp/err" ] || not_ok "compare -j $a $b: $(cat "$tmp/err")"
	valid "compare -j $(basename "$a") $(basename "$b")" $S/compare.schema.json "$tmp/c.json"
done
C=$tmp/sim.json
"$G" compare -j $W/r1-base.json $W/r1-batched.json >"$C"
refused "compare -j without a claim's evidence" $S/compare.schema.json "$C" \
	'del(.verdicts[0].claims[0].evidence)' "'evidence' is a required property"
refused "compare -j with a member added to base" $S/compare.schema.json "$C" '.base.extra = 1' \
	"'extra' was unexpected"
refused "compare -j with a measure the schema does not know" $S/compare.schema.json "$C" \
	'.quantities[0].measure = "us"' "(at /quantities/0/measure)"

# The text's verdicts, census and first table, rendered from the JSON.
"$G" compare $W/r1-base.json $W/r1-batched.json >"$tmp/text"
jq -r '(.verdicts[].claims[] | [.verdict, .claim, .evidence] | @tsv)' "$C" |
	awk -F'\t' '{ printf "  %-14s %s\n  %14s %s\n", $1, $2, "", $3 }' >"$tmp/rendered"
jq -r '.census[] | [.folio, .size_mb, .base.pages, .base.folios, .base.grabs, .other.grabs,
	.base.puts, .other.puts] | @tsv' "$C" |
	awk -F'\t' '{ printf "%-5s %6u %8lu %8lu  %8.0f->%-8.0f  %8.0f->%-8.0f\n", $1, $2, $3, $4, $5, $6, $7, $8 }' \
		>>"$tmp/rendered"
jq -r '.quantities[0].runs[] | [.folio, .size_mb, .base.median / 1e3, .base.p25 / 1e3, .base.p75 / 1e3,
	.other.median / 1e3, .other.p25 / 1e3, .other.p75 / 1e3, .ratio, .change] | @tsv' "$C" |
	awk -F'\t' '{ x = sprintf("%.1f [%.1f-%.1f]", $3, $4, $5); y = sprintf("%.1f [%.1f-%.1f]", $6, $7, $8)
		printf "%-5s %6u  %-28s -> %-28s %7.2fx  %s\n", $1, $2, x, y, $9, $10 == "unchanged" ? "" : "changed" }' \
		>>"$tmp/rendered"
missing=$(while IFS= read -r l; do grep -qxF -- "$l" "$tmp/text" || echo "'$l'"; done <"$tmp/rendered")
expect_eq "compare -j: $(wc -l <"$tmp/rendered") lines of verdicts, census and a table, rendered from it, are the text's" \
	"$missing" ""

fails_with "compare -j of a bad file: one line" 1 "^gupstat compare: .*bad-format.json: " \
	"$G" compare -j tests/fuzz/corpus-results/valid-base.json tests/fuzz/corpus-results/bad-format.json
expect_eq "compare -j of a bad file: no JSON on stdout" \
	"$("$G" compare -j tests/fuzz/corpus-results/valid-base.json tests/fuzz/corpus-results/bad-format.json 2>/dev/null | wc -c)" 0

# --- the live view's NDJSON, every kind of record (build/tests/test_live_print --ndjson)

L=$tmp/live.ndjson
if [ -x build/tests/test_live_print ]; then
	build/tests/test_live_print --ndjson >"$L"
	valid "live NDJSON" $S/live.schema.json "$L" --ndjson
	expect_eq "live NDJSON: every kind of record" "$(jq -r .type "$L" | sort -u | tr '\n' ' ')" \
		"cgroup counters end hist proc "
	head -n1 "$L" >"$tmp/hist.json"
	refused "live NDJSON without a hist's metric" $S/live.schema.json "$tmp/hist.json" 'del(.data.metric)' \
		"'metric' is a required property"
	refused "live NDJSON with the old HH:MM:SS time" $S/live.schema.json "$tmp/hist.json" '.time = "15:40:01"' \
		"(at /time)"
	refused "live NDJSON without ts_ns" $S/live.schema.json "$tmp/hist.json" 'del(.ts_ns)' \
		"'ts_ns' is a required property"
	refused "live NDJSON with a hist's method and note mixed again" $S/live.schema.json "$tmp/hist.json" \
		'.data.method += "; upper bound"' "(at /data/method)"
	grep '"type":"counters"' "$L" >"$tmp/counters.json"
	refused "live NDJSON without a deprecated counter, kept this release" $S/live.schema.json \
		"$tmp/counters.json" 'del(.data.gup_pin_calls)' "'gup_pin_calls' is a required property"
	refused "live NDJSON with a counters record typed hist" $S/live.schema.json "$tmp/counters.json" \
		'.type = "hist"' "(at /data)"
else
	skip "no build/tests/test_live_print: make unit-tests"
fi

tap_done
