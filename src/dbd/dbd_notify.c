/* dbd_notify.c — ACCOUNTING_UPDATE_MSG to the controllers (dbd_notify.h). */
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "dbd/dbd_notify.h"
#include "slurm/slurm_errno.h"

#define NOTIFY_TIMEOUT_MS 3000

static struct {
	pthread_t       thread;
	bool            started;
	bool            stopping;
	pthread_mutex_t mutex;
	pthread_cond_t  cond;
	char          **targets;     /* "host\nport" each, pending */
} nt = { .mutex = PTHREAD_MUTEX_INITIALIZER,
	 .cond = PTHREAD_COND_INITIALIZER };

static void send_one(const char *target)
{
	char *host = xstrdup(target), *nl = strchr(host, '\n');
	int rc = 0, err;

	if (nl) {
		*nl = '\0';
		err = net_rpc_rc(host, (uint16_t)atoi(nl + 1),
				 ACCOUNTING_UPDATE_MSG, NULL, &rc,
				 NOTIFY_TIMEOUT_MS);
		if (err || rc)
			debug("ACCOUNTING_UPDATE_MSG to %s:%s: %s", host,
			      nl + 1, slurm_strerror(err ? err : rc));
	}
	xfree(host);
}

static void *notify_main(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&nt.mutex);
	for (;;) {
		char **targets;

		while (!nt.targets && !nt.stopping)
			pthread_cond_wait(&nt.cond, &nt.mutex);
		if (nt.stopping)
			break;
		targets = nt.targets;
		nt.targets = NULL;
		pthread_mutex_unlock(&nt.mutex);
		for (size_t i = 0; targets[i]; i++)
			send_one(targets[i]);
		xstrarray_free(targets);
		pthread_mutex_lock(&nt.mutex);
	}
	pthread_mutex_unlock(&nt.mutex);
	return NULL;
}

int dbd_notify_init(void)
{
	sigset_t all, old;
	int rc;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&nt.thread, NULL, notify_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		error("dbd_notify: pthread_create: %s", strerror(rc));
		return -1;
	}
	nt.started = true;
	return 0;
}

void dbd_notify_send(dbd_db_t *db)
{
	dbd_rows_t rows;
	char **targets = NULL;

	if (!nt.started || dbd_db_select(db, "SELECT control_host, "
			  "control_port FROM cluster_table WHERE deleted=0 "
			  "AND control_port>0 AND control_host<>''",
			  &rows) < 0)
		return;
	for (uint32_t i = 0; i < rows.rows; i++) {
		char *t = xstrdup_printf("%s\n%s", dbd_rows_get(&rows, i, 0),
					 dbd_rows_get(&rows, i, 1));

		targets = xstrarray_append(targets, t);
		xfree(t);
	}
	dbd_rows_free(&rows);
	if (!targets)
		return;
	pthread_mutex_lock(&nt.mutex);
	/* a change already queued covers this one: one reload is enough */
	if (!nt.targets)
		nt.targets = targets;
	else
		xstrarray_free(targets);
	pthread_cond_signal(&nt.cond);
	pthread_mutex_unlock(&nt.mutex);
}

void dbd_notify_fini(void)
{
	if (!nt.started)
		return;
	pthread_mutex_lock(&nt.mutex);
	nt.stopping = true;
	pthread_cond_signal(&nt.cond);
	pthread_mutex_unlock(&nt.mutex);
	pthread_join(nt.thread, NULL);
	xstrarray_free(nt.targets);
	nt.targets = NULL;
	nt.started = false;
}
