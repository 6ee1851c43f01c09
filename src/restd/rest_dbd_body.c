/* rest_dbd_body.c — POST accounts / qos bodies (rest_dbd_body.h). */
#include "restd/rest_dbd_body.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "common/xmalloc.h"
#include "common/xstring.h"
#include "restd/rest_val.h"

#define NAME_MAX_LEN 64
#define TEXT_MAX_LEN 1024

typedef enum {
	V_TEXT,        /* a string */
	V_COUNT,       /* an integer >= 0, or a {set, infinite, number} */
	V_FACTOR,      /* a number >= 0, or a float64 no_val */
	V_ADMIN,       /* administrator_level: ["None"|"Operator"|...] */
	V_NAMES,       /* a list of names: "a,b" */
	V_TRES,        /* a tres_list: "cpu=4,gres/gpu=1" */
	V_REGISTERED,  /* what a controller reports when it registers */
} val_kind_t;

/* One member Sluice stores: its path in the record and sacctmgr's key. */
typedef struct {
	const char *path;
	const char *key;
	val_kind_t  kind;
} member_t;

static const member_t account_members[] = {
	{ "description", "description", V_TEXT },
	{ "organization", "organization", V_TEXT },
	{ NULL, NULL, 0 }
};

static const member_t user_members[] = {
	{ "default/account", "defaultaccount", V_TEXT },
	{ "administrator_level", "adminlevel", V_ADMIN },
	{ NULL, NULL, 0 }
};

static const member_t assoc_members[] = {
	{ "priority", "priority", V_COUNT },
	{ "shares_raw", "fairshare", V_COUNT },
	{ "qos", "qos", V_NAMES },
	{ "default/qos", "defaultqos", V_TEXT },
	{ "max/jobs/per/count", "maxjobs", V_COUNT },
	{ "max/jobs/per/submitted", "maxsubmitjobs", V_COUNT },
	{ "max/jobs/per/wall_clock", "maxwall", V_COUNT },
	{ "max/jobs/active", "grpjobs", V_COUNT },
	{ "max/jobs/total", "grpsubmitjobs", V_COUNT },
	{ "max/per/account/wall_clock", "grpwall", V_COUNT },
	{ "max/tres/total", "grptres", V_TRES },
	{ "max/tres/group/minutes", "grptresmins", V_TRES },
	{ "max/tres/group/active", "grptresrunmins", V_TRES },
	{ "max/tres/per/job", "maxtres", V_TRES },
	{ "max/tres/per/node", "maxtrespn", V_TRES },
	{ "max/tres/minutes/per/job", "maxtresmins", V_TRES },
	{ NULL, NULL, 0 }
};

/* A cluster: its name; what its slurmctld reports when it registers is
 * not taken by an add, in Slurm either (named in rec->ignored). */
static const member_t cluster_members[] = {
	{ "controller", NULL, V_REGISTERED },
	{ "nodes", NULL, V_REGISTERED },
	{ "rpc_version", NULL, V_REGISTERED },
	{ "select_plugin", NULL, V_REGISTERED },
	{ "tres", NULL, V_REGISTERED },
	{ "associations", NULL, V_REGISTERED },
	{ NULL, NULL, 0 }
};

/* The association settings of an add_cond (assoc_rec_set), by
 * sacctmgr's keys; parent is an account's only. */
static const member_t assoc_set_members[] = {
	{ "defaultqos", "defaultqos", V_TEXT },
	{ "fairshare", "fairshare", V_COUNT },
	{ "grpjobs", "grpjobs", V_COUNT },
	{ "grpsubmitjobs", "grpsubmitjobs", V_COUNT },
	{ "grptres", "grptres", V_TRES },
	{ "grptresmins", "grptresmins", V_TRES },
	{ "grptresrunmins", "grptresrunmins", V_TRES },
	{ "grpwall", "grpwall", V_COUNT },
	{ "maxjobs", "maxjobs", V_COUNT },
	{ "maxsubmitjobs", "maxsubmitjobs", V_COUNT },
	{ "maxtresminsperjob", "maxtresmins", V_TRES },
	{ "maxtresperjob", "maxtres", V_TRES },
	{ "maxtrespernode", "maxtrespn", V_TRES },
	{ "maxwalldurationperjob", "maxwall", V_COUNT },
	{ "priority", "priority", V_COUNT },
	{ "qoslevel", "qos", V_NAMES },
	{ "parent", "parent", V_TEXT },
	{ NULL, NULL, 0 }
};

