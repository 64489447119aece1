// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/ksyms.c, the one reader of /proc/kallsyms, on a made-up copy:
 * what each of its three users takes from the same lines.
 */
#include <stdio.h>
#include <string.h>
#include "kernel/ksyms.h"
#include "scratch.h"
#include "tap.h"

static const char kallsyms[] =
	"0000000000000000 T hidden_by_kptr_restrict\n"
	"ffffffffc0001000 t follow_page_pte\t[fake_mod]\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81001000 t follow_page_pte\n"
	"ffffffff81002000 d some_data\n"
	"ffffffff81003000 t gup_fill_pages.part.0\n"
	"not a line\n";

static int count(void *ctx, __u64 addr, char type, const char *name, const char *mod)
{
	int *n = ctx;

	return ++*n == 3;
}

static void test_each(const char *path)
{
	int n = 0;

	CHECK(ksyms_each(path, count, &n) == 1 && n == 3,
	      "a non-zero return stops the walk and is returned (%d lines)", n);
	CHECK(ksyms_each("/nonexistent/kallsyms", count, &n) < 0,
	      "an unreadable file is -errno");
}

static void test_lookup(const char *path)
{
	const char *const names[] = { "follow_page_pte", "some_data", "absent" };
	__u64 a[3];

	CHECK(!ksyms_lookup(path, names, a, 3), "lookup reads the file");
	CHECK(a[0] == 0xffffffff81001000ULL, "the core kernel's symbol, not the module's");
	CHECK(a[1] == 0xffffffff81002000ULL, "data symbols are found by name");
	CHECK(a[2] == 0, "a missing name is 0");
}

static void test_load(const char *path)
{
	struct ksyms *ks = ksyms_load(path);
	char buf[128];

	CHECK(ks != NULL, "load reads the file");
	if (!ks)
		return;
	CHECK(ksyms_nr(ks) == 4, "text symbols with an address only (%zu)", ksyms_nr(ks));
	CHECK(!strcmp(ksyms_name(ks, 0xffffffff81002010ULL, buf, sizeof(buf)),
		      "follow_page_pte+0x1010"), "a data symbol does not split a function: %s", buf);
	CHECK(!strcmp(ksyms_name(ks, 0xffffffffc0001004ULL, buf, sizeof(buf)),
		      "follow_page_pte+0x4 [fake_mod]"), "a module's symbol names it: %s", buf);
	ksyms_free(ks);
}

int main(void)
{
	char *path = scratch("kallsyms");
	FILE *f = fopen(path, "w");

	if (!f || fputs(kallsyms, f) < 0 || fclose(f)) {
		perror(path);
		return 1;
	}
	test_each(path);
	test_lookup(path);
	test_load(path);
	return check_done();
}
