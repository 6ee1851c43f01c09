"""Batch jobs end to end: 200 jobs from two users over 4 nodes x 2 CPUs.

Each job records when it ran, where, as whom, in which directory and with
which SLURM_* environment; the test then checks every record against what
was asked (Slurm's documented behaviour) and that no node ever ran more CPUs
than it has.
"""

import glob
import grp
import os
import pwd
import re
import socket
import threading
import time

import cluster as cl

JOBS_PER_USER = 100
MARK_VAR = "hello-from-submitter"

# One job body for script files and --wrap: absolute paths so that
# --export=NONE (no PATH from the submitter) does not change what runs.
BODY_LINES = [
    'echo "START $(/usr/bin/date +%s.%N)"',
    'echo "ID_U=$(/usr/bin/id -u)"',
    'echo "PWD_IS=$(/usr/bin/pwd -P)"',
    'echo "MY_TEST_VAR=${MY_TEST_VAR-unset}"',
    'echo "MY_OTHER=${MY_OTHER-unset}"',
    "/usr/bin/env | /usr/bin/grep -E '^SLURM' | /usr/bin/sort",
    "/usr/bin/sleep 0.2",
    'echo "END $(/usr/bin/date +%s.%N)"',
]
WRAP = " ; ".join(BODY_LINES)


def script(sbatch_lines):
    return "#!/bin/sh\n" + "".join("#SBATCH %s\n" % s for s in sbatch_lines) \
        + "\n".join(BODY_LINES) + "\n"


def parse_output(text):
    rec = {"env": {}}
    for line in text.splitlines():
        if line.startswith("START "):
            rec["start"] = float(line.split()[1])
        elif line.startswith("END "):
            rec["end"] = float(line.split()[1])
        elif "=" in line:
            k, _, v = line.partition("=")
            if k.startswith("SLURM"):
                rec["env"][k] = v
            else:
                rec[k] = v
    return rec


