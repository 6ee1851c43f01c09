"""The install provides lib/libslurm.so (soname libslurm.so.43, Slurm
25.05's) next to lib/slurm/libslurmfull.so, so a tool or plugin build that
links -lslurm against the installed headers links and runs (issue 35 item
21).  No cluster: an install into a temporary prefix and a C compiler."""

import os
import shutil
import subprocess
import tempfile

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
BUILD = os.environ.get("SLUICE_BUILD_DIR", os.path.join(REPO, "build"))

PROGRAM = r"""
#include <stdio.h>
#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

int main(void)
{
	slurm_seterrno(ESLURM_INVALID_JOB_ID);
	printf("%d %s\n", slurm_get_errno(), slurm_strerror(slurm_get_errno()));
	return 0;
}
"""


@pytest.fixture(scope="module")
def prefix():
    d = tempfile.mkdtemp(prefix="sluice-libslurm-")
    r = subprocess.run(["cmake", "--install", BUILD, "--prefix", d],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    assert r.returncode == 0, r.stdout
    yield d
    shutil.rmtree(d, ignore_errors=True)


def _libdir(prefix):
    for sub in ("lib", "lib64", "lib/x86_64-linux-gnu"):
        if os.path.exists(os.path.join(prefix, sub, "libslurm.so")):
            return os.path.join(prefix, sub)
    pytest.fail("no libslurm.so under %s" % prefix)


def test_libslurm_links_and_runs(prefix, tmp_path):
    lib = _libdir(prefix)
    assert os.path.exists(os.path.join(lib, "slurm", "libslurmfull.so"))
    assert os.readlink(os.path.join(lib, "libslurm.so")) == "libslurm.so.43"
    soname = subprocess.run(["readelf", "-d", os.path.join(lib, "libslurm.so")],
                            stdout=subprocess.PIPE, text=True).stdout
    assert "Library soname: [libslurm.so.43]" in soname
    src = tmp_path / "tool.c"
    src.write_text(PROGRAM)
    exe = str(tmp_path / "tool")
    r = subprocess.run(["cc", "-Wall", "-Werror", "-o", exe, str(src),
                        "-I", os.path.join(prefix, "include"), "-L", lib,
                        "-lslurm", "-Wl,-rpath," + lib],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    assert r.returncode == 0, r.stdout
    r = subprocess.run([exe], stdout=subprocess.PIPE, text=True)
    assert r.returncode == 0
    assert r.stdout == "2017 Invalid job id specified\n"
    needed = subprocess.run(["readelf", "-d", exe], stdout=subprocess.PIPE,
                            text=True).stdout
    assert "Shared library: [libslurm.so.43]" in needed
