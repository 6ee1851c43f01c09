"""systemd units (etc/*.service) and the daemons' --systemd readiness.

systemd cannot run as PID 1 here, so the test runs each unit's ExecStart
line (with the build's binaries in place of /usr/sbin and the options
variable empty) as systemd would: in its own session, with NOTIFY_SOCKET
naming a datagram socket the test reads, and checks what a Type=notify
unit needs: the process stays in the foreground (the pid systemd started
is the daemon), READY=1 comes with that pid as MAINPID once the daemon
serves, STOPPING=1 when it is told to stop.
"""

import os
import re
import shlex
import signal
import socket

import pytest

from cluster import REPO, wait_for
from conftest import _start, _stop

ETC = os.path.join(REPO, "etc")


def unit(name):
    keys = {}
    for line in open(os.path.join(ETC, name + ".service")):
        m = re.match(r"(\w+)=(.*)", line.strip())
        if m:
            keys.setdefault(m.group(1), []).append(m.group(2))
    return keys


def exec_start(c, name):
    argv = shlex.split(unit(name)["ExecStart"][0])
    assert argv[0] == "/usr/sbin/" + name
    argv[0] = c.bin(name)
    return [a for a in argv if not a.startswith("$")]


@pytest.fixture(scope="module")
def sd(users):
    c = _start(tag="systemd", nodes=1)
    path = os.path.join(c.dir, "notify.sock")
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(path)
    os.chmod(path, 0o777)          # slurmctld notifies as SlurmUser
    s.settimeout(30)
    yield c, s, path
    s.close()
    _stop(c)


def messages(s):
    data = s.recv(4096).decode()
    return dict(ln.split("=", 1) for ln in data.splitlines() if "=" in ln)


def test_units_are_type_notify():
    for name in ("slurmctld", "slurmd", "slurmdbd", "sackd"):
        u = unit(name)
        assert u["Type"] == ["notify"], name
        assert "--systemd" in u["ExecStart"][0], name
        assert u["LimitNOFILE"], name
    assert unit("slurmd")["Delegate"] == ["yes"]
    assert unit("slurmd")["KillMode"] == ["process"]


def test_slurmctld_ready_and_stopping(sd):
    c, s, path = sd
    c.kill_ctld()
    d = c._spawn("slurmctld", exec_start(c, "slurmctld"),
                 env={"NOTIFY_SOCKET": path})
    c.ctld = d
    m = messages(s)
    assert m.get("READY") == "1", m
    assert m.get("MAINPID") == str(d.pid), (m, d.pid)   # no detach
    assert d.alive()
    r = c.run(["squeue", "-h"])
    assert r.rc == 0, r.err
    os.kill(d.pid, signal.SIGTERM)
    assert messages(s).get("STOPPING") == "1"
    d.popen.wait(timeout=30)
    c.start_ctld()
    c.wait_ready()


def test_slurmd_ready(sd):
    c, s, path = sd
    node = c.node_names[0]
    c.kill_slurmd(node, signal.SIGTERM)
    d = c._spawn("slurmd-" + node, exec_start(c, "slurmd") + ["-N", node],
                 env={"NOTIFY_SOCKET": path})
    c.slurmds[node] = d
    m = messages(s)
    assert m.get("READY") == "1" and m.get("MAINPID") == str(d.pid), m
    wait_for(lambda: c.run(["sinfo", "-h", "-n", node, "-o", "%t"]).out
             .strip() == "idle", timeout=30, what="the node idle")
    jid = c.sbatch(["-o", "/dev/null", "--wrap", "true"])
    assert c.wait_done(jid) == "COMPLETED"


def test_sackd_ready_and_stopping(sd):
    c, s, path = sd
    run_dir = os.path.join(c.dir, "sackd-run")
    os.makedirs(run_dir, exist_ok=True)
    d = c._spawn("sackd", exec_start(c, "sackd"),
                 env={"NOTIFY_SOCKET": path, "SLURM_CONF": c.conf,
                      "RUNTIME_DIRECTORY": run_dir})
    m = messages(s)
    assert m.get("READY") == "1" and m.get("MAINPID") == str(d.pid), m
    assert d.alive()
    os.kill(d.pid, signal.SIGTERM)
    assert messages(s).get("STOPPING") == "1"
    d.popen.wait(timeout=30)
    assert d.popen.returncode == 0
