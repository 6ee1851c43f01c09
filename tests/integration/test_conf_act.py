"""slurm.conf keys that were parsed and printed but did nothing (issue 27):
each test sets a non-default value and looks for what a user sees.

  RequeueExit / RequeueExitHold / MaxBatchRequeue   batch job's exit code
  KillOnBadExit (srun -K overrides)                 a task's bad exit ends the step
  WaitTime (srun -W overrides)                      tasks killed after the first ends
  PropagateResourceLimits(Except), --propagate      the submitter's rlimits
  SrunProlog / SrunEpilog (srun --prolog/--epilog)  scripts srun runs
  MailDomain                                        the job's MailUser
  CompleteWait                                      no start while a job completes
  LLN (partition), CR_LLN                           least loaded node first
  TRESBillingWeights (partition)                    billing TRES of jobs
  MaxCPUsPerNode, ExclusiveUser (partition)         what may share a node
  MaxStepCount, MaxTasksPerNode                     step creation limits
"""

import os
import re
import time

import pytest

from conftest import _start, _stop
import cluster as cl

U = "sluice_u1"


# The srun script lives where every user may run it (the cluster's dir);
# it is written before slurm.conf names it, at the path the fixture picks.
SCRIPT = ("#!/bin/sh\n"
          "[ -n \"$HOME_OUT\" ] || exit 0\n"
          "echo \"$SLURM_SCRIPT_CONTEXT job=$SLURM_JOB_ID step=$SLURM_STEP_ID "
          "uid=$(id -u) args=$*\" >> \"$HOME_OUT/srun_script.log\"\n")


@pytest.fixture(scope="module")
def c(users):
    d = cl.tempfile.mkdtemp(prefix="sluice-it-confkeys-bin-")
    os.chmod(d, 0o755)
    script = os.path.join(d, "srun_script.sh")
    with open(script, "w") as f:
        f.write(SCRIPT)
    os.chmod(script, 0o755)
    c = _start(tag="confkeys", nodes=2,
               extra_conf="RequeueExit=3\nRequeueExitHold=4\n"
               "MaxBatchRequeue=1\nKillOnBadExit=1\nWaitTime=2\n"
               "PropagateResourceLimitsExcept=CORE\nMailDomain=example.edu\n"
               "MaxStepCount=3\nMaxTasksPerNode=3\n"
               "PartitionName=lln Nodes=ALL LLN=YES MaxTime=INFINITE\n"
               "PartitionName=bill Nodes=ALL MaxTime=INFINITE "
               "TRESBillingWeights=CPU=3.0,Mem=2G,Node=0.5\n"
               "PartitionName=mcpu Nodes=ALL MaxTime=INFINITE "
               "MaxCPUsPerNode=1\n"
               "PartitionName=xuser Nodes=ALL MaxTime=INFINITE "
               "ExclusiveUser=YES\n"
               "SrunProlog=%s\nSrunEpilog=%s\n" % (script, script))
    yield c
    _stop(c)
    cl.shutil.rmtree(d, ignore_errors=True)


def _out(c, name):
    return os.path.join(c.workdir(U), name)


def _read(path, timeout=20):
    cl.wait_for(lambda: os.path.exists(path) and open(path).read(),
                timeout=timeout, what=path)
    return open(path).read()


# ---- RequeueExit, RequeueExitHold, MaxBatchRequeue -------------------------

def test_requeue_exit_runs_the_job_again(c):
    out = _out(c, "rq3.out")
    jid = c.sbatch(["-o", out, "--wrap",
                    'echo "run ${SLURM_RESTART_COUNT:-0}"; '
                    '[ -n "$SLURM_RESTART_COUNT" ] || exit 3'], user=U)
    assert c.wait_done(jid, timeout=60) == "COMPLETED"
    rec = c.show_job(jid)
    assert rec["Restarts"] == "1", rec
    assert "run 1" in open(out).read()


