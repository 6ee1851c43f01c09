"""scancel JOB.STEP (issue 34, defect 5): the step's tasks alone get the
signal (a cancel: SIGKILL), the batch shell and the other steps run on,
with Slurm's errors and exit codes for a step that does not exist and
for another user's step.

Checked against Slurm 22.05 (the oracle): a cancelled step prints
"*** STEP J.S ON node CANCELLED AT ... ***" and its srun ends; a step
that does not exist in a running job is "Kill job error on job step id
J.S: Invalid job id specified", exit 225; a job that is gone, the same
text, exit 1; a pending job's step: nothing done, exit 0.  For another
user's step 22.05 says "Invalid user id" (218); we answer as for their
job, "Access/permission denied" (210).
"""

import os
import time

from cluster import wait_for  # noqa: E402

U1 = "sluice_u1"
U2 = "sluice_u2"
ERR = "scancel: error: Kill job error on job step id %s: %s\n"


# Step 0 reports USR1 and marks that it is ready.
STEP0 = ("import signal, time\n"
         "signal.signal(signal.SIGUSR1, lambda *a: print(\"step0-usr1\", "
         "flush=True))\n"
         "open(\"%s\", \"w\").close()\n"
         "while True:\n"
         "    time.sleep(0.2)\n")


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def steps(c, j):
    """The job's srun steps (not its batch step) squeue -s shows."""
    r = c.run(["squeue", "-h", "-s", "-o", "%i"])
    assert r.rc == 0, r
    return sorted(s for s in r.out.split() if s.startswith("%d." % j) and
                  s[len("%d." % j):].isdigit())


def test_scancel_step(cluster):
    c = cluster
    out = os.path.join(c.workdir(U1), "steps.out")
    ready = os.path.join(c.workdir(U1), "step0.ready")
    srun = c.bin("srun")
    script = "\n".join([
        "#!/bin/sh",
        # step 0 reports USR1; step 1 only sleeps
        "%s --overlap /usr/bin/python3 -c '%s' &" % (srun, STEP0 % ready),
        # step 1 only once step 0 runs: step ids go in request order
        "while [ ! -e %s ]; do /usr/bin/sleep 0.1; done" % ready,
        "%s --overlap /usr/bin/sleep 300 &" % srun,
        "wait",
        "echo batch-after-steps",
        "",
    ])
    j = c.sbatch(["-o", out, "-J", "steps"], user=U1, input=script)
    c.wait_state(j, "RUNNING", 30)
    wait_for(lambda: steps(c, j) == ["%d.0" % j, "%d.1" % j], 30,
             "both steps running")
    wait_for(lambda: os.path.exists(ready), 30, "step 0 traps USR1")

    # another user's step: refused, nothing happens
    for args in ([], ["-s", "USR1"]):
        r = c.run(["scancel"] + args + ["%d.0" % j], user=U2)
        assert (r.rc, r.out, r.err) == (
            210, "", ERR % ("%d.0" % j, "Access/permission denied")), r
    # a step that does not exist in the running job
    for args in ([], ["-s", "USR1"]):
        r = c.run(["scancel"] + args + ["%d.9" % j], user=U1)
        assert (r.rc, r.out, r.err) == (
            225, "", ERR % ("%d.9" % j, "Invalid job id specified")), r
    time.sleep(1)
    assert "step0-usr1" not in read(out)

    # --signal reaches step 0's tasks, not the batch shell (which would
    # die of USR1) nor step 1
    r = c.run(["scancel", "-s", "USR1", "%d.0" % j], user=U1)
    assert (r.rc, r.out, r.err) == (0, "", ""), r
    wait_for(lambda: "step0-usr1" in read(out), 20,
             "USR1 in step 0: %r" % read(out))
    assert steps(c, j) == ["%d.0" % j, "%d.1" % j]
    assert c.job_state(j) == "RUNNING"

    # cancel step 1: it ends, step 0 and the batch shell run on
    r = c.run(["scancel", "%d.1" % j], user=U1)
    assert (r.rc, r.out, r.err) == (0, "", ""), r
    wait_for(lambda: steps(c, j) == ["%d.0" % j], 20, "step 1 gone")
    wait_for(lambda: "*** STEP %d.1 ON " % j in read(out), 10,
             "the cancel noted on the step's stderr")
    assert "CANCELLED AT" in read(out)
    assert c.job_state(j) == "RUNNING"
    r = c.run(["scancel", "%d.1" % j], user=U1)
    assert (r.rc, r.err) == (
        225, ERR % ("%d.1" % j, "Invalid job id specified")), r

    # cancel step 0: the batch shell goes on past its wait and completes
    r = c.run(["scancel", "%d.0" % j], user=U1)
    assert (r.rc, r.out, r.err) == (0, "", ""), r
    assert c.wait_done(j, 30) == "COMPLETED"
    assert "batch-after-steps" in read(out)

    # the job is gone; one that never existed
    for jid in (j, 999999):
        r = c.run(["scancel", "%d.0" % jid], user=U1)
        assert (r.rc, r.out, r.err) == (
            1, "", ERR % ("%d.0" % jid, "Invalid job id specified")), r


def test_scancel_step_of_pending_job(cluster):
    c = cluster
    j = c.sbatch(["--hold", "--wrap", "true"], user=U1)
    r = c.run(["scancel", "%d.0" % j], user=U1)
    assert (r.rc, r.out, r.err) == (0, "", ""), r
    assert c.job_state(j) == "PENDING"
    r = c.run(["scancel", "%d.0" % j], user=U2)
    assert (r.rc, r.err) == (
        210, ERR % ("%d.0" % j, "Access/permission denied")), r
    r = c.run(["scancel", str(j)], user=U1)
    assert r.rc == 0, r
    assert c.wait_done(j, 30) == "CANCELLED"


def test_scancel_step_on_two_nodes(cluster):
    c = cluster
    out = os.path.join(c.workdir(U1), "steps2.out")
    script = "\n".join([
        "#!/bin/sh",
        "%s -N 2 -n 2 /usr/bin/sleep 300 &" % c.bin("srun"),
        "wait",
        "echo batch-after-step",
        "",
    ])
    j = c.sbatch(["-N", "2", "-o", out, "-J", "steps2"], user=U1,
                 input=script)
    c.wait_state(j, "RUNNING", 30)
    wait_for(lambda: steps(c, j) == ["%d.0" % j], 30, "the step running")
    time.sleep(1)
    r = c.run(["scancel", "%d.0" % j], user=U1)
    assert (r.rc, r.out, r.err) == (0, "", ""), r
    assert c.wait_done(j, 30) == "COMPLETED"
    text = read(out)
    assert "batch-after-step" in text, text
    # each of its nodes noted the cancel
    assert text.count("*** STEP %d.0 ON " % j) == 2, text
