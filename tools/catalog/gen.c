// SPDX-License-Identifier: GPL-2.0
/*
 * The probe table and the catalogue's histograms and -P/--per-cgroup
 * counts (src/probe/) as JSON, for
 * tools/catalog/update to write the docs, the man page and the NDJSON
 * schema's name lists from, and to check them against.
 *   build/catalog-gen >catalog.json
 */
#include <stdio.h>
#include <string.h>
#include "probe/catalog.h"
#include "probe/probes.h"
#include "util/json.h"

static const char *const probe_ids[NR_PROBES] = {
#define PROBE_NAME(id, ...) "P_" #id,
	PROBES(PROBE_NAME)
#undef PROBE_NAME
};

static void probes(struct jw *w, const struct probe *p)
{
	int i;

	jw_array(w, "probes");
	for (i = 0; i < NR_PROBES; i++) {
		jw_object(w, NULL);
		jw_string(w, "id", probe_ids[i]);
		jw_string(w, "prog", p[i].prog);
		jw_string(w, "function", p[i].func);
		jw_string(w, "what", p[i].what);
		jw_bool(w, "traced", p[i].traced);
		jw_end_object(w);
	}
	jw_end_array(w);
}

/*
 * The labels that tell the row's series apart, as catalog_labels() gives
 * them, with every value a run can give: the hold's two methods, and the
 * -e event (as "EVENT"). The probe's own two, method and walk, which
 * every series of a probe carries, are left out.
 */
static void labels(struct jw *w, const struct catalog_row *r, const struct probe *p)
{
	struct catalog_view v = { .probes = p, .event = "EVENT" };
	struct catalog_label a[CATALOG_LABELS_MAX], b[CATALOG_LABELS_MAX];
	struct catalog_label probe[CATALOG_LABELS_MAX];
	unsigned int n, i, own = catalog_probe_labels(&v, r->probe, probe);

	n = catalog_labels(&v, r, a) - own;
	v.lock_exact = true;
	catalog_labels(&v, r, b);
	jw_array(w, "labels");
	for (i = 0; i < n; i++) {
		jw_object(w, NULL);
		jw_string(w, "name", a[i].key);
		jw_array(w, "values");
		jw_string(w, NULL, a[i].value);
		if (strcmp(a[i].value, b[i].value))
			jw_string(w, NULL, b[i].value);
		jw_end_array(w);
		jw_end_object(w);
	}
	jw_end_array(w);
}

/* The help as serve prints it, with the probe's usual function. */
static void hist(struct jw *w, const struct catalog_row *r, const struct probe *p)
{
	char name[64], help[256];

	jw_object(w, NULL);
	jw_string(w, "id", r->id_name);
	jw_string(w, "probe", probe_ids[r->probe]);
	jw_string(w, "function", p[r->probe].func);
	jw_string(w, "name", r->key);
	jw_string(w, "title", r->title);
	jw_string(w, "unit", r->unit);
	jw_bool(w, "pmu", r->pmu);
	jw_string(w, "family", r->fam->name);
	snprintf(help, sizeof(help), r->fam->help, p[r->probe].func);
	jw_string(w, "help", help);
	jw_string(w, "metric", catalog_ndjson_name(r->fam, name, sizeof(name)));
	jw_string(w, "label", r->label);
	jw_string(w, "value", r->value);
	labels(w, r, p);
	jw_end_object(w);
}

static void counters(struct jw *w)
{
	unsigned int i, k;

	jw_array(w, "counters");
	for (i = 0; i < catalog_counters_nr; i++) {
		const struct catalog_counter *c = &catalog_counters[i];

		jw_object(w, NULL);
		jw_string(w, "name", c->name);
		jw_string(w, "help", c->help);
		jw_string(w, "probe", c->probe == NR_PROBES ? NULL : probe_ids[c->probe]);
		jw_string(w, "label", c->label);
		jw_array(w, "values");
		for (k = 0; c->label && k < c->nr; k++)
			jw_string(w, NULL, c->values[k]);
		jw_end_array(w);
		jw_bool(w, "pmu", c->pmu);
		jw_end_object(w);
	}
	jw_end_array(w);
}

static void tallies(struct jw *w)
{
	unsigned int i;
	char name[48];

	jw_array(w, "tallies");
	for (i = 0; i < catalog_tallies_nr; i++) {
		jw_object(w, NULL);
		jw_string(w, "name", catalog_tallies[i].name);
		jw_string(w, "help", catalog_tallies[i].help);
		jw_bool(w, "cgroup_only", catalog_tallies[i].cgroup_only);
		jw_bool(w, "waits", catalog_tallies[i].waits);
		jw_string(w, "family", catalog_tally_family(&catalog_tallies[i], name,
							    sizeof(name)));
		jw_end_object(w);
	}
	jw_end_array(w);
}

int main(void)
{
	struct probe p[NR_PROBES];
	unsigned int i;
	struct jw w;

	probes_table(p);
	jw_init(&w, stdout, true);
	jw_object(&w, NULL);
	probes(&w, p);
	jw_array(&w, "hists");
	for (i = 0; i < catalog_nr; i++)
		hist(&w, &catalog[i], p);
	jw_end_array(&w);
	counters(&w);
	tallies(&w);
	jw_end_object(&w);
	fputc('\n', stdout);
	return ferror(stdout) ? 1 : 0;
}
