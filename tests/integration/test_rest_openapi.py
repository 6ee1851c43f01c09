"""slurmrestd's OpenAPI document, and its answers, checked by outside
validators.

- For each data_parser version (slurmrestd -d data_parser/v0.0.4N), for
  the four at once and for each OpenAPI plugin alone (-s), the /openapi/v3
  served validates as OpenAPI 3 with two
  npm validators, @apidevtools/swagger-parser and `redocly lint` with its
  spec ruleset (scripts/install-openapi-validator.sh installs them into a
  cache directory when they are missing).
- So does the document of every operation of the references, served or not
  (tests/tools/rest_spec_dump), so a route added later cannot bring in a
  schema that rest_spec.c converts wrongly.
- Every answer to a set of GETs (ping, jobs, job/{id}, nodes, node,
  partitions, partition, licenses, jobs/state, diag, shares,
  reservations, and 404s), and to job/submit, a job update and a job
  cancel, validates, in each version, against the schema the served
  document names for it
  (python3-jsonschema), with every object closed: a member the schema does
  not have is an error, as is an integer out of its format's range.
"""

import copy
import json
import os
import subprocess
import time

import jsonschema
import pytest

import cluster as cl
from restd_harness import Restd

VERSIONS = (40, 41, 42, 43)
INSTALLER = os.path.join(cl.REPO, "scripts", "install-openapi-validator.sh")


@pytest.fixture(scope="module")
def validators():
    """The directory holding node_modules of both npm validators."""
    r = subprocess.run([INSTALLER], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=300)
    assert r.returncode == 0, "installing the validators failed:\n" + r.stderr
    return r.stdout.strip().splitlines()[-1]


def npm_validate(validators, paths):
    """Both validators over the documents in paths: [] or what is wrong."""
    env = dict(os.environ, NODE_PATH=os.path.join(validators, "node_modules"),
               REDOCLY_TELEMETRY="off", REDOCLY_SUPPRESS_UPDATE_NOTICE="true",
               NO_COLOR="1")
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                          "openapi_validate.js")
    bad = []
    r = subprocess.run(["node", script] + paths, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, env=env,
                       timeout=120)
    if r.returncode != 0:
        bad.append("swagger-parser:\n" + r.stdout[-4000:])
    redocly = os.path.join(validators, "node_modules", ".bin", "redocly")
    r = subprocess.run([redocly, "lint", "--extends=spec",
                        "--format=stylish"] + paths,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, env=env, timeout=120)
    if r.returncode != 0:
        bad.append("redocly lint:\n" + r.stdout[-4000:])
    return bad


@pytest.fixture(scope="module")
def restd(cluster, users):
    return Restd(cluster, users[0].pw_name)


@pytest.fixture(scope="module")
def jobs(cluster, users, restd):
    """A running job and a pending one (held) of the restd's user."""
    u = users[0].pw_name
    running = cluster.sbatch(["--wrap", "sleep 300", "-N1"], user=u)
    held = cluster.sbatch(["--wrap", "sleep 300", "-H", "-N2",
                           "--comment", "h\u00e9ld"], user=u)
    cl.wait_for(lambda: cluster.run(["squeue", "-h", "-j", str(running),
                                     "-o", "%T"]).out.strip() == "RUNNING",
                timeout=30, what="job %s running" % running)
    return running, held


