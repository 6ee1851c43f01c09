"""PrologFlags=Alloc,Contain,NoHold and the N.extern step.

Contain cluster (2 nodes, proctrack/cgroup, MariaDB + slurmdbd as
test_srun_acct.py): the Prolog runs on every node at allocation (batch,
salloc, srun), every job has an extern step on all its nodes for its
whole life, listed by squeue -s / scontrol show step and recorded for
sacct (N, N.batch, N.extern, N.0 as Slurm 22.05 prints them); a process
adopted through pam_slurm_adopt.so is in the job's extern step and dies
with the job.  A second small cluster has PrologFlags=Alloc,NoHold.
"""

import os
import re
import subprocess
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cluster as cl  # noqa: E402
import mariadb  # noqa: E402
from conftest import _start, _stop  # noqa: E402

pytestmark = pytest.mark.skipif(bool(mariadb.missing_tools()),
                                reason="MariaDB server not installed: %s"
                                % ", ".join(mariadb.missing_tools()))

U = "sluice_u1"

PROLOG = """#!/bin/sh
echo "prolog $SLURM_JOB_ID $SLURMD_NODENAME $SLURM_JOB_USER" >> %(dir)s/events
[ -f %(dir)s/prolog-sleep ] && sleep "$(cat %(dir)s/prolog-sleep)"
[ -f %(dir)s/prolog-fail-$SLURMD_NODENAME ] && exit 1
exit 0
"""


def _events(dirname):
    try:
        return open(os.path.join(dirname, "events")).read().splitlines()
    except OSError:
        return []


def _wait_for(pred, timeout=30, step=0.1):
    deadline = time.time() + timeout
    while time.time() < deadline:
        v = pred()
        if v:
            return v
        time.sleep(step)
    return pred()


def _setup_prolog(c):
    d = os.path.join(c.dir, "prolog")
    os.makedirs(d, exist_ok=True)
    os.chmod(d, 0o755)
    path = os.path.join(d, "prolog.sh")
    with open(path, "w") as f:
        f.write(PROLOG % {"dir": d})
    os.chmod(path, 0o755)
    return d, path


@pytest.fixture(scope="module")
def env(users):
    e = mariadb.AcctEnv(tag="extern", nodes=2)
    d, path = _setup_prolog(e.c)
    e.c.extra_conf += ("\nPrologFlags=Contain\nProlog=%s\n"
                       "ProctrackType=proctrack/cgroup\n" % path)
    e.pdir = d
    try:
        e.start()
        e.start_cluster()
    except BaseException:
        e.stop()
        raise
    yield e
    e.finish()


def _sacct(env, jid, fields, want_rows, timeout=60):
    deadline = time.time() + timeout
    rows = []
    while time.time() < deadline:
        r = env.sacct("-P", "-n", "-o", "JobID," + fields, "-j", str(jid),
                      user=U)
        assert r.rc == 0, r
        rows = [ln.split("|") for ln in r.out.splitlines()]
        if len(rows) == want_rows and not any(
                "RUNNING" in v for row in rows for v in row):
            return rows
        time.sleep(0.5)
    return rows


def test_batch_job_prolog_at_alloc_and_extern_step(env):
    c = env.c
    d = c.workdir(U)
    script = "#!/bin/sh\n%s -N2 sleep 4\n" % c.bin("srun")
    path = c.write_file(U, os.path.join(d, "ext.sh"), script, 0o755)
    jid = c.sbatch(["-N2", "-o", "ext.out", path], user=U, cwd=d)
    assert _wait_for(lambda: c.run(["squeue", "-h", "-s", "-j", str(jid),
                                    "-o", "%i"]).out.count(".0"), 30)
    r = c.run(["squeue", "-s", "-j", str(jid)])
    lines = r.out.splitlines()
    assert lines[0].split() == ["STEPID", "NAME", "PARTITION", "USER",
                                "TIME", "NODELIST"]
    ids = [ln.split()[0] for ln in lines[1:]]
    assert ids == ["%d.0" % jid, "%d.batch" % jid, "%d.extern" % jid], r.out
    ext = [ln for ln in lines if ln.split()[0] == "%d.extern" % jid][0]
    assert ext.split()[1:4] == ["extern", "debug", U[:8]]
    assert ext.split()[-1] == "n[1-2]"
    r = c.run(["scontrol", "show", "step", "%d.extern" % jid])
    assert r.rc == 0, r
    assert "StepId=%d.extern " % jid in r.out
    assert "State=RUNNING" in r.out and "NodeList=n[1-2]" in r.out
    assert re.fullmatch(
        r"StepId=%d\.extern UserId=\d+ StartTime=\S+ TimeLimit=UNLIMITED\n"
        r"   State=RUNNING Partition=debug NodeList=n\[1-2\]\n"
        r"   Nodes=2 CPUs=0 Tasks=2 Name=extern Network=\(null\)\n"
        r"   TRES=\(null\)\n   ResvPorts=\(null\)\n   CPUFreqReq=Default\n"
        r"   SrunHost:Pid=\(null\):0\n\n" % jid, r.out), r.out
    r = c.run(["scontrol", "show", "step", str(jid)])
    assert re.findall(r"^StepId=(\S+)", r.out, re.M) == [
        "%d.extern" % jid, "%d.batch" % jid, "%d.0" % jid], r.out
    # the Prolog ran once per node, for this job, before the step
    ev = [e for e in _events(env.pdir) if e.split()[1] == str(jid)]
    assert sorted(e.split()[2] for e in ev) == ["n1", "n2"], ev
    assert all(e.split()[3] == U for e in ev)
    assert c.wait_done(jid, timeout=60) == "COMPLETED"
    rows = _sacct(env, jid, "JobName,State,ExitCode,NodeList,NTasks,"
                  "AllocCPUS", 4)
    assert [r[0] for r in rows] == [str(jid), "%d.batch" % jid,
                                    "%d.extern" % jid, "%d.0" % jid], rows
    assert rows[2][1:] == ["extern", "COMPLETED", "0:0", "n[1-2]", "2",
                           "2"], rows
    # times: the extern step spans the job
    full = _sacct(env, jid, "Start,End", 4)
    assert full[2][1:] == full[0][1:], full
