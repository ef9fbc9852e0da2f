#define _GNU_SOURCE
#include "relay_pipe_signal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

void relay_pipe_signal_hold(relay_pipe_signal_guard *guard) {
#if defined(__APPLE__)
    (void)guard;
#else
    sigset_t pipe_signal, pending;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    sigemptyset(&pending);
    sigpending(&pending);
    guard->was_pending = sigismember(&pending, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &pipe_signal, &guard->previous_mask);
#endif
}

void relay_pipe_signal_release(relay_pipe_signal_guard *guard) {
#if defined(__APPLE__)
    (void)guard;
#else
    sigset_t pipe_signal;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    if (!guard->was_pending) {
        // A SIGPIPE a write raised is directed at the writing thread, so it waits here: take it
        // back without waiting (sigwait would wait for good when there is none).
        struct timespec now = {0, 0};
        while (sigtimedwait(&pipe_signal, NULL, &now) < 0 && errno == EINTR) {
        }
    }
    pthread_sigmask(SIG_SETMASK, &guard->previous_mask, NULL);
#endif
}

int relay_write_all(int descriptor, const void *bytes, size_t length) {
#if defined(__APPLE__)
    (void)fcntl(descriptor, F_SETNOSIGPIPE, 1);
#endif
    relay_pipe_signal_guard guard;
    relay_pipe_signal_hold(&guard);
    const char *next = bytes;
    int failure = 0;
    while (length > 0) {
        ssize_t written = write(descriptor, next, length);
        if (written < 0) {
            if (errno == EINTR) continue;
            failure = errno;
            break;
        }
        next += (size_t)written;
        length -= (size_t)written;
    }
#if defined(__APPLE__)
    relay_pipe_signal_release(&guard);
#else
    // Only a write that failed with EPIPE raised a SIGPIPE to take back: any other needs just
    // the mask restored (one system call, not three, on each message to a package's host).
    if (failure == EPIPE) {
        relay_pipe_signal_release(&guard);
    } else {
        pthread_sigmask(SIG_SETMASK, &guard.previous_mask, NULL);
    }
#endif
    return failure;
}
