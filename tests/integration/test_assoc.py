"""Associations, QOS and limits (AccountingStorageEnforce) against a real
slurmdbd on a private MariaDB.

One environment for the module: cluster "sluice" with two 2-CPU nodes,
account "proj" with user sluice_u1 (sluice_u2 has no association),
enforcement on.  Tests run in order; each sets the limits it needs with
sacctmgr and waits for the controller to reload its association cache
(slurmdbd tells it after every committed change).
"""

import os
import re
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cluster as cl  # noqa: E402
import mariadb  # noqa: E402

pytestmark = pytest.mark.skipif(bool(mariadb.missing_tools()),
                                reason="MariaDB server not installed: %s"
                                % ", ".join(mariadb.missing_tools()))

U1, U2 = "sluice_u1", "sluice_u2"
RELOAD_RE = re.compile(r"assoc_mgr: \d+ associations.*generation (\d+)")


def reloads(env):
    return [int(m.group(1)) for m in RELOAD_RE.finditer(env.c.log_text())]


@pytest.fixture(scope="module")
def env(users):
    e = mariadb.AcctEnv(tag="assoc", nodes=2)
    e.c.extra_conf += ("\nAccountingStorageEnforce=associations,limits,"
                       "qos,safe\nPriorityType=priority/multifactor\n"
                       "PriorityWeightQOS=10000\nPriorityWeightAge=0\n"
                       "PriorityWeightFairshare=0\n")
    try:
        e.start()
        for args in (("add", "cluster", "sluice"),
                     ("add", "account", "proj", "cluster=sluice"),
                     ("add", "user", U1, "account=proj"),
                     ("add", "qos", "high", "priority=100")):
            r = e.sacctmgr("-i", *args)
            assert r.rc == 0, r
        e.start_cluster()
    except BaseException:
        e.stop()
        raise
    yield e
    e.stop()
    reports = e.c.sanitizer_reports()
    if reports:
        pytest.fail("sanitizer reports in %s:\n%s" % (e.dir, "\n".join(
            "--- %s ---\n%s" % (p, t[:4000]) for p, t in reports[:5])),
            pytrace=False)
    e.cleanup()


def change(env, *args):
    """sacctmgr -i args, then wait until the controller has reloaded."""
    before = max(reloads(env) or [0])
    r = env.sacctmgr("-i", *args)
    assert r.rc == 0, r
    deadline = time.time() + 20
    while time.time() < deadline:
        if max(reloads(env) or [0]) > before:
            return r
        time.sleep(0.1)
    raise AssertionError("controller did not reload after sacctmgr %s\n%s"
                         % (args, env.c.log_tails()))


def sbatch(env, *args, user=U1):
    return env.c.run(["sbatch", "-o", "/dev/null"] + list(args) +
                     ["--wrap", "sleep 300"], user=user)


def job_id(r):
    m = re.fullmatch(r"Submitted batch job (\d+)\n", r.out)
    assert r.rc == 0 and m, r
    return int(m.group(1))


def cancel_all(env):
    env.c.run(["scancel", "-u", U1])
    deadline = time.time() + 30
    while time.time() < deadline:
        r = env.c.run(["squeue", "-h", "-u", U1, "-o", "%i"])
        if r.rc == 0 and not r.out.strip():
            return
        time.sleep(0.2)


def reason(env, jid, want, timeout=20):
    deadline = time.time() + timeout
    got = None
    while time.time() < deadline:
        got = env.c.show_job(jid).get("Reason")
        if got == want:
            return got
        time.sleep(0.2)
    return got


def test_user_without_association_is_rejected(env):
    r = sbatch(env, user=U2)
    assert r.rc == 1, r
    assert r.err == ("sbatch: error: Batch job submission failed: Invalid "
                     "account or account/partition combination specified\n")
    assert env.c.run(["squeue", "-h", "-u", U2]).out == ""
    r = sbatch(env, "-A", "nosuch")
    assert r.rc == 1 and "Invalid account" in r.err, r


def test_default_account_and_qos_filled(env):
    jid = job_id(sbatch(env))
    job = env.c.show_job(jid)
    assert job["Account"] == "proj" and job["QOS"] == "normal", job
    r = env.c.run(["squeue", "-h", "-j", str(jid), "-o", "%a %q"])
    assert r.out == "proj normal\n", r
    r = sbatch(env, "--qos=nosuch")
    assert r.rc == 1, r
    assert r.err.endswith("Invalid qos specification\n"), r
    cancel_all(env)


def test_max_jobs_keeps_third_pending(env):
    change(env, "modify", "user", U1, "set", "MaxJobs=2")
    ids = [job_id(sbatch(env)) for _ in range(3)]
    for jid in ids[:2]:
        env.c.wait_state(jid, "RUNNING", timeout=30)
    assert reason(env, ids[2], "AssocMaxJobsLimit") == "AssocMaxJobsLimit"
    assert env.c.job_state(ids[2]) == "PENDING"
    r = env.c.run(["squeue", "-h", "-j", str(ids[2]), "-o", "%r"])
    assert r.out == "AssocMaxJobsLimit\n", r
    # one ends: the third starts
    env.c.run(["scancel", str(ids[0])])
    env.c.wait_state(ids[2], "RUNNING", timeout=30)
    cancel_all(env)
    change(env, "modify", "user", U1, "set", "MaxJobs=-1")


def test_max_submit_rejects_at_submit(env):
    change(env, "modify", "user", U1, "set", "MaxSubmitJobs=2")
    ids = [job_id(sbatch(env)) for _ in range(2)]
    r = sbatch(env)
    assert r.rc == 1, r
    assert r.err == ("sbatch: error: AssocMaxSubmitJobLimit\n"
                     "sbatch: error: Batch job submission failed: Job "
                     "violates accounting/QOS policy (job submit limit, "
                     "user's size and/or time limits)\n"), r
    states = env.c.all_job_states()
    assert sorted(int(i) for i in states if states[i] in
                  ("PENDING", "RUNNING")) == ids
    cancel_all(env)
    change(env, "modify", "user", U1, "set", "MaxSubmitJobs=-1")
