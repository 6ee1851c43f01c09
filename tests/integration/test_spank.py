"""SPANK plugins: plugstack.conf, the allocator context in sbatch and the
remote context in slurmstepd, driven with the suite's test plugin
(tests/spank/demo_spank.c, built as <build>/tests/spank/demo_spank.so).

The cluster's plugstack.conf sits next to its slurm.conf (the default
PlugStackConfig); each test writes the lines it needs.
"""

import os
import pwd
import re
import shutil
import signal
import time

import pytest

import cluster as cl
from conftest import _start, _stop

BATCH_STEP = 0xfffffffb


def _test_plugin(name):
    build = os.environ.get("SLUICE_BUILD_DIR", os.path.join(cl.REPO, "build"))
    path = os.path.join(build, "tests", "spank", name)
    return path if os.path.exists(path) else None


@pytest.fixture(scope="module")
def spank_cluster(users):
    src = _test_plugin("demo_spank.so")
    static = _test_plugin("static_spank.so")
    if not src or not static:
        pytest.skip("test plugins not built (tests/spank)")
    c = _start(tag="spank", nodes=2)
    # test users must be able to dlopen it (the build tree may be 0700)
    plugdir = os.path.join(c.dir, "spank")
    os.makedirs(plugdir, exist_ok=True)
    os.chmod(plugdir, 0o755)
    shutil.copy(src, os.path.join(plugdir, "demo_spank.so"))
    os.chmod(os.path.join(plugdir, "demo_spank.so"), 0o755)
    c.spank_so = os.path.join(plugdir, "demo_spank.so")
    shutil.copy(static, os.path.join(plugdir, "static_spank.so"))
    os.chmod(os.path.join(plugdir, "static_spank.so"), 0o755)
    c.static_so = os.path.join(plugdir, "static_spank.so")
    c.plugstack = os.path.join(c.dir, "etc", "plugstack.conf")
    yield c
    _stop(c)


def plugstack(c, text):
    with open(c.plugstack, "w") as f:
        f.write(text)
    os.chmod(c.plugstack, 0o644)


def job_output(c, user, jobid, name):
    path = os.path.join(c.workdir(user), name)
    with open(path) as f:
        return f.read()


def env_of(text):
    env = {}
    for line in text.splitlines():
        k, sep, v = line.partition("=")
        if sep:
            env[k] = v
    return env


SCRIPT = """#!/bin/sh
#SBATCH --output=%s
env
"""


def run_job(c, args, script, out, user="sluice_u1"):
    c.write_file(user, os.path.join(c.workdir(user), "job.sh"), script, 0o755)
    jobid = c.sbatch(args + ["job.sh"], user=user)
    assert c.wait_done(jobid) == "COMPLETED", c.show_job(jobid)
    return env_of(job_output(c, user, jobid, out))


# ---- bad inputs first --------------------------------------------------

def test_required_plugin_failing_init_stops_sbatch(spank_cluster):
    c = spank_cluster
    plugstack(c, "required %s fail_init\n" % c.spank_so)
    r = c.run(["sbatch", "--wrap", "true"], user="sluice_u1")
    assert r.rc == 1, r
    assert "sbatch: error: spank: required plugin demo_spank.so: init() " \
        "failed with rc=-1" in r.err, r
    assert "sbatch: error: Failed to initialize plugin stack" in r.err, r
    assert "Submitted batch job" not in r.out


def test_missing_required_plugin_stops_sbatch(spank_cluster):
    c = spank_cluster
    plugstack(c, "# comment\n\nrequired /nonexistent/x.so\n")
    r = c.run(["sbatch", "--wrap", "true"], user="sluice_u1")
    assert r.rc == 1, r
    assert re.search(r"spank: .*plugstack.conf:3: Failed to load plugin "
                     r"/nonexistent/x.so. Aborting.", r.err), r
    assert "Failed to initialize plugin stack" in r.err


def test_bad_plugstack_line_is_ignored(spank_cluster):
    """As Slurm: the line is named and skipped, the rest still loads."""
    c = spank_cluster
    plugstack(c, "bogus line\nrequired %s\n" % c.spank_so)
    r = c.run(["sbatch", "--demo-opt=x", "--wrap", "true"], user="sluice_u1")
    assert r.rc == 0, r
    assert re.search(r"sbatch: error: spank: \S*plugstack.conf:1: Invalid "
                     r"line. Ignoring.", r.err), r


