#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# kernel/check-messages: the series is the project's (its From: and
# Signed-off-by:, no trailer it cannot give, a Link: beside every
# Originally-by:), and on made-up patches each rule fails when broken;
# with --against, a run of eight words shared with a reference is found
# and a run of seven is not. Where shared/ sits beside the tree, as in
# CI, no message shares a run of eight words with the seeds.
. tests/host/lib.sh

me='gupstat developers <dev@gupstat.invalid>'
rik='Rik van Riel <riel@surriel.com>'

# mkpatch NAME TRAILER...: a patch in $tmp with the project's From:, a
# message of its own, the given trailers and a diff.
mkpatch() {
	local name=$1
	shift
	{
		printf 'From 0 Mon Sep 17 00:00:00 2001\nFrom: %s\n' "${FROM:-$me}"
		printf 'Date: Fri, 4 Dec 2026 12:00:00 +0000\nSubject: [PATCH] mm/gup: a test\n\n'
		printf '%s\n' "${BODY:-The walk counts its pages before it returns them to the caller.}" ''
		printf '%s\n' "$@"
		printf -- '---\ndiff --git a/mm/gup.c b/mm/gup.c\n'
	} >"$tmp/$name.patch"
}

# check PATCH [ARGS...]: the problems kernel/check-messages finds, one a line.
check() {
	local p=$1
	shift
	kernel/check-messages "$@" "$tmp/$p.patch" >"$tmp/out" 2>&1
	echo "rc $?: $(wc -l <"$tmp/out") problems"
}

out=$(kernel/check-messages 2>&1)
rc=$?
expect_eq "kernel/patches, local/ and variants/ are the project's" "rc $rc: ${out:-no problems}" "rc 0: no problems"

mkpatch good "Originally-by: $rik" "Link: https://lore.kernel.org/r/x@y/" "Signed-off-by: $me"
expect_eq "a port that credits its design passes" "$(check good)" "rc 0: 0 problems" "$tmp/out"

FROM=$rik mkpatch from "Signed-off-by: $me"
expect_eq "From: someone else fails" "$(check from)" "rc 1: 1 problems" "$tmp/out"
grep -q "From: is '$rik'" "$tmp/out" && ok "the From: problem names who" || not_ok "From: problem: $(cat "$tmp/out")"

mkpatch signoff "Signed-off-by: $rik" "Signed-off-by: $me"
expect_eq "someone else's Signed-off-by: fails" "$(check signoff)" "rc 1: 1 problems" "$tmp/out"

mkpatch nosignoff
expect_eq "no Signed-off-by: of the project fails" "$(check nosignoff)" "rc 1: 1 problems" "$tmp/out"

for tag in Assisted Suggested Reviewed Acked Tested; do
	mkpatch "$tag" "$tag-by: $rik" "Signed-off-by: $me"
	expect_eq "the trailer $tag-by: fails" "$(check "$tag")" "rc 1: 1 problems" "$tmp/out"
done

mkpatch nolink "Originally-by: $rik" "Signed-off-by: $me"
expect_eq "Originally-by: without a Link: fails" "$(check nolink)" "rc 1: 1 problems" "$tmp/out"

# Eight words in common, then seven: the rule is a run of eight.
echo 'Here the posting says that one lookup returns every page of the table at once.' >"$tmp/ref.txt"
BODY='We found that one lookup returns every page of the table, measured.' mkpatch eight "Signed-off-by: $me"
expect_eq "a run of eight words from a reference is found" "$(check eight --against "$tmp/ref.txt")" "rc 1: 1 problems" "$tmp/out"
grep -q "one lookup returns every page of the table" "$tmp/out" && ok "the shared run is shown" ||
	not_ok "shared run not shown: $(cat "$tmp/out")"
BODY='We found that one lookup returns every page of it, measured.' mkpatch seven "Signed-off-by: $me"
expect_eq "a run of seven words is not" "$(check seven --against "$tmp/ref.txt")" "rc 0: 0 problems" "$tmp/out"
BODY='HERE, the posting says: "that one lookup returns every page"!' mkpatch punct "Signed-off-by: $me"
expect_eq "case and punctuation do not hide a run" "$(check punct --against "$tmp/ref.txt")" "rc 1: 1 problems" "$tmp/out"

fails_with "an unreadable reference is refused" 2 "cannot read" kernel/check-messages --against "$tmp/none"
fails_with "a directory as reference is refused" 2 "cannot read" kernel/check-messages --against "$tmp"

seeds=../shared/seeds
if [ -d "$seeds" ]; then
	args=()
	for f in "$seeds"/*; do args+=(--against "$f"); done
	out=$(kernel/check-messages "${args[@]}" 2>&1)
	rc=$?
	expect_eq "no message shares eight words with shared/seeds" "rc $rc: ${out:-none}" "rc 0: none"
else
	skip "no shared/seeds beside the tree to compare the messages with"
fi
tap_done
