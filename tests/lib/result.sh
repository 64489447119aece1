# SPDX-License-Identifier: GPL-2.0
# The result line every test command ends with, "NAME: N passed, N
# failed, N skipped" (tests/lib/harness; ", N skipped" may be absent),
# read back by what adds results up (tests/lib/parts.sh, guest-run,
# tests/kernel/walk, tests/check-walk, tests/stress), and the counts of
# raw TAP lines behind it.
result_re='^[a-z][a-z0-9._-]*: [0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$'

# result_line FILE [NAME]: the last result line of NAME in FILE, or
# without NAME (or with none of NAME's) the last result line of any.
result_line() {
	local named=
	[ -n "${2:-}" ] && named=$(grep -E "$result_re" "$1" | awk -v n="$2: " 'index($0, n) == 1' | tail -n1)
	if [ -n "$named" ]; then
		echo "$named"
	else
		grep -E "$result_re" "$1" | tail -n1
	fi
}

# result_counts LINE: "PASSED FAILED SKIPPED" of a result line.
result_counts() {
	[[ $1 =~ :\ ([0-9]+)\ passed,\ ([0-9]+)\ failed(,\ ([0-9]+)\ skipped)?$ ]] &&
		echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]} ${BASH_REMATCH[4]:-0}"
}

# TAP lines, as prove --verbose prints them: a skip, and a failure
# (numbered, or tests/lib/run-one's unnumbered line for a file it
# stopped).
tap_skip_re='^ *ok [0-9]+[^#]*# *[Ss][Kk][Ii][Pp]'
tap_fail_re='^ *not ok ([0-9]+|- )'

# tap_counts FILE: "PASSED FAILED SKIPPED" of the TAP lines in FILE.
tap_counts() {
	local s
	s=$(grep -Ec "$tap_skip_re" "$1")
	echo "$(($(grep -Ec '^ *ok [0-9]+' "$1") - s)) $(grep -Ec "$tap_fail_re" "$1") $s"
}
