"""The web view (issue 25) in a real browser: Debian's chromium, headless,
driven by python3-selenium through chromium-driver, against a cluster with
AuthAltTypes=auth/jwt, PrivateData=jobs and slurmrestd serving build/web
under /ui/ (slurmrestd --ui-dir).

- /ui/ serves the files with their security headers, before any
  authentication; "..", hidden names and symlinks out are 404.
- A logs in with a token from `scontrol token`, sees A's running and
  pending jobs with their states and reasons, opens one (the reason in
  words, the planned start), submits a job from the form and watches it
  reach COMPLETED, cancels a pending one.
- B (PrivateData=jobs) does not see A's jobs, A's job detail is refused,
  and a cancel of A's job sent with B's token is refused.
- A's job page shows the tail of its output (as text, read again while
  it runs, stderr on a click, "not available" and why otherwise); B's
  request for it is refused.
- root's token (an operator) drains a node from its page: sinfo shows it.
- A job named with HTML/JS is shown as text: no element, no script.
- An expired token returns to the login page; the form being filled is
  still there after logging in again.
- Cross-origin: a page from another origin cannot call the API with the
  token (no CORS), and a request without the token is refused.

SLUICE_WEB_SCREENSHOTS=1 also runs test_screenshots: a 64-node cluster
with a few hundred jobs, whose views are saved into doc/img/.
"""

import http.client
import http.server
import json
import os
import re
import shutil
import threading
import time

import pytest

import cluster as cl
from conftest import _ACTIVE, _stop
from rest_client import Rest

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402
from jwt_util import make_token, token_of  # noqa: E402

A, B = "sluice_u1", "sluice_u2"
RESTD_USER = "nobody"
REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
XSS = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'


def web_dir():
    build = os.environ.get("SLUICE_BUILD_DIR", os.path.join(REPO, "build"))
    d = os.path.join(build, "web")
    if not os.path.exists(os.path.join(d, "index.html")):
        pytest.skip("the web view is not built (%s): needs npm" % d)
    return d


def start_web_cluster(tag, nodes=2, extra_conf="", node_extra="", cpus=2,
                      partitions=()):
    """A cluster with JWT and slurmrestd serving a copy of build/web (a
    copy so slurmrestd's user can read it whatever the tree's modes);
    partitions: more PartitionName lines after the default one.
    Returns (cluster, "127.0.0.1:PORT", jwt secret, ui dir)."""
    src = web_dir()
    c = cl.Cluster(tag=tag, nodes=nodes, auth="munge", node_extra=node_extra,
                   cpus=cpus, extra_conf="AuthAltTypes=auth/jwt\n"
                   "SlurmdParameters=config_overrides\n"
                   "PrivateData=jobs\n" + extra_conf)
    if partitions:
        conf_text = c.conf_text
        c.conf_text = lambda *a, **k: conf_text(*a, **k) + "".join(
            p + "\n" for p in partitions)
    _ACTIVE.append(c)
    key = os.path.join(c.dir, "state", "jwt_hs256.key")
    with open(key, "wb") as f:
        f.write(os.urandom(32))
    os.chmod(key, 0o600)
    with open(key, "rb") as f:
        secret = f.read()
    ui = os.path.join(c.dir, "ui")
    shutil.copytree(src, ui)
    for root, dirs, files in os.walk(ui):
        os.chmod(root, 0o755)
        for f in files:
            os.chmod(os.path.join(root, f), 0o644)
    os.chmod(c.dir, 0o755)
    try:
        c.start()
        port = cl.free_ports(1)[0]
        c.start_restd(RESTD_USER, ["127.0.0.1:%d" % port],
                      args=["-a", "rest_auth/jwt", "--ui-dir", ui])
    except BaseException:
        _stop(c, keep=True)
        raise
    return c, "127.0.0.1:%d" % port, secret, ui


@pytest.fixture(scope="module")
def web(users):
    c, tcp, secret, ui = start_web_cluster("web")
    yield c, tcp, secret, ui
    _stop(c)


@pytest.fixture(scope="module")
def browser():
    opts = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu",
              "--disable-dev-shm-usage", "--window-size=1400,1000",
              "--no-first-run", "--disable-extensions"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    opts.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    drv = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    if not os.path.exists(drv):
        pytest.skip("chromium-driver is not installed")
    b = webdriver.Chrome(service=Service(executable_path=drv), options=opts)
    b.set_page_load_timeout(30)
    yield b
    b.quit()


def wait(b, pred, timeout=20, what="the page"):
    try:
        return WebDriverWait(b, timeout, poll_frequency=0.2).until(
            lambda d: pred(d))
    except TimeoutException:
        raise AssertionError("timed out waiting for %s; at %s:\n%s" % (
            what, b.current_url, b.find_element(By.TAG_NAME, "body").text[:3000]))


# The page redraws as it polls: read and click through one script each,
# never through element handles that a redraw may have replaced.
def text_of(b, css):
    return b.execute_script(
        "const e = document.querySelector(arguments[0]);"
        "return e ? e.innerText : '';", css)


def exists(b, css):
    return b.execute_script("return !!document.querySelector(arguments[0])", css)


def click(b, css):
    assert b.execute_script(
        "const e = document.querySelector(arguments[0]);"
        "if (!e) return false; e.click(); return true;", css), css


def base(tcp):
    return "http://%s/ui/" % tcp


