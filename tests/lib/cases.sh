# SPDX-License-Identifier: GPL-2.0
# Each test file's number of cases, per part, against tests/cases: the
# count a passing run had. A file that ran fewer (a case that vanished,
# a file stopped by its timeout, a guest that died before or inside it)
# fails with each case it did not run counted as failed; a file that ran
# more, or one tests/cases does not know in a part it knows, fails once,
# so that the table is kept with the tests (tests/lib/cases-update).
# Sourced by tests/lib/parts.sh.
cases_table=${cases_table:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/tests/cases}

# cases_of LOG: "FILE N" for each test file whose TAP prove printed in
# LOG (its "FILE .... " header, then its cases), a file run twice in one
# part summed. prove's summary ends a run's last file, so that the kernel
# log's judge, after it, is not counted as that file's.
cases_of() {
	awk '/^[^ #]+ \.+ *$/ { f = $1; if (!(f in n)) { n[f] = 0; o[++k] = f }; next }
		/^(All tests successful|Test Summary Report|Files=|Result: )/ { f = ""; next }
		f != "" && /^ *(not )?ok [0-9]+/ { n[f]++ }
		END { for (i = 1; i <= k; i++) print o[i], n[o[i]] }' "$1"
}

# cases_check PART LOG: prints a "not ok" line for each file of PART
# whose count differs from tests/cases and sets cases_failed to the
# failures to add. A part tests/cases does not list is not checked
# (tests/check-arm64's, tests/stress' repeats).
cases_check() {
	local part=$1 log=$2 file want got
	local -A seen=()
	cases_failed=0
	grep -q "^$part " "$cases_table" 2>/dev/null || return 0
	while read -r file got; do
		seen[$file]=$got
	done < <(cases_of "$log")
	while read -r _ file want; do
		got=${seen[$file]:-0}
		unset "seen[$file]"
		if [ "$got" -lt "$want" ]; then
			echo "not ok - $part: $file ran $got of its $want cases; the $((want - got)) not run count as failed"
			cases_failed=$((cases_failed + want - got))
		elif [ "$got" -gt "$want" ]; then
			echo "not ok - $part: $file ran $got cases, tests/cases says $want (a case added? tests/lib/cases-update)"
			cases_failed=$((cases_failed + 1))
		fi
	done < <(awk -v p="$part" '$1 == p' "$cases_table")
	for file in "${!seen[@]}"; do
		echo "not ok - $part: $file ran ${seen[$file]} cases, and tests/cases has no count for it (tests/lib/cases-update)"
		cases_failed=$((cases_failed + 1))
	done
}
