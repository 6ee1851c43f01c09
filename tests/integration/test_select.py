"""select/cons_tres on a cluster with GPUs: cores, memory and GPUs per
node, CUDA_VISIBLE_DEVICES, scontrol -d layout, node use, restart.

Two nodes of 2 cores x 2 threads (CPUs=4, config_overrides: the machine
has fewer) and Gres=gpu:2, gres.conf with fake device files.
"""

import os
import re
import signal
import time

import pytest

NODE = ("Sockets=1 CoresPerSocket=2 ThreadsPerCore=2 Gres=gpu:2 "
        "Features=%s")
EXTRA = "\n".join([
    "GresTypes=gpu",
    "SlurmdParameters=config_overrides",
])


@pytest.fixture(scope="module")
def gpu_cluster(request, users):
    import conftest
    c = conftest._start(tag="select", nodes=2, cpus=4, real_memory=1000,
                        extra_conf=EXTRA, select_params="CR_Core_Memory",
                        node_extra={"n1": NODE % "intel,ib",
                                    "n2": NODE % "amd"})
    dev = os.path.join(c.dir, "dev")
    os.makedirs(dev, exist_ok=True)
    for i in range(2):
        open(os.path.join(dev, "nvidia%d" % i), "w").close()
    c.write_file(None, os.path.join(c.dir, "etc", "gres.conf"),
                 "# fake GPUs\nName=gpu File=%s/nvidia[0-1]\n" % dev)
    yield c
    conftest._stop(c)


def show_d(c, jid):
    r = c.run(["scontrol", "-d", "show", "job", str(jid)])
    assert r.rc == 0, r
    return r.out


def layout(c, jid):
    """{node: (cpu ids set, gpu idx set)} from scontrol -d Nodes= lines."""
    out = {}
    text = show_d(c, jid)
    for m in re.finditer(r"Nodes=(\S+) CPU_IDs=(\S+) Mem=\d+ GRES=(\S*)", text):
        nodes = c.run(["scontrol", "show", "hostnames", m.group(1)]).out.split()
        cpus = expand(m.group(2))
        idx = set()
        g = re.search(r"IDX:([\d,-]+)", m.group(3))
        if g:
            idx = expand(g.group(1))
        for n in nodes:
            out[n] = (cpus, idx)
    return out


def expand(s):
    out = set()
    for part in s.split(","):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out


