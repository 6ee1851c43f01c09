#!/usr/bin/python3
"""The web view with a big queue, in headless chromium: does the job list
open and scroll without freezing the page, and what does each poll cost?

  page   build/web served with a stand-in for slurmrestd that answers
         /slurm/v0.0.43/jobs with JOBS (50,000) jobs shaped as slurmrestd
         shapes them (v0.0.43, every field): the browser's own cost.
  idle   (IDLE=1; PAGE=0 skips the first) a real cluster (tests/integration/cluster.py) with
         slurmrestd --ui-dir and IDLE_JOBS (200) jobs: slurmctld's and
         slurmrestd's CPU while a page sits open on the job list for
         IDLE_SECONDS (60), against the same time with no page.

Figures (`name: value` lines), measured through the DevTools protocol
(Performance.getMetrics: the main thread's task, script and layout time)
and in the page (requestAnimationFrame intervals while scrolling;
PerformanceObserver long tasks, >50 ms, are the "freezes"):

  load_ms              navigation to the first rows of the filtered list
  load_main_thread_ms  main-thread task time spent on it
  load_longest_task_ms the longest task (the worst freeze while loading)
  scroll_frame_ms_p50/p95/max
                       frame intervals while the list scrolls 200 frames
                       (500 px each, then jumps of 20,000 px)
  poll_main_thread_ms  main-thread time per poll of the whole list
  poll_longest_task_ms the longest task during the polls

Run as root: /usr/bin/python3 tests/perf/bench_web.py  (needs build/web,
chromium, chromium-driver, python3-selenium: scripts/install-deps.sh).
"""
import copy
import http.server
import json
import os
import shutil
import statistics
import sys
import threading
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("SLUICE_BUILD_DIR", os.path.join(REPO, "build"))
WEB = os.path.join(BUILD, "web")
JOBS = int(os.environ.get("JOBS", "50000"))


def num(n, set_=True):
    return {"set": set_, "infinite": False, "number": n}


def template():
    """One job as slurmrestd v0.0.43 answers it (every field)."""
    t = int(time.time())
    j = {k: "" for k in (
        "account admin_comment allocating_node array_task_string batch_features "
        "batch_host burst_buffer burst_buffer_state cluster cluster_features "
        "command comment container container_id cpus_per_tres cron "
        "current_working_directory dependency excluded_nodes extra failed_node "
        "features federation_origin federation_siblings_active "
        "federation_siblings_viable het_job_id_set licenses licenses_allocated "
        "mail_user mcs_label memory_per_tres name network nodes partition "
        "prefer qos required_nodes resv_name scheduled_nodes selinux_context "
        "standard_error standard_input standard_output state_description "
        "state_reason stderr_expanded stdin_expanded stdout_expanded "
        "system_comment tres_alloc_str tres_bind tres_freq tres_per_job "
        "tres_per_node tres_per_socket tres_per_task tres_req_str user_name "
        "wckey group_name").split()}
    for k in ("accrue_time array_job_id array_max_tasks billable_tres cpus "
              "cpus_per_task deadline delay_boot eligible_time end_time "
              "het_job_id het_job_offset last_sched_evaluation max_cpus "
              "max_nodes memory_per_node minimum_cpus_per_node "
              "minimum_tmp_disk_per_node node_count pre_sus_time preempt_time "
              "preemptable_time priority resize_time start_time submit_time "
              "suspend_time tasks tasks_per_board tasks_per_node tasks_per_tres "
              "time_limit time_minimum").split():
        j[k] = num(0)
    for k in ("array_task_id cores_per_socket cpu_frequency_governor "
              "cpu_frequency_maximum cpu_frequency_minimum memory_per_cpu "
              "sockets_per_node threads_per_core tasks_per_core "
              "tasks_per_socket").split():
        j[k] = num(0, False)
    ec = {"status": ["SUCCESS"], "return_code": num(0),
          "signal": {"id": num(0, False), "name": ""}}
    j.update(exit_code=ec, derived_exit_code=copy.deepcopy(ec), flags=[],
             gres_detail=[], job_resources={"select_type": [], "cpus": 0},
             job_size_str=[], mail_type=[], power={"flags": []},
             priority_by_partition=[], profile=["NOT_SET"], shared=[],
             association_id=0, batch_flag=True, contiguous=False, core_spec=0,
             group_id=1001, hold=False, maximum_switch_wait_time=0, nice=0,
             reboot=False, requeue=True, required_switches=0, restart_cnt=0,
             segment_size=0, sockets_per_board=0, user_id=1001,
             cluster="sluice", allocating_node="login1",
             current_working_directory="/home/user/project",
             tres_req_str="cpu=1,mem=1000M,node=1,billing=1")
    j["submit_time"] = num(t - 3600)
    return j


