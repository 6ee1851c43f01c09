"""scontrol create/update/delete PartitionName= at run time (issue 28):
the same keys and checks as a PartitionName line of slurm.conf, Slurm's
messages and exit codes (compared with Slurm 22.05), admins only, the
schedulers see the change at once, it survives a SIGKILL of slurmctld
and `scontrol reconfigure` drops it, as Slurm's does.

Four nodes of 2 CPUs; slurm.conf has only the default partition.
"""

import signal
import time

import pytest

U = "sluice_u1"


@pytest.fixture(scope="module")
def pc(request, users):
    import conftest
    c = conftest._start(tag="partupd")
    yield c
    conftest._stop(c)


def show_part(c, name):
    r = c.run(["scontrol", "-a", "-o", "show", "partition", name])
    if r.rc:
        return None
    return dict(w.split("=", 1) for w in r.out.split() if "=" in w)


def parts(c):
    r = c.run(["sinfo", "-h", "-o", "%R"])
    return sorted(r.out.split())


def ok(c, argv, user=None):
    r = c.run(["scontrol"] + argv, user=user)
    assert (r.rc, r.out, r.err) == (0, "", ""), r
    return r


def reason(c, jid, want, timeout=10):
    deadline = time.time() + timeout
    rec = {}
    while time.time() < deadline:
        rec = c.show_job(jid)
        if rec.get("Reason") == want:
            return want
        time.sleep(0.2)
    return rec.get("Reason")


def test_create_show_delete(pc):
    c = pc
    ok(c, ["create", "PartitionName=p2", "Nodes=n[1-2]", "MaxTime=10",
           "PriorityTier=3", "OverSubscribe=FORCE:2"])
    p = show_part(c, "p2")
    assert p["Nodes"] == "n[1-2]"
    assert p["MaxTime"] == "00:10:00"
    assert p["TotalNodes"] == "2" and p["TotalCPUs"] == "4"
    assert p["PriorityTier"] == "3" and p["OverSubscribe"] == "FORCE:2"
    assert p["State"] == "UP" and p["Default"] == "NO"
    assert "p2" in parts(c)
    # the nodes list it
    r = c.run(["scontrol", "-o", "show", "node", "n1"])
    assert "Partitions=" in r.out and "p2" in r.out.split("Partitions=")[1].split()[0]
    jid = c.sbatch(["-p", "p2", "--wrap", "true"], user=U)
    assert c.wait_done(jid, 30)
    assert c.job_state(jid) == "COMPLETED"
    assert c.show_job(jid)["NodeList"] in ("n1", "n2")
    ok(c, ["delete", "PartitionName=p2"])
    assert show_part(c, "p2") is None
    assert "p2" not in parts(c)
    r = c.run(["sbatch", "-p", "p2", "--wrap", "true"], user=U)
    assert (r.rc, r.err) == (1, "sbatch: error: invalid partition specified: "
                             "p2\nsbatch: error: Batch job submission "
                             "failed: Invalid partition name specified\n")
    # delete partition NAME is the other spelling
    ok(c, ["create", "PartitionName=p3", "Nodes=ALL"])
    assert show_part(c, "p3")["Nodes"] == "n[1-4]"
    ok(c, ["delete", "partition", "p3"])
    assert show_part(c, "p3") is None


