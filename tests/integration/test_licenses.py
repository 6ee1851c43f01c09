"""Licenses (issue 28): slurm.conf Licenses=, -L/--licenses on the
submitting commands, held while a job runs, pending reason Licenses, and
what scontrol, squeue and slurmrestd show of them.

The cluster has 2 nodes of 2 CPUs and Licenses=matlab:3,ansys:1,fluent:2;
backfill runs every second and plans licenses (bf_licenses).
"""

import json
import os
import re
import signal
import time

import pytest

import cluster as cl
from rest_client import Rest, response_schema, validate

U1 = "sluice_u1"

LICS = "matlab:3,ansys:1,fluent:2"
EXTRA = """Licenses=%s
SchedulerParameters=bf_interval=1,bf_resolution=1,bf_window=60,sched_min_interval=0,bf_licenses"""


@pytest.fixture(scope="module")
def lc(users):
    c = cl.Cluster(nodes=2, cpus=2, extra_conf=EXTRA % LICS, tag="lic")
    try:
        c.start()
        yield c
    finally:
        c.stop()
        if not c.failed:
            c.cleanup()


def lic_show(c, name=None):
    """scontrol show licenses as {name: {Total:.., Used:.., ...}}."""
    argv = ["scontrol", "-o", "show", "licenses"] + ([name] if name else [])
    r = c.run(argv)
    assert r.rc == 0, r
    out = {}
    for line in r.out.splitlines():
        kv = dict(w.split("=", 1) for w in line.split())
        out[kv.pop("LicenseName")] = kv
    return out


def squeue(c, jid, fmt):
    r = c.run(["squeue", "-h", "-j", str(jid), "-o", fmt])
    assert r.rc == 0, r
    return r.out.strip()


def wait_reason(c, jid, want, timeout=30):
    deadline = time.time() + timeout
    got = None
    while time.time() < deadline:
        got = squeue(c, jid, "%r")
        if got == want:
            return
        time.sleep(0.2)
    raise AssertionError("job %s: reason %r, wanted %r\n%s" % (
        jid, got, want, c.log_tails()))


def wait_used(c, name, used, timeout=30):
    deadline = time.time() + timeout
    got = None
    while time.time() < deadline:
        got = lic_show(c)[name]["Used"]
        if got == str(used):
            return
        time.sleep(0.2)
    raise AssertionError("license %s Used=%s, wanted %s" % (name, got, used))


def cancel_all(c):
    c.run(["scancel", "-u", U1])
    deadline = time.time() + 30
    while time.time() < deadline:
        r = c.run(["squeue", "-h", "-o", "%i"])
        if not r.out.strip():
            return
        time.sleep(0.2)


def test_show_licenses_configured(lc):
    r = lc.run(["scontrol", "show", "licenses"])
    assert r.rc == 0, r
    assert r.out == ("LicenseName=ansys\n"
                     "    Total=1 Used=0 Free=1 Reserved=0 Remote=no\n"
                     "LicenseName=fluent\n"
                     "    Total=2 Used=0 Free=2 Reserved=0 Remote=no\n"
                     "LicenseName=matlab\n"
                     "    Total=3 Used=0 Free=3 Reserved=0 Remote=no\n"), r
    r = lc.run(["scontrol", "show", "lic=fluent"])
    assert r.rc == 0 and r.out.startswith("LicenseName=fluent\n"), r
    assert r.out.count("LicenseName=") == 1, r


def test_two_jobs_share_three_licenses(lc):
    """Two jobs need 2 of 3 matlab: one runs, the other pends (Licenses)
    and starts when the first ends."""
    a = lc.sbatch(["-L", "matlab:2", "--wrap", "sleep 4"], user=U1)
    lc.wait_state(a, "RUNNING")
    b = lc.sbatch(["--licenses=matlab:2", "--wrap", "sleep 1"], user=U1)
    wait_reason(lc, b, "Licenses")
    assert lc.job_state(b) == "PENDING"
    m = lic_show(lc)["matlab"]
    assert (m["Total"], m["Used"], m["Free"]) == ("3", "2", "1"), m
    assert squeue(lc, a, "%W") == "matlab:2"
    r = lc.run(["squeue", "-h", "-j", str(b), "-O", "JobID,Licenses"])
    assert r.rc == 0 and r.out.split() == [str(b), "matlab:2"], r
    assert lc.show_job(b)["Licenses"] == "matlab:2"
    # backfill plans it for when the first ends
    deadline = time.time() + 10
    while lc.show_job(b).get("StartTime") == "Unknown":
        assert time.time() < deadline, lc.show_job(b)
        time.sleep(0.2)
    lc.wait_done(a, 30)
    lc.wait_state(b, {"RUNNING", "COMPLETED"}, 30)
    lc.wait_done(b, 30)
    wait_used(lc, "matlab", 0)


