#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Last file of the kernel suite: nothing the suite did may leave a pin
# outstanding or a kernel splat in the log.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/kernel/lib.sh

expect_eq "pins outstanding after the suite" "$(pins)" 0

# Any splat since boot fails the run: a WARN_ON, VM_BUG_ON_* (a BUG),
# lockdep report or sleeping-in-atomic (each has a line matching
# tests/lib/splat.ere, which tests/lib/kernel-log reads too; a bare
# "lockdep" would match the boot banner "RCU lockdep checking is
# enabled"). The kernel log is saved whole. Not matched: gup_test -ct's
# dump_page() output, which is that test's purpose ("page dumped
# because: gup_test: dump_pages() test").
dmesg >"$KRESULTS/dmesg"
splats=$(grep -E -f tests/lib/splat.ere "$KRESULTS/dmesg" | head -n 20)
if [ -z "$splats" ]; then
	ok "dmesg: no WARN, BUG, lockdep or might_sleep report"
else
	not_ok "dmesg has a kernel splat (whole log in $KRESULTS/dmesg):"
	echo "$splats" | diag
fi

tap_done
