// SPDX-License-Identifier: GPL-2.0
/* The workloads' check that faults gave the folio size they asked for. */
#include <errno.h>
#include <stdio.h>
#include "folio_confirm.h"

/*
 * Since the snapshot, did faults allocate at least @expected folios of
 * @kb, with no fallback to a smaller size and no folio of any other size?
 * The counters are system-wide: other tasks' faults can only add to the
 * chosen size (every other size is off), and a fault of ours that could
 * not get its folio shows as a fallback. Prints the evidence either way.
 */
int folio_confirm(const struct folio_sizes *fs, unsigned long kb,
		  unsigned long long expected)
{
	unsigned long long alloc = 0, fallback = 0, got = 0;
	int i, err, bad = 0;

	for (i = 0; i < fs->nr; i++) {
		err = folio_stats(fs, i, &alloc, &fallback);
		if (err)
			return err;
		alloc -= fs->allocs[i];
		fallback -= fs->fallbacks[i];
		if (fs->kb[i] == kb)
			got = alloc;
		if (fs->kb[i] == kb ? alloc < expected || fallback : alloc) {
			fprintf(stderr, "gupwork: %s%lukB %s +%llu %s +%llu, expected +%llu and +0\n",
				fs->legacy ? "thp_fault_* (no per-size counters), " : "hugepages-",
				fs->kb[i], folio_alloc_stat(fs), alloc, folio_fallback_stat(fs), fallback,
				fs->kb[i] == kb ? expected : 0);
			bad = 1;
		}
	}
	if (bad)
		return -EAGAIN;
	printf("gupwork: folio size %lukB confirmed: %s +%llu (region: %llu), no fallback, no other size\n",
	       kb, folio_alloc_stat(fs), got, kb == folio_base_kb() ? 0ULL : expected);
	return 0;
}
