/* cli_sacctmgr_parse.c — sacctmgr's command line after the options:
 * command word, entity, names, where/set specs, format=, withassoc, tree.
 *
 * Keys are checked here, per entity and per place (where, set, add), so
 * that a bad spec is refused with Slurm's words before anything is sent:
 * " Unknown condition: K=V" / " Unknown option: K=V" and the hint line
 * Slurm prints for that entity.
 */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli/cli_sacctmgr.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static const struct {
	const char *word;
	size_t      min;       /* shortest accepted prefix */
	uint16_t    op;
} ops[] = {
	{ "add", 3, DBD_OP_ADD }, { "create", 2, DBD_OP_ADD },
	{ "modify", 1, DBD_OP_MODIFY }, { "update", 1, DBD_OP_MODIFY },
	{ "delete", 3, DBD_OP_DELETE }, { "remove", 3, DBD_OP_DELETE },
	{ "show", 3, DBD_OP_LIST }, { "list", 2, DBD_OP_LIST },
};

static const struct {
	const char *word;
	size_t      min;
	uint16_t    entity;
	bool        list_only;
} entities[] = {
	{ "accounts", 3, DBD_ENT_ACCOUNT, false },
	{ "associations", 3, DBD_ENT_ASSOC, true },
	{ "clusters", 2, DBD_ENT_CLUSTER, false },
	{ "coordinators", 2, DBD_ENT_COORD, false },
	{ "events", 1, DBD_ENT_EVENT, true },
	{ "jobs", 1, DBD_ENT_JOB, false },
	{ "problems", 4, DBD_ENT_PROBLEM, true },
	{ "qos", 1, DBD_ENT_QOS, false },
	{ "reservations", 4, DBD_ENT_RESV, true },
	{ "resources", 4, DBD_ENT_RESOURCE, false },
	{ "transactions", 3, DBD_ENT_TXN, true },
	{ "tres", 3, DBD_ENT_TRES, true },
	{ "txn", 3, DBD_ENT_TXN, true },
	{ "users", 1, DBD_ENT_USER, false },
	{ "wckeys", 1, DBD_ENT_WCKEY, false },
};

/* Spellings -> the key slurmdbd knows. */
static const struct {
	const char *word;
	const char *key;
} spellings[] = {
	{ "name", "name" }, { "names", "name" },
	{ "cluster", "cluster" }, { "clusters", "cluster" },
	{ "account", "account" }, { "accounts", "account" },
	{ "acct", "account" }, { "accts", "account" },
	{ "user", "user" }, { "users", "user" },
	{ "parent", "parent" }, { "description", "description" },
	{ "organization", "organization" },
	{ "defaultaccount", "defaultaccount" },
	{ "defaultwckey", "defaultwckey" }, { "defwckey", "defaultwckey" },
	{ "adminlevel", "adminlevel" }, { "fairshare", "fairshare" },
	{ "share", "fairshare" }, { "shares", "fairshare" },
	{ "grpjobs", "grpjobs" }, { "grpsubmitjobs", "grpsubmitjobs" },
	{ "grpsubmit", "grpsubmitjobs" }, { "grpwall", "grpwall" },
	{ "maxjobs", "maxjobs" }, { "maxsubmitjobs", "maxsubmitjobs" },
	{ "maxsubmit", "maxsubmitjobs" }, { "maxwall", "maxwall" },
	{ "qos", "qos" }, { "qoslevel", "qos" },
	{ "defaultqos", "defaultqos" }, { "priority", "priority" },
	{ "partition", "partition" }, { "id", "id" },
	{ "nodes", "nodes" }, { "node", "nodes" }, { "reason", "reason" },
	{ "reasons", "reason" }, { "start", "start" }, { "end", "end" },
	{ "event", "event" }, { "events", "event" }, { "states", "states" },
	{ "state", "states" },
	{ "server", "server" }, { "servers", "server" },
	{ "servertype", "servertype" }, { "count", "count" },
	{ "type", "type" }, { "percentallowed", "percentallowed" },
	{ "allowed", "allowed" }, { "wckey", "wckey" }, { "wckeys", "wckey" },
	{ "jobid", "jobid" }, { "jobids", "jobid" }, { "job", "jobid" },
	{ "derivedexitcode", "derivedexitcode" },
	{ "derivedec", "derivedexitcode" }, { "comment", "comment" },
	{ "admincomment", "admincomment" }, { "actor", "actor" },
	{ "actors", "actor" }, { "action", "action" },
	{ "actions", "action" }, { "ids", "id" },
	{ "maxjobsperuser", "maxjobspu" }, { "maxjobspu", "maxjobspu" },
	{ "maxsubmitjobsperuser", "maxsubmitjobspu" },
	{ "maxsubmitjobspu", "maxsubmitjobspu" },
	{ "grptres", "grptres" }, { "maxtres", "maxtres" },
	{ "maxtresperjob", "maxtres" }, { "maxtrespj", "maxtres" },
	{ "maxtrespernode", "maxtrespn" }, { "maxtrespn", "maxtrespn" },
	{ "maxtresperuser", "maxtrespu" }, { "maxtrespu", "maxtrespu" },
	{ "usagefactor", "usagefactor" }, { "preempt", "preempt" },
	{ "gracetime", "gracetime" }, { "flags", "flags" },
	{ "grptresmins", "grptresmins" },
	{ "grptresrunmins", "grptresrunmins" },
	{ "maxtresmins", "maxtresmins" },
	{ "maxtresminsperjob", "maxtresmins" },
	{ "maxtresminspj", "maxtresmins" },
};

