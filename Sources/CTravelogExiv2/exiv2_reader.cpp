// A C interface over Exiv2 (Debian's libexiv2-dev) for TravelogPhotos: Swift calls C directly, so
// no target of the package needs C++ interoperability. Every exception stops here.
#include "travelog_exiv2.h"
#include "exiv2_shared.hpp"

#include <exiv2/exiv2.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <vector>

namespace {

std::once_flag initialised;

void initialiseNow() {
    // Warnings are not printed: a damaged file is reported to the caller, not on standard error.
    Exiv2::LogMsg::setLevel(Exiv2::LogMsg::mute);
    Exiv2::enableBMFF(true);
    // XMP's parser is set up once before any thread reads (Exiv2's rule for multi-threaded use).
    Exiv2::XmpParser::initialize();
}

char *copyString(const std::string &text) {
    char *copy = static_cast<char *>(std::malloc(text.size() + 1));
    if (copy == nullptr) throw std::bad_alloc();
    std::memcpy(copy, text.c_str(), text.size() + 1);
    return copy;
}

bool isNumeric(Exiv2::TypeId type) {
    switch (type) {
    case Exiv2::unsignedByte: case Exiv2::unsignedShort: case Exiv2::unsignedLong:
    case Exiv2::unsignedRational: case Exiv2::signedByte: case Exiv2::signedShort:
    case Exiv2::signedLong: case Exiv2::signedRational: case Exiv2::tiffFloat:
    case Exiv2::tiffDouble: case Exiv2::tiffIfd:
        return true;
    default:
        return false;
    }
}

bool isWanted(const Exiv2::Exifdatum &datum) {
    const std::string group = datum.groupName();
    return group == "Image" || group == "Photo" || group == "GPSInfo";
}

/// Copies the wanted tags of `exif` into `tags` (the strings malloc'd; the caller frees them).
void collect(const Exiv2::ExifData &exif, std::vector<travelog_exif_tag> &tags) {
    for (const auto &datum : exif) {
        if (!isWanted(datum)) continue;
        tags.push_back(travelog_exif_tag{});
        travelog_exif_tag &stored = tags.back();
        stored.key = copyString(datum.key());
        stored.type_id = static_cast<int>(datum.typeId());
        stored.count = datum.count();
        // Long byte arrays (an undefined-typed blob) are not text anyone reads.
        stored.text = copyString(datum.size() > 4096 ? std::string() : datum.toString());
        if (isNumeric(datum.typeId())) {
            const long count = std::min<long>(datum.count(), 8);
            for (long index = 0; index < count; ++index) {
                // Rationals are read as stored: Exiv2's toRational would wrap an unsigned numerator past 2^31.
                if (const auto *unsignedValue = dynamic_cast<const Exiv2::URationalValue *>(&datum.value())) {
                    const Exiv2::URational value = unsignedValue->value_.at(static_cast<size_t>(index));
                    stored.numbers[index] = value.second == 0 ? NAN
                        : static_cast<double>(value.first) / static_cast<double>(value.second);
                } else if (const auto *signedValue = dynamic_cast<const Exiv2::RationalValue *>(&datum.value())) {
                    const Exiv2::Rational value = signedValue->value_.at(static_cast<size_t>(index));
                    stored.numbers[index] = value.second == 0 ? NAN
                        : static_cast<double>(value.first) / static_cast<double>(value.second);
                } else {
                    stored.numbers[index] = static_cast<double>(datum.toFloat(index));
                }
            }
            stored.number_count = static_cast<int>(count);
        }
    }
}

/// Moves `tags` into `result`.
void finish(std::vector<travelog_exif_tag> &tags, travelog_exif_metadata *result) {
    result->tags = static_cast<travelog_exif_tag *>(std::calloc(tags.size() + 1, sizeof(travelog_exif_tag)));
    if (result->tags == nullptr) throw std::bad_alloc();
    std::memcpy(result->tags, tags.data(), tags.size() * sizeof(travelog_exif_tag));
    result->tag_count = tags.size();
    tags.clear();
}

}  // namespace

void travelog_exiv2_internal::initialise() { std::call_once(initialised, initialiseNow); }

void travelog_exiv2_internal::fail(travelog_exif_error *error, int code, const char *message) {
    if (error == nullptr) return;
    error->code = code;
    std::snprintf(error->message, sizeof error->message, "%s", message);
}

void travelog_exiv2_internal::failWithCurrentException(travelog_exif_error *error) {
    try {
        throw;
    } catch (const Exiv2::AnyError &exception) {
        fail(error, exception.code(), exception.what());
    } catch (const std::exception &exception) {
        fail(error, -1, exception.what());
    } catch (...) {
        fail(error, -1, "unknown failure");
    }
}

using travelog_exiv2_internal::fail;