def login(b, tcp, tok, route="overview"):
    b.get(base(tcp) + "#/login?next=/" + route)
    wait(b, lambda d: d.find_elements(By.ID, "token"), what="login form")
    box = b.find_element(By.ID, "token")
    box.clear()
    box.send_keys("SLURM_JWT=" + tok)
    b.find_element(By.ID, "login").click()
    wait(b, lambda d: "#/login" not in d.current_url, what="logged in")


def severe(b):
    """The browser's errors, but for the 401 of the page's session probe
    (GET ping without a token: asked once when a tab holds no token,
    answered 401 unless a proxy logs users in)."""
    return [e for e in b.get_log("browser") if e["level"] == "SEVERE" and
            not re.search(r"/slurm/v0\.0\.43/ping - .*status of 401",
                          e["message"])]


def goto(b, tcp, route):
    b.get(base(tcp) + "#/" + route)


def job_row(b, jobid):
    return b.execute_script(
        "const e = document.querySelector(arguments[0]);"
        "return e ? e.innerText : null;", '.vl-row[data-job="%d"]' % jobid)


def http_req(tcp, method, path, headers=None, body=None):
    host, port = tcp.rsplit(":", 1)
    h = http.client.HTTPConnection(host, int(port), timeout=30)
    h.putrequest(method, path, skip_accept_encoding=True)
    for k, v in (headers or {}).items():
        h.putheader(k, v)
    if body is not None:
        h.putheader("Content-Length", str(len(body)))
    h.endheaders(body.encode() if body is not None else None)
    r = h.getresponse()
    data = r.read()
    h.close()
    return r.status, {k.lower(): v for k, v in r.getheaders()}, data


# ---- static files ----------------------------------------------------------

def test_static_files(web):
    c, tcp, _, ui = web
    with open(os.path.join(ui, "index.html"), "rb") as f:
        index = f.read()
    for path in ("/ui", "/ui/", "/ui/index.html"):
        status, hdr, data = http_req(tcp, "GET", path)
        assert status == 200, (path, status, data[:200])
        assert data == index
        assert hdr["content-type"] == "text/html; charset=utf-8"
        assert "default-src 'self'" in hdr["content-security-policy"]
        assert hdr["x-content-type-options"] == "nosniff"
        assert hdr["x-frame-options"] == "DENY"
    js = re.search(rb'src="(/ui/assets/[^"]+\.js)"', index).group(1).decode()
    status, hdr, data = http_req(tcp, "GET", js)
    assert status == 200 and hdr["content-type"].startswith("text/javascript")
    css = re.search(rb'href="(/ui/assets/[^"]+\.css)"', index).group(1).decode()
    assert http_req(tcp, "GET", css)[1]["content-type"].startswith("text/css")
    # out of the directory, hidden, missing: 404 with the same headers
    with open(os.path.join(c.dir, "secret.txt"), "w") as f:
        f.write("secret\n")
    os.symlink(os.path.join(c.dir, "secret.txt"), os.path.join(ui, "out.txt"))
    with open(os.path.join(ui, ".hidden"), "w") as f:
        f.write("hidden\n")
    os.chmod(os.path.join(ui, ".hidden"), 0o644)
    for path in ("/ui/../secret.txt", "/ui/%2e%2e/secret.txt",
                 "/ui/assets/..%2f..%2fsecret.txt", "/ui/out.txt",
                 "/ui/.hidden", "/ui/missing.js", "/ui//etc/passwd",
                 "/ui/assets", "/ui/%2e%2e/%2e%2e/%2e%2e/etc/passwd"):
        status, hdr, data = http_req(tcp, "GET", path)
        assert status == 404, (path, status, data[:200])
        assert b"secret" not in data and b"root:" not in data
        assert hdr["x-content-type-options"] == "nosniff"
    status, _, _ = http_req(tcp, "GET", "/ui/a%00b")
    assert status == 400
    status, hdr, _ = http_req(tcp, "POST", "/ui/", body="x=1")
    assert status == 405 and hdr["allow"] == "GET, HEAD"
    # HEAD: the headers without the body, so a keep-alive connection stays
    # in step (the API's answers too)
    host, port = tcp.rsplit(":", 1)
    h = http.client.HTTPConnection(host, int(port), timeout=30)
    for path in ("/ui/", "/ui/missing", "/slurm/v0.0.43/jobs", "/ui/"):
        h.request("HEAD", path)
        r = h.getresponse()
        assert r.read() == b""
        if path == "/ui/":
            assert r.status == 200
            assert int(r.getheader("Content-Length")) == len(index)
        h.request("GET", "/ui/index.html")
        r = h.getresponse()
        assert (r.status, r.read()) == (200, index), path
    h.close()
    # the API itself still needs a token
    status, _, _ = http_req(tcp, "GET", "/slurm/v0.0.43/jobs")
    assert status == 401


