"""auth/jwt (AuthAltTypes=auth/jwt): scontrol token and SLURM_JWT.

- User A gets a token with `scontrol token`; with SLURM_JWT set and MUNGE
  unreachable for the command (its slurm.conf names a socket nobody
  listens on) sbatch and squeue work, and the job is A's.
- Whoever holds A's token acts as A: B with A's token sees A's job under
  PrivateData=jobs and cancels it.
- Expired, issued-in-the-future, badly signed, alg none, malformed,
  sun-less and unknown-user tokens are refused, and slurmctld logs
  "Authentication failure from <peer>: <reason>".
- A cannot mint a token for B (Slurm's "Invalid user id", exit 1); root
  can, with the lifespan asked for (default 1800 s); max_token_lifespan
  holds users but not root, disable_token_creation leaves tokens to root
  and SlurmUser.
- slurmdbd with AuthAltTypes=auth/jwt takes tokens too (sacctmgr without
  MUNGE), and logs a badly signed one.
- A controller without AuthAltTypes=auth/jwt mints no token and refuses
  messages that carry one; one whose key file group or other may read
  refuses to start and says which file.
"""

import hashlib
import os
import re
import subprocess
import time

import pytest

import cluster as cl
from conftest import _ACTIVE, _stop
from jwt_util import token_of, b64url, claims_of, make_token

A, B = "sluice_u1", "sluice_u2"
BOGUS_MUNGE = "/nonexistent/sluice-munge.socket"


def _start_with_key(tag, extra_conf, key_mode=0o600, nodes=1):
    """A cluster whose StateSaveLocation holds jwt_hs256.key (written
    before slurmctld starts)."""
    # MUNGE (not SLUICE_TEST_AUTH): the tests make it unreachable
    c = cl.Cluster(tag=tag, nodes=nodes, extra_conf=extra_conf, auth="munge")
    _ACTIVE.append(c)
    key = os.path.join(c.dir, "state", "jwt_hs256.key")
    with open(key, "wb") as f:
        f.write(os.urandom(32))
    os.chmod(key, key_mode)
    try:
        c.start()
    except BaseException:
        _stop(c, keep=True)
        raise
    return c, key


@pytest.fixture(scope="module")
def jwt(users):
    c, key = _start_with_key("jwt", "AuthAltTypes=auth/jwt\n"
                                    "AuthAltParameters=max_token_lifespan="
                                    "3600\n"
                                    "PrivateData=jobs\n", nodes=2)
    # the same cluster seen by a command that cannot reach MUNGE
    nomunge = os.path.join(c.dir, "etc", "slurm-nomunge.conf")
    with open(nomunge, "w") as f:
        f.write(c.conf_text(auth_socket=BOGUS_MUNGE))
    os.chmod(nomunge, 0o644)
    with open(key, "rb") as f:
        secret = f.read()
    yield c, nomunge, secret
    _stop(c)


def test_token_without_munge(jwt):
    c, nomunge, _ = jwt
    tok = token_of(c, A)
    claims = claims_of(tok)
    assert claims["sun"] == A
    assert claims["exp"] - claims["iat"] == 1800
    # MUNGE really is out of reach for this configuration
    r = c.run(["squeue"], user=A, conf=nomunge)
    assert r.rc != 0, r
    env = {"SLURM_JWT": tok}
    r = c.run(["sbatch", "--wrap", "sleep 1"], user=A, conf=nomunge, env=env)
    assert r.rc == 0, r
    jobid = int(re.fullmatch(r"Submitted batch job (\d+)\n", r.out).group(1))
    uid = cl.user_ids(A)[0]
    assert c.show_job(jobid)["UserId"] == "%s(%d)" % (A, uid)
    r = c.run(["squeue", "-h", "-t", "all", "-o", "%i %u"], user=A,
              conf=nomunge, env=env)
    assert r.rc == 0, r
    assert "%d %s" % (jobid, A) in r.out.splitlines(), r
    c.wait_done(jobid)
    assert c.job_state(jobid) == "COMPLETED"


def test_token_acts_as_its_user(jwt):
    c, nomunge, _ = jwt
    jobid = c.sbatch(["--wrap", "sleep 120"], user=A)
    c.wait_state(jobid, {"RUNNING"})
    tok = token_of(c, A)
    # B alone: PrivateData hides A's job, and B cannot cancel it
    r = c.run(["squeue", "-h", "-o", "%i"], user=B)
    assert str(jobid) not in r.out.split(), r
    r = c.run(["scancel", str(jobid)], user=B)
    assert c.job_state(jobid) == "RUNNING", r
    # B holding A's token is A
    env = {"SLURM_JWT": tok}
    r = c.run(["squeue", "-h", "-o", "%i"], user=B, conf=nomunge, env=env)
    assert r.rc == 0 and str(jobid) in r.out.split(), r
    r = c.run(["scancel", str(jobid)], user=B, conf=nomunge, env=env)
    assert r.rc == 0, r
    c.wait_state(jobid, {"CANCELLED"})


