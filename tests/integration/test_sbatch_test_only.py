"""sbatch --test-only: the controller validates the job as a submit would
and says when, where and on how many CPUs it would start, as Slurm prints
it on stderr; no job is created (its id is used up, as in Slurm)."""

import os
import re
import time

USER = "sluice_u1"
LINE = (r"sbatch: Job (\d+) to start at (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d) using "
        r"(\d+) processors on nodes (\S+) in partition (\S+)\n")


def stamp(t):
    return time.mktime(time.strptime(t, "%Y-%m-%dT%H:%M:%S"))


def test_refusals(cluster):
    c = cluster
    r = c.run(["sbatch", "--test-only", "-p", "nope", "--wrap", "true"], user=USER)
    assert (r.rc, r.out) == (1, ""), r
    assert r.err == ("sbatch: error: invalid partition specified: nope\n"
                     "allocation failure: Invalid partition name specified\n"), r
    r = c.run(["sbatch", "--test-only", "-n", "100", "--wrap", "true"], user=USER)
    assert (r.rc, r.out) == (1, ""), r
    assert r.err == ("allocation failure: Requested node configuration is not "
                     "available\n"), r


def test_idle_cluster_starts_now_and_creates_nothing(cluster):
    c = cluster
    t0 = time.time()
    r = c.run(["sbatch", "--test-only", "-n", "4", "--wrap", "true"], user=USER)
    assert (r.rc, r.out) == (0, ""), r
    m = re.fullmatch(LINE, r.err)
    assert m, r
    jid, when, cpus, nodes, part = m.groups()
    assert abs(stamp(when) - t0) < 5
    assert (cpus, nodes, part) == ("4", "n[1-2]", "debug"), r
    assert jid not in c.all_job_states()
    nxt = c.sbatch(["--hold", "--wrap", "true"], user=USER)
    assert nxt == int(jid) + 1
    c.run(["scancel", str(nxt)], user=USER)


def test_busy_cluster_gives_the_end_of_running_work(cluster):
    """With every CPU taken by a 5-minute job, the start is its end."""
    c = cluster
    big = c.sbatch(["-n", "8", "-t", "5", "--wrap", "/usr/bin/sleep 120"], user=USER)
    c.wait_state(big, "RUNNING", 30)
    end = stamp(c.show_job(big)["EndTime"])
    r = c.run(["sbatch", "--test-only", "--parsable", "-n", "2", "--wrap", "true"],
              user=USER)
    assert (r.rc, r.out) == (0, ""), r
    m = re.fullmatch(LINE, r.err)
    assert m, r
    assert stamp(m.group(2)) == end, (r.err, end)
    assert m.group(3) == "2", r
    c.run(["scancel", str(big)], user=USER)
    c.wait_done(big, 30)


def test_srun_test_only(cluster):
    """srun --test-only creates no job and prints what sbatch's does
    (Slurm 22.05: "srun: Job 30 to start at ... using 3 processors on
    nodes n[1-2] in partition debug"); the command is not run."""
    c = cluster
    marker = os.path.join(c.workdir(USER), "srun-test-only-ran")
    before = c.all_job_states()
    t0 = time.time()
    r = c.run(["srun", "--test-only", "-N2", "-n3", "touch", marker],
              user=USER)
    assert (r.rc, r.out) == (0, ""), r
    m = re.fullmatch(LINE.replace("sbatch:", "srun:"), r.err)
    assert m, r
    jid, when, cpus, nodes, part = m.groups()
    assert abs(stamp(when) - t0) < 5
    assert (cpus, nodes, part) == ("3", "n[1-2]", "debug"), r
    assert c.all_job_states() == before
    time.sleep(1)
    assert not os.path.exists(marker)
    r = c.run(["srun", "--test-only", "-n", "100", "true"], user=USER)
    assert r.rc == 1 and r.err == ("allocation failure: Requested node "
                                   "configuration is not available\n"), r
