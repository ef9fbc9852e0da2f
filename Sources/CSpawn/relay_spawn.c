#define _GNU_SOURCE
#include "relay_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#if defined(__linux__)
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#endif
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static void close_pair(int pair[2]) {
    if (pair[0] >= 0) close(pair[0]);
    if (pair[1] >= 0) close(pair[1]);
}

/// Closes every descriptor from `first` up, in the child (only async-signal-safe calls).
static void close_from(int first) {
#if defined(__linux__) && defined(SYS_close_range)
    if (syscall(SYS_close_range, (unsigned)first, ~0U, 0) == 0) return;
#endif
    long most = sysconf(_SC_OPEN_MAX);
    if (most < 0 || most > 65536) most = 65536;
    for (int fd = first; fd < most; fd++) close(fd);
}

/// A pipe for a stream the caller wants a pipe for; for a given descriptor, that descriptor as the
/// child's end (and -1 as the parent's).
static int stream_pair(int given, int pair[2], int child_end) {
    if (given >= 0) {
        pair[child_end] = given;
        pair[1 - child_end] = -1;
        return 0;
    }
    return pipe2(pair, O_CLOEXEC);
}

static void close_own(int pair[2], int given) {
    if (given < 0) close_pair(pair);
}

/// In the child: confines it with the Landlock ruleset `ruleset`. Returns 0 or an errno value.
static int confine(int ruleset) {
#if defined(__linux__)
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return errno;
    // landlock_restrict_self, by its number in the unified table (Linux 5.13 and later).
    if (syscall(446, ruleset, 0) != 0) return errno;
    return 0;
#else
    (void)ruleset;
    return ENOSYS;
#endif
}

#if defined(__linux__)
#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#endif
#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup 425
#endif
#endif

/// In the child: installs a seccomp filter refusing, with EACCES, the system calls `filters` names
/// and every call of a foreign architecture's table. Returns 0 or an errno value. Only
/// async-signal-safe calls: the program is built on the stack.
static int filter_calls(unsigned filters) {
#if defined(__linux__) && defined(NATIVE_ARCH)
    if (filters == 0) return 0;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return errno;
    struct sock_filter program[16];
    unsigned short count = 0;
    // Another architecture's calls: refused (the jump target is patched below, to `deny`).
    program[count++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
    unsigned short jumps[12];
    unsigned short jump_count = 0;
    jumps[jump_count++] = count;
    program[count++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 0, 0); // jt: next, jf: deny
    program[count++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
#if defined(__x86_64__)
    // x32's calls are numbered from 0x40000000 in the same architecture.
    jumps[jump_count++] = count;
    program[count++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 0); // jt: deny
#endif
    if (filters & RELAY_FILTER_SOCKETS) {
        jumps[jump_count++] = count;
        program[count++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_socket, 0, 0);
    }
    if (filters & RELAY_FILTER_IO_URING) {
        jumps[jump_count++] = count;
        program[count++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_io_uring_setup, 0, 0);
    }
    if (filters & RELAY_FILTER_KEYRING) {
        jumps[jump_count++] = count;
        program[count++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_keyctl, 0, 0);
        jumps[jump_count++] = count;
        program[count++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_add_key, 0, 0);
        jumps[jump_count++] = count;
        program[count++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_request_key, 0, 0);
    }
    program[count++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    unsigned short deny = count;
    program[count++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA));
    for (unsigned short i = 0; i < jump_count; i++) {
        unsigned short at = jumps[i];
        unsigned char offset = (unsigned char)(deny - at - 1);
        if (i == 0) {
            program[at].jt = 0;       // the native architecture goes on
            program[at].jf = offset;  // any other is refused
        } else {
            program[at].jt = offset;  // a refused call
            program[at].jf = 0;
        }
    }
    struct sock_fprog filter = {count, program};
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &filter, 0, 0) != 0) return errno;
    return 0;
#elif defined(__linux__)
    return filters == 0 ? 0 : ENOSYS;
#else
    (void)filters;
    return 0;
#endif
}

