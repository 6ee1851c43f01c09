"""AcctGatherEnergyType=acct_gather_energy/rapl: a step's ConsumedEnergy is
the node's energy between its start and its end, read from the powercap
RAPL counters, and reaches sacct (through the controller and slurmdbd)
and sstat.

This machine has no powercap, so the test gives slurmd a FAKE sysfs tree
(SLUICE_POWERCAP_DIR, a testing aid read by slurmd/slurmstepd) with two
packages and a subzone, and advances their energy_uj itself, across a
wrap-around at max_energy_range_uj; the real reading code runs on it.
"""

import json
import os
import re
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mariadb  # noqa: E402

pytestmark = pytest.mark.skipif(bool(mariadb.missing_tools()),
                                reason="MariaDB server not installed: %s"
                                % ", ".join(mariadb.missing_tools()))

U = "sluice_u1"
# max_energy_range_uj: package 0 wraps at 1000 J (to test the
# wrap-around), the others at a real machine's 262143 J
RANGE = {"intel-rapl:0": 1000 * 10**6}
RANGE_DEFAULT = 262143328850


class FakePowercap:
    """<dir>/intel-rapl:0, intel-rapl:1 (packages) and intel-rapl:0:0 (a
    subzone, which must not be added to its package)."""

    def __init__(self, root):
        self.root = root
        self.uj = {"intel-rapl:0": 900 * 10**6, "intel-rapl:1": 5 * 10**6,
                   "intel-rapl:0:0": 0}
        for z, v in self.uj.items():
            os.makedirs(os.path.join(root, z))
            self._write(z, "max_energy_range_uj",
                        RANGE.get(z, RANGE_DEFAULT))
            self._write(z, "energy_uj", v)
            self._write(z, "name", "package-" + z[-1])

    def _write(self, zone, name, value):
        p = os.path.join(self.root, zone, name)
        with open(p + ".tmp", "w") as f:
            f.write("%s\n" % value)
        os.replace(p + ".tmp", p)

    def add(self, zone, joules):
        """Advance a zone's counter, wrapping as the hardware does."""
        self.uj[zone] = ((self.uj[zone] + joules * 10**6) %
                         RANGE.get(zone, RANGE_DEFAULT))
        self._write(zone, "energy_uj", self.uj[zone])


@pytest.fixture(scope="module")
def env(users):
    e = mariadb.AcctEnv(tag="energy", nodes=1)
    e.c.extra_conf += ("\nAcctGatherEnergyType=acct_gather_energy/rapl\n"
                       "JobAcctGatherType=jobacct_gather/linux\n"
                       "JobAcctGatherFrequency=task=30,energy=1\n"
                       "AcctGatherProfileType=acct_gather_profile/"
                       "slurmdbd\n")
    e.power = FakePowercap(os.path.join(e.c.dir, "powercap"))
    e.c.daemon_env["SLUICE_POWERCAP_DIR"] = e.power.root
    try:
        e.start()
        e.start_cluster()
    except BaseException:
        e.stop()
        raise
    yield e
    e.finish()


