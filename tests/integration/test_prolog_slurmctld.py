"""PrologSlurmctld / EpilogSlurmctld: the controller's own job scripts.

- The prolog runs before the job is launched (the job is CONFIGURING
  meanwhile) with the job in its environment; the job's script starts only
  after it exits 0.
- A failing prolog requeues a batch job held ("launch failed requeued
  held"); a --no-requeue job ends FAILED.
- The epilog runs after the job ended, with its exit code, once: a
  controller restart does not run it again for the jobs it remembers.
"""

import os
import time

import pytest

PROLOG = """#!/bin/sh
env > {dir}/prolog.$SLURM_JOB_ID
case "$SLURM_JOB_NAME" in
slowprolog) sleep 3 ;;
failprolog) exit 1 ;;
esac
exit 0
"""
EPILOG = """#!/bin/sh
echo "$SLURM_JOB_ID" >> {dir}/epilog.runs
env > {dir}/epilog.$SLURM_JOB_ID.tmp && mv {dir}/epilog.$SLURM_JOB_ID.tmp {dir}/epilog.$SLURM_JOB_ID
"""


@pytest.fixture(scope="module")
def pc(users):
    import cluster as cl
    import conftest
    c = cl.Cluster(tag="ctldprolog")
    out = os.path.join(c.dir, "log", "scripts")
    os.makedirs(out)
    for name, text in (("prolog", PROLOG), ("epilog", EPILOG)):
        path = os.path.join(c.dir, "etc", "%s_slurmctld.sh" % name)
        with open(path, "w") as f:
            f.write(text.format(dir=out))
        os.chmod(path, 0o755)
    c.extra_conf = ("PrologSlurmctld=%s/etc/prolog_slurmctld.sh\n"
                    "EpilogSlurmctld=%s/etc/epilog_slurmctld.sh" % (c.dir, c.dir))
    conftest._ACTIVE.append(c)
    try:
        c.start()
    except BaseException:
        conftest._stop(c, keep=True)
        raise
    c.scripts = out
    yield c
    conftest._stop(c)


def env_file(path, timeout=30):
    end = time.time() + timeout
    while time.time() < end:
        if os.path.exists(path):
            return dict(l.split("=", 1) for l in open(path).read().splitlines()
                        if "=" in l)
        time.sleep(0.2)
    raise AssertionError("%s never appeared" % path)


def test_prolog_before_launch_and_epilog_after(pc):
    c = pc
    marker = os.path.join(c.workdir("sluice_u1"), "started")
    jid = c.sbatch(["-J", "slowprolog", "--wrap",
                    "date +%%s.%%N > %s; exit 4" % marker], user="sluice_u1")
    c.wait_state(jid, "CONFIGURING", 20)
    assert not os.path.exists(marker), "job launched while its prolog ran"
    assert c.wait_done(jid, 60) == "FAILED"
    pro = env_file(os.path.join(c.scripts, "prolog.%s" % jid))
    assert pro["SLURM_SCRIPT_CONTEXT"] == "prolog_slurmctld"
    assert pro["SLURM_JOB_USER"] == "sluice_u1"
    assert pro["SLURM_JOB_NAME"] == "slowprolog"
    assert pro["SLURM_JOB_NODELIST"].startswith("n")
    epi = env_file(os.path.join(c.scripts, "epilog.%s" % jid))
    assert epi["SLURM_SCRIPT_CONTEXT"] == "epilog_slurmctld"
    assert epi["SLURM_JOB_EXIT_CODE2"] == "4:0"
    assert epi["SLURM_JOB_STATE"] == "FAILED"
    prolog_mtime = os.stat(os.path.join(c.scripts, "prolog.%s" % jid)).st_mtime
    assert float(open(marker).read()) >= prolog_mtime + 2.5


