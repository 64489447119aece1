#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make install and make uninstall under a DESTDIR with a space in it:
# the static binary, every man page, the completion, the systemd unit,
# its options file and the JSON schemas go where the docs (and for the
# schemas, --help) say and nowhere else, and
# uninstall takes exactly those away. The unit passes systemd-analyze
# verify against the installed tree and is not enabled; an options file
# already there, or edited, is the administrator's and stays.
# What is already at a destination is met as install(1) meets it: a
# file or a symlink is replaced (the link's target left alone), a
# directory is an error that names it. README and install.md name every
# man page installed.
. tests/host/lib.sh

version=$(sed -n 's/^#define GUPSTAT_VERSION\t"\(.*\)"$/\1/p' src/util/version.h)
d="$tmp/dest dir"

# files_under DIR: every file and symlink, relative, sorted.
files_under() {
	(cd "$1" && find . ! -type d | sed 's|^\./||' | sort)
}

# The files the docs promise under PREFIX $1, the unit in $2 (default
# PREFIX/lib/systemd/system).
expected() {
	local f unitdir=${2:-$1/lib/systemd/system}

	{
		echo "${1#/}/sbin/gupstat"
		echo "${1#/}/share/bash-completion/completions/gupstat"
		for f in man/*.8.scd; do
			echo "${1#/}/share/man/man8/$(basename "$f" .scd)"
		done
		echo "${unitdir#/}/gupstat.service"
		echo "etc/default/gupstat"
		for f in docs/schemas/*.schema.json; do
			echo "${1#/}/share/gupstat/schemas/$(basename "$f")"
		done
	} | sort
}

# verify_unit ROOT NAME: systemd-analyze verify of unit NAME as systemd
# would find it in ROOT, a copy of an installed tree given this host's
# own units (sysinit.target and the rest its dependencies name): its
# output, which is empty when the unit is clean (an unknown key is only
# a warning, exit 0). The man page is looked up in ROOT too.
verify_unit() {
	local root=$1

	mkdir -p "$root/lib/systemd" && cp -a /lib/systemd/system "$root/lib/systemd/"
	MANPATH=$root/usr/local/share/man:$root/usr/share/man \
		systemd-analyze verify --root="$root" "$2" 2>&1
	echo "rc $?"
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
expect_eq "it installs the binary, every page, the completion, the unit and its options file, nothing else" \
	"$(files_under "$d" | tr '\n' ' ')" "$(expected /usr/local | tr '\n' ' ')"
# The pages README and install.md name are the pages installed.
pages=$(cd "$d/usr/local/share/man/man8" && ls | sed 's/\.8$//' | sort | tr '\n' ' ')
expect_eq "README names every installed man page" "$(sed -n 's/^ *man gupstat *# and //p' README.md |
	tr -d ' ' | tr ',' '\n' | sed 's/^-/gupstat-/; 1i gupstat' | sort | tr '\n' ' ')" "$pages"
expect_eq "install.md names every installed man page" "$(grep 'share/man/man8' docs/install.md |
	grep -o '`gupstat[a-z-]*(8)`' | tr -d '`' | sed 's/(8)$//' | sort | tr '\n' ' ')" "$pages"
bin="$d/usr/local/sbin/gupstat"
expect_eq "the installed gupstat runs" "$("$bin" --version 2>&1)" "gupstat $version"
# Static: no interpreter, no library needed.
if readelf -lW "$bin" | grep -q INTERP || readelf -dW "$bin" | grep -q NEEDED; then
	not_ok "the installed gupstat is static: $(readelf -dW "$bin" | grep NEEDED | head -n3)"
else
	ok "the installed gupstat is static (no INTERP, no NEEDED)"
fi
expect_eq "binary mode" "$(stat -c %a "$bin")" 755
expect_eq "report and compare --help name the schemas install put there" \
	"$(schemas_named "$d" "$bin" | tr '\n' ' ')" \
	"report: /usr/local/share/gupstat/schemas/report.schema.json compare: /usr/local/share/gupstat/schemas/compare.schema.json "
expect_eq "schema mode" "$(stat -c %a "$d/usr/local/share/gupstat/schemas/report.schema.json")" 644
expect_eq "page mode" "$(stat -c %a "$d/usr/local/share/man/man8/gupstat.8")" 644
MANWIDTH=80 man --warnings -l "$d/usr/local/share/man/man8/gupstat-trace.8" 2>&1 >/dev/null |
	head -c 300 >"$tmp/warn"
expect_eq "the installed page renders without a warning" "$(cat "$tmp/warn")" ""

unit=$d/usr/local/lib/systemd/system/gupstat.service
expect_eq "unit and options file mode" \
	"$(stat -c %a "$unit") $(stat -c %a "$d/etc/default/gupstat")" "644 644"
expect_eq "the unit runs the installed gupstat" "$(grep '^ExecStart=' "$unit")" \
	'ExecStart=/usr/local/sbin/gupstat serve $GUPSTAT_SERVE_OPTS'
# The options file's own line, as systemd's EnvironmentFile= reads it.
expect_eq "the options file's active line" "$(grep -v '^#' "$d/etc/default/gupstat")" \
	'GUPSTAT_SERVE_OPTS="-e none --per-cgroup"'
for opt in $(sed -n 's/^GUPSTAT_SERVE_OPTS="\(.*\)"$/\1/p' "$d/etc/default/gupstat"); do
	case $opt in
	-*) "$bin" serve --help | grep -qE -- "(^| )${opt%%=*}[ ,=]" &&
		ok "gupstat serve takes the options file's $opt" ||
		not_ok "gupstat serve --help has no $opt, which the options file sets" ;;
	esac
done
if command -v systemd-analyze >/dev/null; then
	v=$tmp/verify
	rm -rf "$v" && cp -a "$d" "$v"
	expect_eq "systemd-analyze verify of the installed unit: clean" \
		"$(verify_unit "$v" gupstat.service)" "rc 0"
	# The check can fail: a missing binary, and a misspelled key.
	rm "$v/usr/local/sbin/gupstat"
	verify_unit "$v" gupstat.service >"$tmp/vlog"
	grep -q 'Command /usr/local/sbin/gupstat is not executable' "$tmp/vlog" &&
		ok "verify: a unit whose gupstat is missing fails" ||
		not_ok "verify without the binary: $(head -c 300 "$tmp/vlog")"
	rm -rf "$v" && cp -a "$d" "$v"
	sed -i 's/^NoNewPrivileges=/NoNewPrivilege=/' "$v/usr/local/lib/systemd/system/gupstat.service"
	verify_unit "$v" gupstat.service >"$tmp/vlog"
	grep -q "Unknown key 'NoNewPrivilege'" "$tmp/vlog" &&
		ok "verify: a misspelled key is reported" ||
		not_ok "verify of a misspelled key: $(head -c 300 "$tmp/vlog")"
	systemctl --root="$d" is-enabled gupstat.service >"$tmp/en" 2>&1
	expect_eq "not enabled after install" "$(cat "$tmp/en")" disabled
	# Nothing beside the unit: no .wants link, no preset applied.
	expect_eq "no link to it anywhere" "$(find "$d" -type l | wc -l)" 0
else
	skip "no systemd-analyze: run make deps"
fi

# An options file already there is kept, and an edited one outlives
# uninstall; an unedited one goes with the rest (below).
echo 'GUPSTAT_SERVE_OPTS="-e cycles"' >"$tmp/mine"
cp "$tmp/mine" "$d/etc/default/gupstat"
run_make "$tmp/log" install DESTDIR="$d"
expect_eq "install again: the administrator's options file kept" \
	"$?:$(cat "$d/etc/default/gupstat")" "0:$(cat "$tmp/mine")" "$tmp/log"
run_make "$tmp/log" uninstall DESTDIR="$d"
expect_eq "uninstall: an edited options file stays" \
	"$?:$(files_under "$d" | tr '\n' ' ')" "0:etc/default/gupstat " "$tmp/log"
rm -rf "$d"
run_make "$tmp/log" install DESTDIR="$d"

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
unitdir=$(pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null)
expect_eq "PREFIX=/usr, the unit where systemd.pc says" "$(files_under "$d" | tr '\n' ' ')" \
	"$(expected /usr "${unitdir:-/lib/systemd/system}" | tr '\n' ' ')"
expect_eq "PREFIX=/usr: --help names the schemas there" \
	"$(schemas_named "$d" "$d/usr/sbin/gupstat" | tr '\n' ' ')" \
	"report: /usr/share/gupstat/schemas/report.schema.json compare: /usr/share/gupstat/schemas/compare.schema.json "
expect_eq "PREFIX=/usr: the unit runs /usr/sbin/gupstat" \
	"$(grep -h '^ExecStart=' "$d${unitdir:-/lib/systemd/system}/gupstat.service")" \
	'ExecStart=/usr/sbin/gupstat serve $GUPSTAT_SERVE_OPTS'

# An SBINDIR that systemd would split or expand: refused, by name.
rm -rf "$d"
run_make "$tmp/log" install DESTDIR="$d" SBINDIR='/opt/my tools'
rc=$?
[ "$rc" != 0 ] && grep -q "SBINDIR '/opt/my tools' cannot be named" "$tmp/log" &&
	[ ! -e "$d/usr/local/lib/systemd/system/gupstat.service" ] &&
	ok "an SBINDIR with a space: refused, no unit written" ||
	not_ok "SBINDIR with a space: rc $rc, $(head -c 300 "$tmp/log")"

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
