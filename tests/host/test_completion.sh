#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The bash completion, driven as bash drives it: subcommands as main.c
# dispatches them, each one's options as its --help lists them, and the
# values: files for -o, PIDs for -p, cgroup directories for -c, and for
# -e perf event names, each one the parser takes.
. tests/host/lib.sh

bc=/usr/share/bash-completion/bash_completion
if [ ! -x "$G" ] || [ ! -r "$bc" ]; then
	skip "needs $G and bash-completion: run make deps and make"
	tap_done
fi

# complete WORD...: what TAB offers after WORDs (the last one is being
# typed), one a line, sorted. Runs in a fresh bash, gupstat on PATH.
complete_words() {
	bash -c '
		. "$1"; . completion/gupstat; shift
		COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_gupstat gupstat "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}"' bash "$bc" "$@" 2>/dev/null | sort -u
}

# offers NAME WANT WORD...: TAB after WORDs offers WANT among the rest.
offers() {
	local name=$1 want=$2
	shift 2
	complete_words "$@" >"$tmp/got"
	if grep -qxF -- "$want" "$tmp/got"; then
		ok "$name: offers $want"
	else
		not_ok "$name: no '$want' in: $(head -n 20 "$tmp/got" | tr '\n' ' ')"
	fi
}

export PATH="$PWD/build:$PATH"

subs=$(sed -nE 's/^[[:space:]]*\{ "([a-z][a-z0-9-]*)", cmd_.*/\1/p' src/main.c | sort | tr '\n' ' ')
expect_eq "subcommands offered are main.c's and help" \
	"$(complete_words gupstat "" | tr '\n' ' ')" "$(echo $subs help | tr ' ' '\n' | sort | tr '\n' ' ')"
expect_eq "help SUB<TAB>: main.c's subcommands" "$(complete_words gupstat help "" | tr '\n' ' ')" "$subs"
expect_eq "help SUB <TAB>: nothing more" "$(complete_words gupstat help trace "" | grep -c .)" 0
expect_eq "a prefix" "$(complete_words gupstat tr | tr '\n' ' ')" "trace "

# Every option --help lists, for every subcommand, and no other.
for sub in "" serve trace report validate compare; do
	want=$($G $sub --help | sed -nE 's/^ {2,6}(-[^ ].*)$/\1/p' | sed -E 's/  .*//; s/=.*//' |
		tr ',' '\n' | sed 's/^ *//' | sort -u | tr '\n' ' ')
	expect_eq "gupstat${sub:+ $sub} -<TAB>: its --help's options" \
		"$(complete_words gupstat $sub - | tr '\n' ' ')" "$want"
done
offers "trace --no<TAB>" --no-stacks gupstat trace --no
offers "trace --q<TAB>" --quiet gupstat trace --q

# Values.
touch "$tmp/holds.gt"
offers "trace -o: files" "$tmp/holds.gt" gupstat trace -o "$tmp/ho"
offers "report FILE" "$tmp/holds.gt" gupstat report "$tmp/"
offers "-p: PIDs" "$$" gupstat -p ""
if [ -d /sys/fs/cgroup ]; then
	d=$(find /sys/fs/cgroup -mindepth 1 -maxdepth 1 -type d | head -n1)
	if [ -n "$d" ]; then
		offers "-c: cgroup directories" "$d/" gupstat -c ""
	else
		skip "no directory under /sys/fs/cgroup"
	fi
else
	skip "no /sys/fs/cgroup"
fi
offers "validate: the claim" unpin gupstat validate ""
offers "-e: LLC-load-misses" LLC-load-misses gupstat -e LLC-l
# perf's spelling, which an older table misspelt LLC-prefetchs
complete_words gupstat -e LLC-pr >"$tmp/got"
expect_eq "-e: LLC-pr offers perf's names only" "$(tr '\n' ' ' <"$tmp/got")" \
	"LLC-prefetch-misses LLC-prefetches "
offers "after --: commands" bash gupstat -- bas

# -e: every name kernel/pmu_names.c's table holds (but those that count
# nothing) is offered, and every name offered is one the parser takes.
complete_words gupstat -e "" >"$tmp/events"
missing=""
for e in $(grep -v false src/kernel/pmu_names.c |
	sed -nE 's/^[[:space:]]*\{ "([^"]+)", (NULL|"([^"]+)"),.*/\1 \3/p'); do
	grep -qxF "$e" "$tmp/events" || missing="$missing $e"
done
expect_eq "-e offers every event in kernel/pmu_names.c's table" "$missing" ""
refused=""
while read -r e; do
	$G -e "$e" --help >/dev/null 2>&1 || refused="$refused $e"
done <"$tmp/events"
expect_eq "gupstat takes every event -e offers ($(wc -l <"$tmp/events") of them)" "$refused" ""
tap_done
