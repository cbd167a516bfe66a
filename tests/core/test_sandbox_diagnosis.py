"""When bubblewrap is installed but cannot create its namespaces, the grader names the cause the system gives and
the fix for that cause -- never "apt-get install bubblewrap" -- and a batch refuses to grade, saying so.

Each cause is faked the way the system shows it: its /proc and /sys files (under a test root) and what bwrap
prints for it (bubblewrap 0.8's own messages, as Debian and Ubuntu ship it).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from grader.core import isolation
from grader.core.batch import requirements
from grader.core.batch.requirements import WorkerRefused, check_worker
from grader.core.isolation import Diagnosis, Mode, diagnose

BWRAP = "/usr/bin/bwrap"
UID_MAP = "bwrap: setting up uid map: Permission denied\n"
EPERM = ("bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged "
         "user namespaces. See <https://deb.li/bubblewrap> or <file:///usr/share/doc/bubblewrap/README.Debian.gz>.\n")
ENOSPC = "bwrap: Creating new namespace failed: nesting depth or /proc/sys/user/max_*_namespaces exceeded (ENOSPC)\n"
EINVAL = ("bwrap: Creating new namespace failed, likely because the kernel does not support user namespaces.  "
          "bwrap must be installed setuid on such systems.\n")


def _system(root: Path, files: dict[str, str]) -> Path:
    """A machine's settings as files under ``root`` (``proc/sys/...``, ``.dockerenv``)."""
    defaults = {"proc/sys/user/max_user_namespaces": "63439"}
    for name, text in {**defaults, **files}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text + "\n")
    return root


def _says_no_install(d: Diagnosis) -> None:
    assert d.package is None
    assert "apt-get install" not in str(d) and "install bubblewrap" not in str(d)


def test_apparmor_restriction_names_the_sysctl_and_its_fix(tmp_path: Path) -> None:
    root = _system(tmp_path, {"proc/sys/kernel/apparmor_restrict_unprivileged_userns": "1"})
    d = diagnose(UID_MAP, BWRAP, root)
    assert "AppArmor restricts unprivileged user namespaces" in d.cause
    assert "kernel.apparmor_restrict_unprivileged_userns = 1, Ubuntu 24.04's default" in d.cause
    assert 'bwrap says "bwrap: setting up uid map: Permission denied"' in d.cause
    assert d.fix.startswith("sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0")
    assert "AppArmor profile" in d.fix and "container" not in str(d)
    _says_no_install(d)


def test_apparmor_restriction_of_the_network_setup_too(tmp_path: Path) -> None:
    root = _system(tmp_path, {"proc/sys/kernel/apparmor_restrict_unprivileged_userns": "1"})
    d = diagnose("bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted\n", BWRAP, root)
    assert "AppArmor" in d.cause and "kernel.apparmor_restrict_unprivileged_userns=0" in d.fix
    _says_no_install(d)


def test_user_namespaces_disabled_names_max_user_namespaces(tmp_path: Path) -> None:
    root = _system(tmp_path, {"proc/sys/user/max_user_namespaces": "0"})
    d = diagnose(ENOSPC, BWRAP, root)
    assert "user namespaces are disabled (user.max_user_namespaces = 0)" in d.cause
    assert d.fix.startswith("sudo sysctl -w user.max_user_namespaces=15000")
    assert "/etc/sysctl.d/" in d.fix  # and how to keep it after a reboot
    _says_no_install(d)


def test_debian_switch_names_unprivileged_userns_clone(tmp_path: Path) -> None:
    root = _system(tmp_path, {"proc/sys/kernel/unprivileged_userns_clone": "0"})
    d = diagnose(EPERM, BWRAP, root)
    assert "kernel.unprivileged_userns_clone = 0" in d.cause
    assert d.fix.startswith("sudo sysctl -w kernel.unprivileged_userns_clone=1")
    _says_no_install(d)


