/* job_mail.h — --mail-type/--mail-user: the controller runs MailProg
 * (slurm.conf, default /bin/mail) as "mail -s <subject> <user>" when a
 * job begins, ends, fails or is requeued, if the job asked for that
 * event.  Each mail runs on a detached thread of its own (posix_spawn and
 * wait), so a slow MailProg holds up nothing.
 */
#ifndef SLUICE_CTLD_JOB_MAIL_H
#define SLUICE_CTLD_JOB_MAIL_H

#include "ctld/job_mgr.h"

typedef enum {
	JOB_MAIL_BEGIN = 0,
	JOB_MAIL_END,          /* sent as FAIL when the job failed */
	JOB_MAIL_REQUEUE,
} job_mail_event_t;

/* The event happened to j: mail if j's --mail-type asks for it. */
void job_mail(const job_record_t *j, job_mail_event_t ev);

#endif
