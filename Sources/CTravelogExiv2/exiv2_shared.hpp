// What the reader and the writer of the C interface share (not part of the interface).
#ifndef TRAVELOG_EXIV2_SHARED_HPP
#define TRAVELOG_EXIV2_SHARED_HPP

#include "travelog_exiv2.h"

namespace travelog_exiv2_internal {

/// Sets Exiv2 up once per process (muted log, BMFF on, XMP's parser), before any thread uses it.
void initialise();

/// Fills `error` (when not null) with a code and a message.
void fail(travelog_exif_error *error, int code, const char *message);

/// Inside a `catch (...)`: fills `error` from the exception being handled (Exiv2's code and message,
/// a standard exception's message, or "unknown failure").
void failWithCurrentException(travelog_exif_error *error);

}  // namespace travelog_exiv2_internal

#endif
