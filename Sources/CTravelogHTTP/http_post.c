// An HTTP/1.1 POST over a socket (TLS through libssl for https): what the tracker's uploads need
// and nothing more, so the tracker maps neither libcurl nor the libraries libcurl brings
// (Kerberos, LDAP, SSH, RTMP, GnuTLS...). RFC 9112 for the message syntax.
#define _GNU_SOURCE  // strcasestr
#include "CTravelogHTTP.h"
#include "http_connection.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

enum { MAX_HEAD_BYTES = 64 * 1024 };

/// What has been read from the connection and not yet consumed.
typedef struct {
    travelog_connection *connection;
    char *bytes;
    size_t length;
    size_t capacity;
    int ended;  ///< the server closed the connection
} input;

/// Reads more into the input; -1 on error, 0 when the connection ended, else the count.
static ssize_t fill(input *in, char *error, size_t error_size) {
    if (in->ended) return 0;
    if (in->capacity - in->length < 16 * 1024) {
        size_t capacity = in->capacity ? in->capacity * 2 : 16 * 1024;
        char *grown = realloc(in->bytes, capacity);
        if (!grown) { snprintf(error, error_size, "out of memory"); return -1; }
        in->bytes = grown;
        in->capacity = capacity;
    }
    ssize_t count = travelog_connection_read(in->connection, in->bytes + in->length, in->capacity - in->length);
    if (count < 0) { snprintf(error, error_size, "%s", in->connection->error); return -1; }
    if (count == 0) in->ended = 1;
    in->length += (size_t)count;
    return count;
}

static void consume(input *in, size_t count) {
    memmove(in->bytes, in->bytes + count, in->length - count);
    in->length -= count;
}

/// The offset just past the first occurrence of marker in the input, or 0.
static size_t find(const input *in, const char *marker) {
    size_t size = strlen(marker);
    for (size_t offset = 0; offset + size <= in->length; offset++) {
        if (memcmp(in->bytes + offset, marker, size) == 0) return offset + size;
    }
    return 0;
}

/// Reads until marker is in the input (at most limit bytes before it); its end offset, or 0 with error set.
static size_t read_through(input *in, const char *marker, size_t limit, const char *what, char *error, size_t error_size) {
    size_t end;
    while (!(end = find(in, marker))) {
        if (in->length > limit) { snprintf(error, error_size, "the answer's %s is longer than %zu bytes", what, limit); return 0; }
        ssize_t count = fill(in, error, error_size);
        if (count < 0) return 0;
        if (count == 0) { snprintf(error, error_size, "the connection closed in the answer's %s", what); return 0; }
    }
    return end;
}

/// The value of header name in a head block ("Name: value\r\n" lines), copied into value; 1 when present.
static int header_value(const char *head, size_t head_length, const char *name, char *value, size_t value_size) {
    size_t name_length = strlen(name);
    const char *line = memchr(head, '\n', head_length);  // skip the status line
    const char *end = head + head_length;
    while (line && ++line < end) {
        const char *next = memchr(line, '\n', (size_t)(end - line));
        size_t length = next ? (size_t)(next - line) : (size_t)(end - line);
        if (length > name_length && line[name_length] == ':' && strncasecmp(line, name, name_length) == 0) {
            const char *start = line + name_length + 1;
            const char *stop = line + length;
            while (start < stop && (*start == ' ' || *start == '\t')) start++;
            while (stop > start && (stop[-1] == '\r' || stop[-1] == ' ' || stop[-1] == '\t')) stop--;
            snprintf(value, value_size, "%.*s", (int)(stop - start), start);
            return 1;
        }
        line = next;
    }
    return 0;
}

/// Appends count bytes of the input to the body, within the body limit.
static int take_body(input *in, size_t count, travelog_http_response *response) {
    if (response->body_length + count > TRAVELOG_HTTP_MAX_BODY_BYTES) {
        snprintf(response->error, sizeof response->error, "the answer's body is larger than %d bytes", TRAVELOG_HTTP_MAX_BODY_BYTES);
        return -1;
    }
    char *grown = realloc(response->body, response->body_length + count + 1);
    if (!grown) { snprintf(response->error, sizeof response->error, "out of memory"); return -1; }
    memcpy(grown + response->body_length, in->bytes, count);
    response->body = grown;
    response->body_length += count;
    response->body[response->body_length] = 0;
    consume(in, count);
    return 0;
}

