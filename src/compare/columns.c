// SPDX-License-Identifier: GPL-2.0
/*
 * The quantities gupstat compare sets side by side, one table each in
 * the text and one entry each in its JSON: which series of a run, in
 * which condition, and how it is printed.
 */
#include "compare/compare.h"

const struct v_column v_columns[] = {
	{ "pin_user_pages(FOLL_LONGTERM)", VC_WARM, false, false, 1e3, -1 },
	{ "unpin_user_pages()", VC_WARM, true, false, 1e3, -1 },
	{ "unpin_user_pages() after evicting the caches", VC_COLD, true, false, 1e3, -1 },
	{ "unpin_user_pages() after evicting before the pin (cold_pin)", VC_COLD_PIN, true,
	  false, 1e3, -1 },
	{ "counter per unpin_user_pages() call", VC_WARM, true, true, 1, -1 },
	{ "counter per pin call", VC_WARM, false, true, 1, -1 },
	{ "sim:struct-page-LLC-miss per unpin_user_pages() call, simulated", VC_WARM, true, false,
	  1, GS_SP_LLC_MISS },
	{ "sim:struct-page-LLC-miss per unpin_user_pages() call after evicting, simulated", VC_COLD,
	  true, false, 1, GS_SP_LLC_MISS },
	{ "sim:struct-page-LLC-miss per unpin_user_pages() call, cold_pin, simulated", VC_COLD_PIN,
	  true, false, 1, GS_SP_LLC_MISS },
	{ "sim:struct-page-L2-miss per unpin_user_pages() call, simulated", VC_WARM, true, false,
	  1, GS_SP_L2_MISS },
	{ "sim:LLC-miss per unpin_user_pages() call (all data), simulated", VC_WARM, true, false,
	  1, GS_LLC_MISS },
	{ "sim:struct-page-access per pin call, simulated", VC_WARM, false, false, 1,
	  GS_SP_ACCESS },
	{ "sim:struct-page-LLC-miss per pin call, cold_pin, simulated", VC_COLD_PIN, false, false,
	  1, GS_SP_LLC_MISS },
	{ "sim:LLC-miss per pin call (all data), simulated", VC_WARM, false, false, 1, GS_LLC_MISS },
};

const size_t v_nr_columns = sizeof(v_columns) / sizeof(v_columns[0]);

const struct v_series *v_column_series(const struct v_run *r, const struct v_column *c)
{
	const struct v_cond_result *x = &r->cond[c->cond];

	if (c->sim >= 0)
		return c->unpin ? &x->unpin_sim[c->sim] : &x->pin_sim[c->sim];
	if (c->counter)
		return c->unpin ? &x->unpin_ctr : &x->pin_ctr;
	return c->unpin ? &x->unpin_ns : &x->pin_ns;
}

static bool has_counter(const struct v_results *r)
{
	return r->nr_runs && r->runs[0].cond[VC_WARM].unpin_ctr.n;
}

bool v_column_shown(const struct v_column *c, const struct v_results *a,
		    const struct v_results *b)
{
	if (c->sim >= 0)
		return a->sim_model[0] && b->sim_model[0];
	return !c->counter || (has_counter(a) && has_counter(b));
}
