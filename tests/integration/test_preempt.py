"""Preemption (PreemptType=preempt/partition_prio) and suspended jobs'
CPUs, on one node of 2 CPUs shared by partitions of two PriorityTiers.

- REQUEUE: a high-tier job takes the node; the low-tier job is killed
  ("DUE TO PREEMPTION" in its output), Restarts=1, pending with
  Reason=BeginTime (a requeued job waits AuthInfo cred_expire + 1 s) and
  runs again once the high job is gone.
- CANCEL with GraceTime: the victim's PreemptTime is set and its EndTime
  moved GraceTime ahead; it then ends PREEMPTED (PR) with ExitCode 0:9.
- SUSPEND: the victim is SUSPENDED while the high job runs and resumed
  when it ends.  Only the jobs the high job needs are preempted.
- scontrol suspend gives a job's CPUs to others (as Slurm 22.05 does).
"""

import os
import time

import pytest

import conftest

from cluster import wait_for  # noqa: E402

U1 = "sluice_u1"

CONF = "\n".join([
    "PreemptType=preempt/partition_prio",
    "PreemptMode=REQUEUE",
    "JobRequeue=1",
    "PartitionName=low Nodes=n1 PriorityTier=1",
    "PartitionName=lowc Nodes=n1 PriorityTier=1 PreemptMode=CANCEL GraceTime=2",
    "PartitionName=lows Nodes=n1 PriorityTier=1 PreemptMode=SUSPEND,GANG",
    "PartitionName=high Nodes=n1 PriorityTier=2",
])


@pytest.fixture(scope="module")
def pc(users):
    c = conftest._start(tag="preempt", nodes=1, cpus=2, extra_conf=CONF)
    yield c
    conftest._stop(c)


@pytest.fixture(autouse=True)
def _clean(pc):
    yield
    pc.run(["scancel", "-u", U1])
    deadline = time.time() + 30
    while time.time() < deadline:
        r = pc.run(["squeue", "-h", "-o", "%i"])
        if not r.out.strip():
            return
        time.sleep(0.2)


def sb(c, part, n, cmd, *extra):
    return c.sbatch(["-p", part, "-n", str(n), *extra, "--wrap", cmd], user=U1)


def squeue(c, jid, fmt, states="all"):
    r = c.run(["squeue", "-h", "-t", states, "-j", str(jid), "-o", fmt])
    assert r.rc == 0, r
    return r.out.strip()


def test_requeue_mode(pc):
    c = pc
    out = os.path.join(c.workdir(U1), "pre-rq-%j.out")
    low = sb(c, "low", 2, 'echo "run ${SLURM_RESTART_COUNT-0}"; sleep 300',
             "-o", out)
    c.wait_state(low, "RUNNING", 30)
    path = out.replace("%j", str(low))
    wait_for(lambda: os.path.exists(path) and "run 0" in open(path).read(),
             what="first run")
    rec = c.show_job(low)
    assert rec["PreemptTime"] == "None" and rec["PreemptEligibleTime"] == \
        rec["StartTime"], rec
    high = sb(c, "high", 1, "sleep 300")
    c.wait_state(high, "RUNNING", 30)
    wait_for(lambda: squeue(c, low, "%T|%r") == "PENDING|BeginTime", 20,
             "requeued low job")
    rec = c.show_job(low)
    assert rec["Restarts"] == "1" and rec["Partition"] == "low", rec
    assert "PreemptTime" not in rec, rec   # pending: no preemption line
    text = open(path).read()
    assert "CANCELLED AT" in text and "DUE TO PREEMPTION ***" in text, text
    assert squeue(c, high, "%T") == "RUNNING"
    # the high job ends: the low one starts again after its begin delay
    c.run(["scancel", str(high)], user=U1)
    c.wait_state(low, "RUNNING", 30)
    wait_for(lambda: "run 1" in open(path).read(), 20, "second run")


def test_cancel_mode_with_grace(pc):
    c = pc
    low = sb(c, "lowc", 2, "sleep 300")
    c.wait_state(low, "RUNNING", 30)
    high = sb(c, "high", 2, "sleep 300")
    rec = wait_for(lambda: (lambda r: r if r.get("PreemptTime", "None") !=
                            "None" else None)(c.show_job(low)), 10,
                   "PreemptTime")
    assert rec["JobState"] in ("RUNNING", "COMPLETING"), rec
    assert squeue(c, high, "%T|%r") == "PENDING|Resources"
    c.wait_state(high, "RUNNING", 30)
    rec = c.show_job(low)
    assert rec["JobState"] == "PREEMPTED" and rec["Reason"] == "None", rec
    assert rec["ExitCode"] == "0:9", rec
    assert rec["EndTime"] == rec["PreemptTime"], rec
    assert squeue(c, low, "%t") == "PR"


def test_suspend_mode_and_minimal_set(pc):
    c = pc
    a = sb(c, "lows", 1, "sleep 300")
    b = sb(c, "lows", 1, "sleep 300")
    c.wait_state(a, "RUNNING", 30)
    c.wait_state(b, "RUNNING", 30)
    high = sb(c, "high", 1, "sleep 4")
    c.wait_state(high, "RUNNING", 30)
    states = sorted([c.job_state(a), c.job_state(b)])
    assert states == ["RUNNING", "SUSPENDED"], states  # one is enough
    sus = a if c.job_state(a) == "SUSPENDED" else b
    rec = c.show_job(sus)
    assert rec["PreemptTime"] == "None" and rec["SuspendTime"] != "None", rec
    assert squeue(c, sus, "%t") == "S"
    c.wait_state(high, "COMPLETED", 30)
    c.wait_state(sus, "RUNNING", 30)


def test_scontrol_suspend_frees_cpus(pc):
    c = pc
    a = sb(c, "debug", 2, "sleep 300")
    c.wait_state(a, "RUNNING", 30)
    b = sb(c, "debug", 2, "sleep 300")
    wait_for(lambda: squeue(c, b, "%r") == "Resources", 10, "b waits")
    r = c.run(["scontrol", "suspend", str(a)])
    assert r.rc == 0, r
    c.wait_state(b, "RUNNING", 30)
    assert c.job_state(a) == "SUSPENDED"
    # resumed, both run (Slurm overcommits rather than refuse)
    assert c.run(["scontrol", "resume", str(a)]).rc == 0
    assert c.job_state(a) == "RUNNING" and c.job_state(b) == "RUNNING"
