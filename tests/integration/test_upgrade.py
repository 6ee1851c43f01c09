"""Rolling upgrades (doc/admin-guide.md "Upgrading"), with this tree as
the release before and the synthetic next release (proto_next.py,
protocol 25.11, shared with test_proto.py and built once per run) as the
release a site upgrades to:

  * slurmdbd upgraded under a running 25.05 slurmctld: the records the
    controller queued while slurmdbd was down reach the new slurmdbd, at
    the version they were written at, none lost (jobs and their steps in
    sacct of both versions);
  * slurmctld upgraded (killed, new binary, started) with jobs running on
    25.05 slurmd's: the new controller reads the old StateSaveLocation
    (snapshot and journal: running and held jobs, a drained node with its
    reason, a reservation) and the old controller's accounting outbox;
    the jobs finish and are accounted, a job the old sbatch submits after
    the upgrade runs on an old node;
  * a slurmctld newer than its slurmdbd is refused, not stepped down to
    (slurmdbd must be upgraded first): its records wait in the outbox and
    reach slurmdbd once it is upgraded;
  * a StateSaveLocation of a format older than the oldest read is
    refused with a message and left untouched.

The "previous release" is this tree and the "current" one the synthetic
next built from it: no Sluice release exists before 25.05, and a recorded
commit of main would be a development snapshot whose formats were never
frozen (this very change altered the outbox format); the next build is
one -D away from the tree under test, so both sides always build."""

import os
import signal
import struct

import pytest

import cluster as cl
import mariadb  # noqa: E402
import proto_next

pytestmark = pytest.mark.skipif(bool(mariadb.missing_tools()),
                                reason="MariaDB tools missing: %s"
                                % ", ".join(mariadb.missing_tools()))

STATE_MAGIC_LEN = 4 + len("SLUICE_CTLD_STATE") + 1     # packstr


@pytest.fixture(scope="module")
def nb():
    return proto_next.bins()


def _env(tag, nodes, dbd=None, ctld=None):
    e = mariadb.AcctEnv(tag=tag, nodes=nodes)
    e.dbd_path = dbd or e.dbd_bin()
    e.dbd_bin = lambda: e.dbd_path
    if ctld:
        e.c.bins = dict(e.c.bins)
        e.c.bins["slurmctld"] = ctld
    try:
        e.start()
        e.start_cluster()
    except BaseException:
        e.stop()
        raise
    return e


def _done(e, ok):
    """Stop everything; remove the directory only when the test passed
    (finish() also fails it on a sanitizer report)."""
    if ok:
        e.finish()
    else:
        e.stop()


def _upgrade_dbd(e, path):
    e.stop_dbd()
    e.dbd_path = path
    e.start_dbd()


def _sacct(e, exe, jobs):
    """{jobid-or-step: state} of jobs as sacct exe shows them."""
    r = e.c.run([exe, "-P", "-n", "-o", "JobID,State", "-j",
                 ",".join(str(j) for j in jobs)], timeout=30)
    assert r.rc == 0, r
    return dict(line.split("|", 1) for line in r.out.splitlines() if line)


def _wait_accounted(e, exes, want):
    """Until every sacct in exes shows want ({id: state, or the start of
    it}) among its rows."""
    jobs = sorted({int(k.split(".")[0]) for k in want})
    seen = {}

    def ok():
        for exe in exes:
            seen[exe] = _sacct(e, exe, jobs)
            if any(not seen[exe].get(k, "").startswith(v)
                   for k, v in want.items()):
                return False
        return True
    try:
        cl.wait_for(ok, timeout=60, what="jobs accounted")
    except Exception:
        raise AssertionError("wanted %r, sacct showed %r\nslurmctld:\n%s"
                             % (want, seen, e.c.log_text()[-3000:]))


def _sbatch(c, exe, wrap, *args):
    r = c.run([exe] + list(args) + ["--wrap", wrap])
    assert r.rc == 0 and r.out.startswith("Submitted batch job "), r
    return int(r.out.split()[-1])


def test_slurmdbd_upgraded_under_old_controller(nb):
    e = _env("upg-dbd", 1)
    ok = False
    try:
        c = e.c
        first = _sbatch(c, "sbatch", "true")
        assert c.wait_done(first) == "COMPLETED"
        _wait_accounted(e, ["sacct"], {str(first): "COMPLETED"})
        e.stop_dbd()
        # finished while slurmdbd is down: queued in the 25.05 outbox
        queued = [_sbatch(c, "sbatch", "true") for _ in range(3)]
        for j in queued:
            assert c.wait_done(j) == "COMPLETED", c.show_job(j)
        cl.wait_for(lambda: "records wait in the outbox" in c.log_text(),
                    timeout=30, what="the controller queueing records")
        e.dbd_path = nb["slurmdbd"]
        e.start_dbd()
        want = {str(j): "COMPLETED" for j in [first] + queued}
        want.update({"%d.batch" % j: "COMPLETED" for j in [first] + queued})
        _wait_accounted(e, ["sacct", nb["sacct"]], want)
        assert "malformed" not in e.dbd_log_text()
        ok = True
    finally:
        _done(e, ok)


