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
import signal
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
echo "end $SLURM_JOB_ID $SLURMD_NODENAME" >> %(dir)s/events
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
    assert re.search(
        r"^StepId=%d\.batch UserId=\d+ StartTime=\S+ TimeLimit=UNLIMITED\n"
        r"   State=RUNNING Partition=debug NodeList=n1\n"
        r"   Nodes=1 CPUs=0 Tasks=1 Name=batch Network=\(null\)\n"
        r"   TRES=\(null\)\n   ResvPorts=\(null\)\n   CPUFreqReq=Default\n"
        r"   SrunHost:Pid=\(null\):0\n" % jid, r.out, re.M), r.out
    # the Prolog ran once per node, for this job, before the step
    ev = [e for e in _events(env.pdir)
          if e.split()[:2] == ["prolog", str(jid)]]
    assert sorted(e.split()[2] for e in ev) == ["n1", "n2"], ev
    assert all(e.split()[3] == U for e in ev)
    assert c.wait_done(jid, timeout=60) == "COMPLETED"
    rows = _sacct(env, jid, "JobName,State,ExitCode,NodeList,NTasks,"
                  "AllocCPUS", 4)
    assert [r[0] for r in rows] == [str(jid), "%d.batch" % jid,
                                    "%d.extern" % jid, "%d.0" % jid], rows
    assert rows[2][1:] == ["extern", "COMPLETED", "0:0", "n[1-2]", "2",
                           "2"], rows
    # the default table, as 22.05 prints an extern row (account of the job)
    r = env.sacct("-j", str(jid), user=U)
    lines = r.out.splitlines()
    acct = lines[2][35:45].strip()
    assert lines[4] == "%-12s %10s %10s %10s %10s %10s %8s " % (
        "%d.extern" % jid, "extern", "", acct, "2", "COMPLETED", "0:0"), r.out
    # times: the extern step spans the job
    full = _sacct(env, jid, "Start,End", 4)
    assert full[2][1:] == full[0][1:], full


def test_extern_step_survives_controller_kill(env):
    """The extern step is saved with its job: a controller killed with
    SIGKILL comes back listing it, and records its end with the job's."""
    c = env.c
    jid = c.sbatch(["-N1", "-o", "/dev/null", "--wrap", "sleep 6"], user=U)
    ext = "%d.extern" % jid
    assert _wait_for(lambda: ext in c.run(
        ["squeue", "-h", "-s", "-j", str(jid), "-o", "%i"]).out, 30)
    c.kill_ctld(signal.SIGKILL)
    c.start_ctld()
    assert _wait_for(lambda: ext in c.run(
        ["squeue", "-h", "-s", "-j", str(jid), "-o", "%i"]).out, 30), \
        c.run(["squeue", "-s"]).out
    assert c.wait_done(jid, timeout=60) == "COMPLETED"
    # and its extern step's slurmstepd is gone from the node with the job
    spool = os.path.join(c.dir, "spool", "n1")
    assert _wait_for(lambda: not [f for f in os.listdir(spool)
                                  if f.startswith("n1_%d." % jid)], 10), \
        os.listdir(spool)
    rows = _sacct(env, jid, "JobName,State,ExitCode", 3)
    assert [r[0] for r in rows] == [str(jid), "%d.batch" % jid, ext], rows
    assert rows[2][1:] == ["extern", "COMPLETED", "0:0"], rows


def _job_events(pdir, jid, kind="prolog"):
    return sorted(e.split()[2] for e in _events(pdir)
                  if e.split()[0] == kind and e.split()[1] == str(jid))


