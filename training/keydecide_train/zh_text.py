"""Han characters and the normalisation of Chinese text (prepare_zh_text.py; the Han classes
are also what make_pinyin_eval.py, make_latin_eval.py and zh_tokens.py split text at).
"""

from __future__ import annotations

import re
import unicodedata

from .text import Document


# Unified ideographs (extension A, the basic block, extensions B onwards) and 〇. The CJK
# compatibility ideographs (U+F900..) become unified ones under NFC.
HAN_CLASS = "\u3007\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
HAN = re.compile(f"[{HAN_CLASS}]")
HAN_RUN = re.compile(f"[{HAN_CLASS}]+")

# Chinese punctuation that stays full-width (what a Chinese keyboard types); every other
# full-width ASCII variant (letters, digits, ＃％＋／…) becomes its ASCII character.
KEEP_FULL_WIDTH = set("！，：；？（）")
_WIDTH = {cp: chr(cp - 0xFEE0) for cp in range(0xFF01, 0xFF5F) if chr(cp) not in KEEP_FULL_WIDTH}
_WIDTH.update({
    0xFF61: "。", 0xFF62: "「", 0xFF63: "」", 0xFF64: "、",  # half-width CJK punctuation
    # Unicode spaces (the ideographic space U+3000 included) -> space.
    0x00A0: " ", 0x2002: " ", 0x2003: " ", 0x2009: " ", 0x202F: " ", 0x3000: " ", 0x0009: " ",
    # Invisible characters.
    0x00AD: None, 0x200B: None, 0x200C: None, 0x200D: None, 0x2060: None, 0xFEFF: None,
})
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")
_SPACES = re.compile(r" {2,}")
# Characters between which a space is only a line-joining artefact: Han, CJK punctuation
# (、。〈〉《》「」『』【】…), full-width forms, curly quotes.
_CJK = f"{HAN_CLASS}\u3001-\u303f\uff01-\uff60\u201c\u201d\u2018\u2019"
_CJK_SPACE = re.compile(f"(?<=[{_CJK}]) +(?=[{_CJK}])")


def han_count(text: str) -> int:
    return len(HAN.findall(text))


def normalize_zh_line(text: str) -> str:
    """One paragraph of Chinese text: NFC, full-width ASCII variants to ASCII (Chinese
    punctuation kept), single spaces, no space between CJK characters."""
    text = unicodedata.normalize("NFC", text.replace("\n", " ")).translate(_WIDTH)
    text = _CONTROL.sub("", text)
    text = _SPACES.sub(" ", text).strip()
    return _CJK_SPACE.sub("", text)


def normalize_zh_document(doc: Document) -> Document:
    """Normalised lines of `doc` that contain at least one Han character."""
    lines = (normalize_zh_line(line) for line in doc.lines)
    return Document(doc.source, doc.doc_id, [line for line in lines if HAN.search(line)])
