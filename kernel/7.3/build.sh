# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2154 # cache, top, names, die, lock: kernel/build
# Sourced by kernel/build, last before its command dispatch: the kernels
# built from Debian's linux-source-7.3, the mainline the batched walk is
# reviewed on, next to the 6.12 ones.
#
#   base-7.3          7.3 as Debian ships its source
#   batched-7.3       base-7.3 plus kernel/7.3/patches/series
#   walk-only-7.3     base-7.3 plus the series up to the multi-PTE walk,
#                     without one grab per same-folio run ($run_patch_73
#                     and after): what the walk gains on its own
#   base-7.3-debug    base-7.3 and batched-7.3 with debug.config (and
#   batched-7.3-debug debug-x86.config): what the 7.3 suites boot
#
# Every 7.3 kernel is built -O2 (kernel/config/o2.config), as
# distributions build theirs; tinyconfig alone gives -Os. Each also takes
# kernel/config/mainline.config: what 7.x no longer sets by default that
# the tests need.
#
# The source is fetched with apt through a private state under the cache
# (sid and experimental, the newest version of the two; the machine's own
# apt state is not touched) and kept as
# $cache/dist/linux-source-7.3/VERSION.tar.xz. Its version feeds the 7.3
# kernels' keys. A build uses the newest version fetched; the archive is
# asked again only when none is, or by `kernel/build --fetch-7.3`.
#
#   kernel/build --fetch-7.3    ask the archive for the newest source; print it
#   kernel/build --source-7.3   unpack the 7.3 source if needed; print its dir
#
# How the 6.12 kernels keep their keys: kernel/build's kernel_key()
# hashes the script itself. The 6.12 kernels hash it without the lines
# between "#73{" and "#73}" (the line that sources this file), which is
# byte for byte the script as it was before 7.3 was added, so that adding
# 7.3 rebuilt no 6.12 kernel. A change anywhere else in kernel/build
# changes the 6.12 keys as before. The 7.3 kernels hash all of
# kernel/build and this file.
#
# This file redefines kernel/build's functions that differ by source:
# each keeps the 6.12 one as NAME_612 and calls it for a 6.12 name.

pkg_73=linux-source-7.3
names_73="base-7.3 batched-7.3 walk-only-7.3 base-7.3-debug batched-7.3-debug"
names="$names $names_73"
# The port of the RFC's last step, one grab per same-folio run:
# walk-only-7.3 stops before it.
run_patch_73="*-mm-gup-take-one-refcount-per-same-folio-run-of-PTEs.patch"
mirror_73=${GUPSTAT_DEBIAN_MIRROR:-http://deb.debian.org}
dist_73="$cache/dist/$pkg_73"

is_73() {
	case " $names_73 " in *" $1 "*) return 0 ;; esac
	return 1
}

# Keep kernel/build's function NAME as NAME_612.
keep_612() {
	declare -f "$1" >/dev/null || die "kernel/7.3/build.sh: kernel/build has no $1()"
	eval "$(declare -f "$1" | sed "1s/^$1 /$1_612 /")"
}
for f in fragments patches how_to_build obj_name kernel_key unpack_source apply_series; do
	keep_612 "$f"
done

# kernel/build as a 6.12 kernel's key has always hashed it.
script_612() { sed '/^#73{$/,/^#73}$/d' "$top/kernel/build"; }
eval "$(declare -f kernel_key_612 | sed 's|cat "\$top/kernel/build"|script_612|')"
[[ $(declare -f kernel_key_612) == *script_612* ]] ||
	die "kernel/7.3/build.sh: kernel_key() no longer hashes kernel/build with cat"

# --- the source ---

