"""slurmrestd's /slurmdb/v0.0.4N/ operations in front of a real slurmdbd.

One cluster (1 node, own MariaDB) with PrivateData=jobs,users,accounts in
slurm.conf and slurmdbd.conf; accounts teama (A = sluice_u1) and other
(B = sluice_u2).  A and B each run their own slurmrestd on a unix socket
(rest_auth/local: the daemon's own user) and talk HTTP to it with curl.
Asserted: /slurmdb/.../jobs rows are sacct's rows for the same filters,
job/{id}, ping, and the sacctmgr lists (accounts, users, associations,
qos, clusters, tres, config) are the documents sacctmgr show --json
prints; every answer validates against the schema the daemon's own
/openapi/v3 names for it, in each of v0.0.40..v0.0.43; a user sees only
what sacct and sacctmgr show them.
"""

import json
import os
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mariadb  # noqa: E402
import openapi  # noqa: E402
from rest_client import Rest, response_schema  # noqa: E402
from rest_client import validate as rest_validate  # noqa: E402

pytestmark = pytest.mark.skipif(bool(mariadb.missing_tools()),
                                reason="MariaDB server not installed: %s"
                                % ", ".join(mariadb.missing_tools()))

A, B = "sluice_u1", "sluice_u2"
PRIVATE = "PrivateData=jobs,users,accounts"
VERSIONS = (40, 41, 42, 43)
SPEC_43 = os.path.join(openapi.SPEC_DIR, "v0.0.43.json")
# sacctmgr show X --json: the schema of the same GET's answer
SACCTMGR_SCHEMA = {
    "accounts": "v0.0.43_openapi_accounts_resp",
    "users": "v0.0.43_openapi_users_resp",
    "associations": "v0.0.43_openapi_assocs_resp",
    "qos": "v0.0.43_openapi_slurmdbd_qos_resp",
    "clusters": "v0.0.43_openapi_clusters_resp",
}


@pytest.fixture(scope="module")
def env(users):
    e = mariadb.AcctEnv(tag="restdb", nodes=1, dbd_extra=PRIVATE)
    e.c.extra_conf += "\nAccountingStorageEnforce=associations\n" + \
        PRIVATE + "\n"
    try:
        e.start()
        for args in (("add", "cluster", "sluice"),
                     ("add", "account", "teama", "description=team a",
                      "organization=org a"),
                     ("add", "account", "other"),
                     ("add", "user", A, "account=teama"),
                     ("add", "user", B, "account=other")):
            r = e.sacctmgr("-i", *args)
            assert r.rc == 0, r
        e.start_cluster()
        c = e.c
        e.socks = {}
        for u in (A, B):
            import pwd
            d = os.path.join(c.dir, "restd-" + u)
            os.makedirs(d, mode=0o700, exist_ok=True)
            pw = pwd.getpwnam(u)
            os.chown(d, pw.pw_uid, pw.pw_gid)
            sock = os.path.join(d, "sock")
            c.start_restd(u, ["unix:" + sock])
            e.socks[u] = sock
        e.jobs = {
            "a_ok": c.sbatch(["-J", "aok", "-o", "/dev/null", "--wrap",
                              "true"], user=A),
            "a_fail": c.sbatch(["-J", "afail", "-o", "/dev/null",
                                "--wrap", "exit 3"], user=A),
            "b_ok": c.sbatch(["-J", "bok", "-o", "/dev/null", "--wrap",
                              "true"], user=B),
        }
        want = {str(j) for j in e.jobs.values()}
        deadline = time.time() + 90
        while time.time() < deadline:
            r = e.sacct("-a", "-X", "-P", "-n", "-o", "JobIDRaw,State",
                        "-S", "now-1hour")
            done = {ln.split("|")[0] for ln in r.out.splitlines()
                    if ln.split("|")[1] in ("COMPLETED", "FAILED")}
            if want <= done:
                break
            time.sleep(0.5)
        assert want <= done, r
    except BaseException:
        e.stop()
        raise
    yield e
    e.finish()


def get(env, user, path, status=200):
    """GET path from user's slurmrestd: the parsed document."""
    code, doc, text = Rest(env.c, env.socks[user], user).req("GET", path)
    assert code == status, (path, code, text)
    assert doc is not None, (path, text)
    return doc


_specs = {}


