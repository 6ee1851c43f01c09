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
	JOB_MAIL_INVALID_DEPEND,
	JOB_MAIL_TIME50,       /* TIME_LIMIT_50 ... TIME_LIMIT (100 %) */
	JOB_MAIL_TIME80,
	JOB_MAIL_TIME90,
	JOB_MAIL_TIME100,
} job_mail_event_t;

/* The event happened to j: mail if j's --mail-type asks for it.  Tasks
 * of an array mail BEGIN/END/FAIL for the array as a whole (when the
 * first starts, when the last ends) unless ARRAY_TASKS is given. */
void job_mail(job_record_t *j, job_mail_event_t ev);
/* Once a second: running jobs that asked for TIME_LIMIT* mails and
 * reached 50/80/90/100 % of their time limit (each mailed once). */
void job_mail_time_check(time_t now);

#endif
