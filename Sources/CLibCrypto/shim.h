// CLibCrypto: SHA-256 from Debian's libcrypto (OpenSSL 3), for the log's hash chain.
//
// Why not swift-crypto: its SHA256 allocates a context object and zeroizes it twice per
// hash, which cost more than the hashing itself on the log's hot path (a hash per line;
// measured in docs/decisions.md). OpenSSL's low-level API hashes with a context on the
// caller's stack and uses the CPU's SHA extensions. Only EventStore imports this module
// (`internal import`), and only EventStore/LibCrypto.swift calls it.
#ifndef LIFESIM_CLIBCRYPTO_SHIM_H
#define LIFESIM_CLIBCRYPTO_SHIM_H

// OpenSSL 3.0 marks SHA256_Init/Update/Final deprecated in favour of EVP, whose
// per-call provider dispatch is what this module exists to avoid. They remain part of
// OpenSSL 3's API and ABI; this define keeps the deprecation attributes out of Swift.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/sha.h>

#endif
