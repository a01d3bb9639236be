/* libcrypto's EVP digest functions, loaded on first use (dlopen) instead of at process start.
 *
 * Each function below has the name and prototype openssl/evp.h declares (the compiler checks
 * them) and calls the function of that name in the loaded libcrypto. Swift must call
 * yarn_crypto_load() first (SHA256Hasher does). */
#include "CCrypto.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define YARN_CRYPTO_FUNCTIONS(X) \
  X(EVP_MD_CTX_new)              \
  X(EVP_MD_CTX_free)             \
  X(EVP_DigestInit_ex)           \
  X(EVP_DigestUpdate)            \
  X(EVP_DigestFinal_ex)          \
  X(EVP_sha256)

#define YARN_DECLARE_POINTER(name) static __typeof__(&name) real_##name;
YARN_CRYPTO_FUNCTIONS(YARN_DECLARE_POINTER)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char failure[512];

static void load(void) {
  static const char *const names[] = {"libcrypto.so.3", "libcrypto.so.1.1"};
  void *handle = NULL;
  for (size_t i = 0; i < sizeof names / sizeof names[0] && handle == NULL; i++) {
    handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  }
  if (handle == NULL) {
    const char *reason = dlerror();
    snprintf(failure, sizeof failure,
             "OpenSSL's libcrypto could not be loaded (%s); install it (Debian: apt-get install libssl3)",
             reason ? reason : "not found");
    return;
  }
#define YARN_RESOLVE(name)                                                                 \
  real_##name = (__typeof__(&name))dlsym(handle, #name);                                   \
  if (real_##name == NULL) {                                                               \
    snprintf(failure, sizeof failure, "the libcrypto found lacks %s (OpenSSL 1.1 or later is needed)", #name); \
    return;                                                                                \
  }
  YARN_CRYPTO_FUNCTIONS(YARN_RESOLVE)
  loaded = 1;
}

int yarn_crypto_load(char *message, size_t size) {
  pthread_once(&once, load);
  if (!loaded && message != NULL && size > 0) {
    snprintf(message, size, "%s", failure);
  }
  return loaded;
}

static void require_loaded(const char *name) {
  pthread_once(&once, load);
  if (!loaded) {
    fprintf(stderr, "yarn: %s called but libcrypto is not loaded: %s\n", name, failure);
    abort();
  }
}

#define CALL(name, ...) (require_loaded(#name), real_##name(__VA_ARGS__))

EVP_MD_CTX *EVP_MD_CTX_new(void) { return CALL(EVP_MD_CTX_new); }
void EVP_MD_CTX_free(EVP_MD_CTX *context) { CALL(EVP_MD_CTX_free, context); }
int EVP_DigestInit_ex(EVP_MD_CTX *context, const EVP_MD *type, ENGINE *engine) {
  return CALL(EVP_DigestInit_ex, context, type, engine);
}
int EVP_DigestUpdate(EVP_MD_CTX *context, const void *data, size_t count) {
  return CALL(EVP_DigestUpdate, context, data, count);
}
int EVP_DigestFinal_ex(EVP_MD_CTX *context, unsigned char *digest, unsigned int *size) {
  return CALL(EVP_DigestFinal_ex, context, digest, size);
}
const EVP_MD *EVP_sha256(void) { return CALL(EVP_sha256); }
