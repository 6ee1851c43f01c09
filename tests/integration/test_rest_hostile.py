"""slurmrestd under bad input and hostile clients.

Whatever comes in, slurmrestd answers with an HTTP error and Slurm's error
envelope (valid UTF-8 JSON), changes nothing, keeps answering everyone
else, and never crashes (it is alive after each test and its log holds no
sanitizer report):

- request bodies: 0 bytes, 1 MiB of '[', invalid UTF-8, cut-off JSON (400
  with the byte where parsing stopped), a body over --max-body-size and a
  4 GiB Content-Length (413, without reading the body); a node update that
  is refused leaves the node as it was, while a good one (from an
  operator) takes effect;
- slowloris (headers a byte a second) and 1,000 idle keep-alive
  connections: a normal client still gets answers in under a second;
- tokens that are not three parts, not base64url, without "sun", not
  JSON, both X-SLURM-USER-TOKEN and Authorization, a user name that is not
  the token's: 401, with the reason in the log; no token over TCP: 401;
- unknown paths 404, wrong methods 405, a bad path or query 400, clients
  that hang up before their answer;
- slurmrestd refuses to start as root and as SlurmUser, with Slurm's text.
"""

import base64
import json
import os
import resource
import socket
import threading
import time

import pytest

import cluster as cl
from restd_harness import Restd, connect

MAX_BODY = 2 * 1024 * 1024
NODE = "n1"
FORGED = "\n[2026-01-01T00:00:00.000] forged"   # a log line, if let in
SAN = ("AddressSanitizer", "LeakSanitizer", "runtime error:",
       "UndefinedBehaviorSanitizer")


@pytest.fixture(scope="module")
def restd(cluster, users):
    """slurmrestd as an unprivileged user (unix socket and TCP)."""
    return Restd(cluster, users[0].pw_name,
                 ["--max-body-size=%d" % MAX_BODY, "-v"])


@pytest.fixture(scope="module")
def operator(cluster, users):
    """slurmrestd as SlurmUser (root here, allowed by Slurm's
    SLURMRESTD_SECURITY=disable_user_check): its unix socket peer is
    root, so its node updates take effect."""
    return Restd(cluster, "root", ["--max-body-size=%d" % MAX_BODY, "-v"],
                 name="operator",
                 env={"SLURMRESTD_SECURITY": "disable_user_check"})


@pytest.fixture(autouse=True)
def still_alive(request, cluster):
    yield
    for name in ("restd", "operator"):
        if name not in request.fixturenames:
            continue
        d = request.getfixturevalue(name)
        assert d.alive(), "slurmrestd died:\n" + d.log_since(0)[-3000:]
        text = d.log_since(0)
        assert not any(s in text for s in SAN), text[-5000:]
    assert not cluster.sanitizer_reports()


# ---- raw HTTP ---------------------------------------------------------------

class Raw:
    """A raw connection: send bytes, read whole answers (keeping what
    came after one for the next)."""

    def __init__(self, address, timeout=10):
        self.s = connect(address, timeout)
        self.buf = b""

    def send(self, data):
        """False if the server hung up (it may have answered first)."""
        try:
            self.s.sendall(data)
            return True
        except (BrokenPipeError, ConnectionResetError):
            return False

    def _fill(self, end):
        self.s.settimeout(max(0.05, end - time.monotonic()))
        try:
            chunk = self.s.recv(65536)
        except (socket.timeout, ConnectionResetError):
            chunk = b""
        self.buf += chunk
        return bool(chunk)

    def answer(self, timeout=10):
        """(status or None if none came, head, body)."""
        end = time.monotonic() + timeout
        while b"\r\n\r\n" not in self.buf:
            if not self._fill(end):
                head, self.buf = self.buf.decode(errors="replace"), b""
                return (None, head, b"")
        head, _, self.buf = self.buf.partition(b"\r\n\r\n")
        head = head.decode(errors="replace")
        length = 0
        for line in head.split("\r\n")[1:]:
            k, _, v = line.partition(":")
            if k.strip().lower() == "content-length":
                length = int(v)
        while len(self.buf) < length and self._fill(end):
            pass
        body, self.buf = self.buf[:length], self.buf[length:]
        return (int(head.split()[1]), head, body)

    def close(self):
        self.s.close()


