// SPDX-License-Identifier: GPL-2.0
/*
 * The histogram catalogue (src/probe/catalog.c): every kernel histogram
 * has one row, and the docs name what the rows name. Run from the
 * top of the tree, as the harness does.
 */
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "probe/catalog.h"

static char *slurp(const char *path)
{
	static char buf[2][1 << 17];
	static int n;
	char *b = buf[n++ % 2];
	FILE *f = fopen(path, "r");
	size_t len = 0;

	if (f) {
		len = fread(b, 1, sizeof(buf[0]) - 1, f);
		fclose(f);
	}
	b[len] = 0;
	return b;
}

/* `NAME` or `NAME{labels}`, as the docs' tables write a name. */
static bool names(const char *doc, const char *name)
{
	char want[128];

	snprintf(want, sizeof(want), "`%s`", name);
	if (strstr(doc, want))
		return true;
	snprintf(want, sizeof(want), "`%s{", name);
	return strstr(doc, want);
}

static void check_ids(void)
{
	int seen[NR_HISTS] = {};
	unsigned int i;
	int h, bad = 0;

	for (i = 0; i < catalog_nr; i++)
		seen[catalog[i].id]++;
	for (h = 0; h < NR_HISTS; h++)
		bad += seen[h] != 1;
	CHECK(!bad, "every H_* id has exactly one catalogue row (%d not)", bad);
}

/* The NDJSON metric with the row's own label, as docs/bpf.md writes it. */
static const char *ndjson_metric(const struct catalog_row *r)
{
	static char out[160];
	char name[64];

	catalog_ndjson_name(r->fam, name, sizeof(name));
	if (r->label)
		snprintf(out, sizeof(out), "%s{%s=\"%s\"}", name, r->label, r->value);
	else
		snprintf(out, sizeof(out), "%s", name);
	return out;
}

int main(void)
{
	char buf[64];
	const char *bpf = slurp("docs/bpf.md"), *serve = slurp("docs/serve.md");
	unsigned int i;

	CHECK(*bpf && *serve, "docs/bpf.md and docs/serve.md read");
	check_ids();
	for (i = 0; i < catalog_nr; i++) {
		const struct catalog_row *r = &catalog[i];

		CHECK(names(bpf, r->key) && names(bpf, r->fam->name),
		      "docs/bpf.md names %s and %s", r->key, r->fam->name);
		CHECK(names(serve, r->fam->name), "docs/serve.md names %s", r->fam->name);
		CHECK(names(bpf, ndjson_metric(r)), "docs/bpf.md names the NDJSON metric %s",
		      ndjson_metric(r));
	}
	CHECK(!strcmp(catalog_ndjson_name(&(struct catalog_family){ .name = "gupstat_a_seconds_b_seconds" },
					  buf, sizeof(buf)), "a_seconds_b_ns") &&
	      !strcmp(catalog_ndjson_name(&(struct catalog_family){ .name = "gupstat_seconds" },
					  buf, sizeof(buf)), "seconds") &&
	      !strcmp(catalog_ndjson_name(&(struct catalog_family){ .name = "x_pages" }, buf, sizeof(buf)),
		      "x_pages"),
	      "NDJSON names: only a final _seconds becomes _ns, only a gupstat_ prefix goes");
	return check_done();
}