# (argv, exit code, stderr) as Slurm 22.05's scontrol prints them
BAD = [
    (["create", "PartitionName=debug", "Nodes=n1"], 1,
     "Error creating the partition: Invalid partition name specified\n"),
    (["create", "PartitionName=bad", "Nodes=zz"], 1,
     "Error creating the partition: Invalid node name specified\n"),
    (["create", "PartitionName=bad", "Nodes=n1", "Foo=1"], 1,
     "scontrol: error: Update of this parameter is not supported: Foo=1\n"
     "\nscontrol: error: Request aborted\n"),
    (["create", "PartitionName=bad", "Nodes=n1", "MaxTime=bogus"], 1,
     "scontrol: error: Invalid input MaxTime=bogus\n"),
    (["create", "Nodes=n1"], 1,
     "scontrol: error: Invalid creation entity: Nodes=n1\n"),
    (["update", "PartitionName=nope", "State=DOWN"], 1,
     "slurm_update error: Invalid partition name specified\n"),
    (["update", "PartitionName=debug", "State=BOGUS"], 1,
     "scontrol: error: Invalid input: State=BOGUS\n"
     "scontrol: error: Acceptable State values are UP, DOWN, DRAIN and "
     "INACTIVE\nslurm_update error: No error\n"),
    (["update", "PartitionName=debug", "MaxTime=bad"], 1,
     "scontrol: error: Invalid input MaxTime=bad\n"
     "slurm_update error: No error\n"),
    (["update", "PartitionName=debug", "Bogus=1"], 1,
     "scontrol: error: Update of this parameter is not supported: "
     "Bogus=1\n\nscontrol: error: Request aborted\n"
     "slurm_update error: No error\n"),
    (["update", "PartitionName=debug", "MaxNodes=abc"], 1,
     "scontrol: error: Invalid numeric value \"abc\" for MaxNodes.\n"),
    (["update", "PartitionName=debug", "Nodes=n9"], 1,
     "slurm_update error: Invalid node name specified\n"),
    (["delete", "PartitionName=nope"], 1,
     "delete_partition PartitionName=nope: Invalid partition name "
     "specified\n"),
]


@pytest.mark.parametrize("argv,rc,err", BAD, ids=[" ".join(b[0]) for b in BAD])
def test_bad_input_changes_nothing(pc, argv, rc, err):
    c = pc
    before = (parts(c), show_part(c, "debug"))
    r = c.run(["scontrol"] + argv)
    assert (r.rc, r.out, r.err) == (rc, "", err), r
    assert (parts(c), show_part(c, "debug")) == before


def test_only_admins(pc):
    c = pc
    for argv, err in (
            (["create", "PartitionName=u", "Nodes=n1"],
             "Error creating the partition: Invalid user id\n"),
            (["update", "PartitionName=debug", "State=DOWN"],
             "slurm_update error: Invalid user id\n"),
            (["delete", "PartitionName=debug"],
             "delete_partition PartitionName=debug: Invalid user id\n")):
        r = c.run(["scontrol"] + argv, user=U)
        assert (r.rc, r.err) == (1, err), r
    assert parts(c) == ["debug"]
    assert show_part(c, "debug")["State"] == "UP"


def test_state_changes_scheduling(pc):
    c = pc
    ok(c, ["create", "PartitionName=s", "Nodes=n3"])
    jid = c.sbatch(["-p", "s", "--wrap", "sleep 60"], user=U)
    c.wait_state(jid, ["RUNNING"], 20)
    r = c.run(["scontrol", "delete", "PartitionName=s"])
    assert (r.rc, r.err) == (1, "delete_partition PartitionName=s: "
                             "Partition is in use\n"), r
    ok(c, ["update", "PartitionName=s", "State=DRAIN"])
    r = c.run(["sbatch", "-p", "s", "--wrap", "true"], user=U)
    assert (r.rc, r.err) == (1, "sbatch: error: Batch job submission failed: "
                             "Required partition not available (inactive or "
                             "drain)\n"), r
    ok(c, ["update", "PartitionName=s", "State=DOWN"])
    pend = c.sbatch(["-p", "s", "--wrap", "true"], user=U)
    assert reason(c, pend, "PartitionDown") == "PartitionDown"
    assert c.job_state(jid) == "RUNNING"      # running jobs go on
    c.run(["scancel", str(jid)])
    c.wait_done(jid, 30)
    time.sleep(1)
    assert c.job_state(pend) == "PENDING"
    # UP again: the pending job starts at once
    ok(c, ["update", "PartitionName=s", "State=UP"])
    assert c.wait_done(pend, 20)
    assert c.job_state(pend) == "COMPLETED"
    ok(c, ["delete", "PartitionName=s"])


def test_update_limits_and_nodes(pc):
    c = pc
    ok(c, ["create", "PartitionName=lim", "Nodes=n4", "MaxTime=5"])
    jid = c.sbatch(["-p", "lim", "-t", "10", "--wrap", "true"], user=U)
    assert reason(c, jid, "PartitionTimeLimit") == "PartitionTimeLimit"
    ok(c, ["update", "PartitionName=lim", "MaxTime=20", "Nodes=n[3-4]"])
    p = show_part(c, "lim")
    assert (p["MaxTime"], p["Nodes"], p["TotalNodes"]) == ("00:20:00", "n[3-4]", "2")
    assert c.wait_done(jid, 20)
    assert c.job_state(jid) == "COMPLETED"
    # Default=YES moves the default from debug
    ok(c, ["update", "PartitionName=lim", "Default=YES"])
    assert show_part(c, "debug")["Default"] == "NO"
    j2 = c.sbatch(["--wrap", "true"], user=U)
    assert c.show_job(j2)["Partition"] == "lim"
    c.wait_done(j2, 20)
    ok(c, ["update", "PartitionName=debug", "Default=YES"])
    assert show_part(c, "lim")["Default"] == "NO"
    ok(c, ["delete", "PartitionName=lim"])