def test_missing_optional_plugin_is_skipped(spank_cluster):
    c = spank_cluster
    plugstack(c, "optional /nonexistent/y.so\n")
    r = c.run(["sbatch", "--wrap", "true"], user="sluice_u1")
    assert r.rc == 0, r
    assert re.search(r"spank: \S*plugstack.conf:1:Failed to load optional "
                     r"plugin /nonexistent/y.so. Ignored.", r.err), r


def test_invalid_option_argument(spank_cluster):
    c = spank_cluster
    plugstack(c, "required %s\n" % c.spank_so)
    r = c.run(["sbatch", "--demo-opt=fail", "--wrap", "true"],
              user="sluice_u1")
    assert r.rc != 0, r
    assert "Invalid --demo-opt argument: fail" in r.err, r


def test_optional_plugin_failing_init_is_ignored(spank_cluster):
    c = spank_cluster
    plugstack(c, "optional %s fail_init\n" % c.spank_so)
    jobid = c.sbatch(["--wrap", "true"], user="sluice_u1")
    assert c.wait_done(jobid) == "COMPLETED"


def test_unknown_option_without_plugin(spank_cluster):
    c = spank_cluster
    plugstack(c, "")
    r = c.run(["sbatch", "--demo-opt=x", "--wrap", "true"], user="sluice_u1")
    assert r.rc == 255, r
    assert "unrecognized option" in r.err, r


# ---- the allocator context --------------------------------------------

def test_help_lists_plugin_options(spank_cluster):
    c = spank_cluster
    plugstack(c, "required %s\n" % c.spank_so)
    r = c.run(["sbatch", "--help"])
    assert r.rc == 0, r
    block = r.out.split("Options provided by plugins:\n", 1)
    assert len(block) == 2, r.out
    line = block[1].splitlines()[0]
    assert line == "%-30s%s" % ("      --demo-opt=ARG",
                               "Demo option handled by demo_spank (test "
                               "plugin)"), repr(line)
    assert r.out.index("Options provided by plugins:") < \
        r.out.index("Help options:")


def test_help_without_plugins_is_unchanged(spank_cluster):
    c = spank_cluster
    plugstack(c, "")
    r = c.run(["sbatch", "--help"])
    assert r.rc == 0 and "Options provided by plugins" not in r.out


def test_static_option_table(spank_cluster):
    c = spank_cluster
    plugstack(c, "optional %s\nrequired %s\n" % (c.spank_so, c.static_so))
    r = c.run(["sbatch", "--help"])
    assert r.rc == 0, r
    block = r.out.split("Options provided by plugins:\n", 1)[1]
    block = block.split("\nHelp options:", 1)[0]
    assert "      --static-flag           Set STATIC_SPANK_FLAG in the task\n" \
        in block, block
    assert "      --static-level=N        Optional level for the task\n" \
        in block, block
    # too long for the 30-column field: alone on its line, after a blank
    assert "\n\n      --static-option-with-a-rather-long-name=VALUE\n" \
        "                              A long option name, printed on its own line in\n" \
        "                              --help, its usage wrapped over more than one line\n" \
        in block, block
    env = run_job(c, ["--static-flag", "--static-level"],
                  SCRIPT % "static.out", "static.out")
    assert env.get("STATIC_SPANK_FLAG") == "1", env
    assert env.get("STATIC_SPANK_LEVEL") == "default", env
    assert env.get(
        "SLURM_SPANK__SLURM_SPANK_OPTION_static_spank_static_flag") == ""
    script = "#!/bin/sh\n#SBATCH --output=lvl.out\n#SBATCH --static-level=3\nenv\n"
    env = run_job(c, [], script, "lvl.out")
    assert env.get("STATIC_SPANK_LEVEL") == "3", env
    assert "STATIC_SPANK_FLAG" not in env


def test_option_on_command_line_reaches_task(spank_cluster):
    c = spank_cluster
    plugstack(c, "required %s\n" % c.spank_so)
    env = run_job(c, ["--demo-opt=cli"], SCRIPT % "cli.out", "cli.out")
    assert env.get("DEMO_SPANK_OPT") == "cli", env
    assert env.get("DEMO_SPANK_OPT_REMOTE") == "1"
    assert env.get(
        "SLURM_SPANK__SLURM_SPANK_OPTION_demo_spank_demo_opt") == "cli"
    assert env.get("SLURM_SPANK_DEMO_JC") == "cli"


def test_option_in_sbatch_directive(spank_cluster):
    c = spank_cluster
    plugstack(c, "required %s\n" % c.spank_so)
    script = "#!/bin/sh\n#SBATCH --output=dir.out\n#SBATCH --demo-opt=fromscript\nenv\n"
    env = run_job(c, [], script, "dir.out")
    assert env.get("DEMO_SPANK_OPT") == "fromscript", env


