// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "util/hist.h"

/* Print into a string so the rows can be compared. */
static char *capture_linear(const __u64 *slots, int nr, int first)
{
	static char buf[4096];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	hist_print_linear(f, "pages/call", slots, nr, first);
	fclose(f);
	return buf;
}

static void test_bar(void)
{
	char bar[41];

	hist_bar(bar, 10, 10, 40);
	CHECK(strspn(bar, "*") == 40, "full count fills the bar");
	hist_bar(bar, 5, 10, 40);
	CHECK(strspn(bar, "*") == 20 && bar[20] == ' ' && strlen(bar) == 40,
	      "half count fills half, padded to 40");
	hist_bar(bar, 1, 1000000, 40);
	CHECK(strspn(bar, "*") == 1, "a rare non-zero bucket still shows one star");
	hist_bar(bar, 0, 10, 40);
	CHECK(strspn(bar, "*") == 0, "zero shows no star");
}

static void test_linear(void)
{
	__u64 slots[8] = { 0, 16384, 0, 4, 0, 0, 0, 2 };
	char *out = capture_linear(slots, 8, 0);

	CHECK(strstr(out, "pages/call") && strstr(out, "count    distribution"),
	      "header names the unit and columns");
	CHECK(strstr(out, "        1          : 16384    |****************************************|"),
	      "largest bucket has the full bar: %s", out);
	CHECK(!strstr(out, "\n        0 "), "leading empty buckets are skipped");
	CHECK(strstr(out, "        2          : 0 "), "inner empty buckets are kept");
	CHECK(strstr(out, "        >= 7       : 2 "), "the last slot is an overflow slot");

	memset(slots, 0, sizeof(slots));
	CHECK(strstr(capture_linear(slots, 8, 0), "(no events)"), "empty histogram says so");
}

static void test_log2(void)
{
	static char buf[4096];
	__u64 slots[6] = { 0, 0, 0, 7, 0, 1 };
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	hist_print_log2(f, "nsecs", slots, 6);
	fclose(f);
	CHECK(strstr(buf, "         4 -> 7          : 7 "), "slot 3 spans 4..7: %s", buf);
	CHECK(strstr(buf, "        16 -> 31         : 1 "), "slot 5 spans 16..31");
	CHECK(!strstr(buf, "32 ->"), "stops at the last non-empty slot");
	CHECK(!strstr(buf, " 0 -> 0 ") && !strstr(buf, " 2 -> 3 "),
	      "starts at the first non-empty slot");
	CHECK(strstr(buf, "         8 -> 15         : 0 "), "inner empty slots are kept");
}

int main(void)
{
	test_bar();
	test_linear();
	test_log2();
	return check_done();
}
