"""Where tools that drive Slurm look closely (issue 35): signals the
daemons ignore, squeue's state names and codes, hostlist expansion order.
The expected texts are Slurm's (Debian's 22.05 as a black box where
25.05's man pages agree; noted per test).

One cluster with slurmdbd and MariaDB is shared by the module.
"""

import os
import pwd
import re
import signal
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cluster as cl  # noqa: E402
import mariadb  # noqa: E402

pytestmark = pytest.mark.skipif(bool(mariadb.missing_tools()),
                                reason="MariaDB server not installed: %s"
                                % ", ".join(mariadb.missing_tools()))

U1 = "sluice_u1"

# squeue(1), -t: every base state and flag state, long and compact.
STATE_CODES = ("PD,CF,RF,RH,RQ,SE,R,CG,S,ST,SO,SI,RS,RD,RV,CD,CA,F,TO,NF,"
               "PR,BF,DL,OOM")
STATE_NAMES = ("PENDING,CONFIGURING,REQUEUE_FED,REQUEUE_HOLD,REQUEUED,"
               "SPECIAL_EXIT,RUNNING,COMPLETING,SUSPENDED,STOPPED,STAGE_OUT,"
               "SIGNALING,RESIZING,RESV_DEL_HOLD,REVOKED,COMPLETED,CANCELLED,"
               "FAILED,TIMEOUT,NODE_FAIL,PREEMPTED,BOOT_FAIL,DEADLINE,"
               "OUT_OF_MEMORY")


@pytest.fixture(scope="module")
def env(users):
    e = mariadb.AcctEnv(tag="compat", nodes=2)
    try:
        e.start()
        e.start_cluster()
    except BaseException:
        e.stop()
        e.cleanup()
        raise
    yield e
    e.stop()
    e.cleanup()


def _stepds_of(env):
    pids = cl.descendants([d.pid for d in env.c.slurmds.values()])
    return [p for p in pids
            if (cl._proc_status(p) or {}).get("Name", "").startswith("slurmstepd")]


def test_daemons_ignore_sigprof(env):
    """Slurm's daemons ignore SIGPROF (profilers and monitoring tools send
    it); before, slurmctld and slurmdbd died of it."""
    c = env.c
    jid = str(c.sbatch(["--wrap", "sleep 60", "-o", "/dev/null"], user=U1))
    c.wait_state(jid, "RUNNING")
    deadline = time.time() + 20
    while not _stepds_of(env) and time.time() < deadline:
        time.sleep(0.2)
    stepds = _stepds_of(env)
    assert stepds, "no slurmstepd of the running job"
    daemons = [c.ctld, env.dbd] + list(c.slurmds.values())
    for p in [d.pid for d in daemons] + stepds:
        os.kill(p, signal.SIGPROF)
    time.sleep(1)
    for d in daemons:
        assert d.alive(), "%s died of SIGPROF" % d.name
    for p in stepds:
        assert cl._pid_alive(p), "slurmstepd %d died of SIGPROF" % p
    assert c.job_state(jid) == "RUNNING"
    assert c.run(["squeue", "-h"]).rc == 0
    assert env.sacctmgr("-n", "show", "qos").rc == 0
    assert c.run(["scancel", jid], user=U1).rc == 0


@pytest.mark.parametrize("states", [STATE_CODES, STATE_NAMES,
                                    STATE_CODES.lower()])
def test_squeue_accepts_every_state(env, states):
    """squeue -t takes every state's long name and compact code, in any
    case; before, RF, RD and RV (and their long names) were refused."""
    c = env.c
    jid = str(c.sbatch(["--hold", "--wrap", "true"], user=U1))
    r = c.run(["squeue", "-h", "-o", "%i %t", "--states=" + states])
    assert r.rc == 0 and r.err == "", r.err
    assert "%s PD" % jid in r.out.splitlines()
    c.run(["scancel", jid], user=U1)


def test_squeue_refuses_an_unknown_state(env):
    r = env.c.run(["squeue", "-t", "PD,XX"])
    assert r.rc == 1
    assert r.err.startswith("squeue: error: Invalid job state specified: XX\n")
    assert "REQUEUE_FED" in r.err and "RESV_DEL_HOLD" in r.err


@pytest.mark.parametrize("expr,want", [
    # Slurm 22.05: the last group turns fastest, then the first, then the
    # second, ... (two groups: leftmost slowest)
    ("row[0,1]_rack[2-3]_blade[4,5]",
     "row0_rack2_blade4 row0_rack2_blade5 row1_rack2_blade4 row1_rack2_blade5 "
     "row0_rack3_blade4 row0_rack3_blade5 row1_rack3_blade4 row1_rack3_blade5"),
    ("a[1-2]b[3-4]", "a1b3 a1b4 a2b3 a2b4"),
    ("a[1-3]b[4-5]c[6-7]",
     "a1b4c6 a1b4c7 a2b4c6 a2b4c7 a3b4c6 a3b4c7 "
     "a1b5c6 a1b5c7 a2b5c6 a2b5c7 a3b5c6 a3b5c7"),
])
def test_hostnames_order(env, expr, want):
    r = env.c.run(["scontrol", "show", "hostnames", expr])
    assert r.rc == 0, r.err
    assert r.out.split() == want.split()


# Slurm 22.05's "srun --usage" / "salloc --usage" begin so (25.05's add
# options further down; the first lines and the closing line agree).
USAGE_HEAD = {
    "srun": ("Usage: srun [-N nnodes] [-n ntasks] [-i in] [-o out] [-e err]\n"
             "            [-c ncpus] [-r n] [-p partition] [--hold] [-t minutes]\n"),
    "salloc": ("Usage: salloc [-N numnodes|[min nodes]-[max nodes]] [-n num-processors]\n"
               "              [-c cpus-per-node] [-r n] [-p partition] [--hold] [-t minutes]\n"),
    "sbatch": "Usage: sbatch [-N nnodes] [-n ntasks]\n",
}
HELP_HEAD = {
    "srun": "Usage: srun [OPTIONS(0)... [executable(0) [args(0)...]]] "
            "[ : [OPTIONS(N)...]] executable(N) [args(N)...]\n\n"
            "Parallel run options:\n",
    "salloc": "Usage: salloc [OPTIONS(0)...] [ : [OPTIONS(N)]] "
              "[command(0) [args(0)...]]\n\nParallel run options:\n",
    "sbatch": "Usage: sbatch [OPTIONS(0)...] [ : [OPTIONS(N)...]] "
              "script(0) [args(0)...]\n\nParallel run options:\n",
}
# Options only one command's help lists.
OWN_OPTION = {"srun": "--multi-prog", "sbatch": "--wrap"}