def test_option_precedence_and_env(spank_cluster):
    c = spank_cluster
    plugstack(c, "required %s\n" % c.spank_so)
    script = "#!/bin/sh\n#SBATCH --output=prec.out\n#SBATCH --demo-opt=script\nenv\n"
    var = "SLURM_SPANK__SLURM_SPANK_OPTION_demo_spank_demo_opt"
    c.write_file("sluice_u1", os.path.join(c.workdir("sluice_u1"), "p.sh"),
                 script, 0o755)
    r = c.run(["sbatch", "p.sh"], user="sluice_u1", env={var: "fromenv"})
    jobid = int(r.out.split()[-1])
    assert c.wait_done(jobid) == "COMPLETED"
    env = env_of(job_output(c, "sluice_u1", jobid, "prec.out"))
    assert env.get("DEMO_SPANK_OPT") == "fromenv", env
    r = c.run(["sbatch", "--demo-opt=cmd", "p.sh"], user="sluice_u1",
              env={var: "fromenv"})
    jobid = int(r.out.split()[-1])
    assert c.wait_done(jobid) == "COMPLETED"
    env = env_of(job_output(c, "sluice_u1", jobid, "prec.out"))
    assert env.get("DEMO_SPANK_OPT") == "cmd", env


# ---- the remote context -------------------------------------------------

def test_remote_callbacks_items_env_and_argv(spank_cluster):
    c = spank_cluster
    plugstack(c, "required %s prepend\n" % c.spank_so)
    pw = pwd.getpwnam("sluice_u1")
    uid, gid = pw.pw_uid, pw.pw_gid
    env = run_job(c, ["--demo-opt=items", "--mem=100"], SCRIPT % "items.out",
                  "items.out")
    jobid = int(env["SLURM_JOB_ID"])
    assert env.get("DEMO_SPANK_WRAPPED") == "1", env   # prepended argv
    assert env.get("DEMO_SPANK_USER_INIT") == str(uid)  # user_init as user
    assert env.get("DEMO_SPANK_PRIV_EUID") == "0"       # still root there
    assert env.get("DEMO_SPANK_NO_OVERWRITE") == "ok"
    items = dict(kv.split("=", 1) for kv in env["DEMO_SPANK_ITEMS"].split())
    assert items["uid"] == str(uid) and items["gid"] == str(gid), items
    assert items["job"] == str(jobid)
    assert int(items["step"], 16) == BATCH_STEP
    assert items["nnodes"] == "1" and items["nodeid"] == "0"
    assert items["ltasks"] == "1" and items["ttasks"] == "1"
    assert items["task"] == "0" and items["gtask"] == "0"
    assert items["pid"] == "self" and items["env"] == "yes"
    assert items["version"] == "25.05.0"
    assert int(items["ncpus"]) >= 1
    # the items of the batch step: --mem per node, one core, the task's
    # ids mapped both ways, the version in parts, the user's groups
    assert items["mem"] == "100" and items["stepmem"] == "100", items
    assert items["jobcores"] == "0" and items["stepcores"] == "0", items
    assert items["cpt"] == "1", items
    assert (items["major"], items["minor"], items["micro"]) == \
        ("25", "05", "0"), items
    assert items["ngids"] == str(len(os.getgrouplist("sluice_u1", gid)))
    assert items["gidin"] == "1", items
    assert (items["pid2g"], items["pid2l"], items["l2g"], items["g2l"]) == \
        ("0", "0", "0", "0"), items
    assert items["l2gpast"] == "noexist", items
    log = "\n".join(c.log_text(n) for n in c.node_names)
    for cb in ("init ctx=2 remote=1", "init_post_opt ctx=2 opt=items",
               "task_post_fork pid=", "task_exit status=0", "exit ctx=2",
               "job_prolog ctx=5 job=%d uid=%d jc=items" % (jobid, uid)):
        assert "demo_spank: " + cb in log, cb
    # the epilog runs once the controller ends the job on the node
    deadline = time.time() + 20
    want = "demo_spank: job_epilog ctx=5 job=%d uid=%d jc=items" % (jobid,
                                                                     uid)
    while want not in log and time.time() < deadline:
        time.sleep(0.2)
        log = "\n".join(c.log_text(n) for n in c.node_names)
    assert want in log


def test_prepended_command_found_in_path(spank_cluster):
    c = spank_cluster
    plugstack(c, "required %s prepend_path\n" % c.spank_so)
    env = run_job(c, [], SCRIPT % "path.out", "path.out")
    assert env.get("DEMO_SPANK_WRAPPED") == "path", env


