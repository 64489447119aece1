/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_TRACE_TRACE_H
#define __GUPSTAT_TRACE_TRACE_H

int cmd_trace(int argc, char **argv);

#endif /* __GUPSTAT_TRACE_TRACE_H */
