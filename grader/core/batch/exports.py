"""A class as a learning-management system exports it: one hand-in per student, and who that student is.

Each LMS names what it exports in its own way (their documentation; the fixture classes under
``fixtures/classes/`` follow it):

- **Moodle** ("Download all submissions"): a folder per student and plugin, ``Firstname Lastname_1234567_
  assignsubmission_file_/`` (the number is the participant's, as the grading worksheet's ``Participant
  1234567``), an ``..._assignsubmission_onlinetext_/`` folder beside it when the assignment takes text too;
  without "in folders", the same names with the file's name appended, flat.
- **Canvas** ("Download Submissions"): flat files ``lastnamefirstname_12345_67890_Game.c`` (user id, then
  submission id), ``lastnamefirstname_LATE_12345_67890_Game.c`` for a late one; a file uploaded again under
  the same name gets ``-1``, ``-2`` before its extension, which is undone (the highest is the latest).
- **Gradescope** ("Export Submissions"): a folder ``submission_1001/`` per submission and
  ``submission_metadata.yml`` naming each one's submitters (``:name:``, ``:sid:``, ``:email:``) and
  ``:created_at:``.

Anything else is a class of one folder or archive per student, named as the folder or archive is.  Files an
export spreads over the class folder are gathered into a folder per student under ``OUT/handed-in/``
(``Arranged.entries``), which is then read like any submission (``grader.core.submission``).
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from grader.core.results import Student

MOODLE = re.compile(r"^(?P<name>.+?)_(?P<id>\d+)_assignsubmission_(?P<plugin>[a-z]+)_(?P<file>.*)$")
MOODLE_FILE_PLUGIN = "file"
CANVAS = re.compile(r"^(?P<name>[a-z0-9]+)(?P<late>_late)?_(?P<user>\d+)_(?P<sub>\d+)_(?P<file>.+)$", re.IGNORECASE)
CANVAS_AGAIN = re.compile(r"^(?P<stem>.+?)-(?P<n>\d+)(?P<ext>\.[^.]+)?$")  # Game-1.c: uploaded again
GRADESCOPE_METADATA = "submission_metadata.yml"


@dataclass
class Arranged:
    """What to read as the class's submissions, each with its student where the export names one."""

    lms: str  # "moodle", "canvas", "gradescope", or "" (one folder or archive per student)
    entries: list[tuple[Path, Student | None]] = field(default_factory=list)
    others: list[str] = field(default_factory=list)  # entries left out, each with why


def _visible(root: Path) -> list[Path]:
    return sorted(p for p in root.iterdir() if not p.name.startswith("."))


