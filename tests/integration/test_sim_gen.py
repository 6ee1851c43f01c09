"""contrib/sim/sluice-sim-gen: a seeded synthetic SWF trace whose figures
are those of the model it cites (doc/simulator.md): the CTC SP2's volume,
a daytime peak, sizes mostly powers of two, round user estimates never
below the runtime."""

import json
import os
import subprocess

from cluster import REPO

GEN = os.path.join(REPO, "contrib", "sim", "sluice-sim-gen")


def gen(*args):
    return subprocess.run(["/usr/bin/python3", GEN] + list(args),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=120)


def stats(path):
    r = gen("--stats", path)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_same_seed_same_file_other_seed_other_file(tmp_path):
    a, b, c = (str(tmp_path / n) for n in ("a.swf", "b.swf", "c.swf"))
    for path, seed in ((a, "7"), (b, "7"), (c, "8")):
        r = gen("-n", "2000", "--seed", seed, "-o", path)
        assert r.returncode == 0, r.stderr
    with open(a, "rb") as fa, open(b, "rb") as fb, open(c, "rb") as fc:
        da, db, dc = fa.read(), fb.read(), fc.read()
    assert da == db
    assert da != dc


def test_swf_records_and_header(tmp_path):
    path = str(tmp_path / "t.swf")
    assert gen("-n", "500", "--nodes", "64", "--cpus-per-node", "4",
               "-o", path).returncode == 0
    jobs, header = [], {}
    with open(path) as f:
        for line in f:
            if line.startswith(";"):
                k, _, v = line[1:].partition(":")
                header[k.strip()] = v.strip()
                continue
            jobs.append([int(x) for x in line.split()])
    assert header["MaxNodes"] == "64" and header["MaxProcs"] == "256"
    assert len(jobs) == 500
    assert [j[0] for j in jobs] == list(range(1, 501))
    assert all(len(j) == 18 for j in jobs)
    submits = [j[1] for j in jobs]
    assert submits == sorted(submits)
    for j in jobs:
        assert j[2] == -1                       # wait: the simulator's to say
        assert 1 <= j[3] <= j[8] <= 64800       # runtime <= estimate <= limit
        assert j[4] == j[7] and j[4] % 4 == 0 and 4 <= j[4] <= 256
        assert j[10] == 1 and j[11] >= 1 and j[12] >= 1


def test_statistics_match_the_model(tmp_path):
    path = str(tmp_path / "t.swf")
    r = gen("-n", "20000", "--seed", "3", "-o", path)
    assert r.returncode == 0, r.stderr
    s = stats(path)
    assert s["jobs"] == 20000
    # CTC SP2: 79,302 jobs in 335 days = 236.7 a day
    assert abs(s["jobs_per_day"] - 236.7) / 236.7 < 0.05
    # the daily cycle: working hours busier than the night, by ~5x
    assert 4.0 < s["day_night_ratio"] < 7.5
    hours = s["arrivals_by_hour"]
    assert max(range(24), key=lambda h: hours[h]) in range(8, 18)
    # Feitelson 1996: powers of two dominate, serial jobs are common
    assert s["pow2_share"] > 0.8
    assert 0.45 < s["serial_share"] < 0.65
    # Tsafrir 2010: ~90% of jobs use 20 estimate values; never below runtime
    assert s["estimates_top20_share"] >= 0.9
    assert s["runtime_over_estimate"] == 0
    assert 2 < s["median_estimate_over_runtime"] < 20
    assert 60 < s["runtime_median"] < 3600


def test_load_sets_the_arrival_rate(tmp_path):
    lo, hi = str(tmp_path / "lo.swf"), str(tmp_path / "hi.swf")
    assert gen("-n", "3000", "--load", "0.3", "-o", lo).returncode == 0
    assert gen("-n", "3000", "--load", "0.9", "-o", hi).returncode == 0
    r = stats(hi)["jobs_per_day"] / stats(lo)["jobs_per_day"]
    assert 2.5 < r < 3.5


def test_conf_is_written_for_the_machine(tmp_path):
    conf = str(tmp_path / "slurm.conf")
    assert gen("-n", "10", "--nodes", "96", "--cpus-per-node", "2",
               "--short-queue", "3600", "-o", str(tmp_path / "t.swf"),
               "--conf", conf).returncode == 0
    text = open(conf).read()
    assert "NodeName=n[1-96] CPUs=2 " in text
    assert "PartitionName=batch Nodes=ALL Default=YES MaxTime=1080 " in text
    assert "PartitionName=short Nodes=ALL MaxTime=60 " in text


def test_bad_usage_is_refused(tmp_path):
    r = gen("-n", "0")
    assert r.returncode == 1
    assert "sluice-sim-gen: error: -n must be at least 1" in r.stderr
    r = gen("-n", "5", "-o", str(tmp_path / "no" / "such" / "dir.swf"))
    assert r.returncode == 1 and "No such file or directory" in r.stderr
    bad = tmp_path / "bad.swf"
    bad.write_text("; a header\n1 2 3\n")
    r = gen("--stats", str(bad))
    assert r.returncode == 1
    assert "bad.swf:2: expected 18 fields, found 3" in r.stderr
