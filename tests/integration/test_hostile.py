"""Hostile clients cannot crash or stall the controller.

- A header that declares a 4 GiB body is refused at once (an error reply,
  then the connection is closed) and logged with the peer's address.
- A body cut short by the peer closing is logged, nothing else happens.
- 10,000 idle connections (and some that stop half way through a header)
  held open at once: a concurrent `squeue` still answers, and a job still
  runs.  Slurm 22.05 stopped answering at 1,000.
"""

import pwd
import resource
import socket
import struct
import time

MAGIC = 0x534C5543
VERSION = 0x2505
REQUEST_JOB_INFO = 2003
N_IDLE = 10000


def header(type_, cred_len, body_len, magic=MAGIC, version=VERSION):
    return struct.pack("!IHHHII", magic, version, type_, 0, cred_len, body_len)


def closed_by_peer(s, timeout=10):
    """True if the server closes s (EOF or reset) within timeout; an error
    reply before the close is fine."""
    end = time.time() + timeout
    try:
        while time.time() < end:
            s.settimeout(max(0.1, end - time.time()))
            if s.recv(4096) == b"":
                return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        pass
    return False


def wait_log(c, off, text, timeout=10):
    end = time.time() + timeout
    while time.time() < end:
        if text in c.log_since(off):
            return True
        time.sleep(0.1)
    return False


def test_four_gib_body_refused(cluster):
    c = cluster
    off = c.log_size()
    s = socket.create_connection(("127.0.0.1", c.ctld_port))
    port = s.getsockname()[1]
    s.sendall(header(REQUEST_JOB_INFO, 0, 0xFFFFFFFF))
    assert closed_by_peer(s), "controller kept a connection promising 4 GiB"
    s.close()
    assert wait_log(c, off, "127.0.0.1:%d" % port), c.log_since(off)[-2000:]
    assert c.ctld.alive()
    assert c.run(["squeue"]).rc == 0


def test_truncated_body_logged(cluster):
    c = cluster
    off = c.log_size()
    s = socket.create_connection(("127.0.0.1", c.ctld_port))
    port = s.getsockname()[1]
    s.sendall(header(REQUEST_JOB_INFO, 0, 1000) + b"\x00" * 100)
    time.sleep(0.2)
    s.close()
    assert wait_log(c, off, "127.0.0.1:%d" % port), c.log_since(off)[-2000:]
    assert c.ctld.alive()
    assert c.run(["squeue"]).rc == 0


def test_ten_thousand_idle_connections(cluster):
    c = cluster
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = N_IDLE + 1000
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(need, hard), hard))
    socks = []
    try:
        for i in range(N_IDLE):
            s = socket.socket()
            s.setblocking(True)
            s.connect(("127.0.0.1", c.ctld_port))
            if i % 50 == 0:          # half a header, then nothing
                s.sendall(header(REQUEST_JOB_INFO, 0, 10)[:7])
            socks.append(s)
        r = c.run(["squeue"], timeout=30)
        assert r.rc == 0, "squeue failed with %d idle connections: %r" % (N_IDLE, r)
        r = c.run(["sinfo"], timeout=30)
        assert r.rc == 0, r
        jid = c.sbatch(["--wrap", "true"], user="sluice_u2")
        assert c.wait_done(jid, 60) == "COMPLETED"
    finally:
        for s in socks:
            s.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert c.ctld.alive(), c.log_tails()
    assert c.run(["squeue"]).rc == 0


def test_idle_connections_beyond_fd_limit(cluster):
    """With fewer descriptors than idle clients, the controller closes the
    longest-waiting idle connection instead of refusing everyone."""
    c = cluster
    pid = c.ctld.pid
    old = resource.prlimit(pid, resource.RLIMIT_NOFILE)
    resource.prlimit(pid, resource.RLIMIT_NOFILE, (512, old[1]))
    socks = []
    off = c.log_size()
    try:
        for _ in range(2000):
            socks.append(socket.create_connection(("127.0.0.1", c.ctld_port)))
        r = c.run(["squeue"], timeout=30)
        assert r.rc == 0, "squeue failed with the controller out of descriptors: %r" % r
        jid = c.sbatch(["--wrap", "true"], user="sluice_u2")
        assert c.wait_done(jid, 60) == "COMPLETED"
    finally:
        for s in socks:
            s.close()
        resource.prlimit(pid, resource.RLIMIT_NOFILE, old)
    assert "closing idle connection from 127.0.0.1:" in c.log_since(off)
    assert c.ctld.alive(), c.log_tails()


def test_rate_limit_backs_users_off(new_cluster):
    """SlurmctldParameters=rl_enable: a user past his burst is told to back
    off and his commands retry until they get through; root and
    SlurmUser are never limited."""
    c = new_cluster(extra_conf="SlurmctldParameters=rl_enable,rl_bucket_size=3,"
                               "rl_refill_rate=1,rl_refill_period=1")
    off = c.log_size()
    for _ in range(20):
        r = c.run(["squeue"])
        assert r.rc == 0, r
    assert "RPC rate limit exceeded" not in c.log_since(off)
    uid = pwd.getpwnam("sluice_u1").pw_uid
    t0 = time.time()
    for _ in range(6):
        r = c.run(["squeue", "-h", "-o", "%i"], user="sluice_u1")
        assert (r.rc, r.err) == (0, ""), r
    took = time.time() - t0
    log = c.log_since(off)
    assert "RPC rate limit exceeded by uid %d" % uid in log, log[-2000:]
    # 3 at once, then one a second: the last three waited for tokens.
    assert took >= 2, took
    # Other users were not slowed by it.
    r = c.run(["squeue"], user="sluice_u2")
    assert r.rc == 0, r


def test_huge_user_hostlists_refused(cluster):
    """A user's node list naming a million hosts is refused with Slurm's
    "Invalid node name specified" before the controller builds the names
    (the bound is twice the node table plus 1,024), for submissions,
    allocations and scancel -w; a normal list still works."""
    c = cluster
    off = c.log_size()
    for argv, prefix in (
            (["sbatch", "-w", "n[1-1048576]", "--wrap=true"],
             "sbatch: error: Batch job submission failed: "),
            (["sbatch", "-x", "x[1-100000]", "--wrap=true"],
             "sbatch: error: Batch job submission failed: "),
            (["srun", "-w", "a[1-1000][1-1000]", "true"],
             "srun: error: Unable to allocate resources: "),
            (["scancel", "-w", "x[1-1048576]"],
             "scancel: error: Kill job error: ")):
        r = c.run(argv, user="sluice_u1")
        assert (r.rc, r.err) == (1, prefix + "Invalid node name specified\n"), r
    assert "bad node list: Too many hosts in hostlist `x[1-1048576]'" in \
        c.log_since(off)
    r = c.run(["srun", "-w", "n[1-2]", "-N2", "printenv", "SLURMD_NODENAME"],
              user="sluice_u1")
    assert r.rc == 0 and sorted(r.out.split()) == ["n1", "n2"], r
