"""A slurmrestd under test, and raw HTTP to it over TCP or a unix socket.

Imported, it gives raw sockets and a small keep-alive client.  Run as a
script, it is the client a test runs as the user slurmrestd runs as (the
only peer rest_auth/local accepts on its unix socket):

    python3 restd_harness.py ADDRESS  < requests.json  > answers.json

ADDRESS is "unix:/path" or "host:port".  requests.json is a list of
{"method", "path", "headers": {..}, "body": text, "body_b64": bytes in
base64}; the answer is a list of {"status", "headers", "body" (text,
undecodable bytes replaced), "utf8" (the body was valid UTF-8), "json"
(the body parsed, or null), "ms"}.  All requests go over one keep-alive
connection, reopened if the server closed it.
"""

import base64
import http.client
import json
import os
import pwd
import shutil
import socket
import sys
import time


def connect(address, timeout=10):
    """A connected socket to "unix:/path" or "host:port"."""
    if address.startswith("unix:"):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(timeout)
        s.connect(address[5:])
        return s
    host, port = address.rsplit(":", 1)
    return socket.create_connection((host or "127.0.0.1", int(port)),
                                    timeout=timeout)


class Connection(http.client.HTTPConnection):
    """http.client over connect(address)."""

    def __init__(self, address, timeout=30):
        super().__init__("localhost", timeout=timeout)
        self.address = address

    def connect(self):
        self.sock = connect(self.address, self.timeout)


def request(conn, method, path, headers=None, body=None):
    """One request on conn; (status, headers dict, body bytes, ms)."""
    t0 = time.monotonic()
    conn.request(method, path, body=body, headers=headers or {})
    r = conn.getresponse()
    data = r.read()
    return (r.status, {k.lower(): v for k, v in r.getheaders()}, data,
            (time.monotonic() - t0) * 1000)


def answer(status, headers, data, ms):
    try:
        text = data.decode("utf-8")
        utf8 = True
    except UnicodeDecodeError:
        text = data.decode("utf-8", errors="replace")
        utf8 = False
    try:
        doc = json.loads(text) if utf8 else None
    except ValueError:
        doc = None
    return {"status": status, "headers": headers, "body": text,
            "utf8": utf8, "json": doc, "ms": ms}


def run(address, reqs):
    conn = Connection(address)
    out = []
    for q in reqs:
        body = q.get("body")
        if q.get("body_b64") is not None:
            body = base64.b64decode(q["body_b64"])
        elif body is not None:
            body = body.encode()
        for attempt in (0, 1):
            try:
                out.append(answer(*request(conn, q.get("method", "GET"),
                                           q["path"], q.get("headers"),
                                           body)))
                break
            except (http.client.HTTPException, OSError) as e:
                conn.close()
                if attempt:
                    out.append({"status": None, "error": repr(e)})
    conn.close()
    return out


class Restd:
    """A slurmrestd of cluster c run as user, on a unix socket (in a
    directory of the user's) and a loopback TCP port."""

    def __init__(self, c, user, args=(), name="restd", env=None):
        import cluster as cl
        self.c, self.user = c, user
        self.dir = os.path.join(c.dir, "run", name)
        os.makedirs(self.dir, exist_ok=True)
        pw = pwd.getpwnam(user)
        os.chown(self.dir, pw.pw_uid, pw.pw_gid)
        self.client = os.path.join(self.dir, "restd_harness.py")
        shutil.copy(os.path.abspath(__file__), self.client)
        os.chmod(self.client, 0o644)
        self.unix = "unix:" + os.path.join(self.dir, "restd.socket")
        self.port = cl.free_ports(1)[0]
        self.tcp = "127.0.0.1:%d" % self.port
        self.daemon = c.start_restd(user, [self.unix, self.tcp], args,
                                    env=env, name="slurmrestd-" + name)

    @property
    def log_path(self):
        return self.daemon.out_path

    def log_size(self):
        return os.path.getsize(self.log_path)

    def log_since(self, off):
        with open(self.log_path, errors="replace") as f:
            f.seek(off)
            return f.read()

    def alive(self):
        return self.daemon.alive()

    def call(self, reqs, user=None, address=None, timeout=60):
        """Run reqs (the request list above) as user (default: the
        one slurmrestd runs as) over address (default: the unix socket)."""
        r = self.c.run(["/usr/bin/python3", self.client,
                        address or self.unix], user=user or self.user,
                       input=json.dumps(reqs), timeout=timeout)
        if r.rc != 0:
            raise AssertionError("restd_harness failed: %s" % r.err)
        return json.loads(r.out)

    def get(self, path, **kw):
        return self.call([{"method": "GET", "path": path}], **kw)[0]

    def stop(self):
        return self.c.stop_daemon(self.daemon)


if __name__ == "__main__":
    json.dump(run(sys.argv[1], json.load(sys.stdin)), sys.stdout)