@pytest.mark.parametrize("cmd", ["srun", "salloc", "sbatch"])
def test_usage_and_help_are_the_commands_own(env, cmd):
    u = env.c.run([cmd, "--usage"], user=U1)
    assert u.rc == 0, u.err
    assert u.out.startswith(USAGE_HEAD[cmd])
    h = env.c.run([cmd, "--help"], user=U1)
    assert h.rc == 0, h.err
    assert h.out.startswith(HELP_HEAD[cmd])
    assert "Help options:\n  -h, --help " in h.out
    for other, opt in OWN_OPTION.items():
        assert (opt in h.out) == (other == cmd), (cmd, opt)


# --begin forms Slurm 22.05's sbatch takes (its "sbatch -v" prints the
# time each one means); expected as (days from today, HH:MM:SS), or None
# for "now + N hours".
BEGIN_FORMS = [
    ("noon-tomorrow", 1, "12:00:00"),
    ("noon tomorrow", 1, "12:00:00"),
    ("tomorrow-noon", 1, "12:00:00"),
    ("teatime-tomorrow", 1, "16:00:00"),
    ("midnight-tomorrow", 1, "00:00:00"),
    ("tomorrow 10:00", 1, "10:00:00"),
    ("16:00-tomorrow", 1, "16:00:00"),
    ("tomorrow", 1, "00:00:00"),
]


@pytest.mark.parametrize("form,days,clock", BEGIN_FORMS)
def test_begin_takes_slurms_forms(env, form, days, clock):
    import datetime
    jid = env.c.sbatch(["--begin=" + form, "--wrap", "true"], user=U1)
    try:
        start = env.c.show_job(jid)["StartTime"]
        want = (datetime.date.today() + datetime.timedelta(days=days))
        assert start == "%sT%s" % (want.isoformat(), clock), (form, start)
    finally:
        env.c.run(["scancel", str(jid)])


def test_begin_now_plus_spaced_units(env):
    jid = env.c.sbatch(["--begin=now + 2 hours", "--wrap", "true"], user=U1)
    try:
        rec = env.c.show_job(jid)
        assert rec["JobState"] == "PENDING" and rec["Reason"] == "BeginTime"
    finally:
        env.c.run(["scancel", str(jid)])
    # Slurm 22.05: the parser's line, then the option's, exit 255
    r = env.c.run(["sbatch", "--begin=xyz", "--wrap", "true"], user=U1)
    assert r.rc == 255 and r.err == (
        "Invalid time specification (pos=0): xyz\n"
        "sbatch: error: Invalid --begin specification\n"), r


def test_export_file(env):
    """sbatch --export-file: NUL-separated NAME=value definitions (values
    may hold newlines), from a file or a descriptor (sbatch(1)), set in
    the job's environment over what --export gave it."""
    d = env.c.workdir(U1)
    path = os.path.join(d, "envfile")
    env.c.write_file(U1, path, "EF_A=one\0EF_B=two\nlines\0EF_C=x=y\0")
    out = os.path.join(d, "ef.out")
    script = ("#!/bin/sh\nprintf '%s|%s|%s|%s\\n' \"$EF_A\" \"$EF_B\" "
              "\"$EF_C\" \"$EF_D\" > " + out + "\n")
    jid = env.c.sbatch(["--export-file=" + path, "--export=ALL,EF_A=zero,"
                        "EF_D=kept"], user=U1, input=script)
    assert env.c.wait_done(jid) == "COMPLETED"
    assert open(out).read() == "one|two\nlines|x=y|kept\n"
    # newline-separated, from descriptor 3
    env.c.write_file(U1, path, "EF_A=fd\nEF_B=three\n")
    sb = env.c.bin("sbatch")
    r = env.c.run(["sh", "-c", "exec %s --export-file=3 3<%s" % (sb, path)],
                  user=U1, input=script)
    assert r.rc == 0, r
    jid = int(r.out.split()[-1])
    assert env.c.wait_done(jid) == "COMPLETED"
    assert open(out).read() == "fd|three||\n"
    # Slurm 22.05's text for a file it cannot open; nothing submitted
    r = env.c.run(["sbatch", "--export-file=/no/such", "--wrap", "true"],
                  user=U1)
    assert r.rc == 1 and r.err == (
        "sbatch: error: Could not open user environment file /no/such\n"), r


def test_scontrol_future_nodes(new_cluster):
    """scontrol -F/--future: FUTURE nodes are shown only with it (scontrol(1));
    without it a FUTURE node is not found, as in Slurm."""
    c = new_cluster(nodes=1, extra_conf="NodeName=fut1 NodeAddr=127.0.0.1 "
                    "Port=9 CPUs=2 RealMemory=1000 State=FUTURE")
    r = c.run(["scontrol", "show", "nodes"], user=U1)
    assert r.rc == 0 and "NodeName=fut1 " not in r.out, r
    for argv in (["-F", "show", "nodes"], ["--future", "show", "node"],
                 ["show", "node", "-oF"], ["-oF", "show", "node", "fut1"]):
        r = c.run(["scontrol"] + argv, user=U1)
        assert r.rc == 0, (argv, r)
        assert "NodeName=fut1 " in r.out and "State=FUTURE" in r.out, (argv, r)
    r = c.run(["scontrol", "show", "node", "fut1"], user=U1)
    assert r.rc == 1 and r.out == "Node fut1 not found\n", r
    r = c.run(["scontrol", "show", "nodes", "--json", "-F"], user=U1)
    assert r.rc == 0, r
    import json
    names = [n["name"] for n in json.loads(r.out)["nodes"]]
    assert "fut1" in names and len(names) == 2, names


def test_scontrol_detail_oneliner(env):
    """scontrol -d -o show job: one line per job, the -d fields (Nodes=...
    CPU_IDs=... Mem=... GRES=...) on it, as Slurm's -o prints them."""
    jids = [env.c.sbatch(["-N1", "--wrap", "sleep 60"], user=U1)
            for _ in range(2)]
    try:
        for j in jids:
            assert env.c.wait_state(j, ("RUNNING",)) == "RUNNING"
        r = env.c.run(["scontrol", "-d", "-o", "show", "job"], user=U1)
        assert r.rc == 0, r
        lines = r.out.splitlines()
        assert len(lines) == len([j for j in env.c.all_job_states()]), r.out
        for j in jids:
            line = [ln for ln in lines if ln.startswith("JobId=%d " % j)]
            assert len(line) == 1, r.out
            assert re.search(r" JOB_GRES=\S+ Nodes=\S+ CPU_IDs=[\d,-]+ "
                             r"Mem=\d+ GRES=\S* ", line[0]), line[0]
        r = env.c.run(["scontrol", "-d", "show", "job", str(jids[0])],
                      user=U1)
        assert re.search(r"\n     Nodes=\S+ CPU_IDs=", r.out), r.out
    finally:
        env.c.run(["scancel"] + [str(j) for j in jids])


