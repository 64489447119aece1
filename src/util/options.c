// SPDX-License-Identifier: GPL-2.0
/*
 * The command line of every subcommand, on glibc's argp: the options
 * they share as child parsers, --help, --usage and --version, and one
 * wording for every error, each one line on stderr:
 *
 *   gupstat trace: unknown option '--x' (try 'gupstat trace --help')
 *   gupstat: -p: not a number from 1 to 4194304: 'abc'
 *
 * argp is run with ARGP_NO_ERRS, so neither it nor getopt prints (their
 * messages take two lines and say "Try"), and with ARGP_NO_HELP, so that
 * --help returns here rather than exit; when getopt refuses an argument,
 * the root parser works out which one and why from the option tables.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/msg.h"
#include "util/options.h"
#include "util/parse.h"
#include "util/version.h"

const char *argp_program_version = "gupstat " GUPSTAT_VERSION;

/*
 * One parse: the root argp is built here, from the subcommand's own and
 * the shared ones it takes, so any parser finds this from its state.
 */
struct opts_ctx {
	struct argp root;
	struct argp own;		/* the subcommand's, its help moved to the root */
	struct argp_child children[5];
	const struct opts_cmd *cmd;
	void *input;
	const struct opts_shared *shared;
	bool said;			/* an error line is out */
	bool done;			/* help or the version is out */
};

static struct opts_ctx *ctx_of(const struct argp_state *state)
{
	return (struct opts_ctx *)((char *)state->root_argp - offsetof(struct opts_ctx, root));
}

error_t opts_say(const struct argp_state *state, bool hint, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* The argument echoed in @msg is sanitised there, as any message. */
	msg_say(state->name, "%s%s%s%s\n", msg, hint ? " (try '" : "",
		hint ? state->name : "", hint ? " --help')" : "");
	ctx_of(state)->said = true;
	return EINVAL;
}

/* argp's own end-of-table test. */
static bool opt_is_end(const struct argp_option *o)
{
	return !o->key && !o->name && !o->doc && !o->group;
}

static bool opt_is_short(const struct argp_option *o)
{
	return o->key > 0 && o->key <= 0xff && isprint(o->key) && !(o->flags & OPTION_DOC);
}

static const struct argp_option *find_key(const struct argp *a, int key)
{
	const struct argp_option *o;
	const struct argp_child *c;

	for (o = a->options; o && !opt_is_end(o); o++)
		if (o->key == key && !(o->flags & OPTION_DOC))
			return o;
	for (c = a->children; c && c->argp; c++)
		if ((o = find_key(c->argp, key)))
			return o;
	return NULL;
}

struct long_match {
	const struct argp_option *exact, *prefix;
	int nr_prefix;
};

/* getopt_long() takes any unambiguous prefix of a long option. */
static void find_long(const struct argp *a, const char *name, size_t len, struct long_match *m)
{
	const struct argp_option *o;
	const struct argp_child *c;

	for (o = a->options; o && !opt_is_end(o); o++) {
		if (!o->name || (o->flags & OPTION_DOC) || strncmp(o->name, name, len))
			continue;
		if (!o->name[len])
			m->exact = o;
		m->prefix = o;
		m->nr_prefix++;
	}
	for (c = a->children; c && c->argp; c++)
		find_long(c->argp, name, len, m);
}

static bool bad_long(const struct argp_state *state, const char *arg, bool last)
{
	const char *name = arg + 2;
	size_t len = strcspn(name, "=");
	struct long_match m = {};
	const struct argp_option *o;

	if (len)
		find_long(state->root_argp, name, len, &m);
	o = m.exact ?: m.nr_prefix == 1 ? m.prefix : NULL;
	if (!o && m.nr_prefix > 1)
		opts_usage(state, "ambiguous option '--%.*s'", (int)len, name);
	else if (!o)
		opts_usage(state, "unknown option '--%.*s'", (int)len, name);
	else if (name[len] && !o->arg)
		opts_usage(state, "option '--%s' takes no value", o->name);
	else if (!name[len] && o->arg && last)
		opts_usage(state, "option '--%s' needs a value", o->name);
	else
		return false;
	return true;
}

static bool bad_short(const struct argp_state *state, const char *arg, bool last)
{
	const struct argp_option *o;

	for (arg++; *arg; arg++) {
		o = find_key(state->root_argp, (unsigned char)*arg);
		if (!o || !opt_is_short(o)) {
			opts_usage(state, "unknown option '-%c'", *arg);
			return true;
		}
		if (o->arg && arg[1])
			return false;	/* the rest is its value */
		if (o->arg && last) {
			opts_usage(state, "option '-%c' needs a value", *arg);
			return true;
		}
	}
	return false;
}

/* Says what is wrong with argv[@i], if getopt stopped there. */
static bool bad_arg(const struct argp_state *state, int i)
{
	const char *arg = i > 0 && i < state->argc ? state->argv[i] : "";
	bool last = i == state->argc - 1;

	if (arg[0] != '-' || !arg[1] || !strcmp(arg, "--"))
		return false;
	return arg[1] == '-' ? bad_long(state, arg, last) : bad_short(state, arg, last);
}

