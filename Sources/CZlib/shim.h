// zlib, for crc32: the checksum of each shared-defaults journal record.
#include <zlib.h>
