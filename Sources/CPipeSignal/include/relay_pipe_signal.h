#ifndef RELAY_PIPE_SIGNAL_H
#define RELAY_PIPE_SIGNAL_H

#include <signal.h>
#include <stddef.h>

/// SIGPIPE kept from ending this process while one thread writes to a pipe or socket whose
/// reader may be gone (a package host that closed its input, a server that hung up under
/// OpenSSL). The signal is blocked in the calling thread only — a library does not change the
/// process's signal dispositions — and a SIGPIPE the writes raised meanwhile is taken back when
/// the guard is released, so that the write is the error EPIPE instead. A SIGPIPE pending before
/// the guard was taken is left as it was. On Darwin, where descriptors say so themselves
/// (F_SETNOSIGPIPE, SO_NOSIGPIPE), the guard does nothing.
typedef struct {
    sigset_t previous_mask;
    int was_pending;
} relay_pipe_signal_guard;

void relay_pipe_signal_hold(relay_pipe_signal_guard *guard);
void relay_pipe_signal_release(relay_pipe_signal_guard *guard);

/// Writes all `length` bytes of `bytes` to `descriptor` under the guard, retrying after signals
/// and short writes. Returns 0, or an errno value (EPIPE: nobody reads the other end).
int relay_write_all(int descriptor, const void *bytes, size_t length);

#endif
