#define _GNU_SOURCE
#include "relay_file_status.h"

#include <errno.h>
#include <fcntl.h>
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
