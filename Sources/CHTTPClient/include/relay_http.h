#ifndef RELAY_HTTP_H
#define RELAY_HTTP_H

#include <stddef.h>

/// What one HTTP exchange gave: the status and body, or an error message.
typedef struct {
    long status;
    /// The body, when it stayed in memory (it fitted under `memory_limit`); else NULL.
    char *body;
    size_t body_length;
    /// 1 when the body went to `spill_fd` instead (all of it, from its first byte).
    int body_in_file;
    /// The body's length in bytes, wherever it is.
    unsigned long long received;
    /// The response's Content-Type, or NULL.
    char *content_type;
    /// Why the exchange failed (no connection, timeout, no space left, no libcurl), or NULL.
    char *error;
    /// For a redirect (3xx with a Location), the absolute URL it points to, or NULL. Redirects are
    /// never followed here: the caller asks its gate about every hop.
    char *redirect_url;
    /// The header lines of the last response (after any `100 Continue`), as sent, at most 64 KiB;
    /// or NULL.
    char *headers;
    size_t headers_length;
} relay_http_response;

/// One request.
typedef struct {
    const char *url;
    const char *method;
    /// "Name: value" lines.
    const char *const *headers;
    size_t header_count;
    /// The body in memory, or NULL (see `body_fd`).
    const char *body;
    size_t body_length;
    /// A file to send as the body, read as it goes (with `body_length` its size); -1 for none.
    int body_fd;
    /// A connection not made, or a transfer that moves no byte, for this many seconds fails.
    /// There is no limit on the whole exchange: a step's `timeout:` is that.
    long stall_seconds;
    /// A response up to this many bytes stays in memory; a longer one goes to `spill_fd`.
    size_t memory_limit;
    /// Where a long response goes (written from its first byte), or -1 to refuse long responses.
    int spill_fd;
    /// No response may be longer than this.
    unsigned long long size_limit;
    /// The host and port the connection must go to, as the caller's gate checked them
    /// (`example.com:443`, `[::1]:8080`): whatever libcurl makes of the URL, it connects there
    /// and nowhere else. Required.
    const char *connect_to;
} relay_http_request_options;

/// What a transfer shares with the threads that watch it: a stop flag and the progress so far.
typedef struct relay_http_transfer relay_http_transfer;

relay_http_transfer *relay_http_transfer_create(void);
void relay_http_transfer_free(relay_http_transfer *transfer);
/// Asks the transfer to stop; libcurl sees it at its next progress callback (at least once a second).
void relay_http_transfer_stop(relay_http_transfer *transfer);
/// The bytes received so far and the total the server announced (0 when it did not).
void relay_http_transfer_progress(const relay_http_transfer *transfer, unsigned long long *received,
                                  unsigned long long *expected);

/// Performs one HTTP or HTTPS request (no other protocol, and no redirect followed) with libcurl, which is loaded with dlopen on first use so that runs
/// which never fetch a URL do not pay for loading it. Blocks until the response has arrived, the
/// timeout has passed, or the transfer is stopped. Returns 0 when a response arrived (any status),
/// else -1 with `response->error` set.
int relay_http_request(const relay_http_request_options *options, relay_http_transfer *transfer,
                       relay_http_response *response);

/// Frees what a response holds.
void relay_http_response_free(relay_http_response *response);

#endif
