#ifndef YARN_CCRYPTO_H
#define YARN_CCRYPTO_H
/* OpenSSL's libcrypto (Debian: libssl-dev), for SHA-256 on Linux, loaded at run time by
 * loader.c on first use so that commands which never hash a file do not pay for loading it. */
#include <stddef.h>
#include <openssl/evp.h>

/* Loads libcrypto (libcrypto.so.3, else libcrypto.so.1.1) once and resolves the EVP digest
 * functions this package calls. Returns 1 on success; on failure 0, with a message for people
 * copied into `message` (NUL-terminated, at most `size` bytes). Thread-safe. */
int yarn_crypto_load(char *message, size_t size);

#endif
