"""scancel sends one REQUEST_KILL_JOBS for all its jobs.

- `scancel -u USER` cancels exactly that user's jobs, in one request and
  one controller log line (no REQUEST_CANCEL_JOB per job).
- Filters combine (--name with -t PENDING); a plain user only selects
  their own jobs.
- A list of ids mixing own, foreign and unknown ids gives the same
  per-id messages and exit code as one request per id did (Slurm's
  texts: "Kill job error on job id N: Access/permission denied", exit
  210; unknown ids are silent without -v).
"""

import re
import threading
import time

import pytest

N_BULK = 300
N_OTHER = 4
DENIED = "scancel: error: Kill job error on job id %d: Access/permission denied"
INVALID = "scancel: error: Kill job error on job id %d: Invalid job id specified"


def submit_many(c, n, user, args, par=4):
    """n held jobs from par parallel clients; returns their ids."""
    ids, errors = [], []

    def client(count):
        try:
            for _ in range(count):
                ids.append(c.sbatch(args, user=user))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=client, args=(n // par + (i < n % par),))
               for i in range(par)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]
    return sorted(ids)


def states(c, ids):
    every = c.all_job_states()
    return {i: every.get(str(i)) for i in ids}


def kill_log_lines(text):
    return [l for l in text.splitlines() if "REQUEST_KILL_JOBS" in l and
            "_slurm_rpc_kill_jobs" in l]


@pytest.fixture(scope="module")
def u1(users):
    return users[0].pw_name


@pytest.fixture(scope="module")
def u2(users):
    return users[1].pw_name


def test_scancel_user_cancels_all_in_one_request(cluster, u1, u2):
    c = cluster
    mine = submit_many(c, N_BULK, u1, ["-J", "bulk", "--hold", "--wrap", "true"])
    other = submit_many(c, N_OTHER, u2, ["-J", "bulk", "--hold", "--wrap", "true"])
    off = c.log_size()
    t0 = time.time()
    r = c.run(["scancel", "-u", u1])
    took = time.time() - t0
    assert (r.rc, r.out, r.err) == (0, "", ""), r
    got = states(c, mine + other)
    assert {got[i] for i in mine} == {"CANCELLED"}, got
    assert {got[i] for i in other} == {"PENDING"}, got
    log = c.log_since(off)
    lines = kill_log_lines(log)
    assert len(lines) == 1, log[-3000:]
    assert "matched=%d signalled=%d errors=0" % (N_BULK, N_BULK) in lines[0], lines
    assert "REQUEST_CANCEL_JOB" not in log, log[-3000:]
    # One round trip and one commit: far below the per-job cost.
    assert took < 10, "scancel -u of %d jobs took %.1fs" % (N_BULK, took)
    c.run(["scancel", "-u", u2])
    assert set(states(c, other).values()) == {"CANCELLED"}


def test_scancel_name_and_state(cluster, u1, u2):
    c = cluster
    pick = [c.sbatch(["-J", "pick", "--hold", "--wrap", "true"], user=u1)
            for _ in range(3)]
    keep = [c.sbatch(["-J", "other", "--hold", "--wrap", "true"], user=u1)]
    foreign = [c.sbatch(["-J", "pick", "--hold", "--wrap", "true"], user=u2)]
    run = c.sbatch(["-J", "pick", "--wrap", "/usr/bin/sleep 600"], user=u1)
    c.wait_state(run, "RUNNING", 30)
    r = c.run(["scancel", "--name", "pick", "-t", "PENDING"], user=u1)
    # A plain user's filter selects only their own jobs: no errors for u2's.
    assert (r.rc, r.out, r.err) == (0, "", ""), r
    got = states(c, pick + keep + foreign + [run])
    assert [got[i] for i in pick] == ["CANCELLED"] * 3, got
    assert [got[i] for i in keep + foreign + [run]] == \
        ["PENDING", "PENDING", "RUNNING"], got
    r = c.run(["scancel", "-v", "-n", "pick,other"], user=u1)
    assert r.rc == 0, r
    assert sorted(r.err.splitlines()) == sorted(
        "scancel: Terminating job %d" % i for i in keep + [run]), r
    assert c.wait_done(run, 30) == "CANCELLED"
    assert c.job_state(keep[0]) == "CANCELLED"
    c.run(["scancel"] + [str(i) for i in foreign], user=u2)


