/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_REPORT_REPORT_H
#define __GUPSTAT_REPORT_REPORT_H

int cmd_report(int argc, char **argv);

#endif /* __GUPSTAT_REPORT_REPORT_H */
