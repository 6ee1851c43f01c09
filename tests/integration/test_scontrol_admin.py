"""scontrol(1) completing, write config, listjobs, liststeps, listpids,
pidinfo and notify.

completing lists the jobs still COMPLETING (here: held up by a slow
Epilog) with their end time, how long they have been completing and
their COMPLETING and DOWN nodes; write config writes the controller's
running configuration as a slurm.conf named <slurm.conf or the file
given>.<datetime>, which reads back as a configuration.  listjobs,
liststeps, listpids and pidinfo ask this host's slurmd (named, as all
test nodes share a host) about the stepds it runs; a user sees only his
jobs.  notify puts a message in a batch job's stderr and on an srun's."""

import glob
import os
import re
import subprocess
import tempfile

import pytest

import cluster as cl
import conftest


@pytest.fixture(scope="module")
def c(users):
    d = tempfile.mkdtemp(prefix="sluice-epilog-")
    os.chmod(d, 0o755)
    epilog = os.path.join(d, "epilog.sh")
    with open(epilog, "w") as f:
        f.write("#!/bin/sh\nsleep 2\nexit 0\n")
    os.chmod(epilog, 0o755)
    c = conftest._start(tag="scadmin", nodes=2,
                        extra_conf="Epilog=%s" % epilog)
    yield c
    conftest._stop(c)


def test_completing_lists_jobs_held_by_their_epilog(c):
    r = c.run(["scontrol", "completing"])
    assert r.rc == 0 and r.out == "", r
    jid = c.sbatch(["-w", "n2", "--wrap", "true"])
    pat = re.compile(r"^JobId=%d EndTime=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d "
                     r"CompletingTime=\d\d:\d\d:\d\d Nodes\(COMPLETING\)=n2 $"
                     % jid, re.M)
    seen = []

    def listed():
        out = c.run(["scontrol", "completing"]).out
        seen.append(out)
        return pat.search(out)
    cl.wait_for(listed, timeout=30, what="job %d completing" % jid)
    assert c.wait_done(jid) == "COMPLETED"

    def gone():
        r = c.run(["scontrol", "completing"])
        return r.rc == 0 and str(jid) not in r.out
    cl.wait_for(gone, timeout=30, what="job %d no longer completing" % jid)
    r = c.run(["scontrol", "completing", "extra"])
    assert r.rc == 1 and "too many arguments" in r.err, r


def test_write_config(c):
    before = set(glob.glob(c.conf + ".*"))
    r = c.run(["scontrol", "write", "config"])
    assert r.rc == 0, r
    m = re.match(r"^Slurm config saved to (%s\.\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\n$"
                 % re.escape(c.conf), r.out)
    assert m, r
    path = m.group(1)
    assert path not in before and os.path.exists(path)
    text = open(path).read()
    assert text.startswith("#" * 56 + "\n#  Configuration file for Slurm - ")
    for want in ("#" + " " * 19 + "CONTROL" + " " * 20 + "#\n",
                 "\nClusterName=sluice\n", "\nSlurmctldPort=%d\n" % c.ctld_port,
                 "\nEpilog=", "\nNodeName=n",
                 # as Slurm 22.05 writes it for the same partition
                 "\nPartitionName=debug Default=YES MinNodes=0 Nodes=n[1-2] "
                 "State=UP\n"):
        assert want in text, (want, text)
    for key in ("SLURM_CONF=", "BOOT_TIME=", "SLURM_VERSION="):
        assert "\n" + key not in text
    # the file reads back as a slurm.conf
    r = c.run(["scontrol", "show", "hostnames", "n[1-2]"], conf=path)
    assert r.rc == 0 and r.out.split() == ["n1", "n2"], r
    # a file named: that name with the date
    target = os.path.join(c.dir, "written.conf")
    r = c.run(["scontrol", "write", "config", target])
    assert r.rc == 0 and ("saved to %s." % target) in r.out, r
    assert glob.glob(target + ".*")
    r = c.run(["scontrol", "write", "config", "/nonexistent/dir/x"])
    assert r.rc == 1 and "Could not create file /nonexistent/dir/x." in r.err


