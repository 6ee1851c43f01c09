"""Job profiling (issue 26, AcctGatherProfileType=acct_gather_profile/
slurmdbd): a job submitted with --profile=task gets a time series of its
steps' usage, sampled by slurmstepd every --acctg-freq task=N seconds,
stored by slurmdbd and read back by `sacct --profile` (table, -P,
--json), slurmrestd's /sluice/v1/job/{id}/profile and the SDK's
Job.profile().  A step that allocates memory in stages shows a rising
RSS; an unprofiled job has no samples; another user sees none of them;
bad --profile / --acctg-freq values are refused with nothing queued.

The cluster is test_sdk.py's (its `env` fixture: 2 nodes of 32 CPUs,
slurmdbd, slurmrestd with auth/jwt, JobAcctGatherType=jobacct_gather/
linux, AcctGatherProfileType=acct_gather_profile/slurmdbd).
"""

import json
import os
import time
import urllib.request

import pytest

from jwt_util import token_of
from test_sdk import U, env, ok  # noqa: F401  (env: the module fixture)

U2 = "sluice_u2"

# Grows by 40 MB a second for 5 seconds, touching every page, then holds.
GROW = ("import time\n"
        "keep = []\n"
        "for i in range(5):\n"
        "    keep.append(bytearray(40 * 1024 * 1024))\n"
        "    for j in range(0, len(keep[-1]), 4096):\n"
        "        keep[-1][j] = 1\n"
        "    time.sleep(1)\n"
        "time.sleep(1.5)\n")


def need_acct(env):
    if not env.acct:
        pytest.skip("no MariaDB: no accounting")


def sacct(env, *args, user=U):
    r = env.c.run(["sacct", "--profile"] + list(args), user=user)
    assert r.rc == 0, r
    return r.out


def wait_samples(env, job, n, timeout=60, steps=()):
    """sacct --profile --json rows of job once there are n (and rows of
    each of steps)."""
    rows = []
    end = time.time() + timeout
    while time.time() < end:
        rows = json.loads(sacct(env, "-j", str(job), "--json"))["profile"]
        if len(rows) >= n and set(steps) <= {r["step"] for r in rows}:
            break
        time.sleep(0.5)
    return rows


def submit_grow(env, *opts):
    path = env.home + "/grow_%d.py" % int(time.time() * 1000)
    env.c.write_file(U, path, GROW)
    r = env.c.run(["sbatch", "--parsable", "-t", "5"] + list(opts) +
                  ["--wrap", "%s /usr/bin/python3 %s" % (env.c.bin("srun"), path)],
                  user=U, cwd=env.home)
    assert r.rc == 0, r
    return int(r.out.split(";")[0])


def rest_get(env, path, user):
    req = urllib.request.Request(
        env.rest_url + path,
        headers={"X-SLURM-USER-TOKEN": token_of(env.c, user)})
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.loads(resp.read())


def test_profiled_step_rss_rises(env):
    """--profile=task --acctg-freq=task=1: step 0's samples come back in
    time order with RSS rising by the ~200 MB the step allocates, CPU
    time never falling; the table, -P and --json agree; squeue --json
    shows the job's profile; REST returns the same rows; another user
    (sacct and REST) sees none; an unprofiled job beside it has none."""
    need_acct(env)
    job = submit_grow(env, "--profile=task", "--acctg-freq=task=1")
    plain = submit_grow(env)
    js = json.loads(env.c.run(["squeue", "--json", "-j", str(job)],
                              user=U).out)
    assert js["jobs"][0]["profile"] == ["TASK"], js["jobs"][0]["profile"]
    env.c.wait_done(job, timeout=90)
    env.c.wait_done(plain, timeout=90)
    assert env.c.job_state(job) == "COMPLETED", env.c.run(
        ["cat", "%s/slurm-%d.out" % (env.home, job)], user=U)

    rows = wait_samples(env, job, 5, steps={"0", "batch"})
    steps = [r for r in rows if r["step"] == "0"]
    assert len(steps) >= 5, rows
    assert all(r["job_id"] == job for r in rows)
    times = [r["time"] for r in steps]
    assert times == sorted(times), times
    cpu = [r["cpu_time"] for r in steps]
    assert cpu == sorted(cpu) and cpu[-1] > 0, cpu
    rss = [r["rss"] for r in steps]
    # the first sample sees the interpreter; the peak all five buffers
    assert max(rss) - rss[0] >= 100 * 1024, rss
    peak = rss.index(max(rss))
    assert rss[:peak + 1] == sorted(rss[:peak + 1]), rss
    assert all(r["node"].startswith("n") and r["tasks"] in (0, 1)
               for r in steps), steps
    assert all(r["vmsize"] >= r["rss"] for r in steps if r["tasks"])
    assert all(r["cpu_utilization"] >= 0 for r in steps)

    table = sacct(env, "-j", str(job))
    lines = table.splitlines()
    assert lines[0].split() == ["JobID", "Step", "Node", "Time", "CPUUtil",
                                "CPUTime", "RSS", "VMSize", "ReadBytes",
                                "WriteBytes"], table
    assert len(lines) == 2 + len(rows), table
    parsable = sacct(env, "-j", "%d.0" % job, "-P", "-n",
                     "-o", "JobID,Step,RSS")
    assert [ln.split("|") for ln in parsable.splitlines()] == \
        [[str(job), "0", "%dK" % r["rss"]] for r in steps], parsable
    # the batch script (here: srun's own process) has its own rows
    batch = sacct(env, "-j", "%d.batch" % job, "-n", "-P", "-o", "Step")
    assert batch.split() == ["batch"] * len(
        [r for r in rows if r["step"] == "batch"]) and batch, batch

    rest = rest_get(env, "/sluice/v1/job/%d/profile" % job, U)
    assert rest["errors"] == [] and rest["profile"] == rows

    # another user: nothing through sacct or REST, whatever PrivateData
    assert sacct(env, "-j", str(job), "-n", "-P", user=U2) == ""
    assert rest_get(env, "/sluice/v1/job/%d/profile" % job,
                    U2)["profile"] == []
    # an operator (root) sees them
    r = env.c.run(["sacct", "--profile", "-j", str(job), "-n", "-P"])
    assert r.rc == 0 and len(r.out.splitlines()) == len(rows), r

    # the unprofiled job: its steps ran as long, no samples were kept
    assert wait_samples(env, plain, 1, timeout=3) == []


