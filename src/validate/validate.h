/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_VALIDATE_VALIDATE_H
#define __GUPSTAT_VALIDATE_VALIDATE_H

int cmd_validate(int argc, char **argv);

#endif /* __GUPSTAT_VALIDATE_VALIDATE_H */
