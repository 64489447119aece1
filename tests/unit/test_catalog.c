// SPDX-License-Identifier: GPL-2.0
/*
 * The histogram catalogue (src/probe/catalog.c): every kernel histogram
 * has one row, which names its id. What the docs say of the rows is
 * written from it and checked by tests/host/test_catalog.sh.
 */
#include <string.h>
#include "tap.h"
#include "probe/catalog.h"

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

/*
 * Every count of the -P table is a field of its own, and every counter
 * is inside struct counters with as many values as its label has.
 */
static void check_fields(void)
{
	unsigned int i, j, bad = 0;

	for (i = 0; i < catalog_tallies_nr; i++)
		for (j = 0; j < i; j++)
			bad += catalog_tallies[i].off == catalog_tallies[j].off;
	bad += catalog_tallies_nr != sizeof(struct tally) / sizeof(__u64);
	for (i = 0; i < catalog_counters_nr; i++) {
		const struct catalog_counter *c = &catalog_counters[i];

		bad += c->off + c->nr * sizeof(__u64) > sizeof(struct counters);
		bad += !c->label != !c->values || (!c->label && c->nr != 1);
	}
	CHECK(!bad, "every tally a field of its own, every counter inside struct counters (%u not)",
	      bad);
}

int main(void)
{
	char buf[64];

	check_ids();
	check_fields();
	CHECK(!strcmp(catalog_ndjson_name(&(struct catalog_family){ .name = "gupstat_a_seconds_b_seconds" },
					  buf, sizeof(buf)), "a_seconds_b_ns") &&
	      !strcmp(catalog_ndjson_name(&(struct catalog_family){ .name = "gupstat_seconds" },
					  buf, sizeof(buf)), "seconds") &&
	      !strcmp(catalog_ndjson_name(&(struct catalog_family){ .name = "x_pages" }, buf, sizeof(buf)),
		      "x_pages"),
	      "NDJSON names: only a final _seconds becomes _ns, only a gupstat_ prefix goes");
	return check_done();
}