def test_any_of_takes_a_free_one(lc):
    """ansys:1|fluent:1: with ansys held, the job takes fluent."""
    a = lc.sbatch(["-L", "ansys", "--wrap", "sleep 30"], user=U1)
    lc.wait_state(a, "RUNNING")
    b = lc.sbatch(["-L", "ansys:1|fluent:1", "--wrap", "sleep 30"], user=U1)
    lc.wait_state(b, "RUNNING")
    lic = lic_show(lc)
    assert lic["ansys"]["Used"] == "1" and lic["fluent"]["Used"] == "1", lic
    assert lc.show_job(b)["Licenses"] == "ansys:1|fluent:1"
    r = lc.run(["squeue", "--json", "-j", str(b)])
    assert r.rc == 0, r
    job = json.loads(r.out)["jobs"][0]
    assert job["licenses"] == "ansys:1|fluent:1", job["licenses"]
    assert job["licenses_allocated"] == "fluent:1", job["licenses_allocated"]
    cancel_all(lc)
    wait_used(lc, "fluent", 0)
    wait_used(lc, "ansys", 0)


@pytest.mark.parametrize("spec", ["nosuch", "matlab:4", "matlab:1,nosuch:1",
                                  "matlab:1|ansys:1,fluent:1", "matlab:0",
                                  "matlab:x", ":2", "matlab:"])
def test_bad_license_refused(lc, spec):
    """An unknown name, a count over the total or a malformed list is
    refused at submit with Slurm's message; nothing is queued."""
    before = lc.run(["squeue", "-h", "-t", "all", "-o", "%i"]).out
    r = lc.run(["sbatch", "-L", spec, "--wrap", "true"], user=U1)
    assert r.rc == 1, r
    assert r.err == ("sbatch: error: Batch job submission failed: "
                     "Invalid license specification\n"), r
    r = lc.run(["srun", "-L", spec, "true"], user=U1)
    assert r.rc == 1, r
    assert "Invalid license specification" in r.err, r
    assert lc.run(["squeue", "-h", "-t", "all", "-o", "%i"]).out == before
    assert all(v["Used"] == "0" for v in lic_show(lc).values())


def test_srun_and_salloc_hold_licenses(lc):
    sc = lc.bin("scontrol")
    r = lc.run(["srun", "-L", "fluent:2", sc, "-o", "show", "lic",
                "fluent"], user=U1)
    assert r.rc == 0, r
    assert "Used=2 Free=0" in r.out, r
    r = lc.run(["salloc", "-L", "matlab", sc, "-o", "show",
                "lic=matlab"], user=U1)
    assert r.rc == 0, r
    assert "Used=1 Free=2" in r.out, r
    wait_used(lc, "fluent", 0)
    wait_used(lc, "matlab", 0)


def test_held_across_suspend(lc):
    a = lc.sbatch(["-L", "fluent:2", "--wrap", "sleep 60"], user=U1)
    lc.wait_state(a, "RUNNING")
    assert lc.run(["scontrol", "suspend", str(a)]).rc == 0
    lc.wait_state(a, "SUSPENDED")
    b = lc.sbatch(["-L", "fluent:1", "--wrap", "sleep 1"], user=U1)
    wait_reason(lc, b, "Licenses")
    assert lic_show(lc)["fluent"]["Used"] == "2"
    assert lc.run(["scontrol", "resume", str(a)]).rc == 0
    cancel_all(lc)
    wait_used(lc, "fluent", 0)


def test_update_pending_job_licenses(lc):
    a = lc.sbatch(["-L", "ansys", "--wrap", "sleep 60"], user=U1)
    lc.wait_state(a, "RUNNING")
    b = lc.sbatch(["-L", "ansys", "--wrap", "sleep 60"], user=U1)
    wait_reason(lc, b, "Licenses")
    r = lc.run(["scontrol", "update", "JobId=%d" % b, "Licenses=nosuch"])
    assert r.rc == 1 and "Invalid license specification" in r.err, r
    assert lc.show_job(b)["Licenses"] == "ansys:1"
    r = lc.run(["scontrol", "update", "JobId=%d" % b, "Licenses=fluent:1"])
    assert r.rc == 0, r
    lc.wait_state(b, "RUNNING")
    assert lic_show(lc)["fluent"]["Used"] == "1"
    r = lc.run(["scontrol", "update", "JobId=%d" % b, "Licenses=matlab"])
    assert r.rc == 1, r
    cancel_all(lc)


