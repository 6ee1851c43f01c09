"""TaskProlog / TaskEpilog (slurm.conf) and srun --task-prolog /
--task-epilog: run as the job's user around each task; the prolog's
"export", "unset" and "print" lines act on the task as in Slurm."""

import os
import time

import pytest

import cluster as cl
from conftest import _start, _stop

PROLOG = """#!/bin/sh
echo "export FROM_TASK_PROLOG=rank$SLURM_PROCID-$(id -un)"
echo "unset DROP_ME"
echo "print prolog says hello"
echo "ignored line"
"""

EPILOG = """#!/bin/sh
echo "$SLURM_JOB_ID $(id -un)" >> %s
"""


@pytest.fixture(scope="module")
def tp_cluster(users):
    c = _start(tag="taskprolog", nodes=2,
               extra_conf="TaskPlugin=task/affinity\n"
                          "AcctGatherEnergyType=acct_gather_energy/rapl\n")
    etc = os.path.join(c.dir, "etc")
    c.epilog_log = os.path.join(c.dir, "jobs", "task_epilog.log")
    open(c.epilog_log, "w").close()
    os.chmod(c.epilog_log, 0o666)
    c.write_file(None, os.path.join(etc, "task_prolog.sh"), PROLOG, 0o755)
    c.write_file(None, os.path.join(etc, "task_epilog.sh"),
                 EPILOG % c.epilog_log, 0o755)
    with open(c.conf, "a") as f:
        f.write("TaskProlog=%s\nTaskEpilog=%s\n" % (
            os.path.join(etc, "task_prolog.sh"),
            os.path.join(etc, "task_epilog.sh")))
    yield c
    _stop(c)


def test_srun_task_prolog_exports(tp_cluster):
    c = tp_cluster
    wd = c.workdir("sluice_u1")
    user_prolog = c.write_file("sluice_u1", os.path.join(wd, "my_prolog.sh"),
                               "#!/bin/sh\necho export FROM_SRUN_PROLOG=$FROM_TASK_PROLOG\n",
                               0o755)
    r = c.run(["srun", "-N2", "-n2", "-l", "--task-prolog=" + user_prolog,
               "sh", "-c",
               'echo "$FROM_TASK_PROLOG ${DROP_ME-unset} $FROM_SRUN_PROLOG"'],
              user="sluice_u1", cwd=wd, env={"DROP_ME": "x"}, timeout=60)
    assert r.rc == 0, r
    lines = sorted(r.out.splitlines())
    assert lines == ["0: prolog says hello", "0: rank0-sluice_u1 unset rank0-sluice_u1",
                     "1: prolog says hello", "1: rank1-sluice_u1 unset rank1-sluice_u1"], r


def test_batch_task_prolog_and_epilog(tp_cluster):
    c = tp_cluster
    wd = c.workdir("sluice_u2")
    c.write_file("sluice_u2", os.path.join(wd, "tp.sh"),
                 "#!/bin/sh\necho \"batch:$FROM_TASK_PROLOG\"\n", 0o755)
    jobid = c.sbatch(["-o", "tp.out", "tp.sh"], user="sluice_u2", cwd=wd)
    assert c.wait_done(jobid) == "COMPLETED"
    out = open(os.path.join(wd, "tp.out")).read()
    assert out == "prolog says hello\nbatch:rank0-sluice_u2\n"
    deadline = time.time() + 10
    while time.time() < deadline:
        if "%d sluice_u2\n" % jobid in open(c.epilog_log).read():
            break
        time.sleep(0.2)
    assert "%d sluice_u2\n" % jobid in open(c.epilog_log).read()


def test_failing_task_prolog_fails_task(tp_cluster):
    c = tp_cluster
    wd = c.workdir("sluice_u1")
    bad = c.write_file("sluice_u1", os.path.join(wd, "bad_prolog.sh"),
                       "#!/bin/sh\nexit 3\n", 0o755)
    r = c.run(["srun", "-n1", "--task-prolog=" + bad, "echo", "ran"],
              user="sluice_u1", cwd=wd, timeout=60)
    assert "ran" not in r.out
    assert "slurmstepd: error: TaskProlog failed status=3" in r.err, r
    assert r.rc == 3, r


def test_cpu_bind_cores(tp_cluster):
    c = tp_cluster
    r = c.run(["srun", "-N1", "-n2", "-w", "n1", "-l", "--cpu-bind=verbose,cores",
               "grep", "Cpus_allowed_list", "/proc/self/status"],
              user="sluice_u1", cwd=c.workdir("sluice_u1"), timeout=60)
    assert r.rc == 0, r
    got = {}
    for line in r.out.splitlines():
        task, _, rest = line.partition(": ")
        got[int(task)] = rest.split()[-1]
    ncpu = len(os.sched_getaffinity(0))
    if ncpu >= 2:
        # two cores, one each
        assert got[0] != got[1], r
        assert all(v.isdigit() for v in got.values()), r
    else:
        assert got[0] == got[1], r
    verbose = [l.partition(": ")[2] for l in r.err.splitlines()
               if "cpu-bind=" in l]
    assert len(verbose) == 2, r
    for l in verbose:
        assert __import__("re").fullmatch(
            r"cpu-bind=MASK - n1, task +[01] +[01] \[\d+\]: mask 0x[0-9a-f]+ set", l), l


def test_cpu_bind_map_cpu_and_bad_value(tp_cluster):
    c = tp_cluster
    r = c.run(["srun", "-n1", "-w", "n1", "--cpu-bind=map_cpu:1",
               "grep", "Cpus_allowed_list", "/proc/self/status"],
              user="sluice_u1", cwd=c.workdir("sluice_u1"), timeout=60)
    assert r.rc == 0, r
    avail = sorted(os.sched_getaffinity(0))
    assert r.out.split()[-1] == str(avail[1 % len(avail)]), r
    r = c.run(["srun", "-n1", "--cpu-bind=bogus", "true"], user="sluice_u1",
              cwd=c.workdir("sluice_u1"), timeout=30)
    assert r.rc != 0
    assert 'srun: error: unrecognized --cpu-bind argument "bogus"' in r.err, r


def test_energy_rapl_says_why_energy_stays_zero(tp_cluster):
    """acct_gather_energy/rapl: one line in each slurmd log naming what it
    found (no powercap counters here, or the counters it reads;
    test_energy.py runs it on a fake powercap tree)."""
    c = tp_cluster
    for n in c.node_names:
        text = open(c.slurmd_log(n)).read()
        lines = [l for l in text.splitlines() if "acct_gather_energy/rapl:" in l]
        assert len(lines) == 1, text[-2000:]
        if not os.path.isdir("/sys/class/powercap"):
            assert lines[0].endswith(
                "acct_gather_energy/rapl: no RAPL energy counters under "
                "/sys/class/powercap (No such file or directory); "
                "ConsumedEnergy stays 0"), lines[0]
        else:
            assert lines[0].endswith("ConsumedEnergy stays 0") or \
                "acct_gather_energy/rapl: reading /sys/class/powercap/" \
                "intel-rapl:" in lines[0], lines[0]
