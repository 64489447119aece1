#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The man pages: one per subcommand main.c dispatches, each with the
# sections users look for, rendered by man without a warning, and
# documenting exactly the options --help prints. The checker is shown
# to fail on each kind of drift, on copies: an option in a page only,
# in --help only, a value named differently, a subcommand with no page.
. tests/host/lib.sh

check=tools/check-man-options

if [ ! -x "$G" ] || ! command -v scdoc >/dev/null || ! command -v man >/dev/null; then
	skip "needs $G, scdoc and man: run make deps and make"
	tap_done
fi

# expect_drift NAME PATTERN MANDIR [GUPSTAT] [MAIN.C]: the checker exits
# 1 and names the drift.
expect_drift() {
	local name=$1 pattern=$2 dir=$3 g=${4:-$G} main_c=${5:-src/main.c} rc
	"$check" "$g" "$dir" "$main_c" >"$tmp/drift" 2>&1
	rc=$?
	if [ "$rc" = 1 ] && grep -Eq -- "$pattern" "$tmp/drift"; then
		ok "$name: $(head -n1 "$tmp/drift")"
	else
		not_ok "$name: rc $rc, said: $(head -c 300 "$tmp/drift")"
	fi
}

# fresh_copy: the pages as they are, to mutate.
fresh_copy() {
	rm -rf "$tmp/man" && cp -r man "$tmp/man"
}

"$check" "$G" man >"$tmp/out" 2>&1
expect_eq "every page lists the options --help prints" "$?" 0 "$tmp/out"
# ... for every subcommand in main.c's table (live is gupstat(8)).
missing=""
for s in live trace report validate compare; do
	grep -q "^man pages agree with --help:.* $s\b" "$tmp/out" || missing="$missing $s"
done
expect_eq "checked: $(cat "$tmp/out")" "$missing" ""

for f in man/*.scd; do
	missing=""
	for s in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" FILES EXAMPLES "SEE ALSO"; do
		grep -qx "# $s" "$f" || missing="$missing '$s'"
	done
	expect_eq "$f has every section" "$missing" ""
done
grep -q "upper bound" man/gupstat.8.scd && grep -q "CONFIG_DEBUG_INFO_BTF" man/gupstat.8.scd &&
	ok "gupstat(8) says what upper bound means and what the kernel needs" ||
	not_ok "gupstat(8) lacks the upper bound or the kernel's requirements"

# Rendered as make install renders them, then read as man reads them.
make -s --no-print-directory man >"$tmp/make" 2>&1
expect_eq "make man" "$?" 0 "$tmp/make"
for f in man/*.scd; do
	page=build/man/$(basename "$f" .scd)
	MANWIDTH=80 man --warnings -l "$page" >"$tmp/page" 2>"$tmp/warn"
	rc=$?
	if [ "$rc" = 0 ] && [ ! -s "$tmp/warn" ] && grep -q "^NAME" "$tmp/page"; then
		ok "man --warnings -l $page: no warning"
	else
		not_ok "man --warnings -l $page: rc $rc, $(head -c 300 "$tmp/warn")"
	fi
done
# Without scdoc the build says what to install, before anything else.
make -s --no-print-directory OUT="$tmp/nobuild" SCDOC=no-such-scdoc man >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" != 0 ] && grep -q "^no-such-scdoc not found: run 'make deps' (Debian: scdoc)$" "$tmp/err" &&
	ok "make man without scdoc: rc $rc, $(head -n1 "$tmp/err")" ||
	not_ok "make man without scdoc: rc $rc, $(head -c 300 "$tmp/err")"
# The warning check can fail: a request groff does not know.
printf '.TH X 8\n.SH NAME\nx\n.frobnicate\n' >"$tmp/bad.8"
MANWIDTH=80 man --warnings -l "$tmp/bad.8" >/dev/null 2>"$tmp/warn"
[ -s "$tmp/warn" ] && ok "man --warnings reports a bad page: $(head -n1 "$tmp/warn")" ||
	not_ok "man --warnings said nothing about an unknown request"

# Drift, each kind, on copies.
fresh_copy
printf '*--frobnicate*\n\tNot an option.\n\n' >"$tmp/extra"
sed -i '/^# OPTIONS$/r '"$tmp/extra" "$tmp/man/gupstat-trace.8.scd"
expect_drift "an option in the page only" "trace: '--frobnicate' in .* but not in --help" "$tmp/man"

fresh_copy
sed -i '/^\*-n\*, \*--top\*=_N_$/d' "$tmp/man/gupstat-report.8.scd"
expect_drift "an option in --help only" "report: '-n, --top=N' in --help but not in" "$tmp/man"

fresh_copy
sed -i 's/^\*-o\*, \*--output\*=_FILE_$/*-o*, *--output*=_PATH_/' "$tmp/man/gupstat-validate.8.scd"
expect_drift "a value named differently" "validate: '-o, --output=PATH' in .* but not in --help" "$tmp/man"

fresh_copy
sed -i 's/^\*-P\*, \*--per-process\*$/*--per-process*/' "$tmp/man/gupstat.8.scd"
expect_drift "a short option missing" "live: '-P, --per-process' in --help" "$tmp/man"

# An option added to the table: --help grows a line the pages lack.
fresh_copy
cat >"$tmp/gupstat" <<-END
	#!/bin/sh
	"$G" "\$@"
	[ "\$1" = compare ] && echo "      --frobnicate           a new option"
	exit 0
END
chmod +x "$tmp/gupstat"
expect_drift "an option added to --help only" "compare: '--frobnicate' in --help but not in" \
	"$tmp/man" "$tmp/gupstat"

# A new subcommand without a page, and a page without a subcommand.
sed 's/^\t{ "compare", cmd_compare,.*/&\n\t{ "frob", cmd_compare, "" },/' src/main.c >"$tmp/main.c"
expect_drift "a subcommand with no page" "frob: no man page" "$tmp/man" "$G" "$tmp/main.c"
echo 'static const struct command commands[] = {};' >"$tmp/main.c"
expect_drift "a main.c without the table" "no subcommands found" "$tmp/man" "$G" "$tmp/main.c"
cp man/gupstat-compare.8.scd "$tmp/man/gupstat-old.8.scd"
expect_drift "a page with no subcommand" "gupstat-old.8.scd: no subcommand 'old'" "$tmp/man"
tap_done
