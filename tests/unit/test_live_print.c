// SPDX-License-Identifier: GPL-2.0
/*
 * Report text and NDJSON for a made-up snapshot. With --ndjson, one whole
 * NDJSON report of every kind of record instead, every probe attached,
 * for tests/host/test_json.sh to check against docs/schemas/live.schema.json.
 */
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "live/print.h"
#include "live/procs.h"

static char buf[1 << 20];

/* 2026-12-03T15:40:01.123456Z; CLOCK_MONOTONIC 5 s after boot. */
static const struct live_stamp stamp = { 1796312401123456789ULL, 5000000000ULL, true };

static const char *render(const struct live_print_ctx *rc, const struct snapshot *s)
{
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	live_print(f, rc, s, &stamp);
	live_print_end(f, rc, &stamp);
	fclose(f);
	return buf;
}

/* Every record a report can have, every histogram with values. */
static int ndjson(void)
{
	static struct snapshot s;
	struct probe probes[NR_PROBES] = {};
	struct catalog_view v = { .probes = probes, .event = "cpu-clock" };
	struct live_print_ctx rc = { .v = &v, .json = true };
	struct proc_stats ps = { .comm = "gupwork\"1", .t.walk_pages = 4096 };
	struct tally t = { .walk_calls = 8, .pin_pages = 8, .pte_waits = 2, .pte_wait_ns = 900 };
	/* Every probe is attached, --waits too: every key the schema knows. */
	struct procs_out po = { .json = &stamp, .waits = true };
	unsigned int i;

	probes_table(probes);
	for (i = 0; i < NR_PROBES; i++) {
		probes[i].method = i % 2 ? ATTACH_KPROBE : ATTACH_FENTRY;
		probes[i].kprobe = probes[i].kretprobe = (struct bpf_program *)1;
		probes[i].fentry = probes[i].fexit = (struct bpf_program *)1;
	}
	for (i = 0; i < NR_HISTS; i++) {
		/* The last slot of each kind; a log2 one has no slot past it. */
		s.hists[i].slots[i < HIST_FIRST_LOG2 ? HIST_SLOTS - 1 : HIST_LOG2_SLOTS - 1] = 1;
		s.hists[i].slots[HIST_SLOTS - 1] += i >= HIST_FIRST_LOG2;
		s.hists[i].slots[3] = 2;
		s.hists[i].count = 3;
		s.hists[i].sum = 1006;
		s.hists[i].max = 1000;
	}
	s.c.gup_errors[GUP_GET] = 1;
	live_print(stdout, &rc, &s, &stamp);
	procs_print_json(stdout, 4242, &ps, &po);
	procs_print_cgroups_json(stdout, 1, "/", &t, &po);
	procs_print_cgroups_json(stdout, 99, NULL, &t, &po);
	live_print_end(stdout, &rc, &stamp);
	return 0;
}

