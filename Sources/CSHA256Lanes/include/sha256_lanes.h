// CSHA256Lanes: SHA-256 with the x86 SHA extensions, of four messages side by side, or of one.
//
// Checking a log's hash chain hashes every line, each after the digest recorded on the line
// before it, so the lines can be hashed in any order. One message at a time, each SHA round
// waits for the one before; four messages interleaved keep the SHA unit busy (figures in
// docs/decisions.md). Only EventStore imports this module (`internal import`), and only
// EventStore/LinkHasher.swift calls it; where the CPU lacks the extensions, it calls libcrypto.
#ifndef LIFESIM_SHA256_LANES_H
#define LIFESIM_SHA256_LANES_H

#include <stddef.h>
#include <stdint.h>

/// One link of a hash chain: the 64 hex digits it links onto, then its body, hashed as one
/// message, whose digest should be the 64 lowercase hex digits recorded for it.
typedef struct {
  const uint8_t *previous;
  const uint8_t *body;
  size_t length;
  const uint8_t *recorded;
} lifesim_sha256_link;

/// 1 when this CPU has the SHA extensions, SSSE3 and SSE4.1 that the other functions need; 0 otherwise.
int lifesim_sha256_lanes_supported(void);

/// Hashes the `count` links four at a time, each lane taking the next link as soon as it is
/// done, and compares each digest with its recorded hex. Returns `count` when every one
/// matches; else the index of a link that does not (the first found, in an order of its own),
/// and hashes no more.
size_t lifesim_sha256_links_check(const lifesim_sha256_link *links, size_t count);

/// Writes the 64 lowercase hex digits of SHA-256(previous ‖ a ‖ b) to `hex`, `previous` being
/// 64 bytes, or NULL for none: one link of a chain as it is written, in one lane (the next link
/// needs this one's digest), without libcrypto's context, copies and clean-up for each.
void lifesim_sha256_link_hex(const uint8_t *previous, const uint8_t *a, size_t a_length,
                             const uint8_t *b, size_t b_length, uint8_t *hex);

#endif
