"""Task keywords: one row per keyword maps it to its sbatch option and to
the job_desc property slurmrestd takes for it.  Both submission paths
walk this table, so the command line and the REST body cannot drift.

    check(opts)            -> normalised dict, TypeError/ValueError on bad
    sbatch_args(opts)      -> ["--time=10", "--mem=4G", ...]
    rest_job_desc(opts)    -> {"time_limit": 10, "memory_per_node": 4096, ...}
"""

import re

# kind: how the value is checked and written
#   int     a positive integer
#   int0    a non-negative integer
#   str     a non-empty string without newlines
#   time    Slurm time: minutes (int) or "MM:SS", "HH:MM:SS", "D-HH[:MM[:SS]]"
#   mem     megabytes (int) or a size with a K/M/G/T suffix ("32G")
#   nodes   an integer or a "min-max" range
#   bool    True/False: --opt / --no-opt (requeue) or --opt / nothing
#   gpus    [type:]count, as --gpus takes it
# rest: the job_desc property (None: not available through slurmrestd);
#   "gres:<prop>" writes "gres/gpu:N" into that property.
_ROWS = [
    # keyword            sbatch option          kind     rest property
    ("time",             "time",                "time",  "time_limit"),
    ("time_min",         "time-min",            "time",  "time_minimum"),
    ("mem",              "mem",                 "mem",   "memory_per_node"),
    ("mem_per_cpu",      "mem-per-cpu",         "mem",   "memory_per_cpu"),
    ("mem_per_gpu",      "mem-per-gpu",         "mem",   None),
    ("cpus_per_task",    "cpus-per-task",       "int",   "cpus_per_task"),
    ("cpus_per_gpu",     "cpus-per-gpu",        "int",   "gres:cpus_per_tres"),
    ("gpus",             "gpus",                "gpus",  "gres:tres_per_job"),
    ("gpus_per_node",    "gpus-per-node",       "gpus",  "gres:tres_per_node"),
    ("gpus_per_task",    "gpus-per-task",       "gpus",  "gres:tres_per_task"),
    ("gres",             "gres",                "str",   None),
    ("nodes",            "nodes",               "nodes", "nodes"),
    ("ntasks",           "ntasks",              "int",   "tasks"),
    ("ntasks_per_node",  "ntasks-per-node",     "int",   "tasks_per_node"),
    ("partition",        "partition",           "str",   "partition"),
    ("account",          "account",             "str",   "account"),
    ("qos",              "qos",                 "str",   "qos"),
    ("constraint",       "constraint",          "str",   "constraints"),
    ("reservation",      "reservation",         "str",   "reservation"),
    ("nodelist",         "nodelist",            "str",   "required_nodes"),
    ("exclude",          "exclude",             "str",   "excluded_nodes"),
    ("job_name",         "job-name",            "str",   "name"),
    ("comment",          "comment",             "str",   "comment"),
    ("wckey",            "wckey",               "str",   "wckey"),
    ("licenses",         "licenses",            "str",   "licenses"),
    ("begin",            "begin",               "str",   "begin_time"),
    ("deadline",         "deadline",            "str",   "deadline"),
    ("nice",             "nice",                "int0",  "nice"),
    ("mail_type",        "mail-type",           "str",   "mail_type"),
    ("mail_user",        "mail-user",           "str",   "mail_user"),
    ("requeue",          "requeue",             "bool",  "requeue"),
    ("exclusive",        "exclusive",           "bool",  None),
    ("hold",             "hold",                "bool",  "hold"),
    ("checkpoint",       "checkpoint",          "bool",  None),
    ("throttle",         None,                  "int",   None),
]
ROWS = {r[0]: r for r in _ROWS}

# Keywords that are not sbatch options.
EXTRA_KEYWORDS = {
    "environment": "dict of NAME -> value exported to the task",
    "sbatch_options": "other sbatch options: {'signal': 'B:USR1@60'} or "
                      "['--signal=B:USR1@60']",
    "rest_options": "other job_desc properties for the rest backend",
    "max_pickle_size": "byte limit for this task's pickles",
}
KEYWORDS = frozenset(ROWS) | frozenset(EXTRA_KEYWORDS)

