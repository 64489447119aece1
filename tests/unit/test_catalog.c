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

int main(void)
{
	char buf[64];
	unsigned int i;

	check_ids();
	for (i = 0; i < catalog_nr; i++)
		if (!catalog[i].id_name || strncmp(catalog[i].id_name, "H_", 2))
			break;
	CHECK(i == catalog_nr, "every row names its id (row %u does not)", i);
	CHECK(!strcmp(catalog_ndjson_name(&(struct catalog_family){ .name = "gupstat_a_seconds_b_seconds" },
					  buf, sizeof(buf)), "a_seconds_b_ns") &&
	      !strcmp(catalog_ndjson_name(&(struct catalog_family){ .name = "gupstat_seconds" },
					  buf, sizeof(buf)), "seconds") &&
	      !strcmp(catalog_ndjson_name(&(struct catalog_family){ .name = "x_pages" }, buf, sizeof(buf)),
		      "x_pages"),
	      "NDJSON names: only a final _seconds becomes _ns, only a gupstat_ prefix goes");
	return check_done();
}
