/* cli_scontrol_part.c — scontrol create/update/delete PartitionName=
 * (REQUEST_CREATE/UPDATE/DELETE_PARTITION).  The Key=Value words are
 * checked here first with the slurm.conf partition parser
 * (conf_part_apply), so a bad one gets scontrol's message without a
 * round trip; the controller checks them again the same way. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/cli_common.h"
#include "cli/cli_scontrol.h"
#include "common/conf.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

/* Is word's key (before '=') PartitionName (or a prefix of it, 3+)? */
bool scontrol_is_part_word(const char *word)
{
	const char *eq = strchr(word, '=');
	size_t n = eq ? (size_t)(eq - word) : 0;

	return n >= 3 && n <= strlen("PartitionName") &&
	       !strncasecmp(word, "PartitionName", n);
}

/* Split argv into the partition's name and the other words (xfree the
 * array, not the words).  NULL name: none given. */
static char **part_words(int argc, char **argv, const char **name)
{
	char **w = xcalloc((size_t) argc + 1, sizeof(*w));
	size_t n = 0;

	*name = NULL;
	for (int i = 0; i < argc; i++) {
		if (!*name && scontrol_is_part_word(argv[i]))
			*name = strchr(argv[i], '=') + 1;
		else
			w[n++] = argv[i];
	}
	return w;
}

/* The words as the controller will take them: 0, or 1 with scontrol's
 * message printed. */
static int part_check(const char *name, char **words, bool update)
{
	conf_part_t p;
	char err[1024] = "";
	int rc;

	conf_part_init_named(&p, name);
	rc = conf_part_apply(&p, words, NULL, err, sizeof(err));
	conf_part_free(&p);
	if (!rc)
		return 0;
	for (char *line = err, *nl; line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		if (!nl && !*line && line != err)
			break;
		fprintf(stderr, "scontrol: error: %s\n", line);
		if (nl && !*nl) {       /* a message ending in a newline */
			fprintf(stderr, "\n");
			break;
		}
	}
	if (rc == CONF_PART_EKEY)
		fprintf(stderr, "scontrol: error: Request aborted\n");
	/* as Slurm's scontrol, whose update_part leaves errno unset */
	if (update && rc != CONF_PART_ENUM && rc != CONF_PART_ENOTSUP)
		fprintf(stderr, "slurm_update error: %s\n",
			slurm_strerror(0));
	return 1;
}

static int part_send(uint16_t type, int argc, char **argv, bool update)
{
	part_update_msg_t m = { 0 };
	const char *name;
	char **words = part_words(argc, argv, &name);
	int rc = 0, err;

	m.name = (char *) (name ? name : "");
	m.words = words;
	if (part_check(m.name, words, update)) {
		xfree(words);
		return 1;
	}
	err = cli_ctld_rpc_rc(type, &m, &rc);
	xfree(words);
	if (!err && !rc)
		return 0;
	if (update)
		fprintf(stderr, "slurm_update error: %s\n",
			err ? cli_comm_strerror(err) : slurm_strerror(rc));
	else
		fprintf(stderr, "Error creating the partition: %s\n",
			err ? cli_comm_strerror(err) : slurm_strerror(rc));
	return 1;
}

int scontrol_part_create(int argc, char **argv)
{
	return part_send(REQUEST_CREATE_PARTITION, argc, argv, false);
}

int scontrol_part_update(int argc, char **argv)
{
	return part_send(REQUEST_UPDATE_PARTITION, argc, argv, true);
}

int scontrol_part_delete(int argc, char **argv)
{
	part_update_msg_t m = { 0 };
	const char *arg = argv[0], *eq = strchr(arg, '=');
	int rc = 0, err;

	m.name = (char *) (eq ? eq + 1 : argc > 1 ? argv[1] : "");
	err = cli_ctld_rpc_rc(REQUEST_DELETE_PARTITION, &m, &rc);
	if (err || rc) {
		fprintf(stderr, "delete_partition %s: %s\n",
			eq ? arg : m.name,
			err ? cli_comm_strerror(err) : slurm_strerror(rc));
		return 1;
	}
	return 0;
}
