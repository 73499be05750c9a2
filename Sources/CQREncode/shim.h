// libqrencode 4, from Debian's libqrencode-dev (found through pkg-config).
#include <qrencode.h>
