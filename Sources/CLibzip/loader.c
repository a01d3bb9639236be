/* libzip, loaded on first use (dlopen) instead of at process start.
 *
 * Each function below has the name and the exact prototype zip.h declares (the compiler
 * checks them against it) and calls the function of that name in the loaded libzip. Swift
 * code calls them as if linked to libzip directly; it must call yarn_libzip_load() first
 * (ZipLibrary.load() in YarnCore does), which reports a missing libzip as an error instead of
 * the process failing to start. */
#include "CLibzip.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define YARN_ZIP_FUNCTIONS(X)                   \
  X(zip_close)                                  \
  X(zip_discard)                                \
  X(zip_error_fini)                             \
  X(zip_error_init)                             \
  X(zip_error_init_with_code)                   \
  X(zip_error_set)                              \
  X(zip_error_strerror)                         \
  X(zip_error_to_data)                          \
  X(zip_fclose)                                 \
  X(zip_file_add)                               \
  X(zip_file_get_external_attributes)           \
  X(zip_file_set_mtime)                         \
  X(zip_file_strerror)                          \
  X(zip_fopen_index)                            \
  X(zip_fread)                                  \
  X(zip_get_num_entries)                        \
  X(zip_name_locate)                            \
  X(zip_open)                                   \
  X(zip_register_progress_callback_with_state)  \
  X(zip_set_file_compression)                   \
  X(zip_source_buffer)                          \
  X(zip_source_free)                            \
  X(zip_source_function)                        \
  X(zip_stat_index)                             \
  X(zip_stat_init)                              \
  X(zip_strerror)

#define YARN_DECLARE_POINTER(name) static __typeof__(&name) real_##name;
YARN_ZIP_FUNCTIONS(YARN_DECLARE_POINTER)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char failure[512];

static void load(void) {
  static const char *const names[] = {
#if defined(__APPLE__)
      "libzip.5.dylib", "/opt/homebrew/lib/libzip.5.dylib", "/usr/local/lib/libzip.5.dylib",
#else
      "libzip.so.5", "libzip.so.4",
#endif
  };
  void *handle = NULL;
  for (size_t i = 0; i < sizeof names / sizeof names[0] && handle == NULL; i++) {
    handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  }
  if (handle == NULL) {
    const char *reason = dlerror();
    snprintf(failure, sizeof failure, "libzip could not be loaded (%s); install it (Debian: apt-get install libzip4)",
             reason ? reason : "not found");
    return;
  }
#define YARN_RESOLVE(name)                                                                  \
  real_##name = (__typeof__(&name))dlsym(handle, #name);                                    \
  if (real_##name == NULL) {                                                                \
    snprintf(failure, sizeof failure, "the libzip found lacks %s (libzip 1.7 or later is needed)", #name); \
    return;                                                                                 \
  }
  YARN_ZIP_FUNCTIONS(YARN_RESOLVE)
  loaded = 1;
}

int yarn_libzip_load(char *message, size_t size) {
  pthread_once(&once, load);
  if (!loaded && message != NULL && size > 0) {
    snprintf(message, size, "%s", failure);
  }
  return loaded;
}

/* Reached only when Swift calls libzip before yarn_libzip_load() succeeded: a programming
 * error, not bad input. */
static void require_loaded(const char *name) {
  pthread_once(&once, load);
  if (!loaded) {
    fprintf(stderr, "yarn: %s called but libzip is not loaded: %s\n", name, failure);
    abort();
  }
}

#define CALL(name, ...) (require_loaded(#name), real_##name(__VA_ARGS__))

int zip_close(zip_t *archive) { return CALL(zip_close, archive); }
void zip_discard(zip_t *archive) { CALL(zip_discard, archive); }
void zip_error_fini(zip_error_t *error) { CALL(zip_error_fini, error); }
void zip_error_init(zip_error_t *error) { CALL(zip_error_init, error); }
void zip_error_init_with_code(zip_error_t *error, int code) { CALL(zip_error_init_with_code, error, code); }
void zip_error_set(zip_error_t *error, int zip_code, int system_code) {
  CALL(zip_error_set, error, zip_code, system_code);
}
const char *zip_error_strerror(zip_error_t *error) { return CALL(zip_error_strerror, error); }
zip_int64_t zip_error_to_data(const zip_error_t *error, void *data, zip_uint64_t length) {
  return CALL(zip_error_to_data, error, data, length);
}
int zip_fclose(zip_file_t *file) { return CALL(zip_fclose, file); }
zip_int64_t zip_file_add(zip_t *archive, const char *name, zip_source_t *source, zip_flags_t flags) {
  return CALL(zip_file_add, archive, name, source, flags);
}
int zip_file_get_external_attributes(zip_t *archive, zip_uint64_t index, zip_flags_t flags, zip_uint8_t *opsys,
                                     zip_uint32_t *attributes) {
  return CALL(zip_file_get_external_attributes, archive, index, flags, opsys, attributes);
}
int zip_file_set_mtime(zip_t *archive, zip_uint64_t index, time_t mtime, zip_flags_t flags) {
  return CALL(zip_file_set_mtime, archive, index, mtime, flags);
}
const char *zip_file_strerror(zip_file_t *file) { return CALL(zip_file_strerror, file); }
zip_file_t *zip_fopen_index(zip_t *archive, zip_uint64_t index, zip_flags_t flags) {
  return CALL(zip_fopen_index, archive, index, flags);
}
zip_int64_t zip_fread(zip_file_t *file, void *buffer, zip_uint64_t length) {
  return CALL(zip_fread, file, buffer, length);
}
zip_int64_t zip_get_num_entries(zip_t *archive, zip_flags_t flags) {
  return CALL(zip_get_num_entries, archive, flags);
}
zip_int64_t zip_name_locate(zip_t *archive, const char *name, zip_flags_t flags) {
  return CALL(zip_name_locate, archive, name, flags);
}
zip_t *zip_open(const char *path, int flags, int *error) { return CALL(zip_open, path, flags, error); }
int zip_register_progress_callback_with_state(zip_t *archive, double precision, zip_progress_callback callback,
                                              void (*ud_free)(void *), void *ud) {
  return CALL(zip_register_progress_callback_with_state, archive, precision, callback, ud_free, ud);
}
int zip_set_file_compression(zip_t *archive, zip_uint64_t index, zip_int32_t method, zip_uint32_t level) {
  return CALL(zip_set_file_compression, archive, index, method, level);
}
zip_source_t *zip_source_buffer(zip_t *archive, const void *data, zip_uint64_t length, int freep) {
  return CALL(zip_source_buffer, archive, data, length, freep);
}
void zip_source_free(zip_source_t *source) { CALL(zip_source_free, source); }
zip_source_t *zip_source_function(zip_t *archive, zip_source_callback callback, void *ud) {
  return CALL(zip_source_function, archive, callback, ud);
}
int zip_stat_index(zip_t *archive, zip_uint64_t index, zip_flags_t flags, zip_stat_t *stat) {
  return CALL(zip_stat_index, archive, index, flags, stat);
}
void zip_stat_init(zip_stat_t *stat) { CALL(zip_stat_init, stat); }
const char *zip_strerror(zip_t *archive) { return CALL(zip_strerror, archive); }
