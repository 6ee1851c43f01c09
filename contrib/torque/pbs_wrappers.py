#!/usr/bin/python3
"""PBS/Torque commands on a Sluice cluster: qsub, qstat, qdel, qhold, qrls,
qrerun, pbsnodes and mpiexec (installed as mpiexec.slurm, as Debian's
slurm-wlm-torque names it), each a name (a symbolic link) for this file.

They run Sluice's own commands (sbatch, salloc, squeue, scontrol, scancel)
from the directory this file was installed to, else from SLUICE_BINDIR,
else from PATH, and print what PBS users and their scripts expect, as
Slurm's wrappers do.  sbatch itself reads a script's #PBS lines, so qsub
only translates what is given on its own command line.  See README.md.
"""

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time

PROG = os.path.basename(sys.argv[0])


def die(msg, code=1):
    sys.stderr.write("%s: %s\n" % (PROG, msg))
    sys.exit(code)


def sluice_bin(name):
    here = os.path.dirname(os.path.abspath(sys.argv[0]))
    for d in (here, os.environ.get("SLUICE_BINDIR", "")):
        p = os.path.join(d, name) if d else ""
        if p and os.access(p, os.X_OK) and not os.path.isdir(p):
            return p
    p = shutil.which(name)
    if not p:
        die("cannot find %s" % name)
    return p


def run(name, args, capture=True):
    """Run a Sluice command; its (rc, stdout, stderr), or exec-like when
    capture is False (the child's output goes straight through)."""
    argv = [sluice_bin(name)] + args
    if not capture:
        return subprocess.call(argv), "", ""
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    return p.returncode, p.stdout, p.stderr


def num(v, default=0):
    """A data_parser number: {"set": true, "number": N} or N."""
    if isinstance(v, dict):
        return v.get("number", default) if v.get("set", True) else default
    return v if v is not None else default


