"""Partitions: limits (pending reasons, or refusals with EnforcePartLimits),
access (AllowGroups, AllowAccounts, DenyAccounts), State, Hidden,
OverSubscribe=EXCLUSIVE, DefaultTime, node Weight and -p a,b.

Four nodes of 2 CPUs; n1 weighs more than the others.
"""

import time

import pytest

PARTS = "\n".join([
    "PartitionName=short Nodes=n[1-2] MaxTime=5 MaxNodes=1",
    "PartitionName=long Nodes=n[3-4] DefaultTime=10",
    "PartitionName=hid Nodes=n4 Hidden=YES",
    "PartitionName=closed Nodes=n1 AllowGroups=root",
    "PartitionName=acct Nodes=n1 AllowAccounts=proj",
    "PartitionName=deny Nodes=n1 DenyAccounts=bad",
    "PartitionName=off Nodes=n2 State=DOWN",
    "PartitionName=drained Nodes=n3 State=DRAIN",
    "PartitionName=excl Nodes=n3 OverSubscribe=EXCLUSIVE",
])
U = "sluice_u1"
FAILED = "sbatch: error: Batch job submission failed: %s\n"


@pytest.fixture(scope="module")
def pc(request, users):
    import conftest
    c = conftest._start(tag="parts", extra_conf=PARTS,
                        node_extra={"n1": "Weight=10"})
    yield c
    conftest._stop(c)


def refused(c, args, msg, user=U):
    before = c.all_job_states()
    r = c.run(["sbatch"] + args + ["--wrap", "true"], user=user)
    assert (r.rc, r.err) == (1, FAILED % msg), r
    assert c.all_job_states() == before


def reason(c, jid, timeout=10):
    deadline = time.time() + timeout
    rec = {}
    while time.time() < deadline:
        rec = c.show_job(jid)
        if rec.get("Reason") not in (None, "None"):
            break
        time.sleep(0.2)
    return rec.get("Reason")


def cancel_all(c, ids):
    for j in ids:
        c.run(["scancel", str(j)])
    for j in ids:
        c.wait_done(j, 30)


def test_limits_make_jobs_wait(pc):
    c = pc
    t = c.sbatch(["-p", "short", "-t", "10", "--wrap", "true"], user=U)
    n = c.sbatch(["-p", "short", "-N", "2", "--wrap", "true"], user=U)
    d = c.sbatch(["-p", "off", "--wrap", "true"], user=U)
    big = c.sbatch(["-N", "9", "--wrap", "true"], user=U)
    assert reason(c, t) == "PartitionTimeLimit"
    assert reason(c, n) == "PartitionNodeLimit"
    assert reason(c, d) == "PartitionDown"
    assert reason(c, big) == "PartitionConfig"
    r = c.run(["squeue", "-h", "-j", str(d), "-o", "%T %r"])
    assert r.out == "PENDING PartitionDown\n"
    cancel_all(c, [t, n, d, big])


# Every way of asking for no limit (issue 34, defect 3): Slurm leaves
# them pending in a partition with a MaxTime, as any limit over it.
UNLIMITED_FORMS = (["-t", "UNLIMITED"], ["-t", "0"], ["-t", "INFINITE"],
                   ["--time=unlimited"], ["-t", "-1"],
                   ["-t", "UNLIMITED", "--time-min=2"])


def test_unlimited_time_waits_for_partition_max_time(pc):
    c = pc
    jobs = [c.sbatch(["-p", "short"] + a + ["--wrap", "/usr/bin/sleep 60"],
                     user=U) for a in UNLIMITED_FORMS]
    for j in jobs:
        assert reason(c, j) == "PartitionTimeLimit", (j, c.show_job(j))
    time.sleep(3)            # several scheduler and backfill passes
    for j, a in zip(jobs, UNLIMITED_FORMS):
        rec = c.show_job(j)
        assert (rec["JobState"], rec["Reason"], rec["TimeLimit"]) == \
            ("PENDING", "PartitionTimeLimit", "UNLIMITED"), (a, rec)
    r = c.run(["squeue", "-h", "-j", ",".join(map(str, jobs)), "-o", "%T %r"],
              user=U)
    assert r.out == "PENDING PartitionTimeLimit\n" * len(jobs), r
    cancel_all(c, jobs)


