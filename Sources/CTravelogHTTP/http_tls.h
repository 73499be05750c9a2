// TLS for the tracker's uploads: OpenSSL's libssl.so.3, loaded with dlopen at the first https
// upload (libcrypto.so.3 is already mapped through libzip), so a tracker that uploads over plain
// HTTP or not at all maps no TLS library of its own.
#ifndef CTRAVELOG_HTTP_TLS_H
#define CTRAVELOG_HTTP_TLS_H

#include <stddef.h>
#include <sys/types.h>

/// One TLS session over a connected socket (an OpenSSL SSL*).
typedef struct travelog_tls travelog_tls;

/// Loads libssl once; 0 on success, else -1 with the reason in error.
int travelog_tls_load(char *error, size_t error_size);

/// Handshakes over fd (blocking, with the socket's SO_RCVTIMEO/SO_SNDTIMEO as the bound) and
/// verifies the server's certificate chain against trusted_file (a PEM file) or, when NULL, the
/// system's trust store (OpenSSL's default paths, so SSL_CERT_FILE/SSL_CERT_DIR apply), and its
/// name against host (a DNS name, or an IP address checked against the certificate's IP entries).
/// TLS 1.2 or later; SNI for names. Returns NULL with the reason in error.
travelog_tls *travelog_tls_start(int fd, const char *host, const char *trusted_file, char *error, size_t error_size);

/// SSL_read: > 0 bytes read, 0 at the server's close_notify, -1 on error (reason in error; a
/// timeout of the socket says "timed out").
ssize_t travelog_tls_read(travelog_tls *tls, void *buffer, size_t size, char *error, size_t error_size);

/// Writes all of buffer: 0, or -1 with the reason in error.
int travelog_tls_write_all(travelog_tls *tls, const void *buffer, size_t size, char *error, size_t error_size);

/// Sends close_notify (best effort) and frees the session; the caller closes fd.
void travelog_tls_close(travelog_tls *tls);

#endif
