// SHA-256 (FIPS 180-4) with the x86 SHA extensions, four messages interleaved. The state of
// each message lives in two vectors, ABEF and CDGH, the layout SHA256RNDS2 works on; the
// message schedule is four words per vector (SHA256MSG1, PALIGNR, SHA256MSG2).
#include "sha256_lanes.h"

#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

#define LANES_TARGET __attribute__((target("sha,sse4.1,ssse3")))

static const uint32_t round_constants[64] = {
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static const uint32_t initial_hash[8] = {
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

int lifesim_sha256_lanes_supported(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
  int ssse3 = (c >> 9) & 1, sse41 = (c >> 19) & 1;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
  int sha = (b >> 29) & 1;
  return ssse3 && sse41 && sha;
}

// Four SHA-256 states, each in the word order the SHA instructions keep (not the digest's).
typedef struct {
  uint32_t words[4][8];
} lane_states;

LANES_TARGET static void reset_lane(lane_states *lanes, int lane) {
  // A B C D and E F G H as the rounds want them: ABEF and CDGH, each from its highest word down.
  __m128i abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)initial_hash), 0xB1);
  __m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(initial_hash + 4)), 0x1B);
  _mm_storeu_si128((__m128i *)lanes->words[lane], _mm_alignr_epi8(abcd, efgh, 8));
  _mm_storeu_si128((__m128i *)(lanes->words[lane] + 4), _mm_blend_epi16(efgh, abcd, 0xF0));
}

// Hashes one block into each of `count` lanes (1 or 4, a constant where it is called, so
// that the loops over lanes unroll and the rounds of the lanes interleave).
LANES_TARGET static inline void hash_blocks(lane_states *lanes, int first, int count,
                                            const uint8_t *const *blocks) {
  const __m128i big_endian = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i abef[4], cdgh[4], schedule[4][4];
  for (int l = 0; l < count; l++) {
    abef[l] = _mm_loadu_si128((const __m128i *)lanes->words[first + l]);
    cdgh[l] = _mm_loadu_si128((const __m128i *)(lanes->words[first + l] + 4));
  }
  // Sixteen groups of four rounds; group j uses message words 4j…4j+3.
  for (int j = 0; j < 16; j++) {
    const __m128i k = _mm_loadu_si128((const __m128i *)(round_constants + 4 * j));
    __m128i words[4];
    for (int l = 0; l < count; l++) {
      if (j < 4) {
        schedule[l][j] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blocks[l] + 16 * j)), big_endian);
      } else {
        // W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16], four words at a time.
        __m128i partial = _mm_add_epi32(_mm_sha256msg1_epu32(schedule[l][j & 3], schedule[l][(j - 3) & 3]),
                                        _mm_alignr_epi8(schedule[l][(j - 1) & 3], schedule[l][(j - 2) & 3], 4));
        schedule[l][j & 3] = _mm_sha256msg2_epu32(partial, schedule[l][(j - 1) & 3]);
      }
      words[l] = _mm_add_epi32(schedule[l][j & 3], k);
    }
    // The lanes' rounds alternate, so that no round waits on the one just before it.
    for (int l = 0; l < count; l++) cdgh[l] = _mm_sha256rnds2_epu32(cdgh[l], abef[l], words[l]);
    for (int l = 0; l < count; l++) abef[l] = _mm_sha256rnds2_epu32(abef[l], cdgh[l], _mm_shuffle_epi32(words[l], 0x0E));
  }
  for (int l = 0; l < count; l++) {
    __m128i *state = (__m128i *)lanes->words[first + l];
    _mm_storeu_si128(state, _mm_add_epi32(_mm_loadu_si128(state), abef[l]));
    _mm_storeu_si128(state + 1, _mm_add_epi32(_mm_loadu_si128(state + 1), cdgh[l]));
  }
}

// Writes the 32-byte digest of lane `lane`, once its message's last (padded) block is hashed.
LANES_TARGET static void lane_digest(const lane_states *lanes, int lane, uint8_t *digest) {
  __m128i abef = _mm_loadu_si128((const __m128i *)lanes->words[lane]);
  __m128i cdgh = _mm_loadu_si128((const __m128i *)(lanes->words[lane] + 4));
  __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
  __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
  uint32_t words[8];
  _mm_storeu_si128((__m128i *)words, _mm_blend_epi16(feba, dchg, 0xF0));
  _mm_storeu_si128((__m128i *)(words + 4), _mm_alignr_epi8(dchg, feba, 8));
  for (int i = 0; i < 8; i++) {
    digest[4 * i] = (uint8_t)(words[i] >> 24);
    digest[4 * i + 1] = (uint8_t)(words[i] >> 16);
    digest[4 * i + 2] = (uint8_t)(words[i] >> 8);
    digest[4 * i + 3] = (uint8_t)words[i];
  }
}