@pytest.mark.parametrize("kind,reason", [
    ("expired", "token expired"),
    ("future", "issued in the future"),
    ("bad_signature", "bad signature"),
    ("alg_none", "wrong algorithm"),
    ("hs512", "wrong algorithm"),
    ("three_dots", "malformed token"),
    ("not_json", "malformed token"),
    ("garbage", "malformed token"),
    ("no_sun", "no sun"),
    ("unknown_user", "unknown user"),
])
def test_bad_token_refused(jwt, kind, reason):
    c, nomunge, secret = jwt
    now = int(time.time())
    ok = {"iat": now, "exp": now + 600, "sun": A}
    tok = {
        "expired": lambda: make_token(secret, dict(ok, iat=now - 700,
                                                   exp=now - 100)),
        "future": lambda: make_token(secret, dict(ok, iat=now + 3600,
                                                  exp=now + 7200)),
        "bad_signature": lambda: make_token(os.urandom(32), ok),
        "alg_none": lambda: make_token(secret, ok, {"alg": "none",
                                                    "typ": "JWT"}, None),
        "hs512": lambda: make_token(secret, ok, {"alg": "HS512",
                                                 "typ": "JWT"},
                                    hashlib.sha512),
        "three_dots": lambda: make_token(secret, ok) + ".x",
        "not_json": lambda: "%s.%s.%s" % (b64url(b"{\"alg\":\"HS256\"}"),
                                          b64url(b"not json"), b64url(b"s")),
        "garbage": lambda: "garbage",
        "no_sun": lambda: make_token(secret, {"iat": now, "exp": now + 60}),
        "unknown_user": lambda: make_token(secret, dict(
            ok, sun="no_such_user_sluice")),
    }[kind]()
    off = c.log_size()
    r = c.run(["squeue"], user=A, conf=nomunge, env={"SLURM_JWT": tok})
    assert r.rc != 0, r
    assert "Protocol authentication error" in r.err, r
    line = None
    for _ in range(20):
        m = re.search(r"Authentication failure from 127\.0\.0\.1:\d+: (.*)",
                      c.log_since(off))
        if m:
            line = m.group(1)
            break
        time.sleep(0.1)
    assert line and reason in line, (line, c.log_since(off)[-2000:])
    # nothing else changed: the controller still answers
    assert c.run(["squeue"], user=A).rc == 0


def test_mint_for_another_user(jwt):
    c, _, _ = jwt
    r = c.run(["scontrol", "token", "username=%s" % B], user=A)
    assert r.rc == 1, r
    assert r.out == ""
    assert r.err == ("scontrol: error: slurm_fetch_token: error with "
                     "request: Invalid user id\n"), r
    # naming oneself is fine
    assert claims_of(token_of(c, A, "username=%s" % A))["sun"] == A
    tok = token_of(c, None, "username=%s" % B, "lifespan=60")
    claims = claims_of(tok)
    assert claims["sun"] == B
    assert claims["exp"] - claims["iat"] == 60
    # AuthAltParameters=max_token_lifespan=3600 holds users, not root
    claims = claims_of(token_of(c, A, "lifespan=3600"))
    assert claims["exp"] - claims["iat"] == 3600
    r = c.run(["scontrol", "token", "lifespan=3601"], user=A)
    assert r.rc == 1 and "Requested time limit is invalid" in r.err, r
    tok = token_of(c, None, "lifespan=86400")
    assert claims_of(tok)["exp"] - claims_of(tok)["iat"] == 86400
    r = c.run(["scontrol", "show", "config"])
    assert re.search(r"(?m)^AuthAltTypes\s+= auth/jwt$", r.out), r.out
    assert re.search(r"(?m)^AuthAltParameters\s+= max_token_lifespan=3600$",
                     r.out), r.out
    r = c.run(["scontrol", "token", "lifespan=soon"], user=A)
    assert r.rc == 1 and "lifespan" in r.err, r
    r = c.run(["scontrol", "token", "bogus=1"], user=A)
    assert r.rc == 1 and r.err == "Invalid option: `bogus=1`\n", r


