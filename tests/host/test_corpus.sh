#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# gupstat on every fuzz seed (tests/fuzz/corpus*, make fuzz-corpus), as a
# user meets such a file: gupstat report on each trace (valid-* read and
# exported as a plot and a timeline, incomplete-* read with one line saying so, and refused by --strict,
# bad-* refused in one line with exit 1) and gupstat compare on each
# results file against a valid one (valid-* compared, with a plot; bad-*
# refused in one line naming the file, exit 1).
# Also run on the sanitized build: tests/asan/run.
. tests/host/lib.sh

for f in tests/fuzz/corpus/*; do
	name=$(basename "$f")
	err=$("$G" report -n 1 "$f" 2>&1 >/dev/null)
	rc=$?
	case $name in
	valid-*)
		[ $rc = 0 ] && [ -z "$err" ] && ok "report $name: read" ||
			not_ok "report $name: rc $rc, $err"
		# The exports walk every record: on the sanitized build too.
		rm -f "$tmp/p.svg" "$tmp/p.json"
		err=$("$G" report -n 0 --plot "$tmp/p.svg" --perfetto "$tmp/p.json" "$f" 2>&1 >/dev/null)
		rc=$?
		[ $rc = 0 ] && [ -z "$err" ] && [ -s "$tmp/p.svg" ] && [ -s "$tmp/p.json" ] &&
			ok "report --plot --perfetto $name: both written" ||
			not_ok "report --plot --perfetto $name: rc $rc, $err" ;;
	incomplete-*)
		[ $rc = 0 ] && [[ $err =~ ^"gupstat report: $f: incomplete trace (no trailer): "[0-9]+" holds recovered"$ ]] &&
			ok "report $name: ${err#gupstat report: }" ||
			not_ok "report $name: rc $rc (want 0), stderr: $err"
		err=$("$G" report --strict "$f" 2>&1 >/dev/null)
		rc=$?
		[ $rc = 1 ] && [ "$(echo "$err" | wc -l)" = 1 ] &&
			ok "report --strict $name: refused: ${err#gupstat report: }" ||
			not_ok "report --strict $name: rc $rc (want 1), stderr: $err" ;;
	*)
		[ $rc = 1 ] && [ "$(echo "$err" | wc -l)" = 1 ] && [[ $err == "gupstat report: $f: "* ]] &&
			ok "report $name: refused: ${err#gupstat report: }" ||
			not_ok "report $name: rc $rc (want 1), stderr: $err" ;;
	esac
done

base=tests/fuzz/corpus-results/valid-base.json
for f in tests/fuzz/corpus-results/*; do
	name=$(basename "$f")
	rm -f "$tmp/plot.svg"
	err=$("$G" compare "$base" "$f" --plot "$tmp/plot.svg" 2>&1 >"$tmp/out")
	rc=$?
	case $name in
	valid-*)
		# Whatever the file held, what is printed is printable ASCII.
		[ $rc = 0 ] && [ -z "$err" ] && [ -s "$tmp/plot.svg" ] &&
			! LC_ALL=C grep -q '[^[:print:][:space:]]' "$tmp/out" &&
			ok "compare $name: read, compared, plotted" ||
			not_ok "compare $name: rc $rc (want 0), stderr: $err" ;;
	*)
		[ $rc = 1 ] && [ "$(echo "$err" | wc -l)" = 1 ] &&
			[[ $err == "gupstat compare: $f: "* ]] && [ ! -e "$tmp/plot.svg" ] &&
			ok "compare $name: refused: ${err#gupstat compare: }" ||
			not_ok "compare $name: rc $rc (want 1), stderr: $err" ;;
	esac
done

tap_done
