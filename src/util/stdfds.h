/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_UTIL_STDFDS_H
#define __GUPSTAT_UTIL_STDFDS_H

/*
 * First thing in main(): each of descriptors 0, 1 and 2 that is closed
 * is opened on /dev/null, so that no file gupstat opens can become
 * stdin, stdout or stderr. A closed stdout still takes nothing: stdout
 * is then a stream whose every write fails (EBADF), so that a command
 * that had something to print ends in output_close_stdout()'s one line
 * and exit 1, as before, and one that printed nothing succeeds. Exits
 * 1 after one line when /dev/null cannot be opened.
 */
void stdfds_guard(void);
/*
 * In the traced COMMAND's child, before exec: the descriptors that were
 * closed when gupstat started are closed again, as the user left them.
 */
void stdfds_reclose(void);

#endif /* __GUPSTAT_UTIL_STDFDS_H */