def test_cross_origin_refused(web, browser):
    """No CORS: a page from another origin can neither send the token
    header (the preflight gets no Access-Control-Allow-* answer) nor write
    without it (a simple cross-origin POST carries no credential: 401)."""
    c, tcp, _, _ = web
    b = browser
    # a plain request from another origin, without the token
    body = json.dumps({"script": "#!/bin/sh\ntrue\n",
                       "job": {"name": "csrf", "current_working_directory": "/tmp"}})
    status, hdr, _ = http_req(tcp, "POST", "/slurm/v0.0.43/job/submit",
                              headers={"Origin": "http://evil.example",
                                       "Content-Type": "text/plain"},
                              body=body)
    assert status == 401
    assert "access-control-allow-origin" not in hdr
    status, hdr, _ = http_req(tcp, "OPTIONS", "/slurm/v0.0.43/job/submit",
                              headers={"Origin": "http://evil.example",
                                       "Access-Control-Request-Method": "POST",
                                       "Access-Control-Request-Headers":
                                       "x-slurm-user-token,content-type"})
    assert status >= 400
    assert not any(k.startswith("access-control-") for k in hdr)

    # the same from a real page on another origin (localhost vs 127.0.0.1)
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_GET(self):
            data = b"<!doctype html><title>other</title>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        b.get("http://localhost:%d/" % srv.server_address[1])
        tok = token_of(c, A)
        res = b.execute_async_script("""
            const [url, tok, body, done] = arguments;
            const out = {};
            fetch(url, {method: "POST", body,
                        headers: {"X-SLURM-USER-TOKEN": tok,
                                  "Content-Type": "application/json"}})
              .then((r) => { out.with_token = "status " + r.status; })
              .catch((e) => { out.with_token = "blocked"; })
              .then(() => fetch(url, {method: "POST", body, mode: "no-cors",
                                      credentials: "include"}))
              .then((r) => { out.no_cors = r.type; })
              .catch((e) => { out.no_cors = "blocked"; })
              .then(() => done(out));
        """, "http://%s/slurm/v0.0.43/job/submit" % tcp, tok, body)
    finally:
        srv.shutdown()
    assert res["with_token"] == "blocked", res
    assert res["no_cors"] in ("opaque", "blocked"), res
    r = c.run(["squeue", "-h", "-t", "all", "-n", "csrf", "-o", "%i"])
    assert r.rc == 0 and r.out.strip() == "", r


# ---- a user's view ---------------------------------------------------------

def test_user_sees_own_jobs(web, browser):
    c, tcp, _, _ = web
    b = browser
    run = c.sbatch(["-J", "a_running", "-N", "2", "--exclusive", "--wrap", "sleep 300"], user=A)
    c.wait_state(run, {"RUNNING"})
    pend = c.sbatch(["-J", "a_pending", "-t", "10", "--wrap", "sleep 10"], user=A)
    held = c.sbatch(["-J", "a_held", "-H", "--wrap", "true"], user=A)
    cl.wait_for(lambda: c.show_job(pend).get("Reason") in ("Resources", "Priority"),
                timeout=20, what="a_pending waits")
    login(b, tcp, token_of(c, A), "jobs?me=1")
    wait(b, lambda d: job_row(d, pend) and job_row(d, run), what="A's jobs")
    assert re.search(r"a_running\s+%s\s+(\S+\s+)?RUNNING" % A, job_row(b, run)), job_row(b, run)
    row = job_row(b, pend)
    assert "PENDING" in row and re.search(r"\((Resources|Priority)\)", row), row
    assert "(JobHeldUser)" in job_row(b, held), job_row(b, held)
    # filters are in the URL
    goto(b, tcp, "jobs?state=PD")
    wait(b, lambda d: job_row(d, pend) and not job_row(d, run), what="state filter")
    # sorting by name, ascending: a_held, a_pending, a_running
    goto(b, tcp, "jobs?sort=name&me=1")
    wait(b, lambda d: job_row(d, held), what="sorted list")
    names = b.execute_script(
        "return [...document.querySelectorAll('.vl-row')]"
        ".sort((x, y) => x.dataset.index - y.dataset.index)"
        ".map((r) => r.querySelector('.c-name').innerText)")
    assert names == sorted(names) and len(names) >= 3, names
    # the keyboard: Home, Down (a_pending), Enter opens its detail
    assert names[:3] == ["a_held", "a_pending", "a_running"], names
    b.find_element(By.CSS_SELECTOR, ".vl").send_keys(Keys.HOME, Keys.ARROW_DOWN,
                                                     Keys.ENTER)
    # detail: the reason in words, the planned start, every field
    wait(b, lambda d: "#/job/%d" % pend in d.current_url and
         text_of(d, "#job-state") == "PENDING", what="job detail")
    assert text_of(b, "#reason-text"), b.page_source[:2000]
    assert text_of(b, "#planned-start").startswith(("Planned start:", "No start time"))
    fields = text_of(b, "#job-fields")
    for k in ("JobId", "JobName", "UserId", "TimeLimit", "SubmitTime",
              "Partition", "WorkDir", "StdOut"):
        assert k in fields
    assert "a_pending" in fields and "00:10:00" in fields
    # the raw value behind a time on hover
    title = b.execute_script(
        "return document.querySelector('#job-fields dd[data-field=\"SubmitTime\"] time').title")
    assert re.match(r"\d{10} \(\d{4}-", title), title
    # cancel it (the button asks twice)
    click(b, "#cancel")
    click(b, "#cancel")
    wait(b, lambda d: text_of(d, "#job-state") == "CANCELLED", what="cancelled")
    assert c.job_state(pend) == "CANCELLED"
    # release the held one
    goto(b, tcp, "job/%d" % held)
    wait(b, lambda d: exists(d, "#release"), what="release button")
    click(b, "#release")
    c.wait_state(held, {"COMPLETED", "RUNNING", "PENDING"})
    cl.wait_for(lambda: "JobHeld" not in c.show_job(held).get("Reason", ""),
                timeout=15, what="released")
    c.run(["scancel", str(run)])