def hms(secs):
    secs = max(0, int(secs))
    return "%02d:%02d:%02d" % (secs // 3600, secs % 3600 // 60, secs % 60)


# ---- qsub ------------------------------------------------------------------

def pbs_time(spec):
    """PBS's -a [[[[CC]YY]MM]DD]hhmm[.SS] as sbatch's --begin."""
    m = re.fullmatch(r"(\d{2,12})(?:\.(\d{2}))?", spec)
    if not m or len(m.group(1)) % 2:
        return spec                     # sbatch's own forms pass through
    d, sec = m.group(1), m.group(2) or "00"
    now = time.localtime()
    parts = [d[i:i + 2] for i in range(0, len(d), 2)]
    hh, mm = parts[-2], parts[-1]
    day = parts[-3] if len(parts) >= 3 else "%02d" % now.tm_mday
    mon = parts[-4] if len(parts) >= 4 else "%02d" % now.tm_mon
    if len(parts) >= 6:
        year = parts[-6] + parts[-5]
    elif len(parts) == 5:
        year = "20" + parts[-5]
    else:
        year = "%04d" % now.tm_year
    return "%s-%s-%sT%s:%s:%s" % (year, mon, day, hh, mm, sec)


def resource_list(spec):
    """-l a=b,c=d as sbatch options (the #PBS lines' translation, for the
    keys a command line carries)."""
    out = []
    pro = {}
    for kv in spec.split(","):
        if "=" not in kv:
            continue
        k, v = kv.split("=", 1)
        if k in ("walltime", "cput", "pcput"):
            out.append("--time=" + v)
        elif k in ("mem", "file"):
            v = v[:-1] if v[-1:].upper() == "B" else v
            out.append(("--mem=" if k == "mem" else "--tmp=") + v)
        elif k == "nodes":
            nodes, ppn, hosts = 0, 0, []
            for part in re.split(r"[+:]", v):
                if part.startswith("ppn="):
                    ppn += int(part[4:] or 0)
                elif part[:1].isdigit():
                    nodes += int(re.match(r"\d+", part).group())
                elif part[:1].isalpha() and "=" not in part:
                    hosts.append(part)
            if nodes:
                out.append("--nodes=%d" % nodes)
            if ppn:
                out.append("--ntasks=%d" % (ppn * (nodes or 1)))
            if hosts:
                out.append("--nodelist=" + ",".join(hosts))
        elif k.lower() in ("select", "ncpus", "mpiprocs"):
            for part in kv.split(":"):
                if "=" in part:
                    pk, pv = part.split("=", 1)
                    pro[pk.lower()] = int(pv)
        elif k == "nice":
            out.append("--nice=" + v)
        elif k == "naccelerators":
            out.append("--gres=gpu:" + v)
    if "select" in pro:
        out.append("--nodes=%d" % pro["select"])
    if "ncpus" in pro:
        out.append("--mincpus=%d" % pro["ncpus"])
    if "mpiprocs" in pro:
        out.append("--ntasks-per-node=%d" % pro["mpiprocs"])
        if pro.get("ncpus", 0) > pro["mpiprocs"]:
            out.append("--cpus-per-task=%d" %
                       (pro["ncpus"] // pro["mpiprocs"]))
    return out


QSUB_USAGE = """Usage: qsub [-a start_time] [-A account] [-e err_path] [-h] [-I]
            [-j oe|eo|n] [-l resource_list] [-m mail_options] [-M user_list]
            [-N job_name] [-o out_path] [-p priority] [-q destination]
            [-r y|n] [-t array] [-v variable_list] [-V] [-wd workdir]
            [-W additional_attributes] [script]
"""

QSUB_ARG = set("aAeJjlmMNopqrtvW")
QSUB_FLAG = set("hIVz")


def qsub(argv):
    sb, join, out, err, interactive = [], None, None, None, False
    exports = []
    script = None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--help", "-?"):
            sys.stdout.write(QSUB_USAGE)
            return 0
        if a == "-wd":
            if i + 1 >= len(argv):
                die("option -wd needs a value")
            sb.append("--chdir=" + argv[i + 1])
            i += 2
            continue
        if len(a) == 2 and a[0] == "-" and a[1] in QSUB_FLAG:
            c = a[1]
            if c == "h":
                sb.append("--hold")
            elif c == "I":
                interactive = True
            elif c == "V":
                exports.insert(0, "ALL")
            i += 1
            continue
        if len(a) >= 2 and a[0] == "-" and a[1] in QSUB_ARG:
            c = a[1]
            if len(a) > 2:
                v = a[2:]
                i += 1
            elif i + 1 < len(argv):
                v = argv[i + 1]
                i += 2
            else:
                die("option -%s needs a value" % c)
            if c == "a":
                sb.append("--begin=" + pbs_time(v))
            elif c == "A":
                sb.append("--account=" + v)
            elif c == "e":
                err = v
            elif c == "o":
                out = v
            elif c == "j":
                join = v
            elif c == "l":
                sb.extend(resource_list(v))
            elif c == "m":
                t = []
                if "n" in v.lower():
                    t = ["NONE"]
                else:
                    for ch, name in (("b", "BEGIN"), ("e", "END"),
                                     ("a", "FAIL")):
                        if ch in v.lower():
                            t.append(name)
                if t:
                    sb.append("--mail-type=" + ",".join(t))
            elif c == "M":
                sb.append("--mail-user=" + v)
            elif c == "N":
                sb.append("--job-name=" + v)
            elif c == "p":
                # PBS: higher is more urgent; Slurm's nice: lower is
                sb.append("--nice=%d" % -int(v))
            elif c == "q":
                sb.append("--partition=" + v)
            elif c == "r":
                sb.append("--requeue" if v.lower().startswith("y")
                          else "--no-requeue")
            elif c in "tJ":
                sb.append("--array=" + v)
            elif c == "v":
                exports.extend(v.split(","))
            elif c == "W":
                if v.startswith("depend="):
                    sb.append("--dependency=" + v[7:])
                else:
                    die("-W %s is not supported" % v)
            continue
        if a.startswith("-"):
            die("invalid option %s\n%s" % (a, QSUB_USAGE.rstrip()))
        script = a
        i += 1
        if i < len(argv):
            die("too many arguments: %s" % " ".join(argv[i:]))
    cwd = os.getcwd()
    env = ["PBS_O_WORKDIR=" + cwd, "PBS_O_HOST=" + socket.gethostname()]
    if not exports or exports[0] != "ALL":
        exports.insert(0, "ALL")
    sb.append("--export=" + ",".join(exports + env))
    if interactive:
        rc, _, _ = run("salloc", sb, capture=False)
        return rc
    base = os.path.basename(script) if script else "STDIN"
    if join in ("oe", "eo"):
        sb.append("--output=" + (out or base + ".o%j"))
        if err and join == "eo":
            sb[-1] = "--output=" + err
    else:
        sb.append("--output=" + (out or base + ".o%j"))
        sb.append("--error=" + (err or base + ".e%j"))
    sb.append("--parsable")
    if script:
        sb.append(script)
    rc, o, e = run("sbatch", sb) if script else \
        subprocess_stdin(sb)
    sys.stderr.write(e)
    if rc == 0:
        print(o.strip().split(";")[0])
    return rc


def subprocess_stdin(sb):
    p = subprocess.run([sluice_bin("sbatch")] + sb, stdin=sys.stdin,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    return p.returncode, p.stdout, p.stderr


# ---- qstat -----------------------------------------------------------------

def pbs_state(job):
    st = job.get("job_state") or []
    st = st[0] if isinstance(st, list) and st else st or ""
    return {"PENDING": "Q", "RUNNING": "R", "SUSPENDED": "S",
            "COMPLETING": "E", "CONFIGURING": "R", "REQUEUED": "Q",
            "RESIZING": "R"}.get(st, "C")


def jobs(ids=(), users=()):
    args = ["--json"]
    if ids:
        args += ["-j", ",".join(ids)]
    else:
        args += ["-t", "all"]
    if users:
        args += ["-u", ",".join(users)]
    rc, o, e = run("squeue", args)
    if rc != 0 and ids and "Invalid job id" in e:
        die("Unknown Job Id %s" % ids[0], 153)      # as PBS
    if rc != 0:
        sys.stderr.write(e)
        sys.exit(rc)
    return json.loads(o).get("jobs", [])


def elapsed(job):
    start = num(job.get("start_time"))
    if not start or pbs_state(job) == "Q":
        return 0
    end = num(job.get("end_time"))
    now = time.time()
    if pbs_state(job) == "C" and end:
        now = end
    return max(0, now - start)


def job_id(job):
    if num(job.get("array_job_id")) and \
            job.get("array_task_id", {}).get("set", False):
        return "%d[%d]" % (num(job.get("array_job_id")),
                           num(job.get("array_task_id")))
    return str(job["job_id"])


def limit_hm(job):
    lim = job.get("time_limit", {})
    if isinstance(lim, dict) and (not lim.get("set", True) or
                                  lim.get("infinite")):
        return "--"
    m = num(lim)
    return "%02d:%02d" % (m // 60, m % 60)


def qstat_default(js):
    print("Job id              Name             Username        Time Use S "
          "Queue          ")
    print("------------------- ---------------- --------------- -------- - "
          "---------------")
    for j in js:
        print("%-19s %-16.16s %-15.15s %8s %s %-15.15s" %
              (job_id(j), j.get("name", ""), j.get("user_name", ""),
               hms(elapsed(j)), pbs_state(j), j.get("partition", "")))


def qstat_all(js, with_nodes):
    print("\n%s:" % socket.gethostname().split(".")[0])
    print("%79s" % "Req'd  Req'd   Elap ")
    print("Job id               Username Queue    Name                 "
          "SessID NDS   TSK   Memory Time Use S Time ")
    print("-------------------- -------- -------- -------------------- "
          "------ ----- ----- ------ ----- - -----")
    for j in js:
        mem = num(j.get("memory_per_node"))
        print("%-20.20s %-8.8s %-8.8s %-20.20s %6s %5d %5d %6s %5s %s %5s" %
              (job_id(j), j.get("user_name", ""), j.get("partition", ""),
               j.get("name", ""), "--", num(j.get("node_count")),
               num(j.get("tasks")), ("%dmb" % mem) if mem else "--",
               limit_hm(j), pbs_state(j), hms(elapsed(j))[:5]))
        if with_nodes and j.get("nodes"):
            print("   " + j["nodes"])


def qstat_full(js):
    for j in js:
        nodes = j.get("nodes") or ""
        cpus = num(j.get("cpus"))
        lines = [
            "Job Id:\t%s" % job_id(j),
            "\tJob_Name = %s" % j.get("name", ""),
            "\tJob_Owner = %s@%s" % (j.get("user_name", ""),
                                     j.get("submit_host", "") or
                                     socket.gethostname()),
            "\tjob_state = %s" % pbs_state(j),
            "\tqueue = %s" % j.get("partition", ""),
            "\tqtime = %s" % time.ctime(num(j.get("submit_time"))),
            "\tAccount_Name = %s" % j.get("account", ""),
        ]
        if nodes:
            lines.append("\texec_host = %s" % nodes)
        lines += [
            "\tPriority = %d" % num(j.get("priority")),
            "\teuser = %s(%d)" % (j.get("user_name", ""),
                                  num(j.get("user_id"))),
            "\tegroup = %s(%d)" % (j.get("group_name", ""),
                                   num(j.get("group_id"))),
            "\tResource_List.walltime = %s" % (
                hms(num(j.get("time_limit")) * 60)
                if limit_hm(j) != "--" else "UNLIMITED"),
            "\tResource_List.nodect = %d" % num(j.get("node_count")),
            "\tResource_List.ncpus = %d" % cpus,
        ]
        print("\n".join(lines))
        print()


def qstat(argv):
    full = alljobs = with_nodes = False
    only = None
    users, ids = [], []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-?", "--help"):
            print("Usage: qstat [-f] [-a|-i|-r] [-n [-1]] [-u user_list] "
                  "[job_id...]")
            return 0
        if a == "-f":
            full = True
        elif a == "-a":
            alljobs = True
        elif a == "-i":
            alljobs, only = True, "Q"
        elif a == "-r":
            alljobs, only = True, "R"
        elif a == "-n":
            alljobs = with_nodes = True
        elif a == "-1":
            pass
        elif a == "-u":
            if i + 1 >= len(argv):
                die("option -u needs a value")
            users += argv[i + 1].split(",")
            i += 1
        elif a.startswith("-"):
            die("invalid option %s" % a)
        else:
            ids.append(a.split(".")[0])
        i += 1
    js = jobs(ids, users)
    if only:
        js = [j for j in js if pbs_state(j) == only]
    if ids and not js:
        die("Unknown Job Id %s" % ids[0], 153)
    if full:
        qstat_full(js)
    elif alljobs:
        qstat_all(js, with_nodes)
    elif js:
        qstat_default(js)
    return 0


# ---- qdel, qhold, qrls, qrerun ----------------------------------------------

def job_args(argv, usage):
    if not argv or any(a.startswith("-") for a in argv):
        die("Usage: %s %s" % (PROG, usage))
    return [a.split(".")[0] for a in argv]


def qdel(argv):
    rc = 0
    for jid in job_args(argv, "job_id..."):
        r, _, e = run("scancel", [jid])
        if r:
            sys.stderr.write(e)
            rc = 1
    return rc


def qhold(argv):
    r, _, e = run("scontrol", ["hold"] + job_args(argv, "job_id..."))
    sys.stderr.write(e)
    return 1 if r else 0


def qrls(argv):
    r, _, e = run("scontrol", ["release"] + job_args(argv, "job_id..."))
    sys.stderr.write(e)
    return 1 if r else 0


def qrerun(argv):
    r, _, e = run("scontrol", ["requeue"] + job_args(argv, "job_id..."))
    sys.stderr.write(e)
    return 1 if r else 0


# ---- pbsnodes --------------------------------------------------------------

def node_state(n):
    st = [s.upper() for s in n.get("state", [])]
    base = st[0] if st else "UNKNOWN"
    if "DRAIN" in st:
        return "offline", "draining" if base in ("ALLOCATED", "MIXED") \
            else "drained"
    if base == "DOWN":
        return "down", "down"
    return {"IDLE": "free", "ALLOCATED": "job-exclusive"}.get(
        base, base.lower()), base.lower()


def nodes(names=()):
    args = ["--json", "show", "node"]
    if names:
        args.append(",".join(names))
    rc, o, e = run("scontrol", args)
    if rc != 0:
        sys.stderr.write(e)
        sys.exit(rc)
    return json.loads(o).get("nodes", [])


def pbsnodes(argv):
    list_down = False
    names = []
    for a in argv:
        if a == "-l":
            list_down = True
        elif a == "-a":
            pass
        elif a.startswith("-"):
            die("invalid option %s\nUsage: pbsnodes [-a] [-l] [node...]" % a)
        else:
            names.append(a)
    ns = nodes(names)
    now = int(time.time())
    for n in ns:
        pbs, slurm = node_state(n)
        if list_down:
            if pbs in ("down", "offline"):
                print("%-20s %s" % (n["name"], pbs))
            continue
        tmp = num(n.get("temporary_disk"))
        print(n["name"])
        print("    state = %s" % pbs)
        print("    np = %d" % num(n.get("cpus")))
        print("    ntype = cluster")
        print("    status = rectime=%d,state=%s,slurmstate=%s,"
              "size=%dkb:%dkb,ncpus=%d,boards=%d,sockets=%d,cores=%d,"
              "threads=%d,availmem=%dmb,opsys=%s,arch=%s" %
              (now, pbs, slurm, tmp * 1024, tmp * 1024, num(n.get("cpus")),
               num(n.get("boards"), 1), num(n.get("sockets")),
               num(n.get("cores")), num(n.get("threads")),
               num(n.get("real_memory")),
               (n.get("operating_system") or "").lower(),
               n.get("architecture") or ""))
        print()
    return 0


# ---- mpiexec ---------------------------------------------------------------

MPIEXEC_USAGE = "Usage: mpiexec [-n|-np N] [--] command [args...]"


def mpiexec(argv):
    """An MPI program as PBS scripts start it: srun over the job's
    allocation (-n/-np: that many tasks, else the allocation's)."""
    sr, i = [], 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help", "-?"):
            print(MPIEXEC_USAGE)
            return 0
        if a in ("-n", "-np"):
            if i + 1 >= len(argv) or not argv[i + 1].isdigit() or \
                    int(argv[i + 1]) < 1:
                die("option %s needs a task count\n%s" % (a, MPIEXEC_USAGE))
            sr.append("--ntasks=" + argv[i + 1])
            i += 2
            continue
        if a == "--":
            i += 1
            break
        if a.startswith("-"):
            die("invalid option %s\n%s" % (a, MPIEXEC_USAGE))
        break
    if i >= len(argv):
        die("no command given\n%s" % MPIEXEC_USAGE)
    if not os.environ.get("SLURM_JOB_ID"):
        die("not inside a job: run it from a qsub script (or salloc)")
    rc, _, _ = run("srun", sr + argv[i:], capture=False)
    return rc


COMMANDS = {"qsub": qsub, "qstat": qstat, "qdel": qdel, "qhold": qhold,
            "qrls": qrls, "qrerun": qrerun, "pbsnodes": pbsnodes,
            "mpiexec": mpiexec, "mpiexec.slurm": mpiexec}


def main():
    fn = COMMANDS.get(PROG)
    if not fn:
        die("run me as one of: " + ", ".join(sorted(COMMANDS)))
    try:
        return fn(sys.argv[1:])
    except KeyboardInterrupt:
        return 130
    except ValueError as e:
        die(str(e))


if __name__ == "__main__":
    sys.exit(main())
