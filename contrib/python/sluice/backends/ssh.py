"""The ssh backend: Slurm's commands on a login node through the ssh
binary (OpenSSH; BatchMode, so a key or an agent, never a password
prompt).

Code and data go through Cluster(shared_dir=...), a path on the login
node that the compute nodes see: the sluice package (and cloudpickle,
which the compute side needs to load functions sent by value) is copied
once to shared_dir/.sluice/lib-<hash>/, each call's files to a job
directory under shared_dir/jobs (one tar stream per submission).
Functions are sent by value (cloudpickle, their module registered by
value), so the login node needs the same Python version, not the same
files.
"""

import hashlib
import io
import os
import posixpath
import shlex
import subprocess
import tarfile

from .. import errors
from .command import CommandBackend


def _package_dir(mod):
    return os.path.dirname(os.path.abspath(mod.__file__))


class SSHBackend(CommandBackend):
    code_by_value = True
    remote_sys_path = []

    def __init__(self, cluster):
        super().__init__(cluster)
        self._lib = None

    def cmd(self, name):
        b = self.cluster.bin_dir
        return posixpath.join(b, name) if b else name

    def _ssh_argv(self):
        c = self.cluster
        argv = ["ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=%d"
                % min(30, c.command_timeout)]
        if c.port:
            argv += ["-p", str(c.port)]
        if c.identity_file:
            argv += ["-i", c.identity_file, "-o", "IdentitiesOnly=yes"]
        for o in c.ssh_options:
            argv += ["-o", o]
        argv.append("%s@%s" % (c.user, c.hostname) if c.user else c.hostname)
        return argv

    def run_bytes(self, argv, input=None, timeout=None, shell=None):
        """Run argv (or a shell command line) on the login node; returns
        (rc, stdout bytes, stderr text).  ClusterUnreachable when ssh
        itself fails (exit 255)."""
        c = self.cluster
        line = shell if shell is not None else " ".join(
            shlex.quote(a) for a in argv)
        if c.env and shell is None:
            line = "env %s %s" % (" ".join(
                shlex.quote("%s=%s" % kv) for kv in c.env.items()), line)
        try:
            p = subprocess.run(self._ssh_argv() + ["--", line], input=input,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=timeout or c.command_timeout)
        except subprocess.TimeoutExpired:
            raise errors.ClusterUnreachable("ssh %s: no answer within %ss"
                                            % (c.hostname, c.command_timeout))
        except OSError as e:
            raise errors.ClusterUnreachable("cannot run ssh: %s" % e)
        err = p.stderr.decode(errors="replace")
        if p.returncode == 255:
            kind = (errors.AuthError if "Permission denied" in err or
                    "Host key verification failed" in err
                    else errors.ClusterUnreachable)
            raise kind("ssh to %s failed: %s" % (c.hostname, err.strip()))
        return p.returncode, p.stdout, err

    def run(self, argv, input=None, timeout=None):
        rc, out, err = self.run_bytes(argv, input, timeout)
        return rc, out.decode(errors="replace"), err

    # ---- files on the login node -------------------------------------------
    @staticmethod
    def _tar(files, prefix=""):
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as t:
            for name, data in sorted(files.items()):
                ti = tarfile.TarInfo(prefix + name)
                ti.size = len(data)
                ti.mode = 0o600
                t.addfile(ti, io.BytesIO(data))
        return buf.getvalue()

    def stage(self, jobdir, files):
        q = shlex.quote
        rc, out, err = self.run_bytes(
            None, self._tar(files),
            shell="mkdir -p %s && mkdir -m 700 %s && tar -x -C %s" % (
                q(posixpath.dirname(jobdir)), q(jobdir), q(jobdir)))
        if rc != 0:
            raise errors.SubmitError("cannot stage %s on %s: %s" % (
                jobdir, self.cluster.hostname, err.strip()))

    def unstage(self, jobdir):
        if jobdir.startswith(self.cluster.workdir + "/"):
            try:
                self.run_bytes(["rm", "-rf", "--", jobdir])
            except errors.SluiceError:
                pass

    def read(self, path):
        q = shlex.quote(path)
        rc, out, err = self.run_bytes(
            None, shell="if [ -e %s ]; then exec cat %s; else exit 3; fi"
            % (q, q))
        if rc == 3:
            return None
        if rc != 0:
            raise errors.SluiceError("cannot read %s on %s: %s" % (
                path, self.cluster.hostname, err.strip()))
        return out

    def read_many(self, jobdir, names):
        """The files that exist, as one tar stream from the login node."""
        q = shlex.quote
        rc, out, err = self.run_bytes(
            None, shell="cd %s && for f in %s; do [ -e \"$f\" ] && "
            "printf '%%s\\n' \"$f\"; done | tar -c -T - -f -" % (
                q(jobdir), " ".join(q(n) for n in names)))
        if rc != 0:
            raise errors.SluiceError("cannot read %s on %s: %s" % (
                jobdir, self.cluster.hostname, err.strip()))
        got = dict.fromkeys(names)
        with tarfile.open(fileobj=io.BytesIO(out), mode="r:") as t:
            for m in t.getmembers():
                if m.isfile() and m.name in got:
                    got[m.name] = t.extractfile(m).read()
        return got

    def python(self):
        return self.cluster.python or "python3"

    def sluice_dir(self):
        """Copy the sluice package (and cloudpickle) to the shared
        directory once; their content hash names the copy."""
        if self._lib:
            return self._lib
        import sluice
        files = {}
        pkgs = [("sluice", _package_dir(sluice))]
        try:
            import cloudpickle
            pkgs.append(("cloudpickle", _package_dir(cloudpickle)))
        except ImportError:
            pass
        for name, d in pkgs:
            for root, dirs, names in os.walk(d):
                dirs[:] = [x for x in dirs if x != "__pycache__"]
                for n in names:
                    if n.endswith(".py"):
                        p = os.path.join(root, n)
                        rel = posixpath.join(name, os.path.relpath(p, d))
                        with open(p, "rb") as f:
                            files[rel] = f.read()
        h = hashlib.sha256()
        for k in sorted(files):
            h.update(k.encode() + b"\0" + files[k])
        lib = posixpath.join(self.cluster.shared_dir, ".sluice",
                             "lib-" + h.hexdigest()[:16])
        q = shlex.quote
        rc, out, err = self.run_bytes(
            None, self._tar(files),
            shell="[ -d %s ] || { mkdir -p %s.tmp$$ && tar -x -C %s.tmp$$ "
            "&& chmod -R u+rwX,go+rX %s.tmp$$ && "
            "{ mv %s.tmp$$ %s 2>/dev/null || rm -rf %s.tmp$$; }; }" % (
                q(lib), q(lib), q(lib), q(lib), q(lib), q(lib), q(lib)))
        if rc != 0:
            raise errors.SubmitError("cannot copy the sluice package to %s "
                                     "on %s: %s" % (lib, self.cluster.hostname,
                                                    err.strip()))
        self._lib = lib
        return lib
