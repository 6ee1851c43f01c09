"""task/affinity: the SLURM_CPU_BIND* variables each task gets, the
binding Slurm 22.05 applies when --cpu-bind is not given (auto binding),
verbose lines, and the batch script's binding.  Expected values were taken
from Slurm 22.05 (TaskPlugin=task/affinity, one 2-CPU node) and are
written here in terms of this machine's CPUs: node CPU i is machine CPU
avail[i % n] (emulated nodes, affinity.h)."""

import os
import re

import pytest

from conftest import _start, _stop

U = "sluice_u1"
SHOW = ('echo "$SLURM_PROCID|$SLURM_CPU_BIND|$SLURM_CPU_BIND_VERBOSE|'
        '$SLURM_CPU_BIND_TYPE|$SLURM_CPU_BIND_LIST|'
        '$(grep Cpus_allowed_list /proc/self/status | cut -f2)"')

AVAIL = sorted(os.sched_getaffinity(0))


def cpu(i):
    return AVAIL[i % len(AVAIL)]


def mask(*node_cpus):
    return "0x%x" % sum(1 << cpu(i) for i in set(node_cpus))


def cpulist(*node_cpus):
    """Cpus_allowed_list of those node CPUs (as the kernel prints it)."""
    cs = sorted({cpu(i) for i in node_cpus})
    out, i = [], 0
    while i < len(cs):
        j = i
        while j + 1 < len(cs) and cs[j + 1] == cs[j] + 1:
            j += 1
        out.append(str(cs[i]) if i == j else "%d-%d" % (cs[i], cs[j]))
        i = j + 1
    return ",".join(out)


pytestmark = pytest.mark.skipif(len(AVAIL) < 2,
                                reason="needs 2 CPUs, this process has %d"
                                % len(AVAIL))


@pytest.fixture(scope="module")
def cb_cluster(users):
    c = _start(tag="cpubind", nodes=1, cpus=2,
               extra_conf="TaskPlugin=task/affinity\n")
    yield c
    _stop(c)


def _srun(c, *opts):
    r = c.run(["srun", "-w", "n1"] + list(opts) + ["sh", "-c", SHOW],
              user=U, cwd=c.workdir(U), timeout=60)
    assert r.rc == 0, r
    rows = {}
    for line in r.out.splitlines():
        f = line.split("|")
        rows[int(f[0])] = f[1:]
    return rows, r.err


def test_default_auto_binding_one_thread_each(cb_cluster):
    rows, _ = _srun(cb_cluster, "-n2")
    lst = "%s,%s" % (mask(0), mask(1))
    assert rows == {
        0: ["quiet,mask_cpu:" + lst, "quiet", "mask_cpu:", lst, cpulist(0)],
        1: ["quiet,mask_cpu:" + lst, "quiet", "mask_cpu:", lst, cpulist(1)],
    }, rows


def test_default_auto_binding_cpus_per_task(cb_cluster):
    rows, _ = _srun(cb_cluster, "-n1", "-c2")
    m = mask(0, 1)
    assert rows == {0: ["quiet,mask_cpu:" + m, "quiet", "mask_cpu:", m,
                        cpulist(0, 1)]}, rows


def test_none_and_its_verbose_line(cb_cluster):
    rows, err = _srun(cb_cluster, "-n2", "--cpu-bind=v,none")
    for t in (0, 1):
        assert rows[t] == ["verbose,none", "verbose", "none", "",
                           cpulist(0, 1)], rows
    lines = sorted(l for l in err.splitlines() if "cpu-bind=" in l)
    assert len(lines) == 2, err
    for t, l in enumerate(lines):
        assert re.fullmatch(r"cpu-bind=NONE - n1, task  %d  %d \[\d+\]: "
                            r"mask 0x0" % (t, t), l), l


def test_none_on_part_of_the_node_keeps_the_step_cpus(cb_cluster):
    rows, err = _srun(cb_cluster, "-n1", "--cpu-bind=v,none")
    assert rows == {0: ["verbose,mask_cpu:" + mask(0), "verbose",
                        "mask_cpu:", mask(0), cpulist(0)]}, rows
    assert re.search(r"^cpu-bind=MASK - n1, task  0  0 \[\d+\]: mask %s "
                     r"set$" % mask(0), err, re.M), err


def test_map_cpu_keeps_the_list_as_written(cb_cluster):
    rows, err = _srun(cb_cluster, "-n2", "--cpu-bind=verbose,map_cpu:01,0")
    assert rows == {
        0: ["verbose,map_cpu:01,0", "verbose", "map_cpu:", "01,0",
            cpulist(1)],
        1: ["verbose,map_cpu:01,0", "verbose", "map_cpu:", "01,0",
            cpulist(0)],
    }, rows
    lines = sorted(l for l in err.splitlines() if "cpu-bind=" in l)
    assert re.fullmatch(r"cpu-bind=MAP  - n1, task  0  0 \[\d+\]: mask %s "
                        r"set" % mask(1), lines[0]), lines