/* Limit names from before TRES, which Slurm still takes: the TRES
 * setting each one is part of. */
static const struct {
	const char *word;
	const char *key;
	const char *tres;
} old_limits[] = {
	{ "grpcpus", "grptres", "cpu" }, { "grpmemory", "grptres", "mem" },
	{ "grpmem", "grptres", "mem" }, { "grpnodes", "grptres", "node" },
	{ "grpcpumins", "grptresmins", "cpu" },
	{ "grpcpurunmins", "grptresrunmins", "cpu" },
	{ "maxcpus", "maxtres", "cpu" }, { "maxcpusperjob", "maxtres", "cpu" },
	{ "maxnodes", "maxtres", "node" }, { "maxnodesperjob", "maxtres", "node" },
	{ "maxcpumins", "maxtresmins", "cpu" },
	{ "maxcpuminsperjob", "maxtresmins", "cpu" },
	{ "maxcpusperuser", "maxtrespu", "cpu" },
	{ "maxnodesperuser", "maxtrespu", "node" },
};

#define ASSOC_KEYS "fairshare priority qos defaultqos grpjobs grpsubmitjobs " \
	"grpwall maxjobs maxsubmitjobs maxwall grptres maxtres maxtrespn " \
	"grptresmins grptresrunmins maxtresmins "
#define QOS_KEYS "description priority grpjobs grpsubmitjobs grpwall " \
	"maxjobspu maxsubmitjobspu maxwall usagefactor preempt gracetime " \
	"flags grptres maxtres maxtrespu grptresmins grptresrunmins " \
	"maxtresmins "

