"""The similarity check (``grader.core.similarity``) on small classes built here: a disguised copy ranks above
every pair of unrelated implementations, a starter file named as boilerplate is not counted, a rerun scores
nothing it has scored, the scores are copydetect's, and the commands and the configuration say what is wrong.
(tests/core/test_similarity_browser.py opens the pages in Chromium.)"""

from __future__ import annotations

import csv
import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from copydetect.detector import compare_files
from copydetect.utils import filter_code, get_token_coverage

from grader.core.cli import main
from grader.core.config import ConfigError, MarkingConfig
from grader.core.similarity.check import SimilarityReport, check
from grader.core.similarity.compare import Index
from grader.core.similarity.disguise import LIBRARY, declared, disguise
from grader.core.similarity.documents import IMPLEMENTATION, TESTS, documents
from grader.core.similarity.fingerprint import fingerprint, raw_spans
from grader.core.similarity.settings import SimilaritySettings
from grader.core.similarity.store import SimilarityStore
from grader.games import get

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
MODEL = FIXTURES / "submissions" / "model"
INDEPENDENT = FIXTURES / "submissions" / "independent"
MODEL_17 = FIXTURES / "fcd17s2" / "submissions" / "model"
PALACE = FIXTURES / "palace" / "submissions" / "model"
GAME = get("fcd18s2")
KEEP = declared((GAME.include_dir / h).read_text() for h in GAME.course_headers)
C_WORDS = frozenset("auto break case char const continue default do double else enum extern float for goto if int "
                    "long register return short signed sizeof static struct switch typedef union unsigned void "
                    "volatile while".split())


def settings(config: Path | None = None, threshold: float | None = None) -> SimilaritySettings:
    return SimilaritySettings.of(MarkingConfig.load(config, game=GAME), threshold)


def run(root: Path, store: Path, chosen: SimilaritySettings | None = None) -> SimilarityReport:
    with SimilarityStore(store) as s:
        return check([(p.name, p) for p in sorted(root.iterdir())], GAME, chosen or settings(), s)


def student(root: Path, name: str, files: dict[str, str]) -> Path:
    (root / name).mkdir(parents=True)
    for file, text in files.items():
        (root / name / file).write_text(text)
    return root / name


