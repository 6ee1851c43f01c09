"""sluice-sim, the what-if simulator, as a user runs it: a slurm.conf and
a trace in, jobs.csv and summary.json out (no daemons: the controller's
scheduler code runs inside sluice-sim on a virtual clock)."""

import csv
import json
import os
import subprocess

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SIM = os.path.join(os.path.abspath(os.environ.get(
    "SLUICE_BUILD_DIR", os.path.join(REPO, "build"))), "bin", "sluice-sim")
T0 = 1767225600                   # the SWF epoch, 2026-01-01T00:00:00Z

CONF = """ClusterName=sim
SlurmctldHost=localhost
SelectType=select/cons_tres
SchedulerParameters=bf_interval=30
NodeName=n[1-4] CPUs=4 RealMemory=4000
PartitionName=batch Nodes=ALL Default=YES MaxTime=INFINITE
PartitionName=debug Nodes=n1 MaxTime=10
"""

HEADER = ("JobID,User,Account,Partition,QOS,NNodes,NCPUs,Submit,Start,End,"
          "Wait,TimeLimit,Runtime,State,Backfilled")


def swf(jid, submit, run, procs, req, status=1, queue=-1):
    return ("%d %d -1 %d %d -1 -1 %d %d -1 %d %d 1 -1 %d -1 -1 -1\n"
            % (jid, submit, run, procs, procs, req, status, jid, queue))


# a 12-CPU job for 1000 s; a 16-CPU job behind it; a 4-CPU job that
# backfill starts at its first pass (30 s); one over its time limit
TRACE = (";  Version: 2.2\n" + swf(1, 0, 1000, 12, 1020) +
         swf(2, 1, 100, 16, 1020) + swf(3, 2, 100, 4, 240) +
         swf(4, 2000, 500, 4, 120))


@pytest.fixture
def files(tmp_path):
    (tmp_path / "slurm.conf").write_text(CONF)
    (tmp_path / "t.swf").write_text(TRACE)
    return tmp_path


def run(d, *args, ok=True):
    p = subprocess.run([SIM, "-f", str(d / "slurm.conf")] + list(args),
                       capture_output=True, text=True, cwd=d, timeout=120)
    if ok and p.returncode:
        pytest.fail("sluice-sim failed: %s" % p.stderr)
    return p


def rows(path):
    with open(path) as f:
        assert f.readline().strip() == HEADER
    with open(path) as f:
        return {r["JobID"]: r for r in csv.DictReader(f)}


def test_swf_replay_csv_and_summary(files):
    p = run(files, "-t", "t.swf", "-o", "jobs.csv", "--summary", "s.json")
    assert "simulated" in p.stdout and "backfill share" in p.stdout
    r = rows(files / "jobs.csv")
    assert [r[j]["Start"] for j in "1234"] == [
        str(T0), str(T0 + 1000), str(T0 + 30), str(T0 + 2000)]
    assert r["3"]["Backfilled"] == "1" and r["2"]["Backfilled"] == "0"
    assert r["2"]["Wait"] == "999" and r["2"]["NNodes"] == "4"
    assert r["4"]["State"] == "TIMEOUT" and r["4"]["Runtime"] == "120"
    assert r["1"]["State"] == "COMPLETED" and r["1"]["Partition"] == "batch"
    # SWF: the user is its number, the group (field 13) the account
    assert r["2"]["User"] == "2" and r["2"]["Account"] == "1"
    s = json.loads((files / "s.json").read_text())
    assert s["jobs"] == 4 and s["skipped"] == 0
    assert s["makespan"] == 2120
    assert s["backfill_share"] == 0.25
    assert s["wait"]["median"] == 28 or s["wait"]["median"] == 0
    assert s["wait"]["mean"] == (0 + 999 + 28 + 0) / 4
    assert set(s["by_size"]) == {"1", "2-4", "5-16", "17-64", "65+"}
    assert s["by_size"]["1"]["jobs"] == 2
    assert s["by_partition"]["batch"]["jobs"] == 4
    assert s["by_account"]["1"]["jobs"] == 4
    assert s["sim_seconds"] == 2120 and s["speedup"] > 0
    for k in ("utilisation", "bounded_slowdown", "by_account",
              "wall_seconds"):
        assert k in s


def test_set_is_a_what_if(files):
    """--set overrides slurm.conf: without backfill the small job waits."""
    run(files, "-t", "t.swf", "-o", "a.csv", "--quiet",
        "--set", "SchedulerType=sched/builtin")
    r = rows(files / "a.csv")
    assert r["3"]["Start"] == str(T0 + 1100) and r["3"]["Backfilled"] == "0"
    # the slurm.conf itself is unchanged
    assert (files / "slurm.conf").read_text() == CONF