def test_sacctmgr_ping_and_shutdown(env):
    """sacctmgr ping prints Slurm's "slurmdbd(primary) at HOST is UP";
    sacctmgr shutdown stops slurmdbd for root (and SlurmUser) only."""
    r = env.sacctmgr("ping", user=U1)
    assert r.rc == 0 and r.out == "slurmdbd(primary) at 127.0.0.1 is UP\n", r
    r = env.sacctmgr("shutdown", user=U1)
    assert r.rc == 1 and r.err == (
        " Problem shutting down server: Access/permission denied\n"), r
    assert env.dbd.alive()
    r = env.sacctmgr("shutdown")
    assert r.rc == 0 and r.err == "", r
    env.dbd.popen.wait(timeout=30)
    r = env.sacctmgr("ping", user=U1)
    assert r.rc == 1 and r.out == "slurmdbd(primary) at 127.0.0.1 is DOWN\n", r
    env.dbd = None
    env.start_dbd()
    assert "Shutdown request received from uid 0" in env.dbd_log_text()


def test_node_count_forms(env):
    """-N-3 is 1 to 3 nodes, -N1000000k takes the k suffix; counts beyond
    the partition pend with Slurm's reasons (EnforcePartLimits=NO, the
    default: Slurm 22.05 on 4 nodes of 2 CPUs gave PartitionConfig for
    -N1000000k and -n1000, PartitionNodeLimit for -N5, and ran -N-3 on 3
    nodes and -N-100 on 4: it prefers a range's larger count, Sluice its
    smaller, so only the range is checked here)."""
    nodes = len(env.c.node_names)
    jid = env.c.sbatch(["-N-3", "--wrap", "true"], user=U1)
    assert env.c.wait_done(jid) == "COMPLETED"
    assert 1 <= int(env.c.show_job(jid)["NumNodes"]) <= min(3, nodes)
    want = {"-N1000000k": "PartitionConfig",
            "-N%d" % (nodes + 1): "PartitionNodeLimit",
            "-n1000": "PartitionConfig"}
    jids = []
    try:
        for opt, reason in want.items():
            jid = env.c.sbatch([opt, "--wrap", "true"], user=U1)
            jids.append(jid)
            time.sleep(1.5)
            rec = env.c.show_job(jid)
            assert (rec["JobState"], rec["Reason"]) == ("PENDING", reason), (
                opt, rec)
        assert env.c.show_job(jids[0])["NumNodes"].split("-")[0] == \
            "1024000000"
    finally:
        env.c.run(["scancel"] + [str(j) for j in jids])
    r = env.c.run(["sbatch", "-N0-x", "--wrap", "true"], user=U1)
    assert r.rc != 0 and r.err == 'sbatch: error: "x" is not a valid node count\n', r


def test_node_counts_refused_with_enforce_part_limits(new_cluster):
    """EnforcePartLimits=ALL refuses at submit what would pend: too many
    CPUs first ("More processors requested than permitted"), then too
    many nodes ("Node count specification invalid") -- Slurm 22.05 on 4
    nodes of 2 CPUs: -N1000000k, -n1000, -n9, -N4 -n9 the first; -N5,
    -N5 -n5 the second; -N1 -n3 "Requested node configuration is not
    available"."""
    c = new_cluster(nodes=4, cpus=2, extra_conf="EnforcePartLimits=ALL")
    want = {
        "-N1000000k": "More processors requested than permitted",
        "-n1000": "More processors requested than permitted",
        "-n9": "More processors requested than permitted",
        "-N4 -n9": "More processors requested than permitted",
        "-N5": "Node count specification invalid",
        "-N5 -n5": "Node count specification invalid",
        "-N1 -n3": "Requested node configuration is not available",
    }
    for opts, text in want.items():
        r = c.run(["sbatch"] + opts.split() + ["--wrap", "true"], user=U1)
        assert r.rc == 1 and r.err == (
            "sbatch: error: Batch job submission failed: %s\n" % text), (
                opts, r)
    assert c.all_job_states() == {}


def test_memory_no_node_has_is_refused(env):
    """More memory than any node of the partition has is refused at
    submit, whatever SelectTypeParameters says (Slurm 22.05, CR_Core,
    2048 MB nodes: --mem=100G and --mem-per-cpu=5000 refused with these
    two lines)."""
    for opts in (["--mem=4G"], ["--mem-per-cpu=5000"],
                 ["-c2", "--mem-per-cpu=600"]):
        r = env.c.run(["sbatch"] + opts + ["--wrap", "true"], user=U1)
        assert r.rc == 1 and r.err == (
            "sbatch: error: Memory specification can not be satisfied\n"
            "sbatch: error: Batch job submission failed: Requested node "
            "configuration is not available\n"), (opts, r)
    r = env.c.run(["srun", "--mem=4G", "true"], user=U1)
    assert r.rc == 1 and "Memory specification can not be satisfied" in r.err, r
    jid = env.c.sbatch(["--mem=1000", "--wrap", "true"], user=U1)
    assert env.c.wait_done(jid) == "COMPLETED"


def test_sacctmgr_old_limit_names(env):
    """sacctmgr takes the limit names from before TRES, as Slurm still
    does: GrpCPUs/GrpNodes/GrpMemory are parts of GrpTRES, MaxCPUs/MaxNodes
    of MaxTRES, GrpCPUMins of GrpTRESMins, MaxCPUsPerUser of MaxTRESPU."""
    r = env.sacctmgr("-i", "add", "account", "oldnames", "GrpCPUs=10",
                     "GrpNodes=2", "MaxCPUs=4", "GrpCPUMins=600")
    assert r.rc == 0, r
    r = env.sacctmgr("-n", "-P", "show", "assoc", "where", "account=oldnames",
                     "format=GrpTRES,MaxTRES,GrpTRESMins")
    assert r.out.splitlines()[0] == "cpu=10,node=2|cpu=4|cpu=600", r
    r = env.sacctmgr("-i", "modify", "account", "oldnames", "set",
                     "GrpMemory=2000", "MaxNodes=1")
    assert r.rc == 0, r
    r = env.sacctmgr("-n", "-P", "show", "assoc", "where", "account=oldnames",
                     "format=GrpTRES,MaxTRES")
    assert r.out.splitlines()[0] == "cpu=10,mem=2000M,node=2|cpu=4,node=1", r
    r = env.sacctmgr("-i", "add", "qos", "oldq", "MaxCPUsPerUser=3")
    assert r.rc == 0, r
    r = env.sacctmgr("-n", "-P", "show", "qos", "oldq", "format=MaxTRESPU")
    assert r.out == "cpu=3\n", r
    r = env.sacctmgr("show", "assoc", "where", "GrpCPUs=10")
    assert r.rc == 1 and "Unknown condition: GrpCPUs=10" in r.err, r
    env.sacctmgr("-i", "delete", "account", "oldnames")
    env.sacctmgr("-i", "delete", "qos", "oldq")


