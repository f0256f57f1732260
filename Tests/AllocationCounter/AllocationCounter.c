// Counts heap allocations per thread, so tests can check that hot paths allocate nothing per row.
//
// The test executable defines malloc and its siblings; the dynamic linker resolves every
// library's calls to them here (an executable's definitions come first), and each forwards to
// glibc's own implementation (__libc_malloc and friends), so behaviour is unchanged. free is
// not wrapped: glibc's frees what __libc_malloc returns. Under a sanitizer, which brings its
// own allocator and interceptors, nothing is defined and counting is off.

#include "AllocationCounter.h"

#include <errno.h>
#include <stddef.h>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define OBJDB_NO_COUNTING 1
#endif
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(OBJDB_NO_COUNTING)

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

// Initial-exec TLS in the executable: reading it never allocates.
static __thread uint64_t allocations;

void *malloc(size_t size) {
    allocations++;
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    allocations++;
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    allocations++;
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    allocations++;
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    allocations++;
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    allocations++;
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

uint64_t objdb_thread_allocations(void) { return allocations; }
bool objdb_allocations_are_counted(void) { return true; }

#else

uint64_t objdb_thread_allocations(void) { return 0; }
bool objdb_allocations_are_counted(void) { return false; }

#endif
