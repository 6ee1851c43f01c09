"""salloc when its allocation ends under it (salloc(1), -K/--kill-command).

The controller tells the salloc that made an allocation when the job
ends without it (scancel, the time limit): salloc prints "Job allocation
N has been revoked." (or "Job N has exceeded its time limit and its
allocation has been revoked."), leaves its command running unless -K
asked for a signal, does not print "Relinquishing" afterwards, and exits
with its command's status, as Slurm's salloc does.  Bad -K values are
refused before anything is asked of the controller."""

import os
import subprocess
import tempfile

import cluster as cl

USER = cl.TEST_USERS[0]

# A command that says when it started and which signal ended it, and
# otherwise runs until told (or for a while).
SCRIPT = ("trap 'echo got TERM; exit 3' TERM; "
          "trap 'echo got USR1; exit 4' USR1; "
          "echo started; i=0; while [ $i -lt %d ]; do sleep 1; "
          "i=$((i+1)); done; echo finished")


class Salloc:
    """One salloc in the background, its stdout and stderr in files."""

    def __init__(self, c, args, loops=240, env_extra=None):
        self.c = c
        self.out = tempfile.NamedTemporaryFile(mode="w+", dir=c.dir,
                                               prefix="salloc-out-")
        self.err = tempfile.NamedTemporaryFile(mode="w+", dir=c.dir,
                                               prefix="salloc-err-")
        self.p = subprocess.Popen(
            [c.bin("salloc")] + args + ["/bin/sh", "-c", SCRIPT % loops],
            env=c.env_for(USER, extra=env_extra), cwd=c.workdir(USER),
            text=True, user=USER, stdin=subprocess.DEVNULL,
            stdout=self.out, stderr=self.err)

    def text(self):
        return (open(self.out.name).read(), open(self.err.name).read())

    def job_id(self):
        def granted():
            for line in self.text()[1].splitlines():
                if line.startswith("salloc: Granted job allocation "):
                    return int(line.split()[-1])
            return None
        cl.wait_for(lambda: granted() and "started" in self.text()[0],
                    timeout=30, what="salloc's command started")
        return granted()

    def finish(self, timeout=60):
        try:
            return self.p.wait(timeout=timeout)
        finally:
            if self.p.poll() is None:
                self.p.kill()
                self.p.wait()
            self.out.close()
            self.err.close()


def test_scancel_revokes_and_the_command_runs_on(cluster):
    c = cluster
    s = Salloc(c, ["-N1"], loops=6)
    try:
        jid = s.job_id()
        r = c.run(["scancel", str(jid)], user=USER)
        assert r.rc == 0, r
        cl.wait_for(lambda: "salloc: Job allocation %d has been revoked.\n"
                    % jid in s.text()[1], timeout=20, what="revoked")
        assert s.p.poll() is None, s.text()     # no -K: it runs on
        rc = s.p.wait(timeout=30)
        out, err = s.text()
    finally:
        s.finish()
    assert rc == 0 and "finished" in out, (rc, out, err)
    assert "Relinquishing" not in err, err
    assert c.wait_done(jid) == "CANCELLED"
    # the controller did not log a failed delivery for it
    assert "salloc not told" not in open(c.ctld_log).read()


def test_kill_command_signals_the_command(cluster):
    c = cluster
    for args, env, got, code in (
            (["-N1", "-K"], None, "got TERM", 3),   # not a terminal: TERM
            (["-N1", "--kill-command=USR1"], None, "got USR1", 4),
            (["-N1"], {"SALLOC_KILL_CMD": "SIGUSR1"}, "got USR1", 4)):
        s = Salloc(c, args, env_extra=env)
        try:
            jid = s.job_id()
            r = c.run(["scancel", str(jid)], user=USER)
            assert r.rc == 0, r
            rc = s.p.wait(timeout=30)
            out, err = s.text()
        finally:
            s.finish()
        assert rc == code and got in out, (args, rc, out, err)
        assert ("salloc: Job allocation %d has been revoked.\n" % jid) in err
        assert "Relinquishing" not in err, err


def test_own_end_is_not_a_revocation(cluster):
    """The command ends first: salloc relinquishes, nothing is revoked."""
    c = cluster
    s = Salloc(c, ["-N1", "-K"], loops=1)
    try:
        jid = s.job_id()
        rc = s.p.wait(timeout=30)
        out, err = s.text()
    finally:
        s.finish()
    assert rc == 0 and "finished" in out, (rc, out, err)
    assert "salloc: Relinquishing job allocation %d\n" % jid in err, err
    assert "revoked" not in err, err
    assert c.wait_done(jid) == "COMPLETED"


def test_bad_kill_command_is_refused(cluster):
    c = cluster
    before = c.run(["squeue", "-h", "-o", "%i"]).out
    for args in (["-KBOGUS"], ["--kill-command=0"], ["--kill-command=99"]):
        r = c.run(["salloc", "-N1"] + args + ["true"], user=USER)
        assert r.rc == 255, r           # an option error, as Slurm's
        assert "salloc: error: Invalid --kill-command specification" in \
            r.err, r
    assert c.run(["squeue", "-h", "-o", "%i"]).out == before


def test_bell_options_are_taken(cluster):
    """--bell rings only on a terminal: here stdout is a pipe."""
    c = cluster
    for opt in ("--bell", "--no-bell"):
        r = c.run(["salloc", "-N1", opt, "true"], user=USER)
        assert r.rc == 0 and "\a" not in r.out, r
        assert "Granted job allocation" in r.err, r


def test_time_limit_revokes(cluster):
    """-t 1: the limit ends it (limits are checked periodically: allow a
    minute and a half); salloc says why and -K stops the command."""
    c = cluster
    s = Salloc(c, ["-N1", "-t", "1", "-K"])
    try:
        jid = s.job_id()
        rc = s.p.wait(timeout=150)
        out, err = s.text()
    finally:
        s.finish()
    assert ("salloc: Job %d has exceeded its time limit and its allocation "
            "has been revoked.\n" % jid) in err, err
    assert rc == 3 and "got TERM" in out, (rc, out, err)
    assert c.wait_done(jid) == "TIMEOUT"
