// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat validate's statistics, results file and verdicts, from
 * synthetic results: each verdict both ways, and a reader that refuses
 * each kind of damage with the field's name.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tap.h"
#include "scratch.h"
#include "compare/compare.h"
#include "results/results.h"

static void fill(struct v_series *s, double median, double spread, int n)
{
	int i;

	s->n = 0;
	for (i = 0; i < n; i++)
		v_series_add(s, median + spread * ((i % 5) - 2));
}

/* One folio size at 16, 64 and 256 MB; unpin medians per size given. */
static void synth(struct v_results *r, enum v_folio f, const double warm[3],
		  const double cold[3], double ctr)
{
	static const unsigned int mb[3] = { 16, 64, 256 };
	struct v_run *run;
	int i;

	memset(r, 0, sizeof(*r));
	strcpy(r->kernel, "6.12.117-test");
	strcpy(r->walk, "page");
	strcpy(r->attach, "fentry");
	strcpy(r->no_event_reason, "no PMU");
	r->repeats = 15;
	r->evict_bytes = 256 << 20;
	for (i = 0; i < 3; i++) {
		run = &r->runs[r->nr_runs++];
		run->folio = f;
		run->size_mb = mb[i];
		run->pages = mb[i] * 256;
		run->folios = run->pages / (v_folio_bytes(f) / 4096);
		run->census.grabs = run->pages;
		run->census.puts = run->folios;
		fill(&run->cond[VC_WARM].pin_ns, 1e6, 1e3, 15);
		fill(&run->cond[VC_COLD].pin_ns, 1e6, 1e3, 15);
		fill(&run->cond[VC_WARM].unpin_ns, warm[i], warm[i] / 100, 15);
		fill(&run->cond[VC_COLD].unpin_ns, cold[i], cold[i] / 100, 15);
		fill(&run->cond[VC_COLD_PIN].pin_ns, 1e6, 1e3, 15);
		fill(&run->cond[VC_COLD_PIN].unpin_ns, cold[i], cold[i] / 100, 15);
		if (ctr > 0) {
			strcpy(r->event, "cache-misses");
			fill(&run->cond[VC_WARM].unpin_ctr, ctr * (i + 1), 10, 15);
		}
	}
}

/* Simulated counts on every run: struct page reads per pin, and struct
 * page LLC misses per unpin in each condition. */
static void synth_sim(struct v_results *r, const char *model, double pin_reads,
		      double warm_miss, double cold_pin_miss)
{
	struct v_cond_result *c;
	int i, k, n;

	snprintf(r->sim_model, sizeof(r->sim_model), "%s: a test model", model);
	for (i = 0; i < r->nr_runs; i++) {
		for (k = 0; k < VC_NR; k++) {
			c = &r->runs[i].cond[k];
			for (n = 0; n < GS_NR; n++) {
				fill(&c->pin_sim[n], 100, 1, 15);
				fill(&c->unpin_sim[n], 100, 1, 15);
			}
			fill(&c->pin_sim[GS_SP_ACCESS], pin_reads, 1, 15);
			fill(&c->unpin_sim[GS_SP_LLC_MISS], k == VC_COLD_PIN ? cold_pin_miss :
			     k == VC_WARM ? warm_miss : 65536, 0, 15);
		}
	}
}

static void test_summary(void)
{
	struct v_series s = {};
	struct v_summary m;
	double v[] = { 5, 1, 4, 2, 3 };
	int i;

	for (i = 0; i < 5; i++)
		v_series_add(&s, v[i]);
	v_summarise(&s, &m);
	CHECK(m.n == 5 && m.median == 3 && m.p25 == 2 && m.p75 == 4 && m.min == 1 && m.max == 5,
	      "odd count: median 3, quartiles 2 and 4 (%g %g %g)", m.median, m.p25, m.p75);
	v_series_add(&s, 6);
	v_summarise(&s, &m);
	CHECK(m.median == 3.5 && m.p25 == 2.25 && m.p75 == 4.75,
	      "even count interpolates: 3.5, 2.25, 4.75 (%g %g %g)", m.median, m.p25, m.p75);
	s.n = 0;
	v_summarise(&s, &m);
	CHECK(m.n == 0 && m.median == 0, "empty series summarises to nothing");
}

static void test_change(void)
{
	struct v_series a, b;

	fill(&a, 100, 2, 15);
	fill(&b, 180, 2, 15);
	CHECK(v_change_of(&a, &b) == VCH_HIGHER, "94 -> 180 shape is higher");
	CHECK(v_change_of(&b, &a) == VCH_LOWER, "and the other way lower");
	fill(&b, 105, 2, 15);
	CHECK(v_change_of(&a, &b) == VCH_SAME, "5%% apart is the same, quartiles apart or not");
	fill(&b, 150, 60, 15);
	CHECK(v_change_of(&a, &b) == VCH_SAME, "50%% apart but quartiles overlapping is the same");
	b.n = 0;
	CHECK(v_change_of(&a, &b) == VCH_NO_DATA, "no samples: no data");
}

