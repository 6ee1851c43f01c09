"""Bad input gets Slurm's message and exit code and changes nothing.

Expected texts are Slurm's, as captured from a real Slurm (see
/work/shared/oracle/ref/*.txt on the development machine); they are
written out here so the suite runs anywhere.
"""

import os
import re
import subprocess

import pytest

import cluster as cl

USER = "sluice_u1"

NO_SHEBANG = ("sbatch: error: This does not look like a batch script.  The first\n"
              "sbatch: error: line must start with #! followed by the path to an interpreter.\n"
              "sbatch: error: For instance: #!/bin/sh\n")
BAD_STATE = ("squeue: error: Invalid job state specified: bogus\n"
             "squeue: error: Valid job states include: PENDING,RUNNING,SUSPENDED,"
             "COMPLETED,CANCELLED,FAILED,TIMEOUT,NODE_FAIL,PREEMPTED,BOOT_FAIL,"
             "DEADLINE,OUT_OF_MEMORY,COMPLETING,CONFIGURING,RESIZING,RESV_DEL_HOLD,"
             "REQUEUED,REQUEUE_FED,REQUEUE_HOLD,REVOKED,SIGNALING,SPECIAL_EXIT,"
             "STAGE_OUT,STOPPED\n\n")
SINFO_HEADER = "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST\n"

# (id, argv, stdin, stdout, stderr, exit)
CASES = [
    ("sbatch_unknown_option", ["sbatch", "--bogus", "--wrap", "true"], None, "",
     "sbatch: unrecognized option '--bogus'\n"
     "Try \"sbatch --help\" for more information\n", 255),
    ("sbatch_bad_time", ["sbatch", "--time=abc", "--wrap", "true"], None, "",
     "sbatch: error: Invalid --time specification\n", 255),
    ("sbatch_bad_mem", ["sbatch", "--mem=abc", "--wrap", "true"], None, "",
     "sbatch: error: Invalid --mem specification\n", 255),
    ("sbatch_no_shebang", ["sbatch", "noshebang.sh"], None, "", NO_SHEBANG, 1),
    ("sbatch_missing_script", ["sbatch", "/nonexistent/job.sh"], None, "",
     "sbatch: error: Unable to open file /nonexistent/job.sh\n", 1),
    ("sbatch_empty_stdin", ["sbatch"], "", "",
     "sbatch: error: Batch script is empty!\n", 1),
    ("scancel_nonexistent", ["scancel", "999999"], None, "", "", 0),
    ("scancel_bad_id", ["scancel", "abc"], None, "",
     "scancel: error: Invalid job id abc\n", 1),
    ("scontrol_show_job_nonexistent", ["scontrol", "show", "job", "999999"], None,
     "", "slurm_load_jobs error: Invalid job id specified\n", 1),
    ("squeue_j_nonexistent", ["squeue", "-j", "999999"], None, "",
     "slurm_load_jobs error: Invalid job id specified\n", 1),
    ("squeue_bad_state", ["squeue", "-t", "bogus"], None, "", BAD_STATE, 1),
    ("scontrol_show_node_nonexistent", ["scontrol", "show", "node", "nosuch"], None,
     "Node nosuch not found\n", "", 1),
    ("scontrol_show_partition_nonexistent",
     ["scontrol", "show", "partition", "nosuch"], None,
     "Partition nosuch not found\n", "", 1),
    ("sinfo_p_nonexistent", ["sinfo", "-p", "nosuch"], None, SINFO_HEADER, "", 0),
    # Slurm's exit statuses for option errors: 255, but 1 for a malformed
    # number (as Slurm 22.05's srun, salloc and sbatch give them)
    ("srun_unknown_option", ["srun", "--bogus", "true"], None, "",
     "srun: unrecognized option '--bogus'\n"
     "Try \"srun --help\" for more information\n", 255),
    ("srun_bad_time", ["srun", "--time=abc", "true"], None, "",
     "srun: error: Invalid --time specification\n", 255),
    ("srun_bad_ntasks", ["srun", "-n", "abc", "true"], None, "",
     "srun: error: Invalid numeric value \"abc\" for --ntasks.\n", 1),
    ("salloc_unknown_option", ["salloc", "--bogus", "true"], None, "",
     "salloc: unrecognized option '--bogus'\n"
     "Try \"salloc --help\" for more information\n", 255),
    ("salloc_bad_signal", ["salloc", "--signal=bogus", "true"], None, "",
     "salloc: error: Invalid --signal specification\n", 255),
    ("salloc_bad_immediate", ["salloc", "--immediate=x", "true"], None, "",
     "salloc: error: Invalid numeric value \"x\" for immediate.\n", 1),
    ("sbatch_bad_ntasks", ["sbatch", "-n", "abc", "--wrap", "true"], None, "",
     "sbatch: error: Invalid numeric value \"abc\" for --ntasks.\n", 1),
    ("sbatch_bad_switches", ["sbatch", "--switches=x", "--wrap", "true"],
     None, "", "sbatch: error: Invalid numeric value \"x\" for --switches.\n",
     1),
    ("sbatch_bad_distribution",
     ["sbatch", "-m", "block:bogus", "--wrap", "true"], None, "",
     "sbatch: error: Invalid --distribution specification\n", 255),
    ("sbatch_bad_get_user_env", ["sbatch", "--get-user-env=x", "--wrap", "true"],
     None, "", "sbatch: error: Invalid --get-user-env specification\n", 255),
    ("sbatch_bad_open_mode", ["sbatch", "--open-mode=x", "--wrap", "true"],
     None, "", "sbatch: error: Invalid --open-mode specification\n", 255),
    ("srun_bad_exclusive", ["srun", "--exclusive=x", "true"], None, "",
     "srun: error: Invalid --exclusive specification\n", 255),
    ("srun_bad_hint", ["srun", "--hint=x", "true"], None, "",
     "srun: error: unrecognized --hint argument \"x\", see --hint=help\n", 1),
    ("srun_bad_wait", ["srun", "-W", "x", "true"], None, "",
     "srun: error: Invalid numeric value \"x\" for --wait.\n", 1),
    ("scancel_bad_state", ["scancel", "-t", "bogus"], None, "",
     "Invalid job state specified: bogus\n"
     "Valid job states are PENDING, RUNNING, and SUSPENDED\n", 1),
    ("scancel_bad_user", ["scancel", "-u", "nosuchuser"], None, "",
     "scancel: error: Invalid user name: nosuchuser\n", 1),
    ("scontrol_show_bogus", ["scontrol", "show", "bogus"], None, "",
     "invalid entity:bogus for keyword:show \n", 1),
    ("scontrol_create_bogus", ["scontrol", "create", "bogus"], None, "",
     "scontrol: error: Invalid creation entity: bogus\n", 1),
    ("scontrol_create_partition_unnamed", ["scontrol", "create", "partition"],
     None, "", "scontrol: error: Invalid input: partition  Request aborted\n",
     1),
    ("srun_bad_relative", ["srun", "-r", "x", "true"], None, "",
     "srun: error: Invalid numeric value \"x\" for --relative.\n", 1),
]

