/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_UTIL_VERSION_H
#define __GUPSTAT_UTIL_VERSION_H

/* Written into trace files; raise it with any change users can see. */
#define GUPSTAT_VERSION	"0.2"

#endif /* __GUPSTAT_UTIL_VERSION_H */
