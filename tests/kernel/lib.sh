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

# Swap on a zram device (the guest has no disk; the debug kernels build
# zram in), for what swaps out: cow's swapped-out cases, the pageout
# racer. One TAP line: WHY says what for.
swap_on() {
	if [ ! -b /dev/zram0 ]; then
		not_ok "swap: no /dev/zram0 (kernel without CONFIG_ZRAM?)"
		return
	fi
	echo 256M >/sys/block/zram0/disksize &&
		mkswap /dev/zram0 >/dev/null && swapon /dev/zram0
	expect_eq "swap: 256 MB on zram for $1" \
		"$(awk '$1 == "/dev/zram0" { print $3 }' /proc/swaps)" 262140
}

swap_off() {
	swapoff /dev/zram0 2>/dev/null
	echo 1 >/sys/block/zram0/reset 2>/dev/null
}
