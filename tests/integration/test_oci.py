"""--container=BUNDLE with oci.conf: jobs run in an OCI container by crun.

The test builds a minimal OCI bundle (a busybox rootfs from Debian's
busybox-static, config.json from `crun spec`) whose /etc/os-release is
its own.  A batch job and an srun step with --container print the
bundle's file, see SLURM_CONTAINER, and squeue/scontrol show the
bundle.  Without oci.conf a --container job is refused at submit with
Slurm's message and nothing is queued; a bundle path with ".." is
refused; an oci.conf with an unknown key stops slurmd with file and
line.
"""

import os
import shutil
import subprocess
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cluster as cl  # noqa: E402
import conftest  # noqa: E402

CRUN = shutil.which("crun")
BUSYBOX = "/bin/busybox"

pytestmark = pytest.mark.skipif(
    not CRUN or not os.path.exists(BUSYBOX),
    reason="crun and busybox-static (Debian packages) are needed")

OS_RELEASE = 'NAME="Sluice OCI test bundle"\nID=sluicetest\n'

OCI_CONF = """# crun, run as the job's user (root here)
RunTimeQuery="%(crun)s state %%n.%%u.%%j.%%s.%%t"
RunTimeKill="%(crun)s kill -a %%n.%%u.%%j.%%s.%%t"
RunTimeDelete="%(crun)s delete --force %%n.%%u.%%j.%%s.%%t"
RunTimeRun="%(crun)s run --bundle %%b %%n.%%u.%%j.%%s.%%t"
EnvExclude="^(SLURM_CONF|SLURM_CONF_SERVER)="
"""


def crun_cmd(d):
    """crun 1.8 refuses a cgroup v1/v2 hybrid host ("cgroups in hybrid
    mode not supported"): there it runs through a wrapper, in a mount
    namespace without the unified hierarchy (cgroup v1 alone)."""
    with open("/proc/self/mountinfo") as f:
        hybrid = any(l.split()[4] == "/sys/fs/cgroup/unified" for l in f)
    if not hybrid:
        return "crun"
    path = os.path.join(d, "crun-v1")
    with open(path, "w") as f:
        f.write("#!/bin/sh\nexec unshare -m sh -c 'umount "
                "/sys/fs/cgroup/unified; exec crun \"$@\"' crun \"$@\"\n")
    os.chmod(path, 0o755)
    return path


def make_bundle(path):
    root = os.path.join(path, "rootfs")
    for d in ("bin", "etc", "proc", "dev", "sys", "tmp"):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    shutil.copy(BUSYBOX, os.path.join(root, "bin", "busybox"))
    for a in ("sh", "cat", "echo", "ls", "env", "sleep", "id"):
        os.symlink("busybox", os.path.join(root, "bin", a))
    with open(os.path.join(root, "etc", "os-release"), "w") as f:
        f.write(OS_RELEASE)
    subprocess.run([CRUN, "spec"], cwd=path, check=True)
    os.chmod(path, 0o755)
    return path


@pytest.fixture(scope="module")
def oci(users):
    c = cl.Cluster(tag="oci", nodes=2, cpus=2)
    c.oci_conf = os.path.join(c.dir, "etc", "oci.conf")
    with open(c.oci_conf, "w") as f:
        f.write(OCI_CONF % {"crun": crun_cmd(c.dir)})
    c.bundle = make_bundle(os.path.join(c.dir, "bundle"))
    conftest._ACTIVE.append(c)
    try:
        c.start()
    except BaseException:
        conftest._stop(c, keep=True)
        raise
    yield c
    conftest._stop(c)


def test_batch_job_runs_in_the_bundle(oci):
    wd = oci.workdir(None)
    out = os.path.join(wd, "oci-%j.out")
    j = oci.sbatch(["--container", oci.bundle, "-o", out, "--wrap",
                    "cat /etc/os-release; echo C=$SLURM_CONTAINER; "
                    "echo J=$SLURM_JOB_ID; ls /var/run/slurm"])
    assert oci.wait_done(j, timeout=60) == "COMPLETED", oci.show_job(j)
    text = open(out.replace("%j", str(j))).read()
    assert OS_RELEASE in text, text
    assert "C=%s\n" % oci.bundle in text, text
    assert "J=%d\n" % j in text, text
    # the script came in through MountSpoolDir
    assert "slurm_script" in text, text
    # the generated task directories go with the stepd (it ends just
    # after it reported the job's end)
    spool = os.path.join(oci.dir, "spool")

    def left():
        return [d for n in os.listdir(spool)
                for d in os.listdir(os.path.join(spool, n))
                if d.startswith("oci-job%d-" % j)]
    cl.wait_for(lambda: not left(), timeout=20,
                what="the task directories removed: %s" % left())


