/* fuzz_pmi_wire.c — what a task sends slurmstepd's PMI server on PMI_FD:
 * PMI-1 "simple" lines, and after "cmd=init pmi_version=2" the PMI-2
 * length-prefixed commands (step_pmi.c, step_pmi2.c).  The answers go to
 * a closed socket; the server must neither crash nor overrun. */
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "../../src/slurmd/stepd/step_pmi.c"
#include "../../src/slurmd/stepd/step_pmi2.c"

void step_send(step_t *st, uint16_t type, uint32_t task, const void *p,
	       size_t len)
{
	(void) st; (void) type; (void) task; (void) p; (void) len;
}

void step_tasks_signal(step_t *st, int sig)
{
	(void) st; (void) sig;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	launch_tasks_request_msg_t m = { .job_id = 7, .step_id = 1,
					 .num_tasks = 2,
					 .pmi_mapping = "(vector,(0,1,2))" };
	step_task_t tasks[2] = { { .gtid = 0, .lid = 0 },
				 { .gtid = 1, .lid = 1 } };
	step_t st = { .m = &m, .ntasks = 2, .tasks = tasks };
	pmi_client_t *c;
	int child = -1;
	size_t off = 0;

	signal(SIGPIPE, SIG_IGN);
	st.pmi = step_pmi_create(&st);
	if (step_pmi_task_fd(st.pmi, &tasks[0], &child) < 0) {
		step_pmi_destroy(st.pmi);
		return 0;
	}
	close(child);
	c = &st.pmi->c[0];
	/* in pieces, as reads may deliver it */
	while (off < size && c->fd >= 0) {
		size_t n = size - off < 97 ? size - off : 97;

		if (n > PMI_BUF_MAX - c->len)
			n = PMI_BUF_MAX - c->len;
		if (!n)
			break;
		memcpy(c->buf + c->len, data + off, n);
		c->len += n;
		c->buf[c->len] = '\0';
		off += n;
		if (_pmi1_input(st.pmi, c) && c->ver == 2)
			pmi2_input(st.pmi, c);
	}
	step_pmi_fence_out(st.pmi, "a=b\nc\n=d\n", 9);
	step_pmi_destroy(st.pmi);
	return 0;
}
