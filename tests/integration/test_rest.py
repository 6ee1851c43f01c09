"""slurmrestd in front of a real cluster, as two unprivileged users (issue 24).

Users A (sluice_u1) and B (sluice_u2) each reach the cluster through a
slurmrestd of their own on a unix socket (rest_auth/local: the peer's uid is
slurmrestd's).  What they see and may do through the API is what the
commands let them see and do: B cannot see A's jobs (PrivateData=jobs),
cannot cancel them (403, nothing changes), and draining a node needs an
operator.  Every answer validates against the schema the served
/openapi/v3 document names for it, in each of v0.0.40..v0.0.43.
"""

import os
import time

import pytest

from conftest import _start, _stop
from rest_client import Rest, response_schema, validate

A, B = "sluice_u1", "sluice_u2"
VERSIONS = ("v0.0.40", "v0.0.41", "v0.0.42", "v0.0.43")


@pytest.fixture(scope="module")
def rest(users):
    c = _start(tag="rest", nodes=2, extra_conf="PrivateData=jobs\n")
    run = os.path.join(c.dir, "run")
    os.chmod(run, 0o1777)
    socks = {}
    for u in (A, B):
        socks[u] = os.path.join(run, "rest-%s.sock" % u)
        c.start_restd(u, ["unix:" + socks[u]], name="slurmrestd-" + u)
    ra, rb = Rest(c, socks[A], A), Rest(c, socks[B], B)
    status, doc, text = ra.req("GET", "/openapi/v3")
    assert status == 200, text
    yield c, ra, rb, doc
    _stop(c)


def check(openapi, path_tmpl, method, doc):
    validate(doc, openapi, response_schema(openapi, path_tmpl, method))


def test_jobs_as_squeue_shows_them(rest):
    c, ra, rb, api = rest
    jid = c.sbatch(["-N1", "-J", "rest_a", "--wrap", "sleep 300"], user=A)
    c.wait_state(jid, {"RUNNING"})
    for v in VERSIONS:
        status, doc, text = Rest(c, ra.sock, A, ver=v).get("jobs/")
        assert status == 200, text
        check(api, "/slurm/%s/jobs/" % v, "get", doc)
        mine = [j for j in doc["jobs"] if j["job_id"] == jid]
        assert len(mine) == 1, text
        assert mine[0]["name"] == "rest_a"
        assert mine[0]["user_name"] == A
        if v in ("v0.0.42", "v0.0.43"):
            assert mine[0]["job_state"] == ["RUNNING"]
        assert doc["meta"]["plugin"]["data_parser"] == "data_parser/" + v
        assert doc["meta"]["client"]["user"] == A
    sq = c.run(["squeue", "-h", "-o", "%i %j %u %T"], user=A)
    assert "%d rest_a %s RUNNING" % (jid, A) in sq.out, sq
    status, doc, text = ra.get("job/%d" % jid)
    assert status == 200 and [j["job_id"] for j in doc["jobs"]] == [jid], text
    check(api, "/slurm/v0.0.43/job/{job_id}", "get", doc)


def test_other_user_sees_and_cancels_nothing(rest):
    c, ra, rb, api = rest
    jid = c.sbatch(["-N1", "-J", "rest_priv", "--wrap", "sleep 300"], user=A)
    c.wait_state(jid, {"RUNNING"})
    status, doc, text = rb.get("jobs/")
    assert status == 200, text
    assert jid not in [j["job_id"] for j in doc["jobs"]], text
    status, doc, text = rb.req("DELETE", "/slurm/v0.0.43/job/%d" % jid)
    assert status == 403, text
    assert doc["errors"] and doc["errors"][0]["error_number"] == 2002, text
    check(api, "/slurm/v0.0.43/job/{job_id}", "delete", doc)
    time.sleep(1)
    assert c.job_state(jid) == "RUNNING"
    status, doc, text = ra.req("DELETE", "/slurm/v0.0.43/job/%d" % jid)
    assert status == 200 and not doc["errors"], text
    c.wait_state(jid, {"CANCELLED"})


def test_signal_through_the_api(rest):
    c, ra, rb, api = rest
    jid = c.sbatch(["-N1", "--wrap",
                    "trap 'echo got_usr1; exit 0' USR1; sleep 300 & wait"],
                   user=A)
    c.wait_state(jid, {"RUNNING"})
    time.sleep(1)
    status, doc, text = ra.req(
        "DELETE", "/slurm/v0.0.43/job/%d?signal=SIGUSR1&flags=BATCH_JOB" % jid)
    assert status == 200, text
    c.wait_done(jid)
    assert c.job_state(jid) == "COMPLETED"
    status, doc, text = ra.req("DELETE",
                               "/slurm/v0.0.43/job/%d?signal=BOGUS" % jid)
    assert status == 400 and "Unknown job signal" in text, text


