# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# dashboard_check PROM_URL [--finite]: ask the Prometheus at PROM_URL
# (http://127.0.0.1:9090) every expression of the Grafana dashboard
# (contrib/grafana/queries prints them, Grafana's variables replaced)
# and every series the recording rules record
# (contrib/prometheus/gupstat.rules.yml), and print TAP per query: ok
# when the answer is a non-empty vector, not ok with the error or "no
# data" otherwise. With --finite a query passes only when one of its
# values is a number (not NaN or Inf): a rate that has data but no
# events reads NaN in a quantile, and the host test's stand-in always
# has events.
#
# Sourced; needs ok and not_ok (tests/lib/tap.sh, which tests/guest/lib.sh
# and tests/host/lib.sh source), curl and jq, and the source tree as the
# working directory. Each query is retried for up to DASHBOARD_WAIT
# seconds (default 30): the first rate() needs two scrapes and a
# recording rule its first evaluation; a query that has data answers at
# once, so the wait is spent only where something is missing.
#
# What the Prometheus must have scraped for every query to have data:
# `gupstat serve --per-cgroup -P` (the per-cgroup panel, the dropped
# counts: gupstat_process_series_dropped_total is there only with -P),
# kernel.bpf_stats_enabled=1 before serve starts (the probes' run-time
# counters are exported only while it is 1), and pins, gets and unpins
# within the last minute (the latency quantiles). Its configuration, with
# the rules loaded and evaluated as often as it scrapes:
#
#   global:
#     scrape_interval: 1s
#     scrape_timeout: 1s
#     evaluation_interval: 1s
#   rule_files:
#     - /path/to/source/contrib/prometheus/gupstat.rules.yml
#   scrape_configs:
#     - job_name: gupstat
#       static_configs:
#         - targets: ['127.0.0.1:10435']

# dashboard_queries: every query to ask, one a line: the dashboard's,
# then each recording rule's name (a bare name is its recorded series).
# DASHBOARD_JSON and DASHBOARD_RULES name other files (the host test
# shows on a broken copy that the check fails).
dashboard_queries() {
	contrib/grafana/queries "${DASHBOARD_JSON:-contrib/grafana/gupstat.json}" || return 1
	sed -n 's/^ *- record: *\([A-Za-z_:][A-Za-z0-9_:]*\) *$/\1/p' \
		"${DASHBOARD_RULES:-contrib/prometheus/gupstat.rules.yml}"
}

# dashboard_ask PROM_URL QUERY: the API's JSON answer on stdout; where
# curl gets none, an error in the API's shape that says why.
dashboard_ask() {
	local out
	out=$(curl -sS --max-time 10 -G --data-urlencode "query=$2" "$1/api/v1/query" 2>&1) ||
		out=$(jq -n --arg e "$out" '{status: "error", errorType: "curl", error: $e}')
	printf '%s\n' "$out"
}

# dashboard_verdict [--finite]: the API's answer on stdin, one line out:
# "data", "none" or "error", a tab, and what to print. One jq a query:
# under TCG each process start counts.
dashboard_verdict() {
	jq -r --arg finite "${1:-}" '
		if .status != "success" then "error\t\(.errorType): \(.error)"
		else [.data.result[]?.value[1]] as $v |
			($v | map(select($finite == "" or (. != "NaN" and . != "+Inf" and . != "-Inf")))) as $good |
			if ($good | length) > 0 then "data\t\($v | length) series, first \($v[0])"
			else "none\t\($v[:3])" end
		end' 2>/dev/null || printf 'error\tnot JSON\n'
}

dashboard_check() {
	local url=${1:?usage: dashboard_check PROM_URL [--finite]} finite=${2:-} q verdict what i wait
	local -a queries
	wait=${DASHBOARD_WAIT:-30}
	if ! mapfile -t queries < <(dashboard_queries) || [ ${#queries[@]} -lt 2 ]; then
		not_ok "dashboard: no queries from contrib/grafana/queries and the rules"
		return
	fi
	for q in "${queries[@]}"; do
		for ((i = 0; i <= wait; i++)); do
			IFS=$'\t' read -r verdict what < <(dashboard_ask "$url" "$q" | dashboard_verdict "$finite")
			# An error (a parse error is bad_data) will not mend: no retry.
			[ "$verdict" = none ] || break
			[ "$i" -lt "$wait" ] && sleep 1
		done
		case $verdict in
		data) ok "dashboard: $q: $what" ;;
		none) not_ok "dashboard: $q: no data${finite:+ that is a number} after ${wait}s ($what)" ;;
		*) not_ok "dashboard: $q: $what" ;;
		esac
	done
}
