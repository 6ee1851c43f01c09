"""slurmd runs as root but never acts as root on a user's behalf.

- `--output`/`--error` naming a symlink to a root-owned file: the file is
  not written (the job's files are opened as the job's user).
- A job exporting LD_PRELOAD (and LD_LIBRARY_PATH) does not reach the
  Prolog/Epilog, which run as root with an environment of their own.
"""

import os
import pathlib
import pwd
import shutil
import subprocess
import tempfile
import textwrap
import time

import pytest

PRELOAD_SRC = r"""
#include <fcntl.h>
#include <unistd.h>
static void __attribute__((constructor)) mark(void)
{
    int fd = open(MARKER, O_WRONLY | O_CREAT | O_APPEND, 0666);
    if (fd >= 0) {
        char buf[32];
        int n = 0;
        unsigned u = (unsigned) geteuid();
        char tmp[16];
        int k = 0;
        do { tmp[k++] = '0' + u % 10; u /= 10; } while (u);
        buf[n++] = 'u';
        while (k) buf[n++] = tmp[--k];
        buf[n++] = '\n';
        write(fd, buf, n);
        close(fd);
    }
}
"""


@pytest.fixture(scope="module")
def priv(users):
    import conftest
    # World-traversable, so that only the file's own mode protects it.
    d = pathlib.Path(tempfile.mkdtemp(prefix="sluice-privsep-"))
    os.chmod(d, 0o755)
    marker = d / "preload-marker"
    so = d / "libmark.so"
    src = d / "mark.c"
    src.write_text(PRELOAD_SRC)
    subprocess.run(["cc", "-shared", "-fPIC", '-DMARKER="%s"' % marker,
                    "-o", str(so), str(src)], check=True)
    os.chmod(so, 0o755)
    prolog_env = d / "prolog-env"
    prolog = d / "prolog.sh"
    prolog.write_text(textwrap.dedent("""\
        #!/bin/sh
        env >> %s
        exit 0
        """ % prolog_env))
    os.chmod(prolog, 0o755)
    extra = "Prolog=%s\nEpilog=%s\n" % (prolog, prolog)
    c = conftest._start(tag="privsep", extra_conf=extra)
    c.priv = {"dir": d, "marker": marker, "so": so, "prolog_env": prolog_env}
    yield c
    conftest._stop(c)
    shutil.rmtree(d, ignore_errors=True)


def test_output_symlink_to_root_file_not_written(priv):
    c = priv
    d = priv.priv["dir"]
    target = d / "root-owned"
    target.write_text("precious\n")
    os.chmod(target, 0o644)
    home = c.workdir("sluice_u1")
    link = os.path.join(home, "out-link")
    if os.path.lexists(link):
        os.unlink(link)
    subprocess.run(["runuser", "-u", "sluice_u1", "--", "ln", "-s", str(target), link],
                   check=True)
    jid = c.sbatch(["-o", link, "-e", link, "--wrap", "echo overwritten"],
                   user="sluice_u1", cwd=home)
    c.wait_done(jid, 60)
    assert target.read_text() == "precious\n"
    assert os.stat(target).st_uid == 0


def test_ld_preload_does_not_reach_prolog(priv):
    c = priv
    p = priv.priv
    p["marker"].write_text("")
    os.chmod(p["marker"], 0o666)     # the job (a user) appends to it too
    env = {"LD_PRELOAD": str(p["so"]), "LD_LIBRARY_PATH": str(p["dir"])}
    # sbatch itself inherits the preload: an ASan build must be told that
    # a library ahead of its runtime is expected here.
    san = c.sanitizer_env()["ASAN_OPTIONS"]
    env["ASAN_OPTIONS"] = ":".join(x for x in (san, "verify_asan_link_order=0") if x)
    jid = c.sbatch(["--export=ALL", "--wrap", "true"], user="sluice_u1",
                   env=env)
    assert c.wait_done(jid, 60) == "COMPLETED"
    text = p["prolog_env"].read_text()
    assert "SLURM_JOB_ID=%s" % jid in text, text
    assert "LD_PRELOAD" not in text and "LD_LIBRARY_PATH" not in text, text
    # The library does load: it ran in the job itself, as the user (which
    # shows the test could see a root process loading it) -- never as root.
    marks = p["marker"].read_text().split()
    assert "u%d" % pwd.getpwnam("sluice_u1").pw_uid in marks, marks
    assert "u0" not in marks, marks


