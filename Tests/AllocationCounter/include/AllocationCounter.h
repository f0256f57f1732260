#ifndef OBJDB_ALLOCATION_COUNTER_H
#define OBJDB_ALLOCATION_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

/// The heap allocations (malloc, calloc, realloc, aligned ones) the calling thread has made
/// since it started, counted by wrappers around glibc's allocator in the test process.
uint64_t objdb_thread_allocations(void);

/// The heap bytes the calling thread holds: the usable size of what it allocated less what it
/// freed (a block freed on another thread counts there).
int64_t objdb_thread_heap_bytes(void);

/// Starts a new peak of ``objdb_thread_heap_bytes`` at its current value.
void objdb_thread_heap_peak_reset(void);

/// The most ``objdb_thread_heap_bytes`` reached since the last reset.
int64_t objdb_thread_heap_peak(void);

/// Whether the wrappers are in place (they are not under a sanitizer, which has its own allocator).
bool objdb_allocations_are_counted(void);

#endif
