// SPDX-License-Identifier: GPL-2.0
/*
 * The live view's aggregates in the Prometheus text exposition format
 * (0.0.4) or, when the scraper asks for it, OpenMetrics 1.0: the same
 * samples, with the family names, info type and "# EOF" OpenMetrics wants.
 *
 * Histograms are cumulative, as Prometheus reads them. The kernel's log2
 * slot i holds the integers 2^(i-1) to 2^i - 1, so its exact inclusive
 * bound is le = 2^i - 1 (in seconds for times); the linear ones (pages
 * and refs, one slot per value) are summed at powers of two. No bucket
 * is moved or estimated, and the set of buckets never changes, so rate()
 * and histogram_quantile() see the same series from scrape to scrape.
 */
#include <stddef.h>
#include <string.h>
#include "serve/metrics.h"
#include "probe/catalog.h"
#include "util/version.h"

/* Counts (not times) in log2 buckets up to slot 40; +Inf holds the rest. */
#define LOG2_LAST_SLOT		40

enum family_type { T_COUNTER, T_GAUGE, T_HISTOGRAM, T_INFO };

struct out {
	FILE *f;
	const struct metrics_ctx *m;
	const struct catalog_family *last;	/* the family whose header was written last */
};

/*
 * One byte of a label value that is neither '\\' nor '"'. Prometheus
 * wants UTF-8: a comm's stray byte becomes '?'. A cgroup's path is a
 * label value on its own, with no pid beside it: two paths that differ in
 * a byte '?' would hide must stay two label values, or the scrape has one
 * series twice, so with @percent such bytes, space and '%' itself are
 * written %XX, as in a URL.
 */
static void label_byte(FILE *f, unsigned char c, bool percent)
{
	if (percent && (c <= 0x20 || c >= 0x7f || c == '%'))
		fprintf(f, "%%%02X", c);
	else if (c == '\n')
		fputs("\\n", f);
	else
		fputc(c >= 0x20 && c < 0x7f ? c : '?', f);
}

static void label_esc(FILE *f, bool *first, const char *key, const char *value, bool percent)
{
	const unsigned char *c;

	fprintf(f, "%s%s=\"", *first ? "{" : ",", key);
	for (c = (const unsigned char *)value; *c; c++) {
		if (*c == '\\' || *c == '"')
			fprintf(f, "\\%c", *c);
		else
			label_byte(f, *c, percent);
	}
	fputc('"', f);
	*first = false;
}

/* Label values are the kernel's and the processes' words: escaped, ASCII. */
static void label(FILE *f, bool *first, const char *key, const char *value)
{
	label_esc(f, first, key, value, false);
}

static void labels_end(FILE *f, bool first)
{
	if (!first)
		fputc('}', f);
}

/*
 * HELP and TYPE. OpenMetrics names a counter's family without "_total"
 * and an info family without "_info", and has a type for info; the
 * 0.0.4 text format names the sample and calls an info metric a gauge.
 */
static void header(struct out *o, const char *name, enum family_type t, const char *help,
		   const char *unit)
{
	static const char *const types[] = { "counter", "gauge", "histogram", "info" };
	static const char *const suffix[] = { "_total", "", "", "_info" };
	bool om = o->m->openmetrics;
	const char *sfx = om ? "" : suffix[t];

	fprintf(o->f, "# HELP %s%s %s\n", name, sfx, help);
	fprintf(o->f, "# TYPE %s%s %s\n", name, sfx, !om && t == T_INFO ? "gauge" : types[t]);
	if (om && unit)
		fprintf(o->f, "# UNIT %s %s\n", name, unit);
}

/* Labels of catalog.h's, each escaped. */
static void labels(const struct out *o, bool *first, const struct catalog_label *l,
		   unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		label(o->f, first, l[i].key, l[i].value);
}

static void value(FILE *f, double v, bool ns)
{
	if (ns)
		fprintf(f, "%.15g", v / 1e9);
	else
		fprintf(f, "%.17g", v);
}

/*
 * A row's labels (catalog_labels()): its key (kind, function ...), the
 * perf event a counter histogram counted, and how the hold was
 * measured, so that hosts measuring different things never sum into one
 * series.
 */
static void row_labels(const struct out *o, bool *first, const struct catalog_row *sr)
{
	struct catalog_label l[CATALOG_LABELS_MAX];

	labels(o, first, l, catalog_labels(o->m->view, sr, l));
}

