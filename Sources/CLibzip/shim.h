// libzip (https://libzip.org), from Debian's libzip-dev: reads ZIP archives (PKWARE APPNOTE.TXT),
// ZIP64 included. Travelog uses only its read API, through TravelogFormats' ZipArchive.
#include <zip.h>