/// Reads exactly count bytes of body (count == SIZE_MAX: until the connection ends).
static int read_body(input *in, size_t count, travelog_http_response *response) {
    while (count == SIZE_MAX || in->length < count) {
        if (count != SIZE_MAX && count > TRAVELOG_HTTP_MAX_BODY_BYTES) break;
        ssize_t read = fill(in, response->error, sizeof response->error);
        if (read < 0) return -1;
        if (read == 0) {
            if (count == SIZE_MAX) return take_body(in, in->length, response);
            snprintf(response->error, sizeof response->error, "the connection closed in the answer's body");
            return -1;
        }
        if (count == SIZE_MAX && in->length > TRAVELOG_HTTP_MAX_BODY_BYTES) break;
    }
    return take_body(in, count == SIZE_MAX ? in->length : count, response);
}

/// A chunked body (RFC 9112 §7.1): size lines in hex (extensions ignored), data, CRLF; trailers skipped.
static int read_chunked_body(input *in, travelog_http_response *response) {
    for (;;) {
        size_t line_end = read_through(in, "\r\n", 1024, "chunk size", response->error, sizeof response->error);
        if (!line_end) return -1;
        char *stop;
        errno = 0;
        unsigned long long size = strtoull(in->bytes, &stop, 16);
        if (stop == in->bytes || errno || (*stop != '\r' && *stop != ';' && *stop != ' ' && *stop != '\t')) {
            snprintf(response->error, sizeof response->error, "the answer has a malformed chunk size");
            return -1;
        }
        consume(in, line_end);
        if (size == 0) return 0;  // the trailers and final CRLF are not needed: the connection is closed next
        if (size > TRAVELOG_HTTP_MAX_BODY_BYTES || read_body(in, (size_t)size, response) != 0) {
            if (!response->error[0]) snprintf(response->error, sizeof response->error, "the answer's body is larger than %d bytes", TRAVELOG_HTTP_MAX_BODY_BYTES);
            return -1;
        }
        while (in->length < 2) {
            ssize_t count = fill(in, response->error, sizeof response->error);
            if (count < 0) return -1;
            if (count == 0) { snprintf(response->error, sizeof response->error, "the connection closed in a chunk"); return -1; }
        }
        if (memcmp(in->bytes, "\r\n", 2) != 0) {
            snprintf(response->error, sizeof response->error, "the answer has a chunk longer than its size");
            return -1;
        }
        consume(in, 2);
    }
}

/// Reads the answer: heads until a final (non-1xx) status, then its body as the head delimits it.
static int read_answer(travelog_connection *connection, travelog_http_response *response) {
    input in = { .connection = connection };
    int result = -1;
    for (;;) {
        size_t head_end = read_through(&in, "\r\n\r\n", MAX_HEAD_BYTES, "head", response->error, sizeof response->error);
        if (!head_end) goto done;
        int major, minor, status;
        if (sscanf(in.bytes, "HTTP/%1d.%1d %3d", &major, &minor, &status) != 3 || major != 1 || status < 100 || status > 999) {
            snprintf(response->error, sizeof response->error, "the answer is not HTTP/1.x: %.40s", in.bytes);
            goto done;
        }
        char value[64];
        if (status >= 100 && status < 200) { consume(&in, head_end); continue; }
        response->status = status;
        int chunked = header_value(in.bytes, head_end, "Transfer-Encoding", value, sizeof value) && strcasestr(value, "chunked");
        int has_length = header_value(in.bytes, head_end, "Content-Length", value, sizeof value);
        consume(&in, head_end);
        if (status == 204 || status == 304) result = 0;
        else if (chunked) result = read_chunked_body(&in, response);
        else if (has_length) {
            char *stop;
            errno = 0;
            unsigned long long length = strtoull(value, &stop, 10);
            if (stop == value || *stop || errno || value[0] == '-') {
                snprintf(response->error, sizeof response->error, "the answer has a malformed Content-Length");
            } else if (length > TRAVELOG_HTTP_MAX_BODY_BYTES) {
                snprintf(response->error, sizeof response->error, "the answer's body is larger than %d bytes", TRAVELOG_HTTP_MAX_BODY_BYTES);
            } else {
                result = read_body(&in, (size_t)length, response);
            }
        } else result = read_body(&in, SIZE_MAX, response);
        goto done;
    }
done:
    free(in.bytes);
    return result;
}

