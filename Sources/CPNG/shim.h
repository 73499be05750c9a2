// libpng 1.6, from Debian's libpng-dev (found through pkg-config); its simplified write API.
#include <png.h>
