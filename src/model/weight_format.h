// The weight file's contract (docs/MODEL.md, "The typing model"): a safetensors file whose
// metadata and tensor names are these. training/keydecide_train/export.py writes exactly
// them, Transformer::Load reads exactly them, and training/tests/test_weight_format.py checks
// the two against this header. The names and values here are part of the persisted format:
// change them only with format_version.

#ifndef KEYDECIDE_MODEL_WEIGHT_FORMAT_H_
#define KEYDECIDE_MODEL_WEIGHT_FORMAT_H_

#include <string_view>

namespace keydecide::weight_format {

// Metadata keys (all values are strings) and their fixed values.
inline constexpr std::string_view kMetaFormat = "format";
inline constexpr std::string_view kFormatName = "keydecide-model";
inline constexpr std::string_view kMetaFormatVersion = "format_version";
inline constexpr std::string_view kFormatVersion = "1";
inline constexpr std::string_view kMetaConfig = "config";  // JSON: ModelConfig::Parse
inline constexpr std::string_view kMetaWords = "words";    // one vocabulary word per line
inline constexpr std::string_view kMetaLanguage =
    "language";  // a language tag ("en" when absent); the pack that loads the model checks it is
                 // its own
inline constexpr std::string_view kMetaPinyin =
    "pinyin";  // a reading per word, for a pack whose words have readings (pinyin)
// Quantized files: JSON object {tensor name: "q8" | "q4g32" | "q4g64" | "f32"}.
inline constexpr std::string_view kMetaQuantization = "quantization";
// zlib crc32 of every byte after the header (the tensor data in file order), as 8 lower-case
// hex digits (model/weight_checksum.h). Absent from files written before it existed, which
// load unchecked.
inline constexpr std::string_view kMetaTensorCrc32 = "tensor_crc32";

// Tensors. A layer's are kLayerPrefix + index + "." + one of the layer names, then a suffix.
inline constexpr std::string_view kTokEmb = "tok_emb.weight";  // [vocab_size, d]
inline constexpr std::string_view kPosEmb = "pos_emb.weight";  // [max_len, d]
inline constexpr std::string_view kIvlEmb = "ivl_emb.weight";  // [kIntervalBuckets, d]
inline constexpr std::string_view kBsEmb = "bs_emb.weight";    // [2, d]
inline constexpr std::string_view kLayerPrefix = "layers.";
inline constexpr std::string_view kLn1 = "ln1";                            // norm [d]
inline constexpr std::string_view kQkv = "attn.qkv";                       // linear [3d, d]
inline constexpr std::string_view kAttnOut = "attn.out";                   // linear [d, d]
inline constexpr std::string_view kLn2 = "ln2";                            // norm [d]
inline constexpr std::string_view kFc1 = "mlp.fc1";                        // linear [d_ff, d]
inline constexpr std::string_view kFc2 = "mlp.fc2";                        // linear [d, d_ff]
inline constexpr std::string_view kLnF = "ln_f";                           // norm [d]
inline constexpr std::string_view kPopupHead = "heads.popup";              // [1, d]
inline constexpr std::string_view kAutocorrectHead = "heads.autocorrect";  // [1, d]
inline constexpr std::string_view kIntentHead = "heads.intent";            // [n_intent_labels, d]
inline constexpr std::string_view kWeight = ".weight";
inline constexpr std::string_view kBias = ".bias";
inline constexpr std::string_view kScales = ".scales";  // a quantized weight's F32 scales

// The interval buckets' edges in milliseconds (config "interval_edges_ms"): bucket 1 is
// below the first edge, 7 at or above the last; 0 marks tokens that are not keystrokes.
inline constexpr float kIntervalEdgesMs[] = {60, 100, 150, 220, 350, 600};

}  // namespace keydecide::weight_format

#endif  // KEYDECIDE_MODEL_WEIGHT_FORMAT_H_
