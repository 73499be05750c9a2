// Writing a position into a photo's EXIF (travelog photos geotag --write) through Exiv2, in memory:
// the caller (PhotoEXIFWriter) reads the file and writes the bytes returned, so a crash or a refusal
// never leaves a half-written photo. Every exception stops here.
#include "travelog_exiv2.h"
#include "exiv2_shared.hpp"

#include <exiv2/exiv2.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <string>

using travelog_exiv2_internal::fail;

namespace {

/// Degrees as EXIF's three rationals: whole degrees, whole minutes, seconds to a millionth (0.03 mm).
Exiv2::URationalValue degreesMinutesSeconds(double degrees) {
    const double magnitude = std::fabs(degrees);
    auto whole = static_cast<uint32_t>(std::floor(magnitude));
    const double minutesFull = (magnitude - whole) * 60.0;
    auto minutes = static_cast<uint32_t>(std::floor(minutesFull));
    auto microseconds = static_cast<uint32_t>(std::llround((minutesFull - minutes) * 60.0 * 1e6));
    if (microseconds >= 60000000u) { microseconds -= 60000000u; minutes += 1; }
    if (minutes >= 60u) { minutes -= 60u; whole += 1; }
    Exiv2::URationalValue value;
    value.value_.push_back(Exiv2::URational(whole, 1));
    value.value_.push_back(Exiv2::URational(minutes, 1));
    value.value_.push_back(Exiv2::URational(microseconds, 1000000));
    return value;
}

/// A non-negative number as one rational, to a thousandth.
Exiv2::URationalValue thousandths(double number) {
    Exiv2::URationalValue value;
    value.value_.push_back(Exiv2::URational(static_cast<uint32_t>(std::llround(std::fabs(number) * 1000.0)), 1000));
    return value;
}

void setAscii(Exiv2::ExifData &exif, const char *key, const std::string &text) {
    Exiv2::AsciiValue value(text);
    exif.add(Exiv2::ExifKey(key), &value);
}

void setByte(Exiv2::ExifData &exif, const char *key, const char *numbers) {
    Exiv2::DataValue value(Exiv2::unsignedByte);
    value.read(numbers);
    exif.add(Exiv2::ExifKey(key), &value);
}

bool hasPosition(const Exiv2::ExifData &exif) {
    return exif.findKey(Exiv2::ExifKey("Exif.GPSInfo.GPSLatitude")) != exif.end()
        || exif.findKey(Exiv2::ExifKey("Exif.GPSInfo.GPSLongitude")) != exif.end();
}

void writeFix(Exiv2::ExifData &exif, const travelog_gps_fix &fix) {
    setByte(exif, "Exif.GPSInfo.GPSVersionID", "2 3 0 0");
    setAscii(exif, "Exif.GPSInfo.GPSLatitudeRef", fix.latitude < 0 ? "S" : "N");
    Exiv2::URationalValue latitude = degreesMinutesSeconds(fix.latitude);
    exif.add(Exiv2::ExifKey("Exif.GPSInfo.GPSLatitude"), &latitude);
    setAscii(exif, "Exif.GPSInfo.GPSLongitudeRef", fix.longitude < 0 ? "W" : "E");
    Exiv2::URationalValue longitude = degreesMinutesSeconds(fix.longitude);
    exif.add(Exiv2::ExifKey("Exif.GPSInfo.GPSLongitude"), &longitude);
    if (std::isfinite(fix.altitude_meters)) {
        setByte(exif, "Exif.GPSInfo.GPSAltitudeRef", fix.altitude_meters < 0 ? "1" : "0");
        Exiv2::URationalValue altitude = thousandths(fix.altitude_meters);
        exif.add(Exiv2::ExifKey("Exif.GPSInfo.GPSAltitude"), &altitude);
    }
    setAscii(exif, "Exif.GPSInfo.GPSMapDatum", "WGS-84");
    if (std::isfinite(fix.utc_seconds)) {
        const double floorSeconds = std::floor(fix.utc_seconds);
        const auto whole = static_cast<std::time_t>(floorSeconds);
        std::tm utc{};
        gmtime_r(&whole, &utc);
        char date[16];
        std::snprintf(date, sizeof date, "%04d:%02d:%02d", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday);
        setAscii(exif, "Exif.GPSInfo.GPSDateStamp", date);
        Exiv2::URationalValue time;
        time.value_.push_back(Exiv2::URational(static_cast<uint32_t>(utc.tm_hour), 1));
        time.value_.push_back(Exiv2::URational(static_cast<uint32_t>(utc.tm_min), 1));
        const auto milliseconds = static_cast<uint32_t>(std::llround((utc.tm_sec + (fix.utc_seconds - floorSeconds)) * 1000.0));
        time.value_.push_back(Exiv2::URational(std::min<uint32_t>(milliseconds, 60999u), 1000));
        exif.add(Exiv2::ExifKey("Exif.GPSInfo.GPSTimeStamp"), &time);
    }
    if (std::isfinite(fix.horizontal_error_meters)) {
        // GPSHPositioningError (0x001f, EXIF 2.31), by number: older Exiv2 versions do not name it.
        Exiv2::URationalValue error = thousandths(fix.horizontal_error_meters);
        exif.add(Exiv2::ExifKey(0x001f, "GPSInfo"), &error);
    }
}

char *copyString(const std::string &text) {
    char *copy = static_cast<char *>(std::malloc(text.size() + 1));
    if (copy != nullptr) std::memcpy(copy, text.c_str(), text.size() + 1);
    return copy;
}

}  // namespace

