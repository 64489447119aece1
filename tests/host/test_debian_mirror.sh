#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/lib/debian-mirror.sh: the Debian archive is the one apt's sources
# name, in both formats, past other vendors' repositories and disabled
# stanzas; GUPSTAT_DEBIAN_MIRROR overrides; with no Debian source the
# last resort is Debian's own redirector.
. tests/host/lib.sh

# mirror [VAR=VALUE...]: "ARCHIVE SECURITY" as the helper sees them.
mirror() {
	env "$@" bash -c '. tools/lib/debian-mirror.sh; echo "$(debian_archive) $(debian_security)"'
}

cat >"$tmp/vendor.list" <<'LIST'
# a vendor's repository, whose suite only looks like a code name
deb https://vendor.example/apt cloud-sdk-bookworm main
LIST
cat >"$tmp/one.list" <<'LIST'
deb [ arch=amd64 signed-by=/k.gpg ] http://m.example/debian/ bookworm main  # trailing
deb-src http://m.example/debian bookworm main
deb http://s.example/debian-security bookworm-security main
LIST
cat >"$tmp/stanzas.sources" <<'LIST'
Types: deb
URIs: https://node.example/node_20.x
Suites: nodistro

Types: deb deb-src
Enabled: no
URIs: http://off.example/debian
Suites: sid

# Debian's, as the image's own debian.sources has it
Types: deb
URIs: http://d.example/debian http://e.example/debian
Suites: trixie trixie-updates
Components: main
LIST

expect_eq "one-line sources: options and comments dropped" \
	"$(mirror GUPSTAT_APT_SOURCES="$tmp/vendor.list $tmp/one.list")" \
	"http://m.example/debian http://s.example/debian-security"
expect_eq "deb822 stanzas: the first enabled Debian one, its security beside it" \
	"$(mirror GUPSTAT_APT_SOURCES="$tmp/stanzas.sources $tmp/one.list")" \
	"http://d.example/debian http://s.example/debian-security"
expect_eq "no security source: the one beside the archive" \
	"$(mirror GUPSTAT_APT_SOURCES="$tmp/stanzas.sources")" \
	"http://d.example/debian http://d.example/debian-security"
expect_eq "GUPSTAT_DEBIAN_MIRROR overrides apt's sources" \
	"$(mirror GUPSTAT_APT_SOURCES="$tmp/one.list" GUPSTAT_DEBIAN_MIRROR=http://own.example/)" \
	"http://own.example/debian http://own.example/debian-security"
expect_eq "no Debian source at all: Debian's redirector" \
	"$(mirror GUPSTAT_APT_SOURCES="$tmp/vendor.list $tmp/missing.list")" \
	"http://deb.debian.org/debian http://deb.debian.org/debian-security"

# The machine's own configuration, whatever it names, gives an archive.
out=$(mirror)
[[ $out == *://*" "*://* ]] && ok "this machine's apt sources: $out" ||
	not_ok "this machine's apt sources gave '$out'"

# No fetching script names a host of its own.
hosts=$(grep -l 'deb\.debian\.org' tools/debian-kernel tools/arm64-root tools/qemu-plugin-header)
expect_eq "the fetching scripts take the archive from the helper" "${hosts:-none}" none

tap_done
