#ifndef YARN_CLIBZIP_H
#define YARN_CLIBZIP_H
/* libzip's API (Debian: libzip-dev), loaded at run time by loader.c on first use, so that
 * commands which never touch a zip archive (`yarn time start`) do not pay for loading libzip
 * and the libcrypto it links. */
#include <stddef.h>
#include <zip.h>

/* Loads libzip (libzip.so.5, else libzip.so.4; on Apple systems libzip.5.dylib) once and
 * resolves every function this package calls. Returns 1 on success; on failure 0, with a
 * message for people ("libzip.so.5: cannot open shared object file ...") copied into
 * `message` (NUL-terminated, at most `size` bytes). Safe to call from any thread, any number
 * of times. */
int yarn_libzip_load(char *message, size_t size);

#endif
