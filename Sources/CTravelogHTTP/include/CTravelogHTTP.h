#ifndef CTRAVELOG_HTTP_H
#define CTRAVELOG_HTTP_H

#include <stddef.h>

/// Where a request goes: the URL's parts, already checked by the caller.
typedef struct {
    int use_tls;               ///< 1 for https (OpenSSL's libssl, loaded at the first https request)
    const char *host;          ///< a DNS name or an IP address (IPv6 without brackets)
    unsigned short port;
    const char *target;        ///< the path and query, starting with "/"
    const char *trusted_file;  ///< a PEM file of certificates to trust instead of the system's, or NULL
} travelog_http_endpoint;

/// The answer to one request: the HTTP status (0 when none arrived), the body (malloc'd, free it
/// with travelog_http_response_free) and, when the transfer failed, why.
typedef struct {
    long status;
    char *body;
    size_t body_length;
    char error[256];
} travelog_http_response;

/// What travelog_http_post returns.
typedef enum {
    TRAVELOG_HTTP_OK = 0,              ///< a complete answer arrived (any status)
    TRAVELOG_HTTP_NO_TLS = 1,          ///< https, but libssl.so.3 could not be loaded (error says why)
    TRAVELOG_HTTP_TRANSFER_FAILED = 2, ///< no complete answer: resolution, connection, TLS, timeout or a malformed answer
} travelog_http_result;

/// The largest answer body accepted (an Overland acknowledgement is a few bytes).
#define TRAVELOG_HTTP_MAX_BODY_BYTES (1 << 20)

/// POSTs body over HTTP/1.1 (one connection per request, "Connection: close") with the given
/// header lines ("Name: value"; a line break in one refuses the request), within timeout_ms for
/// everything from resolving the host to the end of the answer. The answer may be delimited by
/// Content-Length, chunked, or the connection's end; 1xx interim answers are skipped; redirects
/// are answers, not followed. Thread-safe; blocks the calling thread; SIGPIPE is not raised.
travelog_http_result travelog_http_post(const travelog_http_endpoint *endpoint, const char *const *headers, size_t header_count,
                                        const void *body, size_t body_length, long timeout_ms,
                                        travelog_http_response *response);

/// Frees the body of a response.
void travelog_http_response_free(travelog_http_response *response);

#endif
