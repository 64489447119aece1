/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_REPORT_REPORT_H
#define __GUPSTAT_REPORT_REPORT_H

#include "util/output.h"

int cmd_report(int argc, char **argv);
/*
 * gupstat trace --folded: the finished trace at @path folded by hold
 * time into @out (opened by the caller, committed or discarded here),
 * or to stdout when @out is NULL. 0, or -errno after one line.
 */
int report_fold_file(const char *path, struct output *out);

#endif /* __GUPSTAT_REPORT_REPORT_H */