def test_job_shows_its_container(oci):
    j = oci.sbatch(["--container", oci.bundle, "-o", "/dev/null",
                    "--wrap", "sleep 30"])
    try:
        assert oci.show_job(j).get("Container") == oci.bundle
        r = oci.run(["squeue", "-h", "-j", str(j), "-O", "Container:80"])
        assert r.rc == 0 and r.out.strip() == oci.bundle, r
    finally:
        oci.run(["scancel", str(j)])
    assert oci.wait_done(j, timeout=60) == "CANCELLED"


def test_srun_step_runs_in_the_bundle(oci):
    r = oci.run(["srun", "-N2", "--container", oci.bundle, "sh", "-c",
                 "cat /etc/os-release; echo task=$SLURM_PROCID"],
                timeout=60)
    assert r.rc == 0, r
    assert r.out.count("NAME=\"Sluice OCI test bundle\"") == 2, r
    assert sorted(l for l in r.out.splitlines() if l.startswith("task=")) \
        == ["task=0", "task=1"], r


def test_exit_code_comes_through(oci):
    r = oci.run(["srun", "--container", oci.bundle, "sh", "-c", "exit 3"],
                timeout=60)
    assert r.rc == 3, r


def test_bundle_path_with_dotdot_refused(oci):
    bad = oci.bundle + "/../bundle"
    for cmd in (["sbatch", "--wrap", "true"], ["srun", "true"]):
        r = oci.run([cmd[0], "--container", bad] + cmd[1:])
        assert r.rc != 0, r
        assert "Invalid container bundle path" in r.err, r
    r = oci.run(["squeue", "-h", "-t", "all", "-o", "%i %T"])
    assert "PENDING" not in r.out and "RUNNING" not in r.out, r


def test_refused_without_oci_conf(oci):
    hidden = oci.oci_conf + ".off"
    os.rename(oci.oci_conf, hidden)
    try:
        before = oci.run(["squeue", "-h", "-t", "all", "-o", "%i"]).out
        r = oci.run(["sbatch", "--container", oci.bundle, "--wrap",
                     "cat /etc/os-release"])
        assert r.rc == 1, r
        assert r.err == ("sbatch: error: Batch job submission failed: "
                         "Container runtime not configured or invalid\n"), r
        r = oci.run(["srun", "--container", oci.bundle, "true"])
        assert r.rc == 1, r
        assert "Container runtime not configured or invalid" in r.err, r
        after = oci.run(["squeue", "-h", "-t", "all", "-o", "%i"]).out
        assert before == after
    finally:
        os.rename(hidden, oci.oci_conf)


def test_oci_conf_unknown_key_stops_slurmd(oci):
    with open(oci.oci_conf) as f:
        good = f.read()
    try:
        with open(oci.oci_conf, "w") as f:
            f.write(good + "OCIPattern=%n\n")
        r = subprocess.run([oci.bin("slurmd"), "-D", "-N", "n1"],
                           env=oci.env_for(), capture_output=True,
                           text=True, timeout=30)
        said = r.stderr + r.stdout
        assert r.returncode != 0, said
        line = good.count("\n") + 1
        assert "%s:%d: Parsing error at unrecognized key: OCIPattern" % (
            oci.oci_conf, line) in said, said
    finally:
        with open(oci.oci_conf, "w") as f:
            f.write(good)


def test_salloc_steps_run_in_the_bundle(oci):
    r = oci.run(["salloc", "-N1", "--container", oci.bundle,
                 oci.bin("srun"), "cat", "/etc/os-release"], timeout=60)
    assert r.rc == 0, r
    assert OS_RELEASE in r.out, r


OCI_CONF_CREATE_START = """# crun's create and start in place of run
RunTimeQuery="%(crun)s state %%n.%%u.%%j.%%s.%%t"
RunTimeKill="%(crun)s kill -a %%n.%%u.%%j.%%s.%%t"
RunTimeDelete="%(crun)s delete --force %%n.%%u.%%j.%%s.%%t"
RunTimeCreate="%(crun)s create --bundle %%b %%n.%%u.%%j.%%s.%%t"
RunTimeStart="%(crun)s start %%n.%%u.%%j.%%s.%%t"
EnvExclude="^(SLURM_CONF|SLURM_CONF_SERVER)="
"""


@pytest.fixture
def create_start(oci):
    """oci.conf in RunTimeCreate/RunTimeStart mode for one test (each task
    reads oci.conf when it starts)."""
    with open(oci.oci_conf) as f:
        good = f.read()
    with open(oci.oci_conf, "w") as f:
        f.write(OCI_CONF_CREATE_START % {"crun": crun_cmd(oci.dir)})
    try:
        yield oci
    finally:
        with open(oci.oci_conf, "w") as f:
            f.write(good)


