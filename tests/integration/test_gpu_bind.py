"""--gpu-bind and each task's GPU variables in srun steps.

n1: Gres=gpu:4, fake device files /dev-like nvidia20..23 (gres.conf
File=), so gres index i is device 20+i.  Every task prints its local id,
CUDA_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES, GPU_DEVICE_ORDINAL and
SLURM_STEP_GPUS; srun -l labels the lines.
"""

import os
import signal

import pytest

EXTRA = "GresTypes=gpu\nSlurmdParameters=config_overrides"
SHOW = ("echo L=$SLURM_LOCALID CVD=$CUDA_VISIBLE_DEVICES "
        "ROCR=$ROCR_VISIBLE_DEVICES ORD=$GPU_DEVICE_ORDINAL "
        "STEP=$SLURM_STEP_GPUS BIND=$SLURM_GPU_BIND")


@pytest.fixture(scope="module")
def gpu_cluster(request, users):
    import conftest
    c = conftest._start(tag="gpubind", nodes=1, cpus=4, real_memory=1000,
                        extra_conf=EXTRA, select_params="CR_Core",
                        node_extra={"n1": "Gres=gpu:4"})
    dev = os.path.join(c.dir, "dev")
    os.makedirs(dev, exist_ok=True)
    for i in range(4):
        open(os.path.join(dev, "nvidia%d" % (20 + i)), "w").close()
    c.write_file(None, os.path.join(c.dir, "etc", "gres.conf"),
                 "NodeName=n1 Name=gpu File=%s/nvidia2[0-3]\n" % dev)
    c.kill_slurmd("n1", signal.SIGTERM)
    c.start_slurmd("n1")
    c.wait_ready()
    yield c
    conftest._stop(c)


def tasks(out):
    """{local id: {var: value}} from the tasks' lines."""
    seen = {}
    for line in out.splitlines():
        kv = dict(w.split("=", 1) for w in line.split() if "=" in w)
        if "L" in kv:
            seen[int(kv["L"])] = kv
    return seen


def srun(c, args):
    r = c.run(["srun", "-N1", "-w", "n1"] + args +
              ["/bin/sh", "-c", SHOW], user="sluice_u1", timeout=60)
    assert r.rc == 0, r
    return r, tasks(r.out)


def test_unbound_tasks_see_all_the_steps_gpus(gpu_cluster):
    r, t = srun(gpu_cluster, ["-n2", "--gpus-per-task=1"])
    assert set(t) == {0, 1}, r
    for k in (0, 1):
        assert t[k]["CVD"] == "20,21", r
        assert t[k]["ROCR"] == "20,21" and t[k]["ORD"] == "20,21", r
        assert t[k]["STEP"] == "20,21", r
        assert t[k]["BIND"] == "", r


def test_per_task_gives_each_task_its_own_gpu(gpu_cluster):
    r, t = srun(gpu_cluster, ["-n2", "--gpus-per-task=1",
                              "--gpu-bind=per_task:1"])
    assert t[0]["CVD"] == "20" and t[1]["CVD"] == "21", r
    assert t[0]["ROCR"] == "20" and t[1]["ORD"] == "21", r
    assert t[0]["STEP"] == t[1]["STEP"] == "20,21", r
    assert t[0]["BIND"] == "per_task:1", r


def test_map_gpu_reverses(gpu_cluster):
    r, t = srun(gpu_cluster, ["-n2", "--gpus-per-task=1",
                              "--gpu-bind=map_gpu:1,0"])
    assert t[0]["CVD"] == "21" and t[1]["CVD"] == "20", r


def test_mask_and_single(gpu_cluster):
    r, t = srun(gpu_cluster, ["-n4", "--gres=gpu:4",
                              "--gpu-bind=mask_gpu:0x3,0xc"])
    assert [t[k]["CVD"] for k in range(4)] == [
        "20,21", "22,23", "20,21", "22,23"], r
    r, t = srun(gpu_cluster, ["-n4", "--gres=gpu:2",
                              "--gpu-bind=single:2"])
    assert [t[k]["CVD"] for k in range(4)] == ["20", "20", "21", "21"], r


def test_verbose_says_what_each_task_got(gpu_cluster):
    r, t = srun(gpu_cluster, ["-n2", "--gpus-per-task=1",
                              "--gpu-bind=verbose,per_task:1"])
    lines = sorted(l for l in r.err.splitlines() if "gpu-bind:" in l)
    assert len(lines) == 2, r
    assert "local_inx=0; global_list=20; local_list=0" in lines[0], r
    assert "local_inx=1; global_list=21; local_list=1" in lines[1], r


def test_batch_steps_inherit_the_binding(gpu_cluster):
    c = gpu_cluster
    out = os.path.join(c.workdir("sluice_u1"), "bind.out")
    jid = c.sbatch(["-n2", "--gres=gpu:2", "--gpu-bind=map_gpu:1,0",
                    "-o", out, "--wrap",
                    "echo BATCH=$SLURM_GPU_BIND; %s /bin/sh -c '%s'"
                    % (c.bin("srun"), SHOW)], user="sluice_u1")
    state = c.wait_done(jid, 60)
    text = open(out).read()
    assert state == "COMPLETED", text
    assert "BATCH=map_gpu:1,0" in text, text
    t = tasks(text)
    assert t[0]["CVD"] == "21" and t[1]["CVD"] == "20", text


@pytest.mark.parametrize("cmd", ["sbatch", "salloc", "srun"])
@pytest.mark.parametrize("spec", ["foo", "map_gpu:x", "per_task:0",
                                  "verbose", "mask_gpu:0xZ"])
def test_bad_spec_refused(gpu_cluster, cmd, spec):
    c = gpu_cluster
    before = c.all_job_states()
    argv = [cmd, "--gpu-bind=" + spec]
    argv += ["--wrap", "true"] if cmd == "sbatch" else ["true"]
    r = c.run(argv, user="sluice_u1")
    # sbatch exits 255 as Slurm's; srun and salloc exit with their
    # usual option-error code (1) where Slurm's exit 255 here
    assert r.rc == 255 if cmd == "sbatch" else r.rc != 0, r
    assert r.err == "%s: error: Invalid --gpu-bind argument: gpu:%s\n" % (
        cmd, spec), r
    assert c.all_job_states() == before