def test_time_min_over_partition_max_time_refused(pc):
    c = pc
    for a in (["--time-min=10"], ["--time-min=0"],
              ["-t", "3", "--time-min=UNLIMITED"]):
        refused(c, ["-p", "short"] + a, "Invalid time-min specification "
                "(exceeds job's time or other limits)")
    # within the limit it runs with MaxTime as its limit
    j = c.sbatch(["-p", "short", "--time-min=2", "--wrap", "true"], user=U)
    assert c.wait_done(j, 30) == "COMPLETED"
    rec = c.show_job(j)
    assert (rec["TimeLimit"], rec["TimeMin"]) == ("00:05:00", "00:02:00"), rec


def test_update_time_limit_checked_against_partition(pc):
    c = pc
    j = c.sbatch(["-p", "short", "-t", "3", "--hold", "--wrap",
                  "/usr/bin/sleep 60"], user=U)
    for t in ("UNLIMITED", "INFINITE", "6"):
        r = c.run(["scontrol", "update", "JobId=%d" % j, "TimeLimit=" + t],
                  user=U)
        assert (r.rc, r.err) == (1, "Access/permission denied for job %d\n"
                                 % j), (t, r)
        assert c.show_job(j)["TimeLimit"] == "00:03:00"
    # an operator may set it; the job then waits for the partition
    r = c.run(["scontrol", "update", "JobId=%d" % j, "TimeLimit=UNLIMITED"])
    assert r.rc == 0, r
    r = c.run(["scontrol", "release", str(j)], user=U)
    assert r.rc == 0, r
    assert reason(c, j) == "PartitionTimeLimit"
    time.sleep(3)
    rec = c.show_job(j)
    assert (rec["JobState"], rec["Reason"]) == \
        ("PENDING", "PartitionTimeLimit"), rec
    # lowered again by its owner, it runs
    r = c.run(["scontrol", "update", "JobId=%d" % j, "TimeLimit=4"], user=U)
    assert r.rc == 0, r
    c.wait_state(j, "RUNNING", 30)
    assert c.show_job(j)["TimeLimit"] == "00:04:00"
    cancel_all(c, [j])


def test_refusals(pc):
    c = pc
    refused(c, ["-p", "drained"],
            "Required partition not available (inactive or drain)")
    refused(c, ["-p", "closed"],
            "User's group not permitted to use this partition")
    refused(c, ["-p", "acct", "-A", "other"],
            "Invalid account or account/partition combination specified")
    refused(c, ["-p", "deny", "-A", "bad"],
            "Invalid account or account/partition combination specified")
    refused(c, ["-p", "short", "-c", "3"],
            "Requested node configuration is not available")
    refused(c, ["-p", "long", "-w", "n1"], "Requested nodes not in this partition")
    ok = [c.sbatch(["-p", "closed", "--wrap", "true"]),          # root
          c.sbatch(["-p", "acct", "-A", "proj", "--wrap", "true"], user=U),
          c.sbatch(["-p", "deny", "-A", "good", "--wrap", "true"], user=U)]
    for j in ok:
        c.wait_done(j, 30)


def test_default_time_exclusive_weight_spread(pc):
    c = pc
    j1 = c.sbatch(["-p", "long", "-w", "n4", "--wrap", "/usr/bin/sleep 20"], user=U)
    j2 = c.sbatch(["-p", "excl", "-n", "1", "--wrap", "/usr/bin/sleep 20"], user=U)
    j3 = c.sbatch(["-n", "1", "--wrap", "/usr/bin/sleep 20"], user=U)
    for j in (j1, j2, j3):
        c.wait_state(j, "RUNNING", 30)
    assert c.show_job(j1)["TimeLimit"] == "00:10:00"
    rec = c.show_job(j2)
    assert (rec["NodeList"], rec["NumCPUs"]) == ("n3", "2")
    # n1 (Weight=10) is used last
    assert c.show_job(j3)["NodeList"] == "n2"
    cancel_all(c, [j1, j2, j3])
    j4 = c.sbatch(["-p", "long", "-n", "2", "--spread-job", "--wrap", "true"],
                  user=U)
    c.wait_done(j4, 30)
    assert c.show_job(j4)["NodeList"] == "n[3-4]"


