#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# What the docs, man pages and --help say against what the source says:
# the trace format's version, validate's conditions, examples argp did
# not wrap, the package's description, the README's first steps, each
# page's OVERHEAD quoting measured figures only, and OUTPUT FIELDS as
# tools/catalog/fields makes them from the -j schemas (shown to fail on
# a stale copy).
. tests/host/lib.sh

# --- the trace format's version, from include/gupstat_tracefile.h

v=$(sed -n 's/^#define GT_VERSION\t\t*\([0-9][0-9]*\)$/\1/p' include/gupstat_tracefile.h)
missing="" stale=""
for f in docs/trace.md man/gupstat-trace.8.scd man/gupstat-report.8.scd; do
	grep -qi "format version $v\b" "$f" || missing="$missing $f"
	grep -oi "format version [0-9]*" "$f" | grep -vi "version $v$" >/dev/null && stale="$stale $f"
done
expect_eq "GT_VERSION ($v): the version trace.md, gupstat-trace(8) and gupstat-report(8) give" \
	"${v:-none}:$missing:$stale" "$v::"

# --- validate's conditions: enum v_cond's, said alike everywhere

n=$(sed -n '/^enum v_cond {/,/}/p' src/results/results.h | grep -o 'VC_[A-Z_]*' | grep -vc '^VC_NR$')
words=([2]=twice [3]="three times" [4]="four times")
said=""
for f in <("$G" validate unpin --help) man/gupstat-validate.8.scd docs/validate.md; do
	said="$said $(tr '\n' ' ' <"$f" | grep -o 'repeat runs [a-z]* *t*i*m*e*s*' | head -n1 | tr ' ' _)"
done
expect_eq "validate: $n conditions, each repeat runs ${words[n]} in --help, man page and docs" \
	"$said" "$(printf ' repeat_runs_%s' "${words[n]// /_}"{,,})"

# --- every --help's examples: one command a line, none wrapped by argp

for c in "" serve trace report "validate unpin" compare; do
	"$G" $c --help >"$tmp/help" 2>&1
	bad=$(sed -n '/^examples*:$/,$p' "$tmp/help" | sed 1d | grep -v '^  ' | grep -v '^$')
	expect_eq "gupstat $c --help: each example line indented, none wrapped" "$bad" ""
done
expect_eq "validate --help: --evict-mb says MB" \
	"$("$G" validate unpin --help | grep -c -- '--evict-mb=MB *MB read')" 1

# --- the package's description names every subcommand main.c runs

cmds=$(sed -n 's/^\t{ "\([a-z]*\)", cmd_[a-z]*,.*/\1/p' src/main.c | grep -v '^live$')
missing=""
for c in $cmds; do
	sed -n '/^Description:/,/^$/p' debian/control | grep -q "($c)" || missing="$missing $c"
done
expect_eq "debian/control's description names $(echo $cmds)" "${cmds:+found}:$missing" "found:"

# --- the README opens with the two set-up commands, then one's own machine

first=$(awk '/^    [^ ]/ { print $1, $2; n++ } n == 2 { exit }' README.md | tr '\n' ';')
expect_eq "README's first commands: make run, make check" "$first" "make run;make check;"
headings=$(grep '^## ' README.md | head -n2 | tr '\n' ';')
expect_eq "README: the own-machine quick start follows the two commands" "$headings" \
	"## Two commands, on a fresh Debian 12 machine, as root;## Running gupstat on your own kernel;"

# --- OVERHEAD: every page has one, and its figures are the docs' measured ones

for f in man/*.scd; do
	grep -qx '# OVERHEAD' "$f" || { not_ok "$f has no OVERHEAD"; continue; }
	figs=$(sed -n '/^# OVERHEAD$/,/^# /p' "$f" |
		grep -oE '[0-9][0-9.]*( us| ms| s|x|\.[0-9]+x| MB| GB)' | sort -u)
	unquoted=""
	while read -r fig; do
		[ -n "$fig" ] || continue
		num=${fig%%[ a-zA-Z]*}
		cat docs/benchmarks.md docs/serve.md docs/trace.md docs/validate.md |
			grep -qE "(^|[^0-9.])${num//./\\.}([^0-9]|\$)" || unquoted="$unquoted '$fig'"
	done <<<"$figs"
	expect_eq "$f: OVERHEAD's $(wc -w <<<"$figs") figures each in docs/*.md" "$unquoted" ""
done

# --- OUTPUT FIELDS, from the schemas

for f in man/gupstat.8.scd man/gupstat-report.8.scd man/gupstat-compare.8.scd; do
	grep -qx '# OUTPUT FIELDS' "$f" && ok "$f has OUTPUT FIELDS" || not_ok "$f has no OUTPUT FIELDS"
done
out=$(tools/catalog/fields --check 2>&1)
expect_eq "every OUTPUT FIELDS is what its schema makes it (make catalog)" "$?:$out" "0:"
# A stale copy: a key the schema lost, a key the page lost.
mkdir -p "$tmp/tools/catalog" "$tmp/docs" "$tmp/man"
cp tools/catalog/update tools/catalog/fields "$tmp/tools/catalog/"
cp -r docs/schemas "$tmp/docs/" && cp man/*.scd "$tmp/man/"
sed -i 's/"hold_total_ns",/"hold_sum_ns",/; s/"hold_total_ns": {/"hold_sum_ns": {/' \
	"$tmp/docs/schemas/report.schema.json"
sed -i 's/^\tfile, kernel, walk, repeats, counter,/\tfile, kernel, repeats, counter,/' \
	"$tmp/man/gupstat-compare.8.scd"
out=$("$tmp/tools/catalog/fields" --check 2>&1)
rc=$?
[ "$rc" = 1 ] && grep -q '^man/gupstat-report.8.scd: not what' <<<"$out" &&
	grep -q '^+.*hold_sum_ns' <<<"$out" && grep -q '^man/gupstat-compare.8.scd: not what' <<<"$out" &&
	ok "a page and its schema apart: the check names the page, with a diff" ||
	{ not_ok "a stale OUTPUT FIELDS: rc $rc"; diag <<<"$out"; }
"$tmp/tools/catalog/fields" >/dev/null
expect_eq "make catalog writes the fields back" \
	"$(cmp -s man/gupstat-compare.8.scd "$tmp/man/gupstat-compare.8.scd" && echo same):$(
	grep -c hold_sum_ns "$tmp/man/gupstat-report.8.scd")" "same:1"
tap_done
