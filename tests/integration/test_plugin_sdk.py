"""Plugins built outside Sluice's tree (issue 27): `cmake --install` into
a temporary prefix gives include/sluice/ (each plugin type's ops header
and what it includes) and lib/pkgconfig/slurm.pc; contrib/plugins/ builds
its two example plugins with its own Makefile against that install only;
a running cluster loads them from PluginDir and they act: the
site_factor's value is sprio's SITE column (and part of the priority),
the job_submit plugin's refusal reaches the user's sbatch."""

import os
import re
import shutil
import subprocess
import tempfile

import pytest

import cluster as cl

BUILD = os.environ.get("SLUICE_BUILD_DIR", os.path.join(cl.REPO, "build"))
# what is installed (a build of every target); the cluster runs BUILD's
# daemons, e.g. a sanitizer build of some targets only
INSTALL_FROM = os.environ.get("SLUICE_SDK_BUILD_DIR", BUILD)
HINT = ("Please say which project this job is for: "
        "sbatch --comment=<project> ...")


@pytest.fixture(scope="module")
def prefix():
    d = tempfile.mkdtemp(prefix="sluice-sdk-")
    r = subprocess.run(["cmake", "--install", INSTALL_FROM, "--prefix", d],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    assert r.returncode == 0, r.stdout
    os.chmod(d, 0o755)
    yield d
    shutil.rmtree(d, ignore_errors=True)


def pkg_config(prefix, *args):
    env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(prefix, "lib",
                                                        "pkgconfig"))
    r = subprocess.run(["pkg-config"] + list(args) + ["slurm"], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


def test_pkg_config_points_into_the_install(prefix):
    cflags = pkg_config(prefix, "--cflags").split()
    libs = pkg_config(prefix, "--libs").split()
    inc = [os.path.realpath(f[2:]) for f in cflags if f.startswith("-I")]
    assert os.path.realpath(os.path.join(prefix, "include")) in inc
    assert os.path.realpath(os.path.join(prefix, "include", "sluice")) in inc
    assert "-lslurmfull" in libs
    libdir = [f[2:] for f in libs if f.startswith("-L")]
    assert os.path.exists(os.path.join(libdir[0], "libslurmfull.so"))
    assert pkg_config(prefix, "--modversion") == "25.05.0"


def test_every_installed_header_compiles_alone(prefix, tmp_path):
    """Each ops header and everything it includes is installed: a file
    that includes any one of them compiles with pkg-config's flags only."""
    cflags = pkg_config(prefix, "--cflags").split()
    root = os.path.join(prefix, "include", "sluice")
    headers = []
    for d, _, files in os.walk(root):
        headers += [os.path.relpath(os.path.join(d, f), root)
                    for f in files if f.endswith(".h")]
    for want in ("common/plugin.h", "ctld/job_submit_plugin.h",
                 "ctld/site_factor.h", "ctld/jobcomp.h",
                 "ctld/priority_plugin.h", "ctld/preempt_plugin.h",
                 "common/job_view.h", "common/part_view.h",
                 "cli/cli_filter.h", "common/auth.h",
                 "common/acct_gather_energy.h", "common/mpi_plugin.h",
                 "common/prep.h", "slurmd/stepd/proctrack.h",
                 "slurmd/stepd/task_plugin.h"):
        assert want in headers
    for h in sorted(headers):
        src = tmp_path / "one.c"
        src.write_text('#include "%s"\nint one;\n' % h)
        r = subprocess.run(["cc", "-std=gnu11", "-Wall", "-Werror",
                            "-fsyntax-only", str(src)] + cflags,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
        assert r.returncode == 0, (h, r.stdout)


@pytest.fixture(scope="module")
def built(prefix):
    """contrib/plugins built by its Makefile, from a copy outside the
    source tree, against the install only."""
    d = tempfile.mkdtemp(prefix="sluice-contrib-")
    os.chmod(d, 0o755)
    src = os.path.join(cl.REPO, "contrib", "plugins")
    for f in os.listdir(src):
        shutil.copy(os.path.join(src, f), d)
    # CFLAGS on the command line as a packager sets it: the plugin's own
    # flags still apply, and the examples build without a warning
    r = subprocess.run(["make", "-C", d, "PKG_CONFIG_PATH=%s" %
                        os.path.join(prefix, "lib", "pkgconfig"),
                        "CFLAGS=-O2 -g -Werror"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    assert r.returncode == 0, r.stdout
    for so in ("job_submit_project.so", "site_factor_percpu.so"):
        assert os.path.exists(os.path.join(d, so))
        os.chmod(os.path.join(d, so), 0o755)
    yield d
    shutil.rmtree(d, ignore_errors=True)


def test_makefile_refuses_without_an_install(tmp_path):
    src = os.path.join(cl.REPO, "contrib", "plugins")
    env = dict(os.environ, PKG_CONFIG_PATH=str(tmp_path),
               PKG_CONFIG_LIBDIR=str(tmp_path))
    r = subprocess.run(["make", "-C", src, "-n"], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    assert r.returncode != 0
    assert "pkg-config finds no slurm.pc" in r.stdout


def conf_for(built, params="per_cpu=100"):
    return ("PluginDir=%s:%s\n"
            "PriorityType=priority/multifactor\n"
            "PriorityWeightAge=0\nPriorityWeightJobSize=0\n"
            "PriorityWeightPartition=0\nPriorityWeightFairshare=0\n"
            "PriorityCalcPeriod=1\n"
            "PrioritySiteFactorPlugin=site_factor/percpu\n"
            "PrioritySiteFactorParameters=%s\n"
            "JobSubmitPlugins=project\n"
            % (built, os.path.join(BUILD, "plugins"), params))


def sprio(c, jid):
    r = c.run(["sprio", "-h", "--jobs=%d" % jid, "-o", "%i %S %Y"])
    assert r.rc == 0, r
    return r.out.split()


def test_examples_act_in_a_running_cluster(new_cluster, built, users):
    c = new_cluster(nodes=1, extra_conf=conf_for(built))
    user = users[0].pw_name
    # job_submit/project: no --comment, refused with its message
    r = c.run(["sbatch", "--wrap", "true", "-o", "/dev/null"], user=user)
    assert r.rc == 1
    assert r.err == (
        "sbatch: error: %s\n"
        "sbatch: error: Batch job submission failed: Invalid account or "
        "account/partition combination specified\n" % HINT), r.err
    # site_factor/percpu: 100 per CPU, in SITE and in the priority
    later = ["--begin=now+1hour", "-o", "/dev/null", "--wrap", "true",
             "--comment=proj1"]
    one = c.sbatch(later + ["-n", "1"], user=user)
    two = c.sbatch(later + ["-n", "2"], user=user)
    assert sprio(c, one)[:2] == [str(one), "100"]
    assert sprio(c, two)[:2] == [str(two), "200"]
    assert int(sprio(c, two)[2]) - int(sprio(c, one)[2]) == 100
    assert "site_factor/percpu: per_cpu=100" in c.log_text()
    # the plugin's own parameters, read again at reconfigure
    c.extra_conf = conf_for(built, "per_cpu=7")
    c.write_conf()
    r = c.run(["scontrol", "reconfigure"])
    assert r.rc == 0, r
    cl.wait_for(lambda: sprio(c, two)[1] == "14", timeout=30,
                what="SITE of job %d after reconfigure" % two)
    # the recomputed priorities used the new factors (14 - 7)
    assert int(sprio(c, two)[2]) - int(sprio(c, one)[2]) == 7
    # an update that clears the comment is refused with the message
    r = c.run(["scontrol", "update", "JobId=%d" % one, "Comment="])
    assert r.rc == 1
    assert HINT in r.err


def test_bad_parameters_stop_the_controller(new_cluster, built):
    c = new_cluster(nodes=1)
    c.extra_conf = conf_for(built, "per_cpu=lots")
    c.write_conf()
    c.kill_ctld()
    r = subprocess.run([c.bin("slurmctld"), "-D"], env=c.env_for(),
                       capture_output=True, text=True, timeout=30)
    assert r.returncode != 0
    text = r.stderr + r.stdout + c.log_text()
    assert 'site_factor/percpu: PrioritySiteFactorParameters: bad item ' \
        '"per_cpu=lots"' in text, text[-2000:]


def test_unknown_site_factor_stops_and_reconfigure_keeps(new_cluster):
    c = new_cluster(nodes=1)
    c.extra_conf = "PrioritySiteFactorPlugin=site_factor/nosuch"
    c.write_conf()
    r = c.run(["scontrol", "reconfigure"])
    assert r.rc != 0
    assert "cannot create site_factor context for site_factor/nosuch" in \
        c.log_text()
    r = c.run(["scontrol", "show", "config"])
    assert re.search(r"PrioritySiteFactorPlugin\s+=\s+\(null\)", r.out), r.out
    c.kill_ctld()
    r = subprocess.run([c.bin("slurmctld"), "-D"], env=c.env_for(),
                       capture_output=True, text=True, timeout=30)
    assert r.returncode != 0
    assert "cannot create site_factor context for site_factor/nosuch" in \
        r.stderr + r.stdout + c.log_text()
