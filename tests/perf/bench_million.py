#!/usr/bin/python3
"""A million pending jobs on Sluice (journal and accounting on): the queue
is filled step by step to each size of SIZES (1000,10000,100000,1000000)
on NODES (4) drained nodes with tests/submit_rpc (REQUEST_SUBMIT_BATCH_JOB,
what sbatch sends, from PAR threads), and at each size:

  fill_rate    jobs/s of the last min(size, WINDOW=5000) jobs that brought
               the queue to this size (the issue's "fill rate at 1M within
               20% of the rate at 1k" compares these)
  squeue, squeue -h -o '%i %T', sinfo, scontrol show job (every job):
               wall time of one call (median of RUNS, output discarded)
  rss_mib, kib_per_job
               controller VmRSS and (VmRSS - RSS before the fill) / jobs
  main_ms, bf_ms
               sdiag's last main scheduler and backfill cycle times
  stall_ms     the longest a REQUEST_PING waited for the controller during
               the fill to this size (tests/loop_probe pings every 10 ms):
               snapshots written while the queue grows are in it
  <query>_stall
               the same while that query's calls ran (the loop packs a
               whole-queue answer in slices, job_info_rpc.c)
  answer_s, sched_s, recovered
               SIGKILL of slurmctld at this size, then as bench_recovery.py:
               from its exec until squeue lists the whole queue, until a
               job runs again (RECOVERY=0 skips)
  takeover_s, takeover_sched_s
               BACKUP=1: a backup controller (second SlurmctldHost, same
               StateSaveLocation, SlurmctldTimeout=TAKEOVER_TIMEOUT (3))
               runs too; the primary is SIGKILLed and the time is taken
               from the kill until the backup answers squeue with the
               whole queue, and until a job runs again

Prints a Markdown table and writes it to results/million-<date>.md.
Run as root on an otherwise idle machine (1M jobs: ~3 GiB for slurmctld,
MariaDB and slurmdbd together):
    /usr/bin/python3 tests/perf/bench_million.py
"""
import datetime
import importlib.machinery
import importlib.util
import os
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def _load(name, path):
    spec = importlib.util.spec_from_loader(
        name, importlib.machinery.SourceFileLoader(name, path))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


compare = _load("compare", os.path.join(HERE, "compare"))
recovery = _load("bench_recovery", os.path.join(HERE, "bench_recovery.py"))

SIZES = [int(x) for x in os.environ.get(
    "SIZES", "1000,10000,100000,1000000").split(",") if x]
NODES = compare.env_int("NODES", 4)
PAR = compare.env_int("PAR", 8)
WINDOW = compare.env_int("WINDOW", 5000)
RUNS = compare.env_int("RUNS", 3)
RECOVERY = os.environ.get("RECOVERY", "1") == "1"
BACKUP = os.environ.get("BACKUP", "0") == "1"
TAKEOVER_TIMEOUT = compare.env_int("TAKEOVER_TIMEOUT", 3)
log = compare.log


def rss_mib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return 0.0