def test_set_keeps_the_files_beside_slurm_conf(files):
    """With --set, topology.conf is still the one beside the user's
    slurm.conf, and an error in it names that file, not sluice-sim's
    temporary copy."""
    (files / "topology.conf").write_text("SwitchName=s0 Nodes=n[1-4\n")
    p = run(files, "-t", "t.swf", "--set", "TopologyPlugin=topology/tree",
            ok=False)
    assert p.returncode == 1
    assert "%s:1:" % (files / "topology.conf") in p.stderr, p.stderr
    assert "sluice-sim." not in p.stderr.replace("sluice-sim: ", "")
    (files / "topology.conf").write_text("SwitchName=s0 Nodes=n[1-4]\n")
    run(files, "-t", "t.swf", "-o", "a.csv", "--quiet",
        "--set", "TopologyPlugin=topology/tree")
    assert rows(files / "a.csv")["3"]["Start"] == str(T0 + 30)


def test_max_job_count_refusals_are_reported(files):
    p = run(files, "-t", "t.swf", "-o", "a.csv", "--set", "MaxJobCount=2")
    r = rows(files / "a.csv")
    assert r["3"]["State"] == "REFUSED" and r["4"]["State"] == "TIMEOUT"
    assert ("warning: 1 jobs refused at MaxJobCount=2 (the first submitted "
            "2026-01-01T00:00:02)") in p.stderr, p.stderr
    assert "1 refused" in p.stdout


def test_swf_partitions_and_refused(files):
    (files / "q.swf").write_text(swf(1, 0, 60, 4, 300, queue=2) +
                                 swf(2, 0, 60, 4, 3000, queue=2) +
                                 swf(3, 0, 60, 4, 300, queue=1))
    p = run(files, "-t", "q.swf", "--swf-partitions", "1=batch,2=debug",
            "-o", "q.csv", "--summary", "q.json")
    r = rows(files / "q.csv")
    assert r["1"]["Partition"] == "debug" and r["3"]["Partition"] == "batch"
    # 50 minutes in a partition of MaxTime=10: pending for good, as Slurm
    # leaves it (PartitionTimeLimit), never started
    assert r["2"]["Start"] == "" and r["2"]["State"] == "PENDING"
    s = json.loads((files / "q.json").read_text())
    assert s["started"] == 2
    assert "2 started" in p.stdout


def test_sacct_trace(files):
    (files / "t.sacct").write_text(
        "JobID|Partition|Account|User|State|Submit|Start|End|Timelimit|"
        "NCPUS|NNodes|QOS\n"
        "10|batch|phys|alice|COMPLETED|2026-01-05T10:00:00|"
        "2026-01-05T10:00:00|2026-01-05T10:10:00|00:20:00|16|4|normal\n"
        "10.batch||phys||COMPLETED|2026-01-05T10:00:00|2026-01-05T10:00:00|"
        "2026-01-05T10:10:00||4|1|\n"
        "11|batch|chem|bob|COMPLETED|2026-01-05T10:01:00|"
        "2026-01-05T10:10:00|2026-01-05T10:40:00|01:00:00|4|1|normal\n")
    run(files, "-t", "t.sacct", "-o", "s.csv", "--summary", "s.json",
        "--quiet")
    r = rows(files / "s.csv")
    assert set(r) == {"10", "11"}             # the step row is not a job
    assert r["11"]["Account"] == "chem" and r["11"]["User"] == "bob"
    assert r["11"]["QOS"] == "normal"
    assert int(r["11"]["Start"]) - int(r["10"]["Start"]) == 600
    s = json.loads((files / "s.json").read_text())
    assert s["by_account"]["chem"]["jobs"] == 1


def test_malformed_trace(files):
    (files / "bad.swf").write_text(TRACE + "5 10 -1 100\n" + swf(6, 20, 1, 1, 60))
    p = run(files, "-t", "bad.swf", "-o", "x.csv", ok=False)
    assert p.returncode == 1
    assert "bad.swf:6: fewer than 18 fields" in p.stderr
    assert not (files / "x.csv").exists()
    p = run(files, "-t", "bad.swf", "--skip-bad", "--summary", "k.json",
            "--quiet")
    assert "bad.swf:6:" in p.stderr and "skipped" in p.stderr
    s = json.loads((files / "k.json").read_text())
    assert s["skipped"] == 1 and s["jobs"] == 5


def test_bad_options(files):
    p = run(files, "-t", "t.swf", "--trace-format", "csv", ok=False)
    assert p.returncode == 1 and "--trace-format" in p.stderr
    p = run(files, "-t", "t.swf", "--set", "NoEquals", ok=False)
    assert p.returncode == 1 and "KEY=VALUE" in p.stderr
    p = run(files, "-t", "t.swf", "--assoc", "dump.cfg", ok=False)
    assert p.returncode == 1 and "not supported" in p.stderr
    p = run(files, "-t", "t.swf", "--set", "SelectType=select/nosuch",
            ok=False)
    assert p.returncode == 1 and "nosuch" in p.stderr