/* An association names itself by these (not settings). */
static const char *const assoc_ident[] = {
	"account", "cluster", "user", "partition", "parent_account", "id",
};

static const member_t qos_members[] = {
	{ "description", "description", V_TEXT },
	{ "priority", "priority", V_COUNT },
	{ "usage_factor", "usagefactor", V_FACTOR },
	{ "limits/grace_time", "gracetime", V_COUNT },
	{ "limits/max/wall_clock/per/job", "maxwall", V_COUNT },
	{ "limits/max/jobs/active_jobs/per/user", "maxjobspu", V_COUNT },
	{ "limits/max/jobs/per/user", "maxsubmitpu", V_COUNT },
	{ "limits/max/active_jobs/count", "grpjobs", V_COUNT },
	{ "limits/max/jobs/count", "grpsubmit", V_COUNT },
	{ NULL, NULL, 0 }
};

/* {set, infinite, number}, any of them (the others default to false
 * and 0, as Slurm reads it). */
static bool is_no_val(json_object *v)
{
	int n = 0;

	if (!v || !json_object_is_type(v, json_type_object))
		return false;
	n += rest_json_get(v, "set") != NULL;
	n += rest_json_get(v, "infinite") != NULL;
	n += rest_json_get(v, "number") != NULL;
	return n && n == json_object_object_length(v);
}

/* Nothing in it: unset no_val, [], "", null, false, 0, or an object of
 * such. */
static bool empty(json_object *v)
{
	if (!v)
		return true;
	if (is_no_val(v))   /* a number without "set" is set */
		return !(rest_json_get(v, "set") ?
			 json_object_get_boolean(rest_json_get(v, "set")) :
			 rest_json_get(v, "number") != NULL) &&
		       !json_object_get_boolean(rest_json_get(v, "infinite"));
	switch (json_object_get_type(v)) {
	case json_type_null:
		return true;
	case json_type_boolean:
		return !json_object_get_boolean(v);
	case json_type_int:
		return json_object_get_int64(v) == 0;
	case json_type_double:
		return json_object_get_double(v) == 0;
	case json_type_string:
		return !json_object_get_string_len(v);
	case json_type_array:
		return !json_object_array_length(v);
	case json_type_object: {
		json_object_object_foreach(v, k, sub) {
			(void)k;
			if (!empty(sub))
				return false;
		}
		return true;
	}
	}
	return false;
}

