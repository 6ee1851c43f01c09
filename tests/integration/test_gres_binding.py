"""GPUs bound to cores: gres.conf Cores= registered by slurmd and shown
by scontrol (Gres=gpu:a100:2(S:0-1)), --gres-flags=enforce-binding
placing a job's CPUs on its GPU's socket (pending, or refused when it can
never fit), the flags Sluice refuses, and a Cores= past the node's cores
stopping slurmd with the file and line.

n1: Sockets=2 CoresPerSocket=2 ThreadsPerCore=1 (CPUs 0-1 socket 0,
    2-3 socket 1), Gres=gpu:a100:2: GPU 0 on cores 0-1, GPU 1 on 2-3.
GPUs are fake device files named by gres.conf File=.
"""

import os
import re
import signal
import time

import pytest

EXTRA = "\n".join([
    "GresTypes=gpu",
    "SlurmdParameters=config_overrides",
])
NODE = "Sockets=2 CoresPerSocket=2 ThreadsPerCore=1 Gres=gpu:a100:2"


def gres_conf(c, cores1="2-3"):
    dev = os.path.join(c.dir, "dev")
    os.makedirs(dev, exist_ok=True)
    for i in range(2):
        open(os.path.join(dev, "nvidia2%d" % i), "w").close()
    c.write_file(None, os.path.join(c.dir, "etc", "gres.conf"),
                 "# GPU 0 on socket 0, GPU 1 on socket 1\n"
                 "NodeName=n1 Name=gpu Type=a100 File=%s/nvidia20 "
                 "Cores=0-1\n"
                 "NodeName=n1 Name=gpu Type=a100 File=%s/nvidia21 "
                 "Cores=%s\n" % (dev, dev, cores1))


@pytest.fixture(scope="module")
def bind_cluster(request, users):
    import conftest
    c = conftest._start(tag="gresbind", nodes=1, cpus=4, real_memory=1000,
                        extra_conf=EXTRA, select_params="CR_Core",
                        node_extra=NODE)
    gres_conf(c)
    # slurmd reads gres.conf when it starts: start it again
    c.kill_slurmd("n1", signal.SIGTERM)
    c.start_slurmd("n1")
    c.wait_ready()
    yield c
    conftest._stop(c)


def sbatch(c, args, sleep=60):
    return c.run(["sbatch", "--parsable", "-o", "/dev/null"] + args +
                 ["--wrap", "/usr/bin/sleep %d" % sleep], user="sluice_u1",
                 cwd=c.workdir("sluice_u1"))


def show_d(c, jid):
    r = c.run(["scontrol", "-d", "show", "job", str(jid)])
    assert r.rc == 0, r
    return r.out


def wait_state(c, jid, state, timeout=30):
    deadline = time.time() + timeout
    out = ""
    while time.time() < deadline:
        out = show_d(c, jid)
        if "JobState=%s" % state in out:
            return out
        time.sleep(0.2)
    raise AssertionError("JobId=%s not %s:\n%s" % (jid, state, out))


def cancel_all(c):
    c.run(["scancel", "-u", "sluice_u1"])
    deadline = time.time() + 30
    while time.time() < deadline:
        r = c.run(["squeue", "-h", "-u", "sluice_u1"])
        if not r.out.strip():
            return
        time.sleep(0.2)


def test_bad_gres_flags(bind_cluster):
    """Unknown words are Slurm's error; enforce- with disable-binding is
    too; one-task-per-sharing is refused (Sluice does not do it);
    nothing is submitted."""
    c = bind_cluster
    for flags in ("bogus", "enforce-binding,disable-binding", ""):
        r = sbatch(c, ["--gres=gpu:1", "--gres-flags=%s" % flags])
        assert r.rc == 255, (flags, r)     # exit(-1), as Slurm
        assert "sbatch: error: Invalid --gres-flags specification" in \
            r.err, (flags, r.err)
    r = sbatch(c, ["--gres=gpu:1", "--gres-flags=one-task-per-sharing"])
    assert r.rc == 255, r
    assert "--gres-flags=one-task-per-sharing is not supported" in r.err
    r = c.run(["squeue", "-h", "-u", "sluice_u1"])
    assert r.out.strip() == "", r
    for flags in ("disable-binding", "multiple-tasks-per-sharing"):
        r = sbatch(c, ["--gres=gpu:1", "--gres-flags=%s" % flags, "-H"])
        assert r.rc == 0, (flags, r)
    cancel_all(c)