static struct v_results ra, rb;

static void claims(const double *bw, const double *bc, double actr, double bctr,
		   struct v_claim *c)
{
	static const double aw[3] = { 10e3, 40e3, 94e3 }, ac[3] = { 15e3, 60e3, 180e3 };

	synth(&ra, VF_64K, aw, ac, actr);
	synth(&rb, VF_64K, bw, bc, bctr);
	CHECK(!v_claims(&ra, &rb, VF_64K, c), "claims decided for 64k");
}

static void test_claims(void)
{
	static const double slow[3] = { 10e3, 40e3, 180e3 }, cold_meet[3] = { 15e3, 60e3, 180e3 };
	static const double cold_apart[3] = { 15e3, 60e3, 300e3 }, same[3] = { 10e3, 40e3, 94e3 };
	struct v_claim c[V_NR_CLAIMS];

	claims(slow, cold_meet, 0, 0, c);
	CHECK(c[0].verdict == VV_HOLDS, "slower at 256 MB: holds (%s)", c[0].evidence);
	CHECK(c[1].verdict == VV_HOLDS, "flat at 16 and 64 MB: holds");
	CHECK(c[2].verdict == VV_HOLDS && strstr(c[2].evidence, "timing only"),
	      "cold unpins meet: cache effect holds on timing only (%s)", c[2].evidence);
	CHECK(c[3].verdict == VV_FAILS, "goal fails when slower");

	claims(slow, cold_apart, 0, 0, c);
	CHECK(c[2].verdict == VV_FAILS, "cold unpins still apart: not a cache effect");

	claims(slow, cold_meet, 1000, 1000, c);
	CHECK(c[2].verdict == VV_FAILS && strstr(c[2].evidence, "counters"),
	      "counters say the same misses: cache effect fails on counters");
	claims(slow, cold_meet, 1000, 3000, c);
	CHECK(c[2].verdict == VV_HOLDS, "counters show more misses: holds");

	claims(same, same, 0, 0, c);
	CHECK(c[0].verdict == VV_FAILS && c[2].verdict == VV_NOT_APPLICABLE &&
	      c[3].verdict == VV_HOLDS, "no slowdown: claim fails, nothing to explain, goal met");

	/* The control proves nothing if evicting did not slow base. */
	synth(&ra, VF_64K, same, same, 0);
	synth(&rb, VF_64K, slow, same, 0);
	v_claims(&ra, &rb, VF_64K, c);
	CHECK(c[2].verdict == VV_INCONCLUSIVE, "eviction without effect: inconclusive");

	CHECK(v_claims(&ra, &rb, VF_2M, c) == -1, "a folio size not measured gives no claims");
}

static void sim_claims(double bpin, double bwarm, double bcold_pin, const char *bmodel,
		       double ctr, struct v_claim *c)
{
	static const double same[3] = { 10e3, 40e3, 94e3 };

	synth(&ra, VF_64K, same, same, ctr);
	synth(&rb, VF_64K, same, same, ctr);
	synth_sim(&ra, "zen3", 65536, 0, 0);
	synth_sim(&rb, bmodel, bpin, bwarm, bcold_pin);
	v_claims(&ra, &rb, VF_64K, c);
}

/* No timed slowdown in any of these: the model decides the mechanism. */
static void test_sim_claims(void)
{
	struct v_claim c[V_NR_CLAIMS];

	sim_claims(4096, 0, 61440, "zen3", 0, c);
	CHECK(c[2].verdict == VV_HOLDS && strstr(c[2].evidence, "simulated cache (zen3)") &&
	      strstr(c[2].evidence, "cold_pin unpin struct page LLC misses per call 0 -> 61440 (higher)"),
	      "fewer struct page reads in the pin, more misses in the cold_pin unpin: holds (%s)",
	      c[2].evidence);
	sim_claims(4096, 0, 0, "zen3", 0, c);
	CHECK(c[2].verdict == VV_FAILS, "the unpin misses no more: does not hold");
	sim_claims(65536, 0, 61440, "zen3", 0, c);
	CHECK(c[2].verdict == VV_FAILS, "the pin reads as many struct pages: does not hold");
	sim_claims(4096, 0, 61440, "skylake-sp", 0, c);
	CHECK(c[2].verdict == VV_INCONCLUSIVE, "two models: inconclusive");
	sim_claims(4096, 0, 61440, "zen3", 1000, c);
	CHECK(c[2].verdict == VV_NOT_APPLICABLE && strstr(c[2].evidence, "counters"),
	      "a real counter on both wins over the model (%s)", c[2].evidence);
	/* Files without cold_pin: the warm unpin decides. */
	sim_claims(4096, 3840, 0, "zen3", 0, c);
	for (int i = 0; i < rb.nr_runs; i++)
		rb.runs[i].cond[VC_COLD_PIN].unpin_sim[GS_SP_LLC_MISS].n = 0;
	v_claims(&ra, &rb, VF_64K, c);
	CHECK(c[2].verdict == VV_HOLDS && strstr(c[2].evidence, "warm unpin"),
	      "no cold_pin: decided on the warm unpin (%s)", c[2].evidence);
}

