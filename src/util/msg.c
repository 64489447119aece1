// SPDX-License-Identifier: GPL-2.0
/* The one prefix of gupstat's messages (msg.h). */
#include <stdarg.h>
#include <stdio.h>
#include "util/msg.h"

static char cmd[32] = "gupstat";

/* NULL for the live view, else the subcommand's name. */
void msg_set_cmd(const char *subcommand)
{
	snprintf(cmd, sizeof(cmd), subcommand ? "gupstat %s" : "gupstat", subcommand);
}

const char *msg_cmd(void)
{
	return cmd;
}

void p_err(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}
