#ifndef TRAVELOG_VIPS_H
#define TRAVELOG_VIPS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Starts libvips once per process (later calls return at once). 0 on success.
int travelog_vips_start(void);

/// libvips's version, e.g. "8.14.1".
const char *travelog_vips_version(void);

/// A JPEG made by `travelog_vips_thumbnail`, freed by `travelog_vips_free`.
typedef struct {
    unsigned char *bytes;
    size_t count;
    int width;
    int height;
} travelog_vips_jpeg;

/// Decodes an image held in memory (JPEG with shrink-on-load, HEIF/HEIC through libheif, PNG, WebP,
/// TIFF, …), turns it upright by its EXIF orientation and writes JPEGs whose long sides are at most
/// each of `long_sides` (largest first; each one is made from the one before, the first from the
/// data), never enlarged. `outputs` has room for `count`. Returns 0, or -1 with `error` (of
/// `error_size` bytes, NUL-terminated) saying why; nothing is left to free then.
int travelog_vips_thumbnails(const void *data, size_t size, const int *long_sides, int count, int quality,
                             travelog_vips_jpeg *outputs, char *error, size_t error_size);


/// One thumbnail from a preview JPEG a camera embedded (no orientation of its own): at most
/// `long_side` on its long side, never enlarged, turned upright by the photo's EXIF `orientation`
/// (1-8; other values: as stored). Returns 0, or -1 with `error` as `travelog_vips_thumbnails`.
int travelog_vips_preview_thumbnail(const void *data, size_t size, int long_side, int orientation, int quality,
                                    travelog_vips_jpeg *output, char *error, size_t error_size);

void travelog_vips_free(travelog_vips_jpeg *jpeg);

#ifdef __cplusplus
}
#endif

#endif
