"""slurmd starts each step's slurmstepd as a fork of one pre-started
slurmstepd -F (the fork server, doc/admin-guide.md "How slurmd starts
slurmstepd"), and falls back to exec'ing slurmstepd when that server is
gone: jobs run either way."""

import os
import signal
import time

import cluster as cl

U1 = "sluice_u1"

# the batch script's parent is its slurmstepd, an srun step's task has
# its own: each prints its slurmstepd's pid and that one's parent
SCRIPT = """#!/bin/sh
ppid() { awk '/^PPid:/ { print $2 }' /proc/$1/status; }
echo "batch $PPID $(ppid $PPID)"
%s -n1 sh -c "echo step \\$PPID \\$(awk '/^PPid:/ { print \\$2 }' \\
/proc/\\$PPID/status)"
"""


def status(pid):
    """{key: value} of /proc/PID/status, or {} if it is gone."""
    try:
        with open("/proc/%d/status" % pid) as f:
            return dict(line.rstrip("\n").split(":\t", 1) for line in f
                        if ":\t" in line)
    except OSError:
        return {}


def exited(pid):
    """True once PID is gone or a zombie."""
    st = status(pid)
    return not st or st.get("State", "").startswith("Z")


def cmdline(pid):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return f.read().split(b"\0")
    except OSError:
        return []


def fork_servers(c, node):
    """PIDs of slurmstepd -F processes whose parent is node's slurmd."""
    slurmd = c.slurmds[node].pid
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit() and int(status(int(d)).get("PPid", 0)) == slurmd \
           and b"-F" in cmdline(int(d)):
            out.append(int(d))
    return out


def run_job(c, node, name):
    out = os.path.join(c.workdir(U1), name)
    jid = c.sbatch(["-w", node, "-o", out], user=U1,
                   input=SCRIPT % c.bin("srun"))
    assert c.wait_state(jid, "COMPLETED", 60) == "COMPLETED", c.show_job(jid)
    with open(out) as f:
        got = {w[0]: (int(w[1]), int(w[2])) for w in
               (line.split() for line in f.read().splitlines())}
    assert set(got) == {"batch", "step"}, got
    return got["batch"], got["step"]


def test_steps_are_forked_by_the_fork_server(cluster):
    batch, step = run_job(cluster, "n3", "one.out")
    servers = fork_servers(cluster, "n3")
    assert len(servers) == 1, servers
    # the batch job's and the step's slurmstepd: two copies of the server
    assert batch[0] != step[0]
    assert batch[1] == step[1] == servers[0], (batch, step, servers)
    # the same server serves the next job, and its copies are reaped (no
    # zombies left below it)
    batch, step = run_job(cluster, "n3", "two.out")
    assert batch[1] == step[1] == servers[0], (batch, step, servers)
    assert fork_servers(cluster, "n3") == servers
    zombies = [d for d in os.listdir("/proc") if d.isdigit() and
               int(status(int(d)).get("PPid", 0)) == servers[0] and
               status(int(d)).get("State", "").startswith("Z")]
    assert zombies == []


def test_jobs_run_when_the_fork_server_is_killed(cluster):
    c = cluster
    run_job(c, "n2", "warm.out")
    # a job running while its server dies goes on to the end
    jid = c.sbatch(["-w", "n2", "-o", "/dev/null", "--wrap",
                    "sleep 3; echo survived > survivor.out"],
                   user=U1)
    c.wait_state(jid, "RUNNING", 30)
    servers = fork_servers(c, "n2")
    assert len(servers) == 1, servers
    # ps shows the step as Slurm's does
    titles = [cmdline(int(d))[0] for d in os.listdir("/proc")
              if d.isdigit() and
              int(status(int(d)).get("PPid", 0)) == servers[0]]
    assert ("slurmstepd: [%d.batch]" % jid).encode() in titles, titles
    os.kill(servers[0], signal.SIGKILL)
    deadline = time.time() + 10
    while servers[0] in fork_servers(c, "n2") and time.time() < deadline:
        time.sleep(0.1)
    assert c.wait_state(jid, "COMPLETED", 60) == "COMPLETED", c.show_job(jid)
    with open(os.path.join(c.workdir(U1), "survivor.out")) as f:
        assert f.read() == "survived\n"
    # the next launch finds the server gone: slurmd says so and execs
    # slurmstepd instead; the job and its step run as before
    batch, step = run_job(c, "n2", "after.out")
    slurmd = c.slurmds["n2"].pid
    assert batch[1] == step[1] == slurmd, (batch, step, slurmd)
    with open(c.slurmd_log("n2")) as f:
        log = f.read()
    assert "slurmstepd fork server (pid %d) did not start a step" % \
        servers[0] in log, log[-3000:]
    assert fork_servers(c, "n2") == []