def raw(address, data, timeout=10):
    """Send data on a new connection and read one answer:
    (status or None, head, body, seconds)."""
    t0 = time.monotonic()
    r = Raw(address, timeout)
    try:
        r.send(data)
        return r.answer(timeout) + (time.monotonic() - t0,)
    finally:
        r.close()


def post_node(body, extra=""):
    data = body if isinstance(body, bytes) else body.encode()
    return ("POST /slurm/v0.0.43/node/%s HTTP/1.1\r\nHost: x\r\n"
            "Content-Type: application/json\r\nContent-Length: %d\r\n%s\r\n"
            % (NODE, len(data), extra)).encode() + data


def node_state(c):
    r = c.run(["scontrol", "show", "node", NODE])
    rec = cl.parse_kv(r.out)
    return rec.get("State"), rec.get("Reason")


def envelope_error(a):
    """The answer is UTF-8 JSON with errors[]: the first description."""
    assert a["utf8"] and a["json"] is not None, a["body"][:300]
    assert a["json"].get("errors"), a["body"][:300]
    return a["json"]["errors"][0]["description"]


# ---- bodies -----------------------------------------------------------------

def test_bad_bodies_change_nothing(cluster, operator):
    c = cluster
    path = "/slurm/v0.0.43/node/%s" % NODE
    before = node_state(c)
    assert before[0].startswith("IDLE"), before

    def post(body=None, b64=None):
        q = {"method": "POST", "path": path,
             "headers": {"Content-Type": "application/json"}}
        if b64 is not None:
            q["body_b64"] = base64.b64encode(b64).decode()
        elif body is not None:
            q["body"] = body
        return q

    bad = [
        (post(""), 400, "no body"),
        (post(b64=b"[" * (1024 * 1024)), 400, "at byte"),
        (post(b64=b'{"state":["DRAIN"],"reason":"caf\xc3"}'), 400, "at byte"),
        (post(b64=b'{"state":["DRAIN"],"reason":"\xff\xfe"}'), 400, "at byte"),
        (post('{"state":["DRAIN"],"reason":"cut'), 400, "at byte"),
        (post('{"state":["DRAIN"],"reason":"x"} {}'), 400, "at byte"),
        (post(b64=b'{"state":["DRAIN"],"reason":"x"}\x00'), 400, "at byte"),
        (post(b64=b'{"state":["DRAIN"],"reason":"x\x00y"}'), 400, ""),
        (post('{"state":["DRAIN"],"reason":"x",}'), 400, "at byte"),
        (post('{"state":["DRAIN"],"reason":"x","bogus":1}'), 400, "bogus"),
        (post('{"state":"DRAIN","reason":"x"}'), 400, "state"),
        (post('{"state":["DRAIN"]}'), 400, "reason"),
        (post('["DRAIN"]'), 400, ""),
        (post('{"state":["NO_SUCH_STATE"],"reason":"x"}'), 400, "state"),
        (post(json.dumps({"state": ["DRAIN" + FORGED], "reason": "x"})), 400,
         "state"),
    ]
    off = operator.log_size()
    answers = operator.call([q for q, _, _ in bad])
    for (q, want, text), a in zip(bad, answers):
        assert a["status"] == want, (q.get("body", "<bytes>")[:60], a)
        desc = envelope_error(a)
        assert text in desc, (q.get("body", "<bytes>")[:60], desc)
    assert node_state(c) == before
    # what the body said is in the log on one line
    log = operator.log_since(off)
    assert "forged" in log and FORGED not in log, log[-2000:]
    # the parse position is where parsing stopped
    a = operator.call([post('{"state":["DRAIN"],"reason":"x"  nope}')])[0]
    assert "at byte 33 " in envelope_error(a), a["body"]
    # the same daemon, with a good body, does change the node
    ok = operator.call([post('{"state":["DRAIN"],"reason":"rest test"}')])[0]
    assert ok["status"] == 200, ok["body"]
    assert node_state(c)[0].startswith("IDLE+DRAIN"), node_state(c)
    ok = operator.call([post('{"state":["RESUME"]}')])[0]
    assert ok["status"] == 200, ok["body"]
    cl.wait_for(lambda: node_state(c) == before, timeout=10,
                what="node resumed")