def test_mask_cpu_list_loses_its_0x(cb_cluster):
    rows, _ = _srun(cb_cluster, "-n2", "--cpu-bind=mask_cpu:0x2,1")
    assert rows[0][:4] == ["quiet,mask_cpu:2,1", "quiet", "mask_cpu:",
                           "2,1"], rows
    assert rows[0][4] == cpulist(1) and rows[1][4] == cpulist(0), rows


def test_cores_become_masks_and_rank(cb_cluster):
    rows, _ = _srun(cb_cluster, "-n2", "--cpu-bind=q,v,threads")
    lst = "%s,%s" % (mask(0), mask(1))
    assert rows[1] == ["verbose,mask_cpu:" + lst, "verbose", "mask_cpu:",
                       lst, cpulist(1)], rows
    rows, _ = _srun(cb_cluster, "-n2", "--cpu-bind=rank")
    assert rows[1][:4] == ["quiet,rank", "quiet", "rank", ""], rows


def test_boards_is_refused_like_slurm(cb_cluster):
    c = cb_cluster
    r = c.run(["srun", "-n1", "--cpu-bind=boards", "true"], user=U,
              cwd=c.workdir(U), timeout=30)
    assert r.rc != 0
    assert 'srun: error: unrecognized --cpu-bind argument "boards"' \
        in r.err, r


def test_batch_script_bound_to_its_cpus_without_variables(cb_cluster):
    c = cb_cluster
    d = c.workdir(U)
    out = os.path.join(d, "cb-batch.out")
    jid = c.sbatch(["-n1", "-o", out, "--wrap",
                    "echo \"[$SLURM_CPU_BIND][$SLURM_CPU_BIND_TYPE]\"; "
                    "grep Cpus_allowed_list /proc/self/status | cut -f2"],
                   user=U, cwd=d)
    assert c.wait_state(jid, {"COMPLETED", "FAILED"}, timeout=60) \
        == "COMPLETED"
    assert open(out).read() == "[][]\n%s\n" % cpulist(0)


def test_side_by_side_steps_get_different_cpus(cb_cluster):
    """Two one-CPU --exact steps of a two-CPU job: each is auto-bound to
    the CPU the controller gave it, not both to the first one."""
    c = cb_cluster
    d = c.workdir(U)
    out = os.path.join(d, "cb-exact.out")
    srun = c.bin("srun")
    step = ("%s -n1 --exact sh -c 'sleep 1; echo \"$SLURM_STEP_ID "
            "$SLURM_CPU_BIND_LIST\"'" % srun)
    jid = c.sbatch(["-n2", "-o", out, "--wrap",
                    "%s & %s & wait" % (step, step)], user=U, cwd=d)
    assert c.wait_state(jid, {"COMPLETED", "FAILED"}, timeout=60) \
        == "COMPLETED"
    lists = sorted(l.split()[1] for l in open(out).read().splitlines())
    assert lists == sorted([mask(0), mask(1)]), open(out).read()


@pytest.fixture(scope="module")
def tpp_cluster(users):
    c = _start(tag="cpubindparam", nodes=1, cpus=2,
               extra_conf="TaskPlugin=task/affinity\n"
                          "TaskPluginParam=None,Verbose\n")
    yield c
    _stop(c)


def test_task_plugin_param_is_the_default(tpp_cluster):
    """TaskPluginParam=None,Verbose: steps without --cpu-bind are not
    bound (a whole node) or kept on their CPUs (part of it), verbosely; an
    explicit --cpu-bind replaces both words."""
    rows, err = _srun(tpp_cluster, "-n2")
    for t in (0, 1):
        assert rows[t] == ["verbose,none", "verbose", "none", "",
                           cpulist(0, 1)], rows
    assert len([l for l in err.splitlines()
                if l.startswith("cpu-bind=NONE - n1, task ")]) == 2, err
    rows, _ = _srun(tpp_cluster, "-n1")
    assert rows[0][:4] == ["verbose,mask_cpu:" + mask(0), "verbose",
                           "mask_cpu:", mask(0)], rows
    rows, err = _srun(tpp_cluster, "-n2", "--cpu-bind=cores")
    lst = "%s,%s" % (mask(0), mask(1))
    assert rows[0][:4] == ["quiet,mask_cpu:" + lst, "quiet", "mask_cpu:",
                           lst], rows
    assert "cpu-bind=" not in err, err