// The digest's 32 bytes as 64 lowercase hex digits, 16 at a time: each byte's nibbles spread
// into two bytes, then looked up among the digits with PSHUFB.
LANES_TARGET static inline void hex_digits(const uint8_t *digest, __m128i text[4]) {
  const __m128i digits = _mm_setr_epi8('0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f');
  const __m128i nibble = _mm_set1_epi8(0x0F);
  for (int half = 0; half < 2; half++) {
    __m128i bytes = _mm_loadu_si128((const __m128i *)(digest + 16 * half));
    __m128i high = _mm_and_si128(_mm_srli_epi16(bytes, 4), nibble), low = _mm_and_si128(bytes, nibble);
    text[2 * half] = _mm_shuffle_epi8(digits, _mm_unpacklo_epi8(high, low));
    text[2 * half + 1] = _mm_shuffle_epi8(digits, _mm_unpackhi_epi8(high, low));
  }
}

// Whether the digest's hex digits are `hex`, compared at once.
LANES_TARGET static int hex_matches(const uint8_t *digest, const uint8_t *hex) {
  __m128i text[4], difference = _mm_setzero_si128();
  hex_digits(digest, text);
  for (int i = 0; i < 4; i++) difference = _mm_or_si128(difference, _mm_xor_si128(text[i], _mm_loadu_si128((const __m128i *)(hex + 16 * i))));
  return _mm_testz_si128(difference, difference);
}

// Writes the digest's hex digits to `hex`.
LANES_TARGET static void write_hex(const uint8_t *digest, uint8_t *hex) {
  __m128i text[4];
  hex_digits(digest, text);
  for (int i = 0; i < 4; i++) _mm_storeu_si128((__m128i *)(hex + 16 * i), text[i]);
}

enum { block_bytes = 64 };

// A lane's link: its blocks are the 64 hex digits it links onto, the body's whole blocks
// where they lie, then the body's last bytes padded in the lane's tail.
typedef struct {
  size_t link;
  const uint8_t *previous;
  const uint8_t *body;
  // Blocks hashed so far, all the link's blocks, and the body's whole blocks.
  size_t done, total, whole;
  int busy;
} lane_link;

// Lane `l` takes link `index`: its state starts over and its tail is padded (FIPS 180-4
// §5.1.1: a 1 bit, zeros, and the message's length in bits in the last 8 bytes).
LANES_TARGET static void start_link(lane_states *state, lane_link *lane, uint8_t *tail, int l,
                                    const lifesim_sha256_link *link, size_t index) {
  size_t n = link->length, whole = n / block_bytes, rest = n % block_bytes;
  size_t tail_blocks = rest + 9 <= block_bytes ? 1 : 2;
  memset(tail, 0, tail_blocks * block_bytes);
  if (rest > 0) memcpy(tail, link->body + whole * block_bytes, rest);
  tail[rest] = 0x80;
  uint64_t bits = ((uint64_t)n + 64) * 8;
  for (int i = 0; i < 8; i++) tail[tail_blocks * block_bytes - 1 - i] = (uint8_t)(bits >> (8 * i));
  reset_lane(state, l);
  *lane = (lane_link){index, link->previous, link->body, 0, 1 + whole + tail_blocks, whole, 1};
}

// The block lane `lane` hashes next (an idle lane hashes its tail as filler).
static const uint8_t *next_block(const lane_link *lane, const uint8_t *tail) {
  if (!lane->busy) return tail;
  if (lane->done == 0) return lane->previous;
  if (lane->done <= lane->whole) return lane->body + (lane->done - 1) * block_bytes;
  return tail + (lane->done - 1 - lane->whole) * block_bytes;
}

LANES_TARGET size_t lifesim_sha256_links_check(const lifesim_sha256_link *links, size_t count) {
  lane_states state;
  lane_link lanes[4];
  uint8_t tails[4][2 * block_bytes];
  const uint8_t *blocks[4];
  uint8_t digest[32];
  memset(lanes, 0, sizeof lanes);
  memset(tails, 0, sizeof tails);
  size_t next = 0;
  int busy = 0;
  for (;;) {
    for (int l = 0; l < 4; l++) {
      if (lanes[l].busy || next == count) continue;
      start_link(&state, &lanes[l], tails[l], l, &links[next], next);
      next++;
      busy++;
    }
    if (busy == 0) return count;
    if (busy == 1 && next == count) {
      // The last link alone (a long line would have the idle lanes hash filler for its length).
      int l = 0;
      while (!lanes[l].busy) l++;
      blocks[0] = next_block(&lanes[l], tails[l]);
      hash_blocks(&state, l, 1, blocks);
    } else {
      for (int l = 0; l < 4; l++) blocks[l] = next_block(&lanes[l], tails[l]);
      hash_blocks(&state, 0, 4, blocks);
    }
    for (int l = 0; l < 4; l++) {
      if (!lanes[l].busy || ++lanes[l].done < lanes[l].total) continue;
      lane_digest(&state, l, digest);
      if (!hex_matches(digest, links[lanes[l].link].recorded)) return lanes[l].link;
      lanes[l].busy = 0;
      busy--;
    }
  }
}