def test_listjobs_liststeps_listpids_pidinfo(c):
    user, other = cl.TEST_USERS[0], cl.TEST_USERS[1]
    jid = c.sbatch(["-w", "n1", "-t", "10", "--wrap",
                    "%s -n1 sleep 120 & sleep 120" % c.bin("srun")],
                   user=user)
    c.wait_state(jid, "RUNNING")

    def steps():
        r = c.run(["scontrol", "liststeps", "n1"])
        return r.rc == 0 and len(r.out.splitlines()[1:]) == 2
    cl.wait_for(steps, timeout=30, what="the batch step and step 0 on n1")
    r = c.run(["scontrol", "liststeps", "n1"])
    assert r.out.splitlines()[0] == "JOBID    STEPID  "
    assert sorted(ln.split() for ln in r.out.splitlines()[1:]) == \
        sorted([[str(jid), "0"], [str(jid), "batch"]]), r
    r = c.run(["scontrol", "listjobs", "n1"])
    assert r.rc == 0 and r.out == "JOBID\n%-8d\n" % jid, r

    r = c.run(["scontrol", "listpids", str(jid), "n1"])
    assert r.rc == 0, r
    lines = r.out.splitlines()
    assert lines[0] == "PID      JOBID    STEPID   LOCALID GLOBALID"
    rows = [ln.split() for ln in lines[1:]]
    batch = [x for x in rows if x[2] == "batch" and x[3] == "0"]
    task0 = [x for x in rows if x[2] == "0" and x[3] == "0" and x[4] == "0"]
    assert len(batch) == 1 and task0, r.out
    assert all(x[1] == str(jid) for x in rows)
    # the batch script's children (sleep, srun) are listed without ids
    assert any(x[2] == "batch" and x[3] == "-" for x in rows), r.out
    r = c.run(["scontrol", "listpids", "%d.0" % jid, "n1"])
    assert r.rc == 0 and all(ln.split()[2] == "0"
                             for ln in r.out.splitlines()[1:]), r
    r = c.run(["scontrol", "listpids", "%d.7" % jid, "n1"])
    assert r.rc == 1
    assert "StepId=%d.7 does not exist on node n1." % jid in r.err, r
    # a user sees his own jobs only
    r = c.run(["scontrol", "listpids", "*", "n1"], user=user)
    assert r.rc == 0 and str(jid) in r.out, r
    r = c.run(["scontrol", "listpids", "*", "n1"], user=other)
    assert r.rc == 1 and "No job steps exist on this node." in r.err, r

    r = c.run(["scontrol", "pidinfo", batch[0][0], "n1"])
    assert r.rc == 0, r
    out = r.out.splitlines()
    assert re.match(r"^Slurm JobId=%d ends at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$"
                    % jid, out[0]), r
    m = re.match(r"^Job remaining time is (\d+) seconds$", out[1])
    assert m and 500 < int(m.group(1)) <= 600, r
    r = c.run(["scontrol", "pidinfo", "1", "n1"])
    assert r.rc == 1
    assert "slurm_pid2jobid error: Invalid job id specified" in r.err, r
    r = c.run(["scontrol", "listpids", "x1", "n1"])
    assert r.rc == 1 and '"x1" does not look like a jobid' in r.err, r
    c.run(["scancel", str(jid)])
    c.wait_done(jid)


def test_notify(c):
    user, other = cl.TEST_USERS[0], cl.TEST_USERS[1]
    jid = c.sbatch(["-w", "n1", "--wrap", "sleep 60"], user=user)
    c.wait_state(jid, "RUNNING")
    r = c.run(["scontrol", "notify", str(jid), "hello", "from", "admin"],
              user=user)
    assert r.rc == 0 and r.out == "" and r.err == "", r
    out = os.path.join(c.workdir(user), "slurm-%d.out" % jid)
    cl.wait_for(lambda: os.path.exists(out) and
                "slurmstepd: error: hello from admin\n" in open(out).read(),
                timeout=20, what="the message in the job's stderr")
    r = c.run(["scontrol", "notify", str(jid), "x"], user=other)
    assert r.rc == 1 and "job notify failure: Invalid user id" in r.err, r
    r = c.run(["scontrol", "notify", "999999", "x"])
    assert r.rc == 1
    assert "job notify failure: Invalid job id specified" in r.err, r
    r = c.run(["scontrol", "notify", str(jid)])
    assert r.rc == 1 and "too few arguments" in r.err, r
    c.run(["scancel", str(jid)])

    # an srun's step: on srun's stderr
    p = subprocess.Popen([c.bin("srun"), "-w", "n2", "-t", "5", "sleep", "30"],
                         env=c.env_for(), cwd=c.dir, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        def running():
            r = c.run(["squeue", "-h", "-w", "n2", "-t", "R", "-o", "%i"])
            return r.out.split()
        cl.wait_for(running, timeout=30, what="the srun's job running")
        sid = int(running()[0])
        cl.wait_for(lambda: len(c.run(["scontrol", "liststeps", "n2"])
                                .out.splitlines()) > 1,
                    timeout=30, what="the step on n2")
        r = c.run(["scontrol", "notify", str(sid), "step", "message"])
        assert r.rc == 0, r
        c.run(["scancel", str(sid)])
        _, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert "srun: step message\n" in err, err


def test_notify_reaches_salloc(c):
    """An allocation salloc made: the message is on salloc's stderr, with
    or without a step running (as in Slurm); its owner may send it."""
    user = cl.TEST_USERS[0]
    errf = tempfile.NamedTemporaryFile(mode="w+", dir=c.dir,
                                       prefix="salloc-err-")
    p = subprocess.Popen([c.bin("salloc"), "-w", "n2", "-t", "5",
                          "sleep", "6"], env=c.env_for(user),
                         cwd=c.workdir(user), text=True, user=user,
                         stdout=subprocess.DEVNULL, stderr=errf)
    try:
        def running():
            r = c.run(["squeue", "-h", "-w", "n2", "-t", "R", "-o", "%i"])
            return r.out.split()
        cl.wait_for(running, timeout=30, what="salloc's job running")
        jid = int(running()[0])
        r = c.run(["scontrol", "notify", str(jid), "no", "steps", "here"],
                  user=user)
        assert r.rc == 0 and r.err == "", r
        cl.wait_for(lambda: "salloc: no steps here\n" in
                    open(errf.name).read(), timeout=20,
                    what="the message on salloc's stderr")
        assert p.wait(timeout=30) == 0
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        errf.close()
    assert "JobId=%d: notify from uid=%d to salloc at 127.0.0.1:" % (
        jid, cl.user_ids(user)[0]) in open(c.ctld_log).read()
