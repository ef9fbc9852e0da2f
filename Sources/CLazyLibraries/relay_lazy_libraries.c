// Libraries opened when first used, not at every start (Docs/Architecture.md, "Libraries opened
// when first used").
//
// cairo and pango bring glib, harfbuzz, fontconfig, freetype and some thirty more libraries;
// loading and relocating them was a quarter of a run's start, though few runs draw. Swift code
// calls their functions by their own names, as if linked; on Linux each name here is a
// trampoline: one indirect jump through a table of addresses that `relay_open_…` fills with
// `dlopen` and `dlsym`. The jump leaves every register and the stack as the caller set them, so
// one trampoline serves any signature, variadic ones included. Before its library is opened a
// table entry points at a function that says so and stops: Swift code opens the library (and
// reports a missing one as an error) before it makes the first surface, decoder or parser, from
// which every other call follows. The trampolines are hidden: a library opened later (poppler,
// which calls cairo) binds to the real functions, not to these.
//
// On macOS the libraries are linked as usual (Package.swift) and opening them does nothing.

#include "relay_lazy_libraries.h"

#if defined(__linux__)

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "functions.h"

#define RELAY_INDEX(index, name) relay_index_##name,
#define RELAY_CHECK(index, name) _Static_assert(relay_index_##name == index, "the number of " #name " is its place in its list");
#define RELAY_NAME(index, name) #name,

enum { GRAPHICS_FUNCTIONS(RELAY_INDEX) relay_graphics_count };
enum { JPEG_FUNCTIONS(RELAY_INDEX) relay_jpeg_count };
enum { MARKDOWN_FUNCTIONS(RELAY_INDEX) relay_markdown_count };
enum { NETWORK_FUNCTIONS(RELAY_INDEX) relay_network_count };
GRAPHICS_FUNCTIONS(RELAY_CHECK)
JPEG_FUNCTIONS(RELAY_CHECK)
MARKDOWN_FUNCTIONS(RELAY_CHECK)
NETWORK_FUNCTIONS(RELAY_CHECK)

static void relay_unopened(void) {
    static const char message[] =
        "relay: internal error: a function of a library opened on demand was called before the library was opened\n";
    fwrite(message, 1, sizeof message - 1, stderr);
    abort();
}

#define RELAY_UNOPENED(count) { [0 ... (count) - 1] = (void *)relay_unopened }
__attribute__((visibility("hidden"), used)) void *relay_graphics_table[relay_graphics_count] = RELAY_UNOPENED(relay_graphics_count);
__attribute__((visibility("hidden"), used)) void *relay_jpeg_table[relay_jpeg_count] = RELAY_UNOPENED(relay_jpeg_count);
__attribute__((visibility("hidden"), used)) void *relay_markdown_table[relay_markdown_count] = RELAY_UNOPENED(relay_markdown_count);
__attribute__((visibility("hidden"), used)) void *relay_network_table[relay_network_count] = RELAY_UNOPENED(relay_network_count);

