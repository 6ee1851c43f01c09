/* child.h — what each process slurmstepd starts (a task, a TaskProlog,
 * a TaskEpilog) sets up before it execs.
 */
#ifndef SLUICE_STEPD_CHILD_H
#define SLUICE_STEPD_CHILD_H

/* Every signal to its default disposition, none blocked: the program it
 * execs starts with signals as a fresh process has them, whatever
 * handlers and mask slurmstepd had. */
void child_default_signals(void);

#endif
