"""CommunicationParameters (issue 27): keepalivetime/keepaliveinterval/
keepaliveprobes put TCP keepalive on the daemons' and commands'
connections; NoCtldInAddrAny and NoInAddrAny bind the daemons to their own
addresses instead of every address; words Sluice cannot honour are
refused, and those it has no use for are reported once.
"""

import re
import subprocess
import threading

import pytest

from conftest import _start, _stop
import cluster as cl

U = "sluice_u1"


def _ss(args):
    return subprocess.run(["ss", "-H"] + args, stdout=subprocess.PIPE,
                          text=True).stdout


@pytest.fixture(scope="module")
def c(users):
    c = _start(tag="commparams", nodes=1,
               extra_conf="CommunicationParameters=keepalivetime=37,"
               "keepaliveinterval=5,keepaliveprobes=3,NoInAddrAny,"
               "NoAddrCache\n")
    yield c
    _stop(c)


def test_keepalive_on_connections(c):
    # a step's I/O connection lives as long as the step
    out = {}

    def run():
        out["r"] = c.run(["srun", "sleep", "6"], user=U, timeout=60)

    t = threading.Thread(target=run)
    t.start()
    seen = []

    def keepalive_seen():
        lines = _ss(["-tnop", "state", "established"]).splitlines()
        seen[:] = [ln for ln in lines
                   if re.search(r'"(srun|slurmstepd|slurmd)"', ln)
                   and "timer:(keepalive," in ln]
        return seen
    cl.wait_for(keepalive_seen, timeout=10, what="keepalive timers")
    t.join()
    assert out["r"].rc == 0, out["r"]
    # counting down from keepalivetime=37
    for ln in seen:
        m = re.search(r"timer:\(keepalive,(\d+)(?:\.\d+)?(ms|sec|min)", ln)
        assert m, ln
        secs = int(m.group(1)) / (1000.0 if m.group(2) == "ms" else 1)
        assert secs <= 37, ln


def test_no_in_addr_any_binds_own_addresses(c):
    listening = _ss(["-tln"])
    for port in [c.ctld_port] + list(c.node_ports.values()):
        lines = [ln for ln in listening.splitlines()
                 if re.search(r"\s\S+:%d\s" % port, ln)]
        assert lines, (port, listening)
        for ln in lines:
            assert "127.0.0.1:%d" % port in ln, ln


def test_unused_word_is_reported_once(c):
    log = c.log_text()
    assert len(re.findall(r"CommunicationParameters option NoAddrCache has "
                          r"no effect", log)) == 1, log[-2000:]


@pytest.mark.parametrize("value,err", [
    ("EnableIPv6", "CommunicationParameters option EnableIPv6: not "
     "supported: the daemons talk IPv4 only"),
    ("keepalivetime=soon", "CommunicationParameters: invalid value in "
     "keepalivetime=soon"),
])
def test_refused_values_stop_the_controller(users, value, err):
    c = cl.Cluster(tag="commbad", nodes=1,
                   extra_conf="CommunicationParameters=%s\n" % value)
    try:
        ports = cl.free_ports(2)
        c.ctld_port, c.node_ports = ports[0], {"n1": ports[1]}
        c.write_conf()
        r = c.run([c.bin("slurmctld"), "-D", "-f", c.conf])
        assert r.rc != 0
        assert err in r.err, r.err
    finally:
        c.cleanup()
