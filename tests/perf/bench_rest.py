#!/usr/bin/python3
"""slurmrestd: Sluice against Slurm 22.05, side by side in one run.

Each system runs on clusters brought up exactly as `compare` brings them
up (its SluiceSystem and SlurmSystem: the same nodes, settings,
accounting; Sluice with its journal fsync'd before every reply), with
its slurmrestd in front as an unprivileged user (BENCH_USER) on a
unix socket, rest_auth/local (the peer's uid is slurmrestd's own), so
every request is one authenticated message per controller call as that
user, signed by munged.  Slurm 22.05 serves data_parser v0.0.38; Sluice
is asked the same requests in SLUICE_VER (v0.0.43).

The client is tests/perf/rest_load (C, one thread per keep-alive
connection, run as BENCH_USER); its own CPU time is reported beside each
figure, and the CPU time of slurmrestd, slurmctld, munged and slurmdbd
(utime+stime from /proc) per request, which holds up on a busy machine
where wall-clock figures do not.

Per system:
  jobs   4 nodes, drained (the submit path alone):
         POST job/submit from 1 connection (N_SUBMIT1 jobs: the queue goes
         from 0 to N_SUBMIT1), then from CONNS connections (N_SUBMITP jobs,
         on top of the first ones); the queue is then topped up to each
         of SIZES pending jobs through job/submit from CONNS connections
         (fill rate reported) and GET jobs timed there: median and p95 of
         up to RUNS requests (fewer when one takes long: JOBS_BUDGET_S
         seconds per size, at least 3), bytes per answer
  nodes  NODES_BIG nodes: n1..n4 with a slurmd each and the rest
         configured with no slurmd (listed with the same record; a slurmd
         per node at 4,096 was not tried: bench_big.py needs 20-30 min
         and ~8 GiB for Sluice's alone), GET nodes timed as GET jobs

Settings (environment): SYSTEMS (sluice,slurm)  PHASES (jobs,nodes)
  SIZES (1000,10000,50000)  N_SUBMIT1 (1000)  N_SUBMITP (4000)  CONNS (8)
  RUNS (20)  JOBS_BUDGET_S (90)  NODES_BIG (4096)  BENCH_USER (sluice_u1)
  SUBMIT_ROUNDS (3: each submit figure is the best of these rounds)
  MEM_FLOOR_GIB (3: slurmrestd is killed when the machine has less free)
  SLUICE_VER (v0.0.43)  SKIP_BUILD=1  SLUICE_BUILD_DIR (./build)
  BASE_RESTD: another build's slurmrestd (e.g. main's, before a change):
         started beside Sluice's own in front of the same controller, and
         GET jobs / GET nodes timed through it too, right after Sluice's
         at each size: an A/B of slurmrestd alone in one run, same jobs,
         same machine state (rows "... before", column Sluice)
  PERF=1: perf record slurmrestd and slurmctld during the CONNS submit
  figure and the largest GET jobs; the top symbols go into the results
  OUT (tests/perf/results/bench_rest-<date>.txt)

Run as root on an otherwise idle machine: tests/perf/bench_rest.py
"""
import datetime
import importlib.machinery
import importlib.util
import json
import os
import pwd
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "tests", "integration"))


