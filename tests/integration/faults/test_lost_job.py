"""A batch job whose node lost it (its slurmstepd died with it): when the
node registers again without the job, the controller requeues it if it
may be requeued (--requeue) and it runs again to completion; otherwise it
ends NODE_FAIL."""

import os
import signal
import time

import cluster as cl


def _stepd_of(c, jobid):
    """PIDs of the job's batch shell and its slurmstepd."""
    key = ("SLURM_JOB_ID=%d\0" % jobid).encode()
    for pid in cl._all_pids():
        try:
            with open("/proc/%d/environ" % pid, "rb") as f:
                env = f.read()
        except OSError:
            continue
        if key in env and c.dir.encode() in env:
            st = cl._proc_status(pid)
            if st:
                return pid, int(st["PPid"])
    return None, None


def _lose(c, jobid, node):
    """Kill the job's stepd and processes, then restart the node's slurmd
    so that it registers without the job."""
    shell, stepd = _stepd_of(c, jobid)
    assert shell and stepd, "no processes of job %d found" % jobid
    os.kill(stepd, signal.SIGKILL)
    os.kill(shell, signal.SIGKILL)
    c.kill_slurmd(node, signal.SIGKILL)
    c.start_slurmd(node)


def test_lost_job_requeued_or_node_fail(new_cluster):
    c = new_cluster(tag="lost-job")
    out = c.mkdir_for("sluice_u1", os.path.join(c.dir, "jobs", "lost"))
    script = ("#!/bin/sh\nn=${SLURM_RESTART_COUNT:-0}\n"
              "echo run $n >> %s/$SLURM_JOB_ID\n"
              "[ $n = 0 ] && exec /usr/bin/sleep 300\n"
              "exit 0\n" % out)
    rq = c.sbatch(["--requeue", "-w", "n1"], user="sluice_u1", input=script)
    nrq = c.sbatch(["--no-requeue", "-w", "n2"], user="sluice_u1", input=script)
    c.wait_state(rq, "RUNNING", 30)
    c.wait_state(nrq, "RUNNING", 30)
    # past the grace the controller gives a job that is being launched
    time.sleep(16)
    log0 = c.log_size()
    _lose(c, rq, "n1")
    _lose(c, nrq, "n2")
    assert c.wait_done(nrq, 60) == "NODE_FAIL", c.show_job(nrq)
    assert c.wait_done(rq, 90) == "COMPLETED", c.show_job(rq)
    assert c.show_job(rq).get("Restarts") == "1", c.show_job(rq)
    with open(os.path.join(out, str(rq))) as f:
        assert f.read().split("\n")[:2] == ["run 0", "run 1"]
    log = c.log_since(log0)
    assert "Batch JobId=%d missing from batch node n1, requeuing it" % rq in log, log
    assert "Batch JobId=%d missing from batch node n2, killing it" % nrq in log, log
