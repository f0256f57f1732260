#ifndef OBJDB_CLMDB_SHIM_H
#define OBJDB_CLMDB_SHIM_H
#include <lmdb.h>
#include <stddef.h>

/// Asks the processor to start loading `size` bytes at `start` into its caches: a value LMDB just
/// found is usually a cache miss away, and the object layer has work to do before it reads it.
static inline void objdb_prefetch(const void *start, size_t size) {
    const char *bytes = (const char *)start;
    for (size_t offset = 0; offset < size; offset += 64) __builtin_prefetch(bytes + offset, 0, 3);
}
#endif
