"""job_submit plugins see versioned views (issue 32): of the request
(job_submit_view_t), of the job as it is (job_view_t, modify) and of the
partitions (part_view_t).  Plugins built against the previous ops headers
(tests/fixtures/job_submit_view_v1: ops 1, tests/fixtures/
job_submit_ops_v2: ops 2, frozen copies) and one built against the
current header (ops 3) load into the same slurmctld and act on the job;
the current one's modify reads the job and partition views; a plugin that
claims an ops version this slurmctld does not serve stops it at start with
a logged error naming both versions."""

import os
import re
import subprocess

import pytest

import cluster as cl

USER = "sluice_u1"
PROBE = os.path.join(cl.REPO, "tests", "integration", "plugins",
                     "js_view_probe.c")


def _build(d, name, view, claim=None):
    if view == 1:
        inc = [os.path.join(cl.REPO, "tests", "fixtures",
                            "job_submit_view_v1")]
    elif view == 2:
        inc = [os.path.join(cl.REPO, "tests", "fixtures",
                            "job_submit_ops_v2")]
    else:
        # ops 3 over the frozen job and partition views (the fixtures
        # shadow common/job_view.h and common/part_view.h)
        inc = [os.path.join(cl.REPO, "src", "ctld"),
               os.path.join(cl.REPO, "tests", "fixtures", "job_view_v1"),
               os.path.join(cl.REPO, "tests", "fixtures", "part_view_v1")]
    inc += [os.path.join(cl.REPO, "src"),
            os.path.join(cl.REPO, "src", "include")]
    argv = ["cc", "-Wall", "-Werror", "-shared", "-fPIC",
            "-DPROBE_NAME=%s" % name]
    if claim is not None:
        argv.append("-DPROBE_CLAIM=%d" % claim)
    for i in inc:
        argv += ["-I", i]
    argv += ["-o", str(d / ("job_submit_%s.so" % name)), PROBE]
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


def _show(c, jid):
    r = c.run(["scontrol", "show", "job", str(jid)])
    assert r.rc == 0, r
    return r.out


def test_previous_and_current_ops_plugins_all_act(new_cluster, tmp_path):
    d, dirs = _plugin_dir(tmp_path)
    _build(d, "viewold", 1)
    _build(d, "viewmid", 2)
    _build(d, "viewnew", 3)
    c = new_cluster(nodes=1, extra_conf="PluginDir=%s\n"
                    "JobSubmitPlugins=viewold,viewmid,viewnew\n"
                    "PartitionName=short Nodes=ALL MaxTime=30" % dirs)
    log = c.log_text()
    for name, v in (("viewold", 1), ("viewmid", 2)):
        assert "job_submit: loaded job_submit/%s (built for job_submit " \
            "ops version %d, this slurmctld's is 3: served as %d)" \
            % (name, v, v) in log, log[-2000:]
    assert "job_submit: loaded job_submit/viewnew\n" in log
    jid = c.sbatch(["--hold", "-t", "5", "-o", "/dev/null",
                    "--comment", "site", "--wrap", "true"], user=USER)
    out = _show(c, jid)
    # all ran in order on the same job; from ops 2 on they saw the
    # client's protocol version (hex); ops 3 saw the partition views
    # (names in order, the default starred)
    m = re.search(r"Comment=(\S+)", out)
    assert m, out
    parts = m.group(1).split(",")
    assert parts[:2] == ["site", "viewold:v1"], out
    assert re.fullmatch(r"viewmid:v2:2[0-9a-f]{3}", parts[2]), out
    assert re.fullmatch(r"viewnew:v3:2[0-9a-f]{3}:short:debug\*",
                        parts[3]), out
    assert "TimeMin=00:01:00" in out, out
    # each refuses with its own message, the job is not created
    for name in ("viewold", "viewmid", "viewnew"):
        r = c.run(["sbatch", "-J", "refuse-" + name, "-o", "/dev/null",
                   "--wrap", "true"], user=USER)
        assert r.rc == 1, r
        assert "%s refuses this job" % name in r.err, r
    c.run(["scancel", str(jid)])


def test_modify_sees_job_and_partition_views(new_cluster, tmp_path):
    d, dirs = _plugin_dir(tmp_path)
    _build(d, "viewnew", 3)
    c = new_cluster(nodes=1, extra_conf="PluginDir=%s\n"
                    "JobSubmitPlugins=viewnew\n"
                    "PartitionName=short Nodes=ALL MaxTime=30" % dirs)
    jid = c.sbatch(["-p", "short", "--hold", "-t", "5", "-o", "/dev/null",
                    "--wrap", "true"], user=USER)
    # above the job's partition's MaxTime (the partition view) the
    # plugin refuses, naming what the job view told it
    r = c.run(["scontrol", "update", "JobId=%d" % jid, "TimeLimit=60"])
    assert r.rc != 0, r
    assert "viewnew: job %d of %s (pending, limit 5) may not exceed " \
        "short's 30 minutes" % (jid, USER) in r.err + r.out, r
    assert "TimeLimit=00:05:00" in _show(c, jid)
    r = c.run(["scontrol", "update", "JobId=%d" % jid, "TimeLimit=20"])
    assert r.rc == 0, r
    assert "TimeLimit=00:20:00" in _show(c, jid)
    # an update that leaves the limit is not the plugin's business
    r = c.run(["scontrol", "update", "JobId=%d" % jid, "Comment=x"])
    assert r.rc == 0, r
    c.run(["scancel", str(jid)])


def test_unknown_ops_version_is_refused(new_cluster, tmp_path):
    d, dirs = _plugin_dir(tmp_path)
    _build(d, "viewfuture", 3, claim=4)
    _build(d, "viewancient", 3, claim=0)
    c = new_cluster(nodes=1)
    for name, want in (("viewfuture", "ops version 4, this is 3"),
                       ("viewancient", "ops version 0, this is 3")):
        c.extra_conf = "PluginDir=%s\nJobSubmitPlugins=%s" % (dirs, name)
        c.write_conf()
        c.kill_ctld()
        r = subprocess.run([c.bin("slurmctld"), "-D"], env=c.env_for(),
                           capture_output=True, text=True, timeout=30)
        text = r.stderr + r.stdout + c.log_text()
        assert r.returncode != 0, name
        assert "cannot create job_submit context for job_submit/%s" % name \
            in text, text[-2000:]
        assert "built for job_submit %s (which also serves 1..2)" % want \
            in text, text[-2000:]
