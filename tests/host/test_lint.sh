#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make lint within make check: each shell script git tracks is clean
# at shellcheck's warning level (tools/lint). Prints TAP.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/tap.sh

if ! command -v shellcheck >/dev/null; then
	not_ok "shellcheck is missing (tools/deps installs it)"
	tap_done
fi
n=0
while IFS= read -r f; do
	n=$((n + 1))
	if out=$(shellcheck -S warning -x -f gcc "$f" 2>&1); then
		ok "shellcheck: $f"
	else
		not_ok "shellcheck: $f: $(echo "$out" | head -n3 | tr '\n' ' ')"
	fi
done < <(tools/lint --list)
[ "$n" -ge 50 ] && ok "tools/lint found $n scripts" || not_ok "tools/lint found only $n scripts"
tap_done
