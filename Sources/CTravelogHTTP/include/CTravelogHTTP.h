#ifndef CTRAVELOG_HTTP_H
#define CTRAVELOG_HTTP_H

#include <stddef.h>

/// The answer to one request: the HTTP status (0 when none arrived), the body (malloc'd, free it
/// with travelog_http_response_free) and, when the transfer failed, libcurl's message.
typedef struct {
    long status;
    char *body;
    size_t body_length;
    char error[256];
} travelog_http_response;

/// What travelog_http_post returns.
typedef enum {
    TRAVELOG_HTTP_OK = 0,              ///< an answer arrived (any status)
    TRAVELOG_HTTP_NO_LIBCURL = 1,      ///< libcurl.so.4 could not be loaded (error says why)
    TRAVELOG_HTTP_TRANSFER_FAILED = 2, ///< no answer: connection, TLS or timeout (error says which)
} travelog_http_result;

/// POSTs body to url with the given header lines ("Name: value"), without following redirects,
/// within timeout_ms. libcurl is loaded (dlopen) at the first call, so a process that never
/// uploads never maps it and the TLS libraries it brings. Thread-safe; blocks the calling thread.
travelog_http_result travelog_http_post(const char *url, const char *const *headers, size_t header_count,
                                        const void *body, size_t body_length, long timeout_ms,
                                        travelog_http_response *response);

/// Frees the body of a response.
void travelog_http_response_free(travelog_http_response *response);

#endif
