// zlib 1.2, from Debian's zlib1g-dev (found through pkg-config): inflates the blocks of OpenStreetMap
// `.osm.pbf` extracts (and deflates them where tests and benchmarks write one).
#include <zlib.h>
