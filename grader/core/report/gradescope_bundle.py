"""``fcd-grade gradescope-bundle OUT.zip``: the autograder zip to upload to Gradescope.

Gradescope builds an image from the zip, running its ``setup.sh`` once as root, then runs
``run_autograder`` for every submission (the student's files in ``/autograder/submission``), which must
leave ``/autograder/results/results.json``.  The zip holds those two scripts, a copy of this grader's
source (the grader runs from its source: it reads its scenarios and the targets of the students' tests
there), the fcd-grade options chosen here and the marking configuration, checked now so that a mistyped
one fails at the desk rather than on every submission.

``setup.sh`` grades the course's model once: an image that cannot grade fails when staff upload the zip,
not when students submit.  ``run_autograder`` leaves a ``results.json`` whatever fcd-grade does: the
grader's own, or, when the grader itself failed, a score of 0 saying it is not the student's fault.
Both scripts take their root from ``AUTOGRADER_ROOT`` (default ``/autograder``), so they can be run in a
scratch folder, and ``setup.sh`` takes ``FCD_SKIP_APT``, ``FCD_GRADER_SOURCE``, ``FCD_PYTHON`` and
``FCD_PIP_OPTIONS`` (see its header).
"""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
import tempfile
import zipfile
from pathlib import Path

import grader
from grader.core.commands import game_option
from grader.core.config import ConfigError, MarkingConfig
from grader.core.gamespec import GameSpec
from grader.games import get as get_game

SOURCE_DIR = "fcd-grader"  # the grader's source, inside the zip
OPTIONS_FILE = "fcd-grade-options"  # one fcd-grade argument per line
MODEL_FILE = "self-check-model"  # the course's model, relative to the grader's source: setup.sh grades it
CONFIG_FILE = "marking.toml"
SOURCE_TOPS = ("grader", "reference", "fixtures")  # the code, and the data it reads at run time
SOURCE_FILES = ("pyproject.toml", "README.md")  # what pip needs to install it
SKIPPED_DIRS = {"__pycache__", ".pytest_cache", ".hypothesis", "build", "fcd-report"}
SKIPPED_SUFFIXES = {".pyc", ".pyo", ".so", ".o"}