def wait_file(path, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if os.path.exists(path) and open(path).read().strip():
            return open(path).read()
        time.sleep(0.2)
    raise AssertionError("no output in %s" % path)


def gpu_job(c, args, name):
    d = c.workdir("sluice_u1")
    out = os.path.join(d, "%s.out" % name)
    jid = c.sbatch(["-J", name, "-o", out] + args + [
        "--wrap", "echo CVD=$CUDA_VISIBLE_DEVICES JG=$SLURM_JOB_GPUS "
        "CPUS=$SLURM_CPUS_ON_NODE; /usr/bin/sleep 30"], user="sluice_u1")
    return jid, out


def test_mixed_jobs_never_double_book(gpu_cluster):
    c = gpu_cluster
    jobs = [gpu_job(c, ["--gres=gpu:1", "-c", "2", "--mem=100"], "a"),
            gpu_job(c, ["--gpus-per-node=1", "--mem=100"], "b"),
            gpu_job(c, ["--gres=gpu:2", "--mem=200"], "c"),
            gpu_job(c, ["-n", "1", "--mem=100"], "d")]
    for jid, _ in jobs:
        c.wait_state(jid, "RUNNING", 30)
    # 4 GPUs, 4 cores: a fifth GPU job waits for Resources
    e, _ = gpu_job(c, ["--gpus=1"], "e")
    time.sleep(2)
    rec = c.show_job(e)
    assert rec["JobState"] == "PENDING"
    assert rec["Reason"] == "Resources"
    used = {}
    for jid, out in jobs:
        lay = layout(c, jid)
        assert lay, show_d(c, jid)
        for node, (cpus, idx) in lay.items():
            prev_c, prev_g = used.setdefault(node, (set(), set()))
            assert not (prev_c & cpus), "CPU ids %s double-booked on %s" % (cpus, node)
            assert not (prev_g & idx), "GPU %s double-booked on %s" % (idx, node)
            prev_c |= cpus
            prev_g |= idx
        text = wait_file(out)
        gpus = sorted(i for _, (_, idx) in lay.items() for i in idx)
        want = ",".join(str(i) for i in gpus)
        assert "CVD=%s JG=%s " % (want, want) in text, text
    # whole cores: 1 task of 1 CPU gets both threads of a core
    a_lay = layout(c, jobs[0][0])
    assert len(list(a_lay.values())[0][0]) == 2
    assert "CPUS=2" in wait_file(jobs[3][1])
    rec = c.show_job(jobs[2][0])
    assert "gres/gpu=2" in rec["TRES"], rec
    assert rec["TresPerNode"] == "gres/gpu:2"
    assert "JOB_GRES=gpu:2" in show_d(c, jobs[2][0])
    for jid, _ in jobs + [(e, None)]:
        c.run(["scancel", str(jid)])
    for jid, _ in jobs:
        c.wait_done(jid, 30)


def test_node_use_shown(gpu_cluster):
    c = gpu_cluster
    jid, _ = gpu_job(c, ["--gres=gpu:1", "--mem=300", "-w", "n2"], "show")
    c.wait_state(jid, "RUNNING", 30)
    r = c.run(["scontrol", "show", "node", "n2"])
    rec = dict(tok.partition("=")[::2] for tok in r.out.split() if "=" in tok)
    assert rec["State"] == "MIXED", r.out
    assert rec["CPUAlloc"] == "2"
    assert rec["AllocMem"] == "300"
    assert rec["Gres"] == "gpu:2"
    assert "gres/gpu=2" in rec["CfgTRES"]
    assert rec["AllocTRES"] == "cpu=2,mem=300M,gres/gpu=1", r.out
    r = c.run(["sinfo", "-h", "-n", "n2", "-o", "%C %t %G"])
    assert r.out.split() == ["2/2/0/4", "mix", "gpu:2"], r.out
    c.run(["scancel", str(jid)])
    c.wait_done(jid, 30)


def test_cpus_and_mem_per_gpu(gpu_cluster):
    """--cpus-per-gpu / --mem-per-gpu size the allocation by its GPUs."""
    c = gpu_cluster
    jid, _ = gpu_job(c, ["--gpus=2", "--cpus-per-gpu=2", "--mem-per-gpu=150",
                         "-w", "n1"], "pergpu")
    c.wait_state(jid, "RUNNING", 30)
    rec = c.show_job(jid)
    assert rec["NumCPUs"] == "4", rec
    assert rec["CpusPerTres"] == "gres/gpu:2", rec
    assert rec["MemPerTres"] == "gres/gpu:150", rec
    assert rec["TRES"] == "cpu=4,mem=300M,node=1,billing=4,gres/gpu=2", rec
    r = c.run(["sbatch", "--gpus=1", "--cpus-per-gpu=0", "--wrap", "true"],
              user="sluice_u1")
    assert r.rc != 0, r
    c.run(["scancel", str(jid)])
    c.wait_done(jid, 30)


@pytest.mark.parametrize("args,msg", [
    (["--gres=gpu:3"], "Requested node configuration is not available"),
    (["--gres=gpu:1", "-C", "amd&ib"],
     "Requested node configuration is not available"),
    (["--gres=fpga:1"], "Invalid generic resource (gres) specification"),
    (["--gres=gpu:x:y:z"], "Invalid generic resource (gres) specification"),
    (["-C", "nosuch"], "Invalid feature specification"),
    (["-C", "intel&"], "Invalid feature specification"),
    (["-c", "5"], "Requested node configuration is not available"),
    (["--mem=2000"], "Memory specification can not be satisfied\n"
     "sbatch: error: Batch job submission failed: Requested node "
     "configuration is not available"),
])
def test_refused_at_submit(gpu_cluster, args, msg):
    c = gpu_cluster
    before = c.all_job_states()
    r = c.run(["sbatch"] + args + ["--wrap", "true"], user="sluice_u1")
    assert r.rc == 1, r
    if "\n" not in msg:
        msg = "Batch job submission failed: " + msg
    assert r.err == "sbatch: error: %s\n" % msg
    assert c.all_job_states() == before


def test_constraint_and_exclusive(gpu_cluster):
    c = gpu_cluster
    j1 = c.sbatch(["-C", "amd", "--wrap", "/usr/bin/sleep 20"], user="sluice_u1")
    j2 = c.sbatch(["-C", "(amd|intel)&ib", "--exclusive", "--wrap", "/usr/bin/sleep 20"],
                  user="sluice_u1")
    for j in (j1, j2):
        c.wait_state(j, "RUNNING", 30)
    assert c.show_job(j1)["NodeList"] == "n2"
    rec = c.show_job(j2)
    assert rec["NodeList"] == "n1"
    assert rec["NumCPUs"] == "4"           # --exclusive: the whole node
    assert "gres/gpu=2" in rec["TRES"]     # with all its GPUs
    # nothing else fits on n1 now
    j3 = c.sbatch(["-w", "n1", "--wrap", "true"], user="sluice_u1")
    time.sleep(2)
    assert c.job_state(j3) == "PENDING"
    for j in (j1, j2, j3):
        c.run(["scancel", str(j)])
    for j in (j1, j2, j3):
        c.wait_done(j, 30)


def test_allocation_survives_restart(gpu_cluster):
    c = gpu_cluster
    jid, _ = gpu_job(c, ["--gres=gpu:1", "-w", "n1"], "keep")
    c.wait_state(jid, "RUNNING", 30)
    before = layout(c, jid)
    assert c.kill_ctld(signal.SIGTERM) == 0
    c.start_ctld()
    deadline = time.time() + 30
    while c.run(["squeue"], timeout=10).rc != 0 and time.time() < deadline:
        time.sleep(0.2)
    assert layout(c, jid) == before
    # the held GPU and core are still taken: n1 fits one more 1-GPU job
    j2, _ = gpu_job(c, ["--gres=gpu:1", "-w", "n1"], "keep2")
    c.wait_state(j2, "RUNNING", 30)
    l2 = layout(c, j2)["n1"]
    assert not (l2[0] & before["n1"][0]) and not (l2[1] & before["n1"][1])
    j3, _ = gpu_job(c, ["--gres=gpu:1", "-w", "n1"], "keep3")
    time.sleep(2)
    assert c.job_state(j3) == "PENDING"
    for j in (jid, j2, j3):
        c.run(["scancel", str(j)])
    for j in (jid, j2, j3):
        c.wait_done(j, 30)