def test_drain_needs_an_operator(rest):
    c, ra, rb, api = rest
    status, doc, text = ra.req("POST", "/slurm/v0.0.43/node/n2",
                               body={"state": ["DRAIN"], "reason": "rest"})
    assert status == 403, text
    check(api, "/slurm/v0.0.43/node/{node_name}", "post", doc)
    r = c.run(["scontrol", "show", "node", "n2"])
    assert "DRAIN" not in r.out, r
    status, doc, text = ra.req("POST", "/slurm/v0.0.43/node/n2",
                               body={"state": ["DRAIN"]})
    assert status == 400 and "reason" in text, text


def test_nodes_partitions_ping_diag_shares(rest):
    c, ra, rb, api = rest
    # a job of its own, so that diag has one to count whatever ran before
    jid = c.sbatch(["-J", "rest_diag", "--hold", "--wrap", "true"], user=A)
    for v in VERSIONS:
        r = Rest(c, ra.sock, A, ver=v)
        for op, key in (("nodes/", "nodes"), ("partitions/", "partitions"),
                        ("ping/", "pings"), ("diag/", "statistics"),
                        ("shares", "shares"), ("licenses/", "licenses")):
            status, doc, text = r.get(op)
            assert status == 200, (v, op, text)
            assert key in doc, (v, op, text)
            check(api, "/slurm/%s/%s" % (v, op), "get", doc)
    status, doc, text = ra.get("nodes/")
    assert sorted(n["name"] for n in doc["nodes"]) == ["n1", "n2"]
    status, doc, text = ra.get("node/n1")
    assert [n["name"] for n in doc["nodes"]] == ["n1"], text
    status, doc, text = ra.get("node/nosuch")
    assert status == 404, text
    status, doc, text = ra.get("partitions/")
    sinfo = c.run(["sinfo", "-h", "-o", "%P"]).out.split()
    assert [p["name"] for p in doc["partitions"]] == \
        [s.rstrip("*") for s in sinfo], text
    status, doc, text = ra.get("ping/")
    assert doc["pings"][0]["pinged"] == "UP" and \
        doc["pings"][0]["mode"] == "primary", text
    status, doc, text = ra.get("diag/")
    assert doc["statistics"]["jobs_submitted"] >= 1, text
    c.run(["scancel", str(jid)])


def test_unknown_paths_and_methods(rest):
    c, ra, rb, api = rest
    status, doc, text = ra.req("GET", "/slurm/v0.0.43/nosuch")
    assert status == 404 and doc["errors"], text
    status, doc, text = ra.req("PUT", "/slurm/v0.0.43/jobs/")
    assert status == 405, text
    status, doc, text = ra.req("GET", "/slurm/v0.0.39/jobs/")
    assert status == 404, text
    # POST reservation is new in v0.0.43
    status, doc, text = ra.req("POST", "/slurm/v0.0.42/reservation", body={})
    assert status == 404, text


def test_openapi_lists_what_is_served(rest):
    c, ra, rb, api = rest
    assert api["openapi"] == "3.0.3"
    for v in VERSIONS:
        assert "/slurm/%s/jobs/" % v in api["paths"]
        assert "get" in api["paths"]["/slurm/%s/jobs/" % v]
    assert "/slurm/v0.0.40/job/allocate" not in api["paths"]


def test_reservations(rest):
    c, ra, rb, api = rest
    c.run(["scancel", "-u", A])
    c.run(["scancel", "-u", B])
    from cluster import wait_for
    wait_for(lambda: not c.run(["squeue", "-h"]).out.strip(), timeout=30,
             what="an empty queue")
    r = c.run(["scontrol", "create", "reservation", "ReservationName=rest_r",
               "StartTime=now+3600", "Duration=60", "Nodes=n1",
               "Users=" + A])
    assert r.rc == 0, r
    for v in VERSIONS:
        status, doc, text = Rest(c, ra.sock, A, ver=v).get("reservations/")
        assert status == 200, (v, text)
        check(api, "/slurm/%s/reservations/" % v, "get", doc)
        assert [x["name"] for x in doc["reservations"]] == ["rest_r"], text
    status, doc, text = ra.get("reservation/rest_r")
    assert status == 200 and doc["reservations"][0]["node_list"] == "n1", text
    check(api, "/slurm/v0.0.43/reservation/{reservation_name}", "get", doc)
    status, doc, text = ra.get("reservation/nosuch")
    assert status == 404, text
    status, doc, text = ra.req("DELETE", "/slurm/v0.0.43/reservation/rest_r")
    assert status == 403, text
    assert "rest_r" in c.run(["scontrol", "show", "reservation"]).out