class TrustedProxy:
    """What a site puts in front of slurmrestd when its own login (SSO)
    decides who the user is: every request is forwarded with SlurmUser's
    (here root's) token and X-SLURM-USER-NAME naming the user, and the
    browser never holds a token (the admin guide's "Behind a proxy")."""

    def __init__(self, upstream, token, user):
        host, port = upstream.rsplit(":", 1)
        up = (host, int(port))

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def forward(self):
                n = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(n) if n else None
                h = http.client.HTTPConnection(*up, timeout=60)
                hdr = {k: v for k, v in self.headers.items()
                       if k.lower() not in ("host", "x-slurm-user-token",
                                            "x-slurm-user-name",
                                            "authorization", "connection")}
                hdr["X-SLURM-USER-TOKEN"] = token
                hdr["X-SLURM-USER-NAME"] = user
                h.request(self.command, self.path, body=body, headers=hdr)
                r = h.getresponse()
                data = r.read()
                self.send_response(r.status)
                for k, v in r.getheaders():
                    if k.lower() not in ("transfer-encoding", "connection",
                                         "content-length"):
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                h.close()

            do_GET = do_POST = do_DELETE = forward

        self.srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.addr = "127.0.0.1:%d" % self.srv.server_address[1]
        threading.Thread(target=self.srv.serve_forever, daemon=True).start()

    def close(self):
        self.srv.shutdown()
        self.srv.server_close()


def test_proxy_session_needs_no_login(web, browser):
    """Behind a proxy that authenticates the user, the page asks
    slurmrestd who it is (GET ping without a token) and shows that user's
    view without the login page; reached directly, it asks for a token."""
    c, tcp, secret, _ = web
    b = browser
    now = int(time.time())
    tok = make_token(secret, {"iat": now, "exp": now + 600, "sun": "root"})
    mine = c.sbatch(["-J", "via_proxy", "-H", "--wrap", "true"], user=A)
    proxy = TrustedProxy(tcp, tok, A)
    try:
        # (the proxy is another origin: this tab holds no token for it)
        b.get(base(proxy.addr) + "#/jobs?me=1")
        wait(b, lambda d: job_row(d, mine), what="A's job through the proxy")
        assert "#/login" not in b.current_url
        assert text_of(b, "#who") == A
        assert b.execute_script(
            "return document.getElementById('logout').hidden") is True
        # actions go through as A: release the held job
        goto(b, proxy.addr, "job/%d" % mine)
        wait(b, lambda d: exists(d, "#release"), what="release button")
        click(b, "#release")
        cl.wait_for(lambda: "JobHeld" not in c.show_job(mine).get("Reason", ""),
                    timeout=15, what="released through the proxy")
    finally:
        proxy.close()
    # the same page straight from slurmrestd: no session without a token
    b.get(base(tcp) + "#/jobs")
    b.execute_script("sessionStorage.clear()")
    b.get(base(tcp) + "#/jobs")
    wait(b, lambda d: "#/login" in d.current_url, what="the login page")


def test_submit_from_form(web, browser):
    c, tcp, _, _ = web
    b = browser
    login(b, tcp, token_of(c, A), "submit")
    wait(b, lambda d: d.find_elements(By.ID, "f-name"), what="submit form")
    b.find_element(By.ID, "f-name").send_keys("from_web")
    b.find_element(By.ID, "f-time").send_keys("5")
    # not /tmp/slurm-N.out: another test's job N may own that file
    b.find_element(By.ID, "f-output").send_keys("/dev/null")
    script = b.find_element(By.ID, "f-script")
    script.clear()
    script.send_keys("#!/bin/sh\necho hello from the web\n")
    b.find_element(By.ID, "submit").click()
    m = wait(b, lambda d: re.search(r"#/job/(\d+)", d.current_url), what="submitted")
    jobid = int(m.group(1))
    wait(b, lambda d: text_of(d, "#job-state") == "COMPLETED", timeout=40,
         what="COMPLETED in the page")
    rec = c.show_job(jobid)
    assert rec["JobName"] == "from_web" and rec["UserId"].startswith(A), rec
    assert rec["TimeLimit"] == "00:05:00", rec


def test_other_user_cannot(web, browser):
    c, tcp, _, _ = web
    b = browser
    jid = c.sbatch(["-J", "a_private", "-H", "--wrap", "true"], user=A)
    login(b, tcp, token_of(c, B), "jobs")
    wait(b, lambda d: "jobs" in text_of(d, "#job-count") and
         "Loading" not in text_of(d, "#job-count"), what="B's list")
    time.sleep(1)
    assert job_row(b, jid) is None
    assert "a_private" not in b.find_element(By.TAG_NAME, "body").text
    goto(b, tcp, "job/%d" % jid)
    wait(b, lambda d: text_of(d, "#job-error"), what="refused detail")
    assert not exists(b, "#cancel")
    # the page's own API call, with B's token: the controller refuses it
    res = b.execute_async_script("""
        const [id, done] = arguments;
        fetch("/slurm/v0.0.43/job/" + id, {method: "DELETE",
              headers: {"X-SLURM-USER-TOKEN": sessionStorage.getItem("sluice.token")}})
          .then((r) => done(r.status));
    """, jid)
    assert res != 200
    assert c.job_state(jid) == "PENDING"
    c.run(["scancel", str(jid)])


