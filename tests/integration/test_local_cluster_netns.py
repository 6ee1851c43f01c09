"""./local-cluster up --netns: the same cluster as separate hosts (ctl, db,
login, n1..nN in their own network, UTS and mount namespaces on a bridge).
A job from the login host runs on the nodes' hosts, the login host has no
slurm.conf, and `down` removes the hosts and the bridge.  Run from a copy
of the script in a temp directory, as test_local_cluster.py does."""

import os
import shutil
import subprocess
import tempfile

import pytest

import cluster as cl
import mariadb
import netns

BUILD = os.path.abspath(os.environ.get("SLUICE_BUILD_DIR",
                                       os.path.join(cl.REPO, "build")))
WHY = netns.unavailable() if os.geteuid() == 0 else "needs root"

pytestmark = pytest.mark.skipif(
    bool(mariadb.missing_tools()) or bool(WHY) or not os.access(
        os.path.join(BUILD, "bin", "slurmctld"), os.X_OK),
    reason="needs MariaDB, network namespaces (%s) and a build tree" % WHY)


def _holders(top):
    pids = os.path.join(top, "run", "pids")
    out = {}
    for n in os.listdir(pids) if os.path.isdir(pids) else []:
        if n.startswith("ns-"):
            with open(os.path.join(pids, n)) as f:
                out[n[3:-4]] = int(f.read())
    return out


@pytest.fixture(scope="module")
def local(users):
    top = tempfile.mkdtemp(prefix="sluice-lcn-")
    os.chmod(top, 0o755)
    shutil.copy(os.path.join(cl.REPO, "local-cluster"), top)
    os.symlink(os.path.join(cl.REPO, "scripts"), os.path.join(top, "scripts"))
    os.symlink(BUILD, os.path.join(top, "build"))
    env = dict(os.environ, LOCAL_CLUSTER_NODES="2", LOCAL_CLUSTER_SKIP_BUILD="1",
               LOCAL_CLUSTER_NO_SAMPLES="1")
    env.pop("SLURM_CONF", None)
    script = os.path.join(top, "local-cluster")
    up = subprocess.run([script, "up", "--netns"], env=env, cwd=top,
                        timeout=400, stdout=subprocess.PIPE,
                        stderr=subprocess.STDOUT, text=True)

    def lc(*args, timeout=120):
        return subprocess.run([script] + list(args), env=env, cwd=top,
                              timeout=timeout, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        yield top, up, lc
    finally:
        lc("down", "--purge")
        shutil.rmtree(top, ignore_errors=True)


def test_netns_cluster_runs_jobs_from_the_login_host(local):
    top, up, lc = local
    assert up.returncode == 0, up.stdout[-3000:]
    assert "cluster up: 2 nodes" in up.stdout
    hosts = _holders(top)
    assert sorted(hosts) == ["ctl", "db", "login", "n1", "n2"]
    r = lc("login", "srun", "-N2", "hostname")
    assert r.returncode == 0, r.stderr
    assert sorted(r.stdout.split()) == ["n1", "n2"]
    # the login host: its own name and address, no slurm.conf on disk
    r = lc("login", "sh", "-c", "hostname; test ! -e run/etc/slurm.conf "
           "&& echo no-conf; ip -4 -o addr show eth0")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "login" and lines[1] == "no-conf", r.stdout
    # the controller's host has it; the nodes learnt theirs from it
    r = lc("on", "ctl", "test", "-f", "run/etc/slurm.conf")
    assert r.returncode == 0, r.stderr
    assert os.path.exists(os.path.join(top, "run", "spool", "n2",
                                       "conf-cache", "slurm.conf"))
    # accounting through slurmdbd on host db
    r = lc("login", "sacctmgr", "-n", "-P", "list", "cluster", "format=cluster")
    assert r.returncode == 0 and r.stdout.split() == ["local"], r
    r = lc("status")
    assert "ns-n1: running" in r.stdout and "host n1 at 10." in r.stdout


def test_down_removes_the_hosts_and_the_bridge(local):
    top, up, lc = local
    assert up.returncode == 0, up.stdout[-3000:]
    hosts = _holders(top)
    with open(os.path.join(top, "run", "netns", "bridge")) as f:
        bridge = f.read().strip()
    r = lc("down")
    assert r.returncode == 0, r.stderr
    assert not [p for p in hosts.values() if cl._pid_alive(p)]
    assert netns._ip("link", "show", bridge, check=False).returncode != 0
    assert not os.path.exists(os.path.join(top, "run", "netns"))