/*
 * getopt refused the argument before @next, or (a letter in the middle
 * of "-xk") the one at @next; it does not say which, nor why.
 */
static void say_getopt_error(const struct argp_state *state, int next)
{
	const char *arg = next > 0 && next <= state->argc ? state->argv[next - 1] : "";

	if (!bad_arg(state, next - 1) && !bad_arg(state, next))
		opts_usage(state, "%s '%s'", arg[0] == '-' ? "unknown option" : "unexpected argument",
			   arg);
}

static error_t opts_help(const struct argp_state *state, unsigned int flags)
{
	argp_help(state->root_argp, stdout, flags, state->name);
	ctx_of(state)->done = true;
	return ECANCELED;
}

static const struct argp_option std_options[] = {
	{ "help", 'h', NULL, 0, "print this help", -1 },
	{ "usage", OPTS_KEY_USAGE, NULL, 0, "print a short usage message", -1 },
	{ "version", 'V', NULL, 0, "print the version", -1 },
	{}
};

static error_t std_parse(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'h':
		return opts_help(state, ARGP_HELP_STD_HELP);
	case OPTS_KEY_USAGE:
		return opts_help(state, ARGP_HELP_USAGE);
	case 'V':
		printf("%s\n", argp_program_version);
		ctx_of(state)->done = true;
		return ECANCELED;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp std_argp = { .options = std_options, .parser = std_parse };

static void opt_name(const struct argp_state *state, int key, char *buf, size_t len)
{
	const struct argp_option *o = find_key(state->root_argp, key);

	if (key == OPTS_KEY_COMMAND || !o)
		snprintf(buf, len, "a COMMAND");
	else if (opt_is_short(o))
		snprintf(buf, len, "-%c", o->key);
	else
		snprintf(buf, len, "--%s", o->name);
}

error_t opts_bad_value(const struct argp_state *state, int key, const char *why, const char *arg)
{
	char name[64];

	opt_name(state, key, name, sizeof(name));
	return opts_error(state, "%s: %s: '%s'", name, why, arg);
}

error_t opts_conflict(const struct argp_state *state, int key_a, int key_b)
{
	char a[64], b[64];

	opt_name(state, key_a, a, sizeof(a));
	opt_name(state, key_b, b, sizeof(b));
	return opts_error(state, "%s and %s exclude each other", a, b);
}

/* parse.h's @err for @arg: digits out of range are said to be, not "not a number". */
static error_t bad_number(const struct argp_state *state, int key, const char *arg, int err,
			  __u64 min, __u64 max)
{
	char why[80];

	if (!err)
		return 0;
	snprintf(why, sizeof(why), err == -ERANGE ? "out of range (%llu to %llu)" :
		 "not a number from %llu to %llu", (unsigned long long)min, (unsigned long long)max);
	return opts_bad_value(state, key, why, arg);
}

error_t opts_uint(const struct argp_state *state, int key, const char *arg,
		  unsigned int min, unsigned int max, unsigned int *v)
{
	return bad_number(state, key, arg, parse_uint(arg, min, max, v), min, max);
}

error_t opts_u64(const struct argp_state *state, int key, const char *arg,
		 __u64 min, __u64 max, __u64 *v)
{
	return bad_number(state, key, arg, parse_u64(arg, min, max, v), min, max);
}

error_t opts_seconds(const struct argp_state *state, int key, const char *arg, unsigned int *sec)
{
	return bad_number(state, key, arg, parse_seconds(arg, sec), 1, PARSE_SECONDS_MAX);
}

/* 4096 as "4K": sizes as the user writes them. */
static void size_str(char *buf, size_t len, __u64 v)
{
	static const char units[] = "\0KMG";
	int u = 0;

	while (u < 3 && v && !(v & 1023)) {
		v >>= 10;
		u++;
	}
	snprintf(buf, len, "%llu%.1s", (unsigned long long)v, &units[u]);
}

error_t opts_size(const struct argp_state *state, int key, const char *arg,
		  __u64 min, __u64 max, __u64 *v)
{
	char why[96], lo[24], hi[24];
	int err = parse_size(arg, min, max, v);

	if (!err)
		return 0;
	size_str(lo, sizeof(lo), min);
	size_str(hi, sizeof(hi), max);
	snprintf(why, sizeof(why), err == -ERANGE ? "out of range (%s to %s)" :
		 "not a size from %s to %s (like 256K or 16M)", lo, hi);
	return opts_bad_value(state, key, why, arg);
}

static const struct argp_option probe_options[] = {
	{ "kprobes", 'k', NULL, 0, "attach kprobes instead of fentry/fexit", 0 },
	{ "verbose", 'v', NULL, 0, "print libbpf debug messages", 0 },
	{}
};

static error_t probe_parse(int key, char *arg, struct argp_state *state)
{
	const struct opts_shared *sh = state->input;

	switch (key) {
	case 'k':
		*sh->force_kprobe = true;
		return 0;
	case 'v':
		*sh->verbose = true;
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp probe_argp = { .options = probe_options, .parser = probe_parse };

bool opts_arg_quoted(const struct argp_state *state)
{
	/* argp's index just past the "--" that ended the options, if any. */
	return state->quoted && state->next - 1 >= state->quoted;
}

static const struct argp_option target_options[] = {
	{ "pid", 'p', "PID", 0, "this process only", 0 },
	{ "duration", 'd', "SEC", 0, "stop after SEC seconds (default: Ctrl-C, or COMMAND's end)", 0 },
	{ "lock-exact", OPTS_KEY_LOCK_EXACT, NULL, 0,
	  "time PTE-lock holds from the acquire itself", 0 },
	{ "waits", OPTS_KEY_WAITS, NULL, 0,
	  "also time spins on the PTE locks GUP walks hold", 0 },
	{}
};

static error_t target_parse(int key, char *arg, struct argp_state *state)
{
	const struct opts_shared *sh = state->input;

	switch (key) {
	case 'p':
		return bad_number(state, key, arg, parse_pid(arg, sh->pid), 1, PARSE_PID_MAX);
	case 'd':
		return opts_seconds(state, key, arg, sh->duration);
	case OPTS_KEY_LOCK_EXACT:
		*sh->lock_exact = true;
		return 0;
	case OPTS_KEY_WAITS:
		*sh->waits = true;
		return 0;
	case ARGP_KEY_ARG:
		/* perf's and bcc's habit: a bare word is no command, nor silently one. */
		if (!opts_arg_quoted(state))
			return opts_error(state, "unexpected argument '%s': a COMMAND to run goes "
					  "after '--', as in '%s [OPTION]... -- %s'", arg,
					  state->name, arg);
		/* Run under ARGP_IN_ORDER: the command's own options are its. */
		*sh->cmd = &state->argv[state->next - 1];
		state->next = state->argc;
		return 0;
	case ARGP_KEY_END:
		return *sh->pid && *sh->cmd ? opts_conflict(state, 'p', OPTS_KEY_COMMAND) : 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp target_argp = { .options = target_options, .parser = target_parse };

static const struct opts_subcmd *subcmds;

void opts_set_subcmds(const struct opts_subcmd *list)
{
	subcmds = list;
}

/* argp's help filter: the subcommands after what the tool does, before its options. */
static char *list_subcmds(int key, const char *text, void *input)
{
	const struct opts_subcmd *s;
	char *buf = NULL;
	size_t len;
	FILE *f;

	(void)input;
	if (key != ARGP_KEY_HELP_PRE_DOC || !subcmds || !(f = open_memstream(&buf, &len)))
		return (char *)text;
	fprintf(f, "%s\n\nsubcommands ('gupstat help SUBCOMMAND' for one's options):",
		text ?: "");
	for (s = subcmds; s->name; s++)
		fprintf(f, "\n  %-10s %s", s->name, s->doc);
	/* argp frees what differs from @text; NULL, and it prints nothing. */
	if (fclose(f)) {
		free(buf);
		return (char *)text;
	}
	return buf;
}

static error_t root_parse(int key, char *arg, struct argp_state *state)
{
	struct opts_ctx *ctx = state->input;
	unsigned int i;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = ctx->input;
		for (i = 1; ctx->children[i].argp; i++)
			state->child_inputs[i] = (void *)ctx->shared;
		return 0;
	case ARGP_KEY_ERROR:
		if (!ctx->said && !ctx->done)
			say_getopt_error(state, state->next);
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

int opts_parse(const struct opts_cmd *cmd, int argc, char **argv, void *input,
	       const struct opts_shared *shared)
{
	struct opts_ctx ctx = { .cmd = cmd, .input = input, .shared = shared };
	struct argp_child *c = ctx.children;
	unsigned int flags = ARGP_NO_ERRS | ARGP_NO_HELP;
	char *argv0;
	error_t err;

	ctx.own = cmd->argp;
	ctx.own.args_doc = NULL;
	ctx.own.doc = NULL;
	*c++ = (struct argp_child){ .argp = &ctx.own };
	if (cmd->shared & OPTS_TARGET) {
		*c++ = (struct argp_child){ .argp = &target_argp };
		flags |= ARGP_IN_ORDER;
	}
	if (cmd->shared & OPTS_PROBES)
		*c++ = (struct argp_child){ .argp = &probe_argp };
	*c = (struct argp_child){ .argp = &std_argp };
	ctx.root = (struct argp){ .parser = root_parse, .args_doc = cmd->argp.args_doc,
				  .doc = cmd->argp.doc, .children = ctx.children,
				  .help_filter = cmd->lists_subcmds ? list_subcmds : NULL };
	/* argp names the program after argv[0]: "gupstat trace" in all it says. */
	argv0 = argv[0];
	argv[0] = (char *)cmd->name;
	err = argp_parse(&ctx.root, argc, argv, flags, NULL, &ctx);
	argv[0] = argv0;
	if (ctx.done)
		return 1;
	/*
	 * argp fails without a word when it cannot allocate (measured with
	 * MALLOC_TOP_PAD_=99999999999999 in the environment): say so.
	 */
	if (err && !ctx.said)
		p_err("cannot parse the options: %s\n", strerror(err));
	return err ? -EINVAL : 0;
}
