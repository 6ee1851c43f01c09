/* gres_bind.c — GPUs bound to cores (gres_bind.h). */
#include <stdio.h>
#include <string.h>

#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/gres_bind.h"

#define GB_MAX_GPUS 64

/* The next GPU index of type (untyped entries take any) not yet taken. */
static int gb_next_gpu(const gres_layout_t *l, const char *type,
		     uint64_t taken)
{
	uint64_t m = gres_gpu_mask(l, *type ? type : NULL) & ~taken;

	return m ? __builtin_ctzll(m) : -1;
}

/* Cores list -> CPU ids and sockets of the node shape. */
static bitmap_t *gb_cpus_of(const char *cores, const gres_bind_shape_t *sh,
			  uint32_t *sockets)
{
	uint32_t ncores = (uint32_t) sh->sockets * sh->cores;
	uint16_t thr = sh->threads ? sh->threads : 1;
	bitmap_t *c = bitmap_from_str(cores, ncores ? ncores : 1), *b;

	if (!c)
		return NULL;
	b = bitmap_create(sh->cpus ? sh->cpus : 1);
	*sockets = 0;
	for (long k = bitmap_first_set(c); k >= 0;
	     k = bitmap_next_set(c, (size_t) k + 1)) {
		uint32_t first = (uint32_t) k * thr;

		if (sh->cores && k / sh->cores < 32)
			*sockets |= (uint32_t) 1 << (k / sh->cores);
		for (uint32_t t = 0; t < thr && first + t < sh->cpus; t++)
			bitmap_set(b, first + t);
	}
	bitmap_destroy(c);
	return b;
}

static void gb_unbind(gres_layout_t *l)
{
	for (uint16_t g = 0; l->gpu_cpus && g < l->gpus; g++)
		if (l->gpu_cpus[g])
			bitmap_destroy(l->gpu_cpus[g]);
	xfree(l->gpu_cpus);
	xfree(l->gpu_sockets);
}

int gres_bind_set(gres_layout_t *l, const char *msg,
		  const gres_bind_shape_t *sh, char *err, size_t errlen)
{
	gres_gpu_cores_t e[GB_MAX_GPUS];
	bitmap_t **cpus;
	uint32_t *sockets;
	uint64_t taken = 0;
	int n = gres_cores_msg_parse(msg, e, GB_MAX_GPUS), k;

	if (n < 0) {
		snprintf(err, errlen, "malformed GPU cores \"%s\"", msg);
		return -1;
	}
	if (!n || !l->gpus) {
		gb_unbind(l);
		return 0;
	}
	cpus = xcalloc(l->gpus, sizeof(*cpus));
	sockets = xcalloc(l->gpus, sizeof(*sockets));
	for (k = 0; k < n; k++) {
		int g = gb_next_gpu(l, e[k].type, taken);

		if (g < 0) {
			snprintf(err, errlen, "gres.conf has more gpu%s%s "
				 "than Gres= in slurm.conf", *e[k].type ? ":" :
				 "", e[k].type);
			goto fail;
		}
		taken |= (uint64_t) 1 << g;
		if (!*e[k].cores)
			continue;
		if (!(cpus[g] = gb_cpus_of(e[k].cores, sh, &sockets[g]))) {
			snprintf(err, errlen, "Cores=%s is out of range: the "
				 "node has %u cores", e[k].cores,
				 (unsigned) sh->sockets * sh->cores);
			goto fail;
		}
	}
	gb_unbind(l);
	l->gpu_cpus = cpus;
	l->gpu_sockets = sockets;
	return 0;
fail:
	for (uint16_t g = 0; g < l->gpus; g++)
		if (cpus[g])
			bitmap_destroy(cpus[g]);
	xfree(cpus);
	xfree(sockets);
	return -1;
}

/* "0-1,3" of a socket mask. */
static void gb_sockets_str(uint32_t m, char *buf, size_t len)
{
	size_t off = 0;
	int i = 0, j;

	buf[0] = '\0';
	while (i < 32 && off < len) {
		if (!(m & ((uint32_t) 1 << i))) {
			i++;
			continue;
		}
		for (j = i; j + 1 < 32 && (m & ((uint32_t) 1 << (j + 1))); j++)
			;
		if (j > i)
			off += (size_t) snprintf(buf + off, len - off,
						 "%s%d-%d", off ? "," : "",
						 i, j);
		else
			off += (size_t) snprintf(buf + off, len - off, "%s%d",
						 off ? "," : "", i);
		i = j + 1;
	}
}

char *gres_bind_show(const gres_layout_t *l)
{
	char *out = NULL;
	bool any = false;

	if (!l || !l->gpu_cpus)
		return NULL;
	for (size_t i = 0; i < l->cnt; i++) {
		const gres_item_t *it = &l->v[i];
		uint32_t sockets = 0;
		bool bound = false;
		char sk[96];

		xstrfmtcat(&out, "%s%s%s%s:%llu", out ? "," : "", it->name,
			   it->type ? ":" : "", it->type ? it->type : "",
			   (unsigned long long) it->count);
		for (uint16_t g = 0; g < l->gpus; g++) {
			if (!(it->mask & ((uint64_t) 1 << g)) ||
			    !l->gpu_cpus[g])
				continue;
			bound = true;
			sockets |= l->gpu_sockets[g];
		}
		if (!bound)
			continue;
		any = true;
		gb_sockets_str(sockets, sk, sizeof(sk));
		xstrfmtcat(&out, "(S:%s)", sk);
	}
	if (!any)
		xfree(out);
	return out;
}

bitmap_t *gres_bind_cpus(const gres_layout_t *l, uint64_t mask,
			 uint16_t cpus)
{
	bitmap_t *b;

	if (!l || !l->gpu_cpus || !mask)
		return NULL;
	b = bitmap_create(cpus ? cpus : 1);
	for (uint16_t g = 0; g < l->gpus; g++) {
		if (!(mask & ((uint64_t) 1 << g)))
			continue;
		if (!l->gpu_cpus[g] ||
		    bitmap_size(l->gpu_cpus[g]) != bitmap_size(b)) {
			bitmap_destroy(b);
			return NULL;
		}
		bitmap_or(b, l->gpu_cpus[g]);
	}
	return b;
}

/* CPUs of GPU g not in used. */
static size_t gb_free_of(const gres_layout_t *l, uint16_t g,
		       const bitmap_t *used)
{
	const bitmap_t *b = l->gpu_cpus ? l->gpu_cpus[g] : NULL;
	size_t n = 0;

	if (!b)
		return SIZE_MAX;
	for (long c = bitmap_first_set(b); c >= 0;
	     c = bitmap_next_set(b, (size_t) c + 1))
		if (!used || (size_t) c >= bitmap_size(used) ||
		    !bitmap_test(used, (size_t) c))
			n++;
	return n;
}

size_t gres_bind_order(const gres_layout_t *l, uint64_t free,
		       const bitmap_t *used, uint8_t *out)
{
	size_t cnt = 0, score[64];

	for (uint16_t g = 0; g < 64; g++) {
		size_t sc, k;

		if (!(free & ((uint64_t) 1 << g)))
			continue;
		sc = gb_free_of(l, g, used);
		/* insertion by score, stable by index */
		for (k = cnt; k > 0 && score[k - 1] < sc; k--) {
			score[k] = score[k - 1];
			out[k] = out[k - 1];
		}
		score[k] = sc;
		out[k] = (uint8_t) g;
		cnt++;
	}
	return cnt;
}