# Input variables with a bad value stop the command as the option would
# (Slurm 22.05's sbatch, salloc and srun: the option's error and status)
ENV_CASES = [
    ("SBATCH_TIMELIMIT", "bogus", ["sbatch", "--wrap", "true"],
     "sbatch: error: Invalid --time specification\n", 255),
    ("SBATCH_DISTRIBUTION", "bogus", ["sbatch", "--wrap", "true"],
     "sbatch: error: Invalid --distribution specification\n", 255),
    ("SBATCH_OPEN_MODE", "x", ["sbatch", "--wrap", "true"],
     "sbatch: error: Invalid --open-mode specification\n", 255),
    ("SALLOC_TIMELIMIT", "x", ["salloc", "true"],
     "salloc: error: Invalid --time specification\n", 255),
    ("SLURM_TIMELIMIT", "bogus", ["srun", "true"],
     "srun: error: Invalid --time specification\n", 255),
    ("SLURM_DISTRIBUTION", "bogus", ["srun", "true"],
     "srun: error: Invalid --distribution specification\n", 255),
    ("SLURM_KILL_BAD_EXIT", "x", ["srun", "true"],
     "srun: error: Invalid numeric value \"x\" for --kill-on-bad-exit.\n", 1),
    ("SLURM_WAIT", "x", ["srun", "true"],
     "srun: error: Invalid numeric value \"x\" for --wait.\n", 1),
]


@pytest.mark.parametrize("case", ENV_CASES, ids=[x[0] for x in ENV_CASES])
def test_bad_input_variable(cluster, busy, case):
    c = cluster
    var, val, argv, err, rc = case
    before = queue(c)
    r = c.run(argv, user=USER, env={var: val})
    assert (r.out, r.err, r.rc) == ("", err, rc), r
    assert queue(c) == before


def queue(c):
    r = c.run(["squeue", "-h", "-t", "all", "-o", "%i %T %j %u"])
    assert r.rc == 0, r
    return sorted(r.out.splitlines())


@pytest.fixture(scope="module")
def busy(cluster):
    """A queue with something in it, so 'no change' means something."""
    c = cluster
    c.write_file(USER, os.path.join(c.workdir(USER), "noshebang.sh"), "echo hi\n")
    held = c.sbatch(["-J", "keepme", "--hold", "--wrap", "true"], user=USER)
    run = c.sbatch(["-J", "runner", "--wrap", "/usr/bin/sleep 600"], user=USER)
    c.wait_state(run, "RUNNING", 30)
    return held, run


