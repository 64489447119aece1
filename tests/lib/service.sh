# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# contrib/systemd/gupstat.service read as systemd reads it, for running
# its ExecStart= by hand with exactly its capabilities: on the host,
# which refuses tracing, and in a guest whose PID 1 is not systemd.

UNIT=${UNIT:-contrib/systemd/gupstat.service}
DEFAULTS=${DEFAULTS:-contrib/default/gupstat}
# A uid of DynamicUser='s range (61184-65519), no user's.
UNIT_UID=61184

# unit_key KEY: the value of KEY= in the unit (the last, as systemd).
unit_key() {
	sed -n "s/^$1=//p" "$UNIT" | tail -n1
}

# unit_opts: GUPSTAT_SERVE_OPTS as the options file sets it.
unit_opts() {
	sed -n 's/^GUPSTAT_SERVE_OPTS="\(.*\)"$/\1/p' "$DEFAULTS"
}

# unit_caps KEY: the capabilities KEY lists, as setpriv's -all,+bpf,...
unit_caps() {
	local c out=-all

	for c in $(unit_key "$1"); do
		c=${c#CAP_}
		out+=",+${c,,}"
	done
	echo "$out"
}

# unit_argv BINARY: ExecStart='s words, $GUPSTAT_SERVE_OPTS split at
# spaces as systemd splits an unbraced variable, the binary replaced.
unit_argv() {
	local w opts

	read -ra opts <<<"$(unit_opts)"
	for w in $(unit_key ExecStart); do
		case $w in
		/*/gupstat) printf "%s\n" "$1" ;;
		'$GUPSTAT_SERVE_OPTS') printf "%s\n" "${opts[@]}" ;;
		*) printf "%s\n" "$w" ;;
		esac
	done
}

# unit_run BINARY: ExecStart= under the unit's uid (where DynamicUser=),
# bounding and ambient capability sets and no_new_privs. It replaces the
# shell (exec), so that a caller's $! is gupstat's own PID: run it with
# & or in a subshell.
unit_run() {
	local argv ids=()

	mapfile -t argv < <(unit_argv "$1")
	[ "$(unit_key DynamicUser)" = yes ] &&
		ids=(--reuid="$UNIT_UID" --regid="$UNIT_UID" --clear-groups)
	exec setpriv "${ids[@]}" --inh-caps="$(unit_caps AmbientCapabilities)" \
		--ambient-caps="$(unit_caps AmbientCapabilities)" \
		--bounding-set="$(unit_caps CapabilityBoundingSet)" --no-new-privs -- "${argv[@]}"
}

# cap_mask "CAP...": the /proc/PID/status mask of capability names.
cap_mask() {
	local c n m=0

	for c in $1; do
		n=$(capsh --explain="${c,,}" | sed -n 's/^[a-z_]* (\([0-9]*\)).*/\1/p')
		m=$((m | (1 << n)))
	done
	printf '%016x\n' "$m"
}