def test_docker_default_seccomp_names_the_container_and_its_options(tmp_path: Path) -> None:
    root = _system(tmp_path, {".dockerenv": ""})
    d = diagnose(EPERM, BWRAP, root)
    assert "this runs in a container without user namespaces" in d.cause
    assert "seccomp profile (Docker's default) refuses to create user namespaces" in d.cause
    assert "--security-opt seccomp=unconfined" in d.fix and "--privileged" in d.fix
    assert "apparmor_restrict" not in d.fix  # not an Ubuntu 24.04 host
    _says_no_install(d)


def test_container_on_an_ubuntu_24_04_host_names_both(tmp_path: Path) -> None:
    root = _system(tmp_path, {"proc/1/cgroup": "0::/system.slice/docker-0123abcd.scope",
                              "proc/sys/kernel/apparmor_restrict_unprivileged_userns": "1"})
    d = diagnose("bwrap: Failed to make / slave: Permission denied\n", BWRAP, root)
    assert "container" in d.cause and "AppArmor profile (docker-default) refuses mounts" in d.cause
    assert "--security-opt apparmor=unconfined" in d.fix
    assert "and on the host, which restricts user namespaces too (Ubuntu 24.04): sudo sysctl -w " \
           "kernel.apparmor_restrict_unprivileged_userns=0" in d.fix
    _says_no_install(d)


def test_a_kernel_without_user_namespaces_names_the_setuid_bit_it_would_need(tmp_path: Path) -> None:
    root = _system(tmp_path, {})
    d = diagnose(EINVAL, BWRAP, root)
    assert "the kernel has no user namespaces, where bwrap would need its setuid bit" in d.cause
    assert "a kernel with user namespaces" in d.fix
    assert "setuid" in d.fix  # and why making bwrap setuid is no fix for this sandbox
    _says_no_install(d)


def test_a_setuid_bwrap_is_named_with_its_fix(tmp_path: Path) -> None:
    d = diagnose("bwrap: The --size option is not permitted in setuid mode\n", BWRAP, _system(tmp_path, {}))
    assert "installed setuid root" in d.cause and d.fix.startswith(f"sudo chmod u-s {BWRAP}")
    _says_no_install(d)


def test_an_unknown_refusal_quotes_bwrap_and_points_to_the_guide(tmp_path: Path) -> None:
    d = diagnose("bwrap: Can't find source path /lib64: No such file or directory\n", BWRAP, _system(tmp_path, {}))
    assert "Can't find source path /lib64" in d.cause and "docs/staff-guide.md" in d.fix
    _says_no_install(d)


def test_bwrap_missing_is_the_one_cause_fixed_by_installing_it(tmp_path: Path) -> None:
    d = diagnose("", None, _system(tmp_path, {}))
    assert d.cause == "bubblewrap (bwrap) is not installed" and d.package == "bubblewrap"
    assert "apt-get install bubblewrap" in str(d)


@pytest.fixture
def fresh_checks() -> object:
    """The mode and the machine's checks are computed once per process: start and end each test afresh."""
    detect_mode = isolation.detect_mode  # the real one, whatever a test puts in its place
    detect_mode.cache_clear()
    requirements.worker_problems.cache_clear()
    yield
    detect_mode.cache_clear()
    requirements.worker_problems.cache_clear()


def test_detect_mode_says_the_cause_and_the_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                fresh_checks: object) -> None:
    monkeypatch.delenv("FCD_SANDBOX", raising=False)
    monkeypatch.setattr(isolation, "_bwrap_refusal", lambda bwrap: UID_MAP)
    root = _system(tmp_path, {"proc/sys/kernel/apparmor_restrict_unprivileged_userns": "1"})
    mode = isolation.detect_mode(root)
    assert mode.name == "degraded" and mode.diagnosis is not None
    assert "AppArmor restricts unprivileged user namespaces" in mode.why
    assert "Fix: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0" in mode.why