extern "C" int travelog_exiv2_read(const unsigned char *data, size_t size, travelog_exif_metadata **out,
                                   travelog_exif_error *error) {
    travelog_exiv2_internal::initialise();
    *out = nullptr;
    auto *result = static_cast<travelog_exif_metadata *>(std::calloc(1, sizeof(travelog_exif_metadata)));
    if (result == nullptr) { fail(error, -1, "out of memory"); return -1; }
    std::vector<travelog_exif_tag> tags;
    // What the data is, asked first: Exiv2's open() of a few bytes of text fails on reading rather
    // than saying it does not know the format.
    int type = Exiv2::ImageType::none;
    try {
        type = Exiv2::ImageFactory::getType(reinterpret_cast<const Exiv2::byte *>(data), static_cast<long>(size));
    } catch (...) {
        type = Exiv2::ImageType::none;
    }
    if (type == Exiv2::ImageType::none) {
        travelog_exiv2_free(result);
        fail(error, Exiv2::kerMemoryContainsUnknownImageType, "not an image format Exiv2 reads");
        return -1;
    }
    try {
        auto image = Exiv2::ImageFactory::open(reinterpret_cast<const Exiv2::byte *>(data),
                                               static_cast<long>(size));
        if (image.get() == nullptr) { travelog_exiv2_free(result); fail(error, -1, "not an image"); return -1; }
        image->readMetadata();
        result->mime_type = copyString(image->mimeType());
        result->pixel_width = static_cast<long>(image->pixelWidth());
        result->pixel_height = static_cast<long>(image->pixelHeight());
        collect(image->exifData(), tags);
        finish(tags, result);
        *out = result;
        return 0;
    } catch (...) {
        travelog_exiv2_internal::failWithCurrentException(error);
    }
    for (auto &tag : tags) { std::free(tag.key); std::free(tag.text); }
    travelog_exiv2_free(result);
    return -1;
}

extern "C" void travelog_exiv2_free(travelog_exif_metadata *metadata) {
    if (metadata == nullptr) return;
    for (size_t index = 0; index < metadata->tag_count; ++index) {
        std::free(metadata->tags[index].key);
        std::free(metadata->tags[index].text);
    }
    std::free(metadata->tags);
    std::free(metadata->mime_type);
    std::free(metadata);
}

extern "C" int travelog_exiv2_preview(const unsigned char *data, size_t size, long min_long_side, travelog_exif_preview *out,
                                      travelog_exif_error *error) {
    travelog_exiv2_internal::initialise();
    *out = travelog_exif_preview{};
    try {
        auto image = Exiv2::ImageFactory::open(reinterpret_cast<const Exiv2::byte *>(data), static_cast<long>(size));
        if (image.get() == nullptr) { fail(error, -1, "not an image"); return -1; }
        image->readMetadata();
        Exiv2::PreviewManager manager(*image);
        const Exiv2::PreviewPropertiesList list = manager.getPreviewProperties();
        const Exiv2::PreviewProperties *chosen = nullptr;
        auto longSide = [](const Exiv2::PreviewProperties &properties) {
            return static_cast<long>(std::max(properties.width_, properties.height_));
        };
        for (const auto &properties : list) {
            if (properties.mimeType_ != "image/jpeg" || properties.width_ == 0 || properties.height_ == 0) continue;
            if (chosen == nullptr) { chosen = &properties; continue; }
            const bool bigEnough = longSide(properties) >= min_long_side, chosenBigEnough = longSide(*chosen) >= min_long_side;
            if (bigEnough && (!chosenBigEnough || longSide(properties) < longSide(*chosen))) chosen = &properties;
            else if (!bigEnough && !chosenBigEnough && longSide(properties) > longSide(*chosen)) chosen = &properties;
        }
        if (chosen == nullptr) return 1;
        const Exiv2::PreviewImage preview = manager.getPreviewImage(*chosen);
        if (preview.size() == 0) return 1;
        out->bytes = static_cast<unsigned char *>(std::malloc(preview.size()));
        if (out->bytes == nullptr) throw std::bad_alloc();
        std::memcpy(out->bytes, preview.pData(), preview.size());
        out->count = preview.size();
        out->width = static_cast<long>(preview.width());
        out->height = static_cast<long>(preview.height());
        return 0;
    } catch (...) {
        travelog_exiv2_internal::failWithCurrentException(error);
    }
    travelog_exiv2_free_preview(out);
    return -1;
}

extern "C" void travelog_exiv2_free_preview(travelog_exif_preview *preview) {
    std::free(preview->bytes);
    *preview = travelog_exif_preview{};
}

extern "C" const char *travelog_exiv2_version(void) {
    return Exiv2::version();
}

extern "C" int travelog_exiv2_read_tiff(const unsigned char *data, size_t size, travelog_exif_metadata **out,
                                        travelog_exif_error *error) {
    travelog_exiv2_internal::initialise();
    *out = nullptr;
    auto *result = static_cast<travelog_exif_metadata *>(std::calloc(1, sizeof(travelog_exif_metadata)));
    if (result == nullptr) { fail(error, -1, "out of memory"); return -1; }
    std::vector<travelog_exif_tag> tags;
    try {
        Exiv2::ExifData exif;
        Exiv2::ExifParser::decode(exif, reinterpret_cast<const Exiv2::byte *>(data), static_cast<uint32_t>(size));
        result->mime_type = copyString("image/tiff");
        collect(exif, tags);
        finish(tags, result);
        *out = result;
        return 0;
    } catch (...) {
        travelog_exiv2_internal::failWithCurrentException(error);
    }
    for (auto &tag : tags) { std::free(tag.key); std::free(tag.text); }
    travelog_exiv2_free(result);
    return -1;
}
