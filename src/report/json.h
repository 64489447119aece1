/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_REPORT_JSON_H
#define __GUPSTAT_REPORT_JSON_H

#include <stdio.h>
#include "report/summary.h"
#include "tracefile/reader.h"

/*
 * gupstat report -j: what trace_text_print() says, as one JSON document
 * (docs/schemas/report.schema.json). Errors are the stream's.
 */
void trace_json_print(FILE *f, const char *path, const struct trace_file *tf,
		      const struct trace_summary *s);

#endif /* __GUPSTAT_REPORT_JSON_H */