def validate(env, ver, path, doc, method="get"):
    """doc against the response schema the daemon's /openapi/v3 names for
    path (whose template has {params} where path has values), and against
    the same schema of version ver's full spec with no member it lacks."""
    if "spec" not in _specs:
        _specs["spec"] = get(env, A, "/openapi/v3")
    spec = _specs["spec"]
    want = path.split("?")[0].strip("/").split("/")
    tmpl = None
    for p, ops in spec["paths"].items():
        parts = p.strip("/").split("/")
        if len(parts) == len(want) and method in ops and all(
                x == y or x.startswith("{") for x, y in zip(parts, want)):
            tmpl = p
    assert tmpl, "no %s %s in /openapi/v3" % (method, path)
    name = response_schema(spec, tmpl, method)
    rest_validate(doc, spec, name)
    # and strictly (no member the schema lacks) against the full spec
    openapi.validate(doc, name, os.path.join(openapi.SPEC_DIR,
                                             "v0.0.%d.json" % ver))


def sacct_rows(env, user, *args):
    r = env.sacct("-P", "-n", "-o", "JobIDRaw,JobName,State,User,Account",
                  *args, user=user)
    assert r.rc == 0, r
    return sorted(r.out.splitlines())


def rest_rows(doc):
    rows = []
    for j in doc["jobs"]:
        rows.append("|".join([str(j["job_id"]), j["name"],
                              j["state"]["current"][0], j["user"],
                              j["account"]]))
        for s in j["steps"]:
            rows.append("|".join([s["step"]["id"], s["step"]["name"],
                                  s["state"][0], "", j["account"]]))
    return sorted(rows)


def test_ping(env):
    for v in (42, 43):   # ping is served from v0.0.42 on
        path = "/slurmdb/v0.0.%d/ping/" % v
        doc = get(env, A, path)
        validate(env, v, path, doc)
        assert [p["responding"] for p in doc["pings"]] == [True]
        assert doc["pings"][0]["hostname"] == "127.0.0.1"
    get(env, A, "/slurmdb/v0.0.41/ping/", status=404)
    r = env.sacctmgr("--json", "ping", user=A)
    assert r.rc == 0 and json.loads(r.out)["pings"][0]["responding"], r
    openapi.validate(json.loads(r.out), "v0.0.43_openapi_slurmdbd_ping_resp",
                     SPEC_43)


def test_jobs_equal_sacct(env):
    j = env.jobs
    now = int(time.time())
    # the same filters both ways: user, account, window, state, name
    cases = [
        ("users=%s&start_time=%d" % (A, now - 3600),
         ["-u", A, "-S", "now-1hour"]),
        ("account=teama&start_time=%d&end_time=%d" % (now - 3600, now + 60),
         ["-A", "teama", "-S", "now-1hour", "-E", "now+1minute"]),
        ("users=%s&state=FAILED&start_time=%d" % (A, now - 3600),
         ["-u", A, "-s", "FAILED", "-S", "now-1hour"]),
        ("users=%s&job_name=aok&start_time=%d" % (A, now - 3600),
         ["-u", A, "--name", "aok", "-S", "now-1hour"]),
        ("users=%s&partition=debug&skip_steps&start_time=%d" %
         (A, now - 3600), ["-u", A, "-r", "debug", "-X", "-S", "now-1hour"]),
    ]
    for query, args in cases:
        doc = get(env, A, "/slurmdb/v0.0.43/jobs/?" + query)
        assert doc["errors"] == [], doc["errors"]
        assert rest_rows(doc) == sacct_rows(env, A, *args), query
    # every version's view validates; -X's answer has no steps
    for v in VERSIONS:
        path = "/slurmdb/v0.0.%d/jobs/?users=%s&start_time=%d" % (
            v, A, now - 3600)
        doc = get(env, A, path)
        validate(env, v, path, doc)
        assert {x["job_id"] for x in doc["jobs"]} == {j["a_ok"],
                                                     j["a_fail"]}
    # sacct --json prints the same document for the same filter
    r = env.sacct("--json", "-u", A, "-S", "now-1hour", user=A)
    openapi.validate(json.loads(r.out), "v0.0.43_openapi_slurmdbd_jobs_resp",
                     SPEC_43)
    cli = json.loads(r.out)["jobs"]
    rest = get(env, A, "/slurmdb/v0.0.43/jobs/?users=%s&start_time=%d" % (
        A, now - 3600))["jobs"]
    for x in cli + rest:
        x["time"].pop("elapsed")   # both against their own clock
        for st in x["steps"]:
            st["time"].pop("elapsed")
    assert json.dumps(cli, sort_keys=True, indent=1) == \
        json.dumps(rest, sort_keys=True, indent=1)


