// CSHA256Lanes: SHA-256 of four messages side by side with the x86 SHA extensions.
//
// Checking a log's hash chain hashes every line, each after the digest recorded on the line
// before it, so the lines can be hashed in any order. One message at a time, each SHA round
// waits for the one before; four messages interleaved keep the SHA unit busy (figures in
// docs/decisions.md). Only EventStore imports this module (`internal import`), and only
// EventStore/LinkHasher.swift calls it; where the CPU lacks the extensions, it calls libcrypto.
#ifndef LIFESIM_SHA256_LANES_H
#define LIFESIM_SHA256_LANES_H

#include <stdint.h>

/// Four SHA-256 states, each in the word order the SHA instructions keep (not the digest's).
typedef struct {
  uint32_t words[4][8];
} lifesim_sha256_lanes;

/// 1 when this CPU has the SHA extensions, SSSE3 and SSE4.1 that the other functions need; 0 otherwise.
int lifesim_sha256_lanes_supported(void);

/// Starts a new message in lane `lane` (0–3).
void lifesim_sha256_lanes_reset(lifesim_sha256_lanes *lanes, int lane);

/// Hashes one 64-byte block into each lane: `blocks[i]` into lane i.
void lifesim_sha256_lanes_block(lifesim_sha256_lanes *lanes, const uint8_t *const blocks[4]);

/// Hashes one 64-byte block into lane `lane` alone (the last message left, once the others are done).
void lifesim_sha256_lanes_block_one(lifesim_sha256_lanes *lanes, int lane, const uint8_t *block);

/// Writes the 32-byte digest of lane `lane`, once its message's last (padded) block is hashed.
void lifesim_sha256_lanes_digest(const lifesim_sha256_lanes *lanes, int lane, uint8_t *digest);

/// 1 when the 32-byte `digest`, written as lowercase hex, is the 64 bytes at `hex`; 0 otherwise.
int lifesim_sha256_hex_matches(const uint8_t *digest, const uint8_t *hex);

#endif
