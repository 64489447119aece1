#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tests/lib/cases.sh: each file's case count against the table. A file
# stopped by its timeout, one a dead guest never started, a case that
# vanished: each case not run is a failure; a case added or a file the
# table does not know fails once; the kernel log's judge after prove's
# summary is nobody's case; and tests/cases knows every part tests/check
# and tests/check-walk run. Also tests/guest/kernel-independent's form.
. tests/host/lib.sh
cases_table=$tmp/cases
. tests/lib/cases.sh

# part NAME FILE:COUNT...: a table of NAME's files.
table() {
	local name=$1 fc
	shift
	for fc in "$@"; do
		echo "$name ${fc%:*} ${fc#*:}"
	done >"$cases_table"
}

# check PART LOG: "FAILED" and the lines cases_check printed.
check() {
	cases_check "$1" "$2" >"$tmp/out"
	echo "$cases_failed"
}

# Two files under the real harness, the second stopped after 2 of its
# 5 cases by run-one's timeout, then the kernel log's judge as guest-run
# prints it after prove's summary.
cat >"$tmp/a.sh" <<'T'
#!/bin/sh
echo "ok 1 - one"; echo "ok 2 - two # skip no reason"; echo 1..2
T
cat >"$tmp/b.sh" <<'T'
#!/bin/sh
echo "ok 1 - one"; echo "ok 2 - two"; sleep 60; echo "ok 3"; echo "ok 4"; echo "ok 5"; echo 1..5
T
chmod +x "$tmp/a.sh" "$tmp/b.sh"
GUPSTAT_FILE_TIMEOUT=2 tests/lib/harness p "$tmp/a.sh" "$tmp/b.sh" >"$tmp/log" 2>&1
{ echo "ok 1 - kernel log: no warning"; echo "kernel-log: 1 passed, 0 failed"; } >>"$tmp/log"
expect_eq "counted per file from prove's output, the judge after it not" \
	"$(cases_of "$tmp/log" | tr '\n' ' ')" "$tmp/a.sh 2 $tmp/b.sh 2 " "$tmp/log"

table p "$tmp/a.sh:2" "$tmp/b.sh:5"
expect_eq "a file stopped by its timeout: its 3 cases not run fail" "$(check p "$tmp/log")" 3 "$tmp/out"
grep -q "b.sh ran 2 of its 5 cases; the 3 not run count as failed" "$tmp/out" &&
	ok "...and the line names the file and the count" || not_ok "said: $(cat "$tmp/out")"

table p "$tmp/a.sh:2" "$tmp/b.sh:2"
expect_eq "counts as the table says: nothing added" "$(check p "$tmp/log")" 0 "$tmp/out"
expect_eq "a part the table does not list is not checked" "$(check q "$tmp/log")" 0 "$tmp/out"

table p "$tmp/a.sh:2" "$tmp/b.sh:2" "$tmp/c.sh:7"
expect_eq "a file never started (a guest that died first): all 7 fail" "$(check p "$tmp/log")" 7 "$tmp/out"

table p "$tmp/a.sh:1" "$tmp/b.sh:2"
expect_eq "a file with a case more than the table: one failure" "$(check p "$tmp/log")" 1 "$tmp/out"
grep -q "a.sh ran 2 cases, tests/cases says 1" "$tmp/out" && ok "...naming cases-update" ||
	not_ok "said: $(cat "$tmp/out")"

table p "$tmp/a.sh:2"
expect_eq "a file the table does not know, in a part it knows: one failure" "$(check p "$tmp/log")" 1 "$tmp/out"

# A file run twice in one part (tests/kernel/walk's two boots).
cat "$tmp/log" "$tmp/log" >"$tmp/twice"
expect_eq "a file run twice in a part is summed" "$(cases_of "$tmp/twice" | head -n1)" "$tmp/a.sh 4"

# The real table: every part make check runs has its files' counts, and
# a count is a number.
parts=$(sed -nE 's/^\s*run_(part|beside) "?([a-z0-9.$-]+)"? .*/\2/p' tests/check tests/check-walk | sort -u)
missing=
for p in $parts; do
	case $p in
	*'$k'*) for k in base-debug batched-debug; do
			grep -q "^${p//\$k/$k} " tests/cases || missing+=" ${p//\$k/$k}"
		done ;;
	*) grep -q "^$p " tests/cases || missing+=" $p" ;;
	esac
done
expect_eq "tests/cases has every part of tests/check and tests/check-walk" "${missing:-none}" none
bad=$(grep -v '^#' tests/cases | awk 'NF != 3 || $3 !~ /^[0-9]+$/' | head -n3)
expect_eq "tests/cases: PART FILE COUNT on each line" "${bad:-none}" none

# The files a Debian kernel leaves out exist, each with its reason.
bad=$(grep -v '^#' tests/guest/kernel-independent |
	awk -F '\t' 'NF != 2 || $2 == "" { print "no reason: " $1; next }
		system("test -x " $1) != 0 { print "no such test: " $1 }')
expect_eq "tests/guest/kernel-independent: existing files, each with a reason" "${bad:-none}" none
tap_done