def test_requeue_exit_hold_is_special_exit(c):
    jid = c.sbatch(["-o", "/dev/null", "--wrap", "exit 4"], user=U)
    c.wait_state(jid, "SPECIAL_EXIT", timeout=30)
    rec = c.show_job(jid)
    assert rec["Reason"] == "JobHeldUser", rec
    assert rec["Restarts"] == "1" and rec["ExitCode"] == "4:0", rec
    r = c.run(["squeue", "-h", "-j", str(jid), "-o", "%t %r"], user=U)
    assert r.out.split() == ["SE", "JobHeldUser"], r
    # the user may release it; it runs (and exits 4) again
    r = c.run(["scontrol", "release", str(jid)], user=U)
    assert r.rc == 0, r
    cl.wait_for(lambda: c.show_job(jid).get("Restarts") == "2", timeout=30,
                what="second run")
    c.run(["scancel", str(jid)])


def test_other_exit_codes_end_the_job(c):
    jid = c.sbatch(["-o", "/dev/null", "--wrap", "exit 5"], user=U)
    assert c.wait_done(jid, timeout=30) == "FAILED"
    assert c.show_job(jid)["Restarts"] == "0"


def test_max_batch_requeue_holds_the_job(c):
    jid = c.sbatch(["-o", "/dev/null", "--wrap", "exit 3"], user=U)
    # one automatic requeue is allowed (MaxBatchRequeue=1); the second
    # leaves it held
    cl.wait_for(lambda: c.show_job(jid).get("Reason") == "JobHoldMaxRequeue",
                timeout=60, what="JobHoldMaxRequeue")
    rec = c.show_job(jid)
    assert rec["JobState"] == "PENDING" and rec["Restarts"] == "2", rec
    assert rec["Priority"] == "0", rec
    c.run(["scancel", str(jid)])


def test_max_batch_requeue_counts_node_failures(c):
    """Requeues after a node failure count against MaxBatchRequeue too:
    the second leaves the job held JobHoldMaxRequeue."""
    jid = c.sbatch(["-o", "/dev/null", "--requeue", "-N1", "--wrap",
                    "sleep 300"], user=U)
    try:
        for restarts in (1, 2):
            c.wait_state(jid, ["RUNNING"], timeout=60)
            node = c.show_job(jid)["NodeList"]
            r = c.run(["scontrol", "update", "NodeName=" + node,
                       "State=DOWN", "Reason=test"])
            assert r.rc == 0, r.err
            cl.wait_for(lambda: c.show_job(jid)["Restarts"] ==
                        str(restarts), timeout=60, what="the requeue")
            r = c.run(["scontrol", "update", "NodeName=" + node,
                       "State=RESUME"])
            assert r.rc == 0, r.err
        cl.wait_for(lambda: c.show_job(jid).get("Reason") ==
                    "JobHoldMaxRequeue", timeout=60, what="the hold")
        rec = c.show_job(jid)
        assert rec["JobState"] == "PENDING" and rec["Priority"] == "0", rec
    finally:
        c.run(["scancel", str(jid)])


def test_bad_requeue_exit_is_refused(c):
    bad = os.path.join(c.dir, "etc", "bad_requeue.conf")
    with open(c.conf) as f:
        text = f.read()
    with open(bad, "w") as f:
        f.write(text.replace("RequeueExit=3", "RequeueExit=3,300"))
    os.chmod(bad, 0o644)
    r = c.run(["sbatch", "--wrap", "true"], user=U, conf=bad)
    assert r.rc != 0, r
    assert re.search(r"bad_requeue\.conf:\d+: RequeueExit: invalid exit "
                     r"code \"300\"", r.err), r


# ---- KillOnBadExit, WaitTime -----------------------------------------------

_BAD_TASK = 'if [ "$SLURM_PROCID" = 0 ]; then exit 7; fi; sleep 12; echo survived'


def test_kill_on_bad_exit_ends_the_step(c):
    t0 = time.time()
    r = c.run(["srun", "-N2", "-n2", "-W0", "sh", "-c", _BAD_TASK],
              user=U, timeout=60)
    assert time.time() - t0 < 10, r
    assert r.rc != 0 and "survived" not in r.out, r


def test_srun_K0_overrides_kill_on_bad_exit(c):
    r = c.run(["srun", "-N2", "-n2", "-K0", "-W0", "sh", "-c", _BAD_TASK],
              user=U, timeout=60)
    assert "survived" in r.out and r.rc == 7, r