/* name_bucket{labels,le="B"} N */
static void bucket(const struct out *o, const struct catalog_row *sr, double le, __u64 n)
{
	bool first = true;
	FILE *f = o->f;

	fprintf(f, "%s_bucket", sr->fam->name);
	row_labels(o, &first, sr);
	fprintf(f, ",le=\"");
	if (le < 0)
		fputs("+Inf", f);
	else
		value(f, le, catalog_is_ns(sr));
	fprintf(f, "\"} %llu\n", (unsigned long long)n);
}

static void sample_end(const struct out *o, const struct catalog_row *sr, const char *suffix)
{
	bool first = true;

	fprintf(o->f, "%s%s", sr->fam->name, suffix);
	row_labels(o, &first, sr);
	labels_end(o->f, first);
	fputc(' ', o->f);
}

/* Linear: slot v counts the value v, the last slot everything above. */
static __u64 buckets_linear(const struct out *o, const struct catalog_row *sr, const struct hist *h)
{
	__u64 cum = 0;
	int v, next = 0;

	for (v = 0; v < HIST_SLOTS; v++) {
		cum += h->slots[v];
		if (v == next && v <= HIST_LINEAR_MAX) {
			bucket(o, sr, v, cum);
			next = next ? next * 2 : 1;
		}
	}
	return cum;
}

/*
 * Log2: slot i counts 2^(i-1) to 2^i - 1, slot 0 the zeroes. Times get
 * the slots of --buckets-ns alone: a bucket below what the probes
 * resolve, or above any hold, is bytes in every scrape and says nothing.
 */
static __u64 buckets_log2(const struct out *o, const struct catalog_row *sr, const struct hist *h)
{
	unsigned int first = 0, last = LOG2_LAST_SLOT, i;
	__u64 cum = 0;

	if (catalog_is_ns(sr)) {
		first = o->m->ns_first_slot;
		last = o->m->ns_last_slot;
	}
	for (i = 0; i < HIST_LOG2_SLOTS; i++) {
		cum += h->slots[i];
		if (i >= first && i <= last)
			bucket(o, sr, (double)((1ULL << i) - 1), cum);
	}
	return cum;
}

static void histogram(struct out *o, const struct catalog_row *sr, const struct hist *h)
{
	__u64 count;
	char help[256];

	if (o->last != sr->fam) {
		snprintf(help, sizeof(help), sr->fam->help, o->m->view->probes[sr->probe].func);
		if (sr->id == H_WALK_HOLD_NS)
			snprintf(help, sizeof(help), "%s lock=\"upper_bound\": follow_page_pte() "
				 "entry to return; lock=\"exact\" (--lock-exact): from "
				 "%s() return to follow_page_pte() return.",
				 sr->fam->help, o->m->view->probes[P_LOCK].func);
		header(o, sr->fam->name, T_HISTOGRAM, help,
		       catalog_is_ns(sr) ? "seconds" : NULL);
		o->last = sr->fam;
	}
	count = sr->id < HIST_FIRST_LOG2 ? buckets_linear(o, sr, h) : buckets_log2(o, sr, h);
	/* _count is the +Inf bucket, always: both are the slots' sum. */
	bucket(o, sr, -1, count);
	sample_end(o, sr, "_sum");
	value(o->f, (double)h->sum, catalog_is_ns(sr));
	fputc('\n', o->f);
	sample_end(o, sr, "_count");
	fprintf(o->f, "%llu\n", (unsigned long long)count);
}

static bool attached(const struct out *o, enum probe_id p)
{
	return o->m->view->probes[p].method != ATTACH_NONE;
}

static void series(struct out *o, const struct catalog_row *sr, const struct snapshot *s)
{
	if (!attached(o, sr->probe))
		return;
	if (sr->pmu && !o->m->view->event)
		return;
	histogram(o, sr, &s->hists[sr->id]);
}

/* A family's series are written together, from its first row on. */
static bool family_first(unsigned int i)
{
	unsigned int j;

	for (j = 0; j < i; j++)
		if (catalog[j].fam == catalog[i].fam)
			return false;
	return true;
}

static void histograms(struct out *o, const struct snapshot *s)
{
	unsigned int i, j;

	for (i = 0; i < catalog_nr; i++) {
		if (!family_first(i))
			continue;
		for (j = i; j < catalog_nr; j++)
			if (catalog[j].fam == catalog[i].fam)
				series(o, &catalog[j], s);
	}
}

