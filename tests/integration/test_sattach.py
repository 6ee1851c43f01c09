"""sattach: attach to a running step's I/O (4-node loopback cluster).

A step started by srun (as test user u1, srun's stdin kept open) prints a
line per task every 0.2 s; every task echoes what it reads on stdin.
- u1's `sattach -l` receives the tasks' lines labelled, its stdin reaches
  task 0 (and, by default, every task), and it exits 0 when the step ends;
- `--input-filter/--output-filter` send to and show one task only;
- u2 is refused by every node as Slurm 22.05 does ("Node nX: no tasks
  running", exit 0) and the node logs the attempt;
- `--layout` prints Slurm's layout text; bad ids and job states give
  Slurm's messages and exit 1.
"""

import os
import pwd
import re
import select
import subprocess
import threading
import time

import cluster as cl

U = "sluice_u1"
OTHER = "sluice_u2"

TASK = """#!/bin/bash
# every task echoes its stdin; ticks until the file 'stop' appears
(while read -r x; do echo "got $x"; done) <&0 &
i=0
while [ ! -e {stop} ] && [ $i -lt 900 ]; do
    echo "tick $SLURM_PROCID $i"
    i=$((i+1))
    sleep 0.2
done
kill $! 2>/dev/null
exit 0
"""


def _popen(c, argv, user):
    pw = pwd.getpwnam(user)
    return subprocess.Popen(
        argv, user=pw.pw_uid, group=pw.pw_gid,
        extra_groups=os.getgrouplist(user, pw.pw_gid),
        env=c.env_for(user), cwd=c.workdir(user), stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


class Lines:
    """Collects a process's stdout lines in a thread."""

    def __init__(self, stream):
        self.lines = []
        self.t = threading.Thread(target=self._run, args=(stream,),
                                  daemon=True)
        self.t.start()

    def _run(self, stream):
        for line in stream:
            self.lines.append(line)

    def wait_for(self, pattern, timeout=40):
        deadline = time.time() + timeout
        while time.time() < deadline:
            for line in list(self.lines):
                if re.fullmatch(pattern, line.rstrip("\n")):
                    return line
            time.sleep(0.1)
        raise AssertionError("no line matching %r in %r"
                             % (pattern, self.lines[-20:]))


class Step:
    """u1's `srun -w n[1-2] -n3 task.sh`, stdin open, output to a file."""

    def __init__(self, c, extra=()):
        self.c = c
        d = c.workdir(U)
        self.stop = os.path.join(d, "stop.%d" % time.monotonic_ns())
        task = c.write_file(U, os.path.join(d, "task.sh"),
                            TASK.format(stop=self.stop), 0o755)
        self.out = open(os.path.join(d, "srun.%d.out"
                                     % time.monotonic_ns()), "w+")
        pw = pwd.getpwnam(U)
        self.p = subprocess.Popen(
            [c.bin("srun"), "-w", "n[1-2]", "-n3", "-l"] + list(extra) +
            [task], user=pw.pw_uid, group=pw.pw_gid,
            extra_groups=os.getgrouplist(U, pw.pw_gid), env=c.env_for(U),
            cwd=d, stdin=subprocess.PIPE, stdout=self.out,
            stderr=subprocess.STDOUT, text=True)
        self.id = self._step_id()

    def _step_id(self):
        deadline = time.time() + 40
        while time.time() < deadline:
            r = self.c.run(["squeue", "-h", "-s", "-u", U, "-o", "%i"])
            ids = [s for s in r.out.split() if s.endswith(".0")]
            if ids:
                # running once a tick is out
                while time.time() < deadline:
                    self.out.seek(0)
                    if "tick" in self.out.read():
                        return ids[0]
                    time.sleep(0.1)
            time.sleep(0.2)
        raise AssertionError("step never started")

    def srun_output(self):
        self.out.seek(0)
        return self.out.read()

    def end(self):
        with open(self.stop, "w"):
            pass
        try:
            self.p.stdin.close()
            self.p.wait(timeout=60)
        finally:
            if self.p.poll() is None:
                self.p.kill()
            self.out.close()
            os.unlink(self.stop)


def test_owner_attaches_labelled_with_stdin(cluster):
    c = cluster
    st = Step(c)
    try:
        a = _popen(c, [c.bin("sattach"), "-l", st.id], U)
        lines = Lines(a.stdout)
        # new lines of every task arrive, labelled
        for t in range(3):
            lines.wait_for(r"%d: tick %d \d+" % (t, t))
        a.stdin.write("hello from sattach\n")
        a.stdin.flush()
        lines.wait_for(r"0: got hello from sattach")
        # srun sees the tasks' answers too (stdin went to every task)
        deadline = time.time() + 30
        while "0: got hello from sattach" not in st.srun_output() and \
                time.time() < deadline:
            time.sleep(0.1)
        assert "0: got hello from sattach" in st.srun_output()
        assert "2: got hello from sattach" in st.srun_output()

        # a second client with filters: stdin to task 2 only, only
        # task 2's stdout
        b = _popen(c, [c.bin("sattach"), "--input-filter=2",
                       "--output-filter=2", "-l", st.id], U)
        blines = Lines(b.stdout)
        blines.wait_for(r"2: tick 2 \d+")
        b.stdin.write("only two\n")
        b.stdin.flush()
        blines.wait_for(r"2: got only two")
        lines.wait_for(r"2: got only two")    # the first client sees it
        time.sleep(1)
        assert not any(re.match(r"[01]: ", l) for l in blines.lines), \
            blines.lines[-10:]
        assert "0: got only two" not in st.srun_output()

        # the step ends: both clients exit 0
        st.end()
        assert a.wait(timeout=60) == 0
        assert b.wait(timeout=60) == 0
        a_err = a.stderr.read()
        assert a_err == "", a_err
        assert st.p.returncode == 0, st.srun_output()[-500:]
    finally:
        if st.p.poll() is None:
            st.end()


def test_other_user_refused_root_allowed(cluster):
    c = cluster
    st = Step(c)
    try:
        jid, _ = st.id.split(".")
        r = c.run(["sattach", st.id], user=OTHER, timeout=60)
        # Slurm 22.05: each node refuses; sattach says so and exits 0
        assert r.rc == 0 and r.out == "", r
        assert sorted(r.err.splitlines()) == [
            "sattach: Node n1: no tasks running",
            "sattach: Node n2: no tasks running"], r
        uid1 = pwd.getpwnam(U).pw_uid
        uid2 = pwd.getpwnam(OTHER).pw_uid
        want = "uid %d attempt to attach to StepId=%s owned by %d" % (
            uid2, st.id, uid1)
        deadline = time.time() + 20
        while want not in c.log_text("n1") and time.time() < deadline:
            time.sleep(0.2)
        assert want in c.log_text("n1")
        # -Q: nothing said at all (as Slurm)
        r = c.run(["sattach", "-Q", st.id], user=OTHER, timeout=60)
        assert (r.rc, r.out, r.err) == (0, "", ""), r
        # the step is untouched: still ticking, nothing from u2 reached it
        assert c.job_state(int(jid)) == "RUNNING"
        # root may attach
        pr = subprocess.Popen(
            [c.bin("sattach"), "--output-filter=1", st.id],
            env=c.env_for(None), stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        lines = Lines(pr.stdout)
        lines.wait_for(r"tick 1 \d+")
        st.end()
        assert pr.wait(timeout=60) == 0
    finally:
        if st.p.poll() is None:
            st.end()


LAYOUT = ("Job step layout:\n"
          "\t3 tasks, 2 nodes (n[1-2])\n"
          "\n"
          "\tNode 0 (n1), {a} task(s): {ta} \n"
          "\tNode 1 (n2), {b} task(s): {tb} \n")


def test_layout_and_errors(cluster):
    c = cluster
    st = Step(c, ["-m", "cyclic"])
    try:
        jid = int(st.id.split(".")[0])
        r = c.run(["sattach", "--layout", st.id], user=U)
        assert (r.rc, r.err) == (0, ""), r
        assert r.out == LAYOUT.format(a=2, ta="0 2", b=1, tb="1"), r
        # anyone may see the layout (no PrivateData)
        r = c.run(["sattach", "--layout", st.id], user=OTHER)
        assert r.rc == 0 and r.out.startswith("Job step layout:\n"), r
        r = c.run(["sattach", "%d.7" % jid], user=U)
        assert (r.rc, r.out, r.err) == (
            1, "", "sattach: error: Could not get job step info: "
            "Invalid job id specified\n"), r
    finally:
        st.end()
    r = c.run(["sattach", "--layout", st.id], user=U)
    assert (r.rc, r.err) == (1, "sattach: error: Could not get job step "
                             "info: Job/step already completing or "
                             "completed\n"), r
    held = c.sbatch(["--hold", "--wrap", "true"], user=U)
    r = c.run(["sattach", "%d.0" % held], user=U)
    assert (r.rc, r.err) == (1, "sattach: error: Could not get job step "
                             "info: Job is pending execution\n"), r
    c.run(["scancel", str(held)])
    r = c.run(["sattach", "999999.0"], user=U)
    assert (r.rc, r.err) == (1, "sattach: error: Could not get job step "
                             "info: Invalid job id specified\n"), r
    usage = "Usage: sattach [options] <jobid.stepid>\n"
    r = c.run(["sattach", "12"], user=U)
    assert (r.rc, r.out, r.err) == (1, usage, "sattach: error: Failed to "
                                    "parse stepid from command line "
                                    "options\n"), r
    r = c.run(["sattach"], user=U)
    assert (r.rc, r.out, r.err) == (
        1, usage, "sattach: error: too many parameters\n"), r
    r = c.run(["sattach", "--input-filter=x", "3.0"], user=U)
    assert (r.rc, r.err) == (1, 'sattach: error: Invalid numeric value "x" '
                             'for input-filter.\n'), r
    r = c.run(["sattach", "--bogus", "3.0"], user=U)
    assert r.rc == 1 and r.err == (
        "sattach: unrecognized option '--bogus'\n"
        "Try \"sattach --help\" for more information\n"), r
    r = c.run(["sattach", "-u"], user=U)
    assert (r.rc, r.out) == (0, usage), r
    r = c.run(["sattach", "--help"], user=U)
    assert r.rc == 0 and r.out.startswith(usage) and "--layout" in r.out
