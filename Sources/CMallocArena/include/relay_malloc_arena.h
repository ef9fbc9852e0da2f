#ifndef RELAY_MALLOC_ARENA_H
#define RELAY_MALLOC_ARENA_H

/// Tunes glibc's malloc (nothing elsewhere); call it before any thread starts.
/// - One arena for every thread: Swift's work runs on threads other than the main one, and glibc
///   gives each its own arena, which grows and shrinks a page at a time with an mprotect each.
/// - Blocks of 1 MiB and more always mapped on their own, so that freeing one gives its memory
///   back at once. glibc otherwise raises that bound to the size of the last large block freed,
///   after which a 16 MiB response buffer, grown and freed in the heap, stays in the process's
///   memory for the rest of the run.
void relay_tune_malloc(void);

#endif
