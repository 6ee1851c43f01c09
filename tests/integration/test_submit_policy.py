"""What a plain user may ask for at submit time, as Slurm 22.05 answers
(each case checked against the real 22.05 on the oracle cluster):
--priority from a user is ignored (the job is accepted with the computed
priority), a negative --nice is refused, an unknown --reservation is
refused."""

U1 = "sluice_u1"


def test_user_priority_is_ignored(cluster):
    c = cluster
    plain = c.sbatch(["--begin=now+1hour", "--wrap", "true"], user=U1)
    asked = c.sbatch(["--begin=now+1hour", "--priority=5", "--wrap", "true"],
                     user=U1)
    r = c.run(["squeue", "-h", "-o", "%i %Q", "-j", "%d,%d" % (plain, asked)])
    prio = dict(line.split() for line in r.out.splitlines())
    assert prio[str(asked)] != "5", r
    # the computed priority: the later job is not favoured over the earlier
    assert int(prio[str(asked)]) <= int(prio[str(plain)]), r
    # an operator's --priority sticks
    op = c.sbatch(["--begin=now+1hour", "--priority=5", "--wrap", "true"])
    r = c.run(["squeue", "-h", "-o", "%Q", "-j", str(op)])
    assert r.out.strip() == "5", r
    c.run(["scancel", str(plain), str(asked), str(op)])


def test_negative_nice_refused(cluster):
    r = cluster.run(["sbatch", "--nice=-10", "--wrap", "true"], user=U1)
    assert (r.rc, r.out) == (1, ""), r
    assert r.err == ("sbatch: error: Batch job submission failed: "
                     "Invalid --nice value\n"), r


def test_unknown_reservation_refused(cluster):
    r = cluster.run(["sbatch", "--reservation=nosuch", "--wrap", "true"],
                    user=U1)
    assert (r.rc, r.out) == (1, ""), r
    assert r.err == ("sbatch: error: Batch job submission failed: "
                     "Requested reservation is invalid\n"), r
