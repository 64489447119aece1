# SPDX-License-Identifier: GPL-2.0
# make help: one line per target, from the Makefiles' own comments. In
# each file, `##@ Heading` starts a group and a `## text` line is the
# line of the target on the next line. Groups print in the order given
# (any other after them, as first seen), each group's targets in the
# order of the files. A `## text` line that is empty, above anything but
# a target or under no heading of its file fails, so that what help
# prints is every such comment and only them.
#   awk -v order='Heading:Heading...' -f mk/help.awk Makefile mk/*.mk

function fail(where, what) {
	printf "%s: make help: %s\n", where, what >"/dev/stderr"
	failed = 1
	exit 1
}

function add(group, target, text) {
	if (!(group in count)) {
		count[group] = 0
		seen[++ngroups] = group
	}
	count[group]++
	targets[group, count[group]] = target
	texts[group, count[group]] = text
}

# Two spaces, the target padded to 17 columns (two spaces after a longer
# one), the text.
function print_group(group,	i, t) {
	if (!(group in count) || (group in printed))
		return
	printed[group] = 1
	print group ":"
	for (i = 1; i <= count[group]; i++) {
		t = targets[group, i]
		if (length(t) < 17)
			printf "  %-16s %s\n", t, texts[group, i]
		else
			printf "  %s  %s\n", t, texts[group, i]
	}
}

function trim(s) {
	sub(/^[ \t]+/, "", s)
	sub(/[ \t]+$/, "", s)
	return s
}

FNR == 1 {
	if (text != "")
		fail(at, "a ## line at the end of its file, above no target")
	heading = ""
}

text != "" {
	if (!match($0, /^[a-z][a-z0-9-]*:/))
		fail(at, "a ## line above no target")
	add(heading, substr($0, 1, RLENGTH - 1), text)
	text = ""
}

/^##@/ {
	heading = trim(substr($0, 4))
	if (heading == "")
		fail(FILENAME ":" FNR, "a ##@ line with no heading")
	next
}

/^##/ {
	at = FILENAME ":" FNR
	text = trim(substr($0, 3))
	if (text == "")
		fail(at, "a ## line with no text")
	if (heading == "")
		fail(at, "a ## line under no ##@ heading of its file")
	next
}

END {
	if (failed)
		exit 1
	if (text != "")
		fail(at, "a ## line at the end of its file, above no target")
	n = split(order, o, ":")
	for (i = 1; i <= n; i++)
		print_group(o[i])
	for (i = 1; i <= ngroups; i++)
		print_group(seen[i])
}
