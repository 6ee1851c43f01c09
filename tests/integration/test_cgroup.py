"""Process containers: proctrack/cgroup + task/cgroup with cgroup.conf.

The machine's hierarchy is whatever it is (v2, v1 or a mix): slurmstepd
detects it.  Where it finds no writable controller for what a test needs,
it logs "cgroup: not used for StepId=... (REASON)" and the test skips
with that reason.
"""

import os
import re
import stat
import time

import pytest

import cluster as cl
from conftest import _start, _stop

CGROUP_CONF = """# test cgroup.conf
ConstrainCores=yes
ConstrainRAMSpace=yes
AllowedRAMSpace=100
ConstrainSwapSpace=yes
AllowedSwapSpace=0
"""


@pytest.fixture(scope="module")
def cg_cluster(users):
    c = _start(tag="cgroup", nodes=2,
               extra_conf="ProctrackType=proctrack/cgroup\n"
                          "TaskPlugin=task/affinity,task/cgroup\n")
    c.write_file(None, os.path.join(c.dir, "etc", "cgroup.conf"), CGROUP_CONF)
    yield c
    _stop(c)


def _skip_if_unused(c, jobid):
    for n in c.node_names:
        try:
            text = open(c.slurmd_log(n)).read()
        except OSError:
            continue
        m = re.search(r"cgroup: not used for StepId=%d\.\S+ \((.*)\)" % jobid,
                      text)
        if m:
            pytest.skip("no usable cgroup hierarchy: " + m.group(1))


def _run(c, script, args, name, user="sluice_u1", timeout=60):
    wd = c.workdir(user)
    c.write_file(user, os.path.join(wd, name + ".sh"), script, 0o755)
    jobid = c.sbatch(args + ["-o", name + ".out", name + ".sh"], user=user,
                     cwd=wd)
    st = c.wait_done(jobid, timeout=timeout)
    try:
        out = open(os.path.join(wd, name + ".out")).read()
    except OSError:
        out = ""
    return jobid, st, out


def test_oom_job_ends_out_of_memory(cg_cluster):
    c = cg_cluster
    script = """#!/bin/sh
cat /proc/self/cgroup
python3 -c 'x = b"a" * (300 << 20); print("survived")'
echo script-end
"""
    jobid, st, out = _run(c, script, ["--mem=60M", "-w", "n1"], "oom")
    _skip_if_unused(c, jobid)
    assert re.search(r"/slurm_n1/uid_\d+/job_%d/step_batch$" % jobid, out,
                     re.M), out
    assert "survived" not in out
    assert ("slurmstepd: error: Detected 1 oom-kill event(s) in StepId=%d.batch. "
            "Some of your processes may have been killed by the cgroup "
            "out-of-memory handler.\n" % jobid) in out
    assert st == "OUT_OF_MEMORY", c.show_job(jobid)
    rec = c.show_job(jobid)
    assert rec["Reason"] == "OutOfMemory"
    assert rec["ExitCode"] == "0:125"


def test_within_mem_completes(cg_cluster):
    c = cg_cluster
    script = """#!/bin/sh
python3 -c 'x = b"a" * (20 << 20); print("fine")'
"""
    jobid, st, out = _run(c, script, ["--mem=100M", "-w", "n2"], "fits")
    _skip_if_unused(c, jobid)
    assert out == "fine\n"
    assert st == "COMPLETED"


def test_cores_and_reparented_daemon(cg_cluster):
    """ConstrainCores: the job's one CPU (node CPU ids mapped onto the
    machine); proctrack/cgroup: a daemon that left the script's session
    is in the step's cgroup and is killed when the job ends."""
    c = cg_cluster
    wd = c.workdir("sluice_u1")
    pidfile = os.path.join(wd, "daemon.pid")
    script = """#!/bin/sh
grep Cpus_allowed_list /proc/self/status
setsid sh -c 'echo $$ > %s; exec sleep 300' < /dev/null > /dev/null 2>&1 &
sleep 1
""" % pidfile
    jobid, st, out = _run(c, script, ["-n1", "-w", "n2"], "cores")
    _skip_if_unused(c, jobid)
    assert st == "COMPLETED", out
    m = re.search(r"Cpus_allowed_list:\s*(\S+)", out)
    ncpu = os.cpu_count()
    allowed = m.group(1)
    assert re.fullmatch(r"\d+", allowed), out   # one CPU, as allocated
    assert int(allowed) < ncpu
    pid = int(open(pidfile).read())
    deadline = time.time() + 10
    while time.time() < deadline and os.path.exists("/proc/%d" % pid):
        time.sleep(0.2)
    assert not os.path.exists("/proc/%d" % pid), "daemon survived the job"