// Four rounds of one message: its schedule words `w` (plus the round constants) into the state.
#define FOUR_ROUNDS(w, j)                                                                  \
  do {                                                                                     \
    __m128i k_ = _mm_add_epi32((w), _mm_loadu_si128((const __m128i *)(round_constants + 4 * (j)))); \
    cdgh = _mm_sha256rnds2_epu32(cdgh, abef, k_);                                          \
    abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(k_, 0x0E));                 \
  } while (0)

// The next four schedule words into `a`, from the sixteen before them in a, b, c, d (oldest first).
#define NEXT_WORDS(a, b, c, d) \
  (a) = _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32((a), (b)), _mm_alignr_epi8((d), (c), 4)), (d))

// Hashes one block of one message, its state in `state` (ABEF, CDGH), every round written out:
// a message hashed alone waits on each round, and a loop's indexing and spills add to that.
LANES_TARGET static void hash_one_block(__m128i state[2], const uint8_t *block) {
  const __m128i big_endian = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i abef = state[0], cdgh = state[1];
  __m128i w0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)block), big_endian);
  __m128i w1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(block + 16)), big_endian);
  __m128i w2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(block + 32)), big_endian);
  __m128i w3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(block + 48)), big_endian);
  FOUR_ROUNDS(w0, 0);
  FOUR_ROUNDS(w1, 1);
  FOUR_ROUNDS(w2, 2);
  FOUR_ROUNDS(w3, 3);
  for (int j = 4; j < 16; j += 4) {
    NEXT_WORDS(w0, w1, w2, w3);
    FOUR_ROUNDS(w0, j);
    NEXT_WORDS(w1, w2, w3, w0);
    FOUR_ROUNDS(w1, j + 1);
    NEXT_WORDS(w2, w3, w0, w1);
    FOUR_ROUNDS(w2, j + 2);
    NEXT_WORDS(w3, w0, w1, w2);
    FOUR_ROUNDS(w3, j + 3);
  }
  state[0] = _mm_add_epi32(state[0], abef);
  state[1] = _mm_add_epi32(state[1], cdgh);
}

LANES_TARGET void lifesim_sha256_link_hex(const uint8_t *previous, const uint8_t *a, size_t a_length,
                                          const uint8_t *b, size_t b_length, uint8_t *hex) {
  lane_states lanes;
  reset_lane(&lanes, 0);
  __m128i state[2] = {_mm_loadu_si128((const __m128i *)lanes.words[0]), _mm_loadu_si128((const __m128i *)(lanes.words[0] + 4))};
  uint64_t length = (previous ? 64 : 0) + (uint64_t)a_length + (uint64_t)b_length;
  if (previous) hash_one_block(state, previous);
  // Whole blocks of `a` where they lie; its last bytes, then `b`, gathered in `pending`.
  for (; a_length >= block_bytes; a += block_bytes, a_length -= block_bytes) hash_one_block(state, a);
  uint8_t pending[2 * block_bytes];
  size_t filled = a_length;
  if (filled > 0) memcpy(pending, a, filled);
  while (b_length > 0) {
    size_t taken = block_bytes - filled < b_length ? block_bytes - filled : b_length;
    memcpy(pending + filled, b, taken);
    filled += taken;
    b += taken;
    b_length -= taken;
    if (filled == block_bytes) {
      hash_one_block(state, pending);
      filled = 0;
    }
  }
  // FIPS 180-4 §5.1.1: a 1 bit, zeros, and the message's length in bits in the last 8 bytes.
  size_t tail_blocks = filled + 9 <= block_bytes ? 1 : 2;
  memset(pending + filled, 0, tail_blocks * block_bytes - filled);
  pending[filled] = 0x80;
  uint64_t bits = length * 8;
  for (int i = 0; i < 8; i++) pending[tail_blocks * block_bytes - 1 - i] = (uint8_t)(bits >> (8 * i));
  for (size_t k = 0; k < tail_blocks; k++) hash_one_block(state, pending + k * block_bytes);
  _mm_storeu_si128((__m128i *)lanes.words[0], state[0]);
  _mm_storeu_si128((__m128i *)(lanes.words[0] + 4), state[1]);
  uint8_t digest[32];
  lane_digest(&lanes, 0, digest);
  write_hex(digest, hex);
}

#else

#include <stdlib.h>

// Without the x86 SHA extensions EventStore hashes with libcrypto and never calls this.
int lifesim_sha256_lanes_supported(void) { return 0; }
size_t lifesim_sha256_links_check(const lifesim_sha256_link *links, size_t count) {
  (void)links; (void)count;
  abort();
}
void lifesim_sha256_link_hex(const uint8_t *previous, const uint8_t *a, size_t a_length,
                             const uint8_t *b, size_t b_length, uint8_t *hex) {
  (void)previous; (void)a; (void)a_length; (void)b; (void)b_length; (void)hex;
  abort();
}
#endif
