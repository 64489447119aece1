# SPDX-License-Identifier: GPL-2.0
# Sourced by tests/check and tests/check-arm64: a run in timed parts, each
# a build step or a test command whose result line (tests/lib/result.sh)
# is added up; parts_done ends with each part's wall time and one line,
# "N passed, N failed, N skipped".
. "$(dirname "${BASH_SOURCE[0]}")/result.sh"
. "$(dirname "${BASH_SOURCE[0]}")/cases.sh"
pass=0 fail=0 skip=0
times=()

# timed NAME RESULT SECS: keep "NAME  WALL  RESULT" for the table.
timed() {
	local s=$3
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
	timed "$name" built $((SECONDS - start))
}

# account NAME LOG SECS: add a finished part's result line up: NAME's
# own, where the part's command names its line after it (guest-run,
# harness NAME), or else the last one; and the cases its files did not
# run (tests/lib/cases.sh).
account() {
	local name=$1 log=$2 secs=$3 line p f s
	cases_check "$name" "$log"
	line=$(result_line "$log" "$name")
	if [ -z "$line" ]; then
		echo "not ok - $name produced no result line (see $log)"
		fail=$((fail + 1 + cases_failed))
		timed "$name" "no result line" "$secs"
		return
	fi
	read -r p f s < <(result_counts "$line")
	f=$((f + cases_failed))
	if [ "$p" = 0 ]; then
		echo "not ok - $name passed nothing (see $log)"
		f=$((f + 1))
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	timed "$name" "$p passed, $f failed, $s skipped" "$secs"
}

# run_part NAME CMD...: run, keep a log in build/check-NAME.log, add its
# result line up.
run_part() {
	local name=$1 start=$SECONDS
	shift
	echo "== $name"
	"$@" 2>&1 | tee "build/check-$name.log"
	account "$name" "build/check-$name.log" $((SECONDS - start))
}

# run_beside NAME CMD...: as run_part, but in the background beside the
# other parts started so, until parts_wait. A TCG guest keeps one host
# CPU busy, so two guest parts at a time use a 2-CPU machine; each
# part's wall time in the table is its own, measured beside the other.
bg_names=()
run_beside() {
	local name=$1
	shift
	echo "== $name: started, beside ${bg_names[*]:-nothing yet}"
	(
		start=$SECONDS
		"$@" >"build/check-$name.log" 2>&1
		echo $((SECONDS - start)) >"build/check-$name.secs"
	) &
	bg_names+=("$name")
}

# parts_wait: wait for the parts run_beside started, then print their
# logs one after the other and add them up, in the order they started.
parts_wait() {
	local name
	wait
	for name in "${bg_names[@]}"; do
		echo "== $name"
		cat "build/check-$name.log"
		account "$name" "build/check-$name.log" "$(cat "build/check-$name.secs" 2>/dev/null || echo 0)"
	done
	bg_names=()
}

parts_done() {
	echo "# wall time per part (SECONDS, this run):"
	printf '#   %s\n' "${times[@]}"
	timed total "" "$SECONDS"
	echo "#   ${times[-1]}"
	echo "$pass passed, $fail failed, $skip skipped"
}