def test_several_partitions(pc):
    c = pc
    held = c.sbatch(["-p", "short,long", "--hold", "--wrap", "true"], user=U)
    r = c.run(["squeue", "-h", "-j", str(held), "-o", "%P"])
    assert r.out.strip() == "short,long"
    fill = [c.sbatch(["-p", "short", "-c", "2", "--wrap", "/usr/bin/sleep 30"],
                     user=U) for _ in range(2)]
    for j in fill:
        c.wait_state(j, "RUNNING", 30)
    # short is full: the job starts in long at once
    j = c.sbatch(["-p", "short,long", "-c", "2", "--wrap", "/usr/bin/sleep 30"],
                 user=U)
    c.wait_state(j, "RUNNING", 30)
    rec = c.show_job(j)
    assert rec["Partition"] == "long"
    assert rec["NodeList"] in ("n3", "n4")
    r = c.run(["squeue", "-h", "-j", str(j), "-o", "%P"])
    assert r.out.strip() == "long"
    # a partition the job may not use is dropped; one that does not exist
    # refuses the whole request
    k = c.sbatch(["-p", "closed,long", "--wrap", "true"], user=U)
    assert c.show_job(k)["Partition"] in ("long",)
    r = c.run(["sbatch", "-p", "short,nosuch", "--wrap", "true"], user=U)
    assert r.rc == 1 and "invalid partition specified: nosuch" in r.err, r
    cancel_all(c, fill + [j, held, k])


def test_hidden(pc):
    c = pc
    r = c.run(["sinfo", "-h", "-o", "%P"])
    assert "hid" not in r.out.split()
    r = c.run(["sinfo", "-a", "-h", "-o", "%P"])
    assert "hid" in r.out.split()
    j = c.sbatch(["-p", "hid", "--hold", "--wrap", "true"], user=U)
    assert str(j) not in c.run(["squeue", "-h", "-o", "%i"]).out.split()
    assert str(j) in c.run(["squeue", "-a", "-h", "-o", "%i"]).out.split()
    cancel_all(c, [j])


def test_enforce_part_limits(new_cluster):
    c = new_cluster(extra_conf="EnforcePartLimits=ALL\n" + PARTS)
    refused(c, ["-p", "short", "-t", "10"],
            "Requested time limit is invalid (missing or exceeds some limit)")
    refused(c, ["-p", "short", "-N", "2"], "Node count specification invalid")
    # Slurm 22.05 on these 4 nodes of 2 CPUs: CPUs checked first
    refused(c, ["-N", "5"], "Node count specification invalid")
    refused(c, ["-N", "9"], "More processors requested than permitted")
    for a in UNLIMITED_FORMS:
        refused(c, ["-p", "short"] + a, "Requested time limit is invalid "
                "(missing or exceeds some limit)")
    # ALL: every partition of -p a,b must take it
    refused(c, ["-p", "short,long", "-t", "0"],
            "Requested time limit is invalid (missing or exceeds some limit)")
    r = c.run(["srun", "-p", "short", "-t", "UNLIMITED", "true"], user=U)
    assert (r.rc, r.err) == (1, "srun: error: Unable to allocate resources: "
                             "Requested time limit is invalid (missing or "
                             "exceeds some limit)\n"), r
    r = c.run(["salloc", "-p", "short", "-t", "0", "true"], user=U)
    assert r.rc == 1 and r.err.endswith(": Requested time limit is invalid "
                                        "(missing or exceeds some limit)\n"), r
    j = c.sbatch(["-p", "short", "-t", "5", "--wrap", "true"], user=U)
    c.wait_done(j, 30)


def test_select_linear(new_cluster):
    c = new_cluster(extra_conf="SelectType=select/linear")
    jobs = [c.sbatch(["-n", "1", "--wrap", "/usr/bin/sleep 20"], user=U)
            for _ in range(2)]
    for j in jobs:
        c.wait_state(j, "RUNNING", 30)
    recs = [c.show_job(j) for j in jobs]
    # whole nodes: one job per node, all its CPUs
    assert [r["NumCPUs"] for r in recs] == ["2", "2"]
    assert recs[0]["NodeList"] != recs[1]["NodeList"]
    cancel_all(c, jobs)
