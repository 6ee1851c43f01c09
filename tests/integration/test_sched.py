"""Scheduling: sched/backfill with real jobs, priority/multifactor factors
in sprio, pending reasons in squeue, sdiag.

The cluster has 2 nodes of 2 CPUs, backfill every second with a 1 s
resolution, multifactor priorities with known weights and a DOWN
partition.
"""

import re
import time

import pytest

import cluster as cl

U1 = "sluice_u1"
U2 = "sluice_u2"

EXTRA = """PriorityType=priority/multifactor
PriorityWeightAge=0
PriorityWeightFairshare=500
PriorityWeightJobSize=0
PriorityWeightPartition=1000
PriorityWeightQOS=0
PriorityCalcPeriod=1
SchedulerParameters=bf_interval=1,bf_resolution=1,bf_window=60,sched_min_interval=0
PartitionName=offline Nodes=n1 State=DOWN"""


@pytest.fixture(scope="module")
def sc(users):
    c = cl.Cluster(nodes=2, cpus=2, extra_conf=EXTRA, tag="sched")
    try:
        c.start()
        yield c
    finally:
        c.stop()
        if not c.failed:
            c.cleanup()


def sub(c, *args, user=U1, cmd="sleep 1"):
    return c.sbatch(list(args) + ["--wrap", cmd], user=user)


def field(c, jid, key):
    return c.show_job(jid).get(key)


def wait_field(c, jid, key, want, timeout=30):
    deadline = time.time() + timeout
    got = None
    while time.time() < deadline:
        got = field(c, jid, key)
        if (want(got) if callable(want) else got == want):
            return got
        time.sleep(0.2)
    raise AssertionError("job %s: %s=%r\n%s" % (jid, key, got, c.log_tails()))


def squeue_reason(c, jid):
    r = c.run(["squeue", "-h", "-j", str(jid), "-o", "%r"])
    assert r.rc == 0, r
    return r.out.strip()


def wait_reason(c, jid, want, timeout=30):
    deadline = time.time() + timeout
    got = None
    while time.time() < deadline:
        got = squeue_reason(c, jid)
        if got == want:
            return
        time.sleep(0.2)
    raise AssertionError("job %s: reason %r, wanted %r" % (jid, got, want))


def cancel(c, *jids):
    c.run(["scancel"] + [str(j) for j in jids])
    for j in jids:
        c.wait_done(j, timeout=30)


def test_backfill_in_front_of_large_job(sc):
    # n1 full for its 2-minute limit, one CPU of n2 for 4 minutes
    r1 = sub(sc, "-N1", "-n2", "-t", "2", cmd="sleep 300")
    sc.wait_state(r1, "RUNNING")
    r2 = sub(sc, "-N1", "-n1", "-t", "4", cmd="sleep 300")
    sc.wait_state(r2, "RUNNING")
    big = sub(sc, "-N2", "-n4", "-t", "1", cmd="sleep 1")
    longj = sub(sc, "-n1", "-t", "10", cmd="sleep 1")
    short = sub(sc, "-n1", "-t", "1", cmd="sleep 3")
    # the short job fits in front of the large one: backfill starts it
    sc.wait_state(short, {"RUNNING", "COMPLETED"})
    assert field(sc, short, "JobState") in ("RUNNING", "COMPLETED")
    # the large job has a planned start when r2 ends; the long job would
    # delay it and waits
    st = wait_field(sc, big, "StartTime", lambda v: v and v != "Unknown")
    r2_end = field(sc, r2, "EndTime")
    assert st >= r2_end, (st, r2_end)
    assert field(sc, longj, "JobState") == "PENDING"
    assert squeue_reason(sc, big) == "Resources"
    r = sc.run(["squeue", "--start", "-j", str(big)])
    assert r.rc == 0, r
    head, row = r.out.splitlines()[:2]
    assert "START_TIME" in head and "NODELIST(REASON)" in head
    assert st in row and "(Resources)" in row
    assert " n[1-2] " in row      # SCHEDNODES: where it is planned
    # the running jobs end: the large job starts before the long one
    cancel(sc, r1, r2)
    sc.wait_done(big, timeout=60)
    sc.wait_done(longj, timeout=60)
    assert field(sc, longj, "StartTime") >= field(sc, big, "StartTime")
    assert field(sc, big, "JobState") == "COMPLETED"


