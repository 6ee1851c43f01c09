"""BatchStartTimeout (issue 27): a batch job whose launch its node's
slurmd has not confirmed within BatchStartTimeout (plus MessageTimeout,
the time the launch may spend on its way) is lost: requeued when it may
be (JobRequeue, --requeue), else ended NODE_FAIL.  The node itself is
left alone (as in Slurm: it goes DOWN only if it misses SlurmdTimeout).
A slurmd that is stopped (SIGSTOP) stands for one that does not answer.
"""

import os
import re
import signal
import time

import pytest

from conftest import _start, _stop
import cluster as cl

U = "sluice_u1"
BST = 3
MSG = 4


@pytest.fixture(scope="module")
def c(users):
    # SlurmdTimeout well past the launch's limit: the node stays UP
    c = _start(tag="bst", nodes=2, slurmd_timeout=120,
               extra_conf="BatchStartTimeout=%d\nMessageTimeout=%d\n"
               % (BST, MSG))
    yield c
    _stop(c)


def _lost_line(jid, node):
    return ("Batch JobId=%d missing from batch node %s (not found "
            "BatchStartTime after startup)" % (jid, node))


class _stopped:
    """n's slurmd stopped (SIGSTOP) for the block."""

    def __init__(self, c, node):
        self.pid = c.slurmds[node].pid

    def __enter__(self):
        os.kill(self.pid, signal.SIGSTOP)

    def __exit__(self, *a):
        os.kill(self.pid, signal.SIGCONT)


def test_show_config_prints_the_timeout(c):
    r = c.run(["scontrol", "show", "config"])
    assert r.rc == 0, r
    assert re.search(r"(?m)^BatchStartTimeout\s+= %d sec$" % BST, r.out), \
        r.out


def test_unconfirmed_launch_is_requeued(c):
    out = os.path.join(c.workdir(U), "bst.out")
    with _stopped(c, "n1"):
        jid = c.sbatch(["-w", "n1", "-o", out, "--wrap",
                        "echo run ${SLURM_RESTART_COUNT:-0}"], user=U)
        t0 = time.time()
        cl.wait_for(lambda: _lost_line(jid, "n1") in c.log_text(),
                    timeout=BST + MSG + 20, what="the launch declared lost")
        waited = time.time() - t0
        assert waited >= BST + MSG - 1, waited
        assert "requeuing it" in c.log_text()
        rec = c.show_job(jid)
        assert rec.get("Restarts") == "1", rec
        # the node is not blamed
        assert c.show_nodes()["n1"]["State"].split("+")[0] in (
            "IDLE", "ALLOCATED", "MIXED"), c.show_nodes()["n1"]
    # the node back: the job runs (again) and completes
    assert c.wait_done(jid, timeout=60) == "COMPLETED"
    assert c.show_job(jid).get("Restarts") == "1"


def test_unconfirmed_launch_of_a_no_requeue_job_fails(c):
    with _stopped(c, "n2"):
        jid = c.sbatch(["-w", "n2", "--no-requeue", "-o", "/dev/null",
                        "--wrap", "true"], user=U)
        cl.wait_for(lambda: _lost_line(jid, "n2") in c.log_text(),
                    timeout=BST + MSG + 20, what="the launch declared lost")
        assert "killing it" in c.log_text()
    # it ends once the node, back, has cleaned up
    assert c.wait_done(jid, timeout=60) == "NODE_FAIL"
    assert c.show_job(jid).get("Reason") == "JobLaunchFailure"


def test_confirmed_launch_is_not_touched(c):
    jid = c.sbatch(["-o", "/dev/null", "--wrap", "sleep %d" % (2 * (BST + MSG))],
                   user=U)
    assert c.wait_done(jid, timeout=60) == "COMPLETED"
    assert c.show_job(jid).get("Restarts") == "0"
    assert _lost_line(jid, "n1") not in c.log_text()
    assert _lost_line(jid, "n2") not in c.log_text()
