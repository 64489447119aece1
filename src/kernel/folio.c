// SPDX-License-Identifier: GPL-2.0
/*
 * Choosing the folio size anonymous (or shared anonymous) memory gets,
 * through the THP knobs, and reading the counters that say what faults
 * allocated: for the workloads and for gupstat validate.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kernel/folio.h"


/* The knob and counters of the memory a workload maps. */
static const char *knob_file(const struct folio_sizes *fs)
{
	return fs->shmem ? "shmem_enabled" : "enabled";
}

static const char *alloc_stat(const struct folio_sizes *fs)
{
	return fs->shmem ? "shmem_alloc" : "anon_fault_alloc";
}

static const char *fallback_stat(const struct folio_sizes *fs)
{
	return fs->shmem ? "shmem_fallback" : "anon_fault_fallback";
}

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

/* The base page: a folio of this size is "every larger size off". */
unsigned long folio_base_kb(void)
{
	return (unsigned long)sysconf(_SC_PAGESIZE) / 1024;
}

/*
 * Without per-size controls (a kernel older than mTHP) the top-level
 * switch is the PMD size's knob: "never" gives 4 kB folios, "always" PMD
 * ones, and no other size exists.
 */
static int knob_path(const struct folio_sizes *fs, char *buf, size_t len,
		     unsigned long kb, const char *file)
{
	if (fs->legacy)
		return snprintf(buf, len, FOLIO_THP_DIR "/%s", file);
	return snprintf(buf, len, FOLIO_THP_DIR "/hugepages-%lukB/%s", kb, file);
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
static int knob_current(const struct folio_sizes *fs, unsigned long kb,
			char *out, size_t len)
{
	char path[256], line[128], *l, *r;
	int err;

	knob_path(fs, path, sizeof(path), kb, knob_file(fs));
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

/*
 * Sizes with only shmem knobs (hugepages-8kB on x86) are not for anon,
 * and the PMD size has no per-size knob for shmem on older kernels.
 */
static bool has_knob(const struct folio_sizes *fs, unsigned long kb)
{
	char path[256];

	knob_path(fs, path, sizeof(path), kb, knob_file(fs));
	return !access(path, F_OK);
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* The top-level switch alone: one size, the PMD's (hpage_pmd_size). */
static int discover_legacy(struct folio_sizes *fs)
{
	char line[64];
	int err;

	err = read_line(FOLIO_THP_DIR "/hpage_pmd_size", line, sizeof(line));
	if (err)
		return err;
	fs->legacy = true;
	fs->kb[fs->nr++] = strtoul(line, NULL, 10) / 1024;
	return 0;
}

int folio_discover(struct folio_sizes *fs, bool shmem)
{
	struct dirent *de;
	unsigned long kb;
	DIR *d;
	int i, err;

	memset(fs, 0, sizeof(*fs));
	fs->shmem = shmem;
	d = opendir(FOLIO_THP_DIR);
	if (!d)
		return -errno;
	while ((de = readdir(d)) && fs->nr < FOLIO_MAX_SIZES)
		if (sscanf(de->d_name, "hugepages-%lukB", &kb) == 1 &&
		    has_knob(fs, kb))
			fs->kb[fs->nr++] = kb;
	closedir(d);
	if (!fs->nr && shmem)
		return -EOPNOTSUPP;
	if (!fs->nr) {
		err = discover_legacy(fs);
		if (err)
			return err;
	}
	qsort(fs->kb, fs->nr, sizeof(fs->kb[0]), cmp_ulong);
	for (i = 0; i < fs->nr; i++) {
		err = knob_current(fs, fs->kb[i], fs->saved[i], sizeof(fs->saved[i]));
		if (err)
			return err;
	}
	return fs->nr ? 0 : -ENOENT;
}

/*
 * Turn every size off, then @kb on ("always", or "madvise" with
 * fs->madvise); the base page is "all of them off".
 */
int folio_select(struct folio_sizes *fs, unsigned long kb)
{
	const char *on = fs->madvise ? "madvise" : "always";
	char path[256];
	bool found = kb == folio_base_kb();
	int i, err;

	for (i = 0; i < fs->nr; i++) {
		knob_path(fs, path, sizeof(path), fs->kb[i], knob_file(fs));
		err = write_str(path, fs->kb[i] == kb ? on : "never");
		if (err)
			return err;
		found |= fs->kb[i] == kb;
	}
	if (!found && fs->legacy)
		return -EOPNOTSUPP;
	return found ? 0 : -ENOENT;
}

bool folio_has_size(const struct folio_sizes *fs, unsigned long kb)
{
	int i;

	for (i = 0; !fs->legacy && i < fs->nr; i++)
		if (fs->kb[i] == kb)
			return true;
	return false;
}

void folio_restore(const struct folio_sizes *fs)
{
	char path[256];
	int i;

	for (i = 0; i < fs->nr; i++) {
		knob_path(fs, path, sizeof(path), fs->kb[i], knob_file(fs));
		write_str(path, fs->saved[i]);
	}
}

/*
 * /proc/vmstat's "NAME VALUE" line: the top-level counters that stand in
 * for the per-size ones without mTHP (anon_fault_alloc is thp_fault_alloc
 * there, anon_fault_fallback thp_fault_fallback).
 */
static int read_vmstat(const char *stat, unsigned long long *val)
{
	char name[64], want[64];
	unsigned long long v;
	int err = -ENOENT;
	FILE *f;

	snprintf(want, sizeof(want), "thp_%s", stat + strlen("anon_"));
	f = fopen("/proc/vmstat", "r");
	if (!f)
		return -errno;
	while (fscanf(f, "%63s %llu", name, &v) == 2)
		if (!strcmp(name, want)) {
			*val = v;
			err = 0;
			break;
		}
	fclose(f);
	return err;
}

static int read_stat(const struct folio_sizes *fs, unsigned long kb, const char *stat,
		     unsigned long long *val)
{
	char path[256], line[64], file[64];
	int err;

	if (fs->legacy)
		return read_vmstat(stat, val);
	snprintf(file, sizeof(file), "stats/%s", stat);
	knob_path(fs, path, sizeof(path), kb, file);
	err = read_line(path, line, sizeof(line));
	if (!err)
		*val = strtoull(line, NULL, 10);
	return err;
}

int folio_stats(const struct folio_sizes *fs, int i, unsigned long long *alloc,
		unsigned long long *fallback)
{
	return read_stat(fs, fs->kb[i], alloc_stat(fs), alloc) ?:
	       read_stat(fs, fs->kb[i], fallback_stat(fs), fallback);
}

const char *folio_alloc_stat(const struct folio_sizes *fs)
{
	return alloc_stat(fs);
}

const char *folio_fallback_stat(const struct folio_sizes *fs)
{
	return fallback_stat(fs);
}

int folio_snapshot(struct folio_sizes *fs)
{
	int i, err = 0;

	for (i = 0; !err && i < fs->nr; i++) {
		err = read_stat(fs, fs->kb[i], alloc_stat(fs), &fs->allocs[i]);
		if (!err)
			err = read_stat(fs, fs->kb[i], fallback_stat(fs), &fs->fallbacks[i]);
	}
	return err;
}