def test_scontrol_ping_json(env):
    """scontrol ping --json: OPENAPI_PING_ARRAY_RESP of 25.05 (v0.0.43:
    pings[] of controller_ping: hostname, pinged, latency, mode, primary,
    responding; meta, errors, warnings); --yaml the same tree."""
    import json
    r = env.c.run(["scontrol", "ping", "--json"], user=U1)
    assert r.rc == 0, r
    doc = json.loads(r.out)
    assert set(doc) >= {"pings", "meta", "errors", "warnings"}, doc.keys()
    assert len(doc["pings"]) == 1, doc
    p = doc["pings"][0]
    assert p["responding"] is True and p["primary"] is True, p
    assert p["pinged"] == "UP" and p["mode"] == "primary", p
    assert isinstance(p["hostname"], str) and p["hostname"], p
    assert isinstance(p["latency"], int) and p["latency"] >= 0, p
    r = env.c.run(["scontrol", "ping", "--yaml"], user=U1)
    assert r.rc == 0 and "pings:" in r.out and "responding: true" in r.out, r
    r = env.c.run(["scontrol", "ping"], user=U1)
    assert r.out.startswith("Slurmctld(primary) at "), r


def test_options_without_effect_say_so(env):
    """Options are never silently dropped.  One Slurm itself ignores here
    (--switches without a tree topology) is taken with a warning; one
    Slurm acts on and Sluice cannot (--mem-bind) is refused and
    nothing is submitted; -S says what Slurm says when specialized
    resources are not allowed."""
    before = set(env.c.all_job_states())
    r = env.c.run(["sbatch", "--mem-bind=local", "--wrap", "true"], user=U1)
    assert r.rc != 0 and r.out == "", r
    assert r.err.startswith("sbatch: error: --mem-bind is not supported"), r
    assert set(env.c.all_job_states()) == before
    r = env.c.run(["sbatch", "--switches=2@10:00", "-S", "1", "--wrap",
                   "true"], user=U1)
    assert r.rc == 0 and r.out.startswith("Submitted batch job "), r
    assert r.err == (
        "sbatch: error: Ignoring -S since it's not allowed by configuration "
        "(AllowSpecResourcesUsage = No)\n"
        "sbatch: --switches has no effect: TopologyPlugin is not "
        "topology/tree\n"), r


def test_hint(env, new_cluster):
    """--hint as Slurm 22.05's sbatch takes it: nomultithread and
    compute_bound run where every core has one thread (they ask nothing
    more there), help lists the hints, an unknown one is Slurm's error;
    memory_bound (one task per socket) is refused; on nodes with two
    threads per core the controller refuses nomultithread instead of
    running the job on both threads."""
    for hint in ("nomultithread", "compute_bound", "multithread"):
        jid = env.c.sbatch(["--hint=" + hint, "-o", "/dev/null", "--wrap",
                            "true"], user=U1)
        assert env.c.wait_done(jid) == "COMPLETED", hint
    r = env.c.run(["sbatch", "--hint=help"], user=U1)
    assert r.rc == 0 and r.out.startswith("Application hint options:\n"), r
    assert "[no]multithread [don't] use extra threads" in r.out
    before = set(env.c.all_job_states())
    r = env.c.run(["sbatch", "--hint=bogus", "--wrap", "true"], user=U1)
    assert r.rc != 0 and r.err == ('sbatch: error: unrecognized --hint '
                                   'argument "bogus", see --hint=help\n'), r
    r = env.c.run(["sbatch", "--hint=memory_bound", "--wrap", "true"],
                  user=U1)
    assert r.rc != 0 and "memory_bound" in r.err, r
    assert set(env.c.all_job_states()) == before
    ht = new_cluster(nodes=1, cpus=2,
                     node_extra="Sockets=1 CoresPerSocket=1 ThreadsPerCore=2",
                     extra_conf="SlurmdParameters=config_overrides\n")
    r = ht.run(["sbatch", "--hint=nomultithread", "--wrap", "true"],
               user=U1)
    assert r.rc != 0, r
    assert "Sluice does not place tasks by core on nodes with 2 threads " \
        "per core" in r.err, r
    r = ht.run(["sbatch", "--ntasks-per-core=2", "-o", "/dev/null",
                "--wrap", "true"], user=U1)
    assert r.rc == 0, r          # two tasks a core: every thread, as is


def test_requests_sluice_has_nothing_for(env):
    """-L with no Licenses= configured, --container with no container
    runtime, -M naming another cluster: Slurm's errors, nothing runs."""
    before = set(env.c.all_job_states())
    r = env.c.run(["sbatch", "-L", "matlab:1", "--wrap", "true"], user=U1)
    assert (r.rc, r.err) == (1, "sbatch: error: Batch job submission "
                             "failed: Invalid license specification\n"), r
    r = env.c.run(["srun", "-L", "matlab:1", "true"], user=U1)
    assert r.rc == 1 and "Invalid license specification" in r.err, r
    r = env.c.run(["sbatch", "--container=/srv/img", "--wrap", "true"],
                  user=U1)
    assert r.rc == 1 and r.err == ("sbatch: error: Batch job submission "
                                   "failed: Container runtime not "
                                   "configured or invalid\n"), r
    for cmd in (["sbatch", "-M", "elsewhere", "--wrap", "true"],
                ["srun", "-M", "elsewhere", "true"],
                ["salloc", "-M", "elsewhere", "true"]):
        r = env.c.run(cmd, user=U1)
        assert r.rc == 1 and r.err.startswith(
            "%s: error: No cluster 'elsewhere' known by database.\n" %
            cmd[0]), r
    assert set(env.c.all_job_states()) == before


def test_distribution_reaches_the_steps(env):
    """sbatch -m: the job's sruns get it as SLURM_DISTRIBUTION."""
    out = os.path.join(env.c.workdir(U1), "dist.out")
    jid = env.c.sbatch(["-m", "cyclic", "-o", out, "--wrap",
                        "echo $SLURM_DISTRIBUTION"], user=U1)
    assert env.c.wait_done(jid) == "COMPLETED"
    with open(out) as f:
        assert f.read() == "cyclic\n"


def _sbatch_with_step(env, marker):
    """A running batch job whose script runs an srun step (sleep marker);
    returns its id once the step is listed."""
    c = env.c
    jid = str(c.sbatch(["-N1", "-n2", "-o", "/dev/null", "--wrap",
                        "%s -n2 sleep %s" % (c.bin("srun"), marker)],
                       user=U1))
    c.wait_state(jid, "RUNNING")
    deadline = time.time() + 30
    while time.time() < deadline:
        r = c.run(["scontrol", "show", "step", jid + ".0"], user=U1)
        if "StepId=%s.0 " % jid in r.out:
            return jid
        time.sleep(0.2)
    raise AssertionError("step %s.0 never listed" % jid)


