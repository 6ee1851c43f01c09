"""A batch script sees the arguments given after its name, as $1 $2 ...,
and $0 is the script itself (sbatch script.sh a 'b c')."""
import os


def test_script_arguments(cluster, users):
    user = users[0].pw_name
    wd = cluster.workdir(user)
    script = os.path.join(wd, "args.sh")
    cluster.write_file(user, script,
                       "#!/bin/sh\n#SBATCH -J argsjob\n"
                       "echo \"n=$# 1=$1 2=$2\"\n", mode=0o755)
    out = os.path.join(wd, "args-%j.out")
    jobid = cluster.sbatch(["-o", out, script, "a", "b c"], user=user, cwd=wd)
    assert cluster.wait_done(jobid, timeout=60) == "COMPLETED"
    with open(out.replace("%j", str(jobid))) as f:
        assert f.read() == "n=2 1=a 2=b c\n"


def test_wrap_has_no_arguments(cluster, users):
    user = users[0].pw_name
    wd = cluster.workdir(user)
    out = os.path.join(wd, "wrapargs-%j.out")
    jobid = cluster.sbatch(["-o", out, "--wrap", "echo n=$#"], user=user, cwd=wd)
    assert cluster.wait_done(jobid, timeout=60) == "COMPLETED"
    with open(out.replace("%j", str(jobid))) as f:
        assert f.read() == "n=0\n"
