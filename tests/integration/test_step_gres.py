"""GRES of job steps: srun --gpus, --gpus-per-node, --gpus-per-task,
--gres (and --gres=none) inside an allocation get that many of the job's
GPUs, not the ones other running steps hold; a step that asks nothing gets
all of them; more than the job has is refused with Slurm's message; a
step whose GPUs are held waits as a CPU-busy step does.

n1, n2: Gres=gpu:2 each, fake device files (gres.conf File=): gres index
i is device 20+i on n1 and 30+i on n2.
"""

import os
import re
import signal
import time

import pytest

import cluster as cl

EXTRA = "GresTypes=gpu\nSlurmdParameters=config_overrides"
U = "sluice_u1"
SHOW = "echo N=$SLURMD_NODENAME CVD=$CUDA_VISIBLE_DEVICES"
BAD = "Invalid generic resource (gres) specification"


@pytest.fixture(scope="module")
def gc(request, users):
    import conftest
    c = conftest._start(tag="stepgres", nodes=2, cpus=4, real_memory=1000,
                        extra_conf=EXTRA, select_params="CR_Core",
                        node_extra="Gres=gpu:2")
    dev = os.path.join(c.dir, "dev")
    os.makedirs(dev, exist_ok=True)
    for i in (20, 21, 30, 31):
        open(os.path.join(dev, "nvidia%d" % i), "w").close()
    c.write_file(None, os.path.join(c.dir, "etc", "gres.conf"),
                 "NodeName=n1 Name=gpu File=%s/nvidia2[0-1]\n"
                 "NodeName=n2 Name=gpu File=%s/nvidia3[0-1]\n" % (dev, dev))
    for n in ("n1", "n2"):
        c.kill_slurmd(n, signal.SIGTERM)
        c.start_slurmd(n)
    c.wait_ready()
    yield c
    conftest._stop(c)


@pytest.fixture
def job(gc):
    """A running 2-node job holding both GPUs of each node (4 CPUs a
    node); cancelled after the test."""
    jid = gc.sbatch(["-N2", "--ntasks-per-node=4", "--gres=gpu:2", "-o",
                     "/dev/null", "--wrap", "sleep 300"], user=U)
    assert gc.wait_state(jid, {"RUNNING"}, 30) == "RUNNING"
    yield jid
    gc.run(["scancel", str(jid)], user=U)
    gc.wait_done(jid, 60)


def step(c, jid, args, timeout=60):
    return c.run(["srun", "--jobid=%d" % jid] + args +
                 ["/bin/sh", "-c", SHOW], user=U, timeout=timeout)


def seen(out):
    """{node: CUDA_VISIBLE_DEVICES} of the tasks' lines."""
    got = {}
    for line in out.splitlines():
        kv = dict(w.split("=", 1) for w in line.split() if "=" in w)
        if "N" in kv:
            got.setdefault(kv["N"], set()).add(kv.get("CVD", ""))
    return got


# ---- refused first ----

@pytest.mark.parametrize("args", [
    ["-N1", "--gpus=3"],
    ["-N1", "--gres=gpu:3"],
    ["-N1", "--gpus-per-node=3"],
    ["-N1", "-n2", "--gpus-per-task=2"],
    ["-N2", "--gpus=5"],
    ["-N1", "--gres=gpu:2,nic:1"],         # a GRES the job does not hold
    ["-N1", "--gres=gpu:a100:1"],          # a type its nodes do not have
])
def test_more_than_the_job_has_is_refused(gc, job, args):
    r = step(gc, job, args)
    assert r.rc == 1, r
    assert r.err.endswith("srun: error: Unable to create step for job %d: "
                          "%s\n" % (job, BAD)), r
    assert "CVD=" not in r.out, r


@pytest.mark.parametrize("spec", ["--gres=gpu:1x", "--gpus=gpu:a:b:c"])
def test_malformed_request_is_refused(gc, job, spec):
    r = step(gc, job, ["-N1", spec])
    assert r.rc != 0, r
    assert "CVD=" not in r.out, r


# ---- what each step gets ----

