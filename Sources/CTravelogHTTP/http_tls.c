// TLS through libssl.so.3 loaded at first use. The few functions used are declared here (the
// OpenSSL 3 ABI) so the build needs no OpenSSL headers; the constants are OpenSSL's.
#include "http_tls.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
    SSL_VERIFY_PEER = 0x01,
    SSL_CTRL_SET_TLSEXT_HOSTNAME = 55,
    TLSEXT_NAMETYPE_host_name = 0,
    SSL_CTRL_SET_MIN_PROTO_VERSION = 123,
    TLS1_2_VERSION = 0x0303,
    SSL_ERROR_SSL = 1,
    SSL_ERROR_WANT_READ = 2,
    SSL_ERROR_WANT_WRITE = 3,
    SSL_ERROR_SYSCALL = 5,
    SSL_ERROR_ZERO_RETURN = 6,
    X509_V_OK = 0,
};

static struct {
    const void *(*client_method)(void);
    void *(*ctx_new)(const void *);
    void (*ctx_free)(void *);
    void (*ctx_set_verify)(void *, int, void *);
    int (*ctx_set_default_verify_paths)(void *);
    int (*ctx_load_verify_locations)(void *, const char *, const char *);
    long (*ctx_ctrl)(void *, int, long, void *);
    void *(*ssl_new)(void *);
    void (*ssl_free)(void *);
    int (*set_fd)(void *, int);
    long (*ssl_ctrl)(void *, int, long, void *);
    int (*set1_host)(void *, const char *);
    void *(*get0_param)(void *);
    int (*param_set1_ip_asc)(void *, const char *);
    int (*connect)(void *);
    int (*read)(void *, void *, int);
    int (*write)(void *, const void *, int);
    int (*get_error)(const void *, int);
    long (*get_verify_result)(const void *);
    int (*shutdown)(void *);
    const char *(*verify_error_string)(long);
    unsigned long (*err_get_error)(void);
    void (*err_error_string_n)(unsigned long, char *, size_t);
    void (*err_clear_error)(void);
    char load_error[200];
    int loaded;
} ssl;

/// A TLS session and the context it was made from.
struct travelog_tls {
    void *context;
    void *session;
};

/// The context of this thread's uploads, kept between them: reading the ~140 certificates of the
/// system's trust store for every upload (one every 10 s by default) cost more CPU than the rest
/// of the tracker at 10 fixes a second. It is made again for another trust file, and after
/// `CONTEXT_LIFETIME_SECONDS`, so a renewed trust store is read.
enum { CONTEXT_LIFETIME_SECONDS = 3600 };
static __thread void *kept_context;
static __thread char *kept_trusted_file;  // NULL: the system's default paths
static __thread time_t kept_since;

static void drop_kept_context(void) {
    if (kept_context) ssl.ctx_free(kept_context);
    free(kept_trusted_file);
    kept_context = NULL;
    kept_trusted_file = NULL;
}

/// This thread's context for `trusted_file` (NULL: the system's), made when missing or stale.
static void *context_for(const char *trusted_file, char *error, size_t error_size) {
    int same_file = (trusted_file == NULL && kept_trusted_file == NULL)
        || (trusted_file && kept_trusted_file && strcmp(trusted_file, kept_trusted_file) == 0);
    if (kept_context && same_file && time(NULL) - kept_since < CONTEXT_LIFETIME_SECONDS) return kept_context;
    drop_kept_context();
    void *context = ssl.ctx_new(ssl.client_method());
    if (!context) {
        snprintf(error, error_size, "SSL_CTX_new failed");
        return NULL;
    }
    ssl.ctx_set_verify(context, SSL_VERIFY_PEER, NULL);
    ssl.ctx_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, TLS1_2_VERSION, NULL);
    int trusted = trusted_file ? ssl.ctx_load_verify_locations(context, trusted_file, NULL)
                               : ssl.ctx_set_default_verify_paths(context);
    if (trusted != 1) {
        snprintf(error, error_size, "cannot read the trusted certificates%s%s", trusted_file ? " in " : "", trusted_file ? trusted_file : "");
        ssl.ctx_free(context);
        ssl.err_clear_error();
        return NULL;
    }
    if (trusted_file && !(kept_trusted_file = strdup(trusted_file))) {
        snprintf(error, error_size, "out of memory");
        ssl.ctx_free(context);
        return NULL;
    }
    kept_context = context;
    kept_since = time(NULL);
    return context;
}

static pthread_once_t ssl_once = PTHREAD_ONCE_INIT;

static void load_ssl(void) {
    void *library = dlopen("libssl.so.3", RTLD_NOW | RTLD_LOCAL);
    void *crypto = library ? dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!library || !crypto) {
        snprintf(ssl.load_error, sizeof ssl.load_error, "cannot load OpenSSL 3 (libssl.so.3): %s", dlerror());
        return;
    }