@pytest.mark.parametrize("case", CASES, ids=[x[0] for x in CASES])
def test_bad_input(cluster, busy, case):
    c = cluster
    name, argv, stdin, out, err, rc = case
    before = queue(c)
    r = c.run(argv, user=USER, input=stdin if stdin is not None else None)
    assert (r.out, r.err, r.rc) == (out, err, rc), r
    assert queue(c) == before


def test_sbatch_bad_partition(cluster, busy):
    c = cluster
    before = queue(c)
    r = c.run(["sbatch", "-p", "nosuch", "--wrap", "true"], user=USER)
    last = "sbatch: error: Batch job submission failed: Invalid partition name specified\n"
    # Slurm 22.05 also printed "invalid partition specified: nosuch" first.
    assert r.err in (last, "sbatch: error: invalid partition specified: nosuch\n" + last), r
    assert (r.out, r.rc) == ("", 1), r
    assert queue(c) == before


def test_scancel_nonexistent_verbose(cluster, busy):
    c = cluster
    r = c.run(["scancel", "-v", "999999"], user=USER)
    assert r.rc == 0, r
    lines = r.err.splitlines()
    assert "scancel: error: Kill job error on job id 999999: Invalid job id specified" \
        in lines, r
    assert r.out == ""


def write_bad_conf(c, key="BogusKey=1"):
    """A copy of the cluster's slurm.conf with an unknown key at a known
    line, its own state/log/port so that nothing is shared; returns
    (path, line number, log path)."""
    d = c.mkdir_for(None, os.path.join(c.dir, "badconf"))
    port = cl.free_ports(1)[0]
    text = c.conf_text()
    text = text.replace(os.path.join(c.dir, "state"), os.path.join(d, "state"))
    text = text.replace(c.ctld_log, os.path.join(d, "slurmctld.log"))
    text = text.replace(os.path.join(c.dir, "run"), d)
    text = text.replace("SlurmctldPort=%d" % c.ctld_port, "SlurmctldPort=%d" % port)
    lines = text.splitlines()
    lines.insert(5, key)
    path = os.path.join(d, "slurm.conf")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path, 6, os.path.join(d, "slurmctld.log")


def run_daemon_expect_exit(argv, conf, timeout=15):
    env = dict(os.environ, SLURM_CONF=conf)
    p = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        return None, out, err
    return p.returncode, out, err


def names_file_line_key(text, path, line, key):
    return path in text and re.search(r"\b%d\b" % line, text) and key in text


def test_slurmctld_unknown_key_exits(cluster):
    c = cluster
    path, line, log = write_bad_conf(c)
    rc, out, err = run_daemon_expect_exit([c.bin("slurmctld"), "-D"], path)
    logtext = open(log).read() if os.path.exists(log) else ""
    assert rc is not None, "slurmctld kept running with an unknown key in slurm.conf"
    assert rc != 0, (rc, out, err)
    text = out + err + logtext
    assert names_file_line_key(text, path, line, "BogusKey"), \
        "message does not name %s:%d and the key: %r" % (path, line, text[-2000:])
    # The running cluster is not affected.
    assert c.run(["squeue"]).rc == 0


def test_slurmd_unknown_key_exits(cluster):
    c = cluster
    path, line, _ = write_bad_conf(c, key="AnotherBogusKey=yes")
    rc, out, err = run_daemon_expect_exit([c.bin("slurmd"), "-D", "-N", "n1"], path)
    assert rc is not None and rc != 0, (rc, out, err)
    logs = ""
    for n in c.node_names:
        logs += c.log_text(n)[-4000:]
    assert "AnotherBogusKey" in out + err + logs, (out, err)


def test_command_unknown_key_fails(cluster):
    c = cluster
    path, line, _ = write_bad_conf(c, key="ThirdBogusKey=2")
    r = c.run(["squeue"], user=USER, conf=path)
    assert r.rc != 0, r
    assert r.err.startswith("squeue: "), r
    assert names_file_line_key(r.err, path, line, "ThirdBogusKey"), r
    r = c.run(["sbatch", "--wrap", "true"], user=USER, conf=path)
    assert r.rc != 0 and r.out == "", r


def test_srun_without_slurm_conf(cluster, tmp_path):
    """No slurm.conf where SLURM_CONF points: the error, not a crash."""
    missing = str(tmp_path / "none" / "slurm.conf")
    r = cluster.run(["srun", "true"], conf=missing)
    assert r.rc == 1, r
    assert "srun: error: " in r.err and "slurm.conf" in r.err, r


def test_queue_intact_after_bad_input(cluster, busy):
    c = cluster
    held, run = busy
    assert c.job_state(held) == "PENDING"
    assert c.job_state(run) == "RUNNING"
    ok = c.sbatch(["--wrap", "true"], user=USER)
    assert c.wait_done(ok, 30) == "COMPLETED"
    assert ok > run