def jobs_doc(n):
    t = template()
    now = int(time.time())
    jobs = []
    users = ["alice", "bob", "carol", "dave", "erin"]
    for i in range(n):
        j = dict(t)
        j["job_id"] = i + 1
        j["name"] = "job-%d" % (i % 997)
        j["user_name"] = users[i % 5]
        j["account"] = "acct%d" % (i % 7)
        j["partition"] = ("batch", "gpu", "debug")[i % 3]
        if i % 10 == 0:
            j["job_state"] = ["RUNNING"]
            j["state_reason"] = "None"
            j["start_time"] = num(now - i % 3600)
            j["nodes"] = "n%d" % (i % 64 + 1)
        else:
            j["job_state"] = ["PENDING"]
            j["state_reason"] = ("Priority", "Resources", "Dependency")[i % 3]
            j["start_time"] = num(now + i)
        j["time_limit"] = num(60 * (1 + i % 24))
        j["node_count"] = num(1 + i % 4)
        jobs.append(j)
    return json.dumps({"jobs": jobs, "last_update": num(now),
                       "last_backfill": num(now), "meta": {}, "errors": [],
                       "warnings": []}).encode()


class Mock(http.server.BaseHTTPRequestHandler):
    jobs = b""
    polls = 0

    def log_message(self, *a):
        pass

    def send(self, code, ctype, data):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        path = self.path.split("?")[0]
        if path.startswith("/ui"):
            rel = path[3:].lstrip("/") or "index.html"
            f = os.path.realpath(os.path.join(WEB, rel))
            if not f.startswith(os.path.realpath(WEB)) or not os.path.isfile(f):
                return self.send(404, "text/plain", b"no")
            ct = {"html": "text/html", "js": "text/javascript", "css": "text/css",
                  "svg": "image/svg+xml"}.get(f.rsplit(".", 1)[-1], "application/octet-stream")
            with open(f, "rb") as fh:
                return self.send(200, ct, fh.read())
        if path.endswith("/jobs"):
            Mock.polls += 1
            return self.send(200, "application/json", Mock.jobs)
        empty = {"meta": {}, "errors": [], "warnings": [], "nodes": [],
                 "partitions": [], "statistics": {}}
        return self.send(200, "application/json", json.dumps(empty).encode())


def browser():
    opts = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu",
              "--disable-dev-shm-usage", "--window-size=1400,1000"):
        opts.add_argument(a)
    opts.binary_location = shutil.which("chromium")
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")),
                            options=opts)


def metrics(b):
    m = b.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]
    return {x["name"]: x["value"] for x in m}


LONGTASKS = """
window.__long = [];
new PerformanceObserver((l) => { for (const e of l.getEntries())
    window.__long.push(e.duration); }).observe({type: "longtask", buffered: true});
"""

SCROLL = """
const done = arguments[arguments.length - 1];
const box = document.querySelector(".vl");
const frames = [];
let last = performance.now(), i = 0;
function step(t) {
    frames.push(t - last);
    last = t;
    box.scrollTop += i < 200 ? 500 : 20000;
    if (++i < 260) requestAnimationFrame(step); else done(frames);
}
requestAnimationFrame(step);
"""


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))]


