/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the cache-model plugin's log (include/gupsim.h) as it grows:
 * each call returns the next whole line that was not read before.
 */
#ifndef __GUPSTAT_GUPSIM_SIMLOG_H
#define __GUPSTAT_GUPSIM_SIMLOG_H

#include <stddef.h>
#include <stdint.h>
#include "gupsim.h"

enum simrec_type {
	SIMREC_READY, SIMREC_CALL, SIMREC_MARK, SIMREC_ERROR, SIMREC_PROF, SIMREC_PROFEND,
};

struct simrec {
	enum simrec_type type;
	char name[GUPSIM_NAME_MAX];	/* the function, for a call or a profile line */
	uint64_t addr;			/* the code block, for a profile line */
	unsigned int vcpu;
	uint64_t n[GS_NR];
	char text[256];			/* the model (ready) or the error */
};

struct simlog {
	int fd;
	char buf[4096];
	size_t len;
};

/* Opened at its end: only what the plugin writes from now on is read. */
int simlog_open(struct simlog *l, const char *path);
/* 1 with a record, 0 when nothing new, -EPROTO on a line it cannot read. */
int simlog_next(struct simlog *l, struct simrec *r);
void simlog_close(struct simlog *l);
int simrec_parse(const char *line, struct simrec *r);

#endif /* __GUPSTAT_GUPSIM_SIMLOG_H */
