/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPWORK_FOLIO_CONFIRM_H
#define __GUPWORK_FOLIO_CONFIRM_H

#include "kernel/folio.h"

/* Since folio_snapshot(), were @expected folios of @kb allocated? 0 or -EAGAIN. */
int folio_confirm(const struct folio_sizes *fs, unsigned long kb,
		  unsigned long long expected);

#endif /* __GUPWORK_FOLIO_CONFIRM_H */
