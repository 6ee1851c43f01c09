"""Heterogeneous jobs (issue 28): sbatch with ':' components and
'#SBATCH hetjob' sections, one leader id with +N components in squeue and
scontrol, the _HET_GROUP_n variables in the batch script, all components
starting together, scancel of the leader or of one component, srun
--het-group, and the refusals (a bad component, a group past the end).

One cluster: 2 nodes of 2 CPUs, with slurmdbd on MariaDB where those
are installed (sacct's rows of each component).
"""

import os
import sys
import time

import pytest

import cluster as cl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import het_cluster  # noqa: E402
import mariadb  # noqa: E402

U1 = "sluice_u1"

SCRIPT = """#!/bin/sh
echo "SIZE=$SLURM_HET_SIZE"
echo "ID0=$SLURM_JOB_ID_HET_GROUP_0 ID1=$SLURM_JOB_ID_HET_GROUP_1"
echo "NN0=$SLURM_JOB_NUM_NODES_HET_GROUP_0 NN1=$SLURM_JOB_NUM_NODES_HET_GROUP_1"
echo "CPN1=$SLURM_JOB_CPUS_PER_NODE_HET_GROUP_1"
echo "NL1=$SLURM_JOB_NODELIST_HET_GROUP_1"
echo "JOBID=$SLURM_JOB_ID"
{srun} --het-group=1 -n1 sh -c 'echo "STEP1=$SLURM_JOB_ID"'
{srun} --het-group=2 true 2>&1; echo "BADGROUP=$?"
{srun} --het-group=0,1 true 2>&1; echo "MULTI=$?"
"""


@pytest.fixture(scope="module")
def hc(users):
    yield from het_cluster.run("het")


def squeue_lines(c, fmt="%i %T %r"):
    r = c.run(["squeue", "-h", "-t", "all", "-o", fmt])
    assert r.rc == 0, r
    return r.out.split("\n")


def state_of(c, shown_id):
    for line in squeue_lines(c):
        w = line.split()
        if w and w[0] == shown_id:
            return w[1], (w[2] if len(w) > 2 else "")
    return None, None


def wait_shown(c, shown_id, states, timeout=30):
    deadline = time.time() + timeout
    got = None
    while time.time() < deadline:
        got = state_of(c, shown_id)
        if got[0] in states:
            return got
        time.sleep(0.2)
    raise AssertionError("%s: %r, wanted %s\n%s" % (shown_id, got, states,
                                                   c.log_tails()))


def cancel_all(c):
    c.run(["scancel", "-u", U1])
    c.run(["scancel", "-u", "root"])
    cl.wait_for(lambda: not c.run(["squeue", "-h"]).out.strip(), 30,
                "queue empty")


def test_cmdline_components_run_together(hc):
    d = hc.workdir(U1)
    hc.write_file(U1, os.path.join(d, "het.sh"),
                  SCRIPT.format(srun=hc.bin("srun")), 0o755)
    lead = hc.sbatch(["-N1", "-n1", "-o", "het-%j.out", ":", "-N1", "-n2",
                      "het.sh"], user=U1)
    # one id per component; squeue shows the leader's id + offset
    wait_shown(hc, "%d+0" % lead, {"COMPLETED"}, 60)
    assert state_of(hc, "%d+1" % lead)[0] == "COMPLETED"
    # the leader's id names every component (scontrol and squeue -j)
    r = hc.run(["scontrol", "show", "job", str(lead)])
    assert r.rc == 0, r
    recs = [cl.parse_kv(t) for t in r.out.split("\n\n") if t.strip()]
    assert [x["JobId"] for x in recs] == [str(lead), str(lead + 1)], r.out
    assert r.out.splitlines()[0].startswith(
        "JobId=%d HetJobId=%d HetJobOffset=0 JobName=" % (lead, lead)), r.out
    assert r.out.splitlines()[1] == "   HetJobIdSet=%d-%d" % (lead, lead + 1)
    r = hc.run(["squeue", "-h", "-t", "all", "-j", str(lead), "-o", "%i"])
    assert r.out.split() == ["%d+0" % lead, "%d+1" % lead], r
    j0, j1 = recs[0], hc.show_job(lead + 1)
    assert j0["JobId"] == str(lead) and j0["HetJobId"] == str(lead)
    assert j0["HetJobOffset"] == "0"
    assert j0["HetJobIdSet"] == "%d-%d" % (lead, lead + 1)
    assert j1["JobId"] == str(lead + 1) and j1["HetJobId"] == str(lead)
    assert j1["HetJobOffset"] == "1"
    assert j1["NumCPUs"] == "2" and j0["NumCPUs"] == "1"
    # the two started together
    assert j0["StartTime"] == j1["StartTime"]
    out = open(os.path.join(d, "het-%d.out" % lead)).read()
    assert "SIZE=2" in out, out
    assert "ID0=%d ID1=%d" % (lead, lead + 1) in out, out
    assert "NN0=1 NN1=1" in out, out
    assert "CPN1=2" in out, out
    assert "NL1=%s" % j1["NodeList"] in out, out
    assert "JOBID=%d" % lead in out, out
    # srun --het-group=1 runs in component 1's allocation
    assert "STEP1=%d" % (lead + 1) in out, out
    hc.last_het = lead
    # a group past the last: refused; a step over several components
    # runs (test_hetstep_mpi.py)
    assert "BADGROUP=1" in out and "MULTI=0" in out, out
    assert ("srun: error: Attempt to run a job step with het group value "
            "of 2, but the job allocation has maximum value of 1") in out


