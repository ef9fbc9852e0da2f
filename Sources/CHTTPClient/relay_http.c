// libcurl, loaded on first use. curl.h gives the types and option numbers; nothing links libcurl.
#include "relay_http.h"
#include "relay_pipe_signal.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl_functions;

static curl_functions functions;
static const char *load_error = NULL;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load_curl(void) {
    static const char *names[] = {"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.so", "libcurl.4.dylib", "/usr/lib/libcurl.4.dylib"};
    void *library = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && library == NULL; i++) library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        load_error = "get-contents-of-url needs libcurl (libcurl4 on Debian), which is not installed";
        return;
    }
#define LOAD(field, symbol)                                   \
    *(void **)(&functions.field) = dlsym(library, symbol);     \
    if (functions.field == NULL) {                             \
        load_error = "the installed libcurl has no " symbol;   \
        return;                                                \
    }
    LOAD(global_init, "curl_global_init")
    LOAD(easy_init, "curl_easy_init")
    LOAD(easy_setopt, "curl_easy_setopt")
    LOAD(easy_perform, "curl_easy_perform")
    LOAD(easy_getinfo, "curl_easy_getinfo")
    LOAD(easy_cleanup, "curl_easy_cleanup")
    LOAD(easy_strerror, "curl_easy_strerror")
    LOAD(slist_append, "curl_slist_append")
    LOAD(slist_free_all, "curl_slist_free_all")
#undef LOAD
    functions.global_init(CURL_GLOBAL_DEFAULT);
}

struct relay_http_transfer {
    int stop;
    unsigned long long received;
    unsigned long long expected;
};

relay_http_transfer *relay_http_transfer_create(void) { return calloc(1, sizeof(relay_http_transfer)); }

void relay_http_transfer_free(relay_http_transfer *transfer) { free(transfer); }

void relay_http_transfer_stop(relay_http_transfer *transfer) { __atomic_store_n(&transfer->stop, 1, __ATOMIC_RELEASE); }

void relay_http_transfer_progress(const relay_http_transfer *transfer, unsigned long long *received,
                                  unsigned long long *expected) {
    *received = __atomic_load_n(&transfer->received, __ATOMIC_ACQUIRE);
    *expected = __atomic_load_n(&transfer->expected, __ATOMIC_ACQUIRE);
}

/// Where the body goes: memory up to `memory_limit`, then (all of it) the spill file.
typedef struct {
    char *data;
    size_t length;
    size_t capacity;
    size_t memory_limit;
    int spill_fd;
    int spilled;
    unsigned long long total;
    unsigned long long size_limit;
    /// Why writing stopped: the errno of a failed write, or -1 for a body over the size limit.
    int failure;
    relay_http_transfer *transfer;
    CURL *curl;
} receiver;