_TIME_RE = re.compile(r"^(?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?$")
_MEM_RE = re.compile(r"^(\d+)([KMGT]?)B?$", re.I)
_NODES_RE = re.compile(r"^\d+(?:-\d+)?$")
_GPUS_RE = re.compile(r"^(?:[A-Za-z0-9_.-]+:)?\d+$")
_SBATCH_OPT_RE = re.compile(r"^[a-z][a-z0-9-]*$")


def unknown_keyword(where, name):
    """The TypeError Python gives for an unexpected keyword, plus the list
    of those that exist."""
    return TypeError("%s got an unexpected keyword argument %r (task "
                     "keywords: %s)" % (where, name,
                                        ", ".join(sorted(KEYWORDS))))


def time_minutes(v):
    """Slurm time limit -> whole minutes (seconds round up)."""
    if isinstance(v, bool):
        raise ValueError("time=%r: expected minutes or \"HH:MM:SS\"" % (v,))
    if isinstance(v, int):
        if v <= 0:
            raise ValueError("time=%r: must be positive" % v)
        return v
    m = _TIME_RE.match(str(v).strip())
    if not m:
        raise ValueError("time=%r: expected minutes, \"MM:SS\", "
                         "\"HH:MM:SS\" or \"D-HH:MM:SS\"" % (v,))
    d, a, b, c = m.groups()
    if d is not None:                # D-HH[:MM[:SS]]
        secs = int(d) * 86400 + int(a) * 3600 + int(b or 0) * 60 + int(c or 0)
    elif c is not None:              # HH:MM:SS
        secs = int(a) * 3600 + int(b) * 60 + int(c)
    elif b is not None:              # MM:SS
        secs = int(a) * 60 + int(b)
    else:                            # MM
        secs = int(a) * 60
    if secs <= 0:
        raise ValueError("time=%r: must be positive" % (v,))
    return (secs + 59) // 60


def mem_megabytes(v, name="mem"):
    if isinstance(v, bool):
        raise ValueError("%s=%r: expected megabytes or a size like \"4G\""
                         % (name, v))
    if isinstance(v, int):
        if v < 0:
            raise ValueError("%s=%r: must not be negative" % (name, v))
        return v
    m = _MEM_RE.match(str(v).strip())
    if not m:
        raise ValueError("%s=%r: expected megabytes or a size like \"4G\""
                         % (name, v))
    n, unit = int(m.group(1)), m.group(2).upper()
    mult = {"K": 1.0 / 1024, "": 1, "M": 1, "G": 1024, "T": 1024 * 1024}[unit]
    return max(1, int(n * mult)) if n else 0


def _check_one(name, kind, v):
    if kind in ("int", "int0"):
        if isinstance(v, bool) or not isinstance(v, int) or \
                v < (1 if kind == "int" else 0):
            raise ValueError("%s=%r: expected a %s integer" % (
                name, v, "positive" if kind == "int" else "non-negative"))
        return v
    if kind == "str":
        if not isinstance(v, str) or not v or "\n" in v or "\0" in v:
            raise ValueError("%s=%r: expected a non-empty one-line string"
                             % (name, v))
        return v
    if kind == "time":
        time_minutes(v)
        return v
    if kind == "mem":
        mem_megabytes(v, name)
        return v
    if kind == "nodes":
        if isinstance(v, bool) or not (isinstance(v, int) and v > 0 or
                                       isinstance(v, str) and
                                       _NODES_RE.match(v)):
            raise ValueError("%s=%r: expected a node count or \"min-max\""
                             % (name, v))
        return v
    if kind == "gpus":
        if isinstance(v, bool) or not (isinstance(v, int) and v >= 0 or
                                       isinstance(v, str) and
                                       _GPUS_RE.match(v)):
            raise ValueError("%s=%r: expected a count or \"type:count\""
                             % (name, v))
        return v
    if kind == "bool":
        if not isinstance(v, bool):
            raise ValueError("%s=%r: expected True or False" % (name, v))
        return v
    raise AssertionError(kind)


