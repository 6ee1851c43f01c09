"""The rest backend: slurmrestd with a JWT (X-SLURM-USER-TOKEN).

Submit, state and cancel go through /slurm/<version>/job/...; usage
through /slurmdb/<version>/job/<id>.  The job directories must be on a
filesystem this host shares with the compute nodes (as for local).
The token is Cluster(token=...), else $SLURM_JWT, else `scontrol token`
(through bin_dir) run once; an expired token is refused here, before any
request, with TokenExpired.
"""

import base64
import http.client
import json
import os
import shutil
import subprocess
import time
import urllib.parse

from .. import errors
from . import base
from .local import LocalFiles

_ENV_KEEP = ("PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "TMPDIR",
             "SLURM_CONF")


def token_claims(token):
    """The JWT's payload (not verified: the server does that)."""
    try:
        payload = token.split(".")[1]
        payload += "=" * (-len(payload) % 4)
        return json.loads(base64.urlsafe_b64decode(payload))
    except (IndexError, ValueError):
        raise errors.AuthError("the token given is not a JWT "
                               "(header.payload.signature)")


class RestBackend(LocalFiles, base.Backend):
    def __init__(self, cluster):
        self.cluster = cluster
        url = cluster.url or "http://%s:6820" % (cluster.hostname or
                                                 "localhost")
        u = urllib.parse.urlsplit(url)
        if u.scheme not in ("http", "https") or not u.hostname:
            raise ValueError("url=%r: expected http://host:port" % url)
        self.url = url
        self._u = u
        self.ver = cluster.api_version
        self._token = cluster.token

    # ---- the token ---------------------------------------------------------
    def token(self):
        if not self._token:
            self._token = os.environ.get("SLURM_JWT") or self._scontrol_token()
        exp = token_claims(self._token).get("exp")
        if isinstance(exp, (int, float)) and exp <= time.time():
            raise errors.TokenExpired(
                "the JWT expired at %s (%d s ago); get a new one with "
                "`scontrol token` and pass it as Cluster(token=...)" % (
                    time.strftime("%Y-%m-%dT%H:%M:%S",
                                  time.localtime(exp)),
                    time.time() - exp))
        return self._token

    def _scontrol_token(self):
        b = self.cluster.bin_dir
        exe = os.path.join(b, "scontrol") if b else shutil.which("scontrol")
        if not exe:
            raise errors.AuthError("no token: give Cluster(token=...), set "
                                   "SLURM_JWT, or make scontrol reachable")
        env = dict(os.environ, **self.cluster.env)
        p = subprocess.run([exe, "token"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env,
                           timeout=self.cluster.command_timeout)
        out = p.stdout.decode().strip()
        if p.returncode != 0 or not out.startswith("SLURM_JWT="):
            raise base.command_error("scontrol token", p.returncode,
                                     p.stderr.decode())
        return out.split("=", 1)[1]

    # ---- HTTP --------------------------------------------------------------
    def request(self, method, path, body=None):
        """(status, parsed JSON) of one request; ClusterUnreachable when
        slurmrestd cannot be reached or cannot reach the controller,
        AuthError on 401/403."""
        headers = {"X-SLURM-USER-TOKEN": self.token(),
                   "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body)
            headers["Content-Type"] = "application/json"
        cls = (http.client.HTTPSConnection if self._u.scheme == "https"
               else http.client.HTTPConnection)
        try:
            h = cls(self._u.hostname, self._u.port,
                    timeout=self.cluster.command_timeout)
            h.request(method, self._u.path.rstrip("/") + path, body=data,
                      headers=headers)
            r = h.getresponse()
            text = r.read().decode(errors="replace")
            h.close()
        except OSError as e:
            raise errors.ClusterUnreachable("slurmrestd at %s: %s"
                                            % (self.url, e))
        try:
            doc = json.loads(text) if text else {}
        except ValueError:
            doc = {"errors": [{"description": text[:300]}]}
        if r.status in (401, 403):
            raise errors.AuthError("slurmrestd at %s refused the token "
                                   "(HTTP %d): %s" % (self.url, r.status,
                                                      _why(doc)))
        if r.status in (502, 503, 504):
            raise errors.ClusterUnreachable(
                "slurmrestd at %s answered HTTP %d (the controller or "
                "slurmdbd does not answer it): %s"
                % (self.url, r.status, _why(doc)))
        return r.status, doc

    # ---- backend -----------------------------------------------------------
    def submit(self, script, args, job, jobdir):
        job = dict(job)
        env = {k: os.environ[k] for k in _ENV_KEEP if k in os.environ}
        env.update(self.cluster.env)
        job.setdefault("environment", ["%s=%s" % kv for kv in env.items()])
        job.setdefault("current_working_directory", os.getcwd())
        status, doc = self.request("POST", "/slurm/%s/job/submit" % self.ver,
                                   {"script": script, "job": job})
        if status != 200 or doc.get("errors") or "job_id" not in doc:
            raise errors.SubmitError("slurmrestd refused the job (HTTP %d):"
                                     " %s" % (status, _why(doc)))
        return int(doc["job_id"])

    def status(self, job_id):
        status, doc = self.request("GET", "/slurm/%s/job/%s" % (self.ver,
                                                              job_id))
        if status != 200:
            return {}
        out = {}
        for j in doc.get("jobs", []):
            states = j.get("job_state") or ["UNKNOWN"]
            state = states[0] if isinstance(states, list) else states
            code = _num(j.get("exit_code", {}).get("return_code")) \
                if isinstance(j.get("exit_code"), dict) else None
            st = base.JobStatus(state, j.get("state_reason") or "", code)
            task = _num(j.get("array_task_id"))
            tstr = j.get("array_task_string") or ""
            if tstr:
                for i in base.expand_indices(tstr):
                    out[i] = st
            elif task is not None:
                out[task] = st
            else:
                out[None] = st
        return out

    def cancel(self, job_id):
        status, doc = self.request("DELETE", "/slurm/%s/job/%s"
                                   % (self.ver, job_id))
        if status != 200:
            raise errors.SluiceError("cancel of job %s refused (HTTP %d): %s"
                                     % (job_id, status, _why(doc)))

    def checkpoint(self, job_id):
        raise errors.SluiceError("checkpoint of job %s: slurmrestd has no "
                                 "checkpoint request; use the local or ssh "
                                 "backend (scontrol checkpoint)" % job_id)

    def exit_code(self, job_id):
        status, doc = self.request("GET", "/slurm/%s/job/%s" % (self.ver,
                                                              job_id))
        for j in doc.get("jobs", []) if status == 200 else []:
            ec = j.get("exit_code")
            if isinstance(ec, dict):
                code = _num(ec.get("return_code"))
                sig = ec.get("signal", {})
                sig = _num(sig.get("id")) if isinstance(sig, dict) else None
                if code is not None:
                    return code, sig or 0
        return None

    def stdout_path(self, job_id):
        status, doc = self.request("GET", "/slurm/%s/job/%s" % (self.ver,
                                                              job_id))
        for j in doc.get("jobs", []) if status == 200 else []:
            path = j.get("stdout_expanded") or j.get("standard_output")
            if path:
                return path
        return None

    def metrics(self, job_id):
        """GET /sluice/v1/job/{id}/metrics (Sluice's own endpoint)."""
        status, doc = self.request("GET", "/sluice/v1/job/%s/metrics"
                                   % job_id)
        if status != 200:
            raise errors.SluiceError("metrics of job %s: slurmrestd "
                                     "answered HTTP %d: %s"
                                     % (job_id, status, _why(doc)))
        return doc.get("metrics", [])

    def usage(self, job_id):
        """The slurmdb job records (REST's own field names)."""
        status, doc = self.request("GET", "/slurmdb/%s/job/%s"
                                   % (self.ver, job_id))
        if status != 200:
            raise errors.SluiceError("usage of job %s: slurmrestd answered "
                                     "HTTP %d: %s" % (job_id, status,
                                                      _why(doc)))
        return doc.get("jobs", [])


def _num(v):
    if isinstance(v, dict):
        if not v.get("set", True) or v.get("infinite"):
            return None
        v = v.get("number")
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _why(doc):
    errs = doc.get("errors") if isinstance(doc, dict) else None
    if errs:
        return "; ".join(str(e.get("description") or e.get("error") or e)
                         for e in errs)
    return json.dumps(doc)[:300]
