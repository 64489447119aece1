/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_UTIL_MSG_H
#define __GUPSTAT_UTIL_MSG_H

/*
 * Errors and notes on stderr, each prefixed with the command as the user
 * typed it ("gupstat", "gupstat trace"), as bpftool's p_err() does: the
 * shared layer's messages name the subcommand that printed them.
 */
void msg_set_cmd(const char *subcommand);
const char *msg_cmd(void);
void p_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* __GUPSTAT_UTIL_MSG_H */