def test_required_plugin_failing_task_init_fails_job(spank_cluster):
    c = spank_cluster
    plugstack(c, "required %s fail_task_init\n" % c.spank_so)
    jobid = c.sbatch(["--wrap", "true"], user="sluice_u1")
    assert c.wait_done(jobid) == "FAILED"
    plugstack(c, "optional %s fail_task_init\n" % c.spank_so)
    jobid = c.sbatch(["--wrap", "true"], user="sluice_u1")
    assert c.wait_done(jobid) == "COMPLETED"


# ---- srun (local context, and the remote context of its steps) ----------

TASK = ('echo "T $SLURM_PROCID|$DEMO_SPANK_OPT|$DEMO_SPANK_OPT_REMOTE|'
        '$DEMO_SPANK_WRAPPED|$DEMO_SPANK_USER_INIT|$DEMO_SPANK_PRIV_EUID|'
        '$DEMO_SPANK_ITEMS"')


def cpu_ids(text):
    """"0-1,3" -> [0, 1, 3]"""
    ids = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        ids += range(int(lo), int(hi or lo) + 1)
    return ids


def test_srun_local_and_remote_contexts(spank_cluster):
    """srun --demo-opt: the local context runs init, init_post_opt and
    local_user_init (with the job items Slurm gives it there, and no
    others); each task of the step runs with the option's value, the
    prepended argv, user_init's variable and its own task ids."""
    c = spank_cluster
    plugstack(c, "required %s prepend\n" % c.spank_so)
    uid = pwd.getpwnam("sluice_u1").pw_uid
    r = c.run(["srun", "-v", "-N2", "-n3", "--mem=50", "--demo-opt=viasrun",
               "sh", "-c",
               TASK], user="sluice_u1")
    assert r.rc == 0, r
    # (init runs before -v is read: its verbose line is not shown)
    for cb in ("init_post_opt ctx=1 opt=viasrun getopt=1", "exit ctx=1"):
        assert "srun: demo_spank: " + cb in r.err, (cb, r.err)
    m = re.search(r"srun: demo_spank: local_user_init job=(\d+) step=0 "
                  r"nnodes=2 ttasks=3 argv0=sh nodeid=not_remote "
                  r"opt=viasrun", r.err)
    assert m, r.err
    jobid = int(m.group(1))
    rows = sorted(l[2:].split("|") for l in r.out.splitlines()
                  if l.startswith("T "))
    assert [row[0] for row in rows] == ["0", "1", "2"], r.out
    seen_local = set()
    for gtid, opt, remote, wrapped, user_init, priv, items in rows:
        assert (opt, remote, wrapped) == ("viasrun", "1", "1"), rows
        assert (user_init, priv) == (str(uid), "0"), rows
        it = dict(kv.split("=", 1) for kv in items.split())
        assert it["job"] == str(jobid) and int(it["step"], 16) == 0, it
        assert it["gtask"] == gtid and it["ttasks"] == "3", it
        assert it["nnodes"] == "2" and it["pid"] == "self", it
        assert it["pid2g"] == gtid and it["pid2l"] == it["task"], it
        assert it["l2g"] == gtid and it["g2l"] == it["task"], it
        assert it["l2gpast"] == "noexist", it
        assert it["cpt"] == "1" and it["mem"] == "50", it
        assert it["stepmem"] == "50" and it["gidin"] == "1", it
        assert (it["major"], it["minor"], it["micro"]) == ("25", "05", "0")
        # this node's CPU ids, as many as the node's tasks (-c1)
        assert len(cpu_ids(it["stepcores"])) == int(it["ltasks"]), it
        assert it["jobcores"] == it["stepcores"], it
        seen_local.add((it["nodeid"], it["task"], it["ltasks"]))
    # block layout: node 0 runs tasks 0,1 (local 0,1), node 1 task 2
    assert seen_local == {("0", "0", "2"), ("0", "1", "2"),
                          ("1", "0", "1")}, seen_local


def test_srun_help_lists_plugin_option(spank_cluster):
    c = spank_cluster
    plugstack(c, "required %s\n" % c.spank_so)
    r = c.run(["srun", "--help"], user="sluice_u1")
    assert r.rc == 0 and "--demo-opt=ARG" in r.out, r
    r = c.run(["srun", "--demo-opt=fail", "true"], user="sluice_u1")
    assert r.rc != 0 and "Invalid --demo-opt argument: fail" in r.err, r