def _degraded(monkeypatch: pytest.MonkeyPatch, diagnosis: Diagnosis) -> None:
    monkeypatch.setattr(isolation, "detect_mode", lambda root=Path("/"): Mode("degraded", str(diagnosis), diagnosis))


def test_a_batch_worker_refuses_with_the_cause_and_fix_not_an_install_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_checks: object) -> None:
    root = _system(tmp_path, {"proc/sys/kernel/apparmor_restrict_unprivileged_userns": "1"})
    _degraded(monkeypatch, diagnose(UID_MAP, BWRAP, root))
    with pytest.raises(WorkerRefused) as refused:
        check_worker()
    message = str(refused.value)
    assert message.startswith("this machine cannot grade: no sandbox: bubblewrap is installed but cannot create its "
                              "namespaces: AppArmor restricts unprivileged user namespaces")
    assert "Fix: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0" in message
    assert "apt-get install" not in message


def test_the_install_line_names_only_what_is_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     fresh_checks: object) -> None:
    root = _system(tmp_path, {"proc/sys/kernel/apparmor_restrict_unprivileged_userns": "1"})
    _degraded(monkeypatch, diagnose(UID_MAP, BWRAP, root))
    (tmp_path / "bin").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))  # no gcc here
    problems = requirements.worker_problems()
    assert problems[0] == "gcc is not installed (or not on PATH)"
    assert "AppArmor" in problems[1]
    assert problems[-1].startswith("install: apt-get install gcc (see docs/staff-guide.md")

    requirements.worker_problems.cache_clear()
    _degraded(monkeypatch, diagnose("", None, root))
    assert requirements.worker_problems()[-1].startswith("install: apt-get install gcc bubblewrap (")


def test_a_local_batch_on_a_machine_whose_sandbox_cannot_start_says_why_and_exits_2(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        fresh_checks: object) -> None:
    from grader.core.cli import main  # noqa: PLC0415

    root = _system(tmp_path / "system", {"proc/sys/kernel/apparmor_restrict_unprivileged_userns": "1"})
    _degraded(monkeypatch, diagnose(UID_MAP, BWRAP, root))
    klass = tmp_path / "class"
    (klass / "alice").mkdir(parents=True)
    model = Path(__file__).resolve().parents[2] / "fixtures" / "submissions" / "model"
    for f in model.iterdir():
        if f.is_file():
            (klass / "alice" / f.name).write_bytes(f.read_bytes())
    code = main(["batch", str(klass), "--out", str(tmp_path / "out"), "--random-games", "0", "--no-memory",
                 "--no-tests"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "cannot grade: no sandbox: bubblewrap is installed but cannot create its namespaces" in err
    assert "Fix: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0" in err
    assert "apt-get install" not in err
    assert not os.path.exists(tmp_path / "out" / "class.csv")  # nothing graded unsandboxed


def test_a_grading_child_that_lost_its_sandbox_is_not_a_result(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker's check passed, but the fcd-grade process it starts found no sandbox (here: told so by
    FCD_SANDBOX=none; in real life, a bubblewrap check that timed out under load): that grading ran student
    code unsandboxed, so it is a grader error naming why (regraded by the next run), never a mark."""
    from grader.core.batch import task  # noqa: PLC0415
    from grader.core.batch.requirements import worker_problems  # noqa: PLC0415

    if worker_problems():
        pytest.skip(f"this machine cannot grade: {worker_problems()}")
    model = Path(__file__).resolve().parents[2] / "fixtures" / "submissions" / "model"
    files = {c.name: c.read_bytes() for c in model.glob("*.c")}
    monkeypatch.setenv("FCD_SANDBOX", "none")  # the child's own detect_mode degrades
    out = task.grade_submission(task.GradeJob("model", files, "fcd18s2", None,
                                              ("--random-games", "0", "--no-memory", "--no-tests"), 300.0))
    assert out.result["status"] == "grader error"
    assert "graded without the sandbox" in json.dumps(out.result) and "FCD_SANDBOX=none" in json.dumps(out.result)