def test_scontrol_show_steps_json(env):
    """scontrol show step --json/--yaml: OPENAPI_STEP_INFO_MSG of 25.05
    (v0.0.43 steps[] with id, time{start,limit}, nodes, number_tasks,
    srun{host,pid}, ... and the envelope), checked against the schema;
    the same description prints the Key=Value lines.  Before, --json was
    ignored and the lines printed."""
    import json

    import openapi
    c = env.c
    jid = _sbatch_with_step(env, "3519.35")
    try:
        r = c.run(["scontrol", "show", "step", jid + ".0", "--json"],
                  user=U1)
        assert r.rc == 0 and r.err == "", r
        doc = json.loads(r.out)
        openapi.validate(doc, "v0.0.43_openapi_step_info_msg")
        steps = [s for s in doc["steps"] if s["id"] == jid + ".0"]
        assert len(steps) == 1, doc["steps"]
        s = steps[0]
        assert s["name"] == "sleep" and s["number_tasks"] == 2, s
        assert s["state"] == ["RUNNING"] and s["user"] == U1, s
        assert s["nodes"] and s["partition"], s
        assert s["time"]["start"]["set"] and s["time"]["start"]["number"] > 0
        assert s["srun"]["pid"] > 0 and s["srun"]["host"], s
        assert s["task"]["distribution"] == "Block", s
        r = c.run(["scontrol", "show", "steps", "--yaml"], user=U1)
        assert r.rc == 0 and "steps:" in r.out, r
        assert "id: \"%s.0\"" % jid in r.out, r.out
        # the text from the same table, as 22.05 lays it out
        r = c.run(["scontrol", "show", "step", jid + ".0"], user=U1)
        assert re.fullmatch(
            r"StepId=%s\.0 UserId=\d+ StartTime=\S+ TimeLimit=UNLIMITED\n"
            r"   State=RUNNING Partition=\S+ NodeList=\S+\n"
            r"   Nodes=1 CPUs=2 Tasks=2 Name=sleep Network=\(null\)\n"
            r"   TRES=cpu=2,node=1\n"
            r"   ResvPorts=\(null\)\n"
            r"   CPUFreqReq=Default Dist=Block\n"
            r"   SrunHost:Pid=\S+:\d+\n\n" % jid, r.out), r.out
        r = c.run(["scontrol", "show", "step", "999999.0", "--json"],
                  user=U1)
        assert r.rc == 0, r
        doc = json.loads(r.out)
        openapi.validate(doc, "v0.0.43_openapi_step_info_msg")
        assert doc["steps"] == [], doc
    finally:
        c.run(["scancel", jid])


def test_scontrol_show_reservations_json(env):
    """scontrol show reservation --json/--yaml: OPENAPI_RESERVATION_RESP
    of 25.05 (v0.0.43 reservations[] of reservation_info: name, node_list,
    node_count, core_count, flags[], start_time/end_time, users, ...),
    checked against the schema; the Key=Value text keeps its layout.
    Before, --json was ignored and the lines printed."""
    import json

    import openapi
    c = env.c
    r = c.run(["scontrol", "create", "reservation", "ReservationName=rj",
               "StartTime=now+1hour", "Duration=30", "Nodes=n1",
               "Users=" + U1, "Flags=MAINT,PURGE_COMP=00:05:00"])
    assert r.rc == 0, r
    try:
        r = c.run(["scontrol", "show", "reservation", "--json"], user=U1)
        assert r.rc == 0 and r.err == "", r
        doc = json.loads(r.out)
        openapi.validate(doc, "v0.0.43_openapi_reservation_resp")
        assert [v["name"] for v in doc["reservations"]] == ["rj"], doc
        v = doc["reservations"][0]
        assert v["node_list"] == "n1" and v["node_count"] == 1, v
        assert v["users"] == U1 and v["accounts"] == "", v
        assert sorted(v["flags"]) == ["MAINT", "PURGE_COMP", "SPEC_NODES"], v
        assert v["purge_completed"]["time"] == {
            "set": True, "infinite": False, "number": 300}, v
        start, end = v["start_time"], v["end_time"]
        assert start["set"] and end["set"], v
        assert end["number"] - start["number"] == 1800, v
        r = c.run(["scontrol", "show", "reservation", "rj", "--yaml"])
        assert r.rc == 0 and "reservations:" in r.out, r
        assert "name: rj" in r.out, r.out
        r = c.run(["scontrol", "show", "reservation", "nosuch", "--json"])
        doc = json.loads(r.out)
        openapi.validate(doc, "v0.0.43_openapi_reservation_resp")
        assert doc["reservations"] == [] and r.rc == 1, r
        r = c.run(["scontrol", "show", "reservation", "rj"])
        assert re.fullmatch(
            r"ReservationName=rj StartTime=\S+ EndTime=\S+ "
            r"Duration=00:30:00\n"
            r"   Nodes=n1 NodeCnt=1 CoreCnt=\d+ Features=\(null\) "
            r"PartitionName=\(null\) "
            r"Flags=MAINT,SPEC_NODES,PURGE_COMP=00:05:00\n"
            r"   TRES=cpu=\d+\n"
            r"   Users=%s Groups=\(null\) Accounts=\(null\) "
            r"Licenses=\(null\) State=INACTIVE BurstBuffer=\(null\) "
            r"Watts=n/a\n"
            r"   MaxStartDelay=\(null\)\n\n" % U1, r.out), r.out
    finally:
        c.run(["scontrol", "delete", "ReservationName=rj"])


def _assoc_mgr_wait(env, args, wants, timeout=20):
    """scontrol show assoc_mgr args once its output contains every text of
    wants (the controller reloads the cache after each sacctmgr change)."""
    deadline = time.time() + timeout
    while True:
        r = env.c.run(["scontrol", "show", "assoc_mgr"] + args)
        if all(w in r.out for w in wants) or time.time() > deadline:
            return r
        time.sleep(0.3)


# The TRES list of every Grp line: Slurm's eight default TRES.
def _tres(cpu="N(0)", mem="N(0)", node="N(0)", billing="N(0)"):
    return ("cpu=%s,mem=%s,energy=N(0),node=%s,billing=%s,fs/disk=N(0),"
            "vmem=N(0),pages=N(0)" % (cpu, mem, node, billing))