int main(int argc, char **argv)
{
	static struct snapshot s;
	struct probe probes[NR_PROBES] = {};
	struct catalog_view v = { .probes = probes };
	struct live_print_ctx rc = { .v = &v };
	struct hist *walk = &s.hists[H_WALK_PAGES], *hold = &s.hists[H_WALK_HOLD_NS];
	const char *out;

	if (argc > 1 && !strcmp(argv[1], "--ndjson"))
		return ndjson();
	probes[P_WALK].method = ATTACH_FENTRY;
	probes[P_UNPIN].method = ATTACH_KPROBE;
	/* Method names come from which programs a probe has: any non-NULL. */
	probes[P_UNPIN].kprobe = (struct bpf_program *)1;
	probes[P_UNPIN].kretprobe = (struct bpf_program *)1;
	probes[P_WALK].fentry = (struct bpf_program *)1;
	probes[P_WALK].fexit = (struct bpf_program *)1;
	probes[P_LOCK].func = "__pte_offset_map_lock";
	walk->slots[16] = 1024;
	walk->count = 1024;
	walk->sum = 16384;
	walk->max = 16;
	hold->slots[11] = 1024;		/* 1024..2047 ns */
	hold->count = 1024;
	s.hists[H_FILL_NS].count = 5;	/* its probe is not attached */
	s.c.walk_results[WALK_PAGES] = 1024;
	s.c.walk_results[WALK_EMLINK] = 3;
	v.walk_returns_count = true;

	setenv("TZ", "UTC", 1);
	out = render(&rc, &s);
	CHECK(!strncmp(out, "15:40:01\n", 9), "-T: the time first, to the second");
	CHECK(strstr(out, "        16         : 1024     |****************************************|"),
	      "batch of 16 in the linear histogram");
	CHECK(strstr(out, "      1024 -> 2047       : 1024 "), "hold in the log2 histogram");
	CHECK(strstr(out, "upper bound: follow_page_pte() entry to return"),
	      "the hold says how it was measured");
	CHECK(strstr(out, "count 1024, total 16384 pages, avg 16.0, max 16"),
	      "summary line with the unit");
	CHECK(strstr(out, "-EMLINK 3"), "no-page returns by reason");
	CHECK(strstr(out, "page count: batched walk"), "names the return shape");
	CHECK(!strstr(out, "gup_fill_pages"), "a probe that is not attached is not shown");
	CHECK(!strstr(out, "skipped by the kernel"), "no skipped runs, no line");
	s.probe_misses = 1024;
	CHECK(strstr(render(&rc, &s), "\n1024 probe runs skipped by the kernel since the start"),
	      "the kernel's skipped runs said");

	rc.json = true;
	v.lock_exact = true;
	out = render(&rc, &s);
	CHECK(strstr(out, "{\"type\":\"hist\",\"time\":\"2026-12-03T15:40:01.123456Z\",\"ts_ns\":5000000000,\"data\":{\"metric\":\"walk_pages\",\"labels\":{\"method\":\"fentry+fexit\",\"walk\":\"count\"},\"name\":\"walk_pages\""),
	      "NDJSON hist record: RFC 3339 time, ts_ns, serve's family and labels, the old name");
	CHECK(strstr(out, "\"buckets\":[{\"low\":16,\"high\":16,\"count\":1024}]"),
	      "linear bucket bounds");
	CHECK(strstr(out, "{\"low\":1024,\"high\":2047,\"count\":1024}"), "log2 bucket bounds");
	CHECK(strstr(out, "\"metric\":\"walk_hold_ns\",\"labels\":{\"lock\":\"exact\",\"method\":\"fentry+fexit\",\"walk\":\"count\"}"),
	      "the hold's family with its lock label, as serve writes it");
	CHECK(strstr(out, "\"method\":\"fentry+fexit\",\"note\":\"exact: from __pte_offset_map_lock() return to follow_page_pte() return\""),
	      "method and note apart");
	probes[P_LOCK].func = "pte_offset_map_lock";
	CHECK(strstr(render(&rc, &s), "\"note\":\"exact: from pte_offset_map_lock() return to follow_page_pte() return\""),
	      "the note names the lock function BTF chose (7.x's)");
	probes[P_LOCK].func = "__pte_offset_map_lock";
	out = render(&rc, &s);
	CHECK(strstr(out, "\"name\":\"unpin_ns\"") && strstr(out, "\"method\":\"kprobe+kretprobe\",\"note\":null"),
	      "an attached probe is listed even when empty, with its method and no note");
	CHECK(strstr(out, "\"metric\":\"unpin_latency_ns\",\"labels\":{\"function\":\"unpin_user_pages\",\"method\":\"kprobe+kretprobe\""),
	      "a _seconds family named _ns, its own label first");
	CHECK(!strstr(out, "fill_ns"), "no record for a probe that is not attached");
	CHECK(strstr(out, "\"walk_returns\":{\"pages\":1024,\"fault\":0,\"emlink\":3,"),
	      "counters by serve's family and label values");
	CHECK(strstr(out, "\"walk_emlink\":3"), "the deprecated counter names kept");
	CHECK(strstr(out, "\"probe_misses\":1024"), "the skipped runs in the counters record");
	CHECK(strstr(out, "{\"type\":\"end\",\"time\":\"2026-12-03T15:40:01.123456Z\",\"ts_ns\":5000000000,\"data\":{}}\n"),
	      "end record");
	CHECK(!strstr(out, "15:40:01\n"), "no -T line in NDJSON");
	return check_done();
}
