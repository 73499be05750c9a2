// Sockets with a deadline: the socket's receive and send timeouts are set to what is left of the
// request's time before each call, so a server that answers slowly, or a byte at a time, cannot
// hold an upload past its timeout.
#include "http_connection.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/// Sets the socket's timeouts to the time left; -1 (and "timed out") when none is left.
static int arm(travelog_connection *connection) {
    long long left = connection->deadline_ms - now_ms();
    if (left <= 0) {
        snprintf(connection->error, sizeof connection->error, "timed out after %ld ms", connection->timeout_ms);
        return -1;
    }
    struct timeval timeout = { .tv_sec = left / 1000, .tv_usec = (left % 1000) * 1000 };
    setsockopt(connection->fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    setsockopt(connection->fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    return 0;
}

/// A non-blocking connect waited for with poll until the deadline; the socket is left blocking.
static int connect_before_deadline(travelog_connection *connection, const struct addrinfo *address) {
    int fd = socket(address->ai_family, address->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, address->ai_protocol);
    if (fd < 0) {
        snprintf(connection->error, sizeof connection->error, "socket: %s", strerror(errno));
        return -1;
    }
    int status = connect(fd, address->ai_addr, address->ai_addrlen);
    if (status != 0 && errno == EINPROGRESS) {
        struct pollfd waiting = { .fd = fd, .events = POLLOUT };
        long long left = connection->deadline_ms - now_ms();
        int ready = left > 0 ? poll(&waiting, 1, (int)left) : 0;
        int failure = 0;
        socklen_t length = sizeof failure;
        if (ready == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) == 0 && failure == 0) status = 0;
        else if (ready == 1) errno = failure;
        else errno = ETIMEDOUT;
    }
    if (status != 0) {
        if (errno == ETIMEDOUT) snprintf(connection->error, sizeof connection->error, "connect timed out after %ld ms", connection->timeout_ms);
        else snprintf(connection->error, sizeof connection->error, "connect: %s", strerror(errno));
        close(fd);
        return -1;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    connection->fd = fd;
    return 0;
}

int travelog_connection_open(travelog_connection *connection, const char *host, unsigned short port, int use_tls,
                             const char *trusted_file, long timeout_ms) {
    memset(connection, 0, sizeof *connection);
    connection->fd = -1;
    connection->timeout_ms = timeout_ms;
    connection->deadline_ms = now_ms() + timeout_ms;
    if (use_tls && travelog_tls_load(connection->error, sizeof connection->error) != 0) return -1;
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = 0 };
    struct addrinfo *addresses = NULL;
    char service[8];
    snprintf(service, sizeof service, "%u", port);
    int resolved = getaddrinfo(host, service, &hints, &addresses);
    if (resolved != 0) {
        snprintf(connection->error, sizeof connection->error, "cannot resolve %s: %s", host, gai_strerror(resolved));
        return -1;
    }
    for (struct addrinfo *address = addresses; address && connection->fd < 0; address = address->ai_next) {
        connect_before_deadline(connection, address);
    }
    freeaddrinfo(addresses);
    if (connection->fd < 0) return -1;
    if (use_tls) {
        if (arm(connection) != 0) return -1;
        connection->tls = travelog_tls_start(connection->fd, host, trusted_file, connection->error, sizeof connection->error);
        if (!connection->tls) return -1;
    }
    connection->error[0] = 0;
    return 0;
}

ssize_t travelog_connection_read(travelog_connection *connection, void *buffer, size_t size) {
    if (arm(connection) != 0) return -1;
    if (connection->tls) return travelog_tls_read(connection->tls, buffer, size, connection->error, sizeof connection->error);
    ssize_t count;
    do count = recv(connection->fd, buffer, size, 0); while (count < 0 && errno == EINTR);
    if (count >= 0) return count;
    if (errno == EAGAIN || errno == EWOULDBLOCK) snprintf(connection->error, sizeof connection->error, "timed out after %ld ms", connection->timeout_ms);
    else snprintf(connection->error, sizeof connection->error, "read: %s", strerror(errno));
    return -1;
}

int travelog_connection_write_all(travelog_connection *connection, const void *buffer, size_t size) {
    if (arm(connection) != 0) return -1;
    if (connection->tls) return travelog_tls_write_all(connection->tls, buffer, size, connection->error, sizeof connection->error);
    const char *bytes = buffer;
    while (size > 0) {
        ssize_t count = send(connection->fd, bytes, size, MSG_NOSIGNAL);
        if (count < 0 && errno == EINTR) continue;
        if (count < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) snprintf(connection->error, sizeof connection->error, "timed out after %ld ms", connection->timeout_ms);
            else snprintf(connection->error, sizeof connection->error, "write: %s", strerror(errno));
            return -1;
        }
        bytes += count;
        size -= (size_t)count;
        if (size > 0 && arm(connection) != 0) return -1;
    }
    return 0;
}

void travelog_connection_close(travelog_connection *connection) {
    if (connection->tls) travelog_tls_close(connection->tls);
    connection->tls = NULL;
    if (connection->fd >= 0) close(connection->fd);
    connection->fd = -1;
}
