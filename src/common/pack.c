/* pack.c — the wire and state-file encoding (see pack.h).
 *
 * Layout choices that pack.h leaves open:
 *   - double: the IEEE-754 bits as a big-endian u64;
 *   - string arrays and u32 arrays: u32 count, then the elements; a count of
 *     0 unpacks as a NULL array; a NULL element of a string array is sent
 *     as "" so that an unpacked array is always NULL-terminated exactly at n;
 *   - bitmap: u32 bit count (UINT32_MAX = NULL bitmap), then the words as
 *     big-endian u64s; bits past the count must be zero.
 * Every unpack leaves the read cursor where it was when it fails.
 */
#include "common/pack.h"

#include <string.h>

#include "common/xmalloc.h"

#define BITMAP_NULL UINT32_MAX
/* A buffer created this big (the controller's squeue reply: ~1 MB at
 * 10,000 jobs) goes into huge pages (xmalloc_big): a fresh 4 KiB page
 * costs a fault each, 10-15 us on the VMs of doc/dev/perf.md. */
#define BUF_BIG ((size_t)512 << 10)

struct buf {
	uint8_t *data;
	size_t   size;          /* allocated bytes (0 for a view) */
	size_t   len;           /* bytes written / readable */
	size_t   off;           /* read cursor */
	bool     owned;         /* false: a view over the caller's bytes */
	bool     big;           /* data is an xmalloc_big block */
	void   **block;         /* buf_view_in: the caller's block holder */
	uint16_t proto;         /* protocol version of the bytes; 0: ours */
};

/* ---- buffers ---- */

void buf_set_proto(buf_t *b, uint16_t version)
{
	b->proto = version;
}

uint16_t buf_proto(const buf_t *b)
{
	return b->proto;
}

buf_t *buf_create(size_t initial)
{
	buf_t *b = xmalloc(sizeof(*b));

	b->size = initial ? initial : 64;
	if (b->size >= BUF_BIG) {
		b->data = xmalloc_big(b->size);
		b->size = xsize_big(b->data);
		b->big = true;
	} else {
		b->data = xmalloc(b->size);
	}
	b->owned = true;
	return b;
}

buf_t *buf_from_copy(const void *data, size_t len)
{
	buf_t *b = buf_create(len);

	if (len)
		memcpy(b->data, data, len);
	b->len = len;
	return b;
}

buf_t *buf_view(const void *data, size_t len)
{
	buf_t *b = xmalloc(sizeof(*b));

	b->data = (uint8_t *)data;
	b->len = len;
	b->owned = false;
	return b;
}

buf_t *buf_view_in(const void *data, size_t len, void **block)
{
	buf_t *b = buf_view(data, len);

	b->block = block;
	return b;
}

void *buf_take_block(buf_t *b)
{
	void *blk;

	if (!b->block || !*b->block)
		return NULL;
	blk = *b->block;
	*b->block = NULL;
	return blk;
}

void buf_destroy(buf_t *b)
{
	if (!b)
		return;
	if (b->owned && b->big)
		xfree_big(b->data);
	else if (b->owned)
		xfree(b->data);
	xfree(b);
}

const uint8_t *buf_data(const buf_t *b)
{
	return b->data;
}

size_t buf_len(const buf_t *b)
{
	return b->len;
}

size_t buf_offset(const buf_t *b)
{
	return b->off;
}

size_t buf_remaining(const buf_t *b)
{
	return b->len - b->off;
}

void buf_set_offset(buf_t *b, size_t off)
{
	b->off = off > b->len ? b->len : off;
}

uint8_t *buf_steal(buf_t *b, size_t *len)
{
	uint8_t *p;

	if (b->owned && !b->big) {
		p = b->data;
	} else {
		p = xmalloc(b->len ? b->len : 1);
		if (b->len)
			memcpy(p, b->data, b->len);
	}
	if (len)
		*len = b->len;
	if (b->owned && b->big)
		xfree_big(b->data);
	b->big = false;
	b->data = NULL;
	b->size = 0;
	b->len = 0;
	b->off = 0;
	b->owned = true;
	return p;
}

/* Make room for n more bytes; a view becomes an owned copy first. */
static void buf_reserve(buf_t *b, size_t n)
{
	size_t need = b->len + n;
	size_t size;

	if (need < b->len)
		need = (size_t)-1;     /* xrealloc will fail loudly */
	if (!b->owned) {
		uint8_t *p = xmalloc(need ? need : 1);

		if (b->len)
			memcpy(p, b->data, b->len);
		b->data = p;
		b->size = need ? need : 1;
		b->owned = true;
	}
	if (need <= b->size)
		return;
	size = b->size ? b->size : 64;
	while (size < need)
		size = size * 2 > size ? size * 2 : need;
	/* no zeroing: bytes past len are written before they are read */
	if (b->big) {
		uint8_t *p = xmalloc_big(size);

		memcpy(p, b->data, b->len);
		xfree_big(b->data);
		b->data = p;
		size = xsize_big(p);
	} else {
		b->data = xrealloc(b->data, size);
	}
	b->size = size;
}

