"""scontrol(1) completing and write config.

completing lists the jobs still COMPLETING (here: held up by a slow
Epilog) with their end time, how long they have been completing and
their COMPLETING and DOWN nodes; write config writes the controller's
running configuration as a slurm.conf named <slurm.conf or the file
given>.<datetime>, which reads back as a configuration."""

import glob
import os
import re
import tempfile

import pytest

import cluster as cl
import conftest


@pytest.fixture(scope="module")
def c(users):
    d = tempfile.mkdtemp(prefix="sluice-epilog-")
    os.chmod(d, 0o755)
    epilog = os.path.join(d, "epilog.sh")
    with open(epilog, "w") as f:
        f.write("#!/bin/sh\nsleep 4\nexit 0\n")
    os.chmod(epilog, 0o755)
    c = conftest._start(tag="scadmin", nodes=2,
                        extra_conf="Epilog=%s" % epilog)
    yield c
    conftest._stop(c)


def test_completing_lists_jobs_held_by_their_epilog(c):
    r = c.run(["scontrol", "completing"])
    assert r.rc == 0 and r.out == "", r
    jid = c.sbatch(["-w", "n2", "--wrap", "true"])
    pat = re.compile(r"^JobId=%d EndTime=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d "
                     r"CompletingTime=\d\d:\d\d:\d\d Nodes\(COMPLETING\)=n2 $"
                     % jid, re.M)
    seen = []

    def listed():
        out = c.run(["scontrol", "completing"]).out
        seen.append(out)
        return pat.search(out)
    cl.wait_for(listed, timeout=30, what="job %d completing" % jid)
    assert c.wait_done(jid) == "COMPLETED"

    def gone():
        r = c.run(["scontrol", "completing"])
        return r.rc == 0 and str(jid) not in r.out
    cl.wait_for(gone, timeout=30, what="job %d no longer completing" % jid)
    r = c.run(["scontrol", "completing", "extra"])
    assert r.rc == 1 and "too many arguments" in r.err, r


def test_write_config(c):
    before = set(glob.glob(c.conf + ".*"))
    r = c.run(["scontrol", "write", "config"])
    assert r.rc == 0, r
    m = re.match(r"^Slurm config saved to (%s\.\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\n$"
                 % re.escape(c.conf), r.out)
    assert m, r
    path = m.group(1)
    assert path not in before and os.path.exists(path)
    text = open(path).read()
    assert text.startswith("#" * 56 + "\n#  Configuration file for Slurm - ")
    for want in ("#" + " " * 19 + "CONTROL" + " " * 20 + "#\n",
                 "\nClusterName=sluice\n", "\nSlurmctldPort=%d\n" % c.ctld_port,
                 "\nEpilog=", "\nNodeName=n", "\nPartitionName=debug "):
        assert want in text, (want, text)
    for key in ("SLURM_CONF=", "BOOT_TIME=", "SLURM_VERSION="):
        assert "\n" + key not in text
    # the file reads back as a slurm.conf
    r = c.run(["scontrol", "show", "hostnames", "n[1-2]"], conf=path)
    assert r.rc == 0 and r.out.split() == ["n1", "n2"], r
    # a file named: that name with the date
    target = os.path.join(c.dir, "written.conf")
    r = c.run(["scontrol", "write", "config", target])
    assert r.rc == 0 and ("saved to %s." % target) in r.out, r
    assert glob.glob(target + ".*")
    r = c.run(["scontrol", "write", "config", "/nonexistent/dir/x"])
    assert r.rc == 1 and "Could not create file /nonexistent/dir/x." in r.err
