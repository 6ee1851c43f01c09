"""The node Prolog and Epilog without PrologFlags=Alloc (as Slurm): the
Prolog runs on every node of a job, once, before the job's first task
there (the batch script on the batch node, the first srun step on the
others; jobs srun creates too); the Epilog runs on each of those nodes
when the job ends.  A failing Prolog before a step drains the node."""

import os
import re
import time

import pytest

PROLOG = """#!/bin/sh
echo "prolog $SLURM_JOB_ID $SLURMD_NODENAME $SLURM_SCRIPT_CONTEXT $SLURM_JOB_USER $SLURM_JOB_NODELIST" >> {log}
[ -e {dir}/fail.$SLURMD_NODENAME ] && exit 1
exit 0
"""
EPILOG = """#!/bin/sh
echo "epilog $SLURM_JOB_ID $SLURMD_NODENAME $SLURM_SCRIPT_CONTEXT $SLURM_JOB_USER" >> {log}
"""


@pytest.fixture(scope="module")
def npc(users):
    import cluster as cl
    import conftest
    c = cl.Cluster(tag="nodeprolog", nodes=2)
    out = os.path.join(c.dir, "log", "scripts")
    os.makedirs(out)
    c.scripts = out
    c.plog = os.path.join(out, "runs")
    for name, text in (("prolog", PROLOG), ("epilog", EPILOG)):
        path = os.path.join(c.dir, "etc", "%s.sh" % name)
        with open(path, "w") as f:
            f.write(text.format(log=c.plog, dir=out))
        os.chmod(path, 0o755)
    c.extra_conf = ("Prolog=%s/etc/prolog.sh\nEpilog=%s/etc/epilog.sh"
                    % (c.dir, c.dir))
    conftest._ACTIVE.append(c)
    try:
        c.start()
    except BaseException:
        conftest._stop(c, keep=True)
        raise
    yield c
    conftest._stop(c)


def runs(c, jobid):
    """[(kind, node, rest...)] of one job's script runs, in order."""
    if not os.path.exists(c.plog):
        return []
    out = []
    for line in open(c.plog).read().splitlines():
        f = line.split()
        if len(f) >= 3 and f[1] == str(jobid):
            out.append((f[0], f[2]) + tuple(f[3:]))
    return out


def wait_epilogs(c, jobid, nodes, timeout=30):
    end = time.time() + timeout
    while time.time() < end:
        got = sorted(r[1] for r in runs(c, jobid) if r[0] == "epilog")
        if got == sorted(nodes):
            return
        time.sleep(0.2)
    raise AssertionError("epilogs of %s: %s" % (jobid, runs(c, jobid)))


def prologs(c, jobid):
    return sorted(r[1] for r in runs(c, jobid) if r[0] == "prolog")


def test_srun_job_runs_prolog_on_each_node_then_epilog(npc):
    c = npc
    r = c.run(["srun", "-N2", "sh", "-c", "echo $SLURM_JOB_ID"],
              user="sluice_u1", timeout=60)
    assert r.rc == 0, r
    jobid = r.out.split()[0]
    # the Prolog ran before the tasks, once on each node, as Slurm's
    assert prologs(c, jobid) == c.node_names, runs(c, jobid)
    for kind, node, ctx, user, nodes in (x for x in runs(c, jobid)
                                         if x[0] == "prolog"):
        assert (ctx, user) == ("prolog_slurmd", "sluice_u1")
        assert nodes == "%s" % c.run(["scontrol", "show", "hostlist",
                                      ",".join(c.node_names)]).out.strip()
    wait_epilogs(c, jobid, c.node_names)
    assert prologs(c, jobid) == c.node_names   # not again at the end
    # the Epilog knows the job's user where its steps ran
    for kind, node, ctx, user in (x for x in runs(c, jobid)
                                  if x[0] == "epilog"):
        assert (ctx, user) == ("epilog_slurmd", "sluice_u1"), runs(c, jobid)


def test_batch_job_prolog_once_per_node_and_steps_do_not_rerun(npc):
    c = npc
    srun = c.bin("srun")
    jobid = c.sbatch(["-N2", "-o", "/dev/null", "--wrap",
                      "%s -N2 true && %s -N2 true && %s -N1 true"
                      % (srun, srun, srun)], user="sluice_u1")
    assert c.wait_done(jobid, 60) == "COMPLETED", c.show_job(jobid)
    assert prologs(c, jobid) == c.node_names, runs(c, jobid)
    wait_epilogs(c, jobid, c.node_names)
    # the Epilog after every Prolog of the node
    seq = runs(c, jobid)
    for n in c.node_names:
        kinds = [k for k, node, *_ in seq if node == n]
        assert kinds == ["prolog", "epilog"], seq
    assert [x[3] for x in seq if x[0] == "epilog"] == ["sluice_u1"] * 2, seq