def test_body_over_max_refused_unread(cluster, restd, operator):
    before = node_state(cluster)
    # a declared 4 GiB body: 413 at once, over TCP without any credential
    # and on the unix sockets, as the user and as the operator
    for addr in (restd.tcp, restd.unix, operator.unix):
        st, head, body, secs = raw(
            addr, ("POST /slurm/v0.0.43/node/%s HTTP/1.1\r\nHost: x\r\n"
                   "Content-Length: 4294967296\r\n\r\n" % NODE).encode())
        assert st == 413 and secs < 2, (addr, st, head, secs)
    # a body just over --max-body-size: refused on its Content-Length,
    # before it is sent
    big = b'{"state":["DRAIN"],"reason":"' + b"x" * MAX_BODY + b'"}'
    data = post_node(big)
    r = Raw(operator.unix)
    r.send(data[:-len(big)])
    st, head, _ = r.answer(timeout=5)
    r.close()
    assert st == 413, head
    # the same, chunked (no Content-Length to refuse it by): refused once
    # the chunks pass the limit
    r = Raw(operator.unix)
    r.send(("POST /slurm/v0.0.43/node/%s HTTP/1.1\r\nHost: x\r\n"
            "Transfer-Encoding: chunked\r\n\r\n" % NODE).encode())
    sender = threading.Thread(target=lambda: [
        r.send(b"%x\r\n%s\r\n" % (len(big[i:i + 65536]), big[i:i + 65536]))
        for i in range(0, len(big), 65536)], daemon=True)
    sender.start()
    st, head, _ = r.answer(timeout=10)
    sender.join(10)
    r.close()
    assert st == 413, head
    # Content-Length that is not a length
    for cl_ in ("-1", "18446744073709551616", "12x", "", "1, 2"):
        st, head, _, _ = raw(restd.tcp, (
            "POST /slurm/v0.0.43/ping/ HTTP/1.1\r\nHost: x\r\n"
            "Content-Length: %s\r\n\r\n" % cl_).encode(), timeout=3)
        assert st in (400, 413, None), (cl_, head)
    assert node_state(cluster) == before
    assert restd.get("/slurm/v0.0.43/ping/")["status"] == 200


# ---- slow and idle clients ---------------------------------------------------

def quick_pings(restd, n=5):
    """n GET ping on one keep-alive connection: the slowest, in ms."""
    a = restd.call([{"method": "GET", "path": "/slurm/v0.0.43/ping/"}] * n)
    assert all(x["status"] == 200 for x in a), a
    return max(x["ms"] for x in a)


def test_slowloris(restd):
    stop = threading.Event()
    socks = []

    def trickle(s):
        req = b"GET /slurm/v0.0.43/ping/ HTTP/1.1\r\nHost: x\r\nX-A: " + \
            b"a" * 1000
        try:
            for b in req:
                if stop.is_set():
                    return
                s.sendall(bytes([b]))
                stop.wait(1.0)
        except OSError:
            pass

    threads = []
    for addr in [restd.tcp] * 20 + [restd.unix] * 5:
        s = connect(addr)
        socks.append(s)
        t = threading.Thread(target=trickle, args=(s,), daemon=True)
        t.start()
        threads.append(t)
    try:
        time.sleep(2)
        for _ in range(3):
            assert quick_pings(restd) < 1000
            time.sleep(1)
    finally:
        stop.set()
        for t in threads:
            t.join(5)
        for s in socks:
            s.close()


