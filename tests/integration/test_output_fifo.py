"""A job's -o/-e/-i naming a FIFO cannot hang its node (issue 34, defect 6).

Before, `sbatch -o fifo` with nobody reading the FIFO left the job
COMPLETING for ever, holding its CPUs: the task opened the file before
exec while sharing the root slurmstepd's memory and thread (vfork), and
the open waited for a reader, so the step daemon could not even be killed
by scancel.  Now every stdio file of a task is opened without waiting
(stepd io_open_nowait): with no reader the job fails at once and the node
is free; with a reader the output flows through the FIFO as usual.
"""

import os
import subprocess
import time

import pytest

from conftest import _start, _stop

U = "sluice_u1"


@pytest.fixture(scope="module")
def c(users):
    c = _start(tag="output_fifo", nodes=1)
    yield c
    _stop(c)


def _fifo(c, name):
    path = os.path.join(c.workdir(U), name)
    if os.path.exists(path):
        os.unlink(path)
    os.mkfifo(path, 0o600)
    pw = __import__("pwd").getpwnam(U)
    os.chown(path, pw.pw_uid, pw.pw_gid)
    return path


def _node_free(c, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        rec = c.show_nodes().get("n1", {})
        if rec.get("CPUAlloc") == "0" and "COMPLETING" not in rec.get("State", ""):
            return rec
        time.sleep(0.5)
    raise AssertionError("n1 never freed: %r" % (c.show_nodes().get("n1"),))


@pytest.mark.parametrize("opt", ["-o", "-e", "-i"])
def test_batch_fifo_without_peer(c, opt):
    """Nobody at the other end: the job ends at once (FAILED for an output
    it cannot open; for -i, a FIFO opened for reading does not wait and the
    script reads end of file), and the node takes the next job."""
    fifo = _fifo(c, "fifo" + opt)
    jid = c.sbatch([opt, fifo, "--wrap", "cat; echo done"], user=U)
    state = c.wait_done(jid, 30)
    assert state in ("FAILED", "COMPLETED"), c.show_job(jid)
    if opt != "-i":
        assert state == "FAILED", c.show_job(jid)
    _node_free(c)
    nxt = c.sbatch(["--wrap", "true"], user=U)
    assert c.wait_done(nxt, 30) == "COMPLETED", c.show_job(nxt)


def test_batch_fifo_with_reader(c):
    """Someone reads the FIFO: the job's output arrives there."""
    fifo = _fifo(c, "fifo-read")
    reader = subprocess.Popen(["setpriv", "--reuid", U, "--regid", U,
                               "--init-groups", "cat", fifo],
                              stdout=subprocess.PIPE, text=True)
    try:
        time.sleep(0.3)                 # cat is blocked opening it
        jid = c.sbatch(["-o", fifo, "--wrap", "echo through-the-fifo"],
                       user=U)
        assert c.wait_done(jid, 30) == "COMPLETED", c.show_job(jid)
        out, _ = reader.communicate(timeout=30)
        assert out == "through-the-fifo\n"
    finally:
        if reader.poll() is None:
            reader.kill()
            reader.wait()


@pytest.mark.parametrize("pattern", ["fifo-step%t", "fifo-step0"])
def test_srun_step_fifo_without_reader(c, pattern):
    """srun -o FIFO inside an allocation, per task (%t: the step daemon
    opens it) or one file (srun opens it): the file cannot be opened, said
    so, the output comes back to srun, and the job and its node are not
    held."""
    _fifo(c, "fifo-step0")
    out = os.path.join(c.workdir(U), "step.out")
    jid = c.sbatch(["-o", out, "--wrap", "%s -o %s echo hi; echo rc=$?" % (
        c.bin("srun"), pattern)], user=U)
    assert c.wait_done(jid, 60) == "COMPLETED", c.show_job(jid)
    _node_free(c)
    with open(out) as f:
        text = f.read()
    assert "Could not open" in text and "fifo-step0" in text, text
    assert "hi\n" in text and "rc=0" in text, text
