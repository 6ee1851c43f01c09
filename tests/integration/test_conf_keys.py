"""slurm.conf keys: what each does, what is refused, what is logged as
having no effect (src/common/conf_use.c holds the table; its unit test
walks it and names these tests for the implemented keys they cover).

- keys that act: FirstJobId, MaxArraySize, MaxJobCount, MinJobAge,
  PriorityWeightTRES, PreemptExemptTime,
  DefMemPerCPU/MaxMemPerCPU, DefMemPerNode/MaxMemPerNode, TmpFS,
  SchedulerParameters=enable_user_top;
- a refused value stops slurmctld at start and leaves a running one
  untouched on scontrol reconfigure, naming file:line and key;
- a site's config (data/site/: ~60 keys, four partitions, GRES, a
  job_submit.lua and plugstack.conf) starts, and each daemon's log lists
  exactly the keys that are not in force, once.
"""

import os
import re
import shutil
import time

import pytest

import cluster as cl

HERE = os.path.dirname(os.path.abspath(__file__))
SITE = os.path.join(HERE, "data", "site")
U = "sluice_u1"
FAILED = "sbatch: error: Batch job submission failed: %s\n"

KEYS = "\n".join([
    "FirstJobId=5000",
    "MaxArraySize=4",
    "DefMemPerCPU=100",
    "MaxMemPerCPU=300",
    "SchedulerParameters=enable_user_top",
    "PartitionName=mem Nodes=n[1-2] DefMemPerNode=200 MaxMemPerNode=400",
])


def _mb(path):
    st = os.statvfs(path)
    return st.f_blocks * st.f_frsize // (1024 * 1024)


@pytest.fixture(scope="module")
def kc(users):
    import conftest
    import subprocess
    import tempfile
    # a file system 1 GiB larger than /tmp, and nodes configured with more
    # TmpDisk than /tmp has: only TmpFS=<it> keeps them from draining
    tmpfs = tempfile.mkdtemp(prefix="sluice-tmpfs-")
    size = _mb("/tmp") + 1024
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=%dm" % size, "tmpfs",
                    tmpfs], check=True)
    try:
        c = conftest._start(tag="ckeys", nodes=2, min_job_age=3,
                            extra_conf=KEYS + "\nTmpFS=%s" % tmpfs,
                            node_extra="TmpDisk=%d" % (size - 512))
        yield c
        conftest._stop(c)
    finally:
        subprocess.run(["umount", tmpfs])
        os.rmdir(tmpfs)


def test_first_job_id(kc):
    """FirstJobId: the first job gets it; MaxJobId bounds it (checked at
    load: FirstJobId above MaxJobId is an error)."""
    jid = kc.sbatch(["--wrap", "true"], user=U)
    assert 5000 <= jid < 5100, jid


def test_max_array_size(kc):
    """MaxArraySize=4: indexes 0-3 are accepted, 0-4 refused."""
    r = kc.run(["sbatch", "--array=0-4", "--wrap", "true"], user=U)
    assert (r.rc, r.err) == (1, FAILED % "Invalid job array specification"), r
    jid = kc.sbatch(["--array=0-3", "--hold", "--wrap", "true"], user=U)
    kc.run(["scancel", str(jid)])


def test_mem_per_cpu(kc):
    """DefMemPerCPU is a job's memory when it asks none; more than
    MaxMemPerCPU is refused."""
    jid = kc.sbatch(["--hold", "--wrap", "true"], user=U)
    assert kc.show_job(jid)["MinMemoryCPU"] == "100M"
    kc.run(["scancel", str(jid)])
    r = kc.run(["sbatch", "--mem-per-cpu=400", "--wrap", "true"], user=U)
    assert (r.rc, r.err) == (
        1, FAILED % "Memory required by task is not available"), r


def test_mem_per_node(kc):
    """A partition's DefMemPerNode and MaxMemPerNode."""
    jid = kc.sbatch(["-p", "mem", "--hold", "--wrap", "true"], user=U)
    assert kc.show_job(jid)["MinMemoryNode"] == "200M"
    kc.run(["scancel", str(jid)])
    r = kc.run(["sbatch", "-p", "mem", "--mem=500", "--wrap", "true"],
               user=U)
    assert (r.rc, r.err) == (
        1, FAILED % "Memory required by task is not available"), r


def test_tmp_fs(kc):
    """TmpFS: slurmd measures that file system, so nodes configured with
    more TmpDisk than /tmp has register without a "Low TmpDisk" drain."""
    for name, rec in kc.show_nodes().items():
        assert "DRAIN" not in rec["State"], (name, rec)
        assert int(rec["TmpDisk"]) > _mb("/tmp"), rec