def test_batch_script_profiled(env):
    """sbatch --profile=task of a script that does the work itself (no
    srun): the batch step's samples (step "batch") show its RSS rising."""
    need_acct(env)
    path = env.home + "/grow_batch.py"
    env.c.write_file(U, path, GROW)
    r = env.c.run(["sbatch", "--parsable", "-t", "5", "--profile=task",
                   "--acctg-freq=task=1", "--wrap",
                   "/usr/bin/python3 %s" % path], user=U, cwd=env.home)
    assert r.rc == 0, r
    job = int(r.out.strip().split(";")[0])
    env.c.wait_done(job, timeout=90)
    assert env.c.job_state(job) == "COMPLETED"
    rows = wait_samples(env, job, 5)
    assert {r["step"] for r in rows} == {"batch"}, rows
    rss = [r["rss"] for r in rows]
    assert len(rss) >= 5 and max(rss) - rss[0] >= 100 * 1024, rss
    # the last row: the script has ended, its CPU time is the total
    assert rows[-1]["tasks"] == 0 and rows[-1]["cpu_time"] > 0, rows[-1]


def test_sdk_job_profile(env):
    """@task(profile="task", acctg_freq="task=1"): the function's batch
    step is sampled and Job.profile() (local and rest backends) returns
    its samples; a task without profile= returns []."""
    need_acct(env)
    r, outs = env.run('''
        @task(time="5", profile="task", acctg_freq="task=1")
        def grow():
            import time
            keep = []
            for i in range(4):
                keep.append(bytearray(50 * 1024 * 1024))
                for j in range(0, len(keep[-1]), 4096):
                    keep[-1][j] = 1
                time.sleep(1)
            time.sleep(1.5)
            return len(keep)

        @task(time="5")
        def plain():
            return 1

        j, p = grow(), plain()
        out(j.job_id)
        out([j.result(timeout=120), p.result(timeout=120)])
        import time
        for _ in range(60):
            rows = j.profile()
            if len(rows) >= 4:
                break
            time.sleep(0.5)
        out([x["rss"] for x in j.profile(step="batch")])
        out(p.profile())
    ''')
    job, results, rss, plain = ok(r, outs, 4)
    assert results == [4, 1]
    assert len(rss) >= 4 and max(rss) - rss[0] >= 100 * 1024, rss
    assert plain == []

    # the rest backend: the same rows, and a profiled task submitted
    # through slurmrestd (profile, account_gather_frequency)
    r, outs = env.run('''
        out([x["rss"] for x in cluster._backend.profile(%d)])

        @task(time="5", profile="task", acctg_freq="task=1")
        def busy():
            import time
            end = time.time() + 3
            while time.time() < end:
                pass
            return 2

        j = busy()
        out(j.result(timeout=120))
        import time
        for _ in range(60):
            rows = j.profile()
            if len(rows) >= 2:
                break
            time.sleep(0.5)
        out([x["cpu_utilization"] for x in rows])
    ''' % job, cluster=env.cluster_line(backend_type="rest",
                                        url=env.rest_url))
    rest_rss, two, util = ok(r, outs, 3)
    assert rest_rss == rss and two == 2
    # a busy loop: CPU used in every sample (how much depends on what
    # else the test host runs)
    assert len(util) >= 2 and max(util) > 5, util


@pytest.mark.parametrize("opt,why", [
    ("--profile=lustre", "not supported"),
    ("--profile=network", "not supported"),
    ("--profile=bogus", "is not one of"),
    ("--profile=task,", "empty item"),
    ("--acctg-freq=task=x", "is not <datatype>=<seconds"),
    ("--acctg-freq=disk=5", "is not one of task, energy"),
])
def test_bad_options_refused(env, opt, why):
    """A --profile or --acctg-freq Sluice cannot honour is refused by
    sbatch with the reason; nothing is queued."""
    before = env.queue()
    r = env.c.run(["sbatch", "--parsable", opt, "--wrap", "true"], user=U)
    assert r.rc != 0 and why in r.err, r
    assert env.queue() == before


