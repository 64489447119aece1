// SPDX-License-Identifier: GPL-2.0
/*
 * PMUs by their sysfs description, as perf reads it: "cpu/cycles/",
 * "cpu/event=0x3c,umask=0x0/", "msr/tsc/". Each PMU directory gives its
 * perf type (type), how each term's value lands in the config words
 * (format/TERM: "config:0-7,21") and its named events (events/NAME:
 * terms of their own).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/pmu_names.h"
#include "kernel/pmu_sysfs.h"

static const char *sysfs_root = PMU_SYSFS_ROOT;

void pmu_sysfs_set_root(const char *dir)
{
	sysfs_root = dir ? dir : PMU_SYSFS_ROOT;
}

/* The first line of ROOT/@pmu/@file, without its newline; false if none. */
static bool read_line(const char *pmu, const char *file, char *buf, size_t len)
{
	char path[512];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/%s/%s", sysfs_root, pmu, file);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fgets(buf, len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

/* A number as perf's terms take it: decimal, or hex after 0x. */
static bool parse_num(const char *s, __u64 *v)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return !errno && !*end;
}

/* The config word a format or term names, or NULL. */
static __u64 *config_word(struct perf_event_attr *attr, const char *word)
{
	if (!strcmp(word, "config"))
		return &attr->config;
	if (!strcmp(word, "config1"))
		return &attr->config1;
	if (!strcmp(word, "config2"))
		return &attr->config2;
	return NULL;
}

/*
 * @v spread over the bits format @fmt names ("config:0-7,32-35"), low
 * bits first, OR-ed in as perf's pmu_format_value() does (config=0x1234,
 * umask=0x5 is 0x1734); -ERANGE when @v has more.
 */
static int apply_format(struct perf_event_attr *attr, char *fmt, __u64 v)
{
	char *bits = strchr(fmt, ':'), *tok, *save;
	unsigned int lo, hi, b;
	__u64 *word;

	if (!bits)
		return -EINVAL;
	*bits++ = '\0';
	word = config_word(attr, fmt);
	if (!word)
		return -EINVAL;
	for (tok = strtok_r(bits, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (sscanf(tok, "%u-%u", &lo, &hi) != 2)
			hi = lo = strtoul(tok, NULL, 10);
		for (b = lo; b <= hi && b < 64; b++, v >>= 1)
			*word |= (v & 1) << b;
	}
	return v ? -ERANGE : 0;
}

static int parse_terms(const char *pmu, char *terms, struct perf_event_attr *attr,
		       bool aliases, char *why, size_t len);

/* The terms of PMU @pmu's event @name, from its events/ file. */
static bool event_terms(const char *pmu, const char *name, char *buf, size_t len)
{
	char file[300];

	snprintf(file, sizeof(file), "events/%s", name);
	return !strchr(name, '/') && read_line(pmu, file, buf, len);
}

/*
 * A term without a value: the PMU's event of that name (perf's hardware
 * aliases by perf's name, so "cycles" finds events/cpu-cycles), else a
 * format term set to 1.
 */
static int bare_term(const char *pmu, const char *term, struct perf_event_attr *attr,
		     bool aliases, char *why, size_t len)
{
	char file[300], buf[512];

	if (aliases && (event_terms(pmu, term, buf, sizeof(buf)) ||
			event_terms(pmu, pmu_name_hw_symbol(term), buf, sizeof(buf))))
		return parse_terms(pmu, buf, attr, false, why, len);
	snprintf(file, sizeof(file), "format/%s", term);
	if (!read_line(pmu, file, buf, sizeof(buf)) || apply_format(attr, buf, 1)) {
		snprintf(why, len, "PMU %s has no event or term '%s'", pmu, term);
		return -EINVAL;
	}
	return 0;
}

static int value_term(const char *pmu, char *term, char *val, struct perf_event_attr *attr,
		      char *why, size_t len)
{
	char file[300], buf[512];
	__u64 v, *word;
	int err;

	if (!strcmp(term, "name"))
		return 0;	/* perf's label for its output: gupstat has none */
	if (!parse_num(val, &v)) {
		snprintf(why, len, "term %s of PMU %s: '%s' is not a number", term, pmu, val);
		return -EINVAL;
	}
	word = config_word(attr, term);
	if (word) {
		*word = v;
		return 0;
	}
	snprintf(file, sizeof(file), "format/%s", term);
	if (!read_line(pmu, file, buf, sizeof(buf))) {
		snprintf(why, len, "PMU %s has no term '%s'", pmu, term);
		return -EINVAL;
	}
	err = apply_format(attr, buf, v);
	if (err)
		snprintf(why, len, "term %s of PMU %s: %s", term, pmu,
			 err == -ERANGE ? "value wider than its format" : "unreadable format");
	return err ? -EINVAL : 0;
}

/* perf's terms, comma-separated, in order: a later one overrides. */
static int parse_terms(const char *pmu, char *terms, struct perf_event_attr *attr,
		       bool aliases, char *why, size_t len)
{
	char *tok, *save, *val;
	int err;

	for (tok = strtok_r(terms, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		val = strchr(tok, '=');
		if (val)
			*val++ = '\0';
		err = val ? value_term(pmu, tok, val, attr, why, len) :
			    bare_term(pmu, tok, attr, aliases, why, len);
		if (err)
			return err;
	}
	return 0;
}

static bool pmu_name_ok(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_.-", s[i]))
			return false;
	return n > 0 && s[0] != '.';
}

int pmu_sysfs_parse(const char *name, struct perf_event_attr *attr, char *why, size_t len)
{
	const char *slash = strchr(name, '/');
	size_t n = slash ? (size_t)(slash - name) : 0, tl;
	char pmu[128], terms[512], buf[32];
	__u64 type;

	if (!slash || !pmu_name_ok(name, n) || n >= sizeof(pmu))
		return -ENOENT;
	tl = strlen(slash + 1);
	if (!tl || slash[tl] != '/' || tl > sizeof(terms))
		return -ENOENT;
	memcpy(pmu, name, n);
	pmu[n] = '\0';
	memcpy(terms, slash + 1, tl - 1);
	terms[tl - 1] = '\0';
	if (strchr(terms, '/'))		/* a term is a file name under the PMU */
		return -ENOENT;
	if (!read_line(pmu, "type", buf, sizeof(buf)) || !parse_num(buf, &type) ||
	    type > 0xffffffffULL) {
		snprintf(why, len, "no PMU '%s' in %s", pmu, sysfs_root);
		return -EINVAL;
	}
	attr->type = type;
	return parse_terms(pmu, terms, attr, true, why, len);
}

/* Not events: perf's files beside them, of an event's scale and unit. */
static bool event_file(const char *name)
{
	const char *dot = strrchr(name, '.');

	return name[0] != '.' && (!dot || (strcmp(dot, ".scale") && strcmp(dot, ".unit") &&
					   strcmp(dot, ".per-pkg") && strcmp(dot, ".snapshot")));
}

static void each_event(const char *pmu, pmu_list_fn fn, void *ctx)
{
	char path[512], name[512];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s/events", sysfs_root, pmu);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d)))
		if (event_file(e->d_name)) {
			snprintf(name, sizeof(name), "%s/%s/", pmu, e->d_name);
			fn("Kernel PMU event", name, ctx);
		}
	closedir(d);
}

void pmu_sysfs_each(pmu_list_fn fn, void *ctx)
{
	struct dirent *e;
	DIR *d = opendir(sysfs_root);

	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			each_event(e->d_name, fn, ctx);
	closedir(d);
}