@pytest.fixture(scope="module")
def klass(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The three games' models, the independent 2018 implementation, and ``copier``: the 2018 model with every
    name of its own renamed, its functions reordered and its comments replaced."""
    root = tmp_path_factory.mktemp("class")
    shutil.copytree(MODEL, root / "model18")
    shutil.copytree(INDEPENDENT, root / "independent")
    student(root, "model17", {"Game.c": (MODEL_17 / "Game.c").read_text()})
    student(root, "palace", {"Palace.c": (PALACE / "Palace.c").read_text()})
    student(root, "copier", {"Game.c": disguise((MODEL / "Game.c").read_text(), 11, KEEP)})
    return root


def test_the_disguise_changes_names_order_and_comments(klass: Path) -> None:
    """The copy is a real disguise: not one comment or own name of the model's is left, and its functions come
    in another order."""
    model, copy = (MODEL / "Game.c").read_text(), (klass / "copier" / "Game.c").read_text()
    comments = re.findall(r"/\*.*?\*/|//[^\n]*", model, re.S)
    assert comments and not any(c in copy for c in comments)
    code = re.sub(r"^\s*#.*$", "", re.sub(r"/\*.*?\*/|//[^\n]*", "", model, flags=re.S), flags=re.M)
    macros = set(re.findall(r"#\s*define\s+(\w+)", model))  # kept, as a copier would
    own = set(re.findall(r"\b[A-Za-z_]\w*\b", code)) - KEEP - LIBRARY - C_WORDS - macros
    assert len(own) > 30 and not any(re.search(rf"\b{w}\b", copy) for w in own)
    api = [f for f in GAME.api_functions if re.search(rf"^\w[\w *]*\b{f}\(", model, re.M)]
    order = [min(m.start() for m in re.finditer(rf"\b{f}\(", text)) for text in (model, copy) for f in api]
    assert sorted(api, key=lambda f: order[api.index(f)]) != sorted(api, key=lambda f: order[len(api) + api.index(f)])


def test_a_disguised_copy_ranks_above_every_pair_of_unrelated_implementations(klass: Path, tmp_path: Path) -> None:
    report = run(klass, tmp_path / "store.sqlite", settings(threshold=0.0))  # every pair that shares anything
    ranked = [(p.a.submission, p.b.submission, p.score) for p in report.pairs if p.kind == IMPLEMENTATION]
    assert len(ranked) == 10  # every pair of five shares some code (short common idioms)
    first, *rest = ranked
    assert first[:2] == ("copier", "model18")
    assert min(first[2].sim_a, first[2].sim_b) > 0.8
    assert all(score.top < 0.5 for _a, _b, score in rest)  # the default threshold lists the copy alone
    assert first[2].top > max(score.top for _a, _b, score in rest) + 0.4
    listed = run(klass, tmp_path / "store.sqlite")  # the default threshold, from the store
    assert [(p.a.submission, p.b.submission) for p in listed.pairs] == [("copier", "model18")]
    assert listed.scored == 0 and listed.from_store == 10


def _with_starter(root: Path) -> Path:
    """Three students whose testGame.c is the course's starter (a big test harness) and their own code."""
    starter = (MODEL_17 / "testGame.c").read_text()
    for name, own in (("ann", INDEPENDENT / "Game.c"), ("bo", PALACE / "Palace.c"), ("cy", MODEL_17 / "Game.c")):
        student(root, name, {"testGame.c": starter + "\n" + own.read_text()})
    (root.parent / "course" / "starter").mkdir(parents=True)
    (root.parent / "course" / "starter" / "testGame.c").write_text(starter)
    return root.parent / "course"


def test_a_starter_file_named_as_boilerplate_raises_no_pair(tmp_path: Path) -> None:
    course = _with_starter(tmp_path / "class")
    plain = run(tmp_path / "class", tmp_path / "store.sqlite")
    assert sorted((p.a.submission, p.b.submission) for p in plain.pairs if p.kind == TESTS) == [
        ("ann", "bo"), ("ann", "cy"), ("bo", "cy")]  # the starter alone makes them look alike
    (course / "marking.toml").write_text('[similarity]\nboilerplate = ["starter"]\n')  # a folder, from the file
    named = settings(course / "marking.toml")
    assert named.boilerplate == ((course / "starter").resolve(),)
    told = run(tmp_path / "class", tmp_path / "store.sqlite", named)
    assert [p for p in told.pairs if p.kind == TESTS] == [] and told.candidates == 3
    assert told.scored == 3  # new boilerplate, new scores
    assert str((course / "starter" / "testGame.c").resolve()) in told.boilerplate


def test_a_rerun_scores_nothing_it_has_scored(klass: Path, tmp_path: Path) -> None:
    root = tmp_path / "class"
    shutil.copytree(klass, root)
    first = run(root, tmp_path / "store.sqlite")
    assert (first.fingerprinted, first.scored, first.from_store) == (5, 10, 0)
    again = run(root, tmp_path / "store.sqlite", settings(threshold=0.3))  # a threshold only picks what is listed
    assert (again.fingerprinted, again.scored, again.from_store) == (0, 0, 10)
    student(root, "zed", {"Game.c": disguise((INDEPENDENT / "Game.c").read_text(), 5, KEEP)})
    student(root, "zoe", {"Game.c": (INDEPENDENT / "Game.c").read_text()})  # the same file as independent's
    more = run(root, tmp_path / "store.sqlite")
    # two new documents (zoe's is independent's: stored), and the pairs of zed with the six documents
    assert (more.fingerprinted, more.scored, more.from_store) == (1, 6, 10)
    assert [(p.a.submission, p.b.submission) for p in more.pairs] == [
        ("independent", "zoe"), ("copier", "model18"), ("independent", "zed"), ("zed", "zoe")]
    assert more.pairs[0].score.sim_a == more.pairs[0].score.sim_b == 1.0


def test_what_is_compared_of_a_submission(tmp_path: Path) -> None:
    """The files the build compiles but the course's Card.c, the test program and the player, each a kind of its
    own; a link is not followed (it could name any file of the staff's)."""
    (tmp_path / "secret.c").write_text("int secret;\n")
    folder = student(tmp_path, "ann", {"Game.c": "#include \"helpers.c\"\nint a;\n", "helpers.c": "int h;\n",
                                       "extra.c": "int e;\n", "Card.c": (MODEL / "Card.c").read_text(),
                                       "testGame.c": "int main(void) { return 0; }\n", "runGame.c": "int r;\n"})
    (folder / "player.c").symlink_to(tmp_path / "secret.c")
    docs = {d.kind: d for d in documents("ann", folder, GAME, "testGame.c")}
    assert sorted(docs) == [IMPLEMENTATION, TESTS]
    assert docs[IMPLEMENTATION].files == (("Game.c", 0), ("extra.c", 28), ("helpers.c", 35))
    assert docs[IMPLEMENTATION].text == "#include \"helpers.c\"\nint a;\nint e;\nint h;\n"
    assert docs[TESTS].names == "testGame.c"


def test_the_scores_are_copydetects() -> None:
    """The index's score of a pair is what copydetect's ``compare_files`` says of the same fingerprints."""
    chosen = settings().winnowing
    k = chosen.noise
    texts = [(MODEL / "Game.c").read_text(), (INDEPENDENT / "Game.c").read_text(), (MODEL_17 / "Game.c").read_text()]
    prints = [fingerprint(t, chosen) for t in texts]
    index = Index(prints, k)

    def theirs(i: int) -> SimpleNamespace:
        at: dict[int, list[int]] = {}
        for h, p in zip(prints[i].hashes.tolist(), prints[i].positions.tolist()):
            at.setdefault(h, []).append(p)
        normalised = filter_code(texts[i], "x.c", "c")[0]
        return SimpleNamespace(k=k, hashes=set(at), hash_idx=at, filtered_code=normalised, offsets=np.array([]),
                               token_coverage=get_token_coverage(at, k, len(normalised)))

    for i, j in ((0, 1), (0, 2), (1, 2)):
        sim_a, sim_b, cover_a, _cover_b = index.score_row(i, np.array([j]))[0]
        overlap, (sim_i, sim_j), _slices = compare_files(theirs(i), theirs(j))
        assert (sim_a, sim_b, cover_a) == (pytest.approx(sim_i), pytest.approx(sim_j), overlap)
        assert 0 < sim_a < 1 and 0 < sim_b < 1


@pytest.mark.parametrize("source", [MODEL / "Game.c", INDEPENDENT / "Game.c", PALACE / "Palace.c",
                                    MODEL_17 / "testGame.c", GAME.include_dir / "Game.h"], ids=lambda p: p.name)
def test_the_pages_map_copydetects_text_back_to_the_source(source: Path) -> None:
    text = source.read_text()
    walked, spans = raw_spans(text)
    assert walked == filter_code(text, source.name, "c")[0]
    for ch, (start, end) in zip(walked, spans.tolist()):  # each normalised character is its token's
        assert ch in "VFOPS\"" or text[start:end] == ch


def test_the_command_writes_the_list_the_csv_and_the_pages(klass: Path, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["similarity", str(klass), "--out", str(tmp_path / "out"), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "similarity: 5 submissions, 10 pairs shared code (10 scored, 0 from the store; 5 files" in out
    with (tmp_path / "out" / "similarity.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert [(r["rank"], r["kind"], r["submission_a"], r["submission_b"], r["page"]) for r in rows] == [
        ("1", "implementation", "copier", "model18", "similarity/1.html")]
    assert float(rows[0]["similarity_a_to_b"]) > 0.8 and int(rows[0]["shared_tokens"]) > 1000
    page = (tmp_path / "out" / "similarity" / "1.html").read_text()
    assert "<mark class=\"r0\" data-region=\"1\">" in page and 'href="../similarity.html"' in page
    assert 'href="similarity/1.html"' in (tmp_path / "out" / "similarity.html").read_text()


@pytest.mark.parametrize(("text", "told"), [
    ("[similarity]\nthreshold = 1.5\n", "similarity.threshold must be at most 1, got 1.5"),
    ("[similarity]\nnoise_threshold = 50\n", "similarity.guarantee_threshold must be at least noise_threshold (50)"),
    ("[similarity]\nboilerplate = \"starter.c\"\n", "similarity.boilerplate must be a list ([...]), got 'starter.c'"),
    ("[similarity]\nthresold = 0.4\n", "similarity.thresold is not a key of [similarity]: did you mean "
                                       "similarity.threshold?"),
    ("[similarity]\nboilerplate = [\"no-such-starter.c\"]\n", "similarity.boilerplate names what does not exist"),
])
def test_a_wrong_similarity_section_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str,
                                               told: str) -> None:
    (tmp_path / "course.toml").write_text(text)
    (tmp_path / "class" / "ann").mkdir(parents=True)
    (tmp_path / "class" / "ann" / "Game.c").write_text("int x;\n")
    code = main(["similarity", str(tmp_path / "class"), "--out", str(tmp_path / "out"), "--config",
                 str(tmp_path / "course.toml")])
    assert code == 2 and told in capsys.readouterr().err
    if "exist" not in told:  # a path is the check's to find, not the configuration's
        with pytest.raises(ConfigError, match=re.escape(told)):
            MarkingConfig.load(tmp_path / "course.toml")
