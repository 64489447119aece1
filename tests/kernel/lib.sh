# SPDX-License-Identifier: GPL-2.0
# Helpers for the kernel suite's files (tests/kernel/suite): the guest
# helpers (pins() among them) and the results directory.
. tests/guest/lib.sh
KRESULTS=${KRESULTS:?KRESULTS: the results directory (set by tests/kernel/suite)}

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

# NUMA balancing on, its scanner as fast as it goes, for the numa racer
# (the debug kernels build it in, off by default): no delay before a
# task's first scan, 4 MB per scan so that the floor on the scan period
# is 1 ms (task_scan_min()), a period of 10 ms. numa_off puts back what
# numa_on found. One TAP line.
NUMA_DBG=/sys/kernel/debug/sched/numa_balancing
numa_on() {
	local k
	if [ ! -f /proc/sys/kernel/numa_balancing ] || [ ! -d "$NUMA_DBG" ]; then
		not_ok "numa balancing: no kernel.numa_balancing or $NUMA_DBG (kernel without CONFIG_NUMA_BALANCING?)"
		return
	fi
	numa_saved="kernel $(cat /proc/sys/kernel/numa_balancing)"
	for k in scan_delay_ms scan_period_min_ms scan_period_max_ms scan_size_mb; do
		numa_saved+=" $k $(cat "$NUMA_DBG/$k")"
	done
	echo 0 >"$NUMA_DBG/scan_delay_ms"
	echo 10 >"$NUMA_DBG/scan_period_min_ms"
	echo 10 >"$NUMA_DBG/scan_period_max_ms"
	echo 4 >"$NUMA_DBG/scan_size_mb"
	echo 1 >/proc/sys/kernel/numa_balancing
	expect_eq "numa balancing: on, a 10 ms scan period, for $1" \
		"$(cat /proc/sys/kernel/numa_balancing) $(cat "$NUMA_DBG/scan_period_min_ms")" "1 10"
}

numa_off() {
	local k v saved
	[ -n "${numa_saved:-}" ] || return 0
	read -ra saved <<<"$numa_saved"
	set -- "${saved[@]}"
	while [ $# -ge 2 ]; do
		k=$1 v=$2
		shift 2
		if [ "$k" = kernel ]; then
			echo "$v" >/proc/sys/kernel/numa_balancing
		else
			echo "$v" >"$NUMA_DBG/$k"
		fi
	done
	numa_saved=
}
