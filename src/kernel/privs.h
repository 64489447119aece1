/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_KERNEL_PRIVS_H
#define __GUPSTAT_KERNEL_PRIVS_H

int privs_check(void);

#endif /* __GUPSTAT_KERNEL_PRIVS_H */
