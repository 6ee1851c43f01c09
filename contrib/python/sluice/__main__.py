"""python3 -m sluice: the compute-side runner and a few helpers.

    python3 -m sluice run JOBDIR     run the staged call (the batch script
                                     does this; see runner.py)
    python3 -m sluice version        print the SDK's version
"""

import sys

from . import __version__


def main(argv):
    if len(argv) == 2 and argv[0] == "run":
        from . import runner
        return runner.run(argv[1])
    if argv in (["version"], ["--version"]):
        print("sluice %s" % __version__)
        return 0
    print(__doc__.strip(), file=sys.stderr)
    return 0 if argv in (["help"], ["-h"], ["--help"]) else 2


def console():
    """The `sluice` command that pip installs."""
    sys.exit(main(sys.argv[1:]))


if __name__ == "__main__":
    console()
