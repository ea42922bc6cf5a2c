"""The weight file's contract, src/model/weight_format.h, against what export.py writes.

The header states the contract as `inline constexpr std::string_view kX = "...";` and
`inline constexpr float kIntervalEdgesMs[] = {...};` lines. This test parses them (so a
name changed on one side only fails here), exports a tiny model (en, and a zh one with
its language/pinyin metadata), and reads the file's safetensors header by hand.
"""

import json
import re
import struct
import zlib
from pathlib import Path

import pytest

from conftest import need_torch

torch = need_torch()

from keydecide_train import export  # noqa: E402
from keydecide_train import tokens as T  # noqa: E402
from keydecide_train import zh_tokens as Z  # noqa: E402
from keydecide_train.model import ModelConfig, TypingModel  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]
HEADER = REPO_ROOT / "src" / "model" / "weight_format.h"

_STRING = re.compile(r'^\s*inline\s+constexpr\s+std::string_view\s+(k\w+)\s*=\s*"([^"]*)"\s*;',
                     re.M)
_FLOATS = re.compile(r"^\s*inline\s+constexpr\s+float\s+(k\w+)\s*\[\s*\]\s*=\s*\{([^}]*)\}\s*;",
                     re.M)
_LAYER_NAMES = ("kLn1", "kQkv", "kAttnOut", "kLn2", "kFc1", "kFc2")
_HEADS = ("kPopupHead", "kAutocorrectHead", "kIntentHead")


def parse_header(path: Path = HEADER) -> tuple[dict[str, str], dict[str, list[float]]]:
    """(string constants by name, float-array constants by name) of a weight_format.h."""
    text = path.read_text(encoding="utf-8")
    strings = dict(_STRING.findall(text))
    arrays = {name: [float(x) for x in body.replace("f", "").split(",") if x.strip()]
              for name, body in _FLOATS.findall(text)}
    return strings, arrays


def contract_tensor_names(k: dict[str, str], n_layers: int) -> set[str]:
    """Every tensor a file of `n_layers` layers holds, by the header's constants."""
    names = {k["kTokEmb"], k["kPosEmb"], k["kIvlEmb"], k["kBsEmb"]}
    suffixes = (k["kWeight"], k["kBias"])
    for i in range(n_layers):
        names |= {k["kLayerPrefix"] + str(i) + "." + k[n] + s
                  for n in _LAYER_NAMES for s in suffixes}
    names |= {k[n] + s for n in ("kLnF",) + _HEADS for s in suffixes}
    return names


def read_header(path: Path) -> dict:
    """The safetensors JSON header: 8-byte little-endian length, then the JSON."""
    data = path.read_bytes()
    (n,) = struct.unpack_from("<Q", data, 0)
    return json.loads(data[8:8 + n].decode("utf-8"))


def tiny_model(intent_labels=None) -> TypingModel:
    torch.manual_seed(0)
    extra = {"intent_labels": list(intent_labels)} if intent_labels else {}
    cfg = ModelConfig(n_layers=2, d_model=8, n_heads=2, d_ff=16, max_len=8,
                      vocab_size=T.WORD_OFFSET + 6, **extra)
    return TypingModel(cfg).eval()


def export_en(tmp_path: Path) -> Path:
    path = tmp_path / "en.safetensors"
    export.export_model(tiny_model(), T.WORD_SPECIALS + ["the", "of"], path, "f32")
    return path


def export_zh(tmp_path: Path) -> Path:
    path = tmp_path / "zh.safetensors"
    words = T.WORD_SPECIALS + ["我们", "中国"]
    meta = {"language": Z.LANGUAGE,
            "pinyin": Z.pinyin_metadata([""] * len(T.WORD_SPECIALS) + ["wo'men", "zhong'guo"])}
    export.export_model(tiny_model(Z.INTENT_LABELS), words, path, "f16", meta)
    return path


