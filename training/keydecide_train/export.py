"""Write and read the typing model's weight file (docs/MODEL.md, "File").

safetensors layout, written by hand (struct + json, no safetensors package): an 8-byte
little-endian header length, the JSON header (tensor name -> dtype, shape, data_offsets;
`__metadata__` with string values), padded with spaces so that the data starts at a
multiple of 8, then the raw row-major little-endian tensor data with no holes.

Tensors follow the contract's order, except that the few whose byte size is not a
multiple of 8 (the one-element head biases) go last, so every other tensor starts
8-byte aligned in an mmapped file.

The metadata's `tensor_crc32` is zlib's crc32 of every byte after the header (the tensor
data, as 8 lower-case hex digits; src/model/weight_checksum.h): the engine refuses a file
whose data do not match it. `--stamp` adds it to a file written before it existed without
changing a tensor byte.

Usage (from the repository root, PYTHONPATH=training):
  python3 -m keydecide_train.export CHECKPOINT.pt OUT.safetensors [--dtype f16|f32]
      (CHECKPOINT: a train.py best.pt)
  python3 -m keydecide_train.export --verify FILE.safetensors
  python3 -m keydecide_train.export --stamp FILE.safetensors [FILE ...]
      (adds or refreshes tensor_crc32 in place; float and quantized files alike)
"""

from __future__ import annotations

import argparse
import json
import struct
import zlib
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np

from . import tokens as T

FORMAT = "keydecide-model"
FORMAT_VERSION = "1"
META_TENSOR_CRC32 = "tensor_crc32"
_DTYPES = {"F32": np.dtype("<f4"), "F16": np.dtype("<f2")}
_MAX_HEADER = 64 << 20  # a sane bound: the vocabulary is well under 1 MB


def expected_shapes(config: Mapping) -> dict[str, tuple[int, ...]]:
    """Tensor name -> shape, in the contract's order."""
    d, f, V, L = config["d_model"], config["d_ff"], config["vocab_size"], config["max_len"]
    shapes: dict[str, tuple[int, ...]] = {
        "tok_emb.weight": (V, d), "pos_emb.weight": (L, d),
        "ivl_emb.weight": (config["n_interval_buckets"], d), "bs_emb.weight": (2, d)}
    for i in range(config["n_layers"]):
        p = f"layers.{i}."
        shapes.update({
            p + "ln1.weight": (d,), p + "ln1.bias": (d,),
            p + "attn.qkv.weight": (3 * d, d), p + "attn.qkv.bias": (3 * d,),
            p + "attn.out.weight": (d, d), p + "attn.out.bias": (d,),
            p + "ln2.weight": (d,), p + "ln2.bias": (d,),
            p + "mlp.fc1.weight": (f, d), p + "mlp.fc1.bias": (f,),
            p + "mlp.fc2.weight": (d, f), p + "mlp.fc2.bias": (d,)})
    n_intent = len(config["intent_labels"])
    shapes.update({
        "ln_f.weight": (d,), "ln_f.bias": (d,),
        "heads.popup.weight": (1, d), "heads.popup.bias": (1,),
        "heads.autocorrect.weight": (1, d), "heads.autocorrect.bias": (1,),
        "heads.intent.weight": (n_intent, d), "heads.intent.bias": (n_intent,)})
    return shapes


def write_safetensors(path: str | Path, tensors: Mapping[str, np.ndarray], config: Mapping,
                      words: Sequence[str], dtype: str = "f16",
                      metadata: Mapping[str, str] | None = None) -> int:
    """Write the model file; `tensors` are float arrays by contract name. Returns bytes.
    `metadata`: further string entries after `words` (a zh model's `language`, `pinyin`)."""
    st_dtype = {"f16": "F16", "f32": "F32"}[dtype.lower()]
    np_dtype = _DTYPES[st_dtype]
    shapes = expected_shapes(config)
    if set(tensors) != set(shapes):
        missing, extra = set(shapes) - set(tensors), set(tensors) - set(shapes)
        raise ValueError(f"tensor names differ from the contract: missing {sorted(missing)}, "
                         f"extra {sorted(extra)}")
    if len(words) != config["vocab_size"] - config["word_offset"]:
        raise ValueError("words must have vocab_size - word_offset entries")
    if any("\n" in w or not w for w in words):
        raise ValueError("a vocabulary word is empty or holds a newline")
    arrays = {}
    for name, shape in shapes.items():
        a = np.ascontiguousarray(np.asarray(tensors[name], dtype=np.float32))
        if a.shape != shape:
            raise ValueError(f"{name}: shape {a.shape}, contract says {shape}")
        if not np.isfinite(a).all():
            raise ValueError(f"{name}: not finite")
        arrays[name] = a.astype(np_dtype)
    order = sorted(shapes, key=lambda n: arrays[n].nbytes % 8 != 0)  # stable: contract order
    meta = {"format": FORMAT, "format_version": FORMAT_VERSION,
            "config": json.dumps(dict(config), separators=(",", ":")),
            "words": "\n".join(words)}
    for key, value in (metadata or {}).items():
        if key in meta or key == META_TENSOR_CRC32 or not isinstance(value, str):
            raise ValueError(f"metadata {key!r}: a contract key, or not a string")
        meta[key] = value
    return write_tensor_file(path, {name: arrays[name] for name in order}, meta)