def test_job_by_id(env):
    j = env.jobs
    for v in VERSIONS:
        path = "/slurmdb/v0.0.%d/job/%d" % (v, j["a_fail"])
        doc = get(env, A, path)
        validate(env, v, path, doc)
        [job] = doc["jobs"]
        assert job["job_id"] == j["a_fail"] and job["name"] == "afail"
    job = get(env, A, "/slurmdb/v0.0.43/job/%d" % j["a_fail"])["jobs"][0]
    assert job["exit_code"]["return_code"]["number"] == 3
    assert job["steps"][0]["step"]["id"] == "%d.batch" % j["a_fail"]
    doc = get(env, A, "/slurmdb/v0.0.43/job/999999", status=404)
    assert doc["jobs"] == [] and doc["errors"]
    doc = get(env, A, "/slurmdb/v0.0.43/job/x1", status=404)
    assert doc["errors"][0]["description"] == "Invalid job id x1"


def test_bad_query_is_refused_by_name(env):
    for q, word in (("wckey=x", "wckey"), ("bogus=1", "bogus"),
                    ("start_time=yesterdayish", "start_time"),
                    ("state=NOTASTATE", "state"), ("node=n[1-", "node")):
        doc = get(env, A, "/slurmdb/v0.0.43/jobs/?" + q, status=400)
        assert doc["jobs"] == [] and word in \
            doc["errors"][0]["description"], (q, doc["errors"])


def test_private_data_as_sacct(env):
    """B sees only what sacct shows B: B's job, not A's."""
    j = env.jobs
    now = int(time.time())
    doc = get(env, B, "/slurmdb/v0.0.43/jobs/?start_time=%d" % (now - 3600))
    ids = {x["job_id"] for x in doc["jobs"]}
    assert ids == {j["b_ok"]}
    assert rest_rows(doc) == sacct_rows(env, B, "-a", "-S", "now-1hour")
    doc = get(env, B, "/slurmdb/v0.0.43/job/%d" % j["a_ok"], status=404)
    assert doc["jobs"] == []
    # users and accounts (PrivateData=users,accounts)
    doc = get(env, B, "/slurmdb/v0.0.43/users/")
    assert [u["name"] for u in doc["users"]] == [B]
    doc = get(env, B, "/slurmdb/v0.0.43/accounts/")
    assert doc["accounts"] == []
    doc = get(env, B, "/slurmdb/v0.0.43/associations/")
    assert [(x["account"], x["user"]) for x in doc["associations"]] == \
        [("other", B)]


def test_accounting_lists_as_sacctmgr(env):
    """Each list validates in every version and is sacctmgr show --json's
    document (root's view, through A's daemon: A sees its own)."""
    for what, key, path in (("account", "accounts", "accounts/"),
                            ("user", "users", "users/"),
                            ("association", "associations",
                             "associations/"),
                            ("qos", "qos", "qos/"),
                            ("cluster", "clusters", "clusters/")):
        r = env.sacctmgr("--json", "show", what, user=A)
        assert r.rc == 0, r
        openapi.validate(json.loads(r.out), SACCTMGR_SCHEMA[key],
                         SPEC_43)
        cli = json.loads(r.out)[key]
        for v in VERSIONS:
            p = "/slurmdb/v0.0.%d/%s" % (v, path)
            doc = get(env, A, p)
            validate(env, v, p, doc)
            if v == 43:
                assert doc[key] == cli, what
    # with_assocs / withassoc: each user's associations (assoc_short)
    r = env.sacctmgr("--json", "show", "user", "withassoc", user=A)
    assert r.rc == 0, r
    cli = json.loads(r.out)["users"]
    for v in VERSIONS:
        p = "/slurmdb/v0.0.%d/users/?with_assocs" % v
        doc = get(env, A, p)
        validate(env, v, p, doc)
        if v == 43:
            assert doc["users"] == cli
    assert [(a["account"], a["user"], a["cluster"])
            for a in cli[0]["associations"]] == [("teama", A, "sluice")]
    r = env.sacctmgr("--json", "-i", "add", "account", "zz")
    assert r.rc == 1 and "apply to show, list and ping only" in r.err, r
    r = env.sacctmgr("-n", "-P", "show", "account", "zz")
    assert r.out == "", r
    users = get(env, A, "/slurmdb/v0.0.43/users/")["users"]
    assert [(u["name"], u["default"]["account"]) for u in users] == \
        [(A, "teama")]
    assocs = get(env, A, "/slurmdb/v0.0.43/associations/")["associations"]
    assert [(x["account"], x["user"], x["cluster"]) for x in assocs] == \
        [("teama", A, "sluice")]
    qos = get(env, A, "/slurmdb/v0.0.43/qos/")["qos"]
    assert "normal" in [q["name"] for q in qos]
    clusters = get(env, A, "/slurmdb/v0.0.43/clusters/")["clusters"]
    assert [c["name"] for c in clusters] == ["sluice"]