static void put_bytes(buf_t *b, const void *p, size_t n)
{
	if (!n)
		return;
	buf_reserve(b, n);
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

/* ---- pack ---- */

void pack8(buf_t *b, uint8_t v)
{
	put_bytes(b, &v, 1);
}

void pack16(buf_t *b, uint16_t v)
{
	uint8_t x[2] = { v >> 8, v };

	put_bytes(b, x, 2);
}

void pack32(buf_t *b, uint32_t v)
{
	uint8_t x[4] = { v >> 24, v >> 16, v >> 8, v };

	put_bytes(b, x, 4);
}

void pack32_at(buf_t *b, size_t off, uint32_t v)
{
	if (!b->owned || off + 4 > b->len)
		return;
	b->data[off] = v >> 24;
	b->data[off + 1] = v >> 16;
	b->data[off + 2] = v >> 8;
	b->data[off + 3] = v;
}

void pack64(buf_t *b, uint64_t v)
{
	pack32(b, (uint32_t)(v >> 32));
	pack32(b, (uint32_t)v);
}

void packbool(buf_t *b, bool v)
{
	pack8(b, v ? 1 : 0);
}

void packdouble(buf_t *b, double v)
{
	uint64_t bits;

	memcpy(&bits, &v, sizeof(bits));
	pack64(b, bits);
}

void pack_time(buf_t *b, time_t t)
{
	pack64(b, (uint64_t)(int64_t)t);
}

void packstr(buf_t *b, const char *s)
{
	size_t n;

	if (!s) {
		pack32(b, 0);
		return;
	}
	n = strlen(s) + 1;
	pack32(b, (uint32_t)n);
	put_bytes(b, s, n);
}

void packmem(buf_t *b, const void *p, uint32_t len)
{
	pack32(b, p ? len : 0);
	if (p)
		put_bytes(b, p, len);
}

void packstr_array(buf_t *b, char *const *arr, uint32_t n)
{
	if (!arr)
		n = 0;
	pack32(b, n);
	for (uint32_t i = 0; i < n; i++)
		packstr(b, arr[i] ? arr[i] : "");
}

void packstr_list(buf_t *b, char *const *arr)
{
	uint32_t n = 0;

	while (arr && arr[n])
		n++;
	packstr_array(b, arr, n);
}

void pack32_array(buf_t *b, const uint32_t *arr, uint32_t n)
{
	if (!arr)
		n = 0;
	pack32(b, n);
	for (uint32_t i = 0; i < n; i++)
		pack32(b, arr[i]);
}

void pack_bitmap(buf_t *b, const bitmap_t *bm)
{
	const uint64_t *w;
	size_t nw;

	if (!bm) {
		pack32(b, BITMAP_NULL);
		return;
	}
	pack32(b, (uint32_t)bitmap_size(bm));
	w = bitmap_words(bm);
	nw = bitmap_nwords(bm);
	for (size_t i = 0; i < nw; i++)
		pack64(b, w[i]);
}

void packbuf(buf_t *b, const buf_t *src)
{
	put_bytes(b, src->data, src->len);
}

void packraw(buf_t *b, const void *p, size_t len)
{
	put_bytes(b, p, len);
}

/* ---- unpack ---- */

static int get_bytes(buf_t *b, void *p, size_t n)
{
	if (buf_remaining(b) < n)
		return -1;
	memcpy(p, b->data + b->off, n);
	b->off += n;
	return 0;
}

int unpack8(buf_t *b, uint8_t *v)
{
	return get_bytes(b, v, 1);
}

int unpack16(buf_t *b, uint16_t *v)
{
	uint8_t x[2];

	if (get_bytes(b, x, 2) < 0)
		return -1;
	*v = (uint16_t)(x[0] << 8 | x[1]);
	return 0;
}

int unpack32(buf_t *b, uint32_t *v)
{
	uint8_t x[4];

	if (get_bytes(b, x, 4) < 0)
		return -1;
	*v = (uint32_t)x[0] << 24 | (uint32_t)x[1] << 16 |
	     (uint32_t)x[2] << 8 | x[3];
	return 0;
}

int unpack64(buf_t *b, uint64_t *v)
{
	uint32_t hi, lo;

	if (buf_remaining(b) < 8)
		return -1;
	unpack32(b, &hi);
	unpack32(b, &lo);
	*v = (uint64_t)hi << 32 | lo;
	return 0;
}

int unpackbool(buf_t *b, bool *v)
{
	uint8_t x;

	if (buf_remaining(b) < 1 || b->data[b->off] > 1)
		return -1;
	unpack8(b, &x);
	*v = x;
	return 0;
}

int unpackdouble(buf_t *b, double *v)
{
	uint64_t bits;

	if (unpack64(b, &bits) < 0)
		return -1;
	memcpy(v, &bits, sizeof(*v));
	return 0;
}

int unpack_time(buf_t *b, time_t *t)
{
	uint64_t v;

	if (unpack64(b, &v) < 0)
		return -1;
	*t = (time_t)(int64_t)v;
	return 0;
}

/* The next string in place: its bytes (NUL included) and length, or -1
 * (offset unchanged) when it is malformed.  NULL with 0 for a NULL string. */
static int str_in_place(buf_t *b, const uint8_t **p, uint32_t *n)
{
	size_t start = b->off;

	*p = NULL;
	if (unpack32(b, n) < 0)
		return -1;
	if (*n == 0)
		return 0;
	*p = b->data + b->off;
	if (*n > PACK_MAX_STR_LEN || *n > buf_remaining(b) ||
	    (*p)[*n - 1] != '\0' || memchr(*p, '\0', *n - 1)) {
		b->off = start;
		return -1;
	}
	b->off += *n;
	return 0;
}

int unpackstr(buf_t *b, char **s)
{
	const uint8_t *p;
	uint32_t n;

	*s = NULL;
	if (str_in_place(b, &p, &n) < 0)
		return -1;
	if (p) {
		*s = xmalloc(n);
		memcpy(*s, p, n);
	}
	return 0;
}

int unpackstr_ref(buf_t *b, char **s)
{
	const uint8_t *p;
	uint32_t n;

	*s = NULL;
	if (str_in_place(b, &p, &n) < 0)
		return -1;
	*s = (char *)p;
	return 0;
}

int unpackmem(buf_t *b, void **p, uint32_t *len, uint32_t max)
{
	size_t start = b->off;
	uint32_t n;

	*p = NULL;
	*len = 0;
	if (unpack32(b, &n) < 0)
		return -1;
	if (n > max || n > buf_remaining(b)) {
		b->off = start;
		return -1;
	}
	if (n) {
		*p = xmalloc(n);
		get_bytes(b, *p, n);
	}
	*len = n;
	return 0;
}

/* Read an element count: within max and the hard cap, and each element
 * needs at least min_elem bytes of the remaining input. */
static int unpack_count(buf_t *b, uint32_t *n, uint32_t max, size_t min_elem)
{
	uint32_t v;

	if (unpack32(b, &v) < 0)
		return -1;
	if (v > max || v > PACK_MAX_ARRAY_LEN ||
	    (size_t)v > buf_remaining(b) / min_elem)
		return -1;
	*n = v;
	return 0;
}

int unpackstr_array(buf_t *b, char ***arr, uint32_t *n, uint32_t max)
{
	size_t start = b->off;
	char **a = NULL;
	uint32_t cnt = 0;

	*arr = NULL;
	*n = 0;
	if (unpack_count(b, &cnt, max, 4) < 0)
		goto fail;
	if (cnt == 0)
		return 0;
	a = xcalloc((size_t)cnt + 1, sizeof(*a));
	for (uint32_t i = 0; i < cnt; i++) {
		if (unpackstr(b, &a[i]) < 0 || !a[i])
			goto fail;
	}
	*arr = a;
	*n = cnt;
	return 0;
fail:
	for (uint32_t j = 0; a && j < cnt; j++)
		xfree(a[j]);
	xfree(a);
	b->off = start;
	return -1;
}

int unpack32_array(buf_t *b, uint32_t **arr, uint32_t *n, uint32_t max)
{
	size_t start = b->off;
	uint32_t cnt;

	*arr = NULL;
	*n = 0;
	if (unpack_count(b, &cnt, max, 4) < 0) {
		b->off = start;
		return -1;
	}
	if (cnt == 0)
		return 0;
	*arr = xcalloc(cnt, sizeof(uint32_t));
	for (uint32_t i = 0; i < cnt; i++)
		unpack32(b, &(*arr)[i]);
	*n = cnt;
	return 0;
}

/* Bits past nbits in the last word must be clear. */
static bool bitmap_tail_clear(const uint64_t *w, size_t nwords, uint32_t nbits)
{
	unsigned rem = nbits % 64;

	if (!nwords || !rem)
		return true;
	return (w[nwords - 1] & ~((UINT64_C(1) << rem) - 1)) == 0;
}

int unpack_bitmap(buf_t *b, bitmap_t **bm)
{
	size_t start = b->off;
	bitmap_t *m = NULL;
	uint64_t *w;
	uint32_t nbits;
	size_t nw;

	*bm = NULL;
	if (unpack32(b, &nbits) < 0)
		return -1;
	if (nbits == BITMAP_NULL)
		return 0;
	nw = ((size_t)nbits + 63) / 64;
	if (nbits > PACK_MAX_BITMAP_BITS || nw > buf_remaining(b) / 8)
		goto fail;
	m = bitmap_create(nbits);
	w = bitmap_words_mut(m);
	for (size_t i = 0; i < nw; i++)
		unpack64(b, &w[i]);
	if (!bitmap_tail_clear(w, nw, nbits))
		goto fail;
	*bm = m;
	return 0;
fail:
	if (m)
		bitmap_destroy(m);
	b->off = start;
	return -1;
}
