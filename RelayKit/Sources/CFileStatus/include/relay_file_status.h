#ifndef RELAY_FILE_STATUS_H
#define RELAY_FILE_STATUS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/// What identifies a file and what tells one version of it from another.
typedef struct {
    uint64_t device;
    uint64_t inode;
    /// S_IFREG, S_IFDIR, S_IFLNK … (the `st_mode & S_IFMT` bits).
    uint32_t kind;
    int64_t size;
    int64_t modified_seconds;
    int64_t modified_nanoseconds;
    /// When the file's status last changed (a rename, a move or a copy into a folder sets it).
    int64_t changed_seconds;
    int64_t changed_nanoseconds;
    /// Whether the file system records when the file was made (`born_*` are 0 otherwise).
    int has_birth_time;
    int64_t born_seconds;
    int64_t born_nanoseconds;
} relay_file_status;

/// The status of `path` (following a final symbolic link when `follow` is non-zero), with the
/// birth time where the system and file system give it (statx on Linux, st_birthtimespec on
/// macOS). Returns 0, or -1 with errno set.
int relay_file_status_of(const char *path, int follow, relay_file_status *status);

/// The same for `name` inside the open folder `folder` (a descriptor), as `fstatat` does: the
/// kernel does not walk the whole path again for each file of a folder.
int relay_file_status_at(int folder, const char *name, int follow, relay_file_status *status);

/// Copies up to `length` bytes from `source` to `destination` at their offsets inside the kernel
/// (`copy_file_range` on Linux). Returns the bytes copied (0 at the end), or -1 with errno set;
/// ENOSYS where the system has no such call.
ssize_t relay_copy_file_range(int source, int destination, size_t length);

/// Opens the absolute `path` with `flags` (and `mode` when it makes a file) without following a
/// symbolic link anywhere along it, so that what is opened is the file at the path that was
/// checked, not one a link put there since: openat2 with RESOLVE_NO_SYMLINKS where the kernel has it
/// (Linux 5.6 and later), else component by component with O_NOFOLLOW. Returns the descriptor
/// (close-on-exec), or -1 with errno set (ELOOP when a link is in the way).
int relay_open_no_symlinks(const char *path, int flags, unsigned int mode);

/// 1 when the absolute `path` is a folder reached with no symbolic link anywhere along it, asked
/// of the kernel in one call (Linux's openat2 with RESOLVE_NO_SYMLINKS, the folder opened as a
/// path only, so no read permission is needed); 0 when it is not, or cannot be told that way.
int relay_folder_is_link_free(const char *path);

/// The absolute `path`, a folder reached with no symbolic link anywhere along it, opened as a path
/// only (Linux's openat2 with O_PATH and RESOLVE_NO_SYMLINKS: no read permission needed), for
/// looking at and renaming entries relative to it. Returns the descriptor (close-on-exec), or -1
/// with errno set: ELOOP or ENOTDIR when a link is in the way, ENOSYS where the system cannot
/// tell in one call.
int relay_open_link_free_folder(const char *path);

/// Renames `name` in the folder `from` to `new_name` in the folder `to`, only if nothing is there:
/// one atomic call where the kernel and file system can (renameat2 with RENAME_NOREPLACE), else a
/// look at the new name (EEXIST when something is there) and renameat. -1 with errno set on failure.
int relay_rename_no_replace(int from, const char *name, int to, const char *new_name);

/// Starts writing `length` bytes of `descriptor` from `offset` to disk without waiting
/// (`sync_file_range` on Linux; nothing elsewhere), so that the final flush has less left to do.
void relay_start_writeback(int descriptor, long long offset, long long length);

#endif
