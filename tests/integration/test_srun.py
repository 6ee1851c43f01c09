"""srun, job steps and salloc on a 4-node loopback cluster (2 CPUs each).

Every node runs on 127.0.0.1, so where a task ran is told by
SLURMD_NODENAME; ranks by SLURM_PROCID / SLURM_NODEID.
"""

import os
import re
import signal
import subprocess
import time

import cluster as cl

U = "sluice_u1"


def srun(cluster, args, **kw):
    kw.setdefault("user", U)
    kw.setdefault("timeout", 60)
    return cluster.run(["srun"] + list(args), **kw)


def ranks(out):
    """'-l' output of `printenv SLURMD_NODENAME SLURM_NODEID ...` as
    {rank: [values]}."""
    got = {}
    for line in out.splitlines():
        m = re.fullmatch(r"\s*(\d+): (.*)", line)
        assert m, "not a labelled line: %r" % line
        got.setdefault(int(m.group(1)), []).append(m.group(2))
    return got


def test_block_layout_n8_N4(cluster):
    r = srun(cluster, ["-N4", "-n8", "-l", "printenv", "SLURMD_NODENAME",
                       "SLURM_NODEID", "SLURM_LOCALID", "SLURM_NTASKS",
                       "SLURM_STEP_NUM_NODES", "SLURM_STEP_TASKS_PER_NODE"])
    assert r.rc == 0, r
    got = ranks(r.out)
    assert sorted(got) == list(range(8))
    for rank, vals in got.items():
        node = rank // 2
        assert vals == ["n%d" % (node + 1), str(node), str(rank % 2), "8",
                        "4", "2(x4)"], (rank, vals)