def test_failed_prolog_requeues_held(pc):
    c = pc
    jid = c.sbatch(["-J", "failprolog", "--wrap", "true"], user="sluice_u1")
    end = time.time() + 30
    while time.time() < end:
        job = c.show_job(jid)
        if job["JobState"] == "PENDING" and job.get("Restarts") == "1":
            break
        time.sleep(0.3)
    text = c.run(["scontrol", "show", "job", str(jid)]).out
    assert "JobState=PENDING" in text and "Restarts=1" in text, text
    assert "Reason=launch_failed_requeued_held " in text, text
    time.sleep(2)
    assert c.show_job(jid)["JobState"] == "PENDING"   # held: not retried
    nj = c.sbatch(["-J", "failprolog", "--no-requeue", "--wrap", "true"],
                  user="sluice_u1")
    assert c.wait_done(nj, 30) == "FAILED"
    c.run(["scancel", str(jid)])


def test_node_prolog_failure_drains_and_requeues(new_cluster):
    """A node's Prolog exiting non-zero (as Slurm 22.05 does): the node is
    drained with reason "Prolog error", a requeueable batch job goes back
    to pending held (launch failed requeued held, Restarts=1), one that
    may not be requeued is cancelled."""
    c = new_cluster(nodes=2)
    prolog = os.path.join(c.dir, "etc", "node_prolog.sh")
    with open(prolog, "w") as f:
        f.write("#!/bin/sh\n[ \"$SLURMD_NODENAME\" = n1 ] && exit 1\nexit 0\n")
    os.chmod(prolog, 0o755)
    c.extra_conf = "Prolog=%s" % prolog
    c.write_conf()
    for n in list(c.slurmds):
        c.kill_slurmd(n, sig=15)
    c.kill_ctld()
    c.start_ctld()
    for n in c.node_names:
        c.start_slurmd(n)
    c.wait_ready()
    jid = c.sbatch(["-w", "n1", "--wrap", "true"], user="sluice_u1")
    end = time.time() + 30
    while time.time() < end and c.show_job(jid).get("Restarts") != "1":
        time.sleep(0.3)
    text = c.run(["scontrol", "show", "job", str(jid)]).out
    assert "JobState=PENDING Reason=launch_failed_requeued_held " in text, text
    assert "Restarts=1 " in text, text
    r = c.run(["sinfo", "-R", "-h", "-o", "%E|%N"])
    assert r.out.strip() == "Prolog error|n1", r
    node = c.run(["scontrol", "show", "node", "n1"]).out
    assert "State=IDLE+DRAIN" in node or "State=DRAINED" in node or \
        "DRAIN" in node, node
    # The other node runs jobs; a --no-requeue job on n1 would be cancelled.
    ok = c.sbatch(["--wrap", "true"], user="sluice_u1")
    assert c.wait_done(ok, 30) == "COMPLETED"
    assert c.show_job(ok)["NodeList"] == "n2"
    c.run(["scontrol", "update", "NodeName=n1", "State=RESUME"])
    nr = c.sbatch(["-w", "n1", "--no-requeue", "--wrap", "true"], user="sluice_u1")
    assert c.wait_done(nr, 30) == "CANCELLED"
    c.run(["scancel", str(jid)])


def test_epilog_not_rerun_after_restart(pc):
    c = pc
    jid = c.sbatch(["--wrap", "true"], user="sluice_u1")
    assert c.wait_done(jid, 60) == "COMPLETED"
    env_file(os.path.join(c.scripts, "epilog.%s" % jid))
    runs = os.path.join(c.scripts, "epilog.runs")
    c.kill_ctld()
    c.start_ctld()
    c.wait_ready(timeout=30)
    # the restarted controller still knows the job, and ran nothing for it
    assert c.show_job(jid)["JobState"] == "COMPLETED"
    nj = c.sbatch(["--wrap", "true"], user="sluice_u1")
    assert c.wait_done(nj, 60) == "COMPLETED"
    env_file(os.path.join(c.scripts, "epilog.%s" % nj))
    time.sleep(1)
    ids = open(runs).read().split()
    assert ids.count(str(jid)) == 1 and ids.count(str(nj)) == 1, ids
