"""sacctmgr show event: the node events slurmdbd keeps (a node drained,
down or failed, with its reason and who set it), in the layout of
Slurm's (checked against Slurm 22.05: "   Cluster NodeName ...
TimeStart TimeEnd  State Reason User", an open event's TimeEnd
"Unknown", the user as "root(0)"), with its conditions: Nodes=,
Reason=, User=, Start=/End= (default: from 00:00 of the previous day),
All_Time, Event=node|cluster."""

import time

import pytest

import mariadb

pytestmark = pytest.mark.skipif(bool(mariadb.missing_tools()),
                                reason="MariaDB server not installed")

HEADER = ("   Cluster NodeName                  TimeStart             "
          "TimeEnd  State                         Reason       User \n"
          "---------- --------------- ------------------- "
          "------------------- ------ ------------------------------ "
          "---------- \n")


@pytest.fixture(scope="module")
def env(users):
    e = mariadb.AcctEnv(tag="event", nodes=2)
    try:
        e.start()
        e.start_cluster()
    except BaseException:
        e.stop()
        raise
    yield e
    e.stop()


def events(e, *args):
    return e.sacctmgr("-P", "-n", "show", "event", *args,
                      "format=nodename,state,reason,user,timeend")


CLUSTER_EVENT = "||Cluster Registered TRES||Unknown"


def test_node_events(env):
    e, c = env, env.c
    r = c.run(["scontrol", "update", "nodename=n1", "state=drain",
               "reason=disk bad"])
    assert r.rc == 0, r
    r = c.run(["scontrol", "update", "nodename=n2", "state=drain",
               "reason=fan"])
    assert r.rc == 0, r
    time.sleep(1)
    assert c.run(["scontrol", "update", "nodename=n1",
                  "state=resume"]).rc == 0
    deadline = time.time() + 30
    while time.time() < deadline:
        rows = events(e, "event=node").out.splitlines()
        if len(rows) == 2 and not rows[0].endswith("Unknown"):
            break
        time.sleep(0.3)
    assert len(rows) == 2, rows
    n1, n2 = rows
    assert n1.startswith("n1|DRAIN|disk bad|root(0)|20"), rows
    assert n2 == "n2|DRAIN|fan|root(0)|Unknown", rows

    assert events(e).out.splitlines() == [CLUSTER_EVENT] + rows
    r = e.sacctmgr("show", "event")
    assert r.rc == 0 and r.out.startswith(HEADER), r
    lines = r.out.splitlines()[2:]
    assert lines[0].startswith("    sluice                 20"), r.out
    assert lines[0].endswith(
        "Unknown               Cluster Registered TRES            "), r.out
    lines = lines[1:]
    assert lines[1].startswith("    sluice n2              20"), r.out
    assert lines[1].endswith(
        "Unknown  DRAIN                            fan    root(0) "), r.out

    assert events(e, "nodes=n2").out == \
        "n2|DRAIN|fan|root(0)|Unknown\n"
    assert events(e, "reason=fan").out == \
        "n2|DRAIN|fan|root(0)|Unknown\n"
    assert len(events(e, "users=root").out.splitlines()) == 2   # not the
    # cluster's (no user set it)
    assert events(e, "users=sluice_u1").out == ""
    assert len(events(e, "all_time").out.splitlines()) == 3
    assert events(e, "end=2020-01-01").out == ""
    assert events(e, "event=cluster").out == CLUSTER_EVENT + "\n"
    assert len(events(e, "event=node").out.splitlines()) == 2
    r = e.sacctmgr("show", "event", "event=bogus")
    assert r.rc == 1 and "Unknown event type: bogus" in r.err, r
    r = e.sacctmgr("show", "event", "states=drain")
    assert r.rc == 1 and "States= is not supported" in r.err, r
    r = e.sacctmgr("show", "event", "bogus=1")
    assert r.rc == 1, r
    r = e.sacctmgr("-n", "show", "event", "format=nodename,duration",
                   "nodes=n2")
    assert r.rc == 0 and r.out.startswith("n2              "), r
    assert r.out.rstrip().endswith("00:00:0%s" % r.out.rstrip()[-1]) or \
        ":" in r.out, r
    c.run(["scontrol", "update", "nodename=n2", "state=resume"])
