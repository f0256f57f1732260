#ifndef OBJDB_CCRYPTO_SHIM_H
#define OBJDB_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/hmac.h>
#endif
