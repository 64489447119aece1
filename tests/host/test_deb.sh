#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make deb's package: built by dpkg-buildpackage, versioned from
# version.h, depending on nothing (a static-pie binary), lintian clean,
# and installed into a scratch root with dpkg --root, where gupstat and
# man read every page and the service is there, disabled and stopped,
# with its options file a conffile, then purged leaving nothing of it
# behind.
. tests/host/lib.sh

for t in dpkg-buildpackage dh lintian scdoc man; do
	if ! command -v $t >/dev/null; then
		skip "no $t: run make deps"
		tap_done
	fi
done

version=$(sed -n 's/^#define GUPSTAT_VERSION\t"\(.*\)"$/\1/p' src/util/version.h)
out=$tmp/deb
deb=$out/gupstat_${version}_amd64.deb
root=$tmp/root

# A dpkg database of nothing, the least dpkg --root works with.
empty_root() {
	mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/triggers"
	touch "$root/var/lib/dpkg/status" "$root/var/lib/dpkg/available"
}

# Every path under the root but dpkg's own database.
tree() {
	(cd "$root" && find . | grep -v '^\./var/lib/dpkg/' | sort)
}

tools/deb "$out" >"$tmp/log" 2>&1
expect_eq "tools/deb (dpkg-buildpackage, lintian --fail-on error,warning)" "$?" 0 "$tmp/log"
if [ ! -f "$deb" ]; then
	not_ok "no $deb"
	tap_done
fi
expect_eq "package version is version.h's" "$(dpkg-deb -f "$deb" Version)" "$version"
expect_eq "it depends on nothing" "$(dpkg-deb -f "$deb" Depends)" ""
dpkg-deb -f "$deb" Built-Using | grep -q 'glibc (= ' && ok "Built-Using names glibc" ||
	not_ok "Built-Using: '$(dpkg-deb -f "$deb" Built-Using)'"
lintian --fail-on error,warning "$deb" >"$tmp/lintian" 2>&1
expect_eq "lintian: no error, no warning" "$?:$(grep -cE '^[EW]: ' "$tmp/lintian")" "0:0" \
	"$tmp/lintian"

# The service: shipped, never enabled or started by the package.
dpkg-deb -c "$deb" | awk '$6 == "./lib/systemd/system/gupstat.service" { print $1 }' >"$tmp/unit"
expect_eq "the unit is in the package, 0644" "$(cat "$tmp/unit")" "-rw-r--r--"
dpkg-deb --ctrl-tarfile "$deb" | tar -xf - -C "$tmp" ./conffiles ./postinst
expect_eq "/etc/default/gupstat is a conffile" "$(cat "$tmp/conffiles")" /etc/default/gupstat
# debhelper's snippet for --no-enable --no-start starts nothing, and
# enables the unit only where the administrator had (was-enabled, on an
# upgrade); that a fresh install leaves it disabled is checked below,
# on the installed root.
if grep -nE 'deb-systemd-invoke|systemctl.* (start|restart)' "$tmp/postinst" >"$tmp/bad"; then
	not_ok "the postinst starts it: $(head -c 300 "$tmp/bad")"
else
	ok "the postinst starts nothing"
fi
grep -B3 "deb-systemd-helper enable 'gupstat.service'" "$tmp/postinst" | grep -q was-enabled &&
	ok "the postinst enables it only where it was enabled before" ||
	not_ok "the postinst's enable: $(grep -B3 'deb-systemd-helper enable' "$tmp/postinst" | head -c 300)"

empty_root
before=$(tree)
# Chrootless: the scratch root has no shell to run the postinst in;
# deb-systemd-helper acts on DPKG_ROOT, the scratch root, alone.
dpkg --root="$root" --log=/dev/null --force-script-chrootless -i "$deb" >"$tmp/log" 2>&1
expect_eq "dpkg --root -i" "$?" 0 "$tmp/log"
expect_eq "gupstat --version from the root" "$("$root/usr/sbin/gupstat" --version)" \
	"gupstat $version"
pages=0
for f in man/*.8.scd; do
	page=$root/usr/share/man/man8/$(basename "$f" .scd).gz
	MANWIDTH=80 man --warnings -l "$page" >"$tmp/page" 2>"$tmp/warn"
	rc=$?
	if [ "$rc" = 0 ] && [ ! -s "$tmp/warn" ] && grep -q "^NAME" "$tmp/page"; then
		pages=$((pages + 1))
	else
		not_ok "man -l $page: rc $rc, $(head -c 300 "$tmp/warn")"
	fi
done
expect_eq "man --warnings -l reads every page from the root" "$pages" "$(ls man/*.8.scd | wc -l)"
[ -f "$root/usr/share/bash-completion/completions/gupstat" ] && ok "the completion is installed" ||
	not_ok "no completion in the package"
expect_eq "report and compare --help name the package's schemas" \
	"$(schemas_named "$root" "$root/usr/sbin/gupstat" | tr '\n' ' ')" \
	"report: /usr/share/gupstat/schemas/report.schema.json compare: /usr/share/gupstat/schemas/compare.schema.json "

expect_eq "the options file installed" "$(grep -v '^#' "$root/etc/default/gupstat")" \
	'GUPSTAT_SERVE_OPTS="-e none --per-cgroup"'
expect_eq "the unit runs the package's gupstat" \
	"$(grep '^ExecStart=' "$root/lib/systemd/system/gupstat.service")" \
	'ExecStart=/usr/sbin/gupstat serve $GUPSTAT_SERVE_OPTS'
expect_eq "no .wants link: not enabled" \
	"$(find "$root/etc" -name '*.wants' -o -name 'gupstat.service' -type l | wc -l)" 0
if command -v systemctl >/dev/null; then
	systemctl --root="$root" is-enabled gupstat.service >"$tmp/en" 2>&1
	expect_eq "systemctl --root is-enabled" "$(cat "$tmp/en")" disabled
fi

dpkg --root="$root" --log=/dev/null --force-script-chrootless --purge gupstat >"$tmp/log" 2>&1
expect_eq "dpkg --root --purge" "$?" 0 "$tmp/log"
# deb-systemd-helper's state directory's parent, empty, is left (on a
# machine it is systemd's own): it alone.
if [ -d "$root/var/lib/systemd" ] && [ -z "$(ls -A "$root/var/lib/systemd")" ]; then
	rmdir "$root/var/lib/systemd"
fi
expect_eq "nothing of it left behind" "$(tree | tr '\n' ' ')" "$(echo "$before" | tr '\n' ' ')"
left=$(find "$root/var/lib/dpkg/info" -name 'gupstat.*' | wc -l)
expect_eq "dpkg knows it no more" "$left" 0
tap_done