def submit(r, c, user, **job):
    body = {"script": job.pop("script", "#!/bin/sh\nsleep 300\n"),
            "job": dict({"current_working_directory": c.workdir(user),
                         "environment": ["PATH=/bin:/usr/bin"]}, **job)}
    return r.req("POST", "/slurm/%s/job/submit" % r.ver, body=body)


def test_submit_array_dependency(rest):
    c, ra, rb, api = rest
    for v in VERSIONS:
        r = Rest(c, ra.sock, A, ver=v)
        status, doc, text = submit(r, c, A, name="rest_sub_" + v[-2:])
        assert status == 200 and doc["job_id"] > 0, (v, text)
        check(api, "/slurm/%s/job/submit" % v, "post", doc)
        jid = doc["job_id"]
        sq = c.run(["squeue", "-h", "-j", str(jid), "-o", "%j %u"], user=A)
        assert sq.out.split() == ["rest_sub_" + v[-2:], A], sq
    status, doc, text = submit(ra, c, A, name="rest_arr", array="0-3")
    assert status == 200, text
    arr = doc["job_id"]
    status, doc, text = submit(ra, c, A, name="rest_dep",
                               dependency="afterok:%d" % arr)
    assert status == 200, text
    dep = doc["job_id"]
    r = c.run(["scontrol", "show", "job", str(dep)], user=A)
    assert "Dependency=afterok:%d" % arr in r.out, r
    assert "JobState=PENDING" in r.out, r
    status, doc, text = ra.get("jobs/")
    names = {j["name"] for j in doc["jobs"]}
    assert {"rest_arr", "rest_dep"} <= names, text
    sq = c.run(["squeue", "-h", "-r", "-o", "%j", "-n", "rest_arr"], user=A)
    assert sq.out.split().count("rest_arr") == 4, sq
    # a job the controller refuses: the error, and no job
    before = c.run(["squeue", "-h", "-o", "%i"]).out.split()
    status, doc, text = submit(ra, c, A, name="rest_bad", partition="nosuch")
    assert status == 400 and doc["errors"], text
    assert "Invalid partition name" in text, text
    assert c.run(["squeue", "-h", "-o", "%i"]).out.split() == before
    # a body the parser refuses
    status, doc, text = ra.req("POST", "/slurm/v0.0.43/job/submit",
                               body={"job": {"name": "x"}})
    assert status == 400 and "script" in text, text
    c.run(["scancel", "-u", A])


def test_update_and_hold_through_the_api(rest):
    c, ra, rb, api = rest
    status, doc, text = submit(ra, c, A, name="rest_upd", hold=True)
    assert status == 200, text
    jid = doc["job_id"]
    status, doc, text = ra.req("POST", "/slurm/v0.0.43/job/%d" % jid,
                               body={"name": "rest_upd2", "time_limit": 7})
    assert status == 200, text
    check(api, "/slurm/v0.0.43/job/{job_id}", "post", doc)
    r = c.run(["scontrol", "show", "job", str(jid)], user=A)
    assert "JobName=rest_upd2" in r.out and "TimeLimit=00:07:00" in r.out, r
    assert "JobHeldUser" in r.out, r
    # B may not change A's job: 403 and nothing changes
    status, doc, text = rb.req("POST", "/slurm/v0.0.43/job/%d" % jid,
                               body={"name": "stolen"})
    assert status == 403, text
    assert "JobName=rest_upd2" in c.run(["scontrol", "show", "job",
                                         str(jid)]).out
    status, doc, text = ra.req("POST", "/slurm/v0.0.43/job/%d" % jid,
                               body={"hold": False})
    assert status == 200, text
    r = c.run(["scontrol", "show", "job", str(jid)], user=A)
    assert "JobHeldUser" not in r.out, r
    status, doc, text = ra.req("POST", "/slurm/v0.0.43/job/%d" % jid,
                               raw_body='{"name": ',
                               headers={"Content-Type": "application/json"})
    assert status == 400 and "byte" in text, text
    c.run(["scancel", str(jid)])


