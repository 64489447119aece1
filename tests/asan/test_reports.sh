#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The asan part's last file (tests/asan/run): the binary under test is
# the sanitized one, and no sanitizer wrote a report while the files
# before this one ran (ASAN_REPORTS, where log_path sent them).
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/tap.sh
dir=${ASAN_REPORTS:?run by tests/asan/run}

# help=1 makes the ASan runtime list its flags: only a sanitized binary.
if ASAN_OPTIONS=help=1 build/asan/gupstat --version 2>&1 | grep -q 'AddressSanitizer'; then
	ok "build/asan/gupstat has the ASan runtime"
else
	not_ok "build/asan/gupstat is not built with ASan"
fi
if nm build/asan/gupstat | grep -q __ubsan_handle_; then
	ok "build/asan/gupstat has UBSan checks"
else
	not_ok "build/asan/gupstat has no UBSan check"
fi

n=$(find "$dir" -type f | wc -l)
if [ "$n" = 0 ]; then
	ok "no ASan, UBSan or LeakSanitizer report"
else
	not_ok "$n sanitizer reports in $dir:"
	for f in $(find "$dir" -type f | sort | head -5); do
		echo "# $f:"
		grep -E 'ERROR|SUMMARY|runtime error|#[0-9] ' "$f" | head -12 | diag
	done
fi
tap_done
