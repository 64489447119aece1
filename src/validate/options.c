// SPDX-License-Identifier: GPL-2.0
/* Command-line options of gupstat validate unpin. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/pmu.h"
#include "validate/options.h"

static const char usage[] =
"usage: gupstat validate unpin [OPTIONS]\n"
"\n"
"Check the claim that unpin_user_pages() got slower on the batched kernel\n"
"because the batched walk no longer touches tail pages' struct page.\n"
"Pins and unpins anonymous memory of each folio size through the kernel's\n"
"GUP_TEST interface (CONFIG_GUP_TEST, debugfs), one pin_user_pages(\n"
"FOLL_LONGTERM) call and one unpin_user_pages() call per repeat, and times\n"
"both in the kernel (fentry/fexit, or kprobes) with a perf counter per call.\n"
"Each repeat runs twice: warm (unpin right after the pin) and cold (the\n"
"caches evicted between pin and unpin). Run it on each kernel, then\n"
"'gupstat compare BASE.json OTHER.json'. Changes the per-size THP\n"
"settings while it runs and restores them.\n"
"\n"
"  -s, --sizes LIST     MB pinned per call (default 16,64,256)\n"
"  -f, --folios LIST    folio sizes: 4k, 64k, 2m (default all)\n"
"  -r, --repeats N      timed repeats per condition (default 15)\n"
"  -e, --event EVENT    counter per call (default cache-misses; none: no counter)\n"
"      --evict-mb MB    bytes read to evict the caches (default: 4x the largest\n"
"                       cache in sysfs, at least 256)\n"
"      --cpu N          run on CPU N (default: the last CPU)\n"
"  -o, --output FILE    write the results as JSON to FILE\n"
"  -k, --kprobes        attach kprobes instead of fentry/fexit\n"
"  -v, --verbose        print libbpf debug messages\n"
"  -h, --help           print this help\n"
"\n"
"example:\n"
"  sudo gupstat validate unpin -o base.json     (on each kernel)\n"
"  gupstat compare base.json batched.json --plot unpin.svg\n";

enum { OPT_EVICT_MB = 256, OPT_CPU };

static const struct option long_opts[] = {
	{ "sizes", required_argument, NULL, 's' },
	{ "folios", required_argument, NULL, 'f' },
	{ "repeats", required_argument, NULL, 'r' },
	{ "event", required_argument, NULL, 'e' },
	{ "evict-mb", required_argument, NULL, OPT_EVICT_MB },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "output", required_argument, NULL, 'o' },
	{ "kprobes", no_argument, NULL, 'k' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{}
};

static int bad(const char *what, const char *arg)
{
	fprintf(stderr, "gupstat validate: %s: '%s' (try --help)\n", what, arg);
	return -EINVAL;
}

static int parse_uint(const char *s, unsigned long min, unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	return errno || end == s || *end || *s == '-' || *v < min || *v > max ? -EINVAL : 0;
}

/* Sizes in MB, ascending, no repeats. */
static int parse_sizes(struct validate_opts *o, const char *arg)
{
	char buf[128], *tok, *save;
	unsigned long v;

	if (snprintf(buf, sizeof(buf), "%s", arg) >= (int)sizeof(buf))
		return bad("size list too long", arg);
	o->nr_sizes = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (parse_uint(tok, 1, 65536, &v))
			return bad("sizes are MB from 1 to 65536", tok);
		if (o->nr_sizes == V_MAX_SIZES)
			return bad("at most 8 sizes", arg);
		if (o->nr_sizes && v <= o->sizes_mb[o->nr_sizes - 1])
			return bad("sizes must ascend", arg);
		o->sizes_mb[o->nr_sizes++] = v;
	}
	return o->nr_sizes ? 0 : bad("no size given", arg);
}

static int parse_folios(struct validate_opts *o, const char *arg)
{
	char buf[64], *tok, *save;
	enum v_folio f;

	if (snprintf(buf, sizeof(buf), "%s", arg) >= (int)sizeof(buf))
		return bad("folio list too long", arg);
	memset(o->folios, 0, sizeof(o->folios));
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (v_folio_parse(tok, &f))
			return bad("folio sizes are 4k, 64k and 2m", tok);
		o->folios[f] = true;
	}
	return o->folios[VF_4K] || o->folios[VF_64K] || o->folios[VF_2M] ? 0 :
		bad("no folio size given", arg);
}

static int parse_one(struct validate_opts *o, int c, const char *arg)
{
	unsigned long v;

	switch (c) {
	case 's':
		return parse_sizes(o, arg);
	case 'f':
		return parse_folios(o, arg);
	case 'r':
		if (parse_uint(arg, 1, V_MAX_REPEATS, &v))
			return bad("repeats must be 1 to 1000", arg);
		o->repeats = v;
		return 0;
	case 'e':
		if (!strcmp(arg, "none"))
			o->event = NULL;
		else if (!pmu_known_event(arg))
			return -EINVAL;
		else
			o->event = arg;
		return 0;
	case OPT_EVICT_MB:
		if (parse_uint(arg, 1, 1 << 20, &v))
			return bad("--evict-mb must be 1 to 1048576", arg);
		o->evict_bytes = v << 20;
		return 0;
	case OPT_CPU:
		if (parse_uint(arg, 0, INT_MAX, &v))
			return bad("not a CPU number", arg);
		o->cpu = v;
		return 0;
	case 'o':
		o->output = arg;
		return 0;
	case 'k':
		o->force_kprobe = true;
		return 0;
	case 'v':
		o->verbose = true;
		return 0;
	}
	return -EINVAL;
}

/* argv[0] is "unpin", the claim. */
int validate_opts_parse(struct validate_opts *o, int argc, char **argv)
{
	int c, err;

	*o = (struct validate_opts){ .sizes_mb = { 16, 64, 256 }, .nr_sizes = 3,
		.folios = { true, true, true }, .repeats = 15,
		.event = PMU_DEFAULT_EVENT, .cpu = -1 };
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":s:f:r:e:o:kvh", long_opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return 1;
		}
		if (c == '?')
			return bad("unknown option", argv[optind - 1]);
		if (c == ':')
			return bad("option needs a value", argv[optind - 1]);
		err = parse_one(o, c, optarg);
		if (err)
			return err;
	}
	if (optind < argc)
		return bad("unexpected argument", argv[optind]);
	return 0;
}
