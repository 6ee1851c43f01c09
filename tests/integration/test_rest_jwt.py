"""slurmrestd with rest_auth/jwt in front of a controller with
AuthAltTypes=auth/jwt (issue 24): the token a client sends in
X-SLURM-USER-TOKEN goes with every message slurmrestd's worker sends for
that request (msg_auth_jwt_set), so the controller acts as the token's
user; slurmrestd runs as an unprivileged user of its own and holds no key.

- A's token sees A's job (PrivateData=jobs), B's does not; B's token
  cannot cancel A's job, A's can.
- An expired token and a token signed with another key get 401 and the
  controller logs why.
"""

import base64
import hashlib
import hmac
import json
import os
import re
import time

import pytest

import cluster as cl
from conftest import _ACTIVE, _stop
from rest_client import Rest

A, B = "sluice_u1", "sluice_u2"
RESTD_USER = "nobody"


@pytest.fixture(scope="module")
def rj(users):
    c = cl.Cluster(tag="rest_jwt", nodes=1, auth="munge",
                   extra_conf="AuthAltTypes=auth/jwt\nPrivateData=jobs\n")
    _ACTIVE.append(c)
    key = os.path.join(c.dir, "state", "jwt_hs256.key")
    with open(key, "wb") as f:
        f.write(os.urandom(32))
    os.chmod(key, 0o600)
    with open(key, "rb") as f:
        secret = f.read()
    try:
        c.start()
        port = cl.free_ports(1)[0]
        c.start_restd(RESTD_USER, ["127.0.0.1:%d" % port],
                      args=["-a", "rest_auth/jwt"])
    except BaseException:
        _stop(c, keep=True)
        raise
    yield c, "127.0.0.1:%d" % port, secret
    _stop(c)


def token_of(c, user):
    r = c.run(["scontrol", "token"], user=user)
    assert r.rc == 0, r
    return re.fullmatch(r"SLURM_JWT=(\S+)\n", r.out).group(1)


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def make_token(secret, claims):
    signing = "%s.%s" % (b64url(b'{"alg":"HS256","typ":"JWT"}'),
                         b64url(json.dumps(claims).encode()))
    return signing + "." + b64url(hmac.new(secret, signing.encode(),
                                           hashlib.sha256).digest())


def job_ids(doc):
    return [j["job_id"] for j in doc["jobs"]]


def test_token_is_its_user(rj):
    c, tcp, _ = rj
    jobid = c.sbatch(["--wrap", "sleep 120"], user=A)
    c.wait_state(jobid, {"RUNNING"})
    ra = Rest(c, tcp=tcp, token=token_of(c, A))
    rb = Rest(c, tcp=tcp, token=token_of(c, B))
    status, doc, text = ra.get("jobs")
    assert status == 200, text
    assert jobid in job_ids(doc), text
    status, doc, text = rb.get("jobs")
    assert status == 200, text
    assert jobid not in job_ids(doc), text
    status, doc, text = rb.req("DELETE", "/slurm/v0.0.43/job/%d" % jobid)
    assert status != 200, text
    assert c.job_state(jobid) == "RUNNING"
    status, doc, text = ra.req("DELETE", "/slurm/v0.0.43/job/%d" % jobid)
    assert status == 200, text
    c.wait_state(jobid, {"CANCELLED"})


@pytest.mark.parametrize("kind,reason", [
    ("expired", "token expired"),
    ("other_key", "bad signature"),
])
def test_refused_token(rj, kind, reason):
    c, tcp, secret = rj
    now = int(time.time())
    if kind == "expired":
        tok = make_token(secret, {"iat": now - 700, "exp": now - 100,
                                  "sun": A})
    else:
        tok = make_token(os.urandom(32), {"iat": now, "exp": now + 60,
                                          "sun": A})
    off = c.log_size()
    status, doc, text = Rest(c, tcp=tcp, token=tok).get("jobs")
    assert status == 401, text
    time.sleep(0.3)
    assert re.search(r"Authentication failure from 127\.0\.0\.1:\d+: %s"
                     % reason, c.log_since(off)), c.log_since(off)[-2000:]
