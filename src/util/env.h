/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_UTIL_ENV_H
#define __GUPSTAT_UTIL_ENV_H

/*
 * At the start of main(): unset the variables that change gupstat's
 * libraries in ways it does not support (ARGP_HELP_FMT, POSIXLY_CORRECT;
 * gupstat(8), ENVIRONMENT, says which and why), keeping their values.
 */
void env_clear(void);
/* In the traced COMMAND's child, before exec: the user's values again. */
void env_restore(void);

#endif /* __GUPSTAT_UTIL_ENV_H */
