#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# What a kernel gives the suite, asserted: elsewhere the tests adapt (a
# have_* check that fails turns a measurement into a check of gupstat's
# refusal), which on the project's own kernels would let a kernel that
# lost GUP_TEST, mTHP or a probed symbol pass. So here, on those
# kernels, each is required; on Debian's, what they are known to lack
# is asserted as lacking, so that the refusals checked elsewhere are
# the right ones.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/guest/lib.sh
LOCK_FUNC=$(lock_func)

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# promise WHAT CMD...: on our kernels CMD must succeed.
promise() {
	local what=$1
	shift
	"$@" && ok "promised: $what" || not_ok "promised on $(uname -r) but missing: $what"
}

if [ "$PROJECT_KERNEL" = 1 ]; then
	promise "gup_test (CONFIG_GUP_TEST)" have_gup_test
	promise "per-size mTHP controls (64 kB)" have_mthp
	promise "per-size shmem mTHP controls (64 kB)" have_shmem_mthp
	promise "a PTE-lock function for --lock-exact" [ -n "$LOCK_FUNC" ]
	# Every probe attaches by fentry/fexit, none falls back or is
	# skipped, but gup_fill_pages() where the kernel inlines it.
	$GUPSTAT --lock-exact --dry-run >"$log" 2>&1
	for f in follow_page_pte ${LOCK_FUNC:-__pte_offset_map_lock} __get_user_pages try_grab_folio \
		unpin_user_pages unpin_user_pages_dirty_lock gup_put_folio; do
		promise "$f attached by fentry" grep -Eq "^$f +(fentry|fexit|fentry\+fexit) " "$log"
	done
	if [ "$FILL_TRACED" = 1 ]; then
		promise "gup_fill_pages attached by fentry" grep -Eq '^gup_fill_pages +fentry\+fexit ' "$log"
	else
		promise "gup_fill_pages inlined, said so" \
			grep -Eq '^gup_fill_pages +skip +not in this kernel' "$log"
	fi
	expect_eq "no probe falls back to kprobes" "$(grep -Ec ' kprobe' "$log")" 0 "$log"
else
	# Debian builds its kernels without GUP_TEST: test_validate.sh,
	# test_trace.sh and test_walk.sh check gupstat's refusal there.
	have_gup_test && not_ok "$(uname -r) has gup_test: the refusals checked on it are not the right ones" ||
		ok "$(uname -r): no gup_test, as Debian builds it"
fi
tap_done
