#include "relay_malloc_arena.h"

#if defined(__linux__)
#include <malloc.h>  // defines __GLIBC__ where the C library is glibc
#endif

void relay_use_one_malloc_arena(void) {
#if defined(__GLIBC__) && defined(M_ARENA_MAX)
    mallopt(M_ARENA_MAX, 1);
#endif
}
