"""sluice: run Python functions as Slurm jobs on a Sluice (or Slurm)
cluster.

    from sluice import Cluster, task, workflow

    @task(time="00:10:00", mem="4G", cpus_per_task=2)
    def train(lr):
        return {"lr": lr, "loss": 0.1}

    with Cluster(partition="debug"):
        job = train(0.01)            # sbatch; returns a Job at once
        print(job.result())          # waits, returns the value

See README.md (or `pydoc sluice`) for the whole interface.
"""

__version__ = "0.1.0"
__all__ = [
    "Cluster", "current", "task", "Task", "workflow", "Workflow",
    "WorkflowRun", "Job", "ArrayJob",
    "SluiceError", "SubmitError", "ClusterUnreachable", "AuthError",
    "TokenExpired", "SerializationError", "PayloadTooLarge",
    "RemoteImportError", "RemoteError", "RemoteTraceback", "JobFailed",
    "JobCancelled", "DependencyNeverSatisfied", "JobTimeout", "ArrayErrors",
    "TrackingError", "log_metric", "log_param", "log_artifact",
    "SuccessiveHalving", "Sweep", "Trial", "checkpoint",
]

from . import checkpoint  # noqa: E402
from .cluster import Cluster, current  # noqa: E402
from .errors import (ArrayErrors, AuthError, ClusterUnreachable,  # noqa: E402
                     DependencyNeverSatisfied, JobCancelled, JobFailed,
                     JobTimeout, PayloadTooLarge, RemoteError,
                     RemoteImportError, RemoteTraceback, SerializationError,
                     SluiceError, SubmitError, TokenExpired, TrackingError)
from .job import ArrayJob, Job  # noqa: E402
from .sweep import SuccessiveHalving, Sweep, Trial  # noqa: E402
from .task import Task, task  # noqa: E402
from .track import log_artifact, log_metric, log_param  # noqa: E402
from .workflow import Workflow, WorkflowRun, workflow  # noqa: E402
