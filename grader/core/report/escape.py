"""Student text is hostile: make it safe to put in any report.

Everything a submission printed (and everything derived from it: messages that
quote its output, compiler diagnostics quoting its source) may hold NULs,
terminal escapes, lone surrogates, fake markup and megabytes.  ``clean_text``
is the one gate all of it passes before a report writer sees it:

* characters XML 1.0 forbids (C0 controls but TAB/LF/CR, surrogates, U+FFFE/F)
  and the ones it discourages that some writers silently delete (DEL, C1
  controls, the U+FDD0..FDEF and U+xFFFE/F non-characters) are shown as
  ``#xNN`` / ``#xNNNN``, as pytest's ``bin_xml_escape`` does -- visible to the
  student, never dropped, so "your output had an ESC in it" stays explainable;
* the result is at most ``cap`` bytes of UTF-8 (64 KiB by default), a note at
  the end saying how much was cut.

Markup (``<``, ``&``, ``]]>``) is left alone here: it is escaped by the XML
serialiser, by Jinja's autoescape and by ``json``, each for its own format.
The result is always encodable as UTF-8 (no lone surrogates survive).
"""

from __future__ import annotations

import re

CAP = 64 * 1024  # bytes of UTF-8, marker included

# Allowed: TAB LF CR, printable ASCII, NEL (U+0085), U+00A0..U+D7FF,
# U+E000..U+FFFD minus the U+FDD0..U+FDEF non-characters, and the
# supplementary planes minus U+xFFFE/U+xFFFF.  (DEL and the other C1 controls
# are legal XML 1.0, but pytest escapes DEL and junit-xml deletes the C1 range.)
_ILLEGAL = re.compile(
    "[^\u0009\u000a\u000d\u0020-\u007e\u0085\u00a0-\ud7ff\ue000-\ufdcf\ufdf0-\ufffd"
    "\U00010000-\U0010ffff]"
    "|[\U0001fffe\U0001ffff\U0002fffe\U0002ffff\U0003fffe\U0003ffff\U0004fffe\U0004ffff"
    "\U0005fffe\U0005ffff\U0006fffe\U0006ffff\U0007fffe\U0007ffff\U0008fffe\U0008ffff"
    "\U0009fffe\U0009ffff\U000afffe\U000affff\U000bfffe\U000bffff\U000cfffe\U000cffff"
    "\U000dfffe\U000dffff\U000efffe\U000effff\U000ffffe\U000fffff\U0010fffe\U0010ffff]"
)


def _show(match: re.Match[str]) -> str:
    i = ord(match.group())
    return f"#x{i:02X}" if i <= 0xFF else f"#x{i:04X}"


def escape_chars(text: str) -> str:
    """Every forbidden or discouraged character as ``#xNN`` (no capping)."""
    return _ILLEGAL.sub(_show, text)


def clean_text(text: object, cap: int = CAP) -> str:
    """``text`` made safe for XML, HTML and JSON: illegal characters shown as #xNN, at most ``cap`` bytes."""
    if text is None:
        return ""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="surrogateescape")  # undecodable bytes become #xDCNN
    text = str(text)
    if not text:
        return ""
    # Every character escapes to at least one byte, so nothing past ``cap`` characters can survive.
    shown = escape_chars(text[: cap + 1])
    data = shown.encode("utf-8")
    if len(data) <= cap and len(text) <= cap:
        return shown
    marker = f"\n[... cut: {len(text)} characters in all, only the first part is shown]"
    keep = max(cap - len(marker.encode("utf-8")), 0)
    head = data[:keep].decode("utf-8", errors="ignore")  # never splits a character
    return head + marker if keep else marker[: cap]


def first_line(text: str, cap: int = 1024) -> str:
    """The first non-blank line of (already cleaned) ``text``, for a one-line summary."""
    for line in text.splitlines():
        if line.strip():
            return clean_text(line.strip(), cap)
    return ""
