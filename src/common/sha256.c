/* sha256.c — SHA-256 as FIPS 180-4 specifies it (sha256.h).
 *
 * Two implementations of the block function: portable C, and the x86
 * SHA extensions (SHA-NI: Intel since Goldmont/Ice Lake, AMD since Zen),
 * about 8x faster; the CPU is asked once, when the library loads.  Every
 * message is hashed whole by its sender and its receiver, so with large
 * answers (squeue over 50,000 jobs: 30 MB) this is most of their cost.
 */
#include <pthread.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>
#define HAVE_SHANI_CODE 1
#endif

#include "common/sha256.h"

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b,
	0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
	0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7,
	0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152,
	0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
	0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
	0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
	0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t _ror(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static void _block_c(uint32_t h[8], const uint8_t *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, k, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t) p[4 * i] << 24 | (uint32_t) p[4 * i + 1] << 16 |
		       (uint32_t) p[4 * i + 2] << 8 | p[4 * i + 3];
	for (i = 16; i < 64; i++) {
		uint32_t s0 = _ror(w[i - 15], 7) ^ _ror(w[i - 15], 18) ^
			      (w[i - 15] >> 3);
		uint32_t s1 = _ror(w[i - 2], 17) ^ _ror(w[i - 2], 19) ^
			      (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = h[0]; b = h[1]; c = h[2]; d = h[3];
	e = h[4]; f = h[5]; g = h[6]; k = h[7];
	for (i = 0; i < 64; i++) {
		t1 = k + (_ror(e, 6) ^ _ror(e, 11) ^ _ror(e, 25)) +
		     ((e & f) ^ (~e & g)) + K[i] + w[i];
		t2 = (_ror(a, 2) ^ _ror(a, 13) ^ _ror(a, 22)) +
		     ((a & b) ^ (a & c) ^ (b & c));
		k = g; g = f; f = e; e = d + t1;
		d = c; c = b; b = a; a = t1 + t2;
	}
	h[0] += a; h[1] += b; h[2] += c; h[3] += d;
	h[4] += e; h[5] += f; h[6] += g; h[7] += k;
}

static void _blocks_c(uint32_t h[8], const uint8_t *p, size_t n)
{
	for (; n; n--, p += 64)
		_block_c(h, p);
}

#ifdef HAVE_SHANI_CODE
/* 16 groups of 4 rounds; the message schedule in a ring of 4 vectors. */
__attribute__((target("sha,sse4.1,ssse3")))
static void _blocks_shani(uint32_t h[8], const uint8_t *p, size_t n)
{
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL,
					     0x0405060700010203ULL);
	__m128i st0, st1, tmp, save0, save1, w[4], m;

	tmp = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[0]), 0xB1);
	st1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[4]), 0x1B);
	st0 = _mm_alignr_epi8(tmp, st1, 8);            /* ABEF */
	st1 = _mm_blend_epi16(st1, tmp, 0xF0);         /* CDGH */
	for (; n; n--, p += 64) {
		save0 = st0;
		save1 = st1;
		for (int g = 0; g < 16; g++) {
			if (g < 4) {
				w[g] = _mm_shuffle_epi8(_mm_loadu_si128(
					(const __m128i *)(p + 16 * g)), bswap);
			} else {
				/* W[t-16] + s0(W[t-15]) + W[t-7], + s1(W[t-2]) */
				tmp = _mm_sha256msg1_epu32(w[g & 3],
							   w[(g + 1) & 3]);
				tmp = _mm_add_epi32(tmp, _mm_alignr_epi8(
					w[(g + 3) & 3], w[(g + 2) & 3], 4));
				w[g & 3] = _mm_sha256msg2_epu32(tmp,
								w[(g + 3) & 3]);
			}
			m = _mm_add_epi32(w[g & 3], _mm_loadu_si128(
				(const __m128i *)&K[4 * g]));
			st1 = _mm_sha256rnds2_epu32(st1, st0, m);
			m = _mm_shuffle_epi32(m, 0x0E);
			st0 = _mm_sha256rnds2_epu32(st0, st1, m);
		}
		st0 = _mm_add_epi32(st0, save0);
		st1 = _mm_add_epi32(st1, save1);
	}
	tmp = _mm_shuffle_epi32(st0, 0x1B);            /* FEBA */
	st1 = _mm_shuffle_epi32(st1, 0xB1);            /* DCHG */
	st0 = _mm_blend_epi16(tmp, st1, 0xF0);         /* DCBA */
	st1 = _mm_alignr_epi8(st1, tmp, 8);            /* HGFE */
	_mm_storeu_si128((__m128i *)&h[0], st0);
	_mm_storeu_si128((__m128i *)&h[4], st1);
}

static int _cpu_has_shani(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSE4_1) ||
	    !(c & bit_SSSE3))
		return 0;
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
		return 0;
	return (b >> 29) & 1;              /* SHA */
}
#endif

