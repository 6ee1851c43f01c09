"""Authentication and authorization, with AuthType=auth/munge and again
with auth/slurm (the whole module runs once per auth type).

- A client whose munged has another key (auth/slurm: another slurm.key) is
  refused, and slurmctld's log says why.
- Garbage on the controller's and a slurmd's port does not hurt them.
- One user cannot cancel, hold or update another user's job.
- Hand-made messages (auth/munge): no credential, a credential made for
  another message, a replayed one and an expired one are refused by
  slurmctld and by a slurmd, each logged with the peer; squeue answers
  meanwhile.  A user's REQUEST_SIGNAL_JOB / REQUEST_TERMINATE_JOB sent
  straight to a slurmd is refused as a security violation, nothing killed.
"""

import os
import re
import socket
import struct
import time

import pytest

import conftest


@pytest.fixture(scope="module", params=["munge", "slurm"])
def cluster(request, users):
    """This module's cluster, once per AuthType."""
    c = conftest._start(tag="auth_" + request.param, auth=request.param)
    yield c
    conftest._stop(c)


@pytest.fixture(scope="module")
def foreign_conf(cluster):
    """A copy of slurm.conf pointing at a second munged with its own key
    (auth/slurm: at another key file)."""
    c = cluster
    d = None
    path = os.path.join(c.dir, "etc", "slurm-foreign.conf")
    if c.auth == "slurm":
        key = c.write_key(os.path.join(c.dir, "etc", "foreign.key"))
        text = c.conf_text(auth_key=key)
    else:
        d, sock = c.start_munged("munge2")
        text = c.conf_text(auth_socket=sock)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o644)
    yield path
    if d:
        c.stop_daemon(d)


AUTH_WORDS = re.compile(r"(?i)(auth|munge|credential)")


def test_foreign_munge_key_refused(cluster, foreign_conf):
    c = cluster
    # auth/slurm: a user cannot read the foreign key (root's, 0600) and
    # would get good tokens from the token service; root signs with it
    user = None if c.auth == "slurm" else "sluice_u1"
    before = c.run(["squeue", "-h", "-t", "all", "-o", "%i"]).out
    off = c.log_size()
    r = c.run(["sbatch", "--wrap", "true"], user=user, conf=foreign_conf)
    assert r.rc != 0, "sbatch with a foreign munge key was accepted: %r" % r
    assert not r.out.startswith("Submitted batch job"), r
    assert r.err.startswith("sbatch: error: "), r
    r2 = c.run(["squeue"], user=user, conf=foreign_conf)
    assert r2.rc != 0, "squeue with a foreign munge key answered: %r" % r2
    r3 = c.run(["scancel", "-u", "sluice_u1"], conf=foreign_conf)
    assert r3.rc != 0 or r3.err, r3
    time.sleep(0.5)
    new_log = c.log_since(off)
    bad = [l for l in new_log.splitlines()
           if AUTH_WORDS.search(l) and re.search(r"(?i)error|fail|invalid|denied", l)]
    assert bad, "slurmctld log has no authentication error line:\n" + new_log[-3000:]
    assert c.run(["squeue", "-h", "-t", "all", "-o", "%i"]).out == before
    assert c.ctld.alive()


def send_raw(port, payloads, read=True):
    for data in payloads:
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        try:
            s.sendall(data)
            if read:
                s.settimeout(2)
                try:
                    s.recv(4096)
                except (socket.timeout, ConnectionError):
                    pass
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            s.close()


GARBAGE = [
    b"",
    b"\x00",
    b"GET / HTTP/1.0\r\n\r\n",
    struct.pack("!I", 0xFFFFFFFF) + b"\x00" * 16,          # absurd length
    struct.pack("!I", 0x40000000),                          # 1 GiB promised, nothing sent
    struct.pack("!I", 64) + os.urandom(64),                 # plausible length, random body
    struct.pack("!I", 12) + struct.pack("!HHHI", 0x2b00, 0, 2003, 0xFFFFFFF0) + b"\x00\x00",
    os.urandom(4096),
    struct.pack("!I", 100000) + os.urandom(1000),           # truncated
]