def test_idle_keepalive_connections(restd):
    n = 1000
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < n + 200:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, n + 500), hard))
    socks = []
    try:
        req = b"GET /slurm/v0.0.43/ping/ HTTP/1.1\r\nHost: x\r\n\r\n"
        for i in range(n):
            s = Raw(restd.tcp if i % 2 else restd.unix)
            s.send(req)
            socks.append(s)
        # each got its answer (401: no token on TCP, and root is not
        # slurmrestd's user on its unix socket) and stays open
        for s in socks[:50] + socks[-50:]:
            st, head, _ = s.answer()
            assert st == 401, head
        for _ in range(3):
            assert quick_pings(restd) < 1000
        # the idle ones still work
        for s in socks[-10:]:
            s.send(req)
            st, head, _ = s.answer()
            assert st == 401, head
    finally:
        for s in socks:
            s.close()


def test_clients_that_hang_up(restd, operator):
    """Requests whose client is gone before the answer (some mid-body),
    or while a large (chunked) answer is being written."""
    for i in range(100):
        s = connect(restd.tcp if i % 3 == 0 else restd.unix)
        if i % 2:
            s.sendall(b"GET /slurm/v0.0.43/jobs/ HTTP/1.1\r\nHost: x\r\n\r\n")
        else:
            s.sendall(post_node(b'{"state":["DRAIN"],"reason":"x"}')[:-10])
        s.close()
    big = b"GET /openapi/v3 HTTP/1.1\r\nHost: x\r\n\r\n"
    for i in range(30):
        s = connect(operator.unix if i % 2 else restd.tcp)
        s.sendall(big * 3)
        if i % 3 == 0:
            s.recv(1000)
        s.close()
    assert quick_pings(restd) < 1000
    assert operator.get("/slurm/v0.0.43/ping/")["status"] == 200


# ---- authentication ----------------------------------------------------------

def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jwt(payload):
    return ".".join([b64(b'{"alg":"HS256","typ":"JWT"}'),
                     b64(payload if isinstance(payload, bytes)
                         else json.dumps(payload).encode()), b64(b"sig")])


def test_malformed_tokens_are_refused(restd, users):
    u = users[0].pw_name
    exp = int(time.time()) + 600
    good_claims = {"exp": exp, "iat": exp - 600, "sun": u}
    cases = [
        ({"X-SLURM-USER-TOKEN": "abc"}, "malformed token"),
        ({"X-SLURM-USER-TOKEN": "a.b.c.d"}, "malformed token"),
        ({"X-SLURM-USER-TOKEN": "a..c"}, "malformed token"),
        ({"X-SLURM-USER-TOKEN": ""}, "malformed token"),
        ({"X-SLURM-USER-TOKEN": "eyJh.!!!$.c2ln"}, "malformed token"),
        ({"X-SLURM-USER-TOKEN": "eyJh.Q.c2ln"}, "malformed token"),
        ({"X-SLURM-USER-TOKEN": jwt({"exp": exp})}, "malformed token"),
        ({"X-SLURM-USER-TOKEN": jwt({"sun": 7})}, "malformed token"),
        ({"X-SLURM-USER-TOKEN": jwt({"sun": ""})}, "malformed token"),
        ({"X-SLURM-USER-TOKEN": jwt(b"not json")}, "malformed token"),
        ({"X-SLURM-USER-TOKEN": jwt(b'{"sun":"' + b"\xff" * 8 + b'"}')},
         "malformed token"),
        ({"X-SLURM-USER-TOKEN": "x" * 20000}, "malformed token"),
        ({"X-SLURM-USER-TOKEN": jwt(good_claims),
          "Authorization": "Bearer " + jwt(good_claims)}, "both"),
        ({"Authorization": "Basic dXNlcjpwdw=="}, "not a Bearer"),
        ({"Authorization": "Bearer"}, ""),
        ({"X-SLURM-USER-TOKEN": jwt(good_claims),
          "X-SLURM-USER-NAME": "root"}, "is not the token's user"),
        ({"X-SLURM-USER-TOKEN": jwt(good_claims),
          "X-SLURM-USER-NAME": "\xff\xfe"}, "is not the token's user"),
        ({"X-SLURM-USER-TOKEN": jwt(dict(good_claims, sun="nosuchuser9"))},
         "unknown"),
        ({"X-SLURM-USER-TOKEN": jwt(dict(good_claims, sun="x" + FORGED))},
         "malformed token"),
        ({}, "no token"),
    ]
    off = restd.log_size()
    reqs = [{"method": "GET", "path": "/slurm/v0.0.43/jobs/", "headers": h}
            for h, _ in cases]
    answers = restd.call(reqs, address=restd.tcp)
    for (h, why), a in zip(cases, answers):
        shown = {k: v[:40] for k, v in h.items()}
        assert a["status"] == 401, (shown, a)
        desc = envelope_error(a)
        assert why in desc, (shown, desc)
    log = restd.log_since(off)
    assert log.count("Authentication failure") >= len(cases), log[-3000:]
    assert FORGED not in log
    for h, why in cases:
        assert why in log, why
    # the unix socket: another user is not slurmrestd's user
    os.chmod(restd.unix[5:], 0o777)
    a = restd.call([{"method": "GET", "path": "/slurm/v0.0.43/ping/"}],
                   user=users[1].pw_name)[0]
    assert a["status"] == 401, a
    assert "is not slurmrestd's uid" in envelope_error(a)


