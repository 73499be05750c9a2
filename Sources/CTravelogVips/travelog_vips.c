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

int travelog_vips_preview_thumbnail(const void *data, size_t size, int long_side, int orientation, int quality,
                                    travelog_vips_jpeg *output, char *error, size_t error_size) {
    if (travelog_vips_start() != 0) {
        snprintf(error, error_size, "libvips could not start");
        return -1;
    }
    memset(output, 0, sizeof(travelog_vips_jpeg));
    VipsImage *image = NULL;
    if (vips_thumbnail_buffer((void *)data, size, &image, long_side, "height", long_side, "size", VIPS_SIZE_DOWN,
                              "no_rotate", TRUE, "fail_on", VIPS_FAIL_ON_ERROR, NULL) != 0) {
        take_error(error, error_size);
        return -1;
    }
    VipsImage *upright = NULL;
    int status = 0;
    if (orientation >= 2 && orientation <= 8) {
        // The photo's orientation, which the preview shares without carrying it: autorot reads it from the image.
        vips_image_set_int(image, VIPS_META_ORIENTATION, orientation);
        status = vips_autorot(image, &upright, NULL);
        g_object_unref(image);
    } else {
        upright = image;
    }
    if (status == 0) {
        void *bytes = NULL;
        size_t length = 0;
        status = vips_jpegsave_buffer(upright, &bytes, &length, "Q", quality, "strip", TRUE, "optimize_coding", TRUE, NULL);
        if (status == 0) {
            output->bytes = bytes;
            output->count = length;
            output->width = vips_image_get_width(upright);
            output->height = vips_image_get_height(upright);
        }
        g_object_unref(upright);
    }
    if (status != 0) {
        take_error(error, error_size);
        travelog_vips_free(output);
        return -1;
    }
    return 0;
}

void travelog_vips_free(travelog_vips_jpeg *jpeg) {
    if (jpeg->bytes) g_free(jpeg->bytes);
    jpeg->bytes = NULL;
    jpeg->count = 0;
}
