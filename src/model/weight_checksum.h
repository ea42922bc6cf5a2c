// The weight file's integrity check (weight_format::kMetaTensorCrc32): zlib's crc32 of every
// byte after the safetensors header, that is of the tensor data in file order, stored as
// 8 lower-case hex digits. WriteSafetensors stamps it, Transformer::Load and QuantizeModel
// verify it, training/keydecide_train/export.py writes and checks the same value.
//
// Why crc32: zlib is already linked (the lexicon's and the bigram's checksums are crc32 too)
// and Python's standard library computes the same value (zlib.crc32), so the exporter needs
// nothing new. It finds every burst of up to 32 flipped bits and misses random damage with
// odds of 2^-32; at 6.5 GB/s it adds 1.3 ms to loading the 8.4 MB of the int8 English model
// (docs/history/BENCHMARKS-to-2026-12-07.md, "Weight file checksum"). It guards against damage, not
// against an attacker, who would rewrite the checksum too.

#ifndef KEYDECIDE_MODEL_WEIGHT_CHECKSUM_H_
#define KEYDECIDE_MODEL_WEIGHT_CHECKSUM_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "keydecide/status.h"

namespace keydecide {

// zlib crc32 of `data` (any length), continuing from `crc` (the value of the bytes before it;
// 0 for none).
uint32_t TensorDataCrc32(std::string_view data, uint32_t crc = 0);

// The metadata value for a checksum: 8 lower-case hex digits.
std::string FormatTensorCrc32(uint32_t crc);

// OK when `tensor_data` (SafetensorsFile::tensor_data) matches `stored`, the file's
// kMetaTensorCrc32, or when that is empty (files written before the checksum existed load as
// they did). Corruption when it is not 8 lower-case hex digits or does not match (the
// message gives both values).
Status VerifyTensorChecksum(std::string_view stored, std::string_view tensor_data);

}  // namespace keydecide

#endif  // KEYDECIDE_MODEL_WEIGHT_CHECKSUM_H_
