/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_REPORT_TEXT_H
#define __GUPSTAT_REPORT_TEXT_H

#include <stdio.h>
#include "report/summary.h"
#include "tracefile/reader.h"

/* gupstat report's text, in the shape of bcc's and perf's. */
void trace_text_print(FILE *f, const char *path, const struct trace_file *tf,
		      const struct trace_summary *s);
/* gup_flags as FOLL_A|FOLL_B|0x..., from the file's "foll_flags" string. */
const char *trace_flags_name(const struct trace_file *tf, __u32 flags,
			     char *buf, size_t len);
const char *trace_result_name(unsigned int result);

#endif /* __GUPSTAT_REPORT_TEXT_H */
