#ifndef YARN_CCRYPTO_SHIM_H
#define YARN_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#endif