def _state_of(c, running, held):
    jobs = {j: (c.show_job(j).get("JobState"), c.show_job(j).get("Reason"))
            for j in running + [held]}
    node = c.show_nodes()["n2"]
    r = c.run(["scontrol", "show", "reservation", "upg"])
    assert r.rc == 0, r
    resv = cl.parse_kv(r.out)
    return (jobs, "DRAIN" in node.get("State", ""), node.get("Reason"),
            resv.get("Nodes"), resv.get("StartTime"))


def test_controller_upgraded_with_jobs_running(nb):
    # slurmdbd first, as the guide says; then slurmctld under running jobs
    e = _env("upg-ctld", 2, dbd=nb["slurmdbd"])
    ok = False
    try:
        c = e.c
        go = os.path.join(c.dir, "run", "go")
        wait = "while [ ! -e %s ]; do sleep 0.2; done" % go
        running = [_sbatch(c, "sbatch", wait, "-w", n, "-t", "10")
                   for n in c.node_names]
        for j in running:
            c.wait_state(j, "RUNNING")
        held = _sbatch(c, "sbatch", "true", "-H")
        r = c.run(["scontrol", "create", "reservation", "ReservationName=upg",
                   "StartTime=now+1day", "Duration=60", "Nodes=n1",
                   "Users=root"])
        assert r.rc == 0, r
        r = c.run(["scontrol", "update", "NodeName=n2", "State=DRAIN",
                   "Reason=upgrade test"])
        assert r.rc == 0, r
        before = _state_of(c, running, held)
        # records from here on wait in the old controller's outbox
        e.stop_dbd()
        r = c.run(["scancel", str(held)])
        assert r.rc == 0, r
        assert c.wait_done(held) == "CANCELLED"

        # the upgrade: kill -9 (the journal holds the last changes)
        c.kill_ctld(signal.SIGKILL)
        c.bins = dict(c.bins)
        c.bins["slurmctld"] = nb["slurmctld"]
        c.start_ctld()
        cl.wait_for(lambda: c.run(["squeue"], timeout=10).rc == 0,
                    timeout=60, what="the new slurmctld answering")
        after = _state_of(c, running, held)
        assert after[0][held][0] == "CANCELLED", after
        assert {j: s for j, s in after[0].items() if j != held} == \
            {j: s for j, s in before[0].items() if j != held}, (before, after)
        assert after[1:] == before[1:], (before, after)

        e.start_dbd()
        open(go, "w").close()
        for j in running:
            assert c.wait_done(j) == "COMPLETED", c.show_job(j)
        # the old sbatch, an old node, the new controller
        r = c.run(["scontrol", "update", "NodeName=n2", "State=RESUME"])
        assert r.rc == 0, r
        late = _sbatch(c, "sbatch", "true", "-w", "n2")
        assert c.wait_done(late) == "COMPLETED", c.show_job(late)
        want = {str(j): "COMPLETED" for j in running + [late]}
        want.update({"%d.batch" % j: "COMPLETED" for j in running + [late]})
        want[str(held)] = "CANCELLED"
        _wait_accounted(e, ["sacct", nb["sacct"]], want)
        log = c.log_text()
        assert "protocol version 25.05" in log      # the old nodes
        assert "malformed" not in e.dbd_log_text()

        # a StateSaveLocation too old to read: refused, untouched
        assert c.stop_daemon(c.ctld) == 0
        path = os.path.join(c.dir, "state", "ctld_state")
        data = open(path, "rb").read()
        with open(path, "wb") as f:
            f.write(data[:STATE_MAGIC_LEN] + struct.pack(">H", 0) +
                    data[STATE_MAGIC_LEN + 2:])
        before = _state_files(c)
        at = c.log_size("slurmctld")
        c.start_ctld()
        c.ctld.popen.wait(timeout=30)
        assert c.ctld.popen.returncode != 0
        said = c.log_since(at, "slurmctld")
        assert ("state file version 0 is older than the oldest this "
                "slurmctld reads (1 to ") in said, said
        assert "left untouched" in said, said
        assert _state_files(c) == before
        ok = True
    finally:
        _done(e, ok)


def test_controller_newer_than_slurmdbd_refused(nb):
    e = _env("upg-order", 1, ctld=nb["slurmctld"])
    ok = False
    try:
        c = e.c
        j = _sbatch(c, "sbatch", "true")
        assert c.wait_done(j) == "COMPLETED"
        cl.wait_for(lambda: "slurmdbd must be upgraded first" in
                    c.log_text(), timeout=30, what="the refusal logged")
        assert ("speaks protocol version 25.05, older than this "
                "slurmctld's 25.11") in c.log_text()
        assert "newer than this slurmdbd's 25.05" in e.dbd_log_text()
        r = e.sacct("-P", "-n", "-o", "JobID", "-j", str(j))
        assert r.rc == 0 and str(j) not in r.out, r
        # upgraded: what waited is stored
        _upgrade_dbd(e, nb["slurmdbd"])
        _wait_accounted(e, ["sacct", nb["sacct"]],
                        {str(j): "COMPLETED", "%d.batch" % j: "COMPLETED"})
        ok = True
    finally:
        _done(e, ok)


def _state_files(c):
    out = {}
    for root, _, files in os.walk(os.path.join(c.dir, "state")):
        for n in files:
            if n == "ctld_lease":
                continue
            p = os.path.join(root, n)
            out[p] = open(p, "rb").read()
    return out