SETUP_SH = r"""#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (written by
# fcd-grade gradescope-bundle).  It installs what grading needs and the grader bundled beside it, then
# grades the course's model once: an image that cannot grade fails here, at upload, not on submissions.
#
#   AUTOGRADER_ROOT    Gradescope's folder (default /autograder); this bundle is in its source/
#   FCD_SKIP_APT=1     install no system package (gcc, bubblewrap, valgrind, Python >= 3.11 are there)
#   FCD_GRADER_SOURCE  the grader's source folder to install (default: the copy in this bundle)
#   FCD_PYTHON         the Python (3.11 or newer) to install it with (default: the newest python3.x found)
#   FCD_PIP_OPTIONS    more options for pip install, e.g. --no-deps where that Python has the dependencies
set -euo pipefail

ROOT="${AUTOGRADER_ROOT:-/autograder}"
SOURCE="$ROOT/source"
VENV="$ROOT/fcd-grader-venv"
GRADER="${FCD_GRADER_SOURCE:-$SOURCE/fcd-grader}"

say() { printf 'setup.sh: %s\n' "$*"; }
die() { printf 'setup.sh: %s\n' "$*" >&2; exit 1; }

recent_python() {  # the Python to use: FCD_PYTHON, or the newest python3.x (3.11 or newer) on PATH
  local py
  if [ -n "${FCD_PYTHON:-}" ]; then set -- "$FCD_PYTHON"; else set -- python3.13 python3.12 python3.11 python3; fi
  for py in "$@"; do
    if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null
    then
      command -v "$py"
      return 0
    fi
  done
  return 1
}

if [ "${FCD_SKIP_APT:-0}" != 1 ]; then
  say "installing gcc, bubblewrap, valgrind and Python"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends gcc libc6-dev bubblewrap valgrind ca-certificates \
    python3 python3-venv python3-pip
  if ! recent_python >/dev/null; then  # Ubuntu 22.04's python3 is 3.10
    apt-get install -y -qq --no-install-recommends python3.11 python3.11-venv || true
  fi
fi

PY="$(recent_python)" || die "no Python 3.11 or newer here: choose a newer Ubuntu base image on Gradescope" \
  "(Ubuntu 24.04 has Python 3.12), or set FCD_PYTHON"
[ -f "$GRADER/pyproject.toml" ] || die "FCD_GRADER_SOURCE=$GRADER is not the grader's source folder" \
  "(no pyproject.toml there): the grader runs from its source, where it reads its scenarios"

say "installing the grader from $GRADER into $VENV, with $PY ($("$PY" --version 2>&1))"
rm -rf "$VENV"
if "$PY" -m pip --version >/dev/null 2>&1; then
  "$PY" -m venv --system-site-packages --without-pip "$VENV"  # this Python's own pip installs into it
else
  "$PY" -m venv --system-site-packages "$VENV"
fi
read -r -a PIP_OPTIONS <<< "${FCD_PIP_OPTIONS:-}"
"$VENV/bin/python" -m pip install --disable-pip-version-check --no-input "${PIP_OPTIONS[@]}" -e "$GRADER"
chmod 755 "$SOURCE/run_autograder"

# Student code is graded only in the sandbox: fcd-grade refuses to run without it, so say now what to change.
if ! SANDBOX="$("$VENV/bin/fcd-grade" sandbox 2>&1)"; then
  die "$SANDBOX" "-- every submission would be refused. Gradescope's default image allows bubblewrap's user" \
    "namespaces; on another base image, apply the fix above (docs/staff-guide.md, 'When the sandbox cannot start')"
fi
say "$SANDBOX"

OPTIONS=()
if [ -f "$SOURCE/fcd-grade-options" ]; then mapfile -t OPTIONS < "$SOURCE/fcd-grade-options"; fi
if [ -f "$SOURCE/marking.toml" ]; then OPTIONS+=(--config "$SOURCE/marking.toml"); fi
MODEL=""
if [ -f "$SOURCE/self-check-model" ]; then MODEL="$(head -n 1 "$SOURCE/self-check-model")"; fi
if [ -z "$MODEL" ]; then
  "$VENV/bin/fcd-grade" --help >/dev/null
  say "done: fcd-grade runs (no model to grade for this game)"
  exit 0
fi
CHECK="$(mktemp -d)"
say "grading the course's model once: this image must give it full marks"
if ! "$VENV/bin/fcd-grade" "$GRADER/$MODEL" --out "$CHECK" "${OPTIONS[@]}"; then
  die "the course's model did not pass here (see above), so this image cannot grade: a sandbox or" \
    "memory-stage problem of this machine? (fcd-grade gradescope-bundle --no-memory leaves the memory stage out)"
fi
rm -rf "$CHECK"
say "done: the grader is installed and gave the course's model full marks"
"""