def test_output_tail(web, browser):
    """The job page shows the tail of the job's output to its owner, as
    text (markup in it makes no element), read again while the job runs;
    stderr on a click; "not available" with the reason for a pending job
    and for /dev/null.  B (PrivateData=jobs) gets neither the page nor the
    output through the API."""
    c, tcp, _, _ = web
    b = browser
    mark = "tail-marker-51c2"
    wd = c.workdir(A)
    flag = os.path.join(wd, "tail-go")
    script = ("#!/bin/sh\n"
              "echo '%s %s'\n"
              "echo 'err-%s' >&2\n"
              "while [ ! -e %s ]; do sleep 0.2; done\n"
              "echo 'second-line-%s'\n"
              "sleep 300\n" % (mark, XSS, mark, flag, mark))
    jid = c.sbatch(["-J", "tail_job", "-o", "tail-%j.out", "-e", "tail-%j.err"],
                   user=A, input=script)
    c.wait_state(jid, {"RUNNING"})
    login(b, tcp, token_of(c, A), "job/%d" % jid)
    wait(b, lambda d: mark in text_of(d, "#job-output"), what="the output tail")
    text = text_of(b, "#job-output")
    assert XSS in text, text
    assert b.execute_script(
        "return document.querySelectorAll('#job-output *').length") == 0
    assert not exists(b, "main img, main script")
    info = text_of(b, "#job-output-info")
    assert os.path.join(wd, "tail-%d.out" % jid) in info, info
    # it grows while the job runs: the page reads it again
    c.write_file(A, flag, "")
    wait(b, lambda d: "second-line-" + mark in text_of(d, "#job-output"),
         what="the new line")
    click(b, "#output-stderr")
    wait(b, lambda d: text_of(d, "#job-output").strip() == "err-%s" % mark,
         what="stderr")
    # B: the page is refused, and the API refuses the output
    tok_b = token_of(c, B)
    status, _, body = http_req(tcp, "GET", "/sluice/v1/job/%d/output" % jid,
                               headers={"X-SLURM-USER-TOKEN": tok_b})
    assert status == 403 and mark.encode() not in body, body
    login(b, tcp, tok_b, "job/%d" % jid)
    wait(b, lambda d: text_of(d, "#job-error"), what="refused detail")
    assert not exists(b, "#job-output")
    assert mark not in b.find_element(By.TAG_NAME, "body").text
    c.run(["scancel", str(jid)])
    severe(b)      # B's refusals: read and dropped
    # not available, and why (known from the job record: no request, no
    # error in the console)
    held = c.sbatch(["-H", "--wrap", "true"], user=A)
    null = c.sbatch(["-o", "/dev/null", "--wrap", "sleep 300"], user=A)
    c.wait_state(null, {"RUNNING"})
    login(b, tcp, token_of(c, A), "job/%d" % held)
    wait(b, lambda d: "not available" in text_of(d, "#job-output-none"),
         what="pending: not available")
    goto(b, tcp, "job/%d" % null)
    wait(b, lambda d: "/dev/null" in text_of(d, "#job-output-none"),
         what="/dev/null: not available")
    assert text_of(b, "#job-output-none").startswith("Output not available")
    c.run(["scancel", str(held), str(null)])
    assert not severe(b), severe(b)


def test_requeue(web, browser):
    """Requeue from the job page (POST /sluice/v1/job/{id}/requeue, as
    scontrol requeue): the running job goes back to the queue and runs
    again; B cannot requeue A's job (403, nothing changes); bad ids and
    bodies are 400, an id that is no job's 404."""
    c, tcp, secret, _ = web
    b = browser
    jid = c.sbatch(["-J", "requeue_me", "-o", "/dev/null", "--wrap",
                    "sleep 300"], user=A)
    c.wait_state(jid, {"RUNNING"})
    tok_b = token_of(c, B)
    status, _, body = http_req(tcp, "POST", "/sluice/v1/job/%d/requeue" % jid,
                               headers={"X-SLURM-USER-TOKEN": tok_b})
    assert status == 403, body
    assert c.show_job(jid).get("Restarts") == "0"
    tok_a = token_of(c, A)
    for path, data, want in (
            ("/sluice/v1/job/abc/requeue", None, 404),
            ("/sluice/v1/job/%d/requeue" % jid, '{"hold": 1}', 400),
            ("/sluice/v1/job/%d/requeue" % jid, '{"held": true}', 400),
            ("/sluice/v1/job/%d/requeue" % jid, "[", 400)):
        status, _, body = http_req(tcp, "POST", path, body=data,
                                   headers={"X-SLURM-USER-TOKEN": tok_a,
                                            "Content-Type": "application/json"})
        assert status == want, (path, data, status, body)
    assert c.show_job(jid).get("Restarts") == "0"
    login(b, tcp, tok_a, "job/%d" % jid)
    wait(b, lambda d: exists(d, "#requeue"), what="the requeue button")
    click(b, "#requeue")
    cl.wait_for(lambda: c.show_job(jid).get("Restarts") == "1", timeout=30,
                what="requeued")
    wait(b, lambda d: "Requeue: done" in text_of(d, "#action-msg"),
         what="the page says so")
    c.wait_state(jid, {"RUNNING"}, timeout=60)
    # requeuehold through the body
    status, _, body = http_req(tcp, "POST", "/sluice/v1/job/%d/requeue" % jid,
                               body='{"hold": true}',
                               headers={"X-SLURM-USER-TOKEN": tok_a,
                                        "Content-Type": "application/json"})
    assert status == 200, body
    cl.wait_for(lambda: c.job_state(jid) in ("PENDING", "REQUEUE_HOLD") and
                c.show_job(jid).get("Priority") == "0" and
                c.show_job(jid).get("Restarts") == "2", timeout=30,
                what="requeued held")
    c.run(["scancel", str(jid)])


