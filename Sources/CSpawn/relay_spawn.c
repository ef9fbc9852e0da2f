#define _GNU_SOURCE
#include "relay_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sched.h>
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

/// In the child: its standard streams on 0–2, the report pipe on 3 and `status` (when >= 0) on 4,
/// both close-on-exec, and no other descriptor of the parent's open. Returns 0 or an errno value
/// (then nothing was closed, and `report[1]` is still where a failure is written).
static int settle_descriptors(int in[2], int out[2], int err[2], int report[2], int status) {
    // Out of the way first: a parent without standard streams may have had a pipe land on 0–2.
    int from_in = fcntl(in[0], F_DUPFD, 10), to_out = fcntl(out[1], F_DUPFD, 10);
    int to_err = fcntl(err[1], F_DUPFD, 10), keep = fcntl(report[1], F_DUPFD, 10);
    int keep_status = status >= 0 ? fcntl(status, F_DUPFD, 10) : -1;
    if (from_in < 0 || to_out < 0 || to_err < 0 || keep < 0 || (status >= 0 && keep_status < 0)) return EMFILE;
    if (dup2(from_in, 0) < 0 || dup2(to_out, 1) < 0 || dup2(to_err, 2) < 0 || dup2(keep, 3) < 0) return EBADF;
    fcntl(3, F_SETFD, FD_CLOEXEC);
    if (status >= 0) {
        if (dup2(keep_status, 4) < 0) return EBADF;
        fcntl(4, F_SETFD, FD_CLOEXEC);
    }
    close_from(status >= 0 ? 5 : 4);
    return 0;
}

/// In the child: confines it with the Landlock `ruleset` (when >= 0) and the seccomp `filters`.
/// Returns 0 or an errno value.
static int confine_all(int ruleset, unsigned filters) {
    int failure = ruleset >= 0 ? confine(ruleset) : 0;
    return failure != 0 ? failure : filter_calls(filters);
}

