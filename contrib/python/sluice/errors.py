"""The exceptions the SDK raises.  Every one names its cause; all derive
from SluiceError so a caller can catch the SDK's failures in one place.

    SluiceError
      SubmitError            the cluster refused a submission (nothing queued)
        ClusterUnreachable   the controller, slurmrestd or login node is down
        AuthError            the cluster refused our credentials
          TokenExpired       the JWT's "exp" is in the past
      SerializationError     an argument or a result cannot be pickled
        PayloadTooLarge      a pickle is larger than the cluster's limit
      RemoteImportError      the compute side could not import the function
      RemoteError            a task's exception that could not be sent back
      JobFailed              the job ended without a result
        JobCancelled         ... because it was cancelled
        DependencyNeverSatisfied  ... because a job it waited for failed
      JobTimeout             wait(timeout) elapsed before the job ended
      ArrayErrors            some items of a .map() failed (the rest did not)
      TrackingError          log_metric/log_param/log_artifact refused
"""


class SluiceError(Exception):
    """Base class of every SDK error."""


class SubmitError(SluiceError):
    """sbatch (or slurmrestd) refused the job; nothing was queued."""


class ClusterUnreachable(SubmitError):
    """The cluster cannot be reached (controller, slurmrestd or SSH)."""


class AuthError(SubmitError):
    """The cluster refused the credentials (JWT, SSH key)."""


class TokenExpired(AuthError):
    """The JWT given to a rest Cluster has expired."""


class SerializationError(SluiceError, TypeError):
    """An argument or a result could not be pickled or unpickled."""


class PayloadTooLarge(SerializationError):
    """A pickled argument or result is over the size limit."""

    def __init__(self, what, size, limit):
        self.what, self.size, self.limit = what, size, limit
        super().__init__("%s is %d bytes pickled, over the limit of %d "
                         "bytes (Cluster(max_pickle_size=...)); pass a "
                         "path on the shared filesystem instead"
                         % (what, size, limit))


class RemoteImportError(SluiceError, ImportError):
    """The compute side could not import the task's module."""


class JobFailed(SluiceError):
    """The job ended without writing a result (killed, timed out, node
    failure, the Python interpreter missing on the node, ...)."""

    def __init__(self, message, job_id=None, state=None, exit_code=None,
                 stderr_tail=""):
        self.job_id, self.state, self.exit_code = job_id, state, exit_code
        self.stderr_tail = stderr_tail
        if stderr_tail:
            message += "\n--- end of the job's stderr ---\n" + stderr_tail
        super().__init__(message)


class JobCancelled(JobFailed):
    """The job was cancelled before it returned."""


class DependencyNeverSatisfied(JobFailed):
    """A job this one depends on failed, so it never ran."""


class JobTimeout(SluiceError, TimeoutError):
    """wait(timeout=...) elapsed while the job was still active."""


class RemoteError(SluiceError):
    """A task raised an exception that could not be pickled back; the
    message names its type and text, __cause__ holds the traceback."""


class RemoteTraceback(Exception):
    """Set as __cause__ of an exception re-raised from a task: its text is
    the traceback printed on the compute node."""

    def __init__(self, tb):
        self.tb = tb
        super().__init__(tb)

    def __str__(self):
        return "\n\nRemote traceback:\n" + self.tb


class ArrayErrors(SluiceError):
    """Some items of a .map() failed.  .results has every item's value in
    order with the exception in place of each failed one; .errors maps the
    failed indices to their exceptions."""

    def __init__(self, results, errors):
        self.results, self.errors = results, errors
        first = min(errors)
        super().__init__("%d of %d items failed (first: item %d: %s: %s)"
                         % (len(errors), len(results), first,
                            type(errors[first]).__name__, errors[first]))


class TrackingError(SluiceError):
    """A run tracking value was refused (outside a job, a bad name or
    value, another user's job, over the per-job bounds); nothing was
    recorded."""