def test_garbage_to_controller(cluster):
    c = cluster
    send_raw(c.ctld_port, GARBAGE)
    # Many half-open connections at once.
    socks = [socket.create_connection(("127.0.0.1", c.ctld_port)) for _ in range(50)]
    for s in socks:
        try:
            s.sendall(struct.pack("!I", 1000))
        except OSError:
            pass
    r = c.run(["squeue"], timeout=20)
    for s in socks:
        s.close()
    assert r.rc == 0, "squeue failed while 50 connections hang: %r" % r
    assert c.ctld.alive(), "slurmctld died:\n" + c.log_tails()
    r = c.run(["squeue"])
    assert r.rc == 0, r
    jid = c.sbatch(["--wrap", "true"], user="sluice_u2")
    assert c.wait_done(jid, 30) == "COMPLETED"


def test_garbage_to_slurmd(cluster):
    c = cluster
    send_raw(c.node_ports["n4"], GARBAGE)
    assert c.slurmds["n4"].alive(), "slurmd n4 died:\n" + c.log_tails()
    jid = c.sbatch(["-w", "n4", "--wrap", "true"], user="sluice_u2")
    assert c.wait_done(jid, 30) == "COMPLETED"
    assert c.node_states().get("n4", "").startswith("idle")


@pytest.fixture(scope="module")
def u1_jobs(cluster):
    c = cluster
    run = c.sbatch(["-J", "u1run", "--wrap", "/usr/bin/sleep 600"], user="sluice_u1")
    c.wait_state(run, "RUNNING", 30)
    # Needs all 8 CPUs while u1run holds one: pending (Resources).
    pend = c.sbatch(["-J", "u1pend", "-n", "8", "--wrap", "true"],
                    user="sluice_u1")
    return run, pend


def test_other_user_cannot_scancel(cluster, u1_jobs):
    c = cluster
    run, pend = u1_jobs
    for jid in (run, pend):
        r = c.run(["scancel", str(jid)], user="sluice_u2")
        assert r.err == ("scancel: error: Kill job error on job id %d: "
                         "Access/permission denied\n" % jid), r
        assert r.rc == 210, r   # Slurm exits with the error code & 0xff
    time.sleep(1)
    assert c.job_state(run) == "RUNNING"
    assert c.job_state(pend) == "PENDING"


def test_other_user_cannot_hold_or_update(cluster, u1_jobs):
    c = cluster
    run, pend = u1_jobs
    r = c.run(["scontrol", "hold", str(pend)], user="sluice_u2")
    assert r.rc != 0, r
    assert re.search(r"Access/permission denied|Invalid user id", r.err), r
    rec = c.show_job(pend)
    assert rec.get("Reason") != "JobHeldUser" and rec.get("Priority") != "0", rec
    r = c.run(["scontrol", "update", "JobId=%d" % pend, "JobName=stolen"],
              user="sluice_u2")
    assert r.rc != 0, r
    assert c.show_job(pend).get("JobName") == "u1pend"


def test_other_user_cannot_release(cluster):
    c = cluster
    jid = c.sbatch(["-J", "u1held", "--hold", "--wrap", "true"], user="sluice_u1")
    r = c.run(["scontrol", "release", str(jid)], user="sluice_u2")
    assert r.rc != 0, r
    assert re.search(r"Access/permission denied|Invalid user id", r.err), r
    time.sleep(0.5)
    rec = c.show_job(jid)
    assert (rec.get("JobState"), rec.get("Reason")) == ("PENDING", "JobHeldUser"), rec
    c.run(["scancel", str(jid)], user="sluice_u1")


