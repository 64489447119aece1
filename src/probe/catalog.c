// SPDX-License-Identifier: GPL-2.0
/*
 * Every output name of the live BPF object, one row each: its histograms
 * (catalog[]), with every name each goes by, its counters
 * (catalog_counters[]) and the counts of the -P and --per-cgroup tables
 * (catalog_tallies[]). A new histogram is one row here, read by both
 * printers. The H_* ids (include/gupstat.h) stay the programs' and user
 * space's contract. What restates these tables (the docs' tables, the
 * man page's list, the NDJSON schema's names and keys) is written from
 * them by make catalog (tools/catalog/) and checked by
 * tests/host/test_catalog.sh.
 */
#include <stdio.h>
#include <string.h>
#include "probe/catalog.h"

static const struct catalog_family F_WALK_PAGES = { "gupstat_walk_pages",
	"Pages looked up per follow_page_pte() call (the batch size)." };
static const struct catalog_family F_WALK_HOLD = { "gupstat_walk_hold_seconds",
	"PTE-lock hold per follow_page_pte() call." };
static const struct catalog_family F_GRAB = { "gupstat_grab_refs",
	"Refs taken per %s() call (the refcount batch), by FOLL_PIN or FOLL_GET." };
static const struct catalog_family F_GUP_ASKED = { "gupstat_gup_asked_pages",
	"Pages asked per __get_user_pages() call, by kind (pin, get, no refs)." };
static const struct catalog_family F_GUP_GOT = { "gupstat_gup_returned_pages",
	"Pages returned per __get_user_pages() call, by kind." };
static const struct catalog_family F_GUP_NS = { "gupstat_gup_latency_seconds",
	"Latency per __get_user_pages() call, by kind." };
static const struct catalog_family F_GUP_EVENTS = { "gupstat_gup_events",
	"Perf counter delta per __get_user_pages() call, entry to return on one CPU." };
static const struct catalog_family F_UNPIN_PAGES = { "gupstat_unpin_pages",
	"Pages per unpin call, by function." };
static const struct catalog_family F_UNPIN_NS = { "gupstat_unpin_latency_seconds",
	"Latency per unpin call, by function." };
static const struct catalog_family F_UNPIN_EVENTS = { "gupstat_unpin_events",
	"Perf counter delta per unpin_user_pages*() call, entry to return on one CPU." };
static const struct catalog_family F_PUT = { "gupstat_put_refs",
	"Refs dropped per gup_put_folio() call." };
static const struct catalog_family F_FILL_PAGES = { "gupstat_fill_pages",
	"Pages per gup_fill_pages() call." };
static const struct catalog_family F_FILL_NS = { "gupstat_fill_seconds",
	"Time per gup_fill_pages() call." };
static const struct catalog_family F_PTE_WAIT = { "gupstat_pte_lock_wait_seconds",
	"Spin per wait on a PTE lock a GUP walk held, slow-path entry to return (--waits)." };

/* A row, its id's name with it: "H_GUP_ASKED + GUP_PIN" (tools/catalog). */
#define HIST(id, ...)	{ id, #id, __VA_ARGS__ }

/* The deprecated NDJSON names kept the enum's spelling: gup_GUP_PIN_asked. */
#define GUP_ROWS(kind, flag, label)					\
	HIST(H_GUP_ASKED + kind, P_GUP, "gup_" #kind "_asked",		\
	  "__get_user_pages() " flag ": pages asked per call", "pages",	\
	  false, &F_GUP_ASKED, "kind", label),			\
	HIST(H_GUP_GOT + kind, P_GUP, "gup_" #kind "_got",		\
	  "__get_user_pages() " flag ": pages returned per call", "pages", \
	  false, &F_GUP_GOT, "kind", label),				\
	HIST(H_GUP_NS + kind, P_GUP, "gup_" #kind "_ns",		\
	  "__get_user_pages() " flag ": latency per call", "nsecs",	\
	  false, &F_GUP_NS, "kind", label)

