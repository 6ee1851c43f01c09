/* report.h — what slurmstepd tells the controller, queued on the
 * retrying sender (ctld_send.h). */
#ifndef SLUICE_STEPD_REPORT_H
#define SLUICE_STEPD_REPORT_H

#include "slurmd/stepd/stepd.h"

/* REQUEST_COMPLETE_BATCH_SCRIPT with the script's wait status and usage;
 * a byte (CTLD_SEND_*) goes to notify_fd once the controller acknowledged
 * it.  clean: BATCH_END_CLEAN (nothing is left to do here at the end). */
void report_batch_complete(stepd_t *sd, int notify_fd, bool clean);
/* MESSAGE_EPILOG_COMPLETE: nothing of the job is left on this node;
 * rc is the Epilog's exit code (0 when none is configured). */
void report_epilog_complete(stepd_t *sd, int rc);

#endif
