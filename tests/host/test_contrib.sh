#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# contrib/: the Prometheus rules and the Grafana dashboard for gupstat
# serve (docs/serve.md). promtool checks the rules and runs their unit
# tests, and those tests are shown to fail on a wrong threshold, window,
# quantile or sign (on copies); the dashboard is valid JSON whose every
# panel has a query; every metric name in the rules and the dashboard is
# one gupstat exports or a rule records; and a real Prometheus, loaded
# with the rules and scraping a stand-in for gupstat serve
# (tests/data/serve-exposition.py), parses every query and answers each
# with data (tests/guest/dashboard.sh, which the guest runs against the
# real serve), evaluates every rule without error and fires the one
# alert the stand-in's counts call for.
. tests/host/lib.sh
. tests/guest/dashboard.sh

rules=contrib/prometheus/gupstat.rules.yml
rtest=contrib/prometheus/gupstat.rules.test.yml
dash=contrib/grafana/gupstat.json

for t in promtool prometheus jq curl python3; do
	if ! command -v $t >/dev/null; then
		skip "needs $t (make deps)"
		tap_done
	fi
done

# --- the rules ---
promtool check rules "$rules" >"$tmp/check" 2>&1
expect_eq "promtool check rules $rules" "$?" 0 "$tmp/check"
# Every rule this test knows of is one promtool counted.
want=$(grep -cE '^ *- (record|alert):' "$rules")
expect_eq "promtool found every record: and alert: ($want)" \
	"$(sed -n 's/.*SUCCESS: \([0-9]*\) rules found.*/\1/p' "$tmp/check")" "$want"
promtool test rules "$rtest" >"$tmp/test" 2>&1
expect_eq "promtool test rules $rtest" "$?" 0 "$tmp/test"

# The unit tests fail when the rules are wrong: each edit below, made to
# a copy, must make promtool test rules fail.
# mutant NAME SED: promtool test rules fails on the rules edited by SED.
mutant() {
	mkdir -p "$tmp/mut"
	sed "$2" "$rules" >"$tmp/mut/gupstat.rules.yml"
	cp "$rtest" "$tmp/mut/"
	if cmp -s "$rules" "$tmp/mut/gupstat.rules.yml"; then
		not_ok "unit tests catch $1: the edit '$2' changed nothing"
	elif promtool test rules "$tmp/mut/gupstat.rules.test.yml" >"$tmp/mut/out" 2>&1; then
		not_ok "unit tests catch $1: promtool test rules passed"
	else
		ok "unit tests catch $1 ($(grep -cE '^ +(expr|alertname):' "$tmp/mut/out") failure(s))"
	fi
}
mutant "the hold alert at 95 us (host a's 98.3 us fires)" 's/> 100e-6/> 95e-6/'
mutant "the hold alert at 110 us (host b's 109.2 us does not)" 's/> 100e-6/> 110e-6/'
mutant "the hold alert's for: 5m (b fires at 10m)" '/GupstatPteLockHoldHigh/,/for:/s/for: 10m/for: 5m/'
mutant "a p95 for the p99" 's/quantile(0.99,/quantile(0.95,/'
mutant "the hold's rate not summed over method" \
	's/sum by (instance, walk, lock, le)/sum by (instance, walk, lock, le, method)/'
mutant "the wait's rate not summed over method" \
	's/sum by (instance, walk, le)/sum by (instance, walk, le, method)/'
mutant "the fleet's wait p99 kept per host" \
	's/quantile(0.99, sum by (walk, le)/quantile(0.99, sum by (instance, walk, le)/'
mutant "pages per call upside down" \
	's/rate(gupstat_walk_pages_sum\[5m\])/rate(gupstat_walk_pages_count_x[5m])/'
mutant "pins held as pin plus unpin" \
	's/- sum by (instance, cgroup) (gupstat_cgroup_unpin/+ sum by (instance, cgroup) (gupstat_cgroup_unpin/'
mutant "the dropped alert over 5m, not 15m" 's/series_dropped_total\[15m\]/series_dropped_total[5m]/'
mutant "the state-miss alert's for: 5m (one burst fires)" \
	'/GupstatStateMisses/,/for:/s/for: 15m/for: 5m/'
mutant "the target-down alert on every job" 's/up{job="gupstat"} == 0/up == 0/'
mutant "the probes' cost per run without the run count" \
	's|/ sum by (instance, program, function) (rate(gupstat_probe_runs_total\[5m\]))|* 1|'