SLURM_USER = "sluice_slurm"


def _proc_uids(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("Uid:"):
                return [int(x) for x in line.split()[1:]]
    return []


def test_slurmctld_runs_as_slurm_user(users):
    import cluster as cl
    import conftest
    try:
        pw = pwd.getpwnam(SLURM_USER)
    except KeyError:
        subprocess.run(["useradd", "-r", "-M", "-s", "/usr/sbin/nologin",
                        SLURM_USER], check=True)
        pw = pwd.getpwnam(SLURM_USER)
    c = cl.Cluster(tag="slurmuser", extra_conf="SlurmUser=%s" % SLURM_USER)
    conftest._ACTIVE.append(c)
    try:
        for sub in ("state", "run"):
            os.chown(os.path.join(c.dir, sub), pw.pw_uid, pw.pw_gid)
        c.start()
        # Real, effective, saved and fs uid: all SlurmUser, root is gone.
        assert _proc_uids(c.ctld.pid) == [pw.pw_uid] * 4
        jid = c.sbatch(["--wrap", "true"], user="sluice_u1")
        assert c.wait_done(jid, 60) == "COMPLETED"
        # The state it saved belongs to SlurmUser.
        owners = {os.stat(os.path.join(r, f)).st_uid
                  for r, _, fs in os.walk(os.path.join(c.dir, "state")) for f in fs}
        assert owners == {pw.pw_uid}, owners
        # An unwritable StateSaveLocation is a clear fatal error.
        c.kill_ctld()
        os.chown(os.path.join(c.dir, "state"), 0, 0)
        os.chmod(os.path.join(c.dir, "state"), 0o755)
        r = subprocess.run([c.bin("slurmctld"), "-D"], env=c.env_for(),
                           capture_output=True, text=True, timeout=30)
        assert r.returncode != 0
        assert "is not writable by uid %d" % pw.pw_uid in r.stderr + c.log_text()
    finally:
        conftest._stop(c)


def test_slurmdbd_runs_as_slurm_user(users):
    """slurmdbd.conf SlurmUser: started as root, slurmdbd opens its log and
    pid file, then gives root up for good; it still stores the cluster's
    records and serves sacct and sacctmgr."""
    import mariadb
    if mariadb.missing_tools():
        pytest.skip("MariaDB server not installed")
    try:
        pw = pwd.getpwnam(SLURM_USER)
    except KeyError:
        subprocess.run(["useradd", "-r", "-M", "-s", "/usr/sbin/nologin",
                        SLURM_USER], check=True)
        pw = pwd.getpwnam(SLURM_USER)
    e = mariadb.AcctEnv(tag="dbduser", nodes=1,
                        dbd_extra="SlurmUser=%s" % SLURM_USER)
    orig = e.write_dbd_conf

    def write_owned():
        orig()
        os.chown(e.dbd_conf, pw.pw_uid, pw.pw_gid)
    e.write_dbd_conf = write_owned
    try:
        e.start()
        e.start_cluster()
        assert _proc_uids(e.dbd.pid) == [pw.pw_uid] * 4
        assert e.sacctmgr("-i", "add", "account", "privacct").rc == 0
        jid = e.c.sbatch(["--wrap", "true"], user="sluice_u1")
        assert e.c.wait_done(jid, 60) == "COMPLETED"
        deadline = time.time() + 60
        out = ""
        while time.time() < deadline:
            out = e.sacct("-X", "-n", "-P", "-j", str(jid), "-o",
                          "JobIDRaw,State", user="sluice_u1").out
            if out.strip() == "%d|COMPLETED" % jid:
                break
            time.sleep(0.5)
        assert out.strip() == "%d|COMPLETED" % jid, out
    finally:
        e.finish()