def test_lists_by_name_tres_and_config(env):
    for v in VERSIONS:
        for path, key, name in (("user/%s" % A, "users", A),
                                ("qos/normal", "qos", "normal"),
                                ("cluster/sluice", "clusters", "sluice")):
            p = "/slurmdb/v0.0.%d/%s" % (v, path)
            doc = get(env, A, p)
            validate(env, v, p, doc)
            assert [x["name"] for x in doc[key]] == [name]
        p = "/slurmdb/v0.0.%d/tres/" % v
        doc = get(env, A, p)
        validate(env, v, p, doc)
        assert {t["type"] for t in doc["TRES"]} >= {"cpu", "mem", "node"}
        p = "/slurmdb/v0.0.%d/config" % v
        doc = get(env, A, p)
        validate(env, v, p, doc)
        assert [u["name"] for u in doc["users"]] == [A]
    r = env.sacctmgr("--json", "show", "tres", user=A)
    assert r.rc == 0, r
    openapi.validate(json.loads(r.out), "v0.0.43_openapi_tres_resp", SPEC_43)
    assert json.loads(r.out)["TRES"] == \
        get(env, A, "/slurmdb/v0.0.43/tres/")["TRES"]
    r = env.sacctmgr("show", "tres", user=A)
    assert r.out.splitlines()[:3] == [
        "    Type            Name     ID ",
        "-------- --------------- ------ ",
        "     cpu                      1 "], r
    doc = get(env, A, "/slurmdb/v0.0.43/user/%s,root" % A, status=400)
    assert doc["users"] == [] and "Invalid name" in \
        doc["errors"][0]["description"]
    doc = get(env, A, "/slurmdb/v0.0.43/user/nosuchuser", status=404)
    assert doc["users"] == [] and doc["errors"]
    doc = get(env, A, "/slurmdb/v0.0.43/accounts/?with_bogus=1", status=400)
    assert "with_bogus" in doc["errors"][0]["description"]


def delete(env, user, path, status=200):
    code, doc, text = Rest(env.c, env.socks[user], user).req("DELETE", path)
    assert code == status, (path, code, text)
    return doc


def test_deletes_need_an_administrator(env):
    """DELETE account, qos, association and user: A (no AdminLevel) is
    refused and nothing changes; B as Administrator removes them, and
    sacctmgr no longer shows them.  (Last: B's AdminLevel changes.)"""
    for args in (("add", "account", "scratch"), ("add", "qos", "scratchq"),
                 ("add", "user", "root", "account=scratch"),
                 ("add", "cluster", "scratchc")):
        r = env.sacctmgr("-i", *args)
        assert r.rc == 0, r
    for path in ("account/scratch", "qos/scratchq",
                 "associations/?account=scratch&user=root"):
        doc = delete(env, A, "/slurmdb/v0.0.43/" + path, status=403)
        assert doc["errors"][0]["error_number"] == 1 or \
            "denied" in doc["errors"][0]["error"].lower(), doc
    r = env.sacctmgr("-n", "-P", "show", "account", "scratch",
                     "format=account")
    assert r.out.split() == ["scratch"], r
    r = env.sacctmgr("-i", "modify", "user", B, "set",
                     "adminlevel=Administrator")
    assert r.rc == 0, r
    try:
        doc = delete(env, B, "/slurmdb/v0.0.43/associations/", status=400)
        assert "every association" in doc["errors"][0]["description"]
        p = "/slurmdb/v0.0.43/associations/?account=scratch&user=root"
        doc = delete(env, B, p)
        validate(env, 43, p, doc, "delete")
        assert doc["removed_associations"] != [], doc
        p = "/slurmdb/v0.0.43/qos/scratchq"
        doc = delete(env, B, p)
        validate(env, 43, p, doc, "delete")
        assert doc["removed_qos"] == ["scratchq"]
        p = "/slurmdb/v0.0.43/account/scratch"
        doc = delete(env, B, p)
        validate(env, 43, p, doc, "delete")
        assert doc["removed_accounts"] == ["scratch"]
        doc = delete(env, B, p, status=404)
        assert doc["removed_accounts"] == []
        p = "/slurmdb/v0.0.43/cluster/scratchc"
        doc = delete(env, B, p)
        validate(env, 43, p, doc, "delete")
        assert doc["deleted_clusters"] == ["scratchc"]
        for what, name in (("account", "scratch"), ("qos", "scratchq"),
                           ("cluster", "scratchc")):
            r = env.sacctmgr("-n", "-P", "show", what, name,
                             {"qos": "format=name", "account":
                              "format=account"}.get(what, "format=cluster"))
            assert r.rc == 0 and r.out == "", (what, r)
    finally:
        env.sacctmgr("-i", "modify", "user", B, "set", "adminlevel=None")