def _gather(files: dict[str, Path], dest: Path) -> Path:
    """``files`` (name to hand in -> where the export put it) copied into a folder of their own (a link is not
    followed: it is left out, as a folder's are)."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    for name, source in files.items():
        if not source.is_symlink():
            shutil.copyfile(source, dest / name)
    return dest


def _moodle(root: Path, out: Path, entries: list[Path]) -> Arranged:
    arranged = Arranged("moodle")
    by_student: dict[tuple[str, str], dict[str, list[Path]]] = {}
    for p in entries:
        m = MOODLE.match(p.name)
        if m is None:
            arranged.others.append(f"{p.name} (not named as Moodle names a hand-in)")
            continue
        plugins = by_student.setdefault((m["name"], m["id"]), {})
        plugins.setdefault(m["plugin"], []).append(p)
    for (name, number), plugins in sorted(by_student.items()):
        student = Student(name=name, student_id=number, lms="moodle")
        handed = plugins.get(MOODLE_FILE_PLUGIN) or next(iter(plugins.values()))
        for plugin, paths in plugins.items():
            if paths is not handed:
                arranged.others.extend(f"{p.name} ({name}'s {plugin} hand-in: the files are graded)" for p in paths)
        if len(handed) == 1 and handed[0].is_dir():
            arranged.entries.append((handed[0], student))
        else:  # flat: one file an entry
            key = f"{name}_{number}_assignsubmission_{MOODLE_FILE_PLUGIN}_"
            files = {m["file"]: p for p in handed if (m := MOODLE.match(p.name)) and m["file"] and p.is_file()}
            arranged.entries.append((_gather(files, out / "handed-in" / key), student))
    return arranged


def _undo_again(name: str) -> tuple[str, int]:
    """``Game-2.c`` -> (``Game.c``, 2); ``Game.c`` -> (``Game.c``, 0)."""
    m = CANVAS_AGAIN.match(name)
    return (m["stem"] + (m["ext"] or ""), int(m["n"])) if m else (name, 0)


def _canvas(root: Path, out: Path, entries: list[Path]) -> Arranged:
    arranged = Arranged("canvas")
    by_student: dict[tuple[str, str], list[tuple[Path, re.Match[str]]]] = {}
    for p in entries:
        m = CANVAS.match(p.name)
        if m is None or not p.is_file():
            arranged.others.append(f"{p.name} (not named as Canvas names a submission's file)")
            continue
        by_student.setdefault((m["name"].lower(), m["user"]), []).append((p, m))
    for (name, user), found in sorted(by_student.items()):
        latest: dict[str, tuple[int, Path]] = {}
        for p, m in found:
            original, again = _undo_again(m["file"])
            if original not in latest or again > latest[original][0]:
                latest[original] = (again, p)
        late = any(m["late"] for _, m in found)
        student = Student(name=name, student_id=user, lms="canvas", late=late)
        files = {original: p for original, (_, p) in latest.items()}
        arranged.entries.append((_gather(files, out / "handed-in" / f"{name}_{user}"), student))
    return arranged


def _submitters(meta: Any) -> Student | None:
    """One submission's entry of ``submission_metadata.yml`` as its student(s) (a group: names joined)."""
    if not isinstance(meta, dict):
        return None
    people = [s for s in meta.get(":submitters") or [] if isinstance(s, dict)]

    def each(key: str) -> str:
        return ", ".join(str(s[key]) for s in people if s.get(key) not in (None, ""))

    when = meta.get(":created_at")
    return Student(name=each(":name"), student_id=each(":sid"), email=each(":email"), lms="gradescope",
                   submitted_at=str(when) if when is not None else "")


def _gradescope(root: Path, entries: list[Path]) -> Arranged:
    arranged = Arranged("gradescope")
    try:
        metadata = yaml.safe_load((root / GRADESCOPE_METADATA).read_text(encoding="utf-8", errors="replace")) or {}
    except (OSError, yaml.YAMLError) as err:
        arranged.others.append(f"{GRADESCOPE_METADATA} (could not be read: {err}; no names or IDs)")
        metadata = {}
    for p in entries:
        if p.name == GRADESCOPE_METADATA:
            continue
        arranged.entries.append((p, _submitters(metadata.get(p.name)) if isinstance(metadata, dict) else None))
    return arranged


def which_lms(root: Path) -> str:
    """Which LMS exported ``root`` ('' for a plain class): Gradescope by its metadata file; Moodle when every
    entry is named as Moodle names one; Canvas when every file is named as Canvas names one."""
    entries = _visible(root)
    if (root / GRADESCOPE_METADATA).is_file():
        return "gradescope"
    if entries and all(MOODLE.match(p.name) for p in entries):
        return "moodle"
    files = [p for p in entries if p.is_file()]
    if files and len(files) == len(entries) and all(CANVAS.match(p.name) for p in files):
        return "canvas"
    return ""


def arrange(root: Path, out: Path) -> Arranged:
    """The class folder ``root`` as hand-ins, gathering into ``OUT/handed-in/`` what an export spread flat."""
    entries = _visible(root)
    lms = which_lms(root)
    if lms == "gradescope":
        return _gradescope(root, entries)
    if lms == "moodle":
        return _moodle(root, out, entries)
    if lms == "canvas":
        return _canvas(root, out, entries)
    return Arranged("", [(p, None) for p in entries])
