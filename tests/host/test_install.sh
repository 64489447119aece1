#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make install and make uninstall under a DESTDIR with a space in it:
# the static binary, every man page and the completion go where the
# docs say and nowhere else, and uninstall takes exactly those away.
# What is already at a destination is met as install(1) meets it: a
# file or a symlink is replaced (the link's target left alone), a
# directory is an error that names it.
. tests/host/lib.sh

version=$(sed -n 's/^#define GUPSTAT_VERSION\t"\(.*\)"$/\1/p' src/util/version.h)
d="$tmp/dest dir"

# files_under DIR: every file and symlink, relative, sorted.
files_under() {
	(cd "$1" && find . ! -type d | sed 's|^\./||' | sort)
}

# The files the docs promise under PREFIX $1.
expected() {
	local f

	{
		echo "${1#/}/sbin/gupstat"
		echo "${1#/}/share/bash-completion/completions/gupstat"
		for f in man/*.8.scd; do
			echo "${1#/}/share/man/man8/$(basename "$f" .scd)"
		done
	} | sort
}

# run_make LOG ARG...: make, quiet, its output kept.
run_make() {
	local log=$1
	shift
	make -s --no-print-directory "$@" >"$log" 2>&1
}

if ! command -v scdoc >/dev/null; then
	skip "no scdoc: run make deps"
	tap_done
fi

run_make "$tmp/log" install DESTDIR="$d"
expect_eq "make install DESTDIR with a space" "$?" 0 "$tmp/log"
expect_eq "it installs the binary, every page and the completion, nothing else" \
	"$(files_under "$d" | tr '\n' ' ')" "$(expected /usr/local | tr '\n' ' ')"
bin="$d/usr/local/sbin/gupstat"
expect_eq "the installed gupstat runs" "$("$bin" --version 2>&1)" "gupstat $version"
# Static: no interpreter, no library needed.
if readelf -lW "$bin" | grep -q INTERP || readelf -dW "$bin" | grep -q NEEDED; then
	not_ok "the installed gupstat is static: $(readelf -dW "$bin" | grep NEEDED | head -n3)"
else
	ok "the installed gupstat is static (no INTERP, no NEEDED)"
fi
expect_eq "binary mode" "$(stat -c %a "$bin")" 755
expect_eq "page mode" "$(stat -c %a "$d/usr/local/share/man/man8/gupstat.8")" 644
MANWIDTH=80 man --warnings -l "$d/usr/local/share/man/man8/gupstat-trace.8" 2>&1 >/dev/null |
	head -c 300 >"$tmp/warn"
expect_eq "the installed page renders without a warning" "$(cat "$tmp/warn")" ""

# A file of someone else's in the same directory stays.
echo other >"$d/usr/local/share/man/man8/other.8"
run_make "$tmp/log" uninstall DESTDIR="$d"
expect_eq "make uninstall" "$?" 0 "$tmp/log"
expect_eq "uninstall leaves only what was not installed" "$(files_under "$d" | tr '\n' ' ')" \
	"usr/local/share/man/man8/other.8 "
run_make "$tmp/log" uninstall DESTDIR="$d"
expect_eq "uninstall again: nothing to do, not an error" "$?" 0 "$tmp/log"

rm -rf "$d"
run_make "$tmp/log" install DESTDIR="$d" PREFIX=/usr
expect_eq "PREFIX=/usr" "$(files_under "$d" | tr '\n' ' ')" "$(expected /usr | tr '\n' ' ')"

# An old file at the destination is replaced, with install's mode.
rm -rf "$d" && mkdir -p "$d/usr/local/sbin"
echo old >"$d/usr/local/sbin/gupstat" && chmod 0600 "$d/usr/local/sbin/gupstat"
run_make "$tmp/log" install DESTDIR="$d"
expect_eq "over an existing file: replaced, 0755" \
	"$?:$("$d/usr/local/sbin/gupstat" -V):$(stat -c %a "$d/usr/local/sbin/gupstat")" \
	"0:gupstat $version:755" "$tmp/log"

# A symlink at the destination is replaced, not written through.
rm -rf "$d" && mkdir -p "$d/usr/local/share/man/man8" "$tmp/elsewhere"
echo precious >"$tmp/elsewhere/file"
ln -s "$tmp/elsewhere/file" "$d/usr/local/share/man/man8/gupstat.8"
run_make "$tmp/log" install DESTDIR="$d"
if [ ! -L "$d/usr/local/share/man/man8/gupstat.8" ] &&
	[ "$(cat "$tmp/elsewhere/file")" = precious ] &&
	cmp -s build/man/gupstat.8 "$d/usr/local/share/man/man8/gupstat.8"; then
	ok "over a symlink: the link replaced, its target untouched"
else
	not_ok "over a symlink: $(ls -l "$d/usr/local/share/man/man8/gupstat.8"), target: $(cat "$tmp/elsewhere/file")"
fi
# ... and uninstall removes a symlink, not what it points to.
ln -sf "$tmp/elsewhere/file" "$d/usr/local/sbin/gupstat"
run_make "$tmp/log" uninstall DESTDIR="$d"
[ ! -e "$d/usr/local/sbin/gupstat" ] && [ ! -L "$d/usr/local/sbin/gupstat" ] &&
	[ "$(cat "$tmp/elsewhere/file")" = precious ] &&
	ok "uninstall of a symlink: the link goes, its target stays" ||
	not_ok "uninstall of a symlink: $(ls -l "$d/usr/local/sbin" 2>&1)"

# A directory where the binary goes: an error naming it, nothing in it.
rm -rf "$d" && mkdir -p "$d/usr/local/sbin/gupstat"
run_make "$tmp/log" install DESTDIR="$d"
rc=$?
if [ "$rc" != 0 ] && grep -q "cannot overwrite directory '$d/usr/local/sbin/gupstat'" "$tmp/log" &&
	[ -z "$(ls -A "$d/usr/local/sbin/gupstat")" ]; then
	ok "a directory at the destination: refused, named ($(grep -m1 install: "$tmp/log"))"
else
	not_ok "a directory at the destination: rc $rc, $(head -c 300 "$tmp/log")"
fi
run_make "$tmp/log" uninstall DESTDIR="$d"
rc=$?
if [ "$rc" != 0 ] && grep -q "$d/usr/local/sbin/gupstat is a directory" "$tmp/log" &&
	[ -d "$d/usr/local/sbin/gupstat" ]; then
	ok "uninstall of a directory: refused and left"
else
	not_ok "uninstall of a directory: rc $rc, $(head -c 300 "$tmp/log")"
fi
tap_done
