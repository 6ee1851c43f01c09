"""squeue -S: the order Slurm's sort keys give, whichever way squeue
compares them.  Keys of the common kinds (ids, priority, user, group,
partition, state: the default P,t,-p) are copied out of the records once
and compared as ranks (src/cli/squeue.c, fast_keys_fill); any other key
(here the job name, the same for every job, so it changes no order)
compares the records themselves.  Both must give the same order, over
jobs in two partitions, in several states, with several priorities.
"""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def sc(users):
    import conftest
    c = conftest._start(tag="sqsort", nodes=2,
                        extra_conf="PartitionName=zeta Nodes=n2")
    yield c
    conftest._stop(c)


def _submit(c, *args):
    r = c.run(["sbatch", "--parsable", "-J", "same"] + list(args) +
              ["--wrap", "sleep 300"])
    assert r.rc == 0, r.err
    return r.out.strip()


def test_bad_sort_key_still_refused_or_ignored_as_before(sc):
    # an empty key list falls back to the slow path without crashing
    r = sc.run(["squeue", "-h", "-S", ",", "-o", "%i"])
    assert r.rc == 0, r.err


def test_copied_keys_sort_as_record_compare(sc):
    for part in ("debug", "zeta"):
        _submit(sc, "-p", part)                          # runs
        for nice in ("0", "100", "200"):
            _submit(sc, "-p", part, "--nice=" + nice, "-c", "2")
        _submit(sc, "-p", part, "--hold")
    for keys in ("P,t,-p", "-i", "T,U,p", "t,-P,i", "-p,A", "G,-Q,P"):
        fast = sc.run(["squeue", "-h", "-S", keys, "-o", "%i %T %P %Q"])
        slow = sc.run(["squeue", "-h", "-S", keys + ",j",
                       "-o", "%i %T %P %Q"])
        assert fast.rc == 0 and slow.rc == 0, fast.err + slow.err
        assert len(fast.out.splitlines()) == 10
        assert fast.out == slow.out, keys
    # the default order: partition, then state, then priority descending
    lines = sc.run(["squeue", "-h", "-o", "%P %t %Q"]).out.splitlines()
    rows = [(p, t, -int(q)) for p, t, q in (l.split() for l in lines)]
    assert rows == sorted(rows)
