"""A batch launch that gets no answer is resent, not failed: the slurmd
may be restarting.  slurmd is down when the job starts and back before
SlurmdTimeout; the job must still run and complete."""
import os
import time


def test_launch_resent_until_slurmd_returns(new_cluster, users):
    c = new_cluster(nodes=1, slurmd_timeout=20)
    user = users[0].pw_name
    wd = c.workdir(user)
    c.kill_slurmd("n1")
    jobid = c.sbatch(["-o", os.path.join(wd, "retry-%j.out"),
                      "--wrap", "echo ran on $SLURMD_NODENAME"],
                     user=user, cwd=wd)
    assert c.wait_state(jobid, {"RUNNING"}, timeout=20) == "RUNNING"
    time.sleep(3)           # at least one launch attempt was refused
    c.start_slurmd("n1")
    assert c.wait_done(jobid, timeout=60) == "COMPLETED", c.show_job(jobid)
    with open(os.path.join(wd, "retry-%d.out" % jobid)) as f:
        assert f.read() == "ran on n1\n"