static bool clean_text(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (n > max)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

static bool clean_name(const char *s)
{
	return *s && clean_text(s, NAME_MAX_LEN) && !strpbrk(s, ",='\" /");
}

/* [{type, name, count}, ...] as "type[/name]=count,..." */
static int tres_value(json_object *v, char **out, const char **why)
{
	*why = "expected a TRES list [{type, name, count}]";
	if (!json_object_is_type(v, json_type_array))
		return -1;
	for (size_t i = 0; i < json_object_array_length(v); i++) {
		json_object *t = json_object_array_get_idx(v, i);
		json_object *type = rest_json_get(t, "type"), *name = rest_json_get(t, "name");
		json_object *count = rest_json_get(t, "count");

		if (!type || !json_object_is_type(type, json_type_string) ||
		    !clean_name(json_object_get_string(type)) ||
		    (name && (!json_object_is_type(name, json_type_string) ||
			      (json_object_get_string_len(name) &&
			       !clean_name(json_object_get_string(name))))) ||
		    !count || !json_object_is_type(count, json_type_int) ||
		    json_object_get_int64(count) < -1) {
			xfree(*out);
			return -1;
		}
		xstrfmtcat(out, "%s%s%s%s=%lld", i ? "," : "",
			   json_object_get_string(type),
			   name && json_object_get_string_len(name) ? "/" : "",
			   name ? json_object_get_string(name) : "",
			   (long long)json_object_get_int64(count));
	}
	return *out ? 0 : -1;
}

static int names_value(json_object *v, char **out, const char **why)
{
	*why = "expected a list of names";
	if (!json_object_is_type(v, json_type_array))
		return -1;
	for (size_t i = 0; i < json_object_array_length(v); i++) {
		json_object *e = json_object_array_get_idx(v, i);

		if (!json_object_is_type(e, json_type_string) ||
		    !clean_name(json_object_get_string(e))) {
			xfree(*out);
			return -1;
		}
		xstrfmtcat(out, "%s%s", i ? "," : "", json_object_get_string(e));
	}
	return *out ? 0 : -1;
}

/* A member's value as sacctmgr's setting value; -1 with *why if bad. */
static int value_of(json_object *v, val_kind_t kind, char **out,
		    const char **why)
{
	if (kind == V_TEXT) {
		if (!json_object_is_type(v, json_type_string) ||
		    !clean_text(json_object_get_string(v), TEXT_MAX_LEN)) {
			*why = "expected text without control characters";
			return -1;
		}
		*out = xstrdup(json_object_get_string(v));
		return 0;
	}
	if (kind == V_TRES)
		return tres_value(v, out, why);
	if (kind == V_NAMES)
		return names_value(v, out, why);
	if (kind == V_ADMIN) {
		static const char *const levels[] = {
			"None", "Operator", "Administrator",
		};
		const char *l = json_object_is_type(v, json_type_array) &&
			json_object_array_length(v) == 1 ?
			json_object_get_string(json_object_array_get_idx(v, 0))
			: NULL;

		for (size_t i = 0; l && i < 3; i++)
			if (!strcmp(l, levels[i])) {
				*out = xstrdup(l);
				return 0;
			}
		*why = "expected one of [\"None\"], [\"Operator\"], "
		       "[\"Administrator\"]";
		return -1;
	}
	if (is_no_val(v)) {
		if (json_object_get_boolean(rest_json_get(v, "infinite"))) {
			*out = xstrdup("-1");     /* no limit */
			return 0;
		}
		v = rest_json_get(v, "number");
	}
	if (kind == V_COUNT && json_object_is_type(v, json_type_int) &&
	    json_object_get_int64(v) >= 0 &&
	    json_object_get_int64(v) < (int64_t)UINT32_MAX - 1) {
		*out = xstrdup_printf("%lld",
				      (long long)json_object_get_int64(v));
		return 0;
	}
	if (kind == V_FACTOR && (json_object_is_type(v, json_type_int) ||
				 json_object_is_type(v, json_type_double))) {
		double d = json_object_get_double(v);

		if (isfinite(d) && d >= 0 && d < 1e9) {
			*out = xstrdup_printf("%f", d);
			return 0;
		}
	}
	*why = kind == V_COUNT ? "expected a count (or {set, infinite, number})"
			       : "expected a number >= 0";
	return -1;
}

/* Is path one of the record's own members (or how it names itself)? */
static bool known_member(const member_t *members, const char *path)
{
	if (members == assoc_members) {
		for (size_t a = 0;
		     a < sizeof(assoc_ident) / sizeof(assoc_ident[0]); a++)
			if (!strcmp(path, assoc_ident[a]))
				return true;
	} else if (!strcmp(path, "name") ||
		   (members == qos_members && !strcmp(path, "id")) ||
		   ((members == account_members || members == user_members) &&
		    !strcmp(path, "coordinators"))) {
		return true;
	}
	for (const member_t *m = members; m->path; m++)
		if (!strcmp(m->path, path))
			return true;
	return false;
}

/* Members of o (at prefix) that are not the record's own and not empty:
 * the first one's path in *bad (xmalloc'd), the deepest that says it. */
static bool unknown_member(json_object *o, const member_t *members,
			   const char *prefix, char **bad)
{
	json_object_object_foreach(o, k, v) {
		char *path = *prefix ? xstrdup_printf("%s/%s", prefix, k) :
			     xstrdup(k);

		if (known_member(members, path)) {
			xfree(path);
			continue;
		}
		if (json_object_is_type(v, json_type_object) && !is_no_val(v)) {
			if (unknown_member(v, members, path, bad)) {
				xfree(path);
				return true;
			}
		} else if (!empty(v)) {
			*bad = path;
			return true;
		}
		xfree(path);
	}
	return false;
}

static json_object *at_path(json_object *o, const char *path)
{
	char *copy = xstrdup(path), *save = NULL;

	for (char *t = strtok_r(copy, "/", &save); t && o;
	     t = strtok_r(NULL, "/", &save))
		o = rest_json_get(o, t);
	xfree(copy);
	return o;
}

/* An association's account, cluster, user, partition, parent_account
 * and id. */
static int assoc_ident_of(json_object *o, size_t i, rest_dbd_rec_t *rec,
			  char **err)
{
	char **slot[] = { &rec->account, &rec->cluster, &rec->user,
			  &rec->partition, &rec->parent };
	json_object *id = rest_json_get(o, "id");

	for (size_t k = 0; k < 5; k++) {
		json_object *v = rest_json_get(o, assoc_ident[k]);
		const char *s = v && json_object_is_type(v, json_type_string) ?
			json_object_get_string(v) : NULL;

		if ((v && !s) || (s && *s && !clean_name(s)) ||
		    (k == 0 && (!s || !*s))) {
			*err = xstrdup_printf("[%zu]/%s: expected a name", i,
					      assoc_ident[k]);
			return -1;
		}
		*slot[k] = xstrdup(s ? s : "");
	}
	if (id && (!json_object_is_type(id, json_type_int) ||
		   json_object_get_int64(id) < 0)) {
		*err = xstrdup_printf("[%zu]/id: expected an association id",
				      i);
		return -1;
	}
	rec->id = id ? json_object_get_int64(id) : 0;
	return 0;
}

/* ["Not Set"]: how an answer says no administrator level was given. */
static bool admin_not_set(json_object *v)
{
	return json_object_is_type(v, json_type_array) &&
	       json_object_array_length(v) == 1 &&
	       !strcmp(json_object_get_string(json_object_array_get_idx(v, 0)),
		       "Not Set");
}

/* The settings ("key=value") of members in o, appended to *set; the
 * V_REGISTERED ones given named in *ignored.  -1 with the member's path
 * in *bad (xmalloc'd) and *why. */
static int settings_of(json_object *o, const member_t *members, char ***set,
		       char **ignored, char **bad, const char **why)
{
	for (const member_t *m = members; m->path; m++) {
		json_object *v = at_path(o, m->path);
		char *val = NULL, *kv;

		if (m->kind == V_REGISTERED) {
			if (!empty(v))
				xstrfmtcat(ignored, "%s%s", *ignored ? ", " : "",
					   m->path);
			continue;
		}
		if ((empty(v) && !(v && is_no_val(v) &&
				   json_object_get_boolean(rest_json_get(v,
								  "infinite")))) ||
		    (m->kind == V_ADMIN && admin_not_set(v)))
			continue;
		if (value_of(v, m->kind, &val, why) < 0) {
			*bad = xstrdup(m->path);
			return -1;
		}
		kv = xstrdup_printf("%s=%s", m->key, val);
		*set = xstrarray_append(*set, kv);
		xfree(kv);
		xfree(val);
	}
	return 0;
}

/* An account's coordinators (users), or the accounts a user
 * coordinates ([{name, direct}]): the direct ones' names (the others
 * come from parent accounts). */
static int coords_of(json_object *v, size_t i, rest_dbd_rec_t *rec,
		     char **err)
{
	size_t n = v && json_object_is_type(v, json_type_array) ?
		   json_object_array_length(v) : 0;

	if (v && !json_object_is_type(v, json_type_array) && !empty(v))
		goto bad;
	for (size_t k = 0; k < n; k++) {
		json_object *c = json_object_array_get_idx(v, k);
		json_object *name = rest_json_get(c, "name");
		json_object *direct = rest_json_get(c, "direct");

		if (!json_object_is_type(c, json_type_object) ||
		    !json_object_is_type(name, json_type_string) ||
		    !clean_name(json_object_get_string(name)) ||
		    (direct && !json_object_is_type(direct,
						    json_type_boolean)))
			goto bad;
		if (!direct || json_object_get_boolean(direct))
			rec->coords = xstrarray_append(rec->coords,
						       json_object_get_string(name));
	}
	return 0;
bad:
	*err = xstrdup_printf("[%zu]/coordinators: expected [{name, "
			      "direct}]", i);
	return -1;
}

static int one_rec(json_object *o, size_t i, const member_t *members,
		   rest_dbd_rec_t *rec, char **err)
{
	json_object *name = rest_json_get(o, "name");
	const char *why = NULL;
	char *bad = NULL;

	if (!json_object_is_type(o, json_type_object)) {
		*err = xstrdup_printf("[%zu]: expected an object", i);
		return -1;
	}
	if (members == assoc_members) {
		if (assoc_ident_of(o, i, rec, err) < 0)
			return -1;
	} else if (!name || !json_object_is_type(name, json_type_string) ||
	    !json_object_get_string_len(name) ||
	    !clean_text(json_object_get_string(name), NAME_MAX_LEN) ||
	    strpbrk(json_object_get_string(name), ",='\" ")) {
		*err = xstrdup_printf("[%zu]/name: expected a name (up to %d "
				      "characters, no , = quotes or blanks)",
				      i, NAME_MAX_LEN);
		return -1;
	}
	if (unknown_member(o, members, "", &bad)) {
		*err = xstrdup_printf("[%zu]/%s: not supported by Sluice", i,
				      bad);
		xfree(bad);
		return -1;
	}
	if (members != assoc_members)
		rec->name = xstrdup(json_object_get_string(name));
	if ((members == account_members || members == user_members) &&
	    coords_of(rest_json_get(o, "coordinators"), i, rec, err) < 0)
		return -1;
	if (members == qos_members && rest_json_get(o, "id")) {
		json_object *id = rest_json_get(o, "id");

		if (!json_object_is_type(id, json_type_int) ||
		    json_object_get_int64(id) < 0) {
			*err = xstrdup_printf("[%zu]/id: expected a QOS id", i);
			return -1;
		}
		rec->id = json_object_get_int64(id);
	}
	if (settings_of(o, members, &rec->set, &rec->ignored, &bad,
			&why) < 0) {
		*err = xstrdup_printf("[%zu]/%s: %s", i, bad, why);
		xfree(bad);
		return -1;
	}
	return 0;
}

static int parse(json_object *body, const char *key, const member_t *members,
		 rest_dbd_rec_t **recs, size_t *n, char **err)
{
	json_object *list = rest_json_get(body, key);
	size_t cnt;

	*recs = NULL;
	*n = 0;
	*err = NULL;
	if (!list || !json_object_is_type(list, json_type_array) ||
	    !(cnt = json_object_array_length(list))) {
		*err = xstrdup_printf("%s: expected a list of records", key);
		return -1;
	}
	json_object_object_foreach(body, k, v) {
		if (strcmp(k, key) && strcmp(k, "meta") && strcmp(k, "errors")
		    && strcmp(k, "warnings") && !empty(v)) {
			*err = xstrdup_printf("%s: not supported by Sluice", k);
			return -1;
		}
	}
	*recs = xcalloc(cnt, sizeof(**recs));
	for (size_t i = 0; i < cnt; i++) {
		if (one_rec(json_object_array_get_idx(list, i), i, members,
			    &(*recs)[i], err) < 0) {
			char *e = xstrdup_printf("%s%s", key, *err);

			xfree(*err);
			*err = e;
			rest_dbd_recs_free(*recs, cnt);
			*recs = NULL;
			return -1;
		}
		for (size_t k = 0; k < i && (*recs)[i].name; k++)
			if (!strcmp((*recs)[k].name, (*recs)[i].name)) {
				*err = xstrdup_printf("%s[%zu]/name: %s is "
						      "there twice", key, i,
						      (*recs)[i].name);
				rest_dbd_recs_free(*recs, cnt);
				*recs = NULL;
				return -1;
			}
	}
	*n = cnt;
	return 0;
}

int rest_dbd_accounts_parse(json_object *body, rest_dbd_rec_t **recs,
			    size_t *n, char **err)
{
	return parse(body, "accounts", account_members, recs, n, err);
}

int rest_dbd_users_parse(json_object *body, rest_dbd_rec_t **recs,
			 size_t *n, char **err)
{
	return parse(body, "users", user_members, recs, n, err);
}

int rest_dbd_qos_parse(json_object *body, rest_dbd_rec_t **recs,
		       size_t *n, char **err)
{
	return parse(body, "qos", qos_members, recs, n, err);
}

int rest_dbd_clusters_parse(json_object *body, rest_dbd_rec_t **recs,
			    size_t *n, char **err)
{
	return parse(body, "clusters", cluster_members, recs, n, err);
}

int rest_dbd_assocs_parse(json_object *body, rest_dbd_rec_t **recs,
			  size_t *n, char **err)
{
	return parse(body, "associations", assoc_members, recs, n, err);
}

void rest_dbd_recs_free(rest_dbd_rec_t *recs, size_t n)
{
	for (size_t i = 0; recs && i < n; i++) {
		xfree(recs[i].name);
		xstrarray_free(recs[i].set);
		xfree(recs[i].account);
		xfree(recs[i].cluster);
		xfree(recs[i].user);
		xfree(recs[i].partition);
		xfree(recs[i].parent);
		xfree(recs[i].ignored);
		xstrarray_free(recs[i].coords);
	}
	xfree(recs);
}

/* ---- add_cond: POST accounts_association, users_association ---- */

/* Members of o other than the allowed ones (and meta, errors, warnings)
 * that are not empty: -1 with *err naming the first. */
static int only_members(json_object *o, const char *where,
			const char *const *allowed, char **err)
{
	json_object_object_foreach(o, k, v) {
		bool ok = !strcmp(k, "meta") || !strcmp(k, "errors") ||
			  !strcmp(k, "warnings");

		for (size_t i = 0; !ok && allowed[i]; i++)
			ok = !strcmp(k, allowed[i]);
		if (!ok && !empty(v)) {
			*err = xstrdup_printf("%s%s: not supported by Sluice",
					      where, k);
			return -1;
		}
	}
	return 0;
}

/* A string_list of names as "key=a,b" appended to *set (nothing if
 * absent or empty); -1 with *err if not a list of names. */
static int names_setting(json_object *o, const char *where, const char *member,
			 const char *key, char ***set, char **err)
{
	json_object *v = rest_json_get(o, member);
	const char *why = NULL;
	char *val = NULL, *kv;

	if (empty(v))
		return 0;
	if (names_value(v, &val, &why) < 0) {
		*err = xstrdup_printf("%s%s: %s", where, member, why);
		return -1;
	}
	kv = xstrdup_printf("%s=%s", key, val);
	*set = xstrarray_append(*set, kv);
	xfree(kv);
	xfree(val);
	return 0;
}

/* The names of list member (required, not empty), one per element. */
static int names_of(json_object *o, const char *where, const char *member,
		    char ***names, char **err)
{
	json_object *v = rest_json_get(o, member);
	size_t n = v && json_object_is_type(v, json_type_array) ?
		   json_object_array_length(v) : 0;

	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(v, i);

		if (!json_object_is_type(e, json_type_string) ||
		    !clean_name(json_object_get_string(e))) {
			n = 0;
			break;
		}
		*names = xstrarray_append(*names, json_object_get_string(e));
	}
	if (!n) {
		*err = xstrdup_printf("%s%s: expected a list of names", where,
				      member);
		xstrarray_free(*names);
		*names = NULL;
		return -1;
	}
	return 0;
}

