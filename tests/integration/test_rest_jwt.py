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

import os
import re
import time

import pytest

import cluster as cl
from conftest import _ACTIVE, _stop
from rest_client import Rest
from jwt_util import make_token, token_of

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


def test_operator_token_drains_user_token_cannot(rj):
    c, tcp, _ = rj
    ra = Rest(c, tcp=tcp, token=token_of(c, A))
    status, doc, text = ra.req("POST", "/slurm/v0.0.43/node/n1",
                               body={"state": ["DRAIN"], "reason": "by A"})
    assert status == 403, text
    assert "DRAIN" not in c.run(["scontrol", "show", "node", "n1"]).out
    root = Rest(c, tcp=tcp, token=token_of(c, None))
    status, doc, text = root.req("POST", "/slurm/v0.0.43/node/n1",
                                 body={"state": ["DRAIN"],
                                       "reason": "rest drain"})
    assert status == 200, text
    r = c.run(["scontrol", "show", "node", "n1"])
    assert "DRAIN" in r.out and "Reason=rest drain" in r.out, r
    status, doc, text = root.req("POST", "/slurm/v0.0.43/node/n1",
                                 body={"state": ["RESUME"]})
    assert status == 200, text
    cl.wait_for(lambda: "DRAIN" not in c.run(["scontrol", "show", "node",
                                               "n1"]).out, timeout=10,
                what="n1 resumed")


def test_user_name_header(rj):
    c, tcp, _ = rj
    # root's token may act as A: the job is A's
    root = Rest(c, tcp=tcp, token=token_of(c, None))
    body = {"script": "#!/bin/sh\ntrue\n",
            "job": {"name": "as_a", "current_working_directory": "/tmp",
                    "environment": ["PATH=/bin"], "hold": True}}
    status, doc, text = root.req("POST", "/slurm/v0.0.43/job/submit",
                                 body=body,
                                 headers={"X-SLURM-USER-NAME": A})
    assert status == 200, text
    jid = doc["job_id"]
    r = c.run(["squeue", "-h", "-j", str(jid), "-o", "%u"])
    assert r.out.strip() == A, r
    assert doc["meta"]["client"]["user"] == A
    # A's token may not act as B
    ra = Rest(c, tcp=tcp, token=token_of(c, A))
    status, doc, text = ra.req("GET", "/slurm/v0.0.43/jobs",
                               headers={"X-SLURM-USER-NAME": B})
    assert status == 401, text
    c.run(["scancel", str(jid)])


def test_reservation_create_update_delete(rj):
    c, tcp, _ = rj
    root = Rest(c, tcp=tcp, token=token_of(c, None))
    ra = Rest(c, tcp=tcp, token=token_of(c, A))
    now = int(time.time())
    desc = {"name": "rest_maint", "node_list": ["n1"], "users": [A],
            "start_time": {"set": True, "number": now + 7200},
            "duration": {"set": True, "number": 30},
            "flags": ["MAINT", "IGNORE_JOBS"]}
    status, doc, text = ra.req("POST", "/slurm/v0.0.43/reservation",
                               body=desc)
    assert status == 403, text
    assert "rest_maint" not in c.run(["scontrol", "show", "res"]).out
    status, doc, text = root.req("POST", "/slurm/v0.0.43/reservation",
                                 body=desc)
    assert status == 200, text
    assert [x["name"] for x in doc["reservations"]] == ["rest_maint"], text
    r = c.run(["scontrol", "show", "reservation", "rest_maint"])
    assert "Nodes=n1" in r.out and "MAINT" in r.out, r
    assert "Duration=00:30:00" in r.out, r
    # the same name again is an update
    status, doc, text = root.req(
        "POST", "/slurm/v0.0.43/reservations/",
        body={"reservations": [{"name": "rest_maint",
                                "duration": {"set": True, "number": 45}}]})
    assert status == 200, text
    r = c.run(["scontrol", "show", "reservation", "rest_maint"])
    assert "Duration=00:45:00" in r.out, r
    status, doc, text = root.req("POST", "/slurm/v0.0.43/reservation",
                                 body={"name": "x", "burst_buffer": "bb:1"})
    assert status == 400 and "not supported" in text, text
    status, doc, text = root.req("DELETE",
                                 "/slurm/v0.0.43/reservation/rest_maint")
    assert status == 200, text
    assert "rest_maint" not in c.run(["scontrol", "show", "res"]).out


def test_what_sluice_cannot_honour_is_refused(rj):
    """No Licenses= is configured here, so GET licenses is empty (what
    it shows of configured ones: test_licenses.py); an unknown jobs
    flag and a reason_uid naming someone else are refused, not ignored."""
    c, tcp, _ = rj
    root = Rest(c, tcp=tcp, token=token_of(c, None))
    status, doc, text = root.get("licenses/")
    assert status == 200 and doc["licenses"] == [], text
    status, doc, text = root.get("jobs/?flags=BOGUS")
    assert status == 400 and "BOGUS" in text, text
    status, doc, text = root.get("jobs/?flags=DETAIL,ALL")
    assert status == 200, text
    status, doc, text = root.req("POST", "/slurm/v0.0.43/node/n1",
                                 body={"state": ["DRAIN"], "reason": "x",
                                       "reason_uid": A})
    assert status == 400 and "reason_uid" in text, text
    assert "DRAIN" not in c.run(["scontrol", "show", "node", "n1"]).out
    status, doc, text = root.req("POST", "/slurm/v0.0.43/node/n1",
                                 body={"comment": "by root",
                                       "reason_uid": "root"})
    assert status == 200, text