def write_doc(cluster, name, doc):
    path = os.path.join(cluster.dir, "run", name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def test_served_documents_validate(cluster, users, restd, validators):
    u = users[0].pw_name
    paths = []
    whole = restd.get("/openapi/v3")
    assert whole["status"] == 200 and whole["json"], whole["body"][:500]
    paths.append(write_doc(cluster, "openapi-all.json", whole["json"]))
    for v in VERSIONS:
        one = Restd(cluster, u, ["-d", "data_parser/v0.0.%d" % v],
                    name="restd%d" % v)
        try:
            a = one.get("/openapi/v3")
            assert a["status"] == 200 and a["json"], a["body"][:500]
            doc = a["json"]
            assert doc["paths"], "v0.0.%d: no paths" % v
            assert all("/v0.0.%d/" % v in p for p in doc["paths"]), \
                sorted(doc["paths"])
            # what the document lists is what answers
            other = 43 if v != 43 else 40
            assert one.get("/slurm/v0.0.%d/ping/" % other)["status"] == 404
            assert one.get("/slurm/v0.0.%d/ping/" % v)["status"] == 200
            paths.append(write_doc(cluster, "openapi-v%d.json" % v, doc))
        finally:
            one.stop()
    # each OpenAPI plugin alone (-s), in the oldest and newest version
    for plugin in ("openapi/slurmctld", "openapi/slurmdbd"):
        for v in (40, 43):
            name = "%s-v%d" % (plugin.split("/")[1], v)
            one = Restd(cluster, u, ["-s", plugin, "-d",
                                     "data_parser/v0.0.%d" % v], name=name)
            try:
                doc = one.get("/openapi/v3")["json"]
                want = "/slurmdb/" if plugin.endswith("dbd") else "/slurm/"
                assert all(p.startswith(want) for p in doc["paths"]), \
                    (plugin, sorted(doc["paths"]))
                paths.append(write_doc(cluster, "openapi-%s.json" % name,
                                       doc))
            finally:
                one.stop()
    bad = npm_validate(validators, paths)
    assert not bad, "\n".join(bad)


def test_every_reference_operation_converts(cluster, validators):
    tool = os.path.join(os.path.dirname(cl.binaries()["slurmctld"]), "..",
                        "tests", "tools", "rest_spec_dump")
    if not os.access(tool, os.X_OK):
        pytest.skip("tests/tools/rest_spec_dump not built")
    paths = []
    for v in ("",) + tuple(str(v) for v in VERSIONS):
        r = subprocess.run([tool] + ([v] if v else []), stdout=subprocess.PIPE,
                           text=True, timeout=30)
        assert r.returncode == 0
        doc = json.loads(r.stdout)
        assert len(doc["paths"]) >= 36
        paths.append(write_doc(cluster, "openapi-full%s.json" % v, doc))
    bad = npm_validate(validators, paths)
    assert not bad, "\n".join(bad)


# ---- answers against the schemas ------------------------------------------

def closed(node):
    """A copy of an OpenAPI schema with every object that lists its
    properties closed to others (additionalProperties: false)."""
    if isinstance(node, list):
        return [closed(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {k: closed(v) for k, v in node.items()}
    if "properties" in out and "$ref" not in out:
        out.setdefault("additionalProperties", False)
    return out


FORMATS = jsonschema.FormatChecker()


@FORMATS.checks("int32")
def _int32(v):
    # Slurm's generator writes int32 for its uint32 fields too (a job's
    # priority under priority/basic is 4294901759 in Slurm's answers)
    return not isinstance(v, int) or -2**31 <= v < 2**32


@FORMATS.checks("int64")
def _int64(v):
    return not isinstance(v, int) or -2**63 <= v < 2**63


def response_schema(doc, path_tmpl, method="get", status="200"):
    op = doc["paths"][path_tmpl][method]
    ref = op["responses"][status]["content"]["application/json"]["schema"]
    return ref["$ref"].rsplit("/", 1)[1]


def validate(doc, schema_name, value):
    """[] or the errors of value against doc's schema_name."""
    root = {"$ref": "#/components/schemas/" + schema_name,
            "components": closed(doc["components"])}
    v = jsonschema.Draft7Validator(root, format_checker=FORMATS)
    return ["%s: %s" % ("/".join(str(p) for p in e.absolute_path), e.message)
            for e in sorted(v.iter_errors(value), key=lambda e: e.path)][:20]


def gets(v, running, held):
    """(path asked, template, expected status) for version v."""
    s = "/slurm/v0.0.%d/" % v
    return [
        (s + "ping/", s + "ping/", 200),
        (s + "jobs/", s + "jobs/", 200),
        (s + "jobs/?flags=DETAIL", s + "jobs/", 200),
        (s + "job/%d" % running, s + "job/{job_id}", 200),
        (s + "job/%d" % held, s + "job/{job_id}", 200),
        (s + "job/999999", s + "job/{job_id}", 404),
        (s + "jobs/state/", s + "jobs/state/", 200),
        (s + "jobs/state/?job_id=%d" % running, s + "jobs/state/", 200),
        (s + "nodes/", s + "nodes/", 200),
        (s + "node/n1", s + "node/{node_name}", 200),
        (s + "node/nosuch", s + "node/{node_name}", 404),
        (s + "partitions/", s + "partitions/", 200),
        (s + "partition/debug", s + "partition/{partition_name}", 200),
        (s + "partition/nosuch", s + "partition/{partition_name}", 404),
        (s + "licenses/", s + "licenses/", 200),
        (s + "diag/", s + "diag/", 200),
        (s + "shares", s + "shares", 200),
        (s + "reservations/", s + "reservations/", 200),
        (s + "reservation/nosuch", s + "reservation/{reservation_name}",
         404),
    ]


def test_answers_validate_against_their_schemas(cluster, restd, jobs):
    running, held = jobs
    whole = restd.get("/openapi/v3")["json"]
    asked = []
    for v in VERSIONS:
        asked += [(v,) + g for g in gets(v, running, held)]
    t0 = time.time()
    answers = restd.call([{"method": "GET", "path": a[1]} for a in asked])
    failures = []
    for (v, path, tmpl, want), a in zip(asked, answers):
        if a["status"] != want or not a["utf8"] or a["json"] is None:
            failures.append("%s: status %s (want %d), body %r" % (
                path, a["status"], want, a.get("body", "")[:300]))
            continue
        doc = a["json"]
        name = response_schema(whole, tmpl,
                               status="200" if want == 200 else "default")
        errs = validate(whole, name, doc)
        if errs:
            failures.append("%s (%s):\n  %s" % (path, name, "\n  ".join(errs)))
        if want != 200 and not doc.get("errors"):
            failures.append("%s: %d without errors[]" % (path, want))
        meta = doc.get("meta", {}).get("plugin", {})
        if meta.get("data_parser") != "data_parser/v0.0.%d" % v:
            failures.append("%s: meta.plugin %r" % (path, meta))
    assert not failures, "\n".join(failures)
    # the answers carry what was asked for
    by_path = {a[1]: b for a, b in zip(asked, answers)}
    for v in VERSIONS:
        s = "/slurm/v0.0.%d/" % v
        ids = [j["job_id"] for j in by_path[s + "jobs/"]["json"]["jobs"]]
        assert running in ids and held in ids, (v, ids)
        names = [n["name"] for n in by_path[s + "nodes/"]["json"]["nodes"]]
        assert names == cluster.node_names, (v, names)
        assert [n["name"] for n in
                by_path[s + "node/n1"]["json"]["nodes"]] == ["n1"]
    assert time.time() - t0 < 60


def test_validation_catches_a_wrong_shape(restd, jobs):
    """The check above is not vacuous: a member the schema lacks, a wrong
    type and a missing required member are each reported."""
    running, _ = jobs
    whole = restd.get("/openapi/v3")["json"]
    good = restd.get("/slurm/v0.0.43/job/%d" % running)["json"]
    name = response_schema(whole, "/slurm/v0.0.43/job/{job_id}")
    assert validate(whole, name, good) == []
    bad = copy.deepcopy(good)
    bad["jobs"][0]["no_such_member"] = 1
    assert validate(whole, name, bad)
    bad = copy.deepcopy(good)
    bad["jobs"][0]["job_id"] = "x"
    assert validate(whole, name, bad)
    bad = copy.deepcopy(good)
    del bad["meta"]
    schema = whole["components"]["schemas"][name]
    if "meta" in schema.get("required", []):
        assert validate(whole, name, bad)


def test_jobs_state_answers_each_jobs_state(restd, jobs):
    """GET jobs/state sends what Slurm's handler sends, jobs[]{job_id (a
    string), state[]}, whatever schema the references name, and the served
    document names that schema: viewed as a job_info, each job lost its
    state."""
    running, held = jobs
    whole = restd.get("/openapi/v3")["json"]
    for v in VERSIONS:
        tmpl = "/slurm/v0.0.%d/jobs/state/" % v
        assert response_schema(whole, tmpl) == \
            "v0.0.%d_openapi_job_state_resp" % v
        a = restd.get(tmpl + "?job_id=%d,%d" % (running, held))
        assert a["status"] == 200, a["body"]
        got = {j["job_id"]: j["state"] for j in a["json"]["jobs"]}
        assert got == {str(running): ["RUNNING"], str(held): ["PENDING"]}, \
            (v, a["body"])


def test_write_answers_validate(cluster, restd):
    """POST job/submit, POST job/{id} (an update) and DELETE job/{id}: each
    answer validates against its schema, objects closed, in each
    version."""
    whole = restd.get("/openapi/v3")["json"]
    failures = []
    for v in VERSIONS:
        s = "/slurm/v0.0.%d/" % v
        body = {"script": "#!/bin/sh\nsleep 300\n",
                "job": {"name": "openapi%d" % v, "environment": ["PATH=/bin"],
                        "current_working_directory": "/tmp",
                        # not /tmp/slurm-N.out, which another test's job
                        # N (another user) may have made
                        "standard_output": "/dev/null",
                        "minimum_nodes": 1}}
        sub = restd.call([{"method": "POST", "path": s + "job/submit",
                           "body": json.dumps(body),
                           "headers": {"Content-Type": "application/json"}}])[0]
        if sub["status"] != 200 or not sub["json"]:
            failures.append("%s job/submit: %s %s" % (
                v, sub["status"], sub["body"][:300]))
            continue
        jid = sub["json"]["job_id"]
        upd = {"comment": "c%d" % v}
        answers = restd.call([
            {"method": "POST", "path": s + "job/%d" % jid,
             "body": json.dumps(upd),
             "headers": {"Content-Type": "application/json"}},
            {"method": "DELETE", "path": s + "job/%d" % jid}])
        for (tmpl, method), a, doc in zip(
                ((s + "job/submit", "post"), (s + "job/{job_id}", "post"),
                 (s + "job/{job_id}", "delete")),
                [sub] + answers, [sub["json"]] + [x["json"] for x in answers]):
            if a["status"] != 200 or doc is None:
                failures.append("%s %s: %s %s" % (
                    method, tmpl, a["status"], a["body"][:300]))
                continue
            name = response_schema(whole, tmpl, method)
            errs = validate(whole, name, doc)
            if errs:
                failures.append("%s %s (%s):\n  %s" % (
                    method, tmpl, name, "\n  ".join(errs)))
    assert not failures, "\n".join(failures)
