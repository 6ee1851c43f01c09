"""slurmrestd's sessions to slurmctld (msg.h "Sessions"), end to end.

slurmrestd keeps one connection per worker thread open to slurmctld: the
first message carries a keyed MUNGE credential (the session key sealed to
SlurmUser), later ones an HMAC with a sequence number.  Here:

- through the API, users A and B each through their own slurmrestd: their
  jobs are theirs, B still cannot cancel A's, and A's slurmrestd reuses
  its connections (no new connection per request);
- on the wire, as the users themselves (MUNGE credentials made with the
  `munge` command as A or B): a session works as documented; B cannot
  replay A's opening on another connection nor use A's MAC'd messages on
  B's session; a tampered message is refused, logged, and ends the
  session; a fresh credential inside a session (a user switch) is refused;
- slurmctld restarted under slurmrestd: the next request goes through
  on a new session, with no error to the client.
"""

import hashlib
import hmac
import os
import socket
import struct
import subprocess
import tempfile
import time

import pytest

from conftest import _start, _stop
from rest_client import Rest

A, B = "sluice_u1", "sluice_u2"

MAGIC, VERSION = 0x534C5543, 0x2505
REQUEST_PING, RESPONSE_SLURM_RC = 1008, 8001
F_SESSION, F_SESSION_MAC = 0x0008, 0x0010
LABEL = b"sluice-session-1"


@pytest.fixture(scope="module")
def rs(users):
    if os.environ.get("SLUICE_TEST_AUTH") == "slurm":
        pytest.skip("sessions need auth/munge (auth/slurm cannot seal a key)")
    c = _start(tag="rest_session", nodes=1,
               extra_conf="PrivateData=jobs\n")
    run = os.path.join(c.dir, "run")
    os.chmod(run, 0o1777)
    socks, restd = {}, {}
    for u in (A, B):
        socks[u] = os.path.join(run, "rs-%s.sock" % u)
        restd[u] = c.start_restd(u, ["unix:" + socks[u]],
                                 args=["-t", "2"], name="slurmrestd-" + u)
    yield c, Rest(c, socks[A], A), Rest(c, socks[B], B), restd
    _stop(c)


# ---- the wire, as the documentation in msg.h gives it ----

def header(mtype, flags, cred_len, body_len):
    return struct.pack(">IHHHII", MAGIC, VERSION, mtype, flags, cred_len,
                       body_len)


def digest(mtype, flags, body):
    return hashlib.sha256(header(mtype, flags, 0, len(body)) + body).digest()


def mac_cred(key, direction, seq, dig):
    be = struct.pack(">Q", seq)
    return be + hmac.new(key, LABEL + direction + be + dig,
                         hashlib.sha256).digest()


def munge_cred(c, user, payload, reader=0):
    """A MUNGE credential over payload made by user, decodable by uid
    reader only (SlurmUser: root in these clusters)."""
    fd, path = tempfile.mkstemp(prefix="rs-payload-")
    os.write(fd, payload)
    os.close(fd)
    os.chmod(path, 0o644)
    try:
        r = c.run(["munge", "-S", c.munge_socket, "-i", path,
                   "-u", str(reader)], user=user)
    finally:
        os.unlink(path)
    assert r.rc == 0, r
    return r.out.strip().encode()


def opening(c, user, key, mtype=REQUEST_PING, body=b""):
    d = digest(mtype, F_SESSION, body)
    cred = munge_cred(c, user, d + key)
    return header(mtype, F_SESSION, len(cred), len(body)) + cred + body


def in_session(key, seq, mtype=REQUEST_PING, body=b""):
    cred = mac_cred(key, b"Q", seq, digest(mtype, F_SESSION_MAC, body))
    return header(mtype, F_SESSION_MAC, len(cred), len(body)) + cred + body


def connect(c):
    return socket.create_connection(("127.0.0.1", c.ctld_port), timeout=10)


