// libsodium (https://libsodium.org), from Debian's libsodium-dev: crypto_secretbox, which OwnTracks'
// apps use for their encrypted payloads (OwnTracksEncryption).
#include <sodium.h>
