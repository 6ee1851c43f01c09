"""JobAcctGatherParams (issue 27): OverMemoryKill kills a step whose tasks
use more than its --mem at a sample (sacct and squeue show OUT_OF_MEMORY,
srun prints slurmstepd's error); UsePss and NoShared change what a
process counts (a child sharing its parent's pages counts half with
UsePss); the words Sluice has no use for are reported once.
"""

import os
import re
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mariadb  # noqa: E402
from conftest import _start, _stop  # noqa: E402

pytestmark = pytest.mark.skipif(bool(mariadb.missing_tools()),
                                reason="MariaDB server not installed: %s"
                                % ", ".join(mariadb.missing_tools()))

U = "sluice_u1"

# 200 MB touched page by page, then held
HOG = ("import time; x = bytearray(200 * 1024 * 1024); "
       "x[::4096] = b'1' * len(x[::4096]); print('allocated', flush=True); "
       "time.sleep(30); print('survived')")


@pytest.fixture(scope="module")
def env(users):
    e = mariadb.AcctEnv(tag="jagparams", nodes=1)
    e.c.extra_conf += ("\nJobAcctGatherType=jobacct_gather/linux\n"
                       "JobAcctGatherFrequency=1\n"
                       "JobAcctGatherParams=OverMemoryKill,UsePss,DisableGPUAcct\n"
                       "DebugFlags=JobAccountGather")
    try:
        e.start()
        e.start_cluster()
    except BaseException:
        e.stop()
        raise
    yield e
    e.finish()


def _state(env, jid, step, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        r = env.sacct("-P", "-n", "-o", "JobID,State", "-j", str(jid),
                      user=U)
        rows = dict(ln.split("|")[:2] for ln in r.out.splitlines() if "|" in ln)
        if step in rows and rows[step] not in ("RUNNING", "PENDING"):
            return rows
        time.sleep(0.5)
    return rows


def test_over_memory_step_is_killed(env):
    c = env.c
    r = c.run(["srun", "--mem=50M", "python3", "-c", HOG], user=U,
              timeout=60)
    assert r.rc != 0, r
    # a sample may fall while the pages are being touched (killed before
    # "allocated") or after: either way it never survives
    assert "survived" not in r.out, r
    m = re.search(r"slurmstepd: error: StepId=(\d+)\.0 exceeded memory "
                  r"limit \((\d+) > 51200\), being killed", r.err)
    assert m, r.err
    assert int(m.group(2)) > 51200
    jid = int(m.group(1))
    rows = _state(env, jid, "%d.0" % jid)
    assert rows.get("%d.0" % jid) == "OUT_OF_MEMORY", rows


def test_step_within_its_memory_runs(env):
    c = env.c
    r = c.run(["srun", "--mem=400M", "python3", "-c",
               HOG.replace("time.sleep(30)", "time.sleep(2)")], user=U,
              timeout=60)
    assert r.rc == 0, r
    assert "survived" in r.out


def test_unused_words_are_reported_once(env):
    log = env.c.log_text("n1")
    assert len(re.findall(r"JobAcctGatherParams option DisableGPUAcct has "
                          r"no effect", log)) == 1, log[-2000:]


# a parent touches 120 MB, then a child shares those pages (copy on
# write): RSS counts them twice (240 MB), PSS once
SHARED_FORK = ("import os, time; x = bytearray(120 * 1024 * 1024); "
               "x[::4096] = b'1' * len(x[::4096]); pid = os.fork(); "
               "time.sleep(4); print('survived', flush=True); "
               "os._exit(0) if pid == 0 else os.waitpid(pid, 0)")


def test_use_pss_counts_shared_pages_once(env):
    r = env.c.run(["srun", "--mem=200M", "python3", "-c", SHARED_FORK],
                  user=U, timeout=60)
    assert r.rc == 0, r
    assert r.out.count("survived") == 2, r


# 150 MB of shared memory (MAP_SHARED): resident but shared
SHM = ("import mmap, time; m = mmap.mmap(-1, 150 * 1024 * 1024); "
       "m[::4096] = b'1' * len(m[::4096]); time.sleep(4); print('survived')")


def test_no_shared_leaves_shared_pages_out(users):
    c = _start(tag="jagnoshared", nodes=1,
               extra_conf="JobAcctGatherType=jobacct_gather/linux\n"
               "JobAcctGatherFrequency=1\n"
               "JobAcctGatherParams=OverMemoryKill,NoShared\n")
    try:
        r = c.run(["srun", "--mem=60M", "python3", "-c", SHM], user=U,
                  timeout=60)
        assert r.rc == 0, r
        assert "survived" in r.out
        # counted without NoShared: over its 60 MB
        r = c.run(["srun", "--mem=60M", "python3", "-c",
                   SHM.replace("mmap.mmap(-1, 150 * 1024 * 1024)",
                               "bytearray(150 * 1024 * 1024)")],
                  user=U, timeout=60)
        assert r.rc != 0 and "exceeded memory limit" in r.err, r
    finally:
        _stop(c)


def test_jag_flag_logs_samples(env):
    # DebugFlags=JobAccountGather: slurmstepd logs each task's sample
    log = env.c.log_text("n1")
    assert re.search(r"JAG: proc_sample: StepId=\d+\.0 task 0 rss=\d+ KB",
                     log), log[-2000:]
    assert re.search(r"JAG: _over_memory: StepId=\d+\.0 uses \d+ KB of "
                     r"51200 KB", log), log[-2000:]


# 300 MB of address space mapped, almost none of it touched
MAPPER = ("import mmap, time; m = mmap.mmap(-1, 300 * 1024 * 1024); "
          "m[0] = 1; print('mapped', flush=True); time.sleep(20); "
          "print('survived')")


def test_vsize_factor_kills_a_large_address_space(new_cluster):
    """VSizeFactor=100 with OverMemoryKill: a step's virtual size may be
    its memory limit; a step mapping more is killed with Slurm's line
    although its resident size stays small, and one that maps less
    runs."""
    c = new_cluster(tag="vsize", nodes=1, extra_conf=(
        "JobAcctGatherType=jobacct_gather/linux\n"
        "JobAcctGatherFrequency=1\n"
        "JobAcctGatherParams=OverMemoryKill\n"
        "VSizeFactor=100\n"))
    r = c.run(["srun", "--mem=150M", "python3", "-c", MAPPER], user=U,
              timeout=60)
    assert r.rc != 0, r
    assert "mapped" in r.out and "survived" not in r.out, r
    m = re.search(r"slurmstepd: error: StepId=\d+\.0 exceeded virtual "
                  r"memory limit \((\d+) > 153600\), being killed", r.err)
    assert m and int(m.group(1)) > 300 * 1024, r.err
    r = c.run(["srun", "--mem=150M", "python3", "-c",
               MAPPER.replace("300 *", "10 *").replace("sleep(20)",
                                                        "sleep(3)")],
              user=U, timeout=60)
    assert r.rc == 0 and "survived" in r.out, r


def test_vsize_factor_alone_is_reported(users):
    """VSizeFactor without OverMemoryKill limits nothing: slurmd says so
    once when it starts, as it does for the other words it does not use."""
    c = _start(tag="vsizewarn", nodes=1, extra_conf="VSizeFactor=50\n")
    try:
        log = c.log_text("n1")
        assert len(re.findall(r"warning: VSizeFactor=50 has no effect "
                              r"without JobAcctGatherParams=OverMemoryKill",
                              log)) == 1, log[-2000:]
    finally:
        _stop(c)
