"""Resumable jobs (issue 26): sbatch --checkpoint, scontrol checkpoint,
PreemptMode=CHECKPOINT, RequeueExit with the state kept, the SDK's
sluice.checkpoint, and CheckpointType=checkpoint/criu failing cleanly.

One node of 2 CPUs; partitions "low" (PriorityTier=1,
PreemptMode=CHECKPOINT) and "high" (PriorityTier=2) on it, preempt/
partition_prio, CheckpointWait=3, RequeueExit=85, slurmdbd for the
events (sacct --events).

The counting job keeps its count in memory (a shell variable), counts
to TARGET in 0.1 s steps and writes its count to $SLURM_CHECKPOINT_DIR
only when it is told to (SIGUSR2); at start it reads it back.  A run that
starts from the saved count and ends at TARGET proves that nothing was
lost across the checkpoint.
"""

import os
import re
import time

import pytest

import mariadb
from cluster import wait_for  # noqa: E402

U1, U2 = "sluice_u1", "sluice_u2"
TARGET = 60

CONF = "\n".join([
    "PreemptType=preempt/partition_prio",
    "PreemptMode=REQUEUE",
    "JobRequeue=1",
    "CheckpointWait=3",
    "RequeueExit=85",
    "PartitionName=low Nodes=n1 PriorityTier=1 PreemptMode=CHECKPOINT",
    "PartitionName=high Nodes=n1 PriorityTier=2",
])

# on USR2: save the count; then exit (ON_SIG=exit) or go on counting
# (ON_SIG=continue: the controller requeues it after CheckpointWait)
COUNTER = r"""#!/bin/bash
dir=$SLURM_CHECKPOINT_DIR
n=0
[ -f "$dir/count" ] && n=$(cat "$dir/count")
echo "start $n restarts=${SLURM_RESTART_COUNT:-0} dir=$dir"
save() { echo $n > "$dir/count.tmp" && mv "$dir/count.tmp" "$dir/count"; echo "saved $n"; }
trap 'save; [ "$ON_SIG" = exit ] && exit 0' USR2
while [ $n -lt %d ]; do n=$((n+1)); sleep 0.1; done
echo "done $n"
""" % TARGET


@pytest.fixture(scope="module")
def env(users):
    if mariadb.missing_tools():
        pytest.skip("no MariaDB: %s" % mariadb.missing_tools())
    e = mariadb.AcctEnv(tag="ckpt", nodes=1, cpus=2)
    e.c.extra_conf += "\n" + CONF
    try:
        e.start()
        r = e.sacctmgr("-i", "add", "cluster", "sluice")
        assert r.rc == 0, r
        e.start_cluster()
    except BaseException:
        e.stop()
        raise
    yield e
    e.finish()


@pytest.fixture(autouse=True)
def _clean(env):
    yield
    env.c.run(["scancel", "-u", U1])
    env.c.run(["scancel", "-u", U2])
    wait_for(lambda: not env.c.run(["squeue", "-h", "-o", "%i"]).out.strip(),
             30, "empty queue")


def counter(env, name, on_sig, *extra, part="low", ntasks=2):
    c = env.c
    home = c.workdir(U1)
    script = os.path.join(home, "%s.sh" % name)
    c.write_file(U1, script, COUNTER, mode=0o755)
    out = os.path.join(home, "%s-%%j.out" % name)
    jid = c.sbatch(["--checkpoint", "-p", part, "-n", str(ntasks), "-o", out,
                    "--open-mode=append",
                    "--export=ALL,ON_SIG=%s" % on_sig, *extra, script],
                   user=U1, cwd=home)
    return jid, out.replace("%j", str(jid))