#define LOAD(handle, field, name) if (!(*(void **)&ssl.field = dlsym(handle, name))) { \
        snprintf(ssl.load_error, sizeof ssl.load_error, "OpenSSL has no %s", name); return; }
    LOAD(library, client_method, "TLS_client_method")
    LOAD(library, ctx_new, "SSL_CTX_new")
    LOAD(library, ctx_free, "SSL_CTX_free")
    LOAD(library, ctx_set_verify, "SSL_CTX_set_verify")
    LOAD(library, ctx_set_default_verify_paths, "SSL_CTX_set_default_verify_paths")
    LOAD(library, ctx_load_verify_locations, "SSL_CTX_load_verify_locations")
    LOAD(library, ctx_ctrl, "SSL_CTX_ctrl")
    LOAD(library, ssl_new, "SSL_new")
    LOAD(library, ssl_free, "SSL_free")
    LOAD(library, set_fd, "SSL_set_fd")
    LOAD(library, ssl_ctrl, "SSL_ctrl")
    LOAD(library, set1_host, "SSL_set1_host")
    LOAD(library, get0_param, "SSL_get0_param")
    LOAD(crypto, param_set1_ip_asc, "X509_VERIFY_PARAM_set1_ip_asc")
    LOAD(library, connect, "SSL_connect")
    LOAD(library, read, "SSL_read")
    LOAD(library, write, "SSL_write")
    LOAD(library, get_error, "SSL_get_error")
    LOAD(library, get_verify_result, "SSL_get_verify_result")
    LOAD(library, shutdown, "SSL_shutdown")
    LOAD(crypto, verify_error_string, "X509_verify_cert_error_string")
    LOAD(crypto, err_get_error, "ERR_get_error")
    LOAD(crypto, err_error_string_n, "ERR_error_string_n")
    LOAD(crypto, err_clear_error, "ERR_clear_error")
#undef LOAD
    ssl.loaded = 1;
}

int travelog_tls_load(char *error, size_t error_size) {
    pthread_once(&ssl_once, load_ssl);
    if (ssl.loaded) return 0;
    snprintf(error, error_size, "%s", ssl.load_error);
    return -1;
}

/// Says why an SSL call failed: the socket's timeout, the peer's close, or OpenSSL's error queue.
static void describe_failure(travelog_tls *tls, int result, const char *what, char *error, size_t error_size) {
    int code = ssl.get_error(tls->session, result);
    unsigned long queued = ssl.err_get_error();
    if (queued) {
        char text[160];
        ssl.err_error_string_n(queued, text, sizeof text);
        snprintf(error, error_size, "TLS %s failed: %s", what, text);
    } else if (code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE
               || (code == SSL_ERROR_SYSCALL && (errno == EAGAIN || errno == EWOULDBLOCK))) {
        snprintf(error, error_size, "timed out during TLS %s", what);
    } else if (code == SSL_ERROR_SYSCALL && errno) {
        snprintf(error, error_size, "TLS %s failed: %s", what, strerror(errno));
    } else {
        snprintf(error, error_size, "TLS %s failed: the connection closed", what);
    }
    ssl.err_clear_error();
}

travelog_tls *travelog_tls_start(int fd, const char *host, const char *trusted_file, char *error, size_t error_size) {
    static __thread travelog_tls tls;  // one upload at a time per thread
    if (travelog_tls_load(error, error_size) != 0) return NULL;
    ssl.err_clear_error();
    tls.session = NULL;
    tls.context = context_for(trusted_file, error, error_size);
    if (!tls.context) return NULL;
    tls.session = ssl.ssl_new(tls.context);
    if (!tls.session || ssl.set_fd(tls.session, fd) != 1) {
        snprintf(error, error_size, "SSL_new failed");
        travelog_tls_close(&tls);
        return NULL;
    }
    unsigned char address[16];
    int literal = inet_pton(AF_INET, host, address) == 1 || inet_pton(AF_INET6, host, address) == 1;
    int named = literal ? ssl.param_set1_ip_asc(ssl.get0_param(tls.session), host)
                        : (ssl.ssl_ctrl(tls.session, SSL_CTRL_SET_TLSEXT_HOSTNAME, TLSEXT_NAMETYPE_host_name, (void *)host) == 1
                           && ssl.set1_host(tls.session, host) == 1);
    if (named != 1) {
        snprintf(error, error_size, "cannot check the certificate against %s", host);
        travelog_tls_close(&tls);
        return NULL;
    }
    int result = ssl.connect(tls.session);
    if (result != 1) {
        long verify = ssl.get_verify_result(tls.session);
        if (verify != X509_V_OK) {
            snprintf(error, error_size, "the server's certificate is not trusted: %s", ssl.verify_error_string(verify));
            ssl.err_clear_error();
        } else {
            describe_failure(&tls, result, "handshake", error, error_size);
        }
        travelog_tls_close(&tls);
        return NULL;
    }
    return &tls;
}

ssize_t travelog_tls_read(travelog_tls *tls, void *buffer, size_t size, char *error, size_t error_size) {
    int result = ssl.read(tls->session, buffer, size > 1 << 30 ? 1 << 30 : (int)size);
    if (result > 0) return result;
    if (ssl.get_error(tls->session, result) == SSL_ERROR_ZERO_RETURN) return 0;
    describe_failure(tls, result, "read", error, error_size);
    return -1;
}

int travelog_tls_write_all(travelog_tls *tls, const void *buffer, size_t size, char *error, size_t error_size) {
    const char *bytes = buffer;
    while (size > 0) {
        int result = ssl.write(tls->session, bytes, size > 1 << 30 ? 1 << 30 : (int)size);
        if (result <= 0) {
            describe_failure(tls, result, "write", error, error_size);
            return -1;
        }
        bytes += result;
        size -= (size_t)result;
    }
    return 0;
}

void travelog_tls_close(travelog_tls *tls) {
    if (tls->session) {
        ssl.shutdown(tls->session);
        ssl.ssl_free(tls->session);
    }
    // The context is kept for the thread's next upload (`context_for`).
    tls->session = NULL;
    tls->context = NULL;
    ssl.err_clear_error();
}
