// libcurl, loaded on first use. curl.h gives the types and option numbers; nothing links libcurl.
#include "relay_http.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

typedef struct {
    char *data;
    size_t length;
    size_t capacity;
    int overflow;
} buffer;

/// Responses larger than this are refused rather than filling memory.
static const size_t maximum_body = (size_t)1 << 30;

/// libcurl's progress callback: a non-zero answer aborts the transfer.
static int stop_requested(void *context, curl_off_t total_down, curl_off_t now_down, curl_off_t total_up, curl_off_t now_up) {
    (void)total_down, (void)now_down, (void)total_up, (void)now_up;
    return *(const volatile int *)context != 0;
}

static size_t append(char *chunk, size_t size, size_t count, void *context) {
    buffer *into = context;
    size_t length = size * count;
    if (into->length + length > maximum_body) {
        into->overflow = 1;
        return 0;
    }
    if (into->length + length + 1 > into->capacity) {
        size_t capacity = into->capacity ? into->capacity : 16384;
        while (capacity < into->length + length + 1) capacity *= 2;
        char *grown = realloc(into->data, capacity);
        if (grown == NULL) return 0;
        into->data = grown;
        into->capacity = capacity;
    }
    memcpy(into->data + into->length, chunk, length);
    into->length += length;
    into->data[into->length] = 0;
    return length;
}

int relay_http_request(const char *url, const char *method, const char *const *headers, size_t header_count,
                       const char *body, size_t body_length, double timeout_seconds, const volatile int *stop,
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
    for (size_t i = 0; i < header_count; i++) list = functions.slist_append(list, headers[i]);
    buffer received = {0};
    functions.easy_setopt(curl, CURLOPT_URL, url);
    functions.easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    functions.easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
    functions.easy_setopt(curl, CURLOPT_MAXREDIRS, 10L);
    functions.easy_setopt(curl, CURLOPT_USERAGENT, "relay");
    functions.easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
    functions.easy_setopt(curl, CURLOPT_TIMEOUT_MS, (long)(timeout_seconds * 1000));
    functions.easy_setopt(curl, CURLOPT_WRITEFUNCTION, append);
    functions.easy_setopt(curl, CURLOPT_WRITEDATA, &received);
    if (stop != NULL) {
        functions.easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, stop_requested);
        functions.easy_setopt(curl, CURLOPT_XFERINFODATA, (void *)stop);
        functions.easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    }
    if (list != NULL) functions.easy_setopt(curl, CURLOPT_HTTPHEADER, list);
    if (body != NULL) {
        functions.easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_length);
        functions.easy_setopt(curl, CURLOPT_POSTFIELDS, body);
    }
    if (strcmp(method, "GET") == 0 && body == NULL) {
        functions.easy_setopt(curl, CURLOPT_HTTPGET, 1L);
    } else if (strcmp(method, "POST") != 0) {
        functions.easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    }
    CURLcode code = functions.easy_perform(curl);
    int result = 0;
    if (code != CURLE_OK) {
        const char *reason = received.overflow ? "the response is larger than 1 GiB"
                             : code == CURLE_ABORTED_BY_CALLBACK ? "stopped"
                                                                 : functions.easy_strerror(code);
        response->error = strdup(reason);
        free(received.data);
        result = -1;
    } else {
        functions.easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response->status);
        char *type = NULL;
        functions.easy_getinfo(curl, CURLINFO_CONTENT_TYPE, &type);
        if (type != NULL) response->content_type = strdup(type);
        response->body = received.data;
        response->body_length = received.length;
    }
    if (list != NULL) functions.slist_free_all(list);
    functions.easy_cleanup(curl);
    return result;
}

void relay_http_response_free(relay_http_response *response) {
    free(response->body);
    free(response->content_type);
    free(response->error);
    memset(response, 0, sizeof *response);
}