def test_operator_drains_node(web, browser):
    c, tcp, _, _ = web
    b = browser
    # a user is refused
    login(b, tcp, token_of(c, A), "node/n2")
    wait(b, lambda d: text_of(d, "#node-state"), what="node page")
    b.find_element(By.ID, "drain-reason").send_keys("by a user")
    click(b, "#drain")
    wait(b, lambda d: "refused" in text_of(d, "#node-msg"), what="refused drain")
    assert "DRAIN" not in c.run(["sinfo", "-h", "-n", "n2", "-o", "%T"]).out.upper()
    # root's token: an operator
    login(b, tcp, token_of(c, None), "node/n2")
    wait(b, lambda d: text_of(d, "#node-state"), what="node page")
    b.find_element(By.ID, "drain-reason").send_keys("web maintenance")
    click(b, "#drain")
    wait(b, lambda d: "Drain: done" in text_of(d, "#node-msg"), what="drained")
    r = c.run(["sinfo", "-h", "-n", "n2", "-o", "%T %E"])
    assert re.match(r"drain\S*\s+web maintenance", r.out), r
    wait(b, lambda d: "DRAIN" in text_of(d, "#node-state"), what="state in page")
    click(b, "#resume")
    cl.wait_for(lambda: "drain" not in c.run(["sinfo", "-h", "-n", "n2", "-o",
                                             "%T"]).out, timeout=10, what="resumed")


def test_html_in_names_is_text(web, browser):
    c, tcp, _, _ = web
    b = browser
    jid = c.sbatch(["-J", XSS, "--comment", XSS, "-H", "--wrap", "true"], user=A)
    login(b, tcp, token_of(c, A), "jobs?me=1")
    wait(b, lambda d: job_row(d, jid), what="the job")
    assert XSS in job_row(b, jid)
    goto(b, tcp, "job/%d" % jid)
    wait(b, lambda d: text_of(d, ".jobname") == XSS, what="detail")
    assert XSS in text_of(b, "#job-fields")
    # no element came out of it, nothing ran
    assert not exists(b, "main img, main script")
    assert b.execute_script("return window.__xss === undefined")
    try:
        alert = b.switch_to.alert
        text = alert.text
        alert.dismiss()
        pytest.fail("an alert ran: %s" % text)
    except Exception as e:  # NoAlertPresentException
        assert "alert ran" not in str(e)
    c.run(["scancel", str(jid)])


def test_expired_token_keeps_form(web, browser):
    c, tcp, secret, _ = web
    b = browser
    now = int(time.time())
    short = make_token(secret, {"iat": now, "exp": now + 6, "sun": A})
    login(b, tcp, short, "submit")
    wait(b, lambda d: d.find_elements(By.ID, "f-name"), what="submit form")
    b.find_element(By.ID, "f-name").send_keys("half_done")
    b.find_element(By.ID, "f-tasks").send_keys("2")
    # the next poll after the token expires: back to the login page
    wait(b, lambda d: "#/login" in d.current_url, timeout=25, what="login page")
    assert "expired" in b.find_element(By.TAG_NAME, "body").text
    box = b.find_element(By.ID, "token")
    box.send_keys(token_of(c, A))
    b.find_element(By.ID, "login").click()
    wait(b, lambda d: "#/submit" in d.current_url and
         d.find_elements(By.ID, "f-name"), what="back at the form")
    assert b.find_element(By.ID, "f-name").get_attribute("value") == "half_done"
    assert b.find_element(By.ID, "f-tasks").get_attribute("value") == "2"


def test_every_view_renders(web, browser):
    """Each view draws as an operator without an error on the page or in
    the console (a Content-Security-Policy violation would be one)."""
    c, tcp, _, _ = web
    b = browser
    jid = c.sbatch(["-J", "plan_me", "-H", "--wrap", "true"], user=A)
    r = c.run(["scontrol", "create", "reservation", "ReservationName=webresv",
               "StartTime=now+1hour", "Duration=60", "Nodes=n1", "Users=root"])
    assert r.rc == 0, r
    login(b, tcp, token_of(c, None), "overview")
    b.execute_script("console.error('probe')")
    assert any("probe" in e["message"] for e in b.get_log("browser"))
    views = [
        ("overview", lambda d: text_of(d, "#partitions") and text_of(d, "#health")),
        ("jobs", lambda d: job_row(d, jid)),
        ("job/%d" % jid, lambda d: text_of(d, "#job-state")),
        ("nodes", lambda d: exists(d, '.node-tile[data-node="n1"]')),
        ("node/n1", lambda d: text_of(d, "#node-fields")),
        ("timeline", lambda d: exists(d, ".gantt-row .bar-resv")),
        ("reservations", lambda d: "webresv" in text_of(d, "#resv")),
        ("shares", lambda d: text_of(d, "#shares") != "Loading…"),
        ("submit", lambda d: exists(d, "#f-script")),
    ]
    for route, ready in views:
        goto(b, tcp, route)
        wait(b, ready, what=route)
        body = b.find_element(By.TAG_NAME, "body").text
        assert "undefined" not in body and "NaN" not in body, (route, body[:2000])
        errors = severe(b)
        assert not errors, (route, errors)
    # the header says when the data is stale: slurmrestd gone, then back
    goto(b, tcp, "jobs")
    wait(b, lambda d: text_of(d, "#status").startswith("Live:"), what="live")
    restd = c.restds[-1]
    c.stop_daemon(restd)
    try:
        wait(b, lambda d: exists(d, "#status.stale"), timeout=30, what="stale")
        assert re.match(r"(Not updated|Stale)", text_of(b, "#status")), \
            text_of(b, "#status")
        assert job_row(b, jid)          # the last list stays on screen
    finally:
        c.start_restd(RESTD_USER, [tcp], args=restd.argv[1:-1])
    wait(b, lambda d: text_of(d, "#status").startswith("Live:"), timeout=30,
         what="live again")
    # dark theme by the button, kept across a reload
    click(b, "#theme")
    theme = b.execute_script("return document.documentElement.dataset.theme")
    b.refresh()
    wait(b, lambda d: job_row(d, jid), what="reloaded")
    assert b.execute_script("return document.documentElement.dataset.theme") == theme
    c.run(["scontrol", "delete", "ReservationName=webresv"])
    c.run(["scancel", str(jid)])