def test_survives_sigkill_and_reconfigure_drops(new_cluster):
    c = new_cluster()
    ok(c, ["create", "PartitionName=keep", "Nodes=n[1-2]", "MaxTime=30",
           "Hidden=YES"])
    ok(c, ["update", "PartitionName=keep", "PriorityJobFactor=7"])
    ok(c, ["update", "PartitionName=debug", "State=DOWN"])
    ok(c, ["create", "PartitionName=gone", "Nodes=n3"])
    ok(c, ["delete", "PartitionName=gone"])
    c.kill_ctld(signal.SIGKILL)
    c.start_ctld()
    deadline = time.time() + 30
    while c.run(["sinfo"], timeout=10).rc and time.time() < deadline:
        time.sleep(0.2)
    p = show_part(c, "keep")
    assert p is not None, c.log_tails()
    assert (p["MaxTime"], p["Hidden"], p["PriorityJobFactor"], p["Nodes"]) == (
        "00:30:00", "YES", "7", "n[1-2]")
    assert show_part(c, "debug")["State"] == "DOWN"
    assert show_part(c, "gone") is None
    # a second restart (from the snapshot written at start) keeps them too
    c.kill_ctld(signal.SIGTERM)
    c.start_ctld()
    deadline = time.time() + 30
    while c.run(["sinfo"], timeout=10).rc and time.time() < deadline:
        time.sleep(0.2)
    assert show_part(c, "keep")["PriorityJobFactor"] == "7"
    # as Slurm: reconfigure rebuilds the partitions from slurm.conf
    ok(c, ["reconfigure"])
    assert show_part(c, "keep") is None
    assert show_part(c, "debug")["State"] == "UP"
    c.kill_ctld(signal.SIGKILL)
    c.start_ctld()
    deadline = time.time() + 30
    while c.run(["sinfo"], timeout=10).rc and time.time() < deadline:
        time.sleep(0.2)
    assert show_part(c, "keep") is None
    assert show_part(c, "debug")["State"] == "UP"


def wait_answer(c):
    deadline = time.time() + 30
    while c.run(["sinfo"], timeout=10).rc and time.time() < deadline:
        time.sleep(0.2)


def test_reconfig_flags_keep_part_info(new_cluster):
    """ReconfigFlags=KeepPartInfo: reconfigure keeps every run-time
    change; KeepPartState: only the State of slurm.conf's partitions."""
    c = new_cluster(tag="keepinfo", extra_conf="ReconfigFlags=KeepPartInfo")
    ok(c, ["create", "PartitionName=rt", "Nodes=n1", "MaxTime=7"])
    ok(c, ["update", "PartitionName=debug", "State=DRAIN", "MaxTime=50"])
    ok(c, ["reconfigure"])
    assert show_part(c, "rt")["MaxTime"] == "00:07:00"
    p = show_part(c, "debug")
    assert (p["State"], p["MaxTime"]) == ("DRAIN", "00:50:00")
    c = new_cluster(tag="keepstate",
                    extra_conf="ReconfigFlags=KeepPartState")
    ok(c, ["create", "PartitionName=rt", "Nodes=n1"])
    ok(c, ["update", "PartitionName=debug", "State=DOWN", "MaxTime=50"])
    ok(c, ["reconfigure"])
    assert show_part(c, "rt") is None
    p = show_part(c, "debug")
    assert (p["State"], p["MaxTime"]) == ("DOWN", "UNLIMITED")
    # and that is the state a restart comes back with
    c.kill_ctld(signal.SIGKILL)
    c.start_ctld()
    wait_answer(c)
    p = show_part(c, "debug")
    assert (p["State"], p["MaxTime"]) == ("DOWN", "UNLIMITED")
    assert show_part(c, "rt") is None
