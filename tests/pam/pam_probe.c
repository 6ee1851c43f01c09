/* pam_probe — a login's account check without sshd:
 *
 *     pam_probe CONFDIR SERVICE USER [COMMAND ARGS...]
 *
 * pam_start_confdir(SERVICE, USER, CONFDIR) + pam_acct_mgmt in this
 * process (so a module that adopts "the calling process" adopts this
 * one), messages from the modules on stdout ("msg: ..."), the result
 * ("pam: Success" / "pam: Permission denied") and, on success, COMMAND
 * exec'd in the same process (exit 1 on refusal). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <security/pam_appl.h>

static int conv(int n, const struct pam_message **msg,
		struct pam_response **resp, void *data)
{
	struct pam_response *r = calloc((size_t) n, sizeof(*r));

	(void) data;
	if (!r)
		return PAM_BUF_ERR;
	for (int i = 0; i < n; i++)
		printf("msg: %s\n", msg[i]->msg);
	fflush(stdout);
	*resp = r;
	return PAM_SUCCESS;
}

int main(int argc, char **argv)
{
	struct pam_conv c = { conv, NULL };
	pam_handle_t *h = NULL;
	int rc;

	if (argc < 4) {
		fprintf(stderr, "usage: pam_probe CONFDIR SERVICE USER [CMD...]\n");
		return 2;
	}
	rc = pam_start_confdir(argv[2], argv[3], &c, argv[1], &h);
	if (rc == PAM_SUCCESS)
		rc = pam_acct_mgmt(h, 0);
	printf("pam: %s\n", pam_strerror(h, rc));
	fflush(stdout);
	pam_end(h, rc);
	if (rc != PAM_SUCCESS)
		return 1;
	if (argc > 4) {
		execvp(argv[4], argv + 4);
		perror(argv[4]);
		return 127;
	}
	return 0;
}
