// SPDX-License-Identifier: GPL-2.0
/* Command-line options of gupstat validate unpin. */
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include "kernel/pmu.h"
#include "util/options.h"
#include "util/parse.h"
#include "validate/options.h"

static const char doc[] =
"Check the claim that unpin_user_pages() got slower on the batched kernel "
"because the batched walk no longer touches tail pages' struct page. "
"Pins and unpins anonymous memory of each folio size through the kernel's "
"GUP_TEST interface (CONFIG_GUP_TEST, debugfs), one pin_user_pages("
"FOLL_LONGTERM) call and one unpin_user_pages() call per repeat, and times "
"both in the kernel (fentry/fexit, or kprobes) with a perf counter per call. "
"Each repeat runs three times, in rotating order: warm (unpin right after "
"the pin), cold (the caches evicted between pin and unpin) and cold_pin "
"(evicted before the pin). Run it on each kernel, then "
"'gupstat compare BASE.json OTHER.json'. Changes the per-size THP "
"settings while it runs and restores them."
"\v"
"examples:\n"
"  sudo gupstat validate unpin -o base.json   # on each kernel\n"
"  gupstat compare base.json batched.json --plot unpin.svg\n"
"  # in a guest of tools/vmrun --cache-sim DIR, simulated misses (no PMU):\n"
"  gupstat validate unpin --sim \"$GUPSTAT_SIM_DIR\" -o base.json";

enum { OPT_EVICT_MB = 256, OPT_CPU, OPT_SIM };

static const struct argp_option options[] = {
	{ "sizes", 's', "LIST", 0, "MB pinned per call (default 16,64,256)", 0 },
	{ "folios", 'f', "LIST", 0, "folio sizes: 4k, 64k, 2m (default all)", 0 },
	{ "repeats", 'r', "N", 0, "timed repeats per condition (default 15)", 0 },
	{ "event", 'e', "EVENT", 0, "counter per call (default cache-misses; help: the list; none: no counter)", 0 },
	{ "evict-mb", OPT_EVICT_MB, "MB", 0, "MB read to evict the caches (default: 4x the "
	  "largest cache in sysfs, at least 256 MB)", 0 },
	{ "cpu", OPT_CPU, "N", 0, "run on CPU N (default: the last CPU)", 0 },
	{ "sim", OPT_SIM, "DIR", 0, "also count simulated cache misses per call, from the "
	  "cache-model plugin talking through DIR (a guest of tools/vmrun --cache-sim)", 0 },
	{ "output", 'o', "FILE", 0, "write the results as JSON to FILE", 0 },
	{}
};

typedef error_t (*item_fn)(const struct argp_state *state, struct validate_opts *o,
			  const char *item, const char *list);

/* @fn on each item of @list, the comma-separated value of option @key. */
static error_t each_item(const struct argp_state *state, int key, const char *list, item_fn fn)
{
	char buf[128], *tok, *save;
	error_t err = 0;

	if (snprintf(buf, sizeof(buf), "%s", list) >= (int)sizeof(buf))
		return opts_bad_value(state, key, "list too long", list);
	for (tok = strtok_r(buf, ",", &save); tok && !err; tok = strtok_r(NULL, ",", &save))
		err = fn(state, state->input, tok, list);
	return err;
}

/* Sizes in MB, ascending, no repeats. */
static error_t add_size(const struct argp_state *state, struct validate_opts *o,
			const char *item, const char *list)
{
	unsigned int v;

	if (parse_uint(item, 1, 65536, &v))
		return opts_bad_value(state, 's', "sizes are MB from 1 to 65536", item);
	if (o->nr_sizes == V_MAX_SIZES)
		return opts_bad_value(state, 's', "at most 8 sizes", list);
	if (o->nr_sizes && v <= o->sizes_mb[o->nr_sizes - 1])
		return opts_bad_value(state, 's', "sizes must ascend", list);
	o->sizes_mb[o->nr_sizes++] = v;
	return 0;
}

static error_t add_folio(const struct argp_state *state, struct validate_opts *o,
			 const char *item, const char *list)
{
	enum v_folio f;

	if (v_folio_parse(item, &f))
		return opts_bad_value(state, 'f', "folio sizes are 4k, 64k and 2m", item);
	o->folios[f] = true;
	return 0;
}

static error_t parse_sizes(const struct argp_state *state, struct validate_opts *o,
			   const char *arg)
{
	o->nr_sizes = 0;
	return each_item(state, 's', arg, add_size) ?:
		o->nr_sizes ? 0 : opts_bad_value(state, 's', "no size given", arg);
}

static error_t parse_folios(const struct argp_state *state, struct validate_opts *o,
			    const char *arg)
{
	memset(o->folios, 0, sizeof(o->folios));
	return each_item(state, 'f', arg, add_folio) ?:
		o->folios[VF_4K] || o->folios[VF_64K] || o->folios[VF_2M] ? 0 :
		opts_bad_value(state, 'f', "no folio size given", arg);
}

/* The claim to check: unpin is the one there is. */
static error_t parse_claim(const struct argp_state *state, const char *arg)
{
	if (state->arg_num)
		return opts_usage(state, "unexpected argument '%s'", arg);
	if (strcmp(arg, "unpin"))
		return opts_usage(state, "unknown claim '%s'; the claims: unpin", arg);
	return 0;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct validate_opts *o = state->input;
	unsigned int v = 0;
	error_t err;

	switch (key) {
	case 's': return parse_sizes(state, o, arg);
	case 'f': return parse_folios(state, o, arg);
	case 'r': return opts_uint(state, key, arg, 1, V_MAX_REPEATS, &o->repeats);
	case 'e': return pmu_opt_event(state, key, arg, &o->event);
	case OPT_EVICT_MB:
		err = opts_uint(state, key, arg, 1, 1 << 20, &v);
		o->evict_bytes = (unsigned long)v << 20;
		return err;
	case OPT_CPU:
		err = opts_uint(state, key, arg, 0, CPU_SETSIZE - 1, &v);
		o->cpu = v;
		return err;
	case 'o': o->output = arg; return 0;
	case OPT_SIM: o->sim_dir = arg; return 0;
	case ARGP_KEY_ARG: return parse_claim(state, arg);
	case ARGP_KEY_NO_ARGS: return opts_usage(state, "no claim given; the claims: unpin");
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct opts_cmd cmd = {
	.name = "gupstat validate",
	.argp = { .options = options, .parser = parse_opt, .doc = doc,
		  .args_doc = "unpin" },
	.shared = OPTS_PROBES,
};

/* argv[0] is "validate"; the claim is an argument like any other. */
int validate_opts_parse(struct validate_opts *o, int argc, char **argv)
{
	const struct opts_shared shared = {
		.force_kprobe = &o->force_kprobe, .verbose = &o->verbose,
	};

	*o = (struct validate_opts){ .sizes_mb = { 16, 64, 256 }, .nr_sizes = 3,
		.folios = { true, true, true }, .repeats = 15,
		.event = PMU_DEFAULT_EVENT, .cpu = -1 };
	return opts_parse(&cmd, argc, argv, o, &shared);
}