int relay_spawn(const char *path, char *const argv[], char *const environment[], unsigned long long memory_limit, int niceness,
                int ruleset, unsigned filters, relay_streams streams, relay_child *child) {
    int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1}, report[2] = {-1, -1};
    if (stream_pair(streams.input, in, 0) != 0 || stream_pair(streams.output, out, 1) != 0 ||
        stream_pair(streams.errors, err, 1) != 0 || pipe2(report, O_CLOEXEC) != 0) {
        int saved = errno;
        close_own(in, streams.input), close_own(out, streams.output), close_own(err, streams.errors), close_pair(report);
        return saved;
    }
    pid_t pid = fork();
    if (pid < 0) {
        int saved = errno;
        close_own(in, streams.input), close_own(out, streams.output), close_own(err, streams.errors), close_pair(report);
        return saved;
    }
    if (pid == 0) {
        // The child: nothing here may allocate or take a lock another thread of the parent held.
        setsid();
        if (ruleset >= 0) {
            int failure = confine(ruleset);
            if (failure != 0) {
                ssize_t ignored = write(report[1], &failure, sizeof failure);
                (void)ignored;
                _exit(127);
            }
        }
        int filtered = filter_calls(filters);
        if (filtered != 0) {
            ssize_t ignored = write(report[1], &filtered, sizeof filtered);
            (void)ignored;
            _exit(127);
        }
        if (memory_limit > 0) {
            struct rlimit limit = {(rlim_t)memory_limit, (rlim_t)memory_limit};
            setrlimit(RLIMIT_AS, &limit);
        }
        if (niceness > 0) {
            errno = 0;
            (void)nice(niceness);
        }
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        for (int signal_number = 1; signal_number < 32; signal_number++) {
            if (signal_number != SIGKILL && signal_number != SIGSTOP) signal(signal_number, SIG_DFL);
        }
        // Out of the way first: a parent without standard streams may have had a pipe land on 0–2.
        int from_in = fcntl(in[0], F_DUPFD, 10), to_out = fcntl(out[1], F_DUPFD, 10);
        int to_err = fcntl(err[1], F_DUPFD, 10), keep = fcntl(report[1], F_DUPFD, 10);
        if (from_in < 0 || to_out < 0 || to_err < 0 || keep < 0) _exit(127);
        if (dup2(from_in, 0) < 0 || dup2(to_out, 1) < 0 || dup2(to_err, 2) < 0 || dup2(keep, 3) < 0) _exit(127);
        fcntl(3, F_SETFD, FD_CLOEXEC);
        close_from(4);
        execve(path, argv, environment != NULL ? environment : environ);
        int failure = errno;
        ssize_t ignored = write(3, &failure, sizeof failure);
        (void)ignored;
        _exit(127);
    }
    // The child's ends of new pipes; a descriptor the caller gave stays the caller's.
    if (streams.input < 0) close(in[0]);
    if (streams.output < 0) close(out[1]);
    if (streams.errors < 0) close(err[1]);
    close(report[1]);
    int failure = 0;
    ssize_t count;
    do {
        count = read(report[0], &failure, sizeof failure);
    } while (count < 0 && errno == EINTR);
    close(report[0]);
    if (count == sizeof failure) {
        int status;
        waitpid(pid, &status, 0);
        if (in[1] >= 0) close(in[1]);
        if (out[0] >= 0) close(out[0]);
        if (err[0] >= 0) close(err[0]);
        return failure;
    }
    child->pid = pid;
    child->input = in[1];
    child->output = out[0];
    child->errors = err[0];
    return 0;
}

pid_t relay_session_of(pid_t pid) { return getsid(pid); }

int relay_adopt_orphans(void) {
#if defined(__linux__)
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 ? 0 : errno;
#else
    return ENOSYS;
#endif
}

int relay_seal_memory(void) {
#if defined(__linux__)
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0 ? 0 : errno;
#else
    return ENOSYS;
#endif
}
