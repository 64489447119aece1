/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_SERVE_OPTIONS_H
#define __GUPSTAT_SERVE_OPTIONS_H

#include <stdbool.h>
#include "live/options.h"
#include "serve/listen.h"

#define SERVE_MAX_PROCS_DEFAULT	100

struct serve_opts {
	struct live_opts live;		/* what is counted: as the live view */
	const char *listen;		/* --listen ADDR:PORT, as typed */
	struct listen_addr addr;	/* ... parsed */
	bool allow_remote;		/* --allow-remote: a non-loopback address */
	unsigned int max_procs;		/* --max-procs: -P's series cap */
};

/* 0 to run, 1 when help or the version was printed, -EINVAL after the error. */
int serve_opts_parse(struct serve_opts *o, int argc, char **argv);

#endif /* __GUPSTAT_SERVE_OPTIONS_H */
