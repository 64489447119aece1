// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: gupstat validate's results file reader
 * (src/results/json.c, over json-c), as gupstat compare reads a file,
 * and then compare's verdicts, plot and JSON (-j) on what it read. It must never
 * crash, leak or read out of bounds (ASan, UBSan); a refusal is exactly
 * one error line naming the file, and what is read is within the
 * bounds the reader promises. A file that reads is written back with
 * v_results_write() and read again: the writer's output must read, and
 * the second write must equal the first byte for byte.
 *
 * The reader takes a path: each input goes through a memfd. p_err() is
 * this file's own, so that every error line is seen whole.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "compare/compare.h"
#include "util/msg.h"
#include "results/results.h"

static int fd = -1;
static char path[64];
static char err[1024];
static int nr_err;

/* The one error line: kept, counted, and never printed. */
void p_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, sizeof(err), fmt, ap);
	va_end(ap);
	nr_err++;
}

static void put(const void *data, size_t size)
{
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
}

/* Read @path afresh: 0 and no error, or -errno and exactly one line. */
static int read_one(struct v_results *r)
{
	size_t n = strlen(path);
	int ret;

	nr_err = 0;
	err[0] = 0;
	ret = v_results_read(path, r);
	if (!ret && nr_err)
		abort();	/* read, yet something was said */
	if (ret && (nr_err != 1 || strncmp(err, path, n) || strncmp(err + n, ": ", 2) ||
		    strchr(err, '\n') != err + strlen(err) - 1))
		abort();	/* "one clear error", naming the file */
	return ret;
}

static void printable(const char *s, size_t size)
{
	if (strnlen(s, size) == size)
		abort();
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			abort();	/* compare prints these */
}

/* What the reader promised; and true if every run had cold_pin. */
static bool check(const struct v_results *r)
{
	bool cold_pin = true;
	int i, k, s;

	if (r->nr_runs < 1 || r->nr_runs > V_MAX_RUNS)
		abort();
	printable(r->kernel, sizeof(r->kernel));
	printable(r->kernel_version, sizeof(r->kernel_version));
	printable(r->walk, sizeof(r->walk));
	printable(r->attach, sizeof(r->attach));
	printable(r->event, sizeof(r->event));
	printable(r->no_event_reason, sizeof(r->no_event_reason));
	printable(r->sim_model, sizeof(r->sim_model));
	for (i = 0; i < r->nr_runs; i++) {
		const struct v_run *run = &r->runs[i];

		if ((unsigned int)run->folio >= VF_NR || !run->size_mb || !run->pages)
			abort();
		for (k = 0; k < VC_NR; k++) {
			const struct v_cond_result *c = &run->cond[k];
			const struct v_series *all[] = { &c->pin_ns, &c->unpin_ns, &c->pin_ctr,
							 &c->unpin_ctr };

			for (s = 0; s < 4; s++)
				if (all[s]->n < 0 || all[s]->n > V_MAX_REPEATS)
					abort();
			for (s = 0; s < GS_NR; s++)
				if (c->pin_sim[s].n > V_MAX_REPEATS || c->unpin_sim[s].n > V_MAX_REPEATS)
					abort();
		}
		cold_pin &= run->cond[VC_COLD_PIN].unpin_ns.n > 0;
	}
	return cold_pin;
}

/* compare's own use of a file: the verdicts, the plot and -j, against itself. */
static void use(const struct v_results *r)
{
	struct v_claim c[V_NR_CLAIMS];
	FILE *f = fopen("/dev/null", "w");
	int i;

	if (!f)
		abort();
	for (i = 0; i < VF_NR; i++)
		v_claims(r, r, i, c);
	compare_plot(f, r, r, "base.json", "other.json");
	compare_json(f, "base.json", r, "other.json", r);
	fclose(f);
}

static char *write_out(const struct v_results *r, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		abort();
	v_results_write(f, r);
	if (fclose(f))
		abort();
	return buf;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fd = memfd_create("results.json", 0);
	if (fd < 0)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* 20 MB (32 runs of every series): static, as the reader clears it. */
	static struct v_results res;
	struct v_results *r = &res;
	char *w1, *w2;
	size_t l1, l2;
	bool cold_pin;

	put(data, size);
	if (read_one(r))
		return 0;
	cold_pin = check(r);
	use(r);
	/* A file from before cold_pin reads, but is not written back alike. */
	if (!cold_pin)
		return 0;
	w1 = write_out(r, &l1);
	put(w1, l1);
	if (read_one(r))
		abort();	/* gupstat refused what it wrote */
	w2 = write_out(r, &l2);
	if (l1 != l2 || memcmp(w1, w2, l1))
		abort();	/* a field not read as it was written */
	free(w1);
	free(w2);
	return 0;
}
