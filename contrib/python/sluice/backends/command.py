"""What the local and ssh backends share: Slurm's commands, run by
self.run(argv, input) -> (rc, out, err) on this host or a login node."""

import json
import re

from .. import errors
from . import base


class CommandBackend(base.Backend):
    def __init__(self, cluster):
        self.cluster = cluster

    def run(self, argv, input=None, timeout=None):
        raise NotImplementedError

    def cmd(self, name):
        return name

    def submit(self, script, args, job, jobdir):
        argv = [self.cmd("sbatch"), "--parsable"] + list(args)
        rc, out, err = self.run(argv, input=script.encode())
        if rc != 0:
            raise base.command_error("sbatch", rc, err)
        m = re.match(r"^(\d+)(?:;\S+)?\s*$", out)
        if not m:
            raise errors.SubmitError("sbatch printed %r, not a job id" % out)
        return int(m.group(1))

    def status(self, job_id):
        rc, out, err = self.run([self.cmd("squeue"), "-h", "-r", "-t", "all",
                                 "-j", str(job_id), "-o", "%K|%T|%r"])
        if rc == 0 and out.strip():
            return base.parse_squeue(out)
        if rc != 0 and not re.search(r"Invalid job id", err, re.I):
            raise base.command_error("squeue", rc, err)
        # purged from the controller (MinJobAge): ask accounting
        rc, out, err = self.run([self.cmd("sacct"), "-X", "-P", "-n", "-o",
                                 "JobID,State,ExitCode", "-j", str(job_id)])
        if rc != 0:
            return {}
        return base.parse_sacct_states(out, job_id)

    def cancel(self, job_id):
        rc, out, err = self.run([self.cmd("scancel"), str(job_id)])
        if rc != 0:
            raise base.command_error("scancel", rc, err)

    def checkpoint(self, job_id):
        rc, out, err = self.run([self.cmd("scontrol"), "checkpoint",
                                 str(job_id)])
        if rc != 0:
            raise base.command_error("scontrol checkpoint", rc, err)

    def exit_code(self, job_id):
        rc, out, err = self.run([self.cmd("scontrol"), "show", "job",
                                 str(job_id)])
        m = re.search(r"\bExitCode=(\d+):(\d+)", out) if rc == 0 else None
        return (int(m.group(1)), int(m.group(2))) if m else None

    def stdout_path(self, job_id):
        rc, out, err = self.run([self.cmd("scontrol"), "show", "job",
                                 str(job_id)])
        if rc != 0:
            return None
        m = re.search(r"(?m)^\s*StdOut=(\S+)", out)
        return m.group(1) if m else None

    def usage(self, job_id):
        rc, out, err = self.run([self.cmd("sacct"), "-P", "-n", "-j",
                                 str(job_id), "-o",
                                 ",".join(base.USAGE_FIELDS)])
        if rc != 0:
            raise base.command_error("sacct", rc, err)
        return base.parse_sacct_usage(out)

    def metrics(self, job_id):
        rc, out, err = self.run([self.cmd("sacct"), "--metrics", "--json",
                                 "-j", str(job_id)])
        if rc != 0:
            raise base.command_error("sacct --metrics", rc, err)
        try:
            return json.loads(out).get("metrics", [])
        except ValueError as e:
            raise errors.SluiceError("sacct --metrics --json printed "
                                     "something that is not JSON: %s" % e)
