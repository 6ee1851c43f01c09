"""Mixed protocol versions (src/common/proto_version.h): the synthetic next
release (cmake -DSLUICE_PROTO_NEXT=ON: protocol 25.11, a field more in job
submit, job info and node registration) against this one, both ways.

  * a 25.11 slurmctld with 25.05 slurmd/slurmstepd and commands: jobs
    submitted by the old sbatch run on the old nodes and show in the new
    squeue and the old one; the new sbatch's job runs on an old node;
  * a 25.05 slurmctld with 25.11 slurmd/slurmstepd and commands: each
    newer peer is refused once at its version (logged, naming both
    versions and what to upgrade) and speaks 25.05 from then on;
  * a peer older than the window (23.11) is refused and told to upgrade;
  * a StateSaveLocation written by a newer slurmctld (its snapshot's
    format version above ours) is refused with a message and left
    untouched.

The next tree is built once per run (proto_next.py, shared with
test_upgrade.py)."""

import os
import socket
import struct

import pytest

import cluster as cl
import proto_next

STATE_MAGIC_LEN = 4 + len("SLUICE_CTLD_STATE") + 1     # packstr


@pytest.fixture(scope="module")
def next_bins():
    return proto_next.bins()


def _cluster(tag, bins):
    c = cl.Cluster(tag=tag, nodes=2)
    c.bins = dict(c.bins)
    c.bins.update(bins)
    try:
        c.start()
    except BaseException:
        c.stop()
        raise
    return c


def _done(c, ok):
    c.stop()
    if ok:
        c.cleanup()


def _sbatch(c, exe):
    r = c.run([exe, "--wrap", "echo mixed; sleep 1"])
    assert r.rc == 0 and r.out.startswith("Submitted batch job "), r
    return int(r.out.split()[-1])


def _squeue_ids(c, exe):
    r = c.run([exe, "-h", "-t", "all", "-o", "%i %T"])
    assert r.rc == 0, r
    return {int(line.split()[0]): line.split()[1]
            for line in r.out.splitlines() if line.strip()}


def test_next_controller_with_current_nodes_and_commands(next_bins):
    c = _cluster("proto-nextctld", {"slurmctld": next_bins["slurmctld"]})
    ok = False
    try:
        old = _sbatch(c, "sbatch")
        new = _sbatch(c, next_bins["sbatch"])
        for j in (old, new):
            assert c.wait_done(j) == "COMPLETED", c.show_job(j)
        for exe in ("squeue", next_bins["squeue"]):
            seen = _squeue_ids(c, exe)
            assert seen.get(old) == "COMPLETED", (exe, seen)
            assert seen.get(new) == "COMPLETED", (exe, seen)
        log = c.log_text("slurmctld")
        # the old nodes registered at their version
        assert "Node n1 registered" in log and "protocol version 25.05" in log
        ok = True
    finally:
        _done(c, ok)


def _raw_request(port, version):
    """A REQUEST_PING header at version; the reply's (version, rc)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        s.sendall(struct.pack(">IHHHII", 0x534C5543, version, 1008, 0, 0, 0))
        head = b""
        while len(head) < 18:
            chunk = s.recv(18 - len(head))
            assert chunk, "connection closed before a reply"
            head += chunk
        _, v, _, _, clen, blen = struct.unpack(">IHHHII", head)
        rest = b""
        while len(rest) < clen + blen:
            chunk = s.recv(clen + blen - len(rest))
            if not chunk:
                break
            rest += chunk
        body = rest[clen:]
        return v, struct.unpack(">i", body[:4])[0]
    finally:
        s.close()


def _crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 & -(crc & 1))
    return crc ^ 0xFFFFFFFF


def _snapshot_of_a_newer_ctld(c):
    """Stop slurmctld and make its snapshot one of the next state format
    (checksum kept right); returns {file: bytes} of the state dir."""
    assert c.stop_daemon(c.ctld) == 0
    path = os.path.join(c.dir, "state", "ctld_state")
    data = open(path, "rb").read()
    assert struct.unpack(">I", data[-4:])[0] == _crc32c(data[:-4])
    ver = struct.unpack(">H", data[STATE_MAGIC_LEN:STATE_MAGIC_LEN + 2])[0]
    body = (data[:STATE_MAGIC_LEN] + struct.pack(">H", ver + 1) +
            data[STATE_MAGIC_LEN + 2:-4])
    with open(path, "wb") as f:
        f.write(body + struct.pack(">I", _crc32c(body)))
    return ver, _state_files(c)


def _state_files(c):
    """The state (not ctld_lease: who holds the controller role, taken at
    start before the state is read)."""
    out = {}
    for root, _, files in os.walk(os.path.join(c.dir, "state")):
        for n in files:
            if n == "ctld_lease":
                continue
            p = os.path.join(root, n)
            out[p] = open(p, "rb").read()
    return out


def test_current_controller_with_next_nodes_and_commands(next_bins):
    c = _cluster("proto-nextnodes", {
        "slurmd": next_bins["slurmd"], "slurmstepd": next_bins["slurmstepd"]})
    ok = False
    try:
        new = _sbatch(c, next_bins["sbatch"])
        old = _sbatch(c, "sbatch")
        for j in (new, old):
            assert c.wait_done(j) == "COMPLETED", c.show_job(j)
        for exe in ("squeue", next_bins["squeue"]):
            seen = _squeue_ids(c, exe)
            assert seen.get(old) == "COMPLETED", (exe, seen)
            assert seen.get(new) == "COMPLETED", (exe, seen)
        log = c.log_text("slurmctld")
        # each newer peer was told once, naming both versions
        assert ("speaks protocol version 25.11, newer than this "
                "slurmctld's 25.05 (served: 24.05 to 25.05): upgrade "
                "slurmctld first") in log, log[-3000:]
        assert "protocol version 25.05" in log      # nodes stepped down

        # a peer older than the window: refused, answered at its version
        v, rc = _raw_request(c.ctld_port, 0x2311)
        assert v == 0x2311 and rc == 1005, (hex(v), rc)  # VERSION_ERROR
        cl.wait_for(lambda: "speaks protocol version 23.11, older than the "
                    "oldest this slurmctld 25.05 serves (24.05 to 25.05): "
                    "upgrade the sender to 24.05 or later" in
                    c.log_text("slurmctld"), timeout=10,
                    what="the refusal logged")

        # state of a newer slurmctld: refused, not touched
        ver, before = _snapshot_of_a_newer_ctld(c)
        at = c.log_size("slurmctld")
        c.start_ctld()
        c.ctld.popen.wait(timeout=30)
        assert c.ctld.popen.returncode != 0
        said = c.log_since(at, "slurmctld")
        assert ("state file version %d is newer than this slurmctld's %d: "
                "StateSaveLocation was written by a newer slurmctld and is "
                "left untouched" % (ver + 1, ver)) in said, said
        assert _state_files(c) == before
        ok = True
    finally:
        _done(c, ok)
