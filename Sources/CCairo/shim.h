// cairo, from Debian's libcairo2-dev (found through pkg-config).
#include <cairo/cairo.h>
#include <cairo/cairo-pdf.h>
