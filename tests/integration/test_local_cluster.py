"""./local-cluster as a newcomer runs it: it comes up, answers, and keeps
its daemons' logs from other local users (issue 34, defect 9: the
captured stdout/stderr copies run/log/*.out were world-readable, so any
local user read all job activity).

The script runs from a copy in a temp directory (its run/ lands there, not
in the checkout), with the checkout's scripts/ and build linked beside it;
one node, no sample jobs, so it takes seconds once MariaDB's datadir is
made.
"""

import os
import shutil
import stat
import subprocess
import tempfile

import pytest

import cluster as cl
import mariadb

BUILD = os.path.abspath(os.environ.get("SLUICE_BUILD_DIR",
                                       os.path.join(cl.REPO, "build")))

pytestmark = pytest.mark.skipif(
    bool(mariadb.missing_tools()) or not os.access(
        os.path.join(BUILD, "bin", "slurmctld"), os.X_OK),
    reason="needs MariaDB and a build tree with slurmctld")


@pytest.fixture(scope="module")
def local(users):
    top = tempfile.mkdtemp(prefix="sluice-lc-")
    os.chmod(top, 0o755)  # the test user may look inside, as on a login node
    shutil.copy(os.path.join(cl.REPO, "local-cluster"), top)
    os.symlink(os.path.join(cl.REPO, "scripts"), os.path.join(top, "scripts"))
    os.symlink(BUILD, os.path.join(top, "build"))
    env = dict(os.environ, LOCAL_CLUSTER_NODES="1", LOCAL_CLUSTER_SKIP_BUILD="1",
               LOCAL_CLUSTER_NO_SAMPLES="1")
    env.pop("SLURM_CONF", None)
    script = os.path.join(top, "local-cluster")
    up = subprocess.run([script, "up"], env=env, cwd=top, timeout=400,
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                        text=True)
    try:
        yield top, up, env
    finally:
        subprocess.run([script, "down", "--purge"], env=env, cwd=top,
                       timeout=120, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        shutil.rmtree(top, ignore_errors=True)


def _as_user(user, argv):
    uid, gid, _ = cl.user_ids(user)
    return subprocess.run(["setpriv", "--reuid=%d" % uid, "--regid=%d" % gid,
                           "--init-groups"] + argv,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=30)


def test_up_brings_a_cluster_that_answers(local):
    top, up, env = local
    assert up.returncode == 0, up.stdout[-3000:]
    assert "cluster up: 1 nodes" in up.stdout
    r = subprocess.run([os.path.join(top, "build", "bin", "sinfo"), "-h",
                        "-o", "%N %t"], env=dict(
                            env, SLURM_CONF=os.path.join(top, "run", "etc",
                                                         "slurm.conf")),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["n1", "idle"]


def test_logs_are_not_readable_by_other_users(local, users):
    top, up, _ = local
    assert up.returncode == 0, up.stdout[-3000:]
    logdir = os.path.join(top, "run", "log")
    names = sorted(os.listdir(logdir))
    # the daemons' own logs and the captured output of each daemon
    for want in ("slurmctld.log", "slurmctld.out", "slurmdbd.log",
                 "slurmdbd.out", "slurmd-n1.out", "munged.out",
                 "mariadbd.out", "mariadbd.log"):
        assert want in names, names
    for n in names:
        mode = os.stat(os.path.join(logdir, n)).st_mode
        assert not mode & (stat.S_IROTH | stat.S_IWOTH), \
            "%s is %o" % (n, stat.S_IMODE(mode))
    assert not os.stat(logdir).st_mode & stat.S_IROTH
    # As a local user: neither the listing nor any file can be read.
    user = users[0].pw_name
    r = _as_user(user, ["ls", logdir])
    assert r.returncode != 0 and "Permission denied" in r.stderr
    for n in names:
        r = _as_user(user, ["cat", os.path.join(logdir, n)])
        assert r.returncode != 0, "%s readable by %s" % (n, user)


def test_web_view_is_served(local):
    """slurmrestd comes up with the web view on BASE+18 (issue 25), and
    its API wants a token."""
    import http.client
    top, up, _ = local
    assert up.returncode == 0, up.stdout[-3000:]
    if not os.path.exists(os.path.join(BUILD, "web", "index.html")):
        pytest.skip("the web view is not built (needs npm)")
    with open(os.path.join(top, "run", "ports")) as f:
        port = int(f.read()) + 18
    assert "Web view: http://127.0.0.1:%d/ui/" % port in up.stdout
    h = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    h.request("GET", "/ui/")
    r = h.getresponse()
    body = r.read()
    assert r.status == 200 and b"<title>Sluice</title>" in body
    h.request("GET", "/slurm/v0.0.43/jobs")
    r = h.getresponse()
    r.read()
    assert r.status == 401
    h.close()