/* Keys each entity takes, by place; indexed by dbd_entity_t. */
static const char *const where_keys[] = {
	[DBD_ENT_CLUSTER] = "name cluster ",
	[DBD_ENT_ACCOUNT] = "name account description organization cluster "
			    "parent user partition ",
	[DBD_ENT_USER] = "name user defaultaccount account cluster "
			 "partition ",
	[DBD_ENT_QOS] = "name qos id ",
	[DBD_ENT_ASSOC] = "id cluster account user partition parent ",
	[DBD_ENT_COORD] = "name user account ",
	[DBD_ENT_RESV] = "name cluster id ",
	[DBD_ENT_PROBLEM] = "cluster account user id ",
	[DBD_ENT_EVENT] = "cluster nodes reason user start end event states ",
	[DBD_ENT_WCKEY] = "name wckey cluster user id ",
	[DBD_ENT_RESOURCE] = "name server servertype cluster id description "
			     "type ",
	[DBD_ENT_TXN] = "id actor user cluster action start end ",
	[DBD_ENT_JOB] = "jobid cluster ",
	[DBD_ENT_TRES] = "type name id ",
};
static const char *const set_keys[DBD_ENT_TRES + 1] = {
	[DBD_ENT_CLUSTER] = ASSOC_KEYS,
	[DBD_ENT_ACCOUNT] = "description organization parent " ASSOC_KEYS,
	[DBD_ENT_USER] = "defaultaccount defaultwckey adminlevel "
			 ASSOC_KEYS,
	[DBD_ENT_QOS] = QOS_KEYS,
	[DBD_ENT_ASSOC] = ASSOC_KEYS,
	[DBD_ENT_RESOURCE] = "count servertype description percentallowed "
			     "allowed ",
	[DBD_ENT_JOB] = "derivedexitcode comment admincomment ",
};
static const char *const add_keys[DBD_ENT_TRES + 1] = {
	[DBD_ENT_CLUSTER] = "name " ASSOC_KEYS,
	[DBD_ENT_ACCOUNT] = "name description organization parent cluster "
			    ASSOC_KEYS,
	[DBD_ENT_USER] = "name account defaultaccount adminlevel cluster "
			 "partition " ASSOC_KEYS,
	[DBD_ENT_QOS] = "name " QOS_KEYS,
	[DBD_ENT_COORD] = "name user account ",
	[DBD_ENT_WCKEY] = "name user cluster ",
	[DBD_ENT_RESOURCE] = "name server count type servertype description "
			     "cluster percentallowed allowed ",
};

static bool word_is(const char *arg, const char *word, size_t min)
{
	size_t n = strlen(arg);

	return n >= min && n <= strlen(word) && !strncasecmp(arg, word, n);
}

static const char *op_word(uint16_t op)
{
	switch (op) {
	case DBD_OP_ADD:
		return "add";
	case DBD_OP_MODIFY:
		return "modify";
	case DBD_OP_DELETE:
		return "delete";
	default:
		return "list";
	}
}

/* The entities Slurm lists for each command (it knows more than we do). */
static const char *entity_help(uint16_t op)
{
	switch (op) {
	case DBD_OP_LIST:
		return "Input line must include \"Account\", \"Association\", "
		       "\"Cluster\", \"Configuration\",\n\"Event\", "
		       "\"Federation\", \"Problem\", \"QOS\", \"Resource\", "
		       "\"Reservation\",\n\"RunAwayJobs\", \"Stats\", "
		       "\"Transaction\", \"TRES\", \"User\", or \"WCKey\"\n";
	case DBD_OP_MODIFY:
		return "Input line must include \"Account\", \"Cluster\", "
		       "\"Federation\", \"Job\", \"QOS\", \"Resource\" or "
		       "\"User\"\n";
	default:
		return "Input line must include \"Account\", \"Cluster\", "
		       "\"Coordinator\", \"Federation\", \"QOS\", "
		       "\"Resource\", or \"User\"\n";
	}
}

/* The key slurmdbd knows for "Key=..." (malloc'd), or NULL. */
static char *normal_key(const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : 0;

	for (size_t i = 0; n && i < sizeof(spellings) / sizeof(spellings[0]);
	     i++)
		if (strlen(spellings[i].word) == n &&
		    !strncasecmp(spellings[i].word, arg, n))
			return xstrdup(spellings[i].key);
	return NULL;
}

/* Is key one of the space-separated words of list? */
static bool key_allowed(const char *list, const char *key)
{
	char *hay, *needle;
	bool ok;

	if (!list)
		return false;
	hay = xstrdup_printf(" %s", list);
	needle = xstrdup_printf(" %s ", key);
	ok = strstr(hay, needle) != NULL;
	xfree(hay);
	xfree(needle);
	return ok;
}