def test_script_hetjob_sections(hc):
    d = hc.workdir(U1)
    hc.write_file(U1, os.path.join(d, "sec.sh"),
                  "#!/bin/sh\n#SBATCH -n1 -J sections\n#SBATCH hetjob\n"
                  "#SBATCH -n2 -N1\necho $SLURM_HET_SIZE\n", 0o755)
    lead = hc.sbatch(["-o", "/dev/null", "sec.sh"], user=U1)
    hc.wait_done(lead)
    j1 = hc.show_job(lead + 1)
    assert j1["HetJobId"] == str(lead) and j1["NumCPUs"] == "2"
    # -J propagates to the next component, -n does not
    assert j1["JobName"] == "sections"
    assert hc.show_job(lead)["NumCPUs"] == "1"


def test_component_that_cannot_start_holds_all(hc):
    d = hc.workdir(U1)
    hc.write_file(U1, os.path.join(d, "w.sh"), "#!/bin/sh\nsleep 300\n",
                  0o755)
    block = hc.sbatch(["-w", "n1", "-n2", "-o", "/dev/null", "w.sh"],
                      user=U1)
    hc.wait_state(block, "RUNNING")
    # component 0 would fit on n2 by itself; component 1 needs a whole
    # node besides it: neither starts
    lead = hc.sbatch(["-n1", "-o", "/dev/null", ":", "-N1", "-n2", "w.sh"],
                     user=U1)
    st0 = wait_shown(hc, "%d+0" % lead, {"PENDING"})
    time.sleep(2)       # a few scheduler and backfill passes
    assert state_of(hc, "%d+0" % lead)[0] == "PENDING"
    assert state_of(hc, "%d+1" % lead)[0] == "PENDING"
    assert st0[1] in ("Resources", "Priority"), st0
    # a pending component alone cannot be cancelled
    r = hc.run(["scancel", "%d+1" % lead], user=U1)
    # ESLURM_NOT_WHOLE_HET_JOB's low byte, as scancel exits on errors
    assert r.rc == 60, r
    assert "Operation not permitted on individual component of " \
        "heterogeneous job" in r.err, r
    assert state_of(hc, "%d+1" % lead)[0] == "PENDING"
    # the blocker ends: both start
    hc.run(["scancel", str(block)], user=U1)
    wait_shown(hc, "%d+0" % lead, {"RUNNING"})
    assert state_of(hc, "%d+1" % lead)[0] == "RUNNING"
    # a running component other than the leader may be cancelled alone
    r = hc.run(["scancel", "%d+1" % lead], user=U1)
    assert r.rc == 0, r
    wait_shown(hc, "%d+1" % lead, {"CANCELLED"})
    assert state_of(hc, "%d+0" % lead)[0] == "RUNNING"
    # the leader's own id cancels the whole job
    assert hc.run(["scancel", str(lead)], user=U1).rc == 0
    wait_shown(hc, "%d+0" % lead, {"CANCELLED"})
    cancel_all(hc)


def test_leader_cancel_takes_pending_components(hc):
    d = hc.workdir(U1)
    lead = hc.sbatch(["--hold", "-n1", "-o", "/dev/null", ":", "-n1",
                      "w.sh"], user=U1)
    assert state_of(hc, "%d+1" % lead)[0] == "PENDING"
    assert hc.run(["scancel", str(lead)], user=U1).rc == 0
    wait_shown(hc, "%d+1" % lead, {"CANCELLED"})
    assert state_of(hc, "%d+0" % lead)[0] == "CANCELLED"


def test_bad_component_submits_nothing(hc):
    before = len([l for l in squeue_lines(hc, "%A") if l.strip()])
    r = hc.run(["sbatch", "-n1", "-o", "/dev/null", ":", "-p", "nosuch",
                "w.sh"], user=U1)
    assert r.rc == 1, r
    # what a plain sbatch -p nosuch prints (Slurm's two lines)
    assert r.err == ("sbatch: error: invalid partition specified: nosuch\n"
                     "sbatch: error: Batch job submission failed: "
                     "Invalid partition name specified\n"), r
    assert r.out == ""
    after = len([l for l in squeue_lines(hc, "%A") if l.strip()])
    assert before == after
    # the next submit gets the next id: none was used by the refusal
    ok = hc.sbatch(["--hold", "-o", "/dev/null", "w.sh"], user=U1)
    hc.run(["scancel", str(ok)], user=U1)
    r = hc.run(["srun", "--het-group=1", "true"], user=U1)
    assert r.rc == 1 and "not inside a heterogeneous job" in r.err, r


def test_sacct_rows_per_component(hc):
    if not hc.acct:
        pytest.skip("no MariaDB here: " + ", ".join(mariadb.missing_tools()))
    lead = getattr(hc, "last_het", None)
    if lead is None:           # run alone
        lead = hc.sbatch(["-n1", "-o", "/dev/null", ":", "-n1", "--wrap",
                          "true"], user=U1)
        hc.wait_done(lead)
    deadline = time.time() + 30
    rows = []
    while time.time() < deadline:
        r = hc.acct.sacct("-X", "-P", "-n", "-o", "JobID,JobIDRaw,State",
                          "-j", str(lead), user=U1)
        assert r.rc == 0, r
        rows = [ln.split("|") for ln in r.out.splitlines()]
        if len(rows) == 2 and all(x[2] == "COMPLETED" for x in rows):
            break
        time.sleep(0.5)
    assert rows == [["%d+0" % lead, str(lead), "COMPLETED"],
                    ["%d+1" % lead, str(lead + 1), "COMPLETED"]], rows
