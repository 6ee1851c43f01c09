"""Configless nodes (Slurm's configless guide, slurmd(8) --conf-server,
slurm.conf(5) SlurmctldParameters=enable_configless): a slurmd started
with --conf-server and no slurm.conf of its own fetches slurm.conf and the
files beside it from the controller, caches them under
SlurmdSpoolDir/conf-cache, runs jobs, gets fresh files on scontrol
reconfigure, retries every 10 s while the controller is down, and is
refused ("ConfigLess mode is disabled ...") when the controller does not
enable it."""

import os
import signal
import time

import pytest

import cluster as cl
import conftest

ENABLE = "SlurmctldParameters=enable_configless"


def _configless_argv(c, node, server=None):
    return [c.bin("slurmd"), "-D", "-N", node,
            "--conf-server", server or "127.0.0.1:%d" % c.ctld_port,
            "--authinfo", "socket=%s" % c.munge_socket]


def _start_configless(c, node, server=None):
    # no slurm.conf for this slurmd: SLURM_CONF names nothing
    d = c._spawn("slurmd-" + node, _configless_argv(c, node, server),
                 env={"SLURM_CONF": os.path.join(c.dir, "none", "slurm.conf")})
    c.slurmds[node] = d
    return d


def _cache(c, node, name="slurm.conf"):
    return os.path.join(c.dir, "spool", node, "conf-cache", name)


@pytest.fixture
def configless(request, users):
    """A cluster whose every slurmd runs configless."""
    made = []

    def make(extra=""):
        c = cl.Cluster(nodes=2, extra_conf=ENABLE + extra,
                       tag=request.node.name[:20])
        c.start_slurmd = lambda node: _start_configless(c, node)
        conftest._ACTIVE.append(c)
        made.append(c)
        c.start()
        return c
    yield make
    for c in made:
        conftest._stop(c, keep=c.failed)


def test_configless_nodes_run_jobs(configless):
    c = configless("\nEpilog=/bin/true")
    with open(os.path.join(c.dir, "etc", "gres.conf"), "w") as f:
        f.write("# no GRES here\n")
    # the files served are read at start and at reconfigure
    assert c.run(["scontrol", "reconfigure"]).rc == 0
    cl.wait_for(lambda: os.path.exists(_cache(c, "n1", "gres.conf")),
                timeout=20, what="gres.conf cached on n1")
    with open(c.conf) as f:
        served = f.read()
    for n in c.node_names:
        with open(_cache(c, n)) as f:
            assert f.read() == served
    jid = c.sbatch(["-N", "2", "--wrap", "srun hostname; echo ok"])
    assert c.wait_done(jid) == "COMPLETED"


def test_reconfigure_reaches_configless_nodes(configless):
    c = configless()
    with open(c.conf, "a") as f:
        f.write("# marker-reconfigure-29\n")
    r = c.run(["scontrol", "reconfigure"])
    assert r.rc == 0, r

    def cached():
        with open(_cache(c, "n2")) as f:
            return "marker-reconfigure-29" in f.read()
    cl.wait_for(cached, timeout=20, what="n2's cache rewritten")
    cl.wait_for(lambda: "Reconfigured from" in open(c.slurmd_log("n2")).read(),
                timeout=20, what="n2 reconfigured")
    assert c.wait_done(c.sbatch(["-w", "n2", "--wrap", "true"])) == \
        "COMPLETED"


def test_conf_server_down_at_start_is_retried(configless):
    c = configless()
    c.kill_slurmd("n2", signal.SIGTERM)
    c.kill_ctld()
    d = _start_configless(c, "n2")
    cl.wait_for(lambda: "Retrying in 10 seconds" in open(d.out_path).read(),
                timeout=20, what="the slurmd retries")
    assert d.alive()
    c.start_ctld()
    c.wait_ready(timeout=60)
    assert c.node_states()["n2"].lower().startswith("idle")


def test_not_enabled_is_refused(new_cluster):
    c = new_cluster(nodes=1)
    argv = _configless_argv(c, "n1")
    env = {"SLURM_CONF": os.path.join(c.dir, "none", "slurm.conf")}
    d = c._spawn("slurmd-refused", argv, env=env)
    d.popen.wait(timeout=30)
    c._forget(d)
    assert d.popen.returncode != 0
    out = open(d.out_path).read()
    assert "ConfigLess mode is disabled in slurm configuration." in out
    assert "configless mode is not enabled" in open(c.ctld_log).read()
    assert not os.path.exists(os.path.join(c.dir, "spool", "n1",
                                           "conf-cache"))


def test_commands_with_conf_server(configless):
    """A command with SLURM_CONF_SERVER and no slurm.conf fetches the
    files itself.  Before slurm.conf is known it talks to MUNGE at
    libmunge's default socket: the command runs in a mount namespace
    where that path is this cluster's munged."""
    c = configless()
    sock = c.munge_socket
    wrap = ("mount -t tmpfs none /run && mkdir -p /run/munge && "
            "touch /run/munge/munge.socket.2 && "
            "mount --bind %s /run/munge/munge.socket.2 && exec \"$@\"" % sock)

    def run(argv, server):
        return c.run(["unshare", "-m", "--propagation", "private", "sh",
                      "-c", wrap, "sh", c.bin(argv[0])] + argv[1:],
                     env={"SLURM_CONF": "",
                          "SLURM_CONF_SERVER": server})

    r = run(["sinfo", "-h", "-o", "%N %t"], "127.0.0.1:%d" % c.ctld_port)
    if r.rc != 0 and "mount" in r.err:
        pytest.skip("no mount namespaces here: %s" % r.err.strip())
    assert r.rc == 0, r
    assert r.out.split() == ["n[1-2]", "idle"], r
    r = run(["sbatch", "--wrap", "true"], "127.0.0.1:%d" % c.ctld_port)
    assert r.rc == 0 and "Submitted batch job" in r.out, r
    assert c.wait_done(int(r.out.split()[-1])) == "COMPLETED"
    # nothing listens there
    dead = cl.free_ports(1)[0]
    r = run(["sinfo"], "127.0.0.1:%d" % dead)
    assert r.rc == 1
    assert "Unable to fetch the configuration from SLURM_CONF_SERVER" \
        in r.err, r