static void (*_blocks)(uint32_t h[8], const uint8_t *p, size_t n) = _blocks_c;

static pthread_once_t _pick_once = PTHREAD_ONCE_INIT;

/* On first use, not at load: CPUID traps to the hypervisor in a VM, and
 * most processes that load the library (every command) hash nothing. */
static void _pick_impl(void)
{
#ifdef HAVE_SHANI_CODE
	if (_cpu_has_shani())
		_blocks = _blocks_shani;
#endif
}

int sha256_use_accel(int on)
{
	pthread_once(&_pick_once, _pick_impl);
	_blocks = _blocks_c;
#ifdef HAVE_SHANI_CODE
	if (on && _cpu_has_shani())
		_blocks = _blocks_shani;
#endif
	return _blocks != _blocks_c;
}

static void _block(uint32_t h[8], const uint8_t *p)
{
	_blocks(h, p, 1);
}

void sha256_init(sha256_t *s)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	pthread_once(&_pick_once, _pick_impl);
	memcpy(s->h, iv, sizeof(iv));
	s->bytes = 0;
	s->fill = 0;
}

void sha256_update(sha256_t *s, const void *data, size_t len)
{
	const uint8_t *p = data;

	s->bytes += len;
	if (s->fill) {
		size_t n = 64 - s->fill < len ? 64 - s->fill : len;

		memcpy(s->block + s->fill, p, n);
		s->fill += n;
		p += n;
		len -= n;
		if (s->fill < 64)
			return;
		_block(s->h, s->block);
		s->fill = 0;
	}
	if (len >= 64) {
		_blocks(s->h, p, len / 64);
		p += len & ~(size_t)63;
		len &= 63;
	}
	memcpy(s->block, p, len);
	s->fill = len;
}

void sha256_final(sha256_t *s, uint8_t out[SHA256_LEN])
{
	uint64_t bits = s->bytes * 8;
	int i;

	s->block[s->fill++] = 0x80;
	if (s->fill > 56) {
		memset(s->block + s->fill, 0, 64 - s->fill);
		_block(s->h, s->block);
		s->fill = 0;
	}
	memset(s->block + s->fill, 0, 56 - s->fill);
	for (i = 0; i < 8; i++)
		s->block[56 + i] = (uint8_t) (bits >> (56 - 8 * i));
	_block(s->h, s->block);
	for (i = 0; i < 8; i++) {
		out[4 * i] = (uint8_t) (s->h[i] >> 24);
		out[4 * i + 1] = (uint8_t) (s->h[i] >> 16);
		out[4 * i + 2] = (uint8_t) (s->h[i] >> 8);
		out[4 * i + 3] = (uint8_t) s->h[i];
	}
	memset(s->block, 0, sizeof(s->block));
}

void sha256(const void *data, size_t len, uint8_t out[SHA256_LEN])
{
	sha256_t s;

	sha256_init(&s);
	sha256_update(&s, data, len);
	sha256_final(&s, out);
}

void hmac_sha256_key(hmac_sha256_key_t *k, const void *key, size_t key_len)
{
	uint8_t kb[64] = { 0 }, pad[64];

	if (key_len > sizeof(kb))
		sha256(key, key_len, kb);
	else if (key_len)
		memcpy(kb, key, key_len);
	for (int i = 0; i < 64; i++)
		pad[i] = kb[i] ^ 0x36;
	sha256_init(&k->inner);
	sha256_update(&k->inner, pad, sizeof(pad));
	for (int i = 0; i < 64; i++)
		pad[i] = kb[i] ^ 0x5c;
	sha256_init(&k->outer);
	sha256_update(&k->outer, pad, sizeof(pad));
	explicit_bzero(kb, sizeof(kb));
	explicit_bzero(pad, sizeof(pad));
}

void hmac_sha256_init(const hmac_sha256_key_t *k, sha256_t *s)
{
	*s = k->inner;
}

void hmac_sha256_final(const hmac_sha256_key_t *k, sha256_t *s,
		       uint8_t out[SHA256_LEN])
{
	uint8_t d[SHA256_LEN];
	sha256_t o = k->outer;

	sha256_final(s, d);
	sha256_update(&o, d, sizeof(d));
	sha256_final(&o, out);
}

void hmac_sha256(const hmac_sha256_key_t *k, const void *data, size_t len,
		 uint8_t out[SHA256_LEN])
{
	sha256_t s;

	hmac_sha256_init(k, &s);
	sha256_update(&s, data, len);
	hmac_sha256_final(k, &s, out);
}

int sha256_equal(const void *a, const void *b, size_t n)
{
	const volatile uint8_t *x = a, *y = b;
	uint8_t d = 0;

	for (size_t i = 0; i < n; i++)
		d |= x[i] ^ y[i];
	return d == 0;
}