def test_srun_step_oom(cg_cluster):
    c = cg_cluster
    r = c.run(["srun", "--mem=60M", "-w", "n1", "python3", "-c",
               'x = b"a" * (300 << 20); print("survived")'],
              user="sluice_u1", cwd=c.workdir("sluice_u1"), timeout=60)
    m = re.search(r"StepId=(\d+)\.0", r.err)
    if not m:
        jobs = c.all_job_states()
        for jid in jobs:
            _skip_if_unused(c, int(jid))
    assert m, r
    jobid = int(m.group(1))
    assert "survived" not in r.out
    assert ("slurmstepd: error: Detected 1 oom-kill event(s) in StepId=%d.0. "
            "Some of your processes may have been killed by the cgroup "
            "out-of-memory handler.\n" % jobid) in r.err, r
    assert "srun: error: n1: task 0: Out Of Memory\n" in r.err, r
    assert r.rc != 0
    assert "StepId=%d.0 State=OUT_OF_MEMORY" % jobid in open(c.ctld_log).read()


def test_v2_tracking_on_hybrid_unified_tree(cg_cluster):
    """CgroupPlugin=cgroup/v2 on a hybrid machine's v2 tree: the step is
    tracked there (cgroup.procs, cgroup.freeze, cgroup.kill) even without
    v2 controllers; where /sys/fs/cgroup is pure v2 the tests above cover
    v2 already."""
    c = cg_cluster
    unified = "/sys/fs/cgroup/unified"
    if os.path.realpath("/sys/fs/cgroup") == unified or \
            not os.path.exists(os.path.join(unified, "cgroup.procs")):
        pytest.skip("no hybrid v2 tree at %s" % unified)
    conf = os.path.join(c.dir, "etc", "cgroup.conf")
    wd = c.workdir("sluice_u1")
    pidfile = os.path.join(wd, "v2daemon.pid")
    c.write_file(None, conf, "CgroupPlugin=cgroup/v2\nCgroupMountpoint=%s\n"
                 % unified)
    try:
        script = """#!/bin/sh
cat /proc/self/cgroup
setsid sh -c 'echo $$ > %s; exec sleep 300' < /dev/null > /dev/null 2>&1 &
sleep 1
""" % pidfile
        jobid, st, out = _run(c, script, ["-w", "n1"], "v2track")
    finally:
        c.write_file(None, conf, CGROUP_CONF)
    _skip_if_unused(c, jobid)
    assert st == "COMPLETED", out
    assert re.search(r"^0::/slurm_n1/uid_\d+/job_%d/step_batch$" % jobid, out,
                     re.M), out
    pid = int(open(pidfile).read())
    deadline = time.time() + 10
    while time.time() < deadline and os.path.exists("/proc/%d" % pid):
        time.sleep(0.2)
    assert not os.path.exists("/proc/%d" % pid), "daemon survived the job"
    assert not os.path.exists(os.path.join(unified, "slurm_n1", "uid_%d" % 
                              os.stat(wd).st_uid, "job_%d" % jobid))


# ---- ConstrainDevices ----------------------------------------------------

DEV_CHECK = r"""
echo "$1 cuda=$CUDA_VISIBLE_DEVICES"
for i in 0 1; do
    if head -c 1 %(dev)s/gpu$i > /dev/null 2> %(wd)s/err.$1.$i; then
        echo "$1 gpu$i=ok"
    else
        echo "$1 gpu$i=$(cat %(wd)s/err.$1.$i)"
    fi
done
"""


