#!/usr/bin/python3
"""Sluice's figures, measured the way shared/oracle/bench.sh measures Slurm.

Brings up its own cluster (tests/integration/cluster.py: munged, slurmctld,
N slurmd on loopback), then prints `name: value` lines:

  submit    1000 x `sbatch --wrap true` with the nodes drained (the submit
            path alone), from 1 client and from PAR parallel clients
  pending   squeue / scontrol / sinfo latency (hyperfine medians) and
            slurmctld RSS with N_PENDING pending jobs
  e2e       N_E2E one-CPU jobs from one submitter on idle nodes, until the
            last one has finished
  array     slurmctld RSS and state file size with one held 10-task array,
            then with one held N_ARRAY-task array (the pending tasks are one
            record: the figures must not grow with the size)
  srun      median wall time of `srun -N1 -n1 true` and `srun -N4 -n4 true`
            as job steps of an existing allocation (salloc --no-shell), and
            the median CPU time the -N4 one costs srun, munged,
            slurmctld, the slurmds and their stepds together (NODES=32 with
            BENCH_EXTRA_CONF=TreeWidth=4 measures the launch tree)
  queued    submit throughput (1 and PAR clients, N_SUBMIT jobs each) with
            N_QUEUED jobs already pending: what a commit costs when the
            controller holds many jobs
  rpc       the same without an sbatch process per job (tests/submit_rpc
            sends REQUEST_SUBMIT_BATCH_JOB from 1 and PAR threads, N_RPC
            jobs each), empty and with N_QUEUED held jobs queued: the
            controller's own submit rate

The controller's durability is on unless SLUICE_JOURNAL_NOSYNC=1 is in the
environment (passed to slurmctld: no fdatasync, for measuring its cost
only).

Sizes and phases from the environment: N_SUBMIT (1000) N_E2E (1000)
N_PENDING (5000) N_QUEUED (10000) PAR (8) RUNS (20) NODES (4) N_ARRAY (10000)
PHASES (array,submit,pending,e2e,srun; queued on request);
BENCH_EXTRA_CONF adds slurm.conf lines ("\\n" separated), e.g. to compare
ProctrackType=proctrack/cgroup with the default proctrack/pgid.
Run as root: /usr/bin/python3 tests/perf/bench.py
"""
import json
import os
import resource
import shlex
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
from cluster import Cluster  # noqa: E402

N_SUBMIT = int(os.environ.get("N_SUBMIT", 1000))
N_E2E = int(os.environ.get("N_E2E", 1000))
N_PENDING = int(os.environ.get("N_PENDING", 5000))
N_QUEUED = int(os.environ.get("N_QUEUED", 10000))
N_RPC = int(os.environ.get("N_RPC", 3000))
PAR = int(os.environ.get("PAR", 8))
RUNS = int(os.environ.get("RUNS", 20))
NODES = int(os.environ.get("NODES", 4))
N_ARRAY = int(os.environ.get("N_ARRAY", 10000))
PHASES = os.environ.get("PHASES", "array,submit,pending,e2e,srun").split(",")
# more slurm.conf lines, e.g. "ProctrackType=proctrack/cgroup" (\n for lines)
EXTRA_CONF = os.environ.get("BENCH_EXTRA_CONF", "").replace("\\n", "\n")


def say(name, value):
    print("%s: %s" % (name, value), flush=True)


def rss_mib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return "%.1f" % (int(line.split()[1]) / 1024.0)
    return "NA"