def test_enable_user_top(kc):
    """SchedulerParameters=enable_user_top: a user may put his own job at
    the top (operators only without it)."""
    later = ["--begin=now+1hour", "--wrap", "true"]
    a = kc.sbatch(later, user=U)
    b = kc.sbatch(later, user=U)
    r = kc.run(["scontrol", "top", str(b)], user=U)
    try:
        assert r.rc == 0, r
        assert int(kc.show_job(b)["Priority"]) >= int(
            kc.show_job(a)["Priority"])
    finally:
        kc.run(["scancel", str(a), str(b)])


def test_min_job_age(kc):
    """MinJobAge=3: an ended job leaves the controller's list within
    seconds (the harness's default keeps it ten minutes)."""
    jid = kc.sbatch(["--wrap", "true"], user=U)
    kc.wait_done(jid)
    deadline = time.time() + 40
    while time.time() < deadline and kc.show_job(jid):
        time.sleep(0.5)
    assert not kc.show_job(jid)
    r = kc.run(["scontrol", "show", "job", str(jid)])
    assert "Invalid job id specified" in r.err, r


def test_max_job_count(new_cluster, users):
    """MaxJobCount=2: a third job is refused while two are kept."""
    c = new_cluster(nodes=1, extra_conf="MaxJobCount=2")
    ids = [c.sbatch(["--hold", "--wrap", "true"], user=U) for _ in range(2)]
    r = c.run(["sbatch", "--hold", "--wrap", "true"], user=U, timeout=20)
    assert r.rc != 0 and "Submitted" not in r.out, r
    assert sorted(int(j) for j in c.all_job_states()) == sorted(ids)


# ---- refused at start, kept out on reconfigure --------------------------

def _line_of(path, text):
    with open(path) as f:
        for i, line in enumerate(f, 1):
            if line.startswith(text):
                return i
    raise AssertionError("%s not in %s" % (text, path))


def test_refused_key_stops_slurmctld(new_cluster):
    """A value Sluice cannot honour: slurmctld does not start, saying
    file:line, key and why; on a running controller scontrol reconfigure
    keeps the old config and says the same."""
    c = new_cluster(nodes=1)
    saved = c.extra_conf
    old = c.conf + ".old"      # what the commands read meanwhile
    shutil.copy(c.conf, old)
    c.extra_conf = saved + "\nAccountingStorageBackupHost=dbd2\n"
    try:
        c.write_conf()
        line = _line_of(c.conf, "AccountingStorageBackupHost=")
        want = "%s:%d: AccountingStorageBackupHost=dbd2: not supported: " \
               "the controller does not fail over to a second slurmdbd" % (
                   c.conf, line)
        r = c.run(["sinfo"])
        assert r.rc == 1 and want in r.err, r
        r = c.run(["scontrol", "reconfigure"], conf=old)
        assert r.rc != 0, r
        assert c.ctld.alive()
        with open(c.ctld_log) as f:
            assert "Reconfigure failed, keeping the old config: " + want \
                in f.read()
        r = c.run(["sbatch", "--wrap", "true"], user=U, conf=old)
        assert r.rc == 0, r
        r = c.run([c.bin("slurmctld"), "-D", "-f", c.conf], timeout=20)
        assert r.rc != 0, r
        assert "slurmctld: fatal: " + want in r.err, r
    finally:
        c.extra_conf = saved
        c.write_conf()


# ---- a site's config ------------------------------------------------------

# What the site sets that has no effect in Sluice, as the logs say it.
NOT_IN_FORCE = [
    ("SlurmctldParameters=", "SlurmctldParameters option "
     "enable_job_state_cache has no effect"),
    ("SchedulerParameters=", "SchedulerParameters option max_rpc_cnt has "
     "no effect"),
    ("CpuFreqGovernors=", "CpuFreqGovernors has no effect"),
]


def _not_in_force_lines(path):
    with open(path) as f:
        return [l for l in f.read().splitlines()
                if "has no effect (" in l]


@pytest.fixture(scope="module")
def site(users):
    import conftest
    with open(os.path.join(SITE, "slurm.conf")) as f:
        conf = f.read()
    c = cl.Cluster(tag="site", nodes=4, extra_conf=conf,
                   node_extra={"n4": "Gres=gpu:2"})
    conftest._ACTIVE.append(c)
    try:
        etc = os.path.join(c.dir, "etc")
        dev = os.path.join(c.dir, "dev")
        os.makedirs(dev, exist_ok=True)
        for i in range(2):
            open(os.path.join(dev, "nvidia%d" % i), "w").close()
        with open(os.path.join(SITE, "gres.conf")) as f:
            c.write_file(None, os.path.join(etc, "gres.conf"),
                         f.read().replace("@DEV@", dev))
        shutil.copy(os.path.join(SITE, "job_submit.lua"), etc)
        spank = os.path.join(c.dir, "spank")
        os.makedirs(spank, exist_ok=True)
        os.chmod(spank, 0o755)
        demo = os.path.join(os.environ.get("SLUICE_BUILD_DIR", os.path.join(
            cl.REPO, "build")), "tests", "spank", "demo_spank.so")
        if os.path.exists(demo):
            shutil.copy(demo, spank)
            os.chmod(os.path.join(spank, "demo_spank.so"), 0o755)
        with open(os.path.join(SITE, "plugstack.conf")) as f:
            c.write_file(None, os.path.join(etc, "plugstack.conf"),
                         f.read().replace("@SPANK@", spank))
        c.start()
    except BaseException:
        conftest._stop(c, keep=True)
        raise
    yield c
    conftest._stop(c)


