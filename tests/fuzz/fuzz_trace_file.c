// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the trace file reader (src/tracefile/reader.c, linked
 * alone) on any bytes. It must never crash, leak or read out of bounds
 * (ASan, UBSan), and every refusal must be one non-empty line.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "tracefile/reader.h"

/* Use what was parsed, so a wrong count or pointer is found here. */
static void walk(const struct trace_file *tf)
{
	volatile size_t sum = 0;
	size_t i, j;

	for (i = 0; i < tf->nr_strings; i++)
		sum += strlen(tf->strings[i].key) + strlen(tf->strings[i].value);
	for (i = 0; i < tf->nr_stacks; i++)
		for (j = 0; j < tf->stacks[i].nr_frames; j++)
			sum += strlen(tf->stacks[i].frames[j].name);
	for (i = 0; i < tf->nr_recs; i++) {
		sum += strlen(tf->recs[i].comm) + tf->recs[i].pages;
		if (tf->recs[i].stack != GT_NO_STACK && !trace_file_stack(tf, tf->recs[i].stack))
			abort();	/* the reader promised every stack exists */
	}
	(void)sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trace_file tf;

	if (trace_file_parse(&tf, data, size) == 0) {
		walk(&tf);
		trace_file_free(&tf);
		return 0;
	}
	if (!tf.err[0] || strchr(tf.err, '\n'))
		abort();	/* "one clear error" */
	return 0;
}