def text(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def counted(path, at_least):
    """The output shows the job counting (it has run a while)."""
    time.sleep(at_least * 0.1 + 0.5)
    return "start" in text(path)


def squeue(c, jid, fmt):
    r = c.run(["squeue", "-h", "-t", "all", "-j", str(jid), "-o", fmt])
    assert r.rc == 0, r
    return r.out.strip()


def events(env, jid, n, timeout=30):
    """sacct --events rows (Name|Value) of jid, once there are n."""
    rows = []
    end = time.time() + timeout
    while time.time() < end:
        r = env.sacct("--events", "-j", str(jid), "-P", "-n",
                      "-o", "Kind,Name,Value", user=U1)
        assert r.rc == 0, r
        rows = [ln.split("|") for ln in r.out.splitlines() if ln]
        if len(rows) >= n:
            break
        time.sleep(0.5)
    return rows


def resumed(path):
    """(saved count, count the second run started from, final count)."""
    t = text(path)
    saved = [int(x) for x in re.findall(r"^saved (\d+)$", t, re.M)]
    starts = [int(x) for x in re.findall(r"^start (\d+) ", t, re.M)]
    done = [int(x) for x in re.findall(r"^done (\d+)$", t, re.M)]
    return saved, starts, done


def test_scontrol_checkpoint_frees_cpus_and_resumes(env):
    """The job's user checkpoints it: it saves and exits, is requeued
    (Restarts=1) holding nothing, another job runs on its CPUs, then it
    starts again from its saved count and finishes at TARGET."""
    c = env.c
    jid, out = counter(env, "ck", "exit")
    c.wait_state(jid, "RUNNING", 30)
    wait_for(lambda: counted(out, 10), 20, "counting")
    rec = c.show_job(jid)
    r = c.run(["scontrol", "checkpoint", str(jid)], user=U1)
    assert r.rc == 0 and r.err == "", r
    wait_for(lambda: squeue(c, jid, "%T") == "PENDING", 20, "requeued")
    assert c.show_job(jid)["Restarts"] == "1"
    # its CPUs are free: a 2-CPU job runs there while it waits
    other = c.sbatch(["-p", "low", "-n", "2", "--wrap", "sleep 4"], user=U1)
    c.wait_state(other, "RUNNING", 20)
    assert squeue(c, jid, "%T") == "PENDING"
    c.wait_state(jid, "RUNNING", 40)
    assert c.wait_done(jid, 60) == "COMPLETED"
    saved, starts, done = resumed(out)
    assert len(saved) == 1 and saved[0] > 0, text(out)
    assert starts == [0, saved[0]] and done == [TARGET], text(out)
    want_dir = os.path.join(rec["WorkDir"], ".sluice-checkpoint", str(jid))
    assert ("dir=%s" % want_dir) in text(out)
    assert "restarts=1" in text(out)
    rows = events(env, jid, 2)
    assert [r[:2] for r in rows] == [["event", "checkpoint"],
                                     ["event", "restart"]], rows
    assert "scontrol checkpoint by uid" in rows[0][2] and \
        "script exited 0" in rows[0][2], rows
    assert rows[1][2].startswith("from checkpoint 1 on n1"), rows


def test_preempt_mode_checkpoint(env):
    """A higher-tier job needs the node: the --checkpoint job is told,
    saves (and goes on), is requeued after CheckpointWait, the high job
    runs, and the low one then resumes from its saved count."""
    c = env.c
    jid, out = counter(env, "pre", "continue")
    c.wait_state(jid, "RUNNING", 30)
    wait_for(lambda: counted(out, 10), 20, "counting")
    high = c.sbatch(["-p", "high", "-n", "2", "--wrap", "sleep 3"], user=U2)
    wait_for(lambda: "saved" in text(out), 10, "the job saved on the signal")
    c.wait_state(high, "RUNNING", 20)
    assert squeue(c, jid, "%T") == "PENDING"
    assert c.show_job(jid)["Restarts"] == "1"
    assert c.wait_done(jid, 90) == "COMPLETED"
    saved, starts, done = resumed(out)
    assert saved and starts == [0, saved[0]] and done == [TARGET], text(out)
    rows = events(env, jid, 2)
    assert rows[0][1] == "checkpoint" and "preempted by JobId=%d" % high in \
        rows[0][2] and "time up" in rows[0][2], rows
    assert rows[1][1] == "restart", rows


def test_checkpoint_survives_a_controller_kill(env):
    """The checkpoint's deadline is saved with the job: a controller
    killed (kill -9) right after acknowledging `scontrol checkpoint` of a
    job that saves and goes on still requeues it at that deadline, and
    the job resumes from its save."""
    import signal
    c = env.c
    jid, out = counter(env, "kill", "continue")
    c.wait_state(jid, "RUNNING", 30)
    wait_for(lambda: counted(out, 10), 20, "counting")
    r = c.run(["scontrol", "checkpoint", str(jid)], user=U1)
    assert r.rc == 0, r
    c.kill_ctld(signal.SIGKILL)
    wait_for(lambda: "saved" in text(out), 10, "the job saved")
    c.start_ctld()
    c.wait_ready(timeout=30)
    wait_for(lambda: c.show_job(jid).get("Restarts") == "1", 30,
             "requeued after the restart")
    assert c.wait_done(jid, 90) == "COMPLETED"
    saved, starts, done = resumed(out)
    assert saved and starts == [0, saved[0]] and done == [TARGET], text(out)


def test_preempted_job_without_checkpoint_is_cancelled(env):
    """PreemptMode=CHECKPOINT cancels a job that cannot be checkpointed
    (as Slurm's CHECKPOINT mode did)."""
    c = env.c
    low = c.sbatch(["-p", "low", "-n", "2", "--wrap", "sleep 60"], user=U1)
    c.wait_state(low, "RUNNING", 30)
    high = c.sbatch(["-p", "high", "-n", "2", "--wrap", "sleep 1"], user=U2)
    c.wait_state(high, "RUNNING", 20)
    assert c.job_state(low) == "PREEMPTED"


def test_requeue_exit_keeps_the_state(env):
    """A --checkpoint job that saves and exits with RequeueExit's code
    (85) is requeued and resumes from what it saved."""
    c = env.c
    home = c.workdir(U1)
    script = os.path.join(home, "rx.sh")
    c.write_file(U1, script, "\n".join([
        "#!/bin/bash",
        'f="$SLURM_CHECKPOINT_DIR/n"',
        'n=$(cat "$f" 2>/dev/null || echo 0)',
        'echo "run from $n"',
        'if [ "$n" -lt 2 ]; then echo $((n+1)) > "$f"; exit 85; fi',
        'echo "finished at $n"', ""]), mode=0o755)
    out = os.path.join(home, "rx-%j.out")
    jid = c.sbatch(["--checkpoint", "--open-mode=append", "-o", out, script],
                   user=U1, cwd=home)
    assert c.wait_done(jid, 60) == "COMPLETED"
    t = text(out.replace("%j", str(jid)))
    assert "run from 2" in t and "finished at 2" in t, t
    assert c.show_job(jid)["Restarts"] == "2"


def test_refusals(env):
    """Each refusal names its cause and changes nothing."""
    c = env.c
    plain = c.sbatch(["-p", "low", "--wrap", "sleep 60"], user=U1)
    c.wait_state(plain, "RUNNING", 30)
    r = c.run(["scontrol", "checkpoint", str(plain)], user=U1)
    assert r.rc == 1 and ("job %d was not submitted with --checkpoint" %
                          plain) in r.err, r
    jid, out = counter(env, "ref", "exit", ntasks=1)
    c.wait_state(jid, "RUNNING", 30)
    r = c.run(["scontrol", "checkpoint", str(jid)], user=U2)
    assert r.rc == 1 and ("job %d is not yours" % jid) in r.err, r
    assert c.show_job(jid)["Restarts"] == "0"
    r = c.run(["scontrol", "checkpoint", "999999"], user=U1)
    assert r.rc == 1 and "Invalid job id specified" in r.err, r
    r = c.run(["srun", "--checkpoint", "true"], user=U1)
    assert r.rc == 1 and "only a batch job (sbatch --checkpoint)" in r.err, r
    time.sleep(1)
    assert c.job_state(jid) == "RUNNING" and c.job_state(plain) == "RUNNING"
    # root (an operator) may
    r = c.run(["scontrol", "checkpoint", str(jid)])
    assert r.rc == 0, r
    wait_for(lambda: squeue(c, jid, "%T") == "PENDING", 20, "requeued")
    r = c.run(["scontrol", "checkpoint", str(jid)], user=U1)
    assert r.rc == 1 and ("job %d is pending" % jid) in r.err, r


def test_criu_failure_is_a_plain_requeue(env):
    """CheckpointType=checkpoint/criu: CRIU cannot dump on this host
    (missing, or a kernel it does not support): the job is requeued as a
    plain requeue, resumes from what it saved itself, and the event says
    why CRIU failed."""
    c = env.c
    saved_conf = c.extra_conf
    c.extra_conf += "\nCheckpointType=checkpoint/criu"
    try:
        c.write_conf()
        r = c.run(["scontrol", "reconfigure"])
        assert r.rc == 0, r
        jid, out = counter(env, "criu", "exit")
        c.wait_state(jid, "RUNNING", 30)
        wait_for(lambda: counted(out, 5), 20, "counting")
        r = c.run(["scontrol", "checkpoint", str(jid)], user=U1)
        assert r.rc == 0, r
        assert c.wait_done(jid, 90) == "COMPLETED"
        saved, starts, done = resumed(out)
        assert saved and starts == [0, saved[0]] and done == [TARGET], \
            text(out)
        rows = events(env, jid, 3)
        names = [r[1] for r in rows]
        assert "checkpoint" in names and "restart" in names, rows
        fail = [r for r in rows if r[1] == "checkpoint_failed"]
        if not fail:
            assert "criu_dump" in names, rows    # a host where CRIU works
            return
        assert "CRIU could not checkpoint the job's processes (" in \
            fail[0][2] and "requeued as a plain requeue" in fail[0][2], rows
        assert "criu" in fail[0][2].lower(), rows
    finally:
        c.extra_conf = saved_conf
        c.write_conf()
        c.run(["scontrol", "reconfigure"])


def test_sdk_task_checkpoint(env):
    """@task(checkpoint=True): the function counts with its state in
    memory; Job.checkpoint() makes it save (sluice.checkpoint.save) and
    stop; the job is requeued, the function is called again, loads its
    state and returns a count that proves it resumed."""
    from test_sdk import Env
    e = Env(env.c, env)
    script = '''
        import time
        from sluice import checkpoint

        @task(time="5", partition="low", ntasks=1, cpus_per_task=2,
              checkpoint=True)
        def count(target):
            st = checkpoint.load({"n": 0, "runs": 0})
            st["runs"] += 1
            first = st["n"]
            while st["n"] < target:
                st["n"] += 1
                time.sleep(0.05)
                if checkpoint.requested():
                    checkpoint.save(st)
                    checkpoint.stop()
            return {"n": st["n"], "runs": st["runs"], "resumed_at": first,
                    "dir": checkpoint.directory()}

        job = count(80)
        while job.state() != "RUNNING":
            time.sleep(0.1)
        time.sleep(1.5)
        job.checkpoint()
        out(job.result(timeout=90))
        try:
            checkpoint.save({})
        except sluice.SluiceError as err:
            out(str(err))
    '''
    r, outs = e.run(script)
    assert r.rc == 0 and len(outs) == 2, r
    res = outs[0]
    assert res["n"] == 80 and res["runs"] == 2, res
    assert 0 < res["resumed_at"] < 80, res
    assert "/.sluice-checkpoint/" in res["dir"], res
    assert "SLURM_CHECKPOINT_DIR is not set" in outs[1], outs