// One trampoline: `name` jumps to entry `index` of `table`. `endbr64` and `bti c` are no-ops
// unless control-flow protection is on, where an indirect call must land on them.
#if defined(__x86_64__)
#define RELAY_TRAMPOLINE(table, index, name)                                                   \
    __asm__(".text\n.globl " #name "\n.hidden " #name "\n.type " #name ", @function\n"          \
            ".p2align 4\n" #name ":\n    endbr64\n    jmp *" #table "+8*" #index "(%rip)\n"     \
            ".size " #name ", .-" #name "\n");
#elif defined(__aarch64__)
#define RELAY_TRAMPOLINE(table, index, name)                                                   \
    __asm__(".text\n.globl " #name "\n.hidden " #name "\n.type " #name ", %function\n"          \
            ".p2align 2\n" #name ":\n    hint #34\n    adrp x16, " #table "+8*" #index "\n"     \
            "    ldr x16, [x16, :lo12:" #table "+8*" #index "]\n    br x16\n"                    \
            ".size " #name ", .-" #name "\n");
#else
#error "Relay opens cairo, TurboJPEG and cmark-gfm on demand through trampolines written for x86_64 and arm64 only"
#endif

#define RELAY_GRAPHICS_TRAMPOLINE(index, name) RELAY_TRAMPOLINE(relay_graphics_table, index, name)
#define RELAY_JPEG_TRAMPOLINE(index, name) RELAY_TRAMPOLINE(relay_jpeg_table, index, name)
#define RELAY_MARKDOWN_TRAMPOLINE(index, name) RELAY_TRAMPOLINE(relay_markdown_table, index, name)
#define RELAY_NETWORK_TRAMPOLINE(index, name) RELAY_TRAMPOLINE(relay_network_table, index, name)
GRAPHICS_FUNCTIONS(RELAY_GRAPHICS_TRAMPOLINE)
JPEG_FUNCTIONS(RELAY_JPEG_TRAMPOLINE)
MARKDOWN_FUNCTIONS(RELAY_MARKDOWN_TRAMPOLINE)
NETWORK_FUNCTIONS(RELAY_NETWORK_TRAMPOLINE)

/// A library opened on demand: the files tried in order (Debian's versioned name, then the
/// unversioned one its -dev package installs), the functions wanted and where their addresses go.
struct relay_library {
    const char *purpose;
    const char *const *files;
    const char *const *names;
    void **table;
    int count;
    pthread_mutex_t lock;
    int opened;                  // 1 once every address is in the table
    const char *failure;         // set when opening failed: every later call says the same
    char message[512];
};

static const char *const relay_graphics_files[] = {"libpangocairo-1.0.so.0", "libpangocairo-1.0.so", NULL};
static const char *const relay_jpeg_files[] = {"libturbojpeg.so.0", "libturbojpeg.so", NULL};
static const char *const relay_markdown_files[] = {
    "libcmark-gfm-extensions.so.0.29.0.gfm.6", "libcmark-gfm-extensions.so", NULL};
static const char *const relay_graphics_names[] = {GRAPHICS_FUNCTIONS(RELAY_NAME)};
static const char *const relay_jpeg_names[] = {JPEG_FUNCTIONS(RELAY_NAME)};
static const char *const relay_markdown_names[] = {MARKDOWN_FUNCTIONS(RELAY_NAME)};
static const char *const relay_network_files[] = {"libcurl.so.4", "libcurl.so", NULL};
static const char *const relay_network_names[] = {NETWORK_FUNCTIONS(RELAY_NAME)};

static struct relay_library relay_graphics = {
    "drawing images, PDFs and text (cairo and pango)", relay_graphics_files, relay_graphics_names, relay_graphics_table,
    relay_graphics_count, PTHREAD_MUTEX_INITIALIZER, 0, NULL, {0}};
static struct relay_library relay_jpeg = {
    "reading and writing JPEG images (TurboJPEG)", relay_jpeg_files, relay_jpeg_names, relay_jpeg_table, relay_jpeg_count,
    PTHREAD_MUTEX_INITIALIZER, 0, NULL, {0}};
static struct relay_library relay_markdown = {
    "reading Markdown (cmark-gfm)", relay_markdown_files, relay_markdown_names, relay_markdown_table, relay_markdown_count,
    PTHREAD_MUTEX_INITIALIZER, 0, NULL, {0}};
static struct relay_library relay_network = {
    "Foundation's URLSession (libcurl)", relay_network_files, relay_network_names, relay_network_table, relay_network_count,
    PTHREAD_MUTEX_INITIALIZER, 0, NULL, {0}};

const char *relay_open_files(const char *purpose, const char *const *files, const char *const *names, void **table, int count,
                             char *message, size_t size) {
    void *handle = NULL;
    for (const char *const *file = files; *file && !handle; file++) handle = dlopen(*file, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(message, size, "%s needs %s, which is not installed (Scripts/install-dependencies installs it)", purpose,
                 files[0] ? files[0] : "a library");
        return message;
    }
    // Every address is looked up before any is used: a library missing one function is refused
    // whole, not half used.
    void *found[count > 0 ? count : 1];
    for (int index = 0; index < count; index++) {
        found[index] = dlsym(handle, names[index]);
        if (!found[index]) {
            snprintf(message, size, "%s: the installed library has no '%s'", purpose, names[index]);
            return message;
        }
    }
    memcpy(table, found, sizeof(void *) * (size_t)count);
    return NULL;
}

static const char *relay_open(struct relay_library *library) {
    pthread_mutex_lock(&library->lock);
    const char *result = library->failure;
    if (!library->opened && !result) {
        result = library->failure = relay_open_files(library->purpose, library->files, library->names, library->table,
                                                     library->count, library->message, sizeof library->message);
        library->opened = result == NULL;
    }
    pthread_mutex_unlock(&library->lock);
    return result;
}

const char *relay_open_graphics(void) { return relay_open(&relay_graphics); }
const char *relay_open_jpeg(void) { return relay_open(&relay_jpeg); }
const char *relay_open_markdown(void) { return relay_open(&relay_markdown); }
const char *relay_open_network(void) { return relay_open(&relay_network); }

#else

const char *relay_open_graphics(void) { return 0; }
const char *relay_open_jpeg(void) { return 0; }
const char *relay_open_markdown(void) { return 0; }
const char *relay_open_network(void) { return 0; }

const char *relay_open_files(const char *purpose, const char *const *files, const char *const *names, void **table, int count,
                             char *message, size_t size) {
    (void)purpose, (void)files, (void)names, (void)table, (void)count, (void)message, (void)size;
    return 0;
}

#endif
