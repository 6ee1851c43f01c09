"""JobContainerType=job_container/tmpfs: a private /tmp and /dev/shm per
job (job_container.conf beside slurm.conf).

One node, PrologFlags=Contain: the extern step makes the job's mount
namespace under BasePath/<jobid>; the batch script and every srun step
of the job see the same private /tmp, two jobs side by side on the node
never see each other's files nor leave any in the node's /tmp, and the
job's directory is gone once the job has ended.  A job_container.conf
with a bad line stops slurmd with the file and line.
"""

import os
import subprocess
import sys
import tempfile
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cluster as cl  # noqa: E402
import conftest  # noqa: E402

U = "sluice_u1"


def _wait_for(pred, timeout=30, step=0.2):
    deadline = time.time() + timeout
    while time.time() < deadline:
        v = pred()
        if v:
            return v
        time.sleep(step)
    return pred()


def _make(tag, extra, jc_text):
    # the commands the jobs run (srun) must be outside /tmp too
    if os.path.realpath(cl.binaries()["srun"]).startswith("/tmp/"):
        pytest.skip("the build is under /tmp, which the jobs' private /tmp "
                    "hides: build outside /tmp to run these tests")
    # the cluster (work dirs, output files, spool) outside /tmp: the jobs'
    # /tmp is their own
    old = tempfile.tempdir
    tempfile.tempdir = "/var/tmp"
    try:
        c = cl.Cluster(tag=tag, nodes=1, cpus=2, extra_conf=extra)
    finally:
        tempfile.tempdir = old
    c.base = os.path.join(c.dir, "jcbase")
    with open(os.path.join(c.dir, "etc", "job_container.conf"), "w") as f:
        f.write(jc_text % {"base": c.base})
    conftest._ACTIVE.append(c)
    try:
        c.start()
    except BaseException:
        conftest._stop(c, keep=True)
        raise
    return c


@pytest.fixture(scope="module")
def jc(users):
    c = _make("jc", "JobContainerType=job_container/tmpfs\n"
              "PrologFlags=Contain\n",
              "# per-node directories: several slurmd share this host\n"
              "AutoBasePath=true\nBasePath=%(base)s/%%n\n")
    yield c
    conftest._stop(c)


SCRIPT = """#!/bin/sh
echo mine > /tmp/mark-$SLURM_JOB_ID
echo shm > /dev/shm/shm-$SLURM_JOB_ID
# both jobs have written their files before either looks
sleep 3
echo "tmp: $(ls /tmp | tr '\\n' ' ')"
echo "shm: $(ls /dev/shm | tr '\\n' ' ')"
echo "step: $(%(srun)s cat /tmp/mark-$SLURM_JOB_ID)"
"""


def _lines(path):
    with open(path) as f:
        return dict(l.split(": ", 1) for l in f.read().splitlines()
                    if ": " in l)


def test_two_jobs_each_see_only_their_own_tmp(jc):
    wd = jc.workdir(U)
    jc.write_file(U, os.path.join(wd, "jc.sh"),
                  SCRIPT % {"srun": jc.bin("srun")}, 0o755)
    ids = [jc.sbatch(["-n1", "-o", os.path.join(wd, "jc-%j.out"), "jc.sh"],
                     user=U) for _ in range(2)]
    for j in ids:
        assert jc.wait_done(j, timeout=90) == "COMPLETED", jc.show_job(j)
    for j, other in ((ids[0], ids[1]), (ids[1], ids[0])):
        out = _lines(os.path.join(wd, "jc-%d.out" % j))
        assert out["tmp"].split() == ["mark-%d" % j], out
        assert out["shm"].split() == ["shm-%d" % j], out
        # an srun step of the job joins the same namespace
        assert out["step"].strip() == "mine", out
        assert "mark-%d" % other not in out["tmp"]
    # nothing reached the node's own /tmp or /dev/shm
    for j in ids:
        assert not os.path.exists("/tmp/mark-%d" % j)
        assert not os.path.exists("/dev/shm/shm-%d" % j)


def test_job_directory_removed_at_job_end(jc):
    wd = jc.workdir(U)
    j = jc.sbatch(["-n1", "-o", os.path.join(wd, "rm-%j.out"), "--wrap",
                   "echo x > /tmp/f; sleep 2"], user=U)
    jdir = os.path.join(jc.base, "n1", str(j))
    assert _wait_for(lambda: os.path.isdir(jdir), 30), \
        "BasePath/n1/%d never made" % j
    assert jc.wait_done(j, timeout=60) == "COMPLETED"
    assert _wait_for(lambda: not os.path.exists(jdir), 30), \
        "%s still there: %s" % (jdir, os.listdir(jdir))


