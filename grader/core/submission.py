"""A submission as a user hands it in, read as the folder of its sources: one definition for ``fcd-grade``
and ``fcd-grade batch``.

A submission is a folder or an archive (.zip, .tar, .tar.gz, .tgz, .tar.bz2,
.tar.xz) with its sources at the top, or down a chain of lone folders:
``gina/ass2/*.c`` is how learning-management systems export a class, and a zip
made from a folder holds that one folder.  A folder with no C source and exactly
one folder in it is followed, and a note says so (what a student handed in is
graded where it is, not failed for where it sits).  A folder with no C source
and one archive in it (Moodle's ``Name_ID_assignsubmission_file_/ass2.zip``,
perhaps beside a receipt) is that archive, unpacked as if given directly.

What cannot be graded says why in its own status (``results.NOT_READ``) and
what to hand in instead: an archive the grader does not unpack (.rar, .7z), a
folder with nothing in it, and an unreadable one.

Archives are unpacked with every member checked: no path out of the folder,
no links or devices, at most 64 MiB and 2000 files.  One that cannot be read
makes the submission unreadable, with the reason in words, never an exception.

A folder's sources are read, never followed: its sources folder's files are
copied (``read_sources``) and every symbolic link is left out with a note naming
it (a link could name any file of the staff's machine, whose text the compiler
would quote into every report), as the archives already leave links out.
"""

from __future__ import annotations

import os
import shutil
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from grader.core.results import NOTHING_HANDED_IN, UNREADABLE, UNSUPPORTED_ARCHIVE, Student

