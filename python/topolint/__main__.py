"""`python3 -m topolint ARGS...` (and the `topolint` console script a pip
install makes) runs the `topolint` command with ARGS.

The command is $TOPOLINT_BINARY, else the one bundled in the package by
`pip install ./python` (or installed next to it by `cmake --install`), else
`topolint` on PATH. The process is replaced by it (exec), so its output and
exit code are the command's (0 clean, 1 findings, 2 usage error)."""
import os
import shutil
import sys


def _binary():
    env = os.environ.get("TOPOLINT_BINARY")
    if env:
        return env
    try:
        from topolint import _install  # type: ignore

        here = os.path.dirname(os.path.abspath(__file__))
        path = os.path.normpath(os.path.join(here, _install.BINARY))
        if os.access(path, os.X_OK):
            return path
    except ImportError:
        pass
    found = shutil.which("topolint")
    if found and sys.argv and os.path.exists(sys.argv[0]) and \
            os.path.samefile(found, sys.argv[0]):
        return None  # PATH leads back to this console script
    return found


def main():
    binary = _binary()
    if binary is None:
        sys.stderr.write("topolint: error: the topolint command is not "
                         "installed (set TOPOLINT_BINARY)\n")
        return 2
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(binary, [binary] + sys.argv[1:])
    return 2  # not reached


if __name__ == "__main__":
    sys.exit(main())
