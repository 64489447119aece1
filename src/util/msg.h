/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_UTIL_MSG_H
#define __GUPSTAT_UTIL_MSG_H

/*
 * Errors and notes on stderr, each prefixed with the command as the user
 * typed it ("gupstat", "gupstat trace"), as bpftool's p_err() does: the
 * shared layer's messages name the subcommand that printed them.
 */
#include <stdarg.h>

void msg_set_cmd(const char *subcommand);
const char *msg_cmd(void);
void p_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * "WHO: message" on stderr, the message sanitised (input_sanitise())
 * but for a final newline: what p_err() and argp's errors print with.
 */
void msg_vsay(const char *who, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void msg_say(const char *who, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * @clear runs before every message from here on (NULL: none), so that
 * a line rewritten in place (trace's status line) is erased first and
 * no message lands in the middle of it; msg_clear() runs it for writers
 * of stderr that do not go through msg_vsay() (libbpf's messages).
 */
void msg_set_clear(void (*clear)(void));
void msg_clear(void);

#endif /* __GUPSTAT_UTIL_MSG_H */