def test_other_user_cannot_sattach(cluster):
    """As Slurm 22.05: every node of the step refuses the other user, who
    is told "Node nX: no tasks running" (exit 0) and gets no output."""
    c = cluster
    jid = c.sbatch(["-w", "n3", "--wrap",
                    "%s -n1 /usr/bin/sleep 600" % c.bin("srun")],
                   user="sluice_u1")
    step = "%d.0" % jid
    deadline = time.time() + 40
    while time.time() < deadline:
        r = c.run(["squeue", "-h", "-s", "-o", "%i"])
        if step in r.out.split():
            break
        time.sleep(0.2)
    assert step in r.out.split(), r
    r = c.run(["sattach", step], user="sluice_u2", timeout=60)
    assert (r.rc, r.out, r.err) == (
        0, "", "sattach: Node n3: no tasks running\n"), r
    assert "attempt to attach to StepId=%s" % step in c.log_text("n3")
    assert c.job_state(jid) == "RUNNING"
    c.run(["scancel", str(jid)])
    c.wait_done(jid, 30)


def test_owner_and_root_can(cluster, u1_jobs):
    c = cluster
    run, pend = u1_jobs
    r = c.run(["scontrol", "hold", str(pend)], user="sluice_u1")
    assert (r.rc, r.out, r.err) == (0, "", ""), r
    assert c.show_job(pend).get("Reason") == "JobHeldUser"
    r = c.run(["scontrol", "release", str(pend)], user="sluice_u1")
    assert r.rc == 0, r
    r = c.run(["scancel", str(pend)], user="sluice_u1")
    assert r.rc == 0, r
    assert c.wait_done(pend, 20) == "CANCELLED"
    r = c.run(["scancel", str(run)])           # root
    assert (r.rc, r.err) == (0, ""), r
    assert c.wait_done(run, 20) == "CANCELLED"


def test_squeue_shows_other_users_jobs(cluster):
    """squeue lists every user's jobs by default (PrivateData unset)."""
    c = cluster
    jid = c.sbatch(["--hold", "-J", "visible", "--wrap", "true"], user="sluice_u1")
    r = c.run(["squeue", "-h", "-o", "%i %u"], user="sluice_u2")
    assert "%d sluice_u1" % jid in r.out.splitlines(), r
    c.run(["scancel", str(jid)], user="sluice_u1")


def test_private_data_jobs_nodes_partitions(new_cluster):
    """PrivateData=jobs,nodes,partitions: users see only their own jobs and
    no node or partition state; operators see everything."""
    c = new_cluster(extra_conf="PrivateData=jobs,nodes,partitions")
    j1 = c.sbatch(["--hold", "--wrap", "true"], user="sluice_u1")
    j2 = c.sbatch(["--hold", "--wrap", "true"], user="sluice_u2")
    ids = lambda r: sorted(r.out.split())  # noqa: E731
    r = c.run(["squeue", "-h", "-o", "%i"], user="sluice_u2")
    assert (r.rc, ids(r)) == (0, [str(j2)]), r
    r = c.run(["squeue", "-h", "-o", "%i", "-u", "sluice_u1"], user="sluice_u2")
    assert (r.rc, r.out) == (0, ""), r
    r = c.run(["squeue", "-h", "-o", "%i"])
    assert ids(r) == sorted([str(j1), str(j2)]), r
    r = c.run(["scontrol", "show", "job", str(j1)], user="sluice_u2")
    assert r.rc != 0 and "Access/permission denied" in r.err, r
    assert "JobId=%s" % j1 not in r.out
    r = c.run(["scontrol", "show", "job", str(j1)], user="sluice_u1")
    assert r.rc == 0 and "JobId=%s " % j1 in r.out, r
    r = c.run(["sinfo", "-h"], user="sluice_u2")
    assert r.rc != 0 and "Access/permission denied" in r.err, r
    assert r.out == "", r
    r = c.run(["scontrol", "show", "node", "n1"], user="sluice_u2")
    assert r.rc != 0 and "Access/permission denied" in r.err, r
    r = c.run(["sinfo", "-h", "-o", "%D"])
    assert (r.rc, r.out.strip()) == (0, "4"), r
    r = c.run(["scontrol", "show", "partition"], user="sluice_u2")
    assert r.rc != 0 and "Access/permission denied" in r.err, r
    assert "PartitionName=" not in r.out, r
    r = c.run(["scontrol", "show", "partition"])
    assert r.rc == 0 and "PartitionName=" in r.out, r


