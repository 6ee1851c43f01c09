/* profile.h — job profiling options (--profile, --acctg-freq) as Slurm
 * spells them, and AcctGatherProfileType's names.
 *
 * --profile=all|none|[energy[,|task[,|lustre[,|network]]]]: Sluice
 * gathers task and energy samples (acct_gather_profile/slurmdbd keeps
 * them in slurmdbd, sacct --profile); lustre and network are refused at
 * submit, since no node gathers them.  all = task and energy.
 * --acctg-freq=<datatype>=<seconds>[,...] with task, energy, network and
 * filesystem (as Slurm), or a bare number (= task). */
#ifndef SLUICE_PROFILE_H
#define SLUICE_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#define PROFILE_NOT_SET  0u
#define PROFILE_NONE     (1u << 0)
#define PROFILE_ENERGY   (1u << 1)
#define PROFILE_LUSTRE   (1u << 2)
#define PROFILE_NETWORK  (1u << 3)
#define PROFILE_TASK     (1u << 4)
#define PROFILE_ALL      (PROFILE_ENERGY | PROFILE_TASK)

#define PROFILE_TYPE_NONE    "acct_gather_profile/none"
#define PROFILE_TYPE_DBD     "acct_gather_profile/slurmdbd"

/* Parse a --profile value: 0 and *out, or -1 with why. */
int  profile_parse(const char *s, uint32_t *out, char *why, size_t len);
/* "Energy,Task", "None", "NotSet" (scontrol's words); static buffer. */
const char *profile_str(uint32_t p);

/* Check an --acctg-freq value: 0, or -1 with why. */
int  acctg_freq_check(const char *s, char *why, size_t len);
/* The seconds of type ("task", "energy") in spec (a bare number is the
 * task's); def if absent or bad. */
int  acctg_freq_of(const char *spec, const char *type, int def);

#endif