def test_salloc_waits_for_prolog_and_srun_job_has_extern(env):
    c = env.c
    with open(os.path.join(env.pdir, "prolog-sleep"), "w") as f:
        f.write("1\n")
    try:
        r = c.run(["salloc", "-N2", "sh", "-c",
                   "cat %s/events" % env.pdir], user=U, timeout=60)
    finally:
        os.unlink(os.path.join(env.pdir, "prolog-sleep"))
    assert r.rc == 0, r
    jid = int(re.search(r"Granted job allocation (\d+)", r.err).group(1))
    assert r.err == ("salloc: Granted job allocation %d\n"
                     "salloc: Waiting for resource configuration\n"
                     "salloc: Nodes n[1-2] are ready for job\n"
                     "salloc: Relinquishing job allocation %d\n"
                     % (jid, jid)), r.err
    # the command ran after the Prolog had finished on both nodes
    ends = sorted(ln.split()[2] for ln in r.out.splitlines()
                  if ln.startswith("end %d " % jid))
    assert ends == ["n1", "n2"], r.out
    # srun creating its own job: Prolog on its node, then N.extern, N.0
    r = c.run(["srun", "-N1", "-w", "n2", "cat", "%s/events" % env.pdir],
              user=U, timeout=60)
    assert r.rc == 0, r
    sj = max(int(ln.split()[1]) for ln in r.out.splitlines())
    assert "end %d n2" % sj in r.out.splitlines(), r.out
    rows = _sacct(env, sj, "JobName,State,ExitCode,NodeList", 3)
    assert rows == [[str(sj), "cat", "COMPLETED", "0:0", "n2"],
                    ["%d.extern" % sj, "extern", "COMPLETED", "0:0", "n2"],
                    ["%d.0" % sj, "cat", "COMPLETED", "0:0", "n2"]], rows


PAM_SERVICE = "account required %s nodename=%s\n"


def _build():
    return os.path.abspath(os.environ.get(
        "SLUICE_BUILD_DIR", os.path.join(cl.REPO, "build")))


def _pam_conf(c, node):
    d = os.path.join(c.dir, "pam-" + node)
    os.makedirs(d, exist_ok=True)
    os.chmod(d, 0o755)
    with open(os.path.join(d, "sluice-adopt"), "w") as f:
        f.write(PAM_SERVICE % (os.path.join(_build(), "lib", "security",
                                            "pam_slurm_adopt.so"), node))
    os.chmod(os.path.join(d, "sluice-adopt"), 0o644)
    return d


def _probe(c):
    p = os.path.join(_build(), "tests", "pam", "pam_probe")
    if not os.path.exists(p):
        pytest.skip("pam_slurm_adopt not built (no libpam0g-dev)")
    return p


def _cgroup_of(pid):
    try:
        return open("/proc/%d/cgroup" % pid).read()
    except OSError:
        return ""