def page_bench():
    Mock.jobs = jobs_doc(JOBS)
    print("jobs: %d (%.1f MB of JSON per poll)" % (JOBS, len(Mock.jobs) / 1e6))
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Mock)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    base = "http://127.0.0.1:%d/ui/" % srv.server_address[1]
    b = browser()
    try:
        b.execute_cdp_cmd("Performance.enable", {})
        b.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                          {"source": LONGTASKS + "sessionStorage.setItem("
                           "'sluice.token', 'x.eyJzdW4iOiJhbGljZSJ9.x');"})
        m0 = metrics(b)
        t0 = time.time()
        b.get(base + "#/jobs?sort=-id")
        while "of %d jobs" % JOBS not in (b.execute_script(
                "const e = document.getElementById('job-count');"
                "return e ? e.textContent : ''") or ""):
            time.sleep(0.02)
            if time.time() - t0 > 120:
                raise SystemExit("the list did not load in 120 s")
        load = (time.time() - t0) * 1000
        m1 = metrics(b)
        longs = b.execute_script("return window.__long")
        print("load_ms: %.0f" % load)
        print("load_main_thread_ms: %.0f" % ((m1["TaskDuration"] - m0["TaskDuration"]) * 1000))
        print("load_script_ms: %.0f" % ((m1["ScriptDuration"] - m0["ScriptDuration"]) * 1000))
        print("load_longest_task_ms: %.0f" % max(longs or [0]))
        b.set_script_timeout(60)
        frames = b.execute_async_script(SCROLL)[1:]
        print("scroll_frame_ms_p50: %.1f" % statistics.median(frames))
        print("scroll_frame_ms_p95: %.1f" % pct(frames, 0.95))
        print("scroll_frame_ms_max: %.1f" % max(frames))
        print("scroll_rows_in_dom: %d" % b.execute_script(
            "return document.querySelectorAll('.vl-row').length"))
        b.execute_script("window.__long = []")
        p0, m0 = Mock.polls, metrics(b)
        time.sleep(float(os.environ.get("POLL_SECONDS", "30")))
        p1, m1 = Mock.polls, metrics(b)
        longs = b.execute_script("return window.__long")
        polls = max(1, p1 - p0)
        print("polls: %d" % (p1 - p0))
        print("poll_main_thread_ms: %.0f" % ((m1["TaskDuration"] - m0["TaskDuration"]) * 1000 / polls))
        print("poll_longest_task_ms: %.0f" % max(longs or [0]))
    finally:
        b.quit()
        srv.shutdown()


def cpu_of(pid):
    with open("/proc/%d/stat" % pid) as f:
        v = f.read().rsplit(")", 1)[1].split()
    return (int(v[11]) + int(v[12])) / os.sysconf("SC_CLK_TCK")


def idle_bench():
    sys.path.insert(0, os.path.join(REPO, "tests", "integration"))
    import cluster as cl
    import test_web as tw
    cl.ensure_test_users()
    secs = float(os.environ.get("IDLE_SECONDS", "60"))
    c, tcp, _, _ = tw.start_web_cluster("webidle", nodes=4)
    try:
        for i in range(int(os.environ.get("IDLE_JOBS", "200"))):
            c.sbatch(["-H", "-J", "idle-%d" % i, "--wrap", "true"], user=tw.A)
        ctld = c.ctld.pid
        restd = c.restds[0].pid
        time.sleep(2)
        a0, r0 = cpu_of(ctld), cpu_of(restd)
        time.sleep(secs)
        a1, r1 = cpu_of(ctld), cpu_of(restd)
        print("no_page_ctld_cpu_pct: %.2f" % (100 * (a1 - a0) / secs))
        b = browser()
        try:
            tw.login(b, tcp, tw.token_of(c, tw.A), "jobs?me=1")
            time.sleep(5)
            a0, r0 = cpu_of(ctld), cpu_of(restd)
            time.sleep(secs)
            a1, r1 = cpu_of(ctld), cpu_of(restd)
        finally:
            b.quit()
        print("idle_page_ctld_cpu_pct: %.2f" % (100 * (a1 - a0) / secs))
        print("idle_page_restd_cpu_pct: %.2f" % (100 * (r1 - r0) / secs))
    finally:
        c.stop()
        c.cleanup()


if __name__ == "__main__":
    if not os.path.exists(os.path.join(WEB, "index.html")):
        raise SystemExit("no %s/index.html: build first (needs npm)" % WEB)
    if os.environ.get("PAGE", "1") == "1":
        page_bench()
    if os.environ.get("IDLE") == "1":
        idle_bench()
