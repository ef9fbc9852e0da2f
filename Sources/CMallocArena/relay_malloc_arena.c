#include "relay_malloc_arena.h"

#if defined(__linux__)
#include <malloc.h>  // defines __GLIBC__ where the C library is glibc
#endif

void relay_tune_malloc(void) {
#if defined(__GLIBC__) && defined(M_ARENA_MAX)
    mallopt(M_ARENA_MAX, 1);
#endif
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
}
