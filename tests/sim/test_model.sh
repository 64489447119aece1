#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The cache model counts right on patterns whose misses are known: a
# user-space sweep through more lines than the last level holds, one that
# fits the L2 but not the L1d, one inside the L1d; and a kernel path with
# a known struct page footprint: unpinning N 4 kB pages on base reads N
# struct pages, which after an eviction all miss.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/guest/lib.sh
log=$GUPSTAT_SIM_DIR/gupsim.log
PATTERN=build/tests/sim-pattern

# field OUT NAME: one count from sim-pattern's line.
field() { tr ' ' '\n' <"$1" | sed -n "s/^$2=//p"; }

# within WHAT GOT LO HI: LO <= GOT <= HI.
within() {
	if [ -n "$2" ] && [ "$2" -ge "$3" ] && [ "$2" -le "$4" ]; then
		ok "$1: $2 in [$3, $4]"
	else
		not_ok "$1: got '$2', want $3 to $4"
	fi
}

out=$(mktemp)
# 64 MB, twice the 32 MB last level: every line misses at every level.
n=1048576
if $PATTERN "$log" stride $n >"$out" 2>&1; then
	within "stride over $n lines of 64 MB: LLC misses" "$(field "$out" llc_misses)" $n $((n + n / 50))
	within "  and L1d misses" "$(field "$out" l1d_misses)" $n $((n + n / 20))
	within "  and no struct page line" "$(field "$out" sp_accesses)" 0 0
else
	not_ok "sim-pattern stride $n: $(cat "$out")"
fi
# 256 kB, read just before: it misses the 32 kB L1d, not the 512 kB L2.
n=4096
if $PATTERN "$log" stride $n >"$out" 2>&1; then
	within "stride over $n lines of 256 kB: L1d misses" "$(field "$out" l1d_misses)" $n $((n + n / 10))
	within "  L2 misses" "$(field "$out" l2_misses)" 0 $((n / 10))
else
	not_ok "sim-pattern stride $n: $(cat "$out")"
fi
# 16 kB read 100 times after a first pass: inside the L1d.
if $PATTERN "$log" repeat 16384 100 >"$out" 2>&1; then
	acc=$(field "$out" accesses)
	within "16 kB read 100 times: accesses" "$acc" 25600 $((25600 * 2))
	within "  L1d misses, under 3% of them (timer interrupts land in the window)" "$(field "$out" l1d_misses)" 0 $((acc * 3 / 100))
else
	not_ok "sim-pattern repeat: $(cat "$out")"
fi

# The kernel: validate --sim at 16 MB of 4 kB pages on this kernel.
if ! have_gup_test; then
	skip "no CONFIG_GUP_TEST: the kernel patterns need it"
	tap_done
fi
json=$GUPSTAT_SIM_DIR/model.json
if $GUPSTAT validate unpin -e none -f 4k -s 16 -r 1 --sim "$GUPSTAT_SIM_DIR" -o "$json" >"$out" 2>&1; then
	ok "validate unpin --sim ran"
else
	not_ok "validate unpin --sim failed:"
	diag "$out"
	tap_done
fi
# sim COND PHASE COUNT: the one sample of a count.
sim() { jq -r --arg c "$1" --arg p "$2" --arg n "$3" '.runs[0][$c].sim[$n][$p][0]' "$json"; }
pages=4096
size=$(bpftool btf dump file /sys/kernel/btf/vmlinux format raw | sed -n "s/.*STRUCT 'page' size=\([0-9]*\).*/\1/p" | head -n1)
# Each page's struct page spans this many lines (one, at 64 bytes).
lines=$((pages * size / 64))
case $(jq -r .sim.model "$json") in
zen3:*) ok "the model is named in the results: zen3" ;;
*) not_ok "no model in the results: $(jq -c .sim "$json")" ;;
esac
within "cold unpin of $pages pages: struct page LLC misses ($size-byte struct page)" \
	"$(sim cold unpin sim:struct-page-LLC-miss)" $lines $((lines + lines / 50))
within "cold_pin pin: struct page LLC misses" "$(sim cold_pin pin sim:struct-page-LLC-miss)" \
	$lines $((lines + lines / 10))
within "cold_pin unpin: the pin brought them in, no struct page LLC miss" \
	"$(sim cold_pin unpin sim:struct-page-LLC-miss)" 0 $((lines / 100))
within "warm pin reads every struct page" "$(sim warm pin sim:struct-page-access)" $pages $((pages * 40))
rm -f "$out"
tap_done