const struct catalog_row catalog[] = {
	HIST(H_WALK_PAGES, P_WALK, "walk_pages",
	  "follow_page_pte(): pages per call (the batch size)", "pages",
	  false, &F_WALK_PAGES, NULL, NULL),
	HIST(H_WALK_HOLD_NS, P_WALK, "walk_hold_ns",
	  "follow_page_pte(): PTE-lock hold per call", "nsecs",
	  false, &F_WALK_HOLD, NULL, NULL),
	HIST(H_GRAB_PIN_REFS, P_GRAB, "grab_pin_refs",
	  "%s() FOLL_PIN: refs per call (the refcount batch)", "refs",
	  false, &F_GRAB, "foll", "pin"),
	HIST(H_GRAB_GET_REFS, P_GRAB, "grab_get_refs",
	  "%s() FOLL_GET: refs per call (the refcount batch)", "refs",
	  false, &F_GRAB, "foll", "get"),
	GUP_ROWS(GUP_PIN, "FOLL_PIN", "pin"),
	GUP_ROWS(GUP_GET, "FOLL_GET", "get"),
	GUP_ROWS(GUP_NOREF, "no refs", "noref"),
	HIST(H_PMU_GUP, P_GUP, "pmu_gup",
	  "__get_user_pages(): counter per call", "events",
	  true, &F_GUP_EVENTS, NULL, NULL),
	HIST(H_UNPIN_PAGES, P_UNPIN, "unpin_pages",
	  "unpin_user_pages(): pages per call", "pages",
	  false, &F_UNPIN_PAGES, "function", "unpin_user_pages"),
	HIST(H_UNPIN_NS, P_UNPIN, "unpin_ns",
	  "unpin_user_pages(): latency per call", "nsecs",
	  false, &F_UNPIN_NS, "function", "unpin_user_pages"),
	HIST(H_UNPIN_DIRTY_PAGES, P_UNPIN_DIRTY, "unpin_dirty_pages",
	  "unpin_user_pages_dirty_lock(): pages per call", "pages",
	  false, &F_UNPIN_PAGES, "function", "unpin_user_pages_dirty_lock"),
	HIST(H_UNPIN_DIRTY_NS, P_UNPIN_DIRTY, "unpin_dirty_ns",
	  "unpin_user_pages_dirty_lock(): latency per call", "nsecs",
	  false, &F_UNPIN_NS, "function", "unpin_user_pages_dirty_lock"),
	HIST(H_PMU_UNPIN, P_UNPIN, "pmu_unpin",
	  "unpin_user_pages*(): counter per call", "events",
	  true, &F_UNPIN_EVENTS, NULL, NULL),
	HIST(H_PUT_REFS, P_PUT, "put_refs",
	  "gup_put_folio(): refs per call", "refs",
	  false, &F_PUT, NULL, NULL),
	HIST(H_FILL_PAGES, P_FILL, "fill_pages",
	  "gup_fill_pages(): pages per call", "pages",
	  false, &F_FILL_PAGES, NULL, NULL),
	HIST(H_FILL_NS, P_FILL, "fill_ns",
	  "gup_fill_pages(): time per call", "nsecs",
	  false, &F_FILL_NS, NULL, NULL),
	HIST(H_PTE_WAIT_NS, P_WAIT, "pte_wait_ns",
	  "PTE-lock waits: spin per wait on a lock a GUP walk held", "nsecs",
	  false, &F_PTE_WAIT, NULL, NULL),
};

const unsigned int catalog_nr = sizeof(catalog) / sizeof(catalog[0]);

const char *const catalog_walk_results[WALK_NR_RESULTS] = {
	"pages", "fault", "emlink", "eexist", "efault", "other",
};

const char *const catalog_gup_kinds[GUP_NR_KINDS] = { "pin", "get", "noref" };

#define COUNTER(f, name, help, probe, label, values, nr, pmu)		\
	{ name, help, probe, label, values, nr, offsetof(struct counters, f), pmu }

/* In serve's order, which is the NDJSON counters record's. */
const struct catalog_counter catalog_counters[] = {
	COUNTER(walk_results, "walk_returns",
		"follow_page_pte() returns, by result: pages looked up, a fault needed, or an error.",
		P_WALK, "result", catalog_walk_results, WALK_NR_RESULTS, false),
	COUNTER(gup_calls, "gup_calls",
		"__get_user_pages() calls, by kind (FOLL_PIN, FOLL_GET, no refs).",
		P_GUP, "kind", catalog_gup_kinds, GUP_NR_KINDS, false),
	COUNTER(gup_errors, "gup_errors",
		"__get_user_pages() calls that returned -errno, by kind.",
		P_GUP, "kind", catalog_gup_kinds, GUP_NR_KINDS, false),
	COUNTER(gup_longterm, "gup_longterm_calls",
		"FOLL_PIN __get_user_pages() calls with FOLL_LONGTERM.",
		P_GUP, NULL, NULL, 1, false),
	COUNTER(state_misses, "state_misses",
		"Returns without their entry's state: calls in flight at attach, walks whose task moved to another CPU inside the walk, walks whose entry program the kernel skipped.",
		NR_PROBES, NULL, NULL, 1, false),
	COUNTER(held_lost, "pte_held_lost",
		"PTE-lock holds --waits could not register (map full): spins on them are not counted.",
		P_WAIT, NULL, NULL, 1, false),
	COUNTER(pmu_misses, "pmu_read_misses",
		"Calls whose perf counter was not read (moved CPU mid-call, or the read failed).",
		NR_PROBES, NULL, NULL, 1, true),
};

