# SPDX-License-Identifier: GPL-2.0
# The result line every test command ends with, "NAME: N passed, N
# failed, N skipped" (tests/lib/harness; ", N skipped" may be absent),
# read back by what adds results up (tests/lib/parts.sh, guest-run,
# tests/kernel/walk, tests/check-walk, tests/stress).
result_re='^[a-z][a-z0-9._-]*: [0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$'

# result_line FILE: the last result line in FILE, or nothing.
result_line() {
	grep -E "$result_re" "$1" | tail -n1
}

# result_counts LINE: "PASSED FAILED SKIPPED" of a result line.
result_counts() {
	echo "$1" | sed -E 's/^[^:]*: ([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?$/\1 \2 \4/' |
		awk '{ print $1, $2, $3 + 0 }'
}
