/* bcast_block.c — sbcast and sgather blocks (bcast_block.h). */
#include "common/bcast_block.h"

#include <lz4.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

int bcast_compress_parse(const char *arg, uint16_t *how)
{
	if (!arg || !*arg || !strcasecmp(arg, "lz4")) {
		*how = BCAST_COMPRESS_LZ4;
		return 0;
	}
	if (!strcasecmp(arg, "none")) {
		*how = BCAST_COMPRESS_NONE;
		return 0;
	}
	return -1;
}

int bcast_params_parse(const char *val, bcast_params_t *p, char *err,
		       size_t errlen)
{
	char *copy, *save = NULL, *tok;
	int rc = 0;

	memset(p, 0, sizeof(*p));
	p->compress = -1;
	if (!val || !*val)
		return 0;
	copy = xstrdup(val);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		uint16_t how;

		if (!strncasecmp(tok, "DestDir=", 8) && tok[8]) {
			xfree(p->dest_dir);
			p->dest_dir = xstrdup(tok + 8);
		} else if (!strncasecmp(tok, "Compression=", 12)) {
			if (bcast_compress_parse(tok + 12, &how) == 0 &&
			    tok[12]) {
				p->compress = how;
			} else if (!rc) {
				snprintf(err, errlen, "BcastParameters: "
					 "Compression type '%s' unknown",
					 tok + 12);
				rc = -1;
			}
		} else if (!strcasecmp(tok, "send_libs")) {
			p->send_libs = 1;
		} else if (!rc) {
			snprintf(err, errlen, "BcastParameters: unknown "
				 "option '%s'", tok);
			rc = -1;
		}
	}
	xfree(copy);
	return rc;
}

void bcast_params_free(bcast_params_t *p)
{
	xfree(p->dest_dir);
}

const char *bcast_compress_name(uint16_t how)
{
	return how == BCAST_COMPRESS_LZ4 ? "lz4" : "none";
}

int bcast_compress(uint16_t how, const void *in, uint32_t len, char **out,
		   uint32_t *out_len)
{
	int bound, n;
	char *buf;

	*out = NULL;
	*out_len = 0;
	if (how != BCAST_COMPRESS_LZ4 || !len || len > LZ4_MAX_INPUT_SIZE)
		return -1;
	bound = LZ4_compressBound((int) len);
	buf = xmalloc((size_t) bound);
	n = LZ4_compress_default(in, buf, (int) len, bound);
	if (n <= 0 || (uint32_t) n >= len) {
		xfree(buf);
		return -1;
	}
	*out = buf;
	*out_len = (uint32_t) n;
	return 0;
}

int bcast_decompress(uint16_t how, const void *in, uint32_t in_len,
		     void *out, uint32_t out_len)
{
	int n;

	if (how == BCAST_COMPRESS_NONE) {
		if (in_len != out_len)
			return -1;
		if (in_len)
			memcpy(out, in, in_len);
		return 0;
	}
	if (how != BCAST_COMPRESS_LZ4 || in_len > LZ4_MAX_INPUT_SIZE ||
	    out_len > LZ4_MAX_INPUT_SIZE)
		return -1;
	n = LZ4_decompress_safe(in, out, (int) in_len, (int) out_len);
	return n >= 0 && (uint32_t) n == out_len ? 0 : -1;
}

int bcast_block_check(const file_bcast_msg_t *m, char *why, size_t len)
{
	if (!m->fname || m->fname[0] != '/') {
		snprintf(why, len, "destination must be an absolute path");
		return -1;
	}
	if (!m->block_no || m->block_len > BCAST_BLOCK_MAX ||
	    m->offset > m->file_size ||
	    m->block_len > m->file_size - m->offset) {
		snprintf(why, len, "block %u (%u bytes at %llu) out of a "
			 "%llu-byte file", m->block_no, m->block_len,
			 (unsigned long long) m->offset,
			 (unsigned long long) m->file_size);
		return -1;
	}
	if (m->compress != BCAST_COMPRESS_NONE &&
	    m->compress != BCAST_COMPRESS_LZ4) {
		snprintf(why, len, "unknown compression %u", m->compress);
		return -1;
	}
	if (m->compress == BCAST_COMPRESS_NONE && m->data_len != m->block_len) {
		snprintf(why, len, "block of %u bytes carries %u",
			 m->block_len, m->data_len);
		return -1;
	}
	if ((m->flags & BCAST_FLAG_LAST) &&
	    m->offset + m->block_len != m->file_size) {
		snprintf(why, len, "last block does not end the file");
		return -1;
	}
	return 0;
}

int bcast_gather_check(const file_gather_msg_t *m, char *why, size_t len)
{
	if (!m->fname || m->fname[0] != '/') {
		snprintf(why, len, "source must be an absolute path");
		return -1;
	}
	if (m->max_len > BCAST_BLOCK_MAX || m->offset > (uint64_t) INT64_MAX) {
		snprintf(why, len, "bad length or offset");
		return -1;
	}
	if (m->compress != BCAST_COMPRESS_NONE &&
	    m->compress != BCAST_COMPRESS_LZ4) {
		snprintf(why, len, "unknown compression %u", m->compress);
		return -1;
	}
	return 0;
}

int bcast_block_sig(const file_bcast_msg_t *m, const char *node)
{
	for (int i = 0; node && m->node_names && m->node_names[i] &&
	     i < (int) BCAST_NODES_MAX; i++)
		if (!strcmp(m->node_names[i], node))
			return m->cred_sigs && m->cred_sigs[i] ? i : -1;
	return -1;
}
