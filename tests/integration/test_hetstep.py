"""Hetjob requeue and suspended time in accounting (issue 28).

- `scontrol requeue` of a het job's leader requeues every component (each
  pending again, Restarts=1); of another component alone it is refused
  with Slurm's message and nothing changes.
- A node failure under a component other than the leader requeues the
  whole het job when the leader has --requeue.
- `salloc A : B cmd`: one het allocation; the command sees
  SLURM_HET_SIZE and each component's *_HET_GROUP_<n> variables, its
  `srun --het-group=1` runs in component 1; a bad component allocates
  nothing, with what a plain salloc of it prints.
- `scontrol suspend`/`resume` show in `sacct -o Suspended` (and in
  --json time.suspended); Elapsed leaves the suspended time out.

One cluster: 2 nodes of 2 CPUs, with slurmdbd on MariaDB where those are
installed (the accounting test is skipped otherwise).
"""

import json
import os
import sys
import time

import pytest

import cluster as cl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import het_cluster  # noqa: E402
import mariadb  # noqa: E402

U1 = "sluice_u1"


@pytest.fixture(scope="module")
def hc(users):
    yield from het_cluster.run("hetstep")


def shown(c, shown_id):
    r = c.run(["squeue", "-h", "-t", "all", "-o", "%i %T %r"])
    assert r.rc == 0, r
    for line in r.out.splitlines():
        w = line.split()
        if w and w[0] == shown_id:
            return w[1]
    return None


def wait_states(c, ids, states, timeout=30):
    deadline = time.time() + timeout
    got = None
    while time.time() < deadline:
        got = [shown(c, i) for i in ids]
        if all(g in states for g in got):
            return got
        time.sleep(0.2)
    raise AssertionError("%s: %r, wanted %s\n%s" % (ids, got, states,
                                                   c.log_tails()))


def sleeper(c):
    d = c.workdir(U1)
    c.write_file(U1, os.path.join(d, "sl.sh"), "#!/bin/sh\nsleep 300\n",
                 0o755)


def running_het(c, *opts):
    sleeper(c)
    # a whole node each: the components are on different nodes
    lead = c.sbatch(list(opts) + ["-N1", "-n2", "-o", "/dev/null", ":",
                                  "-N1", "-n2", "sl.sh"], user=U1)
    ids = ["%d+0" % lead, "%d+1" % lead]
    wait_states(c, ids, {"RUNNING"})
    return lead, ids


def test_requeue_leader_takes_every_component(hc):
    lead, ids = running_het(hc, "--requeue")
    nodes = [hc.show_job(lead)["NodeList"],
             hc.show_job(lead + 1)["NodeList"]]
    # a component alone: refused, nothing changes
    for comp in ("%d" % (lead + 1), "%d+1" % lead):
        r = hc.run(["scontrol", "requeue", comp])
        assert r.rc == 1, r
        assert "Job not heterogeneous job leader" in r.err, r
    assert [shown(hc, i) for i in ids] == ["RUNNING", "RUNNING"]
    assert hc.show_job(lead + 1)["Restarts"] == "0"
    # the leader: every component pending again
    r = hc.run(["scontrol", "requeue", str(lead)])
    assert r.rc == 0, r
    wait_states(hc, ids, {"PENDING"})
    for jid in (lead, lead + 1):
        assert hc.show_job(jid)["Restarts"] == "1", hc.show_job(jid)
    assert nodes[0] != nodes[1], nodes
    r = hc.run(["scancel", str(lead)], user=U1)
    assert r.rc == 0, r
    wait_states(hc, ids, {"CANCELLED"})


def test_requeuehold_holds_every_component(hc):
    lead, ids = running_het(hc, "--requeue")
    r = hc.run(["scontrol", "requeuehold", str(lead)])
    assert r.rc == 0, r
    wait_states(hc, ids, {"PENDING"})
    for jid in (lead, lead + 1):
        j = hc.show_job(jid)
        assert j["Priority"] == "0", j
        assert j["Reason"] in ("JobHeldAdmin", "job_requeued_in_held_state"), j
    hc.run(["scancel", str(lead)], user=U1)
    wait_states(hc, ids, {"CANCELLED"})


def test_node_failure_of_a_component_requeues_the_het_job(hc):
    lead, ids = running_het(hc, "--requeue")
    node = hc.show_job(lead + 1)["NodeList"]
    assert node != hc.show_job(lead)["NodeList"]
    r = hc.run(["scontrol", "update", "nodename=" + node, "state=down",
                "reason=hetstep test"])
    assert r.rc == 0, r
    try:
        wait_states(hc, ids, {"PENDING"})
        for jid in (lead, lead + 1):
            assert hc.show_job(jid)["Restarts"] == "1", hc.show_job(jid)
        log = open(hc.ctld_log).read()
        assert ("requeue JobId=%d (HetJobId=%d) due to failure of node %s"
                % (lead + 1, lead, node)) in log
    finally:
        hc.run(["scancel", str(lead)], user=U1)
        hc.run(["scontrol", "update", "nodename=" + node, "state=resume"])
    wait_states(hc, ids, {"CANCELLED"})


def test_node_failure_without_requeue_ends_the_het_job(hc):
    lead, ids = running_het(hc, "--no-requeue")
    node = hc.show_job(lead + 1)["NodeList"]
    r = hc.run(["scontrol", "update", "nodename=" + node, "state=down",
                "reason=hetstep test"])
    assert r.rc == 0, r
    try:
        assert wait_states(hc, ids, {"NODE_FAIL"}) == ["NODE_FAIL"] * 2
    finally:
        hc.run(["scontrol", "update", "nodename=" + node, "state=resume"])


