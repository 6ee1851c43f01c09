"""job_submit plugins see a versioned view of the job (issue 32): a plugin
built against the previous view's header (tests/fixtures/
job_submit_view_v1, a frozen copy) and one built against the current
header both load into the same slurmctld and act on the job; a plugin that
claims a view version this slurmctld does not serve stops it at start
with a logged error naming both versions."""

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
    else:
        inc = [os.path.join(cl.REPO, "src", "ctld")]
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


def test_previous_and_current_view_plugins_both_act(new_cluster, tmp_path):
    d, dirs = _plugin_dir(tmp_path)
    _build(d, "viewold", 1)
    _build(d, "viewnew", 2)
    c = new_cluster(nodes=1, extra_conf="PluginDir=%s\n"
                    "JobSubmitPlugins=viewold,viewnew" % dirs)
    log = c.log_text()
    assert "job_submit: loaded job_submit/viewold (built for job view 1" \
        in log, log[-2000:]
    assert "job_submit: loaded job_submit/viewnew" in log
    jid = c.sbatch(["--hold", "-t", "5", "-o", "/dev/null",
                    "--comment", "site", "--wrap", "true"], user=USER)
    out = _show(c, jid)
    # both ran in order on the same job; the new one saw the client's
    # protocol version (hex), which only view 2 has
    m = re.search(r"Comment=(\S+)", out)
    assert m, out
    parts = m.group(1).split(",")
    assert parts[:2] == ["site", "viewold:v1"], out
    assert re.fullmatch(r"viewnew:v2:2[0-9a-f]{3}", parts[2]), out
    assert "TimeMin=00:01:00" in out, out
    # each refuses with its own message, the job is not created
    for name in ("viewold", "viewnew"):
        r = c.run(["sbatch", "-J", "refuse-" + name, "-o", "/dev/null",
                   "--wrap", "true"], user=USER)
        assert r.rc == 1, r
        assert "%s refuses this job" % name in r.err, r
    c.run(["scancel", str(jid)])


def test_unknown_view_version_is_refused(new_cluster, tmp_path):
    d, dirs = _plugin_dir(tmp_path)
    _build(d, "viewfuture", 2, claim=3)
    _build(d, "viewancient", 2, claim=0)
    c = new_cluster(nodes=1)
    for name, want in (("viewfuture", "ops version 3, this is 2"),
                       ("viewancient", "ops version 0, this is 2")):
        c.extra_conf = "PluginDir=%s\nJobSubmitPlugins=%s" % (dirs, name)
        c.write_conf()
        c.kill_ctld()
        r = subprocess.run([c.bin("slurmctld"), "-D"], env=c.env_for(),
                           capture_output=True, text=True, timeout=30)
        text = r.stderr + r.stdout + c.log_text()
        assert r.returncode != 0, name
        assert "cannot create job_submit context for job_submit/%s" % name \
            in text, text[-2000:]
        assert "built for job_submit %s (which also serves 1..1)" % want \
            in text, text[-2000:]
