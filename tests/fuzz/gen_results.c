// SPDX-License-Identifier: GPL-2.0
/*
 * The results-file fuzz seeds (make fuzz-corpus): small files as gupstat
 * validate writes them (v_results_write(), a base-shaped and a
 * batched-shaped one with the cache model), an older file without
 * cold_pin, one whose strings are hostile, and broken variants of them:
 * truncated, nested past json-c's depth, numbers too large, a sample
 * that is not whole, trailing data, a NUL. valid-* must be read, bad-*
 * refused (tests/host/test_corpus.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "results/results.h"

static char dir[512];

static const char *at(const char *name)
{
	static char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static void save(const char *name, const char *b, size_t len)
{
	FILE *f = fopen(at(name), "wb");

	if (!f || fwrite(b, 1, len, f) != len || fclose(f)) {
		perror(at(name));
		exit(1);
	}
}

/* Few repeats: seeds stay a few kB, under the fuzzer's -max_len. */
static void series(struct v_series *s, double base, int n)
{
	int i;

	for (i = 0; i < n; i++)
		v_series_add(s, base + 37 * i);
}

static void run(struct v_run *r, enum v_folio f, unsigned int mb, bool sim)
{
	unsigned long fsize = v_folio_bytes(f);
	int k, i;

	r->folio = f;
	r->size_mb = mb;
	r->pages = (mb << 20) / 4096;
	r->folios = (mb << 20) / fsize;
	r->census.pin_calls = r->census.unpin_calls = 1;
	r->census.pin_pages = r->census.unpin_pages = r->pages;
	r->census.grabs = r->census.puts = r->folios;
	r->census.grab_refs = r->census.put_refs = r->pages;
	for (k = 0; k < VC_NR; k++) {
		series(&r->cond[k].pin_ns, 90000 + 1000 * k, 3);
		series(&r->cond[k].unpin_ns, 40000 + 3000 * k, 3);
		series(&r->cond[k].pin_ctr, 500, 3);
		series(&r->cond[k].unpin_ctr, 300 + 200 * k, 3);
		for (i = 0; sim && i < GS_NR; i++) {
			series(&r->cond[k].pin_sim[i], 100 * i, 2);
			series(&r->cond[k].unpin_sim[i], 50 * i, 2);
		}
	}
}

static void common(struct v_results *r, const char *kernel, const char *walk)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->kernel, sizeof(r->kernel), "%s", kernel);
	snprintf(r->kernel_version, sizeof(r->kernel_version), "#1 SMP PREEMPT_DYNAMIC");
	snprintf(r->walk, sizeof(r->walk), "%s", walk);
	snprintf(r->attach, sizeof(r->attach), "fentry");
	r->evict_bytes = 64UL << 20;
	r->repeats = 3;
	r->cpu = 1;
}

/* @r as validate writes it, into a malloc()ed string. */
static char *text(const struct v_results *r, size_t *len)
{
	char *b = NULL;
	FILE *f = open_memstream(&b, len);

	if (!f)
		exit(1);
	v_results_write(f, r);
	fclose(f);
	return b;
}

/* @b with the first @from replaced by @to, saved as @name. */
static void edit(const char *name, const char *b, const char *from, const char *to)
{
	const char *p = strstr(b, from);
	char *c;
	size_t n;

	if (!p) {
		fprintf(stderr, "gen_results: %s: no '%s'\n", name, from);
		exit(1);
	}
	n = strlen(b) - strlen(from) + strlen(to);
	c = malloc(n + 1);
	snprintf(c, n + 1, "%.*s%s%s", (int)(p - b), b, to, p + strlen(from));
	save(name, c, n);
	free(c);
}

static void nested(void)
{
	static char b[20001];
	int i;

	memset(b, '[', 20000);
	save("bad-nested-arrays.json", b, 20000);
	memset(b, 0, sizeof(b));
	for (i = 0; i < 1000; i++)
		strcat(b, "{\"a\":");
	save("bad-nested-objects.json", b, strlen(b));
}