def _load_compare():
    loader = importlib.machinery.SourceFileLoader(
        "compare", os.path.join(HERE, "compare"))
    spec = importlib.util.spec_from_loader("compare", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


cmp = _load_compare()

SYSTEMS = os.environ.get("SYSTEMS", "sluice,slurm").split(",")
PHASES = os.environ.get("PHASES", "jobs,nodes").split(",")
SIZES = [int(x) for x in os.environ.get("SIZES", "1000,10000,50000").split(",") if x]
N_SUBMIT1 = int(os.environ.get("N_SUBMIT1", 1000))
N_SUBMITP = int(os.environ.get("N_SUBMITP", 4000))
SUBMIT_ROUNDS = int(os.environ.get("SUBMIT_ROUNDS", 3))
CONNS = int(os.environ.get("CONNS", 8))
RUNS = int(os.environ.get("RUNS", 20))
JOBS_BUDGET_S = float(os.environ.get("JOBS_BUDGET_S", 90))
NODES_BIG = int(os.environ.get("NODES_BIG", 4096))
USER = os.environ.get("BENCH_USER", "sluice_u1")
SLUICE_VER = os.environ.get("SLUICE_VER", "v0.0.43")
BASE_RESTD = os.environ.get("BASE_RESTD")
PERF = os.environ.get("PERF") == "1"
DATE = datetime.datetime.utcnow().strftime("%Y-%m-%d")
OUT = os.environ.get("OUT", os.path.join(HERE, "results",
                                         "bench_rest-%s.txt" % DATE))
MEM_FLOOR_GIB = float(os.environ.get("MEM_FLOOR_GIB", 3))
TICK = os.sysconf("SC_CLK_TCK")


def log(msg):
    cmp.log("bench_rest: " + msg)


def cpu_s(pid):
    """utime + stime of a process (its threads included), seconds."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def rss_gib(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1048576.0
    except OSError:
        pass
    return 0.0


def mem_available_gib():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) / 1048576.0
    return 0.0


class Rest:
    """A system's slurmrestd: its socket, pid, and the daemons whose CPU
    is counted per request."""

    def __init__(self, s, sock, pid, ver, daemons):
        self.s, self.sock, self.pid, self.ver = s, sock, pid, ver
        self.daemons = dict(daemons, slurmrestd=pid)
        self.tmp = tempfile.mkdtemp(prefix="bench-rest-")
        os.chmod(self.tmp, 0o755)
        self.body = os.path.join(self.tmp, "submit.json")
        env = ({"PATH": "/bin:/usr/bin"} if ver == "v0.0.38"
               else ["PATH=/bin:/usr/bin"])
        with open(self.body, "w") as f:
            json.dump({"script": "#!/bin/sh\ntrue\n",
                       "job": {"name": "bench_rest",
                               "current_working_directory": "/tmp",
                               "environment": env}}, f)
        os.chmod(self.body, 0o644)

    def cpu(self):
        return {k: cpu_s(p) for k, p in self.daemons.items() if p}

    def load(self, path, n, conns=1, method="GET", body=None):
        """rest_load as USER; returns its figures (a dict) with the
        daemons' CPU ms per request added as cpu_<daemon>."""
        pw = pwd.getpwnam(USER)
        argv = [os.path.join(cmp.BUILD, "tests", "rest_load"), "-c",
                str(conns), "-n", str(n), "-m", method]
        if body:
            argv += ["-b", body]
        argv += ["unix:" + self.sock, "/slurm/%s/%s" % (self.ver, path)]
        c0 = self.cpu()
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, user=pw.pw_uid, group=pw.pw_gid,
                             cwd="/tmp")
        peak, why = 0.0, None
        while p.poll() is None:
            # A slurmrestd that grows without bound must not take the
            # machine (shared with other work) down with it.
            rss = rss_gib(self.pid)
            peak = max(peak, rss)
            if mem_available_gib() < MEM_FLOOR_GIB:
                why = ("stopped: the machine had less than %.0f GiB free "
                       "(slurmrestd RSS %.1f GiB, killed)" % (MEM_FLOOR_GIB, rss))
                p.kill()
                try:   # it would go on building the answer
                    os.kill(self.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                break
            time.sleep(0.1)
        out, err = p.communicate()
        c1 = self.cpu()
        if why:
            raise RuntimeError(why)
        if p.returncode != 0 or not out.strip():
            raise RuntimeError("rest_load %s %s: rc %d: %s %s" % (
                method, path, p.returncode, out.strip(), err.strip()[-500:]))
        fig = {}
        fig["restd_peak_rss_mib"] = peak * 1024.0
        for kv in out.split():
            k, v = kv.split("=", 1)
            fig[k] = float(v)
        for k in c1:
            fig["cpu_" + k] = (c1[k] - c0.get(k, 0.0)) * 1000.0 / n
        fig["client_cpu_ms"] = fig["client_cpu_s"] * 1000.0 / n
        return fig

    def submit(self, n, conns):
        """SUBMIT_ROUNDS runs of n / SUBMIT_ROUNDS submits: the figures of
        the fastest (the least disturbed by other work on the machine),
        its rate among all ("rates"), CPU per submit over all of them."""
        k = max(1, min(SUBMIT_ROUNDS, n))
        runs = []
        for i in range(k):
            cmp.wait_quiet(max_s=10)
            runs.append(self.load("job/submit", n // k + (i < n % k), conns,
                                  "POST", self.body))
        best = dict(max(runs, key=lambda f: f["rate"]))
        total = sum(f["requests"] for f in runs)
        for key in best:
            if key.startswith("cpu_") or key == "client_cpu_ms":
                best[key] = sum(f[key] * f["requests"] for f in runs) / total
        best["rates"] = [f["rate"] for f in runs]
        best["rounds"] = [{k: round(v, 3) for k, v in f.items()
                           if k == "rate" or k.startswith("cpu_")} for f in runs]
        return best

    def fill(self, n, conns):
        return self.load("job/submit", n, conns, "POST", self.body)


# --------------------------------------------------------------------------
# starting each system's slurmrestd


def sluice_restd(s):
    c = s.c
    run = os.path.join(c.dir, "run")
    os.chmod(run, 0o1777)
    sock = os.path.join(run, "rest.sock")
    d = c.start_restd(USER, ["unix:" + sock], args=["-a", "rest_auth/local"])
    daemons = {"slurmctld": c.ctld.pid,
               "munged": c.munged.pid if c.munged else None,
               "slurmdbd": s.dbd.pid if s.dbd else None}
    return Rest(s, sock, d.pid, SLUICE_VER, daemons)


def base_restd(s):
    """BASE_RESTD in front of the same controller, or None."""
    if not BASE_RESTD or not hasattr(s, "c"):
        return None
    c = s.c
    sock = os.path.join(c.dir, "run", "rest-base.sock")
    d = c._spawn("slurmrestd-base", [BASE_RESTD, "-a", "rest_auth/local",
                                     "unix:" + sock], user=USER)
    c.restds.append(d)
    deadline = time.time() + 20
    while True:   # listening, not only bound
        so = socket.socket(socket.AF_UNIX)
        try:
            so.connect(sock)
            break
        except OSError:
            if not d.alive() or time.time() > deadline:
                raise RuntimeError("BASE_RESTD did not come up")
            time.sleep(0.1)
        finally:
            so.close()
    daemons = {"slurmctld": c.ctld.pid}
    return Rest(s, sock, d.pid, SLUICE_VER, daemons)


class SlurmRestd:
    def __init__(self, s):
        self.s = s
        d = os.path.join(s.dir, "restd")
        os.makedirs(d, exist_ok=True)
        os.chmod(d, 0o1777)
        self.sock = os.path.join(d, "rest.sock")
        pw = pwd.getpwnam(USER)
        out = open(os.path.join(s.dir, "log", "slurmrestd.out"), "ab")
        env = {"PATH": "/usr/bin:/bin", "HOME": pw.pw_dir, "USER": USER,
               "SLURM_CONF": os.path.join(s.dir, "etc", "slurm.conf")}
        self.p = subprocess.Popen(
            ["/usr/sbin/slurmrestd", "-a", "rest_auth/local",
             "unix:" + self.sock], stdin=subprocess.DEVNULL, stdout=out,
            stderr=subprocess.STDOUT, env=env, cwd="/tmp",
            user=pw.pw_uid, group=pw.pw_gid, start_new_session=True)
        out.close()
        deadline = time.time() + 30
        while not os.path.exists(self.sock):
            if self.p.poll() is not None or time.time() > deadline:
                raise RuntimeError("Slurm's slurmrestd did not come up (see %s)"
                                   % os.path.join(s.dir, "log", "slurmrestd.out"))
            time.sleep(0.1)

    def stop(self):
        if self.p.poll() is None:
            os.kill(self.p.pid, signal.SIGTERM)
            try:
                self.p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.kill(self.p.pid, signal.SIGKILL)
                self.p.wait()


def slurm_pid(s, name):
    try:
        with open(os.path.join(s.dir, "pids", name + ".pid")) as f:
            return int(f.read())
    except (OSError, ValueError):
        return None


def start_system(name, extra_nodes=0):
    """(system, Rest, stop function) with slurmrestd up."""
    s = cmp.make_system(name, 4)
    if name == "sluice":
        if extra_nodes:
            port = s.cl.free_ports(1)[0]   # nothing listens there
            s.c.extra_conf += ("NodeName=x[1-%d] NodeAddr=127.0.0.1 CPUs=%d "
                               "RealMemory=2048 Port=%d\n" % (
                                   extra_nodes, cmp.CPUS, port))
        s.up()
        r = sluice_restd(s)
        return s, r, lambda: None
    if extra_nodes:
        os.environ["ORACLE_EXTRA_NODES"] = str(extra_nodes)
    try:
        s.up()
    finally:
        os.environ.pop("ORACLE_EXTRA_NODES", None)
    sr = SlurmRestd(s)
    daemons = {"slurmctld": s.ctld_pid(), "munged": slurm_pid(s, "munged"),
               "slurmdbd": slurm_pid(s, "slurmdbd")}
    return s, Rest(s, sr.sock, sr.p.pid, "v0.0.38", daemons), sr.stop


# --------------------------------------------------------------------------
# measurements


def perf_top(pids, seconds_fn, label, out):
    """perf record -g the pids while seconds_fn() runs; the top of the
    report (self time per symbol, per process) appended to out."""
    data = os.path.join(tempfile.gettempdir(), "bench_rest-%s.perf" % label)
    p = subprocess.Popen(["perf", "record", "-q", "-F", "499", "-o", data,
                          "-p", ",".join(str(x) for x in pids)],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    try:
        seconds_fn()
    finally:
        p.send_signal(signal.SIGINT)
        p.wait(timeout=60)
    rep = subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children",
                          "--sort", "comm,dso,sym", "-g", "none",
                          "--percent-limit", "1.5"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True).stdout
    lines = [ln for ln in rep.splitlines() if ln.strip() and not ln.startswith("#")]
    out.append("perf %s: %s" % (label, "; ".join(
        " ".join(ln.split()) for ln in lines[:25])))
    try:
        os.unlink(data)
    except OSError:
        pass


def timed_gets(r, path, fig, key, raw):
    """GET path: one warm-up, then up to RUNS requests within
    JOBS_BUDGET_S (at least 3)."""
    w = r.load(path, 1)
    n = int(max(3, min(RUNS, JOBS_BUDGET_S / max(w["seconds"], 1e-3))))
    f = r.load(path, n)
    fig[key] = f
    raw.append("%s %s: %s" % (r.s.label, key, json.dumps(f)))
    log("  %s: n=%d median %.1f ms p95 %.1f ms, %.0f KiB, restd %.1f / ctld %.1f "
        "CPU ms per request" % (key, n, f["median_ms"], f["p95_ms"],
                                f["bytes_in"] / n / 1024.0,
                                f.get("cpu_slurmrestd", 0), f.get("cpu_slurmctld", 0)))


def submit_p(s, r, name, fig, raw):
    """POST job/submit from CONNS connections (perf-recorded with PERF=1)."""
    def go():
        fig["submitP"] = r.submit(N_SUBMITP, CONNS)
    if PERF:
        perf_top([r.pid, r.daemons["slurmctld"]], go,
                 "%s-submit%d" % (name, CONNS), raw)
    else:
        go()
    raw.append("%s submitP: %s" % (s.label, json.dumps(fig["submitP"])))
    log("  submit, %d connections: %.0f jobs/s" % (CONNS, fig["submitP"]["rate"]))


def phase_jobs(name, fig, raw):
    s, r, stop = start_system(name)
    base = base_restd(s)
    try:
        cmp.drain(s)
        time.sleep(1)
        f = r.submit(N_SUBMIT1, 1)
        fig["submit1"] = f
        raw.append("%s submit1: %s" % (s.label, json.dumps(f)))
        log("  submit, 1 connection: %.0f jobs/s" % f["rate"])
        done = False
        for size in SIZES:
            have = cmp.count_jobs(s)
            if size > have:
                f = r.fill(size - have, CONNS)
                fig["fill%d" % size] = f
                log("  filled %d -> %d at %.0f jobs/s" % (have, size, f["rate"]))
            n = cmp.count_jobs(s)
            fig["pending%d" % size] = n
            cmp.wait_quiet(max_s=30)
            try:
                if PERF and size == SIZES[-1]:
                    perf_top([r.pid, r.daemons["slurmctld"]],
                             lambda: timed_gets(r, "jobs", fig, "jobs%d" % size,
                                                raw),
                             "%s-jobs%d" % (name, size), raw)
                else:
                    timed_gets(r, "jobs", fig, "jobs%d" % size, raw)
                if base:
                    timed_gets(base, "jobs", fig, "base_jobs%d" % size, raw)
            except RuntimeError as e:
                fig["jobs%d" % size] = "failed: %s" % e
                log("  GET jobs at %d failed: %s" % (size, e))
                break
            fig["jobs%d" % size]["pending"] = n
            fig["ctld_rss%d" % size] = cmp.rss_mib(r.daemons["slurmctld"])
            fig["restd_rss%d" % size] = cmp.rss_mib(r.pid)
            if not done:
                submit_p(s, r, name, fig, raw)
                done = True
        if not done:
            submit_p(s, r, name, fig, raw)
    finally:
        stop()
        s.down()


def phase_nodes(name, fig, raw):
    s, r, stop = start_system(name, extra_nodes=NODES_BIG - 4)
    try:
        time.sleep(2)
        n = len(s.run(["sinfo", "-h", "-N", "-o", "%N"], check=True).stdout.split())
        fig["nodes_count"] = n
        cmp.wait_quiet(max_s=30)
        timed_gets(r, "nodes", fig, "nodes", raw)
        base = base_restd(s)
        if base:
            timed_gets(base, "nodes", fig, "base_nodes", raw)
    finally:
        stop()
        s.down()


# --------------------------------------------------------------------------
# the table


def rows(figs):
    """The table's rows: (label, how to get the figure from a system's
    figures (a function, or a ("rates"|"cpu2", key) pair for the composite
    cells, or None for the submit latency / CPU cells), True if more is
    better / False if less is / None for no ratio, number format)."""
    def g(key, field):
        def get(fg):
            v = fg.get(key)
            if isinstance(v, dict):
                return v.get(field)
            return v if isinstance(v, str) else None
        return get
    out = [
        ("POST job/submit, 1 connection (jobs/s; from an empty queue, %d "
         "jobs; best of %d rounds)" % (N_SUBMIT1, SUBMIT_ROUNDS),
         g("submit1", "rate"), True, "%.0f"),
        ("  every round (jobs/s)", ("rates", "submit1"), None, None),
        ("POST job/submit, %d connections (jobs/s; %d jobs on top of %s; best "
         "of %d rounds)" % (CONNS, N_SUBMITP, format(SIZES[0], ","),
                            SUBMIT_ROUNDS), g("submitP", "rate"), True, "%.0f"),
        ("  every round (jobs/s)", ("rates", "submitP"), None, None),
        ("  latency median / p95, %d connections, fastest round (ms)" % CONNS,
         None, None, None),
    ]
    out.append(("  CPU per submit, %d connections, all rounds: slurmrestd / "
                "slurmctld / munged / slurmdbd (ms)" % CONNS, None, None, None))
    out.append(("  client CPU per submit (ms)", g("submitP", "client_cpu_ms"),
                None, "%.3f"))
    for size in SIZES:
        out.append(("GET jobs at %s pending: median (ms)" % format(size, ","),
                    g("jobs%d" % size, "median_ms"), False, "%.1f"))
        out.append(("  p95 (ms)", g("jobs%d" % size, "p95_ms"), False, "%.1f"))
        out.append(("  KiB per answer", lambda fg, k="jobs%d" % size: (
            fg[k]["bytes_in"] / fg[k]["requests"] / 1024.0)
            if isinstance(fg.get(k), dict) else None, None, "%.0f"))
        out.append(("  CPU per request: slurmrestd / slurmctld (ms)",
                    ("cpu2", "jobs%d" % size), None, None))
        if BASE_RESTD:
            out.append(("  before (BASE_RESTD, same jobs): median (ms)",
                        g("base_jobs%d" % size, "median_ms"), False, "%.1f"))
            out.append(("  before: CPU per request: slurmrestd / slurmctld "
                        "(ms)", ("cpu2", "base_jobs%d" % size), None, None))
        out.append(("  slurmrestd peak RSS during the requests (MiB)",
                    g("jobs%d" % size, "restd_peak_rss_mib"), None, "%.0f"))
        out.append(("  queue fill through job/submit, %d connections (jobs/s)"
                    % CONNS, g("fill%d" % size, "rate"), True, "%.0f"))
    out.append(("GET nodes at %s nodes: median (ms)" % format(NODES_BIG, ","),
                g("nodes", "median_ms"), False, "%.1f"))
    out.append(("  p95 (ms)", g("nodes", "p95_ms"), False, "%.1f"))
    out.append(("  KiB per answer", lambda fg: (
        fg["nodes"]["bytes_in"] / fg["nodes"]["requests"] / 1024.0)
        if isinstance(fg.get("nodes"), dict) else None, None, "%.0f"))
    out.append(("  CPU per request: slurmrestd / slurmctld (ms)",
                ("cpu2", "nodes"), None, None))
    if BASE_RESTD:
        out.append(("  before (BASE_RESTD): median (ms)",
                    g("base_nodes", "median_ms"), False, "%.1f"))
        out.append(("  before: CPU per request: slurmrestd / slurmctld (ms)",
                    ("cpu2", "base_nodes"), None, None))
    return out


def render(figs, meta):
    names = [n for n in SYSTEMS]
    labels = {"sluice": "Sluice", "slurm": "Slurm 22.05"}
    lines = ["## slurmrestd: Sluice (%s) vs Slurm 22.05 (v0.0.38)" % SLUICE_VER, "",
             "%s; %s; Sluice %s; %s" % (meta["date"], meta["machine"],
                                         meta["commit"], meta["conditions"]),
             "Clients: tests/perf/rest_load (C, keep-alive, one thread per "
             "connection) as %s over a unix socket, rest_auth/local, "
             "auth/munge." % USER, ""]
    head = "| figure | " + " | ".join(labels.get(n, n) for n in names)
    two = "sluice" in names and "slurm" in names
    head += " | Sluice / Slurm |" if two else " |"
    lines += [head, "|---" * (len(names) + 1 + (1 if two else 0)) + "|"]
    for label, fn, more_better, fmt in rows(figs):
        vals, nums = [], []
        for n in names:
            fg = figs.get(n, {})
            err = fg.get("error")
            if isinstance(fn, tuple) and fn[0] == "rates":
                f = fg.get(fn[1])
                v = (" / ".join("%.0f" % x for x in f["rates"])
                     if isinstance(f, dict) else None)
                nums.append(None)
            elif isinstance(fn, tuple):
                k = fn[1]
                f = fg.get(k)
                v = ("%.2f / %.2f" % (f.get("cpu_slurmrestd", 0),
                                      f.get("cpu_slurmctld", 0))
                     if isinstance(f, dict) else None)
                nums.append(None)
            elif fn is None and "latency" in label:
                f = fg.get("submitP")
                v = ("%.1f / %.1f" % (f["median_ms"], f["p95_ms"])
                     if isinstance(f, dict) else None)
                nums.append(None)
            elif fn is None:
                f = fg.get("submitP")
                v = (" / ".join("%.2f" % f.get("cpu_" + d, 0) for d in (
                    "slurmrestd", "slurmctld", "munged", "slurmdbd"))
                    if isinstance(f, dict) else None)
                nums.append(None)
            else:
                x = fn(fg)
                if isinstance(x, str):
                    v, x = x, None
                else:
                    v = fmt % x if x is not None else None
                nums.append(x)
            vals.append(v if v is not None else ("failed: %s" % err[:80] if err
                                                 else "—"))
        row = "| %s | %s" % (label, " | ".join(vals))
        if two:
            a, b = nums[names.index("sluice")], nums[names.index("slurm")]
            ratio = "—"
            if a and b and more_better is not None:
                ratio = "%.1fx" % (a / b if more_better else b / a)
                ratio += " faster" if (a / b if more_better else b / a) >= 1 else ""
            row += " | %s |" % ratio
        else:
            row += " |"
        lines.append(row)
    notes = ["",
             "Nodes drained for the submit and GET jobs figures (nothing runs). "
             "GET jobs: median and p95 of up to %d requests from 1 connection "
             "(fewer when one answer takes long: %d s a size, at least 3). "
             "GET nodes: 4 nodes with a slurmd each and %s configured without "
             "one (not responding; each listed with the same record): a slurmd "
             "process per node at this size was not tried for either system "
             "(bench_big.py needs 20-30 min and ~8 GiB for Sluice's alone)." % (RUNS, JOBS_BUDGET_S, format(NODES_BIG - 4, ",")),
             "CPU per request: utime+stime of each daemon over the run / "
             "requests. Ratios: Sluice's rate / Slurm's, or Slurm's latency / "
             "Sluice's."]
    for n in names:
        fg = figs.get(n, {})
        if "nodes_count" in fg:
            notes.append("%s lists %d nodes (sinfo -N)." % (labels.get(n, n),
                                                           fg["nodes_count"]))
        for size in SIZES:
            if "pending%d" % size in fg and fg["pending%d" % size] != size:
                notes.append("%s had %d pending at the %d size." % (
                    labels.get(n, n), fg["pending%d" % size], size))
        rss = ["%s: slurmctld %.0f / slurmrestd %.0f MiB" % (
            format(s_, ","), fg["ctld_rss%d" % s_], fg["restd_rss%d" % s_])
            for s_ in SIZES if "ctld_rss%d" % s_ in fg]
        if rss:
            notes.append("%s RSS after GET jobs at %s." % (labels.get(n, n),
                                                           "; ".join(rss)))
    return "\n".join(lines + notes) + "\n"


def main():
    if os.geteuid() != 0:
        sys.exit("bench_rest: run as root (it starts daemons)")
    cmp.setup()
    import cluster as cl
    cl.ensure_test_users()
    subprocess.run(["cmake", "--build", cmp.BUILD, "--target", "rest_load"],
                   check=True, stdout=subprocess.DEVNULL)
    if "slurm" in SYSTEMS and not os.access("/usr/sbin/slurmrestd", os.X_OK):
        subprocess.run(["apt-get", "install", "-y", "-qq", "slurmrestd"],
                       check=True, env=dict(os.environ,
                                            DEBIAN_FRONTEND="noninteractive"))
    meta = {"date": datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC"),
            "machine": cmp.machine(), "conditions": cmp.conditions(),
            "commit": cmp.sluice_version()}
    figs, raw = {}, []
    t0 = time.time()
    try:
        for name in SYSTEMS:
            figs[name] = {}
            for ph in PHASES:
                log("%s: %s" % (name, ph))
                try:
                    {"jobs": phase_jobs, "nodes": phase_nodes}[ph](
                        name, figs[name], raw)
                except Exception as e:
                    log("%s %s failed: %s" % (name, ph, e))
                    figs[name].setdefault("error", str(e).replace("\n", " "))
    finally:
        for f in cmp.DEFERRED:
            try:
                f()
            except Exception as e:  # cleaning up is best effort
                log("cleanup: %s" % e)
    table = render(figs, meta)
    sys.stdout.write(table)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write(table)
        f.write("\nRaw figures (rest_load output, cpu_* = ms per request):\n")
        f.write("\n".join(raw) + "\n")
    log("done in %.0f s; written to %s" % (time.time() - t0, OUT))


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(143))
    main()