/* One counter sample: name_total{[key="value",][method=...,walk=...]} N */
static void counter(const struct out *o, const struct catalog_counter *c, unsigned int i,
		    __u64 n)
{
	struct catalog_label l[CATALOG_LABELS_MAX];
	bool first = true;

	fprintf(o->f, "gupstat_%s_total", c->name);
	if (c->label)
		label(o->f, &first, c->label, c->values[i]);
	if (c->probe != NR_PROBES)
		labels(o, &first, l, catalog_probe_labels(o->m->view, c->probe, l));
	labels_end(o->f, first);
	fprintf(o->f, " %llu\n", (unsigned long long)n);
}

/*
 * A probe's counters while it is attached; the tool's own always, but
 * for the counter's misses without a counter.
 */
static void counters_out(struct out *o, const struct counters *cs)
{
	char name[64];
	unsigned int i, k;

	for (i = 0; i < catalog_counters_nr; i++) {
		const struct catalog_counter *c = &catalog_counters[i];

		if ((c->probe != NR_PROBES && !attached(o, c->probe)) ||
		    (c->pmu && !o->m->view->event))
			continue;
		snprintf(name, sizeof(name), "gupstat_%s", c->name);
		header(o, name, T_COUNTER, c->help, NULL);
		for (k = 0; k < c->nr; k++)
			counter(o, c, k, catalog_counter_value(c, cs, k));
	}
}

static void info(struct out *o)
{
	bool first = true;

	header(o, "gupstat_kernel", T_INFO,
	       "The kernel under observation: its release and its walk's shape.", NULL);
	fprintf(o->f, "gupstat_kernel_info");
	label(o->f, &first, "release", o->m->release);
	label(o->f, &first, "walk", o->m->view->walk_returns_count ? "count" : "pointer");
	labels_end(o->f, first);
	fputs(" 1\n", o->f);
	header(o, "gupstat_build", T_INFO, "The gupstat serving these metrics.", NULL);
	fprintf(o->f, "gupstat_build_info{version=\"%s\"} 1\n", GUPSTAT_VERSION);
}

static void probe_info(struct out *o)
{
	enum probe_id p;

	header(o, "gupstat_probe", T_INFO,
	       "Each attached probe: the kernel function and how it is attached.", NULL);
	for (p = 0; p < NR_PROBES; p++) {
		const struct probe *pr = &o->m->view->probes[p];
		bool first = true;

		if (pr->method == ATTACH_NONE)
			continue;
		fprintf(o->f, "gupstat_probe_info");
		label(o->f, &first, "function", pr->func);
		label(o->f, &first, "method", probe_method_name(pr));
		labels_end(o->f, first);
		fputs(" 1\n", o->f);
	}
}

static void serie_labels(const struct out *o, const struct series *ss, const struct serie *r,
			 bool *first)
{
	char buf[32];

	if (ss->kind == SERIES_PROC) {
		char comm[sizeof(r->comm) + 1];

		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)r->key);
		snprintf(comm, sizeof(comm), "%.*s", (int)sizeof(r->comm), r->comm);
		label(o->f, first, "pid", buf);
		label(o->f, first, "comm", comm);
		return;
	}
	/* "id:N" cannot be a path: a path starts with "/". */
	snprintf(buf, sizeof(buf), "id:%llu", (unsigned long long)r->key);
	if (r->path)
		label_esc(o->f, first, "cgroup", r->path, true);
	else
		label(o->f, first, "cgroup", buf);
}

static void serie_sample(const struct out *o, const struct series *ss, const char *prefix,
			 const struct catalog_tally *c, const struct serie *r)
{
	struct tally t;
	bool first = true;
	char name[48];

	serie_total(r, &t);
	fprintf(o->f, "%s%s_total", prefix, catalog_tally_family(c, name, sizeof(name)));
	serie_labels(o, ss, r, &first);
	labels_end(o->f, first);
	fputc(' ', o->f);
	if (c->ns)
		value(o->f, (double)catalog_tally_value(c, &t), true);
	else
		fprintf(o->f, "%llu", (unsigned long long)catalog_tally_value(c, &t));
	fputc('\n', o->f);
}

