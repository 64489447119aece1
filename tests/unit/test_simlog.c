// SPDX-License-Identifier: GPL-2.0
/*
 * The cache-model plugin's log lines as gupstat reads them: every record
 * type, the count columns in enum gupsim_count order, and lines that
 * are cut or carry a column too many refused.
 */
#include <string.h>
#include "gupsim/simlog.h"
#include "tap.h"

static void check_counts(const struct simrec *r, const char *what)
{
	int i, bad = -1;

	for (i = 0; i < GS_NR; i++)
		if (r->n[i] != (uint64_t)(i + 1) * 10)
			bad = i;
	CHECK(bad < 0, "%s: every count in its column (first wrong: %d)", what, bad);
}

int main(void)
{
	const char *counts = " 10 20 30 40 50 60 70 80 90 100 110";
	char line[256];
	struct simrec r;

	CHECK(GS_NR == 11, "eleven counts per call (got %d)", GS_NR);
	snprintf(line, sizeof(line), "call pin_user_pages 1%s", counts);
	CHECK(!simrec_parse(line, &r) && r.type == SIMREC_CALL && r.vcpu == 1 &&
	      !strcmp(r.name, "pin_user_pages"), "a call line");
	check_counts(&r, "call");
	CHECK(r.n[GS_INSNS] == 90 && r.n[GS_OTHER_INSNS] == 100 && r.n[GS_OTHER_ACCESS] == 110,
	      "instructions, and what was not the call's, after the misses");
	snprintf(line, sizeof(line), "mark 0%s", counts);
	CHECK(!simrec_parse(line, &r) && r.type == SIMREC_MARK, "a mark line");
	check_counts(&r, "mark");
	snprintf(line, sizeof(line), "prof unpin_user_pages 0xffffffff8119d7a0%s", counts);
	CHECK(!simrec_parse(line, &r) && r.type == SIMREC_PROF && r.addr == 0xffffffff8119d7a0ull &&
	      !strcmp(r.name, "unpin_user_pages"), "a profile line: function and block");
	check_counts(&r, "prof");
	CHECK(!simrec_parse("profend", &r) && r.type == SIMREC_PROFEND, "the profile's end");
	CHECK(!simrec_parse("ready zen3: AMD Zen 3", &r) && r.type == SIMREC_READY &&
	      !strcmp(r.text, "zen3: AMD Zen 3"), "ready with the model");
	CHECK(simrec_parse("call pin_user_pages 0 1 2 3 4 5 6 7 8", &r) < 0,
	      "a call from before instructions were counted is refused, not read short");
	snprintf(line, sizeof(line), "call pin_user_pages 0%s 120", counts);
	CHECK(simrec_parse(line, &r) < 0, "a column too many is refused");
	CHECK(simrec_parse("prof pin_user_pages zz 1", &r) < 0, "a profile line without a block");
	CHECK(simrec_parse("profend now", &r) < 0, "profend with more on the line");
	return check_done();
}
