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

static char buf[1 << 20];

static const char *render(const struct metrics_ctx *m, const struct snapshot *s,
			  const struct proc_series *ps)
{
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	metrics_write(f, m, s, ps);
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

#define HOLD "gupstat_walk_hold_seconds_bucket{method=\"fentry+fexit\",walk=\"pointer\","
#define PAGES "gupstat_walk_pages_bucket{method=\"fentry+fexit\",walk=\"pointer\","

static void check_text(const struct metrics_ctx *m, struct snapshot *s)
{
	const char *out = render(m, s, NULL);

	CHECK(sample(out, HOLD "le=\"1.023e-06\"}") == 0, "no hold at or below 1023 ns");
	CHECK(sample(out, HOLD "le=\"2.047e-06\"}") == 1000,
	      "log2 slot 11 (1024-2047 ns) is le=2.047e-06 exactly: %g",
	      sample(out, HOLD "le=\"2.047e-06\"}"));
	CHECK(sample(out, HOLD "le=\"4.095e-06\"}") == 1024, "cumulative: 1000 + 24");
	CHECK(sample(out, HOLD "le=\"+Inf\"}") == 1025, "+Inf holds the one past 2^40 ns");
	CHECK(sample(out, "gupstat_walk_hold_seconds_count{method=\"fentry+fexit\",walk=\"pointer\"}")
	      == 1025, "_count is the +Inf bucket");
	CHECK(sample(out, "gupstat_walk_hold_seconds_sum{method=\"fentry+fexit\",walk=\"pointer\"}")
	      == 0.0015, "_sum in seconds (1500000 ns)");
	CHECK(monotone(out, HOLD) == 42, "42 hold buckets (le 0 to 2^40-1 ns, +Inf), none decreasing");
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
	out = render(m, s, NULL);
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

static void check_procs(struct metrics_ctx *m, struct snapshot *s)
{
	struct proc_series ps;
	const char *out;

	CHECK(!proc_series_init(&ps, 1), "a series cap of 1");
	ps.nr = 1;
	ps.rows[0].tgid = 42;
	memcpy(ps.rows[0].last.comm, "a\"b\\c\n\xff", 8);
	ps.rows[0].last.walk_pages = 7;
	ps.rows[0].base.walk_pages = 3;
	ps.dropped = 2;
	out = render(m, s, &ps);
	CHECK(sample(out, "gupstat_process_walk_pages_total{pid=\"42\",comm=\"a\\\"b\\\\c\\n?\"}") == 10,
	      "a comm is escaped, a stray byte is '?', evicted counts are kept");
	CHECK(sample(out, "gupstat_process_series_dropped_total") == 2, "the dropped count");
	if (!access("/usr/bin/promtool", X_OK))
		CHECK(promtool_ok(out), "promtool accepts the per-process series");
	proc_series_free(&ps);
}

int main(void)
{
	static struct snapshot s;
	struct probe probes[NR_PROBES] = {};
	struct catalog_view v = { .probes = probes };
	struct metrics_ctx m = { .view = &v, .release = "6.12.0-q\"\\" };
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
	check_text(&m, &s);
	check_openmetrics(&m, &s);
	check_procs(&m, &s);
	return check_done();
}
