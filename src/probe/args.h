/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_PROBE_ARGS_H
#define __GUPSTAT_PROBE_ARGS_H

/*
 * The parameter names gupstat's programs (the live view's and
 * validate's) read from a kernel function, by position: struct probe's
 * args. NULL for a function none of them reads an argument of.
 */
const char *const *probe_args(const char *func);

#endif /* __GUPSTAT_PROBE_ARGS_H */
