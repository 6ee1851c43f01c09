/* step_cred.c — job step credentials (step_cred.h). */
#include "common/step_cred.h"

#include <string.h>

#include "common/auth.h"
#include "common/fields.h"
#include "common/hostlist.h"
#include "common/pack.h"
#include "common/sha256.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#define MAX_PAYLOAD_HEX (256u * 1024)

#define C(m, t) FIELD(step_cred_t, m, t)
static const field_desc_t cred_fields[] = {
	C(job_id, FT_U32), C(step_id, FT_U32), C(uid, FT_U32), C(gid, FT_U32),
	C(user_name, FT_STR), C(node_list, FT_STR), C(cpus_per_node, FT_STR),
	C(mem_per_node, FT_U64), C(expiry, FT_TIME), C(job_node_list, FT_STR),
	C(cpu_ids, FT_STR), C(gpu_idx, FT_STR), C(gids, FT_STR),
	C(profile, FT_U32), C(acctg_freq, FT_STR),
	FIELD_END
};
#undef C

char *step_cred_encode(const step_cred_t *c)
{
	static const char hex[] = "0123456789abcdef";
	buf_t *b = buf_create(256);
	const uint8_t *d;
	size_t n;
	char *out;

	fields_pack(b, cred_fields, c);
	d = buf_data(b);
	n = buf_len(b);
	out = xmalloc(2 * n + 1);
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = hex[d[i] >> 4];
		out[2 * i + 1] = hex[d[i] & 15];
	}
	buf_destroy(b);
	return out;
}

static int _hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

step_cred_t *step_cred_decode(const char *payload_hex)
{
	size_t n = payload_hex ? strlen(payload_hex) : 0;
	step_cred_t *c = NULL;
	uint8_t *raw;
	buf_t *b;

	if (!n || n % 2 || n > MAX_PAYLOAD_HEX)
		return NULL;
	raw = xmalloc(n / 2);
	for (size_t i = 0; i < n / 2; i++) {
		int hi = _hexval(payload_hex[2 * i]);
		int lo = _hexval(payload_hex[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			xfree(raw);
			return NULL;
		}
		raw[i] = (uint8_t) (hi << 4 | lo);
	}
	b = buf_view(raw, n / 2);
	c = xmalloc(sizeof(*c));
	if (fields_unpack(b, cred_fields, c) < 0 || buf_remaining(b)) {
		fields_free(cred_fields, c);
		xfree(c);
		c = NULL;
	}
	buf_destroy(b);
	xfree(raw);
	return c;
}

void step_cred_free(step_cred_t *c)
{
	if (!c)
		return;
	fields_free(cred_fields, c);
	xfree(c);
}

static void _digest(const char *payload_hex, uint8_t d[AUTH_DIGEST_LEN])
{
	static const char tag[] = "sluice-step-cred:";
	sha256_t s;

	sha256_init(&s);
	sha256_update(&s, tag, sizeof(tag) - 1);
	sha256_update(&s, payload_hex, strlen(payload_hex));
	sha256_final(&s, d);
}

int step_cred_sign(const char *payload_hex, char **sig)
{
	uint8_t d[AUTH_DIGEST_LEN];
	uint32_t len;

	*sig = NULL;
	if (!payload_hex)
		return ESLURM_INVALID_JOB_CREDENTIAL;
	_digest(payload_hex, d);
	if (auth_create(d, sig, &len))
		return ESLURM_INVALID_JOB_CREDENTIAL;
	return SLURM_SUCCESS;
}

static int _has_node(const char *list, const char *node)
{
	char err[128];
	hostlist_t *hl = hostlist_parse(list, err, sizeof(err));
	int found;

	if (!hl)
		return 0;
	found = hostlist_find(hl, node) >= 0;
	hostlist_destroy(hl);
	return found;
}

int step_cred_verify(const char *payload_hex, const char *sig,
		     uid_t slurm_uid, const char *node, time_t now,
		     step_cred_t **out, const char **why)
{
	uint8_t d[AUTH_DIGEST_LEN];
	step_cred_t *c;
	uid_t uid;
	gid_t gid;
	const char *awhy = NULL;
	int rc;

	*out = NULL;
	*why = NULL;
	if (!payload_hex || !sig || !*sig) {
		*why = "no credential";
		return ESLURMD_INVALID_JOB_CREDENTIAL;
	}
	if (strlen(payload_hex) > MAX_PAYLOAD_HEX) {
		*why = "credential too long";
		return ESLURMD_INVALID_JOB_CREDENTIAL;
	}
	_digest(payload_hex, d);
	rc = auth_verify(sig, (uint32_t) strlen(sig), d, &uid, &gid, &awhy);
	if (rc) {
		*why = awhy ? awhy : "bad signature";
		if (awhy && strstr(awhy, "replayed"))
			return ESLURMD_CREDENTIAL_REPLAYED;
		return ESLURMD_INVALID_JOB_CREDENTIAL;
	}
	if (uid != 0 && uid != slurm_uid) {
		*why = "not signed by SlurmUser";
		return ESLURMD_INVALID_JOB_CREDENTIAL;
	}
	if (!(c = step_cred_decode(payload_hex))) {
		*why = "malformed payload";
		return ESLURMD_INVALID_JOB_CREDENTIAL;
	}
	if (c->expiry < now) {
		*why = "expired";
		step_cred_free(c);
		return ESLURMD_CREDENTIAL_EXPIRED;
	}
	if (!c->node_list || !node || !_has_node(c->node_list, node)) {
		*why = "node not in credential";
		step_cred_free(c);
		return ESLURMD_INVALID_JOB_CREDENTIAL;
	}
	*out = c;
	return SLURM_SUCCESS;
}

static char *nth_item(const char *p, uint32_t node_id)
{
	size_t n;

	for (uint32_t i = 0; p && i < node_id; i++)
		if ((p = strchr(p, ';')))
			p++;
	if (!p)
		return NULL;
	n = strcspn(p, ";");
	return n ? xstrndup(p, n) : NULL;
}

char *step_cred_node_cpus(const step_cred_t *c, uint32_t node_id)
{
	return nth_item(c ? c->cpu_ids : NULL, node_id);
}

char *step_cred_node_gpus(const step_cred_t *c, uint32_t node_id)
{
	return nth_item(c ? c->gpu_idx : NULL, node_id);
}