def test_pam_slurm_adopt_joins_newest_job_and_dies_with_it(env):
    c = env.c
    probe = _probe(c)
    conf = _pam_conf(c, "n1")
    # no job of the user on n1: refused with Slurm's message
    r = c.run([probe, conf, "sluice-adopt", U, "true"], timeout=30)
    assert r.rc == 1, r
    assert r.out == ("msg: Access denied by pam_slurm_adopt: you have no "
                     "active jobs on this node\npam: Permission denied\n"), r
    old = c.sbatch(["-N1", "-w", "n1", "-o", "/dev/null", "--wrap",
                    "sleep 120"], user=U)
    c.wait_state(old, "RUNNING", 30)
    time.sleep(1.1)                 # a newer extern step (by mtime)
    r = c.run(["salloc", "-N1", "-w", "n1", "--no-shell"], user=U, timeout=60)
    assert r.rc == 0, r
    new = int(re.search(r"Granted job allocation (\d+)", r.err).group(1))
    env_ = c.env_for(None)
    p = subprocess.Popen([probe, conf, "sluice-adopt", U, "sleep", "300"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=env_)
    try:
        assert p.stdout.readline() == "pam: Success\n"
        log = _wait_for(lambda: "StepId=%d.extern: process %d adopted"
                        % (new, p.pid) in open(c.slurmd_log("n1")).read(), 10)
        assert log, open(c.slurmd_log("n1")).read()[-2000:]
        cg = _cgroup_of(p.pid)
        if "/job_%d/" % new in cg:
            assert re.search(r"/slurm_n1/uid_\d+/job_%d/step_extern$" % new,
                             cg, re.M), cg
        # another user may not put processes into U's job: none of theirs
        if cl._world_reachable(probe):
            r = c.run([probe, conf, "sluice-adopt", U, "true"],
                      user="sluice_u2", timeout=30)
            assert r.rc == 1 and "pam: Permission denied" in r.out, r
        # the job ends: the adopted process goes with it
        c.run(["scancel", str(new)])
        p.wait(timeout=30)
        assert p.returncode is not None
        assert c.wait_done(new, 30) == "CANCELLED"
        rows = _sacct(env, new, "JobName,State,ExitCode", 2)
        assert rows == [[str(new), "no-shell", "CANCELLED by 0", "0:0"],
                        ["%d.extern" % new, "extern", "COMPLETED", "0:0"]], rows
        # the older job is untouched
        assert c.job_state(old) == "RUNNING"
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        c.run(["scancel", str(old)])


def test_failing_prolog_drains_and_requeues(env):
    c = env.c
    flag = os.path.join(env.pdir, "prolog-fail-n2")
    open(flag, "w").close()
    try:
        jid = c.sbatch(["-N2", "-o", "/dev/null", "--wrap", "true"], user=U)
        want = "JobState=PENDING Reason=launch_failed_requeued_held "
        text = _wait_for(lambda: (lambda t: t if want in t else "")(
            c.run(["scontrol", "show", "job", str(jid)]).out), 30)
        assert "Restarts=1 " in text, text
        assert "JobState=PENDING Reason=launch_failed_requeued_held " in text, \
            text
        r = c.run(["sinfo", "-R", "-h", "-o", "%E|%N"])
        assert r.out.strip() == "Prolog error|n2", r
    finally:
        os.unlink(flag)
        c.run(["scancel", str(jid)])
        c.run(["scontrol", "update", "NodeName=n2", "State=RESUME"])


def test_controller_restart_while_prolog_runs(env):
    """A restart forgets what was pending: the job goes on (as if its
    prologs had succeeded) instead of waiting for Reason=Prolog forever."""
    c = env.c
    with open(os.path.join(env.pdir, "prolog-sleep"), "w") as f:
        f.write("3\n")
    try:
        jid = c.sbatch(["-N1", "-w", "n1", "-o", "/dev/null", "--wrap",
                        "sleep 20"], user=U)
        assert _wait_for(lambda: c.show_job(jid).get("Reason") == "Prolog",
                         20), c.show_job(jid)
        c.kill_ctld()
        _wait_for(lambda: "end %d n1" % jid in _events(env.pdir), 15)
        c.start_ctld()
        # running, Reason None, and its script started (a step can be made)
        assert _wait_for(lambda: (lambda j: j.get("JobState") == "RUNNING"
                                  and j.get("Reason") == "None")(
                                      c.show_job(jid)), 30), c.show_job(jid)
        r = c.run(["srun", "--jobid=%d" % jid, "--overlap", "true"],
                  user=U, timeout=60)
        assert r.rc == 0, r
    finally:
        os.unlink(os.path.join(env.pdir, "prolog-sleep"))
        c.run(["scancel", str(jid)])


@pytest.fixture(scope="module")
def nohold(users):
    c = cl.Cluster(tag="nohold", nodes=1)
    d, path = _setup_prolog(c)
    c.extra_conf = "PrologFlags=Alloc,NoHold\nProlog=%s\n" % path
    c.pdir = d
    c = _start_prepared(c)
    yield c
    _stop(c)


def _start_prepared(c):
    from conftest import _ACTIVE
    _ACTIVE.append(c)
    try:
        c.start()
    except BaseException:
        _stop(c, keep=True)
        raise
    return c


def test_nohold_salloc_does_not_wait_steps_do(nohold):
    c = nohold
    with open(os.path.join(c.pdir, "prolog-sleep"), "w") as f:
        f.write("2\n")
    try:
        r = c.run(["salloc", "-N1", "sh", "-c",
                   "cat %s/events; echo ---; %s -N1 cat %s/events"
                   % (c.pdir, c.bin("srun"), c.pdir)], user=U, timeout=60)
    finally:
        os.unlink(os.path.join(c.pdir, "prolog-sleep"))
    assert r.rc == 0, r
    jid = int(re.search(r"Granted job allocation (\d+)", r.err).group(1))
    assert "Waiting for resource configuration" not in r.err, r.err
    before, after = r.out.split("---\n")
    # salloc's command started while the Prolog ran; the step waited
    assert "end %d n1" % jid not in before, r.out
    assert "end %d n1" % jid in after, r.out
    # Alloc without Contain: no extern step
    jid2 = c.sbatch(["-o", "/dev/null", "--wrap", "sleep 5"], user=U)
    c.wait_state(jid2, "RUNNING", 30)
    _wait_for(lambda: "end %d n1" % jid2 in _events(c.pdir), 10)
    r = c.run(["squeue", "-h", "-s", "-j", str(jid2), "-o", "%i"])
    assert r.out.split() == ["%d.batch" % jid2], r.out
    c.run(["scancel", str(jid2)])
    # the Prolog ran once for the batch job (not again at launch)
    assert _job_events(c.pdir, jid2) == ["n1"]
