"""Talking to a test cluster's slurmrestd, and checking what it answers.

Rest(c, sock, user) sends requests over the unix socket as that user (curl
run with the user's uid: rest_auth/local accepts slurmrestd's own user
there).  Rest(c, tcp="127.0.0.1:PORT", token=T) sends them over TCP with a
JWT.  req() returns (HTTP status, parsed JSON or None, raw text).

validate(doc, openapi, schema_name) checks a document against a schema of
the served /openapi/v3 document with python3-jsonschema (OpenAPI 3.0
schemas are JSON Schema draft 4 plus keywords a validator ignores).
"""

import http.client
import json

import jsonschema


class Rest:
    def __init__(self, c, sock=None, user=None, tcp=None, token=None,
                 ver="v0.0.43"):
        self.c, self.sock, self.user = c, sock, user
        self.tcp, self.token, self.ver = tcp, token, ver

    def req(self, method, path, body=None, headers=None, raw_body=None):
        headers = dict(headers or {})
        if self.token:
            headers.setdefault("X-SLURM-USER-TOKEN", self.token)
        data = raw_body
        if body is not None:
            data = json.dumps(body)
            headers.setdefault("Content-Type", "application/json")
        if self.tcp:
            host, port = self.tcp.rsplit(":", 1)
            h = http.client.HTTPConnection(host, int(port), timeout=60)
            h.request(method, path, body=data, headers=headers)
            r = h.getresponse()
            text = r.read().decode(errors="replace")
            h.close()
            return r.status, _json(text), text
        argv = ["curl", "-s", "-g", "-X", method, "-w", "\n%{http_code}",
                "--unix-socket", self.sock]
        for k, v in headers.items():
            argv += ["-H", "%s: %s" % (k, v)]
        if data is not None:
            argv += ["--data-binary", "@-"]
        argv.append("http://localhost" + path)
        res = self.c.run(argv, user=self.user, input=data, timeout=90)
        text, _, code = res.out.rpartition("\n")
        return int(code or 0), _json(text), text

    def get(self, op, **kw):
        return self.req("GET", "/slurm/%s/%s" % (self.ver, op), **kw)


def _json(text):
    try:
        return json.loads(text)
    except ValueError:
        return None


def validate(doc, openapi, schema_name):
    """Raise jsonschema.ValidationError if doc does not fit the schema."""
    schema = {"$ref": "#/components/schemas/" + schema_name,
              "components": openapi["components"]}
    jsonschema.Draft4Validator(schema).validate(doc)


def response_schema(openapi, path, method):
    op = openapi["paths"][path][method.lower()]
    ref = op["responses"]["200"]["content"]["application/json"]["schema"]
    return ref["$ref"].rsplit("/", 1)[1]