/// Writes all of `length` bytes, retrying interrupted and partial writes; 0 on success, else errno.
static int write_all(int descriptor, const char *bytes, size_t length) {
    while (length > 0) {
        ssize_t written = write(descriptor, bytes, length);
        if (written < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        bytes += written;
        length -= (size_t)written;
    }
    return 0;
}

/// libcurl's progress callback: a non-zero answer aborts the transfer.
static int progress(void *context, curl_off_t total_down, curl_off_t now_down, curl_off_t total_up, curl_off_t now_up) {
    (void)now_down, (void)total_up, (void)now_up;
    relay_http_transfer *transfer = context;
    if (total_down > 0) __atomic_store_n(&transfer->expected, (unsigned long long)total_down, __ATOMIC_RELEASE);
    return __atomic_load_n(&transfer->stop, __ATOMIC_ACQUIRE) != 0;
}

/// The header lines of the response, kept up to a bound: a server choosing them cannot fill memory.
typedef struct {
    char *data;
    size_t length;
} header_lines;

#define RELAY_HEADER_LIMIT (64 * 1024)

/// libcurl's header callback: a status line starts the lines of a new response (after a
/// `100 Continue`, say); lines past the bound are dropped.
static size_t receive_header(char *line, size_t size, size_t count, void *context) {
    header_lines *into = context;
    size_t length = size * count;
    if (length >= 5 && memcmp(line, "HTTP/", 5) == 0) into->length = 0;
    if (into->data == NULL) {
        into->data = malloc(RELAY_HEADER_LIMIT);
        if (into->data == NULL) return length;
    }
    if (into->length + length <= RELAY_HEADER_LIMIT) {
        memcpy(into->data + into->length, line, length);
        into->length += length;
    }
    return length;
}

static size_t receive(char *chunk, size_t size, size_t count, void *context) {
    receiver *into = context;
    size_t length = size * count;
    if (into->total + length > into->size_limit) {
        into->failure = -1;
        return 0;
    }
    int announced_long = 0;
    if (into->total == 0 && !into->spilled) {
        // A body announced longer than memory may hold goes to the file from its first byte.
        curl_off_t announced = -1;
        if (functions.easy_getinfo(into->curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &announced) == CURLE_OK && announced > 0 &&
            (unsigned long long)announced > into->memory_limit)
            announced_long = into->spill_fd >= 0;
    }
    if (!into->spilled && (announced_long || into->length + length > into->memory_limit)) {
        if (into->spill_fd < 0) {
            into->failure = -1;
            return 0;
        }
        int error = write_all(into->spill_fd, into->data, into->length);
        if (error != 0) {
            into->failure = error;
            return 0;
        }
        free(into->data);
        into->data = NULL;
        into->length = into->capacity = 0;
        into->spilled = 1;
    }
    if (into->spilled) {
        int error = write_all(into->spill_fd, chunk, length);
        if (error != 0) {
            into->failure = error;
            return 0;
        }
    } else {
        if (into->length + length + 1 > into->capacity) {
            size_t capacity = into->capacity ? into->capacity : 16384;
            while (capacity < into->length + length + 1) capacity *= 2;
            if (capacity > into->memory_limit + 1 && into->length + length + 1 <= into->memory_limit + 1)
                capacity = into->memory_limit + 1;
            char *grown = realloc(into->data, capacity);
            if (grown == NULL) {
                into->failure = ENOMEM;
                return 0;
            }
            into->data = grown;
            into->capacity = capacity;
        }
        memcpy(into->data + into->length, chunk, length);
        into->length += length;
        into->data[into->length] = 0;
    }
    into->total += length;
    __atomic_store_n(&into->transfer->received, into->total, __ATOMIC_RELEASE);
    return length;
}

/// Reads the next part of a file body.
static size_t send_file(char *buffer, size_t size, size_t count, void *context) {
    int descriptor = *(int *)context;
    for (;;) {
        ssize_t got = read(descriptor, buffer, size * count);
        if (got >= 0) return (size_t)got;
        if (errno != EINTR) return CURL_READFUNC_ABORT;
    }
}

int relay_http_request(const relay_http_request_options *options, relay_http_transfer *transfer,
                       relay_http_response *response) {
    memset(response, 0, sizeof *response);
    pthread_once(&load_once, load_curl);
    if (load_error != NULL) {
        response->error = strdup(load_error);
        return -1;
    }
    CURL *curl = functions.easy_init();
    if (curl == NULL) {
        response->error = strdup("libcurl could not start a transfer");
        return -1;
    }
    struct curl_slist *list = NULL;
    for (size_t i = 0; i < options->header_count; i++) list = functions.slist_append(list, options->headers[i]);
    receiver received = {.memory_limit = options->memory_limit,
                         .spill_fd = options->spill_fd,
                         .size_limit = options->size_limit,
                         .transfer = transfer,
                         .curl = curl};
    int body_fd = options->body_fd;
    if (options->connect_to == NULL) {
        response->error = strdup("no checked host to connect to");
        functions.easy_cleanup(curl);
        return -1;
    }
    // Every connection goes to the host and port the gate checked ("::HOST:PORT" matches any
    // host and port in the URL), whatever libcurl reads the URL as.
    char pin[600];
    if (snprintf(pin, sizeof pin, "::%s", options->connect_to) >= (int)sizeof pin) {
        response->error = strdup("the host name is too long");
        functions.easy_cleanup(curl);
        return -1;
    }
    struct curl_slist *pins = functions.slist_append(NULL, pin);
    if (pins == NULL) {
        response->error = strdup("out of memory");
        functions.easy_cleanup(curl);
        return -1;
    }
    functions.easy_setopt(curl, CURLOPT_URL, options->url);
    functions.easy_setopt(curl, CURLOPT_CONNECT_TO, pins);
    if (functions.easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https") != CURLE_OK) {
        // libcurl before 7.85 has only the bit mask.
        functions.easy_setopt(curl, (CURLoption)181 /* CURLOPT_PROTOCOLS */, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    }
    functions.easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    functions.easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    functions.easy_setopt(curl, CURLOPT_USERAGENT, "relay");
    functions.easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
    functions.easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, options->stall_seconds);
    functions.easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
    functions.easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, options->stall_seconds);
    functions.easy_setopt(curl, CURLOPT_WRITEFUNCTION, receive);
    functions.easy_setopt(curl, CURLOPT_WRITEDATA, &received);
    header_lines headers = {NULL, 0};
    functions.easy_setopt(curl, CURLOPT_HEADERFUNCTION, receive_header);
    functions.easy_setopt(curl, CURLOPT_HEADERDATA, &headers);
    functions.easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, progress);
    functions.easy_setopt(curl, CURLOPT_XFERINFODATA, (void *)transfer);
    functions.easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    if (list != NULL) functions.easy_setopt(curl, CURLOPT_HTTPHEADER, list);
    int has_body = options->body != NULL || body_fd >= 0;
    if (body_fd >= 0) {
        functions.easy_setopt(curl, CURLOPT_POST, 1L);
        functions.easy_setopt(curl, CURLOPT_READFUNCTION, send_file);
        functions.easy_setopt(curl, CURLOPT_READDATA, (void *)&body_fd);
        functions.easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)options->body_length);
    } else if (options->body != NULL) {
        functions.easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)options->body_length);
        functions.easy_setopt(curl, CURLOPT_POSTFIELDS, options->body);
    }
    if (strcmp(options->method, "GET") == 0 && !has_body) {
        functions.easy_setopt(curl, CURLOPT_HTTPGET, 1L);
    } else if (strcmp(options->method, "HEAD") == 0 && !has_body) {
        // The headers alone: a HEAD sent as a custom request would wait for a body that never comes.
        functions.easy_setopt(curl, CURLOPT_NOBODY, 1L);
    } else if (strcmp(options->method, "POST") != 0) {
        functions.easy_setopt(curl, CURLOPT_CUSTOMREQUEST, options->method);
    }
    // With CURLOPT_NOSIGNAL, libcurl leaves SIGPIPE alone, and OpenSSL may write to a socket the
    // server has closed, here or when the connection is closed: the guard keeps that from ending
    // Relay, until the handle is cleaned up.
    relay_pipe_signal_guard guard;
    relay_pipe_signal_hold(&guard);
    CURLcode code = functions.easy_perform(curl);
    int result = 0;
    if (code != CURLE_OK) {
        char reason[256];
        if (received.failure == -1) {
            snprintf(reason, sizeof reason, "the response is longer than %llu bytes", received.size_limit);
        } else if (received.failure != 0) {
            snprintf(reason, sizeof reason, "cannot keep the response: %s", strerror(received.failure));
        } else {
            snprintf(reason, sizeof reason, "%s", code == CURLE_ABORTED_BY_CALLBACK ? "stopped" : functions.easy_strerror(code));
        }
        response->error = strdup(reason);
        free(received.data);
        result = -1;
    } else {
        functions.easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response->status);
        char *type = NULL;
        functions.easy_getinfo(curl, CURLINFO_CONTENT_TYPE, &type);
        if (type != NULL) response->content_type = strdup(type);
        char *location = NULL;
        functions.easy_getinfo(curl, CURLINFO_REDIRECT_URL, &location);
        if (location != NULL && response->status >= 300 && response->status < 400) response->redirect_url = strdup(location);
        response->body = received.data;
        response->body_length = received.length;
        response->body_in_file = received.spilled;
        response->received = received.total;
        response->headers = headers.data;
        response->headers_length = headers.length;
        headers.data = NULL;
    }
    free(headers.data);
    if (list != NULL) functions.slist_free_all(list);
    functions.easy_cleanup(curl);
    relay_pipe_signal_release(&guard);
    functions.slist_free_all(pins);
    return result;
}

void relay_http_response_free(relay_http_response *response) {
    free(response->body);
    free(response->content_type);
    free(response->error);
    free(response->redirect_url);
    free(response->headers);
    memset(response, 0, sizeof *response);
}