def test_slurm_key_must_be_private(cluster):
    """auth/slurm: a key file others can read is refused with a clear
    error, nothing is sent."""
    c = cluster
    if c.auth != "slurm":
        pytest.skip("auth/slurm only")
    key = c.write_key(os.path.join(c.dir, "etc", "open.key"))
    os.chmod(key, 0o644)
    path = os.path.join(c.dir, "etc", "slurm-openkey.conf")
    with open(path, "w") as f:
        f.write(c.conf_text(auth_key=key))
    os.chmod(path, 0o644)
    r = c.run(["squeue"], conf=path)
    assert r.rc == 1 and r.out == "", r
    assert ("key file %s is accessible by group or others (mode 0644)" % key
            in r.err), r


# ---- hand-made messages: the credential bound to its message ---------
#
# The wire format (src/common/msg.h, msg.c): an 18-byte big-endian header
# (u32 magic "SLUC", u16 version, u16 type, u16 flags, u32 credential
# length, u32 body length), the credential, the body.  auth/munge's
# credential is a MUNGE credential whose payload is the 32-byte SHA-256 of
# the header (credential length taken as 0) and the body.  Built here with
# the munge CLI against the cluster's own munged.

MSG_MAGIC = 0x534C5543
MSG_VERSION = 0x2505
REQUEST_PING = 1008
REQUEST_SIGNAL_JOB = 6004
REQUEST_TERMINATE_JOB = 6011
RESPONSE_SLURM_RC = 8001
AUTH_ERROR = 1007             # SLURM_PROTOCOL_AUTHENTICATION_ERROR
ACCESS_DENIED = 2002          # ESLURM_ACCESS_DENIED
NO_VAL = 0xFFFFFFFE
KILL_FULL_JOB = 0x0002


def msg_header(mtype, body, cred_len, flags=0):
    return struct.pack("!IHHHII", MSG_MAGIC, MSG_VERSION, mtype, flags,
                       cred_len, len(body))


def msg_digest(mtype, body, flags=0):
    import hashlib
    return hashlib.sha256(msg_header(mtype, body, 0, flags) + body).digest()


def munge_cred(c, digest, ttl=None, user=None):
    """A MUNGE credential (bytes) with payload digest, from the cluster's
    munged, made as user (None: root)."""
    import subprocess
    argv = ["munge", "-S", c.munge_socket]
    if ttl:
        argv += ["-t", str(ttl)]
    if user:
        argv = ["runuser", "-u", user, "--"] + argv
    r = subprocess.run(argv, input=digest, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=30)
    assert r.returncode == 0, r
    return r.stdout.strip()


def msg_frame(mtype, body, cred, flags=0):
    return msg_header(mtype, body, len(cred), flags) + cred + body


def signed(c, mtype, body=b"", user=None, ttl=None):
    return msg_frame(mtype, body, munge_cred(c, msg_digest(mtype, body),
                                             ttl=ttl, user=user))