RUN_AUTOGRADER = r"""#!/usr/bin/env bash
# Gradescope runs this for every submission (written by fcd-grade gradescope-bundle): it grades
# /autograder/submission with fcd-grade and always leaves /autograder/results/results.json -- the
# grader's own, or, when the grader itself failed, a score of 0 saying so.  What went wrong is in this
# script's output, which Gradescope shows staff (not students).
#
#   AUTOGRADER_ROOT  Gradescope's folder (default /autograder)
set -u  # not -e: whatever fcd-grade does, a results.json is written

ROOT="${AUTOGRADER_ROOT:-/autograder}"
SOURCE="$ROOT/source"
SUBMISSION="$ROOT/submission"
RESULTS="$ROOT/results"
REPORT="$ROOT/fcd-report"  # every report fcd-grade writes; results.json is copied from it
VENV="$ROOT/fcd-grader-venv"

FCD_GRADE="$VENV/bin/fcd-grade"
if [ ! -x "$FCD_GRADE" ]; then FCD_GRADE="$(command -v fcd-grade || true)"; fi
PYTHON="$VENV/bin/python"
if [ ! -x "$PYTHON" ]; then PYTHON="$(command -v python3 || true)"; fi

OPTIONS=()
if [ -f "$SOURCE/fcd-grade-options" ]; then mapfile -t OPTIONS < "$SOURCE/fcd-grade-options"; fi
if [ -f "$SOURCE/marking.toml" ]; then OPTIONS+=(--config "$SOURCE/marking.toml"); fi

mkdir -p "$RESULTS"
rm -rf "$REPORT"
code=127
if [ -n "$FCD_GRADE" ]; then
  echo "run_autograder: $FCD_GRADE $SUBMISSION --out $REPORT ${OPTIONS[*]}"
  "$FCD_GRADE" "$SUBMISSION" --out "$REPORT" "${OPTIONS[@]}"
  code=$?
  echo "run_autograder: fcd-grade exited with $code"
else
  echo "run_autograder: fcd-grade is not installed here (did setup.sh run?)"
fi

results_ok() {  # Gradescope's results: a JSON object with its tests (anything is better than nothing without Python)
  [ -s "$1" ] || return 1
  [ -n "$PYTHON" ] || return 0
  "$PYTHON" -c 'import json, sys
data = json.load(open(sys.argv[1], encoding="utf-8"))
sys.exit(not (isinstance(data, dict) and isinstance(data.get("tests"), list)))' "$1"
}

if results_ok "$REPORT/results.json"; then
  cp "$REPORT/results.json" "$RESULTS/results.json.part" && mv "$RESULTS/results.json.part" "$RESULTS/results.json" \
    && exit 0
fi
echo "run_autograder: no results from fcd-grade: writing a score of 0 that says the autograder failed"
cat > "$RESULTS/results.json" <<EOF
@FAILED@
EOF
exit 0
"""
# What a student sees when the grader itself failed (``$code``: fcd-grade's exit code, filled in by the shell).
FAILED = {
    "score": 0,
    "output": "The autograder failed before it could grade your submission (fcd-grade exited with code $code). "
              "This is not your fault: the course staff can see what went wrong, and your submission will be "
              "graded again once it is fixed.",
    "output_format": "md", "visibility": "visible", "stdout_visibility": "hidden", "tests": [],
}
RUN_AUTOGRADER = RUN_AUTOGRADER.replace("@FAILED@", json.dumps(FAILED, indent=1))

README = """This is a Gradescope autograder, written by `fcd-grade gradescope-bundle`.
Upload the zip as it is (Configure Autograder, Zip file upload; an Ubuntu base image).

setup.sh        installs gcc, bubblewrap, valgrind, Python and the grader (fcd-grader/), then grades the
                course's model once: it must get full marks, or the image cannot grade
run_autograder  grades /autograder/submission; always leaves /autograder/results/results.json
fcd-grade-options   the options every submission is graded with (one a line)
marking.toml    the marking configuration (when one was given)
"""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="fcd-grade gradescope-bundle",
        description="Write the autograder zip to upload to Gradescope: setup.sh, run_autograder, this grader's "
                    "source, the options and the marking configuration every submission is graded with.")
    p.add_argument("out", type=Path, help="the zip to write, e.g. autograder.zip")
    p.add_argument("--config", type=Path, default=None,
                   help="a marking configuration (TOML), checked now; default: the shipped one")
    p.add_argument("--random-games", type=int, default=None, metavar="N",
                   help="random games per submission (default: from the configuration; 0 to skip)")
    p.add_argument("--no-memory", action="store_true", help="leave out the memory stage (sanitizers / valgrind)")
    p.add_argument("--no-tests", action="store_true", help="do not grade the students' own tests (testGame.c)")
    p.add_argument("--no-players", action="store_true", help="do not grade the students' players (player.c)")
    game_option(p)
    return p


def source_root() -> Path | None:
    """This grader's source folder (an editable install's checkout), or None when it runs from elsewhere."""
    root = Path(grader.__file__).resolve().parent.parent
    return root if (root / "pyproject.toml").is_file() and (root / "fixtures").is_dir() else None


def source_files(root: Path) -> list[Path]:
    """The files of the grader's source that the bundle carries (no caches, builds or links)."""
    files = [root / name for name in SOURCE_FILES if (root / name).is_file()]
    for top in SOURCE_TOPS:
        for dirpath, dirnames, filenames in os.walk(root / top):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED_DIRS and not d.endswith(".egg-info")
                                 and not os.path.islink(os.path.join(dirpath, d)))
            for name in sorted(filenames):
                path = Path(dirpath) / name
                if path.suffix not in SKIPPED_SUFFIXES and not path.is_symlink() and path.is_file():
                    files.append(path)
    return files


