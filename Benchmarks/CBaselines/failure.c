#include "failure.h"

#include <stdarg.h>
#include <stdio.h>

int bench_fail(bench_error *error, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(error->message, sizeof error->message, format, arguments);
    va_end(arguments);
    return -1;
}
