#ifndef FIELDRIG_COPENSSL_SHIM_H
#define FIELDRIG_COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>

/// EVP_PKEY_Q_keygen is variadic; Swift cannot call it. A P-256 key for a self-signed certificate.
static inline EVP_PKEY *fieldrig_generate_p256_key(void) {
    return EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
}

/// SSL_CTX_set_min_proto_version is a macro over SSL_CTX_ctrl.
static inline int fieldrig_ssl_ctx_min_tls12(SSL_CTX *ctx) {
    return (int)SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
}
#endif
