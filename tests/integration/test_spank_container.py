"""A container plugin in the shape of NVIDIA's pyxis (tests/spank/
container_spank.c, built against <slurm/spank.h> only) on a real cluster:
the hook points such a plugin uses, in the order and context it needs them.

--container-image given to srun or in an sbatch script reaches the nodes;
user_init "imports" the image as the user once per step and node, task_init
"enters" it in each task (environment and working directory), exit cleans
up; a bad image name is refused by the command before any job exists.
"""

import os
import re
import shutil
import tempfile

import pytest

import cluster as cl
from conftest import _start, _stop

U = "sluice_u1"


@pytest.fixture(scope="module")
def c(users):
    build = os.environ.get("SLUICE_BUILD_DIR", os.path.join(cl.REPO, "build"))
    so = os.path.join(build, "tests", "spank", "container_spank.so")
    if not os.path.exists(so):
        pytest.skip("tests/spank/container_spank.so not built")
    c = _start(tag="spank-ctr", nodes=2)
    d = os.path.join(c.dir, "spank")
    os.makedirs(d, exist_ok=True)
    os.chmod(d, 0o755)
    shutil.copy(so, d)
    os.chmod(os.path.join(d, "container_spank.so"), 0o755)
    # where the users' containers go (the cluster's directory is root's)
    c.ctr_root = tempfile.mkdtemp(prefix="sluice-it-ctr-")
    os.chmod(c.ctr_root, 0o1777)
    with open(os.path.join(c.dir, "etc", "plugstack.conf"), "w") as f:
        f.write("required %s root=%s\n" % (
            os.path.join(d, "container_spank.so"), c.ctr_root))
    os.chmod(os.path.join(c.dir, "etc", "plugstack.conf"), 0o644)
    yield c
    _stop(c)
    shutil.rmtree(c.ctr_root, ignore_errors=True)


TASK = ("echo rank=$SLURM_PROCID image=$PYXIS_IMAGE mounts=$PYXIS_MOUNTS "
        "pwd=$(pwd) imported=$(cat $PYXIS_ROOT/image) "
        "owner=$(stat -c %U $PYXIS_ROOT)")


def test_srun_runs_tasks_in_the_image(c):
    r = c.run(["srun", "-N2", "-n4", "--container-image=nvcr.io/nvidia/"
               "pytorch:24.05-py3", "--container-mounts=/data:/data",
               "sh", "-c", TASK], user=U, timeout=60)
    assert r.rc == 0, r
    rows = sorted(r.out.splitlines())
    assert len(rows) == 4, r.out
    for k, row in enumerate(rows):
        m = re.fullmatch(r"rank=(\d) image=(\S+) mounts=(\S+) pwd=(\S+) "
                         r"imported=(\S+) owner=(\S+)", row)
        assert m, row
        rank, image, mounts, pwd, imported, owner = m.groups()
        assert rank == str(k)
        assert image == imported == "nvcr.io/nvidia/pytorch:24.05-py3"
        assert mounts == "/data:/data"
        assert re.fullmatch(re.escape(c.ctr_root) + r"/\d+\.0\.[01]", pwd), row
        assert owner == U, row       # user_init runs as the user
    # exit removed what user_init made, on both nodes
    cl.wait_for(lambda: not os.listdir(c.ctr_root), timeout=20,
                what="the containers removed")
    log = c.log_text("n1") + c.log_text("n2")
    hooks = re.findall(r"container_spank: (user_init|task_init|exit)", log)
    assert hooks.count("user_init") == 2 and hooks.count("exit") >= 2, hooks
    assert hooks.count("task_init") == 4, hooks


def test_sbatch_directive_reaches_the_steps(c):
    wd = c.workdir(U)
    c.write_file(U, os.path.join(wd, "ctr.sh"),
                 "#!/bin/sh\n#SBATCH --container-image=alpine:3.19\n"
                 "#SBATCH -o ctr.out\n"
                 "%s -n1 sh -c 'echo step image=$PYXIS_IMAGE'\n" %
                 c.bin("srun"), 0o755)
    jid = c.sbatch(["ctr.sh"], user=U)
    assert c.wait_done(jid) == "COMPLETED", c.show_job(jid)
    out = open(os.path.join(wd, "ctr.out")).read()
    assert "step image=alpine:3.19" in out, out


def test_without_the_option_nothing_is_made(c):
    r = c.run(["srun", "-n1", "sh", "-c", "echo image=${PYXIS_IMAGE:-none}"],
              user=U, timeout=60)
    assert r.rc == 0 and r.out.strip() == "image=none", r
    assert not os.listdir(c.ctr_root)


def test_bad_image_refused_before_a_job(c):
    before = c.run(["squeue", "-h", "-t", "all", "-o", "%i"]).out.split()
    r = c.run(["srun", "-n1", "--container-image=bad image!", "true"],
              user=U, timeout=60)
    assert r.rc != 0, r
    assert 'invalid image name "bad image!"' in r.err, r.err
    r = c.run(["sbatch", "--container-image=x;rm", "--wrap", "true"],
              user=U, timeout=60)
    assert r.rc != 0 and "invalid image name" in r.err, r
    after = c.run(["squeue", "-h", "-t", "all", "-o", "%i"]).out.split()
    assert after == before
