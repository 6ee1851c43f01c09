"""slurmrestd gives back the memory of large answers (issue 24).

An answer built as one JSON document takes several times the answer's
size.  Each of slurmrestd's worker threads has its own malloc arena, so a
daemon that only freed the documents kept the largest one each worker had
ever built: 6.5 GiB after two dozen GET jobs at 5,000 jobs
(tests/perf/bench_rest.py), more than the machine at 50,000.  After many
large answers its memory must be back near what one answer needs: GET
jobs (written job by job since 95af850) and GET nodes (one document,
freed and trimmed by the worker: 1,166 MiB without that, at 3,000 nodes).
"""

import os
import subprocess

import pytest

A = "sluice_u1"
JOBS = 1500
GETS = 24
RSS_MAX_MIB = 400


def _sanitized(binary):
    out = subprocess.run(["ldd", binary], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True).stdout
    return "libasan" in out


def _rss_mib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    raise AssertionError("no VmRSS for %d" % pid)


def test_large_answers_give_memory_back(new_cluster, users):
    c = new_cluster(nodes=1)
    restd = c.bin("slurmrestd")
    if _sanitized(restd):
        pytest.skip("a sanitizer build has its own allocator")
    submit_rpc = os.path.join(os.path.dirname(os.path.dirname(restd)),
                              "tests", "submit_rpc")
    if not os.access(submit_rpc, os.X_OK):
        pytest.skip("no tests/submit_rpc in this build")
    p = subprocess.run([submit_rpc, str(JOBS), "4", "--hold"],
                       env=dict(os.environ, **c.env_for()),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    d, size = _get_many(c, "jobs/")
    assert int(size) > 4 * 1024 * 1024, size   # a large answer indeed
    rss = _rss_mib(d.pid)
    assert rss < RSS_MAX_MIB, (
        "slurmrestd holds %.0f MiB after %d answers of %.1f MiB" % (
            rss, GETS, int(size) / 1048576.0))


def _get_many(c, op):
    """slurmrestd as A; GETS answers of op.  Its daemon and the last
    answer's size in bytes (as a string)."""
    run = os.path.join(c.dir, "run")
    os.chmod(run, 0o1777)
    sock = os.path.join(run, "rest-mem.sock")
    d = c.start_restd(A, ["unix:" + sock], name="slurmrestd-mem")
    size = "0"
    for i in range(GETS):
        r = c.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code} "
                   "%{size_download}", "--unix-socket", sock,
                   "http://localhost/slurm/v0.0.43/" + op], user=A,
                   timeout=120)
        code, size = r.out.split()
        assert code == "200", r
    return d, size


def test_large_node_lists_give_memory_back(new_cluster, users):
    """GET nodes of 3,000 nodes (2,999 configured without a slurmd,
    listed all the same) leaves no large heap behind."""
    port = 9   # nothing listens there
    c = new_cluster(nodes=1, extra_conf=(
        "NodeName=x[1-2999] NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000 "
        "Port=%d\n" % port))
    restd = c.bin("slurmrestd")
    if _sanitized(restd):
        pytest.skip("a sanitizer build has its own allocator")
    d, size = _get_many(c, "nodes/")
    assert int(size) > 3 * 1024 * 1024, size
    rss = _rss_mib(d.pid)
    assert rss < RSS_MAX_MIB / 2, (
        "slurmrestd holds %.0f MiB after %d answers of %.1f MiB" % (
            rss, GETS, int(size) / 1048576.0))