# ---- paths, methods, queries --------------------------------------------------

def test_paths_methods_and_queries(restd):
    s = "/slurm/v0.0.43/"
    cases = [
        ("GET", "/nosuch", 404),
        ("GET", "/", 404),
        ("GET", s + "nosuch/", 404),
        ("GET", s + "job/1/2/3", 404),
        ("GET", "/slurm/v0.0.99/ping/", 404),
        ("GET", "/slurm/v0.0.43x/ping/", 404),
        ("GET", "/slurm/v0.0.-1/ping/", 404),
        ("GET", "/slurm/v0.0.4294967339/ping/", 404),
        ("GET", "/slurm/v0.0.043/ping/", 404),
        ("GET", "/slurm/v0.0.+43/ping/", 404),
        ("GET", "/slurm/v0.0.%2043/ping/", 404),
        ("GET", "/slurmdb/v0.0.43/nosuch/", 404),
        ("DELETE", s + "ping/", 405),
        ("POST", s + "jobs/", 405),
        ("PUT", s + "jobs/", 405),
        ("PATCH", s + "job/1", 405),
        ("GET", s + "ping/%00", 400),
        ("GET", s + "job/1%0a[2026-01-01T00:00:00.000]%20forged", 400),
        ("GET", s + "jobs/state/?job_id=1%0a[2026-01-01T00:00:00.000]%20forged",
         400),
        ("GET", s + "jobs/?DETAIL", 200),
        ("GET", s + "jobs/?flags=DETAIL&&", 200),
        ("GET", s + "node/%1b[31mred", 400),
        ("GET", s + "node/n1%7f", 400),
        ("GET", s + "node/n1%0d", 400),
        ("GET", s + "job/%ff%fe", 404),
        ("GET", s + "node/%c3%28", 404),
        ("GET", s + "ping/?a=%zz&b=%", 200),
        ("GET", s + "ping/?" + "&".join("k%d=v" % i for i in range(200)),
         400),
        ("GET", s + "jobs/state/?job_id=%ff", 404),
        ("GET", s + "jobs/state/?job_id=" + ",".join(["1"] * 5000), 200),
        ("GET", s + "node/" + "n" * 30000, 404),
        ("GET", s + "ping/", 200),
    ]
    off = restd.log_size()
    answers = restd.call([{"method": m, "path": p} for m, p, _ in cases])
    for (m, p, want), a in zip(cases, answers):
        assert a["status"] == want, (m, p[:80], a.get("body", "")[:300])
        if want != 200:
            envelope_error(a)
    # a path cannot write a line of its own into the log
    log = restd.log_since(off)
    assert FORGED not in log, log[-2000:]
    assert "\x1b" not in log and "\x7f" not in log