# ---- with accounting: a finished job's record, usage ------------------------

def test_accounting_views(users, browser):
    """With slurmdbd (own MariaDB) taking tokens too: a finished job's
    detail adds what accounting recorded, and the usage view adds up
    CPU-hours by account; B sees none of A's usage (PrivateData=jobs)."""
    import mariadb
    if mariadb.missing_tools():
        pytest.skip("MariaDB server not installed")
    src = web_dir()
    key = "AuthAltTypes=auth/jwt\nAuthAltParameters=jwt_key=%s"
    e = mariadb.AcctEnv(tag="webdb", nodes=1)
    c = e.c
    jwt_key = os.path.join(c.dir, "etc", "jwt_hs256.key")
    e.dbd_extra = key % jwt_key + "\nPrivateData=jobs"
    c.extra_conf += "\n" + key % jwt_key + "\nPrivateData=jobs\n" \
        "AccountingStoreFlags=job_script\n"
    try:
        os.makedirs(os.path.dirname(jwt_key), exist_ok=True)
        with open(jwt_key, "wb") as f:
            f.write(os.urandom(32))
        os.chmod(jwt_key, 0o600)
        e.start()
        for args in (("add", "cluster", "sluice"),
                     ("add", "account", "teama"), ("add", "account", "teamb"),
                     ("add", "user", A, "account=teama"),
                     ("add", "user", B, "account=teamb")):
            r = e.sacctmgr("-i", *args)
            assert r.rc == 0, r
        e.start_cluster()
        ui = os.path.join(c.dir, "ui")
        shutil.copytree(src, ui)
        for root, dirs, files in os.walk(ui):
            os.chmod(root, 0o755)
            for f in files:
                os.chmod(os.path.join(root, f), 0o644)
        os.chmod(c.dir, 0o755)
        port = cl.free_ports(1)[0]
        tcp = "127.0.0.1:%d" % port
        c.start_restd(RESTD_USER, [tcp], args=["-a", "rest_auth/jwt", "--ui-dir", ui])
        jid = c.sbatch(["-J", "acct_job", "-o", "/dev/null", "--wrap",
                        "sleep 2; exit 3"], user=A)
        # a running job's steps come from accounting too; srun makes one
        run_out = os.path.join(c.workdir(A), "acct_run.out")
        run = c.sbatch(["-J", "acct_run", "-o", run_out, "--wrap",
                        "%s -J inner true; sleep 60" % c.bin("srun")], user=A)
        c.wait_done(jid, timeout=60)
        cl.wait_for(lambda: e.sacct("-n", "-X", "-P", "-j", str(jid), "-o",
                                    "State").out.strip() == "FAILED",
                    timeout=30, what="the record in slurmdbd")
        b = browser
        login(b, tcp, token_of(c, A), "job/%d" % jid)
        wait(b, lambda d: "Accounting" in text_of(d, "#acct"), timeout=30,
             what="accounting section")
        acct = text_of(b, "#acct")
        assert re.search(r"ExitCode\s+3:0", acct), acct
        assert re.search(r"Elapsed\s+00:00:0[2-9]", acct), acct
        # the steps (batch), and the script slurmdbd kept (as text)
        wait(b, lambda d: exists(d, "#job-script"), what="the script")
        assert "sleep 2; exit 3" in text_of(b, "#job-script")
        assert re.search(r"batch\s+batch\s+FAILED", text_of(b, "#job-steps")), \
            text_of(b, "#job-steps")
        # the running job: its steps so far, no usage section yet
        c.wait_state(run, {"RUNNING"})
        step = "%d.0" % run
        cl.wait_for(lambda: step in e.sacct("-n", "-P", "-j", str(run), "-o",
                                            "JobID").out.split(),
                    timeout=30, what="the step in slurmdbd")
        goto(b, tcp, "job/%d" % run)
        wait(b, lambda d: step in text_of(d, "#job-steps"), timeout=30,
             what="the running job's steps")
        assert "Accounting" not in text_of(b, "#acct")
        c.run(["scancel", str(run)])
        goto(b, tcp, "usage?days=1&by=account")
        wait(b, lambda d: exists(d, "#usage-table"), timeout=30, what="usage")
        rows = text_of(b, "#usage-table")
        # acct_job (FAILED) and acct_run (cancelled): neither completed
        assert re.search(r"teama\s+2\s+0\.00\d*\s+2", rows), rows
        # B: not A's usage
        login(b, tcp, token_of(c, B), "usage?days=1")
        wait(b, lambda d: text_of(d, "#usage") and text_of(d, "#usage") != "Loading…",
             timeout=30, what="B's usage")
        assert "teama" not in text_of(b, "#usage")
        errors = severe(b)
        assert not errors, errors
    except BaseException:
        e.stop()                # the directory is kept to look at
        raise
    e.finish()