/* The record's own settings (account_short, user_short) and the
 * association's (assoc_rec_set) appended to a->set. */
static int add_settings(json_object *rec, const char *rec_key,
			const member_t *rec_members, json_object *assoc,
			bool is_user, rest_dbd_add_t *a, char **err)
{
	char *bad = NULL, *ignored = NULL;
	const char *why = NULL;

	if (rec && !json_object_is_type(rec, json_type_object)) {
		*err = xstrdup_printf("%s: expected an object", rec_key);
		return -1;
	}
	if (assoc && !json_object_is_type(assoc, json_type_object)) {
		*err = xstrdup("association_condition/association: expected "
			       "an object");
		return -1;
	}
	if (rec && unknown_member(rec, rec_members, "", &bad)) {
		*err = xstrdup_printf("%s/%s: not supported by Sluice",
				      rec_key, bad);
		goto fail;
	}
	if (rec && settings_of(rec, rec_members, &a->set, &ignored, &bad,
			       &why) < 0) {
		*err = xstrdup_printf("%s/%s: %s", rec_key, bad, why);
		goto fail;
	}
	if (!assoc)
		return 0;
	if (is_user && !empty(rest_json_get(assoc, "parent"))) {
		*err = xstrdup("association_condition/association/parent: "
			       "an account's, not a user's");
		return -1;
	}
	if (unknown_member(assoc, assoc_set_members, "", &bad)) {
		*err = xstrdup_printf("association_condition/association/%s: "
				      "not supported by Sluice", bad);
		goto fail;
	}
	if (settings_of(assoc, assoc_set_members, &a->set, &ignored, &bad,
			&why) < 0) {
		*err = xstrdup_printf("association_condition/association/%s: "
				      "%s", bad, why);
		goto fail;
	}
	return 0;
fail:
	xfree(bad);
	xfree(ignored);
	return -1;
}