# --- the dashboard ---
jq -e . "$dash" >/dev/null 2>"$tmp/jq"
expect_eq "$dash is JSON" "$?" 0 "$tmp/jq"
expect_eq "schemaVersion 39 or later" "$(jq '.schemaVersion >= 39' "$dash")" true
expect_eq "a datasource variable of type prometheus" \
	"$(jq -r '.templating.list[] | select(.name == "datasource") | "\(.type) \(.query)"' "$dash")" \
	"datasource prometheus"
expect_eq "the instance variable from gupstat_build_info" \
	"$(jq -r '.templating.list[] | select(.name == "instance") | .definition' "$dash")" \
	"label_values(gupstat_build_info, instance)"
# Every panel (rows aside) has a query, and uses the datasource chosen.
bad=$(jq -r '[.panels[] | (., .panels[]?) | select(.type != "row") |
	select([.targets[]? | .expr // "" | select(test("\\S"))] | length == 0) | .title] | join(", ")' "$dash")
expect_eq "every panel has a target with an expression" "$bad" ""
bad=$(jq -r '[.panels[] | (., .panels[]?) | select(.type != "row") |
	select(.datasource.uid != "${datasource}" or
	       any(.targets[]; .datasource.uid != "${datasource}")) | .title] | join(", ")' "$dash")
expect_eq "every panel and target on \${datasource}" "$bad" ""
expect_eq "panel ids unique" "$(jq '[.panels[] | (., .panels[]?) | .id] | (length == (unique | length))' "$dash")" true
npanels=$(jq '[.panels[] | (., .panels[]?) | select(.type != "row")] | length' "$dash")
titles=$(jq -r '[.panels[] | .title] | join("|")' "$dash")
missing=""
for p in "PTE-lock hold (" "hold p99 per walk" "PTE-lock waits (" "wait p99 per walk" "Pages per walk call" "GUP latency p99" "Unpin latency p99" \
	"Pages held pinned" "Probe time per run" "share of one CPU" "Series dropped"; do
	[[ $titles == *"$p"* ]] || missing="$missing '$p'"
done
expect_eq "the panels asked for, among $npanels" "$missing" ""
expect_eq "the hold and wait heatmaps ask Prometheus for heatmap format" \
	"$(jq -r '[.panels[] | select(.type == "heatmap") | .targets[0].format // "none"] | join(" ")' "$dash")" \
	"heatmap heatmap"

# --- contrib/grafana/queries ---
contrib/grafana/queries >"$tmp/queries" 2>"$tmp/qerr"
expect_eq "contrib/grafana/queries" "$?" 0 "$tmp/qerr"
expect_eq "one line per target" "$(wc -l <"$tmp/queries")" \
	"$(jq '[.panels[] | (., .panels[]?) | .targets[]? | select(.expr)] | length' "$dash")"
expect_eq "no variable left" "$(grep -c '\$' "$tmp/queries")" 0
grep -q 'instance=~"\.+"' "$tmp/queries" && grep -q '\[1m\]' "$tmp/queries" &&
	ok "\$instance is .+ and \$__rate_interval 1m" || not_ok "substitutions: $(head -n1 "$tmp/queries")"
contrib/grafana/queries --var instance=192.0.2.7:10435 >"$tmp/q1" 2>&1
grep -qF 'instance=~"192\\.0\\.2\\.7:10435"' "$tmp/q1" && ! grep -q 'instance=~"\.+"' "$tmp/q1" &&
	ok "--var instance=192.0.2.7:10435: regex-escaped, every query" ||
	{ not_ok "--var instance"; diag "$tmp/q1"; }
# Grafana's other spelling, ${NAME}, and the longer name first.
jq '.panels[0].targets[0].expr = "rate(x{instance=~\"${instance}\"}[$__rate_interval]) + $__interval_ms0 * 0"' \
	"$dash" >"$tmp/braces.json"
contrib/grafana/queries "$tmp/braces.json" >"$tmp/q2" 2>&1
expect_eq "\${instance} replaced; \$__interval not replaced inside a longer name" \
	"$(head -n1 "$tmp/q2")" 'queries: a variable left unreplaced in '"$tmp"'/braces.json: $__interval_ms0'
jq '.panels[0].targets[0].expr = "rate(x{instance=~\"${instance}\"}[$__rate_interval])"' \
	"$dash" >"$tmp/braces.json"
expect_eq "\${instance} and \$__rate_interval" "$(contrib/grafana/queries "$tmp/braces.json" | head -n1)" \
	'rate(x{instance=~".+"}[1m])'
jq '.panels[0].targets[0].expr += " * $nosuch"' "$dash" >"$tmp/nosuch.json"
fails_with "an unknown variable is refused" 1 "a variable left unreplaced" \
	contrib/grafana/queries "$tmp/nosuch.json"

# --- metric names ---
# Every family gupstat serve can export, written by serve's own code
# (src/serve/metrics.c, through the unit test's --exposition: every
# probe attached, a counter, -P, --per-cgroup, bpf stats on): a name
# that gupstat stops exporting fails the checks below.
expo=${TEST_METRICS:-build/tests/test_metrics}
[ -x "$expo" ] || make -s "$expo" >/dev/null 2>&1
"$expo" --exposition | grep -v '^#' | sed 's/[{ ].*//' | sort -u >"$tmp/exported"
[ "$(wc -l <"$tmp/exported")" -gt 50 ] && ok "serve's own families: $(wc -l <"$tmp/exported") names" ||
	not_ok "serve's own families: $(wc -l <"$tmp/exported") names from $expo --exposition"
sed -n 's/^ *- record: *\([A-Za-z_:][A-Za-z0-9_:]*\) *$/\1/p' "$rules" | sort >"$tmp/recorded"
{ cat "$tmp/exported" "$tmp/recorded"; echo up; } | sort -u >"$tmp/known"

# metric_names: the metric names in the PromQL on stdin, one expression
# a line: with strings, label matchers, ranges and grouping clauses
# gone, every identifier that is not a function call, a keyword or part
# of a number.
metric_names() {
	sed -E 's/"([^"\\]|\\.)*"//g; s/\{[^}]*\}//g; s/\[[^]]*\]//g' |
		sed -E 's/\b(by|without|on|ignoring|group_left|group_right) *\([^)]*\)//g' |
		grep -oP '(?<![\w.:])[A-Za-z_:][\w:]*(?![\w:])(?!\s*\()' |
		grep -vxE 'and|or|unless|offset|bool|atan2|inf|nan|Inf|NaN|by|without|on|ignoring|group_left|group_right' |
		sort -u
}
# The stand-in exports exactly the families above, no more, no less.
python3 tests/data/serve-exposition.py --once >"$tmp/exposition"
promtool check metrics <"$tmp/exposition" >"$tmp/lint" 2>&1
expect_eq "the stand-in's exposition passes promtool check metrics" "$?" 0 "$tmp/lint"
expect_eq "the stand-in exports exactly the spec's families" \
	"$(grep -v '^#' "$tmp/exposition" | sed 's/[{ ].*//' | sort -u | comm -3 - "$tmp/exported" | tr -s '\t\n' '  ')" ""
# The extraction finds a name that is not known (it can fail).
got=$(echo 'sum by (le) (rate(gupstat_walk_hold_secs_bucket{le="1e-06"}[5m])) / on (instance) group_left (release) gupstat_kernel_info * 1e-06' |
	metric_names | comm -23 - "$tmp/known" | tr '\n' ' ')
expect_eq "the name check finds an unknown name" "$got" "gupstat_walk_hold_secs_bucket "

# --- a real Prometheus, scraping the stand-in, with the rules ---
freeport() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
python3 tests/data/serve-exposition.py >"$tmp/expo.port" 2>"$tmp/expo.err" &
expo=$!
pport=$(freeport)
cleanup() {
	kill "$expo" ${prom:+"$prom"} 2>/dev/null
	wait 2>/dev/null
	rm -rf "$tmp"
}
for ((i = 0; i < 100; i++)); do [ -s "$tmp/expo.port" ] && break; sleep 0.1; done
cat >"$tmp/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files:
  - $PWD/$rules
scrape_configs:
  - job_name: gupstat
    static_configs:
      - targets: ['127.0.0.1:$(cat "$tmp/expo.port")']
YML
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/tsdb" \
	--web.listen-address="127.0.0.1:$pport" >"$tmp/prom.log" 2>&1 &
prom=$!
P=http://127.0.0.1:$pport
for ((i = 0; i < 300; i++)); do curl -sf "$P/-/ready" >/dev/null 2>&1 && break; sleep 0.1; done
if ! curl -sf "$P/-/ready" >/dev/null 2>&1; then
	not_ok "Prometheus did not start on port $pport"
	tail -n 20 "$tmp/prom.log" | diag
	tap_done
fi
ok "Prometheus $(prometheus --version 2>&1 | sed -n '1s/.*version \([^ ]*\).*/\1/p') up, scraping the stand-in on port $(cat "$tmp/expo.port")"

# Every query parses, by Prometheus' own parser (/api/v1/format_query),
# which also gives it back normalized for the name check.
: >"$tmp/formatted"
bad=0
while IFS= read -r q; do
	ans=$(curl -sS -G --data-urlencode "query=$q" "$P/api/v1/format_query")
	if [ "$(jq -r .status <<<"$ans")" = success ]; then
		jq -r .data <<<"$ans" >>"$tmp/formatted"
	else
		not_ok "parses: $q: $(jq -r .error <<<"$ans")"
		bad=$((bad + 1))
	fi
done <"$tmp/queries"
expect_eq "every dashboard query parses ($(wc -l <"$tmp/queries"))" "$bad" 0
ans=$(curl -sS -G --data-urlencode 'query=sum by (le (rate(x[1m]))' "$P/api/v1/format_query")
expect_eq "a malformed query is refused by the parser" "$(jq -r .errorType <<<"$ans")" bad_data
# The variable queries name metrics too.
jq -r '.templating.list[] | .definition // empty | capture("label_values\\((?<m>.*),[^,]*\\)$").m' "$dash" >>"$tmp/formatted"
unknown=$(metric_names <"$tmp/formatted" | comm -23 - "$tmp/known" | tr '\n' ' ')
expect_eq "every metric name in the dashboard is exported or recorded ($(metric_names <"$tmp/formatted" | wc -l) names)" "$unknown" ""

# The rules as Prometheus loaded them: all 17 (or however many), each
# evaluated without error once it has run.
for ((i = 0; i < 100; i++)); do
	curl -sS "$P/api/v1/rules" >"$tmp/rules.json"
	[ "$(jq '[.data.groups[].rules[] | select(.health == "ok")] | length' "$tmp/rules.json")" = "$want" ] && break
	sleep 0.2
done
expect_eq "Prometheus loaded and evaluated every rule, health ok" \
	"$(jq -r '[.data.groups[].rules[] | "\(.name)=\(.health)\(.lastError // "" | if . != "" then ": " + . else "" end)"] | map(select(endswith("=ok") | not)) | join(", ")' "$tmp/rules.json")" ""
jq -r '.data.groups[].rules[].query' "$tmp/rules.json" >"$tmp/rulequeries"
unknown=$(metric_names <"$tmp/rulequeries" | comm -23 - "$tmp/known" | tr '\n' ' ')
expect_eq "every metric name in the rules is exported or recorded ($(metric_names <"$tmp/rulequeries" | wc -l) names)" "$unknown" ""

# Every query with data that is a number, as the guest asks the real one.
dashboard_check "$P" --finite
# ... and the check fails where it should: a metric nobody exports (no
# data) and a query that does not parse, beside one good query, in a
# copy of the dashboard cut to three panels (and no rules: quicker).
jq '.panels |= .[:3] | .panels[0].targets[0].expr = "rate(gupstat_no_such_total[1m])" |
	.panels[1].targets[0].expr = "sum by (le (x)"' "$dash" >"$tmp/broken.json"
out=$(DASHBOARD_JSON=$tmp/broken.json DASHBOARD_RULES=/dev/null DASHBOARD_WAIT=1 dashboard_check "$P" --finite)
expect_eq "dashboard_check on a broken copy: not ok for each broken query, ok for the good one" \
	"$(sed -E 's/^(ok|not ok) [0-9]+ .*(no data|bad_data).*/\1 \2/; s/^ok [0-9]+ - .*/ok/' <<<"$out" | tr '\n' ',')" \
	"not ok no data,not ok bad_data,ok,"
out=$(DASHBOARD_WAIT=0 dashboard_check http://127.0.0.1:1 | head -n 1)
[[ $out == "not ok"*"curl: "* ]] && ok "dashboard_check with nothing listening: not ok, curl's reason" ||
	not_ok "dashboard_check with nothing listening: $out"

# The stand-in drops a cgroup a second and never a process: the
# cgroup table's alert fires (it has no for:), the process table's not.
for ((i = 0; i < 100; i++)); do
	curl -sS "$P/api/v1/alerts" >"$tmp/alerts.json"
	jq -e '.data.alerts[] | select(.labels.alertname == "GupstatSeriesDropped" and .state == "firing")' \
		"$tmp/alerts.json" >/dev/null && break
	sleep 0.2
done
expect_eq "firing: GupstatSeriesDropped for the cgroup table alone" \
	"$(jq -r '[.data.alerts[] | select(.state == "firing") | "\(.labels.alertname)/\(.labels.table // "")"] | sort | join(" ")' "$tmp/alerts.json")" \
	"GupstatSeriesDropped/cgroup"
tap_done
