# SPDX-License-Identifier: GPL-2.0
# Sourced by tools/vmrun: which accelerator boots the guest.
#
# A writable /dev/kvm is not proof that KVM runs an ordinary guest kernel:
# a paravirtual KVM (dmesg: "kvm-pvm") starts QEMU, which then prints
# nothing and never boots. So auto asks a probe boot first (the kernel
# about to be booted, running `true`) and keeps the answer for this boot
# of the machine: the boot id, the host kernel and QEMU key it.

probe_silence=${GUPSTAT_KVM_PROBE_SILENCE:-20}

accel_cache_file() {
	local key
	key=$( { cat /proc/sys/kernel/random/boot_id; uname -rv
		 qemu-system-x86_64 --version | head -n1; } | sha256sum | cut -c1-16)
	echo "$cache/accel/$key"
}

# Sets accel (kvm or tcg) from auto, probing once per machine boot.
accel_auto() {
	local file reason rc
	if [ ! -w /dev/kvm ]; then
		accel=tcg
		return 0
	fi
	file=$(accel_cache_file)
	if [ -f "$file" ]; then
		accel=$(head -n1 "$file")
		return 0
	fi
	rc=0
	GUPSTAT_SILENCE=$probe_silence "$top/tools/vmrun" --accel kvm \
		--kernel "$image" --mem 256M --cpus 1 --timeout 120 -- true \
		>"$run/probe.out" 2>&1 || rc=$?
	if [ "$rc" = 0 ]; then
		accel=kvm reason="a probe boot under KVM ran"
	elif grep -q 'printed nothing' "$run/probe.out"; then
		accel=tcg reason="a probe boot under KVM printed nothing within ${probe_silence}s (a paravirtual KVM such as kvm-pvm?)"
	else
		accel=tcg reason="a probe boot under KVM failed (exit $rc: $(tail -n1 "$run/probe.out" | cut -c1-160))"
	fi
	mkdir -p "$(dirname "$file")"
	printf '%s\n%s\n' "$accel" "$reason" >"$file.tmp" && mv "$file.tmp" "$file"
	echo "vmrun: using ${accel^^}: $reason (kept for this machine boot in $file)" >&2
}

# What auto chose on this machine boot, for a benchmark's header: tcg
# without a usable /dev/kvm, else the probe's kept answer.
accel_chosen() {
	local file
	[ -w /dev/kvm ] || { echo tcg; return 0; }
	file=$(accel_cache_file)
	[ -f "$file" ] && head -n1 "$file" || echo "not probed yet"
}

accel_choose() {
	case $accel in
	auto) accel_auto ;;
	kvm) [ -w /dev/kvm ] || die "--accel kvm: /dev/kvm is missing or not writable" ;;
	esac
	case ${GUPSTAT_TCG_THREAD:-single} in
	single | multi) ;;
	*) die "GUPSTAT_TCG_THREAD: not single or multi: $GUPSTAT_TCG_THREAD" ;;
	esac
	if [ "$accel" = kvm ]; then
		qemu_accel=(-accel kvm -cpu host)
		: "${silence:=30}"
	else
		# One host thread for all vCPUs, taking turns. With a
		# thread per vCPU (QEMU 7.2's thread=multi), a vCPU ran code
		# translated before another one's text_poke_bp() ended: the
		# int3 already removed was executed and the guest died of
		# "Oops: int3", at boot (static keys) or when gupstat
		# attached. tests/guest/text-poke-flips reproduces it in
		# seconds; GUPSTAT_TCG_THREAD=multi brings it back to measure.
		qemu_accel=(-accel "tcg,thread=${GUPSTAT_TCG_THREAD:-single}" -cpu max)
		: "${silence:=300}"
	fi
}

# The init's first line (VMRUN-UP) must reach the console within
# $silence seconds, or QEMU is stopped and the run reported.
silence_watch() {
	local i
	for ((i = 0; i < silence * 10; i++)); do
		grep -q '^VMRUN-UP' "$run/console.raw" 2>/dev/null && return 0
		sleep 0.1
	done
	touch "$run/silent"
	pkill -f -- "gupstat.run=$run( |\$)" || true
}