def submit_all(c, user, results, errors):
    """Submit JOBS_PER_USER jobs of five kinds as user; append one
    expectation dict per job to results."""
    uid, gid, _ = cl.user_ids(user)
    base = c.workdir(user)
    sub = c.mkdir_for(user, os.path.join(base, "sub"))
    c.mkdir_for(user, os.path.join(base, "out"))
    c.mkdir_for(user, os.path.join(base, "err"))
    s_cpus = c.write_file(user, os.path.join(base, "cpus.sh"), script([
        "--job-name=scripted", "-o out/%x-%j.out", "-c 2"]))
    s_dir = c.write_file(user, os.path.join(base, "dir.sh"), script([
        "-J dirjob", "--output=pct-%%-%j.out"]))
    env = {"MY_TEST_VAR": MARK_VAR}
    for i in range(JOBS_PER_USER):
        kind = i % 5
        exp = {"user": user, "uid": uid, "kind": kind, "submit_dir": base,
               "workdir": base, "cpus": 1, "ntasks": None, "cpt": None,
               "my_test_var": MARK_VAR, "my_other": "unset"}
        try:
            if kind == 0:
                exp["name"] = "wrap%d" % i
                jid = c.sbatch(["-J", exp["name"], "--wrap", WRAP],
                               user=user, cwd=base, env=env)
                exp["out"] = os.path.join(base, "slurm-%d.out" % jid)
            elif kind == 1:
                exp.update(name="scripted", cpus=2, cpt="2")
                jid = c.sbatch([s_cpus], user=user, cwd=base, env=env)
                exp["out"] = os.path.join(base, "out", "scripted-%d.out" % jid)
            elif kind == 2:
                exp.update(name="ntasks", cpus=2, ntasks="2")
                jid = c.sbatch(["-J", "ntasks", "-N", "1", "-n", "2",
                                "-o", "out/%u-%j-%N.out", "-e", "err/%j.err",
                                "--wrap", WRAP], user=user, cwd=base, env=env)
                exp["out_glob"] = os.path.join(base, "out", "%s-%d-*.out" % (user, jid))
                exp["err"] = os.path.join(base, "err", "%d.err" % jid)
            elif kind == 3:
                exp.update(name="dirjob", workdir=sub)
                jid = c.sbatch(["-D", sub, s_dir], user=user, cwd=base, env=env)
                exp["out"] = os.path.join(sub, "pct-%%-%d.out" % jid)
            else:
                mode = (i // 5) % 3
                exp["name"] = "export%d" % mode
                if mode == 0:
                    opt = "--export=NONE"
                    exp["my_test_var"] = "unset"
                elif mode == 1:
                    opt = "--export=ALL"
                else:
                    opt = "--export=MY_OTHER=val%d" % i
                    exp["my_test_var"] = "unset"
                    exp["my_other"] = "val%d" % i
                exp["export"] = opt
                jid = c.sbatch(["-J", exp["name"], opt, "--wrap", WRAP],
                               user=user, cwd=base, env=env)
                exp["out"] = os.path.join(base, "slurm-%d.out" % jid)
        except Exception as e:  # keep going: report every failure at the end
            errors.append("%s job %d (kind %d): %s" % (user, i, kind, e))
            continue
        exp["jobid"] = jid
        results.append(exp)


class NodeSampler(threading.Thread):
    """Samples scontrol show node while jobs run."""

    def __init__(self, c):
        super().__init__(daemon=True)
        self.c = c
        self.stop = threading.Event()
        self.violations = []
        self.samples = 0
        self.max_alloc = 0

    def run(self):
        while not self.stop.is_set():
            for name, rec in self.c.show_nodes().items():
                try:
                    alloc = int(rec.get("CPUAlloc", "0"))
                    tot = int(rec.get("CPUTot", "0"))
                except ValueError:
                    self.violations.append("%s: unparsable %r" % (name, rec))
                    continue
                self.samples += 1
                self.max_alloc = max(self.max_alloc, alloc)
                if alloc > tot or tot != self.c.cpus:
                    self.violations.append("%s CPUAlloc=%d CPUTot=%d" % (name, alloc, tot))
            self.stop.wait(0.3)


def check_overlaps(records, cpus_per_node):
    """Sweep each node's start/end events; return violations."""
    by_node = {}
    for r in records:
        by_node.setdefault(r["node"], []).append(r)
    bad = []
    for node, recs in by_node.items():
        events = []
        for r in recs:
            events.append((r["start"], 1, r["cpus"], r["jobid"]))
            events.append((r["end"], 0, -r["cpus"], r["jobid"]))
        events.sort()
        used, running = 0, set()
        for t, _, delta, jid in events:
            used += delta
            if delta > 0:
                running.add(jid)
            else:
                running.discard(jid)
            if used > cpus_per_node:
                bad.append("%s at %.3f: %d CPUs in use by jobs %s" % (
                    node, t, used, sorted(running)))
    return bad


def test_200_jobs_two_users(cluster):
    c = cluster
    results, errors = [], []
    sampler = NodeSampler(c)
    sampler.start()
    threads = [threading.Thread(target=submit_all, args=(c, u, results, errors))
               for u in cl.TEST_USERS]
    t0 = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    submit_time = time.time() - t0
    assert not errors, "submissions failed:\n" + "\n".join(errors[:10])
    assert len(results) == 2 * JOBS_PER_USER
    ids = [r["jobid"] for r in results]
    assert len(set(ids)) == len(ids), "duplicate job ids"

    # Wait for all to finish.
    deadline = time.time() + 300
    states = {}
    while time.time() < deadline:
        states = c.all_job_states()
        if all(states.get(str(j)) in cl.TERMINAL_STATES for j in ids):
            break
        time.sleep(1)
    sampler.stop.set()
    sampler.join()
    not_done = {j: states.get(str(j)) for j in ids
                if states.get(str(j)) != "COMPLETED"}
    assert not not_done, "%d of %d jobs not COMPLETED after %.0fs (submit took "\
        "%.1fs): %s" % (len(not_done), len(ids), time.time() - t0, submit_time,
                        dict(list(not_done.items())[:20]))

    assert sampler.samples > 0, "scontrol show node never answered"
    assert not sampler.violations, sampler.violations[:10]
    assert sampler.max_alloc > 0, "never saw a CPU allocated while 200 jobs ran"

    problems = []
    records = []
    host = socket.gethostname()
    for exp in results:
        jid = exp["jobid"]
        where = "job %d (%s kind %d)" % (jid, exp["user"], exp["kind"])
        out = exp.get("out")
        if out is None:
            found = glob.glob(exp["out_glob"])
            if len(found) != 1:
                problems.append("%s: output %s matched %s" % (where, exp["out_glob"], found))
                continue
            out = found[0]
        if not os.path.exists(out):
            near = sorted(os.listdir(os.path.dirname(out)))[:10]
            problems.append("%s: no output file %s (dir has %s)" % (where, out, near))
            continue
        st = os.stat(out)
        if st.st_uid != exp["uid"]:
            problems.append("%s: %s owned by uid %d" % (where, out, st.st_uid))
        with open(out, errors="replace") as f:
            rec = parse_output(f.read())
        env = rec["env"]
        if "start" not in rec or "end" not in rec:
            problems.append("%s: incomplete output %r" % (where, rec))
            continue
        node = env.get("SLURMD_NODENAME")
        want = {
            "SLURM_JOB_ID": str(jid), "SLURM_JOBID": str(jid),
            "SLURM_JOB_NAME": exp["name"], "SLURM_JOB_USER": exp["user"],
            "SLURM_JOB_UID": str(exp["uid"]), "SLURM_JOB_PARTITION": "debug",
            "SLURM_JOB_NODELIST": node, "SLURM_NODELIST": node,
            "SLURM_JOB_NUM_NODES": "1", "SLURM_NNODES": "1",
            "SLURM_CPUS_ON_NODE": str(exp["cpus"]),
            "SLURM_SUBMIT_DIR": exp["submit_dir"],
            "SLURM_CLUSTER_NAME": c.name,
            "SLURM_JOB_GID": str(pwd.getpwnam(exp["user"]).pw_gid),
            "SLURM_JOB_GROUP": grp.getgrgid(
                pwd.getpwnam(exp["user"]).pw_gid).gr_name,
        }
        if exp["ntasks"]:
            want["SLURM_NTASKS"] = exp["ntasks"]
        if exp["cpt"]:
            want["SLURM_CPUS_PER_TASK"] = exp["cpt"]
        for k, v in want.items():
            if env.get(k) != v:
                problems.append("%s: %s=%r, expected %r" % (where, k, env.get(k), v))
        if node not in c.node_names:
            problems.append("%s: SLURMD_NODENAME=%r" % (where, node))
        if env.get("SLURM_SUBMIT_HOST") not in (host, host.split(".")[0]):
            problems.append("%s: SLURM_SUBMIT_HOST=%r, expected %r" % (
                where, env.get("SLURM_SUBMIT_HOST"), host))
        if rec.get("ID_U") != str(exp["uid"]):
            problems.append("%s: ran as uid %r" % (where, rec.get("ID_U")))
        if rec.get("PWD_IS") != exp["workdir"]:
            problems.append("%s: ran in %r, expected %r" % (where, rec.get("PWD_IS"), exp["workdir"]))
        if rec.get("MY_TEST_VAR") != exp["my_test_var"]:
            problems.append("%s %s: MY_TEST_VAR=%r, expected %r" % (
                where, exp.get("export", ""), rec.get("MY_TEST_VAR"), exp["my_test_var"]))
        if rec.get("MY_OTHER") != exp["my_other"]:
            problems.append("%s %s: MY_OTHER=%r, expected %r" % (
                where, exp.get("export", ""), rec.get("MY_OTHER"), exp["my_other"]))
        if exp["kind"] == 2:
            # %N is the short hostname of the machine the job ran on (what
            # Slurm's slurmstepd uses), not the NodeName: here every node
            # is this host.
            short = host.split(".")[0]
            if os.path.basename(out) != "%s-%d-%s.out" % (exp["user"], jid, short):
                problems.append("%s: %%N in output name gave %s, expected host %s" % (
                    where, out, short))
            if not os.path.exists(exp["err"]):
                problems.append("%s: no -e file %s" % (where, exp["err"]))
            elif os.stat(exp["err"]).st_uid != exp["uid"]:
                problems.append("%s: -e file owned by uid %d" % (where, os.stat(exp["err"]).st_uid))
        records.append({"jobid": jid, "node": node, "start": rec["start"],
                        "end": rec["end"], "cpus": exp["cpus"]})
    assert not problems, "%d problems, first ones:\n%s" % (
        len(problems), "\n".join(problems[:25]))

    overlaps = check_overlaps(records, c.cpus)
    assert not overlaps, "node over-subscribed:\n" + "\n".join(overlaps[:10])
    # (Which nodes ran jobs is the machine's speed, not a property: on a
    # loaded machine jobs may end before the next is placed, all on n1.)


def test_default_output_in_chdir_and_parsable(cluster):
    """--parsable prints the bare id; with -D and no -o the output lands in
    the -D directory as slurm-<id>.out, owned by the user."""
    c = cluster
    user = "sluice_u1"
    base = c.workdir(user)
    other = c.mkdir_for(user, os.path.join(base, "chdir-target"))
    r = c.run(["sbatch", "--parsable", "-D", other, "--wrap", "/usr/bin/pwd -P"],
              user=user, cwd=base)
    assert r.rc == 0, r
    assert re.fullmatch(r"\d+\n", r.out), r
    jid = int(r.out)
    assert c.wait_done(jid, 60) == "COMPLETED"
    out = os.path.join(other, "slurm-%d.out" % jid)
    assert os.path.exists(out), os.listdir(other)
    assert os.stat(out).st_uid == cl.user_ids(user)[0]
    with open(out) as f:
        assert f.read().strip() == other


def test_job_runs_with_the_users_supplementary_groups(cluster):
    """The batch script and an srun step's task run with the user's uid,
    primary group and every supplementary group (the controller sends the
    list, in the batch launch and in the step's credential; the node does
    not ask NSS per job), and no group of root's."""
    import grp
    import pwd
    import subprocess
    c = cluster
    user = "sluice_u2"
    name = "sluice_tgrp"
    try:
        grp.getgrnam(name)
    except KeyError:
        subprocess.run(["groupadd", name], check=True)
    subprocess.run(["usermod", "-aG", name, user], check=True)
    pw = pwd.getpwnam(user)
    want = sorted(set(os.getgrouplist(user, pw.pw_gid)))
    assert grp.getgrnam(name).gr_gid in want, want
    # On a fresh machine the group is new and an earlier test's job made
    # the controller keep the user's old list (see the next test).
    r = c.run(["scontrol", "reconfigure"])
    assert r.rc == 0, r
    base = c.workdir(user)
    r = c.run(["sbatch", "--parsable", "-o", os.path.join(base, "groups-%j.out"),
               "--wrap", "/usr/bin/id -G; /usr/bin/id -g; %s -n1 /usr/bin/id -G"
               % c.bin("srun")], user=user, cwd=base)
    assert r.rc == 0, r
    jid = int(r.out)
    assert c.wait_done(jid, 60) == "COMPLETED"
    with open(os.path.join(base, "groups-%d.out" % jid)) as f:
        lines = f.read().split("\n")
    assert sorted(int(g) for g in lines[0].split()) == want, lines
    assert int(lines[1]) == pw.pw_gid, lines
    assert sorted(int(g) for g in lines[2].split()) == want, lines


def test_new_group_reaches_jobs_after_reconfigure(cluster):
    """The controller keeps a user's groups for a while (it sends them with
    each launch): a group the user joins shows in new jobs once an admin
    runs `scontrol reconfigure`, as in Slurm, not before."""
    import grp
    import pwd
    import subprocess
    c = cluster
    user = "sluice_u2"
    name = "sluice_rgrp%d" % os.getpid()
    base = c.workdir(user)

    def groups():
        r = c.run(["sbatch", "--parsable", "-o",
                   os.path.join(base, "rgroups-%j.out"),
                   "--wrap", "/usr/bin/id -G"], user=user, cwd=base)
        assert r.rc == 0, r
        jid = int(r.out)
        assert c.wait_done(jid, 60) == "COMPLETED"
        with open(os.path.join(base, "rgroups-%d.out" % jid)) as f:
            return set(int(g) for g in f.read().split())

    groups()                            # the controller looks them up
    subprocess.run(["groupadd", name], check=True)
    try:
        subprocess.run(["usermod", "-aG", name, user], check=True)
        gid = grp.getgrnam(name).gr_gid
        now = set(os.getgrouplist(user, pwd.getpwnam(user).pw_gid))
        assert gid in now
        assert gid not in groups()      # still the list it keeps
        r = c.run(["scontrol", "reconfigure"])
        assert r.rc == 0, r
        assert groups() == now
    finally:
        subprocess.run(["groupdel", name], check=False)


def test_script_on_stdin_and_failed_exit(cluster):
    """A script read from stdin runs; a non-zero exit ends FAILED with
    ExitCode=N:0."""
    c = cluster
    user = "sluice_u2"
    r = c.run(["sbatch", "-J", "stdinjob"], user=user,
              input="#!/bin/sh\necho from-stdin\nexit 3\n")
    assert r.rc == 0, r
    m = re.fullmatch(r"Submitted batch job (\d+)\n", r.out)
    assert m, r
    jid = int(m.group(1))
    assert c.wait_done(jid, 60) == "FAILED"
    rec = c.show_job(jid)
    assert rec.get("ExitCode") == "3:0", rec
    assert rec.get("JobName") == "stdinjob", rec
    out = os.path.join(c.workdir(user), "slurm-%d.out" % jid)
    with open(out) as f:
        assert f.read() == "from-stdin\n"


def test_submit_dir_and_command_with_chdir(cluster):
    """With -D, the job runs in the -D dir and its default output goes
    there, but SLURM_SUBMIT_DIR stays where sbatch ran; Command= is the
    absolute path of the script even when given relative (checked against
    Slurm 22.05)."""
    c = cluster
    user = "sluice_u2"
    base = c.workdir(user)
    sub = c.mkdir_for(user, os.path.join(base, "cmd-sub"))
    c.write_file(user, os.path.join(base, "cmd.sh"),
                 "#!/bin/sh\n#SBATCH -J cmdjob\n"
                 "echo \"$SLURM_SUBMIT_DIR $(/usr/bin/pwd -P)\"\n")
    jid = c.sbatch(["-D", sub, "cmd.sh"], user=user, cwd=base)
    assert c.wait_done(jid, 60) == "COMPLETED"
    rec = c.show_job(jid)
    assert rec.get("Command") == os.path.join(base, "cmd.sh"), rec
    assert rec.get("WorkDir") == sub, rec
    assert rec.get("StdOut") == os.path.join(sub, "slurm-%d.out" % jid), rec
    with open(os.path.join(sub, "slurm-%d.out" % jid)) as f:
        assert f.read() == "%s %s\n" % (base, sub)


def test_task_pid_and_missing_workdir(cluster):
    """SLURM_TASK_PID is the batch script's own pid; a working directory
    that does not exist on the node sends the job to /tmp with Slurm's
    notice on its stderr."""
    c = cluster
    user = "sluice_u1"
    out = os.path.join(c.workdir(user), "taskpid.out")
    jid = c.sbatch(["-o", out, "-D", "/nonexistent-sluice-dir", "--wrap",
                    'echo "$SLURM_TASK_PID $$ $(/usr/bin/pwd -P)"'],
                   user=user)
    assert c.wait_done(jid, 60) == "COMPLETED"
    with open(out) as f:
        lines = f.read().splitlines()
    assert lines[0] == ("slurmstepd: error: couldn't chdir to "
                        "`/nonexistent-sluice-dir': No such file or "
                        "directory: going to /tmp instead"), lines
    pid, shell_pid, cwd = lines[1].split()
    assert pid == shell_pid and int(pid) > 1, lines
    assert cwd == "/tmp", lines


def test_script_with_missing_interpreter_fails(cluster):
    """The script's interpreter does not exist: execve fails in the task,
    the job ends FAILED and its output says why."""
    c = cluster
    user = "sluice_u2"
    out = os.path.join(c.workdir(user), "badinterp.out")
    jid = c.sbatch(["-o", out], user=user,
                   input="#!/nonexistent/sluice-sh\necho never\n")
    assert c.wait_done(jid, 60) == "FAILED", c.show_job(jid)
    with open(out) as f:
        text = f.read()
    assert "slurmstepd: error: execve(): " in text, text
    assert "No such file or directory" in text, text
    assert "never" not in text, text
