#include "travelog_vips.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <vips/vips.h>

static pthread_once_t started = PTHREAD_ONCE_INIT;
static int start_status = -1;

static void start_once(void) {
    start_status = VIPS_INIT("travelog");
    if (start_status == 0) {
        // Travelog decodes one photo per task and runs several tasks: one thread per image is enough.
        vips_concurrency_set(1);
        // Thumbnails are made once and written out: libvips's operation cache would only hold memory.
        vips_cache_set_max(0);
    }
}

int travelog_vips_start(void) {
    pthread_once(&started, start_once);
    return start_status;
}

const char *travelog_vips_version(void) {
    return vips_version_string();
}

static void take_error(char *error, size_t error_size) {
    const char *message = vips_error_buffer();
    snprintf(error, error_size, "%s", message && *message ? message : "libvips failed");
    size_t length = strlen(error);
    while (length > 0 && (error[length - 1] == '\n' || error[length - 1] == ' ')) error[--length] = 0;
    vips_error_clear();
}

int travelog_vips_thumbnails(const void *data, size_t size, const int *long_sides, int count, int quality,
                             travelog_vips_jpeg *outputs, char *error, size_t error_size) {
    if (travelog_vips_start() != 0) {
        snprintf(error, error_size, "libvips could not start");
        return -1;
    }
    memset(outputs, 0, sizeof(travelog_vips_jpeg) * (size_t)count);
    VipsImage *previous = NULL;
    int status = 0;
    for (int index = 0; index < count && status == 0; index++) {
        VipsImage *image = NULL;
        // The first from the file's bytes (shrink-on-load for JPEG, orientation applied: auto-rotate is
        // thumbnail's default); each later one from the one before, already upright.
        if (previous == NULL) {
            status = vips_thumbnail_buffer((void *)data, size, &image, long_sides[index], "height", long_sides[index],
                                           "size", VIPS_SIZE_DOWN, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
        } else {
            status = vips_thumbnail_image(previous, &image, long_sides[index], "height", long_sides[index],
                                          "size", VIPS_SIZE_DOWN, NULL);
        }
        if (status != 0) break;
        // Kept in memory: the next size is made from it.
        VipsImage *copy = vips_image_copy_memory(image);
        g_object_unref(image);
        if (copy == NULL) { status = -1; break; }
        void *bytes = NULL;
        size_t length = 0;
        status = vips_jpegsave_buffer(copy, &bytes, &length, "Q", quality, "strip", TRUE, "optimize_coding", TRUE, NULL);
        if (status == 0) {
            outputs[index].bytes = bytes;
            outputs[index].count = length;
            outputs[index].width = vips_image_get_width(copy);
            outputs[index].height = vips_image_get_height(copy);
        }
        if (previous) g_object_unref(previous);
        previous = copy;
    }
    if (previous) g_object_unref(previous);
    if (status != 0) {
        take_error(error, error_size);
        for (int index = 0; index < count; index++) travelog_vips_free(&outputs[index]);
        return -1;
    }
    return 0;
}

void travelog_vips_free(travelog_vips_jpeg *jpeg) {
    if (jpeg->bytes) g_free(jpeg->bytes);
    jpeg->bytes = NULL;
    jpeg->count = 0;
}