def test_delete_jobs_by_filter(rest):
    c, ra, rb, api = rest
    mine = [c.sbatch(["-J", "rest_bulk", "--hold", "--wrap", "true"], user=A)
            for _ in range(3)]
    other = c.sbatch(["-J", "rest_bulk", "--hold", "--wrap", "true"],
                     user=B)
    keep = c.sbatch(["-J", "rest_keep", "--hold", "--wrap", "true"], user=A)
    status, doc, text = ra.req("DELETE", "/slurm/v0.0.43/jobs/",
                               body={"job_name": "rest_bulk"})
    assert status == 200, text
    check(api, "/slurm/v0.0.43/jobs/", "delete", doc)
    assert sorted(s["job_id"]["number"] for s in doc["status"]) == mine, text
    for j in mine:
        c.wait_state(j, {"CANCELLED"})
    assert c.job_state(other) == "PENDING"
    assert c.job_state(keep) == "PENDING"
    # naming B's job: refused for it, nothing changes
    status, doc, text = ra.req("DELETE", "/slurm/v0.0.43/jobs/",
                               body={"jobs": [str(other)]})
    assert status == 403, text
    assert c.job_state(other) == "PENDING"
    status, doc, text = ra.req("DELETE", "/slurm/v0.0.43/jobs/", body={})
    assert status == 400, text
    c.run(["scancel", str(other), str(keep)])


def test_allocate(rest):
    c, ra, rb, api = rest
    body = {"job": {"name": "rest_alloc", "nodes": "1", "time_limit": 5,
                    "current_working_directory": c.workdir(A),
                    "environment": ["PATH=/bin"]}}
    status, doc, text = ra.req("POST", "/slurm/v0.0.43/job/allocate",
                               body=body)
    assert status == 200 and doc["job_id"] > 0, text
    check(api, "/slurm/v0.0.43/job/allocate", "post", doc)
    jid = doc["job_id"]
    c.wait_state(jid, {"RUNNING"})
    r = c.run(["squeue", "-h", "-j", str(jid), "-o", "%j %u"], user=A)
    assert r.out.split() == ["rest_alloc", A], r
    status, doc, text = ra.req("DELETE", "/slurm/v0.0.43/job/%d" % jid)
    assert status == 200, text
    c.wait_state(jid, {"CANCELLED", "COMPLETED"})


def test_update_time_answers_only_changes(rest):
    """GET jobs?update_time=T: no jobs when nothing changed since T (what
    a page left open polls with), the whole list once something did."""
    c, ra, rb, api = rest
    jid = c.sbatch(["-J", "rest_ut", "--hold", "--wrap", "true"], user=A)
    time.sleep(1.5)
    status, doc, text = ra.get("jobs/")
    t = doc["last_update"]["number"]
    assert jid in [j["job_id"] for j in doc["jobs"]], text
    time.sleep(1.1)
    status, doc, text = ra.get("jobs/?update_time=%d" % (t + 1))
    assert status == 200 and doc["jobs"] == [], text
    check(api, "/slurm/v0.0.43/jobs/", "get", doc)
    c.run(["scontrol", "update", "job", str(jid), "Comment=changed"],
          user=A)
    status, doc, text = ra.get("jobs/?update_time=%d" % (t + 1))
    assert jid in [j["job_id"] for j in doc["jobs"]], text
    status, doc, text = ra.get("jobs/?update_time=soon")
    assert status == 400, text
    c.run(["scancel", str(jid)])


def test_squeue_json_is_the_v0043_document(rest):
    """squeue --json of a running job is v0.0.43's openapi_job_info_resp,
    members and types exactly (objects closed, required present): GET
    jobs in v0.0.43 is the same document.  billable_tres is a float64
    no_val object there (it was a bare number)."""
    import json
    import openapi
    c, ra, rb, api = rest
    jid = c.sbatch(["-J", "rest_sq", "--wrap", "sleep 60"], user=A)
    c.wait_state(jid, {"RUNNING"})
    r = c.run(["squeue", "--json", "-t", "RUNNING"], user=A)
    doc = json.loads(r.out)
    openapi.validate(doc, "v0.0.43_openapi_job_info_resp",
                     os.path.join(openapi.SPEC_DIR, "v0.0.43.json"))
    j = [x for x in doc["jobs"] if x["job_id"] == jid][0]
    assert set(j["billable_tres"]) == {"set", "infinite", "number"}, j
    c.run(["scancel", str(jid)])


def test_zz_no_controller_is_503(rest):
    """Last in the module: the controller stops; slurmrestd answers 503
    (after the commands' MessageTimeout of retries), never hangs or
    crashes, and serves again once the controller is back."""
    c, ra, rb, api = rest
    c.kill_ctld()
    t0 = time.time()
    status, doc, text = ra.get("jobs/")
    assert status == 503 and doc["errors"], text
    assert time.time() - t0 < 60
    c.start_ctld()
    from cluster import wait_for
    wait_for(lambda: ra.get("ping/")[0] == 200, timeout=30,
             what="slurmrestd answering again")
