// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat serve's exposition for a made-up snapshot: exact cumulative
 * buckets, seconds, labels escaped, both formats, the -P cap; and, where
 * promtool is installed, Prometheus' own linter on it.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tap.h"
#include "serve/metrics.h"
#include "serve/options.h"

static char buf[1 << 20];

static const char *render(const struct metrics_ctx *m, const struct snapshot *s)
{
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	metrics_write(f, m, s);
	fclose(f);
	return buf;
}

/* The value of the sample line that starts with @prefix, or -1. */
static double sample(const char *text, const char *prefix)
{
	const char *p = text;
	size_t n = strlen(prefix);

	while (p && *p) {
		if (!strncmp(p, prefix, n) && p[n] == ' ')
			return strtod(p + n + 1, NULL);
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return -1;
}

/* Every _bucket line of @name (prefix up to the labels) never decreases. */
static int monotone(const char *text, const char *name)
{
	const char *p = text;
	double last = -1, v;
	int n = 0;

	while ((p = strstr(p, name))) {
		const char *sp = strchr(p, ' ');

		if (!sp)
			break;
		v = strtod(sp + 1, NULL);
		if (v < last)
			return -1;
		last = v;
		n++;
		p = sp;
	}
	return n;
}

static int promtool_ok(const char *text)
{
	FILE *p = popen("promtool check metrics >/dev/null 2>&1", "w");

	if (!p)
		return 0;
	fputs(text, p);
	return pclose(p) == 0;
}

#define HOLD "gupstat_walk_hold_seconds_bucket{lock=\"upper_bound\",method=\"fentry+fexit\",walk=\"pointer\","
#define PAGES "gupstat_walk_pages_bucket{method=\"fentry+fexit\",walk=\"pointer\","

static void check_text(const struct metrics_ctx *m, struct snapshot *s)
{
	const char *out = render(m, s);

	CHECK(sample(out, HOLD "le=\"1.023e-06\"}") == 0, "no hold at or below 1023 ns");
	CHECK(sample(out, HOLD "le=\"2.047e-06\"}") == 1000,
	      "log2 slot 11 (1024-2047 ns) is le=2.047e-06 exactly: %g",
	      sample(out, HOLD "le=\"2.047e-06\"}"));
	CHECK(sample(out, HOLD "le=\"4.095e-06\"}") == 1024, "cumulative: 1000 + 24");
	CHECK(sample(out, HOLD "le=\"+Inf\"}") == 1025, "+Inf holds the one past 2^30 ns");
	CHECK(sample(out, HOLD "le=\"1.073741823\"}") == 1024, "the last bound: 2^30 - 1 ns");
	CHECK(sample(out, HOLD "le=\"6.3e-08\"}") == 0, "the first bound: 2^6 - 1 ns");
	CHECK(sample(out, HOLD "le=\"3.1e-08\"}") == -1, "none below --buckets-ns");
	CHECK(sample(out, HOLD "le=\"2.147483647\"}") == -1, "none above --buckets-ns");
	CHECK(sample(out, "gupstat_walk_hold_seconds_count{lock=\"upper_bound\",method=\"fentry+fexit\",walk=\"pointer\"}")
	      == 1025, "_count is the +Inf bucket");
	CHECK(sample(out, "gupstat_walk_hold_seconds_sum{lock=\"upper_bound\",method=\"fentry+fexit\",walk=\"pointer\"}")
	      == 0.0015, "_sum in seconds (1500000 ns)");
	CHECK(monotone(out, HOLD) == 26, "26 hold buckets (le 2^6-1 to 2^30-1 ns, +Inf), none decreasing");
	CHECK(sample(out, PAGES "le=\"1\"}") == 5, "pages: 5 calls of one page");
	CHECK(sample(out, PAGES "le=\"256\"}") == 5, "pages: none between 2 and 256");
	CHECK(sample(out, PAGES "le=\"512\"}") == 7, "pages: 2 whole tables at le=512");
	CHECK(sample(out, PAGES "le=\"+Inf\"}") == 8, "pages: the overflow slot only in +Inf");
	CHECK(monotone(out, PAGES) == 12, "12 page buckets (0, 1, 2 ... 512, +Inf)");
	CHECK(sample(out, "gupstat_walk_returns_total{result=\"emlink\",method=\"fentry+fexit\",walk=\"pointer\"}")
	      == 3, "walk results by label");
	CHECK(sample(out, "gupstat_unpin_latency_seconds_count{function=\"unpin_user_pages\",method=\"kprobe+kretprobe\",walk=\"pointer\"}")
	      == 0, "an attached, empty histogram is there (stable series)");
	CHECK(!strstr(out, "gupstat_fill_"), "no series for a probe that is not attached");
	CHECK(!strstr(out, "gupstat_gup_events"), "no counter histograms without -e");
	CHECK(sample(out, "gupstat_bpf_stats_enabled") == 0, "bpf stats off: said as a gauge");
	CHECK(!strstr(out, "gupstat_probe_run"), "bpf stats off: no cost families of zeroes");
	CHECK(strstr(out, "gupstat_kernel_info{release=\"6.12.0-q\\\"\\\\\",walk=\"pointer\"} 1\n") != NULL,
	      "the release is escaped in the info metric");
	CHECK(strstr(out, "# TYPE gupstat_walk_returns_total counter\n") != NULL,
	      "0.0.4: a counter's TYPE names the _total sample");
	CHECK(strstr(out, "# TYPE gupstat_kernel_info gauge\n") != NULL, "0.0.4: info is a gauge");
	CHECK(!strstr(out, "# EOF"), "0.0.4 has no # EOF");
	if (access("/usr/bin/promtool", X_OK))
		SKIP("no promtool: run make deps");
	else
		CHECK(promtool_ok(out), "promtool check metrics accepts it");
}

static void check_openmetrics(struct metrics_ctx *m, struct snapshot *s)
{
	const char *out;
	size_t len;

	m->openmetrics = true;
	out = render(m, s);
	len = strlen(out);
	CHECK(len > 6 && !strcmp(out + len - 6, "# EOF\n"), "OpenMetrics ends in # EOF");
	CHECK(strstr(out, "# TYPE gupstat_walk_returns counter\n") != NULL,
	      "OpenMetrics: a counter family has no _total");
	CHECK(strstr(out, "\ngupstat_walk_returns_total{") != NULL, "... its samples do");
	CHECK(strstr(out, "# TYPE gupstat_kernel info\n") != NULL, "OpenMetrics: info type");
	CHECK(strstr(out, "# UNIT gupstat_walk_hold_seconds seconds\n") != NULL,
	      "OpenMetrics: the unit of a seconds family");
	CHECK(sample(out, HOLD "le=\"2.047e-06\"}") == 1000, "the same buckets");
	m->openmetrics = false;
}

static void check_series(struct metrics_ctx *m, struct snapshot *s)
{
	struct series ps, cg;
	const char *out;

	CHECK(!series_init(&ps, SERIES_PROC, 1, 60, NULL) &&
	      !series_init(&cg, SERIES_CGROUP, 4, 60, NULL), "tables of 1 and 4 rows");
	ps.nr = 1;
	ps.rows[0].key = 42;
	memcpy(ps.rows[0].comm, "a\"b\\c\n\xff", 8);
	ps.rows[0].last.walk_pages = 7;
	ps.rows[0].base.walk_pages = 3;
	ps.dropped = 2;
	cg.nr = 4;
	cg.rows[0] = (struct serie){ .key = 7, .path = "/system.slice/vm-a.scope",
				     .last.longterm_pages = 512, .last.pin_pages = 512 };
	cg.rows[1] = (struct serie){ .key = 99, .last.walk_calls = 4 };
	cg.rows[2] = (struct serie){ .key = 100, .path = "/a b\xff%\"", .last.walk_calls = 1 };
	cg.rows[3] = (struct serie){ .key = 101, .path = "/a b\xfe%\"", .last.walk_calls = 2 };
	cg.dropped = 5;
	m->procs = &ps;
	m->cgroups = &cg;
	out = render(m, s);
	CHECK(sample(out, "gupstat_process_walk_pages_total{pid=\"42\",comm=\"a\\\"b\\\\c\\n?\"}") == 10,
	      "a comm is escaped, a stray byte is '?', evicted counts are kept");
	CHECK(sample(out, "gupstat_process_series_dropped_total") == 2, "the processes' dropped count");
	CHECK(!strstr(out, "gupstat_process_pin_pages"), "pins per cgroup only");
	CHECK(sample(out, "gupstat_cgroup_longterm_pin_pages_total{cgroup=\"/system.slice/vm-a.scope\"}")
	      == 512, "a cgroup's long-term pins, labelled by its path");
	CHECK(sample(out, "gupstat_cgroup_walk_calls_total{cgroup=\"id:99\"}") == 4,
	      "a cgroup removed unnamed: labelled by its id");
	CHECK(sample(out, "gupstat_cgroup_series_dropped_total") == 5, "the cgroups' dropped count");
	CHECK(sample(out, "gupstat_cgroup_walk_calls_total{cgroup=\"/a%20b%FF%25\\\"\"}") == 1 &&
	      sample(out, "gupstat_cgroup_walk_calls_total{cgroup=\"/a%20b%FE%25\\\"\"}") == 2,
	      "paths differing in a stray byte stay two series: %%XX, and a quote escaped");
	if (!access("/usr/bin/promtool", X_OK))
		CHECK(promtool_ok(out), "promtool accepts the per-process and per-cgroup series");
	m->procs = m->cgroups = NULL;
	series_free(&ps);
	series_free(&cg);
}

/* -e and --lock-exact say what was measured in labels, and the programs' cost. */
static void check_labels(struct metrics_ctx *m, struct snapshot *s, struct catalog_view *v)
{
	struct prog_stats ps = { .enabled = true, .nr = 1,
				 .p[0] = { "walk_fexit", "follow_page_pte", 1000, 2500000, 7 } };
	const char *out;

	struct probe *probes = (struct probe *)v->probes;
	const struct prog_stats *off = m->progs;

	probes[P_GUP] = (struct probe){ .func = "__get_user_pages", .method = ATTACH_FENTRY };
	v->event = "cycles";
	v->lock_exact = true;
	m->progs = &ps;
	out = render(m, s);
	CHECK(strstr(out, "gupstat_gup_events_count{event=\"cycles\",method=") != NULL,
	      "the perf counter histograms carry event=");
	CHECK(strstr(out, "gupstat_walk_hold_seconds_count{lock=\"exact\",") != NULL,
	      "--lock-exact: lock=\"exact\"");
	CHECK(sample(out, "gupstat_probe_runs_total{program=\"walk_fexit\",function=\"follow_page_pte\"}")
	      == 1000, "a program's runs");
	CHECK(sample(out, "gupstat_probe_run_seconds_total{program=\"walk_fexit\",function=\"follow_page_pte\"}")
	      == 0.0025, "... and its time, in seconds");
	CHECK(sample(out, "gupstat_bpf_stats_enabled") == 1, "bpf stats on");
	CHECK(sample(out, "gupstat_probe_misses_total{program=\"walk_fexit\",function=\"follow_page_pte\"}")
	      == 7, "the runs the kernel skipped, per program");
	if (!access("/usr/bin/promtool", X_OK))
		CHECK(promtool_ok(out), "promtool accepts the labelled exposition");
	v->event = NULL;
	v->lock_exact = false;
	m->progs = off;
	probes[P_GUP].method = ATTACH_NONE;
}

/* --buckets-ns: the slots, and the one-line refusals. */
static void check_buckets(void)
{
	unsigned int a = 99, b = 99;
	const char *why = NULL;

	CHECK(!serve_buckets_parse("64:1000000000", &a, &b, &why) && a == 6 && b == 30,
	      "the default: slots 6 to 30 (%u, %u)", a, b);
	CHECK(!serve_buckets_parse("1:2", &a, &b, &why) && a == 0 && b == 2, "1:2: slots 0 to 2");
	CHECK(!serve_buckets_parse("1000:1099511627776", &a, &b, &why) && a == 10 && b == 41,
	      "up to 2^40 ns (%u, %u)", a, b);
	CHECK(serve_buckets_parse("100:10", &a, &b, &why) && !strcmp(why, "MIN is above MAX"),
	      "reversed");
	CHECK(serve_buckets_parse("10:10", &a, &b, &why) && strstr(why, "empty"), "empty");
	CHECK(serve_buckets_parse("0:10", &a, &b, &why) && strstr(why, "from 1 to"), "0 ns");
	CHECK(serve_buckets_parse("1:1099511627777", &a, &b, &why) && strstr(why, "from 1 to"),
	      "past 2^40 ns");
	CHECK(serve_buckets_parse("64", &a, &b, &why) && strstr(why, "MIN:MAX"), "no colon");
	CHECK(serve_buckets_parse("64:", &a, &b, &why), "no MAX");
	CHECK(serve_buckets_parse("1e3:1e9", &a, &b, &why), "not integers");
}

/*
 * --exposition: every family gupstat serve can export, written by its
 * own code, for tests/host/test_contrib.sh to check contrib/'s names
 * against: every probe attached, a counter, -P, --per-cgroup, bpf stats.
 */
static int exposition(struct metrics_ctx *m, struct snapshot *s, struct catalog_view *v)
{
	struct prog_stats ps = { .enabled = true, .nr = 1,
				 .p[0] = { "walk_fexit", "follow_page_pte", 1, 1, 0 } };
	struct probe *probes = (struct probe *)v->probes;
	struct series procs, cgroups;
	int p;

	for (p = 0; p < NR_PROBES; p++)
		probes[p] = (struct probe){ .func = "f", .method = ATTACH_FENTRY };
	v->event = "cycles";
	m->progs = &ps;
	if (series_init(&procs, SERIES_PROC, 1, 60, NULL) ||
	    series_init(&cgroups, SERIES_CGROUP, 1, 60, NULL))
		return 1;
	procs.nr = cgroups.nr = 1;
	cgroups.rows[0].path = "/";
	m->procs = &procs;
	m->cgroups = &cgroups;
	fputs(render(m, s), stdout);
	series_free(&procs);
	series_free(&cgroups);
	return 0;
}

int main(int argc, char **argv)
{
	static struct snapshot s;
	struct probe probes[NR_PROBES] = {};
	struct catalog_view v = { .probes = probes };
	static const struct prog_stats stats_off;
	struct metrics_ctx m = { .view = &v, .progs = &stats_off, .release = "6.12.0-q\"\\",
				 .ns_first_slot = 6, .ns_last_slot = 30 };
	struct hist *hold = &s.hists[H_WALK_HOLD_NS], *pages = &s.hists[H_WALK_PAGES];

	probes[P_WALK] = (struct probe){ .func = "follow_page_pte", .method = ATTACH_FENTRY,
					 .fentry = (struct bpf_program *)1,
					 .fexit = (struct bpf_program *)1 };
	probes[P_UNPIN] = (struct probe){ .func = "unpin_user_pages", .method = ATTACH_KPROBE,
					  .kprobe = (struct bpf_program *)1,
					  .kretprobe = (struct bpf_program *)1 };
	hold->slots[11] = 1000;		/* 1024..2047 ns */
	hold->slots[12] = 24;
	hold->slots[45] = 1;		/* past the last finite bucket */
	hold->count = 1025;
	hold->sum = 1500000;
	pages->slots[1] = 5;
	pages->slots[512] = 2;
	pages->slots[HIST_SLOTS - 1] = 1;
	pages->count = 8;
	s.c.walk_results[WALK_EMLINK] = 3;
	if (argc > 1 && !strcmp(argv[1], "--exposition"))
		return exposition(&m, &s, &v);
	check_text(&m, &s);
	check_openmetrics(&m, &s);
	check_series(&m, &s);
	check_labels(&m, &s, &v);
	check_buckets();
	return check_done();
}
