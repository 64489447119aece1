// SPDX-License-Identifier: GPL-2.0
/*
 * Edit distance, for the one line that refuses a name to say which known
 * name was meant.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "util/strdist.h"

/* Longer names are never typos of each other: their distance is capped. */
#define STRDIST_MAX_LEN	128

/* Levenshtein, case-insensitive (perf's names mix cases), in one row. */
size_t strdist(const char *a, const char *b)
{
	size_t la = strnlen(a, STRDIST_MAX_LEN), lb = strnlen(b, STRDIST_MAX_LEN);
	size_t row[STRDIST_MAX_LEN + 1], i, j, diag, up, cost;

	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		diag = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			up = row[j];
			cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
			row[j] = diag + cost;
			if (up + 1 < row[j])
				row[j] = up + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			diag = up;
		}
	}
	return row[lb];
}

void strdist_init(struct strdist *sd, const char *word)
{
	sd->word = word;
	sd->best[0] = '\0';
	sd->dist = (size_t)-1;
}

void strdist_offer(struct strdist *sd, const char *name)
{
	size_t d = strdist(sd->word, name);

	if (d < sd->dist) {
		sd->dist = d;
		snprintf(sd->best, sizeof(sd->best), "%s", name);
	}
}

const char *strdist_best(const struct strdist *sd)
{
	size_t len = strlen(sd->word);

	if (!sd->best[0] || sd->dist > (len + 2) / 3)
		return NULL;
	return sd->best;
}
