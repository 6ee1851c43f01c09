"""The local backend: Slurm's commands on this host, the job directories
on a filesystem this host shares with the compute nodes."""

import os
import shutil
import subprocess
import sys

from .. import errors
from .command import CommandBackend


class LocalFiles:
    """Job directories on a filesystem this host shares with the nodes
    (local and rest backends)."""

    def stage(self, jobdir, files):
        os.makedirs(os.path.dirname(jobdir), exist_ok=True)
        os.makedirs(jobdir, mode=0o700)
        for name, data in files.items():
            with open(os.path.join(jobdir, name), "wb") as f:
                f.write(data)

    def unstage(self, jobdir):
        shutil.rmtree(jobdir, ignore_errors=True)

    def read(self, path):
        try:
            with open(path, "rb") as f:
                return f.read()
        except FileNotFoundError:
            return None

    def python(self):
        return self.cluster.python or sys.executable

    def sluice_dir(self):
        return os.path.dirname(os.path.dirname(os.path.abspath(
            __import__("sluice").__file__)))


class LocalBackend(LocalFiles, CommandBackend):
    def __init__(self, cluster):
        super().__init__(cluster)
        self.bin_dir = cluster.bin_dir
        self._paths = {}

    def cmd(self, name):
        if name in self._paths:
            return self._paths[name]
        if self.bin_dir:
            p = os.path.join(self.bin_dir, name)
            if not os.access(p, os.X_OK):
                raise errors.SubmitError("%s not found in bin_dir=%s"
                                         % (name, self.bin_dir))
        else:
            p = shutil.which(name)
            if not p:
                raise errors.SubmitError("%s not found in PATH; give "
                                         "Cluster(bin_dir=...)" % name)
        self._paths[name] = p
        return p

    def env(self):
        e = dict(os.environ)
        e.update(self.cluster.env)
        if self.bin_dir:
            e["PATH"] = self.bin_dir + os.pathsep + e.get("PATH", "")
        return e

    def run(self, argv, input=None, timeout=None):
        try:
            p = subprocess.run(argv, input=input, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=self.env(),
                               timeout=timeout or self.cluster.command_timeout)
        except subprocess.TimeoutExpired:
            raise errors.ClusterUnreachable(
                "%s did not answer within %ss" % (
                    os.path.basename(argv[0]), self.cluster.command_timeout))
        except OSError as e:
            raise errors.SubmitError("cannot run %s: %s" % (argv[0], e))
        return (p.returncode, p.stdout.decode(errors="replace"),
                p.stderr.decode(errors="replace"))
