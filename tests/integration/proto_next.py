"""The synthetic next release (cmake -DSLUICE_PROTO_NEXT=ON: protocol
25.11, a field more in job submit, job info, node registration and the
accounting job record), built once per test run and shared by every test
file that mixes versions (test_proto.py, test_upgrade.py).

The build goes to $SLUICE_BUILD_DIR/proto-next (SLUICE_PROTO_NEXT_DIR
overrides), only the programs a mixed cluster needs, with ccache when
present; later runs rebuild incrementally.  Its commands run as root: the
scratch build need not be reachable by the test users."""

import os
import shutil
import subprocess
import sys
import time

import cluster as cl

TARGETS = ["slurmctld", "slurmd", "slurmstepd", "sbatch", "squeue",
           "slurmdbd", "sacct"]

_built = {}


def build_dir():
    d = os.environ.get("SLUICE_PROTO_NEXT_DIR")
    if d:
        return os.path.abspath(d)
    build = os.environ.get("SLUICE_BUILD_DIR", os.path.join(cl.REPO, "build"))
    return os.path.join(os.path.abspath(build), "proto-next")


def bins():
    """{program: path} of the next tree's TARGETS (built on first use)."""
    if _built:
        return dict(_built)
    out = build_dir()
    t0 = time.time()
    cfg = ["cmake", "-S", cl.REPO, "-B", out, "-DSLUICE_PROTO_NEXT=ON",
           "-DSLUICE_BUILD_TESTS=OFF"]
    if shutil.which("ccache"):
        cfg.append("-DCMAKE_C_COMPILER_LAUNCHER=ccache")
    if not os.path.exists(os.path.join(out, "CMakeCache.txt")):
        r = subprocess.run(cfg, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        assert r.returncode == 0, r.stdout[-4000:]
    r = subprocess.run(["cmake", "--build", out, "-j",
                        str(os.cpu_count() or 2), "--target"] + TARGETS,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    assert r.returncode == 0, r.stdout[-4000:]
    sys.stderr.write("proto_next: next tree (%s) built in %.1f s\n" % (
        ", ".join(TARGETS), time.time() - t0))
    for n in TARGETS:
        p = os.path.join(out, "bin", n)
        assert os.access(p, os.X_OK), p
        _built[n] = p
    return dict(_built)