def post(env, user, path, body, status=200):
    code, doc, text = Rest(env.c, env.socks[user], user).req(
        "POST", path, body=body)
    assert code == status, (path, code, text)
    return doc


def test_post_accounts_and_qos(env):
    """POST accounts / qos add what is new and change what exists, in one
    transaction: a refused record changes nothing; only an Administrator
    may.  A GET answer sent back changes nothing."""
    body = {"accounts": [{"name": "newacct", "description": "fresh",
                          "organization": "org n"},
                         {"name": "teama", "description": "renamed a",
                          "organization": "org a"}]}
    doc = post(env, A, "/slurmdb/v0.0.43/accounts/", body, status=403)
    assert doc["errors"]
    r = env.sacctmgr("-i", "modify", "user", B, "set",
                     "adminlevel=Administrator")
    assert r.rc == 0, r
    try:
        # one bad record: nothing at all is added or changed
        bad = {"accounts": body["accounts"] +
               [{"name": "x2", "flags": ["DELETED"]}]}
        doc = post(env, B, "/slurmdb/v0.0.43/accounts/", bad, status=400)
        assert "accounts[2]/flags" in doc["errors"][0]["description"]
        bad = {"accounts": [{"name": "ok1"}, {"name": "a,b"}]}
        doc = post(env, B, "/slurmdb/v0.0.43/accounts/", bad, status=400)
        assert "accounts[1]/name" in doc["errors"][0]["description"]
        r = env.sacctmgr("-n", "-P", "show", "account", "newacct,ok1",
                         "format=account")
        assert r.out == "", r
        p = "/slurmdb/v0.0.43/accounts/"
        doc = post(env, B, p, body)
        validate(env, 43, p, doc, "post")
        r = env.sacctmgr("-n", "-P", "show", "account", "newacct,teama",
                         "format=account,descr,org")
        assert sorted(r.out.splitlines()) == [
            "newacct|fresh|org n", "teama|renamed a|org a"], r
        # an account lists its coordinators
        r = env.sacctmgr("-i", "add", "coordinator", "account=newacct",
                         "names=%s" % B)
        assert r.rc == 0, r
        doc = get(env, B, "/slurmdb/v0.0.43/account/newacct")
        assert doc["accounts"][0]["coordinators"] == [
            {"name": B, "direct": True}]
        r = env.sacctmgr("--json", "show", "account", "newacct")
        assert json.loads(r.out)["accounts"] == doc["accounts"], r
        # users: a new one (its default account's association comes
        # with it) and an unchanged one; DELETE user removes it again
        p = "/slurmdb/v0.0.43/users/"
        doc = post(env, B, p, {"users": [
            {"name": "restuser", "default": {"account": "newacct"},
             "administrator_level": ["Operator"]},
            {"name": A, "default": {"account": "teama"}}]})
        validate(env, 43, p, doc, "post")
        r = env.sacctmgr("-n", "-P", "show", "user", "restuser,%s" % A,
                         "format=user,defaultaccount,adminlevel")
        assert sorted(r.out.splitlines()) == sorted([
            "restuser|newacct|Operator", "%s|teama|None" % A]), r
        doc = post(env, B, p, {"users": [{"name": "x3",
                                          "administrator_level": ["God"]}]},
                   status=400)
        assert "users[0]/administrator_level" in \
            doc["errors"][0]["description"]
        doc = post(env, B, p, {"users": [{"name": "noacct"}]}, status=400)
        assert "account" in doc["errors"][0]["description"], doc
        p = "/slurmdb/v0.0.43/user/restuser"
        doc = delete(env, B, p)
        validate(env, 43, p, doc, "delete")
        r = env.sacctmgr("-n", "-P", "show", "user", "restuser")
        assert r.out == "", r
        # associations: B gets one in newacct, A's in teama gets limits;
        # then every association's GET answer sent back changes nothing
        p = "/slurmdb/v0.0.43/associations/"
        doc = post(env, B, p, {"associations": [
            {"account": "newacct", "user": B},
            {"account": "teama", "user": A, "cluster": "sluice",
             "priority": {"set": True, "number": 3},
             "max": {"jobs": {"per": {"count": {"set": True,
                                                "number": 5}}},
                     "tres": {"total": [{"type": "cpu", "count": 8}]}}}]})
        validate(env, 43, p, doc, "post")
        r = env.sacctmgr("-n", "-P", "show", "assoc", "where",
                         "user=%s,%s" % (A, B),
                         "format=account,user,priority,maxjobs,grptres")
        rows = set(r.out.splitlines())
        assert "teama|%s|3|5|cpu=8" % A in rows, r
        assert any(x.startswith("newacct|%s|" % B) for x in rows), r
        before = get(env, B, p)["associations"]
        doc = post(env, B, p, {"associations": before})
        assert doc["errors"] == [], doc
        assert get(env, B, p)["associations"] == before
        bad = {"associations": [{"account": "teama", "user": A, "max": {
            "tres": {"total": [{"type": "cpu", "count": "x"}]}}}]}
        doc = post(env, B, p, bad, status=400)
        assert "associations[0]/max/tres/total" in \
            doc["errors"][0]["description"]
        doc = post(env, B, p, {"associations": [
            {"account": "teama", "user": A, "lineage": "/x/"}]}, status=400)
        assert "associations[0]/lineage" in doc["errors"][0]["description"]
        # QOS: a new one with limits; then normal's GET answer sent back
        q = {"qos": [{"name": "fastq", "description": "quick",
                      "priority": {"set": True, "number": 10},
                      "limits": {"max": {"wall_clock": {"per": {
                          "job": {"set": True, "number": 30}}}}}}]}
        p = "/slurmdb/v0.0.43/qos/"
        doc = post(env, B, p, q)
        validate(env, 43, p, doc, "post")
        r = env.sacctmgr("-n", "-P", "show", "qos", "fastq",
                         "format=name,descr,priority,maxwall")
        assert r.out.splitlines() == ["fastq|quick|10|00:30:00"], r
        before = get(env, B, "/slurmdb/v0.0.43/qos/")
        doc = post(env, B, p, {"qos": before["qos"]})
        assert doc["errors"] == [], doc
        assert get(env, B, "/slurmdb/v0.0.43/qos/")["qos"] == before["qos"]
        doc = post(env, B, p, {"qos": [{"name": "normal", "id": 999}]},
                   status=400)
        assert "id" in doc["errors"][0]["description"]
        doc = post(env, B, p, {"qos": [{"name": "x", "priority": "high"}]},
                   status=400)
        assert "qos[0]/priority" in doc["errors"][0]["description"]
    finally:
        env.sacctmgr("-i", "modify", "user", B, "set", "adminlevel=None")


