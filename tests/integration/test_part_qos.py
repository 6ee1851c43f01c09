"""A partition QOS (PartitionName=... QOS=name) against a real slurmdbd.

One cluster for the module: two 2-CPU nodes in partitions "debug" (no
QOS) and "pq" (QOS=pqos, MaxJobsPerUser=1); account "proj" with user
sluice_u1, who may use the QOS normal, jq (MaxJobsPerUser=2) and over
(MaxJobsPerUser=2, Flags=OverPartQOS).  What Slurm's resource_limits page
says, as a user sees it:

- the partition QOS's limits hold every job of the partition, with the
  pending reason of the limit (QOSMaxJobsPerUserLimit); the job keeps its
  own QOS (squeue, scontrol show job, sacct);
- where both QOS set a limit the partition QOS's wins, unless the job's
  QOS has Flags=OverPartQOS;
- scontrol show partition shows QoS=, its --json qos.assigned;
- a QOS= that slurmdbd does not know: scontrol reconfigure keeps the old
  config with Slurm's "Partition pq has an invalid qos (...)"; a QOS
  removed under a running controller is logged the same way and its
  limits stop holding, until it is back;
- without slurmdbd accounting QOS= is logged as having no effect.
"""

import os
import re
import sys
import time
import json

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cluster as cl  # noqa: E402
import mariadb  # noqa: E402

pytestmark = pytest.mark.skipif(bool(mariadb.missing_tools()),
                                reason="MariaDB server not installed: %s"
                                % ", ".join(mariadb.missing_tools()))

U1 = "sluice_u1"
PART_CONF = "PartitionName=pq Nodes=ALL MaxTime=INFINITE QOS=pqos"
RELOAD_RE = re.compile(r"assoc_mgr: \d+ associations.*generation (\d+)")


@pytest.fixture(scope="module")
def env(users):
    e = mariadb.AcctEnv(tag="partqos", nodes=2)
    e.c.extra_conf += ("\nAccountingStorageEnforce=associations,limits,qos"
                       "\n" + PART_CONF + "\n")
    try:
        e.start()
        for args in (("add", "cluster", "sluice"),
                     ("add", "account", "proj", "cluster=sluice"),
                     ("add", "user", U1, "account=proj"),
                     ("add", "qos", "pqos", "MaxJobsPerUser=1"),
                     ("add", "qos", "jq", "MaxJobsPerUser=2"),
                     ("add", "qos", "over", "MaxJobsPerUser=2",
                      "Flags=OverPartQOS"),
                     ("modify", "user", U1, "set", "qos=normal,jq,over")):
            r = e.sacctmgr("-i", *args)
            assert r.rc == 0, r
        e.start_cluster()
    except BaseException:
        e.stop()
        raise
    yield e
    e.finish()


def sbatch(env, *args):
    r = env.c.run(["sbatch", "-o", "/dev/null"] + list(args) +
                  ["--wrap", "sleep 300"], user=U1)
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


def squeue(env, jid, fmt):
    r = env.c.run(["squeue", "-h", "-j", str(jid), "-o", fmt])
    assert r.rc == 0, r
    return r.out


def test_partition_qos_limit_holds_jobs(env):
    a = sbatch(env, "-p", "pq")
    b = sbatch(env, "-p", "pq")
    env.c.wait_state(a, "RUNNING", timeout=30)
    assert reason(env, b, "QOSMaxJobsPerUserLimit") == \
        "QOSMaxJobsPerUserLimit"
    assert env.c.job_state(b) == "PENDING"
    # the job's QOS is its own, not the partition's
    assert squeue(env, b, "%P %q %r") == "pq normal QOSMaxJobsPerUserLimit\n"
    assert env.c.show_job(b)["QOS"] == "normal"
    # the same jobs elsewhere are not held: the limit is the partition's
    c = sbatch(env, "-p", "debug")
    env.c.wait_state(c, "RUNNING", timeout=30)
    # one ends: the held one starts
    env.c.run(["scancel", str(a)])
    env.c.wait_state(b, "RUNNING", timeout=30)
    cancel_all(env)
    deadline = time.time() + 30
    while time.time() < deadline:
        r = env.sacct("-X", "-n", "-P", "-o", "JobIDRaw,Partition,QOS",
                      "-j", str(b))
        if r.out == "%d|pq|normal\n" % b:
            break
        time.sleep(0.3)
    assert r.out == "%d|pq|normal\n" % b, r