@pytest.fixture(scope="module")
def dev_cluster(users):
    """One node with two fake GPUs: character devices made by the test
    (the kernel's 1:7 /dev/full and 1:8 /dev/random, under other names),
    named by gres.conf File=."""
    c = _start(tag="cgdev", nodes=1,
               extra_conf="ProctrackType=proctrack/cgroup\n"
                          "TaskPlugin=task/cgroup\nGresTypes=gpu,shard\n",
               node_extra="Gres=gpu:2,shard:4")
    dev = os.path.join(c.dir, "dev")
    os.makedirs(dev)
    os.chmod(dev, 0o755)
    for i, minor in enumerate((7, 8)):
        p = os.path.join(dev, "gpu%d" % i)
        os.mknod(p, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
        os.chmod(p, 0o666)
    c.dev = dev
    c.write_file(None, os.path.join(c.dir, "etc", "gres.conf"),
                 "Name=gpu File=%s/gpu[0-1]\n" % dev)
    c.write_file(None, os.path.join(c.dir, "etc", "cgroup.conf"),
                 "ConstrainDevices=yes\n")
    yield c
    _stop(c)


def _skip_without_devices(c, jobid):
    _skip_if_unused(c, jobid)
    text = open(c.slurmd_log("n1")).read()
    m = re.search(r"cgroup: ConstrainDevices for StepId=%d\.\S+ not "
                  r"applied: (.*)" % jobid, text)
    if m:
        pytest.skip(m.group(1))


def test_constrain_devices_job_opens_only_its_gpu(dev_cluster):
    c = dev_cluster
    wd = c.workdir("sluice_u1")
    check = c.write_file("sluice_u1", os.path.join(wd, "devcheck.sh"),
                         DEV_CHECK % {"dev": c.dev, "wd": wd}, 0o755)
    script = "#!/bin/sh\n%s batch\n%s -n1 %s step\n" % (
        check, c.bin("srun"), check)
    jobid, st, out = _run(c, script, ["--gres=gpu:1"], "devjob")
    _skip_without_devices(c, jobid)
    assert st == "COMPLETED", out
    denied = ("head: cannot open '%s/gpu1' for reading: Operation not "
              "permitted" % c.dev)
    for who in ("batch", "step"):
        assert "%s cuda=0\n" % who in out, out
        assert "%s gpu0=ok\n" % who in out, out
        assert "%s gpu1=%s\n" % (who, denied) in out, out
    # a job without GPUs opens neither
    jobid, st, out = _run(c, "#!/bin/sh\n%s batch\n" % check, [], "devnone")
    assert st == "COMPLETED", out
    for i in (0, 1):
        assert ("batch gpu%d=head: cannot open '%s/gpu%d' for reading: "
                "Operation not permitted\n" % (i, c.dev, i)) in out, out


def test_constrain_devices_shard_job_opens_its_gpu(dev_cluster):
    """A job given shards may open the GPU they are on, no other."""
    c = dev_cluster
    wd = c.workdir("sluice_u1")
    check = c.write_file("sluice_u1", os.path.join(wd, "devcheck.sh"),
                         DEV_CHECK % {"dev": c.dev, "wd": wd}, 0o755)
    jobid, st, out = _run(c, "#!/bin/sh\n%s batch\n" % check,
                          ["--gres=shard:1"], "devshard")
    _skip_without_devices(c, jobid)
    assert st == "COMPLETED", out
    assert "batch cuda=0\n" in out, out
    assert "batch gpu0=ok\n" in out, out
    assert ("batch gpu1=head: cannot open '%s/gpu1' for reading: Operation "
            "not permitted\n" % c.dev) in out, out


def test_constrain_devices_lists_count_from_the_jobs_first_gpu(dev_cluster):
    """Under ConstrainDevices CUDA sees only the job's GPUs, so the CUDA
    lists count from 0 (Slurm's local index); SLURM_JOB_GPUS and
    SLURM_STEP_GPUS keep the node's numbers; --gpu-bind ids count the
    job's GPUs."""
    c = dev_cluster
    wd = c.workdir("sluice_u1")
    hold = c.sbatch(["--gres=gpu:1", "-o", "/dev/null", "--wrap",
                     "/usr/bin/sleep 60"], user="sluice_u1", cwd=wd)
    c.wait_state(hold, "RUNNING", 30)          # it holds gpu0
    show = ("echo $1 cuda=$CUDA_VISIBLE_DEVICES rocr=$ROCR_VISIBLE_DEVICES "
            "job=$SLURM_JOB_GPUS step=$SLURM_STEP_GPUS")
    script = "#!/bin/sh\n%s\n%s -n1 --gpu-bind=map_gpu:0 /bin/sh -c '%s' " \
             "x step\n" % (show.replace("$1", "batch"), c.bin("srun"),
                            show.replace("$1", "step"))
    jobid, st, out = _run(c, script, ["--gres=gpu:1"], "devlocal")
    c.run(["scancel", str(hold)])
    c.wait_done(hold, 30)
    _skip_without_devices(c, jobid)
    assert st == "COMPLETED", out
    assert "batch cuda=0 rocr=0 job=1 step=\n" in out, out
    assert "step cuda=0 rocr=0 job=1 step=1\n" in out, out
    assert "names no GPU" not in out, out


SIGNAL_SCRIPT = """#!/bin/bash
trap 'echo parent-usr1; got=1' USR1
got=0
bash -c 'trap "echo child-usr1" USR1
for i in $(seq 100); do sleep 0.1; done' &
echo ready
for i in $(seq 200); do [ $got = 1 ] && break; sleep 0.1; done
sleep 2
kill %1 2>/dev/null
echo parent-end
"""


def _signal_batch(c, name):
    wd = c.workdir("sluice_u1")
    out = os.path.join(wd, name + ".out")
    c.write_file("sluice_u1", os.path.join(wd, name + ".sh"), SIGNAL_SCRIPT,
                 0o755)
    jobid = c.sbatch(["-w", "n1", "-o", name + ".out", name + ".sh"],
                     user="sluice_u1", cwd=wd)
    cl.wait_for(lambda: os.path.exists(out) and "ready" in open(out).read(),
                timeout=30, what="the script to start")
    r = c.run(["scancel", "--full", "-s", "USR1", str(jobid)], user="sluice_u1")
    assert r.rc == 0, r.err
    st = c.wait_done(jobid)
    _skip_if_unused(c, jobid)
    return st, open(out).read()


def test_signal_reaches_tasks_only(cg_cluster):
    """proctrack/cgroup signals the step's tasks (the batch shell), not
    their children, unless SignalChildrenProcesses=yes; SIGKILL at the
    end still reaches every process (test_cores_and_reparented_daemon)."""
    c = cg_cluster
    conf = os.path.join(c.dir, "etc", "cgroup.conf")
    st, out = _signal_batch(c, "sig_tasks")
    assert st == "COMPLETED", out
    assert "parent-usr1" in out and "parent-end" in out, out
    assert "child-usr1" not in out, out
    try:
        c.write_file(None, conf,
                     CGROUP_CONF + "SignalChildrenProcesses=yes\n")
        st, out = _signal_batch(c, "sig_children")
    finally:
        c.write_file(None, conf, CGROUP_CONF)
    assert st == "COMPLETED", out
    assert "parent-usr1" in out and "child-usr1" in out, out


def test_max_ram_percent_caps_the_limit(cg_cluster):
    """MaxRAMPercent bounds the RAM limit by a share of the node's
    RealMemory whatever --mem asks: 300 MB fit in --mem=1000M, not under
    MaxRAMPercent=0.5 of this node (~120 MB)."""
    c = cg_cluster
    conf = os.path.join(c.dir, "etc", "cgroup.conf")
    script = """#!/bin/sh
python3 -c 'x = b"a" * (300 << 20); print("survived")'
"""
    jobid, st, out = _run(c, script, ["--mem=1000M", "-w", "n1"], "maxram0")
    _skip_if_unused(c, jobid)
    assert st == "COMPLETED" and "survived" in out, out
    try:
        c.write_file(None, conf, CGROUP_CONF + "MaxRAMPercent=0.5\n")
        jobid, st, out = _run(c, script, ["--mem=1000M", "-w", "n1"],
                              "maxram1")
    finally:
        c.write_file(None, conf, CGROUP_CONF)
    assert "survived" not in out, out
    assert st == "OUT_OF_MEMORY", c.show_job(jobid)