def test_scontrol_show_assoc_mgr(env):
    """scontrol show assoc_mgr [accounts= users= qos= flags=]: the
    controller's cache of users, associations and QOS with each limit as
    limit(used) ("N" = none), laid out as Slurm 22.05 prints it (the
    oracle's output, same records, side by side; 25.05's man page
    describes the same command and filters).  Before: "invalid
    entity:assoc_mgr for keyword:show"."""
    c = env.c
    uid = pwd.getpwnam(U1).pw_uid
    assert env.sacctmgr("-i", "add", "account", "amgr", "GrpJobs=5",
                        "GrpTRES=cpu=10,mem=2000", "MaxJobs=3",
                        "MaxWall=60", "MaxTRES=cpu=4").rc == 0
    assert env.sacctmgr("-i", "add", "qos", "amgrq", "GrpJobs=4",
                        "MaxTRESPerUser=cpu=2", "Priority=10",
                        "MaxWall=30").rc == 0
    assert env.sacctmgr("-i", "add", "user", U1, "account=amgr",
                        "MaxSubmitJobs=7", "fairshare=5",
                        "qos=normal,amgrq").rc == 0
    jids = []
    try:
        r = _assoc_mgr_wait(env, ["accounts=amgr", "qos=amgrq"], [
            "QOS=amgrq(", "Account=amgr UserName=%s(" % U1])
        assert r.rc == 0 and "Account=amgr UserName=%s(" % U1 in r.out, r
        jids.append(str(c.sbatch(["-A", "amgr", "-q", "amgrq", "-n1",
                                  "-o", "/dev/null", "--wrap", "sleep 60"],
                                 user=U1)))
        jids.append(str(c.sbatch(["-A", "amgr", "-q", "amgrq", "-n1",
                                  "--hold", "--wrap", "true"], user=U1)))
        c.wait_state(jids[0], "RUNNING")
        time.sleep(1.5)     # remaining minutes: the same after a second
        r = c.run(["scontrol", "show", "assoc_mgr", "accounts=amgr",
                   "users=" + U1, "qos=amgrq"], user=U1)
        assert r.rc == 0 and r.err == "", r
        run_mins = "N(%d)" % 0xffffffff     # unlimited: Slurm's figure
        assoc_tail = (
            "    GrpTRESMins=%s\n"
            "    GrpTRESRunMins=%s\n"
            "    MaxJobs=3(1) MaxJobsAccrue= MaxSubmitJobs=%s MaxWallPJ=60\n"
            "    MaxTRESPJ=cpu=4\n"
            "    MaxTRESPN=\n"
            "    MaxTRESMinsPJ=\n"
            "    MinPrioThresh=\n")
        want = (
            "Current Association Manager state\n"
            "\n"
            "User Records\n"
            "\n"
            "UserName=%s(%d) DefAccount=amgr DefWckey= AdminLevel=None\n"
            "\n"
            "Association Records\n"
            "\n"
            "ClusterName=sluice Account=amgr UserName= Partition= Priority=0 "
            "ID=@\n"
            "    SharesRaw/Norm/Level/Factor=1/@/2/@\n"
            "    UsageRaw/Norm/Efctv=@/@/@\n"
            "    ParentAccount=root(1) Lft=2 DefAssoc=No\n"
            "    GrpJobs=5(1) GrpJobsAccrue=N(0)\n"
            "    GrpSubmitJobs=N(2) GrpWall=N(@)\n"
            "    GrpTRES=%s\n" % (U1, uid, _tres("10(1)", "2000(0)", "N(1)",
                                               "N(1)"))
            + assoc_tail % (_tres(), _tres(run_mins, "N(0)", run_mins,
                                           run_mins), "") +
            "ClusterName=sluice Account=amgr UserName=%s(%d) Partition= "
            "Priority=0 ID=@\n"
            "    SharesRaw/Norm/Level/Factor=5/@/5/@\n"
            "    UsageRaw/Norm/Efctv=@/@/@\n"
            "    ParentAccount= Lft=3 DefAssoc=Yes\n"
            "    GrpJobs=N(1) GrpJobsAccrue=N(0)\n"
            "    GrpSubmitJobs=N(2) GrpWall=N(@)\n"
            "    GrpTRES=%s\n" % (U1, uid, _tres("N(1)", "N(0)", "N(1)",
                                               "N(1)"))
            + assoc_tail % (_tres(), _tres(run_mins, "N(0)", run_mins,
                                           run_mins), "7(2)") +
            "\n"
            "QOS Records\n"
            "\n"
            "QOS=amgrq(@)\n"
            "    UsageRaw=@\n"
            "    GrpJobs=4(1) GrpJobsAccrue=N(0) GrpSubmitJobs=N(2) "
            "GrpWall=N(@)\n"
            "    GrpTRES=%s\n"
            "    GrpTRESMins=%s\n"
            "    GrpTRESRunMins=%s\n"
            "    MaxWallPJ=30\n"
            "    MaxTRESPJ=\n"
            "    MaxTRESPN=\n"
            "    MaxTRESMinsPJ=\n"
            "    MinPrioThresh= \n"
            "    MinTRESPJ=\n"
            "    PreemptMode=OFF\n"
            "    Priority=10\n"
            "    Account Limits\n"
            "      amgr\n"
            "        MaxJobsPA=N(1) MaxJobsAccruePA=N(0) "
            "MaxSubmitJobsPA=N(2)\n"
            "        MaxTRESPA=%s\n"
            "    User Limits\n"
            "      %d\n"
            "        MaxJobsPU=N(1) MaxJobsAccruePU=N(0) "
            "MaxSubmitJobsPU=N(2)\n"
            "        MaxTRESPU=%s\n" % (
                _tres("N(1)", "N(0)", "N(1)", "N(1)"), _tres(),
                _tres(run_mins, "N(0)", run_mins, run_mins),
                _tres("N(1)", "N(0)", "N(1)", "N(1)"), uid,
                _tres("2(1)", "N(0)", "N(1)", "N(1)")))
        # @: ids and fair-share figures, which depend on the run
        pat = "".join(r"[0-9.]+" if p == "@" else re.escape(p)
                      for p in re.split("(@)", want))
        assert re.fullmatch(pat, r.out), r.out

        # filters and sections
        r = c.run(["scontrol", "show", "assoc_mgr", "users=" + U1,
                   "flags=users"])
        assert r.out == ("Current Association Manager state\n\n"
                         "User Records\n\n"
                         "UserName=%s(%d) DefAccount=amgr DefWckey= "
                         "AdminLevel=None\n" % (U1, uid)), r
        r = c.run(["scontrol", "show", "assoc_mgr", "a=amgr", "f=assoc"])
        assert re.findall(r"^ClusterName=\S+ Account=(\S+) UserName=(\S*) ",
                          r.out, re.M) == [
            ("amgr", ""), ("amgr", "%s(%d)" % (U1, uid))], r.out
        assert "User Records" not in r.out and "QOS" not in r.out, r.out
        r = c.run(["scontrol", "show", "assoc_mgr", "users=nosuch",
                   "accounts=nosuch", "qos=nosuch"])
        assert (r.rc, r.out) == (0, (
            "Current Association Manager state\n\n"
            "No users currently cached in Slurm.\n\n\n"
            "No associations currently cached in Slurm.\n\n\n"
            "No QOS currently cached in Slurm.\n\n")), r
        r = c.run(["scontrol", "show", "assoc_mgr", "qos=normal,amgrq",
                   "flags=QOS"])
        assert re.findall(r"^QOS=(\w+)\(", r.out, re.M) == [
            "normal", "amgrq"], r.out

        # bad input: Slurm 22.05's words and exit codes
        r = c.run(["scontrol", "show", "assoc_mgr", "flags=bogus"])
        assert (r.rc, r.out, r.err) == (0, "", (
            "invalid flag 'bogus', valid options are 'Assoc, QOS, and/or "
            "Users'\n")), r
        r = c.run(["scontrol", "show", "assoc_mgr", "users"])
        assert (r.rc, r.out, r.err) == (
            0, "", "No value given for option users\n"), r
        r = c.run(["scontrol", "show", "assoc_mgr", "foo=bar"])
        assert (r.rc, r.out, r.err) == (
            1, "", "invalid entity: foo=bar for keyword:show assoc_mgr\n"), r
    finally:
        for j in jids:
            c.run(["scancel", j])
        for j in jids:
            c.wait_done(j)
        env.sacctmgr("-i", "delete", "user", U1, "account=amgr")
        env.sacctmgr("-i", "delete", "account", "amgr")
        env.sacctmgr("-i", "delete", "qos", "amgrq")


