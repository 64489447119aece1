// SPDX-License-Identifier: GPL-2.0
/*
 * The tester's unpin claims, decided from two gupstat validate results.
 *
 * A quantity differs between the kernels only when both hold: the
 * medians are at least 10% apart, and the interquartile ranges do not
 * overlap. Anything less is "same": with 15 repeats that keeps one
 * noisy repeat from making a verdict.
 */
#include <stdio.h>
#include <string.h>
#include "compare/compare.h"

enum v_change v_change_of(const struct v_series *base, const struct v_series *other)
{
	struct v_summary a, b;

	if (!base->n || !other->n)
		return VCH_NO_DATA;
	v_summarise(base, &a);
	v_summarise(other, &b);
	if (b.p25 > a.p75 && b.median >= a.median * V_MIN_CHANGE)
		return VCH_HIGHER;
	if (b.p75 < a.p25 && b.median * V_MIN_CHANGE <= a.median)
		return VCH_LOWER;
	return VCH_SAME;
}

const char *v_verdict_name(enum v_verdict v)
{
	static const char *const names[] = { "HOLDS", "DOES NOT HOLD", "INCONCLUSIVE",
					     "NOT APPLICABLE" };

	return names[v];
}

const struct v_run *v_find_run(const struct v_results *r, enum v_folio f, unsigned int mb)
{
	int i;

	for (i = 0; i < r->nr_runs; i++)
		if (r->runs[i].folio == f && r->runs[i].size_mb == mb)
			return &r->runs[i];
	return NULL;
}

static double median_of(const struct v_series *s)
{
	struct v_summary m;

	v_summarise(s, &m);
	return m.median;
}

const char *v_change_name(enum v_change c)
{
	static const char *const w[] = { "unchanged", "higher", "lower", "not measured" };

	return w[c];
}

/* The sizes of folio F measured on both kernels, ascending. */
static int common_sizes(const struct v_results *a, const struct v_results *b, enum v_folio f,
			unsigned int *mb)
{
	int i, n = 0;

	for (i = 0; i < a->nr_runs; i++)
		if (a->runs[i].folio == f && v_find_run(b, f, a->runs[i].size_mb))
			mb[n++] = a->runs[i].size_mb;
	return n;
}

#define SAY(c, ...)	snprintf((c)->evidence, sizeof((c)->evidence), __VA_ARGS__)

/* The warm unpin at the largest size, as claims 1 and 4 both judge it. */
static enum v_change warm_unpin(struct v_claim *c, const struct v_run *a, const struct v_run *b)
{
	enum v_change ch = v_change_of(&a->cond[VC_WARM].unpin_ns, &b->cond[VC_WARM].unpin_ns);

	SAY(c, "timing: %u MB warm unpin median %.1f -> %.1f us (%s)", a->size_mb,
	    median_of(&a->cond[VC_WARM].unpin_ns) / 1e3,
	    median_of(&b->cond[VC_WARM].unpin_ns) / 1e3, v_change_name(ch));
	return ch;
}

/* 1: unpin is slower at the largest size. */
static void claim_slower(struct v_claim *c, const struct v_run *a, const struct v_run *b)
{
	c->claim = "unpin_user_pages() is slower at the largest size";
	c->verdict = warm_unpin(c, a, b) == VCH_HIGHER ? VV_HOLDS : VV_FAILS;
}

/* 2: ... and unchanged at the smaller ones. */
static void claim_flat(struct v_claim *c, const struct v_results *a, const struct v_results *b,
		       enum v_folio f, const unsigned int *mb, int n)
{
	size_t len = 0;
	int i, moved = 0;

	c->claim = "unpin_user_pages() is unchanged at the smaller sizes";
	c->evidence[0] = 0;
	for (i = 0; i < n - 1 && len < sizeof(c->evidence); i++) {
		const struct v_run *x = v_find_run(a, f, mb[i]), *y = v_find_run(b, f, mb[i]);
		enum v_change ch = v_change_of(&x->cond[VC_WARM].unpin_ns, &y->cond[VC_WARM].unpin_ns);

		moved += ch != VCH_SAME;
		len += snprintf(c->evidence + len, sizeof(c->evidence) - len,
				"%stiming: %u MB %.1f -> %.1f us (%s)", i ? "; " : "", mb[i],
				median_of(&x->cond[VC_WARM].unpin_ns) / 1e3,
				median_of(&y->cond[VC_WARM].unpin_ns) / 1e3, v_change_name(ch));
	}
	c->verdict = n < 2 ? VV_INCONCLUSIVE : moved ? VV_FAILS : VV_HOLDS;
	if (n < 2)
		SAY(c, "only one size measured");
}

/*
 * 3: the slowdown is a cache effect. With counters, the other kernel's
 * unpin must miss more. Without, the control: evicting the caches before
 * the unpin must slow base's unpin (else the eviction proved nothing),
 * and the two kernels' cold unpins must meet.
 */