def recv_exact(s, n):
    out = b""
    while len(out) < n:
        chunk = s.recv(n - len(out))
        if not chunk:
            return None
        out += chunk
    return out


def reply(s):
    """(flags, cred, body, raw header) of the next reply, or None if the
    daemon closed the connection."""
    h = recv_exact(s, 18)
    if h is None:
        return None
    magic, ver, mtype, flags, clen, blen = struct.unpack(">IHHHII", h)
    assert magic == MAGIC and mtype == RESPONSE_SLURM_RC
    cred = recv_exact(s, clen)
    body = recv_exact(s, blen)
    return flags, cred, body, h


def rc_of(body):
    return struct.unpack(">I", body[:4])[0]


def check_reply(key, seq, r):
    flags, cred, body, h = r
    assert flags == F_SESSION_MAC
    d = hashlib.sha256(h[:10] + b"\0\0\0\0" + h[14:] + body).digest()
    assert cred == mac_cred(key, b"R", seq, d), "reply MAC"


def closed(s):
    s.settimeout(10)
    try:
        return s.recv(1) == b""
    except ConnectionResetError:
        return True


# ---- tests ----

def test_session_on_the_wire(rs):
    c = rs[0]
    key = os.urandom(32)
    s = connect(c)
    s.sendall(opening(c, A, key))
    r = reply(s)
    assert r is not None
    check_reply(key, 0, r)
    assert rc_of(r[2]) == 0
    for seq in (1, 2, 3):
        s.sendall(in_session(key, seq))
        r = reply(s)
        assert r is not None, "session closed at %d" % seq
        check_reply(key, seq, r)
    s.close()


def test_other_user_cannot_ride_a_session(rs):
    c = rs[0]
    key_a = os.urandom(32)
    open_a = opening(c, A, key_a)
    sa = connect(c)
    sa.sendall(open_a)
    check_reply(key_a, 0, reply(sa))

    # B replays A's opening (as if read off the wire) on its own
    # connection: MUNGE's replay cache refuses it
    off = c.log_size()
    sb = connect(c)
    sb.sendall(open_a)
    r = reply(sb)
    assert r is None or (r[0] != F_SESSION_MAC and rc_of(r[2]) != 0)
    sb.close()
    assert "replayed" in c.log_since(off)

    # B opens its own session and sends A's next message on it: refused,
    # logged, B's session ends; A's goes on
    key_b = os.urandom(32)
    sb = connect(c)
    sb.sendall(opening(c, B, key_b))
    check_reply(key_b, 0, reply(sb))
    off = c.log_size()
    sb.sendall(in_session(key_a, 1))
    assert closed(sb)
    assert "session MAC does not match" in c.log_since(off)
    sb.close()
    sa.sendall(in_session(key_a, 1))
    check_reply(key_a, 1, reply(sa))

    # inside A's session, a fresh credential of B's (a user switch):
    # refused, the session ends
    off = c.log_size()
    body = b""
    cred = munge_cred(c, B, digest(REQUEST_PING, 0, body))
    sa.sendall(header(REQUEST_PING, 0, len(cred), 0) + cred)
    assert closed(sa)
    assert "without the session's MAC" in c.log_since(off)
    sa.close()


@pytest.mark.parametrize("how", ["mac", "body", "replay", "truncated"])
def test_tampered_message_refused_and_logged(rs, how):
    c = rs[0]
    key = os.urandom(32)
    s = connect(c)
    s.sendall(opening(c, A, key))
    check_reply(key, 0, reply(s))
    msg = bytearray(in_session(key, 1))
    expect = "session MAC does not match"
    if how == "mac":
        msg[18 + 20] ^= 1
    elif how == "body":
        # a body the MAC was not made over (the header says 1 byte more)
        msg = bytearray(header(REQUEST_PING, F_SESSION_MAC, 40, 1)) + \
            msg[18:58] + b"x"
    elif how == "replay":
        s.sendall(bytes(msg))
        check_reply(key, 1, reply(s))
        expect = "out of sequence"
    else:
        msg = bytearray(header(REQUEST_PING, F_SESSION_MAC, 39, 0)) + \
            msg[18:57]
        expect = "wrong length"
    off = c.log_size()
    s.sendall(bytes(msg))
    assert closed(s)
    s.close()
    log = c.log_since(off)
    assert "Authentication failure from 127.0.0.1" in log and expect in log, log