def send_msg(port, data, timeout=30):
    """Send one framed message; returns (peer string as the daemon logs it,
    rc of the RESPONSE_SLURM_RC answer or None if the connection closed
    with no answer)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    peer = "127.0.0.1:%d" % s.getsockname()[1]
    got = b""
    try:
        s.sendall(data)
        while True:
            if len(got) >= 18:
                _, _, mtype, _, cl, bl = struct.unpack("!IHHHII", got[:18])
                if len(got) >= 18 + cl + bl:
                    break
            chunk = s.recv(65536)
            if not chunk:
                break
            got += chunk
    except (ConnectionError, socket.timeout):
        pass
    finally:
        s.close()
    if len(got) < 18:
        return peer, None
    _, _, mtype, _, cl, bl = struct.unpack("!IHHHII", got[:18])
    assert mtype == RESPONSE_SLURM_RC, got
    body = got[18 + cl:18 + cl + bl]
    return peer, struct.unpack("!I", body[:4])[0]


def wait_log(c, which, off, pattern, timeout=20):
    deadline = time.time() + timeout
    while True:
        text = c.log_since(off, which)
        if re.search(pattern, text):
            return text
        if time.time() > deadline:
            return text
        time.sleep(0.2)


def auth_attacks(c):
    """(name, bytes, why as logged) of each bad message, made now: no
    credential, a credential made for another message, an expiring one
    (ttl 1 s: expired by the time it is sent), plus one good ping whose
    bytes are sent twice (second: replayed)."""
    good = signed(c, REQUEST_PING)
    other = msg_frame(REQUEST_PING, b"", munge_cred(
        c, msg_digest(REQUEST_PING, b"", flags=1)))
    expiring = signed(c, REQUEST_PING, ttl=1)
    return good, [
        ("no credential", msg_frame(REQUEST_PING, b"", b""),
         "no credential"),
        ("another message's credential", other, "payload mismatch"),
        ("expired credential", expiring, "credential expired"),
    ]


def check_auth_refusals(c, port, which):
    good, bad = auth_attacks(c)
    time.sleep(2.5)                           # the ttl=1 credential expires
    off = c.log_size(which)
    peer, rc = send_msg(port, good)
    assert rc == 0, "a correctly made REQUEST_PING was not answered with 0"
    peer, rc = send_msg(port, good)           # the same bytes again
    bad_peers = [("replayed credential", peer, rc, "credential replayed")]
    for name, data, why in bad:
        peer, rc = send_msg(port, data)
        bad_peers.append((name, peer, rc, why))
    for name, peer, rc, why in bad_peers:
        assert rc == AUTH_ERROR, "%s to %s: answered %r" % (name, which, rc)
        pat = r"Authentication failure from %s: %s" % (re.escape(peer), why)
        text = wait_log(c, which, off, pat)
        assert re.search(pat, text), \
            "%s: %s log has no %r:\n%s" % (name, which, pat, text[-3000:])


def test_munge_cred_refused_and_logged_by_controller(cluster):
    """No credential, another message's credential, a replayed one and an
    expired one are each answered with an authentication error and logged
    with the peer; squeue answers meanwhile."""
    import threading
    c = cluster
    if c.auth != "munge":
        pytest.skip("MUNGE credentials (auth/slurm: tests/unit/test_auth_slurm.c)")
    res = {}
    t = threading.Thread(target=lambda: res.update(
        r=[c.run(["squeue", "-h", "-o", "%i"], user="sluice_u2", timeout=60)
           for _ in range(5)]))
    t.start()
    try:
        check_auth_refusals(c, c.ctld_port, "slurmctld")
    finally:
        t.join()
    assert all(r.rc == 0 for r in res["r"]), res
    assert c.ctld.alive()
    r = c.run(["squeue", "-h", "-o", "%i"])
    assert r.rc == 0, r


def test_munge_cred_refused_and_logged_by_slurmd(cluster):
    c = cluster
    if c.auth != "munge":
        pytest.skip("MUNGE credentials (auth/slurm: tests/unit/test_auth_slurm.c)")
    check_auth_refusals(c, c.node_ports["n4"], "n4")
    assert c.slurmds["n4"].alive(), c.log_tails()
    jid = c.sbatch(["-w", "n4", "--wrap", "true"], user="sluice_u2")
    assert c.wait_done(jid, 30) == "COMPLETED"


def node_signal_body(job_id, signal, flags, nodes):
    # job_id step_id signal flags kill_wait job_state nodes uid gid
    # user_name (NULL: length 0)
    n = nodes.encode() + b"\0"
    return (struct.pack("!IIHHHI", job_id, NO_VAL, signal, flags, 0, 0) +
            struct.pack("!I", len(n)) + n +
            struct.pack("!III", NO_VAL, NO_VAL, 0))


def test_user_signal_to_slurmd_refused(cluster):
    """sluice_u2 sends REQUEST_SIGNAL_JOB (SIGKILL) and
    REQUEST_TERMINATE_JOB for sluice_u1's job straight to its slurmd with
    a valid credential of their own: refused (access denied), logged as a
    security violation with uid and peer, and the job keeps running."""
    c = cluster
    if c.auth != "munge":
        pytest.skip("credentials made with the munge CLI")
    wd = c.workdir("sluice_u1")
    pidf = os.path.join(wd, "victim-%d.pid" % os.getpid())
    jid = c.sbatch(["-w", "n2", "-J", "victim", "--wrap",
                    "echo $$ > %s; exec /usr/bin/sleep 600" % pidf],
                   user="sluice_u1", cwd=wd)
    c.wait_state(jid, "RUNNING", 30)
    deadline = time.time() + 30
    while time.time() < deadline and not (
            os.path.exists(pidf) and open(pidf).read().strip()):
        time.sleep(0.2)
    pid = int(open(pidf).read())
    uid2 = __import__("pwd").getpwnam("sluice_u2").pw_uid
    off = c.log_size("n2")
    port = c.node_ports["n2"]
    sent = []
    for mtype, name, sig in ((REQUEST_SIGNAL_JOB, "REQUEST_SIGNAL_JOB", 9),
                             (REQUEST_TERMINATE_JOB, "REQUEST_TERMINATE_JOB", 15)):
        body = node_signal_body(jid, sig, KILL_FULL_JOB, "n2")
        peer, rc = send_msg(port, signed(c, mtype, body, user="sluice_u2"))
        assert rc == ACCESS_DENIED, (name, rc)
        sent.append("security violation: %s from uid %d at %s" % (name, uid2, peer))
    for line in sent:
        text = wait_log(c, "n2", off, re.escape(line))
        assert line in text, "n2 log lacks %r:\n%s" % (line, text[-3000:])
    time.sleep(1)
    os.kill(pid, 0)                   # the batch shell (now sleep) lives
    assert c.job_state(jid) == "RUNNING"
    r = c.run(["scancel", str(jid)], user="sluice_u1")
    assert r.rc == 0, r
    assert c.wait_done(jid, 30) == "CANCELLED"


def test_private_data_reservations(new_cluster):
    """PrivateData=reservations, as Slurm 22.05: a user who is not an
    operator sees only the reservations they may use (scontrol show
    reservation, sinfo -T); with none, "No reservations in the system"
    (exit 0).  Root sees them all."""
    c = new_cluster(extra_conf="PrivateData=reservations")
    for name, users in (("priv1", "sluice_u1"), ("priv2", "sluice_u2")):
        r = c.run(["scontrol", "create", "reservation",
                   "ReservationName=" + name, "StartTime=now",
                   "Duration=60", "Nodes=n1", "Flags=OVERLAP",
                   "Users=" + users])
        assert r.rc == 0, r
    names = lambda r: sorted(re.findall(r"ReservationName=(\S+)", r.out))  # noqa: E731
    r = c.run(["scontrol", "show", "reservation"], user="sluice_u2")
    assert (r.rc, names(r)) == (0, ["priv2"]), r
    r = c.run(["scontrol", "show", "reservation", "priv1"], user="sluice_u2")
    assert (r.rc, r.out) == (1, "Reservation priv1 not found\n"), r
    r = c.run(["sinfo", "-h", "-T"], user="sluice_u2")
    assert (r.rc, [l.split()[0] for l in r.out.splitlines()]) == (0, ["priv2"]), r
    r = c.run(["scontrol", "show", "reservation"])
    assert (r.rc, names(r)) == (0, ["priv1", "priv2"]), r
    r = c.run(["sinfo", "-h", "-T"])
    assert sorted(l.split()[0] for l in r.out.splitlines()) == ["priv1", "priv2"], r
    r = c.run(["scontrol", "delete", "reservation=priv2"])
    assert r.rc == 0, r
    for argv in (["scontrol", "show", "reservation"], ["sinfo", "-T"]):
        r = c.run(argv, user="sluice_u2")
        assert (r.rc, r.out, r.err) == (
            0, "No reservations in the system\n", ""), r
