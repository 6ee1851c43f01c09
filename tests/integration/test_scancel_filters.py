"""scancel's filters and signals, as a user would use them.

- --state, --nodelist and --partition select among the user's jobs;
  another user's jobs are never touched.
- --signal=NAME alone goes to the job's steps, not the batch shell;
  --batch sends it to the batch shell only, --full to every process.
"""

import os
import time

U1 = "sluice_u1"
U2 = "sluice_u2"
TRAP = ("trap 'echo got USR1 >> %s' USR1; "
        "while :; do /usr/bin/sleep 0.2; done")


def sb(c, cmd, *args, user=U1):
    return c.sbatch(list(args) + ["--wrap", cmd], user=user)


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def wait_for(pred, timeout=30, what="condition"):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if pred():
            return True
        time.sleep(0.2)
    raise AssertionError("timed out waiting for %s" % what)


def settle(c, ids):
    for j in ids:
        c.wait_done(j, 30)


def test_state_filter(cluster):
    c = cluster
    run = sb(c, "sleep 60", "-J", "st_run")
    pend = sb(c, "true", "-J", "st_pend", "--hold")
    other = sb(c, "sleep 60", "-J", "st_other", user=U2)
    c.wait_state(run, "RUNNING", 30)
    c.wait_state(other, "RUNNING", 30)
    r = c.run(["scancel", "--state=RUNNING", "-u", U1], user=U1)
    assert (r.rc, r.err) == (0, ""), r
    settle(c, [run])
    assert c.job_state(run) == "CANCELLED"
    assert c.job_state(pend) == "PENDING"
    assert c.job_state(other) == "RUNNING"
    r = c.run(["scancel", "-t", "PD", "--name=st_pend", "-u", U1], user=U1)
    assert r.rc == 0, r
    assert c.job_state(pend) == "CANCELLED"
    c.run(["scancel", str(other)], user=U2)


def test_nodelist_and_partition_filter(cluster):
    c = cluster
    on2 = sb(c, "sleep 60", "-J", "nl2", "-w", "n2")
    on3 = sb(c, "sleep 60", "-J", "nl3", "-w", "n3")
    c.wait_state(on2, "RUNNING", 30)
    c.wait_state(on3, "RUNNING", 30)
    r = c.run(["scancel", "--nodelist=n2", "-u", U1], user=U1)
    assert r.rc == 0, r
    settle(c, [on2])
    assert c.job_state(on2) == "CANCELLED"
    assert c.job_state(on3) == "RUNNING"
    r = c.run(["scancel", "--partition=nosuch", "-u", U1], user=U1)
    assert r.rc == 0, r
    assert c.job_state(on3) == "RUNNING"
    r = c.run(["scancel", "-p", "debug", "--name=nl3", "-u", U1], user=U1)
    assert r.rc == 0, r
    settle(c, [on3])
    assert c.job_state(on3) == "CANCELLED"


def test_signal_batch_and_full(cluster):
    c = cluster
    d = c.workdir(U1)
    plain, batch, full = (os.path.join(d, "sig-%s" % n)
                          for n in ("plain", "batch", "full"))
    jp = sb(c, TRAP % plain, "-J", "sigp")
    jb = sb(c, TRAP % batch, "-J", "sigb")
    jf = sb(c, TRAP % full, "-J", "sigf")
    for j in (jp, jb, jf):
        c.wait_state(j, "RUNNING", 30)
    time.sleep(1)
    assert c.run(["scancel", "--signal=USR1", str(jp)], user=U1).rc == 0
    assert c.run(["scancel", "--batch", "--signal=SIGUSR1", str(jb)], user=U1).rc == 0
    assert c.run(["scancel", str(jf), "--full", "-s", "USR1"], user=U1).rc == 0
    wait_for(lambda: "got USR1" in read(batch), 15, "--batch USR1")
    wait_for(lambda: "got USR1" in read(full), 15, "--full USR1")
    time.sleep(2)
    # without --batch/--full only job steps get it: the shell does not
    assert read(plain) == ""
    for j in (jp, jb, jf):
        assert c.job_state(j) == "RUNNING"
    r = c.run(["scancel", "--batch", "--signal=USR1", str(jb)], user=U2)
    assert r.rc != 0, r
    r = c.run(["scancel", "--signal=NOPE", str(jb)], user=U1)
    assert (r.rc, r.err) == (1, "scancel: error: Unknown job signal: NOPE\n"), r
    c.run(["scancel", str(jp), str(jb), str(jf)], user=U1)
