// One connection for one request: a TCP socket, TLS over it for https, and the request's
// deadline, which bounds every connect, read and write.
#ifndef CTRAVELOG_HTTP_CONNECTION_H
#define CTRAVELOG_HTTP_CONNECTION_H

#include <stddef.h>
#include <sys/types.h>

#include "http_tls.h"

typedef struct {
    int fd;
    travelog_tls *tls;          ///< NULL for plain HTTP
    long long deadline_ms;      ///< CLOCK_MONOTONIC, milliseconds
    long timeout_ms;            ///< for messages
    char error[256];
} travelog_connection;

/// Resolves host, connects to the first address that answers within the deadline and, when
/// use_tls, handshakes and verifies the certificate (see travelog_tls_start). 0, or -1 with the
/// reason in connection->error. Close with travelog_connection_close in both cases.
int travelog_connection_open(travelog_connection *connection, const char *host, unsigned short port, int use_tls,
                             const char *trusted_file, long timeout_ms);

/// > 0 bytes read, 0 when the server closed, -1 on error or when the deadline passed.
ssize_t travelog_connection_read(travelog_connection *connection, void *buffer, size_t size);

/// Writes all of buffer before the deadline: 0, or -1.
int travelog_connection_write_all(travelog_connection *connection, const void *buffer, size_t size);

void travelog_connection_close(travelog_connection *connection);

#endif