static void series_out(struct out *o, const struct series *ss)
{
	bool cg = ss->kind == SERIES_CGROUP;
	const char *prefix = cg ? "gupstat_cgroup_" : "gupstat_process_";
	const char *per = cg ? " Per cgroup (v2)." : " Per process.";
	char name[64], help[160], tn[48];
	unsigned int i, r;

	for (i = 0; i < catalog_tallies_nr; i++) {
		const struct catalog_tally *c = &catalog_tallies[i];

		if ((c->cgroup_only && !cg) || (c->waits && !attached(o, P_WAIT)))
			continue;
		snprintf(name, sizeof(name), "%s%s", prefix, catalog_tally_family(c, tn, sizeof(tn)));
		snprintf(help, sizeof(help), "%s%s", c->help, per);
		header(o, name, T_COUNTER, help, c->ns ? "seconds" : NULL);
		for (r = 0; r < ss->nr; r++)
			serie_sample(o, ss, prefix, c, &ss->rows[r]);
	}
	snprintf(name, sizeof(name), "%sseries_dropped", prefix);
	header(o, name, T_COUNTER, cg ? "Cgroups given no series: seen while --max-series rows "
	       "were in use." : "Processes given no series: seen while --max-series rows were "
	       "in use.", NULL);
	fprintf(o->f, "%s_total %llu\n", name, (unsigned long long)ss->dropped);
}

/* One program's sample: name_total{program="...",function="..."} V */
static void prog_sample(const struct out *o, const char *name, const struct prog_stat *p)
{
	bool first = true;

	fprintf(o->f, "%s_total", name);
	label(o->f, &first, "program", p->prog);
	label(o->f, &first, "function", p->func);
	labels_end(o->f, first);
	fputc(' ', o->f);
}

/*
 * The tracer's own cost. While kernel.bpf_stats_enabled is 0 the kernel
 * counts no runs or time: those families are left out rather than shown
 * as zeroes a dashboard would read as free. Skipped runs it always counts.
 */
static void progs_out(struct out *o, const struct prog_stats *ps)
{
	unsigned int i;

	/* A skipped run is a call not counted anywhere else: never left out. */
	header(o, "gupstat_probe_misses", T_COUNTER,
	       "Runs of each of gupstat's BPF programs the kernel skipped, one already "
	       "running on that CPU (bpf_prog_info recursion_misses).", NULL);
	for (i = 0; i < ps->nr; i++) {
		prog_sample(o, "gupstat_probe_misses", &ps->p[i]);
		fprintf(o->f, "%llu\n", (unsigned long long)ps->p[i].misses);
	}
	header(o, "gupstat_bpf_stats_enabled", T_GAUGE,
	       "kernel.bpf_stats_enabled: 1 while the kernel times BPF programs.", NULL);
	fprintf(o->f, "gupstat_bpf_stats_enabled %d\n", ps->enabled);
	if (!ps->enabled)
		return;
	header(o, "gupstat_probe_runs", T_COUNTER,
	       "Runs of each of gupstat's BPF programs (bpf_prog_info run_cnt).", NULL);
	for (i = 0; i < ps->nr; i++) {
		prog_sample(o, "gupstat_probe_runs", &ps->p[i]);
		fprintf(o->f, "%llu\n", (unsigned long long)ps->p[i].runs);
	}
	header(o, "gupstat_probe_run_seconds", T_COUNTER,
	       "Time in each of gupstat's BPF programs (bpf_prog_info run_time_ns).", "seconds");
	for (i = 0; i < ps->nr; i++) {
		prog_sample(o, "gupstat_probe_run_seconds", &ps->p[i]);
		value(o->f, (double)ps->p[i].run_ns, true);
		fputc('\n', o->f);
	}
}

const char *metrics_content_type(bool openmetrics)
{
	return openmetrics ? "application/openmetrics-text; version=1.0.0; charset=utf-8" :
			     "text/plain; version=0.0.4; charset=utf-8";
}

void metrics_write(FILE *f, const struct metrics_ctx *m, const struct snapshot *s)
{
	struct out o = { .f = f, .m = m };

	info(&o);
	probe_info(&o);
	histograms(&o, s);
	counters_out(&o, &s->c);
	if (m->progs)
		progs_out(&o, m->progs);
	if (m->procs)
		series_out(&o, m->procs);
	if (m->cgroups)
		series_out(&o, m->cgroups);
	if (m->openmetrics)
		fputs("# EOF\n", f);
}
