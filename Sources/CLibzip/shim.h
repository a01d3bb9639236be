#ifndef YARN_CLIBZIP_SHIM_H
#define YARN_CLIBZIP_SHIM_H
#include <zip.h>
#endif
