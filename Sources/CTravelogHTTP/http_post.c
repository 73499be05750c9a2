// POST over libcurl loaded at first use (dlopen), for the tracker's uploads: a tracker without a
// server, or before its first upload, maps neither libcurl nor the TLS libraries behind it.
#include "CTravelogHTTP.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    char load_error[200];
    int loaded;
} curl;

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;

static void load_curl(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(curl.load_error, sizeof curl.load_error, "cannot load libcurl.so.4: %s", dlerror());
        return;
    }
#define LOAD(field, name) if (!(*(void **)&curl.field = dlsym(library, name))) { \
        snprintf(curl.load_error, sizeof curl.load_error, "libcurl.so.4 has no %s", name); return; }
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
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(curl.load_error, sizeof curl.load_error, "curl_global_init failed");
        return;
    }
    curl.loaded = 1;
}

static size_t append_body(char *data, size_t size, size_t count, void *context) {
    travelog_http_response *response = context;
    size_t length = size * count;
    char *grown = realloc(response->body, response->body_length + length + 1);
    if (!grown) return 0;  // libcurl then fails the transfer with a write error
    memcpy(grown + response->body_length, data, length);
    response->body = grown;
    response->body_length += length;
    response->body[response->body_length] = 0;
    return length;
}

travelog_http_result travelog_http_post(const char *url, const char *const *headers, size_t header_count,
                                        const void *body, size_t body_length, long timeout_ms,
                                        travelog_http_response *response) {
    memset(response, 0, sizeof *response);
    pthread_once(&curl_once, load_curl);
    if (!curl.loaded) {
        snprintf(response->error, sizeof response->error, "%s", curl.load_error);
        return TRAVELOG_HTTP_NO_LIBCURL;
    }
    CURL *handle = curl.easy_init();
    if (!handle) {
        snprintf(response->error, sizeof response->error, "curl_easy_init failed");
        return TRAVELOG_HTTP_TRANSFER_FAILED;
    }
    struct curl_slist *list = NULL;
    for (size_t index = 0; index < header_count; index++) list = curl.slist_append(list, headers[index]);
    curl.easy_setopt(handle, CURLOPT_URL, url);
    curl.easy_setopt(handle, CURLOPT_HTTPHEADER, list);
    curl.easy_setopt(handle, CURLOPT_POST, 1L);
    curl.easy_setopt(handle, CURLOPT_POSTFIELDS, body);
    curl.easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_length);
    curl.easy_setopt(handle, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 0L);
    curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, append_body);
    curl.easy_setopt(handle, CURLOPT_WRITEDATA, response);
    CURLcode code = curl.easy_perform(handle);
    if (code == CURLE_OK) curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &response->status);
    else snprintf(response->error, sizeof response->error, "%s", curl.easy_strerror(code));
    curl.slist_free_all(list);
    curl.easy_cleanup(handle);
    return code == CURLE_OK ? TRAVELOG_HTTP_OK : TRAVELOG_HTTP_TRANSFER_FAILED;
}

void travelog_http_response_free(travelog_http_response *response) {
    free(response->body);
    response->body = NULL;
    response->body_length = 0;
}
