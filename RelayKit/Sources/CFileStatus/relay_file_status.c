#define _GNU_SOURCE
#include "relay_file_status.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int relay_file_status_of(const char *path, int follow, relay_file_status *status) {
    return relay_file_status_at(AT_FDCWD, path, follow, status);
}

int relay_file_status_at(int folder, const char *name, int follow, relay_file_status *status) {
    memset(status, 0, sizeof *status);
#if defined(__linux__) && defined(STATX_BTIME)
    struct statx extended;
    int flags = follow ? 0 : AT_SYMLINK_NOFOLLOW;
    if (statx(folder, name, flags, STATX_BASIC_STATS | STATX_BTIME, &extended) == 0) {
        const struct statx *info = &extended;
        status->device = ((uint64_t)info->stx_dev_major << 32) | info->stx_dev_minor;
        status->inode = info->stx_ino;
        status->kind = info->stx_mode & S_IFMT;
        status->size = (int64_t)info->stx_size;
        status->modified_seconds = info->stx_mtime.tv_sec;
        status->modified_nanoseconds = info->stx_mtime.tv_nsec;
        status->changed_seconds = info->stx_ctime.tv_sec;
        status->changed_nanoseconds = info->stx_ctime.tv_nsec;
        if (info->stx_mask & STATX_BTIME) {
            status->has_birth_time = 1;
            status->born_seconds = info->stx_btime.tv_sec;
            status->born_nanoseconds = info->stx_btime.tv_nsec;
        }
        return 0;
    }
    if (errno != ENOSYS) return -1;
#endif
    struct stat info;
    if (fstatat(folder, name, &info, follow ? 0 : AT_SYMLINK_NOFOLLOW) != 0) return -1;
    status->device = (uint64_t)info.st_dev;
    status->inode = (uint64_t)info.st_ino;
    status->kind = info.st_mode & S_IFMT;
    status->size = (int64_t)info.st_size;
#if defined(__APPLE__)
    status->modified_seconds = info.st_mtimespec.tv_sec;
    status->modified_nanoseconds = info.st_mtimespec.tv_nsec;
    status->changed_seconds = info.st_ctimespec.tv_sec;
    status->changed_nanoseconds = info.st_ctimespec.tv_nsec;
    status->has_birth_time = 1;
    status->born_seconds = info.st_birthtimespec.tv_sec;
    status->born_nanoseconds = info.st_birthtimespec.tv_nsec;
#else
    status->modified_seconds = info.st_mtim.tv_sec;
    status->modified_nanoseconds = info.st_mtim.tv_nsec;
    status->changed_seconds = info.st_ctim.tv_sec;
    status->changed_nanoseconds = info.st_ctim.tv_nsec;
#endif
    return 0;
}

ssize_t relay_copy_file_range(int source, int destination, size_t length) {
#if defined(__linux__)
    return copy_file_range(source, NULL, destination, NULL, length, 0);
#else
    (void)source, (void)destination, (void)length;
    errno = ENOSYS;
    return -1;
#endif
}

void relay_start_writeback(int descriptor, long long offset, long long length) {
#if defined(__linux__)
    (void)sync_file_range(descriptor, offset, length, SYNC_FILE_RANGE_WRITE);
#else
    (void)descriptor, (void)offset, (void)length;
#endif
}

#if defined(__linux__)
#include <stdint.h>
#include <sys/syscall.h>
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
struct relay_open_how {
    uint64_t flags;
    uint64_t mode;
    uint64_t resolve;
};
#define RELAY_RESOLVE_NO_SYMLINKS 0x04
#endif

int relay_open_no_symlinks(const char *path, int flags, unsigned int mode) {
    if (path == NULL || path[0] != '/') {
        errno = EINVAL;
        return -1;
    }
    flags |= O_CLOEXEC;
#if defined(__linux__)
    struct relay_open_how how = {(uint64_t)flags, (flags & O_CREAT) ? (uint64_t)mode : 0, RELAY_RESOLVE_NO_SYMLINKS};
    long opened = syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how);
    if (opened >= 0) return (int)opened;
    if (errno != ENOSYS && errno != EPERM && errno != E2BIG) return -1;
#endif
    // Component by component: each folder opened without following a link, the last as asked.
    int folder = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (folder < 0) return -1;
    const char *start = path;
    while (*start == '/') start++;
    char component[256];
    for (;;) {
        const char *end = strchr(start, '/');
        size_t length = end ? (size_t)(end - start) : strlen(start);
        if (length >= sizeof component) {
            close(folder);
            errno = ENAMETOOLONG;
            return -1;
        }
        memcpy(component, start, length);
        component[length] = 0;
        const char *rest = end;
        while (rest && *rest == '/') rest++;
        int last = rest == NULL || *rest == 0;
        if (length == 0) {
            // The path was "/" itself.
            int opened = openat(folder, ".", flags, mode);
            close(folder);
            return opened;
        }
        if (strcmp(component, "..") == 0 || strcmp(component, ".") == 0) {
            close(folder);
            errno = EINVAL;
            return -1;
        }
        int next = last ? openat(folder, component, flags | O_NOFOLLOW, mode)
                        : openat(folder, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int saved = errno;
        close(folder);
        if (next < 0) {
            // O_NOFOLLOW on a link: ELOOP on Linux, EMLINK on some BSDs; a folder that is a link: ENOTDIR.
            errno = saved == EMLINK ? ELOOP : saved;
            return -1;
        }
        if (last) return next;
        folder = next;
        start = rest;
    }
}

int relay_open_link_free_folder(const char *path) {
#if defined(__linux__)
    if (path == NULL || path[0] != '/') {
        errno = EINVAL;
        return -1;
    }
    struct relay_open_how how = {(uint64_t)(O_PATH | O_DIRECTORY | O_CLOEXEC), 0, RELAY_RESOLVE_NO_SYMLINKS};
    long opened = syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how);
    return opened < 0 ? -1 : (int)opened;
#else
    (void)path;
    errno = ENOSYS;
    return -1;
#endif
}

int relay_folder_is_link_free(const char *path) {
    int opened = relay_open_link_free_folder(path);
    if (opened < 0) return 0;
    close(opened);
    return 1;
}

int relay_rename_no_replace(int from, const char *name, int to, const char *new_name) {
#if defined(__linux__) && defined(SYS_renameat2)
    if (syscall(SYS_renameat2, from, name, to, new_name, 1 /* RENAME_NOREPLACE */) == 0) return 0;
    // A file system without it says EINVAL (an old kernel ENOSYS): look, then rename.
    if (errno != EINVAL && errno != ENOSYS) return -1;
#endif
    struct stat info;
    if (fstatat(to, new_name, &info, AT_SYMLINK_NOFOLLOW) == 0) {
        errno = EEXIST;
        return -1;
    }
    return renameat(from, name, to, new_name);
}
