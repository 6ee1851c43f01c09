"""Backup controller (two SlurmctldHost entries on one StateSaveLocation).

The primary (ctl1, 127.0.0.1) is SIGKILLed while clients keep calling
sbatch and jobs run: the backup (ctl2, 127.0.0.2) takes over within
SlurmctldTimeout + 10 s; every job id sbatch printed exists afterwards and
runs exactly once; jobs that were running finish, COMPLETED, and are
recorded by jobcomp/filetxt.  The old primary then comes back, stays in
standby (the backup holds the lease), and `scontrol takeover` gives it
control back without losing a job.

SLUICE_BACKUP_FULL=1: more clients and submissions, and three switches
(kill, takeover, kill of the backup) instead of one kill and one takeover.
"""

import os
import re
import signal
import threading
import time

import pytest

FULL = os.environ.get("SLUICE_BACKUP_FULL") == "1"
CTLD_TIMEOUT = 3
CLIENTS = 8 if FULL else 3


def _ping(c):
    r = c.run(["scontrol", "ping"], timeout=30)
    return r.out


def _wait(pred, timeout, what, c):
    end = time.time() + timeout
    while time.time() < end:
        v = pred()
        if v:
            return v
        time.sleep(0.2)
    pytest.fail("%s not seen after %ss\n%s" % (what, timeout, c.log_tails()))


def _log(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


class Load:
    """CLIENTS threads calling sbatch until stopped; acked = printed ids."""

    def __init__(self, c, script):
        self.c, self.script = c, script
        self.acked, self.failed = [], []
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._client)
                        for _ in range(CLIENTS)]

    def _client(self):
        while not self.stop.is_set():
            t0 = time.time()
            r = self.c.run(["sbatch", "--parsable"], user="sluice_u1",
                           input=self.script, timeout=60)
            with self.lock:
                if r.rc == 0 and r.out.strip().isdigit():
                    self.acked.append(int(r.out))
                else:
                    self.failed.append("%.1f-%.1f %s" % (
                        t0, time.time(), r.err.strip()[-200:]))

    def start(self):
        for t in self.threads:
            t.start()
        return self

    def count(self):
        with self.lock:
            return len(self.acked)

    def wait_count(self, n, timeout=60):
        end = time.time() + timeout
        while self.count() < n and time.time() < end:
            time.sleep(0.05)

    def finish(self):
        self.stop.set()
        for t in self.threads:
            t.join()


def _squeue_ok(c):
    return c.run(["squeue", "-h", "-o", "%i"], timeout=30).rc == 0


def _check_all_ran_once(c, acked, ran_file, timeout):
    deadline = time.time() + timeout
    pending, states = set(acked), {}
    while pending and time.time() < deadline:
        states = c.all_job_states()
        missing = [j for j in pending if str(j) not in states]
        assert not missing, "acknowledged jobs lost: %s" % sorted(missing)[:20]
        pending = {j for j in pending if states[str(j)] != "COMPLETED"}
        bad = {j: states[str(j)] for j in pending
               if states[str(j)] not in ("PENDING", "RUNNING", "COMPLETING")}
        assert not bad, "jobs that did not complete: %s" % bad
        time.sleep(0.5)
    assert not pending, "not done after %ss: %s" % (timeout, {
        j: states.get(str(j)) for j in list(pending)[:20]})
    with open(ran_file) as f:
        lines = [int(x) for x in f.read().split()]
    counts = {}
    for j in lines:
        counts[j] = counts.get(j, 0) + 1
    twice = {j: n for j, n in counts.items() if n > 1}
    assert not twice, "jobs that ran more than once: %s" % twice
    never = [j for j in acked if j not in counts]
    assert not never, "acknowledged jobs that never ran: %s" % never[:20]


