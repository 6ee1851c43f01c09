"""Gang scheduling: PreemptMode=GANG with SchedulerTimeSlice, a partition
with OverSubscribe=FORCE:2 on one node of one CPU.

- Two jobs share the CPU: the second waits suspended (S in squeue) until
  the slice ends, then they take turns; each one's output grows only
  while it runs, and both make progress.
- A third job waits (two jobs per CPU at most): Reason=Resources.
- scontrol resume of a job waiting for its slice is refused.
- When one ends, the waiting one runs at once (without waiting for the
  slice) and the pending one starts, suspended behind it.
- Suspended time is shown (SuspendTime) and is not charged to the time
  limit (EndTime moves).
"""

import os
import time

import pytest

import conftest

from cluster import wait_for  # noqa: E402

U1 = "sluice_u1"
SLICE = 3

CONF = "\n".join([
    "PreemptMode=GANG",
    "DebugFlags=Gang",
    "SchedulerTimeSlice=%d" % SLICE,
    "PartitionName=gang Nodes=n1 OverSubscribe=FORCE:2",
])


@pytest.fixture(scope="module")
def gc(users):
    c = conftest._start(tag="gang", nodes=1, cpus=1, extra_conf=CONF)
    yield c
    conftest._stop(c)


def states(c, *jids):
    r = c.run(["squeue", "-h", "-t", "all", "-o", "%i %t",
               "-j", ",".join(str(j) for j in jids)])
    assert r.rc == 0, r
    return dict((int(a), b) for a, b in
                (line.split() for line in r.out.splitlines()))


def ticker(c, name):
    path = os.path.join(c.workdir(U1), "gang-%s.txt" % name)
    jid = c.sbatch(["-p", "gang", "-t", "10", "-o", "/dev/null", "--wrap",
                    "while :; do echo x >> %s; sleep 0.1; done" % path],
                   user=U1)
    return jid, path


def size(path):
    return os.path.getsize(path) if os.path.exists(path) else 0


def test_two_jobs_share_one_cpu(gc):
    c = gc
    a, pa = ticker(c, "a")
    c.wait_state(a, "RUNNING", 30)
    wait_for(lambda: size(pa) > 0, what="job a writing")
    end_a = c.show_job(a)["EndTime"]
    b, pb = ticker(c, "b")
    # the new job waits for the slice: S in squeue, a keeps running
    wait_for(lambda: states(c, a, b) == {a: "R", b: "S"}, 15,
             what="b suspended behind a")
    # two jobs per CPU at most: a third one waits
    x = c.sbatch(["-p", "gang", "-t", "10", "--wrap", "sleep 60"], user=U1)
    wait_for(lambda: c.run(["squeue", "-h", "-j", str(x), "-o", "%t %r"])
             .out.strip() == "PD Resources", 15, what="third job pending")
    r = c.run(["scontrol", "resume", str(b)])
    assert r.rc == 1 and "disabled" in r.err, r
    # the slice ends: they swap, and swap again
    seen = []
    deadline = time.time() + 4 * SLICE + 6
    while time.time() < deadline and len(seen) < 3:
        s = states(c, a, b)
        if s in ({a: "R", b: "S"}, {a: "S", b: "R"}) and \
                (not seen or seen[-1] != s):
            seen.append(s)
        time.sleep(0.2)
    assert seen[:3] == [{a: "R", b: "S"}, {a: "S", b: "R"},
                        {a: "R", b: "S"}], seen
    # while a job waits its output does not grow
    wait_for(lambda: states(c, a, b)[b] == "S", 2 * SLICE + 2)
    before = size(pb)
    time.sleep(1)
    if states(c, a, b)[b] == "S":
        assert size(pb) == before, "b ran while suspended"
    assert size(pa) > 0 and size(pb) > 0
    rec = c.show_job(a)
    assert rec["SuspendTime"] != "None", rec
    assert rec["EndTime"] > end_a, (rec["EndTime"], end_a)
    # a ends: b runs at once, x starts and waits behind b
    wait_for(lambda: states(c, a, b)[b] == "S", 2 * SLICE + 2)
    t0 = time.time()
    assert c.run(["scancel", str(a)]).rc == 0
    wait_for(lambda: states(c, b).get(b) == "R", 3, what="b resumed")
    assert time.time() - t0 < SLICE, "b waited for the slice"
    wait_for(lambda: states(c, b, x) == {b: "R", x: "S"}, 15,
             what="x started and waits behind b")
    grown = size(pb)
    wait_for(lambda: size(pb) > grown, 5, what="b writing again")
    log = c.log_text()
    assert "gang: suspending JobId=%d" % b in log, c.log_tails()
    assert "gang: resuming JobId=%d" % b in log, c.log_tails()
    c.run(["scancel", "-u", U1])


def test_waiting_job_survives_controller_kill(gc):
    """A job waiting for its slice is still waiting (and still holds its
    CPU) after kill -9 of the controller, and gets its turn after it."""
    import signal
    c = gc
    a, pa = ticker(c, "ka")
    c.wait_state(a, "RUNNING", 30)
    b, pb = ticker(c, "kb")
    wait_for(lambda: states(c, a, b) == {a: "R", b: "S"}, 15,
             what="b suspended behind a")
    c.kill_ctld(signal.SIGKILL)
    c.start_ctld()
    wait_for(lambda: c.run(["squeue", "-h"], timeout=10).rc == 0, 30,
             what="controller back")
    s = states(c, a, b)
    assert sorted(s.values()) == ["R", "S"], s
    # still two per CPU: a third job waits
    x = c.sbatch(["-p", "gang", "-t", "10", "--wrap", "sleep 60"], user=U1)
    wait_for(lambda: c.run(["squeue", "-h", "-j", str(x), "-o", "%t %r"])
             .out.strip() == "PD Resources", 15, what="third job pending")
    # and they keep taking turns
    first = states(c, a, b)
    wait_for(lambda: states(c, a, b) not in (first, {}) and
             sorted(states(c, a, b).values()) == ["R", "S"],
             2 * SLICE + 5, what="the turn passes after the restart")
    before = size(pb) + size(pa)
    wait_for(lambda: size(pb) + size(pa) > before, 10, what="progress")
    c.run(["scancel", "-u", U1])
