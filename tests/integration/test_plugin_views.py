"""priority, preempt, site_factor and jobcomp plugins see a versioned job
view (common/job_view.h), not the controller's records (issue 32).

Plugins built outside the tree (tests/integration/plugins/view_probe.c):
site_factor and jobcomp ones against their previous ops headers
(tests/fixtures/plugin_ops_v1: job_info_t) load, are logged as served at
their version, and act; priority and preempt ones against the current
headers (views) act in a running cluster.  A plugin that claims an ops
version this slurmctld does not serve (priority 1: the record it used to
get; site_factor 3: the future) stops it at start with a logged error
naming both versions."""

import os
import re
import subprocess
import time

import pytest

import cluster as cl

USER = "sluice_u1"
PROBE = os.path.join(cl.REPO, "tests", "integration", "plugins",
                     "view_probe.c")
TYPES = {"priority": 1, "preempt": 2, "site_factor": 3, "jobcomp": 4}


def _build(d, typ, name, old=False, claim=None):
    inc = []
    if old:
        inc.append(os.path.join(cl.REPO, "tests", "fixtures",
                                "plugin_ops_v1"))
    inc += [os.path.join(cl.REPO, "src"),
            os.path.join(cl.REPO, "src", "include")]
    argv = ["cc", "-Wall", "-Werror", "-shared", "-fPIC",
            "-DPROBE_TYPE=%d" % TYPES[typ], "-DPROBE_NAME=%s" % name]
    if claim is not None:
        argv.append("-DPROBE_CLAIM=%d" % claim)
    for i in inc:
        argv += ["-I", i]
    argv += ["-o", str(d / ("%s_%s.so" % (typ, name))), PROBE]
    r = subprocess.run(argv, capture_output=True, text=True)
    if r.returncode:
        pytest.skip("cannot build a plugin here: " + r.stderr[-500:])


def _plugin_dir(tmp_path):
    d = tmp_path / "plugins"
    d.mkdir()
    os.chmod(tmp_path, 0o755)
    os.chmod(d, 0o755)
    build = os.environ.get("SLUICE_BUILD_DIR", os.path.join(cl.REPO, "build"))
    return d, "%s:%s" % (d, os.path.join(build, "plugins"))


def _sprio_site(c, jid):
    r = c.run(["sprio", "-h", "--jobs=%d" % jid, "-o", "%i %S"])
    assert r.rc == 0, r
    return r.out.split()


def _squeue(c, jid, fmt):
    r = c.run(["squeue", "-h", "-j", str(jid), "-t", "all", "-o", fmt])
    assert r.rc == 0, r
    return r.out.strip()


def test_unknown_ops_versions_are_refused(new_cluster, tmp_path):
    d, dirs = _plugin_dir(tmp_path)
    _build(d, "priority", "recordera", claim=1)
    _build(d, "site_factor", "future", claim=3)
    _build(d, "preempt", "future", claim=3)
    c = new_cluster(nodes=1)
    cases = (
        ("PriorityType=priority/recordera", "priority/recordera",
         "built for priority ops version 1, this is 2"),
        ("PriorityType=priority/multifactor\n"
         "PrioritySiteFactorPlugin=site_factor/future",
         "site_factor/future",
         "built for site_factor ops version 3, this is 2 "
         "(which also serves 1..1)"),
        ("PreemptType=preempt/future\nPreemptMode=CANCEL",
         "preempt/future",
         "built for preempt ops version 3, this is 2"),
    )
    for conf, name, want in cases:
        c.extra_conf = "PluginDir=%s\n%s" % (dirs, conf)
        c.write_conf()
        c.kill_ctld()
        r = subprocess.run([c.bin("slurmctld"), "-D"], env=c.env_for(),
                           capture_output=True, text=True, timeout=30)
        text = r.stderr + r.stdout + c.log_text()
        assert r.returncode != 0, name
        typ = name.split("/")[0]
        assert "cannot create %s context for %s" % (typ, name) in text, \
            text[-2000:]
        assert want in text, text[-2000:]


def test_previous_ops_site_factor_and_jobcomp_act(new_cluster, tmp_path):
    d, dirs = _plugin_dir(tmp_path)
    _build(d, "site_factor", "old", old=True)
    _build(d, "jobcomp", "old", old=True)
    _build(d, "preempt", "view")
    loc = tmp_path / "jobcomp.txt"
    loc.touch()
    os.chmod(loc, 0o666)
    c = new_cluster(nodes=1, cpus=2, extra_conf="\n".join([
        "PluginDir=%s" % dirs,
        "PriorityType=priority/multifactor",
        "PrioritySiteFactorPlugin=site_factor/old",
        "JobCompType=jobcomp/old", "JobCompLoc=%s" % loc,
        "PreemptType=preempt/view", "PreemptMode=CANCEL",
        "PartitionName=low Nodes=ALL",
        "PartitionName=high Nodes=ALL"]))
    log = c.log_text()
    assert "site_factor: loaded site_factor/old (built for site_factor " \
        "ops version 1, this slurmctld's is 2: served as 1)" in log, \
        log[-2000:]
    assert "jobcomp: using jobcomp/old (built for jobcomp ops version 1" \
        in log, log[-2000:]
    # site_factor (ops 1, job_info_t): 7 per CPU, in sprio's SITE
    held = c.sbatch(["-n", "2", "--begin=now+1hour", "-o", "/dev/null",
                     "--wrap", "true"], user=USER)
    assert _sprio_site(c, held) == [str(held), "14"]
    # preempt (ops 2, views): a job of "high" takes the node from one of
    # "low", which is cancelled
    low = c.sbatch(["-p", "low", "-n", "2", "-o", "/dev/null",
                    "--wrap", "sleep 300"], user=USER)
    cl.wait_for(lambda: _squeue(c, low, "%T") == "RUNNING", timeout=30)
    high = c.sbatch(["-p", "high", "-n", "2", "-o", "/dev/null",
                     "--wrap", "true"], user=USER)
    cl.wait_for(lambda: _squeue(c, high, "%T") in ("RUNNING", "COMPLETED"),
                timeout=60)
    cl.wait_for(lambda: _squeue(c, low, "%T") in ("PREEMPTED",
                                                  "CANCELLED"),
                timeout=30)
    # jobcomp (ops 1, job_info_t): both ends recorded
    cl.wait_for(lambda: re.search(r"^old v1 %d %s " % (high, USER),
                                  loc.read_text(), re.M), timeout=30)
    assert re.search(r"^old v1 %d %s " % (low, USER), loc.read_text(),
                     re.M), loc.read_text()
    c.run(["scancel", str(held)])


def test_view_priority_plugin_sets_and_recalcs(new_cluster, tmp_path):
    d, dirs = _plugin_dir(tmp_path)
    _build(d, "priority", "view")
    c = new_cluster(nodes=1, extra_conf="PluginDir=%s\n"
                    "PriorityType=priority/view" % dirs)
    jid = c.sbatch(["-n", "1", "--begin=now+1hour", "-o", "/dev/null",
                    "--wrap", "true"], user=USER)
    # new_job saw the view of the new job: 424200 + its CPUs
    assert _squeue(c, jid, "%Q") == "424201"
    # a reconfigure recomputes every pending priority through recalc
    r = c.run(["scontrol", "reconfigure"])
    assert r.rc == 0, r
    cl.wait_for(lambda: _squeue(c, jid, "%Q") == "434301", timeout=30)
    c.run(["scancel", str(jid)])