def _check_sbatch_options(v):
    """{'opt': value} or ['--opt=value', ...] -> list of '--opt=value'."""
    out = []
    if isinstance(v, dict):
        for k, val in v.items():
            k = str(k).lstrip("-").replace("_", "-")
            if not _SBATCH_OPT_RE.match(k):
                raise ValueError("sbatch_options: %r is not an option name"
                                 % k)
            if val is True or val is None:
                out.append("--" + k)
            elif val is False:
                continue
            else:
                out.append("--%s=%s" % (k, val))
    elif isinstance(v, (list, tuple)):
        for a in v:
            if not isinstance(a, str) or not a.startswith("-"):
                raise ValueError("sbatch_options: %r is not an option" % (a,))
            out.append(a)
    else:
        raise ValueError("sbatch_options: expected a dict or a list of "
                         "strings, not %s" % type(v).__name__)
    for a in out:
        if "\n" in a or "\0" in a:
            raise ValueError("sbatch_options: %r contains a newline" % a)
    return out


def check(opts, where="task()"):
    """Check every keyword of opts; returns a new dict.  Unknown keywords
    raise TypeError naming them, bad values ValueError.  None values mean
    "not given" and are dropped."""
    out = {}
    for k, v in opts.items():
        if k not in KEYWORDS:
            raise unknown_keyword(where, k)
        if v is None:
            continue
        if k == "environment":
            if not isinstance(v, dict) or not all(
                    isinstance(a, str) and re.match(r"^[A-Za-z_]\w*$", a)
                    for a in v):
                raise ValueError("environment: expected a dict of "
                                 "NAME -> value")
            out[k] = {a: str(b) for a, b in v.items()}
        elif k == "sbatch_options":
            out[k] = _check_sbatch_options(v)
        elif k == "rest_options":
            if not isinstance(v, dict):
                raise ValueError("rest_options: expected a dict")
            out[k] = dict(v)
        elif k == "max_pickle_size":
            out[k] = _check_one(k, "int", v)
        else:
            out[k] = _check_one(k, ROWS[k][2], v)
    return out


def merge(*layers):
    """Later layers win; environment, sbatch_options and rest_options
    accumulate."""
    out = {}
    for layer in layers:
        for k, v in (layer or {}).items():
            if k == "environment":
                out[k] = dict(out.get(k, {}), **v)
            elif k == "sbatch_options":
                out[k] = list(out.get(k, [])) + list(v)
            elif k == "rest_options":
                out[k] = dict(out.get(k, {}), **v)
            else:
                out[k] = v
    return out


def sbatch_args(opts):
    args = []
    for k, v in opts.items():
        row = ROWS.get(k)
        if row is None or row[1] is None:
            continue
        flag, kind = row[1], row[2]
        if kind == "bool":
            if v:
                args.append("--" + flag)
            elif flag == "requeue":
                args.append("--no-requeue")
        else:
            args.append("--%s=%s" % (flag, v))
    args += opts.get("sbatch_options", [])
    return args


def rest_job_desc(opts):
    """The job_desc properties for opts; ValueError naming a keyword that
    slurmrestd cannot take."""
    job = {}
    for k, v in opts.items():
        row = ROWS.get(k)
        if row is None or row[1] is None:
            continue
        prop, kind = row[3], row[2]
        if prop is None and kind == "bool" and not v:
            continue
        if prop is None:
            raise ValueError("%s= is not available through the rest backend "
                             "(use rest_options={...} with the job_desc "
                             "property)" % k)
        if prop.startswith("gres:"):
            prop = prop[5:]
            v = "gres/gpu:%s" % v
        elif kind == "time":
            v = time_minutes(v)
        elif kind == "mem":
            v = mem_megabytes(v, k)
        elif kind == "nodes":
            v = str(v)
        elif k in ("nodelist", "exclude"):
            v = [v]
        job[prop] = v
    if opts.get("sbatch_options"):
        raise ValueError("sbatch_options= is not available through the rest "
                         "backend (use rest_options={...})")
    job.update(opts.get("rest_options", {}))
    return job