static int write_to(const char *path, const struct v_results *r)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	v_results_write(f, r);
	return fclose(f) ? -errno : 0;
}

/* Replace the first FROM in the file at PATH by TO; false if absent. */
static bool damage(const char *path, const char *from, const char *to)
{
	static char buf[1 << 20];
	FILE *f = fopen(path, "r");
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	char *p;

	fclose(f);
	buf[n] = 0;
	p = strstr(buf, from);
	f = fopen(path, "w");
	if (p) {
		fwrite(buf, 1, p - buf, f);
		fputs(to, f);
		fputs(p + strlen(from), f);
	}
	fclose(f);
	return p != NULL;
}

static void test_file(void)
{
	static const double w[3] = { 1e4, 4e4, 9.4e4 };
	char *path = scratch("results.json");
	static struct v_results back;
	static const char *const bad[][2] = {
		{ "\"format\":\"gupstat-validate-unpin\"", "\"format\":\"other\"" },
		{ "\"version\":1", "\"version\":2" },
		{ "\"runs\":[", "\"runz\":[" },
		{ "\"folio\":\"64k\"", "\"folio\":\"8k\"" },
		{ "\"size_mb\":16", "\"size_mb\":0" },
		{ "\"unpin_ns\":[", "\"unpin_ns\":[-1," },
		{ "\"pin_calls\":0", "\"pin_calls\":\"0\"" },
		{ "\"warm\":{", "\"hot\":{" },
		{ "{", "[" },
	};
	int i, err;

	synth(&ra, VF_64K, w, w, 500);
	CHECK(!write_to(path, &ra), "results written");
	err = v_results_read(path, &back);
	CHECK(!err && back.nr_runs == 3 && !strcmp(back.kernel, ra.kernel) &&
	      !strcmp(back.event, "cache-misses") && back.repeats == 15 &&
	      back.runs[2].size_mb == 256 && back.runs[2].folios == 4096 &&
	      back.runs[2].census.grabs == 65536 &&
	      back.runs[2].cond[VC_COLD].unpin_ns.n == 15 &&
	      back.runs[2].cond[VC_COLD].unpin_ns.v[14] == ra.runs[2].cond[VC_COLD].unpin_ns.v[14] &&
	      back.runs[1].cond[VC_WARM].unpin_ctr.n == 15,
	      "read back equal: kernel, counter, runs, census, every sample");
	for (i = 0; i < (int)(sizeof(bad) / sizeof(bad[0])); i++) {
		write_to(path, &ra);
		CHECK(damage(path, bad[i][0], bad[i][1]) && v_results_read(path, &back) == -EINVAL,
		      "refused: %s -> %s", bad[i][0], bad[i][1]);
	}
	synth_sim(&ra, "zen3", 4096, 0, 61440);
	ra.sim_retried = 2;
	write_to(path, &ra);
	err = v_results_read(path, &back);
	CHECK(!err && back.sim_retried == 2, "the repeats run again read back (2)");
	CHECK(damage(path, "\"repeats_retried\":", "\"earlier\":") && !v_results_read(path, &back) &&
	      back.sim_retried == 0, "a file from before repeats_retried reads, as none");
	write_to(path, &ra);
	err = v_results_read(path, &back);
	CHECK(!err && !strcmp(back.sim_model, ra.sim_model) &&
	      back.runs[2].cond[VC_COLD_PIN].unpin_sim[GS_SP_LLC_MISS].n == 15 &&
	      back.runs[2].cond[VC_COLD_PIN].unpin_sim[GS_SP_LLC_MISS].v[3] ==
	      ra.runs[2].cond[VC_COLD_PIN].unpin_sim[GS_SP_LLC_MISS].v[3] &&
	      back.runs[0].cond[VC_WARM].pin_sim[GS_SP_ACCESS].v[0] == 4096 - 2,
	      "simulated counts read back: model, every sample");
	CHECK(damage(path, "\"sim:LLC-miss\":{", "\"sim:LLC-misses\":{") &&
	      v_results_read(path, &back) == -EINVAL, "refused: a simulated counter missing");
	ra.sim_model[0] = 0;
	write_to(path, &ra);
	CHECK(damage(path, "\"cold_pin\":{", "\"earlier\":{") && !v_results_read(path, &back) &&
	      !back.runs[0].cond[VC_COLD_PIN].unpin_ns.n && !back.sim_model[0],
	      "a file from before cold_pin and --sim reads");
	unlink(path);
	CHECK(v_results_read(path, &back) == -EINVAL, "refused: missing file");
}

int main(void)
{
	test_summary();
	test_change();
	test_claims();
	test_sim_claims();
	test_file();
	return check_done();
}
