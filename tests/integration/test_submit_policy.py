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


def test_clusters_option(cluster):
    """-M/--clusters as 22.05 answers it: this cluster (or all) is named
    after the job id; an unknown cluster is refused before anything is
    submitted."""
    c = cluster
    name = "sluice"
    r = c.run(["sbatch", "-M", name, "-H", "--wrap", "true"], user=U1)
    assert r.rc == 0 and r.err == "", r
    assert r.out.startswith("Submitted batch job ") and \
        r.out.endswith(" on cluster %s\n" % name), r
    r = c.run(["sbatch", "--parsable", "--clusters=all", "-H", "--wrap",
               "true"], user=U1)
    assert r.rc == 0 and r.out.strip().endswith(";" + name), r
    before = c.run(["squeue", "-h", "-o", "%i"]).out
    r = c.run(["sbatch", "-M", "%s,nosuch" % name, "--wrap", "true"], user=U1)
    assert (r.rc, r.out) == (1, ""), r
    assert r.err == (
        "sbatch: error: No cluster 'nosuch' known by database.\n"
        "sbatch: error: 'nosuch' can't be reached now, or it is an invalid "
        "entry for --cluster.  Use 'sacctmgr list clusters' to see "
        "available clusters.\n"), r
    assert c.run(["squeue", "-h", "-o", "%i"]).out == before
    c.run(["scancel", "-u", U1])
