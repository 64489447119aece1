/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_UTIL_VERSION_H
#define __GUPSTAT_UTIL_VERSION_H

/*
 * What --version prints and trace files record; raise it with any change
 * users can see.
 */
#define GUPSTAT_VERSION	"0.4"

#endif /* __GUPSTAT_UTIL_VERSION_H */