def test_rest_licenses(lc):
    run = os.path.join(lc.dir, "run")
    os.chmod(run, 0o1777)
    sock = os.path.join(run, "rest-lic.sock")
    lc.start_restd(U1, ["unix:" + sock], name="slurmrestd-lic")
    rest = Rest(lc, sock, U1)
    status, api, text = rest.req("GET", "/openapi/v3")
    assert status == 200, text
    a = lc.sbatch(["-L", "matlab:2", "--wrap", "sleep 30"], user=U1)
    lc.wait_state(a, "RUNNING")
    for v in ("v0.0.40", "v0.0.41", "v0.0.42", "v0.0.43"):
        status, doc, text = Rest(lc, sock, U1, ver=v).get("licenses/")
        assert status == 200, text
        validate(doc, api, response_schema(api, "/slurm/%s/licenses/" % v,
                                           "get"))
        got = {l["LicenseName"]: (l["Total"], l["Used"], l["Free"])
               for l in doc["licenses"]}
        assert got == {"ansys": (1, 0, 1), "fluent": (2, 0, 2),
                       "matlab": (3, 2, 1)}, text
    cancel_all(lc)


def test_restart_keeps_held_licenses(lc):
    a = lc.sbatch(["-L", "matlab:3", "--wrap", "sleep 60"], user=U1)
    lc.wait_state(a, "RUNNING")
    b = lc.sbatch(["-L", "matlab:1", "--wrap", "sleep 1"], user=U1)
    wait_reason(lc, b, "Licenses")
    lc.kill_ctld(signal.SIGKILL)
    lc.start_ctld()
    deadline = time.time() + 30
    while lc.run(["squeue"], timeout=10).rc != 0:
        assert time.time() < deadline, lc.log_tails()
        time.sleep(0.2)
    assert lic_show(lc)["matlab"]["Used"] == "3"
    time.sleep(2)
    assert lc.job_state(b) == "PENDING"
    wait_reason(lc, b, "Licenses")
    cancel_all(lc)
    wait_used(lc, "matlab", 0)


def test_reconfigure_changes_totals(lc):
    lc.extra_conf = EXTRA % "matlab:5,ansys:1"
    lc.write_conf()
    try:
        r = lc.run(["scontrol", "reconfigure"])
        assert r.rc == 0, r
        lic = lic_show(lc)
        assert sorted(lic) == ["ansys", "matlab"], lic
        assert lic["matlab"]["Total"] == "5", lic
        r = lc.run(["sbatch", "-L", "fluent", "--wrap", "true"], user=U1)
        assert r.rc == 1 and "Invalid license specification" in r.err, r
        # a bad Licenses= keeps the running config
        lc.extra_conf = EXTRA % "matlab:x"
        lc.write_conf()
        r = lc.run(["scontrol", "reconfigure"])
        assert r.rc != 0, r
        assert "Licenses=matlab:x: invalid license count" in r.err, r
        lc.extra_conf = EXTRA % "matlab:5,ansys:1"   # the commands' view
        lc.write_conf()
        assert lic_show(lc)["matlab"]["Total"] == "5"
    finally:
        lc.extra_conf = EXTRA % LICS
        lc.write_conf()
        lc.run(["scontrol", "reconfigure"])


def test_sacct_license_tres(users):
    """AccountingStorageTRES=license/matlab: a job's AllocTRES in sacct
    carries license/matlab=<count> (and no untracked license)."""
    import mariadb
    if mariadb.missing_tools():
        pytest.skip("MariaDB server not installed: %s"
                    % ", ".join(mariadb.missing_tools()))
    e = mariadb.AcctEnv(tag="lictres", nodes=1)
    e.c.extra_conf += ("\nLicenses=matlab:3,ansys:1\n"
                       "AccountingStorageTRES=cpu,mem,node,billing,"
                       "license/matlab\n")
    try:
        e.start()
        e.start_cluster()
        jid = e.c.sbatch(["-L", "matlab:2,ansys", "--wrap", "true"],
                         user=U1)
        e.c.wait_done(jid, 60)
        deadline = time.time() + 90
        got = ""
        while time.time() < deadline:
            r = e.sacct("-X", "-P", "-n", "-o", "AllocTRES", "-j", str(jid))
            got = r.out.strip()
            if got:
                break
            time.sleep(0.5)
        tres = dict(kv.split("=", 1) for kv in got.split(","))
        assert tres.get("license/matlab") == "2", got
        assert "license/ansys" not in tres, got
        assert tres.get("cpu") == "1", got
        # the controller registered it with the cluster's TRES: slurmdbd
        # gave it the first id after Slurm's fixed ones
        r = e.sacctmgr("-P", "-n", "show", "tres", "type=license")
        assert r.rc == 0 and r.out == "license|matlab|1001\n", r
        r = e.c.run([e.c.bins["sreport"], "-P", "-n", "-T",
                     "license/matlab,license/ansys", "cluster",
                     "utilization"])
        assert r.rc == 0 and "license/ansys" in r.err, r
    finally:
        e.finish()
