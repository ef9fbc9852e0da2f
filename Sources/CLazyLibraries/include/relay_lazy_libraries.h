#ifndef RELAY_LAZY_LIBRARIES_H
#define RELAY_LAZY_LIBRARIES_H

#include <stddef.h>

/// Opens a library Relay links on demand (Docs/Architecture.md, "Libraries opened when first
/// used"): cairo and pango with glib, TurboJPEG, cmark-gfm. Each returns NULL once the library's
/// functions can be called, or a message saying what is missing. Safe to call from any thread,
/// as often as wanted; the first call opens, the others only look.
const char *relay_open_graphics(void);
const char *relay_open_jpeg(void);
const char *relay_open_markdown(void);
/// libcurl, for Foundation's URLSession: linked in for the MCP SDK's client parts, which Relay
/// never uses (Docs/Architecture.md, "Libraries opened when first used").
const char *relay_open_network(void);

/// What the three above do: opens the first of `files` (a NULL-terminated list) that `dlopen`
/// finds and puts the address of each of the `count` functions `names` into `table`. Returns
/// NULL, or `message` (of `size` bytes) saying which library or function is missing, in which
/// case `table` is left as it was.
const char *relay_open_files(const char *purpose, const char *const *files, const char *const *names, void **table, int count,
                             char *message, size_t size);

#endif
