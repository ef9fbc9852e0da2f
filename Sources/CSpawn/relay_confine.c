#define _GNU_SOURCE
#include "relay_confine.h"

#include <errno.h>

#if defined(__linux__)
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

// The system call numbers and structures of <linux/landlock.h>, written out so that Relay builds
// where the kernel headers are older than the running kernel. The numbers are the same on every
// architecture (the unified table, since Linux 5.13).
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif
#ifndef SYS_landlock_add_rule
#define SYS_landlock_add_rule 445
#endif

struct relay_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

struct relay_path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

enum {
    CREATE_RULESET_VERSION = 1,
    RULE_PATH_BENEATH = 1,
};

enum {
    FS_EXECUTE = 1 << 0,
    FS_WRITE_FILE = 1 << 1,
    FS_READ_FILE = 1 << 2,
    FS_READ_DIR = 1 << 3,
    FS_REMOVE_DIR = 1 << 4,
    FS_REMOVE_FILE = 1 << 5,
    FS_MAKE_CHAR = 1 << 6,
    FS_MAKE_DIR = 1 << 7,
    FS_MAKE_REG = 1 << 8,
    FS_MAKE_SOCK = 1 << 9,
    FS_MAKE_FIFO = 1 << 10,
    FS_MAKE_BLOCK = 1 << 11,
    FS_MAKE_SYM = 1 << 12,
    FS_REFER = 1 << 13,    // ABI 2
    FS_TRUNCATE = 1 << 14, // ABI 3
    FS_IOCTL_DEV = 1 << 15, // ABI 5
    NET_BIND_TCP = 1 << 0,    // ABI 4
    NET_CONNECT_TCP = 1 << 1, // ABI 4
    SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0, // ABI 6
    SCOPE_SIGNAL = 1 << 1,               // ABI 6
};

/// Every file-system right ABI `version` knows.
static uint64_t handled_rights(int version) {
    uint64_t rights = (FS_MAKE_SYM << 1) - 1;
    if (version >= 2) rights |= FS_REFER;
    if (version >= 3) rights |= FS_TRUNCATE;
    if (version >= 5) rights |= FS_IOCTL_DEV;
    return rights;
}

/// The rights that mean something for a file that is not a folder.
static const uint64_t file_rights = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV;

int relay_landlock_version(void) {
    long version = syscall(SYS_landlock_create_ruleset, NULL, 0, CREATE_RULESET_VERSION);
    return version < 0 ? 0 : (int)version;
}

int relay_landlock_ruleset(int version, int confine_network) {
    struct relay_ruleset_attr attributes = {0, 0, 0};
    attributes.handled_access_fs = handled_rights(version);
    if (confine_network && version >= 4) attributes.handled_access_net = NET_BIND_TCP | NET_CONNECT_TCP;
    if (version >= 6) attributes.scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL;
    // Older kernels refuse a structure longer than they know: give them only what they read.
    size_t size = version >= 6 ? sizeof attributes : version >= 4 ? 2 * sizeof(uint64_t) : sizeof(uint64_t);
    long ruleset = syscall(SYS_landlock_create_ruleset, &attributes, size, 0);
    return ruleset < 0 ? -errno : (int)ruleset;
}

int relay_landlock_allow(int ruleset, int version, const char *path, relay_rule_kind kind) {
    int folder = open(path, O_PATH | O_CLOEXEC);
    if (folder < 0) return errno;
    struct stat status;
    if (fstat(folder, &status) != 0) {
        int saved = errno;
        close(folder);
        return saved;
    }
    uint64_t rights;
    switch (kind) {
    case RELAY_RULE_READ: rights = FS_READ_FILE | FS_READ_DIR | FS_EXECUTE; break;
    case RELAY_RULE_WRITE: rights = handled_rights(version); break;
    default: rights = FS_READ_FILE | FS_WRITE_FILE | FS_IOCTL_DEV; break;
    }
    rights &= handled_rights(version);
    if (!S_ISDIR(status.st_mode)) rights &= file_rights;
    struct relay_path_beneath_attr rule = {rights, folder};
    long added = syscall(SYS_landlock_add_rule, ruleset, RULE_PATH_BENEATH, &rule, 0);
    int saved = added < 0 ? errno : 0;
    close(folder);
    return saved;
}

#else

int relay_landlock_version(void) { return 0; }
int relay_landlock_ruleset(int version, int confine_network) {
    (void)version, (void)confine_network;
    return -ENOSYS;
}
int relay_landlock_allow(int ruleset, int version, const char *path, relay_rule_kind kind) {
    (void)ruleset, (void)version, (void)path, (void)kind;
    return ENOSYS;
}

#endif
