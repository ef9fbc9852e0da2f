#ifndef RELAY_CONFINE_H
#define RELAY_CONFINE_H

/// Kernel confinement of a child process with Landlock (Linux 5.13 and later), through raw system
/// calls: a ruleset is made and filled in the parent, and `relay_spawn` applies it in the child
/// before the program starts. Everything the ruleset handles and no rule allows is refused by the
/// kernel with EACCES (files) or EACCES/EPERM (TCP connect and bind).

/// The Landlock ABI version this kernel offers (1 and up), or 0 when it has none or it is turned off.
int relay_landlock_version(void);

/// What a path rule allows.
typedef enum {
    /// Reading files and listing folders, and running programs from them.
    RELAY_RULE_READ = 0,
    /// Everything: reading, running, writing, making, removing, renaming and truncating.
    RELAY_RULE_WRITE = 1,
    /// Reading and writing an existing device such as /dev/null, without making anything.
    RELAY_RULE_DEVICE = 2,
} relay_rule_kind;

/// A new ruleset for ABI `version` handling every file-system access that version knows; TCP
/// connect and bind too when `confine_network` is non-zero (version 4 and later); signals and
/// abstract UNIX sockets outside the confined process's domain (version 6 and later). Returns the
/// ruleset's descriptor (close-on-exec), or -errno.
int relay_landlock_ruleset(int version, int confine_network);

/// Allows what `kind` says beneath `path` (a folder) or on `path` (any other file; only the
/// rights that apply to a file). Returns 0, or an errno value (ENOENT when there is no such path).
int relay_landlock_allow(int ruleset, int version, const char *path, relay_rule_kind kind);

#endif
