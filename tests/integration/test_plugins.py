"""The plugin context (src/common/plugin_ctx.c) as an admin meets it:
a plugin name that resolves to no built-in and no <type>_<name>.so in
PluginDir stops slurmctld at start with Slurm's "cannot create <type>
context for <type>/<name>", and `scontrol reconfigure` with such a name
keeps the running controller and its old configuration."""

import os
import re
import subprocess
import time

import cluster as cl


def start_fails(c, extra):
    """Writes extra into slurm.conf, starts slurmctld in the foreground
    and returns (rc, everything it said)."""
    c.extra_conf = extra
    c.write_conf()
    c.kill_ctld()
    r = subprocess.run([c.bin("slurmctld"), "-D"], env=c.env_for(),
                       capture_output=True, text=True, timeout=30)
    return r.returncode, r.stderr + r.stdout + c.log_text()


def test_unknown_names_stop_the_controller(new_cluster):
    c = new_cluster(nodes=1)
    for extra, want in [
        ("JobCompType=jobcomp/elasticsearchx",
         "cannot create jobcomp context for jobcomp/elasticsearchx"),
        ("JobSubmitPlugins=lua,nosuch",
         "cannot create job_submit context for job_submit/nosuch"),
        ("JobCompType=select/cons_tres",
         "cannot create jobcomp context for select/cons_tres"),
    ]:
        rc, text = start_fails(c, extra)
        assert rc != 0, extra
        assert want in text, (extra, text[-2000:])


def test_plugin_of_another_type_is_refused(new_cluster, tmp_path):
    """A .so named jobcomp_x.so that is really another type's plugin."""
    c = new_cluster(nodes=1)
    plugdir = tmp_path / "plugins"
    plugdir.mkdir()
    build = os.environ.get("SLUICE_BUILD_DIR", os.path.join(cl.REPO, "build"))
    src = os.path.join(build, "plugins", "auth_munge.so")
    with open(src, "rb") as f, open(plugdir / "jobcomp_x.so", "wb") as g:
        g.write(f.read())
    os.chmod(tmp_path, 0o755)
    os.chmod(plugdir, 0o755)
    rc, text = start_fails(c, "PluginDir=%s:%s\nJobCompType=jobcomp/x"
                           % (plugdir, os.path.join(build, "plugins")))
    assert rc != 0
    assert "cannot create jobcomp context for jobcomp/x" in text, text[-2000:]
    assert "calls itself auth/munge" in text


def test_reconfigure_keeps_old_config(new_cluster, tmp_path):
    c = new_cluster(nodes=1)
    out = str(tmp_path / "jobcomp.txt")
    os.chmod(tmp_path, 0o777)
    c.extra_conf = "JobCompType=jobcomp/filetxt\nJobCompLoc=%s" % out
    c.write_conf()
    c.kill_ctld()
    c.start_ctld()
    c.wait_ready()
    # the new file names a plugin that does not exist
    c.extra_conf = ("JobCompType=jobcomp/nosuch\nJobCompLoc=%s\n"
                    "MaxJobCount=7" % out)
    c.write_conf()
    r = c.run(["scontrol", "reconfigure"])
    assert r.rc != 0
    assert "cannot create jobcomp context for jobcomp/nosuch" in \
        c.log_text()
    assert "Reconfigure failed, keeping the old config" in c.log_text()
    # the old configuration is still in force
    r = c.run(["scontrol", "show", "config"])
    assert re.search(r"JobCompType\s+=\s+jobcomp/filetxt", r.out), r.out
    assert not re.search(r"MaxJobCount\s+=\s+7\b", r.out)
    jid = str(c.sbatch(["--wrap", "true", "-o", "/dev/null"]))
    c.wait_done(jid)
    end = time.time() + 30
    while time.time() < end:
        if os.path.exists(out) and ("JobId=%s " % jid) in open(out).read():
            break
        time.sleep(0.2)
    assert ("JobId=%s " % jid) in open(out).read()
