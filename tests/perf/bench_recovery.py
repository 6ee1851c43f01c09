#!/usr/bin/python3
"""Recovery after a crash, Sluice and Slurm 22.05 in one run: the queue is
filled to each size (nodes drained, jobs pending), slurmctld is killed with
SIGKILL and started again, and the figures are

  answer_s   from the new slurmctld's exec until `squeue` answers with the
             whole queue (every job it had acknowledged)
  sched_s    from the same exec until a job runs again: one node is
             resumed as soon as the controller answers, and the time is
             taken when squeue first shows a job RUNNING
  recovered  the pending jobs squeue lists after the restart, against the
             ones acknowledged before the kill (Slurm saves its state every
             few seconds and may lose the last ones; Sluice's journal is
             written before each reply)

Sizes: SIZES (10000,100000) for Sluice, SLURM_SIZES (10000,100000) for
Slurm (its sbatch fills a queue at a few hundred jobs/s: a million takes
about an hour), SYSTEMS (sluice,slurm).  Sluice's queue is filled through
tests/submit_rpc (REQUEST_SUBMIT_BATCH_JOB from PAR threads, what sbatch
sends), Slurm's with sbatch from TOPUP_PAR clients; the fill rate is not
a figure here.  Prints a Markdown table and writes it to
results/recovery-<date>.md.

Run as root on an otherwise idle machine:
    /usr/bin/python3 tests/perf/bench_recovery.py
"""
import datetime
import importlib.machinery
import importlib.util
import os
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_loader(
    "compare", importlib.machinery.SourceFileLoader(
        "compare", os.path.join(HERE, "compare")))
compare = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compare)

SIZES = [int(x) for x in os.environ.get("SIZES", "10000,100000").split(",") if x]
SLURM_SIZES = [int(x) for x in
               os.environ.get("SLURM_SIZES", "10000,100000").split(",") if x]
SYSTEMS = os.environ.get("SYSTEMS", "sluice,slurm").split(",")
PAR = compare.env_int("PAR", 8)
NODES = 4
log = compare.log


def pending_ids(s, timeout=600):
    """The pending job ids squeue lists, or None while it does not answer."""
    try:
        p = s.run(["squeue", "-h", "-t", "PD", "-o", "%A"], timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if p.returncode != 0:
        return None
    return p.stdout.split()


def fill(s, name, size):
    have = len(pending_ids(s) or [])
    if size <= have:
        return
    if name == "sluice":
        exe = os.path.join(compare.BUILD, "tests", "submit_rpc")
        p = subprocess.run([exe, str(size - have), str(PAR)], env=s.env(),
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError("submit_rpc: %s %s" % (p.stdout, p.stderr))
    else:
        compare.submit(s, size - have, compare.TOPUP_PAR)


def kill_ctld(s, name):
    pid = s.ctld_pid()
    os.kill(pid, signal.SIGKILL)
    for _ in range(600):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        if name == "sluice" and s.c.ctld.popen.poll() is not None:
            break
        time.sleep(0.05)


def start_ctld(s, name):
    """Start slurmctld again; returns the time of its exec."""
    if name == "sluice":
        t0 = time.time()
        s.c.start_ctld()
        return t0
    d = s.dir
    env = dict(s.env(), SLURM_CONF=os.path.join(d, "etc", "slurm.conf"))
    out = open(os.path.join(d, "log", "slurmctld.out"), "ab")
    t0 = time.time()
    p = subprocess.Popen([os.path.join(d, "bin", "slurmctld"), "-D"], env=env,
                         stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                         start_new_session=True)
    out.close()
    with open(os.path.join(d, "pids", "slurmctld.pid"), "w") as f:
        f.write("%d\n" % p.pid)
    return t0


def measure(s, name, size):
    fill(s, name, size)
    before = pending_ids(s)
    # what is acknowledged is on disk now for Sluice; Slurm gets no help
    kill_ctld(s, name)
    t0 = start_ctld(s, name)
    answer = sched = None
    ids = None
    deadline = t0 + 3600
    while time.time() < deadline:
        ids = pending_ids(s, timeout=120)
        if ids is not None:
            answer = time.time() - t0
            break
        time.sleep(0.05)
    if answer is None:
        raise RuntimeError("slurmctld did not answer within an hour")
    resumed = False
    while time.time() < deadline:
        if not resumed:
            # Slurm refuses RESUME of a node that has not registered yet
            # (it shows unknown*): asked again until it takes
            resumed = s.run(["scontrol", "update", "NodeName=n1",
                             "State=RESUME"]).returncode == 0
        p = s.run(["squeue", "-h", "-t", "R,CG,CD", "-o", "%A"], timeout=120)
        if p.returncode == 0 and p.stdout.split():
            sched = time.time() - t0
            break
        time.sleep(0.05)
    s.run(["scontrol", "update", "NodeName=n1", "State=DRAIN",
           "Reason=bench"], check=True)
    lost = len(set(before) - set(ids))
    log("%s %d: answer %.2fs, scheduling %.2fs, %d of %d recovered" % (
        name, size, answer, sched or -1, len(before) - lost, len(before)))
    return {"answer_s": answer, "sched_s": sched,
            "recovered": "%d of %d" % (len(before) - lost, len(before))}


def run_system(name, sizes):
    s = compare.make_system(name, NODES)
    big = max(sizes) + 10000
    if name == "sluice":
        s.c.extra_conf = s.c.extra_conf.replace(
            "MaxJobCount=100000", "MaxJobCount=%d" % big)
    else:
        os.environ["ORACLE_MAX_JOB_COUNT"] = str(big)
    out = {}
    try:
        s.up()
        s.run(["scontrol", "update", "NodeName=n[1-%d]" % NODES,
               "State=DRAIN", "Reason=bench"], check=True)
        for size in sorted(sizes):
            out[size] = measure(s, name, size)
    finally:
        s.down()
    return out


def table(results):
    sizes = sorted({k for r in results.values() for k in r})
    rows = ["| figure | jobs | " + " | ".join(
        compare.LABELS[n] for n in results) + " |",
        "|---|---|" + "---|" * len(results)]
    for fig, fmt in (("answer_s", "%.2f s"), ("sched_s", "%.2f s"),
                     ("recovered", "%s")):
        for size in sizes:
            cells = []
            for n in results:
                v = results[n].get(size, {}).get(fig)
                cells.append("n/a" if v is None else fmt % v)
            rows.append("| %s | %d | %s |" % (fig, size, " | ".join(cells)))
    return "\n".join(rows)


def main():
    compare.setup()
    results = {}
    try:
        for name in SYSTEMS:
            results[name] = run_system(
                name, SLURM_SIZES if name.startswith("slurm") else SIZES)
    finally:
        for fn in compare.DEFERRED:
            fn()
    head = "Recovery after SIGKILL of slurmctld, %s, %s, load %s" % (
        datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC"),
        compare.machine(), compare.loadavg())
    text = head + "\n\n" + table(results) + "\n"
    print(text)
    path = os.path.join(HERE, "results", "recovery-%s.md" %
                        datetime.datetime.utcnow().strftime("%Y-%m-%dT%H%M"))
    with open(path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