def write_tensor_file(path: str | Path, arrays: Mapping[str, np.ndarray],
                      metadata: Mapping[str, str]) -> int:
    """Write `arrays` (F32 or F16 numpy arrays, in this order, no holes) and `metadata` plus
    its tensor_crc32 as a safetensors file, through a temporary file renamed into place.
    Returns bytes."""
    header: dict = {"__metadata__": dict(metadata)}
    crc = 0
    offset = 0
    for name, a in arrays.items():
        st_dtype = {np.dtype("<f4"): "F32", np.dtype("<f2"): "F16"}[a.dtype]
        crc = zlib.crc32(np.ascontiguousarray(a).tobytes(), crc)
        header[name] = {"dtype": st_dtype, "shape": list(a.shape),
                        "data_offsets": [offset, offset + a.nbytes]}
        offset += a.nbytes
    header["__metadata__"][META_TENSOR_CRC32] = f"{crc:08x}"
    # Raw UTF-8 in the JSON (not \u escapes): simpler for a minimal C++ JSON reader.
    blob = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    blob += b" " * ((8 - (8 + len(blob)) % 8) % 8)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(struct.pack("<Q", len(blob)))
        f.write(blob)
        for a in arrays.values():
            f.write(np.ascontiguousarray(a).tobytes())
    tmp.replace(path)
    return 8 + len(blob) + offset


def read_safetensors(path: str | Path) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """Read any safetensors file of F32/F16 tensors, checking the layout strictly:
    (tensors as float32 arrays, metadata). Raises ValueError on a malformed file."""
    data = Path(path).read_bytes()
    if len(data) < 8:
        raise ValueError("file shorter than the header length")
    (n,) = struct.unpack_from("<Q", data, 0)
    if n > _MAX_HEADER or 8 + n > len(data):
        raise ValueError(f"header length {n} out of range")
    try:
        header = json.loads(data[8:8 + n].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"bad header JSON: {e}") from None
    if not isinstance(header, dict):
        raise ValueError("header is not a JSON object")
    meta = header.pop("__metadata__", {}) or {}
    if not all(isinstance(v, str) for v in meta.values()):
        raise ValueError("metadata values must be strings")
    body = memoryview(data)[8 + n:]
    check_tensor_crc32(meta, body)
    spans = []
    tensors = {}
    for name, info in header.items():
        dtype = _DTYPES.get(info.get("dtype"))
        if dtype is None:
            raise ValueError(f"{name}: unsupported dtype {info.get('dtype')}")
        shape = tuple(int(s) for s in info["shape"])
        begin, end = (int(x) for x in info["data_offsets"])
        count = int(np.prod(shape)) if shape else 1
        if not 0 <= begin <= end <= len(body) or end - begin != count * dtype.itemsize:
            raise ValueError(f"{name}: data_offsets {begin}..{end} do not fit shape {shape}")
        spans.append((begin, end))
        raw = np.frombuffer(body[begin:end], dtype=dtype)
        tensors[name] = raw.reshape(shape).astype(np.float32)
    spans.sort()
    pos = 0
    for begin, end in spans:
        if begin != pos:
            raise ValueError("tensor data has holes or overlaps")
        pos = end
    if pos != len(body):
        raise ValueError("trailing bytes after the tensor data")
    return tensors, meta


def check_tensor_crc32(meta: Mapping[str, str], body) -> None:
    """Raise ValueError when the tensor data `body` do not match the metadata's tensor_crc32
    (a file without one passes, as in the engine)."""
    stored = meta.get(META_TENSOR_CRC32)
    if stored is None:
        return
    computed = f"{zlib.crc32(body):08x}"
    if stored != computed:
        raise ValueError(f"tensor data checksum mismatch (stored {stored}, computed {computed})")


def stamp_checksum(path: str | Path) -> tuple[str, bool]:
    """Add or refresh tensor_crc32 in the file at `path`, rewriting only its header: the
    tensor bytes stay as they are, and the header is padded so that they start at the same
    alignment as before (64 bytes for files the C++ writer made, else 8). Works on any
    safetensors file (quantized ones too). Returns (the checksum, whether the file changed)."""
    path = Path(path)
    data = path.read_bytes()
    (n,) = struct.unpack_from("<Q", data, 0)
    if n > _MAX_HEADER or 8 + n > len(data):
        raise ValueError(f"header length {n} out of range")
    header = json.loads(data[8:8 + n].decode("utf-8"))
    body = data[8 + n:]
    crc = f"{zlib.crc32(body):08x}"
    meta = header.setdefault("__metadata__", {})
    if meta.get(META_TENSOR_CRC32) == crc:
        return crc, False
    meta[META_TENSOR_CRC32] = crc
    align = 64 if (8 + n) % 64 == 0 else 8
    blob = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    blob += b" " * ((align - (8 + len(blob)) % align) % align)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(struct.pack("<Q", len(blob)))
        f.write(blob)
        f.write(body)
    tmp.replace(path)
    return crc, True


