/* daemon_notify.c — see daemon_notify.h. */
#include "common/daemon_notify.h"

#include <systemd/sd-daemon.h>
#include <unistd.h>

#include "common/log.h"

void daemon_notify_ready(const char *status)
{
	int rc = sd_notifyf(0, "READY=1\nMAINPID=%lu\nSTATUS=%s",
			    (unsigned long) getpid(), status ? status : "");

	if (rc < 0)
		error("sd_notify: cannot tell the service manager we are "
		      "ready: rc=%d", rc);
	else if (rc > 0)
		debug("sd_notify: READY=1 sent");
}

void daemon_notify_stopping(void)
{
	sd_notify(0, "STOPPING=1");
}
