"""MpiParams=ports=low-high (issue 27): every step gets
SLURM_STEP_RESV_PORTS, the same free ports on each of its nodes (as many
as its most tasks on a node, or srun --resv-ports=N), released when it
ends; a step whose ports are taken waits for them as Slurm's srun does;
asking for more than the range holds is an error.
"""

import re
import threading
import time

import pytest

from conftest import _start, _stop
import cluster as cl

U = "sluice_u1"


@pytest.fixture(scope="module")
def c(users):
    c = _start(tag="resvports", nodes=2,
               extra_conf="MpiParams=ports=21000-21003\n")
    yield c
    _stop(c)


def _ports(c, args):
    r = c.run(["srun"] + args + ["printenv", "SLURM_STEP_RESV_PORTS"],
              user=U, timeout=60)
    assert r.rc == 0, r
    return sorted(set(r.out.split()))


def test_steps_get_reserved_ports(c):
    # two tasks on each node: two ports, the same on both nodes
    assert _ports(c, ["-N2", "-n4"]) == ["21000-21001"]
    assert _ports(c, ["-N1", "-n1"]) == ["21000"]


def test_resv_ports_count(c):
    assert _ports(c, ["-N2", "-n2", "--resv-ports=3"]) == ["21000-21002"]


def test_busy_ports_wait_and_are_released(c):
    out = {}

    def first():
        out["r"] = c.run(["srun", "-w", "n1", "--resv-ports=4", "sleep", "4"],
                         user=U, timeout=60)
    t = threading.Thread(target=first)
    t.start()
    cl.wait_for(lambda: c.run(["squeue", "-h", "-s"]).out.strip(),
                timeout=20, what="first step running")
    t0 = time.time()
    r = c.run(["srun", "-w", "n1", "--resv-ports=1", "printenv",
               "SLURM_STEP_RESV_PORTS"], user=U, timeout=60)
    t.join()
    assert out["r"].rc == 0, out["r"]
    assert r.rc == 0, r
    assert re.search(r"srun: Job \d+ step creation temporarily disabled, "
                     r"retrying \(Required ports are in use\)", r.err), r.err
    assert re.search(r"srun: Step created for StepId=\d+\.\d+", r.err), r.err
    assert time.time() - t0 > 1
    assert r.out.split() == ["21000"]
    # on the other node the ports were free all along
    assert _ports(c, ["-w", "n2", "--resv-ports=4"]) == ["21000-21003"]


def test_more_ports_than_the_range_is_refused(c):
    r = c.run(["srun", "--resv-ports=5", "true"], user=U, timeout=60)
    assert r.rc != 0
    assert re.search(r"srun: error: Unable to create step for job \d+: "
                     r"Requires more ports than can be reserved", r.err), r.err


def test_bad_range_stops_the_load(users):
    b = cl.Cluster(tag="resvbad", nodes=1,
                   extra_conf="MpiParams=ports=2000-1000\n")
    try:
        ports = cl.free_ports(2)
        b.ctld_port, b.node_ports = ports[0], {"n1": ports[1]}
        b.write_conf()
        r = b.run([b.bin("slurmctld"), "-D", "-f", b.conf])
        assert r.rc != 0
        assert "MpiParams=ports=2000-1000: not supported" in r.err, r.err
    finally:
        b.cleanup()
