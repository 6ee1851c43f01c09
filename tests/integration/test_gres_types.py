"""Generic GRES: typed GPUs, a counted site GRES (nic, more than 64 a
node), shards sharing a GPU and MPS percentages, with the environment a
job sees, what scontrol/squeue show, and what is refused at submit.

n1: Gres=gpu:a100:2,gpu:h100:1,nic:100,shard:6  (2 shards a GPU)
n2: Gres=gpu:h100:2,mps:200                     (mps:100 a GPU)
GPUs are fake device files named by gres.conf File=.
"""

import ctypes.util
import os
import re
import signal
import time

import pytest

EXTRA = "\n".join([
    "GresTypes=gpu,nic,shard,mps",
    "AccountingStorageTRES=gres/gpu,gres/gpu:a100,gres/gpu:h100,gres/nic",
    "SlurmdParameters=config_overrides",
])
N1 = "Gres=gpu:a100:2,gpu:h100:1,nic:100,shard:6"
N2 = "Gres=gpu:h100:2,mps:200"


@pytest.fixture(scope="module")
def gres_cluster(request, users):
    import conftest
    c = conftest._start(tag="grestypes", nodes=2, cpus=4, real_memory=1000,
                        extra_conf=EXTRA, select_params="CR_Core_Memory",
                        node_extra={"n1": N1, "n2": N2})
    dev = os.path.join(c.dir, "dev")
    os.makedirs(dev, exist_ok=True)
    for i in range(3):
        open(os.path.join(dev, "nvidia%d" % (10 + i)), "w").close()
    c.write_file(None, os.path.join(c.dir, "etc", "gres.conf"),
                 "# fake GPUs\nAutoDetect=nvml\n"
                 "NodeName=n1 Name=gpu Type=a100 File=%s/nvidia1[0-1]\n"
                 "NodeName=n1 Name=gpu Type=h100 File=%s/nvidia12\n"
                 "NodeName=n1 Name=nic Count=100\n"
                 "NodeName=n1 Name=shard Count=6\n"
                 "NodeName=n2 Name=gpu Type=h100 File=%s/nvidia1[1-2]\n"
                 "NodeName=n2 Name=mps Count=200\n" % (dev, dev, dev))
    # slurmd reads gres.conf (AutoDetect) when it starts: start them again
    for n in ("n1", "n2"):
        c.kill_slurmd(n, signal.SIGTERM)
        c.start_slurmd(n)
    c.wait_ready()
    yield c
    conftest._stop(c)


ENV = ("echo CVD=$CUDA_VISIBLE_DEVICES SHARDS=$SLURM_SHARDS_ON_NODE "
       "MPS=$CUDA_MPS_ACTIVE_THREAD_PERCENTAGE GPUS=$SLURM_GPUS_ON_NODE")


def job(c, args, name, sleep=30):
    d = c.workdir("sluice_u1")
    out = os.path.join(d, "%s.out" % name)
    jid = c.sbatch(["-J", name, "-o", out] + args + [
        "--wrap", "%s; /usr/bin/sleep %d" % (ENV, sleep)], user="sluice_u1")
    return jid, out