def test_wait_time_kills_the_rest(c):
    t0 = time.time()
    r = c.run(["srun", "-N2", "-n2", "sh", "-c",
               'if [ "$SLURM_PROCID" = 0 ]; then exit 0; fi; sleep 12; '
               'echo survived'], user=U, timeout=60)
    assert time.time() - t0 < 10, r
    assert "survived" not in r.out, r
    assert "First task exited 2s ago" in r.err, r


# ---- PropagateResourceLimits -----------------------------------------------

def _limits_job(c, name, sbatch_args=()):
    out = _out(c, name)
    sb = c.bin("sbatch")
    cmd = ("ulimit -S -n 512; ulimit -S -c 1; exec %s -o %s %s --wrap "
           "'echo nofile=$(ulimit -n) core=$(ulimit -c); "
           "env | grep ^SLURM_RLIMIT_ || true'" % (
               sb, out, " ".join(sbatch_args)))
    r = c.run(["sh", "-c", cmd], user=U)
    assert r.rc == 0, r
    jid = int(r.out.split()[-1])
    assert c.wait_done(jid) == "COMPLETED"
    return open(out).read()


def test_limits_follow_the_job(c):
    got = _limits_job(c, "lim_conf.out")
    # NOFILE goes with the job; CORE is in PropagateResourceLimitsExcept
    assert "nofile=512 " in got, got
    assert "core=1\n" not in got, got
    assert "SLURM_RLIMIT_" not in got, got     # no task sees the variables


def test_propagate_option_picks_the_limits(c):
    got = _limits_job(c, "lim_opt.out", ["--propagate=CORE"])
    assert "core=1\n" in got, got
    assert "nofile=512 " not in got, got


def test_srun_propagates_limits(c):
    r = c.run(["sh", "-c", "ulimit -S -n 600; exec %s -N1 sh -c "
               "'ulimit -n; env | grep -c ^SLURM_RLIMIT_'" % c.bin("srun")],
              user=U)
    assert r.out.split() == ["600", "0"], r


def test_bad_propagate_is_refused(c):
    r = c.run(["sbatch", "--propagate=NOFILE,BOGUS", "--wrap", "true"],
              user=U)
    assert r.rc == 1, r
    assert "sbatch: error: --propagate=NOFILE,BOGUS is not valid." in r.err, r


# ---- SrunProlog, SrunEpilog ------------------------------------------------

def test_srun_prolog_and_epilog_run(c):
    log = _out(c, "srun_script.log")
    if os.path.exists(log):
        os.unlink(log)
    r = c.run(["srun", "-N1", "echo", "hello", "there"], user=U,
              env={"HOME_OUT": c.workdir(U)})
    assert r.rc == 0 and r.out == "hello there\n", r
    lines = _read(log).splitlines()
    assert len(lines) == 2, lines
    uid = str(cl.pwd.getpwnam(U).pw_uid)
    for line, ctx in zip(lines, ("prolog_srun", "epilog_srun")):
        m = re.fullmatch(r"(\S+) job=(\d+) step=(\d+) uid=(\d+) args=(.*)",
                         line)
        assert m and m.group(1) == ctx and m.group(4) == uid and \
            m.group(5) == "echo hello there", lines


def test_srun_prolog_failure_aborts_the_step(c):
    r = c.run(["srun", "-N1", "--prolog=/bin/false", "echo", "ran"], user=U,
              env={"HOME_OUT": c.workdir(U)})
    assert r.rc == 1 and "ran" not in r.out, r
    assert "srun: error: srun prolog failed rc = 1. Aborting step." in r.err, r


def test_srun_epilog_none(c):
    log = _out(c, "srun_script.log")
    if os.path.exists(log):
        os.unlink(log)
    r = c.run(["srun", "-N1", "--prolog=none", "--epilog=none", "true"],
              user=U, env={"HOME_OUT": c.workdir(U)})
    assert r.rc == 0, r
    assert not os.path.exists(log)


# ---- MailDomain -------------------------------------------------------------

def test_mail_domain_qualifies_the_user(c):
    a = c.sbatch(["-H", "--mail-type=END", "--wrap", "true"], user=U)
    b = c.sbatch(["-H", "--mail-type=END", "--mail-user=me@elsewhere.org",
                  "--wrap", "true"], user=U)
    r = c.run(["squeue", "-h", "-j", "%d,%d" % (a, b), "-O",
               "JobID:8,MailUser:40"], user=U)
    got = dict(l.split() for l in r.out.splitlines())
    assert got == {str(a): U + "@example.edu",
                   str(b): "me@elsewhere.org"}, r
    c.run(["scancel", str(a), str(b)])