def test_time_min_lowers_limit_to_fit_the_hole(sc):
    """--time-min: a job whose --time would delay the large job's planned
    start runs now with its limit lowered to fit the hole (whole minutes,
    at least --time-min); a job whose --time-min does not fit waits."""
    # n1 full for 2 minutes, one CPU of n2 for 4 minutes
    r1 = sub(sc, "-N1", "-n2", "-t", "2", cmd="sleep 300")
    sc.wait_state(r1, "RUNNING")
    r2 = sub(sc, "-N1", "-n1", "-t", "4", cmd="sleep 300")
    sc.wait_state(r2, "RUNNING")
    big = sub(sc, "-N2", "-n4", "-t", "1", cmd="sleep 1")
    wait_field(sc, big, "StartTime", lambda v: v and v != "Unknown")
    toolong = sub(sc, "-n1", "-t", "30", "--time-min=10", cmd="sleep 300")
    flex = sub(sc, "-n1", "-t", "30", "--time-min=1", cmd="sleep 300")
    sc.wait_state(flex, "RUNNING")
    limit = field(sc, flex, "TimeLimit")
    # the hole before r1/r2 end: at most 4 minutes, at least --time-min
    assert limit in ("00:01:00", "00:02:00", "00:03:00"), limit
    assert field(sc, toolong, "JobState") == "PENDING"
    assert field(sc, toolong, "TimeLimit") == "00:30:00"
    assert field(sc, big, "JobState") == "PENDING"
    cancel(sc, r1, r2, big, toolong, flex)


def test_sprio_factors_match_weights(sc):
    jid = sub(sc, "--begin=now+1hour")
    r = sc.run(["sprio"])
    assert r.rc == 0, r
    lines = r.out.splitlines()
    assert lines[0].split() == ["JOBID", "PARTITION", "PRIORITY", "SITE",
                                "FAIRSHARE", "PARTITION"]
    row = [l.split() for l in lines[1:] if l.split()[0] == str(jid)][0]
    # fair-share 1.0 x 500, partition 1.0 x 1000
    assert row == [str(jid), "debug", "1500", "0", "500", "1000"]
    r = sc.run(["sprio", "-n", "-j%d" % jid])
    assert r.rc == 0, r
    assert r.out.splitlines()[1].split()[3:] == ["0", "1.0000000", "1.0000000"]
    r = sc.run(["sprio", "-w"])
    assert r.out.splitlines()[1].split() == ["Weights", "1", "500", "1000"]
    r = sc.run(["sprio", "-l", "-u", U1])
    assert r.rc == 0, r
    head = r.out.splitlines()[0].split()
    assert head[:4] == ["JOBID", "PARTITION", "USER", "PRIORITY"]
    assert "NICE" in head
    r = sc.run(["sprio", "-h", "-o", "%i %Y %F", "-j%d" % jid])
    assert r.out.split() == [str(jid), "1500", "500"]
    # a job that may run in two partitions has a row for each
    two = sub(sc, "--begin=now+1hour", "-p", "debug,offline")
    r = sc.run(["sprio", "-h", "-o", "%i %r %P", "-j%d" % two])
    assert sorted(r.out.splitlines()) == ["%d debug 1000" % two,
                                          "%d offline 1000" % two], r
    r = sc.run(["sprio", "-h", "-o", "%i %r", "-j%d" % two, "-p", "offline"])
    assert r.out.split() == [str(two), "offline"], r
    cancel(sc, two)
    # --nice lowers the priority by its value
    nice = sub(sc, "--begin=now+1hour", "--nice=100")
    r = sc.run(["sprio", "-h", "-o", "%i %Y %N", "--jobs=%d" % nice])
    assert r.out.split() == [str(nice), "1400", "100"]
    # only operators may set a negative nice
    r = sc.run(["sbatch", "--nice=-5", "--wrap", "true"], user=U1)
    assert r.rc != 0
    cancel(sc, jid, nice)


