// SPDX-License-Identifier: GPL-2.0
/* Choosing and confirming the anonymous folio size a workload gets. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "folio.h"

#define THP_DIR	"/sys/kernel/mm/transparent_hugepage"

/* "4k", "64k", "2m" (any case, optional "B"): size in kB. */
int folio_parse_size(const char *s, unsigned long *kb)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (end == s || !v)
		return -EINVAL;
	if (*end == 'k' || *end == 'K')
		*kb = v;
	else if (*end == 'm' || *end == 'M')
		*kb = v * 1024;
	else
		return -EINVAL;
	end++;
	if (*end == 'b' || *end == 'B')
		end++;
	return *end ? -EINVAL : 0;
}

static int knob_path(char *buf, size_t len, unsigned long kb, const char *file)
{
	return snprintf(buf, len, THP_DIR "/hugepages-%lukB/%s", kb, file);
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int err = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, len, f))
		err = -EIO;
	fclose(f);
	return err;
}

static int write_str(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");
	int err = 0;

	if (!f)
		return -errno;
	if (fputs(val, f) < 0)
		err = -EIO;
	if (fclose(f))
		err = -errno;
	return err;
}

/* The knob reads "always inherit madvise [never]": keep the bracketed one. */
static int knob_current(unsigned long kb, char *out, size_t len)
{
	char path[256], line[128], *l, *r;
	int err;

	knob_path(path, sizeof(path), kb, "enabled");
	err = read_line(path, line, sizeof(line));
	if (err)
		return err;
	l = strchr(line, '[');
	r = l ? strchr(l, ']') : NULL;
	if (!r || (size_t)(r - l) > len)
		return -EINVAL;
	*r = '\0';
	snprintf(out, len, "%s", l + 1);
	return 0;
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

int folio_discover(struct folio_sizes *fs)
{
	struct dirent *de;
	unsigned long kb;
	DIR *d;
	int i, err;

	memset(fs, 0, sizeof(*fs));
	d = opendir(THP_DIR);
	if (!d)
		return -errno;
	while ((de = readdir(d)) && fs->nr < FOLIO_MAX_SIZES)
		if (sscanf(de->d_name, "hugepages-%lukB", &kb) == 1)
			fs->kb[fs->nr++] = kb;
	closedir(d);
	qsort(fs->kb, fs->nr, sizeof(fs->kb[0]), cmp_ulong);
	for (i = 0; i < fs->nr; i++) {
		err = knob_current(fs->kb[i], fs->saved[i], sizeof(fs->saved[i]));
		if (err)
			return err;
	}
	return fs->nr ? 0 : -ENOENT;
}

/* Turn every size off, then @kb on; 4 kB is "all of them off". */
int folio_select(struct folio_sizes *fs, unsigned long kb)
{
	char path[256];
	bool found = kb == 4;
	int i, err;

	for (i = 0; i < fs->nr; i++) {
		knob_path(path, sizeof(path), fs->kb[i], "enabled");
		err = write_str(path, fs->kb[i] == kb ? "always" : "never");
		if (err)
			return err;
		found |= fs->kb[i] == kb;
	}
	return found ? 0 : -ENOENT;
}

void folio_restore(const struct folio_sizes *fs)
{
	char path[256];
	int i;

	for (i = 0; i < fs->nr; i++) {
		knob_path(path, sizeof(path), fs->kb[i], "enabled");
		write_str(path, fs->saved[i]);
	}
}

static int read_allocs(unsigned long kb, unsigned long long *val)
{
	char path[256], line[64];
	int err;

	knob_path(path, sizeof(path), kb, "stats/anon_fault_alloc");
	err = read_line(path, line, sizeof(line));
	if (!err)
		*val = strtoull(line, NULL, 10);
	return err;
}

int folio_snapshot(struct folio_sizes *fs)
{
	int i, err;

	for (i = 0; i < fs->nr; i++) {
		err = read_allocs(fs->kb[i], &fs->allocs[i]);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Since the snapshot, did faults allocate exactly @expected folios of
 * @kb and none of any other size? Prints the evidence either way.
 */
int folio_confirm(const struct folio_sizes *fs, unsigned long kb,
		  unsigned long long expected)
{
	unsigned long long now, delta, want;
	int i, err, bad = 0;

	for (i = 0; i < fs->nr; i++) {
		err = read_allocs(fs->kb[i], &now);
		if (err)
			return err;
		delta = now - fs->allocs[i];
		want = fs->kb[i] == kb ? expected : 0;
		if (delta != want) {
			fprintf(stderr, "gupwork: hugepages-%lukB anon_fault_alloc +%llu, expected +%llu\n",
				fs->kb[i], delta, want);
			bad = 1;
		}
	}
	if (bad)
		return -EAGAIN;
	printf("gupwork: folio size %lukB confirmed: %llu folios from anon_fault_alloc, none of other sizes\n",
	       kb, kb == 4 ? 0ULL : expected);
	return 0;
}