def test_backup_takes_over_and_gives_back(new_cluster):
    c = new_cluster(tag="backup-ctld", nodes=2, backup_ctld=True,
                    extra_conf="SlurmctldTimeout=%d" % CTLD_TIMEOUT)
    jobcomp = os.path.join(c.dir, "log", "jobcomp.txt")
    # jobcomp/filetxt in the cluster's dir: both controllers record there
    c.extra_conf += "\nJobCompType=jobcomp/filetxt\nJobCompLoc=%s" % jobcomp
    c.write_conf()
    c.kill_ctld()
    c.start_ctld()
    c.wait_ready()
    c.start_backup_ctld()
    _wait(lambda: _ping(c) == ("Slurmctld(primary) at ctl1 is UP\n"
                               "Slurmctld(backup) at ctl2 is UP\n"),
          30, "both controllers UP", c)
    assert "standby mode" in _log(c.ctld_backup_log)

    out_dir = c.mkdir_for("sluice_u1", os.path.join(c.dir, "jobs", "ran"))
    ran = os.path.join(out_dir, "ids")
    quick = "#!/bin/sh\n#SBATCH -o /dev/null\necho $SLURM_JOB_ID >> %s\n" % ran
    slow = ("#!/bin/sh\n#SBATCH -o /dev/null\nsleep 6\n"
            "echo $SLURM_JOB_ID >> %s\n" % ran)
    running = [int(c.run(["sbatch", "--parsable"], user="sluice_u1",
                         input=slow).out) for _ in range(2)]
    for j in running:
        c.wait_state(j, "RUNNING", 30)

    # 1. the primary dies under a submit load
    load = Load(c, quick).start()
    load.wait_count(20 if not FULL else 200)
    t_kill = time.time()
    c.kill_ctld(signal.SIGKILL)
    _wait(lambda: _squeue_ok(c), CTLD_TIMEOUT + 10 + 20,
          "the backup answering", c)
    took = time.time() - t_kill
    assert took <= CTLD_TIMEOUT + 10, "backup took over after %.1f s" % took
    assert "taking over" in _log(c.ctld_backup_log)
    out = _ping(c)
    assert out == ("Slurmctld(primary) at ctl1 is DOWN\n"
                   "Slurmctld(backup) at ctl2 is UP\n"), out
    # the backup answers the other commands too, with the same config
    r = c.run(["sinfo", "-h", "-N", "-o", "%N"], timeout=30)
    assert r.rc == 0 and r.out.split() == c.node_names, r
    # (exit 1: it ends with the ping lines, and the primary is DOWN)
    r = c.run(["scontrol", "show", "config"], timeout=30)
    assert r.out.endswith("Slurmctld(primary) at ctl1 is DOWN\n"
                          "Slurmctld(backup) at ctl2 is UP\n"), r
    assert re.search(r"^SlurmctldHost\[0\]\s*=\s*ctl1\(127\.0\.0\.1\)$",
                     r.out, re.M), r.out
    assert re.search(r"^SlurmctldHost\[1\]\s*=\s*ctl2\(127\.0\.0\.2\)$",
                     r.out, re.M), r.out
    n = load.count()
    load.wait_count(n + (10 if not FULL else 100))

    # 2. the old primary returns: the lease is taken, it stands by
    c.start_ctld()
    _wait(lambda: "starting in standby mode" in _log(c.ctld_log), 30,
          "the old primary in standby", c)
    _wait(lambda: "UP\n" in _ping(c).split("\n", 1)[0] + "\n", 30,
          "primary answering pings", c)
    n = load.count()
    load.wait_count(n + 10)

    # 3. scontrol takeover gives control back to it
    off = os.path.getsize(c.ctld_log)
    t_takeover = time.time()
    r = c.run(["scontrol", "takeover"], timeout=60)
    assert r.rc == 0 and r.out == "" and r.err == "", r
    _wait(lambda: "Taking over control" in _log(c.ctld_log)[off:], 60,
          "the primary in control again", c)
    _wait(lambda: "restarting as a standby" in _log(c.ctld_backup_log), 30,
          "the backup standing by", c)
    n = load.count()
    load.wait_count(n + 10)

    if FULL:
        # 4. more switches under the load: the primary dies again (the
        # backup takes over), returns in standby, then the backup dies
        # (the primary takes over) and returns in standby
        for kill_primary in (True, False):
            victim_log = c.ctld_backup_log if kill_primary else c.ctld_log
            off = os.path.getsize(victim_log)
            t0 = time.time()
            if kill_primary:
                c.kill_ctld(signal.SIGKILL)
            else:
                c.stop_daemon(c.ctld_backup, signal.SIGKILL)
            _wait(lambda: "taking over" in _log(victim_log)[off:]
                  and _squeue_ok(c), CTLD_TIMEOUT + 30, "a takeover", c)
            assert time.time() - t0 <= CTLD_TIMEOUT + 10
            n = load.count()
            load.wait_count(n + 100)
            if kill_primary:
                c.start_ctld()
            else:
                c.start_backup_ctld()
            _wait(lambda: _ping(c).count(" is UP") == 2, 30,
                  "both controllers UP", c)
    load.finish()

    # The primary is in control: with the backup stopped, commands work.
    c.stop_daemon(c.ctld_backup)
    assert _squeue_ok(c)
    out = _ping(c)
    assert out == ("Slurmctld(primary) at ctl1 is UP\n"
                   "Slurmctld(backup) at ctl2 is DOWN\n"), out

    # scontrol shutdown stops every controller, the standby one too
    c.start_backup_ctld()
    _wait(lambda: _ping(c).count(" is UP") == 2, 30, "both controllers UP", c)
    r = c.run(["scontrol", "shutdown", "slurmctld"], timeout=60)
    assert r.rc == 0 and r.out == "" and r.err == "", r
    for d in (c.ctld, c.ctld_backup):
        d.popen.wait(timeout=30)
    c.start_ctld()
    c.wait_ready()

    acked = load.acked + running
    assert len(acked) == len(set(acked)), "a job id was acknowledged twice"
    _check_all_ran_once(c, acked, ran, 120)
    # the jobs that ran across the switch are recorded as COMPLETED
    # every job is recorded by jobcomp once, COMPLETED (a recovery does
    # not record the jobs that had ended before it again)
    lines = _log(jobcomp).splitlines()
    recs = {}
    for line in lines:
        jid = int(line.split()[0].split("=")[1])
        recs.setdefault(jid, []).append(line)
    twice = {j: len(v) for j, v in recs.items() if len(v) > 1}
    assert not twice, "jobs recorded more than once by jobcomp: %s" % twice
    for j in acked:
        assert j in recs, "JobId=%d not in jobcomp" % j
        assert "JobState=COMPLETED" in recs[j][0], recs[j][0]
    print("acked %d, refused %d, takeover after %.1f s (killed at %.1f, "
          "takeover command at %.1f)"
          % (len(acked), len(load.failed), took, t_kill, t_takeover))
    for e in load.failed[:5]:
        print("refused: %s" % e)