def test_cores_shown(bind_cluster):
    """scontrol show node: the GPUs' sockets, as Slurm prints them."""
    c = bind_cluster
    r = c.run(["scontrol", "show", "node", "n1"])
    assert r.rc == 0, r
    assert re.search(r"\bGres=gpu:a100:2\(S:0-1\)(\s|$)", r.out), r.out
    r = c.run(["sinfo", "-h", "-N", "-o", "%N %G"])
    assert "n1 gpu:a100:2(S:0-1)" in r.out, r.out


def test_enforce_binding_placement(bind_cluster):
    """A CPU job holds core 0 (socket 0): a bound 2-CPU GPU job gets
    GPU 1 and socket 1's cores; another bound 2-CPU job pends (socket 0
    has one free core) with reason Resources, and starts on socket 0
    when the CPU job ends."""
    c = bind_cluster
    a = sbatch(c, ["-n1"])
    assert a.rc == 0, a
    a = a.out.strip()
    wait_state(c, a, "RUNNING")
    b = sbatch(c, ["-n2", "--gres=gpu:1", "--gres-flags=enforce-binding"])
    assert b.rc == 0, b
    b = b.out.strip()
    out = wait_state(c, b, "RUNNING")
    assert re.search(r"CPU_IDs=2-3 .*GRES=gpu:a100:1\(IDX:1\)", out), out
    d = sbatch(c, ["-n2", "--gres=gpu:1", "--gres-flags=enforce-binding"])
    assert d.rc == 0, d
    d = d.out.strip()
    time.sleep(2)
    out = show_d(c, d)
    assert "JobState=PENDING" in out and "Reason=Resources" in out, out
    # with the CPU job gone, the bound job gets GPU 0 and cores 0-1
    c.run(["scancel", a])
    out = wait_state(c, d, "RUNNING")
    assert re.search(r"CPU_IDs=0-1 .*GRES=gpu:a100:1\(IDX:0\)", out), out
    cancel_all(c)


def test_never_fits_refused(bind_cluster):
    """3 CPUs on one GPU's 2 cores can never fit bound: refused at
    submit, as Slurm does; without the flag the job is taken."""
    c = bind_cluster
    r = sbatch(c, ["-n3", "--gpus-per-node=1",
                   "--gres-flags=enforce-binding"])
    assert r.rc == 1, r
    assert "Requested node configuration is not available" in r.err, r.err
    r = sbatch(c, ["-n3", "--gpus-per-node=1", "-H"])
    assert r.rc == 0, r
    # two GPUs bind all four cores: fits bound
    r = sbatch(c, ["-n3", "--gpus-per-node=2",
                   "--gres-flags=enforce-binding", "-H"])
    assert r.rc == 0, r
    cancel_all(c)


def test_cores_out_of_range_stops_slurmd(bind_cluster):
    """Last: a Cores= past the node's 4 cores stops slurmd with the file
    and line; the good file brings it back."""
    c = bind_cluster
    gres_conf(c, cores1="2-7")
    c.kill_slurmd("n1", signal.SIGTERM)
    off = len(c.log_text("n1"))
    d = c.start_slurmd("n1")
    assert d.popen.wait(timeout=30) != 0
    path = os.path.join(c.dir, "etc", "gres.conf")
    assert ("fatal: gres.conf: %s line 3: Cores=2-7 is out of range: the "
            "node has 4 cores (0-3)" % path) in c.log_text("n1")[off:], \
        c.log_text("n1")[off:]
    c.stop_daemon(d)
    gres_conf(c)
    c.start_slurmd("n1")
    c.wait_ready(timeout=60)