extern "C" int travelog_exiv2_write_gps(const unsigned char *data, size_t size, const travelog_gps_fix *fix,
                                        unsigned char **out, size_t *out_size, char **mime_type,
                                        travelog_exif_error *error) {
    travelog_exiv2_internal::initialise();
    *out = nullptr;
    *out_size = 0;
    if (mime_type != nullptr) *mime_type = nullptr;
    if (!std::isfinite(fix->latitude) || !std::isfinite(fix->longitude) || std::fabs(fix->latitude) > 90
        || std::fabs(fix->longitude) > 180) {
        fail(error, -1, "not a position");
        return -1;
    }
    try {
        int type = Exiv2::ImageFactory::getType(data, static_cast<long>(size));
        if (type == Exiv2::ImageType::none) {
            fail(error, Exiv2::kerMemoryContainsUnknownImageType, "not an image format Exiv2 reads");
            return -1;
        }
        // Exiv2 copies the bytes into its own memory (MemIo): `data` is never written.
        auto image = Exiv2::ImageFactory::open(data, static_cast<long>(size));
        if (image.get() == nullptr) { fail(error, -1, "not an image"); return -1; }
        image->readMetadata();
        // The MIME type after reading: a BMFF file says "image/generic" until its boxes are read.
        if (mime_type != nullptr) *mime_type = copyString(image->mimeType());
        if ((Exiv2::ImageFactory::checkMode(type, Exiv2::mdExif) & Exiv2::amWrite) == 0) {
            std::string message = "Exiv2 " + std::string(Exiv2::version()) + " cannot write EXIF into " + image->mimeType();
            fail(error, Exiv2::kerWritingImageFormatUnsupported, message.c_str());
            return TRAVELOG_EXIV2_NOT_WRITABLE;
        }
        Exiv2::ExifData &exif = image->exifData();
        if (hasPosition(exif)) {
            fail(error, -1, "the photo has a GPS position already");
            return TRAVELOG_EXIV2_HAS_GPS;
        }
        writeFix(exif, *fix);
        image->writeMetadata();
        Exiv2::BasicIo &io = image->io();
        if (io.open() != 0) { fail(error, -1, "cannot read the written image back"); return -1; }
        const long written = static_cast<long>(io.size());
        io.seek(0, Exiv2::BasicIo::beg);
        Exiv2::DataBuf buffer = io.read(written);
        io.close();
        if (buffer.size_ != written || written <= 0) { fail(error, -1, "the written image is short"); return -1; }
        *out = static_cast<unsigned char *>(std::malloc(static_cast<size_t>(written)));
        if (*out == nullptr) { fail(error, -1, "out of memory"); return -1; }
        std::memcpy(*out, buffer.pData_, static_cast<size_t>(written));
        *out_size = static_cast<size_t>(written);
        return 0;
    } catch (...) {
        travelog_exiv2_internal::failWithCurrentException(error);
    }
    std::free(*out);
    *out = nullptr;
    *out_size = 0;
    return -1;
}