# ---- screenshots of a realistic cluster (doc/img/) -------------------------

SHOTS = os.path.join(REPO, "doc", "img")


@pytest.mark.skipif(os.environ.get("SLUICE_WEB_SCREENSHOTS") != "1",
                    reason="SLUICE_WEB_SCREENSHOTS=1 takes the screenshots")
def test_screenshots(users, browser):
    """64 nodes in three partitions, a few hundred jobs across states (an
    array throttled by %12, multi-node jobs, held, dependent, completed,
    failed, cancelled), two drained nodes and a maintenance reservation;
    each main view saved as doc/img/web-<view>.png."""
    c, tcp, _, _ = start_web_cluster(
        "webshots", nodes=64, cpus=4, node_extra=" Features=intel,ib",
        partitions=("PartitionName=batch Nodes=n[1-48] MaxTime=2-00:00:00",
                    "PartitionName=gpu Nodes=n[49-64] MaxTime=12:00:00"))
    try:
        _screenshots(c, tcp, browser)
    finally:
        _stop(c)


def _screenshots(c, tcp, b):
    def sub(args, user=A):
        return c.sbatch(args, user=user)

    sc = lambda *a: c.run(["scontrol"] + list(a))  # noqa: E731
    r = sc("create", "reservation", "ReservationName=maint",
           "StartTime=now+3hours", "Duration=4:00:00", "Nodes=n[57-64]",
           "Users=root", "Flags=MAINT")
    assert r.rc == 0, r
    for n in ("n47", "n48"):
        sc("update", "NodeName=" + n, "State=DRAIN", "Reason=bad DIMM")
    names = ["train-resnet50", "preprocess", "eval-bert", "sweep-lr",
             "render", "genome-align", "cfd-mesh", "md-sim"]
    ids = []
    for i in range(10):
        ids.append(sub(["-p", "batch", "-N", "2", "-c", "2", "-t", "6:00:00",
                        "-J", names[i % 8], "--wrap", "sleep 3600"],
                       user=A if i % 2 else B))
    for i in range(40):
        ids.append(sub(["-p", "batch", "-c", "2", "-t", "%d:00:00" % (1 + i % 5),
                        "-J", names[(i + 3) % 8], "--wrap", "sleep 3600"],
                       user=B if i % 3 else A))
    ids.append(sub(["-p", "gpu", "-c", "4", "-a", "0-99%12", "-t", "2:00:00",
                    "-J", "hyperparam-sweep", "--wrap", "sleep 3600"]))
    for i in range(100):
        sub(["-p", "batch", "-N", "8", "-t", "1-00:00:00",
             "-J", names[i % 8] + "-big", "--wrap", "sleep 60"],
            user=A if i % 2 else B)
    for i in range(5):
        sub(["-H", "-J", "held-%d" % i, "--wrap", "true"], user=B)
        sub(["-d", "afterok:%d" % ids[i], "-J", "postprocess", "--wrap",
             "true"], user=A)
    done = []
    for i in range(60):
        done.append(sub(["-J", "quick-%d" % i, "--wrap", "true"], user=A if i % 2 else B))
    for i in range(10):
        done.append(sub(["-J", "broken", "--wrap", "exit 3"], user=B))
    for i in range(5):
        j = sub(["-p", "batch", "-N", "8", "-J", "mistake", "--wrap", "true"], user=A)
        c.run(["scancel", str(j)])
    for j in done[-5:]:
        c.wait_done(j, timeout=120)
    time.sleep(8)          # a backfill cycle for the planned starts
    b.set_window_size(1440, 960)
    login(b, tcp, token_of(c, None), "overview")

    def shot(route, name, ready):
        goto(b, tcp, route)
        wait(b, ready, timeout=30, what=name)
        time.sleep(1.5)
        b.save_screenshot(os.path.join(SHOTS, "web-%s.png" % name))

    os.makedirs(SHOTS, exist_ok=True)
    shot("overview", "overview", lambda d: text_of(d, "#partitions") and
         exists(d, "#nodes-chart"))
    shot("jobs?state=PD,R&sort=-id", "jobs", lambda d: exists(d, ".vl-row"))
    pend = c.run(["squeue", "-h", "-t", "PD", "-p", "batch", "-o", "%i",
                  "--sort", "S"]).out.split()
    shot("job/%s" % pend[0], "job", lambda d: text_of(d, "#job-state"))
    click(b, "#theme")                  # the node grid in the dark theme
    shot("nodes", "nodes", lambda d: exists(d, ".node-tile"))
    click(b, "#theme")
    shot("timeline?partition=gpu&hours=12", "timeline",
         lambda d: exists(d, ".gantt-row .bar-resv"))
    shot("submit", "submit", lambda d: exists(d, "#f-name"))