def submit(c, n, par, args):
    """n sbatch calls from par parallel clients; raises on any failure."""
    errors = []

    def client(count):
        for _ in range(count):
            r = c.run(["sbatch"] + args, cwd=c.jobdir)
            if r.rc != 0:
                errors.append(r)
                return

    per = n // par
    threads = [threading.Thread(target=client, args=(per,)) for _ in range(par)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise RuntimeError("sbatch failed: %r" % errors[0])
    return per * par


def median_ms(c, argv, runs=RUNS):
    """hyperfine median of a Sluice command, in ms."""
    exe = [c.bin(argv[0])] + argv[1:]
    env = dict(os.environ, **c.env_for())
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        p = subprocess.run(["hyperfine", "-N", "--style", "none", "--warmup", "1",
                            "--runs", str(runs), "--export-json", out.name,
                            " ".join(shlex.quote(a) for a in exe)], env=env, capture_output=True,
                           text=True)
        if p.returncode != 0:
            return "NA (%s)" % p.stderr.strip()[-200:]
        with open(out.name) as f:
            return "%.1f" % (json.load(f)["results"][0]["median"] * 1000)


def median_wall_ms(c, argv, runs=RUNS):
    """Median wall time of a Sluice command run from Python, in ms."""
    times = []
    for _ in range(runs + 1):
        t0 = time.perf_counter()
        r = c.run(argv)
        took = (time.perf_counter() - t0) * 1000
        if r.rc != 0:
            return "NA (%r)" % r
        times.append(took)
    times = sorted(times[1:])          # the first run warms up
    return "%.1f" % times[len(times) // 2]


def _cluster_cpu_ms(c):
    """CPU time so far of munged, slurmctld and every slurmd (with the
    reaped slurmstepds) plus this process's reaped children (srun), in
    ms."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for d in [c.munged, c.ctld] + list(c.slurmds.values()):
        try:
            with open("/proc/%d/stat" % d.pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += sum(int(x) for x in fields[11:15])   # u/s/cu/cs
        except (OSError, AttributeError):
            pass
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return total * 1000.0 / tick + (ru.ru_utime + ru.ru_stime) * 1000.0


def median_wall_cpu_ms(c, argv, runs=RUNS):
    """(median wall ms, median CPU ms of the whole cluster) per run."""
    walls, cpus = [], []
    for _ in range(runs + 1):
        cpu0 = _cluster_cpu_ms(c)
        t0 = time.perf_counter()
        r = c.run(argv)
        took = (time.perf_counter() - t0) * 1000
        time.sleep(0.3)          # the stepds end and are reaped
        if r.rc != 0:
            return "NA (%r)" % r, "NA"
        walls.append(took)
        cpus.append(_cluster_cpu_ms(c) - cpu0)
    walls, cpus = sorted(walls[1:]), sorted(cpus[1:])
    return "%.1f" % walls[len(walls) // 2], "%.1f" % cpus[len(cpus) // 2]


def bench_srun(c):
    import re
    r = c.run(["salloc", "--no-shell", "-N%d" % NODES, "--exclusive"])
    m = re.search(r"Granted job allocation (\d+)", r.err)
    if not m:
        say("srun_step", "NA (%r)" % r)
        return
    jid = m.group(1)
    say("srun_N1_n1_true_median_ms", median_wall_ms(
        c, ["srun", "--jobid=" + jid, "-N1", "-n1", "true"]))
    wall, cpu = median_wall_cpu_ms(
        c, ["srun", "--jobid=" + jid, "-N%d" % NODES, "-n%d" % NODES, "true"])
    say("srun_N%d_n%d_true_median_ms" % (NODES, NODES), wall)
    # CPU of srun + slurmctld + slurmds + stepds per run: steadier than
    # wall time on a loaded machine
    say("srun_N%d_n%d_true_median_cluster_cpu_ms" % (NODES, NODES), cpu)
    c.run(["scancel", jid])
    wait_empty(c)


def wait_empty(c, timeout=1800):
    t0 = time.time()
    while time.time() - t0 < timeout:
        r = c.run(["squeue", "-h", "-o", "%A"])
        if r.rc == 0 and not r.out.strip():
            return
        time.sleep(0.25)
    raise RuntimeError("jobs still queued after %ss" % timeout)


def nodelist(c):
    return "n[1-%d]" % NODES


def drain(c):
    r = c.run(["scontrol", "update", "NodeName=" + nodelist(c), "State=DRAIN",
               "Reason=bench"])
    if r.rc != 0:
        raise RuntimeError("drain failed: %r" % r)


def resume(c):
    c.run(["scontrol", "update", "NodeName=" + nodelist(c), "State=RESUME"])


def state_kib(c):
    """Snapshot plus journal files: what StateSaveLocation holds of the
    controller's state (the journal has every change since the snapshot)."""
    d = os.path.join(c.dir, "state")
    names = [n for n in os.listdir(d) if n == "ctld_state" or
             (n.startswith("ctld_journal.") and n.split(".")[-1].isdigit())]
    if not names:
        return "NA"
    return "%.1f" % (sum(os.path.getsize(os.path.join(d, n)) for n in names) / 1024.0)


def array_phase(c):
    """One held array of 10 tasks, then one of N_ARRAY: RSS and snapshot
    size after each (the arrays stay pending: held)."""
    for n in (10, N_ARRAY):
        r = c.run(["sbatch", "--parsable", "--hold", "--array=0-%d" % (n - 1),
                   "--wrap", "true"], cwd=c.jobdir)
        if r.rc != 0:
            raise RuntimeError("sbatch --array failed: %r" % r)
        time.sleep(1)
        lines = len(c.run(["squeue", "-h", "-o", "%i"]).out.split())
        say("array_%d_tasks_ctld_rss_mib" % n, "%s (%d squeue lines)" % (
            rss_mib(c.ctld.pid), lines))
        say("array_%d_tasks_state_file_kib" % n, state_kib(c))
        say("array_%d_tasks_squeue_r_median_ms" % n,
            median_ms(c, ["squeue", "-r", "-h", "-o", "%i"], runs=5))
        c.run(["scancel", r.out.strip()])
        wait_empty(c)


def submit_rpc(c, n, par, hold=False):
    build = os.environ.get("SLUICE_BUILD_DIR", os.path.join(HERE, "..", "..", "build"))
    exe = os.path.join(build, "tests", "submit_rpc")
    argv = [exe, str(n), str(par)] + (["--hold"] if hold else [])
    p = subprocess.run(argv, env=dict(os.environ, **c.env_for()),
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("submit_rpc failed: %s %s" % (p.stdout, p.stderr))
    return p.stdout.split()[0]


def rpc_phase(c):
    drain(c)
    say("rpc_submit_1thread_jobs_per_s", submit_rpc(c, N_RPC, 1))
    say("rpc_submit_%dthreads_jobs_per_s" % PAR, submit_rpc(c, N_RPC, PAR))
    have = len(c.run(["squeue", "-h", "-t", "PD", "-o", "%A"]).out.split())
    if N_QUEUED > have:
        submit_rpc(c, N_QUEUED - have, PAR, hold=True)
    say("rpc_queued_jobs", len(c.run(["squeue", "-h", "-t", "PD", "-o", "%A"]).out.split()))
    say("rpc_queued_submit_1thread_jobs_per_s", submit_rpc(c, N_RPC, 1))
    say("rpc_queued_submit_%dthreads_jobs_per_s" % PAR, submit_rpc(c, N_RPC, PAR))


def main():
    c = Cluster(nodes=NODES, min_job_age=300, slurmd_timeout=300,
                extra_conf="MaxJobCount=100000\nMaxArraySize=%d\n%s" % (
                    max(N_ARRAY, 1001) + 1, EXTRA_CONF), tag="bench")
    c.jobdir = os.path.join(c.dir, "jobs")
    try:
        c.start()
        say("sluice_version", c.run(["sbatch", "--version"]).out.strip())
        say("machine", "%d cpus, %s" % (os.cpu_count(), os.uname().release))
        say("nodes", "%d x %d CPUs, one slurmd process each" % (NODES, c.cpus))
        time.sleep(1)
        say("ctld_rss_idle_mib", rss_mib(c.ctld.pid))

        if "array" in PHASES:
            array_phase(c)

        if "e2e" in PHASES:
            t0 = time.time()
            submit(c, N_E2E, 1, ["--wrap", "true"])
            t1 = time.time()
            wait_empty(c)
            t2 = time.time()
            say("e2e_jobs", "%d (1 CPU each, 1 sequential submitter, nodes idle)" % N_E2E)
            say("e2e_submit_while_running_jobs_per_s", "%.1f" % (N_E2E / (t1 - t0)))
            say("e2e_total_s", "%.2f" % (t2 - t0))
            say("e2e_jobs_per_s", "%.1f" % (N_E2E / (t2 - t0)))

        if "srun" in PHASES:
            bench_srun(c)

        if "submit" in PHASES:
            drain(c)
            t0 = time.time()
            n = submit(c, N_SUBMIT, 1, ["--wrap", "true"])
            t1 = time.time()
            say("submit_1client_jobs_per_s", "%.1f" % (n / (t1 - t0)))
            t0 = time.time()
            n = submit(c, N_SUBMIT, PAR, ["--wrap", "true"])
            t1 = time.time()
            say("submit_%dclients_jobs_per_s" % PAR, "%.1f" % (n / (t1 - t0)))

        if "pending" in PHASES:
            drain(c)
            have = len(c.run(["squeue", "-h", "-t", "PD", "-o", "%A"]).out.split())
            if N_PENDING > have:
                submit(c, N_PENDING - have, PAR, ["--wrap", "true"])
            have = len(c.run(["squeue", "-h", "-t", "PD", "-o", "%A"]).out.split())
            say("pending_jobs", have)
            last = c.run(["squeue", "-h", "-o", "%A"]).out.split()[-1]
            say("squeue_median_ms", median_ms(c, ["squeue"]))
            say("squeue_h_o_iT_median_ms", median_ms(c, ["squeue", "-h", "-o", "%i %T"]))
            say("scontrol_show_job_median_ms", median_ms(c, ["scontrol", "show", "job", last]))
            say("sinfo_median_ms", median_ms(c, ["sinfo"]))
            say("ctld_rss_pending_mib", rss_mib(c.ctld.pid))
            t0 = time.time()
            r = c.run(["scancel", "-u", "root"], timeout=600)
            took = time.time() - t0
            left = len(c.run(["squeue", "-h", "-t", "PD", "-o", "%A"]).out.split())
            say("scancel_all_s", "%.2f (%d jobs, rc %d, %d left pending)" % (
                took, have, r.rc, left))
            time.sleep(2)
            say("ctld_rss_after_cancel_mib", rss_mib(c.ctld.pid))
            resume(c)

        if "queued" in PHASES:
            drain(c)
            have = len(c.run(["squeue", "-h", "-t", "PD", "-o", "%A"]).out.split())
            if N_QUEUED > have:
                submit(c, N_QUEUED - have, PAR, ["--hold", "--wrap", "true"])
            have = len(c.run(["squeue", "-h", "-t", "PD", "-o", "%A"]).out.split())
            say("queued_jobs", have)
            t0 = time.time()
            n = submit(c, N_SUBMIT, 1, ["--wrap", "true"])
            t1 = time.time()
            say("queued_submit_1client_jobs_per_s", "%.1f" % (n / (t1 - t0)))
            t0 = time.time()
            n = submit(c, N_SUBMIT, PAR, ["--wrap", "true"])
            t1 = time.time()
            say("queued_submit_%dclients_jobs_per_s" % PAR, "%.1f" % (n / (t1 - t0)))
            say("ctld_rss_queued_mib", rss_mib(c.ctld.pid))
        if "rpc" in PHASES:
            rpc_phase(c)
    finally:
        c.stop()
        c.cleanup()


if __name__ == "__main__":
    main()