def test_post_clusters_tres_config_and_add_cond(env):
    """POST clusters, tres, config, accounts_association and
    users_association: A (no AdminLevel) is refused and nothing changes;
    B as Administrator adds records; a GET answer sent back changes
    nothing; what Sluice does not store is refused by name (TRES it does
    not have, wckeys and instances: 501)."""
    p = "/slurmdb/v0.0.43/clusters/"
    doc = post(env, A, p, {"clusters": [{"name": "restc"}]}, status=403)
    assert doc["errors"], doc
    r = env.sacctmgr("-n", "-P", "show", "cluster", "restc", "format=cluster")
    assert r.out == "", r
    r = env.sacctmgr("-i", "modify", "user", B, "set",
                     "adminlevel=Administrator")
    assert r.rc == 0, r
    try:
        # clusters: what a controller registers is not taken, and said so
        doc = post(env, B, p, {"clusters": [
            {"name": "restc", "controller": {"host": "h1", "port": 7}}]})
        validate(env, 43, p, doc, "post")
        assert doc["errors"] == [] and \
            "controller" in doc["warnings"][0]["description"], doc
        r = env.sacctmgr("-n", "-P", "show", "cluster", "restc",
                         "format=cluster")
        assert r.out.split() == ["restc"], r
        before = get(env, B, p)["clusters"]
        for v in VERSIONS:
            pv = "/slurmdb/v0.0.%d/clusters/" % v
            doc = post(env, B, pv, {"clusters": before})
            validate(env, v, pv, doc, "post")
            assert doc["errors"] == [], doc
        assert get(env, B, p)["clusters"] == before
        doc = post(env, B, p, {"clusters": [{"name": "x",
                                             "flags": ["FEDERATION"]}]},
                   status=400)
        assert "clusters[0]/flags" in doc["errors"][0]["description"]

        # tres: Sluice's are fixed
        p = "/slurmdb/v0.0.43/tres/"
        have = get(env, B, p)["TRES"]
        doc = post(env, B, p, {"TRES": have})
        validate(env, 43, p, doc, "post")
        assert doc["errors"] == [], doc
        doc = post(env, B, p, {"TRES": [{"type": "gres", "name": "gpu"}]},
                   status=501)
        validate(env, 43, p, doc, "post")
        assert "gres/gpu" in doc["errors"][0]["description"], doc

        # accounts_association: one sacctmgr add account
        p = "/slurmdb/v0.0.43/accounts_association/"
        cond = {"association_condition": {
            "accounts": ["acond1"], "clusters": ["sluice"],
            "association": {"fairshare": 7,
                            "maxjobs": {"set": True, "number": 4}}},
            "account": {"description": "by cond", "organization": "org c"}}
        doc = post(env, A, p, cond, status=403)
        r = env.sacctmgr("-n", "-P", "show", "account", "acond1",
                         "format=account")
        assert r.out == "", r
        for v in VERSIONS:
            pv = "/slurmdb/v0.0.%d/accounts_association/" % v
            body = json.loads(json.dumps(cond))
            body["association_condition"]["accounts"] = ["acond%d" % v]
            doc = post(env, B, pv, body)
            validate(env, v, pv, doc, "post")
            assert "acond%d" % v in doc["added_accounts"], doc
        r = env.sacctmgr("-n", "-P", "show", "account", "acond43",
                         "format=account,descr,org")
        assert r.out.splitlines() == ["acond43|by cond|org c"], r
        r = env.sacctmgr("-n", "-P", "show", "assoc", "where",
                         "account=acond43", "format=account,user,fairshare,"
                         "maxjobs")
        assert r.out.splitlines() == ["acond43||7|4"], r
        bad = json.loads(json.dumps(cond))
        bad["association_condition"]["accounts"] = ["acondx"]
        bad["association_condition"]["association"]["comment"] = "c"
        doc = post(env, B, p, bad, status=400)
        assert "association_condition/association/comment" in \
            doc["errors"][0]["description"], doc
        doc = post(env, B, p, {"association_condition": {"accounts": []}},
                   status=400)
        assert "accounts" in doc["errors"][0]["description"], doc

        # users_association: one sacctmgr add user
        p = "/slurmdb/v0.0.43/users_association/"
        ucond = {"association_condition": {"users": ["condusr"],
                                           "accounts": ["acond43"],
                                           "clusters": ["sluice"]},
                 "user": {"defaultaccount": "acond43",
                          "adminlevel": ["Not Set"]}}
        doc = post(env, A, p, ucond, status=403)
        doc = post(env, B, p, ucond)
        validate(env, 43, p, doc, "post")
        assert "condusr" in doc["added_users"], doc
        r = env.sacctmgr("-n", "-P", "show", "user", "condusr",
                         "format=user,defaultaccount")
        assert r.out.splitlines() == ["condusr|acond43"], r
        bad = {"association_condition": {"users": ["u2"],
                                         "accounts": ["acond43"],
                                         "wckeys": ["w"]}}
        doc = post(env, B, p, bad, status=400)
        assert "association_condition/wckeys" in \
            doc["errors"][0]["description"], doc

        # config: a GET answer sent back changes nothing; new records
        # of every kind in one transaction
        p = "/slurmdb/v0.0.43/config"
        before = get(env, B, p)
        doc = post(env, B, p, before)
        validate(env, 43, p, doc, "post")
        assert doc["errors"] == [], doc
        after = get(env, B, p)
        for k in ("accounts", "users", "qos", "associations", "clusters"):
            assert after[k] == before[k], k
        new = {"accounts": [{"name": "cfgacct", "description": "from cfg",
                             "organization": "o", "coordinators": [
                                 {"name": "cfguser", "direct": True}]}],
               "users": [{"name": "cfguser",
                          "default": {"account": "cfgacct"}}],
               "qos": [{"name": "cfgq", "description": "q"}]}
        doc = post(env, B, p, new)
        validate(env, 43, p, doc, "post")
        assert doc["errors"] == [], doc
        r = env.sacctmgr("-n", "-P", "show", "user", "cfguser",
                         "format=user,defaultaccount")
        assert r.out.splitlines() == ["cfguser|cfgacct"], r
        # coordinators come last, after the users they name
        assert get(env, B, "/slurmdb/v0.0.43/account/cfgacct")[
            "accounts"][0]["coordinators"] == [
                {"name": "cfguser", "direct": True}]
        # one bad record: nothing of the request happens
        doc = post(env, B, p, {"accounts": [{"name": "cfg2"}],
                               "qos": [{"name": "q2", "priority": "hi"}]},
                   status=400)
        r = env.sacctmgr("-n", "-P", "show", "account", "cfg2",
                         "format=account")
        assert r.out == "", r
        for key in ("wckeys", "instances"):
            doc = post(env, B, p, {key: [{"name": "x"}]}, status=501)
            assert key in doc["errors"][0]["description"], doc
        doc = post(env, B, p, {"bogus": [1]}, status=400)
        assert "bogus" in doc["errors"][0]["description"], doc
    finally:
        for args in (("delete", "user", "condusr,cfguser"),
                     ("delete", "account", "acond40,acond41,acond42,"
                      "acond43,cfgacct"),
                     ("delete", "qos", "cfgq"),
                     ("delete", "cluster", "restc")):
            env.sacctmgr("-i", *args)
        env.sacctmgr("-i", "modify", "user", B, "set", "adminlevel=None")


