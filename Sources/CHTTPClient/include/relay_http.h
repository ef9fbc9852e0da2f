#ifndef RELAY_HTTP_H
#define RELAY_HTTP_H

#include <stddef.h>

/// What one HTTP exchange gave: the status and body, or an error message.
typedef struct {
    long status;
    char *body;
    size_t body_length;
    /// The response's Content-Type, or NULL.
    char *content_type;
    /// Why the exchange failed (no connection, timeout, no libcurl), or NULL.
    char *error;
} relay_http_response;

/// Performs one HTTP request with libcurl, which is loaded with dlopen on first use so that runs
/// which never fetch a URL do not pay for loading it. `headers` are "Name: value" lines. Blocks
/// until the response has arrived, `timeout_seconds` have passed, or `*stop` becomes non-zero
/// (checked at least once a second, from libcurl's progress callback). Returns 0 when a response
/// arrived (any status), else -1 with `response->error` set.
int relay_http_request(const char *url, const char *method, const char *const *headers, size_t header_count,
                       const char *body, size_t body_length, double timeout_seconds, const volatile int *stop,
                       relay_http_response *response);

/// Frees what a response holds.
void relay_http_response_free(relay_http_response *response);

#endif