def test_batch_job_without_steps_epilog_on_every_node(npc):
    """No srun step: the batch node learns of the end in the controller's
    answer to its completion, the other node from slurmd; either way the
    Epilog runs on each node with the job's user, and the nodes are free
    for the next job only after it."""
    c = npc
    one = c.sbatch(["-N1", "-w", c.node_names[1], "-o", "/dev/null",
                    "--wrap", "true"], user="sluice_u1")
    both = c.sbatch(["-N2", "-o", "/dev/null", "--wrap", "exit 3"],
                    user="sluice_u1")
    assert c.wait_done(one, 60) == "COMPLETED", c.show_job(one)
    assert c.wait_done(both, 60) == "FAILED", c.show_job(both)
    wait_epilogs(c, one, [c.node_names[1]])
    wait_epilogs(c, both, c.node_names)
    for jobid in (one, both):
        for x in runs(c, jobid):
            if x[0] == "epilog":
                assert x[2:] == ("epilog_slurmd", "sluice_u1"), \
                    runs(c, jobid)
    # the Prolog ran on the batch node only (nothing ran on the other)
    assert len(prologs(c, both)) == 1, runs(c, both)
    assert c.show_job(both)["ExitCode"] == "3:0"
    # both nodes come back: a job needing both runs
    nxt = c.sbatch(["-N2", "-o", "/dev/null", "--wrap", "true"],
                   user="sluice_u1")
    assert c.wait_done(nxt, 60) == "COMPLETED", c.show_job(nxt)
    wait_epilogs(c, nxt, c.node_names)


def test_salloc_steps_run_prolog_once(npc):
    c = npc
    r = c.run(["salloc", "-N2", "--no-shell"], user="sluice_u1")
    assert r.rc == 0, r
    jobid = re.search(r"Granted job allocation (\d+)", r.err).group(1)
    try:
        # nothing runs on the nodes yet: no Prolog
        assert prologs(c, jobid) == [], runs(c, jobid)
        r = c.run(["srun", "--jobid=" + jobid, "-N1", "true"],
                  user="sluice_u1", timeout=60)
        assert r.rc == 0, r
        assert len(prologs(c, jobid)) == 1, runs(c, jobid)
        for _ in range(2):
            r = c.run(["srun", "--jobid=" + jobid, "-N2", "true"],
                      user="sluice_u1", timeout=60)
            assert r.rc == 0, r
        assert prologs(c, jobid) == c.node_names, runs(c, jobid)
    finally:
        c.run(["scancel", jobid])
    wait_epilogs(c, jobid, c.node_names)


def test_failing_prolog_before_step_drains_node(npc):
    c = npc
    bad = c.node_names[1]
    flag = os.path.join(c.scripts, "fail." + bad)
    open(flag, "w").close()
    try:
        r = c.run(["srun", "-N2", "true"], user="sluice_u1", timeout=60)
        assert r.rc != 0, r
        end = time.time() + 30
        while time.time() < end:
            s = c.run(["sinfo", "-h", "-R", "-o", "%E|%N"]).out
            if "Prolog error|%s" % bad in s:
                break
            time.sleep(0.3)
        assert "Prolog error|%s" % bad in s, s
    finally:
        os.unlink(flag)
        c.run(["scontrol", "update", "NodeName=" + bad, "State=RESUME"])


def test_epilog_changed_takes_effect_on_reconfigure(npc):
    """Epilog= changed in slurm.conf is run after `scontrol reconfigure`,
    without restarting slurmd (as Slurm: the controller has every slurmd
    read slurm.conf again).  Restores the config after."""
    c = npc
    new = os.path.join(c.dir, "etc", "epilog2.sh")
    with open(new, "w") as f:
        f.write(EPILOG.replace("echo \"epilog ", "echo \"epilog2 ").format(
            log=c.plog))
    os.chmod(new, 0o755)
    old_text = open(c.conf).read()
    old = "%s/etc/epilog.sh" % c.dir
    assert "Epilog=" + old in old_text
    pids = {n: d.pid for n, d in c.slurmds.items()}
    try:
        with open(c.conf, "w") as f:
            f.write(old_text.replace("Epilog=" + old, "Epilog=" + new))
        r = c.run(["scontrol", "reconfigure"])
        assert r.rc == 0, r
        time.sleep(1)
        jid = c.sbatch(["-N2", "--wrap", "true"], user="sluice_u1")
        assert c.wait_done(jid) == "COMPLETED"
        end = time.time() + 30
        while time.time() < end:
            got = sorted(r[1] for r in runs(c, jid) if r[0] == "epilog2")
            if got == sorted(c.node_names):
                break
            time.sleep(0.2)
        assert got == sorted(c.node_names), runs(c, jid)
        assert not [r for r in runs(c, jid) if r[0] == "epilog"], runs(c, jid)
        assert {n: d.pid for n, d in c.slurmds.items()} == pids
    finally:
        with open(c.conf, "w") as f:
            f.write(old_text)
        c.run(["scontrol", "reconfigure"])