/// Writes the request: the head (Host, Content-Length, Connection: close, the caller's headers) and the body.
static int send_request(travelog_connection *connection, const travelog_http_endpoint *endpoint, const char *const *headers,
                        size_t header_count, const void *body, size_t body_length) {
    int default_port = endpoint->port == (endpoint->use_tls ? 443 : 80);
    int bracket = strchr(endpoint->host, ':') != NULL;
    size_t size = 256 + strlen(endpoint->target) + strlen(endpoint->host);
    for (size_t index = 0; index < header_count; index++) size += strlen(headers[index]) + 2;
    char *head = malloc(size);
    if (!head) { snprintf(connection->error, sizeof connection->error, "out of memory"); return -1; }
    int length = snprintf(head, size, "POST %s HTTP/1.1\r\nHost: %s%s%s", endpoint->target, bracket ? "[" : "", endpoint->host, bracket ? "]" : "");
    if (!default_port) length += snprintf(head + length, size - (size_t)length, ":%u", endpoint->port);
    length += snprintf(head + length, size - (size_t)length, "\r\nUser-Agent: travelog-track\r\nConnection: close\r\nContent-Length: %zu\r\n", body_length);
    for (size_t index = 0; index < header_count; index++) length += snprintf(head + length, size - (size_t)length, "%s\r\n", headers[index]);
    length += snprintf(head + length, size - (size_t)length, "\r\n");
    int result = travelog_connection_write_all(connection, head, (size_t)length);
    free(head);
    if (result == 0 && body_length > 0) result = travelog_connection_write_all(connection, body, body_length);
    return result;
}

travelog_http_result travelog_http_post(const travelog_http_endpoint *endpoint, const char *const *headers, size_t header_count,
                                        const void *body, size_t body_length, long timeout_ms,
                                        travelog_http_response *response) {
    memset(response, 0, sizeof *response);
    const char *parts[] = { endpoint->host, endpoint->target };
    for (size_t index = 0; index < 2 + header_count; index++) {
        const char *text = index < 2 ? parts[index] : headers[index - 2];
        if (strpbrk(text, "\r\n") || (index == 1 && text[0] != '/')) {
            snprintf(response->error, sizeof response->error, "refused: a request line or header with a line break, or a target not starting with /");
            return TRAVELOG_HTTP_TRANSFER_FAILED;
        }
    }
    // OpenSSL writes with write(2): a server that resets the connection must not raise SIGPIPE
    // (which would end the tracker). Blocked on this thread for the request, a pending one dropped after.
    sigset_t pipe_only, previous, pending;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    sigpending(&pending);
    int was_pending = sigismember(&pending, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_only, &previous);

    travelog_connection connection;
    travelog_http_result result = TRAVELOG_HTTP_TRANSFER_FAILED;
    if (travelog_connection_open(&connection, endpoint->host, endpoint->port, endpoint->use_tls, endpoint->trusted_file, timeout_ms) != 0) {
        snprintf(response->error, sizeof response->error, "%s", connection.error);
        if (endpoint->use_tls && !connection.tls && strstr(connection.error, "libssl")) result = TRAVELOG_HTTP_NO_TLS;
    } else if (send_request(&connection, endpoint, headers, header_count, body, body_length) != 0) {
        snprintf(response->error, sizeof response->error, "%s", connection.error);
    } else if (read_answer(&connection, response) == 0) {
        result = TRAVELOG_HTTP_OK;
    }
    travelog_connection_close(&connection);
    if (result != TRAVELOG_HTTP_OK) { free(response->body); response->body = NULL; response->body_length = 0; }

    sigpending(&pending);
    if (!was_pending && sigismember(&pending, SIGPIPE)) {
        struct timespec zero = { 0, 0 };
        sigtimedwait(&pipe_only, NULL, &zero);
    }
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    return result;
}

void travelog_http_response_free(travelog_http_response *response) {
    free(response->body);
    response->body = NULL;
    response->body_length = 0;
}
