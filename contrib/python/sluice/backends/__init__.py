"""Backends: how a Cluster reaches Slurm.

    local   runs sbatch, squeue, scancel, sacct on this host
    ssh     runs them on a login node through the ssh binary
    rest    talks to slurmrestd with a JWT

Each implements base.Backend.  A new transport (or a later feature that
needs a new call, e.g. checkpointing) adds a method there first.
"""

from .base import Backend, JobStatus

__all__ = ["Backend", "JobStatus", "make"]


def make(cluster):
    kind = cluster.backend_type
    if kind == "local":
        from .local import LocalBackend
        return LocalBackend(cluster)
    if kind == "ssh":
        from .ssh import SSHBackend
        return SSHBackend(cluster)
    if kind == "rest":
        from .rest import RestBackend
        return RestBackend(cluster)
    raise ValueError("backend_type=%r: expected \"local\", \"ssh\" or "
                     "\"rest\"" % (kind,))
