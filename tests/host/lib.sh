# SPDX-License-Identifier: GPL-2.0
# What every host test file starts with: TAP, the gupstat just built, and
# a scratch directory that goes at exit (a file may redefine cleanup()
# to undo more, calling rm -rf "$tmp" itself).
set -u
cd "$(dirname "$0")/../.."
. tests/lib/tap.sh

G=$PWD/build/gupstat
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gupstat-test.XXXXXX")
cleanup() {
	rm -rf "$tmp"
}
trap cleanup EXIT
