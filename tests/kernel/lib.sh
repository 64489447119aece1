# SPDX-License-Identifier: GPL-2.0
# Helpers for the kernel suite's files (tests/kernel/suite): the guest
# helpers, the results directory, and the kernel's own pin count.
. tests/guest/lib.sh
KRESULTS=${KRESULTS:?KRESULTS: the results directory (set by tests/kernel/suite)}

# pins: acquired minus released, from the kernel's own accounting. The
# counters are per-CPU with lazily folded deltas; stat_refresh folds them
# so that the difference is exact at this moment.
pins() {
	echo 1 >/proc/sys/vm/stat_refresh
	awk '$1 == "nr_foll_pin_acquired" { a = $2 }
	     $1 == "nr_foll_pin_released" { r = $2 }
	     END { print a - r }' /proc/vmstat
}
