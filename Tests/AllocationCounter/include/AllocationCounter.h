#ifndef OBJDB_ALLOCATION_COUNTER_H
#define OBJDB_ALLOCATION_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

/// The heap allocations (malloc, calloc, realloc, aligned ones) the calling thread has made
/// since it started, counted by wrappers around glibc's allocator in the test process.
uint64_t objdb_thread_allocations(void);

/// Whether the wrappers are in place (they are not under a sanitizer, which has its own allocator).
bool objdb_allocations_are_counted(void);

#endif