/* Slurm's message for a spec the entity does not take; returns 1. */
static int bad_spec(const mgr_cmd_t *c, const char *arg, bool in_set)
{
	if (c->op == DBD_OP_ADD) {
		FILE *out = c->entity == DBD_ENT_QOS ? stdout : stderr;

		fprintf(out, " Unknown option: %s\n", arg);
		if (c->entity != DBD_ENT_USER)
			fprintf(out, " Use keyword 'where' to modify "
				"condition\n");
		return 1;
	}
	if (in_set) {
		fprintf(stderr, " Unknown option: %s\n Use keyword 'where' to "
			"modify condition\n", arg);
		return 1;
	}
	fprintf(stderr, " Unknown condition: %s\n", arg);
	if (c->entity == DBD_ENT_QOS)
		fprintf(stderr, " Use keyword 'set' to modify "
			"SLURM_PRINT_VALUE\n");
	else if (c->entity != DBD_ENT_ASSOC)
		fprintf(stderr, " Use keyword 'set' to modify value\n");
	if (c->op == DBD_OP_DELETE && c->entity != DBD_ENT_CLUSTER)
		fprintf(stderr, " No conditions given to remove, not "
			"executing.\n");
	return 1;
}

static void add_names(mgr_cmd_t *c, const char *list)
{
	char **more = xstrsplit(list, ",", NULL);

	for (size_t i = 0; more[i]; i++)
		c->names = xstrarray_append(c->names, more[i]);
	xstrarray_free(more);
}

/* "GrpCPUs=10" -> "grptres=cpu=10", joined to a grptres= already given
 * ("GrpCPUs=10 GrpNodes=2" is "grptres=cpu=10,node=2"); false if arg is
 * not an old limit name. */
static bool old_limit(mgr_cmd_t *c, const char *arg, bool in_set, int *rc)
{
	const char *const *lists = c->op == DBD_OP_ADD ? add_keys : set_keys;
	const char *eq = strchr(arg, '=');
	size_t n = (size_t)(eq - arg), klen;
	char ***set = &c->set;
	char *kv;

	for (size_t i = 0; i < sizeof(old_limits) / sizeof(old_limits[0]);
	     i++) {
		if (strlen(old_limits[i].word) != n ||
		    strncasecmp(old_limits[i].word, arg, n))
			continue;
		if ((c->op != DBD_OP_ADD && !in_set) ||
		    !key_allowed(lists[c->entity], old_limits[i].key)) {
			*rc = bad_spec(c, arg, in_set);
			return true;
		}
		klen = strlen(old_limits[i].key);
		for (size_t k = 0; *set && (*set)[k]; k++) {
			if (!strncmp((*set)[k], old_limits[i].key, klen) &&
			    (*set)[k][klen] == '=') {
				xstrfmtcat(&(*set)[k], ",%s=%s",
					   old_limits[i].tres, eq + 1);
				*rc = 0;
				return true;
			}
		}
		kv = xstrdup_printf("%s=%s=%s", old_limits[i].key,
				    old_limits[i].tres, eq + 1);
		*set = xstrarray_append(*set, kv);
		xfree(kv);
		*rc = 0;
		return true;
	}
	return false;
}

/* A "Key=Value" spec. */
static int parse_spec(mgr_cmd_t *c, const char *arg, bool in_set)
{
	const char *const *lists = c->op == DBD_OP_ADD ? add_keys :
		in_set ? set_keys : where_keys;
	char *key = normal_key(arg);
	char *kv;
	int rc;

	if (!key && old_limit(c, arg, in_set, &rc))
		return rc;

	if (!key || !key_allowed(lists[c->entity], key)) {
		xfree(key);
		return bad_spec(c, arg, in_set);
	}
	kv = xstrdup_printf("%s=%s", key, strchr(arg, '=') + 1);
	if (c->op == DBD_OP_ADD && !strcmp(key, "name"))
		add_names(c, strchr(arg, '=') + 1);
	else if (c->op == DBD_OP_ADD || in_set)
		c->set = xstrarray_append(c->set, kv);
	else
		c->where = xstrarray_append(c->where, kv);
	xfree(kv);
	xfree(key);
	return 0;
}

