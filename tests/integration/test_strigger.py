"""strigger: event triggers kept by the controller.

A node-down trigger runs its program once, as its owner, with the node
list; a job fini trigger runs with the job id; a trigger without PERM is
gone after it fired, a PERM one stays; --get prints Slurm's columns and
--clear removes; users set only job triggers on their own jobs and clear
only their own; triggers survive a controller killed with SIGKILL; bad
options give Slurm's messages and exit codes and set nothing.
"""

import os
import pwd
import re
import shutil
import signal
import tempfile
import time

import pytest

U1 = "sluice_u1"
U2 = "sluice_u2"
HEADER = ("TRIG_ID RES_TYPE   RES_ID TYPE                                "
          "OFFSET USER     FLAGS PROGRAM")


@pytest.fixture(scope="module")
def tdir():
    d = tempfile.mkdtemp(prefix="sluice-trig-")
    os.chmod(d, 0o1777)
    yield d
    shutil.rmtree(d, ignore_errors=True)


def make_prog(d, name, owner=None):
    """A program that appends "uid gid args" to d/<name>.log."""
    path = os.path.join(d, name)
    log = path + ".log"
    with open(path, "w") as f:
        f.write('#!/bin/sh\necho "$(id -u) $(id -g) $*" >> %s\n' % log)
    os.chmod(path, 0o755)
    if owner:
        pw = pwd.getpwnam(owner)
        os.chown(path, pw.pw_uid, pw.pw_gid)
    return path, log


def lines_of(log):
    if not os.path.exists(log):
        return []
    with open(log) as f:
        return f.read().splitlines()