def test_cyclic_layout_n8_N4(cluster):
    r = srun(cluster, ["-N4", "-n8", "-l", "--distribution=cyclic",
                       "printenv", "SLURMD_NODENAME", "SLURM_NODEID",
                       "SLURM_LOCALID", "SLURM_DISTRIBUTION"])
    assert r.rc == 0, r
    got = ranks(r.out)
    assert sorted(got) == list(range(8))
    for rank, vals in got.items():
        node = rank % 4
        assert vals == ["n%d" % (node + 1), str(node), str(rank // 4),
                        "cyclic"], (rank, vals)


def test_block_uneven_and_plane(cluster):
    # 5 tasks on 3 nodes (2 CPUs each): block puts 0-1, 2-3, 4
    # whole nodes, so that every node of the allocation has 2 CPUs
    r = srun(cluster, ["-N3", "-n5", "--exclusive", "-l", "printenv",
                       "SLURM_NODEID"])
    assert r.rc == 0, r
    assert {k: v[0] for k, v in ranks(r.out).items()} == {
        0: "0", 1: "0", 2: "1", 3: "1", 4: "2"}
    # cyclic: 0,3 / 1,4 / 2
    r = srun(cluster, ["-N3", "-n5", "--exclusive", "-l", "-m", "cyclic",
                       "printenv", "SLURM_NODEID"])
    assert r.rc == 0, r
    assert {k: v[0] for k, v in ranks(r.out).items()} == {
        0: "0", 1: "1", 2: "2", 3: "0", 4: "1"}
    # plane=2 over 2 nodes, 4 tasks: 0-1 on node 0, 2-3 on node 1
    r = srun(cluster, ["-N2", "-n4", "-l", "--distribution=plane=2",
                       "printenv", "SLURM_NODEID", "SLURM_STEP_TASKS_PER_NODE"])
    assert r.rc == 0, r
    assert {k: v for k, v in ranks(r.out).items()} == {
        0: ["0", "2(x2)"], 1: ["0", "2(x2)"], 2: ["1", "2(x2)"],
        3: ["1", "2(x2)"]}


def test_task_environment(cluster):
    r = srun(cluster, ["-N2", "-n2", "-c2", "-l", "printenv",
                       "SLURM_STEP_ID", "SLURM_STEPID", "SLURM_PROCID",
                       "SLURM_NPROCS", "SLURM_STEP_NODELIST",
                       "SLURM_STEP_NUM_TASKS", "SLURM_TASKS_PER_NODE",
                       "SLURM_CPUS_PER_TASK", "SLURM_LAUNCH_NODE_IPADDR",
                       "SLURM_SRUN_COMM_HOST", "SLURM_SRUN_COMM_PORT",
                       "SLURM_TASK_PID", "SLURM_JOB_ID"])
    assert r.rc == 0, r
    got = ranks(r.out)
    for rank in (0, 1):
        v = got[rank]
        assert v[:10] == ["0", "0", str(rank), "2", "n[1-2]", "2", "1(x2)",
                          "2", "127.0.0.1", "127.0.0.1"], v
        assert int(v[10]) > 0 and int(v[11]) > 1 and int(v[12]) > 0
    assert got[0][10] == got[1][10]


def test_exit_code_is_highest_with_slurm_messages(cluster):
    r = srun(cluster, ["-N2", "-n4", "sh", "-c",
                       "exit $((SLURM_PROCID == 3 ? 2 : "
                       "(SLURM_PROCID == 0 ? 1 : 0)))"])
    assert r.rc == 2, r
    assert "srun: error: n2: task 3: Exited with exit code 2\n" in r.err
    assert "srun: error: n1: task 0: Exited with exit code 1\n" in r.err
    assert "task 1" not in r.err and "task 2" not in r.err
    # a new job each: n1 may still be completing the last one
    r = srun(cluster, ["-n1", "false"])
    assert r.rc == 1 and re.search(
        r"srun: error: n\d: task 0: Exited with exit code 1\n\Z", r.err), r
    r = srun(cluster, ["-n1", "sh", "-c", "kill -9 $$"])
    assert r.rc == 137 and re.search(r"srun: error: n\d: task 0: Killed\n",
                                     r.err), r
    r = srun(cluster, ["-n1", "/no/such/program"])
    assert r.rc == 2, r
    assert "/no/such/program: No such file or directory" in r.err


def test_stdin_reaches_task_0_and_all(cluster):
    r = srun(cluster, ["-n1", "cat"], input="line one\nline two\n")
    assert r.rc == 0 and r.out == "line one\nline two\n", r
    r = srun(cluster, ["-N2", "-n2", "-l", "--input=0", "cat"],
             input="hello\n")
    assert r.rc == 0 and r.out == "0: hello\n", r
    r = srun(cluster, ["-N2", "-n2", "-l", "cat"], input="all\n")
    assert r.rc == 0 and sorted(r.out.splitlines()) == ["0: all", "1: all"], r
    r = srun(cluster, ["-n1", "--input=none", "cat"], input="lost\n")
    assert r.rc == 0 and r.out == "", r


def test_label_lines_are_whole(cluster):
    # each task writes 2000 lines in small pieces; no line may be mixed
    prog = ("i=0; while [ $i -lt 2000 ]; do printf 'task%s-' $SLURM_PROCID; "
            "printf 'line%s\\n' $i; i=$((i+1)); done")
    r = srun(cluster, ["-N4", "-n8", "-l", "sh", "-c", prog], timeout=120)
    assert r.rc == 0, r.err
    lines = r.out.splitlines()
    assert len(lines) == 8 * 2000
    seen = {}
    for line in lines:
        m = re.fullmatch(r"(\d): task(\d)-line(\d+)", line)
        assert m and m.group(1) == m.group(2), line
        t = int(m.group(1))
        assert int(m.group(3)) == seen.get(t, -1) + 1, line
        seen[t] = int(m.group(3))


def test_output_patterns(cluster):
    d = cluster.workdir(U)
    r = srun(cluster, ["-N2", "-n4", "-o", os.path.join(d, "out-%j-%t.txt"),
                       "sh", "-c", "echo rank $SLURM_PROCID"])
    assert r.rc == 0 and r.out == "", r
    files = sorted(f for f in os.listdir(d) if f.startswith("out-"))
    assert len(files) == 4, files
    jid = files[0].split("-")[1]
    for t in range(4):
        with open(os.path.join(d, "out-%s-%d.txt" % (jid, t))) as f:
            assert f.read() == "rank %d\n" % t
    r = srun(cluster, ["-n2", "-o", os.path.join(d, "all-%j.txt"), "echo",
                       "x"])
    assert r.rc == 0 and r.out == ""
    allf = [f for f in os.listdir(d) if f.startswith("all-")]
    with open(os.path.join(d, allf[0])) as f:
        assert f.read() == "x\nx\n"


def test_outside_allocation_creates_and_releases_job(cluster):
    r = srun(cluster, ["-N1", "-J", "myname", "printenv", "SLURM_JOB_ID",
                       "SLURM_JOB_NAME", "SLURM_JOB_NUM_NODES"])
    assert r.rc == 0, r
    jid, name, nn = r.out.split()
    assert name == "myname" and nn == "1"
    assert cluster.wait_state(int(jid), {"COMPLETED"}, timeout=30)
    r = srun(cluster, ["-p", "nosuch", "true"])
    assert r.rc == 1
    assert r.err.endswith("srun: error: Unable to allocate resources: "
                          "Invalid partition name specified\n"), r


def test_refusals(cluster):
    r = srun(cluster, ["--mpi=pmi9", "true"])
    assert r.rc == 1 and "Invalid MPI type 'pmi9'" in r.err, r
    r = srun(cluster, ["--het-group=0", "true"])
    assert r.rc == 1 and "--het-group: not inside a heterogeneous job " \
        "allocation" in r.err, r
    r = srun(cluster, ["--mpi=list"])
    assert r.rc == 0 and r.out == (
        "MPI plugin types are...\n\tnone\n\tpmi2\n\tpmix\n"
        "specific pmix plugin versions available: pmix_v4\n"), r
    r = srun(cluster, [])
    assert r.rc == 1 and "No command given" in r.err


def _out_file(cluster, jid, user=U):
    path = os.path.join(cluster.workdir(user), "slurm-%d.out" % jid)
    with open(path) as f:
        return f.read()


def test_batch_script_three_steps(cluster):
    d = cluster.workdir(U)
    script = "\n".join([
        "#!/bin/sh",
        "#SBATCH -N1 -n2",
        "SRUN=%s" % cluster.bin("srun"),
        "$SRUN -n2 sh -c 'echo first $SLURM_STEP_ID $SLURM_PROCID' | sort",
        "echo rc0=$?",
        "$SRUN -n1 --exact sh -c 'sleep 1; echo second $SLURM_STEP_ID; "
        "exit 3' &",
        "A=$!",
        "$SRUN -n1 --exact sh -c 'sleep 1; echo third $SLURM_STEP_ID' &",
        "B=$!",
        "wait $A; echo rcA=$?",
        "wait $B; echo rcB=$?",
        ""])
    path = cluster.write_file(U, os.path.join(d, "three.sh"), script, 0o755)
    t0 = time.time()
    jid = cluster.sbatch([path], user=U, cwd=d)
    assert cluster.wait_state(jid, {"COMPLETED", "FAILED"}, timeout=60) \
        == "COMPLETED"
    out = _out_file(cluster, jid)
    assert "first 0 0\nfirst 0 1\nrc0=0\n" in out, out
    assert "rcA=3\n" in out and "rcB=0\n" in out, out
    assert "temporarily disabled" not in out, out
    steps = {int(m.group(1)): (m.group(2), m.group(3)) for m in re.finditer(
        r"_slurm_rpc_step_complete: StepId=%d\.(\d+) State=(\w+) "
        r"ExitCode=(\d+:\d+)" % jid, cluster.log_text())}
    # the two parallel steps are 1 and 2 (either order)
    assert steps[0] == ("COMPLETED", "0:0"), steps
    assert sorted([steps[1], steps[2]]) == [("COMPLETED", "0:0"),
                                            ("FAILED", "3:0")], steps
    second = re.search(r"second (\d)", out).group(1)
    third = re.search(r"third (\d)", out).group(1)
    assert {second, third} == {"1", "2"}
    assert time.time() - t0 < 30


def test_busy_step_waits_for_cpus(cluster):
    d = cluster.workdir(U)
    script = "\n".join([
        "#!/bin/sh",
        "#SBATCH -N1 -n1",
        "SRUN=%s" % cluster.bin("srun"),
        "$SRUN -n1 sleep 2 &",
        "sleep 0.5",
        "$SRUN -n1 echo after",
        "wait",
        ""])
    path = cluster.write_file(U, os.path.join(d, "busy.sh"), script, 0o755)
    jid = cluster.sbatch([path], user=U, cwd=d)
    assert cluster.wait_state(jid, {"COMPLETED", "FAILED"}, timeout=60) \
        == "COMPLETED"
    out = _out_file(cluster, jid)
    # Slurm's two lines (25.05 names the step)
    assert ("srun: Job %d step creation temporarily disabled, retrying "
            "(Requested nodes are busy)\n" % jid) in out, out
    assert re.search(r"srun: Step created for StepId=%d\.\d+\n" % jid, out), \
        out
    assert out.rstrip().endswith("after"), out


def test_verbose_lines(cluster):
    """srun -v prints the lines tools take the job id and nodes from, as
    Slurm 22.05's: "jobid N: nodes(K):`list', cpu counts: 2(x1),1(x1)"
    and one "launching StepId=N.S on host H, T tasks: [0-1]" per node."""
    r = srun(cluster, ["-v", "-N2", "-n3", "true"])
    assert r.rc == 0, r
    m = re.search(r"^srun: jobid (\d+): nodes\(2\):`(\S+)', cpu counts: "
                  r"(\d+)\(x1\),(\d+)\(x1\)$", r.err, re.M)
    assert m, r.err
    jid, nodes = m.group(1), m.group(2)
    hosts = cluster.run(["scontrol", "show", "hostnames", nodes]).out.split()
    assert re.search(r"^srun: launching StepId=%s\.0 on host %s, 2 tasks: "
                     r"\[0-1\]$" % (jid, hosts[0]), r.err, re.M), r.err
    assert re.search(r"^srun: launching StepId=%s\.0 on host %s, 1 tasks: "
                     r"2$" % (jid, hosts[1]), r.err, re.M), r.err
    r = srun(cluster, ["-N1", "true"])
    assert r.rc == 0 and "jobid" not in r.err, r


def _popen_srun(cluster, args, user=U):
    import pwd
    pw = pwd.getpwnam(user)
    return subprocess.Popen(
        [cluster.bin("srun")] + list(args), user=pw.pw_uid, group=pw.pw_gid,
        extra_groups=os.getgrouplist(user, pw.pw_gid),
        env=cluster.env_for(user), cwd=cluster.workdir(user),
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)


def _readline(p, timeout=30):
    import select
    r, _, _ = select.select([p.stdout], [], [], timeout)
    if not r:
        p.kill()
        raise AssertionError("no output from srun in %ss" % timeout)
    return p.stdout.readline()


def _task_procs(cmd):
    """Live processes whose command line starts with cmd (the tasks, not
    the srun whose arguments contain it)."""
    return [pid for pid in cl.live_procs_matching(cmd)
            if cl.proc_cmdline(pid).startswith(cmd)]


def _wait_procs(cmd, want_any, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if bool(_task_procs(cmd)) == want_any:
            return True
        time.sleep(0.1)
    return False


def test_sigint_twice_kills_the_step(cluster):
    marker = "3517.25"
    p = _popen_srun(cluster, ["-N2", "-n4", "sleep", marker])
    assert _wait_procs("sleep " + marker, True), "tasks never started"
    time.sleep(0.3)
    p.send_signal(signal.SIGINT)
    time.sleep(0.3)
    assert p.poll() is None, "one Ctrl-C must not end srun"
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert "srun: interrupt (one more within 1 sec to abort)\n" in err, err
    assert re.search(r"srun: StepId=\d+\.0 tasks 0-3: running\n", err), err
    assert p.returncode == 137, (p.returncode, err)
    assert _wait_procs("sleep " + marker, False), "tasks survived"


def test_srun_killed_kills_the_step(cluster):
    marker = "3518.25"
    p = _popen_srun(cluster, ["-N2", "-n2", "sleep", marker])
    assert _wait_procs("sleep " + marker, True), "tasks never started"
    p.kill()
    p.communicate(timeout=10)
    assert _wait_procs("sleep " + marker, False), "tasks survived srun"
    # as in Slurm (InactiveLimit=0) the allocation stays: give it back
    cluster.run(["scancel", "-u", U], user=U)


def test_sigterm_and_usr1_forwarded(cluster):
    prog = ("trap 'echo got USR1' USR1; trap 'echo got TERM; exit 7' TERM; "
            "echo ready; while :; do sleep 0.1; done")
    p = _popen_srun(cluster, ["-n1", "-u", "sh", "-c", prog])
    line = _readline(p)
    assert line == "ready\n", line
    p.send_signal(signal.SIGUSR1)
    assert _readline(p) == "got USR1\n"
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=30)
    assert out == "got TERM\n", (out, err)
    assert p.returncode == 7, err


def test_kill_on_bad_exit(cluster):
    t0 = time.time()
    r = srun(cluster, ["-N2", "-n2", "-K", "sh", "-c",
                       "if [ $SLURM_PROCID = 1 ]; then exit 4; fi; sleep 30"])
    assert r.rc == 137 or r.rc == 4, r
    assert time.time() - t0 < 20
    assert "task 1: Exited with exit code 4" in r.err


def test_salloc_runs_command_and_releases(cluster):
    r = cluster.run(["salloc", "-N2", "sh", "-c",
                     "echo in $SLURM_JOB_ID $SLURM_JOB_NUM_NODES "
                     "$SLURM_JOB_NODELIST; exit 3"], user=U)
    assert r.rc == 3, r
    jid, nn, nodes = r.out.split()[1:]
    assert nn == "2" and nodes == "n[1-2]", r.out
    assert "salloc: Granted job allocation %s\n" % jid in r.err, r.err
    assert r.err.endswith("salloc: Relinquishing job allocation %s\n" % jid)
    assert cluster.wait_state(int(jid), {"FAILED", "COMPLETED"},
                              timeout=30) == "FAILED"


def test_salloc_with_srun_inside(cluster):
    r = cluster.run(["salloc", "-N2", "-n4", cluster.bin("srun"), "-l",
                     "printenv", "SLURM_NODEID"], user=U)
    assert r.rc == 0, r
    assert {k: v[0] for k, v in ranks(r.out).items()} == {
        0: "0", 1: "0", 2: "1", 3: "1"}


def test_preserve_env_keeps_the_jobs_counts(cluster):
    """-E: the tasks get the job's SLURM_NTASKS/SLURM_NNODES, the step's
    own counts only in SLURM_STEP_*, as Slurm's srun."""
    names = ("SLURM_NTASKS", "SLURM_NPROCS", "SLURM_NNODES",
             "SLURM_STEP_NUM_TASKS", "SLURM_STEP_NUM_NODES")
    show = "; ".join("echo %s=$%s" % (n, n) for n in names)
    srun = cluster.bin("srun")
    r = cluster.run(["salloc", "-N2", "-n4", "sh", "-c",
                     "%s -N1 -n1 sh -c '%s'; echo --; "
                     "%s -E -N1 -n1 sh -c '%s'; "
                     "%s --mpi-combine=maybe true" % (srun, show, srun, show,
                                                       srun)],
                    user=U)
    plain, pres = r.out.split("--\n")
    assert plain.split() == ["SLURM_NTASKS=1", "SLURM_NPROCS=1",
                             "SLURM_NNODES=1", "SLURM_STEP_NUM_TASKS=1",
                             "SLURM_STEP_NUM_NODES=1"], r
    assert pres.split() == ["SLURM_NTASKS=4", "SLURM_NPROCS=4",
                            "SLURM_NNODES=2", "SLURM_STEP_NUM_TASKS=1",
                            "SLURM_STEP_NUM_NODES=1"], r
    assert "srun: error: Invalid --mpi-combine value: maybe" in r.err, r
    for opt in ("--slurmd-debug=3", "--ctrl-comm-ifhn=127.0.0.1"):
        r = cluster.run(["srun", opt, "true"], user=U)
        assert r.rc == 255 and "srun: error: %s is not supported: " % (
            opt.split("=")[0]) in r.err, r


def test_salloc_no_shell_and_immediate(cluster):
    r = cluster.run(["salloc", "--no-shell", "-N4", "--exclusive"], user=U)
    assert r.rc == 0, r
    m = re.search(r"salloc: Granted job allocation (\d+)\n", r.err)
    assert m, r.err
    jid = int(m.group(1))
    assert cluster.job_state(jid) == "RUNNING"
    # Slurm 22.05's lines and timing: bare -I at once, -I2 after 2 s
    r = cluster.run(["salloc", "-I", "-N1", "true"], user=U)
    assert r.rc == 1, r
    assert re.fullmatch(r"salloc: error: Unable to allocate resources: "
                        r"Requested nodes are busy\nsalloc: Job allocation "
                        r"\d+ has been revoked.\n", r.err), r.err
    t0 = time.time()
    r = cluster.run(["salloc", "-I2", "-N1", "true"], user=U)
    assert r.rc == 1 and 2 <= time.time() - t0 < 10, r
    assert re.fullmatch(r"salloc: Pending job allocation (\d+)\n"
                        r"salloc: job \1 queued and waiting for resources\n"
                        r"salloc: Job allocation \1 has been revoked.\n"
                        r"salloc: error: Unable to allocate resources: "
                        r"Connection timed out\n", r.err), r.err
    t0 = time.time()
    r = cluster.run(["srun", "--immediate=3", "-N1", "true"], user=U)
    assert r.rc == 1 and 3 <= time.time() - t0 < 10, r
    assert re.fullmatch(r"srun: job \d+ queued and waiting for resources\n"
                        r"srun: error: Unable to allocate resources: "
                        r"Requested nodes are busy\n", r.err), r.err
    r = cluster.run(["srun", "--immediate=x", "-N1", "true"], user=U)
    assert r.rc == 1 and r.err == (
        'srun: error: Invalid numeric value "x" for immediate.\n'), r
    cluster.run(["scancel", str(jid)], user=U)
    cluster.wait_state(jid, {"CANCELLED"}, timeout=30)


def test_steps_shown_and_scancel_ends_them(cluster):
    r = cluster.run(["salloc", "--no-shell", "-N2"], user=U)
    assert r.rc == 0, r
    jid = int(re.search(r"Granted job allocation (\d+)", r.err).group(1))
    marker = "3519.25"
    p = _popen_srun(cluster, ["--jobid=%d" % jid, "-N2", "-n2", "sleep",
                              marker])
    assert _wait_procs("sleep " + marker, True), "tasks never started"
    r = cluster.run(["squeue", "-s", "-j", str(jid), "-h", "-o",
                     "%i %j %N"], user=U)
    assert r.rc == 0 and r.out == "%d.0 sleep n[1-2]\n" % jid, r
    r = cluster.run(["squeue", "-s", "-j", str(jid)], user=U)
    assert r.out.splitlines()[0].split() == [
        "STEPID", "NAME", "PARTITION", "USER", "TIME", "NODELIST"], r.out
    r = cluster.run(["scontrol", "show", "step", "%d.0" % jid], user=U)
    assert r.rc == 0, r
    rec = cl.parse_kv(r.out)
    assert rec["StepId"] == "%d.0" % jid and rec["NodeList"] == "n[1-2]"
    assert rec["Tasks"] == "2" and rec["Name"] == "sleep", rec
    assert rec["State"] == "RUNNING"
    r = cluster.run(["scancel", str(jid)], user=U)
    assert r.rc == 0, r
    out, err = p.communicate(timeout=30)
    assert _wait_procs("sleep " + marker, False), "tasks survived scancel"
    assert p.returncode != 0


PMI_CLIENT = r'''
import os, socket, sys
fd = int(os.environ["PMI_FD"])
s = socket.socket(fileno=fd)
f = s.makefile("rw")
def cmd(line):
    f.write(line + "\n"); f.flush()
    return dict(kv.split("=", 1) for kv in f.readline().split())
r = cmd("cmd=init pmi_version=1 pmi_subversion=1")
assert r["cmd"] == "response_to_init" and r["rc"] == "0", r
kvs = cmd("cmd=get_my_kvsname")["kvsname"]
rank, size = int(os.environ["PMI_RANK"]), int(os.environ["PMI_SIZE"])
assert cmd("cmd=get_universe_size")["size"] == str(size)
assert cmd("cmd=barrier_in")["cmd"] == "barrier_out"   # nothing put yet
for rnd in range(2):
    r = cmd("cmd=put kvsname=%s key=k%d-%d value=%d" % (kvs, rnd, rank,
                                                        (rank + 1) * 10 ** rnd))
    assert r["rc"] == "0", r
    r = cmd("cmd=barrier_in")
    assert r["cmd"] == "barrier_out", r
    total = 0
    for other in range(size):
        r = cmd("cmd=get kvsname=%s key=k%d-%d" % (kvs, rnd, other))
        assert r["rc"] == "0", (other, r)
        total += int(r["value"])
    print("rank %d round %d sum %d" % (rank, rnd, total))
m = cmd("cmd=get kvsname=%s key=PMI_process_mapping" % kvs)
print("rank %d mapping %s" % (rank, m.get("value")))
assert cmd("cmd=get kvsname=%s key=nosuchkey" % kvs)["rc"] != "0"
assert cmd("cmd=finalize")["cmd"] == "finalize_ack"
'''


def test_pmi_simple_wire_across_nodes(cluster):
    d = cluster.workdir(U)
    path = cluster.write_file(U, os.path.join(d, "pmi_client.py"),
                              PMI_CLIENT)
    r = srun(cluster, ["-N4", "-n8", "--mpi=pmi2", "/usr/bin/python3",
                       path], timeout=120)
    assert r.rc == 0, r
    lines = sorted(r.out.splitlines())
    want = sorted(["rank %d round 0 sum 36" % k for k in range(8)] +
                  ["rank %d round 1 sum 360" % k for k in range(8)] +
                  ["rank %d mapping (vector,(0,4,2))" % k for k in range(8)])
    assert lines == want, r.out
    # cyclic: ranks 0-3 on nodes 0-3, then 4-7 again
    r = srun(cluster, ["-N4", "-n8", "-m", "cyclic", "--mpi=pmi2",
                       "/usr/bin/python3", path], timeout=120)
    assert r.rc == 0, r
    assert "rank 0 mapping (vector,(0,4,1),(0,4,1))" in r.out, r.out
    r = srun(cluster, ["-n1", "printenv", "PMI_FD"])
    assert r.rc == 1 and r.out == ""


MPI_SUM = r'''
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, sum = 0, one;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	one = rank + 1;
	MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	printf("rank %d of %d sum %d\n", rank, size, sum);
	MPI_Finalize();
	return 0;
}
'''


def test_mpich_allreduce_8_ranks_4_nodes(cluster):
    import shutil
    import pytest
    if not shutil.which("mpicc.mpich"):
        pytest.skip("Debian's MPICH (mpicc.mpich) is not installed "
                    "(scripts/install-deps.sh)")
    d = cluster.workdir(U)
    src = cluster.write_file(U, os.path.join(d, "mpi_sum.c"), MPI_SUM)
    exe = os.path.join(d, "mpi_sum")
    subprocess.run(["mpicc.mpich", "-o", exe, src], check=True)
    os.chmod(exe, 0o755)
    r = srun(cluster, ["-N4", "-n8", "--mpi=pmi2", exe], timeout=120)
    assert r.rc == 0, r
    assert sorted(r.out.splitlines()) == sorted(
        "rank %d of 8 sum 36" % k for k in range(8)), r


PMI2_PROG = r'''
#include <slurm/pmi2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(x) do { int rc_ = (x); if (rc_ != PMI2_SUCCESS) { \
	fprintf(stderr, "%s failed: %d\n", #x, rc_); return 1; } } while (0)

int main(void)
{
	int spawned, size, rank, appnum, found, len, sum = 0;
	char jobid[256], key[64], val[PMI2_MAX_VALLEN], map[PMI2_MAX_VALLEN];
	const char *node = getenv("SLURMD_NODENAME");

	CHECK(PMI2_Init(&spawned, &size, &rank, &appnum));
	CHECK(PMI2_Job_GetId(jobid, sizeof(jobid)));
	snprintf(key, sizeof(key), "k%d", rank);
	snprintf(val, sizeof(val), "%d;from=%s", (rank + 1) * 10, node);
	CHECK(PMI2_KVS_Put(key, val));
	CHECK(PMI2_KVS_Fence());
	for (int r = 0; r < size; r++) {
		snprintf(key, sizeof(key), "k%d", r);
		CHECK(PMI2_KVS_Get(jobid, r, key, val, sizeof(val), &len));
		if (!strstr(val, ";from=n")) {
			fprintf(stderr, "bad value %s\n", val);
			return 1;
		}
		sum += atoi(val);
	}
	if (!strcmp(getenv("SLURM_LOCALID"), "0"))
		CHECK(PMI2_Info_PutNodeAttr("shm", node));
	CHECK(PMI2_Info_GetNodeAttr("shm", val, sizeof(val), &found, 1));
	CHECK(PMI2_Info_GetJobAttr("PMI_process_mapping", map, sizeof(map),
				   &found));
	CHECK(PMI2_KVS_Fence());
	printf("rank %d of %d sum %d attr %s job %s mapping %s\n", rank, size,
	       sum, val, strcmp(jobid, getenv("PMI_JOBID")) ? "?" : "ok", map);
	CHECK(PMI2_Finalize());
	return 0;
}
'''


def test_libpmi2_kvs_across_4_nodes(cluster):
    """Slurm's libpmi2 (Debian libpmi2-0-dev) speaks the PMI-2 wire."""
    import pytest
    if not os.path.exists("/usr/include/slurm/pmi2.h"):
        pytest.skip("libpmi2-0-dev is not installed (scripts/install-deps.sh)")
    d = cluster.workdir(U)
    src = cluster.write_file(U, os.path.join(d, "pmi2_kvs.c"), PMI2_PROG)
    exe = os.path.join(d, "pmi2_kvs")
    subprocess.run(["cc", "-o", exe, src, "-lpmi2"], check=True)
    os.chmod(exe, 0o755)
    r = srun(cluster, ["-N4", "-n8", "--mpi=pmi2", exe], timeout=120)
    assert r.rc == 0, r
    want = sorted("rank %d of 8 sum 360 attr n%d job ok mapping "
                  "(vector,(0,4,2))" % (k, k // 2 + 1) for k in range(8))
    assert sorted(r.out.splitlines()) == want, r


OMPI_ENV = {
    # every "node" is 127.0.0.1: TCP between them over loopback, which
    # Open MPI leaves out unless told; no InfiniBand/UCX probing; no
    # shared memory (vader names its segments by host and local rank:
    # the four nodes on one host would collide)
    "OMPI_MCA_btl": "self,tcp",
    "OMPI_MCA_btl_tcp_if_include": "lo",
    "OMPI_MCA_pml": "ob1",
    "OMPI_MCA_osc": "pt2pt",
}


def test_openmpi_pmix_allreduce_8_ranks_4_nodes(cluster):
    import shutil
    import pytest
    if not shutil.which("mpicc.openmpi"):
        pytest.skip("Debian's Open MPI (mpicc.openmpi) is not installed "
                    "(scripts/install-deps.sh)")
    d = cluster.workdir(U)
    src = cluster.write_file(U, os.path.join(d, "ompi_sum.c"), MPI_SUM)
    exe = os.path.join(d, "ompi_sum")
    subprocess.run(["mpicc.openmpi", "-o", exe, src], check=True)
    os.chmod(exe, 0o755)
    r = srun(cluster, ["-N4", "-n8", "--mpi=pmix", exe], timeout=40,
             env=OMPI_ENV)
    assert r.rc == 0, r
    assert sorted(r.out.splitlines()) == sorted(
        "rank %d of 8 sum 36" % k for k in range(8)), r


def test_multi_prog(cluster):
    d = cluster.workdir(U)
    conf = cluster.write_file(U, os.path.join(d, "mp.conf"), "\n".join([
        "# Slurm's MPMD file",
        "0      echo zero %t %o",
        "",
        "1-2 /usr/bin/python3 -c 'import sys; print(sys.argv[1:])' "
        "r%t %o 'a b'",
        "*  echo rest %t",
        ""]))
    r = srun(cluster, ["-n5", "-l", "--multi-prog", conf])
    assert r.rc == 0, r
    assert sorted(r.out.splitlines()) == [
        "0: zero 0 0", "1: ['r1', '0', 'a b']", "2: ['r2', '1', 'a b']",
        "3: rest 3", "4: rest 4"], r
    # without -n: as many tasks as the file names
    conf2 = cluster.write_file(U, os.path.join(d, "mp2.conf"),
                               "0,2 echo even %t %o\n1 echo odd\n")
    r = srun(cluster, ["-l", "--multi-prog", conf2])
    assert r.rc == 0 and sorted(r.out.splitlines()) == [
        "0: even 0 0", "1: odd", "2: even 2 1"], r
    bad = {
        "0 echo a\n0-1 echo b\n": ["Duplicate record for task 0",
                                   "Line 2 of configuration file %s "
                                   "invalid"],
        "0 echo a\n": ["Configuration file %s invalid, no record for "
                       "task id 1"],
        "0 echo a\n1 echo b\n5 echo c\n": ["Invalid task id, 5 >= ntasks",
                                           "Line 3 of configuration file "
                                           "%s invalid"],
        "x echo a\n": ["Invalid task range specification (x)",
                       "Line 1 of configuration file %s invalid"],
        "* echo a\n0 echo b\n": ["Task range specification with asterisk "
                                 "must be last",
                                 "Line 2 of configuration file %s invalid"],
    }
    path = os.path.join(d, "bad.conf")
    for text, msgs in bad.items():
        cluster.write_file(U, path, text)
        r = srun(cluster, ["-n2", "--multi-prog", path])
        assert r.rc == 1 and r.out == "", (text, r)
        assert r.err == "".join("srun: error: %s\n" % (
            m % path if "%s" in m else m) for m in msgs), (text, r)
    r = srun(cluster, ["-n1", "--multi-prog", "/no/such/file"])
    assert r.rc == 1 and r.err == ("srun: error: Could not open multi_prog "
                                   "config file /no/such/file\n"), r


def test_multi_prog_line_continuations(cluster):
    """A line ending in a backslash continues on the next, as in Slurm's
    MPMD files (Slurm 22.05's srun takes this file too)."""
    d = cluster.workdir(U)
    conf = cluster.write_file(U, os.path.join(d, "mpc.conf"),
                              "0 echo zero \\\n   %t \\\n  end\n"
                              "1-2 echo \\\nmore %o\n")
    r = srun(cluster, ["-n3", "-l", "--multi-prog", conf])
    assert r.rc == 0, r
    assert sorted(r.out.splitlines()) == [
        "0: zero 0 end", "1: more 0", "2: more 1"], r


def test_step_cpus_on_node_and_input_variables(cluster):
    """SLURM_CPUS_ON_NODE in an srun step's tasks is the step's CPUs on
    the node (srun(1)); srun reads SLURM_NPROCS, SLURM_LABELIO and its
    other input variables, and its command line overrides them."""
    r = srun(cluster, ["-N1", "-n1", "-c2", "printenv", "SLURM_CPUS_ON_NODE"])
    assert r.rc == 0 and r.out == "2\n", r
    r = srun(cluster, ["-N1", "printenv", "SLURM_CPUS_ON_NODE"])
    assert r.rc == 0 and r.out == "1\n", r
    r = srun(cluster, ["-N1", "echo", "x"],
             env={"SLURM_NPROCS": "2", "SLURM_LABELIO": "1"})
    assert r.rc == 0 and sorted(r.out.splitlines()) == ["0: x", "1: x"], r
    r = srun(cluster, ["-N2", "-n3", "echo", "x"],
             env={"SLURM_NPROCS": "2", "SLURM_DISTRIBUTION": "cyclic"})
    assert r.rc == 0 and r.out == "x\nx\nx\n", r


def test_pty_task_0_on_a_terminal(cluster):
    """srun --pty from a terminal (a pty the test holds): task 0 runs on
    a terminal of the size of srun's, keys reach it raw, SIGWINCH resizes
    it, its exit code is srun's."""
    import fcntl
    import pwd
    import struct
    import termios
    import threading
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 33, 91, 0, 0))
    pw = pwd.getpwnam(U)
    p = subprocess.Popen(
        [cluster.bin("srun"), "--pty", "-n1", "sh"], stdin=slave,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=cluster.env_for(U, None, None), cwd=cluster.workdir(U),
        user=pw.pw_uid, group=pw.pw_gid,
        extra_groups=os.getgrouplist(U, pw.pw_gid))
    os.close(slave)
    out = []
    t = threading.Thread(target=lambda: out.append(p.stdout.read()))
    t.start()

    try:
        time.sleep(1.5)
        os.write(master, b"stty size; tty; echo T$((6*7))\n")
        time.sleep(1.5)
        fcntl.ioctl(master, termios.TIOCSWINSZ,
                    struct.pack("HHHH", 40, 120, 0, 0))
        p.send_signal(signal.SIGWINCH)
        time.sleep(1)
        os.write(master, b"stty size; exit 3\n")
        rc = p.wait(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        t.join(timeout=10)
        os.close(master)
    text = b"".join(out).decode(errors="replace")
    assert rc == 3, (rc, text, p.stderr.read())
    assert "33 91\r\n" in text, text
    assert re.search(r"/dev/pts/\d+\r\n", text), text
    assert "T42\r\n" in text, text
    assert "40 120\r\n" in text, text


def test_mpirun_inside_allocation_launches_through_srun(cluster):
    """MPICH's mpiexec and Open MPI's mpirun under salloc start their
    daemons with srun (a step of the allocation on both nodes), as they
    do under Slurm; SLURM_TASKS_PER_NODE tells them the slots."""
    import shutil
    import pytest
    r = cluster.run(["salloc", "-N2", "-n3", "printenv",
                     "SLURM_TASKS_PER_NODE"], user=U)
    assert r.rc == 0 and r.out == "2,1\n", r
    r = cluster.run(["salloc", "-N2", "printenv", "SLURM_TASKS_PER_NODE"],
                    user=U)
    assert r.rc == 0 and r.out == "1(x2)\n", r
    if not (shutil.which("mpicc.mpich") and shutil.which("mpicc.openmpi")):
        pytest.skip("MPICH and Open MPI are needed "
                    "(scripts/install-deps.sh)")
    d = cluster.workdir(U)
    src = cluster.write_file(U, os.path.join(d, "mpi_sum.c"), MPI_SUM)
    env = {"PATH": os.path.dirname(cluster.bin("srun")) + ":/usr/bin:/bin"}
    for cc, run, extra in (("mpicc.mpich", "mpiexec.mpich", {}),
                           ("mpicc.openmpi", "mpirun.openmpi", OMPI_ENV)):
        exe = os.path.join(d, "sum_" + cc.split(".")[1])
        subprocess.run([cc, "-o", exe, src], check=True)
        os.chmod(exe, 0o755)
        e = dict(env, **extra)
        r = cluster.run(["salloc", "-N2", "-n4", run, "-n", "4", exe],
                        user=U, env=e, timeout=90)
        assert r.rc == 0, (run, r)
        assert sorted(r.out.splitlines()) == sorted(
            "rank %d of 4 sum 10" % k for k in range(4)), (run, r)
        jid = int(re.search(r"Granted job allocation (\d+)", r.err).group(1))
        assert re.search(r"_slurm_rpc_job_step_create: StepId=%d\.0 "
                         r"n\S+" % jid, cluster.log_text()), run


def _sluice_send():
    p = os.path.join(os.path.abspath(os.environ.get(
        "SLUICE_BUILD_DIR", os.path.join(cl.REPO, "build"))),
        "tests", "tools", "sluice_send")
    if not os.path.exists(p):
        import pytest
        pytest.skip("tests/tools/sluice_send not built")
    return p


def _wait_log(path, text, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        with open(path, errors="replace") as f:
            if text in f.read():
                return True
        time.sleep(0.2)
    return False


def _srun_dump(cluster, jid, dump, only=False):
    import pwd
    pw = pwd.getpwnam(U)
    extra = {"SLUICE_TEST_LAUNCH_DUMP": dump}
    if only:
        extra["SLUICE_TEST_LAUNCH_DUMP_ONLY"] = "1"
    return subprocess.Popen(
        [cluster.bin("srun"), "--jobid=%d" % jid, "-N2", "-n2", "sh", "-c",
         "sleep 3; echo done $SLURMD_NODENAME"],
        user=pw.pw_uid, group=pw.pw_gid,
        extra_groups=os.getgrouplist(U, pw.pw_gid),
        env=cluster.env_for(U, extra), cwd=cluster.workdir(U),
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)


REFUSED = "StepId=%d.%d: credential refused from uid %d: "


def test_step_credential_replay_refused(cluster):
    """A launch captured from srun (SLUICE_TEST_LAUNCH_DUMP) and sent again
    to n1's slurmd is refused: by the same user as a replay (munged's
    replay cache, or slurmd's list of launched steps), by another user as
    not the step's user, and with its node list changed; an unused
    captured credential with a changed node list is refused as a mismatch
    (and is then used up).  The original step is unharmed."""
    import pwd
    send = _sluice_send()
    uid1 = pwd.getpwnam(U).pw_uid
    uid2 = pwd.getpwnam("sluice_u2").pw_uid
    addr = "127.0.0.1:%d" % cluster.node_ports["n1"]
    log = cluster.slurmd_log("n1")
    r = cluster.run(["salloc", "--no-shell", "-N2"], user=U)
    assert r.rc == 0, r
    jid = int(re.search(r"Granted job allocation (\d+)", r.err).group(1))
    dump = cluster.mkdir_for(U, os.path.join(cluster.dir, "dump-%d" % jid))
    launch = os.path.join(dump, "launch.n1")
    p = _srun_dump(cluster, jid, dump)
    try:
        # the original launch reached n1 before anything is replayed
        assert _wait_log(log, "launch task StepId=%d.0 request from UID:%d"
                         % (jid, uid1)), "n1 never launched the step"
        assert os.path.exists(launch), "srun dumped no launch for n1"
        assert os.path.exists(os.path.join(dump, "launch.n2"))

        # 1. the captured launch, unchanged, by the same user: a replay
        r = cluster.run([send, "REQUEST_LAUNCH_TASKS", addr, launch],
                        user=U, timeout=30)
        assert r.rc == 1, r
        assert re.fullmatch(r"rc \d+: Job credential replayed\n", r.out), r
        refused = REFUSED % (jid, 0, uid1)
        assert _wait_log(log, refused + "credential replayed") or \
            _wait_log(log, refused + "step already launched", 1), \
            open(log).read()[-2000:]

        # 2. node list changed (n1 only): still refused (used credential)
        n_before = open(log).read().count(refused)
        r = cluster.run([send, "REQUEST_LAUNCH_TASKS", addr, launch,
                         "node_list=n1"], user=U, timeout=30)
        assert r.rc == 1, r
        assert re.fullmatch(r"rc \d+: (Job credential replayed|Invalid job "
                            r"credential)\n", r.out), r
        deadline = time.time() + 20
        while open(log).read().count(refused) == n_before and \
                time.time() < deadline:
            time.sleep(0.2)
        assert open(log).read().count(refused) > n_before

        # 3. the same launch sent by another user
        copy = cluster.write_file("sluice_u2",
                                  os.path.join(cluster.dir, "launch-u2"),
                                  open(launch).read())
        r = cluster.run([send, "REQUEST_LAUNCH_TASKS", addr, copy],
                        user="sluice_u2", timeout=30)
        assert r.rc == 1, r
        assert re.fullmatch(r"rc \d+: Invalid job credential\n", r.out), r
        assert _wait_log(log, REFUSED % (jid, 0, uid2) +
                         "sender is not the step's user"), \
            open(log).read()[-2000:]

        # the original step ran to its end on both nodes, once each
        out, err = p.communicate(timeout=60)
        assert p.returncode == 0, (out, err)
        assert sorted(out.splitlines()) == ["done n1", "done n2"], (out, err)
        with open(log) as f:
            assert f.read().count("launch task StepId=%d.0 " % jid) == 1

        # 4. a captured launch never sent (DUMP_ONLY: srun's launch fails),
        # its node list changed: the credential does not match
        dump2 = cluster.mkdir_for(U, os.path.join(cluster.dir,
                                                  "dump-%d-1" % jid))
        p = _srun_dump(cluster, jid, dump2, only=True)
        out, err = p.communicate(timeout=60)
        assert p.returncode != 0, (out, err)
        launch = os.path.join(dump2, "launch.n1")
        assert os.path.exists(launch), err
        r = cluster.run([send, "REQUEST_LAUNCH_TASKS", addr, launch,
                         "node_list=n1"], user=U, timeout=30)
        assert r.rc == 1, r
        assert re.fullmatch(r"rc \d+: Invalid job credential\n", r.out), r
        refused = REFUSED % (jid, 1, uid1)
        assert _wait_log(log, refused + "node list differs"), \
            open(log).read()[-2000:]
        # ... and is used up: the unchanged launch is now a replay
        r = cluster.run([send, "REQUEST_LAUNCH_TASKS", addr, launch],
                        user=U, timeout=30)
        assert re.fullmatch(r"rc \d+: Job credential replayed\n", r.out), r
        assert r.rc == 1, r
        with open(log) as f:
            assert "launch task StepId=%d.1 " % jid not in f.read()
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate(timeout=30)
        cluster.run(["scancel", str(jid)], user=U)


def test_input_file_and_forms(cluster):
    """srun --input=FILE: every task reads the file; none: no input;
    a task number: srun's stdin to that task only; all (default): to
    every task."""
    d = cluster.workdir(U)
    path = cluster.write_file(U, os.path.join(d, "in.txt"), "from-file\n")
    r = srun(cluster, ["-n2", "-l", "--input=" + path, "cat"])
    assert r.rc == 0 and sorted(r.out.splitlines()) == [
        "0: from-file", "1: from-file"], r
    # read, never emptied (it was opened with O_TRUNC)
    assert open(path).read() == "from-file\n"
    r = srun(cluster, ["-n2", "-l", "-i", "none", "cat"], input="typed\n")
    assert r.rc == 0 and r.out == "", r
    r = srun(cluster, ["-n2", "-l", "--input=1", "cat"], input="typed\n")
    assert r.rc == 0 and r.out == "1: typed\n", r
    r = srun(cluster, ["-n2", "-l", "--input=all", "cat"], input="typed\n")
    assert r.rc == 0 and sorted(r.out.splitlines()) == [
        "0: typed", "1: typed"], r


def test_hold(cluster):
    """srun/salloc --hold: the job waits held until released (Slurm 22.05:
    "Job is in held state, pending scheduler release"); with --immediate
    it can never start at once: Slurm's "Job dependency problem"."""
    r = srun(cluster, ["--hold", "-I", "-N1", "true"])
    assert r.rc == 1 and r.err == ("srun: error: Unable to allocate "
                                   "resources: Job dependency problem\n"), r
    r = cluster.run(["salloc", "--hold", "-I", "-N1", "true"], user=U)
    assert r.rc == 1 and re.fullmatch(
        r"salloc: error: Job submit/allocate failed: Job dependency problem\n"
        r"salloc: Job allocation \d+ has been revoked.\n", r.err), r
    p = _popen_srun(cluster, ["--hold", "-N1", "echo", "released"])
    try:
        jid = cl.wait_for(lambda: [j for j, s in cluster.all_job_states().items()
                                if s == "PENDING"], 20, "held job")[0]
        jid = int(str(jid).split("_")[0])
        time.sleep(1)
        assert cluster.show_job(jid)["Reason"] == "JobHeldUser"
        assert cluster.run(["scontrol", "release", str(jid)],
                           user=U).rc == 0
        out, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 0 and out == "released\n", (out, err)
    assert err.startswith("srun: Job is in held state, pending scheduler "
                          "release\nsrun: job %d queued and waiting for "
                          "resources\n" % jid), err
