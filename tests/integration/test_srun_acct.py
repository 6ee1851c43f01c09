"""Per-step accounting of srun steps: the controller records N.0, N.1, ...
through slurmdbd (private MariaDB, as test_sacct.py) with their states,
exit codes and the usage the nodes' slurmstepd gathered
(JobAcctGatherType=jobacct_gather/linux); `scontrol show step` lists them
while they run; `sstat` shows a running step's usage.
"""

import os
import re
import signal
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mariadb  # noqa: E402

pytestmark = pytest.mark.skipif(bool(mariadb.missing_tools()),
                                reason="MariaDB server not installed: %s"
                                % ", ".join(mariadb.missing_tools()))

U = "sluice_u1"


@pytest.fixture(scope="module")
def env(users):
    e = mariadb.AcctEnv(tag="srunacct", nodes=2)
    e.c.extra_conf += ("\nJobAcctGatherType=jobacct_gather/linux\n"
                       "JobAcctGatherFrequency=1")
    try:
        e.start()
        e.start_cluster()
    except BaseException:
        e.stop()
        raise
    yield e
    e.finish()


def _sacct_rows(env, jid, fields, want_rows, timeout=60):
    """`sacct -P -n -o fields -j jid` as {JobID: [other fields]} once it
    has want_rows rows that all ended."""
    deadline = time.time() + timeout
    rows = {}
    while time.time() < deadline:
        r = env.sacct("-P", "-n", "-o", "JobID," + fields, "-j", str(jid),
                      user=U)
        assert r.rc == 0, r
        rows = {ln.split("|")[0]: ln.split("|")[1:]
                for ln in r.out.splitlines()}
        if len(rows) == want_rows and not any(
                "RUNNING" in v for v in rows.values()):
            return rows
        time.sleep(0.5)
    return rows


MEM_STEP = ("import time; x = bytearray(80 * 1024 * 1024); "
            "x[::4096] = b'1' * len(x[::4096]); time.sleep(3)")


def test_three_steps_recorded_with_states_and_exit_codes(env):
    c = env.c
    d = c.workdir(U)
    script = "\n".join([
        "#!/bin/sh",
        "#SBATCH -N1 -n2",
        "SRUN=%s" % c.bin("srun"),
        "$SRUN -n2 true",
        "$SRUN -n1 --exact sh -c 'sleep 3; exit 3' &",
        "A=$!",
        "$SRUN -n1 --exact /usr/bin/python3 -c \"%s\" &" % MEM_STEP,
        "B=$!",
        "wait $A; echo rcA=$?",
        "wait $B; echo rcB=$?",
        ""])
    path = c.write_file(U, os.path.join(d, "three.sh"), script, 0o755)
    jid = c.sbatch([path], user=U, cwd=d)
    # while the two parallel steps run, scontrol lists both
    deadline = time.time() + 30
    shown = ""
    while time.time() < deadline:
        r = c.run(["scontrol", "show", "step", str(jid)], user=U)
        shown = r.out
        if "StepId=%d.1 " % jid in shown and "StepId=%d.2 " % jid in shown:
            break
        time.sleep(0.2)
    assert "StepId=%d.1 " % jid in shown and \
        "StepId=%d.2 " % jid in shown, shown
    assert re.search(r"StepId=%d\.[12] .*\n\s*State=RUNNING" % jid, shown)
    assert "Tasks=1 Name=sh " in shown and "Tasks=1 Name=python3 " in shown
    assert c.wait_state(jid, {"COMPLETED", "FAILED"}, timeout=60) \
        == "COMPLETED"
    rows = _sacct_rows(env, jid, "JobName,State,ExitCode,NNodes,NTasks,"
                       "AllocCPUS,NodeList,MaxRSS,TotalCPU", 5)
    j = str(jid)
    assert sorted(rows) == sorted([j, j + ".batch", j + ".0", j + ".1",
                                   j + ".2"]), rows
    assert rows[j + ".0"][:6] == ["true", "COMPLETED", "0:0", "1", "2",
                                  "2"], rows
    # the parallel steps are 1 and 2 in either order
    by_name = {rows[j + ".%d" % k][0]: rows[j + ".%d" % k] for k in (1, 2)}
    assert by_name["sh"][1:6] == ["FAILED", "3:0", "1", "1", "1"], rows
    assert by_name["python3"][1:6] == ["COMPLETED", "0:0", "1", "1",
                                       "1"], rows
    assert re.fullmatch(r"n[12]", by_name["python3"][6]), rows
    # MaxRSS from the stepd: the 80 MB the step touched
    m = re.fullmatch(r"(\d+)K", by_name["python3"][7])
    assert m and int(m.group(1)) >= 80 * 1024, rows
    # default table: the steps as rows of their own
    r = env.sacct("-j", j, user=U)
    assert r.rc == 0, r
    row = "%-12s %10s %10s %10s %10s %10s %8s \n"
    assert row % (j + ".0", "true", "", "", "2", "COMPLETED", "0:0") \
        in r.out, r.out
    assert row % (j + ".%d" % [k for k in (1, 2) if rows[j + ".%d" % k][0]
                               == "sh"][0], "sh", "", "", "1", "FAILED",
                  "3:0") in r.out, r.out


GROW = ("import time\n"
        "chunks = []\n"
        "for i in range(12):\n"
        "    chunks.append(bytearray(10 * 1024 * 1024))\n"
        "    chunks[-1][::4096] = b'1' * len(chunks[-1][::4096])\n"
        "    time.sleep(0.5)\n"
        "time.sleep(30)\n")


