#ifndef RELAY_CCRYPTO_SHIM_H
#define RELAY_CCRYPTO_SHIM_H
// OpenSSL's libcrypto, for SHA-256 only (Linux; macOS uses CryptoKit).
#include <openssl/evp.h>
#endif