def test_srun_debugger_test(env):
    """srun --debugger-test: every task is left stopped at its exec (as
    under a debugger that has not continued it yet) and srun prints the
    table a debugger reads, by task id: "srun: task:N, host:H, pid:P,
    executable:E" (Slurm 22.05's words, the executable as given), then
    waits like any srun until the tasks end or the job is cancelled.
    Before: "unrecognized option '--debugger-test'"."""
    import select
    import subprocess
    c = env.c
    pw = pwd.getpwnam(U1)
    p = subprocess.Popen(
        [c.bin("srun"), "--debugger-test", "-N2", "-n3", "sleep", "3519.3"],
        user=pw.pw_uid, group=pw.pw_gid,
        extra_groups=os.getgrouplist(U1, pw.pw_gid), env=c.env_for(U1),
        cwd=c.workdir(U1), stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    err = b""
    try:
        deadline = time.time() + 30
        while err.count(b"\n") < 3 and time.time() < deadline:
            r, _, _ = select.select([p.stderr], [], [], 1)
            if r:
                chunk = os.read(p.stderr.fileno(), 4096)
                assert chunk, "srun ended early: %r" % err
                err += chunk
        lines = err.decode().splitlines(keepends=True)
        assert len(lines) == 3, lines
        got = [re.fullmatch(r"srun: task:(\d), host:(n\d), pid:(\d+), "
                            r"executable:sleep\n", ln) for ln in lines]
        assert all(got), lines
        assert [m.group(1) for m in got] == ["0", "1", "2"], lines
        assert sorted(m.group(2) for m in got) == ["n1", "n1", "n2"], lines
        for m in got:
            pid = int(m.group(3))
            with open("/proc/%d/stat" % pid) as f:
                stat = f.read()
            assert "(sleep) T " in stat, stat      # stopped, at its exec
            with open("/proc/%d/cmdline" % pid) as f:
                assert f.read() == "sleep\0003519.3\0", pid
        # still stopped a moment later: nothing continued them
        time.sleep(1)
        assert p.poll() is None
        r = c.run(["squeue", "-h", "-u", U1, "-o", "%i %T"])
        jid = [ln.split()[0] for ln in r.out.splitlines()
               if ln.endswith("RUNNING")]
        assert len(jid) == 1, r.out
        assert c.run(["scancel", jid[0]]).rc == 0
        p.wait(timeout=30)
        for m in got:
            assert not cl._pid_alive(int(m.group(3)))
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def test_node_ranges_refused_by_their_minimum(new_cluster):
    """-N min-max with EnforcePartLimits=ALL: Slurm judges a range by its
    minimum (a maximum beyond the partition is only capped), after the
    CPU check -- Slurm 22.05 on 2 nodes of 2 CPUs (the oracle, same
    commands): -N3-5, -N3-5 -n3, -N3-5 -n4, -N3-4 --exclusive "Node count
    specification invalid"; -N2-5 -n5, -N1-3 -n5, -N3-5 -n5 "More
    processors requested than permitted"; -N1-5, -N2-3, -N1-3 -n4,
    -N1-5 -n4 accepted."""
    c = new_cluster(nodes=2, cpus=2, extra_conf="EnforcePartLimits=ALL")
    refused = {
        "-N3-5": "Node count specification invalid",
        "-N3-5 -n3": "Node count specification invalid",
        "-N3-5 -n4": "Node count specification invalid",
        "-N3-4 --exclusive": "Node count specification invalid",
        "-N2-5 -n5": "More processors requested than permitted",
        "-N1-3 -n5": "More processors requested than permitted",
        "-N3-5 -n5": "More processors requested than permitted",
    }
    got = {}
    for opts, text in refused.items():
        r = c.run(["sbatch", "--hold"] + opts.split() + ["--wrap", "true"],
                  user=U1)
        got[opts] = r.err
    assert got == {o: "sbatch: error: Batch job submission failed: %s\n" % t
                   for o, t in refused.items()}
    assert c.all_job_states() == {}
    for opts in ("-N1-5", "-N2-3", "-N1-3 -n4", "-N1-5 -n4"):
        r = c.run(["sbatch", "--hold"] + opts.split() + ["--wrap", "true"],
                  user=U1)
        assert r.rc == 0 and r.out.startswith("Submitted batch job "), (
            opts, r)


def test_node_ranges_pend_by_their_minimum(new_cluster):
    """Without EnforcePartLimits the same requests pend, the reason
    chosen as at submit: too many CPUs "PartitionConfig" first, then a
    minimum node count beyond the partition "PartitionNodeLimit" (Slurm
    22.05 on 2 nodes of 2 CPUs, the oracle: -N3-5, -N3, -N3-5 -n4,
    -N3-4 --exclusive PartitionNodeLimit; -N3-5 -n20, -N1-2 -n20, -n20
    PartitionConfig; -N1-5 runs)."""
    c = new_cluster(nodes=2, cpus=2)
    want = {
        "-N3-5": "PartitionNodeLimit",
        "-N3": "PartitionNodeLimit",
        "-N3-5 -n4": "PartitionNodeLimit",
        "-N3-4 --exclusive": "PartitionNodeLimit",
        "-N3-5 -n20": "PartitionConfig",
        "-N1-2 -n20": "PartitionConfig",
        "-n20": "PartitionConfig",
    }
    jids = {}
    for opts in want:
        jids[opts] = c.sbatch(opts.split() + ["-o", "/dev/null", "--wrap",
                                              "sleep 30"], user=U1)
    ok = c.sbatch(["-N1-5", "-o", "/dev/null", "--wrap", "sleep 30"],
                  user=U1)
    c.wait_state(ok, "RUNNING")
    deadline = time.time() + 20
    while True:
        got = {o: c.run(["squeue", "-h", "-j", str(j), "-o", "%r"]).out.strip()
               for o, j in jids.items()}
        if got == want or time.time() > deadline:
            break
        time.sleep(0.5)
    assert got == want


def test_alloc_beyond_the_partition_says_so(new_cluster):
    """srun and salloc asking what their partition cannot give (a -N
    range whose minimum is beyond it, more CPUs than it has): Slurm's
    answer says "Requested partition configuration not available now" --
    the reason behind PartitionNodeLimit/PartitionConfig, not "Requested
    nodes are busy".  With --immediate they give up at once in those
    words (salloc: "Job submit/allocate failed: ...", then the revoked
    line); without, they print it before "queued and waiting" and wait.
    Slurm 22.05 on 2 nodes of 2 CPUs, the oracle, same commands."""
    c = new_cluster(nodes=2, cpus=2)
    part = "Requested partition configuration not available now"
    for opts in ("-N3-5", "-N3-5 -n20", "-n20"):
        r = c.run(["srun", "-I"] + opts.split() + ["true"], user=U1)
        assert (r.rc, r.err) == (
            1, "srun: error: Unable to allocate resources: %s\n" % part), (
                opts, r)
        r = c.run(["salloc", "-I"] + opts.split() + ["true"], user=U1)
        assert r.rc == 1 and re.fullmatch(
            r"salloc: error: Job submit/allocate failed: %s\n"
            r"salloc: Job allocation \d+ has been revoked.\n" % part,
            r.err), (opts, r)
    assert c.all_job_states().get("PENDING") is None, c.all_job_states()
    # without: said, and they wait (until the run's timeout here)
    r = c.run(["srun", "-N3-5", "true"], user=U1, timeout=3)
    assert r.rc == -9 and re.fullmatch(
        r"srun: %s\nsrun: job (\d+) queued and waiting for resources\n"
        % part, r.err.split("\n[timed out")[0]), r
    r = c.run(["salloc", "-n20", "true"], user=U1, timeout=3)
    assert r.rc == -9 and re.fullmatch(
        r"salloc: %s\nsalloc: Pending job allocation (\d+)\n"
        r"salloc: job \1 queued and waiting for resources\n" % part,
        r.err.split("\n[timed out")[0]), r
    c.run(["scancel", "-u", U1])
    # a busy cluster is still "busy"
    jid = c.sbatch(["-N2", "--exclusive", "-o", "/dev/null", "--wrap",
                    "sleep 30"], user=U1)
    c.wait_state(jid, "RUNNING")
    r = c.run(["srun", "-I", "-N1-2", "true"], user=U1)
    assert r.err == ("srun: error: Unable to allocate resources: Requested "
                     "nodes are busy\n"), r


def test_overcommit(env):
    """-O/--overcommit (sbatch, srun, salloc) and SLURM_OVERCOMMIT: the
    job is sized as one task per node (NumCPUs=1 for -N1 -n30), its tasks
    share the CPUs, its steps may run more tasks than CPUs, and the job's
    environment says SLURM_OVERCOMMIT=1.  Slurm 22.05, 2-CPU nodes, the
    oracle: srun -N1 -n5 -O runs 5 tasks (without -O it cannot start);
    sbatch -O -n6 shows NumNodes=1 NumCPUs=1 NumTasks=6, OverSubscribe=OK,
    SLURM_CPUS_ON_NODE=1 SLURM_JOB_CPUS_PER_NODE=1 SLURM_NTASKS=6
    SLURM_TASKS_PER_NODE=6, its srun runs 6 tasks and srun -n3 3 with
    SLURM_OVERCOMMIT=1.  Before: "Requested node configuration is not
    available" (the option was ignored)."""
    c = env.c
    r = c.run(["srun", "-N1", "-n5", "-O", "hostname"], user=U1)
    assert r.rc == 0 and len(r.out.splitlines()) == 5, r
    r = c.run(["srun", "-N1", "-n5", "env"], user=U1,
              env={"SLURM_OVERCOMMIT": "1"})
    assert r.rc == 0, r
    assert r.out.count("SLURM_OVERCOMMIT=1\n") == 5, r.out
    assert r.out.count("SLURM_NTASKS=5\n") == 5, r.out
    script = ("env | grep -E '^SLURM_(OVERCOMMIT|NTASKS|CPUS_ON_NODE|"
              "NPROCS|TASKS_PER_NODE|JOB_CPUS_PER_NODE)=' | sort; "
              "echo steps; %s hostname | wc -l; "
              "%s -n3 env | grep -c '^SLURM_OVERCOMMIT=1$'"
              % (c.bin("srun"), c.bin("srun")))
    out = os.path.join(c.workdir(U1), "ovc.out")
    jid = str(c.sbatch(["-O", "-N1", "-n6", "--mem-per-cpu=10", "-o", out,
                        "--wrap", script], user=U1))
    job = c.show_job(jid)
    assert (job["NumNodes"], job["NumCPUs"], job["NumTasks"]) == (
        "1", "1", "6"), job
    assert job["OverSubscribe"] == "OK" and job["MinMemoryCPU"] == "10M", job
    r = c.run(["squeue", "-h", "-j", jid, "-O", "OverSubscribe,NumCPUs,"
               "NumTasks"])
    assert r.out.split() == ["OK", "1", "6"], r
    assert c.wait_done(jid) == "COMPLETED"
    with open(out) as f:
        text = f.read()
    assert text == ("SLURM_CPUS_ON_NODE=1\nSLURM_JOB_CPUS_PER_NODE=1\n"
                    "SLURM_NPROCS=6\nSLURM_NTASKS=6\nSLURM_OVERCOMMIT=1\n"
                    "SLURM_TASKS_PER_NODE=6\nsteps\n6\n3\n"), text
    # two nodes: the tasks in blocks over them, one CPU each
    r = c.run(["salloc", "-O", "-N2", "-n5", "sh", "-c",
               "echo $SLURM_OVERCOMMIT $SLURM_TASKS_PER_NODE "
               "$SLURM_JOB_CPUS_PER_NODE; %s printenv SLURMD_NODENAME | "
               "sort | uniq -c | awk '{print $1}'" % c.bin("srun")], user=U1)
    assert r.rc == 0, r
    assert r.out == "1 3,2 1(x2)\n3\n2\n", r
