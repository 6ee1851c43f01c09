"""scancel of a job that was just requeued, while its node is still
cleaning up (the epilog runs): the cancel wins, as in Slurm, and the job
ends CANCELLED instead of running again.  Before, scancel answered "Job/step
already completing or completed" and the job started again."""

import os
import tempfile
import time

import cluster as cl

U = "sluice_u1"


def test_cancel_while_requeue_completes(new_cluster):
    d = tempfile.mkdtemp(prefix="sluice-requeue-")
    os.chmod(d, 0o755)
    epilog = os.path.join(d, "epilog.sh")
    with open(epilog, "w") as f:
        f.write("#!/bin/sh\nsleep 4\n")
    os.chmod(epilog, 0o755)
    c = new_cluster(nodes=1, extra_conf="Epilog=%s\n" % epilog)
    jid = c.sbatch(["-o", "/dev/null", "--wrap", "sleep 300"], user=U)
    c.wait_state(jid, {"RUNNING"})
    assert c.run(["scontrol", "requeue", str(jid)], user=U).rc == 0
    # the epilog keeps the node busy: the requeue is not done yet
    assert "CG" in c.run(["squeue", "-h", "-j", str(jid), "-o", "%t"]).out
    r = c.run(["scancel", str(jid)], user=U)
    assert r.rc == 0 and not r.err, r
    c.wait_done(jid, 30)
    assert c.job_state(jid) == "CANCELLED"
    j = c.show_job(jid)
    assert j.get("Restarts") == "1", j
    # and it does not start again
    time.sleep(3)
    assert c.job_state(jid) == "CANCELLED"
    launches = c.log_text("n1").count("Launching batch job %d " % jid)
    assert launches == 1, c.log_text("n1")[-3000:]