def squeue_json(env, job):
    r = env.c.run(["squeue", "--json", "-j", str(job)], user=U)
    assert r.rc == 0 and r.out, r
    return json.loads(r.out)


def test_profile_flags_accepted(env):
    """--profile=all / energy,task / none are taken (squeue --json
    shows them); SLURM_PROFILE is read as sbatch's input variable."""
    want = {"all": ["ENERGY", "TASK"], "energy,task": ["ENERGY", "TASK"],
            "none": ["NONE"]}
    for spec, flags in want.items():
        r = env.c.run(["sbatch", "--parsable", "-H", "--profile=" + spec,
                       "--wrap", "true"], user=U)
        assert r.rc == 0, r
        job = r.out.strip().split(";")[0]
        js = squeue_json(env, job)
        assert js["jobs"][0]["profile"] == flags, (spec, js["jobs"][0])
        env.c.run(["scancel", job])
    r = env.c.run(["sbatch", "--parsable", "-H", "--wrap", "true"], user=U,
                  env={"SBATCH_PROFILE": "task"})
    assert r.rc == 0, r
    job = r.out.strip().split(";")[0]
    js = squeue_json(env, job)
    assert js["jobs"][0]["profile"] == ["TASK"]
    env.c.run(["scancel", job])


def test_hdf5_and_influxdb_refused(env):
    """Slurm's hdf5 and influxdb profile stores are refused when slurm.conf
    is read, saying why; the commands run nothing."""
    with open(env.c.conf) as f:
        text = f.read()
    for store in ("hdf5", "influxdb"):
        path = env.c.conf + "." + store
        with open(path, "w") as f:
            f.write(text.replace("acct_gather_profile/slurmdbd",
                                 "acct_gather_profile/" + store))
        os.chmod(path, 0o644)
        r = env.c.run(["sinfo"], conf=path)
        assert r.rc == 1, r
        assert ("AcctGatherProfileType=acct_gather_profile/%s: not "
                "supported: Slurm's hdf5 and influxdb stores are not built; "
                "Sluice keeps job profiles in slurmdbd" % store) in r.err, r


def test_profile_type_none_says_no_effect(new_cluster):
    """Without AcctGatherProfileType (acct_gather_profile/none) a
    --profile=task job is queued and sbatch says the option has no
    effect; a job without it says nothing."""
    c = new_cluster(nodes=1)
    r = c.run(["sbatch", "-H", "--profile=task", "--wrap", "true"], user=U)
    assert r.rc == 0 and "Submitted batch job" in r.out, r
    assert "--profile=Task has no effect: AcctGatherProfileType is " \
        "acct_gather_profile/none" in r.err, r
    r = c.run(["sbatch", "-H", "--wrap", "true"], user=U)
    assert r.rc == 0 and "no effect" not in r.err, r


def test_schema_13_upgrade_keeps_samples_flowing(env):
    """A database of schema version 12 (no profile_table) is upgraded in
    place when slurmdbd starts ("to schema version 13"); profiled jobs'
    samples are stored and read back afterwards.  (Last: it restarts
    slurmdbd.)"""
    need_acct(env)
    a = env.acct
    a.db.sql("DROP TABLE profile_table; "
             "DELETE FROM schema_version WHERE version >= 13", db=a.db.db)
    a.restart_dbd()
    assert "to schema version 13" in a.dbd_log_text()
    cols = a.db.sql(
        "SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE "
        "TABLE_SCHEMA='%s' AND TABLE_NAME='profile_table'" % a.db.db
    ).stdout.split()
    assert {"id_job", "id_step", "node", "time_sample", "cpu_usec",
            "cpu_util", "rss_kb", "vsize_kb", "read_bytes", "write_bytes",
            "energy_j"} <= set(cols), cols
    job = submit_grow(env, "--profile=task", "--acctg-freq=task=1")
    env.c.wait_done(job, timeout=90)
    rows = wait_samples(env, job, 5)
    assert len(rows) >= 5 and max(r["rss"] for r in rows) > 100 * 1024, rows


def test_srun_in_allocation_says_job_wide(env):
    """srun --profile / --acctg-freq inside an allocation: the step is
    profiled as its job is, and srun says so (nothing dropped
    silently)."""
    r = env.c.run(["sbatch", "--parsable", "-t", "2", "-o", "prof-%j.out",
                   "--wrap", "%s --profile=task --acctg-freq=task=2 true"
                   % env.c.bin("srun")], user=U, cwd=env.home)
    assert r.rc == 0, r
    job = int(r.out.strip().split(";")[0])
    env.c.wait_done(job, timeout=60)
    out = env.c.run(["cat", "%s/prof-%d.out" % (env.home, job)], user=U).out
    assert ("srun: warning: --profile has no effect: steps are profiled "
            "as job %d asked at submit" % job) in out, out
    assert ("srun: warning: --acctg-freq has no effect: steps are sampled "
            "as job %d asked at submit" % job) in out, out
