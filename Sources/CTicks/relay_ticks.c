#include "relay_ticks.h"

#include <time.h>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

uint64_t relay_ticks(void) {
#if defined(__x86_64__)
    return __rdtsc();
#elif defined(__aarch64__)
    uint64_t ticks;
    __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(ticks));
    return ticks;
#else
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
#endif
}

int relay_ticks_are_nanoseconds(void) {
#if defined(__x86_64__) || defined(__aarch64__)
    return 0;
#else
    return 1;
#endif
}
