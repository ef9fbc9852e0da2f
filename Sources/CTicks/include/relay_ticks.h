#ifndef RELAY_TICKS_H
#define RELAY_TICKS_H

#include <stdint.h>

/// The processor's constant-rate tick counter (x86-64's TSC, arm64's virtual counter), read in a
/// few nanoseconds: the run history times every step with it, where reading the system's
/// monotonic clock twice would cost a step in a tight loop a twentieth of its time. Elsewhere the
/// monotonic clock in nanoseconds. Ticks become seconds by a rate measured against that clock
/// over the run (relay_ticks_are_nanoseconds says when no rate is needed).
uint64_t relay_ticks(void);

/// 1 when relay_ticks counts nanoseconds (no tick counter on this processor), else 0.
int relay_ticks_are_nanoseconds(void);

#endif
