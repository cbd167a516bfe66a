"""Student text is hostile: make it safe to put anywhere (as pytest's bin_xml_escape does)."""

from __future__ import annotations

import re

CAP = 64 * 1024
# Everything XML 1.0 forbids, plus the surrogates a broken decoder may leave behind.
_ILLEGAL = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def clean_text(text: str | None, cap: int = CAP) -> str:
    """Colour codes removed, illegal characters shown as #xNN, at most ``cap`` characters."""
    if not text:
        return ""
    text = _ANSI.sub("", text)
    if len(text) > cap:
        text = text[:cap] + f"\n... [{len(text) - cap} more characters not shown]"
    return _ILLEGAL.sub(lambda m: f"#x{ord(m.group()):02X}", text)