const unsigned int catalog_counters_nr = sizeof(catalog_counters) / sizeof(catalog_counters[0]);

#define TALLY(f, name, help, cg) { name, help, offsetof(struct tally, f), cg, false, false }
/* --waits' counts: of the waiter, shown with --waits alone. */
#define TALLY_WAITS(f, name, help, ns) { name, help, offsetof(struct tally, f), false, true, ns }

/* In the NDJSON records' order. */
const struct catalog_tally catalog_tallies[] = {
	TALLY(walk_calls, "walk_calls", "follow_page_pte() calls.", false),
	TALLY(walk_pages, "walk_pages", "Pages looked up by follow_page_pte().", false),
	TALLY(gup_calls, "gup_calls", "__get_user_pages() calls.", false),
	TALLY(gup_pages, "gup_pages", "Pages returned by __get_user_pages().", false),
	TALLY(pin_pages, "pin_pages", "Pages returned by FOLL_PIN calls.", true),
	TALLY(longterm_pages, "longterm_pin_pages",
	      "Pages returned by FOLL_PIN calls with FOLL_LONGTERM.", true),
	TALLY(unpin_calls, "unpin_calls", "unpin_user_pages*() calls.", false),
	TALLY(unpin_pages, "unpin_pages", "Pages unpinned.", false),
	TALLY_WAITS(pte_waits, "pte_waits", "Spins on PTE locks GUP walks held.", false),
	TALLY_WAITS(pte_wait_ns, "pte_wait_ns", "Time spun on PTE locks GUP walks held.", true),
};

const unsigned int catalog_tallies_nr = sizeof(catalog_tallies) / sizeof(catalog_tallies[0]);

const char *catalog_tally_family(const struct catalog_tally *c, char *buf, size_t len)
{
	size_t n = strlen(c->name);

	if (c->ns && n > 3)
		snprintf(buf, len, "%.*s_seconds", (int)(n - 3), c->name);
	else
		snprintf(buf, len, "%s", c->name);
	return buf;
}

bool catalog_is_ns(const struct catalog_row *r)
{
	return !strcmp(r->unit, "nsecs");
}

unsigned int catalog_probe_labels(const struct catalog_view *v, enum probe_id probe,
				  struct catalog_label *out)
{
	out[0] = (struct catalog_label){ "method", probe_method_name(&v->probes[probe]) };
	out[1] = (struct catalog_label){ "walk", v->walk_returns_count ? "count" : "pointer" };
	return 2;
}

unsigned int catalog_labels(const struct catalog_view *v, const struct catalog_row *r,
			    struct catalog_label out[CATALOG_LABELS_MAX])
{
	unsigned int n = 0;

	if (r->label)
		out[n++] = (struct catalog_label){ r->label, r->value };
	if (r->pmu)
		out[n++] = (struct catalog_label){ "event", v->event };
	if (r->id == H_WALK_HOLD_NS)
		out[n++] = (struct catalog_label){ "lock", v->lock_exact ? "exact" : "upper_bound" };
	return n + catalog_probe_labels(v, r->probe, out + n);
}

const char *catalog_ndjson_name(const struct catalog_family *fam, char *buf, size_t len)
{
	static const char ns[] = "gupstat_", secs[] = "_seconds";
	const char *name = fam->name;
	size_t n;

	if (!strncmp(name, ns, sizeof(ns) - 1))
		name += sizeof(ns) - 1;
	n = strlen(name);
	if (n >= sizeof(secs) - 1 && !strcmp(name + n - (sizeof(secs) - 1), secs))
		snprintf(buf, len, "%.*s_ns", (int)(n - (sizeof(secs) - 1)), name);
	else
		snprintf(buf, len, "%s", name);
	return buf;
}