def test_srun_required_plugin_failures(spank_cluster):
    c = spank_cluster
    plugstack(c, "required %s fail_init\n" % c.spank_so)
    r = c.run(["srun", "true"], user="sluice_u1")
    assert r.rc == 1, r
    assert "srun: error: Plug-in initialization failed" in r.err, r
    # failing only on the nodes: the launch fails, the step ends at once
    # (its CPUs are not held), and the allocation goes on
    plugstack(c, "")
    r = c.run(["salloc", "-N1", "--no-shell"], user="sluice_u1")
    assert r.rc == 0, r
    jobid = re.search(r"Granted job allocation (\d+)", r.err).group(1)
    try:
        plugstack(c, "required %s fail_remote_init\n" % c.spank_so)
        r = c.run(["srun", "--jobid=" + jobid, "true"], user="sluice_u1")
        assert r.rc != 0, r
        plugstack(c, "")
        r = c.run(["srun", "--jobid=" + jobid, "-I5", "echo", "ok"],
                  user="sluice_u1", timeout=30)
        assert (r.rc, r.out) == (0, "ok\n"), r
        r = c.run(["squeue", "-h", "-s", "-j", jobid, "-o", "%i"])
        assert r.out.split() == [], r
    finally:
        c.run(["scancel", jobid])


def test_salloc_option_reaches_steps(spank_cluster):
    """salloc's allocator context registers the option; its value goes to
    the command, whose sruns carry it to their tasks."""
    c = spank_cluster
    plugstack(c, "required %s\n" % c.spank_so)
    r = c.run(["salloc", "-v", "-N1", "--demo-opt=viasalloc",
               c.bin("srun"), "sh", "-c",
               'echo "got=$DEMO_SPANK_OPT remote=$DEMO_SPANK_OPT_REMOTE"'],
              user="sluice_u1")
    assert r.rc == 0, r
    assert "got=viasalloc remote=1" in r.out, r
    for cb in ("init_post_opt ctx=3 opt=viasalloc", "exit ctx=3"):
        assert "salloc: demo_spank: " + cb in r.err, (cb, r.err)
    r = c.run(["salloc", "--help"], user="sluice_u1")
    assert "--demo-opt=ARG" in r.out, r


def test_slurmd_context(spank_cluster):
    """slurmd runs its plugins' init (S_CTX_SLURMD) at start and
    slurmd_exit when it stops; a required plugin failing there stops
    slurmd with Slurm's fatal message."""
    c = spank_cluster
    plugstack(c, "required %s\n" % c.spank_so)
    c.kill_slurmd("n1", signal.SIGTERM)
    off = len(c.log_text("n1"))
    c.start_slurmd("n1")
    # the controller may still think n1 idle: wait for the log line itself
    deadline = time.time() + 30
    while "demo_spank: init ctx=4 remote=0" not in c.log_text("n1")[off:] \
            and time.time() < deadline:
        time.sleep(0.2)
    assert "demo_spank: init ctx=4 remote=0" in c.log_text("n1")[off:]
    c.wait_ready(timeout=60)
    c.kill_slurmd("n1", signal.SIGTERM)
    assert "demo_spank: slurmd_exit ctx=4" in c.log_text("n1")[off:]
    plugstack(c, "required %s fail_init\n" % c.spank_so)
    off = len(c.log_text("n1"))
    d = c.start_slurmd("n1")
    assert d.popen.wait(timeout=30) != 0
    assert "fatal: Failed to initialize plugin stack" in \
        c.log_text("n1")[off:]
    c.stop_daemon(d)
    plugstack(c, "")
    c.start_slurmd("n1")
    c.wait_ready(timeout=60)


def test_required_job_prolog_failure_fails_launch(spank_cluster):
    """Last in the file: the node is drained afterwards.  A required
    plugin failing in job_prolog is a prolog failure, handled as Slurm
    does: the node drained ("Prolog error"), the job requeued held."""
    c = spank_cluster
    plugstack(c, "required %s fail_job_prolog\n" % c.spank_so)
    jobid = c.sbatch(["-w", "n2", "--wrap", "true"], user="sluice_u1")
    end = time.time() + 60
    # requeued (Restarts=1) while its node still cleans up (COMPLETING),
    # then pending held
    while time.time() < end and (c.show_job(jobid).get("Restarts") != "1" or
                                 c.job_state(jobid) != "PENDING"):
        time.sleep(0.3)
    text = c.run(["scontrol", "show", "job", str(jobid)]).out
    assert "JobState=PENDING Reason=launch_failed_requeued_held " in text, text
    assert "spank: required plugin demo_spank.so: job_prolog() failed" in \
        c.log_text("n2")
    r = c.run(["sinfo", "-R", "-h", "-o", "%E|%N"])
    assert "Prolog error|n2" in r.out, r
    c.run(["scancel", str(jobid)])