static void claim_cache(struct v_claim *c, const struct v_run *a, const struct v_run *b,
			bool slower)
{
	enum v_change misses = v_change_of(&a->cond[VC_WARM].unpin_ctr, &b->cond[VC_WARM].unpin_ctr);
	enum v_change cold = v_change_of(&a->cond[VC_COLD].unpin_ns, &b->cond[VC_COLD].unpin_ns);
	enum v_change evict = v_change_of(&a->cond[VC_WARM].unpin_ns, &a->cond[VC_COLD].unpin_ns);
	char ctl[200];

	c->claim = "the unpin slowdown is a cache effect (tail struct pages)";
	snprintf(ctl, sizeof(ctl), "cold-cache control: base unpin warm %.1f -> cold %.1f us (%s); cold unpin %.1f -> %.1f us (%s)",
		 median_of(&a->cond[VC_WARM].unpin_ns) / 1e3, median_of(&a->cond[VC_COLD].unpin_ns) / 1e3,
		 v_change_name(evict), median_of(&a->cond[VC_COLD].unpin_ns) / 1e3,
		 median_of(&b->cond[VC_COLD].unpin_ns) / 1e3, v_change_name(cold));
	if (misses != VCH_NO_DATA) {
		c->verdict = !slower ? VV_NOT_APPLICABLE : misses == VCH_HIGHER ? VV_HOLDS : VV_FAILS;
		SAY(c, "counters: unpin counter per call %.0f -> %.0f (%s); %s", median_of(&a->cond[VC_WARM].unpin_ctr),
		    median_of(&b->cond[VC_WARM].unpin_ctr), v_change_name(misses), ctl);
		return;
	}
	if (!slower)
		c->verdict = VV_NOT_APPLICABLE;
	else if (evict != VCH_HIGHER)
		c->verdict = VV_INCONCLUSIVE;
	else
		c->verdict = cold == VCH_SAME ? VV_HOLDS : VV_FAILS;
	SAY(c, "timing only (no counter): %s%s", ctl,
	    !slower ? "; no slowdown to explain" :
	    evict != VCH_HIGHER ? "; evicting did not slow base's unpin, so the control shows nothing" : "");
}

/*
 * 3 on a simulated cache (no counter on both): TCG's times carry no
 * memory latency, so the model decides the mechanism the claim names,
 * not the time. It holds when the other kernel's pin reads fewer struct
 * pages and, the caches evicted before the pin (cold_pin: what the unpin
 * finds, the pin brought in), its unpin misses more struct page lines in
 * the last level. The warm loop is shown beside it: there the previous
 * repeat's unpin has brought the lines in, whatever the pin did.
 */
static void claim_cache_sim(struct v_claim *c, const struct v_results *ra,
			    const struct v_results *rb, const struct v_run *a, const struct v_run *b)
{
	enum v_cond k = a->cond[VC_COLD_PIN].unpin_sim[GS_SP_LLC_MISS].n &&
			b->cond[VC_COLD_PIN].unpin_sim[GS_SP_LLC_MISS].n ? VC_COLD_PIN : VC_WARM;
	const struct v_series *ua = &a->cond[k].unpin_sim[GS_SP_LLC_MISS];
	const struct v_series *ub = &b->cond[k].unpin_sim[GS_SP_LLC_MISS];
	const struct v_series *pa = &a->cond[VC_WARM].pin_sim[GS_SP_ACCESS];
	const struct v_series *pb = &b->cond[VC_WARM].pin_sim[GS_SP_ACCESS];
	const struct v_series *wa = &a->cond[VC_WARM].unpin_sim[GS_SP_LLC_MISS];
	const struct v_series *wb = &b->cond[VC_WARM].unpin_sim[GS_SP_LLC_MISS];
	enum v_change unpin = v_change_of(ua, ub), pin = v_change_of(pa, pb);

	if (strcmp(ra->sim_model, rb->sim_model)) {
		c->verdict = VV_INCONCLUSIVE;
		SAY(c, "simulated cache: the two files were measured on different models");
		return;
	}
	c->verdict = unpin == VCH_HIGHER && pin == VCH_LOWER ? VV_HOLDS : VV_FAILS;
	SAY(c, "simulated cache (%.*s), the mechanism, not the time: %u MB pin struct page accesses "
	    "%.0f -> %.0f (%s); %s unpin struct page LLC misses per call %.0f -> %.0f (%s); "
	    "warm loop: %.0f -> %.0f (%s)",
	    (int)strcspn(ra->sim_model, ":"), ra->sim_model, a->size_mb, median_of(pa),
	    median_of(pb), v_change_name(pin), v_cond_names[k], median_of(ua), median_of(ub),
	    v_change_name(unpin), median_of(wa), median_of(wb), v_change_name(v_change_of(wa, wb)));
}

/* 4: the goal for a fixed kernel. */
static void claim_goal(struct v_claim *c, const struct v_run *a, const struct v_run *b)
{
	c->claim = "unpin_user_pages() at the largest size is no slower than base";
	c->verdict = warm_unpin(c, a, b) == VCH_HIGHER ? VV_FAILS : VV_HOLDS;
}

/* The claims for folio size F; -1 when F was not measured on both. */
int v_claims(const struct v_results *base, const struct v_results *other, enum v_folio f,
	     struct v_claim *out)
{
	unsigned int mb[V_MAX_RUNS];
	const struct v_run *a, *b;
	int n = common_sizes(base, other, f, mb);

	if (!n)
		return -1;
	a = v_find_run(base, f, mb[n - 1]);
	b = v_find_run(other, f, mb[n - 1]);
	claim_slower(&out[0], a, b);
	claim_flat(&out[1], base, other, f, mb, n);
	claim_cache(&out[2], a, b, out[0].verdict == VV_HOLDS);
	/* A real counter on both wins; else the simulated cache decides. */
	if (!(a->cond[VC_WARM].unpin_ctr.n && b->cond[VC_WARM].unpin_ctr.n) &&
	    base->sim_model[0] && other->sim_model[0])
		claim_cache_sim(&out[2], base, other, a, b);
	claim_goal(&out[3], a, b);
	return 0;
}