/* One word after the entity.  0, or the exit code with the error shown. */
static int parse_word(mgr_cmd_t *c, const char *arg, bool *in_set)
{
	char *kv;

	if (!strcasecmp(arg, "where"))
		return (*in_set = false, 0);
	if (!strcasecmp(arg, "set"))
		return (*in_set = true, 0);
	if (!strcasecmp(arg, "withassoc") || !strcasecmp(arg, "withassocs"))
		return (c->with_assoc = true, 0);
	if (!strcasecmp(arg, "withcoord") || !strcasecmp(arg, "withcoords"))
		return (c->with_coord = true, 0);
	if (!strcasecmp(arg, "tree"))
		return (c->tree = true, 0);
	if (c->entity == DBD_ENT_RESOURCE &&
	    (!strcasecmp(arg, "withclusters") ||
	     !strcasecmp(arg, "withcluster")))
		return (c->with_assoc = true, 0);
	if (c->entity == DBD_ENT_EVENT && !strcasecmp(arg, "all_time"))
		return (c->all_time = true, 0);
	if (c->entity == DBD_ENT_EVENT && !strcasecmp(arg, "all_clusters"))
		return 0;     /* every cluster is what no cluster= lists */
	if (!strncasecmp(arg, "format=", 7)) {
		xfree(c->format);
		c->format = xstrdup(arg + 7);
		return 0;
	}
	if (strchr(arg, '='))
		return parse_spec(c, arg, *in_set);
	if (c->op == DBD_OP_ADD) {
		add_names(c, arg);
	} else {
		kv = xstrdup_printf("name=%s", arg);
		c->where = xstrarray_append(c->where, kv);
		xfree(kv);
	}
	return 0;
}

/* Coordinators: "add coordinator account=a names=u" keeps the users as
 * names and the accounts as a setting; delete takes both as conditions
 * ("names=u account=a", with or without "where"). */
static int coord_args(mgr_cmd_t *c)
{
	bool accts = false;

	if (c->op == DBD_OP_DELETE) {
		for (size_t i = 0; c->set && c->set[i]; i++)
			c->where = xstrarray_append(c->where, c->set[i]);
		xstrarray_free(c->set);
		c->set = NULL;
		for (size_t i = 0; c->where && c->where[i]; i++)
			if (!strncmp(c->where[i], "name=", 5)) {
				char *u = xstrdup_printf("user=%s",
							 c->where[i] + 5);

				xfree(c->where[i]);
				c->where[i] = u;
			}
	}
	if (c->op == DBD_OP_ADD) {
		char **keep = NULL;

		for (size_t i = 0; c->set && c->set[i]; i++)
			if (!strncmp(c->set[i], "user=", 5))
				add_names(c, c->set[i] + 5);
			else
				keep = xstrarray_append(keep, c->set[i]);
		xstrarray_free(c->set);
		c->set = keep;
	}
	for (char **kv = c->op == DBD_OP_DELETE ? c->where : c->set;
	     kv && *kv; kv++)
		accts |= !strncmp(*kv, "account=", 8);
	if (!accts) {
		fprintf(stderr, " You need to specify an account list here.\n");
		return 1;
	}
	return 0;
}

/* Events: Start=/End= as epoch seconds (the window's default: from
 * 00:00 of the previous day, unless all_time), User= as uids, Event=
 * node or cluster.  States= is refused: Sluice's event list cannot
 * select by state. */
static int event_args(mgr_cmd_t *c)
{
	bool start = false;
	char **where = NULL;
	int rc = 0;

	for (size_t i = 0; c->where && c->where[i] && !rc; i++) {
		char *kv = c->where[i], *v = strchr(kv, '=') + 1, *n = NULL;
		time_t t;

		if (!strncmp(kv, "start=", 6) || !strncmp(kv, "end=", 4)) {
			if (parse_time_past(v, time(NULL), &t) < 0) {
				fprintf(stderr, " Invalid time: %s\n", v);
				rc = 1;
				break;
			}
			start |= kv[0] == 's';
			n = xstrdup_printf("%.*s%lld", (int)(v - kv), kv,
					   (long long)t);
		} else if (!strncmp(kv, "user=", 5)) {
			char **names = xstrsplit(v, ",", NULL);

			n = xstrdup("user=");
			for (size_t u = 0; names[u] && !rc; u++) {
				struct passwd *pw = getpwnam(names[u]);

				if (!pw) {
					fprintf(stderr, " Unknown user: %s\n",
						names[u]);
					rc = 1;
				}
				xstrfmtcat(&n, "%s%u", u ? "," : "",
					   pw ? (unsigned)pw->pw_uid : 0);
			}
			xstrarray_free(names);
		} else if (!strncmp(kv, "event=", 6)) {
			if (strcasecmp(v, "node") && strcasecmp(v, "cluster")) {
				fprintf(stderr, " Unknown event type: %s\n"
					" Valid types are Cluster and Node.\n",
					v);
				rc = 1;
			}
			n = xstrdup_printf("event=%s", strcasecmp(v, "node") ?
					   "cluster" : "node");
		} else if (!strncmp(kv, "states=", 7)) {
			fprintf(stderr, " States= is not supported by Sluice's "
				"event list: select by Nodes=, Reason=, "
				"User= and the time window\n");
			rc = 1;
		} else {
			n = xstrdup(kv);
		}
		where = xstrarray_append(where, n ? n : kv);
		xfree(n);
	}
	if (!rc && !start && !c->all_time) {
		time_t now = time(NULL);
		struct tm tm;
		char *kv;

		localtime_r(&now, &tm);
		tm.tm_mday -= 1;
		tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
		tm.tm_isdst = -1;
		kv = xstrdup_printf("start=%lld", (long long)mktime(&tm));
		where = xstrarray_append(where, kv);
		xfree(kv);
	}
	xstrarray_free(c->where);
	c->where = where;
	return rc;
}