def test_site_config_starts_and_logs_what_is_not_in_force(site):
    """Each daemon logs, once each, exactly the site's keys that have no
    effect, with file and line."""
    want = sorted("%s:%d: %s" % (site.conf, _line_of(site.conf, key), text)
                  for key, text in NOT_IN_FORCE)
    for log in [site.ctld_log] + [site.slurmd_log(n)
                                  for n in site.node_names]:
        # by text, not by time: a line may fall in the next millisecond
        got = sorted(_not_in_force_lines(log),
                     key=lambda l: l.split(" warning: ", 1)[-1])
        assert len(got) == len(want), (log, got)
        for g, w in zip(got, want):
            assert w in g and " warning: " in g, (log, g, w)


def test_site_config_takes_jobs(site):
    """The site's job_submit.lua acts first; then the association check
    (AccountingStorageEnforce) refuses the job: the site's slurmdbd is
    not there to name its accounts."""
    r = site.run(["sbatch", "-p", "long", "--wrap", "true"], user=U)
    assert r.rc == 1 and r.err.endswith(
        "sbatch: error: jobs in long must give --time\n" + FAILED %
        "Requested time limit is invalid (missing or exceeds some limit)"), r
    r = site.run(["sbatch", "-p", "long", "-t", "1", "--wrap", "true"],
                 user=U)
    assert r.rc == 1 and r.err.endswith(FAILED % "Invalid account or "
                                        "account/partition combination "
                                        "specified"), r


def test_priority_weight_tres(new_cluster):
    """PriorityWeightTRES=CPU=1000: a job asking for every CPU of the
    cluster gets the whole weight in its priority (sprio's TRES column)."""
    c = new_cluster(nodes=1, cpus=2, extra_conf="\n".join([
        "PriorityType=priority/multifactor",
        "PriorityWeightTRES=CPU=1000",
        "PriorityCalcPeriod=1"]))
    jid = c.sbatch(["-n", "2", "--begin=now+1hour", "--wrap", "true"],
                   user=U)
    r = c.run(["sprio", "-h", "-o", "%i %Y %T", "-j%d" % jid])
    assert r.rc == 0, r
    assert r.out.split() == [str(jid), "1000", "cpu=1000"], r


def test_preempt_exempt_time(new_cluster):
    """PreemptExemptTime=0:08: a running job of a low tier is not preempted
    before it has run 8 s; then it is requeued for the high tier's job."""
    c = new_cluster(nodes=1, cpus=1, extra_conf="\n".join([
        "PreemptType=preempt/partition_prio", "PreemptMode=REQUEUE",
        "PreemptExemptTime=0:08", "JobRequeue=1",
        "PartitionName=low Nodes=n1 PriorityTier=1",
        "PartitionName=high Nodes=n1 PriorityTier=2"]))
    low = c.sbatch(["-p", "low", "--wrap", "sleep 300"], user=U)
    c.wait_state(low, "RUNNING")
    started = time.time()
    high = c.sbatch(["-p", "high", "--wrap", "sleep 300"], user=U)
    time.sleep(4)
    assert c.job_state(low) == "RUNNING" and c.job_state(high) == "PENDING"
    c.wait_state(high, "RUNNING", timeout=40)
    assert time.time() - started >= 7
    assert c.job_state(low) in ("PENDING", "REQUEUED", "COMPLETING")
    c.run(["scancel", str(low), str(high)])


def test_priority_flags_accrue_always(new_cluster):
    """PriorityFlags=ACCRUE_ALWAYS: a job not yet eligible (--begin later)
    accrues age (without it, age counts from the begin time)."""
    c = new_cluster(nodes=1, extra_conf="\n".join([
        "PriorityType=priority/multifactor", "PriorityWeightAge=60000",
        "PriorityMaxAge=0:01:00", "PriorityCalcPeriod=1",
        "PriorityFlags=ACCRUE_ALWAYS"]))
    jid = c.sbatch(["--begin=now+1hour", "--wrap", "true"], user=U)
    time.sleep(4)
    r = c.run(["sprio", "-h", "-o", "%i %A", "-j%d" % jid])
    assert r.rc == 0 and int(r.out.split()[1]) >= 2000, r
