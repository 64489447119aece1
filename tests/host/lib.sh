# SPDX-License-Identifier: GPL-2.0
# What every host test file starts with: TAP, the gupstat just built, and
# a scratch directory that goes at exit (a file may redefine cleanup()
# to undo more, calling rm -rf "$tmp" itself). GUPSTAT names another
# binary to test (absolute, or relative to the source tree): make
# check's asan part runs these files again on build/asan/gupstat.
set -u
cd "$(dirname "$0")/../.."
. tests/lib/tap.sh

G=${GUPSTAT:-build/gupstat}
[[ $G == /* ]] || G=$PWD/$G
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gupstat-test.XXXXXX")
cleanup() {
	rm -rf "$tmp"
}
trap cleanup EXIT
