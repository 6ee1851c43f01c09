"""contrib/sim/sluice-sim-compare: one generated trace through sluice-sim
under two configurations; the report has both columns, the plots are
written, and a setting sluice-sim refuses stops the comparison with
sluice-sim's own message."""

import csv
import os
import re
import subprocess

import pytest

from cluster import REPO

GEN = os.path.join(REPO, "contrib", "sim", "sluice-sim-gen")
CMP = os.path.join(REPO, "contrib", "sim", "sluice-sim-compare")
BUILD = os.path.abspath(os.environ.get("SLUICE_BUILD_DIR",
                                       os.path.join(REPO, "build")))
SIM = os.path.join(BUILD, "bin", "sluice-sim")

pytestmark = pytest.mark.skipif(not os.path.exists(SIM),
                                reason="sluice-sim not built: %s" % SIM)
PNG = b"\x89PNG\r\n\x1a\n"


def run(argv, timeout=300):
    return subprocess.run(argv, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def trace(tmp_path_factory):
    d = tmp_path_factory.mktemp("simcmp")
    swf, conf = str(d / "t.swf"), str(d / "slurm.conf")
    r = run(["/usr/bin/python3", GEN, "-n", "400", "--seed", "5",
             "--nodes", "32", "--load", "1.2", "--max-runtime", "14400",
             "-o", swf, "--conf", conf])
    assert r.returncode == 0, r.stderr
    return d, swf, conf


def compare(*args):
    return run(["/usr/bin/python3", CMP, "--sim", SIM] + list(args))


def test_two_settings_side_by_side_with_plots(trace):
    d, swf, conf = trace
    out = str(d / "age")
    r = compare("-f", conf, "-t", swf, "--a", "PriorityWeightAge=1000",
                "--b", "PriorityWeightAge=100000", "--label-a", "age-1k",
                "--label-b", "age-100k", "-o", out)
    assert r.returncode == 0, r.stderr
    report = open(os.path.join(out, "report.md")).read()
    assert "| | age-1k | age-100k | B vs A |" in report
    for row in ("Utilisation", "Mean wait", "Median wait", "p95 wait",
                "Mean bounded slowdown", "Backfill share", "Makespan"):
        line = [ln for ln in report.splitlines()
                if ln.startswith("| %s |" % row)]
        assert len(line) == 1, row
        cells = [c.strip() for c in line[0].strip("|").split("|")]
        assert cells[1] != "-" and cells[2] != "-", line
    assert "### By job size (nodes)" in report
    assert "### By partition" in report and "| batch |" in report
    assert "### By account" in report
    for png in ("wait_cdf.png", "wait_by_size.png", "utilisation.png",
                "start_scatter.png"):
        p = os.path.join(out, png)
        with open(p, "rb") as f:
            assert f.read(8) == PNG, png
        assert os.path.getsize(p) > 5000, png
        assert "(%s)" % png in report
    for side in ("a", "b"):
        with open(os.path.join(out, side, "jobs.csv")) as f:
            rows = list(csv.DictReader(f))
        assert len(rows) == 400
        assert os.path.exists(os.path.join(out, side, "summary.json"))


def test_replot_redraws_without_running_the_simulator(trace):
    d, swf, conf = trace
    out = str(d / "age")          # written by the test above
    before = open(os.path.join(out, "a", "jobs.csv")).read()
    r = run(["/usr/bin/python3", CMP, "--sim", "/nonexistent", "--replot",
             "-f", conf, "-t", swf, "--a", "PriorityWeightAge=1000",
             "--b", "PriorityWeightAge=100000", "--label-a", "young",
             "--label-b", "old", "-o", out])
    assert r.returncode == 0, r.stderr
    report = open(os.path.join(out, "report.md")).read()
    assert "| | young | old | B vs A |" in report
    assert open(os.path.join(out, "a", "jobs.csv")).read() == before
    r = run(["/usr/bin/python3", CMP, "--replot", "-f", conf, "-t", swf,
             "--b", "X=1", "-o", str(d / "never-run")])
    assert r.returncode == 1
    assert "--replot: " in r.stderr and "no such file" in r.stderr


def test_second_conf_adds_a_partition(trace):
    d, swf, conf = trace
    conf_b = str(d / "slurm-b.conf")
    text = open(conf).read().replace("NodeName=n[1-32]", "NodeName=n[1-48]")
    with open(conf_b, "w") as f:
        f.write(text)
    out = str(d / "bigger")
    r = compare("-f", conf, "--b-conf", conf_b, "-t", swf,
                "--label-a", "32 nodes", "--label-b", "48 nodes", "-o", out,
                "--no-plots")
    assert r.returncode == 0, r.stderr
    report = open(os.path.join(out, "report.md")).read()
    assert "`slurm.conf`" in report and "`slurm-b.conf`" in report
    assert not os.path.exists(os.path.join(out, "wait_cdf.png"))
    wait = [ln for ln in report.splitlines() if ln.startswith("| Mean wait |")]
    assert len(wait) == 1


def test_bad_set_key_refused_with_sluice_sims_message(trace):
    d, swf, conf = trace
    direct = run([SIM, "-f", conf, "-t", swf, "--quiet", "-o",
                  str(d / "x.csv"), "--set", "NoSuchKeyAtAll=1"])
    assert direct.returncode != 0
    msg = direct.stderr.strip().splitlines()[-1]
    assert "NoSuchKeyAtAll" in msg
    out = str(d / "bad")
    r = compare("-f", conf, "-t", swf, "--b", "NoSuchKeyAtAll=1", "-o", out)
    assert r.returncode == 1
    assert "sluice-sim-compare: run B failed" in r.stderr
    # sluice-sim names the copy of slurm.conf it appends --set lines to,
    # a new temporary directory each run
    tmp = re.compile(r"/tmp/sluice-sim\.\w+/")
    assert tmp.sub("TMP/", msg) in tmp.sub("TMP/", r.stderr)
    assert not os.path.exists(os.path.join(out, "report.md"))


def test_usage_errors(trace):
    d, swf, conf = trace
    r = compare("-f", conf, "-t", swf, "-o", str(d / "same"))
    assert r.returncode == 1
    assert "A and B are the same" in r.stderr
    r = compare("-f", conf, "-t", str(d / "missing.swf"), "--b", "X=1",
                "-o", str(d / "m"))
    assert r.returncode == 1 and "missing.swf: no such file" in r.stderr
    r = compare("-f", conf, "-t", swf, "--b", "novalue", "-o", str(d / "n"))
    assert r.returncode == 1 and "KEY=VALUE" in r.stderr
