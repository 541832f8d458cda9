// OpenSSL's libcrypto (libssl3 on Debian), for ligas-client's SHA-256 of image streams: its EVP
// digest API only.
#include <openssl/evp.h>