def restd_ctld_conns(c, pid):
    """Local ports of pid's TCP connections to slurmctld."""
    out = subprocess.run(["ss", "-Htnp", "state", "established",
                          "dst", "127.0.0.1:%d" % c.ctld_port],
                         capture_output=True, text=True).stdout
    ports = set()
    for line in out.splitlines():
        if "pid=%d," % pid in line:
            ports.add(line.split()[2].rsplit(":", 1)[1])
    return ports


def submit(r, name):
    status, doc, text = r.req("POST", "/slurm/v0.0.43/job/submit", body={
        "script": "#!/bin/sh\nsleep 300\n",
        "job": {"name": name, "current_working_directory": "/tmp",
                # not /tmp/slurm-%j.out: another run's file of that name
                # (another owner, sticky /tmp) would fail the job
                "standard_output": "/dev/null",
                "environment": ["PATH=/bin:/usr/bin"]}})
    assert status == 200, text
    return doc["job_id"]


def test_users_jobs_stay_theirs_and_connections_are_reused(rs):
    c, ra, rb, restd = rs
    ja = [submit(ra, "rs_a") for _ in range(5)]
    jb = [submit(rb, "rs_b") for _ in range(5)]
    sq = c.run(["squeue", "-h", "-t", "all", "-o", "%i %u"])
    owners = dict(line.split() for line in sq.out.splitlines())
    assert str(ja[0]) in owners, (ja, jb, sq)
    assert all(owners[str(j)] == A for j in ja), owners
    assert all(owners[str(j)] == B for j in jb), owners
    status, doc, text = rb.req("DELETE", "/slurm/v0.0.43/job/%d" % ja[0])
    assert status == 403, text
    assert c.job_state(ja[4]) in ("PENDING", "RUNNING")

    before = restd_ctld_conns(c, restd[A].pid)
    assert before, "slurmrestd keeps no connection to slurmctld open"
    for _ in range(20):
        status, _, text = ra.get("jobs/")
        assert status == 200, text
    after = restd_ctld_conns(c, restd[A].pid)
    assert len(after) <= 2, after           # -t 2: one per worker
    assert before & after, (before, after)  # the same ones, reused


def test_ctld_restart_is_transparent(rs):
    c, ra, rb, restd = rs
    submit(ra, "rs_before")
    c.kill_ctld()
    c.start_ctld()
    deadline = time.time() + 30
    while c.run(["squeue", "-h"]).rc != 0:
        assert time.time() < deadline, "slurmctld did not come back"
        time.sleep(0.5)
    off = os.path.getsize(restd[A].out_path)
    for i in range(4):                      # each worker's old session
        jid = submit(ra, "rs_after%d" % i)
        assert jid > 0
    status, doc, text = ra.get("jobs/")
    assert status == 200, text
    with open(restd[A].out_path, errors="replace") as f:
        f.seek(off)
        log = f.read()
    assert "error" not in log.lower(), log


def test_command_reply_needs_no_munge(rs):
    """A command's request seals a key; slurmctld's reply is MAC'd under
    it: the command talks to munged once (to encode), not twice."""
    c = rs[0]
    fd, trace = tempfile.mkstemp(prefix="rs-strace-")
    os.close(fd)
    os.chmod(trace, 0o666)
    try:
        r = c.run(["strace", "-f", "-e", "trace=connect", "-o", trace,
                   c.bin("squeue"), "-h"], user=A)
        assert r.rc == 0, r
        with open(trace) as f:
            munge = [ln for ln in f if c.munge_socket in ln]
    finally:
        os.unlink(trace)
    assert len(munge) == 1, munge