# ---- LLN ----------------------------------------------------------------------

def _two_jobs_nodes(c, args):
    """Where two one-CPU jobs run, the second submitted once the first
    runs (cancelled after)."""
    nodes = []
    ids = []
    for _ in range(2):
        j = c.sbatch(list(args) + ["-n1", "-o", "/dev/null", "--wrap",
                                   "sleep 60"], user=U)
        ids.append(j)
        c.wait_state(j, "RUNNING", timeout=30)
        nodes.append(c.show_job(j)["NodeList"])
    c.run(["scancel"] + [str(j) for j in ids])
    return nodes


def _wait_idle(c):
    cl.wait_for(lambda: not c.run(["squeue", "-h"]).out.strip(), timeout=40,
                what="an empty queue")


def test_partition_lln_spreads(c):
    _wait_idle(c)
    assert _two_jobs_nodes(c, ["-p", "debug"]) == ["n1", "n1"]
    _wait_idle(c)
    assert _two_jobs_nodes(c, ["-p", "lln"]) == ["n1", "n2"]
    _wait_idle(c)


# ---- CompleteWait -----------------------------------------------------------

def test_complete_wait_holds_the_queue(new_cluster):
    d = cl.tempfile.mkdtemp(prefix="sluice-it-cwait-")
    os.chmod(d, 0o755)
    epilog = os.path.join(d, "epilog.sh")
    with open(epilog, "w") as f:
        f.write("#!/bin/sh\nsleep 6\n")
    os.chmod(epilog, 0o755)
    try:
        c = new_cluster(nodes=2, extra_conf="CompleteWait=30\nEpilog=%s\n"
                        % epilog, select_params="CR_Core,CR_LLN")
        # CR_LLN: the second one-CPU job goes to the idle node
        assert _two_jobs_nodes(c, []) == ["n1", "n2"]
        _wait_idle(c)
        a = c.sbatch(["-w", "n1", "-o", "/dev/null", "--wrap", "true"],
                     user=U)
        cl.wait_for(lambda: "CG" in c.run(
            ["squeue", "-h", "-j", str(a), "-o", "%t"]).out, timeout=30,
            what="job %d COMPLETING" % a)
        b = c.sbatch(["-w", "n2", "-o", "/dev/null", "--wrap", "true"],
                     user=U)
        # n2 is idle, but a job is completing: nothing starts
        time.sleep(3)
        assert c.job_state(b) == "PENDING", c.show_job(b)
        assert c.wait_done(b, timeout=40) == "COMPLETED"
        rec_a, rec_b = c.show_job(a), c.show_job(b)
        assert rec_a["JobState"] == "COMPLETED", rec_a
    finally:
        cl.shutil.rmtree(d, ignore_errors=True)


# ---- TRESBillingWeights -------------------------------------------------------

def test_billing_weights(c):
    r = c.run(["scontrol", "show", "partition", "bill"])
    # 4 CPUs * 3 + 2000 MB * 2/GB + 2 nodes * 0.5 = 16.9: billing is cut
    # to 16, as Slurm
    assert "TRES=cpu=4,mem=2000M,node=2,billing=16" in r.out, r
    assert "TRESBillingWeights=CPU=3.0,Mem=2G,Node=0.5" in r.out, r
    jid = c.sbatch(["-p", "bill", "-n2", "-N1", "--mem=512", "-o",
                    "/dev/null", "--wrap", "sleep 30"], user=U)
    c.wait_state(jid, "RUNNING")
    r = c.run(["scontrol", "show", "job", str(jid)])
    # 2 CPUs * 3 + 1 node * 0.5 (CR_Core: memory is not allocated)
    assert re.search(r"\bTRES=cpu=2,node=1,billing=6\b",
                     r.out), r.out
    c.run(["scancel", str(jid)])
    # without weights billing is the CPU count
    jid = c.sbatch(["-p", "debug", "-n2", "-N1", "--mem=512", "-o",
                    "/dev/null", "--wrap", "sleep 30"], user=U)
    c.wait_state(jid, "RUNNING")
    r = c.run(["scontrol", "show", "job", str(jid)])
    assert re.search(r"\bTRES=cpu=2,node=1,billing=2\b",
                     r.out), r.out
    c.run(["scancel", str(jid)])