def _wait_file(path, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if os.path.exists(path):
            return
        time.sleep(0.1)
    raise AssertionError("%s never appeared" % path)


def _sacct_rows(env, jid, want_rows, timeout=60):
    deadline = time.time() + timeout
    rows = {}
    while time.time() < deadline:
        r = env.sacct("-P", "-n", "-o",
                      "JobID,State,ConsumedEnergy,ConsumedEnergyRaw",
                      "-j", str(jid), user=U)
        assert r.rc == 0, r
        rows = {ln.split("|")[0]: ln.split("|")[1:]
                for ln in r.out.splitlines()}
        if len(rows) == want_rows and all(
                v[0] == "COMPLETED" for v in rows.values()):
            return rows
        time.sleep(0.5)
    return rows


def test_slurmd_names_the_counters_it_reads(env):
    text = open(env.c.slurmd_log("n1")).read()
    lines = [l for l in text.splitlines() if "acct_gather_energy/rapl:" in l]
    assert len(lines) == 1, text[-2000:]
    p = env.power.root
    assert lines[0].endswith("acct_gather_energy/rapl: reading "
                             "%s/intel-rapl:0/energy_uj "
                             "%s/intel-rapl:1/energy_uj" % (p, p)), lines[0]


def test_step_and_batch_energy_reach_sacct_and_sstat(env):
    c, pw = env.c, env.power
    d = c.workdir(U)
    for f in ("started", "go1", "step_started", "go2"):
        if os.path.exists(os.path.join(d, f)):
            os.unlink(os.path.join(d, f))
    script = "\n".join([
        "#!/bin/sh",
        "touch started",
        "while [ ! -e go1 ]; do sleep 0.1; done",
        "%s -n1 sh -c 'touch step_started; "
        "while [ ! -e go2 ]; do sleep 0.1; done'" % c.bin("srun"),
        ""])
    path = c.write_file(U, os.path.join(d, "energy.sh"), script, 0o755)
    jid = c.sbatch([path], user=U, cwd=d)
    _wait_file(os.path.join(d, "started"))
    # before the step: the batch step's only
    pw.add("intel-rapl:1", 100)
    pw.add("intel-rapl:0:0", 777)          # a subzone: not counted
    open(os.path.join(d, "go1"), "w").close()
    _wait_file(os.path.join(d, "step_started"))
    # during step 0: 2400 J, package 0 wrapping (900 J + 101 J > 1000 J)
    pw.add("intel-rapl:0", 60)
    time.sleep(1.5)                         # a periodic read in between
    pw.add("intel-rapl:0", 41)
    pw.add("intel-rapl:1", 2299)
    pw.add("intel-rapl:0:0", 555)
    r = c.run(["sstat", "-n", "-P", "-o", "JobID,ConsumedEnergy",
               "-j", "%d.0" % jid], user=U)
    assert r.rc == 0, r
    assert r.out.strip() == "%d.0|2.40K" % jid, r
    open(os.path.join(d, "go2"), "w").close()
    assert c.wait_state(jid, {"COMPLETED", "FAILED"}, timeout=60) \
        == "COMPLETED"
    rows = _sacct_rows(env, jid, 3)
    j = str(jid)
    assert rows == {
        j: ["COMPLETED", "4.90K", "4900"],
        j + ".batch": ["COMPLETED", "2.50K", "2500"],
        j + ".0": ["COMPLETED", "2.40K", "2400"],
    }, rows
    # the default-width table right-justifies the values
    r = env.sacct("-j", j, "-o", "JobID,ConsumedEnergy", user=U)
    assert r.rc == 0, r
    assert "%-12s %14s \n" % (j + ".0", "2.40K") in r.out, r.out


def test_node_power_in_scontrol_show_node(env):
    """The controller asks each slurmd for the node's energy after its
    pings: scontrol shows CurrentWatts (power between the last two reads)
    and AveWatts; --json the joules since slurmd started (2500 J from the
    test above, 500 more here; the subzone never counts)."""
    c, pw = env.c, env.power
    pw.add("intel-rapl:1", 500)
    deadline = time.time() + 60
    watts, joules = [], None
    while time.time() < deadline:
        r = c.run(["scontrol", "show", "node", "n1"])
        assert r.rc == 0, r
        m = re.search(r"^   CurrentWatts=(\d+) AveWatts=(\d+)$", r.out, re.M)
        assert m, r.out
        watts.append(int(m.group(1)))
        r = c.run(["scontrol", "show", "node", "n1", "--json"])
        assert r.rc == 0, r
        joules = json.loads(r.out)["nodes"][0]["energy"]["consumed_energy"]
        if joules == 3000 and max(watts) > 0:
            break
        time.sleep(0.3)
    assert joules == 3000, joules
    assert max(watts) > 0, watts


def test_profile_rows_carry_energy(env):
    """--profile=task,energy: each usage sample of a step carries the
    node's joules since the step began (issue 26's job profiles), rising
    as the counters do."""
    c, pw = env.c, env.power
    d = c.workdir(U)
    for f in ("p_started", "p_go"):
        if os.path.exists(os.path.join(d, f)):
            os.unlink(os.path.join(d, f))
    jid = c.sbatch(["--profile=task,energy", "--acctg-freq=task=1",
                    "--wrap", "%s -n1 sh -c 'touch p_started; "
                    "while [ ! -e p_go ]; do sleep 0.1; done'"
                    % c.bin("srun")], user=U, cwd=d)
    _wait_file(os.path.join(d, "p_started"))
    time.sleep(1.5)
    pw.add("intel-rapl:1", 50)
    time.sleep(2)
    pw.add("intel-rapl:1", 70)
    time.sleep(2)
    open(os.path.join(d, "p_go"), "w").close()
    c.wait_done(jid, timeout=60)
    rows = []
    deadline = time.time() + 60
    while time.time() < deadline:
        r = env.sacct("--profile", "--json", "-j", str(jid), user=U)
        assert r.rc == 0, r
        rows = json.loads(r.out)["profile"]
        if len([x for x in rows if x["step"] == "0"]) >= 4:
            break
        time.sleep(0.5)
    # step 0's rows (the batch script, srun here, has its own)
    energy = [x["energy"] for x in rows if x["step"] == "0"]
    assert len(energy) >= 4 and all(e is not None for e in energy), rows
    assert energy == sorted(energy), energy
    assert energy[0] < 50 and energy[-1] == 120, energy