# Ask the archive for the newest linux-source-7.3 of sid and experimental
# and keep its tarball; print the version.
fetch_73() {
	local state=$cache/apt-7.3 ver v best="" x
	mkdir -p "$state/dl" "$dist_73"
	printf 'deb %s/debian sid main\ndeb %s/debian experimental main\n' \
		"$mirror_73" "$mirror_73" >"$state/sources.list"
	. "$top/tools/lib/apt.sh"
	echo "[kernel] asking $mirror_73 (sid, experimental) for $pkg_73" >&2
	apt_private "$state" apt-get update >/dev/null 2>"$state/err" ||
		die "apt-get update failed: $(tail -n1 "$state/err")"
	for v in $(apt_private "$state" apt-cache show "$pkg_73" 2>/dev/null |
		sed -n 's/^Version: //p'); do
		if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$best"; then best=$v; fi
	done
	[ -n "$best" ] || die "the archive (sid, experimental at $mirror_73) has no $pkg_73"
	ver=$best
	if [ ! -f "$dist_73/$ver.tar.xz" ]; then
		echo "[kernel] downloading $pkg_73 $ver" >&2
		rm -f "$state/dl"/*.deb
		(cd "$state/dl" && apt_private "$state" apt-get download "$pkg_73=$ver" \
			>/dev/null 2>"$state/err") ||
			die "cannot download $pkg_73 $ver: $(tail -n1 "$state/err")"
		x=$(mktemp -d "$cache/dist/x.XXXXXX")
		nice -n 19 dpkg-deb --fsys-tarfile "$state/dl"/*.deb |
			tar -x -C "$x" "./usr/src/$pkg_73.tar.xz" ||
			die "$pkg_73 $ver has no usr/src/$pkg_73.tar.xz"
		mv "$x/usr/src/$pkg_73.tar.xz" "$dist_73/$ver.tar.xz"
		rm -rf "$x" "$state/dl"/*.deb
	fi
	echo "$ver"
}

# The newest version fetched; fetched now if none is and this run may
# build (not for --path or --list).
src_version_73() {
	local v
	mkdir -p "$dist_73"
	v=$(find "$dist_73" -maxdepth 1 -name '*.tar.xz' -printf '%f\n' 2>/dev/null |
		sed 's/\.tar\.xz$//' | sort -V | tail -n1)
	if [ -z "$v" ]; then
		[ -n "$may_fetch_73" ] || die "$pkg_73 is not fetched: run 'kernel/build base-7.3'"
		v=$(fetch_73)
	fi
	echo "$v"
}

unpack_source_73() {
	local ver dir
	ver=$(src_version_73)
	dir="$cache/src/$pkg_73-$ver"
	if [ ! -f "$dir/.unpacked" ]; then
		echo "[kernel] unpacking $pkg_73 $ver" >&2
		rm -rf "$dir" "$dir.tmp"
		mkdir -p "$dir.tmp"
		nice -n 19 tar -xf "$dist_73/$ver.tar.xz" -C "$dir.tmp" --strip-components=1
		touch "$dir.tmp/.unpacked"
		mv "$dir.tmp" "$dir"
	fi
	echo "$dir"
}

# --- what each 7.3 kernel is ---

series_73() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' -e "s|^|$top/kernel/7.3/patches/|" \
		"$top/kernel/7.3/patches/series"
}

# The 7.3 series up to, and not including, the patch matching the glob $1.
series_73_before() {
	local p
	for p in $(series_73); do
		# shellcheck disable=SC2254 # $1 is a glob on purpose
		case $(basename "$p") in $1) return 0 ;; esac
		echo "$p"
	done
	die "kernel/7.3/patches/series has no patch $1"
}

fragments() {
	local c=$top/kernel/config
	case $1 in
	base-7.3|batched-7.3|walk-only-7.3)
		echo "$c/base.config $c/x86.config $c/mainline.config $c/o2.config" ;;
	base-7.3-debug|batched-7.3-debug)
		echo "$c/base.config $c/x86.config $c/mainline.config $c/debug.config $c/debug-x86.config $c/o2.config" ;;
	*) fragments_612 "$1" ;;
	esac
}

patches() {
	case $1 in
	base-7.3|base-7.3-debug) ;;
	batched-7.3|batched-7.3-debug) series_73 ;;
	walk-only-7.3) series_73_before "$run_patch_73" ;;
	*) patches_612 "$1" ;;
	esac
}

how_to_build() {
	if is_73 "$1"; then echo "kernel/build $1"; else how_to_build_612 "$1"; fi
}

obj_name() {
	case $1 in
	*-7.3-debug) echo debug-7.3 ;;
	*-7.3) echo base-7.3 ;;
	*) obj_name_612 "$1" ;;
	esac
}

kernel_key() {
	local name=$1 f ver
	if ! is_73 "$name"; then
		kernel_key_612 "$name"
		return
	fi
	ver=$(src_version_73)
	{
		echo "name=$name source=$pkg_73 $ver"
		for f in $(fragments "$name"); do cat "$f"; done
		for f in $(patches "$name"); do sed -n '/^diff --git /,$p' "$f"; done
		cat "$top/kernel/build" "$top/kernel/7.3/build.sh"
	} | sha256sum | cut -c1-16
}

# kernel/build's build() calls these without the kernel's name; its own
# local $name is the one being built (bash scopes locals dynamically).
unpack_source() {
	if is_73 "${name:-}"; then unpack_source_73; else unpack_source_612; fi
}

apply_series() {
	local p out
	is_73 "$1" || { apply_series_612 "$@"; return; }
	revert_series "$2"
	for p in $(patches "$1"); do
		if ! out=$(patch -p1 -N --dry-run -d "$2" <"$p" 2>&1); then
			revert_series "$2"
			die "$1: $(basename "$p") does not apply to $pkg_73 $(src_version_73):
$(echo "$out" | grep -E 'FAILED|can.t find|rejects|Reversed' | head -n 10)"
		fi
		patch -s -p1 -N -d "$2" <"$p" >/dev/null
		echo "$p" >>"$2/.gupstat-applied"
	done
}

# Only a build may go to the archive; --path and --list answer from the
# cache.
case ${1:-} in
--fetch-7.3)
	may_fetch_73=1
	lock
	fetch_73
	exit ;;
--source-7.3)
	may_fetch_73=1
	lock
	name=base-7.3
	src=$(unpack_source)
	revert_series "$src"
	echo "$src"
	exit ;;
-*|"") may_fetch_73= ;;
*) may_fetch_73=1 ;;
esac