def test_without_auth_jwt(users, jwt):
    _, _, secret = jwt
    c = cl.Cluster(tag="nojwt", nodes=1, auth="munge")
    _ACTIVE.append(c)
    try:
        c.start()
        r = c.run(["scontrol", "token"], user=A)
        assert r.rc == 1, r
        assert "Token Generation failed." in r.err, r
        now = int(time.time())
        tok = make_token(secret, {"iat": now, "exp": now + 60, "sun": A})
        off = c.log_size()
        r = c.run(["squeue"], user=A, env={"SLURM_JWT": tok})
        assert r.rc != 0, r
        time.sleep(0.3)
        assert re.search(r"Authentication failure from 127\.0\.0\.1:\d+: "
                         r"auth/jwt token, but AuthAltTypes=auth/jwt is not "
                         r"configured", c.log_since(off)), c.log_since(off)
    finally:
        _stop(c)


def test_key_readable_by_group_refused(users):
    c = cl.Cluster(tag="jwtkey", nodes=1, extra_conf="AuthAltTypes=auth/jwt",
                   auth="munge")
    key = os.path.join(c.dir, "state", "jwt_hs256.key")
    with open(key, "wb") as f:
        f.write(os.urandom(32))
    os.chmod(key, 0o640)
    c.ctld_port, port = cl.free_ports(2)
    c.node_ports = {"n1": port}
    c.write_conf()
    try:
        p = subprocess.run([c.bin("slurmctld"), "-D"], env=c.env_for(),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=30)
        assert p.returncode != 0, p
        log = p.stdout + c.log_text()
        assert re.search(r"fatal: auth/jwt: jwt_key file %s is readable or "
                         r"writable by group or other" % re.escape(key),
                         log), log[-2000:]
        os.unlink(key)
        p = subprocess.run([c.bin("slurmctld"), "-D"], env=c.env_for(),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=30)
        assert p.returncode != 0, p
        assert "cannot open jwt_key file %s" % key in p.stdout + \
            c.log_text(), p
    finally:
        c.cleanup()


def test_slurmdbd_takes_tokens(users):
    import mariadb
    if mariadb.missing_tools():
        pytest.skip("no MariaDB: %s" % ", ".join(mariadb.missing_tools()))
    e = mariadb.AcctEnv(tag="jwtdbd", auth="munge")
    key = os.path.join(e.c.dir, "etc", "jwt.key")
    with open(key, "wb") as f:
        f.write(os.urandom(32))
    os.chmod(key, 0o400)
    with open(key, "rb") as f:
        secret = f.read()
    e.dbd_extra = "AuthAltTypes=auth/jwt\nAuthAltParameters=jwt_key=%s" % key
    try:
        e.start()
        c = e.c
        nomunge = os.path.join(c.dir, "etc", "slurm-nomunge.conf")
        with open(nomunge, "w") as f:
            f.write(c.conf_text(auth_socket=BOGUS_MUNGE))
        os.chmod(nomunge, 0o644)
        now = int(time.time())
        tok = make_token(secret, {"iat": now, "exp": now + 60,
                                  "sun": "root"})
        argv = [e.sacctmgr_bin(), "-n", "-P", "show", "qos", "format=name"]
        r = c.run(argv, conf=nomunge)
        assert r.rc != 0, r
        r = c.run(argv, conf=nomunge, env={"SLURM_JWT": tok})
        assert r.rc == 0 and r.out == "normal\n", r
        # a token for A may not do what only root may
        tok_a = make_token(secret, {"iat": now, "exp": now + 60, "sun": A})
        r = c.run([e.sacctmgr_bin(), "-i", "add", "account", "jwtacct"],
                  conf=nomunge, env={"SLURM_JWT": tok_a})
        assert r.rc != 0, r
        bad = make_token(os.urandom(32), {"iat": now, "exp": now + 60,
                                          "sun": "root"})
        r = c.run(argv, conf=nomunge, env={"SLURM_JWT": bad})
        assert r.rc != 0, r
        time.sleep(0.3)
        assert re.search(r"Authentication failure from 127\.0\.0\.1:\d+: "
                         r"bad signature", e.dbd_log_text()), \
            e.dbd_log_text()[-2000:]
    finally:
        e.finish()


def test_disable_token_creation(users):
    c, _ = _start_with_key("jwtoff", "AuthAltTypes=auth/jwt\n"
                                     "AuthAltParameters="
                                     "disable_token_creation\n")
    try:
        r = c.run(["scontrol", "token"], user=A)
        assert r.rc == 1, r
        assert r.err == ("scontrol: error: slurm_fetch_token: error with "
                         "request: Access/permission denied\n"), r
        assert claims_of(token_of(c, None, "username=%s" % A))["sun"] == A
    finally:
        _stop(c)
