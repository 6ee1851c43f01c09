"""sinfo -t: Slurm's state names, drained versus draining, and '&'.

Slurm tells a drained node (nothing left running) from a draining one
(still running jobs), and a -t list joined by '&' asks for nodes in every
state named rather than any.
"""

import pytest

USER = "sluice_u1"


def nodes(c, *args):
    r = c.run(["sinfo", "-h", "-N", "-o", "%N %t"] + list(args))
    assert r.rc == 0, r
    return sorted(r.out.split("\n")[:-1])


@pytest.fixture(scope="module")
def drained(cluster):
    """n1 runs a job and is drained (draining); n2 is drained and idle."""
    c = cluster
    jid = c.sbatch(["-w", "n1", "--wrap", "/usr/bin/sleep 600"], user=USER)
    c.wait_state(jid, "RUNNING", 30)
    for n in ("n1", "n2"):
        r = c.run(["scontrol", "update", "nodename=" + n, "state=drain",
                   "reason=states"])
        assert r.rc == 0, r
    yield c
    c.run(["scancel", str(jid)])
    for n in ("n1", "n2"):
        c.run(["scontrol", "update", "nodename=" + n, "state=resume"])


def test_drained_is_not_draining(drained):
    c = drained
    assert nodes(c, "-t", "drained") == ["n2 drain"]
    assert nodes(c, "-t", "draining") == ["n1 drng"]
    assert nodes(c, "-t", "drain") == ["n1 drng", "n2 drain"]


def test_and_of_states(drained):
    c = drained
    # any of: idle nodes and draining ones
    assert nodes(c, "-t", "idle,draining") == ["n1 drng", "n2 drain",
                                               "n3 idle", "n4 idle"]
    # all of: idle and drained is n2 only; mixed (one CPU of two) and drain n1
    assert nodes(c, "-t", "idle&drain") == ["n2 drain"]
    assert nodes(c, "-t", "mixed&drain") == ["n1 drng"]
    assert nodes(c, "-t", "idle&draining") == []


def test_bad_state_string(cluster):
    r = cluster.run(["sinfo", "-t", "bogus"])
    assert r.rc == 1 and r.out == "", r
    lines = r.err.splitlines()
    assert lines[0] == 'sinfo: error: Bad state string: "bogus"', r
    assert lines[1].startswith("sinfo: error: valid states: unknown,down,idle,"), r
    assert len(lines) == 2, r
