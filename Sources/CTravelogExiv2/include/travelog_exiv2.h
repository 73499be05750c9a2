#ifndef TRAVELOG_EXIV2_H
#define TRAVELOG_EXIV2_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One EXIF tag as Exiv2 read it: its key ("Exif.Photo.DateTimeOriginal"), its value as text, and
/// its first numbers (rationals as doubles, NaN for a zero denominator) for numeric types.
typedef struct travelog_exif_tag {
    char *key;
    char *text;
    /// Exiv2's TypeId (2 ascii, 3 short, 4 long, 5 rational, 7 undefined, 9 slong, 10 srational, …).
    int type_id;
    /// How many values the tag holds.
    long count;
    /// The first `number_count` values as numbers (at most 8).
    int number_count;
    double numbers[8];
} travelog_exif_tag;

/// What `travelog_exiv2_read` found in one file.
typedef struct travelog_exif_metadata {
    /// The file's MIME type as Exiv2 recognised it ("image/jpeg", "image/heic", …).
    char *mime_type;
    /// The image's size in pixels as the container says (0 when Exiv2 does not know it).
    long pixel_width;
    long pixel_height;
    travelog_exif_tag *tags;
    size_t tag_count;
} travelog_exif_metadata;

/// Exiv2's error for a file it could not read: its error code (Exiv2::ErrorCode, -1 for an
/// exception that is not Exiv2's) and message.
typedef struct travelog_exif_error {
    int code;
    char message[512];
} travelog_exif_error;

/// Reads the EXIF tags (IFD0, the Exif and GPS IFDs; not maker notes or thumbnails) of an image
/// held in memory: JPEG, TIFF and the raw formats built on it, PNG, WebP, HEIF/HEIC/AVIF.
/// Never reads another file or the network. Safe to call from several threads at once.
/// @return 0 with `*out` set (free it with `travelog_exiv2_free`), or -1 with `error` filled in
///   for data that is not an image Exiv2 knows, or a damaged one.
int travelog_exiv2_read(const unsigned char *data, size_t size, travelog_exif_metadata **out,
                        travelog_exif_error *error);

/// Decodes an EXIF block alone (a TIFF header and its IFDs, as a HEIF's Exif item holds after its
/// 4-byte offset), for the files whose container Exiv2 does not walk; `mime_type` is "image/tiff"
/// and the pixel size 0. Returns as `travelog_exiv2_read`.
int travelog_exiv2_read_tiff(const unsigned char *data, size_t size, travelog_exif_metadata **out,
                             travelog_exif_error *error);

void travelog_exiv2_free(travelog_exif_metadata *metadata);

/// A JPEG preview a camera embedded in its photo (the EXIF thumbnail of IFD1, a raw file's larger
/// previews), in the stored orientation of the main image. Freed by `travelog_exiv2_free_preview`.
typedef struct travelog_exif_preview {
    unsigned char *bytes;
    size_t count;
    long width;
    long height;
} travelog_exif_preview;

/// The photo's embedded JPEG previews, as Exiv2's PreviewManager lists them: the smallest whose long
/// side is at least `min_long_side`, else the largest. Never decodes the image itself.
/// @return 0 with `*out` set, 1 when the photo embeds no JPEG preview, or -1 with `error` filled in.
int travelog_exiv2_preview(const unsigned char *data, size_t size, long min_long_side, travelog_exif_preview *out,
                           travelog_exif_error *error);

void travelog_exiv2_free_preview(travelog_exif_preview *preview);

/// A position to write into a photo's GPS IFD (WGS-84 degrees; NaN for what is not known).
typedef struct travelog_gps_fix {
    double latitude;
    double longitude;
    /// Metres above sea level (negative below); NaN: no GPSAltitude written.
    double altitude_meters;
    /// GPSHPositioningError, metres; NaN: not written.
    double horizontal_error_meters;
    /// The fix's UTC time, seconds since 1970 (GPSDateStamp and GPSTimeStamp); NaN: not written.
    double utc_seconds;
} travelog_gps_fix;

/// `travelog_exiv2_write_gps`'s refusals, beside -1 (damaged data, or Exiv2 failed to write).
enum {
    /// Exiv2 (this version) cannot write EXIF into this format (HEIF/HEIC/AVIF with 0.27, …).
    TRAVELOG_EXIV2_NOT_WRITABLE = -2,
    /// The photo has a GPSLatitude or GPSLongitude already.
    TRAVELOG_EXIV2_HAS_GPS = -3,
};

/// Writes a position into the GPS IFD of an image held in memory (GPSVersionID 2.3.0.0,
/// GPSLatitude/Ref, GPSLongitude/Ref, GPSAltitude/Ref, GPSMapDatum WGS-84, GPSDateStamp,
/// GPSTimeStamp, GPSHPositioningError), every other tag and the image data left as they are.
/// Never touches a file: the caller writes the bytes returned.
/// @param mime_type set to the format's MIME type (free it with `free`) even when refused, or NULL.
/// @return 0 with `*out` (free it with `free`) and `*out_size` set; TRAVELOG_EXIV2_NOT_WRITABLE,
///   TRAVELOG_EXIV2_HAS_GPS, or -1, with `error` filled in.
int travelog_exiv2_write_gps(const unsigned char *data, size_t size, const travelog_gps_fix *fix,
                             unsigned char **out, size_t *out_size, char **mime_type, travelog_exif_error *error);

/// Exiv2's version ("0.27.6").
const char *travelog_exiv2_version(void);

#ifdef __cplusplus
}
#endif

#endif
