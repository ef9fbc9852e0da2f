#ifndef RELAY_MALLOC_ARENA_H
#define RELAY_MALLOC_ARENA_H

/// Makes every thread allocate from one malloc arena (glibc; nothing elsewhere). Call it before
/// any thread starts. Swift's work runs on threads other than the main one, and glibc gives each
/// its own arena, which grows and shrinks a page at a time with an mprotect each.
void relay_use_one_malloc_arena(void);

#endif
