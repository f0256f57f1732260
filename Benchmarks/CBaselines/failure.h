/* What both baselines use to report a failure. */
#ifndef OBJDB_BENCH_FAILURE_H
#define OBJDB_BENCH_FAILURE_H

#include "CBaselines.h"

/* Writes the formatted reason into `error` and returns -1, the failure result of every call. */
int bench_fail(bench_error *error, const char *format, ...) __attribute__((format(printf, 2, 3)));

#endif