int cli_sacctmgr_parse(mgr_cmd_t *c, int argc, char **argv)
{
	bool in_set = false;
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (word_is(argv[0], ops[i].word, ops[i].min))
			break;
	if (i == sizeof(ops) / sizeof(ops[0])) {
		fprintf(stderr, "invalid keyword: %s\n", argv[0]);
		return 1;
	}
	c->op = ops[i].op;
	for (i = 0; argc > 1 && i < sizeof(entities) / sizeof(entities[0]); i++)
		if (word_is(argv[1], entities[i].word, entities[i].min) &&
		    (!entities[i].list_only || c->op == DBD_OP_LIST))
			break;
	if (argc >= 2 && c->op == DBD_OP_LIST &&
	    (word_is(argv[1], "instances", 3) ||
	     word_is(argv[1], "federations", 3))) {
		/* named by Slurm's list, not kept by Sluice's slurmdbd */
		fprintf(stderr, " sacctmgr show %s is not supported by Sluice "
			"yet\n", argv[1]);
		return 1;
	}
	if (argc < 2 || i == sizeof(entities) / sizeof(entities[0])) {
		fprintf(stderr, "No valid entity in %s command\n%s",
			op_word(c->op), entity_help(c->op));
		return 1;
	}
	c->entity = entities[i].entity;
	if (c->entity == DBD_ENT_COORD && (c->op == DBD_OP_LIST ||
					   c->op == DBD_OP_MODIFY)) {
		fprintf(stderr, "No valid entity in %s command\n%s",
			op_word(c->op), entity_help(c->op));
		return 1;
	}
	for (int a = 2; a < argc; a++)
		if (parse_word(c, argv[a], &in_set))
			return 1;
	if (c->entity == DBD_ENT_COORD)
		return coord_args(c);
	if (c->entity == DBD_ENT_EVENT)
		return event_args(c);
	return cli_sacctmgr_ext_args(c);
}

void cli_sacctmgr_cmd_free(mgr_cmd_t *c)
{
	xstrarray_free(c->names);
	xstrarray_free(c->where);
	xstrarray_free(c->set);
	xfree(c->format);
	memset(c, 0, sizeof(*c));
}

const char *cli_sacctmgr_plural(uint16_t entity)
{
	switch (entity) {
	case DBD_ENT_CLUSTER:
		return "clusters";
	case DBD_ENT_ACCOUNT:
		return "accounts";
	case DBD_ENT_USER:
		return "users";
	case DBD_ENT_QOS:
		return "QOS";
	case DBD_ENT_COORD:
		return "coordinators";
	case DBD_ENT_RESV:
		return "reservations";
	case DBD_ENT_PROBLEM:
		return "problems";
	case DBD_ENT_EVENT:
		return "events";
	case DBD_ENT_WCKEY:
		return "wckeys";
	case DBD_ENT_RESOURCE:
		return "resources";
	case DBD_ENT_TXN:
		return "transactions";
	case DBD_ENT_JOB:
		return "jobs";
	case DBD_ENT_TRES:
		return "tres";
	default:
		return "associations";
	}
}
