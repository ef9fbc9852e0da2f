#ifndef RELAY_SPAWN_H
#define RELAY_SPAWN_H

#include <sys/types.h>

/// A process started by `relay_spawn`, and the parent's ends of its standard streams (-1 for a
/// stream given a descriptor of the parent's instead of a pipe).
typedef struct {
    pid_t pid;
    /// Write end of the child's standard input.
    int input;
    /// Read ends of the child's standard output and standard error.
    int output;
    int errors;
    /// Read end of a pipe on which the first process of the child's namespaces writes how the
    /// program ended (a wait status, as an int) before it ends; -1 when the child is not contained.
    int status;
} relay_child;

/// What the child's standard input, output and error are: -1 for a new pipe, or a descriptor of
/// this process the child gets a copy of (`/dev/null`, Relay's own standard error…).
typedef struct {
    int input;
    int output;
    int errors;
} relay_streams;

/// Whether the child's whole process tree is contained: when `contained` is non-zero (and the
/// kernel allows it), the child starts as the first process of new user and PID namespaces, which
/// starts the program and passes signals on to it; when the program ends, the kernel ends every
/// process left in the namespace, however it detached; with at most `process_limit` processes in it
/// (0: no limit of its own; the limit does not bind a program run by root). When `control_group`
/// is a descriptor (>= 0) of a control group's `cgroup.procs` open for writing, the child writes
/// itself into that group before anything else, so that all it starts is in the group too; a
/// child that cannot is a failure to start.
typedef struct {
    int contained;
    unsigned long long process_limit;
    int control_group;
} relay_tree;

/// System calls a child is refused with EACCES by a seccomp filter installed before it starts
/// (Linux; ignored elsewhere). System calls of another architecture's table (i386's `int 0x80`,
/// x32) are refused whenever a filter is installed, so that none of these can be reached that way.
enum {
    /// `socket()` of every family: no new socket, so no UDP, no UNIX socket, no raw socket.
    RELAY_FILTER_SOCKETS = 1 << 0,
    /// `io_uring_setup()`: io_uring's operations would be a way around the filter.
    RELAY_FILTER_IO_URING = 1 << 1,
    /// `keyctl()`, `add_key()`, `request_key()`: the kernel's keyrings, where a user's session
    /// keeps keys and tokens, are out of reach.
    RELAY_FILTER_KEYRING = 1 << 2,
};

/// Starts `path` with `argv` (NULL-terminated) and `environment` (NULL-terminated; NULL for this
/// process's), confined by the Landlock ruleset `ruleset` (-1: not confined; see relay_confine.h;
/// a ruleset that cannot be applied is a failure to start, never an unconfined child), as the leader of
/// a new session (so that everything it starts can be found and stopped with it), with its
/// address space limited to `memory_limit` bytes (0: no limit), its scheduling priority lowered
/// by `niceness` (0: as this process's; see nice(2)), with the system calls `filters` names refused
/// (0: none; a filter that cannot be installed is a failure to start), with pipes for its standard
/// streams and no other descriptor of this process open in it; its tree contained as `tree` says.
/// Returns 0, or an errno value (of the fork, or of the exec in the child).
int relay_spawn(const char *path, char *const argv[], char *const environment[], unsigned long long memory_limit, int niceness,
                int ruleset, unsigned filters, relay_streams streams, relay_tree tree, relay_child *child);

/// Whether children asked to be contained are (new user and PID namespaces work here, as far as
/// this process has seen). 0 elsewhere than Linux.
int relay_contains_trees(void);

/// Makes this process inherit the processes its descendants leave behind (Linux's child
/// subreaper). Returns 0 or an errno value (ENOSYS elsewhere).
int relay_adopt_orphans(void);

/// Marks this process not dumpable: other processes of its user cannot read its memory or its
/// /proc entries, and it leaves no core dump. Returns 0 or an errno value (ENOSYS elsewhere).
int relay_seal_memory(void);

/// The session of process `pid`, or -1.
pid_t relay_session_of(pid_t pid);

#endif
