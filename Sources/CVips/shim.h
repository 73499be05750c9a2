// libvips, from Debian's libvips-dev (found through pkg-config). Swift does not import it: its
// calls are variadic. CTravelogVips wraps the few Travelog makes.
#include <vips/vips.h>
