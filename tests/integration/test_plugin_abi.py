"""Plugin types whose ops take plain structures frozen per version
(tests/fixtures/plugin_abi, issue 32) rather than views: an
accounting_storage plugin built outside the tree against the headers
loads and is handed the controller's job records; one that claims an ops
version this slurmctld does not have stops it at start naming both
versions."""

import os
import pwd
import re
import subprocess

import pytest

import cluster as cl

USER = "sluice_u1"
PROBE = os.path.join(cl.REPO, "tests", "integration", "plugins",
                     "acct_probe.c")


def _build(d, out, claim=None, name="probe"):
    argv = ["cc", "-Wall", "-Werror", "-shared", "-fPIC",
            "-DPROBE_OUT=%s" % out, "-DPROBE_NAME=%s" % name]
    if claim is not None:
        argv.append("-DPROBE_CLAIM=%d" % claim)
    argv += ["-I", os.path.join(cl.REPO, "src"),
             "-I", os.path.join(cl.REPO, "src", "include"),
             "-o", str(d / ("accounting_storage_%s.so" % name)), PROBE]
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


def test_accounting_storage_plugin_gets_job_records(new_cluster, tmp_path):
    d, dirs = _plugin_dir(tmp_path)
    out = tmp_path / "records.txt"
    _build(d, out)
    c = new_cluster(nodes=1, extra_conf="PluginDir=%s\n"
                    "AccountingStorageType=accounting_storage/probe" % dirs)
    jid = c.sbatch(["-J", "abiprobe", "-o", "/dev/null", "--wrap", "true"],
                   user=USER)
    uid = pwd.getpwnam(USER).pw_uid

    def ended():
        if not out.exists():
            return False
        for line in out.read_text().splitlines():
            f = line.split()
            # state 3: JOB_COMPLETE, as job_info_t's
            if f[:3] == ["job", str(jid), "abiprobe"] and f[4] == "3":
                return f
        return False
    f = cl.wait_for(ended, timeout=60, what="job %d's record" % jid)
    assert f[3] == str(uid), f


def test_accounting_storage_unknown_ops_version_is_refused(new_cluster,
                                                           tmp_path):
    d, dirs = _plugin_dir(tmp_path)
    _build(d, tmp_path / "x.txt", claim=2, name="future")
    c = new_cluster(nodes=1)
    c.extra_conf = ("PluginDir=%s\nAccountingStorageType="
                    "accounting_storage/future" % dirs)
    c.write_conf()
    c.kill_ctld()
    r = subprocess.run([c.bin("slurmctld"), "-D"], env=c.env_for(),
                       capture_output=True, text=True, timeout=30)
    text = r.stderr + r.stdout + c.log_text()
    assert r.returncode != 0
    assert "cannot create accounting_storage context for " \
        "accounting_storage/future" in text, text[-2000:]
    assert re.search(r"built for accounting_storage ops version 2, this "
                     r"is 1\b", text), text[-2000:]
