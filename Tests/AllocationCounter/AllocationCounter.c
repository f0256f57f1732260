// Counts heap allocations per thread, so tests can check that hot paths allocate nothing per row,
// and the heap bytes each thread holds (what it allocated less what it freed, by usable size),
// with their peak, so tests can check that a read holds no memory per object.
//
// The test executable defines malloc and its siblings; the dynamic linker resolves every
// library's calls to them here (an executable's definitions come first), and each forwards to
// glibc's own implementation (__libc_malloc and friends), so behaviour is unchanged. free is
// wrapped only to count the bytes it returns. Under a sanitizer, which brings its
// own allocator and interceptors, nothing is defined and counting is off.

#include "AllocationCounter.h"

#include <errno.h>
#include <malloc.h>
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
extern void __libc_free(void *pointer);

// Initial-exec TLS in the executable: reading it never allocates.
static __thread uint64_t allocations;
static __thread int64_t held_bytes;
static __thread int64_t peak_bytes;

static void *held(void *pointer) {
    if (pointer != NULL) {
        held_bytes += (int64_t)malloc_usable_size(pointer);
        if (held_bytes > peak_bytes) peak_bytes = held_bytes;
    }
    return pointer;
}

void *malloc(size_t size) {
    allocations++;
    return held(__libc_malloc(size));
}

void *calloc(size_t count, size_t size) {
    allocations++;
    return held(__libc_calloc(count, size));
}

void *realloc(void *pointer, size_t size) {
    allocations++;
    int64_t before = pointer == NULL ? 0 : (int64_t)malloc_usable_size(pointer);
    void *moved = __libc_realloc(pointer, size);
    // NULL with a size keeps the old block; with size 0 glibc freed it.
    if (moved != NULL || size == 0) held_bytes -= before;
    return held(moved);
}

void free(void *pointer) {
    if (pointer != NULL) held_bytes -= (int64_t)malloc_usable_size(pointer);
    __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
    allocations++;
    return held(__libc_memalign(alignment, size));
}

void *aligned_alloc(size_t alignment, size_t size) {
    allocations++;
    return held(__libc_memalign(alignment, size));
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    allocations++;
    void *pointer = held(__libc_memalign(alignment, size));
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

uint64_t objdb_thread_allocations(void) { return allocations; }
bool objdb_allocations_are_counted(void) { return true; }
int64_t objdb_thread_heap_bytes(void) { return held_bytes; }
void objdb_thread_heap_peak_reset(void) { peak_bytes = held_bytes; }
int64_t objdb_thread_heap_peak(void) { return peak_bytes; }

#else

uint64_t objdb_thread_allocations(void) { return 0; }
bool objdb_allocations_are_counted(void) { return false; }
int64_t objdb_thread_heap_bytes(void) { return 0; }
void objdb_thread_heap_peak_reset(void) {}
int64_t objdb_thread_heap_peak(void) { return 0; }

#endif