def test_no_request_gets_all_the_jobs_gpus(gc, job):
    r = step(gc, job, ["-N2", "-n2"])
    assert r.rc == 0, r
    assert seen(r.out) == {"n1": {"20,21"}, "n2": {"30,31"}}, r


def test_gres_none_gets_none(gc, job):
    r = step(gc, job, ["-N1", "-n1", "--gres=none"])
    assert r.rc == 0, r
    assert seen(r.out) == {"n1": {""}}, r


@pytest.mark.parametrize("args", [
    ["-N2", "-n2", "--gpus-per-node=1"],
    ["-N2", "-n2", "--gpus=2"],
    ["-N2", "-n2", "--gpus-per-task=1"],
    ["-N2", "-n2", "--gres=gpu:1"],
    ["-N2", "-n2", "--tres-per-task=gres/gpu:1"],
])
def test_two_nodes_get_one_gpu_each(gc, job, args):
    r = step(gc, job, args)
    assert r.rc == 0, r
    assert seen(r.out) == {"n1": {"20"}, "n2": {"30"}}, r


def test_tasks_are_laid_out_by_their_gpus(gc, job):
    # 4 CPUs a node would put the 4 tasks on n1; 2 GPUs a node put 2 there
    r = step(gc, job, ["-n4", "--gpus-per-task=1"])
    assert r.rc == 0, r
    assert seen(r.out) == {"n1": {"20,21"}, "n2": {"30,31"}}, r
    r = step(gc, job, ["-n5", "--gpus-per-task=1"])
    assert r.rc == 1 and r.err.endswith(BAD + "\n"), r


def test_step_tres_shows_its_gpus(gc, job):
    d = gc.workdir(U)
    out = os.path.join(d, "tres-%d.out" % job)
    script = ("%s --jobid=%d -N1 -n1 --exact --gpus=1 sleep 20 &\n"
              "sleep 3\n%s show steps %d > %s\nkill %%1\nwait\n"
              % (gc.bin("srun"), job, gc.bin("scontrol"), job, out))
    r = gc.run(["/bin/sh", "-c", script], user=U, timeout=60)
    text = open(out).read()
    assert re.search(r"StepId=%d\.\d+ .*" % job, text), (r, text)
    assert "TRES=cpu=1,node=1,gres/gpu=1" in text, (r, text)


# ---- steps side by side ----

CONCURRENT = """\
srun --exact -N1 -n1 --gpus=1 sh -c 'echo A=$CUDA_VISIBLE_DEVICES; sleep 6' \
  > a.out 2>&1 &
srun --exact -N1 -n1 --gpus=1 sh -c 'echo B=$CUDA_VISIBLE_DEVICES; sleep 6' \
  > b.out 2>&1 &
sleep 2
srun --exact -N1 -n1 --gpus=1 sh -c 'echo C=$CUDA_VISIBLE_DEVICES' \
  > c.out 2>&1
echo C_DONE=$(date +%s)
srun --exact -N1 -n1 --overlap --gpus=1 sh -c 'echo D=$CUDA_VISIBLE_DEVICES'\
  > d.out 2>&1
wait
"""


def test_concurrent_steps_get_their_own_gpus_and_a_third_waits(gc):
    c = gc
    d = os.path.join(c.workdir(U), "conc%d" % time.time_ns())
    os.makedirs(d)
    st = os.stat(c.workdir(U))
    os.chown(d, st.st_uid, st.st_gid)
    script = CONCURRENT.replace("srun ", c.bin("srun") + " ")
    path = c.write_file(U, os.path.join(d, "conc.sh"),
                        "#!/bin/sh\n" + script, 0o755)
    t0 = time.time()
    jid = c.sbatch(["-N1", "-w", "n1", "-n3", "--gres=gpu:2", "-o",
                    os.path.join(d, "job.out"), path], user=U, cwd=d)
    assert c.wait_done(jid, 90) == "COMPLETED", open(
        os.path.join(d, "job.out")).read()

    def text(n):
        return open(os.path.join(d, n)).read()

    a = re.search(r"A=(\S*)", text("a.out")).group(1)
    b = re.search(r"B=(\S*)", text("b.out")).group(1)
    assert {a, b} == {"20", "21"}, (text("a.out"), text("b.out"))
    cout = text("c.out")
    assert ("srun: Job %d step creation temporarily disabled, retrying "
            "(Requested nodes are busy)\n" % jid) in cout, cout
    assert re.search(r"srun: Step created for StepId=%d\.\d+\n" % jid,
                     cout), cout
    assert re.search(r"C=2[01]\n", cout), cout
    # it ran only once A or B had ended (they sleep 6 s)
    done = int(re.search(r"C_DONE=(\d+)", text("job.out")).group(1))
    assert done - t0 >= 5, (done - t0, text("job.out"))
    assert re.search(r"D=2[01]\n", text("d.out")), text("d.out")