def model_of(game: GameSpec, root: Path) -> str:
    """The course's model of ``game`` (a submission that must get full marks), relative to ``root``; '' if none:
    the one its students' tests run against, or by the fixtures' layout, ``fixtures/<game>/submissions/model``."""
    targets = game.suite_targets() if game.suite_targets is not None else None
    candidates = [targets.model.folder] if targets is not None else []
    candidates.append(root / "fixtures" / game.name / "submissions" / "model")
    for folder in candidates:
        folder = Path(folder).resolve()
        if folder.is_dir() and folder.is_relative_to(root):
            return folder.relative_to(root).as_posix()
    return ""


def fcd_grade_options(args: argparse.Namespace) -> list[str]:
    options = ["--game", args.game]
    if args.random_games is not None:
        options += ["--random-games", str(args.random_games)]
    options += [flag for flag, on in (("--no-memory", args.no_memory), ("--no-tests", args.no_tests),
                                      ("--no-players", args.no_players)) if on]
    return options


def _add(zf: zipfile.ZipFile, name: str, data: bytes, executable: bool = False) -> None:
    info = zipfile.ZipInfo(name, date_time=(2018, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = (stat.S_IFREG | (0o755 if executable else 0o644)) << 16
    zf.writestr(info, data)


def write_bundle(out: Path, root: Path, options: list[str], model: str, config: Path | None) -> int:
    """The zip at ``out`` (written whole, then moved into place); the number of files in it."""
    out.parent.mkdir(parents=True, exist_ok=True)
    files = source_files(root)
    fd, tmp = tempfile.mkstemp(prefix=".bundle-", suffix=".zip", dir=out.parent)
    try:
        with os.fdopen(fd, "wb") as raw, zipfile.ZipFile(raw, "w") as zf:
            _add(zf, "setup.sh", SETUP_SH.encode(), executable=True)
            _add(zf, "run_autograder", RUN_AUTOGRADER.encode(), executable=True)
            _add(zf, "README.txt", README.encode())
            _add(zf, OPTIONS_FILE, "".join(f"{o}\n" for o in options).encode())
            _add(zf, MODEL_FILE, f"{model}\n".encode() if model else b"")
            if config is not None:
                _add(zf, CONFIG_FILE, config.read_bytes())
            for path in files:
                _add(zf, f"{SOURCE_DIR}/{path.relative_to(root).as_posix()}", path.read_bytes())
            count = len(zf.infolist())
        os.chmod(tmp, 0o644)  # (mkstemp made it private)
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return count


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if args.random_games is not None and args.random_games < 0:
        print("fcd-grade gradescope-bundle: --random-games must be 0 or more", file=sys.stderr)
        return 2
    game = get_game(args.game)
    try:
        MarkingConfig.load(args.config, game=game)
    except ConfigError as err:
        print(f"fcd-grade gradescope-bundle: {err}", file=sys.stderr)
        return 2
    root = source_root()
    if root is None:
        print("fcd-grade gradescope-bundle: this grader is not installed from its source folder (pip install -e "
              "DIR), and the bundle carries that folder: run it from a checkout of the grader", file=sys.stderr)
        return 2
    options = fcd_grade_options(args)
    model = model_of(game, root)
    count = write_bundle(args.out, root, options, model, args.config)
    size = args.out.stat().st_size / 1e6
    print(f"Wrote {args.out} ({count} files, {size:.1f} MB): setup.sh, run_autograder and this grader, grading "
          f"{game.title} with {args.config or 'the default marking'} and the options {' '.join(options)}.")
    print("On Gradescope: Configure Autograder, Zip file upload, an Ubuntu base image (Python 3.11 or newer is "
          "installed if missing), Update Autograder.")
    print("Building the image grades the course's model once" + (f" ({model})" if model else "")
          + ": if it does not get full marks there, the build fails and its log says why.")
    return 0
