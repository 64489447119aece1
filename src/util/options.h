/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_UTIL_OPTIONS_H
#define __GUPSTAT_UTIL_OPTIONS_H

#include <argp.h>
#include <stdbool.h>
#include <sys/types.h>
#include <linux/types.h>

/*
 * Where the options the subcommands share land in a subcommand's own
 * struct; a subcommand that does not take one leaves it NULL.
 */
struct opts_shared {
	pid_t *pid;		/* -p PID */
	unsigned int *duration;	/* -d SEC */
	bool *lock_exact;	/* --lock-exact */
	bool *waits;		/* --waits */
	char ***cmd;		/* -- COMMAND [ARG]...: the rest of argv */
	bool *force_kprobe;	/* -k */
	bool *verbose;		/* -v */
};

/* Where a struct naming the shared options as above keeps them all. */
#define OPTS_SHARED_ALL(o) ((const struct opts_shared){				\
	.pid = &(o)->pid, .duration = &(o)->duration, .lock_exact = &(o)->lock_exact,	\
	.waits = &(o)->waits,							\
	.cmd = &(o)->cmd, .force_kprobe = &(o)->force_kprobe, .verbose = &(o)->verbose })

enum {
	OPTS_PROBES = 1 << 0,	/* -k, -v: it attaches BPF programs */
	OPTS_TARGET = 1 << 1,	/* -p, -d, --lock-exact, --waits, a COMMAND: it watches the walk */
};

/*
 * Keys of the shared long-only options. A subcommand's own long-only
 * options take keys from 256 up to OPTS_KEY_FIRST.
 */
enum {
	OPTS_KEY_FIRST = 0x1000,
	OPTS_KEY_LOCK_EXACT = OPTS_KEY_FIRST,
	OPTS_KEY_WAITS,
	OPTS_KEY_USAGE,
	OPTS_KEY_COMMAND,	/* for opts_conflict(): "a COMMAND" */
};

struct opts_cmd {
	const char *name;		/* "gupstat trace": what every message starts with */
	struct argp argp;		/* its own options, usage line and help */
	unsigned int shared;		/* OPTS_*: the shared options it takes */
	bool lists_subcmds;		/* its --help lists opts_set_subcmds()'s */
};

/* A subcommand as the tool's --help lists it: its name and one line. */
struct opts_subcmd {
	const char *name;
	const char *doc;
};

/* The subcommands, up to a { NULL }, for the help of a lists_subcmds command. */
void opts_set_subcmds(const struct opts_subcmd *list);

/*
 * Parse @argv (argv[0] is the subcommand) into @input, the struct
 * @cmd->argp's parser fills, and @shared (NULL if it takes none). 0 to
 * run, 1 when --help, --usage or --version printed to stdout, -EINVAL
 * after one line on stderr.
 */
int opts_parse(const struct opts_cmd *cmd, int argc, char **argv, void *input,
	       const struct opts_shared *shared);

/*
 * For the subcommands' parsers: each prints one line on stderr and
 * returns the error that ends argp_parse() quietly. opts_usage() adds
 * where to look ("(try 'gupstat trace --help')"), for a command line of
 * the wrong shape; opts_error() does not, for a value that is wrong.
 */
error_t opts_say(const struct argp_state *state, bool hint, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define opts_error(state, ...)	opts_say(state, false, __VA_ARGS__)
#define opts_usage(state, ...)	opts_say(state, true, __VA_ARGS__)
/* "-p: not a number from 1 to 4194304: 'abc'" */
error_t opts_bad_value(const struct argp_state *state, int key, const char *why,
		       const char *arg);
/* "-p and a COMMAND exclude each other" (OPTS_KEY_COMMAND for the command) */
error_t opts_conflict(const struct argp_state *state, int key_a, int key_b);


/* In ARGP_KEY_ARG: the argument came after "--", where options end. */
bool opts_arg_quoted(const struct argp_state *state);

/* parse.h's values for option @key, refused with opts_bad_value(). */
error_t opts_uint(const struct argp_state *state, int key, const char *arg,
		  unsigned int min, unsigned int max, unsigned int *v);
error_t opts_u64(const struct argp_state *state, int key, const char *arg,
		 __u64 min, __u64 max, __u64 *v);
error_t opts_seconds(const struct argp_state *state, int key, const char *arg,
		     unsigned int *sec);
error_t opts_size(const struct argp_state *state, int key, const char *arg,
		  __u64 min, __u64 max, __u64 *v);

#endif /* __GUPSTAT_UTIL_OPTIONS_H */