def submit(s, n):
    exe = os.path.join(compare.BUILD, "tests", "submit_rpc")
    p = subprocess.run([exe, str(n), str(PAR)], env=s.env(),
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("submit_rpc: %s %s" % (p.stdout, p.stderr))
    return float(p.stdout.split()[0])


def wall(s, argv, runs=RUNS):
    """Median wall seconds of one call, its output read and discarded."""
    times = []
    for _ in range(runs):
        t0 = time.time()
        p = subprocess.run([s.bin(argv[0])] + argv[1:], env=s.env(),
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           timeout=1200)
        times.append(time.time() - t0)
        if p.returncode != 0:
            return None
    return sorted(times)[len(times) // 2]


def sdiag(s):
    """(last main cycle ms, last backfill cycle ms) from sdiag."""
    p = s.run(["sdiag"])
    main = bf = None
    sect = None
    for line in p.stdout.splitlines():
        t = line.strip()
        if t.startswith("Main schedule statistics"):
            sect = "main"
        elif t.startswith("Backfilling stats"):
            sect = "bf"
        elif t.startswith("Last cycle:") and sect:
            v = float(t.split(":")[1]) / 1000.0
            if sect == "main":
                main = v
            else:
                bf = v
            sect = None
    return main, bf


class Probe:
    def __init__(self, s):
        self.s = s
        self.stop = tempfile.mktemp(prefix="million-probe-")
        exe = os.path.join(compare.BUILD, "tests", "loop_probe")
        self.p = None
        if not os.access(exe, os.X_OK):
            return
        self.p = subprocess.Popen([exe, self.stop, "10"], env=s.env(),
                                  stdout=subprocess.PIPE, text=True)

    def finish(self):
        if self.p is None:
            return None, []
        open(self.stop, "w").close()
        out = self.p.communicate(timeout=1200)[0]
        os.unlink(self.stop)
        stalls = [l for l in out.splitlines() if l.startswith("stall")]
        last = out.splitlines()[-1].split() if out.strip() else []
        mx = float(last[last.index("max_ms") + 1]) if "max_ms" in last else None
        return mx, stalls


def takeover(s, size):
    """SIGKILL the primary; seconds until the backup answers with the
    whole queue, and until a job runs again."""
    before = recovery.pending_ids(s)
    t0 = time.time()
    os.kill(s.ctld_pid(), signal.SIGKILL)
    answer = sched = None
    while time.time() < t0 + 1800:
        ids = recovery.pending_ids(s, timeout=120)
        if ids is not None and len(ids) >= len(before):
            answer = time.time() - t0
            break
        time.sleep(0.05)
    resumed = False
    while answer and time.time() < t0 + 1800:
        if not resumed:
            resumed = s.run(["scontrol", "update", "NodeName=n1",
                             "State=RESUME"]).returncode == 0
        p = s.run(["squeue", "-h", "-t", "R,CG,CD", "-o", "%A"], timeout=120)
        if p.returncode == 0 and p.stdout.split():
            sched = time.time() - t0
            break
        time.sleep(0.05)
    log("takeover %d: answer %.2fs, scheduling %.2fs" % (
        size, answer or -1, sched or -1))
    return answer, sched


def main():
    if os.geteuid() != 0:
        sys.exit("bench_million: run as root (it starts daemons)")
    s = compare.make_system("sluice", NODES)
    s.c.extra_conf = s.c.extra_conf.replace(
        "MaxJobCount=100000", "MaxJobCount=%d" % (max(SIZES) + 10000))
    if BACKUP:
        s.c.backup_ctld = True
        s.c.extra_conf += "SlurmctldTimeout=%d\n" % TAKEOVER_TIMEOUT
    rows = {}
    try:
        s.up()
        s.run(["scontrol", "update", "NodeName=n[1-%d]" % NODES,
               "State=DRAIN", "Reason=bench"], check=True)
        if BACKUP:
            s.c.start_backup_ctld()
            time.sleep(2)
        idle = rss_mib(s.ctld_pid())
        have = 0
        for size in sorted(SIZES):
            r = rows[size] = {}
            probe = Probe(s)
            w = min(size, WINDOW)
            if size - w > have:
                submit(s, size - w - have)
            r["fill_rate"] = submit(s, w)
            r["stall_ms"], stalls = probe.finish()
            have = size
            for st in stalls[-5:]:
                log("  %s" % st)
            for name, argv in (("squeue", ["squeue"]),
                               ("squeue_iT", ["squeue", "-h", "-o", "%i %T"]),
                               ("sinfo", ["sinfo"]),
                               ("scontrol_show_job", ["scontrol", "show",
                                                      "job"])):
                qprobe = Probe(s)
                r[name] = wall(s, argv, 1 if name == "scontrol_show_job"
                               and size >= 1000000 else RUNS)
                r[name + "_stall"] = qprobe.finish()[0]
            r["rss_mib"] = rss_mib(s.ctld_pid())
            r["kib_per_job"] = (r["rss_mib"] - idle) * 1024.0 / size
            r["main_ms"], r["bf_ms"] = sdiag(s)
            log("%d: %r" % (size, r))
            if BACKUP:
                r["takeover_s"], r["takeover_sched_s"] = takeover(s, size)
                s.run(["scontrol", "update", "NodeName=n1", "State=DRAIN",
                       "Reason=bench"], check=True)
                # the old primary back as the standby
                s.c.start_ctld()
                time.sleep(TAKEOVER_TIMEOUT + 2)
                r["rss_mib_backup"] = rss_mib(s.c.ctld_backup.pid)
            elif RECOVERY and size >= 10000:
                r.update(recovery.measure(s, "sluice", size))
            have = len(recovery.pending_ids(s) or [])
    finally:
        s.down()
        for fn in compare.DEFERRED:
            fn()
    figs = (("fill_rate", "%.0f jobs/s"), ("squeue", "%.2f s"),
            ("squeue_iT", "%.2f s"), ("sinfo", "%.3f s"),
            ("scontrol_show_job", "%.2f s"),
            ("squeue_stall", "%.0f ms"), ("squeue_iT_stall", "%.0f ms"),
            ("sinfo_stall", "%.0f ms"), ("scontrol_show_job_stall", "%.0f ms"),
            ("rss_mib", "%.0f MiB"),
            ("kib_per_job", "%.2f KiB"), ("main_ms", "%.1f ms"),
            ("bf_ms", "%.1f ms"), ("stall_ms", "%.0f ms"),
            ("answer_s", "%.2f s"), ("sched_s", "%.2f s"),
            ("recovered", "%s"), ("takeover_s", "%.2f s"),
            ("takeover_sched_s", "%.2f s"))
    sizes = sorted(rows)
    out = ["| figure | " + " | ".join("%d jobs" % n for n in sizes) + " |",
           "|---|" + "---|" * len(sizes)]
    for fig, fmt in figs:
        if not any(fig in rows[n] for n in sizes):
            continue
        out.append("| %s | %s |" % (fig, " | ".join(
            "n/a" if rows[n].get(fig) is None else fmt % rows[n][fig]
            for n in sizes)))
    head = ("Sluice at up to %d pending jobs (%d drained nodes, journal and "
            "accounting on%s), %s, %s, load %s" % (
                max(SIZES), NODES, ", backup controller" if BACKUP else "",
                datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC"),
                compare.machine(), compare.loadavg()))
    text = head + "\n\n" + "\n".join(out) + "\n"
    print(text)
    path = os.path.join(HERE, "results", "million-%s%s.md" % (
        datetime.datetime.utcnow().strftime("%Y-%m-%dT%H%M"),
        "-backup" if BACKUP else ""))
    with open(path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
