#ifndef OBJDB_CLMDB_SHIM_H
#define OBJDB_CLMDB_SHIM_H
#include <lmdb.h>
#include <stddef.h>
#include <stdint.h>

/// Asks the processor to start loading `size` bytes at `start` into its caches: a value LMDB just
/// found is usually a cache miss away, and the object layer has work to do before it reads it.
static inline void objdb_prefetch(const void *start, size_t size) {
    const char *bytes = (const char *)start;
    for (size_t offset = 0; offset < size; offset += 64) __builtin_prefetch(bytes + offset, 0, 3);
}

/// Atomic operations on a counter in memory shared between processes (a mapped file), where
/// Swift's `Atomic` cannot live: sequentially consistent, as the counter's users reason.
static inline int64_t objdb_shared_load(const int64_t *counter) {
    return __atomic_load_n(counter, __ATOMIC_SEQ_CST);
}
/// Sets `*counter` to `desired` if it still holds `expected`; returns whether it did.
static inline int objdb_shared_replace(int64_t *counter, int64_t expected, int64_t desired) {
    return __atomic_compare_exchange_n(counter, &expected, desired, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}
#endif
