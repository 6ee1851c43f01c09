"""scontrol's questions about this host and its daemons, as Slurm's
(checked against Slurm 22.05): show daemons ("slurmctld slurmd"), show
aliases (the NodeNames whose NodeHostname is this host), show slurmd (the
slurmd's own report: "Active Steps = 2, 2.0, 1", "Slurmd PID = ..."),
wait_job ("Nodes are ready for job N", "Job N no longer running")."""

import re
import socket
import time

U1 = "sluice_u1"
ME = socket.gethostname().split(".")[0]


def test_show_daemons_and_aliases(new_cluster):
    c = new_cluster(nodes=3,
                    node_extra={"n1": " NodeHostname=%s" % ME,
                                "n2": " NodeHostname=%s" % ME})
    r = c.run(["scontrol", "show", "daemons"], user=U1)
    assert r.rc == 0 and r.out == "slurmctld slurmd\n", r
    r = c.run(["scontrol", "show", "aliases"], user=U1)
    assert r.rc == 0 and r.out == "n1 n2\n", r
    r = c.run(["scontrol", "show", "aliases", "n3"], user=U1)
    assert r.rc == 0 and r.out == "n3\n", r        # NodeHostname = name
    r = c.run(["scontrol", "show", "aliases", "nothere"], user=U1)
    assert r.rc == 0 and r.out == "", r
    r = c.run(["scontrol", "show", "daemons", "x"], user=U1)
    assert r.rc == 1 and r.err == "too many arguments for keyword:show\n", r


def test_show_daemons_controller_only(cluster):
    # the test cluster's nodes are n1.. on 127.0.0.1: none is this host
    r = cluster.run(["scontrol", "show", "daemons"])
    assert r.rc == 0 and r.out == "slurmctld\n", r


def fields(out):
    d = {}
    for line in out.splitlines():
        k, _, v = line.partition(" = ")
        d[k.strip()] = v
    return d


def test_show_slurmd(cluster):
    c = cluster
    j1 = c.sbatch(["-w", "n1", "-o", "/dev/null", "--wrap", "sleep 60"],
                  user=U1)
    j2 = c.sbatch(["-w", "n1", "-o", "/dev/null", "--wrap",
                   "%s sleep 60" % c.bin("srun")], user=U1)
    try:
        c.wait_state(j1, ["RUNNING"])
        c.wait_state(j2, ["RUNNING"])
        deadline = time.time() + 30
        while True:
            r = c.run(["scontrol", "show", "slurmd", "n1"], user=U1)
            assert r.rc == 0, r
            f = fields(r.out)
            steps = sorted(f["Active Steps"].split(", "))
            if steps == sorted([str(j1), str(j2), "%d.0" % j2]) or \
                    time.time() > deadline:
                break
            time.sleep(0.5)
        assert steps == sorted([str(j1), str(j2), "%d.0" % j2]), r.out
        keys = [line.split("=")[0].strip() for line in r.out.splitlines()]
        assert keys == ["Active Steps", "Actual CPUs", "Actual Boards",
                        "Actual sockets", "Actual cores",
                        "Actual threads per core", "Actual real memory",
                        "Actual temp disk space", "Boot time", "Hostname",
                        "Last slurmctld msg time", "Slurmd PID",
                        "Slurmd Debug", "Slurmd Logfile", "Version"], r.out
        assert f["Hostname"] == "n1", r.out
        assert int(f["Slurmd PID"]) == c.slurmds["n1"].pid, r.out
        assert re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$",
                        f["Last slurmctld msg time"]), r.out
        assert re.match(r"^\d+ MB$", f["Actual real memory"]), r.out
        # a node with nothing running
        r = c.run(["scontrol", "show", "slurmd", "n3"], user=U1)
        assert r.rc == 0 and fields(r.out)["Active Steps"] == "NONE", r
        assert fields(r.out)["Hostname"] == "n3", r
        r = c.run(["scontrol", "show", "slurmd", "nosuch"], user=U1)
        assert r.rc == 1 and r.err == "Node nosuch not found\n", r
    finally:
        c.run(["scancel", str(j1), str(j2)])


def test_wait_job(cluster):
    c = cluster
    j = c.sbatch(["-o", "/dev/null", "--wrap", "sleep 30"], user=U1)
    h = c.sbatch(["-H", "-o", "/dev/null", "--wrap", "true"], user=U1)
    try:
        c.wait_state(j, ["RUNNING"])
        r = c.run(["scontrol", "wait_job", str(j)], user=U1)
        assert r.rc == 0 and r.err == \
            "scontrol: Nodes are ready for job %d\n" % j, r
        r = c.run(["scontrol", "-Q", "wait_job", str(j)], user=U1)
        assert r.rc == 0 and r.err == "", r
        r = c.run(["scontrol", "wait_job", str(h)], user=U1)
        assert r.rc == 1 and r.err == \
            "scontrol: Job %d no longer running\n" % h, r
        r = c.run(["scontrol", "wait_job", "abc"], user=U1)
        assert r.rc == 1 and r.err == "Invalid job_id abc\n", r
        r = c.run(["scontrol", "wait_job"], user=U1)
        assert r.rc == 1 and r.err == \
            "too few arguments for keyword:wait_job\n", r
    finally:
        c.run(["scancel", str(j), str(h)])
