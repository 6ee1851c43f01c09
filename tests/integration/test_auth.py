"""Authentication and authorization, with AuthType=auth/munge and again
with auth/slurm (the whole module runs once per auth type).

- A client whose munged has another key (auth/slurm: another slurm.key) is
  refused, and slurmctld's log says why.
- Garbage on the controller's and a slurmd's port does not hurt them.
- One user cannot cancel, hold or update another user's job.
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