int main(int argc, char **argv)
{
	static struct v_results r;
	char *base, *batched, *c;
	size_t len, blen, len_base;

	if (argc != 2) {
		fprintf(stderr, "usage: gen_results DIR\n");
		return 2;
	}
	snprintf(dir, sizeof(dir), "%s", argv[1]);

	common(&r, "6.12.118-base", "page");
	snprintf(r.no_event_reason, sizeof(r.no_event_reason), "no PMU in this guest");
	run(&r.runs[r.nr_runs++], VF_4K, 16, false);
	base = text(&r, &len_base);
	save("valid-base.json", base, len_base);

	common(&r, "6.12.118-batched", "count");
	snprintf(r.event, sizeof(r.event), "cache-misses");
	snprintf(r.sim_model, sizeof(r.sim_model), "Zen 3: 32 kB L1d, 512 kB L2, 32 MB LLC");
	r.vmemmap_start = 0xffffea0000000000ULL;
	r.vmemmap_end = 0xffffea0000400000ULL;
	run(&r.runs[r.nr_runs++], VF_4K, 16, true);
	run(&r.runs[r.nr_runs++], VF_64K, 16, true);
	batched = text(&r, &blen);
	save("valid-batched-sim.json", batched, blen);

	/* Before cold_pin and the instruction counts: still read. */
	common(&r, "6.12.117", "page");
	run(&r.runs[r.nr_runs++], VF_2M, 64, false);
	r.runs[0].cond[VC_COLD_PIN] = (struct v_cond_result){};
	c = text(&r, &len);
	edit("valid-old-no-cold-pin.json", c, "\"cold_pin\":", "\"not_cold_pin\":");
	free(c);

	/* Terminal escapes, a NUL escape, bytes that are not UTF-8. */
	edit("valid-hostile-strings.json", base, "\"6.12.118-base\"",
	     "\"\\u001b[2J\\u001b]0;owned\\u0007\\r\\b\\u0000x\xff\xfe\xc0\xaf\"");

	len = len_base;
	save("bad-truncated-half.json", base, len / 2);
	save("bad-truncated-end.json", base, len - 3);
	nested();
	edit("bad-number-huge.json", base, "\"size_mb\":16", "\"size_mb\":99999999999999999999999999");
	edit("bad-number-int64.json", base, "\"cpu\":1", "\"cpu\":9223372036854775808");
	edit("bad-number-negative.json", base, "\"size_mb\":16", "\"size_mb\":-16");
	edit("bad-number-exp.json", base, "\"size_mb\":16", "\"size_mb\":1e400");
	edit("bad-sample-fraction.json", base, "90000", "90000.5");
	edit("bad-sample-2p53.json", base, "90000", "9007199254740993");
	edit("bad-runs-not-array.json", base, "\"runs\":[", "\"runs\":7,\"x\":[");
	edit("bad-format.json", base, "gupstat-validate-unpin", "gupstat-validate-pin");
	edit("bad-string-too-long.json", base, "\"page\"",
	     "\"pagepagepagepagepagepagepagepage\"");
	edit("bad-sim-model-empty.json", batched, "\"Zen 3: 32 kB L1d, 512 kB L2, 32 MB LLC\"", "\"\"");
	edit("bad-sim-counter-missing.json", batched, "\"sim:L2-miss\"", "\"sim:L2-hit\"");
	c = malloc(len + 2);
	memcpy(c, base, len);
	memcpy(c + len, "{}", 2);
	save("bad-trailing-document.json", c, len + 2);
	memcpy(c, base, len);
	c[len / 3] = 0;
	save("bad-nul-byte.json", c, len);
	free(c);
	save("bad-not-object.json", "[1, 2, 3]\n", 10);
	/* Found by the fuzzer: json-c reads "null" as NULL, and NULs after
	 * the document once passed for its end; both were refused silently. */
	save("bad-null.json", "null\n", 5);
	save("bad-null-then-nuls.json", "null\0\0\0\0", 8);
	save("bad-single-quote.json", "{'format': 1}", 13);
	free(base);
	free(batched);
	return 0;
}
