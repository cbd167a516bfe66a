"""The class as handed in: one submission per entry of ROOT, found, and read for shipping.

What one entry is (a folder or an archive, its sources perhaps a lone folder
down) is ``grader.core.submission``'s to say, for the batch as for a single
``fcd-grade``; here, the class: every entry of ROOT (archives unpacked under
``OUT/unpacked`` to key them by their sources), and what a worker is sent.
A submission goes to a worker as its bytes, as handed in (a folder's files,
or the archive itself), so the worker reads it with the same definition and
a worker on another machine needs no shared file system.
"""

from __future__ import annotations

from pathlib import Path

from grader.core.batch.exports import arrange
from grader.core.submission import MAX_FILES, MAX_UNPACKED, HandedIn, archive_stem, is_submission, open_submission


def discover(root: Path, out: Path) -> tuple[list[HandedIn], list[str]]:
    """Every submission under ``root``, in name order, each with its student when the class is an LMS's
    export (``exports``), and the other entries (left out, an LMS's with why)."""
    arranged = arrange(root, out)
    found: list[HandedIn] = []
    other: list[str] = list(arranged.others)
    for entry, student in arranged.entries:
        if not is_submission(entry):
            other.append(entry.name)
            continue
        handed = open_submission(entry, out / "unpacked" / (archive_stem(entry) or entry.name))
        handed.student = student
        found.append(handed)
    return found, other


def read_files(folder: Path) -> dict[str, bytes]:
    """Every regular file under ``folder`` (relative POSIX path -> bytes): what a worker grades.
    Links are not followed (a link could name any file of the staff's machine)."""
    files: dict[str, bytes] = {}
    total = 0
    for p in sorted(folder.rglob("*")):
        if p.is_symlink() or not p.is_file():
            continue
        rel = p.relative_to(folder).as_posix()
        if rel.startswith(".git/"):
            continue
        data = p.read_bytes()
        total += len(data)
        if total > MAX_UNPACKED or len(files) >= MAX_FILES:
            raise ValueError(f"the submission holds more than {MAX_UNPACKED >> 20} MiB or {MAX_FILES} files")
        files[rel] = data
    return files


def shipped(handed: HandedIn) -> tuple[dict[str, bytes], str]:
    """What a worker is sent for ``handed``: the files of its folder as handed in (the lone folders too) and
    '', or its archive as one file and that file's name (``GradeJob.entry``: what the worker grades)."""
    given = handed.given
    if given.is_dir():
        return read_files(given), ""
    if given.stat().st_size > MAX_UNPACKED:
        raise ValueError(f"{given.name} is larger than {MAX_UNPACKED >> 20} MiB")
    return {given.name: given.read_bytes()}, given.name


def write_files(files: dict[str, bytes], dest: Path) -> None:
    """``read_files``'s output written back under ``dest`` (a submission on a worker, a report folder on the
    client), refusing any path out of it."""
    for rel, data in files.items():
        target = (dest / rel).resolve()
        if not target.is_relative_to(dest.resolve()):
            raise ValueError(f"file {rel!r} points outside {dest.name}")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
