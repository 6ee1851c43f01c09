/* test_ctld_send.c — the node's retried sender to the controller
 * (src/slurmd/common/ctld_send.c): a message type with a refresh hook
 * is brought up to date before every try, so what finally reaches the
 * controller is the node's state at that moment, not when it was
 * queued. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../../src/slurmd/common/ctld_send.c"
#include "common/xstring.h"

static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;
static int tries;
static uint32_t last_cnt;

/* Stands in for the slurmd's spool scan: one more job each try. */
static void refresh(void *data, void *arg)
{
	node_registration_msg_t *r = data;

	assert_ptr_equal(arg, &tries);
	pthread_mutex_lock(&seen_lock);
	r->job_cnt++;
	last_cnt = r->job_cnt;
	tries++;
	pthread_mutex_unlock(&seen_lock);
}

/* A loopback port nobody listens on: every try is refused at once and
 * the sender backs off and tries again. */
static uint16_t closed_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *) &a, sizeof(a)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *) &a, &len), 0);
	close(fd);
	return ntohs(a.sin_port);
}

static void test_refresh_before_every_try(void **state)
{
	char *hosts[] = { "ctld", NULL }, *addrs[] = { "127.0.0.1", NULL };
	slurm_conf_t conf = { .ctld_hosts = hosts, .ctld_addrs = addrs,
			      .ctld_host_cnt = 1, .message_timeout = 1 };
	node_registration_msg_t *r = xmalloc(sizeof(*r));
	ctld_sender_t *s;
	int n = 0, seen_tries = 0;

	(void) state;
	conf.slurmctld_port = closed_port();
	s = ctld_sender_create(&conf);
	assert_non_null(s);
	ctld_sender_set_refresh(s, MESSAGE_NODE_REGISTRATION, refresh, &tries);
	r->node_name = xstrdup("n1");
	ctld_sender_queue(s, MESSAGE_NODE_REGISTRATION, r, -1);
	/* 250 ms, then 500 ms of backoff: a third try within ~2 s */
	while (n++ < 100) {
		pthread_mutex_lock(&seen_lock);
		seen_tries = tries;
		pthread_mutex_unlock(&seen_lock);
		if (seen_tries >= 3)
			break;
		usleep(50 * 1000);
	}
	assert_true(seen_tries >= 3);
	/* each try saw the message as the previous try left it */
	pthread_mutex_lock(&seen_lock);
	assert_int_equal(last_cnt, (uint32_t) tries);
	pthread_mutex_unlock(&seen_lock);
	/* never acknowledged: still queued, freed with the sender */
	assert_int_equal(ctld_sender_flush(s, 0), -1);
	ctld_sender_destroy(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refresh_before_every_try),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