static const member_t account_short_members[] = {
	{ "description", "description", V_TEXT },
	{ "organization", "organization", V_TEXT },
	{ NULL, NULL, 0 }
};

static const member_t user_short_members[] = {
	{ "defaultaccount", "defaultaccount", V_TEXT },
	{ "adminlevel", "adminlevel", V_ADMIN },
	{ NULL, NULL, 0 }
};

static int add_parse(json_object *body, bool is_user, rest_dbd_add_t *a,
		     char **err)
{
	static const char *const top_acct[] = {
		"association_condition", "account", NULL };
	static const char *const top_user[] = {
		"association_condition", "user", NULL };
	static const char *const cond_acct[] = {
		"accounts", "clusters", "association", NULL };
	static const char *const cond_user[] = {
		"users", "accounts", "clusters", "partitions", "association",
		NULL };
	const char *where = "association_condition/";
	json_object *cond = rest_json_get(body, "association_condition");
	json_object *rec = rest_json_get(body, is_user ? "user" : "account");

	memset(a, 0, sizeof(*a));
	*err = NULL;
	if (!json_object_is_type(body, json_type_object) ||
	    !json_object_is_type(cond, json_type_object)) {
		*err = xstrdup("association_condition: expected an object");
		return -1;
	}
	if (only_members(body, "", is_user ? top_user : top_acct, err) < 0 ||
	    only_members(cond, where, is_user ? cond_user : cond_acct,
			 err) < 0 ||
	    names_of(cond, where, is_user ? "users" : "accounts", &a->names,
		     err) < 0 ||
	    (is_user && names_setting(cond, where, "accounts", "account",
				      &a->set, err) < 0) ||
	    names_setting(cond, where, "clusters", "cluster", &a->set,
			  err) < 0 ||
	    (is_user && names_setting(cond, where, "partitions", "partition",
				      &a->set, err) < 0))
		goto fail;
	if (add_settings(rec, is_user ? "user" : "account",
			 is_user ? user_short_members : account_short_members,
			 rest_json_get(cond, "association"), is_user, a,
			 err) < 0)
		goto fail;
	return 0;
fail:
	rest_dbd_add_free(a);
	return -1;
}

int rest_dbd_accounts_add_parse(json_object *body, rest_dbd_add_t *a,
				char **err)
{
	return add_parse(body, false, a, err);
}

int rest_dbd_users_add_parse(json_object *body, rest_dbd_add_t *a,
			     char **err)
{
	return add_parse(body, true, a, err);
}

void rest_dbd_add_free(rest_dbd_add_t *a)
{
	xstrarray_free(a->names);
	xstrarray_free(a->set);
	a->names = a->set = NULL;
}
