// SPDX-License-Identifier: GPL-2.0
/* The one prefix of gupstat's messages (msg.h). */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "util/input.h"
#include "util/msg.h"

/* Longer messages are cut: a file name is at most PATH_MAX. */
#define MSG_MAX		8192

static char cmd[32] = "gupstat";
static void (*clear_fn)(void);

/* NULL for the live view, else the subcommand's name. */
void msg_set_cmd(const char *subcommand)
{
	snprintf(cmd, sizeof(cmd), subcommand ? "gupstat %s" : "gupstat", subcommand);
}

const char *msg_cmd(void)
{
	return cmd;
}

void msg_set_clear(void (*clear)(void))
{
	clear_fn = clear;
}

void msg_clear(void)
{
	if (clear_fn)
		clear_fn();
}

/*
 * Messages name files and echo arguments: a name with terminal escapes
 * or a newline in it must print as '?', not retitle the terminal or
 * forge a second line. Only a newline that ends the format is kept.
 */
void msg_vsay(const char *who, const char *fmt, va_list ap)
{
	bool nl = *fmt && fmt[strlen(fmt) - 1] == '\n';
	char buf[MSG_MAX];
	size_t n;

	vsnprintf(buf, sizeof(buf), fmt, ap);
	n = strlen(buf);
	if (n && buf[n - 1] == '\n')
		buf[--n] = 0;
	input_sanitise(buf);
	msg_clear();
	fprintf(stderr, "%s: %s%s", who, buf, nl ? "\n" : "");
}

void msg_say(const char *who, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	msg_vsay(who, fmt, ap);
	va_end(ap);
}

void p_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	msg_vsay(cmd, fmt, ap);
	va_end(ap);
}