def test_create_start_steps_run_in_the_bundle(create_start):
    oci = create_start
    r = oci.run(["srun", "-N2", "--container", oci.bundle, "sh", "-c",
                 "cat /etc/os-release; echo task=$SLURM_PROCID"],
                timeout=60)
    assert r.rc == 0, r
    assert r.out.count("NAME=\"Sluice OCI test bundle\"") == 2, r
    # the container's own exit status is the task's, though crun start
    # returned at once
    r = oci.run(["srun", "--container", oci.bundle, "sh", "-c",
                 "sleep 1; exit 5"], timeout=60)
    assert r.rc == 5, r


def test_create_start_batch_job_and_cancel(create_start):
    oci = create_start
    wd = oci.workdir(None)
    out = os.path.join(wd, "cs-%j.out")
    j = oci.sbatch(["--container", oci.bundle, "-o", out, "--wrap",
                    "cat /etc/os-release"])
    assert oci.wait_done(j, timeout=60) == "COMPLETED", oci.show_job(j)
    assert OS_RELEASE in open(out.replace("%j", str(j))).read()
    # scancel reaches the container through RunTimeKill
    j = oci.sbatch(["--container", oci.bundle, "-o", "/dev/null",
                    "--wrap", "sleep 300"])
    oci.wait_state(j, "RUNNING", timeout=30)
    oci.run(["scancel", str(j)])
    assert oci.wait_done(j, timeout=60) == "CANCELLED"
    r = subprocess.run([CRUN, "list"], capture_output=True, text=True)
    assert (".%d." % j) not in r.stdout, r.stdout


# ---------------------------------------------------------------------------
# accounting: sacct's Container on job and step rows (schema v22)


@pytest.fixture(scope="module")
def oci_acct(users):
    import mariadb
    if mariadb.missing_tools():
        pytest.skip("MariaDB server not installed")
    e = mariadb.AcctEnv(tag="oci-acct", nodes=1, cpus=2)
    try:
        e.start()
        c = e.c
        c.oci_conf = os.path.join(c.dir, "etc", "oci.conf")
        with open(c.oci_conf, "w") as f:
            f.write(OCI_CONF % {"crun": crun_cmd(c.dir)})
        c.bundle = make_bundle(os.path.join(c.dir, "bundle"))
        e.start_cluster()
    except BaseException:
        e.stop()
        raise
    yield e
    e.finish()


def _granted(r):
    import re
    m = re.search(r"Granted job allocation (\d+)", r.err)
    assert m, r
    return m.group(1)


def _containers(env, ids, want):
    """sacct's JobID|Container rows of the jobs ids once they are want."""
    got = None
    deadline = time.time() + 90
    while time.time() < deadline:
        r = env.sacct("-P", "-n", "-o", "JobID,Container", "-j",
                      ",".join(ids))
        assert r.rc == 0, r
        got = dict(l.split("|", 1) for l in r.out.splitlines())
        if got == want:
            break
        time.sleep(0.5)
    return got


def test_sacct_container_on_step_rows(oci_acct):
    """A step started with srun --container records its bundle, in a job
    without one; the steps of a job given --container (srun inherits
    SLURM_CONTAINER) and a --container batch job's batch step record the
    job's; sacct prints them on the step rows, and --json on the job."""
    e, c = oci_acct, oci_acct.c
    b = c.bundle
    # bad input first: a step's bundle that escapes with ".." is refused
    r = c.run(["salloc", "-N1", c.bin("srun"), "--container",
               b + "/../bundle", "true"], timeout=60)
    assert r.rc != 0 and "Invalid container bundle path" in r.err, r
    plain = _granted(r)
    r = c.run(["salloc", "-N1", c.bin("srun"), "--container", b, "cat",
               "/etc/os-release"], timeout=60)
    assert r.rc == 0 and OS_RELEASE in r.out, r
    step_only = _granted(r)
    r = c.run(["salloc", "-N1", "--container", b, c.bin("srun"), "echo", "ok"],
              timeout=60)
    assert r.rc == 0, r
    whole = _granted(r)
    r = c.run(["srun", "--container", b, "echo", "ok"], timeout=60)
    assert r.rc == 0, r
    batch = c.sbatch(["--container", b, "-o", "/dev/null", "--wrap",
                      "cat /etc/os-release"])
    assert c.wait_done(batch, timeout=60) == "COMPLETED"
    ids = [plain, step_only, whole, str(batch)]
    want = {plain: "", step_only: "", step_only + ".0": b,
            whole: b, whole + ".0": b,
            str(batch): b, "%d.batch" % batch: b}
    got = _containers(e, ids, want)
    assert got == want, got
    r = e.sacct("--json", "-j", str(batch))
    assert r.rc == 0, r
    import json
    job = json.loads(r.out)["jobs"][0]
    assert job["container"] == b, job
    assert [s["step"]["name"] for s in job["steps"]] == ["batch"], job
