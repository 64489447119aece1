# SPDX-License-Identifier: GPL-2.0
# Sourced by tests/check and tests/check-arm64: a run in timed parts, each
# a build step or a test command whose result line (tests/lib/result.sh)
# is added up; parts_done ends with each part's wall time and one line,
# "N passed, N failed, N skipped".
. "$(dirname "${BASH_SOURCE[0]}")/result.sh"
pass=0 fail=0 skip=0
times=()

# timed NAME RESULT START: keep "NAME  WALL  RESULT" for the table.
timed() {
	local s=$((SECONDS - $3))
	times+=("$(printf '%-22s %3dm%02ds%s' "$1" $((s / 60)) $((s % 60)) "${2:+  $2}")")
}

# build_step NAME MAKE-TARGET...: a cold build is most of a cold run, so
# each step is timed as a part; a failed build ends the run.
build_step() {
	local name=$1 start=$SECONDS
	shift
	echo "== $name"
	if ! make -s --no-print-directory "$@"; then
		echo "not ok - $name: make $* failed"
		echo "$pass passed, $((fail + 1)) failed, $skip skipped"
		exit 1
	fi
	timed "$name" built "$start"
}

# run_part NAME CMD...: run, keep a log, add its result line up.
run_part() {
	local name=$1 log="build/check-$1.log" line p f s start=$SECONDS
	shift
	echo "== $name"
	"$@" 2>&1 | tee "$log"
	line=$(result_line "$log")
	if [ -z "$line" ]; then
		echo "not ok - $name produced no result line (see $log)"
		fail=$((fail + 1))
		timed "$name" "no result line" "$start"
		return
	fi
	read -r p f s < <(result_counts "$line")
	if [ "$p" = 0 ]; then
		echo "not ok - $name passed nothing (see $log)"
		f=$((f + 1))
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	timed "$name" "$p passed, $f failed, $s skipped" "$start"
}

parts_done() {
	echo "# wall time per part (SECONDS, this run):"
	printf '#   %s\n' "${times[@]}"
	timed total "" 0
	echo "#   ${times[-1]}"
	echo "$pass passed, $fail failed, $skip skipped"
}