def test_partition_qos_wins_over_job_qos(env):
    """jq allows 2 jobs per user, the partition QOS 1: 1 holds."""
    a = sbatch(env, "-p", "pq", "--qos=jq")
    b = sbatch(env, "-p", "pq", "--qos=jq")
    env.c.wait_state(a, "RUNNING", timeout=30)
    assert reason(env, b, "QOSMaxJobsPerUserLimit") == \
        "QOSMaxJobsPerUserLimit"
    assert squeue(env, b, "%q") == "jq\n"
    cancel_all(env)


def test_over_part_qos_lets_job_qos_win(env):
    """over (OverPartQOS) allows 2: both run; a third waits for over's."""
    a = sbatch(env, "-p", "pq", "--qos=over")
    b = sbatch(env, "-p", "pq", "--qos=over")
    env.c.wait_state(a, "RUNNING", timeout=30)
    env.c.wait_state(b, "RUNNING", timeout=30)
    c = sbatch(env, "-p", "pq", "--qos=over")
    assert reason(env, c, "QOSMaxJobsPerUserLimit") == \
        "QOSMaxJobsPerUserLimit"
    # usage counts against both QOS: a normal-QOS job in pq now waits
    # for the partition QOS (2 jobs of the user under it, limit 1)
    d = sbatch(env, "-p", "pq")
    assert reason(env, d, "QOSMaxJobsPerUserLimit") == \
        "QOSMaxJobsPerUserLimit"
    cancel_all(env)
    r = env.sacctmgr("-n", "-P", "show", "qos", "name=over",
                     "format=Name,Flags")
    assert r.out == "over|OverPartQOS\n", r


def test_show_partition_qos(env):
    r = env.c.run(["scontrol", "show", "partition", "pq"])
    assert r.rc == 0 and " QoS=pqos\n" in r.out, r
    r = env.c.run(["scontrol", "show", "partition", "debug"])
    assert r.rc == 0 and " QoS=N/A\n" in r.out, r
    r = env.c.run(["scontrol", "show", "partition", "pq", "--json"])
    assert r.rc == 0, r
    part = json.loads(r.out)["partitions"][0]
    assert part["name"] == "pq" and part["qos"]["assigned"] == "pqos", part


def test_unknown_qos_keeps_old_config(env):
    saved = env.c.extra_conf
    env.c.extra_conf = saved.replace(PART_CONF,
                                     PART_CONF.replace("pqos", "nosuch"))
    try:
        env.c.write_conf()
        r = env.c.run(["scontrol", "reconfigure"])
        assert r.rc != 0, r
        assert env.c.ctld.alive()
        assert ("Reconfigure failed, keeping the old config: Partition pq "
                "has an invalid qos (nosuch), please check your "
                "configuration") in env.c.log_text()
    finally:
        env.c.extra_conf = saved
        env.c.write_conf()
    r = env.c.run(["scontrol", "show", "partition", "pq"])
    assert r.rc == 0 and " QoS=pqos\n" in r.out, r


def up(env):
    env.c.start_ctld()
    deadline = time.time() + 30
    while env.c.run(["squeue"], timeout=10).rc != 0 and \
            time.time() < deadline:
        time.sleep(0.2)


