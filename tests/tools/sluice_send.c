/* sluice_send.c — test tool: send one captured request body to a daemon.
 *
 * Usage (SLURM_CONF set): sluice_send TYPE HOST:PORT HEXFILE [field=value...]
 *
 * TYPE is a message type name (REQUEST_LAUNCH_TASKS) or number; HEXFILE
 * holds the body as fwd_pack_hex() text (what srun writes with
 * SLUICE_TEST_LAUNCH_DUMP=DIR).  For REQUEST_LAUNCH_TASKS the string
 * fields node_list, cred_sig, user_name and cwd may be replaced.  The
 * request goes out with the invoking user's credential, as the commands
 * send theirs (cli_init + net_rpc_rc).  Prints "rc N: text"; exits 0 if
 * the daemon answered 0, else 1 (2 on a usage or input error).
 * Used by tests/integration (step credential replay); not installed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_common.h"
#include "common/forward.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

static int _type(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (*s && !*end && v <= 0xffff)
		return (int) v;
	for (unsigned t = 0; t <= 0xffff; t++)
		if (!strcmp(msg_type_name((uint16_t) t), s))
			return (int) t;
	return -1;
}

static char *_read_hex(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL, line[65536];

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f))
		xstrcat(&text, line);
	fclose(f);
	if (text)
		text[strcspn(text, "\r\n")] = '\0';
	return text;
}

static int _set(uint16_t type, void *data, const char *arg)
{
	launch_tasks_request_msg_t *m = data;
	const char *eq = strchr(arg, '=');
	char **field = NULL;
	size_t klen;

	if (!eq || type != REQUEST_LAUNCH_TASKS)
		return -1;
	klen = (size_t) (eq - arg);
	if (klen == 9 && !strncmp(arg, "node_list", klen))
		field = &m->node_list;
	else if (klen == 8 && !strncmp(arg, "cred_sig", klen))
		field = &m->cred_sig;
	else if (klen == 9 && !strncmp(arg, "user_name", klen))
		field = &m->user_name;
	else if (klen == 3 && !strncmp(arg, "cwd", klen))
		field = &m->cwd;
	if (!field)
		return -1;
	xfree(*field);
	*field = xstrdup(eq + 1);
	return 0;
}

int main(int argc, char **argv)
{
	char *hex, *host, *colon;
	void *data = NULL;
	int type, rc = 0, err;
	unsigned long port;

	if (argc < 4) {
		fprintf(stderr, "Usage: sluice_send TYPE HOST:PORT HEXFILE "
			"[field=value ...]\n");
		return 2;
	}
	cli_init("sluice_send", 0);
	if ((type = _type(argv[1])) < 0) {
		fprintf(stderr, "sluice_send: unknown message type %s\n",
			argv[1]);
		return 2;
	}
	host = xstrdup(argv[2]);
	colon = strrchr(host, ':');
	port = colon ? strtoul(colon + 1, NULL, 10) : 0;
	if (!colon || !port || port > 65535) {
		fprintf(stderr, "sluice_send: bad HOST:PORT %s\n", argv[2]);
		xfree(host);
		return 2;
	}
	*colon = '\0';
	hex = _read_hex(argv[3]);
	if (!hex || fwd_unpack_hex((uint16_t) type, hex, 0, &data) < 0) {
		fprintf(stderr, "sluice_send: %s: not a %s body\n", argv[3],
			msg_type_name((uint16_t) type));
		xfree(hex);
		xfree(host);
		return 2;
	}
	xfree(hex);
	for (int i = 4; i < argc; i++)
		if (_set((uint16_t) type, data, argv[i]) < 0) {
			fprintf(stderr, "sluice_send: cannot set %s\n",
				argv[i]);
			msg_body_free((uint16_t) type, data);
			xfree(host);
			return 2;
		}
	err = net_rpc_rc(host, (uint16_t) port, (uint16_t) type, data, &rc,
			 cli_conf()->message_timeout * 1000);
	if (err)
		rc = err;
	printf("rc %d: %s\n", rc, slurm_strerror(rc));
	msg_body_free((uint16_t) type, data);
	xfree(host);
	return rc ? 1 : 0;
}