def test_pipelined_requests_answer_in_order(operator):
    """Three requests in one write on a keep-alive connection (as root on
    the operator's socket: its own uid, so rest_auth/local accepts)."""
    req = (b"GET /slurm/v0.0.43/ping/ HTTP/1.1\r\nHost: x\r\n\r\n"
           b"GET /slurm/v0.0.43/nosuch HTTP/1.1\r\nHost: x\r\n\r\n"
           b"DELETE /slurm/v0.0.43/ping/ HTTP/1.1\r\nHost: x\r\n\r\n")
    s = Raw(operator.unix)
    try:
        s.send(req)
        got = [s.answer()[0] for _ in range(3)]
    finally:
        s.close()
    assert got == [200, 404, 405], got


# ---- who it runs as ----------------------------------------------------------

def test_refuses_root_and_slurmuser(cluster, users):
    c = cluster
    port = cl.free_ports(1)[0]
    r = c.run([c.bin("slurmrestd"), "127.0.0.1:%d" % port], timeout=20)
    assert r.rc != 0
    assert "slurmrestd should not be run as the root user." in r.err, r
    # SlurmUser (a copy of slurm.conf naming the test user)
    conf = os.path.join(c.dir, "etc", "slurm-restd-su.conf")
    with open(c.conf) as f:
        text = f.read()
    lines = [ln for ln in text.splitlines()
             if not ln.startswith("SlurmUser=")]
    lines.append("SlurmUser=%s" % users[1].pw_name)
    with open(conf, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.chmod(conf, 0o644)
    r = c.run([c.bin("slurmrestd"), "-f", conf, "127.0.0.1:%d" % port],
              user=users[1].pw_name, timeout=20)
    assert r.rc != 0
    assert "slurmrestd should not be run as SlurmUser" in r.err, r


def test_http_layer_refusals(restd, operator):
    """What the HTTP layer refuses before a request exists: a request line
    that does not parse, headers over 64 KiB, a bad header line."""
    cases = [
        (b"GARBAGE\r\n\r\n", 400),
        (b"GET /slurm/v0.0.43/ping/ HTTP/9.9\r\n\r\n", 400),
        (b"GET /slurm/v0.0.43/ping/ HTTP/1.1\r\nHost: x\r\nX: " +
         b"a" * 70000 + b"\r\n\r\n", 400),
        (b"GET /slurm/v0.0.43/ping/ HTTP/1.1\r\nno colon here\r\n\r\n", 400),
        (b"\x00\xff\xfe\r\n\r\n", 400),
    ]
    for data, want in cases:
        st, head, body, _ = raw(restd.tcp, data, timeout=5)
        assert st == want, (data[:40], st, head)
    # methods and request targets the API has no use for: 401 without a
    # credential (TCP), and as the operator (its own uid on its socket)
    # 404 or 405; an absolute-form target is the path it names
    for data, want in (
            (b"CONNECT x:443 HTTP/1.1\r\nHost: x\r\n\r\n", 404),
            (b"OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", 404),
            (b"TRACE /slurm/v0.0.43/ping/ HTTP/1.1\r\nHost: x\r\n\r\n", 405),
            (b"HEAD /slurm/v0.0.43/ping/ HTTP/1.1\r\nHost: x\r\n\r\n", 405),
            (b"GET http://x:1/slurm/v0.0.43/ping/ HTTP/1.1\r\n\r\n", 200),
            (b"GET //// HTTP/1.0\r\n\r\n", 404)):
        st, head, _, _ = raw(restd.tcp, data, timeout=5)
        assert st == 401, (data[:40], st, head)
        st, head, _, _ = raw(operator.unix, data, timeout=5)
        assert st == want, (data[:40], st, head)
    assert quick_pings(restd) < 1000