def env_of(path, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if os.path.exists(path) and open(path).read().strip():
            line = open(path).read().strip().splitlines()[0]
            return dict(kv.split("=", 1) for kv in line.split())
        time.sleep(0.2)
    raise AssertionError("no output in %s" % path)


def show_d(c, jid):
    r = c.run(["scontrol", "-d", "show", "job", str(jid)])
    assert r.rc == 0, r
    return r.out


def node_field(c, node, key):
    r = c.run(["scontrol", "-d", "show", "node", node])
    assert r.rc == 0, r
    m = re.search(r"\b%s=(\S*)" % key, r.out)
    return m.group(1) if m else None


def finish(c, *jids):
    for j in jids:
        c.run(["scancel", str(j)])
    for j in jids:
        c.wait_done(j, 30)


def test_typed_gpu_request(gres_cluster):
    c = gres_cluster
    jid, out = job(c, ["--gres=gpu:h100:1", "-w", "n1"], "h100")
    c.wait_state(jid, "RUNNING", 30)
    env = env_of(out)
    assert env["CVD"] == "12", env           # n1's h100 is /dev/nvidia12
    assert env["GPUS"] == "1", env
    assert "GRES=gpu:h100:1(IDX:2)" in show_d(c, jid)
    rec = c.show_job(jid)
    assert rec["TresPerNode"] == "gres/gpu:h100:1", rec
    assert "gres/gpu=1" in rec["TRES"] and "gres/gpu:h100=1" in rec["TRES"], rec
    assert node_field(c, "n1", "GresUsed") == (
        "gpu:a100:0(IDX:N/A),gpu:h100:1(IDX:2),nic:0,shard:0")
    r = c.run(["squeue", "-h", "-j", str(jid), "-o", "%b"])
    assert r.out.strip() == "gres/gpu:h100:1", r
    r = c.run(["sinfo", "-h", "-n", "n1", "-o", "%G"])
    assert r.out.strip() == N1.split("=", 1)[1], r
    # an untyped GPU takes one of the a100s; the h100 stays held
    j2, out2 = job(c, ["--gres=gpu:1", "-w", "n1"], "anygpu")
    c.wait_state(j2, "RUNNING", 30)
    assert env_of(out2)["CVD"] == "10"
    assert "GRES=gpu:a100:1(IDX:0)" in show_d(c, j2)
    finish(c, jid, j2)
    assert node_field(c, "n1", "GresUsed") == (
        "gpu:a100:0(IDX:N/A),gpu:h100:0(IDX:N/A),nic:0,shard:0")


def test_gpus_typed_goes_where_the_type_is(gres_cluster):
    c = gres_cluster
    jid, out = job(c, ["--gpus=h100:2"], "twoh100")
    c.wait_state(jid, "RUNNING", 30)
    assert c.show_job(jid)["NodeList"] == "n2"
    assert env_of(out)["CVD"] == "11,12"
    finish(c, jid)


def test_shards_share_one_gpu(gres_cluster):
    c = gres_cluster
    a, out_a = job(c, ["--gres=shard:1", "-w", "n1"], "sharda")
    b, out_b = job(c, ["--gres=shard:1", "-w", "n1"], "shardb")
    for j in (a, b):
        c.wait_state(j, "RUNNING", 30)
    ea, eb = env_of(out_a), env_of(out_b)
    for e in (ea, eb):
        assert e["SHARDS"] == "1", e
    # both on the same GPU (the fullest one with room)
    assert ea["CVD"] == eb["CVD"] == "10", (ea, eb)
    assert "GRES=shard:1(IDX:0)" in show_d(c, a)
    assert node_field(c, "n1", "GresUsed").endswith(",shard:2")
    # GPU 0 holds shards: two whole a100s are not free now
    w, _ = job(c, ["--gres=gpu:a100:2", "-w", "n1"], "whole")
    time.sleep(2)
    assert c.job_state(w) == "PENDING"
    finish(c, a, b)
    c.wait_state(w, "RUNNING", 30)
    finish(c, w)


def test_steps_typed_gpus_and_shards(gres_cluster):
    """Steps of a job holding typed GPUs and shards (step GRES): a typed
    request gets that type, a type the job lacks is refused; shards are
    given whole (all the job's, or none), a part is refused."""
    c = gres_cluster
    j, _ = job(c, ["-w", "n1", "-n2", "--gres=gpu:h100:1,shard:2"],
               "steptyped", sleep=60)
    c.wait_state(j, "RUNNING", 30)

    def step(*args):
        return c.run(["srun", "--jobid=%d" % j, "-n1"] + list(args) +
                     ["/bin/sh", "-c", ENV], user="sluice_u1")

    r = step("--gpus=h100:1")
    assert r.rc == 0 and "CVD=12 " in r.out, r
    r = step("--gpus=a100:1")
    assert r.rc == 1 and r.err.endswith(
        "Invalid generic resource (gres) specification\n"), r
    r = step("--gres=shard:1")
    assert r.rc == 1 and r.err.endswith(
        "Requested operation not supported on this system\n"), r
    r = step("--gres=shard:3")
    assert r.rc == 1 and r.err.endswith(
        "Invalid generic resource (gres) specification\n"), r
    r = step("--gres=shard:2")
    assert r.rc == 0, r
    r = step("--gres=none")
    assert r.rc == 0 and "CVD= " in r.out, r
    finish(c, j)


def test_mps_percent(gres_cluster):
    c = gres_cluster
    m, out = job(c, ["--gres=mps:50", "-w", "n2"], "mps")
    c.wait_state(m, "RUNNING", 30)
    env = env_of(out)
    assert env["MPS"] == "50", env
    assert env["CVD"] == "11", env
    # the GPU running MPS is not given whole to another job
    w, _ = job(c, ["--gres=gpu:h100:2", "-w", "n2"], "mpswhole")
    time.sleep(2)
    assert c.job_state(w) == "PENDING"
    finish(c, m, w)


def test_counted_site_gres_past_64(gres_cluster):
    c = gres_cluster
    a, out = job(c, ["--gres=nic:80"], "nic80")
    c.wait_state(a, "RUNNING", 30)
    assert c.show_job(a)["NodeList"] == "n1"
    assert "gres/nic=80" in c.show_job(a)["TRES"]
    assert ",nic:80," in node_field(c, "n1", "GresUsed")
    b, _ = job(c, ["--gres=nic:30"], "nic30")
    time.sleep(2)
    assert c.job_state(b) == "PENDING"
    finish(c, a)
    c.wait_state(b, "RUNNING", 30)
    finish(c, b)


@pytest.mark.parametrize("args,msg", [
    (["--gres=gpu:k80:1"], "Invalid generic resource (gres) specification"),
    (["--gpus=k80:1"], "Invalid generic resource (gres) specification"),
    (["--gres=fpga:1"], "Invalid generic resource (gres) specification"),
    (["--gres=nic:101"], "Requested node configuration is not available"),
    (["--gres=mps:101"], "Requested node configuration is not available"),
    (["--gres=shard:7"], "Requested node configuration is not available"),
])
def test_refused_at_submit(gres_cluster, args, msg):
    c = gres_cluster
    before = c.all_job_states()
    r = c.run(["sbatch"] + args + ["--wrap", "true"], user="sluice_u1")
    assert r.rc == 1, r
    assert r.err == "sbatch: error: Batch job submission failed: %s\n" % msg
    assert c.all_job_states() == before


def test_autodetect_nvml_falls_back_to_gres_conf(gres_cluster):
    """No NVIDIA library here: one clear line, GPUs from gres.conf (the
    jobs above saw /dev/nvidia1x)."""
    c = gres_cluster
    if ctypes.util.find_library("nvidia-ml"):
        pytest.skip("libnvidia-ml is present: NVML detection is used")
    for n in ("n1", "n2"):
        text = open(c.slurmd_log(n)).read()
        lines = [l for l in text.splitlines() if "AutoDetect=nvml" in l]
        assert len(lines) == 1, text
        assert ("gpu/nvml: AutoDetect=nvml: cannot load libnvidia-ml.so.1 "
                in lines[0]), lines
        assert lines[0].endswith("using the GPUs of gres.conf"), lines


@pytest.mark.parametrize("flags,err", [
    ("one-task-per-sharing", "sbatch: error: --gres-flags=one-task-per-"
     "sharing is not supported: shared GRES (shard, mps) are not split "
     "per task\n"),
    ("bogus", "sbatch: error: Invalid --gres-flags specification\n"),
])
def test_gres_flags_refused(gres_cluster, flags, err):
    c = gres_cluster
    before = c.all_job_states()
    r = c.run(["sbatch", "--gres=gpu:1", "--gres-flags=" + flags,
               "--wrap", "true"], user="sluice_u1")
    assert r.rc == 255, r        # sbatch's option errors exit(-1), as Slurm
    assert r.err == err
    assert c.all_job_states() == before


def test_gres_flags_disable_binding_runs(gres_cluster):
    c = gres_cluster
    jid, out = job(c, ["--gres=gpu:a100:1", "--gres-flags=disable-binding"],
                   "nobind", sleep=0)
    c.wait_done(jid, 30)
    assert env_of(out)["CVD"] == "10"


def test_update_gres_of_pending_job(gres_cluster):
    """scontrol update Gres= takes the same names as sbatch: a name or
    type no node has is refused and changes nothing."""
    c = gres_cluster
    j = c.sbatch(["-H", "--gres=gpu:1", "--wrap", "true"], user="sluice_u1")
    before = c.show_job(j)["TresPerNode"]
    for kv in ("Gres=fpga:1", "Gres=gpu:k80:1"):
        r = c.run(["scontrol", "update", "JobId=%d" % j, kv],
                  user="sluice_u1")
        assert (r.rc, r.err) == (1, "Invalid generic resource (gres) "
                                 "specification for job %d\n" % j), r
        assert c.show_job(j)["TresPerNode"] == before
    r = c.run(["scontrol", "update", "JobId=%d" % j, "Gres=nic:4"],
              user="sluice_u1")
    assert (r.rc, r.err) == (0, ""), r
    assert c.show_job(j)["TresPerNode"] == "gres/nic:4"
    c.run(["scontrol", "release", str(j)], user="sluice_u1")
    c.wait_done(j, 30)
    assert c.show_job(j)["JobState"] == "COMPLETED"


def test_sacct_alloc_tres_typed(users):
    """AccountingStorageTRES=gres/gpu:a100,gres/nic: sacct's AllocTRES
    carries gres/gpu=1, gres/gpu:a100=1 and gres/nic=3 (and no untracked
    type)."""
    import mariadb
    if mariadb.missing_tools():
        pytest.skip("MariaDB server not installed: %s"
                    % ", ".join(mariadb.missing_tools()))
    e = mariadb.AcctEnv(tag="grestres", nodes=1,
                        node_extra="Gres=gpu:a100:1,gpu:h100:1,nic:8")
    e.c.extra_conf += ("\nGresTypes=gpu,nic\n"
                       "AccountingStorageTRES=cpu,mem,node,billing,"
                       "gres/gpu,gres/gpu:a100,gres/nic\n")
    try:
        e.start()
        e.start_cluster()
        jid = e.c.sbatch(["--gres=gpu:a100:1,nic:3", "--wrap", "true"],
                         user="sluice_u1")
        e.c.wait_done(jid, 60)
        deadline = time.time() + 90
        got = ""
        while time.time() < deadline:
            r = e.sacct("-X", "-P", "-n", "-o", "AllocTRES", "-j", str(jid))
            got = r.out.strip()
            if got:
                break
            time.sleep(0.5)
        tres = dict(kv.split("=", 1) for kv in got.split(","))
        assert tres.get("gres/gpu") == "1", got
        assert tres.get("gres/gpu:a100") == "1", got
        assert tres.get("gres/nic") == "3", got
        assert "gres/gpu:h100" not in tres, got
    finally:
        e.finish()