def test_bad_billing_weights_are_refused(c):
    bad = os.path.join(c.dir, "etc", "bad_billing.conf")
    with open(c.conf) as f:
        text = f.read()
    with open(bad, "w") as f:
        f.write(text.replace("TRESBillingWeights=CPU=3.0,Mem=2G,Node=0.5",
                             "TRESBillingWeights=CPU=3.0,Licenses=2")
                .replace(os.path.join(c.dir, "state"),
                         c.mkdir_for(None, os.path.join(c.dir, "state2"))))
    os.chmod(bad, 0o644)
    r = cl.subprocess.run([c.bin("slurmctld"), "-D", "-f", bad],
                          capture_output=True, text=True, timeout=30)
    assert r.returncode != 0, r
    assert "PartitionName=bill: TRESBillingWeights: invalid entry " \
        "\"Licenses=2\"" in r.stderr, r


# ---- MaxCPUsPerNode, ExclusiveUser ----------------------------------------------

def _sleep_job(c, user, args):
    return c.sbatch(list(args) + ["-n1", "-o", "/dev/null", "--wrap",
                                  "sleep 60"], user=user)


def test_max_cpus_per_node(c):
    _wait_idle(c)
    ids = [_sleep_job(c, U, ["-p", "mcpu"]) for _ in range(3)]
    for j in ids[:2]:
        c.wait_state(j, "RUNNING", timeout=30)
    # one CPU of each node for the partition: the third waits, though
    # each node has a CPU free (the debug partition may use it)
    time.sleep(2)
    assert c.show_job(ids[2])["JobState"] == "PENDING"
    assert sorted(c.show_job(j)["NodeList"] for j in ids[:2]) == ["n1", "n2"]
    other = _sleep_job(c, U, ["-p", "debug"])
    c.wait_state(other, "RUNNING", timeout=30)
    c.run(["scancel", str(ids[0])])
    c.wait_state(ids[2], "RUNNING", timeout=30)
    c.run(["scancel"] + [str(j) for j in ids + [other]])
    _wait_idle(c)


def test_exclusive_user(c):
    U2 = "sluice_u2"
    _wait_idle(c)
    a = _sleep_job(c, U, ["-p", "xuser", "-w", "n1"])
    c.wait_state(a, "RUNNING", timeout=30)
    # the same user's may share n1
    same = _sleep_job(c, U, ["-p", "debug", "-w", "n1"])
    c.wait_state(same, "RUNNING", timeout=30)
    # another user's job may not, from any partition
    b = _sleep_job(c, U2, ["-p", "debug", "-w", "n1"])
    time.sleep(2)
    assert c.show_job(b)["JobState"] == "PENDING", c.show_job(b)
    d = _sleep_job(c, U2, ["-p", "xuser"])
    c.wait_state(d, "RUNNING", timeout=30)
    assert c.show_job(d)["NodeList"] == "n2"
    c.run(["scancel", str(a), str(same)])
    c.wait_state(b, "RUNNING", timeout=40)
    c.run(["scancel", str(b), str(d)])
    _wait_idle(c)


# ---- MaxStepCount, MaxTasksPerNode ------------------------------------------------

def test_max_step_count(c):
    out = _out(c, "steps.out")
    jid = c.sbatch(["-N1", "-o", out, "--wrap",
                    "for i in 1 2 3 4; do %s -n1 echo step$i; done; true"
                    % c.bin("srun")], user=U)
    assert c.wait_done(jid, timeout=60) == "COMPLETED"
    got = open(out).read()
    # steps 0, 1 and 2; the fourth is refused
    assert "step1\nstep2\nstep3\n" in got and "step4" not in got, got
    assert "Step limit reached for this job" in got, got


def test_max_tasks_per_node(c):
    r = c.run(["srun", "-N1", "-n4", "-O", "true"], user=U)
    assert r.rc != 0, r
    assert "Task count specification invalid" in r.err, r
    r = c.run(["srun", "-N1", "-n3", "-O", "true"], user=U)
    assert r.rc == 0, r
