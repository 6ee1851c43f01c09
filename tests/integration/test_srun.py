"""srun, job steps and salloc on a 4-node loopback cluster (2 CPUs each).

Every node runs on 127.0.0.1, so where a task ran is told by
SLURMD_NODENAME; ranks by SLURM_PROCID / SLURM_NODEID.
"""

import os
import re
import signal
import subprocess
import time

import cluster as cl

U = "sluice_u1"


def srun(cluster, args, **kw):
    kw.setdefault("user", U)
    kw.setdefault("timeout", 60)
    return cluster.run(["srun"] + list(args), **kw)


def ranks(out):
    """'-l' output of `printenv SLURMD_NODENAME SLURM_NODEID ...` as
    {rank: [values]}."""
    got = {}
    for line in out.splitlines():
        m = re.fullmatch(r"\s*(\d+): (.*)", line)
        assert m, "not a labelled line: %r" % line
        got.setdefault(int(m.group(1)), []).append(m.group(2))
    return got


def test_block_layout_n8_N4(cluster):
    r = srun(cluster, ["-N4", "-n8", "-l", "printenv", "SLURMD_NODENAME",
                       "SLURM_NODEID", "SLURM_LOCALID", "SLURM_NTASKS",
                       "SLURM_STEP_NUM_NODES", "SLURM_STEP_TASKS_PER_NODE"])
    assert r.rc == 0, r
    got = ranks(r.out)
    assert sorted(got) == list(range(8))
    for rank, vals in got.items():
        node = rank // 2
        assert vals == ["n%d" % (node + 1), str(node), str(rank % 2), "8",
                        "4", "2(x4)"], (rank, vals)
