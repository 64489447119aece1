#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The kernel's own mm selftests that drive GUP, as run_vmtests.sh runs
# them: the gup_test matrix (get/pin/longterm, fast and slow, THP on/off
# and hugetlb, 1/512/123 pages per call, private and shared, read and
# write), gup_test's page dump, gup_longterm, madv_populate, cow and
# mkdirty.
#
# Every case's result goes to $KRESULTS/selftests.txt as
# "binary<TAB>case<TAB>pass|fail|skip|xfail": tests/kernel/parity holds
# the batched kernel to every case the base kernel passes. Here, each run
# must finish and leave no pin behind.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/kernel/lib.sh

ST=$(cd "${SELFTESTS:-$BUILD/selftests}" && pwd)
# Region size of the gup_test matrix runs. run_vmtests.sh uses gup_test's
# default 128 MB (256 MB hugetlb); each run then costs 2 s of TCG time,
# 6 minutes per kernel for the matrix alone (measured). 32 MB still spans
# 16 page tables and 16 PMD-sized THPs.
ST_MB=${ST_MB:-32}
st_results=$KRESULTS/selftests.txt
st_logs=$KRESULTS/selftests-logs
st_runs=0 st_pin_bad=()
: >"$st_results"
rm -rf "$st_logs" && mkdir -p "$st_logs"

# st_parse BINARY LABEL LOG RC: one result line per kselftest result. A
# case is named by LABEL if given, else by the "[RUN]" line before it (the
# result messages alone repeat: "No leak from parent into child").
st_parse() {
	awk -v bin="$1" -v label="$2" -v rc="$4" -F '\t' '
	/^# \[RUN\] / { run = substr($0, 9) }
	/^(not )?ok [0-9]+/ {
		res = /^not ok/ ? "fail" : /# SKIP/ ? "skip" : /# XFAIL/ ? "xfail" : "pass"
		desc = $0
		sub(/^(not )?ok [0-9]+ (# (SKIP|XFAIL|error) )?/, "", desc)
		key = label != "" ? label : run != "" ? run : desc
		if (seen[key]++)
			key = key " #" seen[key]
		print bin "\t" key "\t" res
		n++
	}
	END {
		# A run that died or exited badly without saying which case
		# failed is a failure of its own.
		if (rc == 4 && n == 0)
			print bin "\t" (label != "" ? label : "(whole run)") "\tskip"
		else if (rc != 0 && rc != 4)
			print bin "\t" (label != "" ? label : "(whole run)") " exit " rc "\tfail"
	}' "$3" >>"$st_results"
}

# st_run TIMEOUT LABEL BINARY [ARG]...: run one selftest, record its cases
# and whether it released every pin it took.
st_run() {
	local limit=$1 label=$2 bin=$3 log p0 rc
	shift 3
	st_runs=$((st_runs + 1))
	log="$st_logs/$(printf %03d $st_runs)-$bin.log"
	echo "$bin $*" >"$log"
	p0=$(pins)
	# From a tmpfs: gup_longterm's "local tmpfile" cases create their
	# file in the working directory, and the checkout is read-only here.
	(cd /tmp && exec timeout "$limit" "$ST/$bin" "$@") >>"$log" 2>&1
	rc=$?
	[ "$(pins)" = "$p0" ] || st_pin_bad+=("$bin $* (pins $p0 -> $(pins))")
	st_parse "$bin" "$label" "$log" "$rc"
}

# st_summary BINARY: "P pass, F fail, S skip" for one binary's cases.
st_summary() {
	awk -F '\t' -v bin="$1" '$1 == bin { n[$3]++ }
		END { printf "%d pass, %d fail, %d skip, %d xfail", n["pass"], n["fail"], n["skip"], n["xfail"] }' \
		"$st_results"
}

# What run_vmtests.sh sets up: 256 MB of 2 MB hugetlb pages.
st_hugetlb_setup() {
	echo 3 >/proc/sys/vm/drop_caches
	echo $((256 / 2)) >/proc/sys/vm/nr_hugepages
	local free
	free=$(awk '$1 == "HugePages_Free:" { print $2 }' /proc/meminfo)
	expect_eq "hugetlb: 128 free 2 MB pages reserved for the selftests" "$free" 128
}

# run_vmtests.sh's run_gup_matrix, one case per gup_test run.
st_gup_matrix() {
	local huge cmd write share num args
	for huge in -t -T -H; do
		for cmd in -u -U -a -b -L; do
			for write in -w -W; do
				for share in -S ""; do
					for num in "-n 1" "-n 512" "-n 123"; do
						# shellcheck disable=SC2086
						args=$(echo $huge -m $ST_MB $cmd $write $share $num)
						# shellcheck disable=SC2086
						st_run 120 "gup_test $args" gup_test $args
					done
				done
			done
		done
	done
}

st_hugetlb_setup
swap_on "cow's swap-out cases"
st_start=$SECONDS
st_gup_matrix
st_run 120 "gup_test -ct -F 0x1 0 19 0x1000" gup_test -ct -F 0x1 0 19 0x1000
st_run 300 "" gup_longterm
st_run 300 "" madv_populate
st_run 600 "" cow
st_run 300 "" mkdirty
echo "# selftests took $((SECONDS - st_start)) s"
echo 0 >/proc/sys/vm/nr_hugepages
swap_off

# Each binary judged by its own cases: every case passes but those
# docs/selftests.md explains for this architecture, with that result
# (tests/kernel/parity then holds batched to every case base passes).
# A case whose result varies run to run ("pass or xfail" there) may
# measure either.
tests/kernel/documented "$(uname -m)" >"$st_logs/documented" ||
	not_ok "selftests: docs/selftests.md has no table for $(uname -m)"
tests/kernel/as-documented "$(uname -m)" "$st_results" >"$st_logs/as-documented" 2>/dev/null ||
	cp "$st_results" "$st_logs/as-documented"
for b in gup_test gup_longterm madv_populate cow mkdirty; do
	n=$(awk -F '\t' -v b=$b '$1 == b' "$st_results" | wc -l)
	bad=$(awk -F '\t' -v b=$b '$1 == b && $3 != "pass"' "$st_logs/as-documented" | LC_ALL=C sort |
		LC_ALL=C comm -23 - "$st_logs/documented")
	if [ "$n" = 0 ]; then
		not_ok "selftests: $b reported no case (log in $st_logs)"
	elif [ -z "$bad" ]; then
		ok "selftests: $b ran $n cases ($(st_summary $b)), each passing or as documented"
	else
		not_ok "selftests: $b: $(echo "$bad" | wc -l) of $n cases neither pass nor are documented:"
		echo "$bad" | head -n 20 | diag
	fi
done
if [ ${#st_pin_bad[@]} = 0 ]; then
	ok "selftests: every one of $st_runs runs released the pins it took"
else
	not_ok "selftests: ${#st_pin_bad[@]} of $st_runs runs left pins behind:"
	printf '#   %s\n' "${st_pin_bad[@]}"
fi
tap_done