def test_wckeys_and_what_restd_does_not_serve(env):
    """wckeys are listed as slurmdbd keeps them (sacctmgr add wckey;
    filters by user, cluster, name, id; wckey/{id}); instances as what
    they are (none); what would change wckeys or report slurmdbd's
    statistics is refused (POST wckeys 501, DELETE wckey/{id} 501, GET
    diag 501: sacctmgr does those)."""
    r = env.sacctmgr("-i", "add", "wckey", "restw", "user=" + A)
    assert r.rc == 0, r
    try:
        r = env.sacctmgr("-n", "-P", "show", "wckey", "where", "name=restw",
                         "format=ID")
        wid = int(r.out.split()[0])
        for v in VERSIONS:
            base = "/slurmdb/v0.0.%d/" % v
            for path in ("wckeys/?user=%s" % A, "wckeys/?name=restw",
                         "wckey/%d" % wid):
                doc = get(env, A, base + path)
                validate(env, v, base + path, doc)
                assert [(w["name"], w["user"], w["cluster"], w["id"])
                        for w in doc["wckeys"]] == [
                    ("restw", A, "sluice", wid)], doc
            doc = get(env, A, base + "wckeys/?user=nobody_here")
            assert doc["wckeys"] == [] and doc["errors"] == [], doc
            doc = get(env, A, base + "wckeys/?bogus=1", status=400)
            assert "bogus" in doc["errors"][0]["description"], doc
            for path, key in (("instances/", "instances"),
                              ("instance/?cluster=sluice", "instances")):
                doc = get(env, A, base + path)
                validate(env, v, base + path, doc)
                assert doc[key] == [] and doc["errors"] == [], doc
            doc = get(env, A, base + "wckey/999999", status=404)
            validate(env, v, base + "wckey/999999", doc)
            assert "Nothing found" in doc["errors"][0]["description"]
            doc = delete(env, A, base + "wckey/%d" % wid, status=501)
            validate(env, v, base + "wckey/1", doc, "delete")
            assert "sacctmgr delete wckey" in \
                doc["errors"][0]["description"]
            doc = post(env, A, base + "wckeys/", {"wckeys": [
                {"name": "w1", "user": A, "cluster": "sluice"}]},
                status=501)
            validate(env, v, base + "wckeys/", doc, "post")
            assert "sacctmgr add wckey" in doc["errors"][0]["description"]
            doc = get(env, A, base + "diag/", status=501)
            validate(env, v, base + "diag/", doc)
            assert "sacctmgr show stats" in \
                doc["errors"][0]["description"]
    finally:
        env.sacctmgr("-i", "delete", "wckey", "where", "name=restw")