/// In the confined child whose descriptors are settled: limits and default signals, then the
/// program; or why it could not start, written to the report pipe (3), and the end.
/// Only async-signal-safe calls.
static void start_program(const char *path, char *const argv[], char *const environment[], unsigned long long memory_limit,
                          unsigned long long process_limit, int niceness) {
    int failure = 0;
    {
        if (memory_limit > 0) {
            struct rlimit limit = {(rlim_t)memory_limit, (rlim_t)memory_limit};
            setrlimit(RLIMIT_AS, &limit);
        }
        if (process_limit > 0) {
            struct rlimit limit = {(rlim_t)process_limit, (rlim_t)process_limit};
            setrlimit(RLIMIT_NPROC, &limit);
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
        execve(path, argv, environment != NULL ? environment : environ);
        failure = errno;
    }
    ssize_t ignored = write(3, &failure, sizeof failure);
    (void)ignored;
    _exit(127);
}

/// In the child: ends it after writing `failure` to the report pipe `fd`.
static void report_failure(int fd, int failure) {
    ssize_t ignored = write(fd, &failure, sizeof failure);
    (void)ignored;
    _exit(127);
}

/// In the child: moves it into the control group whose `cgroup.procs` is open as `procs` (when
/// >= 0), or ends it after reporting why not on `report`.
static void join_group(int procs, int report) {
    if (procs < 0) return;
    if (write(procs, "0", 1) != 1) report_failure(report, errno);
    close(procs);
}

#if defined(__linux__) && defined(CLONE_NEWUSER) && defined(CLONE_NEWPID)
#define RELAY_CONTAINS_TREES 1

/// Whether new user and PID namespaces could not be made here (a container's filter, a kernel
/// without them, a limit of 0): once seen, no later child tries again.
static volatile int namespaces_refused = 0;

/// A failure the child reports when its namespaces could not be set up (and it ended without
/// starting anything): the parent starts the program again without them.
#define NAMESPACES_FAILED (-1)

/// The process the first one of the namespace signals are passed on to (every other in it).
static void pass_on(int signal_number) {
    int saved = errno;
    kill(-1, signal_number);
    errno = saved;
}

/// Writes `text` to the file `path` opened earlier as `fd`; 0 or an errno value.
static int write_all_text(int fd, const char *text) {
    size_t length = strlen(text);
    ssize_t written = write(fd, text, length);
    return written == (ssize_t)length ? 0 : (written < 0 ? errno : EIO);
}

/// In the child made with new user and PID namespaces, which is their first process (PID 1):
/// maps its own user and group to the same numbers inside, starts the program as its child, passes
/// the signals it gets on to every process in the namespace, and, when the program ends, writes
/// how it ended to `status` and ends — and with it, by the kernel's hand, every process the program
/// left, however it detached. Nothing here allocates: the maps' lines were made by the parent.
static void lead_namespace(const char *uid_line, const char *gid_line, const char *path, char *const argv[],
                           char *const environment[], unsigned long long memory_limit, unsigned long long process_limit,
                           int niceness, int ruleset, unsigned filters, int in[2], int out[2], int err[2], int report[2],
                           int status[2], int control_group) {
    join_group(control_group, report[1]);
    // Its /proc files are the user's only while it is dumpable; it holds a copy of Relay's memory,
    // so it is dumpable just long enough to open them (the writes are checked at the open).
    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
    int groups = open("/proc/self/setgroups", O_WRONLY | O_CLOEXEC);
    int users = open("/proc/self/uid_map", O_WRONLY | O_CLOEXEC);
    int group_map = open("/proc/self/gid_map", O_WRONLY | O_CLOEXEC);
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    if (groups < 0 || users < 0 || group_map < 0 || write_all_text(groups, "deny") != 0 || write_all_text(users, uid_line) != 0 ||
        write_all_text(group_map, gid_line) != 0)
        report_failure(report[1], NAMESPACES_FAILED);
    close(groups), close(users), close(group_map);
    int confined = confine_all(ruleset, filters);
    if (confined != 0) report_failure(report[1], confined);
    int settled = settle_descriptors(in, out, err, report, status[1]);
    if (settled != 0) report_failure(report[1], settled);
    struct sigaction passing;
    memset(&passing, 0, sizeof passing);
    passing.sa_handler = pass_on;
    passing.sa_flags = SA_RESTART;
    sigemptyset(&passing.sa_mask);
    const int passed[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};
    for (size_t i = 0; i < sizeof passed / sizeof passed[0]; i++) sigaction(passed[i], &passing, NULL);
    // Relay's threads block the signals its listener reads; this process must get them to pass on.
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    // A plain fork without glibc's handlers: another thread of Relay may have held a lock they take.
    pid_t program = (pid_t)syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
    if (program < 0) report_failure(3, errno);
    if (program == 0) {
        close(4);
        start_program(path, argv, environment, memory_limit, process_limit, niceness);
    }
    // Nothing of the program's streams stays open here: they end when the program's side does.
    close(0), close(1), close(2), close(3);
    int how = 0;
    for (;;) {
        pid_t ended = waitpid(-1, &how, __WALL);
        if (ended == program) break;
        if (ended < 0 && errno != EINTR) _exit(127);
    }
    ssize_t ignored = write(4, &how, sizeof how);
    (void)ignored;
    _exit(0);
}
#endif

int relay_spawn(const char *path, char *const argv[], char *const environment[], unsigned long long memory_limit, int niceness,
                int ruleset, unsigned filters, relay_streams streams, relay_tree tree, relay_child *child) {
    int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1}, report[2] = {-1, -1}, status[2] = {-1, -1};
    int contain = 0;
#if defined(RELAY_CONTAINS_TREES)
    contain = tree.contained && !namespaces_refused;
    char uid_line[48], gid_line[48];
    snprintf(uid_line, sizeof uid_line, "%u %u 1\n", (unsigned)geteuid(), (unsigned)geteuid());
    snprintf(gid_line, sizeof gid_line, "%u %u 1\n", (unsigned)getegid(), (unsigned)getegid());
#endif
    if (stream_pair(streams.input, in, 0) != 0 || stream_pair(streams.output, out, 1) != 0 ||
        stream_pair(streams.errors, err, 1) != 0 || pipe2(report, O_CLOEXEC) != 0 || (contain && pipe2(status, O_CLOEXEC) != 0)) {
        int saved = errno;
        close_own(in, streams.input), close_own(out, streams.output), close_own(err, streams.errors), close_pair(report);
        close_pair(status);
        return saved;
    }
    pid_t pid;
#if defined(RELAY_CONTAINS_TREES)
    if (contain) {
        // Like fork, but the child is the first process of new user and PID namespaces.
        pid = (pid_t)syscall(SYS_clone, CLONE_NEWUSER | CLONE_NEWPID | SIGCHLD, 0, 0, 0, 0);
        if (pid < 0 && (errno == EPERM || errno == EINVAL || errno == ENOSPC || errno == EUSERS || errno == ENOSYS)) {
            namespaces_refused = 1;
            contain = 0;
            close_pair(status);
            status[0] = status[1] = -1;
            pid = fork();
        }
        if (pid == 0 && contain) {
            setsid();
            lead_namespace(uid_line, gid_line, path, argv, environment, memory_limit, tree.process_limit, niceness, ruleset, filters,
                           in, out, err, report, status, tree.control_group);
        }
    } else
#endif
        pid = fork();
    if (pid < 0) {
        int saved = errno;
        close_own(in, streams.input), close_own(out, streams.output), close_own(err, streams.errors), close_pair(report);
        close_pair(status);
        return saved;
    }
    if (pid == 0) {
        // The child: nothing here may allocate or take a lock another thread of the parent held.
        join_group(tree.control_group, report[1]);
        setsid();
        int confined = confine_all(ruleset, filters);
        if (confined != 0) report_failure(report[1], confined);
        int settled = settle_descriptors(in, out, err, report, -1);
        if (settled != 0) report_failure(report[1], settled);
        start_program(path, argv, environment, memory_limit, 0, niceness);
    }
    // The child's ends of new pipes; a descriptor the caller gave stays the caller's.
    if (streams.input < 0) close(in[0]);
    if (streams.output < 0) close(out[1]);
    if (streams.errors < 0) close(err[1]);
    close(report[1]);
    if (status[1] >= 0) close(status[1]);
    int failure = 0;
    ssize_t count;
    do {
        count = read(report[0], &failure, sizeof failure);
    } while (count < 0 && errno == EINTR);
    close(report[0]);
    if (count == sizeof failure) {
        int ended;
        waitpid(pid, &ended, 0);
        if (in[1] >= 0) close(in[1]);
        if (out[0] >= 0) close(out[0]);
        if (err[0] >= 0) close(err[0]);
        if (status[0] >= 0) close(status[0]);
#if defined(RELAY_CONTAINS_TREES)
        if (failure == NAMESPACES_FAILED) {
            namespaces_refused = 1;
            return relay_spawn(path, argv, environment, memory_limit, niceness, ruleset, filters, streams, tree, child);
        }
#endif
        return failure;
    }
    child->pid = pid;
    child->input = in[1];
    child->output = out[0];
    child->errors = err[0];
    child->status = status[0];
    return 0;
}

int relay_contains_trees(void) {
#if defined(RELAY_CONTAINS_TREES)
    return !namespaces_refused;
#else
    return 0;
#endif
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