def test_scancel_id_list_mixed(cluster, u1, u2):
    c = cluster
    own = [c.sbatch(["--hold", "--wrap", "true"], user=u1) for _ in range(2)]
    foreign = c.sbatch(["--hold", "--wrap", "true"], user=u2)
    unknown = 999999
    argv = ["scancel", str(own[0]), str(foreign), str(unknown), str(own[1])]
    off = c.log_size()
    r = c.run(argv, user=u1)
    assert (r.out, r.err, r.rc) == ("", DENIED % foreign + "\n", 210), r
    got = states(c, own + [foreign])
    assert [got[i] for i in own] == ["CANCELLED"] * 2, got
    assert got[foreign] == "PENDING", got
    log = c.log_since(off)
    assert len(kill_log_lines(log)) == 1, log[-3000:]
    assert re.search(r"Security violation, REQUEST_KILL_JOBS RPC for "
                     r"JobId=%d from uid=\d+" % foreign, log), log[-3000:]

    # -v names every job in the order given, each error after its line;
    # the done ones are "already completed", the unknown one is reported,
    # and the exit code is still the access error's.
    r = c.run(["scancel", "-v"] + argv[1:], user=u1)
    assert r.rc == 210, r
    assert r.err.splitlines() == [
        "scancel: Terminating job %d" % own[0],
        "scancel: error: Kill job error on job id %d: "
        "Job/step already completing or completed" % own[0],
        "scancel: Terminating job %d" % foreign,
        DENIED % foreign,
        "scancel: Terminating job %d" % unknown,
        "scancel: error: Kill job error on job id %d: "
        "Invalid job id specified" % unknown,
        "scancel: Terminating job %d" % own[1],
        "scancel: error: Kill job error on job id %d: "
        "Job/step already completing or completed" % own[1],
    ], r

    # Unknown and finished ids alone: silent, exit 0 (as before).
    r = c.run(["scancel", str(unknown), str(own[0])], user=u1)
    assert (r.rc, r.out, r.err) == (0, "", ""), r

    # An explicit signal (even KILL) to a finished or unknown job is an
    # error in 22.05: "Invalid job id specified", exit 1; with an access
    # error among them, the access error's code wins (checked on 22.05).
    for sig in ("USR1", "KILL"):
        r = c.run(["scancel", "-s", sig, str(own[0])], user=u1)
        assert (r.rc, r.out, r.err) == (1, "", INVALID % own[0] + "\n"), r
    r = c.run(["scancel", "-s", "USR1", str(foreign), str(unknown)], user=u1)
    assert r.rc == 210, r
    assert sorted(r.err.splitlines()) == sorted(
        [DENIED % foreign, INVALID % unknown]), r

    # The owner (and root) still can.
    r = c.run(["scancel", str(foreign)], user=u2)
    assert (r.rc, r.err) == (0, ""), r
    assert c.job_state(foreign) == "CANCELLED"


def test_scancel_foreign_user_filter_denied(cluster, u1, u2):
    """A plain user naming another user's jobs by filter gets one
    access error per job (as Slurm does), and the jobs stay."""
    c = cluster
    theirs = [c.sbatch(["-J", "fu", "--hold", "--wrap", "true"], user=u1)
              for _ in range(2)]
    r = c.run(["scancel", "-u", u1, "-n", "fu"], user=u2)
    assert r.rc == 210, r
    assert r.err.splitlines() == [DENIED % i for i in theirs], r
    assert set(states(c, theirs).values()) == {"PENDING"}
    r = c.run(["scancel", "-n", "fu", "-u", u1])     # root
    assert (r.rc, r.err) == (0, ""), r
    assert set(states(c, theirs).values()) == {"CANCELLED"}


def test_scancel_bad_nodelist_sends_nothing(cluster, u1):
    c = cluster
    off = c.log_size()
    r = c.run(["scancel", "-w", "n[1-"], user=u1)
    assert (r.rc, r.err) == (1, "scancel: error: Invalid node name specified: n[1-\n"), r
    assert not kill_log_lines(c.log_since(off))