def test_srun_job_without_batch_script(jc):
    r = jc.run(["srun", "-n1", "sh", "-c",
                "echo s > /tmp/srun-$SLURM_JOB_ID; ls /tmp"], user=U,
               timeout=60)
    assert r.rc == 0, r
    files = r.out.split()
    assert len(files) == 1 and files[0].startswith("srun-"), r
    # the allocation's directory goes with it too
    jdir = os.path.join(jc.base, "n1", files[0][len("srun-"):])
    assert _wait_for(lambda: not os.path.exists(jdir), 30), \
        "%s still there" % jdir


def _pam(c, opts=""):
    build = os.path.abspath(os.environ.get(
        "SLUICE_BUILD_DIR", os.path.join(cl.REPO, "build")))
    probe = os.path.join(build, "tests", "pam", "pam_probe")
    if not os.path.exists(probe):
        pytest.skip("pam_slurm_adopt not built (no libpam0g-dev)")
    d = os.path.join(c.dir, "pam-jc")
    os.makedirs(d, exist_ok=True)
    os.chmod(d, 0o755)
    with open(os.path.join(d, "sluice-adopt"), "w") as f:
        f.write("account required %s nodename=n1 %s\n" % (
            os.path.join(build, "lib", "security", "pam_slurm_adopt.so"),
            opts))
    return probe, d


def test_pam_slurm_adopt_joins_the_jobs_tmp(jc):
    """An ssh login adopted into the job (pam_slurm_adopt) enters the
    job's mount namespace too: it sees the job's /tmp, as its tasks do;
    with join_container=false it stays on the node's own /tmp."""
    wd = jc.workdir(U)
    j = jc.sbatch(["-n1", "-o", os.path.join(wd, "pam-%j.out"), "--wrap",
                   "echo job-tmp > /tmp/pam-mark; sleep 60"], user=U)
    try:
        jc.wait_state(j, "RUNNING", timeout=30)
        probe, conf = _pam(jc)
        # the script writes its mark as it starts
        r = _wait_for(lambda: (lambda x: x if x.rc == 0 else None)(
            jc.run([probe, conf, "sluice-adopt", U, "cat", "/tmp/pam-mark"],
                   timeout=30)), 20, step=0.5)
        assert r, "never adopted with the job's /tmp"
        assert r.rc == 0, r
        assert r.out == "pam: Success\njob-tmp\n", r
        assert not os.path.exists("/tmp/pam-mark")
        probe, conf = _pam(jc, "join_container=false")
        r = jc.run([probe, conf, "sluice-adopt", U, "cat", "/tmp/pam-mark"],
                   timeout=30)
        assert r.rc == 1 and r.out.startswith("pam: Success\n"), r
    finally:
        jc.run(["scancel", str(j)])
        jc.wait_done(j, timeout=60)


def test_bad_job_container_conf_line_stops_slurmd(jc):
    path = os.path.join(jc.dir, "etc", "job_container.conf")
    with open(path) as f:
        good = f.read()
    try:
        with open(path, "w") as f:
            f.write("AutoBasePath=true\nBasePath=%s Bogus=1\n" % jc.base)
        r = subprocess.run([jc.bin("slurmd"), "-D", "-N", "n1"],
                           env=jc.env_for(), capture_output=True, text=True,
                           timeout=30)
        said = r.stderr + r.stdout
        assert r.returncode != 0, said
        assert "%s:2: Parsing error at unrecognized key: Bogus" % path \
            in said, said
    finally:
        with open(path, "w") as f:
            f.write(good)


def test_without_contain_the_first_step_makes_it(users):
    """No PrologFlags=Contain: the batch script's stepd makes the
    namespace and its srun step joins it."""
    c = _make("jcplain", "JobContainerType=job_container/tmpfs\n",
              "AutoBasePath=true\nBasePath=%(base)s/%%n Dirs=/tmp\n")
    try:
        wd = c.workdir(U)
        j = c.sbatch(["-n1", "-o", os.path.join(wd, "p-%j.out"), "--wrap",
                      "echo a > /tmp/a; ls /tmp; %s cat /tmp/a"
                      % c.bin("srun")], user=U)
        assert c.wait_done(j, timeout=60) == "COMPLETED", c.show_job(j)
        with open(os.path.join(wd, "p-%d.out" % j)) as f:
            assert f.read().split() == ["a", "a"]
        jdir = os.path.join(c.base, "n1", str(j))
        assert _wait_for(lambda: not os.path.exists(jdir), 30)
    finally:
        conftest._stop(c)