def test_unknown_qos_stops_slurmctld_at_start(env):
    """As Slurm with qos enforced: slurmctld does not start (slurmdbd is
    asked even when the saved associations lack the QOS)."""
    saved = env.c.extra_conf
    env.c.kill_ctld()
    env.c.extra_conf = saved.replace(PART_CONF,
                                     PART_CONF.replace("pqos", "nosuch"))
    try:
        env.c.write_conf()
        r = env.c.run([env.c.bin("slurmctld"), "-D"], timeout=30)
        assert r.rc != 0, r
        want = "fatal: Partition pq has an invalid qos (nosuch), please " \
            "check your configuration"
        assert want in r.err or want in env.c.log_text(), r
        # a QOS added while slurmctld was down is not in its saved copy:
        # it starts all the same
        r = env.sacctmgr("-i", "add", "qos", "newq", "MaxJobsPerUser=1")
        assert r.rc == 0, r
        env.c.extra_conf = saved.replace(PART_CONF,
                                         PART_CONF.replace("pqos", "newq"))
        env.c.write_conf()
        up(env)
        r = env.c.run(["scontrol", "show", "partition", "pq"])
        assert r.rc == 0 and " QoS=newq\n" in r.out, r
        a = sbatch(env, "-p", "pq")
        b = sbatch(env, "-p", "pq")
        env.c.wait_state(a, "RUNNING", timeout=30)
        assert reason(env, b, "QOSMaxJobsPerUserLimit") == \
            "QOSMaxJobsPerUserLimit"
        cancel_all(env)
    finally:
        env.c.extra_conf = saved
        env.c.write_conf()
        if env.c.ctld is None or not env.c.ctld.alive():
            up(env)
        else:
            env.c.run(["scontrol", "reconfigure"])
    r = env.c.run(["scontrol", "show", "partition", "pq"])
    assert r.rc == 0 and " QoS=pqos\n" in r.out, r


def log_has(env, text, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if text in env.c.log_text():
            return True
        time.sleep(0.2)
    return False


def reconfigure_enforce(env, value):
    env.c.extra_conf = re.sub(r"AccountingStorageEnforce=\S+",
                              "AccountingStorageEnforce=" + value,
                              env.c.extra_conf)
    env.c.write_conf()
    r = env.c.run(["scontrol", "reconfigure"])
    assert r.rc == 0, r


def test_qos_limits_need_limits_not_qos(env):
    """As Slurm: AccountingStorageEnforce=qos asks for a valid QOS only;
    the QOS limits (the partition's as the job's) come with limits."""
    try:
        reconfigure_enforce(env, "associations,qos")
        a = sbatch(env, "-p", "pq")
        b = sbatch(env, "-p", "pq")
        env.c.wait_state(a, "RUNNING", timeout=30)
        env.c.wait_state(b, "RUNNING", timeout=30)
        cancel_all(env)
        reconfigure_enforce(env, "associations,limits")
        a = sbatch(env, "-p", "pq")
        b = sbatch(env, "-p", "pq")
        env.c.wait_state(a, "RUNNING", timeout=30)
        assert reason(env, b, "QOSMaxJobsPerUserLimit") == \
            "QOSMaxJobsPerUserLimit"
        cancel_all(env)
    finally:
        reconfigure_enforce(env, "associations,limits,qos")


def test_removed_qos_is_logged_and_not_held(env):
    r = env.sacctmgr("-i", "delete", "qos", "pqos")
    assert r.rc == 0, r
    assert log_has(env, "Partition pq has an invalid qos (pqos), please "
                   "check your configuration; its limits are not in "
                   "force"), env.c.log_tails()
    a = sbatch(env, "-p", "pq")
    b = sbatch(env, "-p", "pq")
    env.c.wait_state(a, "RUNNING", timeout=30)
    env.c.wait_state(b, "RUNNING", timeout=30)
    cancel_all(env)
    r = env.sacctmgr("-i", "add", "qos", "pqos", "MaxJobsPerUser=1")
    assert r.rc == 0, r
    assert log_has(env, "Partition pq: qos pqos found, its limits are in "
                   "force"), env.c.log_tails()
    a = sbatch(env, "-p", "pq")
    b = sbatch(env, "-p", "pq")
    env.c.wait_state(a, "RUNNING", timeout=30)
    assert reason(env, b, "QOSMaxJobsPerUserLimit") == \
        "QOSMaxJobsPerUserLimit"
    cancel_all(env)


def test_without_slurmdbd_no_effect_logged(users):
    import conftest
    c = cl.Cluster(tag="pqnodbd", nodes=1, extra_conf=PART_CONF)
    conftest._ACTIVE.append(c)
    try:
        c.start()
        assert "PartitionName=pq QOS=pqos has no effect without " \
            "AccountingStorageType=accounting_storage/slurmdbd" in \
            c.log_text()
        r = c.run(["scontrol", "show", "partition", "pq"])
        assert r.rc == 0 and " QoS=pqos\n" in r.out, r
    finally:
        conftest._stop(c)