def wait_lines(log, n, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if len(lines_of(log)) >= n:
            time.sleep(0.5)
            return lines_of(log)
        time.sleep(0.2)
    return lines_of(log)


def st(c, *args, user=None):
    return c.run(["strigger"] + list(args), user=user)


def get_rows(c, *args, user=None):
    r = st(c, "--get", "-N", *args, user=user)
    assert r.rc == 0, r
    return [l.split() for l in r.out.splitlines()]


def clear_all(c):
    for row in get_rows(c):
        st(c, "--clear", "--id=%s" % row[0])


def test_bad_options(cluster, tdir):
    c = cluster
    prog, _ = make_prog(tdir, "bad")
    cases = [
        ([], "strigger: error: You must use exactly one of the following "
             "options: --set, --get or --clear"),
        (["--get", "--clear"], "strigger: error: You must use exactly one of "
                               "the following options: --set, --get or --clear"),
        (["--clear"], "strigger: error: You must specify a --id, --jobid, or "
                      "--user to clear"),
        (["--set", "--down"], "strigger: error: You must specify a --program "
                              "value"),
        (["--set", "--down", "--program=rel/prog"],
         'strigger: error: The --program value must start with "/"'),
        (["--set", "--down", "--program=/nonexistent/prog"],
         "strigger: error: Invalid --program value, file not found"),
        (["--set", "--time", "--program=" + prog],
         "strigger: error: You must specify a --jobid value"),
        (["--set", "--down", "--offset=99999", "--program=" + prog],
         "strigger: error: The --offset parameter must be between +/-32000"),
        (["--set", "--down", "--flags=FOO", "--program=" + prog],
         "strigger: error: Invalid flags FOO"),
        (["--get", "--user=nosuchuser_x"],
         "strigger: error: Invalid user nosuchuser_x"),
        (["--set", "--fini", "-j", "abc", "--program=" + prog],
         "strigger: error: Invalid jobid abc"),
    ]
    for args, msg in cases:
        r = st(c, *args)
        assert r.rc == 1, (args, r)
        assert r.err.splitlines()[0] == msg, (args, r)
        assert r.out == ""
    r = st(c, "--set")
    assert r.rc == 1 and r.err.startswith(
        "strigger: error: You must specify a trigger (--down, --up, "), r
    # -n takes its argument glued on: a separate word is not dropped
    # silently (Slurm would set a trigger for every node)
    r = st(c, "--set", "--down", "-n", "n1", "--program=" + prog)
    assert (r.rc, r.err) == (1, "strigger: error: Unknown argument: n1\n"), r
    r = st(c, "--get", "--bogus")
    assert r.rc == 1 and "unrecognized option '--bogus'" in r.err, r
    # refused by the controller
    r = st(c, "--set", "--fini", "-j", "999999", "--program=" + prog)
    assert (r.rc, r.err) == (1, "slurm_set_trigger: Invalid job id specified\n")
    r = st(c, "--set", "-nbogus", "--down", "--program=" + prog)
    assert (r.rc, r.err) == (1, "slurm_set_trigger: Invalid node name "
                                "specified\n")
    r = st(c, "--set", "--down", "--program=/etc/passwd")   # not executable
    assert (r.rc, r.err) == (1, "slurm_set_trigger: Access/permission denied\n")
    r = st(c, "--clear", "--id=4242")
    assert (r.rc, r.err) == (1, "slurm_clear_trigger: No such process\n")
    r = st(c, "--clear", "--id=4242", "-Q")
    assert (r.rc, r.err) == (0, "")
    r = st(c, "--get", "-M", "elsewhere")
    assert r.rc == 1 and r.err.splitlines()[0] == (
        "strigger: error: No cluster 'elsewhere' known by database."), r
    assert st(c, "--get", "-M", c.name).rc == 0
    # nothing was set: --get prints nothing at all
    r = st(c, "--get")
    assert (r.rc, r.out) == (0, ""), r


def test_get_columns_dup_and_clear(cluster, tdir):
    c = cluster
    prog, _ = make_prog(tdir, "cols")
    assert st(c, "--set", "--node", "--down", "--program=" + prog).rc == 0
    assert st(c, "--set", "--node", "--down", "--flags=PERM",
              "--program=" + prog).rc == 0
    assert st(c, "--set", "-nn1", "--drained", "--offset=-30",
              "--program=%s arg1" % prog).rc == 0
    assert st(c, "--set", "--reconfig", "--program=" + prog).rc == 0
    r = st(c, "--set", "--node", "--down", "--program=" + prog)
    assert (r.rc, r.err) == (1, "slurm_set_trigger: Duplicate event trigger\n")
    r = st(c, "--get")
    assert r.rc == 0, r
    out = r.out.splitlines()
    assert out[0] == HEADER
    ids = [int(l.split()[0]) for l in out[1:]]
    assert len(ids) == 4
    assert out[1] == "%7d node            * down                                " \
                     "     0 root           %s" % (ids[0], prog)
    assert out[2] == "%7d node            * down                                " \
                     "     0 root     PERM  %s" % (ids[1], prog)
    assert out[3] == "%7d node           n1 drained                             " \
                     "   -30 root           %s arg1" % (ids[2], prog)
    assert out[4].split()[1:4] == ["node", "*", "reconfig"]
    # -N drops the header; --id picks one
    assert [r[0] for r in get_rows(c, "--id=%d" % ids[2])] == [str(ids[2])]
    r = st(c, "--clear", "--id=%d" % ids[0])
    assert (r.rc, r.out, r.err) == (0, "", "")
    assert [int(r[0]) for r in get_rows(c)] == ids[1:]
    r = st(c, "--clear", "--user=root")
    assert r.rc == 0, r
    assert get_rows(c) == []


def test_user_rules(cluster, tdir):
    c = cluster
    clear_all(c)
    p1, _ = make_prog(tdir, "u1prog", owner=U1)
    p2, _ = make_prog(tdir, "u2prog", owner=U2)
    j1 = c.sbatch(["--hold", "--wrap", "true"], user=U1)
    j2 = c.sbatch(["--hold", "--wrap", "true"], user=U2)
    denied = (1, "slurm_set_trigger: Access/permission denied\n")
    # node and daemon triggers: SlurmUser and root only
    for args in (["--node", "--down"], ["--reconfig"],
                 ["--primary_slurmctld_failure"], ["-g"]):
        r = st(c, "--set", "--program=" + p1, *args, user=U1)
        assert (r.rc, r.err) == denied, (args, r)
    # a job trigger on another user's job
    r = st(c, "--set", "-j", str(j2), "--fini", "--program=" + p1, user=U1)
    assert (r.rc, r.err) == denied, r
    # a program owned by another user
    r = st(c, "--set", "-j", str(j1), "--fini", "--program=" + p2, user=U1)
    assert (r.rc, r.err) == denied, r
    assert get_rows(c) == []
    # their own job and program: fine
    r = st(c, "--set", "-j", str(j1), "--fini", "--program=" + p1, user=U1)
    assert (r.rc, r.err) == (0, ""), r
    r = st(c, "--set", "-j", str(j2), "--time", "--offset=-60",
           "--program=" + p2, user=U2)
    assert (r.rc, r.err) == (0, ""), r
    rows = get_rows(c, user=U2)     # everyone sees every trigger, as Slurm
    assert [(r[1], r[2], r[3], r[5]) for r in rows] == [
        ("job", str(j1), "fini", U1), ("job", str(j2), "time", U2)]
    assert [r[2] for r in get_rows(c, "-j", str(j2))] == [str(j2)]
    assert [r[5] for r in get_rows(c, "--user=" + U1)] == [U1]
    # U2 cannot clear U1's trigger; U1 can; root can clear any
    r = st(c, "--clear", "--user=" + U1, user=U2)
    assert (r.rc, r.err) == (1, "slurm_clear_trigger: No such process\n")
    r = st(c, "--clear", "-j", str(j1), user=U1)
    assert r.rc == 0, r
    r = st(c, "--clear", "--user=" + U2)
    assert r.rc == 0, r
    assert get_rows(c) == []
    c.run(["scancel", str(j1), str(j2)])


def test_node_down_and_job_fini_fire(cluster, tdir):
    c = cluster
    clear_all(c)
    down, down_log = make_prog(tdir, "down")
    perm, perm_log = make_prog(tdir, "perm")
    fini, fini_log = make_prog(tdir, "fini", owner=U1)
    assert st(c, "--set", "--node", "--down", "--program=" + down).rc == 0
    assert st(c, "--set", "-nn3,n4", "--down", "--flags=PERM",
              "--program=" + perm).rc == 0
    jid = c.sbatch(["-w", "n1", "--wrap", "sleep 3"], user=U1)
    r = st(c, "--set", "-j", str(jid), "--fini", "--program=%s x" % fini,
           user=U1)
    assert r.rc == 0, r

    # job fini: the program runs as the job's user with the job id
    c.wait_done(jid, 30)
    u1 = pwd.getpwnam(U1)
    got = wait_lines(fini_log, 1)
    assert got == ["%d %d x %d" % (u1.pw_uid, u1.pw_gid, jid)], got

    # two nodes down together: one run with both names
    r = c.run(["scontrol", "update", "nodename=n3,n4", "state=down",
               "reason=trigger test"])
    assert r.rc == 0, r
    try:
        got = wait_lines(down_log, 1)
        assert got == ["0 0 n[3-4]"], got
        assert wait_lines(perm_log, 1) == ["0 0 n[3-4]"]
        # the one-shot triggers are gone, the PERM one stays
        rows = get_rows(c)
        assert [(r[3], r[6]) for r in rows] == [("down", "PERM")], rows
    finally:
        c.run(["scontrol", "update", "nodename=n3,n4", "state=resume"])
    c.wait_ready(timeout=30)
    # the PERM one fires again on the next event; the other ran once only
    r = c.run(["scontrol", "update", "nodename=n4", "state=down",
               "reason=again"])
    assert r.rc == 0, r
    try:
        assert wait_lines(perm_log, 2)[1] == "0 0 n4"
        time.sleep(2)
        assert len(lines_of(down_log)) == 1
    finally:
        c.run(["scontrol", "update", "nodename=n4", "state=resume"])
    c.wait_ready(timeout=30)
    clear_all(c)


def test_up_offset_and_reconfig(cluster, tdir):
    c = cluster
    clear_all(c)
    up, up_log = make_prog(tdir, "up")
    rec, rec_log = make_prog(tdir, "rec")
    assert st(c, "--set", "--node=n2", "--up", "--offset=3",
              "--program=" + up).rc == 0
    assert st(c, "--set", "--reconfig", "--program=" + rec).rc == 0
    assert c.run(["scontrol", "update", "nodename=n2", "state=down",
                  "reason=x"]).rc == 0
    time.sleep(2)
    assert lines_of(up_log) == []           # down is not up
    t0 = time.time()
    assert c.run(["scontrol", "update", "nodename=n2",
                  "state=resume"]).rc == 0
    got = wait_lines(up_log, 1)
    assert got == ["0 0 n2"], got
    assert time.time() - t0 >= 3            # --offset=3
    assert c.run(["scontrol", "reconfigure"]).rc == 0
    assert wait_lines(rec_log, 1) == ["0 0 "]     # no argument
    assert get_rows(c) == []
    c.wait_ready(timeout=30)


def test_triggers_survive_sigkill(new_cluster, tdir):
    c = new_cluster(nodes=2)
    prog, log = make_prog(tdir, "restart")
    assert st(c, "--set", "--node", "--down", "--flags=PERM",
              "--program=" + prog).rc == 0
    assert st(c, "--set", "-nn1", "--drained", "--offset=5",
              "--program=" + prog).rc == 0
    before = st(c, "--get").out
    assert len(before.splitlines()) == 3
    c.kill_ctld(signal.SIGKILL)
    c.start_ctld()
    c.wait_ready(timeout=60)
    assert st(c, "--get").out == before
    # a new trigger gets the next id, and the recovered one fires
    assert st(c, "--set", "--reconfig", "--program=" + prog).rc == 0
    ids = [int(r[0]) for r in get_rows(c)]
    assert ids == sorted(ids) and len(set(ids)) == 3
    assert c.run(["scontrol", "update", "nodename=n2", "state=down",
                  "reason=x"]).rc == 0
    assert wait_lines(log, 1) == ["0 0 n2"]
    # and a clear is journaled too
    assert st(c, "--clear", "--id=%d" % ids[-1]).rc == 0
    c.kill_ctld(signal.SIGKILL)
    c.start_ctld()
    c.wait_ready(timeout=60, nodes=["n1"])
    assert [int(r[0]) for r in get_rows(c)] == ids[:2]


def test_time_idle_drained_job_down(cluster, tdir):
    c = cluster
    clear_all(c)
    c.wait_ready(timeout=30)
    tprog, tlog = make_prog(tdir, "tlimit", owner=U1)
    dprog, dlog = make_prog(tdir, "jobdown", owner=U1)
    iprog, ilog = make_prog(tdir, "idle")
    rprog, rlog = make_prog(tdir, "drained")
    u1 = pwd.getpwnam(U1)
    # 55 s before a 1-minute limit: 5 s after the start
    jt = c.sbatch(["-w", "n1", "-t", "1", "--wrap", "sleep 50"], user=U1)
    jd = c.sbatch(["-w", "n2", "--wrap", "sleep 50"], user=U1)
    c.wait_state(jt, "RUNNING", 30)
    c.wait_state(jd, "RUNNING", 30)
    t0 = time.time()
    assert st(c, "--set", "-j", str(jt), "--time", "--offset=-55",
              "--program=" + tprog, user=U1).rc == 0
    assert st(c, "--set", "-j", str(jd), "--down", "--program=" + dprog,
              user=U1).rc == 0
    assert st(c, "--set", "-nn4", "--idle", "--offset=2",
              "--program=" + iprog).rc == 0
    assert st(c, "--set", "-nn3", "--drained", "--program=" + rprog).rc == 0
    assert wait_lines(ilog, 1) == ["0 0 n4"]
    got = wait_lines(tlog, 1)
    assert got == ["%d %d %d" % (u1.pw_uid, u1.pw_gid, jt)], got
    assert time.time() - t0 < 20
    assert c.run(["scontrol", "update", "nodename=n3", "state=drain",
                  "reason=t"]).rc == 0
    assert wait_lines(rlog, 1) == ["0 0 n3"]
    assert c.run(["scontrol", "update", "nodename=n2", "state=down",
                  "reason=t"]).rc == 0
    try:
        got = wait_lines(dlog, 1)
        assert got == ["%d %d %d" % (u1.pw_uid, u1.pw_gid, jd)], got
    finally:
        c.run(["scontrol", "update", "nodename=n2,n3", "state=resume"])
    assert get_rows(c) == []
    c.run(["scancel", str(jt), str(jd)])
    c.wait_done(jt, 30)
    c.wait_ready(timeout=30)


def test_events_never_seen_warn_and_refused(cluster, tdir):
    c = cluster
    clear_all(c)
    prog, _ = make_prog(tdir, "never")
    r = st(c, "--set", "--primary_database_failure", "--program=" + prog)
    assert r.rc == 0, r
    assert r.err == ("strigger: warning: Sluice's controller does not see "
                     "the event primary_database_failure happen: this "
                     "trigger never fires\n"), r
    rows = get_rows(c)
    assert [(x[1], x[2], x[3]) for x in rows] == [
        ("database", "*", "primary_database_failure")]
    r = st(c, "--set", "-g", "--program=" + prog)
    assert (r.rc, r.err) == (0, ""), r
    assert get_rows(c)[-1][1:4] == ["slurmdbd", "*", "primary_slurmdbd_failure"]
    r = st(c, "--set", "--burst_buffer", "--program=" + prog)
    assert (r.rc, r.err) == (1, "strigger: error: --burst_buffer: Sluice has "
                                "no burst buffers\n"), r
    r = st(c, "--set", "--front_end", "--down", "--program=" + prog)
    assert r.rc == 1 and "front end" in r.err, r
    clear_all(c)
    assert get_rows(c) == []


def test_backup_takeover_fires(new_cluster, tdir):
    """The backup controller takes the triggers over with the state and
    runs the primary-failure and backup-in-control ones."""
    from cluster import wait_for
    c = new_cluster(tag="trig-backup", nodes=1, backup_ctld=True,
                    extra_conf="SlurmctldTimeout=3")
    c.start_backup_ctld()
    wait_for(lambda: c.run(["scontrol", "ping"]).out ==
             "Slurmctld(primary) at ctl1 is UP\n"
             "Slurmctld(backup) at ctl2 is UP\n", what="both controllers")
    fail, fail_log = make_prog(tdir, "pfail")
    ctrl, ctrl_log = make_prog(tdir, "bctrl")
    assert st(c, "--set", "--primary_slurmctld_failure",
              "--program=" + fail).rc == 0
    assert st(c, "--set", "-C", "--flags=PERM", "--program=" + ctrl).rc == 0
    c.kill_ctld(signal.SIGKILL)
    wait_for(lambda: c.run(["scontrol", "ping"]).out.endswith(
        "ctl2 is UP\n"), timeout=40, what="the backup answering")
    assert wait_lines(fail_log, 1) == ["0 0 "]
    assert wait_lines(ctrl_log, 1) == ["0 0 "]
    rows = get_rows(c)
    assert [(r[1], r[3], r[6]) for r in rows] == [
        ("slurmctld", "backup_slurmctld_assumed_control", "PERM")], rows


def test_program_sets_its_next_trigger(cluster, tdir):
    """strigger(1)'s example: the program arms the next trigger itself
    (its environment names the user and slurm.conf)."""
    c = cluster
    clear_all(c)
    c.wait_ready(timeout=30)
    path = os.path.join(tdir, "rearm")
    log = path + ".log"
    with open(path, "w") as f:
        f.write('#!/bin/sh\necho "$USER $LOGNAME $SLURM_CONF $*" >> %s\n'
                '%s --set --node --down --program=%s\n'
                % (log, c.bin("strigger"), path))
    os.chmod(path, 0o755)
    assert st(c, "--set", "--node", "--down", "--program=" + path).rc == 0
    first = get_rows(c)[0][0]
    assert c.run(["scontrol", "update", "nodename=n1", "state=down",
                  "reason=x"]).rc == 0
    try:
        assert wait_lines(log, 1) == ["root root %s n1" % c.conf]
        deadline = time.time() + 10
        while time.time() < deadline:
            rows = get_rows(c)
            if rows and rows[0][0] != first:
                break
            time.sleep(0.2)
        assert [(r[3], r[-1]) for r in rows] == [("down", path)], rows
        assert int(rows[0][0]) > int(first)
    finally:
        c.run(["scontrol", "update", "nodename=n1", "state=resume"])
    c.wait_ready(timeout=30)
    clear_all(c)