def test_sstat_shows_growing_rss(env):
    c = env.c
    d = c.workdir(U)
    prog = c.write_file(U, os.path.join(d, "grow.py"), GROW)
    script = "\n".join([
        "#!/bin/sh",
        "#SBATCH -N2 -n2",
        "%s -N2 -n2 /usr/bin/python3 %s" % (c.bin("srun"), prog), ""])
    path = c.write_file(U, os.path.join(d, "grow.sh"), script, 0o755)
    jid = c.sbatch([path], user=U, cwd=d)
    rss = []
    deadline = time.time() + 40
    row = None
    while time.time() < deadline and len(rss) < 6:
        r = c.run(["sstat", "-P", "-n", "-o",
                   "JobID,MaxRSS,MaxRSSNode,MaxRSSTask,AveRSS,NTasks",
                   "-j", str(jid)], user=U)
        assert r.rc == 0, r
        row = r.out.rstrip("\n").split("|") if r.out else None
        # both nodes (a node whose tasks are still starting is left out)
        if row and row[5] == "2":
            assert row[0] == "%d.0" % jid, r
            assert re.fullmatch(r"n[12]", row[2]) and row[3] in "01", r
            m = re.fullmatch(r"(\d+)K", row[1])
            assert m, r
            if not rss or int(m.group(1)) > rss[-1]:
                rss.append(int(m.group(1)))
        time.sleep(0.6)
    # the step grows by 10 MB a task every half second
    assert len(rss) >= 3 and rss[-1] >= rss[0] + 20 * 1024, rss
    # the full default table, one row, and the step named
    r = c.run(["sstat", "-j", "%d.0" % jid], user=U)
    assert r.rc == 0, r
    lines = r.out.splitlines()
    assert lines[0].startswith("JobID         MaxVMSize  MaxVMSizeNode ")
    assert lines[2].startswith("%-12s " % ("%d.0" % jid)), r
    assert len(lines) == 3, r
    # -p keeps the last '|'; errors as Slurm words them
    r = c.run(["sstat", "-p", "-n", "-o", "jobid,ntasks", "-j", str(jid)],
              user=U)
    assert r.out == "%d.0|2|\n" % jid, r
    r = c.run(["sstat", "-n", "-j", "%d.7" % jid], user=U)
    assert r.rc == 0 and r.out == "" and \
        "sstat: error: StepId=%d.7 not found running." % jid in r.err, r
    r = c.run(["sstat", "-j", str(jid), "-o", "foo"], user=U)
    assert r.rc == 1 and 'Invalid field requested: "foo"' in r.err, r
    r = c.run(["sstat"], user=U)
    assert r.rc == 1 and "You didn't give me any jobs to stat." in r.err
    # another user's step: refused by the node
    r = c.run(["sstat", "-n", "-P", "-o", "JobID,MaxRSS", "-j", str(jid)],
              user="sluice_u2")
    assert r.out == "" and "denied" in r.err, r
    c.run(["scancel", str(jid)], user=U)
    c.wait_done(jid)


def test_steps_survive_controller_kill(env):
    """A step is on disk before srun launches it: the controller killed
    with SIGKILL while a step runs comes back knowing it (squeue -s), its
    end is recorded with the right state, and the next srun gets the next
    id instead of reusing 0 (which would overwrite the first step's
    accounting record)."""
    c = env.c
    d = c.workdir(U)
    script = "\n".join([
        "#!/bin/sh",
        "#SBATCH -N2",
        "SRUN=%s" % c.bin("srun"),
        "$SRUN -N2 sh -c 'touch started.$SLURM_PROCID; sleep 8; exit 2'",
        "$SRUN -N1 printenv SLURM_STEP_ID",
        ""])
    path = c.write_file(U, os.path.join(d, "restart.sh"), script, 0o755)
    jid = c.sbatch([path], user=U, cwd=d)
    j = str(jid)
    # Its tasks run: srun was told the step exists, so it is on disk.
    # (squeue -s shows a step as soon as the controller has it, before
    # its journal record is synced; a SIGKILL in between loses a step
    # nobody was told of, which srun then asks for again.)
    started = [os.path.join(d, "started.%d" % t) for t in (0, 1)]
    deadline = time.time() + 30
    while time.time() < deadline:
        if all(os.path.exists(f) for f in started):
            break
        time.sleep(0.2)
    assert j + ".0 " in c.run(["squeue", "-h", "-s", "-o", "%i "]).out
    c.kill_ctld(signal.SIGKILL)
    c.start_ctld()
    deadline = time.time() + 30
    out = ""
    while time.time() < deadline:
        r = c.run(["squeue", "-h", "-s", "-o", "%i %j %N"], user=U)
        out = r.out
        if r.rc == 0:
            break
        time.sleep(0.2)
    assert j + ".0 sh n[1-2]" in out, out
    assert c.wait_state(jid, {"COMPLETED", "FAILED"}, timeout=60) \
        == "COMPLETED"
    with open(os.path.join(d, "slurm-%s.out" % j)) as f:
        text = f.read()
    assert text.splitlines()[-1] == "1", text
    rows = _sacct_rows(env, jid, "JobName,State,ExitCode,NNodes", 4)
    assert rows[j + ".0"] == ["sh", "FAILED", "2:0", "2"], rows
    assert rows[j + ".1"] == ["printenv", "COMPLETED", "0:0", "1"], rows