def test_pending_reasons(sc):
    # an array throttled to one running task: the rest JobArrayTaskLimit
    arr = sc.sbatch(["--array=0-2%1", "-n1", "-t", "5", "--wrap", "sleep 300"],
                    user=U1)
    want = "%d_[1-2%%1] JobArrayTaskLimit" % arr
    deadline = time.time() + 30
    while time.time() < deadline:
        r = sc.run(["squeue", "-h", "-j", str(arr), "-o", "%i %r"])
        if want in r.out.splitlines():
            break
        time.sleep(0.2)
    assert want in r.out.splitlines(), r
    fill = [sub(sc, "-n1", "-t", "5", cmd="sleep 300") for _ in range(3)]
    for j in fill:
        sc.wait_state(j, "RUNNING")
    res = sub(sc, "-n1", "-t", "5")
    prio = sub(sc, "-n1", "-t", "5")
    down = sub(sc, "-p", "offline", "-n1")
    begin = sub(sc, "--begin=now+1hour")
    held = sub(sc, "-H")
    wait_reason(sc, res, "Resources")
    wait_reason(sc, prio, "Priority")
    wait_reason(sc, down, "PartitionDown")
    wait_reason(sc, begin, "BeginTime")
    wait_reason(sc, held, "JobHeldUser")
    admin = sub(sc, "-n1")
    assert sc.run(["scontrol", "hold", str(admin)]).rc == 0
    wait_reason(sc, admin, "JobHeldAdmin")
    dep = sub(sc, "-n1", "-d", "afterok:%d" % fill[0])
    wait_reason(sc, dep, "Dependency")
    # a node named with -w that cannot be used
    r = sc.run(["scontrol", "update", "nodename=n2", "state=drain",
                "reason=test"])
    assert r.rc == 0, r
    wnode = sub(sc, "-w", "n2", "-n1")
    wait_reason(sc, wnode, "ReqNodeNotAvail, UnavailableNodes:n2")
    r = sc.run(["scontrol", "update", "nodename=n2", "state=resume"])
    assert r.rc == 0, r
    cancel(sc, *fill, res, prio, down, begin, held, wnode, admin, dep, arr)


def test_squeue_answers_during_long_backfill_pass(users):
    """A backfill pass that yields for 0.6 s after every 8 jobs (the
    budget of 1 us is spent by then: the yield does not depend on how fast
    the machine is) takes seconds over 32 pending jobs; squeue answers in the middle of it
    (sdiag says the pass is under way before and after)."""
    conf = ("SchedulerParameters=bf_interval=1,bf_continue,"
            "bf_yield_interval=1,bf_yield_sleep=600000")
    c = cl.Cluster(nodes=1, cpus=2, extra_conf=conf, tag="bfyield")
    try:
        c.start()
        run = sub(c, "-n2", "-t", "10", cmd="sleep 300")
        c.wait_state(run, "RUNNING")
        for t in range(1, 33):
            sub(c, "-n1", "-t", str(t))

        def active():
            r = c.run(["sdiag"])
            assert r.rc == 0, r
            return "middle of backfilling" in r.out

        deadline = time.time() + 30
        while not active():
            assert time.time() < deadline, "no backfill pass seen"
            time.sleep(0.05)
        t0 = time.time()
        r = c.run(["squeue", "-h", "-o", "%i %T"])
        took = time.time() - t0
        assert r.rc == 0 and len(r.out.splitlines()) == 33, r
        assert active(), "the pass ended before squeue answered"
        assert took < 1.0, took
        c.run(["scancel", "-u", U1])
    finally:
        c.stop()
        if not c.failed:
            c.cleanup()


def test_sdiag(sc):
    r = sc.run(["sdiag"], user=U1)
    assert r.rc == 0, r
    out = r.out
    for pat in (r"^Server thread count:\s+\d+$", r"^Agent queue size:\s+\d+$",
                r"^Jobs submitted: [1-9]\d*$", r"^Jobs started:\s+[1-9]\d*$",
                r"^Main schedule statistics \(microseconds\):$",
                r"^\tLast cycle:\s+\d+$", r"^\tMean cycle:\s+\d+$",
                r"^\tTotal cycles: [1-9]\d*$",
                r"^\tTotal backfilled jobs \(since last slurm start\): [1-9]\d*$",
                r"^\tDepth Mean: \d+$",
                r"^\tREQUEST_SUBMIT_BATCH_JOB\s+\( 4003\) count:[1-9]\d*\s+"
                r"ave_time:\d+\s+total_time:\d+$",
                r"^\tsluice_u1\s+\(\s*\d+\) count:[1-9]\d*\s+ave_time:\d+"):
        assert re.search(pat, out, re.M), (pat, out)
    r = sc.run(["sdiag", "-r"], user=U1)
    assert r.rc == 1
    assert "slurm_reset_statistics: Access/permission denied" in r.err
    r = sc.run(["sdiag", "-r"])
    assert r.rc == 0 and r.out == "Reset scheduling statistics\n", r
    r = sc.run(["sdiag"])
    assert re.search(r"^Jobs submitted: 0$", r.out, re.M), r.out
