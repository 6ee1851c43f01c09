/* conf_check.c — apply each key's treatment (conf_use.h) while slurm.conf
 * loads: refuse a value that asks for what Sluice does not have, note a
 * key that has no effect.  The notes reach the daemons' logs through
 * conf_log_not_in_force().
 */
#include "common/conf.h"
#include "common/conf_internal.h"
#include "common/conf_use.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

/* value is one of ok's '|'-separated alternatives (or empty). */
static bool check_ok_value(const char *ok, const char *value)
{
	char **alts;
	bool hit = false;

	if (!*value)
		return true;
	if (!ok)
		return false;
	alts = xstrsplit(ok, "|", NULL);
	for (size_t i = 0; alts[i] && !hit; i++)
		hit = !strcasecmp(alts[i], value);
	xstrarray_free(alts);
	return hit;
}

static void check_note(conf_state_t *st, char *msg)
{
	for (size_t i = 0; st->notes && st->notes[i]; i++) {
		if (!strcmp(st->notes[i], msg)) {
			xfree(msg);
			return;
		}
	}
	st->notes = xstrarray_append(st->notes, msg);
	xfree(msg);
}

/* One word of a list key ("bf_window=60" of SchedulerParameters). */
static int check_word(conf_state_t *st, const char *key, int list,
		      const char *word)
{
	char *name = xstrdup(word), *eq = strchr(name, '=');
	const conf_use_t *u;
	conf_use_kind_t kind;
	const char *why;
	int rc = 0;

	if (eq)
		*eq = '\0';
	xstrtrim(name);
	if (!*name)
		goto out;
	u = conf_use_find(key, name);
	if (!u && !strcasecmp(key, "AccountingStorageTRES") &&
	    !strncasecmp(name, "license/", 8) && name[8])
		u = conf_use_find(key, "license/*");
	if (!u && !strcasecmp(key, "AccountingStorageTRES") &&
	    !strncasecmp(name, "gres/", 5) && name[5])
		u = conf_use_find(key, "gres/*");
	kind = u ? u->kind : conf_use_list_unknown(list);
	why = u ? u->what : "not an option of Slurm 25.05";
	if (kind == CONF_USE_REFUSED)
		rc = conf_fail(st, "%s option %s: not supported: %s", key,
			       name, why);
	else if (kind == CONF_USE_WARNED)
		check_note(st, xstrdup_printf("%s: %s option %s has no effect "
					      "(%s)", st->where, key, name,
					      why));
out:
	xfree(name);
	return rc;
}

static int check_words(conf_state_t *st, const char *key, int list,
		       const char *value)
{
	char **words = xstrsplit(value, ",", NULL);
	int rc = 0;

	for (size_t i = 0; words[i] && !rc; i++)
		rc = check_word(st, key, list, words[i]);
	xstrarray_free(words);
	return rc;
}

int conf_check_pair(conf_state_t *st, const char *scope, const char *key,
		    const char *value)
{
	const conf_use_t *u = conf_use_find(scope, key);
	int list;

	if (!u)
		return 0;
	switch (u->kind) {
	case CONF_USE_REFUSED:
		if (check_ok_value(u->ok, value))
			return 0;
		return conf_fail(st, "%s=%s: not supported: %s", u->key, value,
				 u->what);
	case CONF_USE_WARNED:
		check_note(st, xstrdup_printf("%s: %s has no effect (%s)",
					      st->where, u->key, u->what));
		return 0;
	case CONF_USE_IMPLEMENTED:
	case CONF_USE_PLUGIN:
		list = *scope ? -1 : conf_use_list_index(key);
		if (list < 0)
			return 0;
		return check_words(st, u->key, list, value);
	}
	return 0;
}

int conf_check_scalars(conf_state_t *st)
{
	size_t n = conf_key_count();
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		if (!st->raw[i] || !conf_key_name(i))
			continue;
		st->where = st->raw_where[i];
		rc = conf_check_pair(st, "", conf_key_name(i), st->raw[i]);
		st->where = NULL;
	}
	return rc;
}

const char *const *conf_not_in_force(const slurm_conf_t *c)
{
	static const char *const none[] = { NULL };

	return c && c->notes ? (const char *const *) c->notes : none;
}

void conf_log_not_in_force(const slurm_conf_t *c, const slurm_conf_t *before)
{
	const char *const *now = conf_not_in_force(c);
	const char *const *old = conf_not_in_force(before);

	for (size_t i = 0; now[i]; i++) {
		bool seen = false;

		for (size_t j = 0; old[j] && !seen; j++)
			seen = !strcmp(old[j], now[i]);
		if (!seen)
			info("warning: %s", now[i]);
	}
}

const char *conf_key_where(const slurm_conf_t *c, const char *key)
{
	int idx;

	if (!c || !key)
		return NULL;
	if (!strcasecmp(key, "SlurmctldHost"))
		return c->ctld_where;
	idx = conf_key_find(key);
	if (idx < 0 || !c->raw_where)
		return NULL;
	return c->raw_where[idx];
}