def check_file(path: Path, header_path: Path = HEADER, zh: bool = False) -> None:
    """Assert that the file at `path` is exactly what the header at `header_path` says."""
    k, arrays = parse_header(header_path)
    header = read_header(path)
    meta = header.pop("__metadata__")
    assert meta[k["kMetaFormat"]] == k["kFormatName"]
    assert meta[k["kMetaFormatVersion"]] == k["kFormatVersion"]
    allowed = {k["kMetaFormat"], k["kMetaFormatVersion"], k["kMetaConfig"], k["kMetaWords"],
               k["kMetaTensorCrc32"]}
    if zh:
        allowed |= {k["kMetaLanguage"], k["kMetaPinyin"]}
        assert meta[k["kMetaLanguage"]] == "zh"
    assert set(meta) == allowed, "metadata keys differ from the header's"
    config = json.loads(meta[k["kMetaConfig"]])
    words = meta[k["kMetaWords"]].split("\n")
    assert len(words) == config["vocab_size"] - config["word_offset"]
    if zh:
        assert len(meta[k["kMetaPinyin"]].split("\n")) == len(words)
    want = contract_tensor_names(k, config["n_layers"])
    assert set(header) == want, (f"not in the contract: {sorted(set(header) - want)}, "
                                 f"missing: {sorted(want - set(header))}")
    assert config["interval_edges_ms"] == arrays["kIntervalEdgesMs"]
    assert config["n_interval_buckets"] == len(arrays["kIntervalEdgesMs"]) + 2
    assert meta[k["kMetaTensorCrc32"]] == f"{zlib.crc32(tensor_bytes(path)):08x}"


def tensor_bytes(path: Path) -> bytes:
    """Every byte after the safetensors header: what tensor_crc32 covers."""
    data = path.read_bytes()
    (n,) = struct.unpack_from("<Q", data, 0)
    return data[8 + n:]


def test_header_parses():
    k, arrays = parse_header()
    for name in ("kMetaFormat", "kFormatName", "kMetaFormatVersion", "kFormatVersion",
                 "kMetaConfig", "kMetaWords", "kMetaLanguage", "kMetaPinyin",
                 "kMetaTensorCrc32", "kTokEmb",
                 "kPosEmb", "kIvlEmb", "kBsEmb", "kLayerPrefix", "kLnF", "kWeight", "kBias",
                 *_LAYER_NAMES, *_HEADS):
        assert name in k, f"{HEADER} lost {name}"
    assert arrays["kIntervalEdgesMs"] == T.INTERVAL_EDGES_MS
    assert (k["kFormatName"], k["kFormatVersion"]) == (export.FORMAT, export.FORMAT_VERSION)
    assert k["kMetaTensorCrc32"] == export.META_TENSOR_CRC32


def test_en_export_is_the_headers_contract(tmp_path):
    check_file(export_en(tmp_path))


def test_zh_export_is_the_headers_contract(tmp_path):
    check_file(export_zh(tmp_path), zh=True)


@pytest.mark.parametrize("old,new", [
    ('"attn.qkv"', '"attn.qkv_proj"'),
    ('"heads.intent"', '"heads.intents"'),
    ('"keydecide-model"', '"keydecide-model2"'),
    ('= "1";', '= "2";'),
    ('"config"', '"cfg"'),
    ('"tensor_crc32"', '"tensor_crc"'),
    ('{60, 100, 150, 220, 350, 600}', '{60, 100, 150, 220, 350, 650}'),
])
def test_a_changed_header_fails(tmp_path, old, new):
    """The check is live: a header edited on its own no longer matches the exporter."""
    path = export_en(tmp_path)
    text = HEADER.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    changed = tmp_path / "weight_format.h"
    changed.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises((AssertionError, KeyError)):
        check_file(path, changed)


def test_damaged_tensor_data_are_refused(tmp_path):
    """A flipped byte in the tensor data fails the checksum when the file is read."""
    path = export_en(tmp_path)
    data = bytearray(path.read_bytes())
    data[-5] ^= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="checksum mismatch"):
        export.read_safetensors(path)


def test_stamp_adds_the_checksum_and_keeps_every_tensor_byte(tmp_path):
    """--stamp on a file written before the checksum existed: the same tensor bytes at the
    same alignment, the same metadata plus tensor_crc32; stamping again changes nothing."""
    path = export_zh(tmp_path)
    header = read_header(path)
    del header["__metadata__"]["tensor_crc32"]
    blob = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    blob += b" " * ((64 - (8 + len(blob)) % 64) % 64)  # as the C++ writer aligns
    body = tensor_bytes(path)
    old = tmp_path / "old.safetensors"
    old.write_bytes(struct.pack("<Q", len(blob)) + blob + body)
    crc, changed = export.stamp_checksum(old)
    assert changed and crc == f"{zlib.crc32(body):08x}"
    assert tensor_bytes(old) == body
    (n,) = struct.unpack_from("<Q", old.read_bytes(), 0)
    assert (8 + n) % 64 == 0
    stamped = read_header(old)
    assert stamped.pop("__metadata__") == {**header["__metadata__"], "tensor_crc32": crc}
    assert stamped == {k: v for k, v in header.items() if k != "__metadata__"}
    check_file(old, zh=True)
    before = old.read_bytes()
    assert export.stamp_checksum(old) == (crc, False)
    assert old.read_bytes() == before