def test_fork_server_ends_with_slurmd(cluster):
    """slurmd gone (even by SIGKILL): its fork server exits too, and the
    next slurmd starts a new one."""
    c = cluster
    run_job(c, "n4", "n4.out")
    servers = fork_servers(c, "n4")
    assert len(servers) == 1, servers
    c.kill_slurmd("n4", signal.SIGKILL)
    deadline = time.time() + 10
    while not exited(servers[0]) and time.time() < deadline:
        time.sleep(0.1)
    assert exited(servers[0]), status(servers[0])
    c.start_slurmd("n4")
    deadline = time.time() + 30
    while c.show_nodes().get("n4", {}).get("State", "") != "IDLE" and \
            time.time() < deadline:
        time.sleep(0.2)
    batch, step = run_job(c, "n4", "n4-again.out")
    assert fork_servers(c, "n4") == [batch[1]], (batch, fork_servers(c, "n4"))


def test_copies_follow_slurm_conf_edits(cluster):
    """Copies start from the server's parsed slurm.conf; an edit to the
    file (here a TaskProlog added, then removed) reaches the next job
    without restarting slurmd or the server."""
    c = cluster
    prolog = os.path.join(c.dir, "etc", "fork_prolog.sh")
    c.write_file(None, prolog, "#!/bin/sh\necho 'print from the prolog'\n",
                 0o755)
    run_job(c, "n1", "before.out")
    servers = fork_servers(c, "n1")
    assert len(servers) == 1, servers
    with open(c.conf) as f:
        original = f.read()

    def batch_out(name):
        out = os.path.join(c.workdir(U1), name)
        jid = c.sbatch(["-w", "n1", "-o", out, "--wrap", "echo job"],
                       user=U1)
        assert c.wait_state(jid, "COMPLETED", 60) == "COMPLETED"
        with open(out) as f:
            return f.read()

    try:
        with open(c.conf, "a") as f:
            f.write("TaskProlog=%s\n" % prolog)
        assert batch_out("with.out") == "from the prolog\njob\n"
    finally:
        with open(c.conf, "w") as f:
            f.write(original)
    assert batch_out("without.out") == "job\n"
    assert fork_servers(c, "n1") == servers


def test_server_leaves_when_auth_type_changes(cluster):
    """An edit that changes AuthType: the server cannot switch the auth
    plugin it has loaded, so it refuses the fork and exits, and slurmd
    execs slurmstepd, which reads the new file as a restarted slurmd
    would: no copy ever runs with the old plugin."""
    c = cluster
    run_job(c, "n3", "auth-before.out")
    servers = fork_servers(c, "n3")
    assert len(servers) == 1, servers
    with open(c.conf) as f:
        original = f.read()
    assert "AuthType=auth/munge\n" in original
    # the commands keep the file the controller runs with
    client = os.path.join(c.dir, "etc", "client.conf")
    c.write_file(None, client, original, 0o644)
    try:
        with open(c.conf, "w") as f:
            f.write(original.replace("AuthType=auth/munge\n",
                                     "AuthType=auth/slurm\n"))
        jid = c.sbatch(["-w", "n3", "-o", "/dev/null", "--wrap", "true"],
                       user=U1, env={"SLURM_CONF": client})
        # the slurmstepd exec'd instead reads auth/slurm and has no key:
        # the launch fails as it would after a restart with that file
        # (the file stays edited until then: that stepd reads it)
        deadline = time.time() + 30
        while time.time() < deadline:
            r = c.run(["scontrol", "show", "job", str(jid)], conf=client)
            state = cl.parse_kv(r.out).get("JobState")
            if state not in (None, "PENDING", "CONFIGURING", "RUNNING",
                             "COMPLETING"):
                break
            time.sleep(0.2)
        gone = exited(servers[0])
    finally:
        with open(c.conf, "w") as f:
            f.write(original)
    assert gone, status(servers[0])
    assert state == "FAILED", r.out
    with open(c.slurmd_log("n3")) as f:
        log = f.read()
    assert "slurmstepd fork server (pid %d) did not start a step" % \
        servers[0] in log, log[-3000:]
    assert "JobId=%d: cannot initialize auth/slurm" % jid in log, log[-3000:]
    # the file back as it was: jobs run, from exec'd slurmstepds
    batch, step = run_job(c, "n3", "auth-after.out")
    slurmd = c.slurmds["n3"].pid
    assert batch[1] == step[1] == slurmd, (batch, step, slurmd)
