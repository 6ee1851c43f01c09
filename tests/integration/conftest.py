"""pytest fixtures: real Sluice clusters on loopback.

  cluster          one 4-node cluster per test module (tests that do not
                   disturb each other share it)
  new_cluster      factory for a private cluster (tests that kill daemons);
                   each one is stopped at the end of the test
  users            the two unprivileged test users (created if missing)
  new_netns_cluster  factory for a multi-host cluster (netns.py: one
                   network namespace per host, configless nodes)

Run as root: the fixture starts munged and the daemons and switches to the
test users.  SLUICE_BUILD_DIR / SLUICE_PREFIX choose the binaries (see
cluster.py); SLUICE_KEEP_TMP=1 keeps each cluster's directory.  When a test
fails, the tail of every daemon log of the clusters it used is attached to
the report and those clusters' directories are kept.
"""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cluster as cl  # noqa: E402

_ACTIVE = []


def _start(cls=cl.Cluster, **kw):
    c = cls(**kw)
    _ACTIVE.append(c)
    try:
        c.start()
    except BaseException:
        _stop(c, keep=True)
        raise
    return c


def _stop(c, keep=False):
    """Stop the cluster; fail (at teardown) if any process of it wrote a
    sanitizer report."""
    reports = []
    try:
        c.stop()
    finally:
        if c in _ACTIVE:
            _ACTIVE.remove(c)
        reports = c.sanitizer_reports()
        if not keep and not reports:
            c.cleanup()
    if reports:
        pytest.fail("sanitizer reports from the cluster in %s:\n%s" % (
            c.dir, "\n".join("--- %s ---\n%s" % (p, t[:4000]) for p, t in reports[:5])),
            pytrace=False)


@pytest.fixture(scope="session")
def users():
    if os.geteuid() != 0:
        pytest.fail("the integration tests must run as root (they start "
                    "munged and slurmd and switch to test users)")
    return cl.ensure_test_users()


@pytest.fixture(scope="module")
def cluster(request, users):
    tag = request.module.__name__.replace("test_", "")
    c = _start(tag=tag)
    yield c
    _stop(c)


@pytest.fixture
def new_cluster(request, users):
    made = []

    def make(**kw):
        kw.setdefault("tag", request.node.name[:20])
        c = _start(**kw)
        made.append(c)
        return c

    yield make
    for c in made:
        _stop(c)


@pytest.fixture
def new_netns_cluster(request, users):
    """Factory for a multi-host cluster (netns.NetnsCluster: each node, the
    controller and a login host in their own network namespace, the nodes
    configless); stopped, namespaces and bridge removed, at the end of the
    test.  Skips where namespaces cannot be made."""
    import netns
    why = netns.unavailable()
    if why:
        pytest.skip("no network namespaces: " + why)
    made = []

    def make(**kw):
        kw.setdefault("tag", request.node.name[:20])
        c = _start(netns.NetnsCluster, **kw)
        made.append(c)
        return c

    yield make
    for c in made:
        _stop(c, keep=c.failed)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if rep.failed and _ACTIVE:
        for c in _ACTIVE:
            c.failed = True
            rep.sections.append(("daemon logs of %s (kept)" % c.dir, c.log_tails()))


def pytest_report_header(config):
    b = cl.binaries()
    return "sluice binaries: %s" % b["origin"]