def test_controller_restart_keeps_the_steps_gpus(gc, job):
    c = gc
    d = c.workdir(U)
    out = os.path.join(d, "held-%d.out" % job)
    holder = c.run(["/bin/sh", "-c",
                    "nohup %s --jobid=%d -N1 -w n1 -n1 --exact --gpus=2 "
                    "sleep 25 > %s 2>&1 &" % (c.bin("srun"), job, out)],
                   user=U)
    assert holder.rc == 0, holder
    cl.wait_for(lambda: "gres/gpu=2" in c.run(
        ["scontrol", "show", "steps", str(job)]).out, 20, "the step running")
    c.kill_ctld(signal.SIGKILL)
    c.start_ctld()
    # the recovered step still shows its GPUs
    cl.wait_for(lambda: "gres/gpu=2" in c.run(
        ["scontrol", "show", "steps", str(job)]).out, 30,
        "the step recovered")
    # n1's GPUs are still the step's: a step asking one there waits
    r = step(c, job, ["-N1", "-w", "n1", "-n1", "--exact", "--gpus=1"],
             timeout=6)
    assert r.rc == -9 and "CVD=" not in r.out, r
    assert "step creation temporarily disabled" in r.err, r
    # on n2 they are free, and a one-task step goes there by itself
    r = step(c, job, ["-N1", "-w", "n2", "-n1", "--exact", "--gpus=1"])
    assert r.rc == 0 and seen(r.out) == {"n2": {"30"}}, r
    r = step(c, job, ["-n1", "--exact", "--gpus=2"], timeout=20)
    assert r.rc == 0 and seen(r.out) == {"n2": {"30,31"}}, r
    assert "temporarily disabled" not in r.err, r


def test_sacct_step_alloc_tres_counts_its_gpus(users):
    """sacct's AllocTRES of a step is its GPUs, not the job's."""
    import mariadb
    if mariadb.missing_tools():
        pytest.skip("MariaDB server not installed: %s"
                    % ", ".join(mariadb.missing_tools()))
    e = mariadb.AcctEnv(tag="stepgrestres", nodes=1, node_extra="Gres=gpu:2")
    e.c.extra_conf += "\nGresTypes=gpu\n"
    try:
        e.start()
        e.start_cluster()
        srun = e.c.bin("srun")
        jid = e.c.sbatch(["-n2", "--gres=gpu:2", "-o", "/dev/null", "--wrap",
                          "%s -n1 --gpus=1 true && %s -n1 --gres=none true"
                          % (srun, srun)], user=U)
        assert e.c.wait_done(jid, 60) == "COMPLETED"
        deadline = time.time() + 90
        rows = {}
        while time.time() < deadline:
            r = e.sacct("-P", "-n", "-o", "JobID,AllocTRES", "-j", str(jid))
            rows = dict(l.split("|", 1) for l in r.out.splitlines()
                        if "|" in l)
            if "%d.1" % jid in rows:
                break
            time.sleep(0.5)
        assert "gres/gpu=2" in rows.get(str(jid), ""), rows
        assert rows.get("%d.0" % jid, "").endswith(",gres/gpu=1"), rows
        assert "gres/gpu" not in rows.get("%d.1" % jid, "x"), rows
    finally:
        e.finish()