ARCHIVES = (".zip", ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz")
UNSUPPORTED_ARCHIVES = {".rar": "a RAR archive", ".7z": "a 7-Zip archive"}  # seen in class exports; not unpacked
HAND_IN_INSTEAD = "hand in your .c files themselves, or a .zip or .tar.gz of them"
MAX_UNPACKED = 64 * 1024 * 1024  # bytes one submission may hold (an archive: unpack to)
MAX_FILES = 2000  # files one submission may hold
LONE_FOLDERS = 4  # lone folders followed down to the sources, at most
SKIPPED = ("__MACOSX",)  # what an archiver adds beside the student's folder


@dataclass
class HandedIn:
    """What the user named, and where its sources are (``folder``; None when it cannot be read, and why)."""

    name: str  # the folder's name, or the archive's without its extension: the name in reports
    given: Path  # the folder or archive as the user named it
    folder: Path | None
    down: str = ""  # the lone folders followed to the sources, as a path from ``given`` ('' at its top)
    problem: str = ""  # why it cannot be read, and what to hand in instead ('' when it can)
    not_read: str = UNREADABLE  # with a problem: which status it is (``results.NOT_READ``)
    left_out: tuple[str, ...] = ()  # what was not read, and why (a link): notes for the student
    archive: str = ""  # the archive inside the folder that is the hand-in, as a path from ``given`` ('': none)
    student: Student | None = None  # who handed it in, when the class is an LMS's export (``batch.exports``)

    @property
    def notes(self) -> list[str]:
        """What was done to find the sources, in words, for the console and the report."""
        if self.archive:
            inside = f" (its sources {self.down} in it)" if self.down else ""
            found = [f"Your hand-in is the archive {_shown(self.given)}/{self.archive}{inside}: it was unpacked and "
                     f"graded as if handed in alone."]
        else:
            found = [f"The sources are in {_shown(self.given)}/{self.down}: graded from there."] if self.down else []
        return [*found, *self.left_out]


def _shown(path: Path) -> str:
    """A path's own name, also for ``.`` (the folder the user is in)."""
    return path.name if path.name not in ("", ".", "..") else path.resolve().name


def archive_stem(path: Path) -> str | None:
    """The archive's name without its extension; None when ``path`` is not named as an archive."""
    for ext in ARCHIVES:
        if path.name.lower().endswith(ext):
            return path.name[: -len(ext)]
    return None


def unsupported_archive(path: Path) -> str | None:
    """What kind of archive the grader does not unpack ``path`` is named as (``a RAR archive``), or None."""
    return next((kind for ext, kind in UNSUPPORTED_ARCHIVES.items() if path.name.lower().endswith(ext)), None)


def is_submission(path: Path) -> bool:
    """A folder, or a file named as an archive, one the grader does not unpack too (whether it unpacks is
    ``open_submission``'s to say)."""
    named = archive_stem(path) is not None or unsupported_archive(path) is not None
    return path.is_dir() or (path.is_file() and named)


def _check_members(members: list[tuple[str, int]], dest: Path) -> None:
    if len(members) > MAX_FILES:
        raise ValueError(f"the archive holds more than {MAX_FILES} files")
    total = 0
    for name, size in members:
        target = (dest / name).resolve()
        if not target.is_relative_to(dest.resolve()):
            raise ValueError(f"archive member {name!r} points outside the archive")
        total += size
        if total > MAX_UNPACKED:
            raise ValueError(f"the archive unpacks to more than {MAX_UNPACKED >> 20} MiB")


def unpack(archive: Path, dest: Path) -> None:
    """Unpack one archive into ``dest`` (made afresh), every member checked first.  Raises ValueError,
    OSError, zipfile.BadZipFile or tarfile.TarError: ``open_submission`` says them in words."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    if archive.name.lower().endswith(".zip"):
        with zipfile.ZipFile(archive) as z:
            _check_members([(i.filename, i.file_size) for i in z.infolist()], dest)
            z.extractall(dest)
    else:
        with tarfile.open(archive) as t:
            members = [m for m in t.getmembers() if m.isfile() or m.isdir()]  # no links, no devices
            _check_members([(m.name, m.size) for m in members], dest)
            t.extractall(dest, members=members, filter="data")


def _visible(folder: Path) -> list[Path]:
    return [p for p in folder.iterdir() if not p.name.startswith(".") and p.name not in SKIPPED]


def sources_folder(folder: Path) -> Path:
    """``folder``, or the folder its sources sit in down a chain of lone folders (no ``.c`` file beside one
    folder; other files such as a receipt may sit beside it)."""
    for _ in range(LONE_FOLDERS):
        entries = _visible(folder)
        folders = [p for p in entries if p.is_dir() and not p.is_symlink()]
        if any(p.suffix == ".c" and p.is_file() for p in entries) or len(folders) != 1:
            break
        folder = folders[0]
    return folder


def link_note(name: str, target: str, inside: bool) -> str:
    """Why a link of the submission was not read, and what to do instead."""
    where = "another file of your submission" if inside else "a file outside your submission"
    return (f"{name} is a link to {where} ({target}), and links are not followed: it was left out. "
            f"Hand in the file itself.")


def read_sources(folder: Path, dest: Path) -> tuple[str, ...]:
    """Copy ``folder``'s regular files (its top: where the grader reads sources, tests and players) to ``dest``,
    following no link: each link is left out, and the notes saying so are returned.  ValueError when the folder
    holds more than a submission may."""
    dest.mkdir(parents=True, exist_ok=True)
    notes: list[str] = []
    total = files = 0
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.is_symlink():
            target = os.readlink(entry.path)
            inside = (folder / target).resolve().is_relative_to(folder.resolve()) and not Path(target).is_absolute()
            notes.append(link_note(entry.name, target, inside))
        elif entry.is_file(follow_symlinks=False):
            files += 1
            total += entry.stat(follow_symlinks=False).st_size
            if files > MAX_FILES or total > MAX_UNPACKED:
                raise ValueError(f"it holds more than {MAX_UNPACKED >> 20} MiB or {MAX_FILES} files")
            with open(entry.path, "rb", opener=_no_follow) as src, open(dest / entry.name, "wb") as out:
                shutil.copyfileobj(src, out)
    return tuple(notes)


def _no_follow(path: str, flags: int) -> int:
    """Open without following a link (one put in place after the check is refused, not read)."""
    return os.open(path, flags | os.O_NOFOLLOW)


def _holds_nothing(folder: Path) -> bool:
    """No file anywhere under ``folder`` but what an archiver or a system adds (dot files, ``__MACOSX``)."""
    return not any(p.is_file() or p.is_symlink() for p in folder.rglob("*")
                   if not any(part.startswith(".") or part in SKIPPED for part in p.relative_to(folder).parts))


def _archive_within(found: Path) -> Path | None:
    """The one archive a sources folder with no C source holds (Moodle's ``.../ass2.zip``), or None."""
    entries = _visible(found)
    if any(p.suffix == ".c" for p in entries):
        return None
    archives = [p for p in entries if p.is_file() and not p.is_symlink()
                and (archive_stem(p) is not None or unsupported_archive(p) is not None)]
    return archives[0] if len(archives) == 1 else None


def _not_read(name: str, given: Path, problem: str, status: str = UNREADABLE) -> HandedIn:
    return HandedIn(name, given, None, problem=problem, not_read=status)


def open_submission(given: Path, scratch: Path) -> HandedIn:
    """The submission ``given`` names, its sources found and read into ``scratch`` (an archive unpacked there,
    a folder's sources copied there without following a link; an archive that is a folder's only hand-in
    unpacked there too).  ``given`` must be a folder or an archive (``is_submission``)."""
    stem = archive_stem(given) if not given.is_dir() else None
    name = stem if stem is not None else _shown(given)
    if (kind := unsupported_archive(given)) is not None and not given.is_dir():
        return _not_read(given.name[: given.name.rfind(".")] or given.name, given,
                         f"{given.name} is {kind}, which the grader does not unpack: {HAND_IN_INSTEAD}",
                         UNSUPPORTED_ARCHIVE)
    top = given
    if stem is not None:
        try:
            unpack(given, scratch)
        except (ValueError, OSError, EOFError, zipfile.BadZipFile, tarfile.TarError) as err:
            return _not_read(name, given, f"could not unpack {given.name}: {err}")
        top = scratch
    elif _holds_nothing(given):
        return _not_read(name, given, f"{_shown(given)} holds no file: nothing was handed in ({HAND_IN_INSTEAD})",
                         NOTHING_HANDED_IN)
    try:
        found = sources_folder(top)
        down = found.relative_to(top).as_posix() if found != top else ""
        if stem is None and (inner := _archive_within(found)) is not None:
            return _inner_archive(name, given, inner, down, scratch)
        if stem is not None:
            return HandedIn(name, given, found, down)
        copy = scratch / "sources"
        if copy.exists():
            shutil.rmtree(copy)
        left_out = read_sources(found, copy)
    except (OSError, ValueError) as err:
        return HandedIn(name, given, None, problem=f"could not read {given.name}: {err}")
    return HandedIn(name, given, copy, down, left_out=left_out)


def _inner_archive(name: str, given: Path, archive: Path, down: str, scratch: Path) -> HandedIn:
    """A folder whose hand-in is one archive: that archive, opened as if given directly, with a note saying so."""
    inner = open_submission(archive, scratch / "archive")
    if inner.folder is None:
        return _not_read(name, given, inner.problem, inner.not_read)
    where = f"{down}/{archive.name}" if down else archive.name
    return HandedIn(name, given, inner.folder, inner.down, left_out=inner.left_out, archive=where)