SALLOC_CMD = """echo SIZE=$SLURM_HET_SIZE
echo IDS=$SLURM_JOB_ID_HET_GROUP_0,$SLURM_JOB_ID_HET_GROUP_1
echo NN1=$SLURM_JOB_NUM_NODES_HET_GROUP_1 NL1=$SLURM_JOB_NODELIST_HET_GROUP_1
echo JOB=$SLURM_JOB_ID
{srun} --het-group=1 -n1 sh -c 'echo STEP=$SLURM_JOB_ID'
{srun} --het-group=2 true 2>&1; echo BADGROUP=$?
{squeue} -h -j $SLURM_JOB_ID -o '%i %T'
"""


def test_salloc_components(hc):
    cmd = SALLOC_CMD.format(srun=hc.bin("srun"), squeue=hc.bin("squeue"))
    r = hc.run(["salloc", "-N1", "-n2", ":", "-N1", "-n1", "sh", "-c", cmd],
               user=U1, cwd=hc.workdir(U1))
    assert r.rc == 0, r
    lead = int(r.out.split("JOB=")[1].split()[0])
    assert "SIZE=2" in r.out, r
    assert "IDS=%d,%d" % (lead, lead + 1) in r.out, r
    assert "NN1=1 NL1=n" in r.out, r
    assert "STEP=%d" % (lead + 1) in r.out, r
    assert "BADGROUP=1" in r.out, r
    assert ("srun: error: Attempt to run a job step with het group value "
            "of 2, but the job allocation has maximum value of 1") in r.out
    assert "%d+0 RUNNING\n%d+1 RUNNING" % (lead, lead) in r.out, r
    assert "Granted job allocation %d" % lead in r.err, r
    # released: the leader's end ends every component
    wait_states(hc, ["%d+0" % lead, "%d+1" % lead], {"COMPLETED"})


def test_salloc_bad_component_allocates_nothing(hc):
    before = hc.run(["squeue", "-h", "-t", "all", "-o", "%A"]).out.split()
    plain = hc.run(["salloc", "-p", "nosuch", "true"], user=U1)
    assert plain.rc == 1, plain
    r = hc.run(["salloc", "-n1", ":", "-p", "nosuch", "true"], user=U1)
    assert r.rc == 1, r
    assert r.err == plain.err and r.out == "", (r, plain)
    assert "nosuch" in r.err or "Invalid partition" in r.err, r
    after = hc.run(["squeue", "-h", "-t", "all", "-o", "%A"]).out.split()
    assert before == after


def sacct_row(c, jid, fmt):
    r = c.acct.sacct("-X", "-P", "-n", "-o", fmt, "-j", str(jid), user=U1)
    assert r.rc == 0, r
    return r.out.strip().split("|")


def test_suspended_time_in_sacct(hc):
    if not hc.acct:
        pytest.skip("no MariaDB here: " + ", ".join(mariadb.missing_tools()))
    sleeper(hc)
    jid = hc.sbatch(["-n1", "-o", "/dev/null", "sl.sh"], user=U1)
    cl.wait_for(lambda: hc.show_job(jid)["JobState"] == "RUNNING", 30,
                "running")
    cl.wait_for(lambda: sacct_row(hc, jid, "State") == ["RUNNING"], 30,
                "sacct sees it running")
    assert sacct_row(hc, jid, "Suspended") == ["00:00:00"]
    assert hc.run(["scontrol", "suspend", str(jid)]).rc == 0
    t0 = time.time()
    cl.wait_for(lambda: sacct_row(hc, jid, "State") == ["SUSPENDED"], 30,
                "sacct sees it suspended")
    # while suspended the time grows without a new record
    cl.wait_for(lambda: sacct_row(hc, jid, "Suspended") >= ["00:00:03"], 30,
                "suspended time grows")
    assert hc.run(["scontrol", "resume", str(jid)]).rc == 0
    held = time.time() - t0
    cl.wait_for(lambda: sacct_row(hc, jid, "State") == ["RUNNING"], 30,
                "sacct sees it resumed")
    assert hc.run(["scancel", str(jid)], user=U1).rc == 0
    hc.wait_done(jid)
    cl.wait_for(lambda: sacct_row(hc, jid, "State")[0].startswith(
        "CANCELLED"), 30, "sacct sees it cancelled")
    row = sacct_row(hc, jid, "Suspended,ElapsedRaw,Start,End")
    h, m, s = (int(x) for x in row[0].split(":"))
    sus = h * 3600 + m * 60 + s
    assert 3 <= sus <= held + 1, (row, held)
    start = time.mktime(time.strptime(row[2], "%Y-%m-%dT%H:%M:%S"))
    end = time.mktime(time.strptime(row[3], "%Y-%m-%dT%H:%M:%S"))
    # Elapsed is the time it ran: end - start - suspended
    assert int(row[1]) == int(end - start) - sus, row
    r = hc.acct.sacct("-X", "-j", str(jid), "--json", user=U1)
    assert r.rc == 0, r
    job = json.loads(r.out)["jobs"][0]
    assert job["time"]["suspended"] == sus, job["time"]
    assert job["time"]["elapsed"] == int(row[1]), job["time"]
