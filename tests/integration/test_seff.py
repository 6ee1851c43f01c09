"""contrib/seff: a job's CPU and memory efficiency from accounting, in
the layout of Slurm's contrib seff ("CPU Efficiency: 49.50% of 00:00:04
core-walltime", "Memory Efficiency: ... of 100.00 MB (100.00 MB/node)")."""

import os
import re
import shutil
import time

import pytest

import mariadb
from cluster import REPO

pytestmark = pytest.mark.skipif(bool(mariadb.missing_tools()),
                                reason="MariaDB server not installed: %s"
                                % ", ".join(mariadb.missing_tools()))

U = "sluice_u1"


@pytest.fixture(scope="module")
def env(users):
    e = mariadb.AcctEnv(tag="seff", nodes=1)
    e.c.extra_conf += "\nJobAcctGatherType=jobacct_gather/linux\n" \
                      "JobAcctGatherFrequency=1\n"
    try:
        e.start()
        e.start_cluster()
    except BaseException:
        e.stop()
        raise
    yield e
    e.stop()


def seff(e, *args):
    c = e.c
    d = os.path.join(c.dir, "seff")
    if not os.path.isdir(d):
        os.makedirs(d)
        shutil.copy(os.path.join(REPO, "contrib", "seff", "seff"), d)
        os.chmod(d, 0o755)
    return c.run([os.path.join(d, "seff")] + list(args), user=U,
                 env={"SLUICE_BINDIR": os.path.dirname(c.bin("sacct"))})


def test_cpu_and_memory_efficiency(env):
    e = env
    c = e.c
    jid = c.sbatch(["-o", "/dev/null", "-c", "2", "--mem=100M", "--wrap",
                    "python3 -c 'import time\nx=b\"a\"*(30<<20)\n"
                    "t=time.time()\nwhile time.time()-t<4: pass'"],
                   user=U)
    assert c.wait_done(jid, timeout=60) == "COMPLETED"
    # accounting hears of the job's end a moment after the controller
    # (the batch step's record, with its usage, goes first)
    deadline = time.time() + 60
    while time.time() < deadline:
        out = e.sacct("-P", "-n", "-j", str(jid), "-o", "JobID,State",
                      user=U).out.split()
        if "%d|COMPLETED" % jid in out:
            assert "%d.batch|COMPLETED" % jid in out, out
            break
        time.sleep(0.5)
    r = seff(e, str(jid))
    assert r.rc == 0, r
    lines = r.out.splitlines()
    assert lines[0] == "Job ID: %d" % jid, r.out
    assert lines[2] == "User/Group: %s/%s" % (U, U) or \
        lines[2].startswith("User/Group: %s/" % U), r.out
    assert "State: COMPLETED (exit code 0)" in lines, r.out
    assert "Nodes: 1" in lines and "Cores per node: 2" in lines, r.out
    # what seff computes from what accounting says (the machine may be
    # busy: the loop's share of a CPU is not asserted)
    acct = e.sacct("-P", "-n", "-X", "-j", str(jid), "-o",
                   "TotalCPU,ElapsedRaw", user=U).out.split("|")
    t = acct[0].split(":")
    cpu = float(t[-2]) * 60 + float(t[-1]) + \
        (float(t[-3]) * 3600 if len(t) > 2 else 0)
    wall = int(acct[1])
    m = re.search(r"^CPU Efficiency: ([\d.]+)% of (\S+) core-walltime$",
                  r.out, re.M)
    assert m, r.out
    assert abs(float(m.group(1)) - 100.0 * cpu / (2 * wall)) < 0.01, r.out
    assert m.group(2) == "00:00:%02d" % (2 * wall), r.out
    assert "Job Wall-clock time: 00:00:%02d" % wall in lines, r.out
    m = re.search(r"^Memory Utilized: ([\d.]+) MB$", r.out, re.M)
    assert m and 25 <= float(m.group(1)) <= 100, r.out
    assert re.search(r"^Memory Efficiency: [\d.]+% of 100\.00 MB "
                     r"\(100\.00 MB/node\)$", r.out, re.M), r.out


def test_unknown_job_and_usage(env):
    r = seff(env, "999999")
    assert r.rc == 1 and "seff: Job not found." in r.err, r
    r = seff(env)
    assert r.rc == 1 and r.err.startswith("Usage: seff"), r