def verify_model_file(path: str | Path) -> tuple[dict[str, np.ndarray], dict, list[str]]:
    """Read a model file and check it against the contract: (tensors, config, words)."""
    tensors, meta = read_safetensors(path)
    if meta.get("format") != FORMAT or meta.get("format_version") != FORMAT_VERSION:
        raise ValueError(f"not a {FORMAT} v{FORMAT_VERSION} file")
    config = json.loads(meta["config"])
    language = meta.get("language", "en")  # English files carry no language entry
    if language not in ("en", "zh"):
        raise ValueError(f"unknown language {language!r}")
    if config["word_offset"] != T.WORD_OFFSET \
            or (language == "en" and config["intent_labels"] != T.INTENT_LABELS) \
            or config["app_types"] != T.APP_TYPES \
            or config["interval_edges_ms"] != T.INTERVAL_EDGES_MS \
            or config["n_interval_buckets"] != T.N_INTERVAL_BUCKETS:
        raise ValueError("config constants differ from the contract")
    shapes = expected_shapes(config)
    if set(tensors) != set(shapes):
        raise ValueError("tensor names differ from the contract")
    for name, shape in shapes.items():
        if tensors[name].shape != shape:
            raise ValueError(f"{name}: shape {tensors[name].shape}, expected {shape}")
    words = meta["words"].split("\n")
    if len(words) != config["vocab_size"] - config["word_offset"] \
            or words[:4] != T.WORD_SPECIALS:
        raise ValueError("words do not match vocab_size or do not start with the specials")
    if language == "zh":
        from . import zh_tokens
        zh_tokens.check_metadata(meta, len(words), config["intent_labels"])
    return tensors, config, words


def model_from_file(path: str | Path):
    """A TypingModel (float32, eval mode) with the file's weights, and its words."""
    import torch

    from .model import ModelConfig, TypingModel
    tensors, config, words = verify_model_file(path)
    model = TypingModel(ModelConfig.from_dict(config))
    model.load_state_dict({k: torch.from_numpy(v.copy()) for k, v in tensors.items()})
    return model.eval(), words


def export_model(model, words: Sequence[str], path: str | Path, dtype: str = "f16",
                 metadata: Mapping[str, str] | None = None) -> int:
    """Write a TypingModel (or its state_dict owner) to `path`."""
    state = {k: v.detach().float().cpu().numpy() for k, v in model.state_dict().items()}
    return write_safetensors(path, state, model.cfg.file_config(), words, dtype, metadata)


def main() -> None:
    ap = argparse.ArgumentParser(description="Export or verify a keydecide model file.")
    ap.add_argument("checkpoint", nargs="?", type=Path, help="train.py checkpoint (best.pt)")
    ap.add_argument("out", nargs="?", type=Path, help="output .safetensors")
    ap.add_argument("--dtype", choices=["f16", "f32"], default="f16")
    ap.add_argument("--verify", type=Path, help="check a model file and print a summary")
    ap.add_argument("--stamp", type=Path, nargs="+", metavar="FILE",
                    help="add tensor_crc32 to model files in place (tensor bytes unchanged)")
    args = ap.parse_args()
    if args.stamp:
        for path in args.stamp:
            crc, changed = stamp_checksum(path)
            print(f"{path}: tensor_crc32 {crc}" + ("" if changed else " (already there)"))
        return
    if args.verify:
        tensors, config, words = verify_model_file(args.verify)
        n = sum(t.size for t in tensors.values())
        language = read_safetensors(args.verify)[1].get("language")
        print(f"{args.verify}: ok, {len(tensors)} tensors, {n} parameters, "
              f"{len(words)} words, " + (f"language {language}, " if language else "")
              + f"config {json.dumps(config)}")
        return
    if not args.checkpoint or not args.out:
        ap.error("give CHECKPOINT and OUT, or --verify FILE")
    import torch

    from .model import ModelConfig, TypingModel
    ckpt = torch.load(args.checkpoint, map_location="cpu")
    model = TypingModel(ModelConfig.from_dict(ckpt["model_config"]))
    model.load_state_dict(ckpt["model"])
    size = export_model(model, ckpt["words"], args.out, args.dtype, ckpt.get("export_metadata"))
    print(f"{args.out}: {size} bytes ({args.dtype})")


if __name__ == "__main__":
    main()
