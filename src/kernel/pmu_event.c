// SPDX-License-Identifier: GPL-2.0
/*
 * One -e string to the perf_event_attr perf stat -e builds for it:
 * perf's own names, rNNNN, PMU/term=value,.../, the CPU's names through
 * libpfm4, each with perf's modifiers (":k", "/u").
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "kernel/pmu.h"
#include "kernel/pmu_names.h"
#include "kernel/pmu_pfm.h"
#include "kernel/pmu_sysfs.h"
#include "util/parse.h"

/*
 * perf's modifiers that mean something to a counter read at call entry
 * and exit, as perf's get_event_modifier() sets them: the first of u, k
 * and h excludes the other two, the first of G and H the other, p asks
 * for precision (and, as u does, excludes the guest).
 */
static int apply_modifiers(const char *mod, struct perf_event_attr *attr, char *why,
			   size_t len)
{
	int eu = 0, ek = 0, eh = 0, eG = 0, eH = 0, precise = 0;
	bool exclude = false, exclude_GH = false;
	const char *c;

	for (c = mod; *c; c++) {
		if (*c != 'p' && strchr(c + 1, *c)) {
			snprintf(why, len, "modifier '%c' given twice", *c);
			return -EINVAL;
		}
		if (strchr("ukh", *c) && !exclude) {
			exclude = true;
			eu = ek = eh = 1;
		}
		if (strchr("GH", *c) && !exclude_GH) {
			exclude_GH = true;
			eG = eH = 1;
		}
		switch (*c) {
		case 'u': eu = 0; eG |= !exclude_GH; break;
		case 'k': ek = 0; break;
		case 'h': eh = 0; break;
		case 'G': eG = 0; break;
		case 'H': eH = 0; break;
		case 'I': attr->exclude_idle = 1; break;
		case 'D': attr->pinned = 1; break;
		case 'p': precise++; eG |= !exclude_GH; break;
		default:
			snprintf(why, len, "modifier '%c' is none of u, k, h, G, H, I, D, p", *c);
			return -EINVAL;
		}
	}
	if (precise > 3) {
		snprintf(why, len, "more than 3 p modifiers");
		return -EINVAL;
	}
	attr->exclude_user = eu;
	attr->exclude_kernel = ek;
	attr->exclude_hv = eh;
	attr->exclude_guest = eG;
	attr->exclude_host = eH;
	attr->precise_ip = precise;
	return 0;
}

/*
 * Where @name's modifiers start (":k" after a name, "k" or ":k" after
 * "PMU/.../"), or NULL: only modifier letters follow, so that libpfm4's
 * own "EVENT:UMASK" is left whole.
 */
static const char *find_modifiers(const char *name)
{
	const char *colon = strrchr(name, ':'), *slash = strrchr(name, '/');
	const char *m = colon;

	if (slash && slash != name && strchr(name, '/') != slash && (!colon || colon < slash))
		m = slash[1] ? slash + 1 : NULL;
	if (!m || m == name)
		return NULL;
	if (*m == ':')
		m++;
	return *m && strspn(m, "ukhGHIDp") == strlen(m) ? m : NULL;
}

/* "r1a8": a raw code of the CPU's PMU, in hex. */
static int parse_raw(const char *name, struct perf_event_attr *attr, char *why, size_t len)
{
	int err;

	if (name[0] != 'r' || !name[1])
		return -ENOENT;
	err = parse_hex_u64(name + 1, &attr->config);
	if (err == -ERANGE) {
		snprintf(why, len, "raw event code wider than 64 bits");
		return -EINVAL;
	}
	if (err)
		return -ENOENT;
	attr->type = PERF_TYPE_RAW;
	return 0;
}

/*
 * The event @base without modifiers, tried as perf tries it: its own
 * names, a raw code, a sysfs PMU's terms, then the CPU's names through
 * libpfm4. @pfm is set when libpfm4 gave it.
 */
static int parse_base(const char *base, struct perf_event_attr *attr, bool *pfm,
		      char *why, size_t len)
{
	int err;

	*pfm = false;
	err = pmu_name_parse(base, attr);
	if (err == -EOPNOTSUPP)
		snprintf(why, len, "perf's '%s' counts nothing", base);
	if (err != -ENOENT)
		return err ? -EINVAL : 0;
	err = parse_raw(base, attr, why, len);
	if (err != -ENOENT)
		return err;
	err = pmu_sysfs_parse(base, attr, why, len);
	if (err != -ENOENT)
		return err;
	*pfm = true;
	return pmu_pfm_parse(base, attr, why, len);
}

int pmu_parse_event_why(const char *name, struct perf_event_attr *attr, char *why, size_t len)
{
	const char *mod = find_modifiers(name);
	size_t n = mod ? (size_t)(mod - name) : strlen(name);
	char base[256];
	bool pfm;
	int err;

	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	snprintf(why, len, "unknown perf event");
	if (n && mod && name[n - 1] == ':')
		n--;
	if (!n || n >= sizeof(base))
		return -ENOENT;
	memcpy(base, name, n);
	base[n] = '\0';
	err = parse_base(base, attr, &pfm, why, len);
	if (err)
		return err;
	attr->size = sizeof(*attr);
	if (mod)
		return apply_modifiers(mod, attr, why, len);
	/* perf's event_attr_init(); --pfm-events leaves libpfm4's attr as is */
	if (!pfm)
		attr->exclude_guest = 1;
	return 0;
}

/*
 * Fill @attr for perf event @name as perf stat -e builds it: 0, -ENOENT
 * for a name nothing knows, -EINVAL for one known but refused.
 */
int pmu_parse_event(const char *name, struct perf_event_attr *attr)
{
	char why[160];

	return pmu_parse_event_why(name, attr, why, sizeof(why));
}
